//===- AST.h - Syntax trees of TorchScript source ---------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The syntax tree of the Python-like TorchScript source that `torch.jit.save`
// writes under `code/` in a .pt archive (PyTorch's python_print), as the
// parser (Parser.h) builds it. The node kinds follow Python's `ast` module,
// restricted to what TorchScript source uses:
//
//   expressions  Name, Constant (int, float, imaginary, str, bool, None,
//                ...), Attribute, Call, Subscript, Slice, Tuple, List, Dict,
//                BinOp, UnaryOp, BoolOp, Compare, IfExp
//   statements   Assign, AugAssign, AnnAssign, ExprStmt, If, While, For,
//                With, Return, Pass, Break, Continue, Raise, Assert, Del,
//                FunctionDef, ClassDef
//
// As in Python's `ast`, parentheses leave no node, `elif` is an If inside the
// `orelse` of another, and `a, b = x` assigns to a Tuple. One difference: a
// minus sign directly before a non-negative number literal is folded into
// the constant (`-1` is Constant(-1), as PyTorch's own parser does), so that
// `-9223372036854775808` is an int64 constant.
//
// Nodes are owned by their parent through std::unique_ptr and use LLVM-style
// RTTI (isa<>, cast<>, dyn_cast<> on the Kind). Every node has a location:
// a pointer into the parsed buffer at the first character of its source
// (of `def` or `class` for a decorated definition, as in Python 3.8), so
// the tree must not outlive the buffer if the locations are used.
//
// Two printers: printSource writes a tree back as Python source that parses
// to the same tree, and dumpAST writes an s-expression form for tests.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_TARGET_PTARCHIVE_SOURCE_AST_H
#define TSMLIR_LIB_TARGET_PTARCHIVE_SOURCE_AST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::tsmlir::ptsource::ast {

class Expr;
class Stmt;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;
using ExprList = std::vector<ExprPtr>;
using StmtList = std::vector<StmtPtr>;

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// The base of all expressions.
class Expr {
public:
  enum class Kind {
    Name,
    Constant,
    Attribute,
    Call,
    Subscript,
    Slice,
    Tuple,
    List,
    Dict,
    BinOp,
    UnaryOp,
    BoolOp,
    Compare,
    IfExp,
  };

  virtual ~Expr();
  Expr(const Expr &) = delete;
  Expr &operator=(const Expr &) = delete;

  Kind getKind() const { return kind; }
  /// The first character of the expression in the source.
  const char *getLoc() const { return loc; }
  /// The height of the tree under this node, 1 for a leaf; computed when the
  /// node is built. The parser refuses trees higher than its nesting limit,
  /// so recursive walks over parsed trees are bounded.
  unsigned getHeight() const { return height; }

protected:
  Expr(Kind kind, const char *loc, unsigned height)
      : kind(kind), height(height), loc(loc) {}

private:
  Kind kind;
  unsigned height;
  const char *loc;
};

/// An identifier: a variable, a parameter, a type or module name.
class Name : public Expr {
public:
  Name(const char *loc, std::string id)
      : Expr(Kind::Name, loc, 1), id(std::move(id)) {}
  llvm::StringRef getId() const { return id; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Name; }

private:
  std::string id;
};

/// A literal: None, True/False, an int64 integer, a double, an imaginary
/// number (`2.j`, its imaginary part as a double), a string (decoded; bytes
/// of UTF-8) or `...`.
class Constant : public Expr {
public:
  enum class ConstKind { None, Bool, Int, Float, Imaginary, String, Ellipsis };

  static std::unique_ptr<Constant> getNone(const char *loc);
  static std::unique_ptr<Constant> getEllipsis(const char *loc);
  static std::unique_ptr<Constant> getBool(const char *loc, bool value);
  static std::unique_ptr<Constant> getInt(const char *loc, int64_t value);
  static std::unique_ptr<Constant> getFloat(const char *loc, double value);
  static std::unique_ptr<Constant> getImaginary(const char *loc, double value);
  static std::unique_ptr<Constant> getString(const char *loc,
                                             std::string value);

  ConstKind getConstKind() const { return constKind; }
  bool isNumber() const {
    return constKind == ConstKind::Int || constKind == ConstKind::Float ||
           constKind == ConstKind::Imaginary;
  }
  /// Whether this is a number with its sign bit set (-1, -0., -2.j).
  bool isNegativeNumber() const;

  bool getBoolValue() const { return intValue != 0; }
  int64_t getIntValue() const { return intValue; }
  /// The value of a Float, or the imaginary part of an Imaginary.
  double getFloatValue() const { return floatValue; }
  llvm::StringRef getStringValue() const { return stringValue; }

  static bool classof(const Expr *e) { return e->getKind() == Kind::Constant; }

private:
  Constant(const char *loc, ConstKind constKind)
      : Expr(Kind::Constant, loc, 1), constKind(constKind) {}

  ConstKind constKind;
  int64_t intValue = 0;
  double floatValue = 0;
  std::string stringValue;
};

/// `value.attr`.
class Attribute : public Expr {
public:
  Attribute(const char *loc, ExprPtr value, std::string attr,
            const char *attrLoc);
  const Expr &getValue() const { return *value; }
  llvm::StringRef getAttr() const { return attr; }
  /// Where the attribute's name starts.
  const char *getAttrLoc() const { return attrLoc; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Attribute; }

private:
  ExprPtr value;
  std::string attr;
  const char *attrLoc;
};

/// A keyword argument `name=value` of a call.
struct Keyword {
  std::string name;
  const char *loc;
  ExprPtr value;
};

/// `func(args..., name=value...)`: keyword arguments follow the positional
/// ones (the parser refuses a positional argument after a keyword one, and
/// a repeated keyword).
class Call : public Expr {
public:
  Call(const char *loc, ExprPtr func, ExprList args,
       std::vector<Keyword> keywords);
  const Expr &getFunc() const { return *func; }
  llvm::ArrayRef<ExprPtr> getArgs() const { return args; }
  llvm::ArrayRef<Keyword> getKeywords() const { return keywords; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Call; }

private:
  ExprPtr func;
  ExprList args;
  std::vector<Keyword> keywords;
};

/// `value[index]`. The index of `x[a, b:c]` is a Tuple holding a Slice.
class Subscript : public Expr {
public:
  Subscript(const char *loc, ExprPtr value, ExprPtr index);
  const Expr &getValue() const { return *value; }
  const Expr &getIndex() const { return *index; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Subscript; }

private:
  ExprPtr value, index;
};

/// `lower:upper:step` in a subscript; each part may be absent (null).
class Slice : public Expr {
public:
  Slice(const char *loc, ExprPtr lower, ExprPtr upper, ExprPtr step);
  const Expr *getLower() const { return lower.get(); }
  const Expr *getUpper() const { return upper.get(); }
  const Expr *getStep() const { return step.get(); }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Slice; }

private:
  ExprPtr lower, upper, step;
};

/// `(a, b)`, `(a,)`, `()`, and the bare `a, b` of assignments and returns.
class Tuple : public Expr {
public:
  Tuple(const char *loc, ExprList elements);
  llvm::ArrayRef<ExprPtr> getElements() const { return elements; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Tuple; }

private:
  ExprList elements;
};

/// `[a, b]`.
class List : public Expr {
public:
  List(const char *loc, ExprList elements);
  llvm::ArrayRef<ExprPtr> getElements() const { return elements; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::List; }

private:
  ExprList elements;
};

/// `{k: v, ...}`: as many keys as values.
class Dict : public Expr {
public:
  Dict(const char *loc, ExprList keys, ExprList values);
  llvm::ArrayRef<ExprPtr> getKeys() const { return keys; }
  llvm::ArrayRef<ExprPtr> getValues() const { return values; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Dict; }

private:
  ExprList keys, values;
};

enum class BinOpKind {
  Add,      // +
  Sub,      // -
  Mult,     // *
  MatMult,  // @
  Div,      // /
  FloorDiv, // //
  Mod,      // %
  Pow,      // **
  LShift,   // <<
  RShift,   // >>
  BitOr,    // |
  BitXor,   // ^
  BitAnd,   // &
};
/// The operator as written: "+", "//", ...
llvm::StringRef getSpelling(BinOpKind op);

/// `lhs op rhs` for an arithmetic or bitwise operator.
class BinOp : public Expr {
public:
  BinOp(const char *loc, BinOpKind op, ExprPtr lhs, ExprPtr rhs);
  BinOpKind getOp() const { return op; }
  const Expr &getLHS() const { return *lhs; }
  const Expr &getRHS() const { return *rhs; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::BinOp; }

private:
  BinOpKind op;
  ExprPtr lhs, rhs;
};

enum class UnaryOpKind {
  Not,    // not
  Invert, // ~
  UAdd,   // +
  USub,   // -
};
llvm::StringRef getSpelling(UnaryOpKind op);

/// `not x`, `~x`, `+x`, `-x`.
class UnaryOp : public Expr {
public:
  UnaryOp(const char *loc, UnaryOpKind op, ExprPtr operand);
  UnaryOpKind getOp() const { return op; }
  const Expr &getOperand() const { return *operand; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::UnaryOp; }

private:
  UnaryOpKind op;
  ExprPtr operand;
};

enum class BoolOpKind { And, Or };
llvm::StringRef getSpelling(BoolOpKind op);

/// `a and b and c` (one node for the chain, at least two values).
class BoolOp : public Expr {
public:
  BoolOp(const char *loc, BoolOpKind op, ExprList values);
  BoolOpKind getOp() const { return op; }
  llvm::ArrayRef<ExprPtr> getValues() const { return values; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::BoolOp; }

private:
  BoolOpKind op;
  ExprList values;
};

enum class CmpOpKind { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };
/// "==", "is not", "not in", ...
llvm::StringRef getSpelling(CmpOpKind op);

/// `left op0 comparators[0] op1 comparators[1] ...`: a chain of comparisons
/// (as many operators as comparators, at least one).
class Compare : public Expr {
public:
  Compare(const char *loc, ExprPtr left, std::vector<CmpOpKind> ops,
          ExprList comparators);
  const Expr &getLeft() const { return *left; }
  llvm::ArrayRef<CmpOpKind> getOps() const { return ops; }
  llvm::ArrayRef<ExprPtr> getComparators() const { return comparators; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Compare; }

private:
  ExprPtr left;
  std::vector<CmpOpKind> ops;
  ExprList comparators;
};

/// `body if test else orelse`.
class IfExp : public Expr {
public:
  IfExp(const char *loc, ExprPtr test, ExprPtr body, ExprPtr orelse);
  const Expr &getTest() const { return *test; }
  const Expr &getBody() const { return *body; }
  const Expr &getOrElse() const { return *orelse; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::IfExp; }

private:
  ExprPtr test, body, orelse;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// The base of all statements.
class Stmt {
public:
  enum class Kind {
    Assign,
    AugAssign,
    AnnAssign,
    Expr,
    If,
    While,
    For,
    With,
    Return,
    Pass,
    Break,
    Continue,
    Raise,
    Assert,
    Del,
    FunctionDef,
    ClassDef,
  };

  virtual ~Stmt();
  Stmt(const Stmt &) = delete;
  Stmt &operator=(const Stmt &) = delete;

  Kind getKind() const { return kind; }
  /// The first character of the statement (`def` or `class` for a
  /// decorated definition, `elif` for an If that came from one).
  const char *getLoc() const { return loc; }

protected:
  Stmt(Kind kind, const char *loc) : kind(kind), loc(loc) {}

private:
  Kind kind;
  const char *loc;
};

/// `t0 = t1 = ... = value`: one or more targets, each a Name, Attribute,
/// Subscript, or a Tuple or List of targets (`a, b, = f(x)`).
class Assign : public Stmt {
public:
  Assign(const char *loc, ExprList targets, ExprPtr value);
  llvm::ArrayRef<ExprPtr> getTargets() const { return targets; }
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assign; }

private:
  ExprList targets;
  ExprPtr value;
};

/// `target op= value`; the target is a Name, Attribute or Subscript.
class AugAssign : public Stmt {
public:
  AugAssign(const char *loc, ExprPtr target, BinOpKind op, ExprPtr value);
  const Expr &getTarget() const { return *target; }
  BinOpKind getOp() const { return op; }
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::AugAssign; }

private:
  ExprPtr target;
  BinOpKind op;
  ExprPtr value;
};

/// `target : annotation [= value]`: class attributes (`training : bool`,
/// `eps : Final[float] = 1e-05`) and typed locals (`mod : T = mods[key]`).
/// The target is a Name, Attribute or Subscript.
class AnnAssign : public Stmt {
public:
  AnnAssign(const char *loc, ExprPtr target, ExprPtr annotation, ExprPtr value);
  const Expr &getTarget() const { return *target; }
  const Expr &getAnnotation() const { return *annotation; }
  /// Null without `= value`.
  const Expr *getValue() const { return value.get(); }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::AnnAssign; }

private:
  ExprPtr target, annotation, value;
};

/// An expression evaluated for its effect: `ops.prim.RaiseException(...)`.
class ExprStmt : public Stmt {
public:
  ExprStmt(const char *loc, ExprPtr value);
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Expr; }

private:
  ExprPtr value;
};

/// `if test: body else: orelse`; `elif` is a nested If in orelse. The body
/// is never empty in a parsed tree; orelse is empty without `else`.
class If : public Stmt {
public:
  If(const char *loc, ExprPtr test, StmtList body, StmtList orelse);
  const Expr &getTest() const { return *test; }
  llvm::ArrayRef<StmtPtr> getBody() const { return body; }
  llvm::ArrayRef<StmtPtr> getOrElse() const { return orelse; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::If; }

private:
  ExprPtr test;
  StmtList body, orelse;
};

/// `while test: body`.
class While : public Stmt {
public:
  While(const char *loc, ExprPtr test, StmtList body);
  const Expr &getTest() const { return *test; }
  llvm::ArrayRef<StmtPtr> getBody() const { return body; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::While; }

private:
  ExprPtr test;
  StmtList body;
};

/// `for target in iter: body`; the target is as an assignment's.
class For : public Stmt {
public:
  For(const char *loc, ExprPtr target, ExprPtr iter, StmtList body);
  const Expr &getTarget() const { return *target; }
  const Expr &getIter() const { return *iter; }
  llvm::ArrayRef<StmtPtr> getBody() const { return body; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::For; }

private:
  ExprPtr target, iter;
  StmtList body;
};

/// One `context [as target]` of a with statement.
struct WithItem {
  ExprPtr context;
  /// Null without `as`.
  ExprPtr target;
};

/// `with item, ...: body` (PyTorch prints `with _0:` for `torch.no_grad()`).
class With : public Stmt {
public:
  With(const char *loc, std::vector<WithItem> items, StmtList body);
  llvm::ArrayRef<WithItem> getItems() const { return items; }
  llvm::ArrayRef<StmtPtr> getBody() const { return body; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::With; }

private:
  std::vector<WithItem> items;
  StmtList body;
};

/// `return [value]`.
class Return : public Stmt {
public:
  Return(const char *loc, ExprPtr value);
  /// Null for a bare `return`.
  const Expr *getValue() const { return value.get(); }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Return; }

private:
  ExprPtr value;
};

/// `pass`.
class Pass : public Stmt {
public:
  explicit Pass(const char *loc) : Stmt(Kind::Pass, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Pass; }
};

/// `break`.
class Break : public Stmt {
public:
  explicit Break(const char *loc) : Stmt(Kind::Break, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Break; }
};

/// `continue`.
class Continue : public Stmt {
public:
  explicit Continue(const char *loc) : Stmt(Kind::Continue, loc) {}
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Continue; }
};

/// `raise [exc]`.
class Raise : public Stmt {
public:
  Raise(const char *loc, ExprPtr exc);
  /// Null for a bare `raise`.
  const Expr *getExc() const { return exc.get(); }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Raise; }

private:
  ExprPtr exc;
};

/// `assert test [, msg]`.
class Assert : public Stmt {
public:
  Assert(const char *loc, ExprPtr test, ExprPtr msg);
  const Expr &getTest() const { return *test; }
  /// Null without a message.
  const Expr *getMsg() const { return msg.get(); }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Assert; }

private:
  ExprPtr test, msg;
};

/// `del t0, t1, ...`.
class Del : public Stmt {
public:
  Del(const char *loc, ExprList targets);
  llvm::ArrayRef<ExprPtr> getTargets() const { return targets; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Del; }

private:
  ExprList targets;
};

/// A parameter `name[: annotation][=default]` of a function.
struct Param {
  std::string name;
  const char *loc;
  /// Null when absent (`self` in interfaces, closures of `fork`).
  ExprPtr annotation;
  /// Null when absent.
  ExprPtr defaultValue;
};

/// `def name(params) [-> returns]: body`, at module level, in a class, or
/// nested in a function (`def __forked_function():` before `fork(...)`).
class FunctionDef : public Stmt {
public:
  FunctionDef(const char *loc, std::string name, ExprList decorators,
              std::vector<Param> params, ExprPtr returns, StmtList body);
  llvm::StringRef getName() const { return name; }
  /// `@decorator` expressions, outermost first.
  llvm::ArrayRef<ExprPtr> getDecorators() const { return decorators; }
  llvm::ArrayRef<Param> getParams() const { return params; }
  /// The return annotation; null when absent.
  const Expr *getReturns() const { return returns.get(); }
  llvm::ArrayRef<StmtPtr> getBody() const { return body; }
  static bool classof(const Stmt *s) {
    return s->getKind() == Kind::FunctionDef;
  }

private:
  std::string name;
  ExprList decorators;
  std::vector<Param> params;
  ExprPtr returns;
  StmtList body;
};

/// `class name[(bases)]: body`: modules (`(Module)`), script classes (no
/// base), `(NamedTuple)`, `(Enum)`, `(Interface)`, `(ModuleInterface)`.
class ClassDef : public Stmt {
public:
  ClassDef(const char *loc, std::string name, ExprList decorators,
           ExprList bases, StmtList body);
  llvm::StringRef getName() const { return name; }
  llvm::ArrayRef<ExprPtr> getDecorators() const { return decorators; }
  llvm::ArrayRef<ExprPtr> getBases() const { return bases; }
  llvm::ArrayRef<StmtPtr> getBody() const { return body; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::ClassDef; }

private:
  std::string name;
  ExprList decorators;
  ExprList bases;
  StmtList body;
};

/// A whole source file: its top-level statements.
class Module {
public:
  explicit Module(StmtList body) : body(std::move(body)) {}
  llvm::ArrayRef<StmtPtr> getBody() const { return body; }

private:
  StmtList body;
};

//===----------------------------------------------------------------------===//
// Printers
//===----------------------------------------------------------------------===//

/// Writes `module` as Python source: two-space indentation, one statement a
/// line, only the parentheses that precedence needs (none around the tuples
/// of `x = a, b`, `return a, b`, `for a, b in xs`), strings in double
/// quotes, floats with 17 significant digits. The source of a parsed tree
/// parses to the same tree (dumpAST writes the same text for both); a tree
/// built by hand may not, where it holds what the parser never builds (an
/// empty body prints as `pass`, `-` applied to a non-negative number literal
/// prints as a negative literal).
void printSource(const Module &module, llvm::raw_ostream &os);
void printSource(const Stmt &stmt, llvm::raw_ostream &os, unsigned indent = 0);
void printSource(const Expr &expr, llvm::raw_ostream &os);

/// Writes `value` as a double-quoted Python string literal.
void printStringLiteral(llvm::StringRef value, llvm::raw_ostream &os);

/// Writes an s-expression form of `module` for tests, without locations: one
/// statement a line (`assign x (call (attr torch add) x 1)`, `if (compare a
/// < b)`, `def forward`, `param x : Tensor = 2.`, ...), nested blocks
/// indented by two spaces, expressions as `(kind operands...)` with names,
/// numbers and strings as in the source and `<>` for an absent slice bound.
void dumpAST(const Module &module, llvm::raw_ostream &os);
void dumpAST(const Expr &expr, llvm::raw_ostream &os);

} // namespace mlir::tsmlir::ptsource::ast

#endif // TSMLIR_LIB_TARGET_PTARCHIVE_SOURCE_AST_H
