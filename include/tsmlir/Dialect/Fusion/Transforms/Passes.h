//===- Passes.h - Fusion passes ---------------------------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_FUSION_TRANSFORMS_PASSES_H
#define TSMLIR_DIALECT_FUSION_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "tsmlir/Dialect/Fusion/IR/FusionEnums.h"

#include "mlir/Pass/Pass.h"

namespace mlir::tsmlir::fusion {

#define GEN_PASS_DECL
#include "tsmlir/Dialect/Fusion/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tsmlir/Dialect/Fusion/Transforms/Passes.h.inc"

} // namespace mlir::tsmlir::fusion

#endif // TSMLIR_DIALECT_FUSION_TRANSFORMS_PASSES_H
