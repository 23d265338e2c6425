//===- CommandLine.cpp - The compile options as command-line flags --------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Compiler/CommandLine.h"

#include <optional>

using namespace mlir;
using namespace mlir::tsmlir;
namespace cl = llvm::cl;

/// The flags, made in the tool's category when the tool makes its
/// CompileOptionFlags (cl::opt registers itself on construction).
struct CompileOptionFlags::Flags {
  cl::opt<std::string> entry;
  cl::opt<std::string> strategy;
  cl::opt<bool> noFusion;
  cl::opt<char> optLevel;
  cl::opt<bool> exactMath;
  cl::opt<std::string> dumpDir;
  cl::opt<ts::SavePolicy> autodiffPolicy;
  cl::opt<std::string> gpuChip, gpuFormat;
  cl::opt<int64_t> gpuBlockSize, gpuMaxBlocks, gpuVectorWidth;
  std::optional<cl::opt<std::string>> triple, cpu, features;
  std::optional<cl::opt<unsigned>> threads;
  std::optional<cl::opt<bool>> libraryKernels;

  explicit Flags(cl::OptionCategory &category)
      : entry("entry", cl::desc("The function to compile (default: main)"),
              cl::init(""), cl::cat(category)),
        strategy("strategy",
                 cl::desc("Fusion strategy: nnc (default), pointwise, "
                          "nvfuser, aggressive"),
                 cl::init("nnc"), cl::cat(category)),
        noFusion("no-fusion",
                 cl::desc("Form no fusion groups: every op is its own loop "
                          "nest"),
                 cl::init(false), cl::cat(category)),
        optLevel("O",
                 cl::desc("LLVM's optimisation level: -O0 .. -O3 (default "
                          "-O3)"),
                 cl::Prefix, cl::init('3'), cl::cat(category)),
        exactMath("exact-math",
                  cl::desc("Call libm for f32 math instead of vectorizable "
                           "polynomials"),
                  cl::init(false), cl::cat(category)),
        dumpDir("dump-ir",
                cl::desc("Write the module after each stage (ts.mlir, "
                         "linalg.mlir or gpu.mlir, llvm.mlir) into DIR"),
                cl::value_desc("DIR"), cl::init(""), cl::cat(category)),
        autodiffPolicy(
            "ts-autodiff-policy",
            cl::desc("With gradients (--grad-output): what the forward "
                     "saves for the backward"),
            cl::values(clEnumValN(ts::SavePolicy::SaveAll, "save-all",
                                  "every value the backward reads, as "
                                  "PyTorch"),
                       clEnumValN(ts::SavePolicy::MinCut, "min-cut",
                                  "a minimum cut by bytes, cheap ops "
                                  "recomputed (default)")),
            cl::init(ts::SavePolicy::MinCut), cl::cat(category)),
        gpuChip("gpu-chip", cl::desc("For CUDA: the GPU (sm_80, sm_90)"),
                cl::init("sm_90"), cl::cat(category)),
        gpuFormat("gpu-format",
                  cl::desc("For CUDA: embed PTX (isa, compiled by the driver "
                           "when loaded) or cubin (bin, compiled by ptxas "
                           "now)"),
                  cl::init("isa"), cl::cat(category)),
        gpuBlockSize("gpu-block-size",
                     cl::desc("For CUDA: threads per block of elementwise "
                              "kernels"),
                     cl::init(256), cl::cat(category)),
        gpuMaxBlocks("gpu-max-blocks",
                     cl::desc("For CUDA: most blocks a kernel launches "
                              "(threads then stride over the rest)"),
                     cl::init(65536), cl::cat(category)),
        gpuVectorWidth("gpu-vector-width",
                       cl::desc("For CUDA: elements per thread of vectorised "
                                "elementwise kernels (1, 2, 4 or 8)"),
                       cl::init(4), cl::cat(category)) {}
};

CompileOptionFlags::CompileOptionFlags(cl::OptionCategory &category,
                                       Scope scope)
    : flags(std::make_unique<Flags>(category)) {
  if (scope.host) {
    flags->triple.emplace(
        "mtriple", cl::desc("The target triple (default: this machine's)"),
        cl::init(""), cl::cat(category));
    flags->cpu.emplace("mcpu",
                       cl::desc("The CPU: generic (default), native (this "
                                "machine's, with its features), or a name "
                                "such as skylake-avx512"),
                       cl::init("generic"), cl::cat(category));
    flags->features.emplace("mattr",
                            cl::desc("Extra target features (+avx2,..)"),
                            cl::init(""), cl::cat(category));
  }
  if (scope.threads)
    flags->threads.emplace(
        "num-threads",
        cl::desc("Worker threads of the compiled code (also --threads N: "
                 "LLVM owns the option name `threads`, so it is read before "
                 "LLVM's parser)"),
        cl::init(1), cl::cat(category));
  if (scope.libraryKernels)
    flags->libraryKernels.emplace(
        "library-kernels",
        cl::desc(scope.libraryKernelsByDefault
                     ? "Run convolutions and matrix products, with the "
                       "pointwise ops after them, on libtsmlir_kernels "
                       "(oneDNN); --library-kernels=false compiles their "
                       "loops (default: on where the library was built)"
                     : "Run convolutions and matrix products, with the "
                       "pointwise ops after them, on libtsmlir_kernels "
                       "(oneDNN), which the code then links (default: off, "
                       "their loops compiled)"),
        cl::init(scope.libraryKernelsByDefault && hasLibraryKernels()),
        cl::cat(category));
}

CompileOptionFlags::~CompileOptionFlags() = default;

llvm::Expected<CompileOptions> CompileOptionFlags::get() const {
  CompileOptions options;
  options.entry = flags->entry;
  if (flags->noFusion)
    options.fusion.reset();
  else if (!options.setFusion(flags->strategy))
    return llvm::createStringError(
        "--strategy must be nnc, pointwise, nvfuser or aggressive, not '" +
        flags->strategy + "'");
  char level = flags->optLevel;
  if (level < '0' || level > '3')
    return llvm::createStringError(std::string("-O") + level +
                                   ": the level is 0, 1, 2 or 3");
  options.optLevel = level - '0';
  options.approximateMath = !flags->exactMath;
  options.dumpDir = flags->dumpDir;
  options.autodiffPolicy = flags->autodiffPolicy;
  options.gpu.chip = flags->gpuChip;
  options.gpu.format = flags->gpuFormat;
  options.gpu.blockSize = flags->gpuBlockSize;
  options.gpu.maxBlocks = flags->gpuMaxBlocks;
  options.gpu.vectorWidth = flags->gpuVectorWidth;
  if (flags->triple) {
    options.host.triple = *flags->triple;
    options.host.cpu = *flags->cpu;
    options.host.features = *flags->features;
  }
  if (flags->threads)
    options.threads = *flags->threads;
  if (flags->libraryKernels) {
    if (*flags->libraryKernels && !hasLibraryKernels())
      return llvm::createStringError(
          "--library-kernels: this build has no libtsmlir_kernels (it needs "
          "oneDNN, Debian: libdnnl-dev)");
    options.libraryKernels = *flags->libraryKernels;
  }
  if (llvm::Error error = options.verify())
    return std::move(error);
  return options;
}
