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

#endif // TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_PASSES_TD
