//===- FormulasFactorizations.cpp - Derivatives of factorizations ---------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Matrix factorizations are differentiated whole, by PyTorch's formulas for
// them (FunctionsManual.cpp), not through their decompositions
// (DecomposeSpectral.cpp, DecomposeFactorizations.cpp), which are loops
// (Jacobi sweeps, squarings) or whose derivative differs from PyTorch's
// (cholesky's, which PyTorch symmetrises): pipelines that differentiate
// leave them undecomposed until the backward is built
// (ts::getOpsDifferentiatedWhole).
//
//   eigh (A = V diag(L) V^T)   gA = V (diag(gL) + skew(V^T gV) / E) V^T,
//                              skew(X) = (X - X^T) / 2, E_ij = L_j - L_i
//                              (1 on the diagonal); eigvalsh: V diag(gL)
//                              V^T from an eigh the backward computes
//   svd (A = U diag(S) Vh)     PyTorch's svd_backward on the k = min(m, n)
//                              leading vectors; svdvals: U diag(gS) Vh from
//                              an svd the backward computes
//   pinv X of A                -X^T G X^T + (I - A X) G^T X X^T
//                              + X^T X G^T (I - X A)
//   lstsq X = pinv(A) B        A: pinv's formula for G = gX B^T; B: pinv(A)^T
//                              gX (PyTorch's default tolerance); residuals,
//                              rank and singular values carry none
//   matrix_exp(A)              the top right block of exp([[A^T, G],
//                              [0, A^T]])
//   cholesky (A = L L^T)       L^-T Phi L^-1 (triangular solves), Phi =
//                              (X + tril(X, -1)^T) / 2, X = tril(L^T gL):
//                              symmetric, as PyTorch's cholesky_backward
//                              (the upper factor as L^T)
//   cholesky_solve(B, L)       B: cholesky_solve(G, L); L: -(C + C^T) L
//                              (-L (C + C^T) for upper), C = gB X^T
//   cholesky_inverse(L)        -(X (G + G^T) X) L (L (...) for upper)
//
// Singular vectors and eigenvectors are unique only up to sign: a gradient
// through them is that of the vectors this compiler returns.
//
//===----------------------------------------------------------------------===//

#include "Formulas.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::autodiff;
using namespace mlir::tsmlir::ts::decompose;

namespace {

Value diagEmbed(TSBuilder &t, Value v) {
  return AtenDiagEmbedOp::create(t.b, t.loc, t.tensor(), v, t.i(0), t.i(-2),
                                 t.i(-1));
}

Value half(TSBuilder &t, Value x) { return mulNumber(t, x, 0.5); }

/// y_j - y_i at (i, j) [batch..., n, n], 1 on the diagonal (where the
/// difference is exactly 0): the denominators of the eigenvectors' and
/// singular vectors' terms.
Value gaps(TSBuilder &t, Value y) {
  Value ones = AtenOnesLikeOp::create(t.b, t.loc, t.tensor(), y, t.none(),
                                      t.none(), t.none(), t.none(), t.none());
  return t.add(t.sub(t.unsqueeze(y, -2), t.unsqueeze(y, -1)),
               diagEmbed(t, ones));
}

/// The leading `k` columns (rows when `rows`) of `x` of `sizes` (a
/// result's, or its gradient's, whose type the formulas do not refine), all
/// of them when it has `k`.
Value leading(TSBuilder &t, Value x, ArrayRef<int64_t> sizes, int64_t k,
              bool rows) {
  int64_t dim = sizes.size() - (rows ? 2 : 1);
  return sizes[dim] == k ? x : t.narrow(x, dim, 0, k);
}

/// linalg_eig_backward for a symmetric matrix; `gL` or `gV` may be null.
Value eighBackward(TSBuilder &t, Value gL, Value gV, Value L, Value V) {
  if (!gV)
    return t.matmul(t.mul(V, t.unsqueeze(gL, -2)), transposed(t, V));
  Value VhgV = t.matmul(transposed(t, V), gV);
  VhgV = half(t, t.sub(VhgV, transposed(t, VhgV)));
  Value inner = t.div(VhgV, gaps(t, L));
  if (gL)
    inner = t.add(inner, diagEmbed(t, gL));
  return t.matmul(V, t.matmul(inner, transposed(t, V)));
}

/// svd_backward: the gradient of A (m x n) = U diag(S) Vh from those of
/// its k = min(m, n) leading vectors and values (A's sizes given: the
/// vectors' types may be unrefined); any of gU, gS, gVh may be null.
Value svdBackward(TSBuilder &t, Value gU, Value gS, Value gVh, Value U, Value S,
                  Value Vh, int64_t m, int64_t n) {
  if (!gU && !gVh)
    return m >= n ? t.matmul(U, t.mul(t.unsqueeze(gS, -1), Vh))
                  : t.matmul(t.mul(U, t.unsqueeze(gS, -2)), Vh);
  auto skew = [&](Value x) { return t.sub(x, transposed(t, x)); };
  Value UhgU = gU ? skew(t.matmul(transposed(t, U), gU)) : Value();
  Value VhgV = gVh ? skew(t.matmul(Vh, transposed(t, gVh))) : Value();
  Value E = gaps(t, t.mul(S, S));
  Value rows = t.unsqueeze(S, -1), cols = t.unsqueeze(S, -2);
  Value gA;
  if (gU && gVh)
    gA = t.div(t.add(t.mul(UhgU, cols), t.mul(rows, VhgV)), E);
  else if (gU)
    gA = t.mul(UhgU, t.div(cols, E));
  else
    gA = t.mul(t.div(rows, E), VhgV);
  if (gS)
    gA = t.add(gA, diagEmbed(t, gS));
  if (m > n && gU) {
    gA = t.matmul(U, gA);
    Value gUSinv = t.div(gU, cols);
    gA = t.sub(t.add(gA, gUSinv),
               t.matmul(U, t.matmul(transposed(t, U), gUSinv)));
    return t.matmul(gA, Vh);
  }
  if (m < n && gVh) {
    gA = t.matmul(gA, Vh);
    Value SinvgVh = t.div(gVh, rows);
    gA = t.sub(t.add(gA, SinvgVh),
               t.matmul(t.matmul(SinvgVh, transposed(t, Vh)), Vh));
    return t.matmul(U, gA);
  }
  return m >= n ? t.matmul(U, t.matmul(gA, Vh)) : t.matmul(t.matmul(U, gA), Vh);
}

/// pinv_backward: the gradient of A (m x n) from that of X = pinv(A).
Value pinvBackward(TSBuilder &t, Value G, Value X, Value A) {
  Value Xt = transposed(t, X), Gt = transposed(t, G);
  // -X^T G X^T
  Value gA = neg(t, t.matmul(t.matmul(Xt, G), Xt));
  // (I - A X) G^T X X^T
  Value K1 = t.matmul(t.matmul(Gt, X), Xt);
  gA = t.add(gA, t.sub(K1, t.matmul(A, t.matmul(X, K1))));
  // X^T X G^T (I - X A)
  Value K2 = t.matmul(t.matmul(Xt, X), Gt);
  return t.add(gA, t.sub(K2, t.matmul(t.matmul(K2, X), A)));
}

/// U, S and Vh of the thin svd of `a`, computed in the backward.
std::tuple<Value, Value, Value> thinSvd(TSBuilder &t, Value a) {
  auto svd = AtenLinalgSvdOp::create(t.b, t.loc, t.tensor(), t.tensor(),
                                     t.tensor(), a, t.flag(false), t.none());
  return {svd.getU(), svd.getS(), svd.getVh()};
}

} // namespace

void autodiff::populateFactorizationFormulas(FormulaTable &table) {
  table.addWhole<AtenLinalgEighOp>([](GradContext &c) {
    c.giveExact(c.operand(0), eighBackward(c.t, c.grad(0), c.grad(1),
                                           c.result(0), c.result(1)));
    return success();
  });
  table.addWhole<AtenSymeigOp>([](GradContext &c) {
    if (constBool(c.operand(1)) != true)
      return c.refuse("symeig without eigenvectors has no derivative (as "
                      "in PyTorch: linalg.eigvalsh has)");
    c.giveExact(c.operand(0), eighBackward(c.t, c.grad(0), c.grad(1),
                                           c.result(0), c.result(1)));
    return success();
  });
  table.addWhole<AtenLinalgEigvalshOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    auto eigh = AtenLinalgEighOp::create(t.b, t.loc, t.tensor(), t.tensor(),
                                         c.operand(0), c.operand(1));
    c.giveExact(c.operand(0), eighBackward(t, c.grad(), Value(), c.result(),
                                           eigh.getEigenvectors()));
    return success();
  });
  // linalg_svd (U, S, Vh) and svd (U, S, V): the k leading vectors.
  table.addWhole<AtenLinalgSvdOp, AtenSvdOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value S = c.result(1);
    SmallVector<int64_t> aSizes = sizesOf(c.operand(0));
    int64_t m = aSizes.end()[-2], n = aSizes.back(), k = std::min(m, n);
    bool isSvd = llvm::isa<AtenSvdOp>(c.op);
    if (isSvd && constBool(c.operand(2)) != true) {
      // compute_uv false: zeros for U and V, the values' gradient alone.
      if (c.grad(1)) {
        auto [U, S2, Vh] = thinSvd(t, c.operand(0));
        c.giveExact(c.operand(0), svdBackward(t, Value(), c.grad(1), Value(), U,
                                              S2, Vh, m, n));
      }
      return success();
    }
    // U [m, m or k]; Vh [n or k, n] (svd: V [n, n or k], its transpose).
    SmallVector<int64_t> uSizes = sizesOf(c.result(0)),
                         vSizes = sizesOf(c.result(2));
    auto leadingU = [&](Value u) { return leading(t, u, uSizes, k, false); };
    auto leadingVh = [&](Value v) {
      return isSvd ? transposed(t, leading(t, v, vSizes, k, false))
                   : leading(t, v, vSizes, k, true);
    };
    Value gU = c.grad(0) ? leadingU(c.grad(0)) : Value();
    Value gVh = c.grad(2) ? leadingVh(c.grad(2)) : Value();
    if (!gU && !c.grad(1) && !gVh)
      return success();
    c.giveExact(c.operand(0),
                svdBackward(t, gU, c.grad(1), gVh, leadingU(c.result(0)), S,
                            leadingVh(c.result(2)), m, n));
    return success();
  });
  table.addWhole<AtenLinalgSvdvalsOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    SmallVector<int64_t> aSizes = sizesOf(c.operand(0));
    auto [U, S, Vh] = thinSvd(t, c.operand(0));
    c.giveExact(c.operand(0), svdBackward(t, Value(), c.grad(), Value(), U, S,
                                          Vh, aSizes.end()[-2], aSizes.back()));
    return success();
  });
  table.addWhole<AtenLinalgPinvOp, AtenLinalgPinvAtolRtolFloatOp,
                 AtenLinalgPinvAtolRtolTensorOp, AtenLinalgPinvRcondTensorOp,
                 AtenPinverseOp>([](GradContext &c) {
    c.giveExact(c.operand(0),
                pinvBackward(c.t, c.grad(), c.result(), c.operand(0)));
    return success();
  });
  table.addWhole<AtenLinalgLstsqOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value gX = c.grad(0);
    if (!gX)
      return success();
    Value A = c.operand(0), B = c.operand(1);
    if (sizesOf(B).size() != sizesOf(A).size())
      return c.refuse("the right-hand side is not a batch of matrices");
    Value pinvA = AtenLinalgPinvAtolRtolFloatOp::create(
        t.b, t.loc, t.tensor(), A, t.none(), t.none(), t.flag(false));
    c.giveExact(A, pinvBackward(t, t.matmul(gX, transposed(t, B)), pinvA, A));
    c.giveExact(B, t.matmul(transposed(t, pinvA), gX));
    return success();
  });
  table.addWhole<AtenCholeskyOp, AtenLinalgCholeskyOp, AtenLinalgCholeskyExOp>(
      [](GradContext &c) {
        TSBuilder &t = c.t;
        Value L = c.result(0), gL = c.grad(0);
        std::optional<bool> upper = constBool(c.operand(1));
        if (!upper)
          return c.refuse("upper not constant");
        if (!gL)
          return success();
        if (*upper) {
          L = transposed(t, L);
          gL = transposed(t, gL);
        }
        auto tril = [&](Value x, int64_t diagonal) {
          return AtenTrilOp::create(t.b, t.loc, t.tensor(), x, t.i(diagonal));
        };
        Value X = tril(t.matmul(transposed(t, L), gL), 0);
        Value phi = half(t, t.add(X, transposed(t, tril(X, -1))));
        auto solve = [&](Value a, Value b, bool upperA, bool left) {
          return AtenLinalgSolveTriangularOp::create(
              t.b, t.loc, t.tensor(), a, b, t.flag(upperA), t.flag(left),
              t.flag(false));
        };
        Value Y = solve(transposed(t, L), phi, /*upperA=*/true, /*left=*/true);
        c.giveExact(c.operand(0),
                    solve(L, Y, /*upperA=*/false, /*left=*/false));
        return success();
      });
  // cholesky_solve and cholesky_inverse: PyTorch's formulas, of a full L
  // (their decompositions read one triangle).
  table.addWhole<AtenCholeskySolveOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value L = c.operand(1), upperArg = c.operand(2), g = c.grad();
    std::optional<bool> upper = constBool(upperArg);
    if (!upper)
      return c.refuse("upper not constant");
    Value gB =
        AtenCholeskySolveOp::create(t.b, t.loc, t.tensor(), g, L, upperArg);
    Value C = t.matmul(gB, transposed(t, c.result()));
    C = t.add(C, transposed(t, C));
    c.give(0, gB);
    c.give(1, neg(t, *upper ? t.matmul(L, C) : t.matmul(C, L)));
    return success();
  });
  table.addWhole<AtenCholeskyInverseOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value L = c.operand(0), X = c.result(), g = c.grad();
    std::optional<bool> upper = constBool(c.operand(1));
    if (!upper)
      return c.refuse("upper not constant");
    Value C = t.matmul(X, t.matmul(t.add(g, transposed(t, g)), X));
    c.giveExact(L, neg(t, *upper ? t.matmul(L, C) : t.matmul(C, L)));
    return success();
  });
  table.addWhole<AtenMatrixExpOp, AtenLinalgMatrixExpOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value A = c.operand(0);
    SmallVector<int64_t> sizes = sizesOf(A);
    int64_t rank = sizes.size(), n = sizes.back();
    Value At = transposed(t, A);
    Value top = t.cat({At, c.grad()}, rank - 1);
    Value bottom = t.cat({zerosLike(t, A), At}, rank - 1);
    Value block = AtenLinalgMatrixExpOp::create(t.b, t.loc, t.tensor(),
                                                t.cat({top, bottom}, rank - 2));
    c.giveExact(A, t.narrow(t.narrow(block, rank - 2, 0, n), rank - 1, n, n));
    return success();
  });
}
