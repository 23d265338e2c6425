//===- DestinationStyleEntry.cpp - Results as output buffers --------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::tsmlir {
#define GEN_PASS_DEF_TSDESTINATIONSTYLEENTRYPASS
#include "tsmlir/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir

using namespace mlir;

func::FuncOp mlir::tsmlir::findEntryFunction(ModuleOp module, StringRef name) {
  if (!name.empty())
    return module.lookupSymbol<func::FuncOp>(name);
  if (auto main = module.lookupSymbol<func::FuncOp>("main"))
    if (!main.isExternal())
      return main;
  func::FuncOp entry;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal() || func.isPrivate())
      continue;
    if (entry)
      return func::FuncOp();
    entry = func;
  }
  return entry;
}

namespace {
class TSDestinationStyleEntryPass
    : public tsmlir::impl::TSDestinationStyleEntryPassBase<
          TSDestinationStyleEntryPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp func = tsmlir::findEntryFunction(module, entry);
    if (!func) {
      module.emitError() << (entry.empty()
                                 ? "expected one public function with a body "
                                   "(name the entry with entry=NAME)"
                                 : "no function named '" + entry + "'");
      return signalPassFailure();
    }
    SmallVector<Type> outputTypes;
    for (Type t : func.getResultTypes()) {
      if (auto tensor = llvm::dyn_cast<RankedTensorType>(t)) {
        if (!tensor.hasStaticShape()) {
          func.emitError() << "result of type " << t
                           << " has no static shape";
          return signalPassFailure();
        }
        outputTypes.push_back(
            MemRefType::get(tensor.getShape(), tensor.getElementType()));
      } else if (t.isIntOrFloat()) {
        outputTypes.push_back(MemRefType::get({}, t));
      } else {
        func.emitError() << "result of type " << t
                         << " cannot be written to an output buffer";
        return signalPassFailure();
      }
    }
    Block &body = func.getBody().front();
    SmallVector<Value> outputs;
    for (Type t : outputTypes)
      outputs.push_back(body.addArgument(t, func.getLoc()));
    func.walk([&](func::ReturnOp ret) {
      OpBuilder b(ret);
      for (auto [value, output] : llvm::zip(ret.getOperands(), outputs)) {
        if (llvm::isa<RankedTensorType>(value.getType())) {
          auto copy = bufferization::MaterializeInDestinationOp::create(
              b, ret.getLoc(), value, output);
          copy.setRestrict(true);
          copy.setWritable(true);
        } else {
          memref::StoreOp::create(b, ret.getLoc(), value, output);
        }
      }
      func::ReturnOp::create(b, ret.getLoc());
      ret.erase();
    });
    SmallVector<Type> inputs(body.getArgumentTypes());
    func.setType(FunctionType::get(&getContext(), inputs, {}));
    func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  UnitAttr::get(&getContext()));
  }
};
} // namespace
