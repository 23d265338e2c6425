//===- OuterParallelLoops.cpp - Parallel outer loops, sequential inner ones ===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tsmlir {
#define GEN_PASS_DEF_TSOUTERPARALLELLOOPSPASS
#include "tsmlir/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir

using namespace mlir;

/// The static trip count of dimension `d` of `loop`, or -1.
static int64_t getTripCount(scf::ParallelOp loop, unsigned d) {
  auto lb = getConstantIntValue(loop.getLowerBound()[d]);
  auto ub = getConstantIntValue(loop.getUpperBound()[d]);
  auto step = getConstantIntValue(loop.getStep()[d]);
  if (!lb || !ub || !step || *step <= 0)
    return -1;
  return std::max<int64_t>(0, (*ub - *lb + *step - 1) / *step);
}

/// The iterations of `op` and every loop in it, where their trip counts are
/// static (a dynamic loop counts as many iterations).
static int64_t countWork(Operation *op) {
  int64_t work = 1;
  op->walk([&](Operation *inner) {
    int64_t trips = 1;
    if (auto par = llvm::dyn_cast<scf::ParallelOp>(inner)) {
      for (unsigned d = 0; d < par.getNumLoops(); ++d) {
        int64_t t = getTripCount(par, d);
        trips *= t < 0 ? 1024 : t;
      }
    } else if (auto loop = llvm::dyn_cast<scf::ForOp>(inner)) {
      std::optional<APInt> t = loop.getStaticTripCount();
      trips = t ? t->getSExtValue() : 1024;
    }
    work = std::max(work, work * std::max<int64_t>(trips, 1));
  });
  return work;
}

/// Replaces `loop` by an `scf.parallel` over its first `numParallel`
/// dimensions (none: no parallel loop) around `scf.for` loops over the
/// others, with the same body.
static void split(scf::ParallelOp loop, unsigned numParallel) {
  if (!loop.getInitVals().empty())
    return; // a reduction loop: left as it is
  IRRewriter rewriter(loop);
  Location loc = loop.getLoc();
  unsigned n = loop.getNumLoops();
  SmallVector<Value> ivs(n);
  IRMapping mapping;
  auto buildInner = [&](OpBuilder &b, unsigned first) {
    // Nested scf.for loops over dimensions [first, n), then the body.
    OpBuilder::InsertionGuard guard(b);
    for (unsigned d = first; d < n; ++d) {
      auto forOp = scf::ForOp::create(b, loc, loop.getLowerBound()[d],
                                      loop.getUpperBound()[d],
                                      loop.getStep()[d]);
      ivs[d] = forOp.getInductionVar();
      b.setInsertionPoint(forOp.getBody()->getTerminator());
    }
    for (unsigned d = 0; d < n; ++d)
      mapping.map(loop.getInductionVars()[d], ivs[d]);
    for (Operation &op : loop.getBody()->without_terminator())
      b.clone(op, mapping);
  };
  if (numParallel == 0) {
    buildInner(rewriter, 0);
  } else {
    auto outer = scf::ParallelOp::create(
        rewriter, loc, loop.getLowerBound().take_front(numParallel),
        loop.getUpperBound().take_front(numParallel),
        loop.getStep().take_front(numParallel));
    for (unsigned d = 0; d < numParallel; ++d)
      ivs[d] = outer.getInductionVars()[d];
    OpBuilder b(outer.getBody()->getTerminator());
    buildInner(b, numParallel);
  }
  rewriter.eraseOp(loop);
}

namespace {
class TSOuterParallelLoopsPass
    : public tsmlir::impl::TSOuterParallelLoopsPassBase<
          TSOuterParallelLoopsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    // Nested parallel loops first (post-order), then the outermost ones.
    SmallVector<scf::ParallelOp> loops;
    getOperation().walk([&](scf::ParallelOp loop) { loops.push_back(loop); });
    for (scf::ParallelOp loop : loops) {
      if (loop->getParentOfType<scf::ParallelOp>()) {
        split(loop, 0);
        continue;
      }
      bool worthThreads = countWork(loop) >= minWork &&
                          getTripCount(loop, 0) != 1;
      if (!worthThreads)
        split(loop, 0);
      else if (loop.getNumLoops() > 1)
        split(loop, 1);
    }
  }
};
} // namespace
