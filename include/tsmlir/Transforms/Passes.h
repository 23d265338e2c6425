//===- Passes.h - Lowering support passes -----------------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_TRANSFORMS_PASSES_H
#define TSMLIR_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tsmlir {

/// The function a caller runs: `name` when it is given, else `main`, else
/// the only public function with a body; null when there is none.
func::FuncOp findEntryFunction(ModuleOp module, StringRef name);

/// The attribute --ts-destination-style-entry puts on an entry with results
/// of dynamic sizes: for each result, one array of (argument, dim) pairs,
/// one pair per dim: the entry argument whose dim that size equals, or -1
/// and the static size.
inline constexpr StringLiteral kResultDimsAttrName = "tsmlir.result_dims";

#define GEN_PASS_DECL
#include "tsmlir/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tsmlir/Transforms/Passes.h.inc"

} // namespace mlir::tsmlir

#endif // TSMLIR_TRANSFORMS_PASSES_H
