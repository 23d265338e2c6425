// RUN: tsmlir-opt %s | tsmlir-opt | FileCheck %s
// RUN: tsmlir-opt %s -mlir-print-op-generic | tsmlir-opt | FileCheck %s

// Round trip of every fusion op, on ts types and on builtin tensors.

//===----------------------------------------------------------------------===//
// fusion.group
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @group_nnc(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor<f32, [4]>, %[[Y:.+]]: !ts.tensor<f32, [4]>)
func.func @group_nnc(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  // CHECK: %[[R:.+]] = fusion.group nnc (%[[X]], %[[Y]]) : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  // CHECK-NEXT: ^bb0(%[[A:.+]]: !ts.tensor<f32, [4]>, %[[B:.+]]: !ts.tensor<f32, [4]>):
  // CHECK-NEXT:   %[[ONE:.+]] = ts.prim.Constant[1] : !ts.int
  // CHECK-NEXT:   %[[S:.+]] = ts.aten.add.Tensor %[[A]], %[[B]], %[[ONE]]
  // CHECK-NEXT:   fusion.yield %[[S]] : !ts.tensor<f32, [4]>
  // CHECK-NEXT: }
  %r = fusion.group nnc (%x, %y) : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  ^bb0(%a: !ts.tensor<f32, [4]>, %b: !ts.tensor<f32, [4]>):
    %one = ts.prim.Constant[1] : !ts.int
    %s = ts.aten.add.Tensor %a, %b, %one : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
    fusion.yield %s : !ts.tensor<f32, [4]>
  }
  // CHECK: return %[[R]]
  return %r : !ts.tensor<f32, [4]>
}

// Every strategy PyTorch's fusers use, and an optional name.
// CHECK-LABEL: func.func @group_strategies(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor)
func.func @group_strategies(%x: !ts.tensor) -> !ts.tensor {
  // CHECK: %[[P:.+]] = fusion.group pointwise (%[[X]]) : (!ts.tensor) -> !ts.tensor {
  %p = fusion.group pointwise (%x) : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    %s = ts.aten.sigmoid %a : (!ts.tensor) -> !ts.tensor
    fusion.yield %s : !ts.tensor
  }
  // CHECK: %[[N:.+]] = fusion.group nvfuser (%[[P]]) {name = "CudaFusionGroup_0"} : (!ts.tensor) -> !ts.tensor {
  %n = fusion.group nvfuser (%p) {name = "CudaFusionGroup_0"} : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    %s = ts.aten.relu %a : (!ts.tensor) -> !ts.tensor
    fusion.yield %s : !ts.tensor
  }
  // CHECK: %[[G:.+]] = fusion.group aggressive (%[[N]]) : (!ts.tensor) -> !ts.tensor {
  %g = fusion.group aggressive (%n) : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    %s = ts.aten.tanh %a : (!ts.tensor) -> !ts.tensor
    fusion.yield %s : !ts.tensor
  }
  // CHECK: %[[T:.+]] = fusion.group pointwise (%[[G]]) {name = "prim::FusionGroup"} : (!ts.tensor) -> !ts.tensor {
  %t = fusion.group pointwise (%g) {name = "prim::FusionGroup"} : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    %s = ts.aten.neg %a : (!ts.tensor) -> !ts.tensor
    fusion.yield %s : !ts.tensor
  }
  // CHECK: return %[[T]]
  return %t : !ts.tensor
}

// Several results, of different types.
// CHECK-LABEL: func.func @group_multiple_results(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor<f32, [2, 3]>)
func.func @group_multiple_results(%x: !ts.tensor<f32, [2, 3]>) -> (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.int) {
  // CHECK: %[[R:.+]]:3 = fusion.group nnc (%[[X]]) : (!ts.tensor<f32, [2, 3]>) -> (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.int) {
  // CHECK-NEXT: ^bb0(%[[A:.+]]: !ts.tensor<f32, [2, 3]>):
  // CHECK:        fusion.yield %{{.+}}, %{{.+}}, %{{.+}} : !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.int
  %r:3 = fusion.group nnc (%x) : (!ts.tensor<f32, [2, 3]>) -> (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.int) {
  ^bb0(%a: !ts.tensor<f32, [2, 3]>):
    %e = ts.aten.exp %a : (!ts.tensor<f32, [2, 3]>) -> !ts.tensor<f32, [2, 3]>
    %s = ts.aten.sigmoid %a : (!ts.tensor<f32, [2, 3]>) -> !ts.tensor<f32, [2, 3]>
    %two = ts.prim.Constant[2] : !ts.int
    fusion.yield %e, %s, %two : !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.int
  }
  // CHECK: return %[[R]]#0, %[[R]]#1, %[[R]]#2
  return %r#0, %r#1, %r#2 : !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.int
}

// A group yields types that refine its result types.
// CHECK-LABEL: func.func @group_refined_yield(
func.func @group_refined_yield(%x: !ts.tensor<f32, [8]>) -> !ts.tensor {
  // CHECK: fusion.group nnc (%{{.+}}) : (!ts.tensor<f32, [8]>) -> !ts.tensor {
  // CHECK:   fusion.yield %{{.+}} : !ts.tensor<f32, [8]>
  %r = fusion.group nnc (%x) : (!ts.tensor<f32, [8]>) -> !ts.tensor {
  ^bb0(%a: !ts.tensor<f32, [8]>):
    %s = ts.aten.sigmoid %a : (!ts.tensor<f32, [8]>) -> !ts.tensor<f32, [8]>
    fusion.yield %s : !ts.tensor<f32, [8]>
  }
  return %r : !ts.tensor
}

// No inputs (a group of constants), and no results at all (the yield is
// implicit).
// CHECK-LABEL: func.func @group_zero_inputs(
func.func @group_zero_inputs() -> !ts.tensor<f32, [2]> {
  // CHECK: %[[R:.+]] = fusion.group nnc () : () -> !ts.tensor<f32, [2]> {
  // CHECK-NEXT:   %[[C:.+]] = ts.prim.Constant[dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>] : !ts.tensor<f32, [2]>
  // CHECK-NEXT:   fusion.yield %[[C]] : !ts.tensor<f32, [2]>
  // CHECK-NEXT: }
  %r = fusion.group nnc () : () -> !ts.tensor<f32, [2]> {
    %c = ts.prim.Constant[dense<[1.0, 2.0]> : tensor<2xf32>] : !ts.tensor<f32, [2]>
    fusion.yield %c : !ts.tensor<f32, [2]>
  }
  // CHECK: fusion.group pointwise () : () -> () {
  // CHECK-NEXT: }
  fusion.group pointwise () : () -> () {
  }
  // CHECK: return %[[R]]
  return %r : !ts.tensor<f32, [2]>
}

// After lowering, groups hold builtin tensors and other dialects' ops.
// CHECK-LABEL: func.func @group_builtin(
// CHECK-SAME:      %[[X:.+]]: tensor<4x?xf32>, %[[Y:.+]]: tensor<4x?xf32>)
func.func @group_builtin(%x: tensor<4x?xf32>, %y: tensor<4x?xf32>) -> (tensor<4x?xf32>, tensor<*xf32>) {
  // CHECK: %[[R:.+]]:2 = fusion.group pointwise (%[[X]], %[[Y]]) {name = "fused"} : (tensor<4x?xf32>, tensor<4x?xf32>) -> (tensor<4x?xf32>, tensor<*xf32>) {
  // CHECK-NEXT: ^bb0(%[[A:.+]]: tensor<4x?xf32>, %[[B:.+]]: tensor<4x?xf32>):
  // CHECK-NEXT:   %[[S:.+]] = arith.addf %[[A]], %[[B]] : tensor<4x?xf32>
  // CHECK-NEXT:   fusion.yield %[[S]], %[[B]] : tensor<4x?xf32>, tensor<4x?xf32>
  %r:2 = fusion.group pointwise (%x, %y) {name = "fused"} : (tensor<4x?xf32>, tensor<4x?xf32>) -> (tensor<4x?xf32>, tensor<*xf32>) {
  ^bb0(%a: tensor<4x?xf32>, %b: tensor<4x?xf32>):
    %s = arith.addf %a, %b : tensor<4x?xf32>
    fusion.yield %s, %b : tensor<4x?xf32>, tensor<4x?xf32>
  }
  // CHECK: return %[[R]]#0, %[[R]]#1
  return %r#0, %r#1 : tensor<4x?xf32>, tensor<*xf32>
}

//===----------------------------------------------------------------------===//
// fusion.guard
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @guard_one(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor)
func.func @guard_one(%x: !ts.tensor) -> (!ts.tensor<f32, [64, 128]>, i1) {
  // CHECK: %[[XS:.+]], %[[OK:.+]] = fusion.guard %[[X]] : (!ts.tensor) -> (!ts.tensor<f32, [64, 128]>, i1)
  %xs, %ok = fusion.guard %x : (!ts.tensor) -> (!ts.tensor<f32, [64, 128]>, i1)
  // CHECK: return %[[XS]], %[[OK]]
  return %xs, %ok : !ts.tensor<f32, [64, 128]>, i1
}

// Several inputs, fully and partly refined, and an input left as it is.
// CHECK-LABEL: func.func @guard_several(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor, %[[Y:.+]]: !ts.tensor<f32>, %[[Z:.+]]: !ts.tensor<f32, [?, 3]>)
func.func @guard_several(%x: !ts.tensor, %y: !ts.tensor<f32>, %z: !ts.tensor<f32, [?, 3]>) -> i1 {
  // CHECK: %{{.+}}:3, %[[OK:.+]] = fusion.guard %[[X]], %[[Y]], %[[Z]] :
  // CHECK-SAME: (!ts.tensor, !ts.tensor<f32>, !ts.tensor<f32, [?, 3]>)
  // CHECK-SAME: -> (!ts.tensor<f32, [2, 3], strides = [3, 1], device = "cpu", requires_grad = false>, !ts.tensor<f32, [?]>, !ts.tensor<f32, [?, 3]>, i1)
  %g:4 = fusion.guard %x, %y, %z : (!ts.tensor, !ts.tensor<f32>, !ts.tensor<f32, [?, 3]>)
      -> (!ts.tensor<f32, [2, 3], strides = [3, 1], device = "cpu", requires_grad = false>, !ts.tensor<f32, [?]>, !ts.tensor<f32, [?, 3]>, i1)
  // CHECK: return %[[OK]]
  return %g#3 : i1
}

// Builtin tensors: a ranked tensor refines an unranked or dynamic one.
// CHECK-LABEL: func.func @guard_builtin(
// CHECK-SAME:      %[[X:.+]]: tensor<*xf32>, %[[Y:.+]]: tensor<?x?xf16>)
func.func @guard_builtin(%x: tensor<*xf32>, %y: tensor<?x?xf16>) -> (tensor<4x4xf32>, tensor<2x?xf16>, i1) {
  // CHECK: %[[REF:.+]]:2, %[[OK:.+]] = fusion.guard %[[X]], %[[Y]] : (tensor<*xf32>, tensor<?x?xf16>) -> (tensor<4x4xf32>, tensor<2x?xf16>, i1)
  %g:3 = fusion.guard %x, %y : (tensor<*xf32>, tensor<?x?xf16>) -> (tensor<4x4xf32>, tensor<2x?xf16>, i1)
  // CHECK: return %[[REF]]#0, %[[REF]]#1, %[[OK]]
  return %g#0, %g#1, %g#2 : tensor<4x4xf32>, tensor<2x?xf16>, i1
}

//===----------------------------------------------------------------------===//
// fusion.guarded
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @guarded(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor)
func.func @guarded(%x: !ts.tensor) -> !ts.tensor {
  // CHECK: %[[R:.+]] = fusion.guarded(%[[X]]) : (!ts.tensor) -> !ts.tensor
  // CHECK-SAME: specialized {
  // CHECK-NEXT: ^bb0(%[[A:.+]]: !ts.tensor<f32, [4]>):
  // CHECK-NEXT:   %[[S:.+]] = ts.aten.sigmoid %[[A]]
  // CHECK-NEXT:   fusion.yield %[[S]] : !ts.tensor<f32, [4]>
  // CHECK-NEXT: } fallback {
  // CHECK-NEXT: ^bb0(%[[B:.+]]: !ts.tensor):
  // CHECK-NEXT:   %[[T:.+]] = ts.aten.sigmoid %[[B]]
  // CHECK-NEXT:   fusion.yield %[[T]] : !ts.tensor
  // CHECK-NEXT: }
  %r = fusion.guarded (%x) : (!ts.tensor) -> !ts.tensor
  specialized {
  ^bb0(%a: !ts.tensor<f32, [4]>):
    %s = ts.aten.sigmoid %a : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
    fusion.yield %s : !ts.tensor<f32, [4]>
  } fallback {
  ^bb0(%a: !ts.tensor):
    %s = ts.aten.sigmoid %a : (!ts.tensor) -> !ts.tensor
    fusion.yield %s : !ts.tensor
  }
  // CHECK: return %[[R]]
  return %r : !ts.tensor
}

// Several inputs and results, one input left unrefined, builtin tensors.
// CHECK-LABEL: func.func @guarded_builtin(
// CHECK-SAME:      %[[X:.+]]: tensor<?xf32>, %[[N:.+]]: index)
func.func @guarded_builtin(%x: tensor<?xf32>, %n: index) -> (tensor<?xf32>, index) {
  // CHECK: %[[R:.+]]:2 = fusion.guarded(%[[X]], %[[N]]) : (tensor<?xf32>, index) -> (tensor<?xf32>, index)
  // CHECK-SAME: specialized {
  // CHECK-NEXT: ^bb0(%{{.+}}: tensor<16xf32>, %{{.+}}: index):
  // CHECK:        fusion.yield %{{.+}}, %{{.+}} : tensor<16xf32>, index
  // CHECK:      } fallback {
  // CHECK-NEXT: ^bb0(%{{.+}}: tensor<?xf32>, %{{.+}}: index):
  // CHECK:        fusion.yield %{{.+}}, %{{.+}} : tensor<?xf32>, index
  %r:2 = fusion.guarded (%x, %n) : (tensor<?xf32>, index) -> (tensor<?xf32>, index)
  specialized {
  ^bb0(%a: tensor<16xf32>, %m: index):
    %s = arith.mulf %a, %a : tensor<16xf32>
    fusion.yield %s, %m : tensor<16xf32>, index
  } fallback {
  ^bb0(%a: tensor<?xf32>, %m: index):
    %s = arith.mulf %a, %a : tensor<?xf32>
    fusion.yield %s, %m : tensor<?xf32>, index
  }
  // CHECK: return %[[R]]#0, %[[R]]#1
  return %r#0, %r#1 : tensor<?xf32>, index
}

//===----------------------------------------------------------------------===//
// fusion.differentiable_graph
//===----------------------------------------------------------------------===//

// Forward only: the backward graph is built later.
// CHECK-LABEL: func.func @differentiable_forward_only(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor)
func.func @differentiable_forward_only(%x: !ts.tensor) -> !ts.tensor {
  // CHECK: %[[Y:.+]] = fusion.differentiable_graph(%[[X]]) : (!ts.tensor) -> !ts.tensor {
  // CHECK-NEXT: ^bb0(%[[A:.+]]: !ts.tensor):
  // CHECK-NEXT:   %[[S:.+]] = ts.aten.sigmoid %[[A]]
  // CHECK-NEXT:   fusion.yield %[[S]] : !ts.tensor
  // CHECK-NEXT: }
  // CHECK-NOT: backward
  %y = fusion.differentiable_graph (%x) : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    %s = ts.aten.sigmoid %a : (!ts.tensor) -> !ts.tensor
    fusion.yield %s : !ts.tensor
  }
  // CHECK: return %[[Y]]
  return %y : !ts.tensor
}

// With a backward graph: the forward yields its result, then one saved value
// (the sigmoid's output); the backward takes the result's gradient, then the
// saved value, and yields the input's gradient.
// CHECK-LABEL: func.func @differentiable_backward(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor<f32, [3]>)
func.func @differentiable_backward(%x: !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]> {
  // CHECK: %[[Y:.+]] = fusion.differentiable_graph(%[[X]]) {num_saved = 1 : i64} : (!ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]> {
  // CHECK-NEXT: ^bb0(%[[A:.+]]: !ts.tensor<f32, [3]>):
  // CHECK-NEXT:   %[[S:.+]] = ts.aten.sigmoid %[[A]]
  // CHECK-NEXT:   fusion.yield %[[S]], %[[S]] : !ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>
  // CHECK-NEXT: } backward {
  // CHECK-NEXT: ^bb0(%[[GRAD:.+]]: !ts.tensor<f32, [3]>, %[[SAVED:.+]]: !ts.tensor<f32, [3]>):
  // CHECK:        %[[DX:.+]] = ts.aten.mul.Tensor %[[GRAD]], %{{.+}}
  // CHECK-NEXT:   fusion.yield %[[DX]] : !ts.tensor<f32, [3]>
  // CHECK-NEXT: }
  %y = fusion.differentiable_graph (%x) {num_saved = 1} : (!ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]> {
  ^bb0(%a: !ts.tensor<f32, [3]>):
    %s = ts.aten.sigmoid %a : (!ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]>
    fusion.yield %s, %s : !ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>
  } backward {
  ^bb0(%grad: !ts.tensor<f32, [3]>, %saved: !ts.tensor<f32, [3]>):
    // d sigmoid(x) = s * (1 - s)
    %one = ts.prim.Constant[1] : !ts.int
    %oneminus = ts.aten.rsub.Scalar %saved, %one, %one : (!ts.tensor<f32, [3]>, !ts.int, !ts.int) -> !ts.tensor<f32, [3]>
    %ds = ts.aten.mul.Tensor %saved, %oneminus : (!ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]>
    %dx = ts.aten.mul.Tensor %grad, %ds : (!ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]>
    fusion.yield %dx : !ts.tensor<f32, [3]>
  }
  // CHECK: return %[[Y]]
  return %y : !ts.tensor<f32, [3]>
}

// Two inputs, two results, no saved values; builtin tensors.
// CHECK-LABEL: func.func @differentiable_builtin(
// CHECK-SAME:      %[[X:.+]]: tensor<2xf32>, %[[W:.+]]: tensor<2xf32>)
func.func @differentiable_builtin(%x: tensor<2xf32>, %w: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  // CHECK: %[[R:.+]]:2 = fusion.differentiable_graph(%[[X]], %[[W]]) : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  // CHECK:      } backward {
  // CHECK-NEXT: ^bb0(%[[G0:.+]]: tensor<2xf32>, %[[G1:.+]]: tensor<2xf32>):
  // CHECK-NEXT:   fusion.yield %[[G0]], %[[G1]] : tensor<2xf32>, tensor<2xf32>
  %r:2 = fusion.differentiable_graph (%x, %w) : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
    fusion.yield %a, %b : tensor<2xf32>, tensor<2xf32>
  } backward {
  ^bb0(%g0: tensor<2xf32>, %g1: tensor<2xf32>):
    fusion.yield %g0, %g1 : tensor<2xf32>, tensor<2xf32>
  }
  // CHECK: return %[[R]]#0, %[[R]]#1
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// Nesting
//===----------------------------------------------------------------------===//

// A group inside a differentiable graph inside the specialised branch of a
// guarded op: each yield ends its own region.
// CHECK-LABEL: func.func @nested(
func.func @nested(%x: !ts.tensor) -> !ts.tensor {
  // CHECK:      fusion.guarded
  // CHECK:      specialized {
  // CHECK:        fusion.differentiable_graph
  // CHECK:          fusion.group nnc
  // CHECK:            fusion.yield %{{.+}} : !ts.tensor<f32, [4]>
  // CHECK:          fusion.yield %{{.+}} : !ts.tensor<f32, [4]>
  // CHECK:        fusion.yield %{{.+}} : !ts.tensor<f32, [4]>
  // CHECK:      } fallback {
  %r = fusion.guarded (%x) : (!ts.tensor) -> !ts.tensor
  specialized {
  ^bb0(%a: !ts.tensor<f32, [4]>):
    %d = fusion.differentiable_graph (%a) : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
    ^bb0(%b: !ts.tensor<f32, [4]>):
      %g = fusion.group nnc (%b) : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
      ^bb0(%c: !ts.tensor<f32, [4]>):
        %s = ts.aten.sigmoid %c : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
        fusion.yield %s : !ts.tensor<f32, [4]>
      }
      fusion.yield %g : !ts.tensor<f32, [4]>
    }
    fusion.yield %d : !ts.tensor<f32, [4]>
  } fallback {
  ^bb0(%a: !ts.tensor):
    %s = ts.aten.sigmoid %a : (!ts.tensor) -> !ts.tensor
    fusion.yield %s : !ts.tensor
  }
  return %r : !ts.tensor
}

// -----

// Subgraphs imported from PyTorch: parameters may state less than the inputs,
// and a differentiable graph's forward sees requires_grad=false.
// CHECK-LABEL: func.func @compatible_region_types
func.func @compatible_region_types(%x: !ts.tensor<f32, [4], requires_grad = true>) -> !ts.tensor {
  // CHECK: fusion.differentiable_graph
  %y = fusion.differentiable_graph (%x) : (!ts.tensor<f32, [4], requires_grad = true>) -> !ts.tensor {
  ^bb0(%a: !ts.tensor<requires_grad = false>):
    // CHECK: fusion.group nnc
    %g = fusion.group nnc (%a) : (!ts.tensor<requires_grad = false>) -> !ts.tensor<f32, [4]> {
    ^bb0(%b: !ts.tensor<f32, [4], requires_grad = false>):
      fusion.yield %b : !ts.tensor<f32, [4], requires_grad = false>
    }
    fusion.yield %g : !ts.tensor<f32, [4]>
  }
  return %y : !ts.tensor
}
