//===- DataDependentSizes.h - Tensors sized at run time ---------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one kind of tensor whose sizes a specialised graph may leave unknown:
// a slice, along one dim, of a tensor of static shape, whose start or end
// is computed at run time (`x[:n]`; how --ts-decompose gives unique,
// nonzero and masked_select their results). Its sizes are bounded by the
// sliced tensor's. A compiled graph returns such a tensor in an output
// buffer of the bound's size and writes the sizes it has beside it
// (--ts-destination-style-entry); nothing else may read it.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_IR_DATADEPENDENTSIZES_H
#define TSMLIR_DIALECT_TORCHSCRIPT_IR_DATADEPENDENTSIZES_H

#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::tsmlir::ts {

/// The static sizes that bound the sizes of `tensor`, when it is a tensor
/// of known dtype whose sizes depend on run-time values as described above
/// (an `aten::slice.Tensor` with step 1 whose result type leaves only the
/// sliced dim unknown); nullopt for any other value.
std::optional<SmallVector<int64_t>> getSizeBound(Value tensor);

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_IR_DATADEPENDENTSIZES_H
