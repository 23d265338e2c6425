//===- Passes.td - TorchScript dialect passes --------------*- tablegen -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_PASSES_TD
#define TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TSReportUnknownOpsPass : Pass<"ts-report-unknown-ops"> {
  let summary = "Report, by qualified name, the operators tsmlir has no op for";
  let description = [{
    Every `ts.operator` is a node that import kept by name because the `ts`
    dialect has no op for it; later stages cannot compile it. This pass
    reports each distinct name once, at its first occurrence, with the number
    of occurrences, as a warning, or as an error that fails the pass with
    `fail=true` (what a compilation pipeline uses).

    ```mlir
    %y = ts.operator "aten::erfinv"(%x) : (!ts.tensor) -> !ts.tensor
    // warning: unsupported operator 'aten::erfinv' (1 occurrence)
    ```
  }];
  let options = [
    Option<"fail", "fail", "bool", /*default=*/"false",
           "Report errors and fail when an unsupported operator is found">
  ];
}

def TSInferShapesPass : Pass<"ts-infer-shapes"> {
  let summary = "Infer tensor dtypes, sizes and devices forward through "
                "every function";
  let description = [{
    Refines the result types of the ops of every `func.func`, in place, from
    what is known of their operands, by one shape rule per op (a table keyed
    by op, one file per op family), then the function's result types from
    what it returns. A type only ever becomes more refined: where an
    existing type states a fact (a dtype, the rank, a size, the device), it
    is kept, even if a rule disagrees. Unknown sizes stay `?`, an unknown
    rank stays unknown. Results get no strides (except from ops that return
    their input itself) and no `requires_grad`; a device flows when every
    tensor operand states the same.

    The rules follow PyTorch 1.13: broadcasting; type promotion
    (`at::result_type`: dimensioned tensors, then 0-d tensors, then scalars,
    where an int tensor with a float scalar gives the default float, f32);
    comparisons give `i1`; true division and transcendental functions turn
    ints into f32; reductions with `dim` (int or list, negative, None),
    `keepdim` and `dtype`; softmax, layer and batch norm; matmul with 1-d
    operands and broadcast batch dims, mm, bmm, linear, addmm, baddbmm,
    dot; view and reshape with -1, flatten, permute, transpose, t,
    unsqueeze, squeeze, expand, cat, stack, slice (with clamping), select,
    narrow, chunk, split, unbind, index_select, index, repeat; convolutions
    and pooling (ceil_mode); factories (zeros, ones, full, arange, ..._like)
    with their `dtype` codes; casts (`to`, `type_as`). Scalar arguments are
    read from constants and from what the sweep folds (`aten::size` of a
    tensor of known sizes, int arithmetic on those).

    Control flow: `prim.If` results join both branches (a branch that
    raises does not count); `prim.Loop` carried values are iterated to a
    fixed point of their initial and yielded types; tuples and unmodified
    lists carry element types; `fusion.group`, `fusion.guarded` and
    `fusion.differentiable_graph` pass types into and out of their regions.
    A refinement a user would reject (a guard whose checked type would no
    longer refine it) is not made. Function arguments are never changed:
    that is `ts-specialize`'s job.

    ```mlir
    func.func @f(%x: !ts.tensor<f32, [4, 1, 3]>, %y: !ts.tensor<si64, [5, 1]>) -> !ts.tensor {
      %one = ts.prim.Constant[1] : !ts.int
      %0 = ts.aten.add.Tensor %x, %y, %one : (!ts.tensor<f32, [4, 1, 3]>, !ts.tensor<si64, [5, 1]>, !ts.int) -> !ts.tensor
      return %0 : !ts.tensor
    }
    // becomes
    func.func @f(%x: !ts.tensor<f32, [4, 1, 3]>, %y: !ts.tensor<si64, [5, 1]>) -> !ts.tensor<f32, [4, 5, 3]> {
      %one = ts.prim.Constant[1] : !ts.int
      %0 = ts.aten.add.Tensor %x, %y, %one : (...) -> !ts.tensor<f32, [4, 5, 3]>
      return %0 : !ts.tensor<f32, [4, 5, 3]>
    }
    ```
  }];
}

def TSReportUnknownShapesPass : Pass<"ts-report-unknown-shapes"> {
  let summary = "Report the ops whose tensor results no shape rule refines";
  let description = [{
    Run after `ts-infer-shapes`: every op that produces a tensor whose dtype
    or sizes are not fully known, and that has no shape rule, is reported
    once per op name (a `ts.operator` by its TorchScript kind), at its first
    occurrence, with the number of occurrences: a warning, or an error that
    fails the pass with `fail=true`. Ops that have a rule but whose results
    stay partly unknown because their inputs are (a function argument of
    unknown shape, a non-constant size) are not errors: one remark
    summarises them, by op name.

    ```mlir
    %w = ts.prim.GetAttr %self["weight"] : !ts.module<"M"> -> !ts.tensor
    // warning: no shape rule for 'ts.prim.GetAttr' (1 occurrence)
    %y = ts.aten.relu %x : (!ts.tensor) -> !ts.tensor
    // remark: 1 tensor result of ops with shape rules is not fully known
    //         because their inputs are not: ts.aten.relu (1)
    ```
  }];
  let options = [
    Option<"fail", "fail", "bool", /*default=*/"false",
           "Report errors and fail when an op has no shape rule">
  ];
}

def TSSpecializePass : Pass<"ts-specialize", "::mlir::ModuleOp"> {
  let summary = "Refine function argument types, then infer shapes";
  let description = [{
    Gives the tensor arguments of a function the dtypes and sizes of the
    inputs it will run on, then runs the inference of `ts-infer-shapes` on
    it. The options are parsed by the pass itself (MLIR's option syntax has
    no room for sizes), comma-separated:

    * `argN=DTYPE[d0,d1,...]`: argument N (counting every argument, `self`
      included) has this dtype (`f32`, `f64`, `f16`, `bf16`, `i64`, `i32`,
      `i16`, `i8`, `u8`, `bool`) and these sizes (`?` for an unknown size;
      `f32[]` is 0-d). The dtype or the sizes may be left out: `arg0=f32`,
      `arg0=[?,128]`.
    * `inputs=a.npy,b.npy,...`: the dtypes and shapes in the headers of
      these .npy files (only the headers are read; the data need not be
      there), for the tensor arguments in order; arguments of other types
      (a module's `self`, ints, optionals) are skipped.
    * `func=NAME`: the function to specialise. Without it: the only public
      function if there is one, else every function the spec fits.

    The specialised types state the dtype and sizes only: no strides (the
    layout is the caller's), device or requires_grad. A spec that contradicts
    a fact an argument's type already states, an argument index out of
    range, an argument that is not a tensor, a bad spec or .npy file are
    errors that fail the pass.

    ```mlir
    // tsmlir-opt --ts-specialize="arg0=f32[64,128],arg1=f32[128]"
    func.func @f(%x: !ts.tensor, %b: !ts.tensor) -> !ts.tensor {
      %0 = ts.aten.add.Tensor %x, %b, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
      return %0 : !ts.tensor
    }
    // becomes
    func.func @f(%x: !ts.tensor<f32, [64, 128]>, %b: !ts.tensor<f32, [128]>) -> !ts.tensor<f32, [64, 128]> {
      %0 = ts.aten.add.Tensor %x, %b, %one : (...) -> !ts.tensor<f32, [64, 128]>
      return %0 : !ts.tensor<f32, [64, 128]>
    }
    ```
  }];
}

def TSInsertGuardsPass : Pass<"ts-insert-guards", "::mlir::ModuleOp"> {
  let summary = "Specialise a function behind a type guard, keeping its "
                "signature";
  let description = [{
    Takes the same options as `ts-specialize` and specialises the same
    functions, but keeps each one's signature: its body becomes a
    `fusion.guarded` whose `specialized` region is a copy of the body with
    the argument types of the spec (and everything inferred from them), and
    whose `fallback` region is the original body, for inputs of any other
    type. The guard checks what the specialised argument types state (dtype
    and sizes). Callers need not change; later passes compile the
    specialised region and keep the fallback for the interpreter, as
    PyTorch's profiling executor does with `prim::TypeCheck` and a fallback
    graph. The function's result types are refined only by what both
    regions agree on.

    ```mlir
    // tsmlir-opt --ts-insert-guards="arg0=f32[4]"
    func.func @f(%x: !ts.tensor) -> !ts.tensor {
      %0 = ts.aten.relu %x : (!ts.tensor) -> !ts.tensor
      return %0 : !ts.tensor
    }
    // becomes
    func.func @f(%x: !ts.tensor) -> !ts.tensor {
      %r = fusion.guarded(%x) : (!ts.tensor) -> !ts.tensor specialized {
      ^bb0(%a: !ts.tensor<f32, [4]>):
        %0 = ts.aten.relu %a : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
        fusion.yield %0 : !ts.tensor<f32, [4]>
      } fallback {
      ^bb0(%a: !ts.tensor):
        %0 = ts.aten.relu %a : (!ts.tensor) -> !ts.tensor
        fusion.yield %0 : !ts.tensor
      }
      return %r : !ts.tensor
    }
    ```
  }];
  let dependentDialects = ["::mlir::tsmlir::fusion::FusionDialect"];
}

#endif // TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_PASSES_TD
