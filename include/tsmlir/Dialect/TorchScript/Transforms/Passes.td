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

#endif // TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_PASSES_TD
