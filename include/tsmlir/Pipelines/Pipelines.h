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
};

/// ts (typed, static shapes) -> linalg on tensors, fused per group.
void buildTSToLinalgPipeline(OpPassManager &pm,
                             const LowerToLLVMOptions &options);
/// linalg on tensors -> buffers -> parallel loops.
void buildLinalgToLoopsPipeline(OpPassManager &pm,
                                const LowerToLLVMOptions &options);
/// loops -> LLVM dialect, ready for translation to LLVM IR.
void buildLoopsToLLVMPipeline(OpPassManager &pm,
                              const LowerToLLVMOptions &options);
/// The three in order: `--ts-lower-to-llvm`.
void buildLowerToLLVMPipeline(OpPassManager &pm,
                              const LowerToLLVMOptions &options);

/// Registers `--ts-lower-to-llvm` and its stages
/// (`--ts-lower-to-linalg`, `--ts-linalg-to-loops`, `--ts-loops-to-llvm`).
void registerPipelines();

} // namespace mlir::tsmlir

#endif // TSMLIR_PIPELINES_PIPELINES_H
