//===- CpuRunner.h - Compile a graph for its inputs and run it --*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What tsmlir-run does, as a library: specialise an imported graph for the
// inputs it is given, optimise and fuse it, lower it with --ts-lower-to-llvm,
// compile it with MLIR's ExecutionEngine and call it.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_EXECUTIONENGINE_CPURUNNER_H
#define TSMLIR_EXECUTIONENGINE_CPURUNNER_H

#include "tsmlir/Support/Npy.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace mlir::tsmlir {

/// One input of a graph: a tensor from a .npy file, or a Python number,
/// bool or None.
struct RunValue {
  enum class Kind { Tensor, Int, Float, Bool, None };
  Kind kind = Kind::None;
  NpyArray tensor;
  int64_t intValue = 0;
  double floatValue = 0;
  bool boolValue = false;
  /// As given on the command line, for messages.
  std::string text;

  /// `3`, `2.5`, `true`, `false`, `none`, or a path to a .npy file.
  static llvm::Expected<RunValue> parse(llvm::StringRef text);
};

/// A result, as the .npy file it is written to.
struct HostTensor {
  std::string descr; // '<f4', '|b1', ...
  SmallVector<int64_t> shape;
  std::vector<uint8_t> data;
};

struct CpuCompileOptions {
  /// The function to run (default: `main`, or the only public function).
  std::string entry;
  /// The fusion strategy (`nnc`, `pointwise`, `nvfuser`, `aggressive`), or
  /// empty for no fusion groups.
  std::string strategy = "nnc";
  /// Worker threads of the parallel loops.
  unsigned threads = 1;
  /// Polynomial f32 math (vectorizable) instead of libm calls.
  bool approximateMath = true;
  /// Where to write the module after each stage (ts, linalg, llvm), or empty.
  std::string dumpDir;
};

/// A graph compiled for one set of input types.
class CompiledGraph {
public:
  ~CompiledGraph();

  /// Specialises the entry of `module` (imported TorchScript) for `inputs`,
  /// then optimises, fuses, lowers and compiles it. Errors are reported as
  /// diagnostics; `module` is rewritten.
  static FailureOr<std::unique_ptr<CompiledGraph>>
  compile(ModuleOp module, ArrayRef<RunValue> inputs,
          const CpuCompileOptions &options);

  /// Copies `inputs` into the argument buffers (they must be the values the
  /// graph was compiled for, in kind, dtype and shape).
  void setInputs(ArrayRef<RunValue> inputs);
  /// Calls the compiled entry once on the argument buffers.
  LogicalResult invoke();
  /// The results of the last call.
  SmallVector<HostTensor> getOutputs() const;

  /// Facts for the tool's summary.
  unsigned numFusionGroups = 0;
  SmallVector<std::string> outputTypes;
  double compileSeconds = 0;

private:
  CompiledGraph() = default;
  struct Buffer;
  std::unique_ptr<ExecutionEngine> engine;
  std::string symbol;
  /// The entry's packed interface (`_mlir__mlir_ciface_<entry>`).
  void (*entryPoint)(void **) = nullptr;
  std::vector<std::unique_ptr<Buffer>> arguments, outputs;
  std::vector<double> floatArguments;
  std::vector<void *> packed;
  void pack();
};

} // namespace mlir::tsmlir

#endif // TSMLIR_EXECUTIONENGINE_CPURUNNER_H
