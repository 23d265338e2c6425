//===- InitAll.h - Register every tsmlir dialect and pass -------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one registration header shared by every tool (tsmlir-opt,
// tsmlir-translate, tsmlir-run, tsmlir-compile) and the Python package.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_INITALL_H
#define TSMLIR_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::tsmlir {

/// Adds the tsmlir dialects (`ts`, `fusion`) to `registry`.
void registerAllDialects(DialectRegistry &registry);

/// Adds the tsmlir dialects and the upstream dialects the pipelines use.
void registerAllDialectsWithUpstream(DialectRegistry &registry);

/// Registers every tsmlir pass and pipeline with the global pass registry.
void registerAllPasses();

} // namespace mlir::tsmlir

#endif // TSMLIR_INITALL_H
