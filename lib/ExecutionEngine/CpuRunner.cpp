//===- CpuRunner.cpp - Compile a graph for its inputs and run it ----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/ExecutionEngine/CpuRunner.h"

#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"
#include "tsmlir/Dialect/TorchScript/IR/ValueNames.h"
#include "tsmlir/Pipelines/Pipelines.h"
#include "tsmlir/Runtime/CudaRuntime.h"
#include "tsmlir/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <functional>
#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::tsmlir;

#ifndef TSMLIR_OPENMP_RUNTIME
#define TSMLIR_OPENMP_RUNTIME ""
#endif

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

llvm::Expected<RunValue> RunValue::parse(StringRef text) {
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
  llvm::Expected<NpyArray> array = readNpy(text);
  if (!array)
    return array.takeError();
  value.kind = Kind::Tensor;
  value.tensor = std::move(*array);
  return value;
}

/// The spec name (`f32`, `i64`, `bool`, ...) of a .npy dtype, or empty.
static std::string getSpecDtype(const NpyHeader &header) {
  unsigned bits = header.itemSize * 8;
  switch (header.kind) {
  case 'f':
    return bits == 16 || bits == 32 || bits == 64 ? "f" + std::to_string(bits)
                                                  : "";
  case 'i':
    return "i" + std::to_string(bits);
  case 'u':
    return bits == 8 ? "u8" : "";
  case 'b':
    return "bool";
  }
  return "";
}

/// The .npy dtype of a TorchScript dtype, or empty.
static std::string getNpyDescr(Type dtype) {
  if (dtype.isF16())
    return "<f2";
  if (dtype.isF32())
    return "<f4";
  if (dtype.isF64())
    return "<f8";
  if (auto i = llvm::dyn_cast<IntegerType>(dtype)) {
    if (i.getWidth() == 1)
      return "|b1";
    std::string size = std::to_string(i.getWidth() / 8);
    if (i.getWidth() == 8)
      return i.isUnsigned() ? "|u1" : "|i1";
    return "<i" + size;
  }
  return "";
}

static std::string describe(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// A memref the compiled code reads or writes: 64-byte aligned data and the
/// descriptor MLIR's C interface passes by pointer.
struct CompiledGraph::Buffer {
  std::string descr;
  SmallVector<int64_t> shape;
  size_t bytes = 0;
  void *data = nullptr;
  std::vector<int64_t> descriptor;
  void *descriptorPtr = nullptr;
  void *allocation = nullptr;

  /// Buffer `index` starts `index * 320` bytes into a page: buffers that a
  /// loop reads and writes at the same index then never share their address
  /// bits below 4 KiB, which would stall loads behind stores (4K aliasing).
  Buffer(std::string descr, ArrayRef<int64_t> shape, size_t elementSize,
         unsigned index)
      : descr(std::move(descr)), shape(shape) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    bytes = n * elementSize;
    size_t offset = (index * 320) % 4096;
    allocation = std::aligned_alloc(4096, (bytes + offset + 4095) / 4096 * 4096 + 4096);
    data = static_cast<char *>(allocation) + offset;
    std::memset(data, 0, bytes);
    descriptor.push_back(reinterpret_cast<int64_t>(data));
    descriptor.push_back(reinterpret_cast<int64_t>(data));
    descriptor.push_back(0);
    for (int64_t d : shape)
      descriptor.push_back(d);
    int64_t stride = 1;
    SmallVector<int64_t> strides(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
      strides[d] = stride;
      stride *= shape[d];
    }
    descriptor.insert(descriptor.end(), strides.begin(), strides.end());
    descriptorPtr = descriptor.data();
  }
  ~Buffer() {
    std::free(allocation);
    if (device)
      tsmlirCudaFree(device);
  }

  /// Device memory for the compiled code; `data` stays the host copy.
  LogicalResult allocateOnDevice() {
    if (tsmlirCudaMalloc(&device, std::max<size_t>(bytes, 1)) !=
        TSMLIR_CUDA_SUCCESS)
      return failure();
    descriptor[0] = descriptor[1] = reinterpret_cast<int64_t>(device);
    return success();
  }
  void *device = nullptr;
};

CompiledGraph::~CompiledGraph() = default;

void CompiledGraph::pack() {
  packed.clear();
  size_t nextFloat = 0;
  for (auto &buffer : arguments) {
    if (buffer)
      packed.push_back(&buffer->descriptorPtr);
    else
      packed.push_back(&floatArguments[nextFloat++]);
  }
  for (auto &buffer : outputs)
    packed.push_back(&buffer->descriptorPtr);
}

void CompiledGraph::setInputs(ArrayRef<RunValue> inputs) {
  size_t nextFloat = 0, nextArg = 0;
  for (const RunValue &input : inputs) {
    if (input.kind == RunValue::Kind::Tensor) {
      Buffer &buffer = *arguments[nextArg++];
      std::memcpy(buffer.data, input.tensor.data.data(),
                  std::min(buffer.bytes, input.tensor.data.size()));
      if (buffer.device && buffer.bytes)
        tsmlirCudaMemcpyHtoD(buffer.device, buffer.data, buffer.bytes,
                             nullptr);
    } else if (input.kind == RunValue::Kind::Float && nextArg < arguments.size() &&
               !arguments[nextArg]) {
      floatArguments[nextFloat++] = input.floatValue;
      ++nextArg;
    }
  }
}

/// The CUDA error the compiled code ran into, reported; or success.
static LogicalResult checkCudaErrors() {
  char message[1024];
  if (tsmlirCudaGetStickyError(message, sizeof(message)) ==
      TSMLIR_CUDA_SUCCESS)
    return success();
  llvm::errs() << "tsmlir-run: CUDA error: " << message << "\n";
  return failure();
}

LogicalResult CompiledGraph::invoke() {
  if (!entryPoint)
    return failure();
  entryPoint(packed.data());
  return onGPU ? checkCudaErrors() : success();
}

FailureOr<CompiledGraph::Timing> CompiledGraph::benchmark(unsigned runs) {
  std::vector<double> times;
  void *start = nullptr, *stop = nullptr;
  if (onGPU && (tsmlirCudaEventCreate(&start) != TSMLIR_CUDA_SUCCESS ||
                tsmlirCudaEventCreate(&stop) != TSMLIR_CUDA_SUCCESS)) {
    llvm::errs() << "tsmlir-run: " << tsmlirCudaGetLastError() << "\n";
    return failure();
  }
  uint64_t launches = onGPU ? tsmlirCudaLaunchCount() : 0;
  for (unsigned i = 0; i < runs; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    // Events on the legacy stream bracket the call's stream.
    if (onGPU)
      tsmlirCudaEventRecord(start, nullptr);
    if (failed(invoke()))
      return failure();
    if (onGPU) {
      float ms = 0;
      tsmlirCudaEventRecord(stop, nullptr);
      tsmlirCudaEventSynchronize(stop);
      tsmlirCudaEventElapsedMs(&ms, start, stop);
      times.push_back(ms * 1e3);
      continue;
    }
    times.push_back(std::chrono::duration<double, std::micro>(
                        std::chrono::steady_clock::now() - t0)
                        .count());
  }
  Timing timing;
  if (onGPU) {
    timing.kernelsPerCall =
        static_cast<double>(tsmlirCudaLaunchCount() - launches) / runs;
    tsmlirCudaEventDestroy(start);
    tsmlirCudaEventDestroy(stop);
  }
  std::sort(times.begin(), times.end());
  size_t n = times.size();
  timing.median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  timing.min = times.front();
  return timing;
}

SmallVector<HostTensor> CompiledGraph::getOutputs() const {
  SmallVector<HostTensor> result;
  for (const auto &buffer : outputs) {
    if (buffer->device && buffer->bytes)
      tsmlirCudaMemcpyDtoH(buffer->data, buffer->device, buffer->bytes,
                           nullptr);
    HostTensor t;
    t.descr = buffer->descr;
    t.shape = buffer->shape;
    auto *bytes = static_cast<const uint8_t *>(buffer->data);
    t.data.assign(bytes, bytes + buffer->bytes);
    result.push_back(std::move(t));
  }
  return result;
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

/// Runs `pipeline` (passes on the module, `builtin.module(...)` left out).
static LogicalResult runPipeline(ModuleOp module, StringRef pipeline) {
  PassManager pm(module->getName());
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    return failure();
  return pm.run(module);
}

static void dump(ModuleOp module, const CpuCompileOptions &options,
                 StringRef stage) {
  if (options.dumpDir.empty())
    return;
  llvm::sys::fs::create_directories(options.dumpDir);
  std::error_code ec;
  llvm::raw_fd_ostream os(options.dumpDir + "/" + stage.str() + ".mlir", ec);
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

FailureOr<std::unique_ptr<CompiledGraph>>
CompiledGraph::compile(ModuleOp module, ArrayRef<RunValue> inputs,
                       const CpuCompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  MLIRContext *ctx = module.getContext();
  func::FuncOp func = findEntryFunction(module, options.entry);
  if (!func)
    return module.emitError()
           << (options.entry.empty()
                   ? std::string("no entry function: name it with --entry")
                   : "no function named '" + options.entry + "'");
  std::string entry = func.getSymName().str();

  // Calls inlined; a module's attributes frozen into constants.
  bool hasSelf = func.getNumArguments() > 0 && isObject(func.getArgumentTypes()[0]);
  if (failed(runPipeline(module, hasSelf ? "ts-inline,ts-freeze" : "ts-inline")))
    return failure();
  func = module.lookupSymbol<func::FuncOp>(entry);
  if (hasSelf) {
    if (!func.getArgument(0).use_empty())
      return func.emitError()
             << "the module's attributes are still read after freezing: "
                "give their values with --params";
    (void)func.eraseArgument(0);
  }

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

  // Tensors specialise their arguments' types; ints, bools and None become
  // constants; floats stay arguments.
  SmallVector<std::string> tensorSpecs(numArgs); // "f32[2,3]", by argument
  llvm::BitVector erase(numArgs);
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
      std::string dtype = getSpecDtype(input.tensor.header);
      if (dtype.empty())
        return fail("the dtype '" + input.tensor.header.descr +
                    "' of '" + input.text + "' has no PyTorch dtype");
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
      // A declared dtype that differs is reported by ts-specialize.
      tensorSpecs[i] = dtype + "[";
      for (auto [d, s] : llvm::enumerate(shape))
        tensorSpecs[i] += (d ? "," : "") + std::to_string(s);
      tensorSpecs[i] += "]";
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
      break;
    }
    }
  }
  if (failed(func.eraseArguments(erase)))
    return failure();
  // ts-specialize numbers the arguments that are left.
  std::string spec = "func=" + entry;
  bool specialises = false;
  for (unsigned i = 0, next = 0; i < numArgs; ++i) {
    if (erase.test(i))
      continue;
    if (!tensorSpecs[i].empty()) {
      spec += ",arg" + std::to_string(next) + "=" + tensorSpecs[i];
      specialises = true;
    }
    ++next;
  }
  std::string pipeline;
  if (specialises)
    pipeline += "ts-specialize{" + spec + "},";
  pipeline += "ts-optimize";
  if (!options.strategy.empty())
    pipeline += ",func.func(ts-create-fusion-groups{strategy=" +
                options.strategy + "})";
  if (failed(runPipeline(module, pipeline)))
    return failure();
  dump(module, options, "ts");

  auto graph = std::unique_ptr<CompiledGraph>(new CompiledGraph());
  func = module.lookupSymbol<func::FuncOp>(entry);
  module.walk([&](fusion::GroupOp) { ++graph->numFusionGroups; });

  // The buffers: run-time arguments, then results.
  for (Type type : func.getArgumentTypes()) {
    if (llvm::isa<ts::FloatType>(type)) {
      graph->arguments.push_back(nullptr);
      graph->floatArguments.push_back(0);
      continue;
    }
    auto tensor = llvm::dyn_cast<ts::TensorType>(type);
    if (!tensor || !tensor.hasStaticShape() || !tensor.hasDtype())
      return func.emitError() << "argument of type " << type
                              << " is not a tensor of known dtype and shape";
    unsigned bits = tensor.getDtype().getIntOrFloatBitWidth();
    graph->arguments.push_back(std::make_unique<Buffer>(
        getNpyDescr(tensor.getDtype()), tensor.getSizesOrEmpty(),
        std::max(bits / 8, 1u), graph->arguments.size()));
  }
  SmallVector<Type> results;
  for (Type type : func.getResultTypes())
    flattenResultTypes(type, results);
  for (auto [i, type] : llvm::enumerate(results)) {
    std::string descr;
    SmallVector<int64_t> shape;
    unsigned size = 0;
    if (auto tensor = llvm::dyn_cast<ts::TensorType>(type)) {
      if (!tensor.hasStaticShape() || !tensor.hasDtype())
        return func.emitError()
               << "output " << i << " has type " << type
               << ": its dtype and shape are not known after specialisation";
      descr = getNpyDescr(tensor.getDtype());
      shape.assign(tensor.getSizesOrEmpty().begin(),
                   tensor.getSizesOrEmpty().end());
      size = std::max(tensor.getDtype().getIntOrFloatBitWidth() / 8, 1u);
    } else if (llvm::isa<ts::IntType>(type)) {
      descr = "<i8", size = 8;
    } else if (llvm::isa<ts::FloatType>(type)) {
      descr = "<f8", size = 8;
    } else if (llvm::isa<ts::BoolType>(type)) {
      descr = "|b1", size = 1;
    }
    if (descr.empty())
      return func.emitError() << "output " << i << " has type " << type
                              << ": tsmlir-run returns tensors and numbers";
    graph->outputTypes.push_back(describe(type));
    graph->outputs.push_back(std::make_unique<Buffer>(
        descr, shape, size, graph->arguments.size() + graph->outputs.size()));
  }

  if (options.device == CpuCompileOptions::Device::CUDA) {
    if (failed(graph->compileForCUDA(module, entry, options)))
      return failure();
    if (!options.compileOnly) {
      graph->pack();
      graph->setInputs(inputs);
    }
    graph->compileSeconds = std::chrono::duration<double>(
                                std::chrono::steady_clock::now() - start)
                                .count();
    return graph;
  }
  // Lowered for the CPU.
  PassManager pm(ctx);
  LowerToLLVMOptions lowering;
  lowering.entry = entry;
  lowering.threads = options.threads;
  lowering.approximateMath = options.approximateMath;
  if (options.dumpDir.empty()) {
    buildLowerToLLVMPipeline(pm, lowering);
    if (failed(pm.run(module)))
      return failure();
  } else {
    buildTSToLinalgPipeline(pm, lowering);
    if (failed(pm.run(module)))
      return failure();
    dump(module, options, "linalg");
    PassManager rest(ctx);
    buildLinalgToLoopsPipeline(rest, lowering);
    buildLoopsToLLVMPipeline(rest, lowering);
    if (failed(rest.run(module)))
      return failure();
    dump(module, options, "llvm");
  }

  // JIT-compiled for this machine.
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  registerBuiltinDialectTranslation(*ctx);
  registerLLVMDialectTranslation(*ctx);
  registerOpenMPDialectTranslation(*ctx);
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return module.emitError() << "cannot target this machine: "
                              << llvm::toString(tmBuilder.takeError());
  tmBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto tm = tmBuilder->createTargetMachine();
  if (!tm)
    return module.emitError() << "cannot target this machine: "
                              << llvm::toString(tm.takeError());
  ExecutionEngineOptions engineOptions;
  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(3, 0, tm->get());
  engineOptions.transformer = optimize;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  SmallVector<StringRef> libs;
  if (options.threads != 1) {
    if (StringRef(TSMLIR_OPENMP_RUNTIME).empty())
      return module.emitError()
             << "--threads " << options.threads
             << " needs the OpenMP runtime, which this build did not find "
                "(Debian: libomp-22-dev)";
    libs.push_back(TSMLIR_OPENMP_RUNTIME);
  }
  engineOptions.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(module, engineOptions, std::move(*tm));
  if (!engine)
    return module.emitError() << "cannot compile: "
                              << llvm::toString(engine.takeError());
  graph->engine = std::move(*engine);
  graph->symbol = "_mlir_ciface_" + entry;
  // Looking the entry up compiles the module to machine code now, once:
  // calls do not look it up again.
  auto fn = graph->engine->lookupPacked(graph->symbol);
  if (!fn)
    return module.emitError() << "cannot compile: "
                              << llvm::toString(fn.takeError());
  graph->entryPoint = *fn;
  graph->pack();
  graph->setInputs(inputs);
  graph->compileSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - start)
                              .count();
  return graph;
}

//===----------------------------------------------------------------------===//
// CUDA
//===----------------------------------------------------------------------===//

/// Writes the PTX that `module`'s gpu.binary ops embed to DIR/<name>.ptx.
static void dumpPTX(ModuleOp module, StringRef dir) {
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute object : binary.getObjects()) {
      auto obj = llvm::dyn_cast<gpu::ObjectAttr>(object);
      if (!obj || obj.getFormat() != gpu::CompilationTarget::Assembly)
        continue;
      std::error_code ec;
      llvm::raw_fd_ostream os(
          (dir + "/" + binary.getSymName() + ".ptx").str(), ec);
      if (!ec)
        os << obj.getObject().getValue();
    }
  });
}

LogicalResult CompiledGraph::compileForCUDA(ModuleOp module, StringRef entry,
                                            const CpuCompileOptions &options) {
  MLIRContext *ctx = module.getContext();
  onGPU = true;
  LowerToNVVMOptions lowering;
  lowering.entry = entry.str();
  lowering.chip = options.gpuChip;
  lowering.format = options.gpuFormat;
  PassManager kernels(ctx);
  buildTSToGPUPipeline(kernels, lowering);
  if (failed(kernels.run(module)))
    return failure();
  dump(module, options, "gpu");
  module.walk([&](gpu::LaunchOp) { ++numKernels; });
  PassManager nvvm(ctx);
  buildGPUToNVVMPipeline(nvvm, lowering);
  if (failed(nvvm.run(module)))
    return failure();
  dump(module, options, "llvm");
  if (!options.dumpDir.empty())
    dumpPTX(module, options.dumpDir);
  if (options.compileOnly)
    return success();

  // The device: the runtime loads the driver now; no driver, no device and
  // a driver too old for the PTX are all reported here.
  if (tsmlirCudaInit() != TSMLIR_CUDA_SUCCESS)
    return module.emitError() << tsmlirCudaGetLastError();
  char name[256] = {0};
  if (tsmlirCudaDeviceName(name, sizeof(name)) == TSMLIR_CUDA_SUCCESS)
    deviceName = name;
  for (auto &buffer : arguments)
    if (buffer && failed(buffer->allocateOnDevice()))
      return module.emitError() << tsmlirCudaGetLastError();
  for (auto &buffer : outputs)
    if (failed(buffer->allocateOnDevice()))
      return module.emitError() << tsmlirCudaGetLastError();

  // The host code, JIT-compiled; its constructors load the kernels.
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerAllGPUToLLVMIRTranslations(registry);
  ctx->appendDialectRegistry(registry);
  ExecutionEngineOptions engineOptions;
  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(2, 0, nullptr);
  engineOptions.transformer = optimize;
  auto engine = ExecutionEngine::create(module, engineOptions);
  if (!engine)
    return module.emitError() << "cannot compile: "
                              << llvm::toString(engine.takeError());
  this->engine = std::move(*engine);
  symbol = "_mlir_ciface_" + entry.str();
  auto fn = this->engine->lookupPacked(symbol);
  if (!fn)
    return module.emitError() << "cannot compile: "
                              << llvm::toString(fn.takeError());
  entryPoint = *fn;
  // The module's constructors load the kernels (PTX compiled by the
  // driver), which may fail.
  this->engine->initialize();
  if (failed(checkCudaErrors()))
    return failure();
  return success();
}
