//===- DecomposePooling.cpp - Pooling of 1 and 3 dims by the 2-D pools ----===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Pooling whose window is a box is separable: the mean of a box is the
// mean over depth of the means over its planes when the divisor is the
// product of the per-dim counts (it is, for avg_pool3d's padding and
// ceil_mode rules and for adaptive windows), and its maximum is the maximum
// of the planes' maxima. So the 3-D pools are two passes of the 2-D ones:
//
//   avg_pool3d, adaptive_avg_pool3d,   the 2-D pool over (H, W) of the
//   adaptive_max_pool3d                input seen as [B, D, H, W], then over
//                                      D of the result seen as
//                                      [B, H'W', D, 1] with a window of 1
//                                      along the last dim; avg_pool3d with a
//                                      divisor_override, or of integers,
//                                      sums (a divisor of 1) and divides
//                                      once (integers truncating, by each
//                                      window's divisor)
//   adaptive_max_pool3d's indices      the depth pass's index d picks the
//                                      plane pass's index h W + w of plane
//                                      d (a gather): d H W + h W + w, the
//                                      first maximum in PyTorch's scan order
//                                      (a later NaN over anything) as each
//                                      pass keeps it
//   adaptive_max_pool1d                adaptive_max_pool2d on [..., 1, L]
//
//===----------------------------------------------------------------------===//

#include "DecomposeUtils.h"
#include "ShapeRuleUtils.h"

#include <array>
#include <functional>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::decompose;

namespace {

/// A 4-D or 5-D pooling input: its leading dims and its D, H, W.
struct Volume {
  SmallVector<int64_t> lead;
  int64_t batch, depth, height, width;
};

std::optional<Volume> volumeOf(Value x) {
  std::optional<SmallVector<int64_t>> sizes = staticSizes(x);
  if (!sizes || (sizes->size() != 4 && sizes->size() != 5))
    return std::nullopt;
  Volume v;
  v.lead.assign(sizes->begin(), sizes->end() - 3);
  v.batch = 1;
  for (int64_t s : v.lead)
    v.batch *= s;
  v.depth = (*sizes)[sizes->size() - 3];
  v.height = (*sizes)[sizes->size() - 2];
  v.width = (*sizes)[sizes->size() - 1];
  return v;
}

/// The two passes of a 3-D pool: `planes` pools [B, D, H, W] over (H, W),
/// `depth` pools [B, H'W', D, 1] over D; each returns the pool's results.
struct Passes {
  std::function<SmallVector<Value>(Value)> planes, depth;
};

/// The results of both passes over the input `x` of volume `v`, for the
/// output's last sizes `out`.
struct Separable {
  SmallVector<Value> planes, depth;
};

Separable buildSeparable(TSBuilder &t, Value x, const Volume &v,
                         std::array<int64_t, 3> out, const Passes &passes) {
  Separable r;
  r.planes = passes.planes(t.reshape(x, {v.batch, v.depth, v.height, v.width}));
  int64_t plane = out[1] * out[2];
  Value columns =
      t.transpose(t.reshape(r.planes[0], {v.batch, v.depth, plane}), 1, 2);
  r.depth = passes.depth(t.unsqueeze(columns, -1));
  return r;
}

/// [B, H'W', D', 1] -> [lead..., D', H', W'].
Value restore(TSBuilder &t, Value pooled, const Volume &v,
              std::array<int64_t, 3> out) {
  Value squeezed =
      AtenSqueezeDimOp::create(t.b, t.loc, t.tensor(), pooled, t.i(-1));
  Value planes = t.transpose(squeezed, 1, 2);
  SmallVector<int64_t> shape = v.lead;
  shape.append(out.begin(), out.end());
  return t.reshape(planes, shape);
}

/// avg_pool3d(self, kernel_size, stride, padding, ceil_mode,
/// count_include_pad, divisor_override).
struct DecomposeAvgPool3d : public OpRewritePattern<AtenAvgPool3dOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenAvgPool3dOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Volume> v = volumeOf(op.getSelf());
    std::optional<SmallVector<int64_t>> kernel = intList(op.getKernelSize(), 3);
    std::optional<SmallVector<int64_t>> stride = intList(op.getStride(), 3);
    std::optional<SmallVector<int64_t>> padding = intList(op.getPadding(), 3);
    std::optional<bool> ceil = constBool(op.getCeilMode());
    if (!v || !kernel || kernel->size() != 3 || !stride || !padding ||
        padding->size() != 3 || !ceil)
      return rewriter.notifyMatchFailure(
          op, "sizes, window, padding or ceil_mode not known");
    if (stride->empty())
      stride = kernel;
    if (stride->size() != 3)
      return rewriter.notifyMatchFailure(op, "stride of another length");
    std::array<int64_t, 3> in = {v->depth, v->height, v->width};
    std::array<int64_t, 3> out;
    for (int i = 0; i < 3; ++i)
      out[i] = shape::poolSize(in[i], (*kernel)[i], (*padding)[i], (*stride)[i],
                               1, *ceil);
    std::optional<int64_t> divisor;
    if (!isNone(op.getDivisorOverride())) {
      divisor = constInt(op.getDivisorOverride());
      if (!divisor || *divisor == 0)
        return rewriter.notifyMatchFailure(op, "divisor_override not known");
    }
    Type dtype = dtypeOf(op.getSelf());
    if (!dtype)
      return rewriter.notifyMatchFailure(op, "dtype not known");
    bool integer = llvm::isa<IntegerType>(dtype);
    TSBuilder t{rewriter, op.getLoc()};
    // Both passes over `x` of `volume`, each pool given the divisor
    // `divisorValue` makes (1: sums; None: means).
    auto pool = [&](Value x, const Volume &volume,
                    function_ref<Value()> divisorValue) -> Value {
      Passes passes;
      passes.planes = [&](Value planes) -> SmallVector<Value> {
        return {AtenAvgPool2dOp::create(
            t.b, t.loc, t.tensor(), planes,
            intListValue(t, {(*kernel)[1], (*kernel)[2]}),
            intListValue(t, {(*stride)[1], (*stride)[2]}),
            intListValue(t, {(*padding)[1], (*padding)[2]}), op.getCeilMode(),
            op.getCountIncludePad(), divisorValue())};
      };
      passes.depth = [&](Value columns) -> SmallVector<Value> {
        return {AtenAvgPool2dOp::create(
            t.b, t.loc, t.tensor(), columns, intListValue(t, {(*kernel)[0], 1}),
            intListValue(t, {(*stride)[0], 1}),
            intListValue(t, {(*padding)[0], 0}), op.getCeilMode(),
            op.getCountIncludePad(), divisorValue())};
      };
      Separable s = buildSeparable(t, x, volume, out, passes);
      return restore(t, s.depth[0], volume, out);
    };
    auto sums = [&]() { return t.i(1); };
    auto means = [&]() { return divisor ? t.i(1) : t.none(); };
    Value result;
    if (!integer) {
      // With an override, each pass sums and the sum is divided once.
      result = pool(op.getSelf(), *v, means);
      if (divisor)
        result = AtenDivScalarOp::create(rewriter, op.getLoc(), t.tensor(),
                                         result, t.i(*divisor));
    } else {
      // Integers are summed exactly and the sum divided once, truncating:
      // two truncating passes would round twice. Each window's divisor is
      // the override or the ratio of the sum to the mean of ones over the
      // same windows, an integer that rounding recovers.
      Value sum = pool(op.getSelf(), *v, sums);
      Value windowDivisor;
      if (divisor) {
        windowDivisor = t.i(*divisor);
      } else {
        Volume one{{1, 1}, 1, v->depth, v->height, v->width};
        Value ones = t.ones({1, 1, v->depth, v->height, v->width}, kDouble);
        Value ratio = t.div(pool(ones, one, sums), pool(ones, one, means));
        windowDivisor =
            t.to(AtenRoundOp::create(t.b, t.loc, t.tensor(), ratio), kLong);
      }
      result =
          divisor
              ? Value(AtenDivScalarModeOp::create(
                    t.b, t.loc, t.tensor(), sum, windowDivisor, t.str("trunc")))
              : Value(AtenDivTensorModeOp::create(t.b, t.loc, t.tensor(), sum,
                                                  windowDivisor,
                                                  t.str("trunc")));
    }
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

/// adaptive_avg_pool3d and adaptive_max_pool3d (self, output_size).
template <typename OpTy, bool isMax>
struct DecomposeAdaptivePool3d : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    std::optional<Volume> v = volumeOf(raw->getOperand(0));
    std::optional<SmallVector<int64_t>> outList =
        intList(raw->getOperand(1), 3);
    if (!v || !outList || outList->size() != 3)
      return rewriter.notifyMatchFailure(op, "sizes or output_size not known");
    std::array<int64_t, 3> out = {(*outList)[0], (*outList)[1], (*outList)[2]};
    TSBuilder t{rewriter, op.getLoc()};
    auto pool = [&](Value x, ArrayRef<int64_t> size) -> SmallVector<Value> {
      if constexpr (isMax) {
        auto max = AtenAdaptiveMaxPool2dOp::create(
            t.b, t.loc, t.tensor(), t.tensor(), x, intListValue(t, size));
        return {max.getResult0(), max.getResult1()};
      } else {
        return {AtenAdaptiveAvgPool2dOp::create(t.b, t.loc, t.tensor(), x,
                                                intListValue(t, size))};
      }
    };
    Passes passes;
    passes.planes = [&](Value x) { return pool(x, {out[1], out[2]}); };
    passes.depth = [&](Value x) { return pool(x, {out[0], 1}); };
    Separable s = buildSeparable(t, raw->getOperand(0), *v, out, passes);
    SmallVector<Value> results = {restore(t, s.depth[0], *v, out)};
    if constexpr (isMax) {
      // The depth pass's index is the plane d ([B, H'W', D', 1]); the plane
      // pass's indices ([B, D, H', W']) at that plane are h W + w.
      int64_t plane = out[1] * out[2];
      Value depthIndex = t.transpose(
          AtenSqueezeDimOp::create(t.b, t.loc, t.tensor(), s.depth[1], t.i(-1)),
          1, 2); // [B, D', H'W']
      Value planeIndex =
          t.reshape(s.planes[1], {v->batch, v->depth, plane}); // [B, D, H'W']
      Value within = t.gather(planeIndex, 1, depthIndex);
      Value flat =
          t.add(AtenMulScalarOp::create(t.b, t.loc, t.tensor(), depthIndex,
                                        t.i(v->height * v->width)),
                within);
      SmallVector<int64_t> shape = v->lead;
      shape.append(out.begin(), out.end());
      results.push_back(t.reshape(flat, shape));
    }
    replaceWithDeclaredTypes(rewriter, raw, results);
    return success();
  }
};

/// adaptive_max_pool1d(self [..., L], output_size): adaptive_max_pool2d of
/// [..., 1, L] to [1, L'], squeezed; the 2-D index 0 * L + l is l.
struct DecomposeAdaptiveMaxPool1d
    : public OpRewritePattern<AtenAdaptiveMaxPool1dOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenAdaptiveMaxPool1dOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> out = intList(op.getOutputSize(), 1);
    if (!out || out->size() != 1)
      return rewriter.notifyMatchFailure(op, "output_size not known");
    TSBuilder t{rewriter, op.getLoc()};
    auto pool = AtenAdaptiveMaxPool2dOp::create(
        rewriter, op.getLoc(), t.tensor(), t.tensor(),
        t.unsqueeze(op.getSelf(), -2), intListValue(t, {1, (*out)[0]}));
    auto squeeze = [&](Value x) -> Value {
      return AtenSqueezeDimOp::create(rewriter, op.getLoc(), t.tensor(), x,
                                      t.i(-2));
    };
    replaceWithDeclaredTypes(
        rewriter, op, {squeeze(pool.getResult0()), squeeze(pool.getResult1())});
    return success();
  }
};

} // namespace

void decompose::populatePoolingPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeAvgPool3d,
               DecomposeAdaptivePool3d<AtenAdaptiveAvgPool3dOp, false>,
               DecomposeAdaptivePool3d<AtenAdaptiveMaxPool3dOp, true>,
               DecomposeAdaptiveMaxPool1d>(patterns.getContext());
}
