//===- PrimLoopCanonicalize.cpp - Canonicalization of prim::Loop ----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Constant propagation and dead code elimination through prim::Loop, as
// PyTorch's passes do on loops:
//
// * a loop that never runs its body (a constant trip count <= 0 or a constant
//   false initial condition) is its initial carried values;
// * a carried value that the body yields unchanged is its initial value,
//   everywhere: inside the body and after the loop;
// * a carried value that nothing reads, after the loop or in the body (but
//   for its own update), is dropped.
//
// As in PrimIfCanonicalize.cpp, a value is only replaced by one of exactly its
// type.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

namespace mlir::tsmlir::ts {
namespace {

/// A loop that never runs its body.
struct RemoveZeroTripLoop : OpRewritePattern<PrimLoopOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(PrimLoopOp op,
                                PatternRewriter &rewriter) const override {
    IntegerAttr trips;
    BoolAttr runs;
    bool never =
        (matchPattern(op.getMaxTripCount(), m_Constant(&trips)) &&
         trips.getInt() <= 0) ||
        (matchPattern(op.getInitialCondition(), m_Constant(&runs)) &&
         !runs.getValue());
    if (!never)
      return failure();
    if (TypeRange(op.getIterArgs()) != op.getResultTypes())
      return rewriter.notifyMatchFailure(
          op, "the initial values have other types than the results");
    rewriter.replaceOp(op, op.getIterArgs());
    return success();
  }
};

/// Rebuilds `op` without the carried values `drop` marks, whose results
/// must have no uses left and whose body arguments no uses but the ops in
/// `chain`, which are erased.
void dropCarried(PrimLoopOp op, const llvm::BitVector &drop,
                 const llvm::SmallPtrSetImpl<Operation *> &chain,
                 PatternRewriter &rewriter) {
  Block &body = op.getBody().front();
  auto yield = llvm::cast<PrimYieldOp>(body.getTerminator());
  SmallVector<Value> inits;
  SmallVector<Type> types;
  for (auto [i, init] : llvm::enumerate(op.getIterArgs()))
    if (!drop[i]) {
      inits.push_back(init);
      types.push_back(op.getResult(i).getType());
    }
  rewriter.modifyOpInPlace(yield, [&] {
    for (int i = drop.size() - 1; i >= 0; --i)
      if (drop[i])
        yield->eraseOperand(i + 1);
  });
  SmallVector<Operation *> dead;
  for (Operation &bodyOp : body.without_terminator())
    if (chain.contains(&bodyOp))
      dead.push_back(&bodyOp);
  for (Operation *deadOp : llvm::reverse(dead))
    rewriter.eraseOp(deadOp);
  llvm::BitVector args(body.getNumArguments());
  for (unsigned i = 0; i < drop.size(); ++i)
    args[i + 1] = drop[i];
  body.eraseArguments(args);

  auto loop = PrimLoopOp::create(rewriter, op.getLoc(), types,
                                 op.getMaxTripCount(),
                                 op.getInitialCondition(), inits);
  loop->setAttrs(op->getAttrs());
  rewriter.inlineRegionBefore(op.getBody(), loop.getBody(),
                              loop.getBody().end());
  SmallVector<Value> results;
  unsigned next = 0;
  for (unsigned i = 0; i < drop.size(); ++i)
    results.push_back(drop[i] ? Value() : loop.getResult(next++));
  rewriter.replaceOp(op, results);
}

/// Whether `arg` only flows, through ops without effects, into operand
/// `slot` of the body's `yield`: its own next value, which nothing else reads.
/// The ops on the way are added to `chain`.
bool onlyFeedsItsUpdate(BlockArgument arg, PrimYieldOp yield, unsigned slot,
                        llvm::SmallPtrSetImpl<Operation *> &chain) {
  constexpr unsigned kMaxOps = 64;
  SmallVector<Value> worklist{arg};
  llvm::SmallPtrSet<Operation *, 8> visited;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (user == yield) {
        if (use.getOperandNumber() != slot)
          return false;
        continue;
      }
      if (!isMemoryEffectFree(user) || user->getNumRegions() ||
          user->getBlock() != arg.getOwner())
        return false;
      if (!visited.insert(user).second)
        continue;
      if (visited.size() > kMaxOps)
        return false;
      llvm::append_range(worklist, user->getResults());
    }
  }
  chain.insert(visited.begin(), visited.end());
  return true;
}

/// Carried values the body yields unchanged, and carried values nothing
/// reads.
struct RemoveInvariantAndDeadCarried : OpRewritePattern<PrimLoopOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(PrimLoopOp op,
                                PatternRewriter &rewriter) const override {
    Block &body = op.getBody().front();
    auto yield = llvm::cast<PrimYieldOp>(body.getTerminator());
    unsigned n = op.getIterArgs().size();
    llvm::BitVector drop(n);
    llvm::SmallPtrSet<Operation *, 8> chain;
    for (unsigned i = 0; i < n; ++i) {
      Value init = op.getIterArgs()[i];
      BlockArgument arg = body.getArgument(i + 1);
      Value next = yield->getOperand(i + 1);
      Value result = op.getResult(i);
      // Yielded unchanged (or the initial value itself, from outside): the
      // value is the initial one on every iteration and after the loop.
      bool invariant = next == arg || next == init;
      if (invariant && init.getType() == arg.getType() &&
          init.getType() == result.getType()) {
        rewriter.replaceAllUsesWith(arg, init);
        rewriter.replaceAllUsesWith(result, init);
        drop.set(i);
        continue;
      }
      if (result.use_empty() && onlyFeedsItsUpdate(arg, yield, i + 1, chain))
        drop.set(i);
    }
    if (drop.none())
      return failure();
    dropCarried(op, drop, chain, rewriter);
    return success();
  }
};

} // namespace

void PrimLoopOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                             MLIRContext *context) {
  patterns.add<RemoveZeroTripLoop, RemoveInvariantAndDeadCarried>(context);
}

} // namespace mlir::tsmlir::ts
