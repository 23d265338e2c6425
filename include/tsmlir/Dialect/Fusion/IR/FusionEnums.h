//===- FusionEnums.h - Fusion dialect enums ---------------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// fusion::Strategy, the fuser that formed a fusion.group (FusionBase.td):
// the attribute of the op, the option of the planner and of the passes.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_FUSION_IR_FUSIONENUMS_H
#define TSMLIR_DIALECT_FUSION_IR_FUSIONENUMS_H

#include "mlir/IR/BuiltinAttributes.h"

#include "tsmlir/Dialect/Fusion/IR/FusionEnums.h.inc"

#endif // TSMLIR_DIALECT_FUSION_IR_FUSIONENUMS_H
