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

static void conv2dRule(Operation *op, const ShapeFacts &facts,
                       SmallVectorImpl<Type> &results) {
  auto conv = llvm::cast<AtenConv2dOp>(op);
  Value input = conv.getInput(), weight = conv.getWeight();
  Type dtype = getDtype(input);
  Sizes sizes;
  ConvParams p;
  std::optional<SmallVector<int64_t>> stride =
      getSpatialList(conv.getStride(), 2, facts);
  std::optional<SmallVector<int64_t>> padding =
      getSpatialList(conv.getPadding(), 2, facts);
  std::optional<SmallVector<int64_t>> dilation =
      getSpatialList(conv.getDilation(), 2, facts);
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

/// PyTorch's pooling_output_shape.
static int64_t poolSize(int64_t in, int64_t k, int64_t pad, int64_t stride,
                        int64_t dilation, bool ceilMode) {
  if (in == kUnknown || stride <= 0)
    return kUnknown;
  int64_t out = floorDivSizes(in + 2 * pad - dilation * (k - 1) - 1 +
                                  (ceilMode ? stride - 1 : 0),
                              stride) +
                1;
  if (ceilMode && (out - 1) * stride >= in + pad)
    --out;
  return out;
}

/// max_pool2d and avg_pool2d over the last two dims of a 3-d or 4-d input.
static Sizes pool2dSizes(Value self, Value kernel, Value stride, Value padding,
                         Value dilation, Value ceilMode,
                         const ShapeFacts &facts) {
  Sizes sizes = getSizes(self);
  std::optional<SmallVector<int64_t>> k = getSpatialList(kernel, 2, facts);
  if (!sizes || (sizes->size() != 3 && sizes->size() != 4) || !k)
    return std::nullopt;
  std::optional<SmallVector<int64_t>> s = getSpatialList(stride, 2, facts, k);
  std::optional<SmallVector<int64_t>> p = getSpatialList(padding, 2, facts);
  std::optional<SmallVector<int64_t>> d =
      dilation ? getSpatialList(dilation, 2, facts)
               : SmallVector<int64_t>{1, 1};
  std::optional<bool> ceil = facts.getBool(ceilMode);
  if (!s || !p || !d || !ceil)
    return std::nullopt;
  size_t first = sizes->size() - 2;
  for (size_t i = 0; i < 2; ++i)
    (*sizes)[first + i] = poolSize((*sizes)[first + i], (*k)[i], (*p)[i],
                                   (*s)[i], (*d)[i], *ceil);
  return sizes;
}

static void maxPool2dRule(Operation *op, const ShapeFacts &facts,
                          SmallVectorImpl<Type> &results) {
  // (self, kernel_size, stride, padding, dilation, ceil_mode), also for
  // max_pool2d_with_indices, whose second result holds Long indices.
  Value self = op->getOperand(0);
  Sizes sizes =
      pool2dSizes(self, op->getOperand(1), op->getOperand(2), op->getOperand(3),
                  op->getOperand(4), op->getOperand(5), facts);
  results[0] = withSizes(self, sizes);
  if (results.size() > 1)
    results[1] = makeTensor(op->getContext(), getLong(op->getContext()), sizes,
                            getDevice(self));
}

static void avgPool2dRule(Operation *op, const ShapeFacts &facts,
                          SmallVectorImpl<Type> &results) {
  auto pool = llvm::cast<AtenAvgPool2dOp>(op);
  Value self = pool.getSelf();
  results[0] = withSizes(self, pool2dSizes(self, pool.getKernelSize(),
                                           pool.getStride(), pool.getPadding(),
                                           Value(), pool.getCeilMode(), facts));
}

static void adaptiveAvgPool2dRule(Operation *op, const ShapeFacts &facts,
                                  SmallVectorImpl<Type> &results) {
  auto pool = llvm::cast<AtenAdaptiveAvgPool2dOp>(op);
  Sizes sizes = getSizes(pool.getSelf());
  std::optional<SmallVector<int64_t>> out =
      getSpatialList(pool.getOutputSize(), 2, facts);
  if (sizes && out && sizes->size() >= 2) {
    sizes->truncate(sizes->size() - 2);
    sizes->append(*out);
  } else {
    sizes.reset();
  }
  results[0] = withSizes(pool.getSelf(), sizes);
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
// Rule registration
//===----------------------------------------------------------------------===//

void populateNNShapeRules(ShapeRuleSet &rules) {
  rules.add<AtenConv2dOp>(conv2dRule);
  rules.add<Aten_ConvolutionOp>(convolutionRule);
  rules.add<AtenMaxPool2dOp, AtenMaxPool2dWithIndicesOp>(maxPool2dRule);
  rules.add<AtenAvgPool2dOp>(avgPool2dRule);
  rules.add<AtenAdaptiveAvgPool2dOp>(adaptiveAvgPool2dRule);
  rules.add<AtenEmbeddingOp>(embeddingRule);
  rules.add<AtenBatchNormOp, Aten_BatchNormImplIndexOp, AtenLayerNormOp,
            AtenGroupNormOp, AtenDropoutOp>(sameAsOperand(0));
  // (grad_output, self, ...) -> grad of self.
  rules.add<AtenMaxPool2dWithIndicesBackwardOp>(sameAsOperand(1));
  rules.add<Aten_BatchNormImplIndexBackwardOp>(batchNormBackwardRule);
}

} // namespace mlir::tsmlir::ts
