// RUN: tsmlir-opt %s -split-input-file --ts-create-fusion-groups=strategy=pointwise | FileCheck %s --check-prefixes=CHECK,POINTWISE
// RUN: tsmlir-opt %s -split-input-file --ts-create-fusion-groups=strategy=nnc | FileCheck %s --check-prefixes=CHECK,NNC
// RUN: tsmlir-opt %s -split-input-file --ts-create-fusion-groups=strategy=nvfuser | FileCheck %s --check-prefixes=CHECK,NVFUSER
// RUN: tsmlir-opt %s -split-input-file --ts-create-fusion-groups=strategy=aggressive | FileCheck %s --check-prefixes=CHECK,AGGRESSIVE
// RUN: tsmlir-opt %s -split-input-file --ts-create-fusion-groups="strategy=pointwise min-size=3" | FileCheck %s --check-prefix=MIN3

// A pointwise chain with broadcasting ([4, 8] with [8]) and a scalar operand
// becomes one group in every strategy: its inputs are the two tensors, the
// constants it uses are copied in, and it yields the last value.
// CHECK-LABEL: func.func @pointwise_chain(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor<f32, [4, 8]>, %[[B:.+]]: !ts.tensor<f32, [8]>)
// CHECK-NEXT:    %[[G:.+]] = fusion.group {{[a-z]+}} (%[[X]], %[[B]]) : (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [8]>) -> !ts.tensor<f32, [4, 8]> {
// CHECK-NEXT:    ^bb0(%[[A0:.+]]: !ts.tensor<f32, [4, 8]>, %[[A1:.+]]: !ts.tensor<f32, [8]>):
// CHECK-DAG:       ts.prim.Constant[1] : !ts.int
// CHECK-DAG:       ts.prim.Constant[5.000000e-01] : !ts.float
// CHECK:           %[[S:.+]] = ts.aten.add.Tensor %[[A0]], %[[A1]]
// CHECK-NEXT:      %[[M:.+]] = ts.aten.mul.Scalar %[[S]]
// CHECK-NEXT:      %[[R:.+]] = ts.aten.relu %[[M]]
// CHECK-NEXT:      fusion.yield %[[R]] : !ts.tensor<f32, [4, 8]>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[G]]
// MIN3-LABEL: func.func @pointwise_chain(
// MIN3:          fusion.group pointwise
func.func @pointwise_chain(%x: !ts.tensor<f32, [4, 8]>, %b: !ts.tensor<f32, [8]>) -> !ts.tensor<f32, [4, 8]> {
  %one = ts.prim.Constant[1] : !ts.int
  %half = ts.prim.Constant[0.5] : !ts.float
  %s = ts.aten.add.Tensor %x, %b, %one : (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [8]>, !ts.int) -> !ts.tensor<f32, [4, 8]>
  %m = ts.aten.mul.Scalar %s, %half : (!ts.tensor<f32, [4, 8]>, !ts.float) -> !ts.tensor<f32, [4, 8]>
  %r = ts.aten.relu %m : (!ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 8]>
  return %r : !ts.tensor<f32, [4, 8]>
}

// -----

// softmax joins the group in nnc, nvfuser and aggressive; the pointwise
// fuser stops at it.
// CHECK-LABEL: func.func @softmax(
// POINTWISE:     %[[E:.+]] = fusion.group pointwise
// POINTWISE:       ts.aten.exp
// POINTWISE:       ts.aten.mul.Tensor
// POINTWISE:     ts.aten.softmax.int %[[E]]
// NNC:           fusion.group nnc
// NNC-NOT:       fusion.group
// NNC:             ts.aten.exp
// NNC:             ts.aten.softmax.int
// NNC:             fusion.yield
// NVFUSER:       fusion.group nvfuser
// NVFUSER:         ts.aten.softmax.int
// AGGRESSIVE:    fusion.group aggressive
// AGGRESSIVE:      ts.aten.softmax.int
func.func @softmax(%x: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 8]> {
  %dim = ts.prim.Constant[-1] : !ts.int
  %none = ts.prim.Constant : !ts.none
  %e = ts.aten.exp %x : (!ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 8]>
  %m = ts.aten.mul.Tensor %e, %x : (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 8]>
  %s = ts.aten.softmax.int %m, %dim, %none : (!ts.tensor<f32, [4, 8]>, !ts.int, !ts.none) -> !ts.tensor<f32, [4, 8]>
  return %s : !ts.tensor<f32, [4, 8]>
}

// -----

// A reduction with its pointwise producer and consumer: one group in
// nvfuser and aggressive; the others fuse around it. The consumer reads
// both the reduction and its input, which stays an input of the group.
// CHECK-LABEL: func.func @reduction(
// POINTWISE:     ts.aten.sum.dim_IntList
// POINTWISE-NOT: fusion.group
// NNC:           ts.aten.sum.dim_IntList
// NNC-NOT:       fusion.group
// NVFUSER:       fusion.group nvfuser (%{{.+}}) : (!ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 8]>
// NVFUSER:         ts.aten.exp
// NVFUSER:         ts.aten.sum.dim_IntList
// NVFUSER:         ts.aten.div.Tensor
// AGGRESSIVE:    fusion.group aggressive (%{{.+}}) : (!ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 8]>
func.func @reduction(%x: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 8]> {
  %dim = ts.prim.Constant[-1] : !ts.int
  %true = ts.prim.Constant[true] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %e = ts.aten.exp %x : (!ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 8]>
  %dims = ts.prim.ListConstruct %dim : (!ts.int) -> !ts.list<!ts.int>
  %s = ts.aten.sum.dim_IntList %e, %dims, %true, %none : (!ts.tensor<f32, [4, 8]>, !ts.list<!ts.int>, !ts.bool, !ts.none) -> !ts.tensor<f32, [4, 1]>
  %d = ts.aten.div.Tensor %e, %s : (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [4, 1]>) -> !ts.tensor<f32, [4, 8]>
  return %d : !ts.tensor<f32, [4, 8]>
}

// -----

// matmul with a bias and an activation. nnc takes the product into its
// group; aggressive makes it a group with its epilogue, and its operands stay
// outside (the tanh that produces one of them forms no group of its own);
// pointwise and nvfuser fuse the epilogue only.
// CHECK-LABEL: func.func @matmul_epilogue(
// POINTWISE:     ts.aten.matmul
// POINTWISE:     fusion.group pointwise
// POINTWISE-NOT:   ts.aten.matmul
// POINTWISE:       ts.aten.add.Tensor
// POINTWISE:       ts.aten.relu
// NNC:           fusion.group nnc
// NNC:             ts.aten.tanh
// NNC:             ts.aten.matmul
// NNC:             ts.aten.relu
// NVFUSER:       ts.aten.matmul
// NVFUSER:       fusion.group nvfuser
// AGGRESSIVE:    %[[T:.+]] = ts.aten.tanh
// AGGRESSIVE:    fusion.group aggressive (%[[T]], %{{.+}}, %{{.+}})
// AGGRESSIVE:      ts.aten.matmul
// AGGRESSIVE:      ts.aten.add.Tensor
// AGGRESSIVE:      ts.aten.relu
func.func @matmul_epilogue(%x: !ts.tensor<f32, [4, 8]>, %w: !ts.tensor<f32, [8, 16]>, %b: !ts.tensor<f32, [16]>) -> !ts.tensor<f32, [4, 16]> {
  %one = ts.prim.Constant[1] : !ts.int
  %t = ts.aten.tanh %x : (!ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 8]>
  %p = ts.aten.matmul %t, %w : (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [8, 16]>) -> !ts.tensor<f32, [4, 16]>
  %a = ts.aten.add.Tensor %p, %b, %one : (!ts.tensor<f32, [4, 16]>, !ts.tensor<f32, [16]>, !ts.int) -> !ts.tensor<f32, [4, 16]>
  %r = ts.aten.relu %a : (!ts.tensor<f32, [4, 16]>) -> !ts.tensor<f32, [4, 16]>
  return %r : !ts.tensor<f32, [4, 16]>
}

// -----

// A cycle: %a feeds the sum, which no pointwise group may hold, and %c reads
// both. Grouping %a with %c would make the group need the sum, which needs
// the group; so %a stays out and, alone, %c forms no group. With a
// reduction-capable strategy all three are one group.
// CHECK-LABEL: func.func @cycle(
// POINTWISE-NOT: fusion.group
// NNC-NOT:       fusion.group
// NVFUSER:       fusion.group nvfuser
// NVFUSER:         ts.aten.relu
// NVFUSER:         ts.aten.sum
// NVFUSER:         ts.aten.add.Tensor
func.func @cycle(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %one = ts.prim.Constant[1] : !ts.int
  %none = ts.prim.Constant : !ts.none
  %a = ts.aten.relu %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %s = ts.aten.sum %a, %none : (!ts.tensor<f32, [4]>, !ts.none) -> !ts.tensor<f32, []>
  %c = ts.aten.add.Tensor %a, %s, %one : (!ts.tensor<f32, [4]>, !ts.tensor<f32, []>, !ts.int) -> !ts.tensor<f32, [4]>
  return %c : !ts.tensor<f32, [4]>
}

// -----

// Side effects: an in-place op is never grouped, and no group moves a read
// of %x across the write to it: relu(x) stays before add_, sigmoid after.
// The print stays where it is. Pure ops on the other side of the write group
// among themselves.
// CHECK-LABEL: func.func @side_effects(
// CHECK:         %[[R:.+]] = ts.aten.relu %{{.+}}
// CHECK-NEXT:    ts.aten.add_.Scalar
// CHECK-NEXT:    ts.prim.Print
// CHECK-NEXT:    fusion.group
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      ts.aten.sigmoid
// CHECK-NEXT:      ts.aten.neg
func.func @side_effects(%x: !ts.tensor<f32, [4]>) -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) {
  %one = ts.prim.Constant[1] : !ts.int
  %r = ts.aten.relu %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %w = ts.aten.add_.Scalar %x, %one, %one : (!ts.tensor<f32, [4]>, !ts.int, !ts.int) -> !ts.tensor<f32, [4]>
  ts.prim.Print(%x) : !ts.tensor<f32, [4]>
  %s = ts.aten.sigmoid %r : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %n = ts.aten.neg %s : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %r, %n : !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>
}

// -----

// Control flow: each branch is planned on its own, and no group takes ops
// from both sides of the prim::If.
// CHECK-LABEL: func.func @control_flow(
// CHECK:         %[[OUT:.+]] = fusion.group
// CHECK:           ts.aten.exp
// CHECK:           ts.aten.neg
// CHECK:         ts.prim.If
// CHECK:           fusion.group
// CHECK:             ts.aten.sin
// CHECK:             ts.aten.cos
// CHECK:           ts.prim.Yield
// CHECK:         } else {
// CHECK-NOT:       fusion.group
// CHECK:           ts.aten.relu
// CHECK:           ts.prim.Yield
func.func @control_flow(%x: !ts.tensor<f32, [4]>, %c: !ts.bool) -> !ts.tensor<f32, [4]> {
  %e = ts.aten.exp %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %n = ts.aten.neg %e : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %r = ts.prim.If %c -> (!ts.tensor<f32, [4]>) {
    %s = ts.aten.sin %n : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
    %t = ts.aten.cos %s : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
    ts.prim.Yield %t : !ts.tensor<f32, [4]>
  } else {
    %u = ts.aten.relu %n : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
    ts.prim.Yield %u : !ts.tensor<f32, [4]>
  }
  return %r : !ts.tensor<f32, [4]>
}

// -----

// Unknown shapes: nothing is grouped where a tensor's rank or dtype is not
// known. Dynamic sizes (`?`, a dynamic specialisation) are grouped: the
// lowering takes them for pointwise ops, reductions and softmax.
// CHECK-LABEL: func.func @unknown_shape(
// CHECK:         fusion.group {{.+}} : (!ts.tensor<f32, [?, 4]>) -> !ts.tensor<f32, [?, 4]>
// CHECK:           ts.aten.exp
// CHECK:           ts.aten.neg
// CHECK-NOT:     fusion.group
// CHECK:         return
func.func @unknown_shape(%x: !ts.tensor<f32, [?, 4]>, %y: !ts.tensor) -> (!ts.tensor<f32, [?, 4]>, !ts.tensor) {
  %a = ts.aten.exp %x : (!ts.tensor<f32, [?, 4]>) -> !ts.tensor<f32, [?, 4]>
  %b = ts.aten.neg %a : (!ts.tensor<f32, [?, 4]>) -> !ts.tensor<f32, [?, 4]>
  %c = ts.aten.exp %y : (!ts.tensor) -> !ts.tensor
  %d = ts.aten.neg %c : (!ts.tensor) -> !ts.tensor
  return %b, %d : !ts.tensor<f32, [?, 4]>, !ts.tensor
}

// -----

// Several outputs: a value of the group used after it is yielded too.
// Independent chains reading the same input merge into one group only in
// aggressive (horizontal fusion).
// CHECK-LABEL: func.func @outputs_and_siblings(
// POINTWISE:     %[[G:.+]]:2 = fusion.group pointwise
// POINTWISE:       ts.aten.exp
// POINTWISE:       ts.aten.neg
// POINTWISE:       fusion.yield %{{.+}}, %{{.+}} : !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>
// POINTWISE:     fusion.group pointwise
// POINTWISE:       ts.aten.sin
// POINTWISE:       ts.aten.cos
// AGGRESSIVE:    fusion.group aggressive
// AGGRESSIVE-NOT: fusion.group
// AGGRESSIVE:      ts.aten.exp
// AGGRESSIVE:      ts.aten.sin
// AGGRESSIVE:      fusion.yield %{{.+}}, %{{.+}}, %{{.+}} : !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>
// With min-size=3, the two chains of two form no group.
// MIN3-LABEL: func.func @outputs_and_siblings(
// MIN3-NOT:      fusion.group
func.func @outputs_and_siblings(%x: !ts.tensor<f32, [4]>) -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) {
  %e = ts.aten.exp %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %n = ts.aten.neg %e : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %s = ts.aten.sin %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %c = ts.aten.cos %s : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %e, %n, %c : !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>
}

// -----

// One op alone is no group (min-size=2).
// CHECK-LABEL: func.func @too_small(
// CHECK-NOT:     fusion.group
func.func @too_small(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %e = ts.aten.exp %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %e : !ts.tensor<f32, [4]>
}
