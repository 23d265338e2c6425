//===- LowerToLLVM.cpp - --ts-lower-to-llvm -------------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CPU pipeline, in three stages that tsmlir-opt can run one at a time:
//
//   --ts-lower-to-linalg   ts -> linalg/tensor/arith/math/scf, groups fused
//   --ts-linalg-to-loops   -> buffers -> scf.parallel loops (OpenMP threads)
//   --ts-loops-to-llvm     -> LLVM dialect
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Pipelines/Pipelines.h"

#include "tsmlir/Conversion/Passes.h"
#include "tsmlir/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tsmlir;

void mlir::tsmlir::buildTSToLinalgPipeline(OpPassManager &pm,
                                           const LowerToLLVMOptions &options) {
  // Every ts op to linalg on tensors; each fusion.group's generics fused.
  ConvertTorchScriptToLinalgPassOptions convert;
  convert.fuseGroups = options.fuseGroups;
  convert.rowTemporaries = options.rowTemporaries;
  pm.addPass(createConvertTorchScriptToLinalgPass(convert));
  // Results as output buffers the caller allocates (tsmlir-run, AOT).
  if (!options.entry.empty()) {
    TSDestinationStyleEntryPassOptions entry;
    entry.entry = options.entry;
    pm.addPass(createTSDestinationStyleEntryPass(entry));
  }
  // Constants and casts the patterns left behind.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void mlir::tsmlir::buildBufferizePipeline(OpPassManager &pm) {
  // A result's tensor.empty becomes its output buffer, so the last loop
  // nest writes the output directly; an init CSE shared between two results
  // is unshared first, so that neither writes the other's buffer.
  pm.addNestedPass<func::FuncOp>(createTSUnshareInitTensorsPass());
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  // Tensors to buffers across the whole module; results written in place.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // Copies (into padded or sliced buffers) as linalg.copy, which become loops
  // like the rest: the code calls no runtime library (memrefCopy).
  pm.addNestedPass<func::FuncOp>(createTSMemrefCopyToLinalgPass());
}

void mlir::tsmlir::buildLinalgToLoopsPipeline(
    OpPassManager &pm, const LowerToLLVMOptions &options) {
  buildBufferizePipeline(pm);
  // Parameters as flat arrays: quick for LLVM to translate and emit.
  pm.addPass(createTSFlattenConstantGlobalsPass());
  // Temporaries of static shape allocated once, not on every call.
  if (options.staticBuffers)
    pm.addPass(createTSStaticBuffersPass());
  // Frees every other temporary buffer.
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  // The clones deallocation made (a function returning a buffer it does not
  // own) as allocations and copies.
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createCanonicalizerPass());
  // Row loops of groups with reductions (scf.forall) as parallel loops.
  pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
  // Each generic becomes a loop nest: parallel dims as scf.parallel.
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  // Reduction accumulators in registers, reassociable: vectorizable.
  pm.addNestedPass<func::FuncOp>(createTSPromoteAccumulatorsPass());
  // Polynomial math keeps the loops vectorizable.
  if (options.approximateMath)
    pm.addPass(createTSApproximateMathPass());
  // Threads run whole rows: only the outer dimension of a big enough nest
  // stays parallel, and its inner loops vectorize.
  pm.addNestedPass<func::FuncOp>(createTSOuterParallelLoopsPass());
  // Parallel loops on OpenMP threads.
  if (options.threads != 1) {
    ConvertSCFToOpenMPPassOptions omp;
    omp.numThreads = options.threads;
    pm.addPass(createConvertSCFToOpenMPPass(omp));
  }
  pm.addPass(createCanonicalizerPass());
  // A row loop's temporaries allocated once per thread, on its stack, not
  // malloc'ed per row.
  pm.addNestedPass<func::FuncOp>(createTSLoopTemporariesOnStackPass());
}

void mlir::tsmlir::buildLoopsToLLVMPipeline(OpPassManager &pm,
                                            const LowerToLLVMOptions &options) {
  // Library kernels (ts-library-kernels) as calls.
  ConvertKernelToCallsPassOptions kernels;
  kernels.threads = options.threads;
  pm.addPass(createConvertKernelToCallsPass(kernels));
  // Subviews as plain pointer arithmetic.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  if (options.raiseHook)
    pm.addPass(createTSRaiseHookPass());
  pm.addPass(createSCFToControlFlowPass());
  if (options.threads != 1)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createConvertMathToLLVMPass());
  // f64 and remaining math (erf, tanh on f64) as libm calls.
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::tsmlir::buildLowerToLLVMPipeline(OpPassManager &pm,
                                            const LowerToLLVMOptions &options) {
  buildTSToLinalgPipeline(pm, options);
  buildLinalgToLoopsPipeline(pm, options);
  buildLoopsToLLVMPipeline(pm, options);
}

void mlir::tsmlir::registerPipelines() {
  PassPipelineRegistration<LowerToLLVMOptions>(
      "ts-lower-to-llvm",
      "Lower a typed ts module to the LLVM dialect for the CPU: linalg "
      "(fusion groups fused), buffers, parallel loops (OpenMP threads), LLVM",
      buildLowerToLLVMPipeline);
  PassPipelineRegistration<LowerToLLVMOptions>(
      "ts-lower-to-linalg",
      "First stage of --ts-lower-to-llvm: ts to linalg on tensors",
      buildTSToLinalgPipeline);
  PassPipelineRegistration<LowerToLLVMOptions>(
      "ts-linalg-to-loops",
      "Second stage of --ts-lower-to-llvm: bufferise, parallel loops",
      buildLinalgToLoopsPipeline);
  PassPipelineRegistration<LowerToLLVMOptions>(
      "ts-loops-to-llvm",
      "Third stage of --ts-lower-to-llvm: loops to the LLVM dialect",
      buildLoopsToLLVMPipeline);
  PassPipelineRegistration<LowerToNVVMOptions>(
      "ts-lower-to-nvvm",
      "Lower a typed ts module for NVIDIA GPUs: linalg (fusion groups "
      "fused), buffers, one kernel per group, NVVM, PTX or cubin embedded "
      "in a host module that calls the runtime",
      buildLowerToNVVMPipeline);
  PassPipelineRegistration<LowerToNVVMOptions>(
      "ts-lower-to-gpu",
      "First stage of --ts-lower-to-nvvm: ts to gpu.launch kernels on buffers",
      buildTSToGPUPipeline);
  PassPipelineRegistration<LowerToNVVMOptions>(
      "ts-gpu-to-nvvm",
      "Second stage of --ts-lower-to-nvvm: kernels to NVVM and PTX/cubin, "
      "host code to the LLVM dialect",
      buildGPUToNVVMPipeline);
}
