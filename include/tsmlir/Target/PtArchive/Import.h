//===- Import.h - torch.jit.save archives to the ts dialect -----*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Imports a `.pt` archive written by `torch.jit.save` (a scripted, traced or
// frozen module, or a scripted function) with no Python and no libtorch: the
// zip is read with libzip, `data.pkl` and `constants.pkl` with a restricted
// unpickler that executes nothing, and the code under `code/` with a parser
// of the TorchScript source PyTorch prints. The entry method is emitted as
// PyTorch's IR emitter would, with calls to the module's other methods and
// to TorchScript functions inlined, and the module's attributes (parameters,
// buffers, ints, lists, submodules) resolved to constants, as freezing does.
// See docs/pt-archive.md.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_TARGET_PTARCHIVE_IMPORT_H
#define TSMLIR_TARGET_PTARCHIVE_IMPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tsmlir {

struct PtImportOptions {
  /// The method of the archived module to import (`forward`, or any other
  /// method its code defines).
  std::string entry = "forward";
  /// The name of the function it becomes; empty: the entry's name.
  std::string functionName;
};

/// Reads the archive at `path`. Errors are reported as diagnostics, at
/// `model.pt(model/code/__torch__.py):line:col` for the code; the result is
/// null on error.
OwningOpRef<ModuleOp> importPtArchive(llvm::StringRef path,
                                      MLIRContext *context,
                                      const PtImportOptions &options = {});

/// Whether `path` names a file that starts as a zip archive does ("PK\3\4"),
/// so that tools can accept `.pt` files beside graph text.
bool isZipFile(llvm::StringRef path);

/// Registers `--import-pt` with mlir-translate.
void registerPtArchiveTranslation();

} // namespace mlir::tsmlir

#endif // TSMLIR_TARGET_PTARCHIVE_IMPORT_H
