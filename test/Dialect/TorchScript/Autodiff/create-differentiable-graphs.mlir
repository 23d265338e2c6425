// RUN: tsmlir-opt %s -split-input-file --ts-create-differentiable-graphs | FileCheck %s
// RUN: tsmlir-opt %s -split-input-file --ts-create-differentiable-graphs --ts-differentiate="graphs=true policy=save-all" | FileCheck %s --check-prefix=DIFF
// RUN: tsmlir-opt %s -split-input-file --ts-create-differentiable-graphs="min-size=5" | FileCheck %s --check-prefix=BIG

// One graph of the four differentiable ops: exp(w) reads only a tensor
// typed requires_grad = false, writes nothing and reads nothing of the
// run, so it moves before the graph; the conditional ends the run, and
// the lone neg in its branch is below min-size. The backward region takes
// the result's gradient, then the saved values (the inputs w and n, and
// the tanh and sigmoid results save-all keeps), and yields x's gradient, None for w (requires_grad = false) and
// None for the integer tensor n.
// CHECK-LABEL: func.func @f(
// CHECK:         %[[E:.+]] = ts.aten.exp %arg1
// CHECK-NEXT:    %[[G:.+]] = fusion.differentiable_graph(%arg0, %arg1, %arg2)
// CHECK:           ts.aten.sigmoid
// CHECK-NEXT:      ts.aten.mul.Tensor
// CHECK-NEXT:      ts.aten.mul.Tensor
// CHECK-NEXT:      ts.aten.tanh
// CHECK-NEXT:      fusion.yield
// CHECK:         ts.prim.If
// CHECK-NOT:       fusion.differentiable_graph
// CHECK:           ts.aten.neg
// CHECK:         return %[[G]],
//
// DIFF-LABEL: func.func @f(
// DIFF:         fusion.differentiable_graph(%arg0, %arg1, %arg2) {num_saved = 4 : i64}
// DIFF:           %[[S:.+]] = ts.aten.sigmoid %arg4
// DIFF:           %[[T:.+]] = ts.aten.tanh
// DIFF:           fusion.yield %[[T]], %arg5, %arg6, %[[T]], %[[S]] :
// DIFF:         } backward {
// DIFF-NEXT:    ^bb0(%[[GRAD:[^:]+]]: !ts.tensor<f32, [4]>,
// DIFF-NOT:       ts.aten.sigmoid
// DIFF:           fusion.yield %{{.+}}, %{{.+}}, %{{.+}} : !ts.tensor, !ts.none, !ts.none
//
// BIG-LABEL: func.func @f(
// BIG-NOT:     fusion.differentiable_graph
func.func @f(%x: !ts.tensor<f32, [4]>, %w: !ts.tensor<f32, [4], requires_grad = false>, %n: !ts.tensor<si64, [4]>, %c: !ts.bool) -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) {
  %int1 = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.sigmoid %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %1 = ts.aten.mul.Tensor %0, %w : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4], requires_grad = false>) -> !ts.tensor<f32, [4]>
  %w2 = ts.aten.exp %w : (!ts.tensor<f32, [4], requires_grad = false>) -> !ts.tensor<f32, [4], requires_grad = false>
  %2 = ts.aten.mul.Tensor %1, %n : (!ts.tensor<f32, [4]>, !ts.tensor<si64, [4]>) -> !ts.tensor<f32, [4]>
  %3 = ts.aten.tanh %2 : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %4 = ts.prim.If %c -> (!ts.tensor<f32, [4]>) {
    ts.prim.Yield %3 : !ts.tensor<f32, [4]>
  } else {
    %5 = ts.aten.neg %3 : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
    ts.prim.Yield %5 : !ts.tensor<f32, [4]>
  }
  %6 = ts.aten.add.Tensor %4, %w2, %int1 : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4], requires_grad = false>, !ts.int) -> !ts.tensor<f32, [4]>
  return %3, %6 : !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>
}

// -----

// An op that writes ends the run (an in-place add, which mutation removal
// had not turned into add), and a value typed requires_grad = false is
// never grouped: two graphs around the in-place op, none for v, whose ops
// move before the second graph.
// CHECK-LABEL: func.func @g(
// CHECK:         fusion.differentiable_graph(%arg0)
// CHECK:           ts.aten.sin
// CHECK:           ts.aten.cos
// CHECK:         %[[A:.+]] = ts.aten.add_.Tensor
// CHECK-NEXT:    ts.aten.sin %arg1
// CHECK-NEXT:    ts.aten.cos
// CHECK-NEXT:    fusion.differentiable_graph(%[[A]])
// CHECK:           ts.aten.exp
// CHECK:           ts.aten.log
func.func @g(%x: !ts.tensor<f32, [4]>, %v: !ts.tensor<f32, [4], requires_grad = false>) -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4], requires_grad = false>) {
  %int1 = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.sin %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %1 = ts.aten.cos %0 : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %2 = ts.aten.add_.Tensor %1, %x, %int1 : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %3 = ts.aten.exp %2 : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %4 = ts.aten.log %3 : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %5 = ts.aten.sin %v : (!ts.tensor<f32, [4], requires_grad = false>) -> !ts.tensor<f32, [4], requires_grad = false>
  %6 = ts.aten.cos %5 : (!ts.tensor<f32, [4], requires_grad = false>) -> !ts.tensor<f32, [4], requires_grad = false>
  return %4, %6 : !ts.tensor<f32, [4]>, !ts.tensor<f32, [4], requires_grad = false>
}
