//===- UnshareInitTensors.cpp - One init tensor per destination -----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

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

/// Whether `value` is built from a fresh tensor by inserts only (a
/// concatenation's partial result): recomputing it is a few copies.
static bool isFreshChain(Value value) {
  if (isFreshInit(value))
    return true;
  auto insert = value.getDefiningOp<tensor::InsertSliceOp>();
  return insert && isFreshChain(insert.getDest());
}

/// A copy of the ops that build `value` (isFreshChain), before `b`'s point.
static Value cloneChain(OpBuilder &b, Value value) {
  Operation *def = value.getDefiningOp();
  IRMapping mapping;
  if (auto insert = llvm::dyn_cast<tensor::InsertSliceOp>(def))
    mapping.map(insert.getDest(), cloneChain(b, insert.getDest()));
  else if (auto fill = llvm::dyn_cast<linalg::FillOp>(def))
    b.clone(*fill.getDpsInits()[0].getDefiningOp(), mapping);
  Operation *copy = b.clone(*def, mapping);
  return copy->getResult(llvm::cast<OpResult>(value).getResultNumber());
}

namespace {
class TSUnshareInitTensorsPass
    : public tsmlir::impl::TSUnshareInitTensorsPassBase<
          TSUnshareInitTensorsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    // Every use of a fresh tensor, or of one built from it by inserts, but
    // the first gets a copy of its own: destinations of DPS ops, loops'
    // initial values (scf.for iter_args), and the partial results two
    // concatenations share after CSE, all of which would otherwise
    // bufferize into one buffer (or, once empty tensors are eliminated,
    // into one result's output buffer).
    SmallVector<Value> shared;
    getOperation().walk([&](Operation *op) {
      for (Value result : op->getResults())
        if (!result.hasOneUse() && !result.use_empty() && isFreshChain(result))
          shared.push_back(result);
    });
    // Innermost chains last, so that an outer chain's copies are made
    // from the original ops.
    for (Value value : llvm::reverse(shared)) {
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : value.getUses())
        uses.push_back(&use);
      for (OpOperand *use : ArrayRef(uses).drop_front()) {
        OpBuilder b(use->getOwner());
        use->set(cloneChain(b, value));
      }
    }
    copyYieldedTensorsReadElsewhere();
  }

  /// A conditional's branch (outside loops) that yields a tensor another
  /// op also reads yields a copy of it instead: eliminating empty tensors traces an
  /// output back through both branches, and would otherwise make that
  /// tensor's init the output's buffer, which the other branch's result
  /// then overwrites while the tensor is still to be read (`a = x if c else
  /// -x; return a, x`).
  void copyYieldedTensorsReadElsewhere() {
    SmallVector<OpOperand *> yielded;
    getOperation().walk([&](scf::YieldOp yield) {
      // In a loop, a copy would break the equivalence of what the body
      // yields with what it carries, which bufferizing the loop needs.
      Operation *parent = yield->getParentOp();
      if (!llvm::isa<scf::IfOp>(parent) ||
          parent->getParentOfType<LoopLikeOpInterface>())
        return;
      for (OpOperand &operand : yield->getOpOperands()) {
        auto type = llvm::dyn_cast<RankedTensorType>(operand.get().getType());
        if (type && type.hasStaticShape() && !operand.get().hasOneUse())
          yielded.push_back(&operand);
      }
    });
    for (OpOperand *operand : yielded) {
      Value value = operand->get();
      auto type = llvm::cast<RankedTensorType>(value.getType());
      OpBuilder b(operand->getOwner());
      Location loc = operand->getOwner()->getLoc();
      Value init = tensor::EmptyOp::create(b, loc, type.getShape(),
                                           type.getElementType());
      operand->set(
          linalg::CopyOp::create(b, loc, value, init).getResult(0));
    }
  }
};
} // namespace
