// RUN: tsmlir-opt %s --ts-outer-parallel-loops -split-input-file | FileCheck %s
// RUN: tsmlir-opt %s --ts-outer-parallel-loops=min-work=1 -split-input-file | FileCheck %s --check-prefix=SMALL

// A big 2-D nest keeps its rows parallel; the columns run in order inside.
// CHECK-LABEL: func.func @big(
// CHECK: scf.parallel (%[[I:.+]]) = (%{{.+}}) to (%{{.+}}) step (%{{.+}}) {
// CHECK:   scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:     memref.store %{{.+}}, %{{.+}}[%[[I]], %[[J]]]
func.func @big(%m: memref<512x512xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c512, %c512) step (%c1, %c1) {
    memref.store %v, %m[%i, %j] : memref<512x512xf32>
  }
  return
}

// -----

// Too little work for threads: sequential loops.
// CHECK-LABEL: func.func @small(
// CHECK-NOT: scf.parallel
// CHECK: scf.for
// CHECK: scf.for
// SMALL-LABEL: func.func @small(
// SMALL: scf.parallel
func.func @small(%m: memref<4x8xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    memref.store %v, %m[%i, %j] : memref<4x8xf32>
  }
  return
}

// -----

// An outer dimension of one iteration cannot be shared: sequential.
// CHECK-LABEL: func.func @one_row(
// CHECK-NOT: scf.parallel
func.func @one_row(%m: memref<1x65536xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 65536 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1, %n) step (%c1, %c1) {
    memref.store %v, %m[%i, %j] : memref<1x65536xf32>
  }
  return
}
