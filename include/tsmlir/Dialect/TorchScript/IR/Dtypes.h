//===- Dtypes.h - The ts dialect's element types of dtypes ------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The MLIR element type of each dtype of tsmlir's dtype table
// (tsmlir/Support/Dtype.h): f32, f64, f16, bf16, si8 ... si64, ui8, i1 and
// complex<f16/f32/f64>. A ts.tensor's dtype is one of these types.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_IR_DTYPES_H
#define TSMLIR_DIALECT_TORCHSCRIPT_IR_DTYPES_H

#include "tsmlir/Support/Dtype.h"

#include "mlir/IR/Types.h"

#include <optional>

namespace mlir::tsmlir::ts {

/// The element type of `dtype`.
Type getDtypeType(MLIRContext *context, Dtype dtype);
/// The dtype whose element type `type` is; nullopt for any other type
/// (signless i64, tuples, ...).
std::optional<Dtype> getDtype(Type type);
/// The row of `type`'s dtype, or null.
const DtypeInfo *lookupDtypeInfo(Type type);

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_IR_DTYPES_H
