//===- StaticBuffers.cpp - Temporaries allocated once ---------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tsmlir {
#define GEN_PASS_DEF_TSSTATICBUFFERSPASS
#include "tsmlir/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir

using namespace mlir;

namespace {
class TSStaticBuffersPass
    : public tsmlir::impl::TSStaticBuffersPassBase<TSStaticBuffersPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    unsigned next = 0;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      SmallVector<memref::AllocOp> allocs;
      for (auto alloc : func.getBody().front().getOps<memref::AllocOp>())
        if (alloc.getType().hasStaticShape() &&
            alloc.getType().getLayout().isIdentity() &&
            alloc.getDynamicSizes().empty() && alloc.getSymbolOperands().empty())
          allocs.push_back(alloc);
      for (memref::AllocOp alloc : allocs) {
        // The buffer must not leave the call: only read, written, viewed
        // and freed.
        bool escapes = llvm::any_of(alloc->getUsers(), [](Operation *user) {
          return llvm::isa<func::ReturnOp, func::CallOp>(user);
        });
        if (escapes)
          continue;
        OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
        std::string name = "__ts_buffer_" + std::to_string(next++);
        while (symbols.lookup(name))
          name = "__ts_buffer_" + std::to_string(next++);
        auto global = memref::GlobalOp::create(
            b, alloc.getLoc(), name, b.getStringAttr("private"),
            alloc.getType(), /*initial_value=*/Attribute(),
            /*constant=*/false, alloc.getAlignmentAttr());
        symbols.insert(global);
        b.setInsertionPoint(alloc);
        auto get = memref::GetGlobalOp::create(b, alloc.getLoc(),
                                               alloc.getType(), name);
        for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
          if (llvm::isa<memref::DeallocOp>(user))
            user->erase();
        alloc.replaceAllUsesWith(get.getResult());
        alloc.erase();
      }
    }
  }
};
} // namespace
