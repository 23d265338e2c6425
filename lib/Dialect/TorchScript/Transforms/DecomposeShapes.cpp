//===- DecomposeShapes.cpp - Rearranging ops made of views and slices ----===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Ops PyTorch defines by others that move or pair elements:
//
//   tile(x, dims)             repeat, dims padded with leading 1s to x's rank
//   rot90(x, k, dims)         flip and transpose by k mod 4, as PyTorch
//   diff(x, n, dim, pre, app) cat of prepend, x, append; then n times the
//                             difference of neighbours (xor for bools); x
//                             itself for n = 0
//   glu(x, dim)               first half * sigmoid(second half)
//   max_pool1d_with_indices   max_pool2d_with_indices on [N, C, 1, L]
//   split(x, int[] sizes)     split_with_sizes (torch.split with a list;
//   (and .sizes)              the .Tensor overload takes one size)
//   max_unpool2d(x, idx, hw)  zeros of [..., oH * oW] with x's elements
//                             scattered to the flattened indices, viewed
//                             as [..., oH, oW]
//
//===----------------------------------------------------------------------===//

#include "DecomposeUtils.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::decompose;

namespace {

/// `dim` of a tensor of `rank` made non-negative, or nullopt when out of
/// range.
std::optional<int64_t> normalizeDim(int64_t dim, int64_t rank) {
  if (dim < 0)
    dim += rank;
  if (dim < 0 || dim >= std::max<int64_t>(rank, 1))
    return std::nullopt;
  return dim;
}

struct DecomposeTile : public OpRewritePattern<AtenTileOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenTileOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<SmallVector<int64_t>> dims = constIntList(op.getDims());
    if (!sizes || !dims)
      return rewriter.notifyMatchFailure(op, "rank or dims not known");
    SmallVector<int64_t> repeats(
        std::max<int64_t>(0, static_cast<int64_t>(sizes->size()) -
                                 static_cast<int64_t>(dims->size())),
        1);
    llvm::append_range(repeats, *dims);
    TSBuilder t{rewriter, op.getLoc()};
    Value result = AtenRepeatOp::create(rewriter, op.getLoc(), t.tensor(),
                                        op.getSelf(), intListValue(t, repeats));
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

struct DecomposeRot90 : public OpRewritePattern<AtenRot90Op> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenRot90Op op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<int64_t> k = constInt(op.getK());
    std::optional<SmallVector<int64_t>> dims = constIntList(op.getDims());
    if (!sizes || !k || !dims || dims->size() != 2)
      return rewriter.notifyMatchFailure(op, "rank, k or dims not known");
    int64_t rank = sizes->size();
    std::optional<int64_t> d0 = normalizeDim((*dims)[0], rank);
    std::optional<int64_t> d1 = normalizeDim((*dims)[1], rank);
    if (rank < 2 || !d0 || !d1 || *d0 == *d1)
      return rewriter.notifyMatchFailure(op, "invalid dims");
    int64_t turns = ((*k % 4) + 4) % 4;
    TSBuilder t{rewriter, op.getLoc()};
    auto flip = [&](ArrayRef<int64_t> which) -> Value {
      return AtenFlipOp::create(rewriter, op.getLoc(), t.tensor(),
                                op.getSelf(), intListValue(t, which));
    };
    Value result;
    if (turns == 1)
      result = t.transpose(flip({*d1}), *d0, *d1);
    else if (turns == 2)
      result = flip({*d0, *d1});
    else if (turns == 3)
      result = t.transpose(flip({*d0}), *d0, *d1);
    else
      result = AtenCloneOp::create(rewriter, op.getLoc(), t.tensor(),
                                   op.getSelf(), t.none());
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

struct DecomposeDiff : public OpRewritePattern<AtenDiffOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenDiffOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<int64_t> n = constInt(op.getN());
    std::optional<int64_t> dimValue = constInt(op.getDim());
    if (!sizes || !n || !dimValue || *n < 0 || sizes->empty())
      return rewriter.notifyMatchFailure(op, "sizes, n or dim not known");
    int64_t rank = sizes->size();
    std::optional<int64_t> dim = normalizeDim(*dimValue, rank);
    if (!dim)
      return rewriter.notifyMatchFailure(op, "invalid dim");
    auto type = llvm::cast<ts::TensorType>(op.getSelf().getType());
    if (!type.getDtype())
      return rewriter.notifyMatchFailure(op, "dtype not known");
    bool isBool = type.getDtype().isInteger(1);
    int64_t length = (*sizes)[*dim];
    SmallVector<Value> parts;
    for (Value extra : {op.getPrepend(), op.getAppend()}) {
      if (llvm::isa<ts::NoneType>(extra.getType()))
        continue;
      std::optional<SmallVector<int64_t>> s = staticSizes(extra);
      if (!s || static_cast<int64_t>(s->size()) != rank)
        return rewriter.notifyMatchFailure(
            op, "prepend or append sizes not known");
      length += (*s)[*dim];
    }
    TSBuilder t{rewriter, op.getLoc()};
    Value x = op.getSelf();
    // No differences: the input, without prepend and append (PyTorch).
    if (*n == 0) {
      replaceWithDeclaredTypes(rewriter, op, {x});
      return success();
    }
    if (!llvm::isa<ts::NoneType>(op.getPrepend().getType()) ||
        !llvm::isa<ts::NoneType>(op.getAppend().getType())) {
      if (!llvm::isa<ts::NoneType>(op.getPrepend().getType()))
        parts.push_back(op.getPrepend());
      parts.push_back(x);
      if (!llvm::isa<ts::NoneType>(op.getAppend().getType()))
        parts.push_back(op.getAppend());
      x = t.cat(parts, *dim);
    }
    for (int64_t i = 0; i < *n && length > 0; ++i, --length) {
      Value later = t.narrow(x, *dim, 1, length - 1);
      Value earlier = t.narrow(x, *dim, 0, length - 1);
      x = isBool ? AtenLogicalXorOp::create(rewriter, op.getLoc(), t.tensor(),
                                            later, earlier)
                       .getResult()
                 : AtenSubTensorOp::create(rewriter, op.getLoc(), t.tensor(),
                                           later, earlier, t.i(1))
                       .getResult();
    }
    replaceWithDeclaredTypes(rewriter, op, {x});
    return success();
  }
};

struct DecomposeGlu : public OpRewritePattern<AtenGluOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenGluOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<int64_t> dimValue = constInt(op.getDim());
    if (!sizes || !dimValue)
      return rewriter.notifyMatchFailure(op, "sizes or dim not known");
    std::optional<int64_t> dim = normalizeDim(*dimValue, sizes->size());
    if (!dim || sizes->empty() || (*sizes)[*dim] % 2 != 0)
      return rewriter.notifyMatchFailure(op, "the dim is not of even size");
    int64_t half = (*sizes)[*dim] / 2;
    TSBuilder t{rewriter, op.getLoc()};
    Value result = t.mul(t.narrow(op.getSelf(), *dim, 0, half),
                         t.sigmoid(t.narrow(op.getSelf(), *dim, half, half)));
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

/// max_pool1d_with_indices(self, kernel[1], stride[1], padding[1],
/// dilation[1], ceil_mode): the 2-D op on self with a dim of 1 inserted
/// before the last; its indices in the [1, L] plane are the 1-D ones.
struct DecomposeMaxPool1dWithIndices
    : public OpRewritePattern<AtenMaxPool1dWithIndicesOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenMaxPool1dWithIndicesOp op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    std::optional<SmallVector<int64_t>> kernel = intList(raw->getOperand(1), 1);
    std::optional<SmallVector<int64_t>> stride = intList(raw->getOperand(2), 1);
    std::optional<SmallVector<int64_t>> padding = intList(raw->getOperand(3), 1);
    std::optional<SmallVector<int64_t>> dilation =
        intList(raw->getOperand(4), 1);
    if (!kernel || kernel->size() != 1 || !stride || !padding ||
        padding->size() != 1 || !dilation || dilation->size() != 1)
      return rewriter.notifyMatchFailure(op, "window is not constant");
    TSBuilder t{rewriter, op.getLoc()};
    SmallVector<int64_t> stride2 =
        stride->empty() ? SmallVector<int64_t>{}
                        : SmallVector<int64_t>{1, (*stride)[0]};
    Value x = t.unsqueeze(raw->getOperand(0), -2);
    auto pool = AtenMaxPool2dWithIndicesOp::create(
        rewriter, op.getLoc(), t.tensor(), t.tensor(), x,
        intListValue(t, {1, (*kernel)[0]}), intListValue(t, stride2),
        intListValue(t, {0, (*padding)[0]}),
        intListValue(t, {1, (*dilation)[0]}), raw->getOperand(5));
    auto squeeze = [&](Value v) -> Value {
      return AtenSqueezeDimOp::create(rewriter, op.getLoc(), t.tensor(), v,
                                      t.i(-2));
    };
    replaceWithDeclaredTypes(rewriter, raw,
                             {squeeze(pool.getResult(0)),
                              squeeze(pool.getResult(1))});
    return success();
  }
};

template <typename OpTy>
struct DecomposeSplitSizes : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    rewriter.replaceOpWithNewOp<AtenSplitWithSizesOp>(
        op, raw->getResult(0).getType(), raw->getOperand(0),
        raw->getOperand(1), raw->getOperand(2));
    return success();
  }
};

} // namespace

struct DecomposeMaxUnpool2d : public OpRewritePattern<AtenMaxUnpool2dOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenMaxUnpool2dOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<SmallVector<int64_t>> out =
        constIntList(op.getOutputSize());
    if (!sizes || !out || out->size() != 2 ||
        (sizes->size() != 3 && sizes->size() != 4))
      return rewriter.notifyMatchFailure(op, "sizes or output size not known");
    TSBuilder t{rewriter, op.getLoc()};
    SmallVector<int64_t> lead(sizes->begin(), sizes->end() - 2);
    SmallVector<int64_t> flat(lead), target(lead), result(lead);
    flat.push_back((*sizes)[sizes->size() - 2] * sizes->back());
    target.push_back((*out)[0] * (*out)[1]);
    llvm::append_range(result, *out);
    Value dtype = PrimDtypeOp::create(rewriter, op.getLoc(),
                                      ts::IntType::get(t.ctx()), op.getSelf());
    Value zeros = AtenZerosOp::create(rewriter, op.getLoc(), t.tensor(),
                                      intListValue(t, target), dtype, t.none(),
                                      t.none(), t.none());
    Value scattered = AtenScatterSrcOp::create(
        rewriter, op.getLoc(), t.tensor(), zeros, t.i(-1),
        t.reshape(op.getIndices(), flat), t.reshape(op.getSelf(), flat));
    replaceWithDeclaredTypes(rewriter, op, {t.reshape(scattered, result)});
    return success();
  }
};

void decompose::populateShapePatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeMaxUnpool2d, DecomposeTile, DecomposeRot90, DecomposeDiff, DecomposeGlu,
               DecomposeMaxPool1dWithIndices, DecomposeSplitSizes<AtenSplitOp>,
               DecomposeSplitSizes<AtenSplitSizesOp>>(patterns.getContext());
}
