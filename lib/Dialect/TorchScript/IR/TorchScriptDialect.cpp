//===- TorchScriptDialect.cpp - TorchScript dialect -----------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptDialect.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::tsmlir::ts;

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptDialect.cpp.inc"

namespace {
/// Every `ts` op may be inlined: none refers to its enclosing function, and
/// the regions of `prim::If` and `prim::Loop` may receive inlined code.
struct TorchScriptInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *call, Operation *callable,
                       bool wouldBeCloned) const final {
    return true;
  }
  bool isLegalToInline(Region *dest, Region *src, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }
  bool isLegalToInline(Operation *op, Region *dest, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }

  /// A call may pass a refined value (`!ts.tensor<f32, [2]>`) where the
  /// callee declares a plain one (`!ts.tensor`), and the reverse for results:
  /// bridge them with an unchecked cast, which folds away once the types
  /// agree. Unrelated types cannot be bridged.
  Operation *materializeCallConversion(OpBuilder &builder, Value input,
                                       Type resultType,
                                       Location conversionLoc) const final {
    Type inputType = input.getType();
    if (!isTorchScriptType(inputType) || !isTorchScriptType(resultType))
      return nullptr;
    if (!isValidSubtype(inputType, resultType) &&
        !isValidSubtype(resultType, inputType) &&
        !areCompatible(inputType, resultType))
      return nullptr;
    return PrimUncheckedCastOp::create(builder, conversionLoc, resultType,
                                       input);
  }
};
} // namespace

void TorchScriptDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.cpp.inc"
      >();
  addInterfaces<TorchScriptInlinerInterface>();
}

LogicalResult
TorchScriptDialect::verifyOperationAttribute(Operation *op,
                                             NamedAttribute attribute) {
  if (attribute.getName() != getStateDictAttrName())
    return success();
  if (!llvm::isa<ModuleOp>(op))
    return op->emitError() << "'" << getStateDictAttrName()
                           << "' belongs on a builtin.module";
  auto entries = llvm::dyn_cast<DictionaryAttr>(attribute.getValue());
  if (!entries)
    return op->emitError() << "'" << getStateDictAttrName()
                           << "' must be a dictionary of attribute paths";
  for (NamedAttribute entry : entries)
    if (!llvm::isa<ElementsAttr, IntegerAttr, FloatAttr, BoolAttr, StringAttr>(
            entry.getValue()))
      return op->emitError()
             << "'" << getStateDictAttrName() << "' entry '"
             << entry.getName().getValue()
             << "' must be tensor data or a scalar, got " << entry.getValue();
  return success();
}

Operation *TorchScriptDialect::materializeConstant(OpBuilder &builder,
                                                   Attribute value, Type type,
                                                   Location loc) {
  // Folders return UnitAttr for None.
  Attribute stored = llvm::isa<UnitAttr>(value) ? Attribute() : value;
  if (failed(verifyConstantValue(stored, type)))
    return nullptr;
  return PrimConstantOp::create(builder, loc, type, stored);
}
