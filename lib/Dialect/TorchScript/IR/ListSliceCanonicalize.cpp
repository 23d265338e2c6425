//===- ListSliceCanonicalize.cpp - Slices of known lists ------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `aten::slice.t(l, start, end, step)` of a list whose elements are known
// (a prim::ListConstruct or constant list that nothing modifies) and
// constant bounds becomes a prim::ListConstruct of the elements Python's
// slice picks: `x.size()[2:]` of a tensor of known rank is a list of sizes
// that shape inference and the folders read.
//
//===----------------------------------------------------------------------===//

#include "ListFacts.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace mlir::tsmlir::ts {
namespace {

/// Python's slice.indices(length) for a non-zero step: the first index and
/// the number of elements taken.
std::pair<int64_t, int64_t> sliceIndices(std::optional<int64_t> start,
                                         std::optional<int64_t> end,
                                         int64_t step, int64_t length) {
  auto adjust = [&](std::optional<int64_t> v, int64_t dflt) {
    if (!v)
      return dflt;
    int64_t i = *v < 0 ? *v + length : *v;
    if (i < 0)
      return step < 0 ? int64_t(-1) : int64_t(0);
    if (i >= length)
      return step < 0 ? length - 1 : length;
    return i;
  };
  int64_t s = adjust(start, step < 0 ? length - 1 : 0);
  int64_t e = adjust(end, step < 0 ? -1 : length);
  int64_t count = 0;
  if (step > 0 && s < e)
    count = (e - s - 1) / step + 1;
  else if (step < 0 && e < s)
    count = (s - e - 1) / -step + 1;
  return {s, count};
}

std::optional<std::optional<int64_t>> optionalInt(Value v) {
  if (llvm::isa<NoneType>(v.getType()))
    return std::optional<int64_t>();
  IntegerAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  return std::optional<int64_t>(attr.getInt());
}

struct SliceOfKnownList : OpRewritePattern<AtenSliceTOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenSliceTOp op,
                                PatternRewriter &rewriter) const override {
    Attribute constant;
    matchPattern(op.getL(), m_Constant(&constant));
    std::optional<SmallVector<OpFoldResult>> elements =
        getKnownListElements(op.getL(), constant);
    auto start = optionalInt(op.getStart()), end = optionalInt(op.getEnd());
    IntegerAttr step;
    if (!elements || !start || !end ||
        !matchPattern(op.getStep(), m_Constant(&step)) || step.getInt() == 0)
      return rewriter.notifyMatchFailure(op, "list or bounds not known");
    auto listType = llvm::cast<ListType>(op.getType());
    auto [first, count] =
        sliceIndices(*start, *end, step.getInt(), elements->size());
    SmallVector<Value> picked;
    for (int64_t k = 0; k < count; ++k) {
      OpFoldResult element = (*elements)[first + k * step.getInt()];
      if (auto value = llvm::dyn_cast<Value>(element)) {
        picked.push_back(value);
        continue;
      }
      picked.push_back(PrimConstantOp::create(rewriter, op.getLoc(),
                                              listType.getElementType(),
                                              llvm::cast<Attribute>(element)));
    }
    rewriter.replaceOpWithNewOp<PrimListConstructOp>(op, listType, picked);
    return success();
  }
};

} // namespace

void AtenSliceTOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                               MLIRContext *context) {
  patterns.add<SliceOfKnownList>(context);
}

} // namespace mlir::tsmlir::ts
