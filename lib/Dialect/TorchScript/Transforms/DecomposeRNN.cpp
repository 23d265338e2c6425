//===- DecomposeRNN.cpp - Recurrent networks unrolled over time -------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "DecomposeUtils.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::decompose;

namespace {

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

    std::optional<SmallVector<OpFoldResult>> knownParams =
        knownTensors(raw->getOperand(2));
    if (!knownParams || static_cast<int64_t>(knownParams->size()) !=
                            *numLayers * directions * perCell)
      return rewriter.notifyMatchFailure(
          op, "params are not a known list of the expected length (LSTM "
              "projections are not decomposed)");
    OpFoldResult h0State = hx, c0State;
    if (cell == Cell::LSTM) {
      std::optional<SmallVector<OpFoldResult>> states = knownTensors(hx);
      if (!states || states->size() != 2)
        return rewriter.notifyMatchFailure(op, "hx is not a list of two");
      h0State = (*states)[0];
      c0State = (*states)[1];
    }
    std::optional<SmallVector<int64_t>> hSizes = staticSizes(h0State);
    if (!hSizes || hSizes->size() != 3)
      return rewriter.notifyMatchFailure(op, "hidden state sizes unknown");
    int64_t hidden = (*hSizes)[2];

    // Nothing is built before this point.
    TSBuilder t{rewriter, op.getLoc()};
    SmallVector<Value> params;
    for (OpFoldResult p : *knownParams)
      params.push_back(materialize(rewriter, op.getLoc(), p));
    Value h0 = materialize(rewriter, op.getLoc(), h0State);
    Value c0 = c0State ? materialize(rewriter, op.getLoc(), c0State) : Value();
    int64_t gates = cell == Cell::LSTM ? 4 : cell == Cell::GRU ? 3 : 1;

    Value layerInput = input;
    SmallVector<Value> lastH, lastC;
    for (int64_t layer = 0; layer < *numLayers; ++layer) {
      SmallVector<Value> outputs;
      for (int64_t dir = 0; dir < directions; ++dir) {
        int64_t index = layer * directions + dir;
        ArrayRef<Value> p = ArrayRef<Value>(params).slice(index * perCell,
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

} // namespace

void decompose::populateRNNPatterns(RewritePatternSet &patterns) {
  patterns.add<DecomposeRNN<AtenLstmInputOp, Cell::LSTM>,
               DecomposeRNN<AtenGruInputOp, Cell::GRU>,
               DecomposeRNN<AtenRnnTanhInputOp, Cell::Tanh>,
               DecomposeRNN<AtenRnnReluInputOp, Cell::Relu>>(
      patterns.getContext());
}
