//===- CallBinding.h - Calls bound to operator schemas ----------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Binds a call of an operator (`torch.add(x, 1)`, `ops.prim.NumToTensor(n)`)
// to one of its schemas as PyTorch's schema matching does: each overload in
// registration order, first without implicit conversions and then with them
// (a tensor or a number passed as an int or float, a str as a Device, a tuple
// as a list, an int as an `int[N]`); keyword arguments bound by name;
// defaults filled in; type variables bound by the arguments. Then builds the
// op: the `ts` op of that overload when the dialect has one, a hand-written
// `ts.prim.*` op of the same name, or `ts.operator` with the kind.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_TARGET_PTARCHIVE_CALLBINDING_H
#define TSMLIR_LIB_TARGET_PTARCHIVE_CALLBINDING_H

#include "Schema.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <utility>

namespace mlir::tsmlir::pt {

struct CallArguments {
  llvm::SmallVector<Value> positional;
  llvm::SmallVector<std::pair<std::string, Value>> keywords;
};

/// Builds the op for a call of the operator `name` (`aten::add`). On
/// success, returns the op (whose results are the call's results); on
/// failure, `error` says why no overload matched (each overload tried, with
/// its reason).
FailureOr<Operation *> buildOperatorCall(OpBuilder &builder, Location loc,
                                         llvm::StringRef name,
                                         const CallArguments &args,
                                         std::string &error);

/// A constant of a ts type: int, float, bool, str, None, lists of these.
Value buildConstant(OpBuilder &builder, Location loc, Type type,
                    Attribute value);

/// Folds `op` when all its operands are constants (or its folder needs no
/// constant operand, as `aten::__is__` of a None-typed value), replacing it
/// with constants. Returns the results to use in its place.
llvm::SmallVector<Value> foldIfPossible(OpBuilder &builder, Operation *op);

} // namespace mlir::tsmlir::pt

#endif // TSMLIR_LIB_TARGET_PTARCHIVE_CALLBINDING_H
