// RUN: tsmlir-opt %s --convert-ts-to-linalg | FileCheck %s

// slice_scatter and select_scatter (writes through views, after
// ts-remove-mutation), flip, reductions over one dim, Python's scalar floor
// division, modulo, min, max and abs, and tensors from (nested) lists.

// The map flip reads its input with (the maps come first).
// CHECK:       #[[FLIP:.+]] = affine_map<(d0, d1) -> (d0, -d1 + 2)>

// CHECK-LABEL: func.func @scatters(
// CHECK-SAME:      %[[X:.+]]: tensor<4x3xf32>, %[[R:.+]]: tensor<2x3xf32>, %[[S:.+]]: tensor<3xf32>)
// CHECK:         %[[A:.+]] = tensor.insert_slice %[[R]] into %[[X]][1, 0] [2, 3] [2, 1]
// CHECK:         %[[E:.+]] = tensor.expand_shape %[[S]]
// CHECK:         tensor.insert_slice %[[E]] into %[[A]][3, 0] [1, 3] [1, 1]
func.func @scatters(%x: !ts.tensor<f32, [4, 3]>, %r: !ts.tensor<f32, [2, 3]>, %s: !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [4, 3]> {
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %m1 = ts.prim.Constant[-1] : !ts.int
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.slice_scatter %x, %r, %zero, %one, %none, %two : (!ts.tensor<f32, [4, 3]>, !ts.tensor<f32, [2, 3]>, !ts.int, !ts.int, !ts.none, !ts.int) -> !ts.tensor<f32, [4, 3]>
  %1 = ts.aten.select_scatter %0, %s, %zero, %m1 : (!ts.tensor<f32, [4, 3]>, !ts.tensor<f32, [3]>, !ts.int, !ts.int) -> !ts.tensor<f32, [4, 3]>
  return %1 : !ts.tensor<f32, [4, 3]>
}

// flip reads index n - 1 - i of each flipped dim.
// CHECK-LABEL: func.func @flip(
// CHECK:         linalg.generic {indexing_maps = [#[[FLIP]]
func.func @flip(%x: !ts.tensor<f32, [4, 3]>) -> !ts.tensor<f32, [4, 3]> {
  %m1 = ts.prim.Constant[-1] : !ts.int
  %dims = ts.prim.ListConstruct %m1 : (!ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.flip %x, %dims : (!ts.tensor<f32, [4, 3]>, !ts.list<!ts.int>) -> !ts.tensor<f32, [4, 3]>
  return %0 : !ts.tensor<f32, [4, 3]>
}

// prod, all and any over one dim: a reduction of that dim.
// CHECK-LABEL: func.func @dim_reductions(
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:           arith.mulf
// CHECK:         linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]
// CHECK:           arith.andi
// CHECK:         linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]
// CHECK:           arith.ori
func.func @dim_reductions(%x: !ts.tensor<f32, [4, 3]>, %b: !ts.tensor<i1, [4, 3]>) -> (!ts.tensor<f32, [4]>, !ts.tensor<i1, [3]>, !ts.tensor<i1, [1, 3]>) {
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %true = ts.prim.Constant[true] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.prod.dim_int %x, %one, %false, %none : (!ts.tensor<f32, [4, 3]>, !ts.int, !ts.bool, !ts.none) -> !ts.tensor<f32, [4]>
  %1 = ts.aten.all.dim %b, %zero, %false : (!ts.tensor<i1, [4, 3]>, !ts.int, !ts.bool) -> !ts.tensor<i1, [3]>
  %2 = ts.aten.any.dim %b, %zero, %true : (!ts.tensor<i1, [4, 3]>, !ts.int, !ts.bool) -> !ts.tensor<i1, [1, 3]>
  return %0, %1, %2 : !ts.tensor<f32, [4]>, !ts.tensor<i1, [3]>, !ts.tensor<i1, [1, 3]>
}

// Python's // and % of ints round towards negative infinity; of floats,
// floor(a / b).
// CHECK-LABEL: func.func @scalar_floor(
// CHECK-SAME:      %[[A:.+]]: i64, %[[B:.+]]: i64, %[[F:.+]]: f64)
// CHECK:         arith.divsi %[[A]], %[[B]]
// CHECK:         arith.remsi %[[A]], %[[B]]
// CHECK:         arith.select
// CHECK:         %[[Q:.+]] = arith.divf %[[F]], %[[F]]
// CHECK:         math.floor %[[Q]]
// CHECK:         arith.remsi %[[A]], %[[B]]
// CHECK:         arith.addi
// CHECK:         arith.select
// CHECK:         arith.minsi %[[A]], %[[B]]
// CHECK:         arith.maximumf %[[F]], %[[F]]
// CHECK:         math.absi %[[A]]
func.func @scalar_floor(%a: !ts.int, %b: !ts.int, %f: !ts.float) -> (!ts.int, !ts.float, !ts.int, !ts.int, !ts.float, !ts.int) {
  %0 = ts.aten.floordiv.int %a, %b : (!ts.int, !ts.int) -> !ts.int
  %1 = ts.aten.floordiv.float %f, %f : (!ts.float, !ts.float) -> !ts.float
  %2 = ts.aten.remainder.int %a, %b : (!ts.int, !ts.int) -> !ts.int
  %3 = ts.prim.min.int %a, %b : (!ts.int, !ts.int) -> !ts.int
  %4 = ts.prim.max.float %f, %f : (!ts.float, !ts.float) -> !ts.float
  %5 = ts.prim.abs.int %a : (!ts.int) -> !ts.int
  return %0, %1, %2, %3, %4, %5 : !ts.int, !ts.float, !ts.int, !ts.int, !ts.float, !ts.int
}

// aten::tensor of a nested list: its scalars in row-major order, converted
// to the dtype; of one number, a 0-d tensor.
// CHECK-LABEL: func.func @tensor_from_list(
// CHECK-SAME:      %[[N:.+]]: i64)
// CHECK:         %[[B:.+]] = arith.constant true
// CHECK:         %[[C:.+]] = arith.sitofp %[[N]] : i64 to f32
// CHECK:         tensor.from_elements %{{.+}}, %[[C]], %{{.+}}, %{{.+}} : tensor<2x2xf32>
// CHECK:         tensor.from_elements %[[B]] : tensor<1xi1>
// CHECK:         linalg.fill ins(%{{.+}} : f64) outs(%{{.+}} : tensor<f64>)
func.func @tensor_from_list(%n: !ts.int) -> (!ts.tensor<f32, [2, 2]>, !ts.tensor<i1, [1]>, !ts.tensor<f64, []>) {
  %one = ts.prim.Constant[1] : !ts.int
  %f = ts.prim.Constant[2.5] : !ts.float
  %true = ts.prim.Constant[true] : !ts.bool
  %false = ts.prim.Constant[false] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %f32 = ts.prim.Constant[6] : !ts.int
  %f64 = ts.prim.Constant[7] : !ts.int
  %row0 = ts.prim.ListConstruct %one, %n : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %row1 = ts.prim.ListConstruct %n, %one : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %rows = ts.prim.ListConstruct %row0, %row1 : (!ts.list<!ts.int>, !ts.list<!ts.int>) -> !ts.list<!ts.list<!ts.int>>
  %0 = ts.aten.tensor %rows, %f32, %none, %false : (!ts.list<!ts.list<!ts.int>>, !ts.int, !ts.none, !ts.bool) -> !ts.tensor<f32, [2, 2]>
  %bools = ts.prim.ListConstruct %true : (!ts.bool) -> !ts.list<!ts.bool>
  %1 = ts.aten.tensor %bools, %none, %none, %false : (!ts.list<!ts.bool>, !ts.none, !ts.none, !ts.bool) -> !ts.tensor<i1, [1]>
  %2 = ts.aten.tensor.float %f, %f64, %none, %false : (!ts.float, !ts.int, !ts.none, !ts.bool) -> !ts.tensor<f64, []>
  return %0, %1, %2 : !ts.tensor<f32, [2, 2]>, !ts.tensor<i1, [1]>, !ts.tensor<f64, []>
}

// The remaining overloads: float modulo, min and max of the other types,
// 0-d tensors of an int and a bool.
// CHECK-LABEL: func.func @more_overloads(
// CHECK:         arith.remf
// CHECK:         arith.maxsi
// CHECK:         arith.minimumf
// CHECK:         linalg.fill
// CHECK:         linalg.fill
func.func @more_overloads(%a: !ts.int, %f: !ts.float, %b: !ts.bool) -> (!ts.float, !ts.int, !ts.float, !ts.tensor<si64, []>, !ts.tensor<i1, []>) {
  %none = ts.prim.Constant : !ts.none
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.aten.remainder.float %f, %f : (!ts.float, !ts.float) -> !ts.float
  %1 = ts.prim.max.int %a, %a : (!ts.int, !ts.int) -> !ts.int
  %2 = ts.prim.min.float %f, %f : (!ts.float, !ts.float) -> !ts.float
  %3 = ts.aten.tensor.int %a, %none, %none, %false : (!ts.int, !ts.none, !ts.none, !ts.bool) -> !ts.tensor<si64, []>
  %4 = ts.aten.tensor.bool %b, %none, %none, %false : (!ts.bool, !ts.none, !ts.none, !ts.bool) -> !ts.tensor<i1, []>
  return %0, %1, %2, %3, %4 : !ts.float, !ts.int, !ts.float, !ts.tensor<si64, []>, !ts.tensor<i1, []>
}
