//===- PrimIfCanonicalize.cpp - Canonicalization of prim::If --------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The prim::If peepholes of PyTorch's constant propagation and dead code
// elimination: take the branch a constant condition selects, forward results
// both branches yield from outside, replace a result that is true in the then
// branch and false in the else branch by the condition (PyTorch's peephole of
// `x = True if c else False`), and drop results nothing uses. A result is
// only ever replaced by a value of exactly its type, so no use sees a type
// change (a profiled result may be more refined than what its branch
// yields): a taken branch's value of another type goes through a
// prim::unchecked_cast to the result's type.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace mlir::tsmlir::ts {
namespace {

/// The yield that ends `block`.
PrimYieldOp getBlockYield(Block *block) {
  return llvm::cast<PrimYieldOp>(block->getTerminator());
}

/// A constant condition (a bool, or an int tested against zero): inline the
/// branch it selects in place of the if.
struct InlineConstantCondition : OpRewritePattern<PrimIfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(PrimIfOp op,
                                PatternRewriter &rewriter) const override {
    auto constant = op.getCondition().getDefiningOp<PrimConstantOp>();
    if (!constant)
      return failure();
    Attribute value = constant.getValueAttr();
    bool taken;
    if (auto b = llvm::dyn_cast_or_null<BoolAttr>(value))
      taken = b.getValue();
    else if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(value))
      taken = i.getInt() != 0;
    else
      return failure();
    Block *block = taken ? op.thenBlock() : op.elseBlock();
    PrimYieldOp yield = getBlockYield(block);
    llvm::SmallVector<Value> results(yield.getValues());
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(block, op);
    // A value the branch yields with another type than the result's (a
    // more refined one, or a subtype of an Optional) reaches the result's
    // users through a cast to the result's type, which shape inference
    // refines.
    for (auto [value, type] : llvm::zip_equal(results, op.getResultTypes()))
      if (value.getType() != type)
        value = PrimUncheckedCastOp::create(rewriter, op.getLoc(), type, value);
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// Whether `value` is the constant bool `expected`.
bool isBoolConstant(Value value, bool expected) {
  auto constant = value.getDefiningOp<PrimConstantOp>();
  auto attr = constant ? llvm::dyn_cast_or_null<BoolAttr>(constant.getValueAttr())
                       : BoolAttr();
  return attr && attr.getValue() == expected;
}

/// Results whose value both branches take from outside the if, results that
/// are the condition, and results nothing uses: forward the first two, drop
/// all three.
struct SimplifyResults : OpRewritePattern<PrimIfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(PrimIfOp op,
                                PatternRewriter &rewriter) const override {
    PrimYieldOp thenYield = getBlockYield(op.thenBlock());
    PrimYieldOp elseYield = getBlockYield(op.elseBlock());
    llvm::SmallVector<unsigned> kept;
    llvm::SmallVector<std::pair<Value, Value>> forwarded;
    for (auto [i, result] : llvm::enumerate(op.getResults())) {
      Value thenValue = thenYield.getValues()[i];
      Value elseValue = elseYield.getValues()[i];
      if (result.use_empty())
        continue;
      if (thenValue == elseValue && thenValue.getType() == result.getType() &&
          !op->isAncestor(thenValue.getParentBlock()->getParentOp())) {
        forwarded.push_back({result, thenValue});
        continue;
      }
      if (isBoolConstant(thenValue, true) && isBoolConstant(elseValue, false) &&
          op.getCondition().getType() == result.getType()) {
        forwarded.push_back({result, op.getCondition()});
        continue;
      }
      kept.push_back(i);
    }
    if (kept.size() == op.getNumResults())
      return failure();

    llvm::SmallVector<Type> types;
    llvm::SmallVector<Value> thenValues, elseValues;
    for (unsigned i : kept) {
      types.push_back(op.getResult(i).getType());
      thenValues.push_back(thenYield.getValues()[i]);
      elseValues.push_back(elseYield.getValues()[i]);
    }
    auto newIf = PrimIfOp::create(rewriter, op.getLoc(), types,
                                  op.getCondition());
    newIf->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    rewriter.inlineRegionBefore(op.getThenRegion(), newIf.getThenRegion(),
                                newIf.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseRegion(), newIf.getElseRegion(),
                                newIf.getElseRegion().end());
    rewriter.setInsertionPoint(thenYield);
    rewriter.replaceOpWithNewOp<PrimYieldOp>(thenYield, thenValues);
    rewriter.setInsertionPoint(elseYield);
    rewriter.replaceOpWithNewOp<PrimYieldOp>(elseYield, elseValues);

    llvm::SmallVector<Value> replacements(op.getNumResults(), Value());
    for (auto [result, value] : forwarded)
      replacements[llvm::cast<OpResult>(result).getResultNumber()] = value;
    for (auto [newIndex, oldIndex] : llvm::enumerate(kept))
      replacements[oldIndex] = newIf.getResult(newIndex);
    // Results nothing uses keep a null replacement.
    for (auto [i, value] : llvm::enumerate(replacements))
      if (value)
        rewriter.replaceAllUsesWith(op.getResult(i), value);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void PrimIfOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<InlineConstantCondition, SimplifyResults>(context);
}

} // namespace mlir::tsmlir::ts
