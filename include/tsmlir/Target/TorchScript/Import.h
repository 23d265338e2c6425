//===- Import.h - TorchScript IR text to the ts dialect ---------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reads TorchScript IR exactly as PyTorch prints it (`print(fn.graph)`,
// `module.inlined_graph`, traced, frozen and profiling-executor graphs) into a
// module holding one `func.func` of `ts` ops. Subgraphs (`with
// prim::TensorExprGroup_0 = graph(...)`) become the regions of `fusion` ops,
// value names and `# file:line:col` comments become locations, and nodes no
// `ts` op describes become `ts.operator`.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_TARGET_TORCHSCRIPT_IMPORT_H
#define TSMLIR_TARGET_TORCHSCRIPT_IMPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir::tsmlir {

struct TorchScriptImportOptions {
  /// Name of the function the graph becomes.
  std::string functionName = "main";
  /// A safetensors file whose tensors are bound to module attributes: a
  /// `prim::GetAttr` chain from the graph's first input (`self`), or a frozen
  /// constant whose debug name is `self.<path>`, becomes a constant backed by
  /// a dense resource holding the data. Every tensor of the file is also
  /// recorded, by name, in the module's `ts.state_dict` attribute.
  std::string paramsFile;
  /// Further graphs to import into the same module, each as a private
  /// function: (function name, file). Callees of prim::CallFunction and
  /// prim::CallMethod, named as ts-inline resolves them (`helper`,
  /// `__torch__.foo.Bar.forward`).
  std::vector<std::pair<std::string, std::string>> functionFiles;
};

/// Parses the main buffer of `sourceMgr`. Errors are reported as diagnostics
/// at `file:line:col` through the context; the result is null on error.
OwningOpRef<ModuleOp>
importTorchScript(llvm::SourceMgr &sourceMgr, MLIRContext *context,
                  const TorchScriptImportOptions &options = {});

/// Convenience overload: parses `text`, named `bufferName` in diagnostics.
OwningOpRef<ModuleOp>
importTorchScript(llvm::StringRef text, llvm::StringRef bufferName,
                  MLIRContext *context,
                  const TorchScriptImportOptions &options = {});

/// Registers the dialects an imported module uses.
void registerTorchScriptImportDialects(DialectRegistry &registry);

} // namespace mlir::tsmlir

#endif // TSMLIR_TARGET_TORCHSCRIPT_IMPORT_H
