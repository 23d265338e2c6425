//===- FormulasElementwise.cpp - Derivatives of pointwise ops -------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// PyTorch's formulas for pointwise ops (y = f(x), g the upstream gradient),
// with its subgradients where f is not differentiable:
//
//   relu             g where y > 0, else 0 (threshold_backward)
//   clamp(min, max)  g where min <= x <= max, else 0 (NaN x: 0)
//   max/min(a, b)    g to the larger (smaller) one, g / 2 to each at a tie
//   abs              g sgn(x) (0 at 0)
//   hardswish        0 below -3, g (x / 3 + 1/2) up to 3, g above
//   pow(x, e)        g e x^(e-1), 0 for e = 0; for a tensor exponent also
//                    g x^e log(x), 0 where x = 0 and e >= 0
//   where(c, a, b)   g to a where c, to b elsewhere
//
// and the chain rule's products elsewhere (exp: g y; tanh: g (1 - y^2);
// sigmoid: g (1 - y) y; sqrt: g / 2y; rsqrt: -g y^3 / 2; reciprocal:
// -g y^2; div: g / b and -g a / b^2; erf: 2 / sqrt(pi) exp(-x^2) g).
// Gradients of broadcast operands are summed back to their sizes
// (GradContext::give).
//
//===----------------------------------------------------------------------===//

#include "Formulas.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::autodiff;
using namespace mlir::tsmlir::ts::decompose;

/// `g` scaled by `alpha` (a number operand), negated for a subtraction.
static Value scaledByAlpha(TSBuilder &t, Value g, Value alpha, bool negate) {
  std::optional<double> a = constFloat(alpha);
  if (a && *a == 1)
    return negate ? neg(t, g) : g;
  Value scaled = mulNumber(t, g, alpha);
  return negate ? neg(t, scaled) : scaled;
}

/// where(mask, 0, g).
static Value zeroWhere(TSBuilder &t, Value mask, Value g) {
  return t.whereNumber(mask, t.f(0), g);
}

Value autodiff::powScalarGrad(TSBuilder &t, Value g, Value x, double e) {
  if (e == 0)
    return zerosLike(t, x);
  Value power =
      AtenPowTensorScalarOp::create(t.b, t.loc, t.tensor(), x, t.f(e - 1));
  return t.mul(g, mulNumber(t, power, e));
}

std::pair<Value, Value> autodiff::powTensorGrads(TSBuilder &t, Value g, Value a,
                                                 Value e, Value y) {
  Value lower = AtenPowTensorTensorOp::create(
      t.b, t.loc, t.tensor(), a,
      AtenSubScalarOp::create(t.b, t.loc, t.tensor(), e, t.i(1), t.i(1)));
  Value zeroExponent =
      AtenEqScalarOp::create(t.b, t.loc, t.tensor(), e, t.i(0));
  Value gradA = zeroWhere(t, zeroExponent, t.mul(g, t.mul(e, lower)));
  Value log = AtenLogOp::create(t.b, t.loc, t.tensor(), a);
  Value zeroBase =
      t.logicalAnd(AtenEqScalarOp::create(t.b, t.loc, t.tensor(), a, t.i(0)),
                   AtenGeScalarOp::create(t.b, t.loc, t.tensor(), e, t.i(0)));
  Value gradE = zeroWhere(t, zeroBase, t.mul(g, t.mul(y, log)));
  return {gradA, gradE};
}

void autodiff::populateElementwiseFormulas(FormulaTable &table) {
  table.add<AtenAddTensorOp, AtenSubTensorOp>([](GradContext &c) {
    bool sub = llvm::isa<AtenSubTensorOp>(c.op);
    c.give(0, c.grad());
    c.give(1, scaledByAlpha(c.t, c.grad(), c.operand(2), sub));
    return success();
  });
  table.add<AtenAddScalarOp, AtenSubScalarOp>([](GradContext &c) {
    c.give(0, c.grad());
    return success();
  });
  // rsub(x, s, alpha) = s - alpha x.
  table.add<AtenRsubScalarOp>([](GradContext &c) {
    c.give(0, scaledByAlpha(c.t, c.grad(), c.operand(2), /*negate=*/true));
    return success();
  });
  table.add<AtenRsubTensorOp>([](GradContext &c) {
    c.give(0, scaledByAlpha(c.t, c.grad(), c.operand(2), /*negate=*/true));
    c.give(1, c.grad());
    return success();
  });
  table.add<AtenMulTensorOp>([](GradContext &c) {
    c.give(0, c.t.mul(c.grad(), c.operand(1)));
    c.give(1, c.t.mul(c.grad(), c.operand(0)));
    return success();
  });
  table.add<AtenMulScalarOp>([](GradContext &c) {
    c.give(0, mulNumber(c.t, c.grad(), c.operand(1)));
    return success();
  });
  // a / b: g / b and -g a / b^2. A rounded quotient (div with a floor or
  // trunc mode) is piecewise constant: no gradient.
  table.add<AtenDivTensorOp, AtenDivTensorModeOp>([](GradContext &c) {
    if (llvm::isa<AtenDivTensorModeOp>(c.op) && !isNone(c.operand(2)))
      return success();
    TSBuilder &t = c.t;
    Value a = c.operand(0), b = c.operand(1);
    c.give(0, t.div(c.grad(), b));
    c.give(1, neg(t, t.div(t.mul(c.grad(), a), t.mul(b, b))));
    return success();
  });
  table.add<AtenDivScalarModeOp>([](GradContext &c) {
    if (isNone(c.operand(2)))
      c.give(0, AtenDivScalarOp::create(c.t.b, c.t.loc, c.t.tensor(),
                                        c.grad(), c.operand(1)));
    return success();
  });
  table.add<AtenDivScalarOp>([](GradContext &c) {
    c.give(0, AtenDivScalarOp::create(c.t.b, c.t.loc, c.t.tensor(), c.grad(),
                                      c.operand(1)));
    return success();
  });
  table.add<AtenNegOp>([](GradContext &c) {
    c.give(0, neg(c.t, c.grad()));
    return success();
  });
  table.add<AtenExpOp>([](GradContext &c) {
    c.give(0, c.t.mul(c.grad(), c.result()));
    return success();
  });
  table.add<AtenLogOp>([](GradContext &c) {
    c.give(0, c.t.div(c.grad(), c.operand(0)));
    return success();
  });
  table.add<AtenSinOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    c.give(0, t.mul(c.grad(),
                    AtenCosOp::create(t.b, t.loc, t.tensor(), c.operand(0))));
    return success();
  });
  table.add<AtenCosOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value sin = AtenSinOp::create(t.b, t.loc, t.tensor(), c.operand(0));
    c.give(0, t.mul(c.grad(), neg(t, sin)));
    return success();
  });
  table.add<AtenTanhOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value y = c.result();
    c.give(0, t.mul(c.grad(), t.oneMinus(t.mul(y, y))));
    return success();
  });
  table.add<AtenSigmoidOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value y = c.result();
    c.give(0, t.mul(t.mul(c.grad(), t.oneMinus(y)), y));
    return success();
  });
  table.add<AtenReluOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value off = AtenLeScalarOp::create(t.b, t.loc, t.tensor(), c.result(),
                                       t.i(0));
    c.give(0, zeroWhere(t, off, c.grad()));
    return success();
  });
  table.add<AtenSqrtOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    c.give(0, t.div(c.grad(), mulNumber(t, c.result(), 2.0)));
    return success();
  });
  table.add<AtenRsqrtOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value y = c.result();
    Value cube = t.mul(t.mul(y, y), y);
    c.give(0, mulNumber(t, t.mul(c.grad(), cube), -0.5));
    return success();
  });
  table.add<AtenReciprocalOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value y = c.result();
    c.give(0, neg(t, t.mul(c.grad(), t.mul(y, y))));
    return success();
  });
  table.add<AtenAbsOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    c.give(0, t.mul(c.grad(),
                    AtenSgnOp::create(t.b, t.loc, t.tensor(), c.operand(0))));
    return success();
  });
  table.add<AtenErfOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0);
    Value e = AtenExpOp::create(t.b, t.loc, t.tensor(), neg(t, t.mul(x, x)));
    c.give(0, t.mul(c.grad(), mulNumber(t, e, 2.0 / std::sqrt(M_PI))));
    return success();
  });
  table.add<AtenPowTensorScalarOp>([](GradContext &c) {
    std::optional<double> e = constFloat(c.operand(1));
    if (!e)
      return c.refuse("the exponent is not a constant");
    c.give(0, powScalarGrad(c.t, c.grad(), c.operand(0), *e));
    return success();
  });
  table.add<AtenPowTensorTensorOp>([](GradContext &c) {
    auto [gradA, gradE] =
        powTensorGrads(c.t, c.grad(), c.operand(0), c.operand(1), c.result());
    c.give(0, gradA);
    c.give(1, gradE);
    return success();
  });
  // pow(s, x) = s^x: g s^x log(s).
  table.add<AtenPowScalarOp>([](GradContext &c) {
    std::optional<double> s = constFloat(c.operand(0));
    if (!s || *s <= 0)
      return c.refuse("the base is not a positive constant");
    c.give(1, mulNumber(c.t, c.t.mul(c.grad(), c.result()), std::log(*s)));
    return success();
  });
  table.add<AtenClampOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0), inside;
    auto both = [&](Value mask) {
      inside = inside ? t.logicalAnd(inside, mask) : mask;
    };
    if (!isNone(c.operand(1)))
      both(AtenGeScalarOp::create(t.b, t.loc, t.tensor(), x, c.operand(1)));
    if (!isNone(c.operand(2)))
      both(AtenLeScalarOp::create(t.b, t.loc, t.tensor(), x, c.operand(2)));
    c.give(0, inside ? zeroWhere(t, t.logicalNot(inside), c.grad())
                     : c.grad());
    return success();
  });
  table.add<AtenClampMinOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value inside =
        AtenGeScalarOp::create(t.b, t.loc, t.tensor(), c.operand(0),
                               c.operand(1));
    c.give(0, zeroWhere(t, t.logicalNot(inside), c.grad()));
    return success();
  });
  table.add<AtenClampMaxOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value inside =
        AtenLeScalarOp::create(t.b, t.loc, t.tensor(), c.operand(0),
                               c.operand(1));
    c.give(0, zeroWhere(t, t.logicalNot(inside), c.grad()));
    return success();
  });
  // max(a, b): where(a == b, g / 2, g), zero where a < b (b: where a > b).
  table.add<AtenMaxOtherOp, AtenMinOtherOp, AtenMaximumOp, AtenMinimumOp>(
      [](GradContext &c) {
    TSBuilder &t = c.t;
    Value a = c.operand(0), b = c.operand(1);
    bool isMax = llvm::isa<AtenMaxOtherOp, AtenMaximumOp>(c.op);
    Value tie = AtenEqTensorOp::create(t.b, t.loc, t.tensor(), a, b);
    Value shared = t.where(tie, mulNumber(t, c.grad(), 0.5), c.grad());
    Value less = AtenLtTensorOp::create(t.b, t.loc, t.tensor(), a, b);
    Value greater = AtenGtTensorOp::create(t.b, t.loc, t.tensor(), a, b);
    Value aLoses = isMax ? less : greater;
    Value bLoses = isMax ? greater : less;
    c.give(0, zeroWhere(t, aLoses, shared));
    c.give(1, zeroWhere(t, bLoses, shared));
    return success();
  });
  // clamp by tensors: x's gradient where min <= x <= max; min's where x <
  // min, max's where x > max (the bound taken).
  table.add<AtenClampTensorOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0), lo = c.operand(1), hi = c.operand(2);
    Value inside;
    auto both = [&](Value mask) {
      inside = inside ? t.logicalAnd(inside, mask) : mask;
    };
    if (!isNone(lo)) {
      Value below = AtenLtTensorOp::create(t.b, t.loc, t.tensor(), x, lo);
      both(t.logicalNot(below));
      c.give(1, zeroWhere(t, t.logicalNot(below), c.grad()));
    }
    if (!isNone(hi)) {
      Value above = AtenGtTensorOp::create(t.b, t.loc, t.tensor(), x, hi);
      both(t.logicalNot(above));
      c.give(2, zeroWhere(t, t.logicalNot(above), c.grad()));
    }
    c.give(0, inside ? zeroWhere(t, t.logicalNot(inside), c.grad())
                     : c.grad());
    return success();
  });
  table.add<AtenClampMinTensorOp, AtenClampMaxTensorOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0), bound = c.operand(1);
    Value taken;
    if (llvm::isa<AtenClampMinTensorOp>(c.op))
      taken = AtenLtTensorOp::create(t.b, t.loc, t.tensor(), x, bound);
    else
      taken = AtenGtTensorOp::create(t.b, t.loc, t.tensor(), x, bound);
    c.give(0, zeroWhere(t, taken, c.grad()));
    c.give(1, zeroWhere(t, t.logicalNot(taken), c.grad()));
    return success();
  });
  table.add<AtenWhereScalarSelfOp>([](GradContext &c) {
    c.give(2, zeroWhere(c.t, c.operand(0), c.grad()));
    return success();
  });
  table.add<AtenWhereScalarOtherOp>([](GradContext &c) {
    c.give(1, zeroWhere(c.t, c.t.logicalNot(c.operand(0)), c.grad()));
    return success();
  });
  // masked_fill by a 0-d tensor: the value's gradient sums g where masked.
  table.add<AtenMaskedFillTensorOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    c.give(0, zeroWhere(t, c.operand(1), c.grad()));
    c.giveExact(c.operand(2),
                t.castTo(t.sumAll(zeroWhere(t, t.logicalNot(c.operand(1)),
                                            c.grad())),
                         dtypeOf(c.operand(2))));
    return success();
  });
  table.add<AtenWhereSelfOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value condition = c.operand(0);
    c.give(1, zeroWhere(t, t.logicalNot(condition), c.grad()));
    c.give(2, zeroWhere(t, condition, c.grad()));
    return success();
  });
  table.add<AtenMaskedFillScalarOp>([](GradContext &c) {
    c.give(0, zeroWhere(c.t, c.operand(1), c.grad()));
    return success();
  });
  table.add<AtenHardswishOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0), g = c.grad();
    Value below =
        AtenLtScalarOp::create(t.b, t.loc, t.tensor(), x, t.f(-3.0));
    Value upTo = AtenLeScalarOp::create(t.b, t.loc, t.tensor(), x, t.f(3.0));
    Value slope = AtenAddScalarOp::create(
        t.b, t.loc, t.tensor(),
        AtenDivScalarOp::create(t.b, t.loc, t.tensor(), x, t.f(3.0)),
        t.f(0.5), t.i(1));
    Value inner = t.where(upTo, t.mul(g, slope), g);
    c.give(0, zeroWhere(t, below, inner));
    return success();
  });
  table.add<AtenCloneOp, AtenContiguousOp>([](GradContext &c) {
    c.give(0, c.grad());
    return success();
  });
  // A conversion's gradient converts back (give casts to the operand's
  // dtype).
  table.add<AtenToDtypeOp, AtenToDeviceOp, AtenTypeAsOp>([](GradContext &c) {
    c.give(0, c.grad());
    return success();
  });
  table.addNonDifferentiable<
      AtenZerosLikeOp, AtenOnesLikeOp, AtenFullLikeOp, AtenSignOp, AtenSgnOp,
      AtenFloorOp, AtenCeilOp, AtenRoundOp, AtenGtScalarOp, AtenGtTensorOp,
      AtenGeScalarOp, AtenGeTensorOp, AtenLtScalarOp, AtenLtTensorOp,
      AtenLeScalarOp, AtenLeTensorOp, AtenEqScalarOp, AtenEqTensorOp,
      AtenNeScalarOp, AtenNeTensorOp, AtenTruncOp, AtenFloorDivideOp>();
}
