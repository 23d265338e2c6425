//===- ModuleState.h - A module's state kept by the caller ------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_COMPILER_MODULESTATE_H
#define TSMLIR_LIB_COMPILER_MODULESTATE_H

#include "tsmlir/Compiler/PrepareGraph.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tsmlir {

/// The `ts.module_state`s of `module`, in order, with their initial values
/// as run values. Fails with a diagnostic on a value no run value holds (a
/// dtype with no .npy form, data elided).
LogicalResult collectModuleStates(ModuleOp module,
                                  SmallVectorImpl<ModuleStateValue> &states);

/// ModuleStateHome::Caller: makes each `ts.module_state` of `module` an
/// argument of `func` after the others (named after the state in `names`)
/// and its value when `func` returns a result after the others, and erases
/// the state; appends the states to `states`. Fails with a diagnostic on a
/// state read or written anywhere but in `func`'s body.
LogicalResult moveModuleStateToCaller(ModuleOp module, func::FuncOp func,
                                      SmallVectorImpl<ModuleStateValue> &states,
                                      SmallVectorImpl<std::string> &names);

} // namespace mlir::tsmlir

#endif // TSMLIR_LIB_COMPILER_MODULESTATE_H
