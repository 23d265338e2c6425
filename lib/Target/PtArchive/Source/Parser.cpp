//===- Parser.cpp - Parse TorchScript source ------------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A recursive-descent parser over Python's grammar (the LL(1) grammar of
// Python 3.8's Grammar/Grammar, restricted as Parser.h says), with
// precedence climbing for the binary arithmetic and bitwise operators.
// Every function that may recurse into a nested construct takes a level of
// nesting (Nested), and every expression node is checked for height as it
// is built (build<>), both against ParserOptions::maxNestingDepth.
//
//===----------------------------------------------------------------------===//

#include "Parser.h"
#include "Lexer.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

#include <limits>
#include <optional>

using namespace mlir::tsmlir::ptsource;
using namespace mlir::tsmlir::ptsource::ast;
using llvm::cast;
using llvm::dyn_cast;
using llvm::failure;
using llvm::FailureOr;
using llvm::isa;
using llvm::LogicalResult;
using llvm::success;

namespace {

/// What an assignment-like statement allows as its target.
enum class TargetContext {
  Assign,    // =, for, with ... as: names, attributes, subscripts, and
             // tuples and lists of targets
  Delete,    // del: the same
  AugAssign, // +=: names, attributes, subscripts
  AnnAssign, // x : T: names, attributes, subscripts
};

class Parser {
public:
  Parser(llvm::StringRef buffer, DiagnosticHandler onError,
         const ParserOptions &options)
      : lexer(buffer), onError(onError), options(options) {
    tok = lexer.lex();
  }

  FailureOr<std::unique_ptr<Module>> parseModule();

private:
  //===--------------------------------------------------------------------===//
  // Tokens and errors
  //===--------------------------------------------------------------------===//

  void consume() {
    if (peeked) {
      tok = *peeked;
      peeked.reset();
    } else {
      tok = lexer.lex();
    }
  }
  /// The token after the current one.
  const Token &peek() {
    if (!peeked)
      peeked = lexer.lex();
    return *peeked;
  }

  /// Reports the first error (the lexer's, if the current token is an error
  /// token at or before `loc`) and returns failure.
  LogicalResult emitError(const char *loc, const llvm::Twine &message) {
    if (!hadError) {
      hadError = true;
      if (tok.is(Token::error) && !(loc < tok.getLoc()))
        onError(tok.getLoc(), lexer.getErrorMessage());
      else
        onError(loc, message);
    }
    return failure();
  }
  LogicalResult emitError(const llvm::Twine &message) {
    return emitError(tok.getLoc(), message);
  }
  /// Consumes a token of `kind`, or reports `message`.
  LogicalResult expect(Token::Kind kind, const llvm::Twine &message) {
    if (!tok.is(kind))
      return emitError(message);
    consume();
    return success();
  }
  LogicalResult expect(Token::Kind kind) {
    return expect(kind, "expected " + getTokenDescription(kind));
  }

  /// One level of nesting for as long as it lives; false (with the error
  /// reported) beyond the limit.
  class Nested {
  public:
    Nested(Parser &parser, const char *loc) : parser(parser) {
      if (parser.depth >= parser.options.maxNestingDepth) {
        (void)parser.emitError(loc, "nesting too deep");
        ok = false;
      } else {
        ++parser.depth;
        ok = true;
      }
    }
    ~Nested() {
      if (ok)
        --parser.depth;
    }
    explicit operator bool() const { return ok; }

  private:
    Parser &parser;
    bool ok;
  };

  /// Builds an expression node, refusing one higher than the nesting limit.
  template <typename T, typename... Args> ExprPtr build(Args &&...args) {
    auto e = std::make_unique<T>(std::forward<Args>(args)...);
    if (e->getHeight() > options.maxNestingDepth) {
      (void)emitError(e->getLoc(), "nesting too deep");
      return nullptr;
    }
    return e;
  }

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  LogicalResult parseStatement(StmtList &out);
  LogicalResult parseSimpleStatements(StmtList &out);
  StmtPtr parseSmallStatement();
  StmtPtr parseExprStatement();
  LogicalResult parseSuite(StmtList &out);
  StmtPtr parseIf();
  StmtPtr parseWhile();
  StmtPtr parseFor();
  StmtPtr parseWith();
  StmtPtr parseDecorated();
  StmtPtr parseFunctionDef(ExprList decorators);
  StmtPtr parseClassDef(ExprList decorators);
  LogicalResult checkTarget(const Expr &target, TargetContext context);
  bool atStatementEnd() const {
    return tok.is(Token::newline) || tok.is(Token::semicolon);
  }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  bool startsExpression(const Token &t) const;
  ExprPtr parseTestList();
  ExprPtr parseTargetList();
  ExprPtr parseTest();
  ExprPtr parseOrTest();
  ExprPtr parseAndTest();
  ExprPtr parseNotTest();
  ExprPtr parseComparison();
  ExprPtr parseBinary(unsigned minPrec);
  ExprPtr parseFactor();
  ExprPtr parsePower();
  ExprPtr parseAtomExpr();
  ExprPtr parseCall(ExprPtr func, const char *loc);
  ExprPtr parseSubscriptList();
  ExprPtr parseSubscriptItem();
  ExprPtr parseAtom();
  ExprPtr parseParenthesized();
  ExprPtr parseList();
  ExprPtr parseDict();
  ExprPtr parseNumber();
  ExprPtr parseStrings();
  LogicalResult refuseComprehension() {
    if (tok.is(Token::kw_for) || tok.is(Token::kw_async))
      return emitError("comprehensions are not supported");
    return success();
  }

  Lexer lexer;
  Token tok;
  std::optional<Token> peeked;
  DiagnosticHandler onError;
  ParserOptions options;
  unsigned depth = 0;
  bool hadError = false;
};

} // namespace

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

FailureOr<std::unique_ptr<Module>> Parser::parseModule() {
  StmtList body;
  while (!tok.is(Token::eof)) {
    if (tok.is(Token::indent))
      return emitError("unexpected indent");
    if (failed(parseStatement(body)))
      return failure();
  }
  return std::make_unique<Module>(std::move(body));
}

LogicalResult Parser::parseStatement(StmtList &out) {
  StmtPtr stmt;
  switch (tok.kind) {
  case Token::kw_if:
    stmt = parseIf();
    break;
  case Token::kw_while:
    stmt = parseWhile();
    break;
  case Token::kw_for:
    stmt = parseFor();
    break;
  case Token::kw_with:
    stmt = parseWith();
    break;
  case Token::kw_def:
    stmt = parseFunctionDef({});
    break;
  case Token::kw_class:
    stmt = parseClassDef({});
    break;
  case Token::at:
    stmt = parseDecorated();
    break;
  case Token::kw_try:
    return emitError("'try' statements are not supported");
  case Token::kw_async:
    return emitError("'async' is not supported");
  default:
    return parseSimpleStatements(out);
  }
  if (!stmt)
    return failure();
  out.push_back(std::move(stmt));
  return success();
}

LogicalResult Parser::parseSimpleStatements(StmtList &out) {
  while (true) {
    StmtPtr stmt = parseSmallStatement();
    if (!stmt)
      return failure();
    out.push_back(std::move(stmt));
    if (!tok.is(Token::semicolon))
      break;
    consume();
    if (tok.is(Token::newline))
      break;
  }
  return expect(Token::newline, "expected end of line");
}

StmtPtr Parser::parseSmallStatement() {
  const char *loc = tok.getLoc();
  switch (tok.kind) {
  case Token::kw_pass:
    consume();
    return std::make_unique<Pass>(loc);
  case Token::kw_break:
    consume();
    return std::make_unique<Break>(loc);
  case Token::kw_continue:
    consume();
    return std::make_unique<Continue>(loc);
  case Token::kw_return: {
    consume();
    ExprPtr value;
    if (!atStatementEnd() && !(value = parseTestList()))
      return nullptr;
    return std::make_unique<Return>(loc, std::move(value));
  }
  case Token::kw_raise: {
    consume();
    ExprPtr exc;
    if (!atStatementEnd() && !(exc = parseTest()))
      return nullptr;
    if (tok.is(Token::kw_from)) {
      (void)emitError("'raise ... from' is not supported");
      return nullptr;
    }
    return std::make_unique<Raise>(loc, std::move(exc));
  }
  case Token::kw_assert: {
    consume();
    ExprPtr test = parseTest();
    if (!test)
      return nullptr;
    ExprPtr msg;
    if (tok.is(Token::comma)) {
      consume();
      if (!(msg = parseTest()))
        return nullptr;
    }
    return std::make_unique<Assert>(loc, std::move(test), std::move(msg));
  }
  case Token::kw_del: {
    consume();
    ExprList targets;
    do {
      if (!targets.empty())
        consume();
      if (!targets.empty() && !startsExpression(tok))
        break;
      ExprPtr target = parseBinary(/*minPrec=*/1);
      if (!target || failed(checkTarget(*target, TargetContext::Delete)))
        return nullptr;
      targets.push_back(std::move(target));
    } while (tok.is(Token::comma));
    return std::make_unique<Del>(loc, std::move(targets));
  }
  case Token::kw_import:
  case Token::kw_from:
    (void)emitError("import statements are not supported");
    return nullptr;
  case Token::kw_global:
  case Token::kw_nonlocal:
    (void)emitError(getTokenDescription(tok.kind) +
                    " statements are not supported");
    return nullptr;
  default:
    return parseExprStatement();
  }
}

static bool isAugAssign(Token::Kind kind, BinOpKind &op) {
  switch (kind) {
  case Token::plusequal:
    op = BinOpKind::Add;
    return true;
  case Token::minusequal:
    op = BinOpKind::Sub;
    return true;
  case Token::starequal:
    op = BinOpKind::Mult;
    return true;
  case Token::atequal:
    op = BinOpKind::MatMult;
    return true;
  case Token::slashequal:
    op = BinOpKind::Div;
    return true;
  case Token::slashslashequal:
    op = BinOpKind::FloorDiv;
    return true;
  case Token::percentequal:
    op = BinOpKind::Mod;
    return true;
  case Token::starstarequal:
    op = BinOpKind::Pow;
    return true;
  case Token::lesslessequal:
    op = BinOpKind::LShift;
    return true;
  case Token::greatergreaterequal:
    op = BinOpKind::RShift;
    return true;
  case Token::pipeequal:
    op = BinOpKind::BitOr;
    return true;
  case Token::caretequal:
    op = BinOpKind::BitXor;
    return true;
  case Token::ampequal:
    op = BinOpKind::BitAnd;
    return true;
  default:
    return false;
  }
}

StmtPtr Parser::parseExprStatement() {
  const char *loc = tok.getLoc();
  ExprPtr first = parseTestList();
  if (!first)
    return nullptr;

  // x : T [= value]
  if (tok.is(Token::colon)) {
    if (failed(checkTarget(*first, TargetContext::AnnAssign)))
      return nullptr;
    consume();
    ExprPtr annotation = parseTest();
    if (!annotation)
      return nullptr;
    ExprPtr value;
    if (tok.is(Token::equal)) {
      consume();
      if (!(value = parseTestList()))
        return nullptr;
    }
    return std::make_unique<AnnAssign>(loc, std::move(first),
                                       std::move(annotation), std::move(value));
  }

  // x op= value
  BinOpKind op;
  if (isAugAssign(tok.kind, op)) {
    if (failed(checkTarget(*first, TargetContext::AugAssign)))
      return nullptr;
    consume();
    ExprPtr value = parseTestList();
    if (!value)
      return nullptr;
    return std::make_unique<AugAssign>(loc, std::move(first), op,
                                       std::move(value));
  }

  // t0 = t1 = ... = value
  if (tok.is(Token::equal)) {
    ExprList targets;
    ExprPtr value = std::move(first);
    while (tok.is(Token::equal)) {
      if (failed(checkTarget(*value, TargetContext::Assign)))
        return nullptr;
      targets.push_back(std::move(value));
      consume();
      if (!(value = parseTestList()))
        return nullptr;
    }
    return std::make_unique<Assign>(loc, std::move(targets), std::move(value));
  }

  return std::make_unique<ExprStmt>(loc, std::move(first));
}

/// How a kind of expression reads in "cannot assign to ...".
static llvm::StringRef describeForTarget(const Expr &e) {
  switch (e.getKind()) {
  case Expr::Kind::Call:
    return "function call";
  case Expr::Kind::Constant: {
    auto &c = cast<Constant>(e);
    switch (c.getConstKind()) {
    case Constant::ConstKind::None:
      return "None";
    case Constant::ConstKind::Bool:
      return c.getBoolValue() ? "True" : "False";
    case Constant::ConstKind::Ellipsis:
      return "ellipsis";
    default:
      return "literal";
    }
  }
  case Expr::Kind::Compare:
    return "comparison";
  case Expr::Kind::IfExp:
    return "conditional expression";
  case Expr::Kind::Dict:
    return "dict literal";
  case Expr::Kind::Tuple:
    return "tuple";
  case Expr::Kind::List:
    return "list";
  case Expr::Kind::Slice:
    return "slice";
  default:
    return "expression";
  }
}

LogicalResult Parser::checkTarget(const Expr &target, TargetContext context) {
  switch (target.getKind()) {
  case Expr::Kind::Name:
  case Expr::Kind::Attribute:
  case Expr::Kind::Subscript:
    return success();
  case Expr::Kind::Tuple:
  case Expr::Kind::List:
    if (context == TargetContext::Assign || context == TargetContext::Delete) {
      llvm::ArrayRef<ExprPtr> elements = isa<Tuple>(target)
                                             ? cast<Tuple>(target).getElements()
                                             : cast<List>(target).getElements();
      for (const ExprPtr &element : elements)
        if (failed(checkTarget(*element, context)))
          return failure();
      return success();
    }
    break;
  default:
    break;
  }
  switch (context) {
  case TargetContext::Assign:
    return emitError(target.getLoc(),
                     "cannot assign to " + describeForTarget(target));
  case TargetContext::Delete:
    return emitError(target.getLoc(),
                     "cannot delete " + describeForTarget(target));
  case TargetContext::AugAssign:
    return emitError(target.getLoc(), "illegal target for augmented "
                                      "assignment: " +
                                          describeForTarget(target));
  case TargetContext::AnnAssign:
    return emitError(target.getLoc(),
                     "only a name, attribute or subscript can be annotated");
  }
  return failure();
}

LogicalResult Parser::parseSuite(StmtList &out) {
  // A body is a level of nesting, on the line of its header (`if x: pass`)
  // or indented (then where its first statement starts).
  Nested nested(*this, tok.is(Token::newline) ? peek().getLoc() : tok.getLoc());
  if (!nested)
    return failure();
  if (!tok.is(Token::newline))
    return parseSimpleStatements(out);
  consume();
  if (!tok.is(Token::indent))
    return emitError("expected an indented block");
  consume();
  do {
    if (tok.is(Token::indent))
      return emitError("unexpected indent");
    if (failed(parseStatement(out)))
      return failure();
  } while (!tok.is(Token::dedent) && !tok.is(Token::eof));
  return expect(Token::dedent, "expected end of block");
}

StmtPtr Parser::parseIf() {
  // `if` or `elif`: each elif is a level of nesting in the tree.
  const char *loc = tok.getLoc();
  consume();
  ExprPtr test = parseTest();
  StmtList body, orelse;
  if (!test || failed(expect(Token::colon, "expected ':'")) ||
      failed(parseSuite(body)))
    return nullptr;
  if (tok.is(Token::kw_elif)) {
    Nested nested(*this, tok.getLoc());
    if (!nested)
      return nullptr;
    StmtPtr elif = parseIf();
    if (!elif)
      return nullptr;
    orelse.push_back(std::move(elif));
  } else if (tok.is(Token::kw_else)) {
    consume();
    if (failed(expect(Token::colon, "expected ':'")) ||
        failed(parseSuite(orelse)))
      return nullptr;
  }
  return std::make_unique<If>(loc, std::move(test), std::move(body),
                              std::move(orelse));
}

StmtPtr Parser::parseWhile() {
  const char *loc = tok.getLoc();
  consume();
  ExprPtr test = parseTest();
  StmtList body;
  if (!test || failed(expect(Token::colon, "expected ':'")) ||
      failed(parseSuite(body)))
    return nullptr;
  if (tok.is(Token::kw_else)) {
    (void)emitError("'while ... else' is not supported");
    return nullptr;
  }
  return std::make_unique<While>(loc, std::move(test), std::move(body));
}

StmtPtr Parser::parseFor() {
  const char *loc = tok.getLoc();
  consume();
  ExprPtr target = parseTargetList();
  if (!target || failed(checkTarget(*target, TargetContext::Assign)) ||
      failed(expect(Token::kw_in, "expected 'in'")))
    return nullptr;
  ExprPtr iter = parseTestList();
  StmtList body;
  if (!iter || failed(expect(Token::colon, "expected ':'")) ||
      failed(parseSuite(body)))
    return nullptr;
  if (tok.is(Token::kw_else)) {
    (void)emitError("'for ... else' is not supported");
    return nullptr;
  }
  return std::make_unique<For>(loc, std::move(target), std::move(iter),
                               std::move(body));
}

StmtPtr Parser::parseWith() {
  const char *loc = tok.getLoc();
  consume();
  std::vector<WithItem> items;
  while (true) {
    WithItem item;
    if (!(item.context = parseTest()))
      return nullptr;
    if (tok.is(Token::kw_as)) {
      consume();
      if (!(item.target = parseBinary(/*minPrec=*/1)) ||
          failed(checkTarget(*item.target, TargetContext::Assign)))
        return nullptr;
    }
    items.push_back(std::move(item));
    if (!tok.is(Token::comma))
      break;
    consume();
  }
  StmtList body;
  if (failed(expect(Token::colon, "expected ':'")) || failed(parseSuite(body)))
    return nullptr;
  return std::make_unique<With>(loc, std::move(items), std::move(body));
}

StmtPtr Parser::parseDecorated() {
  ExprList decorators;
  while (tok.is(Token::at)) {
    consume();
    ExprPtr decorator = parseTest();
    if (!decorator ||
        failed(expect(Token::newline, "expected end of line after decorator")))
      return nullptr;
    decorators.push_back(std::move(decorator));
  }
  if (tok.is(Token::kw_def))
    return parseFunctionDef(std::move(decorators));
  if (tok.is(Token::kw_class))
    return parseClassDef(std::move(decorators));
  (void)emitError("expected 'def' or 'class' after decorator");
  return nullptr;
}

StmtPtr Parser::parseFunctionDef(ExprList decorators) {
  const char *loc = tok.getLoc();
  consume();
  if (!tok.is(Token::identifier)) {
    (void)emitError("expected function name");
    return nullptr;
  }
  std::string name = tok.spelling.str();
  consume();
  if (failed(expect(Token::l_paren, "expected '('")))
    return nullptr;
  std::vector<Param> params;
  while (!tok.is(Token::r_paren)) {
    if (tok.is(Token::star) || tok.is(Token::starstar) ||
        tok.is(Token::slash)) {
      (void)emitError(getTokenDescription(tok.kind) +
                      " in parameter lists is not supported");
      return nullptr;
    }
    if (!tok.is(Token::identifier)) {
      (void)emitError("expected parameter name");
      return nullptr;
    }
    Param param{tok.spelling.str(), tok.getLoc(), nullptr, nullptr};
    consume();
    if (tok.is(Token::colon)) {
      consume();
      if (!(param.annotation = parseTest()))
        return nullptr;
    }
    if (tok.is(Token::equal)) {
      consume();
      if (!(param.defaultValue = parseTest()))
        return nullptr;
    }
    params.push_back(std::move(param));
    if (!tok.is(Token::comma))
      break;
    consume();
  }
  if (failed(expect(Token::r_paren, "expected ',' or ')'")))
    return nullptr;
  ExprPtr returns;
  if (tok.is(Token::arrow)) {
    consume();
    if (!(returns = parseTest()))
      return nullptr;
  }
  StmtList body;
  if (failed(expect(Token::colon, "expected ':'")) || failed(parseSuite(body)))
    return nullptr;
  return std::make_unique<FunctionDef>(loc, std::move(name),
                                       std::move(decorators), std::move(params),
                                       std::move(returns), std::move(body));
}

StmtPtr Parser::parseClassDef(ExprList decorators) {
  const char *loc = tok.getLoc();
  consume();
  if (!tok.is(Token::identifier)) {
    (void)emitError("expected class name");
    return nullptr;
  }
  std::string name = tok.spelling.str();
  consume();
  ExprList bases;
  if (tok.is(Token::l_paren)) {
    consume();
    while (!tok.is(Token::r_paren)) {
      if (tok.is(Token::star) || tok.is(Token::starstar) ||
          (tok.is(Token::identifier) && peek().is(Token::equal))) {
        (void)emitError("only names of base classes are supported here");
        return nullptr;
      }
      ExprPtr base = parseTest();
      if (!base)
        return nullptr;
      bases.push_back(std::move(base));
      if (!tok.is(Token::comma))
        break;
      consume();
    }
    if (failed(expect(Token::r_paren, "expected ',' or ')'")))
      return nullptr;
  }
  StmtList body;
  if (failed(expect(Token::colon, "expected ':'")) || failed(parseSuite(body)))
    return nullptr;
  return std::make_unique<ClassDef>(loc, std::move(name), std::move(decorators),
                                    std::move(bases), std::move(body));
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

bool Parser::startsExpression(const Token &t) const {
  switch (t.kind) {
  case Token::identifier:
  case Token::integer:
  case Token::floating:
  case Token::imaginary:
  case Token::string:
  case Token::kw_None:
  case Token::kw_True:
  case Token::kw_False:
  case Token::kw_not:
  case Token::kw_lambda:
  case Token::kw_await:
  case Token::kw_yield:
  case Token::l_paren:
  case Token::l_square:
  case Token::l_brace:
  case Token::minus:
  case Token::plus:
  case Token::tilde:
  case Token::star:
  case Token::ellipsis:
    return true;
  default:
    return false;
  }
}

ExprPtr Parser::parseTestList() {
  const char *loc = tok.getLoc();
  ExprPtr first = parseTest();
  if (!first || !tok.is(Token::comma))
    return first;
  ExprList elements;
  elements.push_back(std::move(first));
  while (tok.is(Token::comma)) {
    consume();
    if (!startsExpression(tok))
      break;
    ExprPtr element = parseTest();
    if (!element)
      return nullptr;
    elements.push_back(std::move(element));
  }
  return build<Tuple>(loc, std::move(elements));
}

ExprPtr Parser::parseTargetList() {
  // Targets are read at the level of `|`, so that `for x in xs` stops
  // before `in`.
  const char *loc = tok.getLoc();
  ExprPtr first = parseBinary(/*minPrec=*/1);
  if (!first || !tok.is(Token::comma))
    return first;
  ExprList elements;
  elements.push_back(std::move(first));
  while (tok.is(Token::comma)) {
    consume();
    if (!startsExpression(tok))
      break;
    ExprPtr element = parseBinary(/*minPrec=*/1);
    if (!element)
      return nullptr;
    elements.push_back(std::move(element));
  }
  return build<Tuple>(loc, std::move(elements));
}

ExprPtr Parser::parseTest() {
  if (tok.is(Token::kw_lambda)) {
    (void)emitError("lambda expressions are not supported");
    return nullptr;
  }
  const char *loc = tok.getLoc();
  ExprPtr body = parseOrTest();
  if (!body || !tok.is(Token::kw_if))
    return body;
  consume();
  ExprPtr test = parseOrTest();
  if (!test ||
      failed(expect(Token::kw_else, "expected 'else' after 'if' expression")))
    return nullptr;
  Nested nested(*this, tok.getLoc());
  if (!nested)
    return nullptr;
  ExprPtr orelse = parseTest();
  if (!orelse)
    return nullptr;
  return build<IfExp>(loc, std::move(test), std::move(body), std::move(orelse));
}

ExprPtr Parser::parseOrTest() {
  const char *loc = tok.getLoc();
  ExprPtr first = parseAndTest();
  if (!first || !tok.is(Token::kw_or))
    return first;
  ExprList values;
  values.push_back(std::move(first));
  while (tok.is(Token::kw_or)) {
    consume();
    ExprPtr value = parseAndTest();
    if (!value)
      return nullptr;
    values.push_back(std::move(value));
  }
  return build<BoolOp>(loc, BoolOpKind::Or, std::move(values));
}

ExprPtr Parser::parseAndTest() {
  const char *loc = tok.getLoc();
  ExprPtr first = parseNotTest();
  if (!first || !tok.is(Token::kw_and))
    return first;
  ExprList values;
  values.push_back(std::move(first));
  while (tok.is(Token::kw_and)) {
    consume();
    ExprPtr value = parseNotTest();
    if (!value)
      return nullptr;
    values.push_back(std::move(value));
  }
  return build<BoolOp>(loc, BoolOpKind::And, std::move(values));
}

ExprPtr Parser::parseNotTest() {
  if (!tok.is(Token::kw_not))
    return parseComparison();
  const char *loc = tok.getLoc();
  consume();
  Nested nested(*this, loc);
  if (!nested)
    return nullptr;
  ExprPtr operand = parseNotTest();
  if (!operand)
    return nullptr;
  return build<UnaryOp>(loc, UnaryOpKind::Not, std::move(operand));
}

ExprPtr Parser::parseComparison() {
  const char *loc = tok.getLoc();
  ExprPtr left = parseBinary(/*minPrec=*/1);
  if (!left)
    return nullptr;
  std::vector<CmpOpKind> ops;
  ExprList comparators;
  while (true) {
    CmpOpKind op;
    switch (tok.kind) {
    case Token::less:
      op = CmpOpKind::Lt;
      break;
    case Token::greater:
      op = CmpOpKind::Gt;
      break;
    case Token::equalequal:
      op = CmpOpKind::Eq;
      break;
    case Token::greaterequal:
      op = CmpOpKind::GtE;
      break;
    case Token::lessequal:
      op = CmpOpKind::LtE;
      break;
    case Token::notequal:
      op = CmpOpKind::NotEq;
      break;
    case Token::kw_in:
      op = CmpOpKind::In;
      break;
    case Token::kw_not:
      // `not in`; a `not` alone is not an operator here.
      if (!peek().is(Token::kw_in))
        goto done;
      consume();
      op = CmpOpKind::NotIn;
      break;
    case Token::kw_is:
      if (peek().is(Token::kw_not)) {
        consume();
        op = CmpOpKind::IsNot;
      } else {
        op = CmpOpKind::Is;
      }
      break;
    default:
      goto done;
    }
    consume();
    ExprPtr comparator = parseBinary(/*minPrec=*/1);
    if (!comparator)
      return nullptr;
    ops.push_back(op);
    comparators.push_back(std::move(comparator));
  }
done:
  if (ops.empty())
    return left;
  return build<Compare>(loc, std::move(left), std::move(ops),
                        std::move(comparators));
}

/// The binary operator of `kind` (other than `**`) and its precedence, from
/// 1 (`|`) to 6 (`*`), or 0 if there is none.
static unsigned getBinaryOp(Token::Kind kind, BinOpKind &op) {
  switch (kind) {
  case Token::pipe:
    op = BinOpKind::BitOr;
    return 1;
  case Token::caret:
    op = BinOpKind::BitXor;
    return 2;
  case Token::amp:
    op = BinOpKind::BitAnd;
    return 3;
  case Token::lessless:
    op = BinOpKind::LShift;
    return 4;
  case Token::greatergreater:
    op = BinOpKind::RShift;
    return 4;
  case Token::plus:
    op = BinOpKind::Add;
    return 5;
  case Token::minus:
    op = BinOpKind::Sub;
    return 5;
  case Token::star:
    op = BinOpKind::Mult;
    return 6;
  case Token::at:
    op = BinOpKind::MatMult;
    return 6;
  case Token::slash:
    op = BinOpKind::Div;
    return 6;
  case Token::slashslash:
    op = BinOpKind::FloorDiv;
    return 6;
  case Token::percent:
    op = BinOpKind::Mod;
    return 6;
  default:
    return 0;
  }
}

ExprPtr Parser::parseBinary(unsigned minPrec) {
  const char *loc = tok.getLoc();
  ExprPtr lhs = parseFactor();
  if (!lhs)
    return nullptr;
  while (true) {
    BinOpKind op;
    unsigned prec = getBinaryOp(tok.kind, op);
    if (prec == 0 || prec < minPrec)
      return lhs;
    consume();
    ExprPtr rhs = parseBinary(prec + 1);
    if (!rhs)
      return nullptr;
    lhs = build<BinOp>(loc, op, std::move(lhs), std::move(rhs));
    if (!lhs)
      return nullptr;
  }
}

/// Reads an integer literal (decimal, 0x, 0o or 0b, with underscores).
/// False if it does not fit in 64 bits unsigned.
static bool parseIntegerLiteral(llvm::StringRef text, uint64_t &value) {
  std::string digits;
  for (char c : text)
    if (c != '_')
      digits += c;
  llvm::StringRef rest(digits);
  unsigned radix = 10;
  if (rest.size() > 2 && rest[0] == '0' && llvm::isAlpha(rest[1])) {
    char prefix = llvm::toLower(rest[1]);
    radix = prefix == 'x' ? 16 : prefix == 'o' ? 8 : 2;
    rest = rest.drop_front(2);
  }
  return !rest.getAsInteger(radix, value);
}

static bool isInt64MinMagnitude(const Token &t) {
  uint64_t value;
  return t.is(Token::integer) && parseIntegerLiteral(t.spelling, value) &&
         value == uint64_t(1) << 63;
}

ExprPtr Parser::parseFactor() {
  UnaryOpKind op;
  switch (tok.kind) {
  case Token::minus:
    op = UnaryOpKind::USub;
    break;
  case Token::plus:
    op = UnaryOpKind::UAdd;
    break;
  case Token::tilde:
    op = UnaryOpKind::Invert;
    break;
  default:
    return parsePower();
  }
  const char *loc = tok.getLoc();
  consume();
  Nested nested(*this, loc);
  if (!nested)
    return nullptr;

  // -9223372036854775808: the magnitude alone does not fit in int64.
  if (op == UnaryOpKind::USub && isInt64MinMagnitude(tok)) {
    Token::Kind next = peek().kind;
    if (next != Token::l_paren && next != Token::l_square &&
        next != Token::dot && next != Token::starstar) {
      consume();
      return Constant::getInt(loc, std::numeric_limits<int64_t>::min());
    }
  }

  ExprPtr operand = parseFactor();
  if (!operand)
    return nullptr;
  // Fold `-` into a non-negative number literal, as PyTorch's parser does.
  if (op == UnaryOpKind::USub) {
    if (auto *c = dyn_cast<Constant>(operand.get());
        c && c->isNumber() && !c->isNegativeNumber()) {
      switch (c->getConstKind()) {
      case Constant::ConstKind::Int:
        return Constant::getInt(loc, -c->getIntValue());
      case Constant::ConstKind::Float:
        return Constant::getFloat(loc, -c->getFloatValue());
      default:
        return Constant::getImaginary(loc, -c->getFloatValue());
      }
    }
  }
  return build<UnaryOp>(loc, op, std::move(operand));
}

ExprPtr Parser::parsePower() {
  if (tok.is(Token::kw_await)) {
    (void)emitError("'await' is not supported");
    return nullptr;
  }
  const char *loc = tok.getLoc();
  ExprPtr base = parseAtomExpr();
  if (!base || !tok.is(Token::starstar))
    return base;
  consume();
  // Right-associative: `a ** b ** c` is `a ** (b ** c)`.
  Nested nested(*this, loc);
  if (!nested)
    return nullptr;
  ExprPtr exponent = parseFactor();
  if (!exponent)
    return nullptr;
  return build<BinOp>(loc, BinOpKind::Pow, std::move(base),
                      std::move(exponent));
}

ExprPtr Parser::parseAtomExpr() {
  const char *loc = tok.getLoc();
  ExprPtr e = parseAtom();
  while (e) {
    switch (tok.kind) {
    case Token::l_paren:
      e = parseCall(std::move(e), loc);
      break;
    case Token::l_square: {
      Nested nested(*this, tok.getLoc());
      if (!nested)
        return nullptr;
      consume();
      ExprPtr index = parseSubscriptList();
      if (!index || failed(expect(Token::r_square, "expected ',' or ']'")))
        return nullptr;
      e = build<Subscript>(loc, std::move(e), std::move(index));
      break;
    }
    case Token::dot: {
      consume();
      if (!tok.is(Token::identifier)) {
        (void)emitError("expected attribute name");
        return nullptr;
      }
      const char *attrLoc = tok.getLoc();
      std::string attr = tok.spelling.str();
      consume();
      e = build<Attribute>(loc, std::move(e), std::move(attr), attrLoc);
      break;
    }
    default:
      return e;
    }
  }
  return nullptr;
}

ExprPtr Parser::parseCall(ExprPtr func, const char *loc) {
  Nested nested(*this, tok.getLoc());
  if (!nested)
    return nullptr;
  consume();
  ExprList args;
  std::vector<Keyword> keywords;
  llvm::StringSet<> keywordNames;
  while (!tok.is(Token::r_paren)) {
    if (tok.is(Token::star) || tok.is(Token::starstar)) {
      (void)emitError(getTokenDescription(tok.kind) +
                      " arguments are not supported");
      return nullptr;
    }
    if (tok.is(Token::identifier) && peek().is(Token::equal)) {
      Keyword keyword{tok.spelling.str(), tok.getLoc(), nullptr};
      if (!keywordNames.insert(keyword.name).second) {
        (void)emitError("keyword argument repeated: '" + keyword.name + "'");
        return nullptr;
      }
      consume();
      consume();
      if (!(keyword.value = parseTest()))
        return nullptr;
      keywords.push_back(std::move(keyword));
    } else {
      if (!keywords.empty()) {
        (void)emitError("positional argument follows keyword argument");
        return nullptr;
      }
      ExprPtr arg = parseTest();
      if (!arg || failed(refuseComprehension()))
        return nullptr;
      args.push_back(std::move(arg));
    }
    if (!tok.is(Token::comma))
      break;
    consume();
  }
  if (failed(expect(Token::r_paren, "expected ',' or ')'")))
    return nullptr;
  return build<Call>(loc, std::move(func), std::move(args),
                     std::move(keywords));
}

ExprPtr Parser::parseSubscriptList() {
  const char *loc = tok.getLoc();
  ExprPtr first = parseSubscriptItem();
  if (!first || !tok.is(Token::comma))
    return first;
  ExprList elements;
  elements.push_back(std::move(first));
  while (tok.is(Token::comma)) {
    consume();
    if (tok.is(Token::r_square))
      break;
    ExprPtr element = parseSubscriptItem();
    if (!element)
      return nullptr;
    elements.push_back(std::move(element));
  }
  return build<Tuple>(loc, std::move(elements));
}

ExprPtr Parser::parseSubscriptItem() {
  const char *loc = tok.getLoc();
  ExprPtr lower;
  if (!tok.is(Token::colon)) {
    if (!(lower = parseTest()) || !tok.is(Token::colon))
      return lower;
  }
  consume();
  auto endsPart = [&] {
    return tok.is(Token::colon) || tok.is(Token::comma) ||
           tok.is(Token::r_square);
  };
  ExprPtr upper, step;
  if (!endsPart() && !(upper = parseTest()))
    return nullptr;
  if (tok.is(Token::colon)) {
    consume();
    if (!endsPart() && !(step = parseTest()))
      return nullptr;
  }
  return build<Slice>(loc, std::move(lower), std::move(upper), std::move(step));
}

ExprPtr Parser::parseAtom() {
  const char *loc = tok.getLoc();
  switch (tok.kind) {
  case Token::identifier: {
    auto name = std::make_unique<Name>(loc, tok.spelling.str());
    consume();
    return name;
  }
  case Token::integer:
  case Token::floating:
  case Token::imaginary:
    return parseNumber();
  case Token::string:
    return parseStrings();
  case Token::kw_None:
    consume();
    return Constant::getNone(loc);
  case Token::kw_True:
  case Token::kw_False: {
    bool value = tok.is(Token::kw_True);
    consume();
    return Constant::getBool(loc, value);
  }
  case Token::ellipsis:
    consume();
    return Constant::getEllipsis(loc);
  case Token::l_paren:
    return parseParenthesized();
  case Token::l_square:
    return parseList();
  case Token::l_brace:
    return parseDict();
  case Token::kw_lambda:
    (void)emitError("lambda expressions are not supported");
    return nullptr;
  case Token::kw_yield:
    (void)emitError("'yield' is not supported");
    return nullptr;
  case Token::kw_await:
    (void)emitError("'await' is not supported");
    return nullptr;
  case Token::star:
    (void)emitError("starred expressions are not supported");
    return nullptr;
  default:
    (void)emitError("expected expression");
    return nullptr;
  }
}

ExprPtr Parser::parseNumber() {
  const char *loc = tok.getLoc();
  llvm::StringRef text = tok.spelling;
  Token::Kind kind = tok.kind;
  if (kind == Token::integer) {
    uint64_t value;
    if (!parseIntegerLiteral(text, value) ||
        value > uint64_t(std::numeric_limits<int64_t>::max())) {
      (void)emitError("integer literal does not fit in 64 bits");
      return nullptr;
    }
    consume();
    return Constant::getInt(loc, static_cast<int64_t>(value));
  }
  if (kind == Token::imaginary)
    text = text.drop_back();
  std::string digits;
  for (char c : text)
    if (c != '_')
      digits += c;
  llvm::APFloat value(llvm::APFloat::IEEEdouble());
  llvm::Expected<llvm::APFloat::opStatus> status =
      value.convertFromString(digits, llvm::APFloat::rmNearestTiesToEven);
  if (!status) {
    llvm::consumeError(status.takeError());
    (void)emitError("invalid floating-point literal");
    return nullptr;
  }
  if (*status & llvm::APFloat::opOverflow) {
    (void)emitError("floating-point literal out of range");
    return nullptr;
  }
  consume();
  if (kind == Token::imaginary)
    return Constant::getImaginary(loc, value.convertToDouble());
  return Constant::getFloat(loc, value.convertToDouble());
}

ExprPtr Parser::parseStrings() {
  // Adjacent literals concatenate: "a" "b" is "ab".
  const char *loc = tok.getLoc();
  std::string value, piece, message;
  while (tok.is(Token::string)) {
    const char *errorLoc = nullptr;
    if (!Lexer::decodeString(tok.spelling, piece, errorLoc, message)) {
      (void)emitError(errorLoc, message);
      return nullptr;
    }
    value += piece;
    consume();
  }
  return Constant::getString(loc, std::move(value));
}

ExprPtr Parser::parseParenthesized() {
  const char *loc = tok.getLoc();
  Nested nested(*this, loc);
  if (!nested)
    return nullptr;
  consume();
  if (tok.is(Token::r_paren)) {
    consume();
    return build<Tuple>(loc, ExprList());
  }
  if (tok.is(Token::kw_yield)) {
    (void)emitError("'yield' is not supported");
    return nullptr;
  }
  ExprPtr first = parseTest();
  if (!first || failed(refuseComprehension()))
    return nullptr;
  if (tok.is(Token::r_paren)) {
    consume();
    return first;
  }
  if (!tok.is(Token::comma)) {
    (void)emitError("expected ',' or ')'");
    return nullptr;
  }
  ExprList elements;
  elements.push_back(std::move(first));
  while (tok.is(Token::comma)) {
    consume();
    if (tok.is(Token::r_paren))
      break;
    ExprPtr element = parseTest();
    if (!element)
      return nullptr;
    elements.push_back(std::move(element));
  }
  if (failed(expect(Token::r_paren, "expected ',' or ')'")))
    return nullptr;
  return build<Tuple>(loc, std::move(elements));
}

ExprPtr Parser::parseList() {
  const char *loc = tok.getLoc();
  Nested nested(*this, loc);
  if (!nested)
    return nullptr;
  consume();
  ExprList elements;
  while (!tok.is(Token::r_square)) {
    ExprPtr element = parseTest();
    if (!element || failed(refuseComprehension()))
      return nullptr;
    elements.push_back(std::move(element));
    if (!tok.is(Token::comma))
      break;
    consume();
  }
  if (failed(expect(Token::r_square, "expected ',' or ']'")))
    return nullptr;
  return build<List>(loc, std::move(elements));
}

ExprPtr Parser::parseDict() {
  const char *loc = tok.getLoc();
  Nested nested(*this, loc);
  if (!nested)
    return nullptr;
  consume();
  ExprList keys, values;
  while (!tok.is(Token::r_brace)) {
    if (tok.is(Token::starstar)) {
      (void)emitError("'**' in dict displays is not supported");
      return nullptr;
    }
    ExprPtr key = parseTest();
    if (!key)
      return nullptr;
    if (!tok.is(Token::colon)) {
      if (keys.empty() && (tok.is(Token::comma) || tok.is(Token::r_brace)))
        (void)emitError("set literals are not supported");
      else
        (void)emitError("expected ':'");
      return nullptr;
    }
    consume();
    ExprPtr value = parseTest();
    if (!value || failed(refuseComprehension()))
      return nullptr;
    keys.push_back(std::move(key));
    values.push_back(std::move(value));
    if (!tok.is(Token::comma))
      break;
    consume();
  }
  if (failed(expect(Token::r_brace, "expected ',' or '}'")))
    return nullptr;
  return build<Dict>(loc, std::move(keys), std::move(values));
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

FailureOr<std::unique_ptr<Module>>
mlir::tsmlir::ptsource::parseSource(llvm::StringRef buffer,
                                    DiagnosticHandler onError,
                                    const ParserOptions &options) {
  return Parser(buffer, onError, options).parseModule();
}

FailureOr<std::unique_ptr<Module>>
mlir::tsmlir::ptsource::parseSource(llvm::SourceMgr &sourceMgr,
                                    unsigned bufferId,
                                    const ParserOptions &options) {
  llvm::StringRef buffer = sourceMgr.getMemoryBuffer(bufferId)->getBuffer();
  return parseSource(
      buffer,
      [&](const char *loc, const llvm::Twine &message) {
        sourceMgr.PrintMessage(llvm::SMLoc::getFromPointer(loc),
                               llvm::SourceMgr::DK_Error, message);
      },
      options);
}
