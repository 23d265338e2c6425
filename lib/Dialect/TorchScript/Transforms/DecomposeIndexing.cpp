//===- DecomposeIndexing.cpp - Gathers, scatters, splits and scans --------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Operators PyTorch defines by others that read or write at indices, split,
// reduce or scan, as the ops they are made of (PyTorch 1.13's results: its
// dtypes, negative dims and indices, 0-d and empty tensors):
//
//   take(x, i)                 index.Tensor of x flattened, at i (negative
//                              indices count from the end)
//   take_along_dim(x, i, d)    gather(x, d, i), each expanded to the other's
//                              sizes but at d; without d, gather of x
//                              flattened at i flattened
//   put(x, i, s, accumulate)   index_put of x flattened at i flattened with
//                              s flattened (accumulating: in index order,
//                              bools or-ed), viewed as x
//   index_fill(x, d, i, v)     where(the positions i names along d, v cast
//   (.int_Scalar, .int_Tensor) to x's dtype, x); negative indices count from
//                              the end
//   index_copy(x, d, i, s)     scatter.src(x, d, i viewed along d and
//                              expanded to s, s)
//   masked_scatter(x, m, s)    x and m broadcast and flattened; where m is
//                              set, s flattened at the count of set
//                              elements before (cumsum); viewed as the
//                              broadcast shape
//   tensor_split.sections      slices along dim: n // k elements each, one
//   (x, k, dim)                more in each of the first n % k
//   tensor_split.indices       slices between the indices, each clamped as
//   (x, idx, dim)              slice clamps them
//   unflatten.int(x, d, s)     reshape with s (a -1 inferred) in place of d
//   sum_to_size(x, s)          sum (promoting as sum does) over the leading
//                              dims and the dims s makes 1, kept, viewed as
//                              s; sum of all for s = []; x when s is x's
//                              sizes
//   prelu(x, w)                where(x > 0, x, w * x), w of one element or
//                              of x.size(1) elements along dim 1
//   allclose(a, b, rt, at, n)  Bool(all(isclose(a, b, rt, at, n)))
//   special_xlog1py (Tensor,   x * log1p(y) in the promoted dtype (ints as
//   .other_scalar,             the default float; f16 and bf16 computed in
//   .self_scalar)              f32 and rounded, bf16's log1p too), 0 where
//                              x == 0, NaN where y is NaN
//   aminmax(x, dim?, keepdim)  amin and amax (over every dim without dim)
//   logcumsumexp(x, d)         at i, logsumexp over j <= i (the others -inf)
//                              of an [..., n, n] copy, in f64 as PyTorch
//                              accumulates
//   cummax, cummin(x, d)       at i, the last j <= i where x_j is NaN or,
//                              with no NaN up to i, equals the max (min) of
//                              x_0..x_i (PyTorch's `>=` / `<=` scan keeps the
//                              latest of equal elements and stops at a NaN);
//                              the values are x gathered there. Computed on
//                              [..., n, n] masks: O(n^2) per row
//
//===----------------------------------------------------------------------===//

#include "DecomposeUtils.h"
#include "ShapeRuleUtils.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::decompose;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool isLong(Type dtype) { return dtype && dtype.isSignedInteger(64); }

/// `sizes` with 1 everywhere but `size` at `dim` (none for rank 0): a
/// vector along `dim` viewed to broadcast against a tensor of `rank`.
SmallVector<int64_t> alongDim(int64_t rank, int64_t dim, int64_t size) {
  SmallVector<int64_t> shape(rank, 1);
  if (rank > 0)
    shape[dim] = size;
  return shape;
}

/// The ts ops the decompositions below build, with unrefined types.
struct IndexingBuilder : TSBuilder {
  /// A number as a 0-d tensor (bool as Bool, int as Long, float as Double).
  Value numToTensor(Value number) {
    if (llvm::isa<ts::BoolType>(number.getType()))
      return PrimNumToTensorBoolOp::create(b, loc, tensor(), number);
    return PrimNumToTensorScalarOp::create(b, loc, tensor(), number);
  }
  Value zerosLong(ArrayRef<int64_t> shape) { return zeros(shape, kLong); }
  /// `x` of `from` sizes expanded to `to` (itself when they are equal).
  Value expandTo(Value x, ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
    return llvm::equal(from, to) ? x : expand(x, to);
  }
  /// The `Tensor?[]` of one index tensor (for index.Tensor and index_put).
  Value indexList(Value index) {
    Type element = ts::OptionalType::get(ctx(), tensor());
    return PrimListConstructOp::create(
        b, loc, ts::ListType::get(ctx(), element), ValueRange{index});
  }
  /// The Long `index` with `size` added to its negative entries.
  Value wrapIndex(Value index, int64_t size) {
    Value negative = AtenLtScalarOp::create(b, loc, tensor(), index, i(0));
    Value shifted =
        AtenAddScalarOp::create(b, loc, tensor(), index, i(size), i(1));
    return where(negative, shifted, index);
  }
  /// The [n, n] Bool of j <= i (row i, column j).
  Value lowerTriangle(int64_t n) {
    Value j = arange(n);
    return AtenLeTensorOp::create(b, loc, tensor(), unsqueeze(j, 0),
                                  unsqueeze(j, 1));
  }
  /// `x` with dims `dim` and `last` swapped (itself when they are equal):
  /// its own inverse.
  Value swapToLast(Value x, int64_t dim, int64_t last) {
    return dim == last ? x : transpose(x, dim, last);
  }
};

/// Replaces `op` by `results` (replaceWithDeclaredTypes) and succeeds.
LogicalResult replace(PatternRewriter &rewriter, Operation *op,
                      SmallVector<Value> results) {
  replaceWithDeclaredTypes(rewriter, op, std::move(results));
  return success();
}

//===----------------------------------------------------------------------===//
// Reading and writing at indices
//===----------------------------------------------------------------------===//

/// take(self, index): self flattened, indexed by index (of any shape).
struct DecomposeTake : public OpRewritePattern<AtenTakeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenTakeOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> self = staticSizes(op.getSelf());
    if (!self || !isLong(dtypeOf(op.getIndex())))
      return rewriter.notifyMatchFailure(op, "static sizes and a Long index "
                                             "expected");
    IndexingBuilder t{{rewriter, op.getLoc()}};
    Value flat = t.reshape(op.getSelf(), {shape::numElements(*self)});
    Value taken = AtenIndexTensorOp::create(rewriter, op.getLoc(), t.tensor(),
                                            flat, t.indexList(op.getIndex()));
    return replace(rewriter, op, {taken});
  }
};

/// take_along_dim(self, indices, dim?).
struct DecomposeTakeAlongDim : public OpRewritePattern<AtenTakeAlongDimOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenTakeAlongDimOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> self = staticSizes(op.getSelf());
    std::optional<SmallVector<int64_t>> indices = staticSizes(op.getIndices());
    if (!self || !indices || !isLong(dtypeOf(op.getIndices())))
      return rewriter.notifyMatchFailure(op, "static sizes and Long indices "
                                             "expected");
    if (llvm::isa<ts::NoneType>(op.getDim().getType())) {
      IndexingBuilder t{{rewriter, op.getLoc()}};
      Value flat = t.reshape(op.getSelf(), {shape::numElements(*self)});
      Value index = t.reshape(op.getIndices(), {shape::numElements(*indices)});
      return replace(rewriter, op, {t.gather(flat, 0, index)});
    }
    std::optional<int64_t> dimArg = constInt(op.getDim());
    int64_t rank = self->size();
    if (!dimArg || rank == 0 || static_cast<int64_t>(indices->size()) != rank)
      return rewriter.notifyMatchFailure(op, "a constant dim and indices of "
                                             "self's rank (at least 1) "
                                             "expected");
    std::optional<int64_t> dim = shape::wrapDim(*dimArg, rank);
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim out of range");
    // Each broadcast to the other's sizes, but for its own size at dim.
    SmallVector<int64_t> selfAtDim(*self), indicesAtDim(*indices);
    selfAtDim[*dim] = (*indices)[*dim];
    indicesAtDim[*dim] = (*self)[*dim];
    shape::Sizes indexShape = shape::broadcast({selfAtDim, *indices});
    shape::Sizes selfShape = shape::broadcast({indicesAtDim, *self});
    if (!indexShape || !selfShape)
      return rewriter.notifyMatchFailure(op, "sizes do not broadcast");
    IndexingBuilder t{{rewriter, op.getLoc()}};
    Value source = t.expandTo(op.getSelf(), *self, *selfShape);
    Value index = t.expandTo(op.getIndices(), *indices, *indexShape);
    return replace(rewriter, op, {t.gather(source, *dim, index)});
  }
};

/// put(self, index, source, accumulate).
struct DecomposePut : public OpRewritePattern<AtenPutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenPutOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> self = staticSizes(op.getSelf());
    std::optional<SmallVector<int64_t>> index = staticSizes(op.getIndex());
    std::optional<SmallVector<int64_t>> source = staticSizes(op.getSource());
    Type dtype = dtypeOf(op.getSelf());
    if (!self || !index || !source || !dtype ||
        dtypeOf(op.getSource()) != dtype || !isLong(dtypeOf(op.getIndex())))
      return rewriter.notifyMatchFailure(op, "static sizes, a Long index and "
                                             "a source of self's dtype "
                                             "expected");
    int64_t m = shape::numElements(*index);
    if (shape::numElements(*source) != m)
      return rewriter.notifyMatchFailure(op, "source and index differ in "
                                             "size");
    IndexingBuilder t{{rewriter, op.getLoc()}};
    if (m == 0)
      return replace(rewriter, op, {t.clone(op.getSelf())});
    Value flat = t.reshape(op.getSelf(), {shape::numElements(*self)});
    Value put = AtenIndexPutOp::create(
        rewriter, op.getLoc(), t.tensor(), flat,
        t.indexList(t.reshape(op.getIndex(), {m})),
        t.reshape(op.getSource(), {m}), op.getAccumulate());
    return replace(rewriter, op, {t.reshape(put, *self)});
  }
};

/// index_fill.int_Scalar and .int_Tensor(self, dim, index, value): value
/// (a number, or a 0-d tensor) cast to self's dtype where index names the
/// position along dim.
template <typename OpTy>
struct DecomposeIndexFill : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> self = staticSizes(op.getSelf());
    std::optional<SmallVector<int64_t>> index = staticSizes(op.getIndex());
    std::optional<int64_t> dimArg = constInt(op.getDim());
    Type dtype = dtypeOf(op.getSelf());
    if (!self || !index || !dimArg || !dtype || !getScalarTypeCode(dtype) ||
        !isLong(dtypeOf(op.getIndex())) || index->size() > 1)
      return rewriter.notifyMatchFailure(op, "static sizes, a constant dim "
                                             "and a 0-d or 1-d Long index "
                                             "expected");
    Value value = op.getValue();
    bool tensorValue = llvm::isa<ts::TensorType>(value.getType());
    if (tensorValue) {
      std::optional<SmallVector<int64_t>> valueSizes = staticSizes(value);
      if (!valueSizes || !valueSizes->empty())
        return rewriter.notifyMatchFailure(op, "the value is not known to be "
                                               "0-d");
    }
    int64_t rank = self->size();
    std::optional<int64_t> dim = shape::wrapDim(*dimArg, rank);
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim out of range");
    int64_t size = rank == 0 ? 1 : (*self)[*dim];
    int64_t k = shape::numElements(*index);
    IndexingBuilder t{{rewriter, op.getLoc()}};
    if (k == 0)
      return replace(rewriter, op, {t.clone(op.getSelf())});
    Value fill = t.castTo(tensorValue ? value : t.numToTensor(value), dtype);
    Value positions = t.wrapIndex(t.reshape(op.getIndex(), {k}), size);
    Value named = AtenEqTensorOp::create(rewriter, op.getLoc(), t.tensor(),
                                         t.unsqueeze(t.arange(size), 1),
                                         t.unsqueeze(positions, 0));
    Value hit = t.anyDim(named, 1, false);
    Value mask = t.reshape(hit, alongDim(rank, *dim, size));
    return replace(rewriter, op, {t.where(mask, fill, op.getSelf())});
  }
};

/// index_copy(self, dim, index, source): source's slice i along dim written
/// at index[i] (the last of repeated indices wins, as on PyTorch's CPU).
struct DecomposeIndexCopy : public OpRewritePattern<AtenIndexCopyOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenIndexCopyOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> self = staticSizes(op.getSelf());
    std::optional<SmallVector<int64_t>> index = staticSizes(op.getIndex());
    std::optional<SmallVector<int64_t>> source = staticSizes(op.getSource());
    std::optional<int64_t> dimArg = constInt(op.getDim());
    Type dtype = dtypeOf(op.getSelf());
    if (!self || !index || !source || !dimArg || !dtype ||
        dtypeOf(op.getSource()) != dtype || !isLong(dtypeOf(op.getIndex())) ||
        index->size() > 1)
      return rewriter.notifyMatchFailure(op, "static sizes, a constant dim, "
                                             "a 0-d or 1-d Long index and a "
                                             "source of self's dtype "
                                             "expected");
    int64_t rank = self->size();
    std::optional<int64_t> dim = shape::wrapDim(*dimArg, rank);
    int64_t k = shape::numElements(*index);
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim out of range");
    // A 0-d self takes one element; a 0-d source is the one slice of a 1-d
    // self; otherwise source has self's sizes but k at dim.
    SmallVector<int64_t> slices(*source);
    if (source->empty() && rank == 1)
      slices = {1};
    bool fits = rank == 0 ? k == 1 && shape::numElements(*source) == 1
                          : static_cast<int64_t>(slices.size()) == rank;
    for (int64_t d = 0; fits && d < rank; ++d)
      fits = slices[d] == (d == *dim ? k : (*self)[d]);
    if (!fits)
      return rewriter.notifyMatchFailure(op, "source does not fit self and "
                                             "index");
    IndexingBuilder t{{rewriter, op.getLoc()}};
    if (rank == 0)
      return replace(rewriter, op, {t.reshape(t.clone(op.getSource()), {})});
    if (k == 0)
      return replace(rewriter, op, {t.clone(op.getSelf())});
    Value src = source->empty() ? t.reshape(op.getSource(), slices)
                                : Value(op.getSource());
    Value at =
        t.expand(t.reshape(op.getIndex(), alongDim(rank, *dim, k)), slices);
    Value result = AtenScatterSrcOp::create(rewriter, op.getLoc(), t.tensor(),
                                            op.getSelf(), t.i(*dim), at, src);
    return replace(rewriter, op, {result});
  }
};

/// index_reduce(self, dim, index, source, reduce, include_self): source's
/// slice i along dim reduced ('prod', 'mean', 'amax', 'amin') into self's
/// slice index[i]; scatter_reduce with the index spread over the slice.
struct DecomposeIndexReduce : public OpRewritePattern<AtenIndexReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenIndexReduceOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> self = staticSizes(op.getSelf());
    std::optional<SmallVector<int64_t>> index = staticSizes(op.getIndex());
    std::optional<SmallVector<int64_t>> source = staticSizes(op.getSource());
    std::optional<int64_t> dimArg = constInt(op.getDim());
    std::optional<StringRef> reduce = constStr(op.getReduce());
    Type dtype = dtypeOf(op.getSelf());
    if (!self || !index || !source || !dimArg || !reduce || !dtype ||
        dtypeOf(op.getSource()) != dtype || !isLong(dtypeOf(op.getIndex())) ||
        index->size() > 1 ||
        !llvm::is_contained({"prod", "mean", "amax", "amin"}, *reduce))
      return rewriter.notifyMatchFailure(op, "static sizes, a constant dim "
                                             "and reduction, a 0-d or 1-d "
                                             "Long index and a source of "
                                             "self's dtype expected");
    int64_t rank = self->size();
    std::optional<int64_t> dim = shape::wrapDim(*dimArg, rank);
    int64_t k = shape::numElements(*index);
    if (!dim || source->size() != self->size())
      return rewriter.notifyMatchFailure(op, "dim out of range or source of "
                                             "another rank");
    for (int64_t d = 0; d < rank; ++d)
      if ((*source)[d] != (d == *dim ? k : (*self)[d]))
        return rewriter.notifyMatchFailure(op, "source does not fit self and "
                                               "index");
    IndexingBuilder t{{rewriter, op.getLoc()}};
    // A 0-d self is one slice of one element.
    SmallVector<int64_t> slices = rank ? *source : SmallVector<int64_t>{1};
    Value target = rank ? op.getSelf() : t.reshape(op.getSelf(), {1});
    Value src = rank ? op.getSource() : t.reshape(op.getSource(), {1});
    Value at = t.expand(
        t.reshape(op.getIndex(), alongDim(slices.size(), *dim, k)), slices);
    Value result = AtenScatterReduceTwoOp::create(
        rewriter, op.getLoc(), t.tensor(), target, t.i(*dim), at, src,
        op.getReduce(), op.getIncludeSelf());
    return replace(rewriter, op, {rank ? result : t.reshape(result, {})});
  }
};

/// segment_reduce(data, reduce, lengths? | offsets?, axis, unsafe,
/// initial?): data along axis cut into consecutive segments of the given
/// lengths (one row of lengths per index of the dims before axis), each
/// reduced ('max', 'min', 'sum', 'prod', 'mean') from `initial` (or the
/// reduction's identity); an empty segment's mean is `initial`, or NaN.
/// Each element is scattered into its segment, counted from cumulative
/// lengths; elements past the last segment go to an extra one, dropped.
struct DecomposeSegmentReduce : public OpRewritePattern<AtenSegmentReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenSegmentReduceOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> data = staticSizes(op.getData());
    std::optional<StringRef> reduce = constStr(op.getReduce());
    std::optional<int64_t> axisArg = constInt(op.getAxis());
    Type dtype = dtypeOf(op.getData());
    bool byLengths = !isNone(op.getLengths());
    Value cuts = byLengths ? op.getLengths() : op.getOffsets();
    std::optional<SmallVector<int64_t>> cutSizes =
        isNone(cuts) ? std::nullopt : staticSizes(cuts);
    std::optional<double> initial;
    if (!isNone(op.getInitial()) && !(initial = constFloat(op.getInitial())))
      return rewriter.notifyMatchFailure(op, "initial not constant");
    if (!data || !reduce || !axisArg || !dtype || !shape::isFloatDtype(dtype) ||
        !cutSizes || !isNone(op.getIndices()) ||
        (byLengths && !isNone(op.getOffsets())) ||
        !llvm::is_contained({"max", "min", "sum", "prod", "mean"}, *reduce))
      return rewriter.notifyMatchFailure(op, "static float data, constant "
                                             "reduction and axis, and static "
                                             "lengths or offsets expected");
    int64_t rank = data->size();
    std::optional<int64_t> axis = shape::wrapDim(*axisArg, rank);
    if (!axis || rank == 0 ||
        static_cast<int64_t>(cutSizes->size()) != *axis + 1 ||
        !llvm::equal(ArrayRef(*cutSizes).drop_back(),
                     ArrayRef(*data).take_front(*axis)) ||
        (!byLengths && cutSizes->back() == 0))
      return rewriter.notifyMatchFailure(op, "lengths or offsets do not fit "
                                             "the dims before axis");
    IndexingBuilder t{{rewriter, op.getLoc()}};
    Location loc = op.getLoc();
    int64_t segments = cutSizes->back() - (byLengths ? 0 : 1);
    int64_t n = (*data)[*axis];
    Value lengths = isLong(dtypeOf(cuts)) ? cuts : t.to(cuts, kLong);
    if (!byLengths)
      lengths = t.sub(t.narrow(lengths, *axis, 1, segments),
                      t.narrow(lengths, *axis, 0, segments));
    // segment(j) = how many segment ends are at or before j: [..., n].
    Value ends = AtenCumsumOp::create(rewriter, loc, t.tensor(), lengths,
                                      t.i(*axis), t.none());
    Value positions = t.reshape(t.arange(n), {n, 1});
    Value segment = AtenSumDimIntListOp::create(
        rewriter, loc, t.tensor(),
        AtenLeTensorOp::create(rewriter, loc, t.tensor(), t.unsqueeze(ends, -2),
                               positions),
        t.sizes({-1}), t.flag(false), t.i(kLong));
    SmallVector<int64_t> spread(*data);
    for (int64_t d = *axis + 1; d < rank; ++d)
      spread[d] = 1;
    Value at = t.expand(t.reshape(segment, spread), *data);
    SmallVector<int64_t> outSizes(*data);
    outSizes[*axis] = segments + 1;
    double identity = *reduce == "max"    ? -kInf
                      : *reduce == "min"  ? kInf
                      : *reduce == "prod" ? 1.0
                                          : 0.0;
    Value start = AtenFullOp::create(
        rewriter, loc, t.tensor(), t.sizes(outSizes),
        t.f(initial.value_or(identity)), t.i(*getScalarTypeCode(dtype)),
        t.none(), t.none(), t.none());
    StringRef scatter = *reduce == "max"    ? "amax"
                        : *reduce == "min"  ? "amin"
                        : *reduce == "prod" ? "prod"
                                            : "sum";
    Value result = t.narrow(AtenScatterReduceTwoOp::create(
                                rewriter, loc, t.tensor(), start, t.i(*axis),
                                at, op.getData(), t.str(scatter), t.flag(true)),
                            *axis, 0, segments);
    if (*reduce == "mean") {
      SmallVector<int64_t> perSegment(outSizes);
      perSegment[*axis] = segments;
      for (int64_t d = *axis + 1; d < rank; ++d)
        perSegment[d] = 1;
      Value count = t.reshape(lengths, perSegment);
      Value some =
          AtenGtScalarOp::create(rewriter, loc, t.tensor(), count, t.i(0));
      Value mean = t.div(result, t.castTo(count, dtype));
      result = t.whereNumber(
          t.logicalNot(some),
          t.f(initial.value_or(std::numeric_limits<double>::quiet_NaN())),
          mean);
    }
    return replace(rewriter, op, {result});
  }
};

/// masked_scatter(self, mask, source): self and mask broadcast together; the
/// set elements take source's elements in order.
struct DecomposeMaskedScatter : public OpRewritePattern<AtenMaskedScatterOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenMaskedScatterOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> self = staticSizes(op.getSelf());
    std::optional<SmallVector<int64_t>> mask = staticSizes(op.getMask());
    std::optional<SmallVector<int64_t>> source = staticSizes(op.getSource());
    Type dtype = dtypeOf(op.getSelf());
    Type maskType = dtypeOf(op.getMask());
    // uint8 masks are deprecated but still accepted by PyTorch 1.13.
    bool byteMask = maskType && maskType.isUnsignedInteger(8);
    if (!self || !mask || !source || !dtype ||
        dtypeOf(op.getSource()) != dtype || !maskType ||
        !(maskType.isInteger(1) || byteMask))
      return rewriter.notifyMatchFailure(op, "static sizes, a Bool mask and "
                                             "a source of self's dtype "
                                             "expected");
    shape::Sizes shape = shape::broadcast({*self, *mask});
    if (!shape)
      return rewriter.notifyMatchFailure(op, "sizes do not broadcast");
    int64_t n = shape::numElements(*shape), m = shape::numElements(*source);
    IndexingBuilder t{{rewriter, op.getLoc()}};
    Value full = t.expandTo(op.getSelf(), *self, *shape);
    // Without source elements, no element may be set (PyTorch raises).
    if (n == 0 || m == 0)
      return replace(rewriter, op, {t.clone(full)});
    Value set = t.reshape(t.expandTo(op.getMask(), *mask, *shape), {n});
    if (byteMask)
      set = AtenNeScalarOp::create(rewriter, op.getLoc(), t.tensor(), set,
                                   t.i(0));
    // Each element's rank among the set ones (clamped: an unset element
    // reads any element of source, which where() discards).
    Value count = AtenCumsumOp::create(rewriter, op.getLoc(), t.tensor(), set,
                                       t.i(0), t.i(kLong));
    Value position = AtenClampOp::create(
        rewriter, op.getLoc(), t.tensor(),
        AtenSubScalarOp::create(rewriter, op.getLoc(), t.tensor(), count,
                                t.i(1), t.i(1)),
        t.i(0), t.i(m - 1));
    Value taken = t.indexSelect(t.reshape(op.getSource(), {m}), 0, position);
    Value result = t.where(set, taken, t.reshape(full, {n}));
    return replace(rewriter, op, {t.reshape(result, *shape)});
  }
};

//===----------------------------------------------------------------------===//
// Splitting and reshaping
//===----------------------------------------------------------------------===//

/// The [start, end) of slice(start, end) along a dim of `size`, clamped as
/// aten::slice clamps them.
std::pair<int64_t, int64_t> clampedSlice(int64_t start, int64_t end,
                                         int64_t size) {
  if (start < 0)
    start += size;
  if (end < 0)
    end += size;
  start = std::clamp<int64_t>(start, 0, size);
  end = std::clamp<int64_t>(end, start, size);
  return {start, end};
}

/// tensor_split.sections(self, sections, dim) and .indices(self, indices,
/// dim): a list of slices along dim.
template <typename OpTy>
struct DecomposeTensorSplit : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<int64_t> dimArg = constInt(op.getDim());
    if (!sizes || sizes->empty() || !dimArg)
      return rewriter.notifyMatchFailure(op, "static sizes (at least 1-d) "
                                             "and a constant dim expected");
    std::optional<int64_t> dim = shape::wrapDim(*dimArg, sizes->size());
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim out of range");
    int64_t n = (*sizes)[*dim];
    SmallVector<std::pair<int64_t, int64_t>> bounds;
    if constexpr (std::is_same_v<OpTy, AtenTensorSplitSectionsOp>) {
      std::optional<int64_t> sections = constInt(op.getSections());
      if (!sections || *sections <= 0)
        return rewriter.notifyMatchFailure(op, "sections is not a positive "
                                               "constant");
      int64_t start = 0;
      for (int64_t s = 0; s < *sections; ++s) {
        int64_t length = n / *sections + (s < n % *sections ? 1 : 0);
        bounds.push_back({start, start + length});
        start += length;
      }
    } else {
      std::optional<SmallVector<int64_t>> indices =
          constIntList(op.getIndices());
      if (!indices)
        return rewriter.notifyMatchFailure(op, "indices not constant");
      // Each slice starts where the previous one was asked to end.
      int64_t start = 0;
      for (int64_t end : *indices) {
        bounds.push_back(clampedSlice(start, end, n));
        start = end;
      }
      bounds.push_back(clampedSlice(start, n, n));
    }
    IndexingBuilder t{{rewriter, op.getLoc()}};
    SmallVector<Value> pieces;
    for (auto [start, end] : bounds)
      pieces.push_back(t.slice(op.getSelf(), *dim, start, end));
    rewriter.replaceOpWithNewOp<PrimListConstructOp>(
        op, op.getOperation()->getResult(0).getType(), pieces);
    return success();
  }
};

/// unflatten.int(self, dim, sizes).
struct DecomposeUnflatten : public OpRewritePattern<AtenUnflattenIntOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenUnflattenIntOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<int64_t> dimArg = constInt(op.getDim());
    std::optional<SmallVector<int64_t>> split = constIntList(op.getSizes());
    if (!sizes || sizes->empty() || !dimArg || !split || split->empty())
      return rewriter.notifyMatchFailure(op, "static sizes (at least 1-d), a "
                                             "constant dim and constant "
                                             "sizes expected");
    std::optional<int64_t> dim = shape::wrapDim(*dimArg, sizes->size());
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim out of range");
    // at::infer_size: one -1, inferred when the others' product divides
    // the size (and is not 0).
    int64_t n = (*sizes)[*dim], product = 1;
    int64_t *inferred = nullptr;
    for (int64_t &s : *split) {
      if (s == -1 && !inferred)
        inferred = &s;
      else if (s < 0)
        return rewriter.notifyMatchFailure(op, "invalid sizes");
      else
        product *= s;
    }
    if (inferred) {
      if (product == 0 || n % product != 0)
        return rewriter.notifyMatchFailure(op, "the -1 cannot be inferred");
      *inferred = n / product;
    } else if (product != n) {
      return rewriter.notifyMatchFailure(op, "sizes do not multiply to the "
                                             "dim's size");
    }
    SmallVector<int64_t> shape(sizes->begin(), sizes->begin() + *dim);
    llvm::append_range(shape, *split);
    shape.append(sizes->begin() + *dim + 1, sizes->end());
    IndexingBuilder t{{rewriter, op.getLoc()}};
    return replace(rewriter, op, {t.reshape(op.getSelf(), shape)});
  }
};

/// sum_to_size(self, size): at::sum_to.
struct DecomposeSumToSize : public OpRewritePattern<AtenSumToSizeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenSumToSizeOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<SmallVector<int64_t>> target = constIntList(op.getSize());
    if (!sizes || !target)
      return rewriter.notifyMatchFailure(op, "static sizes and a constant "
                                             "size expected");
    int64_t rank = sizes->size(), leading = rank - target->size();
    if (leading < 0)
      return rewriter.notifyMatchFailure(op, "size is not expandable to "
                                             "self's sizes");
    SmallVector<int64_t> reduced;
    for (int64_t d = 0; d < rank; ++d) {
      if (d < leading) {
        reduced.push_back(d);
        continue;
      }
      int64_t want = (*target)[d - leading];
      if (want != (*sizes)[d] && want != 1)
        return rewriter.notifyMatchFailure(op, "size is not expandable to "
                                               "self's sizes");
      if (want == 1 && (*sizes)[d] != 1)
        reduced.push_back(d);
    }
    IndexingBuilder t{{rewriter, op.getLoc()}};
    if (target->empty())
      return replace(rewriter, op,
                     {AtenSumOp::create(rewriter, op.getLoc(), t.tensor(),
                                        op.getSelf(), t.none())});
    Value x = op.getSelf();
    if (!reduced.empty())
      x = AtenSumDimIntListOp::create(rewriter, op.getLoc(), t.tensor(), x,
                                      t.sizes(reduced), t.flag(true), t.none());
    if (leading > 0)
      x = t.reshape(x, *target);
    return replace(rewriter, op, {x});
  }
};

//===----------------------------------------------------------------------===//
// Element-wise
//===----------------------------------------------------------------------===//

/// prelu(self, weight).
struct DecomposePrelu : public OpRewritePattern<AtenPreluOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenPreluOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> self = staticSizes(op.getSelf());
    std::optional<SmallVector<int64_t>> weight = staticSizes(op.getWeight());
    Type dtype = dtypeOf(op.getSelf());
    if (!self || !weight || !dtype || !shape::isFloatDtype(dtype) ||
        dtypeOf(op.getWeight()) != dtype || dtype.isF16() || weight->size() > 1)
      return rewriter.notifyMatchFailure(op, "static sizes, a float32, "
                                             "float64 or bfloat16 self and a "
                                             "0-d or 1-d weight of its dtype "
                                             "expected");
    int64_t rank = self->size(), count = shape::numElements(*weight);
    // PyTorch 1.13 reads a weight of several elements along dim 1 (so a 1-d
    // self takes a weight of one element only).
    if (count != 1 && (rank < 2 || (*self)[1] != count))
      return rewriter.notifyMatchFailure(op, "the weight is neither one "
                                             "element nor one per channel "
                                             "(dim 1)");
    IndexingBuilder t{{rewriter, op.getLoc()}};
    SmallVector<int64_t> perChannel =
        count == 1 ? SmallVector<int64_t>{} : alongDim(rank - 1, 0, count);
    Value w = t.reshape(op.getWeight(), perChannel);
    Value positive = AtenGtScalarOp::create(rewriter, op.getLoc(), t.tensor(),
                                            op.getSelf(), t.i(0));
    Value result = t.where(positive, op.getSelf(), t.mul(w, op.getSelf()));
    return replace(rewriter, op, {result});
  }
};

/// allclose(self, other, rtol, atol, equal_nan) -> bool.
struct DecomposeAllclose : public OpRewritePattern<AtenAllcloseOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenAllcloseOp op,
                                PatternRewriter &rewriter) const override {
    // What isclose's decomposition needs, so that a refusal names allclose.
    if (!constFloat(op.getRtol()) || !constFloat(op.getAtol()) ||
        !constBool(op.getEqualNan()) || !dtypeOf(op.getSelf()))
      return rewriter.notifyMatchFailure(op, "tolerances, equal_nan or dtype "
                                             "not known");
    IndexingBuilder t{{rewriter, op.getLoc()}};
    Value close = AtenIscloseOp::create(
        rewriter, op.getLoc(), t.tensor(), op.getSelf(), op.getOther(),
        op.getRtol(), op.getAtol(), op.getEqualNan());
    Value all = AtenAllOp::create(rewriter, op.getLoc(), t.tensor(), close);
    Value result = AtenBoolTensorOp::create(rewriter, op.getLoc(),
                                            ts::BoolType::get(t.ctx()), all);
    return replace(rewriter, op, {result});
  }
};

/// special_xlog1py(self, other) and its .other_scalar / .self_scalar forms:
/// PyTorch's xlog1py kernel, `isnan(y) ? NaN : x == 0 ? 0 : x * log1p(y)`,
/// on the operands cast to the promoted float dtype. f16 and bf16 compute
/// in f32 (as their arithmetic does) and round the result (bf16 its log1p
/// too, as c10's BFloat16 log1p does).
template <typename OpTy>
struct DecomposeXlog1py : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    SmallVector<Value, 2> operands = {raw->getOperand(0), raw->getOperand(1)};
    Type common = shape::getResultType(operands, ShapeFacts());
    if (!common || shape::isComplexDtype(common))
      return rewriter.notifyMatchFailure(op, "the promoted dtype is not "
                                             "known or complex");
    Type dtype = shape::toFloatIfIntegral(common);
    std::optional<int64_t> code = getScalarTypeCode(dtype);
    if (!code)
      return rewriter.notifyMatchFailure(op, "unknown dtype");
    bool reduced = dtype.isF16() || dtype.isBF16();
    IndexingBuilder t{{rewriter, op.getLoc()}};
    auto prepare = [&](Value v) {
      if (!llvm::isa<ts::TensorType>(v.getType()))
        v = t.numToTensor(v);
      v = t.castTo(v, dtype);
      return reduced ? t.to(v, kFloat) : v;
    };
    Value x = prepare(operands[0]), y = prepare(operands[1]);
    Value log1p = AtenLog1pOp::create(rewriter, op.getLoc(), t.tensor(), y);
    // c10's log1p of a BFloat16 returns a BFloat16: rounded before the
    // product (a Half becomes a float, unrounded).
    if (dtype.isBF16())
      log1p = t.to(t.to(log1p, *code), kFloat);
    Value product = t.mul(x, log1p);
    Value zero =
        AtenEqScalarOp::create(rewriter, op.getLoc(), t.tensor(), x, t.i(0));
    Value result = AtenMaskedFillScalarOp::create(
        rewriter, op.getLoc(), t.tensor(), product, zero, t.i(0));
    Value nan = t.isnan(y);
    result = AtenMaskedFillScalarOp::create(
        rewriter, op.getLoc(), t.tensor(), result, nan,
        t.f(std::numeric_limits<double>::quiet_NaN()));
    if (reduced)
      result = t.to(result, *code);
    return replace(rewriter, op, {result});
  }
};

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

/// aminmax(self, dim?, keepdim): (amin, amax). PyTorch raises on an empty
/// reduction; a 0-d self is its own min and max (of shape [1] with a dim
/// and keepdim, as PyTorch gives).
struct DecomposeAminmax : public OpRewritePattern<AtenAminmaxOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenAminmaxOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    if (!sizes)
      return rewriter.notifyMatchFailure(op, "static sizes expected");
    int64_t rank = sizes->size();
    bool allDims = llvm::isa<ts::NoneType>(op.getDim().getType());
    std::optional<int64_t> dim;
    if (!allDims) {
      std::optional<int64_t> dimArg = constInt(op.getDim());
      dim = dimArg ? shape::wrapDim(*dimArg, rank) : std::nullopt;
      if (!dim)
        return rewriter.notifyMatchFailure(op, "dim not a constant in range");
    }
    int64_t reducedCount =
        allDims || rank == 0 ? shape::numElements(*sizes) : (*sizes)[*dim];
    if (reducedCount == 0)
      return rewriter.notifyMatchFailure(op, "an empty reduction (PyTorch "
                                             "raises)");
    // A 0-d self is its own min and max, viewed as [1] with a dim and
    // keepdim (PyTorch's shape).
    std::optional<bool> keepdim = constBool(op.getKeepdim());
    if (rank == 0 && !allDims && !keepdim)
      return rewriter.notifyMatchFailure(op, "keepdim not constant");
    IndexingBuilder t{{rewriter, op.getLoc()}};
    if (rank == 0) {
      auto copy = [&] {
        Value x = t.clone(op.getSelf());
        return !allDims && *keepdim ? t.reshape(x, {1}) : x;
      };
      return replace(rewriter, op, {copy(), copy()});
    }
    SmallVector<int64_t> dims;
    if (dim)
      dims.push_back(*dim);
    Value min =
        AtenAminOp::create(rewriter, op.getLoc(), t.tensor(), op.getSelf(),
                           t.sizes(dims), op.getKeepdim());
    Value max =
        AtenAmaxOp::create(rewriter, op.getLoc(), t.tensor(), op.getSelf(),
                           t.sizes(dims), op.getKeepdim());
    return replace(rewriter, op, {min, max});
  }
};

/// What the scans along a dim read: the operand's static sizes, its dtype
/// and the constant dim, wrapped (failure when one is not known).
struct ScanOperand {
  SmallVector<int64_t> sizes;
  Type dtype;
  int64_t dim = 0;
};

FailureOr<ScanOperand> readScanOperand(Value self, Value dimValue) {
  std::optional<SmallVector<int64_t>> sizes = staticSizes(self);
  std::optional<int64_t> dimArg = constInt(dimValue);
  Type dtype = dtypeOf(self);
  if (!sizes || !dimArg || !dtype)
    return failure();
  std::optional<int64_t> dim = shape::wrapDim(*dimArg, sizes->size());
  if (!dim)
    return failure();
  return ScanOperand{*sizes, dtype, *dim};
}

/// logcumsumexp(self, dim).
struct DecomposeLogcumsumexp : public OpRewritePattern<AtenLogcumsumexpOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenLogcumsumexpOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<ScanOperand> in = readScanOperand(op.getSelf(), op.getDim());
    // PyTorch 1.13's CPU kernel takes float, double and bfloat16.
    if (failed(in) || !shape::isFloatDtype(in->dtype) || in->dtype.isF16())
      return rewriter.notifyMatchFailure(op, "static sizes, a constant dim "
                                             "and a float32, float64 or "
                                             "bfloat16 self expected");
    IndexingBuilder t{{rewriter, op.getLoc()}};
    // A single element is itself (-inf, inf and NaN included).
    if (in->sizes.empty() || shape::numElements(in->sizes) == 0)
      return replace(rewriter, op, {t.clone(op.getSelf())});
    int64_t rank = in->sizes.size(), n = in->sizes[in->dim];
    Value x = t.swapToLast(t.castTo(op.getSelf(), t.b.getF64Type()), in->dim,
                           rank - 1);
    // [..., i, j]: x_j for j <= i, -inf after.
    Value prefix = AtenWhereScalarOtherOp::create(
        rewriter, op.getLoc(), t.tensor(), t.lowerTriangle(n),
        t.unsqueeze(x, -2), t.f(-kInf));
    Value result =
        AtenLogsumexpOp::create(rewriter, op.getLoc(), t.tensor(), prefix,
                                t.sizes({-1}), t.flag(false));
    result = t.swapToLast(result, in->dim, rank - 1);
    if (!in->dtype.isF64())
      result = t.to(result, *getScalarTypeCode(in->dtype));
    return replace(rewriter, op, {result});
  }
};

/// cummax(self, dim) and cummin(self, dim) -> (values, indices).
template <typename OpTy, bool isMax>
struct DecomposeCumExtreme : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    FailureOr<ScanOperand> in = readScanOperand(op.getSelf(), op.getDim());
    // PyTorch 1.13's CPU kernels take every real dtype but float16.
    if (failed(in) || shape::isComplexDtype(in->dtype) || in->dtype.isF16())
      return rewriter.notifyMatchFailure(op, "static sizes, a constant dim "
                                             "and a real dtype other than "
                                             "float16 expected");
    IndexingBuilder t{{rewriter, op.getLoc()}};
    if (in->sizes.empty() || shape::numElements(in->sizes) == 0)
      return replace(rewriter, op,
                     {t.clone(op.getSelf()), t.zerosLong(in->sizes)});
    int64_t rank = in->sizes.size(), n = in->sizes[in->dim];
    Location loc = op.getLoc();
    Value x = t.swapToLast(op.getSelf(), in->dim, rank - 1);
    // Bools compare as Long.
    Value keys = shape::isBoolDtype(in->dtype) ? t.to(x, kLong) : x;
    Value later = t.unsqueeze(keys, -2); // [..., 1, n]: x_j
    Value triangle = t.lowerTriangle(n); // [n, n]: j <= i
    // x_j for j <= i, x_0 (which every prefix holds) after: their extreme
    // is the prefix's.
    Value first = t.unsqueeze(t.narrow(keys, rank - 1, 0, 1), -1);
    Value prefix = t.where(triangle, later, first);
    Value extreme =
        isMax ? Value(AtenAmaxOp::create(rewriter, loc, t.tensor(), prefix,
                                         t.sizes({-1}), t.flag(true)))
              : Value(AtenAminOp::create(rewriter, loc, t.tensor(), prefix,
                                         t.sizes({-1}), t.flag(true)));
    // The extreme is NaN once a NaN is in the prefix, then the last NaN is
    // picked.
    Value hit =
        AtenEqTensorOp::create(rewriter, loc, t.tensor(), later, extreme);
    if (shape::isFloatDtype(in->dtype))
      hit = t.logicalOr(hit, t.isnan(later));
    hit = t.logicalAnd(triangle, hit);
    Value candidates = AtenWhereScalarOtherOp::create(
        rewriter, loc, t.tensor(), hit, t.arange(n), t.i(-1));
    Value indices = AtenAmaxOp::create(rewriter, loc, t.tensor(), candidates,
                                       t.sizes({-1}), t.flag(false));
    Value values = t.gather(x, rank - 1, indices);
    return replace(rewriter, op,
                   {t.swapToLast(values, in->dim, rank - 1),
                    t.swapToLast(indices, in->dim, rank - 1)});
  }
};

} // namespace

void mlir::tsmlir::ts::decompose::populateIndexingPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeTake, DecomposeTakeAlongDim, DecomposePut,
               DecomposeIndexFill<AtenIndexFillIntScalarOp>,
               DecomposeIndexFill<AtenIndexFillIntTensorOp>, DecomposeIndexCopy,
               DecomposeMaskedScatter, DecomposeIndexReduce,
               DecomposeSegmentReduce>(patterns.getContext());
  patterns.add<DecomposeTensorSplit<AtenTensorSplitSectionsOp>,
               DecomposeTensorSplit<AtenTensorSplitIndicesOp>,
               DecomposeUnflatten, DecomposeSumToSize>(patterns.getContext());
  patterns.add<DecomposePrelu, DecomposeAllclose,
               DecomposeXlog1py<AtenSpecialXlog1pyOp>,
               DecomposeXlog1py<AtenSpecialXlog1pyOtherScalarOp>,
               DecomposeXlog1py<AtenSpecialXlog1pySelfScalarOp>>(
      patterns.getContext());
  patterns.add<DecomposeAminmax, DecomposeLogcumsumexp,
               DecomposeCumExtreme<AtenCummaxOp, true>,
               DecomposeCumExtreme<AtenCumminOp, false>>(patterns.getContext());
}
