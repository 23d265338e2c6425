//===- FormulasMath.cpp - Derivatives of the math and activation family ---===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The unary math functions (x the input, y the result, g the upstream
// gradient):
//
//   asin, acos       +-g / sqrt(1 - x^2)     tan     g (1 + y^2)
//   atan             g / (1 + x^2)           sinh    g cosh(x)
//   asinh, acosh     g rsqrt(x^2 +- 1)       cosh    g sinh(x)
//   atanh            g / (1 - x^2)           log1p   g / (x + 1)
//   log2, log10      g / (x ln b)            expm1   g (y + 1)
//   exp2             g y ln 2                erfc    -2 / sqrt(pi) e^-x^2 g
//   erfinv           sqrt(pi) / 2 e^(y^2) g  square  2 x g
//   frac             g                       logit   g / (x (1 - x)) (eps:
//                                                    0 outside)
//   lgamma           g digamma(x)            digamma g polygamma(1, x)
//   polygamma(n)     g polygamma(n + 1, x)   ndtr    g phi(x)
//   log_sigmoid      g (1 - sigmoid(x))
//
// the activations, with PyTorch's values at their boundaries:
//
//   leaky_relu(s)    g where x > 0, else s g
//   elu(a, s, i)     s g where x > 0, else g i a s exp(i x)
//   softplus(b, t)   g where b x > t, else g z / (z + 1), z = exp(b x)
//   gelu             g (Phi(x) + x phi(x)); 'tanh': the derivative of its
//                    tanh form
//   silu             g s (1 + x (1 - s)), s = sigmoid(x)
//   mish             g (t + x s (1 - t^2)), t = tanh(softplus(x))
//   hardtanh(lo, hi) g where lo < x < hi (0 at the bounds)
//   hardsigmoid      g / 6 where -3 < x < 3
//   relu6            g where 0 < x < 6
//   selu, celu(a)    elu's with their constants; celu: g exp(x / a) at x <= 0
//   nan_to_num       g where x is finite
//   threshold(t, v)  g where x > t
//   soft/hardshrink  g where |x| > lambda
//
// and the binary ones: atan2 (g b / (a^2 + b^2), -g a / (a^2 + b^2));
// remainder and fmod (g to the dividend, -g floor(a / b) and -g trunc(a /
// b) to the divisor); logaddexp (g exp(a - y), g exp(b - y)); rad2deg and
// deg2rad; lerp (g (1 - w), g w, and g (end - start) to a
// tensor weight); addcmul and addcdiv; hypot (g a / y, g b / y); xlogy
// (xlogy(g, b), 0 where a = 0 and b <= 0; g a / b); logaddexp2 (g 2^(a -
// y)); fmax and fmin (g to the one taken, NaN passed over); copysign (g y /
// a); float_power (pow's, in float64). And the special functions: i0 (g
// i1), i0e, i1 and i1e (0.5 near 0), entr, erfcx, log_ndtr, ndtri, sinc.
//
//===----------------------------------------------------------------------===//

#include "Formulas.h"

#include "tsmlir/Support/Dtype.h"

#include <limits>

#include <cmath>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::autodiff;
using namespace mlir::tsmlir::ts::decompose;

namespace {
/// Small builders of the formulas below.
struct MathBuilder {
  TSBuilder &t;
  Value square(Value x) { return t.mul(x, x); }
  Value addNumber(Value x, double v) {
    return AtenAddScalarOp::create(t.b, t.loc, t.tensor(), x, t.f(v), t.i(1));
  }
  /// v - x.
  Value numberMinus(Value x, double v) {
    return AtenRsubScalarOp::create(t.b, t.loc, t.tensor(), x, t.f(v),
                                    t.i(1));
  }
  Value sqrt(Value x) { return AtenSqrtOp::create(t.b, t.loc, t.tensor(), x); }
  Value rsqrt(Value x) {
    return AtenRsqrtOp::create(t.b, t.loc, t.tensor(), x);
  }
  Value exp(Value x) { return AtenExpOp::create(t.b, t.loc, t.tensor(), x); }
  Value tanh(Value x) { return t.tanh(x); }
  Value sigmoid(Value x) { return t.sigmoid(x); }
  Value gtNumber(Value x, Value v) {
    return AtenGtScalarOp::create(t.b, t.loc, t.tensor(), x, v);
  }
  Value ltNumber(Value x, Value v) {
    return AtenLtScalarOp::create(t.b, t.loc, t.tensor(), x, v);
  }
  Value leNumber(Value x, Value v) {
    return AtenLeScalarOp::create(t.b, t.loc, t.tensor(), x, v);
  }
  Value geNumber(Value x, Value v) {
    return AtenGeScalarOp::create(t.b, t.loc, t.tensor(), x, v);
  }
  /// where(mask, 0, g).
  Value zeroWhere(Value mask, Value g) {
    return t.whereNumber(mask, t.f(0), g);
  }
};

/// A unary formula from g, x and y.
using UnaryRule = Value (*)(MathBuilder &, Value g, Value x, Value y);

template <typename OpTy> void addUnary(FormulaTable &table, UnaryRule rule) {
  table.add<OpTy>([rule](GradContext &c) {
    MathBuilder m{c.t};
    c.give(0, rule(m, c.grad(), c.operand(0), c.result()));
    return success();
  });
}
} // namespace

/// i1 and i1e: i0(x) - y / x (i1e: i0e(x) - y (sgn(x) + 1 / x)), 0.5 where
/// |x| is at most the dtype's epsilon.
static Value besselOneGrad(MathBuilder &m, Value g, Value x, Value y,
                           bool scaled) {
  TSBuilder &t = m.t;
  double eps = dtypeOf(x) && dtypeOf(x).isF64()
                   ? std::numeric_limits<double>::epsilon()
                   : std::numeric_limits<float>::epsilon();
  Value abs = AtenAbsOp::create(t.b, t.loc, t.tensor(), x);
  Value tiny = m.leNumber(abs, t.f(eps));
  Value safe = t.whereNumber(tiny, t.f(eps), x);
  Value reciprocal = AtenReciprocalOp::create(t.b, t.loc, t.tensor(), safe);
  Value slope;
  if (scaled) {
    Value i0e = AtenSpecialI0eOp::create(t.b, t.loc, t.tensor(), safe);
    Value sign = AtenSgnOp::create(t.b, t.loc, t.tensor(), safe);
    slope = t.sub(i0e, t.mul(y, t.add(sign, reciprocal)));
  } else {
    Value i0 = AtenI0Op::create(t.b, t.loc, t.tensor(), safe);
    slope = t.sub(i0, t.mul(y, reciprocal));
  }
  return t.mul(g, t.whereNumber(tiny, t.f(0.5), slope));
}

/// float_power computes in float64.
static constexpr int64_t kFloat64Code = static_cast<int64_t>(Dtype::Double);

/// The special functions, fmax/fmin, copysign, float_power, logaddexp2 and
/// sinc, as PyTorch's derivatives.yaml has them.
static void addMoreMathFormulas(FormulaTable &table) {
  // i0: g i1(x).
  addUnary<AtenI0Op>(table, [](MathBuilder &m, Value g, Value x, Value) {
    return m.t.mul(g, AtenSpecialI1Op::create(m.t.b, m.t.loc, m.t.tensor(), x));
  });
  // i0e: g (i1e(x) - sgn(x) y).
  addUnary<AtenSpecialI0eOp>(
      table, [](MathBuilder &m, Value g, Value x, Value y) {
        Value i1e = AtenSpecialI1eOp::create(m.t.b, m.t.loc, m.t.tensor(), x);
        Value sign = AtenSgnOp::create(m.t.b, m.t.loc, m.t.tensor(), x);
        return m.t.mul(g, m.t.sub(i1e, m.t.mul(sign, y)));
      });
  addUnary<AtenSpecialI1Op>(
      table, [](MathBuilder &m, Value g, Value x, Value y) {
        return besselOneGrad(m, g, x, y, /*scaled=*/false);
      });
  addUnary<AtenSpecialI1eOp>(
      table, [](MathBuilder &m, Value g, Value x, Value y) {
        return besselOneGrad(m, g, x, y, /*scaled=*/true);
      });
  // entr: -g (1 + log(x)).
  addUnary<AtenSpecialEntrOp>(
      table, [](MathBuilder &m, Value g, Value x, Value) {
        Value log = AtenLogOp::create(m.t.b, m.t.loc, m.t.tensor(), x);
        return neg(m.t, m.t.mul(g, m.addNumber(log, 1)));
      });
  // erfcx: g (2 x y - 2 / sqrt(pi)).
  addUnary<AtenSpecialErfcxOp>(
      table, [](MathBuilder &m, Value g, Value x, Value y) {
        Value twoXY = mulNumber(m.t, m.t.mul(x, y), 2.0);
        return m.t.mul(g, m.addNumber(twoXY, -2.0 / std::sqrt(M_PI)));
      });
  // log_ndtr: g / sqrt(2 pi) exp(-(y + x^2 / 2)).
  addUnary<AtenSpecialLogNdtrOp>(
      table, [](MathBuilder &m, Value g, Value x, Value y) {
        Value exponent = neg(m.t, m.t.add(y, mulNumber(m.t, m.square(x), 0.5)));
        return mulNumber(m.t, m.t.mul(g, m.exp(exponent)),
                         1.0 / std::sqrt(2 * M_PI));
      });
  // ndtri: g sqrt(2 pi) exp(y^2 / 2).
  addUnary<AtenSpecialNdtriOp>(table, [](MathBuilder &m, Value g, Value,
                                         Value y) {
    return mulNumber(m.t, m.t.mul(g, m.exp(mulNumber(m.t, m.square(y), 0.5))),
                     std::sqrt(2 * M_PI));
  });
  // sinc: g (pi x cos(pi x) - sin(pi x)) / (pi x^2), 0 at x = 0.
  addUnary<AtenSincOp>(table, [](MathBuilder &m, Value g, Value x, Value) {
    TSBuilder &t = m.t;
    Value pix = mulNumber(t, x, M_PI);
    Value cos = AtenCosOp::create(t.b, t.loc, t.tensor(), pix);
    Value sin = AtenSinOp::create(t.b, t.loc, t.tensor(), pix);
    Value slope = t.div(t.sub(t.mul(pix, cos), sin), t.mul(pix, x));
    Value zero = AtenEqScalarOp::create(t.b, t.loc, t.tensor(), x, t.i(0));
    return t.mul(g, m.zeroWhere(zero, slope));
  });
  // logaddexp2(a, b): g 2^(a - y), g 2^(b - y).
  table.add<AtenLogaddexp2Op>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value y = c.result(), g = c.grad();
    auto share = [&](Value v) {
      return t.mul(g, AtenExp2Op::create(t.b, t.loc, t.tensor(), t.sub(v, y)));
    };
    c.give(0, share(c.operand(0)));
    c.give(1, share(c.operand(1)));
    return success();
  });
  // fmax(a, b): g to a where a >= b or b is NaN, else to b (fmin: <=).
  table.add<AtenFmaxOp, AtenFminOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value a = c.operand(0), b = c.operand(1), g = c.grad();
    Value wins =
        llvm::isa<AtenFmaxOp>(c.op)
            ? Value(AtenGeTensorOp::create(t.b, t.loc, t.tensor(), a, b))
            : Value(AtenLeTensorOp::create(t.b, t.loc, t.tensor(), a, b));
    Value toA = t.logicalOr(wins, t.isnan(b));
    c.give(0, t.whereNumber(t.logicalNot(toA), t.f(0), g));
    c.give(1, t.whereNumber(toA, t.f(0), g));
    return success();
  });
  // copysign(a, b): g y / a (0 where a = 0); b has none.
  table.add<AtenCopysignTensorOp, AtenCopysignScalarOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value a = c.operand(0);
    Value zero = AtenEqScalarOp::create(t.b, t.loc, t.tensor(), a, t.i(0));
    Value ratio = t.whereNumber(zero, t.f(0), t.div(c.result(), a));
    c.give(0, t.mul(c.grad(), ratio));
    return success();
  });
  // float_power: pow's formulas in float64.
  table.add<AtenFloatPowerTensorScalarOp>([](GradContext &c) {
    std::optional<double> e = constFloat(c.operand(1));
    if (!e)
      return c.refuse("the exponent is not a constant");
    c.give(0, powScalarGrad(c.t, c.grad(), c.t.to(c.operand(0), kFloat64Code),
                            *e));
    return success();
  });
  table.add<AtenFloatPowerTensorTensorOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    auto [gradA, gradE] =
        powTensorGrads(t, c.grad(), t.to(c.operand(0), kFloat64Code),
                       t.to(c.operand(1), kFloat64Code), c.result());
    c.give(0, gradA);
    c.give(1, gradE);
    return success();
  });
}

void autodiff::populateMathFormulas(FormulaTable &table) {
  addUnary<AtenAsinOp>(table, [](MathBuilder &m, Value g, Value x, Value) {
    return m.t.div(g, m.sqrt(m.numberMinus(m.square(x), 1)));
  });
  addUnary<AtenAcosOp>(table, [](MathBuilder &m, Value g, Value x, Value) {
    return neg(m.t, m.t.div(g, m.sqrt(m.numberMinus(m.square(x), 1))));
  });
  addUnary<AtenAtanOp>(table, [](MathBuilder &m, Value g, Value x, Value) {
    return m.t.div(g, m.addNumber(m.square(x), 1));
  });
  addUnary<AtenAsinhOp>(table, [](MathBuilder &m, Value g, Value x, Value) {
    return m.t.mul(g, m.rsqrt(m.addNumber(m.square(x), 1)));
  });
  addUnary<AtenAcoshOp>(table, [](MathBuilder &m, Value g, Value x, Value) {
    return m.t.mul(g, m.rsqrt(m.addNumber(m.square(x), -1)));
  });
  addUnary<AtenAtanhOp>(table, [](MathBuilder &m, Value g, Value x, Value) {
    return m.t.div(g, m.numberMinus(m.square(x), 1));
  });
  addUnary<AtenTanOp>(table, [](MathBuilder &m, Value g, Value, Value y) {
    return m.t.mul(g, m.addNumber(m.square(y), 1));
  });
  addUnary<AtenSinhOp>(table, [](MathBuilder &m, Value g, Value x, Value) {
    return m.t.mul(g, AtenCoshOp::create(m.t.b, m.t.loc, m.t.tensor(), x));
  });
  addUnary<AtenCoshOp>(table, [](MathBuilder &m, Value g, Value x, Value) {
    return m.t.mul(g, AtenSinhOp::create(m.t.b, m.t.loc, m.t.tensor(), x));
  });
  addUnary<AtenLog1pOp>(table, [](MathBuilder &m, Value g, Value x, Value) {
    return m.t.div(g, m.addNumber(x, 1));
  });
  addUnary<AtenExpm1Op>(table, [](MathBuilder &m, Value g, Value, Value y) {
    return m.t.mul(g, m.addNumber(y, 1));
  });
  addUnary<AtenLog2Op>(table, [](MathBuilder &m, Value g, Value x, Value) {
    return m.t.div(g, mulNumber(m.t, x, M_LN2));
  });
  addUnary<AtenLog10Op>(table, [](MathBuilder &m, Value g, Value x, Value) {
    return m.t.div(g, mulNumber(m.t, x, M_LN10));
  });
  addUnary<AtenExp2Op>(table, [](MathBuilder &m, Value g, Value, Value y) {
    return mulNumber(m.t, m.t.mul(g, y), M_LN2);
  });
  addUnary<AtenErfcOp>(table, [](MathBuilder &m, Value g, Value x, Value) {
    Value e = m.exp(neg(m.t, m.square(x)));
    return m.t.mul(g, mulNumber(m.t, e, -2.0 / std::sqrt(M_PI)));
  });
  addUnary<AtenErfinvOp>(table, [](MathBuilder &m, Value g, Value, Value y) {
    return m.t.mul(g, mulNumber(m.t, m.exp(m.square(y)),
                                0.5 * std::sqrt(M_PI)));
  });
  addUnary<AtenSquareOp>(table, [](MathBuilder &m, Value g, Value x, Value) {
    return m.t.mul(g, mulNumber(m.t, x, 2.0));
  });
  addUnary<AtenFracOp>(table,
                       [](MathBuilder &, Value g, Value, Value) { return g; });
  addUnary<AtenSiluOp>(table, [](MathBuilder &m, Value g, Value x, Value) {
    Value s = m.sigmoid(x);
    return m.t.mul(g, m.t.mul(s, m.addNumber(m.t.mul(x, m.t.oneMinus(s)), 1)));
  });
  addUnary<AtenMishOp>(table, [](MathBuilder &m, Value g, Value x, Value) {
    Value sp = AtenSoftplusOp::create(m.t.b, m.t.loc, m.t.tensor(), x,
                                      m.t.i(1), m.t.i(20));
    Value th = m.tanh(sp);
    Value slope = m.t.add(
        th, m.t.mul(m.t.mul(x, m.sigmoid(x)), m.t.oneMinus(m.square(th))));
    return m.t.mul(g, slope);
  });
  addUnary<AtenHardsigmoidOp>(table,
                              [](MathBuilder &m, Value g, Value x, Value) {
                                Value inside = m.t.logicalAnd(
                                    m.gtNumber(x, m.t.f(-3.0)),
                                    m.ltNumber(x, m.t.f(3.0)));
                                return m.zeroWhere(m.t.logicalNot(inside),
                                                   mulNumber(m.t, g, 1.0 / 6));
                              });
  addUnary<AtenLgammaOp>(table, [](MathBuilder &m, Value g, Value x, Value) {
    return m.t.mul(g, AtenDigammaOp::create(m.t.b, m.t.loc, m.t.tensor(), x));
  });
  addUnary<AtenDigammaOp>(table, [](MathBuilder &m, Value g, Value x, Value) {
    return m.t.mul(g, AtenPolygammaOp::create(m.t.b, m.t.loc, m.t.tensor(),
                                              m.t.i(1), x));
  });
  addUnary<AtenLogSigmoidOp>(table, [](MathBuilder &m, Value g, Value x,
                                       Value) {
    return m.t.mul(g, m.t.oneMinus(m.sigmoid(x)));
  });
  addUnary<AtenSpecialNdtrOp>(table, [](MathBuilder &m, Value g, Value x,
                                        Value) {
    Value pdf = mulNumber(m.t, m.exp(mulNumber(m.t, m.square(x), -0.5)),
                          1.0 / std::sqrt(2 * M_PI));
    return m.t.mul(g, pdf);
  });
  addUnary<AtenRelu6Op>(table, [](MathBuilder &m, Value g, Value x, Value) {
    Value outside = m.t.logicalOr(m.leNumber(x, m.t.i(0)),
                                  m.geNumber(x, m.t.i(6)));
    return m.zeroWhere(outside, g);
  });
  addUnary<AtenSeluOp>(table, [](MathBuilder &m, Value g, Value x, Value) {
    double alpha = 1.6732632423543772848170429916717;
    double scale = 1.0507009873554804934193349852946;
    Value negative = mulNumber(m.t, m.exp(x), alpha * scale);
    return m.t.where(m.leNumber(x, m.t.i(0)), m.t.mul(g, negative),
                     mulNumber(m.t, g, scale));
  });
  addUnary<AtenRad2degOp>(table, [](MathBuilder &m, Value g, Value, Value) {
    return mulNumber(m.t, g, 180.0 / M_PI);
  });
  addUnary<AtenDeg2radOp>(table, [](MathBuilder &m, Value g, Value, Value) {
    return mulNumber(m.t, g, M_PI / 180.0);
  });
  // nan_to_num: g where x is finite.
  table.add<AtenNanToNumOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value finite = AtenIsfiniteOp::create(t.b, t.loc, t.tensor(), c.operand(0));
    c.give(0, t.whereNumber(t.logicalNot(finite), t.f(0), c.grad()));
    return success();
  });
  table.add<AtenCeluOp>([](GradContext &c) {
    MathBuilder m{c.t};
    TSBuilder &t = c.t;
    Value x = c.operand(0), g = c.grad(), alpha = c.operand(1);
    Value negative = m.exp(AtenDivScalarOp::create(t.b, t.loc, t.tensor(), x,
                                                   alpha));
    c.give(0, t.where(m.leNumber(x, t.i(0)), t.mul(g, negative), g));
    return success();
  });
  // logaddexp(a, b) = y: g exp(a - y), g exp(b - y).
  table.add<AtenLogaddexpOp>([](GradContext &c) {
    MathBuilder m{c.t};
    TSBuilder &t = c.t;
    Value y = c.result(), g = c.grad();
    c.give(0, t.mul(g, m.exp(t.sub(c.operand(0), y))));
    c.give(1, t.mul(g, m.exp(t.sub(c.operand(1), y))));
    return success();
  });
  table.add<AtenPolygammaOp>([](GradContext &c) {
    std::optional<int64_t> n = constInt(c.operand(0));
    if (!n)
      return c.refuse("n not constant");
    TSBuilder &t = c.t;
    c.give(1, t.mul(c.grad(), AtenPolygammaOp::create(t.b, t.loc, t.tensor(),
                                                      t.i(*n + 1),
                                                      c.operand(1))));
    return success();
  });
  // threshold(x, th, v): g where x > th; the shrinks: g where |x| > lambda
  // (softshrink and hardshrink alike).
  table.add<AtenThresholdOp>([](GradContext &c) {
    MathBuilder m{c.t};
    c.give(0, m.zeroWhere(m.leNumber(c.operand(0), c.operand(1)), c.grad()));
    return success();
  });
  table.add<AtenSoftshrinkOp, AtenHardshrinkOp>([](GradContext &c) {
    MathBuilder m{c.t};
    Value abs = AtenAbsOp::create(c.t.b, c.t.loc, c.t.tensor(), c.operand(0));
    c.give(0, m.zeroWhere(m.leNumber(abs, c.operand(1)), c.grad()));
    return success();
  });
  // logit(x, eps): g / (x (1 - x)); with eps, 0 outside [eps, 1 - eps]
  // (where x was clamped), without, NaN outside [0, 1].
  table.add<AtenLogitOp>([](GradContext &c) {
    MathBuilder m{c.t};
    TSBuilder &t = c.t;
    Value x = c.operand(0);
    Value slope = t.div(c.grad(), t.mul(x, t.oneMinus(x)));
    if (isNone(c.operand(1))) {
      Value outside = t.logicalOr(m.ltNumber(x, t.i(0)), m.gtNumber(x, t.i(1)));
      c.give(0, t.whereNumber(outside, t.f(std::nan("")), slope));
      return success();
    }
    std::optional<double> eps = constFloat(c.operand(1));
    if (!eps)
      return c.refuse("eps not constant");
    Value inside =
        t.logicalAnd(m.geNumber(x, t.f(*eps)), m.leNumber(x, t.f(1 - *eps)));
    c.give(0, m.zeroWhere(t.logicalNot(inside), slope));
    return success();
  });
  table.add<AtenLeakyReluOp>([](GradContext &c) {
    MathBuilder m{c.t};
    Value x = c.operand(0), g = c.grad();
    Value positive = m.gtNumber(x, c.t.i(0));
    c.give(0, c.t.where(positive, g, mulNumber(c.t, g, c.operand(1))));
    return success();
  });
  table.add<AtenEluOp>([](GradContext &c) {
    MathBuilder m{c.t};
    TSBuilder &t = c.t;
    Value x = c.operand(0), g = c.grad();
    Value alpha = c.operand(1), scale = c.operand(2), input = c.operand(3);
    Value negative = mulNumber(
        t, mulNumber(t, mulNumber(t, m.exp(mulNumber(t, x, input)), input),
                     alpha),
        scale);
    c.give(0, t.where(m.leNumber(x, t.i(0)), t.mul(g, negative),
                      mulNumber(t, g, scale)));
    return success();
  });
  table.add<AtenSoftplusOp>([](GradContext &c) {
    MathBuilder m{c.t};
    TSBuilder &t = c.t;
    Value x = c.operand(0), g = c.grad();
    Value bx = mulNumber(t, x, c.operand(1));
    Value z = m.exp(bx);
    Value slope = t.div(z, m.addNumber(z, 1));
    c.give(0, t.where(m.gtNumber(bx, c.operand(2)), g, t.mul(g, slope)));
    return success();
  });
  table.add<AtenGeluOp>([](GradContext &c) {
    MathBuilder m{c.t};
    TSBuilder &t = c.t;
    Value x = c.operand(0), g = c.grad();
    std::optional<StringRef> approximate = constStr(c.operand(1));
    if (!approximate)
      return c.refuse("approximate not constant");
    if (*approximate == "tanh") {
      double beta = std::sqrt(2.0 / M_PI), kappa = 0.044715;
      Value x2 = m.square(x);
      Value inner =
          mulNumber(t, t.add(x, mulNumber(t, t.mul(x2, x), kappa)), beta);
      Value th = m.tanh(inner);
      Value left = mulNumber(t, m.addNumber(th, 1), 0.5);
      Value right = t.mul(
          t.mul(mulNumber(t, x, 0.5), t.oneMinus(m.square(th))),
          mulNumber(t, m.addNumber(mulNumber(t, x2, 3 * kappa), 1), beta));
      c.give(0, t.mul(g, t.add(left, right)));
      return success();
    }
    Value cdf = mulNumber(
        t,
        m.addNumber(AtenErfOp::create(t.b, t.loc, t.tensor(),
                                      mulNumber(t, x, M_SQRT1_2)),
                    1),
        0.5);
    Value pdf = mulNumber(t, m.exp(mulNumber(t, m.square(x), -0.5)),
                          1.0 / std::sqrt(2 * M_PI));
    c.give(0, t.mul(g, t.add(cdf, t.mul(x, pdf))));
    return success();
  });
  table.add<AtenHardtanhOp>([](GradContext &c) {
    MathBuilder m{c.t};
    Value x = c.operand(0);
    Value outside = c.t.logicalOr(m.leNumber(x, c.operand(1)),
                                  m.geNumber(x, c.operand(2)));
    c.give(0, m.zeroWhere(outside, c.grad()));
    return success();
  });
  table.add<AtenAtan2Op>([](GradContext &c) {
    MathBuilder m{c.t};
    TSBuilder &t = c.t;
    Value a = c.operand(0), b = c.operand(1), g = c.grad();
    Value denominator = t.add(m.square(a), m.square(b));
    c.give(0, t.div(t.mul(g, b), denominator));
    c.give(1, t.div(neg(t, t.mul(g, a)), denominator));
    return success();
  });
  table.add<AtenHypotOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value g = c.grad(), y = c.result();
    c.give(0, t.div(t.mul(g, c.operand(0)), y));
    c.give(1, t.div(t.mul(g, c.operand(1)), y));
    return success();
  });
  table.add<AtenRemainderScalarOp, AtenFmodScalarOp>([](GradContext &c) {
    c.give(0, c.grad());
    return success();
  });
  table.add<AtenRemainderTensorOp, AtenFmodTensorOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    bool floor = llvm::isa<AtenRemainderTensorOp>(c.op);
    Value a = c.operand(0), b = c.operand(1);
    Value quotient = AtenDivTensorModeOp::create(
        t.b, t.loc, t.tensor(), a, b, t.str(floor ? "floor" : "trunc"));
    c.give(0, c.grad());
    c.give(1, neg(t, t.mul(c.grad(), quotient)));
    return success();
  });
  table.add<AtenLerpScalarOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value g = c.grad(), w = c.operand(2);
    Value gw = mulNumber(t, g, w);
    c.give(0, t.sub(g, gw));
    c.give(1, gw);
    return success();
  });
  table.add<AtenLerpTensorOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value g = c.grad(), w = c.operand(2);
    Value gw = t.mul(g, w);
    c.give(0, t.sub(g, gw));
    c.give(1, gw);
    c.give(2, t.mul(g, t.sub(c.operand(1), c.operand(0))));
    return success();
  });
  table.add<AtenAddcmulOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value g = c.grad(), scaled = mulNumber(t, c.grad(), c.operand(3));
    c.give(0, g);
    c.give(1, t.mul(scaled, c.operand(2)));
    c.give(2, t.mul(scaled, c.operand(1)));
    return success();
  });
  table.add<AtenAddcdivOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value g = c.grad(), scaled = mulNumber(t, c.grad(), c.operand(3));
    Value t1 = c.operand(1), t2 = c.operand(2);
    c.give(0, g);
    c.give(1, t.div(scaled, t2));
    c.give(2, neg(t, t.div(t.mul(scaled, t1), t.mul(t2, t2))));
    return success();
  });
  // xlogy(a, b) = a log(b): xlogy(g, b), 0 where a = 0 and b <= 0; g a /
  // b.
  table.add<AtenXlogyTensorOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value a = c.operand(0), b = c.operand(1), g = c.grad();
    Value zero = t.logicalAnd(
        AtenEqScalarOp::create(t.b, t.loc, t.tensor(), a, t.i(0)),
        AtenLeScalarOp::create(t.b, t.loc, t.tensor(), b, t.i(0)));
    Value product = AtenXlogyTensorOp::create(t.b, t.loc, t.tensor(), g, b);
    c.give(0, t.whereNumber(zero, t.f(0), product));
    c.give(1, t.div(t.mul(g, a), b));
    return success();
  });
  addMoreMathFormulas(table);
}
