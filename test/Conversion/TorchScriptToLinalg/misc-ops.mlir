// RUN: tsmlir-opt %s --convert-ts-to-linalg | FileCheck %s

// Overloads of reductions and linear algebra, and the tensor properties,
// that reductions.mlir, linear-algebra.mlir and data-movement.mlir do not
// show.

// var.dim and std.correction reduce over the dims given, std over all;
// each is a sum, a sum of squared deviations, and a division by the count
// less the correction (a square root for std), in a group of its own.
// CHECK-LABEL: func.func @variance(
// CHECK-SAME:      %[[X:.+]]: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<f32>, tensor<4x1xf32>)
// CHECK-DAG:     %[[N1:.+]] = arith.constant 7.000000e+00 : f32
// CHECK:         %[[S:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<4x8xf32>) outs(%{{.+}} : tensor<4xf32>) attrs = {{.*}}tsmlir.op = "var"
// CHECK:         %[[SQ:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[S]] : tensor<4x8xf32>, tensor<4xf32>)
// CHECK:           arith.mulf
// CHECK:         %[[VAR:.+]] = linalg.generic {{.*}} ins(%[[SQ]] : tensor<4xf32>)
// CHECK:           arith.divf %{{.+}}, %[[N1]] : f32
// CHECK:         %[[N:.+]] = arith.constant 3.200000e+01 : f32
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]} ins(%[[X]] : tensor<4x8xf32>) outs(%{{.+}} : tensor<f32>) attrs = {{.*}}tsmlir.op = "std"
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]}
// CHECK:         %[[STD:.+]] = linalg.generic
// CHECK:           %[[Q:.+]] = arith.divf %{{.+}}, %[[N]] : f32
// CHECK:           math.sqrt %[[Q]] : f32
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<4x8xf32>) outs(%{{.+}} : tensor<4xf32>) attrs = {{.*}}tsmlir.op = "std"
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK:         %[[STDC:.+]] = linalg.generic
// CHECK:           math.sqrt
// CHECK:         %[[KEEP:.+]] = tensor.expand_shape %[[STDC]] {{\[}}[0, 1]] output_shape [4, 1]
// CHECK:         return %[[VAR]], %[[STD]], %[[KEEP]]
func.func @variance(%x: !ts.tensor<f32, [4, 8]>) -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, []>, !ts.tensor<f32, [4, 1]>) {
  %true = ts.prim.Constant[true] : !ts.bool
  %false = ts.prim.Constant[false] : !ts.bool
  %one = ts.prim.Constant[1] : !ts.int
  %dims = ts.prim.ListConstruct %one : (!ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.var.dim %x, %dims, %true, %false : (!ts.tensor<f32, [4, 8]>, !ts.list<!ts.int>, !ts.bool, !ts.bool) -> !ts.tensor<f32, [4]>
  %1 = ts.aten.std %x, %false : (!ts.tensor<f32, [4, 8]>, !ts.bool) -> !ts.tensor<f32, []>
  %2 = ts.aten.std.correction %x, %dims, %one, %true : (!ts.tensor<f32, [4, 8]>, !ts.list<!ts.int>, !ts.int, !ts.bool) -> !ts.tensor<f32, [4, 1]>
  return %0, %1, %2 : !ts.tensor<f32, [4]>, !ts.tensor<f32, []>, !ts.tensor<f32, [4, 1]>
}

// _log_softmax, like log_softmax.int: x - max - log(sum(exp(x - max))),
// one row of the group at a time.
// CHECK-LABEL: func.func @log_softmax_internal(
// CHECK:         scf.forall
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK:             arith.maxnumf
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK:             math.exp
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]}
// CHECK:             math.log
// CHECK:             arith.subf
// CHECK:         } {tsmlir.op = "_log_softmax"}
func.func @log_softmax_internal(%x: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 8]> {
  %m1 = ts.prim.Constant[-1] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.aten._log_softmax %x, %m1, %false : (!ts.tensor<f32, [4, 8]>, !ts.int, !ts.bool) -> !ts.tensor<f32, [4, 8]>
  return %0 : !ts.tensor<f32, [4, 8]>
}

// baddbmm with alpha = beta = 1: the batched product accumulates into a
// copy of the input.
// CHECK-LABEL: func.func @baddbmm(
// CHECK-SAME:      %[[C:.+]]: tensor<2x4x3xf32>, %[[A:.+]]: tensor<2x4x8xf32>, %[[B:.+]]: tensor<2x8x3xf32>)
// CHECK:         %[[INIT:.+]] = linalg.generic {{.*}} ins(%[[C]] : tensor<2x4x3xf32>)
// CHECK:         %[[R:.+]] = linalg.batch_matmul ins(%[[A]], %[[B]] : tensor<2x4x8xf32>, tensor<2x8x3xf32>) outs(%[[INIT]] : tensor<2x4x3xf32>)
// CHECK:         return %[[R]]
func.func @baddbmm(%c: !ts.tensor<f32, [2, 4, 3]>, %a: !ts.tensor<f32, [2, 4, 8]>, %b: !ts.tensor<f32, [2, 8, 3]>) -> !ts.tensor<f32, [2, 4, 3]> {
  %one = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.baddbmm %c, %a, %b, %one, %one : (!ts.tensor<f32, [2, 4, 3]>, !ts.tensor<f32, [2, 4, 8]>, !ts.tensor<f32, [2, 8, 3]>, !ts.int, !ts.int) -> !ts.tensor<f32, [2, 4, 3]>
  return %0 : !ts.tensor<f32, [2, 4, 3]>
}

// prim::data is the tensor itself; prim::dtype, prim::device and
// prim::layout of a static tensor are constants that their users read at
// compile time (here a to of the tensor's own dtype: a copy).
// CHECK-LABEL: func.func @tensor_properties(
// CHECK-SAME:      %[[X:.+]]: tensor<2x3xf32>)
// CHECK:         %[[COPY:.+]] = linalg.generic {{.*}} ins(%[[X]] : tensor<2x3xf32>) outs(%{{.+}} : tensor<2x3xf32>)
// CHECK-NEXT:    ^bb0(%[[E:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      linalg.yield %[[E]] : f32
// CHECK:         return %[[X]], %[[COPY]]
func.func @tensor_properties(%x: !ts.tensor<f32, [2, 3]>) -> (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>) {
  %false = ts.prim.Constant[false] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %0 = ts.prim.data %x : (!ts.tensor<f32, [2, 3]>) -> !ts.tensor<f32, [2, 3]>
  %dtype = ts.prim.dtype %x : (!ts.tensor<f32, [2, 3]>) -> !ts.int
  %device = ts.prim.device %x : (!ts.tensor<f32, [2, 3]>) -> !ts.device
  %layout = ts.prim.layout %x : (!ts.tensor<f32, [2, 3]>) -> !ts.int
  %1 = ts.aten.to.dtype_layout %x, %dtype, %layout, %device, %none, %false, %false, %none : (!ts.tensor<f32, [2, 3]>, !ts.int, !ts.int, !ts.device, !ts.none, !ts.bool, !ts.bool, !ts.none) -> !ts.tensor<f32, [2, 3]>
  return %0, %1 : !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>
}

// The write-back of a mutated argument (ts-remove-mutation's copy_ before
// the return): the last value written into the argument's buffer.
// CHECK-LABEL: func.func @write_back(
// CHECK-SAME:      %[[X:.+]]: tensor<3xf32>)
// CHECK:         %[[NEG:.+]] = linalg.generic
// CHECK:         %[[BUF:.+]] = bufferization.to_buffer %[[X]] : tensor<3xf32> to memref<3xf32>
// CHECK:         bufferization.materialize_in_destination %[[NEG]] in writable %[[BUF]]
// CHECK:         return %[[NEG]]
func.func @write_back(%x: !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]> {
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.aten.neg %x : (!ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]>
  %1 = ts.aten.copy_ %x, %0, %false {ts.write_back} : (!ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>, !ts.bool) -> !ts.tensor<f32, [3]>
  return %0 : !ts.tensor<f32, [3]>
}
