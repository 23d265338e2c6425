//===- Partition.h - What the backward recomputes ---------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The min-cut save policy (SavePolicy::MinCut): which forward ops the
// backward function computes again instead of taking their results.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_DIALECT_TORCHSCRIPT_AUTODIFF_PARTITION_H
#define TSMLIR_LIB_DIALECT_TORCHSCRIPT_AUTODIFF_PARTITION_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tsmlir::ts::autodiff {

/// The joint function cut in two: its arguments, the forward ops (top-level
/// ops that read no upstream gradient, in order), and the values of the
/// function's top level that the backward reads (its ops, in their regions
/// too, and what it returns).
struct JointGraph {
  ArrayRef<BlockArgument> arguments;
  ArrayRef<Operation *> forwardOps;
  ArrayRef<Value> backwardReads;
  /// The forward's results (written whatever is saved: saving one costs
  /// only the backward's read).
  ArrayRef<Value> forwardResults;
  /// Values made again where they are read (constants), not in the graph.
  function_ref<bool(Value)> isFree;
};

/// Whether `op` declares its effects and writes and frees nothing (reads
/// and allocations are fine): an op autodiff may move or compute again.
bool writesNothing(Operation *op);

/// Whether `op` makes a list or a tuple of its operands, which the backward
/// always makes again rather than taking.
bool isContainerConstruct(Operation *op);

/// Whether the backward may compute `op` again: a pointwise, view or scalar
/// op (fusion::classifyOp) without regions that writes nothing (random ops
/// write their generator's state), or a list or tuple construction.
bool isRecomputable(Operation *op);

/// The bytes saving `value` costs once (written or read): a tensor's bytes,
/// 8 for a number or a list; nullopt for a tensor of unknown sizes.
std::optional<int64_t> getSavedBytes(Value value);

/// The forward ops to recompute: those on the sink side of a minimum s-t
/// cut of the joint graph, where each value is an edge (in -> out) weighing
/// what saving it costs (bytes read, plus bytes written for a value the
/// forward would not write anyway), an op's operands' out-nodes lead to its
/// results' in-nodes, the source feeds the arguments and the ops that are
/// not recomputable, and the values the backward reads lead to the sink.
/// The cut's values are the cheapest set to save from which the backward
/// can compute everything it reads. Only ops the backward needs are
/// returned.
llvm::DenseSet<Operation *> chooseRecomputed(const JointGraph &graph);

} // namespace mlir::tsmlir::ts::autodiff

#endif // TSMLIR_LIB_DIALECT_TORCHSCRIPT_AUTODIFF_PARTITION_H
