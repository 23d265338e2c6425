//===- RaiseHook.cpp - A failed cf.assert calls tsmlir_raise first --------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Transforms/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tsmlir {
#define GEN_PASS_DEF_TSRAISEHOOKPASS
#include "tsmlir/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir

using namespace mlir;

/// The host function a failed assertion calls with its message.
static constexpr llvm::StringLiteral kHook = "tsmlir_raise";

namespace {
class TSRaiseHookPass
    : public tsmlir::impl::TSRaiseHookPassBase<TSRaiseHookPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<cf::AssertOp> asserts;
    module.walk([&](cf::AssertOp op) { asserts.push_back(op); });
    if (asserts.empty())
      return;
    MLIRContext *ctx = module.getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    auto hook = module.lookupSymbol<func::FuncOp>(kHook);
    if (!hook) {
      hook = func::FuncOp::create(b, module.getLoc(), kHook,
                                  b.getFunctionType({ptr}, {}));
      hook.setPrivate();
    }
    SymbolTable symbols(module);
    unsigned next = 0;
    for (cf::AssertOp op : asserts) {
      std::string text = op.getMsg().str();
      text.push_back('\0');
      b.setInsertionPoint(hook);
      auto type =
          LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), text.size());
      auto global = LLVM::GlobalOp::create(
          b, op.getLoc(), type, /*isConstant=*/true, LLVM::Linkage::Internal,
          "tsmlir_raise_message_" + std::to_string(next++),
          b.getStringAttr(text));
      symbols.insert(global);
      b.setInsertionPoint(op);
      Location loc = op.getLoc();
      Value yes = arith::ConstantIntOp::create(b, loc, 1, 1);
      Value failed = arith::XOrIOp::create(b, loc, op.getArg(), yes);
      auto ifOp = scf::IfOp::create(b, loc, failed, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      Value message = LLVM::AddressOfOp::create(b, loc, global);
      func::CallOp::create(b, loc, hook, ValueRange{message});
    }
  }
};
} // namespace
