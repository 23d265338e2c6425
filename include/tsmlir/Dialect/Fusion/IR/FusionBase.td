//===- FusionBase.td - Fusion dialect definition -----------*- tablegen -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_FUSION_IR_FUSIONBASE_TD
#define TSMLIR_DIALECT_FUSION_IR_FUSIONBASE_TD

include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"

def Fusion_Dialect : Dialect {
  let name = "fusion";
  let cppNamespace = "::mlir::tsmlir::fusion";
  let summary = "Fusion groups, the guards that protect them, and differentiable subgraphs";
  let description = [{
    The `fusion` dialect holds the structure that PyTorch's graph executor
    adds to a graph when it optimises it:

    * `fusion.group`: ops that become one kernel, isolated from the rest of
      the graph (`prim::TensorExprGroup`, `prim::FusionGroup`,
      `prim::CudaFusionGroup`);
    * `fusion.guard`: a run-time check of the types a group was specialised
      for (`prim::TypeCheck`);
    * `fusion.guarded`: the specialised code when the check holds, the
      original code otherwise (`prim::TypeCheck` + `prim::If` + fallback
      function);
    * `fusion.differentiable_graph`: a subgraph with a backward graph
      (`prim::DifferentiableGraph`).

    The ops hold values of any type, so they work on the `ts` dialect as well
    as on builtin tensors after lowering.
  }];
}

def Fusion_Strategy : I32EnumAttr<"Strategy",
    "the fuser that formed a fusion group", [
      I32EnumAttrCase<"Pointwise", 0, "pointwise">,
      I32EnumAttrCase<"NNC", 1, "nnc">,
      I32EnumAttrCase<"NVFuser", 2, "nvfuser">,
      I32EnumAttrCase<"Aggressive", 3, "aggressive">,
      // A group the lowering makes around one op (softmax, layer_norm) so
      // that it becomes one kernel; no planner forms it.
      I32EnumAttrCase<"Op", 4, "op">]> {
  let cppNamespace = "::mlir::tsmlir::fusion";
}

class Fusion_Op<string mnemonic, list<Trait> traits = []>
    : Op<Fusion_Dialect, mnemonic, traits>;

#endif // TSMLIR_DIALECT_FUSION_IR_FUSIONBASE_TD
