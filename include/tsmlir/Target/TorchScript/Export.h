//===- Export.h - The ts dialect to TorchScript IR text ---------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Writes a function of `ts` ops as TorchScript IR text, in the format PyTorch
// prints, so that PyTorch users can read it and the importer reads it back.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_TARGET_TORCHSCRIPT_EXPORT_H
#define TSMLIR_TARGET_TORCHSCRIPT_EXPORT_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::tsmlir {

/// Prints `op` (a module holding one `func.func`, or a `func.func`) as a
/// TorchScript graph. Ops with no TorchScript form are reported as errors at
/// their location.
LogicalResult exportTorchScript(Operation *op, llvm::raw_ostream &os);

/// Registers `--import-torchscript` and `--export-torchscript` with
/// mlir-translate's registry.
void registerTorchScriptTranslations();

} // namespace mlir::tsmlir

#endif // TSMLIR_TARGET_TORCHSCRIPT_EXPORT_H
