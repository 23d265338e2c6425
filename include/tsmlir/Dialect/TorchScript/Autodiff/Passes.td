//===- Passes.td - TorchScript autodiff passes -------------*- tablegen -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_AUTODIFF_PASSES
#define TSMLIR_DIALECT_TORCHSCRIPT_AUTODIFF_PASSES

include "mlir/Pass/PassBase.td"

def TSCreateDifferentiableGraphsPass
    : Pass<"ts-create-differentiable-graphs", "::mlir::func::FuncOp"> {
  let summary = "Group differentiable ops into fusion.differentiable_graph "
                "ops";
  let description = [{
    PyTorch's `CreateAutodiffSubgraphs`: in each block (the bodies of
    `prim::If` and `prim::Loop` included, each on its own), the runs of ops
    that autodiff has a formula for and that read a value requiring grad
    become one `fusion.differentiable_graph` each, its inputs the values the
    run reads from outside (constants are copied in) and its results the
    run's values used after it. A value requires grad when its tensor type
    says `requires_grad = true`; where the type does not say (`null`), a
    floating-point tensor argument does, and so does a floating-point tensor
    an op computes from one. A tensor typed `requires_grad = false` never
    does, and ops reading only such values stay out.

    A run extends over ops that write nothing and read none of its values
    (they move before the group) and over constants; it ends at any other op: control
    flow (ops with regions), ops that write (in-place ops, random ops,
    prints) and ops without a formula. Runs of fewer than `min-size` ops
    stay as they are, as PyTorch inlines small subgraphs back.
    `--ts-differentiate=graphs=true` then builds each graph's backward.

    ```mlir
    %y = fusion.differentiable_graph (%x) : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
    ^bb0(%a: !ts.tensor<f32, [4]>):
      %s = ts.aten.sigmoid %a : ...
      %t = ts.aten.mul.Tensor %a, %s : ...
      fusion.yield %t : !ts.tensor<f32, [4]>
    }
    ```
  }];
  let options = [
    Option<"minSize", "min-size", "int64_t", /*default=*/"2",
           "Form no graph of fewer ops">
  ];
  let statistics = [
    Statistic<"numGraphs", "graphs", "Differentiable graphs formed">,
    Statistic<"numGrouped", "grouped-ops", "Ops moved into them">
  ];
  let dependentDialects = ["::mlir::tsmlir::fusion::FusionDialect"];
}

def TSDifferentiatePass : Pass<"ts-differentiate", "::mlir::ModuleOp"> {
  let summary = "Derive a function's backward graph by source-to-source "
                "differentiation";
  let description = [{
    For the function `func` (`f(args) -> results`), whose ops have static
    types (after `--ts-specialize` and `--ts-optimize`), builds the gradient
    of its floating-point tensor arguments from the gradients of its
    floating-point tensor results, as PyTorch's autograd computes them
    (the formulas of its `derivatives.yaml`, lib/Dialect/TorchScript/
    Autodiff/Formulas*.cpp):

    * split (the default): `f_forward(args) -> (results..., saved...)`
      returns the results and the values `policy` saves, and
      `f_backward(saved_args..., saved..., grad_results...) ->
      (grad_args...)` takes the arguments it reads (passed again, not
      returned by the forward), the saved values and one upstream gradient
      per floating-point tensor result, computes again the forward ops the
      policy did not save, then the gradients. `f_forward` records the
      split in its `ts.autodiff` attribute: `policy`, `saved_values` and
      their `saved_bytes` (tensors of known sizes), `saved_arguments` (the
      positions of the arguments the backward takes first) and their
      `argument_bytes`, `recomputed_ops`; `--ts-fusion-report` prints it;
    * `joint`: `f` itself becomes `f(args..., grad_results...) ->
      (results..., grad_args...)`, forward and backward in one function
      (what `tsmlir-run --grad-output` compiles).

    Results are flattened from the tuples the function returns. A gradient
    flowing into a broadcast operand is summed back to its sizes; an
    operand that no gradient reaches gets none (a zero tensor is made only
    for an argument's result). The gradient ops have unrefined types: run
    `--ts-optimize` after it. An op on the gradient's path without a
    formula, or control flow there, is an error naming it.

    With `graphs`, each `fusion.differentiable_graph` without a backward
    region (`--ts-create-differentiable-graphs` forms them) is
    differentiated as a function of its inputs and split: its forward
    region yields its results, then the arguments the backward reads and the
    values the policy saves (`num_saved` counts them), and its new backward
    region takes one upstream gradient per result, then those saved values,
    and yields one gradient per input (`prim::Constant` None for an input
    that is not a floating-point tensor or is typed `requires_grad = false`,
    as PyTorch's backward graphs return None).

    The policies: `save-all` saves every forward value the backward reads,
    as PyTorch's autograd does; `min-cut` (the default) saves the values of
    a minimum s-t cut of the joint graph in which each value weighs the
    bytes saving it costs (read by the backward, and written by the forward
    unless the forward returns it or it is an argument), so that the
    backward computes pointwise and view ops again from fewer bytes
    (`gelu(x)`'s intermediates from `x`), while reductions, matrix
    products, convolutions and ops with effects (random ones) are saved,
    never recomputed.
  }];
  let options = [
    Option<"func", "func", "std::string", /*default=*/"\"main\"",
           "The function to differentiate">,
    Option<"policy", "policy", "::mlir::tsmlir::ts::SavePolicy",
           /*default=*/"::mlir::tsmlir::ts::SavePolicy::MinCut",
           "What the forward saves for the backward (split form)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::tsmlir::ts::SavePolicy::SaveAll, "save-all",
                        "every forward value the backward reads, as PyTorch"),
             clEnumValN(::mlir::tsmlir::ts::SavePolicy::MinCut, "min-cut",
                        "a minimum cut by bytes; cheap ops recomputed"))}]>,
    Option<"graphs", "graphs", "bool", /*default=*/"false",
           "Build the backward region of every fusion.differentiable_graph "
           "without one, instead of differentiating `func`">,
    Option<"joint", "joint", "bool", /*default=*/"false",
           "Rewrite the function into one taking the results' gradients and "
           "returning the arguments' as well, instead of forward and "
           "backward functions">
  ];
  let statistics = [
    Statistic<"numSavedValues", "saved-values",
              "Values the forward saves for the backward">,
    Statistic<"numSavedBytes", "saved-bytes",
              "Bytes of the saved tensors of known sizes">,
    Statistic<"numRecomputedOps", "recomputed-ops",
              "Forward ops the backward computes again">
  ];
}

#endif // TSMLIR_DIALECT_TORCHSCRIPT_AUTODIFF_PASSES
