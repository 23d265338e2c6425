//===- TorchScriptTypes.h - TorchScript value types -------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_IR_TORCHSCRIPTTYPES_H
#define TSMLIR_DIALECT_TORCHSCRIPT_IR_TORCHSCRIPTTYPES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h.inc"

namespace mlir::tsmlir::ts {

/// Whether `type` belongs to the `ts` dialect.
bool isTorchScriptType(Type type);

/// Whether `type` can be passed where a schema says `Scalar`: int, float,
/// bool, complex or Scalar itself.
bool isScalarLike(Type type);

/// TorchScript's subtype relation, as the front end checks it: `sub` can be
/// used where `super` is expected (a refined tensor for a plain one, an int
/// for an `Optional[int]` or a `Scalar`, `None` for any optional, anything
/// for `Any`).
bool isValidSubtype(Type sub, Type super);

/// Whether `refined` states at least what `general` states, identically: a
/// refined `!ts.tensor` of a less refined one, a ranked builtin tensor of an
/// unranked one or one with dynamic sizes, or equal types.
bool isRefinementOf(Type refined, Type general);

/// Whether one value could have both types: every fact both state agrees
/// (a refinement either way, or two tensor types that state different
/// facts, such as `Float(4)` and `Tensor(requires_grad=0)`). With
/// `ignoreRequiresGrad`, tensors may also differ in requires_grad, as a
/// differentiable graph's inner values do from its inputs.
bool areCompatible(Type a, Type b, bool ignoreRequiresGrad = false);

/// Whether `type` is a valid tensor element type: one that PyTorch has as a
/// dtype (f16, bf16, f32, f64, si8, ui8, si16, si32, si64, i1, complex).
bool isValidDtype(Type type);

/// Prints sizes or strides as the tensor type does: `[2, ?, 3]`.
void printDims(llvm::raw_ostream &os, llvm::ArrayRef<int64_t> dims);

/// PyTorch's `c10::ScalarType` code of a dtype (`Float` is 6), or nullopt.
std::optional<int64_t> getScalarTypeCode(Type dtype);
/// The dtype with the given `c10::ScalarType` code, or a null type.
Type getDtypeForScalarTypeCode(MLIRContext *context, int64_t code);
/// The name PyTorch prints for a dtype in tensor types (`Float`, `Long`), or
/// an empty string.
llvm::StringRef getTorchScriptDtypeName(Type dtype);
/// The dtype PyTorch prints as `name` (`Float`, `Long`, ...), or null.
Type getDtypeForTorchScriptName(MLIRContext *context, llvm::StringRef name);

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_IR_TORCHSCRIPTTYPES_H
