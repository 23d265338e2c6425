//===- RunSharedObject.h - Run a model compiled by tsmlir-compile -*- C++ -*-=//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_TOOLS_TSMLIR_RUN_RUNSHAREDOBJECT_H
#define TSMLIR_TOOLS_TSMLIR_RUN_RUNSHAREDOBJECT_H

#include "tsmlir/Compiler/PrepareGraph.h"

namespace mlir::tsmlir {

struct SharedObjectRun {
  std::string path;
  /// The entry to call (NAME_ENTRY or ENTRY), or empty for the only one.
  std::string entry;
  SmallVector<RunValue> inputs;
  std::string outputDir;
  /// Calls before the outputs are written (a module's state carries).
  unsigned repeat = 1;
  unsigned benchmark = 0;
};

/// Runs a shared object from `tsmlir-compile --shared`; the tool's exit
/// status.
int runSharedObject(const SharedObjectRun &run);

} // namespace mlir::tsmlir

#endif // TSMLIR_TOOLS_TSMLIR_RUN_RUNSHAREDOBJECT_H
