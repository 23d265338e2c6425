//===- FusionPlanner.h - Which ops run as one kernel ------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Fusion is planned, then carried out. `planFusion` decides, for one
// function and one strategy, which `ts` ops form each group and why every
// other tensor op stays outside; `ts-create-fusion-groups` turns the plan
// into `fusion.group` ops (behind guards where it specialised), and
// `ts-fusion-report` prints plans, their bytes and the reasons, for one
// strategy or all four. Both read the same plan, so the report explains
// exactly what the pass does.
//
// A strategy is a set of op classes a group may hold:
//   pointwise   elementwise ops with broadcasting and scalar operands
//               (PyTorch's legacy fuser);
//   nnc         + softmax, log_softmax, cat, views, matmul (NNC/TensorExpr);
//   nvfuser     + reductions (sum, mean, var, amax, ...), layer_norm, views,
//               softmax, no matmul (nvFuser);
//   aggressive  nvfuser + matmul/linear with their pointwise epilogues, and
//               horizontal fusion of independent groups that read the same
//               inputs into one multi-output group.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_FUSION_TRANSFORMS_FUSIONPLANNER_H
#define TSMLIR_DIALECT_FUSION_TRANSFORMS_FUSIONPLANNER_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "tsmlir/Dialect/Fusion/IR/FusionEnums.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace mlir::tsmlir::fusion {

/// The four strategies the planner has (Strategy::Op groups are the
/// lowering's), in order: pointwise, nnc, nvfuser, aggressive.
ArrayRef<Strategy> getAllStrategies();
/// One of those four by name, or nullopt.
std::optional<Strategy> parsePlannedStrategy(StringRef name);

/// What an op is to the fusers.
enum class OpClass {
  /// Not a computation on tensors a fuser handles (calls, control flow,
  /// convolutions, ops on lists, unknown ops, ...).
  Unsupported,
  /// Elementwise: add, mul, relu, where, clamp, casts, comparisons, ...
  Pointwise,
  /// softmax and log_softmax along one dimension.
  Softmax,
  /// Reductions and normalisations: sum, mean, var, amax, layer_norm, ...
  Reduction,
  /// Shape ops that move no data or gather it: view, unsqueeze, expand,
  /// permute, cat (with its prim::ListConstruct), ...
  View,
  /// Matrix products: matmul, mm, bmm, linear, addmm.
  Matmul,
  /// Constants and scalar arithmetic a group takes in with its tensor ops.
  Scalar,
};

StringRef stringifyOpClass(OpClass cls);

/// The class of `op`, whatever the strategy.
OpClass classifyOp(Operation *op);

/// Whether `strategy` fuses ops of class `cls`.
bool strategyFuses(Strategy strategy, OpClass cls);

/// Why a tensor op stays outside every group.
enum class Reason {
  /// No fuser handles an op of this kind.
  UnsupportedKind,
  /// Another strategy would fuse it; this one does not.
  StrategyExcludes,
  /// A tensor operand or result without a known dtype and sizes.
  UnknownShape,
  /// The op writes (in-place ops, prints, random ops) or lies where a group
  /// would move a read across a write.
  SideEffect,
  /// Merging it with its neighbours' group would make the group depend on
  /// itself through an op outside it.
  WouldCreateCycle,
  /// An op outside the group uses it before the group would run (the group
  /// runs where its last op was).
  OutsideUseBetween,
  /// Fusible, but its group would hold fewer than `min-size` ops.
  TooSmall,
};

StringRef stringifyReason(Reason reason);

struct FusionOptions {
  Strategy strategy = Strategy::NNC;
  /// Groups with fewer ops (not counting constants and list constructions)
  /// are not formed.
  int64_t minSize = 2;
};

/// One group: ops of one block, in block order.
struct PlannedGroup {
  SmallVector<Operation *> ops;
  /// Values defined outside the group that its ops use, in first-use order
  /// (constant-like values, which the group copies in, are not inputs).
  SmallVector<Value> inputs;
  /// Values of the group used outside it, in op order.
  SmallVector<Value> outputs;
  /// Ops that count towards min-size (not constants or list constructions).
  int64_t size() const;
};

struct FusionPlan {
  Strategy strategy = Strategy::NNC;
  SmallVector<PlannedGroup> groups;
  /// For every op with a tensor operand or result that no group holds.
  llvm::DenseMap<Operation *, Reason> reasons;
  /// Ops left outside, in walk order (for stable reports).
  SmallVector<Operation *> unfused;
};

/// Whether a group copies `op` in rather than taking its result as an input:
/// a `prim::Constant`, or a `prim::ListConstruct` of constants (the dims of
/// a reduction, the sizes of a view).
bool isConstantLike(Operation *op);

/// Plans the groups of every block of `func` (the blocks of `prim::If` and
/// `prim::Loop` bodies each on their own: a group never crosses a region).
FusionPlan planFusion(func::FuncOp func, const FusionOptions &options);

/// The bytes of a tensor of fully known dtype and sizes; nullopt otherwise,
/// and when the count overflows int64_t.
std::optional<int64_t> getTensorBytes(Type type);

} // namespace mlir::tsmlir::fusion

#endif // TSMLIR_DIALECT_FUSION_TRANSFORMS_FUSIONPLANNER_H
