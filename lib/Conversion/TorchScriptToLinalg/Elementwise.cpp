//===- Elementwise.cpp - Elementwise ts ops to linalg.generic -------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every elementwise op becomes one linalg.generic over its result's shape.
// Its tensor operands are read through broadcasting maps, its scalar operands
// (Python numbers, alpha, clamp bounds, fill values) are used in the body.
// PyTorch's type promotion decides the type the body computes in: the
// result's element type for arithmetic (f32 for f16 and bf16 results, as
// PyTorch's CPU kernels do), the promoted operand type for comparisons.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseBody.h"
#include "PopulatePatterns.h"
#include "Utils.h"

#include "tsmlir/Conversion/TorchScriptToLinalg/TorchScriptToLinalg.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"
#include "tsmlir/Dialect/TorchScript/IR/TypePromotion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>
#include <functional>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::lowering;

namespace {

/// The type PyTorch computes a comparison in: at::result_type of its data
/// operands (ts/IR/TypePromotion.h), as the lowering's element type, and
/// whether that is an unsigned integer. Null when a dtype is not known.
static std::pair<Type, bool> promotedType(Operation *op,
                                          ArrayRef<DataOperand> data,
                                          ArrayRef<Value> operands) {
  MLIRContext *ctx = op->getContext();
  ts::ResultTypeState state;
  for (DataOperand d : data) {
    Type original = op->getOperand(d.index).getType();
    if (auto tensor = llvm::dyn_cast<ts::TensorType>(original)) {
      std::optional<int64_t> rank = tensor.getRank();
      if (!tensor.getDtype() || !rank)
        return {};
      state.add(tensor.getDtype(), *rank > 0
                                       ? ts::PromotionPriority::Dimensioned
                                       : ts::PromotionPriority::ZeroDim);
      continue;
    }
    Type dtype = ts::getWrappedNumberDtype(original);
    if (!dtype) {
      // A Scalar: the kind of number it lowered to tells.
      Type lowered = operands[d.index].getType();
      if (llvm::isa<FloatType>(lowered))
        dtype = Float32Type::get(ctx);
      else if (lowered.isInteger(1))
        dtype = lowered;
      else if (llvm::isa<IntegerType>(lowered))
        dtype = IntegerType::get(ctx, 64, IntegerType::Signed);
      else
        return {};
    }
    state.add(dtype, ts::PromotionPriority::Wrapped);
  }
  Type result = state.getResult();
  if (!result)
    return {};
  return {convertDtype(result), result.isUnsignedInteger()};
}

class ElementwiseLowering : public NamedOpLowering {
public:
  ElementwiseLowering(const TypeConverter &converter, MLIRContext *ctx,
                      ElementwiseSpec spec)
      : NamedOpLowering(converter, ctx, spec.name), spec(std::move(spec)) {
    addDebugLabels(kDynamicSizesLabel);
  }

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->getNumResults() != 1)
      return rewriter.notifyMatchFailure(op, "expected one result");
    auto resultType = llvm::dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op->getResult(0).getType()));
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result is not a static tensor");
    Location loc = op->getLoc();
    Type resultElement = resultType.getElementType();

    Type computeType;
    bool isUnsigned = false;
    switch (spec.compute) {
    case Compute::Result:
      computeType = resultElement;
      if (resultElement.isF16() || resultElement.isBF16())
        computeType = rewriter.getF32Type();
      isUnsigned = isUnsignedDtype(getTSDtype(op->getResult(0)));
      break;
    case Compute::Promoted:
      std::tie(computeType, isUnsigned) = promotedType(op, spec.data, operands);
      break;
    case Compute::Bool:
      computeType = rewriter.getI1Type();
      break;
    }
    if (!computeType || !computeType.isIntOrFloat())
      return rewriter.notifyMatchFailure(op, "no compute type");
    // Tensor operands become inputs of the generic; scalars are cast once,
    // outside it.
    SmallVector<Value> inputs;
    SmallVector<std::pair<bool, Value>> slots; // (is tensor, value)
    for (DataOperand d : spec.data) {
      Value v = operands[d.index];
      if (auto t = llvm::dyn_cast<RankedTensorType>(v.getType())) {
        if (t.getRank() > resultType.getRank())
          return rewriter.notifyMatchFailure(op, "operand of higher rank");
        slots.push_back({true, Value()});
        inputs.push_back(v);
      } else if (llvm::isa<IntegerType, FloatType>(v.getType())) {
        std::optional<double> n = getConstNumber(op->getOperand(d.index));
        if (d.cast && n)
          v = createScalarConstant(rewriter, loc, computeType, *n);
        else if (d.cast)
          v = castScalar(rewriter, loc, v, computeType);
        slots.push_back({false, v});
      } else {
        return rewriter.notifyMatchFailure(op, "operand is not a number");
      }
    }

    bool unsupported = false;
    Value result = buildElementwise(
        rewriter, loc, resultType, inputs,
        [&](OpBuilder &b, Location l, ValueRange elements) -> Value {
          BodyContext ctx{b, l, op, {}, computeType, isUnsigned, operands};
          unsigned next = 0;
          for (auto [d, slot] : llvm::zip(spec.data, slots)) {
            if (!slot.first) {
              ctx.args.push_back(slot.second);
              continue;
            }
            Value e = elements[next++];
            if (d.cast)
              e = castScalar(b, l, e, computeType,
                             isUnsignedDtype(getTSDtype(op->getOperand(
                                 d.index))));
            ctx.args.push_back(e);
          }
          Value r = spec.body(ctx);
          if (!r) {
            unsupported = true;
            return createScalarConstant(b, l, resultElement, 0);
          }
          return castScalar(b, l, r, resultElement);
        });
    if (unsupported)
      return rewriter.notifyMatchFailure(op, "no lowering for these operand "
                                             "types or options");
    if (!result)
      return rewriter.notifyMatchFailure(op, "a dynamic size of the result "
                                             "that no tensor operand has");
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  ElementwiseSpec spec;
};

/// Ops that return their (only) tensor operand: value semantics make copies
/// and detaching free.
class IdentityLowering : public NamedOpLowering {
public:
  IdentityLowering(const TypeConverter &converter, MLIRContext *ctx,
                   StringRef name)
      : NamedOpLowering(converter, ctx, name) {
    addDebugLabels(kDynamicSizesLabel);
  }

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType =
        getTypeConverter()->convertType(op->getResult(0).getType());
    if (!resultType || operands.empty() || operands[0].getType() != resultType)
      return rewriter.notifyMatchFailure(op, "result differs from operand");
    rewriter.replaceOp(op, operands[0]);
    return success();
  }
};

/// A tensor filled with one value: zeros, ones, full and their `_like`s
/// (`like`: the sizes of operand 0, dynamic ones too).
class FillLowering : public NamedOpLowering {
public:
  FillLowering(const TypeConverter &converter, MLIRContext *ctx, StringRef name,
               std::optional<double> value, unsigned valueOperand = 0,
               bool like = false)
      : NamedOpLowering(converter, ctx, name), value(value),
        valueOperand(valueOperand), like(like) {
    if (like)
      addDebugLabels(kDynamicSizesLabel);
  }

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = llvm::dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op->getResult(0).getType()));
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result is not a static tensor");
    Location loc = op->getLoc();
    Value fill = value ? createScalarConstant(rewriter, loc,
                                              resultType.getElementType(),
                                              *value)
                       : operands[valueOperand];
    if (!llvm::isa<IntegerType, FloatType>(fill.getType()))
      return rewriter.notifyMatchFailure(op, "fill value is not a number");
    Value filled = createFilled(rewriter, loc, resultType, fill,
                                like ? ValueRange{operands[0]} : ValueRange{});
    if (!filled)
      return rewriter.notifyMatchFailure(op, "dynamic sizes it cannot read");
    rewriter.replaceOp(op, filled);
    return success();
  }

private:
  std::optional<double> value;
  unsigned valueOperand;
  bool like;
};

/// triu and tril: keep the elements on one side of a diagonal of the last
/// two dimensions, zero the others.
class TriangleLowering : public NamedOpLowering {
public:
  TriangleLowering(const TypeConverter &converter, MLIRContext *ctx,
                   StringRef name, bool upper)
      : NamedOpLowering(converter, ctx, name), upper(upper) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = llvm::dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op->getResult(0).getType()));
    if (!resultType || resultType.getRank() < 2)
      return rewriter.notifyMatchFailure(op, "expected a static 2-D+ tensor");
    Location loc = op->getLoc();
    Value diagonal = castScalar(rewriter, loc, operands[1],
                                rewriter.getIndexType());
    int64_t rank = resultType.getRank();
    Value result = buildElementwise(
        rewriter, loc, resultType, operands[0],
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value row = linalg::IndexOp::create(b, l, rank - 2);
          Value col = linalg::IndexOp::create(b, l, rank - 1);
          Value offset = arith::SubIOp::create(b, l, col, row);
          Value keep = arith::CmpIOp::create(
              b, l, upper ? arith::CmpIPredicate::sge : arith::CmpIPredicate::sle,
              offset, diagonal);
          Value zero = createScalarConstant(b, l, args[0].getType(), 0);
          return arith::SelectOp::create(b, l, keep, args[0], zero);
        });
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  bool upper;
};

} // namespace

//===----------------------------------------------------------------------===//
// The op table
//===----------------------------------------------------------------------===//

static Value floatUnary(BodyContext &c,
                        Value (*fn)(OpBuilder &, Location, Value)) {
  return fn(c.b, c.loc, c.args[0]);
}

template <typename MathOp>
static Value mathOp(OpBuilder &b, Location loc, Value x) {
  return MathOp::create(b, loc, x);
}

static Value compare(BodyContext &c, arith::CmpFPredicate f,
                     arith::CmpIPredicate si, arith::CmpIPredicate ui) {
  Value x = c.args[0], y = c.args[1];
  if (c.isFloat())
    return c.cmpf(f, x, y);
  bool isUnsigned = c.isUnsigned || c.type.isInteger(1);
  return arith::CmpIOp::create(c.b, c.loc, isUnsigned ? ui : si, x, y);
}

/// x ** e for integers, as PyTorch's powi: square and multiply, wrapping;
/// a negative exponent gives 1 for x = 1, -1 or 1 for x = -1 (odd or even
/// e), 0 otherwise. A constant exponent unrolls to its multiplications, any
/// other to one step per bit of e (math.ipowi has no lowering to LLVM).
static Value integerPower(BodyContext &c, Value x, Value e,
                          std::optional<double> constExponent) {
  using I = arith::CmpIPredicate;
  if (c.type.isInteger(1))
    return Value();
  Value one = c.cst(1), zero = c.cst(0);
  if (constExponent && *constExponent >= 0) {
    Value result;
    for (auto n = static_cast<uint64_t>(*constExponent); n; n >>= 1) {
      if (n & 1)
        result = result ? c.mul(result, x) : x;
      if (n > 1)
        x = c.mul(x, x);
    }
    return result ? result : one;
  }
  unsigned width = c.type.getIntOrFloatBitWidth();
  unsigned bits = c.isUnsigned ? width : width - 1;
  Value result = one, base = x, rest = e;
  for (unsigned bit = 0; bit < bits; ++bit) {
    Value set = arith::CmpIOp::create(
        c.b, c.loc, I::ne, arith::AndIOp::create(c.b, c.loc, rest, one), zero);
    result = c.select(set, c.mul(result, base), result);
    if (bit + 1 < bits) {
      base = c.mul(base, base);
      rest = arith::ShRUIOp::create(c.b, c.loc, rest, one);
    }
  }
  if (c.isUnsigned)
    return result;
  Value odd = arith::CmpIOp::create(
      c.b, c.loc, I::ne, arith::AndIOp::create(c.b, c.loc, e, one), zero);
  Value minusOne = c.cst(-1);
  Value negative = c.select(
      arith::CmpIOp::create(c.b, c.loc, I::eq, x, one), one,
      c.select(arith::CmpIOp::create(c.b, c.loc, I::eq, x, minusOne),
               c.select(odd, minusOne, one), zero));
  return c.select(arith::CmpIOp::create(c.b, c.loc, I::slt, e, zero),
                  negative, result);
}

/// Division rounded towards zero: C's integer division, trunc(x / y) for
/// floats.
static Value truncDivide(BodyContext &c) {
  Value x = c.args[0], y = c.args[1];
  if (c.isFloat())
    return math::TruncOp::create(c.b, c.loc, c.div(x, y));
  if (c.isUnsigned)
    return arith::DivUIOp::create(c.b, c.loc, x, y);
  return arith::DivSIOp::create(c.b, c.loc, x, y);
}

/// Division rounded towards negative infinity. Floats follow PyTorch's
/// div_floor_floating: the quotient of x - fmod(x, y), so that it is exact
/// where floor(x / y) would round up to the next integer; x / y for y = 0.
static Value floorDivide(BodyContext &c) {
  using P = arith::CmpFPredicate;
  using I = arith::CmpIPredicate;
  Value x = c.args[0], y = c.args[1];
  if (!c.isFloat()) {
    if (c.isUnsigned)
      return arith::DivUIOp::create(c.b, c.loc, x, y);
    // The truncated quotient, less one where the remainder is not zero and
    // its sign differs from the divisor's.
    Value zero = c.cst(0);
    Value quot = arith::DivSIOp::create(c.b, c.loc, x, y);
    Value rem = arith::RemSIOp::create(c.b, c.loc, x, y);
    Value signsDiffer = arith::XOrIOp::create(
        c.b, c.loc, arith::CmpIOp::create(c.b, c.loc, I::slt, y, zero),
        arith::CmpIOp::create(c.b, c.loc, I::slt, rem, zero));
    Value adjust = arith::AndIOp::create(
        c.b, c.loc, arith::CmpIOp::create(c.b, c.loc, I::ne, rem, zero),
        signsDiffer);
    return c.select(adjust, c.sub(quot, c.cst(1)), quot);
  }
  Value zero = c.cst(0);
  Value mod = arith::RemFOp::create(c.b, c.loc, x, y);
  Value div = c.div(c.sub(x, mod), y);
  Value signsDiffer = arith::XOrIOp::create(
      c.b, c.loc, c.cmpf(P::OLT, y, zero), c.cmpf(P::OLT, mod, zero));
  Value adjust = arith::AndIOp::create(c.b, c.loc, c.cmpf(P::UNE, mod, zero),
                                       signsDiffer);
  div = c.select(adjust, c.sub(div, c.cst(1)), div);
  Value floor = math::FloorOp::create(c.b, c.loc, div);
  floor = c.select(c.cmpf(P::OGT, c.sub(div, floor), c.cst(0.5)),
                   c.add(floor, c.cst(1)), floor);
  Value signedZero =
      math::CopySignOp::create(c.b, c.loc, zero, c.div(x, y));
  Value result = c.select(c.cmpf(P::UNE, div, zero), floor, signedZero);
  return c.select(c.cmpf(P::OEQ, y, zero), c.div(x, y), result);
}

/// Python's remainder, with the sign of the divisor: fmod (or C's %), plus
/// the divisor where the signs differ, as PyTorch's remainder kernel does.
static Value pythonRemainder(BodyContext &c) {
  Value x = c.args[0], y = c.args[1];
  if (c.isFloat()) {
    using P = arith::CmpFPredicate;
    Value zero = c.cst(0);
    Value mod = arith::RemFOp::create(c.b, c.loc, x, y);
    Value signsDiffer = arith::XOrIOp::create(
        c.b, c.loc, c.cmpf(P::OLT, y, zero), c.cmpf(P::OLT, mod, zero));
    Value adjust = arith::AndIOp::create(
        c.b, c.loc, c.cmpf(P::UNE, mod, zero), signsDiffer);
    return c.select(adjust, c.add(mod, y), mod);
  }
  if (c.isUnsigned)
    return arith::RemUIOp::create(c.b, c.loc, x, y);
  using I = arith::CmpIPredicate;
  Value zero = c.cst(0);
  Value mod = arith::RemSIOp::create(c.b, c.loc, x, y);
  Value signsDiffer = arith::XOrIOp::create(
      c.b, c.loc, arith::CmpIOp::create(c.b, c.loc, I::slt, y, zero),
      arith::CmpIOp::create(c.b, c.loc, I::slt, mod, zero));
  Value adjust = arith::AndIOp::create(
      c.b, c.loc, arith::CmpIOp::create(c.b, c.loc, I::ne, mod, zero),
      signsDiffer);
  return c.select(adjust, c.add(mod, y), mod);
}

static SmallVector<ElementwiseSpec> getElementwiseSpecs() {
  using P = arith::CmpFPredicate;
  using I = arith::CmpIPredicate;
  const DataOperand a0{0, true}, a1{1, true}, a2{2, true};
  const DataOperand raw0{0, false}, raw1{1, false};
  SmallVector<ElementwiseSpec> specs;
  auto add = [&](StringRef name, SmallVector<DataOperand> data, Compute compute,
                 BodyFn body) {
    specs.push_back({name, std::move(data), compute, std::move(body)});
  };
  auto unary = [&](StringRef name, Value (*fn)(OpBuilder &, Location, Value)) {
    add(name, {a0}, Compute::Result,
        [fn](BodyContext &c) { return floatUnary(c, fn); });
  };

  // Arithmetic.
  for (StringRef name :
       getOperationNames<ts::AtenAddTensorOp, ts::AtenAddScalarOp>())
    add(name, {a0, a1}, Compute::Result, [](BodyContext &c) {
      return c.add(c.args[0], c.scaled(c.args[1], 2));
    });
  for (StringRef name :
       getOperationNames<ts::AtenSubTensorOp, ts::AtenSubScalarOp>())
    add(name, {a0, a1}, Compute::Result, [](BodyContext &c) {
      return c.sub(c.args[0], c.scaled(c.args[1], 2));
    });
  for (StringRef name :
       getOperationNames<ts::AtenRsubTensorOp, ts::AtenRsubScalarOp>())
    add(name, {a0, a1}, Compute::Result, [](BodyContext &c) {
      return c.sub(c.args[1], c.scaled(c.args[0], 2));
    });
  for (StringRef name :
       getOperationNames<ts::AtenMulTensorOp, ts::AtenMulScalarOp>())
    add(name, {a0, a1}, Compute::Result,
        [](BodyContext &c) { return c.mul(c.args[0], c.args[1]); });
  for (StringRef name :
       getOperationNames<ts::AtenDivTensorOp, ts::AtenDivScalarOp,
                         ts::AtenTrueDivideTensorOp,
                         ts::AtenTrueDivideScalarOp>())
    add(name, {a0, a1}, Compute::Result, [](BodyContext &c) -> Value {
      if (!c.isFloat())
        return Value(); // true division of integers has a float result
      return c.div(c.args[0], c.args[1]);
    });
  // rounding_mode None is true division, "trunc" and "floor" keep integers.
  for (StringRef name :
       getOperationNames<ts::AtenDivTensorModeOp, ts::AtenDivScalarModeOp>())
    add(name, {a0, a1}, Compute::Result, [](BodyContext &c) -> Value {
      StringRef mode = getConstString(c.op->getOperand(2));
      if (mode == "trunc")
        return truncDivide(c);
      if (mode == "floor")
        return floorDivide(c);
      if (!isConstNone(c.op->getOperand(2)) || !c.isFloat())
        return Value();
      return c.div(c.args[0], c.args[1]);
    });
  for (StringRef name : getOperationNames<ts::AtenFloorDivideOp,
                                          ts::AtenFloorDivideScalarOp>())
    add(name, {a0, a1}, Compute::Result, floorDivide);
  for (StringRef name : getOperationNames<ts::AtenRemainderTensorOp,
                                          ts::AtenRemainderScalarOp>())
    add(name, {a0, a1}, Compute::Result, pythonRemainder);
  add(ts::AtenNegOp::getOperationName(), {a0}, Compute::Result,
      [](BodyContext &c) -> Value {
        if (c.isFloat())
          return arith::NegFOp::create(c.b, c.loc, c.args[0]);
        return c.sub(c.cst(0), c.args[0]);
      });
  add(ts::AtenReciprocalOp::getOperationName(), {a0}, Compute::Result,
      [](BodyContext &c) { return c.div(c.cst(1), c.args[0]); });
  add(ts::AtenPowTensorScalarOp::getOperationName(), {a0, a1}, Compute::Result,
      [](BodyContext &c) -> Value {
        std::optional<double> e = getConstNumber(c.op->getOperand(1));
        Value x = c.args[0];
        if (e && *e == 1.0)
          return x;
        if (e && *e == 2.0)
          return c.mul(x, x);
        if (e && *e == 3.0)
          return c.mul(c.mul(x, x), x);
        if (!c.isFloat())
          return integerPower(c, x, c.args[1], e);
        if (e && *e == 0.5)
          return math::SqrtOp::create(c.b, c.loc, x);
        if (e && *e == -1.0)
          return c.div(c.cst(1), x);
        return math::PowFOp::create(c.b, c.loc, x, c.args[1]);
      });
  for (StringRef name :
       getOperationNames<ts::AtenPowTensorTensorOp, ts::AtenPowScalarOp>())
    add(name, {a0, a1}, Compute::Result, [](BodyContext &c) -> Value {
      if (!c.isFloat())
        return integerPower(c, c.args[0], c.args[1],
                            getConstNumber(c.op->getOperand(1)));
      return math::PowFOp::create(c.b, c.loc, c.args[0], c.args[1]);
    });
  add(ts::AtenAbsOp::getOperationName(), {a0}, Compute::Result,
      [](BodyContext &c) -> Value {
        if (c.isFloat())
          return math::AbsFOp::create(c.b, c.loc, c.args[0]);
        if (c.isUnsigned)
          return c.args[0];
        return math::AbsIOp::create(c.b, c.loc, c.args[0]);
      });
  // sgn is sign for real numbers.
  for (StringRef name : getOperationNames<ts::AtenSignOp, ts::AtenSgnOp>())
  add(name, {a0}, Compute::Result,
      [](BodyContext &c) -> Value {
        Value x = c.args[0];
        if (!c.isFloat()) {
          Value pos = arith::CmpIOp::create(
              c.b, c.loc, c.isUnsigned ? I::ugt : I::sgt, x, c.cst(0));
          Value neg = arith::CmpIOp::create(c.b, c.loc, I::slt, x, c.cst(0));
          return c.select(pos, c.cst(1), c.select(neg, c.cst(-1), c.cst(0)));
        }
        // PyTorch's (0 < x) - (x < 0): NaN gives 0.
        Value pos = c.cmpf(P::OGT, x, c.cst(0));
        Value neg = c.cmpf(P::OLT, x, c.cst(0));
        return c.select(pos, c.cst(1), c.select(neg, c.cst(-1), c.cst(0)));
      });

  // Math.
  unary(ts::AtenExpOp::getOperationName(), mathOp<math::ExpOp>);
  unary(ts::AtenExpm1Op::getOperationName(), mathOp<math::ExpM1Op>);
  unary(ts::AtenLogOp::getOperationName(), mathOp<math::LogOp>);
  unary(ts::AtenLog1pOp::getOperationName(), mathOp<math::Log1pOp>);
  unary(ts::AtenLog2Op::getOperationName(), mathOp<math::Log2Op>);
  unary(ts::AtenSqrtOp::getOperationName(), mathOp<math::SqrtOp>);
  unary(ts::AtenRsqrtOp::getOperationName(), mathOp<math::RsqrtOp>);
  unary(ts::AtenTanhOp::getOperationName(), mathOp<math::TanhOp>);
  unary(ts::AtenErfOp::getOperationName(), mathOp<math::ErfOp>);
  unary(ts::AtenSinOp::getOperationName(), mathOp<math::SinOp>);
  unary(ts::AtenCosOp::getOperationName(), mathOp<math::CosOp>);
  // Rounding keeps the dtype; integers are whole already, and PyTorch
  // returns them unchanged (math.floor and co. take floats only).
  auto rounding = [&](StringRef name,
                      Value (*fn)(OpBuilder &, Location, Value)) {
    add(name, {a0}, Compute::Result, [fn](BodyContext &c) {
      return c.isFloat() ? floatUnary(c, fn) : c.args[0];
    });
  };
  rounding(ts::AtenFloorOp::getOperationName(), mathOp<math::FloorOp>);
  rounding(ts::AtenCeilOp::getOperationName(), mathOp<math::CeilOp>);
  rounding(ts::AtenRoundOp::getOperationName(), mathOp<math::RoundEvenOp>);
  add(ts::AtenSigmoidOp::getOperationName(), {a0}, Compute::Result,
      [](BodyContext &c) { return c.sigmoid(c.args[0]); });
  add(ts::AtenSiluOp::getOperationName(), {a0}, Compute::Result,
      [](BodyContext &c) { return c.mul(c.args[0], c.sigmoid(c.args[0])); });
  add(ts::AtenReluOp::getOperationName(), {a0}, Compute::Result,
      [](BodyContext &c) { return c.max(c.args[0], c.cst(0)); });
  add(ts::AtenGeluOp::getOperationName(), {a0}, Compute::Result,
      [](BodyContext &c) -> Value {
        Value x = c.args[0];
        auto approx = c.op->getOperand(1).getDefiningOp<ts::PrimConstantOp>();
        auto mode =
            approx ? llvm::dyn_cast_or_null<StringAttr>(approx.getValueAttr())
                   : StringAttr();
        Value half = c.mul(c.cst(0.5), x);
        if (mode && mode.getValue() == "tanh") {
          Value cube = c.mul(c.mul(x, x), x);
          Value inner = c.mul(c.cst(std::sqrt(2.0 / M_PI)),
                              c.add(x, c.mul(c.cst(0.044715), cube)));
          Value t = math::TanhOp::create(c.b, c.loc, inner);
          return c.mul(half, c.add(c.cst(1), t));
        }
        if (mode && mode.getValue() != "none")
          return Value();
        Value e = math::ErfOp::create(c.b, c.loc, c.mul(x, c.cst(M_SQRT1_2)));
        return c.mul(half, c.add(c.cst(1), e));
      });
  add(ts::AtenHardswishOp::getOperationName(), {a0}, Compute::Result,
      [](BodyContext &c) {
        Value x = c.args[0];
        Value r6 = c.min(c.max(c.add(x, c.cst(3)), c.cst(0)), c.cst(6));
        return c.div(c.mul(x, r6), c.cst(6));
      });
  add(ts::AtenHardsigmoidOp::getOperationName(), {a0}, Compute::Result,
      [](BodyContext &c) {
        Value r6 = c.min(c.max(c.add(c.args[0], c.cst(3)), c.cst(0)), c.cst(6));
        return c.div(r6, c.cst(6));
      });
  add(ts::AtenHardtanhOp::getOperationName(), {a0}, Compute::Result,
      [](BodyContext &c) {
        return c.min(c.max(c.args[0], c.scalar(1)), c.scalar(2));
      });
  add(ts::AtenLeakyReluOp::getOperationName(), {a0}, Compute::Result,
      [](BodyContext &c) {
        Value x = c.args[0];
        Value pos = c.cmpf(P::OGT, x, c.cst(0));
        return c.select(pos, x, c.mul(x, c.scalar(1)));
      });
  add(ts::AtenEluOp::getOperationName(), {a0}, Compute::Result,
      [](BodyContext &c) {
        Value x = c.args[0];
        Value neg =
            c.mul(c.scalar(1),
                  math::ExpM1Op::create(c.b, c.loc, c.mul(x, c.scalar(3)))
                      .getResult());
        Value pos = c.cmpf(P::OGT, x, c.cst(0));
        return c.mul(c.scalar(2), c.select(pos, x, neg));
      });
  add(ts::AtenSoftplusOp::getOperationName(), {a0}, Compute::Result,
      [](BodyContext &c) {
        Value x = c.args[0];
        Value beta = c.scalar(1);
        Value bx = c.mul(x, beta);
        Value soft = c.div(math::Log1pOp::create(
                               c.b, c.loc, math::ExpOp::create(c.b, c.loc, bx)),
                           beta);
        return c.select(c.cmpf(P::OGT, bx, c.scalar(2)), x, soft);
      });
  for (StringRef name :
       getOperationNames<ts::AtenLerpScalarOp, ts::AtenLerpTensorOp>())
    add(name,
        name == ts::AtenLerpTensorOp::getOperationName()
            ? SmallVector<DataOperand>{a0, a1, a2}
            : SmallVector<DataOperand>{a0, a1},
        Compute::Result, [](BodyContext &c) {
          // PyTorch's form: exact at both ends.
          Value self = c.args[0], end = c.args[1];
          Value w = c.args.size() > 2 ? c.args[2] : c.scalar(2);
          Value diff = c.sub(end, self);
          Value small = c.cmpf(P::OLT, math::AbsFOp::create(c.b, c.loc, w),
                               c.cst(0.5));
          Value lo = c.add(self, c.mul(w, diff));
          Value hi = c.sub(end, c.mul(diff, c.sub(c.cst(1), w)));
          return c.select(small, lo, hi);
        });

  // Bounds.
  add(ts::AtenClampOp::getOperationName(), {a0}, Compute::Result,
      [](BodyContext &c) {
        Value x = c.args[0];
        if (!isConstNone(c.op->getOperand(1)))
          x = c.max(x, c.scalar(1));
        if (!isConstNone(c.op->getOperand(2)))
          x = c.min(x, c.scalar(2));
        return x;
      });
  add(ts::AtenClampMinOp::getOperationName(), {a0}, Compute::Result,
      [](BodyContext &c) { return c.max(c.args[0], c.scalar(1)); });
  add(ts::AtenClampMaxOp::getOperationName(), {a0}, Compute::Result,
      [](BodyContext &c) { return c.min(c.args[0], c.scalar(1)); });
  for (StringRef name :
       getOperationNames<ts::AtenMaximumOp, ts::AtenMaxOtherOp>())
    add(name, {a0, a1}, Compute::Result,
        [](BodyContext &c) { return c.max(c.args[0], c.args[1]); });
  for (StringRef name :
       getOperationNames<ts::AtenMinimumOp, ts::AtenMinOtherOp>())
    add(name, {a0, a1}, Compute::Result,
        [](BodyContext &c) { return c.min(c.args[0], c.args[1]); });

  // Selection.
  for (StringRef name :
       getOperationNames<ts::AtenWhereSelfOp, ts::AtenWhereScalarSelfOp,
                         ts::AtenWhereScalarOtherOp, ts::AtenWhereScalarOp>())
    add(name, {raw0, a1, a2}, Compute::Result, [](BodyContext &c) {
      Value cond = castScalar(c.b, c.loc, c.args[0], c.b.getI1Type());
      return c.select(cond, c.args[1], c.args[2]);
    });
  for (StringRef name : getOperationNames<ts::AtenMaskedFillScalarOp,
                                          ts::AtenMaskedFillTensorOp>())
    add(name, {a0, raw1, a2}, Compute::Result, [](BodyContext &c) {
      Value mask = castScalar(c.b, c.loc, c.args[1], c.b.getI1Type());
      return c.select(mask, c.args[2], c.args[0]);
    });

  // Comparisons.
  struct Cmp {
    StringRef tensor, scalar;
    P f;
    I si, ui;
  };
  for (Cmp cmp :
       {Cmp{ts::AtenEqTensorOp::getOperationName(),
            ts::AtenEqScalarOp::getOperationName(), P::OEQ, I::eq, I::eq},
        Cmp{ts::AtenNeTensorOp::getOperationName(),
            ts::AtenNeScalarOp::getOperationName(), P::UNE, I::ne, I::ne},
        Cmp{ts::AtenLtTensorOp::getOperationName(),
            ts::AtenLtScalarOp::getOperationName(), P::OLT, I::slt, I::ult},
        Cmp{ts::AtenLeTensorOp::getOperationName(),
            ts::AtenLeScalarOp::getOperationName(), P::OLE, I::sle, I::ule},
        Cmp{ts::AtenGtTensorOp::getOperationName(),
            ts::AtenGtScalarOp::getOperationName(), P::OGT, I::sgt, I::ugt},
        Cmp{ts::AtenGeTensorOp::getOperationName(),
            ts::AtenGeScalarOp::getOperationName(), P::OGE, I::sge, I::uge}})
    for (StringRef name : {cmp.tensor, cmp.scalar})
      add(name, {a0, a1}, Compute::Promoted,
          [cmp](BodyContext &c) { return compare(c, cmp.f, cmp.si, cmp.ui); });

  // Logical and bitwise.
  add(ts::AtenLogicalAndOp::getOperationName(), {a0, a1}, Compute::Bool,
      [](BodyContext &c) {
        return arith::AndIOp::create(c.b, c.loc, c.args[0], c.args[1]);
      });
  add(ts::AtenLogicalOrOp::getOperationName(), {a0, a1}, Compute::Bool,
      [](BodyContext &c) {
        return arith::OrIOp::create(c.b, c.loc, c.args[0], c.args[1]);
      });
  add(ts::AtenLogicalXorOp::getOperationName(), {a0, a1}, Compute::Bool,
      [](BodyContext &c) {
        return arith::XOrIOp::create(c.b, c.loc, c.args[0], c.args[1]);
      });
  add(ts::AtenLogicalNotOp::getOperationName(), {a0}, Compute::Bool,
      [](BodyContext &c) {
        return arith::XOrIOp::create(c.b, c.loc, c.args[0], c.cst(1));
      });
  add(ts::AtenBitwiseNotOp::getOperationName(), {a0}, Compute::Result,
      [](BodyContext &c) -> Value {
        if (c.isFloat())
          return Value();
        Value ones = c.type.isInteger(1) ? c.cst(1) : c.cst(-1);
        return arith::XOrIOp::create(c.b, c.loc, c.args[0], ones);
      });
  add(ts::Aten__And__TensorOp::getOperationName(), {a0, a1}, Compute::Result,
      [](BodyContext &c) {
        return arith::AndIOp::create(c.b, c.loc, c.args[0], c.args[1]);
      });
  add(ts::Aten__Or__TensorOp::getOperationName(), {a0, a1}, Compute::Result,
      [](BodyContext &c) {
        return arith::OrIOp::create(c.b, c.loc, c.args[0], c.args[1]);
      });
  add(ts::Aten__Xor__TensorOp::getOperationName(), {a0, a1}, Compute::Result,
      [](BodyContext &c) {
        return arith::XOrIOp::create(c.b, c.loc, c.args[0], c.args[1]);
      });

  // Casts: the compute type is the result's, so the cast is the body.
  for (StringRef name :
       getOperationNames<ts::AtenTypeAsOp, ts::AtenToDtypeOp, ts::AtenToOtherOp,
                         ts::AtenToDtypeLayoutOp, ts::AtenToPrimDtypeOp,
                         ts::AtenToDeviceOp, ts::AtenToPrimDeviceOp>())
    add(name, {a0}, Compute::Result,
        [](BodyContext &c) { return c.args[0]; });
  addMathElementwiseSpecs(specs);
  addSpecialElementwiseSpecs(specs);
  return specs;
}

void lowering::populateElementwisePatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  for (ElementwiseSpec &spec : getElementwiseSpecs())
    patterns.add<ElementwiseLowering>(converter, ctx, std::move(spec));
  for (StringRef name : getOperationNames<ts::AtenCloneOp, ts::AtenDetachOp,
                                          ts::AtenContiguousOp>())
    patterns.add<IdentityLowering>(converter, ctx, name);
  patterns.add<FillLowering>(converter, ctx,
                             ts::AtenZerosLikeOp::getOperationName(), 0.0,
                             /*valueOperand=*/0, /*like=*/true);
  patterns.add<FillLowering>(converter, ctx,
                             ts::AtenZerosOp::getOperationName(), 0.0);
  patterns.add<FillLowering>(converter, ctx,
                             ts::AtenOnesLikeOp::getOperationName(), 1.0,
                             /*valueOperand=*/0, /*like=*/true);
  patterns.add<FillLowering>(converter, ctx, ts::AtenOnesOp::getOperationName(),
                             1.0);
  patterns.add<FillLowering>(converter, ctx,
                             ts::AtenFullLikeOp::getOperationName(),
                             std::nullopt, 1, /*like=*/true);
  patterns.add<FillLowering>(converter, ctx, ts::AtenFullOp::getOperationName(),
                             std::nullopt, 1);
  patterns.add<TriangleLowering>(converter, ctx,
                                 ts::AtenTriuOp::getOperationName(), true);
  patterns.add<TriangleLowering>(converter, ctx,
                                 ts::AtenTrilOp::getOperationName(), false);
}
