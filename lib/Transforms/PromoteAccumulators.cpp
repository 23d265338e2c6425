//===- PromoteAccumulators.cpp - Reduction accumulators in registers ------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tsmlir {
#define GEN_PASS_DEF_TSPROMOTEACCUMULATORSPASS
#include "tsmlir/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir

using namespace mlir;

/// The accumulator load and store of `loop`, when it has exactly one store,
/// at loop-invariant indices, preceded by a load of the same element, and
/// nothing else in the loop uses that memref.
static std::optional<std::pair<memref::LoadOp, memref::StoreOp>>
findAccumulator(scf::ForOp loop) {
  if (!loop.getInitArgs().empty())
    return std::nullopt;
  memref::StoreOp store;
  bool other = false;
  loop.getBody()->walk([&](Operation *op) {
    if (auto s = llvm::dyn_cast<memref::StoreOp>(op)) {
      other |= static_cast<bool>(store);
      store = s;
    } else if (!llvm::isa<memref::LoadOp>(op) && !isMemoryEffectFree(op) &&
               !op->hasTrait<OpTrait::IsTerminator>()) {
      other = true; // a call, an allocation, a nested write
    }
  });
  if (other || !store || store->getParentOp() != loop.getOperation())
    return std::nullopt;
  Value memref = store.getMemRef();
  for (Value index : store.getIndices())
    if (!loop.isDefinedOutsideOfLoop(index))
      return std::nullopt;
  if (!loop.isDefinedOutsideOfLoop(memref))
    return std::nullopt;
  memref::LoadOp load;
  for (Operation *user : memref.getUsers()) {
    if (!loop->isProperAncestor(user))
      continue;
    if (user == store.getOperation())
      continue;
    auto l = llvm::dyn_cast<memref::LoadOp>(user);
    if (!l || load || l->getParentOp() != loop.getOperation() ||
        l.getIndices() != store.getIndices() || !l->isBeforeInBlock(store))
      return std::nullopt;
    load = l;
  }
  if (!load)
    return std::nullopt;
  return std::make_pair(load, store);
}

/// Marks the float ops combining `acc` into `result` as reassociable.
static void markReassociable(Value acc, Value result) {
  SmallVector<Value> worklist{acc};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (Operation *user : v.getUsers()) {
      if (auto fm = llvm::dyn_cast<arith::ArithFastMathInterface>(user)) {
        auto flags = fm.getFastMathFlagsAttr();
        auto value = flags ? flags.getValue() : arith::FastMathFlags::none;
        user->setAttr(fm.getFastMathAttrName(),
                      arith::FastMathFlagsAttr::get(
                          user->getContext(),
                          value | arith::FastMathFlags::reassoc));
      }
      if (user->getNumResults() == 1 && user->getBlock() == acc.getParentBlock())
        worklist.push_back(user->getResult(0));
    }
  }
}

static void promote(scf::ForOp loop, memref::LoadOp load,
                    memref::StoreOp store) {
  IRRewriter rewriter(loop);
  Location loc = loop.getLoc();
  auto initial = memref::LoadOp::create(rewriter, loc, store.getMemRef(),
                                        store.getIndices());
  auto newLoop = scf::ForOp::create(
      rewriter, loc, loop.getLowerBound(), loop.getUpperBound(),
      loop.getStep(), ValueRange{initial.getResult()});
  Block *body = newLoop.getBody();
  Value acc = body->getArgument(1);
  // The old body moves in; its (empty) yield becomes one of the sum.
  if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
    rewriter.eraseOp(&body->back());
  rewriter.mergeBlocks(loop.getBody(), body, {newLoop.getInductionVar()});
  Operation *oldYield = body->getTerminator();
  rewriter.setInsertionPoint(oldYield);
  Value stored = store.getValueToStore();
  scf::YieldOp::create(rewriter, oldYield->getLoc(), stored);
  rewriter.eraseOp(oldYield);
  rewriter.replaceAllUsesWith(load.getResult(), acc);
  rewriter.eraseOp(load);
  rewriter.eraseOp(store);
  markReassociable(acc, stored);
  rewriter.setInsertionPointAfter(newLoop);
  memref::StoreOp::create(rewriter, loc, newLoop.getResult(0),
                          initial.getMemRef(), initial.getIndices());
  rewriter.eraseOp(loop);
}

namespace {
class TSPromoteAccumulatorsPass
    : public tsmlir::impl::TSPromoteAccumulatorsPassBase<
          TSPromoteAccumulatorsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      if (auto found = findAccumulator(loop))
        promote(loop, found->first, found->second);
  }
};
} // namespace
