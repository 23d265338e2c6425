//===- Broadcast.cpp - PyTorch's broadcasting of ts tensor sizes ----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/Broadcast.h"

#include "mlir/Dialect/Traits.h"

namespace mlir::tsmlir::ts {

std::optional<SmallVector<int64_t>>
broadcastShapes(ArrayRef<ArrayRef<int64_t>> shapes) {
  SmallVector<int64_t> result;
  for (ArrayRef<int64_t> shape : shapes) {
    SmallVector<int64_t> next;
    if (!OpTrait::util::getBroadcastedShape(result, shape, next))
      return std::nullopt;
    result = std::move(next);
  }
  return result;
}

} // namespace mlir::tsmlir::ts
