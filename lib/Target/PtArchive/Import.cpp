//===- Import.cpp - torch.jit.save archives to the ts dialect -------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Target/PtArchive/Import.h"

#include "Archive.h"
#include "Emitter.h"

#include "tsmlir/Dialect/Fusion/IR/FusionDialect.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <fstream>
#include <set>

using namespace mlir;
using namespace mlir::tsmlir;

OwningOpRef<ModuleOp> mlir::tsmlir::importPtArchive(
    llvm::StringRef path, MLIRContext *context,
    const PtImportOptions &options) {
  context->loadDialect<ts::TorchScriptDialect, fusion::FusionDialect,
                       func::FuncDialect>();
  FailureOr<std::unique_ptr<pt::PtArchive>> archive =
      pt::PtArchive::open(path, context);
  if (failed(archive))
    return nullptr;
  // The tensor attributes the method writes in place are its state: known
  // once it is emitted, they are emitted again as state, which nothing
  // folds while emitting (a read after a write must see the write).
  std::set<std::string> mutableAttributes;
  while (true) {
    pt::Emitter emitter(**archive);
    emitter.mutableAttributes = mutableAttributes;
    OwningOpRef<ModuleOp> module =
        emitter.emitModule(options.entry, options.functionName);
    if (!module)
      return nullptr;
    size_t known = mutableAttributes.size();
    mutableAttributes.insert(emitter.getWrittenConstants().begin(),
                             emitter.getWrittenConstants().end());
    if (mutableAttributes.size() == known)
      return module;
  }
}

bool mlir::tsmlir::isZipFile(llvm::StringRef path) {
  std::ifstream file(path.str(), std::ios::binary);
  char magic[4] = {0, 0, 0, 0};
  file.read(magic, 4);
  return file.gcount() == 4 && magic[0] == 'P' && magic[1] == 'K' &&
         magic[2] == 3 && magic[3] == 4;
}

void mlir::tsmlir::registerPtArchiveTranslation() {
  static llvm::cl::opt<std::string> entry(
      "pt-entry",
      llvm::cl::desc("With --import-pt: the method to import (default: "
                     "forward)"),
      llvm::cl::init("forward"));
  static TranslateToMLIRRegistration importPt(
      "import-pt", "import a TorchScript archive (.pt, torch.jit.save)",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        // The archive is read from its path (zip members are read on
        // demand); the buffer mlir-translate opened only names it.
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        PtImportOptions options;
        options.entry = entry;
        OwningOpRef<ModuleOp> module =
            importPtArchive(buffer->getBufferIdentifier(), context, options);
        return OwningOpRef<Operation *>(module.release());
      },
      [](DialectRegistry &registry) {
        registry.insert<ts::TorchScriptDialect, fusion::FusionDialect,
                        func::FuncDialect>();
      });
}
