//===- Decompose.cpp - Composite operators as the ops they are made of ----===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Operators that PyTorch implements by composing others become those others,
// so that shape inference, fusion and lowering see only ops they know:
//
//   lstm, gru, rnn_tanh, rnn_relu (.input)  unrolled over time: per layer,
//                                            direction and step, the cell's
//                                            linear, sigmoid, tanh, mul, add
//   instance_norm                            group_norm with one group per
//                                            channel (batch_norm with the
//                                            running statistics)
//   var_mean, std_mean                       var / std and mean
//   mv, outer, addmv                         matmul, mul of unsqueezed
//                                            vectors, add
//   conv2d.padding ("same", "valid")         conv2d with int padding, after
//                                            a constant_pad_nd when uneven
//
// A decomposition that needs a size (the number of time steps, the hidden
// size, the channels) waits until shape inference knows it: the pass runs in
// every round of --ts-optimize.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tsmlir::ts {
#define GEN_PASS_DEF_TSDECOMPOSEPASS
#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir::ts

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;

namespace {

/// Builds ts ops with unrefined result types, which the next round of shape
/// inference refines.
struct TSBuilder {
  OpBuilder &b;
  Location loc;

  MLIRContext *ctx() { return b.getContext(); }
  Type tensor() { return ts::TensorType::get(ctx()); }
  Value i(int64_t v) {
    return PrimConstantOp::create(b, loc, ts::IntType::get(ctx()),
                                  b.getI64IntegerAttr(v));
  }
  Value flag(bool v) {
    return PrimConstantOp::create(b, loc, ts::BoolType::get(ctx()),
                                  b.getBoolAttr(v));
  }
  Value none() {
    return PrimConstantOp::create(b, loc, ts::NoneType::get(ctx()), Attribute());
  }
  Value select(Value x, int64_t dim, int64_t index) {
    return AtenSelectIntOp::create(b, loc, tensor(), x, i(dim), i(index));
  }
  Value narrow(Value x, int64_t dim, int64_t start, int64_t length) {
    return AtenNarrowOp::create(b, loc, tensor(), x, i(dim), i(start),
                                i(length));
  }
  Value unsqueeze(Value x, int64_t dim) {
    return AtenUnsqueezeOp::create(b, loc, tensor(), x, i(dim));
  }
  Value linear(Value x, Value weight, Value bias) {
    return AtenLinearOp::create(b, loc, tensor(), x, weight,
                                bias ? bias : none());
  }
  Value matmul(Value x, Value y) {
    return AtenMatmulOp::create(b, loc, tensor(), x, y);
  }
  Value add(Value x, Value y) {
    return AtenAddTensorOp::create(b, loc, tensor(), x, y, i(1));
  }
  Value mul(Value x, Value y) {
    return AtenMulTensorOp::create(b, loc, tensor(), x, y);
  }
  /// 1 - x.
  Value oneMinus(Value x) {
    return AtenRsubScalarOp::create(b, loc, tensor(), x, i(1), i(1));
  }
  Value sigmoid(Value x) { return AtenSigmoidOp::create(b, loc, tensor(), x); }
  Value tanh(Value x) { return AtenTanhOp::create(b, loc, tensor(), x); }
  Value relu(Value x) { return AtenReluOp::create(b, loc, tensor(), x); }
  Value list(ArrayRef<Value> xs) {
    return PrimListConstructOp::create(b, loc, ts::ListType::get(ctx(), tensor()),
                                       xs);
  }
  Value stack(ArrayRef<Value> xs, int64_t dim) {
    return AtenStackOp::create(b, loc, tensor(), list(xs), i(dim));
  }
  Value cat(ArrayRef<Value> xs, int64_t dim) {
    return AtenCatOp::create(b, loc, tensor(), list(xs), i(dim));
  }
};

std::optional<int64_t> constInt(Value v) {
  IntegerAttr attr;
  if (matchPattern(v, m_Constant(&attr)))
    return attr.getInt();
  return std::nullopt;
}

std::optional<bool> constBool(Value v) {
  BoolAttr attr;
  if (matchPattern(v, m_Constant(&attr)))
    return attr.getValue();
  return std::nullopt;
}

std::optional<double> constFloat(Value v) {
  FloatAttr f;
  if (matchPattern(v, m_Constant(&f)))
    return f.getValueAsDouble();
  if (std::optional<int64_t> i = constInt(v))
    return static_cast<double>(*i);
  return std::nullopt;
}

/// The static sizes of tensor `v`, or nullopt.
std::optional<SmallVector<int64_t>> staticSizes(Value v) {
  auto type = llvm::dyn_cast<ts::TensorType>(v.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  return SmallVector<int64_t>(type.getSizesOrEmpty());
}

/// The tensors of a list: a prim::ListConstruct's elements, or a constant
/// list's tensors, each made a constant of its own.
std::optional<SmallVector<Value>> tensorList(OpBuilder &b, Location loc,
                                             Value list) {
  if (auto construct = list.getDefiningOp<PrimListConstructOp>())
    return SmallVector<Value>(construct.getElements());
  auto constant = list.getDefiningOp<PrimConstantOp>();
  auto array = constant ? llvm::dyn_cast_or_null<ArrayAttr>(
                              constant.getValueAttr())
                        : ArrayAttr();
  if (!array)
    return std::nullopt;
  SmallVector<Value> tensors;
  for (Attribute element : array) {
    if (!llvm::isa<ElementsAttr>(element))
      return std::nullopt;
    tensors.push_back(PrimConstantOp::create(
        b, loc, ts::TensorType::get(b.getContext()), element));
  }
  return tensors;
}

/// Replaces `op` by `results`, each cast to the type the op declared for
/// it where the two differ (the decomposition's types are unrefined until
/// the next round of shape inference).
void replaceWithDeclaredTypes(PatternRewriter &rewriter, Operation *op,
                              SmallVector<Value> results) {
  for (auto [value, old] : llvm::zip_equal(results, op->getResults()))
    if (value.getType() != old.getType())
      value = PrimUncheckedCastOp::create(rewriter, op->getLoc(),
                                          old.getType(), value);
  rewriter.replaceOp(op, results);
}

//===----------------------------------------------------------------------===//
// Recurrent networks
//===----------------------------------------------------------------------===//

enum class Cell { LSTM, GRU, Tanh, Relu };

/// lstm/gru/rnn_tanh/rnn_relu.input(input, hx, params, has_biases,
/// num_layers, dropout, train, bidirectional, batch_first), unrolled. The
/// params are, per layer and direction, w_ih, w_hh (and b_ih, b_hh); hx is
/// [h0, c0] for an LSTM, h0 otherwise, each [layers * directions, batch,
/// hidden]. The reverse direction runs from the last step to the first;
/// the directions' outputs are concatenated along the features.
template <typename OpTy, Cell cell>
struct DecomposeRNN : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    Value input = raw->getOperand(0), hx = raw->getOperand(1);
    std::optional<bool> hasBiases = constBool(raw->getOperand(3));
    std::optional<int64_t> numLayers = constInt(raw->getOperand(4));
    std::optional<double> dropout = constFloat(raw->getOperand(5));
    std::optional<bool> train = constBool(raw->getOperand(6));
    std::optional<bool> bidirectional = constBool(raw->getOperand(7));
    std::optional<bool> batchFirst = constBool(raw->getOperand(8));
    if (!hasBiases || !numLayers || !dropout || !train || !bidirectional ||
        !batchFirst || *numLayers < 1)
      return rewriter.notifyMatchFailure(op, "arguments are not constants");
    if (*train && *dropout > 0 && *numLayers > 1)
      return rewriter.notifyMatchFailure(op, "dropout between layers");
    std::optional<SmallVector<int64_t>> inSizes = staticSizes(input);
    if (!inSizes || inSizes->size() != 3)
      return rewriter.notifyMatchFailure(op, "input sizes are not known");
    int64_t timeDim = *batchFirst ? 1 : 0;
    int64_t steps = (*inSizes)[timeDim];
    int64_t directions = *bidirectional ? 2 : 1;
    int64_t perCell = *hasBiases ? 4 : 2;

    TSBuilder t{rewriter, op.getLoc()};
    std::optional<SmallVector<Value>> params =
        tensorList(rewriter, op.getLoc(), raw->getOperand(2));
    if (!params || static_cast<int64_t>(params->size()) !=
                       *numLayers * directions * perCell)
      return rewriter.notifyMatchFailure(
          op, "params are not a known list of the expected length (LSTM "
              "projections are not decomposed)");
    Value h0 = hx, c0;
    if (cell == Cell::LSTM) {
      std::optional<SmallVector<Value>> states =
          tensorList(rewriter, op.getLoc(), hx);
      if (!states || states->size() != 2)
        return rewriter.notifyMatchFailure(op, "hx is not a list of two");
      h0 = (*states)[0];
      c0 = (*states)[1];
    }
    std::optional<SmallVector<int64_t>> hSizes = staticSizes(h0);
    if (!hSizes || hSizes->size() != 3)
      return rewriter.notifyMatchFailure(op, "hidden state sizes unknown");
    int64_t hidden = (*hSizes)[2];
    int64_t gates = cell == Cell::LSTM ? 4 : cell == Cell::GRU ? 3 : 1;

    Value layerInput = input;
    SmallVector<Value> lastH, lastC;
    for (int64_t layer = 0; layer < *numLayers; ++layer) {
      SmallVector<Value> outputs;
      for (int64_t dir = 0; dir < directions; ++dir) {
        int64_t index = layer * directions + dir;
        ArrayRef<Value> p = ArrayRef<Value>(*params).slice(index * perCell,
                                                          perCell);
        Value bIh = *hasBiases ? p[2] : Value();
        Value bHh = *hasBiases ? p[3] : Value();
        Value h = t.select(h0, 0, index);
        Value c = c0 ? t.select(c0, 0, index) : Value();
        SmallVector<Value> stepOutputs(steps);
        for (int64_t s = 0; s < steps; ++s) {
          int64_t time = dir == 0 ? s : steps - 1 - s;
          Value x = t.select(layerInput, timeDim, time);
          Value gi = t.linear(x, p[0], bIh);
          Value gh = t.linear(h, p[1], bHh);
          auto gate = [&](Value g, int64_t k) {
            return gates == 1 ? g : t.narrow(g, 1, k * hidden, hidden);
          };
          switch (cell) {
          case Cell::LSTM: {
            Value g = t.add(gi, gh);
            Value in = t.sigmoid(gate(g, 0));
            Value forget = t.sigmoid(gate(g, 1));
            Value candidate = t.tanh(gate(g, 2));
            Value out = t.sigmoid(gate(g, 3));
            c = t.add(t.mul(forget, c), t.mul(in, candidate));
            h = t.mul(out, t.tanh(c));
            break;
          }
          case Cell::GRU: {
            Value reset = t.sigmoid(t.add(gate(gi, 0), gate(gh, 0)));
            Value update = t.sigmoid(t.add(gate(gi, 1), gate(gh, 1)));
            Value candidate =
                t.tanh(t.add(gate(gi, 2), t.mul(reset, gate(gh, 2))));
            h = t.add(t.mul(t.oneMinus(update), candidate), t.mul(update, h));
            break;
          }
          case Cell::Tanh:
            h = t.tanh(t.add(gi, gh));
            break;
          case Cell::Relu:
            h = t.relu(t.add(gi, gh));
            break;
          }
          stepOutputs[time] = h;
        }
        outputs.push_back(t.stack(stepOutputs, timeDim));
        lastH.push_back(h);
        if (c)
          lastC.push_back(c);
      }
      layerInput = directions == 1 ? outputs[0] : t.cat(outputs, 2);
    }
    SmallVector<Value> results = {layerInput, t.stack(lastH, 0)};
    if (cell == Cell::LSTM)
      results.push_back(t.stack(lastC, 0));
    replaceWithDeclaredTypes(rewriter, raw, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Normalisation and statistics
//===----------------------------------------------------------------------===//

/// instance_norm(input, weight?, bias?, running_mean?, running_var?,
/// use_input_stats, momentum, eps, cudnn_enabled): with the input's
/// statistics, a group_norm of one group per channel; else batch_norm in
/// evaluation mode with the running ones.
struct DecomposeInstanceNorm : public OpRewritePattern<AtenInstanceNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenInstanceNormOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<bool> useInputStats = constBool(op.getUseInputStats());
    if (!useInputStats)
      return rewriter.notifyMatchFailure(op, "use_input_stats not constant");
    TSBuilder t{rewriter, op.getLoc()};
    Value result;
    if (*useInputStats) {
      if (!isa<ts::NoneType>(op.getRunningMean().getType()) ||
          !isa<ts::NoneType>(op.getRunningVar().getType()))
        return rewriter.notifyMatchFailure(
            op, "running statistics updated from the input");
      std::optional<SmallVector<int64_t>> sizes = staticSizes(op.getInput());
      if (!sizes || sizes->size() < 2)
        return rewriter.notifyMatchFailure(op, "channels not known");
      result = AtenGroupNormOp::create(rewriter, op.getLoc(), t.tensor(),
                                       op.getInput(), t.i((*sizes)[1]),
                                       op.getWeight(), op.getBias(),
                                       op.getEps(), op.getCudnnEnabled());
    } else {
      result = AtenBatchNormOp::create(
          rewriter, op.getLoc(), t.tensor(), op.getInput(), op.getWeight(),
          op.getBias(), op.getRunningMean(), op.getRunningVar(),
          t.flag(false), op.getMomentum(), op.getEps(),
          op.getCudnnEnabled());
    }
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

/// var_mean and std_mean (plain, .dim, .correction): the statistic and
/// mean (mean.dim over the same dims).
enum class StatForm { Plain, Dim, Correction };

template <typename OpTy, typename StatOp, StatForm form>
struct DecomposeStatMean : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    TSBuilder t{rewriter, op.getLoc()};
    Value self = raw->getOperand(0);
    Value none = t.none();
    Value stat, mean;
    if constexpr (form == StatForm::Plain) {
      // (self, unbiased)
      stat = StatOp::create(rewriter, op.getLoc(), t.tensor(), self,
                            raw->getOperand(1));
      mean = AtenMeanOp::create(rewriter, op.getLoc(), t.tensor(), self, none);
    } else {
      // (self, dim?, unbiased or correction?, keepdim)
      Value dim = raw->getOperand(1), keepdim = raw->getOperand(3);
      stat = StatOp::create(rewriter, op.getLoc(), t.tensor(), self, dim,
                            raw->getOperand(2), keepdim);
      mean = AtenMeanDimOp::create(rewriter, op.getLoc(), t.tensor(), self,
                                   dim, keepdim, none);
    }
    SmallVector<Value> results = {stat, mean};
    replaceWithDeclaredTypes(rewriter, raw, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Convolutions with string padding
//===----------------------------------------------------------------------===//

/// conv2d.padding(input, weight, bias?, stride, padding: str, dilation,
/// groups): "valid" is no padding; "same" pads each spatial dim by
/// dilation * (kernel - 1) in all, the extra element of an odd total at the
/// end (PyTorch's rule), so an asymmetric one becomes a constant_pad_nd
/// before a conv2d without padding.
struct DecomposeConvStringPadding
    : public OpRewritePattern<AtenConv2dPaddingOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenConv2dPaddingOp op,
                                PatternRewriter &rewriter) const override {
    StringAttr mode;
    if (!matchPattern(op.getPadding(), m_Constant(&mode)))
      return rewriter.notifyMatchFailure(op, "padding is not a constant");
    std::optional<SmallVector<int64_t>> weight = staticSizes(op.getWeight());
    SmallVector<int64_t> dilation;
    if (auto list = op.getDilation().getDefiningOp<PrimListConstructOp>()) {
      for (Value v : list.getElements()) {
        std::optional<int64_t> d = constInt(v);
        if (!d)
          return rewriter.notifyMatchFailure(op, "dilation not constant");
        dilation.push_back(*d);
      }
    } else if (auto c = op.getDilation().getDefiningOp<PrimConstantOp>()) {
      auto array = llvm::dyn_cast_or_null<ArrayAttr>(c.getValueAttr());
      if (!array)
        return rewriter.notifyMatchFailure(op, "dilation not constant");
      for (Attribute a : array)
        dilation.push_back(llvm::cast<IntegerAttr>(a).getInt());
    }
    if (!weight || weight->size() != 4)
      return rewriter.notifyMatchFailure(op, "weight sizes not known");
    if (dilation.size() == 1)
      dilation.push_back(dilation[0]);
    if (dilation.size() != 2)
      return rewriter.notifyMatchFailure(op, "dilation not of two dims");
    TSBuilder t{rewriter, op.getLoc()};
    SmallVector<int64_t> low(2, 0), high(2, 0);
    if (mode.getValue() == "same") {
      for (int i = 0; i < 2; ++i) {
        int64_t total = dilation[i] * ((*weight)[2 + i] - 1);
        low[i] = total / 2;
        high[i] = total - low[i];
      }
    } else if (mode.getValue() != "valid") {
      return rewriter.notifyMatchFailure(op, "unknown padding mode");
    }
    Value input = op.getInput();
    SmallVector<Value> padding;
    if (low == high) {
      padding = {t.i(low[0]), t.i(low[1])};
    } else {
      // (last dim's low, high, then the one before).
      Value amounts = PrimListConstructOp::create(
          rewriter, op.getLoc(), ts::ListType::get(t.ctx(), ts::IntType::get(t.ctx())),
          ValueRange{t.i(low[1]), t.i(high[1]), t.i(low[0]), t.i(high[0])});
      input = AtenConstantPadNdOp::create(rewriter, op.getLoc(), t.tensor(),
                                          input, amounts, t.i(0));
      padding = {t.i(0), t.i(0)};
    }
    Value paddingList = PrimListConstructOp::create(
        rewriter, op.getLoc(), ts::ListType::get(t.ctx(), ts::IntType::get(t.ctx())),
        padding);
    Value result = AtenConv2dOp::create(rewriter, op.getLoc(), t.tensor(),
                                        input, op.getWeight(), op.getBias(),
                                        op.getStride(), paddingList,
                                        op.getDilation(), op.getGroups());
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Vector products
//===----------------------------------------------------------------------===//

/// mv(self, vec): matmul. outer(self, vec2): self[:, None] * vec2[None, :].
/// addmv(self, mat, vec, beta, alpha): beta self + alpha (mat @ vec), self
/// ignored for beta = 0 (its NaNs too), as PyTorch.
template <typename OpTy>
struct DecomposeVectorProduct : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    TSBuilder t{rewriter, op.getLoc()};
    Value result;
    if (isa<AtenMvOp>(raw)) {
      result = t.matmul(raw->getOperand(0), raw->getOperand(1));
    } else if (isa<AtenOuterOp>(raw)) {
      result = t.mul(t.unsqueeze(raw->getOperand(0), 1),
                     t.unsqueeze(raw->getOperand(1), 0));
    } else {
      Value product = t.matmul(raw->getOperand(1), raw->getOperand(2));
      Value beta = raw->getOperand(3), alpha = raw->getOperand(4);
      std::optional<double> b = constFloat(beta);
      if (!b)
        return rewriter.notifyMatchFailure(op, "beta is not a constant");
      if (*b == 0) {
        result = AtenMulScalarOp::create(rewriter, op.getLoc(), t.tensor(),
                                         product, alpha);
        // The result has self's broadcast shape too.
        result = AtenAddTensorOp::create(
            rewriter, op.getLoc(), t.tensor(), result,
            AtenZerosLikeOp::create(rewriter, op.getLoc(), t.tensor(),
                                    raw->getOperand(0), t.none(), t.none(),
                                    t.none(), t.none(), t.none()),
            t.i(1));
      } else {
        Value scaled = AtenMulScalarOp::create(rewriter, op.getLoc(),
                                               t.tensor(), raw->getOperand(0),
                                               beta);
        result = AtenAddTensorOp::create(rewriter, op.getLoc(), t.tensor(),
                                         scaled, product, alpha);
      }
    }
    replaceWithDeclaredTypes(rewriter, op, {result});
    return success();
  }
};

struct TSDecomposePass
    : public ts::impl::TSDecomposePassBase<TSDecomposePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    ts::populateDecompositionPatterns(patterns);
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      return signalPassFailure();
  }
};

} // namespace

void ts::populateDecompositionPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<DecomposeRNN<AtenLstmInputOp, Cell::LSTM>,
               DecomposeRNN<AtenGruInputOp, Cell::GRU>,
               DecomposeRNN<AtenRnnTanhInputOp, Cell::Tanh>,
               DecomposeRNN<AtenRnnReluInputOp, Cell::Relu>,
               DecomposeInstanceNorm, DecomposeConvStringPadding,
               DecomposeStatMean<AtenVarMeanOp, AtenVarOp, StatForm::Plain>,
               DecomposeStatMean<AtenVarMeanDimOp, AtenVarDimOp,
                                 StatForm::Dim>,
               DecomposeStatMean<AtenVarMeanCorrectionOp, AtenVarCorrectionOp,
                                 StatForm::Correction>,
               DecomposeStatMean<AtenStdMeanOp, AtenStdOp, StatForm::Plain>,
               DecomposeStatMean<AtenStdMeanDimOp, AtenStdDimOp,
                                 StatForm::Dim>,
               DecomposeStatMean<AtenStdMeanCorrectionOp, AtenStdCorrectionOp,
                                 StatForm::Correction>,
               DecomposeVectorProduct<AtenMvOp>,
               DecomposeVectorProduct<AtenOuterOp>,
               DecomposeVectorProduct<AtenAddmvOp>>(ctx);
}
