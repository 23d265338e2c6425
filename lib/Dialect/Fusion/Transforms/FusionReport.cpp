//===- FusionReport.cpp - Fusion plans, their bytes and reasons -----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `ts-fusion-report` prints what `planFusion` decides, for one strategy or
// all four, without changing the IR: the groups with their memory traffic
// before and after fusion, and why every other tensor op stays outside.
// Convolutions and matrix products that `ts-library-kernels` made library
// kernels are groups of their own, with the epilogue fused into them. The
// numbers are first gathered into plain structs (one `StrategyReport` per
// function and strategy), then printed as text, JSON or Graphviz.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/Fusion/Transforms/Passes.h"

#include "tsmlir/Dialect/Fusion/Transforms/FusionPlanner.h"
#include "tsmlir/Dialect/Kernel/IR/KernelOps.h"
#include "tsmlir/Dialect/TorchScript/Autodiff/Autodiff.h"
#include "tsmlir/Dialect/TorchScript/IR/NodeKind.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::tsmlir::fusion {
#define GEN_PASS_DEF_TSFUSIONREPORTPASS
#include "tsmlir/Dialect/Fusion/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir::fusion

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::fusion;

//===----------------------------------------------------------------------===//
// Gathering
//===----------------------------------------------------------------------===//

namespace {
/// Tensor loads and stores, and their bytes.
struct Traffic {
  int64_t loads = 0;
  int64_t stores = 0;
  int64_t bytesRead = 0;
  int64_t bytesWritten = 0;
  /// Tensors of unknown size (counted, without bytes).
  int64_t unknown = 0;

  int64_t bytes() const { return bytesRead + bytesWritten; }
  Traffic &operator+=(const Traffic &other) {
    loads += other.loads;
    stores += other.stores;
    bytesRead += other.bytesRead;
    bytesWritten += other.bytesWritten;
    unknown += other.unknown;
    return *this;
  }
};

struct ValueInfo {
  std::string name;
  std::string type;
  std::optional<int64_t> bytes;
};

struct GroupReport {
  SmallVector<Operation *> ops;
  std::string where;
  /// Kinds in order of first appearance, with their counts (list
  /// constructions not counted).
  SmallVector<std::pair<std::string, int64_t>> kinds;
  SmallVector<ValueInfo> inputs, outputs;
  Traffic before, after;
  /// For a library kernel (`kernel.conv2d`, `kernel.matmul`): what is
  /// fused into it, in order ("bias", then its epilogue steps).
  std::optional<SmallVector<std::string>> epilogue;
};

struct StrategyReport {
  FusionPlan plan;
  SmallVector<GroupReport, 0> groups;
  Traffic before, after;
  int64_t fusedOps = 0;
  /// Library kernels among `groups`, and the epilogue entries fused into
  /// them.
  int64_t kernels = 0, epilogueEntries = 0;
};

struct FunctionReport {
  mutable func::FuncOp func;
  SmallVector<StrategyReport, 0> strategies;
};
} // namespace

/// The TorchScript kind of an op (`ts.aten.add.Tensor` is `aten::add`), or
/// its MLIR name when it has none.
static std::string getKind(Operation *op) {
  std::string kind = ts::getNodeKind(op);
  return kind.empty() ? op->getName().getStringRef().str() : kind;
}

/// `file:line:col` for file locations, looking through names and fusions.
static std::string formatLoc(Location loc) {
  if (auto file = llvm::dyn_cast<FileLineColLoc>(loc))
    return llvm::formatv("{0}:{1}:{2}", file.getFilename().getValue(),
                         file.getLine(), file.getColumn());
  if (auto name = llvm::dyn_cast<NameLoc>(loc)) {
    if (llvm::isa<UnknownLoc>(name.getChildLoc()))
      return name.getName().str();
    return formatLoc(name.getChildLoc());
  }
  if (auto fused = llvm::dyn_cast<FusedLoc>(loc))
    if (!fused.getLocations().empty())
      return formatLoc(fused.getLocations().front());
  if (auto callSite = llvm::dyn_cast<CallSiteLoc>(loc))
    return formatLoc(callSite.getCallee());
  std::string str;
  llvm::raw_string_ostream os(str);
  loc.print(os);
  return str;
}

/// Where a block is: the function body, or region #i of an op.
static std::string describeBlock(Block *block) {
  Operation *parent = block->getParentOp();
  if (llvm::isa<func::FuncOp>(parent))
    return "the function body";
  return llvm::formatv("{0} region #{1}", parent->getName().getStringRef(),
                       block->getParent()->getRegionNumber());
}

static std::string printType(Type type) {
  std::string str;
  llvm::raw_string_ostream os(str);
  type.print(os);
  return str;
}

/// Calls `fn` with the type of each tensor `value` carries: a tensor, or the
/// elements of a list built by prim::ListConstruct (what cat reads).
static void forEachTensor(Value value, function_ref<void(Type)> fn) {
  if (llvm::isa<ts::TensorType>(value.getType()))
    return fn(value.getType());
  if (auto construct = value.getDefiningOp<ts::PrimListConstructOp>())
    for (Value element : construct.getElements())
      if (llvm::isa<ts::TensorType>(element.getType()))
        fn(element.getType());
}

static void addLoad(Traffic &traffic, Type type) {
  ++traffic.loads;
  if (std::optional<int64_t> bytes = getTensorBytes(type))
    traffic.bytesRead += *bytes;
  else
    ++traffic.unknown;
}

static void addStore(Traffic &traffic, Type type) {
  ++traffic.stores;
  if (std::optional<int64_t> bytes = getTensorBytes(type))
    traffic.bytesWritten += *bytes;
  else
    ++traffic.unknown;
}

/// The traffic of `op` run on its own. A list construction is no kernel:
/// the op that takes the list reads its tensors.
static Traffic getOpTraffic(Operation *op) {
  Traffic traffic;
  if (llvm::isa<ts::PrimListConstructOp>(op))
    return traffic;
  for (Value operand : op->getOperands())
    forEachTensor(operand, [&](Type type) { addLoad(traffic, type); });
  for (Value result : op->getResults())
    if (llvm::isa<ts::TensorType>(result.getType()))
      addStore(traffic, result.getType());
  return traffic;
}

static ValueInfo describeValue(Value value, AsmState &state) {
  ValueInfo info;
  llvm::raw_string_ostream os(info.name);
  value.printAsOperand(os, state);
  info.type = printType(value.getType());
  info.bytes = getTensorBytes(value.getType());
  return info;
}

namespace {
/// The parts of a library kernel op the report reads.
struct KernelParts {
  ArrayAttr epilogue;
  Value bias, residual;
};
} // namespace

static std::optional<KernelParts> getKernelParts(Operation *op) {
  if (auto conv = llvm::dyn_cast<kernel::Conv2dOp>(op))
    return KernelParts{conv.getEpilogue(), conv.getBias(), conv.getResidual()};
  if (auto matmul = llvm::dyn_cast<kernel::MatmulOp>(op))
    return KernelParts{matmul.getEpilogue(), matmul.getBias(),
                       matmul.getResidual()};
  return std::nullopt;
}

/// The report of a library kernel op. *Before* counts the product and each
/// epilogue step as a pass of its own (a step reads and writes the result;
/// the residual step also reads the residual); *after*, the kernel reads
/// its operands once and writes its result once.
static GroupReport buildKernelReport(Operation *op, const KernelParts &parts,
                                     AsmState &state) {
  GroupReport g;
  g.ops = {op};
  g.where = describeBlock(op->getBlock());
  g.kinds.push_back({getKind(op), 1});
  g.epilogue.emplace();
  if (parts.bias)
    g.epilogue->push_back("bias");
  for (auto step : parts.epilogue.getAsRange<kernel::StepAttr>())
    g.epilogue->push_back(kernel::stringifyStepKind(step.getKind()).str());
  for (Value operand : op->getOperands()) {
    if (!llvm::isa<ts::TensorType>(operand.getType()))
      continue;
    if (operand != parts.residual)
      addLoad(g.before, operand.getType());
    addLoad(g.after, operand.getType());
    g.inputs.push_back(describeValue(operand, state));
  }
  for (Value result : op->getResults()) {
    addStore(g.before, result.getType());
    addStore(g.after, result.getType());
    for (auto step : parts.epilogue.getAsRange<kernel::StepAttr>()) {
      addLoad(g.before, result.getType());
      addStore(g.before, result.getType());
      if (step.getKind() == kernel::StepKind::Residual)
        addLoad(g.before, parts.residual.getType());
    }
    g.outputs.push_back(describeValue(result, state));
  }
  return g;
}

static StrategyReport buildReport(func::FuncOp func, Strategy strategy,
                                  int64_t minSize, AsmState &state) {
  StrategyReport report;
  report.plan = planFusion(func, FusionOptions{strategy, minSize});
  for (const PlannedGroup &group : report.plan.groups) {
    GroupReport g;
    g.ops = group.ops;
    g.where = describeBlock(group.ops.front()->getBlock());
    for (Operation *op : group.ops) {
      if (llvm::isa<ts::PrimListConstructOp>(op))
        continue;
      std::string kind = getKind(op);
      auto *it =
          llvm::find_if(g.kinds, [&](auto &e) { return e.first == kind; });
      if (it == g.kinds.end())
        g.kinds.push_back({kind, 1});
      else
        ++it->second;
    }
    for (Operation *op : group.ops)
      g.before += getOpTraffic(op);
    for (Value input : group.inputs) {
      forEachTensor(input, [&](Type type) { addLoad(g.after, type); });
      g.inputs.push_back(describeValue(input, state));
    }
    for (Value output : group.outputs) {
      if (llvm::isa<ts::TensorType>(output.getType()))
        addStore(g.after, output.getType());
      g.outputs.push_back(describeValue(output, state));
    }
    report.before += g.before;
    report.after += g.after;
    report.fusedOps += group.ops.size();
    report.groups.push_back(std::move(g));
  }
  func.walk([&](Operation *op) {
    std::optional<KernelParts> parts = getKernelParts(op);
    if (!parts)
      return;
    GroupReport g = buildKernelReport(op, *parts, state);
    report.before += g.before;
    report.after += g.after;
    ++report.kernels;
    report.epilogueEntries += g.epilogue->size();
    report.groups.push_back(std::move(g));
  });
  return report;
}

/// before / after, or 1 when nothing moves.
static double getRatio(const Traffic &before, const Traffic &after) {
  if (after.bytes() == 0)
    return 1.0;
  return static_cast<double>(before.bytes()) / after.bytes();
}

/// The kinds of a group: "12 x aten::sub, 3 x aten::mul".
static std::string formatKinds(const GroupReport &g) {
  std::string str;
  llvm::raw_string_ostream os(str);
  llvm::interleaveComma(g.kinds, os, [&](const auto &entry) {
    os << entry.second << " x " << entry.first;
  });
  return str;
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

static void printTrafficRow(raw_ostream &os, StringRef label,
                            const Traffic &t) {
  os << llvm::formatv("    {0,-8} {1,6} {2,7} {3,12} {4,14} {5,12}\n", label,
                      t.loads, t.stores, t.bytesRead, t.bytesWritten,
                      t.bytes());
}

static void printTrafficHeader(raw_ostream &os) {
  os << llvm::formatv("    {0,-8} {1,6} {2,7} {3,12} {4,14} {5,12}\n", "",
                      "loads", "stores", "bytes read", "bytes written",
                      "bytes");
}

static void printValues(raw_ostream &os, StringRef label,
                        ArrayRef<ValueInfo> values) {
  os << "  " << label << ":\n";
  for (const ValueInfo &value : values) {
    os << llvm::formatv("    {0,-8} {1}", value.name, value.type);
    if (value.bytes)
      os << "  (" << *value.bytes << " B)";
    os << "\n";
  }
}

/// What the forward function of a --ts-differentiate split saves for its
/// backward (its `ts.autodiff` attribute), as `key: value` pairs.
static SmallVector<std::pair<StringRef, Attribute>>
getAutodiffSummary(func::FuncOp func) {
  SmallVector<std::pair<StringRef, Attribute>> entries;
  if (auto dict = func->getAttrOfType<DictionaryAttr>(ts::kAutodiffAttrName))
    for (NamedAttribute entry : dict)
      entries.emplace_back(entry.getName().getValue(), entry.getValue());
  return entries;
}

static void printAutodiffSummary(raw_ostream &os, func::FuncOp func) {
  auto dict = func->getAttrOfType<DictionaryAttr>(ts::kAutodiffAttrName);
  if (!dict)
    return;
  auto get = [&](StringRef key) -> int64_t {
    auto attr = dict.getAs<IntegerAttr>(key);
    return attr ? attr.getInt() : 0;
  };
  auto policy = dict.getAs<StringAttr>("policy");
  auto arguments = dict.getAs<DenseI64ArrayAttr>("saved_arguments");
  os << llvm::formatv(
      "autodiff forward ({0}): saves {1} values ({2} B) for the backward, "
      "which also reads {3} arguments ({4} B) and recomputes {5} ops\n",
      policy ? policy.getValue() : "?", get("saved_values"), get("saved_bytes"),
      arguments ? arguments.size() : 0, get("argument_bytes"),
      get("recomputed_ops"));
}

static void printText(raw_ostream &os, ArrayRef<FunctionReport> functions) {
  for (const FunctionReport &function : functions) {
    for (const StrategyReport &report : function.strategies) {
      StringRef strategy = stringifyStrategy(report.plan.strategy);
      os << "=== @" << function.func.getSymName() << ", strategy " << strategy
         << " ===\n";
      printAutodiffSummary(os, function.func);
      for (auto [index, g] : llvm::enumerate(report.groups)) {
        if (g.epilogue) {
          os << "group " << index << ": library kernel " << getKind(g.ops[0])
             << " in " << g.where << "\n";
          os << "  epilogue:";
          if (g.epilogue->empty())
            os << " none";
          for (const std::string &entry : *g.epilogue)
            os << " " << entry;
          os << "\n";
        } else {
          os << "group " << index << ": " << g.ops.size() << " ops in "
             << g.where << " (" << formatKinds(g) << ")\n";
          os << "  ops:";
          for (Operation *op : g.ops)
            os << " " << getKind(op);
          os << "\n";
        }
        printValues(os, "inputs", g.inputs);
        printValues(os, "outputs", g.outputs);
        printTrafficHeader(os);
        printTrafficRow(os, "before", g.before);
        printTrafficRow(os, "after", g.after);
      }
      if (!report.plan.unfused.empty()) {
        os << "unfused ops:\n";
        size_t kindWidth = 0, locWidth = 0, reasonWidth = 0;
        for (Operation *op : report.plan.unfused) {
          kindWidth = std::max(kindWidth, getKind(op).size());
          locWidth = std::max(locWidth, formatLoc(op->getLoc()).size());
          reasonWidth = std::max(
              reasonWidth, stringifyReason(report.plan.reasons.at(op)).size());
        }
        for (Operation *op : report.plan.unfused) {
          os << "  " << getKind(op);
          os.indent(kindWidth - getKind(op).size() + 2)
              << formatLoc(op->getLoc());
          os.indent(locWidth - formatLoc(op->getLoc()).size() + 2);
          StringRef reason = stringifyReason(report.plan.reasons.at(op));
          os << reason;
          os.indent(reasonWidth - reason.size() + 2)
              << "in " << describeBlock(op->getBlock()) << "\n";
        }
      }
      os << llvm::formatv("summary {0}: {1} groups", strategy,
                          report.groups.size());
      if (report.kernels)
        os << llvm::formatv(" ({0} library kernels, {1} epilogue entries)",
                            report.kernels, report.epilogueEntries);
      os << llvm::formatv(
          ", {0} ops fused, {1} ops left; "
          "loads {2} -> {3}, stores {4} -> {5}, bytes {6} -> {7} "
          "({8:F2}x)\n\n",
          report.fusedOps, report.plan.unfused.size(), report.before.loads,
          report.after.loads, report.before.stores, report.after.stores,
          report.before.bytes(), report.after.bytes(),
          getRatio(report.before, report.after));
    }
  }
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

static llvm::json::Object toJSON(const Traffic &t) {
  return llvm::json::Object{
      {"loads", t.loads},         {"stores", t.stores},
      {"bytesRead", t.bytesRead}, {"bytesWritten", t.bytesWritten},
      {"bytes", t.bytes()},       {"unknownSizes", t.unknown}};
}

static llvm::json::Array toJSON(ArrayRef<ValueInfo> values) {
  llvm::json::Array array;
  for (const ValueInfo &value : values) {
    llvm::json::Object object{{"value", value.name}, {"type", value.type}};
    object["bytes"] = value.bytes ? llvm::json::Value(*value.bytes) : nullptr;
    array.push_back(std::move(object));
  }
  return array;
}

static llvm::json::Object describeOp(Operation *op) {
  return llvm::json::Object{{"kind", getKind(op)},
                            {"op", op->getName().getStringRef()},
                            {"loc", formatLoc(op->getLoc())}};
}

static void printJSON(raw_ostream &os, ArrayRef<FunctionReport> functions) {
  llvm::json::Array functionArray;
  for (const FunctionReport &function : functions) {
    llvm::json::Array strategies;
    for (const StrategyReport &report : function.strategies) {
      llvm::json::Array groups;
      for (auto [index, g] : llvm::enumerate(report.groups)) {
        llvm::json::Array ops;
        for (Operation *op : g.ops)
          ops.push_back(describeOp(op));
        llvm::json::Object kinds;
        for (const auto &[kind, count] : g.kinds)
          kinds[kind] = count;
        llvm::json::Object group{{"index", static_cast<int64_t>(index)},
                                 {"region", g.where},
                                 {"ops", std::move(ops)},
                                 {"kinds", std::move(kinds)},
                                 {"inputs", toJSON(g.inputs)},
                                 {"outputs", toJSON(g.outputs)},
                                 {"before", toJSON(g.before)},
                                 {"after", toJSON(g.after)}};
        if (g.epilogue)
          group["libraryKernel"] =
              llvm::json::Object{{"epilogue", llvm::json::Array(*g.epilogue)}};
        groups.push_back(std::move(group));
      }
      llvm::json::Array unfused;
      for (Operation *op : report.plan.unfused) {
        llvm::json::Object object = describeOp(op);
        object["reason"] = stringifyReason(report.plan.reasons.at(op));
        object["region"] = describeBlock(op->getBlock());
        unfused.push_back(std::move(object));
      }
      llvm::json::Object summary{
          {"groups", static_cast<int64_t>(report.groups.size())},
          {"fusedOps", report.fusedOps},
          {"unfusedOps", static_cast<int64_t>(report.plan.unfused.size())},
          {"before", toJSON(report.before)},
          {"after", toJSON(report.after)},
          {"ratio", getRatio(report.before, report.after)}};
      if (report.kernels) {
        summary["libraryKernels"] = report.kernels;
        summary["epilogueEntries"] = report.epilogueEntries;
      }
      strategies.push_back(llvm::json::Object{
          {"strategy", stringifyStrategy(report.plan.strategy)},
          {"groups", std::move(groups)},
          {"unfused", std::move(unfused)},
          {"summary", std::move(summary)}});
    }
    llvm::json::Object object{{"function", function.func.getSymName()},
                              {"strategies", std::move(strategies)}};
    SmallVector<std::pair<StringRef, Attribute>> autodiff =
        getAutodiffSummary(function.func);
    if (!autodiff.empty()) {
      llvm::json::Object summary;
      for (auto [key, value] : autodiff) {
        if (auto integer = llvm::dyn_cast<IntegerAttr>(value))
          summary[key] = integer.getInt();
        else if (auto string = llvm::dyn_cast<StringAttr>(value))
          summary[key] = string.getValue();
        else if (auto array = llvm::dyn_cast<DenseI64ArrayAttr>(value))
          summary[key] = llvm::json::Array(array.asArrayRef());
      }
      object["autodiff"] = std::move(summary);
    }
    functionArray.push_back(std::move(object));
  }
  os << llvm::formatv("{0:2}\n", llvm::json::Value(llvm::json::Object{
                                     {"functions", std::move(functionArray)}}));
}

//===----------------------------------------------------------------------===//
// Graphviz
//===----------------------------------------------------------------------===//

static std::string escapeDot(StringRef str) {
  std::string escaped;
  for (char c : str) {
    if (c == '"' || c == '\\')
      escaped += '\\';
    escaped += c;
  }
  return escaped;
}

namespace {
/// Prints one function under one strategy as a digraph.
class DotPrinter {
public:
  DotPrinter(raw_ostream &os, func::FuncOp func, const StrategyReport &report)
      : os(os), func(func), report(report) {}
  void print();

private:
  void printBlock(Block &block, unsigned depth);
  void printNode(Operation *op, unsigned depth);
  void printEdge(Value value, StringRef target);
  std::string getSource(Value value);

  raw_ostream &os;
  func::FuncOp func;
  const StrategyReport &report;
  llvm::DenseMap<Operation *, unsigned> groupOf;
  llvm::DenseMap<Operation *, unsigned> nodes;
  unsigned regionClusters = 0;
};
} // namespace

static constexpr StringLiteral kColours[] = {
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3",
    "#fdb462", "#b3de69", "#fccde5", "#d9d9d9", "#bc80bd"};

/// Whether an op is drawn: constants are copied into groups and
/// terminators of nested regions feed their op's node.
static bool isDrawn(Operation *op) {
  if (llvm::isa<ts::PrimConstantOp>(op))
    return false;
  return !op->hasTrait<OpTrait::IsTerminator>() ||
         llvm::isa<func::FuncOp>(op->getParentOp());
}

void DotPrinter::printNode(Operation *op, unsigned depth) {
  std::string indent(2 * depth, ' ');
  unsigned id = nodes.size();
  nodes[op] = id;
  std::string label = getKind(op);
  os << indent << "n" << id << " [label=\"" << escapeDot(label);
  auto reason = report.plan.reasons.find(op);
  if (reason != report.plan.reasons.end())
    os << "\\n(" << stringifyReason(reason->second)
       << ")\", color=\"#d62728\", fontcolor=\"#d62728\"";
  else if (!groupOf.count(op))
    os << "\", color=gray50";
  else
    os << "\"";
  os << "];\n";
}

void DotPrinter::printBlock(Block &block, unsigned depth) {
  std::string indent(2 * depth, ' ');
  // The groups of this block first, each in its cluster.
  for (auto [index, g] : llvm::enumerate(report.groups)) {
    if (g.ops.front()->getBlock() != &block)
      continue;
    os << indent << "subgraph cluster_" << index << " {\n"
       << indent << "  label=\"group " << index << ": ";
    if (g.epilogue)
      os << "library kernel, epilogue [" << llvm::join(*g.epilogue, ", ")
         << "], ";
    else
      os << g.ops.size() << " ops, ";
    os << g.before.bytes() << " B -> " << g.after.bytes() << " B\";\n"
       << indent << "  style=filled; fillcolor=\""
       << kColours[index % std::size(kColours)] << "\";\n";
    for (Operation *op : g.ops)
      printNode(op, depth + 1);
    os << indent << "}\n";
  }
  for (Operation &op : block) {
    if (!isDrawn(&op) || groupOf.count(&op))
      continue;
    if (op.getNumRegions() == 0) {
      printNode(&op, depth);
      continue;
    }
    unsigned cluster = regionClusters++;
    os << indent << "subgraph cluster_region_" << cluster << " {\n"
       << indent << "  label=\"" << op.getName().getStringRef()
       << "\"; style=dashed;\n";
    for (Region &region : op.getRegions()) {
      os << indent << "  subgraph cluster_region_" << cluster << "_"
         << region.getRegionNumber() << " {\n"
         << indent << "    label=\"region #" << region.getRegionNumber()
         << "\";\n";
      for (Block &nested : region)
        printBlock(nested, depth + 2);
      os << indent << "  }\n";
    }
    os << indent << "}\n";
    // The op's own node stands for its results.
    printNode(&op, depth);
  }
}

std::string DotPrinter::getSource(Value value) {
  if (auto arg = llvm::dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner()->getParentOp() == func.getOperation())
      return "a" + std::to_string(arg.getArgNumber());
    return "";
  }
  auto it = nodes.find(value.getDefiningOp());
  return it == nodes.end() ? "" : "n" + std::to_string(it->second);
}

void DotPrinter::printEdge(Value value, StringRef target) {
  std::string source = getSource(value);
  if (source.empty())
    return;
  os << "  " << source << " -> " << target;
  if (llvm::isa<ts::TensorType>(value.getType())) {
    std::optional<int64_t> bytes = getTensorBytes(value.getType());
    os << " [label=\"" << (bytes ? std::to_string(*bytes) + " B" : "?")
       << "\"]";
  } else if (auto list = llvm::dyn_cast<ts::ListType>(value.getType());
             list && llvm::isa<ts::TensorType>(list.getElementType())) {
    os << " [label=\"list\"]";
  } else {
    os << " [style=dashed, color=gray60]";
  }
  os << ";\n";
}

void DotPrinter::print() {
  for (auto [index, g] : llvm::enumerate(report.groups))
    for (Operation *op : g.ops)
      groupOf[op] = index;
  StringRef strategy = stringifyStrategy(report.plan.strategy);
  os << "digraph \"" << escapeDot(func.getSymName()) << "." << strategy
     << "\" {\n"
     << "  label=\"@" << escapeDot(func.getSymName()) << ", strategy "
     << strategy << ": " << report.groups.size() << " groups, "
     << report.before.bytes() << " B -> " << report.after.bytes() << " B\";\n"
     << "  node [shape=box, style=\"rounded,filled\", fillcolor=white, "
        "fontname=\"Helvetica\"];\n"
     << "  edge [fontname=\"Helvetica\", fontsize=10];\n";
  for (BlockArgument arg : func.getArguments())
    os << "  a" << arg.getArgNumber() << " [shape=ellipse, label=\"%arg"
       << arg.getArgNumber() << "\\n"
       << escapeDot(printType(arg.getType())) << "\"];\n";
  printBlock(func.getBody().front(), 1);
  // Edges once every node is declared, in walk order.
  func.walk([&](Operation *op) {
    if (!isDrawn(op)) {
      // A nested terminator yields to its op's node.
      if (op->hasTrait<OpTrait::IsTerminator>() &&
          nodes.count(op->getParentOp()))
        for (Value operand : op->getOperands())
          printEdge(operand, "n" + std::to_string(nodes[op->getParentOp()]));
      return;
    }
    auto it = nodes.find(op);
    if (it == nodes.end())
      return;
    for (Value operand : op->getOperands())
      printEdge(operand, "n" + std::to_string(it->second));
  });
  os << "}\n";
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct TSFusionReportPass
    : public fusion::impl::TSFusionReportPassBase<TSFusionReportPass> {
  using Base::Base;

  /// Besides `format=... strategy=...`, accepts the format as a bare first
  /// word, followed by a space or a comma: `--ts-fusion-report=dot`,
  /// `--ts-fusion-report="json strategy=nnc"`,
  /// `--ts-fusion-report=dot,strategy=nnc`.
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    options = options.trim();
    size_t end = options.find_first_of(" ,");
    StringRef first = options.take_front(end);
    std::optional<std::string> bare;
    if (!first.empty() && !first.contains('=')) {
      bare = first.str();
      options = options.drop_front(first.size()).ltrim(" ,");
    }
    if (failed(Base::initializeOptions(options, errorHandler)))
      return failure();
    if (bare)
      format = *bare;
    if (std::string error = validate(); !error.empty())
      return errorHandler(getArgument() + ": " + error);
    return success();
  }

  /// An error message for bad option values, or "".
  std::string validate() {
    if (format != "text" && format != "json" && format != "dot")
      return "unknown format '" + format + "': expected text, json or dot";
    if (strategy != "all" && !parsePlannedStrategy(strategy))
      return "unknown fusion strategy '" + strategy +
             "': expected pointwise, nnc, nvfuser, aggressive or all";
    return "";
  }

  void runOnOperation() override {
    markAllAnalysesPreserved();
    if (std::string error = validate(); !error.empty()) {
      emitError(getOperation().getLoc()) << "ts-fusion-report: " << error;
      return signalPassFailure();
    }
    SmallVector<Strategy> strategies;
    if (strategy == "all")
      llvm::append_range(strategies, getAllStrategies());
    else
      strategies.push_back(*parsePlannedStrategy(strategy));

    AsmState state(getOperation());
    SmallVector<FunctionReport, 0> functions;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      FunctionReport &function = functions.emplace_back();
      function.func = func;
      for (Strategy s : strategies)
        function.strategies.push_back(buildReport(func, s, minSize, state));
    }

    std::unique_ptr<llvm::ToolOutputFile> file;
    raw_ostream *os = &llvm::errs();
    if (!output.empty()) {
      std::string message;
      file = openOutputFile(output, &message);
      if (!file) {
        emitError(getOperation().getLoc()) << "ts-fusion-report: " << message;
        return signalPassFailure();
      }
      os = &file->os();
    }
    if (format == "json") {
      printJSON(*os, functions);
    } else if (format == "dot") {
      for (const FunctionReport &function : functions)
        for (const StrategyReport &report : function.strategies)
          DotPrinter(*os, function.func, report).print();
    } else {
      printText(*os, functions);
    }
    os->flush();
    if (file)
      file->keep();
  }
};
} // namespace
