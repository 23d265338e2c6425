//===- Split.cpp - Forward and backward functions -------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The joint function (differentiateJoint) split in two: the backward ops
// (what differentiation added after the original ops) move into
// NAME_backward, preceded by the forward ops the policy recomputes; what
// they read of the rest is returned by NAME_forward after its results and
// passed to NAME_backward before the upstream gradients. Constants (and
// lists of them) are made again where they are read.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Autodiff/Autodiff.h"

#include "Formulas.h"
#include "Partition.h"

#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"
#include "tsmlir/Dialect/TorchScript/IR/DataDependentSizes.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::autodiff;

StringRef ts::stringifySavePolicy(SavePolicy policy) {
  switch (policy) {
  case SavePolicy::SaveAll:
    return "save-all";
  case SavePolicy::MinCut:
    return "min-cut";
  }
  llvm_unreachable("unknown save policy");
}

std::optional<SavePolicy> ts::symbolizeSavePolicy(StringRef name) {
  if (name == "save-all")
    return SavePolicy::SaveAll;
  if (name == "min-cut")
    return SavePolicy::MinCut;
  return std::nullopt;
}

/// Whether the backward function can make `value` again instead of taking
/// it: a constant, or a list of them.
static bool isFreeToRemake(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (llvm::isa<PrimConstantOp>(def))
    return true;
  if (llvm::isa<PrimListConstructOp>(def))
    return llvm::all_of(def->getOperands(), isFreeToRemake);
  return false;
}

/// Clones the ops defining `value` (isFreeToRemake) into `b`.
static void remake(OpBuilder &b, Value value, IRMapping &map) {
  if (map.contains(value))
    return;
  Operation *def = value.getDefiningOp();
  for (Value operand : def->getOperands())
    remake(b, operand, map);
  b.clone(*def, map);
}

/// Calls `fn` on each value of `top` that `op` reads, in its regions too.
static void readFromTop(Operation *op, Region *top,
                        function_ref<void(Value)> fn) {
  op->walk([&](Operation *nested) {
    for (Value v : nested->getOperands())
      if (v.getParentRegion() == top)
        fn(v);
  });
}

/// Clones `ops` at the end of `entry` through `map`, making the constants
/// they read first.
static void cloneOps(ArrayRef<Operation *> ops, Region *top, OpBuilder &b,
                     IRMapping &map) {
  for (Operation *op : ops) {
    readFromTop(op, top, [&](Value v) {
      if (!map.contains(v) && isFreeToRemake(v))
        remake(b, v, map);
    });
    b.clone(*op, map);
  }
}

/// The values of `values` through `map`, constants made at `b`.
static SmallVector<Value> lookupOrRemake(ValueRange values, OpBuilder &b,
                                         IRMapping &map) {
  SmallVector<Value> mapped;
  for (Value v : values) {
    if (!map.contains(v) && isFreeToRemake(v))
      remake(b, v, map);
    mapped.push_back(map.lookup(v));
  }
  return mapped;
}

FailureOr<SplitSummary> ts::splitForwardBackward(func::FuncOp joint,
                                                 unsigned numArguments,
                                                 unsigned numResults,
                                                 unsigned numForwardOps,
                                                 SavePolicy policy) {
  Block &body = joint.front();
  Region *top = &joint.getBody();
  auto ret = llvm::cast<func::ReturnOp>(body.getTerminator());
  // The forward ops are the original function's; the backward ops are
  // what differentiation added after them (the formulas, whether or not
  // they read an upstream gradient, as in PyTorch's backward graphs).
  DenseSet<Value> backwardValues;
  for (BlockArgument arg : joint.getArguments().drop_front(numArguments))
    backwardValues.insert(arg);
  SmallVector<Operation *> forwardOps, backwardOps;
  unsigned position = 0;
  for (Operation &op : body.without_terminator()) {
    bool backward = position++ >= numForwardOps;
    // Constants (and lists of them) are made again where they are read.
    if (!backward && op.getNumResults() != 0 &&
        llvm::all_of(op.getResults(), isFreeToRemake))
      continue;
    (backward ? backwardOps : forwardOps).push_back(&op);
    if (backward)
      for (Value r : op.getResults())
        backwardValues.insert(r);
  }
  // What the backward ops read of the forward part.
  llvm::SetVector<Value> backwardReads;
  auto noteRead = [&](Value v) {
    if (!backwardValues.contains(v) && !isFreeToRemake(v))
      backwardReads.insert(v);
  };
  for (Operation *op : backwardOps)
    readFromTop(op, top, noteRead);
  for (Value v : ret.getOperands().drop_front(numResults))
    noteRead(v);

  // The forward ops the backward computes again, in order, and what is
  // saved: what the backward and those ops read that they do not compute.
  DenseSet<Operation *> recomputedSet;
  // The forward returns the results flattened from their tuples.
  SmallVector<Value> forwardResults =
      flattenTuples(ret.getOperands().take_front(numResults));
  if (policy == SavePolicy::MinCut) {
    JointGraph graph{joint.getArguments().take_front(numArguments), forwardOps,
                     backwardReads.getArrayRef(), forwardResults,
                     isFreeToRemake};
    recomputedSet = chooseRecomputed(graph);
  }
  // Lists and tuples are never passed from the forward to the backward:
  // the backward makes them again from their elements (a lowering reads a
  // list's elements from the op that makes it).
  {
    SmallVector<Value> worklist(backwardReads.begin(), backwardReads.end());
    for (Operation *op : recomputedSet)
      llvm::append_range(worklist, op->getOperands());
    while (!worklist.empty()) {
      Operation *def = worklist.pop_back_val().getDefiningOp();
      if (!def || def->getParentRegion() != top || !isContainerConstruct(def) ||
          isFreeToRemake(def->getResult(0)))
        continue;
      if (recomputedSet.insert(def).second)
        llvm::append_range(worklist, def->getOperands());
    }
  }
  SmallVector<Operation *> recomputed;
  DenseSet<Value> recomputedValues;
  for (Operation *op : forwardOps)
    if (recomputedSet.contains(op)) {
      recomputed.push_back(op);
      recomputedValues.insert(op->result_begin(), op->result_end());
    }
  // The arguments the backward reads are passed to it again, not returned
  // by the forward (which would copy them).
  llvm::SetVector<Value> saved;
  SmallVector<BlockArgument> savedArguments;
  auto noteSaved = [&](Value v) {
    if (backwardValues.contains(v) || recomputedValues.contains(v) ||
        isFreeToRemake(v))
      return;
    if (auto arg = llvm::dyn_cast<BlockArgument>(v);
        arg && arg.getOwner() == &body) {
      if (!llvm::is_contained(savedArguments, arg))
        savedArguments.push_back(arg);
    } else {
      saved.insert(v);
    }
  };
  for (Operation *op : recomputed)
    readFromTop(op, top, noteSaved);
  for (Value v : backwardReads)
    noteSaved(v);
  llvm::sort(savedArguments, [](BlockArgument a, BlockArgument b) {
    return a.getArgNumber() < b.getArgNumber();
  });

  SplitSummary summary;
  summary.policy = policy;
  summary.savedValues = saved.size();
  summary.recomputedOps = recomputed.size();
  for (Value v : saved)
    summary.savedBytes += getSavedBytes(v).value_or(0);
  for (BlockArgument arg : savedArguments) {
    summary.savedArguments.push_back(arg.getArgNumber());
    summary.argumentBytes += getSavedBytes(arg).value_or(0);
  }

  MLIRContext *ctx = joint.getContext();
  OpBuilder b(joint);
  std::string name = joint.getSymName().str();
  // Forward: the original arguments; the results, then the saved values.
  SmallVector<Type> forwardArgs(
      joint.getArgumentTypes().take_front(numArguments));
  SmallVector<Type> forwardResultTypes(ValueRange(forwardResults).getTypes());
  for (Value v : saved)
    forwardResultTypes.push_back(v.getType());
  auto forward = func::FuncOp::create(
      b, joint.getLoc(), name + "_forward",
      mlir::FunctionType::get(ctx, forwardArgs, forwardResultTypes));
  forward.setVisibility(joint.getVisibility());
  {
    Block *entry = forward.addEntryBlock();
    IRMapping map;
    for (unsigned i = 0; i < numArguments; ++i) {
      map.map(joint.getArgument(i), entry->getArgument(i));
      if (DictionaryAttr attrs = joint.getArgAttrDict(i))
        forward.setArgAttrs(i, attrs);
    }
    OpBuilder fb = OpBuilder::atBlockEnd(entry);
    cloneOps(forwardOps, top, fb, map);
    SmallVector<Value> values = lookupOrRemake(forwardResults, fb, map);
    for (Value v : saved)
      values.push_back(map.lookup(v));
    func::ReturnOp::create(fb, ret.getLoc(), values);
  }
  forward->setAttr(
      kAutodiffAttrName,
      DictionaryAttr::get(
          ctx, {b.getNamedAttr("policy",
                               b.getStringAttr(stringifySavePolicy(policy))),
                b.getNamedAttr("saved_values",
                               b.getI64IntegerAttr(summary.savedValues)),
                b.getNamedAttr("saved_bytes",
                               b.getI64IntegerAttr(summary.savedBytes)),
                b.getNamedAttr("saved_arguments",
                               b.getDenseI64ArrayAttr(summary.savedArguments)),
                b.getNamedAttr("argument_bytes",
                               b.getI64IntegerAttr(summary.argumentBytes)),
                b.getNamedAttr("recomputed_ops",
                               b.getI64IntegerAttr(summary.recomputedOps))}));
  // Backward: the arguments it reads, the saved values, then the upstream
  // gradients.
  SmallVector<Type> backwardArgs;
  for (BlockArgument arg : savedArguments)
    backwardArgs.push_back(arg.getType());
  for (Value v : saved)
    backwardArgs.push_back(v.getType());
  for (BlockArgument arg : joint.getArguments().drop_front(numArguments))
    backwardArgs.push_back(arg.getType());
  auto backward = func::FuncOp::create(
      b, joint.getLoc(), name + "_backward",
      mlir::FunctionType::get(
          ctx, backwardArgs,
          TypeRange(ret.getOperandTypes()).drop_front(numResults)));
  backward.setVisibility(joint.getVisibility());
  if (Attribute names = joint->getAttr(kGradParamsAttrName))
    backward->setAttr(kGradParamsAttrName, names);
  {
    Block *entry = backward.addEntryBlock();
    IRMapping map;
    unsigned next = 0;
    for (BlockArgument arg : savedArguments)
      map.map(arg, entry->getArgument(next++));
    for (Value v : saved)
      map.map(v, entry->getArgument(next++));
    for (BlockArgument arg : joint.getArguments().drop_front(numArguments))
      map.map(arg, entry->getArgument(next++));
    OpBuilder bb = OpBuilder::atBlockEnd(entry);
    cloneOps(recomputed, top, bb, map);
    cloneOps(backwardOps, top, bb, map);
    func::ReturnOp::create(
        bb, ret.getLoc(),
        lookupOrRemake(ret.getOperands().drop_front(numResults), bb, map));
  }
  joint.erase();
  return summary;
}

FailureOr<func::FuncOp> ts::joinForwardBackward(ModuleOp module,
                                                StringRef name) {
  auto forward = module.lookupSymbol<func::FuncOp>((name + "_forward").str());
  auto backward = module.lookupSymbol<func::FuncOp>((name + "_backward").str());
  if (!forward || !backward)
    return module.emitError() << "no functions '" << name << "_forward' and '"
                              << name << "_backward' to join";
  auto summary = forward->getAttrOfType<DictionaryAttr>(kAutodiffAttrName);
  auto savedAttr =
      summary ? summary.getAs<IntegerAttr>("saved_values") : IntegerAttr();
  auto argumentsAttr = summary
                           ? summary.getAs<DenseI64ArrayAttr>("saved_arguments")
                           : DenseI64ArrayAttr();
  if (!savedAttr || !argumentsAttr)
    return forward.emitError()
           << "has no '" << kAutodiffAttrName << "' attribute saying what it "
           << "saves";
  unsigned numSaved = savedAttr.getInt();
  ArrayRef<int64_t> savedArguments = argumentsAttr.asArrayRef();
  unsigned numForwardArgs = forward.getNumArguments();
  if (forward.getNumResults() < numSaved ||
      backward.getNumArguments() < numSaved + savedArguments.size() ||
      llvm::any_of(savedArguments,
                   [&](int64_t i) { return i < 0 || i >= numForwardArgs; }))
    return forward.emitError() << "saves values it does not have";
  unsigned numResults = forward.getNumResults() - numSaved;
  unsigned numBackwardInputs = numSaved + savedArguments.size();

  MLIRContext *ctx = module.getContext();
  SmallVector<Type> argTypes(forward.getArgumentTypes());
  llvm::append_range(argTypes,
                     backward.getArgumentTypes().drop_front(numBackwardInputs));
  SmallVector<Type> resultTypes(
      forward.getResultTypes().take_front(numResults));
  llvm::append_range(resultTypes, backward.getResultTypes());
  OpBuilder b(forward);
  auto joint =
      func::FuncOp::create(b, forward.getLoc(), name,
                           mlir::FunctionType::get(ctx, argTypes, resultTypes));
  joint.setVisibility(forward.getVisibility());
  for (unsigned i = 0; i < numForwardArgs; ++i)
    if (DictionaryAttr attrs = forward.getArgAttrDict(i))
      joint.setArgAttrs(i, attrs);
  Block *entry = joint.addEntryBlock();
  OpBuilder jb = OpBuilder::atBlockEnd(entry);
  auto forwardCall =
      func::CallOp::create(jb, forward.getLoc(), forward,
                           entry->getArguments().take_front(numForwardArgs));
  SmallVector<Value> backwardOperands;
  for (int64_t i : savedArguments)
    backwardOperands.push_back(entry->getArgument(i));
  llvm::append_range(backwardOperands,
                     forwardCall.getResults().drop_front(numResults));
  llvm::append_range(backwardOperands,
                     entry->getArguments().drop_front(numForwardArgs));
  auto backwardCall =
      func::CallOp::create(jb, backward.getLoc(), backward, backwardOperands);
  SmallVector<Value> returned(forwardCall.getResults().take_front(numResults));
  llvm::append_range(returned, backwardCall.getResults());
  func::ReturnOp::create(jb, forward.getLoc(), returned);
  if (Attribute names = backward->getAttr(kGradParamsAttrName))
    joint->setAttr(kGradParamsAttrName, names);
  forward.setPrivate();
  backward.setPrivate();
  // A result whose size the data decide is returned at its bound where it
  // is computed (ts::getSizeBound), and its upstream gradient's size is the
  // caller's to give: forward and backward are then inlined into the
  // entry.
  Operation *forwardReturn = forward.front().getTerminator();
  if (llvm::any_of(forwardReturn->getOperands().take_front(numResults),
                   [](Value v) { return ts::getSizeBound(v).has_value(); })) {
    for (auto [call, callee] : {std::make_pair(forwardCall, forward),
                                std::make_pair(backwardCall, backward)}) {
      IRMapping map;
      map.map(callee.getArguments(), call.getOperands());
      OpBuilder inliner(call);
      for (Operation &op : callee.front().without_terminator())
        inliner.clone(op, map);
      for (auto [result, value] :
           llvm::zip(call.getResults(),
                     callee.front().getTerminator()->getOperands()))
        result.replaceAllUsesWith(map.lookup(value));
      call.erase();
      callee.erase();
    }
  }
  return joint;
}

FailureOr<SplitSummary> ts::differentiateGraph(Operation *op,
                                               SavePolicy policy) {
  auto graph = llvm::cast<fusion::DifferentiableGraphOp>(op);
  auto module = graph->getParentOfType<ModuleOp>();
  Location loc = graph.getLoc();
  Block &body = graph.getForward().front();
  auto yield = llvm::cast<fusion::YieldOp>(body.getTerminator());
  unsigned numInputs = body.getNumArguments();
  unsigned numResults = yield.getNumOperands();
  SmallVector<Type> resultTypes(yield.getOperandTypes());

  // The graph's forward as a function, differentiated and split.
  OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
  auto func = func::FuncOp::create(
      mb, loc, "__differentiable_graph",
      mlir::FunctionType::get(module.getContext(), body.getArgumentTypes(),
                              yield.getOperandTypes()));
  SymbolTable(module).insert(func);
  {
    Block *entry = func.addEntryBlock();
    IRMapping map;
    map.map(body.getArguments(), entry->getArguments());
    OpBuilder fb = OpBuilder::atBlockEnd(entry);
    for (Operation &inner : body.without_terminator())
      fb.clone(inner, map);
    SmallVector<Value> returned;
    for (Value v : yield.getOperands())
      returned.push_back(map.lookupOrDefault(v));
    func::ReturnOp::create(fb, loc, returned);
  }
  std::string name = func.getSymName().str();
  unsigned numForwardOps = func.front().getOperations().size() - 1;
  if (failed(differentiateJoint(func, /*parameters=*/false)))
    return failure();
  FailureOr<SplitSummary> summary =
      splitForwardBackward(func, numInputs, numResults, numForwardOps, policy);
  if (failed(summary))
    return failure();
  auto forward = module.lookupSymbol<func::FuncOp>(name + "_forward");
  auto backward = module.lookupSymbol<func::FuncOp>(name + "_backward");
  unsigned numSavedArguments = summary->savedArguments.size();
  unsigned numSaved = numSavedArguments + summary->savedValues;

  // The forward region: the forward function's body, yielding its results,
  // the arguments the backward reads, then the saved values.
  SmallVector<Type> savedTypes;
  {
    for (Operation &inner : llvm::make_early_inc_range(llvm::reverse(body)))
      inner.erase();
    IRMapping map;
    map.map(forward.getArguments(), body.getArguments());
    OpBuilder rb = OpBuilder::atBlockEnd(&body);
    for (Operation &inner : forward.front().without_terminator())
      rb.clone(inner, map);
    auto ret = llvm::cast<func::ReturnOp>(forward.front().getTerminator());
    SmallVector<Value> yielded;
    for (Value v : ret.getOperands().take_front(numResults))
      yielded.push_back(map.lookup(v));
    for (int64_t i : summary->savedArguments)
      yielded.push_back(body.getArgument(i));
    for (Value v : ret.getOperands().drop_front(numResults))
      yielded.push_back(map.lookup(v));
    for (Value v : ArrayRef(yielded).drop_front(numResults))
      savedTypes.push_back(v.getType());
    fusion::YieldOp::create(rb, loc, yielded);
  }
  // The backward region: one upstream gradient per result, then the saved
  // values; one gradient per input.
  {
    Block *block = new Block();
    graph.getBackward().push_back(block);
    for (Type type : graph.getResultTypes())
      block->addArgument(type, loc);
    for (Type type : savedTypes)
      block->addArgument(type, loc);
    IRMapping map;
    // The backward function takes the saved values first, then the
    // gradients of the floating-point tensor results.
    for (unsigned i = 0; i < numSaved; ++i)
      map.map(backward.getArgument(i), block->getArgument(numResults + i));
    unsigned next = numSaved;
    for (auto [i, type] : llvm::enumerate(resultTypes))
      if (isDifferentiableType(type))
        map.map(backward.getArgument(next++), block->getArgument(i));
    OpBuilder rb = OpBuilder::atBlockEnd(block);
    for (Operation &inner : backward.front().without_terminator())
      rb.clone(inner, map);
    auto ret = llvm::cast<func::ReturnOp>(backward.front().getTerminator());
    SmallVector<Value> gradients;
    unsigned nextGrad = 0;
    for (Type type : body.getArgumentTypes()) {
      if (isDifferentiableType(type)) {
        Value grad = map.lookup(ret.getOperand(nextGrad++));
        // An input typed requires_grad = false gets None, as in PyTorch.
        BoolAttr requiresGrad =
            llvm::cast<ts::TensorType>(type).getRequiresGrad();
        if (!requiresGrad || requiresGrad.getValue()) {
          gradients.push_back(grad);
          continue;
        }
      }
      gradients.push_back(PrimConstantOp::create(
          rb, loc, ts::NoneType::get(rb.getContext()), Attribute()));
    }
    fusion::YieldOp::create(rb, loc, gradients);
  }
  graph.setNumSaved(numSaved);
  forward.erase();
  backward.erase();
  return summary;
}
