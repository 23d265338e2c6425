//===- Options.h - How a graph is compiled ----------------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The compiler driver's options, one typed tree that tsmlir-run,
// tsmlir-compile, the JIT, the C API and the Python package fill in (the
// tools from their command lines, through CommandLine.h) and every stage
// reads: preparing the graph, the lowering pipelines, LLVM, the GPU kernels.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_COMPILER_OPTIONS_H
#define TSMLIR_COMPILER_OPTIONS_H

#include "tsmlir/Dialect/Fusion/Transforms/FusionPlanner.h"
#include "tsmlir/Dialect/TorchScript/Autodiff/Autodiff.h"

#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::tsmlir {

struct LowerToLLVMOptions;
struct LowerToNVVMOptions;

/// Where the compiled code runs.
enum class Device { CPU, CUDA };

/// "cpu" or "cuda".
StringRef stringifyDevice(Device device);
std::optional<Device> symbolizeDevice(StringRef name);

/// Where a module's state (ts.module_state) lives between calls.
enum class ModuleStateHome {
  /// In the compiled graph: a global buffer that each call starts from
  /// (CPU), as calling the PyTorch module again does.
  Graph,
  /// With the caller: each state is an input after the graph's inputs and
  /// an output (its value after the call) after its outputs, in the order
  /// of PreparedGraph::states. The JIT keeps one state that every
  /// specialisation reads and writes.
  Caller,
};

/// The host the code is compiled for ahead of time (tsmlir-compile); code
/// compiled just in time is for this machine.
struct HostOptions {
  /// The target triple: empty for this machine's.
  std::string triple;
  /// `generic`, `native` (this machine's, with its features) or a name
  /// such as `skylake-avx512`.
  std::string cpu = "generic";
  /// Extra target features (`+avx2,...`).
  std::string features;
};

/// How the kernels of the GPU are made.
struct GpuOptions {
  /// The chip (`sm_80`, `sm_90`).
  std::string chip = "sm_90";
  /// What the object embeds: `isa` (PTX, compiled by the driver when it is
  /// loaded) or `bin` (cubin, through ptxas now).
  std::string format = "isa";
  /// Elementwise kernels: threads per block, most blocks a launch (threads
  /// then stride over the rest) and elements per thread.
  int64_t blockSize = 256;
  int64_t maxBlocks = 65536;
  int64_t vectorWidth = 4;
};

struct CompileOptions {
  /// The function to compile (default: `main`, or the only public one).
  std::string entry;
  /// The fuser that forms fusion groups, or none (every op its own loop
  /// nest).
  std::optional<fusion::Strategy> fusion = fusion::Strategy::NNC;
  Device device = Device::CPU;
  /// Worker threads of the parallel loops (CPU).
  unsigned threads = 1;
  /// Polynomial f32 math (vectorisable) instead of libm calls (CPU).
  bool approximateMath = true;
  /// Convolutions and matrix products, with their epilogues, as calls into
  /// libtsmlir_kernels (oneDNN) instead of compiled loops (CPU, in-process
  /// compilation; ts-library-kernels).
  bool libraryKernels = false;
  /// LLVM's optimisation and code generation level, 0 to 3.
  unsigned optLevel = 3;
  /// Where the module is written after each stage, or empty.
  std::string dumpDir;
  /// Compile for dynamic sizes (CPU): each size of a tensor argument other
  /// than 0 and 1 becomes `?`, so that the code serves every tensor of the
  /// same dtypes, ranks and sizes 0 and 1 (the JIT's DYNAMIC steps). Only
  /// graphs of ops whose lowering takes dynamic sizes compile so.
  bool dynamicSizes = false;
  /// Where a module's state (ts.module_state: a layer's running statistics
  /// in training mode, written in place) lives between calls.
  ModuleStateHome moduleState = ModuleStateHome::Graph;
  /// Compile the gradients too (ts-differentiate): the entry takes,
  /// after its inputs, one upstream gradient per floating-point tensor
  /// output, and returns, after its outputs, the gradient of each
  /// floating-point tensor input (CPU; not with dynamic sizes).
  bool gradients = false;
  /// With gradients: what the forward saves for the backward, which stay
  /// two functions the entry calls one after the other.
  ts::SavePolicy autodiffPolicy = ts::SavePolicy::MinCut;
  HostOptions host;
  GpuOptions gpu;

  /// `nnc`, `pointwise`, `nvfuser`, `aggressive`, or `none`.
  StringRef getFusionName() const;
  /// Sets `fusion` from its name (`none` for no groups); false for an
  /// unknown name.
  bool setFusion(StringRef name);
  /// Values out of range (opt level, GPU block size, vector width, ...),
  /// named as the command-line flags name them.
  llvm::Error verify() const;
  /// Every option that changes the compiled code, as text: part of the
  /// JIT's persistent cache keys.
  std::string describe() const;
};

/// Whether this build has libtsmlir_kernels (CompileOptions::libraryKernels).
bool hasLibraryKernels();
/// The path of libtsmlir_kernels, which in-process compiled code that calls
/// it loads; empty without it.
StringRef getLibraryKernelsPath();

/// The lowering pipelines' options for `options`, compiling function
/// `entry`: for the CPU (--ts-lower-to-llvm) and for NVIDIA GPUs
/// (--ts-lower-to-nvvm).
void getLoweringOptions(const CompileOptions &options, StringRef entry,
                        LowerToLLVMOptions &lowering);
void getLoweringOptions(const CompileOptions &options, StringRef entry,
                        LowerToNVVMOptions &lowering);

} // namespace mlir::tsmlir

#endif // TSMLIR_COMPILER_OPTIONS_H
