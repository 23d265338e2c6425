//===- Optimize.cpp - The graph optimisation pipeline ---------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::tsmlir::ts {
#define GEN_PASS_DEF_TSOPTIMIZEPASS
#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir::ts

using namespace mlir;
using namespace mlir::tsmlir;

int64_t ts::countNodes(Operation *root) {
  int64_t n = 0;
  root->walk([&](Operation *op) {
    n += llvm::isa_and_nonnull<ts::TorchScriptDialect>(op->getDialect());
  });
  return n;
}

namespace {
struct TSOptimizePass : public ts::impl::TSOptimizePassBase<TSOptimizePass> {
  using Base::Base;

  void addUnroll(OpPassManager &pm) {
    if (!unroll)
      return;
    ts::TSUnrollLoopsPassOptions options;
    options.maxTripCount = maxTripCount;
    options.maxOps = maxUnrolledOps;
    pm.addPass(ts::createTSUnrollLoopsPass(options));
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t before = ts::countNodes(module);

    OpPassManager once(ModuleOp::getOperationName());
    once.addPass(ts::createTSInlinePass());
    addUnroll(once);
    if (failed(runPipeline(once, module)))
      return signalPassFailure();

    OpPassManager round(ModuleOp::getOperationName());
    if (removeMutation) {
      // Casts back to self's dtype would stay in unspecialised graphs: leave
      // those in-place ops until inferred dtypes show no cast is needed.
      ts::TSRemoveMutationPassOptions options;
      options.castUnknownDtypes = false;
      round.addNestedPass<func::FuncOp>(
          ts::createTSRemoveMutationPass(options));
    }
    round.addPass(createCanonicalizerPass());
    round.addPass(createCSEPass());
    if (inferShapes)
      round.addPass(ts::createTSInferShapesPass());
    // Composite operators whose sizes the round's shapes now give.
    ts::TSDecomposePassOptions decompose;
    decompose.keep.assign(keep.begin(), keep.end());
    round.addPass(ts::createTSDecomposePass(decompose));
    addUnroll(round);
    for (int64_t i = 0; i < maxIterations; ++i) {
      OperationFingerPrint fingerprint(module);
      if (failed(runPipeline(round, module)))
        return signalPassFailure();
      ++numIterations;
      if (OperationFingerPrint(module) == fingerprint)
        break;
    }
    numNodesRemoved += before - ts::countNodes(module);
  }
};
} // namespace
