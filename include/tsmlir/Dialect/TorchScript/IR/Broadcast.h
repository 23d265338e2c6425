//===- Broadcast.h - PyTorch's broadcasting of ts tensor sizes --*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// PyTorch's broadcasting of tensor sizes, where a size may be unknown
// (TensorType::kUnknown, MLIR's ShapedType::kDynamic), in one place: the
// ops' verifiers check it and the shape rules infer result sizes with it.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_IR_BROADCAST_H
#define TSMLIR_DIALECT_TORCHSCRIPT_IR_BROADCAST_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::tsmlir::ts {

/// The sizes `shapes` broadcast to, as OpTrait::util::getBroadcastedShape
/// gives them: sizes aligned at the right, a 1 takes the other size, an
/// unknown size beside a known size greater than 1 takes it, and stays
/// unknown otherwise. nullopt when two known sizes other than 1 differ
/// (PyTorch raises).
std::optional<SmallVector<int64_t>>
broadcastShapes(ArrayRef<ArrayRef<int64_t>> shapes);

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_IR_BROADCAST_H
