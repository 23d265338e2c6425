//===- DecomposeUtils.cpp - Helpers of the ts-decompose patterns ------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "DecomposeUtils.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;

namespace mlir::tsmlir::ts::decompose {

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

std::optional<SmallVector<int64_t>> staticSizes(Value v) {
  auto type = llvm::dyn_cast<ts::TensorType>(v.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  return SmallVector<int64_t>(type.getSizesOrEmpty());
}

std::optional<SmallVector<OpFoldResult>> listElements(Value list) {
  // A list an op may still change (an append in a loop that
  // ts-remove-mutation has not yet folded in) has no known elements.
  if (auto construct = list.getDefiningOp<PrimListConstructOp>())
    return isUnmodifiedList(list)
               ? std::optional(
                     llvm::to_vector_of<OpFoldResult>(construct.getElements()))
               : std::nullopt;
  auto constant = list.getDefiningOp<PrimConstantOp>();
  auto array = constant ? llvm::dyn_cast_or_null<ArrayAttr>(
                              constant.getValueAttr())
                        : ArrayAttr();
  if (!array)
    return std::nullopt;
  return llvm::to_vector_of<OpFoldResult>(array);
}

std::optional<SmallVector<OpFoldResult>> knownTensors(Value list) {
  std::optional<SmallVector<OpFoldResult>> elements = listElements(list);
  if (elements && llvm::any_of(*elements, [](OpFoldResult e) {
        auto attr = llvm::dyn_cast<Attribute>(e);
        return attr && !llvm::isa<ElementsAttr>(attr);
      }))
    return std::nullopt;
  return elements;
}

std::optional<SmallVector<int64_t>> staticSizes(OpFoldResult v) {
  if (auto value = llvm::dyn_cast<Value>(v))
    return staticSizes(value);
  auto elements = llvm::cast<ElementsAttr>(llvm::cast<Attribute>(v));
  return SmallVector<int64_t>(elements.getShapedType().getShape());
}

Value materialize(OpBuilder &b, Location loc, OpFoldResult v,
                  Type type) {
  if (auto value = llvm::dyn_cast<Value>(v))
    return value;
  return PrimConstantOp::create(
      b, loc, type ? type : ts::TensorType::get(b.getContext()),
      llvm::cast<Attribute>(v));
}

std::optional<SmallVector<int64_t>> intList(Value v, unsigned n) {
  if (std::optional<int64_t> one = constInt(v))
    return SmallVector<int64_t>(n, *one);
  std::optional<SmallVector<int64_t>> out = constIntList(v);
  if (!out)
    return std::nullopt;
  if (out->size() == 1 && n > 1)
    out->assign(n, (*out)[0]);
  if (!out->empty() && out->size() != n)
    return std::nullopt;
  return out;
}

std::optional<SmallVector<int64_t>> constIntList(Value list) {
  std::optional<SmallVector<OpFoldResult>> elements = listElements(list);
  if (!elements)
    return std::nullopt;
  SmallVector<int64_t> out;
  for (OpFoldResult e : *elements) {
    std::optional<int64_t> v;
    if (auto value = llvm::dyn_cast<Value>(e))
      v = constInt(value);
    else if (auto attr = llvm::dyn_cast<IntegerAttr>(llvm::cast<Attribute>(e)))
      v = attr.getInt();
    if (!v)
      return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

std::optional<SmallVector<double>> constFloatList(Value list) {
  std::optional<SmallVector<OpFoldResult>> elements = listElements(list);
  if (!elements)
    return std::nullopt;
  SmallVector<double> out;
  for (OpFoldResult e : *elements) {
    std::optional<double> v;
    if (auto value = llvm::dyn_cast<Value>(e))
      v = constFloat(value);
    else if (auto attr = llvm::dyn_cast<FloatAttr>(llvm::cast<Attribute>(e)))
      v = attr.getValueAsDouble();
    if (!v)
      return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

Value intListValue(TSBuilder &t, ArrayRef<int64_t> values) {
  SmallVector<Value> elements;
  for (int64_t v : values)
    elements.push_back(t.i(v));
  return PrimListConstructOp::create(
      t.b, t.loc, ts::ListType::get(t.ctx(), ts::IntType::get(t.ctx())),
      elements);
}

Value TSBuilder::longs(ArrayRef<int64_t> values, ArrayRef<int64_t> shape) {
  Type si64 = IntegerType::get(ctx(), 64, IntegerType::Signed);
  auto attr = DenseElementsAttr::get(RankedTensorType::get(shape, si64),
                                     values);
  return PrimConstantOp::create(b, loc, ts::TensorType::get(ctx(), si64, shape),
                                attr);
}

Value TSBuilder::bools(ArrayRef<bool> values, ArrayRef<int64_t> shape) {
  Type i1 = IntegerType::get(ctx(), 1);
  auto attr = DenseElementsAttr::get(RankedTensorType::get(shape, i1), values);
  return PrimConstantOp::create(b, loc, ts::TensorType::get(ctx(), i1, shape),
                                attr);
}

Value TSBuilder::reshape(Value x, ArrayRef<int64_t> sizes) {
  return AtenReshapeOp::create(b, loc, tensor(), x, intListValue(*this, sizes));
}

Value TSBuilder::sizes(ArrayRef<int64_t> values) {
  return intListValue(*this, values);
}

Value TSBuilder::to(Value x, int64_t code) {
  return AtenToDtypeOp::create(b, loc, tensor(), x, i(code), flag(false),
                               flag(false), none());
}

Value TSBuilder::castTo(Value x, Type dtype) {
  if (dtypeOf(x) == dtype)
    return x;
  std::optional<int64_t> code = getScalarTypeCode(dtype);
  assert(code && "castTo: not a dtype PyTorch has");
  return to(x, *code);
}

Value TSBuilder::arange(int64_t n) {
  return AtenArangeOp::create(b, loc, tensor(), i(n), i(kLong), none(), none(),
                              none());
}

Value TSBuilder::zeros(ArrayRef<int64_t> shape, int64_t code) {
  return AtenZerosOp::create(b, loc, tensor(), sizes(shape), i(code), none(),
                             none(), none());
}

Value TSBuilder::ones(ArrayRef<int64_t> shape, int64_t code) {
  return AtenOnesOp::create(b, loc, tensor(), sizes(shape), i(code), none(),
                            none(), none());
}

Value TSBuilder::full(ArrayRef<int64_t> shape, int64_t fill, int64_t code) {
  return AtenFullOp::create(b, loc, tensor(), sizes(shape), i(fill), i(code),
                            none(), none(), none());
}

Value TSBuilder::expand(Value x, ArrayRef<int64_t> shape) {
  return AtenExpandOp::create(b, loc, tensor(), x, sizes(shape), flag(false));
}

Value TSBuilder::permute(Value x, ArrayRef<int64_t> order) {
  bool identity = llvm::all_of(llvm::enumerate(order), [](auto e) {
    return e.value() == static_cast<int64_t>(e.index());
  });
  return identity ? x
                  : AtenPermuteOp::create(b, loc, tensor(), x, sizes(order));
}

std::pair<Value, Value> TSBuilder::sort(Value x, int64_t dim) {
  auto op = AtenSortStableOp::create(b, loc, TypeRange{tensor(), tensor()}, x,
                                     flag(true), i(dim), flag(false));
  return {op.getResult(0), op.getResult(1)};
}

Type dtypeOf(Value v) {
  auto type = llvm::dyn_cast<ts::TensorType>(v.getType());
  return type ? type.getDtype() : Type();
}

Type dtypeOf(OpFoldResult v) {
  if (auto value = llvm::dyn_cast<Value>(v))
    return dtypeOf(value);
  return llvm::cast<ElementsAttr>(llvm::cast<Attribute>(v))
      .getShapedType()
      .getElementType();
}

bool isNone(Value v) { return llvm::isa<ts::NoneType>(v.getType()); }

std::optional<StringRef> constStr(Value v) {
  StringAttr attr;
  if (matchPattern(v, m_Constant(&attr)))
    return attr.getValue();
  return std::nullopt;
}

void replaceWithDeclaredTypes(PatternRewriter &rewriter, Operation *op,
                              SmallVector<Value> results) {
  for (auto [value, old] : llvm::zip_equal(results, op->getResults()))
    if (value.getType() != old.getType())
      value = PrimUncheckedCastOp::create(rewriter, op->getLoc(),
                                          old.getType(), value);
  rewriter.replaceOp(op, results);
}

} // namespace mlir::tsmlir::ts::decompose
