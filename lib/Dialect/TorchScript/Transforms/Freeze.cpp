//===- Freeze.cpp - Freeze module attributes into constants ---------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// torch.jit.freeze for the `ts` dialect: inline the module's methods, then
// alternate between binding the attribute reads nothing can modify to
// constants and folding, until no more reads can be bound. Folding can make
// more reads bindable: once `training` is false, the branches that update
// `num_batches_tracked` fold away, and `batch_norm` no longer writes its
// running statistics.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h"
#include "tsmlir/Dialect/TorchScript/Transforms/Transforms.h"

#include "tsmlir/Dialect/TorchScript/IR/Aliasing.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "ts-freeze"

namespace mlir::tsmlir::ts {
#define GEN_PASS_DEF_TSFREEZEPASS
#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir::ts

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;

/// The class name of an object type, or "".
static StringRef getClassName(Type type) {
  if (auto cls = llvm::dyn_cast<ts::ClassType>(type))
    return cls.getName();
  if (auto module = llvm::dyn_cast<ts::ModuleType>(type))
    return module.getName();
  if (auto opaque = llvm::dyn_cast<ts::OpaqueType>(type))
    return opaque.getText();
  return "";
}

static bool isObjectType(Type type) {
  return llvm::isa<ts::ClassType, ts::ModuleType, ts::OpaqueType>(type);
}

static bool isTensorLike(Type type) {
  if (auto optional = llvm::dyn_cast<ts::OptionalType>(type))
    type = optional.getContainedType();
  return llvm::isa<ts::TensorType>(type);
}

/// "class\0attribute": an attribute of every object of a class.
static std::string getClassAttrKey(Type objectType, StringRef name) {
  return (getClassName(objectType) + llvm::Twine('\0') + name).str();
}

static std::string joinPath(StringRef parent, StringRef name) {
  return parent.empty() ? name.str() : (parent + "." + name).str();
}

namespace {
/// One round of binding in one function.
class AttributeBinder {
public:
  /// With `liftStates`, the tensors written in place become the module's
  /// state; without, they are kept (folding may yet show them unwritten).
  AttributeBinder(func::FuncOp func, DictionaryAttr stateDict,
                  const llvm::StringSet<> &writtenClassAttrs, bool liftStates)
      : func(func), stateDict(stateDict), writtenClassAttrs(writtenClassAttrs),
        liftStates(liftStates) {}

  using Kept = llvm::SmallVector<std::pair<PrimGetAttrOp, std::string>>;

  /// Binds what can be bound; returns the number of reads bound.
  unsigned run();
  /// The reads left, with the reason of each.
  Kept kept;

private:
  /// The object values reached from `self`, by path.
  void collectPaths();
  /// Why the attribute `read` reads cannot be frozen, or "". Sets `state`
  /// when the attribute is state instead: a tensor the graph writes in place.
  std::string whyNotFrozen(PrimGetAttrOp read, StringRef path, Attribute &value,
                           bool &state);
  bool isWritten(Type objectType, StringRef name) const {
    return writtenClassAttrs.contains(getClassAttrKey(objectType, name));
  }

  func::FuncOp func;
  DictionaryAttr stateDict;
  const llvm::StringSet<> &writtenClassAttrs;
  bool liftStates;
  /// Path of each object value (self is ""), and whether some object on the
  /// way is reassigned by a prim::SetAttr.
  llvm::DenseMap<Value, std::pair<std::string, bool>> objects;
  /// The attribute reads from those objects, in program order.
  llvm::SmallVector<PrimGetAttrOp> reads;
  /// Paths of objects used other than by GetAttr and SetAttr.
  llvm::StringSet<> escapedObjects;
  /// Paths of tensors that some read lets be written.
  llvm::StringSet<> writtenTensors;
  /// Paths of tensors that some read lets be written in place.
  llvm::StringSet<> stateTensors;
};
} // namespace

void AttributeBinder::collectPaths() {
  Value self = func.getArgument(0);
  objects[self] = {"", false};
  func.walk([&](PrimGetAttrOp read) {
    auto parent = objects.find(read.getObject());
    if (parent == objects.end())
      return;
    auto [parentPath, parentWritten] = parent->second;
    if (isObjectType(read.getType())) {
      bool written = parentWritten ||
                     isWritten(read.getObject().getType(), read.getName());
      objects[read.getResult()] = {joinPath(parentPath, read.getName()),
                                   written};
      return;
    }
    reads.push_back(read);
  });
  for (auto &[object, info] : objects)
    for (OpOperand &use : object.getUses()) {
      Operation *user = use.getOwner();
      if (llvm::isa<PrimGetAttrOp>(user) ||
          (llvm::isa<PrimSetAttrOp>(user) && use.getOperandNumber() == 0))
        continue;
      LLVM_DEBUG(llvm::dbgs() << "object 'self." << info.first
                              << "' escapes at " << *user << "\n");
      escapedObjects.insert(info.first);
      break;
    }
  for (PrimGetAttrOp read : reads) {
    if (!isTensorLike(read.getType()))
      continue;
    std::string path =
        joinPath(objects[read.getObject()].first, read.getName());
    if (isWrittenThroughAliases(read.getResult(), /*orEscapes=*/true))
      writtenTensors.insert(path);
    if (llvm::isa<ts::TensorType>(read.getType()) &&
        isWrittenThroughAliases(read.getResult(), /*orEscapes=*/false))
      stateTensors.insert(path);
  }
}

std::string AttributeBinder::whyNotFrozen(PrimGetAttrOp read, StringRef path,
                                          Attribute &value, bool &state) {
  auto [objectPath, objectWritten] = objects[read.getObject()];
  if (objectWritten || isWritten(read.getObject().getType(), read.getName()))
    return "a prim::SetAttr writes it";
  // The object and every object on its path from self.
  for (StringRef prefix = objectPath;;) {
    if (escapedObjects.contains(prefix))
      return ("object 'self" + (prefix.empty() ? "" : "." + prefix) +
              "' escapes (passed to a call, stored or returned)")
          .str();
    if (prefix.empty())
      break;
    size_t dot = prefix.rfind('.');
    prefix = dot == StringRef::npos ? StringRef() : prefix.take_front(dot);
  }
  Type type = read.getType();
  value = stateDict ? stateDict.get(path) : Attribute();
  if (!value && read.getName() == "training" && llvm::isa<ts::BoolType>(type))
    value = BoolAttr::get(read.getContext(), false); // eval mode
  if (!value)
    return ("'" + path + "' has no value in the module's " +
            TorchScriptDialect::getStateDictAttrName())
        .str();
  if (isTensorLike(type) && writtenTensors.contains(path)) {
    // Written in place: state from call to call (a layer's running
    // statistics in training mode).
    state = liftStates && stateTensors.contains(path) &&
            llvm::isa<ElementsAttr>(value);
    return state ? "" : "the tensor may be written in place or escapes";
  }
  if (!isTensorLike(type) && !llvm::isa<ts::IntType, ts::FloatType, ts::BoolType, ts::StrType,
                                        ts::NumberType, ts::OptionalType>(type))
    return "only tensors and scalars are frozen";
  if (failed(verifyConstantValue(value, type)))
    return "its value does not fit its type";
  return "";
}

unsigned AttributeBinder::run() {
  collectPaths();
  unsigned bound = 0;
  // The reads of each attribute that is state, and its value.
  llvm::MapVector<StringRef, std::pair<SmallVector<Value>, ElementsAttr>>
      states;
  for (PrimGetAttrOp read : reads) {
    std::string path = joinPath(objects[read.getObject()].first, read.getName());
    Attribute value;
    bool state = false;
    std::string why = whyNotFrozen(read, path, value, state);
    if (!why.empty()) {
      kept.push_back({read, why});
      continue;
    }
    if (state) {
      auto &[stateReads, initial] =
          states[writtenTensors.insert(path).first->getKey()];
      stateReads.push_back(read.getResult());
      initial = llvm::cast<ElementsAttr>(value);
      continue;
    }
    LLVM_DEBUG(llvm::dbgs() << "freezing 'self." << path << "'\n");
    OpBuilder builder(read);
    // Named as torch.jit.freeze names frozen attributes: %self.fc1.weight.
    Location loc = NameLoc::get(builder.getStringAttr("self." + path),
                                read.getLoc());
    auto constant =
        PrimConstantOp::create(builder, loc, read.getType(), value);
    read.getResult().replaceAllUsesWith(constant.getResult());
    read.erase();
    ++bound;
  }
  for (auto &[path, state] : states) {
    auto &[stateReads, initial] = state;
    if (failed(liftModuleState(func, path, initial, stateReads))) {
      for (Value read : stateReads)
        kept.push_back({read.getDefiningOp<PrimGetAttrOp>(),
                        "its reads have different types"});
      continue;
    }
    LLVM_DEBUG(llvm::dbgs() << "state 'self." << path << "'\n");
    bound += stateReads.size();
  }
  return bound;
}

namespace {
struct TSFreezePass : public ts::impl::TSFreezePassBase<TSFreezePass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<func::FuncDialect>();
    func::registerInlinerExtension(registry);
  }

  LogicalResult initialize(MLIRContext *context) override {
    // What -canonicalize applies.
    RewritePatternSet patterns(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(patterns);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(patterns, context);
    foldPatterns = std::make_shared<FrozenRewritePatternSet>(
        std::move(patterns));
    return success();
  }

  void runOnOperation() override;

  std::shared_ptr<const FrozenRewritePatternSet> foldPatterns;
};
} // namespace

void TSFreezePass::runOnOperation() {
  ModuleOp module = getOperation();
  auto stateDict = module->getAttrOfType<DictionaryAttr>(
      TorchScriptDialect::getStateDictAttrName());

  // The entry points of the module: public functions taking `self`.
  SmallVector<func::FuncOp> roots;
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal() && func.getNumArguments() > 0 &&
        isObjectType(func.getArgument(0).getType()))
      roots.push_back(func);

  SymbolTableCollection symbolTables;
  llvm::SetVector<func::FuncOp> callees;
  if (inlineCalls)
    for (func::FuncOp root : roots) {
      InlineCallsResult result = ts::inlineCalls(root, symbolTables);
      callees.insert(result.callees.begin(), result.callees.end());
    }

  // Attributes that a prim::SetAttr anywhere in the module writes, by class.
  llvm::StringSet<> written;
  module.walk([&](PrimSetAttrOp op) {
    written.insert(getClassAttrKey(op.getObject().getType(), op.getName()));
  });

  for (func::FuncOp root : roots) {
    // Inlined code folds first: a branch that will never run may write an
    // attribute.
    if (fold)
      (void)applyPatternsGreedily(root, *foldPatterns);
    AttributeBinder::Kept kept;
    // States last: folding the constants bound may remove the writes (an
    // eval-mode branch that updates num_batches_tracked).
    bool liftStates = false;
    while (true) {
      AttributeBinder binder(root, stateDict, written, liftStates);
      unsigned bound = binder.run();
      numFrozen += bound;
      kept = std::move(binder.kept);
      if (!bound) {
        if (liftStates)
          break;
        liftStates = true;
        continue;
      }
      if (fold && failed(applyPatternsGreedily(root, *foldPatterns)))
        LLVM_DEBUG(llvm::dbgs() << "folding did not converge\n");
    }
    numKept += kept.size();
    if (remarks)
      for (auto &[read, why] : kept)
        read->emitRemark() << "attribute '" << read.getName()
                           << "' not frozen: " << why;
  }

  // The inlined methods are no longer needed.
  SmallVector<func::FuncOp> privateCallees;
  for (func::FuncOp callee : callees)
    if (callee.isPrivate())
      privateCallees.push_back(callee);
  SymbolTable &symbolTable = symbolTables.getSymbolTable(module);
  for (func::FuncOp dead :
       findDeadCallees(module, privateCallees, symbolTables))
    symbolTable.erase(dead);
  module->removeAttr(TorchScriptDialect::getStateDictAttrName());
}
