// RUN: tsmlir-opt %s -split-input-file --ts-decompose | FileCheck %s
// RUN: tsmlir-opt %s -split-input-file --ts-optimize | FileCheck %s --check-prefix=SHAPES

// Sorted unique of the elements: each element's group counts the first
// elements of the groups ordered before it; the values are gathered at the
// first element of each group and sliced to the number of groups, an int
// known at run time. An inverse not asked for is an empty Long tensor.
// CHECK-LABEL: func.func @unique(
// CHECK:     %[[FLAT:.+]] = ts.aten.reshape %arg0
// CHECK:     %[[NONE:.+]] = ts.aten.zeros %{{.+}}, %int4
// CHECK:     ts.aten.ne.Tensor
// CHECK:     ts.aten.lt.Tensor
// CHECK:     %[[GROUP:.+]] = ts.aten.sum.dim_IntList
// CHECK:     %[[COUNT:.+]] = ts.aten.sum %{{.+}}, %int4
// CHECK:     %[[FIRST:.+]] = ts.aten.scatter_reduce.two %{{.+}}, %int0, %[[GROUP]], %{{.+}}, %str, %true
// CHECK:     %[[LAST:.+]] = ts.aten.clamp_max %[[FIRST]], %int5
// CHECK:     %[[PADDED:.+]] = ts.aten.index_select %[[FLAT]], %int0, %[[LAST]]
// CHECK:     %[[N:.+]] = ts.aten.Int.Tensor %[[COUNT]]
// CHECK:     %[[VALUES:.+]] = ts.aten.slice.Tensor %[[PADDED]], %int0, %int0, %[[N]], %int1
// CHECK:     %[[INVERSE:.+]] = ts.aten.reshape %[[GROUP]]
// CHECK:     return %[[VALUES]], %[[INVERSE]], %[[NONE]]
// SHAPES-LABEL: func.func @unique(
// SHAPES:   ts.aten.slice.Tensor {{.*}} -> !ts.tensor<f32, [?]>
// SHAPES:   ts.aten.reshape {{.*}} -> !ts.tensor<si64, [2, 3]>
// SHAPES-NOT: ts.aten._unique2
func.func @unique(%x: !ts.tensor<f32, [2, 3]>) -> (!ts.tensor, !ts.tensor, !ts.tensor) {
  %true = ts.prim.Constant[true] : !ts.bool
  %false = ts.prim.Constant[false] : !ts.bool
  %0:3 = ts.aten._unique2 %x, %true, %true, %false : (!ts.tensor<f32, [2, 3]>, !ts.bool, !ts.bool, !ts.bool) -> (!ts.tensor, !ts.tensor, !ts.tensor)
  return %0#0, %0#1, %0#2 : !ts.tensor, !ts.tensor, !ts.tensor
}

// -----

// Unique rows along dim 1 compare the columns where they first differ
// (argmax of the differences, gathered); inverse and counts always come.
// The rows are self with dims 0 and dim swapped, as PyTorch 1.13 orders
// them (transpose, not movedim).
// CHECK-LABEL: func.func @unique_dim(
// CHECK:     ts.aten.transpose.int %arg0
// CHECK:     ts.aten.argmax
// CHECK:     ts.aten.gather
// CHECK:     ts.aten.scatter_add
// CHECK:     ts.aten.index_select %arg0, %int1
// CHECK:     ts.aten.slice.Tensor %{{.+}}, %int1, %int0,
// SHAPES-LABEL: func.func @unique_dim(
// SHAPES:   ts.aten.slice.Tensor {{.*}} -> !ts.tensor<f32, [2, ?]>
// SHAPES:   ts.aten.slice.Tensor {{.*}} -> !ts.tensor<si64, [?]>
func.func @unique_dim(%x: !ts.tensor<f32, [2, 3]>) -> (!ts.tensor, !ts.tensor, !ts.tensor) {
  %int1 = ts.prim.Constant[1] : !ts.int
  %true = ts.prim.Constant[true] : !ts.bool
  %false = ts.prim.Constant[false] : !ts.bool
  %0:3 = ts.aten.unique_dim %x, %int1, %true, %false, %false : (!ts.tensor<f32, [2, 3]>, !ts.int, !ts.bool, !ts.bool, !ts.bool) -> (!ts.tensor, !ts.tensor, !ts.tensor)
  return %0#0, %0#1, %0#2 : !ts.tensor, !ts.tensor, !ts.tensor
}

// -----

// Consecutive groups start where a row differs from the one before; their
// numbers are the running count of starts.
// CHECK-LABEL: func.func @unique_consecutive(
// CHECK:     ts.aten.eq.Tensor
// CHECK:     ts.aten.all.dim
// CHECK:     ts.aten.cat
// CHECK:     ts.aten.cumsum %{{.+}}, %int0, %int4
// CHECK:     ts.aten.slice.Tensor
// CHECK-NOT: ts.aten.lt.Tensor
func.func @unique_consecutive(%x: !ts.tensor<si64, [5]>) -> (!ts.tensor, !ts.tensor, !ts.tensor) {
  %none = ts.prim.Constant : !ts.none
  %true = ts.prim.Constant[true] : !ts.bool
  %0:3 = ts.aten.unique_consecutive %x, %true, %true, %none : (!ts.tensor<si64, [5]>, !ts.bool, !ts.bool, !ts.none) -> (!ts.tensor, !ts.tensor, !ts.tensor)
  return %0#0, %0#1, %0#2 : !ts.tensor, !ts.tensor, !ts.tensor
}

// -----

// masked_select broadcasts, then gathers each selected element at its
// running count; nonzero unravels the selected positions into coordinates.
// CHECK-LABEL: func.func @masked_select_nonzero(
// CHECK:     ts.aten.expand %arg0
// CHECK:     ts.aten.expand %arg1
// CHECK:     ts.aten.cumsum
// CHECK:     ts.aten.where.ScalarOther
// CHECK:     ts.aten.scatter_reduce.two
// CHECK:     ts.aten.slice.Tensor
// CHECK:     ts.aten.floor_divide.Scalar %{{.+}}, %int4
// CHECK:     ts.aten.remainder.Scalar %{{.+}}, %int3
// CHECK:     ts.aten.floor_divide.Scalar %{{.+}}, %int1
// CHECK:     ts.aten.remainder.Scalar %{{.+}}, %int4
// CHECK:     ts.aten.stack
// CHECK:     ts.aten.slice.Tensor
// SHAPES-LABEL: func.func @masked_select_nonzero(
// SHAPES:   -> !ts.tensor<f32, [?]>
// SHAPES:   -> !ts.tensor<si64, [?, 2]>
func.func @masked_select_nonzero(%x: !ts.tensor<f32, [3, 4]>, %m: !ts.tensor<i1, [4]>) -> (!ts.tensor, !ts.tensor) {
  %0 = ts.aten.masked_select %x, %m : (!ts.tensor<f32, [3, 4]>, !ts.tensor<i1, [4]>) -> !ts.tensor
  %1 = ts.aten.nonzero %x : (!ts.tensor<f32, [3, 4]>) -> !ts.tensor
  return %0, %1 : !ts.tensor, !ts.tensor
}

// -----

// x[mask], a Bool mask over the leading dims: the selected rows.
// CHECK-LABEL: func.func @index_by_mask(
// CHECK:     ts.aten.reshape %arg0
// CHECK:     ts.aten.index_select
// CHECK:     ts.aten.slice.Tensor
// CHECK-NOT: ts.aten.index.Tensor
// SHAPES-LABEL: func.func @index_by_mask(
// SHAPES:   -> !ts.tensor<f32, [?, 4]>
func.func @index_by_mask(%x: !ts.tensor<f32, [2, 3, 4]>, %m: !ts.tensor<i1, [2, 3]>) -> !ts.tensor {
  %l = ts.prim.ListConstruct %m : (!ts.tensor<i1, [2, 3]>) -> !ts.list<!ts.optional<!ts.tensor>>
  %0 = ts.aten.index.Tensor %x, %l : (!ts.tensor<f32, [2, 3, 4]>, !ts.list<!ts.optional<!ts.tensor>>) -> !ts.tensor
  return %0 : !ts.tensor
}
