//===- DecomposeSpectral.cpp - SVD, symmetric eigendecomposition ----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Singular values and symmetric eigenvalues by Jacobi rotations, on batches
// of float or double matrices of static sizes; each sweep rotates every
// pair of columns (p < q) once, and a prim::Loop runs a fixed number of
// sweeps (enough for the quadratic convergence to reach the dtype's
// precision on the matrices torch.linalg's users pass):
//
//   svd (one-sided, Hestenes): W = A (A^T when it is wide) and V = I; each
//     rotation makes columns p and q of W orthogonal (tau = (|w_q|^2 -
//     |w_p|^2) / 2 w_p.w_q, t = sign(tau) / (|tau| + sqrt(1 + tau^2))) and
//     is applied to V too. The singular values are the columns' norms,
//     sorted in descending order; U's columns are W's divided by them,
//     completed to an orthonormal basis by a Householder QR (whose signs are
//     set back to U's).
//   eigh (two-sided, cyclic): the symmetric matrix of the chosen triangle;
//     each rotation zeroes element (p, q) (J^T A J) and is applied to V.
//     The eigenvalues are the diagonal, sorted in ascending order.
//
// Singular vectors and eigenvectors are unique only up to sign (and within
// repeated values, up to rotation), and LAPACK's choice is an artefact of
// its algorithm: a result may differ from PyTorch's by those choices while
// it is as valid a decomposition.
//
// On them: linalg_svd, svd (V not transposed; zeros for U and V without
// compute_uv), svdvals, matrix_rank (the values above max(atol, rtol * the
// largest), PyTorch's default rtol eps * max(m, n)), pinv (V diag(1/s) U^T
// over the values above the tolerance; from eigh for hermitian), pinverse,
// eigh, eigvalsh, symeig (an empty tensor for the eigenvectors it is not
// asked for); matrix norms of order 2, -2 and 'nuc' (the largest, the
// smallest and the sum of the singular values), nuclear_norm, and cond for
// p None, 2 and -2 (the ratio of the extreme singular values); lstsq as
// pinv(A) B with the rank, singular values and residuals its driver
// reports.
//
//===----------------------------------------------------------------------===//

#include "MatrixBuilder.h"

#include <limits>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::decompose;

namespace {

/// Sweeps of Jacobi rotations per decomposition.
int64_t sweepsFor(Type dtype) { return dtype.isF64() ? 14 : 10; }

/// The rotation (c, s) of Jacobi's method for a pair with diagonal terms
/// `app`, `aqq` and off-diagonal `apq` ([batch...]): t = sign(tau) / (|tau|
/// + sqrt(1 + tau^2)), tau = (aqq - app) / 2 apq; none (t = 0) where apq is
/// 0.
std::pair<Value, Value> rotation(MatrixBuilder &mb, Value app, Value aqq,
                                 Value apq) {
  TSBuilder &t = mb.t;
  Value twice = AtenMulScalarOp::create(t.b, t.loc, t.tensor(), apq, t.f(2));
  Value tau = t.div(t.sub(aqq, app), twice);
  Value root = AtenSqrtOp::create(
      t.b, t.loc, t.tensor(),
      AtenAddScalarOp::create(t.b, t.loc, t.tensor(), t.mul(tau, tau), t.f(1),
                              t.i(1)));
  Value magnitude = mb.reciprocal(t.add(mb.abs(tau), root));
  Value negative = AtenLtScalarOp::create(t.b, t.loc, t.tensor(), tau, t.f(0));
  Value tan = t.where(negative, mb.neg(magnitude), magnitude);
  tan = t.whereNumber(mb.eqNumber(apq, 0), t.f(0), tan);
  Value c = mb.reciprocal(AtenSqrtOp::create(
      t.b, t.loc, t.tensor(),
      AtenAddScalarOp::create(t.b, t.loc, t.tensor(), t.mul(tan, tan), t.f(1),
                              t.i(1))));
  return {c, t.mul(c, tan)};
}

/// `x` [batch..., r, n] with columns p and q replaced by c x_p - s x_q and
/// s x_p + c x_q (x J).
Value rotateColumns(MatrixBuilder &mb, Value x, int64_t r, int64_t n, int64_t p,
                    int64_t q, Value c, Value s) {
  TSBuilder &t = mb.t;
  Value xp = mb.col(x, p), xq = mb.col(x, q);
  Value cv = mb.perVector(c), sv = mb.perVector(s);
  Value newP = t.sub(t.mul(cv, xp), t.mul(sv, xq));
  Value newQ = t.add(t.mul(sv, xp), t.mul(cv, xq));
  Value isP = mb.matrixMask(r, n, [&](int64_t, int64_t j) { return j == p; });
  Value isQ = mb.matrixMask(r, n, [&](int64_t, int64_t j) { return j == q; });
  return t.where(isP, t.unsqueeze(newP, mb.B + 1),
                 t.where(isQ, t.unsqueeze(newQ, mb.B + 1), x));
}

/// `x` [batch..., n, n] with rows p and q replaced (J^T x).
Value rotateRows(MatrixBuilder &mb, Value x, int64_t n, int64_t p, int64_t q,
                 Value c, Value s) {
  TSBuilder &t = mb.t;
  Value xp = mb.row(x, p), xq = mb.row(x, q);
  Value cv = mb.perVector(c), sv = mb.perVector(s);
  Value newP = t.sub(t.mul(cv, xp), t.mul(sv, xq));
  Value newQ = t.add(t.mul(sv, xp), t.mul(cv, xq));
  Value isP = mb.matrixMask(n, n, [&](int64_t i, int64_t) { return i == p; });
  Value isQ = mb.matrixMask(n, n, [&](int64_t i, int64_t) { return i == q; });
  return t.where(isP, t.unsqueeze(newP, mb.B),
                 t.where(isQ, t.unsqueeze(newQ, mb.B), x));
}

/// The element (i, j) of matrices [batch..., r, c].
Value element(MatrixBuilder &mb, Value x, int64_t i, int64_t j) {
  return mb.at(mb.row(x, i), j);
}

/// `x`'s columns gathered by `order` [batch..., n].
Value gatherColumns(MatrixBuilder &mb, Value x, Value order,
                    ArrayRef<int64_t> sizes) {
  TSBuilder &t = mb.t;
  return t.gather(x, mb.B + 1, t.expand(t.unsqueeze(order, mb.B), sizes));
}

struct Svd {
  Value u, s, v; // [batch..., m, m or k], [batch..., k], [batch..., n, n or k]
};

/// One-sided Jacobi on a tall `a` [batch..., m, n] (m >= n): (W, V) after
/// the sweeps.
std::pair<Value, Value> jacobiColumns(MatrixBuilder &mb, Value a,
                                      ArrayRef<int64_t> batch, int64_t m,
                                      int64_t n) {
  TSBuilder &t = mb.t;
  SmallVector<Value> out =
      buildLoop(t, sweepsFor(mb.dtype), {a, mb.eye(batch, n, n)},
                [&](ValueRange carried) -> SmallVector<Value> {
                  Value w = carried[0], v = carried[1];
                  for (int64_t p = 0; p < n; ++p)
                    for (int64_t q = p + 1; q < n; ++q) {
                      Value wp = mb.col(w, p), wq = mb.col(w, q);
                      Value alpha = t.sumDim(t.mul(wp, wp), mb.B);
                      Value beta = t.sumDim(t.mul(wq, wq), mb.B);
                      Value gamma = t.sumDim(t.mul(wp, wq), mb.B);
                      auto [c, s] = rotation(mb, alpha, beta, gamma);
                      w = rotateColumns(mb, w, m, n, p, q, c, s);
                      v = rotateColumns(mb, v, n, n, p, q, c, s);
                    }
                  return {w, v};
                });
  return {out[0], out[1]};
}

/// The singular values of tall matrices from the converged columns W, in
/// descending order, and that order.
std::pair<Value, Value> sortedNorms(MatrixBuilder &mb, Value w) {
  TSBuilder &t = mb.t;
  Value norms =
      AtenLinalgVectorNormOp::create(t.b, t.loc, t.tensor(), w, t.f(2),
                                     t.sizes({mb.B}), t.flag(false), t.none());
  auto [negated, order] = t.sort(mb.neg(norms), mb.B);
  return {mb.neg(negated), order};
}

/// The SVD of `a` [batch..., m, n]: U [m, m] (full) or [m, k], the k
/// singular values, V [n, n] (full) or [n, k].
Svd svd(MatrixBuilder &mb, Value a, const MatrixBatch &s, bool full,
        bool valuesOnly) {
  TSBuilder &t = mb.t;
  int64_t m = s.rows, n = s.cols, k = std::min(m, n);
  if (k == 0 || shape::numElements(s.batch) == 0) {
    // Nothing to decompose: the identity's columns complete U and V.
    Value none = t.castTo(t.zeros(concat(s.batch, {k}), kLong), mb.dtype);
    return {mb.eye(s.batch, m, full ? m : k), none,
            mb.eye(s.batch, n, full ? n : k)};
  }
  bool wide = m < n;
  int64_t tall = std::max(m, n);
  Value x = wide ? mb.transpose(a) : a;
  auto [w, v] = jacobiColumns(mb, x, s.batch, tall, k);
  auto [values, order] = sortedNorms(mb, w);
  if (valuesOnly)
    return {Value(), values, Value()};
  w = gatherColumns(mb, w, order, concat(s.batch, {tall, k}));
  v = gatherColumns(mb, v, order, concat(s.batch, {k, k}));
  // U's columns, completed to `cols` orthonormal ones by a Householder QR
  // whose R has +-1 on the diagonal of the columns it keeps.
  int64_t cols = full ? tall : k;
  Value zero = mb.eqNumber(values, 0);
  Value u = t.whereNumber(t.unsqueeze(zero, mb.B), t.f(0),
                          t.div(w, t.unsqueeze(values, mb.B)));
  if (cols > k)
    u = t.cat({u, t.castTo(t.zeros(concat(s.batch, {tall, cols - k}), kLong),
                           mb.dtype)},
              mb.B + 1);
  MatrixBatch us{SmallVector<int64_t>(s.batch), tall, cols};
  auto [reflectors, tau] = geqrf(mb, u, us);
  Value q = householderProduct(mb, reflectors, tau, s.batch, tall, cols, cols);
  Value diagonal = AtenDiagonalOp::create(t.b, t.loc, t.tensor(), reflectors,
                                          t.i(0), t.i(mb.B), t.i(mb.B + 1));
  Value flip = AtenLtScalarOp::create(t.b, t.loc, t.tensor(), diagonal, t.f(0));
  Value signs =
      t.whereNumber(flip, t.f(-1),
                    t.castTo(t.ones(concat(s.batch, {cols}), kLong), mb.dtype));
  q = t.mul(q, t.unsqueeze(signs, mb.B));
  if (wide)
    return {v, values, q};
  return {q, values, v};
}

/// The symmetric matrix of `a`'s lower (or upper) triangle.
Value symmetric(MatrixBuilder &mb, Value a, bool upper) {
  TSBuilder &t = mb.t;
  if (upper) {
    Value u = AtenTriuOp::create(t.b, t.loc, t.tensor(), a, t.i(0));
    Value strict = AtenTriuOp::create(t.b, t.loc, t.tensor(), a, t.i(1));
    return t.add(u, mb.transpose(strict));
  }
  Value l = AtenTrilOp::create(t.b, t.loc, t.tensor(), a, t.i(0));
  Value strict = AtenTrilOp::create(t.b, t.loc, t.tensor(), a, t.i(-1));
  return t.add(l, mb.transpose(strict));
}

/// Eigenvalues in ascending order and the eigenvectors (columns) of the
/// symmetric matrices of `a` [batch..., n, n].
std::pair<Value, Value> eigh(MatrixBuilder &mb, Value a, const MatrixBatch &s,
                             bool upper, bool valuesOnly) {
  TSBuilder &t = mb.t;
  int64_t n = s.rows;
  if (n == 0 || shape::numElements(s.batch) == 0)
    return {t.castTo(t.zeros(concat(s.batch, {n}), kLong), mb.dtype),
            mb.eye(s.batch, n, n)};
  SmallVector<Value> out = buildLoop(
      t, sweepsFor(mb.dtype), {symmetric(mb, a, upper), mb.eye(s.batch, n, n)},
      [&](ValueRange carried) -> SmallVector<Value> {
        Value x = carried[0], v = carried[1];
        for (int64_t p = 0; p < n; ++p)
          for (int64_t q = p + 1; q < n; ++q) {
            auto [c, sn] = rotation(mb, element(mb, x, p, p),
                                    element(mb, x, q, q), element(mb, x, p, q));
            x = rotateRows(mb, rotateColumns(mb, x, n, n, p, q, c, sn), n, p, q,
                           c, sn);
            v = rotateColumns(mb, v, n, n, p, q, c, sn);
          }
        return {x, v};
      });
  Value diagonal = AtenDiagonalOp::create(t.b, t.loc, t.tensor(), out[0],
                                          t.i(0), t.i(mb.B), t.i(mb.B + 1));
  auto [values, order] = t.sort(diagonal, mb.B);
  if (valuesOnly)
    return {values, Value()};
  return {values, gatherColumns(mb, out[1], order, s.sizes())};
}

/// PyTorch's tolerance max(atol, rtol * largest) ([batch..., 1]) of the
/// values `s` [batch..., k]; rtol defaults to eps * max(m, n) unless atol
/// is given and positive.
Value toleranceOf(MatrixBuilder &mb, Value largest, const MatrixBatch &s,
                  Value atol, Value rtol);

Value tolerance(MatrixBuilder &mb, Value largest, const MatrixBatch &s,
                std::optional<double> atol, std::optional<double> rtol,
                Value atolTensor = {}, Value rtolTensor = {}) {
  TSBuilder &t = mb.t;
  if (atolTensor || rtolTensor) {
    auto scalar = [&](std::optional<double> v) -> Value {
      if (!v)
        return {};
      return AtenScalarTensorOp::create(t.b, t.loc, t.tensor(), t.f(*v),
                                        t.i(kDouble), t.none(), t.none(),
                                        t.none());
    };
    return toleranceOf(mb, largest, s, atolTensor ? atolTensor : scalar(atol),
                       rtolTensor ? rtolTensor : scalar(rtol));
  }
  double eps = mb.dtype.isF64() ? std::numeric_limits<double>::epsilon()
                                : std::numeric_limits<float>::epsilon();
  double r =
      rtol ? *rtol : (atol && *atol > 0 ? 0.0 : eps * std::max(s.rows, s.cols));
  Value scaled =
      AtenMulScalarOp::create(t.b, t.loc, t.tensor(), largest, t.f(r));
  return AtenClampMinOp::create(t.b, t.loc, t.tensor(), scaled,
                                t.f(atol.value_or(0.0)));
}

/// The tolerance of the tensor overloads, [batch..., 1]: max(atol,
/// rtol * largest) with atol and rtol tensors broadcast over the batch (0
/// and PyTorch's default rtol where not given; the default is 0 where a
/// given atol is positive).
Value toleranceOf(MatrixBuilder &mb, Value largest, const MatrixBatch &s,
                  Value atol, Value rtol) {
  TSBuilder &t = mb.t;
  double eps = mb.dtype.isF64() ? std::numeric_limits<double>::epsilon()
                                : std::numeric_limits<float>::epsilon();
  Value defaultRtol = AtenScalarTensorOp::create(
      t.b, t.loc, t.tensor(), t.f(eps * std::max(s.rows, s.cols)), t.i(kDouble),
      t.none(), t.none(), t.none());
  if (!rtol && atol) {
    Value positive =
        AtenGtScalarOp::create(t.b, t.loc, t.tensor(), atol, t.f(0));
    rtol = t.whereNumber(positive, t.f(0), defaultRtol);
  } else if (!rtol) {
    rtol = defaultRtol;
  }
  Value scaled = t.mul(t.unsqueeze(rtol, -1), largest);
  if (!atol)
    return AtenClampMinOp::create(t.b, t.loc, t.tensor(), scaled, t.f(0));
  return AtenMaximumOp::create(t.b, t.loc, t.tensor(), t.unsqueeze(atol, -1),
                               scaled);
}

/// The magnitudes the rank and pseudo-inverse compare with the tolerance:
/// singular values, or |eigenvalues| of a hermitian matrix, and their
/// largest (kept dim).
std::pair<Value, Value> magnitudes(MatrixBuilder &mb, Value a,
                                   const MatrixBatch &s, bool hermitian) {
  TSBuilder &t = mb.t;
  if (hermitian) {
    Value values = mb.abs(eigh(mb, a, s, false, true).first);
    Value largest = AtenAmaxOp::create(t.b, t.loc, t.tensor(), values,
                                       t.sizes({mb.B}), t.flag(true));
    return {values, largest};
  }
  Value values = svd(mb, a, s, false, true).s;
  return {values, t.narrow(values, mb.B, 0, 1)};
}

/// Reads atol or rtol: None leaves both unset, a constant number sets
/// `number`, a float or double tensor of known sizes sets `tensor`; false
/// for anything else.
bool readTolerance(Value v, std::optional<double> &number, Value &tensor) {
  if (isNone(v))
    return true;
  if (llvm::isa<ts::TensorType>(v.getType())) {
    tensor = v;
    return staticSizes(v) && isRealFloat(dtypeOf(v));
  }
  if (!llvm::isa<ts::FloatType, ts::IntType>(v.getType()))
    return false;
  number = constFloat(v);
  return number.has_value();
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

struct DecomposeLinalgSvd : MatrixPattern<AtenLinalgSvdOp> {
  using MatrixPattern::MatrixPattern;
  LogicalResult rewrite(AtenLinalgSvdOp op, MatrixBuilder &mb,
                        const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    std::optional<bool> full = constBool(op.getFullMatrices());
    if (!full)
      return failure();
    Svd d = svd(mb, op.getA(), s, *full, false);
    results = {d.u, d.s, mb.transpose(d.v)};
    return success();
  }
};

struct DecomposeSvd : MatrixPattern<AtenSvdOp> {
  using MatrixPattern::MatrixPattern;
  LogicalResult rewrite(AtenSvdOp op, MatrixBuilder &mb, const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    std::optional<bool> some = constBool(op.getSome());
    std::optional<bool> uv = constBool(op.getComputeUv());
    if (!some || !uv)
      return failure();
    TSBuilder &t = mb.t;
    if (!*uv) {
      Value values = svd(mb, op.getSelf(), s, false, true).s;
      auto zeros = [&](int64_t n) {
        return t.castTo(t.zeros(concat(s.batch, {n, n}), kLong), mb.dtype);
      };
      results = {zeros(s.rows), values, zeros(s.cols)};
      return success();
    }
    Svd d = svd(mb, op.getSelf(), s, !*some, false);
    results = {d.u, d.s, d.v};
    return success();
  }
};

struct DecomposeSvdvals : MatrixPattern<AtenLinalgSvdvalsOp> {
  using MatrixPattern::MatrixPattern;
  LogicalResult rewrite(AtenLinalgSvdvalsOp op, MatrixBuilder &mb,
                        const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    results = {svd(mb, op.getA(), s, false, true).s};
    return success();
  }
};

template <typename OpTy> struct DecomposeEigh : MatrixPattern<OpTy> {
  using MatrixPattern<OpTy>::MatrixPattern;
  LogicalResult rewrite(OpTy op, MatrixBuilder &mb, const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    std::optional<StringRef> uplo = constStr(op.getUPLO());
    if (!uplo ||
        (*uplo != "L" && *uplo != "U" && *uplo != "l" && *uplo != "u") ||
        s.rows != s.cols)
      return failure();
    bool valuesOnly = op->getNumResults() == 1;
    auto [values, vectors] = eigh(mb, op->getOperand(0), s,
                                  uplo->equals_insensitive("U"), valuesOnly);
    results = {values};
    if (!valuesOnly)
      results.push_back(vectors);
    return success();
  }
};

/// symeig (deprecated): eigh of the upper or lower triangle; without
/// eigenvectors, an empty tensor in their place, as PyTorch returns.
struct DecomposeSymeig : MatrixPattern<AtenSymeigOp> {
  using MatrixPattern::MatrixPattern;
  LogicalResult rewrite(AtenSymeigOp op, MatrixBuilder &mb,
                        const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    std::optional<bool> vectors = constBool(op.getEigenvectors());
    std::optional<bool> upper = constBool(op.getUpper());
    std::optional<int64_t> code = getScalarTypeCode(dtypeOf(op.getSelf()));
    if (!vectors || !upper || !code || s.rows != s.cols)
      return failure();
    auto [values, eigenvectors] =
        eigh(mb, op.getSelf(), s, *upper, /*valuesOnly=*/!*vectors);
    results = {values, *vectors ? eigenvectors : mb.t.zeros({0}, *code)};
    return success();
  }
};

/// matrix_rank in its four overloads: the count of magnitudes above the
/// tolerance (tol alone is atol with rtol 0), as Long.
template <typename OpTy> struct DecomposeMatrixRank : MatrixPattern<OpTy> {
  using MatrixPattern<OpTy>::MatrixPattern;
  LogicalResult rewrite(OpTy op, MatrixBuilder &mb, const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    std::optional<bool> hermitian = constBool(op.getHermitian());
    std::optional<double> atol, rtol;
    Value atolTensor, rtolTensor;
    if constexpr (std::is_same_v<OpTy, AtenLinalgMatrixRankOp>) {
      atol = constFloat(op.getTol());
      rtol = 0.0;
      if (!atol)
        return failure();
    } else if constexpr (std::is_same_v<OpTy,
                                        AtenLinalgMatrixRankTolTensorOp>) {
      // tol: atol with rtol 0.
      rtol = 0.0;
      if (!readTolerance(op.getTol(), atol, atolTensor))
        return failure();
    } else {
      if (!readTolerance(op.getAtol(), atol, atolTensor) ||
          !readTolerance(op.getRtol(), rtol, rtolTensor))
        return failure();
    }
    if (!hermitian || (*hermitian && s.rows != s.cols))
      return failure();
    TSBuilder &t = mb.t;
    if (std::min(s.rows, s.cols) == 0) {
      results = {t.zeros(s.batch, kLong)};
      return success();
    }
    auto [values, largest] = magnitudes(mb, op->getOperand(0), s, *hermitian);
    Value tol = tolerance(mb, largest, s, atol, rtol, atolTensor, rtolTensor);
    Value above = AtenGtTensorOp::create(t.b, t.loc, t.tensor(), values, tol);
    results = {t.sumDim(above, mb.B)};
    return success();
  }
};

/// pinv: V diag(1 / s) U^T over the values above the tolerance (U diag(1 /
/// lambda) U^T from eigh for hermitian); pinverse(x, rcond) is pinv with
/// rtol = rcond and atol 0.
template <typename OpTy> struct DecomposePinv : MatrixPattern<OpTy> {
  using MatrixPattern<OpTy>::MatrixPattern;
  LogicalResult rewrite(OpTy op, MatrixBuilder &mb, const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    std::optional<bool> hermitian = false;
    std::optional<double> atol, rtol;
    Value atolTensor, rtolTensor;
    if constexpr (std::is_same_v<OpTy, AtenPinverseOp>) {
      rtol = constFloat(op.getRcond());
      atol = 0.0;
      if (!rtol)
        return failure();
    } else if constexpr (std::is_same_v<OpTy, AtenLinalgPinvOp>) {
      hermitian = constBool(op.getHermitian());
      rtol = constFloat(op.getRcond());
      atol = 0.0;
      if (!rtol)
        return failure();
    } else if constexpr (std::is_same_v<OpTy, AtenLinalgPinvRcondTensorOp>) {
      hermitian = constBool(op.getHermitian());
      atol = 0.0;
      if (!readTolerance(op.getRcond(), rtol, rtolTensor))
        return failure();
    } else {
      hermitian = constBool(op.getHermitian());
      if (!readTolerance(op.getAtol(), atol, atolTensor) ||
          !readTolerance(op.getRtol(), rtol, rtolTensor))
        return failure();
    }
    if (!hermitian || (*hermitian && s.rows != s.cols))
      return failure();
    TSBuilder &t = mb.t;
    if (std::min(s.rows, s.cols) == 0) {
      results = {t.castTo(t.zeros(concat(s.batch, {s.cols, s.rows}), kLong),
                          mb.dtype)};
      return success();
    }
    Value a = op->getOperand(0);
    Value values, left, right, largest;
    if (*hermitian) {
      auto [lambda, vectors] = eigh(mb, a, s, false, false);
      values = lambda;
      largest = AtenAmaxOp::create(t.b, t.loc, t.tensor(), mb.abs(lambda),
                                   t.sizes({mb.B}), t.flag(true));
      left = vectors;
      right = vectors;
    } else {
      Svd d = svd(mb, a, s, false, false);
      values = d.s;
      largest = t.narrow(d.s, mb.B, 0, 1);
      left = d.v;
      right = d.u;
    }
    Value tol = tolerance(mb, largest, s, atol, rtol, atolTensor, rtolTensor);
    Value magnitude = *hermitian ? mb.abs(values) : values;
    Value keep = AtenGtTensorOp::create(t.b, t.loc, t.tensor(), magnitude, tol);
    Value inverse =
        t.whereNumber(t.logicalNot(keep), t.f(0), mb.reciprocal(values));
    Value scaled = t.mul(left, t.unsqueeze(inverse, mb.B));
    results = {t.matmul(scaled, mb.transpose(right))};
    return success();
  }
};

/// lstsq(A, B, rcond, driver): the minimum-norm least-squares solution
/// pinv(A) B from one SVD (the values above rcond times the largest kept;
/// every nonzero one for gels, which assumes full rank), and what the
/// driver reports besides: the rank (gelsy, gelsd, gelss), the singular
/// values (gelsd, gelss) and, for tall A (m > n) and a driver other than
/// gelsy, the squared residuals ||A X - B||^2 of each column; an empty
/// tensor for what it does not report. LAPACK's gelsd and gelss leave the
/// residuals empty where A is rank-deficient, which this does not.
struct DecomposeLstsq : MatrixPattern<AtenLinalgLstsqOp> {
  using MatrixPattern::MatrixPattern;
  LogicalResult rewrite(AtenLinalgLstsqOp op, MatrixBuilder &mb,
                        const MatrixBatch &s,
                        SmallVector<Value> &results) const override {
    // PyTorch's default driver on the CPU.
    StringRef driver = "gelsy";
    if (!isNone(op.getDriver())) {
      std::optional<StringRef> given = constStr(op.getDriver());
      if (!given)
        return failure();
      driver = *given;
    }
    if (!llvm::is_contained({"gels", "gelsy", "gelsd", "gelss"}, driver))
      return failure();
    std::optional<double> rcond;
    if (!isNone(op.getRcond()) && !(rcond = constFloat(op.getRcond())))
      return failure();
    // B: [batch..., m, k] of A's batch and dtype.
    std::optional<MatrixBatch> rhs = matrixBatch(op.getB());
    if (!rhs || rhs->batch != s.batch || rhs->rows != s.rows ||
        dtypeOf(op.getB()) != mb.dtype || std::min(s.rows, s.cols) == 0 ||
        shape::numElements(s.batch) == 0)
      return failure();
    TSBuilder &t = mb.t;
    Value a = op.getSelf(), b = op.getB();
    Svd d = svd(mb, a, s, false, false);
    Value largest = t.narrow(d.s, mb.B, 0, 1);
    bool gels = driver == "gels";
    Value tol = tolerance(mb, largest, s, /*atol=*/0.0,
                          gels ? std::optional<double>(0.0) : rcond);
    Value keep = AtenGtTensorOp::create(t.b, t.loc, t.tensor(), d.s, tol);
    Value inverse =
        t.whereNumber(t.logicalNot(keep), t.f(0), mb.reciprocal(d.s));
    // V diag(1 / s) (U^T B).
    Value projected = t.mul(t.matmul(mb.transpose(d.u), b),
                            t.unsqueeze(inverse, mb.B + 1));
    Value solution = t.matmul(d.v, projected);
    auto empty = [&](int64_t code) { return t.zeros({0}, code); };
    Value residuals = t.castTo(empty(kLong), mb.dtype);
    if (s.rows > s.cols && driver != "gelsy") {
      Value error = t.sub(t.matmul(a, solution), b);
      residuals = t.sumDim(t.mul(error, error), mb.B);
    }
    Value rank = gels ? empty(kLong) : t.sumDim(keep, mb.B);
    Value values = driver == "gelsd" || driver == "gelss"
                       ? d.s
                       : t.castTo(empty(kLong), mb.dtype);
    results = {solution, residuals, rank, values};
    return success();
  }
};

/// The matrix norms that need singular values: linalg_matrix_norm and
/// linalg_norm of ord 2, -2 or 'nuc' over two dims, nuclear_norm; and cond
/// of p None, 2 and -2; from an aten::linalg_svdvals of the matrices.
Value spectralNorm(TSBuilder &t, Value x, ArrayRef<int64_t> sizes, int64_t d0,
                   int64_t d1, StringRef kind, bool keepdim) {
  int64_t rank = sizes.size();
  SmallVector<int64_t> order;
  for (int64_t d = 0; d < rank; ++d)
    if (d != d0 && d != d1)
      order.push_back(d);
  order.append({d0, d1});
  Value m = t.permute(x, order);
  MatrixBatch s;
  for (int64_t d : ArrayRef<int64_t>(order).drop_back(2))
    s.batch.push_back(sizes[d]);
  s.rows = sizes[d0];
  s.cols = sizes[d1];
  MatrixBuilder mb{t, static_cast<int64_t>(s.batch.size()), dtypeOf(x)};
  // svdvals as an op, decomposed in the next round: a pipeline that
  // differentiates keeps it whole for its formula.
  Value values =
      AtenLinalgSvdvalsOp::create(t.b, t.loc, t.tensor(), m, t.none());
  Value norm;
  if (kind == "nuc")
    norm = t.sumDim(values, mb.B);
  else if (kind == "2")
    norm = mb.at(values, 0);
  else if (kind == "-2")
    norm = mb.at(values, std::min(s.rows, s.cols) - 1);
  else
    norm = t.div(mb.at(values, 0), mb.at(values, std::min(s.rows, s.cols) - 1));
  if (keepdim) {
    for (int64_t d : {std::min(d0, d1), std::max(d0, d1)})
      norm = t.unsqueeze(norm, d);
  }
  return norm;
}

/// The ord of a matrix norm as "2", "-2" or "nuc" when it needs singular
/// values.
std::optional<StringRef> spectralOrd(Value ord) {
  if (std::optional<StringRef> s = constStr(ord))
    return *s == "nuc" ? std::optional<StringRef>("nuc") : std::nullopt;
  if (std::optional<double> v = constFloat(ord)) {
    if (*v == 2)
      return StringRef("2");
    if (*v == -2)
      return StringRef("-2");
  }
  return std::nullopt;
}

template <typename OpTy>
struct DecomposeSpectralNorm : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    Type dtype = dtypeOf(op.getSelf());
    if (!sizes || sizes->size() < 2 || !isRealFloat(dtype))
      return rewriter.notifyMatchFailure(op, "not float matrices");
    int64_t rank = sizes->size();
    std::optional<StringRef> kind;
    SmallVector<int64_t> dims{rank - 2, rank - 1};
    std::optional<bool> keepdim = constBool(op.getKeepdim());
    if constexpr (std::is_same_v<OpTy, AtenNuclearNormOp>) {
      kind = StringRef("nuc");
    } else if constexpr (std::is_same_v<OpTy, AtenNuclearNormDimOp>) {
      kind = StringRef("nuc");
      std::optional<SmallVector<int64_t>> given = constIntList(op.getDim());
      if (!given)
        return rewriter.notifyMatchFailure(op, "dims not known");
      dims = *given;
    } else {
      kind = spectralOrd(op.getOrd());
      if (isNone(op.getDim())) {
        if constexpr (std::is_same_v<OpTy, AtenLinalgNormOp> ||
                      std::is_same_v<OpTy, AtenLinalgNormOrdStrOp>)
          if (rank != 2)
            return rewriter.notifyMatchFailure(op, "a matrix ord of no dims");
      } else {
        std::optional<SmallVector<int64_t>> given = constIntList(op.getDim());
        if (!given)
          return rewriter.notifyMatchFailure(op, "dims not known");
        dims = *given;
      }
      if (!isNone(op.getDtype()))
        return rewriter.notifyMatchFailure(op, "dtype given");
    }
    if (!kind || !keepdim || dims.size() != 2)
      return rewriter.notifyMatchFailure(op, "not a spectral matrix norm");
    std::optional<int64_t> d0 = shape::wrapDim(dims[0], rank);
    std::optional<int64_t> d1 = shape::wrapDim(dims[1], rank);
    if (!d0 || !d1 || *d0 == *d1)
      return rewriter.notifyMatchFailure(op, "invalid dims");
    if (std::min((*sizes)[*d0], (*sizes)[*d1]) == 0 && *kind != "nuc")
      return rewriter.notifyMatchFailure(op, "empty matrices");
    TSBuilder t{rewriter, op.getLoc()};
    replaceWithDeclaredTypes(
        rewriter, op,
        {spectralNorm(t, op.getSelf(), *sizes, *d0, *d1, *kind, *keepdim)});
    return success();
  }
};

/// cond(A, p) for p None, 2 and -2: the ratio of the extreme singular
/// values (its inverse for -2).
struct DecomposeCond : public OpRewritePattern<AtenLinalgCondOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AtenLinalgCondOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    Type dtype = dtypeOf(op.getSelf());
    if (!sizes || sizes->size() < 2 || !isRealFloat(dtype))
      return rewriter.notifyMatchFailure(op, "not float matrices");
    std::optional<double> p =
        isNone(op.getP()) ? std::optional<double>(2) : constFloat(op.getP());
    if (!p || (*p != 2 && *p != -2))
      return rewriter.notifyMatchFailure(op, "p not None, 2 or -2");
    int64_t rank = sizes->size();
    if (std::min((*sizes)[rank - 2], (*sizes)[rank - 1]) == 0)
      return rewriter.notifyMatchFailure(op, "empty matrices");
    TSBuilder t{rewriter, op.getLoc()};
    Value ratio = spectralNorm(t, op.getSelf(), *sizes, rank - 2, rank - 1,
                               "cond", false);
    if (*p == -2)
      ratio =
          AtenReciprocalOp::create(rewriter, op.getLoc(), t.tensor(), ratio);
    replaceWithDeclaredTypes(rewriter, op, {ratio});
    return success();
  }
};

} // namespace

void mlir::tsmlir::ts::decompose::populateSpectralPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns
      .add<DecomposeLinalgSvd, DecomposeSvd, DecomposeSvdvals,
           DecomposeEigh<AtenLinalgEighOp>, DecomposeEigh<AtenLinalgEigvalshOp>,
           DecomposeSymeig,
           DecomposeMatrixRank<AtenLinalgMatrixRankOp>,
           DecomposeMatrixRank<AtenLinalgMatrixRankAtolRtolFloatOp>,
           DecomposeMatrixRank<AtenLinalgMatrixRankAtolRtolTensorOp>,
           DecomposeMatrixRank<AtenLinalgMatrixRankTolTensorOp>,
           DecomposePinv<AtenPinverseOp>, DecomposePinv<AtenLinalgPinvOp>,
           DecomposePinv<AtenLinalgPinvAtolRtolFloatOp>,
           DecomposePinv<AtenLinalgPinvAtolRtolTensorOp>,
           DecomposePinv<AtenLinalgPinvRcondTensorOp>, DecomposeLstsq>(ctx);
  patterns.add<DecomposeSpectralNorm<AtenNuclearNormOp>,
               DecomposeSpectralNorm<AtenNuclearNormDimOp>,
               DecomposeSpectralNorm<AtenLinalgMatrixNormOp>,
               DecomposeSpectralNorm<AtenLinalgMatrixNormStrOrdOp>,
               DecomposeSpectralNorm<AtenLinalgNormOp>,
               DecomposeSpectralNorm<AtenLinalgNormOrdStrOp>, DecomposeCond>(
      ctx);
}
