//===- ValueNames.h - TorchScript value names in MLIR locations -*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A TorchScript value has a debug name (`%x.1`, `%self.fc1.weight`, `%12`)
// and its node may have a source range (`# source.py:5:11`). Both live in the
// MLIR location, so that passes carry them along and they never stop two ops
// from being merged:
//
//   one result:    loc("x.1"("source.py":5:11))
//   two or more:   loc(fused["a"("source.py":5:11), "b"("source.py":5:11)])
//   an argument:   loc("x.1")
//   a scope:       loc("y"("scope: __module.fc1"("linear.py":114:0)))
//   inlined:       loc(callsite("x.1"("source.py":5:11) at <the call's loc>))
//
// The helpers below read an inlined op's names and source range from the
// callee's side of its call site, as PyTorch prints inlined graphs.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_IR_VALUENAMES_H
#define TSMLIR_DIALECT_TORCHSCRIPT_IR_VALUENAMES_H

#include "mlir/IR/Location.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tsmlir::ts {

/// A traced node's module scope (`, scope: __module.fc1`) is a NameLoc with
/// this prefix around the source location; no value name has a space.
inline constexpr const char *kScopePrefix = "scope: ";

/// The name of a NameLoc whose child is the position of a node in the graph
/// text: where diagnostics point when PyTorch printed no source comment. The
/// exporter prints no comment for it.
inline constexpr llvm::StringLiteral kTextPosition = "ts.text";

/// The scope inside `loc`, without the prefix, or "".
llvm::StringRef getScope(Location loc);

/// A node attribute whose name an op uses for its own structure (`kind` of
/// `ts.operator`, `strategy` of `fusion.group`, ...) is stored under this
/// prefix, so that nothing the node had is lost or overwritten.
inline constexpr llvm::StringLiteral kNodeAttrPrefix = "ts.attr.";

/// Whether the op `opName` uses the attribute `name` for its own structure.
bool isStructuralAttrName(llvm::StringRef opName, llvm::StringRef name);

/// The location of a node with these output names and source location.
Location getNodeLoc(MLIRContext *context, llvm::ArrayRef<llvm::StringRef> names,
                    Location source);

/// The debug names of `op`'s results, where its location holds one per
/// result; otherwise empty strings.
llvm::SmallVector<llvm::StringRef> getResultNames(Operation *op);

/// The name a block argument's location holds, or "".
llvm::StringRef getArgumentName(BlockArgument arg);

/// The source location inside `loc` (its file:line:col), or null.
FileLineColLoc getSourceLoc(Location loc);

/// Names `op`'s results in printed MLIR after their TorchScript names, where
/// they are not plain numbers (`%x.1 = ts.aten.relu ...`).
void setResultNamesFromLoc(Operation *op, OpAsmSetValueNameFn setNameFn);

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_IR_VALUENAMES_H
