// RUN: tsmlir-opt %s -split-input-file --ts-optimize | FileCheck %s
// RUN: tsmlir-opt %s -split-input-file --ts-optimize --ts-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// A loop with a constant trip count unrolls; its iteration numbers and the
// scalar arithmetic on them fold; the tensor ops merge and `x * 1` goes.
// CHECK-LABEL: func.func @unroll_then_fold(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor<f32, [4]>)
// CHECK-NOT:     ts.prim.Loop
// CHECK-NOT:     ts.aten.mul.Scalar
// CHECK:         %[[E:.+]] = ts.aten.exp %[[X]]
// CHECK-NEXT:    %[[A:.+]] = ts.aten.add.Tensor %[[E]], %[[E]]
// CHECK-NEXT:    %[[B:.+]] = ts.aten.add.Tensor %[[A]], %[[E]]
// CHECK-NEXT:    return %[[B]], %{{.+}} : !ts.tensor<f32, [4]>, !ts.int
// STATS: ===- TorchScript nodes per pass -===
// STATS: runs nodes before  nodes after    removed  pass
// STATS-DAG: canonicalize
// STATS-DAG: cse
// STATS-DAG: ts-unroll-loops
// STATS-DAG: ts-remove-mutation
// STATS-DAG: ts-infer-shapes
// STATS-DAG: ts-optimize
// STATS-NOT: Adaptor
func.func @unroll_then_fold(%x: !ts.tensor<f32, [4]>) -> (!ts.tensor<f32, [4]>, !ts.int) {
  %true = ts.prim.Constant[true] : !ts.bool
  %two = ts.prim.Constant[2] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %zero = ts.prim.Constant[0] : !ts.int
  %e0 = ts.aten.exp %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %r:2 = ts.prim.Loop %two, %true init(%e0, %zero) : (!ts.int, !ts.bool, !ts.tensor<f32, [4]>, !ts.int) -> (!ts.tensor<f32, [4]>, !ts.int) {
  ^bb0(%i: !ts.int, %acc: !ts.tensor<f32, [4]>, %s: !ts.int):
    %e = ts.aten.exp %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
    %m = ts.aten.mul.Scalar %e, %one : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
    %next = ts.aten.add.Tensor %acc, %m, %one : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
    %s2 = ts.aten.add.int %s, %i : (!ts.int, !ts.int) -> !ts.int
    ts.prim.Yield %true, %next, %s2 : !ts.bool, !ts.tensor<f32, [4]>, !ts.int
  }
  return %r#0, %r#1 : !ts.tensor<f32, [4]>, !ts.int
}

// -----

// Side effects stay, in order: prints and exceptions are never removed or
// merged, even when their results are unused. The argument's in-place adds
// become values (a read after the first sees it; `a` and the second add are
// one value), and its last value is written back before the return.
// CHECK-LABEL: func.func @effects_stay(
// CHECK-SAME:      %[[X:[^:]+]]: !ts.tensor<f32, [4]>
// CHECK:         ts.prim.Print(%[[X]])
// CHECK:         %[[X1:.+]] = ts.aten.add.Scalar %[[X]]
// CHECK:         %[[X2:.+]] = ts.aten.add.Scalar %[[X1]]
// CHECK:         %[[B:.+]] = ts.aten.add.Scalar %[[X2]]
// CHECK:         ts.prim.RaiseException
// CHECK:         ts.aten.copy_ %[[X]], %[[X2]], %{{.+}} {ts.write_back}
// CHECK:         return %[[X2]], %[[B]]
func.func @effects_stay(%x: !ts.tensor<f32, [4]>, %c: !ts.bool) -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) {
  %one = ts.prim.Constant[1] : !ts.int
  %msg = ts.prim.Constant["boom"] : !ts.str
  %none = ts.prim.Constant : !ts.none
  ts.prim.Print(%x) : !ts.tensor<f32, [4]>
  %0 = ts.aten.add_.Scalar %x, %one, %one : (!ts.tensor<f32, [4]>, !ts.int, !ts.int) -> !ts.tensor<f32, [4]>
  %a = ts.aten.add.Scalar %x, %one, %one : (!ts.tensor<f32, [4]>, !ts.int, !ts.int) -> !ts.tensor<f32, [4]>
  %1 = ts.aten.add_.Scalar %x, %one, %one : (!ts.tensor<f32, [4]>, !ts.int, !ts.int) -> !ts.tensor<f32, [4]>
  %b = ts.aten.add.Scalar %x, %one, %one : (!ts.tensor<f32, [4]>, !ts.int, !ts.int) -> !ts.tensor<f32, [4]>
  ts.prim.If %c {
    ts.prim.RaiseException %msg, %none : !ts.str, !ts.none
    ts.prim.Yield
  } else {
    ts.prim.Yield
  }
  return %a, %b : !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>
}

// -----

// Shapes flow in every round: once the argument's sizes are known, inferred
// types make `aten::size` and `aten::dim` constants, the view to the same
// shape folds, and the scalar arithmetic on them folds in the next round.
// CHECK-LABEL: func.func @shapes_then_fold(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor<f32, [8, 16]>) -> (!ts.tensor<f32, [8, 16]>, !ts.int)
// CHECK:         %[[N:.+]] = ts.prim.Constant[16] : !ts.int
// CHECK-NOT:     ts.aten.size
// CHECK-NOT:     ts.aten.dim
// CHECK-NOT:     ts.aten.view
// CHECK:         %[[E:.+]] = ts.aten.exp %[[X]] : (!ts.tensor<f32, [8, 16]>) -> !ts.tensor<f32, [8, 16]>
// CHECK:         return %[[E]], %[[N]] : !ts.tensor<f32, [8, 16]>, !ts.int
func.func @shapes_then_fold(%x: !ts.tensor<f32, [8, 16]>) -> (!ts.tensor, !ts.int) {
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %e = ts.aten.exp %x : (!ts.tensor<f32, [8, 16]>) -> !ts.tensor
  %a = ts.aten.size.int %e, %zero : (!ts.tensor, !ts.int) -> !ts.int
  %b = ts.aten.size.int %e, %one : (!ts.tensor, !ts.int) -> !ts.int
  %shape = ts.prim.ListConstruct %a, %b : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %v = ts.aten.view %e, %shape : (!ts.tensor, !ts.list<!ts.int>) -> !ts.tensor
  %d = ts.aten.dim %v : (!ts.tensor) -> !ts.int
  %n = ts.aten.mul.int %a, %d : (!ts.int, !ts.int) -> !ts.int
  return %v, %n : !ts.tensor, !ts.int
}

// -----

// In-place ops on fresh tensors become value semantics. `mul_` by a scalar
// keeps self's dtype and is rewritten at once; `add_` of a tensor of unknown
// dtype could promote, so it stays until its operands' dtypes are known.
// CHECK-LABEL: func.func @mutation_unknown_dtype(
// CHECK:         %[[Z:.+]] = ts.aten.clone
// CHECK-NEXT:    ts.aten.add_.Tensor %[[Z]]
// CHECK-NEXT:    %[[M:.+]] = ts.aten.mul.Scalar %[[Z]]
// CHECK-NOT:     ts.aten.type_as
// CHECK:         return %[[M]]
func.func @mutation_unknown_dtype(%x: !ts.tensor, %y: !ts.tensor) -> !ts.tensor {
  %none = ts.prim.Constant : !ts.none
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2.0] : !ts.float
  %z = ts.aten.clone %x, %none : (!ts.tensor, !ts.none) -> !ts.tensor
  %0 = ts.aten.add_.Tensor %z, %y, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
  %1 = ts.aten.mul_.Scalar %z, %two : (!ts.tensor, !ts.float) -> !ts.tensor
  return %z : !ts.tensor
}

// -----

// The same function with both dtypes known: `add_` is rewritten too, with no
// cast, since f32 + f32 stays f32.
// CHECK-LABEL: func.func @mutation_known_dtype(
// CHECK-NOT:     ts.aten.add_
// CHECK-NOT:     ts.aten.type_as
// CHECK:         %[[Z:.+]] = ts.aten.clone
// CHECK-NEXT:    %[[A:.+]] = ts.aten.add.Tensor %[[Z]]
// CHECK-NEXT:    %[[M:.+]] = ts.aten.mul.Scalar %[[A]]
// CHECK-NEXT:    return %[[M]]
func.func @mutation_known_dtype(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>) -> !ts.tensor {
  %none = ts.prim.Constant : !ts.none
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2.0] : !ts.float
  %z = ts.aten.clone %x, %none : (!ts.tensor<f32, [4]>, !ts.none) -> !ts.tensor
  %0 = ts.aten.add_.Tensor %z, %y, %one : (!ts.tensor, !ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor
  %1 = ts.aten.mul_.Scalar %z, %two : (!ts.tensor, !ts.float) -> !ts.tensor
  return %z : !ts.tensor
}
