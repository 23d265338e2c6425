//===- FusionPlanner.cpp - Which ops run as one kernel --------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Groups grow backwards from their last op, as PyTorch's fusers do: each
// block is walked from its end; an op no group holds yet starts a group (its
// anchor), which then pulls in the producers of its ops. The group will run
// where its anchor is, so a producer may join only when
//   * every user it has outside the group comes after the anchor (otherwise
//     that user would run before the value exists; when that user also
//     feeds the group, joining would make a cycle), and
//   * no op between it and the anchor writes memory (the group moves its
//     reads past those ops).
// Together these keep every group acyclic and every side effect in order,
// and each producer is looked at once per group that wants it, so planning
// is near-linear in the size of the graph. The aggressive strategy then
// merges groups that read a common input and do not depend on each other.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/Fusion/Transforms/FusionPlanner.h"

#include "tsmlir/Dialect/TorchScript/IR/Aliasing.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptDialect.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::fusion;

bool fusion::isConstantLike(Operation *op) {
  if (llvm::isa<ts::PrimConstantOp>(op))
    return true;
  auto list = llvm::dyn_cast<ts::PrimListConstructOp>(op);
  return list && ts::isUnmodifiedList(list.getResult()) &&
         llvm::all_of(list.getElements(), [](Value element) {
           return element.getDefiningOp<ts::PrimConstantOp>();
         });
}

/// The ops of `ops` that count towards min-size: list constructions do not.
static int64_t countSized(ArrayRef<Operation *> ops) {
  return llvm::count_if(ops, [](Operation *op) {
    return !llvm::isa<ts::PrimListConstructOp>(op);
  });
}

int64_t PlannedGroup::size() const { return countSized(ops); }

/// Whether `type` is or holds a tensor.
static bool holdsTensor(Type type) {
  if (llvm::isa<ts::TensorType>(type))
    return true;
  if (auto list = llvm::dyn_cast<ts::ListType>(type))
    return holdsTensor(list.getElementType());
  if (auto optional = llvm::dyn_cast<ts::OptionalType>(type))
    return holdsTensor(optional.getContainedType());
  return false;
}


/// Whether every tensor an op reads or writes has a known dtype and sizes.
/// Dynamic sizes (`?`, a dynamic specialisation) count as known for
/// pointwise ops, reductions and softmax, whose groups fuse as static ones
/// do; matrix products with dynamic sizes stay out of groups (their own
/// lowering takes them).
static bool hasKnownShapes(Operation *op, OpClass cls) {
  bool dynamicSizes = cls == OpClass::Pointwise || cls == OpClass::Reduction ||
                      cls == OpClass::Softmax;
  auto knownTensor = [&](Type type) {
    if (getTensorBytes(type))
      return true;
    auto tensor = llvm::dyn_cast<ts::TensorType>(type);
    return dynamicSizes && tensor && tensor.hasDtype() && tensor.hasSizes();
  };
  auto known = [&](Value value) {
    Type type = value.getType();
    if (auto list = llvm::dyn_cast<ts::ListType>(type)) {
      // A list of tensors for cat: its elements must be known.
      auto construct = value.getDefiningOp<ts::PrimListConstructOp>();
      if (!llvm::isa<ts::TensorType>(list.getElementType()))
        return true;
      return construct && llvm::all_of(construct.getElements(), [](Value e) {
               return getTensorBytes(e.getType()).has_value();
             });
    }
    return !llvm::isa<ts::TensorType>(type) || knownTensor(type);
  };
  return llvm::all_of(op->getOperands(), known) &&
         llvm::all_of(op->getResults(), known);
}

namespace {
/// Plans the groups of one block.
class BlockPlanner {
public:
  BlockPlanner(Block &block, const FusionOptions &options, FusionPlan &plan)
      : block(block), options(options), plan(plan) {}

  void run();

private:
  /// Whether `op` may be in a group, or why not (nullopt: it may).
  std::optional<Reason> getExclusion(Operation *op);
  /// Pulls producers into the group anchored at `anchor`.
  void grow(unsigned group, Operation *anchor);
  /// Whether `producer` may join `group`; otherwise records why not.
  bool canJoin(Operation *producer, unsigned group, Operation *consumer);
  /// Whether some op outside `group`, reachable from `from`, feeds it.
  bool feedsGroup(Operation *from, unsigned group);
  /// The aggressive strategy: merges independent groups with a common input.
  void mergeHorizontally();
  bool canMerge(unsigned early, unsigned late);
  Operation *ancestorInBlock(Operation *op) {
    return block.findAncestorOpInBlock(*op);
  }
  /// Whether `op` (possibly null) is in `group`.
  bool isIn(Operation *op, unsigned group) const {
    auto it = op ? groupOf.find(op) : groupOf.end();
    return it != groupOf.end() && it->second == group;
  }
  void finish();

  Block &block;
  const FusionOptions &options;
  FusionPlan &plan;
  llvm::DenseMap<Operation *, unsigned> position;
  /// Ops that write memory before each position (prefix counts).
  SmallVector<unsigned> writesBefore;
  /// The group of each grouped op.
  llvm::DenseMap<Operation *, unsigned> groupOf;
  struct Group {
    SmallVector<Operation *> ops;
    Operation *anchor = nullptr;
    unsigned matmuls = 0;
    bool alive = true;
  };
  SmallVector<Group> groups;
  /// Why a fusible op was refused by the last group that wanted it.
  llvm::DenseMap<Operation *, Reason> refusals;
  llvm::DenseMap<Operation *, std::optional<Reason>> exclusions;
};
} // namespace

std::optional<Reason> BlockPlanner::getExclusion(Operation *op) {
  auto it = exclusions.find(op);
  if (it != exclusions.end())
    return it->second;
  std::optional<Reason> reason;
  OpClass cls = classifyOp(op);
  auto effects = llvm::dyn_cast<MemoryEffectOpInterface>(op);
  if (effects && effects.hasEffect<MemoryEffects::Write>())
    reason = Reason::SideEffect; // in-place ops, prints: whatever the class
  else if (cls == OpClass::Unsupported)
    reason = Reason::UnsupportedKind;
  else if (cls == OpClass::Scalar)
    reason = Reason::UnsupportedKind; // constants are cloned, not grouped
  else if (!strategyFuses(options.strategy, cls))
    reason = Reason::StrategyExcludes;
  else if (ts::mayWriteMemory(op))
    reason = Reason::SideEffect;
  else if (!hasKnownShapes(op, cls))
    reason = Reason::UnknownShape;
  exclusions[op] = reason;
  return reason;
}

bool BlockPlanner::feedsGroup(Operation *from, unsigned group) {
  unsigned limit = position[groups[group].anchor];
  SmallVector<Operation *> worklist{from};
  llvm::DenseSet<Operation *> seen{from};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers()) {
        Operation *ancestor = ancestorInBlock(user);
        if (!ancestor || position[ancestor] > limit)
          continue;
        if (isIn(ancestor, group))
          return true;
        if (seen.insert(ancestor).second)
          worklist.push_back(ancestor);
      }
  }
  return false;
}

bool BlockPlanner::canJoin(Operation *producer, unsigned group,
                           Operation *consumer) {
  Group &g = groups[group];
  unsigned anchorPos = position[g.anchor];
  // A list of tensors joins with its cat or stack, when nothing else uses it.
  if (llvm::isa<ts::PrimListConstructOp>(producer)) {
    return llvm::all_of(producer->getUsers(),
                        [&](Operation *user) { return isIn(user, group); });
  }
  if (options.strategy == Strategy::Aggressive) {
    // A product keeps its operands outside: the group is the product and
    // its epilogue, and holds one product.
    if (llvm::any_of(producer->getUsers(), [&](Operation *user) {
          return classifyOp(user) == OpClass::Matmul && isIn(user, group);
        }))
      return false;
    if (classifyOp(producer) == OpClass::Matmul &&
        (g.matmuls > 0 ||
         llvm::any_of(producer->getOperands(), [&](Value operand) {
           return isIn(operand.getDefiningOp(), group);
         })))
      return false;
  }
  // Every early user is looked at, so that the reason does not depend on
  // the order of the uses: a cycle through any of them is the reason.
  std::optional<Reason> refusal;
  for (Value result : producer->getResults())
    for (Operation *user : result.getUsers()) {
      Operation *ancestor = ancestorInBlock(user);
      if (!ancestor)
        continue;
      if (isIn(ancestor, group))
        continue;
      if (position[ancestor] < anchorPos &&
          refusal != Reason::WouldCreateCycle)
        refusal = feedsGroup(ancestor, group) ? Reason::WouldCreateCycle
                                              : Reason::OutsideUseBetween;
    }
  if (refusal) {
    refusals[producer] = *refusal;
    return false;
  }
  if (writesBefore[anchorPos] != writesBefore[position[producer] + 1]) {
    refusals[producer] = Reason::SideEffect;
    return false;
  }
  return true;
}

void BlockPlanner::grow(unsigned group, Operation *anchor) {
  SmallVector<Operation *> worklist{anchor};
  while (!worklist.empty()) {
    Operation *consumer = worklist.pop_back_val();
    for (Value operand : consumer->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (!producer || producer->getBlock() != &block ||
          groupOf.count(producer) || getExclusion(producer))
        continue;
      if (!canJoin(producer, group, consumer))
        continue;
      groupOf[producer] = group;
      groups[group].ops.push_back(producer);
      if (classifyOp(producer) == OpClass::Matmul)
        ++groups[group].matmuls;
      worklist.push_back(producer);
    }
  }
}

bool BlockPlanner::canMerge(unsigned early, unsigned late) {
  // `early`'s ops move to `late`'s anchor: nothing between may use them or
  // write, and `late` must not depend on `early` (the first check ensures
  // it: nothing before the anchor uses `early`).
  unsigned latePos = position[groups[late].anchor];
  unsigned first = latePos;
  for (Operation *op : groups[early].ops) {
    first = std::min(first, position[op]);
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers()) {
        Operation *ancestor = ancestorInBlock(user);
        if (!ancestor)
          continue;
        if (isIn(ancestor, early))
          continue;
        if (position[ancestor] <= latePos)
          return false;
      }
  }
  if (options.strategy == Strategy::Aggressive &&
      groups[early].matmuls + groups[late].matmuls > 1)
    return false;
  return writesBefore[latePos] == writesBefore[first];
}

void BlockPlanner::mergeHorizontally() {
  // Groups by the inputs they read; merge each pair in anchor order.
  llvm::DenseMap<Value, SmallVector<unsigned>> readers;
  for (auto [index, g] : llvm::enumerate(groups)) {
    if (!g.alive)
      continue;
    llvm::SmallSetVector<Value, 8> inputs;
    for (Operation *op : g.ops)
      for (Value operand : op->getOperands()) {
        if (llvm::isa<ts::TensorType>(operand.getType()) &&
            !isIn(operand.getDefiningOp(), index))
          inputs.insert(operand);
      }
    for (Value input : inputs)
      readers[input].push_back(index);
  }
  // Visit inputs in a stable order: by the first group that reads them.
  SmallVector<std::pair<unsigned, Value>> order;
  for (auto &[value, list] : readers)
    order.push_back({list.front(), value});
  llvm::sort(order, [&](auto &a, auto &b) {
    if (a.first != b.first)
      return a.first < b.first;
    return readers[a.second].size() > readers[b.second].size();
  });
  // Union-find over merged groups.
  SmallVector<unsigned> parent(groups.size());
  for (unsigned i = 0; i < parent.size(); ++i)
    parent[i] = i;
  auto find = [&](unsigned i) {
    while (parent[i] != i)
      i = parent[i] = parent[parent[i]];
    return i;
  };
  for (auto &[first, value] : order) {
    SmallVector<unsigned> list;
    for (unsigned g : readers[value])
      if (!llvm::is_contained(list, find(g)))
        list.push_back(find(g));
    llvm::sort(list, [&](unsigned a, unsigned b) {
      return position[groups[a].anchor] < position[groups[b].anchor];
    });
    for (unsigned i = 1; i < list.size(); ++i) {
      unsigned early = find(list[i - 1]), late = find(list[i]);
      if (early == late || !canMerge(early, late))
        continue;
      for (Operation *op : groups[early].ops) {
        groupOf[op] = late;
        groups[late].ops.push_back(op);
      }
      groups[late].matmuls += groups[early].matmuls;
      groups[early].ops.clear();
      groups[early].alive = false;
      parent[early] = late;
    }
  }
}

void BlockPlanner::run() {
  writesBefore.reserve(block.getOperations().size() + 1);
  writesBefore.push_back(0);
  unsigned index = 0;
  for (Operation &op : block) {
    position[&op] = index++;
    writesBefore.push_back(writesBefore.back() +
                           (ts::mayWriteMemory(&op) ? 1 : 0));
  }
  for (Operation &op : llvm::reverse(block)) {
    if (groupOf.count(&op) || getExclusion(&op))
      continue;
    unsigned group = groups.size();
    groups.push_back({{&op}, &op, classifyOp(&op) == OpClass::Matmul, true});
    groupOf[&op] = group;
    grow(group, &op);
    if (groups[group].ops.size() == 1 ||
        countSized(groups[group].ops) < options.minSize) {
      // Too small: its ops may still start or join a later group.
      for (Operation *member : groups[group].ops) {
        groupOf.erase(member);
        refusals.try_emplace(member, Reason::TooSmall);
      }
      groups[group].alive = false;
      groups[group].ops.clear();
    }
  }
  if (options.strategy == Strategy::Aggressive)
    mergeHorizontally();
  finish();
}

void BlockPlanner::finish() {
  for (Group &g : groups) {
    if (!g.alive)
      continue;
    llvm::sort(g.ops, [&](Operation *a, Operation *b) {
      return position[a] < position[b];
    });
    PlannedGroup planned;
    planned.ops = g.ops;
    llvm::DenseSet<Operation *> members(g.ops.begin(), g.ops.end());
    llvm::SetVector<Value> inputs;
    for (Operation *op : g.ops)
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (def && (members.contains(def) || isConstantLike(def)))
          continue;
        inputs.insert(operand);
      }
    planned.inputs = inputs.takeVector();
    for (Operation *op : g.ops)
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              Operation *ancestor = ancestorInBlock(user);
              return !ancestor || !members.contains(ancestor);
            }))
          planned.outputs.push_back(result);
    plan.groups.push_back(std::move(planned));
  }
  for (Operation &op : block) {
    if (groupOf.count(&op))
      continue;
    if (!llvm::isa_and_nonnull<ts::TorchScriptDialect>(op.getDialect()) ||
        llvm::isa<ts::PrimConstantOp>(op))
      continue;
    OpClass cls = classifyOp(&op);
    if (!llvm::any_of(op.getResultTypes(), holdsTensor) &&
        cls == OpClass::Unsupported)
      continue;
    std::optional<Reason> reason = getExclusion(&op);
    if (!reason) {
      auto it = refusals.find(&op);
      reason = it != refusals.end() ? it->second : Reason::TooSmall;
    }
    plan.reasons[&op] = *reason;
    plan.unfused.push_back(&op);
  }
}

FusionPlan fusion::planFusion(func::FuncOp func, const FusionOptions &options) {
  FusionPlan plan;
  plan.strategy = options.strategy;
  func.walk<WalkOrder::PreOrder>([&](Block *block) {
    BlockPlanner(*block, options, plan).run();
  });
  return plan;
}
