//===- DecomposeMatrices.cpp - Diagonals, products and norms --------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Operators on matrices and diagonals, and products of vectors, as the ops
// PyTorch composes them from (shapes and index tables known at compile
// time):
//
//   diagonal(x, off, d1, d2)  x permuted to [..., d1, d2], its matrices
//                             flattened to [..., n1 * n2], index_select of
//                             the diagonal's flat indices (a constant)
//   diag_embed(x, off, d1,    x padded with one zero along its last dim,
//   d2)                       index_select of a constant table (the
//                             diagonal's slots take the elements, every
//                             other slot the zero), viewed [..., m, m] and
//                             permuted to put the matrix dims at d1 and d2;
//                             zeros when x has no elements
//   diagonal_scatter(x, src,  scatter of src into the flattened matrices at
//   off, d1, d2)              the diagonal's flat indices, viewed and
//                             permuted back (src cast to x's dtype, as its
//                             copy_ does)
//   diag(x, off)              diag_embed(x, off, 0, 1) of a vector,
//                             diagonal(x, off, 0, 1) of a matrix
//   trace(x)                  sum of diagonal(x) (integers sum to Long)
//   kron(a, b)                a viewed [a0, 1, a1, 1, ...] times b viewed
//                             [1, b0, 1, b1, ...], viewed [a0 b0, a1 b1, ...]
//   linalg_cross(a, b, dim),  a[i+1] b[i+2] - a[i+2] b[i+1] along dim, the
//   cross(a, b, dim?)         rotations index_selects of [1, 2, 0] and
//                             [2, 0, 1]; cross without dim takes a's first
//                             dim of size 3 (PyTorch 1.13)
//   triu_indices, tril_indices  a constant [2, N] table enumerated at
//                             compile time (to Int for dtype=torch.int32)
//   block_diag(tensors)       each tensor as a matrix, cast to the result
//                             type, padded with zero columns to its place,
//                             cat along dim 0
//   meshgrid(tensors[, idx])  each tensor viewed with its size at its dim
//                             (the first two dims swapped for "xy") and
//                             expanded to the grid
//   cartesian_prod(tensors)   the meshgrid's tensors flattened, stacked
//                             along dim 1 (one tensor: itself)
//   bilinear(x1, x2, W, b)    (x1 [N, I] mm W as [I, O J]) viewed [N, O, J],
//                             matmul x2 as [N, J, 1], viewed [..., O], + b
//   linalg_vector_norm of     linalg_norm with ord None, a vector ord or a
//   linalg_norm,              dim of one; frobenius_norm the 2-norm over its
//   frobenius_norm.dim        dims (DecomposeReductions.cpp)
//   linalg_matrix_norm        'fro': the 2-norm over both dims; 1 / -1: amax
//   (.str_ord), linalg_norm   / amin over dim1 of the 1-norm over dim0; inf /
//   of a matrix ord           -inf: the same with the dims swapped. 'nuc', 2
//   (.ord_str)                and -2 need singular values: refused
//   renorm(x, p, dim, max)    x * where(n > max, max / (n + 1e-7), 1), n the
//                             p-norm over the other dims (kept); n and the
//                             factor in Float for Half and BFloat16 inputs
//
//===----------------------------------------------------------------------===//

#include "DecomposeUtils.h"
#include "ShapeRuleUtils.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::decompose;

namespace {

/// The most elements of an index table built at compile time.
constexpr int64_t kMaxTableElements = int64_t(1) << 24;

/// `sizes` followed by `more`.
SmallVector<int64_t> concat(ArrayRef<int64_t> sizes,
                            ArrayRef<int64_t> more) {
  SmallVector<int64_t> out(sizes);
  llvm::append_range(out, more);
  return out;
}

/// The dims of an `int[]` operand (or one int), wrapped for `rank`; nullopt
/// when not constant, out of range or repeated.
std::optional<SmallVector<int64_t>> wrappedDims(Value v, int64_t rank) {
  std::optional<SmallVector<int64_t>> dims;
  if (std::optional<int64_t> one = constInt(v))
    dims = SmallVector<int64_t>{*one};
  else
    dims = constIntList(v);
  if (!dims)
    return std::nullopt;
  for (size_t i = 0; i < dims->size(); ++i) {
    std::optional<int64_t> w = shape::wrapDim((*dims)[i], rank);
    if (!w || llvm::is_contained(ArrayRef(*dims).take_front(i), *w))
      return std::nullopt;
    (*dims)[i] = *w;
  }
  return dims;
}

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

Value indexSelect(TSBuilder &t, Value x, int64_t dim,
                  ArrayRef<int64_t> index) {
  return t.indexSelect(x, dim,
                       t.longs(index, {static_cast<int64_t>(index.size())}));
}

/// Zeros of `sizes` and `like`'s dtype.
Value zerosLike(TSBuilder &t, Value like, ArrayRef<int64_t> sizes) {
  Value dtype = PrimDtypeOp::create(t.b, t.loc, ts::IntType::get(t.ctx()),
                                    like);
  return AtenZerosOp::create(t.b, t.loc, t.tensor(), intListValue(t, sizes),
                             dtype, t.none(), t.none(), t.none());
}

Value vectorNorm(TSBuilder &t, Value x, double ord, Value dims, Value keepdim,
                 Value dtype) {
  return AtenLinalgVectorNormOp::create(t.b, t.loc, t.tensor(), x, t.f(ord),
                                        dims, keepdim, dtype);
}

//===----------------------------------------------------------------------===//
// Diagonals
//===----------------------------------------------------------------------===//

/// The flat indices, in a row-major [rows, cols] matrix, of its `offset`
/// diagonal (above the main one for offset > 0), in order.
SmallVector<int64_t> diagonalIndices(int64_t rows, int64_t cols,
                                     int64_t offset) {
  SmallVector<int64_t> flat;
  for (int64_t r = std::max<int64_t>(-offset, 0),
               c = std::max<int64_t>(offset, 0);
       r < rows && c < cols; ++r, ++c)
    flat.push_back(r * cols + c);
  return flat;
}

/// The matrices of dims (dim1, dim2) of a tensor: the permutation moving
/// them last (the other dims in order), the other dims' sizes, the
/// matrices' sizes and their diagonal's flat indices.
struct Matrices {
  SmallVector<int64_t> order;
  SmallVector<int64_t> batch;
  int64_t rows, cols;
  SmallVector<int64_t> diagonal;
};

/// Nullopt where PyTorch raises: fewer than 2 dims, dims out of range or
/// equal.
std::optional<Matrices> matricesOf(ArrayRef<int64_t> sizes, int64_t offset,
                                   int64_t dim1, int64_t dim2) {
  int64_t rank = sizes.size();
  std::optional<int64_t> d1 = shape::wrapDim(dim1, rank);
  std::optional<int64_t> d2 = shape::wrapDim(dim2, rank);
  if (rank < 2 || !d1 || !d2 || *d1 == *d2)
    return std::nullopt;
  Matrices m;
  for (int64_t d = 0; d < rank; ++d)
    if (d != *d1 && d != *d2) {
      m.order.push_back(d);
      m.batch.push_back(sizes[d]);
    }
  m.order.append({*d1, *d2});
  m.rows = sizes[*d1];
  m.cols = sizes[*d2];
  m.diagonal = diagonalIndices(m.rows, m.cols, offset);
  return m;
}

/// The permutation of [batch..., rows, cols] (rank dims) that puts rows at
/// dim1 and cols at dim2, the batch dims in order around them.
SmallVector<int64_t> placeMatrixDims(int64_t rank, int64_t dim1,
                                     int64_t dim2) {
  SmallVector<int64_t> order(rank);
  int64_t next = 0;
  for (int64_t d = 0; d < rank; ++d)
    order[d] = d == dim1 ? rank - 2 : d == dim2 ? rank - 1 : next++;
  return order;
}

/// x's matrices, flattened: [batch..., rows * cols].
Value flatMatrices(TSBuilder &t, Value x, const Matrices &m) {
  return t.reshape(t.permute(x, m.order), concat(m.batch, {m.rows * m.cols}));
}

/// The diagonal of x's matrices: [batch..., length].
Value buildDiagonal(TSBuilder &t, Value x, const Matrices &m) {
  return indexSelect(t, flatMatrices(t, x, m), m.batch.size(), m.diagonal);
}

/// The result of diag_embed(x, offset, dim1, dim2) where x has `sizes`
/// (at least 1-D), or a failure message.
struct Embedding {
  SmallVector<int64_t> batch;  // x's leading sizes
  int64_t size;                // the matrices' size
  SmallVector<int64_t> table;  // per matrix slot, its element of padded x
  SmallVector<int64_t> order;  // [batch..., m, m] to the result
  SmallVector<int64_t> result; // the result's sizes
};

FailureOr<Embedding> embeddingOf(ArrayRef<int64_t> sizes, int64_t offset,
                                 int64_t dim1, int64_t dim2) {
  int64_t rank = sizes.size() + 1;
  std::optional<int64_t> d1 = shape::wrapDim(dim1, rank);
  std::optional<int64_t> d2 = shape::wrapDim(dim2, rank);
  if (sizes.empty() || !d1 || !d2 || *d1 == *d2)
    return failure();
  int64_t n = sizes.back();
  if (offset > kMaxTableElements || offset < -kMaxTableElements)
    return failure();
  Embedding e;
  e.batch.assign(sizes.begin(), sizes.end() - 1);
  e.size = n + std::abs(offset);
  if (e.size > kMaxTableElements / std::max<int64_t>(e.size, 1))
    return failure();
  // Slot n of the padded vector is the zero.
  e.table.assign(e.size * e.size, n);
  for (auto [k, slot] :
       llvm::enumerate(diagonalIndices(e.size, e.size, offset)))
    e.table[slot] = k;
  e.order = placeMatrixDims(rank, *d1, *d2);
  SmallVector<int64_t> stacked = concat(e.batch, {e.size, e.size});
  for (int64_t source : e.order)
    e.result.push_back(stacked[source]);
  return e;
}

Value buildEmbedding(TSBuilder &t, Value x, ArrayRef<int64_t> sizes,
                     const Embedding &e) {
  // constant_pad_nd refuses an input without elements; the result is then
  // all zeros.
  if (shape::numElements(sizes) == 0)
    return zerosLike(t, x, e.result);
  Value padded = AtenConstantPadNdOp::create(
      t.b, t.loc, t.tensor(), x, intListValue(t, {0, 1}), t.i(0));
  Value slots = indexSelect(t, padded, e.batch.size(), e.table);
  return t.permute(t.reshape(slots, concat(e.batch, {e.size, e.size})),
                   e.order);
}

struct DecomposeDiagonal : public OpRewritePattern<AtenDiagonalOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenDiagonalOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<int64_t> offset = constInt(op.getOffset());
    std::optional<int64_t> dim1 = constInt(op.getDim1());
    std::optional<int64_t> dim2 = constInt(op.getDim2());
    if (!sizes || !offset || !dim1 || !dim2)
      return rewriter.notifyMatchFailure(op, "sizes or arguments not known");
    std::optional<Matrices> m = matricesOf(*sizes, *offset, *dim1, *dim2);
    if (!m)
      return rewriter.notifyMatchFailure(op, "invalid dims");
    TSBuilder t{rewriter, op.getLoc()};
    replaceWithDeclaredTypes(rewriter, op, {buildDiagonal(t, op.getSelf(), *m)});
    return success();
  }
};

struct DecomposeDiagEmbed : public OpRewritePattern<AtenDiagEmbedOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenDiagEmbedOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<int64_t> offset = constInt(op.getOffset());
    std::optional<int64_t> dim1 = constInt(op.getDim1());
    std::optional<int64_t> dim2 = constInt(op.getDim2());
    if (!sizes || !offset || !dim1 || !dim2)
      return rewriter.notifyMatchFailure(op, "sizes or arguments not known");
    FailureOr<Embedding> e = embeddingOf(*sizes, *offset, *dim1, *dim2);
    if (failed(e))
      return rewriter.notifyMatchFailure(op, "a 0-d input, invalid dims or "
                                             "too large a result");
    TSBuilder t{rewriter, op.getLoc()};
    replaceWithDeclaredTypes(rewriter, op,
                             {buildEmbedding(t, op.getSelf(), *sizes, *e)});
    return success();
  }
};

/// diag(x, offset): a vector on the offset diagonal of a square matrix, or
/// a matrix's offset diagonal (PyTorch raises for an offset beyond the
/// matrix, where diagonal gives an empty vector).
struct DecomposeDiag : public OpRewritePattern<AtenDiagOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenDiagOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<int64_t> offset = constInt(op.getDiagonal());
    if (!sizes || !offset)
      return rewriter.notifyMatchFailure(op, "sizes or diagonal not known");
    TSBuilder t{rewriter, op.getLoc()};
    if (sizes->size() == 1) {
      FailureOr<Embedding> e = embeddingOf(*sizes, *offset, 0, 1);
      if (failed(e))
        return rewriter.notifyMatchFailure(op, "too large a result");
      replaceWithDeclaredTypes(rewriter, op,
                               {buildEmbedding(t, op.getSelf(), *sizes, *e)});
      return success();
    }
    if (sizes->size() != 2)
      return rewriter.notifyMatchFailure(op, "not a vector or a matrix");
    if (*offset > (*sizes)[1] || *offset < -(*sizes)[0])
      return rewriter.notifyMatchFailure(op, "the diagonal is outside the "
                                             "matrix");
    std::optional<Matrices> m = matricesOf(*sizes, *offset, 0, 1);
    replaceWithDeclaredTypes(rewriter, op, {buildDiagonal(t, op.getSelf(), *m)});
    return success();
  }
};

struct DecomposeDiagonalScatter
    : public OpRewritePattern<AtenDiagonalScatterOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenDiagonalScatterOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<SmallVector<int64_t>> srcSizes = staticSizes(op.getSrc());
    std::optional<int64_t> offset = constInt(op.getOffset());
    std::optional<int64_t> dim1 = constInt(op.getDim1());
    std::optional<int64_t> dim2 = constInt(op.getDim2());
    if (!sizes || !srcSizes || !offset || !dim1 || !dim2)
      return rewriter.notifyMatchFailure(op, "sizes or arguments not known");
    std::optional<Matrices> m = matricesOf(*sizes, *offset, *dim1, *dim2);
    if (!m)
      return rewriter.notifyMatchFailure(op, "invalid dims");
    int64_t length = m->diagonal.size();
    SmallVector<int64_t> slice = concat(m->batch, {length});
    if (*srcSizes != slice)
      return rewriter.notifyMatchFailure(op, "src is not shaped as the "
                                             "diagonal");
    TSBuilder t{rewriter, op.getLoc()};
    Value self = op.getSelf();
    if (shape::numElements(slice) == 0) {
      replaceWithDeclaredTypes(rewriter, op, {self});
      return success();
    }
    Value src = op.getSrc();
    Type dtype = dtypeOf(self);
    if (!dtype || dtype != dtypeOf(src))
      src = AtenTypeAsOp::create(rewriter, op.getLoc(), t.tensor(), src, self);
    Value index = t.longs(m->diagonal, {length});
    if (!m->batch.empty())
      index = t.expand(index, slice);
    Value scattered = AtenScatterSrcOp::create(
        rewriter, op.getLoc(), t.tensor(), flatMatrices(t, self, *m),
        t.i(m->batch.size()), index, src);
    Value matrices =
        t.reshape(scattered, concat(m->batch, {m->rows, m->cols}));
    int64_t rank = sizes->size();
    replaceWithDeclaredTypes(
        rewriter, op,
        {t.permute(matrices, placeMatrixDims(rank, m->order[rank - 2],
                                             m->order[rank - 1]))});
    return success();
  }
};

struct DecomposeTrace : public OpRewritePattern<AtenTraceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenTraceOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    Type dtype = dtypeOf(op.getSelf());
    if (!sizes || sizes->size() != 2 || !dtype)
      return rewriter.notifyMatchFailure(op, "not a matrix of known sizes "
                                             "and dtype");
    // PyTorch's CPU trace takes neither these nor complex numbers.
    if (shape::isBoolDtype(dtype) || shape::isComplexDtype(dtype) ||
        dtype.isF16() || dtype.isBF16())
      return rewriter.notifyMatchFailure(op, "trace of this dtype raises");
    std::optional<Matrices> m = matricesOf(*sizes, 0, 0, 1);
    TSBuilder t{rewriter, op.getLoc()};
    Value sum = AtenSumOp::create(rewriter, op.getLoc(), t.tensor(),
                                  buildDiagonal(t, op.getSelf(), *m), t.none());
    replaceWithDeclaredTypes(rewriter, op, {sum});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Products
//===----------------------------------------------------------------------===//

struct DecomposeKron : public OpRewritePattern<AtenKronOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenKronOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> a = staticSizes(op.getSelf());
    std::optional<SmallVector<int64_t>> b = staticSizes(op.getOther());
    if (!a || !b)
      return rewriter.notifyMatchFailure(op, "sizes not known");
    size_t rank = std::max(a->size(), b->size());
    a->insert(a->begin(), rank - a->size(), 1);
    b->insert(b->begin(), rank - b->size(), 1);
    TSBuilder t{rewriter, op.getLoc()};
    if (rank == 0) {
      replaceWithDeclaredTypes(rewriter, op,
                               {t.mul(op.getSelf(), op.getOther())});
      return success();
    }
    SmallVector<int64_t> aView, bView, result;
    for (size_t d = 0; d < rank; ++d) {
      aView.append({(*a)[d], 1});
      bView.append({1, (*b)[d]});
      result.push_back((*a)[d] * (*b)[d]);
    }
    Value outer = t.mul(t.reshape(op.getSelf(), aView),
                          t.reshape(op.getOther(), bView));
    replaceWithDeclaredTypes(rewriter, op, {t.reshape(outer, result)});
    return success();
  }
};

/// linalg_cross(self, other, dim) and cross(self, other, dim?).
template <typename OpTy>
struct DecomposeCross : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value a = op.getSelf(), b = op.getOther();
    std::optional<SmallVector<int64_t>> aSizes = staticSizes(a);
    std::optional<SmallVector<int64_t>> bSizes = staticSizes(b);
    Type dtype = dtypeOf(a);
    if (!aSizes || !bSizes || !dtype)
      return rewriter.notifyMatchFailure(op, "sizes or dtype not known");
    int64_t rank = aSizes->size();
    std::optional<int64_t> dimArg;
    if (isNone(op.getDim())) {
      // PyTorch 1.13: the first dim of self of size 3.
      auto *it = llvm::find(*aSizes, 3);
      if (it != aSizes->end())
        dimArg = it - aSizes->begin();
    } else {
      dimArg = constInt(op.getDim());
    }
    std::optional<int64_t> dim =
        dimArg && rank > 0 ? shape::wrapDim(*dimArg, rank) : std::nullopt;
    if (!dim || static_cast<int64_t>(bSizes->size()) != rank ||
        (*aSizes)[*dim] != 3 || (*bSizes)[*dim] != 3 ||
        !shape::broadcast({*aSizes, *bSizes}))
      return rewriter.notifyMatchFailure(op, "no dim of size 3 in both, or "
                                             "ranks or sizes differ");
    if (dtype != dtypeOf(b) || shape::isBoolDtype(dtype))
      return rewriter.notifyMatchFailure(op, "dtypes differ or are Bool");
    TSBuilder t{rewriter, op.getLoc()};
    auto rotate = [&](Value x, ArrayRef<int64_t> by) {
      return indexSelect(t, x, *dim, by);
    };
    Value a1 = rotate(a, {1, 2, 0}), a2 = rotate(a, {2, 0, 1});
    Value b1 = rotate(b, {1, 2, 0}), b2 = rotate(b, {2, 0, 1});
    Value result = t.sub(t.mul(a1, b2), t.mul(a2, b1));
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

/// triu_indices and tril_indices(row, col, offset, dtype): the [2, N]
/// coordinates of the elements of a row x col matrix on or above (below)
/// the offset diagonal, in row-major order.
template <typename OpTy, bool upper>
struct DecomposeTriangleIndices : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> rows = constInt(op.getRow());
    std::optional<int64_t> cols = constInt(op.getCol());
    std::optional<int64_t> offset = constInt(op.getOffset());
    std::optional<int64_t> dtype =
        isNone(op.getDtype()) ? kLong : constInt(op.getDtype());
    if (!rows || !cols || !offset || !dtype)
      return rewriter.notifyMatchFailure(op, "arguments not constant");
    if (*rows < 0 || *cols < 0 || (*dtype != kLong && *dtype != kInt))
      return rewriter.notifyMatchFailure(op, "negative sizes or a dtype other "
                                             "than Long and Int (PyTorch "
                                             "raises)");
    if (*cols != 0 && *rows > kMaxTableElements / *cols)
      return rewriter.notifyMatchFailure(op, "too many elements");
    SmallVector<int64_t> rowIndex, colIndex;
    for (int64_t r = 0; r < *rows; ++r)
      for (int64_t c = 0; c < *cols; ++c)
        if (upper ? c - r >= *offset : c - r <= *offset) {
          rowIndex.push_back(r);
          colIndex.push_back(c);
        }
    int64_t count = rowIndex.size();
    TSBuilder t{rewriter, op.getLoc()};
    Value result = t.longs(concat(rowIndex, colIndex), {2, count});
    if (*dtype != kLong)
      result = t.to(result, *dtype);
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

/// PyTorch's result type of tensors (at::result_type), each dimensioned or
/// 0-d.
Type resultTypeOf(ArrayRef<std::pair<Type, bool>> dtypesAndZeroDim) {
  ResultTypeState state;
  for (auto [dtype, zeroDim] : dtypesAndZeroDim)
    state.add(dtype, zeroDim ? PromotionPriority::ZeroDim
                             : PromotionPriority::Dimensioned);
  return state.getResult();
}

struct DecomposeBlockDiag : public OpRewritePattern<AtenBlockDiagOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenBlockDiagOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<OpFoldResult>> tensors =
        knownTensors(op.getTensors());
    if (!tensors)
      return rewriter.notifyMatchFailure(op, "the list's tensors not known");
    // Each tensor as a matrix: 0-d [1, 1], 1-D [1, n].
    SmallVector<SmallVector<int64_t>> matrices;
    SmallVector<int64_t> ranks;
    SmallVector<std::pair<Type, bool>> dtypes;
    int64_t totalCols = 0;
    for (OpFoldResult e : *tensors) {
      std::optional<SmallVector<int64_t>> sizes = staticSizes(e);
      Type dtype = dtypeOf(e);
      if (!sizes || sizes->size() > 2 || !dtype ||
          shape::isComplexDtype(dtype))
        return rewriter.notifyMatchFailure(op, "a tensor of unknown sizes or "
                                               "dtype, complex or above 2-D");
      ranks.push_back(sizes->size());
      dtypes.push_back({dtype, sizes->empty()});
      sizes->insert(sizes->begin(), 2 - sizes->size(), 1);
      totalCols += (*sizes)[1];
      matrices.push_back(*sizes);
    }
    // No tensors: PyTorch's empty [1, 0] matrix of the default dtype.
    Type dtype = resultTypeOf(dtypes);
    std::optional<int64_t> code =
        dtype ? getScalarTypeCode(dtype) : std::optional<int64_t>(kFloat);
    if (!code)
      return rewriter.notifyMatchFailure(op, "result dtype not known");
    TSBuilder t{rewriter, op.getLoc()};
    auto zeros = [&](int64_t rows, int64_t cols) -> Value {
      return t.zeros({rows, cols}, *code);
    };
    if (tensors->empty()) {
      replaceWithDeclaredTypes(rewriter, op, {zeros(1, 0)});
      return success();
    }
    SmallVector<Value> blocks;
    int64_t before = 0;
    for (auto [e, matrix, rank, typed] :
         llvm::zip_equal(*tensors, matrices, ranks, dtypes)) {
      int64_t rows = matrix[0], cols = matrix[1];
      int64_t after = totalCols - before - cols;
      before += cols;
      if (rows == 0)
        continue;
      // constant_pad_nd refuses an input without elements.
      if (cols == 0) {
        blocks.push_back(zeros(rows, totalCols));
        continue;
      }
      Value x = materialize(rewriter, op.getLoc(), e);
      if (rank < 2)
        x = t.reshape(x, matrix);
      if (typed.first != dtype)
        x = t.to(x, *code);
      if (before - cols || after)
        x = AtenConstantPadNdOp::create(
            rewriter, op.getLoc(), t.tensor(), x,
            intListValue(t, {before - cols, after, 0, 0}), t.i(0));
      blocks.push_back(x);
    }
    Value result = blocks.empty()       ? zeros(0, totalCols)
                   : blocks.size() == 1 ? blocks[0]
                                        : t.cat(blocks, 0);
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

/// The tensors of a meshgrid or cartesian_prod list, with their sizes (0-d
/// as one element), all of one dtype; nullopt otherwise.
std::optional<std::pair<SmallVector<OpFoldResult>, SmallVector<int64_t>>>
gridInputs(Value list, unsigned maxRank) {
  std::optional<SmallVector<OpFoldResult>> tensors = knownTensors(list);
  if (!tensors || tensors->empty())
    return std::nullopt;
  SmallVector<int64_t> counts;
  Type dtype = dtypeOf((*tensors)[0]);
  for (OpFoldResult e : *tensors) {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(e);
    if (!sizes || sizes->size() > maxRank || !dtype || dtypeOf(e) != dtype)
      return std::nullopt;
    counts.push_back(sizes->empty() ? 1 : (*sizes)[0]);
  }
  return std::pair(std::move(*tensors), std::move(counts));
}

/// The grids of meshgrid: tensor i viewed with its size at dim `at[i]` and
/// expanded to `grid`.
SmallVector<Value> buildGrids(TSBuilder &t, ArrayRef<OpFoldResult> tensors,
                              ArrayRef<int64_t> at, ArrayRef<int64_t> grid) {
  SmallVector<Value> grids;
  for (auto [e, dim] : llvm::zip_equal(tensors, at)) {
    SmallVector<int64_t> view(grid.size(), 1);
    view[dim] = grid[dim];
    Value x = t.reshape(materialize(t.b, t.loc, e), view);
    grids.push_back(t.expand(x, grid));
  }
  return grids;
}

/// meshgrid(tensors) ("ij") and meshgrid.indexing(tensors, indexing).
template <typename OpTy>
struct DecomposeMeshgrid : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    bool xy = false;
    if constexpr (std::is_same_v<OpTy, AtenMeshgridIndexingOp>) {
      std::optional<StringRef> indexing = constStr(op.getIndexing());
      if (!indexing || (*indexing != "ij" && *indexing != "xy"))
        return rewriter.notifyMatchFailure(op, "indexing is not ij or xy");
      xy = *indexing == "xy";
    }
    auto inputs = gridInputs(op.getTensors(), 1);
    if (!inputs)
      return rewriter.notifyMatchFailure(op, "the tensors are not known "
                                             "0-d or 1-D tensors of one dtype");
    auto &[tensors, counts] = *inputs;
    SmallVector<int64_t> at(tensors.size());
    std::iota(at.begin(), at.end(), 0);
    if (xy && at.size() >= 2)
      std::swap(at[0], at[1]);
    SmallVector<int64_t> grid(counts.size());
    for (auto [count, dim] : llvm::zip_equal(counts, at))
      grid[dim] = count;
    TSBuilder t{rewriter, op.getLoc()};
    SmallVector<Value> grids = buildGrids(t, tensors, at, grid);
    rewriter.replaceOpWithNewOp<PrimListConstructOp>(op, op.getType(), grids);
    return success();
  }
};

struct DecomposeCartesianProd : public OpRewritePattern<AtenCartesianProdOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenCartesianProdOp op,
                                PatternRewriter &rewriter) const override {
    auto inputs = gridInputs(op.getTensors(), 1);
    if (!inputs || llvm::any_of(inputs->first, [](OpFoldResult e) {
          return staticSizes(e)->size() != 1;
        }))
      return rewriter.notifyMatchFailure(op, "the tensors are not known "
                                             "1-D tensors of one dtype");
    auto &[tensors, counts] = *inputs;
    TSBuilder t{rewriter, op.getLoc()};
    if (tensors.size() == 1) {
      replaceWithDeclaredTypes(rewriter, op,
                               {materialize(rewriter, op.getLoc(),
                                            tensors[0])});
      return success();
    }
    SmallVector<int64_t> at(tensors.size());
    std::iota(at.begin(), at.end(), 0);
    SmallVector<Value> columns;
    for (Value grid : buildGrids(t, tensors, at, counts))
      columns.push_back(t.reshape(grid, {shape::numElements(counts)}));
    replaceWithDeclaredTypes(rewriter, op, {t.stack(columns, 1)});
    return success();
  }
};

/// bilinear(x1 [..., I], x2 [..., J], W [O, I, J], b [O]?): the sum over i
/// and j of x1[..., i] W[o, i, j] x2[..., j], plus b.
struct DecomposeBilinear : public OpRewritePattern<AtenBilinearOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenBilinearOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> a = staticSizes(op.getInput1());
    std::optional<SmallVector<int64_t>> b = staticSizes(op.getInput2());
    std::optional<SmallVector<int64_t>> w = staticSizes(op.getWeight());
    Type dtype = dtypeOf(op.getInput1());
    if (!a || !b || !w || !dtype)
      return rewriter.notifyMatchFailure(op, "sizes or dtype not known");
    if (a->empty() || a->size() != b->size() || w->size() != 3 ||
        !llvm::equal(ArrayRef(*a).drop_back(), ArrayRef(*b).drop_back()) ||
        a->back() != (*w)[1] || b->back() != (*w)[2])
      return rewriter.notifyMatchFailure(op, "sizes do not match");
    int64_t o = (*w)[0], in1 = (*w)[1], in2 = (*w)[2];
    // PyTorch's reshape of the inputs to [-1, I] raises for I = 0.
    if (in1 == 0 || in2 == 0)
      return rewriter.notifyMatchFailure(op, "an input dim of size 0");
    if (dtypeOf(op.getInput2()) != dtype || dtypeOf(op.getWeight()) != dtype ||
        shape::isBoolDtype(dtype))
      return rewriter.notifyMatchFailure(op, "dtypes differ or are Bool");
    if (!isNone(op.getBias())) {
      std::optional<SmallVector<int64_t>> bias = staticSizes(op.getBias());
      if (!bias || bias->size() != 1 || (*bias)[0] != o)
        return rewriter.notifyMatchFailure(op, "bias is not a vector of the "
                                               "output size");
    }
    SmallVector<int64_t> batch(a->begin(), a->end() - 1);
    int64_t n = shape::numElements(batch);
    Location loc = op.getLoc();
    TSBuilder t{rewriter, loc};
    Value weight =
        t.reshape(t.permute(op.getWeight(), {1, 0, 2}), {in1, o * in2});
    Value left = AtenMmOp::create(rewriter, loc, t.tensor(),
                                  t.reshape(op.getInput1(), {n, in1}), weight);
    Value result = t.matmul(t.reshape(left, {n, o, in2}),
                            t.reshape(op.getInput2(), {n, in2, 1}));
    result = t.reshape(result, concat(batch, {o}));
    if (!isNone(op.getBias()))
      result = t.add(result, op.getBias());
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Norms
//===----------------------------------------------------------------------===//

/// PyTorch's checks of a norm's input and dtype argument: a floating-point
/// input, and a dtype (if any) floating point that it converts to without
/// narrowing.
LogicalResult checkNormDtypes(PatternRewriter &rewriter, Operation *op,
                              Value self, Value dtypeArg) {
  Type dtype = dtypeOf(self);
  if (!shape::isFloatDtype(dtype))
    return rewriter.notifyMatchFailure(op, "the input is not known to be "
                                           "floating point");
  if (isNone(dtypeArg))
    return success();
  std::optional<int64_t> code = constInt(dtypeArg);
  Type to = code ? getDtypeForScalarTypeCode(op->getContext(), *code) : Type();
  if (!shape::isFloatDtype(to) || promoteTypes(dtype, to) != to)
    return rewriter.notifyMatchFailure(op, "dtype is not a floating-point "
                                           "dtype the input widens to");
  return success();
}

/// A vector norm of `ord` over `dims` (None or empty: all) of a tensor of
/// `sizes`: PyTorch raises for repeated dims, and for a negative or
/// infinite ord over no elements (no identity).
LogicalResult checkVectorNorm(PatternRewriter &rewriter, Operation *op,
                              ArrayRef<int64_t> sizes, double ord,
                              Value dims) {
  SmallVector<int64_t> reduced;
  if (isNone(dims)) {
    reduced.assign(sizes.begin(), sizes.end());
  } else {
    std::optional<SmallVector<int64_t>> wrapped =
        wrappedDims(dims, sizes.size());
    if (!wrapped)
      return rewriter.notifyMatchFailure(op, "dims not constant, out of "
                                             "range or repeated");
    for (int64_t d : *wrapped)
      reduced.push_back(sizes.empty() ? 1 : sizes[d]);
    if (wrapped->empty())
      reduced.assign(sizes.begin(), sizes.end());
  }
  if ((ord < 0 || std::isinf(ord)) && shape::numElements(reduced) == 0)
    return rewriter.notifyMatchFailure(op, "a negative or infinite norm of "
                                           "no elements");
  return success();
}

/// linalg_matrix_norm of one of the orders computed here: 'fro' (nullopt)
/// or 1, -1, inf, -inf, over two wrapped dims.
struct MatrixNorm {
  std::optional<double> ord;
  int64_t dim0, dim1;
  bool keepdim;
};

FailureOr<MatrixNorm> planMatrixNorm(PatternRewriter &rewriter, Operation *op,
                                     Value self, std::optional<double> ord,
                                     ArrayRef<int64_t> dims, Value keepdim,
                                     Value dtype) {
  if (ord && (std::abs(*ord) == 2))
    return rewriter.notifyMatchFailure(op, "the 2 and -2 matrix norms need "
                                           "singular values");
  if (ord && std::abs(*ord) != 1 && !std::isinf(*ord))
    return rewriter.notifyMatchFailure(op, "not a matrix norm order");
  std::optional<SmallVector<int64_t>> sizes = staticSizes(self);
  std::optional<bool> keep = constBool(keepdim);
  if (!sizes || !keep)
    return rewriter.notifyMatchFailure(op, "sizes or keepdim not known");
  int64_t rank = sizes->size();
  std::optional<int64_t> d0 =
      dims.size() == 2 ? shape::wrapDim(dims[0], rank) : std::nullopt;
  std::optional<int64_t> d1 =
      dims.size() == 2 ? shape::wrapDim(dims[1], rank) : std::nullopt;
  if (rank < 2 || !d0 || !d1 || *d0 == *d1)
    return rewriter.notifyMatchFailure(op, "not two different dims of a "
                                           "tensor of at least 2 dims");
  if (failed(checkNormDtypes(rewriter, op, self, dtype)))
    return failure();
  // amax and amin raise over a dim of size 0.
  int64_t last = ord && std::isinf(*ord) ? *d0 : *d1;
  if (ord && (*sizes)[last] == 0)
    return rewriter.notifyMatchFailure(op, "amax or amin over a dim of "
                                           "size 0");
  return MatrixNorm{ord, *d0, *d1, *keep};
}

Value buildMatrixNorm(TSBuilder &t, Value self, const MatrixNorm &norm,
                      Value keepdim, Value dtype) {
  int64_t d0 = norm.dim0, d1 = norm.dim1;
  if (!norm.ord)
    return vectorNorm(t, self, 2.0, intListValue(t, {d0, d1}), keepdim,
                      dtype);
  // The inf norm is the 1 norm of the transpose.
  if (std::isinf(*norm.ord))
    std::swap(d0, d1);
  Value sums = vectorNorm(t, self, 1.0, intListValue(t, {d0}), keepdim, dtype);
  if (!norm.keepdim && d0 < d1)
    --d1;
  Value dims = intListValue(t, {d1});
  if (*norm.ord > 0)
    return AtenAmaxOp::create(t.b, t.loc, t.tensor(), sums, dims, keepdim);
  return AtenAminOp::create(t.b, t.loc, t.tensor(), sums, dims, keepdim);
}

/// A matrix norm's order given as a string: 'fro' (nullopt) or a failure.
FailureOr<std::optional<double>> stringOrder(PatternRewriter &rewriter,
                                             Operation *op, Value ord) {
  std::optional<StringRef> name = constStr(ord);
  if (name && *name == "fro")
    return std::optional<double>();
  if (name && *name == "nuc")
    return rewriter.notifyMatchFailure(op, "the nuclear norm needs singular "
                                           "values");
  return rewriter.notifyMatchFailure(op, "ord is not a constant 'fro'");
}

/// linalg_matrix_norm(self, ord, dim, keepdim, dtype) and .str_ord.
template <typename OpTy>
struct DecomposeMatrixNorm : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::optional<double> ord;
    if constexpr (std::is_same_v<OpTy, AtenLinalgMatrixNormStrOrdOp>) {
      FailureOr<std::optional<double>> named =
          stringOrder(rewriter, op, op.getOrd());
      if (failed(named))
        return failure();
      ord = *named;
    } else {
      ord = constFloat(op.getOrd());
      if (!ord)
        return rewriter.notifyMatchFailure(op, "ord not constant");
    }
    std::optional<SmallVector<int64_t>> dims = constIntList(op.getDim());
    if (!dims)
      return rewriter.notifyMatchFailure(op, "dims not constant");
    FailureOr<MatrixNorm> norm =
        planMatrixNorm(rewriter, op, op.getSelf(), ord, *dims, op.getKeepdim(),
                       op.getDtype());
    if (failed(norm))
      return failure();
    TSBuilder t{rewriter, op.getLoc()};
    replaceWithDeclaredTypes(rewriter, op,
                             {buildMatrixNorm(t, op.getSelf(), *norm,
                                              op.getKeepdim(), op.getDtype())});
    return success();
  }
};

/// linalg_norm(self, ord?, dim?, keepdim, dtype?): a matrix norm for an
/// ord with two dims (or none, of a matrix), else a vector norm (of ord 2
/// without ord).
struct DecomposeLinalgNorm : public OpRewritePattern<AtenLinalgNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenLinalgNormOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    if (!sizes)
      return rewriter.notifyMatchFailure(op, "sizes not known");
    bool hasOrd = !isNone(op.getOrd());
    std::optional<double> ord = hasOrd ? constFloat(op.getOrd()) : 2.0;
    if (!ord)
      return rewriter.notifyMatchFailure(op, "ord not constant");
    std::optional<SmallVector<int64_t>> dims;
    if (!isNone(op.getDim())) {
      dims = constIntList(op.getDim());
      if (!dims || dims->empty() || dims->size() > 2)
        return rewriter.notifyMatchFailure(op, "dims not constant, or not "
                                               "one or two");
    } else if (hasOrd && sizes->size() != 1 && sizes->size() != 2) {
      return rewriter.notifyMatchFailure(op, "an ord without dims of a "
                                             "tensor neither 1-D nor 2-D");
    }
    TSBuilder t{rewriter, op.getLoc()};
    if (hasOrd && (dims ? dims->size() == 2 : sizes->size() == 2)) {
      SmallVector<int64_t> both = dims ? *dims : SmallVector<int64_t>{0, 1};
      FailureOr<MatrixNorm> norm =
          planMatrixNorm(rewriter, op, op.getSelf(), ord, both,
                         op.getKeepdim(), op.getDtype());
      if (failed(norm))
        return failure();
      replaceWithDeclaredTypes(rewriter, op,
                               {buildMatrixNorm(t, op.getSelf(), *norm,
                                                op.getKeepdim(),
                                                op.getDtype())});
      return success();
    }
    if (failed(checkNormDtypes(rewriter, op, op.getSelf(), op.getDtype())) ||
        failed(checkVectorNorm(rewriter, op, *sizes, *ord, op.getDim())))
      return failure();
    replaceWithDeclaredTypes(rewriter, op,
                             {vectorNorm(t, op.getSelf(), *ord, op.getDim(),
                                         op.getKeepdim(), op.getDtype())});
    return success();
  }
};

/// linalg_norm.ord_str(self, str ord, dim?, keepdim, dtype?): the matrix
/// norm over dim, or over the two dims of a matrix.
struct DecomposeLinalgNormStr
    : public OpRewritePattern<AtenLinalgNormOrdStrOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenLinalgNormOrdStrOp op,
                                PatternRewriter &rewriter) const override {
    Value self = op.getSelf(), dimArg = op.getDim(), keepdim = op.getKeepdim(),
          dtype = op.getDtype();
    FailureOr<std::optional<double>> ord = stringOrder(rewriter, op, op.getOrd());
    if (failed(ord))
      return failure();
    std::optional<SmallVector<int64_t>> dims =
        isNone(dimArg) ? SmallVector<int64_t>{0, 1} : constIntList(dimArg);
    if (!dims)
      return rewriter.notifyMatchFailure(op, "dims not constant");
    // Without dims, PyTorch asks for a 1-D or 2-D input, then the matrix
    // norm for 2 dims.
    auto type = llvm::cast<ts::TensorType>(self.getType());
    if (isNone(dimArg) && type.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "no dims and not a matrix");
    FailureOr<MatrixNorm> norm =
        planMatrixNorm(rewriter, op, self, *ord, *dims, keepdim, dtype);
    if (failed(norm))
      return failure();
    TSBuilder t{rewriter, op.getLoc()};
    replaceWithDeclaredTypes(rewriter, op,
                             {buildMatrixNorm(t, self, *norm, keepdim,
                                              dtype)});
    return success();
  }
};

/// frobenius_norm.dim(self, dim, keepdim): the 2-norm over at most two
/// dims (all of them for none).
struct DecomposeFrobeniusNorm
    : public OpRewritePattern<AtenFrobeniusNormDimOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenFrobeniusNormDimOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    if (!sizes)
      return rewriter.notifyMatchFailure(op, "sizes not known");
    std::optional<SmallVector<int64_t>> dims =
        wrappedDims(op.getDim(), sizes->size());
    if (!dims || dims->size() > 2)
      return rewriter.notifyMatchFailure(op, "dims not constant, out of "
                                             "range, repeated or more than "
                                             "two");
    // PyTorch's CPU kernels take neither integers (norm raises) nor Half
    // and BFloat16 (sqrt raises).
    Type dtype = dtypeOf(op.getSelf());
    if (!dtype || (!dtype.isF32() && !dtype.isF64()))
      return rewriter.notifyMatchFailure(op, "not Float or Double");
    TSBuilder t{rewriter, op.getLoc()};
    Value dimsValue = dims->empty() ? t.none() : intListValue(t, *dims);
    replaceWithDeclaredTypes(rewriter, op,
                             {vectorNorm(t, op.getSelf(), 2.0, dimsValue,
                                         op.getKeepdim(), t.none())});
    return success();
  }
};

/// renorm(self, p, dim, maxnorm): each slice along dim whose p-norm n
/// exceeds maxnorm scaled by maxnorm / (n + 1e-7), as PyTorch computes it
/// (the norm and factor in Float for Half and BFloat16).
struct DecomposeRenorm : public OpRewritePattern<AtenRenormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenRenormOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<double> p = constFloat(op.getP());
    std::optional<double> maxnorm = constFloat(op.getMaxnorm());
    std::optional<int64_t> dimArg = constInt(op.getDim());
    Type dtype = dtypeOf(op.getSelf());
    if (!sizes || !p || !maxnorm || !dimArg || !dtype)
      return rewriter.notifyMatchFailure(op, "sizes, dtype or arguments not "
                                             "known");
    int64_t rank = sizes->size();
    std::optional<int64_t> dim = shape::wrapDim(*dimArg, rank);
    if (rank < 2 || !dim || !(*p > 0) || !(*maxnorm >= 0) ||
        !shape::isFloatDtype(dtype))
      return rewriter.notifyMatchFailure(op, "PyTorch raises: fewer than 2 "
                                             "dims, p <= 0, maxnorm < 0 or "
                                             "not floating point");
    SmallVector<int64_t> reduced;
    for (int64_t d = 0; d < rank; ++d)
      if (d != *dim)
        reduced.push_back(d);
    SmallVector<int64_t> reducedSizes;
    for (int64_t d : reduced)
      reducedSizes.push_back((*sizes)[d]);
    if (std::isinf(*p) && shape::numElements(reducedSizes) == 0)
      return rewriter.notifyMatchFailure(op, "an infinite norm of no "
                                             "elements");
    bool lowPrecision = dtype.isF16() || dtype.isBF16();
    Location loc = op.getLoc();
    TSBuilder t{rewriter, loc};
    Value norm = vectorNorm(t, op.getSelf(), *p, intListValue(t, reduced),
                            t.flag(true),
                            lowPrecision ? t.i(kFloat) : t.none());
    Value exceeds =
        AtenGtScalarOp::create(rewriter, loc, t.tensor(), norm, t.f(*maxnorm));
    Value limit = AtenFullLikeOp::create(rewriter, loc, t.tensor(), norm,
                                         t.f(*maxnorm), t.none(), t.none(),
                                         t.none(), t.none(), t.none());
    Value denominator = AtenAddScalarOp::create(rewriter, loc, t.tensor(),
                                                norm, t.f(1e-7), t.i(1));
    Value scale = t.div(limit, denominator);
    Value factor = AtenWhereScalarOtherOp::create(rewriter, loc, t.tensor(),
                                                  exceeds, scale, t.f(1.0));
    if (lowPrecision)
      factor = AtenTypeAsOp::create(rewriter, loc, t.tensor(), factor,
                                    op.getSelf());
    replaceWithDeclaredTypes(rewriter, op, {t.mul(op.getSelf(), factor)});
    return success();
  }
};

} // namespace

void mlir::tsmlir::ts::decompose::populateMatricesPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeDiagonal, DecomposeDiagEmbed, DecomposeDiag,
               DecomposeDiagonalScatter, DecomposeTrace, DecomposeKron,
               DecomposeCross<AtenCrossOp>, DecomposeCross<AtenLinalgCrossOp>,
               DecomposeTriangleIndices<AtenTriuIndicesOp, true>,
               DecomposeTriangleIndices<AtenTrilIndicesOp, false>,
               DecomposeBlockDiag, DecomposeMeshgrid<AtenMeshgridOp>,
               DecomposeMeshgrid<AtenMeshgridIndexingOp>,
               DecomposeCartesianProd, DecomposeBilinear>(
      patterns.getContext());
  patterns.add<DecomposeMatrixNorm<AtenLinalgMatrixNormOp>,
               DecomposeMatrixNorm<AtenLinalgMatrixNormStrOrdOp>,
               DecomposeLinalgNorm, DecomposeLinalgNormStr,
               DecomposeFrobeniusNorm, DecomposeRenorm>(patterns.getContext());
}
