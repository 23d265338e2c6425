//===- Importer.cpp - TorchScript IR text to the ts dialect ---------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"
#include "tsmlir/Dialect/TorchScript/IR/OpSignatures.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/ValueNames.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::torchscript;
namespace ts = mlir::tsmlir::ts;

Importer::Importer(llvm::SourceMgr &sourceMgr, MLIRContext *context,
                   const TorchScriptImportOptions &options)
    : sourceMgr(sourceMgr), context(context), options(options),
      lexer(sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer()),
      builder(context) {
  bufferName =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBufferIdentifier();
}

//===----------------------------------------------------------------------===//
// Tokens and diagnostics
//===----------------------------------------------------------------------===//

Location Importer::getTextLoc(const char *ptr) {
  auto [line, column] =
      sourceMgr.getLineAndColumn(llvm::SMLoc::getFromPointer(ptr));
  return FileLineColLoc::get(context, bufferName, line, column);
}

InFlightDiagnostic Importer::emitError(const char *ptr,
                                       const llvm::Twine &message) {
  return mlir::emitError(getTextLoc(ptr), message);
}

static llvm::StringRef describe(const Token &tok) {
  switch (tok.kind) {
  case Token::eof:
    return "end of file";
  case Token::error:
    // The lexer's error token is one character, or the opening quote of an
    // unterminated string.
    return tok.spelling == "\"" ? "unterminated string" : "invalid character";
  default:
    return tok.spelling;
  }
}

LogicalResult Importer::expect(Token::Kind kind, llvm::StringRef what) {
  if (tok.is(kind)) {
    consume();
    return success();
  }
  emitError("expected " + what + ", found '" + describe(tok) + "'");
  return failure();
}

LogicalResult Importer::expectIdentifier(llvm::StringRef name) {
  if (tok.isIdentifier(name)) {
    consume();
    return success();
  }
  emitError("expected '" + name + "', found '" + describe(tok) + "'");
  return failure();
}

//===----------------------------------------------------------------------===//
// Values and scopes
//===----------------------------------------------------------------------===//

Value Importer::lookup(GraphState &graph, llvm::StringRef name) {
  for (auto it = graph.scopes.rbegin(); it != graph.scopes.rend(); ++it) {
    auto found = it->find(name);
    if (found != it->end())
      return found->second;
  }
  return {};
}

LogicalResult Importer::define(GraphState &graph, const ParsedDef &def,
                               Value value) {
  if (lookup(graph, def.name)) {
    emitError(def.loc, "value '%" + def.name + "' is defined twice");
    return failure();
  }
  graph.scopes.back()[def.name] = value;
  return success();
}

LogicalResult Importer::parseUses(GraphState &graph,
                                  llvm::SmallVectorImpl<Value> &values,
                                  bool keepComment) {
  if (failed(expect(Token::l_paren, "'('")))
    return failure();
  if (tok.is(Token::r_paren)) {
    if (keepComment)
      consumeKeepingComment();
    else
      consume();
    return success();
  }
  do {
    if (!tok.is(Token::value)) {
      emitError("expected a value, found '" + describe(tok) + "'");
      return failure();
    }
    Value value = lookup(graph, tok.spelling);
    if (!value) {
      emitError("use of undefined value '%" + tok.spelling + "'");
      return failure();
    }
    values.push_back(value);
    consume();
  } while (consumeIf(Token::comma));
  if (!tok.is(Token::r_paren)) {
    emitError("expected ')' after the values, found '" + describe(tok) + "'");
    return failure();
  }
  if (keepComment)
    consumeKeepingComment();
  else
    consume();
  return success();
}

LogicalResult Importer::parseDefs(llvm::SmallVectorImpl<ParsedDef> &defs) {
  do {
    if (!tok.is(Token::value)) {
      emitError("expected a value name, found '" + describe(tok) + "'");
      return failure();
    }
    ParsedDef def{tok.spelling, tok.getLoc(), Type()};
    consume();
    if (failed(expect(Token::colon, "':' after the value name")))
      return failure();
    def.type = parseType();
    if (!def.type)
      return failure();
    defs.push_back(def);
  } while (consumeIf(Token::comma));
  return success();
}

LogicalResult Importer::parseParams(llvm::SmallVectorImpl<ParsedDef> &params) {
  if (failed(expect(Token::l_paren, "'('")))
    return failure();
  if (consumeIf(Token::r_paren))
    return success();
  if (failed(parseDefs(params)))
    return failure();
  return expect(Token::r_paren, "')' after the parameters");
}

/// `# source.py:5:11`, `# <string>:3:19`, `# /usr/lib/.../functional.py:9:4`.
Location Importer::parseSourceComment(llvm::StringRef comment) {
  size_t colon2 = comment.rfind(':');
  if (colon2 == llvm::StringRef::npos)
    return UnknownLoc::get(context);
  size_t colon1 = comment.substr(0, colon2).rfind(':');
  unsigned line, column;
  if (colon1 == llvm::StringRef::npos || colon1 == 0 ||
      comment.slice(colon1 + 1, colon2).getAsInteger(10, line) ||
      comment.substr(colon2 + 1).getAsInteger(10, column))
    return UnknownLoc::get(context);
  return FileLineColLoc::get(context, comment.substr(0, colon1), line, column);
}

//===----------------------------------------------------------------------===//
// Graphs
//===----------------------------------------------------------------------===//

LogicalResult Importer::parseGraph(Block *block, Terminator terminator,
                                   llvm::SmallVectorImpl<Type> *resultTypes) {
  NestingGuard nesting(*this);
  if (!nesting.ok())
    return failure();
  if (failed(expectIdentifier("graph")))
    return failure();
  llvm::SmallVector<ParsedDef> params;
  if (failed(parseParams(params)) ||
      failed(expect(Token::colon, "':' after the graph's parameters")))
    return failure();
  GraphState graph;
  graph.scopes.emplace_back();
  // A subgraph's block may already have its arguments (none yet here).
  for (const ParsedDef &param : params) {
    Value arg = block->addArgument(
        param.type, NameLoc::get(StringAttr::get(context, param.name)));
    if (failed(define(graph, param, arg)))
      return failure();
  }
  builder.setInsertionPointToEnd(block);
  if (failed(parseNodesUntil(graph, Token::identifier, "return")))
    return failure();
  const char *returnLoc = tok.getLoc();
  consume(); // return
  llvm::SmallVector<Value> results;
  if (failed(parseUses(graph, results)))
    return failure();
  builder.setInsertionPointToEnd(block);
  Location loc = getTextLoc(returnLoc);
  switch (terminator) {
  case Terminator::Return:
    func::ReturnOp::create(builder, loc, results);
    break;
  case Terminator::FusionYield:
    fusion::YieldOp::create(builder, loc, results);
    break;
  case Terminator::PrimYield:
    ts::PrimYieldOp::create(builder, loc, results);
    break;
  }
  if (resultTypes)
    for (Value result : results)
      resultTypes->push_back(result.getType());
  return parseSubgraphs(graph);
}

/// Runs an op's own verifier and its region verifier, as mlir::verify does
/// for one op; mlir::verify itself would also check dominance, which needs
/// the enclosing region to be attached, and the node's may not be yet. The
/// first diagnostic goes to `message`, for the caller to report at the text.
static LogicalResult verifyNode(Operation *op, std::string &message) {
  std::optional<RegisteredOperationName> info = op->getRegisteredInfo();
  if (!info)
    return success();
  ScopedDiagnosticHandler handler(op->getContext(), [&](Diagnostic &diag) {
    if (message.empty())
      message = diag.str();
    return success();
  });
  if (failed(info->verifyInvariants(op)))
    return failure();
  if (op->getNumRegions() != 0)
    return info->verifyRegionInvariants(op);
  return success();
}

/// The subgraphs of the group nodes of a graph follow it, in node order, each
/// followed by its own subgraphs.
LogicalResult Importer::parseSubgraphs(GraphState &graph) {
  for (PendingGroup &group : graph.groups) {
    if (!tok.isIdentifier("with")) {
      emitError("expected the subgraph of " + group.kind + "_" +
                llvm::Twine(group.index) + " ('with " + group.kind + "_" +
                llvm::Twine(group.index) + " = graph(...)'), found '" +
                describe(tok) + "'")
              .attachNote(getTextLoc(group.loc))
          << "the node it belongs to";
      return failure();
    }
    consume();
    const char *nameLoc = tok.getLoc();
    std::string kind;
    if (!tok.is(Token::identifier))
      return emitError("expected a subgraph name"), failure();
    kind = tok.spelling.str();
    consume();
    if (failed(expect(Token::coloncolon, "'::'")))
      return failure();
    if (!tok.is(Token::identifier))
      return emitError("expected a subgraph name"), failure();
    kind += "::" + tok.spelling.str();
    consume();
    std::string expected = group.kind + "_" + std::to_string(group.index);
    if (kind != expected)
      return emitError(nameLoc, "expected the subgraph of " + expected +
                                    ", found '" + kind + "'"),
             failure();
    if (failed(expect(Token::equal, "'=' after the subgraph name")))
      return failure();

    Operation *op = group.op;
    Region &region = op->getRegion(0);
    Block *body = new Block();
    region.push_back(body);
    bool isOperator = llvm::isa<ts::OperatorOp>(op);
    OpBuilder::InsertionGuard guard(builder);
    llvm::SmallVector<Type> yielded;
    if (failed(parseGraph(body,
                          isOperator ? Terminator::PrimYield
                                     : Terminator::FusionYield,
                          &yielded)))
      return failure();
    // A differentiable graph's forward returns its outputs, then the values
    // its backward needs.
    if (auto diff = llvm::dyn_cast<fusion::DifferentiableGraphOp>(op)) {
      if (yielded.size() < op->getNumResults())
        return emitError(nameLoc, "subgraph returns " +
                                      llvm::Twine(yielded.size()) +
                                      " values for a node with " +
                                      llvm::Twine(op->getNumResults()) +
                                      " outputs"),
               failure();
      diff.setNumSaved(yielded.size() - op->getNumResults());
    }
    // Check the group against its subgraph now that both exist.
    std::string message;
    if (failed(verifyNode(op, message)))
      return emitError(nameLoc, "subgraph does not fit its node: " + message),
             failure();
  }
  return success();
}

LogicalResult Importer::parseNodesUntil(GraphState &graph, Token::Kind end,
                                        llvm::StringRef endKeyword) {
  while (true) {
    if (tok.is(end) && (endKeyword.empty() || tok.spelling == endKeyword))
      return success();
    if (tok.is(Token::eof)) {
      emitError(endKeyword.empty()
                    ? llvm::Twine("unexpected end of file: a block is not "
                                  "closed with '-> (...)'")
                    : "unexpected end of file: expected '" + endKeyword +
                          "'");
      return failure();
    }
    if (failed(parseNode(graph)))
      return failure();
  }
}

LogicalResult Importer::parseBlock(GraphState &graph, Region &region) {
  NestingGuard nesting(*this);
  if (!nesting.ok())
    return failure();
  consume(); // blockN
  llvm::SmallVector<ParsedDef> params;
  if (failed(parseParams(params)) ||
      failed(expect(Token::colon, "':' after the block's parameters")))
    return failure();
  Block *block = new Block();
  region.push_back(block);
  graph.scopes.emplace_back();
  for (const ParsedDef &param : params) {
    Value arg = block->addArgument(
        param.type, NameLoc::get(StringAttr::get(context, param.name)));
    if (failed(define(graph, param, arg)))
      return failure();
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);
  if (failed(parseNodesUntil(graph, Token::arrow, "")))
    return failure();
  const char *arrowLoc = tok.getLoc();
  consume();
  llvm::SmallVector<Value> results;
  if (failed(parseUses(graph, results)))
    return failure();
  builder.setInsertionPointToEnd(block);
  ts::PrimYieldOp::create(builder, getTextLoc(arrowLoc), results);
  graph.scopes.pop_back();
  return success();
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

static bool isBlockHeader(const Token &tok) {
  llvm::StringRef s = tok.spelling;
  return tok.is(Token::identifier) && s.consume_front("block") && !s.empty() &&
         llvm::all_of(s, llvm::isDigit);
}

LogicalResult Importer::parseNode(GraphState &graph) {
  llvm::SmallVector<ParsedDef> outputs;
  if (tok.is(Token::value) && failed(parseDefs(outputs)))
    return failure();
  if (!tok.is(Token::equal)) {
    emitError(outputs.empty()
                  ? "expected a node, 'return' or '->', found '" +
                        describe(tok) + "'"
                  : "expected '=' after the node's outputs, found '" +
                        describe(tok) + "'");
    return failure();
  }
  consume();

  // The kind: ns::name.
  const char *kindLoc = tok.getLoc();
  if (!tok.is(Token::identifier)) {
    emitError("expected a node kind such as aten::add, found '" +
              describe(tok) + "'");
    return failure();
  }
  std::string kind = tok.spelling.str();
  consume();
  if (failed(expect(Token::coloncolon, "'::' in the node kind")))
    return failure();
  if (!tok.is(Token::identifier)) {
    emitError("expected a node kind such as aten::add");
    return failure();
  }
  kind += "::" + tok.spelling.str();
  consume();

  std::vector<ParsedAttr> attrs;
  if (tok.is(Token::l_square) && failed(parseAttributes(attrs)))
    return failure();
  llvm::SmallVector<Value> inputs;
  if (failed(parseUses(graph, inputs, /*keepComment=*/true)))
    return failure();
  // `, scope: __module.fc1` (traced graphs), then `# file:line:col`.
  llvm::StringRef scope;
  if (tok.is(Token::comma)) {
    consume();
    if (!tok.isIdentifier("scope")) {
      emitError("expected 'scope' or the end of the node, found '" +
                describe(tok) + "'");
      return failure();
    }
    consume();
    if (!tok.is(Token::colon)) {
      emitError("expected ':' after 'scope'");
      return failure();
    }
    scope = lexer.lexRestOfLine();
    consumeKeepingComment();
  }
  // Without a `# file:line:col` comment, diagnostics point at the node in
  // the graph text (a position the exporter does not print back).
  Location source = NameLoc::get(StringAttr::get(context, ts::kTextPosition),
                                 getTextLoc(kindLoc));
  if (tok.is(Token::comment)) {
    source = parseSourceComment(tok.spelling);
    consume();
  }
  if (!scope.empty())
    source = NameLoc::get(StringAttr::get(context, ts::kScopePrefix + scope.str()),
                          source);
  std::vector<std::unique_ptr<Region>> regions;
  while (isBlockHeader(tok)) {
    regions.push_back(std::make_unique<Region>());
    if (failed(parseBlock(graph, *regions.back())))
      return failure();
  }

  llvm::SmallVector<llvm::StringRef> names;
  for (const ParsedDef &def : outputs)
    names.push_back(def.name);
  Location loc = ts::getNodeLoc(context, names, source);
  Operation *op = buildNode(graph, kindLoc, kind, outputs, attrs, inputs,
                            regions, loc);
  if (!op)
    return failure();
  for (auto [def, result] : llvm::zip_equal(outputs, op->getResults()))
    if (failed(define(graph, def, result)))
      return failure();
  return success();
}

Operation *Importer::createChecked(OperationState &state, const char *nodeLoc,
                                   llvm::StringRef kind) {
  Operation *op = builder.create(state);
  std::string message;
  if (succeeded(verifyNode(op, message)))
    return op;
  op->erase();
  emitError(nodeLoc, "invalid " + kind + " node: " + message);
  return nullptr;
}

/// What a group node's kind becomes: a fusion op of its fuser's strategy,
/// or (nullopt) a ts.operator.
static std::optional<fusion::Strategy> getGroupStrategy(llvm::StringRef kind) {
  return llvm::StringSwitch<std::optional<fusion::Strategy>>(kind)
      .Case("prim::TensorExprGroup", fusion::Strategy::NNC)
      .Case("prim::FusionGroup", fusion::Strategy::Pointwise)
      .Case("prim::CudaFusionGroup", fusion::Strategy::NVFuser)
      .Default(std::nullopt);
}

Operation *Importer::buildNode(GraphState &graph, const char *nodeLoc,
                               llvm::StringRef kind,
                               llvm::ArrayRef<ParsedDef> outputs,
                               std::vector<ParsedAttr> &attrs,
                               llvm::ArrayRef<Value> inputs,
                               std::vector<std::unique_ptr<Region>> &regions,
                               Location loc) {
  if (kind == "prim::Constant" && regions.empty())
    return buildConstant(nodeLoc, outputs, attrs, loc);

  llvm::SmallVector<Type> resultTypes;
  for (const ParsedDef &def : outputs)
    resultTypes.push_back(def.type);
  // Node attributes keep their names, except where the op uses the name for
  // its own structure (a node attribute called `kind` on a ts.operator).
  auto addAttrs = [&](OperationState &state) {
    for (ParsedAttr &attr : attrs) {
      Attribute value = convertAttr(attr.value);
      if (!value)
        return failure();
      std::string name = attr.name;
      if (ts::isStructuralAttrName(state.name.getStringRef(), name))
        name = (ts::kNodeAttrPrefix + name).str();
      state.addAttribute(name, value);
    }
    return success();
  };

  // A node with a subgraph prints as kind_N; its subgraph follows the graph.
  auto [ns, name] = llvm::StringRef(kind).split("::");
  size_t underscore = name.rfind('_');
  if (ns == "prim" && underscore != llvm::StringRef::npos &&
      underscore + 1 < name.size() &&
      llvm::all_of(name.substr(underscore + 1), llvm::isDigit) &&
      regions.empty()) {
    std::string groupKind = (ns + "::" + name.substr(0, underscore)).str();
    unsigned index;
    name.substr(underscore + 1).getAsInteger(10, index);
    if (index != graph.groups.size()) {
      emitError(nodeLoc, "expected subgraph node " + groupKind + "_" +
                             llvm::Twine(graph.groups.size()) +
                             " (subgraphs are numbered in order)");
      return nullptr;
    }
    bool differentiable = groupKind == "prim::DifferentiableGraph";
    std::optional<fusion::Strategy> strategy = getGroupStrategy(groupKind);
    llvm::StringRef opName =
        differentiable ? fusion::DifferentiableGraphOp::getOperationName()
        : !strategy    ? ts::OperatorOp::getOperationName()
                       : fusion::GroupOp::getOperationName();
    OperationState state(loc, opName);
    state.addOperands(inputs);
    state.addTypes(resultTypes);
    if (failed(addAttrs(state)))
      return nullptr;
    state.addRegion();
    if (differentiable) {
      state.addRegion(); // backward: not in the text
    } else if (!strategy) {
      state.addAttribute("kind", builder.getStringAttr(groupKind));
      state.addAttribute("Subgraph", builder.getUnitAttr());
    } else {
      state.addAttribute("strategy", fusion::StrategyAttr::get(
                                         builder.getContext(), *strategy));
    }
    // Verified once the subgraph is parsed.
    Operation *op = builder.create(state);
    graph.groups.push_back({op, groupKind, index, nodeLoc});
    return op;
  }

  auto makeState = [&](llvm::StringRef opName) {
    OperationState state(loc, opName);
    state.addOperands(inputs);
    state.addTypes(resultTypes);
    for (std::unique_ptr<Region> &region : regions)
      state.addRegion(std::move(region));
    return state;
  };

  if (kind == "prim::If" || kind == "prim::Loop") {
    if (regions.size() != (kind == "prim::If" ? 2u : 1u)) {
      emitError(nodeLoc, kind + " needs " +
                             (kind == "prim::If" ? "two blocks" : "one block") +
                             ", found " + llvm::Twine(regions.size()));
      return nullptr;
    }
  }

  // A schema op, chosen by the types as PyTorch chose the overload.
  if (regions.empty()) {
    llvm::SmallVector<Type> operandTypes;
    for (Value input : inputs)
      operandTypes.push_back(input.getType());
    if (const ts::OpSignature *signature =
            ts::resolveOverload(kind, operandTypes, resultTypes)) {
      OperationState state = makeState(signature->opName);
      if (failed(addAttrs(state)))
        return nullptr;
      return createChecked(state, nodeLoc, kind);
    }
  }

  // A hand-written op of the same name: prim::ListConstruct, prim::If, ...
  std::string opName = ("ts." + ns + "." + name).str();
  if (kind != "prim::Yield" &&
      RegisteredOperationName::lookup(opName, context) &&
      ts::lookupOpSignatures(kind).empty()) {
    OperationState state = makeState(opName);
    if (failed(addAttrs(state)))
      return nullptr;
    return createChecked(state, nodeLoc, kind);
  }

  // Anything else keeps its kind, attributes and blocks in ts.operator.
  OperationState state = makeState(ts::OperatorOp::getOperationName());
  if (failed(addAttrs(state)))
    return nullptr;
  state.addAttribute("kind", builder.getStringAttr(kind));
  return createChecked(state, nodeLoc, kind);
}

Operation *Importer::buildConstant(const char *nodeLoc,
                                   llvm::ArrayRef<ParsedDef> outputs,
                                   std::vector<ParsedAttr> &attrs,
                                   Location loc) {
  if (outputs.size() != 1) {
    emitError(nodeLoc, "prim::Constant has one output, found " +
                           llvm::Twine(outputs.size()));
    return nullptr;
  }
  OperationState state(loc, ts::PrimConstantOp::getOperationName());
  state.addTypes(outputs[0].type);
  for (ParsedAttr &attr : attrs) {
    Attribute value;
    if (attr.name == "value") {
      FailureOr<Attribute> converted =
          convertConstant(attr.value, outputs[0].type, outputs[0].name);
      if (failed(converted))
        return nullptr;
      value = *converted;
    } else {
      value = convertAttr(attr.value);
      if (!value)
        return nullptr;
    }
    state.addAttribute(attr.name, value);
  }
  return createChecked(state, nodeLoc, "prim::Constant");
}

//===----------------------------------------------------------------------===//
// Modules and parameters
//===----------------------------------------------------------------------===//

/// Replaces each `prim::GetAttr` chain from `self` that names a parameter with
/// a constant holding its data, then drops the chains left unused.
LogicalResult Importer::bindModuleParameters(Block &body) {
  if (body.getNumArguments() == 0 ||
      !llvm::isa<ts::ClassType, ts::ModuleType>(body.getArgument(0).getType()))
    return success();
  llvm::DenseMap<Value, std::string> paths;
  paths[body.getArgument(0)] = "";
  llvm::SmallVector<ts::PrimGetAttrOp> chains;
  LogicalResult result = success();
  body.getParentOp()->walk([&](ts::PrimGetAttrOp op) {
    auto it = paths.find(op.getObject());
    if (it == paths.end() || failed(result))
      return;
    std::string path = it->second.empty()
                           ? op.getName().str()
                           : it->second + "." + op.getName().str();
    paths[op.getResult()] = path;
    chains.push_back(op);
    if (!llvm::isa<ts::TensorType>(op.getType()))
      return;
    FailureOr<Attribute> data =
        lookupParameter(path, op.getLoc(), op.getType());
    if (failed(data)) {
      result = failure();
      return;
    }
    if (!*data)
      return;
    OpBuilder b(op);
    auto constant = ts::PrimConstantOp::create(b, op.getLoc(), op.getType(),
                                               *data);
    op.getResult().replaceAllUsesWith(constant.getResult());
  });
  if (failed(result))
    return failure();
  for (ts::PrimGetAttrOp op : llvm::reverse(chains))
    if (op->use_empty())
      op->erase();
  return success();
}

LogicalResult Importer::recordStateDict(ModuleOp module) {
  Location loc = FileLineColLoc::get(context, params->getPath(), 0, 0);
  llvm::SmallVector<NamedAttribute> entries;
  for (const SafetensorsTensor &tensor : params->tensors()) {
    FailureOr<Attribute> data = getParameterData(tensor, loc);
    if (failed(data))
      return failure();
    entries.push_back(builder.getNamedAttr(tensor.name, *data));
  }
  module->setAttr(ts::TorchScriptDialect::getStateDictAttrName(),
                  builder.getDictionaryAttr(entries));
  return success();
}

OwningOpRef<ModuleOp> Importer::run() {
  if (!options.paramsFile.empty()) {
    auto file = SafetensorsFile::open(options.paramsFile);
    if (!file) {
      mlir::emitError(FileLineColLoc::get(context, options.paramsFile, 0, 0),
                      llvm::toString(file.takeError()));
      return nullptr;
    }
    params = std::move(*file);
  }
  consume();
  Location moduleLoc = FileLineColLoc::get(context, bufferName, 1, 1);
  OwningOpRef<ModuleOp> module = ModuleOp::create(moduleLoc);
  builder.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(builder, moduleLoc, options.functionName,
                                   builder.getFunctionType({}, {}));
  Block *body = func.addEntryBlock();
  llvm::SmallVector<Type> resultTypes;
  if (failed(parseGraph(body, Terminator::Return, &resultTypes)))
    return nullptr;
  if (!tok.is(Token::eof)) {
    emitError("expected end of file after the graph, found '" + describe(tok) +
              "'");
    return nullptr;
  }
  func.setFunctionType(
      builder.getFunctionType(body->getArgumentTypes(), resultTypes));
  if (params && (failed(bindModuleParameters(*body)) ||
                 failed(recordStateDict(*module))))
    return nullptr;
  if (failed(mlir::verify(*module)))
    return nullptr;
  return module;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

/// Imports the graph in `path` as the private function `name` of `module`.
static LogicalResult importFunction(ModuleOp module, llvm::StringRef name,
                                    llvm::StringRef path) {
  MLIRContext *context = module.getContext();
  Location fileLoc = FileLineColLoc::get(context, path, 0, 0);
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path);
  if (std::error_code error = buffer.getError())
    return mlir::emitError(fileLoc, "cannot open '" + path +
                                        "': " + error.message());
  if (SymbolTable::lookupSymbolIn(module, name))
    return mlir::emitError(fileLoc, "function '" + name +
                                        "' is imported twice");
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  TorchScriptImportOptions options;
  options.functionName = name.str();
  OwningOpRef<ModuleOp> imported = importTorchScript(sourceMgr, context, options);
  if (!imported)
    return failure();
  for (auto func :
       llvm::make_early_inc_range(imported->getOps<func::FuncOp>())) {
    func->moveBefore(module.getBody(), module.getBody()->end());
    func.setPrivate();
  }
  return success();
}

OwningOpRef<ModuleOp>
mlir::tsmlir::importTorchScript(llvm::SourceMgr &sourceMgr,
                                MLIRContext *context,
                                const TorchScriptImportOptions &options) {
  context->loadDialect<ts::TorchScriptDialect, fusion::FusionDialect,
                       func::FuncDialect>();
  Importer importer(sourceMgr, context, options);
  OwningOpRef<ModuleOp> module = importer.run();
  if (!module)
    return nullptr;
  for (const auto &[name, path] : options.functionFiles)
    if (failed(importFunction(*module, name, path)))
      return nullptr;
  return module;
}

OwningOpRef<ModuleOp>
mlir::tsmlir::importTorchScript(llvm::StringRef text,
                                llvm::StringRef bufferName,
                                MLIRContext *context,
                                const TorchScriptImportOptions &options) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(text, bufferName,
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  return importTorchScript(sourceMgr, context, options);
}

void mlir::tsmlir::registerTorchScriptImportDialects(
    DialectRegistry &registry) {
  registry.insert<ts::TorchScriptDialect, fusion::FusionDialect,
                  func::FuncDialect>();
}
