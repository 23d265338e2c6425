//===- Scatter.cpp - Writes at indices read from a tensor -------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// scatter (src, value, reduce add / multiply), scatter_add, scatter_reduce
// (sum, prod, mean, amax, amin, with or without self), index_add and
// index_put (integer index tensors, or one boolean mask; accumulating or
// not). Their in-place forms become these by mutation removal.
//
// Each is a nest of scf.for loops over the elements written, in PyTorch's
// order, carrying the result tensor (self's value to start with) and
// updating one element per iteration with tensor.extract / tensor.insert;
// bufferization makes the updates in place. Writes to one element by
// several iterations happen in order: the last write wins, and reductions
// see the elements in index order (PyTorch's CPU kernels do the same;
// its GPU kernels leave the order undefined).
//
// An index out of range aborts the program with PyTorch's message
// (cf.assert), as PyTorch raises; index_put counts negative indices from
// the end, as indexing does, the others reject them, as PyTorch does.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "Utils.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::lowering;

namespace {

enum class Reduce { None, Sum, Prod, Mean, Max, Min };

/// The reduction a `reduce` string names, or nullopt. scatter's `reduce=`
/// takes add / multiply, scatter_reduce's sum / prod / mean / amax / amin.
std::optional<Reduce> parseReduce(StringRef name, bool twoForm) {
  if (!twoForm)
    return llvm::StringSwitch<std::optional<Reduce>>(name)
        .Case("add", Reduce::Sum)
        .Case("multiply", Reduce::Prod)
        .Default(std::nullopt);
  return llvm::StringSwitch<std::optional<Reduce>>(name)
      .Case("sum", Reduce::Sum)
      .Case("prod", Reduce::Prod)
      .Case("mean", Reduce::Mean)
      .Case("amax", Reduce::Max)
      .Case("amin", Reduce::Min)
      .Default(std::nullopt);
}

/// `old` combined with `v` (both of the result's element type).
Value combine(OpBuilder &b, Location loc, Reduce reduce, Value old, Value v,
              bool isUnsigned) {
  Type t = v.getType();
  bool isBool = t.isInteger(1);
  bool fp = llvm::isa<FloatType>(t);
  switch (reduce) {
  case Reduce::None:
    return v;
  case Reduce::Sum:
  case Reduce::Mean:
    if (isBool)
      return arith::OrIOp::create(b, loc, old, v);
    return fp ? Value(arith::AddFOp::create(b, loc, old, v))
              : Value(arith::AddIOp::create(b, loc, old, v));
  case Reduce::Prod:
    if (isBool)
      return arith::AndIOp::create(b, loc, old, v);
    return fp ? Value(arith::MulFOp::create(b, loc, old, v))
              : Value(arith::MulIOp::create(b, loc, old, v));
  case Reduce::Max:
    if (fp)
      return arith::MaximumFOp::create(b, loc, old, v);
    return isUnsigned || isBool
               ? Value(arith::MaxUIOp::create(b, loc, old, v))
               : Value(arith::MaxSIOp::create(b, loc, old, v));
  case Reduce::Min:
    if (fp)
      return arith::MinimumFOp::create(b, loc, old, v);
    return isUnsigned || isBool
               ? Value(arith::MinUIOp::create(b, loc, old, v))
               : Value(arith::MinSIOp::create(b, loc, old, v));
  }
  llvm_unreachable("unknown reduction");
}

/// The value a reduction starts from when self is left out.
Value identity(OpBuilder &b, Location loc, Reduce reduce, Type t,
               bool isUnsigned) {
  if (reduce == Reduce::Prod)
    return createScalarConstant(b, loc, t, 1);
  if (reduce != Reduce::Max && reduce != Reduce::Min)
    return createScalarConstant(b, loc, t, 0);
  bool max = reduce == Reduce::Max;
  if (auto f = llvm::dyn_cast<FloatType>(t))
    return arith::ConstantOp::create(
        b, loc, b.getFloatAttr(f, APFloat::getInf(f.getFloatSemantics(),
                                                  /*Negative=*/max)));
  unsigned w = t.getIntOrFloatBitWidth();
  APInt v = isUnsigned || w == 1
                ? (max ? APInt::getMinValue(w) : APInt::getMaxValue(w))
                : (max ? APInt::getSignedMinValue(w)
                       : APInt::getSignedMaxValue(w));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v));
}

/// The element of `index` at `ivs` as an `index` value, checked to lie in
/// [0, size) (negative ones first counted from the end when `wrap`); out of
/// range aborts with PyTorch's message.
Value readIndex(OpBuilder &b, Location loc, Value index, ValueRange ivs,
                int64_t size, int64_t dim, bool wrap) {
  Value i = tensor::ExtractOp::create(b, loc, index, ivs);
  i = castScalar(b, loc, i, b.getI64Type());
  Value zero = createScalarConstant(b, loc, b.getI64Type(), 0);
  Value n = createScalarConstant(b, loc, b.getI64Type(), size);
  if (wrap) {
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, zero);
    i = arith::SelectOp::create(b, loc, negative,
                                arith::AddIOp::create(b, loc, i, n), i);
  }
  Value low = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, i, zero);
  Value high = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, n);
  Value ok = arith::AndIOp::create(b, loc, low, high);
  cf::AssertOp::create(b, loc, ok,
                       "index out of bounds for dimension " +
                           std::to_string(dim) + " with size " +
                           std::to_string(size));
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), i);
}

/// acc[at] = combine(acc[at], v).
Value update(OpBuilder &b, Location loc, Value acc, ValueRange at, Value v,
             Reduce reduce, bool isUnsigned) {
  if (reduce != Reduce::None)
    v = combine(b, loc, reduce, tensor::ExtractOp::create(b, loc, acc, at), v,
                isUnsigned);
  return tensor::InsertOp::create(b, loc, v, acc, at);
}

/// `ivs` of a loop over `shape` read from a tensor of `operandShape`
/// broadcast to it (trailing-aligned, size-1 dims at 0).
SmallVector<Value> broadcastIndices(OpBuilder &b, Location loc,
                                    ValueRange ivs, ArrayRef<int64_t> shape,
                                    ArrayRef<int64_t> operandShape) {
  SmallVector<Value> at;
  int64_t offset = shape.size() - operandShape.size();
  for (auto [d, size] : llvm::enumerate(operandShape))
    at.push_back(size == 1 && shape[offset + d] != 1 ? indexConstant(b, loc, 0)
                                                     : ivs[offset + d]);
  return at;
}

/// mean's last step: acc / max(count, 1), floor division for integers.
Value divideByCount(OpBuilder &b, Location loc, Value acc, Value count,
                    RankedTensorType type) {
  return buildElementwise(
      b, loc, type, {acc, count},
      [&](OpBuilder &nb, Location l, ValueRange e) -> Value {
        Type t = e[0].getType();
        Value one = createScalarConstant(nb, l, t, 1);
        if (llvm::isa<FloatType>(t)) {
          Value zero = createScalarConstant(nb, l, t, 0);
          Value none =
              arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ, e[1], zero);
          Value c = arith::SelectOp::create(nb, l, none, one, e[1]);
          return arith::DivFOp::create(nb, l, e[0], c);
        }
        Value zero = createScalarConstant(nb, l, t, 0);
        Value none =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, e[1], zero);
        Value c = arith::SelectOp::create(nb, l, none, one, e[1]);
        return arith::FloorDivSIOp::create(nb, l, e[0], c);
      });
}

/// scatter.src / .value / .reduce / .value_reduce, scatter_add and
/// scatter_reduce.two: for every element p of index,
/// self[p with p[dim] = index[p]] (op)= src[p] (or value).
class ScatterLowering : public NamedOpLowering {
public:
  ScatterLowering(const TypeConverter &converter, MLIRContext *ctx,
                  StringRef name, bool scalarSource,
                  std::optional<Reduce> fixed, bool twoForm)
      : NamedOpLowering(converter, ctx, name), scalarSource(scalarSource),
        fixed(fixed), twoForm(twoForm) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto selfType = getTensorType(operands[0]);
    auto indexType = getTensorType(operands[2]);
    if (!resultType || !selfType || !indexType ||
        indexType.getRank() != selfType.getRank() ||
        !llvm::isa<IntegerType>(indexType.getElementType()) ||
        indexType.getElementType().isInteger(1))
      return rewriter.notifyMatchFailure(op, "expected static tensors and an "
                                             "integer index of self's rank");
    int64_t rank = selfType.getRank();
    std::optional<int64_t> dimArg = getConstInt(op->getOperand(1));
    std::optional<int64_t> dim =
        dimArg ? wrapDim(*dimArg, std::max<int64_t>(rank, 1)) : std::nullopt;
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim is not a constant in range");
    Reduce reduce = fixed.value_or(Reduce::None);
    bool includeSelf = true;
    if (!fixed && op->getNumOperands() > 4) {
      std::optional<Reduce> named =
          parseReduce(getConstString(op->getOperand(4)), twoForm);
      if (!named)
        return rewriter.notifyMatchFailure(op, "unknown reduce");
      reduce = *named;
      if (twoForm) {
        std::optional<bool> include = getConstBool(op->getOperand(5));
        if (!include)
          return rewriter.notifyMatchFailure(op, "include_self not constant");
        includeSelf = *include;
      }
    }
    Location loc = op->getLoc();
    Type element = resultType.getElementType();
    bool isUnsigned = isUnsignedDtype(getTSDtype(op->getResult(0)));
    Value src = operands[3];
    Value scalar;
    if (scalarSource) {
      if (!llvm::isa<IntegerType, FloatType>(src.getType()))
        return rewriter.notifyMatchFailure(op, "value is not a number");
      scalar = castScalar(rewriter, loc, src, element);
    } else {
      auto srcType = getTensorType(src);
      if (!srcType || srcType.getRank() != rank)
        return rewriter.notifyMatchFailure(op, "src is not of self's rank");
      for (int64_t d = 0; d < rank; ++d)
        if (srcType.getDimSize(d) < indexType.getDimSize(d))
          return rewriter.notifyMatchFailure(op, "src is smaller than index");
      src = castElementType(rewriter, loc, src, element,
                            isUnsignedDtype(getTSDtype(op->getOperand(3))));
    }
    Value index = operands[2];
    int64_t size = rank == 0 ? 1 : selfType.getDimSize(*dim);
    // The position p of index with p[dim] replaced by index[p].
    auto target = [&](OpBuilder &b, Location l, ValueRange ivs) {
      Value i = readIndex(b, l, index, ivs, size, *dim, /*wrap=*/false);
      SmallVector<Value> at(ivs);
      if (rank > 0)
        at[*dim] = i;
      return at;
    };
    Value acc = operands[0];
    if (!includeSelf)
      acc = loopOver(rewriter, loc, indexType.getShape(), {acc},
                     [&](OpBuilder &b, Location l, ValueRange ivs,
                         ValueRange carried) -> SmallVector<Value> {
                       Value id = identity(b, l, reduce, element, isUnsigned);
                       return {tensor::InsertOp::create(
                           b, l, id, carried[0], target(b, l, ivs))};
                     })[0];
    Value count;
    if (reduce == Reduce::Mean)
      count = createFilled(
          rewriter, loc, resultType,
          createScalarConstant(rewriter, loc, element, includeSelf ? 1 : 0));
    SmallVector<Value> inits = {acc};
    if (count)
      inits.push_back(count);
    SmallVector<Value> results = loopOver(
        rewriter, loc, indexType.getShape(), inits,
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange carried) -> SmallVector<Value> {
          SmallVector<Value> at = target(b, l, ivs);
          Value v = scalar ? scalar : tensor::ExtractOp::create(b, l, src, ivs);
          SmallVector<Value> next = {
              update(b, l, carried[0], at, v, reduce, isUnsigned)};
          if (count)
            next.push_back(update(b, l, carried[1], at,
                                  createScalarConstant(b, l, element, 1),
                                  Reduce::Sum, isUnsigned));
          return next;
        });
    Value result = results[0];
    if (count)
      result = divideByCount(rewriter, loc, result, results[1], resultType);
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  bool scalarSource;
  std::optional<Reduce> fixed;
  bool twoForm;
};

/// index_add(self, dim, index, source, alpha): for every element p of
/// source, self[p with p[dim] = index[p[dim]]] += alpha * source[p].
class IndexAddLowering : public OpConversionPattern<ts::AtenIndexAddOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenIndexAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto selfType = getTensorType(adaptor.getSelf());
    auto indexType = getTensorType(adaptor.getIndex());
    auto sourceType = getTensorType(adaptor.getSource());
    if (!resultType || !selfType || !indexType || !sourceType ||
        indexType.getRank() > 1 ||
        !llvm::isa<IntegerType>(indexType.getElementType()) ||
        sourceType.getRank() != selfType.getRank())
      return rewriter.notifyMatchFailure(op, "expected static tensors, a 1-D "
                                             "integer index");
    int64_t rank = selfType.getRank();
    std::optional<int64_t> dimArg = getConstInt(op.getDim());
    std::optional<int64_t> dim =
        dimArg ? wrapDim(*dimArg, std::max<int64_t>(rank, 1)) : std::nullopt;
    if (!dim)
      return rewriter.notifyMatchFailure(op, "dim is not a constant in range");
    if (!llvm::isa<IntegerType, FloatType>(adaptor.getAlpha().getType()))
      return rewriter.notifyMatchFailure(op, "alpha is not a number");
    Location loc = op.getLoc();
    Type element = resultType.getElementType();
    bool isUnsigned = isUnsignedDtype(getTSDtype(op.getResult()));
    Value source = castElementType(
        rewriter, loc, adaptor.getSource(), element,
        isUnsignedDtype(getTSDtype(op.getSource())));
    Value alpha = castScalar(rewriter, loc, adaptor.getAlpha(), element);
    std::optional<int64_t> alphaValue = getConstNumber(op.getAlpha());
    bool unitAlpha = alphaValue && *alphaValue == 1;
    int64_t size = rank == 0 ? 1 : selfType.getDimSize(*dim);
    Value index = adaptor.getIndex();
    Value result =
        loopOver(rewriter, loc, sourceType.getShape(), {adaptor.getSelf()},
                 [&](OpBuilder &b, Location l, ValueRange ivs,
                     ValueRange carried) -> SmallVector<Value> {
                   SmallVector<Value> at(ivs);
                   SmallVector<Value> indexAt;
                   if (indexType.getRank() == 1)
                     indexAt.push_back(rank == 0 ? indexConstant(b, l, 0)
                                                 : ivs[*dim]);
                   Value i = readIndex(b, l, index, indexAt, size, *dim,
                                       /*wrap=*/false);
                   if (rank > 0)
                     at[*dim] = i;
                   Value v = tensor::ExtractOp::create(b, l, source, ivs);
                   if (!unitAlpha)
                     v = combine(b, l, Reduce::Prod, alpha, v, isUnsigned);
                   return {update(b, l, carried[0], at, v, Reduce::Sum,
                                  isUnsigned)};
                 })[0];
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// index_put(self, indices, values, accumulate) (and .hacked_twin): self
/// indexed as `self[indices] = values` (or +=).
///
/// * Integer index tensors at consecutive positions, after Nones: they
///   broadcast to shape B; the written elements are [pre, B, post] (the dims
///   before taken whole, then B, then the dims after), values broadcast to
///   it. Negative indices count from the end.
/// * One boolean mask over the leading dims: the elements where it is true,
///   in order; values are broadcast to the dims after the mask, or read one
///   row per true element ([N, post...]).
class IndexPutLowering : public NamedOpLowering {
public:
  using NamedOpLowering::NamedOpLowering;

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getResultType(getTypeConverter(), op);
    auto selfType = getTensorType(operands[0]);
    auto valuesType = getTensorType(operands[2]);
    std::optional<bool> accumulate = getConstBool(op->getOperand(3));
    auto list = op->getOperand(1).getDefiningOp<ts::PrimListConstructOp>();
    if (!resultType || !selfType || !valuesType || !accumulate || !list)
      return rewriter.notifyMatchFailure(op, "expected static tensors, known "
                                             "indices and accumulate");
    // Nones, then the index tensors; dims after them are taken whole.
    int64_t first = -1;
    SmallVector<Value> indices;
    for (auto [i, element] : llvm::enumerate(list.getElements())) {
      if (isConstNone(element)) {
        if (first >= 0)
          return rewriter.notifyMatchFailure(op, "a None after an index "
                                                 "tensor");
        continue;
      }
      if (first < 0)
        first = i;
      Value converted = rewriter.getRemappedValue(element);
      if (!converted || !getTensorType(converted))
        return rewriter.notifyMatchFailure(op, "index is not a static tensor");
      indices.push_back(converted);
    }
    if (indices.empty())
      return rewriter.notifyMatchFailure(op, "no index tensor");
    Location loc = op->getLoc();
    Type element = resultType.getElementType();
    bool isUnsigned = isUnsignedDtype(getTSDtype(op->getResult(0)));
    Value values = castElementType(rewriter, loc, operands[2], element,
                                   isUnsignedDtype(getTSDtype(op->getOperand(2))));
    Reduce reduce = *accumulate ? Reduce::Sum : Reduce::None;
    auto firstType = getTensorType(indices.front());
    Value result;
    if (firstType.getElementType().isInteger(1)) {
      if (indices.size() != 1 || first != 0)
        return rewriter.notifyMatchFailure(op, "a boolean mask must be the "
                                               "only index, over the leading "
                                               "dims");
      FailureOr<Value> masked =
          buildMasked(rewriter, loc, operands[0], indices.front(), values,
                      reduce, isUnsigned);
      if (failed(masked))
        return rewriter.notifyMatchFailure(op, "mask or values do not fit "
                                               "self");
      result = *masked;
    } else {
      FailureOr<Value> put =
          buildIndexed(rewriter, loc, operands[0], first, indices, values,
                       reduce, isUnsigned);
      if (failed(put))
        return rewriter.notifyMatchFailure(op, "indices or values do not fit "
                                               "self");
      result = *put;
    }
    remapListOperands(rewriter, op);
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  static FailureOr<Value> buildIndexed(OpBuilder &b, Location loc, Value self,
                                       int64_t first, ArrayRef<Value> indices,
                                       Value values, Reduce reduce,
                                       bool isUnsigned) {
    auto selfType = llvm::cast<RankedTensorType>(self.getType());
    int64_t k = indices.size();
    if (first + k > selfType.getRank())
      return failure();
    // The indices' broadcast shape B.
    for (Value index : indices)
      if (!llvm::isa<IntegerType>(
              llvm::cast<RankedTensorType>(index.getType()).getElementType()))
        return failure();
    std::optional<SmallVector<int64_t>> broadcastShape =
        broadcastShapes(indices);
    if (!broadcastShape)
      return failure();
    ArrayRef<int64_t> broadcast = *broadcastShape;
    ArrayRef<int64_t> selfShape = selfType.getShape();
    SmallVector<int64_t> space(selfShape.take_front(first));
    llvm::append_range(space, broadcast);
    llvm::append_range(space, selfShape.drop_front(first + k));
    ArrayRef<int64_t> valuesShape =
        llvm::cast<RankedTensorType>(values.getType()).getShape();
    if (valuesShape.size() > space.size())
      return failure();
    for (auto [d, size] : llvm::enumerate(valuesShape))
      if (size != 1 && size != space[space.size() - valuesShape.size() + d])
        return failure();
    int64_t b0 = first, nb = broadcast.size();
    return loopOver(
        b, loc, space, {self},
        [&](OpBuilder &nb_, Location l, ValueRange ivs,
            ValueRange carried) -> SmallVector<Value> {
          SmallVector<Value> at(ivs.take_front(b0));
          ValueRange bIvs = ivs.slice(b0, nb);
          for (auto [m, index] : llvm::enumerate(indices)) {
            ArrayRef<int64_t> shape =
                llvm::cast<RankedTensorType>(index.getType()).getShape();
            SmallVector<Value> indexAt =
                broadcastIndices(nb_, l, bIvs, broadcast, shape);
            at.push_back(readIndex(nb_, l, index, indexAt,
                                   selfShape[b0 + m], b0 + m, /*wrap=*/true));
          }
          llvm::append_range(at, ivs.drop_front(b0 + nb));
          Value v = tensor::ExtractOp::create(
              nb_, l, values, broadcastIndices(nb_, l, ivs, space, valuesShape));
          return {update(nb_, l, carried[0], at, v, reduce, isUnsigned)};
        })[0];
  }

  static FailureOr<Value> buildMasked(OpBuilder &b, Location loc, Value self,
                                      Value mask, Value values, Reduce reduce,
                                      bool isUnsigned) {
    auto selfType = llvm::cast<RankedTensorType>(self.getType());
    auto maskType = llvm::cast<RankedTensorType>(mask.getType());
    int64_t m = maskType.getRank();
    ArrayRef<int64_t> selfShape = selfType.getShape();
    if (m > selfType.getRank() ||
        maskType.getShape() != selfShape.take_front(m))
      return failure();
    ArrayRef<int64_t> post = selfShape.drop_front(m);
    ArrayRef<int64_t> valuesShape =
        llvm::cast<RankedTensorType>(values.getType()).getShape();
    // Values broadcast to the dims after the mask, or one row per true
    // element (then counted: a wrong count aborts, as PyTorch raises).
    bool perRow = valuesShape.size() > post.size();
    if (valuesShape.size() > post.size() + 1)
      return failure();
    ArrayRef<int64_t> rowShape =
        perRow ? valuesShape.drop_front() : valuesShape;
    for (auto [d, size] : llvm::enumerate(rowShape))
      if (size != 1 && size != post[post.size() - rowShape.size() + d])
        return failure();
    bool countRows = perRow && valuesShape[0] != 1;
    Value zero = createScalarConstant(b, loc, b.getI64Type(), 0);
    SmallVector<Value> results = loopOver(
        b, loc, maskType.getShape(), {self, zero},
        [&](OpBuilder &nb, Location l, ValueRange ivs,
            ValueRange carried) -> SmallVector<Value> {
          Value set = tensor::ExtractOp::create(nb, l, mask, ivs);
          auto ifOp = scf::IfOp::create(
              nb, l, set,
              [&](OpBuilder &tb, Location tl) {
                Value row = arith::IndexCastOp::create(
                    tb, tl, tb.getIndexType(), carried[1]);
                Value written =
                    loopOver(
                        tb, tl, post, {carried[0]},
                        [&](OpBuilder &ib, Location il, ValueRange postIvs,
                            ValueRange acc) -> SmallVector<Value> {
                          SmallVector<Value> at(ivs);
                          llvm::append_range(at, postIvs);
                          SmallVector<Value> from;
                          if (perRow)
                            from.push_back(countRows
                                               ? row
                                               : indexConstant(ib, il, 0));
                          llvm::append_range(
                              from, broadcastIndices(ib, il, postIvs, post,
                                                     rowShape));
                          Value v =
                              tensor::ExtractOp::create(ib, il, values, from);
                          return {update(ib, il, acc[0], at, v, reduce,
                                         isUnsigned)};
                        })[0];
                Value one = createScalarConstant(tb, tl, tb.getI64Type(), 1);
                Value next = arith::AddIOp::create(tb, tl, carried[1], one);
                scf::YieldOp::create(tb, tl, ValueRange{written, next});
              },
              [&](OpBuilder &eb, Location el) {
                scf::YieldOp::create(eb, el, carried);
              });
          return SmallVector<Value>(ifOp.getResults());
        });
    if (countRows) {
      Value expected =
          createScalarConstant(b, loc, b.getI64Type(), valuesShape[0]);
      Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       results[1], expected);
      cf::AssertOp::create(
          b, loc, ok,
          "shape mismatch: value tensor of " + std::to_string(valuesShape[0]) +
              " rows cannot be broadcast to the elements the mask selects");
    }
    return results[0];
  }
};

} // namespace

void lowering::populateScatterPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  auto add = [&](StringRef name, bool scalar, std::optional<Reduce> fixed,
                 bool twoForm) {
    patterns.add<ScatterLowering>(converter, ctx, name, scalar, fixed,
                                  twoForm);
  };
  add(ts::AtenScatterSrcOp::getOperationName(), false, Reduce::None, false);
  add(ts::AtenScatterValueOp::getOperationName(), true, Reduce::None, false);
  add(ts::AtenScatterReduceOp::getOperationName(), false, std::nullopt, false);
  add(ts::AtenScatterValueReduceOp::getOperationName(), true, std::nullopt,
      false);
  add(ts::AtenScatterAddOp::getOperationName(), false, Reduce::Sum, false);
  add(ts::AtenScatterReduceTwoOp::getOperationName(), false, std::nullopt,
      true);
  patterns.add<IndexAddLowering>(converter, ctx);
  for (StringRef name : getOperationNames<ts::AtenIndexPutOp,
                                          ts::AtenIndexPutHackedTwinOp>())
    patterns.add<IndexPutLowering>(converter, ctx, name);
}
