//===- tsmlir-ts-source.cpp - Parse the TorchScript source of archives ----===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   tsmlir-ts-source file.py                 # the syntax tree (--dump-ast)
//   tsmlir-ts-source --print file.py         # the tree printed as source
//   tsmlir-ts-source --round-trip DIR...     # every *.py under DIR: parse,
//                                            # print, parse again, compare
//
// A test and diagnostic tool for the parser of the Python-like source that
// torch.jit.save writes under code/ in a .pt archive
// (lib/Target/PtArchive/Source). Inputs are files ("-" for stdin) or
// directories, searched recursively for *.py in sorted order. Parse errors go
// to stderr as "file:line:col: error: ...", with exit code 1.
//
// --round-trip checks, for each file, that it parses, that its printed
// source parses to the same tree (the same --dump-ast text), and that
// printing that tree gives the same source again; it ends with the line
// "parsed: N files, M failures".
//
//===----------------------------------------------------------------------===//

#include "Source/AST.h"
#include "Source/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace llvm;
using namespace mlir::tsmlir;

namespace {
enum class Action { DumpAST, Print, RoundTrip };
} // namespace

static cl::list<std::string> inputs(cl::Positional,
                                    cl::desc("<file.py or directory...>"));
static cl::opt<Action> action(
    cl::desc("Action:"), cl::init(Action::DumpAST),
    cl::values(clEnumValN(Action::DumpAST, "dump-ast",
                          "Print the syntax tree as s-expressions (default)"),
               clEnumValN(Action::Print, "print",
                          "Print the syntax tree as source"),
               clEnumValN(Action::RoundTrip, "round-trip",
                          "Check that the printed source of each file parses "
                          "to the same tree; print a count")));
static cl::opt<unsigned>
    maxNestingDepth("max-nesting-depth",
                    cl::desc("How deeply blocks and expressions may nest"),
                    cl::init(ptsource::ParserOptions().maxNestingDepth));

/// Appends `path`, or the *.py files under it if it is a directory.
static std::error_code collectInputs(StringRef path,
                                     std::vector<std::string> &files) {
  if (path == "-" || !sys::fs::is_directory(path)) {
    files.push_back(path.str());
    return {};
  }
  std::vector<std::string> found;
  std::error_code ec;
  for (sys::fs::recursive_directory_iterator it(path, ec), end;
       it != end && !ec; it.increment(ec))
    if (sys::path::extension(it->path()) == ".py" &&
        !sys::fs::is_directory(it->path()))
      found.push_back(it->path());
  llvm::sort(found);
  llvm::append_range(files, found);
  return ec;
}

static std::string toString(const ptsource::ast::Module &module,
                            bool asSource) {
  std::string text;
  raw_string_ostream os(text);
  if (asSource)
    ptsource::ast::printSource(module, os);
  else
    ptsource::ast::dumpAST(module, os);
  return text;
}

/// Parses `text` as the buffer `name` of a SourceMgr of its own (errors to
/// stderr).
static FailureOr<std::unique_ptr<ptsource::ast::Module>>
parse(std::unique_ptr<MemoryBuffer> buffer, SourceMgr &sourceMgr) {
  unsigned id = sourceMgr.AddNewSourceBuffer(std::move(buffer), SMLoc());
  ptsource::ParserOptions options;
  options.maxNestingDepth = maxNestingDepth;
  return ptsource::parseSource(sourceMgr, id, options);
}

/// Whether `path` parses, prints to source that parses to the same tree,
/// and prints the same way again.
static bool roundTrip(const std::string &path,
                      std::unique_ptr<MemoryBuffer> buffer) {
  SourceMgr sourceMgr;
  auto module = parse(std::move(buffer), sourceMgr);
  if (failed(module))
    return false;
  std::string dump = toString(**module, /*asSource=*/false);
  std::string printed = toString(**module, /*asSource=*/true);

  SourceMgr printedSourceMgr;
  auto again =
      parse(MemoryBuffer::getMemBufferCopy(printed, path + " (printed)"),
            printedSourceMgr);
  if (failed(again)) {
    errs() << path << ": the printed source does not parse\n";
    return false;
  }
  if (toString(**again, /*asSource=*/false) != dump) {
    errs() << path << ": the printed source parses to a different tree\n";
    return false;
  }
  if (toString(**again, /*asSource=*/true) != printed) {
    errs() << path << ": the printed source prints differently\n";
    return false;
  }
  return true;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "TorchScript source (code/*.py) parser\n");
  if (inputs.empty())
    inputs.push_back("-");

  std::vector<std::string> files;
  for (const std::string &input : inputs) {
    if (std::error_code ec = collectInputs(input, files)) {
      errs() << input << ": " << ec.message() << "\n";
      return 1;
    }
  }

  unsigned failures = 0;
  for (const std::string &path : files) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
        MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false);
    if (!buffer) {
      errs() << path << ": " << buffer.getError().message() << "\n";
      ++failures;
      continue;
    }
    if (action == Action::RoundTrip) {
      failures += !roundTrip(path, std::move(*buffer));
      continue;
    }
    SourceMgr sourceMgr;
    auto module = parse(std::move(*buffer), sourceMgr);
    if (failed(module)) {
      ++failures;
      continue;
    }
    if (files.size() > 1)
      outs() << "# " << path << "\n";
    outs() << toString(**module, action == Action::Print);
  }
  if (action == Action::RoundTrip)
    outs() << "parsed: " << files.size() << " files, " << failures
           << " failures\n";
  return failures ? 1 : 0;
}
