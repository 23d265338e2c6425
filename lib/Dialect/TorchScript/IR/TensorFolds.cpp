//===- TensorFolds.cpp - Peepholes and folds of tensor ops ----------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The peepholes of PyTorch's PeepholeOptimize on tensor ops, as folders:
//
// * arithmetic identities, `x + 0`, `x - 0`, `x * 1`, `x / 1`, `x ** 1`,
//   which compute a new tensor equal to `x`: they fold to `x` only when the
//   types say the dtype does not change and aliasing allows (nothing writes
//   either tensor; see Aliasing.h);
// * ops that return their input or a view of it with the same shape:
//   `dropout` in eval mode, `type_as` of the same dtype, `view`, `reshape`
//   and `expand` to the same static shape, `squeeze` of a dimension that is
//   not 1, `squeeze(unsqueeze(x, d), d)`, `transpose(transpose(x, a, b), a, b)`;
// * constant folding of small tensors: `neg` and `add`/`sub`/`mul`/`div`
//   (every rounding mode), `floor_divide` and `remainder` of constant tensors
//   of at most kMaxFoldedElements elements, and their `.Scalar` overloads
//   (with `rsub`) of a constant tensor and a number,
//   `prim::NumToTensor` of a constant, `aten::Int`/`aten::Float` of a
//   constant one-element tensor.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/Aliasing.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "ListFacts.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

namespace mlir::tsmlir::ts {

/// The largest constant tensor the folders compute.
static constexpr int64_t kMaxFoldedElements = 1024;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Whether `attr` is the int or float constant `v` (a bool is not a number
/// here: `x + False` promotes nothing but reads oddly, and never appears).
static bool isNumber(Attribute attr, double v) {
  if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(attr))
    return !i.getType().isInteger(1) && i.getInt() == v;
  if (auto f = llvm::dyn_cast_or_null<FloatAttr>(attr))
    return f.getValueAsDouble() == v;
  return false;
}

static std::optional<int64_t> asInt(Attribute attr) {
  if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(attr))
    return i.getInt();
  return std::nullopt;
}

static std::optional<double> asNumber(Attribute attr) {
  if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(attr))
    return static_cast<double>(i.getInt());
  if (auto f = llvm::dyn_cast_or_null<FloatAttr>(attr))
    return f.getValueAsDouble();
  return std::nullopt;
}

static bool isFloatDtype(Type dtype) {
  return llvm::isa_and_nonnull<mlir::FloatType>(dtype);
}

/// `self` for an op whose result equals `self` when the dtype does not
/// change: a scalar identity such as `x * 1`. A float scalar promotes an
/// integer tensor, and any int promotes a bool tensor to int64, so the fold
/// needs a known dtype that the scalar keeps, equal types, and freedom to let
/// the result alias `self`.
static OpFoldResult foldIdentity(Value self, Value result, Attribute scalar) {
  auto type = llvm::cast<TensorType>(self.getType());
  Type dtype = type.getDtype();
  if (self.getType() != result.getType() || !dtype || dtype.isInteger(1))
    return {};
  if (llvm::isa<FloatAttr>(scalar) && !isFloatDtype(dtype))
    return {};
  if (!canReplaceWithAlias(result, self))
    return {};
  return self;
}

/// Whether `sizes`, as `view`/`expand` take them (one -1 allowed), name the
/// static shape of `type`.
static bool namesShape(TensorType type, ArrayRef<int64_t> sizes) {
  if (!type.hasStaticShape())
    return false;
  ArrayRef<int64_t> shape = type.getSizes().asArrayRef();
  if (shape.size() != sizes.size())
    return false;
  int64_t inferred = 0;
  for (auto [want, have] : llvm::zip(sizes, shape)) {
    if (want == -1) {
      if (inferred++)
        return false;
      continue;
    }
    if (want != have)
      return false;
  }
  // With a single -1, the other sizes match, so the -1 is the remaining
  // size, unless another size is 0 (then -1 is ambiguous and view raises).
  return !inferred || !llvm::is_contained(shape, 0);
}

//===----------------------------------------------------------------------===//
// Arithmetic identities
//===----------------------------------------------------------------------===//

static DenseElementsAttr getConstantTensor(Value value, Attribute constant);
static DenseElementsAttr scalarOperand(DenseElementsAttr lhs, Attribute scalar);
static Attribute foldScalarAddSub(Value self, Attribute selfAttr,
                                  Attribute scalar, Attribute alphaAttr,
                                  bool subtract, bool reverse);
template <typename FloatFn, typename IntFn>
static Attribute foldElementwise(DenseElementsAttr lhs, DenseElementsAttr rhs,
                                 FloatFn floatFn, IntFn intFn);

OpFoldResult AtenAddScalarOp::fold(FoldAdaptor a) {
  if (Attribute folded = foldScalarAddSub(getSelf(), a.getSelf(), a.getOther(),
                                          a.getAlpha(), /*subtract=*/false,
                                          /*reverse=*/false))
    return folded;
  if (!isNumber(a.getOther(), 0) || !asNumber(a.getAlpha()))
    return {};
  return foldIdentity(getSelf(), getResult(), a.getOther());
}

OpFoldResult AtenSubScalarOp::fold(FoldAdaptor a) {
  if (Attribute folded = foldScalarAddSub(getSelf(), a.getSelf(), a.getOther(),
                                          a.getAlpha(), /*subtract=*/true,
                                          /*reverse=*/false))
    return folded;
  if (!isNumber(a.getOther(), 0) || !asNumber(a.getAlpha()))
    return {};
  return foldIdentity(getSelf(), getResult(), a.getOther());
}

OpFoldResult AtenMulScalarOp::fold(FoldAdaptor a) {
  DenseElementsAttr lhs = getConstantTensor(getSelf(), a.getSelf());
  if (Attribute folded = foldElementwise(
          lhs, scalarOperand(lhs, a.getOther()),
          [](double x, double y) { return x * y; },
          [](const APInt &x, const APInt &y) { return x * y; }))
    return folded;
  if (!isNumber(a.getOther(), 1))
    return {};
  return foldIdentity(getSelf(), getResult(), a.getOther());
}

OpFoldResult AtenDivScalarOp::fold(FoldAdaptor a) {
  DenseElementsAttr lhs = getConstantTensor(getSelf(), a.getSelf());
  if (lhs && isFloatDtype(lhs.getElementType()))
    if (Attribute folded = foldElementwise(
            lhs, scalarOperand(lhs, a.getOther()),
            [](double x, double y) { return x / y; },
            [](const APInt &x, const APInt &) { return x; }))
      return folded;
  // True division: an integer tensor divided by 1 becomes a float tensor.
  if (!isNumber(a.getOther(), 1) || !isFloatDtype(getSelf().getType().getDtype()))
    return {};
  return foldIdentity(getSelf(), getResult(), a.getOther());
}

OpFoldResult AtenPowTensorScalarOp::fold(FoldAdaptor a) {
  if (!isNumber(a.getExponent(), 1))
    return {};
  return foldIdentity(getSelf(), getResult(), a.getExponent());
}

//===----------------------------------------------------------------------===//
// Ops that return their input or a view of it
//===----------------------------------------------------------------------===//

OpFoldResult AtenDropoutOp::fold(FoldAdaptor a) {
  // at::dropout returns its input itself when not training, and its values
  // when training with p = 0 (every element kept, scaled by 1: swin's
  // attention calls F.dropout(attn, p=0.0) with training left True).
  auto train = llvm::dyn_cast_or_null<BoolAttr>(a.getTrain());
  auto p = llvm::dyn_cast_or_null<FloatAttr>(a.getP());
  bool keepsAll = !train ? false : !train.getValue() || (p && p.getValueAsDouble() == 0.0);
  if (!keepsAll || getInput().getType() != getType())
    return {};
  return getInput();
}

OpFoldResult AtenTypeAsOp::fold(FoldAdaptor) {
  // type_as is to(other's dtype and device), which returns self when nothing
  // changes.
  TensorType self = getSelf().getType(), other = getOther().getType();
  if (!self.getDtype() || self.getDtype() != other.getDtype() ||
      !self.getDevice() || self.getDevice() != other.getDevice() ||
      self != getType())
    return {};
  return getSelf();
}

/// `self` for a view, reshape or expand whose sizes name the static shape
/// `self` already has: PyTorch returns a view of all of `self`.
static OpFoldResult foldToOwnShape(Value self, Value result, Value sizes,
                                   Attribute constant) {
  std::optional<SmallVector<int64_t>> list = getKnownIntList(sizes, constant);
  if (!list || self.getType() != result.getType() ||
      !namesShape(llvm::cast<TensorType>(self.getType()), *list))
    return {};
  return self;
}

OpFoldResult AtenViewOp::fold(FoldAdaptor a) {
  return foldToOwnShape(getSelf(), getResult(), getSize(), a.getSize());
}

OpFoldResult AtenReshapeOp::fold(FoldAdaptor a) {
  return foldToOwnShape(getSelf(), getResult(), getShape(), a.getShape());
}

OpFoldResult AtenExpandOp::fold(FoldAdaptor a) {
  return foldToOwnShape(getSelf(), getResult(), getSize(), a.getSize());
}

OpFoldResult AtenSqueezeDimOp::fold(FoldAdaptor a) {
  std::optional<int64_t> dim = asInt(a.getDim());
  if (!dim)
    return {};
  // squeeze(unsqueeze(x, d), d) is x.
  if (auto unsqueeze = getSelf().getDefiningOp<AtenUnsqueezeOp>()) {
    IntegerAttr inner;
    if (matchPattern(unsqueeze.getDim(), m_Constant(&inner)) &&
        inner.getInt() == *dim && unsqueeze.getSelf().getType() == getType())
      return unsqueeze.getSelf();
  }
  if (getSelf().getType() != getType())
    return {};
  // Squeezing a dimension whose size is not 1 changes nothing.
  TensorType type = getSelf().getType();
  std::optional<int64_t> rank = type.getRank();
  if (!rank)
    return {};
  std::optional<int64_t> d = normalizeIndex(*dim, std::max<int64_t>(*rank, 1));
  if (!d || *rank == 0)
    return {};
  int64_t size = type.getSizes().asArrayRef()[*d];
  if (size == TensorType::kUnknown || size == 1)
    return {};
  return getSelf();
}

OpFoldResult AtenTransposeIntOp::fold(FoldAdaptor a) {
  auto inner = getSelf().getDefiningOp<AtenTransposeIntOp>();
  std::optional<int64_t> d0 = asInt(a.getDim0()), d1 = asInt(a.getDim1());
  if (!inner || !d0 || !d1 || inner.getSelf().getType() != getType())
    return {};
  IntegerAttr i0, i1;
  if (!matchPattern(inner.getDim0(), m_Constant(&i0)) ||
      !matchPattern(inner.getDim1(), m_Constant(&i1)))
    return {};
  // Both transposes see the same rank, so equal constants are equal dims.
  bool same = (i0.getInt() == *d0 && i1.getInt() == *d1) ||
              (i0.getInt() == *d1 && i1.getInt() == *d0);
  return same ? inner.getSelf() : OpFoldResult();
}

//===----------------------------------------------------------------------===//
// Constant tensors
//===----------------------------------------------------------------------===//

/// The elements of a constant tensor operand that nothing may write.
static DenseElementsAttr getConstantTensor(Value value, Attribute constant) {
  auto dense = llvm::dyn_cast_or_null<DenseIntOrFPElementsAttr>(constant);
  if (!dense || dense.getNumElements() > kMaxFoldedElements ||
      mayBeWritten(value))
    return {};
  return dense;
}

/// `fn` applied elementwise to `lhs` and `rhs` broadcast together, where the
/// two have the same shape or one has a single element and no larger rank.
/// Floats compute in double and round once to the element type, which for
/// +, -, *, / gives the correctly rounded result PyTorch computes in the
/// element type itself. Ints wrap as int64 does.
template <typename FloatFn, typename IntFn>
static Attribute foldElementwise(DenseElementsAttr lhs, DenseElementsAttr rhs,
                                 FloatFn floatFn, IntFn intFn) {
  if (!lhs || !rhs || lhs.getElementType() != rhs.getElementType())
    return {};
  auto lt = llvm::cast<ShapedType>(lhs.getType());
  auto rt = llvm::cast<ShapedType>(rhs.getType());
  ShapedType shape;
  if (lt.getShape() == rt.getShape())
    shape = lt;
  else if (rhs.getNumElements() == 1 && rt.getRank() <= lt.getRank())
    shape = lt;
  else if (lhs.getNumElements() == 1 && lt.getRank() <= rt.getRank())
    shape = rt;
  else
    return {};
  int64_t n = shape.getNumElements();
  Type element = lhs.getElementType();
  auto at = [n](DenseElementsAttr attr, int64_t i) {
    return attr.getNumElements() == 1 ? 0 : i % n;
  };
  if (auto floatType = llvm::dyn_cast<mlir::FloatType>(element)) {
    auto l = lhs.getValues<APFloat>(), r = rhs.getValues<APFloat>();
    SmallVector<APFloat> out;
    for (int64_t i = 0; i < n; ++i) {
      double v = floatFn(l[at(lhs, i)].convertToDouble(),
                         r[at(rhs, i)].convertToDouble());
      APFloat f(v);
      bool lost;
      f.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &lost);
      out.push_back(f);
    }
    return DenseElementsAttr::get(shape, out);
  }
  auto intType = llvm::dyn_cast<IntegerType>(element);
  if (!intType || intType.getWidth() == 1)
    return {};
  auto l = lhs.getValues<APInt>(), r = rhs.getValues<APInt>();
  SmallVector<APInt> out;
  for (int64_t i = 0; i < n; ++i)
    out.push_back(intFn(l[at(lhs, i)], r[at(rhs, i)]));
  return DenseElementsAttr::get(shape, out);
}

/// `lhs op alpha * rhs` for add and sub; alpha must be 1 for integers
/// (then it is exact) or a number for floats.
static Attribute foldAddSub(Value self, Value other, Attribute selfAttr,
                            Attribute otherAttr, Attribute alphaAttr,
                            bool subtract) {
  std::optional<double> alpha = asNumber(alphaAttr);
  if (!alpha)
    return {};
  double sign = subtract ? -1.0 : 1.0;
  DenseElementsAttr lhs = getConstantTensor(self, selfAttr);
  DenseElementsAttr rhs = getConstantTensor(other, otherAttr);
  if (lhs && !isFloatDtype(lhs.getElementType()) && *alpha != 1)
    return {};
  return foldElementwise(
      lhs, rhs, [&](double x, double y) { return x + sign * *alpha * y; },
      [&](const APInt &x, const APInt &y) { return subtract ? x - y : x + y; });
}

/// A number operand (`other` of the `.Scalar` overloads) as a 0-d constant
/// of `lhs`'s element type, where the result keeps that type: an int with
/// an int tensor, any number with a float tensor. A float with an int tensor
/// promotes to the default dtype, and bool tensors promote: not folded.
static DenseElementsAttr scalarOperand(DenseElementsAttr lhs,
                                       Attribute scalar) {
  if (!lhs)
    return {};
  Type element = lhs.getElementType();
  auto type = RankedTensorType::get({}, element);
  auto i = llvm::dyn_cast_or_null<IntegerAttr>(scalar);
  if (i && i.getType().isInteger(1))
    return {};
  if (isFloatDtype(element)) {
    std::optional<double> v = asNumber(scalar);
    if (!v)
      return {};
    return DenseElementsAttr::get(type, FloatAttr::get(element, *v));
  }
  auto intType = llvm::dyn_cast<IntegerType>(element);
  if (!intType || intType.getWidth() == 1 || !i)
    return {};
  return DenseElementsAttr::get(
      type, IntegerAttr::get(element, APInt(intType.getWidth(), i.getInt(),
                                            /*isSigned=*/true)));
}

/// add.Scalar, sub.Scalar (`self op alpha * other`) and rsub.Scalar
/// (`reverse`: `other - alpha * self`) of a constant tensor and a number.
/// Traced graphs compute sizes so, on 0-d tensors made from sizes.
static Attribute foldScalarAddSub(Value self, Attribute selfAttr,
                                  Attribute scalar, Attribute alphaAttr,
                                  bool subtract, bool reverse) {
  std::optional<double> alpha = asNumber(alphaAttr);
  DenseElementsAttr tensor = getConstantTensor(self, selfAttr);
  DenseElementsAttr number = scalarOperand(tensor, scalar);
  if (!alpha || !number)
    return {};
  if (!isFloatDtype(tensor.getElementType()) && *alpha != 1)
    return {};
  double sign = subtract ? -1.0 : 1.0;
  if (reverse)
    return foldElementwise(
        number, tensor, [&](double x, double y) { return x - *alpha * y; },
        [](const APInt &x, const APInt &y) { return x - y; });
  return foldElementwise(
      tensor, number, [&](double x, double y) { return x + sign * *alpha * y; },
      [&](const APInt &x, const APInt &y) { return subtract ? x - y : x + y; });
}

OpFoldResult AtenRsubScalarOp::fold(FoldAdaptor a) {
  return foldScalarAddSub(getSelf(), a.getSelf(), a.getOther(), a.getAlpha(),
                          /*subtract=*/true, /*reverse=*/true);
}

OpFoldResult AtenAddTensorOp::fold(FoldAdaptor a) {
  return foldAddSub(getSelf(), getOther(), a.getSelf(), a.getOther(),
                    a.getAlpha(), /*subtract=*/false);
}

OpFoldResult AtenSubTensorOp::fold(FoldAdaptor a) {
  return foldAddSub(getSelf(), getOther(), a.getSelf(), a.getOther(),
                    a.getAlpha(), /*subtract=*/true);
}

OpFoldResult AtenMulTensorOp::fold(FoldAdaptor a) {
  return foldElementwise(
      getConstantTensor(getSelf(), a.getSelf()),
      getConstantTensor(getOther(), a.getOther()),
      [](double x, double y) { return x * y; },
      [](const APInt &x, const APInt &y) { return x * y; });
}

OpFoldResult AtenDivTensorOp::fold(FoldAdaptor a) {
  DenseElementsAttr lhs = getConstantTensor(getSelf(), a.getSelf());
  // Integer true division gives floats: not folded.
  if (!lhs || !isFloatDtype(lhs.getElementType()))
    return {};
  return foldElementwise(
      lhs, getConstantTensor(getOther(), a.getOther()),
      [](double x, double y) { return x / y; },
      [](const APInt &x, const APInt &) { return x; });
}

/// floor_divide (PyTorch rounds toward -inf) and remainder (the sign of the
/// divisor) of constant tensors; ints by a non-zero divisor only (PyTorch
/// raises on zero). Traced code computes sizes so (channels // groups on
/// `prim::NumToTensor` of a size).
static APInt floorDivide(const APInt &x, const APInt &y) {
  APInt q = x.sdiv(y);
  if (!x.srem(y).isZero() && (x.isNegative() != y.isNegative()))
    q -= 1;
  return q;
}

static bool hasZero(DenseElementsAttr divisor) {
  return !isFloatDtype(divisor.getElementType()) &&
         llvm::any_of(divisor.getValues<APInt>(),
                      [](const APInt &d) { return d.isZero(); });
}

/// Whether floor_divide and remainder of these constants fold: integers by
/// a non-zero divisor, and float64, which the fold computes in its own
/// type (float32 would round differently in double).
static bool foldsFloorRounding(DenseElementsAttr lhs, DenseElementsAttr rhs) {
  if (!lhs || !rhs || hasZero(rhs))
    return false;
  Type element = lhs.getElementType();
  return !isFloatDtype(element) || element.isF64();
}

/// PyTorch's floor division of doubles (div_floor_floating): the quotient
/// of a - fmod(a, b), floored, rounded to the nearer integer.
static double floorDivideDouble(double a, double b) {
  if (b == 0)
    return a / b;
  double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0))
    div -= 1;
  if (div == 0)
    return std::copysign(0.0, a / b);
  double floored = std::floor(div);
  return div - floored > 0.5 ? floored + 1 : floored;
}

/// div with rounding_mode "trunc" or "floor" (None: true division, as
/// div.Tensor): the quotient rounded toward zero or toward -inf; ints by
/// a non-zero divisor only (PyTorch raises on zero).
OpFoldResult AtenDivTensorModeOp::fold(FoldAdaptor a) {
  DenseElementsAttr lhs = getConstantTensor(getSelf(), a.getSelf());
  DenseElementsAttr rhs = getConstantTensor(getOther(), a.getOther());
  if (!lhs || !rhs)
    return {};
  auto mode = llvm::dyn_cast_or_null<StringAttr>(a.getRoundingMode());
  bool floor = mode && mode.getValue() == "floor";
  if (!mode || (!floor && mode.getValue() != "trunc")) {
    if (!isFloatDtype(lhs.getElementType()) || mode)
      return {};
    return foldElementwise(
        lhs, rhs, [](double x, double y) { return x / y; },
        [](const APInt &x, const APInt &) { return x; });
  }
  if (!isFloatDtype(lhs.getElementType()))
    for (const APInt &d : rhs.getValues<APInt>())
      if (d.isZero())
        return {};
  return foldElementwise(
      lhs, rhs,
      [floor](double x, double y) {
        double q = x / y;
        return floor ? std::floor(q) : std::trunc(q);
      },
      [floor](const APInt &x, const APInt &y) {
        return floor ? floorDivide(x, y) : x.sdiv(y);
      });
}

/// Python's remainder: the sign of the divisor.
static double remainderDouble(double x, double y) {
  double r = std::fmod(x, y);
  return r != 0 && ((r < 0) != (y < 0)) ? r + y : r;
}

static APInt remainderInt(const APInt &x, const APInt &y) {
  return x - floorDivide(x, y) * y;
}

OpFoldResult AtenFloorDivideOp::fold(FoldAdaptor a) {
  DenseElementsAttr lhs = getConstantTensor(getSelf(), a.getSelf());
  DenseElementsAttr rhs = getConstantTensor(getOther(), a.getOther());
  if (!foldsFloorRounding(lhs, rhs))
    return {};
  return foldElementwise(lhs, rhs, floorDivideDouble, floorDivide);
}

OpFoldResult AtenRemainderTensorOp::fold(FoldAdaptor a) {
  DenseElementsAttr lhs = getConstantTensor(getSelf(), a.getSelf());
  DenseElementsAttr rhs = getConstantTensor(getOther(), a.getOther());
  if (!foldsFloorRounding(lhs, rhs))
    return {};
  return foldElementwise(lhs, rhs, remainderDouble, remainderInt);
}

OpFoldResult AtenFloorDivideScalarOp::fold(FoldAdaptor a) {
  DenseElementsAttr lhs = getConstantTensor(getSelf(), a.getSelf());
  DenseElementsAttr rhs = scalarOperand(lhs, a.getOther());
  if (!foldsFloorRounding(lhs, rhs))
    return {};
  return foldElementwise(lhs, rhs, floorDivideDouble, floorDivide);
}

OpFoldResult AtenRemainderScalarOp::fold(FoldAdaptor a) {
  DenseElementsAttr lhs = getConstantTensor(getSelf(), a.getSelf());
  DenseElementsAttr rhs = scalarOperand(lhs, a.getOther());
  if (!foldsFloorRounding(lhs, rhs))
    return {};
  return foldElementwise(lhs, rhs, remainderDouble, remainderInt);
}

OpFoldResult AtenNegOp::fold(FoldAdaptor a) {
  DenseElementsAttr value = getConstantTensor(getSelf(), a.getSelf());
  if (!value)
    return {};
  // neg of a bool tensor raises.
  if (value.getElementType().isInteger(1))
    return {};
  DenseElementsAttr zero = DenseElementsAttr::get(
      RankedTensorType::get({}, value.getElementType()),
      isFloatDtype(value.getElementType())
          ? Attribute(FloatAttr::get(value.getElementType(), 0.0))
          : Attribute(IntegerAttr::get(value.getElementType(), 0)));
  return foldElementwise(
      zero, value, [](double, double y) { return -y; },
      [](const APInt &, const APInt &y) { return -y; });
}

OpFoldResult PrimNumToTensorScalarOp::fold(FoldAdaptor a) {
  // A Python int becomes an int64 tensor, a float a float64 one.
  MLIRContext *ctx = getContext();
  Attribute value = a.getA();
  if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(value)) {
    if (i.getType().isInteger(1))
      return {};
    Type si64 = IntegerType::get(ctx, 64, IntegerType::Signed);
    return DenseElementsAttr::get(RankedTensorType::get({}, si64),
                                  APInt(64, i.getInt(), /*isSigned=*/true));
  }
  if (auto f = llvm::dyn_cast_or_null<FloatAttr>(value))
    return DenseElementsAttr::get(
        RankedTensorType::get({}, Float64Type::get(ctx)),
        APFloat(f.getValueAsDouble()));
  return {};
}

/// The single element of a constant tensor, as a double; nullopt for bool
/// tensors (whose int() is 0 or 1 but rarely meant) and larger tensors.
static std::optional<double> getSingleNumber(Value value, Attribute constant) {
  DenseElementsAttr dense = getConstantTensor(value, constant);
  if (!dense || dense.getNumElements() != 1 ||
      dense.getElementType().isInteger(1))
    return std::nullopt;
  if (isFloatDtype(dense.getElementType()))
    return (*dense.getValues<APFloat>().begin()).convertToDouble();
  if (dense.getElementType().isUnsignedInteger())
    return static_cast<double>((*dense.getValues<APInt>().begin()).getZExtValue());
  return static_cast<double>((*dense.getValues<APInt>().begin()).getSExtValue());
}

/// Whether no user of `op`'s tensor writes it or takes a view of it.
static bool isOnlyRead(Operation *op) {
  return llvm::none_of(op->getUsers(), [](Operation *user) {
    return user->hasTrait<OpTrait::InPlace>() ||
           user->hasTrait<OpTrait::ViewLike>();
  });
}

OpFoldResult AtenIntTensorOp::fold(FoldAdaptor a) {
  // Int(NumToTensor(n)) of an int is n (traced code converts sizes so),
  // unless the tensor may be written in between.
  if (auto wrap = getA().getDefiningOp<PrimNumToTensorScalarOp>())
    if (llvm::isa<IntType>(wrap.getA().getType()) && isOnlyRead(wrap))
      return wrap.getA();
  std::optional<double> v = getSingleNumber(getA(), a.getA());
  // int() of nan or inf raises; large values would overflow int64.
  if (!v || !std::isfinite(*v) || std::fabs(*v) >= 9.2e18)
    return {};
  return IntegerAttr::get(IntegerType::get(getContext(), 64),
                          static_cast<int64_t>(std::trunc(*v)));
}

OpFoldResult AtenFloatTensorOp::fold(FoldAdaptor a) {
  if (auto wrap = getA().getDefiningOp<PrimNumToTensorScalarOp>())
    if (llvm::isa<FloatType>(wrap.getA().getType()) && isOnlyRead(wrap))
      return wrap.getA();
  std::optional<double> v = getSingleNumber(getA(), a.getA());
  if (!v)
    return {};
  return FloatAttr::get(Float64Type::get(getContext()), *v);
}

} // namespace mlir::tsmlir::ts
