//===- Aliasing.h - What may share storage with a value ---------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A conservative, local account of TorchScript's aliasing, for folders and
// passes: TorchScript tensors and lists are shared by reference, views share
// storage with their source, and ops with an alias annotation (`Tensor(a!)`)
// write it. It follows the alias annotations the ops carry (the ViewLike and
// InPlace traits) and a short list of ops whose schemas say less than they
// do: `type_as`, `dropout` and `to.prim_*` may return their input, casts and
// guards return it, a training `batch_norm` writes its running statistics.
//
// classifyUse/getAliases/isFreshValue serve ts-freeze (may an attribute be
// written?) and ts-remove-mutation (is a value a fresh object that only its
// mutations write?). A rewrite that replaces
// a freshly computed tensor by one of its operands (`x * 1` -> `x`) changes
// which values alias, which is only safe when nothing writes either of them
// and the result does not hand an input of the graph back to its caller.
//
// The queries look at the users of a value and of its views only, and give up
// (answer conservatively) beyond a fixed budget, so a folder that asks stays
// O(1) per op.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_IR_ALIASING_H
#define TSMLIR_DIALECT_TORCHSCRIPT_IR_ALIASING_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

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

/// Whether `value` is an object that no other value is: a fresh value, or a
/// view (a new tensor object sharing its base's storage; `contiguous`,
/// `to` and `flatten` may return self, so they are not counted). For
/// `aten::__is__`, not for aliasing: a view shares its base's elements.
bool isNewObject(Value value);

/// The discardable attribute of the `aten::copy_(argument, value)` that
/// ts-remove-mutation puts before a function's return when it rewrote
/// mutations of the argument into values: the argument's last value,
/// written back into the caller's tensor (lowered as a write into the
/// argument's buffer).
inline constexpr llvm::StringLiteral kWriteBackAttrName = "ts.write_back";

/// The value of a `bool` produced by a `ts.prim.Constant`.
std::optional<bool> getConstantBool(Value value);

/// Whether `op` has no memory effect but reads.
bool onlyReadsMemory(Operation *op);

/// Whether `op` writes or frees memory, or may (unknown effects), itself or
/// in its regions: then nothing that reads memory may move across it.
/// Allocating a new object (prim::ListConstruct's list) is not a write.
bool mayWriteMemory(Operation *op);

/// Whether some op may write `value` or a view of it (an in-place op, an op
/// tsmlir does not know, a container or call that captures it, a region that
/// yields it), as far as a bounded look at the users can tell. True when in
/// doubt.
bool mayBeWritten(Value value);

/// Whether `value` or an alias of it (a view, a cast, a region result) is
/// written in place, or, with `orEscapes`, escapes where its writes cannot
/// be followed (a container, a call, an op tsmlir does not know, a return).
/// Unlike mayBeWritten it follows every alias, whatever their number: for
/// questions asked once per module attribute, not once per op.
bool isWrittenThroughAliases(Value value, bool orEscapes);

/// Whether every use of `result` may be replaced by `operand` without changing
/// what the program computes through aliasing: neither value nor any view of
/// them may be written, and if either reaches the caller (`return`), neither
/// may come from outside the function (an argument, a module attribute).
/// Types are not checked.
bool canReplaceWithAlias(Value result, Value operand);

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_IR_ALIASING_H
