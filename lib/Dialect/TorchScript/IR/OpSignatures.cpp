//===- OpSignatures.cpp - Overload resolution for schema ops --------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/OpSignatures.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace mlir::tsmlir::ts {

#define GET_TYPE_CONSTRAINT_DEFS
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypeConstraints.cpp.inc"

// Constraints that are plain type definitions rather than named constraints.
[[maybe_unused]] static bool isTSFloatType(Type type) { return llvm::isa<FloatType>(type); }
[[maybe_unused]] static bool isTSBoolType(Type type) { return llvm::isa<BoolType>(type); }
[[maybe_unused]] static bool isTSComplexType(Type type) { return llvm::isa<ComplexType>(type); }
[[maybe_unused]] static bool isTSGeneratorType(Type type) {
  return llvm::isa<GeneratorType>(type);
}

namespace {
#include "GeneratedSignatures.inc"
} // namespace

bool OpSignature::matches(TypeRange operandTypes, TypeRange resultTypes) const {
  if (resultTypes.size() != numResults)
    return false;
  if (variadic ? operandTypes.size() + 1 < numOperands
               : operandTypes.size() != numOperands)
    return false;
  for (auto [i, type] : llvm::enumerate(operandTypes))
    if (!operands[std::min<size_t>(i, numOperands - 1)](type))
      return false;
  for (auto [i, type] : llvm::enumerate(resultTypes))
    if (!results[i](type))
      return false;
  return true;
}

ArrayRef<const OpSignature *> lookupOpSignatures(llvm::StringRef kind) {
  static const llvm::StringMap<llvm::SmallVector<const OpSignature *, 2>>
      byKind = [] {
        llvm::StringMap<llvm::SmallVector<const OpSignature *, 2>> map;
        for (const OpSignature &signature : kSignatures)
          map[signature.kind].push_back(&signature);
        return map;
      }();
  auto it = byKind.find(kind);
  if (it == byKind.end())
    return {};
  return it->second;
}

const OpSignature *resolveOverload(llvm::StringRef kind, TypeRange operandTypes,
                                   TypeRange resultTypes) {
  for (const OpSignature *signature : lookupOpSignatures(kind))
    if (signature->matches(operandTypes, resultTypes))
      return signature;
  return nullptr;
}

} // namespace mlir::tsmlir::ts
