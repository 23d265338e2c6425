//===- Inline.cpp - Inline prim::CallFunction and prim::CallMethod --------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// TorchScript's calls implement CallOpInterface (the callee is the function
// named after the called function or method), and the `ts` dialect's
// DialectInlinerInterface allows inlining its ops, so MLIR's inlineCall does
// the work: it clones the callee's body at the call, bridges refined and
// plain types with casts, and wraps the inlined ops' locations in call sites.
// This file drives it over a worklist, following calls into inlined bodies.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h"
#include "tsmlir/Dialect/TorchScript/Transforms/Transforms.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ts-inline"

namespace mlir::tsmlir::ts {
#define GEN_PASS_DEF_TSINLINEPASS
#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir::ts

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;

static bool isTorchScriptCall(Operation *op) {
  return llvm::isa<PrimCallFunctionOp, PrimCallMethodOp>(op);
}

static std::string getCalleeName(Operation *call) {
  if (auto function = llvm::dyn_cast<PrimCallFunctionOp>(call))
    return function.getCalleeName();
  return llvm::cast<PrimCallMethodOp>(call).getCalleeName();
}

/// Whether `op` may use `value` in place of its operand `use` of a supertype:
/// a `ts` op whose operand constraints accept it (no terminator, whose
/// operand types must match its parent's).
static bool acceptsSubtype(OpOperand &use, Value value) {
  Operation *user = use.getOwner();
  if (!llvm::isa<TorchScriptDialect>(user->getDialect()) ||
      user->hasTrait<mlir::OpTrait::IsTerminator>() || user->getNumRegions() != 0)
    return false;
  Value old = use.get();
  use.set(value);
  ScopedDiagnosticHandler silence(user->getContext(),
                                  [](Diagnostic &) { return success(); });
  bool valid =
      succeeded(user->getRegisteredInfo()->verifyInvariants(user));
  use.set(old);
  return valid;
}

/// MLIR's inliner bridges an argument of type `!ts.tensor` passed for a
/// parameter of type `!ts.optional<!ts.tensor>` with a cast, where
/// TorchScript passes the value itself. Uses the value itself where the
/// types allow, erasing the casts that become unused. The inliner puts the
/// casts of the arguments right before `call`, those of the results right
/// after the inlined body (before `next`, the op that followed the call),
/// at the call's location.
static void dropUpcasts(Operation *call, Operation *next) {
  llvm::SmallVector<PrimUncheckedCastOp> casts;
  auto collect = [&](Operation *op, auto step) {
    for (; op; op = step(op)) {
      auto cast = llvm::dyn_cast<PrimUncheckedCastOp>(op);
      if (!cast || cast.getLoc() != call->getLoc())
        return;
      casts.push_back(cast);
    }
  };
  collect(call->getPrevNode(), [](Operation *op) { return op->getPrevNode(); });
  collect(next->getPrevNode(), [](Operation *op) { return op->getPrevNode(); });
  for (PrimUncheckedCastOp cast : casts) {
    Value input = cast.getOperand();
    if (!isValidSubtype(input.getType(), cast.getType()))
      continue;
    for (OpOperand &use : llvm::make_early_inc_range(cast->getUses()))
      if (acceptsSubtype(use, input))
        use.set(input);
    if (cast->use_empty())
      cast->erase();
  }
}

namespace {
/// One inlined call: the function inlined, and the inlined call its call
/// came from (-1 for a call of the function being inlined into).
struct InlinedCall {
  func::FuncOp callee;
  int parent;
};
} // namespace

InlineCallsResult ts::inlineCalls(func::FuncOp func,
                                  SymbolTableCollection &symbolTables,
                                  const InlineCallsOptions &options) {
  InlineCallsResult result;
  InlinerInterface interface(func->getContext());
  llvm::SmallVector<InlinedCall> history;
  // Calls to visit, with the inlined call each came from.
  llvm::SmallVector<std::pair<Operation *, int>> worklist;
  func.walk([&](Operation *op) {
    if (isTorchScriptCall(op))
      worklist.push_back({op, -1});
  });

  llvm::SmallVector<Operation *> newCalls;
  // MLIR's default: clone the body before the block the call's block was
  // split into; also collect the calls the copy holds.
  auto cloneCallback = [&](OpBuilder &builder, Region *src, Block *inlineBlock,
                           Block *postInsertBlock, IRMapping &mapper,
                           bool shouldCloneInlinedRegion) {
    Region *insertRegion = inlineBlock->getParent();
    src->cloneInto(insertRegion, postInsertBlock->getIterator(), mapper);
    for (Block &block : llvm::make_range(std::next(inlineBlock->getIterator()),
                                         postInsertBlock->getIterator()))
      block.walk([&](Operation *op) {
        if (isTorchScriptCall(op))
          newCalls.push_back(op);
      });
  };

  // In program order: a call's body is inlined before the calls it holds.
  for (size_t i = 0; i < worklist.size(); ++i) {
    auto [op, parent] = worklist[i];
    std::string name = getCalleeName(op);
    auto keep = [&, op = op](const llvm::Twine &why) {
      ++result.numKept;
      LLVM_DEBUG(llvm::dbgs() << "keeping call of '" << name << "': " << why
                              << "\n");
      if (options.remarks)
        op->emitRemark() << "call left as it is: " << why;
    };

    auto call = llvm::cast<CallOpInterface>(op);
    auto callee = llvm::dyn_cast_or_null<func::FuncOp>(
        call.resolveCallableInTable(&symbolTables));
    if (!callee) {
      keep(name.empty() ? llvm::Twine("the callee is not a named function")
                        : "no function @\"" + name + "\" in the module");
      continue;
    }
    if (callee.isExternal() || !callee.getBody().hasOneBlock()) {
      keep("@\"" + name + "\" has no body of one block");
      continue;
    }
    bool recursive = callee == func;
    unsigned depth = 0;
    for (int node = parent; node >= 0; node = history[node].parent) {
      ++depth;
      recursive |= history[node].callee == callee;
    }
    if (recursive) {
      keep("recursive call of @\"" + name + "\"");
      continue;
    }
    if (depth >= options.maxDepth) {
      keep("more than " + llvm::Twine(options.maxDepth) +
           " nested inlined calls (max-depth)");
      continue;
    }
    if (callee.getNumArguments() != call.getArgOperands().size() ||
        callee.getNumResults() != op->getNumResults()) {
      keep("@\"" + name + "\" takes " + llvm::Twine(callee.getNumArguments()) +
           " arguments and returns " + llvm::Twine(callee.getNumResults()) +
           " values; the call passes " +
           llvm::Twine(call.getArgOperands().size()) + " and expects " +
           llvm::Twine(op->getNumResults()));
      continue;
    }

    newCalls.clear();
    Operation *next = op->getNextNode(); // The call is no terminator.
    if (failed(inlineCall(interface, cloneCallback, call,
                          llvm::cast<CallableOpInterface>(callee.getOperation()),
                          &callee.getBody(), /*shouldCloneInlinedRegion=*/true))) {
      keep("the types of @\"" + name + "\" do not fit the call");
      continue;
    }
    LLVM_DEBUG(llvm::dbgs() << "inlined '" << name << "' ("
                            << newCalls.size() << " calls in its body)\n");
    dropUpcasts(op, next);
    op->erase();
    ++result.numInlined;
    result.callees.insert(callee);
    int node = history.size();
    history.push_back({callee, parent});
    for (Operation *newCall : newCalls)
      worklist.push_back({newCall, node});
  }
  return result;
}

SmallVector<func::FuncOp>
ts::findDeadCallees(ModuleOp module, ArrayRef<func::FuncOp> candidates,
                    SymbolTableCollection &symbolTables) {
  // The functions a call can reach from a function that is not a private
  // candidate: the candidates that only dead candidates call are dead too.
  llvm::DenseSet<Operation *> isCandidate;
  for (func::FuncOp callee : candidates)
    if (callee.isPrivate())
      isCandidate.insert(callee);
  llvm::DenseSet<Operation *> live;
  llvm::SmallVector<Operation *> worklist;
  for (Operation &op : *module.getBody())
    if (!isCandidate.contains(&op)) {
      live.insert(&op);
      worklist.push_back(&op);
    }
  while (!worklist.empty()) {
    worklist.pop_back_val()->walk([&](CallOpInterface call) {
      if (!isTorchScriptCall(call))
        return;
      Operation *callee = call.resolveCallableInTable(&symbolTables);
      if (callee && live.insert(callee).second)
        worklist.push_back(callee);
    });
  }
  SmallVector<func::FuncOp> dead;
  for (func::FuncOp callee : candidates)
    if (isCandidate.contains(callee) && !live.contains(callee) &&
        SymbolTable::symbolKnownUseEmpty(callee, module))
      dead.push_back(callee);
  return dead;
}

namespace {
struct TSInlinePass : public ts::impl::TSInlinePassBase<TSInlinePass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    // Inlining a function's body replaces its func.return.
    registry.insert<func::FuncDialect>();
    func::registerInlinerExtension(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbolTables;
    InlineCallsOptions options{maxDepth, remarks};
    llvm::SetVector<func::FuncOp> callees;
    auto inlineInto = [&](func::FuncOp func) {
      InlineCallsResult result = inlineCalls(func, symbolTables, options);
      numInlined += result.numInlined;
      numKept += result.numKept;
      callees.insert(result.callees.begin(), result.callees.end());
    };
    auto privateCallees = [&] {
      return llvm::to_vector(llvm::make_filter_range(
          callees, [](func::FuncOp f) { return f.isPrivate(); }));
    };

    // The entry points first; then the private functions still called (or
    // all of them, when dead callees stay), so that no work goes into bodies
    // about to be erased.
    SmallVector<func::FuncOp> privates;
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (func.isExternal())
        continue;
      if (func.isPrivate())
        privates.push_back(func);
      else
        inlineInto(func);
    }
    llvm::DenseSet<func::FuncOp> dead;
    if (removeDeadCallees)
      for (func::FuncOp f :
           findDeadCallees(module, privateCallees(), symbolTables))
        dead.insert(f);
    for (func::FuncOp func : privates)
      if (!dead.contains(func))
        inlineInto(func);

    if (!removeDeadCallees)
      return;
    SymbolTable &symbolTable = symbolTables.getSymbolTable(module);
    for (func::FuncOp f :
         findDeadCallees(module, privateCallees(), symbolTables)) {
      symbolTable.erase(f);
      ++numErased;
    }
  }
};
} // namespace
