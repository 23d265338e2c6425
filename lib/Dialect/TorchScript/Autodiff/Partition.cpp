//===- Partition.cpp - The min-cut save policy ----------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A maximum flow (Dinic's algorithm) on the joint graph that Partition.h
// describes; the minimum cut is read off the residual graph: the nodes the
// source still reaches are the source side. A value whose in-node is on the
// source side and out-node on the sink side is saved; an op with a result
// whose in-node is on the sink side is recomputed.
//
//===----------------------------------------------------------------------===//

#include "Partition.h"

#include "tsmlir/Dialect/Fusion/Transforms/FusionPlanner.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"

#include <deque>
#include <limits>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::autodiff;

namespace {
/// A flow network with integer capacities, for Dinic's algorithm.
class FlowNetwork {
public:
  static constexpr int64_t kInfinite = int64_t(1) << 60;

  explicit FlowNetwork(unsigned numNodes) : edges(numNodes) {}

  void addEdge(unsigned from, unsigned to, int64_t capacity) {
    edges[from].push_back({to, capacity, unsigned(edges[to].size())});
    edges[to].push_back({from, 0, unsigned(edges[from].size() - 1)});
  }

  /// Pushes the maximum flow from `source` to `sink`.
  void maxFlow(unsigned source, unsigned sink) {
    while (buildLevels(source, sink)) {
      next.assign(edges.size(), 0);
      while (push(source, sink, kInfinite) > 0) {
      }
    }
  }

  /// The nodes `source` reaches in the residual graph: the source side of
  /// a minimum cut once maxFlow has run.
  std::vector<bool> sourceSide(unsigned source) const {
    std::vector<bool> seen(edges.size(), false);
    std::deque<unsigned> queue{source};
    seen[source] = true;
    while (!queue.empty()) {
      unsigned node = queue.front();
      queue.pop_front();
      for (const Edge &e : edges[node])
        if (e.capacity > 0 && !seen[e.to]) {
          seen[e.to] = true;
          queue.push_back(e.to);
        }
    }
    return seen;
  }

private:
  struct Edge {
    unsigned to;
    int64_t capacity;
    unsigned reverse;
  };
  std::vector<std::vector<Edge>> edges;
  std::vector<int> level;
  std::vector<unsigned> next;

  bool buildLevels(unsigned source, unsigned sink) {
    level.assign(edges.size(), -1);
    std::deque<unsigned> queue{source};
    level[source] = 0;
    while (!queue.empty()) {
      unsigned node = queue.front();
      queue.pop_front();
      for (const Edge &e : edges[node])
        if (e.capacity > 0 && level[e.to] < 0) {
          level[e.to] = level[node] + 1;
          queue.push_back(e.to);
        }
    }
    return level[sink] >= 0;
  }

  int64_t push(unsigned node, unsigned sink, int64_t limit) {
    if (node == sink)
      return limit;
    for (unsigned &i = next[node]; i < edges[node].size(); ++i) {
      Edge &e = edges[node][i];
      if (e.capacity <= 0 || level[e.to] != level[node] + 1)
        continue;
      int64_t pushed = push(e.to, sink, std::min(limit, e.capacity));
      if (pushed > 0) {
        e.capacity -= pushed;
        edges[e.to][e.reverse].capacity += pushed;
        return pushed;
      }
    }
    return 0;
  }
};
} // namespace

bool autodiff::isContainerConstruct(Operation *op) {
  return llvm::isa<PrimListConstructOp, PrimTupleConstructOp>(op);
}

bool autodiff::writesNothing(Operation *op) {
  auto effects = llvm::dyn_cast<MemoryEffectOpInterface>(op);
  return effects && !effects.hasEffect<MemoryEffects::Write>() &&
         !effects.hasEffect<MemoryEffects::Free>();
}

bool autodiff::isRecomputable(Operation *op) {
  if (isContainerConstruct(op))
    return true;
  if (op->getNumRegions() != 0)
    return false;
  if (!writesNothing(op))
    return false;
  switch (fusion::classifyOp(op)) {
  case fusion::OpClass::Pointwise:
  case fusion::OpClass::View:
  case fusion::OpClass::Scalar:
    return true;
  default:
    return false;
  }
}

std::optional<int64_t> autodiff::getSavedBytes(Value value) {
  if (llvm::isa<ts::TensorType>(value.getType()))
    return fusion::getTensorBytes(value.getType());
  return 8;
}

/// What saving a tensor of unknown sizes is taken to cost: more than any
/// tensor of known sizes is likely to, so that such a tensor is saved only
/// where nothing else will do.
static constexpr int64_t kUnknownBytes = int64_t(1) << 40;

DenseSet<Operation *> autodiff::chooseRecomputed(const JointGraph &graph) {
  // Nodes: 0 the source, 1 the sink, then an in- and an out-node for each
  // value of the graph.
  DenseMap<Value, unsigned> inNode;
  SmallVector<Value> values;
  auto addValue = [&](Value v) {
    if (graph.isFree(v) || inNode.count(v))
      return;
    inNode[v] = 2 + 2 * values.size();
    values.push_back(v);
  };
  for (BlockArgument arg : graph.arguments)
    addValue(arg);
  for (Operation *op : graph.forwardOps)
    for (Value r : op->getResults())
      addValue(r);

  const unsigned source = 0, sink = 1;
  FlowNetwork network(2 + 2 * values.size());
  DenseSet<Value> writtenAnyway(graph.forwardResults.begin(),
                                graph.forwardResults.end());
  for (BlockArgument arg : graph.arguments)
    writtenAnyway.insert(arg);
  for (Value v : values) {
    unsigned in = inNode[v];
    // Lists and tuples are never saved (the split makes them again).
    Operation *def = v.getDefiningOp();
    if (def && isContainerConstruct(def)) {
      network.addEdge(in, in + 1, FlowNetwork::kInfinite);
      continue;
    }
    int64_t bytes = getSavedBytes(v).value_or(kUnknownBytes);
    network.addEdge(in, in + 1, writtenAnyway.contains(v) ? bytes : 2 * bytes);
  }
  for (BlockArgument arg : graph.arguments)
    if (inNode.count(arg))
      network.addEdge(source, inNode[arg], FlowNetwork::kInfinite);
  for (Operation *op : graph.forwardOps) {
    bool recomputable = isRecomputable(op);
    // The values of the function's top level the op reads, in its regions
    // too.
    SmallVector<unsigned> operandNodes;
    Region *top = op->getParentRegion();
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands()) {
        auto it = inNode.find(v);
        if (v.getParentRegion() == top && it != inNode.end())
          operandNodes.push_back(it->second + 1);
      }
    });
    for (Value r : op->getResults()) {
      auto it = inNode.find(r);
      if (it == inNode.end())
        continue;
      if (!recomputable)
        network.addEdge(source, it->second, FlowNetwork::kInfinite);
      for (unsigned operand : operandNodes)
        network.addEdge(operand, it->second, FlowNetwork::kInfinite);
    }
  }
  for (Value v : graph.backwardReads) {
    auto it = inNode.find(v);
    if (it != inNode.end())
      network.addEdge(it->second + 1, sink, FlowNetwork::kInfinite);
  }
  network.maxFlow(source, sink);
  std::vector<bool> sourceSide = network.sourceSide(source);

  // The ops on the sink side that the backward needs: from what it reads,
  // back through the ops it recomputes.
  auto onSinkSide = [&](Value v) {
    auto it = inNode.find(v);
    return it != inNode.end() && !sourceSide[it->second];
  };
  DenseSet<Operation *> recomputed;
  SmallVector<Value> worklist(graph.backwardReads.begin(),
                              graph.backwardReads.end());
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!onSinkSide(v))
      continue;
    Operation *def = v.getDefiningOp();
    if (!def || !recomputed.insert(def).second)
      continue;
    for (Value operand : def->getOperands())
      worklist.push_back(operand);
  }
  return recomputed;
}
