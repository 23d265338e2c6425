//===- LinearAlgebra.cpp - Products, convolutions, pooling, embedding -----===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Products, convolutions and pooling become linalg's named ops where one
// fits (linalg.matmul, batch_matmul, matvec, vecmat, dot, conv_2d_nchw_fchw,
// conv_2d_ngchw_gfchw, pooling_nchw_max/sum), so that later tiling and
// vectorisation find them; the rest (matmul with broadcast batch dims,
// batch_norm, embedding, the divisors of avg_pool2d) are linalg.generics.
//
// Products accumulate into their output, filled with zero or with the bias
// (linear, conv2d, addmm with alpha = beta = 1). f16 and bf16 products
// accumulate in f32, as PyTorch's CPU kernels, and are truncated at the end.
// Operands of another element type than the accumulator are cast first.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "Utils.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::lowering;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static bool isFloat(Type t) { return llvm::isa<FloatType>(t); }

/// The type products with result element `element` accumulate in.
static Type getAccType(Type element) {
  if (element.isF16() || element.isBF16())
    return Float32Type::get(element.getContext());
  return element;
}

static RankedTensorType getTensorType(Value v) {
  return llvm::dyn_cast<RankedTensorType>(v.getType());
}

/// Operand `i` of `op` cast to the element type `element`.
static Value castOperand(OpBuilder &b, Location loc, Operation *op,
                         ValueRange operands, unsigned i, Type element) {
  return castElementType(b, loc, operands[i], element,
                         isUnsignedDtype(getTSDtype(op->getOperand(i))));
}

/// A zero-filled tensor of `shape` and `element`.
static Value createZeros(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                         Type element) {
  return createFilled(b, loc, RankedTensorType::get(shape, element),
                      createScalarConstant(b, loc, element, 0));
}

/// `value` (broadcast as PyTorch does, trailing-aligned) to `shape`, with
/// elements cast to `element`: the initial value of an accumulation.
static Value broadcastTo(OpBuilder &b, Location loc, Value value,
                         ArrayRef<int64_t> shape, Type element,
                         bool isUnsigned) {
  auto type = RankedTensorType::get(shape, element);
  return buildElementwise(b, loc, type, value,
                          [&](OpBuilder &nb, Location l, ValueRange e) {
                            return castScalar(nb, l, e[0], element, isUnsigned);
                          });
}

/// `value`, of the accumulator's type, cast to the result type and
/// reshaped to its shape.
static Value finish(OpBuilder &b, Location loc, Value value,
                    RankedTensorType resultType) {
  value = castElementType(b, loc, value, resultType.getElementType());
  return reshapeTo(b, loc, value, resultType.getShape());
}

/// The `n` ints of a spatial `int[n]` operand: a list of n constants, or
/// of one (or one int) standing for all n; `empty` when the list is empty.
static std::optional<SmallVector<int64_t>>
getSpatial(Value list, unsigned n,
           std::optional<SmallVector<int64_t>> empty = {}) {
  std::optional<SmallVector<int64_t>> values = getConstIntList(list);
  if (!values) {
    std::optional<int64_t> one = getConstInt(list);
    if (!one)
      return std::nullopt;
    values = SmallVector<int64_t>{*one};
  }
  if (values->empty())
    return empty;
  if (values->size() == 1)
    values->assign(n, (*values)[0]);
  if (values->size() != n)
    return std::nullopt;
  return values;
}

static DenseIntElementsAttr getI64VectorAttr(OpBuilder &b,
                                             ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    b.getI64Type());
  return DenseIntElementsAttr::get(type, values);
}

/// `input` padded by `pad[i]` on both sides of dims 2 and 3 with `value`.
static Value padSpatial(OpBuilder &b, Location loc, Value input,
                        ArrayRef<int64_t> pad, Value value,
                        ArrayRef<int64_t> extraHigh = {}) {
  int64_t extra[2] = {extraHigh.empty() ? 0 : extraHigh[0],
                      extraHigh.empty() ? 0 : extraHigh[1]};
  if (pad[0] == 0 && pad[1] == 0 && extra[0] == 0 && extra[1] == 0)
    return input;
  auto type = llvm::cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[2] += 2 * pad[0] + extra[0];
  shape[3] += 2 * pad[1] + extra[1];
  SmallVector<OpFoldResult> low = {b.getIndexAttr(0), b.getIndexAttr(0),
                                   b.getIndexAttr(pad[0]),
                                   b.getIndexAttr(pad[1])};
  SmallVector<OpFoldResult> high = {b.getIndexAttr(0), b.getIndexAttr(0),
                                    b.getIndexAttr(pad[0] + extra[0]),
                                    b.getIndexAttr(pad[1] + extra[1])};
  return tensor::PadOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), input, low,
      high, value);
}

/// The output size of a window of `kernel` with `stride`, `pad` and
/// `dilation` over `size` elements (PyTorch's floor mode).
static int64_t getWindowCount(int64_t size, int64_t kernel, int64_t stride,
                              int64_t pad, int64_t dilation) {
  return (size + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1;
}

//===----------------------------------------------------------------------===//
// Products
//===----------------------------------------------------------------------===//

/// `a @ b` (`transposeB`: `a @ b^T`, with b of shape [N, K]) accumulated
/// into `init` of shape [M, N].
static Value buildMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs,
                         Value init, bool transposeB = false) {
  auto matmul =
      linalg::MatmulOp::create(b, loc, TypeRange{init.getType()},
                               ValueRange{lhs, rhs}, ValueRange{init});
  if (transposeB) {
    MLIRContext *ctx = b.getContext();
    AffineExpr m = getAffineDimExpr(0, ctx), n = getAffineDimExpr(1, ctx),
               k = getAffineDimExpr(2, ctx);
    SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {m, k}, ctx),
                                   AffineMap::get(3, 0, {n, k}, ctx),
                                   AffineMap::get(3, 0, {m, n}, ctx)};
    matmul.setIndexingMapsAttr(b.getAffineMapArrayAttr(maps));
  }
  return matmul.getResult(0);
}

/// The batched product of `lhs` [..., M, K] and `rhs` [..., K, N] whose
/// batch dims broadcast to `batch`: linalg.batch_matmul over the collapsed
/// batch when both have it, else a contraction generic reading the
/// broadcast dims at index 0. The result has shape [batch..., M, N].
static Value buildBatchedMatmul(OpBuilder &b, Location loc, Value lhs,
                                Value rhs, ArrayRef<int64_t> batch,
                                Type accType) {
  RankedTensorType lhsType = getTensorType(lhs), rhsType = getTensorType(rhs);
  int64_t m = lhsType.getDimSize(lhsType.getRank() - 2);
  int64_t k = lhsType.getDimSize(lhsType.getRank() - 1);
  int64_t n = rhsType.getDimSize(rhsType.getRank() - 1);
  SmallVector<int64_t> resultShape(batch);
  resultShape.append({m, n});
  ArrayRef<int64_t> lhsBatch = lhsType.getShape().drop_back(2);
  ArrayRef<int64_t> rhsBatch = rhsType.getShape().drop_back(2);
  if (lhsBatch == batch && rhsBatch == batch) {
    int64_t total = 1;
    for (int64_t size : batch)
      total *= size;
    Value l = reshapeTo(b, loc, lhs, {total, m, k});
    Value r = reshapeTo(b, loc, rhs, {total, k, n});
    Value init = createZeros(b, loc, {total, m, n}, accType);
    Value product =
        linalg::BatchMatmulOp::create(b, loc, TypeRange{init.getType()},
                                      ValueRange{l, r}, ValueRange{init})
            .getResult(0);
    return reshapeTo(b, loc, product, resultShape);
  }

  // Loops: batch..., m, n, k.
  MLIRContext *ctx = b.getContext();
  int64_t nb = batch.size();
  int64_t loops = nb + 3;
  auto operandMap = [&](ArrayRef<int64_t> operandBatch, int64_t row,
                        int64_t col) {
    SmallVector<AffineExpr> exprs;
    int64_t offset = nb - static_cast<int64_t>(operandBatch.size());
    for (auto [i, size] : llvm::enumerate(operandBatch)) {
      int64_t d = offset + static_cast<int64_t>(i);
      exprs.push_back(size == 1 && batch[d] != 1 ? getAffineConstantExpr(0, ctx)
                                                 : getAffineDimExpr(d, ctx));
    }
    exprs.push_back(getAffineDimExpr(row, ctx));
    exprs.push_back(getAffineDimExpr(col, ctx));
    return AffineMap::get(loops, 0, exprs, ctx);
  };
  SmallVector<AffineMap> maps = {operandMap(lhsBatch, nb, nb + 2),
                                 operandMap(rhsBatch, nb + 2, nb + 1),
                                 operandMap(batch, nb, nb + 1)};
  SmallVector<utils::IteratorType> iterators(loops,
                                             utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;
  Value init = createZeros(b, loc, resultShape, accType);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{lhs, rhs}, ValueRange{init},
      maps, iterators, [&](OpBuilder &nested, Location l, ValueRange args) {
        Value p, s;
        if (isFloat(accType)) {
          p = arith::MulFOp::create(nested, l, args[0], args[1]);
          s = arith::AddFOp::create(nested, l, args[2], p);
        } else {
          p = arith::MulIOp::create(nested, l, args[0], args[1]);
          s = arith::AddIOp::create(nested, l, args[2], p);
        }
        linalg::YieldOp::create(nested, l, s);
      });
  return generic.getResult(0);
}

namespace {

/// The common checks of products: static tensors, a numeric (not bool)
/// result; gives the result type and the accumulator type.
struct ProductTypes {
  RankedTensorType result;
  Type acc;
};

static FailureOr<ProductTypes>
getProductTypes(const TypeConverter *converter, Operation *op,
                ArrayRef<Value> operands, ArrayRef<unsigned> tensorOperands,
                ConversionPatternRewriter &rewriter) {
  RankedTensorType result = getResultType(converter, op);
  if (!result)
    return rewriter.notifyMatchFailure(op, "result is not a static tensor");
  for (unsigned i : tensorOperands)
    if (!getTensorType(operands[i]))
      return rewriter.notifyMatchFailure(op, "operand is not a static tensor");
  if (result.getElementType().isInteger(1))
    return rewriter.notifyMatchFailure(op, "products of bools");
  return ProductTypes{result, getAccType(result.getElementType())};
}

/// aten::mm, aten::bmm, aten::matmul, aten::dot.
class MatmulLowering : public NamedOpLowering {
public:
  using NamedOpLowering::NamedOpLowering;

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ProductTypes> types =
        getProductTypes(getTypeConverter(), op, operands, {0, 1}, rewriter);
    if (failed(types))
      return failure();
    Location loc = op->getLoc();
    Type acc = types->acc;
    Value lhs = castOperand(rewriter, loc, op, operands, 0, acc);
    Value rhs = castOperand(rewriter, loc, op, operands, 1, acc);
    ArrayRef<int64_t> lhsShape = getTensorType(lhs).getShape();
    ArrayRef<int64_t> rhsShape = getTensorType(rhs).getShape();
    int64_t lhsRank = lhsShape.size(), rhsRank = rhsShape.size();
    if (lhsRank == 0 || rhsRank == 0)
      return rewriter.notifyMatchFailure(op, "matmul of a 0-d tensor");
    int64_t k = lhsShape.back();
    if (rhsShape[rhsRank == 1 ? 0 : rhsRank - 2] != k)
      return rewriter.notifyMatchFailure(op, "contracted sizes differ");

    Value result;
    if (lhsRank == 1 && rhsRank == 1) {
      // dot.
      Value init = createZeros(rewriter, loc, {}, acc);
      result = linalg::DotOp::create(rewriter, loc, TypeRange{init.getType()},
                                     ValueRange{lhs, rhs}, ValueRange{init})
                   .getResult(0);
    } else if (lhsRank == 1 && rhsRank == 2) {
      Value init = createZeros(rewriter, loc, {rhsShape[1]}, acc);
      result =
          linalg::VecmatOp::create(rewriter, loc, TypeRange{init.getType()},
                                   ValueRange{lhs, rhs}, ValueRange{init})
              .getResult(0);
    } else if (lhsRank >= 2 && rhsRank == 1) {
      // [batch..., M, K] @ [K]: the batch folds into the rows.
      int64_t rows = ShapedType::getNumElements(lhsShape.drop_back());
      Value flat = reshapeTo(rewriter, loc, lhs, {rows, k});
      Value init = createZeros(rewriter, loc, {rows}, acc);
      result =
          linalg::MatvecOp::create(rewriter, loc, TypeRange{init.getType()},
                                   ValueRange{flat, rhs}, ValueRange{init})
              .getResult(0);
    } else if (lhsRank >= 2 && rhsRank == 2) {
      // [batch..., M, K] @ [K, N]: the batch folds into the rows.
      int64_t rows = ShapedType::getNumElements(lhsShape.drop_back());
      Value flat = reshapeTo(rewriter, loc, lhs, {rows, k});
      Value init = createZeros(rewriter, loc, {rows, rhsShape[1]}, acc);
      result = buildMatmul(rewriter, loc, flat, rhs, init);
    } else {
      // Batched, with broadcasting; a 1-D lhs is a row [1, K].
      if (lhsRank == 1)
        lhs = reshapeTo(rewriter, loc, lhs, {1, k});
      lhsShape = getTensorType(lhs).getShape();
      ArrayRef<int64_t> lhsBatch = lhsShape.drop_back(2);
      ArrayRef<int64_t> rhsBatch = rhsShape.drop_back(2);
      int64_t nb = std::max(lhsBatch.size(), rhsBatch.size());
      SmallVector<int64_t> batch(nb, 1);
      for (ArrayRef<int64_t> operandBatch : {lhsBatch, rhsBatch}) {
        int64_t offset = nb - static_cast<int64_t>(operandBatch.size());
        for (auto [i, size] : llvm::enumerate(operandBatch)) {
          int64_t &dst = batch[offset + i];
          if (size != 1 && dst != 1 && size != dst)
            return rewriter.notifyMatchFailure(op,
                                               "batch dims do not broadcast");
          if (size != 1)
            dst = size;
        }
      }
      result = buildBatchedMatmul(rewriter, loc, lhs, rhs, batch, acc);
    }
    if (getTensorType(result).getNumElements() !=
        types->result.getNumElements())
      return rewriter.notifyMatchFailure(op, "result shape differs");
    rewriter.replaceOp(op, finish(rewriter, loc, result, types->result));
    return success();
  }
};

/// aten::linear: input [..., K] @ weight[N, K]^T + bias, as a linalg.matmul
/// with a transposed map over the input's rows, accumulating into the bias.
class LinearLowering : public OpConversionPattern<ts::AtenLinearOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenLinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> operands(adaptor.getOperands());
    FailureOr<ProductTypes> types =
        getProductTypes(getTypeConverter(), op, operands, {0, 1}, rewriter);
    if (failed(types))
      return failure();
    FailureOr<Value> bias = getOptionalTensor(rewriter, op, operands, 2);
    if (failed(bias))
      return rewriter.notifyMatchFailure(op, "bias is not a tensor");
    Location loc = op->getLoc();
    Type acc = types->acc;
    Value input = castOperand(rewriter, loc, op, operands, 0, acc);
    Value weight = castOperand(rewriter, loc, op, operands, 1, acc);
    ArrayRef<int64_t> inputShape = getTensorType(input).getShape();
    ArrayRef<int64_t> weightShape = getTensorType(weight).getShape();
    if (inputShape.empty() || weightShape.size() != 2 ||
        weightShape[1] != inputShape.back())
      return rewriter.notifyMatchFailure(
          op, "expected input [..., K] and weight [N, K]");
    int64_t k = inputShape.back(), n = weightShape[0];
    int64_t rows = ShapedType::getNumElements(inputShape.drop_back());
    Value flat = reshapeTo(rewriter, loc, input, {rows, k});
    Value init = *bias ? broadcastTo(rewriter, loc, *bias, {rows, n}, acc,
                                     isUnsignedDtype(getTSDtype(op.getBias())))
                       : createZeros(rewriter, loc, {rows, n}, acc);
    Value result =
        buildMatmul(rewriter, loc, flat, weight, init, /*transposeB=*/true);
    rewriter.replaceOp(op, finish(rewriter, loc, result, types->result));
    return success();
  }
};

/// aten::addmm and aten::baddbmm: beta * input + alpha * (mat1 @ mat2). With
/// alpha = beta = 1 the product accumulates into the broadcast input; else
/// an elementwise generic scales and adds after the product. beta = 0
/// ignores the input (its NaNs too), as PyTorch.
class AddmmLowering : public NamedOpLowering {
public:
  AddmmLowering(const TypeConverter &converter, MLIRContext *ctx,
                StringRef name, bool batched)
      : NamedOpLowering(converter, ctx, name), batched(batched) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ProductTypes> types =
        getProductTypes(getTypeConverter(), op, operands, {0, 1, 2}, rewriter);
    if (failed(types))
      return failure();
    Location loc = op->getLoc();
    Type acc = types->acc;
    Value lhs = castOperand(rewriter, loc, op, operands, 1, acc);
    Value rhs = castOperand(rewriter, loc, op, operands, 2, acc);
    unsigned rank = batched ? 3 : 2;
    ArrayRef<int64_t> lhsShape = getTensorType(lhs).getShape();
    ArrayRef<int64_t> rhsShape = getTensorType(rhs).getShape();
    if (lhsShape.size() != rank || rhsShape.size() != rank ||
        lhsShape[rank - 1] != rhsShape[rank - 2] ||
        (batched && lhsShape[0] != rhsShape[0]))
      return rewriter.notifyMatchFailure(op, "mismatched matrix shapes");
    ArrayRef<int64_t> shape = types->result.getShape();
    if (shape.size() != rank)
      return rewriter.notifyMatchFailure(op, "unexpected result rank");
    std::optional<double> beta = getConstNumber(op->getOperand(3));
    std::optional<double> alpha = getConstNumber(op->getOperand(4));
    bool plain = beta && alpha && *beta == 1 && *alpha == 1;
    bool isUnsigned = isUnsignedDtype(getTSDtype(op->getOperand(0)));

    Value init =
        plain ? broadcastTo(rewriter, loc, operands[0], shape, acc, isUnsigned)
              : createZeros(rewriter, loc, shape, acc);
    Value product = batched ? linalg::BatchMatmulOp::create(
                                  rewriter, loc, TypeRange{init.getType()},
                                  ValueRange{lhs, rhs}, ValueRange{init})
                                  .getResult(0)
                            : buildMatmul(rewriter, loc, lhs, rhs, init);
    if (!plain) {
      bool skipInput = beta && *beta == 0;
      SmallVector<Value> inputs = {product};
      if (!skipInput)
        inputs.push_back(operands[0]);
      Value betaValue = castScalar(rewriter, loc, operands[3], acc);
      Value alphaValue = castScalar(rewriter, loc, operands[4], acc);
      bool isF = isFloat(acc);
      product = buildElementwise(
          rewriter, loc, RankedTensorType::get(shape, acc), inputs,
          [&](OpBuilder &b, Location l, ValueRange e) -> Value {
            auto mul = [&](Value x, Value y) -> Value {
              return isF ? arith::MulFOp::create(b, l, x, y).getResult()
                         : arith::MulIOp::create(b, l, x, y).getResult();
            };
            Value r = (alpha && *alpha == 1) ? e[0] : mul(e[0], alphaValue);
            if (skipInput)
              return r;
            Value in = castScalar(b, l, e[1], acc, isUnsigned);
            if (!(beta && *beta == 1))
              in = mul(in, betaValue);
            return isF ? arith::AddFOp::create(b, l, in, r).getResult()
                       : arith::AddIOp::create(b, l, in, r).getResult();
          });
    }
    rewriter.replaceOp(op, finish(rewriter, loc, product, types->result));
    return success();
  }

private:
  bool batched;
};

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

/// A 3-D convolution (any groups) as one linalg.generic: the zero-padded
/// input [N, G, C/G, D, H, W] and weight [G, F/G, C/G, kd, kh, kw] (channels
/// split by group) are read at out * stride + k * dilation and accumulated
/// into `init` [N, G, F/G, od, oh, ow] over (C/G, kd, kh, kw).
static Value buildGroupedConv3d(OpBuilder &b, Location loc, Value input,
                                Value weight, Value init,
                                ArrayRef<int64_t> stride,
                                ArrayRef<int64_t> dilation) {
  MLIRContext *ctx = b.getContext();
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  // (n, g, f, o0, o1, o2, c, k0, k1, k2)
  SmallVector<AffineExpr> in = {d(0), d(1), d(6)};
  for (int i = 0; i < 3; ++i)
    in.push_back(d(3 + i) * stride[i] + d(7 + i) * dilation[i]);
  SmallVector<AffineMap> maps = {
      AffineMap::get(10, 0, in, ctx),
      AffineMap::get(10, 0, {d(1), d(2), d(6), d(7), d(8), d(9)}, ctx),
      AffineMap::get(10, 0, {d(0), d(1), d(2), d(3), d(4), d(5)}, ctx)};
  SmallVector<utils::IteratorType> iterators(6, utils::IteratorType::parallel);
  iterators.append(4, utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{input, weight},
             ValueRange{init}, maps, iterators,
             [](OpBuilder &nb, Location l, ValueRange args) {
               Value sum;
               if (llvm::isa<FloatType>(args[0].getType()))
                 sum = arith::AddFOp::create(
                     nb, l, args[2], arith::MulFOp::create(nb, l, args[0], args[1]));
               else
                 sum = arith::AddIOp::create(
                     nb, l, args[2], arith::MulIOp::create(nb, l, args[0], args[1]));
               linalg::YieldOp::create(nb, l, sum);
             })
      .getResult(0);
}

/// aten::conv2d, aten::conv3d and aten::_convolution (2-D or 3-D, not
/// transposed): the input is zero-padded with tensor.pad, then
/// linalg.conv_2d_nchw_fchw accumulates into the bias broadcast along the
/// channels (zeros without bias). 2-D groups > 1 use
/// linalg.conv_2d_ngchw_gfchw on the input, weight and output viewed with
/// their channels split into [groups, channels/groups]; 3-D convolutions
/// are one linalg.generic of the same form (buildGroupedConv3d).
class ConvolutionLowering : public NamedOpLowering {
public:
  ConvolutionLowering(const TypeConverter &converter, MLIRContext *ctx,
                      StringRef name, unsigned groupsOperand,
                      bool hasTransposed)
      : NamedOpLowering(converter, ctx, name), groupsOperand(groupsOperand),
        hasTransposed(hasTransposed) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ProductTypes> types =
        getProductTypes(getTypeConverter(), op, operands, {0, 1}, rewriter);
    if (failed(types))
      return failure();
    if (hasTransposed) {
      std::optional<bool> transposed = getConstBool(op->getOperand(6));
      if (!transposed || *transposed)
        return rewriter.notifyMatchFailure(
            op, "transposed convolution is not supported");
    }
    FailureOr<Value> bias = getOptionalTensor(rewriter, op, operands, 2);
    if (failed(bias))
      return rewriter.notifyMatchFailure(op, "bias is not a tensor");
    Location loc = op->getLoc();
    Type acc = types->acc;
    Value input = castOperand(rewriter, loc, op, operands, 0, acc);
    Value weight = castOperand(rewriter, loc, op, operands, 1, acc);
    RankedTensorType weightType = getTensorType(weight);
    int64_t inputRank = getTensorType(input).getRank();
    if (weightType.getRank() == 5)
      return lower3d(op, operands, rewriter, *types, input, weight, *bias);
    std::optional<SmallVector<int64_t>> stride = getSpatial(op->getOperand(3), 2);
    std::optional<SmallVector<int64_t>> padding = getSpatial(op->getOperand(4), 2);
    std::optional<SmallVector<int64_t>> dilation = getSpatial(op->getOperand(5), 2);
    std::optional<int64_t> groups = getConstInt(op->getOperand(groupsOperand));
    if (!stride || !padding || !dilation || !groups || *groups < 1)
      return rewriter.notifyMatchFailure(
          op, "stride, padding, dilation or groups is not a constant of two "
              "spatial dims");
    if (weightType.getRank() != 4 || (inputRank != 3 && inputRank != 4))
      return rewriter.notifyMatchFailure(op, "only 2-D convolutions");
    if (inputRank == 3) {
      // Unbatched [C, H, W].
      SmallVector<int64_t> shape = {1};
      llvm::append_range(shape, getTensorType(input).getShape());
      input = reshapeTo(rewriter, loc, input, shape);
    }
    ArrayRef<int64_t> in = getTensorType(input).getShape();
    ArrayRef<int64_t> w = weightType.getShape();
    int64_t g = *groups;
    if (in[1] != w[1] * g || w[0] % g != 0)
      return rewriter.notifyMatchFailure(
          op, "channels do not match the weight and groups");
    SmallVector<int64_t> outShape = {in[0], w[0]};
    for (int i = 0; i < 2; ++i)
      outShape.push_back(getWindowCount(in[2 + i], w[2 + i], (*stride)[i],
                                        (*padding)[i], (*dilation)[i]));
    if (outShape[2] <= 0 || outShape[3] <= 0)
      return rewriter.notifyMatchFailure(op, "empty output");

    input = padSpatial(rewriter, loc, input, *padding,
                       createScalarConstant(rewriter, loc, acc, 0));
    Value init;
    if (*bias) {
      // The bias [F] along dim 1 of the output.
      auto outType = RankedTensorType::get(outShape, acc);
      bool isUnsigned = isUnsignedDtype(getTSDtype(op->getOperand(2)));
      MLIRContext *ctx = rewriter.getContext();
      SmallVector<AffineMap> maps = {
          AffineMap::get(4, 0, getAffineDimExpr(1, ctx), ctx),
          rewriter.getMultiDimIdentityMap(4)};
      init = linalg::GenericOp::create(
                 rewriter, loc, TypeRange{outType}, ValueRange{*bias},
                 ValueRange{createEmpty(rewriter, loc, outType)}, maps,
                 SmallVector<utils::IteratorType>(
                     4, utils::IteratorType::parallel),
                 [&](OpBuilder &b, Location l, ValueRange args) {
                   linalg::YieldOp::create(
                       b, l, castScalar(b, l, args[0], acc, isUnsigned));
                 })
                 .getResult(0);
    } else {
      init = createZeros(rewriter, loc, outShape, acc);
    }

    SmallVector<NamedAttribute> attrs = {
        rewriter.getNamedAttr("strides", getI64VectorAttr(rewriter, *stride)),
        rewriter.getNamedAttr("dilations",
                              getI64VectorAttr(rewriter, *dilation))};
    Value result;
    if (g == 1) {
      result = linalg::Conv2DNchwFchwOp::create(
                   rewriter, loc, TypeRange{init.getType()},
                   ValueRange{input, weight}, ValueRange{init}, attrs)
                   .getResult(0);
    } else {
      ArrayRef<int64_t> padded = getTensorType(input).getShape();
      Value gInput =
          reshapeTo(rewriter, loc, input,
                    {padded[0], g, padded[1] / g, padded[2], padded[3]});
      Value gWeight =
          reshapeTo(rewriter, loc, weight, {g, w[0] / g, w[1], w[2], w[3]});
      SmallVector<int64_t> gOut = {outShape[0], g, outShape[1] / g, outShape[2],
                                   outShape[3]};
      Value gInit = reshapeTo(rewriter, loc, init, gOut);
      Value conv = linalg::Conv2DNgchwGfchwOp::create(
                       rewriter, loc, TypeRange{gInit.getType()},
                       ValueRange{gInput, gWeight}, ValueRange{gInit}, attrs)
                       .getResult(0);
      result = reshapeTo(rewriter, loc, conv, outShape);
    }
    if (getTensorType(result).getNumElements() !=
        types->result.getNumElements())
      return rewriter.notifyMatchFailure(op, "result shape differs");
    rewriter.replaceOp(op, finish(rewriter, loc, result, types->result));
    return success();
  }

private:
  LogicalResult lower3d(Operation *op, ArrayRef<Value> operands,
                        ConversionPatternRewriter &rewriter,
                        const ProductTypes &types, Value input, Value weight,
                        Value bias) const {
    std::optional<SmallVector<int64_t>> stride = getSpatial(op->getOperand(3), 3);
    std::optional<SmallVector<int64_t>> padding =
        getSpatial(op->getOperand(4), 3);
    std::optional<SmallVector<int64_t>> dilation =
        getSpatial(op->getOperand(5), 3);
    std::optional<int64_t> groups = getConstInt(op->getOperand(groupsOperand));
    if (!stride || !padding || !dilation || !groups || *groups < 1)
      return rewriter.notifyMatchFailure(
          op, "stride, padding, dilation or groups is not a constant of three "
              "spatial dims");
    Location loc = op->getLoc();
    Type acc = types.acc;
    if (getTensorType(input).getRank() == 4) {
      SmallVector<int64_t> shape = {1};
      llvm::append_range(shape, getTensorType(input).getShape());
      input = reshapeTo(rewriter, loc, input, shape);
    }
    if (getTensorType(input).getRank() != 5)
      return rewriter.notifyMatchFailure(op, "input is not [N, C, D, H, W]");
    SmallVector<int64_t> in(getTensorType(input).getShape());
    ArrayRef<int64_t> w = getTensorType(weight).getShape();
    int64_t g = *groups;
    if (in[1] != w[1] * g || w[0] % g != 0)
      return rewriter.notifyMatchFailure(
          op, "channels do not match the weight and groups");
    SmallVector<int64_t> outShape = {in[0], w[0]};
    for (int i = 0; i < 3; ++i) {
      outShape.push_back(getWindowCount(in[2 + i], w[2 + i], (*stride)[i],
                                        (*padding)[i], (*dilation)[i]));
      if (outShape.back() <= 0)
        return rewriter.notifyMatchFailure(op, "empty output");
    }
    if (llvm::any_of(*padding, [](int64_t p) { return p != 0; })) {
      SmallVector<int64_t> padded(in);
      SmallVector<OpFoldResult> low(5, rewriter.getIndexAttr(0));
      for (int i = 0; i < 3; ++i) {
        padded[2 + i] += 2 * (*padding)[i];
        low[2 + i] = rewriter.getIndexAttr((*padding)[i]);
      }
      input = tensor::PadOp::create(
          rewriter, loc, RankedTensorType::get(padded, acc), input, low, low,
          createScalarConstant(rewriter, loc, acc, 0));
      in = padded;
    }
    SmallVector<int64_t> gOut = {outShape[0], g, w[0] / g, outShape[2],
                                 outShape[3], outShape[4]};
    Value init;
    auto gOutType = RankedTensorType::get(gOut, acc);
    if (bias) {
      // The bias [F] = [G, F/G] along dims 1 and 2.
      Value gBias = reshapeTo(rewriter, loc, bias, {g, w[0] / g});
      bool isUnsigned = isUnsignedDtype(getTSDtype(op->getOperand(2)));
      MLIRContext *ctx = rewriter.getContext();
      SmallVector<AffineMap> maps = {
          AffineMap::get(6, 0, {getAffineDimExpr(1, ctx), getAffineDimExpr(2, ctx)},
                         ctx),
          rewriter.getMultiDimIdentityMap(6)};
      init = linalg::GenericOp::create(
                 rewriter, loc, TypeRange{gOutType}, ValueRange{gBias},
                 ValueRange{createEmpty(rewriter, loc, gOutType)}, maps,
                 SmallVector<utils::IteratorType>(6, utils::IteratorType::parallel),
                 [&](OpBuilder &b, Location l, ValueRange args) {
                   linalg::YieldOp::create(
                       b, l, castScalar(b, l, args[0], acc, isUnsigned));
                 })
                 .getResult(0);
    } else {
      init = createZeros(rewriter, loc, gOut, acc);
    }
    Value gInput = reshapeTo(rewriter, loc, input,
                             {in[0], g, in[1] / g, in[2], in[3], in[4]});
    Value gWeight =
        reshapeTo(rewriter, loc, weight, {g, w[0] / g, w[1], w[2], w[3], w[4]});
    Value conv = buildGroupedConv3d(rewriter, loc, gInput, gWeight, init,
                                    *stride, *dilation);
    Value result = reshapeTo(rewriter, loc, conv, outShape);
    if (getTensorType(result).getNumElements() !=
        types.result.getNumElements())
      return rewriter.notifyMatchFailure(op, "result shape differs");
    rewriter.replaceOp(op, finish(rewriter, loc, result, types.result));
    return success();
  }

  unsigned groupsOperand;
  bool hasTransposed;
};

//===----------------------------------------------------------------------===//
// Normalisation, pooling, embedding
//===----------------------------------------------------------------------===//

/// aten::batch_norm in evaluation mode: (x - running_mean) /
/// sqrt(running_var + eps) * weight + bias, the [C] vectors read along dim
/// 1, in one elementwise generic.
class BatchNormLowering : public OpConversionPattern<ts::AtenBatchNormOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenBatchNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    RankedTensorType inputType = getTensorType(adaptor.getInput());
    if (!resultType || !inputType || inputType.getRank() < 2)
      return rewriter.notifyMatchFailure(op,
                                         "expected static tensors of rank 2+");
    Type resultElement = resultType.getElementType();
    if (!isFloat(resultElement))
      return rewriter.notifyMatchFailure(op, "expected a float result");
    std::optional<bool> training = getConstBool(op.getTraining());
    if (!training)
      return rewriter.notifyMatchFailure(op, "training is not a constant");
    if (*training)
      return rewriter.notifyMatchFailure(op, "batch_norm in training mode");
    SmallVector<Value> operands(adaptor.getOperands());
    SmallVector<Value> vectors; // weight, bias, mean, var (null: None)
    for (unsigned i = 1; i <= 4; ++i) {
      FailureOr<Value> v = getOptionalTensor(rewriter, op, operands, i);
      if (failed(v))
        return rewriter.notifyMatchFailure(op, "expected a tensor or None");
      vectors.push_back(*v);
    }
    if (!vectors[2] || !vectors[3])
      return rewriter.notifyMatchFailure(
          op, "batch_norm without running statistics (batch statistics)");
    int64_t channels = inputType.getDimSize(1);
    for (Value v : vectors)
      if (v && getTensorType(v).getShape() != ArrayRef<int64_t>{channels})
        return rewriter.notifyMatchFailure(
            op, "weight, bias or running statistics are not of the channels");

    Location loc = op->getLoc();
    Type compute = getAccType(resultElement);
    Value eps = castScalar(rewriter, loc, adaptor.getEps(), compute);
    int64_t rank = inputType.getRank();
    MLIRContext *ctx = rewriter.getContext();
    AffineMap channelMap =
        AffineMap::get(rank, 0, getAffineDimExpr(1, ctx), ctx);
    SmallVector<Value> inputs = {adaptor.getInput()};
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank)};
    for (Value v : vectors)
      if (v) {
        inputs.push_back(v);
        maps.push_back(channelMap);
      }
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    bool hasWeight = static_cast<bool>(vectors[0]);
    bool hasBias = static_cast<bool>(vectors[1]);
    bool isUnsigned = isUnsignedDtype(getTSDtype(op.getInput()));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, inputs,
        ValueRange{createEmpty(rewriter, loc, resultType)}, maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange args) {
          unsigned next = 1;
          Value x = castScalar(b, l, args[0], compute, isUnsigned);
          Value weight =
              hasWeight ? castScalar(b, l, args[next++], compute) : Value();
          Value bias =
              hasBias ? castScalar(b, l, args[next++], compute) : Value();
          Value mean = castScalar(b, l, args[next++], compute);
          Value var = castScalar(b, l, args[next++], compute);
          Value std =
              math::SqrtOp::create(b, l, arith::AddFOp::create(b, l, var, eps));
          Value y = arith::DivFOp::create(
              b, l, arith::SubFOp::create(b, l, x, mean), std);
          if (weight)
            y = arith::MulFOp::create(b, l, y, weight);
          if (bias)
            y = arith::AddFOp::create(b, l, y, bias);
          linalg::YieldOp::create(b, l, castScalar(b, l, y, resultElement));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// The NCHW view of a pooling input: [C, H, W] gains a batch of 1.
static Value toNCHW(OpBuilder &b, Location loc, Value input) {
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
static Value buildPool(OpBuilder &b, Location loc, Value input, PoolKind kind,
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
static FailureOr<Window> getWindow(Operation *op, Value input,
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
static Value buildWindowCount(OpBuilder &b, Location l,
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
static Value buildDivide(OpBuilder &b, Location loc, Value sum,
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
/// divisor_override.
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
    if (!isFloat(resultType.getElementType()))
      return rewriter.notifyMatchFailure(op, "expected a float result");
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
static int64_t adaptiveStart(int64_t o, int64_t in, int64_t out) {
  return o * in / out;
}
static int64_t adaptiveEnd(int64_t o, int64_t in, int64_t out) {
  return ((o + 1) * in + out - 1) / out;
}

/// The same bounds for the output index `o` (an i64 value).
static std::pair<Value, Value> adaptiveBounds(OpBuilder &b, Location l,
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

/// The sums of adaptive average pooling of `input` (NCHW, of type `acc`)
/// to `outSize` when the windows differ in size: a generic over [N, C, OH,
/// OW, KH, KW], KH and KW the largest window, reading the input at each
/// window's start plus the window offsets, elements past the window's end
/// skipped.
static Value buildAdaptiveSum(OpBuilder &b, Location loc, Value input,
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
                 auto [start, end] =
                     adaptiveBounds(nb, l, o, in[2 + i], outSize[i]);
                 Value at = arith::AddIOp::create(nb, l, start, k);
                 Value inside = arith::CmpIOp::create(
                     nb, l, arith::CmpIPredicate::slt, at, end);
                 valid = valid ? arith::AndIOp::create(nb, l, valid, inside)
                                     .getResult()
                               : inside;
                 // Clamped, so that a skipped read stays in bounds.
                 Value last = createScalarConstant(nb, l, i64, in[2 + i] - 1);
                 at = arith::MinSIOp::create(nb, l, at, last);
                 indices.push_back(castScalar(nb, l, at, nb.getIndexType()));
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

/// aten::embedding: out[..., d] = weight[indices[...], d], a generic over the
/// result reading the indices and extracting from the weight.
class EmbeddingLowering : public OpConversionPattern<ts::AtenEmbeddingOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenEmbeddingOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    RankedTensorType weightType = getTensorType(adaptor.getWeight());
    RankedTensorType indicesType = getTensorType(adaptor.getIndices());
    if (!resultType || !weightType || !indicesType || weightType.getRank() != 2)
      return rewriter.notifyMatchFailure(
          op, "expected static tensors and a 2-D weight");
    if (!llvm::isa<IntegerType>(indicesType.getElementType()) ||
        indicesType.getElementType().isInteger(1))
      return rewriter.notifyMatchFailure(op, "indices are not integers");
    if (resultType.getElementType() != weightType.getElementType())
      return rewriter.notifyMatchFailure(op, "result dtype differs");
    Location loc = op->getLoc();
    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = resultType.getRank();
    SmallVector<AffineExpr> indexExprs;
    for (int64_t d = 0; d + 1 < rank; ++d)
      indexExprs.push_back(getAffineDimExpr(d, ctx));
    SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, indexExprs, ctx),
                                   rewriter.getMultiDimIdentityMap(rank)};
    Value weight = adaptor.getWeight();
    bool isUnsigned = isUnsignedDtype(getTSDtype(op.getIndices()));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, adaptor.getIndices(),
        ValueRange{createEmpty(rewriter, loc, resultType)}, maps,
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value row = castScalar(b, l, args[0], b.getI64Type(), isUnsigned);
          row = arith::IndexCastOp::create(b, l, b.getIndexType(), row);
          Value col = linalg::IndexOp::create(b, l, rank - 1);
          Value v =
              tensor::ExtractOp::create(b, l, weight, ValueRange{row, col});
          linalg::YieldOp::create(b, l, v);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Pattern Population
//===----------------------------------------------------------------------===//

void lowering::populateLinearAlgebraPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<AddmmLowering>(converter, ctx,
                              ts::AtenAddmmOp::getOperationName(),
                              /*batched=*/false);
  patterns.add<AddmmLowering>(converter, ctx,
                              ts::AtenBaddbmmOp::getOperationName(),
                              /*batched=*/true);
  patterns.add<ConvolutionLowering>(converter, ctx,
                                    ts::Aten_ConvolutionOp::getOperationName(),
                                    /*groupsOperand=*/8,
                                    /*hasTransposed=*/true);
  patterns.add<ConvolutionLowering>(converter, ctx,
                                    ts::AtenConv3dOp::getOperationName(),
                                    /*groupsOperand=*/6,
                                    /*hasTransposed=*/false);
  patterns.add<ConvolutionLowering>(converter, ctx,
                                    ts::AtenConv2dOp::getOperationName(),
                                    /*groupsOperand=*/6,
                                    /*hasTransposed=*/false);
  for (StringRef name : getOperationNames<ts::AtenBmmOp, ts::AtenDotOp,
                                          ts::AtenMatmulOp, ts::AtenMmOp>())
    patterns.add<MatmulLowering>(converter, ctx, name);
  patterns.add<AdaptiveAvgPoolLowering, AvgPoolLowering, BatchNormLowering,
               EmbeddingLowering, LinearLowering, MaxPoolLowering>(converter,
                                                                   ctx);
}
