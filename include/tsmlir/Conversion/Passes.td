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
    Option<"rowTemporaries", "row-temporaries", "bool", /*default=*/"true",
           "Keep a value a row loop reads twice in a row buffer instead of "
           "computing it again (softmax's exponentials, computed once; "
           "x - mean): the CPU's rows stay in cache, the GPU's row buffers "
           "are shared memory, 48 KiB a block">,
    Option<"listPatterns", "list-patterns", "bool", /*default=*/"false",
           "Print the name of every op the conversion has a pattern for, "
           "one a line, and leave the module unchanged">,
    Option<"testPatternRoot", "test-pattern-root", "std::string",
           /*default=*/"\"\"",
           "Testing only: also register a pattern rooted at this op name "
           "(a name that is no registered op stops the compiler)">,
  ];
  // The ts dialect is loaded before the patterns are built, so that the
  // check that every pattern's root is a registered op can rely on it.
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::ml_program::MLProgramDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
    "::mlir::tsmlir::fusion::FusionDialect",
    "::mlir::tsmlir::kernel::KernelDialect",
    "::mlir::tsmlir::ts::TorchScriptDialect",
  ];
}

def ConvertLinalgToGPUPass : Pass<"ts-linalg-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Map bufferised linalg ops to GPU kernels (gpu.launch), one per op or row loop";
  let description = [{
    Runs after bufferisation on the host functions of a module. Named linalg
    ops (fills, copies, contractions) are generalised first. Each top-level
    `linalg.generic` and each
    `scf.forall` row loop that fusion made of a group with reductions
    becomes one `gpu.launch`:

    * an elementwise generic becomes a grid-stride loop over its linearised
      iteration space, 256 threads a block (fewer for small tensors) and no
      more blocks than `max-blocks`. When every operand it reads or writes
      in iteration order is contiguous, each thread handles `vector-width`
      consecutive elements with 128-bit vector loads and stores;
    * a reduction generic gives each output element to a block: the block's
      threads stride over the reduced elements, accumulate a partial in a
      register and combine the partials with `gpu.all_reduce` (warp shuffles
      and shared memory). Reductions with short rows, several results or a
      body whose combining op is not a plain add/mul/min/max/and/or/xor run
      one thread per output element instead;
    * a row loop (`scf.forall`) gives each row to a block: its small
      temporaries live in shared memory (workgroup attributions), its
      elementwise ops stride over the row with the block's threads, its
      reductions are block reductions, with a barrier between ops.

    Kernels are named after the fusion group they come from
    (`<function>_group<N>`, N counting the function's groups from 0, from
    the `tsmlir.group` attribute that `--convert-ts-to-linalg` leaves on a
    group's loop nests; a group that needed several kernels gives
    `_group<N>_1`, ...), after the op lowered on its own that they come from
    (`<function>_softmax<K>`, from `tsmlir.op`), or after the kind of loop
    nest (`<function>_elementwise<K>`, `<function>_reduction<K>`); all
    kernels of a function go to one `gpu.module`, `<function>_kernels`.

    Host code keeps the control flow and the views: `memref.alloc` and
    `memref.dealloc` become `gpu.alloc` and `gpu.dealloc`, and a scalar the
    host reads from or writes to a device buffer (a `prim::If` condition, a
    number stored into a tensor) goes through a one-thread kernel and a
    `gpu.memcpy`. Anything else the host cannot run on device memory is
    reported at its location.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block (a multiple of 32, at most 1024)">,
    Option<"maxBlocks", "max-blocks", "int64_t", /*default=*/"65536",
           "Most blocks a kernel launches; larger tensors are covered by "
           "grid-stride loops">,
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"4",
           "Elements per thread, loaded and stored as one vector, in "
           "elementwise kernels over contiguous 32-bit data (1 turns it off)">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect",
  ];
}

def TSLibraryKernelsPass : Pass<"ts-library-kernels", "::mlir::ModuleOp"> {
  let summary = "Run convolutions and matrix products as library kernels, with their epilogues";
  let description = [{
    Replaces each f32 2-D convolution (`aten::conv2d`, `aten::_convolution`
    not transposed) and matrix product (`aten::linear`, `aten::matmul`,
    `aten::mm`, `aten::bmm`, `aten::addmm` with alpha = beta = 1) of static
    shape by a `kernel.conv2d` or `kernel.matmul`, which
    `convert-kernel-to-calls` later makes a call into `libtsmlir_kernels`
    (oneDNN). The pointwise chain that follows the product becomes its
    epilogue while each op in it is the only user of the one before and is
    one the library applies to the output tile: `relu`, `leaky_relu`,
    `relu6`, `hardtanh`, `clamp` with constant bounds, `gelu`, `silu`,
    `hardswish`, `sigmoid`, `tanh`, `elu`, multiplying or adding a constant
    scalar, and one residual add of a tensor of the output's shape
    (`aten::add.Tensor` with alpha 1), so the output is written once.

    ```mlir
    %y = ts.aten.conv2d %x, %w, %b, ...
    %r = ts.aten.relu %y
    // becomes
    %r = kernel.conv2d %x, %w bias(%b : ...) {..., epilogue = [#kernel.step<relu, 0.0, 0.0>]}
    ```

    The pass runs before fusion groups form, so that the epilogue joins the
    product rather than a group.
  }];
  let dependentDialects = ["::mlir::tsmlir::kernel::KernelDialect"];
}

def ConvertKernelToCallsPass : Pass<"convert-kernel-to-calls", "::mlir::ModuleOp"> {
  let summary = "Make each bufferised kernel op a call into libtsmlir_kernels";
  let description = [{
    Each `kernel.conv2d` or `kernel.matmul` on buffers becomes a call of
    `tsmlir_kernel_conv2d` or `tsmlir_kernel_matmul`
    (runtime/include/tsmlir/Runtime/Kernels.h) with a descriptor, a
    constant global array of i64 holding the shapes, parameters and
    epilogue, the buffers' addresses and `threads`. A weight read from a
    constant global is flagged constant, so that the library prepares it
    once.
  }];
  let options = [
    Option<"threads", "threads", "unsigned", /*default=*/"0",
           "Threads each call runs on; 0 leaves the OpenMP runtime's number">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // TSMLIR_CONVERSION_PASSES_TD
