//===- Aliasing.cpp - What may share storage with a value -----------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/Aliasing.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;

std::optional<bool> ts::getConstantBool(Value value) {
  auto constant = value.getDefiningOp<PrimConstantOp>();
  if (!constant)
    return std::nullopt;
  if (auto attr = llvm::dyn_cast_or_null<BoolAttr>(constant.getValueAttr()))
    return attr.getValue();
  return std::nullopt;
}

/// Ops that return (an alias of) one of their operands although their
/// schema has no alias annotation, or that have none: casts, guards, and
/// ops that return their input when there is nothing to do (`type_as` of the
/// same type, `dropout` in eval mode, `to.prim_dtype`, `prim::AutogradAdd`
/// of an undefined gradient).
static bool returnsOperand(Operation *op) {
  return llvm::isa<PrimUncheckedCastOp, PrimUncheckedUnwrapOptionalOp,
                   PrimTypeCheckOp, PrimRequiresGradCheckOp, PrimBailOutOp,
                   PrimIfThenElseOp, PrimAutogradAddOp, PrimConstantChunkOp,
                   AtenTypeAsOp, AtenDropoutOp, AtenToPrimDeviceOp,
                   AtenToPrimDtypeOp>(op);
}

/// Whether `use` is an operand through which `returnsOperand(op)` may return
/// an alias: the first operand, or any for the guards and `IfThenElse` (whose
/// condition is a bool, which aliases nothing anyway).
static bool mayReturnOperand(OpOperand &use) {
  Operation *op = use.getOwner();
  if (llvm::isa<PrimTypeCheckOp, PrimRequiresGradCheckOp, PrimIfThenElseOp,
                PrimAutogradAddOp>(op))
    return true;
  return use.getOperandNumber() == 0;
}

/// A `batch_norm` (`native_batch_norm`, `_batch_norm_impl_index`) updates
/// its running statistics (operands 3 and 4) unless it certainly does not
/// train; an `instance_norm` unless it certainly does not use the input's
/// statistics.
static bool writesRunningStats(OpOperand &use) {
  Operation *op = use.getOwner();
  Value training;
  if (auto bn = llvm::dyn_cast<AtenBatchNormOp>(op))
    training = bn.getTraining();
  else if (auto bn = llvm::dyn_cast<Aten_BatchNormImplIndexOp>(op))
    training = bn.getTraining();
  else if (auto bn = llvm::dyn_cast<AtenNativeBatchNormOp>(op))
    training = bn.getTraining();
  else if (auto in = llvm::dyn_cast<AtenInstanceNormOp>(op))
    training = in.getUseInputStats();
  else
    return false;
  unsigned index = use.getOperandNumber();
  return (index == 3 || index == 4) && getConstantBool(training) != false;
}

UseKind ts::classifyUse(OpOperand &use) {
  Operation *op = use.getOwner();
  unsigned index = use.getOperandNumber();
  if (!llvm::isa_and_nonnull<TorchScriptDialect>(op->getDialect()))
    return UseKind::Escape; // func.return, fusion ops, other dialects.

  if (auto yield = llvm::dyn_cast<PrimYieldOp>(op)) {
    Operation *parent = yield->getParentOp();
    if (llvm::isa<PrimIfOp>(parent))
      return UseKind::Alias;
    if (llvm::isa<PrimLoopOp>(parent))
      return index == 0 ? UseKind::Read : UseKind::Alias;
    return UseKind::Escape; // The subgraph of a ts.operator.
  }
  if (llvm::isa<PrimLoopOp>(op))
    return index < 2 ? UseKind::Read : UseKind::Alias;
  if (llvm::isa<PrimIfOp, PrimGetAttrOp, PrimPrintOp, PrimRaiseExceptionOp,
                AtenWarnOp, PrimListUnpackOp, PrimTupleUnpackOp,
                PrimTupleIndexOp, Aten__Getitem__TOp, ModuleStateWriteOp>(op))
    return UseKind::Read; // Element results are not aliases of the container.
  if (llvm::isa<PrimListConstructOp, PrimTupleConstructOp,
                PrimDictConstructOp, PrimSetAttrOp, PrimCallFunctionOp,
                PrimCallMethodOp, OperatorOp>(op))
    return UseKind::Escape;
  if (op->hasTrait<ts::OpTrait::InPlace>()) {
    if (index == 0)
      return UseKind::Write;
    // The element that `append` or `_set_item` stores into the list.
    if (llvm::isa<AtenAppendTOp, Aten_SetItemTOp>(op))
      return UseKind::Escape;
    return UseKind::Read;
  }
  if (op->hasTrait<ts::OpTrait::ViewLike>())
    return index == 0 ? UseKind::Alias : UseKind::Read;
  if (returnsOperand(op))
    return mayReturnOperand(use) ? UseKind::Alias : UseKind::Read;
  if (writesRunningStats(use))
    return UseKind::Write;
  if (onlyReadsMemory(op))
    return UseKind::Read;
  return UseKind::Escape;
}

SmallVector<Value, 2> ts::getAliases(OpOperand &use) {
  Operation *op = use.getOwner();
  unsigned index = use.getOperandNumber();
  SmallVector<Value, 2> aliases;
  if (auto yield = llvm::dyn_cast<PrimYieldOp>(op)) {
    Operation *parent = yield->getParentOp();
    if (llvm::isa<PrimIfOp>(parent)) {
      aliases.push_back(parent->getResult(index));
    } else if (auto loop = llvm::dyn_cast<PrimLoopOp>(parent)) {
      // Yield operand i + 1 is carried value i: the next iteration's block
      // argument i + 1, and the loop's result i.
      aliases.push_back(loop.getBody().front().getArgument(index));
      aliases.push_back(loop->getResult(index - 1));
    }
    return aliases;
  }
  if (auto loop = llvm::dyn_cast<PrimLoopOp>(op)) {
    unsigned carried = index - 2;
    aliases.push_back(loop.getBody().front().getArgument(carried + 1));
    aliases.push_back(loop->getResult(carried));
    return aliases;
  }
  llvm::append_range(aliases, op->getResults());
  return aliases;
}

/// Whether `op` is an `aten::to` that certainly copies (`copy=True`).
static bool isCopyingTo(Operation *op) {
  Value copy = llvm::TypeSwitch<Operation *, Value>(op)
                   .Case<AtenToDtypeOp, AtenToDeviceOp, AtenToOtherOp,
                         AtenToDtypeLayoutOp>(
                       [](auto to) { return to.getCopy(); })
                   .Default([](Operation *) { return Value(); });
  return copy && getConstantBool(copy) == true;
}

bool ts::isFreshValue(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op)
    return false; // A function or block argument.
  // A module state's read copies it.
  if (llvm::isa<PrimListConstructOp, ModuleStateReadOp>(op))
    return true;
  if (!llvm::isa<TorchScriptDialect>(op->getDialect()))
    return false;
  if (op->hasTrait<ts::OpTrait::ViewLike>())
    return isCopyingTo(op);
  // Shared, or taken from elsewhere: constants (one object for every call),
  // attributes, container elements, region results, call results.
  if (returnsOperand(op) ||
      llvm::isa<PrimConstantOp, PrimGetAttrOp, PrimListUnpackOp,
                PrimTupleUnpackOp, PrimTupleIndexOp, Aten__Getitem__TOp,
                PrimUninitializedOp, PrimIfOp, PrimLoopOp>(op))
    return false;
  return onlyReadsMemory(op);
}

bool ts::isNewObject(Value value) {
  if (isFreshValue(value))
    return true;
  Operation *def = value.getDefiningOp();
  return def &&
         llvm::isa<AtenViewOp, AtenViewAsOp, AtenReshapeOp, AtenReshapeAsOp,
                   AtenPermuteOp, AtenTransposeIntOp, AtenTOp, AtenUnsqueezeOp,
                   AtenSqueezeOp, AtenSqueezeDimOp, AtenExpandOp,
                   AtenExpandAsOp, AtenBroadcastToOp, AtenSliceTensorOp,
                   AtenSelectIntOp, AtenNarrowOp, AtenDetachOp>(def);
}

namespace mlir::tsmlir::ts {

/// How many values and uses a query looks at before it gives up.
static constexpr unsigned kMaxAliases = 32;
static constexpr unsigned kMaxUses = 256;

bool onlyReadsMemory(Operation *op) {
  if (isMemoryEffectFree(op))
    return true;
  auto effects = llvm::dyn_cast<MemoryEffectOpInterface>(op);
  return effects && effects.onlyHasEffect<MemoryEffects::Read>();
}

bool mayWriteMemory(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  return !effects ||
         llvm::any_of(*effects, [](const MemoryEffects::EffectInstance &e) {
           return llvm::isa<MemoryEffects::Write, MemoryEffects::Free>(
               e.getEffect());
         });
}

namespace {
/// The views of a set of values, and how their users treat them.
struct AliasSet {
  llvm::SetVector<Value> values;
  /// Some value reaches the caller through `func.return`.
  bool returned = false;
  /// Some user may write a value, capture it, or was not looked at.
  bool unsafe = false;
  /// Some value comes from outside the function.
  bool external = false;

  void add(Value v) {
    if (values.size() >= kMaxAliases)
      unsafe = true;
    else
      values.insert(v);
  }

  void build(ArrayRef<Value> roots) {
    for (Value root : roots)
      add(root);
    unsigned uses = 0;
    for (unsigned i = 0; i < values.size() && !unsafe; ++i) {
      Value v = values[i];
      Operation *def = v.getDefiningOp();
      // A view's source shares its storage; other values come from outside
      // unless they are new objects or constants.
      if (def && def->hasTrait<OpTrait::ViewLike>() &&
          !def->hasTrait<OpTrait::InPlace>() && def->getNumOperands())
        add(def->getOperand(0));
      else if (!isFreshValue(v) && !(def && llvm::isa<PrimConstantOp>(def)))
        external = true;
      for (OpOperand &use : v.getUses()) {
        if (++uses > kMaxUses) {
          unsafe = true;
          break;
        }
        if (llvm::isa<func::ReturnOp>(use.getOwner())) {
          returned = true;
          continue;
        }
        switch (classifyUse(use)) {
        case UseKind::Read:
          break;
        case UseKind::Alias:
          for (Value alias : getAliases(use))
            add(alias);
          break;
        case UseKind::Write:
        case UseKind::Escape:
          unsafe = true;
          break;
        }
      }
    }
  }
};
} // namespace

bool mayBeWritten(Value value) {
  AliasSet set;
  set.build(value);
  return set.unsafe;
}

bool isWrittenThroughAliases(Value value, bool orEscapes) {
  llvm::SmallVector<Value> worklist{value};
  llvm::DenseSet<Value> seen{value};
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    for (OpOperand &use : current.getUses()) {
      switch (classifyUse(use)) {
      case UseKind::Read:
        break;
      case UseKind::Alias:
        for (Value alias : getAliases(use))
          if (seen.insert(alias).second)
            worklist.push_back(alias);
        break;
      case UseKind::Write:
        return true;
      case UseKind::Escape:
        if (orEscapes)
          return true;
        break;
      }
    }
  }
  return false;
}

bool canReplaceWithAlias(Value result, Value operand) {
  AliasSet set;
  set.build({result, operand});
  return !set.unsafe && !(set.returned && set.external);
}

} // namespace mlir::tsmlir::ts
