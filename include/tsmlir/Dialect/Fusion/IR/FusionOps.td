//===- FusionOps.td - Fusion dialect operations ------------*- tablegen -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_FUSION_IR_FUSIONOPS_TD
#define TSMLIR_DIALECT_FUSION_IR_FUSIONOPS_TD

include "tsmlir/Dialect/Fusion/IR/FusionBase.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Fusion_GroupOp : Fusion_Op<"group",
    [IsolatedFromAbove, RecursiveMemoryEffects,
     SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "Ops that run as one kernel";
  let description = [{
    A fused computation. The body is isolated from above: its block arguments
    are the group's inputs, in order and of the same types, and its
    `fusion.yield` gives the results. `strategy` records the fuser that
    formed it: `pointwise`, `nnc`, `nvfuser` or `aggressive` (a group
    imported from a PyTorch graph takes its kind's: `prim::TensorExprGroup`
    is `nnc`, `prim::FusionGroup` `pointwise`, `prim::CudaFusionGroup`
    `nvfuser`), or `op` for a group the lowering makes around one op;
    `name` is optional.

    ```mlir
    %r = fusion.group nnc (%x, %y) : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
    ^bb0(%a: !ts.tensor<f32, [4]>, %b: !ts.tensor<f32, [4]>):
      %one = ts.prim.Constant[1] : !ts.int
      %s = ts.aten.add.Tensor %a, %b, %one : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
      fusion.yield %s : !ts.tensor<f32, [4]>
    }
    ```
  }];
  let arguments = (ins Fusion_Strategy:$strategy, Variadic<AnyType>:$inputs,
                       OptionalAttr<StrAttr>:$name);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $strategy ` ` `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
    $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block *getBodyBlock() { return &getBody().front(); }
  }];
}

def Fusion_GuardOp : Fusion_Op<"guard", [Pure]> {
  let summary = "Check values against the types code was specialised for";
  let description = [{
    Returns its operands, typed with the expected types, and an `i1` that is
    true when every operand has its expected type at run time: dtype, sizes,
    strides, device and requires_grad, whichever the expected type states.
    Every expected type must be a refinement of its operand's type.

    ```mlir
    %xs, %ok = fusion.guard %x : (!ts.tensor) -> (!ts.tensor<f32, [64, 128]>, i1)
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$refined, I1:$passed);
  let assemblyFormat = [{
    $inputs attr-dict `:` functional-type($inputs, results)
  }];
  let hasVerifier = 1;
}

def Fusion_GuardedOp : Fusion_Op<"guarded",
    [IsolatedFromAbove, RecursiveMemoryEffects,
     SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "Specialised code behind a type guard, with a fallback";
  let description = [{
    Runs `specialized` when every input has the type of the corresponding
    block argument of `specialized` (the types the code was specialised for),
    and `fallback`, which takes the inputs with their own types, otherwise.
    This is `prim::TypeCheck` + `prim::If` + the fallback function of
    PyTorch's optimised graphs, in one op. Both regions are isolated from
    above; the types each yields must refine the result types.

    ```mlir
    %r = fusion.guarded (%x) : (!ts.tensor) -> !ts.tensor
    specialized {
    ^bb0(%a: !ts.tensor<f32, [4]>):
      ...
      fusion.yield %s : !ts.tensor<f32, [4]>
    } fallback {
    ^bb0(%a: !ts.tensor):
      ...
      fusion.yield %s : !ts.tensor
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$specialized, SizedRegion<1>:$fallback);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
    `specialized` $specialized `fallback` $fallback
  }];
  let hasVerifier = 1;
}

def Fusion_DifferentiableGraphOp : Fusion_Op<"differentiable_graph",
    [IsolatedFromAbove, RecursiveMemoryEffects,
     SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "A subgraph that autodiff gives a backward graph";
  let description = [{
    `prim::DifferentiableGraph`: a forward subgraph, isolated from above, for
    which a backward graph is (or will be) built. The optional `backward`
    region, when present, takes the upstream gradients of the results
    followed by the values the forward saves, and yields the gradients of
    the inputs. `num_saved` counts the saved values: the forward yields its
    results, then the saved values.

    ```mlir
    %y = fusion.differentiable_graph (%x) : (!ts.tensor) -> !ts.tensor {
    ^bb0(%a: !ts.tensor):
      %s = ts.aten.sigmoid %a : (!ts.tensor) -> !ts.tensor
      fusion.yield %s : !ts.tensor
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs,
                       DefaultValuedAttr<I64Attr, "0">:$num_saved);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$forward, AnyRegion:$backward);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
    $forward (`backward` $backward^)?
  }];
  let hasVerifier = 1;
}

def Fusion_YieldOp : Fusion_Op<"yield",
    [Pure, Terminator, ReturnLike,
     ParentOneOf<["GroupOp", "GuardedOp", "DifferentiableGraphOp"]>]> {
  let summary = "The results of a fusion region";
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // TSMLIR_DIALECT_FUSION_IR_FUSIONOPS_TD
