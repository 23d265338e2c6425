//===- UnrollLoops.cpp - Unroll prim::Loop with constant trip counts ------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tsmlir::ts {
#define GEN_PASS_DEF_TSUNROLLLOOPSPASS
#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir::ts

using namespace mlir;
using namespace mlir::tsmlir;

namespace {

bool isConstantTrue(Value value) {
  BoolAttr b;
  return matchPattern(value, m_Constant(&b)) && b.getValue();
}

/// The trip count of a for loop: a constant count, a constant true initial
/// condition and a body that always yields true.
std::optional<int64_t> getForLoopTripCount(ts::PrimLoopOp loop) {
  IntegerAttr count;
  if (!matchPattern(loop.getMaxTripCount(), m_Constant(&count)) ||
      !isConstantTrue(loop.getInitialCondition()))
    return std::nullopt;
  auto yield =
      llvm::cast<ts::PrimYieldOp>(loop.getBody().front().getTerminator());
  if (!isConstantTrue(yield->getOperand(0)))
    return std::nullopt;
  return std::max<int64_t>(count.getInt(), 0);
}

/// Whether each copy of the body can stand in for the loop: the values it
/// yields and the loop's results have the same types.
bool hasExactTypes(ts::PrimLoopOp loop) {
  Block &body = loop.getBody().front();
  TypeRange results = loop.getResultTypes();
  return TypeRange(loop.getIterArgs()) == results &&
         TypeRange(body.getArgumentTypes()).drop_front() == results &&
         TypeRange(body.getTerminator()->getOperandTypes()).drop_front() ==
             results;
}

struct TSUnrollLoopsPass
    : public ts::impl::TSUnrollLoopsPassBase<TSUnrollLoopsPass> {
  using Base::Base;

  void unroll(ts::PrimLoopOp loop, int64_t trips) {
    OpBuilder builder(loop);
    Block &body = loop.getBody().front();
    auto yield = llvm::cast<ts::PrimYieldOp>(body.getTerminator());
    auto intType = ts::IntType::get(loop.getContext());
    SmallVector<Value> carried(loop.getIterArgs());
    for (int64_t i = 0; i < trips; ++i) {
      IRMapping mapping;
      mapping.map(body.getArgument(0),
                  ts::PrimConstantOp::create(builder, loop.getLoc(), intType,
                                             builder.getI64IntegerAttr(i)));
      mapping.map(body.getArguments().drop_front(), carried);
      for (Operation &op : body.without_terminator())
        builder.clone(op, mapping);
      for (auto [j, next] : llvm::enumerate(yield.getOperands().drop_front()))
        carried[j] = mapping.lookupOrDefault(next);
    }
    loop.replaceAllUsesWith(carried);
    loop.erase();
  }

  void runOnOperation() override {
    // Post-order: inner loops first, so an outer loop counts its inner loops'
    // copies.
    SmallVector<ts::PrimLoopOp> loops;
    getOperation()->walk([&](ts::PrimLoopOp loop) { loops.push_back(loop); });
    for (ts::PrimLoopOp loop : loops) {
      std::optional<int64_t> trips = getForLoopTripCount(loop);
      if (!trips || !hasExactTypes(loop))
        continue;
      int64_t bodyOps = 0;
      loop.getBody().walk([&](Operation *) { ++bodyOps; });
      bodyOps -= 1; // The yield.
      if (*trips > maxTripCount || *trips * bodyOps > maxOps) {
        ++numTooLarge;
        continue;
      }
      unroll(loop, *trips);
      ++numUnrolled;
    }
  }
};

} // namespace
