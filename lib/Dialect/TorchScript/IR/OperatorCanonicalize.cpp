//===- OperatorCanonicalize.cpp - Canonicalization of ts.operator ---------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Nodes kept as `ts.operator` that canonicalization removes.
//
// `with torch.no_grad():` scripts to an object of the grad-mode class, the
// write of its `prev` attribute, and `prim::Enter` / `prim::Exit` around the
// block. The grad mode only says whether autograd records the block; for
// the values it computes the statement does nothing, so the object and its
// uses go once nothing reads what `prim::Exit` returns. Other context
// managers (user classes with `__enter__` and `__exit__`) stay, and are
// reported by name.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/GradMode.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace mlir::tsmlir::ts {
namespace {

bool isGradModeClass(Type type) {
  auto cls = llvm::dyn_cast<ClassType>(type);
  return cls && cls.getName() == kNoGradClass;
}

/// Whether `op` is the ts.operator node `kind`.
bool isNode(Operation *op, StringRef kind) {
  auto node = llvm::dyn_cast<OperatorOp>(op);
  return node && node.getKind() == kind;
}

/// Erases a grad-mode `prim::CreateObject` with its `prim::SetAttr`,
/// `prim::Enter` and `prim::Exit` uses, when those are all its uses and
/// nothing reads the results of the enter and exit.
struct EraseGradModeObject : OpRewritePattern<OperatorOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(OperatorOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getKind() != "prim::CreateObject" || op->getNumResults() != 1 ||
        !isGradModeClass(op->getResult(0).getType()))
      return failure();
    SmallVector<Operation *> users(op->getResult(0).getUsers());
    for (Operation *user : users) {
      bool known =
          llvm::isa<PrimSetAttrOp>(user) ||
          ((isNode(user, "prim::Enter") || isNode(user, "prim::Exit")) &&
           user->use_empty());
      if (!known)
        return rewriter.notifyMatchFailure(op, "the object has other uses");
    }
    for (Operation *user : users)
      rewriter.eraseOp(user);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void OperatorOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                             MLIRContext *context) {
  patterns.add<EraseGradModeObject>(context);
}

} // namespace mlir::tsmlir::ts
