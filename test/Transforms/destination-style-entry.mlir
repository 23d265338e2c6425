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

// -----

// A result sized at run time, a slice of a tensor of static shape: its
// output buffer has that shape and takes the result in its leading corner;
// its sizes go to a buffer after all the outputs.
// CHECK-LABEL: func.func @sized_at_run_time(
// CHECK-SAME: %[[X:.+]]: tensor<6x3xf32>, %[[N:.+]]: index, %[[OUT0:.+]]: memref<6x3xf32>, %[[OUT1:.+]]: memref<2xf32>, %[[SIZES:.+]]: memref<2xi64>)
// CHECK: %[[SLICE:.+]] = tensor.extract_slice %[[X]][1, 0] [%[[N]], 3] [1, 1]
// CHECK: %[[ROWS:.+]] = arith.index_cast %[[N]] : index to i64
// CHECK: memref.store %[[ROWS]], %[[SIZES]][%c0{{.*}}]
// CHECK: %[[COLS:.+]] = arith.index_cast %c3{{.*}} : index to i64
// CHECK: memref.store %[[COLS]], %[[SIZES]][%c1{{.*}}]
// CHECK: %[[CORNER:.+]] = memref.subview %[[OUT0]][0, 0] [%[[N]], 3] [1, 1]
// CHECK: bufferization.materialize_in_destination %[[SLICE]] in restrict writable %[[CORNER]]
// CHECK: bufferization.materialize_in_destination %{{.+}} in restrict writable %[[OUT1]]
func.func @sized_at_run_time(%x: tensor<6x3xf32>, %n: index) -> (tensor<?x3xf32>, tensor<2xf32>) {
  %s = tensor.extract_slice %x[1, 0] [%n, 3] [1, 1] : tensor<6x3xf32> to tensor<?x3xf32>
  %c = arith.constant dense<1.0> : tensor<2xf32>
  return %s, %c : tensor<?x3xf32>, tensor<2xf32>
}

// -----

// expected-error @+1 {{result 0 of type 'tensor<?xf32>' has no static shape, nor a bound (a slice of a tensor of static shape)}}
func.func @unbounded(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
