//===- Format.cpp - TorchScript's text for types and values ---------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Format.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tsmlir::torchscript;
namespace ts = mlir::tsmlir::ts;

static void printTensorType(llvm::raw_ostream &os, ts::TensorType type) {
  llvm::StringRef dtype =
      type.getDtype() ? ts::getTorchScriptDtypeName(type.getDtype()) : "";
  std::optional<int64_t> rank = type.getRank();
  if (!dtype.empty()) {
    os << dtype;
    if (!rank)
      os << "Tensor";
  } else {
    os << "Tensor";
  }
  unsigned printed = 0;
  auto separate = [&] {
    os << (printed++ ? ", " : "(");
  };
  if (rank) {
    os << "(";
    for (auto [i, size] : llvm::enumerate(type.getSizesOrEmpty())) {
      if (i)
        os << ", ";
      if (size == ts::TensorType::kUnknown)
        os << "*";
      else
        os << size;
    }
    printed = *rank;
    llvm::ArrayRef<int64_t> strides = type.getStridesOrEmpty();
    if (*rank > 0 && type.hasStrides() &&
        static_cast<int64_t>(strides.size()) == *rank &&
        llvm::none_of(strides, [](int64_t s) {
          return s == ts::TensorType::kUnknown;
        })) {
      os << ", strides=[";
      llvm::interleaveComma(strides, os);
      os << "]";
    }
    if (BoolAttr requiresGrad = type.getRequiresGrad()) {
      if (printed++)
        os << ", ";
      os << "requires_grad=" << (requiresGrad.getValue() ? 1 : 0);
    }
    if (StringAttr device = type.getDevice()) {
      if (printed++)
        os << ", ";
      os << "device=" << device.getValue();
    }
    os << ")";
    return;
  }
  if (BoolAttr requiresGrad = type.getRequiresGrad()) {
    separate();
    os << "requires_grad=" << (requiresGrad.getValue() ? 1 : 0);
  }
  if (StringAttr device = type.getDevice()) {
    separate();
    os << "device=" << device.getValue();
  }
  if (printed)
    os << ")";
}

/// The element type of a list as TorchScript states it. Lists are invariant
/// in TorchScript (`List[Float(2, 3)]` is no `List[Tensor]`, so no schema
/// would take it), and PyTorch never refines their tensor elements; the facts
/// shape inference records there are for tsmlir's folders only.
static bool printListElementType(llvm::raw_ostream &os, Type type) {
  return llvm::TypeSwitch<Type, bool>(type)
      .Case<ts::TensorType>([&](Type) {
        os << "Tensor";
        return true;
      })
      .Case<ts::OptionalType>([&](ts::OptionalType t) {
        bool ok = printListElementType(os, t.getContainedType());
        os << "?";
        return ok;
      })
      .Case<ts::ListType>([&](ts::ListType t) {
        bool ok = printListElementType(os, t.getElementType());
        os << "[]";
        return ok;
      })
      .Default([&](Type t) { return printType(os, t); });
}

bool mlir::tsmlir::torchscript::printType(llvm::raw_ostream &os, Type type) {
  return llvm::TypeSwitch<Type, bool>(type)
      .Case<ts::TensorType>([&](ts::TensorType t) {
        printTensorType(os, t);
        return true;
      })
      .Case<ts::ListType>([&](ts::ListType t) {
        bool ok = printListElementType(os, t.getElementType());
        os << "[]";
        return ok;
      })
      .Case<ts::OptionalType>([&](ts::OptionalType t) {
        bool ok = printType(os, t.getContainedType());
        os << "?";
        return ok;
      })
      .Case<ts::TupleType>([&](ts::TupleType t) {
        bool ok = true;
        llvm::StringRef fields;
        if (StringAttr name = t.getName())
          fields = name.getValue();
        llvm::SmallVector<llvm::StringRef> names;
        if (fields.consume_front("(") && fields.consume_back(")")) {
          fields.split(names, ", ");
          if (names.size() != t.getElementTypes().size())
            names.clear();
        }
        if (!names.empty())
          os << "NamedTuple";
        os << "(";
        for (auto [i, element] : llvm::enumerate(t.getElementTypes())) {
          if (i)
            os << ", ";
          if (!names.empty())
            os << names[i] << " : ";
          ok &= printType(os, element);
        }
        os << ")";
        return ok;
      })
      .Case<ts::DictType>([&](ts::DictType t) {
        os << "Dict(";
        bool ok = printType(os, t.getKeyType());
        os << ", ";
        ok &= printType(os, t.getValueType());
        os << ")";
        return ok;
      })
      .Case<ts::UnionType>([&](ts::UnionType t) {
        os << "Union(";
        bool ok = true;
        for (auto [i, element] : llvm::enumerate(t.getContainedTypes())) {
          if (i)
            os << ", ";
          ok &= printType(os, element);
        }
        os << ")";
        return ok;
      })
      .Case<ts::FutureType>([&](ts::FutureType t) {
        os << "Future[";
        bool ok = printType(os, t.getContainedType());
        os << "]";
        return ok;
      })
      .Case<ts::ModuleType>([&](ts::ModuleType t) {
        os << t.getName();
        return true;
      })
      .Case<ts::ClassType>([&](ts::ClassType t) {
        os << t.getName();
        return true;
      })
      .Case<ts::OpaqueType>([&](ts::OpaqueType t) {
        os << t.getText();
        return true;
      })
      .Case<ts::IntType>([&](Type) { return os << "int", true; })
      .Case<ts::FloatType>([&](Type) { return os << "float", true; })
      .Case<ts::BoolType>([&](Type) { return os << "bool", true; })
      .Case<ts::StrType>([&](Type) { return os << "str", true; })
      .Case<ts::NoneType>([&](Type) { return os << "NoneType", true; })
      .Case<ts::DeviceType>([&](Type) { return os << "Device", true; })
      .Case<ts::NumberType>([&](Type) { return os << "Scalar", true; })
      .Case<ts::ComplexType>([&](Type) { return os << "complex", true; })
      .Case<ts::AnyType>([&](Type) { return os << "Any", true; })
      .Case<ts::FunctionType>([&](Type) { return os << "Function", true; })
      .Case<ts::GeneratorType>([&](Type) { return os << "Generator", true; })
      .Case<ts::LayoutType>([&](Type) { return os << "Layout", true; })
      .Case<ts::MemoryFormatType>(
          [&](Type) { return os << "MemoryFormat", true; })
      .Case<ts::ScalarTypeType>([&](Type) { return os << "ScalarType", true; })
      .Case<ts::StorageType>([&](Type) { return os << "Storage", true; })
      .Case<ts::StreamType>([&](Type) { return os << "Stream", true; })
      .Default([&](Type t) {
        os << t;
        return false;
      });
}

void mlir::tsmlir::torchscript::printPythonType(llvm::raw_ostream &os,
                                                Type type) {
  llvm::TypeSwitch<Type>(type)
      .Case<ts::ListType>([&](ts::ListType t) {
        os << "List[";
        printPythonType(os, t.getElementType());
        os << "]";
      })
      .Case<ts::OptionalType>([&](ts::OptionalType t) {
        os << "Optional[";
        printPythonType(os, t.getContainedType());
        os << "]";
      })
      .Case<ts::DictType>([&](ts::DictType t) {
        os << "Dict[";
        printPythonType(os, t.getKeyType());
        os << ", ";
        printPythonType(os, t.getValueType());
        os << "]";
      })
      .Case<ts::TupleType>([&](ts::TupleType t) {
        os << "Tuple[";
        llvm::interleaveComma(t.getElementTypes(), os,
                              [&](Type e) { printPythonType(os, e); });
        os << "]";
      })
      .Case<ts::TensorType>([&](Type) { os << "Tensor"; })
      .Default([&](Type t) { printType(os, t); });
}

void mlir::tsmlir::torchscript::printDouble(llvm::raw_ostream &os,
                                            double value) {
  int kind = std::fpclassify(value);
  if ((kind == FP_NORMAL || kind == FP_ZERO) && std::abs(value) < 1e10) {
    auto integral = static_cast<int64_t>(value);
    if (static_cast<double>(integral) == value) {
      if (integral == 0 && std::signbit(value))
        os << "-";
      os << integral << ".";
      return;
    }
  }
  if (std::isnan(value)) {
    os << "nan";
    return;
  }
  if (std::isinf(value)) {
    os << (value < 0 ? "-inf" : "inf");
    return;
  }
  os << llvm::format("%.17g", value);
}

void mlir::tsmlir::torchscript::printQuotedString(llvm::raw_ostream &os,
                                                  llvm::StringRef value) {
  os << '"';
  for (char c : value) {
    switch (c) {
    case '\\':
      os << "\\\\";
      break;
    case '\'':
      os << "\\'";
      break;
    case '"':
      os << "\\\"";
      break;
    case '\a':
      os << "\\a";
      break;
    case '\b':
      os << "\\b";
      break;
    case '\f':
      os << "\\f";
      break;
    case '\n':
      os << "\\n";
      break;
    case '\r':
      os << "\\r";
      break;
    case '\t':
      os << "\\t";
      break;
    case '\v':
      os << "\\v";
      break;
    default:
      if (c >= 0x20 && c < 0x7f) {
        os << c;
      } else {
        // Three base-8 digits of the signed char, computed with truncating
        // division as PyTorch does, so bytes >= 0x80 give digits below '0'.
        int v = static_cast<signed char>(c);
        char digits[3];
        digits[2] = static_cast<char>('0' + v % 8);
        v /= 8;
        digits[1] = static_cast<char>('0' + v % 8);
        v /= 8;
        digits[0] = static_cast<char>('0' + v);
        os << '\\' << llvm::StringRef(digits, 3);
      }
    }
  }
  os << '"';
}

/// The elements of a tensor value as doubles; none if the data is absent.
static std::optional<llvm::SmallVector<double>>
getElementsAsDoubles(ElementsAttr value) {
  Type element = value.getElementType();
  llvm::SmallVector<double> out;
  if (auto dense = llvm::dyn_cast<DenseElementsAttr>(value)) {
    if (llvm::isa<mlir::FloatType>(element)) {
      for (APFloat v : dense.getValues<APFloat>())
        out.push_back(v.convertToDouble());
    } else if (auto intType = llvm::dyn_cast<IntegerType>(element)) {
      for (APInt v : dense.getValues<APInt>())
        out.push_back(intType.isUnsigned() || intType.getWidth() == 1
                          ? double(v.getZExtValue())
                          : double(v.getSExtValue()));
    } else {
      return std::nullopt;
    }
    return out;
  }
  auto resource = llvm::dyn_cast<DenseResourceElementsAttr>(value);
  if (!resource)
    return std::nullopt;
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob)
    return std::nullopt;
  llvm::ArrayRef<char> data = blob->getData();
  int64_t count = value.getNumElements();
  unsigned width = element.getIntOrFloatBitWidth();
  unsigned bytes = width == 1 ? 1 : width / 8;
  if (static_cast<int64_t>(data.size()) != count * bytes)
    return std::nullopt;
  for (int64_t i = 0; i < count; ++i) {
    llvm::ArrayRef<char> raw = data.slice(i * bytes, bytes);
    APInt bits(bytes * 8, 0);
    for (unsigned b = 0; b < bytes; ++b)
      bits.insertBits(APInt(8, static_cast<uint8_t>(raw[b])), b * 8);
    if (auto floatType = llvm::dyn_cast<mlir::FloatType>(element)) {
      out.push_back(APFloat(floatType.getFloatSemantics(), bits.trunc(width))
                        .convertToDouble());
    } else if (auto intType = llvm::dyn_cast<IntegerType>(element)) {
      APInt v = bits.trunc(width);
      out.push_back(intType.isUnsigned() || width == 1 ? double(v.getZExtValue())
                                                       : double(v.getSExtValue()));
    } else {
      return std::nullopt;
    }
  }
  return out;
}

/// at::print's layout for at most ten values: one field width and format for
/// all, chosen from the largest and smallest magnitudes.
static void printTensorElements(llvm::raw_ostream &os,
                                llvm::ArrayRef<double> values) {
  bool intMode = true;
  for (double v : values)
    if (std::isfinite(v) && v != std::ceil(v)) {
      intMode = false;
      break;
    }
  double expMin = 1, expMax = 1;
  size_t offset = 0;
  while (offset < values.size() && !std::isfinite(values[offset]))
    ++offset;
  if (offset < values.size()) {
    expMin = expMax = std::fabs(values[offset]);
    for (double v : values.drop_front(offset)) {
      double z = std::fabs(v);
      if (!std::isfinite(z))
        continue;
      expMin = std::min(expMin, z);
      // at::print compares the signed value here, so a negative element
      // after the first never widens the field.
      if (v > expMax)
        expMax = z;
    }
    expMin = expMin != 0 ? std::floor(std::log10(expMin)) + 1 : 1;
    expMax = expMax != 0 ? std::floor(std::log10(expMax)) + 1 : 1;
  }
  enum { Default, Fixed, Scientific } style;
  double scale = 1;
  int width;
  if (intMode) {
    if (expMax > 9) {
      width = 11;
      style = Scientific;
    } else {
      width = static_cast<int>(expMax) + 1;
      style = Default;
    }
  } else if (expMax - expMin > 4) {
    width = 11;
    if (std::fabs(expMax) > 99 || std::fabs(expMin) > 99)
      ++width;
    style = Scientific;
  } else if (expMax > 5 || expMax < 0) {
    width = 7;
    scale = std::pow(10, expMax - 1);
    style = Fixed;
  } else {
    width = expMax == 0 ? 7 : static_cast<int>(expMax) + 6;
    style = Fixed;
  }
  if (scale != 1)
    os << llvm::format("%g", scale) << " * ";
  for (double v : values) {
    v /= scale;
    std::string text;
    if (std::isnan(v))
      text = "nan";
    else if (std::isinf(v))
      text = v < 0 ? "-inf" : "inf";
    else if (style == Fixed)
      text = llvm::formatv("{0:F4}", v).str();
    else if (style == Scientific)
      text = llvm::formatv("{0:e4}", v).str();
    else
      text = llvm::formatv("{0}", llvm::format("%g", v)).str();
    if (static_cast<int>(text.size()) < width)
      os.indent(width - text.size());
    os << text << " ";
  }
}

void mlir::tsmlir::torchscript::printTensorValue(llvm::raw_ostream &os,
                                                 ElementsAttr value) {
  int64_t count = value.getNumElements();
  std::optional<llvm::SmallVector<double>> values;
  if (count <= 10)
    values = getElementsAsDoubles(value);
  if (!values) {
    os << "<Tensor>";
    return;
  }
  Type element = value.getElementType();
  if (count == 1) {
    os << "{";
    if (llvm::isa<mlir::FloatType>(element))
      os << llvm::format("%g", (*values)[0]);
    else
      os << static_cast<int64_t>((*values)[0]);
    os << "}";
    return;
  }
  printTensorElements(os, *values);
  os << "[ CPU" << ts::getTorchScriptDtypeName(element) << "Type{";
  llvm::interleave(value.getShapedType().getShape(), os, ",");
  os << "} ]";
}
