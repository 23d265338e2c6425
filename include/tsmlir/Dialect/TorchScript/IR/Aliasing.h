//===- Aliasing.h - What may share storage with a value ---------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A small, local alias analysis for folders and rewrites: TorchScript tensors
// are shared by reference, views share storage with their source, and ops
// with an alias annotation (`Tensor(a!)`) write it. A rewrite that replaces
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

namespace mlir::tsmlir::ts {

/// Whether `op` has no memory effect but reads.
bool onlyReadsMemory(Operation *op);

/// Whether some op may write `value` or a view of it (an in-place op, an op
/// tsmlir does not know, a container or call that captures it, a region that
/// yields it), as far as a bounded look at the users can tell. True when in
/// doubt.
bool mayBeWritten(Value value);

/// Whether every use of `result` may be replaced by `operand` without changing
/// what the program computes through aliasing: neither value nor any view of
/// them may be written, and if either reaches the caller (`return`), neither
/// may come from outside the function (an argument, a module attribute).
/// Types are not checked.
bool canReplaceWithAlias(Value result, Value operand);

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_IR_ALIASING_H
