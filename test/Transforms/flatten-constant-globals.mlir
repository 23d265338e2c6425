// RUN: tsmlir-opt %s --ts-flatten-constant-globals | FileCheck %s

// A constant of several dimensions becomes a flat global of the same
// elements (dense values and resource blobs alike), read through an
// expand_shape to its shape. One-dimensional constants, globals without a
// value (ts-static-buffers' temporaries) are left as they are.
// CHECK-DAG: memref.global "private" constant @w : memref<6xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]>
// CHECK-DAG: memref.global "private" constant @r : memref<4xi32> = dense_resource<blob> {alignment = 64 : i64}
// CHECK-DAG: memref.global "private" constant @v : memref<3xf32> = dense<1.000000e+00>
// CHECK-DAG: memref.global "private" @buffer : memref<2x3xf32> = uninitialized
// CHECK-LABEL: func.func @f(
// CHECK: %[[W:.+]] = memref.get_global @w : memref<6xf32>
// CHECK: memref.expand_shape %[[W]] {{\[}}[0, 1]] output_shape [2, 3] : memref<6xf32> into memref<2x3xf32>
// CHECK: %[[R:.+]] = memref.get_global @r : memref<4xi32>
// CHECK: memref.expand_shape %[[R]] {{\[}}[0, 1, 2]] output_shape [2, 1, 2] : memref<4xi32> into memref<2x1x2xi32>
// CHECK: memref.get_global @v : memref<3xf32>
// CHECK: memref.get_global @buffer : memref<2x3xf32>
memref.global "private" constant @w : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>
memref.global "private" constant @r : memref<2x1x2xi32> = dense_resource<blob> {alignment = 64 : i64}
memref.global "private" constant @v : memref<3xf32> = dense<1.0>
memref.global "private" @buffer : memref<2x3xf32> = uninitialized
func.func @f() -> (memref<2x3xf32>, memref<2x1x2xi32>, memref<3xf32>, memref<2x3xf32>) {
  %w = memref.get_global @w : memref<2x3xf32>
  %r = memref.get_global @r : memref<2x1x2xi32>
  %v = memref.get_global @v : memref<3xf32>
  %b = memref.get_global @buffer : memref<2x3xf32>
  return %w, %r, %v, %b : memref<2x3xf32>, memref<2x1x2xi32>, memref<3xf32>, memref<2x3xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x0400000001000000020000000300000004000000"
    }
  }
#-}
