//===- FactoryShapeRules.cpp - Shape rules of tensor factories ------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Ops that make a tensor from sizes and scalars: zeros, ones, full, arange,
// tensor, scalar_tensor, prim::NumToTensor, and the ..._like ops. A `dtype`
// argument of None means the default dtype (Float), except where PyTorch
// infers it from a value (full, arange, tensor). A `device` of None is left
// unknown: it is the default device, which a program may change.
//
//===----------------------------------------------------------------------===//

#include "ShapeRuleUtils.h"

#include <cmath>

namespace mlir::tsmlir::ts {
using namespace shape;

/// The dtype PyTorch infers from a Python scalar (full, arange, tensor):
/// Long for an int, the default float for a float, Bool for a bool.
static Type dtypeOfScalar(Value value, const ShapeFacts &facts) {
  MLIRContext *ctx = value.getContext();
  Type type = value.getType();
  if (llvm::isa<NumberType>(type)) {
    Attribute cst = facts.getConstant(value);
    if (llvm::isa_and_nonnull<BoolAttr>(cst))
      return getBool(ctx);
    if (llvm::isa_and_nonnull<IntegerAttr>(cst))
      return getLong(ctx);
    if (llvm::isa_and_nonnull<FloatAttr>(cst))
      return getDefaultFloat(ctx);
    return {};
  }
  if (llvm::isa<IntType>(type))
    return getLong(ctx);
  if (llvm::isa<FloatType>(type))
    return getDefaultFloat(ctx);
  if (llvm::isa<BoolType>(type))
    return getBool(ctx);
  if (llvm::isa<ComplexType>(type))
    return mlir::ComplexType::get(getDefaultFloat(ctx));
  return {};
}

/// A `ScalarType?` argument, or `fallback` for None.
static Type dtypeOr(Value dtype, Type fallback, const ShapeFacts &facts) {
  FailureOr<Type> given = facts.getDtypeArg(dtype);
  if (failed(given))
    return {};
  return *given ? *given : fallback;
}

/// A `Device?` argument, or `fallback` for None.
static StringAttr deviceOr(Value device, StringAttr fallback,
                           const ShapeFacts &facts) {
  if (facts.isNone(device))
    return fallback;
  if (std::optional<StringRef> name = facts.getString(device))
    return StringAttr::get(device.getContext(), *name);
  return {};
}

/// zeros/ones/full(size, [fill,] dtype?, layout?, device?, pin_memory?):
/// `fill` is the index of the fill value, or -1.
static ShapeRule fromSizes(int fill) {
  return [=](Operation *op, const ShapeFacts &facts,
             SmallVectorImpl<Type> &results) {
    unsigned dtypeIndex = fill < 0 ? 1 : 2;
    Type fallback = fill < 0 ? getDefaultFloat(op->getContext())
                             : dtypeOfScalar(op->getOperand(fill), facts);
    Type dtype = dtypeOr(op->getOperand(dtypeIndex), fallback, facts);
    StringAttr device =
        deviceOr(op->getOperand(dtypeIndex + 2), StringAttr(), facts);
    results[0] = makeTensor(op->getContext(), dtype,
                            facts.getIntList(op->getOperand(0)), device);
  };
}

/// zeros_like/ones_like/full_like(self, [fill,] dtype?, layout?, device?,
/// ...): self's sizes.
static ShapeRule like(int fill) {
  return [=](Operation *op, const ShapeFacts &facts,
             SmallVectorImpl<Type> &results) {
    Value self = op->getOperand(0);
    unsigned dtypeIndex = fill < 0 ? 1 : 2;
    Type dtype = dtypeOr(op->getOperand(dtypeIndex), getDtype(self), facts);
    StringAttr device =
        deviceOr(op->getOperand(dtypeIndex + 2), getDevice(self), facts);
    results[0] = makeTensor(op->getContext(), dtype, getSizes(self), device);
  };
}

/// arange(end, ...), arange(start, end, ...) and arange(start, end, step,
/// ...): ceil((end - start) / step) elements (none when that is not
/// positive), the bounds truncated to ints first for a Long result, as
/// PyTorch's CPU kernel; Long when every bound is an int, else the default
/// float.
static void arangeRule(Operation *op, const ShapeFacts &facts,
                       SmallVectorImpl<Type> &results) {
  bool hasStep = llvm::isa<AtenArangeStartStepOp>(op);
  bool hasStart = hasStep || llvm::isa<AtenArangeStartOp>(op);
  Value start = hasStart ? op->getOperand(0) : Value();
  Value end = op->getOperand(hasStart ? 1 : 0);
  Value step = hasStep ? op->getOperand(2) : Value();
  unsigned dtypeIndex = hasStep ? 3 : hasStart ? 2 : 1;
  MLIRContext *ctx = op->getContext();
  // The inferred dtype: Long if all bounds are ints.
  Type inferred;
  Type endType = dtypeOfScalar(end, facts);
  Type startType = start ? dtypeOfScalar(start, facts) : getLong(ctx);
  Type stepType = step ? dtypeOfScalar(step, facts) : getLong(ctx);
  if (endType && startType && stepType)
    inferred = isFloatDtype(endType) || isFloatDtype(startType) ||
                       isFloatDtype(stepType)
                   ? getDefaultFloat(ctx)
                   : getLong(ctx);
  Type dtype = dtypeOr(op->getOperand(dtypeIndex), inferred, facts);
  Sizes sizes = SmallVector<int64_t>{kUnknown};
  std::optional<double> e = facts.getFloat(end);
  std::optional<double> s = start ? facts.getFloat(start) : 0.0;
  std::optional<double> st = step ? facts.getFloat(step) : 1.0;
  // A Long result counts with the bounds converted to int64 first (its
  // accumulation type), truncated; other dtypes with them as given.
  if (e && s && st && dtype == getLong(ctx)) {
    *e = std::trunc(*e);
    *s = std::trunc(*s);
    *st = std::trunc(*st);
  }
  if (e && s && st && *st != 0)
    (*sizes)[0] =
        std::max<int64_t>(0, static_cast<int64_t>(std::ceil((*e - *s) / *st)));
  StringAttr device = deviceOr(op->getOperand(dtypeIndex + 2), {}, facts);
  results[0] = makeTensor(ctx, dtype, sizes, device);
}

/// linspace(start, end, steps, dtype?, ...) and logspace(start, end, steps,
/// base, dtype?, ...): `steps` elements of the given dtype, else the default
/// float.
static ShapeRule spaced(unsigned dtypeIndex) {
  return [=](Operation *op, const ShapeFacts &facts,
             SmallVectorImpl<Type> &results) {
    MLIRContext *ctx = op->getContext();
    Type dtype = dtypeOr(op->getOperand(dtypeIndex), getDefaultFloat(ctx), facts);
    Sizes sizes = SmallVector<int64_t>{kUnknown};
    if (std::optional<int64_t> steps = facts.getInt(op->getOperand(2));
        steps && *steps >= 0)
      (*sizes)[0] = *steps;
    StringAttr device = deviceOr(op->getOperand(dtypeIndex + 2), {}, facts);
    results[0] = makeTensor(ctx, dtype, sizes, device);
  };
}

/// tensor.float/int/bool(t, dtype?, device?, requires_grad): 0-d.
static void tensorRule(Operation *op, const ShapeFacts &facts,
                       SmallVectorImpl<Type> &results) {
  Value t = op->getOperand(0);
  Type dtype = dtypeOr(op->getOperand(1), dtypeOfScalar(t, facts), facts);
  StringAttr device = deviceOr(op->getOperand(2), {}, facts);
  results[0] =
      makeTensor(op->getContext(), dtype, SmallVector<int64_t>(), device);
}

/// The sizes of a nested list (a prim::ListConstruct of lists or scalars,
/// or a list constant) if it is rectangular, and the type of its scalars.
static std::optional<SmallVector<int64_t>>
nestedListSizes(Value list, const ShapeFacts &facts, Type &scalarType) {
  auto listType = llvm::dyn_cast<ListType>(list.getType());
  if (!listType)
    return std::nullopt;
  Type elementType = listType.getElementType();
  if (auto constant =
          llvm::dyn_cast_or_null<ArrayAttr>(facts.getConstant(list))) {
    // A constant: scalars, or nested arrays of them.
    SmallVector<int64_t> sizes;
    Attribute level = constant;
    while (auto array = llvm::dyn_cast<ArrayAttr>(level)) {
      sizes.push_back(array.size());
      if (array.empty())
        break;
      level = array[0];
    }
    while (auto inner = llvm::dyn_cast<ListType>(elementType))
      elementType = inner.getElementType();
    scalarType = elementType;
    return sizes;
  }
  std::optional<SmallVector<Value>> elements = facts.getListElements(list);
  if (!elements)
    return std::nullopt;
  SmallVector<int64_t> sizes{static_cast<int64_t>(elements->size())};
  if (!llvm::isa<ListType>(elementType)) {
    scalarType = elementType;
    return sizes;
  }
  std::optional<SmallVector<int64_t>> inner;
  for (Value element : *elements) {
    std::optional<SmallVector<int64_t>> s =
        nestedListSizes(element, facts, scalarType);
    if (!s || (inner && *inner != *s))
      return std::nullopt;
    inner = s;
  }
  if (inner)
    sizes.append(inner->begin(), inner->end());
  else
    scalarType = llvm::cast<ListType>(elementType).getElementType();
  return sizes;
}

/// tensor(data: list, dtype?, device?, requires_grad): the sizes of the
/// (rectangular) nested list; the dtype of its scalars (int: Long, float:
/// the default float, bool: Bool) unless one is given.
static void tensorListRule(Operation *op, const ShapeFacts &facts,
                           SmallVectorImpl<Type> &results) {
  MLIRContext *ctx = op->getContext();
  Type scalarType;
  std::optional<SmallVector<int64_t>> sizes =
      nestedListSizes(op->getOperand(0), facts, scalarType);
  Type inferred;
  if (llvm::isa_and_nonnull<IntType>(scalarType))
    inferred = getLong(ctx);
  else if (llvm::isa_and_nonnull<FloatType>(scalarType))
    inferred = getDefaultFloat(ctx);
  else if (llvm::isa_and_nonnull<BoolType>(scalarType))
    inferred = getBool(ctx);
  Type dtype = dtypeOr(op->getOperand(1), inferred, facts);
  StringAttr device = deviceOr(op->getOperand(2), {}, facts);
  results[0] = makeTensor(ctx, dtype, sizes, device);
}

/// scalar_tensor(s, dtype?, layout?, device?, pin_memory?): 0-d, the
/// default float for None.
static void scalarTensorRule(Operation *op, const ShapeFacts &facts,
                             SmallVectorImpl<Type> &results) {
  Type dtype =
      dtypeOr(op->getOperand(1), getDefaultFloat(op->getContext()), facts);
  StringAttr device = deviceOr(op->getOperand(3), {}, facts);
  results[0] =
      makeTensor(op->getContext(), dtype, SmallVector<int64_t>(), device);
}

/// prim::NumToTensor: a 0-d tensor of the scalar's own type (Double for a
/// float, unlike the factories).
static void numToTensorRule(Operation *op, const ShapeFacts &facts,
                            SmallVectorImpl<Type> &results) {
  Value a = op->getOperand(0);
  Type dtype = dtypeOfScalar(a, facts);
  if (isFloatDtype(dtype))
    dtype = Float64Type::get(op->getContext());
  else if (isComplexDtype(dtype))
    dtype = mlir::ComplexType::get(Float64Type::get(op->getContext()));
  results[0] = makeTensor(op->getContext(), dtype, SmallVector<int64_t>());
}

//===----------------------------------------------------------------------===//
// Rule registration
//===----------------------------------------------------------------------===//

void populateFactoryShapeRules(ShapeRuleSet &rules) {
  rules.add<AtenZerosOp, AtenOnesOp>(fromSizes(/*fill=*/-1));
  rules.add<AtenFullOp>(fromSizes(/*fill=*/1));
  rules.add<AtenZerosLikeOp, AtenOnesLikeOp>(like(/*fill=*/-1));
  rules.add<AtenFullLikeOp>(like(/*fill=*/1));
  rules.add<AtenArangeOp, AtenArangeStartOp, AtenArangeStartStepOp>(arangeRule);
  rules.add<AtenLinspaceOp>(spaced(3));
  rules.add<AtenLogspaceOp>(spaced(4));
  rules.add<AtenTensorFloatOp, AtenTensorIntOp, AtenTensorBoolOp>(tensorRule);
  rules.add<AtenTensorOp>(tensorListRule);
  rules.add<AtenScalarTensorOp>(scalarTensorRule);
  rules.add<PrimNumToTensorScalarOp, PrimNumToTensorBoolOp>(numToTensorRule);
}

} // namespace mlir::tsmlir::ts
