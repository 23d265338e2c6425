//===- Lexer.cpp - Tokens of TorchScript IR text --------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Lexer.h"

#include "llvm/ADT/StringExtras.h"

#include <string>

using namespace mlir::tsmlir::torchscript;

static bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
static bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }
// Debug names are identifiers with `.N` suffixes and dotted attribute paths
// (`%self.fc1.weight`), and may hold `-` (`%block1-0`, from a submodule
// named `block1-0`); PyTorch also allows any non-ASCII byte.
static bool isValueNameChar(char c) {
  return isIdentChar(c) || c == '.' || c == '-' ||
         static_cast<unsigned char>(c) >= 0x80;
}

Token Lexer::lex() {
  while (true) {
    const char *end = buffer.end();
    while (cur != end && (*cur == ' ' || *cur == '\t' || *cur == '\n' ||
                          *cur == '\r' || *cur == '\f' || *cur == '\v'))
      ++cur;
    if (cur == end)
      return Token{Token::eof, llvm::StringRef(end, 0)};
    const char *start = cur++;
    switch (*start) {
    case '(':
      return make(Token::l_paren, start);
    case ')':
      return make(Token::r_paren, start);
    case '[':
      return make(Token::l_square, start);
    case ']':
      return make(Token::r_square, start);
    case '{':
      return make(Token::l_brace, start);
    case '}':
      return make(Token::r_brace, start);
    case '<':
      return make(Token::less, start);
    case '>':
      return make(Token::greater, start);
    case ',':
      return make(Token::comma, start);
    case '=':
      return make(Token::equal, start);
    case '?':
      return make(Token::question, start);
    case '*':
      return make(Token::star, start);
    case '.':
      return make(Token::dot, start);
    case ':':
      if (cur != end && *cur == ':') {
        ++cur;
        return make(Token::coloncolon, start);
      }
      return make(Token::colon, start);
    case '-':
      if (cur != end && *cur == '>') {
        ++cur;
        return make(Token::arrow, start);
      }
      if (cur != end && llvm::isDigit(*cur))
        return lexNumber(start);
      return make(Token::minus, start);
    case '#': {
      while (cur != end && *cur != '\n')
        ++cur;
      Token token = make(Token::comment, start);
      token.spelling = token.spelling.drop_front().trim();
      return token;
    }
    case '%': {
      while (cur != end && isValueNameChar(*cur))
        ++cur;
      if (cur == start + 1)
        return make(Token::error, start);
      Token token = make(Token::value, start);
      token.spelling = token.spelling.drop_front();
      return token;
    }
    case '"':
      return lexString(start);
    case '/':
      // `// ...` lines are not TorchScript; tests use them for split markers
      // and expected diagnostics. Skip them like whitespace.
      if (cur != end && *cur == '/') {
        while (cur != end && *cur != '\n')
          ++cur;
        continue;
      }
      return make(Token::error, start);
    default:
      if (llvm::isDigit(*start))
        return lexNumber(start);
      if (isIdentStart(*start)) {
        while (cur != end && isIdentChar(*cur))
          ++cur;
        return make(Token::identifier, start);
      }
      return make(Token::error, start);
    }
  }
}

llvm::StringRef Lexer::lexRestOfLine() {
  const char *start = cur;
  while (cur != buffer.end() && *cur != '#' && *cur != '\n')
    ++cur;
  return llvm::StringRef(start, cur - start).trim();
}

Token Lexer::lexNumber(const char *start) {
  const char *end = buffer.end();
  while (cur != end && llvm::isDigit(*cur))
    ++cur;
  bool isFloat = false;
  if (cur != end && *cur == '.') {
    isFloat = true;
    ++cur;
    while (cur != end && llvm::isDigit(*cur))
      ++cur;
  }
  if (cur != end && (*cur == 'e' || *cur == 'E')) {
    const char *exp = cur + 1;
    if (exp != end && (*exp == '+' || *exp == '-'))
      ++exp;
    if (exp != end && llvm::isDigit(*exp)) {
      isFloat = true;
      cur = exp;
      while (cur != end && llvm::isDigit(*cur))
        ++cur;
    }
  }
  return make(isFloat ? Token::floating : Token::integer, start);
}

Token Lexer::lexString(const char *start) {
  const char *end = buffer.end();
  while (cur != end) {
    char c = *cur++;
    if (c == '"')
      return make(Token::string, start);
    if (c == '\\') {
      if (cur == end)
        break;
      ++cur;
    } else if (c == '\n') {
      break;
    }
  }
  // Unterminated: point at the opening quote.
  cur = start + 1;
  return Token{Token::error, llvm::StringRef(start, 1)};
}

bool mlir::tsmlir::torchscript::decodeString(llvm::StringRef quoted,
                                             std::string &out) {
  out.clear();
  for (size_t i = 0, e = quoted.size(); i < e; ++i) {
    char c = quoted[i];
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    if (++i == e)
      return false;
    switch (quoted[i]) {
    case '\\':
      out.push_back('\\');
      break;
    case '\'':
      out.push_back('\'');
      break;
    case '"':
      out.push_back('"');
      break;
    case 'a':
      out.push_back('\a');
      break;
    case 'b':
      out.push_back('\b');
      break;
    case 'f':
      out.push_back('\f');
      break;
    case 'n':
      out.push_back('\n');
      break;
    case 'r':
      out.push_back('\r');
      break;
    case 't':
      out.push_back('\t');
      break;
    case 'v':
      out.push_back('\v');
      break;
    default: {
      // Three "digits" of a signed char in base 8, each in '0'-8..'7': PyTorch
      // computes them with C++'s truncating % and / on a (signed) char, so a
      // byte >= 0x80 gives digits below '0'.
      if (i + 3 > e)
        return false;
      int value = 0;
      for (int d = 0; d < 3; ++d) {
        int digit = quoted[i + d] - '0';
        if (digit < -8 || digit > 7)
          return false;
        value = value * 8 + digit;
      }
      if (value < -128 || value > 255)
        return false;
      out.push_back(static_cast<char>(value));
      i += 2;
    }
    }
  }
  return true;
}
