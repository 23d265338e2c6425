//===- FusionOps.h - Fusion dialect operations ------------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_FUSION_IR_FUSIONOPS_H
#define TSMLIR_DIALECT_FUSION_IR_FUSIONOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tsmlir/Dialect/Fusion/IR/FusionDialect.h"
#include "tsmlir/Dialect/Fusion/IR/FusionEnums.h"

#define GET_OP_CLASSES
#include "tsmlir/Dialect/Fusion/IR/FusionOps.h.inc"

#endif // TSMLIR_DIALECT_FUSION_IR_FUSIONOPS_H
