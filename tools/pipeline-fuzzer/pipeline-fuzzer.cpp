//===- pipeline-fuzzer.cpp - libFuzzer target for the CPU pipeline --------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Decodes each input into a valid TorchScript graph and its input types
// (GraphGenerator.h), then compiles it the way tsmlir-compile and tsmlir-run
// do, short of running it: import (importTorchScript), prepareGraph
// (ts-inline, ts-specialize for the input types, ts-optimize,
// ts-create-fusion-groups), --ts-lower-to-llvm, and the translation to LLVM
// IR. The sources of those passes are compiled into this binary with
// -fsanitize=fuzzer,address,undefined and assertions on (CMakeLists.txt).
//
// A stage may refuse a graph with an error diagnostic (an op with no
// lowering, a shape it cannot handle): that is an answer, not a finding.
// Findings, besides crashes, assertions, sanitizer reports and hangs:
//
//   - the generated graph does not import, or imports to a module that does
//     not verify (PyTorch runs these graphs: see docs/reliability.md);
//   - the IR does not verify after a pass that reported no error (checked
//     after every pass, nested ones included);
//   - a stage fails without an error diagnostic, or succeeds with one;
//   - a module lowered to the LLVM dialect that does not translate to LLVM IR
//     (which runs LLVM's verifier), or whose entry is missing there.
//
// Each prints `==pipeline-fuzzer== FINDING: ...`, the graph and its inputs,
// and aborts, so libFuzzer saves the input.
//
// Environment (all optional):
//   TSMLIR_FUZZ_PRINT=1          print each graph, its inputs and the
//                                tsmlir-compile command that compiles it
//   TSMLIR_FUZZ_VERBOSE=1        print every diagnostic
//   TSMLIR_FUZZ_STATS=1          at exit, how far the inputs got and the
//                                commonest errors that stopped them
//   TSMLIR_FUZZ_CONTEXT_RESET=N  a fresh MLIRContext every N inputs (100)
//
// See docs/reliability.md.
//
//===----------------------------------------------------------------------===//

#include "GraphGenerator.h"

#include "tsmlir/Compiler/PrepareGraph.h"
#include "tsmlir/InitAll.h"
#include "tsmlir/Pipelines/Pipelines.h"
#include "tsmlir/Target/TorchScript/Import.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::tsmlir;

namespace {

struct Options {
  bool print = false, verbose = false, stats = false;
  unsigned contextReset = 100;
};

const Options &getOptions() {
  static const Options options = [] {
    auto read = [](const char *name, long fallback) {
      const char *value = std::getenv(name);
      if (!value || !*value)
        return fallback;
      char *end = nullptr;
      long parsed = std::strtol(value, &end, 10);
      return *end == '\0' && parsed >= 0 ? parsed : fallback;
    };
    Options o;
    o.print = read("TSMLIR_FUZZ_PRINT", 0) != 0;
    o.verbose = read("TSMLIR_FUZZ_VERBOSE", 0) != 0;
    o.stats = read("TSMLIR_FUZZ_STATS", 0) != 0;
    o.contextReset = std::max<long>(1, read("TSMLIR_FUZZ_CONTEXT_RESET", 100));
    return o;
  }();
  return options;
}

/// How far inputs got, and the commonest first errors, for
/// TSMLIR_FUZZ_STATS.
struct Stats {
  unsigned inputs = 0, prepared = 0, lowered = 0, translated = 0;
  unsigned nodes = 0;
  llvm::StringMap<unsigned> errors;

  ~Stats() {
    if (!getOptions().stats || !inputs)
      return;
    llvm::errs() << "==pipeline-fuzzer== " << inputs << " graphs ("
                 << nodes / inputs << " nodes on average): " << prepared
                 << " prepared, " << lowered << " lowered to LLVM, "
                 << translated << " translated to LLVM IR\n";
    std::vector<std::pair<unsigned, std::string>> sorted;
    for (const auto &entry : errors)
      sorted.push_back({entry.second, entry.first().str()});
    std::sort(sorted.rbegin(), sorted.rend());
    for (size_t i = 0; i < sorted.size() && i < 25; ++i)
      llvm::errs() << "  " << sorted[i].first << "  " << sorted[i].second
                   << "\n";
  }
};

Stats &getStats() {
  static Stats stats;
  return stats;
}

struct Recorded {
  DiagnosticSeverity severity;
  std::string text;
};

/// The current input, for reports.
struct Current {
  const fuzz::GeneratedGraph *graph = nullptr;
  std::vector<Recorded> diagnostics;
  unsigned errors = 0;
  std::string stage;
};

Current &current() {
  static Current state;
  return state;
}

void printGraph(llvm::raw_ostream &os, const fuzz::GeneratedGraph &graph) {
  const fuzz::CompileChoices &c = graph.choices;
  os << "--- graph (inputs:";
  for (const std::string &input : graph.inputs)
    os << " " << input;
  os << "; strategy=" << (c.strategy.empty() ? "none" : c.strategy)
     << " fuse-groups=" << c.fuseGroups << " static-buffers=" << c.staticBuffers
     << " approximate-math=" << c.approximateMath << " threads=" << c.threads
     << ")\n"
     << graph.text << "--- to compile it:\n  tsmlir-compile graph.txt";
  for (const std::string &input : graph.inputs)
    os << " --input " << input;
  os << (c.strategy.empty() ? std::string(" --no-fusion")
                            : " --strategy " + c.strategy)
     << " -o graph.o\n";
}

[[noreturn]] void fail(const llvm::Twine &what) {
  Current &state = current();
  llvm::errs() << "==pipeline-fuzzer== FINDING: " << what << "\n";
  for (const Recorded &d : state.diagnostics)
    llvm::errs() << "  " << d.text << "\n";
  if (state.graph)
    printGraph(llvm::errs(), *state.graph);
  llvm::errs().flush();
  std::abort();
}

/// The first error of a stage, with numbers and names blurred, for stats.
void recordStop(llvm::StringRef stage) {
  std::string first = "(no error)";
  for (const Recorded &d : current().diagnostics)
    if (d.severity == DiagnosticSeverity::Error) {
      first = d.text;
      break;
    }
  // Drop the location; blur numbers and value names.
  size_t at = first.find(": error: ");
  if (at != std::string::npos)
    first = first.substr(at + 9);
  static const llvm::Regex numbers("[0-9]+");
  std::string blurred = first;
  while (numbers.match(blurred))
    blurred = numbers.sub("N", blurred);
  getStats().errors[(stage + ": " + blurred.substr(0, 140)).str()]++;
}

/// One MLIRContext with every dialect the pipeline uses, a handler that
/// records diagnostics, and an action handler that verifies the IR after
/// every pass that reported no error.
class FuzzContext {
public:
  FuzzContext() {
    DialectRegistry registry;
    registerAllDialectsWithUpstream(registry);
    registerTorchScriptImportDialects(registry);
    registerBuiltinDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    registerOpenMPDialectTranslation(registry);
    context = std::make_unique<MLIRContext>(registry,
                                            MLIRContext::Threading::DISABLED);
    context->loadAllAvailableDialects();
    context->printOpOnDiagnostic(false);
    handler = std::make_unique<ScopedDiagnosticHandler>(
        context.get(), [](Diagnostic &diag) {
          std::string text;
          llvm::raw_string_ostream os(text);
          os << diag.getLocation() << ": "
             << (diag.getSeverity() == DiagnosticSeverity::Error     ? "error"
                 : diag.getSeverity() == DiagnosticSeverity::Warning ? "warning"
                                                                     : "note")
             << ": " << diag;
          for (const Diagnostic &note : diag.getNotes())
            os << "\n    note: " << note;
          if (getOptions().verbose)
            llvm::errs() << text << "\n";
          Current &state = current();
          if (diag.getSeverity() == DiagnosticSeverity::Error)
            ++state.errors;
          state.diagnostics.push_back({diag.getSeverity(), std::move(text)});
          return success();
        });
    context->registerActionHandler([](llvm::function_ref<void()> transform,
                                      const tracing::Action &action) {
      unsigned errorsBefore = current().errors;
      transform();
      if (action.getActionID() != TypeID::get<PassExecutionAction>())
        return;
      // A pass that reported an error failed; its IR need not verify.
      if (current().errors != errorsBefore)
        return;
      const auto &run = static_cast<const PassExecutionAction &>(action);
      if (failed(verify(run.getOp())))
        fail("the IR does not verify after " + run.getPass().getArgument() +
             " (" + current().stage + "), which reported no error");
    });
  }
  ~FuzzContext() {
    context->registerActionHandler(nullptr);
    handler.reset();
    context.reset();
  }
  MLIRContext *get() { return context.get(); }

private:
  std::unique_ptr<MLIRContext> context;
  std::unique_ptr<ScopedDiagnosticHandler> handler;
};

/// Checks that a failed stage said why.
void checkFailed(unsigned errorsBefore, llvm::StringRef stage) {
  if (current().errors == errorsBefore)
    fail(stage + " failed without an error");
  recordStop(stage);
}

void checkNoNewErrors(unsigned errorsBefore, llvm::StringRef stage) {
  if (current().errors != errorsBefore)
    fail(stage + " succeeded but reported an error");
}

void runOneInput(MLIRContext *ctx, const fuzz::GeneratedGraph &graph) {
  Current &state = current();
  Stats &stats = getStats();
  ++stats.inputs;
  stats.nodes += graph.numNodes;

  // Import: the graph is one PyTorch runs, so it must import.
  state.stage = "import";
  OwningOpRef<ModuleOp> module =
      importTorchScript(graph.text, "<generated>", ctx);
  if (!module)
    fail("the generated graph does not import");
  if (failed(verify(*module)))
    fail("the imported module does not verify");
  checkNoNewErrors(0, "import");

  SmallVector<RunValue> inputs;
  for (const std::string &spec : graph.inputs) {
    llvm::Expected<RunValue> value = RunValue::parse(spec, /*typesOnly=*/true);
    if (!value)
      fail("the generated input '" + spec +
           "' does not parse: " + llvm::toString(value.takeError()));
    inputs.push_back(std::move(*value));
  }

  // ts-inline, ts-specialize, ts-optimize, ts-create-fusion-groups.
  state.stage = "prepareGraph";
  CompileOptions options;
  if (!options.setFusion(
          graph.choices.strategy.empty() ? "none" : graph.choices.strategy))
    fail("the generated fusion strategy '" + graph.choices.strategy +
         "' is unknown");
  options.threads = graph.choices.threads;
  options.approximateMath = graph.choices.approximateMath;
  unsigned errorsBefore = state.errors;
  FailureOr<PreparedGraph> prepared = prepareGraph(*module, inputs, options);
  if (failed(prepared))
    return checkFailed(errorsBefore, "prepareGraph");
  checkNoNewErrors(errorsBefore, "prepareGraph");
  ++stats.prepared;

  // --ts-lower-to-llvm, as tsmlir-run and tsmlir-compile build it.
  state.stage = "ts-lower-to-llvm";
  LowerToLLVMOptions lowering;
  getLoweringOptions(options, prepared->entry, lowering);
  lowering.fuseGroups = graph.choices.fuseGroups;
  lowering.staticBuffers = graph.choices.staticBuffers;
  PassManager pm(ctx);
  buildLowerToLLVMPipeline(pm, lowering);
  errorsBefore = state.errors;
  if (failed(pm.run(*module)))
    return checkFailed(errorsBefore, "ts-lower-to-llvm");
  checkNoNewErrors(errorsBefore, "ts-lower-to-llvm");
  ++stats.lowered;

  // LLVM IR, checked by LLVM's verifier.
  state.stage = "translation to LLVM IR";
  llvm::LLVMContext llvmContext;
  errorsBefore = state.errors;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext);
  if (!llvmModule)
    fail("a module lowered to the LLVM dialect does not translate to LLVM "
         "IR");
  checkNoNewErrors(errorsBefore, "translation to LLVM IR");
  if (!llvmModule->getFunction(prepared->entry))
    fail("the entry '" + prepared->entry + "' is missing from the LLVM IR");
  ++stats.translated;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const Options &options = getOptions();
  static bool registered = false;
  if (!registered) {
    registerAllPasses();
    registered = true;
  }
  static std::unique_ptr<FuzzContext> fuzzContext;
  static unsigned inputsInContext = 0;
  if (!fuzzContext) {
    fuzzContext = std::make_unique<FuzzContext>();
    inputsInContext = 0;
  }

  fuzz::GeneratedGraph graph = fuzz::generateGraph(data, size);
  Current &state = current();
  state.graph = &graph;
  state.diagnostics.clear();
  state.errors = 0;
  if (options.print)
    printGraph(llvm::errs(), graph);

  runOneInput(fuzzContext->get(), graph);

  state.graph = nullptr;
  state.diagnostics.clear();
  if (++inputsInContext >= options.contextReset)
    fuzzContext.reset();
  return 0;
}
