// RUN: tsmlir-opt %s --split-input-file --convert-ts-to-linalg | FileCheck %s

// Kernel ops on ts tensors become kernel ops on builtin tensors in
// destination style: the result is written into a new tensor.empty.
// CHECK-LABEL: func.func @conv(
// CHECK-SAME:      %[[X:.+]]: tensor<1x4x8x8xf32>, %[[W:.+]]: tensor<4x4x3x3xf32>, %[[R:.+]]: tensor<1x4x8x8xf32>)
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<1x4x8x8xf32>
// CHECK:         %[[K:.+]] = kernel.conv2d %[[X]], %[[W]] residual(%[[R]] : tensor<1x4x8x8xf32>) outs(%[[E]] : tensor<1x4x8x8xf32>)
// CHECK-SAME:      : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x8x8xf32>
// CHECK:         return %[[K]]
func.func @conv(%x: !ts.tensor<f32, [1, 4, 8, 8]>, %w: !ts.tensor<f32, [4, 4, 3, 3]>, %r: !ts.tensor<f32, [1, 4, 8, 8]>) -> !ts.tensor<f32, [1, 4, 8, 8]> {
  %0 = kernel.conv2d %x, %w residual(%r : !ts.tensor<f32, [1, 4, 8, 8]>) {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64, epilogue = [#kernel.step<residual, 0.0, 0.0>]} : !ts.tensor<f32, [1, 4, 8, 8]>, !ts.tensor<f32, [4, 4, 3, 3]> -> !ts.tensor<f32, [1, 4, 8, 8]>
  return %0 : !ts.tensor<f32, [1, 4, 8, 8]>
}

// -----

// CHECK-LABEL: func.func @linear(
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<2x5x16xf32>
// CHECK:         kernel.matmul %{{.+}}, %{{.+}} bias(%{{.+}} : tensor<16xf32>) outs(%[[E]] : tensor<2x5x16xf32>) {epilogue = [#kernel.step<relu, 0.000000e+00, 0.000000e+00>], transpose_w}
func.func @linear(%x: !ts.tensor<f32, [2, 5, 8]>, %w: !ts.tensor<f32, [16, 8]>, %b: !ts.tensor<f32, [16]>) -> !ts.tensor<f32, [2, 5, 16]> {
  %0 = kernel.matmul %x, %w bias(%b : !ts.tensor<f32, [16]>) {epilogue = [#kernel.step<relu, 0.0, 0.0>], transpose_w} : !ts.tensor<f32, [2, 5, 8]>, !ts.tensor<f32, [16, 8]> -> !ts.tensor<f32, [2, 5, 16]>
  return %0 : !ts.tensor<f32, [2, 5, 16]>
}
