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
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tsmlir::fusion {
#define GEN_PASS_DEF_TSCREATEFUSIONGROUPSPASS
#include "tsmlir/Dialect/Fusion/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir::fusion

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::fusion;

/// Moves the ops of `planned` into a fusion.group where its last op was.
///
/// Groups are formed one after the other, so an input of `planned` may
/// already be the output of a group formed before it (a producer in the same
/// block, or a group of an enclosing block that feeds a prim::If body):
/// `replaced` maps such outputs to the group results that replaced them, and
/// receives this group's.
static GroupOp materialize(const PlannedGroup &planned, Strategy strategy,
                           llvm::DenseMap<Value, Value> &replaced) {
  Operation *anchor = planned.ops.back();
  OpBuilder builder(anchor);
  SmallVector<Value> inputs;
  for (Value input : planned.inputs)
    inputs.push_back(replaced.lookup(input) ? replaced.lookup(input) : input);
  SmallVector<Type> resultTypes;
  for (Value output : planned.outputs)
    resultTypes.push_back(output.getType());
  auto group = GroupOp::create(builder, anchor->getLoc(), resultTypes,
                               strategy, inputs, StringAttr());
  Block *body = new Block();
  group.getBody().push_back(body);
  llvm::DenseMap<Value, Value> args;
  for (Value input : inputs)
    args[input] = body->addArgument(input.getType(), input.getLoc());
  for (Operation *op : planned.ops)
    op->moveBefore(body, body->end());
  auto inside = [&](OpOperand &use) {
    return group->isProperAncestor(use.getOwner());
  };
  // The group's own operands, not every use of its inputs: an input many
  // groups read (a function argument) would otherwise be visited once per
  // group.
  for (Operation *op : planned.ops)
    op->walk([&](Operation *nested) {
      for (OpOperand &operand : nested->getOpOperands())
        if (Value arg = args.lookup(operand.get()))
          operand.set(arg);
    });
  // Constants (and lists of constants) are copied in, once each.
  builder.setInsertionPointToStart(body);
  IRMapping copies;
  std::function<Value(Value)> copyIn = [&](Value value) -> Value {
    if (Value copy = copies.lookupOrNull(value))
      return copy;
    Operation *def = value.getDefiningOp();
    for (Value operand : def->getOperands())
      copyIn(operand);
    Operation *copy = builder.clone(*def, copies);
    return copy->getResult(0);
  };
  for (Operation *op : planned.ops)
    for (OpOperand &operand : op->getOpOperands()) {
      Operation *def = operand.get().getDefiningOp();
      if (def && isConstantLike(def) && !group->isProperAncestor(def))
        operand.set(copyIn(operand.get()));
    }
  for (auto [output, result] :
       llvm::zip_equal(planned.outputs, group.getResults())) {
    Value(output).replaceUsesWithIf(
        result, [&](OpOperand &use) { return !inside(use); });
    replaced[output] = result;
  }
  builder.setInsertionPointToEnd(body);
  YieldOp::create(builder, anchor->getLoc(), planned.outputs);
  return group;
}

namespace {
struct TSCreateFusionGroupsPass
    : public fusion::impl::TSCreateFusionGroupsPassBase<TSCreateFusionGroupsPass> {
  using Base::Base;

  void runOnOperation() override {
    FusionOptions options;
    options.strategy = strategy;
    options.minSize = minSize;
    FusionPlan plan = planFusion(getOperation(), options);
    llvm::SetVector<Operation *> constants;
    llvm::DenseMap<Value, Value> replaced;
    for (const PlannedGroup &planned : plan.groups) {
      for (Operation *op : planned.ops)
        for (Value operand : op->getOperands())
          if (Operation *def = operand.getDefiningOp();
              def && isConstantLike(def)) {
            constants.insert(def);
            for (Value element : def->getOperands())
              constants.insert(element.getDefiningOp());
          }
      materialize(planned, strategy, replaced);
      ++numGroups;
      numFused += planned.ops.size();
    }
    // Constants only the groups used now live in them (lists first, then
    // their elements).
    SmallVector<Operation *> lists, scalars;
    for (Operation *constant : constants)
      (llvm::isa<ts::PrimListConstructOp>(constant) ? lists : scalars)
          .push_back(constant);
    for (Operation *constant : llvm::concat<Operation *>(lists, scalars))
      if (constant->use_empty())
        constant->erase();
  }
};
} // namespace
