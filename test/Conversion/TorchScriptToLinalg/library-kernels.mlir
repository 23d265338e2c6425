// RUN: tsmlir-opt %s --split-input-file --ts-library-kernels | FileCheck %s

// A convolution, its bias, a residual add and a relu: one kernel op, where
// the relu was.
// CHECK-LABEL: func.func @conv_residual_relu(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor<f32, [1, 4, 8, 8]>, %[[W:.+]]: !ts.tensor<f32, [4, 4, 3, 3]>, %[[B:.+]]: !ts.tensor<f32, [4]>, %[[R:.+]]: !ts.tensor<f32, [1, 4, 8, 8]>)
// CHECK-NOT:     ts.aten
// CHECK:         %[[K:.+]] = kernel.conv2d %[[X]], %[[W]] bias(%[[B]] : !ts.tensor<f32, [4]>) residual(%[[R]] : !ts.tensor<f32, [1, 4, 8, 8]>)
// CHECK-SAME:      dilation = array<i64: 1, 1>
// CHECK-SAME:      epilogue = [#kernel.step<residual, 0.000000e+00, 0.000000e+00>, #kernel.step<relu, 0.000000e+00, 0.000000e+00>]
// CHECK-SAME:      groups = 1 : i64, padding = array<i64: 1, 1>, stride = array<i64: 1, 1>
// CHECK-NEXT:    return %[[K]]
func.func @conv_residual_relu(%x: !ts.tensor<f32, [1, 4, 8, 8]>, %w: !ts.tensor<f32, [4, 4, 3, 3]>, %b: !ts.tensor<f32, [4]>, %r: !ts.tensor<f32, [1, 4, 8, 8]>) -> !ts.tensor<f32, [1, 4, 8, 8]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %ones = ts.prim.ListConstruct %int1, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.conv2d %x, %w, %b, %ones, %ones, %ones, %int1 : (!ts.tensor<f32, [1, 4, 8, 8]>, !ts.tensor<f32, [4, 4, 3, 3]>, !ts.tensor<f32, [4]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.int) -> !ts.tensor<f32, [1, 4, 8, 8]>
  %1 = ts.aten.add.Tensor %r, %0, %int1 : (!ts.tensor<f32, [1, 4, 8, 8]>, !ts.tensor<f32, [1, 4, 8, 8]>, !ts.int) -> !ts.tensor<f32, [1, 4, 8, 8]>
  %2 = ts.aten.relu %1 : (!ts.tensor<f32, [1, 4, 8, 8]>) -> !ts.tensor<f32, [1, 4, 8, 8]>
  return %2 : !ts.tensor<f32, [1, 4, 8, 8]>
}

// -----

// The chain stops at a value with two users: the hardtanh's result is also
// returned, so the sigmoid after it stays.
// CHECK-LABEL: func.func @grouped_stops_at_shared(
// CHECK:         %[[K:.+]] = kernel.conv2d %{{.+}}, %{{.+}} {
// CHECK-SAME:      epilogue = [#kernel.step<clip, 0.000000e+00, 6.000000e+00>]
// CHECK-SAME:      groups = 2 : i64
// CHECK:         %[[S:.+]] = ts.aten.sigmoid %[[K]]
// CHECK:         return %[[K]], %[[S]]
func.func @grouped_stops_at_shared(%x: !ts.tensor<f32, [1, 4, 6, 6]>, %w: !ts.tensor<f32, [6, 2, 3, 3]>) -> (!ts.tensor<f32, [1, 6, 4, 4]>, !ts.tensor<f32, [1, 6, 4, 4]>) {
  %none = ts.prim.Constant : !ts.none
  %int0 = ts.prim.Constant[0] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %int2 = ts.prim.Constant[2] : !ts.int
  %f0 = ts.prim.Constant[0.000000e+00] : !ts.float
  %f6 = ts.prim.Constant[6.000000e+00] : !ts.float
  %ones = ts.prim.ListConstruct %int1, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %zeros = ts.prim.ListConstruct %int0, %int0 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.conv2d %x, %w, %none, %ones, %zeros, %ones, %int2 : (!ts.tensor<f32, [1, 4, 6, 6]>, !ts.tensor<f32, [6, 2, 3, 3]>, !ts.none, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.int) -> !ts.tensor<f32, [1, 6, 4, 4]>
  %1 = ts.aten.hardtanh %0, %f0, %f6 : (!ts.tensor<f32, [1, 6, 4, 4]>, !ts.float, !ts.float) -> !ts.tensor<f32, [1, 6, 4, 4]>
  %2 = ts.aten.sigmoid %1 : (!ts.tensor<f32, [1, 6, 4, 4]>) -> !ts.tensor<f32, [1, 6, 4, 4]>
  return %1, %2 : !ts.tensor<f32, [1, 6, 4, 4]>, !ts.tensor<f32, [1, 6, 4, 4]>
}

// -----

// linear (the weight transposed) with gelu and a scale; mm without bias;
// bmm batched.
// CHECK-LABEL: func.func @products(
// CHECK:         %[[L:.+]] = kernel.matmul %{{.+}}, %{{.+}} bias(%{{.+}} : !ts.tensor<f32, [16]>) {
// CHECK-SAME:      epilogue = [#kernel.step<gelu_erf, 0.000000e+00, 0.000000e+00>, #kernel.step<linear, 5.000000e-01, 0.000000e+00>]
// CHECK-SAME:      transpose_w
// CHECK-SAME:      : !ts.tensor<f32, [2, 5, 8]>, !ts.tensor<f32, [16, 8]> -> !ts.tensor<f32, [2, 5, 16]>
// CHECK:         kernel.matmul %{{.+}}, %{{.+}} {epilogue = []} : !ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [8, 3]> -> !ts.tensor<f32, [4, 3]>
// CHECK:         kernel.matmul %{{.+}}, %{{.+}} {epilogue = [#kernel.step<swish, 1.000000e+00, 0.000000e+00>]} : !ts.tensor<f32, [2, 4, 8]>, !ts.tensor<f32, [2, 8, 3]> -> !ts.tensor<f32, [2, 4, 3]>
func.func @products(%x: !ts.tensor<f32, [2, 5, 8]>, %w: !ts.tensor<f32, [16, 8]>, %b: !ts.tensor<f32, [16]>, %a: !ts.tensor<f32, [4, 8]>, %m: !ts.tensor<f32, [8, 3]>, %ba: !ts.tensor<f32, [2, 4, 8]>, %bm: !ts.tensor<f32, [2, 8, 3]>) -> (!ts.tensor<f32, [2, 5, 16]>, !ts.tensor<f32, [4, 3]>, !ts.tensor<f32, [2, 4, 3]>) {
  %none = ts.prim.Constant["none"] : !ts.str
  %half = ts.prim.Constant[5.000000e-01] : !ts.float
  %0 = ts.aten.linear %x, %w, %b : (!ts.tensor<f32, [2, 5, 8]>, !ts.tensor<f32, [16, 8]>, !ts.tensor<f32, [16]>) -> !ts.tensor<f32, [2, 5, 16]>
  %1 = ts.aten.gelu %0, %none : (!ts.tensor<f32, [2, 5, 16]>, !ts.str) -> !ts.tensor<f32, [2, 5, 16]>
  %2 = ts.aten.mul.Scalar %1, %half : (!ts.tensor<f32, [2, 5, 16]>, !ts.float) -> !ts.tensor<f32, [2, 5, 16]>
  %3 = ts.aten.mm %a, %m : (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [8, 3]>) -> !ts.tensor<f32, [4, 3]>
  %4 = ts.aten.bmm %ba, %bm : (!ts.tensor<f32, [2, 4, 8]>, !ts.tensor<f32, [2, 8, 3]>) -> !ts.tensor<f32, [2, 4, 3]>
  %5 = ts.aten.silu %4 : (!ts.tensor<f32, [2, 4, 3]>) -> !ts.tensor<f32, [2, 4, 3]>
  return %2, %3, %5 : !ts.tensor<f32, [2, 5, 16]>, !ts.tensor<f32, [4, 3]>, !ts.tensor<f32, [2, 4, 3]>
}

// -----

// Not library kernels: f64, unknown sizes, an empty product, a transposed
// convolution.
// CHECK-LABEL: func.func @not_kernels(
// CHECK-NOT:     kernel.
// CHECK:         ts.aten.mm
// CHECK:         ts.aten.mm
// CHECK:         ts.aten.mm
// CHECK:         ts.aten._convolution
func.func @not_kernels(%a: !ts.tensor<f64, [4, 8]>, %m: !ts.tensor<f64, [8, 3]>, %u: !ts.tensor<f32, [?, 8]>, %v: !ts.tensor<f32, [8, 3]>, %x: !ts.tensor<f32, [1, 2, 4, 4]>, %w: !ts.tensor<f32, [2, 2, 3, 3]>, %ea: !ts.tensor<f32, [5, 0]>, %eb: !ts.tensor<f32, [0, 10]>) -> (!ts.tensor<f64, [4, 3]>, !ts.tensor<f32, [?, 3]>, !ts.tensor<f32, [1, 2, 6, 6]>, !ts.tensor<f32, [5, 10]>) {
  %none = ts.prim.Constant : !ts.none
  %true = ts.prim.Constant[true] : !ts.bool
  %false = ts.prim.Constant[false] : !ts.bool
  %int0 = ts.prim.Constant[0] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %ones = ts.prim.ListConstruct %int1, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %zeros = ts.prim.ListConstruct %int0, %int0 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.mm %a, %m : (!ts.tensor<f64, [4, 8]>, !ts.tensor<f64, [8, 3]>) -> !ts.tensor<f64, [4, 3]>
  %1 = ts.aten.mm %u, %v : (!ts.tensor<f32, [?, 8]>, !ts.tensor<f32, [8, 3]>) -> !ts.tensor<f32, [?, 3]>
  %e = ts.aten.mm %ea, %eb : (!ts.tensor<f32, [5, 0]>, !ts.tensor<f32, [0, 10]>) -> !ts.tensor<f32, [5, 10]>
  %2 = ts.aten._convolution %x, %w, %none, %ones, %zeros, %ones, %true, %zeros, %int1, %false, %false, %true, %true : (!ts.tensor<f32, [1, 2, 4, 4]>, !ts.tensor<f32, [2, 2, 3, 3]>, !ts.none, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool, !ts.list<!ts.int>, !ts.int, !ts.bool, !ts.bool, !ts.bool, !ts.bool) -> !ts.tensor<f32, [1, 2, 6, 6]>
  return %0, %1, %2, %e : !ts.tensor<f64, [4, 3]>, !ts.tensor<f32, [?, 3]>, !ts.tensor<f32, [1, 2, 6, 6]>, !ts.tensor<f32, [5, 10]>
}

// -----

// Consecutive affine steps fold into one: (y * 0.5 + 2) / 4 - 1 is
// 0.125 y - 0.5.
// CHECK-LABEL: func.func @affine_steps_fold(
// CHECK:         kernel.matmul
// CHECK-SAME:      epilogue = [#kernel.step<linear, 1.250000e-01, -5.000000e-01>]
func.func @affine_steps_fold(%a: !ts.tensor<f32, [4, 8]>, %m: !ts.tensor<f32, [8, 3]>) -> !ts.tensor<f32, [4, 3]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %half = ts.prim.Constant[5.000000e-01] : !ts.float
  %two = ts.prim.Constant[2.000000e+00] : !ts.float
  %four = ts.prim.Constant[4.000000e+00] : !ts.float
  %one = ts.prim.Constant[1.000000e+00] : !ts.float
  %0 = ts.aten.mm %a, %m : (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [8, 3]>) -> !ts.tensor<f32, [4, 3]>
  %1 = ts.aten.mul.Scalar %0, %half : (!ts.tensor<f32, [4, 3]>, !ts.float) -> !ts.tensor<f32, [4, 3]>
  %2 = ts.aten.add.Scalar %1, %two, %int1 : (!ts.tensor<f32, [4, 3]>, !ts.float, !ts.int) -> !ts.tensor<f32, [4, 3]>
  %3 = ts.aten.div.Scalar %2, %four : (!ts.tensor<f32, [4, 3]>, !ts.float) -> !ts.tensor<f32, [4, 3]>
  %4 = ts.aten.sub.Scalar %3, %one, %int1 : (!ts.tensor<f32, [4, 3]>, !ts.float, !ts.int) -> !ts.tensor<f32, [4, 3]>
  return %4 : !ts.tensor<f32, [4, 3]>
}
