//===- ElementwiseShapeRules.cpp - Shape rules of pointwise ops -----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Pointwise ops broadcast their tensor operands and compute a dtype by
// PyTorch's type promotion (at::result_type), except where an op fixes it:
// comparisons give Bool, true division and the transcendental functions turn
// integral inputs into the default float, casts take a dtype argument.
//
//===----------------------------------------------------------------------===//

#include "ShapeRuleUtils.h"

namespace mlir::tsmlir::ts {
using namespace shape;

namespace {
/// How a pointwise op computes its dtype from the promoted type of its
/// inputs.
enum class DtypeKind {
  /// The promoted type.
  Promote,
  /// Bool (comparisons, logical ops).
  Bool,
  /// The promoted type, the default float if that is integral (true
  /// division, sqrt, exp, ...).
  Float,
  /// The dtype of the first operand.
  First,
  /// The dtype of the first operand, int64 for bool (square: pow(x, 2)).
  FirstBoolAsLong,
  /// float64 (float_power).
  Double,
};
} // namespace

/// The sizes of `inputs` broadcast together: tensors, and optional tensors
/// that are certainly None (skipped); anything else that may be a tensor
/// makes the sizes unknown.
static Sizes broadcastInputs(ValueRange inputs, const ShapeFacts &facts) {
  SmallVector<Sizes> shapes;
  for (Value v : inputs) {
    Type type = v.getType();
    if (llvm::isa<TensorType>(type))
      shapes.push_back(getSizes(v));
    else if (auto opt = llvm::dyn_cast<OptionalType>(type);
             opt && llvm::isa<TensorType>(opt.getContainedType()) &&
             !facts.isNone(v))
      return std::nullopt;
  }
  return broadcast(shapes);
}

static Type computeDtype(DtypeKind kind, ValueRange inputs,
                         const ShapeFacts &facts) {
  MLIRContext *ctx = inputs.front().getContext();
  switch (kind) {
  case DtypeKind::Promote:
    return getResultType(inputs, facts);
  case DtypeKind::Bool:
    return getBool(ctx);
  case DtypeKind::Float:
    return toFloatIfIntegral(getResultType(inputs, facts));
  case DtypeKind::First:
    return getDtype(inputs.front());
  case DtypeKind::FirstBoolAsLong: {
    Type dtype = getDtype(inputs.front());
    return dtype && dtype.isInteger(1) ? getLong(ctx) : dtype;
  }
  case DtypeKind::Double:
    return Float64Type::get(ctx);
  }
  llvm_unreachable("unknown dtype kind");
}

/// A pointwise op of the first `numInputs` operands, all of which broadcast
/// and take part in promotion.
static ShapeRule pointwise(unsigned numInputs, DtypeKind kind) {
  return [=](Operation *op, const ShapeFacts &facts,
             SmallVectorImpl<Type> &results) {
    ValueRange inputs = op->getOperands().take_front(numInputs);
    results[0] =
        makeTensor(op->getContext(), computeDtype(kind, inputs, facts),
                   broadcastInputs(inputs, facts), getCommonDevice(inputs));
  };
}

/// A pointwise op whose dtype comes from `dtypeInputs` and whose sizes from
/// broadcasting `shapeInputs` (operand indices).
static ShapeRule pointwise(SmallVector<unsigned> shapeInputs,
                           SmallVector<unsigned> dtypeInputs, DtypeKind kind) {
  return [=](Operation *op, const ShapeFacts &facts,
             SmallVectorImpl<Type> &results) {
    SmallVector<Value> shapeValues, dtypeValues;
    for (unsigned i : shapeInputs)
      shapeValues.push_back(op->getOperand(i));
    for (unsigned i : dtypeInputs)
      dtypeValues.push_back(op->getOperand(i));
    results[0] = makeTensor(
        op->getContext(), computeDtype(kind, dtypeValues, facts),
        broadcastInputs(shapeValues, facts), getCommonDevice(shapeValues));
  };
}

/// div with a rounding mode: true division for None, else the promoted type.
static void divWithMode(Operation *op, const ShapeFacts &facts,
                        SmallVectorImpl<Type> &results) {
  ValueRange inputs = op->getOperands().take_front(2);
  Type promoted = getResultType(inputs, facts);
  Value mode = op->getOperand(2);
  Type dtype;
  if (facts.isNone(mode))
    dtype = toFloatIfIntegral(promoted);
  else if (facts.getString(mode) || isFloatDtype(promoted))
    dtype = promoted;
  results[0] =
      makeTensor(op->getContext(), dtype, broadcastInputs(inputs, facts),
                 getCommonDevice(inputs));
}

/// An op that returns its first operand, or a new tensor of its type: the
/// same dtype, sizes and device (and strides with `keepStrides`, for ops
/// that return the tensor itself).
static ShapeRule sameAsSelf(bool keepStrides) {
  return
      [=](Operation *op, const ShapeFacts &, SmallVectorImpl<Type> &results) {
        Value self = op->getOperand(0);
        TensorType type = getTensorType(self);
        if (!type)
          return;
        results[0] = keepStrides
                         ? TensorType::get(op->getContext(), type.getDtype(),
                                           type.getSizes(), type.getStrides(),
                                           type.getDevice(), BoolAttr())
                         : sameAs(self);
      };
}

/// Row-major strides of static sizes.
static SmallVector<int64_t> contiguousStrides(ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> strides(sizes.size(), 1);
  for (size_t i = sizes.size(); i-- > 1;)
    strides[i - 1] = strides[i] * std::max<int64_t>(sizes[i], 1);
  return strides;
}

/// contiguous(): the same type; with torch.contiguous_format and static
/// sizes, row-major strides.
static void contiguousRule(Operation *op, const ShapeFacts &facts,
                           SmallVectorImpl<Type> &results) {
  auto contiguous = llvm::cast<AtenContiguousOp>(op);
  TensorType type = contiguous.getSelf().getType();
  std::optional<int64_t> format = facts.getInt(contiguous.getMemoryFormat());
  DenseI64ArrayAttr strides;
  if (format && *format == 0 && type.hasStaticShape())
    strides = DenseI64ArrayAttr::get(
        op->getContext(), contiguousStrides(type.getSizes().asArrayRef()));
  results[0] =
      TensorType::get(op->getContext(), type.getDtype(), type.getSizes(),
                      strides, type.getDevice(), BoolAttr());
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

/// The device a `Device?` argument names: its constant, or `self`'s when it
/// is None; null when unknown.
static StringAttr deviceArg(Value device, Value self, const ShapeFacts &facts) {
  if (facts.isNone(device))
    return getDevice(self);
  if (std::optional<StringRef> name = facts.getString(device))
    return StringAttr::get(device.getContext(), *name);
  return {};
}

/// A `to`-like cast of `self` to `dtype` (a `ScalarType?` operand, None
/// keeping self's) and `device` (a `Device?` operand or null to keep self's).
static TensorType castTo(Value self, Value dtype, Value device,
                         const ShapeFacts &facts) {
  Type newDtype;
  if (FailureOr<Type> d = facts.getDtypeArg(dtype); succeeded(d))
    newDtype = *d ? *d : getDtype(self);
  StringAttr newDevice =
      device ? deviceArg(device, self, facts) : getDevice(self);
  return makeTensor(self.getContext(), newDtype, getSizes(self), newDevice);
}

static void toDtypeRule(Operation *op, const ShapeFacts &facts,
                        SmallVectorImpl<Type> &results) {
  auto to = llvm::cast<AtenToDtypeOp>(op);
  results[0] = castTo(to.getSelf(), to.getDtype(), Value(), facts);
}

static void toDeviceRule(Operation *op, const ShapeFacts &facts,
                         SmallVectorImpl<Type> &results) {
  auto to = llvm::cast<AtenToDeviceOp>(op);
  results[0] = castTo(to.getSelf(), to.getDtype(), to.getDevice(), facts);
}

static void toDtypeLayoutRule(Operation *op, const ShapeFacts &facts,
                              SmallVectorImpl<Type> &results) {
  auto to = llvm::cast<AtenToDtypeLayoutOp>(op);
  results[0] = castTo(to.getSelf(), to.getDtype(), to.getDevice(), facts);
}

static void toPrimDeviceRule(Operation *op, const ShapeFacts &facts,
                             SmallVectorImpl<Type> &results) {
  auto to = llvm::cast<AtenToPrimDeviceOp>(op);
  results[0] = castTo(to.getSelf(), to.getDtype(), to.getDevice(), facts);
}

static void toPrimDtypeRule(Operation *op, const ShapeFacts &facts,
                            SmallVectorImpl<Type> &results) {
  auto to = llvm::cast<AtenToPrimDtypeOp>(op);
  results[0] = castTo(to.getSelf(), to.getDtype(), Value(), facts);
}

/// to(other) and type_as(other): other's dtype and device, self's sizes.
static void likeOtherRule(Operation *op, const ShapeFacts &,
                          SmallVectorImpl<Type> &results) {
  Value self = op->getOperand(0), other = op->getOperand(1);
  results[0] = makeTensor(op->getContext(), getDtype(other), getSizes(self),
                          getDevice(other));
}

/// frexp(self) -> (mantissa, exponent): self's dtype and int32, each with
/// self's sizes.
static void frexpRule(Operation *op, const ShapeFacts &,
                      SmallVectorImpl<Type> &results) {
  Value self = op->getOperand(0);
  results[0] = sameAs(self);
  results[1] =
      makeTensor(op->getContext(),
                 IntegerType::get(op->getContext(), 32, IntegerType::Signed),
                 getSizes(self), getDevice(self));
}

//===----------------------------------------------------------------------===//
// Rule registration
//===----------------------------------------------------------------------===//

void populateElementwiseShapeRules(ShapeRuleSet &rules) {
  // The pointwise ops of PointwiseOps.def with the common rule.
#define TS_POINTWISE(OP, N, KIND) rules.add<OP>(pointwise(N, DtypeKind::KIND));
#include "tsmlir/Dialect/TorchScript/IR/PointwiseOps.def"
  rules.add<AtenDivTensorModeOp, AtenDivScalarModeOp>(divWithMode);
  rules.add<AtenTriuOp, AtenTrilOp>(pointwise(1, DtypeKind::First));
  rules.add<AtenFrexpTensorOp>(frexpRule);

  // where(condition, self, other): promote self and other, broadcast all.
  rules.add<AtenWhereSelfOp, AtenWhereScalarSelfOp, AtenWhereScalarOtherOp,
            AtenWhereScalarOp>(
      pointwise({0, 1, 2}, {1, 2}, DtypeKind::Promote));
  // masked_fill(self, mask, value): self's dtype, self and mask broadcast.
  rules.add<AtenMaskedFillScalarOp, AtenMaskedFillTensorOp>(
      pointwise({0, 1}, {0}, DtypeKind::First));
  // lerp(self, end, weight): self and end promote, all three broadcast.
  rules.add<AtenLerpScalarOp, AtenLerpTensorOp>(
      pointwise({0, 1, 2}, {0, 1}, DtypeKind::Promote));

  // Casts and copies.
  rules.add<AtenToDtypeOp>(toDtypeRule);
  rules.add<AtenToDeviceOp>(toDeviceRule);
  rules.add<AtenToDtypeLayoutOp>(toDtypeLayoutRule);
  rules.add<AtenToPrimDeviceOp>(toPrimDeviceRule);
  rules.add<AtenToPrimDtypeOp>(toPrimDtypeRule);
  rules.add<AtenToOtherOp, AtenTypeAsOp>(likeOtherRule);
  rules.add<AtenContiguousOp>(contiguousRule);
  rules.add<AtenCloneOp>(sameAsSelf(/*keepStrides=*/false));
  // Aliases of self: the very same tensor. (Every in-place op returns self;
  // InferShapes gives the ops with the InPlace trait this rule too.)
  rules.add<AtenDetachOp, PrimDataOp>(sameAsSelf(/*keepStrides=*/true));
  rules.setInPlaceRule(sameAsSelf(/*keepStrides=*/true));
}

} // namespace mlir::tsmlir::ts
