//===- tsmlir-run.cpp - Compile a TorchScript graph and run it ------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   tsmlir-run graph.txt --input x.npy --input 0.5 --output-dir out
//
// Imports the graph (TorchScript IR text, or .mlir in the ts dialect),
// specialises it for its inputs, optimises and fuses it, lowers it with
// --ts-lower-to-llvm, compiles it with MLIR's ExecutionEngine and runs it,
// writing out0.npy, out1.npy, ... (tuples flattened, numbers as 0-d arrays).
//
//===----------------------------------------------------------------------===//

#include "Outputs.h"
#include "RunJit.h"
#include "RunSharedObject.h"

#include "tsmlir/Compiler/CommandLine.h"
#include "tsmlir/Compiler/Load.h"
#include "tsmlir/ExecutionEngine/CpuRunner.h"
#include "tsmlir/InitAll.h"
#include "tsmlir/Target/TorchScript/Import.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace mlir::tsmlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("tsmlir-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<graph.txt | module.mlir | "
                                               "model.so>"),
                                      cl::cat(category));
static cl::list<std::string>
    inputs("input",
           cl::desc("The graph's arguments in order (a module's self "
                    "excluded): a .npy file, an int, a float, true, false "
                    "or none"),
           cl::value_desc("x.npy|3|2.5|true|none"), cl::cat(category));
static cl::list<std::string> gradOutputs(
    "grad-output",
    cl::desc("Run the backward too: the upstream gradient of each "
             "floating-point tensor output, in output order (repeatable); "
             "writes grad_inI.npy for each floating-point tensor input, I "
             "its number among the .npy inputs, and for a module "
             "grad_params.safetensors (each parameter's gradient by its "
             "dotted name)"),
    cl::value_desc("g.npy"), cl::cat(category));
static cl::opt<std::string>
    params("params",
           cl::desc("A safetensors file with the module's attributes"),
           cl::value_desc("p.safetensors"), cl::init(""), cl::cat(category));
static cl::list<std::string> functionFiles(
    "import-function",
    cl::desc("Also import the graph in FILE as the function NAME, the callee "
             "of a prim::CallFunction or prim::CallMethod (repeatable)"),
    cl::value_desc("NAME=FILE"), cl::cat(category));
static cl::opt<std::string>
    outputDir("output-dir", cl::desc("Where to write out0.npy, out1.npy, ..."),
              cl::init("."), cl::cat(category));
static cl::opt<unsigned> repeat(
    "repeat",
    cl::desc("Call the compiled graph N times with the same inputs (default "
             "1): a module's state (running statistics in training mode) "
             "carries from call to call; the outputs are the last call's"),
    cl::init(1), cl::cat(category));
static cl::opt<unsigned> benchmark(
    "benchmark",
    cl::desc("Run N more times after a warm-up run and print the median and "
             "minimum time of a call"),
    cl::init(0), cl::cat(category));
static cl::opt<std::string>
    device("device",
           cl::desc("Where to run: cpu (default) or cuda (an "
                    "NVIDIA GPU, through the tsmlir CUDA runtime)"),
           cl::init("cpu"), cl::value_desc("cpu|cuda"));
static cl::opt<bool>
    jitMode("jit",
            cl::desc("Run as PyTorch's profiling executor does: profile, "
                     "specialise behind guards, fall back (each --call is "
                     "one call)"),
            cl::init(false), cl::cat(category));
static cl::list<std::string> jitCalls(
    "call",
    cl::desc("With --jit: one call's arguments, comma-separated as --input "
             "takes them; outputs go to OUTDIR/call<K>/ (repeatable)"),
    cl::value_desc("x.npy,3,..."), cl::cat(category));
static cl::opt<bool> jitLog("jit-log",
                            cl::desc("With --jit: print each decision "
                                     "(profile, compile, hit, guard miss, "
                                     "fallback)"),
                            cl::init(false), cl::cat(category));
static cl::opt<unsigned>
    profileRuns("profile-runs",
                cl::desc("With --jit: calls that profile before the first "
                         "specialisation"),
                cl::init(1), cl::cat(category));
static cl::opt<std::string>
    jitStrategy("jit-strategy",
                cl::desc("With --jit: specialisations allowed, as "
                         "torch.jit.set_fusion_strategy (STATIC:2,DYNAMIC:10)"),
                cl::init("STATIC:2,DYNAMIC:10"), cl::cat(category));
static cl::opt<unsigned> jitThreads(
    "jit-threads",
    cl::desc("With --jit: make the calls from N threads at once, each "
             "--jit-repeat times, and check that a call's results agree"),
    cl::init(1), cl::cat(category));
static cl::opt<unsigned>
    jitRepeat("jit-repeat",
              cl::desc("With --jit-threads: rounds of calls per thread"),
              cl::init(1), cl::cat(category));
static cl::opt<unsigned> compileBudget(
    "compile-budget-ms",
    cl::desc("With --jit: a call waits at most N ms for its specialisation, "
             "then runs the fallback while compilation goes on in the "
             "background (0: no budget)"),
    cl::init(0), cl::cat(category));
static cl::opt<bool> jitSettle(
    "jit-settle",
    cl::desc("With --jit: before each call, wait for the compilations going "
             "on in the background (repeatable runs with a budget)"),
    cl::init(false), cl::cat(category));
static cl::opt<std::string> cacheDir(
    "cache-dir",
    cl::desc("With --jit: keep each specialisation in DIR as a shared object "
             "(compiled for this machine's CPU), and use the ones an earlier "
             "process kept there"),
    cl::value_desc("DIR"), cl::init(""), cl::cat(category));
static cl::opt<bool> timeStages(
    "time-stages",
    cl::desc("Print where compilation took its time, stage by stage: "
             "prepare, linalg, lower, translate, optimize, codegen"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> compileOnly(
    "compile-only",
    cl::desc("Compile and stop: with --dump-ir, shows the code for a device "
             "this machine does not have"),
    cl::init(false));
/// --entry, --strategy, --no-fusion, --num-threads, -O, --exact-math,
/// --dump-ir, --gpu-*: the compile options, as tsmlir-compile takes them.
static CompileOptionFlags compileFlags(category,
                                       {/*host=*/false, /*threads=*/true,
                                        /*libraryKernels=*/true});

static OwningOpRef<ModuleOp> load(MLIRContext &ctx, llvm::SourceMgr &sourceMgr,
                                  StringRef entry) {
  LoadOptions options;
  options.entry = entry.str();
  options.paramsFile = params;
  for (llvm::StringRef fileEntry : functionFiles) {
    auto [name, path] = fileEntry.split('=');
    if (name.empty() || path.empty()) {
      llvm::errs() << "tsmlir-run: --import-function expects NAME=FILE, got '"
                   << fileEntry << "'\n";
      return nullptr;
    }
    options.functionFiles.emplace_back(name.str(), path.str());
  }
  std::string error;
  OwningOpRef<ModuleOp> module =
      loadModule(inputFile, options, &ctx, sourceMgr, error);
  if (!module && !error.empty())
    llvm::errs() << "tsmlir-run: " << error << "\n";
  return module;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // `--threads N` and `--threads=N` are spelled as users expect, though a
  // library of LLVM's registers an option of that name.
  std::vector<char *> args;
  std::string threadsArg;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if ((arg == "--threads" || arg == "-threads") && i + 1 < argc) {
      threadsArg = "--num-threads=" + std::string(argv[++i]);
      continue;
    }
    if (arg.consume_front("--threads=") || arg.consume_front("-threads=")) {
      threadsArg = "--num-threads=" + arg.str();
      continue;
    }
    args.push_back(argv[i]);
  }
  if (!threadsArg.empty())
    args.push_back(threadsArg.data());
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      static_cast<int>(args.size()), args.data(),
      "tsmlir-run: compile a TorchScript graph for its inputs and run it on "
      "the CPU\n");
  llvm::Expected<CompileOptions> parsed = compileFlags.get();
  if (!parsed) {
    llvm::errs() << "tsmlir-run: " << llvm::toString(parsed.takeError())
                 << "\n";
    return 1;
  }
  CompileOptions options = std::move(*parsed);
  std::optional<Device> where = symbolizeDevice(device);
  if (!where) {
    llvm::errs() << "tsmlir-run: --device must be cpu or cuda, not '" << device
                 << "'\n";
    return 1;
  }
  options.device = *where;
  bool onGPU = options.device == Device::CUDA;

  DialectRegistry registry;
  registerAllDialectsWithUpstream(registry);
  registerTorchScriptImportDialects(registry);
  registerAllPasses();
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  // Diagnostics point at the graph text; the generic op form adds nothing.
  ctx.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &ctx);

  SmallVector<RunValue> values;
  for (const std::string &text : inputs) {
    llvm::Expected<RunValue> value = RunValue::parse(text);
    if (!value) {
      llvm::errs() << "tsmlir-run: --input " << text << ": "
                   << llvm::toString(value.takeError()) << "\n";
      return 1;
    }
    values.push_back(std::move(*value));
  }

  if (!gradOutputs.empty()) {
    if (jitMode || llvm::StringRef(inputFile).ends_with(".so")) {
      llvm::errs() << "tsmlir-run: --grad-output compiles the graph's "
                      "backward: not with --jit or a shared object\n";
      return 1;
    }
    options.gradients = true;
  }

  // A model from tsmlir-compile --shared runs through its C ABI.
  if (llvm::StringRef(inputFile).ends_with(".so")) {
    SharedObjectRun run;
    run.path = inputFile;
    run.entry = options.entry;
    run.inputs = std::move(values);
    run.outputDir = outputDir;
    run.benchmark = benchmark;
    run.repeat = repeat;
    return runSharedObject(run);
  }

  // --jit: one list of arguments per --call (or the --input ones).
  SmallVector<SmallVector<RunValue>> calls;
  if (jitMode) {
    for (const std::string &call : jitCalls) {
      SmallVector<StringRef> texts;
      StringRef(call).split(texts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
      SmallVector<RunValue> callValues;
      for (StringRef text : texts) {
        llvm::Expected<RunValue> value = RunValue::parse(text.trim());
        if (!value) {
          llvm::errs() << "tsmlir-run: --call " << call << ": "
                       << llvm::toString(value.takeError()) << "\n";
          return 1;
        }
        callValues.push_back(std::move(*value));
      }
      calls.push_back(std::move(callValues));
    }
    if (calls.empty())
      calls.push_back(values);
  } else if (!jitCalls.empty()) {
    llvm::errs() << "tsmlir-run: --call takes --jit\n";
    return 1;
  }

  auto importStart = std::chrono::steady_clock::now();
  OwningOpRef<ModuleOp> module = load(ctx, sourceMgr, options.entry);
  if (!module)
    return 1;
  double importSeconds = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - importStart)
                             .count();
  for (SmallVector<RunValue> &call : calls)
    if (failed(appendDefaultInputs(*module, options.entry, call)))
      return 1;
  if (!jitMode && failed(appendDefaultInputs(*module, options.entry, values)))
    return 1;
  // With --grad-output: the numbers of the floating-point tensor inputs
  // (among the .npy inputs), whose gradients the graph returns last; the
  // upstream gradients follow the inputs.
  SmallVector<unsigned> gradInputNumbers;
  if (options.gradients) {
    unsigned number = 0;
    for (const RunValue &value : values) {
      if (value.kind != RunValue::Kind::Tensor)
        continue;
      if (value.tensor.header.kind == 'f')
        gradInputNumbers.push_back(number);
      ++number;
    }
    for (const std::string &text : gradOutputs) {
      llvm::Expected<RunValue> value = RunValue::parse(text);
      if (!value) {
        llvm::errs() << "tsmlir-run: --grad-output " << text << ": "
                     << llvm::toString(value.takeError()) << "\n";
        return 1;
      }
      values.push_back(std::move(*value));
    }
  }

  if (jitMode) {
    if (compileOnly || benchmark > 0 || repeat != 1) {
      llvm::errs() << "tsmlir-run: --jit runs its calls: no --compile-only, "
                      "--benchmark or --repeat\n";
      return 1;
    }
    JitRun run;
    run.name = llvm::sys::path::filename(inputFile).str();
    run.calls = std::move(calls);
    run.outputDir = outputDir;
    run.options.compile = options;
    run.options.profileRuns = profileRuns;
    llvm::Expected<jit::FusionStrategy> fusionStrategy =
        jit::FusionStrategy::parse(jitStrategy);
    if (!fusionStrategy) {
      llvm::errs() << "tsmlir-run: --jit-strategy "
                   << llvm::toString(fusionStrategy.takeError()) << "\n";
      return 1;
    }
    run.options.strategy = *fusionStrategy;
    if (jitLog)
      run.options.log = &llvm::outs();
    if (!cacheDir.empty()) {
      // The build: this executable's size and modification time.
      std::string self = llvm::sys::fs::getMainExecutable(
          argv[0], reinterpret_cast<void *>(&load));
      llvm::sys::fs::file_status status;
      if (llvm::sys::fs::status(self, status)) {
        llvm::errs() << "tsmlir-run: --cache-dir: cannot identify this "
                        "build ('" << self << "')\n";
        return 1;
      }
      run.options.cacheDir = cacheDir;
      run.options.cacheVersion =
          "tsmlir-run " + std::to_string(status.getSize()) + " " +
          std::to_string(llvm::sys::toTimeT(status.getLastModificationTime()));
      llvm::SmallString<256> lib(llvm::sys::path::parent_path(self));
      llvm::sys::path::append(lib, "..", "lib");
      run.options.runtimeDir = lib.str().str();
      const char *cc = std::getenv("TSMLIR_CC");
      run.options.cc = cc ? cc : TSMLIR_DEFAULT_CC;
    }
    run.options.compileBudgetMs = compileBudget;
    run.settle = jitSettle;
    run.threads = std::max(jitThreads.getValue(), 1u);
    run.repeat = std::max(jitRepeat.getValue(), 1u);
    return runJit(std::move(module), std::move(run));
  }
  FailureOr<std::unique_ptr<CompiledGraph>> graph =
      CompiledGraph::compile(*module, values, options, compileOnly);
  if (failed(graph))
    return 1;
  if (timeStages) {
    const CompiledGraph::StageTimes &t = (*graph)->stageSeconds;
    llvm::outs() << llvm::format(
        "compile stages: import %.3f s, prepare %.3f s, linalg %.3f s, lower "
        "%.3f s, translate %.3f s, optimize %.3f s, codegen %.3f s; total "
        "%.3f s\n",
        importSeconds, t.prepare, t.linalg, t.lower, t.translate, t.optimize,
        t.codegen, importSeconds + (*graph)->compileSeconds);
  }
  unsigned threads = options.threads;
  std::string ranOn =
      onGPU ? "cuda " + options.gpu.chip + ": " +
                  std::to_string((*graph)->numKernels) + " kernel" +
                  ((*graph)->numKernels == 1 ? "" : "s")
            : std::to_string(threads) + " thread" + (threads == 1 ? "" : "s");
  if (compileOnly) {
    llvm::outs() << "tsmlir-run: " << llvm::sys::path::filename(inputFile)
                 << ": compiled for " << ranOn
                 << llvm::format(" in %.2f s", (*graph)->compileSeconds)
                 << (options.dumpDir.empty() ? std::string()
                                             : "; wrote " + options.dumpDir)
                 << "\n";
    return 0;
  }

  // A failed check in the compiled code (prim::RaiseException) fails the
  // call with its message; in an OpenMP worker it prints the message and
  // aborts: unbuffered, the message is not lost in a pipe.
  llvm::outs().flush();
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  auto start = std::chrono::steady_clock::now();
  for (unsigned i = 0; i < std::max(repeat.getValue(), 1u); ++i)
    if (failed((*graph)->invoke())) {
      if (!(*graph)->raised.empty())
        llvm::errs() << "tsmlir-run: " << llvm::sys::path::filename(inputFile)
                     << ": the graph raised an exception: " << (*graph)->raised
                     << "\n";
      return 1;
    }
  double runSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  if (benchmark > 0) {
    FailureOr<CompiledGraph::Timing> timing = (*graph)->benchmark(benchmark);
    if (failed(timing))
      return 1;
    llvm::outs() << llvm::format("benchmark: %u runs, median %.3f us, min "
                                 "%.3f us",
                                 benchmark.getValue(), timing->median,
                                 timing->min);
    if (onGPU)
      llvm::outs() << llvm::format(" (cuda events, %g kernels per call)",
                                   timing->kernelsPerCall);
    llvm::outs() << "\n";
  }

  SmallVector<HostTensor> outputs = (*graph)->getOutputs();
  if (options.gradients) {
    // The outputs, the inputs' gradients, then the module tensors'.
    ArrayRef<std::string> params = (*graph)->gradParams;
    size_t numGradients = gradInputNumbers.size() + params.size();
    if (outputs.size() < numGradients) {
      llvm::errs() << "tsmlir-run: the compiled graph returns fewer results "
                      "than the gradients of its inputs\n";
      return 1;
    }
    ArrayRef<HostTensor> gradients = ArrayRef(outputs).take_back(numGradients);
    llvm::Error error = writeGradients(
        outputDir, gradients.drop_back(params.size()), gradInputNumbers);
    if (!error && !params.empty())
      error = writeParameterGradients(
          outputDir, gradients.take_back(params.size()), params);
    if (error) {
      llvm::errs() << "tsmlir-run: " << llvm::toString(std::move(error))
                   << "\n";
      return 1;
    }
    outputs.resize(outputs.size() - numGradients);
  }
  llvm::Expected<std::string> written =
      writeOutputs(outputDir, outputs, (*graph)->noneOutputs);
  if (!written) {
    llvm::errs() << "tsmlir-run: " << llvm::toString(written.takeError())
                 << "\n";
    return 1;
  }
  llvm::outs()
      << "tsmlir-run: " << llvm::sys::path::filename(inputFile) << ": "
      << values.size() << " input" << (values.size() == 1 ? "" : "s") << ", "
      << outputs.size() << " output" << (outputs.size() == 1 ? "" : "s") << " ("
      << *written << "); "
      << (!options.fusion ? std::string("no fusion")
                          : options.getFusionName().str() + ": " +
                                std::to_string((*graph)->numFusionGroups) +
                                " fusion group" +
                                ((*graph)->numFusionGroups == 1 ? "" : "s"))
      << "; " << ranOn
      << (onGPU && !(*graph)->deviceName.empty() ? " on " + (*graph)->deviceName
                                                 : std::string())
      << llvm::format("; compiled in %.2f s, ran in %.3f ms",
                      (*graph)->compileSeconds, runSeconds * 1e3)
      << "; wrote " << outputDir << "/out*.npy"
      << (options.gradients ? " and grad_in*.npy" : "")
      << (!(*graph)->gradParams.empty() ? ", grad_params.safetensors" : "")
      << "\n";
  return 0;
}
