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

class ModuleStateOp;

/// A `ts.module_state` named `path` (renamed if the name is taken) in
/// `module`, before `before` (or at the end), holding `initialValue`.
ModuleStateOp createModuleState(ModuleOp module, Location loc, StringRef path,
                                Type type, ElementsAttr initialValue,
                                Operation *before = nullptr);

/// Makes `reads`, the values a module attribute has where `func` reads it
/// (each the one result of an op with no other use, all of one type), one
/// `ts.module_state.read` of `state` at the entry of `func`, so that every
/// read sees the writes before it; each `return` of `func` is preceded by a
/// `ts.module_state.write` of that value, which ts-remove-mutation then
/// makes the state's last value. Fails, changing nothing, when the reads'
/// types differ.
LogicalResult bindModuleState(func::FuncOp func, ModuleStateOp state,
                              ArrayRef<Value> reads);

/// Makes the module attribute `path` (from `self`: "bn.running_mean"),
/// which `func` writes in place and reads as `reads` (prim::Constants or
/// prim::GetAttrs), a `ts.module_state` holding `initialValue`, before
/// `func`: createModuleState, then bindModuleState.
LogicalResult liftModuleState(func::FuncOp func, StringRef path,
                              ElementsAttr initialValue, ArrayRef<Value> reads);

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_TRANSFORMS_H
