//===- KernelDialect.h - Library kernel dialect -----------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_KERNEL_IR_KERNELDIALECT_H
#define TSMLIR_DIALECT_KERNEL_IR_KERNELDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tsmlir/Dialect/Kernel/IR/KernelDialect.h.inc"

#endif // TSMLIR_DIALECT_KERNEL_IR_KERNELDIALECT_H
