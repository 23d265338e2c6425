//===- DataMovement.cpp - Views, reshapes, slices, cat, stack -------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Ops that move data without computing on it. Each is lowered to the form
// that later stages see through:
//
//   * reshapes (view, reshape, flatten, unsqueeze, squeeze, view_as, ...)
//     become tensor.expand_shape / tensor.collapse_shape, which bufferise to
//     views of the same buffer (a reshape no single expand or collapse does
//     goes through 1-D);
//   * slices, selects, narrows and the pieces of chunk, split and unbind
//     become tensor.extract_slice (a select is a rank-reducing slice), which
//     bufferises to a strided view;
//   * permutations and broadcasts (permute, transpose, t, expand, expand_as,
//     broadcast_to, repeat) become a copy linalg.generic whose input map does
//     the moving: elementwise fusion folds the copy into the generic that
//     reads it, so in a fusion group they cost no memory traffic;
//   * cat and stack insert their inputs into one tensor.empty with
//     tensor.insert_slice;
//   * index_select, gather and index.Tensor read their source with
//     tensor.extract inside a generic over the result;
//   * sizes (size.int, dim, numel, size) and prim::device, dtype and layout
//     are constants, the shapes being static, and the list ops TorchScript
//     leaves (__getitem__.t, len.t, prim::ListUnpack) are resolved at
//     compile time.
//
// Inside a fusion group, a slice, select, chunk piece, unsqueeze or squeeze
// of a value the group computes is a copy generic instead (its map reads
// `offset + stride * d`, a constant index, or 0 for a size-1 dim): a tensor
// slice or reshape between two generics stops elementwise fusion, the copy
// is folded into the generic reading it. Views of the group's inputs stay
// views, which the fused generic reads.
//
// Shapes always come from the converted result types (the graph is
// specialised); the int operands that say where (dims, starts, indices) are
// read at compile time from the original operands, except for the index of
// select and the start of narrow and slice, which may be run-time ints. A
// slice whose length is a run-time int has a dynamic size
// (DataDependentSizes.h), the one dynamic size the lowering makes.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "Utils.h"

#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/SetVector.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::lowering;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// A copy of `input` into a tensor of `resultType`, reading `input` through
/// `inputMap`: the form of permutations and broadcasts that elementwise
/// fusion folds into the generic reading the result. `init`, when given, is
/// the result's tensor.empty (of dynamic sizes).
static Value buildCopy(OpBuilder &b, Location loc, Value input,
                       AffineMap inputMap, RankedTensorType resultType,
                       Value init = {}) {
  SmallVector<AffineMap> maps = {
      inputMap, b.getMultiDimIdentityMap(resultType.getRank())};
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  if (!init)
    init = createEmpty(b, loc, resultType);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, ValueRange{input}, ValueRange{init}, maps,
      iterators, [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc, args[0]);
      });
  return generic.getResult(0);
}

/// `input` with its element type cast to `elementType` (`unsignedSrc`: the
/// input is unsigned and zero-extends).
static Value castElements(OpBuilder &b, Location loc, Value input,
                          Type elementType, bool unsignedSrc) {
  auto type = llvm::cast<RankedTensorType>(input.getType());
  if (type.getElementType() == elementType)
    return input;
  return buildElementwise(
      b, loc, RankedTensorType::get(type.getShape(), elementType), input,
      [&](OpBuilder &nested, Location l, ValueRange args) {
        return castScalar(nested, l, args[0], elementType, unsignedSrc);
      });
}

/// The offset of a slice of `length` elements of a dim of `size`: the
/// constant of the original operand `original` when it has one, else the
/// converted run-time int `converted`; a negative one counts from the end.
/// It is clamped to [0, size - length], so that an index PyTorch would
/// refuse still reads inside the tensor.
static OpFoldResult getOffset(OpBuilder &b, Location loc, Value original,
                              Value converted, int64_t size, int64_t length) {
  int64_t last = std::max<int64_t>(size - length, 0);
  if (std::optional<int64_t> c = getConstInt(original)) {
    int64_t v = *c < 0 ? *c + size : *c;
    return b.getIndexAttr(std::clamp<int64_t>(v, 0, last));
  }
  Type i64 = b.getI64Type();
  Value v = castScalar(b, loc, converted, i64);
  Value zero = createScalarConstant(b, loc, i64, 0);
  Value n = createScalarConstant(b, loc, i64, size);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, v, zero);
  Value wrapped = arith::SelectOp::create(
      b, loc, negative, arith::AddIOp::create(b, loc, v, n), v);
  Value clamped = arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, wrapped, zero),
      createScalarConstant(b, loc, i64, last));
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), clamped)
      .getResult();
}

/// Whether `input`, read by the view-like `op`, is computed by a generic in
/// the same fusion group: elementwise fusion then folds a copy generic that
/// does the view's indexing into the generic reading it, where a tensor
/// slice or reshape would stop the fusion.
static bool isFusedComputation(Operation *op, Value input) {
  auto producer = input.getDefiningOp<linalg::GenericOp>();
  auto group = op->getParentOfType<fusion::GroupOp>();
  return producer && group &&
         producer->getParentOfType<fusion::GroupOp>() == group;
}

/// A slice of `input` of `resultType`: `sizes` elements from `offsets` with
/// `strides`, dim `dropped` (of size 1) left out of the result. A
/// tensor.extract_slice (a view once bufferised), or, when `copy` and the
/// offsets are constants, a copy generic reading input index
/// `offset + stride * d` (see isFusedComputation). An empty slice is an
/// empty tensor.
static Value buildSlice(OpBuilder &b, Location loc, Value input,
                        RankedTensorType resultType,
                        ArrayRef<OpFoldResult> offsets, ArrayRef<int64_t> sizes,
                        ArrayRef<int64_t> strides,
                        std::optional<int64_t> dropped, bool copy) {
  auto inputType = llvm::cast<RankedTensorType>(input.getType());
  bool whole =
      inputType == resultType &&
      llvm::all_of(offsets,
                   [](OpFoldResult o) { return isConstantIntValue(o, 0); }) &&
      llvm::all_of(strides, [](int64_t s) { return s == 1; });
  if (whole)
    return input;
  // No element to read: tensor.extract_slice would reject any static offset
  // into a 0-sized dimension.
  if (resultType.getNumElements() == 0 || inputType.getNumElements() == 0)
    return tensor::EmptyOp::create(b, loc, resultType.getShape(),
                                   resultType.getElementType());
  if (copy && llvm::all_of(offsets, [](OpFoldResult o) {
        return getConstantIntValue(o).has_value();
      })) {
    SmallVector<AffineExpr> exprs;
    // A plain `d` (offset 0, stride 1) where the slice is shorter than the
    // input would make linalg take the loop's size from the input: such a
    // slice stays an extract_slice.
    bool plainDimShortened = false;
    for (int64_t j = 0, d = 0; j < inputType.getRank(); ++j) {
      int64_t offset = *getConstantIntValue(offsets[j]);
      if (dropped && j == *dropped) {
        exprs.push_back(b.getAffineConstantExpr(offset));
        continue;
      }
      AffineExpr e = b.getAffineDimExpr(d) * strides[j] + offset;
      if (llvm::isa<AffineDimExpr>(e) &&
          inputType.getDimSize(j) != resultType.getDimSize(d))
        plainDimShortened = true;
      exprs.push_back(e);
      ++d;
    }
    AffineMap map =
        AffineMap::get(resultType.getRank(), 0, exprs, b.getContext());
    if (!plainDimShortened)
      return buildCopy(b, loc, input, map, resultType);
  }
  SmallVector<OpFoldResult> sizeFolds, strideFolds;
  for (int64_t s : sizes)
    sizeFolds.push_back(b.getIndexAttr(s));
  for (int64_t s : strides)
    strideFolds.push_back(b.getIndexAttr(s));
  return tensor::ExtractSliceOp::create(b, loc, resultType, input, offsets,
                                        sizeFolds, strideFolds);
}

/// The map reading a tensor of `inputShape` at the indices of one of
/// `resultShape` holding the same elements, when the two differ by size-1
/// dims only (unsqueeze, squeeze): the other dims match in order, the
/// input's size-1 dims are read at 0.
static std::optional<AffineMap>
getUnitReshapeMap(MLIRContext *ctx, ArrayRef<int64_t> inputShape,
                  ArrayRef<int64_t> resultShape) {
  SmallVector<AffineExpr> exprs;
  size_t r = 0;
  for (int64_t size : inputShape) {
    if (size == 1) {
      exprs.push_back(getAffineConstantExpr(0, ctx));
      continue;
    }
    while (r < resultShape.size() && resultShape[r] == 1)
      ++r;
    if (r == resultShape.size() || resultShape[r] != size)
      return std::nullopt;
    exprs.push_back(getAffineDimExpr(r++, ctx));
  }
  while (r < resultShape.size() && resultShape[r] == 1)
    ++r;
  if (r != resultShape.size())
    return std::nullopt;
  return AffineMap::get(resultShape.size(), 0, exprs, ctx);
}

/// `input` reshaped to `resultType` (same number of elements) with
/// expand_shape / collapse_shape, 0-d tensors on either side included; or,
/// when `copy` and only size-1 dims come or go, a copy generic (see
/// isFusedComputation).
static Value reshapeToType(OpBuilder &b, Location loc, Value input,
                           RankedTensorType resultType, bool copy = false) {
  auto inputType = llvm::cast<RankedTensorType>(input.getType());
  if (inputType.getShape() == resultType.getShape())
    return input;
  if (copy)
    if (std::optional<AffineMap> map = getUnitReshapeMap(
            b.getContext(), inputType.getShape(), resultType.getShape()))
      return buildCopy(b, loc, input, *map, resultType);
  if (resultType.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, resultType, input,
                                           ArrayRef<ReassociationIndices>{});
  if (inputType.getRank() == 0)
    return tensor::ExpandShapeOp::create(b, loc, resultType, input,
                                         ArrayRef<ReassociationIndices>{});
  return reshapeTo(b, loc, input, resultType.getShape());
}

/// The tensors of a list built by prim::ListConstruct, converted, with their
/// ts dtypes (null once converted).
static LogicalResult getListTensors(ConversionPatternRewriter &rewriter,
                                    Value list, SmallVectorImpl<Value> &tensors,
                                    SmallVectorImpl<Type> &dtypes) {
  auto construct = list.getDefiningOp<ts::PrimListConstructOp>();
  if (!construct)
    return failure();
  for (Value element : construct.getElements()) {
    Value converted = rewriter.getRemappedValue(element);
    if (!converted || !llvm::isa<RankedTensorType>(converted.getType()))
      return failure();
    tensors.push_back(converted);
    dtypes.push_back(getTSDtype(element));
  }
  return success();
}

/// The static sizes of `value` when it is a static ts tensor.
static std::optional<SmallVector<int64_t>> getStaticSizes(Value value) {
  auto type = llvm::dyn_cast<ts::TensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  return SmallVector<int64_t>(type.getSizesOrEmpty());
}

/// The elements of an int list known at compile time: a constant list, a
/// prim::ListConstruct of constants, or `aten::size` of a static tensor.
static std::optional<SmallVector<int64_t>> getCompileTimeIntList(Value list) {
  if (auto size = list.getDefiningOp<ts::AtenSizeOp>())
    return getStaticSizes(size.getSelf());
  if (llvm::isa<ts::ListType>(list.getType()))
    return getConstIntList(list);
  return std::nullopt;
}

namespace {

//===----------------------------------------------------------------------===//
// Reshapes
//===----------------------------------------------------------------------===//

/// view, reshape, flatten, unsqueeze, squeeze, view_as, reshape_as,
/// prim::data: the input's elements in the result's shape.
class ReshapeLowering : public NamedOpLowering {
public:
  ReshapeLowering(const TypeConverter &converter, MLIRContext *ctx,
                  StringRef name)
      : NamedOpLowering(converter, ctx, name) {
    addDebugLabels(kDynamicSizesLabel);
  }

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto inputType = llvm::dyn_cast<RankedTensorType>(operands[0].getType());
    if (!resultType || !inputType)
      return rewriter.notifyMatchFailure(op, "expected ranked tensors");
    if (!inputType.hasStaticShape() || !resultType.hasStaticShape()) {
      // Dynamic sizes: only unit dims come and go (unsqueeze, squeeze).
      auto withoutUnits = [](ArrayRef<int64_t> shape) {
        return llvm::to_vector(
            llvm::make_filter_range(shape, [](int64_t s) { return s != 1; }));
      };
      Value result;
      if (withoutUnits(inputType.getShape()) ==
              withoutUnits(resultType.getShape()) &&
          inputType.getElementType() == resultType.getElementType())
        result = reshapeTo(rewriter, op->getLoc(), operands[0],
                           resultType.getShape());
      if (!result)
        return rewriter.notifyMatchFailure(
            op, "a reshape of dynamic sizes other than of unit dims");
      remapListOperands(rewriter, op);
      rewriter.replaceOp(op, result);
      return success();
    }
    if (inputType.getNumElements() != resultType.getNumElements())
      return rewriter.notifyMatchFailure(op, "element counts differ");
    if (inputType.getElementType() != resultType.getElementType())
      return rewriter.notifyMatchFailure(op, "element types differ");
    remapListOperands(rewriter, op);
    rewriter.replaceOp(op, reshapeToType(rewriter, op->getLoc(), operands[0],
                                         resultType,
                                         isFusedComputation(op, operands[0])));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Permutations and broadcasts
//===----------------------------------------------------------------------===//

/// permute, transpose.int, t: a copy whose input map permutes the dims.
class PermuteLowering : public NamedOpLowering {
public:
  PermuteLowering(const TypeConverter &converter, MLIRContext *ctx,
                  StringRef name)
      : NamedOpLowering(converter, ctx, name) {
    addDebugLabels(kDynamicSizesLabel);
  }

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto inputType = llvm::dyn_cast<RankedTensorType>(operands[0].getType());
    if (!resultType || !inputType ||
        resultType.getRank() != inputType.getRank())
      return rewriter.notifyMatchFailure(op, "expected static tensors of "
                                             "equal rank");
    int64_t rank = inputType.getRank();
    // perm[i]: the input dim that becomes result dim i.
    SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    if (llvm::isa<ts::AtenPermuteOp>(op)) {
      std::optional<SmallVector<int64_t>> dims =
          getConstIntList(op->getOperand(1));
      if (!dims || static_cast<int64_t>(dims->size()) != rank)
        return rewriter.notifyMatchFailure(op, "dims are not constant");
      for (auto [i, d] : llvm::enumerate(*dims)) {
        std::optional<int64_t> w = wrapDim(d, rank);
        if (!w)
          return rewriter.notifyMatchFailure(op, "dim out of range");
        perm[i] = *w;
      }
      if (!isPermutationVector(perm))
        return rewriter.notifyMatchFailure(op, "dims are no permutation");
    } else if (llvm::isa<ts::AtenTransposeIntOp>(op)) {
      std::optional<int64_t> d0 = getConstInt(op->getOperand(1));
      std::optional<int64_t> d1 = getConstInt(op->getOperand(2));
      if (!d0 || !d1)
        return rewriter.notifyMatchFailure(op, "dims are not constant");
      std::optional<int64_t> w0 = wrapDim(*d0, rank), w1 = wrapDim(*d1, rank);
      if (!w0 || !w1)
        return rewriter.notifyMatchFailure(op, "dim out of range");
      if (rank > 0)
        std::swap(perm[*w0], perm[*w1]);
    } else if (rank == 2) { // aten::t of a 2-D tensor; 0-D and 1-D stay.
      std::swap(perm[0], perm[1]);
    }
    if (rank > 2 && llvm::isa<ts::AtenTOp>(op))
      return rewriter.notifyMatchFailure(op, "t expects at most 2 dims");
    for (int64_t i = 0; i < rank; ++i)
      if (resultType.getDimSize(i) != inputType.getDimSize(perm[i]))
        return rewriter.notifyMatchFailure(op, "result shape is not the "
                                               "permuted input shape");
    if (llvm::equal(perm, llvm::seq<int64_t>(0, rank))) {
      remapListOperands(rewriter, op);
      rewriter.replaceOp(op, operands[0]);
      return success();
    }
    // Input dim perm[i] is read at iteration dim i.
    SmallVector<AffineExpr> exprs(rank);
    for (int64_t i = 0; i < rank; ++i)
      exprs[perm[i]] = rewriter.getAffineDimExpr(i);
    AffineMap map = AffineMap::get(rank, 0, exprs, op->getContext());
    // The result's sizes are the input's, permuted (dynamic ones too).
    SmallVector<std::pair<Value, int64_t>> dims;
    for (int64_t i = 0; i < rank; ++i)
      dims.push_back({operands[0], perm[i]});
    Value init = createEmptyFromDims(rewriter, op->getLoc(), dims,
                                     resultType.getElementType());
    remapListOperands(rewriter, op);
    rewriter.replaceOp(op, buildCopy(rewriter, op->getLoc(), operands[0], map,
                                     resultType, init));
    return success();
  }
};

/// expand, expand_as, broadcast_to: a copy whose input map repeats size-1
/// dims and adds leading ones, as PyTorch broadcasts.
class BroadcastLowering : public NamedOpLowering {
public:
  using NamedOpLowering::NamedOpLowering;

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto inputType = llvm::dyn_cast<RankedTensorType>(operands[0].getType());
    if (!resultType || !inputType)
      return rewriter.notifyMatchFailure(op, "expected static tensors");
    int64_t offset = resultType.getRank() - inputType.getRank();
    if (offset < 0)
      return rewriter.notifyMatchFailure(op, "result has fewer dims");
    for (int64_t i = 0; i < inputType.getRank(); ++i) {
      int64_t in = inputType.getDimSize(i);
      if (in != 1 && in != resultType.getDimSize(offset + i))
        return rewriter.notifyMatchFailure(op, "sizes do not broadcast");
    }
    if (inputType == resultType) {
      remapListOperands(rewriter, op);
      rewriter.replaceOp(op, operands[0]);
      return success();
    }
    AffineMap map = getBroadcastMap(op->getContext(), inputType.getShape(),
                                    resultType.getShape());
    remapListOperands(rewriter, op);
    rewriter.replaceOp(
        op, buildCopy(rewriter, op->getLoc(), operands[0], map, resultType));
    return success();
  }
};

/// repeat: a copy whose input map takes each result index modulo the input
/// size.
class RepeatLowering : public OpConversionPattern<ts::AtenRepeatOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenRepeatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto inputType =
        llvm::dyn_cast<RankedTensorType>(adaptor.getSelf().getType());
    if (!resultType || !inputType)
      return rewriter.notifyMatchFailure(op, "expected static tensors");
    std::optional<SmallVector<int64_t>> repeats =
        getConstIntList(op.getRepeats());
    if (!repeats)
      return rewriter.notifyMatchFailure(op, "repeats are not constant");
    int64_t rank = resultType.getRank();
    int64_t offset = rank - inputType.getRank();
    if (static_cast<int64_t>(repeats->size()) != rank || offset < 0)
      return rewriter.notifyMatchFailure(op, "repeats must cover every dim");
    SmallVector<AffineExpr> exprs;
    for (int64_t i = 0; i < inputType.getRank(); ++i) {
      int64_t in = inputType.getDimSize(i);
      int64_t r = (*repeats)[offset + i];
      if (resultType.getDimSize(offset + i) != in * r)
        return rewriter.notifyMatchFailure(op, "result shape is not the "
                                               "repeated input shape");
      AffineExpr d = rewriter.getAffineDimExpr(offset + i);
      if (in == 1)
        exprs.push_back(rewriter.getAffineConstantExpr(0));
      else if (r == 1)
        exprs.push_back(d);
      else
        exprs.push_back(d % in);
    }
    AffineMap map = AffineMap::get(rank, 0, exprs, op.getContext());
    remapListOperands(rewriter, op);
    rewriter.replaceOp(op, buildCopy(rewriter, op.getLoc(), adaptor.getSelf(),
                                     map, resultType));
    return success();
  }
};

/// flip: a copy whose input map reads index n - 1 - i along each flipped
/// dim.
class FlipLowering : public OpConversionPattern<ts::AtenFlipOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenFlipOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto inputType =
        llvm::dyn_cast<RankedTensorType>(adaptor.getSelf().getType());
    std::optional<SmallVector<int64_t>> dims = getConstIntList(op.getDims());
    if (!resultType || !inputType || resultType != inputType || !dims)
      return rewriter.notifyMatchFailure(op, "expected static tensors and "
                                             "constant dims");
    int64_t rank = inputType.getRank();
    SmallVector<AffineExpr> exprs;
    for (int64_t i = 0; i < rank; ++i)
      exprs.push_back(rewriter.getAffineDimExpr(i));
    for (int64_t d : *dims) {
      std::optional<int64_t> w = wrapDim(d, rank);
      if (!w || *w >= rank)
        return rewriter.notifyMatchFailure(op, "dim out of range");
      exprs[*w] = rewriter.getAffineConstantExpr(inputType.getDimSize(*w) - 1) -
                  rewriter.getAffineDimExpr(*w);
    }
    AffineMap map = AffineMap::get(rank, 0, exprs, op.getContext());
    remapListOperands(rewriter, op);
    rewriter.replaceOp(op, buildCopy(rewriter, op.getLoc(), adaptor.getSelf(),
                                     map, resultType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Slices
//===----------------------------------------------------------------------===//

/// slice.Tensor: start and end may be None or negative and are clamped to
/// the size, as Python slicing does; the step is a positive constant.
class SliceLowering : public OpConversionPattern<ts::AtenSliceTensorOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenSliceTensorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto inputType =
        llvm::dyn_cast<RankedTensorType>(adaptor.getSelf().getType());
    if (!resultType || !inputType ||
        resultType.getRank() != inputType.getRank() || inputType.getRank() == 0)
      return rewriter.notifyMatchFailure(op, "expected static tensors of "
                                             "equal rank, at least 1-D");
    int64_t rank = inputType.getRank();
    std::optional<int64_t> dimArg = getConstInt(op.getDim());
    std::optional<int64_t> step = getConstInt(op.getStep());
    if (!dimArg || !step)
      return rewriter.notifyMatchFailure(op, "dim or step is not constant");
    std::optional<int64_t> dim = wrapDim(*dimArg, rank);
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim out of range");
    if (*step < 1)
      return rewriter.notifyMatchFailure(op, "step must be positive");
    int64_t size = inputType.getDimSize(*dim);
    int64_t length = resultType.getDimSize(*dim);
    if (ShapedType::isDynamic(length))
      return lowerRunTimeLength(op, adaptor, rewriter, inputType, resultType,
                                *dim);

    // With constant bounds, check the result's length against them.
    bool startNone = isConstNone(op.getStart());
    bool endNone = isConstNone(op.getEnd());
    std::optional<int64_t> start =
        startNone ? std::optional<int64_t>(0) : getConstInt(op.getStart());
    std::optional<int64_t> end =
        endNone ? std::optional<int64_t>(size) : getConstInt(op.getEnd());
    if (start && end) {
      auto clampIndex = [&](int64_t v) {
        return std::clamp<int64_t>(v < 0 ? v + size : v, 0, size);
      };
      int64_t s = clampIndex(*start), e = std::max(clampIndex(*end), s);
      if ((e - s + *step - 1) / *step != length)
        return rewriter.notifyMatchFailure(op, "result length differs from "
                                               "the slice's");
    } else if (!start && !endNone &&
               !llvm::isa<IntegerType>(adaptor.getEnd().getType())) {
      return rewriter.notifyMatchFailure(op, "end is not an int");
    }
    if (!start && !llvm::isa<IntegerType>(adaptor.getStart().getType()))
      return rewriter.notifyMatchFailure(op, "start is not an int");

    for (int64_t i = 0; i < rank; ++i)
      if (i != *dim && resultType.getDimSize(i) != inputType.getDimSize(i))
        return rewriter.notifyMatchFailure(op, "result shape differs outside "
                                               "the sliced dim");
    Location loc = op.getLoc();
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    offsets[*dim] =
        startNone ? OpFoldResult(rewriter.getIndexAttr(0))
                  : getOffset(rewriter, loc, op.getStart(), adaptor.getStart(),
                              size, (length - 1) * *step + 1);
    SmallVector<int64_t> strides(rank, 1);
    strides[*dim] = *step;
    remapListOperands(rewriter, op);
    rewriter.replaceOp(
        op, buildSlice(rewriter, loc, adaptor.getSelf(), resultType, offsets,
                       resultType.getShape(), strides, std::nullopt,
                       isFusedComputation(op, adaptor.getSelf())));
    return success();
  }

private:
  /// A slice whose length is known only at run time (DataDependentSizes.h):
  /// the bounds clamped as Python slicing does, step 1, the other dims
  /// whole.
  LogicalResult lowerRunTimeLength(ts::AtenSliceTensorOp op, OpAdaptor adaptor,
                                   ConversionPatternRewriter &rewriter,
                                   RankedTensorType inputType,
                                   RankedTensorType resultType,
                                   int64_t dim) const {
    std::optional<int64_t> step = getConstInt(op.getStep());
    if (!step || *step != 1)
      return rewriter.notifyMatchFailure(op, "a run-time length needs step 1");
    int64_t rank = inputType.getRank();
    for (int64_t i = 0; i < rank; ++i)
      if (i != dim && resultType.getDimSize(i) != inputType.getDimSize(i))
        return rewriter.notifyMatchFailure(op, "result shape differs outside "
                                               "the sliced dim");
    int64_t size = inputType.getDimSize(dim);
    Location loc = op.getLoc();
    auto bound = [&](Value original, Value converted,
                     int64_t none) -> FailureOr<Value> {
      if (isConstNone(original))
        return arith::ConstantIndexOp::create(rewriter, loc, none).getResult();
      if (!getConstInt(original) &&
          !llvm::isa<IntegerType>(converted.getType()))
        return failure();
      return getValueOrCreateConstantIndexOp(
          rewriter, loc, getOffset(rewriter, loc, original, converted, size, 0));
    };
    FailureOr<Value> start = bound(op.getStart(), adaptor.getStart(), 0);
    FailureOr<Value> end = bound(op.getEnd(), adaptor.getEnd(), size);
    if (failed(start) || failed(end))
      return rewriter.notifyMatchFailure(op, "start or end is not an int");
    Value length = arith::MaxSIOp::create(
        rewriter, loc, arith::SubIOp::create(rewriter, loc, *end, *start),
        arith::ConstantIndexOp::create(rewriter, loc, 0));
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
    for (int64_t i = 0; i < rank; ++i)
      sizes.push_back(i == dim ? OpFoldResult(length)
                               : rewriter.getIndexAttr(inputType.getDimSize(i)));
    offsets[dim] = *start;
    remapListOperands(rewriter, op);
    rewriter.replaceOp(op, tensor::ExtractSliceOp::create(
                               rewriter, loc, resultType, adaptor.getSelf(),
                               offsets, sizes, strides));
    return success();
  }
};

/// select.int and narrow: one index (the dim dropped), or `length` elements
/// from a start; negative index and start count from the end.
class SelectLowering : public NamedOpLowering {
public:
  using NamedOpLowering::NamedOpLowering;

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    bool select = llvm::isa<ts::AtenSelectIntOp>(op);
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto inputType = llvm::dyn_cast<RankedTensorType>(operands[0].getType());
    if (!resultType || !inputType || inputType.getRank() == 0)
      return rewriter.notifyMatchFailure(op, "expected static tensors, at "
                                             "least 1-D");
    int64_t rank = inputType.getRank();
    if (resultType.getRank() != (select ? rank - 1 : rank))
      return rewriter.notifyMatchFailure(op, "result rank is wrong");
    std::optional<int64_t> dimArg = getConstInt(op->getOperand(1));
    if (!dimArg)
      return rewriter.notifyMatchFailure(op, "dim is not constant");
    std::optional<int64_t> dim = wrapDim(*dimArg, rank);
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim out of range");
    if (!llvm::isa<IntegerType>(operands[2].getType()))
      return rewriter.notifyMatchFailure(op, "index is not an int");
    int64_t size = inputType.getDimSize(*dim);
    int64_t length = select ? 1 : resultType.getDimSize(*dim);
    if (std::optional<int64_t> start = getConstInt(op->getOperand(2))) {
      // PyTorch raises on an index or start out of range.
      if (*start < -size || *start + (*start < 0 ? size : 0) + length > size)
        return rewriter.notifyMatchFailure(op, "index out of range");
    }
    if (!select) {
      std::optional<int64_t> len = getConstInt(op->getOperand(3));
      if (len && *len != length)
        return rewriter.notifyMatchFailure(op, "length differs from the "
                                               "result's");
    }
    SmallVector<int64_t> sizes(inputType.getShape());
    sizes[*dim] = length;
    for (int64_t i = 0, r = 0; i < rank; ++i) {
      if (select && i == *dim)
        continue;
      if (resultType.getDimSize(r++) != sizes[i])
        return rewriter.notifyMatchFailure(op, "result shape is wrong");
    }
    Location loc = op->getLoc();
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    offsets[*dim] =
        getOffset(rewriter, loc, op->getOperand(2), operands[2], size, length);
    SmallVector<int64_t> strides(rank, 1);
    remapListOperands(rewriter, op);
    rewriter.replaceOp(
        op, buildSlice(rewriter, loc, operands[0], resultType, offsets, sizes,
                       strides,
                       select ? std::optional<int64_t>(*dim) : std::nullopt,
                       isFusedComputation(op, operands[0])));
    return success();
  }
};

/// slice_scatter(self, src, dim, start?, end?, step) and
/// select_scatter(self, src, dim, index): self with the slice (or the
/// selected index, src given the dim back) replaced by src, a
/// tensor.insert_slice. The bounds follow slice and select.
class ScatterLowering : public NamedOpLowering {
public:
  using NamedOpLowering::NamedOpLowering;

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    bool select = llvm::isa<ts::AtenSelectScatterOp>(op);
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto selfType = llvm::dyn_cast<RankedTensorType>(operands[0].getType());
    auto srcType = llvm::dyn_cast<RankedTensorType>(operands[1].getType());
    if (!resultType || !selfType || !srcType || selfType != resultType ||
        selfType.getRank() == 0 ||
        srcType.getElementType() != selfType.getElementType())
      return rewriter.notifyMatchFailure(op, "expected static tensors of one "
                                             "dtype, at least 1-D");
    int64_t rank = selfType.getRank();
    if (srcType.getRank() != (select ? rank - 1 : rank))
      return rewriter.notifyMatchFailure(op, "src rank is wrong");
    std::optional<int64_t> dimArg = getConstInt(op->getOperand(2));
    std::optional<int64_t> dim =
        dimArg ? wrapDim(*dimArg, rank) : std::nullopt;
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim is not a constant in range");
    int64_t size = selfType.getDimSize(*dim);
    SmallVector<int64_t> sizes(selfType.getShape());
    for (int64_t i = 0, r = 0; i < rank; ++i) {
      if (select && i == *dim)
        continue;
      if (i != *dim && srcType.getDimSize(r) != sizes[i])
        return rewriter.notifyMatchFailure(op, "src shape differs");
      if (i == *dim)
        sizes[i] = srcType.getDimSize(r);
      ++r;
    }
    Location loc = op->getLoc();
    SmallVector<int64_t> strides(rank, 1);
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    Value src = operands[1];
    if (select) {
      sizes[*dim] = 1;
      std::optional<int64_t> index = getConstInt(op->getOperand(3));
      if (index && (*index < -size || *index >= size))
        return rewriter.notifyMatchFailure(op, "index out of range");
      offsets[*dim] =
          getOffset(rewriter, loc, op->getOperand(3), operands[3], size, 1);
      src = reshapeTo(rewriter, loc, src, sizes);
    } else {
      std::optional<int64_t> step = getConstInt(op->getOperand(5));
      if (!step || *step < 1)
        return rewriter.notifyMatchFailure(op, "step is not a positive "
                                               "constant");
      bool startNone = isConstNone(op->getOperand(3));
      bool endNone = isConstNone(op->getOperand(4));
      std::optional<int64_t> start =
          startNone ? std::optional<int64_t>(0) : getConstInt(op->getOperand(3));
      std::optional<int64_t> end =
          endNone ? std::optional<int64_t>(size) : getConstInt(op->getOperand(4));
      if (!start || !end)
        return rewriter.notifyMatchFailure(op, "start or end is not constant");
      auto clampIndex = [&](int64_t v) {
        return std::clamp<int64_t>(v < 0 ? v + size : v, 0, size);
      };
      int64_t s = clampIndex(*start), e = std::max(clampIndex(*end), s);
      if ((e - s + *step - 1) / *step != sizes[*dim])
        return rewriter.notifyMatchFailure(op, "src length differs from the "
                                               "slice's");
      offsets[*dim] = rewriter.getIndexAttr(s);
      strides[*dim] = *step;
    }
    SmallVector<OpFoldResult> sizeAttrs, strideAttrs;
    for (int64_t i = 0; i < rank; ++i) {
      sizeAttrs.push_back(rewriter.getIndexAttr(sizes[i]));
      strideAttrs.push_back(rewriter.getIndexAttr(strides[i]));
    }
    remapListOperands(rewriter, op);
    rewriter.replaceOp(op, tensor::InsertSliceOp::create(
                               rewriter, loc, src, operands[0], offsets,
                               sizeAttrs, strideAttrs));
    return success();
  }
};

/// How chunk, split, unbind and prim::ConstantChunk cut their input: the
/// pieces along `dim`, each with its offset and size (`drop`: unbind's
/// pieces leave the dim out).
struct Pieces {
  int64_t dim = 0;
  bool drop = false;
  SmallVector<int64_t> offsets, sizes;
};

/// Pieces of `splitSize` elements along `dim` of size `size`, the last one
/// shorter; at least one piece, as PyTorch's split.
static Pieces splitPieces(int64_t dim, int64_t size, int64_t splitSize) {
  Pieces pieces;
  pieces.dim = dim;
  int64_t count = std::max<int64_t>(
      (size + splitSize - 1) / std::max<int64_t>(splitSize, 1), 1);
  for (int64_t i = 0; i < count; ++i) {
    pieces.offsets.push_back(i * splitSize);
    pieces.sizes.push_back(std::min(splitSize, size - i * splitSize));
  }
  return pieces;
}

/// The pieces `op` cuts its input of shape `shape` into, or std::nullopt
/// when its arguments are not constant.
static std::optional<Pieces> getPieces(Operation *op, ArrayRef<int64_t> shape) {
  int64_t rank = shape.size();
  auto dimOf = [&](std::optional<int64_t> d) -> std::optional<int64_t> {
    if (!d || rank == 0)
      return std::nullopt;
    return wrapDim(*d, rank);
  };
  auto chunkPieces = [&](int64_t chunks,
                         std::optional<int64_t> dim) -> std::optional<Pieces> {
    if (!dim || chunks < 1)
      return std::nullopt;
    int64_t size = shape[*dim];
    return splitPieces(*dim, size, (size + chunks - 1) / chunks);
  };
  if (auto chunk = llvm::dyn_cast<ts::PrimConstantChunkOp>(op))
    return chunkPieces(chunk.getChunks(), dimOf(chunk.getDim()));
  if (auto chunk = llvm::dyn_cast<ts::AtenChunkOp>(op)) {
    std::optional<int64_t> chunks = getConstInt(chunk.getChunks());
    if (!chunks)
      return std::nullopt;
    return chunkPieces(*chunks, dimOf(getConstInt(chunk.getDim())));
  }
  if (auto split = llvm::dyn_cast<ts::AtenSplitTensorOp>(op)) {
    std::optional<int64_t> dim = dimOf(getConstInt(split.getDim()));
    std::optional<int64_t> splitSize = getConstInt(split.getSplitSize());
    if (!dim || !splitSize || *splitSize < 0 ||
        (*splitSize == 0 && shape[*dim] != 0))
      return std::nullopt;
    return splitPieces(*dim, shape[*dim], *splitSize);
  }
  if (auto split = llvm::dyn_cast<ts::AtenSplitWithSizesOp>(op)) {
    std::optional<int64_t> dim = dimOf(getConstInt(split.getDim()));
    std::optional<SmallVector<int64_t>> lengths =
        getConstIntList(split.getSplitSizes());
    if (!dim || !lengths)
      return std::nullopt;
    Pieces pieces;
    pieces.dim = *dim;
    int64_t offset = 0;
    for (int64_t n : *lengths) {
      if (n < 0)
        return std::nullopt;
      pieces.offsets.push_back(offset);
      pieces.sizes.push_back(n);
      offset += n;
    }
    if (offset != shape[*dim])
      return std::nullopt; // PyTorch raises: the sizes must add up.
    return pieces;
  }
  if (auto unbind = llvm::dyn_cast<ts::AtenUnbindIntOp>(op)) {
    std::optional<int64_t> dim = dimOf(getConstInt(unbind.getDim()));
    if (!dim)
      return std::nullopt;
    Pieces pieces = splitPieces(*dim, shape[*dim], 1);
    if (shape[*dim] == 0)
      pieces.offsets.clear(), pieces.sizes.clear();
    pieces.drop = true;
    return pieces;
  }
  return std::nullopt;
}

/// Piece `i` of `input`, of type `type` (null: its type follows from the
/// piece); a copy generic when `copy` (see isFusedComputation).
static Value buildPiece(OpBuilder &b, Location loc, Value input,
                        const Pieces &pieces, int64_t i, RankedTensorType type,
                        bool copy) {
  auto inputType = llvm::cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  SmallVector<int64_t> sizes(inputType.getShape());
  sizes[pieces.dim] = pieces.sizes[i];
  if (!type) {
    SmallVector<int64_t> shape(sizes);
    if (pieces.drop)
      shape.erase(shape.begin() + pieces.dim);
    type = RankedTensorType::get(shape, inputType.getElementType());
  }
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  offsets[pieces.dim] = b.getIndexAttr(pieces.offsets[i]);
  return buildSlice(
      b, loc, input, type, offsets, sizes, SmallVector<int64_t>(rank, 1),
      pieces.drop ? std::optional<int64_t>(pieces.dim) : std::nullopt, copy);
}

/// Whether `type` is the type of piece `i` of an input of `inputType`.
static bool isPieceType(RankedTensorType type, RankedTensorType inputType,
                        const Pieces &pieces, int64_t i) {
  SmallVector<int64_t> shape(inputType.getShape());
  shape[pieces.dim] = pieces.sizes[i];
  if (pieces.drop)
    shape.erase(shape.begin() + pieces.dim);
  return type && type.getShape() == ArrayRef<int64_t>(shape) &&
         type.getElementType() == inputType.getElementType();
}

/// prim::ConstantChunk: one slice per result.
class ConstantChunkLowering
    : public OpConversionPattern<ts::PrimConstantChunkOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::PrimConstantChunkOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto inputType =
        llvm::dyn_cast<RankedTensorType>(adaptor.getSelf().getType());
    if (!inputType)
      return rewriter.notifyMatchFailure(op, "expected a static tensor");
    std::optional<Pieces> pieces = getPieces(op, inputType.getShape());
    if (!pieces || pieces->sizes.size() != op.getNumResults())
      return rewriter.notifyMatchFailure(op, "chunk count differs from the "
                                             "number of results");
    SmallVector<Value> results;
    for (unsigned i = 0; i < op.getNumResults(); ++i) {
      RankedTensorType type = getResultType(getTypeConverter(), op, i);
      if (!isPieceType(type, inputType, *pieces, i))
        return rewriter.notifyMatchFailure(op, "result type differs from the "
                                               "chunk's");
      results.push_back(buildPiece(rewriter, op.getLoc(), adaptor.getSelf(),
                                   *pieces, i, type,
                                   isFusedComputation(op, adaptor.getSelf())));
    }
    remapListOperands(rewriter, op);
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// chunk, split.Tensor, unbind.int: their list is only unpacked
/// (prim::ListUnpack), indexed with constants (__getitem__.t) or measured
/// (len.t); those uses are replaced by the slices and the op is erased.
class ListSplitLowering : public NamedOpLowering {
public:
  using NamedOpLowering::NamedOpLowering;

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto inputType = llvm::dyn_cast<RankedTensorType>(operands[0].getType());
    if (!inputType)
      return rewriter.notifyMatchFailure(op, "expected a static tensor");
    std::optional<Pieces> pieces = getPieces(op, inputType.getShape());
    if (!pieces)
      return rewriter.notifyMatchFailure(op, "arguments are not constant");
    int64_t count = pieces->sizes.size();

    // Check every use before changing anything.
    llvm::SetVector<Operation *> users;
    for (Operation *user : op->getResult(0).getUsers()) {
      if (auto unpack = llvm::dyn_cast<ts::PrimListUnpackOp>(user)) {
        if (static_cast<int64_t>(unpack.getNumResults()) != count)
          return rewriter.notifyMatchFailure(op, "unpacked into a different "
                                                 "number of values");
        for (unsigned i = 0; i < unpack.getNumResults(); ++i)
          if (!isPieceType(getResultType(getTypeConverter(), unpack, i),
                           inputType, *pieces, i))
            return rewriter.notifyMatchFailure(op, "unpacked type differs "
                                                   "from the piece's");
      } else if (auto item = llvm::dyn_cast<ts::Aten__Getitem__TOp>(user)) {
        std::optional<int64_t> i = getConstInt(item.getIdx());
        if (!i || *i < -count || *i >= count)
          return rewriter.notifyMatchFailure(op, "indexed with a non-constant "
                                                 "or out of range index");
        if (!isPieceType(getResultType(getTypeConverter(), item),
                         inputType, *pieces, *i < 0 ? *i + count : *i))
          return rewriter.notifyMatchFailure(op, "indexed type differs from "
                                                 "the piece's");
      } else if (!llvm::isa<ts::AtenLenTOp>(user)) {
        return rewriter.notifyMatchFailure(op, "list has a use other than "
                                               "ListUnpack, __getitem__, len");
      }
      users.insert(user);
    }

    Location loc = op->getLoc();
    SmallVector<Value> slices(count);
    auto piece = [&](int64_t i) {
      if (!slices[i])
        slices[i] =
            buildPiece(rewriter, loc, operands[0], *pieces, i,
                       RankedTensorType(), isFusedComputation(op, operands[0]));
      return slices[i];
    };
    for (Operation *user : users) {
      if (llvm::isa<ts::PrimListUnpackOp>(user)) {
        SmallVector<Value> values;
        for (int64_t i = 0; i < count; ++i)
          values.push_back(piece(i));
        rewriter.replaceOp(user, values);
      } else if (auto item = llvm::dyn_cast<ts::Aten__Getitem__TOp>(user)) {
        int64_t i = *getConstInt(item.getIdx());
        rewriter.replaceOp(user, piece(i < 0 ? i + count : i));
      } else {
        rewriter.replaceOp(
            user,
            createScalarConstant(rewriter, loc, rewriter.getI64Type(), count));
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// cat and stack
//===----------------------------------------------------------------------===//

/// cat and stack of a prim::ListConstruct: each input (cast to the result's
/// element type) is inserted into one tensor.empty. cat skips inputs with no
/// elements (PyTorch skips empty 1-D tensors of any other rank); stack
/// inserts each input as one index of the new dim.
class ConcatLowering : public NamedOpLowering {
public:
  using NamedOpLowering::NamedOpLowering;

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    bool stack = llvm::isa<ts::AtenStackOp>(op);
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    if (!resultType || resultType.getRank() == 0)
      return rewriter.notifyMatchFailure(op, "expected a static result, at "
                                             "least 1-D");
    SmallVector<Value> inputs;
    SmallVector<Type> dtypes;
    if (failed(getListTensors(rewriter, op->getOperand(0), inputs, dtypes)))
      return rewriter.notifyMatchFailure(op, "tensors are not a "
                                             "prim::ListConstruct of static "
                                             "tensors");
    if (inputs.empty())
      return rewriter.notifyMatchFailure(op, "no tensors");
    std::optional<int64_t> dimArg = getConstInt(op->getOperand(1));
    if (!dimArg)
      return rewriter.notifyMatchFailure(op, "dim is not constant");
    int64_t rank = resultType.getRank();
    std::optional<int64_t> dim = wrapDim(*dimArg, rank);
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim out of range");

    // The slice of the result each input fills (its sizes, null when it
    // has no elements and is skipped), checked before anything is built.
    SmallVector<SmallVector<int64_t>> slices;
    int64_t total = 0;
    for (Value input : inputs) {
      auto type = llvm::cast<RankedTensorType>(input.getType());
      SmallVector<int64_t> sizes(type.getShape());
      if (!stack && type.getNumElements() == 0) {
        slices.push_back({});
        continue;
      }
      if (stack)
        sizes.insert(sizes.begin() + *dim, 1);
      if (static_cast<int64_t>(sizes.size()) != rank)
        return rewriter.notifyMatchFailure(op, "input rank differs from the "
                                               "result's");
      for (int64_t i = 0; i < rank; ++i)
        if (i != *dim && sizes[i] != resultType.getDimSize(i))
          return rewriter.notifyMatchFailure(op, "input shape differs from "
                                                 "the result's");
      total += sizes[*dim];
      slices.push_back(sizes);
    }
    // A result with no elements (a 0-sized dimension other than `dim`) is
    // filled by its empty inputs, all skipped.
    if (total != resultType.getDimSize(*dim) &&
        resultType.getNumElements() != 0)
      return rewriter.notifyMatchFailure(op, "inputs do not fill the result");

    Location loc = op->getLoc();
    Type elementType = resultType.getElementType();
    Value result = createEmpty(rewriter, loc, resultType);
    // Nothing to insert into a result with no elements (a slice's offsets
    // would be out of its bounds).
    if (resultType.getNumElements() == 0)
      slices.assign(slices.size(), {});
    int64_t offset = 0;
    for (auto [input, dtype, sizes] : llvm::zip(inputs, dtypes, slices)) {
      if (sizes.empty())
        continue;
      Value cast = castElements(rewriter, loc, input, elementType,
                                isUnsignedDtype(dtype));
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      offsets[*dim] = rewriter.getIndexAttr(offset);
      SmallVector<OpFoldResult> sizeFolds,
          strides(rank, rewriter.getIndexAttr(1));
      for (int64_t s : sizes)
        sizeFolds.push_back(rewriter.getIndexAttr(s));
      result = tensor::InsertSliceOp::create(rewriter, loc, cast, result,
                                             offsets, sizeFolds, strides);
      offset += sizes[*dim];
    }
    remapListOperands(rewriter, op);
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

/// An integer index into a dim of `size`, as an i64; a negative one counts
/// from the end.
static Value wrapNegative(OpBuilder &b, Location loc, Value index,
                          int64_t size) {
  Value i = castScalar(b, loc, index, b.getI64Type());
  Value zero = createScalarConstant(b, loc, i.getType(), 0);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, zero);
  Value wrapped = arith::AddIOp::create(
      b, loc, i, createScalarConstant(b, loc, i.getType(), size));
  return arith::SelectOp::create(b, loc, negative, wrapped, i);
}

/// The element of `source` at the iteration indices of the enclosing
/// generic, with `index` (an integer) in place of dims [dim, dim + count) of
/// the iteration space and the iteration dims after them shifted to the
/// source's. A negative index counts from the end.
static Value extractAt(OpBuilder &b, Location loc, Value source, int64_t dim,
                       int64_t count, Value index) {
  auto type = llvm::cast<RankedTensorType>(source.getType());
  Type indexType = b.getIndexType();
  Value i = wrapNegative(b, loc, index, type.getDimSize(dim));
  SmallVector<Value> indices;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (d == dim)
      indices.push_back(arith::IndexCastOp::create(b, loc, indexType, i));
    else
      indices.push_back(
          linalg::IndexOp::create(b, loc, d < dim ? d : d - 1 + count));
  }
  return tensor::ExtractOp::create(b, loc, source, indices);
}

/// A generic over `resultType` reading `index` through `indexMap` and
/// yielding the element of `source` that `extractAt` picks.
static Value buildGather(OpBuilder &b, Location loc, Value source, int64_t dim,
                         int64_t count, Value index, AffineMap indexMap,
                         RankedTensorType resultType) {
  SmallVector<AffineMap> maps = {
      indexMap, b.getMultiDimIdentityMap(resultType.getRank())};
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, ValueRange{index},
      ValueRange{createEmpty(b, loc, resultType)}, maps, iterators,
      [&](OpBuilder &nested, Location l, ValueRange args) {
        linalg::YieldOp::create(
            nested, l, extractAt(nested, l, source, dim, count, args[0]));
      });
  return generic.getResult(0);
}

/// index_select (a 1-D or 0-D index along one dim): the index's dims replace
/// the indexed dim.
class IndexSelectLowering : public NamedOpLowering {
public:
  using NamedOpLowering::NamedOpLowering;

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto sourceType = llvm::dyn_cast<RankedTensorType>(operands[0].getType());
    if (!resultType || !sourceType || sourceType.getRank() == 0)
      return rewriter.notifyMatchFailure(op, "expected static tensors, at "
                                             "least 1-D");
    int64_t rank = sourceType.getRank();
    std::optional<int64_t> dimArg = getConstInt(op->getOperand(1));
    std::optional<int64_t> wrapped =
        dimArg ? wrapDim(*dimArg, rank) : std::nullopt;
    if (!wrapped)
      return rewriter.notifyMatchFailure(op, "dim is not a constant in range");
    int64_t dim = *wrapped;
    Value index = operands[2];
    auto indexType = llvm::dyn_cast<RankedTensorType>(index.getType());
    auto indexElement =
        indexType ? llvm::dyn_cast<IntegerType>(indexType.getElementType())
                  : IntegerType();
    if (!indexType || indexType.getRank() > 1 || !indexElement ||
        indexElement.getWidth() == 1)
      return rewriter.notifyMatchFailure(op, "index is not a 0-D or 1-D "
                                             "integer tensor");
    // index_select reads a 0-d index as a 1-D one of one element.
    bool scalarIndex = indexType.getRank() == 0;
    int64_t count = scalarIndex ? 1 : indexType.getRank();
    SmallVector<int64_t> shape(sourceType.getShape().take_front(dim));
    if (scalarIndex)
      shape.push_back(1);
    else
      llvm::append_range(shape, indexType.getShape());
    llvm::append_range(shape, sourceType.getShape().drop_front(dim + 1));
    if (resultType.getShape() != ArrayRef<int64_t>(shape))
      return rewriter.notifyMatchFailure(op, "result shape is wrong");
    SmallVector<AffineExpr> exprs;
    for (int64_t i = 0; i < count; ++i)
      exprs.push_back(rewriter.getAffineDimExpr(dim + i));
    AffineMap map =
        AffineMap::get(resultType.getRank(), 0, exprs, op->getContext());
    if (scalarIndex)
      index = reshapeToType(rewriter, op->getLoc(), index,
                            RankedTensorType::get({1}, indexElement));
    rewriter.replaceOp(op, buildGather(rewriter, op->getLoc(), operands[0], dim,
                                       count, index, map, resultType));
    return success();
  }
};

/// index.Tensor(self, indices): advanced indexing by integer index tensors,
/// with Nones for the dims taken whole (x[a, b], x[:, a], x[a, :, b]; the
/// dims after the list are taken whole too). The index tensors broadcast to
/// B; B's dims replace the indexed dims when the index tensors are adjacent
/// in the list, and lead the result otherwise, as in PyTorch (and NumPy).
/// One generic over the result reads each index tensor (broadcast) and
/// extracts self's element at those indices, negative ones counting from
/// the end. A boolean mask is decomposed before (DecomposeIndexByMask).
class AdvancedIndexLowering
    : public OpConversionPattern<ts::AtenIndexTensorOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenIndexTensorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto sourceType =
        llvm::dyn_cast<RankedTensorType>(adaptor.getSelf().getType());
    auto list = op.getIndices().getDefiningOp<ts::PrimListConstructOp>();
    if (!resultType || !sourceType || !list)
      return rewriter.notifyMatchFailure(op, "expected static tensors and a "
                                             "prim::ListConstruct of indices");
    int64_t rank = sourceType.getRank();
    SmallVector<Value> indices;
    SmallVector<int64_t> indexedDims;
    bool adjacent = true;
    int64_t dim = 0;
    for (Value element : list.getElements()) {
      if (dim >= rank)
        return rewriter.notifyMatchFailure(op, "more indices than dims");
      if (isConstNone(element)) {
        ++dim;
        continue;
      }
      Value index = rewriter.getRemappedValue(element);
      auto type = index ? llvm::dyn_cast<RankedTensorType>(index.getType())
                        : RankedTensorType();
      auto integer = type ? llvm::dyn_cast<IntegerType>(type.getElementType())
                          : IntegerType();
      if (!integer || integer.getWidth() == 1)
        return rewriter.notifyMatchFailure(op, "an index is not a static "
                                               "integer tensor");
      if (!indexedDims.empty() && indexedDims.back() != dim - 1)
        adjacent = false;
      indices.push_back(index);
      indexedDims.push_back(dim++);
    }
    if (indices.empty())
      return rewriter.notifyMatchFailure(op, "no index tensor");
    // B, the indices' broadcast shape.
    std::optional<SmallVector<int64_t>> broadcastShape =
        broadcastShapes(indices);
    if (!broadcastShape)
      return rewriter.notifyMatchFailure(op, "indices do not broadcast");
    ArrayRef<int64_t> broadcast = *broadcastShape;
    int64_t nb = broadcast.size();
    // The result: B at `start`, the dims taken whole around it in order;
    // `position[d]` is where self's dim d (not indexed) is in the result.
    int64_t start = adjacent ? indexedDims.front() : 0;
    SmallVector<int64_t> shape, position(rank, -1);
    for (int64_t d = 0; d < rank; ++d) {
      if (llvm::is_contained(indexedDims, d))
        continue;
      if (static_cast<int64_t>(shape.size()) == start)
        llvm::append_range(shape, broadcast);
      position[d] = shape.size();
      shape.push_back(sourceType.getDimSize(d));
    }
    if (static_cast<int64_t>(shape.size()) == start)
      llvm::append_range(shape, broadcast);
    if (resultType.getShape() != ArrayRef<int64_t>(shape))
      return rewriter.notifyMatchFailure(op, "result shape is wrong");
    // Each index read at B's dims of the result, size-1 dims broadcast.
    MLIRContext *ctx = op.getContext();
    SmallVector<AffineMap> maps;
    for (Value index : indices) {
      ArrayRef<int64_t> indexShape = getTensorType(index).getShape();
      int64_t offset = nb - indexShape.size();
      SmallVector<AffineExpr> exprs;
      for (auto [d, size] : llvm::enumerate(indexShape))
        exprs.push_back(size == 1 && broadcast[offset + d] != 1
                            ? getAffineConstantExpr(0, ctx)
                            : getAffineDimExpr(start + offset + d, ctx));
      maps.push_back(AffineMap::get(resultType.getRank(), 0, exprs, ctx));
    }
    maps.push_back(rewriter.getMultiDimIdentityMap(resultType.getRank()));
    SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                               utils::IteratorType::parallel);
    Location loc = op.getLoc();
    Value source = adaptor.getSelf();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, indices,
        ValueRange{createEmpty(rewriter, loc, resultType)}, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          SmallVector<Value> at;
          for (int64_t d = 0; d < rank; ++d) {
            if (position[d] >= 0) {
              at.push_back(linalg::IndexOp::create(b, l, position[d]));
              continue;
            }
            auto k = llvm::find(indexedDims, d) - indexedDims.begin();
            Value i = wrapNegative(b, l, args[k], sourceType.getDimSize(d));
            at.push_back(arith::IndexCastOp::create(b, l, b.getIndexType(), i));
          }
          linalg::YieldOp::create(
              b, l, tensor::ExtractOp::create(b, l, source, at).getResult());
        });
    remapListOperands(rewriter, op);
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// gather: out[i][j][k] = self[i][index[i][j][k]][k] for dim 1.
class GatherLowering : public OpConversionPattern<ts::AtenGatherOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenGatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto sourceType =
        llvm::dyn_cast<RankedTensorType>(adaptor.getSelf().getType());
    auto indexType =
        llvm::dyn_cast<RankedTensorType>(adaptor.getIndex().getType());
    if (!resultType || !sourceType || !indexType || sourceType.getRank() == 0 ||
        indexType.getRank() != sourceType.getRank() ||
        resultType.getShape() != indexType.getShape())
      return rewriter.notifyMatchFailure(op, "expected static tensors of one "
                                             "rank, the result shaped as the "
                                             "index");
    std::optional<int64_t> dimArg = getConstInt(op.getDim());
    std::optional<int64_t> dim =
        dimArg ? wrapDim(*dimArg, sourceType.getRank()) : std::nullopt;
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim is not a constant in range");
    if (!llvm::isa<IntegerType>(indexType.getElementType()))
      return rewriter.notifyMatchFailure(op, "index is not an integer tensor");
    AffineMap map = rewriter.getMultiDimIdentityMap(indexType.getRank());
    remapListOperands(rewriter, op);
    rewriter.replaceOp(op, buildGather(rewriter, op.getLoc(), adaptor.getSelf(),
                                       *dim, 1, adaptor.getIndex(), map,
                                       resultType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// _grad_sum_to_size
//===----------------------------------------------------------------------===//

/// _grad_sum_to_size: sums the dims broadcasting added (leading dims, and
/// size-1 dims of the target); None leaves the tensor as it is.
class GradSumToSizeLowering
    : public OpConversionPattern<ts::Aten_GradSumToSizeOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::Aten_GradSumToSizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto inputType =
        llvm::dyn_cast<RankedTensorType>(adaptor.getSelf().getType());
    if (!resultType || !inputType)
      return rewriter.notifyMatchFailure(op, "expected static tensors");
    if (inputType == resultType) {
      remapListOperands(rewriter, op);
      rewriter.replaceOp(op, adaptor.getSelf());
      return success();
    }
    int64_t offset = inputType.getRank() - resultType.getRank();
    if (offset < 0)
      return rewriter.notifyMatchFailure(op, "result has more dims");
    SmallVector<int64_t> dims;
    for (int64_t d = 0; d < inputType.getRank(); ++d) {
      if (d < offset) {
        dims.push_back(d);
        continue;
      }
      int64_t to = resultType.getDimSize(d - offset);
      int64_t from = inputType.getDimSize(d);
      if (to == 1 && from != 1)
        dims.push_back(d);
      else if (to != from)
        return rewriter.notifyMatchFailure(op, "size is no broadcast source "
                                               "of the input");
    }
    Type element = resultType.getElementType();
    if (!element.isIntOrFloat())
      return rewriter.notifyMatchFailure(op, "element type is not a number");
    Location loc = op.getLoc();
    Value zero = createScalarConstant(rewriter, loc, element, 0);
    Value sum = buildReduction(
        rewriter, loc, adaptor.getSelf(), dims, /*keepdim=*/false, element,
        zero, [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
          if (llvm::isa<FloatType>(x.getType()))
            return arith::AddFOp::create(b, l, x, acc);
          return arith::AddIOp::create(b, l, x, acc);
        });
    remapListOperands(rewriter, op);
    rewriter.replaceOp(op, reshapeToType(rewriter, loc, sum, resultType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Sizes and lists
//===----------------------------------------------------------------------===//

/// size.int, dim, numel of a static tensor: i64 constants.
class SizeLowering : public NamedOpLowering {
public:
  SizeLowering(const TypeConverter &converter, MLIRContext *ctx,
               StringRef name)
      : NamedOpLowering(converter, ctx, name) {
    addDebugLabels(kDynamicSizesLabel);
  }

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto tensor = llvm::dyn_cast<RankedTensorType>(operands[0].getType());
    if (!tensor)
      return rewriter.notifyMatchFailure(op, "tensor has no known sizes");
    ArrayRef<int64_t> shape = tensor.getShape();
    Location loc = op->getLoc();
    // Dynamic sizes are read at run time.
    auto size = [&](int64_t d) {
      return getValueOrCreateConstantIndexOp(
          rewriter, loc, getDimSize(rewriter, loc, operands[0], d));
    };
    Value value;
    if (llvm::isa<ts::AtenDimOp>(op)) {
      value = indexConstant(rewriter, loc, shape.size());
    } else if (llvm::isa<ts::AtenNumelOp>(op)) {
      value = indexConstant(rewriter, loc, 1);
      for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
        value = arith::MulIOp::create(rewriter, loc, value, size(d));
    } else {
      std::optional<int64_t> dimArg = getConstInt(op->getOperand(1));
      if (!dimArg)
        return rewriter.notifyMatchFailure(op, "dim is not constant");
      std::optional<int64_t> dim = wrapDim(*dimArg, shape.size());
      if (!dim || shape.empty())
        return rewriter.notifyMatchFailure(op, "dim out of range");
      value = size(*dim);
    }
    remapListOperands(rewriter, op);
    rewriter.replaceOpWithNewOp<arith::IndexCastOp>(op, rewriter.getI64Type(),
                                                    value);
    return success();
  }
};

/// aten::size of a static tensor: a constant int list, read at compile time
/// by the ops that use it and erased with the other constants.
class SizeListLowering : public OpConversionPattern<ts::AtenSizeOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenSizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> shape = getStaticSizes(op.getSelf());
    if (!shape)
      return rewriter.notifyMatchFailure(op, "tensor has no static shape");
    SmallVector<Attribute> sizes;
    for (int64_t s : *shape)
      sizes.push_back(rewriter.getI64IntegerAttr(s));
    rewriter.replaceOpWithNewOp<ts::PrimConstantOp>(
        op, op.getType(), rewriter.getArrayAttr(sizes));
    return success();
  }
};

/// prim::device, prim::dtype and prim::layout of a static tensor: constants
/// (`cpu`, the dtype's c10::ScalarType code, strided). Their users read them
/// at compile time; the lowering keeps every tensor in host memory.
class TensorPropertyLowering : public NamedOpLowering {
public:
  using NamedOpLowering::NamedOpLowering;

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Attribute value;
    if (llvm::isa<ts::PrimDeviceOp>(op)) {
      value = rewriter.getStringAttr("cpu");
    } else if (llvm::isa<ts::PrimLayoutOp>(op)) {
      value = rewriter.getI64IntegerAttr(0);
    } else {
      std::optional<int64_t> code =
          ts::getScalarTypeCode(getTSDtype(op->getOperand(0)));
      if (!code)
        return rewriter.notifyMatchFailure(op, "dtype is unknown");
      value = rewriter.getI64IntegerAttr(*code);
    }
    rewriter.replaceOpWithNewOp<ts::PrimConstantOp>(
        op, op->getResult(0).getType(), value);
    return success();
  }
};

/// The element `index` of a list known at compile time (a
/// prim::ListConstruct, a constant int list, aten::size of a static tensor),
/// converted; a negative index counts from the end.
static FailureOr<Value> getListElement(ConversionPatternRewriter &rewriter,
                                       Location loc, Value list, int64_t index,
                                       Type resultType) {
  if (auto construct = list.getDefiningOp<ts::PrimListConstructOp>()) {
    int64_t n = construct.getElements().size();
    if (index < -n || index >= n)
      return failure();
    Value element = construct.getElements()[index < 0 ? index + n : index];
    Value converted = rewriter.getRemappedValue(element);
    if (!converted)
      return failure();
    return converted;
  }
  std::optional<SmallVector<int64_t>> ints = getCompileTimeIntList(list);
  if (!ints || !resultType.isInteger(64))
    return failure();
  int64_t n = ints->size();
  if (index < -n || index >= n)
    return failure();
  return createScalarConstant(rewriter, loc, resultType,
                              (*ints)[index < 0 ? index + n : index]);
}

/// __getitem__.t of a list known at compile time with a constant index.
class GetItemLowering : public OpConversionPattern<ts::Aten__Getitem__TOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::Aten__Getitem__TOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> index = getConstInt(op.getIdx());
    if (!index)
      return rewriter.notifyMatchFailure(op, "index is not constant");
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result type does not convert");
    FailureOr<Value> element = getListElement(
        rewriter, op.getLoc(), op.getListValue(), *index, resultType);
    if (failed(element))
      return rewriter.notifyMatchFailure(op, "list is not known at compile "
                                             "time, or index out of range");
    remapListOperands(rewriter, op);
    rewriter.replaceOp(op, *element);
    return success();
  }
};

/// len.t of a list whose length is known at compile time.
class LenLowering : public OpConversionPattern<ts::AtenLenTOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenLenTOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t n;
    if (auto construct = op.getA().getDefiningOp<ts::PrimListConstructOp>())
      n = construct.getElements().size();
    else if (std::optional<SmallVector<int64_t>> ints =
                 getCompileTimeIntList(op.getA()))
      n = ints->size();
    else
      return rewriter.notifyMatchFailure(op, "list length is not known at "
                                             "compile time");
    remapListOperands(rewriter, op);
    rewriter.replaceOp(op, createScalarConstant(rewriter, op.getLoc(),
                                                rewriter.getI64Type(), n));
    return success();
  }
};

/// prim::ListUnpack of a list known at compile time (lists from chunk,
/// split and unbind are unpacked by their own pattern).
class ListUnpackLowering : public OpConversionPattern<ts::PrimListUnpackOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::PrimListUnpackOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<size_t> length;
    if (auto construct = op.getList().getDefiningOp<ts::PrimListConstructOp>())
      length = construct.getElements().size();
    else if (std::optional<SmallVector<int64_t>> ints =
                 getCompileTimeIntList(op.getList()))
      length = ints->size();
    if (!length)
      return rewriter.notifyMatchFailure(op, "list is not known at compile "
                                             "time");
    if (*length != op.getNumResults())
      return rewriter.notifyMatchFailure(op, "list length differs from the "
                                             "number of results");
    SmallVector<Value> values;
    for (unsigned i = 0; i < op.getNumResults(); ++i) {
      Type type = getTypeConverter()->convertType(op.getResult(i).getType());
      if (!type)
        return rewriter.notifyMatchFailure(op, "result type does not convert");
      FailureOr<Value> element =
          getListElement(rewriter, op.getLoc(), op.getList(), i, type);
      if (failed(element))
        return rewriter.notifyMatchFailure(op, "an element does not convert");
      values.push_back(*element);
    }
    remapListOperands(rewriter, op);
    rewriter.replaceOp(op, values);
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Pattern Population
//===----------------------------------------------------------------------===//

void lowering::populateDataMovementPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ConstantChunkLowering, GatherLowering, GetItemLowering,
               GradSumToSizeLowering, LenLowering, ListUnpackLowering,
               RepeatLowering, SizeListLowering, SliceLowering, FlipLowering>(
      converter, ctx);
  for (StringRef name :
       getOperationNames<ts::AtenBroadcastToOp, ts::AtenExpandOp,
                         ts::AtenExpandAsOp>())
    patterns.add<BroadcastLowering>(converter, ctx, name);
  for (StringRef name : getOperationNames<ts::AtenCatOp, ts::AtenStackOp>())
    patterns.add<ConcatLowering>(converter, ctx, name);
  patterns.add<IndexSelectLowering>(converter, ctx,
                                    ts::AtenIndexSelectOp::getOperationName());
  patterns.add<AdvancedIndexLowering>(converter, ctx);
  for (StringRef name :
       getOperationNames<ts::AtenChunkOp, ts::AtenSplitTensorOp,
                         ts::AtenSplitWithSizesOp, ts::AtenUnbindIntOp>())
    patterns.add<ListSplitLowering>(converter, ctx, name);
  for (StringRef name : getOperationNames<ts::AtenPermuteOp, ts::AtenTOp,
                                          ts::AtenTransposeIntOp>())
    patterns.add<PermuteLowering>(converter, ctx, name);
  for (StringRef name :
       getOperationNames<ts::AtenFlattenUsingIntsOp, ts::AtenReshapeOp,
                         ts::AtenReshapeAsOp, ts::AtenSqueezeOp,
                         ts::AtenSqueezeDimOp, ts::AtenUnsqueezeOp,
                         ts::AtenViewOp, ts::AtenViewAsOp, ts::PrimDataOp>())
    patterns.add<ReshapeLowering>(converter, ctx, name);
  for (StringRef name :
       getOperationNames<ts::AtenNarrowOp, ts::AtenSelectIntOp>())
    patterns.add<SelectLowering>(converter, ctx, name);
  for (StringRef name : getOperationNames<ts::AtenSliceScatterOp,
                                          ts::AtenSelectScatterOp>())
    patterns.add<ScatterLowering>(converter, ctx, name);
  for (StringRef name :
       getOperationNames<ts::AtenDimOp, ts::AtenNumelOp, ts::AtenSizeIntOp>())
    patterns.add<SizeLowering>(converter, ctx, name);
  for (StringRef name :
       getOperationNames<ts::PrimDeviceOp, ts::PrimDtypeOp, ts::PrimLayoutOp>())
    patterns.add<TensorPropertyLowering>(converter, ctx, name);
}
