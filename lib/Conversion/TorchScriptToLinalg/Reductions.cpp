//===- Reductions.cpp - Reductions, softmax, log_softmax, layer_norm ------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every reduction is a linalg.generic whose reduced dimensions are
// `reduction` iterators, accumulating into a tensor filled with the
// reduction's neutral element. Ops that PyTorch computes in several passes
// (softmax, log_softmax, logsumexp, var, std, layer_norm, group_norm) are
// written as several simple generics that only materialise tensors of the
// reduced shape: the full-size values (`exp(x - max)`, `(x - mean)^2`) are
// recomputed in the body of each generic that needs them, so that the
// group the pass puts such an op in fuses into one loop nest per reduction.
//
// Accumulation types follow PyTorch's CPU kernels: f16 and bf16 accumulate in
// f32, f32 sums over more than `kWideSumThreshold` elements in f64 (PyTorch
// sums pairwise, which a sequential f32 loop does not match at that size),
// integer and bool sums and products in i64. cumsum and cumprod, scans, are
// a loop over the scanned dim carrying one accumulator per row.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "Utils.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::lowering;

/// Above this many reduced elements, f32 sums accumulate in f64.
static constexpr int64_t kWideSumThreshold = 4096;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//


static bool isBool(Type t) { return t.isInteger(1); }

/// The type arithmetic on `element` runs in: f32 for f16 and bf16.
static Type getComputeType(Type element) {
  if (element.isF16() || element.isBF16())
    return Float32Type::get(element.getContext());
  return element;
}

/// The type a sum of `count` elements of type `element` accumulates in (a
/// dynamic count may be large).
static Type getSumAccType(Type element, int64_t count) {
  MLIRContext *ctx = element.getContext();
  if (auto i = llvm::dyn_cast<IntegerType>(element))
    return i.getWidth() == 1 ? IntegerType::get(ctx, 64) : element;
  Type compute = getComputeType(element);
  if (compute.isF32() &&
      (count > kWideSumThreshold || ShapedType::isDynamic(count)))
    return Float64Type::get(ctx);
  return compute;
}

static Value add(OpBuilder &b, Location loc, Value x, Value y) {
  if (isFloat(x.getType()))
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}

static Value sub(OpBuilder &b, Location loc, Value x, Value y) {
  if (isFloat(x.getType()))
    return arith::SubFOp::create(b, loc, x, y);
  return arith::SubIOp::create(b, loc, x, y);
}

static Value mul(OpBuilder &b, Location loc, Value x, Value y) {
  if (isFloat(x.getType()))
    return arith::MulFOp::create(b, loc, x, y);
  return arith::MulIOp::create(b, loc, x, y);
}

static Value div(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::DivFOp::create(b, loc, x, y);
}

static Value cst(OpBuilder &b, Location loc, Type type, double value) {
  return createScalarConstant(b, loc, type, value);
}

/// The largest (`max`) or smallest value of `type`: infinities for floats,
/// the integer bounds (unsigned for `isUnsigned` and bools) otherwise.
static Value extremeValue(OpBuilder &b, Location loc, Type type, bool max,
                          bool isUnsigned) {
  if (isFloat(type))
    return cst(b, loc, type,
               max ? std::numeric_limits<double>::infinity()
                   : -std::numeric_limits<double>::infinity());
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value;
  if (isUnsigned || width == 1)
    value = max ? APInt::getMaxValue(width) : APInt::getMinValue(width);
  else
    value =
        max ? APInt::getSignedMaxValue(width) : APInt::getSignedMinValue(width);
  return arith::ConstantOp::create(b, loc, IntegerAttr::get(type, value));
}

/// `max(x, y)` (`isMax`) or `min(x, y)`; floats propagate NaN as PyTorch.
static Value maxOrMin(OpBuilder &b, Location loc, Value x, Value y, bool isMax,
                      bool isUnsigned) {
  Type t = x.getType();
  if (isFloat(t))
    return isMax ? arith::MaximumFOp::create(b, loc, x, y).getResult()
                 : arith::MinimumFOp::create(b, loc, x, y).getResult();
  if (isBool(t))
    return isMax ? arith::OrIOp::create(b, loc, x, y).getResult()
                 : arith::AndIOp::create(b, loc, x, y).getResult();
  if (isUnsigned)
    return isMax ? arith::MaxUIOp::create(b, loc, x, y).getResult()
                 : arith::MinUIOp::create(b, loc, x, y).getResult();
  return isMax ? arith::MaxSIOp::create(b, loc, x, y).getResult()
               : arith::MinSIOp::create(b, loc, x, y).getResult();
}

/// The dims of an `int[1]? dim` operand, sorted: None or an empty list
/// reduce every dim. std::nullopt when the list is not constant, a dim is
/// out of range or repeated.
static std::optional<SmallVector<int64_t>> getReductionDims(Value dimOperand,
                                                            int64_t rank) {
  SmallVector<int64_t> dims;
  std::optional<SmallVector<int64_t>> list;
  if (!isConstNone(dimOperand)) {
    list = getConstIntList(dimOperand);
    if (!list)
      return std::nullopt;
  }
  if (!list || list->empty()) {
    for (int64_t d = 0; d < rank; ++d)
      dims.push_back(d);
    return dims;
  }
  for (int64_t d : *list) {
    std::optional<int64_t> w = wrapDim(d, rank);
    if (!w)
      return std::nullopt;
    if (*w >= rank) // dim 0 or -1 of a 0-d tensor: nothing to reduce
      continue;
    if (llvm::is_contained(dims, *w))
      return std::nullopt;
    dims.push_back(*w);
  }
  llvm::sort(dims);
  return dims;
}

/// The number of elements a reduction over `dims` of `shape` combines
/// (dynamic when one of the dims is).
static int64_t getReducedCount(ArrayRef<int64_t> shape,
                               ArrayRef<int64_t> dims) {
  int64_t count = 1;
  for (int64_t d : dims) {
    if (ShapedType::isDynamic(shape[d]))
      return ShapedType::kDynamic;
    count *= shape[d];
  }
  return count;
}

/// The number of elements a reduction over `dims` of `input` combines, as a
/// scalar of the float type `type`: a constant, or the product of the sizes
/// read at run time.
static Value getReducedCountValue(OpBuilder &b, Location loc, Value input,
                                  ArrayRef<int64_t> dims, Type type) {
  auto inputType = llvm::cast<RankedTensorType>(input.getType());
  int64_t count = getReducedCount(inputType.getShape(), dims);
  if (!ShapedType::isDynamic(count))
    return createScalarConstant(b, loc, type, count);
  Value product = indexConstant(b, loc, 1);
  for (int64_t d : dims)
    product = arith::MulIOp::create(
        b, loc, product,
        getValueOrCreateConstantIndexOp(b, loc, getDimSize(b, loc, input, d)));
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), product);
  return arith::SIToFPOp::create(b, loc, type, asInt);
}

/// `shape` without `dims`.
static SmallVector<int64_t> dropDims(ArrayRef<int64_t> shape,
                                     ArrayRef<int64_t> dims) {
  SmallVector<int64_t> result;
  for (auto [d, size] : llvm::enumerate(shape))
    if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
      result.push_back(size);
  return result;
}

/// The map from a loop nest of `rank` dims to a tensor without `dims`.
static AffineMap getDroppedDimsMap(MLIRContext *ctx, int64_t rank,
                                   ArrayRef<int64_t> dims) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims, d))
      exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(rank, 0, exprs, ctx);
}

/// Builds the body of a generic: given the elements of the inputs and the
/// accumulator (the output's element), returns the new output element.
using GenericBody =
    function_ref<Value(OpBuilder &, Location, ValueRange elements, Value acc)>;

/// One linalg.generic over a loop nest of shape `loopShape` whose `dims` are
/// reductions. Each input is read with the identity map when it has the
/// loop nest's rank, else as a tensor without `dims` (a reduced value read
/// back); `init` (of `loopShape` without `dims`) is the output.
static Value buildGeneric(OpBuilder &b, Location loc,
                          ArrayRef<int64_t> loopShape, ArrayRef<int64_t> dims,
                          ValueRange inputs, Value init, GenericBody body) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = loopShape.size();
  AffineMap reducedMap = getDroppedDimsMap(ctx, rank, dims);
  SmallVector<AffineMap> maps;
  for (Value input : inputs) {
    int64_t inputRank = llvm::cast<RankedTensorType>(input.getType()).getRank();
    maps.push_back(inputRank == rank ? b.getMultiDimIdentityMap(rank)
                                     : reducedMap);
  }
  maps.push_back(reducedMap);
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d)
    iterators.push_back(llvm::is_contained(dims, d)
                            ? utils::IteratorType::reduction
                            : utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = body(nested, nestedLoc, args.drop_back(), args.back());
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}

/// Reduces over `dims` of `loopShape`: the result (of type `accType`, shape
/// `loopShape` without `dims`) starts at `init` and is updated by `body`.
/// Its dynamic sizes are read from an input of the loop nest's rank.
static Value reduce(OpBuilder &b, Location loc, ArrayRef<int64_t> loopShape,
                    ArrayRef<int64_t> dims, ValueRange inputs, Type accType,
                    Value init, GenericBody body) {
  auto type = RankedTensorType::get(dropDims(loopShape, dims), accType);
  SmallVector<Value> sizes;
  int64_t rank = loopShape.size();
  for (int64_t d = 0; d < rank; ++d) {
    if (llvm::is_contained(dims, d) || !ShapedType::isDynamic(loopShape[d]))
      continue;
    auto full = llvm::find_if(inputs, [&](Value input) {
      return llvm::cast<RankedTensorType>(input.getType()).getRank() == rank;
    });
    if (full == inputs.end())
      return Value();
    sizes.push_back(tensor::DimOp::create(b, loc, *full, d));
  }
  Value empty = tensor::EmptyOp::create(b, loc, type, sizes);
  Value filled =
      linalg::FillOp::create(b, loc, castScalar(b, loc, init, accType), empty)
          .getResult(0);
  return buildGeneric(b, loc, loopShape, dims, inputs, filled, body);
}

/// An elementwise generic over `shape`; inputs of a smaller rank are read as
/// tensors of `shape` without `droppedDims`.
static Value map(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                 Type elementType, ArrayRef<int64_t> droppedDims,
                 ValueRange inputs, ElementwiseBody body) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = shape.size();
  SmallVector<AffineMap> maps;
  for (Value input : inputs) {
    int64_t inputRank = llvm::cast<RankedTensorType>(input.getType()).getRank();
    maps.push_back(inputRank == rank
                       ? b.getMultiDimIdentityMap(rank)
                       : getDroppedDimsMap(ctx, rank, droppedDims));
  }
  auto type = RankedTensorType::get(shape, elementType);
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  // Dynamic sizes come from the inputs read with the identity map.
  SmallVector<Value> sources;
  for (Value input : inputs)
    if (llvm::cast<RankedTensorType>(input.getType()).getRank() == rank)
      sources.push_back(input);
  Value init = createEmpty(b, loc, type, sources);
  if (!init)
    return Value();
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc,
                                body(nested, nestedLoc, args.drop_back()));
      });
  return generic.getResult(0);
}

//===----------------------------------------------------------------------===//
// Plain reductions
//===----------------------------------------------------------------------===//

namespace {

enum class ReduceKind { Sum, Mean, Prod, Max, Min, All, Any };

/// sum, mean, prod, amax, amin, max, min, all, any: one generic, then a cast
/// (or the division of mean) on the reduced shape.
class ReduceLowering : public NamedOpLowering {
public:
  /// `dimOperand` < 0: every dim.
  ReduceLowering(const TypeConverter &converter, MLIRContext *ctx,
                 StringRef name, ReduceKind kind, int dimOperand)
      : NamedOpLowering(converter, ctx, name), kind(kind),
        dimOperand(dimOperand) {
    addDebugLabels(kDynamicSizesLabel);
  }

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto inputType = llvm::dyn_cast<RankedTensorType>(operands[0].getType());
    if (!resultType || !inputType)
      return rewriter.notifyMatchFailure(op, "expected static tensors");
    int64_t rank = inputType.getRank();
    SmallVector<int64_t> dims;
    if (dimOperand >= 0) {
      std::optional<SmallVector<int64_t>> d =
          getReductionDims(op->getOperand(dimOperand), rank);
      if (!d)
        return rewriter.notifyMatchFailure(
            op, "dims are not distinct constants in range");
      dims = std::move(*d);
    } else {
      for (int64_t d = 0; d < rank; ++d)
        dims.push_back(d);
    }
    Location loc = op->getLoc();
    Type resultElement = resultType.getElementType();
    Type inputElement = inputType.getElementType();
    bool isUnsigned = isUnsignedDtype(getTSDtype(op->getOperand(0)));
    ArrayRef<int64_t> shape = inputType.getShape();
    int64_t count = getReducedCount(shape, dims);

    Type accType;
    Value init;
    std::function<Value(OpBuilder &, Location, Value, Value)> combine;
    switch (kind) {
    case ReduceKind::Mean:
      if (!isFloat(resultElement))
        return rewriter.notifyMatchFailure(
            op, "mean of an integer tensor (PyTorch requires a float dtype)");
      [[fallthrough]];
    case ReduceKind::Sum:
      accType = getSumAccType(resultElement, count);
      init = cst(rewriter, loc, accType, 0);
      combine = [](OpBuilder &b, Location l, Value x, Value acc) {
        return add(b, l, x, acc);
      };
      break;
    case ReduceKind::Prod:
      accType = getSumAccType(resultElement, /*count=*/0);
      init = cst(rewriter, loc, accType, 1);
      combine = [](OpBuilder &b, Location l, Value x, Value acc) {
        return mul(b, l, x, acc);
      };
      break;
    case ReduceKind::Max:
    case ReduceKind::Min: {
      bool isMax = kind == ReduceKind::Max;
      if (resultElement != inputElement)
        return rewriter.notifyMatchFailure(op, "result dtype differs from "
                                               "the input's");
      if (count == 0)
        return rewriter.notifyMatchFailure(
            op, "max or min of an empty tensor has no identity");
      accType = inputElement;
      init = extremeValue(rewriter, loc, accType, !isMax, isUnsigned);
      combine = [isMax, isUnsigned](OpBuilder &b, Location l, Value x,
                                    Value acc) {
        return maxOrMin(b, l, x, acc, isMax, isUnsigned);
      };
      break;
    }
    case ReduceKind::All:
    case ReduceKind::Any: {
      bool isAll = kind == ReduceKind::All;
      accType = rewriter.getI1Type();
      init = cst(rewriter, loc, accType, isAll ? 1 : 0);
      combine = [isAll](OpBuilder &b, Location l, Value x, Value acc) {
        return isAll ? arith::AndIOp::create(b, l, x, acc).getResult()
                     : arith::OrIOp::create(b, l, x, acc).getResult();
      };
      break;
    }
    }

    Value result =
        reduce(rewriter, loc, shape, dims, operands[0], accType, init,
               [&](OpBuilder &b, Location l, ValueRange elements, Value acc) {
                 Value x = castScalar(b, l, elements[0], accType, isUnsigned);
                 return combine(b, l, x, acc);
               });
    SmallVector<int64_t> reducedShape = dropDims(shape, dims);
    if (result && kind == ReduceKind::Mean) {
      Value n = getReducedCountValue(rewriter, loc, operands[0], dims, accType);
      result =
          map(rewriter, loc, reducedShape, resultElement, {}, result,
              [&](OpBuilder &b, Location l, ValueRange args) {
                return castScalar(b, l, div(b, l, args[0], n), resultElement);
              });
    } else if (result) {
      result = castElementType(rewriter, loc, result, resultElement);
    }
    // The result type says whether the reduced dims are kept.
    if (result)
      result = reshapeTo(rewriter, loc, result, resultType.getShape());
    if (!result)
      return rewriter.notifyMatchFailure(op, "dynamic sizes it cannot read");
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  ReduceKind kind;
  int dimOperand;
};

/// max.dim, min.dim (values and indices), argmax, argmin: one generic with
/// two outputs, the value so far and its index. The loop runs in order and
/// an element replaces the accumulator only when it is strictly greater (or
/// the first NaN), so the index is the first one of the extremum, as in
/// PyTorch.
class ArgReduceLowering : public NamedOpLowering {
public:
  ArgReduceLowering(const TypeConverter &converter, MLIRContext *ctx,
                    StringRef name, bool isMax, bool withValues)
      : NamedOpLowering(converter, ctx, name), isMax(isMax),
        withValues(withValues) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto inputType = llvm::dyn_cast<RankedTensorType>(operands[0].getType());
    SmallVector<RankedTensorType> resultTypes;
    for (unsigned i = 0; i < op->getNumResults(); ++i)
      resultTypes.push_back(getResultType(getTypeConverter(), op, i));
    if (!inputType || llvm::is_contained(resultTypes, RankedTensorType()))
      return rewriter.notifyMatchFailure(op, "expected static tensors");
    Location loc = op->getLoc();
    Value input = operands[0];
    int64_t dim = 0;
    if (isConstNone(op->getOperand(1))) {
      // argmax over the flattened tensor.
      input = reshapeTo(rewriter, loc, input, {inputType.getNumElements()});
    } else {
      std::optional<int64_t> d = getConstInt(op->getOperand(1));
      if (!d)
        return rewriter.notifyMatchFailure(op, "dim is not a constant");
      std::optional<int64_t> w = wrapDim(*d, inputType.getRank());
      if (!w)
        return rewriter.notifyMatchFailure(op, "dim out of range");
      dim = *w;
      if (inputType.getRank() == 0)
        input = reshapeTo(rewriter, loc, input, {1});
    }
    auto type = llvm::cast<RankedTensorType>(input.getType());
    if (type.getDimSize(dim) == 0)
      return rewriter.notifyMatchFailure(op, "reduction over an empty dim");
    Type element = type.getElementType();
    Type indexType = rewriter.getI64Type();
    bool isUnsigned = isUnsignedDtype(getTSDtype(op->getOperand(0)));

    SmallVector<int64_t> reducedShape = dropDims(type.getShape(), dim);
    Value valueInit = createFilled(
        rewriter, loc, RankedTensorType::get(reducedShape, element),
        extremeValue(rewriter, loc, element, !isMax, isUnsigned));
    Value indexInit = createFilled(
        rewriter, loc, RankedTensorType::get(reducedShape, indexType),
        cst(rewriter, loc, indexType, 0));

    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = type.getRank();
    AffineMap outMap = getDroppedDimsMap(ctx, rank, dim);
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank),
                                   outMap, outMap};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators[dim] = utils::IteratorType::reduction;
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valueInit.getType(), indexInit.getType()},
        input, ValueRange{valueInit, indexInit}, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = args[0], acc = args[1], accIndex = args[2];
          Value index =
              castScalar(b, l, linalg::IndexOp::create(b, l, dim), indexType);
          Value take;
          if (isFloat(element)) {
            take = arith::CmpFOp::create(b, l,
                                         isMax ? arith::CmpFPredicate::OGT
                                               : arith::CmpFPredicate::OLT,
                                         x, acc);
            Value xNaN =
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, x, x);
            Value accOrdered = arith::CmpFOp::create(
                b, l, arith::CmpFPredicate::ORD, acc, acc);
            Value firstNaN = arith::AndIOp::create(b, l, xNaN, accOrdered);
            take = arith::OrIOp::create(b, l, take, firstNaN);
          } else {
            bool u = isUnsigned || isBool(element);
            arith::CmpIPredicate p = isMax ? (u ? arith::CmpIPredicate::ugt
                                                : arith::CmpIPredicate::sgt)
                                           : (u ? arith::CmpIPredicate::ult
                                                : arith::CmpIPredicate::slt);
            take = arith::CmpIOp::create(b, l, p, x, acc);
          }
          Value newValue = arith::SelectOp::create(b, l, take, x, acc);
          Value newIndex = arith::SelectOp::create(b, l, take, index, accIndex);
          linalg::YieldOp::create(b, l, ValueRange{newValue, newIndex});
        });

    SmallVector<Value> results;
    unsigned resultIndex = 0;
    if (withValues) {
      Value values = castElementType(rewriter, loc, generic.getResult(0),
                                     resultTypes[0].getElementType());
      results.push_back(
          reshapeTo(rewriter, loc, values, resultTypes[0].getShape()));
      ++resultIndex;
    }
    Value indices = castElementType(rewriter, loc, generic.getResult(1),
                                    resultTypes[resultIndex].getElementType());
    results.push_back(
        reshapeTo(rewriter, loc, indices, resultTypes[resultIndex].getShape()));
    rewriter.replaceOp(op, results);
    return success();
  }

private:
  bool isMax;
  bool withValues;
};

//===----------------------------------------------------------------------===//
// Statistics
//===----------------------------------------------------------------------===//

/// The sum of `input` over `dims` and the sum of its squared deviations from
/// the mean, both of type `accType`: two generics, the second recomputing
/// `x - mean` from the first's result.
static std::pair<Value, Value> buildMoments(OpBuilder &b, Location loc,
                                            Value input, ArrayRef<int64_t> dims,
                                            Type accType, bool isUnsigned) {
  ArrayRef<int64_t> shape =
      llvm::cast<RankedTensorType>(input.getType()).getShape();
  int64_t count = getReducedCount(shape, dims);
  Value zero = cst(b, loc, accType, 0);
  Value n = cst(b, loc, accType, count);
  Value sum = reduce(b, loc, shape, dims, input, accType, zero,
                     [&](OpBuilder &nb, Location l, ValueRange e, Value acc) {
                       Value x = castScalar(nb, l, e[0], accType, isUnsigned);
                       return add(nb, l, x, acc);
                     });
  Value squares =
      reduce(b, loc, shape, dims, ValueRange{input, sum}, accType, zero,
             [&](OpBuilder &nb, Location l, ValueRange e, Value acc) {
               Value x = castScalar(nb, l, e[0], accType, isUnsigned);
               Value mean = div(nb, l, e[1], n);
               Value d = sub(nb, l, x, mean);
               return add(nb, l, mul(nb, l, d, d), acc);
             });
  return {sum, squares};
}

/// var, std and their .dim and .correction overloads.
class VarianceLowering : public NamedOpLowering {
public:
  enum class Form { Unbiased, DimUnbiased, Correction };

  VarianceLowering(const TypeConverter &converter, MLIRContext *ctx,
                   StringRef name, Form form, bool isStd)
      : NamedOpLowering(converter, ctx, name), form(form), isStd(isStd) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto inputType = llvm::dyn_cast<RankedTensorType>(operands[0].getType());
    if (!resultType || !inputType)
      return rewriter.notifyMatchFailure(op, "expected static tensors");
    Type resultElement = resultType.getElementType();
    if (!isFloat(resultElement))
      return rewriter.notifyMatchFailure(op, "expected a float result");
    int64_t rank = inputType.getRank();

    SmallVector<int64_t> dims;
    double correction = 1;
    if (form == Form::Unbiased) {
      for (int64_t d = 0; d < rank; ++d)
        dims.push_back(d);
    } else {
      std::optional<SmallVector<int64_t>> d =
          getReductionDims(op->getOperand(1), rank);
      if (!d)
        return rewriter.notifyMatchFailure(
            op, "dims are not distinct constants in range");
      dims = std::move(*d);
    }
    if (form == Form::Correction) {
      if (!isConstNone(op->getOperand(2))) {
        std::optional<double> c = getConstNumber(op->getOperand(2));
        if (!c)
          return rewriter.notifyMatchFailure(op,
                                             "correction is not a constant");
        correction = *c;
      }
    } else {
      std::optional<bool> unbiased =
          getConstBool(op->getOperand(form == Form::Unbiased ? 1 : 2));
      if (!unbiased)
        return rewriter.notifyMatchFailure(op, "unbiased is not a constant");
      correction = *unbiased ? 1 : 0;
    }

    Location loc = op->getLoc();
    ArrayRef<int64_t> shape = inputType.getShape();
    int64_t count = getReducedCount(shape, dims);
    Type accType = getSumAccType(resultElement, count);
    bool isUnsigned = isUnsignedDtype(getTSDtype(op->getOperand(0)));
    Value squares =
        buildMoments(rewriter, loc, operands[0], dims, accType, isUnsigned)
            .second;
    Value divisor = cst(rewriter, loc, accType,
                        std::max(0.0, static_cast<double>(count) - correction));
    Value result = map(rewriter, loc, dropDims(shape, dims), resultElement, {},
                       squares, [&](OpBuilder &b, Location l, ValueRange args) {
                         Value v = div(b, l, args[0], divisor);
                         if (isStd)
                           v = math::SqrtOp::create(b, l, v);
                         return castScalar(b, l, v, resultElement);
                       });
    rewriter.replaceOp(op,
                       reshapeTo(rewriter, loc, result, resultType.getShape()));
    return success();
  }

private:
  Form form;
  bool isStd;
};

//===----------------------------------------------------------------------===//
// softmax, log_softmax, logsumexp
//===----------------------------------------------------------------------===//

/// The maximum of `input` over `dims` in `computeType`: NaN propagates, or
/// with `skipNaN` is skipped (maxnum, which x86 computes in fewer
/// instructions; a row of NaN gives -inf).
static Value buildMax(OpBuilder &b, Location loc, Value input,
                      ArrayRef<int64_t> dims, Type computeType, bool isUnsigned,
                      bool skipNaN = false) {
  ArrayRef<int64_t> shape =
      llvm::cast<RankedTensorType>(input.getType()).getShape();
  Value init = extremeValue(b, loc, computeType, /*max=*/false, false);
  return reduce(b, loc, shape, dims, input, computeType, init,
                [&](OpBuilder &nb, Location l, ValueRange e, Value acc) {
                  Value x = castScalar(nb, l, e[0], computeType, isUnsigned);
                  if (skipNaN)
                    return arith::MaxNumFOp::create(nb, l, x, acc).getResult();
                  return arith::MaximumFOp::create(nb, l, x, acc).getResult();
                });
}

/// `exp(x - max)` summed over `dims` in `accType`; `max` is read back from
/// the reduced tensor `max`.
static Value buildSumExp(OpBuilder &b, Location loc, Value input, Value max,
                         ArrayRef<int64_t> dims, Type computeType, Type accType,
                         bool isUnsigned) {
  ArrayRef<int64_t> shape =
      llvm::cast<RankedTensorType>(input.getType()).getShape();
  return reduce(b, loc, shape, dims, ValueRange{input, max}, accType,
                cst(b, loc, accType, 0),
                [&](OpBuilder &nb, Location l, ValueRange e, Value acc) {
                  Value x = castScalar(nb, l, e[0], computeType, isUnsigned);
                  Value ex = math::ExpOp::create(nb, l, sub(nb, l, x, e[1]));
                  return add(nb, l, castScalar(nb, l, ex, accType), acc);
                });
}

/// fn(x - max, sum(exp(x - max))) elementwise over `input`'s shape (x read
/// in `computeType`, the sum over `dims` given in it), cast to
/// `resultElement`.
static Value
mapWithSumExp(OpBuilder &b, Location loc, Value input, Value max,
              ArrayRef<int64_t> dims, Type computeType, Type accType,
              Type resultElement, bool isUnsigned,
              function_ref<Value(OpBuilder &, Location, Value, Value)> fn) {
  ArrayRef<int64_t> shape =
      llvm::cast<RankedTensorType>(input.getType()).getShape();
  Value sum =
      buildSumExp(b, loc, input, max, dims, computeType, accType, isUnsigned);
  if (!sum)
    return Value();
  return map(b, loc, shape, resultElement, dims, ValueRange{input, max, sum},
             [&](OpBuilder &nb, Location l, ValueRange e) {
               Value x = castScalar(nb, l, e[0], computeType, isUnsigned);
               Value r = fn(nb, l, sub(nb, l, x, e[1]),
                            castScalar(nb, l, e[2], computeType));
               return castScalar(nb, l, r, resultElement);
             });
}

/// x - max - log(sum(exp(x - max))) over `dims`: exp once per element, in
/// the row sum.
static Value buildLogSoftmax(OpBuilder &b, Location loc, Value input, Value max,
                             ArrayRef<int64_t> dims, Type computeType,
                             Type accType, Type resultElement,
                             bool isUnsigned) {
  return mapWithSumExp(
      b, loc, input, max, dims, computeType, accType, resultElement, isUnsigned,
      [](OpBuilder &nb, Location l, Value shifted, Value sum) {
        return sub(nb, l, shifted, math::LogOp::create(nb, l, sum));
      });
}

/// exp(x - max) times 1 / sum(exp(x - max)) over `dims`, as PyTorch's kernel
/// does (a multiply per element instead of a division). With
/// `keepExponentials` the exponentials are computed once, kept in
/// `computeType` (a row of them, once the group's row loop tiles this),
/// summed, then scaled; without, exp(x - max) is computed again for the
/// result and no tensor of them is made.
static Value buildSoftmax(OpBuilder &b, Location loc, Value input, Value max,
                          ArrayRef<int64_t> dims, Type computeType,
                          Type accType, Type resultElement, bool isUnsigned,
                          bool keepExponentials) {
  ArrayRef<int64_t> shape =
      llvm::cast<RankedTensorType>(input.getType()).getShape();
  // e times 1/sum (both in computeType).
  auto scale = [&](OpBuilder &nb, Location l, Value e, Value sum) -> Value {
    Value one = createScalarConstant(nb, l, computeType, 1);
    return arith::MulFOp::create(nb, l, e, div(nb, l, one, sum));
  };
  if (!keepExponentials)
    return mapWithSumExp(
        b, loc, input, max, dims, computeType, accType, resultElement,
        isUnsigned, [&](OpBuilder &nb, Location l, Value shifted, Value sum) {
          return scale(nb, l, math::ExpOp::create(nb, l, shifted), sum);
        });
  Value exps =
      map(b, loc, shape, computeType, dims, ValueRange{input, max},
          [&](OpBuilder &nb, Location l, ValueRange e) {
            Value x = castScalar(nb, l, e[0], computeType, isUnsigned);
            return math::ExpOp::create(nb, l, sub(nb, l, x, e[1])).getResult();
          });
  if (!exps)
    return Value();
  Value sum =
      reduce(b, loc, shape, dims, exps, accType, cst(b, loc, accType, 0),
             [&](OpBuilder &nb, Location l, ValueRange e, Value acc) {
               return add(nb, l, castScalar(nb, l, e[0], accType), acc);
             });
  if (!sum)
    return Value();
  return map(b, loc, shape, resultElement, dims, ValueRange{exps, sum},
             [&](OpBuilder &nb, Location l, ValueRange e) {
               Value r =
                   scale(nb, l, e[0], castScalar(nb, l, e[1], computeType));
               return castScalar(nb, l, r, resultElement);
             });
}

/// softmax.int, log_softmax.int, _softmax, _log_softmax: the max over the
/// dim, the sum of exp(x - max), then exp(x - max) / sum or
/// x - max - log(sum) elementwise. softmax over the last dim keeps its
/// exponentials when `rowTemporaries` (the row loop then holds a row of them
/// in cache); over another dim there is no row loop, and a full tensor of
/// them would cost more memory traffic than the exps it saves.
class SoftmaxLowering : public NamedOpLowering {
public:
  SoftmaxLowering(const TypeConverter &converter, MLIRContext *ctx,
                  StringRef name, bool isLog, bool rowTemporaries)
      : NamedOpLowering(converter, ctx, name), isLog(isLog),
        rowTemporaries(rowTemporaries) {
    addDebugLabels(kDynamicSizesLabel);
  }

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto inputType = llvm::dyn_cast<RankedTensorType>(operands[0].getType());
    if (!resultType || !inputType)
      return rewriter.notifyMatchFailure(op, "expected static tensors");
    Type resultElement = resultType.getElementType();
    if (!isFloat(resultElement))
      return rewriter.notifyMatchFailure(op, "expected a float result");
    std::optional<int64_t> d = getConstInt(op->getOperand(1));
    if (!d)
      return rewriter.notifyMatchFailure(op, "dim is not a constant");
    int64_t rank = inputType.getRank();
    std::optional<int64_t> dim = wrapDim(*d, rank);
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim out of range");

    Location loc = op->getLoc();
    Value input = operands[0];
    if (rank == 0)
      input = reshapeTo(rewriter, loc, input, {1});
    ArrayRef<int64_t> shape =
        llvm::cast<RankedTensorType>(input.getType()).getShape();
    SmallVector<int64_t> dims = {*dim};
    Type computeType = getComputeType(resultElement);
    Type accType = getSumAccType(resultElement, shape[*dim]);
    bool isUnsigned = isUnsignedDtype(getTSDtype(op->getOperand(0)));

    // The max only shifts the exponents: a NaN in the row reaches every
    // output through the row's sum all the same (PyTorch's outputs are NaN
    // there too), so it may skip NaN.
    Value max = buildMax(rewriter, loc, input, dims, computeType, isUnsigned,
                         /*skipNaN=*/true);
    Value result =
        isLog
            ? buildLogSoftmax(rewriter, loc, input, max, dims, computeType,
                              accType, resultElement, isUnsigned)
            : buildSoftmax(rewriter, loc, input, max, dims, computeType,
                           accType, resultElement, isUnsigned,
                           rowTemporaries &&
                               *dim == static_cast<int64_t>(shape.size()) - 1);
    if (result)
      result = reshapeTo(rewriter, loc, result, resultType.getShape());
    if (!result)
      return rewriter.notifyMatchFailure(op, "dynamic sizes it cannot read");
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  bool isLog;
  bool rowTemporaries;
};

/// logsumexp: log(sum(exp(x - m))) + m, with m the max over the dims (0
/// where the max is infinite, so that rows of -inf give -inf, not NaN).
class LogsumexpLowering : public OpConversionPattern<ts::AtenLogsumexpOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenLogsumexpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto inputType =
        llvm::dyn_cast<RankedTensorType>(adaptor.getSelf().getType());
    if (!resultType || !inputType)
      return rewriter.notifyMatchFailure(op, "expected static tensors");
    Type resultElement = resultType.getElementType();
    if (!isFloat(resultElement))
      return rewriter.notifyMatchFailure(op, "expected a float result");
    int64_t rank = inputType.getRank();
    std::optional<SmallVector<int64_t>> dims =
        getReductionDims(op->getOperand(1), rank);
    if (!dims)
      return rewriter.notifyMatchFailure(
          op, "dims are not distinct constants in range");

    Location loc = op->getLoc();
    ArrayRef<int64_t> shape = inputType.getShape();
    Type computeType = getComputeType(resultElement);
    Type accType = getSumAccType(resultElement, getReducedCount(shape, *dims));
    bool isUnsigned = isUnsignedDtype(getTSDtype(op->getOperand(0)));
    SmallVector<int64_t> reducedShape = dropDims(shape, *dims);

    Value max = buildMax(rewriter, loc, adaptor.getSelf(), *dims, computeType,
                         isUnsigned);
    // The shift: the max, or 0 where it is infinite.
    Value inf = cst(rewriter, loc, computeType,
                    std::numeric_limits<double>::infinity());
    Value zero = cst(rewriter, loc, computeType, 0);
    Value shift = map(rewriter, loc, reducedShape, computeType, {}, max,
                      [&](OpBuilder &b, Location l, ValueRange e) -> Value {
                        Value isInf = arith::CmpFOp::create(
                            b, l, arith::CmpFPredicate::OEQ,
                            math::AbsFOp::create(b, l, e[0]), inf);
                        return arith::SelectOp::create(b, l, isInf, zero, e[0]);
                      });
    Value sum = buildSumExp(rewriter, loc, adaptor.getSelf(), shift, *dims,
                            computeType, accType, isUnsigned);
    Value result = map(
        rewriter, loc, reducedShape, resultElement, {}, ValueRange{sum, shift},
        [&](OpBuilder &b, Location l, ValueRange e) {
          Value s = castScalar(b, l, e[0], computeType);
          Value r = add(b, l, math::LogOp::create(b, l, s), e[1]);
          return castScalar(b, l, r, resultElement);
        });
    rewriter.replaceOp(op,
                       reshapeTo(rewriter, loc, result, resultType.getShape()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Normalisation
//===----------------------------------------------------------------------===//

/// How a normalisation rounds: `(x - mean) * rstd * weight + bias`
/// (Centered), or as ATen's layer_norm kernel does, fma(fma(x, rstd, -rstd
/// * mean), weight, bias) with rstd = 1 / sqrt(var + eps) (ScaleShift),
/// which decides the result where the variance is (nearly) zero: x - mean
/// is then all rounding.
enum class NormalizeForm { Centered, ScaleShift };

/// The normalised `input` over its full shape, with mean = sum / count and
/// var = squares / count read from the reduced tensors `sum` and `squares`
/// (`input` without `dims`). `weight` and `bias` (null when absent) are
/// read through `affineMap`.
static Value buildNormalize(OpBuilder &b, Location loc, Value input, Value sum,
                            Value squares, ArrayRef<int64_t> dims,
                            int64_t count, Value eps, Value weight, Value bias,
                            AffineMap affineMap, Type resultElement,
                            bool isUnsigned, NormalizeForm form) {
  MLIRContext *ctx = b.getContext();
  auto inputType = llvm::cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  Type accType = llvm::cast<RankedTensorType>(sum.getType()).getElementType();
  Type computeType = getComputeType(resultElement);
  SmallVector<Value> inputs = {input, sum, squares};
  AffineMap reducedMap = getDroppedDimsMap(ctx, rank, dims);
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank), reducedMap,
                                 reducedMap};
  for (Value v : {weight, bias}) {
    if (!v)
      continue;
    inputs.push_back(v);
    maps.push_back(affineMap);
  }
  auto type = RankedTensorType::get(inputType.getShape(), resultElement);
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value accEps = castScalar(b, loc, eps, accType);
  Value n = cst(b, loc, accType, count);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, inputs, ValueRange{createEmpty(b, loc, type)},
      maps, iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value x = castScalar(nb, l, args[0], accType, isUnsigned);
        Value mean = div(nb, l, args[1], n);
        Value var = div(nb, l, args[2], n);
        unsigned next = 3;
        Value w =
            weight ? castScalar(nb, l, args[next++], computeType) : Value();
        Value c = bias ? castScalar(nb, l, args[next++], computeType) : Value();
        Value y;
        if (form == NormalizeForm::ScaleShift) {
          Value rstd =
              div(nb, l, cst(nb, l, accType, 1),
                  math::SqrtOp::create(nb, l, add(nb, l, var, accEps)));
          Value shift = arith::NegFOp::create(nb, l, mul(nb, l, rstd, mean));
          y = castScalar(nb, l, math::FmaOp::create(nb, l, x, rstd, shift),
                         computeType);
          if (w || c)
            y = math::FmaOp::create(nb, l, y,
                                    w ? w : cst(nb, l, computeType, 1),
                                    c ? c : cst(nb, l, computeType, 0));
        } else {
          Value rstd = math::RsqrtOp::create(nb, l, add(nb, l, var, accEps));
          y = castScalar(nb, l, mul(nb, l, sub(nb, l, x, mean), rstd),
                         computeType);
          if (w)
            y = mul(nb, l, y, w);
          if (c)
            y = add(nb, l, y, c);
        }
        linalg::YieldOp::create(nb, l, castScalar(nb, l, y, resultElement));
      });
  return generic.getResult(0);
}

/// layer_norm and native_layer_norm: mean and biased variance over the
/// trailing `normalized_shape` dims, then one elementwise generic.
/// native_layer_norm also returns the mean and rsqrt(var + eps), with the
/// normalised dims kept as size 1.
class LayerNormLowering : public NamedOpLowering {
public:
  using NamedOpLowering::NamedOpLowering;

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto inputType = llvm::dyn_cast<RankedTensorType>(operands[0].getType());
    if (!resultType || !inputType)
      return rewriter.notifyMatchFailure(op, "expected static tensors");
    Type resultElement = resultType.getElementType();
    if (!isFloat(resultElement))
      return rewriter.notifyMatchFailure(op, "expected a float result");
    std::optional<SmallVector<int64_t>> normalized =
        getConstIntList(op->getOperand(1));
    if (!normalized)
      return rewriter.notifyMatchFailure(
          op, "normalized_shape is not a constant list");
    int64_t rank = inputType.getRank();
    int64_t k = normalized->size();
    ArrayRef<int64_t> shape = inputType.getShape();
    if (k > rank || shape.take_back(k) != ArrayRef<int64_t>(*normalized))
      return rewriter.notifyMatchFailure(
          op, "normalized_shape is not the input's trailing shape");
    FailureOr<Value> weight = getOptionalTensor(rewriter, op, operands, 2);
    FailureOr<Value> bias = getOptionalTensor(rewriter, op, operands, 3);
    if (failed(weight) || failed(bias))
      return rewriter.notifyMatchFailure(op, "weight or bias is not a tensor");
    for (Value v : {*weight, *bias})
      if (v && llvm::cast<RankedTensorType>(v.getType()).getShape() !=
                   ArrayRef<int64_t>(*normalized))
        return rewriter.notifyMatchFailure(
            op, "weight or bias differs from normalized_shape");
    Value eps = operands[4];
    if (!isFloat(eps.getType()))
      return rewriter.notifyMatchFailure(op, "eps is not a float");

    Location loc = op->getLoc();
    SmallVector<int64_t> dims;
    for (int64_t d = rank - k; d < rank; ++d)
      dims.push_back(d);
    int64_t count = getReducedCount(shape, dims);
    Type accType = getSumAccType(resultElement, count);
    bool isUnsigned = isUnsignedDtype(getTSDtype(op->getOperand(0)));
    auto [sum, squares] =
        buildMoments(rewriter, loc, operands[0], dims, accType, isUnsigned);
    AffineMap affineMap =
        getBroadcastMap(rewriter.getContext(), *normalized, shape);
    Value result = buildNormalize(
        rewriter, loc, operands[0], sum, squares, dims, count, eps, *weight,
        *bias, affineMap, resultElement, isUnsigned, NormalizeForm::ScaleShift);
    if (op->getNumResults() == 1) {
      rewriter.replaceOp(op, result);
      return success();
    }

    // native_layer_norm: the mean and the inverse standard deviation too.
    RankedTensorType meanType = getResultType(getTypeConverter(), op, 1);
    RankedTensorType rstdType = getResultType(getTypeConverter(), op, 2);
    if (!meanType || !rstdType)
      return rewriter.notifyMatchFailure(op, "expected static tensors");
    SmallVector<int64_t> reducedShape = dropDims(shape, dims);
    Value n = cst(rewriter, loc, accType, count);
    Value mean = map(rewriter, loc, reducedShape, meanType.getElementType(), {},
                     sum, [&](OpBuilder &b, Location l, ValueRange e) {
                       Value m = div(b, l, e[0], n);
                       return castScalar(b, l, m, meanType.getElementType());
                     });
    Value accEps = castScalar(rewriter, loc, eps, accType);
    Value rstd = map(rewriter, loc, reducedShape, rstdType.getElementType(), {},
                     squares, [&](OpBuilder &b, Location l, ValueRange e) {
                       Value var = div(b, l, e[0], n);
                       Value r = div(
                           b, l, cst(b, l, accType, 1),
                           math::SqrtOp::create(b, l, add(b, l, var, accEps)));
                       return castScalar(b, l, r, rstdType.getElementType());
                     });
    rewriter.replaceOp(
        op, {result, reshapeTo(rewriter, loc, mean, meanType.getShape()),
             reshapeTo(rewriter, loc, rstd, rstdType.getShape())});
    return success();
  }
};

/// group_norm: the input [N, C, *] is viewed as [N, G, C/G, *] and
/// normalised over all dims but the first two; weight and bias [C] are read
/// as [G, C/G] along dims 1 and 2.
class GroupNormLowering : public OpConversionPattern<ts::AtenGroupNormOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenGroupNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto inputType =
        llvm::dyn_cast<RankedTensorType>(adaptor.getInput().getType());
    if (!resultType || !inputType || inputType.getRank() < 2)
      return rewriter.notifyMatchFailure(op,
                                         "expected static tensors of rank 2+");
    Type resultElement = resultType.getElementType();
    if (!isFloat(resultElement))
      return rewriter.notifyMatchFailure(op, "expected a float result");
    std::optional<int64_t> groups = getConstInt(op->getOperand(1));
    int64_t channels = inputType.getDimSize(1);
    if (!groups || *groups <= 0 || channels % *groups != 0)
      return rewriter.notifyMatchFailure(
          op, "num_groups is not a constant dividing the channels");
    SmallVector<Value> operands(adaptor.getOperands());
    FailureOr<Value> weight = getOptionalTensor(rewriter, op, operands, 2);
    FailureOr<Value> bias = getOptionalTensor(rewriter, op, operands, 3);
    if (failed(weight) || failed(bias))
      return rewriter.notifyMatchFailure(op, "weight or bias is not a tensor");
    Value eps = adaptor.getEps();

    Location loc = op->getLoc();
    int64_t g = *groups;
    SmallVector<int64_t> shape = {inputType.getDimSize(0), g, channels / g};
    llvm::append_range(shape, inputType.getShape().drop_front(2));
    Value input = reshapeTo(rewriter, loc, adaptor.getInput(), shape);
    SmallVector<int64_t> dims;
    for (int64_t d = 2; d < static_cast<int64_t>(shape.size()); ++d)
      dims.push_back(d);
    int64_t count = getReducedCount(shape, dims);
    Type accType = getSumAccType(resultElement, count);
    bool isUnsigned = isUnsignedDtype(getTSDtype(op->getOperand(0)));
    auto [sum, squares] =
        buildMoments(rewriter, loc, input, dims, accType, isUnsigned);
    SmallVector<int64_t> affineShape = {g, channels / g};
    for (Value *v : {&*weight, &*bias})
      if (*v)
        *v = reshapeTo(rewriter, loc, *v, affineShape);
    MLIRContext *ctx = rewriter.getContext();
    AffineMap affineMap = AffineMap::get(
        shape.size(), 0, {getAffineDimExpr(1, ctx), getAffineDimExpr(2, ctx)},
        ctx);
    Value result = buildNormalize(
        rewriter, loc, input, sum, squares, dims, count, eps, *weight, *bias,
        affineMap, resultElement, isUnsigned, NormalizeForm::Centered);
    rewriter.replaceOp(op,
                       reshapeTo(rewriter, loc, result, resultType.getShape()));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Pattern Population
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Scans
//===----------------------------------------------------------------------===//

/// cumsum(self, dim, dtype?) and cumprod: element i along dim is the sum
/// (product) of elements 0..i, accumulated in order in the type PyTorch's
/// CPU kernel uses (f64 for f32 and f64, f32 for f16 and bf16, i64 for
/// integers; self is first cast to the result dtype, Long for integers and
/// bools) and rounded to the result type once per element. An scf.for over
/// dim carries the accumulators of every row (self without dim) and the
/// result; each step combines one slice into the accumulators with a
/// generic and inserts them, rounded, into the result: O(n) work.
template <typename OpTy, bool product>
class ScanLowering : public OpConversionPattern<OpTy> {
public:
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(this->getTypeConverter(), op);
    auto inputType = llvm::dyn_cast<RankedTensorType>(adaptor.getSelf().getType());
    std::optional<int64_t> dimArg = getConstInt(op.getDim());
    if (!resultType || !inputType || !dimArg ||
        resultType.getShape() != inputType.getShape())
      return rewriter.notifyMatchFailure(op, "static shapes and a constant "
                                             "dim expected");
    int64_t rank = inputType.getRank();
    std::optional<int64_t> dim = wrapDim(*dimArg, std::max<int64_t>(rank, 1));
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim out of range");
    Location loc = op.getLoc();
    Type element = resultType.getElementType();
    Value input = castElementType(rewriter, loc, adaptor.getSelf(), element,
                                  isUnsignedDtype(getTSDtype(op.getSelf())));
    if (rank == 0 || resultType.getNumElements() == 0) {
      rewriter.replaceOp(op, input);
      return success();
    }
    Type accType = rewriter.getI64Type();
    if (isFloat(element))
      accType = element.isF16() || element.isBF16()
                    ? Type(rewriter.getF32Type())
                    : Type(rewriter.getF64Type());
    else if (element.isInteger(1))
      return rewriter.notifyMatchFailure(op, "a Bool result");
    SmallVector<int64_t> rowShape(resultType.getShape());
    rowShape.erase(rowShape.begin() + *dim);
    auto rowType = RankedTensorType::get(rowShape, element);
    auto accRowType = RankedTensorType::get(rowShape, accType);
    Value init = createFilled(
        rewriter, loc, accRowType,
        createScalarConstant(rewriter, loc, accType, product ? 1 : 0));
    SmallVector<int64_t> sliceSizes(resultType.getShape());
    sliceSizes[*dim] = 1;
    auto scan = scf::ForOp::create(
        rewriter, loc, indexConstant(rewriter, loc, 0),
        indexConstant(rewriter, loc, resultType.getDimSize(*dim)),
        indexConstant(rewriter, loc, 1),
        ValueRange{init, createEmpty(rewriter, loc, resultType)},
        [&](OpBuilder &b, Location l, Value iv, ValueRange carried) {
          SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
          offsets[*dim] = iv;
          SmallVector<OpFoldResult> sizes, strides(rank, b.getIndexAttr(1));
          for (int64_t s : sliceSizes)
            sizes.push_back(b.getIndexAttr(s));
          Value row = tensor::ExtractSliceOp::create(b, l, rowType, input,
                                                     offsets, sizes, strides);
          // In place on the carried accumulators (bufferisation wants each
          // yielded value to be its iteration argument's buffer).
          int64_t rowRank = rowShape.size();
          AffineMap identity = b.getMultiDimIdentityMap(rowRank);
          auto combine = linalg::GenericOp::create(
              b, l, TypeRange{accRowType}, ValueRange{row},
              ValueRange{carried[0]}, ArrayRef<AffineMap>{identity, identity},
              SmallVector<utils::IteratorType>(rowRank,
                                               utils::IteratorType::parallel),
              [&](OpBuilder &nb, Location nl, ValueRange xs) {
                Value x = castScalar(nb, nl, xs[0], accType);
                Value next;
                if (isFloat(accType))
                  next = product
                             ? arith::MulFOp::create(nb, nl, xs[1], x).getResult()
                             : arith::AddFOp::create(nb, nl, xs[1], x).getResult();
                else
                  next = product
                             ? arith::MulIOp::create(nb, nl, xs[1], x).getResult()
                             : arith::AddIOp::create(nb, nl, xs[1], x).getResult();
                linalg::YieldOp::create(nb, nl, next);
              });
          Value acc = combine.getResult(0);
          Value result = tensor::InsertSliceOp::create(
              b, l, castElementType(b, l, acc, element), carried[1], offsets,
              sizes, strides);
          scf::YieldOp::create(b, l, ValueRange{acc, result});
        });
    rewriter.replaceOp(op, scan.getResult(1));
    return success();
  }
};

void lowering::populateReductionPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         bool rowTemporaries) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ScanLowering<ts::AtenCumsumOp, false>,
               ScanLowering<ts::AtenCumprodOp, true>>(converter, ctx);
  using K = ReduceKind;
  struct Reduce {
    StringRef name;
    K kind;
    int dim;
  };
  for (Reduce r :
       {Reduce{ts::AtenAllOp::getOperationName(), K::All, -1},
        Reduce{ts::AtenAmaxOp::getOperationName(), K::Max, 1},
        Reduce{ts::AtenAminOp::getOperationName(), K::Min, 1},
        Reduce{ts::AtenAnyOp::getOperationName(), K::Any, -1},
        Reduce{ts::AtenMaxOp::getOperationName(), K::Max, -1},
        Reduce{ts::AtenMeanOp::getOperationName(), K::Mean, -1},
        Reduce{ts::AtenMeanDimOp::getOperationName(), K::Mean, 1},
        Reduce{ts::AtenMinOp::getOperationName(), K::Min, -1},
        Reduce{ts::AtenProdOp::getOperationName(), K::Prod, -1},
        Reduce{ts::AtenProdDimIntOp::getOperationName(), K::Prod, 1},
        Reduce{ts::AtenAllDimOp::getOperationName(), K::All, 1},
        Reduce{ts::AtenAnyDimOp::getOperationName(), K::Any, 1},
        Reduce{ts::AtenSumOp::getOperationName(), K::Sum, -1},
        Reduce{ts::AtenSumDimIntListOp::getOperationName(), K::Sum, 1}})
    patterns.add<ReduceLowering>(converter, ctx, r.name, r.kind, r.dim);

  patterns.add<ArgReduceLowering>(converter, ctx,
                                  ts::AtenArgmaxOp::getOperationName(),
                                  /*isMax=*/true, /*withValues=*/false);
  patterns.add<ArgReduceLowering>(converter, ctx,
                                  ts::AtenArgminOp::getOperationName(),
                                  /*isMax=*/false, /*withValues=*/false);
  patterns.add<ArgReduceLowering>(converter, ctx,
                                  ts::AtenMaxDimOp::getOperationName(),
                                  /*isMax=*/true, /*withValues=*/true);
  patterns.add<ArgReduceLowering>(converter, ctx,
                                  ts::AtenMinDimOp::getOperationName(),
                                  /*isMax=*/false, /*withValues=*/true);

  using F = VarianceLowering::Form;
  patterns.add<VarianceLowering>(converter, ctx,
                                 ts::AtenStdOp::getOperationName(), F::Unbiased,
                                 /*isStd=*/true);
  patterns.add<VarianceLowering>(converter, ctx,
                                 ts::AtenStdCorrectionOp::getOperationName(),
                                 F::Correction, /*isStd=*/true);
  patterns.add<VarianceLowering>(converter, ctx,
                                 ts::AtenStdDimOp::getOperationName(),
                                 F::DimUnbiased, /*isStd=*/true);
  patterns.add<VarianceLowering>(converter, ctx,
                                 ts::AtenVarOp::getOperationName(), F::Unbiased,
                                 /*isStd=*/false);
  patterns.add<VarianceLowering>(converter, ctx,
                                 ts::AtenVarCorrectionOp::getOperationName(),
                                 F::Correction, /*isStd=*/false);
  patterns.add<VarianceLowering>(converter, ctx,
                                 ts::AtenVarDimOp::getOperationName(),
                                 F::DimUnbiased, /*isStd=*/false);

  patterns.add<SoftmaxLowering>(converter, ctx,
                                ts::Aten_LogSoftmaxOp::getOperationName(),
                                /*isLog=*/true, rowTemporaries);
  patterns.add<SoftmaxLowering>(converter, ctx,
                                ts::Aten_SoftmaxOp::getOperationName(),
                                /*isLog=*/false, rowTemporaries);
  patterns.add<SoftmaxLowering>(converter, ctx,
                                ts::AtenLogSoftmaxIntOp::getOperationName(),
                                /*isLog=*/true, rowTemporaries);
  patterns.add<SoftmaxLowering>(converter, ctx,
                                ts::AtenSoftmaxIntOp::getOperationName(),
                                /*isLog=*/false, rowTemporaries);

  patterns.add<LayerNormLowering>(converter, ctx,
                                  ts::AtenLayerNormOp::getOperationName());
  patterns.add<LayerNormLowering>(
      converter, ctx, ts::AtenNativeLayerNormOp::getOperationName());
  patterns.add<GroupNormLowering, LogsumexpLowering>(converter, ctx);
}
