// RUN: tsmlir-opt %s --split-input-file --convert-kernel-to-calls=threads=2 | FileCheck %s

// A convolution reading a constant weight: its descriptor (Kernels.h's
// layout: kind 1, N C H W, K R S, groups, strides, padding, dilation, OH OW,
// flags 2 = constant weight, one relu step) as a constant global, the
// buffers' addresses, null for no bias and no residual, and the threads.
// CHECK-DAG:   memref.global "private" constant @__tsmlir_kernel_desc : memref<22xi64> = dense<[1, 1, 4, 8, 8, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 8, 8, 2, 1, 1, 0, 0]>
// CHECK-DAG:   func.func private @tsmlir_kernel_conv2d(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64)
// CHECK-LABEL: func.func @conv(
// CHECK:         %[[D:.+]] = memref.get_global @__tsmlir_kernel_desc
// CHECK:         memref.extract_aligned_pointer_as_index %[[D]]
// CHECK:         %[[NULL:.+]] = llvm.mlir.zero : !llvm.ptr
// CHECK:         llvm.mlir.zero : !llvm.ptr
// CHECK:         %[[THREADS:.+]] = arith.constant 2 : i64
// CHECK:         call @tsmlir_kernel_conv2d(%{{.+}}, %{{.+}}, %{{.+}}, %[[NULL]], %{{.+}}, %{{.+}}, %[[THREADS]])
// CHECK-NOT:     kernel.conv2d
memref.global "private" constant @w : memref<4x4x3x3xf32> = dense<1.0>
func.func @conv(%x: memref<1x4x8x8xf32>, %out: memref<1x4x8x8xf32>) {
  %w = memref.get_global @w : memref<4x4x3x3xf32>
  kernel.conv2d %x, %w outs(%out : memref<1x4x8x8xf32>) {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64, epilogue = [#kernel.step<relu, 0.0, 0.0>]} : memref<1x4x8x8xf32>, memref<4x4x3x3xf32>
  return
}

// -----

// A linear layer on a [2, 5, 8] input: batch 2, M 5, K 8, N 16; flags:
// bias (1) and transposed weight (4), the weight an argument (not
// constant); a residual step whose operand is a view at an offset (its
// address adds the offset's bytes).
// CHECK:       memref.global "private" constant @__tsmlir_kernel_desc : memref<10xi64> = dense<[2, 2, 5, 8, 16, 5, 1, 11, 0, 0]>
// CHECK-LABEL: func.func @linear(
// CHECK:         %{{.+}}, %[[OFFSET:.+]], %{{.+}}:3, %{{.+}}:3 = memref.extract_strided_metadata %{{.+}} : memref<2x5x16xf32, strided<[80, 16, 1], offset: 160>>
// CHECK:         %[[BYTES:.+]] = arith.muli %[[OFFSET]], %c4
// CHECK:         call @tsmlir_kernel_matmul(
func.func @linear(%x: memref<2x5x8xf32>, %w: memref<16x8xf32>, %b: memref<16xf32>, %r: memref<4x5x16xf32>, %out: memref<2x5x16xf32>) {
  %view = memref.subview %r[2, 0, 0] [2, 5, 16] [1, 1, 1] : memref<4x5x16xf32> to memref<2x5x16xf32, strided<[80, 16, 1], offset: 160>>
  kernel.matmul %x, %w bias(%b : memref<16xf32>) residual(%view : memref<2x5x16xf32, strided<[80, 16, 1], offset: 160>>) outs(%out : memref<2x5x16xf32>) {epilogue = [#kernel.step<residual, 0.0, 0.0>], transpose_w} : memref<2x5x8xf32>, memref<16x8xf32>
  return
}
