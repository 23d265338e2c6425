//===- DecomposeFactories.cpp - Tensor factories defined by others --------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   x.new_zeros(size, dtype, ...)          zeros(size, dtype or x's dtype)
//   x.new_ones(size, dtype, ...)           ones(...)
//   x.new_empty(size, dtype, ...)          zeros(...) (any contents will do)
//   x.new_empty_strided(size, stride, ...) zeros(...) (the strides are a
//                                          layout, which values do not show)
//   empty_like(x, dtype, ...)              zeros_like(x, dtype, ...)
//   x.new_full(size, fill, dtype, ...)     full(size, fill, dtype or x's)
//   scalar_tensor(s, dtype, ...)           full([], s, dtype or the default
//                                          float dtype, whatever s is)
//   fill(x, number)                        full_like(x, number)
//   fill(x, value), value a 0-d tensor     value broadcast to x's sizes,
//                                          copied in x's dtype
//
// The layout, device and pin_memory arguments pass through.
//
//===----------------------------------------------------------------------===//

#include "DecomposeUtils.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::decompose;

namespace {

/// The dtype argument, or x's dtype (prim::dtype, which folds once x's
/// dtype is known) when it is None.
Value dtypeOrSelf(TSBuilder &t, Value dtype, Value self) {
  if (!llvm::isa<ts::NoneType>(dtype.getType()))
    return dtype;
  return PrimDtypeOp::create(t.b, t.loc, ts::IntType::get(t.ctx()), self);
}

template <typename OpTy, typename FactoryOp>
struct DecomposeNewFactory : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    TSBuilder t{rewriter, op.getLoc()};
    Value dtype = dtypeOrSelf(t, op.getDtype(), op.getSelf());
    Value result = FactoryOp::create(rewriter, op.getLoc(), t.tensor(),
                                     op.getSize(), dtype, op.getLayout(),
                                     op.getDevice(), op.getPinMemory());
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

struct DecomposeNewEmptyStrided
    : public OpRewritePattern<AtenNewEmptyStridedOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenNewEmptyStridedOp op,
                                PatternRewriter &rewriter) const override {
    TSBuilder t{rewriter, op.getLoc()};
    Value dtype = dtypeOrSelf(t, op.getDtype(), op.getSelf());
    Value result = AtenZerosOp::create(rewriter, op.getLoc(), t.tensor(),
                                       op.getSize(), dtype, op.getLayout(),
                                       op.getDevice(), op.getPinMemory());
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

struct DecomposeEmptyLike : public OpRewritePattern<AtenEmptyLikeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenEmptyLikeOp op,
                                PatternRewriter &rewriter) const override {
    TSBuilder t{rewriter, op.getLoc()};
    Value result = AtenZerosLikeOp::create(
        rewriter, op.getLoc(), t.tensor(), op.getSelf(), op.getDtype(),
        op.getLayout(), op.getDevice(), op.getPinMemory(),
        op.getMemoryFormat());
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

struct DecomposeNewFull : public OpRewritePattern<AtenNewFullOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenNewFullOp op,
                                PatternRewriter &rewriter) const override {
    TSBuilder t{rewriter, op.getLoc()};
    Value dtype = dtypeOrSelf(t, op.getDtype(), op.getSelf());
    Value result = AtenFullOp::create(
        rewriter, op.getLoc(), t.tensor(), op.getSize(), op.getFillValue(),
        dtype, op.getLayout(), op.getDevice(), op.getPinMemory());
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

struct DecomposeFillScalar : public OpRewritePattern<AtenFillScalarOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenFillScalarOp op,
                                PatternRewriter &rewriter) const override {
    TSBuilder t{rewriter, op.getLoc()};
    Value result = AtenFullLikeOp::create(rewriter, op.getLoc(), t.tensor(),
                                          op.getSelf(), op.getValue(), t.none(),
                                          t.none(), t.none(), t.none(),
                                          t.none());
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

struct DecomposeFillTensor : public OpRewritePattern<AtenFillTensorOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenFillTensorOp op,
                                PatternRewriter &rewriter) const override {
    // PyTorch raises for a value of another rank than 0.
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getValue());
    if (!sizes || !sizes->empty())
      return rewriter.notifyMatchFailure(op, "the value is not known 0-d");
    TSBuilder t{rewriter, op.getLoc()};
    Value expanded = AtenExpandAsOp::create(rewriter, op.getLoc(), t.tensor(),
                                            op.getValue(), op.getSelf());
    Value result = AtenToOtherOp::create(rewriter, op.getLoc(), t.tensor(),
                                         expanded, op.getSelf(), t.flag(false),
                                         t.flag(true), t.none());
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

} // namespace

struct DecomposeScalarTensor : public OpRewritePattern<AtenScalarTensorOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenScalarTensorOp op,
                                PatternRewriter &rewriter) const override {
    TSBuilder t{rewriter, op.getLoc()};
    // PyTorch's default dtype, float32 (ScalarType 6), even for an int.
    Value dtype = llvm::isa<ts::NoneType>(op.getDtype().getType())
                      ? t.i(6)
                      : op.getDtype();
    Value result = AtenFullOp::create(
        rewriter, op.getLoc(), t.tensor(), intListValue(t, {}), op.getS(),
        dtype, op.getLayout(), op.getDevice(), op.getPinMemory());
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

void mlir::tsmlir::ts::decompose::populateFactoryPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeNewFactory<AtenNewZerosOp, AtenZerosOp>,
               DecomposeNewFactory<AtenNewOnesOp, AtenOnesOp>,
               DecomposeNewFactory<AtenNewEmptyOp, AtenZerosOp>,
               DecomposeNewEmptyStrided, DecomposeEmptyLike,
               DecomposeNewFull, DecomposeFillScalar, DecomposeFillTensor,
               DecomposeScalarTensor>(
      patterns.getContext());
}
