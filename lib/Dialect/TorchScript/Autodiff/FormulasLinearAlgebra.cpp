//===- FormulasLinearAlgebra.cpp - Derivatives of matrix products ---------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   matmul(a, b)        g b^T and a^T g on the operands as matrices (a
//                       vector a as a row, b as a column), summed over the
//                       batch dims an operand was broadcast along
//   mm, bmm             the same without broadcasting
//   linear(x, W, b)     g W; g^T x over every leading dim; g summed to b
//   addmm(c, m1, m2,    beta g summed to c; alpha g m2^T; alpha m1^T g
//   beta, alpha),       (addmv, addr, addbmm: the same for their products)
//   baddbmm
//   dot, mv, outer      the products' gradients
//
//===----------------------------------------------------------------------===//

#include "Formulas.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::autodiff;
using namespace mlir::tsmlir::ts::decompose;

void autodiff::populateLinearAlgebraFormulas(FormulaTable &table) {
  table.add<AtenMatmulOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value a = c.operand(0), b = c.operand(1);
    SmallVector<int64_t> aSizes = sizesOf(a), bSizes = sizesOf(b);
    if (aSizes.size() == 1 && bSizes.size() == 1) {
      // A dot product: g a scalar.
      c.giveExact(a, t.mul(c.grad(), b));
      c.giveExact(b, t.mul(c.grad(), a));
      return success();
    }
    // The operands as matrices and the gradient as their product's.
    Value am = aSizes.size() == 1 ? t.unsqueeze(a, 0) : a;
    Value bm = bSizes.size() == 1 ? t.unsqueeze(b, -1) : b;
    Value g = c.grad();
    if (aSizes.size() == 1)
      g = t.unsqueeze(g, -2);
    if (bSizes.size() == 1)
      g = t.unsqueeze(g, -1);
    Value ga = t.matmul(g, transposed(t, bm));
    Value gb = t.matmul(transposed(t, am), g);
    // Broadcast batch dims summed back, vectors viewed back.
    SmallVector<int64_t> amSizes(aSizes), bmSizes(bSizes);
    if (aSizes.size() == 1)
      amSizes.insert(amSizes.begin(), 1);
    if (bSizes.size() == 1)
      bmSizes.push_back(1);
    auto back = [&](Value grad, ArrayRef<int64_t> matrix,
                    ArrayRef<int64_t> sizes) {
      grad = AtenSumToSizeOp::create(t.b, t.loc, t.tensor(), grad,
                                     t.sizes(matrix));
      return matrix.size() == sizes.size() ? grad : reshapeTo(t, grad, sizes);
    };
    c.giveExact(a, back(ga, amSizes, aSizes));
    c.giveExact(b, back(gb, bmSizes, bSizes));
    return success();
  });
  table.add<AtenMmOp, AtenBmmOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    c.giveExact(c.operand(0), t.matmul(c.grad(), transposed(t, c.operand(1))));
    c.giveExact(c.operand(1), t.matmul(transposed(t, c.operand(0)), c.grad()));
    return success();
  });
  table.add<AtenDotOp>([](GradContext &c) {
    c.giveExact(c.operand(0), c.t.mul(c.grad(), c.operand(1)));
    c.giveExact(c.operand(1), c.t.mul(c.grad(), c.operand(0)));
    return success();
  });
  table.add<AtenOuterOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    c.giveExact(c.operand(0), t.matmul(c.grad(), c.operand(1)));
    c.giveExact(c.operand(1), t.matmul(transposed(t, c.grad()), c.operand(0)));
    return success();
  });
  table.add<AtenMvOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    c.giveExact(c.operand(0),
                t.mul(t.unsqueeze(c.grad(), 1), t.unsqueeze(c.operand(1), 0)));
    c.giveExact(c.operand(1), t.matmul(transposed(t, c.operand(0)), c.grad()));
    return success();
  });
  // beta self + alpha (products): beta g summed to self's sizes, and the
  // products' gradients scaled by alpha.
  table.add<AtenBaddbmmOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value g = c.grad(), alpha = c.operand(4);
    c.give(0, mulNumber(t, g, c.operand(3)));
    c.giveExact(c.operand(1),
                mulNumber(t, t.matmul(g, transposed(t, c.operand(2))), alpha));
    c.giveExact(c.operand(2),
                mulNumber(t, t.matmul(transposed(t, c.operand(1)), g), alpha));
    return success();
  });
  table.add<AtenAddmvOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value g = c.grad(), alpha = c.operand(4);
    c.give(0, mulNumber(t, g, c.operand(3)));
    c.giveExact(c.operand(1),
                mulNumber(t, t.mul(t.unsqueeze(g, 1),
                                   t.unsqueeze(c.operand(2), 0)),
                          alpha));
    c.giveExact(c.operand(2),
                mulNumber(t, t.matmul(transposed(t, c.operand(1)), g), alpha));
    return success();
  });
  table.add<AtenAddrOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value g = c.grad(), alpha = c.operand(4);
    c.give(0, mulNumber(t, g, c.operand(3)));
    c.giveExact(c.operand(1), mulNumber(t, t.matmul(g, c.operand(2)), alpha));
    c.giveExact(c.operand(2), mulNumber(t, t.matmul(transposed(t, g),
                                                    c.operand(1)),
                                        alpha));
    return success();
  });
  // addbmm sums the batch's products: each gets g.
  table.add<AtenAddbmmOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value g = c.grad(), alpha = c.operand(4);
    Value b1 = c.operand(1), b2 = c.operand(2);
    SmallVector<int64_t> s1 = sizesOf(b1);
    SmallVector<int64_t> sizes = {s1[0], s1[1], sizesOf(b2)[2]};
    Value each = t.expand(t.unsqueeze(g, 0), sizes);
    c.give(0, mulNumber(t, g, c.operand(3)));
    c.giveExact(b1, mulNumber(t, t.matmul(each, transposed(t, b2)), alpha));
    c.giveExact(b2, mulNumber(t, t.matmul(transposed(t, b1), each), alpha));
    return success();
  });
  table.add<AtenLinearOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0), w = c.operand(1), g = c.grad();
    SmallVector<int64_t> xSizes = sizesOf(x), wSizes = sizesOf(w);
    if (wSizes.size() != 2)
      return c.refuse("the weight is not a matrix");
    int64_t out = wSizes[0], in = wSizes[1];
    c.giveExact(x, t.matmul(g, w));
    // g^T x with every leading dim as rows.
    Value g2 = reshapeTo(t, g, {-1, out});
    Value x2 = reshapeTo(t, x, {-1, in});
    c.giveExact(w, t.matmul(transposed(t, g2), x2));
    if (!isNone(c.operand(2)))
      c.give(2, g);
    return success();
  });
  table.add<AtenAddmmOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value g = c.grad();
    c.give(0, mulNumber(t, g, c.operand(3)));
    c.giveExact(c.operand(1),
                mulNumber(t, t.matmul(g, transposed(t, c.operand(2))),
                          c.operand(4)));
    c.giveExact(c.operand(2),
                mulNumber(t, t.matmul(transposed(t, c.operand(1)), g),
                          c.operand(4)));
    return success();
  });
}
