//===- Load.cpp - Import a graph from any of its forms --------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Compiler/Load.h"

#include "tsmlir/Target/PtArchive/Import.h"
#include "tsmlir/Target/TorchScript/Import.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::tsmlir;

OwningOpRef<ModuleOp> mlir::tsmlir::loadModule(StringRef path,
                                               const LoadOptions &options,
                                               MLIRContext *context,
                                               llvm::SourceMgr &sourceMgr,
                                               std::string &error) {
  error.clear();
  StringRef extension = llvm::sys::path::extension(path);
  if (isZipFile(path) || extension == ".pt" || extension == ".pth") {
    PtImportOptions ptOptions;
    if (!options.entry.empty())
      ptOptions.entry = options.entry;
    return importPtArchive(path, context, ptOptions);
  }
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &error);
  if (!file)
    return nullptr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  if (extension == ".mlir")
    return parseSourceFile<ModuleOp>(sourceMgr, context);
  TorchScriptImportOptions textOptions;
  textOptions.paramsFile = options.paramsFile;
  textOptions.functionFiles.assign(options.functionFiles.begin(),
                                   options.functionFiles.end());
  return importTorchScript(sourceMgr, context, textOptions);
}
