//===- FusionOps.cpp - Fusion dialect operations --------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tsmlir::fusion;
using mlir::tsmlir::ts::isRefinementOf;
using mlir::tsmlir::ts::areCompatible;

#include "tsmlir/Dialect/Fusion/IR/FusionEnums.cpp.inc"

#define GET_OP_CLASSES
#include "tsmlir/Dialect/Fusion/IR/FusionOps.cpp.inc"

namespace {
/// How a region argument's type must relate to its input's type.
enum class ArgMatch {
  Exact,
  /// The argument refines the input (specialised code behind a guard).
  Refined,
  /// No fact contradicts the other: a PyTorch subgraph's parameters may
  /// state more or less than the node's inputs.
  Compatible,
  /// The same, except for requires_grad: a differentiable graph's forward
  /// runs with autograd off, so PyTorch types its values requires_grad=0.
  CompatibleIgnoringGrad,
};
} // namespace

/// Checks that `region`'s block arguments fit `inputs` as `match` says.
static LogicalResult verifyRegionArgs(Operation *op, Region &region,
                                      ValueRange inputs, StringRef name,
                                      ArgMatch match) {
  Block &block = region.front();
  if (block.getNumArguments() != inputs.size())
    return op->emitOpError() << "region '" << name << "' takes "
                             << block.getNumArguments() << " arguments for "
                             << inputs.size() << " inputs";
  for (auto [i, pair] : llvm::enumerate(
           llvm::zip_equal(inputs.getTypes(), block.getArgumentTypes()))) {
    auto [input, arg] = pair;
    bool ok = match == ArgMatch::Exact     ? arg == input
              : match == ArgMatch::Refined ? isRefinementOf(arg, input)
                                           : areCompatible(
                                                 arg, input,
                                                 match == ArgMatch::
                                                     CompatibleIgnoringGrad);
    if (!ok)
      return op->emitOpError()
             << "region '" << name << "' argument #" << i << " of type "
             << arg
             << (match == ArgMatch::Exact     ? " does not match"
                 : match == ArgMatch::Refined ? " is not a refinement of"
                                              : " contradicts")
             << " input type " << input;
  }
  return success();
}

/// The `fusion.yield` that ends the single block of `region`, or null when
/// the block ends with anything else. An op's verifier runs before the
/// verifier checks that its blocks end with a terminator and before
/// `SingleBlockImplicitTerminator` checks that this terminator is a
/// `fusion.yield`, so neither may be assumed here: `Block::getTerminator()`
/// would assert, or hand back an arbitrary op, on a block from the generic
/// syntax such as `({ ^bb0(...): "ts.prim.Constant"() ... })`.
static YieldOp getYield(Region &region) {
  Block &block = region.front();
  if (block.empty())
    return nullptr;
  return dyn_cast<YieldOp>(block.back());
}

/// Checks that `region` yields values whose types refine `results` (or, with
/// `compatible`, do not contradict them). `extra` values may follow (saved
/// values of a differentiable graph).
/// A region that does not end with `fusion.yield` is left to the generic
/// checks ("block with no terminator", "expects regions to end with
/// 'fusion.yield'"), which report it more clearly than a count would.
static LogicalResult verifyRegionYield(Operation *op, Region &region,
                                       TypeRange results, StringRef name,
                                       size_t extra = 0,
                                       bool compatible = false,
                                       bool ignoreRequiresGrad = false) {
  YieldOp yield = getYield(region);
  if (!yield)
    return success();
  if (yield->getNumOperands() != results.size() + extra)
    return op->emitOpError()
           << "region '" << name << "' yields " << yield->getNumOperands()
           << " values; expected " << results.size() + extra;
  for (auto [i, pair] : llvm::enumerate(llvm::zip_equal(
           TypeRange(yield->getOperandTypes()).take_front(results.size()),
           results)))
    if (compatible ? !areCompatible(std::get<0>(pair), std::get<1>(pair),
                                    ignoreRequiresGrad)
                   : !isRefinementOf(std::get<0>(pair), std::get<1>(pair)))
      return op->emitOpError()
             << "region '" << name << "' yields " << std::get<0>(pair)
             << " for result #" << i << ", which "
             << (compatible ? "contradicts" : "is not a refinement of")
             << " the result type " << std::get<1>(pair);
  return success();
}

LogicalResult GroupOp::verify() {
  if (failed(verifyRegionArgs(*this, getBody(), getInputs(), "body",
                              ArgMatch::Compatible)))
    return failure();
  return verifyRegionYield(*this, getBody(), getResultTypes(), "body",
                           /*extra=*/0, /*compatible=*/true);
}

LogicalResult GuardOp::verify() {
  if (getRefined().size() != getInputs().size())
    return emitOpError() << "has " << getRefined().size()
                         << " refined results for " << getInputs().size()
                         << " inputs";
  for (auto [i, pair] : llvm::enumerate(
           llvm::zip_equal(getInputs().getTypes(), getRefined().getTypes())))
    if (!isRefinementOf(std::get<1>(pair), std::get<0>(pair)))
      return emitOpError() << "guarded type " << std::get<1>(pair)
                           << " of input #" << i
                           << " is not a refinement of its type "
                           << std::get<0>(pair);
  return success();
}

LogicalResult GuardedOp::verify() {
  if (failed(verifyRegionArgs(*this, getSpecialized(), getInputs(),
                              "specialized", ArgMatch::Refined)) ||
      failed(verifyRegionArgs(*this, getFallback(), getInputs(), "fallback",
                              ArgMatch::Exact)) ||
      failed(verifyRegionYield(*this, getSpecialized(), getResultTypes(),
                               "specialized")))
    return failure();
  return verifyRegionYield(*this, getFallback(), getResultTypes(), "fallback");
}

LogicalResult DifferentiableGraphOp::verify() {
  int64_t numSaved = getNumSavedAttr().getInt();
  if (numSaved < 0)
    return emitOpError() << "num_saved must be non-negative, got "
                         << numSaved;
  if (failed(verifyRegionArgs(*this, getForward(), getInputs(), "forward",
                              ArgMatch::CompatibleIgnoringGrad)) ||
      failed(verifyRegionYield(*this, getForward(), getResultTypes(),
                               "forward", numSaved, /*compatible=*/true,
                               /*ignoreRequiresGrad=*/true)))
    return failure();
  if (getBackward().empty())
    return success();
  // backward(grad of each result..., saved...) -> grad of each input.
  Block &backward = getBackward().front();
  size_t expected = getNumResults() + numSaved;
  if (backward.getNumArguments() != expected)
    return emitOpError() << "region 'backward' takes "
                         << backward.getNumArguments()
                         << " arguments; expected " << expected
                         << " (one gradient per result, then the saved "
                            "values)";
  YieldOp yield = getYield(getBackward());
  if (yield && yield->getNumOperands() != getInputs().size())
    return emitOpError() << "region 'backward' yields "
                         << yield->getNumOperands() << " gradients for "
                         << getInputs().size() << " inputs";
  return success();
}
