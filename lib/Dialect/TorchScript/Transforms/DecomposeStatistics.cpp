//===- DecomposeStatistics.cpp - Order statistics, histograms, covariance -===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Statistics PyTorch computes from a sorted copy of the input, or from sums,
// written as its own implementations (ATen's Sorting.cpp, Histogram.cpp and
// Correlation.cpp) compute them, rounding included:
//
//   median(x), nanmedian(x)     the sorted elements (NaN last) at
//                               (n - 1) / 2; median is NaN when any element
//                               is, nanmedian counts the non-NaN ones only
//   median.dim, nanmedian.dim,  the same along dim, with the index the
//   kthvalue(x, k, dim)         stable sort gives (the first NaN for a row
//                               median finds NaN in); kthvalue's is k - 1
//   quantile, nanquantile       ranks q * (n - 1) in the sorted rows (n
//   (and .scalar)               counts the non-NaN elements for
//                               nanquantile; a row with NaN has rank n - 1
//                               for quantile), rounded by `interpolation`
//                               and interpolated by lerp between the
//                               elements below and above
//   histc(x, bins, min, max)    each element in [min, max] (the data's
//                               extremes when min == max, widened by 1 when
//                               they are equal) counted in bin
//                               trunc((x - min) * bins / (max - min)), the
//                               last bin closed
//   cov(x, correction, fw, aw)  weighted mean removed, x w x^T divided by
//                               the weights' sum less the correction (0
//                               when not positive)
//   corrcoef(x)                 cov(x) over the outer product of its
//                               diagonal's square roots, clipped to [-1, 1]
//
// Sorting costs what the sort lowering costs (O(n^2) per row).
//
//===----------------------------------------------------------------------===//

#include "DecomposeUtils.h"
#include "ShapeRuleUtils.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::decompose;

namespace {

/// The ts ops the decompositions below build, with unrefined types.
struct StatsBuilder : TSBuilder {
  Value toLong(Value x) { return to(x, kLong); }
  /// The lower middle position, max(count - 1, 0) // 2, of `count` sorted
  /// elements (Long); 0 (the first NaN) when there are none.
  Value lowerMiddle(Value count) {
    Value last = AtenSubScalarOp::create(b, loc, tensor(), count, i(1), i(1));
    Value clamped = AtenClampMinOp::create(b, loc, tensor(), last, i(0));
    return AtenFloorDivideScalarOp::create(b, loc, tensor(), clamped, i(2));
  }
};

bool isFloatTensor(Value v) {
  return llvm::isa_and_nonnull<mlir::FloatType>(dtypeOf(v));
}

bool hasDtype(Value v) { return static_cast<bool>(dtypeOf(v)); }

/// median(self) and nanmedian(self): the middle element of all, the lower
/// one of an even count.
template <typename OpTy, bool ignoreNan>
struct DecomposeMedian : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    if (!sizes || !hasDtype(op.getSelf()))
      return rewriter.notifyMatchFailure(op, "static sizes expected");
    int64_t n = shape::numElements(*sizes);
    if (n == 0)
      return rewriter.notifyMatchFailure(op, "an empty input");
    StatsBuilder t{{rewriter, op.getLoc()}};
    Value sorted = t.sort(t.reshape(op.getSelf(), {n}), 0).first;
    Value result;
    if (!isFloatTensor(op.getSelf())) {
      result = t.select(sorted, 0, (n - 1) / 2);
    } else if (!ignoreNan) {
      Value nan = AtenAnyOp::create(rewriter, op.getLoc(), t.tensor(),
                                    t.isnan(sorted));
      result = t.whereNumber(nan, t.f(std::numeric_limits<double>::quiet_NaN()),
                             t.select(sorted, 0, (n - 1) / 2));
    } else {
      // The non-NaN elements come first; with none, the first (NaN).
      Value count = t.sumAll(t.logicalNot(t.isnan(sorted)));
      Value middle = t.lowerMiddle(count);
      result = t.reshape(t.gather(sorted, 0, t.reshape(middle, {1})), {});
    }
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

/// What median.dim, kthvalue and mode read: a static input with elements,
/// constant dim (wrapped) and keepdim; the size n along dim and the shape of
/// one pick per row (the input's sizes, [1] for a 0-d input, with 1 at dim).
struct RowPick {
  int64_t dim, n, rank;
  bool keepdim;
  SmallVector<int64_t> rowShape;
};

template <typename OpTy>
FailureOr<RowPick> readRowPick(OpTy op, PatternRewriter &rewriter) {
  std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
  std::optional<int64_t> dimArg = constInt(op.getDim());
  std::optional<bool> keepdim = constBool(op.getKeepdim());
  if (!sizes || !dimArg || !keepdim || !hasDtype(op.getSelf()))
    return rewriter.notifyMatchFailure(op, "static sizes and constant "
                                           "arguments expected");
  int64_t rank = sizes->size();
  std::optional<int64_t> dim = shape::wrapDim(*dimArg, rank);
  if (!dim)
    return rewriter.notifyMatchFailure(op, "dim out of range");
  if (shape::numElements(*sizes) == 0)
    return rewriter.notifyMatchFailure(op, "an empty input");
  SmallVector<int64_t> rowShape(rank ? *sizes : SmallVector<int64_t>{1});
  int64_t n = rowShape[*dim];
  rowShape[*dim] = 1;
  return RowPick{*dim, n, rank, *keepdim, rowShape};
}

/// The input as rows along the pick's dim (a 0-d input as [1]).
Value rowsOf(StatsBuilder &t, Value self, const RowPick &p) {
  return p.rank ? self : t.reshape(self, {1});
}

/// Replaces `op` by the element of each sorted row at `position` (Long, of
/// the pick's row shape) and its index, shaped as keepdim says.
void replaceWithPicked(PatternRewriter &rewriter, Operation *op,
                       StatsBuilder &t, const RowPick &p, Value sorted,
                       Value indices, Value position) {
  SmallVector<Value> results{t.gather(sorted, p.dim, position),
                             t.gather(indices, p.dim, position)};
  for (Value &r : results) {
    if (p.rank == 0)
      r = t.reshape(r, {});
    else if (!p.keepdim)
      r = AtenSqueezeDimOp::create(t.b, t.loc, t.tensor(), r, t.i(p.dim));
  }
  replaceWithDeclaredTypes(rewriter, op, results);
}

/// median.dim(self, dim, keepdim) and nanmedian.dim: values and indices.
template <typename OpTy, bool ignoreNan>
struct DecomposeMedianDim : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    FailureOr<RowPick> p = readRowPick(op, rewriter);
    if (failed(p))
      return failure();
    StatsBuilder t{{rewriter, op.getLoc()}};
    Value self = rowsOf(t, op.getSelf(), *p);
    int64_t n = p->n;
    Value position;
    if (!isFloatTensor(self)) {
      position = t.full(p->rowShape, (n - 1) / 2, kLong);
    } else {
      Value nans = t.sumDim(t.isnan(self), p->dim, true);
      Value count = AtenRsubScalarOp::create(rewriter, op.getLoc(), t.tensor(),
                                             nans, t.i(n), t.i(1));
      if (ignoreNan) {
        // The middle of the non-NaN elements; with none, the first NaN.
        position = t.lowerMiddle(count);
      } else {
        // A row with NaN: its first NaN, which sorts right after the
        // others.
        Value hasNan = AtenGtScalarOp::create(rewriter, op.getLoc(),
                                              t.tensor(), nans, t.i(0));
        position =
            t.where(hasNan, count, t.full(p->rowShape, (n - 1) / 2, kLong));
      }
    }
    auto [sorted, indices] = t.sort(self, p->dim);
    replaceWithPicked(rewriter, op, t, *p, sorted, indices, position);
    return success();
  }
};

/// kthvalue(self, k, dim, keepdim): the k-th smallest along dim.
struct DecomposeKthvalue : public OpRewritePattern<AtenKthvalueOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenKthvalueOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> k = constInt(op.getK());
    if (!k)
      return rewriter.notifyMatchFailure(op, "k not constant");
    FailureOr<RowPick> p = readRowPick(op, rewriter);
    if (failed(p))
      return failure();
    if (*k < 1 || *k > p->n)
      return rewriter.notifyMatchFailure(op, "k out of range");
    StatsBuilder t{{rewriter, op.getLoc()}};
    auto [sorted, indices] = t.sort(rowsOf(t, op.getSelf(), *p), p->dim);
    replaceWithPicked(rewriter, op, t, *p, sorted, indices,
                      t.full(p->rowShape, *k - 1, kLong));
    return success();
  }
};

/// mode(self, dim, keepdim): the most frequent value along dim (the least
/// of those equally frequent) and the index of one of its occurrences.
/// After a stable sort each element's run length so far is its position
/// less the start of its run; the first maximal one ends the least longest
/// run.
struct DecomposeMode : public OpRewritePattern<AtenModeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenModeOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<RowPick> p = readRowPick(op, rewriter);
    if (failed(p))
      return failure();
    StatsBuilder t{{rewriter, op.getLoc()}};
    Location loc = op.getLoc();
    int64_t dim = p->dim, n = p->n;
    Value self = rowsOf(t, op.getSelf(), *p);
    auto [sorted, indices] = t.sort(self, dim);
    Value position = t.zeros(p->rowShape, kLong);
    if (n > 1) {
      Value same = AtenEqTensorOp::create(rewriter, loc, t.tensor(),
                                          t.narrow(sorted, dim, 1, n - 1),
                                          t.narrow(sorted, dim, 0, n - 1));
      Value starts =
          t.cat({t.ones(p->rowShape, kBool), t.logicalNot(same)}, dim);
      SmallVector<int64_t> along(p->rowShape.size(), 1), rows(p->rowShape);
      along[dim] = rows[dim] = n;
      Value index = t.reshape(t.arange(n), along);
      // Each element's run (the count of run starts up to it, less one),
      // the least position of each run, and so each element's run start:
      // O(n) scans and scatters, not an n x n running maximum.
      Value run = AtenSubScalarOp::create(
          rewriter, loc, t.tensor(),
          AtenCumsumOp::create(rewriter, loc, t.tensor(), starts, t.i(dim),
                               t.i(kLong)),
          t.i(1), t.i(1));
      Value positions = t.expand(index, rows);
      Value firsts = AtenScatterReduceTwoOp::create(
          rewriter, loc, t.tensor(), positions, t.i(dim), run, positions,
          t.str("amin"), t.flag(false));
      Value runStart = t.gather(firsts, dim, run);
      position =
          AtenArgmaxOp::create(rewriter, loc, t.tensor(),
                               t.sub(index, runStart), t.i(dim), t.flag(true));
    }
    replaceWithPicked(rewriter, op, t, *p, sorted, indices, position);
    return success();
  }
};

/// quantile and nanquantile (q a tensor, or a float for .scalar): as
/// ATen's quantile_compute.
template <typename OpTy, bool ignoreNan, bool scalarQ>
struct DecomposeQuantile : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value self = op.getSelf();
    std::optional<SmallVector<int64_t>> sizes = staticSizes(self);
    std::optional<bool> keepdim = constBool(op.getKeepdim());
    auto mode = op.getInterpolation().template getDefiningOp<PrimConstantOp>();
    auto modeAttr =
        mode ? llvm::dyn_cast_or_null<StringAttr>(mode.getValueAttr()) : nullptr;
    std::optional<SmallVector<int64_t>> qSizes;
    if constexpr (scalarQ)
      qSizes = SmallVector<int64_t>{};
    else
      qSizes = staticSizes(op.getQ());
    if (!sizes || !keepdim || !modeAttr || !qSizes || qSizes->size() > 1 ||
        !isFloatTensor(self))
      return rewriter.notifyMatchFailure(op, "static sizes, a float input "
                                             "and constant arguments "
                                             "expected");
    StringRef interpolation = modeAttr.getValue();
    if (!llvm::is_contained({"linear", "lower", "higher", "nearest",
                             "midpoint"},
                            interpolation))
      return rewriter.notifyMatchFailure(op, "unknown interpolation");
    int64_t rank = sizes->size();
    std::optional<int64_t> dim;
    if (!llvm::isa<ts::NoneType>(op.getDim().getType())) {
      std::optional<int64_t> d = constInt(op.getDim());
      if (!d || !(dim = shape::wrapDim(*d, rank)))
        return rewriter.notifyMatchFailure(op, "dim not constant or out of "
                                               "range");
    }
    int64_t n = dim && rank ? (*sizes)[*dim] : shape::numElements(*sizes);
    if (shape::numElements(*sizes) == 0)
      return rewriter.notifyMatchFailure(op, "an empty input");
    // The result's shape without q's dim, as quantile_output_shape.
    SmallVector<int64_t> outShape;
    if (dim) {
      outShape.assign(sizes->begin(), sizes->end());
      if (rank) {
        if (*keepdim)
          outShape[*dim] = 1;
        else
          outShape.erase(outShape.begin() + *dim);
      }
    } else if (*keepdim) {
      outShape.assign(rank, 1);
    }
    int64_t qCount = qSizes->empty() ? 1 : (*qSizes)[0];
    // The sorted rows, viewed as [outShape..., n].
    SmallVector<int64_t> inShape(outShape);
    inShape.push_back(n);

    StatsBuilder t{{rewriter, op.getLoc()}};
    Location loc = op.getLoc();
    Value rows;
    if (!dim || rank == 0)
      rows = t.reshape(self, {shape::numElements(*sizes)});
    else if (*dim == rank - 1)
      rows = self;
    else
      rows = t.transpose(t.unsqueeze(self, -1), *dim, -1);
    Value sorted = t.reshape(t.sort(rows, -1).first, inShape);
    Value q;
    if constexpr (scalarQ)
      q = AtenScalarTensorOp::create(
          rewriter, loc, t.tensor(), op.getQ(),
          PrimDtypeOp::create(rewriter, loc, ts::IntType::get(t.ctx()), self),
          t.none(), t.none(), t.none());
    else
      q = op.getQ();
    q = t.reshape(q, {qCount});
    SmallVector<int64_t> rankShape(outShape);
    rankShape.push_back(qCount);
    Value ranks;
    if (ignoreNan) {
      Value count = t.sumDim(t.logicalNot(t.isnan(sorted)), -1, true);
      ranks = t.mul(q, AtenSubScalarOp::create(rewriter, loc, t.tensor(),
                                               count, t.i(1), t.i(1)));
      ranks = AtenMaskedFillScalarOp::create(
          rewriter, loc, t.tensor(), ranks,
          AtenLtScalarOp::create(rewriter, loc, t.tensor(), ranks, t.i(0)),
          t.i(0));
    } else {
      Value last = t.i(n - 1);
      ranks = AtenExpandOp::create(
          rewriter, loc, t.tensor(),
          AtenMulScalarOp::create(rewriter, loc, t.tensor(), q, last),
          t.sizes(rankShape), t.flag(false));
      ranks = AtenMaskedFillScalarOp::create(rewriter, loc, t.tensor(), ranks,
                                             t.anyDim(t.isnan(sorted), -1, true),
                                             last);
    }
    if (interpolation == "lower")
      ranks = AtenFloorOp::create(rewriter, loc, t.tensor(), ranks);
    else if (interpolation == "higher")
      ranks = AtenCeilOp::create(rewriter, loc, t.tensor(), ranks);
    else if (interpolation == "nearest")
      ranks = AtenRoundOp::create(rewriter, loc, t.tensor(), ranks);
    Value below = t.toLong(ranks);
    Value result = t.gather(sorted, -1, below);
    if (interpolation == "linear" || interpolation == "midpoint") {
      Value weights =
          interpolation == "midpoint"
              ? AtenFullLikeOp::create(rewriter, loc, t.tensor(), ranks,
                                       t.f(0.5), t.none(), t.none(), t.none(),
                                       t.none(), t.none())
                    .getResult()
              : t.sub(ranks, below);
      Value above =
          t.toLong(AtenCeilOp::create(rewriter, loc, t.tensor(), ranks));
      result = AtenLerpTensorOp::create(rewriter, loc, t.tensor(), result,
                                        t.gather(sorted, -1, above), weights);
    }
    // The quantiles' dim first, or none for a 0-d q.
    if (qSizes->empty())
      result = AtenSqueezeDimOp::create(rewriter, loc, t.tensor(), result,
                                        t.i(-1));
    else
      result = AtenSqueezeDimOp::create(
          rewriter, loc, t.tensor(),
          t.transpose(t.unsqueeze(result, 0), 0, -1), t.i(-1));
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

/// histc(self, bins, min, max): counts of a float input, in its dtype.
struct DecomposeHistc : public OpRewritePattern<AtenHistcOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenHistcOp op,
                                PatternRewriter &rewriter) const override {
    Value self = op.getSelf();
    std::optional<SmallVector<int64_t>> sizes = staticSizes(self);
    std::optional<int64_t> bins = constInt(op.getBins());
    std::optional<double> lo = constFloat(op.getMinValue());
    std::optional<double> hi = constFloat(op.getMaxValue());
    if (!sizes || !bins || !lo || !hi || !isFloatTensor(self) || *bins <= 0 ||
        *lo > *hi || !std::isfinite(*lo) || !std::isfinite(*hi))
      return rewriter.notifyMatchFailure(op, "a float input, a positive bin "
                                             "count and finite, ordered "
                                             "constant bounds expected");
    StatsBuilder t{{rewriter, op.getLoc()}};
    Location loc = op.getLoc();
    int64_t n = shape::numElements(*sizes);
    auto zeros = [&](int64_t count) {
      return AtenZerosOp::create(
          rewriter, loc, t.tensor(), t.sizes({count}),
          PrimDtypeOp::create(rewriter, loc, ts::IntType::get(t.ctx()), self),
          t.none(), t.none(), t.none());
    };
    if (n == 0) {
      replaceWithDeclaredTypes(rewriter, op, {zeros(*bins)});
      return success();
    }
    Value x = t.reshape(self, {n});
    // The outer edges as 0-d tensors of self's dtype.
    Value left, right;
    auto edge = [&](double v) {
      return AtenScalarTensorOp::create(
          rewriter, loc, t.tensor(), t.f(v),
          PrimDtypeOp::create(rewriter, loc, ts::IntType::get(t.ctx()), self),
          t.none(), t.none(), t.none());
    };
    if (*lo == *hi) {
      Value dims = t.sizes({0});
      left = AtenAminOp::create(rewriter, loc, t.tensor(), x, dims,
                                t.flag(false));
      right = AtenAmaxOp::create(rewriter, loc, t.tensor(), x, dims,
                                 t.flag(false));
      Value same = AtenEqTensorOp::create(rewriter, loc, t.tensor(), left,
                                          right);
      Value step = t.castTo(same, dtypeOf(self));
      left = t.sub(left, step);
      right = t.add(right, step);
    } else {
      left = edge(*lo);
      right = edge(*hi);
    }
    Value inside = t.logicalAnd(
        AtenGeTensorOp::create(rewriter, loc, t.tensor(), x, left),
        AtenLeTensorOp::create(rewriter, loc, t.tensor(), x, right));
    Value scaled = t.div(AtenMulScalarOp::create(rewriter, loc, t.tensor(),
                                                 t.sub(x, left), t.i(*bins)),
                         t.sub(right, left));
    // The maximum falls in the last bin; elements outside in an extra one.
    Value bin = AtenClampMaxOp::create(rewriter, loc, t.tensor(),
                                       t.toLong(scaled), t.i(*bins - 1));
    bin = AtenWhereScalarOtherOp::create(rewriter, loc, t.tensor(), inside,
                                         bin, t.i(*bins));
    Value ones = AtenOnesLikeOp::create(rewriter, loc, t.tensor(), x, t.none(),
                                        t.none(), t.none(), t.none(), t.none());
    Value counts = AtenScatterAddOp::create(rewriter, loc, t.tensor(),
                                            zeros(*bins + 1), t.i(0), bin, ones);
    replaceWithDeclaredTypes(rewriter, op, {t.narrow(counts, 0, 0, *bins)});
    return success();
  }
};

/// The operands of histogram: the input flattened, its weights (or null)
/// and the bin count, with the checks both overloads share.
struct HistogramInput {
  Value x, weight;
  int64_t n, bins;
  bool density;
  /// The input's dtype (of x and weight) as a ScalarType code.
  int64_t dtype;
};

template <typename OpTy>
FailureOr<HistogramInput> readHistogram(OpTy op, PatternRewriter &rewriter,
                                        int64_t bins) {
  Value self = op.getSelf();
  std::optional<SmallVector<int64_t>> sizes = staticSizes(self);
  std::optional<bool> density = constBool(op.getDensity());
  Type dtype = dtypeOf(self);
  if (!sizes || !density || !dtype || (!dtype.isF32() && !dtype.isF64()) ||
      bins <= 0)
    return rewriter.notifyMatchFailure(op, "a static Float or Double input, "
                                           "a positive bin count and a "
                                           "constant density expected");
  Value weight = op.getWeight();
  if (!isNone(weight) &&
      (staticSizes(weight) != sizes || dtypeOf(weight) != dtype))
    return rewriter.notifyMatchFailure(op, "weights of the input's sizes and "
                                           "dtype expected");
  int64_t n = shape::numElements(*sizes);
  StatsBuilder t{{rewriter, op.getLoc()}};
  return HistogramInput{t.reshape(self, {n}),
                        isNone(weight) ? Value() : t.reshape(weight, {n}),
                        n,
                        bins,
                        *density,
                        *getScalarTypeCode(dtype)};
}

/// For each element of the 1-d `x`, std::upper_bound's answer over the
/// `count` elements of the 1-d `edges`: its binary search unrolled, each
/// element carrying its own (first, count), so that edges that are not
/// sorted give what ATen's histogram gives for them.
Value upperBound(StatsBuilder &t, Value edges, int64_t count, Value x) {
  Value first = AtenZerosLikeOp::create(t.b, t.loc, t.tensor(), x, t.i(kLong),
                                        t.none(), t.none(), t.none(), t.none());
  Value left = AtenAddScalarOp::create(t.b, t.loc, t.tensor(), first,
                                       t.i(count), t.i(1));
  for (int64_t span = count; span > 0; span /= 2) {
    // `left` is the count still searched: step = left // 2, it = first +
    // step.
    Value step =
        AtenFloorDivideScalarOp::create(t.b, t.loc, t.tensor(), left, t.i(2));
    Value it = t.add(first, step);
    Value at =
        AtenClampMaxOp::create(t.b, t.loc, t.tensor(), it, t.i(count - 1));
    Value edge = t.indexSelect(edges, 0, at);
    Value searching =
        AtenGtScalarOp::create(t.b, t.loc, t.tensor(), left, t.i(0));
    Value right = t.logicalAnd(
        searching,
        t.logicalNot(AtenLtTensorOp::create(t.b, t.loc, t.tensor(), x, edge)));
    // Right of it: first = it + 1, count -= step + 1; else count = step.
    first = t.where(
        right,
        AtenAddScalarOp::create(t.b, t.loc, t.tensor(), it, t.i(1), t.i(1)),
        first);
    left = t.where(right,
                   AtenSubScalarOp::create(t.b, t.loc, t.tensor(),
                                           t.sub(left, step), t.i(1), t.i(1)),
                   step);
  }
  return first;
}

/// The bin of each element of the 1-d `x` among the ascending `edges`
/// ([bins + 1]), as ATen's histogramdd kernel finds it: the bin of the last
/// edge at or below it, the last bin keeping its right edge; `inside` is
/// set where x is within [first, last] edge (not NaN).
Value binOf(StatsBuilder &t, Value x, Value edges, int64_t bins,
            Value &inside) {
  Value first = t.select(edges, 0, 0), last = t.select(edges, 0, bins);
  inside =
      t.logicalAnd(AtenGeTensorOp::create(t.b, t.loc, t.tensor(), x, first),
                   AtenLeTensorOp::create(t.b, t.loc, t.tensor(), x, last));
  return AtenClampMaxOp::create(
      t.b, t.loc, t.tensor(),
      AtenSubScalarOp::create(t.b, t.loc, t.tensor(),
                              upperBound(t, edges, bins + 1, x), t.i(1),
                              t.i(1)),
      t.i(bins - 1));
}

/// The counts (or weights' sums) of the `total` bins `bin` (Long [n])
/// names where `inside` is set; the elements outside count in an extra bin,
/// dropped after.
Value countBins(StatsBuilder &t, const HistogramInput &in, Value bin,
                Value inside, int64_t total) {
  bin = AtenWhereScalarOtherOp::create(t.b, t.loc, t.tensor(), inside, bin,
                                       t.i(total));
  Value weight =
      in.weight
          ? in.weight
          : AtenOnesLikeOp::create(t.b, t.loc, t.tensor(), bin, t.i(in.dtype),
                                   t.none(), t.none(), t.none(), t.none());
  Value zeros = t.zeros({total + 1}, in.dtype);
  return t.narrow(AtenScatterAddOp::create(t.b, t.loc, t.tensor(), zeros,
                                           t.i(0), bin, weight),
                  0, 0, total);
}

/// The widths of the bins between `edges` ([bins + 1]).
Value widthsOf(StatsBuilder &t, Value edges, int64_t bins) {
  return t.sub(t.narrow(edges, 0, 1, bins), t.narrow(edges, 0, 0, bins));
}

/// The histogram of `in` over the ascending `edges` ([bins + 1], the
/// input's dtype), as ATen's histogramdd kernel counts it: an element
/// outside [first, last] edge (or NaN) is skipped. With density, the counts
/// divided by their sum and the bin widths.
Value buildHistogram(StatsBuilder &t, const HistogramInput &in, Value edges) {
  Value inside;
  Value bin = binOf(t, in.x, edges, in.bins, inside);
  Value hist = countBins(t, in, bin, inside, in.bins);
  if (!in.density)
    return hist;
  Value widths = widthsOf(t, edges, in.bins);
  Value share = t.div(hist, t.sumAll(hist));
  return t.div(share, widths);
}

/// `bins` equal bins over `range`, or over [min, max] of the 1-d `x` of `n`
/// elements (widened by 0.5 each way when they are equal, [0, 1] when
/// there are none): linspace's edges as ATen computes them (from the start
/// up to the middle, from the end after it), in `dtype`.
Value equalEdges(StatsBuilder &t, Value x, int64_t n, int64_t bins,
                 std::optional<std::pair<double, double>> range, Type dtype) {
  int64_t code = *getScalarTypeCode(dtype);
  auto constant = [&](double v) {
    return AtenScalarTensorOp::create(t.b, t.loc, t.tensor(), t.f(v), t.i(code),
                                      t.none(), t.none(), t.none());
  };
  Value lo, hi;
  if (range || n == 0) {
    // Without a range or elements, ATen's outer edges stay [0, 1].
    double l = range ? range->first : 0, h = range ? range->second : 1;
    if (l == h) {
      l -= 0.5;
      h += 0.5;
    }
    lo = constant(l);
    hi = constant(h);
  } else {
    Value dims = t.sizes({0});
    lo = AtenAminOp::create(t.b, t.loc, t.tensor(), x, dims, t.flag(false));
    hi = AtenAmaxOp::create(t.b, t.loc, t.tensor(), x, dims, t.flag(false));
    Value same = AtenEqTensorOp::create(t.b, t.loc, t.tensor(), lo, hi);
    Value half = AtenMulScalarOp::create(t.b, t.loc, t.tensor(),
                                         t.castTo(same, dtype), t.f(0.5));
    lo = t.sub(lo, half);
    hi = t.add(hi, half);
  }
  int64_t steps = bins + 1;
  Value index = t.arange(steps);
  Value position = t.castTo(index, dtype);
  Value step =
      AtenDivScalarOp::create(t.b, t.loc, t.tensor(), t.sub(hi, lo), t.i(bins));
  Value fromStart = t.add(lo, t.mul(step, position));
  Value fromEnd = t.sub(
      hi, t.mul(step, AtenRsubScalarOp::create(t.b, t.loc, t.tensor(), position,
                                               t.i(bins), t.i(1))));
  Value early =
      AtenLtScalarOp::create(t.b, t.loc, t.tensor(), index, t.i(steps / 2));
  return t.where(early, fromStart, fromEnd);
}

/// A histogram's constant range: nullopt for None, failure when it is not
/// `2 * dims` finite, ordered bounds.
FailureOr<std::optional<SmallVector<double>>> readRange(Value range,
                                                        size_t dims) {
  if (isNone(range))
    return std::optional<SmallVector<double>>();
  std::optional<SmallVector<double>> r = constFloatList(range);
  if (!r || r->size() != 2 * dims)
    return failure();
  for (size_t d = 0; d < dims; ++d)
    if (!std::isfinite((*r)[2 * d]) || !std::isfinite((*r)[2 * d + 1]) ||
        (*r)[2 * d] > (*r)[2 * d + 1])
      return failure();
  return r;
}

/// histogram.bin_ct(self, bins, range?, weight?, density): `bins` equal bins
/// over range, or over [min, max] of the input (widened by 0.5 each way
/// when they are equal, [0, 1] for an empty input); the edges are
/// linspace's, in the input's dtype.
struct DecomposeHistogramBinCount
    : public OpRewritePattern<AtenHistogramBinCtOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenHistogramBinCtOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> bins = constInt(op.getBins());
    if (!bins)
      return rewriter.notifyMatchFailure(op, "bin count not constant");
    FailureOr<std::optional<SmallVector<double>>> range =
        readRange(op.getRange(), 1);
    if (failed(range))
      return rewriter.notifyMatchFailure(op, "range not two constant, "
                                             "finite, ordered bounds");
    FailureOr<HistogramInput> in = readHistogram(op, rewriter, *bins);
    if (failed(in))
      return failure();
    StatsBuilder t{{rewriter, op.getLoc()}};
    std::optional<std::pair<double, double>> bounds;
    if (*range)
      bounds = std::make_pair((**range)[0], (**range)[1]);
    Value edges =
        equalEdges(t, in->x, in->n, *bins, bounds, dtypeOf(op.getSelf()));
    replaceWithDeclaredTypes(rewriter, op,
                             {buildHistogram(t, *in, edges), edges});
    return success();
  }
};

/// histogram.bins_tensor(self, bins, weight?, density): the bins between
/// the given ascending edges.
struct DecomposeHistogramBinEdges
    : public OpRewritePattern<AtenHistogramBinsTensorOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenHistogramBinsTensorOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> edgeSizes = staticSizes(op.getBins());
    if (!edgeSizes || edgeSizes->size() != 1 ||
        dtypeOf(op.getBins()) != dtypeOf(op.getSelf()))
      return rewriter.notifyMatchFailure(op, "1-d edges of the input's dtype "
                                             "expected");
    FailureOr<HistogramInput> in =
        readHistogram(op, rewriter, (*edgeSizes)[0] - 1);
    if (failed(in))
      return failure();
    StatsBuilder t{{rewriter, op.getLoc()}};
    replaceWithDeclaredTypes(
        rewriter, op,
        {buildHistogram(t, *in, op.getBins()), t.clone(op.getBins())});
    return success();
  }
};

/// histogramdd(self [..., D], bins, range?, weight?, density): the points
/// of the last dim's D coordinates, each coordinate binned as histogram
/// bins it (equal bins over the range or the coordinate's [min, max], or
/// the given edges), a point counted in the bin of its D bins (skipped
/// when one coordinate is outside); with density, divided by the sum and
/// by each dim's bin widths. Returns the counts [bins...] and the edges.
template <typename OpTy>
struct DecomposeHistogramdd : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<bool> density = constBool(op.getDensity());
    Type dtype = dtypeOf(op.getSelf());
    if (!sizes || sizes->empty() || !density || !dtype ||
        (!dtype.isF32() && !dtype.isF64()))
      return rewriter.notifyMatchFailure(op, "a static Float or Double input "
                                             "and a constant density expected");
    int64_t dims = sizes->back();
    int64_t n = shape::numElements(ArrayRef<int64_t>(*sizes).drop_back());
    SmallVector<int64_t> bins;
    SmallVector<Value> givenEdges;
    if constexpr (std::is_same_v<OpTy, AtenHistogramddTensorListBinsOp>) {
      std::optional<SmallVector<OpFoldResult>> edges =
          knownTensors(op.getBins());
      if (!edges || int64_t(edges->size()) != dims || !isNone(op.getRange()))
        return rewriter.notifyMatchFailure(op, "edges not known");
      for (OpFoldResult e : *edges) {
        Value v = materialize(rewriter, op.getLoc(), e);
        std::optional<SmallVector<int64_t>> es = staticSizes(v);
        if (!es || es->size() != 1 || (*es)[0] < 2 || dtypeOf(v) != dtype)
          return rewriter.notifyMatchFailure(op, "1-d edges of the input's "
                                                 "dtype expected");
        bins.push_back((*es)[0] - 1);
        givenEdges.push_back(v);
      }
    } else if constexpr (std::is_same_v<OpTy, AtenHistogramddIntBinsOp>) {
      std::optional<int64_t> count = constInt(op.getBins());
      if (!count)
        return rewriter.notifyMatchFailure(op, "bins not constant");
      bins.assign(dims, *count);
    } else {
      std::optional<SmallVector<int64_t>> counts = constIntList(op.getBins());
      if (!counts)
        return rewriter.notifyMatchFailure(op, "bins not constant");
      bins = *counts;
    }
    if (int64_t(bins.size()) != dims ||
        llvm::any_of(bins, [](int64_t b) { return b <= 0; }))
      return rewriter.notifyMatchFailure(op, "one positive bin count per dim "
                                             "expected");
    FailureOr<std::optional<SmallVector<double>>> range =
        readRange(op.getRange(), dims);
    if (failed(range))
      return rewriter.notifyMatchFailure(op, "range not constant, finite, "
                                             "ordered bounds per dim");
    Value weight = op.getWeight();
    SmallVector<int64_t> points(sizes->begin(), sizes->end() - 1);
    if (!isNone(weight) &&
        (staticSizes(weight) != points || dtypeOf(weight) != dtype))
      return rewriter.notifyMatchFailure(op, "weights of the points' sizes "
                                             "and dtype expected");
    StatsBuilder t{{rewriter, op.getLoc()}};
    int64_t code = *getScalarTypeCode(dtype);
    Value x = t.reshape(op.getSelf(), {n, dims});
    HistogramInput in{
        x,   isNone(weight) ? Value() : t.reshape(weight, {n}), n, 0, *density,
        code};
    int64_t total = 1;
    for (int64_t b : bins)
      total *= b;
    Value flat, inside;
    SmallVector<Value> edges;
    for (int64_t d = 0; d < dims; ++d) {
      Value column = t.select(x, 1, d);
      std::optional<std::pair<double, double>> bounds;
      if (*range)
        bounds = std::make_pair((**range)[2 * d], (**range)[2 * d + 1]);
      Value e = givenEdges.empty()
                    ? equalEdges(t, column, n, bins[d], bounds, dtype)
                    : givenEdges[d];
      edges.push_back(e);
      Value within;
      Value bin = binOf(t, column, e, bins[d], within);
      // Row-major: flat = flat * bins[d] + bin.
      flat =
          flat ? t.add(AtenMulScalarOp::create(rewriter, op.getLoc(),
                                               t.tensor(), flat, t.i(bins[d])),
                       bin)
               : bin;
      inside = inside ? t.logicalAnd(inside, within) : within;
    }
    Value hist = t.reshape(countBins(t, in, flat, inside, total), bins);
    if (*density) {
      hist = t.div(hist, t.sumAll(hist));
      for (int64_t d = 0; d < dims; ++d) {
        SmallVector<int64_t> shape(dims, 1);
        shape[d] = bins[d];
        hist = t.div(hist, t.reshape(widthsOf(t, edges[d], bins[d]), shape));
      }
    }
    SmallVector<Value> edgeCopies;
    for (Value e : edges)
      edgeCopies.push_back(givenEdges.empty() ? e : t.clone(e));
    replaceWithDeclaredTypes(rewriter, op, {hist, t.list(edgeCopies)});
    return success();
  }
};

/// cov(self, correction, fweights?, aweights?), as ATen's cov.
struct DecomposeCov : public OpRewritePattern<AtenCovOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenCovOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<int64_t> correction = constInt(op.getCorrection());
    if (!sizes || sizes->size() > 2 || !correction || !hasDtype(op.getSelf()))
      return rewriter.notifyMatchFailure(op, "a static input of at most 2 "
                                             "dims and a constant correction "
                                             "expected");
    bool hasF = !llvm::isa<ts::NoneType>(op.getFweights().getType());
    bool hasA = !llvm::isa<ts::NoneType>(op.getAweights().getType());
    StatsBuilder t{{rewriter, op.getLoc()}};
    Location loc = op.getLoc();
    Value in = sizes->size() < 2
                   ? t.reshape(op.getSelf(), {1, shape::numElements(*sizes)})
                   : op.getSelf();
    int64_t observations =
        sizes->size() < 2 ? shape::numElements(*sizes) : (*sizes)[1];
    Value w;
    if (hasF)
      w = op.getFweights();
    if (hasA)
      w = w ? t.mul(w, op.getAweights()) : op.getAweights();
    Value wSum = w ? t.sumAll(w)
                   : AtenScalarTensorOp::create(rewriter, loc, t.tensor(),
                                                t.i(observations), t.i(kLong),
                                                t.none(), t.none(), t.none())
                         .getResult();
    Value weighted = w ? t.mul(in, w) : in;
    Value avg = t.div(t.sumDim(weighted, 1, false), wSum);
    Value norm;
    if (w && hasA && *correction != 0)
      norm = t.sub(wSum,
                   t.div(AtenMulScalarOp::create(
                             rewriter, loc, t.tensor(),
                             t.sumAll(t.mul(w, op.getAweights())),
                             t.i(*correction)),
                         wSum));
    else
      norm = AtenSubScalarOp::create(rewriter, loc, t.tensor(), wSum,
                                     t.i(*correction), t.i(1));
    // Degrees of freedom <= 0 divide by +0, as PyTorch does after a
    // warning (a product with false would keep a negative's sign).
    norm = AtenWhereScalarOtherOp::create(
        rewriter, loc, t.tensor(),
        AtenGtScalarOp::create(rewriter, loc, t.tensor(), norm, t.i(0)), norm,
        t.i(0));
    Value centered = t.sub(in, t.unsqueeze(avg, 1));
    Value c = AtenMmOp::create(
        rewriter, loc, t.tensor(), centered,
        AtenTOp::create(rewriter, loc, t.tensor(),
                        w ? t.mul(centered, w) : centered));
    Value result = AtenSqueezeOp::create(rewriter, loc, t.tensor(),
                                         t.div(c, norm));
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

/// corrcoef(self): cov normalised by the standard deviations.
struct DecomposeCorrcoef : public OpRewritePattern<AtenCorrcoefOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenCorrcoefOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    if (!sizes || sizes->size() > 2 || !hasDtype(op.getSelf()))
      return rewriter.notifyMatchFailure(op, "a static input of at most 2 "
                                             "dims expected");
    StatsBuilder t{{rewriter, op.getLoc()}};
    Location loc = op.getLoc();
    Value c = AtenCovOp::create(rewriter, loc, t.tensor(), op.getSelf(),
                                t.i(1), t.none(), t.none());
    int64_t vars = sizes->size() < 2 ? 1 : (*sizes)[0];
    if (vars == 1) {
      // A scalar covariance: NaN for NaN, inf or 0, else 1.
      replaceWithDeclaredTypes(rewriter, op, {t.div(c, c)});
      return success();
    }
    SmallVector<int64_t> diagonal;
    for (int64_t i = 0; i < vars; ++i)
      diagonal.push_back(i * (vars + 1));
    Value stddev =
        AtenSqrtOp::create(rewriter, loc, t.tensor(),
                           t.indexSelect(t.reshape(c, {vars * vars}), 0,
                                         t.longs(diagonal, {vars})));
    c = t.div(t.div(c, t.reshape(stddev, {-1, 1})), t.reshape(stddev, {1, -1}));
    replaceWithDeclaredTypes(
        rewriter, op,
        {AtenClampOp::create(rewriter, loc, t.tensor(), c, t.i(-1), t.i(1))});
    return success();
  }
};

} // namespace

void mlir::tsmlir::ts::decompose::populateStatisticsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<
      DecomposeMedian<AtenMedianOp, false>,
      DecomposeMedian<AtenNanmedianOp, true>,
      DecomposeMedianDim<AtenMedianDimOp, false>,
      DecomposeMedianDim<AtenNanmedianDimOp, true>, DecomposeKthvalue,
      DecomposeQuantile<AtenQuantileOp, false, false>,
      DecomposeQuantile<AtenQuantileScalarOp, false, true>,
      DecomposeQuantile<AtenNanquantileOp, true, false>,
      DecomposeQuantile<AtenNanquantileScalarOp, true, true>, DecomposeHistc,
      DecomposeHistogramBinCount, DecomposeHistogramBinEdges, DecomposeMode,
      DecomposeCov, DecomposeHistogramdd<AtenHistogramddOp>,
      DecomposeHistogramdd<AtenHistogramddIntBinsOp>,
      DecomposeHistogramdd<AtenHistogramddTensorListBinsOp>, DecomposeCorrcoef>(
      patterns.getContext());
}
