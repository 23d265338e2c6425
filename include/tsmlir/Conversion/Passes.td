//===- Passes.td - Conversion passes -----------------------*- tablegen -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_CONVERSION_PASSES_TD
#define TSMLIR_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTorchScriptToLinalgPass
    : Pass<"convert-ts-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower ts ops on static shapes to linalg, tensor, arith, math and scf";
  let description = [{
    Turns a fully typed TorchScript graph (every tensor with a known dtype
    and static sizes: specialise it first with `--ts-specialize` or
    `--ts-insert-guards`) into value-semantics code on builtin tensors:

    * elementwise ops become one `linalg.generic` each, with PyTorch's
      broadcasting as indexing maps and its type promotion as casts in the
      body; scalar operands are read in the body;
    * reductions, softmax, log_softmax and layer_norm become reduction
      `linalg.generic`s; matmul, linear, addmm, bmm, conv2d and pooling become
      contractions or linalg's named ops; views become `tensor` slices and
      reshapes;
    * `prim::If` and `prim::Loop` become `scf.if`, `scf.for` and `scf.while`;
    * each `fusion.group` is lowered the same way and then its generics are
      fused with linalg's elementwise fusion, so the group is one loop nest
      per reduction level and its intermediates never reach memory. An op
      outside any group is lowered on its own (the unfused baseline); ops
      that lower to several generics (softmax, layer_norm) are fused within
      themselves.

    A returned tuple is flattened into the function's results. Ops that have
    no lowering, and tensors whose shape is not static, are reported by
    name, each at its location, and the pass fails.

    ```mlir
    // before
    %s = ts.aten.add.Tensor %a, %b, %one : (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [8]>, !ts.int) -> !ts.tensor<f32, [4, 8]>
    // after
    %e = tensor.empty() : tensor<4x8xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                          affine_map<(d0, d1) -> (d1)>,
                                          affine_map<(d0, d1) -> (d0, d1)>], ...}
           ins(%a, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%x: f32, %y: f32, %out: f32):
      %r = arith.addf %x, %y : f32
      linalg.yield %r : f32
    } -> tensor<4x8xf32>
    ```
  }];
  let options = [
    Option<"fuseGroups", "fuse-groups", "bool", /*default=*/"true",
           "Fuse the generics of each fusion.group (false lowers them op by "
           "op, which shows what fusion removes)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
    "::mlir::tsmlir::fusion::FusionDialect",
  ];
}

#endif // TSMLIR_CONVERSION_PASSES_TD
