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

// Results of dynamic sizes (a dynamic specialisation) that are sizes of
// the arguments: through a generic's init, tensor.empty's sizes read with
// tensor.dim, a reshape of unit dims and a cast. The output buffers have
// dynamic sizes, and tsmlir.result_dims says, per result and dim, which
// argument's dim it is (-1 and the size for a static one).
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME: %[[X:.+]]: tensor<?x?xf32>, %[[Y:.+]]: tensor<1x?xf32>, %[[OUT0:.+]]: memref<?x?xf32>, %[[OUT1:.+]]: memref<?x1xf32>, %[[OUT2:.+]]: memref<?xf32>)
// CHECK-SAME: tsmlir.result_dims = [array<i64: 0, 0, 1, 1>, array<i64: 0, 0, -1, 1>, array<i64: 1, 1>]
// CHECK: bufferization.materialize_in_destination %{{.+}} in restrict writable %[[OUT0]]
// CHECK: bufferization.materialize_in_destination %{{.+}} in restrict writable %[[OUT1]]
// CHECK: bufferization.materialize_in_destination %{{.+}} in restrict writable %[[OUT2]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
func.func @dynamic(%x: tensor<?x?xf32>, %y: tensor<1x?xf32>) -> (tensor<?x?xf32>, tensor<?x1xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %y, %c1 : tensor<1x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<?x?xf32>, tensor<1x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  %e1 = tensor.empty(%m) : tensor<?xf32>
  %rowsum = linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%sum : tensor<?x?xf32>) outs(%e1 : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %kept = tensor.expand_shape %rowsum [[0, 1]] output_shape [%m, 1] : tensor<?xf32> into tensor<?x1xf32>
  %flat = tensor.collapse_shape %y [[0, 1]] : tensor<1x?xf32> into tensor<?xf32>
  %cast = tensor.cast %flat : tensor<?xf32> to tensor<?xf32>
  return %sum, %kept, %cast : tensor<?x?xf32>, tensor<?x1xf32>, tensor<?xf32>
}

// -----

// expected-error @+1 {{result 0 of type 'tensor<?xf32>' has no static shape, nor a bound (a slice of a tensor of static shape), and its size 0 is not that of an argument}}
func.func @unbounded(%n: index) -> tensor<?xf32> {
  %e = tensor.empty(%n) : tensor<?xf32>
  return %e : tensor<?xf32>
}
