//===- Lexer.cpp - Tokens of TorchScript source ---------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Lexer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir::tsmlir::ptsource;

static bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
static bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

/// How a character reads in a diagnostic: "character 'c'", or "byte 0x0d"
/// where it is not printable.
static std::string describeChar(char c) {
  auto byte = static_cast<unsigned char>(c);
  if (byte > 0x20 && byte < 0x7f)
    return (llvm::Twine("character '") + llvm::Twine(c) + "'").str();
  return "byte 0x" + llvm::utohexstr(byte, /*LowerCase=*/true, /*Width=*/2);
}

llvm::StringRef mlir::tsmlir::ptsource::getTokenDescription(Token::Kind kind) {
  switch (kind) {
  case Token::eof:
    return "end of file";
  case Token::error:
    return "invalid token";
  case Token::newline:
    return "end of line";
  case Token::indent:
    return "indent";
  case Token::dedent:
    return "dedent";
  case Token::identifier:
    return "identifier";
  case Token::integer:
  case Token::floating:
  case Token::imaginary:
    return "number";
  case Token::string:
    return "string";
  case Token::kw_False:
    return "'False'";
  case Token::kw_None:
    return "'None'";
  case Token::kw_True:
    return "'True'";
  case Token::kw_and:
    return "'and'";
  case Token::kw_as:
    return "'as'";
  case Token::kw_assert:
    return "'assert'";
  case Token::kw_async:
    return "'async'";
  case Token::kw_await:
    return "'await'";
  case Token::kw_break:
    return "'break'";
  case Token::kw_class:
    return "'class'";
  case Token::kw_continue:
    return "'continue'";
  case Token::kw_def:
    return "'def'";
  case Token::kw_del:
    return "'del'";
  case Token::kw_elif:
    return "'elif'";
  case Token::kw_else:
    return "'else'";
  case Token::kw_except:
    return "'except'";
  case Token::kw_finally:
    return "'finally'";
  case Token::kw_for:
    return "'for'";
  case Token::kw_from:
    return "'from'";
  case Token::kw_global:
    return "'global'";
  case Token::kw_if:
    return "'if'";
  case Token::kw_import:
    return "'import'";
  case Token::kw_in:
    return "'in'";
  case Token::kw_is:
    return "'is'";
  case Token::kw_lambda:
    return "'lambda'";
  case Token::kw_nonlocal:
    return "'nonlocal'";
  case Token::kw_not:
    return "'not'";
  case Token::kw_or:
    return "'or'";
  case Token::kw_pass:
    return "'pass'";
  case Token::kw_raise:
    return "'raise'";
  case Token::kw_return:
    return "'return'";
  case Token::kw_try:
    return "'try'";
  case Token::kw_while:
    return "'while'";
  case Token::kw_with:
    return "'with'";
  case Token::kw_yield:
    return "'yield'";
  case Token::l_paren:
    return "'('";
  case Token::r_paren:
    return "')'";
  case Token::l_square:
    return "'['";
  case Token::r_square:
    return "']'";
  case Token::l_brace:
    return "'{'";
  case Token::r_brace:
    return "'}'";
  case Token::comma:
    return "','";
  case Token::colon:
    return "':'";
  case Token::semicolon:
    return "';'";
  case Token::dot:
    return "'.'";
  case Token::ellipsis:
    return "'...'";
  case Token::arrow:
    return "'->'";
  case Token::at:
    return "'@'";
  case Token::equal:
    return "'='";
  case Token::plus:
    return "'+'";
  case Token::minus:
    return "'-'";
  case Token::star:
    return "'*'";
  case Token::starstar:
    return "'**'";
  case Token::slash:
    return "'/'";
  case Token::slashslash:
    return "'//'";
  case Token::percent:
    return "'%'";
  case Token::amp:
    return "'&'";
  case Token::pipe:
    return "'|'";
  case Token::caret:
    return "'^'";
  case Token::tilde:
    return "'~'";
  case Token::lessless:
    return "'<<'";
  case Token::greatergreater:
    return "'>>'";
  case Token::less:
    return "'<'";
  case Token::greater:
    return "'>'";
  case Token::lessequal:
    return "'<='";
  case Token::greaterequal:
    return "'>='";
  case Token::equalequal:
    return "'=='";
  case Token::notequal:
    return "'!='";
  case Token::plusequal:
    return "'+='";
  case Token::minusequal:
    return "'-='";
  case Token::starequal:
    return "'*='";
  case Token::starstarequal:
    return "'**='";
  case Token::slashequal:
    return "'/='";
  case Token::slashslashequal:
    return "'//='";
  case Token::percentequal:
    return "'%='";
  case Token::atequal:
    return "'@='";
  case Token::ampequal:
    return "'&='";
  case Token::pipeequal:
    return "'|='";
  case Token::caretequal:
    return "'^='";
  case Token::lesslessequal:
    return "'<<='";
  case Token::greatergreaterequal:
    return "'>>='";
  }
  return "token";
}

Lexer::Lexer(llvm::StringRef buffer) : cur(buffer.begin()), end(buffer.end()) {
  indents.push_back(llvm::StringRef());
}

size_t Lexer::lineBreakAt(const char *p) const {
  if (p == end)
    return 0;
  if (*p == '\n')
    return 1;
  if (*p == '\r' && end - p >= 2 && p[1] == '\n')
    return 2;
  return 0;
}

Token Lexer::makeError(const char *loc, const llvm::Twine &message) {
  hadError = true;
  errorMessage = message.str();
  errorToken = Token{Token::error, llvm::StringRef(loc, 0)};
  cur = end;
  return errorToken;
}

Token Lexer::lex() {
  while (true) {
    if (hadError)
      return errorToken;
    if (pendingDedents) {
      --pendingDedents;
      return Token{Token::dedent, llvm::StringRef(cur, 0)};
    }
    if (atLineStart)
      if (std::optional<Token> token = lexIndentation())
        return *token;
    if (std::optional<Token> token = lexToken())
      return *token;
  }
}

std::optional<Token> Lexer::lexIndentation() {
  // Blank lines and lines with only a comment leave no token.
  const char *lineStart;
  while (true) {
    lineStart = cur;
    while (cur != end && (*cur == ' ' || *cur == '\t'))
      ++cur;
    if (cur != end && *cur == '#')
      while (cur != end && *cur != '\n')
        ++cur;
    if (size_t n = lineBreakAt(cur)) {
      cur += n;
      continue;
    }
    break;
  }
  // The end of the file closes the blocks (lexToken).
  if (cur == end)
    return std::nullopt;
  atLineStart = false;

  llvm::StringRef indentation(lineStart, cur - lineStart);
  llvm::StringRef current = indents.back();
  if (indentation == current)
    return std::nullopt;
  if (indentation.starts_with(current)) {
    indents.push_back(indentation);
    return Token{Token::indent, llvm::StringRef(cur, 0)};
  }
  // Back to an enclosing block: one with this indentation exactly.
  auto *it = llvm::find(indents, indentation);
  if (it == indents.end()) {
    // Between two indentations of spaces and tabs, one is a prefix of the
    // other unless they mix tabs and spaces differently.
    if (current.starts_with(indentation))
      return makeError(cur,
                       "unindent does not match any outer indentation level");
    return makeError(cur, "inconsistent use of tabs and spaces in indentation");
  }
  pendingDedents = indents.end() - it - 1;
  indents.erase(it + 1, indents.end());
  --pendingDedents;
  return Token{Token::dedent, llvm::StringRef(cur, 0)};
}

std::optional<Token> Lexer::lexToken() {
  while (true) {
    while (cur != end && (*cur == ' ' || *cur == '\t'))
      ++cur;

    if (cur == end) {
      if (!brackets.empty())
        return makeError(brackets.back(), "'" + llvm::Twine(*brackets.back()) +
                                              "' was never closed");
      if (lineHasTokens) {
        lineHasTokens = false;
        atLineStart = true;
        return Token{Token::newline, llvm::StringRef(cur, 0)};
      }
      if (indents.size() > 1) {
        indents.pop_back();
        return Token{Token::dedent, llvm::StringRef(cur, 0)};
      }
      return Token{Token::eof, llvm::StringRef(cur, 0)};
    }

    if (*cur == '#') {
      while (cur != end && *cur != '\n')
        ++cur;
      // "\r\n" after a comment: the '\r' is part of it; the '\n' ends the
      // line below.
      continue;
    }

    if (size_t n = lineBreakAt(cur)) {
      const char *lineBreak = cur;
      cur += n;
      // Implicit line joining inside brackets.
      if (!brackets.empty())
        continue;
      atLineStart = true;
      if (!lineHasTokens)
        return std::nullopt;
      lineHasTokens = false;
      return Token{Token::newline, llvm::StringRef(lineBreak, n)};
    }

    if (*cur == '\\') {
      const char *backslash = cur;
      size_t n = lineBreakAt(cur + 1);
      if (n == 0) {
        if (cur + 1 == end)
          return makeError(backslash,
                           "unexpected end of file after line continuation");
        return makeError(backslash,
                         "unexpected character after line continuation");
      }
      if (!lineHasTokens)
        return makeError(backslash, "unexpected line continuation");
      cur += 1 + n;
      continue;
    }
    break;
  }

  lineHasTokens = true;
  const char *start = cur;
  char c = *cur;
  if (isIdentStart(c))
    return lexIdentifier(start);
  if (llvm::isDigit(c) || (c == '.' && llvm::isDigit(peek(1))))
    return lexNumber(start);
  if (c == '"' || c == '\'')
    return lexString(start);

  ++cur;
  // The token is `kind`, or `withEqual` if '=' follows.
  auto withEqual = [&](Token::Kind kind, Token::Kind withEqual) {
    if (peek() == '=') {
      ++cur;
      return make(withEqual, start);
    }
    return make(kind, start);
  };
  auto closeBracket = [&](char open, Token::Kind kind) {
    if (brackets.empty())
      return makeError(start, "unmatched '" + llvm::Twine(c) + "'");
    if (*brackets.back() != open)
      return makeError(start, "closing '" + llvm::Twine(c) +
                                  "' does not match '" +
                                  llvm::Twine(*brackets.back()) + "'");
    brackets.pop_back();
    return make(kind, start);
  };

  switch (c) {
  case '(':
    brackets.push_back(start);
    return make(Token::l_paren, start);
  case '[':
    brackets.push_back(start);
    return make(Token::l_square, start);
  case '{':
    brackets.push_back(start);
    return make(Token::l_brace, start);
  case ')':
    return closeBracket('(', Token::r_paren);
  case ']':
    return closeBracket('[', Token::r_square);
  case '}':
    return closeBracket('{', Token::r_brace);
  case ',':
    return make(Token::comma, start);
  case ':':
    return make(Token::colon, start);
  case ';':
    return make(Token::semicolon, start);
  case '.':
    if (peek() == '.' && peek(1) == '.') {
      cur += 2;
      return make(Token::ellipsis, start);
    }
    return make(Token::dot, start);
  case '~':
    return make(Token::tilde, start);
  case '+':
    return withEqual(Token::plus, Token::plusequal);
  case '-':
    if (peek() == '>') {
      ++cur;
      return make(Token::arrow, start);
    }
    return withEqual(Token::minus, Token::minusequal);
  case '*':
    if (peek() == '*') {
      ++cur;
      return withEqual(Token::starstar, Token::starstarequal);
    }
    return withEqual(Token::star, Token::starequal);
  case '/':
    if (peek() == '/') {
      ++cur;
      return withEqual(Token::slashslash, Token::slashslashequal);
    }
    return withEqual(Token::slash, Token::slashequal);
  case '%':
    return withEqual(Token::percent, Token::percentequal);
  case '@':
    return withEqual(Token::at, Token::atequal);
  case '&':
    return withEqual(Token::amp, Token::ampequal);
  case '|':
    return withEqual(Token::pipe, Token::pipeequal);
  case '^':
    return withEqual(Token::caret, Token::caretequal);
  case '<':
    if (peek() == '<') {
      ++cur;
      return withEqual(Token::lessless, Token::lesslessequal);
    }
    return withEqual(Token::less, Token::lessequal);
  case '>':
    if (peek() == '>') {
      ++cur;
      return withEqual(Token::greatergreater, Token::greatergreaterequal);
    }
    return withEqual(Token::greater, Token::greaterequal);
  case '=':
    return withEqual(Token::equal, Token::equalequal);
  case '!':
    if (peek() == '=') {
      ++cur;
      return make(Token::notequal, start);
    }
    break;
  default:
    break;
  }
  return makeError(start, "unexpected " + describeChar(c));
}

Token Lexer::lexIdentifier(const char *start) {
  while (cur != end && isIdentChar(*cur))
    ++cur;
  llvm::StringRef text(start, cur - start);
  Token::Kind kind = llvm::StringSwitch<Token::Kind>(text)
                         .Case("False", Token::kw_False)
                         .Case("None", Token::kw_None)
                         .Case("True", Token::kw_True)
                         .Case("and", Token::kw_and)
                         .Case("as", Token::kw_as)
                         .Case("assert", Token::kw_assert)
                         .Case("async", Token::kw_async)
                         .Case("await", Token::kw_await)
                         .Case("break", Token::kw_break)
                         .Case("class", Token::kw_class)
                         .Case("continue", Token::kw_continue)
                         .Case("def", Token::kw_def)
                         .Case("del", Token::kw_del)
                         .Case("elif", Token::kw_elif)
                         .Case("else", Token::kw_else)
                         .Case("except", Token::kw_except)
                         .Case("finally", Token::kw_finally)
                         .Case("for", Token::kw_for)
                         .Case("from", Token::kw_from)
                         .Case("global", Token::kw_global)
                         .Case("if", Token::kw_if)
                         .Case("import", Token::kw_import)
                         .Case("in", Token::kw_in)
                         .Case("is", Token::kw_is)
                         .Case("lambda", Token::kw_lambda)
                         .Case("nonlocal", Token::kw_nonlocal)
                         .Case("not", Token::kw_not)
                         .Case("or", Token::kw_or)
                         .Case("pass", Token::kw_pass)
                         .Case("raise", Token::kw_raise)
                         .Case("return", Token::kw_return)
                         .Case("try", Token::kw_try)
                         .Case("while", Token::kw_while)
                         .Case("with", Token::kw_with)
                         .Case("yield", Token::kw_yield)
                         .Default(Token::identifier);
  return make(kind, start);
}

Token Lexer::lexNumber(const char *start) {
  // Digits of `isDigit`, with single underscores between them. False if
  // there is none, or an underscore is not followed by a digit.
  auto scanDigits = [&](auto isDigit) {
    if (cur == end || !isDigit(*cur))
      return false;
    while (cur != end) {
      if (isDigit(*cur)) {
        ++cur;
      } else if (*cur == '_' && cur + 1 != end && isDigit(cur[1])) {
        cur += 2;
      } else {
        break;
      }
    }
    return true;
  };
  auto isDecimal = [](char c) { return llvm::isDigit(c); };

  if (*cur == '0' && cur + 1 != end &&
      llvm::is_contained(llvm::StringRef("xXoObB"), cur[1])) {
    char radix = llvm::toLower(cur[1]);
    const char *what = radix == 'x'   ? "invalid hexadecimal literal"
                       : radix == 'o' ? "invalid octal literal"
                                      : "invalid binary literal";
    cur += 2;
    // An underscore may follow the prefix: 0x_ff.
    if (cur != end && *cur == '_')
      ++cur;
    bool ok;
    if (radix == 'x')
      ok = scanDigits([](char c) { return llvm::isHexDigit(c); });
    else if (radix == 'o')
      ok = scanDigits([](char c) { return c >= '0' && c <= '7'; });
    else
      ok = scanDigits([](char c) { return c == '0' || c == '1'; });
    if (!ok || (cur != end && isIdentChar(*cur)))
      return makeError(start, what);
    return make(Token::integer, start);
  }

  bool isFloat = false;
  if (*cur != '.' && !scanDigits(isDecimal))
    return makeError(start, "invalid decimal literal");
  if (peek() == '.') {
    isFloat = true;
    ++cur;
    if (llvm::isDigit(peek()) && !scanDigits(isDecimal))
      return makeError(start, "invalid decimal literal");
  }
  if (peek() == 'e' || peek() == 'E') {
    isFloat = true;
    ++cur;
    if (peek() == '+' || peek() == '-')
      ++cur;
    if (!scanDigits(isDecimal))
      return makeError(start, "invalid float literal");
  }
  Token::Kind kind = isFloat ? Token::floating : Token::integer;
  if (peek() == 'j' || peek() == 'J') {
    ++cur;
    kind = Token::imaginary;
  }
  if (cur != end && isIdentChar(*cur))
    return makeError(start, "invalid decimal literal");
  llvm::StringRef text(start, cur - start);
  if (kind == Token::integer && text.size() > 1 && text[0] == '0' &&
      text.find_first_not_of("0_") != llvm::StringRef::npos)
    return makeError(start, "leading zeros in decimal integer literals are "
                            "not permitted");
  return make(kind, start);
}

Token Lexer::lexString(const char *start) {
  char quote = *cur;
  bool triple = peek(1) == quote && peek(2) == quote;
  cur += triple ? 3 : 1;
  while (true) {
    if (cur == end)
      return makeError(start, triple ? "unterminated triple-quoted string "
                                       "literal"
                                     : "unterminated string literal");
    char c = *cur;
    if (c == '\\') {
      ++cur;
      if (size_t n = lineBreakAt(cur))
        cur += n;
      else if (cur != end)
        ++cur;
      continue;
    }
    if (!triple && (c == '\n' || c == '\r'))
      return makeError(start, "unterminated string literal");
    if (c == quote) {
      if (!triple) {
        ++cur;
        break;
      }
      if (peek(1) == quote && peek(2) == quote) {
        cur += 3;
        break;
      }
    }
    ++cur;
  }
  Token token = make(Token::string, start);
  std::string decoded, message;
  const char *errorLoc = nullptr;
  if (!decodeString(token.spelling, decoded, errorLoc, message))
    return makeError(errorLoc, message);
  return token;
}

/// Appends the UTF-8 bytes of `codePoint` (at most U+10FFFF).
static void appendUTF8(uint32_t codePoint, std::string &out) {
  if (codePoint < 0x80) {
    out += static_cast<char>(codePoint);
  } else if (codePoint < 0x800) {
    out += static_cast<char>(0xc0 | (codePoint >> 6));
    out += static_cast<char>(0x80 | (codePoint & 0x3f));
  } else if (codePoint < 0x10000) {
    out += static_cast<char>(0xe0 | (codePoint >> 12));
    out += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (codePoint & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (codePoint >> 18));
    out += static_cast<char>(0x80 | ((codePoint >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (codePoint & 0x3f));
  }
}

bool Lexer::decodeString(llvm::StringRef spelling, std::string &result,
                         const char *&errorLoc, std::string &errorMessage) {
  result.clear();
  size_t quoteLength = spelling.size() >= 6 && spelling[1] == spelling[0] &&
                               spelling[2] == spelling[0]
                           ? 3
                           : 1;
  if (spelling.size() < 2 * quoteLength) {
    errorLoc = spelling.data();
    errorMessage = "unterminated string literal";
    return false;
  }
  llvm::StringRef body =
      spelling.drop_front(quoteLength).drop_back(quoteLength);
  result.reserve(body.size());
  for (size_t i = 0; i < body.size();) {
    char c = body[i];
    if (c != '\\') {
      result += c;
      ++i;
      continue;
    }
    const char *escape = body.data() + i;
    auto fail = [&](const llvm::Twine &message) {
      errorLoc = escape;
      errorMessage = message.str();
      return false;
    };
    if (i + 1 == body.size())
      return fail("unterminated escape sequence");
    char e = body[i + 1];
    i += 2;
    switch (e) {
    case '\n':
      continue;
    case '\r':
      if (i < body.size() && body[i] == '\n')
        ++i;
      continue;
    case '\\':
    case '\'':
    case '"':
      result += e;
      continue;
    case 'a':
      result += '\a';
      continue;
    case 'b':
      result += '\b';
      continue;
    case 'f':
      result += '\f';
      continue;
    case 'n':
      result += '\n';
      continue;
    case 'r':
      result += '\r';
      continue;
    case 't':
      result += '\t';
      continue;
    case 'v':
      result += '\v';
      continue;
    case 'x':
    case 'u':
    case 'U': {
      size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
      uint32_t codePoint = 0;
      for (size_t k = 0; k < digits; ++k, ++i) {
        if (i == body.size() || !llvm::isHexDigit(body[i]))
          return fail("truncated \\" + llvm::Twine(e) + " escape: expected " +
                      llvm::Twine(digits) + " hexadecimal digits");
        codePoint = codePoint * 16 + llvm::hexDigitValue(body[i]);
      }
      if (codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff))
        return fail("invalid code point in \\" + llvm::Twine(e) + " escape");
      appendUTF8(codePoint, result);
      continue;
    }
    case 'N':
      return fail("\\N{...} escapes are not supported");
    default:
      break;
    }
    if (e >= '0' && e <= '7') {
      uint32_t codePoint = e - '0';
      for (int k = 0;
           k < 2 && i < body.size() && body[i] >= '0' && body[i] <= '7';
           ++k, ++i)
        codePoint = codePoint * 8 + (body[i] - '0');
      appendUTF8(codePoint, result);
      continue;
    }
    if (llvm::isPrint(e))
      return fail("invalid escape sequence '\\" + llvm::Twine(e) + "'");
    return fail("invalid escape sequence: a backslash before " +
                describeChar(e));
  }
  return true;
}
