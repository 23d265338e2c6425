// RUN: tsmlir-opt %s -split-input-file --ts-optimize | FileCheck %s

// median of all elements: the sorted elements at (n - 1) / 2, NaN when any
// is NaN. median along a dim: the index the stable sort gives, at the first
// NaN of a row with NaN. quantile: ranks q * (n - 1) (n - 1 in a row with
// NaN) interpolated by lerp between the elements below and above, the
// quantiles' dim first.
// CHECK-LABEL: func.func @median_quantile(
// CHECK:     %[[SORTED:.+]]:2 = ts.aten.sort.stable %{{.+}}, %true, %int0, %false : (!ts.tensor<f32, [12]>
// CHECK:     %[[NAN:.+]] = ts.aten.any
// CHECK:     %[[MIDDLE:.+]] = ts.aten.select.int %[[SORTED]]#0, %int0, %int5
// CHECK:     %[[MEDIAN:.+]] = ts.aten.where.ScalarSelf %[[NAN]], %float, %[[MIDDLE]]
// CHECK:     ts.aten.where.self
// CHECK:     %[[ROWS:.+]]:2 = ts.aten.sort.stable %arg0, %true, %int1, %false
// CHECK:     %[[INDEX:.+]] = ts.aten.gather %[[ROWS]]#1, %int1
// CHECK:     ts.aten.squeeze.dim %[[INDEX]], %int1 : {{.*}} -> !ts.tensor<si64, [3]>
// CHECK:     ts.aten.mul.Scalar %arg1, %int3
// CHECK:     ts.aten.masked_fill.Scalar
// CHECK:     ts.aten.lerp.Tensor {{.*}} -> !ts.tensor<f32, [3, 2]>
// CHECK:     ts.aten.squeeze.dim {{.*}} -> !ts.tensor<f32, [2, 3]>
func.func @median_quantile(%x: !ts.tensor<f32, [3, 4]>, %q: !ts.tensor<f32, [2]>) -> (!ts.tensor, !ts.tensor, !ts.tensor) {
  %int1 = ts.prim.Constant[1] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %str = ts.prim.Constant["linear"] : !ts.str
  %0 = ts.aten.median %x : (!ts.tensor<f32, [3, 4]>) -> !ts.tensor
  %1:2 = ts.aten.median.dim %x, %int1, %false : (!ts.tensor<f32, [3, 4]>, !ts.int, !ts.bool) -> (!ts.tensor, !ts.tensor)
  %2 = ts.aten.quantile %x, %q, %int1, %false, %str : (!ts.tensor<f32, [3, 4]>, !ts.tensor<f32, [2]>, !ts.int, !ts.bool, !ts.str) -> !ts.tensor
  return %0, %1#1, %2 : !ts.tensor, !ts.tensor, !ts.tensor
}

// -----

// histc: the bin trunc((x - min) * bins / (max - min)), the maximum in the
// last bin, elements outside counted in an extra bin left out. cov: the
// mean removed, x x^T over n - correction (0 when not positive).
// CHECK-LABEL: func.func @histc_cov(
// CHECK:     %[[INSIDE:.+]] = ts.aten.logical_and
// CHECK:     ts.aten.mul.Scalar %{{.+}}, %int5
// CHECK:     %[[BIN:.+]] = ts.aten.to.dtype %{{.+}}, %int4
// CHECK:     %[[LAST:.+]] = ts.aten.clamp_max %[[BIN]], %int4
// CHECK:     %[[KEPT:.+]] = ts.aten.where.ScalarOther %[[INSIDE]], %[[LAST]], %int5
// CHECK:     %[[COUNTS:.+]] = ts.aten.scatter_add %{{.+}}, %int0, %[[KEPT]]
// CHECK:     ts.aten.narrow %[[COUNTS]], %int0, %int0, %int5 : {{.*}} -> !ts.tensor<f32, [5]>
// CHECK:     ts.aten.sum.dim_IntList %arg0
// CHECK:     %[[DOF:.+]] = ts.aten.where.ScalarOther
// CHECK:     %[[PRODUCT:.+]] = ts.aten.mm
// CHECK:     ts.aten.div.Tensor %[[PRODUCT]], %[[DOF]] : {{.*}} -> !ts.tensor<f32, [3, 3]>
func.func @histc_cov(%x: !ts.tensor<f32, [3, 4]>) -> (!ts.tensor, !ts.tensor) {
  %int5 = ts.prim.Constant[5] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %f0 = ts.prim.Constant[0.0] : !ts.float
  %f1 = ts.prim.Constant[1.0] : !ts.float
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.histc %x, %int5, %f0, %f1 : (!ts.tensor<f32, [3, 4]>, !ts.int, !ts.float, !ts.float) -> !ts.tensor
  %1 = ts.aten.cov %x, %int1, %none, %none : (!ts.tensor<f32, [3, 4]>, !ts.int, !ts.none, !ts.none) -> !ts.tensor
  return %0, %1 : !ts.tensor, !ts.tensor
}

// -----

// histogram: the bins between linspace edges of [min, max] (or range), an
// element in the bin of the last edge at or below it (the last bin keeps
// its right edge), elements outside or NaN counted in an extra bin left
// out; with density, divided by the sum and the bin widths.
// CHECK-LABEL: func.func @histogram(
// CHECK:     %[[LO:.+]] = ts.aten.amin
// CHECK:     %[[HI:.+]] = ts.aten.amax
// CHECK:     %[[SAME:.+]] = ts.aten.eq.Tensor %[[LO]], %[[HI]]
// CHECK:     %[[STEP:.+]] = ts.aten.div.Scalar %{{.+}}, %int5
// CHECK:     %[[UP:.+]] = ts.aten.add.Tensor %{{.+}}, %{{.+}}, %int1 : {{.*}} -> !ts.tensor<f32, [6]>
// CHECK:     %[[DOWN:.+]] = ts.aten.sub.Tensor %{{.+}}, %{{.+}}, %int1 : {{.*}} -> !ts.tensor<f32, [6]>
// CHECK:     %[[EARLY:.+]] = ts.aten.lt.Scalar %{{.+}}, %int3
// CHECK:     %[[EDGES:.+]] = ts.aten.where.self %[[EARLY]], %[[UP]], %[[DOWN]]
// CHECK:     %[[INSIDE:.+]] = ts.aten.logical_and
// CHECK:     %[[BIN:.+]] = ts.aten.clamp_max %{{.+}}, %int4
// CHECK:     %[[KEPT:.+]] = ts.aten.where.ScalarOther %[[INSIDE]], %[[BIN]], %int5
// CHECK:     %[[ZEROS:.+]] = ts.aten.zeros %{{.+}}, %int6, {{.*}} -> !ts.tensor<f32, [6]>
// CHECK:     %[[COUNTS:.+]] = ts.aten.scatter_add %[[ZEROS]], %int0, %[[KEPT]]
// CHECK:     %[[HIST:.+]] = ts.aten.narrow %[[COUNTS]], %int0, %int0, %int5
// CHECK:     %[[GIVEN:.+]] = ts.aten.narrow %{{.+}}, %int0, %int0, %int3 : {{.*}} -> !ts.tensor<f32, [3]>
// CHECK:     %[[RIGHT:.+]] = ts.aten.narrow %arg1, %int0, %int1, %int3
// CHECK:     %[[LEFT:.+]] = ts.aten.narrow %arg1, %int0, %int0, %int3
// CHECK:     %[[WIDTHS:.+]] = ts.aten.sub.Tensor %[[RIGHT]], %[[LEFT]]
// CHECK:     %[[TOTAL:.+]] = ts.aten.sum %[[GIVEN]]
// CHECK:     %[[SHARE:.+]] = ts.aten.div.Tensor %[[GIVEN]], %[[TOTAL]]
// CHECK:     %[[DENSITY:.+]] = ts.aten.div.Tensor %[[SHARE]], %[[WIDTHS]]
// CHECK:     return %[[HIST]], %[[EDGES]], %[[DENSITY]]
func.func @histogram(%x: !ts.tensor<f32, [3, 4]>, %edges: !ts.tensor<f32, [4]>) -> (!ts.tensor, !ts.tensor, !ts.tensor) {
  %int5 = ts.prim.Constant[5] : !ts.int
  %true = ts.prim.Constant[true] : !ts.bool
  %false = ts.prim.Constant[false] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %0:2 = ts.aten.histogram.bin_ct %x, %int5, %none, %none, %false : (!ts.tensor<f32, [3, 4]>, !ts.int, !ts.none, !ts.none, !ts.bool) -> (!ts.tensor, !ts.tensor)
  %1:2 = ts.aten.histogram.bins_tensor %x, %edges, %none, %true : (!ts.tensor<f32, [3, 4]>, !ts.tensor<f32, [4]>, !ts.none, !ts.bool) -> (!ts.tensor, !ts.tensor)
  return %0#0, %0#1, %1#0 : !ts.tensor, !ts.tensor, !ts.tensor
}

// -----

// mode: after a stable sort, each element's run so far (its position less
// the running maximum of the run starts); the first longest run's last
// element and its index.
// CHECK-LABEL: func.func @mode(
// CHECK:     %[[SORTED:.+]]:2 = ts.aten.sort.stable %arg0, %true, %int1, %false
// CHECK:     %[[NEXT:.+]] = ts.aten.narrow %[[SORTED]]#0, %int1, %int1, %int4
// CHECK:     %[[PREV:.+]] = ts.aten.narrow %[[SORTED]]#0, %int1, %int0, %int4
// CHECK:     %[[SAME:.+]] = ts.aten.eq.Tensor %[[NEXT]], %[[PREV]]
// CHECK:     %[[STARTS:.+]] = ts.aten.cat
// CHECK:     %[[COUNT:.+]] = ts.aten.cumsum %[[STARTS]], %int1, %int4
// CHECK:     %[[GROUP:.+]] = ts.aten.sub.Scalar %[[COUNT]], %int1, %int1
// CHECK:     %[[FIRSTS:.+]] = ts.aten.scatter_reduce.two %[[POS:.+]], %int1, %[[GROUP]], %[[POS]], %str, %false
// CHECK:     %[[START:.+]] = ts.aten.gather %[[FIRSTS]], %int1, %[[GROUP]]
// CHECK:     %[[LENGTH:.+]] = ts.aten.sub.Tensor %{{.+}}, %[[START]]
// CHECK:     %[[AT:.+]] = ts.aten.argmax %[[LENGTH]], %int1, %true
// CHECK:     %[[VALUE:.+]] = ts.aten.gather %[[SORTED]]#0, %int1, %[[AT]]
// CHECK:     %[[INDEX:.+]] = ts.aten.gather %[[SORTED]]#1, %int1, %[[AT]]
// CHECK:     ts.aten.squeeze.dim %[[VALUE]], %int1 : {{.*}} -> !ts.tensor<f32, [3]>
// CHECK:     ts.aten.squeeze.dim %[[INDEX]], %int1 : {{.*}} -> !ts.tensor<si64, [3]>
func.func @mode(%x: !ts.tensor<f32, [3, 5]>) -> (!ts.tensor, !ts.tensor) {
  %int1 = ts.prim.Constant[1] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %0:2 = ts.aten.mode %x, %int1, %false : (!ts.tensor<f32, [3, 5]>, !ts.int, !ts.bool) -> (!ts.tensor, !ts.tensor)
  return %0#0, %0#1 : !ts.tensor, !ts.tensor
}
