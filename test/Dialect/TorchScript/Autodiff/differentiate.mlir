// RUN: tsmlir-opt %s -split-input-file --ts-differentiate="func=f joint=true" | FileCheck %s --check-prefix=JOINT
// RUN: tsmlir-opt %s -split-input-file --ts-differentiate="func=f" | FileCheck %s --check-prefix=SPLIT
// RUN: tsmlir-opt %s -split-input-file --ts-differentiate="func=f joint=true" --ts-optimize | FileCheck %s --check-prefix=OPT

// y = x * w + x: dx = g * w + g, dw = g * x. The joint form takes the
// upstream gradient after the arguments and returns the arguments'
// gradients after the result.
// JOINT-LABEL: func.func @f(
// JOINT-SAME:      %[[X:[^:]+]]: !ts.tensor<f32, [3]>, %[[W:[^:]+]]: !ts.tensor<f32, [3]>, %[[G:[^:]+]]: !ts.tensor<f32, [3]>)
// JOINT:         %[[Y:.+]] = ts.aten.add.Tensor
// JOINT:         %[[GX1:.+]] = ts.aten.mul.Tensor %[[G]], %[[W]]
// JOINT:         %[[GX:.+]] = ts.aten.add.Tensor %[[G]], %[[GX1]]
// JOINT:         %[[GW:.+]] = ts.aten.mul.Tensor %[[G]], %[[X]]
// JOINT:         return %[[Y]], %[[GX]], %[[GW]]
//
// The split form: the backward reads the arguments x and w, which it takes
// again (in argument order) before the upstream gradient: the forward saves
// nothing.
// SPLIT-LABEL: func.func @f_forward(
// SPLIT-SAME:      %[[X:[^:]+]]: !ts.tensor<f32, [3]>, %[[W:[^:]+]]: !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]>
// SPLIT-SAME:      ts.autodiff = {argument_bytes = 24 : i64, policy = "min-cut", recomputed_ops = 0 : i64, saved_arguments = array<i64: 0, 1>, saved_bytes = 0 : i64, saved_values = 0 : i64}
// SPLIT:         ts.aten.mul.Tensor
// SPLIT:         ts.prim.Constant[1]
// SPLIT-NOT:     ts.prim.Constant
// SPLIT:         return %{{[^,]+}} :
// SPLIT-LABEL: func.func @f_backward(
// SPLIT-SAME:      %[[X:[^:]+]]: !ts.tensor<f32, [3]>, %[[W:[^:]+]]: !ts.tensor<f32, [3]>, %[[G:[^:]+]]: !ts.tensor<f32, [3]>)
// SPLIT-NOT:     ts.aten.mul.Tensor %[[X]], %[[W]]
// SPLIT:         ts.aten.mul.Tensor %[[G]], %[[W]]
// SPLIT:         ts.aten.mul.Tensor %[[G]], %[[X]]
// SPLIT:         return
// SPLIT-NOT:     func.func @f(
//
// OPT-LABEL: func.func @f(
// OPT:         return {{.*}} : !ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>
func.func @f(%x: !ts.tensor<f32, [3]>, %w: !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.mul.Tensor %x, %w : (!ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]>
  %1 = ts.aten.add.Tensor %0, %x, %int1 : (!ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>, !ts.int) -> !ts.tensor<f32, [3]>
  return %1 : !ts.tensor<f32, [3]>
}

// -----

// A broadcast operand's gradient is summed back to its sizes; an integer
// argument has none (nor is its gradient built). The split form's backward
// takes the integer argument it multiplies by.
// JOINT-LABEL: func.func @f(
// JOINT-SAME:      %[[N:[^:]+]]: !ts.tensor<si64, [4]>, %[[G:[^:]+]]: !ts.tensor<f32, [2, 4]>)
// JOINT:         %[[GX:.+]] = ts.aten.mul.Tensor %[[G]], %[[N]]
// JOINT-NEXT:    ts.prim.Constant[4]
// JOINT-NEXT:    %[[SIZES:.+]] = ts.prim.ListConstruct
// JOINT-NEXT:    %[[GB:.+]] = ts.aten.sum_to_size %[[GX]], %[[SIZES]] : (!ts.tensor, !ts.list<!ts.int>)
// JOINT-NEXT:    return %{{.+}}, %[[GX]], %[[GB]]
// SPLIT-LABEL: func.func @f_forward(
// SPLIT-SAME:      saved_arguments = array<i64: 2>
// SPLIT:         return %{{[^,]+}} : !ts.tensor<f32, [2, 4]>
// SPLIT-LABEL: func.func @f_backward(
// SPLIT-SAME:      %{{.+}}: !ts.tensor<si64, [4]>, %{{.+}}: !ts.tensor<f32, [2, 4]>) -> (!ts.tensor, !ts.tensor)
// OPT-LABEL: func.func @f(
// OPT:         return {{.*}} : !ts.tensor<f32, [2, 4]>, !ts.tensor<f32, [2, 4]>, !ts.tensor<f32, [4]>
func.func @f(%x: !ts.tensor<f32, [2, 4]>, %b: !ts.tensor<f32, [4]>, %n: !ts.tensor<si64, [4]>) -> !ts.tensor<f32, [2, 4]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.add.Tensor %x, %b, %int1 : (!ts.tensor<f32, [2, 4]>, !ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [2, 4]>
  %1 = ts.aten.mul.Tensor %0, %n : (!ts.tensor<f32, [2, 4]>, !ts.tensor<si64, [4]>) -> !ts.tensor<f32, [2, 4]>
  return %1 : !ts.tensor<f32, [2, 4]>
}

// -----

// A conditional's backward is a conditional on the same condition; each
// branch computes its forward again and yields the gradients of the
// values it reads from outside.
// JOINT-LABEL: func.func @f(
// JOINT:         %[[Y:.+]] = ts.prim.If %arg1 -> (!ts.tensor<f32, [3]>)
// JOINT:         %[[B:.+]] = ts.prim.If %arg1 -> (!ts.tensor) {
// JOINT-NEXT:      %[[COS:.+]] = ts.aten.cos %arg0
// JOINT-NEXT:      %[[D:.+]] = ts.aten.mul.Tensor %arg2, %[[COS]]
// JOINT-NEXT:      ts.prim.Yield %[[D]]
// JOINT-NEXT:    } else {
// JOINT-NEXT:      ts.prim.Yield %arg2
// JOINT:         return %[[Y]], %[[B]]
func.func @f(%x: !ts.tensor<f32, [3]>, %c: !ts.bool) -> !ts.tensor<f32, [3]> {
  %0 = ts.prim.If %c -> (!ts.tensor<f32, [3]>) {
    %1 = ts.aten.sin %x : (!ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]>
    ts.prim.Yield %1 : !ts.tensor<f32, [3]>
  } else {
    ts.prim.Yield %x : !ts.tensor<f32, [3]>
  }
  return %0 : !ts.tensor<f32, [3]>
}
