//===- Upsampling.h - The scales of upsampling ops --------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the lowering of upsampling ops and their derivatives both read.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_IR_UPSAMPLING_H
#define TSMLIR_DIALECT_TORCHSCRIPT_IR_UPSAMPLING_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir::tsmlir::ts {

/// The scales an upsampling op (upsample_nearest/linear/bilinear/trilinear/
/// bicubic, plain or .vec) was given for each of its last `n` dims: the
/// plain forms' scale operands from `firstScale`, the .vec forms'
/// scale_factors when no output_size is given; nullopt where there is none
/// or it is not positive. Fails when they are not constants.
FailureOr<SmallVector<std::optional<double>>>
getUpsampleScales(Operation *op, unsigned n, bool vec, unsigned firstScale);

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_IR_UPSAMPLING_H
