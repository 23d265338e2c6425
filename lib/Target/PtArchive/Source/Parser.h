//===- Parser.h - Parse TorchScript source ----------------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The parser of the Python-like source that `torch.jit.save` writes under
// `code/` in a .pt archive (PyTorch's python_print): classes with attribute
// annotations and methods, functions, and in their bodies assignments
// (tuple targets, annotated, augmented), if/else, while, for, with, return,
// raise, assert, del, pass, break, continue, nested `def`s (before
// `fork(...)`), and expressions with Python's grammar and precedence. It
// reads a subset of Python 3 large enough for all of that; other Python
// (lambda, comprehensions, try, import, star arguments, set literals, ...)
// is an error that says so.
//
//   llvm::SourceMgr sourceMgr;
//   unsigned id = sourceMgr.AddNewSourceBuffer(std::move(buffer), {});
//   llvm::FailureOr<std::unique_ptr<ast::Module>> module =
//       parseSource(sourceMgr, id); // errors: "file:3:7: error: expected ':'"
//
// Parsing stops at the first error. It never asserts or crashes on any
// input: recursion is bounded by ParserOptions::maxNestingDepth, which also
// bounds the height of every expression tree, so later recursive walks of
// the tree are bounded as well.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_TARGET_PTARCHIVE_SOURCE_PARSER_H
#define TSMLIR_LIB_TARGET_PTARCHIVE_SOURCE_PARSER_H

#include "AST.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/LogicalResult.h"

#include <memory>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir::tsmlir::ptsource {

/// Receives the first error: `loc` points into the parsed buffer (at its
/// end for an error at the end of the input), `message` says what was
/// expected or what is wrong, without a location or "error:" prefix.
using DiagnosticHandler =
    llvm::function_ref<void(const char *loc, const llvm::Twine &message)>;

struct ParserOptions {
  /// How deeply bodies of statements, brackets (calls and subscripts
  /// included), unary operators, `not`, `**`, conditional expressions and
  /// `elif`s may nest, and how high an expression tree may be (a name or a
  /// literal has height 1; a chain `a + b + c` grows by one for each
  /// operator). Beyond either the error is "nesting too deep". PyTorch's
  /// printer splits long expressions into statements, so its output stays
  /// far below the default.
  unsigned maxNestingDepth = 200;
};

/// Parses `buffer` as a source file. Returns the module, or failure after
/// reporting the first error to `onError` (exactly once). The tree points
/// into `buffer` (node locations) and must not outlive it if they are used.
llvm::FailureOr<std::unique_ptr<ast::Module>>
parseSource(llvm::StringRef buffer, DiagnosticHandler onError,
            const ParserOptions &options = {});

/// Parses buffer `bufferId` of `sourceMgr`, and reports the first error with
/// sourceMgr.PrintMessage: "name:line:col: error: message", the line and a
/// caret, to the SourceMgr's diagnostic handler (stderr by default).
llvm::FailureOr<std::unique_ptr<ast::Module>>
parseSource(llvm::SourceMgr &sourceMgr, unsigned bufferId,
            const ParserOptions &options = {});

} // namespace mlir::tsmlir::ptsource

#endif // TSMLIR_LIB_TARGET_PTARCHIVE_SOURCE_PARSER_H
