//===- Importer.h - TorchScript IR text parser ------------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The parser that builds `ts` and `fusion` ops straight from the text. The
// grammar, as PyTorch's `Graph::print` writes it:
//
//   graph    ::= `graph` `(` (param (`,` param)*)? `)` `:` node*
//                `return` `(` value-list `)` subgraph*
//   param    ::= `%`name `:` type
//   node     ::= (param (`,` param)*)? `=` kind attrs? `(` value-list `)`
//                comment? block*
//   block    ::= `block`N `(` params `)` `:` node* `->` `(` value-list `)`
//   subgraph ::= `with` kind`_`N `=` graph   (one per group node, in order)
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_TARGET_TORCHSCRIPT_IMPORTER_H
#define TSMLIR_LIB_TARGET_TORCHSCRIPT_IMPORTER_H

#include "Lexer.h"

#include "tsmlir/Support/Safetensors.h"
#include "tsmlir/Target/TorchScript/Import.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tsmlir::torchscript {

/// An attribute value as printed, before its kind is known from context: the
/// same `1` is an int, a bool or a float depending on the constant's type.
struct ParsedValue {
  enum Kind {
    Int,
    Float,
    Bool,
    Str,
    List,
    Tuple,
    Dict,
    TypeValue,
    ElidedTensor, // <Tensor>
    ScalarTensor, // {1.5}
    InlineTensor, // 0.1 0.2 [ CPUFloatType{2} ]
    ElidedGraph,  // <Graph>
    ElidedTensorList, // <Tensors>, inside [...]: a list of tensors
  };
  Kind kind = Int;
  const char *loc = nullptr;
  int64_t intValue = 0;
  double floatValue = 0;
  bool isFloatLiteral = false; // for ScalarTensor
  std::string str;             // Str; InlineTensor's dtype name
  std::vector<ParsedValue> elements;
  std::vector<std::string> keys; // Dict
  Type type;                     // TypeValue
  std::vector<double> numbers;   // InlineTensor
  llvm::SmallVector<int64_t> dims;
};

struct ParsedAttr {
  std::string name;
  ParsedValue value;
};

/// A value definition: `%name : type`.
struct ParsedDef {
  llvm::StringRef name;
  const char *loc;
  Type type;
};

class Importer {
public:
  Importer(llvm::SourceMgr &sourceMgr, MLIRContext *context,
           const TorchScriptImportOptions &options);
  OwningOpRef<ModuleOp> run();

private:
  //===--------------------------------------------------------------------===//
  // Tokens and diagnostics
  //===--------------------------------------------------------------------===//
  /// Moves to the next token. A `# comment` is a token only right after a
  /// node's inputs (its source range); anywhere else it is skipped.
  void consume() {
    tok = lexer.lex();
    while (tok.is(Token::comment))
      tok = lexer.lex();
  }
  void consumeKeepingComment() { tok = lexer.lex(); }
  Location getTextLoc(const char *ptr);
  InFlightDiagnostic emitError(const char *ptr, const llvm::Twine &message);
  InFlightDiagnostic emitError(const llvm::Twine &message) {
    return emitError(tok.getLoc(), message);
  }
  LogicalResult expect(Token::Kind kind, llvm::StringRef what);
  LogicalResult expectIdentifier(llvm::StringRef name);
  /// Counts nested types, values, blocks and subgraphs, so that deeply
  /// nested input is an error rather than a stack overflow.
  struct NestingGuard {
    NestingGuard(Importer &importer) : importer(importer) { ++importer.depth; }
    ~NestingGuard() { --importer.depth; }
    /// False, after an error, when the nesting is too deep.
    bool ok() {
      if (importer.depth <= kMaxNesting)
        return true;
      importer.emitError("nesting deeper than " + llvm::Twine(kMaxNesting) +
                         " levels");
      return false;
    }
    Importer &importer;
  };
  static constexpr unsigned kMaxNesting = 200;

  bool consumeIf(Token::Kind kind) {
    if (!tok.is(kind))
      return false;
    consume();
    return true;
  }

  //===--------------------------------------------------------------------===//
  // Types and attribute values (ImportValues.cpp)
  //===--------------------------------------------------------------------===//
  Type parseType();
  Type parseTensorRefinement(Type dtype, bool rankKnown);
  LogicalResult parseQualifiedName(std::string &name);
  LogicalResult skipPythonType();
  LogicalResult parseAttributes(std::vector<ParsedAttr> &attrs);
  LogicalResult parseValue(ParsedValue &value);
  LogicalResult parseNumber(ParsedValue &value);
  LogicalResult parseInlineTensor(ParsedValue &value);

  /// The attribute for `value` on a node that is not a constant.
  Attribute convertAttr(const ParsedValue &value);
  /// The value of a `prim::Constant` of type `type` named `name`.
  FailureOr<Attribute> convertConstant(const ParsedValue &value, Type type,
                                       llvm::StringRef name);
  FailureOr<Attribute> convertTensor(const ParsedValue &value, Type type,
                                     llvm::StringRef name);
  /// A dense resource for the parameter at `path`, if the params file has it,
  /// checked against the declared `type`.
  FailureOr<Attribute> lookupParameter(llvm::StringRef path, Location loc,
                                       Type type);
  /// The dense resource holding `tensor`'s data (one per tensor).
  FailureOr<Attribute> getParameterData(const SafetensorsTensor &tensor,
                                        Location loc);

  //===--------------------------------------------------------------------===//
  // Graphs and nodes (Importer.cpp)
  //===--------------------------------------------------------------------===//
  struct PendingGroup {
    Operation *op;
    std::string kind; // e.g. "prim::TensorExprGroup"
    unsigned index;
    const char *loc;
  };
  struct GraphState {
    std::vector<llvm::StringMap<Value>> scopes;
    std::vector<PendingGroup> groups;
  };
  enum class Terminator { Return, FusionYield, PrimYield };

  LogicalResult parseGraph(Block *block, Terminator terminator,
                           llvm::SmallVectorImpl<Type> *resultTypes);
  /// `%a : T, %b : U, ...`: a node's outputs, or the inside of `(...)`.
  LogicalResult parseDefs(llvm::SmallVectorImpl<ParsedDef> &defs);
  /// `(%a : T, ...)`: graph and block parameters.
  LogicalResult parseParams(llvm::SmallVectorImpl<ParsedDef> &params);
  LogicalResult parseNode(GraphState &graph);
  LogicalResult parseBlock(GraphState &graph, Region &region);
  LogicalResult parseNodesUntil(GraphState &graph, Token::Kind end,
                                llvm::StringRef endKeyword);
  LogicalResult parseUses(GraphState &graph,
                          llvm::SmallVectorImpl<Value> &values,
                          bool keepComment = false);
  LogicalResult parseSubgraphs(GraphState &graph);
  Value lookup(GraphState &graph, llvm::StringRef name);
  LogicalResult define(GraphState &graph, const ParsedDef &def, Value value);
  Location parseSourceComment(llvm::StringRef comment);

  /// Creates the op for a node; null after an error.
  Operation *buildNode(GraphState &graph, const char *nodeLoc,
                       llvm::StringRef kind, llvm::ArrayRef<ParsedDef> outputs,
                       std::vector<ParsedAttr> &attrs,
                       llvm::ArrayRef<Value> inputs,
                       std::vector<std::unique_ptr<Region>> &regions,
                       Location loc);
  Operation *buildConstant(const char *nodeLoc, llvm::ArrayRef<ParsedDef> outputs,
                           std::vector<ParsedAttr> &attrs, Location loc);
  /// Creates `state`'s op and verifies it, reporting a failure at `nodeLoc`.
  Operation *createChecked(OperationState &state, const char *nodeLoc,
                           llvm::StringRef kind);
  LogicalResult bindModuleParameters(Block &body);
  /// Records every tensor of the params file in the module's state dict
  /// attribute, for ts-freeze.
  LogicalResult recordStateDict(ModuleOp module);

  llvm::SourceMgr &sourceMgr;
  MLIRContext *context;
  const TorchScriptImportOptions &options;
  llvm::StringRef bufferName;
  Lexer lexer;
  Token tok;
  OpBuilder builder;
  std::unique_ptr<SafetensorsFile> params;
  llvm::StringMap<Attribute> boundParams;
  unsigned depth = 0;
};

} // namespace mlir::tsmlir::torchscript

#endif // TSMLIR_LIB_TARGET_TORCHSCRIPT_IMPORTER_H
