// RUN: tsmlir-opt %s --ts-destination-style-entry -split-input-file -verify-diagnostics | FileCheck %s

// Results become output buffers after the inputs; numbers go to 0-d ones.
// CHECK-LABEL: func.func @f(
// CHECK-SAME: %[[X:.+]]: tensor<4xf32>, %[[N:.+]]: i64, %[[OUT0:.+]]: memref<4xf32>, %[[OUT1:.+]]: memref<i64>)
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK: bufferization.materialize_in_destination %[[X]] in restrict writable %[[OUT0]]
// CHECK: memref.store %[[N]], %[[OUT1]][]
// CHECK: return{{$}}
func.func @f(%x: tensor<4xf32>, %n: i64) -> (tensor<4xf32>, i64) {
  return %x, %n : tensor<4xf32>, i64
}

// -----

// expected-error @+1 {{expected one public function with a body}}
module {
  func.func @a() { return }
  func.func @b() { return }
}
