//===- Translations.cpp - mlir-translate registrations --------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/InitAll.h"
#include "tsmlir/Target/TorchScript/Export.h"
#include "tsmlir/Target/TorchScript/Import.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;
using namespace mlir::tsmlir;

void mlir::tsmlir::registerTorchScriptTranslations() {
  static llvm::cl::opt<std::string> paramsFile(
      "params",
      llvm::cl::desc("With --import-torchscript: a safetensors file whose "
                     "tensors bind to module attributes"),
      llvm::cl::value_desc("file.safetensors"), llvm::cl::init(""));
  static llvm::cl::opt<std::string> functionName(
      "function-name",
      llvm::cl::desc("With --import-torchscript: the name of the function "
                     "the graph becomes"),
      llvm::cl::init("main"));
  static llvm::cl::list<std::string> functionFiles(
      "import-function",
      llvm::cl::desc("With --import-torchscript: also import the graph in "
                     "FILE as the private function NAME (repeatable): the "
                     "callee of a prim::CallFunction (`helper`) or "
                     "prim::CallMethod (`__torch__.foo.Bar.forward`), for "
                     "ts-inline"),
      llvm::cl::value_desc("NAME=FILE"));

  static TranslateToMLIRRegistration importRegistration(
      "import-torchscript", "Import TorchScript IR text into the ts dialect",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) {
        TorchScriptImportOptions options;
        options.paramsFile = paramsFile;
        options.functionName = functionName;
        for (llvm::StringRef entry : functionFiles) {
          auto [name, path] = entry.split('=');
          if (name.empty() || path.empty()) {
            mlir::emitError(UnknownLoc::get(context),
                            "--import-function expects NAME=FILE, got '" +
                                entry + "'");
            return OwningOpRef<Operation *>();
          }
          options.functionFiles.emplace_back(name.str(), path.str());
        }
        return OwningOpRef<Operation *>(
            importTorchScript(sourceMgr, context, options).release());
      },
      [](DialectRegistry &registry) {
        registerTorchScriptImportDialects(registry);
      });

  static TranslateFromMLIRRegistration exportRegistration(
      "export-torchscript", "Export the ts dialect as TorchScript IR text",
      [](Operation *op, llvm::raw_ostream &os) {
        return exportTorchScript(op, os);
      },
      [](DialectRegistry &registry) {
        registerAllDialectsWithUpstream(registry);
      });
}
