//===- Lexer.h - Tokens of TorchScript IR text ------------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// TorchScript's printer separates nodes by newlines and nests blocks by
// indentation, but every construct is also delimited by tokens (a node ends
// with `)` and an optional `# comment`, a block with `-> (...)`), so the lexer
// treats all whitespace alike. `// ...` to the end of a line is skipped too
// (PyTorch never prints it; tests use it for split markers and expected
// diagnostics).
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_TARGET_TORCHSCRIPT_LEXER_H
#define TSMLIR_LIB_TARGET_TORCHSCRIPT_LEXER_H

#include "llvm/ADT/StringRef.h"

namespace mlir::tsmlir::torchscript {

struct Token {
  enum Kind {
    eof,
    error,      // a character no token starts with
    identifier, // [A-Za-z_][A-Za-z0-9_]*
    value,      // %name: the spelling without '%'
    integer,    // -?[0-9]+
    floating,   // -?[0-9]+ '.' [0-9]* exponent?, or with an exponent
    string,     // "..." with escapes; spelling includes the quotes
    comment,    // '#' to the end of the line; spelling without '#'
    l_paren,
    r_paren,
    l_square,
    r_square,
    l_brace,
    r_brace,
    less,
    greater,
    comma,
    colon,
    coloncolon,
    equal,
    arrow,
    question,
    star,
    minus,
    dot,
  };
  Kind kind = eof;
  llvm::StringRef spelling;

  bool is(Kind k) const { return kind == k; }
  bool isIdentifier(llvm::StringRef name) const {
    return kind == identifier && spelling == name;
  }
  const char *getLoc() const { return spelling.data(); }
};

class Lexer {
public:
  explicit Lexer(llvm::StringRef buffer)
      : buffer(buffer), cur(buffer.begin()) {}

  Token lex();
  /// The raw text from the current position to the next `#` or end of line,
  /// trimmed; the lexer continues from there.
  llvm::StringRef lexRestOfLine();
  /// Resets to `pos`, a position inside the buffer.
  void resetTo(const char *pos) { cur = pos; }
  const char *getBufferEnd() const { return buffer.end(); }

private:
  Token make(Token::Kind kind, const char *start) {
    return Token{kind, llvm::StringRef(start, cur - start)};
  }
  Token lexNumber(const char *start);
  Token lexString(const char *start);

  llvm::StringRef buffer;
  const char *cur;
};

/// Decodes the contents of a string token (without its quotes) as PyTorch's
/// `printQuotedString` encodes them. Returns false on a malformed escape.
bool decodeString(llvm::StringRef quoted, std::string &out);

} // namespace mlir::tsmlir::torchscript

#endif // TSMLIR_LIB_TARGET_TORCHSCRIPT_LEXER_H
