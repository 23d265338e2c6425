//===- CommandLine.h - The compile options as flags -------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The flags of CompileOptions, declared once for every tool that compiles a
// graph (tsmlir-run, tsmlir-compile): a tool holds one CompileOptionFlags,
// made before it parses its command line, and reads the options from it.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_COMPILER_COMMANDLINE_H
#define TSMLIR_COMPILER_COMMANDLINE_H

#include "tsmlir/Compiler/Options.h"

#include "llvm/Support/CommandLine.h"

#include <memory>

namespace mlir::tsmlir {

class CompileOptionFlags {
public:
  struct Scope {
    /// The host of code compiled ahead of time: --mtriple, --mcpu, --mattr.
    bool host = false;
    /// Worker threads: --num-threads.
    bool threads = false;
    /// Library kernels for products: --library-kernels, on by default
    /// where this build has them when `libraryKernelsByDefault`.
    bool libraryKernels = false;
    bool libraryKernelsByDefault = true;
  };
  /// Declares, in `category`: --entry, --strategy, --no-fusion, -O,
  /// --exact-math, --dump-ir, --ts-autodiff-policy, --gpu-chip, --gpu-format,
  /// --gpu-block-size,
  /// --gpu-max-blocks, --gpu-vector-width, and those `scope` adds.
  CompileOptionFlags(llvm::cl::OptionCategory &category, Scope scope);
  ~CompileOptionFlags();

  /// The options the command line gave (the device is the tool's to set),
  /// or what is wrong with them.
  llvm::Expected<CompileOptions> get() const;

private:
  struct Flags;
  std::unique_ptr<Flags> flags;
};

} // namespace mlir::tsmlir

#endif // TSMLIR_COMPILER_COMMANDLINE_H
