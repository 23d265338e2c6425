// RUN: tsmlir-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of lib/Dialect/Fusion/IR/FusionOps.cpp, then the
// structural errors that the ops' traits and ODS constraints report (the
// strategy is an enum: pointwise, nnc, nvfuser, aggressive, op).

//===----------------------------------------------------------------------===//
// fusion.group
//===----------------------------------------------------------------------===//

func.func @group_unknown_strategy(%x: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{custom op 'fusion.group' expected string or keyword containing one of the following enum values for attribute 'strategy' [pointwise, nnc, nvfuser, aggressive, op]}}
  %r = fusion.group tvm (%x) : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    fusion.yield %a : !ts.tensor
  }
  return %r : !ts.tensor
}

// -----

func.func @group_missing_strategy(%x: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'fusion.group' op requires attribute 'strategy'}}
  %r = "fusion.group"(%x) ({
  ^bb0(%a: !ts.tensor):
    fusion.yield %a : !ts.tensor
  }) : (!ts.tensor) -> !ts.tensor
  return %r : !ts.tensor
}

// -----

func.func @group_name_not_string(%x: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'fusion.group' op attribute 'name' failed to satisfy constraint: string attribute}}
  %r = fusion.group nnc (%x) {name = 3 : i64} : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    fusion.yield %a : !ts.tensor
  }
  return %r : !ts.tensor
}

// -----

func.func @group_arg_count(%x: !ts.tensor, %y: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'fusion.group' op region 'body' takes 1 arguments for 2 inputs}}
  %r = fusion.group nnc (%x, %y) : (!ts.tensor, !ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    fusion.yield %a : !ts.tensor
  }
  return %r : !ts.tensor
}

// -----

// A group's block arguments may state more or less than its inputs (PyTorch's
// subgraphs do), but never contradict them.
func.func @group_arg_type(%x: !ts.tensor<si64>) -> !ts.tensor {
  // expected-error @+1 {{'fusion.group' op region 'body' argument #0 of type '!ts.tensor<f32>' contradicts input type '!ts.tensor<si64>'}}
  %r = fusion.group nnc (%x) : (!ts.tensor<si64>) -> !ts.tensor {
  ^bb0(%a: !ts.tensor<f32>):
    fusion.yield %a : !ts.tensor<f32>
  }
  return %r : !ts.tensor
}

// -----

func.func @group_yield_count(%x: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'fusion.group' op region 'body' yields 2 values; expected 1}}
  %r = fusion.group nnc (%x) : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    fusion.yield %a, %a : !ts.tensor, !ts.tensor
  }
  return %r : !ts.tensor
}

// -----

// The implicit, empty yield of a group with results.
func.func @group_implicit_yield(%x: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'fusion.group' op region 'body' yields 0 values; expected 1}}
  %r = fusion.group nnc (%x) : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
  }
  return %r : !ts.tensor
}

// -----

// Yielded types must not contradict the result types.
func.func @group_yield_type(%x: !ts.tensor<[2]>) -> !ts.tensor<[3]> {
  // expected-error @+1 {{'fusion.group' op region 'body' yields '!ts.tensor<[2]>' for result #0, which contradicts the result type '!ts.tensor<[3]>'}}
  %r = fusion.group nnc (%x) : (!ts.tensor<[2]>) -> !ts.tensor<[3]> {
  ^bb0(%a: !ts.tensor<[2]>):
    fusion.yield %a : !ts.tensor<[2]>
  }
  return %r : !ts.tensor<[3]>
}

// -----

func.func @group_yield_type_builtin(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'fusion.group' op region 'body' yields 'tensor<4xf32>' for result #0, which contradicts the result type 'tensor<4xf16>'}}
  %r = fusion.group pointwise (%x) : (tensor<4xf32>) -> tensor<4xf16> {
  ^bb0(%a: tensor<4xf32>):
    fusion.yield %a : tensor<4xf32>
  }
  return %r : tensor<4xf16>
}

// -----

// The body is isolated from above: values come in as block arguments.
func.func @group_isolated(%x: !ts.tensor) -> !ts.tensor {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = fusion.group nnc (%x) : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    // expected-error @+1 {{'ts.aten.sigmoid' op using value defined outside the region}}
    %s = ts.aten.sigmoid %x : (!ts.tensor) -> !ts.tensor
    fusion.yield %s : !ts.tensor
  }
  return %r : !ts.tensor
}

// -----

func.func @group_two_blocks(%x: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'fusion.group' op expects region #0 to have 0 or 1 blocks}}
  %r = "fusion.group"(%x) <{strategy = 1 : i32}> ({
  ^bb0(%a: !ts.tensor):
    cf.br ^bb1
  ^bb1:
    fusion.yield %a : !ts.tensor
  }) : (!ts.tensor) -> !ts.tensor
  return %r : !ts.tensor
}

// -----

// In the generic syntax nothing adds the implicit fusion.yield.
func.func @group_no_terminator(%x: !ts.tensor) -> !ts.tensor {
  %r = "fusion.group"(%x) <{strategy = 1 : i32}> ({
  ^bb0(%a: !ts.tensor):
    // expected-error @+1 {{block with no terminator}}
    %one = ts.prim.Constant[1] : !ts.int
  }) : (!ts.tensor) -> !ts.tensor
  return %r : !ts.tensor
}

// -----

func.func @group_wrong_terminator(%x: !ts.tensor) -> !ts.tensor {
  // expected-error @+2 {{'fusion.group' op expects regions to end with 'fusion.yield', found 'llvm.unreachable'}}
  // expected-note @+1 {{in custom textual format, the absence of terminator implies 'fusion.yield'}}
  %r = fusion.group nnc (%x) : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    llvm.unreachable
  }
  return %r : !ts.tensor
}

// -----

// Another op's terminator is reported as such, not as a yield of the wrong
// number of values.
func.func @group_return_terminator(%x: !ts.tensor) -> !ts.tensor {
  %r = fusion.group nnc (%x) : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    // expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
    func.return %a, %a : !ts.tensor, !ts.tensor
  }
  return %r : !ts.tensor
}

//===----------------------------------------------------------------------===//
// fusion.yield
//===----------------------------------------------------------------------===//

// -----

func.func @yield_outside(%x: !ts.tensor) {
  // expected-error @+1 {{'fusion.yield' op expects parent op to be one of 'fusion.group, fusion.guarded, fusion.differentiable_graph'}}
  fusion.yield %x : !ts.tensor
}

// -----

func.func @yield_in_prim_if(%c: !ts.bool, %x: !ts.tensor) -> !ts.tensor {
  %r = ts.prim.If %c -> (!ts.tensor) {
    // expected-error @+1 {{'fusion.yield' op expects parent op to be one of 'fusion.group, fusion.guarded, fusion.differentiable_graph'}}
    fusion.yield %x : !ts.tensor
  } else {
    ts.prim.Yield %x : !ts.tensor
  }
  return %r : !ts.tensor
}

//===----------------------------------------------------------------------===//
// fusion.guard
//===----------------------------------------------------------------------===//

// -----

func.func @guard_too_few_refined(%x: !ts.tensor, %y: !ts.tensor) -> i1 {
  // expected-error @+1 {{'fusion.guard' op has 1 refined results for 2 inputs}}
  %xs, %ok = fusion.guard %x, %y : (!ts.tensor, !ts.tensor) -> (!ts.tensor<f32>, i1)
  return %ok : i1
}

// -----

func.func @guard_too_many_refined(%x: !ts.tensor) -> i1 {
  // expected-error @+1 {{'fusion.guard' op has 2 refined results for 1 inputs}}
  %r:3 = fusion.guard %x : (!ts.tensor) -> (!ts.tensor<f32>, !ts.tensor<f32>, i1)
  return %r#2 : i1
}

// -----

func.func @guard_no_flag(%x: !ts.tensor) -> !ts.tensor<f32> {
  // expected-error @+1 {{'fusion.guard' op result #1 must be 1-bit signless integer, but got 'i32'}}
  %xs, %ok = fusion.guard %x : (!ts.tensor) -> (!ts.tensor<f32>, i32)
  return %xs : !ts.tensor<f32>
}

// -----

func.func @guard_no_results(%x: !ts.tensor) {
  // expected-error @+1 {{'fusion.guard' op expected 1 or more results}}
  "fusion.guard"(%x) : (!ts.tensor) -> ()
  return
}

// -----

// A guard can only add facts: a different dtype is not a refinement.
func.func @guard_not_refinement(%x: !ts.tensor<f32>) -> i1 {
  // expected-error @+1 {{'fusion.guard' op guarded type '!ts.tensor<f16, [4]>' of input #0 is not a refinement of its type '!ts.tensor<f32>'}}
  %xs, %ok = fusion.guard %x : (!ts.tensor<f32>) -> (!ts.tensor<f16, [4]>, i1)
  return %ok : i1
}

// -----

// Nor is forgetting one: the second input loses its sizes.
func.func @guard_generalises(%x: !ts.tensor, %y: !ts.tensor<f32, [2, 3]>) -> i1 {
  // expected-error @+1 {{'fusion.guard' op guarded type '!ts.tensor<f32>' of input #1 is not a refinement of its type '!ts.tensor<f32, [2, 3]>'}}
  %g:2, %ok = fusion.guard %x, %y : (!ts.tensor, !ts.tensor<f32, [2, 3]>) -> (!ts.tensor<f32>, !ts.tensor<f32>, i1)
  return %ok : i1
}

// -----

func.func @guard_not_refinement_builtin(%x: tensor<?x4xf32>) -> i1 {
  // expected-error @+1 {{'fusion.guard' op guarded type 'tensor<2x5xf32>' of input #0 is not a refinement of its type 'tensor<?x4xf32>'}}
  %xs, %ok = fusion.guard %x : (tensor<?x4xf32>) -> (tensor<2x5xf32>, i1)
  return %ok : i1
}

// -----

// A builtin tensor does not refine a ts tensor, nor the other way round.
func.func @guard_mixed_types(%x: !ts.tensor) -> i1 {
  // expected-error @+1 {{'fusion.guard' op guarded type 'tensor<4xf32>' of input #0 is not a refinement of its type '!ts.tensor'}}
  %xs, %ok = fusion.guard %x : (!ts.tensor) -> (tensor<4xf32>, i1)
  return %ok : i1
}

//===----------------------------------------------------------------------===//
// fusion.guarded
//===----------------------------------------------------------------------===//

// -----

func.func @guarded_specialized_arg_count(%x: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'fusion.guarded' op region 'specialized' takes 0 arguments for 1 inputs}}
  %r = fusion.guarded (%x) : (!ts.tensor) -> !ts.tensor
  specialized {
    %c = ts.prim.Constant[dense<1.0> : tensor<f32>] : !ts.tensor<f32, []>
    fusion.yield %c : !ts.tensor<f32, []>
  } fallback {
  ^bb0(%a: !ts.tensor):
    fusion.yield %a : !ts.tensor
  }
  return %r : !ts.tensor
}

// -----

func.func @guarded_specialized_arg_type(%x: !ts.tensor<f32>) -> !ts.tensor {
  // expected-error @+1 {{'fusion.guarded' op region 'specialized' argument #0 of type '!ts.tensor<si64, [4]>' is not a refinement of input type '!ts.tensor<f32>'}}
  %r = fusion.guarded (%x) : (!ts.tensor<f32>) -> !ts.tensor
  specialized {
  ^bb0(%a: !ts.tensor<si64, [4]>):
    fusion.yield %a : !ts.tensor<si64, [4]>
  } fallback {
  ^bb0(%a: !ts.tensor<f32>):
    fusion.yield %a : !ts.tensor<f32>
  }
  return %r : !ts.tensor
}

// -----

func.func @guarded_fallback_arg_count(%x: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'fusion.guarded' op region 'fallback' takes 2 arguments for 1 inputs}}
  %r = fusion.guarded (%x) : (!ts.tensor) -> !ts.tensor
  specialized {
  ^bb0(%a: !ts.tensor<f32>):
    fusion.yield %a : !ts.tensor<f32>
  } fallback {
  ^bb0(%a: !ts.tensor, %b: !ts.tensor):
    fusion.yield %a : !ts.tensor
  }
  return %r : !ts.tensor
}

// -----

// The fallback runs when the guard fails, so it takes the inputs as they are.
func.func @guarded_fallback_arg_type(%x: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'fusion.guarded' op region 'fallback' argument #0 of type '!ts.tensor<f32>' does not match input type '!ts.tensor'}}
  %r = fusion.guarded (%x) : (!ts.tensor) -> !ts.tensor
  specialized {
  ^bb0(%a: !ts.tensor<f32>):
    fusion.yield %a : !ts.tensor<f32>
  } fallback {
  ^bb0(%a: !ts.tensor<f32>):
    fusion.yield %a : !ts.tensor<f32>
  }
  return %r : !ts.tensor
}

// -----

func.func @guarded_specialized_yield_count(%x: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'fusion.guarded' op region 'specialized' yields 0 values; expected 1}}
  %r = fusion.guarded (%x) : (!ts.tensor) -> !ts.tensor
  specialized {
  ^bb0(%a: !ts.tensor<f32>):
    fusion.yield
  } fallback {
  ^bb0(%a: !ts.tensor):
    fusion.yield %a : !ts.tensor
  }
  return %r : !ts.tensor
}

// -----

func.func @guarded_specialized_yield_type(%x: !ts.tensor) -> !ts.tensor<f32> {
  // expected-error @+1 {{'fusion.guarded' op region 'specialized' yields '!ts.tensor<f16>' for result #0, which is not a refinement of the result type '!ts.tensor<f32>'}}
  %r = fusion.guarded (%x) : (!ts.tensor) -> !ts.tensor<f32>
  specialized {
  ^bb0(%a: !ts.tensor<f16>):
    fusion.yield %a : !ts.tensor<f16>
  } fallback {
  ^bb0(%a: !ts.tensor):
    %c = ts.prim.Constant[dense<1.0> : tensor<f32>] : !ts.tensor<f32, []>
    fusion.yield %c : !ts.tensor<f32, []>
  }
  return %r : !ts.tensor<f32>
}

// -----

func.func @guarded_fallback_yield_count(%x: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'fusion.guarded' op region 'fallback' yields 2 values; expected 1}}
  %r = fusion.guarded (%x) : (!ts.tensor) -> !ts.tensor
  specialized {
  ^bb0(%a: !ts.tensor<f32>):
    fusion.yield %a : !ts.tensor<f32>
  } fallback {
  ^bb0(%a: !ts.tensor):
    fusion.yield %a, %a : !ts.tensor, !ts.tensor
  }
  return %r : !ts.tensor
}

// -----

// The fallback sees unrefined inputs, so it cannot promise the result type.
func.func @guarded_fallback_yield_type(%x: !ts.tensor) -> !ts.tensor<f32> {
  // expected-error @+1 {{'fusion.guarded' op region 'fallback' yields '!ts.tensor' for result #0, which is not a refinement of the result type '!ts.tensor<f32>'}}
  %r = fusion.guarded (%x) : (!ts.tensor) -> !ts.tensor<f32>
  specialized {
  ^bb0(%a: !ts.tensor<f32>):
    fusion.yield %a : !ts.tensor<f32>
  } fallback {
  ^bb0(%a: !ts.tensor):
    fusion.yield %a : !ts.tensor
  }
  return %r : !ts.tensor<f32>
}

// -----

func.func @guarded_isolated(%x: !ts.tensor) -> !ts.tensor {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = fusion.guarded (%x) : (!ts.tensor) -> !ts.tensor
  specialized {
  ^bb0(%a: !ts.tensor<f32>):
    fusion.yield %a : !ts.tensor<f32>
  } fallback {
  ^bb0(%a: !ts.tensor):
    // expected-error @+1 {{'ts.aten.sigmoid' op using value defined outside the region}}
    %s = ts.aten.sigmoid %x : (!ts.tensor) -> !ts.tensor
    fusion.yield %s : !ts.tensor
  }
  return %r : !ts.tensor
}

// -----

func.func @guarded_missing_fallback(%x: !ts.tensor) -> !ts.tensor {
  %r = fusion.guarded (%x) : (!ts.tensor) -> !ts.tensor
  specialized {
  ^bb0(%a: !ts.tensor<f32>):
    fusion.yield %a : !ts.tensor<f32>
  }
  // expected-error @+1 {{expected 'fallback'}}
  return %r : !ts.tensor
}

//===----------------------------------------------------------------------===//
// fusion.differentiable_graph
//===----------------------------------------------------------------------===//

// -----

func.func @differentiable_negative_num_saved(%x: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'fusion.differentiable_graph' op num_saved must be non-negative, got -1}}
  %y = fusion.differentiable_graph (%x) {num_saved = -1} : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    fusion.yield %a : !ts.tensor
  }
  return %y : !ts.tensor
}

// -----

func.func @differentiable_num_saved_not_int(%x: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'fusion.differentiable_graph' op attribute 'num_saved' failed to satisfy constraint: 64-bit signless integer attribute}}
  %y = fusion.differentiable_graph (%x) {num_saved = "one"} : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    fusion.yield %a : !ts.tensor
  }
  return %y : !ts.tensor
}

// -----

func.func @differentiable_forward_arg_count(%x: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'fusion.differentiable_graph' op region 'forward' takes 2 arguments for 1 inputs}}
  %y = fusion.differentiable_graph (%x) : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor, %b: !ts.tensor):
    fusion.yield %a : !ts.tensor
  }
  return %y : !ts.tensor
}

// -----

// requires_grad may differ (autograd is off inside), other facts may not.
func.func @differentiable_forward_arg_type(%x: !ts.tensor<f32, [4], requires_grad = true>) -> !ts.tensor {
  // expected-error @+1 {{'fusion.differentiable_graph' op region 'forward' argument #0 of type '!ts.tensor<f32, [3]>' contradicts input type '!ts.tensor<f32, [4], requires_grad = true>'}}
  %y = fusion.differentiable_graph (%x) : (!ts.tensor<f32, [4], requires_grad = true>) -> !ts.tensor {
  ^bb0(%a: !ts.tensor<f32, [3]>):
    fusion.yield %a : !ts.tensor<f32, [3]>
  }
  return %y : !ts.tensor
}

// -----

// num_saved = 1: the forward must yield its result and then one saved value.
func.func @differentiable_forward_yield_count(%x: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'fusion.differentiable_graph' op region 'forward' yields 1 values; expected 2}}
  %y = fusion.differentiable_graph (%x) {num_saved = 1} : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    %s = ts.aten.sigmoid %a : (!ts.tensor) -> !ts.tensor
    fusion.yield %s : !ts.tensor
  }
  return %y : !ts.tensor
}

// -----

func.func @differentiable_forward_yield_type(%x: !ts.tensor<si64>) -> !ts.tensor<f32> {
  // expected-error @+1 {{'fusion.differentiable_graph' op region 'forward' yields '!ts.tensor<si64>' for result #0, which contradicts the result type '!ts.tensor<f32>'}}
  %y = fusion.differentiable_graph (%x) : (!ts.tensor<si64>) -> !ts.tensor<f32> {
  ^bb0(%a: !ts.tensor<si64>):
    fusion.yield %a : !ts.tensor<si64>
  }
  return %y : !ts.tensor<f32>
}

// -----

// One gradient per result, then num_saved saved values: 1 + 1 = 2.
func.func @differentiable_backward_arg_count(%x: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'fusion.differentiable_graph' op region 'backward' takes 1 arguments; expected 2 (one gradient per result, then the saved values)}}
  %y = fusion.differentiable_graph (%x) {num_saved = 1} : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    %s = ts.aten.sigmoid %a : (!ts.tensor) -> !ts.tensor
    fusion.yield %s, %s : !ts.tensor, !ts.tensor
  } backward {
  ^bb0(%grad: !ts.tensor):
    fusion.yield %grad : !ts.tensor
  }
  return %y : !ts.tensor
}

// -----

// One gradient per input.
func.func @differentiable_backward_yield_count(%x: !ts.tensor, %w: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'fusion.differentiable_graph' op region 'backward' yields 1 gradients for 2 inputs}}
  %y = fusion.differentiable_graph (%x, %w) : (!ts.tensor, !ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor, %b: !ts.tensor):
    %one = ts.prim.Constant[1] : !ts.int
    %s = ts.aten.add.Tensor %a, %b, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
    fusion.yield %s : !ts.tensor
  } backward {
  ^bb0(%grad: !ts.tensor):
    fusion.yield %grad : !ts.tensor
  }
  return %y : !ts.tensor
}

// -----

func.func @differentiable_backward_two_blocks(%x: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'fusion.differentiable_graph' op expects region #1 to have 0 or 1 blocks}}
  %y = "fusion.differentiable_graph"(%x) ({
  ^bb0(%a: !ts.tensor):
    fusion.yield %a : !ts.tensor
  }, {
  ^bb0(%g: !ts.tensor):
    cf.br ^bb1
  ^bb1:
    fusion.yield %g : !ts.tensor
  }) : (!ts.tensor) -> !ts.tensor
  return %y : !ts.tensor
}

// -----

func.func @differentiable_backward_no_terminator(%x: !ts.tensor) -> !ts.tensor {
  %y = "fusion.differentiable_graph"(%x) ({
  ^bb0(%a: !ts.tensor):
    fusion.yield %a : !ts.tensor
  }, {
  ^bb0(%g: !ts.tensor):
    // expected-error @+1 {{block with no terminator}}
    %one = ts.prim.Constant[1] : !ts.int
  }) : (!ts.tensor) -> !ts.tensor
  return %y : !ts.tensor
}

// -----

func.func @differentiable_isolated(%x: !ts.tensor, %w: !ts.tensor) -> !ts.tensor {
  // expected-note @+1 {{required by region isolation constraints}}
  %y = fusion.differentiable_graph (%x) : (!ts.tensor) -> !ts.tensor {
  ^bb0(%a: !ts.tensor):
    %one = ts.prim.Constant[1] : !ts.int
    // expected-error @+1 {{'ts.aten.mul.Tensor' op using value defined outside the region}}
    %s = ts.aten.mul.Tensor %a, %w : (!ts.tensor, !ts.tensor) -> !ts.tensor
    fusion.yield %s : !ts.tensor
  }
  return %y : !ts.tensor
}
