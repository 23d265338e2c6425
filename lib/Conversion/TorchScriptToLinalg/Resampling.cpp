//===- Resampling.cpp - Padding, rolls, pixel shuffles, upsampling --------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Ops whose every output element is an input element (or a few, weighted)
// at an index computed from the output's own: pad in each mode, roll,
// pixel_shuffle and pixel_unshuffle, nearest, linear and cubic upsampling,
// grid_sampler. Each is one linalg.generic over the output whose body
// computes the input indices from linalg.index and reads the input with
// tensor.extract, with PyTorch's index formulas (UpSample.h's nearest_idx
// and area_pixel_compute_*, GridSampler.h's).
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "Utils.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/Upsampling.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/StringSwitch.h"

#include <array>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::lowering;

namespace {

/// Index arithmetic in a generic's body.
struct IndexMath {
  OpBuilder &b;
  Location loc;

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value div(Value x, int64_t y) {
    return arith::DivUIOp::create(b, loc, x, cst(y));
  }
  Value rem(Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, cst(y));
  }
  /// x mod n in [0, n) for any sign of x.
  Value mod(Value x, int64_t n) {
    Value r = arith::RemSIOp::create(b, loc, x, cst(n));
    return arith::RemSIOp::create(b, loc, add(r, cst(n)), cst(n));
  }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value clamp(Value x, int64_t lo, int64_t hi) {
    Value low = arith::MaxSIOp::create(b, loc, x, cst(lo));
    return arith::MinSIOp::create(b, loc, low, cst(hi));
  }
  Value both(Value x, Value y) {
    if (!x)
      return y;
    return arith::AndIOp::create(b, loc, x, y);
  }
};

/// Float arithmetic in a generic's body, in `type`.
struct FloatMath {
  OpBuilder &b;
  Location loc;
  Type type;

  Value cst(double v) { return createScalarConstant(b, loc, type, v); }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
};

/// Computes the input element of one output element from the output's
/// indices (index values).
using ElementFn =
    function_ref<Value(OpBuilder &, Location, ValueRange outIndices)>;

/// A tensor of `resultType` whose elements `element` computes.
static Value buildIndexed(OpBuilder &b, Location loc,
                          RankedTensorType resultType, ElementFn element) {
  int64_t rank = resultType.getRank();
  Value init = createEmpty(b, loc, resultType);
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
             maps,
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange) {
               SmallVector<Value> indices;
               for (int64_t d = 0; d < rank; ++d)
                 indices.push_back(linalg::IndexOp::create(nb, l, d));
               linalg::YieldOp::create(nb, l, element(nb, l, indices));
             })
      .getResult(0);
}

/// The static input tensor (converted operand 0) and the static result type
/// of `op`, converted to the input's element type.
static LogicalResult getTypes(const TypeConverter *converter, Operation *op,
                              ArrayRef<Value> operands,
                              RankedTensorType &inputType,
                              RankedTensorType &resultType,
                              ConversionPatternRewriter &rewriter) {
  inputType = llvm::dyn_cast<RankedTensorType>(operands[0].getType());
  resultType = getResultType(converter, op);
  if (!inputType || !resultType || !inputType.hasStaticShape() ||
      !resultType.hasStaticShape() ||
      inputType.getElementType() != resultType.getElementType() ||
      inputType.getRank() != resultType.getRank())
    return rewriter.notifyMatchFailure(op, "expected static tensors of one "
                                           "dtype and rank");
  return success();
}

//===----------------------------------------------------------------------===//
// pad, constant_pad_nd
//===----------------------------------------------------------------------===//

enum class PadMode { Constant, Reflect, Replicate, Circular };

/// pad(self, pad, mode, value?) and constant_pad_nd(self, pad, value): the
/// pairs of `pad` apply to the last dims, the last dim's first. An output
/// index i of a padded dim of size n reads i - low, which outside [0, n) is
/// the value (constant), mirrored without repeating the edge (reflect), the
/// edge (replicate) or wrapped (circular). Negative amounts crop.
class PadLowering : public NamedOpLowering {
public:
  PadLowering(const TypeConverter &converter, MLIRContext *ctx, StringRef name,
              bool constantOnly)
      : NamedOpLowering(converter, ctx, name), constantOnly(constantOnly) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inputType, resultType;
    if (failed(getTypes(getTypeConverter(), op, operands, inputType,
                        resultType, rewriter)))
      return failure();
    std::optional<SmallVector<int64_t>> pad = getConstIntList(op->getOperand(1));
    int64_t rank = inputType.getRank();
    if (!pad || pad->size() % 2 != 0 ||
        static_cast<int64_t>(pad->size() / 2) > rank)
      return rewriter.notifyMatchFailure(op, "pad is not a constant list of "
                                             "pairs");
    PadMode mode = PadMode::Constant;
    Value valueOperand = op->getOperand(2);
    if (!constantOnly) {
      StringRef name = getConstString(op->getOperand(2));
      std::optional<PadMode> parsed =
          llvm::StringSwitch<std::optional<PadMode>>(name)
              .Case("constant", PadMode::Constant)
              .Case("reflect", PadMode::Reflect)
              .Case("replicate", PadMode::Replicate)
              .Case("circular", PadMode::Circular)
              .Default(std::nullopt);
      if (!parsed)
        return rewriter.notifyMatchFailure(op, "mode is not a known constant");
      mode = *parsed;
      valueOperand = op->getOperand(3);
    }
    ArrayRef<int64_t> in = inputType.getShape();
    SmallVector<int64_t> low(rank, 0);
    // Circular padding wraps around what is left after cropping (negative
    // amounts), as PyTorch's _pad_circular copies: [start, start + kept).
    SmallVector<int64_t> start(rank, 0), kept(in);
    for (size_t i = 0; i < pad->size() / 2; ++i) {
      int64_t dim = rank - 1 - i;
      low[dim] = (*pad)[2 * i];
      int64_t high = (*pad)[2 * i + 1];
      if (resultType.getDimSize(dim) != in[dim] + low[dim] + high)
        return rewriter.notifyMatchFailure(op, "result size differs");
      if (mode == PadMode::Reflect &&
          (low[dim] >= in[dim] || high >= in[dim]))
        return rewriter.notifyMatchFailure(
            op, "reflect padding must be smaller than the size");
      start[dim] = std::max<int64_t>(-low[dim], 0);
      kept[dim] = in[dim] - start[dim] - std::max<int64_t>(-high, 0);
      if (mode == PadMode::Circular &&
          (kept[dim] <= 0 || low[dim] > kept[dim] || high > kept[dim]))
        return rewriter.notifyMatchFailure(
            op, "circular padding may be at most the size kept");
    }
    // An empty tensor padded has only padding: constant padding fills it,
    // the other modes have nothing to read.
    bool empty = inputType.getNumElements() == 0;
    if (empty && mode != PadMode::Constant)
      return rewriter.notifyMatchFailure(op, "padding an empty tensor");
    Location loc = op->getLoc();
    Type element = resultType.getElementType();
    Value fill;
    if (mode == PadMode::Constant) {
      if (isConstNone(valueOperand))
        fill = createScalarConstant(rewriter, loc, element, 0);
      else if (std::optional<double> v = getConstNumber(valueOperand))
        fill = createScalarConstant(rewriter, loc, element, *v);
      else
        fill = castScalar(rewriter, loc,
                          rewriter.getRemappedValue(valueOperand), element);
      if (!fill || fill.getType() != element)
        return rewriter.notifyMatchFailure(op, "the value is not a number");
    }
    if (empty) {
      rewriter.replaceOp(op, createFilled(rewriter, loc, resultType, fill));
      return success();
    }
    Value input = operands[0];
    Value result = buildIndexed(
        rewriter, loc, resultType,
        [&](OpBuilder &b, Location l, ValueRange out) -> Value {
          IndexMath m{b, l};
          SmallVector<Value> indices;
          Value valid;
          for (int64_t d = 0; d < rank; ++d) {
            Value i = out[d];
            if (low[d] == 0 && resultType.getDimSize(d) <= in[d]) {
              indices.push_back(i);
              continue;
            }
            int64_t n = in[d];
            Value src = m.sub(i, m.cst(low[d]));
            switch (mode) {
            case PadMode::Constant: {
              Value inside = arith::AndIOp::create(
                  b, l, m.lt(src, m.cst(n)),
                  arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, src,
                                        m.cst(0)));
              valid = m.both(valid, inside);
              src = m.clamp(src, 0, n - 1);
              break;
            }
            case PadMode::Reflect: {
              Value negated = m.sub(m.cst(0), src);
              src = m.select(m.lt(src, m.cst(0)), negated, src);
              Value mirrored = m.sub(m.cst(2 * (n - 1)), src);
              src = m.select(m.lt(src, m.cst(n)), src, mirrored);
              break;
            }
            case PadMode::Replicate:
              src = m.clamp(src, 0, n - 1);
              break;
            case PadMode::Circular:
              src = m.add(m.cst(start[d]),
                          m.mod(m.sub(i, m.cst(std::max<int64_t>(low[d], 0))),
                                kept[d]));
              break;
            }
            indices.push_back(src);
          }
          Value x = tensor::ExtractOp::create(b, l, input, indices);
          return valid ? arith::SelectOp::create(b, l, valid, x, fill)
                             .getResult()
                       : x;
        });
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  bool constantOnly;
};

//===----------------------------------------------------------------------===//
// roll
//===----------------------------------------------------------------------===//

/// roll(self, shifts, dims): along each dim, output index i reads
/// (i - shift) mod n. Without dims, the tensor is rolled as if flattened:
/// the linear index is shifted and split back into indices.
class RollLowering : public OpConversionPattern<ts::AtenRollOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenRollOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inputType, resultType;
    SmallVector<Value> operands(adaptor.getOperands());
    if (failed(getTypes(getTypeConverter(), op, operands, inputType,
                        resultType, rewriter)))
      return failure();
    std::optional<SmallVector<int64_t>> shifts =
        getConstIntList(op.getShifts());
    std::optional<SmallVector<int64_t>> dims = getConstIntList(op.getDims());
    if (!shifts || !dims)
      return rewriter.notifyMatchFailure(op, "shifts or dims not constant");
    int64_t rank = inputType.getRank();
    ArrayRef<int64_t> shape = inputType.getShape();
    SmallVector<int64_t> shiftOf(rank, 0);
    bool flat = dims->empty();
    if (flat && shifts->size() != 1)
      return rewriter.notifyMatchFailure(op, "one shift without dims");
    if (!flat && dims->size() != shifts->size())
      return rewriter.notifyMatchFailure(op, "as many shifts as dims");
    for (size_t i = 0; !flat && i < dims->size(); ++i) {
      std::optional<int64_t> d = wrapDim((*dims)[i], rank);
      if (!d)
        return rewriter.notifyMatchFailure(op, "dim out of range");
      shiftOf[*d] += (*shifts)[i];
    }
    if (inputType.getNumElements() == 0) {
      rewriter.replaceOp(op, adaptor.getSelf());
      return success();
    }
    Value input = adaptor.getSelf();
    int64_t numel = inputType.getNumElements();
    Value result = buildIndexed(
        rewriter, op.getLoc(), resultType,
        [&](OpBuilder &b, Location l, ValueRange out) -> Value {
          IndexMath m{b, l};
          SmallVector<Value> indices;
          if (!flat) {
            for (int64_t d = 0; d < rank; ++d)
              indices.push_back(shiftOf[d] % std::max<int64_t>(shape[d], 1)
                                    ? m.mod(m.sub(out[d], m.cst(shiftOf[d])),
                                            shape[d])
                                    : out[d]);
          } else {
            Value linear = m.cst(0);
            for (int64_t d = 0; d < rank; ++d)
              linear = m.add(m.mul(linear, m.cst(shape[d])), out[d]);
            linear = m.mod(m.sub(linear, m.cst((*shifts)[0])), numel);
            indices.resize(rank);
            for (int64_t d = rank - 1; d >= 0; --d) {
              indices[d] = m.rem(linear, shape[d]);
              linear = m.div(linear, shape[d]);
            }
          }
          return tensor::ExtractOp::create(b, l, input, indices);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// pixel_shuffle, pixel_unshuffle
//===----------------------------------------------------------------------===//

/// pixel_shuffle(self, r): out[..., c, h, w] = in[..., c r^2 + (h mod r) r +
/// (w mod r), h / r, w / r]; pixel_unshuffle(self, r) the inverse:
/// out[..., c, h, w] = in[..., c / r^2, h r + (c mod r^2) / r, w r + c mod r].
class PixelShuffleLowering : public NamedOpLowering {
public:
  PixelShuffleLowering(const TypeConverter &converter, MLIRContext *ctx,
                       StringRef name, bool inverse)
      : NamedOpLowering(converter, ctx, name), inverse(inverse) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inputType, resultType;
    if (failed(getTypes(getTypeConverter(), op, operands, inputType,
                        resultType, rewriter)))
      return failure();
    std::optional<int64_t> r = getConstInt(op->getOperand(1));
    int64_t rank = inputType.getRank();
    if (!r || *r <= 0 || rank < 3)
      return rewriter.notifyMatchFailure(op, "expected a constant factor and "
                                             "a 3-D+ tensor");
    int64_t f = *r;
    Value input = operands[0];
    Value result = buildIndexed(
        rewriter, op->getLoc(), resultType,
        [&](OpBuilder &b, Location l, ValueRange out) -> Value {
          IndexMath m{b, l};
          SmallVector<Value> indices(out.begin(), out.end());
          Value c = out[rank - 3], h = out[rank - 2], w = out[rank - 1];
          if (!inverse) {
            indices[rank - 3] =
                m.add(m.add(m.mul(c, m.cst(f * f)), m.mul(m.rem(h, f), m.cst(f))),
                      m.rem(w, f));
            indices[rank - 2] = m.div(h, f);
            indices[rank - 1] = m.div(w, f);
          } else {
            indices[rank - 3] = m.div(c, f * f);
            indices[rank - 2] =
                m.add(m.mul(h, m.cst(f)), m.div(m.rem(c, f * f), f));
            indices[rank - 1] = m.add(m.mul(w, m.cst(f)), m.rem(c, f));
          }
          return tensor::ExtractOp::create(b, l, input, indices);
        });
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  bool inverse;
};

//===----------------------------------------------------------------------===//
// Upsampling
//===----------------------------------------------------------------------===//

/// PyTorch's compute_scales_value: 1 / scale when given, else in / out, in
/// the compute type (float for f32, as PyTorch's `float` kernels).
static double scaleValue(std::optional<double> scale, int64_t in, int64_t out,
                         bool isF32) {
  if (scale)
    return isF32 ? static_cast<float>(1.0 / *scale) : 1.0 / *scale;
  return isF32 ? static_cast<float>(in) / static_cast<float>(out)
               : static_cast<double>(in) / static_cast<double>(out);
}

/// upsample_nearest{1,2,3}d(.vec): along each of the last `n` dims, output
/// index o reads the same index when the sizes agree, o / 2 when the output
/// doubles the input, else min(floor(o scale), in - 1).
class UpsampleNearestLowering : public NamedOpLowering {
public:
  UpsampleNearestLowering(const TypeConverter &converter, MLIRContext *ctx,
                          StringRef name, unsigned n, bool vec)
      : NamedOpLowering(converter, ctx, name), n(n), vec(vec) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inputType, resultType;
    if (failed(getTypes(getTypeConverter(), op, operands, inputType,
                        resultType, rewriter)))
      return failure();
    int64_t rank = inputType.getRank();
    if (rank < static_cast<int64_t>(n) + 2)
      return rewriter.notifyMatchFailure(op, "too few dims");
    FailureOr<SmallVector<std::optional<double>>> scales =
        ts::getUpsampleScales(op, n, vec, 2);
    if (failed(scales))
      return rewriter.notifyMatchFailure(op, "scales are not constants");
    if (inputType.getNumElements() == 0)
      return rewriter.notifyMatchFailure(op, "empty input");
    Value input = operands[0];
    Value result = buildIndexed(
        rewriter, op->getLoc(), resultType,
        [&](OpBuilder &b, Location l, ValueRange out) -> Value {
          IndexMath m{b, l};
          SmallVector<Value> indices(out.begin(), out.end());
          for (unsigned i = 0; i < n; ++i) {
            int64_t d = rank - n + i;
            int64_t in = inputType.getDimSize(d);
            int64_t size = resultType.getDimSize(d);
            if (size == in)
              continue;
            if (size == 2 * in) {
              indices[d] = m.div(out[d], 2);
              continue;
            }
            Type f32 = b.getF32Type();
            float scale = scaleValue((*scales)[i], in, size, /*isF32=*/true);
            Value o = arith::IndexCastOp::create(b, l, b.getI64Type(), out[d]);
            Value product = arith::MulFOp::create(
                b, l, arith::SIToFPOp::create(b, l, f32, o),
                createScalarConstant(b, l, f32, scale));
            Value floor = math::FloorOp::create(b, l, product);
            Value src = arith::IndexCastOp::create(
                b, l, b.getIndexType(),
                arith::FPToSIOp::create(b, l, b.getI64Type(), floor));
            indices[d] = arith::MinSIOp::create(b, l, src, m.cst(in - 1));
          }
          return tensor::ExtractOp::create(b, l, input, indices);
        });
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  unsigned n;
  bool vec;
};

/// The weights of the four taps floor(src) - 1 .. floor(src) + 2 at
/// fraction `t` of the way from floor(src): Keys' cubic convolution kernel
/// with A = -0.75, (A+2)|x|^3 - (A+3)|x|^2 + 1 within 1 and A|x|^3 -
/// 5A|x|^2 + 8A|x| - 4A from 1 to 2 (PyTorch's bicubic kernels).
static std::array<Value, 4> cubicWeights(OpBuilder &b, Location l, Value t) {
  FloatMath f{b, l, t.getType()};
  const double a = -0.75;
  auto near = [&](Value x) {
    return f.add(
        f.mul(f.mul(f.sub(f.mul(f.cst(a + 2), x), f.cst(a + 3)), x), x),
        f.cst(1));
  };
  auto far = [&](Value x) {
    return f.sub(f.mul(f.add(f.mul(f.sub(f.mul(f.cst(a), x), f.cst(5 * a)), x),
                             f.cst(8 * a)),
                       x),
                 f.cst(4 * a));
  };
  Value rest = f.sub(f.cst(1), t);
  return {far(f.add(t, f.cst(1))), near(t), near(rest),
          far(f.add(rest, f.cst(1)))};
}

/// upsample_linear1d, upsample_bilinear2d, upsample_trilinear3d and
/// upsample_bicubic2d (and .vec): along each of the last `n` dims, the
/// source coordinate of output index o is o scale with align_corners (scale
/// (in - 1) / (out - 1)), else (o + 0.5) scale - 0.5, clamped at 0 for the
/// linear forms. Linear interpolation weighs the two input elements around
/// it; cubic the four from floor(src) - 1 to floor(src) + 2 (clamped to the
/// input) by Keys' cubic convolution with A = -0.75, as PyTorch's
/// upsample_bicubic2d, which copies an input whose sizes do not change.
class UpsampleLinearLowering : public NamedOpLowering {
public:
  UpsampleLinearLowering(const TypeConverter &converter, MLIRContext *ctx,
                         StringRef name, unsigned n, bool vec,
                         bool cubic = false)
      : NamedOpLowering(converter, ctx, name), n(n), vec(vec), cubic(cubic) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType inputType, resultType;
    if (failed(getTypes(getTypeConverter(), op, operands, inputType,
                        resultType, rewriter)))
      return failure();
    auto element = llvm::dyn_cast<FloatType>(resultType.getElementType());
    int64_t rank = inputType.getRank();
    if (!element || rank < static_cast<int64_t>(n) + 2)
      return rewriter.notifyMatchFailure(op, "expected a float tensor with "
                                             "batch and channel dims");
    // (input, output_size, align_corners, scales...).
    std::optional<bool> alignCorners = getConstBool(op->getOperand(2));
    FailureOr<SmallVector<std::optional<double>>> scales =
        ts::getUpsampleScales(op, n, vec, 3);
    if (!alignCorners || failed(scales))
      return rewriter.notifyMatchFailure(
          op, "align_corners or scales are not constants");
    if (inputType.getNumElements() == 0)
      return rewriter.notifyMatchFailure(op, "empty input");
    if (cubic && inputType == resultType) {
      rewriter.replaceOp(op, operands[0]);
      return success();
    }
    bool isF32 = !element.isF64();
    Type compute = isF32 ? rewriter.getF32Type() : rewriter.getF64Type();
    Value input = operands[0];
    Value result = buildIndexed(
        rewriter, op->getLoc(), resultType,
        [&](OpBuilder &b, Location l, ValueRange out) -> Value {
          IndexMath m{b, l};
          FloatMath f{b, l, compute};
          auto toIndex = [&](Value f) -> Value {
            return arith::IndexCastOp::create(
                b, l, b.getIndexType(),
                arith::FPToSIOp::create(b, l, b.getI64Type(), f));
          };
          // Per dim: the source indices and their weights.
          SmallVector<SmallVector<Value>> at(n), weight(n);
          for (unsigned i = 0; i < n; ++i) {
            int64_t d = rank - n + i;
            int64_t in = inputType.getDimSize(d);
            int64_t size = resultType.getDimSize(d);
            double scale;
            if (*alignCorners)
              scale = size > 1 ? static_cast<double>(in - 1) / (size - 1) : 0;
            else
              scale = scaleValue((*scales)[i], in, size, isF32);
            if (isF32)
              scale = static_cast<float>(scale);
            Value o = arith::SIToFPOp::create(
                b, l, compute,
                arith::IndexCastOp::create(b, l, b.getI64Type(), out[d]));
            Value src = *alignCorners
                            ? f.mul(f.cst(scale), o)
                            : f.sub(f.mul(f.cst(scale), f.add(o, f.cst(0.5))),
                                    f.cst(0.5));
            if (cubic) {
              Value floor = math::FloorOp::create(b, l, src);
              Value t = f.sub(src, floor);
              Value base = toIndex(floor);
              for (int64_t k = 0; k < 4; ++k)
                at[i].push_back(m.clamp(m.add(base, m.cst(k - 1)), 0, in - 1));
              std::array<Value, 4> w = cubicWeights(b, l, t);
              weight[i].assign(w.begin(), w.end());
              continue;
            }
            src = arith::MaximumFOp::create(b, l, src, f.cst(0));
            Value i0 = toIndex(src);
            i0 = arith::MinSIOp::create(b, l, i0, m.cst(in - 1));
            Value i1 = m.select(m.lt(i0, m.cst(in - 1)), m.add(i0, m.cst(1)),
                                i0);
            Value lambda1 = f.sub(
                src, arith::SIToFPOp::create(
                         b, l, compute,
                         arith::IndexCastOp::create(b, l, b.getI64Type(), i0)));
            at[i] = {i0, i1};
            weight[i] = {f.sub(f.cst(1), lambda1), lambda1};
          }
          // The sum over every choice of one tap per dim of the element
          // there times the product of the taps' weights.
          unsigned taps = cubic ? 4 : 2;
          unsigned combinations = 1;
          for (unsigned i = 0; i < n; ++i)
            combinations *= taps;
          Value sum;
          for (unsigned choice = 0; choice < combinations; ++choice) {
            SmallVector<Value> indices(out.begin(), out.end());
            Value w;
            unsigned rest = choice;
            for (unsigned i = n; i-- > 0;) {
              unsigned tap = rest % taps;
              rest /= taps;
              indices[rank - n + i] = at[i][tap];
              w = w ? f.mul(weight[i][tap], w) : weight[i][tap];
            }
            Value x = tensor::ExtractOp::create(b, l, input, indices);
            if (x.getType() != compute)
              x = arith::ExtFOp::create(b, l, compute, x);
            Value term = f.mul(w, x);
            sum = sum ? f.add(sum, term) : term;
          }
          if (sum.getType() != resultType.getElementType())
            sum = arith::TruncFOp::create(b, l, resultType.getElementType(),
                                          sum);
          return sum;
        });
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  unsigned n;
  bool vec;
  bool cubic;
};

//===----------------------------------------------------------------------===//
// grid_sampler
//===----------------------------------------------------------------------===//

/// grid_sampler(input [N, C, H, W], grid [N, H', W', 2], interpolation,
/// padding, align_corners) -> [N, C, H', W'], and its volumetric form
/// (input [N, C, D, H, W], grid [N, D', H', W', 3]): output (n, c, h, w)
/// samples input[n, c] at the grid's (x, y[, z]) of (n, h, w), -1 and 1 the
/// edges (the corner pixels' centres with align_corners, else their outer
/// edges), as PyTorch's grid_sampler_2d and _3d: bilinear (0) weighs the
/// 2^k pixels around the point (trilinear in 3-D), nearest (1) reads the
/// one at the coordinates rounded half to even, bicubic (2, 2-D only)
/// weighs 4 x 4 by Keys' kernel (A = -0.75). Padding says what lies
/// outside: zeros (0), the border pixels (1: coordinates clipped), or the
/// input reflected at the edges (2); bilinear and nearest pad the point's
/// coordinates, bicubic each tap's. A non-finite or huge coordinate reads as
/// -100 (outside). Computed in the input's type.
class GridSamplerLowering : public OpConversionPattern<ts::AtenGridSamplerOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenGridSamplerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Operation *raw = op.getOperation();
    RankedTensorType inputType, resultType;
    SmallVector<Value> operands(adaptor.getOperands());
    if (failed(getTypes(getTypeConverter(), raw, operands, inputType,
                        resultType, rewriter)))
      return failure();
    auto gridType =
        llvm::dyn_cast<RankedTensorType>(adaptor.getGrid().getType());
    auto element = llvm::dyn_cast<FloatType>(inputType.getElementType());
    int64_t rank = inputType.getRank();
    if (!element || (rank != 4 && rank != 5) || !gridType ||
        !gridType.hasStaticShape() || gridType.getRank() != rank ||
        gridType.getElementType() != element)
      return rewriter.notifyMatchFailure(
          op, "expected a 4-D or 5-D float input and a grid of its dtype");
    std::optional<int64_t> interpolation =
        getConstInt(op.getInterpolationMode());
    std::optional<int64_t> padding = getConstInt(op.getPaddingMode());
    std::optional<bool> alignCorners = getConstBool(op.getAlignCorners());
    if (!interpolation || !padding || !alignCorners || *interpolation < 0 ||
        *interpolation > 2 || *padding < 0 || *padding > 2)
      return rewriter.notifyMatchFailure(
          op, "interpolation, padding or align_corners not a known constant");
    if (*interpolation == 2 && rank != 4)
      return rewriter.notifyMatchFailure(op, "bicubic needs a 4-D input");
    if (inputType.getNumElements() == 0)
      return rewriter.notifyMatchFailure(op, "empty input");
    Value input = adaptor.getInput(), grid = adaptor.getGrid();
    // The spatial dims (D,) H, W; the grid's component k - 1 - s gives the
    // coordinate along spatial dim s (x is the last).
    int64_t k = rank - 2;
    SmallVector<int64_t> sizes(inputType.getShape().drop_front(2));
    bool align = *alignCorners;
    int64_t pad = *padding, mode = *interpolation;
    Value result = buildIndexed(
        rewriter, op.getLoc(), resultType,
        [&](OpBuilder &b, Location l, ValueRange out) -> Value {
          IndexMath m{b, l};
          FloatMath f{b, l, element};
          auto cmp = [&](arith::CmpFPredicate p, Value x, Value y) -> Value {
            return arith::CmpFOp::create(b, l, p, x, y);
          };
          auto floor = [&](Value x) -> Value {
            return math::FloorOp::create(b, l, x);
          };
          // The grid's coordinate in pixels.
          auto unnormalize = [&](Value g, int64_t size) {
            if (align)
              return f.mul(f.mul(f.add(g, f.cst(1)), f.cst(0.5)),
                           f.cst(size - 1));
            return f.mul(
                f.sub(f.mul(f.add(g, f.cst(1)), f.cst(size)), f.cst(1)),
                f.cst(0.5));
          };
          auto clip = [&](Value x, int64_t size) -> Value {
            Value low = arith::MaximumFOp::create(b, l, x, f.cst(0));
            return arith::MinimumFOp::create(b, l, low, f.cst(size - 1));
          };
          // x reflected into [low / 2, high / 2].
          auto reflect = [&](Value x, int64_t twiceLow,
                             int64_t twiceHigh) -> Value {
            if (twiceLow == twiceHigh)
              return f.cst(0);
            double low = twiceLow / 2.0;
            double span = (twiceHigh - twiceLow) / 2.0;
            Value in = math::AbsFOp::create(b, l, f.sub(x, f.cst(low)));
            Value extra = arith::RemFOp::create(b, l, in, f.cst(span));
            Value flips = floor(arith::DivFOp::create(b, l, in, f.cst(span)));
            Value even =
                cmp(arith::CmpFPredicate::OEQ,
                    arith::RemFOp::create(b, l, flips, f.cst(2)), f.cst(0));
            return arith::SelectOp::create(
                b, l, even, f.add(extra, f.cst(low)),
                f.add(f.sub(f.cst(span), extra), f.cst(low)));
          };
          // Padding applied to a coordinate, then non-finite or huge values
          // made -100.
          auto padded = [&](Value x, int64_t size) -> Value {
            if (pad == 1) {
              x = clip(x, size);
            } else if (pad == 2) {
              x = align ? reflect(x, 0, 2 * (size - 1))
                        : reflect(x, -1, 2 * size - 1);
              x = clip(x, size);
            }
            Value magnitude = math::AbsFOp::create(b, l, x);
            Value fine =
                cmp(arith::CmpFPredicate::OLE, magnitude, f.cst(2147483647.0));
            return arith::SelectOp::create(b, l, fine, x, f.cst(-100));
          };
          auto toI64 = [&](Value f) -> Value {
            return arith::FPToSIOp::create(b, l, b.getI64Type(), f);
          };
          // input[n, c, i...] for one i64 index per spatial dim, or 0
          // outside.
          auto read = [&](ArrayRef<Value> at) -> Value {
            Value ok;
            SmallVector<Value> indices = {out[0], out[1]};
            for (int64_t s = 0; s < k; ++s) {
              Value lo = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::sge, at[s],
                  createScalarConstant(b, l, b.getI64Type(), 0));
              Value hi = arith::CmpIOp::create(
                  b, l, arith::CmpIPredicate::slt, at[s],
                  createScalarConstant(b, l, b.getI64Type(), sizes[s]));
              Value inside = arith::AndIOp::create(b, l, lo, hi);
              ok = ok ? arith::AndIOp::create(b, l, ok, inside) : inside;
              indices.push_back(m.clamp(
                  arith::IndexCastOp::create(b, l, b.getIndexType(), at[s]), 0,
                  sizes[s] - 1));
            }
            Value v = tensor::ExtractOp::create(b, l, input, indices);
            return arith::SelectOp::create(b, l, ok, v, f.cst(0));
          };
          SmallVector<Value> coords;
          for (int64_t s = 0; s < k; ++s) {
            SmallVector<Value> at = {out[0]};
            at.append(out.begin() + 2, out.end());
            at.push_back(m.cst(k - 1 - s));
            coords.push_back(unnormalize(
                tensor::ExtractOp::create(b, l, grid, at), sizes[s]));
          }

          if (mode == 2) { // bicubic (2-D): each tap padded
            Value fy = floor(coords[0]), fx = floor(coords[1]);
            std::array<Value, 4> wy = cubicWeights(b, l, f.sub(coords[0], fy)),
                                 wx = cubicWeights(b, l, f.sub(coords[1], fx));
            Value sum;
            for (int64_t i = 0; i < 4; ++i) {
              Value row;
              Value y = toI64(floor(padded(
                  f.add(fy, f.cst(static_cast<double>(i - 1))), sizes[0])));
              for (int64_t j = 0; j < 4; ++j) {
                Value x = toI64(floor(padded(
                    f.add(fx, f.cst(static_cast<double>(j - 1))), sizes[1])));
                Value term = f.mul(read({y, x}), wx[j]);
                row = row ? f.add(row, term) : term;
              }
              Value term = f.mul(row, wy[i]);
              sum = sum ? f.add(sum, term) : term;
            }
            return sum;
          }

          for (int64_t s = 0; s < k; ++s)
            coords[s] = padded(coords[s], sizes[s]);
          if (mode == 1) { // nearest, half to even
            SmallVector<Value> at;
            for (Value c : coords)
              at.push_back(toI64(math::RoundEvenOp::create(b, l, c)));
            return read(at);
          }
          // (bi/tri)linear: corner `corner` takes, along spatial dim s, the
          // pixel below the point (bit k - 1 - s clear, weighed by the
          // distance to the one above) or above it; the weights multiply
          // from x to the outer dims, the corners add from all below.
          SmallVector<Value> below, above, lowIndex, highIndex;
          for (Value c : coords) {
            Value lo = floor(c);
            Value hi = f.add(lo, f.cst(1));
            below.push_back(f.sub(hi, c));
            above.push_back(f.sub(c, lo));
            lowIndex.push_back(toI64(lo));
            highIndex.push_back(toI64(hi));
          }
          Value sum;
          for (int64_t corner = 0; corner < (int64_t{1} << k); ++corner) {
            SmallVector<Value> at;
            Value weight;
            for (int64_t s = k - 1; s >= 0; --s) {
              bool high = corner & (int64_t{1} << (k - 1 - s));
              Value w = high ? above[s] : below[s];
              weight = weight ? f.mul(weight, w) : w;
            }
            for (int64_t s = 0; s < k; ++s)
              at.push_back(corner & (int64_t{1} << (k - 1 - s)) ? highIndex[s]
                                                                : lowIndex[s]);
            Value term = f.mul(read(at), weight);
            sum = sum ? f.add(sum, term) : term;
          }
          return sum;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void lowering::populateResamplingPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<PadLowering>(converter, ctx, ts::AtenPadOp::getOperationName(),
                            /*constantOnly=*/false);
  patterns.add<PadLowering>(converter, ctx,
                            ts::AtenConstantPadNdOp::getOperationName(),
                            /*constantOnly=*/true);
  patterns.add<RollLowering, GridSamplerLowering>(converter, ctx);
  patterns.add<PixelShuffleLowering>(
      converter, ctx, ts::AtenPixelShuffleOp::getOperationName(), false);
  patterns.add<PixelShuffleLowering>(
      converter, ctx, ts::AtenPixelUnshuffleOp::getOperationName(), true);
  struct Upsample {
    StringRef name;
    unsigned n;
    bool vec;
  };
  for (const Upsample &u :
       {Upsample{ts::AtenUpsampleNearest1dOp::getOperationName(), 1, false},
        Upsample{ts::AtenUpsampleNearest1dVecOp::getOperationName(), 1, true},
        Upsample{ts::AtenUpsampleNearest2dOp::getOperationName(), 2, false},
        Upsample{ts::AtenUpsampleNearest2dVecOp::getOperationName(), 2, true},
        Upsample{ts::AtenUpsampleNearest3dOp::getOperationName(), 3, false},
        Upsample{ts::AtenUpsampleNearest3dVecOp::getOperationName(), 3, true}})
    patterns.add<UpsampleNearestLowering>(converter, ctx, u.name, u.n, u.vec);
  patterns.add<UpsampleLinearLowering>(
      converter, ctx, ts::AtenUpsampleLinear1dOp::getOperationName(), 1,
      false);
  patterns.add<UpsampleLinearLowering>(
      converter, ctx, ts::AtenUpsampleLinear1dVecOp::getOperationName(), 1,
      true);
  patterns.add<UpsampleLinearLowering>(
      converter, ctx, ts::AtenUpsampleBilinear2dOp::getOperationName(), 2,
      false);
  patterns.add<UpsampleLinearLowering>(
      converter, ctx, ts::AtenUpsampleBilinear2dVecOp::getOperationName(), 2,
      true);
  patterns.add<UpsampleLinearLowering>(
      converter, ctx, ts::AtenUpsampleTrilinear3dOp::getOperationName(), 3,
      false);
  patterns.add<UpsampleLinearLowering>(
      converter, ctx, ts::AtenUpsampleTrilinear3dVecOp::getOperationName(), 3,
      true);
  patterns.add<UpsampleLinearLowering>(
      converter, ctx, ts::AtenUpsampleBicubic2dOp::getOperationName(), 2, false,
      /*cubic=*/true);
  patterns.add<UpsampleLinearLowering>(
      converter, ctx, ts::AtenUpsampleBicubic2dVecOp::getOperationName(), 2,
      true, /*cubic=*/true);
}
