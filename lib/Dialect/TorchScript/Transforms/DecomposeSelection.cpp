//===- DecomposeSelection.cpp - Results sized by the data -----------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Operators whose result sizes depend on the values of their operands. Each
// computes its result at the largest size it can have (known at compile
// time: every element kept, every row distinct) and ends with a slice of
// that padded result to a count computed at run time, `aten::slice` with an
// `aten::Int` end. A compiled graph returns such a slice as an output of
// bounded size (see DataDependentSizes.h); the padding is never read.
//
//   _unique2, unique_dim,     rows (the elements, or the slices along dim)
//   unique_consecutive,       grouped: the first row of each group, each
//   unique_dim_consecutive    row's group and each group's size. Sorted
//                             groups compare every pair of rows
//                             (lexicographically, at the first element that
//                             differs: O(n^2 m) work for n rows of m
//                             elements); consecutive groups compare
//                             neighbours (O(n m)). A row holding NaN equals
//                             no row, itself included, as in PyTorch
//   masked_select(x, mask)    the elements where the broadcast mask is set,
//                             gathered at the position its running count
//                             gives them
//   index.Tensor(x, [mask])   the same for the slices of x where a Bool
//                             mask over its leading dims is set (`x[m]`)
//   nonzero(x), argwhere(x)   the same selection of the element indices,
//                             unravelled into one coordinate per dim
//
// A graph that computes more from such a result (`unique(x).sum()`) is
// refused where it reads it: the lowering of every other op needs static
// sizes.
//
//===----------------------------------------------------------------------===//

#include "DecomposeUtils.h"
#include "ShapeRuleUtils.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::decompose;

namespace {

/// The ts ops the decompositions below build, with unrefined types.
struct SelectionBuilder : TSBuilder {
  Value longsLike(int64_t n, int64_t fill) { return full({n}, fill, kLong); }
  Value emptyLongs(ArrayRef<int64_t> shape) { return zeros(shape, kLong); }
  /// The Long sum of `x` over `dim` (all dims when nullopt).
  Value sum(Value x, std::optional<int64_t> dim) {
    if (!dim)
      return AtenSumOp::create(b, loc, tensor(), x, i(kLong));
    return AtenSumDimIntListOp::create(b, loc, tensor(), x, sizes({*dim}),
                                       flag(false), i(kLong));
  }
  /// The first `count` (a 0-d Long tensor) entries of `x` along `dim`: a
  /// result of data-dependent size.
  Value firstEntries(Value x, int64_t dim, Value count) {
    Value length =
        AtenIntTensorOp::create(b, loc, ts::IntType::get(ctx()), count);
    return AtenSliceTensorOp::create(b, loc, tensor(), x, i(dim), i(0), length,
                                     i(1));
  }
  /// For the group (or selected position) `slot` of each of `n` entries,
  /// the least entry index in each slot; n - 1 for a slot no entry fills
  /// (its row of the padded result is never returned).
  Value firstOfEachSlot(Value slot, Value candidates, int64_t n) {
    Value first = AtenScatterReduceTwoOp::create(
        b, loc, tensor(), longsLike(n, n), i(0), slot, candidates, str("amin"),
        flag(true));
    return AtenClampMaxOp::create(b, loc, tensor(), first, i(n - 1));
  }
  /// How many of the `n` entries fall in each slot.
  Value slotSizes(Value slot, int64_t n) {
    return AtenScatterAddOp::create(b, loc, tensor(), longsLike(n, 0), i(0),
                                    slot, ones({n}, kLong));
  }
};

/// The groups of the `n` rows of `keys` ([n, m], m >= 1; bools as Long).
struct Groups {
  Value inverse; // [n] Long: each row's group, groups in output order
  Value first;   // [n] Long: the first row of each group (padded)
  Value counts;  // [n] Long: each group's size (0 past the last group)
  Value count;   // 0-d Long: the number of groups
};

/// Rows grouped with every equal row, the groups in increasing
/// lexicographic order. Rows neither equal nor ordered (NaN) keep the order
/// of their first rows.
Groups sortedGroups(SelectionBuilder &t, Value keys, int64_t n, int64_t m) {
  Value a = t.unsqueeze(keys, 1); // [n, 1, m]: row i
  Value b = t.unsqueeze(keys, 0); // [1, n, m]: row j
  Value differs = AtenNeTensorOp::create(t.b, t.loc, t.tensor(), a, b);
  Value equal = t.logicalNot(t.anyDim(differs, 2, false)); // [n, n]
  // The elements where rows i and j first differ decide their order (equal
  // rows compare their first elements, which are equal).
  Value lhs = a, rhs = b;
  if (m > 1) {
    Value at = t.unsqueeze(AtenArgmaxOp::create(t.b, t.loc, t.tensor(),
                                                t.to(differs, kLong), t.i(2),
                                                t.flag(false)),
                           2);
    auto pick = [&](Value rows) {
      return t.gather(t.expand(rows, {n, n, m}), 2, at);
    };
    lhs = pick(a);
    rhs = pick(b);
  }
  Value less = AtenSqueezeDimOp::create(
      t.b, t.loc, t.tensor(),
      AtenLtTensorOp::create(t.b, t.loc, t.tensor(), lhs, rhs), t.i(2));
  Value index = t.arange(n);
  Value earlier = AtenLtTensorOp::create(t.b, t.loc, t.tensor(),
                                         t.unsqueeze(index, 1),
                                         t.unsqueeze(index, 0)); // j < i
  // Row j comes before row i: less, or neither equal nor greater and
  // earlier.
  Value greater = t.transpose(less, 0, 1);
  Value before = t.logicalOr(
      less, t.logicalAnd(t.logicalAnd(t.logicalNot(equal),
                                      t.logicalNot(greater)),
                         earlier));
  Value isFirst =
      t.logicalNot(t.anyDim(t.logicalAnd(equal, earlier), 0, false)); // [n]
  Groups g;
  g.inverse = t.sum(t.logicalAnd(t.unsqueeze(isFirst, 1), before), 0);
  g.count = t.sum(isFirst, std::nullopt);
  g.first = t.firstOfEachSlot(g.inverse, index, n);
  g.counts = t.slotSizes(g.inverse, n);
  return g;
}

/// Rows grouped with the equal rows next to them.
Groups consecutiveGroups(SelectionBuilder &t, Value keys, int64_t n) {
  Value isFirst;
  if (n == 1) {
    isFirst = t.ones({1}, kBool);
  } else {
    Value same = AtenAllDimOp::create(
        t.b, t.loc, t.tensor(),
        AtenEqTensorOp::create(t.b, t.loc, t.tensor(),
                               t.narrow(keys, 0, 1, n - 1),
                               t.narrow(keys, 0, 0, n - 1)),
        t.i(1), t.flag(false));
    Value head = t.ones({1}, kBool);
    isFirst = t.cat({head, t.logicalNot(same)}, 0);
  }
  Groups g;
  g.inverse = AtenSubScalarOp::create(
      t.b, t.loc, t.tensor(),
      AtenCumsumOp::create(t.b, t.loc, t.tensor(), isFirst, t.i(0),
                           t.i(kLong)),
      t.i(1), t.i(1));
  g.count = t.sum(isFirst, std::nullopt);
  g.first = t.firstOfEachSlot(g.inverse, t.arange(n), n);
  g.counts = t.slotSizes(g.inverse, n);
  return g;
}

/// The comparison keys of rows of `x`'s dtype: bools as Long.
Value keysOf(SelectionBuilder &t, Value rows) {
  auto type = llvm::cast<ts::TensorType>(rows.getType());
  if (type.getDtype() && type.getDtype().isInteger(1))
    return t.to(rows, kLong);
  return rows;
}

/// _unique2(self, sorted, return_inverse, return_counts) and
/// unique_consecutive(self, return_inverse, return_counts, dim=None): the
/// groups of the elements. The inverse has self's shape; an inverse or
/// counts not asked for is an empty Long tensor, as PyTorch returns.
/// Unsorted unique (PyTorch's hash order) gives the sorted order, one of
/// the orders it allows.
template <typename OpTy>
struct DecomposeUniqueElements : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    constexpr bool consecutive = std::is_same_v<OpTy, AtenUniqueConsecutiveOp>;
    if constexpr (consecutive)
      if (!llvm::isa<ts::NoneType>(op.getDim().getType()))
        return rewriter.notifyMatchFailure(op, "unique along a dim");
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<bool> inverse = constBool(op.getReturnInverse());
    std::optional<bool> counts = constBool(op.getReturnCounts());
    if (!sizes || !dtypeOf(op.getSelf()) || !inverse || !counts)
      return rewriter.notifyMatchFailure(op, "static sizes and constant "
                                             "flags expected");
    SelectionBuilder t{{rewriter, op.getLoc()}};
    int64_t n = shape::numElements(*sizes);
    Value flat = t.reshape(op.getSelf(), {n});
    Value none = t.emptyLongs({0});
    if (n == 0) {
      replaceWithDeclaredTypes(rewriter, op,
                               {flat, *inverse ? t.emptyLongs(*sizes) : none,
                                none});
      return success();
    }
    Value keys = t.unsqueeze(keysOf(t, flat), 1);
    Groups g = consecutive ? consecutiveGroups(t, keys, n)
                           : sortedGroups(t, keys, n, 1);
    Value values = t.firstEntries(t.indexSelect(flat, 0, g.first), 0, g.count);
    replaceWithDeclaredTypes(
        rewriter, op,
        {values, *inverse ? t.reshape(g.inverse, *sizes) : none,
         *counts ? t.firstEntries(g.counts, 0, g.count) : none});
    return success();
  }
};

/// unique_dim(self, dim, sorted, ...), unique_dim_consecutive(self, dim,
/// ...) and unique_consecutive(self, ..., dim): the groups of the slices
/// along dim, always with their inverse and counts (PyTorch computes both
/// whatever the flags say).
template <typename OpTy>
struct DecomposeUniqueSlices : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    constexpr bool sorted = std::is_same_v<OpTy, AtenUniqueDimOp>;
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<int64_t> dimArg = constInt(op.getDim());
    if (!sizes || sizes->empty() || !dimArg || !dtypeOf(op.getSelf()))
      return rewriter.notifyMatchFailure(op, "static sizes, at least 1-d, "
                                             "and a constant dim expected");
    int64_t rank = sizes->size();
    if (*dimArg < -rank || *dimArg >= rank)
      return rewriter.notifyMatchFailure(op, "dim out of range");
    int64_t dim = *dimArg < 0 ? *dimArg + rank : *dimArg;
    int64_t n = (*sizes)[dim];
    int64_t m = shape::numElements(*sizes) / std::max<int64_t>(n, 1);
    SelectionBuilder t{{rewriter, op.getLoc()}};
    if (n == 0) {
      Value none = t.emptyLongs({0});
      replaceWithDeclaredTypes(rewriter, op, {op.getSelf(), none, none});
      return success();
    }
    // PyTorch refuses other dims of size 0.
    if (m == 0)
      return rewriter.notifyMatchFailure(op, "a dim of size 0 besides dim");
    // The rows as PyTorch 1.13 lays them out to sort them: self with dims 0
    // and dim swapped (not moved: for a 3-d self and dim 2, slice j is read
    // as [b][a], and that order decides ties of the leading elements).
    Value rows = t.reshape(t.transpose(op.getSelf(), 0, dim), {n, m});
    Value keys = keysOf(t, rows);
    Groups g = sorted ? sortedGroups(t, keys, n, m)
                      : consecutiveGroups(t, keys, n);
    Value values =
        t.firstEntries(t.indexSelect(op.getSelf(), dim, g.first), dim, g.count);
    replaceWithDeclaredTypes(
        rewriter, op,
        {values, g.inverse, t.firstEntries(g.counts, 0, g.count)});
    return success();
  }
};

/// unique_consecutive with a dim is unique_dim_consecutive.
struct DecomposeUniqueConsecutiveDim
    : public OpRewritePattern<AtenUniqueConsecutiveOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenUniqueConsecutiveOp op,
                                PatternRewriter &rewriter) const override {
    if (llvm::isa<ts::NoneType>(op.getDim().getType()) || !constInt(op.getDim()))
      return rewriter.notifyMatchFailure(op, "no constant dim");
    auto dimOp = AtenUniqueDimConsecutiveOp::create(
        rewriter, op.getLoc(), op->getResultTypes(), op.getSelf(), op.getDim(),
        op.getReturnInverse(), op.getReturnCounts());
    rewriter.replaceOp(op, dimOp->getResults());
    return success();
  }
};

/// The indices (into `flat`'s n elements) of the set elements of the Bool
/// `flat`, padded, and their count.
std::pair<Value, Value> selectedIndices(SelectionBuilder &t, Value flat,
                                        int64_t n) {
  Value index = t.arange(n);
  // Each element's position among the selected ones; the unselected ones
  // compete for a position with the candidate n, which never wins.
  Value position = AtenClampMinOp::create(
      t.b, t.loc, t.tensor(),
      AtenSubScalarOp::create(
          t.b, t.loc, t.tensor(),
          AtenCumsumOp::create(t.b, t.loc, t.tensor(), flat, t.i(0),
                               t.i(kLong)),
          t.i(1), t.i(1)),
      t.i(0));
  Value candidates = AtenWhereScalarOtherOp::create(t.b, t.loc, t.tensor(),
                                                    flat, index, t.i(n));
  return {t.firstOfEachSlot(position, candidates, n), t.sum(flat, std::nullopt)};
}

/// masked_select(self, mask): self and mask broadcast together, the
/// elements where mask is set, in order.
struct DecomposeMaskedSelect : public OpRewritePattern<AtenMaskedSelectOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenMaskedSelectOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> self = staticSizes(op.getSelf());
    std::optional<SmallVector<int64_t>> mask = staticSizes(op.getMask());
    Type maskType = dtypeOf(op.getMask());
    if (!self || !mask || !dtypeOf(op.getSelf()) || !maskType ||
        !maskType.isInteger(1))
      return rewriter.notifyMatchFailure(op, "static sizes and a Bool mask "
                                             "expected");
    shape::Sizes broadcast = shape::broadcast({*self, *mask});
    if (!broadcast)
      return rewriter.notifyMatchFailure(op, "shapes do not broadcast");
    SmallVector<int64_t> shape = *broadcast;
    SelectionBuilder t{{rewriter, op.getLoc()}};
    int64_t n = shape::numElements(shape);
    auto flatten = [&](Value x) {
      Value full = t.expand(x, shape);
      return t.reshape(full, {n});
    };
    Value values = flatten(op.getSelf());
    if (n == 0) {
      replaceWithDeclaredTypes(rewriter, op, {values});
      return success();
    }
    auto [indices, count] = selectedIndices(t, flatten(op.getMask()), n);
    replaceWithDeclaredTypes(
        rewriter, op,
        {t.firstEntries(t.indexSelect(values, 0, indices), 0, count)});
    return success();
  }
};

/// index.Tensor(self, [mask]) with one Bool mask over self's leading dims
/// (`x[x > 0]`): the slices of self where mask is set, in order.
struct DecomposeIndexByMask : public OpRewritePattern<AtenIndexTensorOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenIndexTensorOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<OpFoldResult>> indices =
        listElements(op.getIndices());
    if (!indices || indices->size() != 1 || !llvm::isa<Value>((*indices)[0]))
      return rewriter.notifyMatchFailure(op, "not one index tensor");
    Value mask = llvm::cast<Value>((*indices)[0]);
    Type maskType = dtypeOf(mask);
    std::optional<SmallVector<int64_t>> self = staticSizes(op.getSelf());
    std::optional<SmallVector<int64_t>> masked = staticSizes(mask);
    if (!maskType || !maskType.isInteger(1) || !self || !masked ||
        !dtypeOf(op.getSelf()) || masked->size() > self->size() ||
        !llvm::equal(*masked, ArrayRef(*self).take_front(masked->size())))
      return rewriter.notifyMatchFailure(op, "not a Bool mask of self's "
                                             "leading sizes");
    int64_t n = shape::numElements(*masked);
    SmallVector<int64_t> rows{n};
    llvm::append_range(rows, ArrayRef(*self).drop_front(masked->size()));
    if (n != 0 && shape::numElements(rows) == 0)
      return rewriter.notifyMatchFailure(op, "rows of nothing");
    SelectionBuilder t{{rewriter, op.getLoc()}};
    Value values = t.reshape(op.getSelf(), rows);
    if (n == 0) {
      replaceWithDeclaredTypes(rewriter, op, {values});
      return success();
    }
    auto [selected, count] = selectedIndices(t, t.reshape(mask, {n}), n);
    replaceWithDeclaredTypes(
        rewriter, op,
        {t.firstEntries(t.indexSelect(values, 0, selected), 0, count)});
    return success();
  }
};

/// nonzero(self) and argwhere(self): [count, rank] Long coordinates of the
/// non-zero elements, in order.
template <typename OpTy>
struct DecomposeNonzero : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    if (!sizes || !dtypeOf(op.getSelf()))
      return rewriter.notifyMatchFailure(op, "static sizes expected");
    int64_t n = shape::numElements(*sizes);
    int64_t rank = sizes->size();
    // [count, 0]: a run-time count of rows of nothing, which an output
    // buffer cannot hold at its bound (no slice of an empty dim).
    if (rank == 0)
      return rewriter.notifyMatchFailure(op, "a 0-d input");
    SelectionBuilder t{{rewriter, op.getLoc()}};
    if (n == 0) {
      replaceWithDeclaredTypes(rewriter, op, {t.emptyLongs({0, rank})});
      return success();
    }
    Value flat = t.to(t.reshape(op.getSelf(), {n}), kBool);
    auto [indices, count] = selectedIndices(t, flat, n);
    SmallVector<Value> columns;
    int64_t stride = n;
    for (int64_t size : *sizes) {
      stride /= size;
      Value c = AtenFloorDivideScalarOp::create(
          rewriter, op.getLoc(), t.tensor(), indices, t.i(stride));
      columns.push_back(AtenRemainderScalarOp::create(
          rewriter, op.getLoc(), t.tensor(), c, t.i(size)));
    }
    Value coordinates = t.stack(columns, 1);
    replaceWithDeclaredTypes(rewriter, op,
                             {t.firstEntries(coordinates, 0, count)});
    return success();
  }
};

} // namespace

void mlir::tsmlir::ts::decompose::populateSelectionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeUniqueElements<Aten_Unique2Op>,
               DecomposeUniqueElements<AtenUniqueConsecutiveOp>,
               DecomposeUniqueSlices<AtenUniqueDimOp>,
               DecomposeUniqueSlices<AtenUniqueDimConsecutiveOp>,
               DecomposeUniqueConsecutiveDim, DecomposeMaskedSelect,
               DecomposeIndexByMask,
               DecomposeNonzero<AtenNonzeroOp>,
               DecomposeNonzero<AtenArgwhereOp>>(patterns.getContext());
}
