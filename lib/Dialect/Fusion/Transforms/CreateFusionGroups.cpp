//===- CreateFusionGroups.cpp - Planned groups into fusion.group ops ------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/Fusion/Transforms/Passes.h"

#include "tsmlir/Dialect/Fusion/IR/FusionDialect.h"
#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"
#include "tsmlir/Dialect/Fusion/Transforms/FusionPlanner.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tsmlir::fusion {
#define GEN_PASS_DEF_TSCREATEFUSIONGROUPSPASS
#include "tsmlir/Dialect/Fusion/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir::fusion

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::fusion;

/// Moves the ops of `planned` into a fusion.group where its last op was.
static GroupOp materialize(const PlannedGroup &planned, StringRef strategy) {
  Operation *anchor = planned.ops.back();
  OpBuilder builder(anchor);
  SmallVector<Type> resultTypes;
  for (Value output : planned.outputs)
    resultTypes.push_back(output.getType());
  auto group = GroupOp::create(builder, anchor->getLoc(), resultTypes,
                               strategy, planned.inputs, StringAttr());
  Block *body = new Block();
  group.getBody().push_back(body);
  for (Value input : planned.inputs)
    body->addArgument(input.getType(), input.getLoc());
  for (Operation *op : planned.ops)
    op->moveBefore(body, body->end());
  auto inside = [&](OpOperand &use) {
    return group->isProperAncestor(use.getOwner());
  };
  for (auto [input, arg] : llvm::zip_equal(planned.inputs, body->getArguments()))
    Value(input).replaceUsesWithIf(arg, inside);
  // Constants are copied in, once each.
  builder.setInsertionPointToStart(body);
  llvm::DenseMap<Operation *, Operation *> copies;
  for (Operation *op : planned.ops)
    for (OpOperand &operand : op->getOpOperands()) {
      Operation *def = operand.get().getDefiningOp();
      if (!def || !llvm::isa<ts::PrimConstantOp>(def) ||
          group->isProperAncestor(def))
        continue;
      Operation *&copy = copies[def];
      if (!copy)
        copy = builder.clone(*def);
      operand.set(copy->getResult(0));
    }
  for (auto [output, result] :
       llvm::zip_equal(planned.outputs, group.getResults()))
    Value(output).replaceUsesWithIf(
        result, [&](OpOperand &use) { return !inside(use); });
  builder.setInsertionPointToEnd(body);
  YieldOp::create(builder, anchor->getLoc(), planned.outputs);
  return group;
}

namespace {
struct TSCreateFusionGroupsPass
    : public fusion::impl::TSCreateFusionGroupsPassBase<TSCreateFusionGroupsPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<Strategy> parsed = symbolizeStrategy(strategy);
    if (!parsed) {
      getOperation().emitError()
          << "unknown fusion strategy '" << strategy
          << "': expected pointwise, nnc, nvfuser or aggressive";
      return signalPassFailure();
    }
    FusionOptions options;
    options.strategy = *parsed;
    options.minSize = minSize;
    FusionPlan plan = planFusion(getOperation(), options);
    llvm::SetVector<Operation *> constants;
    for (const PlannedGroup &planned : plan.groups) {
      for (Operation *op : planned.ops)
        for (Value operand : op->getOperands())
          if (auto constant = operand.getDefiningOp<ts::PrimConstantOp>())
            constants.insert(constant);
      materialize(planned, strategy);
      ++numGroups;
      numFused += planned.ops.size();
    }
    // Constants only the groups used now live in them.
    for (Operation *constant : constants)
      if (constant->use_empty())
        constant->erase();
  }
};
} // namespace
