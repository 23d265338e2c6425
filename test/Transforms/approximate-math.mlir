// RUN: tsmlir-opt %s --ts-approximate-math | FileCheck %s

// f32 math becomes polynomials (no call left); f64 stays for libm.
// CHECK-LABEL: func.func @math(
// CHECK-NOT: math.erf {{.*}} : f32
// CHECK-NOT: math.tanh {{.*}} : f32
// CHECK-NOT: math.exp {{.*}} : f32
// CHECK: math.erf %{{.+}} : f64
func.func @math(%x: f32, %y: f64) -> (f32, f32, f32, f64) {
  %0 = math.erf %x : f32
  %1 = math.tanh %x : f32
  %2 = math.exp %x : f32
  %3 = math.erf %y : f64
  return %0, %1, %2, %3 : f32, f32, f32, f64
}
