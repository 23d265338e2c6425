//===- GradMode.h - The class of `with torch.no_grad()` ---------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `with torch.no_grad():` creates an object of this class, sets its `prev`
// flag and enters and exits it around the block: in a graph as
// prim::CreateObject, prim::SetAttr, prim::Enter and prim::Exit, in a .pt
// archive's code as `__new__`, `__init__` and `with`. The .pt importer builds
// the graph's form and canonicalization removes it (OperatorCanonicalize).
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_IR_GRADMODE_H
#define TSMLIR_DIALECT_TORCHSCRIPT_IR_GRADMODE_H

#include "llvm/ADT/StringRef.h"

namespace mlir::tsmlir::ts {

/// The qualified name of torch.no_grad's class, the one grad mode
/// TorchScript scripts.
inline constexpr llvm::StringLiteral kNoGradClass =
    "__torch__.torch.autograd.grad_mode.no_grad";

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_IR_GRADMODE_H
