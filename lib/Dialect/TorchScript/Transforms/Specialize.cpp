//===- Specialize.cpp - Specialise functions for input types --------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ts-specialize refines a function's argument types in place; ts-insert-
// guards keeps the signature and puts a specialised copy of the body behind
// a fusion.guarded, with the original body as its fallback. Both then infer
// shapes. Their options are parsed here, not by MLIR's option parser, whose
// syntax has no room for `f32[64,128]`.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h"

#include "SpecializationSpec.h"
#include "tsmlir/Dialect/Fusion/IR/FusionDialect.h"
#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/Transforms/ShapeInference.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::tsmlir::ts {
#define GEN_PASS_DEF_TSSPECIALIZEPASS
#define GEN_PASS_DEF_TSINSERTGUARDSPASS
#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir::ts

namespace mlir::tsmlir::ts {

/// The functions `spec` applies to, with their specialised argument types:
/// the one `func=` names, else the only public function, else every
/// function the spec fits. Reports why when there is none.
static FailureOr<SmallVector<std::pair<func::FuncOp, SmallVector<Type>>>>
selectFunctions(ModuleOp module, const SpecializationSpec &spec,
                const ResolvedSpec &resolved, bool allowOptional) {
  SmallVector<std::pair<func::FuncOp, SmallVector<Type>>> selected;
  SmallVector<func::FuncOp> candidates;
  if (!spec.funcName.empty()) {
    auto func = module.lookupSymbol<func::FuncOp>(spec.funcName);
    if (!func || func.isExternal())
      return module.emitError() << "no function @" << spec.funcName
                                << " with a body to specialise";
    candidates.push_back(func);
  } else {
    SmallVector<func::FuncOp> all, publics;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      all.push_back(func);
      if (func.isPublic())
        publics.push_back(func);
    }
    candidates = publics.size() == 1 ? publics : all;
  }
  if (candidates.empty())
    return module.emitError() << "no function to specialise";
  // With one candidate, or a name, the spec must fit; among several, those
  // it fits are specialised.
  bool mustFit = candidates.size() == 1;
  for (func::FuncOp func : candidates) {
    FailureOr<SmallVector<Type>> types =
        getSpecializedArgTypes(func, resolved, allowOptional,
                               /*report=*/mustFit);
    if (succeeded(types))
      selected.emplace_back(func, std::move(*types));
    else if (mustFit)
      return failure();
  }
  if (selected.empty()) {
    // Say why the spec fits none, on the first.
    (void)getSpecializedArgTypes(candidates.front(), resolved, allowOptional,
                                 /*report=*/true);
    return module.emitError()
           << "the specialisation fits none of the " << candidates.size()
           << " functions; name one with func=NAME";
  }
  return selected;
}

/// Gives `func`'s arguments the types `types`.
static void setArgumentTypes(func::FuncOp func, ArrayRef<Type> types) {
  for (auto [arg, type] : llvm::zip_equal(func.getArguments(), types))
    arg.setType(type);
  func.setFunctionType(
      mlir::FunctionType::get(func.getContext(), types, func.getResultTypes()));
}

/// Puts `func`'s body behind a fusion.guarded: a copy for arguments of
/// `types` and the original body as the fallback.
static LogicalResult guardFunction(func::FuncOp func, ArrayRef<Type> types) {
  if (!func.getBody().hasOneBlock())
    return func.emitError("cannot guard a function of several blocks");
  MLIRContext *ctx = func.getContext();
  Location loc = func.getLoc();
  TypeRange argTypes = func.getArgumentTypes();
  SmallVector<Location> argLocs;
  for (BlockArgument arg : func.getArguments())
    argLocs.push_back(arg.getLoc());

  // The old body becomes the fallback, its return a yield.
  auto entry = std::make_unique<Block>();
  entry->addArguments(argTypes, argLocs);
  OpBuilder builder(ctx);
  builder.setInsertionPointToEnd(entry.get());
  auto guarded = fusion::GuardedOp::create(builder, loc, func.getResultTypes(),
                                           entry->getArguments());
  Region &fallback = guarded.getFallback();
  fallback.takeBody(func.getBody());
  Operation *ret = fallback.front().getTerminator();
  builder.setInsertionPoint(ret);
  fusion::YieldOp::create(builder, ret->getLoc(), ret->getOperands());
  ret->erase();
  // The specialised copy.
  IRMapping mapping;
  fallback.cloneInto(&guarded.getSpecialized(), mapping);
  for (auto [arg, type] :
       llvm::zip_equal(guarded.getSpecialized().getArguments(), types))
    arg.setType(type);
  // The new body: guard, then return.
  builder.setInsertionPointToEnd(entry.get());
  func::ReturnOp::create(builder, loc, guarded.getResults());
  func.getBody().push_back(entry.release());
  return success();
}

/// Answers the device queries of `func`, whose tensors all live on
/// `device`: prim::device becomes that device, prim::is_cuda and
/// prim::is_cpu constants. Returns whether it changed anything.
static bool specializeDevice(func::FuncOp func, StringRef device) {
  MLIRContext *ctx = func.getContext();
  bool isCuda = device.starts_with("cuda");
  SmallVector<Operation *> queries;
  func.walk([&](Operation *op) {
    if (llvm::isa<PrimDeviceOp, PrimIsCudaOp, PrimIsCpuOp>(op))
      queries.push_back(op);
  });
  for (Operation *op : queries) {
    OpBuilder b(op);
    Value constant;
    if (llvm::isa<PrimDeviceOp>(op))
      constant = PrimConstantOp::create(b, op->getLoc(), DeviceType::get(ctx),
                                        b.getStringAttr(device));
    else
      constant = PrimConstantOp::create(
          b, op->getLoc(), BoolType::get(ctx),
          b.getBoolAttr(llvm::isa<PrimIsCudaOp>(op) == isCuda));
    op->getResult(0).replaceAllUsesWith(constant);
    op->erase();
  }
  return !queries.empty();
}

/// Specialises the functions of `module` that `spec` selects, in place or
/// behind a guard.
static LogicalResult
specializeModule(ModuleOp module, const SpecializationSpec &spec, bool guard) {
  FailureOr<ResolvedSpec> resolved =
      resolveSpec(spec, module.getContext(), module.getLoc());
  if (failed(resolved))
    return failure();
  // A guard checks tensors: an optional argument stays as it is.
  auto selected =
      selectFunctions(module, spec, *resolved, /*allowOptional=*/!guard);
  if (failed(selected))
    return failure();
  const ShapeRuleSet &rules = getDefaultShapeRules();
  for (auto &[func, types] : *selected) {
    // Sizes inferred for a value hold only where nothing resizes it in
    // place: those changes become views first.
    removeMetadataMutations(func);
    bool changed = !spec.device.empty() && specializeDevice(func, spec.device);
    if (TypeRange(types) == func.getArgumentTypes()) {
      // Nothing more to specialise: the arguments say it all.
      if (changed)
        inferShapes(func, rules);
      continue;
    }
    if (guard) {
      if (failed(guardFunction(func, types)))
        return failure();
    } else {
      setArgumentTypes(func, types);
    }
    inferShapes(func, rules);
  }
  return success();
}

namespace {
struct TSSpecializePass
    : public ts::impl::TSSpecializePassBase<TSSpecializePass> {
  using Base::Base;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    return spec.parse(options, [&](const Twine &message) {
      return errorHandler(getArgument() + ": " + message);
    });
  }

  void runOnOperation() override {
    if (failed(specializeModule(getOperation(), spec, /*guard=*/false)))
      signalPassFailure();
  }

  SpecializationSpec spec;
};

} // namespace

std::unique_ptr<Pass> createTSSpecializePass(SpecializationSpec spec) {
  auto pass = std::make_unique<TSSpecializePass>();
  pass->spec = std::move(spec);
  return pass;
}

namespace {
struct TSInsertGuardsPass
    : public ts::impl::TSInsertGuardsPassBase<TSInsertGuardsPass> {
  using Base::Base;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    return spec.parse(options, [&](const Twine &message) {
      return errorHandler(getArgument() + ": " + message);
    });
  }

  void runOnOperation() override {
    if (failed(specializeModule(getOperation(), spec, /*guard=*/true)))
      signalPassFailure();
  }

  SpecializationSpec spec;
};
} // namespace

} // namespace mlir::tsmlir::ts
