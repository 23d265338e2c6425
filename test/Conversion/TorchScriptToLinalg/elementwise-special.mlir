// RUN: tsmlir-opt %s --convert-ts-to-linalg | FileCheck %s

// torch.special's functions (ElementwiseSpecial.cpp): the transcendental
// ones computed in f64 and rounded once to the result's type; the
// orthogonal polynomials in the result's type by their recurrence (an
// scf.for of n - 1 steps) or their trigonometric form.

// The C library's functions, declared once in the module.
// CHECK-DAG:     func.func private @j0(f64) -> f64
// CHECK-DAG:     func.func private @lgamma(f64) -> f64

// I0 scaled by e^-|x|: the power series (60 terms), Hankel's expansion
// beyond |x| = 30, in f64.
// CHECK-LABEL: func.func @i0e(
// CHECK:         linalg.generic
// CHECK:           %[[X:.+]] = arith.extf %{{.+}} : f32 to f64
// CHECK:           scf.for {{.*}} -> (f64, f64)
// CHECK:           math.exp
// CHECK:           scf.for {{.*}} -> (f64, f64)
// CHECK:           arith.truncf %{{.+}} : f64 to f32
// CHECK:         linalg.yield
func.func @i0e(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.special_i0e %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// K1: the series below 2 (log(x/2) I1 + ...), the trapezoidal rule above.
// CHECK-LABEL: func.func @k1(
// CHECK:         linalg.generic
// CHECK:           math.log
// CHECK:           scf.for
// CHECK:           scf.for
// CHECK:           scf.for
// CHECK:             math.sinh
// CHECK:             math.cosh
// CHECK:         linalg.yield
func.func @k1(%x: !ts.tensor<f64, [4]>) -> !ts.tensor<f64, [4]> {
  %0 = ts.aten.special_modified_bessel_k1 %x : (!ts.tensor<f64, [4]>) -> !ts.tensor<f64, [4]>
  return %0 : !ts.tensor<f64, [4]>
}

// J0 of integers: the C library's double j0, the result float32.
// CHECK-LABEL: func.func @bessel_j0(
// CHECK:         linalg.generic
// CHECK:           arith.sitofp %{{.+}} : i64 to f32
// CHECK:           %[[W:.+]] = arith.extf %{{.+}} : f32 to f64
// CHECK:           func.call @j0(%[[W]]) : (f64) -> f64
// CHECK:           arith.truncf
func.func @bessel_j0(%x: !ts.tensor<si64, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.special_bessel_j0 %x : (!ts.tensor<si64, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// The regularized incomplete gamma function: a series and a continued
// fraction, each a bounded scf.while, with lgamma from the C library.
// CHECK-LABEL: func.func @igamma(
// CHECK:         linalg.generic
// CHECK:           scf.while
// CHECK:           func.call @lgamma
// CHECK:           scf.while
// CHECK:           func.call @lgamma
// CHECK:         linalg.yield
func.func @igamma(%a: !ts.tensor<f32, [4]>, %x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.igamma %a, %x : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// Chebyshev T of a number x and a tensor of degrees: n as an integer, the
// recurrence run only where neither a special value nor cos(n acos x)
// gives the result.
// CHECK-LABEL: func.func @chebyshev_t(
// CHECK:         linalg.generic
// CHECK:           %[[N:.+]] = arith.fptosi %{{.+}} : f32 to i64
// CHECK:           math.acos
// CHECK:           math.cos
// CHECK:           scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args({{.*}}) -> (f32, f32) : i64
// CHECK:         linalg.yield
func.func @chebyshev_t(%n: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %x = ts.prim.Constant[0.5] : !ts.float
  %0 = ts.aten.special_chebyshev_polynomial_t.x_scalar %x, %n : (!ts.float, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// nextafter: one step of the bits, in the operands' own type.
// CHECK-LABEL: func.func @nextafter(
// CHECK:         linalg.generic
// CHECK:           arith.bitcast %{{.+}} : f64 to i64
// CHECK:           arith.addi
// CHECK:           arith.subi
// CHECK:           arith.bitcast %{{.+}} : i64 to f64
// CHECK:         linalg.yield
func.func @nextafter(%x: !ts.tensor<f64, [4]>, %y: !ts.tensor<f64, [4]>) -> !ts.tensor<f64, [4]> {
  %0 = ts.aten.nextafter %x, %y : (!ts.tensor<f64, [4]>, !ts.tensor<f64, [4]>) -> !ts.tensor<f64, [4]>
  return %0 : !ts.tensor<f64, [4]>
}
