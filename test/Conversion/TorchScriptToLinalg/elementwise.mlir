// RUN: tsmlir-opt %s --convert-ts-to-linalg -split-input-file | FileCheck %s

// Broadcasting: the bias is read with a map that drops the row, alpha scales
// the second operand.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @add_broadcast(
// CHECK-SAME: %[[X:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8xf32>) -> tensor<4x8xf32>
// CHECK: %[[E:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[X]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK: ^bb0(%[[A:.+]]: f32, %[[C:.+]]: f32, %{{.+}}: f32):
// CHECK:   %[[ALPHA:.+]] = arith.constant 2.000000e+00 : f32
// CHECK:   %[[S:.+]] = arith.mulf %[[C]], %[[ALPHA]] : f32
// CHECK:   %[[R:.+]] = arith.addf %[[A]], %[[S]] : f32
// CHECK:   linalg.yield %[[R]] : f32
func.func @add_broadcast(%x: !ts.tensor<f32, [4, 8]>, %b: !ts.tensor<f32, [8]>) -> !ts.tensor<f32, [4, 8]> {
  %two = ts.prim.Constant[2] : !ts.int
  %0 = ts.aten.add.Tensor %x, %b, %two : (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [8]>, !ts.int) -> !ts.tensor<f32, [4, 8]>
  return %0 : !ts.tensor<f32, [4, 8]>
}

// -----

// A size-1 dimension broadcasts with a constant index; an int tensor times a
// float tensor computes in the result's dtype (f32).
// CHECK-DAG: #[[COL:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @promote(
// CHECK: linalg.generic {indexing_maps = [#[[COL]], #[[ROW]], #{{.+}}]
// CHECK: ^bb0(%[[A:.+]]: i64, %[[B:.+]]: f32, %{{.+}}: f32):
// CHECK:   %[[AF:.+]] = arith.sitofp %[[A]] : i64 to f32
// CHECK:   arith.mulf %[[AF]], %[[B]] : f32
func.func @promote(%x: !ts.tensor<si64, [4, 1]>, %y: !ts.tensor<f32, [8]>) -> !ts.tensor<f32, [4, 8]> {
  %0 = ts.aten.mul.Tensor %x, %y : (!ts.tensor<si64, [4, 1]>, !ts.tensor<f32, [8]>) -> !ts.tensor<f32, [4, 8]>
  return %0 : !ts.tensor<f32, [4, 8]>
}

// -----

// A run-time float scalar is cast once, outside the loop; comparisons
// compute in the promoted type (an int tensor against a float: f32) and
// give i1.
// CHECK-LABEL: func.func @compare_scalar(
// CHECK-SAME: %[[X:.+]]: tensor<5xi64>, %[[S:.+]]: f64) -> tensor<5xi1>
// CHECK: %[[SF:.+]] = arith.truncf %[[S]] : f64 to f32
// CHECK: linalg.generic
// CHECK: ^bb0(%[[A:.+]]: i64, %{{.+}}: i1):
// CHECK:   %[[AF:.+]] = arith.sitofp %[[A]] : i64 to f32
// CHECK:   %[[C:.+]] = arith.cmpf ogt, %[[AF]], %[[SF]] : f32
// CHECK:   linalg.yield %[[C]] : i1
func.func @compare_scalar(%x: !ts.tensor<si64, [5]>, %s: !ts.float) -> !ts.tensor<i1, [5]> {
  %0 = ts.aten.gt.Scalar %x, %s : (!ts.tensor<si64, [5]>, !ts.float) -> !ts.tensor<i1, [5]>
  return %0 : !ts.tensor<i1, [5]>
}

// -----

// clamp with a None bound applies only the other; NaN-propagating maximum.
// CHECK-LABEL: func.func @clamp_min_only(
// CHECK: linalg.generic
// CHECK:   arith.maximumf
// CHECK-NOT: arith.minimumf
// CHECK:   linalg.yield
func.func @clamp_min_only(%x: !ts.tensor<f32, [5]>) -> !ts.tensor<f32, [5]> {
  %zero = ts.prim.Constant[0] : !ts.int
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.clamp %x, %zero, %none : (!ts.tensor<f32, [5]>, !ts.int, !ts.none) -> !ts.tensor<f32, [5]>
  return %0 : !ts.tensor<f32, [5]>
}

// -----

// where reads its condition as i1 and selects; to.dtype is the cast alone.
// CHECK-LABEL: func.func @where_cast(
// CHECK: linalg.generic
// CHECK: ^bb0(%[[C:.+]]: i1, %[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
// CHECK:   %[[S:.+]] = arith.select %[[C]], %[[A]], %[[B]] : f32
// CHECK: linalg.generic
// CHECK: ^bb0(%[[V:.+]]: f32, %{{.+}}: f64):
// CHECK:   %[[E:.+]] = arith.extf %[[V]] : f32 to f64
// CHECK:   linalg.yield %[[E]] : f64
func.func @where_cast(%c: !ts.tensor<i1, [3]>, %a: !ts.tensor<f32, [3]>, %b: !ts.tensor<f32, [3]>) -> !ts.tensor<f64, [3]> {
  %false = ts.prim.Constant[false] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %f64 = ts.prim.Constant[7] : !ts.int
  %0 = ts.aten.where.self %c, %a, %b : (!ts.tensor<i1, [3]>, !ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]>
  %1 = ts.aten.to.dtype %0, %f64, %false, %false, %none : (!ts.tensor<f32, [3]>, !ts.int, !ts.bool, !ts.bool, !ts.none) -> !ts.tensor<f64, [3]>
  return %1 : !ts.tensor<f64, [3]>
}

// -----

// gelu(approximate='tanh') uses tanh; the erf form uses erf.
// CHECK-LABEL: func.func @gelus(
// CHECK: linalg.generic
// CHECK:   math.tanh
// CHECK: linalg.generic
// CHECK:   math.erf
func.func @gelus(%x: !ts.tensor<f32, [3]>) -> (!ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>) {
  %tanh = ts.prim.Constant["tanh"] : !ts.str
  %nonestr = ts.prim.Constant["none"] : !ts.str
  %0 = ts.aten.gelu %x, %tanh : (!ts.tensor<f32, [3]>, !ts.str) -> !ts.tensor<f32, [3]>
  %1 = ts.aten.gelu %x, %nonestr : (!ts.tensor<f32, [3]>, !ts.str) -> !ts.tensor<f32, [3]>
  return %0, %1 : !ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>
}

// -----

// Fills, a value-semantics clone, a triangle, int scalar arithmetic and a
// returned tuple, flattened into the results.
// CHECK-LABEL: func.func @misc(
// CHECK-SAME: %[[X:.+]]: tensor<3x3xf32>, %[[N:.+]]: i64) -> (tensor<3x3xf32>, tensor<3x3xf32>, i64)
// CHECK: linalg.fill
// CHECK: linalg.generic
// CHECK:   linalg.index 0
// CHECK:   linalg.index 1
// CHECK:   arith.cmpi sge
// CHECK: %[[M:.+]] = arith.addi %[[N]], %{{.+}} : i64
// CHECK: return %{{.+}}, %{{.+}}, %[[M]] : tensor<3x3xf32>, tensor<3x3xf32>, i64
func.func @misc(%x: !ts.tensor<f32, [3, 3]>, %n: !ts.int) -> !ts.tuple<!ts.tensor<f32, [3, 3]>, !ts.tensor<f32, [3, 3]>, !ts.int> {
  %none = ts.prim.Constant : !ts.none
  %one = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.ones_like %x, %none, %none, %none, %none, %none : (!ts.tensor<f32, [3, 3]>, !ts.none, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor<f32, [3, 3]>
  %1 = ts.aten.clone %0, %none : (!ts.tensor<f32, [3, 3]>, !ts.none) -> !ts.tensor<f32, [3, 3]>
  %2 = ts.aten.triu %x, %one : (!ts.tensor<f32, [3, 3]>, !ts.int) -> !ts.tensor<f32, [3, 3]>
  %3 = ts.aten.add.int %n, %one : (!ts.int, !ts.int) -> !ts.int
  %t = ts.prim.TupleConstruct %1, %2, %3 : (!ts.tensor<f32, [3, 3]>, !ts.tensor<f32, [3, 3]>, !ts.int) -> !ts.tuple<!ts.tensor<f32, [3, 3]>, !ts.tensor<f32, [3, 3]>, !ts.int>
  return %t : !ts.tuple<!ts.tensor<f32, [3, 3]>, !ts.tensor<f32, [3, 3]>, !ts.int>
}

// -----

// uint8 is unsigned: maxima, comparisons and abs read i8 as unsigned.
// CHECK-LABEL: func.func @uint8(
// CHECK: linalg.generic
// CHECK:   arith.maxui
// CHECK: linalg.generic
// CHECK:   arith.cmpi ugt
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[A:.+]]: i8, %{{.+}}: i8):
// CHECK-NEXT:   linalg.yield %[[A]] : i8
func.func @uint8(%x: !ts.tensor<ui8, [4]>, %y: !ts.tensor<ui8, [4]>) -> (!ts.tensor<ui8, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<ui8, [4]>) {
  %0 = ts.aten.maximum %x, %y : (!ts.tensor<ui8, [4]>, !ts.tensor<ui8, [4]>) -> !ts.tensor<ui8, [4]>
  %1 = ts.aten.gt.Tensor %x, %y : (!ts.tensor<ui8, [4]>, !ts.tensor<ui8, [4]>) -> !ts.tensor<i1, [4]>
  %2 = ts.aten.abs %x : (!ts.tensor<ui8, [4]>) -> !ts.tensor<ui8, [4]>
  return %0, %1, %2 : !ts.tensor<ui8, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<ui8, [4]>
}

// -----

// Booleans add as a logical or (true + true is true) and take maxima as
// unsigned.
// CHECK-LABEL: func.func @bool_add_max(
// CHECK: linalg.generic
// CHECK:   arith.ori %{{.+}}, %{{.+}} : i1
// CHECK: linalg.generic
// CHECK:   arith.maxui %{{.+}}, %{{.+}} : i1
func.func @bool_add_max(%x: !ts.tensor<i1, [4]>, %y: !ts.tensor<i1, [4]>) -> (!ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>) {
  %one = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.add.Tensor %x, %y, %one : (!ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.int) -> !ts.tensor<i1, [4]>
  %1 = ts.aten.maximum %x, %y : (!ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>) -> !ts.tensor<i1, [4]>
  return %0, %1 : !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>
}

// -----

// Integer floor division: the truncated quotient, less one where the
// remainder is nonzero with a sign other than the divisor's; trunc division
// of floats truncates the quotient; remainder adds the divisor where the
// signs differ.
// CHECK-LABEL: func.func @rounding_division(
// CHECK: linalg.generic
// CHECK:   %[[Q:.+]] = arith.divsi
// CHECK:   %[[R:.+]] = arith.remsi
// CHECK:   %[[QM:.+]] = arith.subi %[[Q]]
// CHECK:   arith.select %{{.+}}, %[[QM]], %[[Q]] : i64
// CHECK: linalg.generic
// CHECK:   %[[D:.+]] = arith.divf
// CHECK:   math.trunc %[[D]] : f32
// CHECK: linalg.generic
// CHECK:   %[[M:.+]] = arith.remsi
// CHECK:   %[[MY:.+]] = arith.addi %[[M]]
// CHECK:   arith.select %{{.+}}, %[[MY]], %[[M]] : i64
func.func @rounding_division(%a: !ts.tensor<si64, [4]>, %b: !ts.tensor<si64, [4]>, %x: !ts.tensor<f32, [4]>) -> (!ts.tensor<si64, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<si64, [4]>) {
  %floor = ts.prim.Constant["floor"] : !ts.str
  %trunc = ts.prim.Constant["trunc"] : !ts.str
  %0 = ts.aten.div.Tensor_mode %a, %b, %floor : (!ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.str) -> !ts.tensor<si64, [4]>
  %1 = ts.aten.div.Tensor_mode %x, %x, %trunc : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.str) -> !ts.tensor<f32, [4]>
  %2 = ts.aten.remainder.Tensor %a, %b : (!ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]>
  return %0, %1, %2 : !ts.tensor<si64, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<si64, [4]>
}

// -----

// Integer powers are multiplications (math.ipowi has no lowering to LLVM):
// x ** 5 squares twice; a tensor exponent takes one step per bit.
// CHECK-LABEL: func.func @integer_power(
// CHECK: linalg.generic
// CHECK-NOT: math.ipowi
// CHECK-COUNT-3: arith.muli
// CHECK-NOT: arith.muli
// CHECK: linalg.yield
// CHECK: linalg.generic
// CHECK-NOT: math.ipowi
// CHECK: arith.shrui
// CHECK: linalg.yield
func.func @integer_power(%x: !ts.tensor<si32, [4]>, %e: !ts.tensor<si32, [4]>) -> (!ts.tensor<si32, [4]>, !ts.tensor<si32, [4]>) {
  %five = ts.prim.Constant[5] : !ts.int
  %0 = ts.aten.pow.Tensor_Scalar %x, %five : (!ts.tensor<si32, [4]>, !ts.int) -> !ts.tensor<si32, [4]>
  %1 = ts.aten.pow.Tensor_Tensor %x, %e : (!ts.tensor<si32, [4]>, !ts.tensor<si32, [4]>) -> !ts.tensor<si32, [4]>
  return %0, %1 : !ts.tensor<si32, [4]>, !ts.tensor<si32, [4]>
}
