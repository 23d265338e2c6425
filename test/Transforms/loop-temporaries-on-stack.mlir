// RUN: tsmlir-opt %s --split-input-file --ts-loop-temporaries-on-stack | FileCheck %s
// RUN: tsmlir-opt %s --split-input-file --ts-loop-temporaries-on-stack="max-bytes=1024 max-total-bytes=4096" | FileCheck %s --check-prefix=SMALL

// A row loop's temporaries (a row, the row's max) are allocated once, on the
// stack, at the function's entry; their deallocations go away. A buffer of
// the entry block itself is left alone.
// CHECK-LABEL: func.func @rows(
// CHECK-NEXT: %[[ROW:.+]] = memref.alloca() {alignment = 64 : i64} : memref<1x1024xf32>
// CHECK-NEXT: %[[MAX:.+]] = memref.alloca() {alignment = 64 : i64} : memref<1xf32>
// CHECK: memref.alloc() : memref<16xf32>
// CHECK: scf.for
// CHECK-NOT: memref.alloc
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[MAX]] : memref<1xf32>)
// CHECK: linalg.copy ins(%{{.+}}) outs(%[[ROW]] : memref<1x1024xf32>)
// CHECK-NOT: memref.dealloc %[[ROW]]
// SMALL-LABEL: func.func @rows(
// SMALL-NEXT: %[[MAX:.+]] = memref.alloca() {alignment = 64 : i64} : memref<1xf32>
// SMALL: scf.for
// SMALL: memref.alloc() {alignment = 64 : i64} : memref<1x1024xf32>
// SMALL: memref.dealloc
func.func @rows(%x: memref<8x1024xf32>, %y: memref<8x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 0.0 : f32
  %once = memref.alloc() : memref<16xf32>
  linalg.fill ins(%f : f32) outs(%once : memref<16xf32>)
  scf.for %i = %c0 to %c8 step %c1 {
    %row = memref.alloc() {alignment = 64 : i64} : memref<1x1024xf32>
    %max = memref.alloc() {alignment = 64 : i64} : memref<1xf32>
    linalg.fill ins(%f : f32) outs(%max : memref<1xf32>)
    %s = memref.subview %x[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    %d = memref.subview %y[%i, 0] [1, 1024] [1, 1] : memref<8x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    linalg.copy ins(%s : memref<1x1024xf32, strided<[1024, 1], offset: ?>>) outs(%row : memref<1x1024xf32>)
    linalg.copy ins(%row : memref<1x1024xf32>) outs(%d : memref<1x1024xf32, strided<[1024, 1], offset: ?>>)
    memref.dealloc %max : memref<1xf32>
    memref.dealloc %row : memref<1x1024xf32>
  }
  memref.dealloc %once : memref<16xf32>
  return
}

// -----

// Under OpenMP each thread has its own: the alloca goes to the start of the
// parallel region, not the function.
// CHECK-LABEL: func.func @threads(
// CHECK: omp.parallel {
// CHECK-NEXT: %[[ROW:.+]] = memref.alloca() : memref<64xf32>
// CHECK: omp.loop_nest
// CHECK-NOT: memref.alloc
// CHECK: linalg.copy ins(%{{.+}}) outs(%[[ROW]] : memref<64xf32>)
// CHECK-NOT: memref.dealloc
func.func @threads(%x: memref<8x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
        %row = memref.alloc() : memref<64xf32>
        %s = memref.subview %x[%i, 0] [1, 64] [1, 1] : memref<8x64xf32> to memref<64xf32, strided<[1], offset: ?>>
        linalg.copy ins(%s : memref<64xf32, strided<[1], offset: ?>>) outs(%row : memref<64xf32>)
        linalg.copy ins(%row : memref<64xf32>) outs(%s : memref<64xf32, strided<[1], offset: ?>>)
        memref.dealloc %row : memref<64xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Left on the heap: a buffer that leaves its iteration (yielded, passed to
// a call), one of dynamic size, one larger than max-bytes (64 KiB), one freed
// through a view of it (the pass erases only the buffer's own frees).
// CHECK-LABEL: func.func @stay(
// CHECK-NOT: memref.alloca
// CHECK: scf.for
// CHECK: memref.alloc() : memref<4xf32>
// CHECK: memref.alloc() : memref<8xf32>
// CHECK: memref.alloc(%{{.+}}) : memref<?xf32>
// CHECK: memref.alloc() : memref<32768xf32>
// CHECK: memref.alloc() : memref<2x4xf32>
func.func private @use(memref<8xf32>)
func.func @stay(%n: index) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %init = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (memref<4xf32>) {
    %next = memref.alloc() : memref<4xf32>
    %arg = memref.alloc() : memref<8xf32>
    func.call @use(%arg) : (memref<8xf32>) -> ()
    %dyn = memref.alloc(%n) : memref<?xf32>
    %big = memref.alloc() : memref<32768xf32>
    %viewed = memref.alloc() : memref<2x4xf32>
    %flat = memref.collapse_shape %viewed [[0, 1]] : memref<2x4xf32> into memref<8xf32>
    memref.dealloc %flat : memref<8xf32>
    memref.dealloc %arg : memref<8xf32>
    memref.dealloc %dyn : memref<?xf32>
    memref.dealloc %big : memref<32768xf32>
    scf.yield %next : memref<4xf32>
  }
  return %r : memref<4xf32>
}
