//===- Passes.h - TorchScript autodiff passes -------------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_AUTODIFF_PASSES_H
#define TSMLIR_DIALECT_TORCHSCRIPT_AUTODIFF_PASSES_H

#include "tsmlir/Dialect/TorchScript/Autodiff/Autodiff.h"

#include "mlir/Pass/Pass.h"

namespace mlir::tsmlir::ts {

#define GEN_PASS_DECL
#include "tsmlir/Dialect/TorchScript/Autodiff/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tsmlir/Dialect/TorchScript/Autodiff/Passes.h.inc"

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_AUTODIFF_PASSES_H
