//===- ModuleState.cpp - A module's state kept by the caller --------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A graph compiled once keeps its module's state in a global buffer. A
// caller that runs several compiled graphs of one module (the JIT's
// specialisations and fallbacks) keeps the state itself instead: the state
// becomes the graph's last arguments, and its value when the graph returns
// the graph's last results, which the caller passes to the next call.
//
//===----------------------------------------------------------------------===//

#include "ModuleState.h"

#include "tsmlir/Dialect/TorchScript/IR/Dtypes.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tsmlir;

/// `state`'s initial value as a C-order tensor of its dtype.
static FailureOr<RunValue> getInitialValue(ts::ModuleStateOp state) {
  ElementsAttr value = state.getInitialValue();
  auto type = llvm::cast<ShapedType>(value.getType());
  std::optional<Dtype> dtype = ts::getDtype(type.getElementType());
  if (!dtype)
    return state.emitError()
           << "the module's attribute '" << state.getSymName()
           << "' has the element type " << type.getElementType()
           << ", which a caller cannot keep";
  llvm::Expected<NpyHeader> header = makeNpyHeader(*dtype, type.getShape());
  if (!header)
    return state.emitError() << "the module's attribute '" << state.getSymName()
                             << "' cannot be kept by the caller: "
                             << llvm::toString(header.takeError());
  RunValue run;
  run.kind = RunValue::Kind::Tensor;
  run.text = ("self." + state.getSymName()).str();
  run.tensor.header = std::move(*header);
  unsigned itemSize = run.tensor.header.itemSize;
  int64_t numElements = type.getNumElements();
  std::vector<uint8_t> &data = run.tensor.data;
  data.resize(numElements * itemSize);
  if (auto resource = llvm::dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || blob->getData().size() != data.size())
      return state.emitError() << "the module's attribute '"
                               << state.getSymName() << "' has no data";
    std::memcpy(data.data(), blob->getData().data(), data.size());
    return run;
  }
  auto dense = llvm::dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return state.emitError() << "the module's attribute '" << state.getSymName()
                             << "' holds a value of an unknown kind";
  // Element by element: splats, and i1's packed bits.
  auto store = [&](int64_t i, const APInt &bits) {
    uint64_t word = bits.getZExtValue();
    std::memcpy(data.data() + i * itemSize, &word, itemSize);
  };
  if (llvm::isa<FloatType>(type.getElementType())) {
    for (auto [i, element] : llvm::enumerate(dense.getValues<APFloat>()))
      store(i, element.bitcastToAPInt());
  } else {
    for (auto [i, element] : llvm::enumerate(dense.getValues<APInt>()))
      store(i, element);
  }
  return run;
}

LogicalResult
mlir::tsmlir::collectModuleStates(ModuleOp module,
                                  SmallVectorImpl<ModuleStateValue> &states) {
  for (auto state : module.getOps<ts::ModuleStateOp>()) {
    FailureOr<RunValue> value = getInitialValue(state);
    if (failed(value))
      return failure();
    states.push_back({state.getSymName().str(), std::move(*value)});
  }
  return success();
}

LogicalResult
mlir::tsmlir::moveModuleStateToCaller(ModuleOp module, func::FuncOp func,
                                      SmallVectorImpl<ModuleStateValue> &states,
                                      SmallVectorImpl<std::string> &names) {
  SmallVector<ts::ModuleStateOp> stateOps(module.getOps<ts::ModuleStateOp>());
  if (stateOps.empty())
    return success();
  if (failed(collectModuleStates(module, states)))
    return failure();
  Block &body = func.getBody().front();
  auto ret = llvm::dyn_cast<func::ReturnOp>(body.getTerminator());
  if (!func.getBody().hasOneBlock() || !ret)
    return func.emitError() << "a graph that keeps a module's state returns "
                               "from one block";
  for (ts::ModuleStateOp state : stateOps) {
    SmallVector<ts::ModuleStateReadOp> reads;
    SmallVector<ts::ModuleStateWriteOp> writes;
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(state, module);
    for (const SymbolTable::SymbolUse &use : *uses) {
      Operation *user = use.getUser();
      if (user->getBlock() != &body)
        return user->emitError()
               << "the module's attribute '" << state.getSymName()
               << "' is used here, inside a region or another function: a "
                  "graph whose caller keeps the state reads it at the entry "
                  "and writes it before the return";
      if (auto read = llvm::dyn_cast<ts::ModuleStateReadOp>(user))
        reads.push_back(read);
      else if (auto write = llvm::dyn_cast<ts::ModuleStateWriteOp>(user))
        writes.push_back(write);
    }
    // One argument, of the reads' type (else the state's), for every read.
    Type type = state.getValueType();
    if (!reads.empty() && llvm::all_of(reads, [&](ts::ModuleStateReadOp read) {
          return read.getType() == reads.front().getType();
        }))
      type = reads.front().getType();
    unsigned position = func.getNumArguments();
    if (failed(func.insertArgument(position, type, {}, state.getLoc())))
      return failure();
    Value argument = func.getArgument(position);
    names.push_back(("self." + state.getSymName()).str());
    for (ts::ModuleStateReadOp read : reads) {
      read.replaceAllUsesWith(argument);
      read.erase();
    }
    // The value the last write stores, else the state unchanged.
    ts::ModuleStateWriteOp last;
    for (ts::ModuleStateWriteOp write : writes)
      if (!last || last->isBeforeInBlock(write))
        last = write;
    Value result = last ? last.getValue() : argument;
    unsigned index = func.getNumResults();
    if (failed(func.insertResult(index, result.getType(), {})))
      return failure();
    ret->insertOperands(ret->getNumOperands(), result);
    for (ts::ModuleStateWriteOp write : writes)
      write.erase();
    state.erase();
  }
  return success();
}
