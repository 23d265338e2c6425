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

/// Whether the tensor `value` may be written while the function runs or
/// after it: an alias of it (a view, a cast, a region result) is written in
/// place, or it escapes where its writes cannot be followed, returning
/// included (a frozen tensor is one object for every call). Unlike
/// ts::mayBeWritten, which folders call once per op and which gives up
/// beyond a fixed budget, it follows every alias: freezing asks once per
/// attribute read, and a weight may have many users.
static bool mayBeWrittenOrEscape(Value value) {
  llvm::SmallVector<Value> worklist{value};
  llvm::DenseSet<Value> seen{value};
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    for (OpOperand &use : current.getUses()) {
      switch (classifyUse(use)) {
      case UseKind::Read:
        break;
      case UseKind::Alias:
        for (Value alias : getAliases(use))
          if (seen.insert(alias).second)
            worklist.push_back(alias);
        break;
      case UseKind::Write:
      case UseKind::Escape:
        LLVM_DEBUG(llvm::dbgs() << "  written or escaping at "
                                << *use.getOwner() << "\n");
        return true;
      }
    }
  }
  return false;
}

namespace {
/// One round of binding in one function.
class AttributeBinder {
public:
  AttributeBinder(func::FuncOp func, DictionaryAttr stateDict,
                  const llvm::StringSet<> &writtenClassAttrs)
      : func(func), stateDict(stateDict),
        writtenClassAttrs(writtenClassAttrs) {}

  using Kept = llvm::SmallVector<std::pair<PrimGetAttrOp, std::string>>;

  /// Binds what can be bound; returns the number of reads bound.
  unsigned run();
  /// The reads left, with the reason of each.
  Kept kept;

private:
  /// The object values reached from `self`, by path.
  void collectPaths();
  /// Why the attribute `read` reads cannot be frozen, or "".
  std::string whyNotFrozen(PrimGetAttrOp read, StringRef path,
                           Attribute &value);
  bool isWritten(Type objectType, StringRef name) const {
    return writtenClassAttrs.contains(getClassAttrKey(objectType, name));
  }

  func::FuncOp func;
  DictionaryAttr stateDict;
  const llvm::StringSet<> &writtenClassAttrs;
  /// Path of each object value (self is ""), and whether some object on the
  /// way is reassigned by a prim::SetAttr.
  llvm::DenseMap<Value, std::pair<std::string, bool>> objects;
  /// The attribute reads from those objects, in program order.
  llvm::SmallVector<PrimGetAttrOp> reads;
  /// Paths of objects used other than by GetAttr and SetAttr.
  llvm::StringSet<> escapedObjects;
  /// Paths of tensors that some read lets be written.
  llvm::StringSet<> writtenTensors;
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
  for (PrimGetAttrOp read : reads)
    if (isTensorLike(read.getType()) && mayBeWrittenOrEscape(read.getResult()))
      writtenTensors.insert(
          joinPath(objects[read.getObject()].first, read.getName()));
}

std::string AttributeBinder::whyNotFrozen(PrimGetAttrOp read, StringRef path,
                                          Attribute &value) {
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
  if (isTensorLike(type) && writtenTensors.contains(path))
    return "the tensor may be written in place or escapes";
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
  for (PrimGetAttrOp read : reads) {
    std::string path = joinPath(objects[read.getObject()].first, read.getName());
    Attribute value;
    std::string why = whyNotFrozen(read, path, value);
    if (!why.empty()) {
      kept.push_back({read, why});
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
    while (true) {
      AttributeBinder binder(root, stateDict, written);
      unsigned bound = binder.run();
      numFrozen += bound;
      kept = std::move(binder.kept);
      if (!bound)
        break;
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
