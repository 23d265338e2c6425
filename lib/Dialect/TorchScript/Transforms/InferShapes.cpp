//===- InferShapes.cpp - Forward dtype and shape inference ----------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One forward sweep over each block, in order: an op's operands are final
// when it is reached, so each rule runs once. Scalars are folded on the way
// (with the ops' own folders) so that sizes computed from `aten::size` reach
// the rules that read them. Control flow:
//
//  * prim.If: both branches, then the join of what they yield (a branch
//    that yields prim.Uninitialized raises and does not count; a constant
//    condition picks its branch);
//  * prim.Loop: the carried values start as their initial values and are
//    joined with what the body yields until nothing changes; the body's
//    types are reset before each new round, since a type only ever becomes
//    more refined in place;
//  * fusion.group, fusion.differentiable_graph: the inputs' types flow into
//    the region arguments, the yields' into the results;
//  * fusion.guarded: the specialised region keeps its argument types, the
//    fallback takes the inputs' types; the results join both.
//
// A type is refined only when every user still accepts it: a guard's
// checked type must still refine it, a fusion region's argument must not
// contradict it, a list element must stay a subtype of the list's.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h"

#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/Transforms/ShapeInference.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ts-infer-shapes"

namespace mlir::tsmlir::ts {
#define GEN_PASS_DEF_TSINFERSHAPESPASS
#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir::ts

namespace mlir::tsmlir::ts {

//===----------------------------------------------------------------------===//
// Rule sets
//===----------------------------------------------------------------------===//

const ShapeRule *ShapeRuleSet::lookup(Operation *op) const {
  auto it = rules.find(op->getName().getTypeID());
  if (it != rules.end())
    return &it->second;
  if (inPlaceRule && op->hasTrait<OpTrait::InPlace>())
    return &inPlaceRule;
  return nullptr;
}

const ShapeRuleSet &getDefaultShapeRules() {
  static const ShapeRuleSet rules = [] {
    ShapeRuleSet set;
    populateElementwiseShapeRules(set);
    populateReductionShapeRules(set);
    populateViewShapeRules(set);
    populateLinalgShapeRules(set);
    populateNNShapeRules(set);
    populateFactoryShapeRules(set);
    populatePrimShapeRules(set);
    return set;
  }();
  return rules;
}

bool hasShapeRule(Operation *op, const ShapeRuleSet &rules) {
  return rules.lookup(op) ||
         llvm::isa<PrimIfOp, PrimLoopOp, fusion::GroupOp, fusion::GuardedOp,
                   fusion::DifferentiableGraphOp>(op);
}

//===----------------------------------------------------------------------===//
// Which refinements users accept
//===----------------------------------------------------------------------===//

/// Whether values of `a` may be used where `b` is declared, as the
/// TorchScript verifiers of yields and loops check it.
static bool fits(Type a, Type b) {
  return isValidSubtype(a, b) || areCompatible(a, b);
}

static Type withoutRequiresGrad(Type type) {
  auto tensor = llvm::dyn_cast<TensorType>(type);
  if (!tensor || !tensor.getRequiresGrad())
    return type;
  return TensorType::get(type.getContext(), tensor.getDtype(),
                         tensor.getSizes(), tensor.getStrides(),
                         tensor.getDevice(), BoolAttr());
}

/// Whether the user of `use` still verifies when the used value has type
/// `type`. Users that relate an operand's type to a result or region
/// argument of their own are checked; every other user accepts any
/// refinement (a function's return is updated with the signature).
static bool acceptsType(OpOperand &use, Type type) {
  Operation *user = use.getOwner();
  unsigned index = use.getOperandNumber();
  return llvm::TypeSwitch<Operation *, bool>(user)
      .Case<PrimTypeCheckOp, PrimRequiresGradCheckOp, fusion::GuardOp>(
          [&](Operation *op) {
            return isRefinementOf(op->getResult(index).getType(), type);
          })
      .Case<PrimBailOutOp>([&](PrimBailOutOp op) {
        return index != 0 || isRefinementOf(op.getType(), type);
      })
      .Case<fusion::GuardedOp>([&](fusion::GuardedOp op) {
        Type arg = op.getSpecialized().front().getArgument(index).getType();
        return isRefinementOf(arg, type);
      })
      .Case<fusion::GroupOp>([&](fusion::GroupOp op) {
        return areCompatible(op.getBody().front().getArgument(index).getType(),
                             type);
      })
      .Case<fusion::DifferentiableGraphOp>(
          [&](fusion::DifferentiableGraphOp op) {
            return areCompatible(
                op.getForward().front().getArgument(index).getType(), type,
                /*ignoreRequiresGrad=*/true);
          })
      .Case<PrimLoopOp>([&](PrimLoopOp op) {
        // Operands: max trip count, condition, then the carried values.
        return index < 2 ||
               fits(type,
                    op.getBody().front().getArgument(index - 1).getType());
      })
      .Case<PrimListConstructOp>([&](PrimListConstructOp op) {
        return isValidSubtype(
            type, llvm::cast<ListType>(op.getType()).getElementType());
      })
      .Case<PrimTupleConstructOp>([&](PrimTupleConstructOp op) {
        return isValidSubtype(
            type, llvm::cast<TupleType>(op.getType()).getElementTypes()[index]);
      })
      .Case<PrimDictConstructOp>([&](PrimDictConstructOp op) {
        auto dict = llvm::cast<DictType>(op.getType());
        return isValidSubtype(type, index % 2 ? dict.getValueType()
                                              : dict.getKeyType());
      })
      .Case<PrimYieldOp>([&](PrimYieldOp op) {
        Operation *parent = op->getParentOp();
        if (llvm::isa<PrimIfOp>(parent))
          return fits(type, parent->getResult(index).getType());
        if (llvm::isa<PrimLoopOp>(parent))
          return index == 0 ||
                 fits(type, parent->getResult(index - 1).getType());
        return true;
      })
      .Case<fusion::YieldOp>([&](fusion::YieldOp op) {
        Operation *parent = op->getParentOp();
        if (index >= parent->getNumResults())
          return true; // A differentiable graph's saved values.
        Type result = parent->getResult(index).getType();
        if (llvm::isa<fusion::GuardedOp>(parent))
          return isRefinementOf(type, result);
        return areCompatible(type, result,
                             llvm::isa<fusion::DifferentiableGraphOp>(parent));
      })
      .Default([](Operation *) { return true; });
}

Operation *getUserRejecting(Value value, Type type) {
  for (OpOperand &use : value.getUses())
    if (!acceptsType(use, type))
      return use.getOwner();
  return nullptr;
}

//===----------------------------------------------------------------------===//
// The sweep
//===----------------------------------------------------------------------===//

namespace {
/// The most rounds a loop's carried types get to settle; each round loses
/// at least one fact, so real loops settle in two or three.
constexpr unsigned kMaxLoopRounds = 8;

class ShapeInference {
public:
  explicit ShapeInference(const ShapeRuleSet &rules) : rules(rules) {}

  void inferFunction(func::FuncOp func);

private:
  void inferBlock(Block &block);
  void inferOp(Operation *op);
  void inferIf(PrimIfOp op);
  void inferLoop(PrimLoopOp op);
  void inferGroup(fusion::GroupOp op);
  void inferGuarded(fusion::GuardedOp op);
  void inferDifferentiableGraph(fusion::DifferentiableGraphOp op);
  void foldScalars(Operation *op);
  /// The constant value of `value`, which a region yields, if the result it
  /// becomes has that value too.
  Attribute getYieldedConstant(Value value) const;

  /// Refines `value`'s type with `inferred` when every user accepts the
  /// result. Returns whether the type changed.
  bool refine(Value value, Type inferred);

  const ShapeRuleSet &rules;
  ShapeFacts facts;
};
} // namespace

bool ShapeInference::refine(Value value, Type inferred) {
  if (!inferred)
    return false;
  Type old = value.getType();
  bool conflict = false;
  Type refined = refineType(old, inferred, &conflict);
  LLVM_DEBUG({
    if (conflict)
      llvm::dbgs() << "keeping " << old << " over the inferred " << inferred
                   << " for " << value << "\n";
  });
  if (refined == old)
    return false;
  // A list may be modified after it is built: its element type must then
  // cover whatever is put in.
  if (llvm::isa<ListType>(old) && !isUnmodifiedList(value))
    return false;
  if (Operation *user = getUserRejecting(value, refined)) {
    (void)user;
    LLVM_DEBUG(llvm::dbgs() << "not refining " << value << " to " << refined
                            << ": " << *user << " does not accept it\n");
    return false;
  }
  value.setType(refined);
  return true;
}

void ShapeInference::foldScalars(Operation *op) {
  if (op->getNumResults() == 0 || op->getNumRegions() != 0 ||
      llvm::isa<PrimConstantOp>(op) ||
      !llvm::isa<TorchScriptDialect>(op->getDialect()) ||
      llvm::any_of(op->getResultTypes(),
                   [](Type t) { return llvm::isa<TensorType>(t); }))
    return;
  auto intAttr = [&](int64_t v) -> Attribute {
    return IntegerAttr::get(IntegerType::get(op->getContext(), 64), v);
  };
  // A list of known ints is a constant (for as long as nothing modifies it,
  // which whoever reads it checks).
  if (auto list = llvm::dyn_cast<PrimListConstructOp>(op)) {
    SmallVector<Attribute> elements;
    for (Value element : list.getElements()) {
      std::optional<int64_t> v = facts.getInt(element);
      if (!v || !llvm::isa<IntType>(element.getType()))
        return;
      elements.push_back(intAttr(*v));
    }
    facts.setConstant(list.getResult(),
                      ArrayAttr::get(op->getContext(), elements));
    return;
  }
  SmallVector<Attribute> operands;
  for (Value v : op->getOperands())
    operands.push_back(llvm::isa<ListType>(v.getType()) && !isUnmodifiedList(v)
                           ? Attribute()
                           : facts.getConstant(v));
  SmallVector<OpFoldResult> folded;
  if (succeeded(op->fold(operands, folded)) &&
      folded.size() == op->getNumResults()) {
    for (auto [result, f] : llvm::zip_equal(op->getResults(), folded)) {
      Attribute cst = llvm::dyn_cast<Attribute>(f);
      if (auto v = llvm::dyn_cast<Value>(f); v && v != result)
        cst = facts.getConstant(v);
      if (cst)
        facts.setConstant(result, cst);
    }
    return;
  }
  // Elements of int lists only partly known (the sizes of a tensor of known
  // rank), which the folders cannot see.
  if (auto getItem = llvm::dyn_cast<Aten__Getitem__TOp>(op)) {
    std::optional<SmallVector<int64_t>> list =
        facts.getIntList(getItem.getListValue());
    std::optional<int64_t> index = facts.getInt(getItem.getIdx());
    if (list && index) {
      int64_t n = list->size(), i = *index < 0 ? *index + n : *index;
      if (i >= 0 && i < n && (*list)[i] != TensorType::kUnknown)
        facts.setConstant(op->getResult(0), intAttr((*list)[i]));
    }
  } else if (auto unpack = llvm::dyn_cast<PrimListUnpackOp>(op)) {
    std::optional<SmallVector<int64_t>> list =
        facts.getIntList(unpack.getList());
    if (list && list->size() == op->getNumResults())
      for (auto [result, v] : llvm::zip_equal(op->getResults(), *list))
        if (v != TensorType::kUnknown)
          facts.setConstant(result, intAttr(v));
  } else if (auto len = llvm::dyn_cast<AtenLenTOp>(op)) {
    if (std::optional<SmallVector<int64_t>> list = facts.getIntList(len.getA()))
      facts.setConstant(op->getResult(0), intAttr(list->size()));
  }
}

void ShapeInference::inferBlock(Block &block) {
  for (Operation &op : block)
    inferOp(&op);
}

void ShapeInference::inferOp(Operation *op) {
  llvm::TypeSwitch<Operation *>(op)
      .Case<PrimIfOp>([&](PrimIfOp ifOp) { inferIf(ifOp); })
      .Case<PrimLoopOp>([&](PrimLoopOp loop) { inferLoop(loop); })
      .Case<fusion::GroupOp>([&](fusion::GroupOp group) { inferGroup(group); })
      .Case<fusion::GuardedOp>(
          [&](fusion::GuardedOp guarded) { inferGuarded(guarded); })
      .Case<fusion::DifferentiableGraphOp>(
          [&](fusion::DifferentiableGraphOp graph) {
            inferDifferentiableGraph(graph);
          })
      .Default([&](Operation *op) {
        // Ops with regions this pass does not model: their insides still
        // get inferred.
        for (Region &region : op->getRegions())
          for (Block &block : region)
            inferBlock(block);
        if (const ShapeRule *rule = rules.lookup(op)) {
          SmallVector<Type> inferred(op->getNumResults(), Type());
          (*rule)(op, facts, inferred);
          for (auto [result, type] :
               llvm::zip_equal(op->getResults(), inferred))
            refine(result, type);
        }
        foldScalars(op);
      });
}

/// Whether `value` is a placeholder of a branch that raises.
static bool isUninitialized(Value value) {
  return value.getDefiningOp<PrimUninitializedOp>() != nullptr;
}

Attribute ShapeInference::getYieldedConstant(Value value) const {
  // A list is the result's value only if the branch builds it just to yield
  // it, or nothing modifies it.
  if (llvm::isa<ListType>(value.getType()) && !value.hasOneUse() &&
      !isUnmodifiedList(value))
    return {};
  return facts.getConstant(value);
}

void ShapeInference::inferIf(PrimIfOp op) {
  inferBlock(*op.thenBlock());
  inferBlock(*op.elseBlock());
  std::optional<bool> cond = facts.getBool(op.getCondition());
  if (!cond)
    if (std::optional<int64_t> i = facts.getInt(op.getCondition());
        i && llvm::isa<IntType>(op.getCondition().getType()))
      cond = *i != 0;
  auto thenYield = llvm::cast<PrimYieldOp>(op.thenBlock()->getTerminator());
  auto elseYield = llvm::cast<PrimYieldOp>(op.elseBlock()->getTerminator());
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    Value a = thenYield.getOperand(i), b = elseYield.getOperand(i);
    // The value the result certainly is, if one branch is taken or the
    // other raises.
    Value only = cond                 ? (*cond ? a : b)
                 : isUninitialized(a) ? b
                 : isUninitialized(b) ? a
                                      : Value();
    // The untaken branch must still verify: its yield must fit the result.
    Value other = only == a ? b : a;
    if (only && !isUninitialized(other) &&
        !fits(other.getType(), refineType(result.getType(), only.getType())))
      only = Value();
    if (only) {
      refine(result, only.getType());
      if (Attribute cst = getYieldedConstant(only))
        facts.setConstant(result, cst);
      // A placeholder the other branch yields (it raises, or returns early
      // with a flag saying the result is not read) takes the result's type,
      // so that the yield still fits it.
      if (isUninitialized(other) && other.getType() != result.getType()) {
        auto yield = llvm::cast<PrimYieldOp>(
            (other == b ? op.elseBlock() : op.thenBlock())->getTerminator());
        OpBuilder builder(yield);
        yield->setOperand(i, PrimUninitializedOp::create(
                                 builder, other.getLoc(), result.getType()));
      }
      continue;
    }
    refine(result, joinTypes(a.getType(), b.getType(), Type()));
    Attribute ca = getYieldedConstant(a);
    if (ca && ca == getYieldedConstant(b))
      facts.setConstant(result, ca);
  }
}

void ShapeInference::inferLoop(PrimLoopOp op) {
  Block &body = op.getBody().front();
  auto yield = llvm::cast<PrimYieldOp>(body.getTerminator());
  size_t numCarried = op.getIterArgs().size();
  // The types of everything the body defines, to start each round afresh.
  SmallVector<std::pair<Value, Type>> saved;
  for (BlockArgument arg : body.getArguments())
    saved.emplace_back(arg, arg.getType());
  body.walk([&](Operation *inner) {
    for (Value result : inner->getResults())
      saved.emplace_back(result, result.getType());
    for (Region &region : inner->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          saved.emplace_back(arg, arg.getType());
  });
  auto restore = [&] {
    for (auto [value, type] : saved) {
      value.setType(type);
      facts.forget(value);
    }
  };
  auto carriedArg = [&](size_t i) { return body.getArgument(i + 1); };
  SmallVector<Type> declared, assumed;
  for (size_t i = 0; i < numCarried; ++i) {
    declared.push_back(carriedArg(i).getType());
    assumed.push_back(refineType(declared[i], op.getIterArgs()[i].getType()));
  }
  bool settled = false;
  for (unsigned round = 0; round < kMaxLoopRounds && !settled; ++round) {
    restore();
    for (size_t i = 0; i < numCarried; ++i) {
      refine(carriedArg(i), assumed[i]);
      assumed[i] = carriedArg(i).getType();
    }
    inferBlock(body);
    settled = true;
    for (size_t i = 0; i < numCarried; ++i) {
      Type next = refineType(
          declared[i], joinTypes(assumed[i], yield.getOperand(i + 1).getType(),
                                 declared[i]));
      if (next != assumed[i]) {
        assumed[i] = next;
        settled = false;
      }
    }
  }
  if (!settled) {
    LLVM_DEBUG(llvm::dbgs() << "loop did not settle; keeping its declared "
                               "carried types\n");
    restore();
    inferBlock(body);
    assumed = declared;
  }
  for (auto [result, type] : llvm::zip_equal(op.getResults(), assumed))
    refine(result, type);
}

void ShapeInference::inferGroup(fusion::GroupOp op) {
  Block &body = op.getBody().front();
  for (auto [arg, input] : llvm::zip_equal(body.getArguments(), op.getInputs()))
    refine(arg, input.getType());
  inferBlock(body);
  Operation *yield = body.getTerminator();
  for (auto [result, yielded] :
       llvm::zip_equal(op.getResults(), yield->getOperands()))
    refine(result, yielded.getType());
}

void ShapeInference::inferGuarded(fusion::GuardedOp op) {
  Block &specialized = op.getSpecialized().front();
  Block &fallback = op.getFallback().front();
  // The fallback takes the inputs as they are.
  for (auto [arg, input] :
       llvm::zip_equal(fallback.getArguments(), op.getInputs()))
    arg.setType(input.getType());
  inferBlock(specialized);
  inferBlock(fallback);
  Operation *specializedYield = specialized.getTerminator();
  Operation *fallbackYield = fallback.getTerminator();
  for (auto [i, result] : llvm::enumerate(op.getResults()))
    refine(result, joinTypes(specializedYield->getOperand(i).getType(),
                             fallbackYield->getOperand(i).getType(), Type()));
}

void ShapeInference::inferDifferentiableGraph(
    fusion::DifferentiableGraphOp op) {
  // The forward runs with autograd off: requires_grad does not flow.
  Block &forward = op.getForward().front();
  for (auto [arg, input] :
       llvm::zip_equal(forward.getArguments(), op.getInputs()))
    refine(arg, withoutRequiresGrad(input.getType()));
  inferBlock(forward);
  Operation *yield = forward.getTerminator();
  for (auto [result, yielded] :
       llvm::zip(op.getResults(), yield->getOperands()))
    refine(result, withoutRequiresGrad(yielded.getType()));
  if (!op.getBackward().empty())
    inferBlock(op.getBackward().front());
}

void ShapeInference::inferFunction(func::FuncOp func) {
  if (func.isExternal())
    return;
  for (Block &block : func.getBody())
    inferBlock(block);
  // The function returns what its return does, now more refined.
  SmallVector<func::ReturnOp> returns;
  for (Block &block : func.getBody())
    if (auto ret = llvm::dyn_cast<func::ReturnOp>(block.getTerminator()))
      returns.push_back(ret);
  if (returns.empty())
    return;
  SmallVector<Type> results(returns.front().getOperandTypes());
  for (func::ReturnOp ret : returns)
    if (TypeRange(ret.getOperandTypes()) != TypeRange(results))
      return; // Returns of different types: leave the signature.
  func.setFunctionType(mlir::FunctionType::get(
      func.getContext(), func.getArgumentTypes(), results));
}

void inferShapes(func::FuncOp func, const ShapeRuleSet &rules) {
  ShapeInference(rules).inferFunction(func);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct TSInferShapesPass
    : public ts::impl::TSInferShapesPassBase<TSInferShapesPass> {
  using Base::Base;

  void runOnOperation() override {
    const ShapeRuleSet &rules = getDefaultShapeRules();
    SmallVector<func::FuncOp> funcs;
    getOperation()->walk([&](func::FuncOp func) { funcs.push_back(func); });
    for (func::FuncOp func : funcs)
      inferShapes(func, rules);
  }
};
} // namespace

} // namespace mlir::tsmlir::ts
