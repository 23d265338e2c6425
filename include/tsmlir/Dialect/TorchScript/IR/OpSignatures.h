//===- OpSignatures.h - Overload resolution for schema ops ------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// TorchScript prints a node's kind (`aten::add`) without its overload
// (`aten::add.Tensor`); the overload follows from the types of the inputs and
// outputs. This table, generated from the same schemas as the ops, lets the
// importer pick the `ts` op for a node as PyTorch picked the overload.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_IR_OPSIGNATURES_H
#define TSMLIR_DIALECT_TORCHSCRIPT_IR_OPSIGNATURES_H

#include "mlir/IR/TypeRange.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tsmlir::ts {

#define GET_TYPE_CONSTRAINT_DECLS
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypeConstraints.h.inc"

using TypePredicate = bool (*)(Type);

/// The operand and result constraints of one schema op.
struct OpSignature {
  const char *opName; // "ts.aten.add.Tensor"
  const char *kind;   // "aten::add"
  const TypePredicate *operands;
  unsigned numOperands;
  const TypePredicate *results;
  unsigned numResults;
  /// The last operand constraint applies to any number of trailing operands.
  bool variadic;

  /// Whether a node with these input and output types is this overload.
  bool matches(TypeRange operandTypes, TypeRange resultTypes) const;
};

/// The schema ops of a node kind, in table order; empty if there are none.
ArrayRef<const OpSignature *> lookupOpSignatures(llvm::StringRef kind);

/// The first schema op of `kind` that accepts these types, or null.
const OpSignature *resolveOverload(llvm::StringRef kind, TypeRange operandTypes,
                                   TypeRange resultTypes);

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_IR_OPSIGNATURES_H
