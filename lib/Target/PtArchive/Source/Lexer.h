//===- Lexer.h - Tokens of TorchScript source -------------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The tokens of TorchScript source (the `code/**.py` files of a .pt archive),
// as Python's tokenizer makes them: a `newline` token ends each logical line,
// `indent` and `dedent` tokens open and close blocks, and nothing is emitted
// for blank lines, comments, or line breaks inside (), [] and {} or after a
// backslash. An indentation is a run of spaces and tabs, compared as text:
// a deeper line must start with the indentation of the enclosing block, and
// a line that leaves blocks must match the indentation of one exactly, so
// that tabs and spaces never have to be weighed against each other. Lines end
// with "\n" or "\r\n"; the file may end without one.
//
// Errors (a character no token starts with, an unterminated string, an
// indentation that matches no enclosing block, a closing bracket that
// matches no opening one, ...) produce an `error` token whose location is
// where the problem is; getErrorMessage() says what it is. The lexer stops
// there: every later call returns the same token.
//
// The buffer need not be null-terminated: every read is checked against its
// end.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_TARGET_PTARCHIVE_SOURCE_LEXER_H
#define TSMLIR_LIB_TARGET_PTARCHIVE_SOURCE_LEXER_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>

namespace mlir::tsmlir::ptsource {

struct Token {
  enum Kind {
    eof,
    error,
    newline, // the end of a logical line; spelling: the line break, if any
    indent,  // a deeper block starts; spelling: empty, at its first token
    dedent,  // a block ends; spelling: empty, at the next token
    identifier,
    integer,   // 12, 0x1f, 0o17, 0b101, 1_000
    floating,  // 1., .5, 1e-05, 1.5E+3
    imaginary, // 2j, 2.j, 1e3j
    string,    // '...', "...", '''...''', """...""" (spelling with quotes)

    // Keywords: Python's, so that none of them is read as a name.
    kw_False,
    kw_None,
    kw_True,
    kw_and,
    kw_as,
    kw_assert,
    kw_async,
    kw_await,
    kw_break,
    kw_class,
    kw_continue,
    kw_def,
    kw_del,
    kw_elif,
    kw_else,
    kw_except,
    kw_finally,
    kw_for,
    kw_from,
    kw_global,
    kw_if,
    kw_import,
    kw_in,
    kw_is,
    kw_lambda,
    kw_nonlocal,
    kw_not,
    kw_or,
    kw_pass,
    kw_raise,
    kw_return,
    kw_try,
    kw_while,
    kw_with,
    kw_yield,

    // Punctuation.
    l_paren,             // (
    r_paren,             // )
    l_square,            // [
    r_square,            // ]
    l_brace,             // {
    r_brace,             // }
    comma,               // ,
    colon,               // :
    semicolon,           // ;
    dot,                 // .
    ellipsis,            // ...
    arrow,               // ->
    at,                  // @
    equal,               // =
    plus,                // +
    minus,               // -
    star,                // *
    starstar,            // **
    slash,               // /
    slashslash,          // //
    percent,             // %
    amp,                 // &
    pipe,                // |
    caret,               // ^
    tilde,               // ~
    lessless,            // <<
    greatergreater,      // >>
    less,                // <
    greater,             // >
    lessequal,           // <=
    greaterequal,        // >=
    equalequal,          // ==
    notequal,            // !=
    plusequal,           // +=
    minusequal,          // -=
    starequal,           // *=
    starstarequal,       // **=
    slashequal,          // /=
    slashslashequal,     // //=
    percentequal,        // %=
    atequal,             // @=
    ampequal,            // &=
    pipeequal,           // |=
    caretequal,          // ^=
    lesslessequal,       // <<=
    greatergreaterequal, // >>=
  };

  Kind kind = eof;
  /// The token's text; for an error, the place of the problem.
  llvm::StringRef spelling;

  bool is(Kind k) const { return kind == k; }
  bool isKeyword() const { return kind >= kw_False && kind <= kw_yield; }
  const char *getLoc() const { return spelling.data(); }
};

/// How a token kind reads in a diagnostic: "')'", "'def'", "identifier",
/// "end of file", ...
llvm::StringRef getTokenDescription(Token::Kind kind);

class Lexer {
public:
  explicit Lexer(llvm::StringRef buffer);

  /// The next token; after an error, the error token again.
  Token lex();

  /// What went wrong, after an `error` token.
  llvm::StringRef getErrorMessage() const { return errorMessage; }

  /// Decodes the spelling of a `string` token (quotes included) into the
  /// UTF-8 bytes of the string it denotes, with Python's escapes: \\ \' \"
  /// \a \b \f \n \r \t \v, \ooo (one to three octal digits), \xhh, \uhhhh,
  /// \Uhhhhhhhh (code points, written as UTF-8) and a backslash before a
  /// line break (nothing). Other bytes are copied as they are. Returns false
  /// with `errorLoc` and `errorMessage` set for an unknown escape or a code
  /// point beyond U+10FFFF or in the surrogate range; the lexer has checked
  /// the string tokens it returns, so those always decode.
  static bool decodeString(llvm::StringRef spelling, std::string &result,
                           const char *&errorLoc, std::string &errorMessage);

private:
  /// At the start of a line: skips blank lines, then returns an indent,
  /// the first of the dedents, an error, or nothing (same block, or the end
  /// of the file).
  std::optional<Token> lexIndentation();
  /// The next token on the current line; nothing where a line break ends a
  /// line without tokens.
  std::optional<Token> lexToken();
  Token lexNumber(const char *start);
  Token lexString(const char *start);
  Token lexIdentifier(const char *start);
  Token make(Token::Kind kind, const char *start) {
    return Token{kind, llvm::StringRef(start, cur - start)};
  }
  Token makeError(const char *loc, const llvm::Twine &message);
  /// The character at `cur + offset`, or 0 past the end of the buffer.
  char peek(size_t offset = 0) const {
    return static_cast<size_t>(end - cur) > offset ? cur[offset] : 0;
  }
  /// The length of the line break at `p` (1 or 2), or 0 if there is none.
  size_t lineBreakAt(const char *p) const;

  const char *cur, *end;
  /// Whether the next token starts a logical line (indentation is checked).
  bool atLineStart = true;
  /// Whether a token has been returned on the current logical line.
  bool lineHasTokens = false;
  /// The indentation of each open block, the outermost ("") first.
  llvm::SmallVector<llvm::StringRef, 16> indents;
  /// Dedent tokens still to return before the next token.
  unsigned pendingDedents = 0;
  /// The open brackets, innermost last.
  llvm::SmallVector<const char *, 16> brackets;
  bool hadError = false;
  Token errorToken;
  std::string errorMessage;
};

} // namespace mlir::tsmlir::ptsource

#endif // TSMLIR_LIB_TARGET_PTARCHIVE_SOURCE_LEXER_H
