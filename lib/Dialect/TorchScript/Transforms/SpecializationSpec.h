//===- SpecializationSpec.h - A spec resolved for a function ----*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The options of ts-specialize and ts-insert-guards (the public
// SpecializationSpec), resolved against a function when the pass runs
// (argument indices and types, .npy headers). Private to the TorchScript
// transforms library.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_RESOLVEDSPEC_H
#define TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_RESOLVEDSPEC_H

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"
#include "tsmlir/Dialect/TorchScript/Transforms/SpecializationSpec.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir::tsmlir::ts {

/// The spec's types for a function: the .npy headers read and the dtype
/// names resolved, once per pass run.
struct ResolvedSpec {
  /// `argN=` types, by argument index.
  SmallVector<std::pair<unsigned, TensorType>> args;
  SmallVector<std::string> argTexts;
  /// `inputs=` types, for the tensor arguments in order.
  SmallVector<TensorType> inputs;
  SmallVector<std::string> inputPaths;
};

/// Reads the .npy headers and builds the types of `spec`; errors are
/// reported at `loc`.
FailureOr<ResolvedSpec> resolveSpec(const SpecializationSpec &spec,
                                    MLIRContext *ctx, Location loc);

/// The argument types of `func` once specialised for `spec`, or failure
/// (reported on `func` when `report` is set) when the spec does not fit: an
/// index out of range, an argument that is not a tensor, a type that
/// contradicts the argument's. With `allowOptional`, an `Optional[Tensor]`
/// argument may be specialised too: it becomes a tensor.
FailureOr<SmallVector<Type>> getSpecializedArgTypes(func::FuncOp func,
                                                    const ResolvedSpec &spec,
                                                    bool allowOptional,
                                                    bool report);

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_RESOLVEDSPEC_H
