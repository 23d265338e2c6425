//===- CreateDifferentiableGraphs.cpp - Group differentiable ops ----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// PyTorch's CreateAutodiffSubgraphs on the ts dialect: in each block, runs
// of ops that autodiff differentiates and that read a value requiring grad
// become fusion.differentiable_graph ops. A run extends over ops that write
// nothing and read none of its values (they move before the group) and
// constants (a group copies those it reads in); any other op ends it, and so do
// ops with regions (control flow) and ops that write (in-place ops, random
// ops). Runs of fewer than `min-size` ops are left as they are.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Autodiff/Autodiff.h"
#include "tsmlir/Dialect/TorchScript/Autodiff/Passes.h"

#include "Formulas.h"
#include "Partition.h"

#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"
#include "tsmlir/Dialect/Fusion/Transforms/FusionPlanner.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tsmlir::ts {
#define GEN_PASS_DEF_TSCREATEDIFFERENTIABLEGRAPHSPASS
#include "tsmlir/Dialect/TorchScript/Autodiff/Passes.h.inc"
} // namespace mlir::tsmlir::ts

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::autodiff;

namespace {
class GraphBuilder {
public:
  explicit GraphBuilder(int64_t minSize) : minSize(minSize) {}

  void runOnBlock(Block &block);
  int64_t numGraphs = 0, numGrouped = 0;

private:
  int64_t minSize;
  /// Values that require grad: tensors typed so, or (requires_grad unknown)
  /// floating-point tensors of the function's arguments and of ops reading
  /// one.
  DenseSet<Value> requiringGrad;

  bool requiresGrad(Value v, bool fromActiveOperand) const {
    if (!isDifferentiableType(v.getType()))
      return false;
    auto tensor = llvm::cast<ts::TensorType>(v.getType());
    if (BoolAttr flag = tensor.getRequiresGrad())
      return flag.getValue();
    return fromActiveOperand;
  }
  bool readsRequiringGrad(Operation *op) const {
    return llvm::any_of(op->getOperands(),
                        [&](Value v) { return requiringGrad.contains(v); });
  }
  bool isGroupable(Operation *op) const {
    return op->getNumRegions() == 0 && writesNothing(op) &&
           getFormulaTable().lookup(op) && readsRequiringGrad(op);
  }
  void formGraph(ArrayRef<Operation *> ops);
};
} // namespace

void GraphBuilder::runOnBlock(Block &block) {
  for (BlockArgument arg : block.getArguments())
    if (requiresGrad(arg, /*fromActiveOperand=*/true))
      requiringGrad.insert(arg);
  SmallVector<Operation *> run;
  DenseSet<Value> runValues;
  auto flush = [&]() {
    if (static_cast<int64_t>(run.size()) >= minSize)
      formGraph(run);
    run.clear();
    runValues.clear();
  };
  for (Operation &op : llvm::make_early_inc_range(block)) {
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        runOnBlock(inner);
    bool active = readsRequiringGrad(&op);
    for (Value r : op.getResults())
      if (requiresGrad(r, active))
        requiringGrad.insert(r);
    if (op.hasTrait<mlir::OpTrait::IsTerminator>())
      break;
    // Constants stay out of groups (a group copies those it reads in);
    // one made in the middle of a run moves before it with the ops below.
    if (fusion::isConstantLike(&op)) {
      if (!run.empty())
        op.moveBefore(run.front());
      continue;
    }
    if (isGroupable(&op)) {
      run.push_back(&op);
      runValues.insert(op.result_begin(), op.result_end());
      continue;
    }
    // An op that writes nothing and reads nothing of the run moves before
    // it.
    bool readsRun = false;
    op.walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        readsRun |= runValues.contains(v);
    });
    if (!run.empty() && !readsRun && writesNothing(&op)) {
      op.moveBefore(run.front());
      continue;
    }
    flush();
  }
  flush();
}

void GraphBuilder::formGraph(ArrayRef<Operation *> ops) {
  DenseSet<Operation *> inGroup(ops.begin(), ops.end());
  // Inputs: the values the ops read from outside, constants excepted (the
  // group copies them in). Results: group values used after the group.
  llvm::SetVector<Value> inputs, results;
  for (Operation *op : ops)
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      if (def && (inGroup.contains(def) || fusion::isConstantLike(def)))
        continue;
      inputs.insert(v);
    }
  for (Operation *op : ops)
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(), [&](Operation *user) {
            return !inGroup.contains(user);
          }))
        results.insert(r);

  Operation *last = ops.back();
  OpBuilder b(last->getContext());
  b.setInsertionPointAfter(last);
  auto graph = fusion::DifferentiableGraphOp::create(
      b, ops.front()->getLoc(), ValueRange(results.getArrayRef()).getTypes(),
      inputs.getArrayRef(), /*num_saved=*/0);
  Block *body = new Block();
  graph.getForward().push_back(body);
  IRMapping map;
  for (Value v : inputs)
    map.map(v, body->addArgument(v.getType(), v.getLoc()));
  OpBuilder gb = OpBuilder::atBlockEnd(body);
  std::function<void(Value)> copyConstant = [&](Value v) {
    if (map.contains(v))
      return;
    Operation *def = v.getDefiningOp();
    for (Value operand : def->getOperands())
      copyConstant(operand);
    gb.clone(*def, map);
  };
  for (Operation *op : ops) {
    for (Value v : op->getOperands())
      if (!map.contains(v))
        copyConstant(v);
    gb.clone(*op, map);
  }
  SmallVector<Value> yielded;
  for (Value r : results)
    yielded.push_back(map.lookup(r));
  fusion::YieldOp::create(gb, last->getLoc(), yielded);
  for (auto [result, g] : llvm::zip_equal(results, graph.getResults())) {
    Value r = result;
    r.replaceAllUsesWith(g);
    if (requiringGrad.contains(r))
      requiringGrad.insert(g);
  }
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  ++numGraphs;
  numGrouped += ops.size();
}

namespace {
struct TSCreateDifferentiableGraphsPass
    : public ts::impl::TSCreateDifferentiableGraphsPassBase<
          TSCreateDifferentiableGraphsPass> {
  using Base::Base;

  void runOnOperation() override {
    GraphBuilder builder(minSize);
    for (Block &block : getOperation().getBody())
      builder.runOnBlock(block);
    numGraphs = builder.numGraphs;
    numGrouped = builder.numGrouped;
  }
};
} // namespace
