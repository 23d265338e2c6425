//===- FormulasReductions.cpp - Derivatives of reductions -----------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   sum, mean          g expanded back over the reduced dims (mean: divided
//                      by the count)
//   amax, amin         g shared evenly by the elements equal to the result
//                      along the reduced dims (scale_grad_by_count)
//   max, min (all)     g shared evenly by the elements equal to the result
//                      (evenly_distribute_backward)
//   max.dim, min.dim   g scattered to the selected index
//   var, std           g 2 (x - mean) / (N - c); g (x - mean) / (y (N - c))
//   prod               g times the product of the other elements (along
//                      the dim): exclusive cumulative products from both
//                      ends, exact with zeros; with a dtype, in it
//   cumsum             the reversed cumulative sum of g
//   cumprod            the reversed cumulative sum of g y over x before the
//                      first zero along the dim; at it, the products around
//                      it; zero after it
//   sort, topk         g scattered to the indices
//   softmax            y (g - sum(g y))
//   log_softmax        g - exp(y) sum(g)
//   logsumexp          g exp(x - y)
//
//===----------------------------------------------------------------------===//

#include "Formulas.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::autodiff;
using namespace mlir::tsmlir::ts::decompose;

static SmallVector<int64_t> allDims(int64_t rank) {
  return llvm::to_vector(llvm::seq<int64_t>(0, rank));
}

/// The dims a `int[]?` dims operand reduces over: every dim for None or an
/// empty list (as PyTorch), nullopt when not constant.
static std::optional<SmallVector<int64_t>> reducedDims(Value dims,
                                                       int64_t rank) {
  std::optional<SmallVector<int64_t>> list;
  if (!isNone(dims) && !(list = constIntList(dims)))
    return std::nullopt;
  if (!list || list->empty())
    return allDims(rank);
  SmallVector<int64_t> all;
  for (int64_t d : *list)
    all.push_back(wrapDim(d, rank));
  return all;
}

static int64_t countOver(ArrayRef<int64_t> sizes, ArrayRef<int64_t> dims) {
  int64_t n = 1;
  // A 0-d tensor's dim 0 (or -1) is its one element.
  if (sizes.empty())
    return n;
  for (int64_t d : dims)
    n *= sizes[d];
  return n;
}

/// The sum of `x` over `dims`, kept.
static Value sumKept(TSBuilder &t, Value x, ArrayRef<int64_t> dims) {
  return AtenSumDimIntListOp::create(t.b, t.loc, t.tensor(), x, t.sizes(dims),
                                     t.flag(true), t.none());
}

/// g to each element of `x` equal to the reduction's result `y` (both
/// restored to x's sizes), divided by how many there are along `dims`.
static Value shareAmongEqual(TSBuilder &t, Value g, Value y, Value x,
                             ArrayRef<int64_t> dims) {
  Value mask = AtenEqTensorOp::create(t.b, t.loc, t.tensor(), x, y);
  Value count = sumKept(t, mask, dims);
  return t.mul(t.div(g, count), mask);
}

/// For each element of `x`, the product of the others along `dim` (of
/// `size` elements): the exclusive cumulative products from either end,
/// multiplied, so that a zero needs no division (PyTorch's prod_backward
/// divides only where there is none, with the same values).
static Value productOfOthers(TSBuilder &t, Value x, int64_t dim, int64_t size) {
  auto onesLike = [&](Value v) {
    return AtenOnesLikeOp::create(t.b, t.loc, t.tensor(), v, t.none(), t.none(),
                                  t.none(), t.none(), t.none());
  };
  if (size <= 1)
    return onesLike(x);
  auto flip = [&](Value v) {
    return AtenFlipOp::create(t.b, t.loc, t.tensor(), v, t.sizes({dim}));
  };
  // ones, then the products of the first 1 .. size - 1 elements.
  auto exclusive = [&](Value v) {
    Value products =
        AtenCumprodOp::create(t.b, t.loc, t.tensor(), v, t.i(dim), t.none());
    return t.cat(
        {onesLike(t.slice(v, dim, 0, 1)), t.slice(products, dim, 0, size - 1)},
        dim);
  };
  return t.mul(exclusive(x), flip(exclusive(flip(x))));
}

/// `x` in the dtype a reduction computes in: its own when `dtype` is None,
/// else cast to it (the gradient then goes back to x's dtype).
static FailureOr<Value> inComputeDtype(GradContext &c, Value x, Value dtype) {
  if (isNone(dtype))
    return x;
  std::optional<int64_t> code = constInt(dtype);
  if (!code) {
    (void)c.refuse("a dtype to compute in that is not constant");
    return failure();
  }
  return c.t.to(x, *code);
}

/// The gradient of cumprod along `dim` (PyTorch's cumprod_backward): before
/// the first zero of x along the dim, the reversed cumulative sum of g y
/// divided by x; at the first zero, the product of the elements before it
/// times the sum of g_i times the product of the elements after it up to i;
/// after it, zero.
static Value cumprodGrad(TSBuilder &t, Value g, Value x, Value y, int64_t dim,
                         int64_t size) {
  auto flip = [&](Value v) {
    return AtenFlipOp::create(t.b, t.loc, t.tensor(), v, t.sizes({dim}));
  };
  auto cumsum = [&](Value v) {
    return AtenCumsumOp::create(t.b, t.loc, t.tensor(), v, t.i(dim), t.none());
  };
  auto eq = [&](Value v, int64_t n) {
    return AtenEqScalarOp::create(t.b, t.loc, t.tensor(), v, t.i(n));
  };
  Value isZero = eq(x, 0);
  Value zerosSoFar = cumsum(isZero);
  Value before = eq(zerosSoFar, 0);
  Value atFirstZero = t.logicalAnd(isZero, eq(zerosSoFar, 1));
  // Before the first zero: x divides exactly.
  Value safeX = t.whereNumber(t.logicalNot(before), t.i(1), x);
  Value divided = t.div(flip(cumsum(flip(t.mul(g, y)))), safeX);
  // At it: the products from after it, the elements up to it taken as 1.
  Value after = AtenCumprodOp::create(
      t.b, t.loc, t.tensor(),
      t.whereNumber(t.logicalOr(before, atFirstZero), t.i(1), x), t.i(dim),
      t.none());
  Value summed = t.sumDim(t.whereNumber(before, t.i(0), t.mul(g, after)), dim,
                          /*keepdim=*/true);
  Value onesFirst =
      AtenOnesLikeOp::create(t.b, t.loc, t.tensor(), t.slice(x, dim, 0, 1),
                             t.none(), t.none(), t.none(), t.none(), t.none());
  Value productBefore = t.cat({onesFirst, t.slice(y, dim, 0, size - 1)}, dim);
  Value atZero = t.whereNumber(t.logicalNot(atFirstZero), t.i(0),
                               t.mul(productBefore, summed));
  return t.where(before, divided, atZero);
}

void autodiff::populateReductionFormulas(FormulaTable &table) {
  // cumprod: cumprodGrad.
  table.add<AtenCumprodOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    std::optional<int64_t> dimArg = constInt(c.operand(1));
    if (!dimArg)
      return c.refuse("dim not constant");
    FailureOr<Value> x = inComputeDtype(c, c.operand(0), c.operand(2));
    if (failed(x))
      return failure();
    SmallVector<int64_t> sizes = sizesOf(c.operand(0));
    if (sizes.empty()) {
      c.give(0, c.grad());
      return success();
    }
    int64_t dim = wrapDim(*dimArg, sizes.size());
    c.give(0, cumprodGrad(t, c.grad(), *x, c.result(), dim, sizes[dim]));
    return success();
  });
  // prod: g times the product of the other elements.
  table.add<AtenProdOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    FailureOr<Value> x = inComputeDtype(c, c.operand(0), c.operand(1));
    if (failed(x))
      return failure();
    SmallVector<int64_t> sizes = sizesOf(c.operand(0));
    if (sizes.empty()) {
      c.give(0, c.grad());
      return success();
    }
    int64_t n = countOver(sizes, allDims(sizes.size()));
    Value others =
        t.reshape(productOfOthers(t, t.reshape(*x, {n}), 0, n), sizes);
    c.give(0, t.mul(t.expand(c.grad(), sizes), others));
    return success();
  });
  table.add<AtenProdDimIntOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    FailureOr<Value> computed = inComputeDtype(c, c.operand(0), c.operand(3));
    if (failed(computed))
      return failure();
    Value x = *computed;
    SmallVector<int64_t> sizes = sizesOf(c.operand(0));
    std::optional<int64_t> dimArg = constInt(c.operand(1));
    std::optional<bool> keepdim = constBool(c.operand(2));
    if (!dimArg || !keepdim)
      return c.refuse("dim or keepdim not constant");
    if (sizes.empty()) {
      c.give(0, c.grad());
      return success();
    }
    int64_t dim = wrapDim(*dimArg, sizes.size());
    Value g = expandReduced(t, c.grad(), x, {dim}, *keepdim);
    c.give(0, t.mul(g, productOfOthers(t, x, dim, sizes[dim])));
    return success();
  });
  table.add<AtenSumOp>([](GradContext &c) {
    c.give(0, c.t.expand(c.grad(), sizesOf(c.operand(0))));
    return success();
  });
  table.add<AtenSumDimIntListOp, AtenMeanDimOp>([](GradContext &c) {
    Value x = c.operand(0);
    SmallVector<int64_t> sizes = sizesOf(x);
    std::optional<SmallVector<int64_t>> dims =
        reducedDims(c.operand(1), sizes.size());
    std::optional<bool> keepdim = constBool(c.operand(2));
    if (!dims || !keepdim)
      return c.refuse("dims or keepdim not constant");
    Value g = expandReduced(c.t, c.grad(), x, *dims, *keepdim);
    if (llvm::isa<AtenMeanDimOp>(c.op))
      g = AtenDivScalarOp::create(c.t.b, c.t.loc, c.t.tensor(), g,
                                  c.t.i(countOver(sizes, *dims)));
    c.give(0, g);
    return success();
  });
  table.add<AtenMeanOp>([](GradContext &c) {
    SmallVector<int64_t> sizes = sizesOf(c.operand(0));
    Value g = c.t.expand(c.grad(), sizes);
    c.give(0, AtenDivScalarOp::create(c.t.b, c.t.loc, c.t.tensor(), g,
                                      c.t.i(countOver(sizes, allDims(sizes.size())))));
    return success();
  });
  table.add<AtenAmaxOp, AtenAminOp>([](GradContext &c) {
    Value x = c.operand(0);
    std::optional<SmallVector<int64_t>> dims =
        reducedDims(c.operand(1), sizesOf(x).size());
    std::optional<bool> keepdim = constBool(c.operand(2));
    if (!dims || !keepdim)
      return c.refuse("dims or keepdim not constant");
    Value g = expandReduced(c.t, c.grad(), x, *dims, *keepdim);
    Value y = expandReduced(c.t, c.result(), x, *dims, *keepdim);
    c.give(0, shareAmongEqual(c.t, g, y, x, *dims));
    return success();
  });
  table.add<AtenMaxOp, AtenMinOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0);
    SmallVector<int64_t> sizes = sizesOf(x);
    Value g = t.expand(c.grad(), sizes);
    Value y = t.expand(c.result(), sizes);
    c.give(0, shareAmongEqual(t, g, y, x, allDims(sizes.size())));
    return success();
  });
  table.add<AtenMaxDimOp, AtenMinDimOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    if (!c.grad(0))
      return success();
    Value x = c.operand(0);
    std::optional<int64_t> dimArg = constInt(c.operand(1));
    std::optional<bool> keepdim = constBool(c.operand(2));
    if (!dimArg || !keepdim)
      return c.refuse("dim or keepdim not constant");
    int64_t dim = wrapDim(*dimArg, sizesOf(x).size());
    Value g = c.grad(0), index = c.result(1);
    if (!*keepdim && !sizesOf(x).empty()) {
      g = t.unsqueeze(g, dim);
      index = t.unsqueeze(index, dim);
    }
    c.give(0,
           AtenScatterSrcOp::create(t.b, t.loc, t.tensor(), zerosLike(t, x),
                                    t.i(dim), index, g));
    return success();
  });
  // var: g 2 (x - mean) / (N - correction); std: g (x - mean) / (std (N -
  // correction)), over the reduced dims.
  table.add<AtenVarDimOp, AtenStdDimOp, AtenVarOp, AtenStdOp,
            AtenVarCorrectionOp, AtenStdCorrectionOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0);
    SmallVector<int64_t> sizes = sizesOf(x);
    bool isStd = llvm::isa<AtenStdDimOp, AtenStdOp, AtenStdCorrectionOp>(c.op);
    std::optional<SmallVector<int64_t>> dims = allDims(sizes.size());
    std::optional<bool> keepdim = false;
    std::optional<int64_t> correction = 1;
    if (llvm::isa<AtenVarOp, AtenStdOp>(c.op)) {
      std::optional<bool> unbiased = constBool(c.operand(1));
      if (!unbiased)
        return c.refuse("unbiased not constant");
      correction = *unbiased ? 1 : 0;
    } else {
      dims = reducedDims(c.operand(1), sizes.size());
      if (llvm::isa<AtenVarDimOp, AtenStdDimOp>(c.op)) {
        std::optional<bool> unbiased = constBool(c.operand(2));
        correction = unbiased ? std::optional<int64_t>(*unbiased ? 1 : 0)
                              : std::nullopt;
      } else if (!isNone(c.operand(2))) {
        correction = constInt(c.operand(2));
      }
      keepdim = constBool(c.operand(3));
    }
    if (!dims || !keepdim || !correction)
      return c.refuse("dims, keepdim or the correction not constant");
    double n = countOver(sizes, *dims) - *correction;
    Value centred = t.sub(x, AtenMeanDimOp::create(t.b, t.loc, t.tensor(), x,
                                             t.sizes(*dims), t.flag(true),
                                             t.none()));
    Value g = expandReduced(t, c.grad(), x, *dims, *keepdim);
    if (isStd) {
      Value y = expandReduced(t, c.result(), x, *dims, *keepdim);
      c.give(0, mulNumber(t, t.div(t.mul(g, centred), y), 1.0 / n));
    } else {
      c.give(0, mulNumber(t, t.mul(g, centred), 2.0 / n));
    }
    return success();
  });
  // cumsum: the reversed cumulative sum of g.
  table.add<AtenCumsumOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    std::optional<int64_t> dimArg = constInt(c.operand(1));
    if (!dimArg)
      return c.refuse("dim not constant");
    int64_t dim = wrapDim(*dimArg, sizesOf(c.operand(0)).size());
    if (sizesOf(c.operand(0)).empty()) {
      c.give(0, c.grad());
      return success();
    }
    auto flip = [&](Value v) {
      return AtenFlipOp::create(t.b, t.loc, t.tensor(), v, t.sizes({dim}));
    };
    Value summed = AtenCumsumOp::create(t.b, t.loc, t.tensor(),
                                        flip(c.grad()), t.i(dim), t.none());
    c.give(0, flip(summed));
    return success();
  });
  // sort and topk: the values' gradient scattered to their indices.
  table.add<AtenSortOp, AtenSortStableOp, AtenTopkOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    if (!c.grad(0))
      return success();
    Value x = c.operand(0);
    unsigned dimIndex = llvm::isa<AtenSortOp>(c.op) ? 1 : 2;
    std::optional<int64_t> dimArg = constInt(c.operand(dimIndex));
    if (!dimArg)
      return c.refuse("dim not constant");
    if (sizesOf(x).empty()) {
      c.give(0, c.grad(0));
      return success();
    }
    int64_t dim = wrapDim(*dimArg, sizesOf(x).size());
    c.giveExact(x, AtenScatterSrcOp::create(t.b, t.loc, t.tensor(),
                                            zerosLike(t, x), t.i(dim),
                                            c.result(1), c.grad(0)));
    return success();
  });
  table.add<AtenSoftmaxIntOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    std::optional<int64_t> dimArg = constInt(c.operand(1));
    if (!dimArg)
      return c.refuse("dim not constant");
    int64_t dim = wrapDim(*dimArg, sizesOf(c.operand(0)).size());
    Value y = c.result(), g = c.grad();
    Value dot = sumKept(t, t.mul(g, y), {dim});
    c.give(0, t.mul(y, t.sub(g, dot)));
    return success();
  });
  table.add<AtenLogSoftmaxIntOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    std::optional<int64_t> dimArg = constInt(c.operand(1));
    if (!dimArg)
      return c.refuse("dim not constant");
    int64_t dim = wrapDim(*dimArg, sizesOf(c.operand(0)).size());
    Value y = c.result(), g = c.grad();
    Value p = AtenExpOp::create(t.b, t.loc, t.tensor(), y);
    c.give(0, t.sub(g, t.mul(p, sumKept(t, g, {dim}))));
    return success();
  });
  table.add<AtenLogsumexpOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0);
    std::optional<SmallVector<int64_t>> dims =
        reducedDims(c.operand(1), sizesOf(x).size());
    std::optional<bool> keepdim = constBool(c.operand(2));
    if (!dims || !keepdim)
      return c.refuse("dims or keepdim not constant");
    Value g = expandReduced(t, c.grad(), x, *dims, *keepdim);
    Value y = expandReduced(t, c.result(), x, *dims, *keepdim);
    c.give(0, t.mul(g, AtenExpOp::create(t.b, t.loc, t.tensor(),
                                         t.sub(x, y))));
    return success();
  });
}
