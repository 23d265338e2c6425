//===- TorchScriptTypes.cpp - TorchScript value types ---------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"
#include "tsmlir/Dialect/TorchScript/IR/Dtypes.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

#define GET_TYPEDEF_CLASSES
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.cpp.inc"

void mlir::tsmlir::ts::TorchScriptDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.cpp.inc"
      >();
}

namespace mlir::tsmlir::ts {

//===----------------------------------------------------------------------===//
// Dtypes
//===----------------------------------------------------------------------===//

/// The IEEE float type of `width` bits (16, 32 or 64).
static Type getFloatOfWidth(MLIRContext *ctx, unsigned width) {
  if (width == 16)
    return Float16Type::get(ctx);
  return width == 32 ? Type(Float32Type::get(ctx)) : Float64Type::get(ctx);
}

Type getDtypeType(MLIRContext *ctx, Dtype dtype) {
  const DtypeInfo &info = getDtypeInfo(dtype);
  switch (info.kind) {
  case DtypeKind::Bool:
    return IntegerType::get(ctx, 1);
  case DtypeKind::Signed:
    return IntegerType::get(ctx, info.getBitWidth(), IntegerType::Signed);
  case DtypeKind::Unsigned:
    return IntegerType::get(ctx, info.getBitWidth(), IntegerType::Unsigned);
  case DtypeKind::Float:
    if (dtype == Dtype::BFloat16)
      return BFloat16Type::get(ctx);
    return getFloatOfWidth(ctx, info.getBitWidth());
  case DtypeKind::Complex:
    return mlir::ComplexType::get(getFloatOfWidth(ctx, info.getBitWidth()));
  }
  llvm_unreachable("unknown dtype kind");
}

std::optional<Dtype> getDtype(Type type) {
  if (!type)
    return std::nullopt;
  for (const DtypeInfo &info : getDtypeTable())
    if (getDtypeType(type.getContext(), info.dtype) == type)
      return info.dtype;
  return std::nullopt;
}

const DtypeInfo *lookupDtypeInfo(Type type) {
  std::optional<Dtype> dtype = getDtype(type);
  return dtype ? &getDtypeInfo(*dtype) : nullptr;
}

bool isValidDtype(Type type) { return getDtype(type).has_value(); }

std::optional<int64_t> getScalarTypeCode(Type dtype) {
  if (std::optional<Dtype> d = getDtype(dtype))
    return static_cast<int64_t>(*d);
  return std::nullopt;
}

Type getDtypeForScalarTypeCode(MLIRContext *context, int64_t code) {
  std::optional<Dtype> d = getDtypeForScalarType(code);
  return d ? getDtypeType(context, *d) : Type();
}

StringRef getTorchScriptDtypeName(Type dtype) {
  if (const DtypeInfo *info = lookupDtypeInfo(dtype))
    return info->torchScriptName;
  return {};
}

Type getDtypeForTorchScriptName(MLIRContext *context, StringRef name) {
  std::optional<Dtype> d = tsmlir::getDtypeForTorchScriptName(name);
  return d ? getDtypeType(context, *d) : Type();
}

//===----------------------------------------------------------------------===//
// TensorType
//===----------------------------------------------------------------------===//

static DenseI64ArrayAttr optionalArray(MLIRContext *ctx,
                                       std::optional<ArrayRef<int64_t>> v) {
  return v ? DenseI64ArrayAttr::get(ctx, *v) : DenseI64ArrayAttr();
}

TensorType TensorType::get(MLIRContext *context, Type dtype,
                           std::optional<ArrayRef<int64_t>> sizes,
                           std::optional<ArrayRef<int64_t>> strides,
                           StringRef device,
                           std::optional<bool> requiresGrad) {
  return Base::get(
      context, dtype, optionalArray(context, sizes),
      optionalArray(context, strides),
      device.empty() ? StringAttr() : StringAttr::get(context, device),
      requiresGrad ? BoolAttr::get(context, *requiresGrad) : BoolAttr());
}

LogicalResult
TensorType::verify(function_ref<InFlightDiagnostic()> emitError, Type dtype,
                   DenseI64ArrayAttr sizes, DenseI64ArrayAttr strides,
                   StringAttr device, BoolAttr requiresGrad) {
  if (dtype && !isValidDtype(dtype))
    return emitError() << dtype
                       << " is not a PyTorch dtype (expected one of f16, "
                          "bf16, f32, f64, ui8, si8, si16, si32, si64, i1, "
                          "complex<f16|f32|f64>)";
  auto checkDims = [&](DenseI64ArrayAttr dims,
                       StringRef what) -> LogicalResult {
    if (!dims)
      return success();
    for (int64_t d : dims.asArrayRef())
      if (d < 0 && d != kUnknown)
        return emitError() << what << " must be non-negative or '?', got "
                           << d;
    return success();
  };
  if (failed(checkDims(sizes, "sizes")) || failed(checkDims(strides, "strides")))
    return failure();
  if (strides && !sizes)
    return emitError() << "strides given without sizes";
  if (strides && strides.size() != sizes.size())
    return emitError() << "has " << strides.size() << " strides for rank "
                       << sizes.size();
  if (device && device.getValue().empty())
    return emitError() << "device must not be empty";
  return success();
}

/// Parses the rest of a `[d0, d1, ...]` list, after its `[`; `?` is an
/// unknown dimension.
static ParseResult parseDimsAfterBracket(AsmParser &parser,
                                         SmallVectorImpl<int64_t> &dims) {
  if (succeeded(parser.parseOptionalRSquare()))
    return success();
  do {
    if (succeeded(parser.parseOptionalQuestion())) {
      dims.push_back(TensorType::kUnknown);
      continue;
    }
    SMLoc loc = parser.getCurrentLocation();
    int64_t value;
    if (parser.parseInteger(value))
      return failure();
    if (value < 0)
      return parser.emitError(loc, "sizes and strides must be non-negative "
                                   "or '?', got ")
             << value;
    dims.push_back(value);
  } while (succeeded(parser.parseOptionalComma()));
  return parser.parseRSquare();
}

void printDims(llvm::raw_ostream &os, ArrayRef<int64_t> dims) {
  os << '[';
  llvm::interleaveComma(dims, os, [&](int64_t d) {
    if (d == TensorType::kUnknown)
      os << '?';
    else
      os << d;
  });
  os << ']';
}

Type TensorType::parse(AsmParser &parser) {
  MLIRContext *ctx = parser.getContext();
  if (failed(parser.parseOptionalLess()))
    return TensorType::get(ctx);
  Type dtype;
  std::optional<SmallVector<int64_t>> sizes, strides;
  StringAttr device;
  BoolAttr requiresGrad;
  auto parseElement = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (succeeded(parser.parseOptionalKeyword(
            &key, {"strides", "device", "requires_grad"}))) {
      bool given = key == "strides"  ? strides.has_value()
                   : key == "device" ? static_cast<bool>(device)
                                     : static_cast<bool>(requiresGrad);
      if (given)
        return parser.emitError(loc) << "'" << key << "' given twice";
      if (parser.parseEqual())
        return failure();
      if (key == "strides") {
        strides.emplace();
        return failure(parser.parseLSquare() ||
                       parseDimsAfterBracket(parser, *strides));
      }
      if (key == "device") {
        std::string value;
        if (parser.parseString(&value))
          return failure();
        device = StringAttr::get(ctx, value);
        return success();
      }
      StringRef flag;
      if (failed(parser.parseOptionalKeyword(&flag, {"true", "false"})))
        return parser.emitError(loc, "expected 'true' or 'false'");
      requiresGrad = BoolAttr::get(ctx, flag == "true");
      return success();
    }
    if (succeeded(parser.parseOptionalLSquare())) {
      if (sizes)
        return parser.emitError(loc, "sizes given twice");
      sizes.emplace();
      return parseDimsAfterBracket(parser, *sizes);
    }
    if (dtype)
      return parser.emitError(loc, "expected 'strides', 'device' or "
                                   "'requires_grad' after the dtype");
    return parser.parseType(dtype);
  };
  if (parser.parseCommaSeparatedList(parseElement) || parser.parseGreater())
    return {};
  auto asRef = [](const std::optional<SmallVector<int64_t>> &v)
      -> std::optional<ArrayRef<int64_t>> {
    if (!v)
      return std::nullopt;
    return ArrayRef<int64_t>(*v);
  };
  return parser.getChecked<TensorType>(
      ctx, dtype, optionalArray(ctx, asRef(sizes)),
      optionalArray(ctx, asRef(strides)), device, requiresGrad);
}

void TensorType::print(AsmPrinter &printer) const {
  if (isUnrefined())
    return;
  bool first = true;
  auto next = [&]() -> AsmPrinter & {
    if (!first)
      printer << ", ";
    first = false;
    return printer;
  };
  printer << '<';
  if (Type dtype = getDtype())
    next() << dtype;
  if (hasSizes()) {
    next();
    printDims(printer.getStream(), getSizes().asArrayRef());
  }
  if (hasStrides()) {
    next() << "strides = ";
    printDims(printer.getStream(), getStrides().asArrayRef());
  }
  if (StringAttr device = getDevice())
    next() << "device = " << device;
  if (BoolAttr rg = getRequiresGrad())
    next() << "requires_grad = " << (rg.getValue() ? "true" : "false");
  printer << '>';
}

bool TensorType::hasStaticShape() const {
  return hasSizes() && llvm::none_of(getSizes().asArrayRef(), [](int64_t d) {
           return d == kUnknown;
         });
}

std::optional<int64_t> TensorType::getRank() const {
  if (!hasSizes())
    return std::nullopt;
  return getSizes().size();
}

ArrayRef<int64_t> TensorType::getSizesOrEmpty() const {
  return hasSizes() ? getSizes().asArrayRef() : ArrayRef<int64_t>();
}

ArrayRef<int64_t> TensorType::getStridesOrEmpty() const {
  return hasStrides() ? getStrides().asArrayRef() : ArrayRef<int64_t>();
}

bool TensorType::isUnrefined() const {
  return !getDtype() && !getSizes() && !getStrides() && !getDevice() &&
         !getRequiresGrad();
}

TensorType TensorType::getUnrefined() const {
  return TensorType::get(getContext());
}

/// Whether `refined` states each dimension `general` states (`?` in
/// `general` accepts anything).
static bool refinesDims(DenseI64ArrayAttr refined, DenseI64ArrayAttr general) {
  if (!general)
    return true;
  if (!refined || refined.size() != general.size())
    return false;
  for (auto [r, g] :
       llvm::zip_equal(refined.asArrayRef(), general.asArrayRef()))
    if (g != TensorType::kUnknown && r != g)
      return false;
  return true;
}

bool TensorType::isRefinementOf(TensorType other) const {
  if (other.getDtype() && getDtype() != other.getDtype())
    return false;
  if (other.getDevice() && getDevice() != other.getDevice())
    return false;
  if (other.getRequiresGrad() && getRequiresGrad() != other.getRequiresGrad())
    return false;
  return refinesDims(getSizes(), other.getSizes()) &&
         refinesDims(getStrides(), other.getStrides());
}

//===----------------------------------------------------------------------===//
// TupleType
//===----------------------------------------------------------------------===//

Type TupleType::parse(AsmParser &parser) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<Type> elements;
  StringAttr name;
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    auto parseElement = [&]() -> ParseResult {
      SMLoc loc = parser.getCurrentLocation();
      if (succeeded(parser.parseOptionalKeyword("name"))) {
        if (name)
          return parser.emitError(loc, "'name' given twice");
        std::string value;
        if (parser.parseEqual() || parser.parseString(&value))
          return failure();
        name = StringAttr::get(ctx, value);
        return success();
      }
      if (name)
        return parser.emitError(loc, "the name must come last");
      return parser.parseType(elements.emplace_back());
    };
    if (parser.parseCommaSeparatedList(parseElement) || parser.parseGreater())
      return {};
  }
  return TupleType::get(ctx, elements, name);
}

void TupleType::print(AsmPrinter &printer) const {
  printer << '<';
  llvm::interleaveComma(getElementTypes(), printer);
  if (StringAttr name = getName()) {
    if (!getElementTypes().empty())
      printer << ", ";
    printer << "name = " << name;
  }
  printer << '>';
}

//===----------------------------------------------------------------------===//
// Type relations
//===----------------------------------------------------------------------===//

bool isTorchScriptType(Type type) {
  return type && llvm::isa<TorchScriptDialect>(type.getDialect());
}

bool isScalarLike(Type type) {
  return llvm::isa<IntType, FloatType, BoolType, NumberType, ComplexType>(
      type);
}

bool isValidSubtype(Type sub, Type super) {
  if (sub == super || llvm::isa<AnyType>(super))
    return true;
  if (auto subTensor = llvm::dyn_cast<TensorType>(sub)) {
    if (auto superTensor = llvm::dyn_cast<TensorType>(super))
      return subTensor.isRefinementOf(superTensor);
  }
  if (auto opt = llvm::dyn_cast<OptionalType>(super)) {
    if (llvm::isa<NoneType>(sub))
      return true;
    if (auto subOpt = llvm::dyn_cast<OptionalType>(sub))
      return isValidSubtype(subOpt.getContainedType(), opt.getContainedType());
    return isValidSubtype(sub, opt.getContainedType());
  }
  if (llvm::isa<NumberType>(super))
    return llvm::isa<IntType, FloatType, ComplexType>(sub);
  if (auto un = llvm::dyn_cast<UnionType>(super))
    return llvm::any_of(un.getContainedTypes(),
                        [&](Type t) { return isValidSubtype(sub, t); });
  if (auto superTuple = llvm::dyn_cast<TupleType>(super)) {
    auto subTuple = llvm::dyn_cast<TupleType>(sub);
    return subTuple &&
           subTuple.getElementTypes().size() ==
               superTuple.getElementTypes().size() &&
           llvm::all_of(llvm::zip_equal(subTuple.getElementTypes(),
                                        superTuple.getElementTypes()),
                        [](auto p) {
                          return isValidSubtype(std::get<0>(p),
                                                std::get<1>(p));
                        });
  }
  if (auto superList = llvm::dyn_cast<ListType>(super)) {
    auto subList = llvm::dyn_cast<ListType>(sub);
    return subList && isValidSubtype(subList.getElementType(),
                                     superList.getElementType());
  }
  if (auto superFuture = llvm::dyn_cast<FutureType>(super)) {
    auto subFuture = llvm::dyn_cast<FutureType>(sub);
    return subFuture && isValidSubtype(subFuture.getContainedType(),
                                       superFuture.getContainedType());
  }
  if (auto superDict = llvm::dyn_cast<DictType>(super)) {
    auto subDict = llvm::dyn_cast<DictType>(sub);
    return subDict && subDict.getKeyType() == superDict.getKeyType() &&
           isValidSubtype(subDict.getValueType(), superDict.getValueType());
  }
  return false;
}

bool isRefinementOf(Type refined, Type general) {
  if (refined == general)
    return true;
  if (auto r = llvm::dyn_cast<TensorType>(refined)) {
    auto g = llvm::dyn_cast<TensorType>(general);
    return g && r.isRefinementOf(g);
  }
  // Builtin tensors, after lowering: a ranked tensor refines an unranked one
  // or one with dynamic sizes.
  auto r = llvm::dyn_cast<RankedTensorType>(refined);
  if (!r)
    return false;
  if (auto g = llvm::dyn_cast<UnrankedTensorType>(general))
    return g.getElementType() == r.getElementType();
  auto g = llvm::dyn_cast<RankedTensorType>(general);
  if (!g || g.getElementType() != r.getElementType() ||
      g.getRank() != r.getRank())
    return false;
  for (auto [rd, gd] : llvm::zip_equal(r.getShape(), g.getShape()))
    if (!ShapedType::isDynamic(gd) && rd != gd)
      return false;
  return true;
}

/// Two sizes or strides lists agree where both are known.
static bool dimsAgree(DenseI64ArrayAttr a, DenseI64ArrayAttr b) {
  if (!a || !b)
    return true;
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip_equal(a.asArrayRef(), b.asArrayRef()))
    if (x != TensorType::kUnknown && y != TensorType::kUnknown && x != y)
      return false;
  return true;
}

bool areCompatible(Type a, Type b, bool ignoreRequiresGrad) {
  if (isRefinementOf(a, b) || isRefinementOf(b, a))
    return true;
  auto ta = llvm::dyn_cast<TensorType>(a);
  auto tb = llvm::dyn_cast<TensorType>(b);
  if (!ta || !tb)
    return false;
  auto agree = [](auto x, auto y) { return !x || !y || x == y; };
  return agree(ta.getDtype(), tb.getDtype()) &&
         dimsAgree(ta.getSizes(), tb.getSizes()) &&
         dimsAgree(ta.getStrides(), tb.getStrides()) &&
         agree(ta.getDevice(), tb.getDevice()) &&
         (ignoreRequiresGrad ||
          agree(ta.getRequiresGrad(), tb.getRequiresGrad()));
}

} // namespace mlir::tsmlir::ts
