//===- ListFacts.h - What folders may assume about sequences ----*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// TorchScript lists are mutable and shared by reference, so a folder may read
// the elements of a `prim::ListConstruct` or of a list `prim::Constant` only
// when nothing can modify that list: neither one of its users nor a user of an
// alias of it. Private to the TorchScript IR library.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_DIALECT_TORCHSCRIPT_IR_LISTFACTS_H
#define TSMLIR_LIB_DIALECT_TORCHSCRIPT_IR_LISTFACTS_H

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace mlir::tsmlir::ts {

/// The elements of `list` when they are known: a constant list (`constant`,
/// its value) or a prim::ListConstruct, which nothing can modify.
std::optional<SmallVector<OpFoldResult>>
getKnownListElements(Value list, Attribute constant);

/// The ints of `list` when its elements are known and all constant ints.
std::optional<SmallVector<int64_t>> getKnownIntList(Value list,
                                                    Attribute constant);

/// Python-style index into a sequence (list, tuple, dimensions) of `size`:
/// negative indices count from the end. Nullopt when out of range.
inline std::optional<int64_t> normalizeIndex(int64_t index, int64_t size) {
  int64_t i = index < 0 ? index + size : index;
  if (i < 0 || i >= size)
    return std::nullopt;
  return i;
}

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_LIB_DIALECT_TORCHSCRIPT_IR_LISTFACTS_H
