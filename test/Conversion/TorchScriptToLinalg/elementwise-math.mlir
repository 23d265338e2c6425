// RUN: tsmlir-opt %s --convert-ts-to-linalg | FileCheck %s

// The math library, predicates, bitwise ops and activations of
// ElementwiseMath.cpp: one generic per op whose body computes what
// PyTorch's kernel does (lgamma and hypot call the C library;
// predicates give i1; float-valued functions of ints convert first).

// CHECK-LABEL: func.func @tan(
// CHECK:         linalg.generic
// CHECK:           math.tan
// CHECK:         linalg.yield
func.func @tan(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.tan %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @asin(
// CHECK:         linalg.generic
// CHECK:           math.asin
// CHECK:         linalg.yield
func.func @asin(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.asin %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @acos(
// CHECK:         linalg.generic
// CHECK:           math.acos
// CHECK:         linalg.yield
func.func @acos(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.acos %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @atan(
// CHECK:         linalg.generic
// CHECK:           math.atan
// CHECK:         linalg.yield
func.func @atan(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.atan %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @sinh(
// CHECK:         linalg.generic
// CHECK:           math.sinh
// CHECK:         linalg.yield
func.func @sinh(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.sinh %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @cosh(
// CHECK:         linalg.generic
// CHECK:           math.cosh
// CHECK:         linalg.yield
func.func @cosh(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.cosh %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @asinh(
// CHECK:         linalg.generic
// CHECK:           math.asinh
// CHECK:         linalg.yield
func.func @asinh(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.asinh %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @acosh(
// CHECK:         linalg.generic
// CHECK:           math.acosh
// CHECK:         linalg.yield
func.func @acosh(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.acosh %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @atanh(
// CHECK:         linalg.generic
// CHECK:           math.atanh
// CHECK:         linalg.yield
func.func @atanh(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.atanh %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @erfc(
// CHECK:         linalg.generic
// CHECK:           math.erfc
// CHECK:         linalg.yield
func.func @erfc(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.erfc %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @exp2(
// CHECK:         linalg.generic
// CHECK:           math.exp2
// CHECK:         linalg.yield
func.func @exp2(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.exp2 %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @log10(
// CHECK:         linalg.generic
// CHECK:           math.log10
// CHECK:         linalg.yield
func.func @log10(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.log10 %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @lgamma(
// CHECK:         linalg.generic
// CHECK:           func.call @lgammaf
// CHECK:         linalg.yield
func.func @lgamma(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.lgamma %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @digamma(
// CHECK:         linalg.generic
// CHECK:           math.log
// CHECK:           math.tan
// CHECK:         linalg.yield
func.func @digamma(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.digamma %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// Hurwitz zeta in double (float inputs extended): Cephes' sum while fewer
// than 10 terms or q + k <= 9, then the Euler-Maclaurin tail.
// CHECK-LABEL: func.func @zeta(
// CHECK:         linalg.generic
// CHECK:           arith.extf
// CHECK:           scf.while
// CHECK:             math.powf
// CHECK:           arith.truncf
// CHECK:         linalg.yield
// CHECK:         linalg.generic
// CHECK:           scf.while
// CHECK:         linalg.generic
// CHECK:           scf.while
func.func @zeta(%x: !ts.tensor<f32, [4]>, %q: !ts.tensor<f32, [4]>) -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) {
  %two = ts.prim.Constant[2.0] : !ts.float
  %0 = ts.aten.special_zeta %x, %q : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %1 = ts.aten.special_zeta.other_scalar %x, %two : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
  %2 = ts.aten.special_zeta.self_scalar %two, %q : (!ts.float, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0, %1, %2 : !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>
}

// polygamma(n, x): digamma for n = 0 (no zeta), trigamma's series for 1,
// -(n!) zeta(n + 1, x) (sign (-1)^(n+1)) above.
// CHECK-LABEL: func.func @polygamma(
// CHECK:         linalg.generic
// CHECK-NOT:       scf.while
// CHECK:           math.tan
// CHECK:         linalg.yield
// CHECK:         linalg.generic
// CHECK-NOT:       scf.while
// CHECK:           math.sin
// CHECK:         linalg.yield
// CHECK:         linalg.generic
// CHECK:           scf.while
// CHECK:         linalg.yield
func.func @polygamma(%x: !ts.tensor<f64, [4]>) -> (!ts.tensor<f64, [4]>, !ts.tensor<f64, [4]>, !ts.tensor<f64, [4]>) {
  %int0 = ts.prim.Constant[0] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %int3 = ts.prim.Constant[3] : !ts.int
  %0 = ts.aten.polygamma %int0, %x : (!ts.int, !ts.tensor<f64, [4]>) -> !ts.tensor<f64, [4]>
  %1 = ts.aten.polygamma %int1, %x : (!ts.int, !ts.tensor<f64, [4]>) -> !ts.tensor<f64, [4]>
  %2 = ts.aten.polygamma %int3, %x : (!ts.int, !ts.tensor<f64, [4]>) -> !ts.tensor<f64, [4]>
  return %0, %1, %2 : !ts.tensor<f64, [4]>, !ts.tensor<f64, [4]>, !ts.tensor<f64, [4]>
}

// CHECK-LABEL: func.func @erfinv(
// CHECK:         linalg.generic
// CHECK:           math.log
// CHECK:           math.erf
// CHECK:           math.erf
// CHECK:         linalg.yield
func.func @erfinv(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.erfinv %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @sinc(
// CHECK:         linalg.generic
// CHECK:           math.sin
// CHECK:           arith.select
// CHECK:         linalg.yield
func.func @sinc(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.sinc %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @deg2rad(
// CHECK:         linalg.generic
// CHECK:           arith.mulf
// CHECK:         linalg.yield
func.func @deg2rad(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.deg2rad %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @rad2deg(
// CHECK:         linalg.generic
// CHECK:           arith.mulf
// CHECK:         linalg.yield
func.func @rad2deg(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.rad2deg %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @trunc(
// CHECK:         linalg.generic
// CHECK:           math.trunc
// CHECK:         linalg.yield
func.func @trunc(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.trunc %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @fix(
// CHECK:         linalg.generic
// CHECK:           math.trunc
// CHECK:         linalg.yield
func.func @fix(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.fix %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @frac(
// CHECK:         linalg.generic
// CHECK:           math.trunc
// CHECK:           arith.subf
// CHECK:         linalg.yield
func.func @frac(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.frac %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @square(
// CHECK:         linalg.generic
// CHECK:           arith.mulf
// CHECK:         linalg.yield
func.func @square(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.square %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// A boolean squares in its int64 result type.
// CHECK-LABEL: func.func @square_bool(
// CHECK:         linalg.generic
// CHECK:           arith.extui {{.*}} : i1 to i64
// CHECK:           arith.muli {{.*}} : i64
func.func @square_bool(%x: !ts.tensor<i1, [4]>) -> !ts.tensor<si64, [4]> {
  %0 = ts.aten.square %x : (!ts.tensor<i1, [4]>) -> !ts.tensor<si64, [4]>
  return %0 : !ts.tensor<si64, [4]>
}

// CHECK-LABEL: func.func @sgn(
// CHECK:         linalg.generic
// CHECK:           arith.cmpf ogt
// CHECK:           arith.select
// CHECK:         linalg.yield
func.func @sgn(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.sgn %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @relu6(
// CHECK:         linalg.generic
// CHECK:           arith.maximumf
// CHECK:           arith.minimumf
// CHECK:         linalg.yield
func.func @relu6(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.relu6 %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @mish(
// CHECK:         linalg.generic
// CHECK:           math.exp
// CHECK:           math.log1p
// CHECK:           math.tanh
// CHECK:         linalg.yield
func.func @mish(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.mish %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @log_sigmoid(
// CHECK:         linalg.generic
// CHECK:           math.absf
// CHECK:           math.exp
// CHECK:           math.log1p
// CHECK:         linalg.yield
func.func @log_sigmoid(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.log_sigmoid %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @selu(
// CHECK:         linalg.generic
// CHECK:           math.expm1
// CHECK:           arith.select
// CHECK:         linalg.yield
func.func @selu(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.selu %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @isnan(
// CHECK:         linalg.generic
// CHECK:           arith.cmpf uno
// CHECK:         linalg.yield
func.func @isnan(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<i1, [4]> {
  %0 = ts.aten.isnan %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<i1, [4]>
  return %0 : !ts.tensor<i1, [4]>
}

// CHECK-LABEL: func.func @isinf(
// CHECK:         linalg.generic
// CHECK:           math.absf
// CHECK:           arith.cmpf oeq
// CHECK:         linalg.yield
func.func @isinf(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<i1, [4]> {
  %0 = ts.aten.isinf %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<i1, [4]>
  return %0 : !ts.tensor<i1, [4]>
}

// CHECK-LABEL: func.func @isfinite(
// CHECK:         linalg.generic
// CHECK:           math.absf
// CHECK:           arith.cmpf olt
// CHECK:         linalg.yield
func.func @isfinite(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<i1, [4]> {
  %0 = ts.aten.isfinite %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<i1, [4]>
  return %0 : !ts.tensor<i1, [4]>
}

// CHECK-LABEL: func.func @isposinf(
// CHECK:         linalg.generic
// CHECK:           arith.cmpf oeq
// CHECK:         linalg.yield
func.func @isposinf(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<i1, [4]> {
  %0 = ts.aten.isposinf %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<i1, [4]>
  return %0 : !ts.tensor<i1, [4]>
}

// CHECK-LABEL: func.func @isneginf(
// CHECK:         linalg.generic
// CHECK:           arith.cmpf oeq
// CHECK:         linalg.yield
func.func @isneginf(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<i1, [4]> {
  %0 = ts.aten.isneginf %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<i1, [4]>
  return %0 : !ts.tensor<i1, [4]>
}

// CHECK-LABEL: func.func @signbit(
// CHECK:         linalg.generic
// CHECK:           arith.bitcast
// CHECK:           arith.cmpi slt
// CHECK:         linalg.yield
func.func @signbit(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<i1, [4]> {
  %0 = ts.aten.signbit %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<i1, [4]>
  return %0 : !ts.tensor<i1, [4]>
}

// CHECK-LABEL: func.func @signbit_int(
// CHECK:         linalg.generic
// CHECK:           arith.cmpi slt
// CHECK:         linalg.yield
func.func @signbit_int(%x: !ts.tensor<si64, [4]>) -> !ts.tensor<i1, [4]> {
  %0 = ts.aten.signbit %x : (!ts.tensor<si64, [4]>) -> !ts.tensor<i1, [4]>
  return %0 : !ts.tensor<i1, [4]>
}

// CHECK-LABEL: func.func @isnan_int(
// CHECK:         linalg.generic
// CHECK:           arith.constant false
// CHECK:         linalg.yield
func.func @isnan_int(%x: !ts.tensor<si64, [4]>) -> !ts.tensor<i1, [4]> {
  %0 = ts.aten.isnan %x : (!ts.tensor<si64, [4]>) -> !ts.tensor<i1, [4]>
  return %0 : !ts.tensor<i1, [4]>
}

// CHECK-LABEL: func.func @logit(
// CHECK:         linalg.generic
// CHECK:           arith.select
// CHECK:           math.log
// CHECK:         linalg.yield
func.func @logit(%x: !ts.tensor<f32, [4]>, %e: !ts.float) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.logit %x, %e : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @softshrink(
// CHECK:         linalg.generic
// CHECK:           arith.cmpf ogt
// CHECK:           arith.cmpf olt
// CHECK:         linalg.yield
func.func @softshrink(%x: !ts.tensor<f32, [4]>, %l: !ts.float) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.softshrink %x, %l : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @hardshrink(
// CHECK:         linalg.generic
// CHECK:           arith.cmpf oge
// CHECK:           arith.cmpf ole
// CHECK:         linalg.yield
func.func @hardshrink(%x: !ts.tensor<f32, [4]>, %l: !ts.float) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.hardshrink %x, %l : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @threshold(
// CHECK:         linalg.generic
// CHECK:           arith.cmpf ole
// CHECK:           arith.select
// CHECK:         linalg.yield
func.func @threshold(%x: !ts.tensor<f32, [4]>, %t: !ts.float, %v: !ts.float) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.threshold %x, %t, %v : (!ts.tensor<f32, [4]>, !ts.float, !ts.float) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @celu(
// CHECK:         linalg.generic
// CHECK:           math.expm1
// CHECK:         linalg.yield
func.func @celu(%x: !ts.tensor<f32, [4]>, %a: !ts.float) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.celu %x, %a : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @nan_to_num(
// CHECK:         linalg.generic
// CHECK:           arith.constant 3.40282347E+38
// CHECK:           arith.constant -3.40282347E+38
// CHECK:           arith.cmpf uno
// CHECK:           arith.constant 0x7F800000
// CHECK:           arith.constant 0xFF800000
// CHECK:         linalg.yield
func.func @nan_to_num(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.nan_to_num %x, %none, %none, %none : (!ts.tensor<f32, [4]>, !ts.none, !ts.none, !ts.none) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @atan2(
// CHECK:         linalg.generic
// CHECK:           math.atan2
// CHECK:         linalg.yield
func.func @atan2(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.atan2 %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @hypot(
// CHECK:         linalg.generic
// CHECK:           func.call @hypotf
// CHECK:         linalg.yield
func.func @hypot(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.hypot %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @logaddexp(
// CHECK:         linalg.generic
// CHECK:           arith.maximumf
// CHECK:           math.exp
// CHECK:           math.log1p
// CHECK:         linalg.yield
func.func @logaddexp(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.logaddexp %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @logaddexp2(
// CHECK:         linalg.generic
// CHECK:           math.exp2
// CHECK:           math.log1p
// CHECK:         linalg.yield
func.func @logaddexp2(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.logaddexp2 %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @fmax(
// CHECK:         linalg.generic
// CHECK:           arith.maxnumf
// CHECK:         linalg.yield
func.func @fmax(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.fmax %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @fmin(
// CHECK:         linalg.generic
// CHECK:           arith.minnumf
// CHECK:         linalg.yield
func.func @fmin(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.fmin %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @heaviside(
// CHECK:         linalg.generic
// CHECK:           arith.cmpf oeq
// CHECK:           arith.cmpf ogt
// CHECK:         linalg.yield
func.func @heaviside(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.heaviside %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @copysign_Tensor(
// CHECK:         linalg.generic
// CHECK:           math.copysign
// CHECK:         linalg.yield
func.func @copysign_Tensor(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.copysign.Tensor %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @xlogy_Tensor(
// CHECK:         linalg.generic
// CHECK:           math.log
// CHECK:           arith.cmpf uno
// CHECK:         linalg.yield
func.func @xlogy_Tensor(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.xlogy.Tensor %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @fmod_Tensor(
// CHECK:         linalg.generic
// CHECK:           arith.remf
// CHECK:         linalg.yield
func.func @fmod_Tensor(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.fmod.Tensor %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @true_divide_Tensor(
// CHECK:         linalg.generic
// CHECK:           arith.divf
// CHECK:         linalg.yield
func.func @true_divide_Tensor(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.true_divide.Tensor %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @float_power(
// CHECK:         linalg.generic
// CHECK:           arith.extf
// CHECK:           math.powf {{.+}} : f64
// CHECK:         linalg.yield
func.func @float_power(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>) -> !ts.tensor<f64, [4]> {
  %0 = ts.aten.float_power.Tensor_Tensor %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f64, [4]>
  return %0 : !ts.tensor<f64, [4]>
}

// CHECK-LABEL: func.func @bitwise_and_Tensor_int(
// CHECK:         linalg.generic
// CHECK:           arith.andi
// CHECK:         linalg.yield
func.func @bitwise_and_Tensor_int(%x: !ts.tensor<si64, [4]>, %y: !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]> {
  %0 = ts.aten.bitwise_and.Tensor %x, %y : (!ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]>
  return %0 : !ts.tensor<si64, [4]>
}

// CHECK-LABEL: func.func @bitwise_or_Tensor_int(
// CHECK:         linalg.generic
// CHECK:           arith.ori
// CHECK:         linalg.yield
func.func @bitwise_or_Tensor_int(%x: !ts.tensor<si64, [4]>, %y: !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]> {
  %0 = ts.aten.bitwise_or.Tensor %x, %y : (!ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]>
  return %0 : !ts.tensor<si64, [4]>
}

// CHECK-LABEL: func.func @bitwise_xor_Tensor_int(
// CHECK:         linalg.generic
// CHECK:           arith.xori
// CHECK:         linalg.yield
func.func @bitwise_xor_Tensor_int(%x: !ts.tensor<si64, [4]>, %y: !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]> {
  %0 = ts.aten.bitwise_xor.Tensor %x, %y : (!ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]>
  return %0 : !ts.tensor<si64, [4]>
}

// CHECK-LABEL: func.func @fmod_Tensor_int(
// CHECK:         linalg.generic
// CHECK:           arith.remsi
// CHECK:         linalg.yield
func.func @fmod_Tensor_int(%x: !ts.tensor<si64, [4]>, %y: !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]> {
  %0 = ts.aten.fmod.Tensor %x, %y : (!ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]>
  return %0 : !ts.tensor<si64, [4]>
}

// CHECK-LABEL: func.func @bitwise_left_shift_Tensor_int(
// CHECK:         linalg.generic
// CHECK:           arith.cmpi ult
// CHECK:           arith.shli
// CHECK:         linalg.yield
func.func @bitwise_left_shift_Tensor_int(%x: !ts.tensor<si64, [4]>, %y: !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]> {
  %0 = ts.aten.bitwise_left_shift.Tensor %x, %y : (!ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]>
  return %0 : !ts.tensor<si64, [4]>
}

// CHECK-LABEL: func.func @bitwise_right_shift_Tensor_int(
// CHECK:         linalg.generic
// CHECK:           arith.cmpi ult
// CHECK:           arith.shrsi
// CHECK:         linalg.yield
func.func @bitwise_right_shift_Tensor_int(%x: !ts.tensor<si64, [4]>, %y: !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]> {
  %0 = ts.aten.bitwise_right_shift.Tensor %x, %y : (!ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]>
  return %0 : !ts.tensor<si64, [4]>
}

// CHECK-LABEL: func.func @lshift___Tensor_int(
// CHECK:         linalg.generic
// CHECK:           arith.shli
// CHECK:         linalg.yield
func.func @lshift___Tensor_int(%x: !ts.tensor<si64, [4]>, %y: !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]> {
  %0 = ts.aten.__lshift__.Tensor %x, %y : (!ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]>
  return %0 : !ts.tensor<si64, [4]>
}

// CHECK-LABEL: func.func @rshift___Tensor_int(
// CHECK:         linalg.generic
// CHECK:           arith.shrsi
// CHECK:         linalg.yield
func.func @rshift___Tensor_int(%x: !ts.tensor<si64, [4]>, %y: !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]> {
  %0 = ts.aten.__rshift__.Tensor %x, %y : (!ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]>
  return %0 : !ts.tensor<si64, [4]>
}

// CHECK-LABEL: func.func @gcd(
// CHECK:         linalg.generic
// CHECK:           math.absi
// CHECK:           scf.while
// CHECK:           arith.remsi
// CHECK:         linalg.yield
func.func @gcd(%x: !ts.tensor<si64, [4]>, %y: !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]> {
  %0 = ts.aten.gcd %x, %y : (!ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]>
  return %0 : !ts.tensor<si64, [4]>
}

// CHECK-LABEL: func.func @lcm(
// CHECK:         linalg.generic
// CHECK:           scf.while
// CHECK:           arith.divsi
// CHECK:           arith.muli
// CHECK:         linalg.yield
func.func @lcm(%x: !ts.tensor<si64, [4]>, %y: !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]> {
  %0 = ts.aten.lcm %x, %y : (!ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]>
  return %0 : !ts.tensor<si64, [4]>
}

// CHECK-LABEL: func.func @bitwise_scalar(
// CHECK:         linalg.generic
// CHECK:           arith.andi
// CHECK:         linalg.yield
func.func @bitwise_scalar(%x: !ts.tensor<si64, [4]>, %n: !ts.int) -> !ts.tensor<si64, [4]> {
  %0 = ts.aten.bitwise_and.Scalar %x, %n : (!ts.tensor<si64, [4]>, !ts.int) -> !ts.tensor<si64, [4]>
  return %0 : !ts.tensor<si64, [4]>
}

// CHECK-LABEL: func.func @addcmul(
// CHECK:         linalg.generic
// CHECK:           arith.mulf
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         linalg.yield
func.func @addcmul(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>, %z: !ts.tensor<f32, [4]>, %v: !ts.float) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.addcmul %x, %y, %z, %v : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @addcdiv(
// CHECK:         linalg.generic
// CHECK:           arith.mulf
// CHECK:           arith.divf
// CHECK:           arith.addf
// CHECK:         linalg.yield
func.func @addcdiv(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>, %z: !ts.tensor<f32, [4]>, %v: !ts.float) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.addcdiv %x, %y, %z, %v : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @floor_divide_scalar(
// CHECK:         linalg.generic
// CHECK:           arith.divsi
// CHECK:           arith.remsi
// CHECK:         linalg.yield
func.func @floor_divide_scalar(%x: !ts.tensor<si64, [4]>, %n: !ts.int) -> !ts.tensor<si64, [4]> {
  %0 = ts.aten.floor_divide.Scalar %x, %n : (!ts.tensor<si64, [4]>, !ts.int) -> !ts.tensor<si64, [4]>
  return %0 : !ts.tensor<si64, [4]>
}

// CHECK-LABEL: func.func @atan_int(
// CHECK:         linalg.generic
// CHECK:           arith.sitofp
// CHECK:           math.atan
// CHECK:         linalg.yield
func.func @atan_int(%x: !ts.tensor<si64, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.atan %x : (!ts.tensor<si64, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// The scalar overloads read the scalar in the body.
// CHECK-LABEL: func.func @scalar_overloads(
// CHECK-SAME:      %[[I:.+]]: tensor<4xi64>, %[[N:.+]]: i64, %[[F:.+]]: tensor<4xf32>, %[[S:.+]]: f64)
// CHECK-COUNT-3: arith.andi %{{.+}}, %[[N]] : i64
// CHECK-COUNT-2: arith.ori %{{.+}}, %[[N]] : i64
// CHECK-COUNT-2: arith.xori %{{.+}}, %[[N]] : i64
// CHECK-COUNT-2: arith.shli %{{.+}}, %[[N]] : i64
// CHECK-COUNT-2: arith.shrsi
// CHECK:         math.copysign
// CHECK:         arith.extf
// CHECK:         math.powf {{.+}} : f64
// CHECK:         arith.remf
// CHECK:         arith.divf
// CHECK:         math.log
func.func @scalar_overloads(%i: !ts.tensor<si64, [4]>, %n: !ts.int, %x: !ts.tensor<f32, [4]>, %s: !ts.float) -> (!ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f64, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) {
  %0 = ts.aten.bitwise_and.Scalar %i, %n : (!ts.tensor<si64, [4]>, !ts.int) -> !ts.tensor<si64, [4]>
  %1 = ts.aten.__and__.Scalar %i, %n : (!ts.tensor<si64, [4]>, !ts.int) -> !ts.tensor<si64, [4]>
  %2 = ts.aten.bitwise_and.Scalar %i, %n : (!ts.tensor<si64, [4]>, !ts.int) -> !ts.tensor<si64, [4]>
  %3 = ts.aten.bitwise_or.Scalar %i, %n : (!ts.tensor<si64, [4]>, !ts.int) -> !ts.tensor<si64, [4]>
  %4 = ts.aten.__or__.Scalar %i, %n : (!ts.tensor<si64, [4]>, !ts.int) -> !ts.tensor<si64, [4]>
  %5 = ts.aten.bitwise_xor.Scalar %i, %n : (!ts.tensor<si64, [4]>, !ts.int) -> !ts.tensor<si64, [4]>
  %6 = ts.aten.__xor__.Scalar %i, %n : (!ts.tensor<si64, [4]>, !ts.int) -> !ts.tensor<si64, [4]>
  %7 = ts.aten.bitwise_left_shift.Tensor_Scalar %i, %n : (!ts.tensor<si64, [4]>, !ts.int) -> !ts.tensor<si64, [4]>
  %8 = ts.aten.__lshift__.Scalar %i, %n : (!ts.tensor<si64, [4]>, !ts.int) -> !ts.tensor<si64, [4]>
  %9 = ts.aten.bitwise_right_shift.Tensor_Scalar %i, %n : (!ts.tensor<si64, [4]>, !ts.int) -> !ts.tensor<si64, [4]>
  %10 = ts.aten.__rshift__.Scalar %i, %n : (!ts.tensor<si64, [4]>, !ts.int) -> !ts.tensor<si64, [4]>
  %11 = ts.aten.copysign.Scalar %x, %s : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
  %12 = ts.aten.float_power.Tensor_Scalar %x, %s : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f64, [4]>
  %13 = ts.aten.fmod.Scalar %x, %s : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
  %14 = ts.aten.true_divide.Scalar %x, %s : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
  %15 = ts.aten.xlogy.Scalar_Other %x, %s : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
  return %0, %1, %3, %4, %5, %6, %7, %8, %9, %10, %2, %11, %12, %13, %14, %15 : !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f64, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>
}
