//===- DecomposeNormalization.cpp - Batch and instance normalisation ------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Normalisation by statistics of the input, with the running statistics
// updated in place as ATen's Normalization.cpp updates them:
//
//   batch_norm(training=True)   the mean and biased variance over every dim
//                               but the channels' (1) normalise the input;
//                               running_mean and running_var, when given,
//                               become running + momentum * (stat -
//                               running), the variance unbiased (times n /
//                               (n - 1), n the elements per channel), by
//                               copy_ (which mutation removal then handles)
//   native_batch_norm           the same, and the statistics it saves: the
//                               mean and 1 / sqrt(var + eps) in training, two
//                               empty tensors in evaluation
//   instance_norm               with the input's statistics, a group_norm of
//                               one group per channel, and the running
//                               statistics (when given) updated by the mean
//                               over the batch of each instance's; else
//                               batch_norm in evaluation mode with the
//                               running ones
//
//===----------------------------------------------------------------------===//

#include "DecomposeUtils.h"
#include "ShapeRuleUtils.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::decompose;

namespace {

/// The ts ops the decompositions below build, with unrefined types.
struct NormBuilder : TSBuilder {
  static bool given(Value x) { return !isa<ts::NoneType>(x.getType()); }

  Value mean(Value x, ArrayRef<int64_t> dims) {
    return AtenMeanDimOp::create(b, loc, tensor(), x, sizes(dims), flag(false),
                                 none());
  }
  /// The biased variance over `dims`.
  Value variance(Value x, ArrayRef<int64_t> dims) {
    return AtenVarCorrectionOp::create(b, loc, tensor(), x, sizes(dims), i(0),
                                       flag(false));
  }
  Value scaled(Value x, double factor) {
    return AtenMulScalarOp::create(b, loc, tensor(), x, f(factor));
  }
  /// `stat` ([C]) shaped to broadcast along dim 1 of a rank `rank` tensor.
  Value perChannel(Value stat, int64_t channels, int64_t rank) {
    SmallVector<int64_t> shape(rank, 1);
    shape[1] = channels;
    return reshape(stat, shape);
  }
  /// running.copy_(running + momentum * (stat - running)), when running is
  /// given.
  void updateRunning(Value running, Value stat, Value momentum) {
    if (!given(running))
      return;
    Value updated =
        AtenLerpScalarOp::create(b, loc, tensor(), running, stat, momentum);
    AtenCopy_Op::create(b, loc, tensor(), running, updated, flag(false));
  }
};

/// The elements per channel and the dims other than the channels' of an
/// input of `sizes` (rank >= 2, no empty dim).
struct ChannelDims {
  int64_t channels = 0;
  int64_t perChannel = 0;
  SmallVector<int64_t> others;
};

std::optional<ChannelDims> channelDims(Value input) {
  std::optional<SmallVector<int64_t>> sizes = staticSizes(input);
  if (!sizes || sizes->size() < 2 || !dtypeOf(input) ||
      !isa<mlir::FloatType>(dtypeOf(input)))
    return std::nullopt;
  ChannelDims dims;
  dims.channels = (*sizes)[1];
  dims.perChannel = 1;
  for (auto [dim, size] : llvm::enumerate(*sizes)) {
    if (size == 0)
      return std::nullopt;
    if (dim != 1) {
      dims.perChannel *= size;
      dims.others.push_back(dim);
    }
  }
  return dims;
}

/// The input normalised by its batch statistics, weight and bias applied,
/// the running statistics updated; its mean and 1 / sqrt(var + eps).
struct BatchNorm {
  Value out, mean, invstd;
};

template <typename OpTy>
BatchNorm batchNormTraining(NormBuilder &t, OpTy op, const ChannelDims &dims) {
  Value x = op.getInput();
  int64_t rank = dims.others.size() + 1;
  Value mean = t.mean(x, dims.others);
  Value var = t.variance(x, dims.others);
  Value invstd =
      AtenRsqrtOp::create(t.b, t.loc, t.tensor(),
                          AtenAddScalarOp::create(t.b, t.loc, t.tensor(), var,
                                                  op.getEps(), t.i(1)));
  Value out = t.mul(t.sub(x, t.perChannel(mean, dims.channels, rank)),
                    t.perChannel(invstd, dims.channels, rank));
  if (NormBuilder::given(op.getWeight()))
    out = t.mul(out, t.perChannel(op.getWeight(), dims.channels, rank));
  if (NormBuilder::given(op.getBias()))
    out = t.add(out, t.perChannel(op.getBias(), dims.channels, rank));
  double unbias = static_cast<double>(dims.perChannel) /
                  static_cast<double>(dims.perChannel - 1);
  t.updateRunning(op.getRunningMean(), mean, op.getMomentum());
  t.updateRunning(op.getRunningVar(), t.scaled(var, unbias), op.getMomentum());
  return {out, mean, invstd};
}

struct DecomposeBatchNormTraining : public OpRewritePattern<AtenBatchNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenBatchNormOp op,
                                PatternRewriter &rewriter) const override {
    if (constBool(op.getTraining()) != true)
      return rewriter.notifyMatchFailure(op, "not in training mode");
    std::optional<ChannelDims> dims = channelDims(op.getInput());
    if (!dims)
      return rewriter.notifyMatchFailure(op, "a float input of static sizes, "
                                             "rank >= 2, none empty expected");
    NormBuilder t{{rewriter, op.getLoc()}};
    replaceWithDeclaredTypes(rewriter, op,
                             {batchNormTraining(t, op, *dims).out});
    return success();
  }
};

struct DecomposeNativeBatchNorm
    : public OpRewritePattern<AtenNativeBatchNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenNativeBatchNormOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<bool> training = constBool(op.getTraining());
    Type dtype = dtypeOf(op.getInput());
    if (!training || !dtype)
      return rewriter.notifyMatchFailure(op, "training or dtype not known");
    NormBuilder t{{rewriter, op.getLoc()}};
    if (*training) {
      std::optional<ChannelDims> dims = channelDims(op.getInput());
      if (!dims)
        return rewriter.notifyMatchFailure(op, "a float input of static "
                                               "sizes, rank >= 2, none empty "
                                               "expected");
      BatchNorm norm = batchNormTraining(t, op, *dims);
      replaceWithDeclaredTypes(rewriter, op,
                               {norm.out, norm.mean, norm.invstd});
      return success();
    }
    Value out = AtenBatchNormOp::create(
        rewriter, op.getLoc(), t.tensor(), op.getInput(), op.getWeight(),
        op.getBias(), op.getRunningMean(), op.getRunningVar(), t.flag(false),
        op.getMomentum(), op.getEps(), t.flag(false));
    Value empty = t.castTo(t.zeros({0}, kLong), dtype);
    replaceWithDeclaredTypes(rewriter, op, {out, empty, t.clone(empty)});
    return success();
  }
};

struct DecomposeInstanceNorm : public OpRewritePattern<AtenInstanceNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenInstanceNormOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<bool> useInputStats = constBool(op.getUseInputStats());
    if (!useInputStats)
      return rewriter.notifyMatchFailure(op, "use_input_stats not constant");
    NormBuilder t{{rewriter, op.getLoc()}};
    if (!*useInputStats) {
      Value result = AtenBatchNormOp::create(
          rewriter, op.getLoc(), t.tensor(), op.getInput(), op.getWeight(),
          op.getBias(), op.getRunningMean(), op.getRunningVar(), t.flag(false),
          op.getMomentum(), op.getEps(), op.getCudnnEnabled());
      replaceWithDeclaredTypes(rewriter, op, {result});
      return success();
    }
    std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getInput());
    if (!sizes || sizes->size() < 2)
      return rewriter.notifyMatchFailure(op, "channels not known");
    bool updates = NormBuilder::given(op.getRunningMean()) ||
                   NormBuilder::given(op.getRunningVar());
    if (updates) {
      // Each instance's statistics ([N, C]), averaged over the batch.
      SmallVector<int64_t> spatial;
      int64_t perInstance = 1;
      for (int64_t dim = 2, e = sizes->size(); dim < e; ++dim) {
        spatial.push_back(dim);
        perInstance *= (*sizes)[dim];
      }
      if (spatial.empty() || !dtypeOf(op.getInput()) ||
          shape::numElements(*sizes) == 0)
        return rewriter.notifyMatchFailure(op, "no spatial elements");
      Value mean = t.mean(t.mean(op.getInput(), spatial), {0});
      double unbias = static_cast<double>(perInstance) /
                      static_cast<double>(perInstance - 1);
      Value var =
          t.mean(t.scaled(t.variance(op.getInput(), spatial), unbias), {0});
      t.updateRunning(op.getRunningMean(), mean, op.getMomentum());
      t.updateRunning(op.getRunningVar(), var, op.getMomentum());
    }
    Value result = AtenGroupNormOp::create(
        rewriter, op.getLoc(), t.tensor(), op.getInput(), t.i((*sizes)[1]),
        op.getWeight(), op.getBias(), op.getEps(), op.getCudnnEnabled());
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

} // namespace

void mlir::tsmlir::ts::decompose::populateNormalizationPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeBatchNormTraining, DecomposeNativeBatchNorm,
               DecomposeInstanceNorm>(patterns.getContext());
}
