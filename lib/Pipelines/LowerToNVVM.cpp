//===- LowerToNVVM.cpp - --ts-lower-to-nvvm -------------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The GPU pipeline, in two stages that tsmlir-opt can run one at a time:
//
//   --ts-lower-to-gpu   ts -> linalg (groups fused) -> buffers -> one
//                       gpu.launch per loop nest or row loop
//   --ts-gpu-to-nvvm    kernels outlined, NVVM, PTX/cubin embedded in the
//                       module; host code in the LLVM dialect
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Pipelines/Pipelines.h"

#include "tsmlir/Conversion/Passes.h"
#include "tsmlir/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/FileSystem.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::tsmlir;

void mlir::tsmlir::buildTSToGPUPipeline(OpPassManager &pm,
                                        const LowerToNVVMOptions &options) {
  // The same linalg as the CPU's: each group one generic or one row loop.
  LowerToLLVMOptions linalg;
  linalg.entry = options.entry;
  linalg.fuseGroups = options.fuseGroups;
  // A row's temporaries would be shared memory, 48 KiB a block: recomputed
  // from registers instead (softmax's exp: the kernel is memory-bound).
  linalg.rowTemporaries = false;
  buildTSToLinalgPipeline(pm, linalg);
  // Buffers, results written in place into the output buffers.
  buildBufferizePipeline(pm);
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  pm.addPass(createCanonicalizerPass());
  // One kernel per loop nest or row loop.
  ConvertLinalgToGPUPassOptions kernels;
  kernels.blockSize = options.blockSize;
  kernels.maxBlocks = options.maxBlocks;
  kernels.vectorWidth = options.vectorWidth;
  pm.addPass(createConvertLinalgToGPUPass(kernels));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

/// The CUDA toolkit gpu-module-to-binary takes libdevice (and, for cubins,
/// ptxas) from: the option, else $CUDA_HOME, $CUDA_ROOT, $CUDA_PATH, else
/// /usr/local/cuda or /usr/lib/cuda where they hold libdevice. Without one,
/// PTX is still produced, with libdevice's functions left as externals.
static std::string findCudaToolkit(StringRef option) {
  if (!option.empty())
    return option.str();
  for (const char *var : {"CUDA_HOME", "CUDA_ROOT", "CUDA_PATH"})
    if (const char *path = std::getenv(var))
      return path;
  for (StringRef path : {"/usr/local/cuda", "/usr/lib/cuda"})
    if (llvm::sys::fs::exists(path + "/nvvm/libdevice/libdevice.10.bc"))
      return path.str();
  return "";
}

void mlir::tsmlir::buildGPUToNVVMPipeline(OpPassManager &pm,
                                          const LowerToNVVMOptions &options) {
  // Constants the canonicalizer hoisted go back into the kernels.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  // One stream per call: launches, copies and frees are queued on it and
  // the host waits once, at the end.
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  // Host and kernels to the LLVM dialect.
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Kernels: gpu ops (ids, barriers, all-reduce shuffles) to NVVM, math to
  // libdevice calls.
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  // Host: launches, copies, allocations as mgpu* calls; kernels compiled
  // and embedded.
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = findCudaToolkit(options.cudaPath);
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::tsmlir::buildLowerToNVVMPipeline(OpPassManager &pm,
                                            const LowerToNVVMOptions &options) {
  buildTSToGPUPipeline(pm, options);
  buildGPUToNVVMPipeline(pm, options);
}
