//===- NodeKind.h - TorchScript's names of ts ops ---------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one mapping from a ts op's MLIR name to the node kind PyTorch prints
// (`ts.aten.add.Tensor` is `aten::add`, with its overload
// `aten::add.Tensor`), for diagnostics, reports and the exporter.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_IR_NODEKIND_H
#define TSMLIR_DIALECT_TORCHSCRIPT_IR_NODEKIND_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tsmlir::ts {

/// TorchScript's kind for the ts op named `opName`: `aten::add`, or with
/// `withOverload` `aten::add.Tensor`; empty for a name outside the ts
/// dialect.
std::string getNodeKind(StringRef opName, bool withOverload = false);

/// The same for `op`; a `ts.operator` (a node kept by name) gives its kind
/// as it is. Empty for ops of other dialects.
std::string getNodeKind(Operation *op, bool withOverload = false);

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_IR_NODEKIND_H
