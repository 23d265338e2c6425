//===- ModuleState.cpp - Module attributes written in place ---------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A module in training mode writes some of its tensor attributes in place
// (batch normalisation's running statistics and its count of batches): state
// that lasts from call to call, which the front ends give to
// liftModuleState instead of freezing into constants.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Transforms/Transforms.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tsmlir;

ts::ModuleStateOp ts::createModuleState(ModuleOp module, Location loc,
                                        StringRef path, Type type,
                                        ElementsAttr initialValue,
                                        Operation *before) {
  OpBuilder builder(module.getContext()); // no insertion point: detached
  auto state = ModuleStateOp::create(builder, loc, path, type, initialValue);
  // Renamed if the name is taken.
  SymbolTable(module).insert(state, before ? Block::iterator(before)
                                           : module.getBody()->end());
  return state;
}

/// Whether `reads` are some values, all of one type.
static bool areOfOneType(ArrayRef<Value> reads) {
  return !reads.empty() && llvm::all_of(reads, [&](Value read) {
    return read.getType() == reads.front().getType();
  });
}

LogicalResult ts::bindModuleState(func::FuncOp func, ModuleStateOp state,
                                  ArrayRef<Value> reads) {
  if (!areOfOneType(reads))
    return failure();
  Type type = reads.front().getType();
  auto symbol = FlatSymbolRefAttr::get(state.getSymNameAttr());
  OpBuilder builder(func.getContext());
  builder.setInsertionPointToStart(&func.getBody().front());
  Location loc = state.getLoc();
  Value value = ModuleStateReadOp::create(builder, loc, type, symbol);
  for (Value read : reads) {
    Operation *def = read.getDefiningOp();
    read.replaceAllUsesWith(value);
    if (def && def->use_empty())
      def->erase();
  }
  func.walk([&](func::ReturnOp ret) {
    builder.setInsertionPoint(ret);
    ModuleStateWriteOp::create(builder, loc, symbol, value);
  });
  return success();
}

LogicalResult ts::liftModuleState(func::FuncOp func, StringRef path,
                                  ElementsAttr initialValue,
                                  ArrayRef<Value> reads) {
  if (!areOfOneType(reads))
    return failure();
  MLIRContext *context = func.getContext();
  Location loc = NameLoc::get(StringAttr::get(context, "self." + path),
                              reads.front().getLoc());
  ModuleStateOp state =
      createModuleState(func->getParentOfType<ModuleOp>(), loc, path,
                        reads.front().getType(), initialValue, func);
  return bindModuleState(func, state, reads);
}
