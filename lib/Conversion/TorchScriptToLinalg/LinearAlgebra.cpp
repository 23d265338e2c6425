//===- LinearAlgebra.cpp - Products, convolutions, embedding -------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Products and convolutions become linalg's named ops where one fits
// (linalg.matmul, batch_matmul, matvec, vecmat, dot, conv_2d_nchw_fchw,
// conv_2d_ngchw_gfchw), so that later tiling and vectorisation find them;
// the rest (matmul with broadcast batch dims, batch_norm, embedding) are
// linalg.generics. Pooling is in Pooling.cpp.
//
// Products accumulate into their output, filled with zero or with the bias
// (linear, conv2d, addmm with alpha = beta = 1). f16 and bf16 products
// accumulate in f32, as PyTorch's CPU kernels, and are truncated at the end.
// Operands of another element type than the accumulator are cast first.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "Utils.h"

#include "tsmlir/Dialect/Kernel/IR/KernelOps.h"
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
// Products
//===----------------------------------------------------------------------===//

/// `empty` filled with zeros.
static Value fillZeros(OpBuilder &b, Location loc, Value empty) {
  Type element = llvm::cast<RankedTensorType>(empty.getType()).getElementType();
  return linalg::FillOp::create(b, loc,
                                createScalarConstant(b, loc, element, 0), empty)
      .getResult(0);
}

/// The number of rows of `shape` without its last dim, when it is static or
/// one dim (a matrix's rows): the rows a product folds a batch into.
static std::optional<int64_t> getFoldedRows(ArrayRef<int64_t> shape) {
  ArrayRef<int64_t> leading = shape.drop_back();
  if (leading.size() == 1)
    return leading[0];
  if (ShapedType::isDynamicShape(leading))
    return std::nullopt;
  return ShapedType::getNumElements(leading);
}

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

/// aten::mm, aten::bmm, aten::matmul, aten::dot. Dynamic sizes: all but
/// the batched products with dynamic batch dims.
class MatmulLowering : public NamedOpLowering {
public:
  MatmulLowering(const TypeConverter &converter, MLIRContext *ctx,
                 StringRef name)
      : NamedOpLowering(converter, ctx, name) {
    addDebugLabels(kDynamicSizesLabel);
  }

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
    int64_t rhsK = rhsShape[rhsRank == 1 ? 0 : rhsRank - 2];
    if (!ShapedType::isDynamic(k) && !ShapedType::isDynamic(rhsK) && rhsK != k)
      return rewriter.notifyMatchFailure(op, "contracted sizes differ");
    checkSizesEqual(rewriter, loc, getDimSize(rewriter, loc, lhs, lhsRank - 1),
                    getDimSize(rewriter, loc, rhs,
                               rhsRank == 1 ? 0 : rhsRank - 2),
                    "the contracted sizes of a matrix product differ");

    Value result;
    std::optional<int64_t> rows = getFoldedRows(lhsShape);
    if (lhsRank == 1 && rhsRank == 1) {
      // dot.
      Value init = createZeros(rewriter, loc, {}, acc);
      result = linalg::DotOp::create(rewriter, loc, TypeRange{init.getType()},
                                     ValueRange{lhs, rhs}, ValueRange{init})
                   .getResult(0);
    } else if (lhsRank == 1 && rhsRank == 2) {
      Value init = fillZeros(rewriter, loc,
                             createEmptyFromDims(rewriter, loc, {{rhs, 1}}, acc));
      result =
          linalg::VecmatOp::create(rewriter, loc, TypeRange{init.getType()},
                                   ValueRange{lhs, rhs}, ValueRange{init})
              .getResult(0);
    } else if (lhsRank >= 2 && rhsRank == 1 && rows) {
      // [batch..., M, K] @ [K]: the batch folds into the rows.
      Value flat = reshapeTo(rewriter, loc, lhs, {*rows, k});
      Value init = fillZeros(
          rewriter, loc, createEmptyFromDims(rewriter, loc, {{flat, 0}}, acc));
      result =
          linalg::MatvecOp::create(rewriter, loc, TypeRange{init.getType()},
                                   ValueRange{flat, rhs}, ValueRange{init})
              .getResult(0);
    } else if (lhsRank >= 2 && rhsRank == 2 && rows) {
      // [batch..., M, K] @ [K, N]: the batch folds into the rows.
      Value flat = reshapeTo(rewriter, loc, lhs, {*rows, k});
      Value init = fillZeros(
          rewriter, loc,
          createEmptyFromDims(rewriter, loc, {{flat, 0}, {rhs, 1}}, acc));
      result = buildMatmul(rewriter, loc, flat, rhs, init);
    } else if (ShapedType::isDynamicShape(lhsShape) ||
               ShapedType::isDynamicShape(rhsShape)) {
      return rewriter.notifyMatchFailure(
          op, "a batched product of dynamic sizes");
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
    if (getTensorType(result).hasStaticShape() &&
        types->result.hasStaticShape() &&
        getTensorType(result).getNumElements() !=
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
  LinearLowering(const TypeConverter &converter, MLIRContext *ctx)
      : OpConversionPattern(converter, ctx) {
    addDebugLabels(kDynamicSizesLabel);
  }

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
        (!ShapedType::isDynamic(weightShape[1]) &&
         !ShapedType::isDynamic(inputShape.back()) &&
         weightShape[1] != inputShape.back()))
      return rewriter.notifyMatchFailure(
          op, "expected input [..., K] and weight [N, K]");
    checkSizesEqual(rewriter, loc,
                    getDimSize(rewriter, loc, input, inputShape.size() - 1),
                    getDimSize(rewriter, loc, weight, 1),
                    "the input's last size differs from the weight's");
    int64_t k = inputShape.back(), n = weightShape[0];
    std::optional<int64_t> rows = getFoldedRows(inputShape);
    if (!rows)
      return rewriter.notifyMatchFailure(op, "dynamic batch dims");
    Value flat = reshapeTo(rewriter, loc, input, {*rows, k});
    Value like =
        createEmptyFromDims(rewriter, loc, {{flat, 0}, {weight, 0}}, acc);
    Value init = *bias ? broadcastTo(rewriter, loc, *bias, {*rows, n}, acc,
                                     isUnsignedDtype(getTSDtype(op.getBias())),
                                     like)
                       : fillZeros(rewriter, loc, like);
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
      : NamedOpLowering(converter, ctx, name), batched(batched) {
    addDebugLabels(kDynamicSizesLabel);
  }

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
    auto differ = [](int64_t a, int64_t b) {
      return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
    };
    if (lhsShape.size() != rank || rhsShape.size() != rank ||
        differ(lhsShape[rank - 1], rhsShape[rank - 2]) ||
        (batched && differ(lhsShape[0], rhsShape[0])))
      return rewriter.notifyMatchFailure(op, "mismatched matrix shapes");
    checkSizesEqual(rewriter, loc, getDimSize(rewriter, loc, lhs, rank - 1),
                    getDimSize(rewriter, loc, rhs, rank - 2),
                    "the contracted sizes of a matrix product differ");
    if (batched)
      checkSizesEqual(rewriter, loc, getDimSize(rewriter, loc, lhs, 0),
                      getDimSize(rewriter, loc, rhs, 0),
                      "the batch sizes of a matrix product differ");
    ArrayRef<int64_t> shape = types->result.getShape();
    if (shape.size() != rank)
      return rewriter.notifyMatchFailure(op, "unexpected result rank");
    std::optional<double> beta = getConstNumber(op->getOperand(3));
    std::optional<double> alpha = getConstNumber(op->getOperand(4));
    bool plain = beta && alpha && *beta == 1 && *alpha == 1;
    bool isUnsigned = isUnsignedDtype(getTSDtype(op->getOperand(0)));

    SmallVector<std::pair<Value, int64_t>> dims = {{lhs, rank - 2},
                                                   {rhs, rank - 1}};
    if (batched)
      dims.insert(dims.begin(), {lhs, 0});
    Value like = createEmptyFromDims(rewriter, loc, dims, acc);
    Value init = plain ? broadcastTo(rewriter, loc, operands[0], shape, acc,
                                     isUnsigned, like)
                       : fillZeros(rewriter, loc, like);
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
// Library kernels
//===----------------------------------------------------------------------===//

/// A kernel op (ts-library-kernels) on builtin tensors, its result written
/// into a new tensor.empty (destination style).
template <typename OpTy>
class KernelLowering : public OpConversionPattern<OpTy> {
public:
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getResult() || op.getInit())
      return rewriter.notifyMatchFailure(op, "already in destination style");
    RankedTensorType type = getResultType(this->getTypeConverter(), op);
    if (!type)
      return rewriter.notifyMatchFailure(op, "result type does not convert");
    Value init = createEmpty(rewriter, op.getLoc(), type);
    auto lowered = llvm::cast<OpTy>(rewriter.clone(*op));
    lowered->setOperands(adaptor.getOperands());
    lowered.getInitMutable().assign(init);
    lowered->getResult(0).setType(type);
    rewriter.replaceOp(op, lowered->getResults());
    return success();
  }
};

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
  patterns.add<BatchNormLowering, EmbeddingLowering, LinearLowering>(converter,
                                                                      ctx);
  patterns
      .add<KernelLowering<kernel::Conv2dOp>, KernelLowering<kernel::MatmulOp>>(
          converter, ctx);
}
