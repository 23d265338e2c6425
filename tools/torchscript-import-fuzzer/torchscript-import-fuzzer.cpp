//===- torchscript-import-fuzzer.cpp - libFuzzer target for the importer --===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to importTorchScript (the parser sources are compiled
// into this binary with -fsanitize=fuzzer,address and assertions on). Besides
// the crashes, assertions, hangs and memory errors libFuzzer and ASan catch
// themselves, every input is checked against the importer's contract:
//
//   - an input that fails to import reported at least one error, and every
//     error is located in the input as file:line:column;
//   - an input that imports reported no error, its module exports back to
//     TorchScript text, and that text imports again (a round trip). With
//     TSMLIR_FUZZ_ROUNDTRIP=2 the second export must also equal the first.
//
// A broken contract is reported with abort(), so libFuzzer saves the input.
//
// Environment (all optional):
//   TSMLIR_FUZZ_ROUNDTRIP=0|1|2   no round trip / round trip (default) /
//                                 round trip and identical second export
//   TSMLIR_FUZZ_CONTEXT_RESET=N   a fresh MLIRContext every N inputs (1000);
//                                 the context keeps every attribute, type and
//                                 identifier it ever uniqued, so without this
//                                 its memory grows with every new input. 1
//                                 (slower) frees everything after each input,
//                                 which keeps libFuzzer's per-input leak check
//                                 on; otherwise leaks show only at exit
//   TSMLIR_FUZZ_VERBOSE=1         print every diagnostic (to reproduce a
//                                 finding: torchscript-import-fuzzer FILE)
//
// See docs/fuzzing.md.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Target/TorchScript/Export.h"
#include "tsmlir/Target/TorchScript/Import.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kInputName = "<fuzz-input>";
constexpr llvm::StringLiteral kExportName = "<fuzz-export>";

struct Options {
  int roundTrip = 1;
  unsigned contextReset = 1000;
  bool verbose = false;
};

Options readOptions() {
  Options options;
  auto readInt = [](const char *name, long fallback) {
    const char *value = std::getenv(name);
    if (!value || !*value)
      return fallback;
    char *end = nullptr;
    long parsed = std::strtol(value, &end, 10);
    return (*end == '\0' && parsed >= 0) ? parsed : fallback;
  };
  options.roundTrip = static_cast<int>(readInt("TSMLIR_FUZZ_ROUNDTRIP", 1));
  options.contextReset =
      static_cast<unsigned>(readInt("TSMLIR_FUZZ_CONTEXT_RESET", 1000));
  if (options.contextReset == 0)
    options.contextReset = 1;
  options.verbose = readInt("TSMLIR_FUZZ_VERBOSE", 0) != 0;
  return options;
}

const Options &getOptions() {
  static const Options options = readOptions();
  return options;
}

/// Whether `loc` is, or wraps, a file:line:column in the buffer `bufferName`.
bool isLocatedIn(Location loc, llvm::StringRef bufferName) {
  bool found = false;
  loc->walk([&](Location inner) {
    if (auto fileLoc = llvm::dyn_cast<FileLineColLoc>(inner))
      if (fileLoc.getFilename() == bufferName && fileLoc.getLine() >= 1 &&
          fileLoc.getColumn() >= 1) {
        found = true;
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return found;
}

struct RecordedDiagnostic {
  DiagnosticSeverity severity;
  Location loc;
  std::string message;
};

/// One MLIRContext with the import dialects loaded, and a handler that keeps
/// the diagnostics of the current input instead of printing them.
class FuzzContext {
public:
  FuzzContext() {
    DialectRegistry registry;
    tsmlir::registerTorchScriptImportDialects(registry);
    context = std::make_unique<MLIRContext>(registry,
                                            MLIRContext::Threading::DISABLED);
    context->loadAllAvailableDialects();
    handler = std::make_unique<ScopedDiagnosticHandler>(
        context.get(), [this](Diagnostic &diag) {
          RecordedDiagnostic record{diag.getSeverity(), diag.getLocation(),
                                    diag.str()};
          if (getOptions().verbose)
            llvm::errs() << record.loc << ": " << record.message << "\n";
          diagnostics.push_back(std::move(record));
          return success();
        });
  }
  ~FuzzContext() {
    handler.reset();
    context.reset();
  }

  MLIRContext *get() { return context.get(); }

  std::vector<RecordedDiagnostic> diagnostics;

private:
  std::unique_ptr<MLIRContext> context;
  std::unique_ptr<ScopedDiagnosticHandler> handler;
};

void printDiagnostics(const std::vector<RecordedDiagnostic> &diagnostics) {
  for (const RecordedDiagnostic &diag : diagnostics)
    llvm::errs() << "  " << diag.loc << ": " << diag.message << "\n";
  if (diagnostics.empty())
    llvm::errs() << "  (no diagnostics)\n";
}

[[noreturn]] void fail(const llvm::Twine &what,
                       const std::vector<RecordedDiagnostic> &diagnostics) {
  llvm::errs() << "==torchscript-import-fuzzer== FINDING: " << what << "\n";
  printDiagnostics(diagnostics);
  llvm::errs().flush();
  std::abort();
}

/// Checks the contract for a failed import of buffer `bufferName`.
void checkFailure(const std::vector<RecordedDiagnostic> &diagnostics,
                  llvm::StringRef bufferName, llvm::StringRef what) {
  bool anyError = false;
  for (const RecordedDiagnostic &diag : diagnostics) {
    if (diag.severity != DiagnosticSeverity::Error)
      continue;
    anyError = true;
    if (!isLocatedIn(diag.loc, bufferName))
      fail(llvm::Twine(what) + " failed with an error that is not located at "
                               "file:line:column in the input",
           diagnostics);
  }
  if (!anyError)
    fail(llvm::Twine(what) + " failed without reporting an error", diagnostics);
}

void checkNoErrors(const std::vector<RecordedDiagnostic> &diagnostics,
                   llvm::StringRef what) {
  for (const RecordedDiagnostic &diag : diagnostics)
    if (diag.severity == DiagnosticSeverity::Error)
      fail(llvm::Twine(what) + " succeeded but reported an error", diagnostics);
}

} // namespace

static void runOneInput(FuzzContext &ctx, const Options &options,
                        const uint8_t *data, size_t size);

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const Options &options = getOptions();
  static std::unique_ptr<FuzzContext> fuzzContext;
  static unsigned inputsInContext = 0;
  if (!fuzzContext) {
    fuzzContext = std::make_unique<FuzzContext>();
    inputsInContext = 0;
  }
  runOneInput(*fuzzContext, options, data, size);
  // Drop the context after the input that fills its quota, so that with
  // TSMLIR_FUZZ_CONTEXT_RESET=1 each input frees all it allocated and
  // libFuzzer's per-input leak check stays on.
  if (++inputsInContext >= options.contextReset)
    fuzzContext.reset();
  return 0;
}

static void runOneInput(FuzzContext &ctx, const Options &options,
                        const uint8_t *data, size_t size) {
  ctx.diagnostics.clear();

  // The bytes as they are: no copy, no terminating NUL, so that ASan sees any
  // read past the end of the input.
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module =
      tsmlir::importTorchScript(text, kInputName, ctx.get());
  if (!module) {
    checkFailure(ctx.diagnostics, kInputName, "import");
    ctx.diagnostics.clear();
    return;
  }
  checkNoErrors(ctx.diagnostics, "import");
  if (options.roundTrip == 0)
    return;

  // Whatever imports must export, and the export must import again.
  std::string exported;
  {
    llvm::raw_string_ostream os(exported);
    if (failed(tsmlir::exportTorchScript(module.get(), os)))
      fail("an imported module failed to export", ctx.diagnostics);
  }
  OwningOpRef<ModuleOp> reimported =
      tsmlir::importTorchScript(exported, kExportName, ctx.get());
  if (!reimported) {
    llvm::errs() << "exported text:\n" << exported << "\n";
    fail("the export of an imported module failed to import", ctx.diagnostics);
  }
  if (options.roundTrip >= 2) {
    std::string exportedAgain;
    llvm::raw_string_ostream os(exportedAgain);
    if (failed(tsmlir::exportTorchScript(reimported.get(), os)))
      fail("a re-imported module failed to export", ctx.diagnostics);
    if (exportedAgain != exported) {
      llvm::errs() << "first export:\n"
                   << exported << "\nsecond export:\n"
                   << exportedAgain << "\n";
      fail("exporting the re-imported module gave different text",
           ctx.diagnostics);
    }
  }
  ctx.diagnostics.clear();
}
