//===- FusionDialect.h - Fusion dialect -------------------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_FUSION_IR_FUSIONDIALECT_H
#define TSMLIR_DIALECT_FUSION_IR_FUSIONDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tsmlir/Dialect/Fusion/IR/FusionDialect.h.inc"

#endif // TSMLIR_DIALECT_FUSION_IR_FUSIONDIALECT_H
