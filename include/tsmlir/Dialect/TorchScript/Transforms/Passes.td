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

def TSUnrollLoopsPass : Pass<"ts-unroll-loops"> {
  let summary = "Unroll prim::Loop for loops with a constant trip count";
  let description = [{
    Replaces a `prim::Loop` that is a `for` loop (its initial condition and
    the condition its body yields are the constant `true`) with a known trip
    count by that many copies of its body, each with its iteration number as
    a constant, so that constant propagation, CSE and fusion see straight-line
    code. A loop is unrolled only when its trip count is at most
    `max-trip-count` and the copies hold at most `max-ops` ops in all;
    loops inside loops are unrolled first. Loops that stop early (a `while`
    loop, a `break`) are left alone.

    ```mlir
    %r = ts.prim.Loop %int3, %true init(%x) : (!ts.int, !ts.bool, !ts.tensor) -> !ts.tensor {
    ^bb0(%i: !ts.int, %a: !ts.tensor):
      %b = ts.aten.add.Tensor %a, %a, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
      ts.prim.Yield %true, %b : !ts.bool, !ts.tensor
    }
    // becomes three adds in a row.
    ```
  }];
  let options = [
    Option<"maxTripCount", "max-trip-count", "int64_t", /*default=*/"64",
           "Unroll loops of at most this many iterations">,
    Option<"maxOps", "max-ops", "int64_t", /*default=*/"512",
           "Unroll a loop only when its copies hold at most this many ops">
  ];
  let statistics = [
    Statistic<"numUnrolled", "loops-unrolled", "Loops unrolled">,
    Statistic<"numTooLarge", "loops-too-large",
              "Loops with a constant trip count left alone for their size">
  ];
}

def TSOptimizePass : Pass<"ts-optimize", "::mlir::ModuleOp"> {
  let summary = "The TorchScript graph optimisation pipeline, to a fixed point";
  let description = [{
    What PyTorch's JIT runs on a graph before it fuses, in one pass:

    1. once: `--inline` of calls, `--ts-unroll-loops`;
    2. then, repeated until the module no longer changes (at most
       `max-iterations` rounds): `-canonicalize` (folders and peepholes,
       constant propagation through `prim::If` and `prim::Loop`, dead code
       elimination), `-cse` (merging only what side effects allow),
       `--ts-unroll-loops` (loops whose trip count became constant).

    Every pass it runs is reported by `--mlir-pass-statistics` and by
    `tsmlir-opt --ts-pass-statistics`, which prints the TorchScript nodes
    each pass removed.
  }];
  let options = [
    Option<"maxIterations", "max-iterations", "int64_t", /*default=*/"8",
           "Rounds of the simplification passes at most">,
    Option<"unroll", "unroll", "bool", /*default=*/"true",
           "Unroll loops with a constant trip count">,
    Option<"maxTripCount", "max-trip-count", "int64_t", /*default=*/"64",
           "ts-unroll-loops: unroll loops of at most this many iterations">,
    Option<"maxUnrolledOps", "max-unrolled-ops", "int64_t", /*default=*/"512",
           "ts-unroll-loops: at most this many ops in the copies of a loop">
  ];
  let statistics = [
    Statistic<"numIterations", "iterations",
              "Rounds of the simplification passes run">,
    Statistic<"numNodesRemoved", "nodes-removed",
              "TorchScript nodes the pipeline removed">
  ];
}

#endif // TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_PASSES_TD
