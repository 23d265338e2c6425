//===- tsmlir-compile.cpp - Compile a TorchScript graph to an object ------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   tsmlir-compile graph.txt --input x.npy --input f32[8,4] -o model.o \
//       --emit-header model.h
//   tsmlir-compile graph.txt --input x.npy --shared -o model.so
//
// Imports the graph (TorchScript IR text, or .mlir in the ts dialect),
// specialises it for the input types it is given (from .npy headers or
// `f32[2,3]`), optimises and fuses it, lowers it for the CPU or CUDA, adds
// the C ABI of tsmlir/Runtime/Abi.h and writes an object file, assembly,
// LLVM IR, the lowered MLIR, or a shared object.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Compiler/CommandLine.h"
#include "tsmlir/Compiler/Load.h"
#include "tsmlir/Compiler/PrepareGraph.h"
#include "tsmlir/InitAll.h"
#include "tsmlir/Target/Aot/AotCompiler.h"
#include "tsmlir/Target/TorchScript/Import.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;
using namespace mlir::tsmlir;
namespace cl = llvm::cl;

#ifndef TSMLIR_DEFAULT_CC
#define TSMLIR_DEFAULT_CC "clang"
#endif

static cl::OptionCategory category("tsmlir-compile options");

static cl::opt<std::string> inputFile(cl::Positional, cl::Required,
                                      cl::desc("<graph.txt | module.mlir>"),
                                      cl::cat(category));
static cl::opt<std::string> outputFile("o", cl::Required,
                                       cl::desc("The file to write"),
                                       cl::value_desc("model.o"),
                                       cl::cat(category));
static cl::opt<std::string> headerFile(
    "emit-header", cl::desc("Also write the C/C++ header of the model"),
    cl::value_desc("model.h"), cl::init(""), cl::cat(category));
static cl::opt<bool> shared(
    "shared",
    cl::desc("Write a shared object (linked with libtsmlir_runtime.a), which "
             "tsmlir-run runs"),
    cl::init(false), cl::cat(category));
static cl::opt<std::string>
    emit("emit",
         cl::desc("What to write: obj (default), asm, llvm-ir, or mlir (the "
                  "module lowered to the LLVM dialect, with the C ABI)"),
         cl::value_desc("obj|asm|llvm-ir|mlir"), cl::init("obj"),
         cl::cat(category));
static cl::opt<std::string> target("target",
                                   cl::desc("cpu (default) or cuda"),
                                   cl::value_desc("cpu|cuda"), cl::init("cpu"),
                                   cl::cat(category));
static cl::opt<std::string>
    name("name",
         cl::desc("The model's C name: it exports NAME_ENTRY and "
                  "NAME_ENTRY_signature (default: the output file's stem)"),
         cl::init(""), cl::cat(category));
static cl::list<std::string> inputs(
    "input",
    cl::desc("The graph's arguments in order (a module's self excluded): a "
             ".npy file (its dtype and shape), a tensor type such as "
             "f32[8,4], `float` (given at run time), or an int, true, false "
             "or none (fixed in the code)"),
    cl::value_desc("x.npy|f32[8,4]|float|3|true|none"), cl::cat(category));
static cl::list<std::string> gradOutputs(
    "grad-output",
    cl::desc("Compile the backward too: the entry takes, after its inputs, "
             "the upstream gradient of each floating-point tensor output (a "
             "tensor type such as f32[8,4] or a .npy file, in output order), "
             "and returns, after its outputs, the gradient of each "
             "floating-point tensor input, then of each module parameter"),
    cl::value_desc("f32[8,4]|g.npy"), cl::cat(category));
static cl::opt<std::string>
    params("params",
           cl::desc("A safetensors file with the module's attributes; they "
                    "are embedded in the object"),
           cl::value_desc("p.safetensors"), cl::init(""), cl::cat(category));
static cl::list<std::string> functionFiles(
    "import-function",
    cl::desc("Also import the graph in FILE as the function NAME (the callee "
             "of a prim::CallFunction or prim::CallMethod)"),
    cl::value_desc("NAME=FILE"), cl::cat(category));
static cl::opt<std::string> cc(
    "cc",
    cl::desc("The C compiler driver that links --shared objects (default: "
             "$TSMLIR_CC, or LLVM's clang)"),
    cl::init(""), cl::cat(category));
static cl::opt<std::string> runtimeDir(
    "runtime-dir",
    cl::desc("Where libtsmlir_runtime.a is (default: ../lib beside this "
             "tool)"),
    cl::init(""), cl::cat(category));

/// --entry, --strategy, --no-fusion, -O, --mtriple, --mcpu, --mattr,
/// --exact-math, --dump-ir, --gpu-*: the compile options, as tsmlir-run
/// takes them.
static CompileOptionFlags compileFlags(category,
                                       {/*host=*/true, /*threads=*/false,
                                        /*libraryKernels=*/true,
                                        /*libraryKernelsByDefault=*/false});

static int fail(const Twine &message) {
  llvm::errs() << "tsmlir-compile: " << message << "\n";
  return 1;
}

static OwningOpRef<ModuleOp> load(MLIRContext &ctx, llvm::SourceMgr &sourceMgr,
                                  StringRef entry) {
  LoadOptions options;
  options.entry = entry.str();
  options.paramsFile = params;
  for (StringRef fileEntry : functionFiles) {
    auto [fn, path] = fileEntry.split('=');
    if (fn.empty() || path.empty()) {
      fail("--import-function expects NAME=FILE, got '" + fileEntry + "'");
      return nullptr;
    }
    options.functionFiles.emplace_back(fn.str(), path.str());
  }
  std::string error;
  OwningOpRef<ModuleOp> module =
      loadModule(inputFile, options, &ctx, sourceMgr, error);
  if (!module && !error.empty())
    fail(error);
  return module;
}

/// A C identifier from the output file's stem: `ratio_iou.o` -> ratio_iou.
static std::string defaultName() {
  std::string stem = llvm::sys::path::stem(outputFile).str();
  std::string id;
  for (char c : stem)
    id.push_back(llvm::isAlnum(c) ? c : '_');
  if (id.empty() || llvm::isDigit(id[0]))
    id = "model" + (id.empty() ? "" : "_" + id);
  return id;
}

static bool isIdentifier(StringRef s) {
  return !s.empty() && !llvm::isDigit(s[0]) &&
         llvm::all_of(s, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// Appends what `texts` give (the values --input and --grad-output take,
/// types only) to `values`; an error names `flag`.
static llvm::Error appendValues(ArrayRef<std::string> texts, StringRef flag,
                                SmallVectorImpl<RunValue> &values) {
  for (const std::string &text : texts) {
    llvm::Expected<RunValue> value = RunValue::parse(text, /*typesOnly=*/true);
    if (!value)
      return llvm::createStringError(flag + " " + text + ": " +
                                     llvm::toString(value.takeError()));
    values.push_back(std::move(*value));
  }
  return llvm::Error::success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tsmlir-compile: compile a TorchScript graph ahead of time to an "
      "object file or a shared object with a C ABI\n");
  auto start = std::chrono::steady_clock::now();
  auto seconds = [](auto from) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         from)
        .count();
  };

  // Options first: nothing is compiled for a command that cannot succeed.
  AotOptions options;
  options.name = name.empty() ? defaultName() : name.getValue();
  if (!isIdentifier(options.name))
    return fail("--name must be a C identifier, not '" + options.name + "'");
  llvm::Expected<CompileOptions> parsed = compileFlags.get();
  if (!parsed)
    return fail(llvm::toString(parsed.takeError()));
  options.compile = std::move(*parsed);
  std::optional<Device> device = symbolizeDevice(target);
  if (!device)
    return fail("--target must be cpu or cuda, not '" + target + "'");
  options.compile.device = *device;
  options.shared = shared;
  const CompileOptions &compile = options.compile;
  AotOutput kind = AotOutput::Object;
  if (emit == "asm")
    kind = AotOutput::Assembly;
  else if (emit == "llvm-ir")
    kind = AotOutput::LLVMIR;
  else if (emit != "obj" && emit != "mlir")
    return fail("--emit must be obj, asm, llvm-ir or mlir, not '" + emit +
                "'");
  if (shared && emit != "obj")
    return fail("--shared writes a shared object: leave out --emit " + emit);

  SmallVector<RunValue> values;
  if (llvm::Error error = appendValues(inputs, "--input", values))
    return fail(llvm::toString(std::move(error)));

  if (!gradOutputs.empty()) {
    if (options.compile.device != Device::CPU)
      return fail("--grad-output compiles gradients for the CPU only");
    options.compile.gradients = true;
  }

  DialectRegistry registry;
  registerAllDialectsWithUpstream(registry);
  registerTorchScriptImportDialects(registry);
  registerAllPasses();
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  ctx.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &ctx);

  OwningOpRef<ModuleOp> module = load(ctx, sourceMgr, compile.entry);
  if (!module)
    return 1;
  if (failed(appendDefaultInputs(*module, compile.entry, values)))
    return 1;
  // The upstream gradients follow the inputs, defaults included.
  if (llvm::Error error = appendValues(gradOutputs, "--grad-output", values))
    return fail(llvm::toString(std::move(error)));
  double importSeconds = seconds(start);

  auto phase = std::chrono::steady_clock::now();
  FailureOr<PreparedGraph> graph = prepareGraph(*module, values, compile);
  if (failed(graph))
    return 1;
  double prepareSeconds = seconds(phase);

  phase = std::chrono::steady_clock::now();
  if (failed(lowerForAot(*module, *graph, options)))
    return 1;
  double lowerSeconds = seconds(phase);

  phase = std::chrono::steady_clock::now();
  if (!headerFile.empty()) {
    std::error_code ec;
    llvm::ToolOutputFile header(headerFile, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return fail("cannot write '" + headerFile + "': " + ec.message());
    emitCHeader(*graph, options, inputFile, header.os());
    header.keep();
  }

  if (emit == "mlir") {
    std::error_code ec;
    llvm::ToolOutputFile out(outputFile, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return fail("cannot write '" + outputFile + "': " + ec.message());
    module->print(out.os());
    out.keep();
  } else if (!shared) {
    if (failed(emitObject(*module, options, kind, outputFile)))
      return 1;
  } else {
    // An object in a temporary file, linked into the shared object.
    llvm::SmallString<128> object;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "tsmlir-" + options.name, "o", object))
      return fail("cannot create a temporary object: " + ec.message());
    llvm::FileRemover remover(object);
    if (failed(emitObject(*module, options, AotOutput::Object, object)))
      return 1;
    std::string driver = cc;
    if (driver.empty())
      if (const char *env = std::getenv("TSMLIR_CC"))
        driver = env;
    if (driver.empty())
      driver = TSMLIR_DEFAULT_CC;
    if (!llvm::sys::path::is_absolute(driver)) {
      auto found = llvm::sys::findProgramByName(driver);
      if (!found)
        return fail("cannot link --shared: no C compiler driver '" + driver +
                    "' (give one with --cc or $TSMLIR_CC)");
      driver = *found;
    }
    std::string libDir = runtimeDir;
    if (libDir.empty()) {
      std::string self = llvm::sys::fs::getMainExecutable(
          argv[0], reinterpret_cast<void *>(&defaultName));
      llvm::SmallString<256> dir(llvm::sys::path::parent_path(self));
      llvm::sys::path::append(dir, "..", "lib");
      libDir = dir.str().str();
    }
    std::string error;
    llvm::raw_string_ostream errorStream(error);
    if (failed(linkSharedObject(object, outputFile, libDir, driver, options,
                                errorStream)))
      return fail(StringRef(error).rtrim());
  }
  double emitSeconds = seconds(phase);

  uint64_t size = 0;
  (void)llvm::sys::fs::file_size(outputFile, size);
  std::string where =
      options.isCUDA() ? "cuda " + compile.gpu.chip
                       : (compile.host.triple.empty() ? std::string("host")
                                                      : compile.host.triple) +
                             " " + compile.host.cpu;
  llvm::outs() << "tsmlir-compile: " << llvm::sys::path::filename(inputFile)
               << ": " << options.name << "_" << graph->entry << ", "
               << graph->inputs.size() << " input"
               << (graph->inputs.size() == 1 ? "" : "s") << ", "
               << graph->outputs.size() << " output"
               << (graph->outputs.size() == 1 ? "" : "s") << "; "
               << (!compile.fusion
                       ? std::string("no fusion")
                       : compile.getFusionName().str() + ": " +
                             std::to_string(graph->numFusionGroups) +
                             " fusion group" +
                             (graph->numFusionGroups == 1 ? "" : "s"))
               << "; " << where << " -O" << compile.optLevel
               << (compile.libraryKernels && !options.isCUDA()
                       ? "; library kernels (links libtsmlir_kernels)"
                       : "")
               << "; wrote " << outputFile
               << llvm::format(" (%.1f KiB) in %.2f s (import %.2f, prepare "
                               "%.2f, lower %.2f, emit %.2f)\n",
                               size / 1024.0, seconds(start), importSeconds,
                               prepareSeconds, lowerSeconds, emitSeconds);
  return 0;
}
