//===- SharedModel.h - Call a shared object through the C ABI ---*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A CPU model that the JIT's cache compiled ahead of time into a shared
// object (tsmlir-compile --shared's form): opened with dlopen, found through
// `tsmlir_shared_model`, and called through tsmlir/Runtime/Abi.h.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_JIT_SHAREDMODEL_H
#define TSMLIR_LIB_JIT_SHAREDMODEL_H

#include "tsmlir/ExecutionEngine/CpuRunner.h"

#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <mutex>

struct tsmlir_signature;

namespace mlir::tsmlir::jit {

class SharedModel {
public:
  /// Opens the shared object at `path` and its only entry.
  static llvm::Expected<std::unique_ptr<SharedModel>> open(StringRef path);
  ~SharedModel();

  /// Calls the entry with `inputs`, all of the graph's arguments (the ones
  /// the model was compiled with fixed are left out); writes the outputs.
  /// A status other than TSMLIR_OK fails the call, its message in `error`.
  LogicalResult call(ArrayRef<RunValue> inputs,
                     SmallVectorImpl<HostTensor> &outputs, std::string &error);

private:
  SharedModel() = default;
  void *handle = nullptr;
  const tsmlir_signature *signature = nullptr;
  const char *(*lastError)() = nullptr;
  const char *(*statusName)(int32_t) = nullptr;
};

} // namespace mlir::tsmlir::jit

#endif // TSMLIR_LIB_JIT_SHAREDMODEL_H
