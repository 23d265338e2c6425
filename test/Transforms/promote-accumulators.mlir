// RUN: tsmlir-opt %s --ts-promote-accumulators -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @row_sum(
// CHECK-SAME: %[[IN:.+]]: memref<8x1024xf32>, %[[OUT:.+]]: memref<8xf32>
// CHECK: scf.parallel (%[[I:.+]]) =
// CHECK:   %[[A0:.+]] = memref.load %[[OUT]][%[[I]]]
// CHECK:   %[[R:.+]] = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[A:.+]] = %[[A0]]) -> (f32) {
// CHECK:     %[[X:.+]] = memref.load %[[IN]]
// CHECK:     %[[S:.+]] = arith.addf %[[A]], %[[X]] fastmath<reassoc> : f32
// CHECK:     scf.yield %[[S]] : f32
// CHECK:   memref.store %[[R]], %[[OUT]][%[[I]]]
func.func @row_sum(%in: memref<8x1024xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c1024 = arith.constant 1024 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    scf.for %j = %c0 to %c1024 step %c1 {
      %x = memref.load %in[%i, %j] : memref<8x1024xf32>
      %a = memref.load %out[%i] : memref<8xf32>
      %s = arith.addf %a, %x : f32
      memref.store %s, %out[%i] : memref<8xf32>
    }
  }
  return
}

// -----

// The loop also writes elsewhere: left as it is.
// CHECK-LABEL: func.func @two_stores(
// CHECK: scf.for
// CHECK-NOT: iter_args
func.func @two_stores(%in: memref<1024xf32>, %out: memref<f32>, %copy: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  scf.for %j = %c0 to %c1024 step %c1 {
    %x = memref.load %in[%j] : memref<1024xf32>
    memref.store %x, %copy[%j] : memref<1024xf32>
    %a = memref.load %out[] : memref<f32>
    %s = arith.addf %a, %x : f32
    memref.store %s, %out[] : memref<f32>
  }
  return
}
