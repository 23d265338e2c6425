//===- TorchScriptToLinalg.h - ts to linalg conversion ----------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_CONVERSION_TORCHSCRIPTTOLINALG_TORCHSCRIPTTOLINALG_H
#define TSMLIR_CONVERSION_TORCHSCRIPTTOLINALG_TORCHSCRIPTTOLINALG_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tsmlir {

/// Maps TorchScript types to builtin types: a tensor with a known dtype and
/// static sizes to a `tensor<...>` of the signless element type (`si64` to
/// `i64`), `int` to `i64`, `float` to `f64`, `bool` to `i1`. Other types
/// (lists, None, strings, devices, tensors of unknown shape) have no
/// conversion: ops that use them read them as compile-time constants.
class TorchScriptTypeConverter : public TypeConverter {
public:
  TorchScriptTypeConverter();
};

/// The builtin element type that holds a TorchScript dtype.
Type convertDtype(Type dtype);

/// Adds the patterns that lower ts ops to linalg, tensor, arith, math and
/// scf. Then every pattern in `patterns` that has a root op must be rooted
/// at a registered op of a loaded dialect (the ts dialect must be loaded):
/// one that is not stops the compiler with a fatal error naming it.
/// `rowTemporaries`: as convert-ts-to-linalg's option of that name.
void populateTorchScriptToLinalgPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         bool rowTemporaries = true);

} // namespace mlir::tsmlir

#endif // TSMLIR_CONVERSION_TORCHSCRIPTTOLINALG_TORCHSCRIPTTOLINALG_H
