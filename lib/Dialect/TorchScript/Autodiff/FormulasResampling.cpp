//===- FormulasResampling.cpp - Derivatives of upsampling -----------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   upsample_nearest{1,2,3}d,      separable: along each resampled dim, each
//   upsample_linear1d,             output index reads input indices (taps)
//   upsample_bilinear2d,           with weights (nearest: one of weight 1;
//   upsample_trilinear3d,          linear: two; bicubic: four, Keys' kernel),
//   upsample_bicubic2d (and .vec)  as the lowering computes them; g goes
//                                  back dim after dim, each tap's share
//                                  added at its index (index_add)
//
//===----------------------------------------------------------------------===//

#include "Formulas.h"

#include "tsmlir/Dialect/TorchScript/IR/Upsampling.h"

#include <array>
#include <cmath>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::autodiff;
using namespace mlir::tsmlir::ts::decompose;

namespace {

enum class Mode { Nearest, Linear, Cubic };

/// The taps of one resampled dim: for each tap, the input index each output
/// index reads and its weight.
struct Taps {
  SmallVector<SmallVector<int64_t>> index;
  SmallVector<SmallVector<double>> weight;
};

/// Keys' cubic convolution weights (A = -0.75) of the four taps at fraction
/// `t` past floor(src).
template <typename T> std::array<T, 4> cubicWeights(T t) {
  const T a = -0.75;
  auto near = [&](T x) { return ((a + 2) * x - (a + 3)) * x * x + 1; };
  auto far = [&](T x) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; };
  return {far(t + 1), near(t), near(1 - t), far(2 - t)};
}

/// The taps of a dim of `in` elements resampled to `out`, in the compute
/// type T (float for float32 tensors, as the lowering and PyTorch's kernels).
template <typename T>
Taps computeTaps(Mode mode, int64_t in, int64_t out, std::optional<double> scale,
                 bool alignCorners) {
  Taps taps;
  // compute_scales_value: 1 / scale when given, else in / out.
  T ratio = scale ? static_cast<T>(1.0 / *scale)
                  : static_cast<T>(in) / static_cast<T>(out);
  if (mode == Mode::Nearest) {
    // In float whatever the dtype, as the lowering.
    float scaleF32 = scale ? static_cast<float>(1.0 / *scale)
                           : static_cast<float>(in) / static_cast<float>(out);
    taps.index.emplace_back();
    taps.weight.emplace_back(out, 1.0);
    for (int64_t o = 0; o < out; ++o) {
      int64_t src = o;
      if (out == 2 * in)
        src = o / 2;
      else if (out != in)
        src = std::min<int64_t>(
            static_cast<int64_t>(std::floor(static_cast<float>(o) * scaleF32)),
            in - 1);
      taps.index[0].push_back(src);
    }
    return taps;
  }
  T step = alignCorners
               ? static_cast<T>(out > 1 ? static_cast<double>(in - 1) /
                                              static_cast<double>(out - 1)
                                        : 0.0)
               : ratio;
  unsigned count = mode == Mode::Cubic ? 4 : 2;
  taps.index.resize(count);
  taps.weight.resize(count);
  for (int64_t o = 0; o < out; ++o) {
    T src = alignCorners ? step * static_cast<T>(o)
                         : step * (static_cast<T>(o) + T(0.5)) - T(0.5);
    if (mode == Mode::Cubic) {
      T floor = std::floor(src);
      std::array<T, 4> w = cubicWeights<T>(src - floor);
      for (unsigned k = 0; k < 4; ++k) {
        taps.index[k].push_back(std::clamp<int64_t>(
            static_cast<int64_t>(floor) + k - 1, 0, in - 1));
        taps.weight[k].push_back(w[k]);
      }
      continue;
    }
    src = std::max<T>(src, 0);
    int64_t i0 = std::min<int64_t>(static_cast<int64_t>(src), in - 1);
    int64_t i1 = i0 < in - 1 ? i0 + 1 : i0;
    T lambda1 = src - static_cast<T>(i0);
    taps.index[0].push_back(i0);
    taps.index[1].push_back(i1);
    taps.weight[0].push_back(1 - lambda1);
    taps.weight[1].push_back(lambda1);
  }
  return taps;
}

/// A constant tensor of `dtype` (f32 or f64) holding `values`.
Value floats(TSBuilder &t, ArrayRef<double> values, Type dtype,
             ArrayRef<int64_t> shape) {
  auto type = RankedTensorType::get(shape, dtype);
  DenseElementsAttr attr =
      dtype.isF64()
          ? DenseElementsAttr::get(type, values)
          : DenseElementsAttr::get(
                type, ArrayRef<float>(llvm::to_vector(llvm::map_range(
                          values, [](double v) { return float(v); }))));
  return PrimConstantOp::create(t.b, t.loc,
                                ts::TensorType::get(t.ctx(), dtype, shape),
                                attr);
}

/// Registers the formula of an upsampling op over its last `n` dims.
template <typename OpTy>
void addUpsample(FormulaTable &table, Mode mode, unsigned n, bool vec) {
  table.add<OpTy>([mode, n, vec](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0);
    SmallVector<int64_t> in = sizesOf(x), out = sizesOf(c.result());
    int64_t rank = in.size();
    Type dtype = dtypeOf(x);
    if (rank < static_cast<int64_t>(n) + 2 ||
        static_cast<int64_t>(out.size()) != rank || !dtype ||
        !(dtype.isF32() || dtype.isF64()))
      return c.refuse("a float32 or float64 input of known sizes");
    std::optional<bool> alignCorners = false;
    if (mode != Mode::Nearest)
      alignCorners = constBool(c.operand(2));
    FailureOr<SmallVector<std::optional<double>>> scales =
        getUpsampleScales(c.op, n, vec, mode == Mode::Nearest ? 2 : 3);
    if (!alignCorners || failed(scales))
      return c.refuse("align_corners or scales not constant");
    // Bicubic copies an input whose sizes do not change.
    if (mode == Mode::Cubic && in == out) {
      c.giveExact(x, c.grad());
      return success();
    }
    Value g = c.grad();
    SmallVector<int64_t> shape(out);
    for (unsigned i = n; i-- > 0;) {
      int64_t dim = rank - n + i;
      Taps taps =
          dtype.isF64()
              ? computeTaps<double>(mode, in[dim], out[dim], (*scales)[i],
                                    *alignCorners)
              : computeTaps<float>(mode, in[dim], out[dim], (*scales)[i],
                                   *alignCorners);
      // The weights along `dim`, broadcast over the dims after it.
      SmallVector<int64_t> weightShape(rank - dim, 1);
      weightShape[0] = out[dim];
      shape[dim] = in[dim];
      Value sum;
      for (auto [index, weight] : llvm::zip(taps.index, taps.weight)) {
        Value share = g;
        if (mode != Mode::Nearest)
          share = t.mul(g, floats(t, weight, dtype, weightShape));
        Value added = AtenIndexAddOp::create(
            t.b, t.loc, t.tensor(), zerosOf(t, shape, dtype), t.i(dim),
            t.longs(index, {out[dim]}), share, t.i(1));
        sum = sum ? t.add(sum, added) : added;
      }
      g = sum;
    }
    c.giveExact(x, g);
    return success();
  });
}

} // namespace

void autodiff::populateResamplingFormulas(FormulaTable &table) {
  addUpsample<AtenUpsampleNearest1dOp>(table, Mode::Nearest, 1, false);
  addUpsample<AtenUpsampleNearest1dVecOp>(table, Mode::Nearest, 1, true);
  addUpsample<AtenUpsampleNearest2dOp>(table, Mode::Nearest, 2, false);
  addUpsample<AtenUpsampleNearest2dVecOp>(table, Mode::Nearest, 2, true);
  addUpsample<AtenUpsampleNearest3dOp>(table, Mode::Nearest, 3, false);
  addUpsample<AtenUpsampleNearest3dVecOp>(table, Mode::Nearest, 3, true);
  addUpsample<AtenUpsampleLinear1dOp>(table, Mode::Linear, 1, false);
  addUpsample<AtenUpsampleLinear1dVecOp>(table, Mode::Linear, 1, true);
  addUpsample<AtenUpsampleBilinear2dOp>(table, Mode::Linear, 2, false);
  addUpsample<AtenUpsampleBilinear2dVecOp>(table, Mode::Linear, 2, true);
  addUpsample<AtenUpsampleTrilinear3dOp>(table, Mode::Linear, 3, false);
  addUpsample<AtenUpsampleTrilinear3dVecOp>(table, Mode::Linear, 3, true);
  addUpsample<AtenUpsampleBicubic2dOp>(table, Mode::Cubic, 2, false);
  addUpsample<AtenUpsampleBicubic2dVecOp>(table, Mode::Cubic, 2, true);
}
