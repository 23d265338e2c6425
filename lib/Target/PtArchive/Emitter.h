//===- Emitter.h - TorchScript source to the ts dialect ---------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The IR emitter of the `.pt` front end: it turns the syntax tree of an
// archived method into `ts` ops as PyTorch's IR emitter does (SSA values,
// prim::If and prim::Loop with the values they carry, operator calls bound
// to schemas), and at the same time does what inlining and freezing do:
//
//  - `self` and every submodule are objects known while emitting (from
//    data.pkl), so `self.conv.forward(x)` inlines Conv2d.forward with its
//    `self` bound to that submodule, and `self.weight` is the parameter's
//    data as a constant;
//  - calls of TorchScript functions (`__torch__.torch.nn.functional.relu`)
//    are inlined;
//  - a condition known while emitting (`if self.training:`, `if
//    torch.__isnot__(bias, None):` with a None bias) emits only the branch
//    taken, as freezing's constant propagation would.
//
// Values that exist only while emitting (modules, namespaces such as
// `torch`, functions, methods) are "sugared values", as in PyTorch.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_TARGET_PTARCHIVE_EMITTER_H
#define TSMLIR_LIB_TARGET_PTARCHIVE_EMITTER_H

#include "Archive.h"
#include "Source/AST.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <memory>
#include <set>
#include <string>

namespace mlir::tsmlir::pt {

namespace ast = ptsource::ast;

/// A class defined in the archive's code.
struct ClassInfo {
  std::string qualifiedName; // __torch__.torch.nn.modules.conv.Conv2d
  std::string modulePath;    // __torch__.torch.nn.modules.conv
  const ast::ClassDef *def = nullptr;
  bool isModule = false;
  bool isNamedTuple = false;
  llvm::StringMap<const ast::FunctionDef *> methods;
  /// `name : T [= value]` declarations, in order (NamedTuple fields).
  llvm::MapVector<llvm::StringRef, const ast::AnnAssign *> attributes;
};

/// A value while emitting: an SSA value, or something that exists only at
/// compile time.
struct SValue {
  enum class Kind {
    Value,      // an SSA value
    Multi,      // the results of an op with several (or no) results
    Object,     // a module or object from data.pkl
    Namespace,  // torch, ops.aten, __torch__.foo, math
    Function,   // a TorchScript function from the code
    Method,     // a method of an object
    ValueMethod,// a method of an SSA value: x.size, xs.append
    Builtin,    // annotate, isinstance, len, range, ...
    Constants,  // CONSTANTS
    Class,      // a class from the code (NamedTuple constructors)
  };
  Kind kind = Kind::Value;
  Value value;
  llvm::SmallVector<Value> values;
  const pickle::Value *object = nullptr;
  /// Namespace: the dotted path; Builtin and ValueMethod: the name; Object:
  /// the attribute path from the root ("" for the root, "conv", "layer1.0").
  std::string name;
  const ast::FunctionDef *function = nullptr;
  const ClassInfo *cls = nullptr;
  std::string modulePath; // Function: where it is defined

  static SValue get(Value value) {
    SValue v;
    v.value = value;
    return v;
  }
  static SValue get(Kind kind, llvm::StringRef name) {
    SValue v;
    v.kind = kind;
    v.name = name.str();
    return v;
  }
};

using Env = llvm::StringMap<SValue>;

/// The type values of types `a` and `b` both fit (the branches of an `if`,
/// the elements of a list): T and None give Optional[T]; two tensor
/// refinements the plain tensor; lists, tuples and optionals elementwise.
/// Null when there is none (an int and a str).
Type unifyTypes(Type a, Type b);

class Emitter {
public:
  Emitter(PtArchive &archive);

  /// Emits method `entry` of the archive's root object as a function.
  OwningOpRef<ModuleOp> emitModule(llvm::StringRef entry,
                                   llvm::StringRef functionName);

  /// The module's tensor attributes (paths from `self`) that the method
  /// writes in place: emitted as the module's state (ts.module_state), read
  /// where the method reads them, and never folded while emitting.
  std::set<std::string> mutableAttributes;
  /// After emitModule: the tensor attributes emitted as constants that the
  /// method writes in place (to emit again as mutableAttributes).
  const std::set<std::string> &getWrittenConstants() const {
    return writtenConstants;
  }

private:
  //===--------------------------------------------------------------------===//
  // The archive's code (Emitter.cpp)
  //===--------------------------------------------------------------------===//
  /// The parsed code file of a Python module path; null when absent.
  FailureOr<const ast::Module *> getCodeModule(llvm::StringRef modulePath,
                                               Location loc);
  /// The class `qualifiedName` (`__torch__.a.B`).
  FailureOr<const ClassInfo *> getClass(llvm::StringRef qualifiedName,
                                        Location loc);
  /// A top-level function or class of the code, by qualified name.
  FailureOr<SValue> resolveQualified(llvm::StringRef qualifiedName,
                                     Location loc);
  /// The ts type an annotation names.
  FailureOr<Type> convertType(const ast::Expr &expr);

  //===--------------------------------------------------------------------===//
  // Locations and diagnostics
  //===--------------------------------------------------------------------===//
  Location getLoc(const char *ptr);
  InFlightDiagnostic emitError(const char *ptr, const llvm::Twine &message);

  //===--------------------------------------------------------------------===//
  // Objects (EmitObjects.cpp)
  //===--------------------------------------------------------------------===//
  FailureOr<SValue> getObjectAttr(const SValue &object, llvm::StringRef name,
                                  const char *loc);
  /// The constant value of a pickled attribute (a tensor, a number, a list
  /// of them, ...), typed by `declared` where the class declares it.
  FailureOr<SValue> materialize(const pickle::Value &value, Type declared,
                                llvm::StringRef path, bool isConstant,
                                const char *loc);
  FailureOr<SValue> getConstantTensor(int64_t index, const char *loc);

  //===--------------------------------------------------------------------===//
  // Statements (EmitStmt.cpp)
  //===--------------------------------------------------------------------===//
  LogicalResult emitBlock(llvm::ArrayRef<ast::StmtPtr> stmts);
  LogicalResult emitStmt(const ast::Stmt &stmt);
  LogicalResult emitAssign(const ast::Expr &target, SValue value,
                           const char *loc);
  LogicalResult emitIf(const ast::If &stmt);
  LogicalResult emitLoop(const ast::Stmt &stmt);
  LogicalResult emitRaise(Value message, Value cls, const char *loc);

  //===--------------------------------------------------------------------===//
  // Expressions (EmitExpr.cpp)
  //===--------------------------------------------------------------------===//
  FailureOr<SValue> emitExpr(const ast::Expr &expr);
  FailureOr<Value> emitValue(const ast::Expr &expr);
  FailureOr<Value> asValue(const SValue &value, const char *loc);
  FailureOr<SValue> emitName(const ast::Name &name);
  FailureOr<SValue> emitAttribute(const ast::Attribute &expr);
  FailureOr<SValue> emitCall(const ast::Call &call);
  /// A `with` block's prim::Enter or prim::Exit (`kind`) of `object`.
  void emitContextNode(llvm::StringRef kind, Value object, const char *loc);
  FailureOr<SValue> emitBuiltinCall(const SValue &callee,
                                    const ast::Call &call);
  FailureOr<SValue> emitSubscript(const ast::Subscript &expr);
  /// The start, end and step of `a:b:c` (None, None and 1 where absent).
  LogicalResult emitSliceBounds(const ast::Slice &slice, const char *loc,
                                llvm::SmallVectorImpl<Value> &bounds);
  FailureOr<SValue> emitTensorIndex(Value tensor, const ast::Expr &index,
                                    const char *loc);
  FailureOr<SValue> emitBoolOp(const ast::BoolOp &expr);
  FailureOr<SValue> emitCompare(const ast::Compare &expr);
  FailureOr<SValue> emitIfExp(const ast::IfExp &expr);
  FailureOr<SValue> emitList(llvm::ArrayRef<ast::ExprPtr> elements,
                             Type elementType, const char *loc);
  /// A call of the operator `name` (`aten::add`) on these values.
  FailureOr<SValue> callOperator(llvm::StringRef name,
                                 llvm::ArrayRef<Value> args,
                                 llvm::ArrayRef<std::pair<std::string, Value>>
                                     keywords,
                                 const char *loc);
  /// Inlines a call of a TorchScript function or method.
  FailureOr<SValue> inlineCall(const ast::FunctionDef &function,
                               llvm::StringRef modulePath,
                               const SValue *self,
                               llvm::ArrayRef<SValue> args,
                               llvm::ArrayRef<std::pair<std::string, SValue>>
                                   keywords,
                               const char *loc);
  Value constantInt(int64_t value, const char *loc);
  Value constantBool(bool value, const char *loc);
  Value constantNone(const char *loc);
  Value constantStr(llvm::StringRef value, const char *loc);
  /// The constant a value folds to, if any.
  static Attribute getConstantValue(Value value);

  PtArchive &archive;
  MLIRContext *context;
  OpBuilder builder;
  /// Parsed code files by module path (null: no such file).
  std::map<std::string, std::unique_ptr<ast::Module>> codeModules;
  std::map<std::string, std::unique_ptr<ClassInfo>> classes;

  /// The function being emitted.
  struct Frame {
    Env env;
    std::string modulePath;
    /// The value of the `return` statement, once emitted.
    std::optional<SValue> returned;
    /// The location of the call, for CallSiteLoc (null at the entry).
    std::optional<Location> callLoc;
  };
  Frame *frame = nullptr;
  unsigned inlineDepth = 0;
  /// Whether the block being emitted has ended in a raise.
  bool blockRaised = false;
  /// The values each read of a module's tensor attribute gave (a constant,
  /// or a read of its state), by path.
  std::map<std::string, llvm::SmallVector<Value>> tensorAttributeReads;
  /// The states of mutableAttributes, by path, once read.
  std::map<std::string, ts::ModuleStateOp> states;
  /// The function being emitted (the states go before it).
  func::FuncOp entryFunc;
  std::set<std::string> writtenConstants;
  /// A read of the state of the mutable attribute `path`, whose value when
  /// saved is `value`.
  FailureOr<SValue> readModuleState(const pickle::Value &value,
                                    llvm::StringRef path, const char *loc);
  /// Binds each state's reads in `func` (one read at the entry, a write
  /// before each return); records the written constants.
  LogicalResult bindModuleStates(func::FuncOp func);
};

} // namespace mlir::tsmlir::pt

#endif // TSMLIR_LIB_TARGET_PTARCHIVE_EMITTER_H
