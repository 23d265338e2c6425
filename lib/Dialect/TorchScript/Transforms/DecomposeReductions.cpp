//===- DecomposeReductions.cpp - Norms and NaN-skipping reductions --------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reductions PyTorch composes from others, as its own implementations do:
//
//   nansum, nanmean          sum of where(isnan(x), 0, x) (divided by the
//                            count of non-NaN elements)
//   count_nonzero            sum of x != 0 (Long)
//   linalg_vector_norm,      by ord: inf / -inf amax / amin of |x|, 0 the
//   norm (.Scalar,           count of non-zeros, 1 the sum of |x|, 2 the
//   .ScalarOpt_dim), dist    square root of the sum of squares, p the p-th
//                            root of the sum of |x|^p; dist(a, b, p) is the
//                            norm of a - b over all elements
//
//===----------------------------------------------------------------------===//

#include "DecomposeUtils.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::decompose;

namespace {

bool isNone(Value v) { return llvm::isa<ts::NoneType>(v.getType()); }

Value sumOver(TSBuilder &t, Value x, Value dims, Value keepdim) {
  return AtenSumDimIntListOp::create(t.b, t.loc, t.tensor(), x, dims, keepdim,
                                     t.none());
}

/// nansum(self, dim?, keepdim, dtype?) and nanmean(self, dim?, keepdim,
/// dtype?).
template <typename OpTy, bool mean>
struct DecomposeNanReduction : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    Value self = raw->getOperand(0), dims = raw->getOperand(1),
          keepdim = raw->getOperand(2), dtype = raw->getOperand(3);
    TSBuilder t{rewriter, op.getLoc()};
    Value nan = AtenIsnanOp::create(rewriter, op.getLoc(), t.tensor(), self);
    Value kept = AtenWhereScalarSelfOp::create(rewriter, op.getLoc(),
                                               t.tensor(), nan, t.i(0), self);
    Value sum = AtenSumDimIntListOp::create(rewriter, op.getLoc(), t.tensor(),
                                            kept, dims, keepdim, dtype);
    if (mean) {
      Value count = sumOver(
          t, AtenLogicalNotOp::create(rewriter, op.getLoc(), t.tensor(), nan),
          dims, keepdim);
      sum = AtenDivTensorOp::create(rewriter, op.getLoc(), t.tensor(), sum,
                                    count);
    }
    replaceWithDeclaredTypes(rewriter, raw, {sum});
    return success();
  }
};

/// count_nonzero(self, dim?) and count_nonzero.dim_IntList(self, dim[]).
template <typename OpTy>
struct DecomposeCountNonzero : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    Value dims = raw->getOperand(1);
    TSBuilder t{rewriter, op.getLoc()};
    if (llvm::isa<ts::IntType>(dims.getType()))
      dims = PrimListConstructOp::create(
          rewriter, op.getLoc(),
          ts::ListType::get(t.ctx(), ts::IntType::get(t.ctx())), dims);
    Value nonzero = AtenNeScalarOp::create(rewriter, op.getLoc(), t.tensor(),
                                           raw->getOperand(0), t.i(0));
    replaceWithDeclaredTypes(rewriter, raw,
                             {sumOver(t, nonzero, dims, t.flag(false))});
    return success();
  }
};

/// The `ord` vector norm of `x` over `dims` (an int[]? value; None: all).
Value buildVectorNorm(TSBuilder &t, Value x, double ord, Value dims,
                      Value keepdim) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (ord == 0) {
    Value nonzero = AtenNeScalarOp::create(t.b, t.loc, t.tensor(), x, t.i(0));
    return AtenTypeAsOp::create(t.b, t.loc, t.tensor(),
                                sumOver(t, nonzero, dims, keepdim), x);
  }
  Value magnitude = AtenAbsOp::create(t.b, t.loc, t.tensor(), x);
  if (ord == inf || ord == -inf) {
    Value all = isNone(dims) ? intListValue(t, {}) : dims;
    if (ord == inf)
      return AtenAmaxOp::create(t.b, t.loc, t.tensor(), magnitude, all,
                                keepdim);
    return AtenAminOp::create(t.b, t.loc, t.tensor(), magnitude, all, keepdim);
  }
  if (ord == 1)
    return sumOver(t, magnitude, dims, keepdim);
  if (ord == 2)
    return AtenSqrtOp::create(
        t.b, t.loc, t.tensor(),
        sumOver(t, t.mul(magnitude, magnitude), dims, keepdim));
  Value powered = AtenPowTensorScalarOp::create(t.b, t.loc, t.tensor(),
                                                magnitude, t.f(ord));
  return AtenPowTensorScalarOp::create(t.b, t.loc, t.tensor(),
                                       sumOver(t, powered, dims, keepdim),
                                       t.f(1.0 / ord));
}

/// linalg_vector_norm(self, ord, dim?, keepdim, dtype?), norm.Scalar(self,
/// p), norm.ScalarOpt_dim(self, p?, dim, keepdim), dist(self, other, p).
template <typename OpTy>
struct DecomposeNorm : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    bool isDist = isa<AtenDistOp>(raw);
    Value ordValue = raw->getOperand(isDist ? 2 : 1);
    std::optional<double> ord =
        isNone(ordValue) ? std::optional<double>(2.0) : constFloat(ordValue);
    if (!ord)
      return rewriter.notifyMatchFailure(op, "the order is not a constant");
    TSBuilder t{rewriter, op.getLoc()};
    Value x = raw->getOperand(0);
    Value dims = t.none(), keepdim = t.flag(false);
    if (isDist) {
      x = AtenSubTensorOp::create(rewriter, op.getLoc(), t.tensor(), x,
                                  raw->getOperand(1), t.i(1));
    } else if (isa<AtenLinalgVectorNormOp>(raw)) {
      dims = raw->getOperand(2);
      keepdim = raw->getOperand(3);
      if (!isNone(raw->getOperand(4)))
        x = AtenToDtypeOp::create(rewriter, op.getLoc(), t.tensor(), x,
                                  raw->getOperand(4), t.flag(false),
                                  t.flag(false), t.none());
    } else if (isa<AtenNormScalarOptDimOp>(raw)) {
      dims = raw->getOperand(2);
      keepdim = raw->getOperand(3);
    }
    replaceWithDeclaredTypes(rewriter, raw,
                             {buildVectorNorm(t, x, *ord, dims, keepdim)});
    return success();
  }
};

} // namespace

void decompose::populateReductionPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeNanReduction<AtenNansumOp, false>,
               DecomposeNanReduction<AtenNanmeanOp, true>,
               DecomposeCountNonzero<AtenCountNonzeroOp>,
               DecomposeCountNonzero<AtenCountNonzeroDimIntListOp>,
               DecomposeNorm<AtenLinalgVectorNormOp>,
               DecomposeNorm<AtenNormScalarOp>,
               DecomposeNorm<AtenNormScalarOptDimOp>,
               DecomposeNorm<AtenDistOp>>(patterns.getContext());
}
