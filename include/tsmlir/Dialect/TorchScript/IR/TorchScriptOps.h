//===- TorchScriptOps.h - TorchScript operations ----------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_IR_TORCHSCRIPTOPS_H
#define TSMLIR_DIALECT_TORCHSCRIPT_IR_TORCHSCRIPTOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptDialect.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"

namespace mlir::tsmlir::ts::OpTrait {

/// The result may alias the first operand: TorchScript's `Tensor(a) self ->
/// Tensor(a)` (views such as `aten::view`, `aten::select`, `aten::t`).
template <typename ConcreteType>
class ViewLike : public ::mlir::OpTrait::TraitBase<ConcreteType, ViewLike> {};

/// The op writes its first operand: TorchScript's `Tensor(a!) self`
/// (`aten::add_`, `aten::copy_`, list mutation).
template <typename ConcreteType>
class InPlace : public ::mlir::OpTrait::TraitBase<ConcreteType, InPlace> {};

} // namespace mlir::tsmlir::ts::OpTrait

#define GET_OP_CLASSES
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h.inc"

namespace mlir::tsmlir::ts {

/// The value of `value` if it is an `int` produced by a `ts.prim.Constant`.
std::optional<int64_t> getConstantInt(Value value);

/// `value` with the `ts.prim.unchecked_cast`s that produce it looked
/// through: a cast refines the type, never the value.
Value stripUncheckedCasts(Value value);

/// Whether the list `list` is certainly never modified: every user only reads
/// it and none lets it escape, by yielding or returning it, or by producing a
/// value that may alias it (a cast, a container holding it). Users that
/// produce elements of the list (`prim::ListUnpack`, `aten::__getitem__.t`)
/// do not make the list itself escape.
bool isUnmodifiedList(Value list);

/// Checks that `value` can be the value of a `ts.prim.Constant` of `type`
/// (a null `value` means no value: None, or a function). Reports why not
/// through `emitError` when it is given.
LogicalResult
verifyConstantValue(Attribute value, Type type,
                    llvm::function_ref<InFlightDiagnostic()> emitError = {});

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_IR_TORCHSCRIPTOPS_H
