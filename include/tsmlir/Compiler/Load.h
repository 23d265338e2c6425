//===- Load.h - Import a graph from any of its forms ------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The first step of every driver (tsmlir-run, the JIT's C API, Python): a
// file becomes a module in the ts dialect, whatever its form.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_COMPILER_LOAD_H
#define TSMLIR_COMPILER_LOAD_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/SourceMgr.h"

#include <string>
#include <utility>

namespace mlir::tsmlir {

struct LoadOptions {
  /// A .pt archive's method to import (empty: forward).
  std::string entry;
  /// TorchScript text: a safetensors file with the module's attributes.
  std::string paramsFile;
  /// TorchScript text: graphs imported as the functions they name (the
  /// callees of prim::CallFunction / prim::CallMethod).
  SmallVector<std::pair<std::string, std::string>> functionFiles;
};

/// Imports `path`: a TorchScript archive (torch.jit.save; a zip file, or a
/// `.pt`/`.pth` file, which the archive reader diagnoses when it is not
/// one), a module in the ts dialect (`.mlir`), or TorchScript IR text.
/// Returns null on error: the importers report diagnostics through
/// `context` (at locations in `sourceMgr`'s buffers); a file that cannot be
/// opened is described in `error` instead.
OwningOpRef<ModuleOp> loadModule(StringRef path, const LoadOptions &options,
                                 MLIRContext *context,
                                 llvm::SourceMgr &sourceMgr,
                                 std::string &error);

} // namespace mlir::tsmlir

#endif // TSMLIR_COMPILER_LOAD_H
