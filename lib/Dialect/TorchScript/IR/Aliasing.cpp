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
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

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

/// Whether the results of `op`, a user of a tensor that only reads, are new
/// values rather than the tensor itself: an aten operator that is not a view
/// computes a new tensor, and a scalar, string or bool cannot alias one.
static bool producesFreshValues(Operation *op) {
  if (llvm::isa<Aten__Getitem__TOp, AtenListTOp, PrimDataOp>(op))
    return false;
  if (op->getName().getStringRef().starts_with("ts.aten."))
    return true;
  return llvm::all_of(op->getResultTypes(), [](Type type) {
    return llvm::isa<IntType, FloatType, BoolType, StrType, NoneType,
                     DeviceType>(type);
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
      if (!def || !def->getName().getStringRef().starts_with("ts.aten."))
        external |= !def || !llvm::isa<PrimConstantOp>(def);
      // A view's source shares its storage.
      if (def && def->hasTrait<OpTrait::ViewLike>() && def->getNumOperands())
        add(def->getOperand(0));
      for (Operation *user : v.getUsers()) {
        if (++uses > kMaxUses) {
          unsafe = true;
          break;
        }
        if (user->hasTrait<OpTrait::ViewLike>() && !user->hasTrait<OpTrait::InPlace>() &&
            user->getNumOperands() && user->getOperand(0) == v) {
          for (Value r : user->getResults())
            add(r);
          continue;
        }
        if (llvm::isa<func::ReturnOp>(user)) {
          returned = true;
          continue;
        }
        if (user->hasTrait<::mlir::OpTrait::IsTerminator>() || !onlyReadsMemory(user) ||
            !producesFreshValues(user))
          unsafe = true;
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

bool canReplaceWithAlias(Value result, Value operand) {
  AliasSet set;
  set.build({result, operand});
  return !set.unsafe && !(set.returned && set.external);
}

} // namespace mlir::tsmlir::ts
