//===- UnshareInitTensors.cpp - One init tensor per destination -----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tsmlir {
#define GEN_PASS_DEF_TSUNSHAREINITTENSORSPASS
#include "tsmlir/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir

using namespace mlir;

/// Whether `value` is a fresh tensor: a tensor.empty, or a fill of one.
static bool isFreshInit(Value value) {
  if (value.getDefiningOp<tensor::EmptyOp>())
    return true;
  auto fill = value.getDefiningOp<linalg::FillOp>();
  return fill && fill.hasPureTensorSemantics() &&
         fill.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>();
}

namespace {
class TSUnshareInitTensorsPass
    : public tsmlir::impl::TSUnshareInitTensorsPassBase<
          TSUnshareInitTensorsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([](DestinationStyleOpInterface op) {
      if (!op.hasPureTensorSemantics())
        return;
      for (OpOperand &init : op.getDpsInitsMutable()) {
        Value value = init.get();
        if (!isFreshInit(value) || value.hasOneUse())
          continue;
        // A copy of the init (and of the empty tensor it fills) of its own.
        OpBuilder b(op);
        Operation *def = value.getDefiningOp();
        IRMapping mapping;
        if (auto fill = llvm::dyn_cast<linalg::FillOp>(def))
          b.clone(*fill.getDpsInits()[0].getDefiningOp(), mapping);
        Operation *copy = b.clone(*def, mapping);
        init.set(copy->getResult(llvm::cast<OpResult>(value).getResultNumber()));
      }
    });
  }
};
} // namespace
