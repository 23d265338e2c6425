//===- Decompose.cpp - Composite operators as the ops they are made of ----===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Operators that PyTorch implements by composing others become those others,
// so that shape inference, fusion and lowering see only ops they know:
//
//   lstm, gru, rnn_tanh, rnn_relu (.input)  unrolled over time
//                                            (DecomposeRNN.cpp)
//   _native_multi_head_attention,            their projections, softmax and
//   _transformer_encoder_layer_fwd           norms (DecomposeAttention.cpp)
//   batch_norm (training), native_batch_norm, (DecomposeNormalization.cpp)
//   instance_norm
//   var_mean, std_mean                       var / std and mean
//   mv, outer, addmv, addr, addbmm          matmul, mul of unsqueezed
//                                            vectors, bmm summed, add
//   embedding_bag of equal, known bags       embedding of [bags, n] indices,
//                                            reduced over n
//   norms, nansum, nanmean, count_nonzero,   (DecomposeReductions.cpp)
//   cdist, searchsorted
//   tile, rot90, diff, glu,                  (DecomposeShapes.cpp)
//   max_pool1d_with_indices, max_unpool2d
//   gradient (every overload)                (DecomposeGradient.cpp)
//   unique (every form), masked_select,      computed at their largest size,
//   nonzero, argwhere, x[mask]               sliced to a run-time count
//                                            (DecomposeSelection.cpp)
//   take, put, index_fill, index_copy,       gathers, scatters, selects
//   masked_scatter, tensor_split, unflatten, and scans
//   sum_to_size, prelu, allclose, xlog1py,   (DecomposeIndexing.cpp)
//   aminmax, logcumsumexp, cummax, cummin
//   diagonal, diag, diag_embed, trace,       index_select at flat indices,
//   diagonal_scatter, kron, cross, block_diag products and padding
//   meshgrid, cartesian_prod, bilinear,      (DecomposeMatrices.cpp)
//   triu/tril_indices, matrix and vector
//   norms, renorm
//   median, nanmedian, kthvalue, quantile,   sorts, gathers and sums
//   nanquantile, histc, cov, corrcoef        (DecomposeStatistics.cpp)
//   einsum                                   permutes, sums and bmm
//                                            (DecomposeEinsum.cpp)
//   new_zeros, new_ones, new_empty,          zeros, ones, full of the
//   new_full                                 source's dtype
//                                            (DecomposeFactories.cpp)
//   conv2d.padding ("same", "valid")         conv2d with int padding, after
//                                            a constant_pad_nd when uneven
//   avg_pool3d, adaptive_avg_pool3d,         2-D pools over the planes, then
//   adaptive_max_pool3d, adaptive_max_pool1d over depth; 1-D as 2-D
//                                            (DecomposePooling.cpp)
//   conv1d (.padding), max_pool1d,           their 2-D forms on the input
//   avg_pool1d, adaptive_avg_pool1d,         with a spatial dim of 1
//   _convolution of one spatial dim          inserted (then squeezed)
//   conv_transpose1d/2d, _convolution        a convolution of the input
//   (transposed)                             spread by the stride and padded,
//                                            with the weight's in and out
//                                            channels swapped per group and
//                                            its window flipped
//   clamp.Tensor                             maximum and minimum
//   clamp_min.Tensor, clamp_max.Tensor       maximum, minimum
//   narrow.Tensor                            narrow at Int(start)
//   list.t, copy.t of a known list, add.t    a prim::ListConstruct of their
//   of two known lists                       elements (a new list)
//
// A decomposition that needs a size (the number of time steps, the hidden
// size, the channels) waits until shape inference knows it: the pass runs in
// every round of --ts-optimize.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h"

#include "DecomposeUtils.h"
#include "ShapeRuleUtils.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>
#include <variant>

namespace mlir::tsmlir::ts {
#define GEN_PASS_DEF_TSDECOMPOSEPASS
#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir::ts

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::decompose;

namespace {

//===----------------------------------------------------------------------===//
// Normalisation and statistics
//===----------------------------------------------------------------------===//

/// var_mean and std_mean (plain, .dim, .correction): the statistic and
/// mean (mean.dim over the same dims).
enum class StatForm { Plain, Dim, Correction };

template <typename OpTy, typename StatOp, StatForm form>
struct DecomposeStatMean : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    TSBuilder t{rewriter, op.getLoc()};
    Value self = raw->getOperand(0);
    Value none = t.none();
    Value stat, mean;
    if constexpr (form == StatForm::Plain) {
      // (self, unbiased)
      stat = StatOp::create(rewriter, op.getLoc(), t.tensor(), self,
                            raw->getOperand(1));
      mean = AtenMeanOp::create(rewriter, op.getLoc(), t.tensor(), self, none);
    } else {
      // (self, dim?, unbiased or correction?, keepdim)
      Value dim = raw->getOperand(1), keepdim = raw->getOperand(3);
      stat = StatOp::create(rewriter, op.getLoc(), t.tensor(), self, dim,
                            raw->getOperand(2), keepdim);
      mean = AtenMeanDimOp::create(rewriter, op.getLoc(), t.tensor(), self,
                                   dim, keepdim, none);
    }
    SmallVector<Value> results = {stat, mean};
    replaceWithDeclaredTypes(rewriter, raw, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Convolutions with string padding
//===----------------------------------------------------------------------===//

/// conv2d.padding(input, weight, bias?, stride, padding: str, dilation,
/// groups): "valid" is no padding; "same" pads each spatial dim by
/// dilation * (kernel - 1) in all, the extra element of an odd total at the
/// end (PyTorch's rule), so an asymmetric one becomes a constant_pad_nd
/// before a conv2d without padding.
struct DecomposeConvStringPadding
    : public OpRewritePattern<AtenConv2dPaddingOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenConv2dPaddingOp op,
                                PatternRewriter &rewriter) const override {
    StringAttr mode;
    if (!matchPattern(op.getPadding(), m_Constant(&mode)))
      return rewriter.notifyMatchFailure(op, "padding is not a constant");
    std::optional<SmallVector<int64_t>> weight = staticSizes(op.getWeight());
    SmallVector<int64_t> dilation;
    if (auto list = op.getDilation().getDefiningOp<PrimListConstructOp>()) {
      for (Value v : list.getElements()) {
        std::optional<int64_t> d = constInt(v);
        if (!d)
          return rewriter.notifyMatchFailure(op, "dilation not constant");
        dilation.push_back(*d);
      }
    } else if (auto c = op.getDilation().getDefiningOp<PrimConstantOp>()) {
      auto array = llvm::dyn_cast_or_null<ArrayAttr>(c.getValueAttr());
      if (!array)
        return rewriter.notifyMatchFailure(op, "dilation not constant");
      for (Attribute a : array)
        dilation.push_back(llvm::cast<IntegerAttr>(a).getInt());
    }
    if (!weight || weight->size() != 4)
      return rewriter.notifyMatchFailure(op, "weight sizes not known");
    if (dilation.size() == 1)
      dilation.push_back(dilation[0]);
    if (dilation.size() != 2)
      return rewriter.notifyMatchFailure(op, "dilation not of two dims");
    TSBuilder t{rewriter, op.getLoc()};
    SmallVector<int64_t> low(2, 0), high(2, 0);
    if (mode.getValue() == "same") {
      for (int i = 0; i < 2; ++i) {
        int64_t total = dilation[i] * ((*weight)[2 + i] - 1);
        low[i] = total / 2;
        high[i] = total - low[i];
      }
    } else if (mode.getValue() != "valid") {
      return rewriter.notifyMatchFailure(op, "unknown padding mode");
    }
    Value input = op.getInput();
    SmallVector<Value> padding;
    if (low == high) {
      padding = {t.i(low[0]), t.i(low[1])};
    } else {
      // (last dim's low, high, then the one before).
      Value amounts = PrimListConstructOp::create(
          rewriter, op.getLoc(), ts::ListType::get(t.ctx(), ts::IntType::get(t.ctx())),
          ValueRange{t.i(low[1]), t.i(high[1]), t.i(low[0]), t.i(high[0])});
      input = AtenConstantPadNdOp::create(rewriter, op.getLoc(), t.tensor(),
                                          input, amounts, t.i(0));
      padding = {t.i(0), t.i(0)};
    }
    Value paddingList = PrimListConstructOp::create(
        rewriter, op.getLoc(), ts::ListType::get(t.ctx(), ts::IntType::get(t.ctx())),
        padding);
    Value result = AtenConv2dOp::create(rewriter, op.getLoc(), t.tensor(),
                                        input, op.getWeight(), op.getBias(),
                                        op.getStride(), paddingList,
                                        op.getDilation(), op.getGroups());
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// One spatial dim as two
//===----------------------------------------------------------------------===//

/// [before..., x] -> [before..., 1, x]: the 2-D form of a 1-D int[] operand,
/// `fill` for the inserted dim (an empty list stays empty).
Value widen(TSBuilder &t, ArrayRef<int64_t> values, int64_t fill) {
  if (values.empty())
    return intListValue(t, {});
  return intListValue(t, {fill, values[0]});
}

/// conv1d (.padding), max_pool1d, avg_pool1d, adaptive_avg_pool1d and a
/// not-transposed _convolution of one spatial dim: the input [N, C, L] as
/// [N, C, 1, L] (the weight [O, I, K] as [O, I, 1, K]) through the op's
/// 2-D form, then the inserted dim squeezed out. Exact: the inserted dim is
/// of size 1 with a kernel, stride and dilation of 1 and no padding.
template <typename OpTy>
struct DecomposeOneDim : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  static std::optional<int64_t> rankOf(Value v) {
    auto type = llvm::dyn_cast<ts::TensorType>(v.getType());
    if (!type || !type.hasSizes())
      return std::nullopt;
    return static_cast<int64_t>(type.getSizesOrEmpty().size());
  }

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    Value input = raw->getOperand(0);
    std::optional<int64_t> inputRank = rankOf(input);
    if (!inputRank)
      return rewriter.notifyMatchFailure(op, "input rank not known");
    // Every int[] operand, read before anything is built: (operand, the
    // value of the inserted dim).
    SmallVector<std::pair<Value, int64_t>> lists;
    if constexpr (std::is_same_v<OpTy, Aten_ConvolutionOp>) {
      std::optional<bool> transposed = constBool(op.getTransposed());
      if (!transposed || *transposed || rankOf(op.getWeight()) != 3)
        return rewriter.notifyMatchFailure(
            op, "not a 1-D convolution that is not transposed");
    }
    if constexpr (std::is_same_v<OpTy, AtenConv1dOp> ||
                  std::is_same_v<OpTy, Aten_ConvolutionOp>)
      lists = {{op.getStride(), 1}, {op.getPadding(), 0}, {op.getDilation(), 1}};
    else if constexpr (std::is_same_v<OpTy, AtenConv1dPaddingOp>)
      lists = {{op.getStride(), 1}, {op.getDilation(), 1}};
    else if constexpr (std::is_same_v<OpTy, AtenMaxPool1dOp>)
      lists = {{op.getKernelSize(), 1}, {op.getStride(), 1},
               {op.getPadding(), 0}, {op.getDilation(), 1}};
    else if constexpr (std::is_same_v<OpTy, AtenAvgPool1dOp>)
      lists = {{op.getKernelSize(), 1}, {op.getStride(), 1},
               {op.getPadding(), 0}};
    else
      lists = {{op.getOutputSize(), 1}};
    SmallVector<SmallVector<int64_t>> values;
    for (auto [v, fill] : lists) {
      std::optional<SmallVector<int64_t>> ints = intList(v, 1);
      if (!ints)
        return rewriter.notifyMatchFailure(op, "lists not constant");
      values.push_back(*ints);
    }

    TSBuilder t{rewriter, op.getLoc()};
    SmallVector<Value> wide;
    for (auto [ints, entry] : llvm::zip_equal(values, lists))
      wide.push_back(widen(t, ints, entry.second));
    // The spatial dim is the last; the inserted one goes before it.
    int64_t at = *inputRank - 1;
    Value x = t.unsqueeze(input, at);
    Value result;
    if constexpr (std::is_same_v<OpTy, AtenConv1dOp> ||
                  std::is_same_v<OpTy, Aten_ConvolutionOp>) {
      result = AtenConv2dOp::create(rewriter, op.getLoc(), t.tensor(), x,
                                    t.unsqueeze(op.getWeight(), 2),
                                    op.getBias(), wide[0], wide[1], wide[2],
                                    op.getGroups());
    } else if constexpr (std::is_same_v<OpTy, AtenConv1dPaddingOp>) {
      result = AtenConv2dPaddingOp::create(
          rewriter, op.getLoc(), t.tensor(), x, t.unsqueeze(op.getWeight(), 2),
          op.getBias(), wide[0], op.getPadding(), wide[1], op.getGroups());
    } else if constexpr (std::is_same_v<OpTy, AtenMaxPool1dOp>) {
      result = AtenMaxPool2dOp::create(rewriter, op.getLoc(), t.tensor(), x,
                                       wide[0], wide[1], wide[2], wide[3],
                                       op.getCeilMode());
    } else if constexpr (std::is_same_v<OpTy, AtenAvgPool1dOp>) {
      result = AtenAvgPool2dOp::create(rewriter, op.getLoc(), t.tensor(), x,
                                       wide[0], wide[1], wide[2],
                                       op.getCeilMode(), op.getCountIncludePad(),
                                       t.none());
    } else {
      result = AtenAdaptiveAvgPool2dOp::create(rewriter, op.getLoc(),
                                               t.tensor(), x, wide[0]);
    }
    result = AtenSqueezeDimOp::create(rewriter, op.getLoc(), t.tensor(), result,
                                      t.i(at));
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Transposed convolutions
//===----------------------------------------------------------------------===//

/// conv_transpose1d/2d/3d(input, weight [Cin, Cout/g, k...], bias?, stride,
/// padding, output_padding, groups, dilation) and _convolution with
/// transposed = true, as the gradient of a convolution is computed: the
/// input spread by the stride (stride - 1 zeros between elements: each
/// element padded to `stride` along a new dim, then the dims merged and the
/// trailing zeros cut), padded by dilation * (k - 1) - padding on both sides
/// (plus output_padding at the end; a negative amount cuts), then convolved
/// with stride 1 and the same dilation by the weight with its in and out
/// channels swapped within each group and its window flipped. 1-D runs as
/// 2-D with a spatial dim of 1.
template <typename OpTy>
struct DecomposeConvTranspose : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if constexpr (std::is_same_v<OpTy, Aten_ConvolutionOp>) {
      std::optional<bool> transposed = constBool(op.getTransposed());
      if (!transposed || !*transposed)
        return rewriter.notifyMatchFailure(op, "not transposed");
    }
    std::optional<SmallVector<int64_t>> in = staticSizes(op.getInput());
    std::optional<SmallVector<int64_t>> w = staticSizes(op.getWeight());
    // An unbatched input ([C, spatial...]) runs as a batch of one.
    bool unbatched = in && w && in->size() + 1 == w->size() &&
                     !std::is_same_v<OpTy, Aten_ConvolutionOp>;
    if (unbatched)
      in->insert(in->begin(), 1);
    if (!in || !w || in->size() != w->size() || in->size() < 3 ||
        in->size() > 5)
      return rewriter.notifyMatchFailure(
          op, "input and weight sizes not known, or not 1-D, 2-D or 3-D");
    unsigned n = in->size() - 2;
    auto stride = intList(op.getStride(), n), padding = intList(op.getPadding(), n),
         outPadding = intList(op.getOutputPadding(), n),
         dilation = intList(op.getDilation(), n);
    std::optional<int64_t> groups = constInt(op.getGroups());
    if (!stride || !padding || !outPadding || !dilation || !groups ||
        stride->size() != n || padding->size() != n ||
        outPadding->size() != n || dilation->size() != n || *groups < 1 ||
        (*w)[0] % *groups)
      return rewriter.notifyMatchFailure(
          op, "stride, padding, output_padding, dilation or groups not "
              "constant, or groups not dividing the channels");
    for (unsigned d = 0; d < n; ++d)
      if (((*in)[2 + d] - 1) * (*stride)[d] - 2 * (*padding)[d] +
              (*dilation)[d] * ((*w)[2 + d] - 1) + (*outPadding)[d] + 1 <=
          0)
        return rewriter.notifyMatchFailure(op, "empty output");
    TSBuilder t{rewriter, op.getLoc()};
    Value x = op.getInput(), weight = op.getWeight();
    if (unbatched)
      x = t.unsqueeze(x, 0);
    SmallVector<int64_t> sizes(*in), kernel(w->begin() + 2, w->end());
    if (n == 1) {
      x = t.unsqueeze(x, 2);
      weight = t.unsqueeze(weight, 2);
      sizes.insert(sizes.begin() + 2, 1);
      kernel.insert(kernel.begin(), 1);
      stride->insert(stride->begin(), 1);
      padding->insert(padding->begin(), 0);
      outPadding->insert(outPadding->begin(), 0);
      dilation->insert(dilation->begin(), 1);
    }
    // The spatial dims the convolution runs over (1-D runs as 2-D).
    int64_t spatial = sizes.size() - 2, rank = sizes.size();
    // Spread by the stride, one spatial dim at a time.
    for (int d = 0; d < spatial; ++d) {
      int64_t s = (*stride)[d], dim = 2 + d, len = sizes[dim];
      if (s == 1 || len == 0)
        continue;
      // [.., len, ..] -> [.., len, 1, ..] -> pad the new dim to s ->
      // [.., len * s, ..] -> the first (len - 1) * s + 1.
      Value wide = t.unsqueeze(x, dim + 1);
      SmallVector<int64_t> amounts(2 * (rank - dim), 0);
      // constant_pad_nd's amounts start at the last dim: the new dim is
      // (rank - dim - 1) dims from the end of the widened tensor.
      amounts[2 * (rank - dim - 1) + 1] = s - 1;
      wide = AtenConstantPadNdOp::create(rewriter, op.getLoc(), t.tensor(),
                                         wide, intListValue(t, amounts),
                                         t.i(0));
      SmallVector<int64_t> merged(sizes);
      merged[dim] = len * s;
      x = AtenReshapeOp::create(rewriter, op.getLoc(), t.tensor(), wide,
                                intListValue(t, merged));
      x = t.narrow(x, dim, 0, (len - 1) * s + 1);
      sizes[dim] = (len - 1) * s + 1;
    }
    // Pad (or cut) by dilation * (k - 1) - padding, output_padding more at
    // the end.
    SmallVector<int64_t> amounts;
    bool anyPad = false;
    for (int64_t d = spatial - 1; d >= 0; --d) {
      int64_t edge = (*dilation)[d] * (kernel[d] - 1) - (*padding)[d];
      amounts.push_back(edge);
      amounts.push_back(edge + (*outPadding)[d]);
      anyPad |= edge != 0 || (*outPadding)[d] != 0;
    }
    if (anyPad) {
      SmallVector<int64_t> grow, cut;
      for (int64_t a : amounts) {
        grow.push_back(std::max<int64_t>(a, 0));
        cut.push_back(std::min<int64_t>(a, 0));
      }
      x = AtenConstantPadNdOp::create(rewriter, op.getLoc(), t.tensor(), x,
                                      intListValue(t, grow), t.i(0));
      // Negative amounts cut: narrow each spatial dim.
      for (int64_t d = 0; d < spatial; ++d) {
        int64_t at = 2 * (spatial - 1 - d);
        int64_t low = -cut[at], high = -cut[at + 1];
        if (low == 0 && high == 0)
          continue;
        // Positive: the output size was checked above.
        int64_t grown = sizes[2 + d] + grow[at] + grow[at + 1];
        x = t.narrow(x, 2 + d, low, grown - low - high);
      }
    }
    // Weight [Cin, Cout/g, k...] -> [g, Cin/g, Cout/g, k...] ->
    // [g, Cout/g, Cin/g, k...] -> [Cout, Cin/g, k...], window flipped.
    int64_t g = *groups, cin = (*w)[0], coutG = (*w)[1];
    SmallVector<int64_t> grouped{g, cin / g, coutG};
    llvm::append_range(grouped, kernel);
    Value wt = AtenReshapeOp::create(rewriter, op.getLoc(), t.tensor(), weight,
                                     intListValue(t, grouped));
    wt = AtenTransposeIntOp::create(rewriter, op.getLoc(), t.tensor(), wt,
                                    t.i(1), t.i(2));
    SmallVector<int64_t> swapped{g * coutG, cin / g};
    llvm::append_range(swapped, kernel);
    wt = AtenReshapeOp::create(rewriter, op.getLoc(), t.tensor(), wt,
                               intListValue(t, swapped));
    SmallVector<int64_t> window, ones(spatial, 1), zeros(spatial, 0);
    for (int64_t d = 0; d < spatial; ++d)
      window.push_back(2 + d);
    wt = AtenFlipOp::create(rewriter, op.getLoc(), t.tensor(), wt,
                            intListValue(t, window));
    Value result =
        spatial == 3
            ? AtenConv3dOp::create(rewriter, op.getLoc(), t.tensor(), x, wt,
                                   op.getBias(), intListValue(t, ones),
                                   intListValue(t, zeros),
                                   intListValue(t, *dilation), t.i(g))
                  .getResult()
            : AtenConv2dOp::create(rewriter, op.getLoc(), t.tensor(), x, wt,
                                   op.getBias(), intListValue(t, ones),
                                   intListValue(t, zeros),
                                   intListValue(t, *dilation), t.i(g))
                  .getResult();
    if (n == 1)
      result = AtenSqueezeDimOp::create(rewriter, op.getLoc(), t.tensor(),
                                        result, t.i(2));
    if (unbatched)
      result = AtenSqueezeDimOp::create(rewriter, op.getLoc(), t.tensor(),
                                        result, t.i(0));
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Tensor-valued bounds and starts
//===----------------------------------------------------------------------===//

/// clamp.Tensor(self, min?, max?): maximum with min, then minimum with max
/// (the result type promotes all three, NaNs propagate, as PyTorch's).
/// narrow.Tensor(self, dim, start: 0-d tensor, length): narrow at
/// Int(start).
struct DecomposeClampTensor : public OpRewritePattern<AtenClampTensorOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenClampTensorOp op,
                                PatternRewriter &rewriter) const override {
    TSBuilder t{rewriter, op.getLoc()};
    Value x = op.getSelf();
    Value lo = op->getOperand(1), hi = op->getOperand(2);
    if (!isa<ts::NoneType>(lo.getType()))
      x = AtenMaximumOp::create(rewriter, op.getLoc(), t.tensor(), x, lo);
    if (!isa<ts::NoneType>(hi.getType()))
      x = AtenMinimumOp::create(rewriter, op.getLoc(), t.tensor(), x, hi);
    if (x == op.getSelf())
      return rewriter.notifyMatchFailure(op, "neither bound given");
    replaceWithDeclaredTypes(rewriter, op, {x});
    return success();
  }
};

/// clamp_min.Tensor(self, min) is maximum(self, min) and
/// clamp_max.Tensor(self, max) minimum(self, max): the same promotion and
/// NaN propagation.
template <typename ClampOp, typename ExtremumOp>
struct DecomposeOneSidedClampTensor : public OpRewritePattern<ClampOp> {
  using OpRewritePattern<ClampOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ClampOp op,
                                PatternRewriter &rewriter) const override {
    Value result = ExtremumOp::create(rewriter, op.getLoc(),
                                      ts::TensorType::get(op.getContext()),
                                      op->getOperand(0), op->getOperand(1));
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

struct DecomposeNarrowTensor : public OpRewritePattern<AtenNarrowTensorOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenNarrowTensorOp op,
                                PatternRewriter &rewriter) const override {
    Value start = AtenIntTensorOp::create(rewriter, op.getLoc(),
                                          ts::IntType::get(op.getContext()),
                                          op.getStart());
    Value result = AtenNarrowOp::create(
        rewriter, op.getLoc(), ts::TensorType::get(op.getContext()),
        op.getSelf(), op.getDim(), start, op.getLength());
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

/// list(l), copy(l), and l1 + l2 (add.t), of lists whose elements are
/// known, or that a split makes (chunk, split, split_with_sizes, unbind,
/// their pieces' count known): a new prim::ListConstruct of the elements
/// (a split's unpacked).
template <typename OpTy>
struct DecomposeListOfKnown : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto listType = llvm::dyn_cast<ts::ListType>(op->getResult(0).getType());
    if (!listType)
      return failure();
    // Each operand's known elements, or the types of a split's pieces.
    SmallVector<std::variant<SmallVector<OpFoldResult>, SmallVector<Type>>>
        parts;
    for (Value list : op->getOperands()) {
      if (!isUnmodifiedList(list))
        return rewriter.notifyMatchFailure(op, "a list may be modified");
      if (std::optional<SmallVector<OpFoldResult>> known = listElements(list)) {
        parts.push_back(std::move(*known));
        continue;
      }
      Operation *def = list.getDefiningOp();
      std::optional<SmallVector<Type>> pieces =
          def ? shape::getSplitTypes(def, ShapeFacts()) : std::nullopt;
      if (!pieces)
        return rewriter.notifyMatchFailure(op, "elements not known");
      parts.push_back(std::move(*pieces));
    }
    SmallVector<Value> values;
    for (auto [list, part] : llvm::zip_equal(op->getOperands(), parts)) {
      if (auto *known = std::get_if<SmallVector<OpFoldResult>>(&part)) {
        for (OpFoldResult e : *known)
          values.push_back(materialize(rewriter, op.getLoc(), e,
                                       listType.getElementType()));
        continue;
      }
      llvm::append_range(
          values, PrimListUnpackOp::create(rewriter, op.getLoc(),
                                           std::get<SmallVector<Type>>(part),
                                           list)
                      .getResults());
    }
    rewriter.replaceOpWithNewOp<PrimListConstructOp>(op, listType, values);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Vector products
//===----------------------------------------------------------------------===//

/// mv(self, vec): matmul. outer(self, vec2): self[:, None] * vec2[None, :].
/// addmv(self, mat, vec), addr(self, vec1, vec2) and addbmm(self, batch1,
/// batch2), each with beta and alpha: beta self + alpha product, the product
/// mat @ vec, the outer product, or the sum over the batch of batch1[b] @
/// batch2[b]; self ignored for beta = 0 (its NaNs too), as PyTorch.
template <typename OpTy>
struct DecomposeVectorProduct : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  static Value outer(TSBuilder &t, Value x, Value y) {
    return t.mul(t.unsqueeze(x, 1), t.unsqueeze(y, 0));
  }

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    TSBuilder t{rewriter, op.getLoc()};
    Value result;
    if (isa<AtenMvOp>(raw)) {
      result = t.matmul(raw->getOperand(0), raw->getOperand(1));
    } else if (isa<AtenOuterOp>(raw)) {
      result = outer(t, raw->getOperand(0), raw->getOperand(1));
    } else {
      Value beta = raw->getOperand(3), alpha = raw->getOperand(4);
      std::optional<double> b = constFloat(beta);
      std::optional<double> a = constFloat(alpha);
      if (!b)
        return rewriter.notifyMatchFailure(op, "beta is not a constant");
      // Integer products scale by beta and alpha converted to the integer
      // type (truncated), as PyTorch's kernels do.
      auto selfType = llvm::dyn_cast<ts::TensorType>(raw->getOperand(0).getType());
      Type dtype = selfType ? selfType.getDtype() : Type();
      bool maybeFractional =
          *b != std::trunc(*b) || !a || *a != std::trunc(*a);
      if (maybeFractional && !dtype)
        return rewriter.notifyMatchFailure(op, "self's dtype is not known");
      if (maybeFractional && llvm::isa<IntegerType>(dtype) &&
          !dtype.isInteger(1)) {
        if (!a)
          return rewriter.notifyMatchFailure(op, "alpha is not a constant");
        beta = t.i(static_cast<int64_t>(*b));
        alpha = t.i(static_cast<int64_t>(*a));
      }
      Value x = raw->getOperand(1), y = raw->getOperand(2);
      if (dtype && dtype.isInteger(1)) {
        // Bools: (beta and self) or (alpha and product), as PyTorch.
        if (!a)
          return rewriter.notifyMatchFailure(op, "alpha is not a constant");
        if (isa<AtenAddmvOp, AtenAddbmmOp>(raw) || (*b == 0 && *a == 0))
          return rewriter.notifyMatchFailure(op, "bool products");
        Value product = outer(t, x, y);
        if (*b == 0)
          result = AtenLogicalOrOp::create(
              rewriter, op.getLoc(), t.tensor(), product,
              AtenZerosLikeOp::create(rewriter, op.getLoc(), t.tensor(),
                                      raw->getOperand(0), t.none(), t.none(),
                                      t.none(), t.none(), t.none()));
        else if (*a == 0)
          result = AtenLogicalOrOp::create(
              rewriter, op.getLoc(), t.tensor(), raw->getOperand(0),
              AtenZerosLikeOp::create(rewriter, op.getLoc(), t.tensor(),
                                      product, t.none(), t.none(), t.none(),
                                      t.none(), t.none()));
        else
          result = AtenLogicalOrOp::create(rewriter, op.getLoc(), t.tensor(),
                                           raw->getOperand(0), product);
        replaceWithDeclaredTypes(rewriter, op, {result});
        return success();
      }
      Value product;
      if (isa<AtenAddrOp>(raw))
        product = outer(t, x, y);
      else if (isa<AtenAddbmmOp>(raw))
        product = AtenSumDimIntListOp::create(
            rewriter, op.getLoc(), t.tensor(),
            AtenBmmOp::create(rewriter, op.getLoc(), t.tensor(), x, y),
            intListValue(t, {0}), t.flag(false), t.none());
      else
        product = t.matmul(x, y);
      if (*b == 0) {
        result = AtenMulScalarOp::create(rewriter, op.getLoc(), t.tensor(),
                                         product, alpha);
        // The result has self's broadcast shape too.
        result = AtenAddTensorOp::create(
            rewriter, op.getLoc(), t.tensor(), result,
            AtenZerosLikeOp::create(rewriter, op.getLoc(), t.tensor(),
                                    raw->getOperand(0), t.none(), t.none(),
                                    t.none(), t.none(), t.none()),
            t.i(1));
      } else {
        Value scaled = AtenMulScalarOp::create(rewriter, op.getLoc(),
                                               t.tensor(), raw->getOperand(0),
                                               beta);
        result = AtenAddTensorOp::create(rewriter, op.getLoc(), t.tensor(),
                                         scaled, product, alpha);
      }
    }
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Embedding bags
//===----------------------------------------------------------------------===//

/// The values of a 1-D offsets tensor known at compile time: an
/// arange.start_step of constants (torch.nn.functional.embedding_bag's
/// offsets for 2-D input) or a constant tensor.
std::optional<SmallVector<int64_t>> knownOffsets(Value offsets) {
  if (auto arange = offsets.getDefiningOp<AtenArangeStartStepOp>()) {
    std::optional<int64_t> start = constInt(arange->getOperand(0));
    std::optional<int64_t> end = constInt(arange->getOperand(1));
    std::optional<int64_t> step = constInt(arange->getOperand(2));
    if (!start || !end || !step || *step <= 0)
      return std::nullopt;
    SmallVector<int64_t> values;
    for (int64_t v = *start; v < *end; v += *step)
      values.push_back(v);
    return values;
  }
  DenseElementsAttr dense;
  if (!matchPattern(offsets, m_Constant(&dense)) ||
      dense.getType().getRank() != 1 ||
      !llvm::isa<IntegerType>(dense.getElementType()))
    return std::nullopt;
  return llvm::to_vector(llvm::map_range(
      dense.getValues<APInt>(), [](const APInt &v) { return v.getSExtValue(); }));
}

/// embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode,
/// sparse, per_sample_weights?, include_last_offset[, padding_idx?]) whose
/// bags all have the same known size n (offsets known, as for 2-D input):
/// the embedding of indices viewed as [bags, n], reduced over the bag by
/// sum (0, weighted by per_sample_weights), mean (1) or max (2). Entries
/// equal to padding_idx are left out of sums and means (a bag of only
/// padding gives 0). Only the first result (the bags) may be used.
template <typename OpTy>
struct DecomposeEmbeddingBag : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    for (unsigned i = 1; i < raw->getNumResults(); ++i)
      if (!raw->getResult(i).use_empty())
        return rewriter.notifyMatchFailure(
            op, "offset2bag, bag_size or max_indices is used");
    std::optional<int64_t> mode = constInt(raw->getOperand(4));
    std::optional<bool> includeLast = constBool(raw->getOperand(7));
    std::optional<SmallVector<int64_t>> indexSizes =
        staticSizes(raw->getOperand(1));
    std::optional<SmallVector<int64_t>> offsets =
        knownOffsets(raw->getOperand(2));
    if (!mode || *mode < 0 || *mode > 2 || !includeLast || !indexSizes ||
        indexSizes->size() != 1 || !offsets)
      return rewriter.notifyMatchFailure(
          op, "mode, include_last_offset, the indices' size or the offsets "
              "are not known");
    int64_t count = (*indexSizes)[0];
    SmallVector<int64_t> bounds = *offsets;
    if (!*includeLast)
      bounds.push_back(count);
    int64_t bags = static_cast<int64_t>(bounds.size()) - 1;
    if (bags < 1 || bounds.front() != 0 || bounds.back() != count)
      return rewriter.notifyMatchFailure(op, "offsets do not cover the indices");
    int64_t size = bounds[1] - bounds[0];
    for (int64_t b = 0; b < bags; ++b)
      if (bounds[b + 1] - bounds[b] != size)
        return rewriter.notifyMatchFailure(op, "bags of different sizes");
    if (size == 0)
      return rewriter.notifyMatchFailure(op, "empty bags");
    Value weights = raw->getOperand(6);
    bool weighted = !llvm::isa<ts::NoneType>(weights.getType());
    if (weighted && *mode != 0)
      return rewriter.notifyMatchFailure(
          op, "per_sample_weights with a mode other than sum");
    std::optional<int64_t> padding;
    if (raw->getNumOperands() > 8 &&
        !llvm::isa<ts::NoneType>(raw->getOperand(8).getType())) {
      padding = constInt(raw->getOperand(8));
      if (!padding)
        return rewriter.notifyMatchFailure(op, "padding_idx is not a constant");
      if (*padding < 0)
        padding.reset(); // -1: none.
      else if (*mode == 2)
        return rewriter.notifyMatchFailure(op, "padding_idx with max mode");
    }

    TSBuilder t{rewriter, op.getLoc()};
    Location loc = op.getLoc();
    Value indices = t.reshape(raw->getOperand(1), {bags, size});
    Value rows = AtenEmbeddingOp::create(rewriter, loc, t.tensor(),
                                         raw->getOperand(0), indices, t.i(-1),
                                         t.flag(false), t.flag(false));
    if (weighted)
      rows = t.mul(rows, t.unsqueeze(t.reshape(weights, {bags, size}), 2));
    Value padded;
    if (padding) {
      padded = t.unsqueeze(
          AtenEqScalarOp::create(rewriter, loc, t.tensor(), indices,
                                 t.i(*padding)),
          2);
      rows = AtenMaskedFillScalarOp::create(rewriter, loc, t.tensor(), rows,
                                            padded, t.i(0));
    }
    Value dim = intListValue(t, {1});
    Value result;
    if (*mode == 2) {
      result = AtenAmaxOp::create(rewriter, loc, t.tensor(), rows, dim,
                                  t.flag(false));
    } else {
      result = AtenSumDimIntListOp::create(rewriter, loc, t.tensor(), rows, dim,
                                           t.flag(false), t.none());
      if (*mode == 1 && !padding) {
        result = AtenDivScalarOp::create(rewriter, loc, t.tensor(), result,
                                         t.i(size));
      } else if (*mode == 1) {
        Value kept = AtenSumDimIntListOp::create(
            rewriter, loc, t.tensor(),
            AtenNeScalarOp::create(rewriter, loc, t.tensor(), indices,
                                   t.i(*padding)),
            dim, t.flag(true), t.none());
        kept = AtenClampOp::create(rewriter, loc, t.tensor(), kept, t.i(1),
                                   t.none());
        result = AtenDivTensorOp::create(rewriter, loc, t.tensor(), result,
                                         kept);
      }
    }
    // The other results are unused: placeholders stand in for them.
    SmallVector<Value> results = {result};
    for (unsigned i = 1; i < raw->getNumResults(); ++i)
      results.push_back(PrimUninitializedOp::create(
          rewriter, loc, raw->getResult(i).getType()));
    replaceWithDeclaredTypes(rewriter, op, results);
    return success();
  }
};

struct TSDecomposePass
    : public ts::impl::TSDecomposePassBase<TSDecomposePass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    ts::populateDecompositionPatterns(patterns);
    // The ops `keep` names stay whole: their patterns are dropped.
    llvm::StringSet<> kept;
    for (const std::string &name : keep) {
      if (!RegisteredOperationName::lookup(name, &getContext())) {
        getOperation()->emitError()
            << "ts-decompose: '" << name << "' (keep) is not an op";
        return signalPassFailure();
      }
      kept.insert(name);
    }
    llvm::erase_if(patterns.getNativePatterns(),
                   [&](const std::unique_ptr<RewritePattern> &pattern) {
                     std::optional<OperationName> root = pattern->getRootKind();
                     return root && kept.contains(root->getStringRef());
                   });
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config))) {
      getOperation()->emitError(
          "ts-decompose: the decompositions did not reach a fixed point");
      return signalPassFailure();
    }
  }
};

} // namespace

void ts::populateDecompositionPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  decompose::populateRNNPatterns(patterns);
  decompose::populateAttentionPatterns(patterns);
  decompose::populateReductionPatterns(patterns);
  decompose::populateShapePatterns(patterns);
  decompose::populateEinsumPatterns(patterns);
  decompose::populateFactoryPatterns(patterns);
  decompose::populateLossPatterns(patterns);
  decompose::populateSelectionPatterns(patterns);
  decompose::populateMatricesPatterns(patterns);
  decompose::populateFactorizationPatterns(patterns);
  decompose::populateCompositePatterns(patterns);
  decompose::populateSpectralPatterns(patterns);
  decompose::populateIndexingPatterns(patterns);
  decompose::populateStatisticsPatterns(patterns);
  decompose::populatePoolingPatterns(patterns);
  decompose::populateNormalizationPatterns(patterns);
  decompose::populateGradientPatterns(patterns);
  patterns.add<
      DecomposeConvStringPadding,
      DecomposeStatMean<AtenVarMeanOp, AtenVarOp, StatForm::Plain>,
      DecomposeStatMean<AtenVarMeanDimOp, AtenVarDimOp, StatForm::Dim>,
      DecomposeStatMean<AtenVarMeanCorrectionOp, AtenVarCorrectionOp,
                        StatForm::Correction>,
      DecomposeStatMean<AtenStdMeanOp, AtenStdOp, StatForm::Plain>,
      DecomposeStatMean<AtenStdMeanDimOp, AtenStdDimOp, StatForm::Dim>,
      DecomposeStatMean<AtenStdMeanCorrectionOp, AtenStdCorrectionOp,
                        StatForm::Correction>,
      DecomposeVectorProduct<AtenMvOp>, DecomposeVectorProduct<AtenOuterOp>,
      DecomposeVectorProduct<AtenAddmvOp>, DecomposeVectorProduct<AtenAddrOp>,
      DecomposeVectorProduct<AtenAddbmmOp>,
      DecomposeEmbeddingBag<AtenEmbeddingBagOp>,
      DecomposeEmbeddingBag<AtenEmbeddingBagPaddingIdxOp>,
      DecomposeOneDim<AtenConv1dOp>, DecomposeOneDim<AtenConv1dPaddingOp>,
      DecomposeOneDim<Aten_ConvolutionOp>, DecomposeOneDim<AtenMaxPool1dOp>,
      DecomposeOneDim<AtenAvgPool1dOp>,
      DecomposeOneDim<AtenAdaptiveAvgPool1dOp>,
      DecomposeConvTranspose<AtenConvTranspose1dOp>,
      DecomposeConvTranspose<AtenConvTranspose2dInputOp>,
      DecomposeConvTranspose<AtenConvTranspose3dInputOp>,
      DecomposeConvTranspose<Aten_ConvolutionOp>, DecomposeClampTensor,
      DecomposeOneSidedClampTensor<AtenClampMinTensorOp, AtenMaximumOp>,
      DecomposeOneSidedClampTensor<AtenClampMaxTensorOp, AtenMinimumOp>,
      DecomposeNarrowTensor, DecomposeListOfKnown<AtenListTOp>,
      DecomposeListOfKnown<AtenCopyTOp>, DecomposeListOfKnown<AtenAddTOp>>(ctx);
}
