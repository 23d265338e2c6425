// RUN: tsmlir-opt %s -split-input-file --ts-optimize | FileCheck %s

// diagonal reads the flattened matrix at the diagonal's flat indices
// (offset 1 of a 3x4 matrix: 1, 6, 11); cross multiplies the components
// rotated by one and by two along the dim of size 3.
// CHECK-LABEL: func.func @diagonal_cross(
// CHECK-DAG: %[[DIAGONAL:.+]] = ts.prim.Constant[dense<[1, 6, 11]> : tensor<3xsi64>]
// CHECK-DAG: %[[NEXT:.+]] = ts.prim.Constant[dense<[1, 2, 0]> : tensor<3xsi64>]
// CHECK-DAG: %[[AFTER:.+]] = ts.prim.Constant[dense<[2, 0, 1]> : tensor<3xsi64>]
// CHECK:     %[[FLAT:.+]] = ts.aten.reshape %arg0
// CHECK:     ts.aten.index_select %[[FLAT]], %int0, %[[DIAGONAL]] : {{.*}} -> !ts.tensor<f32, [3]>
// CHECK:     %[[B:.+]] = ts.aten.index_select %arg1, %int1, %[[NEXT]]
// CHECK:     %[[C:.+]] = ts.aten.index_select %arg1, %int1, %[[AFTER]]
// CHECK:     %[[BC:.+]] = ts.aten.mul.Tensor %[[B]], %[[C]]
// CHECK:     %[[CB:.+]] = ts.aten.mul.Tensor %[[C]], %[[B]]
// CHECK:     ts.aten.sub.Tensor %[[BC]], %[[CB]], %int1 : {{.*}} -> !ts.tensor<f32, [2, 3]>
func.func @diagonal_cross(%x: !ts.tensor<f32, [3, 4]>, %a: !ts.tensor<f32, [2, 3]>) -> (!ts.tensor, !ts.tensor) {
  %int1 = ts.prim.Constant[1] : !ts.int
  %int0 = ts.prim.Constant[0] : !ts.int
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.diagonal %x, %int1, %int0, %int1 : (!ts.tensor<f32, [3, 4]>, !ts.int, !ts.int, !ts.int) -> !ts.tensor
  %1 = ts.aten.cross %a, %a, %none : (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.none) -> !ts.tensor
  return %0, %1 : !ts.tensor, !ts.tensor
}
