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

#include "tsmlir/Compiler/Options.h"
#include "tsmlir/Compiler/PrepareGraph.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace mlir::tsmlir {

/// A result, as the .npy file it is written to.
struct HostTensor {
  Dtype dtype = Dtype::Float;
  SmallVector<int64_t> shape;
  std::vector<uint8_t> data;
};

/// A graph compiled for one set of input types.
class CompiledGraph {
public:
  ~CompiledGraph();

  /// Specialises the entry of `module` (imported TorchScript) for `inputs`,
  /// then optimises, fuses, lowers and compiles it. Errors are reported as
  /// diagnostics; `module` is rewritten. With `compileOnly`, no device is
  /// needed and nothing can be invoked.
  static FailureOr<std::unique_ptr<CompiledGraph>>
  compile(ModuleOp module, ArrayRef<RunValue> inputs,
          const CompileOptions &options, bool compileOnly = false);

  /// Copies `inputs` into the argument buffers (they must be the values the
  /// graph was compiled for, in kind, dtype and shape; a graph compiled for
  /// dynamic sizes takes any size other than 0 and 1 where it has `?`) and
  /// sizes the outputs. Fails when memory for them is refused.
  LogicalResult setInputs(ArrayRef<RunValue> inputs);
  /// Calls the compiled entry once on the argument buffers (on the GPU:
  /// queued and waited for; a CUDA error fails it with its message). On the
  /// CPU, a graph that raises (prim::RaiseException, a failed index check)
  /// fails it with the message in `raised`.
  LogicalResult invoke();
  /// The message of the exception the last call raised, or empty.
  std::string raised;
  /// The results of the last call.
  SmallVector<HostTensor> getOutputs() const;

  /// Whether invokeInPlace applies: the code runs on the CPU, no output is
  /// sized at run time and all sizes are static.
  bool canInvokeInPlace() const;
  /// The outputs' dtypes and shapes, in order.
  SmallVector<std::pair<Dtype, SmallVector<int64_t>>> getOutputSpecs() const;
  /// Calls the compiled entry on the caller's memory, without copies:
  /// `inputs` are the values it was compiled for (a tensor's data is not
  /// read from them), `tensorData` the data of each tensor among them, in
  /// order, and `outputData` where each output is written: C order, the
  /// compiled dtypes and shapes, 16-byte aligned.
  LogicalResult invokeInPlace(ArrayRef<RunValue> inputs,
                              ArrayRef<const void *> tensorData,
                              ArrayRef<void *> outputData);
  /// The median and minimum of `runs` calls' times in microseconds: wall
  /// clock on the CPU, CUDA events on the GPU; with the kernels launched by
  /// a call.
  struct Timing {
    double median = 0, min = 0;
    double kernelsPerCall = 0;
  };
  FailureOr<Timing> benchmark(unsigned runs);

  /// Facts for the tool's summary.
  unsigned numFusionGroups = 0;
  /// PreparedGraph::noneOutputs and gradParams.
  SmallVector<unsigned> noneOutputs;
  SmallVector<std::string> gradParams;
  /// CUDA: kernels in the module (gpu.launch sites), and the device's name.
  unsigned numKernels = 0;
  std::string deviceName;
  SmallVector<std::string> outputTypes;
  double compileSeconds = 0;
  /// Where compileSeconds went, stage by stage (wall clock, seconds):
  /// prepare (specialise, optimise, fuse: prepareGraph), linalg (ts to
  /// linalg, groups fused), lower (buffers, loops, the LLVM dialect; on the
  /// GPU, kernels and PTX), translate (to LLVM IR), optimize (LLVM's IR
  /// optimiser), codegen (machine code, by the JIT). Stages a device does
  /// not run stay 0.
  struct StageTimes {
    double prepare = 0, linalg = 0, lower = 0, translate = 0, optimize = 0,
           codegen = 0;
  };
  StageTimes stageSeconds;

private:
  CompiledGraph() = default;
  struct Buffer;
  bool onGPU = false;
  LogicalResult compileForCUDA(ModuleOp module, StringRef entry,
                               const CompileOptions &options, bool compileOnly);
  std::unique_ptr<ExecutionEngine> engine;
  std::string symbol;
  /// The entry's packed interface (`_mlir__mlir_ciface_<entry>`).
  void (*entryPoint)(void **) = nullptr;
  std::vector<std::unique_ptr<Buffer>> arguments, outputs;
  /// For each output sized at run time, the buffer its sizes are written
  /// to (null for the others); passed after all the outputs.
  std::vector<std::unique_ptr<Buffer>> outputSizes;
  /// For each output of dynamic sizes (a dynamic specialisation), the
  /// (argument, dim) pairs of kResultDimsAttrName; empty for the others.
  std::vector<SmallVector<int64_t>> resultDims;
  /// Sizes the outputs of dynamic sizes for the arguments' sizes.
  LogicalResult sizeOutputs();
  std::vector<double> floatArguments;
  std::vector<void *> packed;
  void pack();
};

} // namespace mlir::tsmlir

#endif // TSMLIR_EXECUTIONENGINE_CPURUNNER_H
