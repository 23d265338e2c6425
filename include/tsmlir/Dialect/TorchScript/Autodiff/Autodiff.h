//===- Autodiff.h - Source-to-source differentiation of ts -----*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The backward graph of a `ts` function, built op by op in reverse from the
// formulas of PyTorch's autograd (--ts-differentiate says what it makes).
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_AUTODIFF_AUTODIFF_H
#define TSMLIR_DIALECT_TORCHSCRIPT_AUTODIFF_AUTODIFF_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir::tsmlir::ts {

/// Whether `type` is a tensor whose gradient autodiff computes: a
/// floating-point dtype (an unknown dtype does not count).
bool isDifferentiableType(Type type);

/// Rewrites `func` into `func(args..., grad_results...) -> (results...,
/// grad_args..., grad_params...)`: one upstream gradient per floating-point
/// tensor result (results flattened from tuples), one gradient per
/// floating-point tensor argument, in order, then the gradients of the
/// module's floating-point tensors (the `dense_resource<NAME>` constants of
/// a frozen module's parameters) that a gradient reaches, their names in
/// the function's `ts.grad_params` attribute (without `parameters`, the
/// module's tensors are constants like any other). Reports what it cannot
/// differentiate.
LogicalResult differentiateJoint(func::FuncOp func, bool parameters = true);

/// The attribute naming the module tensors whose gradients a differentiated
/// function returns last (an array of strings).
inline constexpr StringLiteral kGradParamsAttrName = "ts.grad_params";

/// What the forward function saves for the backward one.
enum class SavePolicy {
  /// Every forward value the backward reads, as PyTorch's autograd does:
  /// nothing is recomputed.
  SaveAll,
  /// The values of a minimum cut of the joint graph, weighted by the bytes
  /// saving each costs (written by the forward and read by the backward):
  /// the backward recomputes the pointwise and view ops between the cut
  /// and what it reads; reductions, matrix products and ops with effects
  /// are never recomputed.
  MinCut,
};

/// `save-all` or `min-cut`.
StringRef stringifySavePolicy(SavePolicy policy);
std::optional<SavePolicy> symbolizeSavePolicy(StringRef name);

/// What a split saves, also recorded on the forward function as the
/// dictionary attribute `ts.autodiff` (`policy`, `saved_values`,
/// `saved_bytes`, `saved_arguments`, `argument_bytes`, `recomputed_ops`).
struct SplitSummary {
  SavePolicy policy = SavePolicy::SaveAll;
  /// The values the forward returns after its results for the backward.
  int64_t savedValues = 0;
  /// Their bytes (tensors of known sizes; 8 per number or list).
  int64_t savedBytes = 0;
  /// The forward's arguments the backward reads (passed to it again, not
  /// saved), by position, and their bytes.
  SmallVector<int64_t> savedArguments;
  int64_t argumentBytes = 0;
  /// Forward ops the backward computes again.
  int64_t recomputedOps = 0;
};

/// The name of the attribute SplitSummary is recorded under.
inline constexpr StringLiteral kAutodiffAttrName = "ts.autodiff";

/// Splits the function differentiateJoint made (its first `numArguments`
/// arguments, `numResults` results and `numForwardOps` ops are the original
/// function's, results flattened) into NAME_forward and NAME_backward as
/// --ts-differentiate describes, saving what `policy` chooses; erases
/// `joint`.
FailureOr<SplitSummary> splitForwardBackward(func::FuncOp joint,
                                             unsigned numArguments,
                                             unsigned numResults,
                                             unsigned numForwardOps,
                                             SavePolicy policy);

/// Makes NAME(args..., grad_results...) -> (results..., grad_args...), the
/// joint form, out of calls to NAME_forward and NAME_backward (which become
/// private): forward and backward stay apart, with what the policy saved
/// passed between them. Where a result's size the data decide
/// (masked_select's), both are inlined into NAME, which returns that result
/// at its bound (ts::getSizeBound) and whose upstream gradient's size the
/// caller gives.
FailureOr<func::FuncOp> joinForwardBackward(ModuleOp module, StringRef name);

/// Gives `graph` (a fusion.differentiable_graph without a backward region)
/// its backward region, as --ts-differentiate=graphs=true describes.
FailureOr<SplitSummary> differentiateGraph(Operation *graph, SavePolicy policy);

/// The ops (by name) whose derivative formulas are PyTorch's for the whole
/// op rather than for what `--ts-decompose` makes of it (the spectral
/// decompositions and matrix_exp, whose decompositions are loops): a
/// pipeline that differentiates keeps them whole until the backward is
/// built (`--ts-optimize{keep=...}`).
ArrayRef<StringRef> getOpsDifferentiatedWhole();

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_AUTODIFF_AUTODIFF_H
