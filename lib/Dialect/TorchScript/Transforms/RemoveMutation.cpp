//===- RemoveMutation.cpp - In-place ops to value semantics ---------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One walk over each function, in program order. Every value that a rewrite
// replaced maps to its replacement (`x` -> `x1 = add(x, y)`), and each op the
// walk reaches has its operands mapped first: that is how "every later use"
// of a mutated value comes to use the new one, without searching use lists.
// The walk also records, per value, whether anything other than a read has
// used it so far (it escaped) and which views of it exist; a mutation is
// rewritten when its operand is a fresh object, defined in the mutation's
// block, that has not escaped and whose views are dead by then.
//
// The rewrites are not patterns: whether one applies depends on everything
// that ran before it in the function, which a walk in order knows and a
// pattern driver does not.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h"

#include "tsmlir/Dialect/TorchScript/IR/Aliasing.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ts-remove-mutation"

namespace mlir::tsmlir::ts {
#define GEN_PASS_DEF_TSREMOVEMUTATIONPASS
#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir::ts

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;

static bool isListMutation(Operation *op) {
  return llvm::isa<AtenAppendTOp, Aten_SetItemTOp>(op);
}

/// The registered ops that may be the out-of-place form of a
/// schema-described in-place op, in the order to try them: the same
/// overload (`ts.aten.add_.Tensor` -> `ts.aten.add.Tensor`), then the
/// default overload (`floor_divide_.Tensor` -> `floor_divide`), then the
/// overloads whose self is a tensor (`pow_.Scalar` -> `pow.Tensor_Scalar`,
/// `pow_.Tensor` -> `pow.Tensor_Tensor`). The first whose operands fit is
/// the one (buildTensorValue checks).
static SmallVector<OperationName> getOutOfPlaceNames(Operation *op) {
  StringRef name = op->getName().getStringRef();
  auto [prefix, rest] = name.split('.');  // "ts", "aten.add_.Tensor"
  auto [ns, rest2] = rest.split('.');     // "aten", "add_.Tensor"
  auto [base, overload] = rest2.split('.'); // "add_", "Tensor"
  SmallVector<OperationName> names;
  if (!base.consume_back("_") || base.ends_with("_"))
    return names;
  std::string stem = (prefix + "." + ns + "." + base).str();
  SmallVector<std::string> candidates;
  if (!overload.empty())
    candidates.push_back(stem + "." + overload.str());
  candidates.push_back(stem);
  if (!overload.empty())
    candidates.push_back(stem + ".Tensor_" + overload.str());
  for (const std::string &candidate : candidates)
    if (auto registered =
            RegisteredOperationName::lookup(candidate, op->getContext()))
      names.push_back(OperationName(*registered));
  // Then the other overloads of the stem (`transpose_` -> `transpose.int`).
  std::string stemDot = stem + ".";
  for (RegisteredOperationName registered :
       op->getContext()->getRegisteredOperations()) {
    StringRef other = registered.getStringRef();
    if (other.starts_with(stemDot) &&
        !other.drop_front(stemDot.size()).contains('.') &&
        !llvm::is_contained(names, OperationName(registered)))
      names.push_back(OperationName(registered));
  }
  return names;
}

/// Whether `op` changes its operand's sizes or strides in place, not its
/// elements (`transpose_`, `unsqueeze_`, `as_strided_`...): only the tensor
/// object itself sees the change; views taken before keep theirs, and no
/// element of the storage is written.
static bool isMetadataMutation(Operation *op) {
  return llvm::isa<AtenTranspose_Op, AtenT_Op, AtenSqueeze_Op,
                   AtenSqueeze_DimOp, AtenUnsqueeze_Op, AtenSwapaxes_Op,
                   AtenSwapdims_Op, AtenAsStrided_Op>(op);
}

/// Whether `op` is an in-place tensor op that this pass can rewrite.
static bool hasValueForm(Operation *op) {
  if (llvm::isa<AtenZero_Op, AtenFill_ScalarOp, AtenFill_TensorOp,
                AtenCopy_Op>(op))
    return true;
  return !isListMutation(op) && !getOutOfPlaceNames(op).empty();
}

/// Whether the out-of-place form of `op` may have another dtype than its
/// self operand, which the in-place op keeps: when another operand is a
/// tensor of another or an unknown dtype (promotion), and for comparisons
/// and logical ops (bool).
static bool mayPromote(Operation *op) {
  // Writes at indices keep self's dtype whatever they write.
  if (llvm::isa<AtenScatter_SrcOp, AtenScatter_ValueOp, AtenScatter_ReduceOp,
                AtenScatter_ValueReduceOp, AtenScatterAdd_Op,
                AtenScatterReduce_TwoOp, AtenIndexPut_Op,
                AtenIndexPut_HackedTwinOp, AtenIndexAdd_Op>(op))
    return false;
  if (llvm::isa<AtenEq_TensorOp, AtenEq_ScalarOp, AtenNe_TensorOp,
                AtenNe_ScalarOp, AtenLt_TensorOp, AtenLt_ScalarOp,
                AtenLe_TensorOp, AtenLe_ScalarOp, AtenGt_TensorOp,
                AtenGt_ScalarOp, AtenGe_TensorOp, AtenGe_ScalarOp,
                AtenLogicalAnd_Op, AtenLogicalOr_Op, AtenLogicalXor_Op,
                AtenLogicalNot_Op>(op))
    return true;
  auto self = llvm::dyn_cast<ts::TensorType>(op->getOperand(0).getType());
  return llvm::any_of(op->getOperands().drop_front(), [&](Value v) {
    auto other = llvm::dyn_cast<ts::TensorType>(v.getType());
    return other && (!self || !self.getDtype() || !other.getDtype() ||
                     self.getDtype() != other.getDtype());
  });
}

/// Whether the dtype of the out-of-place form is unknown: an operand's dtype
/// is. (Known dtypes that differ only need a cast back to self's.)
static bool mayPromoteUnknown(Operation *op) {
  if (!mayPromote(op))
    return false;
  return llvm::any_of(op->getOperands(), [](Value v) {
    auto tensor = llvm::dyn_cast<ts::TensorType>(v.getType());
    return tensor && !tensor.getDtype();
  });
}

/// Checks the invariants of a freshly built op, quietly.
static bool isValidOp(Operation *op) {
  ScopedDiagnosticHandler silence(op->getContext(),
                                  [](Diagnostic &) { return success(); });
  std::optional<RegisteredOperationName> info = op->getRegisteredInfo();
  return info && succeeded(info->verifyInvariants(op));
}

namespace {
class MutationRemover {
public:
  MutationRemover(bool preserveDtype, bool castUnknownDtypes, bool loopCarried,
                  bool remarks, bool metadataOnly = false)
      : preserveDtype(preserveDtype), castUnknownDtypes(castUnknownDtypes),
        loopCarried(loopCarried), remarks(remarks),
        metadataOnly(metadataOnly) {}

  void run(Region &body);

  unsigned numRewritten = 0;
  unsigned numKept = 0;
  unsigned numLoopCarried = 0;

private:
  /// The latest replacement of `value` (itself when none).
  Value lookup(Value value);
  void processBlock(Block &block);
  void visit(Operation *op);
  /// Records what `op` does with its operands.
  void noteUses(Operation *op);
  /// Why `value` may not be a fresh object that nothing else refers to at
  /// `point`, an op in the block that defines it; "" when it is one.
  std::string whyObserved(Value value, Operation *point);
  /// Whether `value` is a view whose base, an original value of `point`'s
  /// block, is used by nothing else and is itself fresh or such a view (a
  /// change of sizes in place, rewritten by an earlier run, leaves one).
  bool isOnlyViewOfPrivate(Value value, Operation *point);
  /// Whether `alias` and its own aliases are only read, and only before
  /// `point`.
  bool isOnlyReadBefore(Value alias, Operation *point);
  /// Why a write through the views `chain` (getViewChain) may be seen by
  /// something other than the views' base; "" when it may not.
  std::string whyViewObserved(ArrayRef<Operation *> chain, Operation *point);
  /// Rewrites the mutation `op`; otherwise says why it stays.
  LogicalResult tryRewrite(Operation *op, std::string &why);
  /// tryRewrite of a change of sizes in place (isMetadataMutation).
  LogicalResult tryRewriteMetadata(Operation *op, std::string &why);
  /// Replaces the in-place op's result by `value` and erases the op.
  void replaceResult(OpBuilder &builder, Operation *op, Value value);
  Value buildTensorValue(OpBuilder &builder, Operation *op, Value self);
  /// A None constant at the start of the function, shared by the rewrites.
  Value getNone(Location loc);
  Value buildListValue(OpBuilder &builder, Operation *op, Value list);
  /// Makes values that `loop`'s body mutates loop-carried; returns the loop
  /// that replaces `loop`, or `loop`.
  Operation *makeLoopCarried(PrimLoopOp loop);

  bool preserveDtype;
  bool castUnknownDtypes;
  bool loopCarried;
  bool remarks;
  /// Only the changes of sizes in place are rewritten (isMetadataMutation).
  bool metadataOnly;
  llvm::DenseMap<Value, Value> replacements;
  /// Values this pass built: fresh objects by construction.
  llvm::DenseSet<Value> created;
  /// Values that something other than a read used, and the first such user.
  llvm::DenseMap<Value, Operation *> escaped;
  /// Values that may alias each value (views, casts, region results).
  llvm::DenseMap<Value, llvm::SmallVector<Value, 1>> aliases;
  /// Ops built by the current rewrite.
  llvm::SmallVector<Operation *> newOps;
  /// List constructions that rewrites replaced, erased at the end if dead.
  llvm::SmallVector<Operation *> oldLists;
  Block *entry = nullptr;
  Value none;
  /// The entry block's arguments written back by an earlier run (their
  /// mutations since then stay).
  llvm::DenseSet<Value> writtenBack;
  /// The arguments whose elements this run's rewrites changed.
  llvm::DenseSet<Value> writtenArguments;

  /// Whether `value` is a tensor argument of the function whose mutations
  /// become values, with the last written back before the return.
  bool isWritableArgument(Value value) {
    auto arg = llvm::dyn_cast<BlockArgument>(value);
    return arg && arg.getOwner() == entry &&
           llvm::isa<func::FuncOp>(entry->getParentOp()) &&
           llvm::isa<ts::TensorType>(arg.getType()) &&
           !writtenBack.contains(value);
  }
  void writeBackArguments();
};
} // namespace

Value MutationRemover::lookup(Value value) {
  Value current = value;
  for (auto it = replacements.find(current); it != replacements.end();
       it = replacements.find(current))
    current = it->second;
  if (current != value)
    replacements[value] = current; // Shortens the chain for the next lookup.
  return current;
}

Value MutationRemover::getNone(Location loc) {
  if (!none) {
    auto builder = OpBuilder::atBlockBegin(entry);
    none = PrimConstantOp::create(builder, loc,
                                  ts::NoneType::get(builder.getContext()),
                                  Attribute());
  }
  return none;
}

void MutationRemover::run(Region &body) {
  entry = &body.front();
  // A write-back of a function inlined here writes a value of this one: an
  // ordinary copy_, rewritten like the others.
  body.walk([&](Operation *op) {
    if (!op->hasAttr(kWriteBackAttrName))
      return;
    auto arg = llvm::dyn_cast<BlockArgument>(op->getOperand(0));
    if (arg && arg.getOwner() == entry && op->getBlock() == entry)
      writtenBack.insert(arg);
    else
      op->removeAttr(kWriteBackAttrName);
  });
  for (Block &block : body)
    processBlock(block);
  writeBackArguments();
  for (Operation *list : oldLists)
    if (list->use_empty())
      list->erase();
}

void MutationRemover::writeBackArguments() {
  Operation *terminator = entry->getTerminator();
  if (!terminator || !llvm::isa<func::FuncOp>(entry->getParentOp()))
    return;
  OpBuilder builder(terminator);
  Location loc = terminator->getLoc();
  Value nonBlocking;
  for (BlockArgument arg : entry->getArguments()) {
    if (!writtenArguments.contains(arg))
      continue;
    if (!nonBlocking)
      nonBlocking = PrimConstantOp::create(
          builder, loc, ts::BoolType::get(builder.getContext()),
          builder.getBoolAttr(false));
    auto copy = AtenCopy_Op::create(builder, loc, arg.getType(), arg,
                                    lookup(arg), nonBlocking);
    copy->setAttr(kWriteBackAttrName, builder.getUnitAttr());
  }
}

void MutationRemover::processBlock(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(block))
    visit(&op);
}

void MutationRemover::visit(Operation *op) {
  for (OpOperand &operand : op->getOpOperands())
    if (Value current = lookup(operand.get()); current != operand.get())
      operand.set(current);
  if (auto loop = llvm::dyn_cast<PrimLoopOp>(op); loop && loopCarried)
    op = makeLoopCarried(loop);
  if (op->hasTrait<ts::OpTrait::InPlace>() &&
      !op->hasAttr(kWriteBackAttrName) &&
      (!metadataOnly || isMetadataMutation(op))) {
    std::string why;
    if (succeeded(tryRewrite(op, why)))
      return;
    LLVM_DEBUG(llvm::dbgs() << "keeping " << *op << ": " << why << "\n");
    if (remarks)
      op->emitRemark() << "mutation left as it is: " << why;
    ++numKept;
  }
  noteUses(op);
  for (Region &region : op->getRegions())
    for (Block &block : region)
      processBlock(block);
}

void MutationRemover::noteUses(Operation *op) {
  for (OpOperand &use : op->getOpOperands()) {
    switch (classifyUse(use)) {
    case UseKind::Read:
      break;
    case UseKind::Alias:
      llvm::append_range(aliases[use.get()], getAliases(use));
      break;
    case UseKind::Write:
      // A mutation that stays leaves the object as private as it was; the
      // in-place op's result is one more name for it.
      if (op->hasTrait<ts::OpTrait::InPlace>())
        aliases[use.get()].push_back(op->getResult(0));
      break;
    case UseKind::Escape:
      escaped.try_emplace(use.get(), op);
      break;
    }
  }
}

bool MutationRemover::isOnlyReadBefore(Value alias, Operation *point) {
  llvm::SmallVector<Value> worklist{alias};
  llvm::DenseSet<Value> seen{alias};
  Block *block = point->getBlock();
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *ancestor = block->findAncestorOpInBlock(*use.getOwner());
      if (!ancestor || ancestor == point || !ancestor->isBeforeInBlock(point))
        return false;
      switch (classifyUse(use)) {
      case UseKind::Read:
        break;
      case UseKind::Alias:
        for (Value next : getAliases(use))
          if (seen.insert(next).second)
            worklist.push_back(next);
        break;
      case UseKind::Write:
      case UseKind::Escape:
        return false;
      }
    }
  }
  return true;
}

/// The name of the op that defines `value`, or "an argument".
static std::string describeDefinition(Value value) {
  if (Operation *op = value.getDefiningOp())
    return ("'" + op->getName().getStringRef() + "'").str();
  return "an argument";
}

bool MutationRemover::isOnlyViewOfPrivate(Value value, Operation *point) {
  Operation *view = value.getDefiningOp();
  if (!view || !view->hasTrait<ts::OpTrait::ViewLike>() ||
      view->getNumOperands() == 0 || view->getNumResults() != 1)
    return false;
  // Only an original value's use list is complete: one this pass built is
  // the replacement of another, whose later uses it takes over as the walk
  // reaches them.
  Value base = view->getOperand(0);
  return !created.contains(base) && base.hasOneUse() &&
         base.getParentBlock() == point->getBlock() &&
         !escaped.contains(base) &&
         (isFreshValue(base) || isOnlyViewOfPrivate(base, point));
}

std::string MutationRemover::whyObserved(Value value, Operation *point) {
  if (value.getParentBlock() != point->getBlock())
    return "its operand is defined outside its block";
  // A view that is the only use of a private tensor (as a change of sizes
  // in place leaves one) is the only name of its storage.
  if (!created.contains(value) && !isFreshValue(value) &&
      !isOnlyViewOfPrivate(value, point) && !isWritableArgument(value))
    return "its operand, defined by " + describeDefinition(value) +
           ", may be an alias of another value";
  if (auto it = escaped.find(value); it != escaped.end())
    return ("its operand escaped before, into '" +
            it->second->getName().getStringRef() + "'")
        .str();
  auto it = aliases.find(value);
  if (it == aliases.end())
    return "";
  for (Value alias : it->second)
    if (!isOnlyReadBefore(alias, point))
      return "an alias of its operand, defined by " +
             describeDefinition(alias) + ", is used after it or written";
  return "";
}

Value MutationRemover::buildTensorValue(OpBuilder &builder, Operation *op,
                                        Value self) {
  Location loc = op->getLoc();
  Type type = self.getType();
  auto none = [&] { return getNone(loc); };
  auto record = [&](Operation *built) {
    newOps.push_back(built);
    return built->getResult(0);
  };
  if (llvm::isa<AtenZero_Op>(op)) {
    Value n = none();
    return record(
        AtenZerosLikeOp::create(builder, loc, type, self, n, n, n, n, n));
  }
  if (auto fill = llvm::dyn_cast<AtenFill_ScalarOp>(op)) {
    Value n = none();
    return record(AtenFullLikeOp::create(builder, loc, type, self,
                                         fill.getValue(), n, n, n, n, n));
  }
  if (llvm::isa<AtenCopy_Op, AtenFill_TensorOp>(op)) {
    // copy_(self, src) and fill_(self, value), whose value is a 0-d tensor:
    // broadcast to self's sizes, then a new tensor of self's dtype and
    // device: to(copy=True) never returns its input.
    Value expanded = record(AtenExpandAsOp::create(
        builder, loc, ts::TensorType::get(builder.getContext()),
        op->getOperand(1), self));
    auto bool_ = [&](bool v) {
      auto constant = PrimConstantOp::create(
          builder, loc, ts::BoolType::get(builder.getContext()),
          builder.getBoolAttr(v));
      newOps.push_back(constant);
      return constant.getResult();
    };
    auto copy = llvm::dyn_cast<AtenCopy_Op>(op);
    Value nonBlocking = copy ? copy.getNonBlocking() : bool_(false);
    return record(AtenToOtherOp::create(builder, loc, type, expanded, self,
                                        nonBlocking, bool_(true), none()));
  }

  bool cast = preserveDtype && mayPromote(op);
  if (cast && mayPromoteUnknown(op) && !castUnknownDtypes)
    return {};
  // polygamma_(self, n) is polygamma(n, self): the one in-place op whose
  // value form takes its operands in another order.
  SmallVector<Value> operands(op->getOperands());
  if (llvm::isa<AtenPolygamma_Op>(op))
    std::swap(operands[0], operands[1]);
  Operation *outOfPlace = nullptr;
  for (OperationName name : getOutOfPlaceNames(op)) {
    OperationState state(loc, name);
    state.addOperands(operands);
    // A view's sizes are not self's: its type is refined later.
    state.addTypes(cast || isMetadataMutation(op)
                       ? Type(ts::TensorType::get(builder.getContext()))
                       : type);
    state.addAttributes(llvm::to_vector(op->getDiscardableAttrs()));
    outOfPlace = builder.create(state);
    if (isValidOp(outOfPlace))
      break;
    outOfPlace->erase();
    outOfPlace = nullptr;
  }
  if (!outOfPlace)
    return {};
  Value result = record(outOfPlace);
  if (cast)
    result = record(AtenTypeAsOp::create(builder, loc, type, result, self));
  return result;
}

Value MutationRemover::buildListValue(OpBuilder &builder, Operation *op,
                                      Value list) {
  auto construct = list.getDefiningOp<PrimListConstructOp>();
  if (!construct)
    return {};
  llvm::SmallVector<Value> elements(construct.getElements());
  if (auto append = llvm::dyn_cast<AtenAppendTOp>(op)) {
    elements.push_back(append.getEl());
  } else {
    auto setItem = llvm::cast<Aten_SetItemTOp>(op);
    std::optional<int64_t> index = getConstantInt(setItem.getIdx());
    int64_t size = elements.size();
    if (!index || *index < -size || *index >= size)
      return {}; // Raises at run time, or unknown.
    elements[*index < 0 ? *index + size : *index] = setItem.getEl();
  }
  auto rebuilt = PrimListConstructOp::create(builder, op->getLoc(),
                                             list.getType(), elements);
  if (!isValidOp(rebuilt)) {
    rebuilt->erase();
    return {};
  }
  newOps.push_back(rebuilt);
  oldLists.push_back(construct);
  return rebuilt.getResult();
}

/// The views (slice.Tensor, select.int) that `target` is taken through from
/// its base, `target`'s own first; empty when it is no such view.
static SmallVector<Operation *> getViewChain(Value target) {
  SmallVector<Operation *> chain;
  for (Operation *def = target.getDefiningOp();
       def && llvm::isa<AtenSliceTensorOp, AtenSelectIntOp>(def);
       def = def->getOperand(0).getDefiningOp())
    chain.push_back(def);
  return chain;
}

std::string MutationRemover::whyViewObserved(ArrayRef<Operation *> chain,
                                             Operation *point) {
  Value base = chain.back()->getOperand(0);
  std::string why = "its operand is a view of a value that ";
  if (base.getParentBlock() != point->getBlock())
    return why + "is defined outside its block";
  if (!created.contains(base) && !isFreshValue(base) &&
      !isWritableArgument(base))
    return why + "is defined by " + describeDefinition(base) +
           ", which may alias another value";
  if (auto it = escaped.find(base); it != escaped.end())
    return (why + "escaped into '" + it->second->getName().getStringRef() +
            "'")
        .str();
  llvm::SmallPtrSet<Operation *, 4> inChain(chain.begin(), chain.end());
  // Other views of the base, or of the views between, must be dead here.
  SmallVector<Value> values = {base};
  for (Operation *view : chain)
    values.push_back(view->getResult(0));
  for (Value v : values) {
    auto it = aliases.find(v);
    if (it == aliases.end())
      continue;
    for (Value alias : it->second) {
      Operation *def = alias.getDefiningOp();
      if ((def && inChain.contains(def)) || isOnlyReadBefore(alias, point))
        continue;
      return why + "has another alias, defined by " +
             describeDefinition(alias) + ", used after it or written";
    }
  }
  // The views themselves: read before the write only (later reads would
  // need the written values).
  Block *block = point->getBlock();
  for (Operation *view : chain)
    for (Operation *user : view->getResult(0).getUsers()) {
      if (user == point || inChain.contains(user))
        continue;
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor || !ancestor->isBeforeInBlock(point))
        return "its operand, a view, is used after it";
    }
  return "";
}

LogicalResult MutationRemover::tryRewriteMetadata(Operation *op,
                                                  std::string &why) {
  // Later uses of the tensor object see the new sizes; nothing else does
  // (its storage is not written). Those uses are all in this block, or
  // nested in it, when the object is defined here and has not escaped into
  // a container, which would hold the object itself. An argument's new
  // sizes are not seen by the caller.
  Value target = op->getOperand(0);
  if (target.getParentBlock() != op->getBlock())
    return why = "its operand is defined outside its block", failure();
  if (auto it = escaped.find(target); it != escaped.end())
    return why = ("its operand escaped before, into '" +
                  it->second->getName().getStringRef() + "'")
                     .str(),
           failure();
  bool isPrivate = whyObserved(target, op).empty();
  OpBuilder builder(op);
  newOps.clear();
  Value value = buildTensorValue(builder, op, target);
  if (!value) {
    for (Operation *built : llvm::reverse(newOps))
      built->erase();
    why = "the dialect has no out-of-place form of it";
    return failure();
  }
  replacements[target] = value;
  // The view is the only name left for a private tensor's storage.
  if (isPrivate)
    created.insert(value);
  replaceResult(builder, op, value);
  return success();
}

void MutationRemover::replaceResult(OpBuilder &builder, Operation *op,
                                    Value value) {
  // The in-place op returns its operand: its result is the new value too.
  Value result = op->getResult(0);
  if (result.getType() != value.getType()) {
    auto cast = PrimUncheckedCastOp::create(builder, op->getLoc(),
                                            result.getType(), value);
    newOps.push_back(cast);
    result.replaceAllUsesWith(cast.getResult());
  } else {
    result.replaceAllUsesWith(value);
  }
  for (Operation *built : newOps)
    noteUses(built);
  op->erase();
  ++numRewritten;
}

LogicalResult MutationRemover::tryRewrite(Operation *op, std::string &why) {
  if (isMetadataMutation(op))
    return tryRewriteMetadata(op, why);
  Value target = op->getOperand(0);
  LLVM_DEBUG(llvm::dbgs() << "mutation " << *op << "\n");
  why = whyObserved(target, op);
  SmallVector<Operation *> chain;
  if (!why.empty()) {
    if (isListMutation(op))
      return failure();
    // A write through views of a private tensor: the view's new value is
    // scattered back into the tensor (slice_scatter, select_scatter).
    chain = getViewChain(target);
    if (chain.empty())
      return failure();
    std::string viewWhy = whyViewObserved(chain, op);
    if (!viewWhy.empty()) {
      why = viewWhy;
      return failure();
    }
    why.clear();
  }
  OpBuilder builder(op);
  newOps.clear();
  Value value = isListMutation(op) ? buildListValue(builder, op, target)
                                   : buildTensorValue(builder, op, target);
  if (!value) {
    for (Operation *built : llvm::reverse(newOps))
      built->erase();
    if (isListMutation(op))
      why = "the list is not built by a prim::ListConstruct, or the index is "
            "not a constant within it";
    else if (preserveDtype && !castUnknownDtypes && mayPromoteUnknown(op))
      why = "its operands' dtypes are not known, so its out-of-place form "
            "may promote (cast-unknown-dtypes=false)";
    else
      why = "the dialect has no out-of-place form of it";
    return failure();
  }
  if (chain.empty()) {
    if (isWritableArgument(target))
      writtenArguments.insert(target);
    replacements[target] = value;
    created.insert(value);
  } else {
    Value current = value;
    for (Operation *view : chain) {
      Value parent = view->getOperand(0);
      Operation *scatter;
      if (auto select = llvm::dyn_cast<AtenSelectIntOp>(view))
        scatter = AtenSelectScatterOp::create(
            builder, op->getLoc(), parent.getType(), parent, current,
            select.getDim(), select.getIndex());
      else {
        auto slice = llvm::cast<AtenSliceTensorOp>(view);
        scatter = AtenSliceScatterOp::create(
            builder, op->getLoc(), parent.getType(), parent, current,
            slice.getDim(), slice.getStart(), slice.getEnd(),
            slice.getStep());
      }
      newOps.push_back(scatter);
      current = scatter->getResult(0);
    }
    Value base = chain.back()->getOperand(0);
    if (isWritableArgument(base))
      writtenArguments.insert(base);
    replacements[base] = current;
    created.insert(current);
  }
  replaceResult(builder, op, value);
  return success();
}

Operation *MutationRemover::makeLoopCarried(PrimLoopOp loop) {
  // The body refers to values as they were; bring its operands up to date so
  // that the use lists of the current values show every use in the loop.
  loop->walk([&](Operation *inner) {
    if (inner == loop.getOperation())
      return;
    for (OpOperand &operand : inner->getOpOperands())
      if (Value current = lookup(operand.get()); current != operand.get())
        operand.set(current);
  });
  Block &body = loop.getBody().front();
  llvm::SetVector<Value> candidates;
  for (Operation &op : body)
    if (op.hasTrait<ts::OpTrait::InPlace>() && hasValueForm(&op) &&
        !isMetadataMutation(&op) &&
        op.getOperand(0).getParentBlock() == loop->getBlock())
      candidates.insert(op.getOperand(0));

  llvm::SmallVector<Value> chosen;
  for (Value value : candidates) {
    if (llvm::is_contained(loop->getOperands(), value) ||
        !whyObserved(value, loop).empty())
      continue;
    // In the loop, only reads, and mutations right in the body whose
    // results are only read.
    bool onlyReadOrMutated = llvm::all_of(value.getUses(), [&](OpOperand &use) {
      Operation *user = use.getOwner();
      if (!loop->isProperAncestor(user))
        return true;
      if (user->getBlock() == &body && user->hasTrait<ts::OpTrait::InPlace>() &&
          use.getOperandNumber() == 0)
        return llvm::all_of(user->getResult(0).getUses(), [](OpOperand &u) {
          return classifyUse(u) == UseKind::Read;
        });
      return classifyUse(use) == UseKind::Read;
    });
    if (onlyReadOrMutated)
      chosen.push_back(value);
  }
  if (chosen.empty())
    return loop;

  LLVM_DEBUG(llvm::dbgs() << "carrying " << chosen.size()
                          << " values through " << loop << "\n");
  OpBuilder builder(loop);
  llvm::SmallVector<Value> iterArgs(loop.getIterArgs());
  llvm::append_range(iterArgs, chosen);
  llvm::SmallVector<Type> resultTypes(loop->getResultTypes());
  for (Value value : chosen)
    resultTypes.push_back(value.getType());
  auto newLoop =
      PrimLoopOp::create(builder, loop.getLoc(), resultTypes,
                         loop.getMaxTripCount(), loop.getInitialCondition(),
                         iterArgs);
  newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  newLoop.getBody().takeBody(loop.getBody());
  auto yield = llvm::cast<PrimYieldOp>(body.getTerminator());
  unsigned numResults = loop->getNumResults();
  for (auto [i, value] : llvm::enumerate(chosen)) {
    BlockArgument carried = body.addArgument(value.getType(), value.getLoc());
    value.replaceUsesWithIf(carried, [&](OpOperand &use) {
      return newLoop->isProperAncestor(use.getOwner());
    });
    yield.getValuesMutable().append(carried);
    created.insert(carried);
    Value result = newLoop->getResult(numResults + i);
    replacements[value] = result;
    created.insert(result);
  }
  loop->replaceAllUsesWith(newLoop->getResults().take_front(numResults));
  loop->erase();
  numLoopCarried += chosen.size();
  return newLoop;
}

void ts::removeMetadataMutations(func::FuncOp func) {
  MutationRemover remover(/*preserveDtype=*/true, /*castUnknownDtypes=*/true,
                          /*loopCarried=*/false, /*remarks=*/false,
                          /*metadataOnly=*/true);
  remover.run(func.getBody());
}

namespace {
struct TSRemoveMutationPass
    : public ts::impl::TSRemoveMutationPassBase<TSRemoveMutationPass> {
  using Base::Base;

  void runOnOperation() override {
    MutationRemover remover(preserveDtype, castUnknownDtypes, loopCarried,
                            remarks);
    remover.run(getOperation().getBody());
    numRewritten += remover.numRewritten;
    numKept += remover.numKept;
    numLoopCarried += remover.numLoopCarried;
  }
};
} // namespace
