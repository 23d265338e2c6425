//===- ts-source-fuzzer.cpp - libFuzzer target for TorchScript source -----===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes, as a code/*.py file of a .pt archive, to the parser
// of lib/Target/PtArchive/Source (compiled into this binary with
// -fsanitize=fuzzer,address,undefined and assertions on). The buffer is the
// fuzzer's own memory, not a copy and not null-terminated, so ASan sees any
// read past its end. Besides crashes, sanitizer reports, hangs, excessive
// memory and stack overflows (the parser bounds its recursion), each input is
// checked against the parser's contract:
//
//   - a refused input gets exactly one error, with a message, at a location
//     in the buffer (its end included);
//   - a parsed input gets no error, and its tree printed as source parses
//     again, to the same tree (the same dumpAST text), which prints as the
//     same source.
//
// A broken contract prints `==ts-source-fuzzer== FINDING: ...` and aborts,
// so libFuzzer saves the input. TSMLIR_FUZZ_VERBOSE=1 prints each error.
//
// See docs/reliability.md.
//
//===----------------------------------------------------------------------===//

#include "Source/AST.h"
#include "Source/Parser.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir::tsmlir::ptsource;

namespace {

bool verbose() {
  static const bool value = [] {
    const char *env = std::getenv("TSMLIR_FUZZ_VERBOSE");
    return env && *env && *env != '0';
  }();
  return value;
}

[[noreturn]] void fail(const llvm::Twine &what) {
  llvm::errs() << "==ts-source-fuzzer== FINDING: " << what << "\n";
  llvm::errs().flush();
  std::abort();
}

void check(bool condition, const llvm::Twine &what) {
  if (!condition)
    fail(what);
}

struct Errors {
  unsigned count = 0;
  const char *loc = nullptr;
  std::string message;
};

llvm::FailureOr<std::unique_ptr<ast::Module>> parse(llvm::StringRef text,
                                                    Errors &errors) {
  return parseSource(text, [&](const char *loc, const llvm::Twine &message) {
    ++errors.count;
    errors.loc = loc;
    errors.message = message.str();
  });
}

std::string dump(const ast::Module &module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  ast::dumpAST(module, os);
  return text;
}

std::string print(const ast::Module &module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  ast::printSource(module, os);
  return text;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  Errors errors;
  auto module = parse(bytes, errors);
  if (failed(module)) {
    if (verbose())
      llvm::errs() << "error at offset " << (errors.loc - bytes.data()) << ": "
                   << errors.message << "\n";
    check(errors.count == 1,
          "a refused input got " + llvm::Twine(errors.count) + " errors");
    check(errors.loc >= bytes.begin() && errors.loc <= bytes.end(),
          "an error outside the buffer: '" + errors.message + "'");
    check(!errors.message.empty(), "an error without a message");
    return 0;
  }
  check(errors.count == 0,
        "a parsed input got an error: '" + errors.message + "'");

  // Printed and parsed again: the same tree, printed the same way.
  std::string tree = dump(**module);
  std::string source = print(**module);
  Errors again;
  auto reparsed = parse(source, again);
  if (failed(reparsed))
    fail("the printed source does not parse: '" + again.message +
         "' at offset " + llvm::Twine(again.loc - source.data()) + " of:\n" +
         source);
  check(dump(**reparsed) == tree,
        "the printed source parses to a different tree:\n" + source);
  check(print(**reparsed) == source,
        "the printed source prints differently:\n" + source);
  return 0;
}
