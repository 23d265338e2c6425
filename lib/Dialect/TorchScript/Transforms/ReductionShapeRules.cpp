//===- ReductionShapeRules.cpp - Shape rules of reductions ----------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reductions over all dimensions or over a constant `dim` (an int or an int
// list; negative dims wrap; None or an empty list reduce everything), with
// `keepdim`; softmax and the normalisations that keep the input's sizes;
// sort and topk.
//
//===----------------------------------------------------------------------===//

#include "ShapeRuleUtils.h"

namespace mlir::tsmlir::ts {
using namespace shape;

/// The sizes of `self` reduced over `dims` (null: every dim) with `keepdim`
/// (null: false).
static Sizes reduce(Value self, Value dims, Value keepdim,
                    const ShapeFacts &facts) {
  Sizes sizes = getSizes(self);
  if (!sizes)
    return std::nullopt;
  std::optional<bool> keep = keepdim ? facts.getBool(keepdim) : false;
  std::optional<SmallVector<int64_t>> reduced =
      dims ? getReducedDims(facts, dims, sizes->size())
           : llvm::to_vector(llvm::seq<int64_t>(0, sizes->size()));
  if (!keep || !reduced)
    return std::nullopt;
  return reduceSizes(*sizes, *reduced, *keep);
}

/// sum and prod: a `dtype` argument, or Long for integral inputs.
static Type accumulateDtype(Value self, Value dtype, const ShapeFacts &facts) {
  FailureOr<Type> given = dtype ? facts.getDtypeArg(dtype) : Type();
  if (failed(given))
    return {};
  if (*given)
    return *given;
  Type own = getDtype(self);
  return isIntegralDtype(own) ? getLong(self.getContext()) : own;
}

/// mean, softmax, cumsum...: a `dtype` argument, or `fallback`.
static Type dtypeOr(Value dtype, Type fallback, const ShapeFacts &facts) {
  FailureOr<Type> given = facts.getDtypeArg(dtype);
  if (failed(given))
    return {};
  return *given ? *given : fallback;
}

/// A reduction rule from the operand indices of its dims, keepdim and dtype
/// arguments (-1: none) and how the dtype follows.
namespace {
enum class ReduceDtype { Self, Accumulate, Index, Float };
} // namespace

static ShapeRule reduction(int dimsIndex, int keepdimIndex, int dtypeIndex,
                           ReduceDtype kind) {
  return [=](Operation *op, const ShapeFacts &facts,
             SmallVectorImpl<Type> &results) {
    auto operand = [&](int i) { return i < 0 ? Value() : op->getOperand(i); };
    Value self = op->getOperand(0);
    Type dtype;
    switch (kind) {
    case ReduceDtype::Self:
      dtype = dtypeIndex < 0
                  ? getDtype(self)
                  : dtypeOr(operand(dtypeIndex), getDtype(self), facts);
      break;
    case ReduceDtype::Accumulate:
      dtype = accumulateDtype(self, operand(dtypeIndex), facts);
      break;
    case ReduceDtype::Index:
      dtype = getLong(op->getContext());
      break;
    case ReduceDtype::Float:
      dtype = toFloatIfIntegral(getDtype(self));
      break;
    }
    Sizes sizes =
        reduce(self, operand(dimsIndex), operand(keepdimIndex), facts);
    results[0] = makeTensor(op->getContext(), dtype, sizes, getDevice(self));
  };
}

/// max.dim and min.dim: (values, indices).
static void maxMinDimRule(Operation *op, const ShapeFacts &facts,
                          SmallVectorImpl<Type> &results) {
  Value self = op->getOperand(0);
  Sizes sizes = reduce(self, op->getOperand(1), op->getOperand(2), facts);
  results[0] =
      makeTensor(op->getContext(), getDtype(self), sizes, getDevice(self));
  results[1] = makeTensor(op->getContext(), getLong(op->getContext()), sizes,
                          getDevice(self));
}

/// argmax/argmin(self, dim?, keepdim): with dim None, a 0-d result, or all
/// ones of self's rank with keepdim.
static void argRule(Operation *op, const ShapeFacts &facts,
                    SmallVectorImpl<Type> &results) {
  Value self = op->getOperand(0), dim = op->getOperand(1),
        keepdim = op->getOperand(2);
  Sizes sizes;
  if (facts.isNone(dim)) {
    std::optional<bool> keep = facts.getBool(keepdim);
    std::optional<int64_t> rank = getRank(self);
    if (keep && !*keep)
      sizes.emplace();
    else if (keep && rank)
      sizes.emplace(*rank, 1);
  } else {
    sizes = reduce(self, dim, keepdim, facts);
  }
  results[0] = makeTensor(op->getContext(), getLong(op->getContext()), sizes,
                          getDevice(self));
}

/// all() and any(), and their .dim forms (self, dim, keepdim): Bool, or
/// Byte for a Byte input.
static void allAnyRule(Operation *op, const ShapeFacts &facts,
                       SmallVectorImpl<Type> &results) {
  Value self = op->getOperand(0);
  Type own = getDtype(self);
  Type dtype;
  if (own)
    dtype = own.isUnsignedInteger(8) ? own : getBool(op->getContext());
  Sizes sizes = op->getNumOperands() == 3
                    ? reduce(self, op->getOperand(1), op->getOperand(2), facts)
                    : Sizes(SmallVector<int64_t>());
  results[0] = makeTensor(op->getContext(), dtype, sizes, getDevice(self));
}

/// softmax.int and log_softmax.int: self's sizes, the dtype argument or
/// self's.
static void softmaxRule(Operation *op, const ShapeFacts &facts,
                        SmallVectorImpl<Type> &results) {
  Value self = op->getOperand(0);
  results[0] =
      withDtype(self, dtypeOr(op->getOperand(2), getDtype(self), facts));
}

/// _softmax and _log_softmax(self, dim, half_to_float).
static void internalSoftmaxRule(Operation *op, const ShapeFacts &facts,
                                SmallVectorImpl<Type> &results) {
  Value self = op->getOperand(0);
  Type dtype = getDtype(self);
  std::optional<bool> halfToFloat = facts.getBool(op->getOperand(2));
  if (!halfToFloat)
    dtype = {};
  else if (*halfToFloat && dtype && dtype.isF16())
    dtype = getDefaultFloat(op->getContext());
  results[0] = withDtype(self, dtype);
}

/// cumsum(self, dim, dtype?) and cumprod: self's sizes; like sum's dtype.
static void cumsumRule(Operation *op, const ShapeFacts &facts,
                       SmallVectorImpl<Type> &results) {
  Value self = op->getOperand(0);
  results[0] = withDtype(self, accumulateDtype(self, op->getOperand(2), facts));
}

/// sort(self, dim, descending) and sort.stable: (values, indices) of
/// self's sizes.
static void sortRule(Operation *op, const ShapeFacts &facts,
                     SmallVectorImpl<Type> &results) {
  Value self = op->getOperand(0);
  results[0] = sameAs(self);
  results[1] = withDtype(self, getLong(op->getContext()));
}

/// topk(self, k, dim, largest, sorted): self's sizes with k at dim.
static void topkRule(Operation *op, const ShapeFacts &facts,
                     SmallVectorImpl<Type> &results) {
  Value self = op->getOperand(0);
  Sizes sizes = getSizes(self);
  std::optional<int64_t> k = facts.getInt(op->getOperand(1));
  std::optional<int64_t> dimArg = facts.getInt(op->getOperand(2));
  std::optional<int64_t> dim =
      sizes && dimArg ? wrapDim(*dimArg, sizes->size()) : std::nullopt;
  if (sizes && k && dim && !sizes->empty())
    (*sizes)[*dim] = *k;
  else if (!(sizes && k && dim))
    sizes = std::nullopt;
  results[0] = makeTensor(op->getContext(), getDtype(self), sizes,
                          getDevice(self));
  results[1] = makeTensor(op->getContext(), getLong(op->getContext()), sizes,
                          getDevice(self));
}

/// native_layer_norm: (output, mean, rstd); mean and rstd keep the leading
/// dims and have size 1 in the normalised ones.
static void nativeLayerNormRule(Operation *op, const ShapeFacts &facts,
                                SmallVectorImpl<Type> &results) {
  Value input = op->getOperand(0);
  results[0] = sameAs(input);
  Sizes sizes = getSizes(input);
  std::optional<SmallVector<int64_t>> normalized =
      facts.getIntList(op->getOperand(1));
  Sizes statSizes;
  if (sizes && normalized && normalized->size() <= sizes->size()) {
    statSizes = *sizes;
    for (size_t i = sizes->size() - normalized->size(); i < sizes->size(); ++i)
      (*statSizes)[i] = 1;
  }
  // On CUDA, the statistics of half inputs are float; f32 and f64 stay.
  Type dtype = getDtype(input);
  if (dtype && !dtype.isF32() && !dtype.isF64())
    dtype = {};
  results[1] = results[2] =
      makeTensor(op->getContext(), dtype, statSizes, getDevice(input));
}

//===----------------------------------------------------------------------===//
// Rule registration
//===----------------------------------------------------------------------===//

void populateReductionShapeRules(ShapeRuleSet &rules) {
  // sum/prod(self, dtype?) and sum(self, dim?, keepdim, dtype?).
  rules.add<AtenSumOp, AtenProdOp>(
      reduction(-1, -1, 1, ReduceDtype::Accumulate));
  rules.add<AtenSumDimIntListOp>(reduction(1, 2, 3, ReduceDtype::Accumulate));
  // mean(self, dtype?) and mean(self, dim?, keepdim, dtype?).
  rules.add<AtenMeanOp>(reduction(-1, -1, 1, ReduceDtype::Self));
  rules.add<AtenMeanDimOp>(reduction(1, 2, 3, ReduceDtype::Self));
  // amax/amin(self, dim, keepdim), max/min(self).
  rules.add<AtenAmaxOp, AtenAminOp>(reduction(1, 2, -1, ReduceDtype::Self));
  rules.add<AtenMaxOp, AtenMinOp>(reduction(-1, -1, -1, ReduceDtype::Self));
  rules.add<AtenMaxDimOp, AtenMinDimOp>(maxMinDimRule);
  // var/std(self, unbiased), (self, dim?, unbiased, keepdim) and
  // (self, dim?, correction?, keepdim).
  rules.add<AtenVarOp, AtenStdOp>(reduction(-1, -1, -1, ReduceDtype::Self));
  rules.add<AtenVarDimOp, AtenStdDimOp, AtenVarCorrectionOp,
            AtenStdCorrectionOp>(reduction(1, 3, -1, ReduceDtype::Self));
  rules.add<AtenArgmaxOp, AtenArgminOp>(argRule);
  rules.add<AtenAllOp, AtenAnyOp, AtenAllDimOp, AtenAnyDimOp>(allAnyRule);
  // prod.dim_int(self, dim, keepdim, dtype?).
  rules.add<AtenProdDimIntOp>(reduction(1, 2, 3, ReduceDtype::Accumulate));
  rules.add<AtenLogsumexpOp>(reduction(1, 2, -1, ReduceDtype::Float));
  rules.add<AtenCumsumOp, AtenCumprodOp>(cumsumRule);
  rules.add<AtenSortOp, AtenSortStableOp>(sortRule);
  rules.add<AtenTopkOp>(topkRule);

  rules.add<AtenSoftmaxIntOp, AtenLogSoftmaxIntOp>(softmaxRule);
  rules.add<Aten_SoftmaxOp, Aten_LogSoftmaxOp>(internalSoftmaxRule);
  rules.add<AtenNativeLayerNormOp>(nativeLayerNormRule);
}

} // namespace mlir::tsmlir::ts
