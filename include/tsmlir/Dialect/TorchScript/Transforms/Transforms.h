//===- Transforms.h - TorchScript transformation utilities ------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The transformations behind the TorchScript passes, for other passes and
// tools to drive directly.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_TRANSFORMS_H
#define TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_TRANSFORMS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tsmlir::ts {

//===----------------------------------------------------------------------===//
// Inlining
//===----------------------------------------------------------------------===//

struct InlineCallsOptions {
  /// Calls nested deeper than this many inlined calls are left as they are.
  unsigned maxDepth = 64;
  /// Emit a remark at each call left as it is, saying why.
  bool remarks = false;
};

struct InlineCallsResult {
  unsigned numInlined = 0;
  unsigned numKept = 0;
  /// The functions whose bodies were inlined, in the order first inlined.
  llvm::SetVector<func::FuncOp> callees;
};

/// Inlines, recursively, every `prim::CallFunction` and `prim::CallMethod`
/// in `func` whose callee (CallOpInterface) is a `func.func` with a body of
/// one block that `symbolTables` finds, as ts-inline does. Recursive calls,
/// calls deeper than `options.maxDepth`, and calls whose callee is missing
/// or does not fit are left as they are.
InlineCallsResult inlineCalls(func::FuncOp func,
                              SymbolTableCollection &symbolTables,
                              const InlineCallsOptions &options = {});

/// The private functions among `candidates` that no `prim::CallFunction` or
/// `prim::CallMethod` reachable from the rest of `module` resolves to, and
/// that no symbol use names: the callees that inlining left unused.
llvm::SmallVector<func::FuncOp>
findDeadCallees(ModuleOp module, llvm::ArrayRef<func::FuncOp> candidates,
                SymbolTableCollection &symbolTables);

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_TRANSFORMS_H
