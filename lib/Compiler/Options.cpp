//===- Options.cpp - How a graph is compiled ------------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Compiler/Options.h"

#include "tsmlir/Pipelines/Pipelines.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tsmlir;

StringRef mlir::tsmlir::stringifyDevice(Device device) {
  return device == Device::CUDA ? "cuda" : "cpu";
}

std::optional<Device> mlir::tsmlir::symbolizeDevice(StringRef name) {
  return llvm::StringSwitch<std::optional<Device>>(name)
      .Case("cpu", Device::CPU)
      .Case("cuda", Device::CUDA)
      .Default(std::nullopt);
}

StringRef CompileOptions::getFusionName() const {
  return fusion ? fusion::stringifyStrategy(*fusion) : "none";
}

bool CompileOptions::setFusion(StringRef name) {
  if (name == "none") {
    fusion.reset();
    return true;
  }
  std::optional<fusion::Strategy> strategy = fusion::parsePlannedStrategy(name);
  if (!strategy)
    return false;
  fusion = *strategy;
  return true;
}

llvm::Error CompileOptions::verify() const {
  auto error = [](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
  };
  if (optLevel > 3)
    return error("-O" + llvm::Twine(optLevel) + ": the level is 0, 1, 2 or 3");
  if (gpu.blockSize < 32 || gpu.blockSize > 1024 || gpu.blockSize % 32 != 0)
    return error("--gpu-block-size must be a multiple of 32 from 32 to 1024");
  if (gpu.maxBlocks < 1)
    return error("--gpu-max-blocks must be positive");
  if (!llvm::is_contained({1, 2, 4, 8}, gpu.vectorWidth))
    return error("--gpu-vector-width must be 1, 2, 4 or 8");
  if (gpu.format != "isa" && gpu.format != "bin" && gpu.format != "fatbin")
    return error("--gpu-format must be isa, bin or fatbin, not '" + gpu.format +
                 "'");
  return llvm::Error::success();
}

std::string CompileOptions::describe() const {
  std::string text = llvm::formatv(
      "entry={0} fusion={1} device={2} threads={3} approximate-math={4} "
      "O={5}",
      entry, getFusionName(), stringifyDevice(device), threads, approximateMath,
      optLevel);
  if (dynamicSizes)
    text += " dynamic-sizes";
  if (libraryKernels)
    text += " library-kernels";
  if (moduleState == ModuleStateHome::Caller)
    text += " module-state=caller";
  if (gradients)
    text += (" gradients=" + ts::stringifySavePolicy(autodiffPolicy)).str();
  if (device == Device::CUDA)
    text += llvm::formatv(" chip={0} format={1} block={2} max-blocks={3} "
                          "vector-width={4}",
                          gpu.chip, gpu.format, gpu.blockSize, gpu.maxBlocks,
                          gpu.vectorWidth)
                .str();
  return text;
}

StringRef mlir::tsmlir::getLibraryKernelsPath() {
#ifdef TSMLIR_KERNELS_LIBRARY
  return TSMLIR_KERNELS_LIBRARY;
#else
  return "";
#endif
}

bool mlir::tsmlir::hasLibraryKernels() {
  return !getLibraryKernelsPath().empty();
}

void mlir::tsmlir::getLoweringOptions(const CompileOptions &options,
                                      StringRef entry,
                                      LowerToLLVMOptions &lowering) {
  lowering.entry = entry.str();
  lowering.threads = options.threads;
  lowering.approximateMath = options.approximateMath;
}

void mlir::tsmlir::getLoweringOptions(const CompileOptions &options,
                                      StringRef entry,
                                      LowerToNVVMOptions &lowering) {
  lowering.entry = entry.str();
  lowering.chip = options.gpu.chip;
  lowering.format = options.gpu.format;
  lowering.blockSize = options.gpu.blockSize;
  lowering.maxBlocks = options.gpu.maxBlocks;
  lowering.vectorWidth = options.gpu.vectorWidth;
}
