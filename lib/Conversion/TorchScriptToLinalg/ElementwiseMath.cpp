//===- ElementwiseMath.cpp - The math library, predicates, bitwise ops ----===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The bodies of the pointwise ops beyond arithmetic: what PyTorch's CPU
// kernels compute per element, in the result's type (f32 for f16 and bf16),
// with integral inputs of the floating-point functions converted first (the
// shape rules of PointwiseOps.def give those a float result).
//
// Functions the math dialect has become math ops (libm calls or polynomials
// later in the pipeline); lgamma and hypot call the C library, as PyTorch
// does; digamma and erfinv are computed here (an asymptotic series and a
// polynomial refined by Newton's method).
//
//===----------------------------------------------------------------------===//

#include "ElementwiseBody.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::lowering;

using P = arith::CmpFPredicate;
using I = arith::CmpIPredicate;

Value lowering::callLibm(const BodyContext &c, StringRef f32Name,
                         StringRef f64Name, ValueRange args) {
  Type type = c.type;
  StringRef name = type.isF64() ? f64Name : f32Name;
  auto module = c.op->getParentOfType<ModuleOp>();
  auto fn = module.lookupSymbol<func::FuncOp>(name);
  if (!fn) {
    OpBuilder::InsertionGuard guard(c.b);
    c.b.setInsertionPointToStart(module.getBody());
    SmallVector<Type> inputs(args.size(), type);
    fn = func::FuncOp::create(c.b, c.loc, name,
                              c.b.getFunctionType(inputs, {type}));
    fn.setPrivate();
  }
  return func::CallOp::create(c.b, c.loc, fn, args).getResult(0);
}

template <typename MathOp> static Value math1(BodyContext &c) {
  if (!c.isFloat())
    return Value();
  return MathOp::create(c.b, c.loc, c.args[0]);
}

static Value abs(BodyContext &c, Value x) {
  return math::AbsFOp::create(c.b, c.loc, x);
}

static Value exp(BodyContext &c, Value x) {
  return math::ExpOp::create(c.b, c.loc, x);
}

static Value log1p(BodyContext &c, Value x) {
  return math::Log1pOp::create(c.b, c.loc, x);
}

static Value infinity(BodyContext &c, bool negative) {
  return c.cst(negative ? -INFINITY : INFINITY);
}

/// Polynomial c[0] + c[1] z + ... by Horner's rule.
static Value polynomial(BodyContext &c, Value z, ArrayRef<double> coeffs) {
  Value acc = c.cst(coeffs.back());
  for (double k : llvm::reverse(coeffs.drop_back()))
    acc = c.add(c.mul(acc, z), c.cst(k));
  return acc;
}

/// The digamma function psi(x): the reflection psi(x) = psi(1 - x) -
/// pi / tan(pi x) below zero, the recurrence psi(x) = psi(x + 1) - 1/x up to
/// x >= 10 (ten steps, unrolled), then the asymptotic series
/// ln x - 1/(2x) - sum B_2k / (2k x^2k). Poles (0 and negative integers):
/// -inf/+inf at +-0 as PyTorch, NaN at the others.
static Value digamma(BodyContext &c) {
  if (!c.isFloat())
    return Value();
  Value x = c.args[0];
  Value zero = c.cst(0), one = c.cst(1);
  Value negative = c.cmpf(P::OLT, x, zero);
  Value xr = c.select(negative, c.sub(one, x), x);
  Value shift = zero;
  for (int i = 0; i < 10; ++i) {
    Value small = c.cmpf(P::OLT, xr, c.cst(10));
    shift = c.select(small, c.sub(shift, c.div(one, xr)), shift);
    xr = c.select(small, c.add(xr, one), xr);
  }
  Value z = c.div(one, c.mul(xr, xr));
  // B_2k / 2k for k = 1..7: 1/12, -1/120, 1/252, -1/240, 1/132, -691/32760,
  // 1/12.
  Value series = c.mul(z, polynomial(c, z,
                                     {1.0 / 12, -1.0 / 120, 1.0 / 252,
                                      -1.0 / 240, 1.0 / 132, -691.0 / 32760,
                                      1.0 / 12}));
  Value positive = c.add(
      shift, c.sub(c.sub(math::LogOp::create(c.b, c.loc, xr),
                         c.div(c.cst(0.5), xr)),
                   series));
  // Reflection, with pi * frac(x) for an accurate tangent.
  Value frac = c.sub(x, math::TruncOp::create(c.b, c.loc, x));
  Value tangent = math::TanOp::create(c.b, c.loc, c.mul(c.cst(M_PI), frac));
  Value reflected = c.sub(positive, c.div(c.cst(M_PI), tangent));
  Value result = c.select(negative, reflected, positive);
  Value integer =
      c.cmpf(P::OEQ, x, math::TruncOp::create(c.b, c.loc, x));
  Value pole = c.select(c.cmpf(P::OEQ, x, zero),
                        math::CopySignOp::create(
                            c.b, c.loc, infinity(c, false),
                            arith::NegFOp::create(c.b, c.loc, x)),
                        c.cst(NAN));
  Value atPole = arith::AndIOp::create(
      c.b, c.loc, integer, c.cmpf(P::OLE, x, zero));
  return c.select(atPole, pole, result);
}

/// The Hurwitz zeta function zeta(x, q) = sum over k >= 0 of (q + k)^-x, as
/// PyTorch's CPU kernel (Cephes' algorithm) computes it, in double: terms
/// summed while fewer than 10 or q + k <= 9 (and not below 2^-53 of the
/// sum), then the Euler-Maclaurin tail with up to 12 Bernoulli terms.
/// x = 1 gives inf, x < 1 NaN; q a non-positive integer inf, a
/// non-positive q with a non-integer x NaN.
static Value zeta(BodyContext &c, Value x, Value q) {
  OpBuilder &b = c.b;
  Location loc = c.loc;
  Type f64 = b.getF64Type();
  Type type = c.type;
  if (!type.isF64()) {
    x = arith::ExtFOp::create(b, loc, f64, x);
    q = arith::ExtFOp::create(b, loc, f64, q);
  }
  auto cst = [&](double v) { return createScalarConstant(b, loc, f64, v); };
  auto cmp = [&](P p, Value l, Value r) {
    return arith::CmpFOp::create(b, loc, p, l, r).getResult();
  };
  auto sel = [&](Value cond, Value l, Value r) {
    return arith::SelectOp::create(b, loc, cond, l, r).getResult();
  };
  auto add = [&](Value l, Value r) {
    return arith::AddFOp::create(b, loc, l, r).getResult();
  };
  auto mul = [&](Value l, Value r) {
    return arith::MulFOp::create(b, loc, l, r).getResult();
  };
  auto div = [&](Value l, Value r) {
    return arith::DivFOp::create(b, loc, l, r).getResult();
  };
  const double machep = 1.11022302462515654042e-16;
  Value negX = arith::NegFOp::create(b, loc, x);
  Value s0 = math::PowFOp::create(b, loc, q, negX);
  Value falseValue = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
  // (s, a, i, b, done)
  SmallVector<Type> types{f64, f64, f64, f64, b.getI1Type()};
  auto loop = scf::WhileOp::create(
      b, loc, types, ValueRange{s0, q, cst(0), cst(0), falseValue},
      [&](OpBuilder &nested, Location, ValueRange args) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        Value more = arith::OrIOp::create(b, loc, cmp(P::OLT, args[2], cst(9)),
                                          cmp(P::OLE, args[1], cst(9)));
        Value go = arith::AndIOp::create(
            b, loc, more,
            arith::XOrIOp::create(
                b, loc, args[4],
                arith::ConstantOp::create(b, loc, b.getBoolAttr(true))));
        scf::ConditionOp::create(b, loc, go, args);
      },
      [&](OpBuilder &nested, Location, ValueRange args) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        Value i = add(args[2], cst(1));
        Value a = add(args[1], cst(1));
        Value term = math::PowFOp::create(b, loc, a, negX);
        Value s = add(args[0], term);
        Value done = cmp(P::OLT, math::AbsFOp::create(b, loc, div(term, s)),
                         cst(machep));
        scf::YieldOp::create(b, loc, ValueRange{s, a, i, term, done});
      });
  Value s = loop.getResult(0), w = loop.getResult(1), term = loop.getResult(3);
  Value done = loop.getResult(4);
  // The tail from a = q + k on.
  Value tail =
      add(s, div(mul(term, w), arith::SubFOp::create(b, loc, x, cst(1))));
  tail = arith::SubFOp::create(b, loc, tail, mul(cst(0.5), term));
  static const double A[] = {12.0,
                             -720.0,
                             30240.0,
                             -1209600.0,
                             47900160.0,
                             -1.8924375803183791606e9,
                             7.47242496e10,
                             -2.950130727918164224e12,
                             1.1646782814350067249e14,
                             -4.5979787224074726105e15,
                             1.8152105401943546773e17,
                             -7.1661652561756670113e18};
  Value a = cst(1), bb = term, k = cst(0);
  Value finished = done;
  for (double coefficient : A) {
    a = mul(a, add(x, k));
    bb = div(bb, w);
    Value t = div(mul(a, bb), cst(coefficient));
    Value next = add(tail, t);
    Value small =
        cmp(P::OLT, math::AbsFOp::create(b, loc, div(t, next)), cst(machep));
    tail = sel(finished, tail, next);
    finished = arith::OrIOp::create(b, loc, finished, small);
    k = add(k, cst(1));
    a = mul(a, add(x, k));
    bb = div(bb, w);
    k = add(k, cst(1));
  }
  Value result = sel(done, s, tail);
  // Domains.
  Value floorQ = math::FloorOp::create(b, loc, q);
  Value floorX = math::FloorOp::create(b, loc, x);
  Value nonPositive = cmp(P::OLE, q, cst(0));
  result =
      sel(arith::AndIOp::create(b, loc, nonPositive, cmp(P::UNE, x, floorX)),
          cst(NAN), result);
  result =
      sel(arith::AndIOp::create(b, loc, nonPositive, cmp(P::OEQ, q, floorQ)),
          cst(INFINITY), result);
  result = sel(cmp(P::OLT, x, cst(1)), cst(NAN), result);
  result = sel(cmp(P::OEQ, x, cst(1)), cst(INFINITY), result);
  if (!type.isF64())
    result = arith::TruncFOp::create(b, loc, type, result);
  return result;
}

/// The trigamma function psi'(x) of PyTorch's kernel: the reflection -pi^2 /
/// sin^2(pi x) below 1/2, six steps of the recurrence, then the asymptotic
/// series.
static Value trigamma(BodyContext &c, Value x) {
  Value zero = c.cst(0);
  Value reflect = c.cmpf(P::OLT, x, c.cst(0.5));
  Value sinPi = math::SinOp::create(c.b, c.loc, c.mul(c.cst(M_PI), x));
  Value reflection = arith::NegFOp::create(
      c.b, c.loc, c.div(c.cst(M_PI * M_PI), c.mul(sinPi, sinPi)));
  Value result = c.select(reflect, reflection, zero);
  x = c.select(reflect, c.sub(c.cst(1), x), x);
  for (int i = 0; i < 6; ++i) {
    result = c.add(result, c.div(c.cst(1), c.mul(x, x)));
    x = c.add(x, c.cst(1));
  }
  Value ixx = c.div(c.cst(1), c.mul(x, x));
  Value inner = c.mul(
      ixx,
      c.sub(c.cst(1.0 / 6),
            c.mul(ixx, c.sub(c.cst(1.0 / 30), c.mul(ixx, c.cst(1.0 / 42))))));
  Value series = c.div(
      c.add(c.add(c.cst(1), c.div(c.cst(1), c.mul(c.cst(2), x))), inner), x);
  result = c.add(result, series);
  return c.select(reflect, arith::NegFOp::create(c.b, c.loc, result), result);
}

/// The inverse error function: Giles' single-precision polynomials
/// ("Approximating the erfinv function", 2010), then two Newton steps on
/// erf(x) = y for the full precision of the type. +-1 give +-inf, |y| > 1
/// NaN.
static Value erfinv(BodyContext &c) {
  if (!c.isFloat())
    return Value();
  Value y = c.args[0];
  Value one = c.cst(1);
  Value w = arith::NegFOp::create(
      c.b, c.loc,
      math::LogOp::create(c.b, c.loc,
                          c.mul(c.sub(one, y), c.add(one, y))));
  Value central = polynomial(
      c, c.sub(w, c.cst(2.5)),
      {1.50140941, 0.246640727, -0.00417768164, -0.00125372503,
       0.00021858087, -4.39150654e-06, -3.5233877e-06, 3.43273939e-07,
       2.81022636e-08});
  Value tail = polynomial(
      c, c.sub(math::SqrtOp::create(c.b, c.loc, w), c.cst(3)),
      {2.83297682, 1.00167406, 0.00943887047, -0.0076224613, 0.00573950773,
       -0.00367342844, 0.00134934322, 0.000100950558, -0.000200214257});
  Value x = c.mul(c.select(c.cmpf(P::OLT, w, c.cst(5)), central, tail), y);
  Value slope = c.cst(2.0 / std::sqrt(M_PI));
  for (int i = 0; i < 2; ++i) {
    Value err = c.sub(math::ErfOp::create(c.b, c.loc, x), y);
    Value derivative = c.mul(slope, exp(c, arith::NegFOp::create(
                                               c.b, c.loc, c.mul(x, x))));
    x = c.sub(x, c.div(err, derivative));
  }
  Value magnitude = abs(c, y);
  Value edge = math::CopySignOp::create(c.b, c.loc, infinity(c, false), y);
  x = c.select(c.cmpf(P::OEQ, magnitude, one), edge, x);
  return c.select(c.cmpf(P::OGT, magnitude, one), c.cst(NAN), x);
}

/// Greatest common divisor of integers, Euclid's algorithm on absolute
/// values (gcd(0, 0) = 0).
static Value gcd(BodyContext &c, Value a, Value b) {
  a = math::AbsIOp::create(c.b, c.loc, a);
  b = math::AbsIOp::create(c.b, c.loc, b);
  Type type = c.type;
  auto loop = scf::WhileOp::create(
      c.b, c.loc, TypeRange{type, type}, ValueRange{a, b},
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value zero = createScalarConstant(b, loc, type, 0);
        Value more = arith::CmpIOp::create(b, loc, I::ne, args[0], zero);
        scf::ConditionOp::create(b, loc, more, args);
      },
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value rem = arith::RemSIOp::create(b, loc, args[1], args[0]);
        scf::YieldOp::create(b, loc, ValueRange{rem, args[0]});
      });
  return loop.getResult(1);
}

/// The largest finite value of the float type `type`, or its lowest.
static double largestFinite(Type type, bool negative) {
  auto f = llvm::cast<FloatType>(type);
  llvm::APFloat v = llvm::APFloat::getLargest(f.getFloatSemantics(), negative);
  return v.convertToDouble();
}

/// An optional float operand `i`: its value cast to the compute type, or
/// `fallback` when it is None.
static Value optionalScalar(BodyContext &c, unsigned i, Value fallback) {
  return isConstNone(c.op->getOperand(i)) ? fallback : c.scalar(i);
}

/// ELU: x > 0 ? scale x : alpha scale (exp(input_scale x) - 1), the form of
/// celu and selu.
static Value elu(BodyContext &c, Value x, Value alpha, Value scale,
                 Value inputScale) {
  Value neg = c.mul(c.mul(alpha, scale),
                    math::ExpM1Op::create(c.b, c.loc, c.mul(x, inputScale))
                        .getResult());
  return c.select(c.cmpf(P::OGT, x, c.cst(0)), c.mul(x, scale), neg);
}

void lowering::addMathElementwiseSpecs(SmallVectorImpl<ElementwiseSpec> &specs) {
  const DataOperand a0{0, true}, a1{1, true}, a2{2, true};
  const DataOperand raw0{0, false};
  auto add = [&](StringRef name, SmallVector<DataOperand> data,
                 Compute compute, BodyFn body) {
    specs.push_back({name, std::move(data), compute, std::move(body)});
  };
  auto unary = [&](StringRef name, BodyFn body) {
    add(name, {a0}, Compute::Result, std::move(body));
  };
  auto binary = [&](StringRef name, BodyFn body) {
    add(name, {a0, a1}, Compute::Result, std::move(body));
  };

  // The math library.
  unary(ts::AtenTanOp::getOperationName(), math1<math::TanOp>);
  unary(ts::AtenAsinOp::getOperationName(), math1<math::AsinOp>);
  unary(ts::AtenAcosOp::getOperationName(), math1<math::AcosOp>);
  unary(ts::AtenAtanOp::getOperationName(), math1<math::AtanOp>);
  unary(ts::AtenSinhOp::getOperationName(), math1<math::SinhOp>);
  unary(ts::AtenCoshOp::getOperationName(), math1<math::CoshOp>);
  unary(ts::AtenAsinhOp::getOperationName(), math1<math::AsinhOp>);
  unary(ts::AtenAcoshOp::getOperationName(), math1<math::AcoshOp>);
  unary(ts::AtenAtanhOp::getOperationName(), math1<math::AtanhOp>);
  unary(ts::AtenErfcOp::getOperationName(), math1<math::ErfcOp>);
  unary(ts::AtenExp2Op::getOperationName(), math1<math::Exp2Op>);
  unary(ts::AtenLog10Op::getOperationName(), math1<math::Log10Op>);
  unary(ts::AtenLgammaOp::getOperationName(), [](BodyContext &c) -> Value {
    if (!c.isFloat())
      return Value();
    return callLibm(c, "lgammaf", "lgamma", c.args[0]);
  });
  unary(ts::AtenDigammaOp::getOperationName(), digamma);
  unary(ts::AtenErfinvOp::getOperationName(), erfinv);
  unary(ts::AtenSincOp::getOperationName(), [](BodyContext &c) -> Value {
    if (!c.isFloat())
      return Value();
    Value x = c.args[0];
    Value product = c.mul(c.cst(M_PI), x);
    Value ratio = c.div(math::SinOp::create(c.b, c.loc, product), product);
    return c.select(c.cmpf(P::OEQ, x, c.cst(0)), c.cst(1), ratio);
  });
  unary(ts::AtenLogitOp::getOperationName(), [](BodyContext &c) -> Value {
    if (!c.isFloat())
      return Value();
    Value x = c.args[0];
    if (!isConstNone(c.op->getOperand(1))) {
      Value eps = c.scalar(1);
      Value lo = c.cmpf(P::OLT, x, eps);
      Value hi = c.cmpf(P::OGT, x, c.sub(c.cst(1), eps));
      x = c.select(lo, eps, c.select(hi, c.sub(c.cst(1), eps), x));
    }
    return math::LogOp::create(c.b, c.loc, c.div(x, c.sub(c.cst(1), x)));
  });
  unary(ts::AtenDeg2radOp::getOperationName(), [](BodyContext &c) -> Value {
    return c.isFloat() ? c.mul(c.args[0], c.cst(M_PI / 180.0)) : Value();
  });
  unary(ts::AtenRad2degOp::getOperationName(), [](BodyContext &c) -> Value {
    return c.isFloat() ? c.mul(c.args[0], c.cst(180.0 / M_PI)) : Value();
  });
  binary(ts::AtenAtan2Op::getOperationName(), [](BodyContext &c) -> Value {
    if (!c.isFloat())
      return Value();
    Value y = c.args[0], x = c.args[1];
    Value atan2 = math::Atan2Op::create(c.b, c.loc, y, x);
    // math.atan2's expansion gives NaN where both are zero; libm's (and
    // PyTorch's) value there is +-0 for x = +0 and +-pi for x = -0, the
    // sign of y's.
    auto isZero = [&](Value v) {
      return arith::CmpFOp::create(c.b, c.loc, arith::CmpFPredicate::OEQ, v,
                                   c.cst(0));
    };
    Value bothZero = arith::AndIOp::create(c.b, c.loc, isZero(y), isZero(x));
    Value xNegative = arith::CmpFOp::create(
        c.b, c.loc, arith::CmpFPredicate::OLT,
        math::CopySignOp::create(c.b, c.loc, c.cst(1), x), c.cst(0));
    Value magnitude =
        arith::SelectOp::create(c.b, c.loc, xNegative, c.cst(M_PI), c.cst(0));
    Value atZero = math::CopySignOp::create(c.b, c.loc, magnitude, y);
    return arith::SelectOp::create(c.b, c.loc, bothZero, atZero, atan2);
  });
  // nextafter(x, y): the float next to x towards y, by one step of x's bits
  // (away from zero where x moves away from it); y where they are equal,
  // the smallest subnormal with y's sign from zero, NaN from NaN. f32 and
  // f64 only: a half's neighbour is not an f32's.
  binary(ts::AtenNextafterOp::getOperationName(), [](BodyContext &c) -> Value {
    Type dtype = getTSDtype(c.op->getResult(0));
    if (!c.isFloat() || !dtype || dtype != c.type)
      return Value();
    Value x = c.args[0], y = c.args[1];
    auto bits =
        IntegerType::get(c.b.getContext(), c.type.getIntOrFloatBitWidth());
    auto one = createScalarConstant(c.b, c.loc, bits, 1);
    Value i = arith::BitcastOp::create(c.b, c.loc, bits, x);
    Value away = arith::XOrIOp::create(c.b, c.loc, c.cmpf(P::OLT, x, y),
                                       c.cmpf(P::OLT, x, c.cst(0)));
    Value stepped = c.select(away, arith::AddIOp::create(c.b, c.loc, i, one),
                             arith::SubIOp::create(c.b, c.loc, i, one));
    Value next = arith::BitcastOp::create(c.b, c.loc, c.type, stepped);
    Value smallest = math::CopySignOp::create(
        c.b, c.loc, arith::BitcastOp::create(c.b, c.loc, c.type, one), y);
    next = c.select(c.cmpf(P::OEQ, x, c.cst(0)), smallest, next);
    next = c.select(c.cmpf(P::OEQ, x, y), y, next);
    return c.select(c.cmpf(P::UNO, x, y), c.add(x, y), next);
  });
  binary(ts::AtenHypotOp::getOperationName(), [](BodyContext &c) -> Value {
    if (!c.isFloat())
      return Value();
    return callLibm(c, "hypotf", "hypot", {c.args[0], c.args[1]});
  });
  for (StringRef name : getOperationNames<ts::AtenCopysignTensorOp,
                                          ts::AtenCopysignScalarOp>())
    binary(name, [](BodyContext &c) -> Value {
      if (!c.isFloat())
        return Value();
      return math::CopySignOp::create(c.b, c.loc, c.args[0], c.args[1]);
    });
  // log(exp(a) + exp(b)) without overflow; equal infinities give themselves.
  for (bool base2 : {false, true})
    binary(base2 ? ts::AtenLogaddexp2Op::getOperationName()
                 : ts::AtenLogaddexpOp::getOperationName(),
           [base2](BodyContext &c) -> Value {
             if (!c.isFloat())
               return Value();
             Value a = c.args[0], b = c.args[1];
             Value m = c.max(a, b);
             Value d = arith::NegFOp::create(c.b, c.loc, abs(c, c.sub(a, b)));
             Value sum =
                 base2 ? c.mul(log1p(c, math::Exp2Op::create(c.b, c.loc, d)),
                               c.cst(1.0 / M_LN2))
                       : log1p(c, exp(c, d));
             Value same = arith::AndIOp::create(
                 c.b, c.loc,
                 c.cmpf(P::OEQ, abs(c, a), infinity(c, false)),
                 c.cmpf(P::OEQ, a, b));
             return c.select(same, a, c.add(m, sum));
           });
  for (StringRef name : getOperationNames<ts::AtenSpecialZetaOp,
                                          ts::AtenSpecialZetaOtherScalarOp,
                                          ts::AtenSpecialZetaSelfScalarOp>())
    binary(name, [](BodyContext &c) -> Value {
      return c.isFloat() ? zeta(c, c.args[0], c.args[1]) : Value();
    });
  // polygamma(n, x): digamma, trigamma, else (-1)^(n+1) n! zeta(n + 1, x)
  // (n! as exp(lgamma(n + 1)) in the compute type, as PyTorch's kernel).
  add(ts::AtenPolygammaOp::getOperationName(), {a0, a1}, Compute::Result,
      [](BodyContext &c) -> Value {
        std::optional<int64_t> n = getConstInt(c.op->getOperand(0));
        if (!c.isFloat() || !n || *n < 0)
          return Value();
        Value x = c.args[1];
        if (*n == 0) {
          BodyContext unary = c;
          unary.args = {x};
          return digamma(unary);
        }
        if (*n == 1)
          return trigamma(c, x);
        double factorial = std::exp(std::lgamma(static_cast<double>(*n) + 1));
        if (c.type.isF32())
          factorial = std::exp(std::lgamma(static_cast<float>(*n) + 1.0f));
        Value sign = c.cst(*n % 2 ? 1.0 : -1.0);
        return c.mul(c.mul(sign, c.cst(factorial)),
                     zeta(c, c.cst(static_cast<double>(*n + 1)), x));
      });
  for (StringRef name :
       getOperationNames<ts::AtenXlogyTensorOp, ts::AtenXlogyScalarOtherOp>())
    binary(name, [](BodyContext &c) -> Value {
      if (!c.isFloat())
        return Value();
      Value x = c.args[0], y = c.args[1];
      Value product = c.mul(x, math::LogOp::create(c.b, c.loc, y));
      Value zero = c.select(c.cmpf(P::OEQ, x, c.cst(0)), c.cst(0), product);
      return c.select(c.cmpf(P::UNO, y, y), y, zero);
    });
  for (StringRef name : getOperationNames<ts::AtenFloatPowerTensorTensorOp,
                                          ts::AtenFloatPowerTensorScalarOp>())
    binary(name, [](BodyContext &c) -> Value {
      return math::PowFOp::create(c.b, c.loc, c.args[0], c.args[1]);
    });
  for (StringRef name :
       getOperationNames<ts::AtenFmodTensorOp, ts::AtenFmodScalarOp>())
    binary(name, [](BodyContext &c) -> Value {
      Value x = c.args[0], y = c.args[1];
      if (c.isFloat())
        return arith::RemFOp::create(c.b, c.loc, x, y);
      if (c.type.isInteger(1))
        return Value();
      if (c.isUnsigned)
        return arith::RemUIOp::create(c.b, c.loc, x, y);
      return arith::RemSIOp::create(c.b, c.loc, x, y);
    });
  for (StringRef name : getOperationNames<ts::AtenFmaxOp, ts::AtenFminOp>()) {
    bool isMax = name == ts::AtenFmaxOp::getOperationName();
    binary(name, [isMax](BodyContext &c) -> Value {
      Value x = c.args[0], y = c.args[1];
      if (!c.isFloat())
        return isMax ? c.max(x, y) : c.min(x, y);
      // The number where one of them is NaN.
      if (isMax)
        return arith::MaxNumFOp::create(c.b, c.loc, x, y);
      return arith::MinNumFOp::create(c.b, c.loc, x, y);
    });
  }
  binary(ts::AtenHeavisideOp::getOperationName(), [](BodyContext &c) {
    Value x = c.args[0], v = c.args[1];
    Value zero = c.cst(0);
    Value isZero, isPositive;
    if (c.isFloat()) {
      isZero = c.cmpf(P::OEQ, x, zero);
      isPositive = c.cmpf(P::OGT, x, zero);
    } else {
      isZero = arith::CmpIOp::create(c.b, c.loc, I::eq, x, zero);
      isPositive = arith::CmpIOp::create(
          c.b, c.loc, c.isUnsigned || c.type.isInteger(1) ? I::ugt : I::sgt,
          x, zero);
    }
    return c.select(isZero, v, c.select(isPositive, c.cst(1), zero));
  });
  binary(ts::AtenGcdOp::getOperationName(), [](BodyContext &c) -> Value {
    if (c.isFloat() || c.type.isInteger(1))
      return Value();
    return gcd(c, c.args[0], c.args[1]);
  });
  binary(ts::AtenLcmOp::getOperationName(), [](BodyContext &c) -> Value {
    if (c.isFloat() || c.type.isInteger(1))
      return Value();
    Value a = c.args[0], b = c.args[1];
    Value g = gcd(c, a, b);
    Value zero = c.cst(0);
    Value isZero = arith::CmpIOp::create(c.b, c.loc, I::eq, g, zero);
    Value safe = c.select(isZero, c.cst(1), g);
    Value l = math::AbsIOp::create(
        c.b, c.loc, c.mul(arith::DivSIOp::create(c.b, c.loc, a, safe), b));
    return c.select(isZero, zero, l);
  });
  for (StringRef name : getOperationNames<ts::AtenAddcmulOp, ts::AtenAddcdivOp>()) {
    bool isDiv = name == ts::AtenAddcdivOp::getOperationName();
    add(name, {a0, a1, a2}, Compute::Result, [isDiv](BodyContext &c) -> Value {
      Value scaled = c.mul(c.scalar(3), c.args[1]);
      if (isDiv && !c.isFloat())
        return Value(); // integer addcdiv is an error in PyTorch
      Value term = isDiv ? c.div(scaled, c.args[2]) : c.mul(scaled, c.args[2]);
      return c.add(c.args[0], term);
    });
  }

  // Rounding and the like.
  for (StringRef name : getOperationNames<ts::AtenTruncOp, ts::AtenFixOp>())
    unary(name, [](BodyContext &c) {
      return c.isFloat() ? math::TruncOp::create(c.b, c.loc, c.args[0])
                               .getResult()
                         : c.args[0];
    });
  unary(ts::AtenFracOp::getOperationName(), [](BodyContext &c) -> Value {
    if (!c.isFloat())
      return Value();
    Value x = c.args[0];
    return c.sub(x, math::TruncOp::create(c.b, c.loc, x));
  });
  // Booleans square into int64 (the result's type, which the body computes
  // in).
  unary(ts::AtenSquareOp::getOperationName(),
        [](BodyContext &c) { return c.mul(c.args[0], c.args[0]); });
  unary(ts::AtenNanToNumOp::getOperationName(), [](BodyContext &c) -> Value {
    Value x = c.args[0];
    if (!c.isFloat())
      return x;
    Value nan = optionalScalar(c, 1, c.cst(0));
    Value posinf = optionalScalar(c, 2, c.cst(largestFinite(c.type, false)));
    Value neginf = optionalScalar(c, 3, c.cst(largestFinite(c.type, true)));
    x = c.select(c.cmpf(P::UNO, x, x), nan, x);
    x = c.select(c.cmpf(P::OEQ, x, infinity(c, false)), posinf, x);
    return c.select(c.cmpf(P::OEQ, x, infinity(c, true)), neginf, x);
  });

  // Activations.
  unary(ts::AtenRelu6Op::getOperationName(), [](BodyContext &c) {
    return c.min(c.max(c.args[0], c.cst(0)), c.cst(6));
  });
  unary(ts::AtenMishOp::getOperationName(), [](BodyContext &c) -> Value {
    if (!c.isFloat())
      return Value();
    Value x = c.args[0];
    return c.mul(x, math::TanhOp::create(c.b, c.loc, log1p(c, exp(c, x))));
  });
  unary(ts::AtenLogSigmoidOp::getOperationName(), [](BodyContext &c) -> Value {
    if (!c.isFloat())
      return Value();
    Value x = c.args[0];
    Value tail = log1p(c, exp(c, arith::NegFOp::create(c.b, c.loc,
                                                       abs(c, x))));
    return c.sub(c.min(x, c.cst(0)), tail);
  });
  unary(ts::AtenSoftshrinkOp::getOperationName(), [](BodyContext &c) -> Value {
    if (!c.isFloat())
      return Value();
    Value x = c.args[0], l = c.scalar(1);
    Value negL = arith::NegFOp::create(c.b, c.loc, l);
    return c.select(c.cmpf(P::OGT, x, l), c.sub(x, l),
                    c.select(c.cmpf(P::OLT, x, negL), c.add(x, l),
                             c.mul(x, c.cst(0))));
  });
  unary(ts::AtenHardshrinkOp::getOperationName(), [](BodyContext &c) -> Value {
    if (!c.isFloat())
      return Value();
    Value x = c.args[0], l = c.scalar(1);
    Value inside = arith::AndIOp::create(
        c.b, c.loc,
        c.cmpf(P::OGE, x, arith::NegFOp::create(c.b, c.loc, l)),
        c.cmpf(P::OLE, x, l));
    return c.select(inside, c.cst(0), x);
  });
  unary(ts::AtenThresholdOp::getOperationName(), [](BodyContext &c) {
    Value x = c.args[0];
    Value below =
        c.isFloat()
            ? c.cmpf(P::OLE, x, c.scalar(1))
            : arith::CmpIOp::create(c.b, c.loc,
                                    c.isUnsigned ? I::ule : I::sle, x,
                                    c.scalar(1))
                  .getResult();
    return c.select(below, c.scalar(2), x);
  });
  unary(ts::AtenCeluOp::getOperationName(), [](BodyContext &c) -> Value {
    if (!c.isFloat())
      return Value();
    Value alpha = c.scalar(1);
    return elu(c, c.args[0], alpha, c.cst(1), c.div(c.cst(1), alpha));
  });
  unary(ts::AtenSeluOp::getOperationName(), [](BodyContext &c) -> Value {
    if (!c.isFloat())
      return Value();
    return elu(c, c.args[0], c.cst(1.6732632423543772848170429916717),
               c.cst(1.0507009873554804934193349852946), c.cst(1));
  });

  // Predicates: bool results of the operand as it is.
  auto predicate = [&](StringRef name, Value (*floatFn)(BodyContext &, Value),
                       Value (*intFn)(BodyContext &, Value)) {
    add(name, {raw0}, Compute::Bool, [=](BodyContext &c) {
      Value x = c.args[0];
      return llvm::isa<FloatType>(x.getType()) ? floatFn(c, x) : intFn(c, x);
    });
  };
  auto no = [](BodyContext &c, Value) { return c.cst(0); };
  auto yes = [](BodyContext &c, Value) { return c.cst(1); };
  predicate(
      ts::AtenIsnanOp::getOperationName(),
      [](BodyContext &c, Value x) { return c.cmpf(P::UNO, x, x); }, no);
  predicate(
      ts::AtenIsinfOp::getOperationName(),
      [](BodyContext &c, Value x) {
        Value inf = createScalarConstant(c.b, c.loc, x.getType(), INFINITY);
        return c.cmpf(P::OEQ, math::AbsFOp::create(c.b, c.loc, x), inf);
      },
      no);
  predicate(
      ts::AtenIsfiniteOp::getOperationName(),
      [](BodyContext &c, Value x) {
        Value inf = createScalarConstant(c.b, c.loc, x.getType(), INFINITY);
        return c.cmpf(P::OLT, math::AbsFOp::create(c.b, c.loc, x), inf);
      },
      yes);
  predicate(
      ts::AtenIsposinfOp::getOperationName(),
      [](BodyContext &c, Value x) {
        Value inf = createScalarConstant(c.b, c.loc, x.getType(), INFINITY);
        return c.cmpf(P::OEQ, x, inf);
      },
      no);
  predicate(
      ts::AtenIsneginfOp::getOperationName(),
      [](BodyContext &c, Value x) {
        Value inf = createScalarConstant(c.b, c.loc, x.getType(), -INFINITY);
        return c.cmpf(P::OEQ, x, inf);
      },
      no);
  add(ts::AtenSignbitOp::getOperationName(), {raw0}, Compute::Bool,
      [](BodyContext &c) -> Value {
        Value x = c.args[0];
        Type t = x.getType();
        if (auto f = llvm::dyn_cast<FloatType>(t)) {
          // The sign bit itself: -0.0 and -NaN count as negative.
          auto bits = IntegerType::get(c.b.getContext(), f.getWidth());
          Value i = arith::BitcastOp::create(c.b, c.loc, bits, x);
          return arith::CmpIOp::create(
              c.b, c.loc, I::slt, i, createScalarConstant(c.b, c.loc, bits, 0));
        }
        if (t.isInteger(1) || isUnsignedDtype(getTSDtype(c.op->getOperand(0))))
          return c.cst(0);
        return arith::CmpIOp::create(c.b, c.loc, I::slt, x,
                                     createScalarConstant(c.b, c.loc, t, 0));
      });

  // Bitwise ops and shifts, on integers and bool.
  auto bitwise = [&](ArrayRef<StringRef> names,
                     Value (*fn)(OpBuilder &, Location, Value, Value)) {
    for (StringRef name : names)
      binary(name, [fn](BodyContext &c) -> Value {
        if (c.isFloat())
          return Value();
        return fn(c.b, c.loc, c.args[0], c.args[1]);
      });
  };
  bitwise({ts::AtenBitwiseAndTensorOp::getOperationName(),
           ts::AtenBitwiseAndScalarOp::getOperationName(),
           ts::Aten__And__ScalarOp::getOperationName()},
          [](OpBuilder &b, Location l, Value x, Value y) -> Value {
            return arith::AndIOp::create(b, l, x, y);
          });
  bitwise({ts::AtenBitwiseOrTensorOp::getOperationName(),
           ts::AtenBitwiseOrScalarOp::getOperationName(),
           ts::Aten__Or__ScalarOp::getOperationName()},
          [](OpBuilder &b, Location l, Value x, Value y) -> Value {
            return arith::OrIOp::create(b, l, x, y);
          });
  bitwise({ts::AtenBitwiseXorTensorOp::getOperationName(),
           ts::AtenBitwiseXorScalarOp::getOperationName(),
           ts::Aten__Xor__ScalarOp::getOperationName()},
          [](OpBuilder &b, Location l, Value x, Value y) -> Value {
            return arith::XOrIOp::create(b, l, x, y);
          });
  // PyTorch's shifts: a left shift by a negative amount or by the width or
  // more gives 0; a right shift by such amounts shifts by width - 1 (the
  // sign, for signed types).
  for (StringRef name :
       getOperationNames<ts::AtenBitwiseLeftShiftTensorOp,
                         ts::AtenBitwiseLeftShiftTensorScalarOp,
                         ts::Aten__Lshift__TensorOp,
                         ts::Aten__Lshift__ScalarOp>())
    binary(name, [](BodyContext &c) -> Value {
      if (c.isFloat() || c.type.isInteger(1))
        return Value();
      Value x = c.args[0], n = c.args[1];
      unsigned width = c.type.getIntOrFloatBitWidth();
      Value inRange = arith::CmpIOp::create(c.b, c.loc, I::ult, n,
                                            c.cst(width));
      return c.select(inRange, arith::ShLIOp::create(c.b, c.loc, x, n),
                      c.cst(0));
    });
  for (StringRef name :
       getOperationNames<ts::AtenBitwiseRightShiftTensorOp,
                         ts::AtenBitwiseRightShiftTensorScalarOp,
                         ts::Aten__Rshift__TensorOp,
                         ts::Aten__Rshift__ScalarOp>())
    binary(name, [](BodyContext &c) -> Value {
      if (c.isFloat() || c.type.isInteger(1))
        return Value();
      Value x = c.args[0], n = c.args[1];
      unsigned width = c.type.getIntOrFloatBitWidth();
      Value inRange = arith::CmpIOp::create(c.b, c.loc, I::ult, n,
                                            c.cst(width));
      Value amount = c.select(inRange, n, c.cst(width - 1));
      if (c.isUnsigned)
        return c.select(inRange, arith::ShRUIOp::create(c.b, c.loc, x, amount),
                        c.cst(0));
      return arith::ShRSIOp::create(c.b, c.loc, x, amount);
    });
}
