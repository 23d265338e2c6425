//===- LoopTemporariesOnStack.cpp - A loop body's buffers on the stack ----===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::tsmlir {
#define GEN_PASS_DEF_TSLOOPTEMPORARIESONSTACKPASS
#include "tsmlir/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir

using namespace mlir;

/// Whether `value` (the buffer, or with `isView` a view of it) stays in the
/// iteration that allocates it: every use reads, writes or views it, or frees
/// the buffer itself (the frees the pass erases); none yields, returns or
/// passes it on.
static bool staysLocal(Value value, bool isView = false) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (user->hasTrait<OpTrait::IsTerminator>() ||
        llvm::isa<CallOpInterface>(user))
      return false;
    if (llvm::isa<memref::DeallocOp>(user)) {
      if (isView)
        return false;
      continue;
    }
    if (auto view = llvm::dyn_cast<ViewLikeOpInterface>(user)) {
      if (view.getViewSource() != value ||
          !llvm::all_of(user->getResults(),
                        [](Value r) { return staysLocal(r, true); }))
        return false;
      continue;
    }
    // Any other user (a linalg op, a load, a store, a copy) reads or writes
    // it where it is; one that makes memrefs might hand it on.
    if (llvm::any_of(user->getResultTypes(), llvm::IsaPred<BaseMemRefType>))
      return false;
  }
  return true;
}

/// The op whose code runs once per thread around `op`: the function, or the
/// OpenMP parallel region, that holds it.
static Operation *getThreadScope(Operation *op) {
  Operation *parent = op->getParentOp();
  while (parent && !llvm::isa<FunctionOpInterface, omp::ParallelOp>(parent))
    parent = parent->getParentOp();
  return parent;
}

/// The size of `alloc`'s buffer in bytes, if it may go on the stack: static
/// shape, identity layout, staying in its iteration.
static std::optional<int64_t> getStackCandidateBytes(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      !alloc.getSymbolOperands().empty() ||
      !type.getElementType().isIntOrFloat() || !staysLocal(alloc.getResult()))
    return std::nullopt;
  return (type.getNumElements() * type.getElementTypeBitWidth() + 7) / 8;
}

namespace {
class TSLoopTemporariesOnStackPass
    : public tsmlir::impl::TSLoopTemporariesOnStackPassBase<
          TSLoopTemporariesOnStackPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    // Each in a loop under its thread's scope, with that scope: one in the
    // scope's own straight-line code is allocated once already.
    SmallVector<std::pair<memref::AllocOp, Operation *>> allocs;
    getOperation().walk([&](memref::AllocOp alloc) {
      Operation *scope = getThreadScope(alloc);
      if (!scope)
        return;
      for (Operation *p = alloc->getParentOp(); p != scope;
           p = p->getParentOp())
        if (llvm::isa<LoopLikeOpInterface, omp::LoopNestOp>(p)) {
          allocs.emplace_back(alloc, scope);
          return;
        }
    });
    llvm::DenseMap<Operation *, int64_t> used;
    llvm::DenseMap<Operation *, Operation *> lastAlloca;
    for (auto [alloc, scope] : allocs) {
      std::optional<int64_t> bytes = getStackCandidateBytes(alloc);
      if (!bytes || *bytes > maxBytes)
        continue;
      int64_t &total = used[scope];
      if (total + *bytes > maxTotalBytes)
        continue;
      total += *bytes;
      SmallVector<Operation *> deallocs;
      for (Operation *user : alloc->getUsers())
        if (llvm::isa<memref::DeallocOp>(user))
          deallocs.push_back(user);
      for (Operation *dealloc : deallocs)
        dealloc->erase();
      // In the order of the allocations, first in the scope's entry block.
      OpBuilder b(&getContext());
      if (Operation *previous = lastAlloca.lookup(scope))
        b.setInsertionPointAfter(previous);
      else
        b.setInsertionPointToStart(&scope->getRegion(0).front());
      auto alloca = memref::AllocaOp::create(b, alloc.getLoc(), alloc.getType(),
                                             alloc.getAlignmentAttr());
      lastAlloca[scope] = alloca;
      alloc.replaceAllUsesWith(alloca.getResult());
      alloc.erase();
    }
  }
};
} // namespace
