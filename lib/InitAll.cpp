//===- InitAll.cpp - Register every tsmlir dialect and pass ---------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/InitAll.h"

#include "tsmlir/Conversion/Passes.h"
#include "tsmlir/Dialect/Fusion/IR/FusionDialect.h"
#include "tsmlir/Dialect/Fusion/Transforms/Passes.h"
#include "tsmlir/Dialect/Kernel/IR/KernelOps.h"
#include "tsmlir/Dialect/TorchScript/Autodiff/Passes.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptDialect.h"
#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h"
#include "tsmlir/Pipelines/Pipelines.h"
#include "tsmlir/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void mlir::tsmlir::registerAllDialects(DialectRegistry &registry) {
  registry.insert<ts::TorchScriptDialect, fusion::FusionDialect,
                  kernel::KernelDialect>();
  kernel::registerBufferizableOpInterfaceExternalModels(registry);
}

void mlir::tsmlir::registerAllDialectsWithUpstream(DialectRegistry &registry) {
  mlir::tsmlir::registerAllDialects(registry);
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR and NVPTX.
  mlir::registerAllGPUToLLVMIRTranslations(registry);
}

void mlir::tsmlir::registerAllPasses() {
  mlir::registerAllPasses();
  ts::registerTorchScriptPasses();
  ts::registerTorchScriptAutodiffPasses();
  fusion::registerFusionPasses();
  registerTSMLIRConversionPasses();
  registerTSMLIRTransformsPasses();
  registerPipelines();
}
