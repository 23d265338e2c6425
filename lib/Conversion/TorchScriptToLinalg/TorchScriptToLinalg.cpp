//===- TorchScriptToLinalg.cpp - The convert-ts-to-linalg pass ------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pass runs in five steps:
//   1. returned tuples are flattened into the function's results;
//   2. every ts op is checked before anything changes: an op with no
//      lowering, or a tensor whose dtype or sizes are unknown, is reported by
//      its TorchScript name at its location, and the pass stops;
//   3. ops outside any group that lower to several generics (softmax,
//      layer_norm, ...) are put in a group of their own, so that they are
//      fused within themselves like one PyTorch kernel;
//   4. the dialect conversion lowers every op (constants are materialised
//      where a lowered op uses them); what it cannot lower is reported as a
//      tsmlir diagnostic naming the TorchScript op and its arguments, not
//      in the conversion driver's terms;
//   5. each fusion.group's generics are fused with linalg's elementwise
//      fusion, and the group is inlined.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Conversion/Passes.h"
#include "tsmlir/Conversion/TorchScriptToLinalg/TorchScriptToLinalg.h"

#include "PopulatePatterns.h"
#include "Utils.h"

#include "tsmlir/Dialect/Fusion/IR/FusionDialect.h"
#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"
#include "tsmlir/Dialect/TorchScript/IR/Aliasing.h"
#include "tsmlir/Dialect/TorchScript/IR/DataDependentSizes.h"
#include "tsmlir/Dialect/TorchScript/IR/NodeKind.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptDialect.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tsmlir {
#define GEN_PASS_DEF_CONVERTTORCHSCRIPTTOLINALGPASS
#include "tsmlir/Conversion/Passes.h.inc"
} // namespace mlir::tsmlir

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::lowering;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

Type mlir::tsmlir::convertDtype(Type dtype) {
  if (auto i = llvm::dyn_cast_or_null<IntegerType>(dtype))
    return IntegerType::get(dtype.getContext(), i.getWidth());
  if (llvm::isa_and_nonnull<FloatType>(dtype))
    return dtype;
  return Type();
}

/// An arith.constant for a ts.prim.Constant of a number or tensor.
static Value materializeConstant(OpBuilder &b, Type type, Value input,
                                 Location loc) {
  auto cst = input.getDefiningOp<ts::PrimConstantOp>();
  if (!cst || !cst.getValueAttr())
    return Value();
  Attribute value = cst.getValueAttr();
  if (auto tensorType = llvm::dyn_cast<RankedTensorType>(type)) {
    ElementsAttr converted = lowering::convertElementsAttr(value, tensorType);
    if (!converted)
      return Value();
    return arith::ConstantOp::create(b, loc, tensorType,
                                     llvm::cast<TypedAttr>(converted));
  }
  if (!type.isIntOrFloat())
    return Value();
  if (auto f = llvm::dyn_cast<FloatAttr>(value))
    return createScalarConstant(b, loc, type, f.getValueAsDouble());
  if (auto i = llvm::dyn_cast<IntegerAttr>(value))
    return arith::ConstantOp::create(
        b, loc, IntegerAttr::get(type, i.getValue().getSExtValue()));
  if (auto bv = llvm::dyn_cast<BoolAttr>(value))
    return createScalarConstant(b, loc, type, bv.getValue() ? 1 : 0);
  return Value();
}

TorchScriptTypeConverter::TorchScriptTypeConverter() {
  // Types the lowering reads at compile time (lists, None, strings, ...)
  // stay as they are; the ops that make them are erased once unused.
  addConversion([](Type type) { return type; });
  addConversion([](ts::TensorType type) -> std::optional<Type> {
    // Unknown sizes are dynamic: checkLowerable lets through only those of
    // tensors sized at run time (DataDependentSizes.h).
    Type element = convertDtype(type.getDtype());
    if (!element || !type.hasSizes())
      return std::nullopt;
    return RankedTensorType::get(type.getSizesOrEmpty(), element);
  });
  addConversion([](ts::IntType type) -> Type {
    return IntegerType::get(type.getContext(), 64);
  });
  addConversion([](ts::FloatType type) -> Type {
    return Float64Type::get(type.getContext());
  });
  addConversion([](ts::BoolType type) -> Type {
    return IntegerType::get(type.getContext(), 1);
  });
  addTargetMaterialization([](OpBuilder &b, Type type, ValueRange inputs,
                              Location loc) -> Value {
    if (inputs.size() != 1)
      return Value();
    return materializeConstant(b, type, inputs[0], loc);
  });
}

/// Stops the compiler unless every pattern in `patterns` with a root op is
/// rooted at a registered op of a loaded dialect. A pattern rooted at a name
/// that is no op never matches, and the op it was meant for would only be
/// reported as having no lowering.
static void verifyPatternRoots(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  for (const std::unique_ptr<RewritePattern> &pattern :
       patterns.getNativePatterns()) {
    std::optional<OperationName> root = pattern->getRootKind();
    if (!root || RegisteredOperationName::lookup(root->getStringRef(), ctx))
      continue;
    std::string message =
        ("convert-ts-to-linalg: pattern '" + pattern->getDebugName() +
         "' is rooted at '" + root->getStringRef() +
         "', which is not a registered op")
            .str();
    StringRef dialect = root->getDialectNamespace();
    if (!ctx->getLoadedDialect(dialect))
      message += (" (dialect '" + dialect + "' is not loaded)").str();
    llvm::reportFatalInternalError(StringRef(message));
  }
}

void mlir::tsmlir::populateTorchScriptToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    bool rowTemporaries) {
  populatePrimPatterns(converter, patterns);
  populateElementwisePatterns(converter, patterns);
  populateReductionPatterns(converter, patterns, rowTemporaries);
  populateLinearAlgebraPatterns(converter, patterns);
  populatePoolingPatterns(converter, patterns);
  populateFactoryPatterns(converter, patterns);
  populateDataMovementPatterns(converter, patterns);
  populateResamplingPatterns(converter, patterns);
  populateScatterPatterns(converter, patterns);
  populateSortPatterns(converter, patterns);
  populateControlFlowPatterns(converter, patterns);
  populateModuleStatePatterns(converter, patterns);
  verifyPatternRoots(patterns);
}

//===----------------------------------------------------------------------===//
// Steps
//===----------------------------------------------------------------------===//

/// TorchScript's name of a ts op name, with its overload: `ts.aten.add.Tensor`
/// is `aten::add.Tensor`; other names as they are.
static std::string torchScriptName(StringRef name) {
  std::string kind = ts::getNodeKind(name, /*withOverload=*/true);
  return kind.empty() ? name.str() : kind;
}

/// TorchScript's name of a ts op (a ts.operator's kind as it is).
static std::string torchScriptName(Operation *op) {
  std::string kind = ts::getNodeKind(op, /*withOverload=*/true);
  return kind.empty() ? op->getName().getStringRef().str() : kind;
}

/// An argument as a diagnostic shows it: a constant's value (a list of
/// constants as a list), else its type.
static std::string describeArgument(Value v) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto printAttr = [&](Attribute attr) -> bool {
    if (auto b = llvm::dyn_cast<BoolAttr>(attr))
      os << (b.getValue() ? "true" : "false");
    else if (auto i = llvm::dyn_cast<IntegerAttr>(attr))
      os << i.getInt();
    else if (auto f = llvm::dyn_cast<FloatAttr>(attr))
      os << f.getValueAsDouble();
    else if (auto str = llvm::dyn_cast<StringAttr>(attr))
      os << "'" << str.getValue() << "'";
    else
      return false;
    return true;
  };
  if (auto constant = v.getDefiningOp<ts::PrimConstantOp>()) {
    if (llvm::isa<ts::NoneType>(v.getType())) {
      os << "None";
      return text;
    }
    if (constant.getValueAttr() && printAttr(constant.getValueAttr()))
      return text;
  }
  if (auto list = v.getDefiningOp<ts::PrimListConstructOp>()) {
    os << "[";
    bool first = true;
    for (Value e : list.getElements()) {
      os << (first ? "" : ", ") << describeArgument(e);
      first = false;
    }
    os << "]";
    return text;
  }
  os << v.getType();
  return text;
}

/// Step 4's diagnostics: the conversion driver's failures, said in
/// TorchScript's terms. An op that no pattern lowered ("failed to legalize
/// operation") is named with its arguments; a value computed at run time
/// where an op needs a compile-time one ("unresolved materialization") is
/// named with the op that needs it.
class ConversionDiagnostics {
public:
  explicit ConversionDiagnostics(MLIRContext *ctx)
      : handler(ctx, [this](Diagnostic &diag) { return capture(diag); }) {}

  /// Emits what was captured, against the module as it is after the failed
  /// conversion (which rolled its changes back).
  void report(ModuleOp module) {
    for (const auto &entry : illegal) {
      Location loc = entry.first;
      StringRef name = entry.second;
      Operation *found = nullptr;
      module.walk([&](Operation *op) {
        if (!found && op->getLoc() == loc &&
            op->getName().getStringRef() == name)
          found = op;
      });
      InFlightDiagnostic diag = emitError(loc)
                                << "'" << torchScriptName(name)
                                << "' cannot be compiled with these arguments";
      if (found) {
        diag << " (";
        llvm::interleaveComma(found->getOperands(), diag, [&](Value v) {
          diag << describeArgument(v);
        });
        diag << ")";
      }
      diag << ": no lowering handles this form of it";
    }
    for (auto &[loc, user] : runtimeValues)
      emitError(loc) << "a value computed at run time is used where '"
                     << torchScriptName(user)
                     << "' needs one known at compile time (a size, a "
                        "dimension or a list element): this form is not "
                        "supported";
  }

private:
  LogicalResult capture(Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return failure();
    std::string message = diag.str();
    StringRef text(message);
    if (text.consume_front("failed to legalize operation '")) {
      illegal.emplace_back(diag.getLocation(), text.take_until(
                                                   [](char c) { return c == '\''; })
                                                   .str());
      return success();
    }
    if (text.starts_with("failed to legalize unresolved materialization")) {
      std::string user = "an op";
      for (Diagnostic &note : diag.getNotes()) {
        std::string noteText = note.str();
        StringRef n(noteText);
        size_t eq = n.find(" = ");
        if (n.contains("live user") && eq != StringRef::npos)
          user = n.drop_front(eq + 3).take_until([](char c) {
                  return c == ' ' || c == '(';
                }).str();
      }
      runtimeValues.emplace_back(diag.getLocation(), user);
      return success();
    }
    return failure();
  }

  SmallVector<std::pair<Location, std::string>> illegal, runtimeValues;
  ScopedDiagnosticHandler handler;
};

/// Ops the conversion keeps until they are unused (compile-time values):
/// constants, lists, and unchecked_casts of lists or None to an Optional
/// (what an op's Optional[List] operand reads, as F.interpolate passes its
/// sizes and scales).
static bool isCompileTimeOp(Operation *op) {
  if (auto cast = llvm::dyn_cast<ts::PrimUncheckedCastOp>(op))
    return llvm::isa<ts::ListType, ts::NoneType>(cast.getOperand().getType());
  return llvm::isa<ts::PrimConstantOp, ts::PrimListConstructOp>(op);
}

/// Step 1: a returned tuple becomes the function's results.
static void flattenReturnedTuples(func::FuncOp func) {
  if (func.isExternal())
    return;
  bool changed = false;
  func.walk([&](func::ReturnOp ret) {
    SmallVector<Value> flat;
    std::function<void(Value)> add = [&](Value v) {
      if (auto tuple = v.getDefiningOp<ts::PrimTupleConstructOp>()) {
        changed = true;
        for (Value element : tuple.getElements())
          add(element);
        return;
      }
      flat.push_back(v);
    };
    for (Value v : ret.getOperands())
      add(v);
    if (!changed)
      return;
    OpBuilder b(ret);
    func::ReturnOp::create(b, ret.getLoc(), flat);
    SmallVector<Value> returned(ret.getOperands());
    ret.erase();
    // Tuples left unused, nested ones after the tuple that held them.
    std::function<void(Value)> eraseUnused = [&](Value v) {
      auto tuple = v.getDefiningOp<ts::PrimTupleConstructOp>();
      if (!tuple || !tuple->use_empty())
        return;
      SmallVector<Value> elements(tuple.getElements());
      tuple->erase();
      for (Value element : elements)
        eraseUnused(element);
    };
    for (Value v : returned)
      eraseUnused(v);
    func.setType(FunctionType::get(func.getContext(),
                                   func.getArgumentTypes(),
                                   ValueRange(flat).getTypes()));
  });
}

/// The type of a tensor `op` reads or produces for which `matches` holds,
/// other than a result sized at run time (DataDependentSizes.h).
static std::optional<Type>
findTensor(Operation *op, function_ref<bool(ts::TensorType)> matches) {
  auto check = [&](Type t) {
    auto tensor = llvm::dyn_cast<ts::TensorType>(t);
    return tensor && matches(tensor);
  };
  for (Value v : op->getResults())
    if (check(v.getType()) && !ts::getSizeBound(v))
      return v.getType();
  for (Type t : op->getOperandTypes())
    if (check(t))
      return t;
  return std::nullopt;
}

/// A tensor without a rank or a dtype the lowering has.
static bool isUnknownTensor(ts::TensorType tensor) {
  return !tensor.hasSizes() || !convertDtype(tensor.getDtype());
}

/// A tensor of dynamic sizes (a dynamic specialisation's `?`).
static bool isDynamicTensor(ts::TensorType tensor) {
  return tensor.hasSizes() && !tensor.hasStaticShape();
}

/// Reports `op` when it reads a tensor sized at run time, which only the
/// function's return may.
static bool readsDataDependentSizes(Operation *op) {
  for (Value operand : op->getOperands()) {
    std::optional<SmallVector<int64_t>> bound = ts::getSizeBound(operand);
    if (!bound)
      continue;
    InFlightDiagnostic diag =
        op->emitError()
        << "'" << torchScriptName(op) << "' reads a tensor whose size "
        << "depends on the data (" << operand.getType() << ", at most [";
    llvm::interleaveComma(*bound, diag);
    diag << "]): a compiled graph returns such a tensor, but computes "
            "nothing more from it";
    diag.attachNote(operand.getLoc())
        << "its size is computed here, by '"
        << torchScriptName(operand.getDefiningOp()) << "'";
    return true;
  }
  return false;
}

/// Step 2: reports every op the conversion cannot lower. `dynamic` names
/// the ops whose patterns also take tensors of dynamic sizes
/// (kDynamicSizesLabel).
static LogicalResult checkLowerable(ModuleOp module,
                                    const llvm::StringSet<> &supported,
                                    const llvm::StringSet<> &dynamic) {
  bool ok = true;
  module.walk([&](Operation *op) {
    if (!llvm::isa<ts::TorchScriptDialect>(op->getDialect()))
      return;
    if (isCompileTimeOp(op) || llvm::isa<ts::PrimYieldOp>(op))
      return;
    // An in-place op that ts-remove-mutation left: what it writes may be
    // seen through another name.
    if (op->hasTrait<ts::OpTrait::InPlace>() &&
        !op->hasAttr(ts::kWriteBackAttrName)) {
      Value target = op->getOperand(0);
      InFlightDiagnostic diag = op->emitError()
                                << "'" << torchScriptName(op)
                                << "' writes in place a tensor that other "
                                   "values may share (defined by ";
      if (Operation *def = target.getDefiningOp())
        diag << "'" << torchScriptName(def) << "'";
      else
        diag << "a block argument";
      diag << "): in-place writes compile into fresh tensors, their views "
              "and the graph's inputs only (a module's attributes are not "
              "written)";
      ok = false;
      return;
    }
    if (!supported.contains(op->getName().getStringRef())) {
      op->emitError() << "'" << torchScriptName(op)
                      << "' has no lowering to linalg";
      ok = false;
      return;
    }
    if (readsDataDependentSizes(op)) {
      ok = false;
      return;
    }
    if (std::optional<Type> t = findTensor(op, isUnknownTensor)) {
      op->emitError() << "'" << torchScriptName(op) << "' has a tensor of "
                      << "unknown dtype or shape (" << *t
                      << "): specialise the graph for its inputs first "
                         "(--ts-specialize or --ts-insert-guards)";
      ok = false;
      return;
    }
    if (std::optional<Type> t = findTensor(op, isDynamicTensor)) {
      if (dynamic.contains(op->getName().getStringRef()))
        return;
      op->emitError() << "'" << torchScriptName(op)
                      << "' has no lowering for tensors of dynamic sizes ("
                      << *t << "): elementwise ops, reductions, softmax "
                      << "and matrix products have one; specialise the "
                         "graph for static sizes";
      ok = false;
    }
  });
  module.walk([&](func::FuncOp func) {
    for (Type t : func.getArgumentTypes())
      if (auto tensor = llvm::dyn_cast<ts::TensorType>(t))
        if (!tensor.hasSizes() || !convertDtype(tensor.getDtype())) {
          func.emitError() << "argument of type " << t
                           << " has an unknown dtype or shape: specialise "
                              "the graph for its inputs first "
                              "(--ts-specialize or --ts-insert-guards)";
          ok = false;
        }
  });
  return success(ok);
}

/// Ops that lower to several generics, and are one kernel in PyTorch.
static bool isComposite(Operation *op) {
  return llvm::isa<ts::AtenSoftmaxIntOp, ts::AtenLogSoftmaxIntOp,
                   ts::Aten_SoftmaxOp, ts::Aten_LogSoftmaxOp,
                   ts::AtenLayerNormOp, ts::AtenNativeLayerNormOp,
                   ts::AtenVarOp, ts::AtenVarDimOp, ts::AtenVarCorrectionOp,
                   ts::AtenStdOp, ts::AtenStdDimOp, ts::AtenStdCorrectionOp,
                   ts::AtenLogsumexpOp, ts::AtenGroupNormOp,
                   ts::AtenBatchNormOp>(op);
}

/// Step 3: a composite op outside any group gets a group of its own. Its
/// tensor and scalar operands become the group's inputs; constants and
/// constant lists are copied in.
static void wrapComposites(ModuleOp module) {
  SmallVector<Operation *> composites;
  module.walk([&](Operation *op) {
    if (isComposite(op) && !op->getParentOfType<fusion::GroupOp>())
      composites.push_back(op);
  });
  for (Operation *op : composites) {
    SmallVector<Value> inputs;
    SmallVector<Operation *> copied;
    bool wrappable = true;
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      if (def && isCompileTimeOp(def)) {
        copied.push_back(def);
        continue;
      }
      if (!llvm::isa<ts::TensorType, ts::IntType, ts::FloatType, ts::BoolType>(
              v.getType())) {
        wrappable = false;
        break;
      }
      inputs.push_back(v);
    }
    if (!wrappable)
      continue;
    OpBuilder b(op);
    // Named after the op (`ts.aten.softmax.int` -> `softmax`).
    SmallVector<StringRef> parts;
    op->getName().getStringRef().split(parts, '.');
    StringRef opName = parts.size() > 2 ? parts[2] : parts.back();
    auto group = fusion::GroupOp::create(b, op->getLoc(), op->getResultTypes(),
                                         fusion::Strategy::Op, inputs,
                                         b.getStringAttr(opName));
    Block *body = b.createBlock(&group.getBody());
    IRMapping mapping;
    for (Value input : inputs)
      mapping.map(input, body->addArgument(input.getType(), op->getLoc()));
    for (Operation *def : copied) {
      // Elements of a copied list are constants too.
      for (Value element : def->getOperands())
        if (!mapping.contains(element))
          if (Operation *elementDef = element.getDefiningOp())
            b.clone(*elementDef, mapping);
      if (!mapping.contains(def->getResult(0)))
        b.clone(*def, mapping);
    }
    Operation *clone = b.clone(*op, mapping);
    fusion::YieldOp::create(b, op->getLoc(), clone->getResults());
    op->replaceAllUsesWith(group.getResults());
    op->erase();
  }
}

/// Step 6: erases the compile-time ops nothing uses any more; any ts op left
/// is an error.
static LogicalResult eraseCompileTimeOps(ModuleOp module) {
  bool erased = true;
  while (erased) {
    erased = false;
    SmallVector<Operation *> dead;
    module.walk([&](Operation *op) {
      if (llvm::isa<ts::TorchScriptDialect>(op->getDialect()) &&
          op->use_empty() && isCompileTimeOp(op))
        dead.push_back(op);
    });
    for (Operation *op : dead)
      op->erase();
    erased = !dead.empty();
  }
  bool ok = true;
  module.walk([&](Operation *op) {
    if (llvm::isa<ts::TorchScriptDialect>(op->getDialect())) {
      op->emitError() << "'" << torchScriptName(op)
                      << "' is still used after the lowering to linalg";
      ok = false;
    }
  });
  return success(ok);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
/// A pattern that never matches, rooted at the op named by the pass's
/// `test-pattern-root` option.
class TestRootLowering : public NamedOpLowering {
public:
  using NamedOpLowering::NamedOpLowering;

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    return rewriter.notifyMatchFailure(op, "test pattern");
  }
};

class ConvertTorchScriptToLinalgPass
    : public tsmlir::impl::ConvertTorchScriptToLinalgPassBase<
          ConvertTorchScriptToLinalgPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    TorchScriptTypeConverter converter;
    RewritePatternSet patterns(ctx);
    if (!testPatternRoot.empty())
      patterns.add<TestRootLowering>(converter, ctx, testPatternRoot);
    populateTorchScriptToLinalgPatterns(converter, patterns, rowTemporaries);

    llvm::StringSet<> supported, dynamic;
    for (const auto &pattern : patterns.getNativePatterns())
      if (std::optional<OperationName> root = pattern->getRootKind()) {
        supported.insert(root->getStringRef());
        if (llvm::is_contained(pattern->getDebugLabels(), kDynamicSizesLabel))
          dynamic.insert(root->getStringRef());
      }
    if (listPatterns) {
      SmallVector<StringRef> names(supported.keys());
      llvm::sort(names);
      for (StringRef name : names)
        llvm::outs() << name << "\n";
      return;
    }

    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);

    module.walk([](func::FuncOp func) { flattenReturnedTuples(func); });
    if (failed(checkLowerable(module, supported, dynamic)))
      return signalPassFailure();
    wrapComposites(module);

    ConversionTarget target(*ctx);
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, scf::SCFDialect,
                           tensor::TensorDialect,
                           bufferization::BufferizationDialect>();
    target.addIllegalDialect<ts::TorchScriptDialect>();
    target.addLegalOp<ts::PrimConstantOp, ts::PrimListConstructOp>();
    target.addDynamicallyLegalOp<ts::PrimUncheckedCastOp>(isCompileTimeOp);
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType()) &&
             converter.isLegal(&op.getBody());
    });
    target.markUnknownOpDynamicallyLegal(
        [&](Operation *op) { return converter.isLegal(op); });
    {
      ConversionDiagnostics diagnostics(ctx);
      if (failed(applyPartialConversion(module, target, std::move(patterns)))) {
        diagnostics.report(module);
        return signalPassFailure();
      }
    }

    if (failed(fuseAndInlineGroups(module, fuseGroups, rowTemporaries)) ||
        failed(eraseCompileTimeOps(module)))
      return signalPassFailure();
  }
};
} // namespace
