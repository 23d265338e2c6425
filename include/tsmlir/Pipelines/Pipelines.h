//===- Pipelines.h - Named end-to-end pipelines -----------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_PIPELINES_PIPELINES_H
#define TSMLIR_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::tsmlir {

/// Options of `--ts-lower-to-llvm`.
struct LowerToLLVMOptions : public PassPipelineOptions<LowerToLLVMOptions> {
  PassOptions::Option<std::string> entry{
      *this, "entry",
      llvm::cl::desc("Give this function its results as output buffers "
                     "(ts-destination-style-entry; empty: leave signatures "
                     "as they are)"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Worker threads of parallel loops (OpenMP); 1 runs them "
                     "in the calling thread, 0 leaves the choice to the "
                     "OpenMP runtime"),
      llvm::cl::init(1)};
  PassOptions::Option<bool> fuseGroups{
      *this, "fuse-groups",
      llvm::cl::desc("Fuse the generics of each fusion.group"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> rowTemporaries{
      *this, "row-temporaries",
      llvm::cl::desc("A row loop keeps a value its row reads twice in a row "
                     "buffer instead of computing it again (softmax's "
                     "exponentials; convert-ts-to-linalg's option)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> staticBuffers{
      *this, "static-buffers",
      llvm::cl::desc("Allocate temporaries of static shape once, in globals, "
                     "instead of on every call (ts-static-buffers); the "
                     "compiled module then runs one call at a time"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("Expand tanh, erf, exp, log, ... into polynomials the "
                     "loop vectorizer can vectorize, instead of libm calls"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> raiseHook{
      *this, "raise-hook",
      llvm::cl::desc("A failed assertion (prim::RaiseException, an index "
                     "check) calls tsmlir_raise(message), which an in-process "
                     "host defines, before it aborts (ts-raise-hook)"),
      llvm::cl::init(false)};
};

/// ts (typed, static shapes) -> linalg on tensors, fused per group.
void buildTSToLinalgPipeline(OpPassManager &pm,
                             const LowerToLLVMOptions &options);
/// linalg on tensors -> buffers, results written into the output buffers,
/// copies as linalg (shared by the CPU and GPU pipelines).
void buildBufferizePipeline(OpPassManager &pm);
/// linalg on tensors -> buffers -> parallel loops.
void buildLinalgToLoopsPipeline(OpPassManager &pm,
                                const LowerToLLVMOptions &options);
/// loops -> LLVM dialect, ready for translation to LLVM IR.
void buildLoopsToLLVMPipeline(OpPassManager &pm,
                              const LowerToLLVMOptions &options);
/// The three in order: `--ts-lower-to-llvm`.
void buildLowerToLLVMPipeline(OpPassManager &pm,
                              const LowerToLLVMOptions &options);


/// Options of `--ts-lower-to-nvvm`.
struct LowerToNVVMOptions : public PassPipelineOptions<LowerToNVVMOptions> {
  PassOptions::Option<std::string> entry{
      *this, "entry",
      llvm::cl::desc("Give this function its results as output buffers "
                     "(device memory, like its arguments)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> fuseGroups{
      *this, "fuse-groups",
      llvm::cl::desc("Fuse each fusion.group into one kernel"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("The GPU: sm_80, sm_90, ..."),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features", llvm::cl::desc("PTX version (+ptx80: CUDA 12.0)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What gpu-module-to-binary embeds: isa (PTX, which the "
                     "driver compiles when it loads it; needs no CUDA "
                     "toolkit), bin (cubin, through ptxas) or fatbin"),
      llvm::cl::init("isa")};
  PassOptions::Option<int> optLevel{
      *this, "opt-level", llvm::cl::desc("LLVM optimisation level of kernels"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("The CUDA toolkit, for libdevice and ptxas (default: "
                     "$CUDA_HOME, $CUDA_ROOT, $CUDA_PATH, /usr/local/cuda)"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> blockSize{
      *this, "block-size", llvm::cl::desc("Threads per block"),
      llvm::cl::init(256)};
  PassOptions::Option<int64_t> maxBlocks{
      *this, "max-blocks", llvm::cl::desc("Most blocks a kernel launches"),
      llvm::cl::init(65536)};
  PassOptions::Option<int64_t> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("Elements per thread of vectorised elementwise kernels"),
      llvm::cl::init(4)};
};

/// ts (typed, static shapes) -> buffers -> gpu.launch kernels on the host.
void buildTSToGPUPipeline(OpPassManager &pm, const LowerToNVVMOptions &options);
/// gpu.launch -> outlined kernels in NVVM, compiled to PTX/cubin by
/// gpu-module-to-binary; host code in the LLVM dialect calling mgpu*.
void buildGPUToNVVMPipeline(OpPassManager &pm,
                            const LowerToNVVMOptions &options);
/// Both: `--ts-lower-to-nvvm`.
void buildLowerToNVVMPipeline(OpPassManager &pm,
                              const LowerToNVVMOptions &options);

/// Registers `--ts-lower-to-llvm` and its stages
/// (`--ts-lower-to-linalg`, `--ts-linalg-to-loops`, `--ts-loops-to-llvm`),
/// and `--ts-lower-to-nvvm` with its (`--ts-lower-to-gpu`,
/// `--ts-gpu-to-nvvm`).
void registerPipelines();

} // namespace mlir::tsmlir

#endif // TSMLIR_PIPELINES_PIPELINES_H
