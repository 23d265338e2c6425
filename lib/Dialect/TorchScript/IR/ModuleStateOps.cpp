//===- ModuleStateOps.cpp - Module attributes written in place ------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;

ts::TensorType ModuleStateOp::getValueType() {
  auto shaped = llvm::cast<ShapedType>(getInitialValue().getType());
  return ts::TensorType::get(getContext(), shaped.getElementType(),
                             shaped.getShape());
}

LogicalResult ModuleStateOp::verify() {
  if (!llvm::isa<ts::TensorType>(getType()))
    return emitOpError("holds a tensor, not ") << getType();
  return verifyConstantValue(getInitialValue(), getType(),
                             [&] { return emitOpError(); });
}

/// Whether the tensor type `type` agrees with the state's value: the dtype
/// and sizes it gives are the value's.
static bool agrees(Type type, ts::TensorType value) {
  auto tensor = llvm::dyn_cast<ts::TensorType>(type);
  if (!tensor)
    return false;
  if (tensor.getDtype() && tensor.getDtype() != value.getDtype())
    return false;
  return !tensor.hasSizes() ||
         tensor.getSizesOrEmpty() == value.getSizesOrEmpty();
}

/// The state `op` names, whose value `type` agrees with.
static LogicalResult verifyStateUse(Operation *op, FlatSymbolRefAttr name,
                                    Type type,
                                    SymbolTableCollection &symbolTable) {
  auto state =
      symbolTable.lookupNearestSymbolFrom<ModuleStateOp>(op, name.getAttr());
  if (!state)
    return op->emitOpError("names no ts.module_state: ") << name;
  if (!agrees(type, state.getValueType()))
    return op->emitOpError("has the type ")
           << type << ", and the state " << name << " holds "
           << state.getValueType();
  return success();
}

LogicalResult
ModuleStateReadOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyStateUse(*this, getStateAttr(), getType(), symbolTable);
}

LogicalResult
ModuleStateWriteOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyStateUse(*this, getStateAttr(), getValue().getType(),
                        symbolTable);
}
