// RUN: tsmlir-opt %s -split-input-file --ts-differentiate="func=f policy=save-all" --ts-optimize | FileCheck %s --check-prefix=SAVE
// RUN: tsmlir-opt %s -split-input-file --ts-differentiate="func=f policy=min-cut" --ts-optimize | FileCheck %s --check-prefix=CUT
// RUN: tsmlir-opt %s -split-input-file --ts-differentiate="func=f policy=save-all" --ts-optimize --ts-fusion-report="strategy=nnc output=-" -o /dev/null | FileCheck %s --check-prefix=SAVE-REPORT
// RUN: tsmlir-opt %s -split-input-file --ts-differentiate="func=f policy=min-cut" --ts-optimize --ts-fusion-report="strategy=nnc output=-" -o /dev/null | FileCheck %s --check-prefix=CUT-REPORT

// y = tanh(h * sigmoid(h)) + x, h = x @ w. save-all saves what the
// backward's formulas read, as PyTorch does: h, sigmoid(h) and tanh(...)
// (3 x 2 KiB). min-cut saves h alone (a matrix product is never
// recomputed) and the backward computes sigmoid, mul and tanh again from
// it. Both read x and w again as arguments.
// SAVE-LABEL: func.func @f_forward(
// SAVE-SAME:      -> (!ts.tensor<f32, [8, 64]>, !ts.tensor<f32, [8, 64]>, !ts.tensor<f32, [8, 64]>, !ts.tensor<f32, [8, 64]>)
// SAVE-SAME:      policy = "save-all", recomputed_ops = 0 : i64, saved_arguments = array<i64: 0, 1>, saved_bytes = 6144 : i64, saved_values = 3 : i64
// SAVE-LABEL: func.func @f_backward(
// SAVE-NOT:     ts.aten.sigmoid
// SAVE-NOT:     ts.aten.tanh
// SAVE:         return
//
// CUT-LABEL: func.func @f_forward(
// CUT-SAME:      %[[X:[^:]+]]: !ts.tensor<f32, [8, 64]>, %[[W:[^:]+]]: !ts.tensor<f32, [64, 64]>) -> (!ts.tensor<f32, [8, 64]>, !ts.tensor<f32, [8, 64]>)
// CUT-SAME:      policy = "min-cut", recomputed_ops = 3 : i64, saved_arguments = array<i64: 0, 1>, saved_bytes = 2048 : i64, saved_values = 1 : i64
// CUT:           %[[H:.+]] = ts.aten.mm %[[X]], %[[W]]
// CUT:           return %{{.+}}, %[[H]] :
// CUT-LABEL: func.func @f_backward(
// CUT-SAME:      %{{[^:]+}}: !ts.tensor<f32, [8, 64]>, %{{[^:]+}}: !ts.tensor<f32, [64, 64]>, %[[H:[^:]+]]: !ts.tensor<f32, [8, 64]>, %[[G:[^:]+]]: !ts.tensor<f32, [8, 64]>)
// CUT:           %[[S:.+]] = ts.aten.sigmoid %[[H]]
// CUT-NEXT:      %[[M:.+]] = ts.aten.mul.Tensor %[[H]], %[[S]]
// CUT-NEXT:      ts.aten.tanh %[[M]]
// CUT-NOT:       ts.aten.mm
// CUT:           return
//
// SAVE-REPORT: === @f_forward, strategy nnc ===
// SAVE-REPORT-NEXT: autodiff forward (save-all): saves 3 values (6144 B) for the backward, which also reads 2 arguments (18432 B) and recomputes 0 ops
// CUT-REPORT: === @f_forward, strategy nnc ===
// CUT-REPORT-NEXT: autodiff forward (min-cut): saves 1 values (2048 B) for the backward, which also reads 2 arguments (18432 B) and recomputes 3 ops
// CUT-REPORT: === @f_backward, strategy nnc ===
// CUT-REPORT-NOT: autodiff forward
// CUT-REPORT: summary nnc
func.func @f(%x: !ts.tensor<f32, [8, 64]>, %w: !ts.tensor<f32, [64, 64]>) -> !ts.tensor<f32, [8, 64]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.mm %x, %w : (!ts.tensor<f32, [8, 64]>, !ts.tensor<f32, [64, 64]>) -> !ts.tensor<f32, [8, 64]>
  %1 = ts.aten.sigmoid %0 : (!ts.tensor<f32, [8, 64]>) -> !ts.tensor<f32, [8, 64]>
  %2 = ts.aten.mul.Tensor %0, %1 : (!ts.tensor<f32, [8, 64]>, !ts.tensor<f32, [8, 64]>) -> !ts.tensor<f32, [8, 64]>
  %3 = ts.aten.tanh %2 : (!ts.tensor<f32, [8, 64]>) -> !ts.tensor<f32, [8, 64]>
  %4 = ts.aten.add.Tensor %3, %x, %int1 : (!ts.tensor<f32, [8, 64]>, !ts.tensor<f32, [8, 64]>, !ts.int) -> !ts.tensor<f32, [8, 64]>
  return %4 : !ts.tensor<f32, [8, 64]>
}

// -----

// Softmax is never recomputed (a reduction); its result, which its own
// formula reads, is saved under both policies. save-all also saves exp's
// result; min-cut computes exp again from the softmax.
// SAVE-LABEL: func.func @f_forward(
// SAVE-SAME:      saved_values = 2 : i64
// CUT-LABEL: func.func @f_forward(
// CUT-SAME:      saved_values = 1 : i64
// CUT:           %[[S:.+]] = ts.aten.softmax.int
// CUT:           return %{{.+}}, %[[S]] :
// CUT-LABEL: func.func @f_backward(
// CUT-NOT:       ts.aten.softmax.int
// CUT:           ts.aten.exp
// CUT:           return
func.func @f(%x: !ts.tensor<f32, [4, 16]>) -> !ts.tensor<f32, [4, 16]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.softmax.int %x, %int1, %none : (!ts.tensor<f32, [4, 16]>, !ts.int, !ts.none) -> !ts.tensor<f32, [4, 16]>
  %1 = ts.aten.exp %0 : (!ts.tensor<f32, [4, 16]>) -> !ts.tensor<f32, [4, 16]>
  %2 = ts.aten.mul.Tensor %1, %1 : (!ts.tensor<f32, [4, 16]>, !ts.tensor<f32, [4, 16]>) -> !ts.tensor<f32, [4, 16]>
  return %2 : !ts.tensor<f32, [4, 16]>
}
