// RUN: tsmlir-opt %s --ts-static-buffers | FileCheck %s

// A temporary of static shape in the entry block becomes a global; its
// deallocation goes away. One allocated in a loop stays.
// CHECK: memref.global "private" @__ts_buffer_0 : memref<1024xf32> {alignment = 64 : i64}
// CHECK-LABEL: func.func @f(
// CHECK: %[[T:.+]] = memref.get_global @__ts_buffer_0 : memref<1024xf32>
// CHECK: linalg.copy ins(%{{.+}} : memref<1024xf32>) outs(%[[T]] : memref<1024xf32>)
// CHECK-NOT: memref.dealloc %[[T]]
// CHECK: scf.for
// CHECK:   memref.alloc() : memref<4xf32>
func.func @f(%x: memref<1024xf32>, %y: memref<1024xf32>) {
  %t = memref.alloc() {alignment = 64 : i64} : memref<1024xf32>
  linalg.copy ins(%x : memref<1024xf32>) outs(%t : memref<1024xf32>)
  linalg.copy ins(%t : memref<1024xf32>) outs(%y : memref<1024xf32>)
  memref.dealloc %t : memref<1024xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %s = memref.alloc() : memref<4xf32>
    memref.dealloc %s : memref<4xf32>
  }
  return
}
