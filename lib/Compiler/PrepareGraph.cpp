//===- PrepareGraph.cpp - Specialise a graph for its inputs ---------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Compiler/PrepareGraph.h"

#include "ModuleState.h"

#include "tsmlir/Conversion/Passes.h"
#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"
#include "tsmlir/Dialect/Fusion/Transforms/Passes.h"
#include "tsmlir/Dialect/TorchScript/Autodiff/Passes.h"
#include "tsmlir/Dialect/TorchScript/IR/DataDependentSizes.h"
#include "tsmlir/Dialect/TorchScript/IR/Dtypes.h"
#include "tsmlir/Dialect/TorchScript/IR/NodeKind.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"
#include "tsmlir/Dialect/TorchScript/IR/ValueNames.h"
#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h"
#include "tsmlir/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <functional>
#include <optional>

using namespace mlir;
using namespace mlir::tsmlir;

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

/// The dtypes a tensor type or a .npy file may give an input: those with
/// a spec name and a .npy descr.
static bool isInputDtype(const DtypeInfo &info) {
  return !info.specName.empty() && !info.npyDescr.empty();
}

/// Their spec names, for messages: "u8, i8, ..., bool".
static std::string inputDtypeNames() {
  std::string names;
  for (const DtypeInfo &info : getDtypeTable())
    if (isInputDtype(info))
      names += (names.empty() ? "" : ", ") + info.specName.str();
  return names;
}

/// Parses `f32[2,3]`, `bool[]`, ... into a header without data, or fails.
static std::optional<NpyHeader> parseTensorType(StringRef text) {
  auto [name, rest] = text.split('[');
  if (rest.empty() || !rest.consume_back("]"))
    return std::nullopt;
  std::optional<Dtype> dtype = getDtypeForSpecName(name);
  if (!dtype || !isInputDtype(getDtypeInfo(*dtype)))
    return std::nullopt;
  const DtypeInfo &info = getDtypeInfo(*dtype);
  NpyHeader header;
  header.descr = info.npyDescr.str();
  header.kind = static_cast<char>(info.kind);
  header.itemSize = info.byteSize;
  SmallVector<StringRef> sizes;
  if (!rest.trim().empty())
    rest.split(sizes, ',');
  for (StringRef size : sizes) {
    int64_t s;
    if (size.trim().getAsInteger(10, s) || s < 0)
      return std::nullopt;
    header.shape.push_back(s);
  }
  return header;
}

llvm::Expected<RunValue> RunValue::parse(StringRef text, bool typesOnly) {
  RunValue value;
  value.text = text.str();
  StringRef lower = text.trim();
  if (lower.equals_insensitive("none")) {
    value.kind = Kind::None;
    return value;
  }
  if (lower.equals_insensitive("true") || lower.equals_insensitive("false")) {
    value.kind = Kind::Bool;
    value.boolValue = lower.equals_insensitive("true");
    return value;
  }
  int64_t i;
  if (!lower.getAsInteger(10, i)) {
    value.kind = Kind::Int;
    value.intValue = i;
    return value;
  }
  double f;
  if (!lower.getAsDouble(f)) {
    value.kind = Kind::Float;
    value.floatValue = f;
    return value;
  }
  if (typesOnly) {
    value.kind = Kind::Tensor;
    if (lower == "float") {
      value.kind = Kind::Float;
      return value;
    }
    if (std::optional<NpyHeader> header = parseTensorType(lower)) {
      value.tensor.header = std::move(*header);
      return value;
    }
    llvm::Expected<NpyHeader> header = readNpyHeader(text);
    if (!header) {
      // Not a file: say what a tensor type looks like.
      if (lower.ends_with("]") && !llvm::sys::fs::exists(text)) {
        llvm::consumeError(header.takeError());
        return llvm::createStringError(
            "'" + text + "' is neither a .npy file nor a tensor type: " +
            "expected DTYPE[d0,d1,...], DTYPE one of " + inputDtypeNames() +
            ", and sizes non-negative");
      }
      return header.takeError();
    }
    value.tensor.header = std::move(*header);
    return value;
  }
  llvm::Expected<NpyArray> array = readNpy(text);
  if (!array)
    return array.takeError();
  value.kind = Kind::Tensor;
  value.tensor = std::move(*array);
  return value;
}

/// The dtype of a tensor type's dtype that a compiled graph takes and
/// returns (one the C ABI has), or nullopt.
static std::optional<Dtype> getAbiDtype(Type dtype) {
  std::optional<Dtype> known = ts::getDtype(dtype);
  if (!known || getDtypeInfo(*known).abiCode == 0)
    return std::nullopt;
  return known;
}

static std::string describe(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

static bool isObject(Type type) {
  return llvm::isa<ts::ClassType, ts::ModuleType>(type);
}

/// The name of argument `i` for messages: `'x'` (TorchScript's name) or
/// `#i`.
static std::string argName(func::FuncOp func, unsigned i) {
  StringRef name = ts::getArgumentName(func.getArgument(i));
  if (name.empty())
    return "#" + std::to_string(i);
  return "'" + name.str() + "'";
}

/// Runs the passes `build` adds on the module.
static LogicalResult runPasses(ModuleOp module,
                               function_ref<void(PassManager &)> build) {
  PassManager pm(module->getName());
  build(pm);
  return pm.run(module);
}

void mlir::tsmlir::dumpModule(ModuleOp module, StringRef dumpDir,
                              StringRef stage) {
  if (dumpDir.empty())
    return;
  llvm::sys::fs::create_directories(dumpDir);
  std::error_code ec;
  llvm::raw_fd_ostream os((dumpDir + "/" + stage + ".mlir").str(), ec);
  if (!ec)
    module.print(os);
}

/// The types of the entry's results once returned tuples are flattened.
static void flattenResultTypes(Type type, SmallVectorImpl<Type> &flat) {
  if (auto tuple = llvm::dyn_cast<ts::TupleType>(type)) {
    for (Type element : tuple.getElementTypes())
      flattenResultTypes(element, flat);
    return;
  }
  flat.push_back(type);
}

/// The values `func` returns, flattened as flattenResultTypes flattens
/// their types; null for the elements of a tuple not built in `func`.
static SmallVector<Value> flattenReturnedValues(func::FuncOp func) {
  SmallVector<Value> flat;
  std::function<void(Value)> add = [&](Value v) {
    if (auto tuple = v.getDefiningOp<ts::PrimTupleConstructOp>()) {
      for (Value element : tuple.getElements())
        add(element);
      return;
    }
    SmallVector<Type> types;
    flattenResultTypes(v.getType(), types);
    if (types.size() == 1)
      flat.push_back(v);
    else
      flat.append(types.size(), Value());
  };
  auto ret = llvm::cast<func::ReturnOp>(func.getBody().back().getTerminator());
  for (Value v : ret.getOperands())
    add(v);
  return flat;
}

/// Whether `value` is always None: a None constant, or a cast of one.
static bool isNoneValue(Value value) {
  auto constant =
      ts::stripUncheckedCasts(value).getDefiningOp<ts::PrimConstantOp>();
  return constant && llvm::isa<ts::NoneType>(constant.getType());
}

/// `value` (a returned value) without its elements that are always None,
/// built before `point`; `position` counts the flattened outputs and
/// `dropped` collects the positions of the None ones. Null when `value`
/// itself is None.
static Value withoutNoneOutputs(OpBuilder &builder, Value value,
                                unsigned &position,
                                SmallVectorImpl<unsigned> &dropped) {
  if (isNoneValue(value)) {
    dropped.push_back(position++);
    return {};
  }
  auto tuple = value.getDefiningOp<ts::PrimTupleConstructOp>();
  if (!tuple) {
    SmallVector<Type> flat;
    flattenResultTypes(value.getType(), flat);
    position += flat.size();
    return value;
  }
  unsigned before = dropped.size();
  SmallVector<Value> elements;
  for (Value element : tuple.getOperands())
    if (Value kept = withoutNoneOutputs(builder, element, position, dropped))
      elements.push_back(kept);
  if (dropped.size() == before)
    return value;
  SmallVector<Type> types;
  for (Value element : elements)
    types.push_back(element.getType());
  auto rebuilt = ts::PrimTupleConstructOp::create(
      builder, tuple.getLoc(),
      ts::TupleType::get(builder.getContext(), types, StringAttr()), elements);
  return rebuilt.getResult();
}

/// Removes the always-None outputs from `func`'s results (they have no
/// buffer form); returns their flattened positions.
static SmallVector<unsigned> dropNoneOutputs(func::FuncOp func) {
  SmallVector<unsigned> dropped;
  auto ret = llvm::cast<func::ReturnOp>(func.getBody().back().getTerminator());
  OpBuilder builder(ret);
  unsigned position = 0;
  SmallVector<Value> results;
  for (Value value : ret.getOperands())
    if (Value kept = withoutNoneOutputs(builder, value, position, dropped))
      results.push_back(kept);
  if (dropped.empty())
    return dropped;
  func::ReturnOp::create(builder, ret.getLoc(), results);
  ret.erase();
  // The tuples that held the None outputs, and the casts that made them.
  for (bool erased = true; erased;) {
    erased = false;
    func.walk([&](Operation *op) {
      if (llvm::isa<ts::PrimTupleConstructOp, ts::PrimUncheckedCastOp>(op) &&
          op->use_empty()) {
        op->erase();
        erased = true;
      }
    });
  }
  SmallVector<Type> types;
  for (Value value : results)
    types.push_back(value.getType());
  func.setType(FunctionType::get(func.getContext(), func.getArgumentTypes(),
                                 types));
  return dropped;
}

/// The TorchScript name of an op for messages: `aten::linear`, the kind of
/// a `ts.operator`, or the MLIR name of an op of another dialect.
static std::string getNodeKind(Operation *op) {
  std::string kind = ts::getNodeKind(op);
  return kind.empty() ? op->getName().getStringRef().str() : kind;
}

/// A tensor of known dtype and sizes (static ones unless `dynamicSizes`).
static bool isKnownTensor(Type type, bool dynamicSizes = false) {
  auto tensor = llvm::dyn_cast<ts::TensorType>(type);
  return tensor && tensor.hasDtype() &&
         (dynamicSizes ? tensor.hasSizes() : tensor.hasStaticShape());
}

/// The first op whose operands' dtypes and shapes are known but not all its
/// tensor results', where inference lost track; or null.
static Operation *findFirstUnknownResult(func::FuncOp func) {
  Operation *found = nullptr;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op->getNumRegions() != 0)
      return WalkResult::advance();
    bool unknownResult = llvm::any_of(op->getResults(), [](Value v) {
      return llvm::isa<ts::TensorType>(v.getType()) &&
             !isKnownTensor(v.getType()) && !ts::getSizeBound(v);
    });
    bool knownOperands = llvm::all_of(op->getOperandTypes(), [](Type t) {
      return !llvm::isa<ts::TensorType>(t) || isKnownTensor(t);
    });
    if (!unknownResult || !knownOperands)
      return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  // An element read from a list of tensors (`__getitem__`, an unpack) is
  // lost where the list was made, by an op returning Tensor[].
  if (found)
    for (Value operand : found->getOperands()) {
      auto list = llvm::dyn_cast<ts::ListType>(operand.getType());
      Operation *def = operand.getDefiningOp();
      if (list && llvm::isa<ts::TensorType>(list.getElementType()) &&
          !isKnownTensor(list.getElementType()) && def &&
          !llvm::isa<ts::PrimListConstructOp>(def) && def->getNumRegions() == 0)
        return def;
    }
  return found;
}

/// Whether a tensor of `type` with known sizes and dtype has more bytes than
/// 64 bits count (a huge `aten::zeros`, a type Float(2^62, 2^62)).
static bool isTooLarge(Type type) {
  auto tensor = llvm::dyn_cast<ts::TensorType>(type);
  if (!tensor || !tensor.hasSizes() || !tensor.hasDtype() ||
      !tensor.getDtype().isIntOrFloat())
    return false;
  int64_t bytes = std::max(tensor.getDtype().getIntOrFloatBitWidth() / 8, 1u);
  for (int64_t size : tensor.getSizesOrEmpty())
    if (size != ts::TensorType::kUnknown &&
        __builtin_mul_overflow(bytes, size, &bytes))
      return true;
  return false;
}

LogicalResult
mlir::tsmlir::appendDefaultInputs(ModuleOp module, StringRef entry,
                                  SmallVectorImpl<RunValue> &inputs) {
  func::FuncOp func = findEntryFunction(module, entry);
  if (!func || inputs.size() >= func.getNumArguments())
    return success();
  for (unsigned i = inputs.size(); i < func.getNumArguments(); ++i) {
    Attribute value = func.getArgAttr(i, "ts.default");
    if (!value)
      return success(); // prepareGraph reports the missing inputs
    RunValue input;
    // A BoolAttr is an IntegerAttr (of i1) too: it is tested first.
    if (auto boolAttr = llvm::dyn_cast<BoolAttr>(value)) {
      input.kind = RunValue::Kind::Bool;
      input.boolValue = boolAttr.getValue();
      input.text = input.boolValue ? "true" : "false";
    } else if (auto intAttr = llvm::dyn_cast<IntegerAttr>(value)) {
      input.kind = RunValue::Kind::Int;
      input.intValue = intAttr.getInt();
      input.text = std::to_string(input.intValue);
    } else if (auto floatAttr = llvm::dyn_cast<FloatAttr>(value)) {
      input.kind = RunValue::Kind::Float;
      input.floatValue = floatAttr.getValueAsDouble();
      // Enough digits to read back the same double.
      char text[32];
      std::snprintf(text, sizeof(text), "%.17g", input.floatValue);
      input.text = text;
    } else if (llvm::isa<UnitAttr>(value)) {
      input.kind = RunValue::Kind::None;
      input.text = "none";
    } else {
      return func.emitError() << "argument " << argName(func, i)
                              << " has a default tsmlir cannot pass; give "
                                 "it with --input";
    }
    inputs.push_back(std::move(input));
  }
  return success();
}

/// Inlines calls and, for a module's method, freezes the module's attributes
/// into constants and drops `self`; fails on attributes still read and on
/// constants whose data is elided. Returns the entry function after it.
static FailureOr<func::FuncOp> inlineAndFreeze(ModuleOp module,
                                               func::FuncOp func) {
  std::string entry = func.getSymName().str();
  // Calls inlined; a module's attributes frozen into constants.
  bool hasSelf = func.getNumArguments() > 0 && isObject(func.getArgumentTypes()[0]);
  if (failed(runPasses(module, [&](PassManager &pm) {
        pm.addPass(ts::createTSInlinePass());
        if (hasSelf)
          pm.addPass(ts::createTSFreezePass());
      })))
    return failure();
  func = module.lookupSymbol<func::FuncOp>(entry);
  if (hasSelf) {
    if (!func.getArgument(0).use_empty()) {
      // Name the first attribute read: follow the prim::GetAttr chain of
      // the earliest reads.
      Operation *read = nullptr;
      std::string path;
      for (Value object = func.getArgument(0);;) {
        ts::PrimGetAttrOp first;
        for (Operation *user : object.getUsers())
          if (auto getAttr = llvm::dyn_cast<ts::PrimGetAttrOp>(user))
            if (!first || (getAttr->getBlock() == first->getBlock() &&
                           getAttr->isBeforeInBlock(first)))
              first = getAttr;
        if (!first)
          break;
        path += (path.empty() ? "" : ".") + first.getName().str();
        read = first;
        object = first.getResult();
      }
      if (!read)
        return func.emitError()
               << "the module's attributes are still read after freezing: "
                  "give their values with --params";
      return read->emitError()
             << "the module's attribute '" << path
             << "' is still read after freezing: give its value with --params";
    }
    (void)func.eraseArgument(0);
  }
  // A constant PyTorch printed as `<Tensor>` has no data unless --params
  // gave it.
  WalkResult elided = module.walk([&](ts::PrimConstantOp op) {
    auto data =
        llvm::dyn_cast_or_null<DenseResourceElementsAttr>(op.getValueAttr());
    if (!data || data.getRawHandle().getBlob())
      return WalkResult::advance();
    op.emitError() << "the value of this constant is elided (<Tensor>) in the "
                      "graph text and no --params file gives it";
    return WalkResult::interrupt();
  });
  if (elided.wasInterrupted())
    return failure();
  return func;
}

/// Refuses the module's state (ts.module_state) where a compiled graph
/// cannot keep it: on the GPU, unless the caller keeps it.
static LogicalResult checkModuleState(ModuleOp module,
                                      const CompileOptions &options) {
  auto states = module.getOps<ts::ModuleStateOp>();
  if (states.empty() || options.moduleState == ModuleStateHome::Caller ||
      options.device == Device::CPU)
    return success();
  ts::ModuleStateOp state = *states.begin();
  return state.emitError()
         << "the module's attribute '" << state.getSymName()
         << "' is written in place: state that a compiled graph keeps from "
            "call to call, which is compiled for the CPU only";
}

/// Binds `inputs` to the arguments of `func`: tensors give their
/// arguments' types (the returned specialisation), ints, bools and None
/// become constants (recorded in `graph.bound`), floats stay arguments.
/// Erases the bound arguments and marks them in `erase`.
static FailureOr<ts::SpecializationSpec>
bindInputs(func::FuncOp func, ArrayRef<RunValue> inputs,
           const CompileOptions &options, PreparedGraph &graph,
           llvm::BitVector &erase) {
  MLIRContext *ctx = func.getContext();
  StringRef entry = graph.entry;
  // Inputs: one per argument.
  unsigned numArgs = func.getNumArguments();
  if (inputs.size() != numArgs) {
    InFlightDiagnostic diag = func.emitError()
                              << "'" << entry << "' takes " << numArgs
                              << " input" << (numArgs == 1 ? "" : "s");
    if (numArgs) {
      diag << " (";
      for (unsigned i = 0; i < numArgs; ++i)
        diag << (i ? ", " : "") << argName(func, i);
      diag << ")";
    }
    return diag << ", but " << inputs.size() << " were given";
  }

  graph.numGraphArguments = numArgs;

  // Tensors specialise their arguments' types; ints, bools and None become
  // constants; floats stay arguments.
  // The tensors' types, by argument (an empty dtype: not a tensor).
  SmallVector<ts::SpecializationSpec::Arg> tensorSpecs(numArgs);
  erase.resize(numArgs);
  OpBuilder builder(ctx);
  builder.setInsertionPointToStart(&func.getBody().front());
  for (unsigned i = 0; i < inputs.size(); ++i) {
    const RunValue &input = inputs[i];
    BlockArgument arg = func.getArgument(i);
    Type type = arg.getType();
    Type inner = type;
    if (auto optional = llvm::dyn_cast<ts::OptionalType>(type))
      inner = optional.getContainedType();
    auto fail = [&](const Twine &why) {
      return func.emitError() << "input " << i << " (" << argName(func, i)
                              << ", of type '" << describe(type) << "'"
                              << "): " << why;
    };
    switch (input.kind) {
    case RunValue::Kind::Tensor: {
      auto tensorType = llvm::dyn_cast<ts::TensorType>(inner);
      if (!tensorType)
        return fail("got the tensor '" + input.text + "'");
      const NpyHeader &header = input.tensor.header;
      std::optional<Dtype> given = getDtypeForNpyDescr(header.descr);
      if (!given)
        return fail("the dtype '" + header.descr +
                    "' of '" + input.text + "' has no PyTorch dtype");
      const DtypeInfo &dtype = getDtypeInfo(*given);
      if (!isInputDtype(dtype))
        return fail("'" + input.text + "' has dtype " + dtype.pytorchName +
                    ", which tsmlir does not compile");
      ArrayRef<int64_t> shape = input.tensor.shape();
      if (tensorType.hasSizes()) {
        ArrayRef<int64_t> declared = tensorType.getSizesOrEmpty();
        bool fits = declared.size() == shape.size();
        for (size_t d = 0; fits && d < shape.size(); ++d)
          fits = declared[d] == ts::TensorType::kUnknown ||
                 declared[d] == shape[d];
        if (!fits) {
          std::string got;
          for (int64_t s : shape)
            got += (got.empty() ? "" : ", ") + std::to_string(s);
          return fail("'" + input.text + "' has shape [" + got + "]");
        }
      }
      if (tensorType.hasDtype()) {
        std::optional<Dtype> declared = ts::getDtype(tensorType.getDtype());
        if (declared && *declared != *given) {
          const DtypeInfo &want = getDtypeInfo(*declared);
          return fail(
              "'" + input.text + "' has dtype " + dtype.specName + ", not " +
              (want.specName.empty() ? want.pytorchName : want.specName));
        }
      }
      tensorSpecs[i].dtype = dtype.specName.str();
      tensorSpecs[i].sizes = llvm::to_vector(shape);
      // Dynamic sizes: all but 0, 1 and those the argument declares.
      if (options.dynamicSizes)
        for (auto [d, size] : llvm::enumerate(*tensorSpecs[i].sizes))
          if (size > 1 &&
              (!tensorType.hasSizes() ||
               tensorType.getSizesOrEmpty()[d] == ts::TensorType::kUnknown))
            size = ts::TensorType::kUnknown;
      break;
    }
    case RunValue::Kind::Float:
      if (llvm::isa<ts::FloatType>(type))
        break; // a run-time argument
      [[fallthrough]];
    case RunValue::Kind::Int:
    case RunValue::Kind::Bool:
    case RunValue::Kind::None: {
      Attribute value;
      Type constType;
      if (input.kind == RunValue::Kind::None) {
        if (!llvm::isa<ts::OptionalType, ts::NoneType>(type))
          return fail("got None");
        constType = ts::NoneType::get(ctx);
      } else if (input.kind == RunValue::Kind::Bool) {
        if (!llvm::isa<ts::BoolType>(inner))
          return fail("got the bool " + input.text);
        value = builder.getBoolAttr(input.boolValue);
        constType = ts::BoolType::get(ctx);
      } else if (llvm::isa<ts::FloatType>(inner)) {
        double v = input.kind == RunValue::Kind::Int
                       ? static_cast<double>(input.intValue)
                       : input.floatValue;
        value = builder.getF64FloatAttr(v);
        constType = ts::FloatType::get(ctx);
      } else if (llvm::isa<ts::IntType>(inner) &&
                 input.kind == RunValue::Kind::Int) {
        value = builder.getI64IntegerAttr(input.intValue);
        constType = ts::IntType::get(ctx);
      } else {
        return fail("got " + input.text);
      }
      auto cst = ts::PrimConstantOp::create(builder, arg.getLoc(), constType,
                                            value);
      arg.replaceAllUsesWith(cst.getResult());
      erase.set(i);
      graph.bound.push_back(
          {ts::getArgumentName(arg).str(), i,
           input.kind == RunValue::Kind::None ? std::string("none")
           : input.kind == RunValue::Kind::Bool
               ? std::string(input.boolValue ? "true" : "false")
               : input.text});
      break;
    }
    }
  }
  if (failed(func.eraseArguments(erase)))
    return failure();
  // ts-specialize numbers the arguments that are left.
  ts::SpecializationSpec spec;
  spec.funcName = entry;
  spec.device = options.device == Device::CUDA ? "cuda:0" : "cpu";
  for (unsigned i = 0, next = 0; i < numArgs; ++i) {
    if (erase.test(i))
      continue;
    if (!tensorSpecs[i].dtype.empty()) {
      ts::SpecializationSpec::Arg &arg =
          spec.args.emplace_back(std::move(tensorSpecs[i]));
      arg.index = next;
      arg.text = "arg" + std::to_string(next) + "=" + arg.dtype + "[" +
                 llvm::join(llvm::map_range(*arg.sizes,
                                            [](int64_t size) {
                                              return std::to_string(size);
                                            }),
                            ",") +
                 "]";
    }
    ++next;
  }
  return spec;
}

/// The upstream gradients `grads` the entry `func` takes after its
/// `numArguments` arguments: those of outputs whose size the data decide
/// (of unknown sizes) take the sizes of the gradients given. Returns
/// whether any did (none when their number is not the entry's, which
/// checkGradientInputs reports).
static bool specialiseUpstreamSizes(func::FuncOp func, unsigned numArguments,
                                    ArrayRef<RunValue> grads) {
  if (func.getNumArguments() != numArguments + grads.size())
    return false;
  unsigned first = numArguments;
  bool refined = false;
  for (auto [k, grad] : llvm::enumerate(grads)) {
    BlockArgument arg = func.getArgument(first + k);
    auto type = llvm::dyn_cast<ts::TensorType>(arg.getType());
    if (!type || type.hasStaticShape() || !type.hasSizes() ||
        grad.kind != RunValue::Kind::Tensor ||
        type.getSizesOrEmpty().size() != grad.tensor.shape().size())
      continue;
    MLIRContext *ctx = func.getContext();
    arg.setType(ts::TensorType::get(
        ctx, type.getDtype(), DenseI64ArrayAttr::get(ctx, grad.tensor.shape()),
        DenseI64ArrayAttr(), type.getDevice(), BoolAttr()));
    refined = true;
  }
  if (refined)
    func.setType(FunctionType::get(func.getContext(),
                                   func.front().getArgumentTypes(),
                                   func.getResultTypes()));
  return refined;
}

/// Specialises the module for `spec`, optimises it, differentiates `entry`
/// when `options` ask for gradients (`grads` the upstream gradients given),
/// reports the operators left without an op, and forms the fusion groups
/// `options` ask for.
static LogicalResult optimiseAndFuse(ModuleOp module, StringRef entry,
                                     ts::SpecializationSpec spec,
                                     const CompileOptions &options,
                                     ArrayRef<RunValue> grads) {
  unsigned numArguments =
      module.lookupSymbol<func::FuncOp>(entry).getNumArguments();
  if (failed(runPasses(module, [&](PassManager &pm) {
        pm.addPass(ts::createTSSpecializePass(std::move(spec)));
        // Ops differentiated whole stay so until the backward is built.
        ts::TSOptimizePassOptions optimize;
        if (options.gradients)
          for (StringRef name : ts::getOpsDifferentiatedWhole())
            optimize.keep.push_back(name.str());
        pm.addPass(ts::createTSOptimizePass(optimize));
        if (options.gradients) {
          // The forward and backward functions, the backward's ops then
          // simplified and typed as the forward's were.
          ts::TSDifferentiatePassOptions differentiate;
          differentiate.func = entry.str();
          differentiate.policy = options.autodiffPolicy;
          pm.addPass(ts::createTSDifferentiatePass(differentiate));
          pm.addPass(ts::createTSOptimizePass());
        }
      })))
    return failure();
  // The entry calls the forward, then the backward with what it saved.
  if (options.gradients) {
    FailureOr<func::FuncOp> joint = ts::joinForwardBackward(module, entry);
    if (failed(joint))
      return failure();
    if (specialiseUpstreamSizes(*joint, numArguments, grads) &&
        failed(runPasses(module, [&](PassManager &pm) {
          pm.addPass(ts::createTSOptimizePass());
        })))
      return failure();
  }
  return runPasses(module, [&](PassManager &pm) {
    // Nodes import kept by name (ts.operator) that optimisation left
    // have no lowering: report them by name, where they are.
    ts::TSReportUnknownOpsPassOptions report;
    report.fail = true;
    pm.addPass(ts::createTSReportUnknownOpsPass(report));
    // Products and their epilogues as library kernels, before groups form
    // around the epilogues.
    if (options.libraryKernels && options.device == Device::CPU)
      pm.addPass(createTSLibraryKernelsPass());
    if (options.fusion) {
      fusion::TSCreateFusionGroupsPassOptions groups;
      groups.strategy = *options.fusion;
      pm.addNestedPass<func::FuncOp>(
          fusion::createTSCreateFusionGroupsPass(groups));
    }
  });
}

/// Fails, naming where, when an argument or a value of `func` has more
/// bytes than a 64-bit size counts.
static LogicalResult checkSizes(func::FuncOp func) {
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
    if (isTooLarge(type))
      return func.emitError() << "argument " << i << " has type " << type
                              << ", more bytes than a 64-bit size counts";
  WalkResult tooLarge = func.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (isTooLarge(type)) {
        op->emitError() << "'" << getNodeKind(op) << "' makes a tensor of type "
                        << type << ", more bytes than a 64-bit size counts";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(tooLarge.wasInterrupted());
}

/// The run-time inputs of the prepared `func`: the arguments left after
/// `erase`d ones were bound. Those at `upstream` positions (upstream
/// gradients) may have sizes the data decide, as their outputs do.
static LogicalResult describeInputs(func::FuncOp func,
                                    const llvm::BitVector &erase,
                                    ArrayRef<std::string> names,
                                    bool dynamicSizes, PreparedGraph &graph,
                                    std::pair<unsigned, unsigned> upstream) {
  unsigned numArgs = erase.size();
  // What the compiled entry takes: the arguments left, in order.
  SmallVector<unsigned> positions;
  for (unsigned i = 0; i < numArgs; ++i)
    if (!erase.test(i))
      positions.push_back(i);
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    GraphValue value;
    value.position = positions[i];
    value.name = names[positions[i]];
    value.typeText = describe(type);
    if (llvm::isa<ts::FloatType>(type)) {
      value.isNumber = true;
      value.dtype = Dtype::Double;
      graph.inputs.push_back(std::move(value));
      continue;
    }
    auto tensor = llvm::dyn_cast<ts::TensorType>(type);
    bool isUpstream =
        value.position >= upstream.first && value.position < upstream.second;
    if (!isKnownTensor(type, dynamicSizes || isUpstream))
      return func.emitError() << "argument of type " << type
                              << " is not a tensor of known dtype and shape";
    std::optional<Dtype> dtype = getAbiDtype(tensor.getDtype());
    if (!dtype)
      return func.emitError() << "argument of type " << type
                              << " has a dtype compiled graphs do not take";
    value.dtype = *dtype;
    value.shape.assign(tensor.getSizesOrEmpty().begin(),
                       tensor.getSizesOrEmpty().end());
    graph.inputs.push_back(std::move(value));
  }
  return success();
}

/// The upstream gradients given (`grads`) against the `expected` ones the
/// entry takes, the last of `graph.inputs`: one per floating-point tensor
/// output, each of its output's dtype and shape.
static LogicalResult checkGradientInputs(func::FuncOp func,
                                         ArrayRef<RunValue> grads,
                                         unsigned expected,
                                         const PreparedGraph &graph) {
  unsigned numGraphInputs = graph.inputs.size();
  if (grads.size() != expected)
    return func.emitError() << "the graph has " << expected
                            << " floating-point tensor output"
                            << (expected == 1 ? "" : "s") << ", but "
                            << grads.size() << " upstream gradient"
                            << (grads.size() == 1 ? " was" : "s were")
                            << " given (--grad-output)";
  for (auto [k, grad] : llvm::enumerate(grads)) {
    const GraphValue &input = graph.inputs[numGraphInputs - expected + k];
    std::optional<Dtype> dtype =
        grad.kind == RunValue::Kind::Tensor
            ? getDtypeForNpyDescr(grad.tensor.header.descr)
            : std::nullopt;
    // A size the data decide (the output's) takes any size.
    auto fits = [&](ArrayRef<int64_t> shape) {
      return shape.size() == input.shape.size() &&
             llvm::all_of(llvm::zip(shape, input.shape), [](auto pair) {
               auto [size, want] = pair;
               return want == ts::TensorType::kUnknown || size == want;
             });
    };
    if (!dtype || *dtype != input.dtype || !fits(grad.tensor.shape()))
      return func.emitError()
             << "upstream gradient " << k << " ('" << grad.text
             << "') must be a tensor of its output's type " << input.typeText;
  }
  return success();
}

/// The outputs of the prepared `func`, flattened; with `sizedAtRunTime`,
/// tensors whose size depends on the data are taken at their bound.
static LogicalResult describeOutputs(func::FuncOp func, bool sizedAtRunTime,
                                     bool dynamicSizes, PreparedGraph &graph) {
  SmallVector<Type> results;
  for (Type type : func.getResultTypes())
    flattenResultTypes(type, results);
  SmallVector<Value> returned = flattenReturnedValues(func);
  for (auto [i, type] : llvm::enumerate(results)) {
    std::optional<Dtype> dtype;
    SmallVector<int64_t> shape;
    std::optional<SmallVector<int64_t>> bound;
    if (i < returned.size() && returned[i])
      bound = ts::getSizeBound(returned[i]);
    if (bound && !sizedAtRunTime)
      return func.emitError()
             << "output " << i << " has type " << type
             << ": its size depends on the data, which only tsmlir-run on "
                "the CPU returns (not the GPU, nor ahead-of-time objects)";
    if (auto tensor = llvm::dyn_cast<ts::TensorType>(type)) {
      if (bound) {
        dtype = getAbiDtype(tensor.getDtype());
        shape = *bound;
      } else if (!isKnownTensor(type, dynamicSizes)) {
        InFlightDiagnostic diag =
            func.emitError()
            << "output " << i << " has type " << type
            << ": its dtype and shape are not known after specialisation";
        if (Operation *op = findFirstUnknownResult(func)) {
          Diagnostic &note = diag.attachNote(op->getLoc());
          note << "they are first lost at this '" << getNodeKind(op)
               << "', whose operands are (";
          llvm::interleaveComma(op->getOperandTypes(), note);
          note << ")";
        }
        return diag;
      } else {
        dtype = getAbiDtype(tensor.getDtype());
        shape.assign(tensor.getSizesOrEmpty().begin(),
                     tensor.getSizesOrEmpty().end());
      }
      if (!dtype)
        return func.emitError() << "output " << i << " has type " << type
                                << ": a dtype compiled graphs do not return";
    } else if (llvm::isa<ts::IntType>(type)) {
      dtype = Dtype::Long;
    } else if (llvm::isa<ts::FloatType>(type)) {
      dtype = Dtype::Double;
    } else if (llvm::isa<ts::BoolType>(type)) {
      dtype = Dtype::Bool;
    }
    if (!dtype)
      return func.emitError() << "output " << i << " has type " << type
                              << ": compiled graphs return tensors and numbers";
    GraphValue value;
    value.isNumber = !llvm::isa<ts::TensorType>(type);
    value.dtype = *dtype;
    value.shape = shape;
    value.sizedAtRunTime = bound.has_value();
    value.typeText = describe(type);
    graph.outputs.push_back(std::move(value));
  }
  return success();
}

FailureOr<PreparedGraph>
mlir::tsmlir::prepareGraph(ModuleOp module, ArrayRef<RunValue> inputs,
                           const CompileOptions &options, bool sizedAtRunTime) {
  func::FuncOp func = findEntryFunction(module, options.entry);
  if (!func)
    return module.emitError()
           << (options.entry.empty()
                   ? std::string("no entry function: name it with --entry")
                   : "no function named '" + options.entry + "'");
  if (options.dynamicSizes && options.device != Device::CPU)
    return module.emitError() << "dynamic sizes are compiled for the CPU only";
  PreparedGraph graph;
  graph.entry = func.getSymName().str();
  // Defaults were taken by appendDefaultInputs.
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    func.removeArgAttr(i, "ts.default");

  FailureOr<func::FuncOp> frozen = inlineAndFreeze(module, func);
  if (failed(frozen) || failed(checkModuleState(module, options)))
    return failure();
  func = *frozen;
  SmallVector<std::string> names;
  for (BlockArgument arg : func.getArguments())
    names.push_back(ts::getArgumentName(arg).str());
  // With gradients, the upstream gradients follow the graph's inputs.
  ArrayRef<RunValue> gradInputs;
  if (options.gradients) {
    if (options.device != Device::CPU || options.dynamicSizes)
      return module.emitError()
             << "gradients are compiled for the CPU, for static sizes";
    if (options.moduleState == ModuleStateHome::Caller)
      return module.emitError()
             << "gradients are compiled with the module's state in the graph";
    if (inputs.size() > names.size()) {
      gradInputs = inputs.drop_front(names.size());
      inputs = inputs.take_front(names.size());
    }
  }
  llvm::BitVector erase;
  FailureOr<ts::SpecializationSpec> spec =
      bindInputs(func, inputs, options, graph, erase);
  if (failed(spec))
    return failure();
  unsigned numBound = func.getNumArguments();
  if (failed(optimiseAndFuse(module, graph.entry, std::move(*spec), options,
                             gradInputs)))
    return failure();
  dumpModule(module, options.dumpDir, "ts");

  func = module.lookupSymbol<func::FuncOp>(graph.entry);
  // The upstream gradients differentiation added, after the arguments.
  for (unsigned k = numBound; k < func.getNumArguments(); ++k) {
    erase.push_back(false);
    names.push_back("grad_out" + std::to_string(k - numBound));
  }
  unsigned numUpstream = func.getNumArguments() - numBound;
  if (options.moduleState == ModuleStateHome::Caller) {
    unsigned numArgs = func.getNumArguments();
    if (failed(moveModuleStateToCaller(module, func, graph.states, names)))
      return failure();
    // The states follow the graph's arguments.
    erase.resize(erase.size() + func.getNumArguments() - numArgs, false);
    graph.numGraphArguments += func.getNumArguments() - numArgs;
  }
  graph.noneOutputs = dropNoneOutputs(func);
  if (auto names = func->getAttrOfType<ArrayAttr>(ts::kGradParamsAttrName))
    for (auto name : names.getAsValueRange<StringAttr>())
      graph.gradParams.push_back(name.str());
  module.walk([&](fusion::GroupOp) { ++graph.numFusionGroups; });
  if (failed(checkSizes(func)) ||
      failed(describeInputs(func, erase, names, options.dynamicSizes, graph,
                            {numBound, numBound + numUpstream})) ||
      failed(checkGradientInputs(func, gradInputs, numUpstream, graph)) ||
      failed(
          describeOutputs(func, sizedAtRunTime, options.dynamicSizes, graph)))
    return failure();
  if (options.gradients) {
    // The floating-point tensor inputs' gradients, then the parameters'.
    for (auto [i, input] :
         llvm::enumerate(ArrayRef(graph.inputs).drop_back(numUpstream)))
      if (!input.isNumber && getDtypeInfo(input.dtype).kind == DtypeKind::Float)
        graph.gradInputs.push_back(i);
  }
  return graph;
}

FailureOr<SmallVector<ModuleStateValue>>
mlir::tsmlir::getModuleStates(ModuleOp module, const CompileOptions &options) {
  SmallVector<ModuleStateValue> states;
  func::FuncOp func = findEntryFunction(module, options.entry);
  bool hasSelf = func && func.getNumArguments() > 0 &&
                 isObject(func.getArgumentTypes()[0]);
  if (!hasSelf) {
    if (failed(collectModuleStates(module, states)))
      return failure();
    return states;
  }
  // A method: its state is what freezing makes of the attributes it writes.
  OwningOpRef<ModuleOp> copy(llvm::cast<ModuleOp>(module->clone()));
  func = findEntryFunction(*copy, options.entry);
  if (failed(inlineAndFreeze(*copy, func)) ||
      failed(collectModuleStates(*copy, states)))
    return failure();
  return states;
}
