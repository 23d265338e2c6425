// RUN: tsmlir-opt %s -split-input-file --ts-optimize | FileCheck %s

// take reads self flattened; index_fill selects the positions its (wrapped)
// indices name along dim and writes the value there.
// CHECK-LABEL: func.func @take_index_fill(
// CHECK:     %[[FLAT:.+]] = ts.aten.reshape %arg0, {{.*}} -> !ts.tensor<f32, [12]>
// CHECK:     ts.aten.index.Tensor %[[FLAT]], {{.*}} -> !ts.tensor<f32, [2]>
// CHECK:     %[[NEGATIVE:.+]] = ts.aten.lt.Scalar %arg1, %int0
// CHECK:     %[[SHIFTED:.+]] = ts.aten.add.Scalar %arg1, %int4
// CHECK:     %[[WRAPPED:.+]] = ts.aten.where.self %[[NEGATIVE]], %[[SHIFTED]], %arg1
// CHECK:     %[[HIT:.+]] = ts.aten.eq.Tensor %{{.+}}, %{{.+}} : {{.*}} -> !ts.tensor<i1, [4, 2]>
// CHECK:     %[[ANY:.+]] = ts.aten.any.dim %[[HIT]], %int1, %false
// CHECK:     %[[ALONG:.+]] = ts.aten.reshape %[[ANY]], {{.*}} -> !ts.tensor<i1, [1, 4]>
// CHECK:     ts.aten.where.self %[[ALONG]], %{{.+}}, %arg0 : {{.*}} -> !ts.tensor<f32, [3, 4]>
func.func @take_index_fill(%x: !ts.tensor<f32, [3, 4]>, %i: !ts.tensor<si64, [2]>) -> (!ts.tensor, !ts.tensor) {
  %int1 = ts.prim.Constant[1] : !ts.int
  %f = ts.prim.Constant[2.5] : !ts.float
  %0 = ts.aten.take %x, %i : (!ts.tensor<f32, [3, 4]>, !ts.tensor<si64, [2]>) -> !ts.tensor
  %1 = ts.aten.index_fill.int_Scalar %x, %int1, %i, %f : (!ts.tensor<f32, [3, 4]>, !ts.int, !ts.tensor<si64, [2]>, !ts.float) -> !ts.tensor
  return %0, %1 : !ts.tensor, !ts.tensor
}
