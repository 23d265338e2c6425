//===- RunJit.h - tsmlir-run --jit: calls through a JitFunction -*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_TOOLS_TSMLIR_RUN_RUNJIT_H
#define TSMLIR_TOOLS_TSMLIR_RUN_RUNJIT_H

#include "tsmlir/JIT/JitFunction.h"

namespace mlir::tsmlir {

struct JitRun {
  /// The graph's file name, for messages.
  std::string name;
  /// Each call's arguments.
  SmallVector<SmallVector<RunValue>> calls;
  /// Where call<K>/out<i>.npy are written.
  std::string outputDir;
  jit::JitOptions options;
  /// With threads > 1: that many threads each make every call `repeat`
  /// times (thread t starting at call t), and every result of a call must
  /// equal its first, bit for bit.
  unsigned threads = 1, repeat = 1;
  /// Before each call, wait for the compilations going on in the
  /// background (with a compile budget): makes such runs repeatable.
  bool settle = false;
};

/// Runs the calls; the tool's exit status.
int runJit(OwningOpRef<ModuleOp> module, JitRun run);

} // namespace mlir::tsmlir

#endif // TSMLIR_TOOLS_TSMLIR_RUN_RUNJIT_H
