//===- AST.cpp - Syntax trees of TorchScript source -----------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "AST.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace mlir::tsmlir::ptsource::ast;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

Expr::~Expr() = default;
Stmt::~Stmt() = default;

static unsigned heightOf(const ExprPtr &e) { return e ? e->getHeight() : 0; }

static unsigned heightOf(const ExprList &list) {
  unsigned height = 0;
  for (const ExprPtr &e : list)
    height = std::max(height, heightOf(e));
  return height;
}

std::unique_ptr<Constant> Constant::getNone(const char *loc) {
  return std::unique_ptr<Constant>(new Constant(loc, ConstKind::None));
}

std::unique_ptr<Constant> Constant::getEllipsis(const char *loc) {
  return std::unique_ptr<Constant>(new Constant(loc, ConstKind::Ellipsis));
}

std::unique_ptr<Constant> Constant::getBool(const char *loc, bool value) {
  std::unique_ptr<Constant> c(new Constant(loc, ConstKind::Bool));
  c->intValue = value;
  return c;
}

std::unique_ptr<Constant> Constant::getInt(const char *loc, int64_t value) {
  std::unique_ptr<Constant> c(new Constant(loc, ConstKind::Int));
  c->intValue = value;
  return c;
}

std::unique_ptr<Constant> Constant::getFloat(const char *loc, double value) {
  std::unique_ptr<Constant> c(new Constant(loc, ConstKind::Float));
  c->floatValue = value;
  return c;
}

std::unique_ptr<Constant> Constant::getImaginary(const char *loc,
                                                 double value) {
  std::unique_ptr<Constant> c(new Constant(loc, ConstKind::Imaginary));
  c->floatValue = value;
  return c;
}

std::unique_ptr<Constant> Constant::getString(const char *loc,
                                              std::string value) {
  std::unique_ptr<Constant> c(new Constant(loc, ConstKind::String));
  c->stringValue = std::move(value);
  return c;
}

bool Constant::isNegativeNumber() const {
  switch (constKind) {
  case ConstKind::Int:
    return intValue < 0;
  case ConstKind::Float:
  case ConstKind::Imaginary:
    return std::signbit(floatValue);
  default:
    return false;
  }
}

Attribute::Attribute(const char *loc, ExprPtr value, std::string attr,
                     const char *attrLoc)
    : Expr(Kind::Attribute, loc, 1 + heightOf(value)), value(std::move(value)),
      attr(std::move(attr)), attrLoc(attrLoc) {}

static unsigned heightOf(const std::vector<Keyword> &keywords) {
  unsigned height = 0;
  for (const Keyword &k : keywords)
    height = std::max(height, heightOf(k.value));
  return height;
}

Call::Call(const char *loc, ExprPtr func, ExprList args,
           std::vector<Keyword> keywords)
    : Expr(Kind::Call, loc,
           1 + std::max({heightOf(func), heightOf(args), heightOf(keywords)})),
      func(std::move(func)), args(std::move(args)),
      keywords(std::move(keywords)) {}

Subscript::Subscript(const char *loc, ExprPtr value, ExprPtr index)
    : Expr(Kind::Subscript, loc,
           1 + std::max(heightOf(value), heightOf(index))),
      value(std::move(value)), index(std::move(index)) {}

Slice::Slice(const char *loc, ExprPtr lower, ExprPtr upper, ExprPtr step)
    : Expr(Kind::Slice, loc,
           1 + std::max({heightOf(lower), heightOf(upper), heightOf(step)})),
      lower(std::move(lower)), upper(std::move(upper)), step(std::move(step)) {}

Tuple::Tuple(const char *loc, ExprList elements)
    : Expr(Kind::Tuple, loc, 1 + heightOf(elements)),
      elements(std::move(elements)) {}

List::List(const char *loc, ExprList elements)
    : Expr(Kind::List, loc, 1 + heightOf(elements)),
      elements(std::move(elements)) {}

Dict::Dict(const char *loc, ExprList keys, ExprList values)
    : Expr(Kind::Dict, loc, 1 + std::max(heightOf(keys), heightOf(values))),
      keys(std::move(keys)), values(std::move(values)) {}

BinOp::BinOp(const char *loc, BinOpKind op, ExprPtr lhs, ExprPtr rhs)
    : Expr(Kind::BinOp, loc, 1 + std::max(heightOf(lhs), heightOf(rhs))),
      op(op), lhs(std::move(lhs)), rhs(std::move(rhs)) {}

UnaryOp::UnaryOp(const char *loc, UnaryOpKind op, ExprPtr operand)
    : Expr(Kind::UnaryOp, loc, 1 + heightOf(operand)), op(op),
      operand(std::move(operand)) {}

BoolOp::BoolOp(const char *loc, BoolOpKind op, ExprList values)
    : Expr(Kind::BoolOp, loc, 1 + heightOf(values)), op(op),
      values(std::move(values)) {}

Compare::Compare(const char *loc, ExprPtr left, std::vector<CmpOpKind> ops,
                 ExprList comparators)
    : Expr(Kind::Compare, loc,
           1 + std::max(heightOf(left), heightOf(comparators))),
      left(std::move(left)), ops(std::move(ops)),
      comparators(std::move(comparators)) {}

IfExp::IfExp(const char *loc, ExprPtr test, ExprPtr body, ExprPtr orelse)
    : Expr(Kind::IfExp, loc,
           1 + std::max({heightOf(test), heightOf(body), heightOf(orelse)})),
      test(std::move(test)), body(std::move(body)), orelse(std::move(orelse)) {}

Assign::Assign(const char *loc, ExprList targets, ExprPtr value)
    : Stmt(Kind::Assign, loc), targets(std::move(targets)),
      value(std::move(value)) {}

AugAssign::AugAssign(const char *loc, ExprPtr target, BinOpKind op,
                     ExprPtr value)
    : Stmt(Kind::AugAssign, loc), target(std::move(target)), op(op),
      value(std::move(value)) {}

AnnAssign::AnnAssign(const char *loc, ExprPtr target, ExprPtr annotation,
                     ExprPtr value)
    : Stmt(Kind::AnnAssign, loc), target(std::move(target)),
      annotation(std::move(annotation)), value(std::move(value)) {}

ExprStmt::ExprStmt(const char *loc, ExprPtr value)
    : Stmt(Kind::Expr, loc), value(std::move(value)) {}

If::If(const char *loc, ExprPtr test, StmtList body, StmtList orelse)
    : Stmt(Kind::If, loc), test(std::move(test)), body(std::move(body)),
      orelse(std::move(orelse)) {}

While::While(const char *loc, ExprPtr test, StmtList body)
    : Stmt(Kind::While, loc), test(std::move(test)), body(std::move(body)) {}

For::For(const char *loc, ExprPtr target, ExprPtr iter, StmtList body)
    : Stmt(Kind::For, loc), target(std::move(target)), iter(std::move(iter)),
      body(std::move(body)) {}

With::With(const char *loc, std::vector<WithItem> items, StmtList body)
    : Stmt(Kind::With, loc), items(std::move(items)), body(std::move(body)) {}

Return::Return(const char *loc, ExprPtr value)
    : Stmt(Kind::Return, loc), value(std::move(value)) {}

Raise::Raise(const char *loc, ExprPtr exc)
    : Stmt(Kind::Raise, loc), exc(std::move(exc)) {}

Assert::Assert(const char *loc, ExprPtr test, ExprPtr msg)
    : Stmt(Kind::Assert, loc), test(std::move(test)), msg(std::move(msg)) {}

Del::Del(const char *loc, ExprList targets)
    : Stmt(Kind::Del, loc), targets(std::move(targets)) {}

FunctionDef::FunctionDef(const char *loc, std::string name, ExprList decorators,
                         std::vector<Param> params, ExprPtr returns,
                         StmtList body)
    : Stmt(Kind::FunctionDef, loc), name(std::move(name)),
      decorators(std::move(decorators)), params(std::move(params)),
      returns(std::move(returns)), body(std::move(body)) {}

ClassDef::ClassDef(const char *loc, std::string name, ExprList decorators,
                   ExprList bases, StmtList body)
    : Stmt(Kind::ClassDef, loc), name(std::move(name)),
      decorators(std::move(decorators)), bases(std::move(bases)),
      body(std::move(body)) {}

llvm::StringRef mlir::tsmlir::ptsource::ast::getSpelling(BinOpKind op) {
  switch (op) {
  case BinOpKind::Add:
    return "+";
  case BinOpKind::Sub:
    return "-";
  case BinOpKind::Mult:
    return "*";
  case BinOpKind::MatMult:
    return "@";
  case BinOpKind::Div:
    return "/";
  case BinOpKind::FloorDiv:
    return "//";
  case BinOpKind::Mod:
    return "%";
  case BinOpKind::Pow:
    return "**";
  case BinOpKind::LShift:
    return "<<";
  case BinOpKind::RShift:
    return ">>";
  case BinOpKind::BitOr:
    return "|";
  case BinOpKind::BitXor:
    return "^";
  case BinOpKind::BitAnd:
    return "&";
  }
  llvm_unreachable("unknown binary operator");
}

llvm::StringRef mlir::tsmlir::ptsource::ast::getSpelling(UnaryOpKind op) {
  switch (op) {
  case UnaryOpKind::Not:
    return "not";
  case UnaryOpKind::Invert:
    return "~";
  case UnaryOpKind::UAdd:
    return "+";
  case UnaryOpKind::USub:
    return "-";
  }
  llvm_unreachable("unknown unary operator");
}

llvm::StringRef mlir::tsmlir::ptsource::ast::getSpelling(BoolOpKind op) {
  return op == BoolOpKind::And ? "and" : "or";
}

llvm::StringRef mlir::tsmlir::ptsource::ast::getSpelling(CmpOpKind op) {
  switch (op) {
  case CmpOpKind::Eq:
    return "==";
  case CmpOpKind::NotEq:
    return "!=";
  case CmpOpKind::Lt:
    return "<";
  case CmpOpKind::LtE:
    return "<=";
  case CmpOpKind::Gt:
    return ">";
  case CmpOpKind::GtE:
    return ">=";
  case CmpOpKind::Is:
    return "is";
  case CmpOpKind::IsNot:
    return "is not";
  case CmpOpKind::In:
    return "in";
  case CmpOpKind::NotIn:
    return "not in";
  }
  llvm_unreachable("unknown comparison operator");
}

//===----------------------------------------------------------------------===//
// Literals
//===----------------------------------------------------------------------===//

void mlir::tsmlir::ptsource::ast::printStringLiteral(llvm::StringRef value,
                                                     llvm::raw_ostream &os) {
  os << '"';
  for (char c : value) {
    switch (c) {
    case '\\':
      os << "\\\\";
      break;
    case '"':
      os << "\\\"";
      break;
    case '\n':
      os << "\\n";
      break;
    case '\r':
      os << "\\r";
      break;
    case '\t':
      os << "\\t";
      break;
    default: {
      auto byte = static_cast<unsigned char>(c);
      // Bytes of UTF-8 sequences (>= 0x80) are written as they are.
      if (byte < 0x20 || byte == 0x7f) {
        const char *digits = "0123456789abcdef";
        os << "\\x" << digits[byte >> 4] << digits[byte & 15];
      } else {
        os << c;
      }
    }
    }
  }
  os << '"';
}

/// 17 significant digits (enough for every double to read back exactly, and
/// what PyTorch prints), with a `.` where printf leaves an integer.
static void printDouble(double value, llvm::raw_ostream &os) {
  char buffer[40];
  std::snprintf(buffer, sizeof(buffer), "%.17g", value);
  llvm::StringRef text(buffer);
  os << text;
  if (text.find_first_of(".eEni") == llvm::StringRef::npos)
    os << '.';
}

static void printConstant(const Constant &c, llvm::raw_ostream &os) {
  switch (c.getConstKind()) {
  case Constant::ConstKind::None:
    os << "None";
    return;
  case Constant::ConstKind::Ellipsis:
    os << "...";
    return;
  case Constant::ConstKind::Bool:
    os << (c.getBoolValue() ? "True" : "False");
    return;
  case Constant::ConstKind::Int:
    os << c.getIntValue();
    return;
  case Constant::ConstKind::Float:
    printDouble(c.getFloatValue(), os);
    return;
  case Constant::ConstKind::Imaginary:
    printDouble(c.getFloatValue(), os);
    os << 'j';
    return;
  case Constant::ConstKind::String:
    printStringLiteral(c.getStringValue(), os);
    return;
  }
}

//===----------------------------------------------------------------------===//
// Source printer
//===----------------------------------------------------------------------===//

namespace {

/// Python's precedence levels, loosest first.
enum Prec : unsigned {
  PrecTest,    // a if b else c
  PrecOr,      // or
  PrecAnd,     // and
  PrecNot,     // not
  PrecCompare, // < == in is ...
  PrecBitOr,   // |
  PrecBitXor,  // ^
  PrecBitAnd,  // &
  PrecShift,   // << >>
  PrecArith,   // + -
  PrecTerm,    // * @ / // %
  PrecUnary,   // -x +x ~x
  PrecPower,   // **
  PrecAtom,    // names, literals, displays, calls, attributes, subscripts
};

Prec getPrec(BinOpKind op) {
  switch (op) {
  case BinOpKind::BitOr:
    return PrecBitOr;
  case BinOpKind::BitXor:
    return PrecBitXor;
  case BinOpKind::BitAnd:
    return PrecBitAnd;
  case BinOpKind::LShift:
  case BinOpKind::RShift:
    return PrecShift;
  case BinOpKind::Add:
  case BinOpKind::Sub:
    return PrecArith;
  case BinOpKind::Mult:
  case BinOpKind::MatMult:
  case BinOpKind::Div:
  case BinOpKind::FloorDiv:
  case BinOpKind::Mod:
    return PrecTerm;
  case BinOpKind::Pow:
    return PrecPower;
  }
  llvm_unreachable("unknown binary operator");
}

Prec getPrec(const Expr &e) {
  switch (e.getKind()) {
  case Expr::Kind::IfExp:
    return PrecTest;
  case Expr::Kind::BoolOp:
    return cast<BoolOp>(e).getOp() == BoolOpKind::Or ? PrecOr : PrecAnd;
  case Expr::Kind::UnaryOp:
    return cast<UnaryOp>(e).getOp() == UnaryOpKind::Not ? PrecNot : PrecUnary;
  case Expr::Kind::Compare:
    return PrecCompare;
  case Expr::Kind::BinOp:
    return getPrec(cast<BinOp>(e).getOp());
  case Expr::Kind::Constant:
    // `-1` reads as a unary minus: `(-1) ** 2`, `(-1).real`.
    return cast<Constant>(e).isNegativeNumber() ? PrecUnary : PrecAtom;
  default:
    return PrecAtom;
  }
}

class SourcePrinter {
public:
  explicit SourcePrinter(llvm::raw_ostream &os) : os(os) {}

  void printExpr(const Expr &e, Prec minPrec = PrecTest);
  /// Where Python takes a list of expressions (`x = a, b`, `return a, b`,
  /// `for a, b in xs`): a tuple without parentheses, elements at `minPrec`.
  void printExprList(const Expr &e, Prec minPrec = PrecTest);
  void printStmt(const Stmt &s, unsigned indent);
  void printBlock(llvm::ArrayRef<StmtPtr> body, unsigned indent);

private:
  void printList(llvm::ArrayRef<ExprPtr> list) {
    llvm::interleaveComma(list, os, [&](const ExprPtr &e) { printExpr(*e); });
  }
  void printIndex(const Expr &index);
  void printSlicePart(const Expr *part) {
    if (part)
      printExpr(*part);
  }
  void printIfChain(const If &s, unsigned indent, bool isElif);
  void indent(unsigned level) { os.indent(2 * level); }

  llvm::raw_ostream &os;
};

} // namespace

void SourcePrinter::printIndex(const Expr &index) {
  if (auto *slice = dyn_cast<Slice>(&index)) {
    printSlicePart(slice->getLower());
    os << ':';
    printSlicePart(slice->getUpper());
    if (slice->getStep()) {
      os << ':';
      printSlicePart(slice->getStep());
    }
    return;
  }
  printExpr(index);
}

void SourcePrinter::printExprList(const Expr &e, Prec minPrec) {
  auto *tuple = dyn_cast<Tuple>(&e);
  if (!tuple || tuple->getElements().empty())
    return printExpr(e, minPrec);
  llvm::interleaveComma(tuple->getElements(), os,
                        [&](const ExprPtr &elt) { printExpr(*elt, minPrec); });
  if (tuple->getElements().size() == 1)
    os << ',';
}

void SourcePrinter::printExpr(const Expr &e, Prec minPrec) {
  bool parens = getPrec(e) < minPrec;
  if (parens)
    os << '(';
  switch (e.getKind()) {
  case Expr::Kind::Name:
    os << cast<Name>(e).getId();
    break;
  case Expr::Kind::Constant:
    printConstant(cast<Constant>(e), os);
    break;
  case Expr::Kind::Attribute: {
    auto &attr = cast<Attribute>(e);
    const Expr &value = attr.getValue();
    printExpr(value, PrecAtom);
    // `1.real` would read as `1.` followed by a name: `1 .real`.
    auto *c = dyn_cast<Constant>(&value);
    if (c && c->isNumber() && !c->isNegativeNumber())
      os << ' ';
    os << '.' << attr.getAttr();
    break;
  }
  case Expr::Kind::Call: {
    auto &call = cast<Call>(e);
    printExpr(call.getFunc(), PrecAtom);
    os << '(';
    printList(call.getArgs());
    for (const Keyword &k : call.getKeywords()) {
      if (&k != call.getKeywords().begin() || !call.getArgs().empty())
        os << ", ";
      os << k.name << '=';
      printExpr(*k.value);
    }
    os << ')';
    break;
  }
  case Expr::Kind::Subscript: {
    auto &sub = cast<Subscript>(e);
    printExpr(sub.getValue(), PrecAtom);
    os << '[';
    // `x[a, b:c]`: the tuple of an index without parentheses, where a
    // slice may appear.
    auto *tuple = dyn_cast<Tuple>(&sub.getIndex());
    if (tuple && !tuple->getElements().empty()) {
      llvm::interleaveComma(tuple->getElements(), os,
                            [&](const ExprPtr &elt) { printIndex(*elt); });
      if (tuple->getElements().size() == 1)
        os << ',';
    } else {
      printIndex(sub.getIndex());
    }
    os << ']';
    break;
  }
  case Expr::Kind::Slice:
    // Only valid in a subscript, where printIndex prints it; a tree built
    // by hand gets the same spelling anywhere else.
    printIndex(e);
    break;
  case Expr::Kind::Tuple: {
    auto &tuple = cast<Tuple>(e);
    os << '(';
    printList(tuple.getElements());
    if (tuple.getElements().size() == 1)
      os << ',';
    os << ')';
    break;
  }
  case Expr::Kind::List:
    os << '[';
    printList(cast<List>(e).getElements());
    os << ']';
    break;
  case Expr::Kind::Dict: {
    auto &dict = cast<Dict>(e);
    os << '{';
    for (auto [i, key] : llvm::enumerate(dict.getKeys())) {
      if (i)
        os << ", ";
      printExpr(*key);
      os << ": ";
      printExpr(*dict.getValues()[i]);
    }
    os << '}';
    break;
  }
  case Expr::Kind::BinOp: {
    auto &bin = cast<BinOp>(e);
    Prec prec = getPrec(bin.getOp());
    if (bin.getOp() == BinOpKind::Pow) {
      // Right-associative; the right operand may be unary: `a ** -b`.
      printExpr(bin.getLHS(), PrecAtom);
      os << " ** ";
      printExpr(bin.getRHS(), PrecUnary);
    } else {
      printExpr(bin.getLHS(), prec);
      os << ' ' << getSpelling(bin.getOp()) << ' ';
      printExpr(bin.getRHS(), static_cast<Prec>(prec + 1));
    }
    break;
  }
  case Expr::Kind::UnaryOp: {
    auto &unary = cast<UnaryOp>(e);
    if (unary.getOp() == UnaryOpKind::Not) {
      os << "not ";
      printExpr(unary.getOperand(), PrecNot);
    } else {
      os << getSpelling(unary.getOp());
      printExpr(unary.getOperand(), PrecUnary);
    }
    break;
  }
  case Expr::Kind::BoolOp: {
    auto &boolOp = cast<BoolOp>(e);
    Prec operandPrec = static_cast<Prec>(getPrec(e) + 1);
    for (auto [i, value] : llvm::enumerate(boolOp.getValues())) {
      if (i)
        os << ' ' << getSpelling(boolOp.getOp()) << ' ';
      printExpr(*value, operandPrec);
    }
    break;
  }
  case Expr::Kind::Compare: {
    auto &cmp = cast<Compare>(e);
    printExpr(cmp.getLeft(), PrecBitOr);
    for (auto [op, comparator] :
         llvm::zip_equal(cmp.getOps(), cmp.getComparators())) {
      os << ' ' << getSpelling(op) << ' ';
      printExpr(*comparator, PrecBitOr);
    }
    break;
  }
  case Expr::Kind::IfExp: {
    auto &ifExp = cast<IfExp>(e);
    printExpr(ifExp.getBody(), PrecOr);
    os << " if ";
    printExpr(ifExp.getTest(), PrecOr);
    os << " else ";
    printExpr(ifExp.getOrElse(), PrecTest);
    break;
  }
  }
  if (parens)
    os << ')';
}

void SourcePrinter::printBlock(llvm::ArrayRef<StmtPtr> body, unsigned indent) {
  if (body.empty()) {
    this->indent(indent);
    os << "pass\n";
    return;
  }
  for (const StmtPtr &s : body)
    printStmt(*s, indent);
}

void SourcePrinter::printIfChain(const If &s, unsigned indent, bool isElif) {
  this->indent(indent);
  os << (isElif ? "elif " : "if ");
  printExpr(s.getTest());
  os << ":\n";
  printBlock(s.getBody(), indent + 1);
  llvm::ArrayRef<StmtPtr> orelse = s.getOrElse();
  if (orelse.empty())
    return;
  if (orelse.size() == 1)
    if (auto *elif = dyn_cast<If>(orelse.front().get()))
      return printIfChain(*elif, indent, /*isElif=*/true);
  this->indent(indent);
  os << "else:\n";
  printBlock(orelse, indent + 1);
}

void SourcePrinter::printStmt(const Stmt &s, unsigned indent) {
  switch (s.getKind()) {
  case Stmt::Kind::If:
    return printIfChain(cast<If>(s), indent, /*isElif=*/false);
  case Stmt::Kind::FunctionDef: {
    auto &def = cast<FunctionDef>(s);
    for (const ExprPtr &decorator : def.getDecorators()) {
      this->indent(indent);
      os << '@';
      printExpr(*decorator);
      os << '\n';
    }
    this->indent(indent);
    os << "def " << def.getName() << '(';
    llvm::interleaveComma(def.getParams(), os, [&](const Param &p) {
      os << p.name;
      if (p.annotation) {
        os << ": ";
        printExpr(*p.annotation);
      }
      if (p.defaultValue) {
        os << (p.annotation ? " = " : "=");
        printExpr(*p.defaultValue);
      }
    });
    os << ')';
    if (const Expr *returns = def.getReturns()) {
      os << " -> ";
      printExpr(*returns);
    }
    os << ":\n";
    return printBlock(def.getBody(), indent + 1);
  }
  case Stmt::Kind::ClassDef: {
    auto &cls = cast<ClassDef>(s);
    for (const ExprPtr &decorator : cls.getDecorators()) {
      this->indent(indent);
      os << '@';
      printExpr(*decorator);
      os << '\n';
    }
    this->indent(indent);
    os << "class " << cls.getName();
    if (!cls.getBases().empty()) {
      os << '(';
      printList(cls.getBases());
      os << ')';
    }
    os << ":\n";
    return printBlock(cls.getBody(), indent + 1);
  }
  default:
    break;
  }

  this->indent(indent);
  switch (s.getKind()) {
  case Stmt::Kind::Assign: {
    auto &assign = cast<Assign>(s);
    for (const ExprPtr &target : assign.getTargets()) {
      printExprList(*target);
      os << " = ";
    }
    printExprList(assign.getValue());
    break;
  }
  case Stmt::Kind::AugAssign: {
    auto &aug = cast<AugAssign>(s);
    printExpr(aug.getTarget());
    os << ' ' << getSpelling(aug.getOp()) << "= ";
    printExprList(aug.getValue());
    break;
  }
  case Stmt::Kind::AnnAssign: {
    auto &ann = cast<AnnAssign>(s);
    printExpr(ann.getTarget());
    os << ": ";
    printExpr(ann.getAnnotation());
    if (const Expr *value = ann.getValue()) {
      os << " = ";
      printExprList(*value);
    }
    break;
  }
  case Stmt::Kind::Expr:
    printExprList(cast<ExprStmt>(s).getValue());
    break;
  case Stmt::Kind::While: {
    auto &loop = cast<While>(s);
    os << "while ";
    printExpr(loop.getTest());
    os << ":\n";
    return printBlock(loop.getBody(), indent + 1);
  }
  case Stmt::Kind::For: {
    auto &loop = cast<For>(s);
    os << "for ";
    // The target is read at the level of `|`, before `in`.
    printExprList(loop.getTarget(), PrecBitOr);
    os << " in ";
    printExprList(loop.getIter());
    os << ":\n";
    return printBlock(loop.getBody(), indent + 1);
  }
  case Stmt::Kind::With: {
    auto &with = cast<With>(s);
    os << "with ";
    llvm::interleaveComma(with.getItems(), os, [&](const WithItem &item) {
      printExpr(*item.context);
      if (item.target) {
        os << " as ";
        printExpr(*item.target, PrecBitOr);
      }
    });
    os << ":\n";
    return printBlock(with.getBody(), indent + 1);
  }
  case Stmt::Kind::Return:
    os << "return";
    if (const Expr *value = cast<Return>(s).getValue()) {
      os << ' ';
      printExprList(*value);
    }
    break;
  case Stmt::Kind::Pass:
    os << "pass";
    break;
  case Stmt::Kind::Break:
    os << "break";
    break;
  case Stmt::Kind::Continue:
    os << "continue";
    break;
  case Stmt::Kind::Raise:
    os << "raise";
    if (const Expr *exc = cast<Raise>(s).getExc()) {
      os << ' ';
      printExpr(*exc);
    }
    break;
  case Stmt::Kind::Assert: {
    auto &assertStmt = cast<Assert>(s);
    os << "assert ";
    printExpr(assertStmt.getTest());
    if (const Expr *msg = assertStmt.getMsg()) {
      os << ", ";
      printExpr(*msg);
    }
    break;
  }
  case Stmt::Kind::Del:
    os << "del ";
    llvm::interleaveComma(cast<Del>(s).getTargets(), os,
                          [&](const ExprPtr &t) { printExpr(*t, PrecBitOr); });
    break;
  case Stmt::Kind::If:
  case Stmt::Kind::FunctionDef:
  case Stmt::Kind::ClassDef:
    llvm_unreachable("handled above");
  }
  os << '\n';
}

void mlir::tsmlir::ptsource::ast::printSource(const Module &module,
                                              llvm::raw_ostream &os) {
  SourcePrinter printer(os);
  for (const StmtPtr &s : module.getBody())
    printer.printStmt(*s, 0);
}

void mlir::tsmlir::ptsource::ast::printSource(const Stmt &stmt,
                                              llvm::raw_ostream &os,
                                              unsigned indent) {
  SourcePrinter(os).printStmt(stmt, indent);
}

void mlir::tsmlir::ptsource::ast::printSource(const Expr &expr,
                                              llvm::raw_ostream &os) {
  SourcePrinter(os).printExpr(expr);
}

//===----------------------------------------------------------------------===//
// S-expression dump
//===----------------------------------------------------------------------===//

namespace {

class Dumper {
public:
  explicit Dumper(llvm::raw_ostream &os) : os(os) {}

  void dumpExpr(const Expr *e);
  void dumpStmt(const Stmt &s, unsigned indent);
  void dumpBlock(llvm::ArrayRef<StmtPtr> body, unsigned indent) {
    for (const StmtPtr &s : body)
      dumpStmt(*s, indent);
  }

private:
  void dumpList(llvm::StringRef head, llvm::ArrayRef<ExprPtr> list) {
    os << '(' << head;
    dumpOperands(list);
    os << ')';
  }
  void dumpOperands(llvm::ArrayRef<ExprPtr> list) {
    for (const ExprPtr &e : list) {
      os << ' ';
      dumpExpr(e.get());
    }
  }
  void line(unsigned indent, llvm::StringRef head) {
    os.indent(2 * indent) << head;
  }

  llvm::raw_ostream &os;
};

} // namespace

void Dumper::dumpExpr(const Expr *e) {
  if (!e) {
    os << "<>";
    return;
  }
  switch (e->getKind()) {
  case Expr::Kind::Name:
    os << cast<Name>(e)->getId();
    return;
  case Expr::Kind::Constant:
    printConstant(*cast<Constant>(e), os);
    return;
  case Expr::Kind::Attribute: {
    auto *attr = cast<Attribute>(e);
    os << "(attr ";
    dumpExpr(&attr->getValue());
    os << ' ' << attr->getAttr() << ')';
    return;
  }
  case Expr::Kind::Call: {
    auto *call = cast<Call>(e);
    os << "(call ";
    dumpExpr(&call->getFunc());
    dumpOperands(call->getArgs());
    for (const Keyword &k : call->getKeywords()) {
      os << " (kw " << k.name << ' ';
      dumpExpr(k.value.get());
      os << ')';
    }
    os << ')';
    return;
  }
  case Expr::Kind::Subscript: {
    auto *sub = cast<Subscript>(e);
    os << "(subscript ";
    dumpExpr(&sub->getValue());
    os << ' ';
    dumpExpr(&sub->getIndex());
    os << ')';
    return;
  }
  case Expr::Kind::Slice: {
    auto *slice = cast<Slice>(e);
    os << "(slice ";
    dumpExpr(slice->getLower());
    os << ' ';
    dumpExpr(slice->getUpper());
    os << ' ';
    dumpExpr(slice->getStep());
    os << ')';
    return;
  }
  case Expr::Kind::Tuple:
    return dumpList("tuple", cast<Tuple>(e)->getElements());
  case Expr::Kind::List:
    return dumpList("list", cast<List>(e)->getElements());
  case Expr::Kind::Dict: {
    auto *dict = cast<Dict>(e);
    os << "(dict";
    for (auto [key, value] :
         llvm::zip_equal(dict->getKeys(), dict->getValues())) {
      os << " (";
      dumpExpr(key.get());
      os << ' ';
      dumpExpr(value.get());
      os << ')';
    }
    os << ')';
    return;
  }
  case Expr::Kind::BinOp: {
    auto *bin = cast<BinOp>(e);
    os << '(' << getSpelling(bin->getOp()) << ' ';
    dumpExpr(&bin->getLHS());
    os << ' ';
    dumpExpr(&bin->getRHS());
    os << ')';
    return;
  }
  case Expr::Kind::UnaryOp: {
    auto *unary = cast<UnaryOp>(e);
    switch (unary->getOp()) {
    case UnaryOpKind::Not:
      os << "(not ";
      break;
    case UnaryOpKind::Invert:
      os << "(~ ";
      break;
    case UnaryOpKind::UAdd:
      os << "(u+ ";
      break;
    case UnaryOpKind::USub:
      os << "(u- ";
      break;
    }
    dumpExpr(&unary->getOperand());
    os << ')';
    return;
  }
  case Expr::Kind::BoolOp: {
    auto *boolOp = cast<BoolOp>(e);
    return dumpList(getSpelling(boolOp->getOp()), boolOp->getValues());
  }
  case Expr::Kind::Compare: {
    auto *cmp = cast<Compare>(e);
    os << "(compare ";
    dumpExpr(&cmp->getLeft());
    for (auto [op, comparator] :
         llvm::zip_equal(cmp->getOps(), cmp->getComparators())) {
      os << ' ' << getSpelling(op) << ' ';
      dumpExpr(comparator.get());
    }
    os << ')';
    return;
  }
  case Expr::Kind::IfExp: {
    auto *ifExp = cast<IfExp>(e);
    os << "(ifexp ";
    dumpExpr(&ifExp->getTest());
    os << ' ';
    dumpExpr(&ifExp->getBody());
    os << ' ';
    dumpExpr(&ifExp->getOrElse());
    os << ')';
    return;
  }
  }
}

void Dumper::dumpStmt(const Stmt &s, unsigned indent) {
  switch (s.getKind()) {
  case Stmt::Kind::Assign: {
    auto &assign = cast<Assign>(s);
    line(indent, "assign");
    dumpOperands(assign.getTargets());
    os << ' ';
    dumpExpr(&assign.getValue());
    break;
  }
  case Stmt::Kind::AugAssign: {
    auto &aug = cast<AugAssign>(s);
    line(indent, "augassign ");
    os << getSpelling(aug.getOp()) << "= ";
    dumpExpr(&aug.getTarget());
    os << ' ';
    dumpExpr(&aug.getValue());
    break;
  }
  case Stmt::Kind::AnnAssign: {
    auto &ann = cast<AnnAssign>(s);
    line(indent, "annassign ");
    dumpExpr(&ann.getTarget());
    os << ' ';
    dumpExpr(&ann.getAnnotation());
    if (const Expr *value = ann.getValue()) {
      os << ' ';
      dumpExpr(value);
    }
    break;
  }
  case Stmt::Kind::Expr:
    line(indent, "expr ");
    dumpExpr(&cast<ExprStmt>(s).getValue());
    break;
  case Stmt::Kind::If: {
    auto &ifStmt = cast<If>(s);
    line(indent, "if ");
    dumpExpr(&ifStmt.getTest());
    os << '\n';
    dumpBlock(ifStmt.getBody(), indent + 1);
    if (!ifStmt.getOrElse().empty()) {
      line(indent, "else\n");
      dumpBlock(ifStmt.getOrElse(), indent + 1);
    }
    return;
  }
  case Stmt::Kind::While: {
    auto &loop = cast<While>(s);
    line(indent, "while ");
    dumpExpr(&loop.getTest());
    os << '\n';
    return dumpBlock(loop.getBody(), indent + 1);
  }
  case Stmt::Kind::For: {
    auto &loop = cast<For>(s);
    line(indent, "for ");
    dumpExpr(&loop.getTarget());
    os << ' ';
    dumpExpr(&loop.getIter());
    os << '\n';
    return dumpBlock(loop.getBody(), indent + 1);
  }
  case Stmt::Kind::With: {
    auto &with = cast<With>(s);
    line(indent, "with");
    for (const WithItem &item : with.getItems()) {
      os << " (item ";
      dumpExpr(item.context.get());
      os << ' ';
      dumpExpr(item.target.get());
      os << ')';
    }
    os << '\n';
    return dumpBlock(with.getBody(), indent + 1);
  }
  case Stmt::Kind::Return:
    line(indent, "return");
    if (const Expr *value = cast<Return>(s).getValue()) {
      os << ' ';
      dumpExpr(value);
    }
    break;
  case Stmt::Kind::Pass:
    line(indent, "pass");
    break;
  case Stmt::Kind::Break:
    line(indent, "break");
    break;
  case Stmt::Kind::Continue:
    line(indent, "continue");
    break;
  case Stmt::Kind::Raise:
    line(indent, "raise");
    if (const Expr *exc = cast<Raise>(s).getExc()) {
      os << ' ';
      dumpExpr(exc);
    }
    break;
  case Stmt::Kind::Assert: {
    auto &assertStmt = cast<Assert>(s);
    line(indent, "assert ");
    dumpExpr(&assertStmt.getTest());
    if (const Expr *msg = assertStmt.getMsg()) {
      os << ' ';
      dumpExpr(msg);
    }
    break;
  }
  case Stmt::Kind::Del:
    line(indent, "del");
    dumpOperands(cast<Del>(s).getTargets());
    break;
  case Stmt::Kind::FunctionDef: {
    auto &def = cast<FunctionDef>(s);
    line(indent, "def ");
    os << def.getName() << '\n';
    for (const ExprPtr &decorator : def.getDecorators()) {
      line(indent + 1, "decorator ");
      dumpExpr(decorator.get());
      os << '\n';
    }
    for (const Param &p : def.getParams()) {
      line(indent + 1, "param ");
      os << p.name;
      if (p.annotation) {
        os << " : ";
        dumpExpr(p.annotation.get());
      }
      if (p.defaultValue) {
        os << " = ";
        dumpExpr(p.defaultValue.get());
      }
      os << '\n';
    }
    if (const Expr *returns = def.getReturns()) {
      line(indent + 1, "returns ");
      dumpExpr(returns);
      os << '\n';
    }
    return dumpBlock(def.getBody(), indent + 1);
  }
  case Stmt::Kind::ClassDef: {
    auto &cls = cast<ClassDef>(s);
    line(indent, "class ");
    os << cls.getName() << '\n';
    for (const ExprPtr &decorator : cls.getDecorators()) {
      line(indent + 1, "decorator ");
      dumpExpr(decorator.get());
      os << '\n';
    }
    for (const ExprPtr &base : cls.getBases()) {
      line(indent + 1, "base ");
      dumpExpr(base.get());
      os << '\n';
    }
    return dumpBlock(cls.getBody(), indent + 1);
  }
  }
  os << '\n';
}

void mlir::tsmlir::ptsource::ast::dumpAST(const Module &module,
                                          llvm::raw_ostream &os) {
  Dumper(os).dumpBlock(module.getBody(), 0);
}

void mlir::tsmlir::ptsource::ast::dumpAST(const Expr &expr,
                                          llvm::raw_ostream &os) {
  Dumper(os).dumpExpr(&expr);
}
