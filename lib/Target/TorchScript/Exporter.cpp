//===- Exporter.cpp - The ts dialect to TorchScript IR text ---------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Prints as PyTorch's `Graph::print` does: value names from the locations the
// importer left (fresh numbers otherwise), `# file:line:col` comments from
// source locations, group nodes as `kind_N` with their subgraphs after the
// graph, and each op's TorchScript kind.
//
//===----------------------------------------------------------------------===//

#include "Format.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"
#include "tsmlir/Dialect/TorchScript/IR/NodeKind.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/ValueNames.h"
#include "tsmlir/Target/TorchScript/Export.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::torchscript;
namespace ts = mlir::tsmlir::ts;

/// Whether `op` prints as `kind_N` with a subgraph after the graph.
static bool hasSubgraph(Operation *op);

namespace {

/// Attributes that are part of an op's structure, not node attributes.
bool isStructuralAttr(Operation *op, llvm::StringRef name) {
  if (llvm::isa<ts::OperatorOp>(op) && name == "Subgraph")
    return hasSubgraph(op);
  if (llvm::isa<ts::PrimConstantOp>(op))
    return name == "value";
  return !name.starts_with(ts::kNodeAttrPrefix) &&
         ts::isStructuralAttrName(op->getName().getStringRef(), name);
}

/// The TorchScript name of a node attribute.
llvm::StringRef getNodeAttrName(NamedAttribute attr) {
  llvm::StringRef name = attr.getName().getValue();
  name.consume_front(ts::kNodeAttrPrefix);
  return name;
}

/// PyTorch prints attributes in the order they were set; these are the
/// orders its passes use. Others follow alphabetically.
int getAttrRank(llvm::StringRef name) {
  static const char *const kOrder[] = {"value",   "name",          "fallback",
                                       "chunks",  "dim",           "types",
                                       "profiled_type", "seen_none"};
  for (auto [i, known] : llvm::enumerate(kOrder))
    if (name == known)
      return static_cast<int>(i);
  return static_cast<int>(std::size(kOrder));
}

class Exporter {
public:
  explicit Exporter(llvm::raw_ostream &os) : os(os) {}
  LogicalResult printGraph(Block &body);

private:
  struct Graph {
    llvm::DenseMap<Value, std::string> names;
    llvm::StringSet<> used;
    llvm::StringSet<> reserved;
    unsigned next = 0;
    std::vector<Operation *> groups;
  };

  void reserveNames(Graph &graph, Block &body);
  const std::string &nameValue(Graph &graph, Value value,
                               llvm::StringRef preferred);
  LogicalResult printValueRef(Graph &graph, Value value);
  LogicalResult printDefs(Graph &graph, llvm::ArrayRef<Value> values,
                          llvm::ArrayRef<llvm::StringRef> names,
                          llvm::StringRef separator);
  LogicalResult printUses(Graph &graph, ValueRange values);
  LogicalResult printNode(Graph &graph, Operation *op, unsigned level);
  LogicalResult printKind(Operation *op);
  LogicalResult printAttributes(Operation *op);
  LogicalResult printAttrValue(Operation *op, llvm::StringRef name,
                               Attribute value);
  LogicalResult printConstantValue(Operation *op, Attribute value, Type type);
  LogicalResult printBlocks(Graph &graph, Operation *op, unsigned level);

  llvm::raw_ostream &os;
};

} // namespace

void Exporter::reserveNames(Graph &graph, Block &body) {
  for (BlockArgument arg : body.getArguments())
    if (llvm::StringRef name = ts::getArgumentName(arg); !name.empty())
      graph.reserved.insert(name);
  // Subgraphs are separate graphs: do not look into them.
  body.walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (llvm::StringRef name : ts::getResultNames(op))
      if (!name.empty())
        graph.reserved.insert(name);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (llvm::StringRef name = ts::getArgumentName(arg); !name.empty())
            graph.reserved.insert(name);
    if (llvm::isa<fusion::GroupOp, fusion::DifferentiableGraphOp>(op) ||
        (llvm::isa<ts::OperatorOp>(op) && op->hasAttr("Subgraph")))
      return WalkResult::skip();
    return WalkResult::advance();
  });
}

const std::string &Exporter::nameValue(Graph &graph, Value value,
                                       llvm::StringRef preferred) {
  std::string name;
  if (!preferred.empty() && !graph.used.contains(preferred)) {
    name = preferred.str();
  } else {
    do {
      name = std::to_string(graph.next++);
    } while (graph.used.contains(name) || graph.reserved.contains(name));
  }
  graph.used.insert(name);
  return graph.names[value] = std::move(name);
}

LogicalResult Exporter::printValueRef(Graph &graph, Value value) {
  auto it = graph.names.find(value);
  if (it == graph.names.end()) {
    Operation *user = value.getDefiningOp() ? value.getDefiningOp()
                                            : value.getParentBlock()
                                                  ->getParentOp();
    return emitError(user->getLoc(),
                     "value is used outside the graph that defines it");
  }
  os << "%" << it->second;
  return success();
}

LogicalResult Exporter::printDefs(Graph &graph, llvm::ArrayRef<Value> values,
                                  llvm::ArrayRef<llvm::StringRef> names,
                                  llvm::StringRef separator) {
  for (auto [i, v] : llvm::enumerate(values)) {
    Value value = v;
    if (i)
      os << separator;
    os << "%" << nameValue(graph, value, names[i]) << " : ";
    if (!printType(os, value.getType())) {
      Operation *owner = value.getDefiningOp()
                             ? value.getDefiningOp()
                             : value.getParentBlock()->getParentOp();
      return emitError(owner->getLoc())
             << "type " << value.getType() << " has no TorchScript form";
    }
  }
  return success();
}

LogicalResult Exporter::printUses(Graph &graph, ValueRange values) {
  os << "(";
  for (auto [i, value] : llvm::enumerate(values)) {
    if (i)
      os << ", ";
    if (failed(printValueRef(graph, value)))
      return failure();
  }
  os << ")";
  return success();
}

LogicalResult Exporter::printGraph(Block &body) {
  Graph graph;
  reserveNames(graph, body);
  os << "graph(";
  llvm::SmallVector<Value> args(body.getArguments());
  llvm::SmallVector<llvm::StringRef> argNames;
  for (BlockArgument arg : body.getArguments())
    argNames.push_back(ts::getArgumentName(arg));
  if (failed(printDefs(graph, args, argNames, ",\n      ")))
    return failure();
  os << "):\n";
  for (Operation &op : body.without_terminator())
    if (failed(printNode(graph, &op, 1)))
      return failure();
  Operation *terminator = body.getTerminator();
  os << "  return ";
  if (failed(printUses(graph, terminator->getOperands())))
    return failure();
  os << "\n";
  for (auto [i, group] : llvm::enumerate(graph.groups)) {
    os << "with ";
    if (failed(printKind(group)))
      return failure();
    os << "_" << i << " = ";
    if (failed(printGraph(group->getRegion(0).front())))
      return failure();
  }
  return success();
}

/// The TorchScript kind of an op: ts.aten.add.Tensor -> aten::add.
static std::string getKind(Operation *op) {
  if (auto operatorOp = llvm::dyn_cast<ts::OperatorOp>(op))
    return operatorOp.getKind().str();
  if (auto group = llvm::dyn_cast<fusion::GroupOp>(op)) {
    fusion::Strategy strategy = group.getStrategy();
    if (strategy == fusion::Strategy::Pointwise)
      return "prim::FusionGroup";
    if (strategy == fusion::Strategy::NVFuser)
      return "prim::CudaFusionGroup";
    return "prim::TensorExprGroup";
  }
  if (llvm::isa<fusion::DifferentiableGraphOp>(op))
    return "prim::DifferentiableGraph";
  return ts::getNodeKind(op);
}

static bool hasSubgraph(Operation *op) {
  return llvm::isa<fusion::GroupOp, fusion::DifferentiableGraphOp>(op) ||
         (llvm::isa<ts::OperatorOp>(op) && op->hasAttr("Subgraph") &&
          op->getNumRegions() == 1 && !op->getRegion(0).empty());
}

LogicalResult Exporter::printKind(Operation *op) {
  std::string kind = getKind(op);
  if (kind.empty() || llvm::isa<fusion::GuardOp, fusion::GuardedOp>(op))
    return emitError(op->getLoc())
           << "'" << op->getName() << "' has no TorchScript form";
  os << kind;
  return success();
}

LogicalResult Exporter::printNode(Graph &graph, Operation *op,
                                  unsigned level) {
  os.indent(level * 2);
  llvm::SmallVector<Value> results(op->getResults());
  if (failed(printDefs(graph, results, ts::getResultNames(op), ", ")))
    return failure();
  os << " = ";
  if (failed(printKind(op)))
    return failure();
  if (hasSubgraph(op)) {
    os << "_" << graph.groups.size();
    graph.groups.push_back(op);
    if (!llvm::isa<fusion::DifferentiableGraphOp>(op) &&
        failed(printAttributes(op)))
      return failure();
  } else if (failed(printAttributes(op))) {
    return failure();
  }
  if (failed(printUses(graph, op->getOperands())))
    return failure();
  if (llvm::StringRef scope = ts::getScope(op->getLoc()); !scope.empty())
    os << ", scope: " << scope;
  if (FileLineColLoc source = ts::getSourceLoc(op->getLoc()))
    os << " # " << source.getFilename().getValue() << ":" << source.getLine()
       << ":" << source.getColumn();
  os << "\n";
  if (hasSubgraph(op))
    return success();
  return printBlocks(graph, op, level);
}

LogicalResult Exporter::printBlocks(Graph &graph, Operation *op,
                                    unsigned level) {
  unsigned index = 0;
  for (Region &region : op->getRegions()) {
    for (Block &block : region) {
      os.indent((level + 1) * 2) << "block" << index++ << "(";
      llvm::SmallVector<Value> args(block.getArguments());
      llvm::SmallVector<llvm::StringRef> names;
      for (BlockArgument arg : block.getArguments())
        names.push_back(ts::getArgumentName(arg));
      if (failed(printDefs(graph, args, names, ", ")))
        return failure();
      os << "):\n";
      for (Operation &nested : block.without_terminator())
        if (failed(printNode(graph, &nested, level + 2)))
          return failure();
      os.indent((level + 2) * 2) << "-> ";
      if (!block.empty() && block.back().hasTrait<OpTrait::IsTerminator>()) {
        if (failed(printUses(graph, block.back().getOperands())))
          return failure();
      } else {
        os << "()";
      }
      os << "\n";
    }
  }
  return success();
}

LogicalResult Exporter::printAttributes(Operation *op) {
  llvm::SmallVector<NamedAttribute> attrs;
  for (NamedAttribute attr : op->getAttrDictionary())
    if (!isStructuralAttr(op, attr.getName().getValue()))
      attrs.push_back(attr);
  Attribute constantValue;
  if (auto constant = llvm::dyn_cast<ts::PrimConstantOp>(op))
    constantValue = constant.getValueAttr();
  // Names are unique, so the order is total.
  llvm::sort(attrs, [](NamedAttribute a, NamedAttribute b) {
    int ra = getAttrRank(getNodeAttrName(a));
    int rb = getAttrRank(getNodeAttrName(b));
    if (ra != rb)
      return ra < rb;
    return getNodeAttrName(a) < getNodeAttrName(b);
  });
  if (attrs.empty() && !constantValue)
    return success();
  os << "[";
  bool first = true;
  if (constantValue) {
    os << "value=";
    if (failed(printConstantValue(op, constantValue, op->getResult(0).getType())))
      return failure();
    first = false;
  }
  for (NamedAttribute attr : attrs) {
    if (!first)
      os << ", ";
    first = false;
    os << getNodeAttrName(attr) << "=";
    if (failed(printAttrValue(op, getNodeAttrName(attr), attr.getValue())))
      return failure();
  }
  os << "]";
  return success();
}

LogicalResult Exporter::printAttrValue(Operation *op, llvm::StringRef name,
                                       Attribute value) {
  if (auto b = llvm::dyn_cast<BoolAttr>(value)) {
    os << (b.getValue() ? "True" : "False");
  } else if (auto i = llvm::dyn_cast<IntegerAttr>(value)) {
    os << i.getValue().getSExtValue();
  } else if (auto f = llvm::dyn_cast<FloatAttr>(value)) {
    printDouble(os, f.getValueAsDouble());
  } else if (auto s = llvm::dyn_cast<StringAttr>(value)) {
    printQuotedString(os, s.getValue());
  } else if (auto t = llvm::dyn_cast<TypeAttr>(value)) {
    if (!printType(os, t.getValue()))
      return emitError(op->getLoc())
             << "attribute '" << name << "' holds a non-TorchScript type";
  } else if (auto array = llvm::dyn_cast<ArrayAttr>(value)) {
    os << "[";
    for (auto [i, element] : llvm::enumerate(array)) {
      if (i)
        os << ", ";
      if (failed(printAttrValue(op, name, element)))
        return failure();
    }
    os << "]";
  } else if (auto dict = llvm::dyn_cast<DictionaryAttr>(value)) {
    os << "{";
    for (auto [i, entry] : llvm::enumerate(dict)) {
      if (i)
        os << ", ";
      printQuotedString(os, entry.getName().getValue());
      os << ": ";
      if (failed(printAttrValue(op, name, entry.getValue())))
        return failure();
    }
    os << "}";
  } else if (auto elements = llvm::dyn_cast<ElementsAttr>(value)) {
    printTensorValue(os, elements);
  } else if (llvm::isa<UnitAttr>(value)) {
    os << (name.contains("Subgraph") || name.contains("graph") ? "<Graph>"
                                                                : "<Tensor>");
  } else {
    return emitError(op->getLoc())
           << "attribute '" << name << "' has no TorchScript form: " << value;
  }
  return success();
}

LogicalResult Exporter::printConstantValue(Operation *op, Attribute value,
                                           Type type) {
  if (auto optional = llvm::dyn_cast<ts::OptionalType>(type))
    return printConstantValue(op, value, optional.getContainedType());
  if (auto b = llvm::dyn_cast<BoolAttr>(value)) {
    os << (b.getValue() ? 1 : 0);
    return success();
  }
  if (auto list = llvm::dyn_cast<ts::ListType>(type)) {
    auto array = llvm::dyn_cast<ArrayAttr>(value);
    if (!array)
      return emitError(op->getLoc()) << "list constant without an array value";
    if (array.empty()) {
      os << "annotate(";
      printPythonType(os, list);
      os << ", [])";
      return success();
    }
    os << "[";
    for (auto [i, element] : llvm::enumerate(array)) {
      if (i)
        os << ", ";
      if (auto b = llvm::dyn_cast<BoolAttr>(element)) {
        os << (b.getValue() ? "True" : "False");
        continue;
      }
      if (failed(printConstantValue(op, element, list.getElementType())))
        return failure();
    }
    os << "]";
    return success();
  }
  if (auto tuple = llvm::dyn_cast<ts::TupleType>(type)) {
    auto array = llvm::dyn_cast<ArrayAttr>(value);
    if (!array || array.size() != tuple.getElementTypes().size())
      return emitError(op->getLoc()) << "tuple constant without its values";
    os << "(";
    for (auto [i, pair] :
         llvm::enumerate(llvm::zip_equal(array, tuple.getElementTypes()))) {
      if (i)
        os << ", ";
      auto [element, elementType] = pair;
      if (auto b = llvm::dyn_cast<BoolAttr>(element)) {
        os << (b.getValue() ? "True" : "False");
        continue;
      }
      if (failed(printConstantValue(op, element, elementType)))
        return failure();
    }
    if (array.size() == 1)
      os << ",";
    os << ")";
    return success();
  }
  return printAttrValue(op, "value", value);
}

LogicalResult mlir::tsmlir::exportTorchScript(Operation *op,
                                              llvm::raw_ostream &os) {
  func::FuncOp func;
  if (auto module = llvm::dyn_cast<ModuleOp>(op)) {
    for (auto candidate : module.getOps<func::FuncOp>()) {
      if (func)
        return emitError(candidate.getLoc(),
                         "a TorchScript graph is one function; this module "
                         "has more than one");
      func = candidate;
    }
    if (!func)
      return emitError(op->getLoc(), "module holds no function to export");
  } else {
    func = llvm::dyn_cast<func::FuncOp>(op);
    if (!func)
      return emitError(op->getLoc(), "expected a module or a func.func");
  }
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return emitError(func.getLoc(),
                     "expected a function with a body of one block");
  // Print to a buffer so that nothing is written on error.
  std::string text;
  llvm::raw_string_ostream buffer(text);
  Exporter exporter(buffer);
  if (failed(exporter.printGraph(func.getBody().front())))
    return failure();
  os << text;
  return success();
}
