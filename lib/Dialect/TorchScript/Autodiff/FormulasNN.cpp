//===- FormulasNN.cpp - Derivatives of normalisation, conv and pooling ----===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   layer_norm,          with x^ = (x - mean) rstd over the normalised dims
//   native_layer_norm,   (group_norm: within each group of channels)
//   group_norm,
//   batch_norm           (batch statistics: layer_norm's over the normalised
//   (training)           dims, batch_norm's over every dim but the
//                        channels): rstd (g' - mean(g') - x^ mean(g' x^)),
//                        g' = g w; weight: sum of g x^, bias: sum of g over
//                        the other dims
//   batch_norm (eval)    g w rsqrt(running_var + eps); weight and bias as
//                        above with the running statistics
//   conv1d, conv2d,      input: conv_transpose2d of g by the weight (the
//   _convolution         output padding restoring the input's sizes);
//                        weight: per group, the conv of the input's
//                        channels by g's as the kernel (stride and dilation
//                        exchanged), cut to the kernel's sizes; bias: g
//                        summed over all but the channels (1-D as 2-D of
//                        height 1)
//   max_pool2d, 3d,      g added at the window maxima's indices
//   adaptive_max_pool2d  (max_pool2d_with_indices; the op's own indices)
//   adaptive_avg_pool2d, g spread over each output's window, divided by what
//   avg_pool2d           the window's sum was (its size; avg_pool's with or
//                        without the padding, or the divisor override):
//                        P_h^T g P_w with the windows' averaging matrices
//
//===----------------------------------------------------------------------===//

#include "Formulas.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::autodiff;
using namespace mlir::tsmlir::ts::decompose;

static Value meanKept(TSBuilder &t, Value x, ArrayRef<int64_t> dims) {
  return AtenMeanDimOp::create(t.b, t.loc, t.tensor(), x, t.sizes(dims),
                               t.flag(true), t.none());
}

/// The sum of `x` over `dims`, not kept; `x` itself for no dims (a sum
/// over an empty list would reduce every dim).
static Value sumOver(TSBuilder &t, Value x, ArrayRef<int64_t> dims) {
  if (dims.empty())
    return x;
  return AtenSumDimIntListOp::create(t.b, t.loc, t.tensor(), x, t.sizes(dims),
                                     t.flag(false), t.none());
}

/// The input's gradient through a normalisation by batch statistics over
/// `dims`: rstd (g' - mean(g') - x^ mean(g' x^)).
static Value normalizedInputGrad(TSBuilder &t, Value gHat, Value xHat,
                                 Value rstd, ArrayRef<int64_t> dims) {
  Value centred = t.sub(gHat, meanKept(t, gHat, dims));
  Value projected = t.mul(xHat, meanKept(t, t.mul(gHat, xHat), dims));
  return t.mul(rstd, t.sub(centred, projected));
}

/// (x^, rstd) of `x` normalised over `dims` by its own statistics.
static std::pair<Value, Value> batchStatistics(TSBuilder &t, Value x,
                                               ArrayRef<int64_t> dims,
                                               Value eps) {
  Value centred = t.sub(x, meanKept(t, x, dims));
  Value var = meanKept(t, t.mul(centred, centred), dims);
  Value rstd = AtenRsqrtOp::create(
      t.b, t.loc, t.tensor(),
      AtenAddScalarOp::create(t.b, t.loc, t.tensor(), var, eps, t.i(1)));
  return {t.mul(centred, rstd), rstd};
}

/// `v` [C] viewed to broadcast along dim 1 of a tensor of `rank` dims.
static Value perChannel(TSBuilder &t, Value v, int64_t channels,
                        int64_t rank) {
  SmallVector<int64_t> sizes(rank, 1);
  sizes[1] = channels;
  return reshapeTo(t, v, sizes);
}

/// zeros of `x`'s sizes with `g` added at `indices` (both of the pooled
/// sizes `gs`), which count the elements of each plane (the last `spatial`
/// dims) of `x`, as max pooling's indices do.
static Value addAtPlaneIndices(TSBuilder &t, Value x, Value indices, Value g,
                               ArrayRef<int64_t> gs, int64_t spatial = 2) {
  SmallVector<int64_t> xs = sizesOf(x);
  int64_t rank = xs.size();
  SmallVector<int64_t> flatX(xs.begin(), xs.end() - spatial), flatG(flatX);
  int64_t planeX = 1, planeG = 1;
  for (int64_t d = rank - spatial; d < rank; ++d) {
    planeX *= xs[d];
    planeG *= gs[d];
  }
  flatX.push_back(planeX);
  flatG.push_back(planeG);
  Value added = AtenScatterAddOp::create(
      t.b, t.loc, t.tensor(), zerosLike(t, reshapeTo(t, x, flatX)),
      t.i(rank - spatial), reshapeTo(t, indices, flatG),
      reshapeTo(t, g, flatG));
  return reshapeTo(t, added, xs);
}

/// One output's window along a dim: the input elements [start, end) it
/// averages, and what their sum is divided by along this dim.
struct Window {
  int64_t start, end, factor;
};

/// The matrix [out, in] whose row i holds 1 / factor over window i.
static Value windowMatrix(TSBuilder &t, ArrayRef<Window> windows, int64_t in,
                          Type dtype) {
  int64_t out = windows.size();
  SmallVector<int64_t> ones(out * in, 0), factors;
  for (auto [i, w] : llvm::enumerate(windows)) {
    for (int64_t j = w.start; j < w.end; ++j)
      ones[i * in + j] = 1;
    factors.push_back(std::max<int64_t>(w.factor, 1));
  }
  Value indicator = t.castTo(t.longs(ones, {out, in}), dtype);
  return t.div(indicator, t.longs(factors, {out, 1}));
}

/// Adaptive pooling's windows: [floor(i in / out), ceil((i + 1) in / out)).
static SmallVector<Window> adaptiveWindows(int64_t out, int64_t in) {
  SmallVector<Window> windows;
  for (int64_t i = 0; i < out; ++i) {
    int64_t start = (i * in) / out, end = ((i + 1) * in + out - 1) / out;
    windows.push_back({start, end, end - start});
  }
  return windows;
}

/// avg_pool's windows (PyTorch's kernel): from i s - p, k long but not
/// past in + p; divided by that length with count_include_pad, else by the
/// part inside the input (1 with a divisor override, applied apart).
static SmallVector<Window> poolWindows(int64_t out, int64_t in, int64_t k,
                                       int64_t s, int64_t p,
                                       bool countPadding, bool overridden) {
  SmallVector<Window> windows;
  for (int64_t i = 0; i < out; ++i) {
    int64_t start = i * s - p, end = std::min(start + k, in + p);
    int64_t padded = end - start;
    start = std::max<int64_t>(start, 0);
    end = std::min(end, in);
    int64_t factor = overridden ? 1 : countPadding ? padded : end - start;
    windows.push_back({start, end, factor});
  }
  return windows;
}

/// The input's gradient of a separable 2-D average over the last two dims:
/// P_h^T g P_w.
static Value spreadOverWindows(TSBuilder &t, Value g, ArrayRef<Window> rows,
                               ArrayRef<Window> cols, int64_t h, int64_t w,
                               Type dtype) {
  Value ph = windowMatrix(t, rows, h, dtype);
  Value pw = windowMatrix(t, cols, w, dtype);
  return t.matmul(t.matmul(t.transpose(ph, 0, 1), g), pw);
}

/// The gradients of a 1-D, 2-D or 3-D convolution of operands 0 (input) and
/// 1 (weight) and `bias`, a 1-D one computed on 2-D views (as height 1):
/// the input's by conv_transpose2d (3d) of g by the weight (the output
/// padding restoring the input's sizes); the weight's, per group, by the
/// conv of the input's channels by g's as the kernel (stride and dilation
/// exchanged), cut to the kernel's sizes; the bias's by summing g over all
/// but the channels.
static LogicalResult convolutionGrads(GradContext &c, Value bias,
                                      Value strideArg, Value paddingArg,
                                      Value dilationArg, Value groupsArg,
                                      int64_t spatial) {
  TSBuilder &t = c.t;
  Value x = c.operand(0), w = c.operand(1), g = c.grad();
  std::optional<SmallVector<int64_t>> stride = intList(strideArg, spatial);
  std::optional<SmallVector<int64_t>> padding = intList(paddingArg, spatial);
  std::optional<SmallVector<int64_t>> dilation =
      intList(dilationArg, spatial);
  std::optional<int64_t> groups = constInt(groupsArg);
  SmallVector<int64_t> xs = sizesOf(x), ws = sizesOf(w);
  bool unbatched = static_cast<int64_t>(xs.size()) == spatial + 1;
  if (!stride || !padding || !dilation || !groups ||
      (static_cast<int64_t>(xs.size()) != spatial + 2 && !unbatched) ||
      spatial < 1 || spatial > 3)
    return c.refuse("arguments not constant, or not a 1-D, 2-D or 3-D "
                    "convolution");
  if (unbatched) {
    x = t.unsqueeze(x, 0);
    g = t.unsqueeze(g, 0);
  }
  if (spatial == 1) {
    // [N, C, L] as [N, C, 1, L].
    x = t.unsqueeze(x, 2);
    w = t.unsqueeze(w, 2);
    g = t.unsqueeze(g, 2);
    stride->insert(stride->begin(), 1);
    padding->insert(padding->begin(), 0);
    dilation->insert(dilation->begin(), 1);
  }
  SmallVector<int64_t> x4 = sizesOf(c.operand(0)), w4 = sizesOf(c.operand(1)),
                       g4 = sizesOf(c.result());
  if (unbatched) {
    x4.insert(x4.begin(), 1);
    g4.insert(g4.begin(), 1);
  }
  if (spatial == 1) {
    x4.insert(x4.begin() + 2, 1);
    w4.insert(w4.begin() + 2, 1);
    g4.insert(g4.begin() + 2, 1);
  }
  int64_t dims = std::max<int64_t>(spatial, 2);
  SmallVector<int64_t> outputPadding;
  for (int64_t i = 0; i < dims; ++i)
    outputPadding.push_back(x4[2 + i] -
                            ((g4[2 + i] - 1) * (*stride)[i] -
                             2 * (*padding)[i] +
                             (*dilation)[i] * (w4[2 + i] - 1) + 1));
  Value gx = dims == 3
                 ? Value(AtenConvTranspose3dInputOp::create(
                       t.b, t.loc, t.tensor(), g, w, t.none(), t.sizes(*stride),
                       t.sizes(*padding), t.sizes(outputPadding), t.i(*groups),
                       t.sizes(*dilation)))
                 : AtenConvTranspose2dInputOp::create(
                       t.b, t.loc, t.tensor(), g, w, t.none(), t.sizes(*stride),
                       t.sizes(*padding), t.sizes(outputPadding), t.i(*groups),
                       t.sizes(*dilation));
  int64_t inPerGroup = x4[1] / *groups, outPerGroup = w4[0] / *groups;
  SmallVector<Value> parts;
  for (int64_t k = 0; k < *groups; ++k) {
    Value xg = t.transpose(t.narrow(x, 1, k * inPerGroup, inPerGroup), 0, 1);
    Value gg = t.transpose(t.narrow(g, 1, k * outPerGroup, outPerGroup), 0, 1);
    Value conv =
        dims == 3
            ? Value(AtenConv3dOp::create(
                  t.b, t.loc, t.tensor(), xg, gg, t.none(), t.sizes(*dilation),
                  t.sizes(*padding), t.sizes(*stride), t.i(1)))
            : AtenConv2dOp::create(t.b, t.loc, t.tensor(), xg, gg, t.none(),
                                   t.sizes(*dilation), t.sizes(*padding),
                                   t.sizes(*stride), t.i(1));
    // [in, out, k...'] -> [out, in, k...].
    Value part = t.transpose(conv, 0, 1);
    for (int64_t i = 0; i < dims; ++i)
      part = t.narrow(part, 2 + i, 0, w4[2 + i]);
    parts.push_back(part);
  }
  Value gw = parts.size() == 1 ? parts.front() : t.cat(parts, 0);
  c.giveExact(c.operand(0), reshapeTo(t, gx, xs));
  c.giveExact(c.operand(1), reshapeTo(t, gw, ws));
  if (!isNone(bias)) {
    SmallVector<int64_t> others = {0};
    for (int64_t d = 2; d < spatial + 2; ++d)
      others.push_back(d);
    if (unbatched)
      others.erase(others.begin());
    for (int64_t &d : others)
      d -= unbatched;
    c.giveExact(bias, sumOver(t, c.grad(), others));
  }
  return success();
}

void autodiff::populateNNFormulas(FormulaTable &table) {
  table.add<AtenLayerNormOp, AtenNativeLayerNormOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    // native_layer_norm's mean and rstd carry no gradient: PyTorch's
    // formula reads the output's alone.
    if (!c.grad(0))
      return success();
    Value x = c.operand(0), w = c.operand(2), b = c.operand(3);
    std::optional<SmallVector<int64_t>> shape = constIntList(c.operand(1));
    if (!shape)
      return c.refuse("normalized_shape not constant");
    int64_t rank = sizesOf(x).size();
    int64_t axis = rank - shape->size();
    SmallVector<int64_t> normalized, batch;
    for (int64_t d = 0; d < rank; ++d)
      (d >= axis ? normalized : batch).push_back(d);
    auto [xHat, rstd] = batchStatistics(t, x, normalized, c.operand(4));
    Value g = c.grad();
    Value gHat = isNone(w) ? g : t.mul(g, w);
    c.giveExact(x, normalizedInputGrad(t, gHat, xHat, rstd, normalized));
    if (!isNone(w))
      c.giveExact(w, sumOver(t, t.mul(g, xHat), batch));
    if (!isNone(b))
      c.giveExact(b, sumOver(t, g, batch));
    return success();
  });
  // group_norm: layer_norm's gradient within each group of channels.
  table.add<AtenGroupNormOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0), w = c.operand(2), b = c.operand(3);
    std::optional<int64_t> groups = constInt(c.operand(1));
    SmallVector<int64_t> sizes = sizesOf(x);
    int64_t rank = sizes.size();
    if (!groups || *groups <= 0 || rank < 2)
      return c.refuse("num_groups not constant, or no channel dim");
    int64_t n = sizes[0], channels = sizes[1];
    SmallVector<int64_t> grouped = {n, *groups, -1}, others = {0};
    for (int64_t d = 2; d < rank; ++d)
      others.push_back(d);
    auto [xHatGroups, rstd] =
        batchStatistics(t, reshapeTo(t, x, grouped), {2}, c.operand(4));
    Value xHat = reshapeTo(t, xHatGroups, sizes);
    Value g = c.grad();
    Value gHat = isNone(w) ? g : t.mul(g, perChannel(t, w, channels, rank));
    Value gx = normalizedInputGrad(t, reshapeTo(t, gHat, grouped), xHatGroups,
                                   rstd, {2});
    c.giveExact(x, reshapeTo(t, gx, sizes));
    if (!isNone(w))
      c.giveExact(w, sumOver(t, t.mul(g, xHat), others));
    if (!isNone(b))
      c.giveExact(b, sumOver(t, g, others));
    return success();
  });
  table.add<AtenBatchNormOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0), w = c.operand(1), b = c.operand(2);
    Value mean = c.operand(3), var = c.operand(4);
    std::optional<bool> training = constBool(c.operand(5));
    if (!training)
      return c.refuse("training not constant");
    SmallVector<int64_t> sizes = sizesOf(x);
    int64_t rank = sizes.size();
    if (rank < 2)
      return c.refuse("the input has no channel dim");
    int64_t channels = sizes[1];
    SmallVector<int64_t> others;
    for (int64_t d = 0; d < rank; ++d)
      if (d != 1)
        others.push_back(d);
    Value g = c.grad();
    Value wv = isNone(w) ? Value() : perChannel(t, w, channels, rank);
    Value gHat = wv ? t.mul(g, wv) : g;
    Value xHat;
    if (*training || isNone(mean) || isNone(var)) {
      auto [normalized, rstd] = batchStatistics(t, x, others, c.operand(7));
      xHat = normalized;
      c.giveExact(x, normalizedInputGrad(t, gHat, xHat, rstd, others));
    } else {
      Value rstd = AtenRsqrtOp::create(
          t.b, t.loc, t.tensor(),
          AtenAddScalarOp::create(t.b, t.loc, t.tensor(), var, c.operand(7),
                                  t.i(1)));
      Value rstdv = perChannel(t, rstd, channels, rank);
      xHat = t.mul(t.sub(x, perChannel(t, mean, channels, rank)), rstdv);
      c.giveExact(x, t.mul(gHat, rstdv));
    }
    if (wv)
      c.giveExact(w, sumOver(t, t.mul(g, xHat), others));
    if (!isNone(b))
      c.giveExact(b, sumOver(t, g, others));
    return success();
  });
  table.add<AtenConv3dOp, AtenConv2dOp, AtenConv1dOp>([](GradContext &c) {
    int64_t spatial = llvm::isa<AtenConv1dOp>(c.op)   ? 1
                      : llvm::isa<AtenConv3dOp>(c.op) ? 3
                                                      : 2;
    return convolutionGrads(c, c.operand(2), c.operand(3), c.operand(4),
                            c.operand(5), c.operand(6), spatial);
  });
  // _convolution (traced graphs): a convolution unless `transposed`.
  table.add<Aten_ConvolutionOp>([](GradContext &c) {
    std::optional<bool> transposed = constBool(c.operand(6));
    if (!transposed || *transposed)
      return c.refuse("a transposed convolution");
    int64_t spatial = static_cast<int64_t>(sizesOf(c.operand(0)).size()) - 2;
    return convolutionGrads(c, c.operand(2), c.operand(3), c.operand(4),
                            c.operand(5), c.operand(8), spatial);
  });
  // Max pooling with indices: g added at the maxima.
  table.add<AtenMaxPool2dWithIndicesOp, AtenAdaptiveMaxPool2dOp>(
      [](GradContext &c) {
        if (c.grad(0))
          c.giveExact(c.operand(0),
                      addAtPlaneIndices(c.t, c.operand(0), c.result(1),
                                        c.grad(0), sizesOf(c.result(0))));
        return success();
      });
  table.add<AtenMaxPool3dWithIndicesOp>([](GradContext &c) {
    if (c.grad(0))
      c.giveExact(c.operand(0),
                  addAtPlaneIndices(c.t, c.operand(0), c.result(1), c.grad(0),
                                    sizesOf(c.result(0)), /*spatial=*/3));
    return success();
  });
  // Max pooling of the values only: the indices from the same pooling.
  table.add<AtenMaxPool2dOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0);
    auto pool = AtenMaxPool2dWithIndicesOp::create(
        t.b, t.loc, TypeRange{t.tensor(), t.tensor()}, x, c.operand(1),
        c.operand(2), c.operand(3), c.operand(4), c.operand(5));
    c.giveExact(x, addAtPlaneIndices(t, x, pool.getResult(1), c.grad(),
                                     sizesOf(c.result())));
    return success();
  });
  table.add<AtenMaxPool3dOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0);
    auto pool = AtenMaxPool3dWithIndicesOp::create(
        t.b, t.loc, TypeRange{t.tensor(), t.tensor()}, x, c.operand(1),
        c.operand(2), c.operand(3), c.operand(4), c.operand(5));
    c.giveExact(x, addAtPlaneIndices(t, x, pool.getResult(1), c.grad(),
                                     sizesOf(c.result()), /*spatial=*/3));
    return success();
  });
  table.add<AtenAdaptiveAvgPool2dOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0);
    SmallVector<int64_t> xs = sizesOf(x), gs = sizesOf(c.result());
    int64_t rank = xs.size();
    c.giveExact(x, spreadOverWindows(
                       t, c.grad(),
                       adaptiveWindows(gs[rank - 2], xs[rank - 2]),
                       adaptiveWindows(gs[rank - 1], xs[rank - 1]),
                       xs[rank - 2], xs[rank - 1], dtypeOf(x)));
    return success();
  });
  table.add<AtenAvgPool2dOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0);
    std::optional<SmallVector<int64_t>> kernel = intList(c.operand(1), 2);
    std::optional<SmallVector<int64_t>> stride = intList(c.operand(2), 2);
    std::optional<SmallVector<int64_t>> padding = intList(c.operand(3), 2);
    std::optional<bool> countPadding = constBool(c.operand(5));
    std::optional<int64_t> divisor;
    if (!isNone(c.operand(6)) && !(divisor = constInt(c.operand(6))))
      return c.refuse("divisor_override not constant");
    if (!kernel || !stride || !padding || !countPadding)
      return c.refuse("arguments not constant");
    if (stride->empty())
      stride = kernel;
    SmallVector<int64_t> xs = sizesOf(x), gs = sizesOf(c.result());
    int64_t rank = xs.size();
    SmallVector<SmallVector<Window>> windows;
    for (int i = 0; i < 2; ++i)
      windows.push_back(poolWindows(gs[rank - 2 + i], xs[rank - 2 + i],
                                    (*kernel)[i], (*stride)[i], (*padding)[i],
                                    *countPadding, divisor.has_value()));
    Value g = c.grad();
    if (divisor)
      g = AtenDivScalarOp::create(t.b, t.loc, t.tensor(), g, t.i(*divisor));
    c.giveExact(x, spreadOverWindows(t, g, windows[0], windows[1],
                                     xs[rank - 2], xs[rank - 1], dtypeOf(x)));
    return success();
  });
}
