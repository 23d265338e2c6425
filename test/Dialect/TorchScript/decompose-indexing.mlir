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

// -----

// index_reduce: scatter_reduce with the index spread over each slice.
// segment_reduce: each element's segment counts the cumulative lengths at or
// before it; the elements go to their segment from `initial` (or the
// identity), one extra segment taking those past the last; a mean divides
// by the length, an empty one giving `initial`.
// CHECK-LABEL: func.func @index_reduce_segment_reduce(
// CHECK:     %[[SPREAD:.+]] = ts.aten.expand %{{.+}} -> !ts.tensor<si64, [3, 2]>
// CHECK:     ts.aten.scatter_reduce.two %arg0, %int1, %[[SPREAD]], %arg1, %{{.+}}, %true
// CHECK:     %[[ENDS:.+]] = ts.aten.cumsum %arg3, %int0
// CHECK:     %[[POS:.+]] = ts.aten.arange %int3, %int4
// CHECK:     %[[ROW:.+]] = ts.aten.reshape %[[POS]]
// CHECK:     %[[END:.+]] = ts.aten.unsqueeze %[[ENDS]], %int_m2
// CHECK:     %[[AT:.+]] = ts.aten.le.Tensor %[[END]], %[[ROW]]
// CHECK:     %[[SEG:.+]] = ts.aten.sum.dim_IntList %[[AT]], %{{.+}}, %false, %int4 : {{.*}} -> !ts.tensor<si64, [3]>
// CHECK:     %[[START:.+]] = ts.aten.full %{{.+}}, %float_0, %int6, {{.*}} -> !ts.tensor<f32, [4, 4]>
// CHECK:     %[[SUMS:.+]] = ts.aten.scatter_reduce.two %[[START]], %int0, %{{.+}}, %arg0, %str, %true
// CHECK:     %[[KEPT:.+]] = ts.aten.narrow %[[SUMS]], %int0, %int0, %int3
// CHECK:     %[[MEAN:.+]] = ts.aten.div.Tensor %[[KEPT]]
// CHECK:     %[[EMPTY:.+]] = ts.aten.logical_not
// CHECK:     ts.aten.where.ScalarSelf %[[EMPTY]], %float, %[[MEAN]]
func.func @index_reduce_segment_reduce(%x: !ts.tensor<f32, [3, 4]>, %s: !ts.tensor<f32, [3, 2]>, %i: !ts.tensor<si64, [2]>, %lengths: !ts.tensor<si64, [3]>) -> (!ts.tensor, !ts.tensor) {
  %int0 = ts.prim.Constant[0] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %true = ts.prim.Constant[true] : !ts.bool
  %false = ts.prim.Constant[false] : !ts.bool
  %amax = ts.prim.Constant["amax"] : !ts.str
  %mean = ts.prim.Constant["mean"] : !ts.str
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.index_reduce %x, %int1, %i, %s, %amax, %true : (!ts.tensor<f32, [3, 4]>, !ts.int, !ts.tensor<si64, [2]>, !ts.tensor<f32, [3, 2]>, !ts.str, !ts.bool) -> !ts.tensor
  %1 = ts.aten.segment_reduce %x, %mean, %lengths, %none, %none, %int0, %false, %none : (!ts.tensor<f32, [3, 4]>, !ts.str, !ts.tensor<si64, [3]>, !ts.none, !ts.none, !ts.int, !ts.bool, !ts.none) -> !ts.tensor
  return %0, %1 : !ts.tensor, !ts.tensor
}
