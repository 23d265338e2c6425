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
      returns the results and every value the backward reads (PyTorch's
      choice: nothing is recomputed), and `f_backward(saved...,
      grad_results...) -> (grad_args...)` takes them back with one upstream
      gradient per floating-point tensor result;
    * `joint`: `f` itself becomes `f(args..., grad_results...) ->
      (results..., grad_args...)`, forward and backward in one function
      (what `tsmlir-run --grad-output` compiles).

    Results are flattened from the tuples the function returns. A gradient
    flowing into a broadcast operand is summed back to its sizes; an
    operand that no gradient reaches gets none (a zero tensor is made only
    for an argument's result). The gradient ops have unrefined types: run
    `--ts-optimize` after it. An op on the gradient's path without a
    formula, or control flow there, is an error naming it.
  }];
  let options = [
    Option<"func", "func", "std::string", /*default=*/"\"main\"",
           "The function to differentiate">,
    Option<"joint", "joint", "bool", /*default=*/"false",
           "Rewrite the function into one taking the results' gradients and "
           "returning the arguments' as well, instead of forward and "
           "backward functions">
  ];
}

#endif // TSMLIR_DIALECT_TORCHSCRIPT_AUTODIFF_PASSES
