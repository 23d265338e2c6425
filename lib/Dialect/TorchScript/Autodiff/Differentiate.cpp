//===- Differentiate.cpp - Backward graphs of ts functions ----------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reverse-mode differentiation of a function's body, op by op from its
// return back to its arguments:
//
//   1. the active values: the floating-point tensor arguments, and what an
//      op computes from an active value (a tensor of a floating-point
//      dtype, or a container);
//   2. one upstream gradient argument per floating-point tensor result;
//   3. in reverse order, each op a gradient reaches and that reads an
//      active value applies its formula (Formulas.h), which adds to its
//      operands' gradients; a value reached twice sums them;
//   4. the arguments' gradients are returned (zeros for an argument no
//      gradient reaches).
//
// The split form (Split.cpp) then moves the gradient ops into a function of
// their own.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Autodiff/Autodiff.h"
#include "tsmlir/Dialect/TorchScript/Autodiff/Passes.h"

#include "Formulas.h"

#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"
#include "tsmlir/Dialect/TorchScript/IR/NodeKind.h"

#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::tsmlir::ts {
#define GEN_PASS_DEF_TSDIFFERENTIATEPASS
#include "tsmlir/Dialect/TorchScript/Autodiff/Passes.h.inc"
} // namespace mlir::tsmlir::ts

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::autodiff;

bool ts::isDifferentiableType(Type type) {
  auto tensor = llvm::dyn_cast<ts::TensorType>(type);
  return tensor && tensor.getDtype() &&
         llvm::isa<mlir::FloatType>(tensor.getDtype());
}

SmallVector<Value> autodiff::flattenTuples(ValueRange values) {
  SmallVector<Value> flat;
  std::function<void(Value)> add = [&](Value v) {
    if (auto tuple = v.getDefiningOp<PrimTupleConstructOp>()) {
      for (Value element : tuple.getElements())
        add(element);
      return;
    }
    flat.push_back(v);
  };
  for (Value v : values)
    add(v);
  return flat;
}

/// Whether `op` (or an op nested in it) reads a value of `values`.
static bool readsAny(Operation &op, const DenseSet<Value> &values) {
  WalkResult found = op.walk([&](Operation *nested) {
    for (Value v : nested->getOperands())
      if (values.contains(v))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

namespace {
/// Gradients accumulated so far, by value, and by element of the lists of
/// tensors: one per scope (the function, each branch of a conditional's
/// backward).
struct GradMap {
  DenseMap<Value, Value> values;
  DenseMap<Value, SmallVector<Value>> elements;

  Value lookup(Value v) const { return values.lookup(v); }
  bool reached(Value v) const {
    return values.count(v) || elements.count(v);
  }
};

/// One differentiation: the active values and the formulas.
struct Differentiator {
  const FormulaTable &table;
  DenseSet<Value> active;

  /// Marks the values `ops` compute from active ones (in order, nested
  /// regions included) active.
  void findActive(Block &block) {
    for (Operation &op : block.without_terminator()) {
      for (Region &region : op.getRegions())
        for (Block &inner : region)
          findActive(inner);
      if (!readsAny(op, active))
        continue;
      for (Value r : op.getResults())
        if (isDifferentiableType(r.getType()) ||
            llvm::isa<ts::ListType, ts::TupleType>(r.getType()))
          active.insert(r);
    }
  }

  void accumulate(GradMap &grads, TSBuilder &t, Value value, Value grad) {
    if (!grad || !active.contains(value))
      return;
    Value &sum = grads.values[value];
    sum = sum ? t.add(sum, grad) : grad;
  }
  void accumulateElement(GradMap &grads, TSBuilder &t, Value list,
                         int64_t index, Value grad) {
    if (!grad || !active.contains(list) || index < 0)
      return;
    SmallVector<Value> &elements = grads.elements[list];
    if (static_cast<int64_t>(elements.size()) <= index)
      elements.resize(index + 1);
    Value &sum = elements[index];
    sum = sum ? t.add(sum, grad) : grad;
  }

  /// Applies the formulas of `ops` in reverse, building at `b`.
  LogicalResult backward(ArrayRef<Operation *> ops, GradMap &grads,
                         OpBuilder &b);
  LogicalResult backwardIf(PrimIfOp op, ArrayRef<Value> resultGrads,
                           GradMap &grads, OpBuilder &b);
};
} // namespace

LogicalResult Differentiator::backward(ArrayRef<Operation *> ops,
                                       GradMap &grads, OpBuilder &b) {
  for (Operation *op : llvm::reverse(ops)) {
    SmallVector<Value> resultGrads;
    bool reached = false;
    for (Value r : op->getResults()) {
      resultGrads.push_back(grads.lookup(r));
      reached |= grads.reached(r);
    }
    if (!reached || !readsAny(*op, active))
      continue;
    if (auto conditional = llvm::dyn_cast<PrimIfOp>(op)) {
      if (failed(backwardIf(conditional, resultGrads, grads, b)))
        return failure();
      continue;
    }
    if (op->getNumRegions() != 0)
      return op->emitError()
             << "cannot differentiate '" << getNodeKind(op)
             << "': a loop on the gradient's path is not supported";
    auto isStatic = [](Type type) {
      auto tensor = llvm::dyn_cast<ts::TensorType>(type);
      return !tensor || (tensor.hasStaticShape() && tensor.hasDtype());
    };
    auto hasDtype = [](Type type) {
      auto tensor = llvm::dyn_cast<ts::TensorType>(type);
      return !tensor || tensor.hasDtype();
    };
    if (!llvm::all_of(op->getOperandTypes(), isStatic) ||
        !llvm::all_of(op->getResultTypes(),
                      table.allowsDynamicResults(op) ? hasDtype : isStatic))
      return op->emitError()
             << "cannot differentiate '" << getNodeKind(op)
             << "': its tensors' dtypes and sizes are not all known";
    const Formula *formula = table.lookup(op);
    if (!formula)
      return op->emitError() << "no derivative formula for '"
                             << getNodeKind(op, /*withOverload=*/true) << "'";
    TSBuilder t{b, op->getLoc()};
    GradContext context{
        t,
        op,
        resultGrads,
        [&](Value value, Value grad) { accumulate(grads, t, value, grad); },
        [&](Value list, int64_t index, Value grad) {
          accumulateElement(grads, t, list, index, grad);
        },
        [&](Value list) -> ArrayRef<Value> {
          auto it = grads.elements.find(list);
          return it == grads.elements.end() ? ArrayRef<Value>()
                                            : ArrayRef<Value>(it->second);
        }};
    if (failed((*formula)(context)))
      return failure();
  }
  return success();
}

/// The conditional's backward is a conditional on the same condition: each
/// branch computes its forward ops again (their values are not visible
/// outside it), differentiates them from the gradients of what it yields,
/// and yields the gradients of the active values it read from outside
/// (zeros for those it did not reach), which then add to theirs.
LogicalResult Differentiator::backwardIf(PrimIfOp op,
                                         ArrayRef<Value> resultGrads,
                                         GradMap &grads, OpBuilder &b) {
  llvm::SetVector<Value> captured;
  op->walk([&](Operation *nested) {
    for (Value v : nested->getOperands())
      if (active.contains(v) &&
          !op->isAncestor(v.getParentRegion()->getParentOp()))
        captured.insert(v);
  });
  if (captured.empty())
    return success();
  Location loc = op.getLoc();
  TSBuilder t{b, loc};
  SmallVector<Type> types(captured.size(), t.tensor());
  auto backwardOp = PrimIfOp::create(b, loc, types, op.getCondition());
  for (auto [forward, region] :
       llvm::zip_equal(op->getRegions(), backwardOp->getRegions())) {
    Block *block = b.createBlock(&region);
    OpBuilder rb = OpBuilder::atBlockEnd(block);
    IRMapping map;
    SmallVector<Operation *> cloned;
    Block &body = forward.front();
    for (Operation &inner : body.without_terminator())
      cloned.push_back(rb.clone(inner, map));
    // The copies are active where the originals are.
    body.walk([&](Operation *inner) {
      for (Value r : inner->getResults())
        if (active.contains(r) && map.contains(r))
          active.insert(map.lookup(r));
    });
    GradMap local;
    TSBuilder rt{rb, loc};
    for (auto [yielded, grad] :
         llvm::zip_equal(body.getTerminator()->getOperands(), resultGrads))
      accumulate(local, rt, map.lookupOrDefault(yielded), grad);
    if (failed(backward(cloned, local, rb)))
      return failure();
    SmallVector<Value> yielded;
    for (Value v : captured) {
      Value grad = local.lookup(v);
      yielded.push_back(grad ? grad : zerosLike(rt, v));
    }
    PrimYieldOp::create(rb, loc, yielded);
  }
  b.setInsertionPointAfter(backwardOp);
  for (auto [v, grad] : llvm::zip_equal(captured, backwardOp.getResults()))
    accumulate(grads, t, v, grad);
  return success();
}

/// Erases `op` when nothing uses its results, after the ops its regions
/// hold that nothing uses (every op a formula builds computes a value and
/// nothing else).
static void eraseUnused(Operation *op) {
  for (Region &region : op->getRegions())
    for (Block &block : region) {
      SmallVector<Operation *> inner;
      for (Operation &nested : block.without_terminator())
        inner.push_back(&nested);
      for (Operation *nested : llvm::reverse(inner))
        eraseUnused(nested);
    }
  if (op->use_empty())
    op->erase();
}

/// The module's tensors of `func` (the constants freezing made of its
/// attributes, `dense_resource<NAME>`) of a floating-point dtype, one per
/// name, hoisted to the top of the body (with the others of the same name
/// replaced by it), in order of first appearance.
static SmallVector<std::pair<StringRef, Value>>
hoistParameters(func::FuncOp func) {
  SmallVector<std::pair<StringRef, Value>> parameters;
  llvm::StringMap<Value> byName;
  SmallVector<PrimConstantOp> constants;
  func.walk([&](PrimConstantOp op) {
    auto resource =
        llvm::dyn_cast_or_null<DenseResourceElementsAttr>(op.getValueAttr());
    if (!resource || !llvm::isa<mlir::FloatType>(resource.getElementType()))
      return;
    // An optional attribute (a layer's `bias: Tensor?`) typed as it was
    // declared: its value is a tensor of the attribute's type.
    if (!isDifferentiableType(op.getType()))
      op.getResult().setType(
          ts::TensorType::get(op.getContext(), resource.getElementType(),
                              resource.getType().getShape()));
    constants.push_back(op);
  });
  Block &body = func.front();
  for (PrimConstantOp op : constants) {
    auto resource = llvm::cast<DenseResourceElementsAttr>(op.getValueAttr());
    StringRef name = resource.getRawHandle().getKey();
    auto [it, inserted] = byName.try_emplace(name, op.getResult());
    if (!inserted && it->second.getType() == op.getType()) {
      op.replaceAllUsesWith(it->second);
      op.erase();
      continue;
    }
    if (!inserted)
      continue; // the same tensor under another type: left where it is
    op->moveBefore(&body, body.begin());
    parameters.emplace_back(name, op.getResult());
  }
  return parameters;
}

LogicalResult ts::differentiateJoint(func::FuncOp func, bool withParameters) {
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return func.emitError("only a function of one block is differentiated");
  Block &body = func.front();
  auto ret = llvm::cast<func::ReturnOp>(body.getTerminator());
  Differentiator d{getFormulaTable(), {}};
  for (BlockArgument arg : func.getArguments())
    if (isDifferentiableType(arg.getType()))
      d.active.insert(arg);
  SmallVector<std::pair<StringRef, Value>> parameters;
  if (withParameters)
    parameters = hoistParameters(func);
  for (auto [name, value] : parameters)
    d.active.insert(value);
  d.findActive(body);
  SmallVector<Operation *> forward;
  for (Operation &op : body.without_terminator())
    forward.push_back(&op);

  Operation *lastForward = ret->getPrevNode();
  OpBuilder b(ret);
  GradMap grads;
  // One upstream gradient per floating-point tensor result.
  unsigned numArgs = func.getNumArguments();
  for (Value result : flattenTuples(ret.getOperands())) {
    if (!isDifferentiableType(result.getType()))
      continue;
    unsigned index = func.getNumArguments();
    if (failed(func.insertArgument(index, result.getType(), {},
                                   result.getLoc())))
      return failure();
    TSBuilder t{b, result.getLoc()};
    d.accumulate(grads, t, result, func.getArgument(index));
  }
  if (failed(d.backward(forward, grads, b)))
    return failure();

  // The arguments' gradients, after the results.
  SmallVector<Value> returned(ret.getOperands());
  for (BlockArgument arg : func.getArguments().take_front(numArgs)) {
    if (!isDifferentiableType(arg.getType()))
      continue;
    TSBuilder t{b, arg.getLoc()};
    Value grad = grads.lookup(arg);
    returned.push_back(grad ? grad : zerosLike(t, arg));
  }
  // Then the module's tensors' that a gradient reaches, named.
  SmallVector<Attribute> parameterNames;
  for (auto [name, value] : parameters)
    if (Value grad = grads.lookup(value)) {
      returned.push_back(grad);
      parameterNames.push_back(b.getStringAttr(name));
    }
  if (!parameterNames.empty())
    func->setAttr(kGradParamsAttrName, b.getArrayAttr(parameterNames));
  auto newReturn = func::ReturnOp::create(b, ret.getLoc(), returned);
  ret.erase();
  // Formulas build every operand's gradient; those of operands that need
  // none (an integer tensor, a constant) are left unused.
  Operation *firstBackward =
      lastForward ? lastForward->getNextNode() : &body.front();
  SmallVector<Operation *> backwardOps;
  for (Operation *op = firstBackward; op != newReturn; op = op->getNextNode())
    backwardOps.push_back(op);
  for (Operation *op : llvm::reverse(backwardOps))
    eraseUnused(op);
  func.setFunctionType(mlir::FunctionType::get(
      func.getContext(), func.getArgumentTypes(),
      ValueRange(returned).getTypes()));
  return success();
}

namespace {
struct TSDifferentiatePass
    : public ts::impl::TSDifferentiatePassBase<TSDifferentiatePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (graphs) {
      SmallVector<fusion::DifferentiableGraphOp> todo;
      module.walk([&](fusion::DifferentiableGraphOp graph) {
        if (graph.getBackward().empty())
          todo.push_back(graph);
      });
      for (fusion::DifferentiableGraphOp graph : todo) {
        FailureOr<SplitSummary> summary = differentiateGraph(graph, policy);
        if (failed(summary))
          return signalPassFailure();
        numSavedValues += summary->savedValues;
        numSavedBytes += summary->savedBytes;
        numRecomputedOps += summary->recomputedOps;
      }
      return;
    }
    auto target = module.lookupSymbol<func::FuncOp>(func);
    if (!target) {
      module.emitError() << "no function named '" << func << "'";
      return signalPassFailure();
    }
    unsigned numArguments = target.getNumArguments();
    unsigned numResults = target.getNumResults();
    unsigned numForwardOps = target.front().getOperations().size() - 1;
    if (failed(differentiateJoint(target)))
      return signalPassFailure();
    if (joint)
      return;
    FailureOr<SplitSummary> summary = splitForwardBackward(
        target, numArguments, numResults, numForwardOps, policy);
    if (failed(summary))
      return signalPassFailure();
    numSavedValues = summary->savedValues;
    numSavedBytes = summary->savedBytes;
    numRecomputedOps = summary->recomputedOps;
  }
};
} // namespace
