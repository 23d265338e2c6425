//===- tsmlir-opt.cpp - mlir-opt with the tsmlir dialects and passes ------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h"
#include "tsmlir/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

static llvm::cl::opt<bool> passStatistics(
    "ts-pass-statistics",
    llvm::cl::desc("Print, per pass, how many TorchScript nodes it removed "
                   "(nested pipelines such as --ts-optimize included)"),
    llvm::cl::init(false));

int main(int argc, char **argv) {
  mlir::tsmlir::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::tsmlir::registerAllDialectsWithUpstream(registry);

  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "tsmlir optimizer driver: TorchScript on MLIR\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  // The setup function replaces the one that adds the passes named on the
  // command line: call that one first.
  mlir::MlirOptMainConfig commandLine = config;
  config.setPassPipelineSetupFn([commandLine](mlir::PassManager &pm) {
    if (mlir::failed(commandLine.setupPassPipeline(pm)))
      return mlir::failure();
    if (passStatistics)
      mlir::tsmlir::ts::addNodeCountInstrumentation(pm, llvm::errs());
    return mlir::success();
  });
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(input), registry,
                                     config)))
    return 1;
  output->keep();
  return 0;
}
