//===- PrimListUnpackCanonicalize.cpp - Canonicalization of ListUnpack ----===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `aten::chunk` with constant arguments whose list only a `prim::ListUnpack`
// reads becomes one `prim::ConstantChunk`, as PyTorch's graph optimiser does:
// the list is never built, and the chunks are views fusion can see.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace mlir::tsmlir::ts {
namespace {

struct ChunkUnpackToConstantChunk : OpRewritePattern<PrimListUnpackOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(PrimListUnpackOp op,
                                PatternRewriter &rewriter) const override {
    auto chunk = op.getList().getDefiningOp<AtenChunkOp>();
    if (!chunk || !chunk->hasOneUse())
      return failure();
    IntegerAttr chunks, dim;
    if (!matchPattern(chunk.getChunks(), m_Constant(&chunks)) ||
        !matchPattern(chunk.getDim(), m_Constant(&dim)))
      return failure();
    if (chunks.getInt() != static_cast<int64_t>(op.getNumResults()))
      return rewriter.notifyMatchFailure(op, "unpacks another count of chunks");
    if (!llvm::all_of(op.getResultTypes(), llvm::IsaPred<TensorType>))
      return failure();
    auto constantChunk = PrimConstantChunkOp::create(
        rewriter, op.getLoc(), op.getResultTypes(), chunk.getSelf(),
        rewriter.getI64IntegerAttr(chunks.getInt()),
        rewriter.getI64IntegerAttr(dim.getInt()));
    rewriter.replaceOp(op, constantChunk.getResults());
    rewriter.eraseOp(chunk);
    return success();
  }
};

} // namespace

void PrimListUnpackOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                                   MLIRContext *context) {
  patterns.add<ChunkUnpackToConstantChunk>(context);
}

} // namespace mlir::tsmlir::ts
