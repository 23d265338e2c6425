// RUN: tsmlir-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s

// A kernel op bufferizes in destination style. The library takes contiguous
// buffers: an input that is a strided view is copied into a new buffer
// first; an output that is one is written through a new buffer, copied into
// the view after.
// CHECK-LABEL: func.func @strided(
// CHECK-SAME:      %[[A:.+]]: memref<8x8xf32>, %[[W:.+]]: memref<4x3xf32>, %[[OUT:.+]]: memref<8x6xf32>)
// CHECK:         %[[AV:.+]] = memref.subview %[[A]][0, 0] [8, 4] [1, 1] : memref<8x8xf32> to memref<8x4xf32, strided<[8, 1]>>
// CHECK:         %[[OV:.+]] = memref.subview %[[OUT]][0, 0] [8, 3] [1, 1] : memref<8x6xf32> to memref<8x3xf32, strided<[6, 1]>>
// CHECK:         %[[AC:.+]] = memref.alloc() : memref<8x4xf32>
// CHECK:         memref.copy %[[AV]], %[[AC]]
// CHECK:         %[[T:.+]] = memref.alloc() : memref<8x3xf32>
// CHECK:         kernel.matmul %[[AC]], %[[W]] outs(%[[T]] : memref<8x3xf32>) {epilogue = []} : memref<8x4xf32>, memref<4x3xf32>
// CHECK:         memref.copy %[[T]], %[[OV]]
func.func @strided(%a: tensor<8x8xf32>, %w: tensor<4x3xf32>, %out: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %as = tensor.extract_slice %a[0, 0] [8, 4] [1, 1] : tensor<8x8xf32> to tensor<8x4xf32>
  %os = tensor.extract_slice %out[0, 0] [8, 3] [1, 1] : tensor<8x6xf32> to tensor<8x3xf32>
  %r = kernel.matmul %as, %w outs(%os : tensor<8x3xf32>) {epilogue = []} : tensor<8x4xf32>, tensor<4x3xf32> -> tensor<8x3xf32>
  %o = tensor.insert_slice %r into %out[0, 0] [8, 3] [1, 1] : tensor<8x3xf32> into tensor<8x6xf32>
  return %o : tensor<8x6xf32>
}
