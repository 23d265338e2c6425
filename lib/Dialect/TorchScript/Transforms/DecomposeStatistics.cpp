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

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::decompose;

namespace {

// PyTorch's ScalarType code of Long.
constexpr int64_t kLong = 4;

/// The ts ops the decompositions below build, with unrefined types.
struct StatsBuilder : TSBuilder {
  Value sizes(ArrayRef<int64_t> values) { return intListValue(*this, values); }
  Value toLong(Value x) {
    return AtenToDtypeOp::create(b, loc, tensor(), x, i(kLong), flag(false),
                                 flag(false), none());
  }
  Value isnan(Value x) { return AtenIsnanOp::create(b, loc, tensor(), x); }
  Value sumDim(Value x, int64_t dim, bool keepdim) {
    return AtenSumDimIntListOp::create(b, loc, tensor(), x, sizes({dim}),
                                       flag(keepdim), none());
  }
  Value sumAll(Value x) {
    return AtenSumOp::create(b, loc, tensor(), x, none());
  }
  Value anyDim(Value x, int64_t dim, bool keepdim) {
    return AtenAnyDimOp::create(b, loc, tensor(), x, i(dim), flag(keepdim));
  }
  Value gather(Value x, int64_t dim, Value index) {
    return AtenGatherOp::create(b, loc, tensor(), x, i(dim), index,
                                flag(false));
  }
  Value sub(Value x, Value y) {
    return AtenSubTensorOp::create(b, loc, tensor(), x, y, i(1));
  }
  Value div(Value x, Value y) {
    return AtenDivTensorOp::create(b, loc, tensor(), x, y);
  }
  /// `x` with `scalar` where `mask` is set.
  Value where(Value mask, Value scalar, Value x) {
    return AtenWhereScalarSelfOp::create(b, loc, tensor(), mask, scalar, x);
  }
  /// The values and indices of a stable ascending sort along `dim` (NaN
  /// last, equal elements in their order).
  std::pair<Value, Value> sort(Value x, int64_t dim) {
    auto op = AtenSortStableOp::create(b, loc, TypeRange{tensor(), tensor()},
                                       x, flag(true), i(dim), flag(false));
    return {op.getResult(0), op.getResult(1)};
  }
};

bool isFloatTensor(Value v) {
  auto type = llvm::dyn_cast<ts::TensorType>(v.getType());
  return type && llvm::isa_and_nonnull<mlir::FloatType>(type.getDtype());
}

bool hasDtype(Value v) {
  auto type = llvm::dyn_cast<ts::TensorType>(v.getType());
  return type && type.getDtype();
}

std::optional<int64_t> wrapDim(int64_t dim, int64_t rank) {
  int64_t n = std::max<int64_t>(rank, 1);
  if (dim < -n || dim >= n)
    return std::nullopt;
  return dim < 0 ? dim + n : dim;
}

int64_t numElements(ArrayRef<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  return n;
}

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
    int64_t n = numElements(*sizes);
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
      result = t.where(nan, t.f(std::numeric_limits<double>::quiet_NaN()),
                       t.select(sorted, 0, (n - 1) / 2));
    } else {
      // The non-NaN elements come first; with none, the first (NaN).
      Value count = t.sumAll(AtenLogicalNotOp::create(
          rewriter, op.getLoc(), t.tensor(), t.isnan(sorted)));
      Value middle = AtenFloorDivideScalarOp::create(
          rewriter, op.getLoc(), t.tensor(),
          AtenClampMinOp::create(
              rewriter, op.getLoc(), t.tensor(),
              AtenSubScalarOp::create(rewriter, op.getLoc(), t.tensor(), count,
                                      t.i(1), t.i(1)),
              t.i(0)),
          t.i(2));
      result = t.reshape(t.gather(sorted, 0, t.reshape(middle, {1})), {});
    }
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

/// The element of each row along `dim` at the sorted position `position`
/// (Long, keepdim-shaped), with its index; `keepdim` false drops the dim.
SmallVector<Value> pickSorted(StatsBuilder &t, Value self, int64_t dim,
                              Value position, bool keepdim) {
  auto [values, indices] = t.sort(self, dim);
  SmallVector<Value> results{t.gather(values, dim, position),
                             t.gather(indices, dim, position)};
  if (!keepdim)
    for (Value &r : results)
      r = AtenSqueezeDimOp::create(t.b, t.loc, t.tensor(), r, t.i(dim));
  return results;
}

/// median.dim(self, dim, keepdim) and nanmedian.dim: values and indices.
template <typename OpTy, bool ignoreNan>
struct DecomposeMedianDim : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<int64_t> dimArg = constInt(op.getDim());
    std::optional<bool> keepdim = constBool(op.getKeepdim());
    if (!sizes || !dimArg || !keepdim || !hasDtype(op.getSelf()))
      return rewriter.notifyMatchFailure(op, "static sizes and constant "
                                             "arguments expected");
    std::optional<int64_t> dim = wrapDim(*dimArg, sizes->size());
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim out of range");
    int64_t rank = sizes->size();
    int64_t n = rank ? (*sizes)[*dim] : 1;
    if (n == 0 || numElements(*sizes) == 0)
      return rewriter.notifyMatchFailure(op, "an empty input");
    StatsBuilder t{{rewriter, op.getLoc()}};
    Value self = rank ? op.getSelf() : t.reshape(op.getSelf(), {1});
    SmallVector<int64_t> rowShape(rank ? *sizes : SmallVector<int64_t>{1});
    rowShape[*dim] = 1;
    Value position;
    if (!isFloatTensor(self)) {
      position = AtenFullOp::create(rewriter, op.getLoc(), t.tensor(),
                                    t.sizes(rowShape), t.i((n - 1) / 2),
                                    t.i(kLong), t.none(), t.none(), t.none());
    } else {
      Value nans = t.sumDim(t.isnan(self), *dim, true);
      Value count = AtenRsubScalarOp::create(rewriter, op.getLoc(), t.tensor(),
                                             nans, t.i(n), t.i(1));
      if (ignoreNan) {
        // The middle of the non-NaN elements; with none, the first NaN.
        position = AtenFloorDivideScalarOp::create(
            rewriter, op.getLoc(), t.tensor(),
            AtenClampMinOp::create(
                rewriter, op.getLoc(), t.tensor(),
                AtenSubScalarOp::create(rewriter, op.getLoc(), t.tensor(),
                                        count, t.i(1), t.i(1)),
                t.i(0)),
            t.i(2));
      } else {
        // A row with NaN: its first NaN, which sorts right after the
        // others.
        Value hasNan = AtenGtScalarOp::create(rewriter, op.getLoc(),
                                              t.tensor(), nans, t.i(0));
        position = AtenWhereSelfOp::create(
            rewriter, op.getLoc(), t.tensor(), hasNan, count,
            AtenFullOp::create(rewriter, op.getLoc(), t.tensor(),
                               t.sizes(rowShape), t.i((n - 1) / 2), t.i(kLong),
                               t.none(), t.none(), t.none()));
      }
    }
    SmallVector<Value> results =
        pickSorted(t, self, *dim, position, *keepdim || rank == 0);
    if (rank == 0)
      for (Value &r : results)
        r = t.reshape(r, {});
    replaceWithDeclaredTypes(rewriter, op, results);
    return success();
  }
};

/// kthvalue(self, k, dim, keepdim): the k-th smallest along dim.
struct DecomposeKthvalue : public OpRewritePattern<AtenKthvalueOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenKthvalueOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<int64_t> k = constInt(op.getK());
    std::optional<int64_t> dimArg = constInt(op.getDim());
    std::optional<bool> keepdim = constBool(op.getKeepdim());
    if (!sizes || !k || !dimArg || !keepdim || !hasDtype(op.getSelf()))
      return rewriter.notifyMatchFailure(op, "static sizes and constant "
                                             "arguments expected");
    std::optional<int64_t> dim = wrapDim(*dimArg, sizes->size());
    int64_t rank = sizes->size();
    int64_t n = rank && dim ? (*sizes)[*dim] : 1;
    if (!dim || *k < 1 || *k > n || numElements(*sizes) == 0)
      return rewriter.notifyMatchFailure(op, "dim or k out of range");
    StatsBuilder t{{rewriter, op.getLoc()}};
    Value self = rank ? op.getSelf() : t.reshape(op.getSelf(), {1});
    SmallVector<int64_t> rowShape(rank ? *sizes : SmallVector<int64_t>{1});
    rowShape[*dim] = 1;
    Value position = AtenFullOp::create(
        rewriter, op.getLoc(), t.tensor(), t.sizes(rowShape), t.i(*k - 1),
        t.i(kLong), t.none(), t.none(), t.none());
    SmallVector<Value> results =
        pickSorted(t, self, *dim, position, *keepdim || rank == 0);
    if (rank == 0)
      for (Value &r : results)
        r = t.reshape(r, {});
    replaceWithDeclaredTypes(rewriter, op, results);
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
      if (!d || !(dim = wrapDim(*d, rank)))
        return rewriter.notifyMatchFailure(op, "dim not constant or out of "
                                               "range");
    }
    int64_t n = dim && rank ? (*sizes)[*dim] : numElements(*sizes);
    if (numElements(*sizes) == 0)
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
      rows = t.reshape(self, {numElements(*sizes)});
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
      Value count = t.sumDim(AtenLogicalNotOp::create(rewriter, loc, t.tensor(),
                                                      t.isnan(sorted)),
                             -1, true);
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
    int64_t n = numElements(*sizes);
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
      left = AtenSubTensorOp::create(
          rewriter, loc, t.tensor(), left,
          AtenToDtypeOp::create(rewriter, loc, t.tensor(), same,
                                PrimDtypeOp::create(rewriter, loc,
                                                    ts::IntType::get(t.ctx()),
                                                    self),
                                t.flag(false), t.flag(false), t.none()),
          t.i(1));
      right = AtenAddTensorOp::create(
          rewriter, loc, t.tensor(), right,
          AtenToDtypeOp::create(rewriter, loc, t.tensor(), same,
                                PrimDtypeOp::create(rewriter, loc,
                                                    ts::IntType::get(t.ctx()),
                                                    self),
                                t.flag(false), t.flag(false), t.none()),
          t.i(1));
    } else {
      left = edge(*lo);
      right = edge(*hi);
    }
    Value inside = AtenLogicalAndOp::create(
        rewriter, loc, t.tensor(),
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
                   ? t.reshape(op.getSelf(), {1, numElements(*sizes)})
                   : op.getSelf();
    int64_t observations = sizes->size() < 2 ? numElements(*sizes) : (*sizes)[1];
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
    Value stddev = AtenSqrtOp::create(
        rewriter, loc, t.tensor(),
        AtenIndexSelectOp::create(rewriter, loc, t.tensor(),
                                  t.reshape(c, {vars * vars}), t.i(0),
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
  patterns.add<DecomposeMedian<AtenMedianOp, false>,
               DecomposeMedian<AtenNanmedianOp, true>,
               DecomposeMedianDim<AtenMedianDimOp, false>,
               DecomposeMedianDim<AtenNanmedianDimOp, true>, DecomposeKthvalue,
               DecomposeQuantile<AtenQuantileOp, false, false>,
               DecomposeQuantile<AtenQuantileScalarOp, false, true>,
               DecomposeQuantile<AtenNanquantileOp, true, false>,
               DecomposeQuantile<AtenNanquantileScalarOp, true, true>,
               DecomposeHistc, DecomposeCov, DecomposeCorrcoef>(
      patterns.getContext());
}
