// RUN: tsmlir-opt %s --ts-raise-hook -split-input-file | FileCheck %s

// Each cf.assert first calls tsmlir_raise with its message (a constant
// global, NUL-terminated) when its condition fails; the assertion stays.
// CHECK-LABEL: module
// CHECK-DAG: llvm.mlir.global internal constant @tsmlir_raise_message_0("n must not be negative\00")
// CHECK-DAG: llvm.mlir.global internal constant @tsmlir_raise_message_1("index out of range\00")
// CHECK-DAG: func.func private @tsmlir_raise(!llvm.ptr)
// CHECK-LABEL: func.func @checks(
// CHECK-SAME: %[[A:.+]]: i1, %[[B:.+]]: i1)
// CHECK: %[[TRUE:.+]] = arith.constant true
// CHECK: %[[FAILED:.+]] = arith.xori %[[A]], %[[TRUE]] : i1
// CHECK: scf.if %[[FAILED]] {
// CHECK:   %[[M:.+]] = llvm.mlir.addressof @tsmlir_raise_message_0 : !llvm.ptr
// CHECK:   func.call @tsmlir_raise(%[[M]]) : (!llvm.ptr) -> ()
// CHECK: }
// CHECK: cf.assert %[[A]], "n must not be negative"
// CHECK: llvm.mlir.addressof @tsmlir_raise_message_1
// CHECK: cf.assert %[[B]], "index out of range"
func.func @checks(%a: i1, %b: i1) {
  cf.assert %a, "n must not be negative"
  cf.assert %b, "index out of range"
  return
}

// -----

// A module without assertions is left alone: no hook is declared.
// CHECK-LABEL: module
// CHECK-NOT: tsmlir_raise
// CHECK: func.func @none
func.func @none() {
  return
}
