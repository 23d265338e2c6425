//===- NNShapeRules.cpp - Shape rules of neural network layers ------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Convolutions (any number of spatial dims, transposed or not), pooling with
// ceil_mode, normalisation layers, dropout and embedding. Size formulas are
// PyTorch's (conv_output_size, pooling_output_shape).
//
//===----------------------------------------------------------------------===//

#include "ShapeRuleUtils.h"

namespace mlir::tsmlir::ts {
using namespace shape;

/// An `int[N]` argument: a list of N, or one int (or a list of one) that
/// stands for N copies. An empty list gives `empty` (pooling's stride=[]
/// means the kernel size).
static std::optional<SmallVector<int64_t>>
getSpatialList(Value value, unsigned n, const ShapeFacts &facts,
               std::optional<SmallVector<int64_t>> empty = std::nullopt) {
  std::optional<SmallVector<int64_t>> list = facts.getIntList(value, n);
  if (!list)
    return std::nullopt;
  if (list->empty())
    return empty;
  if (list->size() == 1)
    return SmallVector<int64_t>(n, list->front());
  if (list->size() != n)
    return std::nullopt;
  return list;
}

namespace {
struct ConvParams {
  SmallVector<int64_t> stride, padding, dilation, outputPadding;
  bool transposed = false;
  int64_t groups = 1;
};
} // namespace

/// The sizes of a convolution of `input` by `weight` ([out, in/groups, k...]
/// or, transposed, [in, out/groups, k...]); the input may lack the batch dim.
static Sizes convSizes(const Sizes &input, const Sizes &weight,
                       const ConvParams &p) {
  if (!input || !weight || weight->size() < 3)
    return std::nullopt;
  size_t spatial = weight->size() - 2;
  bool batched = input->size() == spatial + 2;
  if (!batched && input->size() != spatial + 1)
    return std::nullopt;
  SmallVector<int64_t> result;
  if (batched)
    result.push_back(input->front());
  result.push_back(p.transposed ? mulSizes((*weight)[1], p.groups)
                                : (*weight)[0]);
  size_t first = batched ? 2 : 1;
  for (size_t i = 0; i < spatial; ++i) {
    int64_t in = (*input)[first + i], k = (*weight)[2 + i];
    int64_t s = p.stride[i], pad = p.padding[i], d = p.dilation[i];
    if (in == kUnknown || k == kUnknown || s <= 0) {
      result.push_back(kUnknown);
      continue;
    }
    if (p.transposed)
      result.push_back((in - 1) * s - 2 * pad + d * (k - 1) +
                       p.outputPadding[i] + 1);
    else
      result.push_back(floorDivSizes(in + 2 * pad - d * (k - 1) - 1, s) + 1);
  }
  return result;
}

/// conv2d and conv3d: (input, weight, bias?, stride, padding, dilation,
/// groups) over `dims` spatial dims.
template <typename OpTy, unsigned dims>
static void convNdRule(Operation *op, const ShapeFacts &facts,
                       SmallVectorImpl<Type> &results) {
  auto conv = llvm::cast<OpTy>(op);
  Value input = conv.getInput(), weight = conv.getWeight();
  Type dtype = getDtype(input);
  Sizes sizes;
  ConvParams p;
  std::optional<SmallVector<int64_t>> stride =
      getSpatialList(conv.getStride(), dims, facts);
  std::optional<SmallVector<int64_t>> padding =
      getSpatialList(conv.getPadding(), dims, facts);
  std::optional<SmallVector<int64_t>> dilation =
      getSpatialList(conv.getDilation(), dims, facts);
  std::optional<int64_t> groups = facts.getInt(conv.getGroups());
  if (stride && padding && dilation && groups) {
    p.stride = *stride;
    p.padding = *padding;
    p.dilation = *dilation;
    p.groups = *groups;
    sizes = convSizes(getSizes(input), getSizes(weight), p);
  }
  results[0] = makeTensor(op->getContext(), dtype, sizes,
                          getCommonDevice({input, weight}));
}

static void convolutionRule(Operation *op, const ShapeFacts &facts,
                            SmallVectorImpl<Type> &results) {
  auto conv = llvm::cast<Aten_ConvolutionOp>(op);
  Value input = conv.getInput(), weight = conv.getWeight();
  Sizes sizes;
  std::optional<int64_t> rank = getRank(weight);
  if (rank && *rank >= 3) {
    unsigned n = *rank - 2;
    std::optional<SmallVector<int64_t>> stride =
        getSpatialList(conv.getStride(), n, facts);
    std::optional<SmallVector<int64_t>> padding =
        getSpatialList(conv.getPadding(), n, facts);
    std::optional<SmallVector<int64_t>> dilation =
        getSpatialList(conv.getDilation(), n, facts);
    std::optional<SmallVector<int64_t>> outputPadding =
        getSpatialList(conv.getOutputPadding(), n, facts);
    std::optional<bool> transposed = facts.getBool(conv.getTransposed());
    std::optional<int64_t> groups = facts.getInt(conv.getGroups());
    if (stride && padding && dilation && outputPadding && transposed &&
        groups) {
      ConvParams p{*stride,        *padding,    *dilation,
                   *outputPadding, *transposed, *groups};
      sizes = convSizes(getSizes(input), getSizes(weight), p);
    }
  }
  results[0] = makeTensor(op->getContext(), getDtype(input), sizes,
                          getCommonDevice({input, weight}));
}

/// Pooling over the last `n` dims of an (n+1)-d or (n+2)-d input.
static Sizes poolSizes(Value self, Value kernel, Value stride, Value padding,
                       Value dilation, Value ceilMode, const ShapeFacts &facts,
                       unsigned n = 2) {
  Sizes sizes = getSizes(self);
  std::optional<SmallVector<int64_t>> k = getSpatialList(kernel, n, facts);
  if (!sizes || (sizes->size() != n + 1 && sizes->size() != n + 2) || !k)
    return std::nullopt;
  std::optional<SmallVector<int64_t>> s = getSpatialList(stride, n, facts, k);
  std::optional<SmallVector<int64_t>> p = getSpatialList(padding, n, facts);
  std::optional<SmallVector<int64_t>> d =
      dilation ? getSpatialList(dilation, n, facts)
               : SmallVector<int64_t>(n, 1);
  std::optional<bool> ceil = facts.getBool(ceilMode);
  if (!s || !p || !d || !ceil)
    return std::nullopt;
  size_t first = sizes->size() - n;
  for (size_t i = 0; i < n; ++i)
    (*sizes)[first + i] = poolSize((*sizes)[first + i], (*k)[i], (*p)[i],
                                   (*s)[i], (*d)[i], *ceil);
  return sizes;
}

/// (self, kernel_size, stride, padding, dilation, ceil_mode) of max_pool2d
/// and max_pool3d (`n` spatial dims), also with indices, whose second
/// result holds Long indices.
template <unsigned n>
static void maxPoolRule(Operation *op, const ShapeFacts &facts,
                        SmallVectorImpl<Type> &results) {
  Value self = op->getOperand(0);
  Sizes sizes =
      poolSizes(self, op->getOperand(1), op->getOperand(2), op->getOperand(3),
                op->getOperand(4), op->getOperand(5), facts, n);
  results[0] = withSizes(self, sizes);
  if (results.size() > 1)
    results[1] = makeTensor(op->getContext(), getLong(op->getContext()), sizes,
                            getDevice(self));
}

/// avg_pool2d and avg_pool3d (`n` spatial dims): (self, kernel_size,
/// stride, padding, ceil_mode, ...).
template <unsigned n>
static void avgPoolRule(Operation *op, const ShapeFacts &facts,
                        SmallVectorImpl<Type> &results) {
  Value self = op->getOperand(0);
  results[0] = withSizes(self, poolSizes(self, op->getOperand(1),
                                         op->getOperand(2), op->getOperand(3),
                                         Value(), op->getOperand(4), facts, n));
}

/// adaptive_avg_pool2d/3d and adaptive_max_pool1d/2d/3d (self,
/// output_size) over the last `n` dims; the max pools' second result holds
/// Long indices.
template <unsigned n>
static void adaptivePoolRule(Operation *op, const ShapeFacts &facts,
                             SmallVectorImpl<Type> &results) {
  Value self = op->getOperand(0);
  Sizes sizes = getSizes(self);
  std::optional<SmallVector<int64_t>> out =
      getSpatialList(op->getOperand(1), n, facts);
  if (sizes && out && sizes->size() >= n) {
    sizes->truncate(sizes->size() - n);
    sizes->append(*out);
  } else {
    sizes.reset();
  }
  results[0] = withSizes(self, sizes);
  if (results.size() > 1)
    results[1] = makeTensor(op->getContext(), getLong(op->getContext()), sizes,
                            getDevice(self));
}

/// grid_sampler(input [N, C, *in], grid [N, *out, k]): [N, C, *out] of the
/// input's dtype.
static void gridSamplerRule(Operation *op, const ShapeFacts &,
                            SmallVectorImpl<Type> &results) {
  Value input = op->getOperand(0);
  Sizes in = getSizes(input), grid = getSizes(op->getOperand(1));
  Sizes sizes;
  if (in && grid && in->size() == grid->size() && in->size() >= 3) {
    sizes = SmallVector<int64_t>{(*in)[0], (*in)[1]};
    sizes->append(grid->begin() + 1, grid->end() - 1);
  }
  results[0] = withSizes(input, sizes);
}

/// _native_multi_head_attention(query [B, L, E], key [B, S, E], ...,
/// num_heads, ..., need_weights, average_attn_weights, ...): the output is
/// like the query; the weights are [B, L, S] averaged over the heads, else
/// [B, H, L, S]. Known here, before ts-decompose expands the op, so that
/// the layers after an attention layer are inferred in the same round.
static void nativeAttentionRule(Operation *op, const ShapeFacts &facts,
                                SmallVectorImpl<Type> &results) {
  Value query = op->getOperand(0), key = op->getOperand(1);
  results[0] = sameAs(query);
  Sizes q = getSizes(query), k = getSizes(key);
  std::optional<int64_t> heads = facts.getInt(op->getOperand(4));
  std::optional<bool> need = facts.getBool(op->getOperand(10));
  std::optional<bool> average = facts.getBool(op->getOperand(11));
  Sizes weights;
  if (q && k && q->size() == 3 && k->size() == 3 && heads && need &&
      average) {
    weights = SmallVector<int64_t>{(*q)[0]};
    if (!(*need && *average))
      weights->push_back(*heads);
    weights->append({(*q)[1], (*k)[1]});
  }
  results[1] = makeTensor(op->getContext(), getDtype(query), weights,
                          getDevice(query));
}

/// embedding(weight [V, D], indices): indices' sizes + [D], weight's dtype.
static void embeddingRule(Operation *op, const ShapeFacts &,
                          SmallVectorImpl<Type> &results) {
  auto embedding = llvm::cast<AtenEmbeddingOp>(op);
  Sizes sizes = getSizes(embedding.getIndices());
  Sizes weight = getSizes(embedding.getWeight());
  if (sizes && weight && weight->size() == 2)
    sizes->push_back((*weight)[1]);
  else
    sizes.reset();
  results[0] = makeTensor(
      op->getContext(), getDtype(embedding.getWeight()), sizes,
      getCommonDevice({embedding.getWeight(), embedding.getIndices()}));
}

/// Layers whose output has the dtype and sizes of the operand `index`.
static ShapeRule sameAsOperand(unsigned index) {
  return
      [=](Operation *op, const ShapeFacts &, SmallVectorImpl<Type> &results) {
        results[0] = sameAs(op->getOperand(index));
      };
}

/// _batch_norm_impl_index_backward(impl_index, input, grad_output, weight,
/// ...): the gradients of input, weight and bias.
static void batchNormBackwardRule(Operation *op, const ShapeFacts &,
                                  SmallVectorImpl<Type> &results) {
  auto backward = llvm::cast<Aten_BatchNormImplIndexBackwardOp>(op);
  results[0] = sameAs(backward.getInput());
  if (getTensorType(backward.getWeight()))
    results[1] = results[2] = sameAs(backward.getWeight());
}

//===----------------------------------------------------------------------===//
// Resampling: padding, rolls, pixel shuffles, upsampling
//===----------------------------------------------------------------------===//

/// pad(self, pad, mode, value) and constant_pad_nd(self, pad, value): the
/// last dims grow by the pairs of `pad` (low, high), the last dim's first;
/// negative amounts crop.
static Sizes padSizes(Operation *op, const ShapeFacts &facts) {
  Sizes sizes = getSizes(op->getOperand(0));
  std::optional<SmallVector<int64_t>> pad = facts.getIntList(op->getOperand(1));
  if (!sizes || !pad || pad->size() % 2 != 0 || pad->size() / 2 > sizes->size())
    return std::nullopt;
  for (size_t i = 0; i < pad->size() / 2; ++i) {
    int64_t &size = (*sizes)[sizes->size() - 1 - i];
    size = addSizes(size, (*pad)[2 * i] + (*pad)[2 * i + 1]);
    if (size != kUnknown && size < 0)
      return std::nullopt;
  }
  return sizes;
}

/// pixel_shuffle(self, r): [..., C, H, W] -> [..., C / r^2, H r, W r];
/// pixel_unshuffle the inverse.
static ShapeRule pixelShuffle(bool inverse) {
  return [=](Operation *op, const ShapeFacts &facts,
             SmallVectorImpl<Type> &results) {
    Value self = op->getOperand(0);
    Sizes sizes = getSizes(self);
    std::optional<int64_t> r = facts.getInt(op->getOperand(1));
    if (sizes && r && *r > 0 && sizes->size() >= 3) {
      size_t c = sizes->size() - 3;
      int64_t area = *r * *r;
      int64_t &channels = (*sizes)[c];
      channels = inverse ? mulSizes(channels, area)
                         : (channels == kUnknown ? kUnknown : channels / area);
      for (size_t i = c + 1; i < sizes->size(); ++i)
        (*sizes)[i] = inverse ? ((*sizes)[i] == kUnknown ? kUnknown
                                                         : (*sizes)[i] / *r)
                              : mulSizes((*sizes)[i], *r);
    } else {
      sizes.reset();
    }
    results[0] = withSizes(self, sizes);
  };
}

/// The float list `value` holds when known (a constant or a
/// prim::ListConstruct of constants).
static std::optional<SmallVector<double>> getFloatList(Value value,
                                                       const ShapeFacts &facts) {
  SmallVector<double> out;
  if (auto array = llvm::dyn_cast_or_null<ArrayAttr>(facts.getConstant(value))) {
    for (Attribute a : array) {
      auto f = llvm::dyn_cast<FloatAttr>(a);
      if (!f)
        return std::nullopt;
      out.push_back(f.getValueAsDouble());
    }
    return out;
  }
  std::optional<SmallVector<Value>> elements = facts.getListElements(value);
  if (!elements)
    return std::nullopt;
  for (Value e : *elements) {
    std::optional<double> f = facts.getFloat(e);
    if (!f)
      return std::nullopt;
    out.push_back(*f);
  }
  return out;
}

/// upsample_{nearest,linear}{1,2}d, bicubic2d and trilinear3d over the last
/// `n` dims: `output_size` (its `.vec` form: or the sizes times
/// `scale_factors`, floored).
static ShapeRule upsample(unsigned n, bool vec) {
  return [=](Operation *op, const ShapeFacts &facts,
             SmallVectorImpl<Type> &results) {
    Value self = op->getOperand(0);
    Sizes sizes = getSizes(self);
    Value outputSize = op->getOperand(1);
    // The scale factors follow align_corners in the linear forms.
    Value scales = op->getOperand(op->getNumOperands() - 1);
    std::optional<SmallVector<int64_t>> out;
    if (!vec || !facts.isNone(outputSize)) {
      out = getSpatialList(outputSize, n, facts);
    } else if (std::optional<SmallVector<double>> factors =
                   getFloatList(scales, facts);
               factors && sizes && sizes->size() >= n &&
               (factors->size() == n || factors->size() == 1)) {
      out.emplace();
      for (unsigned i = 0; i < n; ++i) {
        int64_t in = (*sizes)[sizes->size() - n + i];
        double f = (*factors)[factors->size() == 1 ? 0 : i];
        out->push_back(in == kUnknown ? kUnknown
                                      : static_cast<int64_t>(in * f));
      }
    }
    if (sizes && out && sizes->size() >= n) {
      sizes->truncate(sizes->size() - n);
      sizes->append(*out);
    } else {
      sizes.reset();
    }
    results[0] = withSizes(self, sizes);
  };
}

//===----------------------------------------------------------------------===//
// Rule registration
//===----------------------------------------------------------------------===//

void populateNNShapeRules(ShapeRuleSet &rules) {
  rules.add<AtenPadOp, AtenConstantPadNdOp>(
      [](Operation *op, const ShapeFacts &facts,
         SmallVectorImpl<Type> &results) {
        results[0] = withSizes(op->getOperand(0), padSizes(op, facts));
      });
  rules.add<AtenRollOp>(sameAsOperand(0));
  rules.add<Aten_NativeMultiHeadAttentionOp>(nativeAttentionRule);
  rules.add<Aten_TransformerEncoderLayerFwdOp>(sameAsOperand(0));
  rules.add<AtenPixelShuffleOp>(pixelShuffle(/*inverse=*/false));
  rules.add<AtenPixelUnshuffleOp>(pixelShuffle(/*inverse=*/true));
  rules.add<AtenUpsampleNearest1dOp, AtenUpsampleLinear1dOp>(
      upsample(1, /*vec=*/false));
  rules.add<AtenUpsampleNearest2dOp, AtenUpsampleBilinear2dOp,
            AtenUpsampleBicubic2dOp>(upsample(2, /*vec=*/false));
  rules.add<AtenUpsampleNearest1dVecOp, AtenUpsampleLinear1dVecOp>(
      upsample(1, /*vec=*/true));
  rules.add<AtenUpsampleNearest2dVecOp, AtenUpsampleBilinear2dVecOp,
            AtenUpsampleBicubic2dVecOp>(upsample(2, /*vec=*/true));
  rules.add<AtenUpsampleNearest3dOp, AtenUpsampleTrilinear3dOp>(
      upsample(3, /*vec=*/false));
  rules.add<AtenUpsampleNearest3dVecOp, AtenUpsampleTrilinear3dVecOp>(
      upsample(3, /*vec=*/true));
  rules.add<AtenConv2dOp>(convNdRule<AtenConv2dOp, 2>);
  rules.add<AtenConv3dOp>(convNdRule<AtenConv3dOp, 3>);
  rules.add<Aten_ConvolutionOp>(convolutionRule);
  rules.add<AtenMaxPool2dOp, AtenMaxPool2dWithIndicesOp>(maxPoolRule<2>);
  rules.add<AtenMaxPool3dOp, AtenMaxPool3dWithIndicesOp>(maxPoolRule<3>);
  rules.add<AtenAvgPool2dOp>(avgPoolRule<2>);
  rules.add<AtenAvgPool3dOp>(avgPoolRule<3>);
  rules.add<AtenGridSamplerOp>(gridSamplerRule);
  rules.add<AtenAdaptiveMaxPool1dOp>(adaptivePoolRule<1>);
  rules.add<AtenAdaptiveAvgPool2dOp, AtenAdaptiveMaxPool2dOp>(
      adaptivePoolRule<2>);
  rules.add<AtenAdaptiveAvgPool3dOp, AtenAdaptiveMaxPool3dOp>(
      adaptivePoolRule<3>);
  rules.add<AtenEmbeddingOp>(embeddingRule);
  rules.add<AtenBatchNormOp, Aten_BatchNormImplIndexOp, AtenLayerNormOp,
            AtenGroupNormOp, AtenDropoutOp>(sameAsOperand(0));
  // (grad_output, self, ...) -> grad of self.
  rules.add<AtenMaxPool2dWithIndicesBackwardOp>(sameAsOperand(1));
  rules.add<Aten_BatchNormImplIndexBackwardOp>(batchNormBackwardRule);
}

} // namespace mlir::tsmlir::ts
