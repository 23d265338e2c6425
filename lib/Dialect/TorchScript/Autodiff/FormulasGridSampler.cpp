//===- FormulasGridSampler.cpp - Derivatives of grid_sampler --------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// grid_sampler(input [N, C, S...], grid [N, O..., k], interpolation,
// padding, align_corners), k = 2 or 3 spatial dims, as PyTorch's
// grid_sampler_2d_backward and _3d_backward:
//
//   each output point's coordinates in pixels (the grid's, unnormalized,
//   then clipped or reflected by the padding), with their derivative by
//   the grid's (the unnormalizing scale, 0 where clipping holds the
//   coordinate, -1 where reflection turns it);
//   bilinear (trilinear): the 2^k pixels around the point, each weighing
//   the product of (1 - distance) along each dim; the input's gradient is
//   g times the weight added at each pixel inside the input
//   (scatter_add on the flattened spatial dims); the grid's is, along each
//   dim, the sum over channels and pixels of g times the pixel's value
//   times the weight's derivative (the other dims' factors, signed),
//   times the coordinate's derivative;
//   bicubic (2-D): the 4 x 4 taps around the point, each padded, weighing
//   Keys' cubic convolution weights (A = -0.75) along each dim, whose
//   derivatives by the fraction give the grid's gradient;
//   nearest: g added at the pixel of the rounded (half to even)
//   coordinates; no gradient to the grid (PyTorch's is zeros).
//
//===----------------------------------------------------------------------===//

#include "Formulas.h"

#include <tuple>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::autodiff;
using namespace mlir::tsmlir::ts::decompose;

namespace {

/// A coordinate in pixels [N, O] and its derivative by the grid's (null
/// where none is wanted: a bicubic tap's).
struct Coordinate {
  Value at, slope;
};

Value addScalar(TSBuilder &t, Value x, double v) {
  return AtenAddScalarOp::create(t.b, t.loc, t.tensor(), x, t.f(v), t.i(1));
}
Value floorOf(TSBuilder &t, Value x) {
  return AtenFloorOp::create(t.b, t.loc, t.tensor(), x);
}
/// 1 where `condition`, else 0, in `like`'s dtype.
Value indicator(TSBuilder &t, Value condition, Value like) {
  return t.whereNumber(t.logicalNot(condition), t.f(0),
                       AtenOnesLikeOp::create(t.b, t.loc, t.tensor(), like,
                                              t.none(), t.none(), t.none(),
                                              t.none(), t.none()));
}
Value inRange(TSBuilder &t, Value x, double low, double high, bool closed) {
  Value above =
      closed
          ? Value(AtenGeScalarOp::create(t.b, t.loc, t.tensor(), x, t.f(low)))
          : Value(AtenGtScalarOp::create(t.b, t.loc, t.tensor(), x, t.f(low)));
  Value below =
      closed
          ? Value(AtenLeScalarOp::create(t.b, t.loc, t.tensor(), x, t.f(high)))
          : Value(AtenLtScalarOp::create(t.b, t.loc, t.tensor(), x, t.f(high)));
  return t.logicalAnd(above, below);
}

/// clip_coordinates_set_grad: x in [0, size - 1], slope 0 where clipped
/// (at the bounds too).
Coordinate clip(TSBuilder &t, Coordinate c, int64_t size) {
  Value inside = inRange(t, c.at, 0, size - 1, /*closed=*/false);
  Value at =
      AtenClampOp::create(t.b, t.loc, t.tensor(), c.at, t.f(0), t.f(size - 1));
  if (!c.slope)
    return {at, Value()};
  return {at, t.mul(c.slope, indicator(t, inside, c.at))};
}

/// reflect_coordinates_set_grad: x reflected into [low / 2, high / 2], the
/// slope negated where the reflection turns it.
Coordinate reflect(TSBuilder &t, Coordinate c, int64_t twiceLow,
                   int64_t twiceHigh) {
  if (twiceLow == twiceHigh)
    return {mulNumber(t, c.at, 0),
            c.slope ? mulNumber(t, c.slope, 0) : c.slope};
  double low = twiceLow / 2.0, span = (twiceHigh - twiceLow) / 2.0;
  Value shifted = addScalar(t, c.at, -low);
  Value negative =
      AtenLtScalarOp::create(t.b, t.loc, t.tensor(), shifted, t.f(0));
  // +1 or -1: the sign the absolute value took off.
  Value sign = addScalar(t, mulNumber(t, indicator(t, negative, c.at), -2), 1);
  Value in = AtenAbsOp::create(t.b, t.loc, t.tensor(), shifted);
  Value extra = AtenFmodScalarOp::create(t.b, t.loc, t.tensor(), in, t.f(span));
  Value flips = floorOf(t, mulNumber(t, in, 1.0 / span));
  Value odd = AtenEqScalarOp::create(
      t.b, t.loc, t.tensor(),
      AtenFmodScalarOp::create(t.b, t.loc, t.tensor(), flips, t.f(2)), t.f(1));
  Value at = t.where(odd, addScalar(t, neg(t, extra), span + low),
                     addScalar(t, extra, low));
  if (!c.slope)
    return {at, Value()};
  Value turn = addScalar(t, mulNumber(t, indicator(t, odd, c.at), -2), 1);
  return {at, t.mul(c.slope, t.mul(sign, turn))};
}

/// A coordinate in pixels padded as `padding` says: as it is (zeros: what
/// lies outside reads 0), clipped (border) or reflected then clipped.
Coordinate pad(TSBuilder &t, Coordinate c, int64_t size, int64_t padding,
               bool align) {
  if (padding == 1)
    return clip(t, c, size);
  if (padding == 2)
    return clip(t,
                align ? reflect(t, c, 0, 2 * (size - 1))
                      : reflect(t, c, -1, 2 * size - 1),
                size);
  return c;
}

/// grid component `g` in pixels (grid_sampler_unnormalize_set_grad).
Coordinate unnormalize(TSBuilder &t, Value g, int64_t size, bool align) {
  double scale = align ? (size - 1) / 2.0 : size / 2.0;
  return {addScalar(t, mulNumber(t, g, scale), align ? scale : scale - 0.5),
          AtenFullLikeOp::create(t.b, t.loc, t.tensor(), g, t.f(scale),
                                 t.none(), t.none(), t.none(), t.none(),
                                 t.none())};
}

/// Keys' cubic convolution weights (A = -0.75) of the four taps at
/// floor(x) - 1 ... floor(x) + 2 for the fraction `f` of x, and their
/// derivatives by f.
std::pair<SmallVector<Value>, SmallVector<Value>> cubicWeights(TSBuilder &t,
                                                               Value f) {
  constexpr double A = -0.75;
  // Far taps (|d| in [1, 2]): A d^3 - 5A d^2 + 8A d - 4A; near ones
  // (|d| < 1): (A + 2) d^3 - (A + 3) d^2 + 1; each with its derivative.
  auto far = [&](Value d) {
    Value d2 = t.mul(d, d);
    Value w = addScalar(
        t,
        t.add(t.sub(mulNumber(t, t.mul(d2, d), A), mulNumber(t, d2, 5 * A)),
              mulNumber(t, d, 8 * A)),
        -4 * A);
    Value dw = addScalar(
        t, t.sub(mulNumber(t, d2, 3 * A), mulNumber(t, d, 10 * A)), 8 * A);
    return std::make_pair(w, dw);
  };
  auto near = [&](Value d) {
    Value d2 = t.mul(d, d);
    Value w = addScalar(
        t, t.sub(mulNumber(t, t.mul(d2, d), A + 2), mulNumber(t, d2, A + 3)),
        1);
    Value dw =
        t.sub(mulNumber(t, d2, 3 * (A + 2)), mulNumber(t, d, 2 * (A + 3)));
    return std::make_pair(w, dw);
  };
  // The taps' distances: f + 1, f, 1 - f, 2 - f (the last two decrease
  // with f: their derivatives negated).
  auto [w0, d0] = far(addScalar(t, f, 1));
  auto [w1, d1] = near(f);
  auto [w2, d2] = near(t.oneMinus(f));
  auto [w3, d3] = far(addScalar(t, neg(t, f), 2));
  return {{w0, w1, w2, w3}, {d0, d1, neg(t, d2), neg(t, d3)}};
}

LogicalResult gridSamplerGrad(GradContext &c) {
  TSBuilder &t = c.t;
  Value input = c.operand(0), grid = c.operand(1), g = c.grad();
  std::optional<int64_t> mode = constInt(c.operand(2));
  std::optional<int64_t> padding = constInt(c.operand(3));
  std::optional<bool> align = constBool(c.operand(4));
  if (!mode || !padding || !align)
    return c.refuse("interpolation, padding or align_corners not constant");
  SmallVector<int64_t> in = sizesOf(input), gs = sizesOf(grid);
  int64_t k = in.size() - 2, n = in[0], channels = in[1];
  int64_t points = 1, pixels = 1;
  for (int64_t d = 1; d <= k; ++d)
    points *= gs[d];
  for (int64_t s = 0; s < k; ++s)
    pixels *= in[2 + s];
  Type dtype = dtypeOf(input);
  // Per spatial dim s of the input (x is the last), its coordinates
  // [N, O] from grid component k - 1 - s.
  Value flatGrid = reshapeTo(t, grid, {n, points, k});
  SmallVector<Coordinate> coords;
  for (int64_t s = 0; s < k; ++s) {
    Coordinate c =
        unnormalize(t, t.select(flatGrid, 2, k - 1 - s), in[2 + s], *align);
    // Bicubic pads each tap, not the point.
    coords.push_back(*mode == 2 ? c : pad(t, c, in[2 + s], *padding, *align));
  }
  Value flatInput = reshapeTo(t, input, {n, channels, pixels});
  Value flatG = reshapeTo(t, g, {n, channels, points});
  // The pixel at `at` (one [N, O] per dim): its flat index (0 outside) and
  // whether it lies inside the input.
  auto pixel = [&](ArrayRef<Value> at) -> std::pair<Value, Value> {
    Value inside, index;
    int64_t stride = 1;
    for (int64_t s = k - 1; s >= 0; --s) {
      Value ok = inRange(t, at[s], 0, in[2 + s] - 1, /*closed=*/true);
      inside = inside ? t.logicalAnd(inside, ok) : ok;
      Value term = mulNumber(t, at[s], stride);
      index = index ? t.add(index, term) : term;
      stride *= in[2 + s];
    }
    index = t.whereNumber(t.logicalNot(inside), t.f(0), index);
    Value flat =
        t.expand(t.unsqueeze(t.to(index, kLong), 1), {n, channels, points});
    return {flat, inside};
  };
  auto scatter = [&](Value sum, Value index, Value source) {
    Value added = AtenScatterAddOp::create(
        t.b, t.loc, t.tensor(), zerosOf(t, {n, channels, pixels}, dtype),
        t.i(2), index, source);
    return sum ? t.add(sum, added) : added;
  };
  Value gInput;
  if (*mode == 1) {
    SmallVector<Value> at;
    for (const Coordinate &coord : coords)
      at.push_back(AtenRoundOp::create(t.b, t.loc, t.tensor(), coord.at));
    auto [index, inside] = pixel(at);
    gInput = scatter(Value(), index,
                     t.mul(flatG, t.unsqueeze(indicator(t, inside, at[0]), 1)));
    c.giveExact(input, reshapeTo(t, gInput, in));
    c.giveExact(grid, zerosLike(t, grid));
    return success();
  }
  // Along each dim, the taps' coordinates (padded), weights and the
  // weights' derivatives: bilinear's two (1 - f, f: -1, +1), bicubic's
  // four.
  int64_t numTaps = *mode == 2 ? 4 : 2;
  SmallVector<SmallVector<Value>> tapAt(k), tapWeight(k), tapSlope(k);
  for (int64_t s = 0; s < k; ++s) {
    Value floor = floorOf(t, coords[s].at);
    Value f = t.sub(coords[s].at, floor);
    if (*mode == 2) {
      std::tie(tapWeight[s], tapSlope[s]) = cubicWeights(t, f);
      for (int64_t i = 0; i < 4; ++i)
        tapAt[s].push_back(pad(t, {addScalar(t, floor, i - 1), Value()},
                               in[2 + s], *padding, *align)
                               .at);
      continue;
    }
    tapAt[s] = {floor, addScalar(t, floor, 1)};
    tapWeight[s] = {t.oneMinus(f), f};
    tapSlope[s] = {Value(), Value()}; // -1 and +1: signs below
  }
  SmallVector<Value> gCoord(k);
  int64_t numCorners = 1;
  for (int64_t s = 0; s < k; ++s)
    numCorners *= numTaps;
  for (int64_t corner = 0; corner < numCorners; ++corner) {
    SmallVector<Value> at, factor;
    SmallVector<int64_t> tap;
    for (int64_t s = 0, rest = corner; s < k; ++s, rest /= numTaps) {
      tap.push_back(rest % numTaps);
      at.push_back(tapAt[s][tap.back()]);
      factor.push_back(tapWeight[s][tap.back()]);
    }
    auto [index, inside] = pixel(at);
    Value mask = indicator(t, inside, at[0]);
    Value weight = mask;
    for (Value f : factor)
      weight = t.mul(weight, f);
    gInput = scatter(gInput, index, t.mul(flatG, t.unsqueeze(weight, 1)));
    // sum over channels of g times the pixel's value.
    Value value = t.gather(flatInput, 2, index);
    Value gv = t.mul(t.sumDim(t.mul(flatG, value), 1), mask);
    for (int64_t s = 0; s < k; ++s) {
      Value term = gv;
      for (int64_t r = 0; r < k; ++r)
        if (r != s)
          term = t.mul(term, factor[r]);
      if (Value slope = tapSlope[s][tap[s]])
        term = t.mul(term, slope);
      else if (tap[s] == 0)
        term = neg(t, term);
      gCoord[s] = gCoord[s] ? t.add(gCoord[s], term) : term;
    }
  }
  c.giveExact(input, reshapeTo(t, gInput, in));
  // Grid component j is dim k - 1 - j's coordinate.
  SmallVector<Value> components;
  for (int64_t j = 0; j < k; ++j) {
    int64_t s = k - 1 - j;
    components.push_back(t.mul(gCoord[s], coords[s].slope));
  }
  c.giveExact(grid, reshapeTo(t, t.stack(components, 2), gs));
  return success();
}

} // namespace

void autodiff::populateGridSamplerFormulas(FormulaTable &table) {
  table.add<AtenGridSamplerOp>(gridSamplerGrad);
}
