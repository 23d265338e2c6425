//===- Pooling.cpp - Max, average and adaptive pooling ---------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Pooling over the last two (three) dims of a 3-D or 4-D (4-D or 5-D)
// tensor. max_pool2d and avg_pool2d become linalg.pooling_nchw_max/sum
// (padded, with ceil_mode's partial windows); the divisors of avg_pool2d
// and adaptive average pooling of uneven windows are linalg.generics. Where
// the indices of the maxima are asked for (max_pool2d/3d_with_indices,
// adaptive_max_pool2d), and for max_pool3d, one generic over the output and
// the window finds the value and its index together, with PyTorch's CPU
// kernels' rule: the first maximum, a later NaN over anything, and the
// first element of the window when every one is -inf.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "Utils.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::lowering;

namespace {

/// The NCHW view of a pooling input: [C, H, W] gains a batch of 1.
Value toNCHW(OpBuilder &b, Location loc, Value input) {
  RankedTensorType type = getTensorType(input);
  if (type.getRank() == 4)
    return input;
  SmallVector<int64_t> shape = {1};
  llvm::append_range(shape, type.getShape());
  return reshapeTo(b, loc, input, shape);
}

enum class PoolKind { Max, Sum };

/// linalg.pooling_nchw_max or _sum of `input` (NCHW, of type `acc`) padded
/// with `padValue` (and `extraHigh` more at the end, for ceil_mode's last
/// windows), into a tensor filled with `init`.
Value buildPool(OpBuilder &b, Location loc, Value input, PoolKind kind,
                       ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
                       ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation,
                       Value padValue, Value init,
                       ArrayRef<int64_t> extraHigh = {}) {
  ArrayRef<int64_t> in = getTensorType(input).getShape();
  Type element = getTensorType(input).getElementType();
  SmallVector<int64_t> outShape = {in[0], in[1]};
  for (int i = 0; i < 2; ++i) {
    int64_t extra = extraHigh.empty() ? 0 : extraHigh[i];
    outShape.push_back(getWindowCount(in[2 + i] + extra, kernel[i], stride[i],
                                      padding[i], dilation[i]));
  }
  Value padded = padSpatial(b, loc, input, padding, padValue, extraHigh);
  Value window = tensor::EmptyOp::create(b, loc, kernel, element);
  Value out =
      createFilled(b, loc, RankedTensorType::get(outShape, element), init);
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr("strides", getI64VectorAttr(b, stride)),
      b.getNamedAttr("dilations", getI64VectorAttr(b, dilation))};
  if (kind == PoolKind::Max)
    return linalg::PoolingNchwMaxOp::create(b, loc, TypeRange{out.getType()},
                                            ValueRange{padded, window},
                                            ValueRange{out}, attrs)
        .getResult(0);
  return linalg::PoolingNchwSumOp::create(b, loc, TypeRange{out.getType()},
                                          ValueRange{padded, window},
                                          ValueRange{out}, attrs)
      .getResult(0);
}

/// The window parameters of max_pool2d and avg_pool2d. `extra` is the
/// padding past the end that ceil_mode's last, partial windows read (0 in
/// floor mode): padded with the same value, never counted as padding.
struct Window {
  SmallVector<int64_t> kernel, stride, padding, dilation;
  SmallVector<int64_t> extra = {0, 0};
};

/// Reads kernel, stride (empty: the kernel), padding and dilation (absent:
/// 1) and ceil_mode. With ceil_mode, the output size the result type holds
/// (PyTorch's formula, in the shape rule) may count one more window than
/// the floor mode, which starts inside the input or its padding and ends
/// past them: `extra` covers it.
FailureOr<Window> getWindow(Operation *op, Value input,
                                   RankedTensorType resultType,
                                   std::optional<unsigned> dilationOperand,
                                   unsigned ceilOperand,
                                   ConversionPatternRewriter &rewriter) {
  Window w;
  std::optional<SmallVector<int64_t>> kernel = getSpatial(op->getOperand(1), 2);
  if (!kernel)
    return rewriter.notifyMatchFailure(op, "kernel_size is not a constant");
  std::optional<SmallVector<int64_t>> stride =
      getSpatial(op->getOperand(2), 2, *kernel);
  std::optional<SmallVector<int64_t>> padding = getSpatial(op->getOperand(3), 2);
  std::optional<SmallVector<int64_t>> dilation = SmallVector<int64_t>{1, 1};
  if (dilationOperand)
    dilation = getSpatial(op->getOperand(*dilationOperand), 2);
  if (!stride || !padding || !dilation)
    return rewriter.notifyMatchFailure(
        op, "stride, padding or dilation is not a constant");
  w = {*kernel, *stride, *padding, *dilation};
  std::optional<bool> ceil = getConstBool(op->getOperand(ceilOperand));
  if (!ceil)
    return rewriter.notifyMatchFailure(op, "ceil_mode is not a constant");
  ArrayRef<int64_t> in = getTensorType(input).getShape();
  for (int i = 0; i < 2; ++i) {
    int64_t size = in[2 + i];
    if (w.padding[i] * 2 > w.kernel[i])
      return rewriter.notifyMatchFailure(
          op, "padding is more than half the kernel");
    int64_t count = getWindowCount(size, w.kernel[i], w.stride[i], w.padding[i],
                                   w.dilation[i]);
    int64_t result = resultType.getDimSize(resultType.getRank() - 2 + i);
    if (result <= 0)
      return rewriter.notifyMatchFailure(op, "empty output");
    if (*ceil && result == count + 1) {
      // The last window's end past the padded input.
      w.extra[i] = (result - 1) * w.stride[i] +
                   w.dilation[i] * (w.kernel[i] - 1) + 1 -
                   (size + 2 * w.padding[i]);
      if (w.extra[i] <= 0 || w.extra[i] >= w.stride[i] + w.kernel[i])
        return rewriter.notifyMatchFailure(
            op, "result size differs from the ceil_mode window count");
      continue;
    }
    if (result != count)
      return rewriter.notifyMatchFailure(
          op, "result size differs from the window count");
  }
  return w;
}

/// aten::max_pool2d: padding with -inf (the lowest integer), then
/// linalg.pooling_nchw_max (NaN propagates through arith.maximumf).
class MaxPoolLowering : public OpConversionPattern<ts::AtenMaxPool2dOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenMaxPool2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    RankedTensorType inputType = getTensorType(adaptor.getSelf());
    if (!resultType || !inputType ||
        (inputType.getRank() != 3 && inputType.getRank() != 4))
      return rewriter.notifyMatchFailure(op, "expected a 3-D or 4-D tensor");
    Type element = inputType.getElementType();
    if (element != resultType.getElementType() || element.isInteger(1))
      return rewriter.notifyMatchFailure(op, "unsupported dtype");
    Location loc = op->getLoc();
    Value input = toNCHW(rewriter, loc, adaptor.getSelf());
    FailureOr<Window> w = getWindow(op, input, resultType, 4, 5, rewriter);
    if (failed(w))
      return failure();
    Value lowest;
    if (isFloat(element))
      lowest = createScalarConstant(rewriter, loc, element,
                                    -std::numeric_limits<double>::infinity());
    else if (isUnsignedDtype(getTSDtype(op.getSelf())))
      return rewriter.notifyMatchFailure(op, "max_pool2d of unsigned ints");
    else
      lowest = arith::ConstantOp::create(
          rewriter, loc,
          IntegerAttr::get(element, APInt::getSignedMinValue(
                                        element.getIntOrFloatBitWidth())));
    Value result =
        buildPool(rewriter, loc, input, PoolKind::Max, w->kernel, w->stride,
                  w->padding, w->dilation, lowest, lowest, w->extra);
    rewriter.replaceOp(op, finish(rewriter, loc, result, resultType));
    return success();
  }
};

/// The number of input elements (padding excluded) in the window of the
/// output element at the current iteration of an [N, C, OH, OW] generic, as
/// an `acc`: the divisor of avg_pool2d with count_include_pad=False.
Value buildWindowCount(OpBuilder &b, Location l,
                              ArrayRef<int64_t> inSize, const Window &w,
                              Type acc, bool includePad = false) {
  Type i64 = b.getI64Type();
  auto c = [&](int64_t v) { return createScalarConstant(b, l, i64, v); };
  Value count;
  for (int i = 0; i < 2; ++i) {
    Value o = castScalar(b, l, linalg::IndexOp::create(b, l, 2 + i), i64);
    Value start = arith::SubIOp::create(
        b, l, arith::MulIOp::create(b, l, o, c(w.stride[i])), c(w.padding[i]));
    // With count_include_pad, the padding counts (not ceil_mode's extra).
    int64_t bound = includePad ? inSize[i] + w.padding[i] : inSize[i];
    Value end = arith::MinSIOp::create(
        b, l, arith::AddIOp::create(b, l, start, c(w.kernel[i])), c(bound));
    if (!includePad)
      start = arith::MaxSIOp::create(b, l, start, c(0));
    Value n = arith::SubIOp::create(b, l, end, start);
    count = count ? arith::MulIOp::create(b, l, count, n).getResult() : n;
  }
  return castScalar(b, l, count, acc);
}

/// Builds a divisor inside the body of the dividing generic.
using DivisorFn = function_ref<Value(OpBuilder &, Location)>;

/// `sum / divisor` elementwise, the divisor built in the body; the result is
/// cast to `resultType`.
Value buildDivide(OpBuilder &b, Location loc, Value sum,
                         DivisorFn divisor, RankedTensorType resultType) {
  RankedTensorType sumType = getTensorType(sum);
  Type acc = sumType.getElementType();
  Value result = buildElementwise(
      b, loc, sumType, sum, [&](OpBuilder &nb, Location l, ValueRange e) {
        Value d = divisor(nb, l);
        if (isFloat(acc))
          return arith::DivFOp::create(nb, l, e[0], d).getResult();
        return arith::DivSIOp::create(nb, l, e[0], d).getResult();
      });
  return finish(b, loc, result, resultType);
}

/// aten::avg_pool2d: linalg.pooling_nchw_sum of the zero-padded input, then
/// a division by the window size (count_include_pad), by the number of
/// input elements in each window (not count_include_pad), or by
/// divisor_override; signed integers sum in their type and divide
/// truncating, as PyTorch's kernel.
class AvgPoolLowering : public OpConversionPattern<ts::AtenAvgPool2dOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenAvgPool2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    RankedTensorType inputType = getTensorType(adaptor.getSelf());
    if (!resultType || !inputType ||
        (inputType.getRank() != 3 && inputType.getRank() != 4))
      return rewriter.notifyMatchFailure(op, "expected a 3-D or 4-D tensor");
    Type element = resultType.getElementType();
    if (element.isInteger(1) || isUnsignedDtype(getTSDtype(op.getSelf())))
      return rewriter.notifyMatchFailure(op,
                                         "expected a float or signed result");
    std::optional<bool> includePad = getConstBool(op.getCountIncludePad());
    if (!includePad)
      return rewriter.notifyMatchFailure(op,
                                         "count_include_pad is not a constant");
    std::optional<int64_t> divisorOverride;
    if (!isConstNone(op.getDivisorOverride())) {
      divisorOverride = getConstInt(op.getDivisorOverride());
      if (!divisorOverride || *divisorOverride == 0)
        return rewriter.notifyMatchFailure(
            op, "divisor_override is not a non-zero constant");
    }
    Location loc = op->getLoc();
    Type acc = getAccType(resultType.getElementType());
    Value input =
        toNCHW(rewriter, loc,
               castOperand(rewriter, loc, op, adaptor.getOperands(), 0, acc));
    FailureOr<Window> w =
        getWindow(op, input, resultType, std::nullopt, 4, rewriter);
    if (failed(w))
      return failure();
    Value zero = createScalarConstant(rewriter, loc, acc, 0);
    Value sum = buildPool(rewriter, loc, input, PoolKind::Sum, w->kernel,
                          w->stride, w->padding, w->dilation, zero, zero,
                          w->extra);
    ArrayRef<int64_t> in = getTensorType(input).getShape();
    bool partial = w->extra[0] > 0 || w->extra[1] > 0;
    Value constantDivisor;
    if (divisorOverride)
      constantDivisor =
          createScalarConstant(rewriter, loc, acc, *divisorOverride);
    else if (*includePad && !partial)
      constantDivisor =
          createScalarConstant(rewriter, loc, acc, w->kernel[0] * w->kernel[1]);
    auto divisor = [&](OpBuilder &b, Location l) {
      if (constantDivisor)
        return constantDivisor;
      return buildWindowCount(b, l, {in[2], in[3]}, *w, acc, *includePad);
    };
    rewriter.replaceOp(op,
                       buildDivide(rewriter, loc, sum, divisor, resultType));
    return success();
  }
};

/// The window of output element `o` of adaptive pooling from `in` to `out`
/// elements: [floor(o in / out), ceil((o + 1) in / out)).
int64_t adaptiveStart(int64_t o, int64_t in, int64_t out) {
  return o * in / out;
}
int64_t adaptiveEnd(int64_t o, int64_t in, int64_t out) {
  return ((o + 1) * in + out - 1) / out;
}

/// The same bounds for the output index `o` (an i64 value).
std::pair<Value, Value> adaptiveBounds(OpBuilder &b, Location l,
                                              Value o, int64_t in,
                                              int64_t out) {
  Type i64 = b.getI64Type();
  auto c = [&](int64_t v) { return createScalarConstant(b, l, i64, v); };
  Value start = arith::DivSIOp::create(
      b, l, arith::MulIOp::create(b, l, o, c(in)), c(out));
  Value next = arith::AddIOp::create(b, l, o, c(1));
  Value end = arith::DivSIOp::create(
      b, l,
      arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, next, c(in)),
                            c(out - 1)),
      c(out));
  return {start, end};
}

/// One spatial dim of a pooling window (adaptive sums, maxima with their
/// indices): a regular window (stride, padding, dilation) or adaptive
/// pooling's.
struct WindowDim {
  int64_t size = 0;   // of the input
  int64_t out = 0;    // windows
  int64_t kernel = 0; // elements per window (adaptive: the largest)
  bool adaptive = false;
  int64_t stride = 1, pad = 0, dilation = 1;
};

/// The input position of element `k` of window `o` along `d`, and whether
/// it is inside both the window and the input.
std::pair<Value, Value> windowPosition(OpBuilder &b, Location l,
                                       const WindowDim &d, Value o, Value k) {
  Type i64 = b.getI64Type();
  auto c = [&](int64_t v) { return createScalarConstant(b, l, i64, v); };
  if (d.adaptive) {
    auto [start, end] = adaptiveBounds(b, l, o, d.size, d.out);
    Value at = arith::AddIOp::create(b, l, start, k);
    return {at, arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, at, end)};
  }
  Value at = arith::AddIOp::create(
      b, l,
      arith::SubIOp::create(b, l, arith::MulIOp::create(b, l, o, c(d.stride)),
                            c(d.pad)),
      arith::MulIOp::create(b, l, k, c(d.dilation)));
  Value low = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, at, c(0));
  Value high =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, at, c(d.size));
  return {at, arith::AndIOp::create(b, l, low, high)};
}

/// The sums of adaptive average pooling of `input` (NCHW, of type `acc`)
/// to `outSize` when the windows differ in size: a generic over [N, C, OH,
/// OW, KH, KW], KH and KW the largest window, reading the input at each
/// window's start plus the window offsets, elements past the window's end
/// skipped.
Value buildAdaptiveSum(OpBuilder &b, Location loc, Value input,
                              ArrayRef<int64_t> outSize) {
  RankedTensorType inType = getTensorType(input);
  ArrayRef<int64_t> in = inType.getShape();
  Type acc = inType.getElementType();
  SmallVector<int64_t> window;
  for (int i = 0; i < 2; ++i) {
    int64_t largest = 0;
    for (int64_t o = 0; o < outSize[i]; ++o)
      largest = std::max(largest, adaptiveEnd(o, in[2 + i], outSize[i]) -
                                      adaptiveStart(o, in[2 + i], outSize[i]));
    window.push_back(largest);
  }
  MLIRContext *ctx = b.getContext();
  SmallVector<int64_t> outShape = {in[0], in[1], outSize[0], outSize[1]};
  auto outType = RankedTensorType::get(outShape, acc);
  Value init = createFilled(b, loc, outType,
                            createScalarConstant(b, loc, acc, 0));
  Value windowTensor = tensor::EmptyOp::create(b, loc, window, acc);
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineMap> maps = {
      AffineMap::get(6, 0, {d(4), d(5)}, ctx),
      AffineMap::get(6, 0, {d(0), d(1), d(2), d(3)}, ctx)};
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  iterators.append(2, utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, TypeRange{outType}, ValueRange{windowTensor},
             ValueRange{init}, maps, iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Type i64 = nb.getI64Type();
               Value valid;
               SmallVector<Value> indices = {
                   linalg::IndexOp::create(nb, l, 0),
                   linalg::IndexOp::create(nb, l, 1)};
               for (int i = 0; i < 2; ++i) {
                 Value o = castScalar(nb, l, linalg::IndexOp::create(nb, l, 2 + i),
                                      i64);
                 Value k = castScalar(nb, l, linalg::IndexOp::create(nb, l, 4 + i),
                                      i64);
                 WindowDim dim;
                 dim.size = in[2 + i];
                 dim.out = outSize[i];
                 dim.adaptive = true;
                 auto [at, inside] = windowPosition(nb, l, dim, o, k);
                 valid = valid ? arith::AndIOp::create(nb, l, valid, inside)
                                     .getResult()
                               : inside;
                 // Clamped, so that a skipped read stays in bounds.
                 Value last = createScalarConstant(nb, l, i64, in[2 + i] - 1);
                 Value clamped = arith::MinSIOp::create(nb, l, at, last);
                 indices.push_back(
                     castScalar(nb, l, clamped, nb.getIndexType()));
               }
               Value x = tensor::ExtractOp::create(nb, l, input, indices);
               Value sum = isFloat(acc)
                               ? arith::AddFOp::create(nb, l, args[1], x)
                                     .getResult()
                               : arith::AddIOp::create(nb, l, args[1], x)
                                     .getResult();
               linalg::YieldOp::create(
                   nb, l, ValueRange{arith::SelectOp::create(nb, l, valid, sum,
                                                             args[1])
                                         .getResult()});
             })
      .getResult(0);
}

/// aten::adaptive_avg_pool2d. Where the output size divides the input size,
/// an average pooling with kernel = stride = input / output; otherwise the
/// windows of PyTorch's formula, [floor(o in / out), ceil((o + 1) in /
/// out)), summed by buildAdaptiveSum and divided by their sizes.
class AdaptiveAvgPoolLowering
    : public OpConversionPattern<ts::AtenAdaptiveAvgPool2dOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenAdaptiveAvgPool2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    RankedTensorType inputType = getTensorType(adaptor.getSelf());
    if (!resultType || !inputType ||
        (inputType.getRank() != 3 && inputType.getRank() != 4))
      return rewriter.notifyMatchFailure(op, "expected a 3-D or 4-D tensor");
    if (!isFloat(resultType.getElementType()))
      return rewriter.notifyMatchFailure(op, "expected a float result");
    std::optional<SmallVector<int64_t>> outSize = getSpatial(op.getOutputSize(), 2);
    if (!outSize)
      return rewriter.notifyMatchFailure(op, "output_size is not a constant");
    Location loc = op->getLoc();
    Type acc = getAccType(resultType.getElementType());
    Value input =
        toNCHW(rewriter, loc,
               castOperand(rewriter, loc, op, adaptor.getOperands(), 0, acc));
    ArrayRef<int64_t> in = getTensorType(input).getShape();
    if ((*outSize)[0] <= 0 || (*outSize)[1] <= 0)
      return rewriter.notifyMatchFailure(op, "empty output");
    if (in[2] % (*outSize)[0] != 0 || in[3] % (*outSize)[1] != 0) {
      Value sum = buildAdaptiveSum(rewriter, loc, input, *outSize);
      SmallVector<int64_t> out = *outSize;
      auto divisor = [&](OpBuilder &b, Location l) -> Value {
        Type i64 = b.getI64Type();
        Value count;
        for (int i = 0; i < 2; ++i) {
          Value o = castScalar(b, l, linalg::IndexOp::create(b, l, 2 + i), i64);
          auto [start, end] = adaptiveBounds(b, l, o, in[2 + i], out[i]);
          Value n = arith::SubIOp::create(b, l, end, start);
          count = count ? arith::MulIOp::create(b, l, count, n).getResult() : n;
        }
        return castScalar(b, l, count, acc);
      };
      rewriter.replaceOp(op,
                         buildDivide(rewriter, loc, sum, divisor, resultType));
      return success();
    }
    Window w;
    for (int i = 0; i < 2; ++i)
      w.kernel.push_back(in[2 + i] / (*outSize)[i]);
    w.stride = w.kernel;
    w.padding = {0, 0};
    w.dilation = {1, 1};
    Value zero = createScalarConstant(rewriter, loc, acc, 0);
    Value sum = buildPool(rewriter, loc, input, PoolKind::Sum, w.kernel,
                          w.stride, w.padding, w.dilation, zero, zero);
    Value divisor =
        createScalarConstant(rewriter, loc, acc, w.kernel[0] * w.kernel[1]);
    rewriter.replaceOp(op, buildDivide(
                               rewriter, loc, sum,
                               [&](OpBuilder &, Location) { return divisor; },
                               resultType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Maxima with their indices
//===----------------------------------------------------------------------===//

/// The maxima of the windows of `input` ([N, C, spatial...], floats, one
/// WindowDim per spatial dim) and their indices in the input's spatial
/// volume (row-major): a generic over [N, C, outputs..., window...].
std::pair<Value, Value> buildWindowArgmax(OpBuilder &b, Location loc,
                                          Value input,
                                          ArrayRef<WindowDim> dims) {
  RankedTensorType inType = getTensorType(input);
  ArrayRef<int64_t> in = inType.getShape();
  Type element = inType.getElementType();
  Type i64 = b.getI64Type();
  MLIRContext *ctx = b.getContext();
  unsigned k = dims.size(), loops = 2 + 2 * k;
  SmallVector<int64_t> outShape = {in[0], in[1]}, window;
  for (const WindowDim &d : dims) {
    outShape.push_back(d.out);
    window.push_back(d.kernel);
  }
  Value values = createFilled(
      b, loc, RankedTensorType::get(outShape, element),
      createScalarConstant(b, loc, element,
                           -std::numeric_limits<double>::infinity()));
  Value indices = createFilled(b, loc, RankedTensorType::get(outShape, i64),
                               createScalarConstant(b, loc, i64, -1));
  Value windowTensor = tensor::EmptyOp::create(b, loc, window, element);
  SmallVector<AffineExpr> outExprs, windowExprs;
  for (unsigned i = 0; i < 2 + k; ++i)
    outExprs.push_back(getAffineDimExpr(i, ctx));
  for (unsigned i = 2 + k; i < loops; ++i)
    windowExprs.push_back(getAffineDimExpr(i, ctx));
  AffineMap outMap = AffineMap::get(loops, 0, outExprs, ctx);
  SmallVector<AffineMap> maps = {AffineMap::get(loops, 0, windowExprs, ctx),
                                 outMap, outMap};
  SmallVector<utils::IteratorType> iterators(2 + k,
                                             utils::IteratorType::parallel);
  iterators.append(k, utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{values.getType(), indices.getType()},
      ValueRange{windowTensor}, ValueRange{values, indices}, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        SmallVector<Value> at = {linalg::IndexOp::create(nb, l, 0),
                                 linalg::IndexOp::create(nb, l, 1)};
        Value valid, flat;
        for (unsigned i = 0; i < k; ++i) {
          Value o = castScalar(nb, l, linalg::IndexOp::create(nb, l, 2 + i), i64);
          Value w =
              castScalar(nb, l, linalg::IndexOp::create(nb, l, 2 + k + i), i64);
          auto [pos, inside] = windowPosition(nb, l, dims[i], o, w);
          valid = valid ? arith::AndIOp::create(nb, l, valid, inside).getResult()
                        : inside;
          // Clamped, so that a skipped read stays in bounds.
          Value clamped = arith::MaxSIOp::create(
              nb, l,
              arith::MinSIOp::create(
                  nb, l, pos, createScalarConstant(nb, l, i64, in[2 + i] - 1)),
              createScalarConstant(nb, l, i64, 0));
          at.push_back(castScalar(nb, l, clamped, nb.getIndexType()));
          flat = flat ? arith::AddIOp::create(
                            nb, l,
                            arith::MulIOp::create(
                                nb, l, flat,
                                createScalarConstant(nb, l, i64, in[2 + i])),
                            pos)
                            .getResult()
                      : pos;
        }
        Value x = tensor::ExtractOp::create(nb, l, input, at);
        Value first = arith::CmpIOp::create(
            nb, l, arith::CmpIPredicate::eq, args[2],
            createScalarConstant(nb, l, i64, -1));
        Value greater =
            arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGT, x, args[1]);
        Value nan =
            arith::CmpFOp::create(nb, l, arith::CmpFPredicate::UNO, x, x);
        Value take = arith::AndIOp::create(
            nb, l, valid,
            arith::OrIOp::create(nb, l, first,
                                 arith::OrIOp::create(nb, l, greater, nan)));
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(nb, l, take, x, args[1]),
                       arith::SelectOp::create(nb, l, take, flat, args[2])});
      });
  return {generic.getResult(0), generic.getResult(1)};
}

/// The input of a pooling over `k` spatial dims that gives indices:
/// floats of known sizes, with a batch dim of 1 added when it has none.
FailureOr<Value> argmaxInput(Operation *op, Value converted,
                             RankedTensorType resultType, unsigned k,
                             ConversionPatternRewriter &rewriter) {
  RankedTensorType inputType = getTensorType(converted);
  if (!resultType || !inputType ||
      (inputType.getRank() != k + 1 && inputType.getRank() != k + 2))
    return rewriter.notifyMatchFailure(op, "expected a batched or unbatched "
                                           "tensor of the pooled rank");
  if (!isFloat(inputType.getElementType()) ||
      inputType.getElementType() != resultType.getElementType())
    return rewriter.notifyMatchFailure(op, "expected floats");
  if (inputType.getRank() == k + 2)
    return converted;
  SmallVector<int64_t> shape = {1};
  llvm::append_range(shape, inputType.getShape());
  return reshapeTo(rewriter, op->getLoc(), converted, shape);
}

/// The windows of max_pool2d/3d(self, kernel_size, stride, padding,
/// dilation, ceil_mode) over the last `k` dims of `input`, the output sizes
/// the result type's (ceil_mode's partial windows read only what is
/// inside the input).
FailureOr<SmallVector<WindowDim>> getWindowDims(Operation *op, Value input,
                                                RankedTensorType resultType,
                                                unsigned k,
                                                ConversionPatternRewriter &rewriter) {
  std::optional<SmallVector<int64_t>> kernel = getSpatial(op->getOperand(1), k);
  if (!kernel)
    return rewriter.notifyMatchFailure(op, "kernel_size is not a constant");
  std::optional<SmallVector<int64_t>> stride =
      getSpatial(op->getOperand(2), k, *kernel);
  std::optional<SmallVector<int64_t>> padding = getSpatial(op->getOperand(3), k);
  std::optional<SmallVector<int64_t>> dilation = getSpatial(op->getOperand(4), k);
  if (!stride || !padding || !dilation)
    return rewriter.notifyMatchFailure(
        op, "stride, padding or dilation is not a constant");
  ArrayRef<int64_t> in = getTensorType(input).getShape();
  int64_t rank = resultType.getRank();
  SmallVector<WindowDim> dims;
  for (unsigned i = 0; i < k; ++i) {
    WindowDim dim;
    dim.size = in[2 + i];
    dim.out = resultType.getDimSize(rank - k + i);
    dim.kernel = (*kernel)[i];
    dim.stride = (*stride)[i];
    dim.pad = (*padding)[i];
    dim.dilation = (*dilation)[i];
    if (dim.kernel <= 0 || dim.stride <= 0 || dim.dilation <= 0 ||
        dim.pad * 2 > dim.kernel || dim.out <= 0)
      return rewriter.notifyMatchFailure(op, "invalid window");
    dims.push_back(dim);
  }
  return dims;
}

/// Replaces `op` by the maxima and their indices, in its results' shapes.
void replaceWithArgmax(Operation *op, std::pair<Value, Value> argmax,
                       RankedTensorType valueType, RankedTensorType indexType,
                       ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  rewriter.replaceOp(op, {finish(rewriter, loc, argmax.first, valueType),
                          finish(rewriter, loc, argmax.second, indexType)});
}

/// max_pool2d_with_indices and max_pool3d_with_indices(self, kernel_size,
/// stride, padding, dilation, ceil_mode) -> (values, indices), and
/// max_pool3d (the values only).
class MaxPoolWithIndicesLowering : public NamedOpLowering {
public:
  MaxPoolWithIndicesLowering(const TypeConverter &converter, MLIRContext *ctx,
                             StringRef name, unsigned k)
      : NamedOpLowering(converter, ctx, name), k(k) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op, 0);
    RankedTensorType indexType =
        op->getNumResults() > 1 ? getResultType(getTypeConverter(), op, 1)
                                : RankedTensorType();
    FailureOr<Value> input =
        argmaxInput(op, operands[0], resultType, k, rewriter);
    if (failed(input) || (op->getNumResults() > 1 && !indexType))
      return rewriter.notifyMatchFailure(op, "unsupported operands");
    FailureOr<SmallVector<WindowDim>> dims =
        getWindowDims(op, *input, resultType, k, rewriter);
    if (failed(dims))
      return failure();
    std::pair<Value, Value> argmax =
        buildWindowArgmax(rewriter, op->getLoc(), *input, *dims);
    if (!indexType) {
      rewriter.replaceOp(op, finish(rewriter, op->getLoc(), argmax.first,
                                    resultType));
      return success();
    }
    replaceWithArgmax(op, argmax, resultType, indexType, rewriter);
    return success();
  }

private:
  unsigned k;
};

/// aten::adaptive_max_pool2d(self, output_size) -> (values, indices): the
/// windows of adaptive_avg_pool2d.
class AdaptiveMaxPoolLowering
    : public OpConversionPattern<ts::AtenAdaptiveMaxPool2dOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenAdaptiveMaxPool2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op, 0);
    RankedTensorType indexType = getResultType(getTypeConverter(), op, 1);
    FailureOr<Value> input =
        argmaxInput(op, adaptor.getSelf(), resultType, 2, rewriter);
    if (failed(input) || !indexType)
      return rewriter.notifyMatchFailure(op, "unsupported operands");
    std::optional<SmallVector<int64_t>> outSize =
        getSpatial(op->getOperand(1), 2);
    if (!outSize || (*outSize)[0] <= 0 || (*outSize)[1] <= 0)
      return rewriter.notifyMatchFailure(op, "output_size is not a constant");
    ArrayRef<int64_t> in = getTensorType(*input).getShape();
    SmallVector<WindowDim> dims;
    for (int i = 0; i < 2; ++i) {
      WindowDim dim;
      dim.size = in[2 + i];
      dim.out = (*outSize)[i];
      dim.adaptive = true;
      for (int64_t o = 0; o < dim.out; ++o)
        dim.kernel = std::max(dim.kernel, adaptiveEnd(o, dim.size, dim.out) -
                                              adaptiveStart(o, dim.size, dim.out));
      dims.push_back(dim);
    }
    replaceWithArgmax(op, buildWindowArgmax(rewriter, op.getLoc(), *input, dims),
                      resultType, indexType, rewriter);
    return success();
  }
};

} // namespace

void lowering::populatePoolingPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<AdaptiveAvgPoolLowering, AdaptiveMaxPoolLowering,
               AvgPoolLowering, MaxPoolLowering>(converter, ctx);
  patterns.add<MaxPoolWithIndicesLowering>(
      converter, ctx, ts::AtenMaxPool2dWithIndicesOp::getOperationName(), 2);
  patterns.add<MaxPoolWithIndicesLowering>(
      converter, ctx, ts::AtenMaxPool3dWithIndicesOp::getOperationName(), 3);
  patterns.add<MaxPoolWithIndicesLowering>(
      converter, ctx, ts::AtenMaxPool3dOp::getOperationName(), 3);
}
