//===- Aliasing.h - How ts ops use and alias values -------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A conservative, local account of TorchScript's aliasing, from the alias
// annotations the ops carry (the ViewLike and InPlace traits) and a short list
// of ops whose schemas say less than they do: `type_as`, `dropout` and
// `to.prim_*` may return their input, casts and guards return it. Shared by
// ts-freeze (may an attribute be written?) and ts-remove-mutation (is a value
// a fresh object that only its mutations write?). Private to the
// TorchScript transforms library.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_ALIASING_H
#define TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_ALIASING_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::tsmlir::ts {

/// What an op does with one of its operands.
enum class UseKind {
  /// Reads it: the op's results do not alias it and the op keeps no
  /// reference to it (`aten::add`, `aten::size`, `prim::Print`).
  Read,
  /// Results (or block arguments) of the op may alias it: views, casts,
  /// `prim::If`/`prim::Loop` yields and carried values. getAliases says which.
  Alias,
  /// Writes it: the mutated operand of an in-place op, the running
  /// statistics of a `batch_norm` that may train.
  Write,
  /// Lets it escape where it cannot be followed: stored into a container or
  /// an attribute, passed to a call, a `ts.operator` or an op of another
  /// dialect, returned.
  Escape,
};

/// How the owner of `use` treats the used value.
UseKind classifyUse(OpOperand &use);

/// The values that may alias `use.get()` through its owner, for a use
/// classified as UseKind::Alias.
llvm::SmallVector<Value, 2> getAliases(OpOperand &use);

/// Whether `value` is a new object that aliases nothing else: the result of
/// a `prim::ListConstruct`, or of a `ts` op with no memory effects whose
/// result aliases none of its operands (not a view, unless it is a `to` with
/// `copy=True`; not a cast, a constant, an attribute, an element of a
/// container, a region result or an argument).
bool isFreshValue(Value value);

/// The value of a `bool` produced by a `ts.prim.Constant`.
std::optional<bool> getConstantBool(Value value);

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_ALIASING_H
