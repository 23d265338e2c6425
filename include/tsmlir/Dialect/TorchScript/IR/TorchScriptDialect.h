//===- TorchScriptDialect.h - TorchScript dialect ---------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_IR_TORCHSCRIPTDIALECT_H
#define TSMLIR_DIALECT_TORCHSCRIPT_IR_TORCHSCRIPTDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptDialect.h.inc"

#endif // TSMLIR_DIALECT_TORCHSCRIPT_IR_TORCHSCRIPTDIALECT_H
