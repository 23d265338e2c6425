//===- DecomposeFactorizations.cpp - Matrix factorizations and solvers ----===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// torch.linalg's factorizations and solvers on batches of matrices
// [batch..., m, n] of float or double with static sizes, as the unblocked
// LAPACK routines PyTorch's CPU kernels call compute them, one step per
// row or column, each step a few vector and matrix ops over the whole batch
// (the graph grows linearly with the matrices' size):
//
//   LU (getrf): partial pivoting, the first largest |x| of the column below
//     the diagonal; rows exchanged by a gather; the multipliers scaled by
//     the pivot's reciprocal, left as they are when the pivot is 0 (info
//     records its column); the trailing matrix minus the outer product
//   Cholesky (potrf, lower): column j is A[:, j] - L[:, :j] L[j, :j]^T,
//     its diagonal the square root of that element and the rest times its
//     reciprocal; info is the first column whose element is not positive
//     (that column and the next hold NaN where LAPACK stops); upper = the
//     transposed factor of A^T (A's upper triangle is read)
//   triangular solves (trsm): forward or back substitution, one row of X a
//     step (the other triangle is not read; a unit diagonal is not read)
//   Householder QR (geqrf): dlarfg's reflectors (beta = -sign(alpha)
//     hypot(alpha, |x|), tau = (beta - alpha) / beta, v = x / (alpha -
//     beta); tau = 0 when |x| = 0) applied to the columns on the right;
//     orgqr (householder_product) and ormqr apply H_i = I - tau_i v_i v_i^T
//     in the order the product needs
//
// and what PyTorch composes from them: det, slogdet and logdet from the
// LU's diagonal and the parity of its exchanges; solve, inv and lu_solve
// as the permuted right side through L and U (adjoint and right-hand
// solves through the transposes); cholesky_solve and cholesky_inverse;
// lu and lu_unpack (P, L, U); qr in every mode; matrix_power by PyTorch's
// binary decomposition of n; matrix_exp by scaling and squaring of the
// degree-18 Taylor polynomial; multi_dot in its cheapest order (PyTorch's
// rule for three matrices, its dynamic program for more); vander;
// tensorinv and tensorsolve as inv and solve of the flattened tensors.
//
// Where PyTorch raises on a singular or not positive-definite input
// (linalg.inv, linalg.solve, linalg.cholesky without _ex), the result holds
// the infinities or NaNs the arithmetic gives.
//
//===----------------------------------------------------------------------===//

#include "MatrixBuilder.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::decompose;

namespace {

//===----------------------------------------------------------------------===//
// Triangular solves
//===----------------------------------------------------------------------===//

/// X with a X = rhs for the lower (or upper) triangle of `a` [batch..., n,
/// n] and `rhs` [batch..., n, k] (the same batch): one row of X a step.
Value solveTriangular(MatrixBuilder &mb, Value a, Value rhs, int64_t n,
                      bool upper, bool unit) {
  TSBuilder &t = mb.t;
  if (n == 0)
    return t.clone(rhs);
  SmallVector<Value> xs(n);
  for (int64_t s = 0; s < n; ++s) {
    int64_t i = upper ? n - 1 - s : s;
    int64_t lo = upper ? i + 1 : 0, hi = upper ? n : i;
    Value ai = mb.row(a, i);
    Value x = mb.row(rhs, i);
    if (hi > lo) {
      Value coeffs = t.narrow(ai, mb.B, lo, hi - lo);
      Value solved = t.stack(ArrayRef<Value>(xs).slice(lo, hi - lo), mb.B);
      x = t.sub(x, mb.vecmat(coeffs, solved));
    }
    if (!unit)
      x = t.div(x, mb.perVector(mb.at(ai, i)));
    xs[i] = x;
  }
  return t.stack(xs, mb.B);
}

//===----------------------------------------------------------------------===//
// LU
//===----------------------------------------------------------------------===//

struct LUFactors {
  Value lu;                    // [batch..., m, n]: L below the diagonal, U on
                               // and above it
  Value perm;                  // [batch..., m] Long: row i of lu is row
                               // perm[i] of A
  SmallVector<Value> pivots;   // per step, the row exchanged (0-based Long)
  SmallVector<Value> diagonal; // per step, the pivot [batch...]
};

/// Row `j` of [batch..., m] index vectors `rows` exchanged with row `p`
/// ([batch...] Long), as a gather index.
Value exchangeIndex(MatrixBuilder &mb, Value rows, int64_t m, int64_t j,
                    Value p) {
  TSBuilder &t = mb.t;
  Value pv = mb.perVector(p);
  Value isP = AtenEqTensorOp::create(t.b, t.loc, t.tensor(), rows, pv);
  Value isJ = mb.vectorMask(m, [&](int64_t i) { return i == j; });
  return t.where(isJ, pv, t.whereNumber(isP, t.i(j), rows));
}

/// `x` [batch..., m, n] with its rows gathered by `index` [batch..., m].
Value gatherRows(MatrixBuilder &mb, Value x, Value index,
                 ArrayRef<int64_t> sizes) {
  TSBuilder &t = mb.t;
  return t.gather(x, mb.B, t.expand(t.unsqueeze(index, mb.B + 1), sizes));
}

LUFactors luFactor(MatrixBuilder &mb, Value a, const MatrixBatch &s) {
  TSBuilder &t = mb.t;
  int64_t m = s.rows, n = s.cols, k = std::min(m, n);
  SmallVector<int64_t> iota(m);
  std::iota(iota.begin(), iota.end(), 0);
  Value rows = t.longs(iota, {m});
  LUFactors f;
  f.perm =
      s.batch.empty() ? t.clone(rows) : t.expand(rows, concat(s.batch, {m}));
  Value w = a;
  for (int64_t j = 0; j < k; ++j) {
    Value below = t.narrow(mb.col(w, j), mb.B, j, m - j);
    Value p = AtenArgmaxOp::create(t.b, t.loc, t.tensor(), mb.abs(below),
                                   t.i(mb.B), t.flag(false));
    p = AtenAddScalarOp::create(t.b, t.loc, t.tensor(), p, t.i(j), t.i(1));
    Value index = exchangeIndex(mb, rows, m, j, p);
    w = gatherRows(mb, w, index, s.sizes());
    f.perm = t.gather(f.perm, mb.B, index);
    f.pivots.push_back(p);
    Value column = mb.col(w, j);
    Value pivot = mb.at(column, j);
    f.diagonal.push_back(pivot);
    Value l = t.mul(column, mb.perVector(mb.reciprocal(pivot)));
    l = t.where(mb.perVector(mb.eqNumber(pivot, 0)), column, l);
    Value updated = t.sub(w, mb.outer(l, mb.row(w, j)));
    Value trailing = mb.matrixMask(
        m, n, [&](int64_t r, int64_t c) { return r > j && c > j; });
    Value multipliers = mb.matrixMask(
        m, n, [&](int64_t r, int64_t c) { return r > j && c == j; });
    w = t.where(trailing, updated,
                t.where(multipliers, t.unsqueeze(l, mb.B + 1), w));
  }
  f.lu = k ? w : t.clone(a);
  return f;
}

/// LAPACK's 1-based pivots as Int [batch..., k].
Value pivotsTensor(MatrixBuilder &mb, const LUFactors &f,
                   ArrayRef<int64_t> batch) {
  TSBuilder &t = mb.t;
  if (f.pivots.empty())
    return t.zeros(concat(batch, {0}), kInt);
  Value p = t.stack(f.pivots, mb.B);
  p = AtenAddScalarOp::create(t.b, t.loc, t.tensor(), p, t.i(1), t.i(1));
  return t.to(p, kInt);
}

/// The first step (1-based) whose element is flagged by `failed` (bool
/// [batch...] per step), 0 where none is: LAPACK's info, as Int.
Value firstFailure(MatrixBuilder &mb, ArrayRef<Value> failed,
                   ArrayRef<int64_t> batch) {
  TSBuilder &t = mb.t;
  Value info = t.zeros(batch, kInt);
  for (int64_t j = failed.size() - 1; j >= 0; --j)
    info = t.whereNumber(failed[j], t.i(j + 1), info);
  return info;
}

Value luInfo(MatrixBuilder &mb, const LUFactors &f, ArrayRef<int64_t> batch) {
  SmallVector<Value> zero;
  for (Value d : f.diagonal)
    zero.push_back(mb.eqNumber(d, 0));
  return firstFailure(mb, zero, batch);
}

/// Whether the LU's exchanges are an odd permutation (bool [batch...]).
Value oddPermutation(MatrixBuilder &mb, const LUFactors &f,
                     ArrayRef<int64_t> batch) {
  TSBuilder &t = mb.t;
  Value odd = t.to(t.zeros(batch, kLong), kBool);
  for (auto [j, p] : llvm::enumerate(f.pivots)) {
    Value exchanged = AtenNeScalarOp::create(t.b, t.loc, t.tensor(), p,
                                             t.i(static_cast<int64_t>(j)));
    odd = AtenLogicalXorOp::create(t.b, t.loc, t.tensor(), odd, exchanged);
  }
  return odd;
}

/// X with A X = rhs, A = P L U given by its factors; `rhs` [batch..., n, k].
Value luSolve(MatrixBuilder &mb, Value lu, Value perm, Value rhs, int64_t n,
              ArrayRef<int64_t> rhsSizes) {
  Value permuted = gatherRows(mb, rhs, perm, rhsSizes);
  Value y = solveTriangular(mb, lu, permuted, n, /*upper=*/false,
                            /*unit=*/true);
  return solveTriangular(mb, lu, y, n, /*upper=*/true, /*unit=*/false);
}

/// X with A^T X = rhs: U^T Z = rhs, L^T Y = Z, X = P Y.
Value luSolveAdjoint(MatrixBuilder &mb, Value lu, Value perm, Value rhs,
                     int64_t n, ArrayRef<int64_t> rhsSizes) {
  Value luT = mb.transpose(lu);
  Value z = solveTriangular(mb, luT, rhs, n, /*upper=*/false, /*unit=*/false);
  Value y = solveTriangular(mb, luT, z, n, /*upper=*/true, /*unit=*/true);
  Value inverse = mb.t.sort(perm, mb.B).second;
  return gatherRows(mb, y, inverse, rhsSizes);
}

/// The permutation LAPACK's 1-based `pivots` [batch..., k] describe, as
/// the Long [batch..., m] row order of luFactor.
Value permutationOf(MatrixBuilder &mb, Value pivots, int64_t m, int64_t k,
                    ArrayRef<int64_t> batch) {
  TSBuilder &t = mb.t;
  SmallVector<int64_t> iota(m);
  std::iota(iota.begin(), iota.end(), 0);
  Value rows = t.longs(iota, {m});
  Value perm =
      batch.empty() ? t.clone(rows) : t.expand(rows, concat(batch, {m}));
  Value zeroBased = AtenSubScalarOp::create(
      t.b, t.loc, t.tensor(), t.to(pivots, kLong), t.i(1), t.i(1));
  for (int64_t j = 0; j < k; ++j)
    perm = t.gather(perm, mb.B,
                    exchangeIndex(mb, rows, m, j, mb.at(zeroBased, j)));
  return perm;
}

/// P [batch..., m, m] with P[perm[i], i] = 1, in the matrices' dtype.
Value permutationMatrix(MatrixBuilder &mb, Value perm, int64_t m) {
  TSBuilder &t = mb.t;
  SmallVector<int64_t> iota(m);
  std::iota(iota.begin(), iota.end(), 0);
  Value rows = t.unsqueeze(t.longs(iota, {m}), 1);
  Value hit = AtenEqTensorOp::create(t.b, t.loc, t.tensor(), rows,
                                     t.unsqueeze(perm, mb.B));
  return t.castTo(hit, mb.dtype);
}

/// (L, U) of an LU [batch..., m, n]: L [m, k] unit lower, U [k, n] upper.
std::pair<Value, Value> unpackLU(MatrixBuilder &mb, Value lu,
                                 const MatrixBatch &s) {
  TSBuilder &t = mb.t;
  int64_t k = std::min(s.rows, s.cols);
  Value l = AtenTrilOp::create(t.b, t.loc, t.tensor(),
                               t.narrow(lu, mb.B + 1, 0, k), t.i(-1));
  l = t.add(l, mb.eye(s.batch, s.rows, k));
  Value u = AtenTriuOp::create(t.b, t.loc, t.tensor(), t.narrow(lu, mb.B, 0, k),
                               t.i(0));
  return {l, u};
}

//===----------------------------------------------------------------------===//
// Cholesky
//===----------------------------------------------------------------------===//

/// The lower Cholesky factor of `a` [batch..., n, n] (its lower triangle)
/// and, per column, whether its element was not positive.
std::pair<Value, SmallVector<Value>> choleskyLower(MatrixBuilder &mb, Value a,
                                                   int64_t n) {
  TSBuilder &t = mb.t;
  SmallVector<Value> cols, failed;
  for (int64_t j = 0; j < n; ++j) {
    Value v = mb.col(a, j);
    if (j) {
      Value done = t.stack(cols, mb.B + 1);
      v = t.sub(v, mb.matvec(done, mb.row(done, j)));
    }
    Value element = mb.at(v, j);
    failed.push_back(t.logicalNot(
        AtenGtScalarOp::create(t.b, t.loc, t.tensor(), element, t.f(0))));
    Value d = AtenSqrtOp::create(t.b, t.loc, t.tensor(), element);
    Value c = t.mul(v, mb.perVector(mb.reciprocal(d)));
    c = t.where(mb.vectorMask(n, [&](int64_t i) { return i == j; }),
                mb.perVector(d), c);
    c = t.whereNumber(mb.vectorMask(n, [&](int64_t i) { return i < j; }),
                      t.f(0), c);
    cols.push_back(c);
  }
  return {n ? t.stack(cols, mb.B + 1) : t.clone(a), failed};
}

/// The Cholesky factor (U = L^T of A^T when `upper`) and LAPACK's info.
std::pair<Value, Value> cholesky(MatrixBuilder &mb, Value a,
                                 const MatrixBatch &s, bool upper) {
  auto [l, failed] = choleskyLower(mb, upper ? mb.transpose(a) : a, s.rows);
  return {upper ? mb.transpose(l) : l, firstFailure(mb, failed, s.batch)};
}

/// X with A X = rhs for A = L L^T (U^T U when `upper`) given its factor.
Value choleskySolve(MatrixBuilder &mb, Value factor, Value rhs, int64_t n,
                    bool upper) {
  Value lower = upper ? mb.transpose(factor) : factor;
  Value y = solveTriangular(mb, lower, rhs, n, false, false);
  return solveTriangular(mb, mb.transpose(lower), y, n, true, false);
}

//===----------------------------------------------------------------------===//
// Householder reflectors
//===----------------------------------------------------------------------===//

/// v_j of the reflectors stored below the diagonal of `a` [batch..., m, n]:
/// 0 above row j, 1 at it, a[:, j] below.
Value reflector(MatrixBuilder &mb, Value a, int64_t m, int64_t j) {
  TSBuilder &t = mb.t;
  Value v = t.whereNumber(mb.vectorMask(m, [&](int64_t i) { return i == j; }),
                          t.f(1), mb.col(a, j));
  return t.whereNumber(mb.vectorMask(m, [&](int64_t i) { return i < j; }),
                       t.f(0), v);
}

/// x - tau v (v^T x): H = I - tau v v^T applied to the columns of x.
Value reflectLeft(MatrixBuilder &mb, Value x, Value v, Value tau) {
  return mb.t.sub(x, mb.outer(v, mb.t.mul(mb.vecmat(v, x), mb.perVector(tau))));
}

/// x - tau (x v) v^T: x H.
Value reflectRight(MatrixBuilder &mb, Value x, Value v, Value tau) {
  return mb.t.sub(x, mb.outer(mb.t.mul(mb.matvec(x, v), mb.perVector(tau)), v));
}

} // namespace

std::pair<Value, Value> decompose::geqrf(MatrixBuilder &mb, Value a,
                                         const MatrixBatch &s) {
  TSBuilder &t = mb.t;
  int64_t m = s.rows, n = s.cols, k = std::min(m, n);
  if (shape::numElements(s.batch) == 0)
    return {t.clone(a),
            t.castTo(t.zeros(concat(s.batch, {k}), kLong), mb.dtype)};
  Value w = a;
  SmallVector<Value> taus;
  for (int64_t j = 0; j < k; ++j) {
    Value x = mb.col(w, j);
    Value alpha = mb.at(x, j);
    Value below = mb.vectorMask(m, [&](int64_t i) { return i > j; });
    Value tail = t.whereNumber(t.logicalNot(below), t.f(0), x);
    Value xnorm = AtenLinalgVectorNormOp::create(t.b, t.loc, t.tensor(), tail,
                                                 t.f(2), t.sizes({mb.B}),
                                                 t.flag(false), t.none());
    Value trivial = mb.eqNumber(xnorm, 0);
    Value beta = mb.neg(AtenCopysignTensorOp::create(
        t.b, t.loc, t.tensor(),
        AtenHypotOp::create(t.b, t.loc, t.tensor(), alpha, xnorm), alpha));
    Value tau = t.whereNumber(trivial, t.f(0), t.div(t.sub(beta, alpha), beta));
    Value scaled = t.mul(x, mb.perVector(mb.reciprocal(t.sub(alpha, beta))));
    Value v = t.where(mb.perVector(trivial), x, scaled);
    Value diagonal = t.where(trivial, alpha, beta);
    Value isJ = mb.vectorMask(m, [&](int64_t i) { return i == j; });
    Value column = t.where(isJ, mb.perVector(diagonal), t.where(below, v, x));
    Value reflectorV =
        t.whereNumber(mb.vectorMask(m, [&](int64_t i) { return i < j; }),
                      t.f(0), t.whereNumber(isJ, t.f(1), v));
    Value reflected = reflectLeft(mb, w, reflectorV, tau);
    Value right = mb.matrixMask(
        m, n, [&](int64_t r, int64_t c) { return r >= j && c > j; });
    Value colJ =
        mb.matrixMask(m, n, [&](int64_t, int64_t c) { return c == j; });
    w = t.where(right, reflected,
                t.where(colJ, t.unsqueeze(column, mb.B + 1), w));
    taus.push_back(tau);
  }
  Value tau = k ? t.stack(taus, mb.B)
                : t.castTo(t.zeros(concat(s.batch, {0}), kLong), mb.dtype);
  return {k ? w : t.clone(a), tau};
}

namespace {

/// H_0 ... H_{k-1} applied to `x` from the left (Q x), or its transpose
/// (Q^T x), or from the right (x Q, x Q^T); the reflectors are the first k
/// columns of `a` [batch..., m, *].
Value applyQ(MatrixBuilder &mb, Value a, Value tau, int64_t m, int64_t k,
             Value x, bool left, bool transpose) {
  // Q x and x Q^T apply H_{k-1} first; Q^T x and x Q apply H_0 first.
  bool lastFirst = left != transpose;
  for (int64_t s = 0; s < k; ++s) {
    int64_t i = lastFirst ? k - 1 - s : s;
    Value v = reflector(mb, a, m, i);
    Value ti = mb.at(tau, i);
    x = left ? reflectLeft(mb, x, v, ti) : reflectRight(mb, x, v, ti);
  }
  return k ? x : mb.t.clone(x);
}

} // namespace

Value decompose::householderProduct(MatrixBuilder &mb, Value a, Value tau,
                                    ArrayRef<int64_t> batch, int64_t m,
                                    int64_t n, int64_t k) {
  return applyQ(mb, a, tau, m, k, mb.eye(batch, m, n), /*left=*/true,
                /*transpose=*/false);
}

namespace {

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// The op's square matrices.
bool isSquare(const MatrixBatch &s) { return s.rows == s.cols; }

template <typename OpTy> struct DecomposeLUFactor : MatrixPattern<OpTy> {
  using MatrixPattern<OpTy>::MatrixPattern;
  LogicalResult rewrite(OpTy op, MatrixBuilder &mb, const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    // PyTorch's CPU LU always pivots.
    if (constBool(op.getPivot()) != true)
      return failure();
    LUFactors f = luFactor(mb, op->getOperand(0), s);
    results = {f.lu, pivotsTensor(mb, f, s.batch)};
    if (op->getNumResults() == 3)
      results.push_back(luInfo(mb, f, s.batch));
    return success();
  }
};

struct DecomposeLinalgLU : MatrixPattern<AtenLinalgLuOp> {
  using MatrixPattern::MatrixPattern;
  LogicalResult rewrite(AtenLinalgLuOp op, MatrixBuilder &mb,
                        const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    if (constBool(op.getPivot()) != true)
      return failure();
    LUFactors f = luFactor(mb, op.getA(), s);
    auto [l, u] = unpackLU(mb, f.lu, s);
    results = {permutationMatrix(mb, f.perm, s.rows), l, u};
    return success();
  }
};

struct DecomposeLUUnpack : MatrixPattern<AtenLuUnpackOp> {
  using MatrixPattern::MatrixPattern;
  LogicalResult rewrite(AtenLuUnpackOp op, MatrixBuilder &mb,
                        const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    std::optional<SmallVector<int64_t>> pivots = staticSizes(op.getLUPivots());
    int64_t k = std::min(s.rows, s.cols);
    if (!pivots || *pivots != concat(s.batch, {k}) ||
        constBool(op.getUnpackData()) != true ||
        constBool(op.getUnpackPivots()) != true)
      return failure();
    auto [l, u] = unpackLU(mb, op.getLUData(), s);
    Value perm = permutationOf(mb, op.getLUPivots(), s.rows, k, s.batch);
    results = {permutationMatrix(mb, perm, s.rows), l, u};
    return success();
  }
};

template <typename OpTy> struct DecomposeDet : MatrixPattern<OpTy> {
  using MatrixPattern<OpTy>::MatrixPattern;
  LogicalResult rewrite(OpTy op, MatrixBuilder &mb, const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    if (!isSquare(s))
      return failure();
    TSBuilder &t = mb.t;
    if (s.rows == 0) {
      results = {t.castTo(t.ones(s.batch, kLong), mb.dtype)};
      return success();
    }
    LUFactors f = luFactor(mb, op->getOperand(0), s);
    Value product = AtenProdDimIntOp::create(
        t.b, t.loc, t.tensor(), t.stack(f.diagonal, mb.B), t.i(mb.B),
        t.flag(false), t.none());
    Value odd = oddPermutation(mb, f, s.batch);
    results = {t.where(odd, mb.neg(product), product)};
    return success();
  }
};

/// (sign, log|det|) of slogdet; logdet is log|det| where the sign is not
/// negative (NaN where it is).
template <typename OpTy> struct DecomposeSlogdet : MatrixPattern<OpTy> {
  using MatrixPattern<OpTy>::MatrixPattern;
  LogicalResult rewrite(OpTy op, MatrixBuilder &mb, const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    if (!isSquare(s))
      return failure();
    TSBuilder &t = mb.t;
    Value sign, logAbs;
    if (s.rows == 0) {
      sign = t.castTo(t.ones(s.batch, kLong), mb.dtype);
      logAbs = t.castTo(t.zeros(s.batch, kLong), mb.dtype);
    } else {
      LUFactors f = luFactor(mb, op->getOperand(0), s);
      Value diagonal = t.stack(f.diagonal, mb.B);
      sign = AtenProdDimIntOp::create(
          t.b, t.loc, t.tensor(),
          AtenSgnOp::create(t.b, t.loc, t.tensor(), diagonal), t.i(mb.B),
          t.flag(false), t.none());
      sign = t.where(oddPermutation(mb, f, s.batch), mb.neg(sign), sign);
      logAbs = t.sumDim(
          AtenLogOp::create(t.b, t.loc, t.tensor(), mb.abs(diagonal)), mb.B);
    }
    if (op->getNumResults() == 2) {
      results = {sign, logAbs};
      return success();
    }
    Value negative = mb.eqNumber(sign, -1);
    results = {t.whereNumber(negative, t.f(std::nan("")), logAbs)};
    return success();
  }
};

/// The sizes of a solve of A X = B (or X A = B), read before anything is
/// built: the broadcast batch, A's n, B's columns k (as a matrix), whether
/// B is a vector (PyTorch's linalg_solve_is_vector_rhs) and the operands'
/// own batches.
struct SolvePlan {
  SmallVector<int64_t> batch, aBatch, bBatch;
  int64_t n, k, bRank;
  bool vector;
};

std::optional<SolvePlan> planSolve(const MatrixBatch &a,
                                   ArrayRef<int64_t> bSizes, bool left) {
  if (a.rows != a.cols)
    return std::nullopt;
  bool vector = bSizes.size() == 1 ||
                (bSizes.size() == a.batch.size() + 1 &&
                 SmallVector<int64_t>(bSizes) == concat(a.batch, {a.rows}));
  SmallVector<int64_t> m(bSizes);
  if (vector)
    m.insert(left ? m.end() : m.end() - 1, 1);
  if (m.size() < 2)
    return std::nullopt;
  if (!left)
    std::swap(m[m.size() - 1], m[m.size() - 2]);
  SmallVector<int64_t> bBatch(m.begin(), m.end() - 2);
  std::optional<SmallVector<int64_t>> batch = broadcastBatch(a.batch, bBatch);
  if (!batch || m[m.size() - 2] != a.rows)
    return std::nullopt;
  return SolvePlan{*batch, a.batch,  bBatch,
                   a.rows, m.back(), static_cast<int64_t>(bSizes.size()),
                   vector};
}

/// X with A X = B (X A = B when `!left`: A^T X^T = B^T, through the
/// adjoint solve) as planned; the LU's info too when `withInfo`.
SmallVector<Value> buildSolve(TSBuilder &t, Type dtype, Value a, Value b,
                              const SolvePlan &p, bool left, bool withInfo) {
  int64_t n = p.n, k = p.k;
  MatrixBuilder mb{t, static_cast<int64_t>(p.batch.size()), dtype};
  if (p.vector)
    b = t.unsqueeze(b, left ? p.bRank : p.bRank - 1);
  if (!left)
    b = t.transpose(b, p.bBatch.size(), p.bBatch.size() + 1);
  if (p.aBatch != p.batch)
    a = t.expand(a, concat(p.batch, {n, n}));
  if (p.bBatch != p.batch)
    b = t.expand(b, concat(p.batch, {n, k}));
  LUFactors f = luFactor(mb, a, MatrixBatch{p.batch, n, n});
  SmallVector<int64_t> sizes = concat(p.batch, {n, k});
  Value x = left ? luSolve(mb, f.lu, f.perm, b, n, sizes)
                 : luSolveAdjoint(mb, f.lu, f.perm, b, n, sizes);
  if (!left)
    x = mb.transpose(x);
  if (p.vector)
    x = mb.squeeze(x, left ? mb.B + 1 : mb.B);
  SmallVector<Value> results{x};
  if (withInfo)
    results.push_back(luInfo(mb, f, p.batch));
  return results;
}

/// The inverse of `a` [batch..., n, n]: the solve against I.
Value inverseOf(MatrixBuilder &mb, Value a, ArrayRef<int64_t> batch, int64_t n,
                bool withInfo, SmallVector<Value> &results) {
  SolvePlan p{SmallVector<int64_t>(batch),
              SmallVector<int64_t>(batch),
              SmallVector<int64_t>(batch),
              n,
              n,
              0,
              false};
  p.bRank = batch.size() + 2;
  results =
      buildSolve(mb.t, mb.dtype, a, mb.eye(batch, n, n), p, true, withInfo);
  return results[0];
}

template <typename OpTy> struct DecomposeSolve : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::optional<bool> left = constBool(op.getLeft());
    std::optional<MatrixBatch> as = matrixBatch(op.getA());
    std::optional<SmallVector<int64_t>> bSizes = staticSizes(op.getB());
    if (!left || !as || !bSizes || dtypeOf(op.getA()) != dtypeOf(op.getB()))
      return rewriter.notifyMatchFailure(op, "arguments not supported");
    std::optional<SolvePlan> plan = planSolve(*as, *bSizes, *left);
    if (!plan)
      return rewriter.notifyMatchFailure(op, "sizes do not fit");
    TSBuilder t{rewriter, op.getLoc()};
    replaceWithDeclaredTypes(rewriter, op,
                             buildSolve(t, dtypeOf(op.getA()), op.getA(),
                                        op.getB(), *plan, *left,
                                        op->getNumResults() == 2));
    return success();
  }
};

/// inv(A) = solve(A, I); linalg_inv_ex gives the info too.
template <typename OpTy> struct DecomposeInverse : MatrixPattern<OpTy> {
  using MatrixPattern<OpTy>::MatrixPattern;
  LogicalResult rewrite(OpTy op, MatrixBuilder &mb, const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    if (!isSquare(s))
      return failure();
    inverseOf(mb, op->getOperand(0), s.batch, s.rows, op->getNumResults() == 2,
              results);
    return success();
  }
};

/// linalg_lu_solve(LU, pivots, B, left, adjoint) and lu_solve(B, LU,
/// pivots).
template <typename OpTy>
struct DecomposeLUSolve : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  static constexpr bool kOld = std::is_same_v<OpTy, AtenLuSolveOp>;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value lu = op->getOperand(kOld ? 1 : 0);
    Value pivots = op->getOperand(kOld ? 2 : 1);
    Value b = op->getOperand(kOld ? 0 : 2);
    bool left = true, adjoint = false;
    if constexpr (!kOld) {
      std::optional<bool> l = constBool(op.getLeft());
      std::optional<bool> adj = constBool(op.getAdjoint());
      if (!l || !adj)
        return rewriter.notifyMatchFailure(op, "left or adjoint not known");
      left = *l;
      adjoint = *adj;
    }
    std::optional<MatrixBatch> ls = matrixBatch(lu);
    std::optional<MatrixBatch> bs = matrixBatch(b);
    std::optional<SmallVector<int64_t>> ps = staticSizes(pivots);
    if (!ls || !bs || !ps || ps->empty() || dtypeOf(lu) != dtypeOf(b) ||
        !isSquare(*ls))
      return rewriter.notifyMatchFailure(op, "sizes or dtypes not supported");
    MatrixBatch bsz = *bs;
    if (!left) {
      std::swap(bsz.rows, bsz.cols);
      adjoint = !adjoint;
    }
    SmallVector<int64_t> pivotBatch(ps->begin(), ps->end() - 1);
    std::optional<SmallVector<int64_t>> batch =
        broadcastBatch(ls->batch, bsz.batch);
    if (batch)
      batch = broadcastBatch(*batch, pivotBatch);
    if (!batch || ps->back() != ls->rows || bsz.rows != ls->rows)
      return rewriter.notifyMatchFailure(op, "sizes do not fit");
    TSBuilder t{rewriter, op.getLoc()};
    MatrixBuilder mb{t, static_cast<int64_t>(bs->batch.size()), dtypeOf(lu)};
    Value bm = left ? b : mb.transpose(b);
    int64_t n = ls->rows;
    auto expandTo = [&](Value v, ArrayRef<int64_t> own,
                        ArrayRef<int64_t> tail) {
      return own == ArrayRef<int64_t>(*batch)
                 ? v
                 : t.expand(v, concat(*batch, tail));
    };
    lu = expandTo(lu, ls->batch, {n, n});
    pivots = expandTo(pivots, pivotBatch, {n});
    bm = expandTo(bm, bsz.batch, {n, bsz.cols});
    mb.B = batch->size();
    Value perm = permutationOf(mb, pivots, n, n, *batch);
    SmallVector<int64_t> sizes = concat(*batch, {n, bsz.cols});
    Value x = adjoint ? luSolveAdjoint(mb, lu, perm, bm, n, sizes)
                      : luSolve(mb, lu, perm, bm, n, sizes);
    if (!left)
      x = mb.transpose(x);
    replaceWithDeclaredTypes(rewriter, op, {x});
    return success();
  }
};

/// linalg_solve_triangular(A, B, upper, left, unitriangular) and
/// triangular_solve(B, A, upper, transpose, unitriangular) -> (X, A).
template <typename OpTy>
struct DecomposeTriangularSolve : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  static constexpr bool kOld = std::is_same_v<OpTy, AtenTriangularSolveOp>;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value a = op->getOperand(kOld ? 1 : 0);
    Value b = op->getOperand(kOld ? 0 : 1);
    std::optional<bool> upper = constBool(op.getUpper());
    std::optional<bool> unit = constBool(op.getUnitriangular());
    std::optional<bool> left = true, transpose = false;
    if constexpr (kOld)
      transpose = constBool(op.getTranspose());
    else
      left = constBool(op.getLeft());
    std::optional<MatrixBatch> as = matrixBatch(a);
    std::optional<MatrixBatch> bs = matrixBatch(b);
    if (!upper || !unit || !left || !transpose || !as || !bs ||
        dtypeOf(a) != dtypeOf(b) || !isSquare(*as))
      return rewriter.notifyMatchFailure(op, "arguments not supported");
    // X A = B is A^T X^T = B^T; A^T X = B reads A's other triangle.
    int64_t n = as->rows;
    int64_t bRows = *left ? bs->rows : bs->cols;
    std::optional<SmallVector<int64_t>> batch =
        broadcastBatch(as->batch, bs->batch);
    if (!batch || bRows != n)
      return rewriter.notifyMatchFailure(op, "sizes do not fit");
    TSBuilder t{rewriter, op.getLoc()};
    MatrixBuilder mb{t, static_cast<int64_t>(batch->size()), dtypeOf(a)};
    Value am = a, bm = b;
    if (as->batch != *batch)
      am = t.expand(a, concat(*batch, {n, n}));
    if (bs->batch != *batch)
      bm = t.expand(b, concat(*batch, {bs->rows, bs->cols}));
    bool up = *upper;
    if (!*left)
      bm = mb.transpose(bm);
    if (!*left || *transpose) {
      am = mb.transpose(am);
      up = !up;
    }
    Value x = solveTriangular(mb, am, bm, n, up, *unit);
    if (!*left)
      x = mb.transpose(x);
    SmallVector<Value> results{x};
    if (kOld)
      results.push_back(t.clone(a));
    replaceWithDeclaredTypes(rewriter, op, results);
    return success();
  }
};

/// linalg_cholesky_ex (L, info), linalg_cholesky and cholesky (L).
template <typename OpTy> struct DecomposeCholesky : MatrixPattern<OpTy> {
  using MatrixPattern<OpTy>::MatrixPattern;
  LogicalResult rewrite(OpTy op, MatrixBuilder &mb, const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    std::optional<bool> upper = constBool(op.getUpper());
    if (!upper || !isSquare(s))
      return failure();
    auto [factor, info] = cholesky(mb, op->getOperand(0), s, *upper);
    results = {factor};
    if (op->getNumResults() == 2)
      results.push_back(info);
    return success();
  }
};

/// cholesky_solve(B, L, upper) and cholesky_inverse(L, upper).
template <typename OpTy>
struct DecomposeCholeskySolve : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  static constexpr bool kInverse = std::is_same_v<OpTy, AtenCholeskyInverseOp>;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value factor = op->getOperand(kInverse ? 0 : 1);
    std::optional<MatrixBatch> fs = matrixBatch(factor);
    std::optional<bool> upper = constBool(op.getUpper());
    if (!fs || !upper || !isSquare(*fs))
      return rewriter.notifyMatchFailure(op, "arguments not supported");
    int64_t n = fs->rows;
    SmallVector<int64_t> batch = fs->batch;
    std::optional<MatrixBatch> bs;
    if (!kInverse) {
      bs = matrixBatch(op->getOperand(0));
      std::optional<SmallVector<int64_t>> common =
          bs ? broadcastBatch(fs->batch, bs->batch) : std::nullopt;
      if (!common || dtypeOf(op->getOperand(0)) != dtypeOf(factor) ||
          bs->rows != n)
        return rewriter.notifyMatchFailure(op, "sizes do not fit");
      batch = *common;
    }
    TSBuilder t{rewriter, op.getLoc()};
    MatrixBuilder mb{t, static_cast<int64_t>(batch.size()), dtypeOf(factor)};
    Value b;
    if (kInverse) {
      b = mb.eye(batch, n, n);
    } else {
      b = op->getOperand(0);
      if (bs->batch != batch)
        b = t.expand(b, concat(batch, {n, bs->cols}));
    }
    if (fs->batch != batch)
      factor = t.expand(factor, concat(batch, {n, n}));
    replaceWithDeclaredTypes(rewriter, op,
                             {choleskySolve(mb, factor, b, n, *upper)});
    return success();
  }
};

struct DecomposeGeqrf : MatrixPattern<AtenGeqrfOp> {
  using MatrixPattern::MatrixPattern;
  LogicalResult rewrite(AtenGeqrfOp op, MatrixBuilder &mb, const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    auto [a, tau] = geqrf(mb, op.getSelf(), s);
    results = {a, tau};
    return success();
  }
};

/// The taus of householder_product and ormqr: [batch..., k] with k at most
/// `limit`.
std::optional<int64_t> tauCount(Value tau, const MatrixBatch &s,
                                int64_t limit) {
  std::optional<SmallVector<int64_t>> sizes = staticSizes(tau);
  if (!sizes || sizes->size() != s.batch.size() + 1 ||
      ArrayRef<int64_t>(*sizes).drop_back() != ArrayRef<int64_t>(s.batch) ||
      sizes->back() > limit)
    return std::nullopt;
  return sizes->back();
}

template <typename OpTy>
struct DecomposeHouseholderProduct : MatrixPattern<OpTy> {
  using MatrixPattern<OpTy>::MatrixPattern;
  LogicalResult rewrite(OpTy op, MatrixBuilder &mb, const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    std::optional<int64_t> k = tauCount(op->getOperand(1), s, s.cols);
    if (!k || s.rows < s.cols || dtypeOf(op->getOperand(1)) != mb.dtype)
      return failure();
    results = {householderProduct(mb, op->getOperand(0), op->getOperand(1),
                                  s.batch, s.rows, s.cols, *k)};
    return success();
  }
};

struct DecomposeOrmqr : MatrixPattern<AtenOrmqrOp> {
  using MatrixPattern::MatrixPattern;
  LogicalResult rewrite(AtenOrmqrOp op, MatrixBuilder &mb, const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    std::optional<bool> left = constBool(op.getLeft());
    std::optional<bool> transpose = constBool(op.getTranspose());
    std::optional<int64_t> k = tauCount(op.getInput2(), s, s.rows);
    std::optional<MatrixBatch> cs = matrixBatch(op.getInput3());
    if (!left || !transpose || !k || !cs || cs->batch != s.batch ||
        dtypeOf(op.getInput3()) != mb.dtype ||
        dtypeOf(op.getInput2()) != mb.dtype ||
        (*left ? cs->rows : cs->cols) != s.rows)
      return failure();
    results = {applyQ(mb, op.getSelf(), op.getInput2(), s.rows, *k,
                      op.getInput3(), *left, *transpose)};
    return success();
  }
};

/// linalg_qr(A, mode) and qr(A, some): geqrf, then Q from its reflectors
/// (m x k reduced, m x m complete; an empty Q for mode 'r') and R the upper
/// triangle of its first k (m for complete) rows.
template <typename OpTy> struct DecomposeQR : MatrixPattern<OpTy> {
  using MatrixPattern<OpTy>::MatrixPattern;
  LogicalResult rewrite(OpTy op, MatrixBuilder &mb, const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    std::optional<StringRef> mode;
    if constexpr (std::is_same_v<OpTy, AtenQrOp>) {
      if (std::optional<bool> some = constBool(op.getSome()))
        mode = *some ? "reduced" : "complete";
    } else {
      mode = constStr(op.getMode());
    }
    if (!mode || (*mode != "reduced" && *mode != "complete" && *mode != "r"))
      return failure();
    TSBuilder &t = mb.t;
    int64_t m = s.rows, n = s.cols, k = std::min(m, n);
    auto [a, tau] = geqrf(mb, op->getOperand(0), s);
    bool complete = *mode == "complete";
    int64_t rRows = complete ? m : k;
    Value r = AtenTriuOp::create(t.b, t.loc, t.tensor(),
                                 t.narrow(a, mb.B, 0, rRows), t.i(0));
    Value q;
    if (*mode == "r")
      q = t.castTo(t.zeros({0}, kLong), mb.dtype);
    else
      q = householderProduct(mb, a, tau, s.batch, m, complete ? m : k, k);
    results = {q, r};
    return success();
  }
};

/// matrix_power(A, n) as PyTorch computes it: I for n = 0, A^-1 to the
/// power -n for n < 0, A A and (A A) A for 2 and 3, else the binary
/// decomposition of n (z squared per bit, the result times z per set bit).
struct DecomposeMatrixPower : public OpRewritePattern<AtenLinalgMatrixPowerOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenLinalgMatrixPowerOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<int64_t> power = constInt(op.getN());
    Type dtype = dtypeOf(op.getSelf());
    if (!sizes || sizes->size() < 2 || !power || !dtype ||
        (*sizes)[sizes->size() - 2] != sizes->back() ||
        (*power < 0 && !isRealFloat(dtype)) || dtype.isInteger(1))
      return rewriter.notifyMatchFailure(op, "arguments not supported");
    TSBuilder t{rewriter, op.getLoc()};
    int64_t n = sizes->back();
    SmallVector<int64_t> batch(sizes->begin(), sizes->end() - 2);
    MatrixBuilder mb{t, static_cast<int64_t>(batch.size()), dtype};
    Value a = op.getSelf();
    int64_t p = *power;
    Value result;
    if (p == 0) {
      result = t.clone(mb.eye(batch, n, n));
    } else {
      if (p < 0) {
        SmallVector<Value> inv;
        a = inverseOf(mb, a, batch, n, false, inv);
        p = -p;
      }
      if (p == 1) {
        result = t.clone(a);
      } else if (p == 2) {
        result = t.matmul(a, a);
      } else if (p == 3) {
        result = t.matmul(t.matmul(a, a), a);
      } else {
        Value z;
        while (p > 0) {
          bool bit = p % 2;
          p /= 2;
          z = z ? t.matmul(z, z) : a;
          if (bit)
            result = result ? t.matmul(result, z) : z;
        }
      }
    }
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

/// matrix_exp (and linalg_matrix_exp) as PyTorch's Taylor method (Bader,
/// Blanes and Casas, 2019) at its highest degree: each matrix is scaled by
/// 2^-s, s = max(0, ceil(log2(|A|_1 / theta_18))) with PyTorch's theta_18
/// for the dtype, the degree-18 Taylor polynomial of the scaled matrix is
/// evaluated by Horner's rule, and the result is squared s times: a
/// prim::Loop to the batch's largest s, each matrix squared while its own
/// s lasts. PyTorch takes a lower degree for matrices of smaller norm; both
/// are accurate to the dtype's rounding. A 1x1 matrix is exp of its
/// element.
template <typename OpTy>
struct DecomposeMatrixExp : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value self = op.getSelf();
    std::optional<MatrixBatch> s = matrixBatch(self);
    if (!s || s->rows != s->cols || s->rows == 0)
      return rewriter.notifyMatchFailure(op, "not square float matrices of "
                                             "known sizes");
    TSBuilder t{rewriter, op.getLoc()};
    Type dtype = dtypeOf(self);
    MatrixBuilder mb{t, static_cast<int64_t>(s->batch.size()), dtype};
    int64_t n = s->rows;
    if (n == 1) {
      replaceWithDeclaredTypes(
          rewriter, op,
          {AtenExpOp::create(rewriter, op.getLoc(), t.tensor(), self)});
      return success();
    }
    Location loc = op.getLoc();
    // PyTorch's theta_18 (LinearAlgebra.cpp, thetas_float / thetas_double).
    double theta =
        dtype.isF64() ? 1.090863719290036e+00 : 3.010066362817634e+00;
    int64_t B = s->batch.size();
    Value norm =
        AtenAmaxOp::create(rewriter, loc, t.tensor(),
                           AtenSumDimIntListOp::create(
                               rewriter, loc, t.tensor(), mb.abs(self),
                               intListValue(t, {B}), t.flag(false), t.none()),
                           intListValue(t, {B}), t.flag(false));
    Value log2 = AtenLog2Op::create(
        rewriter, loc, t.tensor(),
        AtenDivScalarOp::create(rewriter, loc, t.tensor(), norm, t.f(theta)));
    Value squarings = AtenClampMinOp::create(
        rewriter, loc, t.tensor(),
        AtenCeilOp::create(rewriter, loc, t.tensor(), log2), t.f(0));
    // [batch..., 1, 1], to scale and select whole matrices.
    Value perMatrix = t.unsqueeze(t.unsqueeze(squarings, B), B + 1);
    Value scale = AtenPowScalarOp::create(rewriter, loc, t.tensor(), t.f(2),
                                          mb.neg(perMatrix));
    Value a = t.mul(self, scale);
    Value eye = mb.eye(s->batch, n, n);
    // I + A/18, then I + A P / k for k = 17 ... 1.
    Value p = t.add(
        eye, AtenDivScalarOp::create(rewriter, loc, t.tensor(), a, t.f(18)));
    for (int k = 17; k >= 1; --k)
      p = t.add(eye, AtenDivScalarOp::create(rewriter, loc, t.tensor(),
                                             t.matmul(a, p), t.f(k)));
    Value trips = AtenIntTensorOp::create(
        rewriter, loc, ts::IntType::get(op.getContext()),
        AtenMaxOp::create(rewriter, loc, t.tensor(), squarings));
    SmallVector<Value> out = buildLoop(
        t, trips, {p}, [&](Value i, ValueRange carried) -> SmallVector<Value> {
          Value m = carried[0];
          Value squaring =
              AtenGtScalarOp::create(rewriter, loc, t.tensor(), perMatrix, i);
          return {t.where(squaring, t.matmul(m, m), m)};
        });
    replaceWithDeclaredTypes(rewriter, op, {out[0]});
    return success();
  }
};

/// multi_dot: a 1-D first (last) tensor as a row (column), the product in
/// the cheapest order (PyTorch's cost rule for three, its matrix-chain
/// program for more), the added dims removed.
struct DecomposeMultiDot : public OpRewritePattern<AtenLinalgMultiDotOp> {
  using OpRewritePattern::OpRewritePattern;

  static Value chain(TSBuilder &t, ArrayRef<Value> xs,
                     const std::vector<std::vector<int64_t>> &split, int64_t i,
                     int64_t j) {
    if (i == j)
      return xs[i];
    int64_t k = split[i][j];
    return t.matmul(chain(t, xs, split, i, k), chain(t, xs, split, k + 1, j));
  }

  LogicalResult matchAndRewrite(AtenLinalgMultiDotOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<OpFoldResult>> tensors =
        knownTensors(op.getTensors());
    if (!tensors || tensors->size() < 2)
      return rewriter.notifyMatchFailure(op, "tensors not known");
    int64_t count = tensors->size();
    TSBuilder t{rewriter, op.getLoc()};
    SmallVector<SmallVector<int64_t>> sizes;
    for (OpFoldResult x : *tensors) {
      std::optional<SmallVector<int64_t>> s = staticSizes(x);
      if (!s || s->empty() || s->size() > 2)
        return rewriter.notifyMatchFailure(op, "not vectors and matrices");
      sizes.push_back(*s);
    }
    bool firstVector = sizes.front().size() == 1;
    bool lastVector = sizes.back().size() == 1;
    if (count > 2 && llvm::any_of(ArrayRef(sizes).slice(1, count - 2),
                                  [](auto &s) { return s.size() != 2; }))
      return rewriter.notifyMatchFailure(op, "inner tensors not matrices");
    if (count == 2) {
      Value a = materialize(rewriter, op.getLoc(), (*tensors)[0]);
      Value b = materialize(rewriter, op.getLoc(), (*tensors)[1]);
      replaceWithDeclaredTypes(rewriter, op, {t.matmul(a, b)});
      return success();
    }
    SmallVector<Value> xs;
    SmallVector<int64_t> dims; // p_0 .. p_count
    for (int64_t i = 0; i < count; ++i) {
      Value x = materialize(rewriter, op.getLoc(), (*tensors)[i]);
      SmallVector<int64_t> s = sizes[i];
      if (i == 0 && firstVector) {
        x = t.unsqueeze(x, 0);
        s.insert(s.begin(), 1);
      } else if (i == count - 1 && lastVector) {
        x = t.unsqueeze(x, 1);
        s.push_back(1);
      }
      if (i && s[0] != dims.back())
        return rewriter.notifyMatchFailure(op, "sizes do not chain");
      if (!i)
        dims.push_back(s[0]);
      dims.push_back(s[1]);
      xs.push_back(x);
    }
    std::vector<std::vector<int64_t>> split(count, std::vector<int64_t>(count));
    if (count == 3) {
      int64_t a = dims[0], b = dims[1], c = dims[2], d = dims[3];
      // (AB)C unless A(BC) is cheaper.
      split[0][2] = (a * c) * (b + d) > (b * d) * (a + c) ? 0 : 1;
      split[1][2] = 1;
      split[0][1] = 0;
    } else {
      std::vector<std::vector<int64_t>> cost(count,
                                             std::vector<int64_t>(count));
      for (int64_t len = 1; len < count; ++len)
        for (int64_t i = 0; i + len < count; ++i) {
          int64_t j = i + len;
          cost[i][j] = std::numeric_limits<int64_t>::max();
          for (int64_t k = i; k < j; ++k) {
            int64_t q = cost[i][k] + cost[k + 1][j] +
                        dims[i] * dims[k + 1] * dims[j + 1];
            if (q < cost[i][j]) {
              cost[i][j] = q;
              split[i][j] = k;
            }
          }
        }
    }
    Value result = chain(t, xs, split, 0, count - 1);
    MatrixBuilder mb{t, 0, Type()};
    if (lastVector)
      result = mb.squeeze(result, 1);
    if (firstVector)
      result = mb.squeeze(result, 0);
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

/// vander(x, N): [..., n] -> [..., n, N], columns 1, x, x*x, ... (a cumprod
/// of x repeated; integers in Long).
struct DecomposeVander : public OpRewritePattern<AtenLinalgVanderOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenLinalgVanderOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getX());
    Type dtype = dtypeOf(op.getX());
    if (!sizes || !dtype || (sizes->empty() && isNone(op.getN())))
      return rewriter.notifyMatchFailure(op, "sizes not known");
    std::optional<int64_t> n =
        isNone(op.getN()) ? sizes->back() : constInt(op.getN());
    if (!n || *n <= 1)
      return rewriter.notifyMatchFailure(op, "N not known or below 2");
    int64_t code = isRealFloat(dtype) ? (dtype.isF64() ? kDouble : kFloat)
                   : llvm::isa<mlir::FloatType>(dtype) ? -1
                                                       : kLong;
    if (code < 0)
      return rewriter.notifyMatchFailure(op, "dtype not supported");
    TSBuilder t{rewriter, op.getLoc()};
    // A 0-d x counts as one element.
    Value x = op.getX();
    if (sizes->empty()) {
      x = t.reshape(x, {1});
      sizes->push_back(1);
    }
    int64_t rank = sizes->size();
    SmallVector<int64_t> expanded = concat(*sizes, {*n - 1});
    Value powers = AtenCumprodOp::create(
        rewriter, op.getLoc(), t.tensor(),
        t.expand(t.unsqueeze(x, rank), expanded), t.i(rank), t.none());
    expanded.back() = 1;
    replaceWithDeclaredTypes(rewriter, op,
                             {t.cat({t.ones(expanded, code), powers}, rank)});
    return success();
  }
};

/// tensorinv(A, ind): inv of A as a [prod(A[:ind]), prod(A[ind:])] matrix,
/// viewed A[ind:] + A[:ind].
struct DecomposeTensorInv : public OpRewritePattern<AtenLinalgTensorinvOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenLinalgTensorinvOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<int64_t> ind = constInt(op.getInd());
    if (!sizes || !ind || *ind <= 0 || *ind > int64_t(sizes->size()))
      return rewriter.notifyMatchFailure(op, "arguments not supported");
    ArrayRef<int64_t> head = ArrayRef<int64_t>(*sizes).take_front(*ind);
    ArrayRef<int64_t> tail = ArrayRef<int64_t>(*sizes).drop_front(*ind);
    int64_t rows = shape::numElements(head), cols = shape::numElements(tail);
    if (rows != cols)
      return rewriter.notifyMatchFailure(op, "not square");
    if (!isRealFloat(dtypeOf(op.getSelf())))
      return rewriter.notifyMatchFailure(op, "dtype not supported");
    TSBuilder t{rewriter, op.getLoc()};
    Value matrix = t.reshape(op.getSelf(), {rows, cols});
    MatrixBuilder mb{t, 0, dtypeOf(op.getSelf())};
    SmallVector<Value> inv;
    Value inverse = inverseOf(mb, matrix, {}, rows, false, inv);
    replaceWithDeclaredTypes(rewriter, op,
                             {t.reshape(inverse, concat(tail, head))});
    return success();
  }
};

/// tensorsolve(A, B, dims): A with `dims` moved last, as a [numel(B),
/// numel(rest)] matrix, solved against B flattened, viewed as the rest.
struct DecomposeTensorSolve : public OpRewritePattern<AtenLinalgTensorsolveOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenLinalgTensorsolveOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<SmallVector<int64_t>> bSizes = staticSizes(op.getOther());
    if (!sizes || !bSizes || bSizes->size() > sizes->size())
      return rewriter.notifyMatchFailure(op, "sizes not known");
    int64_t rank = sizes->size();
    SmallVector<int64_t> order;
    if (!isNone(op.getDims())) {
      std::optional<SmallVector<int64_t>> dims = constIntList(op.getDims());
      if (!dims)
        return rewriter.notifyMatchFailure(op, "dims not known");
      SmallVector<int64_t> moved;
      for (int64_t d : *dims) {
        std::optional<int64_t> w = shape::wrapDim(d, rank);
        if (!w || llvm::is_contained(moved, *w))
          return rewriter.notifyMatchFailure(op, "invalid dims");
        moved.push_back(*w);
      }
      for (int64_t d = 0; d < rank; ++d)
        if (!llvm::is_contained(moved, d))
          order.push_back(d);
      llvm::append_range(order, moved);
    } else {
      for (int64_t d = 0; d < rank; ++d)
        order.push_back(d);
    }
    SmallVector<int64_t> permuted;
    for (int64_t d : order)
      permuted.push_back((*sizes)[d]);
    SmallVector<int64_t> rest(permuted.begin() + bSizes->size(),
                              permuted.end());
    int64_t rows = shape::numElements(*bSizes);
    int64_t cols = shape::numElements(rest);
    if (rows != cols || shape::numElements(permuted) != rows * cols)
      return rewriter.notifyMatchFailure(op, "not square");
    Type dtype = dtypeOf(op.getSelf());
    if (!isRealFloat(dtype) || dtypeOf(op.getOther()) != dtype)
      return rewriter.notifyMatchFailure(op, "dtypes not supported");
    TSBuilder t{rewriter, op.getLoc()};
    Value matrix = t.reshape(t.permute(op.getSelf(), order), {rows, cols});
    Value rhs = t.reshape(op.getOther(), {rows});
    SolvePlan plan{{}, {}, {}, rows, 1, 1, true};
    SmallVector<Value> x = buildSolve(t, dtype, matrix, rhs, plan, true, false);
    replaceWithDeclaredTypes(rewriter, op, {t.reshape(x[0], rest)});
    return success();
  }
};

} // namespace

SmallVector<Value>
decompose::buildLoop(TSBuilder &t, Value trips, ValueRange inits,
                     function_ref<SmallVector<Value>(Value, ValueRange)> body) {
  SmallVector<Type> types(inits.size(), t.tensor());
  for (auto [i, v] : llvm::enumerate(inits))
    if (!llvm::isa<ts::TensorType>(v.getType()))
      types[i] = v.getType();
  auto loop = PrimLoopOp::create(t.b, t.loc, types, trips, t.flag(true), inits);
  OpBuilder::InsertionGuard guard(t.b);
  SmallVector<Type> argTypes{ts::IntType::get(t.ctx())};
  llvm::append_range(argTypes, types);
  SmallVector<Location> locs(argTypes.size(), t.loc);
  Block *block = t.b.createBlock(&loop.getBody(), {}, argTypes, locs);
  SmallVector<Value> yielded{t.flag(true)};
  llvm::append_range(
      yielded, body(block->getArgument(0), block->getArguments().drop_front()));
  PrimYieldOp::create(t.b, t.loc, yielded);
  return SmallVector<Value>(loop.getResults().begin(), loop.getResults().end());
}

SmallVector<Value>
decompose::buildLoop(TSBuilder &t, int64_t trips, ValueRange inits,
                     function_ref<SmallVector<Value>(ValueRange)> body) {
  return buildLoop(t, t.i(trips), inits,
                   [&](Value, ValueRange carried) { return body(carried); });
}

void mlir::tsmlir::ts::decompose::populateFactorizationPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<DecomposeLUFactor<AtenLinalgLuFactorExOp>,
               DecomposeLUFactor<AtenLinalgLuFactorOp>,
               DecomposeLUFactor<Aten_LuWithInfoOp>, DecomposeLinalgLU,
               DecomposeLUUnpack, DecomposeDet<AtenDetOp>,
               DecomposeDet<AtenLinalgDetOp>, DecomposeSlogdet<AtenSlogdetOp>,
               DecomposeSlogdet<AtenLinalgSlogdetOp>,
               DecomposeSlogdet<AtenLogdetOp>>(ctx);
  patterns.add<
      DecomposeSolve<AtenLinalgSolveOp>, DecomposeSolve<AtenLinalgSolveExOp>,
      DecomposeInverse<AtenLinalgInvOp>, DecomposeInverse<AtenLinalgInvExOp>,
      DecomposeInverse<AtenInverseOp>, DecomposeLUSolve<AtenLinalgLuSolveOp>,
      DecomposeLUSolve<AtenLuSolveOp>,
      DecomposeTriangularSolve<AtenLinalgSolveTriangularOp>,
      DecomposeTriangularSolve<AtenTriangularSolveOp>>(ctx);
  patterns.add<DecomposeCholesky<AtenLinalgCholeskyExOp>,
               DecomposeCholesky<AtenLinalgCholeskyOp>,
               DecomposeCholesky<AtenCholeskyOp>,
               DecomposeCholeskySolve<AtenCholeskySolveOp>,
               DecomposeCholeskySolve<AtenCholeskyInverseOp>>(ctx);
  patterns.add<DecomposeGeqrf,
               DecomposeHouseholderProduct<AtenLinalgHouseholderProductOp>,
               DecomposeHouseholderProduct<AtenOrgqrOp>, DecomposeOrmqr,
               DecomposeQR<AtenLinalgQrOp>, DecomposeQR<AtenQrOp>>(ctx);
  patterns.add<DecomposeMatrixExp<AtenMatrixExpOp>,
               DecomposeMatrixExp<AtenLinalgMatrixExpOp>>(ctx);
  patterns.add<DecomposeMatrixPower, DecomposeMultiDot, DecomposeVander,
               DecomposeTensorInv, DecomposeTensorSolve>(ctx);
}
