//===- ReportUnknownShapes.cpp - Report ops without shape rules -----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/Transforms/ShapeInference.h"

#include "llvm/ADT/MapVector.h"

namespace mlir::tsmlir::ts {
#define GEN_PASS_DEF_TSREPORTUNKNOWNSHAPESPASS
#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir::ts

namespace mlir::tsmlir::ts {

/// The name an op is reported by: its op name, or a ts.operator's kind
/// (both live as long as the context).
static StringRef getReportedName(Operation *op) {
  if (auto generic = llvm::dyn_cast<OperatorOp>(op))
    return generic.getKind();
  return op->getName().getStringRef();
}

static StringRef plural(unsigned n, StringRef one, StringRef many) {
  return n == 1 ? one : many;
}

namespace {
struct TSReportUnknownShapesPass
    : public ts::impl::TSReportUnknownShapesPassBase<
          TSReportUnknownShapesPass> {
  using Base::Base;

  void runOnOperation() override {
    const ts::ShapeRuleSet &rules = ts::getDefaultShapeRules();
    // First occurrence and count per name, in program order: ops without a
    // rule, and tensor results of ops with one that stay partly unknown.
    llvm::MapVector<StringRef, std::pair<Operation *, unsigned>> noRule;
    llvm::MapVector<StringRef, unsigned> unknownInputs;
    unsigned numUnknownInputs = 0;
    getOperation()->walk([&](Operation *op) {
      // A placeholder of a branch that raises is never read.
      if (llvm::isa<ts::PrimUninitializedOp>(op))
        return;
      unsigned unknown = llvm::count_if(op->getResultTypes(), [](Type t) {
        return llvm::isa<ts::TensorType>(t) && !ts::isFullyRefinedTensor(t);
      });
      if (unknown == 0)
        return;
      StringRef name = getReportedName(op);
      if (!ts::hasShapeRule(op, rules)) {
        auto [it, inserted] = noRule.try_emplace(name, op, 0);
        ++it->second.second;
        return;
      }
      unknownInputs[name] += unknown;
      numUnknownInputs += unknown;
    });
    for (auto &[name, entry] : noRule) {
      auto [op, count] = entry;
      InFlightDiagnostic diag = fail ? op->emitError() : op->emitWarning();
      diag << "no shape rule for '" << name << "' (" << count
           << plural(count, " occurrence)", " occurrences)");
    }
    if (numUnknownInputs) {
      InFlightDiagnostic diag = getOperation()->emitRemark();
      diag << numUnknownInputs << " tensor "
           << plural(numUnknownInputs, "result", "results")
           << " of ops with shape rules "
           << plural(numUnknownInputs, "is", "are")
           << " not fully known because their inputs are not: ";
      llvm::interleaveComma(unknownInputs, diag, [&](const auto &entry) {
        diag << entry.first << " (" << entry.second << ")";
      });
    }
    if (fail && !noRule.empty())
      signalPassFailure();
  }
};
} // namespace

} // namespace mlir::tsmlir::ts
