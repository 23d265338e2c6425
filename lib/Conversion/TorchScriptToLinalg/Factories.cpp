//===- Factories.cpp - arange, linspace, logspace, empty results --------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Tensors computed from their index: a linalg.generic over the 1-D result
// evaluates PyTorch's CPU formula for element i, in the types PyTorch's
// kernels compute it in, so that rounding matches.
//
// A tensor with no elements needs no computation: any op that only reads
// (and takes no list of tensors) and whose results are all tensors of
// static shape with a zero size (a batch of 0, an empty slice) becomes
// tensor.empty ops, ahead of the op's own lowering, which need not handle
// the empty case.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "Utils.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::lowering;

namespace {

/// A generic over the static 1-D `resultType` whose element i is
/// `element(b, l, i)`, i an i64.
Value buildFromIndex(
    OpBuilder &b, Location loc, RankedTensorType resultType,
    function_ref<Value(OpBuilder &, Location, Value)> element) {
  Value init = tensor::EmptyOp::create(b, loc, resultType.getShape(),
                                       resultType.getElementType());
  AffineMap id = b.getMultiDimIdentityMap(1);
  return linalg::GenericOp::create(
             b, loc, resultType, ValueRange{}, ValueRange{init},
             ArrayRef<AffineMap>{id},
             ArrayRef<utils::IteratorType>{utils::IteratorType::parallel},
             [&](OpBuilder &nb, Location l, ValueRange) {
               Value i = arith::IndexCastOp::create(
                   nb, l, nb.getI64Type(), linalg::IndexOp::create(nb, l, 0));
               linalg::YieldOp::create(nb, l, element(nb, l, i));
             })
      .getResult(0);
}

/// arange(end), arange.start(start, end) and arange.start_step(start, end,
/// step): element i is start + i * step, computed in double for floating
/// results (PyTorch's accumulation type on the CPU) and in int64 otherwise,
/// then converted to the result's dtype. The size is the result type's.
class ArangeLowering : public NamedOpLowering {
public:
  ArangeLowering(const TypeConverter &converter, MLIRContext *ctx,
                 StringRef name, bool hasStart, bool hasStep)
      : NamedOpLowering(converter, ctx, name), hasStart(hasStart),
        hasStep(hasStep) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    if (!resultType || resultType.getRank() != 1)
      return rewriter.notifyMatchFailure(op,
                                         "result is not a static 1-D tensor");
    Location loc = op->getLoc();
    Type element = resultType.getElementType();
    Type acc = llvm::isa<FloatType>(element) ? Type(rewriter.getF64Type())
                                             : Type(rewriter.getI64Type());
    for (unsigned i = 0; i < (hasStep ? 3u : hasStart ? 2u : 1u); ++i)
      if (!llvm::isa<IntegerType, FloatType>(operands[i].getType()))
        return rewriter.notifyMatchFailure(op, "a bound is not a number");
    Value start = hasStart ? castScalar(rewriter, loc, operands[0], acc)
                           : createScalarConstant(rewriter, loc, acc, 0);
    Value step = hasStep ? castScalar(rewriter, loc, operands[2], acc)
                         : createScalarConstant(rewriter, loc, acc, 1);
    rewriter.replaceOp(
        op,
        buildFromIndex(
            rewriter, loc, resultType, [&](OpBuilder &b, Location l, Value i) {
              Value x = castScalar(b, l, i, acc);
              Value v =
                  llvm::isa<FloatType>(acc)
                      ? arith::AddFOp::create(
                            b, l, start, arith::MulFOp::create(b, l, x, step))
                            .getResult()
                      : arith::AddIOp::create(
                            b, l, start, arith::MulIOp::create(b, l, x, step))
                            .getResult();
              return castScalar(b, l, v, element);
            }));
    return success();
  }

private:
  bool hasStart, hasStep;
};

/// linspace(start, end, steps), as PyTorch's CPU kernel computes it. start
/// and end are converted to the result's type T; the step is
/// (end - start) / (steps - 1) in S (T for floating T, double for integers).
/// Element i is start + step i below steps / 2 and end - step (steps - 1 - i)
/// from there, each a fused multiply-add in S, converted to T. The kernel
/// writes 32-byte vectors of W = 32 / sizeof(T) lanes, two at a time, while
/// two whole vectors fit: such a vector starting at j computes the element at
/// j as above, converts it to T, and its lane k is that plus k step (a
/// multiply, then an add, in S), converted to T. The tail is elementwise.
/// With integer T, the truncations make the vector lanes differ from the
/// elementwise formula; with floating T, the rounding does. This is the
/// kernel of PyTorch's default and AVX2 builds, which the x86 wheels and
/// distribution packages run (an AVX-512 build has 64-byte vectors).
class LinspaceLowering : public OpConversionPattern<ts::AtenLinspaceOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenLinspaceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange operands = adaptor.getOperands();
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    if (!resultType || resultType.getRank() != 1)
      return rewriter.notifyMatchFailure(op,
                                         "result is not a static 1-D tensor");
    Type element = resultType.getElementType();
    unsigned width = element.getIntOrFloatBitWidth();
    // Booleans have no linspace kernel in PyTorch; half precision computes
    // in its own arithmetic.
    if (element.isInteger(1) || !llvm::isa<IntegerType, FloatType>(element) ||
        (llvm::isa<FloatType>(element) && width < 32))
      return rewriter.notifyMatchFailure(op, "no kernel for this dtype");
    for (unsigned i = 0; i < 2; ++i)
      if (!llvm::isa<IntegerType, FloatType>(operands[i].getType()))
        return rewriter.notifyMatchFailure(op, "a bound is not a number");
    Location loc = op->getLoc();
    bool unsignedResult = isUnsignedDtype(getTSDtype(op->getResult(0)));
    Type s = llvm::isa<FloatType>(element) ? element : rewriter.getF64Type();
    // To S from T, and to T from S.
    auto widen = [&](OpBuilder &b, Location l, Value v) {
      return castScalar(b, l, v, s, unsignedResult);
    };
    auto narrow = [&](OpBuilder &b, Location l, Value v) {
      return castScalar(b, l, v, element);
    };
    Value start = castScalar(rewriter, loc, operands[0], element);
    Value end = castScalar(rewriter, loc, operands[1], element);
    int64_t steps = resultType.getDimSize(0);
    if (steps == 1) {
      rewriter.replaceOp(op, buildFromIndex(rewriter, loc, resultType,
                                            [&](OpBuilder &, Location, Value) {
                                              return start;
                                            }));
      return success();
    }
    Value startS = widen(rewriter, loc, start);
    Value endS = widen(rewriter, loc, end);
    auto cst = [](OpBuilder &b, Location l, Type t, double v) {
      return createScalarConstant(b, l, t, v);
    };
    Value step = arith::DivFOp::create(
        rewriter, loc, arith::SubFOp::create(rewriter, loc, endS, startS),
        cst(rewriter, loc, s, static_cast<double>(steps - 1)));
    Value negStep = arith::NegFOp::create(rewriter, loc, step);
    int64_t lanes = 256 / width;
    int64_t vectorEnd = steps / (2 * lanes) * (2 * lanes);
    Type i64 = rewriter.getI64Type();
    Value result = buildFromIndex(
        rewriter, loc, resultType,
        [&](OpBuilder &b, Location l, Value i) -> Value {
          // The element the kernel computes from the index: the vector's
          // first for a vector lane, else i's own.
          Value inVector = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::slt, i, cst(b, l, i64, vectorEnd));
          Value lane = arith::SelectOp::create(
              b, l, inVector,
              arith::RemSIOp::create(b, l, i, cst(b, l, i64, lanes)),
              cst(b, l, i64, 0));
          Value j = arith::SubIOp::create(b, l, i, lane);
          Value firstHalf = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::slt, j, cst(b, l, i64, steps / 2));
          Value fromStart =
              math::FmaOp::create(b, l, step, widen(b, l, j), startS);
          Value back =
              arith::SubIOp::create(b, l, cst(b, l, i64, steps - 1), j);
          Value fromEnd =
              math::FmaOp::create(b, l, negStep, widen(b, l, back), endS);
          Value first = narrow(
              b, l,
              arith::SelectOp::create(b, l, firstHalf, fromStart, fromEnd));
          Value laneValue = arith::AddFOp::create(
              b, l, widen(b, l, first),
              arith::MulFOp::create(b, l, widen(b, l, lane), step));
          return arith::SelectOp::create(b, l, inVector,
                                         narrow(b, l, laneValue), first);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// logspace(start, end, steps, base), as PyTorch's CPU kernel: start and end
/// converted to the result's type T; step = (end - start) / (steps - 1), in T
/// for floating T and in double for integers; the exponent of element i is
/// start + step i for i < steps / 2, else end - step (steps - 1 - i),
/// computed in T (integers: in double); base (a double) raised to it in
/// double, converted to T. One step gives base^start.
class LogspaceLowering : public OpConversionPattern<ts::AtenLogspaceOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenLogspaceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange operands = adaptor.getOperands();
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    if (!resultType || resultType.getRank() != 1)
      return rewriter.notifyMatchFailure(op,
                                         "result is not a static 1-D tensor");
    Type element = resultType.getElementType();
    if (element.isInteger(1) || !llvm::isa<IntegerType, FloatType>(element))
      return rewriter.notifyMatchFailure(op, "result is not a number type");
    for (unsigned i : {0u, 1u, 3u})
      if (!llvm::isa<IntegerType, FloatType>(operands[i].getType()))
        return rewriter.notifyMatchFailure(op, "a bound is not a number");
    int64_t steps = resultType.getDimSize(0);
    Location loc = op->getLoc();
    Type f64 = rewriter.getF64Type();
    // The type the bounds are converted to and the step computed in.
    Type stepType = llvm::isa<FloatType>(element) ? element : f64;
    Value start = castScalar(rewriter, loc, operands[0], element);
    Value end = castScalar(rewriter, loc, operands[1], element);
    Value startS = castScalar(rewriter, loc, start, stepType);
    Value endS = castScalar(rewriter, loc, end, stepType);
    Value step = arith::DivFOp::create(
        rewriter, loc, arith::SubFOp::create(rewriter, loc, endS, startS),
        createScalarConstant(rewriter, loc, stepType,
                             static_cast<double>(steps - 1)));
    Value base = castScalar(rewriter, loc, operands[3], f64);
    auto c = [&](OpBuilder &b, Location l, Type t, double v) {
      return createScalarConstant(b, l, t, v);
    };
    Value result = buildFromIndex(
        rewriter, loc, resultType, [&](OpBuilder &b, Location l, Value i) {
          Value x = castScalar(b, l, i, stepType);
          Value fromStart = arith::AddFOp::create(
              b, l, startS, arith::MulFOp::create(b, l, step, x));
          Value back = arith::SubFOp::create(
              b, l, c(b, l, stepType, static_cast<double>(steps - 1)), x);
          Value fromEnd = arith::SubFOp::create(
              b, l, endS, arith::MulFOp::create(b, l, step, back));
          Value firstHalf = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::slt, i,
              createScalarConstant(b, l, b.getI64Type(), steps / 2));
          Value v =
              arith::SelectOp::create(b, l, firstHalf, fromStart, fromEnd);
          if (steps == 1)
            v = startS;
          v = math::PowFOp::create(b, l, base, castScalar(b, l, v, f64));
          return castScalar(b, l, v, element);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Any ts op that writes nothing, reads no list of tensors and whose
/// results are all empty tensors of static shape: tensor.empty of each
/// result type.
class EmptyResultLowering : public ConversionPattern {
public:
  EmptyResultLowering(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/2, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value>,
                  ConversionPatternRewriter &rewriter) const override {
    if (!llvm::isa<ts::TorchScriptDialect>(op->getDialect()) ||
        op->getNumResults() == 0 || op->getNumRegions() != 0)
      return failure();
    auto effects = llvm::dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects || effects.hasEffect<MemoryEffects::Write>() ||
        effects.hasEffect<MemoryEffects::Allocate>() ||
        effects.hasEffect<MemoryEffects::Free>())
      return failure();
    // A list of tensors (cat's, index's) is read by the op's own lowering,
    // which resolves its elements.
    for (Type type : op->getOperandTypes())
      if (auto list = llvm::dyn_cast<ts::ListType>(type))
        if (!llvm::isa<ts::IntType, ts::FloatType, ts::BoolType>(
                list.getElementType()))
          return failure();
    SmallVector<Value> results;
    for (Type type : op->getResultTypes()) {
      if (!llvm::isa<ts::TensorType>(type))
        return failure();
      auto converted = llvm::dyn_cast_or_null<RankedTensorType>(
          getTypeConverter()->convertType(type));
      if (!converted || !converted.hasStaticShape() ||
          converted.getNumElements() != 0)
        return failure();
      results.push_back(tensor::EmptyOp::create(rewriter, op->getLoc(),
                                                converted.getShape(),
                                                converted.getElementType()));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void lowering::populateFactoryPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<EmptyResultLowering>(converter, ctx);
  patterns.add<ArangeLowering>(
      converter, ctx, ts::AtenArangeOp::getOperationName(), false, false);
  patterns.add<ArangeLowering>(
      converter, ctx, ts::AtenArangeStartOp::getOperationName(), true, false);
  patterns.add<ArangeLowering>(converter, ctx,
                               ts::AtenArangeStartStepOp::getOperationName(),
                               true, true);
  patterns.add<LinspaceLowering, LogspaceLowering>(converter, ctx);
}
