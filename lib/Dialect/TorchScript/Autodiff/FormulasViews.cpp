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
//   expand, expand_as           g summed to the input's sizes
//   select, slice, narrow       g scattered into zeros of the input's sizes
//                               (select_scatter, slice_scatter)
//   cat, stack                  each input's slice (select) of g
//   prim::ConstantChunk         the chunks' gradients (zeros where none
//                               reached) concatenated
//   index_select, gather        g added at the indices (index_add,
//                               scatter_add)
//   triu, tril, flip, roll      the same op on g (roll by the opposite
//                               shifts)
//
//===----------------------------------------------------------------------===//

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

void autodiff::populateViewFormulas(FormulaTable &table) {
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
    if (!start || !length)
      return c.refuse("start or length not constant");
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
