// RUN: tsmlir-opt %s -split-input-file --ts-infer-shapes | FileCheck %s

// Broadcasting and type promotion: tensors by priority (dimensioned, then 0-d,
// then scalars); a float scalar counts as the default float (f32); a Scalar
// of unknown kind leaves an int result unknown.

// CHECK-LABEL: func.func @broadcast_promote(
// CHECK-SAME: -> !ts.tensor<f32, [4, 5, 3]>
// CHECK: ts.aten.add.Tensor {{.*}} -> !ts.tensor<f32, [4, 5, 3]>
func.func @broadcast_promote(%x: !ts.tensor<f32, [4, 1, 3]>, %y: !ts.tensor<si64, [5, 1]>) -> !ts.tensor {
  %one = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.add.Tensor %x, %y, %one : (!ts.tensor<f32, [4, 1, 3]>, !ts.tensor<si64, [5, 1]>, !ts.int) -> !ts.tensor
  return %0 : !ts.tensor
}
// CHECK-LABEL: func.func @scalars(
// CHECK: ts.aten.add.Scalar {{.*}} -> !ts.tensor<f32, [3]>
// CHECK: ts.aten.add.Scalar {{.*}} -> !ts.tensor<si32, [3]>
// CHECK: ts.aten.mul.Scalar {{.*}} -> !ts.tensor<si64, [3]>
// CHECK: ts.aten.mul.Scalar {{.*}} -> !ts.tensor<f16, [3]>
// CHECK: ts.aten.mul.Scalar {{.*}} -> !ts.tensor<f16, [3]>
// CHECK: ts.aten.mul.Scalar {{.*}} -> !ts.tensor<[3]>
func.func @scalars(%i: !ts.tensor<si64, [3]>, %i32: !ts.tensor<si32, [3]>, %b: !ts.tensor<i1, [3]>, %h: !ts.tensor<f16, [3]>, %n: !ts.number) {
  %one = ts.prim.Constant[1] : !ts.int
  %f = ts.prim.Constant[2.5] : !ts.float
  %0 = ts.aten.add.Scalar %i, %f, %one : (!ts.tensor<si64, [3]>, !ts.float, !ts.int) -> !ts.tensor
  %1 = ts.aten.add.Scalar %i32, %one, %one : (!ts.tensor<si32, [3]>, !ts.int, !ts.int) -> !ts.tensor
  %2 = ts.aten.mul.Scalar %b, %one : (!ts.tensor<i1, [3]>, !ts.int) -> !ts.tensor
  %3 = ts.aten.mul.Scalar %h, %f : (!ts.tensor<f16, [3]>, !ts.float) -> !ts.tensor
  %4 = ts.aten.mul.Scalar %h, %n : (!ts.tensor<f16, [3]>, !ts.number) -> !ts.tensor
  %5 = ts.aten.mul.Scalar %i, %n : (!ts.tensor<si64, [3]>, !ts.number) -> !ts.tensor
  return
}
// square keeps its operand's dtype, but squares booleans into int64 (PyTorch
// computes it as pow(x, 2)).
// CHECK-LABEL: func.func @square(
// CHECK: ts.aten.square {{.*}} -> !ts.tensor<si64, [3]>
// CHECK: ts.aten.square {{.*}} -> !ts.tensor<si32, [3]>
func.func @square(%b: !ts.tensor<i1, [3]>, %i32: !ts.tensor<si32, [3]>) {
  %0 = ts.aten.square %b : (!ts.tensor<i1, [3]>) -> !ts.tensor
  %1 = ts.aten.square %i32 : (!ts.tensor<si32, [3]>) -> !ts.tensor
  return
}
// CHECK-LABEL: func.func @zero_dim(
// CHECK: ts.aten.mul.Tensor {{.*}} -> !ts.tensor<f64, [3]>
// CHECK: ts.aten.mul.Tensor {{.*}} -> !ts.tensor<f32, [3]>
// CHECK: ts.aten.mul.Tensor {{.*}} -> !ts.tensor<f32>
// CHECK: ts.aten.mul.Tensor {{.*}} -> !ts.tensor{{$}}
// CHECK: ts.aten.mul.Tensor {{.*}} -> !ts.tensor<f32, [3]>
// CHECK: ts.aten.mul.Tensor {{.*}} -> !ts.tensor<si16, [3]>
func.func @zero_dim(%i: !ts.tensor<si64, [3]>, %f: !ts.tensor<f32, [3]>, %d0: !ts.tensor<f64, []>, %u: !ts.tensor<f32>, %h: !ts.tensor<f16, [3]>, %bf: !ts.tensor<bf16, [3]>, %u8: !ts.tensor<ui8, [3]>, %s8: !ts.tensor<si8, [3]>) {
  %0 = ts.aten.mul.Tensor %i, %d0 : (!ts.tensor<si64, [3]>, !ts.tensor<f64, []>) -> !ts.tensor
  %1 = ts.aten.mul.Tensor %f, %d0 : (!ts.tensor<f32, [3]>, !ts.tensor<f64, []>) -> !ts.tensor
  %2 = ts.aten.mul.Tensor %u, %f : (!ts.tensor<f32>, !ts.tensor<f32, [3]>) -> !ts.tensor
  %3 = ts.aten.mul.Tensor %u, %d0 : (!ts.tensor<f32>, !ts.tensor<f64, []>) -> !ts.tensor
  %4 = ts.aten.mul.Tensor %h, %bf : (!ts.tensor<f16, [3]>, !ts.tensor<bf16, [3]>) -> !ts.tensor
  %5 = ts.aten.mul.Tensor %u8, %s8 : (!ts.tensor<ui8, [3]>, !ts.tensor<si8, [3]>) -> !ts.tensor
  return
}

// -----

// Comparisons give Bool; true division of ints gives the default float, a
// rounding mode keeps ints; pow promotes with its scalar.

// CHECK-LABEL: func.func @compare_divide(
// CHECK: ts.aten.lt.Tensor {{.*}} -> !ts.tensor<i1, [2, 3]>
// CHECK: ts.aten.eq.Scalar {{.*}} -> !ts.tensor<i1, [2, 3]>
// CHECK: ts.aten.logical_not {{.*}} -> !ts.tensor<i1, [2, 3]>
// CHECK: ts.aten.div.Tensor {{.*}} -> !ts.tensor<f32, [2, 3]>
// CHECK: ts.aten.div.Tensor_mode {{.*}} -> !ts.tensor<si64, [2, 3]>
// CHECK: ts.aten.div.Scalar_mode {{.*}} -> !ts.tensor<f32, [2, 3]>
// CHECK: ts.aten.floor_divide {{.*}} -> !ts.tensor<f32, [2, 3]>
// CHECK: ts.aten.pow.Tensor_Scalar {{.*}} -> !ts.tensor<f32, [2, 3]>
// CHECK: ts.aten.pow.Tensor_Scalar {{.*}} -> !ts.tensor<si64, [2, 3]>
// CHECK: ts.aten.pow.Scalar {{.*}} -> !ts.tensor<f32, [2, 3]>
// CHECK: ts.aten.__and__.Tensor {{.*}} -> !ts.tensor<si64, [2, 3]>
func.func @compare_divide(%i: !ts.tensor<si64, [2, 3]>, %f: !ts.tensor<f32, [3]>, %b: !ts.tensor<i1, [2, 3]>) {
  %f2 = ts.prim.Constant[2.0] : !ts.float
  %two = ts.prim.Constant[2] : !ts.int
  %none = ts.prim.Constant : !ts.none
  %trunc = ts.prim.Constant["trunc"] : !ts.str
  %0 = ts.aten.lt.Tensor %i, %f : (!ts.tensor<si64, [2, 3]>, !ts.tensor<f32, [3]>) -> !ts.tensor
  %1 = ts.aten.eq.Scalar %i, %two : (!ts.tensor<si64, [2, 3]>, !ts.int) -> !ts.tensor
  %2 = ts.aten.logical_not %i : (!ts.tensor<si64, [2, 3]>) -> !ts.tensor
  %3 = ts.aten.div.Tensor %i, %i : (!ts.tensor<si64, [2, 3]>, !ts.tensor<si64, [2, 3]>) -> !ts.tensor
  %4 = ts.aten.div.Tensor_mode %i, %i, %trunc : (!ts.tensor<si64, [2, 3]>, !ts.tensor<si64, [2, 3]>, !ts.str) -> !ts.tensor
  %5 = ts.aten.div.Scalar_mode %i, %two, %none : (!ts.tensor<si64, [2, 3]>, !ts.int, !ts.none) -> !ts.tensor
  %6 = ts.aten.floor_divide %i, %f : (!ts.tensor<si64, [2, 3]>, !ts.tensor<f32, [3]>) -> !ts.tensor
  %7 = ts.aten.pow.Tensor_Scalar %i, %f2 : (!ts.tensor<si64, [2, 3]>, !ts.float) -> !ts.tensor
  %8 = ts.aten.pow.Tensor_Scalar %i, %two : (!ts.tensor<si64, [2, 3]>, !ts.int) -> !ts.tensor
  %9 = ts.aten.pow.Scalar %f2, %i : (!ts.float, !ts.tensor<si64, [2, 3]>) -> !ts.tensor
  %10 = ts.aten.__and__.Tensor %b, %i : (!ts.tensor<i1, [2, 3]>, !ts.tensor<si64, [2, 3]>) -> !ts.tensor
  return
}

// -----

// where promotes its two values and broadcasts all three; masked_fill keeps
// self's dtype; clamp promotes with its bounds.

// CHECK-LABEL: func.func @ternary(
// CHECK: ts.aten.where.self {{.*}} -> !ts.tensor<f32, [4, 3]>
// CHECK: ts.aten.where.ScalarOther {{.*}} -> !ts.tensor<f32, [4, 3]>
// CHECK: ts.aten.where.Scalar {{.*}} -> !ts.tensor<si64, [4, 1]>
// CHECK: ts.aten.masked_fill.Scalar {{.*}} -> !ts.tensor<si64, [2, 1, 3]>
// CHECK: ts.aten.lerp.Scalar {{.*}} -> !ts.tensor<f32, [4, 3]>
// CHECK: ts.aten.clamp {{.*}} -> !ts.tensor<f32, [3]>
// CHECK: ts.aten.clamp {{.*}} -> !ts.tensor<si64, [3]>
// CHECK: ts.aten.clamp.Tensor {{.*}} -> !ts.tensor<f32, [4, 3]>
func.func @ternary(%c: !ts.tensor<i1, [4, 1]>, %i: !ts.tensor<si64, [3]>, %f: !ts.tensor<f32, [4, 3]>, %m: !ts.tensor<i1, [2, 1, 3]>) {
  %f2 = ts.prim.Constant[0.5] : !ts.float
  %one = ts.prim.Constant[1] : !ts.int
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.where.self %c, %i, %f : (!ts.tensor<i1, [4, 1]>, !ts.tensor<si64, [3]>, !ts.tensor<f32, [4, 3]>) -> !ts.tensor
  %1 = ts.aten.where.ScalarOther %c, %i, %f2 : (!ts.tensor<i1, [4, 1]>, !ts.tensor<si64, [3]>, !ts.float) -> !ts.tensor
  %2 = ts.aten.where.Scalar %c, %one, %one : (!ts.tensor<i1, [4, 1]>, !ts.int, !ts.int) -> !ts.tensor
  %3 = ts.aten.masked_fill.Scalar %i, %m, %f2 : (!ts.tensor<si64, [3]>, !ts.tensor<i1, [2, 1, 3]>, !ts.float) -> !ts.tensor
  %4 = ts.aten.lerp.Scalar %f, %f, %f2 : (!ts.tensor<f32, [4, 3]>, !ts.tensor<f32, [4, 3]>, !ts.float) -> !ts.tensor
  %5 = ts.aten.clamp %i, %f2, %none : (!ts.tensor<si64, [3]>, !ts.float, !ts.none) -> !ts.tensor
  %6 = ts.aten.clamp %i, %one, %none : (!ts.tensor<si64, [3]>, !ts.int, !ts.none) -> !ts.tensor
  %7 = ts.aten.clamp.Tensor %f, %i, %none : (!ts.tensor<f32, [4, 3]>, !ts.tensor<si64, [3]>, !ts.none) -> !ts.tensor
  return
}

// -----

// Unary ops: transcendental ones turn ints into floats; the device flows when
// all operands agree.

// CHECK-LABEL: func.func @unary(
// CHECK: ts.aten.sqrt {{.*}} -> !ts.tensor<f32, [2, ?]>
// CHECK: ts.aten.neg {{.*}} -> !ts.tensor<si64, [2, ?]>
// CHECK: ts.aten.sigmoid {{.*}} -> !ts.tensor<f32, [2]>
// CHECK: ts.aten.relu {{.*}} -> !ts.tensor{{$}}
// CHECK: ts.aten.sin {{.*}} -> !ts.tensor{{$}}
func.func @unary(%i: !ts.tensor<si64, [2, ?]>, %b: !ts.tensor<i1, [2]>, %x: !ts.tensor) {
  %0 = ts.aten.sqrt %i : (!ts.tensor<si64, [2, ?]>) -> !ts.tensor
  %1 = ts.aten.neg %i : (!ts.tensor<si64, [2, ?]>) -> !ts.tensor
  %2 = ts.aten.sigmoid %b : (!ts.tensor<i1, [2]>) -> !ts.tensor
  %3 = ts.aten.relu %x : (!ts.tensor) -> !ts.tensor
  %4 = ts.aten.sin %x : (!ts.tensor) -> !ts.tensor
  return
}
// CHECK-LABEL: func.func @device(
// CHECK: ts.aten.add.Tensor {{.*}} -> !ts.tensor<f32, [2], device = "cuda:0">
// CHECK: ts.aten.add.Tensor {{.*}} -> !ts.tensor<f32, [2]>
func.func @device(%a: !ts.tensor<f32, [2], device = "cuda:0">, %b: !ts.tensor<f32, [2], device = "cuda:0">, %c: !ts.tensor<f32, [2]>) {
  %one = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.add.Tensor %a, %b, %one : (!ts.tensor<f32, [2], device = "cuda:0">, !ts.tensor<f32, [2], device = "cuda:0">, !ts.int) -> !ts.tensor
  %1 = ts.aten.add.Tensor %a, %c, %one : (!ts.tensor<f32, [2], device = "cuda:0">, !ts.tensor<f32, [2]>, !ts.int) -> !ts.tensor
  return
}

// -----

// Casts and copies: to, type_as, contiguous (row-major strides), clone; ops
// that return self keep its strides. requires_grad never flows.

// CHECK-LABEL: func.func @casts(
// CHECK: ts.aten.to.dtype {{.*}} -> !ts.tensor<f64, [2, 3], device = "cpu">
// CHECK: ts.aten.to.device {{.*}} -> !ts.tensor<f64, [2, 3], device = "cuda:1">
// CHECK: ts.aten.type_as {{.*}} -> !ts.tensor<si64, [2, 3], device = "cuda:0">
// CHECK: ts.aten.to.other {{.*}} -> !ts.tensor<f32, [4], device = "cpu">
// CHECK: ts.aten.contiguous {{.*}} -> !ts.tensor<f32, [2, 3], strides = [3, 1], device = "cpu">
// CHECK: ts.aten.clone {{.*}} -> !ts.tensor<f32, [2, 3], device = "cpu">
// CHECK: ts.aten.detach {{.*}} -> !ts.tensor<f32, [2, 3], strides = [1, 2], device = "cpu">
// CHECK: ts.aten.relu_ {{.*}} -> !ts.tensor<f32, [2, 3], strides = [1, 2], device = "cpu">
// CHECK: ts.aten.add_.Scalar {{.*}} -> !ts.tensor<si64, [4], device = "cuda:0">
// CHECK: ts.aten.to.prim_dtype {{.*}} -> !ts.tensor<si64, [2, 3], device = "cpu">
func.func @casts(%x: !ts.tensor<f32, [2, 3], strides = [1, 2], device = "cpu", requires_grad = true>, %i: !ts.tensor<si64, [4], device = "cuda:0">) {
  %none = ts.prim.Constant : !ts.none
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %f64 = ts.prim.Constant[7] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %cuda = ts.prim.Constant["cuda:1"] : !ts.device
  %0 = ts.aten.to.dtype %x, %f64, %false, %false, %none : (!ts.tensor<f32, [2, 3], strides = [1, 2], device = "cpu", requires_grad = true>, !ts.int, !ts.bool, !ts.bool, !ts.none) -> !ts.tensor
  %1 = ts.aten.to.device %x, %cuda, %f64, %false, %false, %none : (!ts.tensor<f32, [2, 3], strides = [1, 2], device = "cpu", requires_grad = true>, !ts.device, !ts.int, !ts.bool, !ts.bool, !ts.none) -> !ts.tensor
  %2 = ts.aten.type_as %x, %i : (!ts.tensor<f32, [2, 3], strides = [1, 2], device = "cpu", requires_grad = true>, !ts.tensor<si64, [4], device = "cuda:0">) -> !ts.tensor
  %3 = ts.aten.to.other %i, %x, %false, %false, %none : (!ts.tensor<si64, [4], device = "cuda:0">, !ts.tensor<f32, [2, 3], strides = [1, 2], device = "cpu", requires_grad = true>, !ts.bool, !ts.bool, !ts.none) -> !ts.tensor
  %4 = ts.aten.contiguous %x, %zero : (!ts.tensor<f32, [2, 3], strides = [1, 2], device = "cpu", requires_grad = true>, !ts.int) -> !ts.tensor
  %5 = ts.aten.clone %x, %none : (!ts.tensor<f32, [2, 3], strides = [1, 2], device = "cpu", requires_grad = true>, !ts.none) -> !ts.tensor
  %6 = ts.aten.detach %x : (!ts.tensor<f32, [2, 3], strides = [1, 2], device = "cpu", requires_grad = true>) -> !ts.tensor
  %7 = ts.aten.relu_ %x : (!ts.tensor<f32, [2, 3], strides = [1, 2], device = "cpu", requires_grad = true>) -> !ts.tensor
  %8 = ts.aten.add_.Scalar %i, %one, %one : (!ts.tensor<si64, [4], device = "cuda:0">, !ts.int, !ts.int) -> !ts.tensor
  %9 = ts.prim.dtype %i : (!ts.tensor<si64, [4], device = "cuda:0">) -> !ts.int
  %10 = ts.aten.to.prim_dtype %x, %9, %false, %false : (!ts.tensor<f32, [2, 3], strides = [1, 2], device = "cpu", requires_grad = true>, !ts.int, !ts.bool, !ts.bool) -> !ts.tensor
  return
}

// -----

// Reductions: dim as int or list, negative, None or [] for all; keepdim;
// dtype; Long for sums of ints; indices are Long.

// CHECK-LABEL: func.func @reductions(
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.int>
// CHECK: ts.aten.sum {{.*}} -> !ts.tensor<si64, []>
// CHECK: ts.aten.sum.dim_IntList {{.*}} -> !ts.tensor<f32, [2, 3, 1]>
// CHECK: ts.aten.sum.dim_IntList {{.*}} -> !ts.tensor<f64, [3]>
// CHECK: ts.aten.mean.dim {{.*}} -> !ts.tensor<f32, [1, 1, 1]>
// CHECK: ts.aten.amax {{.*}} -> !ts.tensor<f32, []>
// CHECK: ts.aten.max.dim {{.*}} -> (!ts.tensor<f32, [2, 4]>, !ts.tensor<si64, [2, 4]>)
// CHECK: ts.aten.var.dim {{.*}} -> !ts.tensor<f32, [2, 3]>
// CHECK: ts.aten.std.correction {{.*}} -> !ts.tensor<f32, [1, 3, 1]>
// CHECK: ts.aten.argmax {{.*}} -> !ts.tensor<si64, [1, 1, 1]>
// CHECK: ts.aten.argmin {{.*}} -> !ts.tensor<si64, [2, 3]>
// CHECK: ts.aten.all {{.*}} -> !ts.tensor<ui8, []>
// CHECK: ts.aten.any {{.*}} -> !ts.tensor<i1, []>
// CHECK: ts.aten.prod {{.*}} -> !ts.tensor<si64, []>
// CHECK: ts.aten.logsumexp {{.*}} -> !ts.tensor<f32, [2]>
// CHECK: ts.aten.cumsum {{.*}} -> !ts.tensor<si64, [2, 3]>
// CHECK: ts.aten.sum.dim_IntList {{.*}} -> !ts.tensor<f32>
// CHECK: ts.aten.max {{.*}} -> !ts.tensor<f32, []>
func.func @reductions(%x: !ts.tensor<f32, [2, 3, 4]>, %i: !ts.tensor<si32, [2, 3]>, %u: !ts.tensor<ui8, [5]>, %d: !ts.int) {
  %none = ts.prim.Constant : !ts.none
  %true = ts.prim.Constant[true] : !ts.bool
  %false = ts.prim.Constant[false] : !ts.bool
  %m1 = ts.prim.Constant[-1] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %f64 = ts.prim.Constant[7] : !ts.int
  %dims = ts.prim.ListConstruct %m1 : (!ts.int) -> !ts.list<!ts.int>
  %dims02 = ts.prim.Constant[[0, 2]] : !ts.list<!ts.int>
  %empty = ts.prim.Constant[[]] : !ts.list<!ts.int>
  %0 = ts.aten.sum %i, %none : (!ts.tensor<si32, [2, 3]>, !ts.none) -> !ts.tensor
  %1 = ts.aten.sum.dim_IntList %x, %dims, %true, %none : (!ts.tensor<f32, [2, 3, 4]>, !ts.list<!ts.int>, !ts.bool, !ts.none) -> !ts.tensor
  %2 = ts.aten.sum.dim_IntList %x, %dims02, %false, %f64 : (!ts.tensor<f32, [2, 3, 4]>, !ts.list<!ts.int>, !ts.bool, !ts.int) -> !ts.tensor
  %3 = ts.aten.mean.dim %x, %none, %true, %none : (!ts.tensor<f32, [2, 3, 4]>, !ts.none, !ts.bool, !ts.none) -> !ts.tensor
  %4 = ts.aten.amax %x, %empty, %false : (!ts.tensor<f32, [2, 3, 4]>, !ts.list<!ts.int>, !ts.bool) -> !ts.tensor
  %5:2 = ts.aten.max.dim %x, %one, %false : (!ts.tensor<f32, [2, 3, 4]>, !ts.int, !ts.bool) -> (!ts.tensor, !ts.tensor)
  %6 = ts.aten.var.dim %x, %dims, %true, %false : (!ts.tensor<f32, [2, 3, 4]>, !ts.list<!ts.int>, !ts.bool, !ts.bool) -> !ts.tensor
  %7 = ts.aten.std.correction %x, %dims02, %none, %true : (!ts.tensor<f32, [2, 3, 4]>, !ts.list<!ts.int>, !ts.none, !ts.bool) -> !ts.tensor
  %8 = ts.aten.argmax %x, %none, %true : (!ts.tensor<f32, [2, 3, 4]>, !ts.none, !ts.bool) -> !ts.tensor
  %9 = ts.aten.argmin %x, %m1, %false : (!ts.tensor<f32, [2, 3, 4]>, !ts.int, !ts.bool) -> !ts.tensor
  %10 = ts.aten.all %u : (!ts.tensor<ui8, [5]>) -> !ts.tensor
  %11 = ts.aten.any %x : (!ts.tensor<f32, [2, 3, 4]>) -> !ts.tensor
  %12 = ts.aten.prod %i, %none : (!ts.tensor<si32, [2, 3]>, !ts.none) -> !ts.tensor
  %13 = ts.aten.logsumexp %i, %dims, %false : (!ts.tensor<si32, [2, 3]>, !ts.list<!ts.int>, !ts.bool) -> !ts.tensor
  %14 = ts.aten.cumsum %i, %one, %none : (!ts.tensor<si32, [2, 3]>, !ts.int, !ts.none) -> !ts.tensor
  %15 = ts.aten.sum.dim_IntList %x, %d, %true, %none : (!ts.tensor<f32, [2, 3, 4]>, !ts.int, !ts.bool, !ts.none) -> !ts.tensor
  %16 = ts.aten.max %x : (!ts.tensor<f32, [2, 3, 4]>) -> !ts.tensor
  return
}

// -----

// Softmax and normalisations.

// CHECK-LABEL: func.func @softmax_norm(
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.int>
// CHECK: ts.aten.softmax.int {{.*}} -> !ts.tensor<f64, [2, 3, 4]>
// CHECK: ts.aten.log_softmax.int {{.*}} -> !ts.tensor<f32, [2, 3, 4]>
// CHECK: ts.aten._softmax {{.*}} -> !ts.tensor<f32, [8]>
// CHECK: ts.aten.layer_norm {{.*}} -> !ts.tensor<f32, [2, 3, 4]>
// CHECK: ts.aten.native_layer_norm {{.*}} -> (!ts.tensor<f32, [2, 3, 4]>, !ts.tensor<f32, [2, 3, 1]>, !ts.tensor<f32, [2, 3, 1]>)
func.func @softmax_norm(%x: !ts.tensor<f32, [2, 3, 4]>, %h: !ts.tensor<f16, [8]>, %w: !ts.tensor<f32, [4]>) {
  %none = ts.prim.Constant : !ts.none
  %true = ts.prim.Constant[true] : !ts.bool
  %m1 = ts.prim.Constant[-1] : !ts.int
  %four = ts.prim.Constant[4] : !ts.int
  %f64 = ts.prim.Constant[7] : !ts.int
  %eps = ts.prim.Constant[1.0e-5] : !ts.float
  %ns = ts.prim.ListConstruct %four : (!ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.softmax.int %x, %m1, %f64 : (!ts.tensor<f32, [2, 3, 4]>, !ts.int, !ts.int) -> !ts.tensor
  %1 = ts.aten.log_softmax.int %x, %m1, %none : (!ts.tensor<f32, [2, 3, 4]>, !ts.int, !ts.none) -> !ts.tensor
  %2 = ts.aten._softmax %h, %m1, %true : (!ts.tensor<f16, [8]>, !ts.int, !ts.bool) -> !ts.tensor
  %3 = ts.aten.layer_norm %x, %ns, %w, %w, %eps, %true : (!ts.tensor<f32, [2, 3, 4]>, !ts.list<!ts.int>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.float, !ts.bool) -> !ts.tensor
  %4:3 = ts.aten.native_layer_norm %x, %ns, %w, %w, %eps : (!ts.tensor<f32, [2, 3, 4]>, !ts.list<!ts.int>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.float) -> (!ts.tensor, !ts.tensor, !ts.tensor)
  return
}

// -----

// Matrix products: 1-d operands, broadcast batch dims, linear, addmm, bmm.

// CHECK-LABEL: func.func @linalg(
// CHECK: ts.aten.matmul {{.*}} -> !ts.tensor<f32, []>
// CHECK: ts.aten.matmul {{.*}} -> !ts.tensor<f32, [3]>
// CHECK: ts.aten.matmul {{.*}} -> !ts.tensor<f32, [5]>
// CHECK: ts.aten.matmul {{.*}} -> !ts.tensor<f32, [2, 5, 3, 6]>
// CHECK: ts.aten.matmul {{.*}} -> !ts.tensor<f32, [5, 6]>
// CHECK: ts.aten.mm {{.*}} -> !ts.tensor<f32, [3, 5]>
// CHECK: ts.aten.bmm {{.*}} -> !ts.tensor<f32, [8, 3, 5]>
// CHECK: ts.aten.t {{.*}} -> !ts.tensor<f32, [5, 4]>
// CHECK: ts.aten.linear {{.*}} -> !ts.tensor<f32, [2, 7, 5]>
// CHECK: ts.aten.addmm {{.*}} -> !ts.tensor<f32, [3, 5]>
// CHECK: ts.aten.baddbmm {{.*}} -> !ts.tensor<f32, [8, 3, 5]>
// CHECK: ts.aten.dot {{.*}} -> !ts.tensor<f32, []>
func.func @linalg(%v: !ts.tensor<f32, [4]>, %m: !ts.tensor<f32, [3, 4]>, %n: !ts.tensor<f32, [4, 5]>, %a: !ts.tensor<f32, [2, 1, 3, 4]>, %b: !ts.tensor<f32, [5, 4, 6]>, %bq: !ts.tensor<f32, [?, 3, 4]>, %bk: !ts.tensor<f32, [8, 4, 5]>, %x3: !ts.tensor<f32, [2, 7, 4]>, %bias: !ts.tensor<f32, [5]>) {
  %one = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.matmul %v, %v : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor
  %1 = ts.aten.matmul %m, %v : (!ts.tensor<f32, [3, 4]>, !ts.tensor<f32, [4]>) -> !ts.tensor
  %2 = ts.aten.matmul %v, %n : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4, 5]>) -> !ts.tensor
  %3 = ts.aten.matmul %a, %b : (!ts.tensor<f32, [2, 1, 3, 4]>, !ts.tensor<f32, [5, 4, 6]>) -> !ts.tensor
  %4 = ts.aten.matmul %v, %b : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [5, 4, 6]>) -> !ts.tensor
  %5 = ts.aten.mm %m, %n : (!ts.tensor<f32, [3, 4]>, !ts.tensor<f32, [4, 5]>) -> !ts.tensor
  %6 = ts.aten.bmm %bq, %bk : (!ts.tensor<f32, [?, 3, 4]>, !ts.tensor<f32, [8, 4, 5]>) -> !ts.tensor
  %w = ts.aten.t %n : (!ts.tensor<f32, [4, 5]>) -> !ts.tensor
  %7 = ts.aten.linear %x3, %w, %bias : (!ts.tensor<f32, [2, 7, 4]>, !ts.tensor, !ts.tensor<f32, [5]>) -> !ts.tensor
  %8 = ts.aten.addmm %bias, %m, %n, %one, %one : (!ts.tensor<f32, [5]>, !ts.tensor<f32, [3, 4]>, !ts.tensor<f32, [4, 5]>, !ts.int, !ts.int) -> !ts.tensor
  %9 = ts.aten.baddbmm %bias, %bq, %bk, %one, %one : (!ts.tensor<f32, [5]>, !ts.tensor<f32, [?, 3, 4]>, !ts.tensor<f32, [8, 4, 5]>, !ts.int, !ts.int) -> !ts.tensor
  %10 = ts.aten.dot %v, %v : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor
  return
}

// -----

// Views: -1 (or one unknown entry) takes the remaining elements; flatten,
// permute, transpose, unsqueeze, squeeze, expand, select, narrow, repeat.

// CHECK-LABEL: func.func @views(
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.int>
// CHECK: ts.aten.view {{.*}} -> !ts.tensor<f32, [6, 4]>
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.int>
// CHECK: ts.aten.reshape {{.*}} -> !ts.tensor<f32, [4, 6]>
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.int>
// CHECK: ts.aten.reshape {{.*}} -> !ts.tensor<f32, [?, 6]>
// CHECK: ts.aten.flatten.using_ints {{.*}} -> !ts.tensor<f32, [2, 12]>
// CHECK: ts.aten.flatten.using_ints {{.*}} -> !ts.tensor<f32, [1]>
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.int>
// CHECK: ts.aten.permute {{.*}} -> !ts.tensor<f32, [4, 2, 3]>
// CHECK: ts.aten.transpose.int {{.*}} -> !ts.tensor<f32, [?, 4, 3]>
// CHECK: ts.aten.unsqueeze {{.*}} -> !ts.tensor<f32, [2, 3, 4, 1]>
// CHECK: ts.aten.squeeze.dim {{.*}} -> !ts.tensor<f32, [2, 3, 4]>
// CHECK: ts.aten.squeeze {{.*}} -> !ts.tensor<f32, [2, 3, 4]>
// CHECK: ts.aten.squeeze {{.*}} -> !ts.tensor<f32>
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.int>
// CHECK: ts.aten.expand {{.*}} -> !ts.tensor<f32, [6, ?, 3, 4]>
// CHECK: ts.aten.expand_as {{.*}} -> !ts.tensor<f32, [2, 3, 4]>
// CHECK: ts.aten.select.int {{.*}} -> !ts.tensor<f32, [2, 4]>
// CHECK: ts.aten.narrow {{.*}} -> !ts.tensor<f32, [2, 3, 2]>
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.int>
// CHECK: ts.aten.repeat {{.*}} -> !ts.tensor<f32, [2, 2, 3, 8]>
// CHECK: ts.aten.t {{.*}} -> !ts.tensor<f32, []>
func.func @views(%x: !ts.tensor<f32, [2, 3, 4]>, %s: !ts.tensor<f32, []>, %d: !ts.tensor<f32, [?, 3, 4]>, %n: !ts.int) {
  %m1 = ts.prim.Constant[-1] : !ts.int
  %m2 = ts.prim.Constant[-2] : !ts.int
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %six = ts.prim.Constant[6] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %l0 = ts.prim.ListConstruct %six, %m1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.view %x, %l0 : (!ts.tensor<f32, [2, 3, 4]>, !ts.list<!ts.int>) -> !ts.tensor
  %l1 = ts.prim.ListConstruct %n, %six : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %1 = ts.aten.reshape %x, %l1 : (!ts.tensor<f32, [2, 3, 4]>, !ts.list<!ts.int>) -> !ts.tensor
  %l2 = ts.prim.ListConstruct %m1, %six : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %2 = ts.aten.reshape %d, %l2 : (!ts.tensor<f32, [?, 3, 4]>, !ts.list<!ts.int>) -> !ts.tensor
  %3 = ts.aten.flatten.using_ints %x, %one, %m1 : (!ts.tensor<f32, [2, 3, 4]>, !ts.int, !ts.int) -> !ts.tensor
  %4 = ts.aten.flatten.using_ints %s, %zero, %m1 : (!ts.tensor<f32, []>, !ts.int, !ts.int) -> !ts.tensor
  %p = ts.prim.ListConstruct %m1, %zero, %one : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %5 = ts.aten.permute %x, %p : (!ts.tensor<f32, [2, 3, 4]>, !ts.list<!ts.int>) -> !ts.tensor
  %6 = ts.aten.transpose.int %d, %m1, %m2 : (!ts.tensor<f32, [?, 3, 4]>, !ts.int, !ts.int) -> !ts.tensor
  %7 = ts.aten.unsqueeze %x, %m1 : (!ts.tensor<f32, [2, 3, 4]>, !ts.int) -> !ts.tensor
  %8 = ts.aten.squeeze.dim %7, %m1 : (!ts.tensor, !ts.int) -> !ts.tensor
  %9 = ts.aten.squeeze %7 : (!ts.tensor) -> !ts.tensor
  %10 = ts.aten.squeeze %d : (!ts.tensor<f32, [?, 3, 4]>) -> !ts.tensor
  %e = ts.prim.ListConstruct %six, %m1, %m1, %m1 : (!ts.int, !ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %11 = ts.aten.expand %d, %e, %false : (!ts.tensor<f32, [?, 3, 4]>, !ts.list<!ts.int>, !ts.bool) -> !ts.tensor
  %12 = ts.aten.expand_as %s, %x : (!ts.tensor<f32, []>, !ts.tensor<f32, [2, 3, 4]>) -> !ts.tensor
  %13 = ts.aten.select.int %x, %one, %zero : (!ts.tensor<f32, [2, 3, 4]>, !ts.int, !ts.int) -> !ts.tensor
  %14 = ts.aten.narrow %x, %m1, %one, %two : (!ts.tensor<f32, [2, 3, 4]>, !ts.int, !ts.int, !ts.int) -> !ts.tensor
  %r = ts.prim.ListConstruct %two, %one, %one, %two : (!ts.int, !ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %15 = ts.aten.repeat %x, %r : (!ts.tensor<f32, [2, 3, 4]>, !ts.list<!ts.int>) -> !ts.tensor
  %16 = ts.aten.t %s : (!ts.tensor<f32, []>) -> !ts.tensor
  return
}

// -----

// slice: None, negative and past-the-end bounds clamp; an unknown size stays
// unknown unless the whole dim is taken.

// CHECK-LABEL: func.func @slices(
// CHECK: ts.aten.slice.Tensor {{.*}} -> !ts.tensor<f32, [5, ?]>
// CHECK: ts.aten.slice.Tensor {{.*}} -> !ts.tensor<f32, [3, ?]>
// CHECK: ts.aten.slice.Tensor {{.*}} -> !ts.tensor<f32, [0, ?]>
// CHECK: ts.aten.slice.Tensor {{.*}} -> !ts.tensor<f32, [10, ?]>
// CHECK: ts.aten.slice.Tensor {{.*}} -> !ts.tensor<f32, [10, ?]>
func.func @slices(%x: !ts.tensor<f32, [10, ?]>) {
  %none = ts.prim.Constant : !ts.none
  %m3 = ts.prim.Constant[-3] : !ts.int
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %big = ts.prim.Constant[9223372036854775807] : !ts.int
  %0 = ts.aten.slice.Tensor %x, %zero, %none, %none, %two : (!ts.tensor<f32, [10, ?]>, !ts.int, !ts.none, !ts.none, !ts.int) -> !ts.tensor
  %1 = ts.aten.slice.Tensor %x, %zero, %m3, %big, %one : (!ts.tensor<f32, [10, ?]>, !ts.int, !ts.int, !ts.int, !ts.int) -> !ts.tensor
  %2 = ts.aten.slice.Tensor %x, %zero, %two, %one, %one : (!ts.tensor<f32, [10, ?]>, !ts.int, !ts.int, !ts.int, !ts.int) -> !ts.tensor
  %3 = ts.aten.slice.Tensor %x, %one, %zero, %big, %one : (!ts.tensor<f32, [10, ?]>, !ts.int, !ts.int, !ts.int, !ts.int) -> !ts.tensor
  %4 = ts.aten.slice.Tensor %x, %one, %one, %big, %one : (!ts.tensor<f32, [10, ?]>, !ts.int, !ts.int, !ts.int, !ts.int) -> !ts.tensor
  return
}

// -----

// cat along a dim adds sizes and promotes; stack inserts a dim.

// CHECK-LABEL: func.func @combine(
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.tensor<[2, ?]>>
// CHECK: ts.aten.cat {{.*}} -> !ts.tensor<f32, [2, 8]>
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.tensor<f32, [2, ?]>>
// CHECK: ts.aten.cat {{.*}} -> !ts.tensor<f32, [2, ?]>
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.tensor<f32, [2, ?]>>
// CHECK: ts.aten.stack {{.*}} -> !ts.tensor<f32, [2, 3, 2]>
func.func @combine(%a: !ts.tensor<f32, [2, 3]>, %b: !ts.tensor<f32, [2, ?]>, %c: !ts.tensor<si64, [2, 5]>, %e: !ts.tensor<f32, [0]>) {
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %m1 = ts.prim.Constant[-1] : !ts.int
  %l = ts.prim.ListConstruct %a, %c : (!ts.tensor<f32, [2, 3]>, !ts.tensor<si64, [2, 5]>) -> !ts.list<!ts.tensor>
  %0 = ts.aten.cat %l, %m1 : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor
  %l2 = ts.prim.ListConstruct %a, %b : (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, ?]>) -> !ts.list<!ts.tensor>
  %1 = ts.aten.cat %l2, %one : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor
  %l3 = ts.prim.ListConstruct %a, %b : (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, ?]>) -> !ts.list<!ts.tensor>
  %2 = ts.aten.stack %l3, %m1 : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor
  return
}

// -----

// chunk, split and unbind give lists; unpacking them gives each piece.

// CHECK-LABEL: func.func @splits(
// CHECK: ts.aten.chunk {{.*}} -> !ts.list<!ts.tensor<f32, [?, 4]>>
// CHECK: ts.prim.ListUnpack {{.*}} -> !ts.tensor<f32, [2, 4]>, !ts.tensor<f32, [2, 4]>, !ts.tensor<f32, [1, 4]>
// CHECK: ts.aten.split.Tensor {{.*}} -> !ts.list<!ts.tensor<f32, [?, 4]>>
// CHECK: ts.aten.unbind.int {{.*}} -> !ts.list<!ts.tensor<f32, [4]>>
// CHECK: ts.aten.__getitem__.t {{.*}} -> !ts.tensor<f32, [4]>
// CHECK: ts.prim.ConstantChunk {{.*}} -> !ts.tensor<f32, [5, 2]>, !ts.tensor<f32, [5, 2]>
func.func @splits(%x: !ts.tensor<f32, [5, 4]>) {
  %zero = ts.prim.Constant[0] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %three = ts.prim.Constant[3] : !ts.int
  %0 = ts.aten.chunk %x, %three, %zero : (!ts.tensor<f32, [5, 4]>, !ts.int, !ts.int) -> !ts.list<!ts.tensor>
  %1:3 = ts.prim.ListUnpack %0 : !ts.list<!ts.tensor> -> !ts.tensor, !ts.tensor, !ts.tensor
  %2 = ts.aten.split.Tensor %x, %two, %zero : (!ts.tensor<f32, [5, 4]>, !ts.int, !ts.int) -> !ts.list<!ts.tensor>
  %3 = ts.aten.unbind.int %x, %zero : (!ts.tensor<f32, [5, 4]>, !ts.int) -> !ts.list<!ts.tensor>
  %4 = ts.aten.__getitem__.t %3, %two : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor
  %5:2 = ts.prim.ConstantChunk %x {chunks = 2 : i64, dim = -1 : i64} : !ts.tensor<f32, [5, 4]> -> !ts.tensor, !ts.tensor
  return
}

// -----

// index_select, advanced indexing (adjacent and separated indices, masks),
// gather.

// CHECK-LABEL: func.func @indexing(
// CHECK: ts.aten.index_select {{.*}} -> !ts.tensor<f32, [5, 2, 7]>
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.optional<!ts.tensor>>
// CHECK: ts.aten.index.Tensor {{.*}} -> !ts.tensor<f32, [2, 6]>
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.optional<!ts.tensor>>
// CHECK: ts.aten.index.Tensor {{.*}} -> !ts.tensor<f32, [5, 1, 2, 7]>
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.optional<!ts.tensor>>
// CHECK: ts.aten.index.Tensor {{.*}} -> !ts.tensor<f32, [?, 7]>
// CHECK: ts.aten.gather {{.*}} -> !ts.tensor<f32, [1, 2]>
func.func @indexing(%x: !ts.tensor<f32, [5, 6, 7]>, %i: !ts.tensor<si64, [2]>, %j: !ts.tensor<si64, [1, 2]>, %m: !ts.tensor<i1, [5, 6]>) {
  %none = ts.prim.Constant : !ts.none
  %one = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.index_select %x, %one, %i : (!ts.tensor<f32, [5, 6, 7]>, !ts.int, !ts.tensor<si64, [2]>) -> !ts.tensor
  %l = ts.prim.ListConstruct %i, %none, %i : (!ts.tensor<si64, [2]>, !ts.none, !ts.tensor<si64, [2]>) -> !ts.list<!ts.optional<!ts.tensor>>
  %1 = ts.aten.index.Tensor %x, %l : (!ts.tensor<f32, [5, 6, 7]>, !ts.list<!ts.optional<!ts.tensor>>) -> !ts.tensor
  %l2 = ts.prim.ListConstruct %none, %j : (!ts.none, !ts.tensor<si64, [1, 2]>) -> !ts.list<!ts.optional<!ts.tensor>>
  %2 = ts.aten.index.Tensor %x, %l2 : (!ts.tensor<f32, [5, 6, 7]>, !ts.list<!ts.optional<!ts.tensor>>) -> !ts.tensor
  %l3 = ts.prim.ListConstruct %m : (!ts.tensor<i1, [5, 6]>) -> !ts.list<!ts.optional<!ts.tensor>>
  %3 = ts.aten.index.Tensor %x, %l3 : (!ts.tensor<f32, [5, 6, 7]>, !ts.list<!ts.optional<!ts.tensor>>) -> !ts.tensor
  %false = ts.prim.Constant[false] : !ts.bool
  %4 = ts.aten.gather %x, %one, %j, %false : (!ts.tensor<f32, [5, 6, 7]>, !ts.int, !ts.tensor<si64, [1, 2]>, !ts.bool) -> !ts.tensor
  return
}

// -----

// Convolutions: stride, padding (an int list of one), unbatched input,
// transposed.

// CHECK-LABEL: func.func @conv(
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.int>
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.int>
// CHECK: ts.aten.conv2d {{.*}} -> !ts.tensor<f32, [1, 16, 16, 16]>
// CHECK: ts.aten.conv2d {{.*}} -> !ts.tensor<f32, [16, 7, ?]>
// CHECK: ts.aten._convolution {{.*}} -> !ts.tensor<f32, [1, 3, 10, 10]>
func.func @conv(%x: !ts.tensor<f32, [1, 3, 32, 32]>, %w: !ts.tensor<f32, [16, 3, 3, 3]>, %b: !ts.tensor<f32, [16]>, %u: !ts.tensor<f32, [3, 9, ?]>, %tw: !ts.tensor<f32, [4, 3, 3, 3]>, %tx: !ts.tensor<f32, [1, 4, 5, 5]>) {
  %none = ts.prim.Constant : !ts.none
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %true = ts.prim.Constant[true] : !ts.bool
  %false = ts.prim.Constant[false] : !ts.bool
  %s2 = ts.prim.ListConstruct %two, %two : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %p1 = ts.prim.ListConstruct %one : (!ts.int) -> !ts.list<!ts.int>
  %d1 = ts.prim.Constant[[1, 1]] : !ts.list<!ts.int>
  %0 = ts.aten.conv2d %x, %w, %b, %s2, %p1, %d1, %one : (!ts.tensor<f32, [1, 3, 32, 32]>, !ts.tensor<f32, [16, 3, 3, 3]>, !ts.tensor<f32, [16]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.int) -> !ts.tensor
  %1 = ts.aten.conv2d %u, %w, %none, %d1, %zero, %d1, %one : (!ts.tensor<f32, [3, 9, ?]>, !ts.tensor<f32, [16, 3, 3, 3]>, !ts.none, !ts.list<!ts.int>, !ts.int, !ts.list<!ts.int>, !ts.int) -> !ts.tensor
  %op = ts.prim.Constant[[1, 1]] : !ts.list<!ts.int>
  %2 = ts.aten._convolution %tx, %tw, %none, %s2, %d1, %d1, %true, %op, %one, %false, %false, %false, %false : (!ts.tensor<f32, [1, 4, 5, 5]>, !ts.tensor<f32, [4, 3, 3, 3]>, !ts.none, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool, !ts.list<!ts.int>, !ts.int, !ts.bool, !ts.bool, !ts.bool, !ts.bool) -> !ts.tensor
  return
}

// -----

// Pooling, with ceil_mode and the stride defaulting to the kernel size.

// CHECK-LABEL: func.func @pool(
// CHECK: ts.aten.max_pool2d {{.*}} -> !ts.tensor<f32, [1, 1, 4, 4]>
// CHECK: ts.aten.max_pool2d {{.*}} -> !ts.tensor<f32, [1, 1, 3, 3]>
// CHECK: ts.aten.max_pool2d_with_indices {{.*}} -> (!ts.tensor<f32, [2, 16, 4, 4]>, !ts.tensor<si64, [2, 16, 4, 4]>)
// CHECK: ts.aten.avg_pool2d {{.*}} -> !ts.tensor<f32, [1, 1, 4, 4]>
// CHECK: ts.aten.adaptive_avg_pool2d {{.*}} -> !ts.tensor<f32, [2, 16, 1, 1]>
func.func @pool(%x: !ts.tensor<f32, [1, 1, 7, 7]>, %y: !ts.tensor<f32, [2, 16, 6, 6]>) {
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %true = ts.prim.Constant[true] : !ts.bool
  %false = ts.prim.Constant[false] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %k2 = ts.prim.Constant[[2, 2]] : !ts.list<!ts.int>
  %k3 = ts.prim.Constant[[3, 3]] : !ts.list<!ts.int>
  %p0 = ts.prim.Constant[[0, 0]] : !ts.list<!ts.int>
  %p1 = ts.prim.Constant[[1, 1]] : !ts.list<!ts.int>
  %empty = ts.prim.Constant[[]] : !ts.list<!ts.int>
  %0 = ts.aten.max_pool2d %x, %k2, %k2, %p0, %p1, %true : (!ts.tensor<f32, [1, 1, 7, 7]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool) -> !ts.tensor
  %1 = ts.aten.max_pool2d %x, %k2, %empty, %p0, %p1, %false : (!ts.tensor<f32, [1, 1, 7, 7]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool) -> !ts.tensor
  %2:2 = ts.aten.max_pool2d_with_indices %y, %k3, %k2, %p1, %p1, %true : (!ts.tensor<f32, [2, 16, 6, 6]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool) -> (!ts.tensor, !ts.tensor)
  %3 = ts.aten.avg_pool2d %x, %k2, %k2, %p0, %true, %true, %none : (!ts.tensor<f32, [1, 1, 7, 7]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool, !ts.bool, !ts.none) -> !ts.tensor
  %4 = ts.aten.adaptive_avg_pool2d %y, %p1 : (!ts.tensor<f32, [2, 16, 6, 6]>, !ts.list<!ts.int>) -> !ts.tensor
  return
}

// -----

// Layers that keep their input's type; embedding.

// CHECK-LABEL: func.func @layers(
// CHECK: ts.aten.batch_norm {{.*}} -> !ts.tensor<f32, [2, 16, 6, 6]>
// CHECK: ts.aten.dropout {{.*}} -> !ts.tensor<f32, [2, 16, 6, 6]>
// CHECK: ts.aten.embedding {{.*}} -> !ts.tensor<f32, [4, 5, 8]>
func.func @layers(%x: !ts.tensor<f32, [2, 16, 6, 6]>, %c: !ts.tensor<f32, [16]>, %emb: !ts.tensor<f32, [100, 8]>, %ids: !ts.tensor<si64, [4, 5]>) {
  %true = ts.prim.Constant[true] : !ts.bool
  %false = ts.prim.Constant[false] : !ts.bool
  %m1 = ts.prim.Constant[-1] : !ts.int
  %p = ts.prim.Constant[0.5] : !ts.float
  %eps = ts.prim.Constant[1.0e-5] : !ts.float
  %0 = ts.aten.batch_norm %x, %c, %c, %c, %c, %false, %p, %eps, %true : (!ts.tensor<f32, [2, 16, 6, 6]>, !ts.tensor<f32, [16]>, !ts.tensor<f32, [16]>, !ts.tensor<f32, [16]>, !ts.tensor<f32, [16]>, !ts.bool, !ts.float, !ts.float, !ts.bool) -> !ts.tensor
  %1 = ts.aten.dropout %0, %p, %true : (!ts.tensor, !ts.float, !ts.bool) -> !ts.tensor
  %2 = ts.aten.embedding %emb, %ids, %m1, %false, %false : (!ts.tensor<f32, [100, 8]>, !ts.tensor<si64, [4, 5]>, !ts.int, !ts.bool, !ts.bool) -> !ts.tensor
  return
}

// -----

// Factories: sizes from constants or from the sizes of a refined tensor,
// dtype codes (None: Float, or inferred from the fill value), devices.

// CHECK-LABEL: func.func @factories(
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.int>
// CHECK: ts.aten.zeros {{.*}} -> !ts.tensor<f32, [2, 3]>
// CHECK: ts.aten.ones {{.*}} -> !ts.tensor<si64, [2, 3], device = "cuda:0">
// CHECK: ts.aten.full {{.*}} -> !ts.tensor<si64, [2, 3]>
// CHECK: ts.aten.full {{.*}} -> !ts.tensor<i1, [2, 3]>
// CHECK: ts.aten.arange {{.*}} -> !ts.tensor<si64, [5]>
// CHECK: ts.aten.arange.start {{.*}} -> !ts.tensor<f32, [5]>
// CHECK: ts.aten.arange {{.*}} -> !ts.tensor<si64, [?]>
// CHECK: ts.aten.zeros_like {{.*}} -> !ts.tensor<i1, [2, ?], device = "cpu">
// CHECK: ts.aten.full_like {{.*}} -> !ts.tensor<f16, [2, ?], device = "cpu">
// CHECK: ts.aten.scalar_tensor {{.*}} -> !ts.tensor<f32, []>
// CHECK: ts.aten.tensor.int {{.*}} -> !ts.tensor<si64, []>
// CHECK: ts.prim.NumToTensor.Scalar {{.*}} -> !ts.tensor<f64, []>
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.int>
// CHECK: ts.aten.ones {{.*}} -> !ts.tensor<f32, [6, ?]>
// CHECK: ts.aten.size {{.*}} -> !ts.list<!ts.int>
// CHECK: ts.aten.zeros {{.*}} -> !ts.tensor<f32, [2, ?]>
func.func @factories(%x: !ts.tensor<f32, [2, ?], device = "cpu">, %n: !ts.int) {
  %none = ts.prim.Constant : !ts.none
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %three = ts.prim.Constant[3] : !ts.int
  %five = ts.prim.Constant[5] : !ts.int
  %long = ts.prim.Constant[4] : !ts.int
  %bool = ts.prim.Constant[11] : !ts.int
  %half = ts.prim.Constant[5] : !ts.int
  %true = ts.prim.Constant[true] : !ts.bool
  %f = ts.prim.Constant[5.5] : !ts.float
  %cuda = ts.prim.Constant["cuda:0"] : !ts.device
  %s = ts.prim.ListConstruct %two, %three : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.zeros %s, %none, %none, %none, %none : (!ts.list<!ts.int>, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  %1 = ts.aten.ones %s, %long, %none, %cuda, %none : (!ts.list<!ts.int>, !ts.int, !ts.none, !ts.device, !ts.none) -> !ts.tensor
  %2 = ts.aten.full %s, %one, %none, %none, %none, %none : (!ts.list<!ts.int>, !ts.int, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  %3 = ts.aten.full %s, %true, %none, %none, %none, %none : (!ts.list<!ts.int>, !ts.bool, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  %4 = ts.aten.arange %five, %none, %none, %none, %none : (!ts.int, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  %5 = ts.aten.arange.start %one, %f, %none, %none, %none, %none : (!ts.int, !ts.float, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  %6 = ts.aten.arange %n, %none, %none, %none, %none : (!ts.int, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  %7 = ts.aten.zeros_like %x, %bool, %none, %none, %none, %none : (!ts.tensor<f32, [2, ?], device = "cpu">, !ts.int, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  %8 = ts.aten.full_like %x, %f, %half, %none, %none, %none, %none : (!ts.tensor<f32, [2, ?], device = "cpu">, !ts.float, !ts.int, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  %9 = ts.aten.scalar_tensor %one, %none, %none, %none, %none : (!ts.int, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  %false = ts.prim.Constant[false] : !ts.bool
  %10 = ts.aten.tensor.int %one, %none, %none, %false : (!ts.int, !ts.none, !ts.none, !ts.bool) -> !ts.tensor
  %11 = ts.prim.NumToTensor.Scalar %f : (!ts.float) -> !ts.tensor
  // Sizes read from a tensor of known sizes.
  %d0 = ts.aten.size.int %x, %zero : (!ts.tensor<f32, [2, ?], device = "cpu">, !ts.int) -> !ts.int
  %d1 = ts.aten.size.int %x, %one : (!ts.tensor<f32, [2, ?], device = "cpu">, !ts.int) -> !ts.int
  %d2 = ts.aten.mul.int %d0, %three : (!ts.int, !ts.int) -> !ts.int
  %s2 = ts.prim.ListConstruct %d2, %d1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %12 = ts.aten.ones %s2, %none, %none, %none, %none : (!ts.list<!ts.int>, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  %sz = ts.aten.size %x : (!ts.tensor<f32, [2, ?], device = "cpu">) -> !ts.list<!ts.int>
  %13 = ts.aten.zeros %sz, %none, %none, %none, %none : (!ts.list<!ts.int>, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  return
}

// -----

// prim.If joins its branches; a raising branch does not count; a constant
// condition picks a branch.

// CHECK-LABEL: func.func @if_join(
// CHECK: ts.prim.If {{.*}} -> (!ts.tensor<f32, [4, ?]>, !ts.tensor<[4, 5]>, !ts.tensor<f32, [4, 5]>)
func.func @if_join(%c: !ts.bool, %x: !ts.tensor<f32, [4, 5]>, %y: !ts.tensor<f32, [4, 6]>, %z: !ts.tensor<f64, [4, 5]>) -> (!ts.tensor, !ts.tensor, !ts.tensor) {
  %0:3 = ts.prim.If %c -> (!ts.tensor, !ts.tensor, !ts.tensor) {
    ts.prim.Yield %x, %x, %x : !ts.tensor<f32, [4, 5]>, !ts.tensor<f32, [4, 5]>, !ts.tensor<f32, [4, 5]>
  } else {
    ts.prim.Yield %y, %z, %x : !ts.tensor<f32, [4, 6]>, !ts.tensor<f64, [4, 5]>, !ts.tensor<f32, [4, 5]>
  }
  return %0#0, %0#1, %0#2 : !ts.tensor, !ts.tensor, !ts.tensor
}
// CHECK-LABEL: func.func @if_raise(
// CHECK-SAME: -> !ts.tensor<f32, [4, 5]>
// CHECK: ts.prim.If {{.*}} -> (!ts.tensor<f32, [4, 5]>)
// CHECK: ts.aten.relu {{.*}} -> !ts.tensor<f32, [4, 5]>
func.func @if_raise(%c: !ts.bool, %x: !ts.tensor<f32, [4, 5]>) -> !ts.tensor {
  %0 = ts.prim.If %c -> (!ts.tensor) {
    %r = ts.aten.relu %x : (!ts.tensor<f32, [4, 5]>) -> !ts.tensor
    ts.prim.Yield %r : !ts.tensor
  } else {
    %msg = ts.prim.Constant["bad"] : !ts.str
    ts.prim.RaiseException %msg : !ts.str
    %u = ts.prim.Uninitialized : !ts.tensor
    ts.prim.Yield %u : !ts.tensor
  }
  return %0 : !ts.tensor
}
// CHECK-LABEL: func.func @if_constant(
// CHECK-SAME: -> !ts.tensor<f32, [4, 5]>
// CHECK: ts.prim.If {{.*}} -> (!ts.tensor<f32, [4, 5]>)
func.func @if_constant(%x: !ts.tensor<f32, [4, 5]>, %y: !ts.tensor) -> !ts.tensor {
  %none = ts.prim.Constant : !ts.none
  %c = ts.aten.__is__ %x, %none : (!ts.tensor<f32, [4, 5]>, !ts.none) -> !ts.bool
  %0 = ts.prim.If %c -> (!ts.tensor) {
    ts.prim.Yield %y : !ts.tensor
  } else {
    ts.prim.Yield %x : !ts.tensor<f32, [4, 5]>
  }
  return %0 : !ts.tensor
}

// -----

// prim.Loop: carried types settle at a fixed point of their initial and
// yielded types.

// CHECK-LABEL: func.func @loop_fixed_point(
// CHECK: ts.prim.Loop {{.*}} -> (!ts.tensor<f32, [4, 3]>, !ts.tensor<f32, [?, 3]>)
// CHECK: ^bb0(%arg3: !ts.int, %arg4: !ts.tensor<f32, [4, 3]>, %arg5: !ts.tensor<f32, [?, 3]>):
// CHECK: ts.aten.sin {{.*}} -> !ts.tensor<f32, [4, 3]>
// CHECK: ts.aten.add.Tensor {{.*}} -> !ts.tensor<f32, [4, 3]>
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.tensor<f32, [?, 3]>>
// CHECK: ts.aten.cat {{.*}} -> !ts.tensor<f32, [?, 3]>
func.func @loop_fixed_point(%n: !ts.int, %x: !ts.tensor<f32, [4, 3]>, %row: !ts.tensor<f32, [1, 3]>) -> (!ts.tensor, !ts.tensor) {
  %true = ts.prim.Constant[true] : !ts.bool
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %0:2 = ts.prim.Loop %n, %true init(%x, %row) : (!ts.int, !ts.bool, !ts.tensor<f32, [4, 3]>, !ts.tensor<f32, [1, 3]>) -> (!ts.tensor, !ts.tensor) {
  ^bb0(%i: !ts.int, %acc: !ts.tensor, %rows: !ts.tensor):
    %s = ts.aten.sin %acc : (!ts.tensor) -> !ts.tensor
    %a = ts.aten.add.Tensor %acc, %s, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
    %l = ts.prim.ListConstruct %rows, %row : (!ts.tensor, !ts.tensor<f32, [1, 3]>) -> !ts.list<!ts.tensor>
    %grown = ts.aten.cat %l, %zero : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor
    ts.prim.Yield %true, %a, %grown : !ts.bool, !ts.tensor, !ts.tensor
  }
  return %0#0, %0#1 : !ts.tensor, !ts.tensor
}

// -----

// Tuples carry element types; lists that nothing modifies do too.

// CHECK-LABEL: func.func @containers(
// CHECK-SAME: -> !ts.tuple<!ts.tensor<f32, [2]>, !ts.tensor<si64, [3]>>
// CHECK: ts.prim.TupleConstruct {{.*}} -> !ts.tuple<!ts.tensor<f32, [2]>, !ts.tensor<si64, [3]>>
// CHECK: ts.prim.TupleUnpack {{.*}} -> !ts.tensor<f32, [2]>, !ts.tensor<si64, [3]>
// CHECK: ts.prim.TupleIndex {{.*}} -> !ts.tensor<si64, [3]>
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.tensor<f32, [2]>>
// CHECK: ts.aten.__getitem__.t {{.*}} -> !ts.tensor<f32, [2]>
// CHECK: ts.prim.ListConstruct {{.*}} -> !ts.list<!ts.tensor>
// CHECK: ts.aten.append.t {{.*}} -> !ts.list<!ts.tensor>
func.func @containers(%x: !ts.tensor<f32, [2]>, %y: !ts.tensor<si64, [3]>) -> !ts.tuple<!ts.tensor, !ts.tensor> {
  %one = ts.prim.Constant[1] : !ts.int
  %t = ts.prim.TupleConstruct %x, %y : (!ts.tensor<f32, [2]>, !ts.tensor<si64, [3]>) -> !ts.tuple<!ts.tensor, !ts.tensor>
  %a, %b = ts.prim.TupleUnpack %t : !ts.tuple<!ts.tensor, !ts.tensor> -> !ts.tensor, !ts.tensor
  %c = ts.prim.TupleIndex %t, %one : (!ts.tuple<!ts.tensor, !ts.tensor>, !ts.int) -> !ts.tensor
  %l = ts.prim.ListConstruct %x, %x : (!ts.tensor<f32, [2]>, !ts.tensor<f32, [2]>) -> !ts.list<!ts.tensor>
  %e = ts.aten.__getitem__.t %l, %one : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor
  // A list that is appended to keeps its element type.
  %m = ts.prim.ListConstruct %x : (!ts.tensor<f32, [2]>) -> !ts.list<!ts.tensor>
  %m2 = ts.aten.append.t %m, %b : (!ts.list<!ts.tensor>, !ts.tensor) -> !ts.list<!ts.tensor>
  return %t : !ts.tuple<!ts.tensor, !ts.tensor>
}

// -----

// Fusion regions: inputs flow into a group, yields out; a guarded op's
// specialised region keeps its argument types, its result joins both.

// CHECK-LABEL: func.func @fusion_regions(
// CHECK-SAME: -> !ts.tensor<f32, [8]>
// CHECK: fusion.group {{.*}} -> !ts.tensor<f32, [8]>
// CHECK: ^bb0(%arg1: !ts.tensor<f32, [8]>):
// CHECK: ts.aten.relu {{.*}} -> !ts.tensor<f32, [8]>
func.func @fusion_regions(%x: !ts.tensor<f32, [8]>) -> !ts.tensor {
  %g = fusion.group nnc (%x) : (!ts.tensor<f32, [8]>) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    %r = ts.aten.relu %a : (!ts.tensor) -> !ts.tensor
    fusion.yield %r : !ts.tensor
  }
  return %g : !ts.tensor
}
// CHECK-LABEL: func.func @guarded(
// CHECK-SAME: -> !ts.tensor {
// CHECK: fusion.guarded(%arg0) {{.*}} -> !ts.tensor specialized
// CHECK: ^bb0(%arg1: !ts.tensor<f32, [4]>):
// CHECK: ts.aten.sigmoid {{.*}} -> !ts.tensor<f32, [4]>
// CHECK: ^bb0(%arg1: !ts.tensor):
// CHECK: ts.aten.sigmoid {{.*}} -> !ts.tensor{{$}}
func.func @guarded(%x: !ts.tensor) -> !ts.tensor {
  %r = fusion.guarded (%x) : (!ts.tensor) -> !ts.tensor
  specialized {
  ^bb0(%a: !ts.tensor<f32, [4]>):
    %s = ts.aten.sigmoid %a : (!ts.tensor<f32, [4]>) -> !ts.tensor
    fusion.yield %s : !ts.tensor
  } fallback {
  ^bb0(%a: !ts.tensor):
    %s = ts.aten.sigmoid %a : (!ts.tensor) -> !ts.tensor
    fusion.yield %s : !ts.tensor
  }
  return %r : !ts.tensor
}

// -----

// What stays unknown: unknown ranks, non-constant dims; existing facts win
// over the rules, and a refinement a guard would reject is not made.

// CHECK-LABEL: func.func @unknown_rank(
// CHECK-SAME: -> !ts.tensor {
// CHECK: ts.aten.relu {{.*}} -> !ts.tensor{{$}}
// CHECK: ts.aten.add.Tensor {{.*}} -> !ts.tensor<f32>
// CHECK: ts.aten.unsqueeze {{.*}} -> !ts.tensor<f32>
func.func @unknown_rank(%x: !ts.tensor, %y: !ts.tensor<f32>) -> !ts.tensor {
  %one = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.relu %x : (!ts.tensor) -> !ts.tensor
  %1 = ts.aten.add.Tensor %y, %y, %one : (!ts.tensor<f32>, !ts.tensor<f32>, !ts.int) -> !ts.tensor
  %2 = ts.aten.unsqueeze %y, %one : (!ts.tensor<f32>, !ts.int) -> !ts.tensor
  return %0 : !ts.tensor
}
// CHECK-LABEL: func.func @non_constant_dim(
// CHECK: ts.aten.unsqueeze {{.*}} -> !ts.tensor<f32>
// CHECK: ts.aten.sum.dim_IntList {{.*}} -> !ts.tensor<f32>
// CHECK: ts.aten.sum.dim_IntList {{.*}} -> !ts.tensor<f32>
// CHECK: ts.aten.view {{.*}} -> !ts.tensor<f32, [?, ?]>
func.func @non_constant_dim(%x: !ts.tensor<f32, [2, 3]>, %d: !ts.int, %k: !ts.bool) {
  %none = ts.prim.Constant : !ts.none
  %false = ts.prim.Constant[false] : !ts.bool
  %zero = ts.prim.Constant[0] : !ts.int
  %0 = ts.aten.unsqueeze %x, %d : (!ts.tensor<f32, [2, 3]>, !ts.int) -> !ts.tensor
  %1 = ts.aten.sum.dim_IntList %x, %d, %false, %none : (!ts.tensor<f32, [2, 3]>, !ts.int, !ts.bool, !ts.none) -> !ts.tensor
  %2 = ts.aten.sum.dim_IntList %x, %zero, %k, %none : (!ts.tensor<f32, [2, 3]>, !ts.int, !ts.bool, !ts.none) -> !ts.tensor
  %l = ts.prim.ListConstruct %d, %d : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %3 = ts.aten.view %x, %l : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>) -> !ts.tensor
  return
}
// CHECK-LABEL: func.func @keeps_annotations(
// CHECK-SAME: -> !ts.tensor<f64, [4, 5]>
// CHECK: ts.aten.relu {{.*}} -> !ts.tensor<f64, [4, 5]>
// CHECK: ts.aten.neg {{.*}} -> !ts.tensor<f32, [4, 5], device = "cpu">
// CHECK: ts.aten.sin {{.*}} -> !ts.tensor<f32, [4, 5], strides = [5, 1], requires_grad = true>
func.func @keeps_annotations(%x: !ts.tensor<f32, [4, 5]>) -> !ts.tensor<f64> {
  %0 = ts.aten.relu %x : (!ts.tensor<f32, [4, 5]>) -> !ts.tensor<f64>
  %1 = ts.aten.neg %x : (!ts.tensor<f32, [4, 5]>) -> !ts.tensor<[?, 5], device = "cpu">
  %2 = ts.aten.sin %x : (!ts.tensor<f32, [4, 5]>) -> !ts.tensor<f32, [4, 5], strides = [5, 1], requires_grad = true>
  return %0 : !ts.tensor<f64>
}
// CHECK-LABEL: func.func @guard_rejects(
// CHECK-SAME: -> !ts.tensor<f64, [4]>
// CHECK: ts.aten.relu {{.*}} -> !ts.tensor{{$}}
// CHECK: ts.prim.TypeCheck {{.*}} -> (!ts.tensor<f64, [4]>, !ts.bool)
func.func @guard_rejects(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f64, [4]> {
  %0 = ts.aten.relu %x : (!ts.tensor<f32, [4]>) -> !ts.tensor
  %1, %ok = ts.prim.TypeCheck %0 : (!ts.tensor) -> (!ts.tensor<f64, [4]>, !ts.bool)
  return %1 : !ts.tensor<f64, [4]>
}

// -----

// l1 + l2 of tensor lists: the element facts both lists share, so that
// values unpacked from it keep their shapes (torch.nn's attention builds
// q, k, v this way).
// CHECK-LABEL: func.func @list_add(
// CHECK: ts.aten.add.t {{.*}} -> !ts.list<!ts.tensor<f32, [2, 3]>>
// CHECK: ts.prim.ListUnpack {{.*}} -> !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>
func.func @list_add(%a: !ts.tensor<f32, [2, 3]>, %b: !ts.tensor<f32, [2, 6]>) -> !ts.tensor {
  %two = ts.prim.Constant[2] : !ts.int
  %m1 = ts.prim.Constant[-1] : !ts.int
  %l1 = ts.prim.ListConstruct %a : (!ts.tensor<f32, [2, 3]>) -> !ts.list<!ts.tensor>
  %l2 = ts.aten.chunk %b, %two, %m1 : (!ts.tensor<f32, [2, 6]>, !ts.int, !ts.int) -> !ts.list<!ts.tensor>
  %l = ts.aten.add.t %l1, %l2 : (!ts.list<!ts.tensor>, !ts.list<!ts.tensor>) -> !ts.list<!ts.tensor>
  %q, %k, %v = ts.prim.ListUnpack %l : !ts.list<!ts.tensor> -> !ts.tensor, !ts.tensor, !ts.tensor
  return %q : !ts.tensor
}

// -----

// The spectral decompositions' results, which a pipeline that
// differentiates keeps whole: svd full and thin (linalg_svd's Vh, svd's V;
// without compute_uv, U and V are zeros [m, m] and [n, n]), svdvals, eigh,
// symeig without eigenvectors (an empty [0]), pinv [n, m], lstsq by driver
// (gelsy: no residuals or values; gelsd: residuals for tall A and the
// values; the rank Long), matrix_exp.
// CHECK-LABEL: func.func @spectral(
// CHECK: ts.aten.linalg_svd {{.*}} -> (!ts.tensor<f64, [2, 5, 5]>, !ts.tensor<f64, [2, 3]>, !ts.tensor<f64, [2, 3, 3]>)
// CHECK: ts.aten.linalg_svd {{.*}} -> (!ts.tensor<f64, [2, 5, 3]>, !ts.tensor<f64, [2, 3]>, !ts.tensor<f64, [2, 3, 3]>)
// CHECK: ts.aten.svd {{.*}} -> (!ts.tensor<f64, [2, 5, 3]>, !ts.tensor<f64, [2, 3]>, !ts.tensor<f64, [2, 3, 3]>)
// CHECK: ts.aten.svd {{.*}} -> (!ts.tensor<f64, [2, 5, 5]>, !ts.tensor<f64, [2, 3]>, !ts.tensor<f64, [2, 3, 3]>)
// CHECK: ts.aten.linalg_svdvals {{.*}} -> !ts.tensor<f64, [2, 3]>
// CHECK: ts.aten.linalg_eigh {{.*}} -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4, 4]>)
// CHECK: ts.aten.symeig {{.*}} -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, [0]>)
// CHECK: ts.aten.linalg_pinv.atol_rtol_float {{.*}} -> !ts.tensor<f64, [2, 3, 5]>
// CHECK: ts.aten.linalg_lstsq {{.*}} -> (!ts.tensor<f64, [2, 3, 4]>, !ts.tensor<f64, [0]>, !ts.tensor<si64, [2]>, !ts.tensor<f64, [0]>)
// CHECK: ts.aten.linalg_lstsq {{.*}} -> (!ts.tensor<f64, [2, 3, 4]>, !ts.tensor<f64, [2, 4]>, !ts.tensor<si64, [2]>, !ts.tensor<f64, [2, 3]>)
// CHECK: ts.aten.linalg_matrix_exp {{.*}} -> !ts.tensor<f32, [4, 4]>
func.func @spectral(%a: !ts.tensor<f64, [2, 5, 3]>, %b: !ts.tensor<f64, [2, 5, 4]>, %s: !ts.tensor<f32, [4, 4]>) {
  %true = ts.prim.Constant[true] : !ts.bool
  %false = ts.prim.Constant[false] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %uplo = ts.prim.Constant["L"] : !ts.str
  %gelsd = ts.prim.Constant["gelsd"] : !ts.str
  %0:3 = ts.aten.linalg_svd %a, %true, %none : (!ts.tensor<f64, [2, 5, 3]>, !ts.bool, !ts.none) -> (!ts.tensor, !ts.tensor, !ts.tensor)
  %1:3 = ts.aten.linalg_svd %a, %false, %none : (!ts.tensor<f64, [2, 5, 3]>, !ts.bool, !ts.none) -> (!ts.tensor, !ts.tensor, !ts.tensor)
  %2:3 = ts.aten.svd %a, %true, %true : (!ts.tensor<f64, [2, 5, 3]>, !ts.bool, !ts.bool) -> (!ts.tensor, !ts.tensor, !ts.tensor)
  %3:3 = ts.aten.svd %a, %true, %false : (!ts.tensor<f64, [2, 5, 3]>, !ts.bool, !ts.bool) -> (!ts.tensor, !ts.tensor, !ts.tensor)
  %4 = ts.aten.linalg_svdvals %a, %none : (!ts.tensor<f64, [2, 5, 3]>, !ts.none) -> !ts.tensor
  %5:2 = ts.aten.linalg_eigh %s, %uplo : (!ts.tensor<f32, [4, 4]>, !ts.str) -> (!ts.tensor, !ts.tensor)
  %6:2 = ts.aten.symeig %s, %false, %true : (!ts.tensor<f32, [4, 4]>, !ts.bool, !ts.bool) -> (!ts.tensor, !ts.tensor)
  %7 = ts.aten.linalg_pinv.atol_rtol_float %a, %none, %none, %false : (!ts.tensor<f64, [2, 5, 3]>, !ts.none, !ts.none, !ts.bool) -> !ts.tensor
  %8:4 = ts.aten.linalg_lstsq %a, %b, %none, %none : (!ts.tensor<f64, [2, 5, 3]>, !ts.tensor<f64, [2, 5, 4]>, !ts.none, !ts.none) -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor)
  %9:4 = ts.aten.linalg_lstsq %a, %b, %none, %gelsd : (!ts.tensor<f64, [2, 5, 3]>, !ts.tensor<f64, [2, 5, 4]>, !ts.none, !ts.str) -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor)
  %10 = ts.aten.linalg_matrix_exp %s : (!ts.tensor<f32, [4, 4]>) -> !ts.tensor
  return
}
