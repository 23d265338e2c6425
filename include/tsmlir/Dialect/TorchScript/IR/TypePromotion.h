//===- TypePromotion.h - PyTorch's type promotion on ts dtypes --*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// PyTorch's type promotion (c10::promoteTypes and at::result_type's
// ResultTypeState) on the dtypes of ts tensors, in one place: the shape
// rules infer result dtypes with it and the lowering computes mixed-dtype
// comparisons in the type it gives.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_IR_TYPEPROMOTION_H
#define TSMLIR_DIALECT_TORCHSCRIPT_IR_TYPEPROMOTION_H

#include "mlir/IR/Types.h"

namespace mlir::tsmlir::ts {

/// c10::promoteTypes on two dtypes; a null dtype is the identity.
Type promoteTypes(Type a, Type b);

/// How an operand takes part in at::result_type: a tensor with dimensions,
/// a 0-d tensor, or a number (a "wrapped number": its category counts, not
/// its width).
enum class PromotionPriority { Dimensioned, ZeroDim, Wrapped };

/// c10's ResultTypeState: the operands' dtypes promoted by priority, then
/// combined by category (at::native::result_type).
class ResultTypeState {
public:
  /// Adds an operand of `dtype` (for a number, its wrapped dtype:
  /// getWrappedNumberDtype).
  void add(Type dtype, PromotionPriority priority);
  /// The result type; null when no operand was added.
  Type getResult() const;

private:
  Type dimensioned, zeroDim, wrapped;
};

/// The dtype a TorchScript number of type `type` (int, float, bool,
/// complex) takes part in promotion with: si64, the default float (f32),
/// i1, complex<f32>; null for any other type.
Type getWrappedNumberDtype(Type type);

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_IR_TYPEPROMOTION_H
