//===- DecomposeGradient.cpp - torch.gradient as slices and sums ----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gradient(self, spacing, dim, edge_order), every overload: for each dim
// (all of them when dim is None), the derivative of self along it by
// central differences inside and one-sided ones of `edge_order` at the two
// ends, concatenated along the dim, as ATen's ReduceOps.cpp computes them
// (the same operations in the same order, so the same rounding):
//
//   spacing h (a number; 1 when     inside (x[i+1] - x[i-1]) / h / 2; ends
//   None; one per dim in a list)    (x[1] - x[0]) / h and (x[n-1] - x[n-2])
//                                   / h, or for edge_order 2 (-1.5 x[0] +
//                                   2 x[1] - 0.5 x[2]) / h and (0.5 x[n-3] -
//                                   2 x[n-2] + 1.5 x[n-1]) / h
//   coordinates c (a 1-D tensor     with d = c[1:] - c[:-1], the weights of
//   per dim)                        the second-order formula for uneven
//                                   steps, per element inside and from the
//                                   first and last two steps at the ends
//
// Integer inputs give float results (the divisions promote).
//
//===----------------------------------------------------------------------===//

#include "DecomposeUtils.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::decompose;

namespace {

/// The ts ops the decomposition builds, with unrefined types.
struct GradientBuilder : TSBuilder {
  Value scaled(Value x, double factor) {
    return AtenMulScalarOp::create(b, loc, tensor(), x, f(factor));
  }
  Value divScalar(Value x, Value h) {
    return AtenDivScalarOp::create(b, loc, tensor(), x, h);
  }
  Value neg(Value x) { return AtenNegOp::create(b, loc, tensor(), x); }
};

/// How one dim is spaced: a number (a ts int or float value) or the
/// coordinates of its elements (a 1-D tensor).
struct Spacing {
  Value step;
  Value coordinates;
};

/// The derivative of `x` (n elements along `dim`) for even steps `h`.
Value evenGradient(GradientBuilder &t, Value x, int64_t dim, int64_t n, Value h,
                   int64_t edgeOrder) {
  Value center = t.divScalar(
      t.divScalar(t.sub(t.slice(x, dim, 2, n), t.slice(x, dim, 0, n - 2)), h),
      t.i(2));
  Value first, last;
  if (edgeOrder == 1) {
    first = t.divScalar(t.sub(t.slice(x, dim, 1, 2), t.slice(x, dim, 0, 1)), h);
    last = t.divScalar(
        t.sub(t.slice(x, dim, n - 1, n), t.slice(x, dim, n - 2, n - 1)), h);
  } else {
    first = t.divScalar(t.sub(t.add(t.scaled(t.slice(x, dim, 0, 1), -1.5),
                                    t.scaled(t.slice(x, dim, 1, 2), 2)),
                              t.scaled(t.slice(x, dim, 2, 3), 0.5)),
                        h);
    last = t.divScalar(t.add(t.sub(t.scaled(t.slice(x, dim, n - 3, n - 2), 0.5),
                                   t.scaled(t.slice(x, dim, n - 2, n - 1), 2)),
                             t.scaled(t.slice(x, dim, n - 1, n), 1.5)),
                       h);
  }
  return t.cat({first, center, last}, dim);
}

/// The derivative of `x` along `dim` at the 1-D `coordinates` (n of them).
Value unevenGradient(GradientBuilder &t, Value x, int64_t dim, int64_t rank,
                     int64_t n, Value coordinates, int64_t edgeOrder) {
  Value d =
      t.sub(t.slice(coordinates, 0, 1, n), t.slice(coordinates, 0, 0, n - 1));
  Value d1 = t.slice(d, 0, 0, n - 2), d2 = t.slice(d, 0, 1, n - 1);
  SmallVector<int64_t> along(rank, 1);
  along[dim] = n - 2;
  auto shaped = [&](Value w) { return t.reshape(w, along); };
  Value wa = shaped(t.div(t.neg(d2), t.mul(d1, t.add(d1, d2))));
  Value wb = shaped(t.div(t.sub(d2, d1), t.mul(d1, d2)));
  Value wc = shaped(t.div(d1, t.mul(d2, t.add(d1, d2))));
  Value center = t.add(t.add(t.mul(wa, t.slice(x, dim, 0, n - 2)),
                             t.mul(wb, t.slice(x, dim, 1, n - 1))),
                       t.mul(wc, t.slice(x, dim, 2, n)));
  Value first, last;
  auto step = [&](int64_t i) { return t.select(d, 0, i); };
  if (edgeOrder == 1) {
    first = t.div(t.sub(t.slice(x, dim, 1, 2), t.slice(x, dim, 0, 1)), step(0));
    last =
        t.div(t.sub(t.slice(x, dim, n - 1, n), t.slice(x, dim, n - 2, n - 1)),
              step(n - 2));
  } else {
    auto combine = [&](Value a, Value b, Value c, int64_t start) {
      return t.add(t.add(t.mul(a, t.slice(x, dim, start, start + 1)),
                         t.mul(b, t.slice(x, dim, start + 1, start + 2))),
                   t.mul(c, t.slice(x, dim, start + 2, start + 3)));
    };
    Value s0 = step(0), s1 = step(1);
    Value a =
        t.div(t.neg(t.add(t.scaled(s0, 2.0), s1)), t.mul(s0, t.add(s0, s1)));
    Value b = t.div(t.add(s0, s1), t.mul(s0, s1));
    Value c = t.div(t.neg(s0), t.mul(s1, t.add(s0, s1)));
    first = combine(a, b, c, 0);
    Value sl = step(n - 2), sp = step(n - 3);
    a = t.div(sl, t.mul(sp, t.add(sl, sp)));
    b = t.div(t.neg(t.add(sl, sp)), t.mul(sl, sp));
    c = t.div(t.add(t.scaled(sl, 2.0), sp), t.mul(sl, t.add(sl, sp)));
    last = combine(a, b, c, n - 3);
  }
  return t.cat({first, center, last}, dim);
}

/// Every overload of aten::gradient; operands self, then spacing (not in
/// .array), dim, edge_order.
template <typename OpTy>
struct DecomposeGradient : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    Value x = raw->getOperand(0);
    bool hasSpacing = raw->getNumOperands() == 4;
    Value spacing = hasSpacing ? raw->getOperand(1) : Value();
    Value dimOperand = raw->getOperand(hasSpacing ? 2 : 1);
    std::optional<int64_t> edgeOrder =
        constInt(raw->getOperand(hasSpacing ? 3 : 2));
    std::optional<SmallVector<int64_t>> sizes = staticSizes(x);
    if (!sizes || !dtypeOf(x) || !edgeOrder ||
        (*edgeOrder != 1 && *edgeOrder != 2))
      return rewriter.notifyMatchFailure(op, "static sizes and edge_order 1 "
                                             "or 2 expected");
    int64_t rank = sizes->size();
    // The dims, in the order of the results.
    SmallVector<int64_t> dims;
    if (isNone(dimOperand)) {
      for (int64_t d = 0; d < rank; ++d)
        dims.push_back(d);
    } else if (std::optional<int64_t> d = constInt(dimOperand)) {
      dims.push_back(*d);
    } else if (std::optional<SmallVector<int64_t>> list =
                   constIntList(dimOperand)) {
      dims = *list;
    } else {
      return rewriter.notifyMatchFailure(op, "dim not constant");
    }
    for (int64_t &d : dims) {
      if (d < -rank || d >= rank)
        return rewriter.notifyMatchFailure(op, "dim out of range");
      if (d < 0)
        d += rank;
      if ((*sizes)[d] < *edgeOrder + 1)
        return rewriter.notifyMatchFailure(op, "a dim shorter than "
                                               "edge_order + 1");
    }
    GradientBuilder t{{rewriter, op.getLoc()}};
    // One spacing per dim.
    SmallVector<Spacing> spacings;
    if (!spacing || isNone(spacing)) {
      spacings.assign(dims.size(), Spacing{t.i(1), Value()});
    } else if (!isa<ts::ListType>(spacing.getType())) {
      spacings.assign(dims.size(), Spacing{spacing, Value()});
    } else {
      std::optional<SmallVector<OpFoldResult>> elements = listElements(spacing);
      if (!elements || elements->size() != dims.size())
        return rewriter.notifyMatchFailure(op, "spacing not one per dim");
      Type elementType = cast<ts::ListType>(spacing.getType()).getElementType();
      for (auto [k, e] : llvm::enumerate(*elements)) {
        Value v = materialize(rewriter, op.getLoc(), e, elementType);
        if (!isa<ts::TensorType>(v.getType())) {
          spacings.push_back({v, Value()});
          continue;
        }
        std::optional<SmallVector<int64_t>> c = staticSizes(v);
        if (!c || c->size() != 1 || (*c)[0] != (*sizes)[dims[k]] || !dtypeOf(v))
          return rewriter.notifyMatchFailure(
              op, "coordinates not a 1-D tensor of the dim's size");
        spacings.push_back({Value(), v});
      }
    }
    SmallVector<Value> results;
    for (auto [d, s] : llvm::zip(dims, spacings)) {
      int64_t n = (*sizes)[d];
      results.push_back(
          s.coordinates
              ? unevenGradient(t, x, d, rank, n, s.coordinates, *edgeOrder)
              : evenGradient(t, x, d, n, s.step, *edgeOrder));
    }
    rewriter.replaceOp(op, t.list(results));
    return success();
  }
};

} // namespace

void mlir::tsmlir::ts::decompose::populateGradientPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeGradient<AtenGradientScalarintOp>,
               DecomposeGradient<AtenGradientScalararrayOp>,
               DecomposeGradient<AtenGradientArrayOp>,
               DecomposeGradient<AtenGradientScalarrayintOp>,
               DecomposeGradient<AtenGradientScalarrayarrayOp>,
               DecomposeGradient<AtenGradientTensorarrayintOp>,
               DecomposeGradient<AtenGradientTensorarrayOp>>(
      patterns.getContext());
}
