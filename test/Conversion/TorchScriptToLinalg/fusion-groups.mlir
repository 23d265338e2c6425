// RUN: tsmlir-opt %s --convert-ts-to-linalg -split-input-file | FileCheck %s
// RUN: tsmlir-opt %s --convert-ts-to-linalg=fuse-groups=false -split-input-file | FileCheck %s --check-prefix=UNFUSED
// RUN: tsmlir-opt %s --convert-ts-to-linalg=row-temporaries=false -split-input-file | FileCheck %s --check-prefix=RECOMPUTE

// A group of three elementwise ops is one loop nest; the group is inlined.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[X:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8xf32>)
// CHECK-NOT: fusion.group
// CHECK: %[[R:.+]] = linalg.generic
// CHECK-SAME: ins(%[[X]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>)
// CHECK:   arith.addf
// CHECK:   arith.mulf
// CHECK:   math.exp
// CHECK:   linalg.yield
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
// UNFUSED-LABEL: func.func @chain(
// UNFUSED-COUNT-3: linalg.generic
// UNFUSED-NOT: fusion.group
func.func @chain(%x: !ts.tensor<f32, [4, 8]>, %b: !ts.tensor<f32, [8]>) -> !ts.tensor<f32, [4, 8]> {
  %0 = fusion.group nnc (%x, %b) : (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [8]>) -> !ts.tensor<f32, [4, 8]> {
  ^bb0(%a0: !ts.tensor<f32, [4, 8]>, %a1: !ts.tensor<f32, [8]>):
    %one = ts.prim.Constant[1] : !ts.int
    %half = ts.prim.Constant[5.000000e-01] : !ts.float
    %s = ts.aten.add.Tensor %a0, %a1, %one : (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [8]>, !ts.int) -> !ts.tensor<f32, [4, 8]>
    %m = ts.aten.mul.Scalar %s, %half : (!ts.tensor<f32, [4, 8]>, !ts.float) -> !ts.tensor<f32, [4, 8]>
    %e = ts.aten.exp %m : (!ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 8]>
    fusion.yield %e : !ts.tensor<f32, [4, 8]>
  }
  return %0 : !ts.tensor<f32, [4, 8]>
}

// -----

// A group with two outputs, one an intermediate of the other, is one loop
// nest with two results.
// CHECK-LABEL: func.func @two_outputs(
// CHECK: %[[R:.+]]:2 = linalg.generic
// CHECK-SAME: outs(%{{.+}}, %{{.+}} : tensor<16xf32>, tensor<16xf32>)
// CHECK:   %[[T:.+]] = math.tanh
// CHECK-NOT: math.tanh
// CHECK:   %[[N:.+]] = arith.negf %[[T]]
// CHECK:   linalg.yield %[[T]], %[[N]] : f32, f32
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @two_outputs(%x: !ts.tensor<f32, [16]>) -> (!ts.tensor<f32, [16]>, !ts.tensor<f32, [16]>) {
  %0:2 = fusion.group nvfuser (%x) : (!ts.tensor<f32, [16]>) -> (!ts.tensor<f32, [16]>, !ts.tensor<f32, [16]>) {
  ^bb0(%a: !ts.tensor<f32, [16]>):
    %t = ts.aten.tanh %a : (!ts.tensor<f32, [16]>) -> !ts.tensor<f32, [16]>
    %n = ts.aten.neg %t : (!ts.tensor<f32, [16]>) -> !ts.tensor<f32, [16]>
    fusion.yield %t, %n : !ts.tensor<f32, [16]>, !ts.tensor<f32, [16]>
  }
  return %0#0, %0#1 : !ts.tensor<f32, [16]>, !ts.tensor<f32, [16]>
}

// -----

// Ops outside groups are not fused with each other: the unfused baseline.
// CHECK-LABEL: func.func @outside(
// CHECK-COUNT-2: linalg.generic
func.func @outside(%x: !ts.tensor<f32, [16]>) -> !ts.tensor<f32, [16]> {
  %t = ts.aten.tanh %x : (!ts.tensor<f32, [16]>) -> !ts.tensor<f32, [16]>
  %n = ts.aten.neg %t : (!ts.tensor<f32, [16]>) -> !ts.tensor<f32, [16]>
  return %n : !ts.tensor<f32, [16]>
}

// -----

// A group whose result is computed from row reductions (softmax) becomes one
// loop over the rows; each row's max, exponentials, sum and result are
// computed in it, once each (the exponentials into a row buffer, read by
// the sum and the result), and the row is inserted into the result
// (empty-tensor elimination later makes that the output buffer itself).
// Without row temporaries (the GPU's), exp is computed in the sum and again
// in the result, and no row of them is made.
// CHECK-LABEL: func.func @softmax_rows(
// CHECK: %[[E:.+]] = tensor.empty() : tensor<8x64xf32>
// CHECK: scf.forall (%[[I:.+]]) in (8) shared_outs(%[[OUT:.+]] = %[[E]])
// CHECK:   %[[ROW:.+]] = tensor.extract_slice %{{.+}}[%[[I]], 0] [1, 64] [1, 1]
// CHECK:   %[[MAX:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}ins(%[[ROW]] :
// CHECK:     arith.maxnumf
// CHECK:   %[[EXPS:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}}ins(%[[ROW]], %[[MAX]] :
// CHECK:     math.exp
// CHECK:   %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}ins(%[[EXPS]] :
// CHECK-NOT: math.exp
// CHECK:   %[[R:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}}ins(%[[EXPS]], %[[SUM]] :
// CHECK-NOT: math.exp
// CHECK:     arith.mulf
// CHECK:   tensor.parallel_insert_slice %[[R]] into %[[OUT]][%[[I]], 0] [1, 64] [1, 1]
// RECOMPUTE-LABEL: func.func @softmax_rows(
// RECOMPUTE: scf.forall
// RECOMPUTE:   %[[ROW:.+]] = tensor.extract_slice
// RECOMPUTE:   %[[MAX:.+]] = linalg.generic {{.*}}ins(%[[ROW]] :
// RECOMPUTE:   %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}ins(%[[ROW]], %[[MAX]] :
// RECOMPUTE:     math.exp
// RECOMPUTE:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}}ins(%[[ROW]], %[[MAX]], %[[SUM]] :
// RECOMPUTE:     math.exp
// RECOMPUTE:     arith.mulf
func.func @softmax_rows(%x: !ts.tensor<f32, [8, 64]>) -> !ts.tensor<f32, [8, 64]> {
  %0 = fusion.group nnc (%x) : (!ts.tensor<f32, [8, 64]>) -> !ts.tensor<f32, [8, 64]> {
  ^bb0(%a: !ts.tensor<f32, [8, 64]>):
    %dim = ts.prim.Constant[-1] : !ts.int
    %none = ts.prim.Constant : !ts.none
    %s = ts.aten.softmax.int %a, %dim, %none : (!ts.tensor<f32, [8, 64]>, !ts.int, !ts.none) -> !ts.tensor<f32, [8, 64]>
    fusion.yield %s : !ts.tensor<f32, [8, 64]>
  }
  return %0 : !ts.tensor<f32, [8, 64]>
}
