//===- Passes.td - Fusion passes ---------------------------*- tablegen -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_FUSION_TRANSFORMS_PASSES_TD
#define TSMLIR_DIALECT_FUSION_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TSCreateFusionGroupsPass
    : Pass<"ts-create-fusion-groups", "::mlir::func::FuncOp"> {
  let summary = "Group ops that can run as one kernel into fusion.group ops";
  let description = [{
    Plans the groups of each block with one strategy (see
    `FusionPlanner.h`) and turns each into a `fusion.group` that runs where
    its last op was:

    | strategy | a group may hold |
    |---|---|
    | `pointwise` | elementwise ops, with broadcasting and scalar operands (PyTorch's legacy fuser) |
    | `nnc` | + softmax, log_softmax, views, cat, matmul (NNC, PyTorch's TensorExpr fuser) |
    | `nvfuser` | pointwise + softmax, views, reductions (sum, mean, var, amax, layer_norm, ...) |
    | `aggressive` | nvfuser + one matmul/linear with its pointwise epilogue; independent groups that read a common input merge into one multi-output group |

    A group never crosses a region (the bodies of `prim::If` and
    `prim::Loop` are planned on their own), never holds an op that writes
    (in-place ops, prints, random ops) nor moves a read across one, never
    makes a cycle, and only holds ops whose tensors have a known dtype and
    sizes. Constants its ops use are copied into it; a group of fewer than
    `min-size` ops (list constructions not counted) is not formed.

    Types come from shape inference: to fuse a graph whose inputs are not
    typed, specialise it behind a guard first, as PyTorch's profiling
    executor does --
    `--ts-insert-guards=inputs=a.npy,b.npy --ts-optimize
    --ts-create-fusion-groups=strategy=nnc` forms the groups in the
    specialised body, for the types they were formed with, and the fallback
    runs the unfused ops when the inputs differ.

    ```mlir
    %r = fusion.group "nnc" (%x, %y) : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
    ^bb0(%a: !ts.tensor<f32, [4]>, %b: !ts.tensor<f32, [4]>):
      %one = ts.prim.Constant[1] : !ts.int
      %s = ts.aten.add.Tensor %a, %b, %one : ...
      %t = ts.aten.relu %s : ...
      fusion.yield %t : !ts.tensor<f32, [4]>
    }
    ```

    `--ts-fusion-report` prints the same plans with their bytes, and why
    each op left outside is left there.
  }];
  let options = [
    Option<"strategy", "strategy", "std::string", /*default=*/"\"nnc\"",
           "pointwise, nnc, nvfuser or aggressive">,
    Option<"minSize", "min-size", "int64_t", /*default=*/"2",
           "Form no group of fewer ops">
  ];
  let statistics = [
    Statistic<"numGroups", "groups", "Fusion groups formed">,
    Statistic<"numFused", "fused-ops", "Ops moved into fusion groups">
  ];
  let dependentDialects = ["::mlir::tsmlir::fusion::FusionDialect"];
}

#endif // TSMLIR_DIALECT_FUSION_TRANSFORMS_PASSES_TD
