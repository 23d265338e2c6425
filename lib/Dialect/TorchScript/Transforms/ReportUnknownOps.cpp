//===- ReportUnknownOps.cpp - Report ts.operator by name ------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h"

#include "tsmlir/Dialect/TorchScript/IR/OpSignatures.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "llvm/ADT/MapVector.h"

namespace mlir::tsmlir::ts {
#define GEN_PASS_DEF_TSREPORTUNKNOWNOPSPASS
#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir::ts

using namespace mlir;
using namespace mlir::tsmlir;

namespace {
struct TSReportUnknownOpsPass
    : public ts::impl::TSReportUnknownOpsPassBase<TSReportUnknownOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    // First occurrence and count of each name, in program order.
    llvm::MapVector<StringRef, std::pair<ts::OperatorOp, unsigned>> seen;
    getOperation()->walk([&](ts::OperatorOp op) {
      auto [it, inserted] = seen.try_emplace(op.getKind(), op, 0);
      ++it->second.second;
    });
    for (auto &[name, entry] : seen) {
      auto [op, count] = entry;
      InFlightDiagnostic diag = fail ? op.emitError() : op.emitWarning();
      diag << "unsupported operator '" << name << "' (" << count
           << (count == 1 ? " occurrence)" : " occurrences)");
      // A kind the dialect has ops for: the node's types fit none of them.
      if (!ts::lookupOpSignatures(name).empty()) {
        diag << ": no overload takes (";
        llvm::interleaveComma(op->getOperandTypes(), diag);
        diag << ") -> (";
        llvm::interleaveComma(op->getResultTypes(), diag);
        diag << ")";
      }
    }
    if (fail && !seen.empty())
      signalPassFailure();
  }
};
} // namespace
