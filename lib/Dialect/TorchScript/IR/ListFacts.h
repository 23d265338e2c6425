//===- ListFacts.h - What folders may assume about lists --------*- C++ -*-===//
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

#include "mlir/IR/Value.h"

namespace mlir::tsmlir::ts {

/// Whether the list `list` is certainly never modified: every user only reads
/// it (no memory effect) and none lets it escape, by yielding or returning it,
/// or by producing a value that may alias it (a cast, a container holding it).
/// Users that produce elements of the list (`prim::ListUnpack`,
/// `aten::__getitem__.t`) do not make the list itself escape.
bool isUnmodifiedList(Value list);

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_LIB_DIALECT_TORCHSCRIPT_IR_LISTFACTS_H
