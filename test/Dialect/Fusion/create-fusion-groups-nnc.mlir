// RUN: tsmlir-opt %s --split-input-file --ts-create-fusion-groups=strategy=nnc | FileCheck %s

// The nnc strategy on what PyTorch's NNC fuses (nnc-vs-pytorch.test compares
// the two on the corpus).

// A cat takes in the list its operands are gathered in, and the op producing
// one of them: prim::ListConstruct allocates its list, which neither writes
// memory nor keeps reads from moving across it (cat_stack in the corpus).

// CHECK-LABEL: func.func @cat_of_product(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor<f32, [64, 128]>, %[[Y:.+]]: !ts.tensor<f32, [64, 128]>)
// CHECK:         %[[G:.+]] = fusion.group nnc (%[[Y]], %[[X]])
// CHECK-NEXT:    ^bb0(%[[B:.+]]: !ts.tensor<f32, [64, 128]>, %[[A:.+]]: !ts.tensor<f32, [64, 128]>):
// CHECK:           %[[M:.+]] = ts.aten.mul.Scalar %[[B]], %{{.+}}
// CHECK-NEXT:      %[[L:.+]] = ts.prim.ListConstruct %[[A]], %[[M]]
// CHECK-NEXT:      %[[C:.+]] = ts.aten.cat %[[L]], %{{.+}}
// CHECK-NEXT:      fusion.yield %[[C]] : !ts.tensor<f32, [128, 128]>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[G]]
func.func @cat_of_product(%x: !ts.tensor<f32, [64, 128]>, %y: !ts.tensor<f32, [64, 128]>) -> !ts.tensor<f32, [128, 128]> {
  %zero = ts.prim.Constant[0] : !ts.int
  %two = ts.prim.Constant[2.0] : !ts.float
  %m = ts.aten.mul.Scalar %y, %two : (!ts.tensor<f32, [64, 128]>, !ts.float) -> !ts.tensor<f32, [64, 128]>
  %l = ts.prim.ListConstruct %x, %m : (!ts.tensor<f32, [64, 128]>, !ts.tensor<f32, [64, 128]>) -> !ts.list<!ts.tensor<f32, [64, 128]>>
  %c = ts.aten.cat %l, %zero : (!ts.list<!ts.tensor<f32, [64, 128]>>, !ts.int) -> !ts.tensor<f32, [128, 128]>
  return %c : !ts.tensor<f32, [128, 128]>
}

// -----

// A list construction between a producer and its group's last op does not
// keep the producer out either (the group moves the relu past it).

// CHECK-LABEL: func.func @list_between(
// CHECK:         %[[L:.+]] = ts.prim.ListConstruct
// CHECK-NEXT:    %[[G:.+]] = fusion.group nnc
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      ts.aten.relu
// CHECK-NEXT:      ts.aten.sigmoid
// CHECK-NEXT:      fusion.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[G]], %[[L]]
func.func @list_between(%x: !ts.tensor<f32, [4]>) -> (!ts.tensor<f32, [4]>, !ts.list<!ts.tensor<f32, [4]>>) {
  %r = ts.aten.relu %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %l = ts.prim.ListConstruct %x : (!ts.tensor<f32, [4]>) -> !ts.list<!ts.tensor<f32, [4]>>
  %s = ts.aten.sigmoid %r : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %s, %l : !ts.tensor<f32, [4]>, !ts.list<!ts.tensor<f32, [4]>>
}

// -----

// A group in a prim::If body that reads the result of a group of the
// enclosing block takes the outer group's result in as an input (the outer
// group is formed first; f1_sin_matmul_if in the corpus). The matmul fuses
// with the sin that feeds it, as in PyTorch's NNC.

// CHECK-LABEL: func.func @group_feeds_if_body(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor<f32, [64, 128]>, %[[W:.+]]: !ts.tensor<f32, [128, 32]>, %[[C:.+]]: !ts.bool)
// CHECK:         %[[OUT:.+]]:2 = fusion.group nnc (%[[X]], %[[W]])
// CHECK:           %[[S:.+]] = ts.aten.sin
// CHECK-NEXT:      %[[M:.+]] = ts.aten.matmul %[[S]]
// CHECK-NEXT:      fusion.yield %[[S]], %[[M]]
// CHECK:         ts.prim.If %[[C]]
// CHECK-NEXT:      %[[T:.+]] = ts.aten.sum %[[OUT]]#0
// CHECK-NEXT:      %[[IN:.+]] = fusion.group nnc (%[[OUT]]#1, %[[T]])
// CHECK-NEXT:      ^bb0(%[[B:.+]]: !ts.tensor<f32, [64, 32]>, %[[TA:.+]]: !ts.tensor<f32, []>):
// CHECK:             %[[R:.+]] = ts.aten.relu %[[B]]
// CHECK-NEXT:        ts.aten.add.Tensor %[[R]], %[[TA]]
// CHECK:           ts.prim.Yield %[[IN]]
// CHECK:         } else {
// CHECK-NEXT:      ts.prim.Yield %[[OUT]]#1
func.func @group_feeds_if_body(%x: !ts.tensor<f32, [64, 128]>, %w: !ts.tensor<f32, [128, 32]>, %c: !ts.bool) -> (!ts.tensor<f32, [64, 32]>, !ts.tensor<f32, [64, 128]>) {
  %one = ts.prim.Constant[1] : !ts.int
  %none = ts.prim.Constant : !ts.none
  %a = ts.aten.sin %x : (!ts.tensor<f32, [64, 128]>) -> !ts.tensor<f32, [64, 128]>
  %b = ts.aten.matmul %a, %w : (!ts.tensor<f32, [64, 128]>, !ts.tensor<f32, [128, 32]>) -> !ts.tensor<f32, [64, 32]>
  %r = ts.prim.If %c -> (!ts.tensor<f32, [64, 32]>) {
    %t = ts.aten.sum %a, %none : (!ts.tensor<f32, [64, 128]>, !ts.none) -> !ts.tensor<f32, []>
    %relu = ts.aten.relu %b : (!ts.tensor<f32, [64, 32]>) -> !ts.tensor<f32, [64, 32]>
    %s = ts.aten.add.Tensor %relu, %t, %one : (!ts.tensor<f32, [64, 32]>, !ts.tensor<f32, []>, !ts.int) -> !ts.tensor<f32, [64, 32]>
    ts.prim.Yield %s : !ts.tensor<f32, [64, 32]>
  } else {
    ts.prim.Yield %b : !ts.tensor<f32, [64, 32]>
  }
  return %r, %a : !ts.tensor<f32, [64, 32]>, !ts.tensor<f32, [64, 128]>
}
