//===- AotCompiler.h - Ahead-of-time compilation to objects -----*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What tsmlir-compile does, as a library: a prepared graph (PrepareGraph.h)
// is lowered for the CPU (--ts-lower-to-llvm) or an NVIDIA GPU
// (--ts-lower-to-nvvm), given the C ABI of tsmlir/Runtime/Abi.h (an entry
// function, its signature, and the code that unpacks a call for the compiled
// function), translated to LLVM IR and compiled to an object file; a shared
// object is linked from it with the C compiler driver.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_TARGET_AOT_AOTCOMPILER_H
#define TSMLIR_TARGET_AOT_AOTCOMPILER_H

#include "tsmlir/Compiler/PrepareGraph.h"
#include "tsmlir/Support/Npy.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::tsmlir {

struct AotOptions {
  /// The C name of the model: symbols are NAME_ENTRY and
  /// NAME_ENTRY_signature.
  std::string name = "model";
  /// How the graph is compiled: its device is the target (the CPU, or CUDA
  /// with the host calling the kernels), `host` the CPU compiled for.
  CompileOptions compile;
  /// Whether the object goes into a shared object: it then also exports
  /// `tsmlir_shared_model`.
  bool shared = false;

  bool isCUDA() const { return compile.device == Device::CUDA; }
};

/// An argument's name as the ABI gives it: TorchScript's without its
/// uniquing suffix (`boxes1.1` -> `boxes1`).
std::string getAbiName(StringRef name);

/// Lowers the prepared `module` for `options.compile.device` and adds the
/// C ABI:
/// the result is an LLVM-dialect module ready for translation.
LogicalResult lowerForAot(ModuleOp module, const PreparedGraph &graph,
                          const AotOptions &options);

/// Adds the C ABI to a module lowered to the LLVM dialect whose entry
/// `_mlir_ciface_ENTRY` takes the graph's inputs, then its outputs.
LogicalResult buildCAbi(ModuleOp module, const PreparedGraph &graph,
                        const AotOptions &options);

/// Writes the C/C++ header of a compiled graph: the ABI's types and the
/// entry's declarations, with its signature in comments.
void emitCHeader(const PreparedGraph &graph, const AotOptions &options,
                 StringRef source, llvm::raw_ostream &os);

/// What the object is written as.
enum class AotOutput { Object, Assembly, LLVMIR };

/// Translates the LLVM-dialect `module` to LLVM IR, optimises it and writes
/// it to `path` as `kind`. Every symbol but the ABI's is made internal.
LogicalResult emitObject(ModuleOp module, const AotOptions &options,
                         AotOutput kind, StringRef path);

/// Links the object `objectPath` into the shared object `path`, with
/// libtsmlir_runtime.a from `runtimeDir` (and libtsmlir_cuda_runtime.so for
/// CUDA), by the C compiler driver `cc`. Errors are written to `errs`.
LogicalResult linkSharedObject(StringRef objectPath, StringRef path,
                               StringRef runtimeDir, StringRef cc,
                               const AotOptions &options,
                               llvm::raw_ostream &errs);

} // namespace mlir::tsmlir

#endif // TSMLIR_TARGET_AOT_AOTCOMPILER_H
