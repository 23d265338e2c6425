//===- DecomposeAttention.cpp - Fused attention ops as their parts -------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The fused kernels torch.nn's attention modules call on their fast path
// (taken in evaluation mode with grad mode off, as compiled code runs),
// written as the ops PyTorch's CPU kernels compute:
//
//   _native_multi_head_attention     in-projection (q scaled by 1/sqrt(head
//                                    dim) after its bias), per-head q k^T,
//                                    masked softmax, weighted sum of v,
//                                    out-projection; weights averaged over
//                                    the heads when asked
//   _transformer_encoder_layer_fwd   attention, residual add, layer norms
//                                    (before or after), relu or gelu
//                                    feed-forward, residual add
//
// Masks (bool, or any dtype where non-zero masks) are the key-padding mask
// ([B, S], mask_type 1) or the attention mask ([L, S], mask_type 0); a row
// masked everywhere gives zero weights, as PyTorch's masked softmax does.
//
//===----------------------------------------------------------------------===//

#include "DecomposeUtils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::decompose;

namespace {

/// The operands of one multi-head attention, checked before anything is
/// built.
struct AttentionArgs {
  Value query, key, value;
  int64_t heads = 0;
  Value qkvWeight, qkvBias, projWeight, projBias;
  Value mask; // null: none
  int64_t maskType = 0;
  SmallVector<int64_t> querySizes, keySizes; // [B, L, E], [B, S, E]
};

/// Checks what buildAttention needs: batched inputs of known sizes whose
/// features are `embed`, a head count that divides it, a mask of a known
/// type and rank.
LogicalResult checkAttention(PatternRewriter &rewriter, Operation *op,
                             AttentionArgs &a, Value embedDim, Value numHeads,
                             Value maskTypeValue) {
  std::optional<int64_t> embed = constInt(embedDim);
  std::optional<int64_t> heads = constInt(numHeads);
  if (!embed || !heads || *heads <= 0 || *embed % *heads != 0)
    return rewriter.notifyMatchFailure(
        op, "embed_dim and num_heads are not constants, or do not divide");
  a.heads = *heads;
  std::optional<SmallVector<int64_t>> q = staticSizes(a.query);
  std::optional<SmallVector<int64_t>> k = staticSizes(a.key);
  std::optional<SmallVector<int64_t>> v = staticSizes(a.value);
  if (!q || !k || !v || q->size() != 3 || k->size() != 3 || *k != *v ||
      (*q)[2] != *embed || (*k)[2] != *embed || (*q)[0] != (*k)[0])
    return rewriter.notifyMatchFailure(
        op, "query, key and value are not [B, L, E] of known sizes");
  a.querySizes = *q;
  a.keySizes = *k;
  if (a.mask && llvm::isa<ts::NoneType>(a.mask.getType()))
    a.mask = Value();
  if (a.mask) {
    std::optional<int64_t> type = constInt(maskTypeValue);
    std::optional<SmallVector<int64_t>> m = staticSizes(a.mask);
    if (!type || !m)
      return rewriter.notifyMatchFailure(
          op, "mask_type is not a constant or the mask's sizes are unknown");
    SmallVector<int64_t> expected =
        *type == 1 ? SmallVector<int64_t>{(*q)[0], (*k)[1]}
                   : SmallVector<int64_t>{(*q)[1], (*k)[1]};
    if ((*type != 0 && *type != 1) || *m != expected)
      return rewriter.notifyMatchFailure(
          op, "the mask is neither [B, S] (type 1) nor [L, S] (type 0)");
    a.maskType = *type;
  }
  return success();
}

/// [B, T, E] -> [B, heads, T, E / heads].
Value splitHeads(TSBuilder &t, Value x, int64_t batch, int64_t length,
                 int64_t heads, int64_t headDim) {
  return t.transpose(t.reshape(x, {batch, length, heads, headDim}), 1, 2);
}

/// The attention output [B, L, E] and its per-head weights [B, H, L, S].
std::pair<Value, Value> buildAttention(TSBuilder &t, const AttentionArgs &a) {
  int64_t batch = a.querySizes[0], length = a.querySizes[1],
          embed = a.querySizes[2], source = a.keySizes[1];
  int64_t headDim = embed / a.heads;
  auto part = [&](Value x, int64_t i) { return t.narrow(x, 0, i * embed, embed); };
  Value q = t.linear(a.query, part(a.qkvWeight, 0), part(a.qkvBias, 0));
  Value k = t.linear(a.key, part(a.qkvWeight, 1), part(a.qkvBias, 1));
  Value v = t.linear(a.value, part(a.qkvWeight, 2), part(a.qkvBias, 2));
  q = AtenMulScalarOp::create(t.b, t.loc, t.tensor(), q,
                              t.f(1.0 / std::sqrt(double(headDim))));
  q = splitHeads(t, q, batch, length, a.heads, headDim);
  k = splitHeads(t, k, batch, source, a.heads, headDim);
  v = splitHeads(t, v, batch, source, a.heads, headDim);
  Value scores = t.matmul(q, t.transpose(k, 2, 3));
  Value masked;
  if (a.mask) {
    masked = AtenNeScalarOp::create(t.b, t.loc, t.tensor(), a.mask, t.i(0));
    if (a.maskType == 1)
      masked = t.reshape(masked, {batch, 1, 1, source});
    scores = AtenMaskedFillScalarOp::create(
        t.b, t.loc, t.tensor(), scores, masked,
        t.f(-std::numeric_limits<double>::infinity()));
  }
  Value weights =
      AtenSoftmaxIntOp::create(t.b, t.loc, t.tensor(), scores, t.i(-1), t.none());
  if (masked)
    weights = AtenMaskedFillScalarOp::create(t.b, t.loc, t.tensor(), weights,
                                             masked, t.f(0));
  Value context = t.matmul(weights, v);
  context = t.reshape(t.transpose(context, 1, 2), {batch, length, embed});
  return {t.linear(context, a.projWeight, a.projBias), weights};
}

/// _native_multi_head_attention(query, key, value, embed_dim, num_head,
/// qkv_weight, qkv_bias, proj_weight, proj_bias, mask?, need_weights,
/// average_attn_weights, mask_type?) -> (output, weights). The weights are
/// averaged over the heads when need_weights and average_attn_weights, else
/// per head (PyTorch returns them even when need_weights is false).
struct DecomposeNativeAttention
    : public OpRewritePattern<Aten_NativeMultiHeadAttentionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(Aten_NativeMultiHeadAttentionOp op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    AttentionArgs a;
    a.query = raw->getOperand(0);
    a.key = raw->getOperand(1);
    a.value = raw->getOperand(2);
    a.qkvWeight = raw->getOperand(5);
    a.qkvBias = raw->getOperand(6);
    a.projWeight = raw->getOperand(7);
    a.projBias = raw->getOperand(8);
    a.mask = raw->getOperand(9);
    std::optional<bool> needWeights = constBool(raw->getOperand(10));
    std::optional<bool> average = constBool(raw->getOperand(11));
    if (!needWeights || !average)
      return rewriter.notifyMatchFailure(
          op, "need_weights or average_attn_weights is not a constant");
    if (failed(checkAttention(rewriter, raw, a, raw->getOperand(3),
                              raw->getOperand(4), raw->getOperand(12))))
      return failure();
    TSBuilder t{rewriter, op.getLoc()};
    auto [output, weights] = buildAttention(t, a);
    if (*needWeights && *average) {
      Value sum = AtenSumDimIntListOp::create(
          rewriter, op.getLoc(), t.tensor(), weights, intListValue(t, {1}),
          t.flag(false), t.none());
      weights = AtenDivScalarOp::create(rewriter, op.getLoc(), t.tensor(), sum,
                                        t.i(a.heads));
    }
    replaceWithDeclaredTypes(rewriter, raw, {output, weights});
    return success();
  }
};

/// _transformer_encoder_layer_fwd(src, embed_dim, num_heads, qkv_weight,
/// qkv_bias, proj_weight, proj_bias, use_gelu, norm_first, eps, norm 1
/// weight and bias, norm 2 weight and bias, ffn 1 weight and bias, ffn 2
/// weight and bias, mask?, mask_type?).
struct DecomposeEncoderLayer
    : public OpRewritePattern<Aten_TransformerEncoderLayerFwdOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(Aten_TransformerEncoderLayerFwdOp op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    Value src = raw->getOperand(0);
    std::optional<bool> useGelu = constBool(raw->getOperand(7));
    std::optional<bool> normFirst = constBool(raw->getOperand(8));
    if (!useGelu || !normFirst)
      return rewriter.notifyMatchFailure(
          op, "use_gelu or norm_first is not a constant");
    AttentionArgs a;
    a.query = a.key = a.value = src;
    a.qkvWeight = raw->getOperand(3);
    a.qkvBias = raw->getOperand(4);
    a.projWeight = raw->getOperand(5);
    a.projBias = raw->getOperand(6);
    a.mask = raw->getOperand(18);
    if (failed(checkAttention(rewriter, raw, a, raw->getOperand(1),
                              raw->getOperand(2), raw->getOperand(19))))
      return failure();
    TSBuilder t{rewriter, op.getLoc()};
    Value eps = raw->getOperand(9);
    auto norm = [&](Value x, unsigned weight) {
      return AtenLayerNormOp::create(
          rewriter, op.getLoc(), t.tensor(), x,
          intListValue(t, {a.querySizes[2]}), raw->getOperand(weight),
          raw->getOperand(weight + 1), eps, t.flag(true));
    };
    Value x = *normFirst ? norm(src, 10).getResult() : src;
    a.query = a.key = a.value = x;
    x = t.add(buildAttention(t, a).first, src);
    if (!*normFirst)
      x = norm(x, 10);
    Value residual = x;
    if (*normFirst)
      x = norm(x, 12);
    Value hidden = t.linear(x, raw->getOperand(14), raw->getOperand(15));
    hidden = *useGelu ? AtenGeluOp::create(rewriter, op.getLoc(), t.tensor(),
                                           hidden, t.str("none"))
                            .getResult()
                      : t.relu(hidden);
    x = t.add(t.linear(hidden, raw->getOperand(16), raw->getOperand(17)),
              residual);
    if (!*normFirst)
      x = norm(x, 12);
    replaceWithDeclaredTypes(rewriter, raw, {x});
    return success();
  }
};

} // namespace

void decompose::populateAttentionPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeNativeAttention, DecomposeEncoderLayer>(
      patterns.getContext());
}
