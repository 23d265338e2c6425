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
//   (and max_unpool3d)        scattered to the flattened indices, viewed
//                             as [..., oH, oW] ([..., oD, oH, oW])
//   swapaxes, swapdims        transpose.int
//   movedim, moveaxis         permute: the moved dims at their
//   (int and int[])           destinations, the others in order between
//   broadcast_tensors         each tensor expanded to the broadcast sizes
//   im2col(x, k, d, p, s)     (nn.functional.unfold) the padded input's
//                             strided slices, one per kernel position,
//                             stacked and viewed as [N, C*kh*kw, L]
//   unfold(x, dim, size, st)  index_select of the windows' elements (a
//                             constant index), viewed as [..., n, size]
//                             with the window dim last
//   combinations(x, r, rep)   index_select of the combinations' indices,
//                             enumerated at compile time, viewed [count, r]
//
//===----------------------------------------------------------------------===//

#include "DecomposeUtils.h"

#include <functional>

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

/// swapaxes(x, a, b) and swapdims(x, a, b): transpose(x, a, b).
template <typename OpTy>
struct DecomposeSwapDims : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    rewriter.replaceOpWithNewOp<AtenTransposeIntOp>(
        op, raw->getResult(0).getType(), raw->getOperand(0),
        raw->getOperand(1), raw->getOperand(2));
    return success();
  }
};

/// The permutation movedim(source, destination) makes of `rank` dims, or
/// nullopt when PyTorch raises (a dim out of range or repeated, lists of
/// different lengths).
std::optional<SmallVector<int64_t>>
movedimPermutation(ArrayRef<int64_t> source, ArrayRef<int64_t> destination,
                   int64_t rank) {
  if (source.size() != destination.size())
    return std::nullopt;
  SmallVector<int64_t> order(rank, -1);
  SmallVector<bool> moved(rank, false);
  for (auto [from, to] : llvm::zip(source, destination)) {
    std::optional<int64_t> src = normalizeDim(from, rank);
    std::optional<int64_t> dst = normalizeDim(to, rank);
    if (!src || !dst || moved[*src] || order[*dst] != -1)
      return std::nullopt;
    order[*dst] = *src;
    moved[*src] = true;
  }
  int64_t next = 0;
  for (int64_t &slot : order) {
    if (slot != -1)
      continue;
    while (moved[next])
      ++next;
    slot = next++;
  }
  return order;
}

template <typename OpTy>
struct DecomposeMovedim : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    std::optional<SmallVector<int64_t>> sizes =
        staticSizes(raw->getOperand(0));
    auto list = [](Value v) -> std::optional<SmallVector<int64_t>> {
      if (llvm::isa<ts::ListType>(v.getType()))
        return constIntList(v);
      if (std::optional<int64_t> one = constInt(v))
        return SmallVector<int64_t>{*one};
      return std::nullopt;
    };
    std::optional<SmallVector<int64_t>> source = list(raw->getOperand(1));
    std::optional<SmallVector<int64_t>> destination = list(raw->getOperand(2));
    if (!sizes || !source || !destination)
      return rewriter.notifyMatchFailure(op, "rank or dims not known");
    std::optional<SmallVector<int64_t>> order = movedimPermutation(
        *source, *destination, static_cast<int64_t>(sizes->size()));
    if (!order)
      return rewriter.notifyMatchFailure(op, "invalid dims");
    TSBuilder t{rewriter, op.getLoc()};
    Value result = AtenPermuteOp::create(rewriter, op.getLoc(), t.tensor(),
                                         raw->getOperand(0),
                                         intListValue(t, *order));
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

struct DecomposeBroadcastTensors
    : public OpRewritePattern<AtenBroadcastTensorsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenBroadcastTensorsOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<OpFoldResult>> elements =
        knownTensors(op.getTensors());
    if (!elements)
      return rewriter.notifyMatchFailure(op, "the list's tensors not known");
    SmallVector<SmallVector<int64_t>> shapes;
    size_t rank = 0;
    for (OpFoldResult e : *elements) {
      std::optional<SmallVector<int64_t>> sizes = staticSizes(e);
      if (!sizes)
        return rewriter.notifyMatchFailure(op, "sizes not known");
      rank = std::max(rank, sizes->size());
      shapes.push_back(std::move(*sizes));
    }
    SmallVector<int64_t> shape(rank, 1);
    for (ArrayRef<int64_t> sizes : shapes)
      for (auto [d, size] : llvm::enumerate(sizes)) {
        int64_t &out = shape[rank - sizes.size() + d];
        if (size != 1 && out != 1 && out != size)
          return rewriter.notifyMatchFailure(op, "sizes do not broadcast");
        if (size != 1)
          out = size;
      }
    TSBuilder t{rewriter, op.getLoc()};
    SmallVector<Value> expanded;
    for (OpFoldResult e : *elements)
      expanded.push_back(AtenExpandOp::create(
          rewriter, op.getLoc(), t.tensor(),
          materialize(rewriter, op.getLoc(), e), intListValue(t, shape),
          t.flag(false)));
    rewriter.replaceOpWithNewOp<PrimListConstructOp>(op, op.getType(),
                                                     expanded);
    return success();
  }
};

struct DecomposeIm2col : public OpRewritePattern<AtenIm2colOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenIm2colOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<SmallVector<int64_t>> kernel =
        intList(op.getKernelSize(), 2);
    std::optional<SmallVector<int64_t>> dilation = intList(op.getDilation(), 2);
    std::optional<SmallVector<int64_t>> padding = intList(op.getPadding(), 2);
    std::optional<SmallVector<int64_t>> stride = intList(op.getStride(), 2);
    if (!sizes || (sizes->size() != 3 && sizes->size() != 4) || !kernel ||
        !dilation || !padding || !stride || kernel->size() != 2 ||
        dilation->size() != 2 || padding->size() != 2 || stride->size() != 2)
      return rewriter.notifyMatchFailure(op, "sizes or arguments not known");
    bool batched = sizes->size() == 4;
    int64_t n = batched ? (*sizes)[0] : 1;
    int64_t c = (*sizes)[sizes->size() - 3];
    int64_t h = (*sizes)[sizes->size() - 2], w = sizes->back();
    auto [kh, kw] = std::pair((*kernel)[0], (*kernel)[1]);
    auto [dh, dw] = std::pair((*dilation)[0], (*dilation)[1]);
    auto [ph, pw] = std::pair((*padding)[0], (*padding)[1]);
    auto [sh, sw] = std::pair((*stride)[0], (*stride)[1]);
    if (kh <= 0 || kw <= 0 || dh <= 0 || dw <= 0 || sh <= 0 || sw <= 0 ||
        ph < 0 || pw < 0)
      return rewriter.notifyMatchFailure(op, "invalid arguments");
    int64_t oh = (h + 2 * ph - dh * (kh - 1) - 1) / sh + 1;
    int64_t ow = (w + 2 * pw - dw * (kw - 1) - 1) / sw + 1;
    if (h + 2 * ph - dh * (kh - 1) - 1 < 0 ||
        w + 2 * pw - dw * (kw - 1) - 1 < 0)
      return rewriter.notifyMatchFailure(op, "the kernel is larger than the "
                                             "padded input");
    TSBuilder t{rewriter, op.getLoc()};
    Location loc = op.getLoc();
    Value x = batched ? op.getSelf() : t.unsqueeze(op.getSelf(), 0);
    if (ph || pw)
      x = AtenConstantPadNdOp::create(rewriter, loc, t.tensor(), x,
                                      intListValue(t, {pw, pw, ph, ph}),
                                      t.i(0));
    auto slice = [&](Value v, int64_t dim, int64_t start, int64_t count,
                     int64_t step) -> Value {
      return AtenSliceTensorOp::create(rewriter, loc, t.tensor(), v, t.i(dim),
                                       t.i(start),
                                       t.i(start + step * (count - 1) + 1),
                                       t.i(step));
    };
    SmallVector<Value> patches;
    for (int64_t i = 0; i < kh; ++i)
      for (int64_t j = 0; j < kw; ++j)
        patches.push_back(
            slice(slice(x, 2, i * dh, oh, sh), 3, j * dw, ow, sw));
    Value stacked = t.stack(patches, 2);
    SmallVector<int64_t> out = {c * kh * kw, oh * ow};
    if (batched)
      out.insert(out.begin(), n);
    replaceWithDeclaredTypes(rewriter, op, {t.reshape(stacked, out)});
    return success();
  }
};

struct DecomposeUnfold : public OpRewritePattern<AtenUnfoldOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenUnfoldOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<int64_t> dimArg = constInt(op.getDimension());
    std::optional<int64_t> size = constInt(op.getSize());
    std::optional<int64_t> step = constInt(op.getStep());
    if (!sizes || !dimArg || !size || !step)
      return rewriter.notifyMatchFailure(op, "sizes or arguments not known");
    TSBuilder t{rewriter, op.getLoc()};
    // A 0-d tensor unfolds as one element of dim 0 into `size` (at most 1)
    // copies: [size], as PyTorch.
    if (sizes->empty()) {
      if (!normalizeDim(*dimArg, 1) || *size < 0 || *size > 1 || *step <= 0)
        return rewriter.notifyMatchFailure(op, "invalid arguments");
      Value taken = AtenIndexSelectOp::create(
          rewriter, op.getLoc(), t.tensor(), t.reshape(op.getSelf(), {1}),
          t.i(0), t.longs(SmallVector<int64_t>(*size, 0), {*size}));
      replaceWithDeclaredTypes(rewriter, op, {taken});
      return success();
    }
    int64_t rank = sizes->size();
    std::optional<int64_t> dim = normalizeDim(*dimArg, rank);
    if (!dim || *size < 0 || *step <= 0 || *size > (*sizes)[*dim])
      return rewriter.notifyMatchFailure(op, "invalid arguments");
    int64_t windows = ((*sizes)[*dim] - *size) / *step + 1;
    SmallVector<int64_t> index;
    for (int64_t k = 0; k < windows; ++k)
      for (int64_t j = 0; j < *size; ++j)
        index.push_back(k * *step + j);
    Value taken = AtenIndexSelectOp::create(
        rewriter, op.getLoc(), t.tensor(), op.getSelf(), t.i(*dim),
        t.longs(index, {static_cast<int64_t>(index.size())}));
    SmallVector<int64_t> split(*sizes);
    split[*dim] = *size;
    split.insert(split.begin() + *dim, windows);
    SmallVector<int64_t> order;
    for (int64_t d = 0; d <= rank; ++d)
      if (d != *dim + 1)
        order.push_back(d);
    order.push_back(*dim + 1);
    Value result = AtenPermuteOp::create(rewriter, op.getLoc(), t.tensor(),
                                         t.reshape(taken, split),
                                         intListValue(t, order));
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

struct DecomposeCombinations : public OpRewritePattern<AtenCombinationsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenCombinationsOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<int64_t> r = constInt(op.getR());
    std::optional<bool> replacement = constBool(op.getWithReplacement());
    if (!sizes || sizes->size() != 1 || !r || *r < 0 || !replacement)
      return rewriter.notifyMatchFailure(op, "a 1-d input and constant "
                                             "arguments expected");
    int64_t n = (*sizes)[0];
    // itertools' order: index tuples increasing (non-decreasing with
    // replacement), the last index fastest.
    SmallVector<int64_t> index;
    SmallVector<int64_t> current(*r, 0);
    int64_t count = 0;
    constexpr int64_t kMaxElements = int64_t(1) << 24;
    std::function<bool(int64_t, int64_t)> visit = [&](int64_t pos,
                                                      int64_t from) {
      if (pos == *r) {
        llvm::append_range(index, current);
        ++count;
        return static_cast<int64_t>(index.size()) <= kMaxElements;
      }
      for (int64_t i = from; i < n; ++i) {
        current[pos] = i;
        if (!visit(pos + 1, *replacement ? i : i + 1))
          return false;
      }
      return true;
    };
    if (*r > 0 && !visit(0, 0))
      return rewriter.notifyMatchFailure(op, "too many combinations");
    TSBuilder t{rewriter, op.getLoc()};
    Value taken = AtenIndexSelectOp::create(
        rewriter, op.getLoc(), t.tensor(), op.getSelf(), t.i(0),
        t.longs(index, {static_cast<int64_t>(index.size())}));
    // r = 0 gives an empty 1-d tensor, as PyTorch does.
    Value result = *r == 0 ? taken : t.reshape(taken, {count, *r});
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

} // namespace

/// max_unpool2d(self, indices, output_size) and max_unpool3d(self,
/// indices, output_size, stride, padding): zeros of the output size with
/// self's elements scattered at indices (flat over the spatial dims of
/// each channel).
template <typename OpTy, int64_t spatial>
struct DecomposeMaxUnpool : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<SmallVector<int64_t>> out =
        constIntList(op.getOutputSize());
    if (!sizes || !out || static_cast<int64_t>(out->size()) != spatial ||
        (static_cast<int64_t>(sizes->size()) != spatial + 1 &&
         static_cast<int64_t>(sizes->size()) != spatial + 2))
      return rewriter.notifyMatchFailure(op, "sizes or output size not known");
    TSBuilder t{rewriter, op.getLoc()};
    SmallVector<int64_t> lead(sizes->begin(), sizes->end() - spatial);
    SmallVector<int64_t> flat(lead), target(lead), result(lead);
    int64_t inner = 1, outer = 1;
    for (int64_t i = 0; i < spatial; ++i) {
      inner *= (*sizes)[sizes->size() - spatial + i];
      outer *= (*out)[i];
    }
    flat.push_back(inner);
    target.push_back(outer);
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
  patterns.add<DecomposeMaxUnpool<AtenMaxUnpool2dOp, 2>,
               DecomposeMaxUnpool<AtenMaxUnpool3dOp, 3>, DecomposeTile,
               DecomposeRot90, DecomposeDiff, DecomposeGlu,
               DecomposeMaxPool1dWithIndices, DecomposeSplitSizes<AtenSplitOp>,
               DecomposeSplitSizes<AtenSplitSizesOp>,
               DecomposeSwapDims<AtenSwapaxesOp>,
               DecomposeSwapDims<AtenSwapdimsOp>,
               DecomposeMovedim<AtenMovedimIntOp>,
               DecomposeMovedim<AtenMovedimIntlistOp>,
               DecomposeMovedim<AtenMoveaxisIntOp>,
               DecomposeMovedim<AtenMoveaxisIntlistOp>,
               DecomposeBroadcastTensors, DecomposeIm2col, DecomposeUnfold,
               DecomposeCombinations>(patterns.getContext());
}
