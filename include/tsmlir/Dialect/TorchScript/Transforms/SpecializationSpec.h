//===- SpecializationSpec.h - What ts-specialize is for ---------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The options of ts-specialize and ts-insert-guards:
//   argN=DTYPE[d0,d1,...]   inputs=a.npy,b.npy   func=NAME   device=DEVICE
// parsed from the pass's option text (syntax), or filled in by a driver that
// builds the pass with createTSSpecializePass(spec).
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_SPECIALIZATIONSPEC_H
#define TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_SPECIALIZATIONSPEC_H

#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

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

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_SPECIALIZATIONSPEC_H
