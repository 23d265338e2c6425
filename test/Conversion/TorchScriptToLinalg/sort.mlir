// RUN: tsmlir-opt %s --convert-ts-to-linalg | FileCheck %s

// sort, sort.stable and topk (Sort.cpp): for each row and each element i,
// a loop counts the elements that come before it (less, or equal at a lower
// index: a stable order) and writes the element and i at that rank, for
// topk only when the rank is below k. test/e2e/Inputs/run_ops.py compares
// the forms with PyTorch (NaN, ties, ints, bools, every dim).

// Floats ascending: ordered less, or a number before NaN; NaN equals NaN.
// CHECK-LABEL: func.func @sort_rows(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<3x5xf32>)
// CHECK:         %[[V0:.+]] = tensor.empty() : tensor<3x5xf32>
// CHECK:         %[[I0:.+]] = tensor.empty() : tensor<3x5xi64>
// CHECK:         scf.for %[[R:.+]] = {{.*}} iter_args(%{{.+}} = %[[V0]], %{{.+}} = %[[I0]])
// CHECK:           scf.for %[[I:.+]] = {{.*}} iter_args(
// CHECK:             %[[XI:.+]] = tensor.extract %[[X]][%[[R]], %[[I]]]
// CHECK:             %[[RANK:.+]] = scf.for %[[J:.+]] = {{.*}} iter_args(%[[C:.+]] = %{{.+}}) -> (index)
// CHECK:               %[[XJ:.+]] = tensor.extract %[[X]][%[[R]], %[[J]]]
// CHECK:               arith.cmpf olt, %[[XJ]], %[[XI]]
// CHECK:               arith.cmpf ord, %[[XJ]], %[[XJ]]
// CHECK:               arith.cmpf uno, %[[XI]], %[[XI]]
// CHECK:               arith.cmpi ult, %[[J]], %[[I]]
// CHECK:               arith.cmpf oeq, %[[XJ]], %[[XI]]
// CHECK:             arith.cmpi ult, %[[RANK]], %{{.+}}
// CHECK:             scf.if
// CHECK:               tensor.insert %[[XI]] into %{{.+}}[%[[R]], %[[RANK]]]
// CHECK:               %[[IDX:.+]] = arith.index_cast %[[I]] : index to i64
// CHECK:               tensor.insert %[[IDX]] into %{{.+}}[%[[R]], %[[RANK]]]
func.func @sort_rows(%x: !ts.tensor<f32, [3, 5]>) -> (!ts.tensor<f32, [3, 5]>, !ts.tensor<si64, [3, 5]>) {
  %m1 = ts.prim.Constant[-1] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %v, %i = ts.aten.sort %x, %m1, %false : (!ts.tensor<f32, [3, 5]>, !ts.int, !ts.bool) -> (!ts.tensor<f32, [3, 5]>, !ts.tensor<si64, [3, 5]>)
  return %v, %i : !ts.tensor<f32, [3, 5]>, !ts.tensor<si64, [3, 5]>
}

// Descending sorts compare the other way round: j before i when x[i] < x[j].
// Ints compare signed.
// CHECK-LABEL: func.func @sort_stable_descending(
// CHECK:         scf.for
// CHECK:           arith.cmpi slt, %[[XI:.+]], %[[XJ:[^ ]+]] : i64
func.func @sort_stable_descending(%x: !ts.tensor<si64, [4, 2]>) -> (!ts.tensor<si64, [4, 2]>, !ts.tensor<si64, [4, 2]>) {
  %zero = ts.prim.Constant[0] : !ts.int
  %true = ts.prim.Constant[true] : !ts.bool
  %v, %i = ts.aten.sort.stable %x, %true, %zero, %true : (!ts.tensor<si64, [4, 2]>, !ts.bool, !ts.int, !ts.bool) -> (!ts.tensor<si64, [4, 2]>, !ts.tensor<si64, [4, 2]>)
  return %v, %i : !ts.tensor<si64, [4, 2]>, !ts.tensor<si64, [4, 2]>
}

// topk keeps the ranks below k: results of k elements along dim.
// CHECK-LABEL: func.func @topk(
// CHECK:         %[[K:.+]] = arith.constant 2 : index
// CHECK:         tensor.empty() : tensor<2x4xf32>
// CHECK:         tensor.empty() : tensor<2x4xi64>
// CHECK:         arith.cmpi ult, %{{.+}}, %[[K]] : index
func.func @topk(%x: !ts.tensor<f32, [6, 4]>) -> (!ts.tensor<f32, [2, 4]>, !ts.tensor<si64, [2, 4]>) {
  %zero = ts.prim.Constant[0] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %true = ts.prim.Constant[true] : !ts.bool
  %v, %i = ts.aten.topk %x, %two, %zero, %true, %true : (!ts.tensor<f32, [6, 4]>, !ts.int, !ts.int, !ts.bool, !ts.bool) -> (!ts.tensor<f32, [2, 4]>, !ts.tensor<si64, [2, 4]>)
  return %v, %i : !ts.tensor<f32, [2, 4]>, !ts.tensor<si64, [2, 4]>
}
