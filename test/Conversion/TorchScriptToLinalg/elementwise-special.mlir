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

// ndtri: computed in f64 from q = min(p, 1 - p), a rational first guess
// in sqrt(-2 log q) and three Halley steps on ndtr (erfc), rounded to f32.
// CHECK-LABEL: func.func @ndtri(
// CHECK:         linalg.generic
// CHECK:           arith.extf %{{.+}} : f32 to f64
// CHECK:           math.log
// CHECK:           math.sqrt
// CHECK-COUNT-3:   math.erfc
// CHECK:           arith.truncf %{{.+}} : f64 to f32
// CHECK:         linalg.yield
func.func @ndtri(%p: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.special_ndtri %p : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
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

// Every other function of ElementwiseSpecial.cpp, each with its overloads:
// one generic each.
// CHECK-LABEL: func.func @every_form(
// CHECK-COUNT-53: linalg.generic
// CHECK-NOT:     ts.aten
func.func @every_form(%x: !ts.tensor<f32, [4]>, %n: !ts.tensor<f32, [4]>) -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) {
  %three = ts.prim.Constant[3] : !ts.int
  %half = ts.prim.Constant[0.5] : !ts.float
  %0 = ts.aten.i0 %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %1 = ts.aten.special_bessel_j1 %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %2 = ts.aten.special_bessel_y0 %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %3 = ts.aten.special_bessel_y1 %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %4 = ts.aten.special_entr %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %5 = ts.aten.special_erfcx %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %6 = ts.aten.special_i1 %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %7 = ts.aten.special_i1e %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %8 = ts.aten.special_log_ndtr %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %9 = ts.aten.special_modified_bessel_i0 %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %10 = ts.aten.special_modified_bessel_i1 %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %11 = ts.aten.special_modified_bessel_k0 %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %12 = ts.aten.special_ndtr %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %13 = ts.aten.special_scaled_modified_bessel_k0 %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %14 = ts.aten.special_scaled_modified_bessel_k1 %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %15 = ts.aten.special_spherical_bessel_j0 %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %16 = ts.aten.igammac %x, %n : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %17 = ts.aten.special_chebyshev_polynomial_t %x, %n : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %18 = ts.aten.special_chebyshev_polynomial_t.n_scalar %x, %three : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %19 = ts.aten.special_chebyshev_polynomial_t.x_scalar %half, %n : (!ts.float, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %20 = ts.aten.special_chebyshev_polynomial_u %x, %n : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %21 = ts.aten.special_chebyshev_polynomial_u.n_scalar %x, %three : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %22 = ts.aten.special_chebyshev_polynomial_u.x_scalar %half, %n : (!ts.float, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %23 = ts.aten.special_chebyshev_polynomial_v %x, %n : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %24 = ts.aten.special_chebyshev_polynomial_v.n_scalar %x, %three : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %25 = ts.aten.special_chebyshev_polynomial_v.x_scalar %half, %n : (!ts.float, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %26 = ts.aten.special_chebyshev_polynomial_w %x, %n : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %27 = ts.aten.special_chebyshev_polynomial_w.n_scalar %x, %three : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %28 = ts.aten.special_chebyshev_polynomial_w.x_scalar %half, %n : (!ts.float, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %29 = ts.aten.special_shifted_chebyshev_polynomial_t %x, %n : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %30 = ts.aten.special_shifted_chebyshev_polynomial_t.n_scalar %x, %three : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %31 = ts.aten.special_shifted_chebyshev_polynomial_t.x_scalar %half, %n : (!ts.float, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %32 = ts.aten.special_shifted_chebyshev_polynomial_u %x, %n : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %33 = ts.aten.special_shifted_chebyshev_polynomial_u.n_scalar %x, %three : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %34 = ts.aten.special_shifted_chebyshev_polynomial_u.x_scalar %half, %n : (!ts.float, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %35 = ts.aten.special_shifted_chebyshev_polynomial_v %x, %n : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %36 = ts.aten.special_shifted_chebyshev_polynomial_v.n_scalar %x, %three : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %37 = ts.aten.special_shifted_chebyshev_polynomial_v.x_scalar %half, %n : (!ts.float, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %38 = ts.aten.special_shifted_chebyshev_polynomial_w %x, %n : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %39 = ts.aten.special_shifted_chebyshev_polynomial_w.n_scalar %x, %three : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %40 = ts.aten.special_shifted_chebyshev_polynomial_w.x_scalar %half, %n : (!ts.float, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %41 = ts.aten.special_hermite_polynomial_h %x, %n : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %42 = ts.aten.special_hermite_polynomial_h.n_scalar %x, %three : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %43 = ts.aten.special_hermite_polynomial_h.x_scalar %half, %n : (!ts.float, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %44 = ts.aten.special_hermite_polynomial_he %x, %n : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %45 = ts.aten.special_hermite_polynomial_he.n_scalar %x, %three : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %46 = ts.aten.special_hermite_polynomial_he.x_scalar %half, %n : (!ts.float, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %47 = ts.aten.special_laguerre_polynomial_l %x, %n : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %48 = ts.aten.special_laguerre_polynomial_l.n_scalar %x, %three : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %49 = ts.aten.special_laguerre_polynomial_l.x_scalar %half, %n : (!ts.float, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %50 = ts.aten.special_legendre_polynomial_p %x, %n : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %51 = ts.aten.special_legendre_polynomial_p.n_scalar %x, %three : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %52 = ts.aten.special_legendre_polynomial_p.x_scalar %half, %n : (!ts.float, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52 : !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>
}
