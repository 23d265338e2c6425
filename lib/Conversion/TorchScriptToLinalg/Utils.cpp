//===- Utils.cpp - Helpers shared by the ts to linalg patterns ------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/Traits.h"

#include "tsmlir/Conversion/TorchScriptToLinalg/TorchScriptToLinalg.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::lowering;

//===----------------------------------------------------------------------===//
// Compile-time values
//===----------------------------------------------------------------------===//

static Attribute getConstAttr(Value value) {
  auto cst = value.getDefiningOp<ts::PrimConstantOp>();
  return cst ? cst.getValueAttr() : Attribute();
}

std::optional<int64_t> lowering::getConstInt(Value value) {
  Attribute attr = getConstAttr(value);
  if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(attr))
    return i.getValue().getSExtValue();
  if (auto b = llvm::dyn_cast_or_null<BoolAttr>(attr))
    return b.getValue() ? 1 : 0;
  return std::nullopt;
}

std::optional<double> lowering::getConstNumber(Value value) {
  if (auto f = llvm::dyn_cast_or_null<FloatAttr>(getConstAttr(value)))
    return f.getValueAsDouble();
  if (std::optional<int64_t> i = getConstInt(value))
    return static_cast<double>(*i);
  return std::nullopt;
}

std::optional<bool> lowering::getConstBool(Value value) {
  if (auto b = llvm::dyn_cast_or_null<BoolAttr>(getConstAttr(value)))
    return b.getValue();
  if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(getConstAttr(value)))
    return !i.getValue().isZero();
  return std::nullopt;
}

StringRef lowering::getConstString(Value value) {
  auto str = llvm::dyn_cast_or_null<StringAttr>(getConstAttr(value));
  return str ? str.getValue() : StringRef();
}

bool lowering::isConstNone(Value value) {
  return llvm::isa<ts::NoneType>(ts::stripUncheckedCasts(value).getType());
}

std::optional<SmallVector<int64_t>> lowering::getConstIntList(Value value) {
  if (std::optional<int64_t> i = getConstInt(value))
    return SmallVector<int64_t>{*i};
  if (auto list = value.getDefiningOp<ts::PrimListConstructOp>()) {
    SmallVector<int64_t> result;
    for (Value element : list.getElements()) {
      std::optional<int64_t> i = getConstInt(element);
      if (!i)
        return std::nullopt;
      result.push_back(*i);
    }
    return result;
  }
  if (auto array = llvm::dyn_cast_or_null<ArrayAttr>(getConstAttr(value))) {
    SmallVector<int64_t> result;
    for (Attribute element : array) {
      auto i = llvm::dyn_cast<IntegerAttr>(element);
      if (!i)
        return std::nullopt;
      result.push_back(i.getValue().getSExtValue());
    }
    return result;
  }
  if (auto dense =
          llvm::dyn_cast_or_null<DenseI64ArrayAttr>(getConstAttr(value)))
    return SmallVector<int64_t>(dense.asArrayRef());
  return std::nullopt;
}

std::optional<int64_t> lowering::wrapDim(int64_t dim, int64_t rank) {
  int64_t bound = std::max<int64_t>(rank, 1);
  if (dim < -bound || dim >= bound)
    return std::nullopt;
  return dim < 0 ? dim + bound : dim;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

RankedTensorType lowering::getBuiltinTensorType(const TypeConverter &converter,
                                                Value value) {
  return llvm::dyn_cast_or_null<RankedTensorType>(
      converter.convertType(value.getType()));
}

RankedTensorType lowering::getResultType(const TypeConverter *converter,
                                         Operation *op, unsigned i) {
  return llvm::dyn_cast_or_null<RankedTensorType>(
      converter->convertType(op->getResult(i).getType()));
}

Type lowering::getTSDtype(Value value) {
  auto type = llvm::dyn_cast<ts::TensorType>(value.getType());
  return type ? type.getDtype() : Type();
}

bool lowering::isUnsignedDtype(Type tsDtype) {
  auto i = llvm::dyn_cast_or_null<IntegerType>(tsDtype);
  return i && i.isUnsigned();
}

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

Value lowering::castScalar(OpBuilder &b, Location loc, Value v, Type to,
                           bool unsignedSrc) {
  Type from = v.getType();
  if (from == to)
    return v;
  auto fromInt = llvm::dyn_cast<IntegerType>(from);
  auto toInt = llvm::dyn_cast<IntegerType>(to);
  auto fromFloat = llvm::dyn_cast<FloatType>(from);
  auto toFloat = llvm::dyn_cast<FloatType>(to);
  bool fromBool = fromInt && fromInt.getWidth() == 1;
  if (toInt && toInt.getWidth() == 1) {
    Value zero = createScalarConstant(b, loc, from, 0);
    if (fromFloat)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v, zero);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zero);
  }
  if (fromFloat && toFloat) {
    if (fromFloat.getWidth() < toFloat.getWidth())
      return arith::ExtFOp::create(b, loc, to, v);
    return arith::TruncFOp::create(b, loc, to, v);
  }
  if (fromInt && toFloat) {
    if (fromBool || unsignedSrc)
      return arith::UIToFPOp::create(b, loc, to, v);
    return arith::SIToFPOp::create(b, loc, to, v);
  }
  if (fromFloat && toInt)
    return arith::FPToSIOp::create(b, loc, to, v);
  if (fromInt && toInt) {
    if (fromInt.getWidth() < toInt.getWidth()) {
      if (fromBool || unsignedSrc)
        return arith::ExtUIOp::create(b, loc, to, v);
      return arith::ExtSIOp::create(b, loc, to, v);
    }
    return arith::TruncIOp::create(b, loc, to, v);
  }
  if (from.isIndex() || to.isIndex())
    return arith::IndexCastOp::create(b, loc, to, v);
  llvm_unreachable("castScalar: unsupported types");
}

Value lowering::createScalarConstant(OpBuilder &b, Location loc, Type type,
                                     double value) {
  if (auto f = llvm::dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, FloatAttr::get(f, value));
  if (type.isIndex())
    return arith::ConstantIndexOp::create(b, loc, static_cast<int64_t>(value));
  auto i = llvm::cast<IntegerType>(type);
  if (i.getWidth() == 1)
    return arith::ConstantOp::create(b, loc, b.getBoolAttr(value != 0));
  return arith::ConstantOp::create(
      b, loc, IntegerAttr::get(i, static_cast<int64_t>(value)));
}

Value lowering::indexConstant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

SmallVector<Value> lowering::loopOver(
    OpBuilder &b, Location loc, ArrayRef<int64_t> shape, ValueRange inits,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange ivs,
                                    ValueRange carried)>
        body) {
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t size : shape) {
    lbs.push_back(indexConstant(b, loc, 0));
    ubs.push_back(indexConstant(b, loc, size));
    steps.push_back(indexConstant(b, loc, 1));
  }
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, inits,
      [&](OpBuilder &nb, Location l, ValueRange ivs, ValueRange carried) {
        SmallVector<Value> next = body(nb, l, ivs, carried);
        return scf::ValueVector(next.begin(), next.end());
      });
  return SmallVector<Value>(nest.results);
}

FailureOr<SmallVector<Value>> lowering::getDynamicSizes(OpBuilder &b,
                                                        Location loc,
                                                        RankedTensorType type,
                                                        ValueRange sources) {
  SmallVector<Value> sizes;
  int64_t rank = type.getRank();
  for (int64_t d = 0; d < rank; ++d) {
    if (!type.isDynamicDim(d))
      continue;
    Value size;
    for (Value source : sources) {
      auto sourceType = llvm::dyn_cast<RankedTensorType>(source.getType());
      if (!sourceType)
        continue;
      int64_t at = d - (rank - sourceType.getRank());
      if (at >= 0 && sourceType.isDynamicDim(at)) {
        size = tensor::DimOp::create(b, loc, source, at);
        break;
      }
    }
    if (!size)
      return failure();
    sizes.push_back(size);
  }
  return sizes;
}

Value lowering::createEmpty(OpBuilder &b, Location loc, RankedTensorType type,
                            ValueRange sources) {
  FailureOr<SmallVector<Value>> sizes = getDynamicSizes(b, loc, type, sources);
  if (failed(sizes))
    return Value();
  return tensor::EmptyOp::create(b, loc, type, *sizes);
}

OpFoldResult lowering::getDimSize(OpBuilder &b, Location loc, Value value,
                                  int64_t d) {
  int64_t size = llvm::cast<RankedTensorType>(value.getType()).getDimSize(d);
  if (!ShapedType::isDynamic(size))
    return b.getIndexAttr(size);
  return tensor::DimOp::create(b, loc, value, d).getResult();
}

void lowering::checkSizesEqual(OpBuilder &b, Location loc, OpFoldResult size,
                               OpFoldResult expected, const Twine &message) {
  if (llvm::isa<Attribute>(size) && llvm::isa<Attribute>(expected))
    return;
  // The same dim of the same tensor.
  auto dimOf = [](OpFoldResult r) {
    auto v = llvm::dyn_cast<Value>(r);
    return v ? v.getDefiningOp<tensor::DimOp>() : tensor::DimOp();
  };
  tensor::DimOp a = dimOf(size), c = dimOf(expected);
  if (a && c && a.getSource() == c.getSource() && a.getConstantIndex() &&
      a.getConstantIndex() == c.getConstantIndex())
    return;
  Value equal = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      getValueOrCreateConstantIndexOp(b, loc, size),
      getValueOrCreateConstantIndexOp(b, loc, expected));
  cf::AssertOp::create(b, loc, equal, message.str());
}

Value lowering::createEmptyFromDims(OpBuilder &b, Location loc,
                                    ArrayRef<std::pair<Value, int64_t>> dims,
                                    Type element) {
  SmallVector<OpFoldResult> sizes;
  for (auto [tensor, d] : dims)
    sizes.push_back(getDimSize(b, loc, tensor, d));
  return tensor::EmptyOp::create(b, loc, sizes, element);
}

Value lowering::createFilled(OpBuilder &b, Location loc, RankedTensorType type,
                             Value value, ValueRange sources) {
  Value empty = createEmpty(b, loc, type, sources);
  if (!empty)
    return Value();
  Value scalar = castScalar(b, loc, value, type.getElementType());
  return linalg::FillOp::create(b, loc, scalar, empty).getResult(0);
}

AffineMap lowering::getBroadcastMap(MLIRContext *ctx,
                                    ArrayRef<int64_t> inputShape,
                                    ArrayRef<int64_t> resultShape) {
  int64_t rank = resultShape.size();
  int64_t offset = rank - static_cast<int64_t>(inputShape.size());
  SmallVector<AffineExpr> exprs;
  for (auto [i, size] : llvm::enumerate(inputShape)) {
    int64_t dim = offset + static_cast<int64_t>(i);
    if (size == 1 && resultShape[dim] != 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      exprs.push_back(getAffineDimExpr(dim, ctx));
  }
  return AffineMap::get(rank, 0, exprs, ctx);
}

Value lowering::buildElementwise(OpBuilder &b, Location loc,
                                 RankedTensorType resultType,
                                 ValueRange inputs, ElementwiseBody body,
                                 ValueRange sizeSources) {
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps;
  for (Value input : inputs)
    maps.push_back(getBroadcastMap(
        ctx, llvm::cast<RankedTensorType>(input.getType()).getShape(),
        resultType.getShape()));
  maps.push_back(b.getMultiDimIdentityMap(resultType.getRank()));
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  SmallVector<Value> sources(sizeSources);
  llvm::append_range(sources, inputs);
  Value init = createEmpty(b, loc, resultType, sources);
  if (!init)
    return Value();
  // Dynamic sizes are taken to equal the result's where they are not
  // broadcast: checked at run time, as PyTorch checks them.
  if (!resultType.hasStaticShape() ||
      llvm::any_of(inputs, [](Value input) {
        return !llvm::cast<RankedTensorType>(input.getType()).hasStaticShape();
      })) {
    SmallVector<OpFoldResult> resultSizes =
        llvm::cast<tensor::EmptyOp>(init.getDefiningOp()).getMixedSizes();
    int64_t rank = resultType.getRank();
    for (auto [k, input] : llvm::enumerate(inputs)) {
      auto inputType = llvm::cast<RankedTensorType>(input.getType());
      int64_t offset = rank - inputType.getRank();
      for (int64_t i = 0; i < inputType.getRank(); ++i)
        if (inputType.getDimSize(i) != 1)
          checkSizesEqual(
              b, loc, getDimSize(b, loc, input, i), resultSizes[offset + i],
              llvm::formatv("the size of operand {0} at dimension {1} does "
                            "not match the broadcast size of the others",
                            k, offset + i));
    }
  }
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = body(nested, nestedLoc, args.drop_back());
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  return generic.getResult(0);
}

Value lowering::buildReduction(OpBuilder &b, Location loc, Value input,
                               ArrayRef<int64_t> dims, bool keepdim,
                               Type accType, Value init,
                               ReductionBody combine) {
  MLIRContext *ctx = b.getContext();
  auto inputType = llvm::cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  SmallVector<int64_t> reducedShape;
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    bool reduced = llvm::is_contained(dims, d);
    iterators.push_back(reduced ? utils::IteratorType::reduction
                                : utils::IteratorType::parallel);
    if (!reduced) {
      reducedShape.push_back(inputType.getDimSize(d));
      outExprs.push_back(getAffineDimExpr(d, ctx));
    }
  }
  auto outType = RankedTensorType::get(reducedShape, accType);
  Value filled = createFilled(b, loc, outType, init);
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank),
                                 AffineMap::get(rank, 0, outExprs, ctx)};
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{outType}, ValueRange{input}, ValueRange{filled}, maps,
      iterators, [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = combine(nested, nestedLoc, args[0], args[1]);
        linalg::YieldOp::create(nested, nestedLoc, result);
      });
  Value result = generic.getResult(0);
  if (!keepdim)
    return result;
  SmallVector<int64_t> keptShape(inputType.getShape());
  for (int64_t d : dims)
    keptShape[d] = 1;
  return reshapeTo(b, loc, result, keptShape);
}

Value lowering::reshapeTo(OpBuilder &b, Location loc, Value input,
                          ArrayRef<int64_t> shape) {
  auto inputType = llvm::cast<RankedTensorType>(input.getType());
  if (inputType.getShape() == shape)
    return input;
  auto resultType = RankedTensorType::get(shape, inputType.getElementType());
  if (shape.size() > static_cast<size_t>(inputType.getRank())) {
    if (auto reassoc = getReassociationIndicesForReshape(inputType, resultType))
      return tensor::ExpandShapeOp::create(b, loc, resultType, input, *reassoc);
  } else if (auto reassoc =
                 getReassociationIndicesForReshape(inputType, resultType)) {
    return tensor::CollapseShapeOp::create(b, loc, resultType, input,
                                           *reassoc);
  }
  // A general reshape: collapse to 1-D, then expand (of static shapes).
  if (!inputType.hasStaticShape() || ShapedType::isDynamicShape(shape))
    return Value();
  int64_t n = inputType.getNumElements();
  auto flatType = RankedTensorType::get({n}, inputType.getElementType());
  Value flat = input;
  if (inputType.getRank() != 1) {
    SmallVector<ReassociationIndices> all(1);
    for (int64_t d = 0; d < inputType.getRank(); ++d)
      all[0].push_back(d);
    flat = tensor::CollapseShapeOp::create(b, loc, flatType, input, all);
  }
  if (shape.size() == 1)
    return flat;
  SmallVector<ReassociationIndices> all(1);
  for (size_t d = 0; d < shape.size(); ++d)
    all[0].push_back(d);
  return tensor::ExpandShapeOp::create(b, loc, resultType, flat, all);
}

Value lowering::castElementType(OpBuilder &b, Location loc, Value input,
                                Type elementType, bool unsignedSrc) {
  auto inputType = llvm::cast<RankedTensorType>(input.getType());
  if (inputType.getElementType() == elementType)
    return input;
  auto resultType = RankedTensorType::get(inputType.getShape(), elementType);
  return buildElementwise(
      b, loc, resultType, input,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange elements) {
        return castScalar(nested, nestedLoc, elements[0], elementType,
                          unsignedSrc);
      });
}

Value lowering::materializeOptionalTensor(OpBuilder &b, Location loc,
                                          Value original, Value converted) {
  if (llvm::isa<RankedTensorType>(converted.getType()))
    return converted;
  auto elements = llvm::dyn_cast_or_null<ElementsAttr>(getConstAttr(original));
  if (!elements)
    return Value();
  auto attrType = llvm::dyn_cast<RankedTensorType>(elements.getType());
  Type element = attrType ? convertDtype(attrType.getElementType()) : Type();
  if (!element)
    return Value();
  auto type = RankedTensorType::get(attrType.getShape(), element);
  if (auto resource = llvm::dyn_cast<DenseResourceElementsAttr>(elements))
    return arith::ConstantOp::create(
        b, loc, type,
        DenseResourceElementsAttr::get(type, resource.getRawHandle()));
  auto dense = llvm::dyn_cast<DenseElementsAttr>(elements);
  if (!dense)
    return Value();
  if (dense.getElementType() != element)
    dense = DenseElementsAttr::getFromRawBuffer(type, dense.getRawData());
  return arith::ConstantOp::create(b, loc, type, dense);
}

FailureOr<Value> lowering::getOptionalTensor(OpBuilder &b, Operation *op,
                                             ArrayRef<Value> operands,
                                             unsigned i) {
  if (isConstNone(op->getOperand(i)))
    return Value();
  Value v = materializeOptionalTensor(b, op->getLoc(), op->getOperand(i),
                                      operands[i]);
  if (!v)
    return failure();
  return v;
}

/// Points the elements of a prim::ListConstruct that the conversion replaces
/// (all but constants) at their converted values. The list stays legal and
/// is erased after the conversion once unused; pointing it at the converted
/// values keeps the unconverted ones from outliving the conversion.
/// Constants stay, so that their values can still be read.
void lowering::remapListElements(ConversionPatternRewriter &rewriter, Value list) {
  auto construct = list.getDefiningOp<ts::PrimListConstructOp>();
  if (!construct)
    return;
  SmallVector<Value> elements;
  bool changed = false;
  for (Value element : construct.getElements()) {
    if (llvm::isa<ts::ListType>(element.getType()))
      remapListElements(rewriter, element); // nested lists
    Value converted = element;
    if (!element.getDefiningOp<ts::PrimConstantOp>())
      if (Value remapped = rewriter.getRemappedValue(element))
        converted = remapped;
    changed |= converted != element;
    elements.push_back(converted);
  }
  if (changed)
    rewriter.modifyOpInPlace(construct,
                             [&] { construct->setOperands(elements); });
}

/// Remaps the elements of every prim::ListConstruct `op` reads.
void lowering::remapListOperands(ConversionPatternRewriter &rewriter,
                                 Operation *op) {
  for (Value operand : op->getOperands())
    if (llvm::isa<ts::ListType>(operand.getType()))
      remapListElements(rewriter, operand);
}

//===----------------------------------------------------------------------===//
// Products and windows
//===----------------------------------------------------------------------===//

bool lowering::isFloat(Type t) { return llvm::isa<FloatType>(t); }

Type lowering::getAccType(Type element) {
  if (element.isF16() || element.isBF16())
    return Float32Type::get(element.getContext());
  return element;
}

RankedTensorType lowering::getTensorType(Value v) {
  return llvm::dyn_cast<RankedTensorType>(v.getType());
}

Value lowering::castOperand(OpBuilder &b, Location loc, Operation *op,
                         ValueRange operands, unsigned i, Type element) {
  return castElementType(b, loc, operands[i], element,
                         isUnsignedDtype(getTSDtype(op->getOperand(i))));
}

Value lowering::createZeros(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                         Type element) {
  return createFilled(b, loc, RankedTensorType::get(shape, element),
                      createScalarConstant(b, loc, element, 0));
}

Value lowering::broadcastTo(OpBuilder &b, Location loc, Value value,
                         ArrayRef<int64_t> shape, Type element,
                         bool isUnsigned, Value like) {
  auto type = RankedTensorType::get(shape, element);
  return buildElementwise(
      b, loc, type, value,
      [&](OpBuilder &nb, Location l, ValueRange e) {
        return castScalar(nb, l, e[0], element, isUnsigned);
      },
      like ? ValueRange{like} : ValueRange{});
}

Value lowering::finish(OpBuilder &b, Location loc, Value value,
                    RankedTensorType resultType) {
  value = castElementType(b, loc, value, resultType.getElementType());
  return reshapeTo(b, loc, value, resultType.getShape());
}

std::optional<SmallVector<int64_t>>
lowering::getSpatial(Value list, unsigned n,
           std::optional<SmallVector<int64_t>> empty) {
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

DenseIntElementsAttr lowering::getI64VectorAttr(OpBuilder &b,
                                             ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    b.getI64Type());
  return DenseIntElementsAttr::get(type, values);
}

Value lowering::padSpatial(OpBuilder &b, Location loc, Value input,
                        ArrayRef<int64_t> pad, Value value,
                        ArrayRef<int64_t> extraHigh) {
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

int64_t lowering::getWindowCount(int64_t size, int64_t kernel, int64_t stride,
                              int64_t pad, int64_t dilation) {
  return (size + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1;
}

std::optional<SmallVector<int64_t>>
mlir::tsmlir::lowering::broadcastShapes(ValueRange values) {
  SmallVector<int64_t> shape;
  for (Value v : values) {
    SmallVector<int64_t> next;
    if (!OpTrait::util::getBroadcastedShape(
            shape, llvm::cast<RankedTensorType>(v.getType()).getShape(), next))
      return std::nullopt;
    shape = std::move(next);
  }
  return shape;
}

ElementsAttr lowering::convertElementsAttr(Attribute value,
                                           RankedTensorType type) {
  if (auto dense = llvm::dyn_cast<DenseElementsAttr>(value)) {
    if (dense.getType().getShape() != type.getShape())
      return {};
    return dense.getElementType() == type.getElementType()
               ? dense
               : DenseElementsAttr::getFromRawBuffer(type, dense.getRawData());
  }
  if (auto resource = llvm::dyn_cast<DenseResourceElementsAttr>(value)) {
    if (resource.getType().getShape() != type.getShape())
      return {};
    return DenseResourceElementsAttr::get(type, resource.getRawHandle());
  }
  return {};
}
