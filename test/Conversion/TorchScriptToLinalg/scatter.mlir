// RUN: tsmlir-opt %s --convert-ts-to-linalg | FileCheck %s

// scatter, scatter_add, scatter_reduce, index_add and index_put
// (Scatter.cpp): loops over the elements written, carrying the result,
// reading each index with a range check that aborts (cf.assert), updating
// one element per iteration. test/e2e/Inputs/run_ops.py compares every form
// with PyTorch.

// CHECK-LABEL: func.func @scatter_src(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<3x5xf32>, %[[I:[^:]+]]: tensor<2x5xi64>, %[[S:[^:]+]]: tensor<2x5xf32>)
// CHECK:         %[[R:.+]] = scf.for %[[A:.+]] = {{.*}} iter_args(%[[ACC:.+]] = %[[X]]) -> (tensor<3x5xf32>)
// CHECK:           scf.for %[[B:.+]] = {{.*}} iter_args(%[[ACC2:.+]] = %[[ACC]])
// CHECK:             %[[IDX:.+]] = tensor.extract %[[I]][%[[A]], %[[B]]]
// CHECK:             cf.assert %{{.+}}, "index out of bounds for dimension 0 with size 3"
// CHECK:             %[[ROW:.+]] = arith.index_cast
// CHECK:             %[[V:.+]] = tensor.extract %[[S]][%[[A]], %[[B]]]
// CHECK:             tensor.insert %[[V]] into %[[ACC2]][%[[ROW]], %[[B]]]
// CHECK:         return %[[R]]
func.func @scatter_src(%x: !ts.tensor<f32, [3, 5]>, %i: !ts.tensor<si64, [2, 5]>, %s: !ts.tensor<f32, [2, 5]>) -> !ts.tensor<f32, [3, 5]> {
  %zero = ts.prim.Constant[0] : !ts.int
  %0 = ts.aten.scatter.src %x, %zero, %i, %s : (!ts.tensor<f32, [3, 5]>, !ts.int, !ts.tensor<si64, [2, 5]>, !ts.tensor<f32, [2, 5]>) -> !ts.tensor<f32, [3, 5]>
  return %0 : !ts.tensor<f32, [3, 5]>
}

// A scalar source, and the add reduction: read, add, write back.
// CHECK-LABEL: func.func @scatter_value_add(
// CHECK:         scf.for
// CHECK:           cf.assert
// CHECK:           %[[OLD:.+]] = tensor.extract %{{.+}} : tensor<4xf32>
// CHECK:           %[[NEW:.+]] = arith.addf %[[OLD]], %{{.+}} : f32
// CHECK:           tensor.insert %[[NEW]]
func.func @scatter_value_add(%x: !ts.tensor<f32, [4]>, %i: !ts.tensor<si64, [3]>) -> !ts.tensor<f32, [4]> {
  %zero = ts.prim.Constant[0] : !ts.int
  %v = ts.prim.Constant[2.5] : !ts.float
  %add = ts.prim.Constant["add"] : !ts.str
  %0 = ts.aten.scatter.value_reduce %x, %zero, %i, %v, %add : (!ts.tensor<f32, [4]>, !ts.int, !ts.tensor<si64, [3]>, !ts.float, !ts.str) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// scatter.value, scatter.reduce (multiply) and scatter_add lower as the
// forms above.
// CHECK-LABEL: func.func @scatter_forms(
// CHECK:         arith.mulf
// CHECK:         arith.addf
func.func @scatter_forms(%x: !ts.tensor<f32, [4]>, %i: !ts.tensor<si64, [3]>, %s: !ts.tensor<f32, [3]>) -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) {
  %zero = ts.prim.Constant[0] : !ts.int
  %v = ts.prim.Constant[1] : !ts.int
  %mul = ts.prim.Constant["multiply"] : !ts.str
  %0 = ts.aten.scatter.value %x, %zero, %i, %v : (!ts.tensor<f32, [4]>, !ts.int, !ts.tensor<si64, [3]>, !ts.int) -> !ts.tensor<f32, [4]>
  %1 = ts.aten.scatter.reduce %x, %zero, %i, %s, %mul : (!ts.tensor<f32, [4]>, !ts.int, !ts.tensor<si64, [3]>, !ts.tensor<f32, [3]>, !ts.str) -> !ts.tensor<f32, [4]>
  %2 = ts.aten.scatter_add %x, %zero, %i, %s : (!ts.tensor<f32, [4]>, !ts.int, !ts.tensor<si64, [3]>, !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [4]>
  return %0, %1, %2 : !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>
}

// scatter_reduce mean without self: a first loop writes the identity where
// anything is scattered, the second sums and counts, a generic divides by
// the count (at least 1).
// CHECK-LABEL: func.func @scatter_reduce_mean(
// CHECK:         scf.for
// CHECK:           tensor.insert %{{.+}} into
// CHECK:         %[[R:.+]]:2 = scf.for
// CHECK:         linalg.generic
// CHECK:           arith.divf
func.func @scatter_reduce_mean(%x: !ts.tensor<f32, [4]>, %i: !ts.tensor<si64, [3]>, %s: !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [4]> {
  %zero = ts.prim.Constant[0] : !ts.int
  %mean = ts.prim.Constant["mean"] : !ts.str
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.aten.scatter_reduce.two %x, %zero, %i, %s, %mean, %false : (!ts.tensor<f32, [4]>, !ts.int, !ts.tensor<si64, [3]>, !ts.tensor<f32, [3]>, !ts.str, !ts.bool) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// index_add: loops over the source, the index read at the source's
// position along dim, alpha multiplied in.
// CHECK-LABEL: func.func @index_add(
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             cf.assert %{{.+}}, "index out of bounds for dimension 0 with size 5"
// CHECK:             arith.mulf
// CHECK:             arith.addf
func.func @index_add(%x: !ts.tensor<f32, [5, 3]>, %i: !ts.tensor<si64, [4]>, %s: !ts.tensor<f32, [4, 3]>) -> !ts.tensor<f32, [5, 3]> {
  %zero = ts.prim.Constant[0] : !ts.int
  %alpha = ts.prim.Constant[2.0] : !ts.float
  %0 = ts.aten.index_add %x, %zero, %i, %s, %alpha : (!ts.tensor<f32, [5, 3]>, !ts.int, !ts.tensor<si64, [4]>, !ts.tensor<f32, [4, 3]>, !ts.float) -> !ts.tensor<f32, [5, 3]>
  return %0 : !ts.tensor<f32, [5, 3]>
}

// index_put with two index tensors: negative indices count from the end.
// CHECK-LABEL: func.func @index_put(
// CHECK:         scf.for
// CHECK:           arith.cmpi slt
// CHECK:           arith.addi
// CHECK:           cf.assert %{{.+}}, "index out of bounds for dimension 0 with size 4"
// CHECK:           cf.assert %{{.+}}, "index out of bounds for dimension 1 with size 5"
// CHECK:           tensor.insert
func.func @index_put(%x: !ts.tensor<f32, [4, 5]>, %r: !ts.tensor<si64, [3]>, %c: !ts.tensor<si64, [3]>, %v: !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [4, 5]> {
  %false = ts.prim.Constant[false] : !ts.bool
  %l = ts.prim.ListConstruct %r, %c : (!ts.tensor<si64, [3]>, !ts.tensor<si64, [3]>) -> !ts.list<!ts.optional<!ts.tensor>>
  %0 = ts.aten.index_put %x, %l, %v, %false : (!ts.tensor<f32, [4, 5]>, !ts.list<!ts.optional<!ts.tensor>>, !ts.tensor<f32, [3]>, !ts.bool) -> !ts.tensor<f32, [4, 5]>
  return %0 : !ts.tensor<f32, [4, 5]>
}

// A boolean mask over the leading dim, one row of values per true element:
// an scf.if per mask element carries the row count, checked at the end.
// CHECK-LABEL: func.func @index_put_mask(
// CHECK:         %[[R:.+]]:2 = scf.for
// CHECK:           scf.if
// CHECK:             scf.for
// CHECK:         cf.assert %{{.+}}, "shape mismatch: value tensor of 2 rows cannot be broadcast to the elements the mask selects"
func.func @index_put_mask(%x: !ts.tensor<f32, [4, 5]>, %m: !ts.tensor<i1, [4]>, %v: !ts.tensor<f32, [2, 5]>) -> !ts.tensor<f32, [4, 5]> {
  %true = ts.prim.Constant[true] : !ts.bool
  %l = ts.prim.ListConstruct %m : (!ts.tensor<i1, [4]>) -> !ts.list<!ts.tensor>
  %0 = ts.aten.index_put.hacked_twin %x, %l, %v, %true : (!ts.tensor<f32, [4, 5]>, !ts.list<!ts.tensor>, !ts.tensor<f32, [2, 5]>, !ts.bool) -> !ts.tensor<f32, [4, 5]>
  return %0 : !ts.tensor<f32, [4, 5]>
}
