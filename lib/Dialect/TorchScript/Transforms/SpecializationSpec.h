//===- SpecializationSpec.h - What ts-specialize specialises for -*- C++
//-*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The options of ts-specialize and ts-insert-guards:
//   argN=DTYPE[d0,d1,...]   inputs=a.npy,b.npy   func=NAME   device=DEVICE
// parsed when the pass is created (syntax), resolved against a function when
// it runs (argument indices and types, .npy headers). Private to the
// TorchScript transforms library.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_SPECIALIZATIONSPEC_H
#define TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_SPECIALIZATIONSPEC_H

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir::tsmlir::ts {

struct SpecializationSpec {
  /// One `argN=...`: the dtype name (empty: not given) and the sizes
  /// (nullopt: not given; kUnknown for `?`).
  struct Arg {
    unsigned index = 0;
    std::string dtype;
    std::optional<SmallVector<int64_t>> sizes;
    /// The text, for diagnostics.
    std::string text;
  };

  SmallVector<Arg> args;
  /// The .npy files of `inputs=`, for the tensor arguments in order.
  SmallVector<std::string> inputs;
  /// `func=`: the function to specialise, or empty.
  std::string funcName;
  /// `device=`: where every tensor of the function lives ("cpu", "cuda:0"),
  /// or empty.
  std::string device;

  /// Parses the pass's option string, reporting syntax errors through
  /// `errorHandler`.
  LogicalResult parse(StringRef options,
                      function_ref<LogicalResult(const Twine &)> errorHandler);
};

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

#endif // TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_SPECIALIZATIONSPEC_H
