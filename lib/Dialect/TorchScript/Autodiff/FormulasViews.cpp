//===- FormulasViews.cpp - Derivatives of views and data movement ---------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   reshape, view, flatten,     g viewed with the input's sizes
//   unflatten, (un)squeeze
//   permute, transpose, t       g permuted back
//   expand, expand_as,          g summed to the input's sizes
//   broadcast_to
//   select, slice, narrow       g scattered into zeros of the input's sizes
//                               (narrow from a start the data give: added
//                               at its indices)
//                               (select_scatter, slice_scatter)
//   cat, stack                  each input's slice (select) of g
//   chunk, split, unbind        the pieces' gradients (zeros for those none
//                               reached) concatenated (stacked); lists of
//                               tensors get their gradients by element
//                               (__getitem__, prim::ListUnpack)
//   constant_pad_nd, pad        g padded by the negated amounts (cut)
//   (constant mode)
//   pad (reflect, replicate,    g added back to the input index each
//   circular)                   output index reads, dim after dim
//   prim::ConstantChunk         the chunks' gradients (zeros where none
//                               reached) concatenated
//   index_select, gather,       g added at the indices (index_add,
//   index                       scatter_add, index_put accumulating)
//   scatter, slice_scatter,     the input: g with the written places
//   select_scatter              zeroed; the source: g read from them
//   repeat                      the tiles' gradients summed
//   masked_select               g's elements back at the mask's set places
//                               (kept whole: its size the data decide)
//   index_put                   the input: g (written places zeroed unless
//                               accumulating); the values: g at the indices
//                               (a boolean mask: at the places it selects,
//                               in order, found from its cumulative sum)
//   scatter_reduce              sum, mean, amax, amin, prod as PyTorch's
//                               scatter_reduce_backward
//   scatter_add, index_add      the input: g; the source: g read from the
//                               places it was added to (times alpha)
//   pixel_(un)shuffle           the other one on g
//   triu, tril, flip, roll      the same op on g (roll by the opposite
//                               shifts)
//
//===----------------------------------------------------------------------===//

#include "../Transforms/ShapeRuleUtils.h"
#include "Formulas.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::autodiff;
using namespace mlir::tsmlir::ts::decompose;

/// The tensors of a prim::ListConstruct operand, or nullopt.
static std::optional<SmallVector<Value>> listTensors(Value list) {
  auto construct = list.getDefiningOp<PrimListConstructOp>();
  if (!construct || !isUnmodifiedList(list))
    return std::nullopt;
  return SmallVector<Value>(construct.getElements());
}

/// The pieces' sizes along `dim` of a split of `size` into pieces of `piece`
/// (the last one shorter).
static SmallVector<int64_t> evenPieces(int64_t size, int64_t piece) {
  SmallVector<int64_t> pieces;
  for (int64_t start = 0; start < size; start += piece)
    pieces.push_back(std::min(piece, size - start));
  return pieces;
}

/// The input's gradient of a split of it into `pieces` along `dim`: the
/// pieces' gradients (zeros for those none reached) concatenated.
static LogicalResult splitGrads(GradContext &c, ArrayRef<int64_t> pieces,
                                int64_t dim) {
  TSBuilder &t = c.t;
  Value x = c.operand(0);
  SmallVector<int64_t> sizes = sizesOf(x);
  ArrayRef<Value> grads = c.elementGrads(c.result());
  SmallVector<Value> parts;
  for (auto [i, piece] : llvm::enumerate(pieces)) {
    SmallVector<int64_t> shape(sizes);
    shape[dim] = piece;
    Value g = i < grads.size() ? grads[i] : Value();
    parts.push_back(g ? g : zerosOf(t, shape, dtypeOf(x)));
  }
  c.giveExact(x, parts.size() == 1 ? parts.front() : t.cat(parts, dim));
  return success();
}

/// The input index that each output index of a dim of `n` elements padded
/// by `low` and `high` reads in `mode` (reflect: mirrored without repeating
/// the edge; replicate: the edge; circular: wrapped around what cropping
/// keeps), as the lowering reads it; nullopt for another mode or amounts the
/// mode refuses.
static std::optional<SmallVector<int64_t>>
padSource(StringRef mode, int64_t n, int64_t low, int64_t high) {
  int64_t start = std::max<int64_t>(-low, 0);
  int64_t kept = n - start - std::max<int64_t>(-high, 0);
  if ((mode == "reflect" && (low >= n || high >= n)) ||
      (mode == "circular" && (kept <= 0 || low > kept || high > kept)) ||
      (mode != "reflect" && mode != "replicate" && mode != "circular") ||
      n <= 0)
    return std::nullopt;
  SmallVector<int64_t> source;
  for (int64_t i = 0, e = n + low + high; i < e; ++i) {
    int64_t s = i - low;
    if (mode == "reflect") {
      s = s < 0 ? -s : s;
      s = s < n ? s : 2 * (n - 1) - s;
    } else if (mode == "replicate") {
      s = std::clamp<int64_t>(s, 0, n - 1);
    } else {
      int64_t k = (i - std::max<int64_t>(low, 0)) % kept;
      s = start + (k < 0 ? k + kept : k);
    }
    source.push_back(s);
  }
  return source;
}

/// pad in the reflect, replicate and circular modes: each padded dim's
/// output reads an input index (padSource), so g is added back to the
/// indices read (index_add), one padded dim after the other.
static LogicalResult padGrad(GradContext &c, ArrayRef<int64_t> pad) {
  TSBuilder &t = c.t;
  std::optional<StringRef> mode = constStr(c.operand(2));
  Value x = c.operand(0);
  SmallVector<int64_t> sizes = sizesOf(x);
  int64_t rank = sizes.size();
  if (!mode || pad.size() % 2 || static_cast<int64_t>(pad.size() / 2) > rank)
    return c.refuse("a pad mode that is not constant");
  SmallVector<int64_t> shape(sizes);
  for (size_t i = 0; i < pad.size() / 2; ++i)
    shape[rank - 1 - i] += pad[2 * i] + pad[2 * i + 1];
  Value g = c.grad();
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    int64_t dim = rank - 1 - i;
    std::optional<SmallVector<int64_t>> source =
        padSource(*mode, sizes[dim], pad[2 * i], pad[2 * i + 1]);
    if (!source)
      return c.refuse(
          ("the pad mode '" + *mode + "' with these amounts").str());
    shape[dim] = sizes[dim];
    Value index = t.longs(*source, {static_cast<int64_t>(source->size())});
    g = AtenIndexAddOp::create(t.b, t.loc, t.tensor(),
                               zerosOf(t, shape, dtypeOf(x)), t.i(dim), index,
                               g, t.i(1));
  }
  c.giveExact(x, g);
  return success();
}

/// scatter_reduce(x, dim, index, src, reduce, include_self), as PyTorch's
/// scatter_reduce_backward: sum: g, and g gathered; mean: g and g gathered,
/// divided by the count of values reduced at the place; amax and amin: g
/// shared evenly among the values equal to the result; prod: g times the
/// product of the others, a single zero's from the product without it.
/// Without include_self, x's gradient is zero where src reaches.
static LogicalResult scatterReduceGrad(GradContext &c) {
  TSBuilder &t = c.t;
  std::optional<StringRef> reduce = constStr(c.operand(4));
  std::optional<bool> includeSelf = constBool(c.operand(5));
  if (!reduce || !includeSelf)
    return c.refuse("reduce or include_self not constant");
  Value x = c.operand(0), dim = c.operand(1), index = c.operand(2),
        src = c.operand(3), g = c.grad(), y = c.result();
  auto gather = [&](Value v) {
    return AtenGatherOp::create(t.b, t.loc, t.tensor(), v, dim, index,
                                t.flag(false));
  };
  auto scatterAdd = [&](Value into, Value v) {
    return AtenScatterAddOp::create(t.b, t.loc, t.tensor(), into, dim, index,
                                    v);
  };
  auto eq = [&](Value a, Value b) {
    return AtenEqTensorOp::create(t.b, t.loc, t.tensor(), a, b);
  };
  auto eqNumber = [&](Value a, int64_t n) {
    return AtenEqScalarOp::create(t.b, t.loc, t.tensor(), a, t.i(n));
  };
  auto ones = [&](Value like) {
    return AtenOnesLikeOp::create(t.b, t.loc, t.tensor(), like, t.none(),
                                  t.none(), t.none(), t.none(), t.none());
  };
  auto asX = [&](Value v) { return t.castTo(v, dtypeOf(x)); };
  Value gradX, gradSrc;
  if (*reduce == "sum") {
    gradX = g;
    gradSrc = gather(g);
  } else if (*reduce == "mean") {
    Value count =
        scatterAdd(*includeSelf ? ones(g) : zerosLike(t, g), ones(src));
    count = t.whereNumber(eqNumber(count, 0), t.i(1), count);
    gradX = t.div(g, count);
    gradSrc = t.div(gather(g), gather(count));
  } else if (*reduce == "amax" || *reduce == "amin") {
    Value value = gather(y);
    Value xIsResult = eq(x, y), srcIsResult = eq(src, value);
    Value count = scatterAdd(asX(xIsResult), asX(srcIsResult));
    Value shared = t.div(g, count);
    gradX = t.mul(xIsResult, shared);
    gradSrc = t.mul(srcIsResult, gather(shared));
  } else if (*reduce == "prod") {
    auto reduceWith = [&](Value self, Value values) {
      return AtenScatterReduceTwoOp::create(t.b, t.loc, t.tensor(), self, dim,
                                            index, values, c.operand(4),
                                            c.operand(5));
    };
    // x: the product of the others, x's zeros taken as 1.
    Value xZero = eqNumber(x, 0);
    Value maskedX = t.whereNumber(xZero, t.i(1), x);
    gradX = t.div(t.mul(g, reduceWith(maskedX, src)), maskedX);
    // src: divided by src where no zero is, else the product without the
    // one zero; zero where two or more are.
    Value srcZero = eqNumber(src, 0);
    Value zeros = gather(scatterAdd(zerosLike(t, x), asX(srcZero)));
    Value singleZero = t.logicalAnd(srcZero, eqNumber(zeros, 1));
    Value withoutZero = reduceWith(x, t.whereNumber(singleZero, t.i(1), src));
    gradSrc = t.where(
        singleZero, gather(t.mul(g, withoutZero)),
        t.div(gather(t.mul(g, y)), t.whereNumber(srcZero, t.i(1), src)));
  } else {
    return c.refuse(("the reduction '" + *reduce + "'").str());
  }
  if (!*includeSelf)
    gradX = AtenScatterValueOp::create(t.b, t.loc, t.tensor(), gradX, dim,
                                       index, t.i(0));
  c.giveExact(x, gradX);
  c.giveExact(src, gradSrc);
  return success();
}

/// For a flat Bool `set`, j at the place of its j-th set element (Long;
/// what is left at the other places is to be ignored): its cumulative sum
/// less 1.
static Value setOrder(TSBuilder &t, Value set) {
  return AtenSubScalarOp::create(t.b, t.loc, t.tensor(),
                                 AtenCumsumOp::create(t.b, t.loc, t.tensor(),
                                                      set, t.i(0),
                                                      t.i(decompose::kLong)),
                                 t.i(1), t.i(1));
}

/// The gradient of the values of x[mask] = values (mask over x's leading
/// dims): the slab x[mask] is [count, rest...] with the values broadcast to
/// it. Values without a count dim of their own take g summed over the
/// masked places; values with one (count of them, in the mask's row-major
/// order) take g at the place each was written to, found without the
/// count: the j-th true place is where the mask's cumulative sum reaches
/// j + 1 (an index_add into count + 1 rows, the last for the false places).
static Value maskedValuesGrad(TSBuilder &t, Value g, Value mask,
                              ArrayRef<int64_t> xSizes,
                              ArrayRef<int64_t> valueSizes) {
  int64_t m = sizesOf(mask).size();
  SmallVector<int64_t> rest(xSizes.begin() + m, xSizes.end());
  int64_t places = 1;
  for (int64_t size : xSizes.take_front(m))
    places *= size;
  SmallVector<int64_t> flat = {places};
  flat.append(rest);
  Value rows = reshapeTo(t, g, flat);
  Value set = reshapeTo(t, mask, {places});
  int64_t countDim = static_cast<int64_t>(valueSizes.size()) - 1 - rest.size();
  Value slab;
  if (countDim < 0 || valueSizes[countDim] == 1) {
    SmallVector<int64_t> column = {places};
    column.append(rest.size(), 1);
    Value unset = t.logicalNot(reshapeTo(t, set, column));
    slab = t.sumDim(t.whereNumber(unset, t.f(0), rows), 0);
  } else {
    int64_t count = valueSizes[countDim];
    Value position = setOrder(t, set);
    Value slot = t.whereNumber(t.logicalNot(set), t.i(count), position);
    SmallVector<int64_t> slots = {count + 1};
    slots.append(rest);
    Value added = AtenIndexAddOp::create(t.b, t.loc, t.tensor(),
                                         zerosOf(t, slots, dtypeOf(g)), t.i(0),
                                         slot, rows, t.i(1));
    slab = t.narrow(added, 0, 0, count);
  }
  return AtenSumToSizeOp::create(t.b, t.loc, t.tensor(), slab,
                                 t.sizes(valueSizes));
}

void autodiff::populateViewFormulas(FormulaTable &table) {
  // Lists of tensors: gradients by element.
  table.add<Aten__Getitem__TOp>([](GradContext &c) {
    std::optional<int64_t> index = constInt(c.operand(1));
    std::optional<SmallVector<Value>> elements = listTensors(c.operand(0));
    if (!index)
      return c.refuse("the index is not constant");
    int64_t i = *index;
    if (i < 0 && elements)
      i += elements->size();
    if (i < 0)
      return c.refuse("a negative index into a list of unknown length");
    c.accumulateElement(c.operand(0), i, c.grad());
    return success();
  });
  table.add<PrimListUnpackOp>([](GradContext &c) {
    for (auto [i, g] : llvm::enumerate(c.resultGrads))
      c.accumulateElement(c.operand(0), i, g);
    return success();
  });
  table.add<PrimListConstructOp>([](GradContext &c) {
    for (auto [element, g] :
         llvm::zip(c.op->getOperands(), c.elementGrads(c.result())))
      c.giveExact(element, g);
    return success();
  });
  table.add<AtenChunkOp>([](GradContext &c) {
    std::optional<int64_t> chunks = constInt(c.operand(1));
    std::optional<int64_t> dimArg = constInt(c.operand(2));
    if (!chunks || !dimArg || *chunks <= 0)
      return c.refuse("chunks or dim not constant");
    SmallVector<int64_t> sizes = sizesOf(c.operand(0));
    int64_t dim = wrapDim(*dimArg, sizes.size());
    int64_t piece = (sizes[dim] + *chunks - 1) / *chunks;
    return splitGrads(c, evenPieces(sizes[dim], std::max<int64_t>(piece, 1)),
                      dim);
  });
  table.add<AtenSplitTensorOp>([](GradContext &c) {
    std::optional<int64_t> piece = constInt(c.operand(1));
    std::optional<int64_t> dimArg = constInt(c.operand(2));
    if (!piece || !dimArg || *piece <= 0)
      return c.refuse("split_size or dim not constant");
    SmallVector<int64_t> sizes = sizesOf(c.operand(0));
    int64_t dim = wrapDim(*dimArg, sizes.size());
    return splitGrads(c, evenPieces(sizes[dim], *piece), dim);
  });
  table.add<AtenSplitWithSizesOp>([](GradContext &c) {
    std::optional<SmallVector<int64_t>> pieces = constIntList(c.operand(1));
    std::optional<int64_t> dimArg = constInt(c.operand(2));
    if (!pieces || !dimArg)
      return c.refuse("split_sizes or dim not constant");
    int64_t dim = wrapDim(*dimArg, sizesOf(c.operand(0)).size());
    return splitGrads(c, *pieces, dim);
  });
  table.add<AtenUnbindIntOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    std::optional<int64_t> dimArg = constInt(c.operand(1));
    if (!dimArg)
      return c.refuse("dim not constant");
    Value x = c.operand(0);
    SmallVector<int64_t> sizes = sizesOf(x);
    int64_t dim = wrapDim(*dimArg, sizes.size());
    SmallVector<int64_t> slice(sizes);
    slice.erase(slice.begin() + dim);
    ArrayRef<Value> grads = c.elementGrads(c.result());
    SmallVector<Value> parts;
    for (int64_t i = 0; i < sizes[dim]; ++i) {
      Value g = i < static_cast<int64_t>(grads.size()) ? grads[i] : Value();
      parts.push_back(g ? g : zerosOf(t, slice, dtypeOf(x)));
    }
    c.giveExact(x, t.stack(parts, dim));
    return success();
  });
  // constant_pad_nd, and pad in constant mode: g cut back (padded by the
  // negated amounts).
  table.add<AtenConstantPadNdOp, AtenPadOp>([](GradContext &c) {
    std::optional<SmallVector<int64_t>> pad = constIntList(c.operand(1));
    if (!pad)
      return c.refuse("pad not constant");
    if (llvm::isa<AtenPadOp>(c.op) && constStr(c.operand(2)) != "constant")
      return padGrad(c, *pad);
    SmallVector<int64_t> back;
    for (int64_t p : *pad)
      back.push_back(-p);
    c.giveExact(c.operand(0),
                AtenConstantPadNdOp::create(c.t.b, c.t.loc, c.t.tensor(),
                                            c.grad(), c.t.sizes(back),
                                            c.t.i(0)));
    return success();
  });
  // scatter(x, dim, index, src): x's gradient is g with the scattered
  // places zeroed, src's g gathered from them.
  table.add<AtenScatterSrcOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value dim = c.operand(1), index = c.operand(2), src = c.operand(3);
    c.giveExact(c.operand(0),
                AtenScatterValueOp::create(t.b, t.loc, t.tensor(), c.grad(),
                                           dim, index, t.f(0)));
    c.giveExact(src, AtenGatherOp::create(t.b, t.loc, t.tensor(), c.grad(),
                                          dim, index, t.flag(false)));
    return success();
  });
  table.add<AtenSliceScatterOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value src = c.operand(1);
    c.giveExact(c.operand(0),
                AtenSliceScatterOp::create(
                    t.b, t.loc, t.tensor(), c.grad(), zerosLike(t, src),
                    c.operand(2), c.operand(3), c.operand(4), c.operand(5)));
    c.giveExact(src, AtenSliceTensorOp::create(t.b, t.loc, t.tensor(),
                                               c.grad(), c.operand(2),
                                               c.operand(3), c.operand(4),
                                               c.operand(5)));
    return success();
  });
  table.add<AtenSelectScatterOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value src = c.operand(1);
    c.giveExact(c.operand(0),
                AtenSelectScatterOp::create(t.b, t.loc, t.tensor(), c.grad(),
                                            zerosLike(t, src), c.operand(2),
                                            c.operand(3)));
    c.giveExact(src, AtenSelectIntOp::create(t.b, t.loc, t.tensor(),
                                             c.grad(), c.operand(2),
                                             c.operand(3)));
    return success();
  });
  // repeat: each tile's gradient, summed (g viewed [r0, s0, r1, s1, ...]
  // and summed over the r's).
  table.add<AtenRepeatOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    std::optional<SmallVector<int64_t>> repeats = constIntList(c.operand(1));
    if (!repeats)
      return c.refuse("repeats not constant");
    SmallVector<int64_t> sizes = sizesOf(c.operand(0));
    // Leading repeats add dims; the input is viewed with 1s there.
    SmallVector<int64_t> padded(repeats->size() - sizes.size(), 1);
    llvm::append_range(padded, sizes);
    SmallVector<int64_t> split, tiles;
    for (auto [i, r] : llvm::enumerate(*repeats)) {
      split.push_back(r);
      split.push_back(padded[i]);
      tiles.push_back(2 * i);
    }
    Value g = reshapeTo(t, c.grad(), split);
    if (!tiles.empty())
      g = AtenSumDimIntListOp::create(t.b, t.loc, t.tensor(), g,
                                      t.sizes(tiles), t.flag(false), t.none());
    c.giveExact(c.operand(0), reshapeTo(t, g, sizes));
    return success();
  });
  // x[indices]: g added back at the indexed places (index_put with
  // accumulate into zeros).
  table.add<AtenIndexTensorOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0);
    c.giveExact(x, AtenIndexPutOp::create(t.b, t.loc, t.tensor(),
                                          zerosLike(t, x), c.operand(1),
                                          c.grad(), t.flag(true)));
    return success();
  });
  // index_put(x, indices, values, accumulate): x's gradient is g, with the
  // written places zeroed unless it accumulates; the values' is g read at
  // the indices, summed back to their sizes.
  table.add<AtenIndexPutOp, AtenIndexPutHackedTwinOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    std::optional<bool> accumulate = constBool(c.operand(3));
    if (!accumulate)
      return c.refuse("accumulate not constant");
    Value x = c.operand(0), values = c.operand(2);
    Value g = c.grad();
    if (!*accumulate)
      g = AtenIndexPutOp::create(t.b, t.loc, t.tensor(), g, c.operand(1),
                                 zerosOf(t, {}, dtypeOf(x)), t.flag(false));
    auto construct = c.operand(1).getDefiningOp<PrimListConstructOp>();
    if (construct && construct.getNumOperands() == 1 &&
        !isNone(construct.getOperand(0)) && dtypeOf(construct.getOperand(0)) &&
        dtypeOf(construct.getOperand(0)).isInteger(1)) {
      c.giveExact(x, g);
      c.giveExact(values, maskedValuesGrad(t, c.grad(), construct.getOperand(0),
                                           sizesOf(x), sizesOf(values)));
      return success();
    }
    auto isMask = [](Value index) {
      Type dtype = isNone(index) ? Type() : dtypeOf(index);
      return !isNone(index) && (!dtype || dtype.isInteger(1));
    };
    if (!construct || llvm::any_of(construct.getOperands(), isMask))
      return c.refuse("boolean masks among other indices, or not a list of "
                      "known tensors");
    c.giveExact(x, g);
    Value taken = AtenIndexTensorOp::create(t.b, t.loc, t.tensor(), c.grad(),
                                            c.operand(1));
    c.giveExact(values, AtenSumToSizeOp::create(t.b, t.loc, t.tensor(), taken,
                                                t.sizes(sizesOf(values))));
    return success();
  });
  // masked_select(x, mask): g's j-th element goes back to the place of
  // the mask's j-th set element (x and mask broadcast), found from the
  // mask's cumulative sum; g, whose size the data decide, is read with one
  // zero after it so that a mask with none set reads inside it.
  table.addWhole<AtenMaskedSelectOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0), mask = c.operand(1);
    std::optional<SmallVector<int64_t>> shape =
        shape::broadcast({sizesOf(x), sizesOf(mask)});
    if (!shape)
      return c.refuse("the input and the mask do not broadcast");
    int64_t n = shape::numElements(*shape);
    if (n == 0) {
      c.giveExact(x, zerosLike(t, x));
      return success();
    }
    Value set = reshapeTo(t, t.expand(mask, *shape), {n});
    Value unset = t.logicalNot(set);
    Value position = setOrder(t, set);
    Value index = t.whereNumber(unset, t.i(0), position);
    Value padded = t.cat({c.grad(), zerosOf(t, {1}, dtypeOf(x))}, 0);
    Value flat = t.whereNumber(unset, t.f(0), t.indexSelect(padded, 0, index));
    c.giveExact(x, AtenSumToSizeOp::create(t.b, t.loc, t.tensor(),
                                           reshapeTo(t, flat, *shape),
                                           t.sizes(sizesOf(x))));
    return success();
  });
  table.allowDynamicResults<AtenMaskedSelectOp>();
  table.add<AtenScatterReduceTwoOp>(scatterReduceGrad);
  table.add<AtenScatterAddOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    c.giveExact(c.operand(0), c.grad());
    c.giveExact(c.operand(3),
                AtenGatherOp::create(t.b, t.loc, t.tensor(), c.grad(),
                                     c.operand(1), c.operand(2),
                                     t.flag(false)));
    return success();
  });
  table.add<AtenIndexAddOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    c.giveExact(c.operand(0), c.grad());
    Value taken = AtenIndexSelectOp::create(t.b, t.loc, t.tensor(), c.grad(),
                                            c.operand(1), c.operand(2));
    // A 0-d source is indexed by a 1-element index.
    c.giveExact(c.operand(3), reshapeTo(t, mulNumber(t, taken, c.operand(4)),
                                        sizesOf(c.operand(3))));
    return success();
  });
  table.add<AtenPixelShuffleOp>([](GradContext &c) {
    c.giveExact(c.operand(0),
                AtenPixelUnshuffleOp::create(c.t.b, c.t.loc, c.t.tensor(),
                                             c.grad(), c.operand(1)));
    return success();
  });
  table.add<AtenPixelUnshuffleOp>([](GradContext &c) {
    c.giveExact(c.operand(0),
                AtenPixelShuffleOp::create(c.t.b, c.t.loc, c.t.tensor(),
                                           c.grad(), c.operand(1)));
    return success();
  });
  table.add<AtenBroadcastToOp>([](GradContext &c) {
    c.give(0, c.grad());
    return success();
  });
  table.add<AtenReshapeOp, AtenViewOp, AtenFlattenUsingIntsOp,
            AtenUnflattenIntOp, AtenUnsqueezeOp, AtenSqueezeOp,
            AtenSqueezeDimOp, AtenViewAsOp, AtenReshapeAsOp>(
      [](GradContext &c) {
        c.giveExact(c.operand(0),
                    reshapeTo(c.t, c.grad(), sizesOf(c.operand(0))));
        return success();
      });
  table.add<AtenPermuteOp>([](GradContext &c) {
    std::optional<SmallVector<int64_t>> order = constIntList(c.operand(1));
    if (!order)
      return c.refuse("dims not constant");
    SmallVector<int64_t> inverse(order->size());
    for (auto [i, d] : llvm::enumerate(*order))
      inverse[wrapDim(d, order->size())] = i;
    c.giveExact(c.operand(0), c.t.permute(c.grad(), inverse));
    return success();
  });
  table.add<AtenTransposeIntOp>([](GradContext &c) {
    std::optional<int64_t> d0 = constInt(c.operand(1)),
                           d1 = constInt(c.operand(2));
    if (!d0 || !d1)
      return c.refuse("dims not constant");
    c.giveExact(c.operand(0), c.t.transpose(c.grad(), *d0, *d1));
    return success();
  });
  table.add<AtenTOp>([](GradContext &c) {
    c.giveExact(c.operand(0), AtenTOp::create(c.t.b, c.t.loc, c.t.tensor(),
                                              c.grad()));
    return success();
  });
  table.add<AtenExpandOp, AtenExpandAsOp>([](GradContext &c) {
    c.give(0, c.grad());
    return success();
  });
  table.add<AtenSelectIntOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0);
    c.giveExact(x, AtenSelectScatterOp::create(t.b, t.loc, t.tensor(),
                                               zerosLike(t, x), c.grad(),
                                               c.operand(1), c.operand(2)));
    return success();
  });
  table.add<AtenSliceTensorOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0);
    c.giveExact(x, AtenSliceScatterOp::create(
                       t.b, t.loc, t.tensor(), zerosLike(t, x), c.grad(),
                       c.operand(1), c.operand(2), c.operand(3),
                       c.operand(4)));
    return success();
  });
  table.add<AtenNarrowOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0);
    std::optional<int64_t> start = constInt(c.operand(2)),
                           length = constInt(c.operand(3));
    if (!length)
      return c.refuse("length not constant");
    if (!start) {
      // A start the data give (an int or a 0-d tensor, negative from the
      // end): g added at (start + i + size) mod size, i < length.
      SmallVector<int64_t> sizes = sizesOf(x);
      std::optional<int64_t> dimArg = constInt(c.operand(1));
      if (!dimArg)
        return c.refuse("dim not constant");
      int64_t dim = wrapDim(*dimArg, sizes.size());
      Value from = c.operand(2);
      Value index = t.arange(*length);
      index = llvm::isa<ts::TensorType>(from.getType())
                  ? t.add(index, from)
                  : AtenAddScalarOp::create(t.b, t.loc, t.tensor(), index, from,
                                            t.i(1));
      index = AtenRemainderScalarOp::create(
          t.b, t.loc, t.tensor(),
          AtenAddScalarOp::create(t.b, t.loc, t.tensor(), index,
                                  t.i(sizes[dim]), t.i(1)),
          t.i(sizes[dim]));
      c.giveExact(x, AtenIndexAddOp::create(t.b, t.loc, t.tensor(),
                                            zerosLike(t, x), t.i(dim), index,
                                            c.grad(), t.i(1)));
      return success();
    }
    c.giveExact(x, AtenSliceScatterOp::create(
                       t.b, t.loc, t.tensor(), zerosLike(t, x), c.grad(),
                       c.operand(1), t.i(*start), t.i(*start + *length),
                       t.i(1)));
    return success();
  });
  table.add<AtenCatOp, AtenStackOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    std::optional<SmallVector<Value>> inputs = listTensors(c.operand(0));
    std::optional<int64_t> dimArg = constInt(c.operand(1));
    if (!inputs || !dimArg)
      return c.refuse("not a list of tensors, or dim not constant");
    bool stack = llvm::isa<AtenStackOp>(c.op);
    int64_t dim = wrapDim(*dimArg, sizesOf(c.result()).size());
    int64_t offset = 0;
    for (auto [i, input] : llvm::enumerate(*inputs)) {
      if (stack) {
        c.giveExact(input, t.select(c.grad(), dim, i));
        continue;
      }
      SmallVector<int64_t> sizes = sizesOf(input);
      // PyTorch's cat skips empty 1-D inputs of another rank.
      if (sizes.size() != sizesOf(c.result()).size())
        continue;
      c.giveExact(input, t.narrow(c.grad(), dim, offset, sizes[dim]));
      offset += sizes[dim];
    }
    return success();
  });
  table.add<PrimConstantChunkOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    auto chunk = llvm::cast<PrimConstantChunkOp>(c.op);
    int64_t dim = wrapDim(chunk.getDim(), sizesOf(c.operand(0)).size());
    SmallVector<Value> parts;
    for (auto [i, result] : llvm::enumerate(c.op->getResults()))
      parts.push_back(c.grad(i) ? c.grad(i) : zerosLike(t, result));
    c.giveExact(c.operand(0),
                parts.size() == 1 ? parts.front() : t.cat(parts, dim));
    return success();
  });
  table.add<AtenIndexSelectOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0);
    c.giveExact(x, AtenIndexAddOp::create(t.b, t.loc, t.tensor(),
                                          zerosLike(t, x), c.operand(1),
                                          c.operand(2), c.grad(), t.i(1)));
    return success();
  });
  table.add<AtenGatherOp>([](GradContext &c) {
    TSBuilder &t = c.t;
    Value x = c.operand(0);
    c.giveExact(x, AtenScatterAddOp::create(t.b, t.loc, t.tensor(),
                                            zerosLike(t, x), c.operand(1),
                                            c.operand(2), c.grad()));
    return success();
  });
  table.add<AtenTriuOp>([](GradContext &c) {
    c.giveExact(c.operand(0), AtenTriuOp::create(c.t.b, c.t.loc, c.t.tensor(),
                                                 c.grad(), c.operand(1)));
    return success();
  });
  table.add<AtenTrilOp>([](GradContext &c) {
    c.giveExact(c.operand(0), AtenTrilOp::create(c.t.b, c.t.loc, c.t.tensor(),
                                                 c.grad(), c.operand(1)));
    return success();
  });
  table.add<AtenFlipOp>([](GradContext &c) {
    c.giveExact(c.operand(0), AtenFlipOp::create(c.t.b, c.t.loc, c.t.tensor(),
                                                 c.grad(), c.operand(1)));
    return success();
  });
  table.add<AtenRollOp>([](GradContext &c) {
    std::optional<SmallVector<int64_t>> shifts = constIntList(c.operand(1));
    if (!shifts)
      return c.refuse("shifts not constant");
    SmallVector<int64_t> back;
    for (int64_t s : *shifts)
      back.push_back(-s);
    c.giveExact(c.operand(0),
                AtenRollOp::create(c.t.b, c.t.loc, c.t.tensor(), c.grad(),
                                   c.t.sizes(back), c.operand(2)));
    return success();
  });
}
