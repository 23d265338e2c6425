//===- ImportValues.cpp - TorchScript types and attribute values ----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Types as `operator<<(std::ostream&, const c10::Type&)` prints them, and
// attribute values as `Node::printAttrValue` and IValue's printer write them.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "tsmlir/Dialect/TorchScript/IR/Dtypes.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::torchscript;
namespace ts = mlir::tsmlir::ts;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

LogicalResult Importer::parseQualifiedName(std::string &name) {
  if (!tok.is(Token::identifier))
    return emitError("expected a name");
  name = tok.spelling.str();
  consume();
  while (tok.is(Token::dot)) {
    consume();
    if (!tok.is(Token::identifier))
      return emitError("expected a name after '.'");
    name += ".";
    name += tok.spelling;
    consume();
  }
  return success();
}

/// Parses the refinement list after a tensor's dtype name: sizes (when the
/// rank is known), `strides=[...]`, `requires_grad=0|1`, `device=cpu`.
Type Importer::parseTensorRefinement(Type dtype, bool rankKnown) {
  llvm::SmallVector<int64_t> sizes, strides;
  bool hasStrides = false;
  std::optional<bool> requiresGrad;
  std::string device;
  if (consumeIf(Token::l_paren) && !consumeIf(Token::r_paren)) {
    do {
      if (tok.is(Token::identifier) && tok.spelling != "SS") {
        llvm::StringRef key = tok.spelling;
        const char *keyLoc = tok.getLoc();
        consume();
        if (failed(expect(Token::equal, "'=' after a tensor property")))
          return {};
        if (key == "strides") {
          if (failed(expect(Token::l_square, "'['")))
            return {};
          hasStrides = true;
          if (!consumeIf(Token::r_square)) {
            do {
              int64_t stride;
              if (tok.is(Token::star)) {
                stride = ts::TensorType::kUnknown;
              } else if (!tok.is(Token::integer) ||
                         tok.spelling.getAsInteger(10, stride)) {
                emitError("expected a stride");
                return {};
              }
              consume();
              strides.push_back(stride);
            } while (consumeIf(Token::comma));
            if (failed(expect(Token::r_square, "']' after the strides")))
              return {};
          }
        } else if (key == "requires_grad") {
          if (!tok.is(Token::integer) ||
              (tok.spelling != "0" && tok.spelling != "1")) {
            emitError("expected 0 or 1 for requires_grad");
            return {};
          }
          requiresGrad = tok.spelling == "1";
          consume();
        } else if (key == "device") {
          // cpu, cuda:0, meta, ...: an identifier, then `:index`.
          if (!tok.is(Token::identifier)) {
            emitError("expected a device");
            return {};
          }
          device = tok.spelling.str();
          consume();
          if (tok.is(Token::colon)) {
            consume();
            if (!tok.is(Token::integer)) {
              emitError("expected a device index");
              return {};
            }
            device += ":" + tok.spelling.str();
            consume();
          }
        } else {
          emitError(keyLoc, "unknown tensor property '" + key + "'");
          return {};
        }
        continue;
      }
      if (!rankKnown) {
        emitError("sizes need a dtype: expected a tensor property");
        return {};
      }
      if (!hasStrides && !requiresGrad && device.empty()) {
        int64_t size;
        if (tok.is(Token::star)) {
          size = ts::TensorType::kUnknown;
          consume();
        } else if (tok.isIdentifier("SS")) {
          // A symbolic size, SS(-2): unknown here.
          consume();
          if (failed(expect(Token::l_paren, "'('")) ||
              !tok.is(Token::integer)) {
            emitError("expected a symbolic size");
            return {};
          }
          consume();
          if (failed(expect(Token::r_paren, "')'")))
            return {};
          size = ts::TensorType::kUnknown;
        } else if (tok.is(Token::integer) &&
                   !tok.spelling.getAsInteger(10, size) && size >= 0) {
          consume();
        } else {
          emitError("expected a size, '*' or a tensor property");
          return {};
        }
        sizes.push_back(size);
        continue;
      }
      emitError("expected a tensor property");
      return {};
    } while (consumeIf(Token::comma));
    if (failed(expect(Token::r_paren, "')' after the tensor type")))
      return {};
  }
  if (hasStrides && strides.size() != sizes.size()) {
    emitError("tensor type has " + llvm::Twine(sizes.size()) + " sizes but " +
              llvm::Twine(strides.size()) + " strides");
    return {};
  }
  std::optional<llvm::ArrayRef<int64_t>> sizesOpt, stridesOpt;
  if (rankKnown)
    sizesOpt = llvm::ArrayRef<int64_t>(sizes);
  if (hasStrides)
    stridesOpt = llvm::ArrayRef<int64_t>(strides);
  return ts::TensorType::get(context, dtype, sizesOpt, stridesOpt, device,
                             requiresGrad);
}

Type Importer::parseType() {
  NestingGuard nesting(*this);
  if (!nesting.ok())
    return {};
  const char *loc = tok.getLoc();
  Type type;
  if (tok.is(Token::l_paren)) {
    // (T1, T2): a tuple.
    consume();
    llvm::SmallVector<Type> elements;
    if (!consumeIf(Token::r_paren)) {
      do {
        Type element = parseType();
        if (!element)
          return {};
        elements.push_back(element);
      } while (consumeIf(Token::comma));
      if (failed(expect(Token::r_paren, "')' after the tuple's types")))
        return {};
    }
    type = ts::TupleType::get(context, elements, StringAttr());
  } else if (tok.is(Token::identifier)) {
    llvm::StringRef name = tok.spelling;
    auto parseArgs = [&](Token::Kind open, Token::Kind close,
                         llvm::SmallVectorImpl<Type> &args) -> LogicalResult {
      if (failed(expect(open, open == Token::l_paren ? "'('" : "'['")))
        return failure();
      do {
        Type arg = parseType();
        if (!arg)
          return failure();
        args.push_back(arg);
      } while (consumeIf(Token::comma));
      return expect(close, close == Token::r_paren ? "')'" : "']'");
    };
    // Look the name up before making the type: each get() is a lookup in
    // the context's uniquer, too costly to do for every name.
    using TypeGetter = Type (*)(MLIRContext *);
    TypeGetter getter =
        llvm::StringSwitch<TypeGetter>(name)
            .Case("int", +[](MLIRContext *c) -> Type {
              return ts::IntType::get(c);
            })
            .Case("float", +[](MLIRContext *c) -> Type {
              return ts::FloatType::get(c);
            })
            .Case("bool", +[](MLIRContext *c) -> Type {
              return ts::BoolType::get(c);
            })
            .Case("str", +[](MLIRContext *c) -> Type {
              return ts::StrType::get(c);
            })
            .Case("NoneType", +[](MLIRContext *c) -> Type {
              return ts::NoneType::get(c);
            })
            .Case("Device", +[](MLIRContext *c) -> Type {
              return ts::DeviceType::get(c);
            })
            .Cases({"Scalar", "number"}, +[](MLIRContext *c) -> Type {
              return ts::NumberType::get(c);
            })
            .Case("complex", +[](MLIRContext *c) -> Type {
              return ts::ComplexType::get(c);
            })
            .Case("Any", +[](MLIRContext *c) -> Type {
              return ts::AnyType::get(c);
            })
            .Case("Function", +[](MLIRContext *c) -> Type {
              return ts::FunctionType::get(c);
            })
            .Case("Generator", +[](MLIRContext *c) -> Type {
              return ts::GeneratorType::get(c);
            })
            .Case("Layout", +[](MLIRContext *c) -> Type {
              return ts::LayoutType::get(c);
            })
            .Case("MemoryFormat", +[](MLIRContext *c) -> Type {
              return ts::MemoryFormatType::get(c);
            })
            .Case("ScalarType", +[](MLIRContext *c) -> Type {
              return ts::ScalarTypeType::get(c);
            })
            .Case("Storage", +[](MLIRContext *c) -> Type {
              return ts::StorageType::get(c);
            })
            .Case("Stream", +[](MLIRContext *c) -> Type {
              return ts::StreamType::get(c);
            })
            .Default(nullptr);
    Type simple = getter ? getter(context) : Type();
    if (simple) {
      consume();
      type = simple;
    } else if (name == "Tensor") {
      consume();
      type = parseTensorRefinement(Type(), /*rankKnown=*/false);
    } else if (Type dtype = ts::getDtypeForTorchScriptName(context, name)) {
      consume();
      type = parseTensorRefinement(dtype, /*rankKnown=*/true);
    } else if (name.ends_with("Tensor") &&
               ts::getDtypeForTorchScriptName(context, name.drop_back(6))) {
      Type dtype = ts::getDtypeForTorchScriptName(context, name.drop_back(6));
      consume();
      type = parseTensorRefinement(dtype, /*rankKnown=*/false);
    } else if (name == "Dict") {
      consume();
      llvm::SmallVector<Type> args;
      if (failed(parseArgs(Token::l_paren, Token::r_paren, args)))
        return {};
      if (args.size() != 2) {
        emitError(loc, "Dict takes a key and a value type");
        return {};
      }
      type = ts::DictType::get(context, args[0], args[1]);
    } else if (name == "Union") {
      consume();
      llvm::SmallVector<Type> args;
      if (failed(parseArgs(Token::l_paren, Token::r_paren, args)))
        return {};
      type = ts::UnionType::get(context, args);
    } else if (name == "Future") {
      consume();
      llvm::SmallVector<Type> args;
      if (failed(parseArgs(Token::l_square, Token::r_square, args)))
        return {};
      if (args.size() != 1) {
        emitError(loc, "Future takes one type");
        return {};
      }
      type = ts::FutureType::get(context, args[0]);
    } else if (name == "NamedTuple") {
      // NamedTuple(a : Tensor, b : int): the field names go in the name.
      consume();
      if (failed(expect(Token::l_paren, "'('")))
        return {};
      llvm::SmallVector<Type> elements;
      std::string fields;
      if (!consumeIf(Token::r_paren)) {
        do {
          if (!tok.is(Token::identifier)) {
            emitError("expected a field name");
            return {};
          }
          if (!fields.empty())
            fields += ", ";
          fields += tok.spelling.str();
          consume();
          if (failed(expect(Token::colon, "':' after the field name")))
            return {};
          Type element = parseType();
          if (!element)
            return {};
          elements.push_back(element);
        } while (consumeIf(Token::comma));
        if (failed(expect(Token::r_paren, "')'")))
          return {};
      }
      type = ts::TupleType::get(context, elements,
                                StringAttr::get(context, "(" + fields + ")"));
    } else {
      // A class or module: __torch__.source.MLP.
      std::string qualified;
      if (failed(parseQualifiedName(qualified)))
        return {};
      if (!llvm::StringRef(qualified).contains('.')) {
        emitError(loc, "unknown type '" + qualified + "'");
        return {};
      }
      type = ts::ClassType::get(context, qualified);
    }
  } else {
    emitError("expected a type");
    return {};
  }
  if (!type)
    return {};
  // `Tensor[Undefined]`: the type PyTorch gives an undefined tensor (a
  // gradient known to be zero). Kept as text.
  if (llvm::isa<ts::TensorType>(type) && tok.is(Token::l_square)) {
    Lexer probe = lexer;
    Token next = probe.lex();
    if (next.isIdentifier("Undefined") && probe.lex().is(Token::r_square)) {
      consume();
      consume();
      consume();
      std::string text;
      llvm::raw_string_ostream os(text);
      os << llvm::StringRef(loc, tok.getLoc() - loc).rtrim();
      type = ts::OpaqueType::get(context, text);
    }
  }
  // Postfix: T? and T[]. Each wraps the type once more, and later stages
  // walk types recursively, so they count as nesting too.
  for (unsigned wraps = 1;; ++wraps) {
    bool optional = tok.is(Token::question);
    if (!optional && !tok.is(Token::l_square))
      return type;
    if (depth + wraps > kMaxNesting) {
      emitError("nesting deeper than " + llvm::Twine(kMaxNesting) + " levels");
      return {};
    }
    consume();
    if (optional) {
      type = ts::OptionalType::get(context, type);
      continue;
    }
    if (failed(expect(Token::r_square, "']' of a list type")))
      return {};
    type = ts::ListType::get(context, type);
  }
}

/// Skips a Python type annotation, as in `annotate(List[int], [])`.
LogicalResult Importer::skipPythonType() {
  NestingGuard nesting(*this);
  if (!nesting.ok())
    return failure();
  std::string name;
  if (failed(parseQualifiedName(name)))
    return failure();
  if (!consumeIf(Token::l_square))
    return success();
  do {
    if (failed(skipPythonType()))
      return failure();
  } while (consumeIf(Token::comma));
  return expect(Token::r_square, "']' of the annotation");
}

//===----------------------------------------------------------------------===//
// Attribute values
//===----------------------------------------------------------------------===//

LogicalResult Importer::parseAttributes(std::vector<ParsedAttr> &attrs) {
  consume(); // [
  do {
    if (!tok.is(Token::identifier))
      return emitError("expected an attribute name");
    ParsedAttr attr;
    attr.name = tok.spelling.str();
    for (const ParsedAttr &other : attrs)
      if (other.name == attr.name)
        return emitError("attribute '" + attr.name + "' given twice");
    consume();
    if (failed(expect(Token::equal, "'=' after the attribute name")) ||
        failed(parseValue(attr.value)))
      return failure();
    attrs.push_back(std::move(attr));
  } while (consumeIf(Token::comma));
  return expect(Token::r_square, "']' after the attributes");
}

LogicalResult Importer::parseNumber(ParsedValue &value) {
  value.loc = tok.getLoc();
  bool negative = false;
  if (tok.is(Token::minus)) {
    negative = true;
    consume();
    if (!tok.isIdentifier("inf") && !tok.isIdentifier("nan"))
      return emitError("expected a number after '-'");
  }
  if (tok.is(Token::identifier)) { // inf, nan
    value.kind = ParsedValue::Float;
    value.floatValue = tok.spelling == "inf"
                           ? std::numeric_limits<double>::infinity()
                           : std::numeric_limits<double>::quiet_NaN();
    if (negative)
      value.floatValue = -value.floatValue;
    consume();
    return success();
  }
  if (tok.is(Token::integer)) {
    value.kind = ParsedValue::Int;
    if (tok.spelling.getAsInteger(10, value.intValue))
      return emitError("integer '" + tok.spelling + "' is out of range");
    consume();
    return success();
  }
  if (tok.is(Token::floating)) {
    value.kind = ParsedValue::Float;
    // StringRef::getAsDouble rejects "2." ; strtod takes it.
    std::string text = tok.spelling.str();
    char *end = nullptr;
    value.floatValue = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size())
      return emitError("malformed number '" + tok.spelling + "'");
    consume();
    return success();
  }
  return emitError("expected a number");
}

static bool isNumberStart(const Token &tok) {
  return tok.is(Token::integer) || tok.is(Token::floating) ||
         tok.is(Token::minus) || tok.isIdentifier("inf") ||
         tok.isIdentifier("nan");
}

/// ` 0.1795  0.5557 -0.4940 [ CPUFloatType{3} ]`: at::print's text for a
/// tensor of at most 10 elements, with newlines turned into spaces. A common
/// scale can lead (`1e-05 *`).
LogicalResult Importer::parseInlineTensor(ParsedValue &value) {
  value.kind = ParsedValue::InlineTensor;
  value.loc = tok.getLoc();
  double scale = 1;
  bool first = true;
  while (isNumberStart(tok)) {
    ParsedValue number;
    if (failed(parseNumber(number)))
      return failure();
    double v = number.kind == ParsedValue::Int ? double(number.intValue)
                                               : number.floatValue;
    if (first && tok.is(Token::star)) {
      consume();
      scale = v;
    } else {
      value.numbers.push_back(v);
    }
    first = false;
  }
  for (double &v : value.numbers)
    v *= scale;
  if (failed(expect(Token::l_square, "'[' before the tensor's type")))
    return failure();
  llvm::StringRef typeName = tok.spelling;
  if (!tok.is(Token::identifier) || !typeName.consume_front("CPU") ||
      !typeName.consume_back("Type"))
    return emitError("expected a tensor type such as CPUFloatType");
  value.str = typeName.str();
  consume();
  if (failed(expect(Token::l_brace, "'{' before the tensor's sizes")))
    return failure();
  if (!consumeIf(Token::r_brace)) {
    do {
      int64_t dim;
      if (!tok.is(Token::integer) || tok.spelling.getAsInteger(10, dim))
        return emitError("expected a size");
      value.dims.push_back(dim);
      consume();
    } while (consumeIf(Token::comma));
    if (failed(expect(Token::r_brace, "'}' after the sizes")))
      return failure();
  }
  return expect(Token::r_square, "']' after the tensor");
}

LogicalResult Importer::parseValue(ParsedValue &value) {
  NestingGuard nesting(*this);
  if (!nesting.ok())
    return failure();
  value.loc = tok.getLoc();
  switch (tok.kind) {
  case Token::integer:
  case Token::floating:
  case Token::minus: {
    const char *start = tok.getLoc();
    ParsedValue number;
    if (failed(parseNumber(number)))
      return failure();
    // A lone number ends at ']' or ','; more numbers mean a printed tensor.
    if (!isNumberStart(tok) && !tok.is(Token::l_square) &&
        !tok.is(Token::star)) {
      value = std::move(number);
      return success();
    }
    lexer.resetTo(start);
    consume();
    return parseInlineTensor(value);
  }
  case Token::string:
    value.kind = ParsedValue::Str;
    if (!decodeString(tok.spelling.drop_front().drop_back(), value.str))
      return emitError("malformed escape in string");
    consume();
    return success();
  case Token::l_square:
    consume();
    value.kind = ParsedValue::List;
    if (consumeIf(Token::r_square))
      return success();
    do {
      ParsedValue element;
      if (failed(parseValue(element)))
        return failure();
      value.elements.push_back(std::move(element));
    } while (consumeIf(Token::comma));
    return expect(Token::r_square, "']' after the list");
  case Token::l_paren:
    consume();
    value.kind = ParsedValue::Tuple;
    while (!tok.is(Token::r_paren)) {
      ParsedValue element;
      if (failed(parseValue(element)))
        return failure();
      value.elements.push_back(std::move(element));
      if (!consumeIf(Token::comma))
        break;
    }
    return expect(Token::r_paren, "')' after the tuple");
  case Token::less: {
    consume();
    // PyTorch prints a constant list of tensors as [<Tensors>].
    if (!tok.isIdentifier("Tensor") && !tok.isIdentifier("Graph") &&
        !tok.isIdentifier("Tensors"))
      return emitError("expected <Tensor>, <Tensors> or <Graph>");
    value.kind = tok.spelling == "Tensor"    ? ParsedValue::ElidedTensor
                 : tok.spelling == "Tensors" ? ParsedValue::ElidedTensorList
                                             : ParsedValue::ElidedGraph;
    consume();
    return expect(Token::greater, "'>'");
  }
  case Token::l_brace: {
    consume();
    if (tok.is(Token::string) || tok.is(Token::r_brace)) {
      // An IValue dict: {"num_none": 1, "num_present": 0}.
      value.kind = ParsedValue::Dict;
      while (tok.is(Token::string)) {
        std::string key;
        if (!decodeString(tok.spelling.drop_front().drop_back(), key))
          return emitError("malformed escape in string");
        consume();
        ParsedValue element;
        if (failed(expect(Token::colon, "':' after the key")) ||
            failed(parseValue(element)))
          return failure();
        value.keys.push_back(std::move(key));
        value.elements.push_back(std::move(element));
        if (!consumeIf(Token::comma))
          break;
      }
      return expect(Token::r_brace, "'}' after the dict");
    }
    // {1.5}: a one-element tensor, printed as its value.
    ParsedValue number;
    if (failed(parseNumber(number)))
      return failure();
    value.kind = ParsedValue::ScalarTensor;
    value.isFloatLiteral = number.kind == ParsedValue::Float;
    value.intValue = number.intValue;
    value.floatValue = number.kind == ParsedValue::Float
                           ? number.floatValue
                           : double(number.intValue);
    return expect(Token::r_brace, "'}' after the tensor value");
  }
  case Token::identifier: {
    llvm::StringRef id = tok.spelling;
    if (id == "inf" || id == "nan") {
      const char *start = tok.getLoc();
      ParsedValue number;
      if (failed(parseNumber(number)))
        return failure();
      if (!isNumberStart(tok) && !tok.is(Token::l_square)) {
        value = std::move(number);
        return success();
      }
      lexer.resetTo(start);
      consume();
      return parseInlineTensor(value);
    }
    if (id == "True" || id == "False") {
      value.kind = ParsedValue::Bool;
      value.intValue = id == "True";
      consume();
      return success();
    }
    if (id == "annotate") {
      // annotate(List[int], []): an empty container and its type.
      consume();
      if (failed(expect(Token::l_paren, "'('")) || failed(skipPythonType()) ||
          failed(expect(Token::comma, "','")) || failed(parseValue(value)))
        return failure();
      return expect(Token::r_paren, "')' after the annotation");
    }
    value.kind = ParsedValue::TypeValue;
    value.type = parseType();
    return success(static_cast<bool>(value.type));
  }
  default:
    // An unterminated string lexes as an error token at its opening quote.
    if (tok.is(Token::error) && tok.spelling == "\"")
      return emitError("unterminated string");
    return emitError("expected an attribute value");
  }
}

//===----------------------------------------------------------------------===//
// Conversion to MLIR attributes
//===----------------------------------------------------------------------===//

Attribute Importer::convertAttr(const ParsedValue &value) {
  Builder b(context);
  switch (value.kind) {
  case ParsedValue::Int:
    return b.getI64IntegerAttr(value.intValue);
  case ParsedValue::Float:
    return b.getF64FloatAttr(value.floatValue);
  case ParsedValue::Bool:
    return b.getBoolAttr(value.intValue != 0);
  case ParsedValue::Str:
    return b.getStringAttr(value.str);
  case ParsedValue::List:
  case ParsedValue::Tuple: {
    // An element that does not convert (a malformed tensor) has been
    // reported; the container is not made with a null in it.
    llvm::SmallVector<Attribute> elements;
    for (const ParsedValue &element : value.elements) {
      Attribute attr = convertAttr(element);
      if (!attr)
        return {};
      elements.push_back(attr);
    }
    return b.getArrayAttr(elements);
  }
  case ParsedValue::Dict: {
    llvm::SmallVector<NamedAttribute> entries;
    for (auto [key, element] : llvm::zip_equal(value.keys, value.elements)) {
      Attribute attr = convertAttr(element);
      if (!attr)
        return {};
      entries.push_back(b.getNamedAttr(key, attr));
    }
    return b.getDictionaryAttr(entries);
  }
  case ParsedValue::TypeValue:
    return TypeAttr::get(value.type);
  case ParsedValue::ElidedTensor:
  case ParsedValue::ElidedGraph:
  case ParsedValue::ElidedTensorList:
    return b.getUnitAttr();
  case ParsedValue::ScalarTensor:
  case ParsedValue::InlineTensor: {
    FailureOr<Attribute> tensor =
        convertTensor(value, ts::TensorType::get(context), "");
    return succeeded(tensor) ? *tensor : Attribute();
  }
  }
  return {};
}

static std::optional<int64_t> getNumElements(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t dim : shape) {
    if (dim < 0 || (dim != 0 && n > std::numeric_limits<int64_t>::max() / dim))
      return std::nullopt;
    n *= dim;
  }
  return n;
}

/// A dense attribute of `type` from doubles, converted to its element type.
static Attribute makeDense(RankedTensorType type, llvm::ArrayRef<double> data) {
  Type element = type.getElementType();
  if (auto floatType = llvm::dyn_cast<mlir::FloatType>(element)) {
    llvm::SmallVector<APFloat> values;
    for (double v : data) {
      APFloat f(v);
      bool lost;
      f.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &lost);
      values.push_back(f);
    }
    return DenseElementsAttr::get(type, values);
  }
  if (auto intType = llvm::dyn_cast<IntegerType>(element)) {
    llvm::SmallVector<APInt> values;
    for (double v : data) {
      // at::print writes integers exactly; anything else is not one.
      if (!std::isfinite(v) || v != std::trunc(v) || std::fabs(v) >= 0x1p63)
        return {};
      values.push_back(APInt(intType.getWidth(), static_cast<int64_t>(v),
                             /*isSigned=*/true, /*implicitTrunc=*/true));
    }
    return DenseElementsAttr::get(type, values);
  }
  return {};
}

FailureOr<Attribute> Importer::convertTensor(const ParsedValue &value,
                                             Type type, llvm::StringRef name) {
  auto tensorType = llvm::dyn_cast<ts::TensorType>(type);
  if (!tensorType)
    return emitError(value.loc, "a tensor value needs a tensor type"),
           failure();
  Type dtype = tensorType.getDtype();
  std::optional<llvm::SmallVector<int64_t>> shape;
  if (tensorType.hasSizes() && tensorType.hasStaticShape())
    shape = llvm::SmallVector<int64_t>(tensorType.getSizes().asArrayRef());

  // Frozen parameters are named after their attribute path: %self.fc1.weight.
  if (params && name.starts_with("self.")) {
    FailureOr<Attribute> bound =
        lookupParameter(name.drop_front(5), getTextLoc(value.loc), type);
    if (failed(bound))
      return failure();
    if (*bound)
      return bound;
  }

  switch (value.kind) {
  case ParsedValue::ElidedTensor: {
    if (!dtype || !shape)
      return emitError(value.loc, "cannot import an elided tensor (<Tensor>) "
                                  "whose type does not give its dtype and "
                                  "sizes"),
             failure();
    if (!getNumElements(*shape))
      return emitError(value.loc, "tensor has too many elements"), failure();
    auto shaped = RankedTensorType::get(*shape, dtype);
    std::string key = name.empty() ? "tensor" : name.str();
    auto &manager = DenseResourceElementsHandle::getManagerInterface(context);
    return Attribute(DenseResourceElementsAttr::get(
        shaped, manager.insert(key, std::optional<AsmResourceBlob>())));
  }
  case ParsedValue::ScalarTensor: {
    if (!dtype)
      dtype = value.isFloatLiteral
                  ? Type(Float32Type::get(context))
                  : Type(IntegerType::get(context, 64, IntegerType::Signed));
    llvm::SmallVector<int64_t> dims = shape.value_or(llvm::SmallVector<int64_t>());
    if (getNumElements(dims) != 1)
      return emitError(value.loc, "a one-element tensor value {...} needs a "
                                  "type of one element"),
             failure();
    Attribute dense =
        makeDense(RankedTensorType::get(dims, dtype), {value.floatValue});
    if (!dense)
      return emitError(value.loc, "tensor value does not fit its dtype"),
             failure();
    return dense;
  }
  case ParsedValue::InlineTensor: {
    Type printed = ts::getDtypeForTorchScriptName(context, value.str);
    if (!printed)
      return emitError(value.loc, "unknown tensor type 'CPU" + value.str +
                                      "Type'"),
             failure();
    if (dtype && dtype != printed)
      return emitError(value.loc, "tensor value of type " + value.str +
                                      " does not match its declared dtype"),
             failure();
    std::optional<int64_t> count = getNumElements(value.dims);
    if (!count || *count != static_cast<int64_t>(value.numbers.size()))
      return emitError(value.loc,
                       "tensor value has " +
                           llvm::Twine(value.numbers.size()) +
                           " elements but its sizes say otherwise"),
             failure();
    if (shape && llvm::ArrayRef<int64_t>(*shape) != llvm::ArrayRef(value.dims))
      return emitError(value.loc, "tensor value's sizes do not match its "
                                  "declared type"),
             failure();
    Attribute dense =
        makeDense(RankedTensorType::get(value.dims, printed), value.numbers);
    if (!dense)
      return emitError(value.loc, "tensor value does not fit its dtype"),
             failure();
    return dense;
  }
  default:
    return emitError(value.loc, "expected a tensor value"), failure();
  }
}

/// The MLIR element type of a safetensors dtype, or null.
static Type getSafetensorsElementType(MLIRContext *context,
                                      llvm::StringRef dtype) {
  std::optional<Dtype> known = getDtypeForSafetensorsName(dtype);
  return known ? ts::getDtypeType(context, *known) : Type();
}

FailureOr<Attribute>
Importer::getParameterData(const SafetensorsTensor &tensor, Location loc) {
  auto it = boundParams.find(tensor.name);
  if (it != boundParams.end())
    return it->second;
  Type element = getSafetensorsElementType(context, tensor.dtype);
  if (!element)
    return mlir::emitError(loc, "parameter '" + tensor.name +
                                    "' has unsupported dtype " + tensor.dtype),
           failure();
  auto shaped = RankedTensorType::get(tensor.shape, element);
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      tensor.data, alignof(uint64_t));
  Attribute attr =
      DenseResourceElementsAttr::get(shaped, tensor.name, std::move(blob));
  boundParams[tensor.name] = attr;
  return attr;
}

FailureOr<Attribute> Importer::lookupParameter(llvm::StringRef path,
                                               Location loc, Type type) {
  const SafetensorsTensor *tensor = params->lookup(path);
  if (!tensor)
    return Attribute();
  FailureOr<Attribute> data = getParameterData(*tensor, loc);
  if (failed(data))
    return failure();
  auto tensorType = llvm::cast<ts::TensorType>(type);
  if (tensorType.getDtype() &&
      tensorType.getDtype() !=
          llvm::cast<ElementsAttr>(*data).getShapedType().getElementType())
    return mlir::emitError(loc, "parameter '" + path + "' has dtype " +
                              tensor->dtype + ", not the declared one"),
           failure();
  if (tensorType.hasSizes() && tensorType.getSizes().asArrayRef() !=
                                   llvm::ArrayRef<int64_t>(tensor->shape))
    return mlir::emitError(loc, "parameter '" + path +
                              "' has other sizes than its declared type"),
           failure();
  return data;
}

FailureOr<Attribute> Importer::convertConstant(const ParsedValue &value,
                                               Type type,
                                               llvm::StringRef name) {
  Builder b(context);
  auto mismatch = [&](llvm::StringRef what) -> FailureOr<Attribute> {
    std::string typeText;
    llvm::raw_string_ostream os(typeText);
    os << type;
    emitError(value.loc, "constant of type '" + typeText + "' cannot hold " +
                             what);
    return failure();
  };
  if (auto optional = llvm::dyn_cast<ts::OptionalType>(type))
    return convertConstant(value, optional.getContainedType(), name);
  if (llvm::isa<ts::TensorType>(type))
    return convertTensor(value, type, name);
  if (llvm::isa<ts::IntType, ts::LayoutType, ts::MemoryFormatType,
                ts::ScalarTypeType>(type)) {
    if (value.kind != ParsedValue::Int)
      return mismatch("a non-integer value");
    return Attribute(b.getI64IntegerAttr(value.intValue));
  }
  if (llvm::isa<ts::NumberType>(type)) {
    if (value.kind == ParsedValue::Int)
      return Attribute(b.getI64IntegerAttr(value.intValue));
    if (value.kind == ParsedValue::Float)
      return Attribute(b.getF64FloatAttr(value.floatValue));
    return mismatch("a non-numeric value");
  }
  if (llvm::isa<ts::FloatType>(type)) {
    if (value.kind == ParsedValue::Float)
      return Attribute(b.getF64FloatAttr(value.floatValue));
    if (value.kind == ParsedValue::Int)
      return Attribute(b.getF64FloatAttr(double(value.intValue)));
    return mismatch("a non-numeric value");
  }
  if (llvm::isa<ts::BoolType>(type)) {
    if ((value.kind == ParsedValue::Int || value.kind == ParsedValue::Bool) &&
        (value.intValue == 0 || value.intValue == 1))
      return Attribute(b.getBoolAttr(value.intValue != 0));
    return mismatch("a value other than 0 or 1");
  }
  if (llvm::isa<ts::StrType, ts::DeviceType>(type)) {
    if (value.kind != ParsedValue::Str)
      return mismatch("a non-string value");
    return Attribute(b.getStringAttr(value.str));
  }
  if (auto list = llvm::dyn_cast<ts::ListType>(type)) {
    if (value.kind != ParsedValue::List)
      return mismatch("a non-list value");
    // [<Tensors>]: a frozen list of tensors (an RNN's flat weights), bound
    // from the parameters `path.0`, `path.1`, ... of its attribute path.
    if (value.elements.size() == 1 &&
        value.elements[0].kind == ParsedValue::ElidedTensorList) {
      if (!llvm::isa<ts::TensorType>(list.getElementType()))
        return mismatch("a list of tensors");
      if (!params || !name.starts_with("self."))
        return emitError(value.loc,
                         "the tensors of the list constant '%" + name +
                             "' are elided ([<Tensors>]): bind them with "
                             "--params, a safetensors file holding '" +
                             name.drop_front(name.starts_with("self.") ? 5 : 0) +
                             ".0', '.1', ..."),
               failure();
      llvm::SmallVector<Attribute> elements;
      for (unsigned i = 0;; ++i) {
        std::string path = (name.drop_front(5) + "." + llvm::Twine(i)).str();
        if (!params->lookup(path))
          break;
        FailureOr<Attribute> bound = lookupParameter(
            path, getTextLoc(value.loc), list.getElementType());
        if (failed(bound))
          return failure();
        elements.push_back(*bound);
      }
      if (elements.empty())
        return emitError(value.loc, "the parameters hold no '" +
                                        name.drop_front(5) +
                                        ".0' for the list constant '%" +
                                        name + "' ([<Tensors>])"),
               failure();
      return Attribute(b.getArrayAttr(elements));
    }
    llvm::SmallVector<Attribute> elements;
    for (const ParsedValue &element : value.elements) {
      FailureOr<Attribute> attr =
          convertConstant(element, list.getElementType(), "");
      if (failed(attr))
        return failure();
      elements.push_back(*attr);
    }
    return Attribute(b.getArrayAttr(elements));
  }
  if (auto tuple = llvm::dyn_cast<ts::TupleType>(type)) {
    if (value.kind != ParsedValue::Tuple ||
        value.elements.size() != tuple.getElementTypes().size())
      return mismatch("this value");
    llvm::SmallVector<Attribute> elements;
    for (auto [element, elementType] :
         llvm::zip_equal(value.elements, tuple.getElementTypes())) {
      FailureOr<Attribute> attr = convertConstant(element, elementType, "");
      if (failed(attr))
        return failure();
      elements.push_back(*attr);
    }
    return Attribute(b.getArrayAttr(elements));
  }
  return mismatch("a value");
}
