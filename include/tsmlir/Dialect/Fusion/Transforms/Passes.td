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
    %r = fusion.group nnc (%x, %y) : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
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
    Option<"strategy", "strategy", "::mlir::tsmlir::fusion::Strategy",
           /*default=*/"::mlir::tsmlir::fusion::Strategy::NNC",
           "pointwise, nnc, nvfuser or aggressive",
           [{::llvm::cl::values(
             clEnumValN(::mlir::tsmlir::fusion::Strategy::Pointwise,
                        "pointwise", "elementwise ops only"),
             clEnumValN(::mlir::tsmlir::fusion::Strategy::NNC, "nnc",
                        "PyTorch's TensorExpr fuser"),
             clEnumValN(::mlir::tsmlir::fusion::Strategy::NVFuser, "nvfuser",
                        "nvFuser: reductions and normalisations too"),
             clEnumValN(::mlir::tsmlir::fusion::Strategy::Aggressive,
                        "aggressive", "everything the code generator fuses"))}]>,
    Option<"minSize", "min-size", "int64_t", /*default=*/"2",
           "Form no group of fewer ops">
  ];
  let statistics = [
    Statistic<"numGroups", "groups", "Fusion groups formed">,
    Statistic<"numFused", "fused-ops", "Ops moved into fusion groups">
  ];
  let dependentDialects = ["::mlir::tsmlir::fusion::FusionDialect"];
}

def TSFusionReportPass : Pass<"ts-fusion-report", "::mlir::ModuleOp"> {
  let summary = "Print fusion plans, their memory traffic and why ops stay unfused";
  let description = [{
    An analysis: plans the groups of every function with one strategy, or
    with each of the four (see `ts-create-fusion-groups`), and prints, per
    function and strategy, without changing the IR:

    * each group: its ops (TorchScript kinds, in block order, and counted
      by kind), its input and output tensors with their types, and the
      tensor loads, stores and bytes before fusion (every op reads each
      tensor operand and writes each tensor result) against after (the group
      reads its inputs once and writes its outputs once);
    * every tensor op left outside a group, with its location and the
      reason (unsupported kind, strategy excludes it, unknown shape, side
      effect, would create a cycle, used outside before the group would
      run, group below min-size);
    * a summary: groups, ops fused and left, bytes before and after;
    * for the forward function of a `--ts-differentiate` split, what it
      saves for the backward (its `ts.autodiff` attribute: the policy, the
      values and bytes saved, the arguments the backward reads again, the
      ops it recomputes), before its groups; the backward function's groups
      follow as any function's do.

    Ops in nested regions (the specialised body of `fusion.guarded`,
    `prim::If` and `prim::Loop` bodies) are planned block by block, as the
    planner does. Sizes are only known where shapes are: run it after
    `ts-insert-guards` or `ts-specialize` and `ts-optimize`.

    `format` is `text` (tables), `json` (one JSON document) or `dot`
    (Graphviz: ops as nodes, one filled `cluster_N` per group, edges labelled
    with the bytes of the tensor on them, unfused ops with their reason; one
    digraph per function and strategy). The format may also be given alone,
    as the first word: `--ts-fusion-report=dot`,
    `--ts-fusion-report=json,strategy=nnc`. The report goes to stderr, so
    that it does not mix with the IR tsmlir-opt prints; `output=-` sends it
    to stdout and `output=FILE` to a file.

    ```
    $ tsmlir-opt r.mlir --ts-insert-guards=inputs=a.npy,b.npy --ts-optimize \
        --ts-fusion-report=strategy=nnc -o /dev/null
    === @main, strategy nnc ===
    group 0: 28 ops in fusion.guarded region #0 (2 x aten::slice, 8 x aten::select, 7 x aten::sub, ...)
      ...
                  loads  stores   bytes read  bytes written        bytes
        before       44      28       296000         136000       432000
        after         2       1        32000           4000        36000
    unfused ops:
      aten::slice   source.py:11:13  unknown shape  in fusion.guarded region #1
      ...
    summary nnc: 1 groups, 28 ops fused, 28 ops left; loads 44 -> 2, stores 28 -> 1, bytes 432000 -> 36000 (12.00x)
    ```

    See docs/fusion-report.md.
  }];
  let options = [
    Option<"format", "format", "std::string", /*default=*/"\"text\"",
           "text, json or dot">,
    Option<"strategy", "strategy", "std::string", /*default=*/"\"all\"",
           "pointwise, nnc, nvfuser, aggressive or all">,
    Option<"minSize", "min-size", "int64_t", /*default=*/"2",
           "Form no group of fewer ops">,
    Option<"output", "output", "std::string", /*default=*/"\"\"",
           "Where to write: stderr when empty, stdout for -, else a file">
  ];
}

#endif // TSMLIR_DIALECT_FUSION_TRANSFORMS_PASSES_TD
