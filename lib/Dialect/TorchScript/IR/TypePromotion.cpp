//===- TypePromotion.cpp - PyTorch's type promotion on ts dtypes ----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/TypePromotion.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"

#include "mlir/IR/BuiltinTypes.h"

namespace mlir::tsmlir::ts {

static bool isBool(Type t) { return t && t.isInteger(1); }
static bool isFloat(Type t) { return t && llvm::isa<mlir::FloatType>(t); }
static bool isComplex(Type t) { return t && llvm::isa<mlir::ComplexType>(t); }

Type promoteTypes(Type a, Type b) {
  if (!a || a == b)
    return b;
  if (!b)
    return a;
  if (isBool(a))
    return b;
  if (isBool(b))
    return a;
  MLIRContext *ctx = a.getContext();
  if (isComplex(a) || isComplex(b)) {
    // The complex type of the wider floating point component.
    auto component = [](Type t) -> Type {
      if (auto c = llvm::dyn_cast<mlir::ComplexType>(t))
        return c.getElementType();
      return isFloat(t) ? t : Type();
    };
    return mlir::ComplexType::get(promoteTypes(component(a), component(b)));
  }
  bool fa = isFloat(a), fb = isFloat(b);
  if (fa && fb) {
    // Half and BFloat16 promote to Float.
    if (a.getIntOrFloatBitWidth() == b.getIntOrFloatBitWidth())
      return Float32Type::get(ctx);
    return a.getIntOrFloatBitWidth() > b.getIntOrFloatBitWidth() ? a : b;
  }
  if (fa)
    return a;
  if (fb)
    return b;
  // Two integer types, not bool.
  bool ua = a.isUnsignedInteger(), ub = b.isUnsignedInteger();
  if (ua != ub) {
    // uint8 with a signed type: int16 if that is int8, else the signed type.
    Type s = ua ? b : a;
    return s.getIntOrFloatBitWidth() == 8
               ? IntegerType::get(ctx, 16, IntegerType::Signed)
               : s;
  }
  return a.getIntOrFloatBitWidth() >= b.getIntOrFloatBitWidth() ? a : b;
}

/// c10::combine_categories: the higher-priority dtype unless the lower one
/// is of a higher category (bool < integral < floating < complex).
static Type combineCategories(Type higher, Type lower) {
  if (isComplex(higher))
    return higher;
  if (isComplex(lower)) {
    if (isFloat(higher))
      return mlir::ComplexType::get(higher);
    return lower;
  }
  if (isFloat(higher))
    return higher;
  if (isBool(higher) || isFloat(lower))
    return promoteTypes(higher, lower);
  return higher ? higher : lower;
}

void ResultTypeState::add(Type dtype, PromotionPriority priority) {
  Type &slot = priority == PromotionPriority::Dimensioned ? dimensioned
               : priority == PromotionPriority::ZeroDim   ? zeroDim
                                                          : wrapped;
  slot = promoteTypes(slot, dtype);
}

Type ResultTypeState::getResult() const {
  return combineCategories(dimensioned, combineCategories(zeroDim, wrapped));
}

Type getWrappedNumberDtype(Type type) {
  MLIRContext *ctx = type.getContext();
  if (llvm::isa<IntType>(type))
    return IntegerType::get(ctx, 64, IntegerType::Signed);
  if (llvm::isa<FloatType>(type))
    return Float32Type::get(ctx);
  if (llvm::isa<BoolType>(type))
    return IntegerType::get(ctx, 1);
  if (llvm::isa<ComplexType>(type))
    return mlir::ComplexType::get(Float32Type::get(ctx));
  return {};
}

} // namespace mlir::tsmlir::ts
