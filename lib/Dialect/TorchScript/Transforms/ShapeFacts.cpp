//===- ShapeFacts.cpp - What shape rules know of their operands -----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Transforms/ShapeInference.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

namespace mlir::tsmlir::ts {

Attribute ShapeFacts::getConstant(Value value) const {
  if (auto it = folded.find(value); it != folded.end())
    return it->second;
  if (Value inner = stripUncheckedCasts(value); inner != value)
    return getConstant(inner);
  if (llvm::isa<NoneType>(value.getType()))
    return UnitAttr::get(value.getContext());
  if (auto cst = value.getDefiningOp<PrimConstantOp>()) {
    if (Attribute attr = cst.getValueAttr())
      return attr;
    if (llvm::isa<OptionalType>(value.getType()))
      return UnitAttr::get(value.getContext());
  }
  return {};
}

std::optional<int64_t> ShapeFacts::getInt(Value value) const {
  Attribute cst = getConstant(value);
  // A bool is an i1 IntegerAttr, which would sign-extend to -1.
  if (auto b = llvm::dyn_cast_or_null<BoolAttr>(cst))
    return b.getValue() ? 1 : 0;
  if (auto attr = llvm::dyn_cast_or_null<IntegerAttr>(cst))
    return attr.getValue().getSExtValue();
  return std::nullopt;
}

std::optional<double> ShapeFacts::getFloat(Value value) const {
  Attribute attr = getConstant(value);
  if (auto f = llvm::dyn_cast_or_null<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(attr))
    return static_cast<double>(i.getValue().getSExtValue());
  return std::nullopt;
}

std::optional<bool> ShapeFacts::getBool(Value value) const {
  if (auto attr = llvm::dyn_cast_or_null<BoolAttr>(getConstant(value)))
    return attr.getValue();
  return std::nullopt;
}

std::optional<StringRef> ShapeFacts::getString(Value value) const {
  if (auto attr = llvm::dyn_cast_or_null<StringAttr>(getConstant(value)))
    return attr.getValue();
  return std::nullopt;
}

bool ShapeFacts::isNone(Value value) const {
  return llvm::isa_and_nonnull<UnitAttr>(getConstant(value));
}

std::optional<SmallVector<int64_t>>
ShapeFacts::getIntList(Value value, unsigned broadcastTo) const {
  value = stripUncheckedCasts(value);
  if (llvm::isa<IntType>(value.getType())) {
    if (!broadcastTo)
      return std::nullopt;
    return SmallVector<int64_t>(broadcastTo,
                                getInt(value).value_or(TensorType::kUnknown));
  }
  // A list may change after it is built unless nothing can modify it.
  if (!llvm::isa<ListType>(value.getType()) || !isUnmodifiedList(value))
    return std::nullopt;
  SmallVector<int64_t> result;
  if (auto array = llvm::dyn_cast_or_null<ArrayAttr>(getConstant(value))) {
    for (Attribute element : array) {
      auto i = llvm::dyn_cast<IntegerAttr>(element);
      if (!i)
        return std::nullopt;
      result.push_back(i.getValue().getSExtValue());
    }
    return result;
  }
  if (auto construct = value.getDefiningOp<PrimListConstructOp>()) {
    for (Value element : construct.getElements())
      result.push_back(getInt(element).value_or(TensorType::kUnknown));
    return result;
  }
  // The sizes of a tensor of known rank, some perhaps unknown.
  if (auto size = value.getDefiningOp<AtenSizeOp>()) {
    TensorType type = size.getSelf().getType();
    if (!type.hasSizes())
      return std::nullopt;
    return SmallVector<int64_t>(type.getSizes().asArrayRef());
  }
  return std::nullopt;
}

std::optional<SmallVector<Value>>
ShapeFacts::getListElements(Value value) const {
  value = stripUncheckedCasts(value);
  auto construct = value.getDefiningOp<PrimListConstructOp>();
  if (!construct || !isUnmodifiedList(value))
    return std::nullopt;
  return SmallVector<Value>(construct.getElements());
}

FailureOr<Type> ShapeFacts::getDtypeArg(Value value) const {
  if (isNone(value))
    return Type();
  std::optional<int64_t> code = getInt(value);
  if (!code)
    return failure();
  Type dtype = getDtypeForScalarTypeCode(value.getContext(), *code);
  if (!dtype)
    return failure();
  return dtype;
}

void ShapeFacts::setConstant(Value value, Attribute constant) {
  folded[value] = constant;
}

void ShapeFacts::forget(Value value) { folded.erase(value); }

} // namespace mlir::tsmlir::ts
