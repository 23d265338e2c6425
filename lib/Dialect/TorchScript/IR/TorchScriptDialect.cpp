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

using namespace mlir;
using namespace mlir::tsmlir::ts;

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptDialect.cpp.inc"

void TorchScriptDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.cpp.inc"
      >();
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
