// RUN: tsmlir-opt %s -split-input-file --ts-decompose | FileCheck %s
// RUN: tsmlir-opt %s -split-input-file --ts-decompose --ts-infer-shapes | FileCheck %s --check-prefix=SHAPES

// conv1d runs as conv2d on [N, C, 1, L] with a [O, I, 1, K] weight and the
// lists widened by the inserted dim (stride and dilation 1, padding 0 there).

// CHECK-LABEL: func.func @conv1d(
// CHECK-DAG: %[[X:.*]] = ts.aten.unsqueeze %arg0, %{{.*}} :
// CHECK-DAG: %[[W:.*]] = ts.aten.unsqueeze %arg1, %{{.*}} :
// CHECK: %[[C:.*]] = ts.aten.conv2d %[[X]], %[[W]], %arg2,
// CHECK: ts.aten.squeeze.dim %[[C]],
// CHECK-NOT: ts.aten.conv1d
// SHAPES-LABEL: func.func @conv1d(
// SHAPES: ts.aten.conv2d {{.*}} -> !ts.tensor<f32, [2, 6, 1, 6]>
// SHAPES: ts.aten.squeeze.dim {{.*}} -> !ts.tensor<f32, [2, 6, 6]>
func.func @conv1d(%x: !ts.tensor<f32, [2, 4, 11]>, %w: !ts.tensor<f32, [6, 2, 3]>, %b: !ts.tensor<f32, [6]>) -> !ts.tensor {
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %s = ts.prim.ListConstruct %two : (!ts.int) -> !ts.list<!ts.int>
  %p = ts.prim.ListConstruct %one : (!ts.int) -> !ts.list<!ts.int>
  %d = ts.prim.ListConstruct %one : (!ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.conv1d %x, %w, %b, %s, %p, %d, %two : (!ts.tensor<f32, [2, 4, 11]>, !ts.tensor<f32, [6, 2, 3]>, !ts.tensor<f32, [6]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.int) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// A transposed convolution: the input spread by the stride (a new dim padded
// to the stride, merged, the trailing zeros cut), padded by
// dilation * (k - 1) - padding (output_padding more at the end), and
// convolved by the weight with in and out channels swapped and its window
// flipped. PyTorch's size: (H - 1) * s - 2p + d (k - 1) + output_padding + 1.

// CHECK-LABEL: func.func @conv_transpose2d(
// CHECK: ts.aten.unsqueeze
// CHECK: ts.aten.constant_pad_nd
// CHECK: ts.aten.reshape
// CHECK: ts.aten.narrow
// CHECK: ts.aten.constant_pad_nd
// CHECK: ts.aten.transpose.int
// CHECK: ts.aten.flip
// CHECK: ts.aten.conv2d
// CHECK-NOT: ts.aten.conv_transpose2d
// SHAPES-LABEL: func.func @conv_transpose2d(
// SHAPES: ts.aten.conv2d {{.*}} -> !ts.tensor<f32, [2, 3, 10, 12]>
func.func @conv_transpose2d(%x: !ts.tensor<f32, [2, 4, 5, 6]>, %w: !ts.tensor<f32, [4, 3, 3, 3]>) -> !ts.tensor {
  %none = ts.prim.Constant : !ts.none
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %s = ts.prim.ListConstruct %two, %two : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %p = ts.prim.ListConstruct %one, %one : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %op = ts.prim.ListConstruct %one, %one : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %d = ts.prim.ListConstruct %one, %one : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.conv_transpose2d.input %x, %w, %none, %s, %p, %op, %one, %d : (!ts.tensor<f32, [2, 4, 5, 6]>, !ts.tensor<f32, [4, 3, 3, 3]>, !ts.none, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.int, !ts.list<!ts.int>) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// Pooling over one dim as over two; clamp with tensor bounds as maximum and
// minimum (a missing bound leaves its op out); narrow at a tensor start.

// CHECK-LABEL: func.func @pool_clamp_narrow(
// CHECK: ts.aten.max_pool2d
// CHECK: ts.aten.avg_pool2d
// CHECK: ts.aten.adaptive_avg_pool2d
// CHECK: ts.aten.maximum %arg0, %arg1
// CHECK-NOT: ts.aten.minimum
// CHECK: %[[START:.*]] = ts.aten.Int.Tensor %arg2
// CHECK: ts.aten.narrow %arg0, %{{.*}}, %[[START]],
// SHAPES-LABEL: func.func @pool_clamp_narrow(
// SHAPES: ts.aten.max_pool2d {{.*}} -> !ts.tensor<f32, [2, 3, 1, 6]>
// SHAPES: ts.aten.squeeze.dim {{.*}} -> !ts.tensor<f32, [2, 3, 6]>
// SHAPES: ts.aten.adaptive_avg_pool2d {{.*}} -> !ts.tensor<f32, [2, 3, 1, 4]>
func.func @pool_clamp_narrow(%x: !ts.tensor<f32, [2, 3, 11]>, %lo: !ts.tensor<f32, [2, 3, 11]>, %start: !ts.tensor<si64, []>) -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor) {
  %none = ts.prim.Constant : !ts.none
  %false = ts.prim.Constant[false] : !ts.bool
  %true = ts.prim.Constant[true] : !ts.bool
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %three = ts.prim.Constant[3] : !ts.int
  %four = ts.prim.Constant[4] : !ts.int
  %k = ts.prim.ListConstruct %three : (!ts.int) -> !ts.list<!ts.int>
  %s = ts.prim.ListConstruct %two : (!ts.int) -> !ts.list<!ts.int>
  %p = ts.prim.ListConstruct %one : (!ts.int) -> !ts.list<!ts.int>
  %d = ts.prim.ListConstruct %one : (!ts.int) -> !ts.list<!ts.int>
  %o = ts.prim.ListConstruct %four : (!ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.max_pool1d %x, %k, %s, %p, %d, %false : (!ts.tensor<f32, [2, 3, 11]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool) -> !ts.tensor
  %1 = ts.aten.avg_pool1d %x, %k, %s, %p, %false, %true : (!ts.tensor<f32, [2, 3, 11]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool, !ts.bool) -> !ts.tensor
  %2 = ts.aten.adaptive_avg_pool1d %x, %o : (!ts.tensor<f32, [2, 3, 11]>, !ts.list<!ts.int>) -> !ts.tensor
  %3 = ts.aten.clamp.Tensor %x, %lo, %none : (!ts.tensor<f32, [2, 3, 11]>, !ts.tensor<f32, [2, 3, 11]>, !ts.none) -> !ts.tensor
  %4 = ts.aten.narrow.Tensor %x, %two, %start, %two : (!ts.tensor<f32, [2, 3, 11]>, !ts.int, !ts.tensor<si64, []>, !ts.int) -> !ts.tensor
  return %0, %1, %2, %3, %4 : !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor
}
