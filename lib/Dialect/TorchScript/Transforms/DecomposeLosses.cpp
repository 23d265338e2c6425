//===- DecomposeLosses.cpp - Loss functions as the ops they are made of ---===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// torch.nn's losses as PyTorch's own CPU implementations compute them
// (aten/src/ATen/native/Loss.cpp, LossNLL.cpp), elementwise, then reduced
// by the constant `reduction`: 0 none, 1 mean, 2 sum.
//
//   mse_loss            (x - y)^2
//   l1_loss             |x - y|
//   smooth_l1_loss      0.5 z^2 / beta where z = |x - y| < beta, else
//                       z - 0.5 beta (l1 for beta = 0)
//   huber_loss          0.5 z^2 where z < delta, else delta (z - 0.5 delta)
//   soft_margin_loss    log1p(exp(-y x))
//   hinge_embedding     where(y != 1, max(margin - x, 0), 0)
//                       + where(y != -1, x, 0)
//   margin_ranking      max(-y (x1 - x2) + margin, 0)
//   binary_cross_       (y - 1) max(log1p(-x), -100) - y max(log(x), -100),
//   entropy             times weight
//   ..._with_logits     (1 - y) x + lw (log(exp(-m) + exp(-x - m)) + m),
//                       m = max(-x, 0), lw = (pos_weight - 1) y + 1;
//                       times weight
//   kl_div              exp(y) (y - x) with log_target, else
//                       xlogy(y, y) - y x
//   nll_loss (_nd, 2d)  -w[t] x[t] at each target t along the class dim,
//                       0 where t is ignore_index; the mean divides by
//                       the sum of the w[t] taken
//   cross_entropy_loss  nll_loss of log_softmax over the class dim; with
//                       probabilities for targets, -sum(log_softmax * y *
//                       w) over the class dim; label smoothing mixes in
//                       the loss against the uniform distribution
//   cosine_embedding    where(y == 1, 1 - cos, 0) + where(y == -1,
//                       max(cos - margin, 0), 0)
//   triplet_margin      max(d(a, p) - d(a, n) + margin, 0), d the
//                       pairwise distance (the smaller of d(a, n) and
//                       d(p, n) with swap)
//   poisson_nll_loss    exp(x) - y x with log_input, else x - y log(x +
//                       eps); with full, Stirling's term where y > 1
//   multi_margin_loss   sum over d != y of max(margin - x[y] + x[d], 0)^p
//                       (times w[y]) over C
//   multilabel_margin   sum over targets j and non-targets i of
//   _loss               max(1 - (x[j] - x[i]), 0) over C; the targets end
//                       at the first -1
//
//===----------------------------------------------------------------------===//

#include "DecomposeUtils.h"

#include <cmath>
#include <functional>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::decompose;

namespace {

/// The ops the losses are made of, on top of TSBuilder's.
struct LossBuilder : TSBuilder {
  Value abs(Value x) { return AtenAbsOp::create(b, loc, tensor(), x); }
  Value neg(Value x) { return AtenNegOp::create(b, loc, tensor(), x); }
  Value exp(Value x) { return AtenExpOp::create(b, loc, tensor(), x); }
  Value log(Value x) { return AtenLogOp::create(b, loc, tensor(), x); }
  Value scale(Value x, double v) {
    return AtenMulScalarOp::create(b, loc, tensor(), x, f(v));
  }
  Value divide(Value x, double v) {
    return AtenDivScalarOp::create(b, loc, tensor(), x, f(v));
  }
  Value plus(Value x, double v) {
    return AtenAddScalarOp::create(b, loc, tensor(), x, f(v), i(1));
  }
  /// v - x.
  Value minusFrom(double v, Value x) {
    return AtenRsubScalarOp::create(b, loc, tensor(), x, f(v), i(1));
  }
  Value clampMin(Value x, double v) {
    return AtenClampMinOp::create(b, loc, tensor(), x, f(v));
  }
  /// where(c, v, x).
  Value whereNumber(Value c, double v, Value x) {
    return TSBuilder::whereNumber(c, f(v), x);
  }
  Value lessThan(Value x, double v) {
    return AtenLtScalarOp::create(b, loc, tensor(), x, f(v));
  }
  Value equals(Value x, int64_t v) {
    return AtenEqScalarOp::create(b, loc, tensor(), x, i(v));
  }
  Value notEquals(Value x, int64_t v) {
    return AtenNeScalarOp::create(b, loc, tensor(), x, i(v));
  }
  Value zerosLike(Value x) {
    return AtenZerosLikeOp::create(b, loc, tensor(), x, none(), none(),
                                   none(), none(), none());
  }
  /// `loss` reduced as `reduction` says (0 none, 1 mean, 2 sum).
  Value reduce(Value loss, int64_t reduction) {
    if (reduction == 1)
      return AtenMeanOp::create(b, loc, tensor(), loss, none());
    if (reduction == 2)
      return sumAll(loss);
    return loss;
  }
};

/// An optional tensor argument: null for None (by its type, or a None
/// constant through casts), else the tensor; nullopt while its type does not
/// say which.
std::optional<Value> optionalTensor(Value v) {
  Value inner = stripUncheckedCasts(v);
  if (llvm::isa<ts::NoneType>(inner.getType()))
    return Value();
  if (llvm::isa<ts::TensorType>(inner.getType()))
    return inner;
  return std::nullopt;
}

/// The constant reduction operand: 0, 1 or 2.
std::optional<int64_t> getReduction(Value v) {
  std::optional<int64_t> r = constInt(v);
  if (!r || *r < 0 || *r > 2)
    return std::nullopt;
  return r;
}

/// A loss of one elementwise formula over its operands, reduced by the
/// operand at `reductionIndex`. `Formula` builds the unreduced loss from
/// the op and returns null when a needed constant is not known.
template <typename OpTy>
struct ElementwiseLoss : public OpRewritePattern<OpTy> {
  using Formula = std::function<Value(OpTy, LossBuilder &)>;

  ElementwiseLoss(MLIRContext *ctx, unsigned reductionIndex, Formula formula)
      : OpRewritePattern<OpTy>(ctx), reductionIndex(reductionIndex),
        formula(std::move(formula)) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> reduction =
        getReduction(op->getOperand(reductionIndex));
    if (!reduction)
      return rewriter.notifyMatchFailure(op, "reduction is not a constant");
    LossBuilder t{{rewriter, op.getLoc()}};
    Value loss = formula(op, t);
    if (!loss)
      return rewriter.notifyMatchFailure(op, "an argument is not a constant");
    replaceWithDeclaredTypes(rewriter, op, {t.reduce(loss, *reduction)});
    return success();
  }

  unsigned reductionIndex;
  Formula formula;
};

/// The pieces of nll_loss: each target's weighted pick and its weight.
struct NllTerms {
  /// -w[t] x[t] (0 where ignored), of the target's sizes.
  Value loss;
  /// w[t] (0 where ignored).
  Value weight;
  /// target == ignore_index.
  Value ignored;
};

/// nll_loss's terms for `input` (log-probabilities of `rank` 1, [C], or
/// more, [N, C, ...]), `target` (class indices, [] or [N, ...]) and
/// `weight` (None or [C]).
NllTerms buildNll(LossBuilder &t, Value input, int64_t rank, Value target,
                  Value weight, int64_t ignoreIndex) {
  int64_t classDim = rank == 1 ? 0 : 1;
  NllTerms terms;
  terms.ignored = t.equals(target, ignoreIndex);
  // Ignored targets read class 0, then weigh 0.
  Value safe = AtenWhereScalarSelfOp::create(t.b, t.loc, t.tensor(),
                                             terms.ignored, t.i(0), target);
  Value index = t.unsqueeze(safe, classDim);
  Value picked = AtenGatherOp::create(t.b, t.loc, t.tensor(), input,
                                      t.i(classDim), index, t.flag(false));
  picked = AtenSqueezeDimOp::create(t.b, t.loc, t.tensor(), picked,
                                    t.i(classDim));
  Value kept = AtenLogicalNotOp::create(t.b, t.loc, t.tensor(), terms.ignored);
  if (!weight) {
    terms.weight = AtenTypeAsOp::create(t.b, t.loc, t.tensor(), kept, input);
  } else {
    Value flat = AtenReshapeOp::create(t.b, t.loc, t.tensor(), safe,
                                       intListValue(t, {-1}));
    Value taken =
        AtenIndexSelectOp::create(t.b, t.loc, t.tensor(), weight, t.i(0), flat);
    taken = AtenReshapeAsOp::create(t.b, t.loc, t.tensor(), taken, target);
    terms.weight = t.whereNumber(terms.ignored, 0.0, taken);
  }
  terms.loss = t.neg(t.mul(picked, terms.weight));
  return terms;
}

/// nll_loss reduced: the mean divides by the total weight taken.
Value reduceNll(LossBuilder &t, const NllTerms &terms, int64_t reduction) {
  if (reduction == 1)
    return t.div(t.sumAll(terms.loss), t.sumAll(terms.weight));
  return t.reduce(terms.loss, reduction);
}

template <typename OpTy>
struct DecomposeNllLoss : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    std::optional<int64_t> reduction = getReduction(raw->getOperand(3));
    std::optional<int64_t> ignore = constInt(raw->getOperand(4));
    if (!reduction || !ignore)
      return rewriter.notifyMatchFailure(op, "reduction or ignore_index not "
                                             "constant");
    std::optional<SmallVector<int64_t>> sizes =
        staticSizes(raw->getOperand(0));
    std::optional<Value> weight = optionalTensor(raw->getOperand(2));
    if (!sizes || sizes->empty() || !weight)
      return rewriter.notifyMatchFailure(op, "input's rank or whether there "
                                             "is a weight not known");
    LossBuilder t{{rewriter, op.getLoc()}};
    NllTerms terms = buildNll(t, raw->getOperand(0), sizes->size(),
                              raw->getOperand(1), *weight, *ignore);
    replaceWithDeclaredTypes(rewriter, raw, {reduceNll(t, terms, *reduction)});
    return success();
  }
};

/// weight viewed to broadcast along the class dim of a tensor of `rank`.
Value classWeight(LossBuilder &t, Value weight, int64_t rank,
                  int64_t classDim, int64_t classes) {
  SmallVector<int64_t> shape(rank, 1);
  shape[classDim] = classes;
  return t.reshape(weight, shape);
}

struct DecomposeCrossEntropy : public OpRewritePattern<AtenCrossEntropyLossOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenCrossEntropyLossOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> reduction = getReduction(op.getReduction());
    std::optional<int64_t> ignore = constInt(op.getIgnoreIndex());
    std::optional<double> smoothing = constFloat(op.getLabelSmoothing());
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    auto targetType = llvm::dyn_cast<ts::TensorType>(op.getTarget().getType());
    std::optional<Value> givenWeight = optionalTensor(op.getWeight());
    if (!reduction || !ignore || !smoothing || !sizes || sizes->empty() ||
        !targetType || !targetType.getDtype() || !givenWeight)
      return rewriter.notifyMatchFailure(op, "arguments, sizes or the "
                                             "target's dtype not known");
    int64_t rank = sizes->size();
    int64_t classDim = rank == 1 ? 0 : 1;
    int64_t classes = (*sizes)[classDim];
    double ls = *smoothing;
    LossBuilder t{{rewriter, op.getLoc()}};
    Value logp = AtenLogSoftmaxIntOp::create(rewriter, op.getLoc(), t.tensor(),
                                             op.getSelf(), t.i(classDim),
                                             t.none());
    Value weight = *givenWeight;
    Value result;
    if (llvm::isa<mlir::FloatType>(targetType.getDtype())) {
      // Probabilities for targets.
      Value target = op.getTarget();
      if (ls > 0)
        target = t.plus(t.scale(target, 1 - ls), ls / classes);
      Value product = t.mul(logp, target);
      if (weight)
        product =
            t.mul(product, classWeight(t, weight, rank, classDim, classes));
      Value loss = t.neg(t.sumDim(product, classDim));
      if (*reduction == 1) {
        int64_t count = 1;
        for (int64_t s : *sizes)
          count *= s;
        result = t.divide(t.sumAll(loss), static_cast<double>(count / classes));
      } else {
        result = t.reduce(loss, *reduction);
      }
      replaceWithDeclaredTypes(rewriter, op, {result});
      return success();
    }
    NllTerms terms =
        buildNll(t, logp, rank, op.getTarget(), weight, *ignore);
    result = reduceNll(t, terms, *reduction);
    if (ls > 0) {
      Value weighted =
          !weight
              ? logp
              : t.mul(logp, classWeight(t, weight, rank, classDim, classes));
      Value smooth = t.whereNumber(terms.ignored, 0.0,
                                   t.neg(t.sumDim(weighted, classDim)));
      if (*reduction == 1 && weight)
        smooth = t.div(t.sumAll(smooth), t.sumAll(terms.weight));
      else
        smooth = t.reduce(smooth, *reduction);
      result = t.add(t.scale(result, 1 - ls), t.scale(smooth, ls / classes));
    }
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

/// multi_margin_loss(x [N, C] or [C], target [N] or [], p, margin, weight,
/// reduction): per sample, the sum over the classes d other than the
/// target y of max(margin - x[y] + x[d], 0)^p (times weight[y]), over C.
/// A 1-D or 0-d input is one sample; with a 0-d target its unreduced loss
/// is 0-d.
struct DecomposeMultiMarginLoss
    : public OpRewritePattern<AtenMultiMarginLossOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenMultiMarginLossOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<SmallVector<int64_t>> targetSizes =
        staticSizes(op.getTarget());
    std::optional<double> p = constFloat(op.getP());
    std::optional<int64_t> reduction = getReduction(op.getReduction());
    std::optional<Value> weight = optionalTensor(op.getWeight());
    if (!sizes || sizes->size() > 2 || !targetSizes || !p ||
        (*p != 1 && *p != 2) || !reduction || !weight)
      return rewriter.notifyMatchFailure(
          op, "sizes, p (1 or 2), weight or reduction not known");
    LossBuilder t{{rewriter, op.getLoc()}};
    Value x = op.getSelf(), target = op.getTarget();
    // A 0-d input is one sample of one class.
    int64_t classes = sizes->empty() ? 1 : sizes->back();
    if (sizes->size() < 2)
      x = t.reshape(x, {1, classes});
    if (targetSizes->empty())
      target = t.unsqueeze(target, 0);
    Value column = t.unsqueeze(target, 1); // [N, 1]
    Value picked = t.gather(x, 1, column);
    Value z = AtenAddScalarOp::create(rewriter, op.getLoc(), t.tensor(),
                                      t.sub(x, picked), op.getMargin(), t.i(1));
    Value h =
        AtenClampMinOp::create(rewriter, op.getLoc(), t.tensor(), z, t.i(0));
    if (*p == 2)
      h = t.mul(h, h);
    if (*weight)
      h = t.mul(h, t.unsqueeze(t.indexSelect(*weight, 0, target), 1));
    Value isTarget =
        AtenEqTensorOp::create(rewriter, op.getLoc(), t.tensor(),
                               t.unsqueeze(t.arange(classes), 0), column);
    h = t.whereNumber(isTarget, 0.0, h);
    Value loss = t.divide(t.sumDim(h, 1), static_cast<double>(classes));
    if (targetSizes->empty())
      loss = AtenSqueezeDimOp::create(rewriter, op.getLoc(), t.tensor(), loss,
                                      t.i(0));
    replaceWithDeclaredTypes(rewriter, op, {t.reduce(loss, *reduction)});
    return success();
  }
};

/// multilabel_margin_loss(x [N, C] or [C], target of x's sizes, reduction):
/// a sample's targets are its target row's entries before the first -1;
/// its loss is the sum over targets j and non-targets i of
/// max(1 - (x[j] - x[i]), 0), over C. A 1-D or 0-d input is one sample,
/// its unreduced loss 0-d.
struct DecomposeMultilabelMarginLoss
    : public OpRewritePattern<AtenMultilabelMarginLossOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenMultilabelMarginLossOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getSelf());
    std::optional<int64_t> reduction = getReduction(op.getReduction());
    if (!sizes || sizes->size() > 2 || !reduction)
      return rewriter.notifyMatchFailure(op, "sizes or reduction not known");
    LossBuilder t{{rewriter, op.getLoc()}};
    Location loc = op.getLoc();
    Value x = op.getSelf(), target = op.getTarget();
    // A 1-D (or 0-d: one class) input is one sample.
    bool oneSample = sizes->size() < 2;
    int64_t classes = sizes->empty() ? 1 : sizes->back();
    if (oneSample) {
      x = t.reshape(x, {1, classes});
      target = t.reshape(target, {1, classes});
    }
    // valid[n, j]: no -1 at or before j.
    Value present = t.to(t.notEquals(target, -1), kLong);
    Value valid = t.notEquals(AtenCumprodOp::create(rewriter, loc, t.tensor(),
                                                    present, t.i(1), t.none()),
                              0);
    Value index =
        AtenClampMinOp::create(rewriter, loc, t.tensor(), target, t.i(0));
    // isTarget[n, i]: some valid j names class i.
    Value names = AtenEqTensorOp::create(
        rewriter, loc, t.tensor(), t.unsqueeze(index, 2),
        t.unsqueeze(t.unsqueeze(t.arange(classes), 0), 0)); // [N, j, i]
    Value isTarget = t.anyDim(t.logicalAnd(names, t.unsqueeze(valid, 2)), 1,
                              false);     // [N, i]
    Value picked = t.gather(x, 1, index); // [N, j]
    Value margin = t.minusFrom(
        1, t.sub(t.unsqueeze(picked, 2), t.unsqueeze(x, 1))); // [N, j, i]
    Value h = AtenClampMinOp::create(rewriter, loc, t.tensor(), margin, t.i(0));
    Value counted = t.logicalAnd(t.unsqueeze(valid, 2),
                                 t.logicalNot(t.unsqueeze(isTarget, 1)));
    h = t.where(counted, h, t.zerosLike(h));
    Value loss = t.divide(AtenSumDimIntListOp::create(rewriter, loc, t.tensor(),
                                                      h, t.sizes({1, 2}),
                                                      t.flag(false), t.none()),
                          static_cast<double>(classes));
    if (oneSample)
      loss = AtenSqueezeDimOp::create(rewriter, loc, t.tensor(), loss, t.i(0));
    replaceWithDeclaredTypes(rewriter, op, {t.reduce(loss, *reduction)});
    return success();
  }
};

/// The pairwise distance PyTorch's triplet loss takes.
Value distance(LossBuilder &t, Value x, Value y, Value p, Value eps) {
  return AtenPairwiseDistanceOp::create(t.b, t.loc, t.tensor(), x, y, p, eps,
                                        t.flag(false));
}

} // namespace

void decompose::populateLossPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ElementwiseLoss<AtenMseLossOp>>(
      ctx, 2, [](AtenMseLossOp op, LossBuilder &t) {
        Value d = t.sub(op.getSelf(), op.getTarget());
        return t.mul(d, d);
      });
  patterns.add<ElementwiseLoss<AtenL1LossOp>>(
      ctx, 2, [](AtenL1LossOp op, LossBuilder &t) {
        return t.abs(t.sub(op.getSelf(), op.getTarget()));
      });
  patterns.add<ElementwiseLoss<AtenSmoothL1LossOp>>(
      ctx, 2, [](AtenSmoothL1LossOp op, LossBuilder &t) -> Value {
        std::optional<double> beta = constFloat(op.getBeta());
        if (!beta)
          return {};
        Value z = t.abs(t.sub(op.getSelf(), op.getTarget()));
        if (*beta == 0)
          return z;
        Value quadratic = t.divide(t.mul(t.scale(z, 0.5), z), *beta);
        return t.where(t.lessThan(z, *beta), quadratic,
                       t.plus(z, -0.5 * *beta));
      });
  patterns.add<ElementwiseLoss<AtenHuberLossOp>>(
      ctx, 2, [](AtenHuberLossOp op, LossBuilder &t) -> Value {
        std::optional<double> delta = constFloat(op.getDelta());
        if (!delta)
          return {};
        Value z = t.abs(t.sub(op.getSelf(), op.getTarget()));
        return t.where(t.lessThan(z, *delta), t.mul(t.scale(z, 0.5), z),
                       t.scale(t.plus(z, -0.5 * *delta), *delta));
      });
  patterns.add<ElementwiseLoss<AtenSoftMarginLossOp>>(
      ctx, 2, [](AtenSoftMarginLossOp op, LossBuilder &t) {
        Value product = t.mul(t.neg(op.getSelf()), op.getTarget());
        return AtenLog1pOp::create(t.b, t.loc, t.tensor(), t.exp(product));
      });
  patterns.add<ElementwiseLoss<AtenHingeEmbeddingLossOp>>(
      ctx, 3, [](AtenHingeEmbeddingLossOp op, LossBuilder &t) -> Value {
        std::optional<double> margin = constFloat(op.getMargin());
        if (!margin)
          return {};
        Value zeros = t.zerosLike(op.getSelf());
        Value clamped = t.clampMin(t.minusFrom(*margin, op.getSelf()), 0);
        Value marginPart =
            t.where(t.notEquals(op.getTarget(), 1), clamped, zeros);
        Value selfPart =
            t.where(t.notEquals(op.getTarget(), -1), op.getSelf(), zeros);
        return t.add(marginPart, selfPart);
      });
  patterns.add<ElementwiseLoss<AtenMarginRankingLossOp>>(
      ctx, 4, [](AtenMarginRankingLossOp op, LossBuilder &t) -> Value {
        std::optional<double> margin = constFloat(op.getMargin());
        if (!margin)
          return {};
        Value d = t.sub(op.getInput1(), op.getInput2());
        return t.clampMin(t.plus(t.mul(t.neg(op.getTarget()), d), *margin), 0);
      });
  patterns.add<ElementwiseLoss<AtenBinaryCrossEntropyOp>>(
      ctx, 3, [](AtenBinaryCrossEntropyOp op, LossBuilder &t) -> Value {
        std::optional<Value> weight = optionalTensor(op.getWeight());
        if (!weight)
          return {};
        Value x = op.getSelf(), y = op.getTarget();
        Value logOneMinus = t.clampMin(
            AtenLog1pOp::create(t.b, t.loc, t.tensor(), t.neg(x)), -100);
        Value logX = t.clampMin(t.log(x), -100);
        Value loss = t.sub(t.mul(t.plus(y, -1), logOneMinus), t.mul(y, logX));
        return *weight ? t.mul(loss, *weight) : loss;
      });
  patterns.add<ElementwiseLoss<AtenBinaryCrossEntropyWithLogitsOp>>(
      ctx, 4,
      [](AtenBinaryCrossEntropyWithLogitsOp op, LossBuilder &t) -> Value {
        std::optional<Value> weight = optionalTensor(op.getWeight());
        std::optional<Value> posWeight = optionalTensor(op.getPosWeight());
        if (!weight || !posWeight)
          return {};
        Value x = op.getSelf(), y = op.getTarget();
        Value m = t.clampMin(t.neg(x), 0);
        Value softplus = t.add(
            t.log(t.add(t.exp(t.neg(m)), t.exp(t.sub(t.neg(x), m)))), m);
        if (*posWeight)
          softplus =
              t.mul(t.plus(t.mul(t.plus(*posWeight, -1), y), 1), softplus);
        Value loss = t.add(t.mul(t.minusFrom(1, y), x), softplus);
        return *weight ? t.mul(loss, *weight) : loss;
      });
  patterns.add<ElementwiseLoss<AtenKlDivOp>>(
      ctx, 2, [](AtenKlDivOp op, LossBuilder &t) -> Value {
        std::optional<bool> logTarget = constBool(op.getLogTarget());
        if (!logTarget)
          return {};
        Value x = op.getSelf(), y = op.getTarget();
        if (*logTarget)
          return t.mul(t.exp(y), t.sub(y, x));
        return t.sub(AtenXlogyTensorOp::create(t.b, t.loc, t.tensor(), y, y),
                     t.mul(y, x));
      });
  patterns.add<ElementwiseLoss<AtenCosineEmbeddingLossOp>>(
      ctx, 4, [](AtenCosineEmbeddingLossOp op, LossBuilder &t) -> Value {
        std::optional<double> margin = constFloat(op.getMargin());
        std::optional<SmallVector<int64_t>> sizes =
            staticSizes(op.getInput1());
        if (!margin || !sizes)
          return {};
        int64_t dim = sizes->size() == 1 ? 0 : 1;
        Value x = op.getInput1(), y = op.getInput2();
        constexpr double kEpsilon = 1e-12;
        Value dot = t.sumDim(t.mul(x, y), dim);
        Value xx = t.plus(t.sumDim(t.mul(x, x), dim), kEpsilon);
        Value yy = t.plus(t.sumDim(t.mul(y, y), dim), kEpsilon);
        Value cos =
            t.div(dot, AtenSqrtOp::create(t.b, t.loc, t.tensor(), t.mul(xx, yy)));
        Value zeros = t.zerosLike(cos);
        Value pos = t.where(t.equals(op.getTarget(), 1), t.minusFrom(1, cos),
                            zeros);
        Value neg = t.where(t.equals(op.getTarget(), -1),
                            t.clampMin(t.plus(cos, -*margin), 0), zeros);
        return t.add(pos, neg);
      });
  patterns.add<ElementwiseLoss<AtenTripletMarginLossOp>>(
      ctx, 7, [](AtenTripletMarginLossOp op, LossBuilder &t) -> Value {
        std::optional<double> margin = constFloat(op.getMargin());
        std::optional<bool> swap = constBool(op.getSwap());
        if (!margin || !swap)
          return {};
        Value positive = distance(t, op.getAnchor(), op.getPositive(),
                                  op.getP(), op.getEps());
        Value negative = distance(t, op.getAnchor(), op.getNegative(),
                                  op.getP(), op.getEps());
        if (*swap)
          negative = AtenMinimumOp::create(
              t.b, t.loc, t.tensor(), negative,
              distance(t, op.getPositive(), op.getNegative(), op.getP(),
                       op.getEps()));
        return t.clampMin(t.sub(t.plus(positive, *margin), negative), 0);
      });
  patterns.add<ElementwiseLoss<AtenPoissonNllLossOp>>(
      ctx, 5, [](AtenPoissonNllLossOp op, LossBuilder &t) -> Value {
        std::optional<bool> logInput = constBool(op.getLogInput());
        std::optional<bool> full = constBool(op.getFull());
        std::optional<double> eps = constFloat(op.getEps());
        if (!logInput || !full || !eps)
          return {};
        Value x = op.getInput(), y = op.getTarget();
        Value loss = *logInput ? t.sub(t.exp(x), t.mul(y, x))
                               : t.sub(x, t.mul(y, t.log(t.plus(x, *eps))));
        if (*full) {
          Value stirling = t.add(
              t.sub(t.mul(y, t.log(y)), y),
              t.scale(t.log(t.scale(y, 2 * M_PI)), 0.5));
          Value small =
              AtenLeScalarOp::create(t.b, t.loc, t.tensor(), y, t.i(1));
          loss = t.add(loss, t.whereNumber(small, 0.0, stirling));
        }
        return loss;
      });
  patterns
      .add<DecomposeNllLoss<AtenNllLossOp>, DecomposeNllLoss<AtenNllLossNdOp>,
           DecomposeNllLoss<AtenNllLoss2dOp>, DecomposeCrossEntropy,
           DecomposeMultiMarginLoss, DecomposeMultilabelMarginLoss>(ctx);
}
