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
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
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
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <csetjmp>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>

using namespace mlir;
using namespace mlir::tsmlir;

#ifndef TSMLIR_OPENMP_RUNTIME
#define TSMLIR_OPENMP_RUNTIME ""
#endif

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// A memref the compiled code reads or writes: 64-byte aligned data and the
/// descriptor MLIR's C interface passes by pointer.
struct CompiledGraph::Buffer {
  Dtype dtype;
  SmallVector<int64_t> shape;
  size_t bytes = 0;
  void *data = nullptr;
  std::vector<int64_t> descriptor;
  void *descriptorPtr = nullptr;
  void *allocation = nullptr;
  /// The bytes `allocation` holds from `data` on.
  size_t capacity = 0;
  /// Whether the compiled code takes it with dynamic sizes, which each
  /// call sets (`reshape`).
  bool dynamic = false;
  unsigned index;

  /// Buffer `index` starts `index * 320` bytes into a page: buffers that a
  /// loop reads and writes at the same index then never share their address
  /// bits below 4 KiB, which would stall loads behind stores (4K aliasing).
  /// Dynamic sizes are 0 until a call sets them.
  Buffer(Dtype dtype, ArrayRef<int64_t> shape, unsigned index)
      : dtype(dtype), index(index) {
    descriptor.assign(3 + 2 * shape.size(), 0);
    descriptorPtr = descriptor.data();
    SmallVector<int64_t> sizes;
    for (int64_t d : shape) {
      dynamic |= ShapedType::isDynamic(d);
      sizes.push_back(ShapedType::isDynamic(d) ? 0 : d);
    }
    reshape(sizes);
  }

  /// Gives the buffer `sizes` (zero-filled when its memory is new); false,
  /// with `allocation` null, when the size overflows or the system refuses
  /// the memory.
  bool reshape(ArrayRef<int64_t> sizes) {
    shape.assign(sizes.begin(), sizes.end());
    uint64_t n = getDtypeInfo(dtype).byteSize;
    for (int64_t d : shape)
      if (__builtin_mul_overflow(n, static_cast<uint64_t>(d), &n))
        return release();
    bytes = n;
    if (!allocation || bytes > capacity) {
      std::free(allocation);
      allocation = nullptr;
      size_t offset = (index * 320) % 4096;
      if (bytes > std::numeric_limits<size_t>::max() - offset - 2 * 4096)
        return release();
      size_t size = (bytes + offset + 4095) / 4096 * 4096 + 4096;
      allocation = std::aligned_alloc(4096, size);
      if (!allocation)
        return release();
      data = static_cast<char *>(allocation) + offset;
      capacity = size - offset;
      std::memset(data, 0, bytes);
    }
    descriptor[0] = descriptor[1] = reinterpret_cast<int64_t>(data);
    size_t rank = shape.size();
    int64_t stride = 1;
    for (size_t d = rank; d-- > 0;) {
      descriptor[3 + d] = shape[d];
      descriptor[3 + rank + d] = stride;
      stride *= shape[d];
    }
    return true;
  }
  bool release() {
    std::free(allocation);
    allocation = data = nullptr;
    capacity = 0;
    return false;
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

  HostTensor leadingCorner(const int64_t *sizes) const;
};

CompiledGraph::~CompiledGraph() = default;

namespace {
/// Where a failed assertion of compiled code called on this thread goes
/// back to (callCatchingRaise), and its message.
thread_local std::jmp_buf *raiseTarget = nullptr;
thread_local const char *raiseMessage = nullptr;
} // namespace

/// tsmlir_raise (ts-raise-hook) for code compiled in process: back to the
/// call of the entry on this thread. Elsewhere (an OpenMP worker) it
/// returns and the assertion aborts.
extern "C" void tsmlirRaiseFromCompiledCode(const char *message) {
  if (!raiseTarget)
    return;
  raiseMessage = message;
  std::longjmp(*raiseTarget, 1);
}

/// Calls `entry` on `args`; false, with the message, when its code raised.
/// (The compiled code has no destructors to skip; what it allocated before
/// the failure is not freed.)
static bool callCatchingRaise(void (*entry)(void **), void **args,
                              std::string &message) {
  std::jmp_buf target;
  std::jmp_buf *outer = raiseTarget;
  raiseTarget = &target;
  if (setjmp(target) != 0) {
    raiseTarget = outer;
    message = raiseMessage ? raiseMessage : "";
    return false;
  }
  entry(args);
  raiseTarget = outer;
  return true;
}

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
  for (auto &buffer : outputSizes)
    if (buffer)
      packed.push_back(&buffer->descriptorPtr);
}

LogicalResult CompiledGraph::setInputs(ArrayRef<RunValue> inputs) {
  size_t nextFloat = 0, nextArg = 0;
  for (const RunValue &input : inputs) {
    if (input.kind == RunValue::Kind::Tensor) {
      Buffer &buffer = *arguments[nextArg++];
      if (buffer.dynamic && !buffer.reshape(input.tensor.shape()))
        return failure();
      // An empty tensor's data may be null, which memcpy must not get.
      if (size_t bytes = std::min(buffer.bytes, input.tensor.data.size()))
        std::memcpy(buffer.data, input.tensor.data.data(), bytes);
      if (buffer.device && buffer.bytes)
        tsmlirCudaMemcpyHtoD(buffer.device, buffer.data, buffer.bytes,
                             nullptr);
    } else if (input.kind == RunValue::Kind::Float && nextArg < arguments.size() &&
               !arguments[nextArg]) {
      floatArguments[nextFloat++] = input.floatValue;
      ++nextArg;
    }
  }
  return sizeOutputs();
}

LogicalResult CompiledGraph::sizeOutputs() {
  for (auto [buffer, dims] : llvm::zip(outputs, resultDims)) {
    if (dims.empty())
      continue;
    SmallVector<int64_t> shape;
    for (size_t i = 0; i + 1 < dims.size(); i += 2)
      shape.push_back(dims[i] < 0 ? dims[i + 1]
                                  : arguments[dims[i]]->shape[dims[i + 1]]);
    if (!buffer->reshape(shape))
      return failure();
  }
  return success();
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
  raised.clear();
  if (!callCatchingRaise(entryPoint, packed.data(), raised))
    return failure();
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

/// The elements of `buffer` (row-major, of its bound shape) in the leading
/// corner of `sizes`, which the compiled code wrote: an output sized at run
/// time. Sizes beyond the bound (which the code never writes) are clamped.
HostTensor CompiledGraph::Buffer::leadingCorner(const int64_t *sizes) const {
  const Buffer &buffer = *this;
  HostTensor t;
  t.dtype = buffer.dtype;
  size_t rank = buffer.shape.size();
  int64_t count = 1;
  for (size_t d = 0; d < rank; ++d) {
    t.shape.push_back(std::clamp<int64_t>(sizes[d], 0, buffer.shape[d]));
    count *= t.shape.back();
  }
  size_t elementSize = getDtypeInfo(buffer.dtype).byteSize;
  t.data.resize(count * elementSize);
  auto *from = static_cast<const uint8_t *>(buffer.data);
  // Each element's index in the bound shape, from its index in the corner.
  for (int64_t i = 0; i < count; ++i) {
    int64_t rest = i, offset = 0, stride = 1;
    for (size_t d = rank; d-- > 0;) {
      offset += (rest % t.shape[d]) * stride;
      rest /= t.shape[d];
      stride *= buffer.shape[d];
    }
    std::memcpy(t.data.data() + i * elementSize, from + offset * elementSize,
                elementSize);
  }
  return t;
}

bool CompiledGraph::canInvokeInPlace() const {
  return !onGPU && llvm::none_of(outputSizes, [](const auto &sizes) {
    return static_cast<bool>(sizes);
  }) && llvm::none_of(arguments, [](const auto &buffer) {
    return buffer && buffer->dynamic;
  });
}

SmallVector<std::pair<Dtype, SmallVector<int64_t>>>
CompiledGraph::getOutputSpecs() const {
  SmallVector<std::pair<Dtype, SmallVector<int64_t>>> specs;
  for (const auto &buffer : outputs)
    specs.emplace_back(buffer->dtype, buffer->shape);
  return specs;
}

LogicalResult CompiledGraph::invokeInPlace(ArrayRef<RunValue> inputs,
                                           ArrayRef<const void *> tensorData,
                                           ArrayRef<void *> outputData) {
  if (!canInvokeInPlace() || outputData.size() != outputs.size())
    return failure();
  // The descriptors point at the caller's memory for this call.
  SmallVector<std::pair<Buffer *, int64_t>> saved;
  auto point = [&](Buffer &buffer, const void *data) {
    saved.emplace_back(&buffer, buffer.descriptor[1]);
    buffer.descriptor[0] = buffer.descriptor[1] =
        reinterpret_cast<int64_t>(data);
  };
  size_t nextFloat = 0, nextArg = 0, nextTensor = 0;
  for (const RunValue &input : inputs) {
    if (input.kind == RunValue::Kind::Tensor) {
      if (nextArg >= arguments.size() || nextTensor >= tensorData.size() ||
          !arguments[nextArg])
        break;
      point(*arguments[nextArg++], tensorData[nextTensor++]);
    } else if (input.kind == RunValue::Kind::Float &&
               nextArg < arguments.size() && !arguments[nextArg]) {
      floatArguments[nextFloat++] = input.floatValue;
      ++nextArg;
    }
  }
  bool complete = nextTensor == tensorData.size();
  if (complete)
    for (auto [buffer, data] : llvm::zip(outputs, outputData))
      point(*buffer, data);
  raised.clear();
  bool returned = complete && entryPoint &&
                  callCatchingRaise(entryPoint, packed.data(), raised);
  for (auto [buffer, data] : saved)
    buffer->descriptor[0] = buffer->descriptor[1] = data;
  return success(returned);
}

SmallVector<HostTensor> CompiledGraph::getOutputs() const {
  SmallVector<HostTensor> result;
  for (auto [i, buffer] : llvm::enumerate(outputs)) {
    if (buffer->device && buffer->bytes)
      tsmlirCudaMemcpyDtoH(buffer->data, buffer->device, buffer->bytes,
                           nullptr);
    HostTensor t;
    t.dtype = buffer->dtype;
    t.shape = buffer->shape;
    auto *bytes = static_cast<const uint8_t *>(buffer->data);
    if (const Buffer *sizes = outputSizes[i].get())
      t = buffer->leadingCorner(static_cast<const int64_t *>(sizes->data));
    else
      t.data.assign(bytes, bytes + buffer->bytes);
    result.push_back(std::move(t));
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

FailureOr<std::unique_ptr<CompiledGraph>>
CompiledGraph::compile(ModuleOp module, ArrayRef<RunValue> inputs,
                       const CompileOptions &options, bool compileOnly) {
  auto start = std::chrono::steady_clock::now();
  // Seconds since the last call (since `start` for the first).
  auto stage = [last = start]() mutable {
    auto now = std::chrono::steady_clock::now();
    double seconds = std::chrono::duration<double>(now - last).count();
    last = now;
    return seconds;
  };
  MLIRContext *ctx = module.getContext();
  FailureOr<PreparedGraph> prepared =
      prepareGraph(module, inputs, options,
                   /*sizedAtRunTime=*/options.device == Device::CPU);
  if (failed(prepared))
    return failure();
  double prepareSeconds = stage();
  std::string entry = prepared->entry;

  // The buffers: run-time arguments, then results.
  auto graph = std::unique_ptr<CompiledGraph>(new CompiledGraph());
  graph->stageSeconds.prepare = prepareSeconds;
  graph->numFusionGroups = prepared->numFusionGroups;
  graph->noneOutputs = prepared->noneOutputs;
  graph->gradParams = prepared->gradParams;
  for (const GraphValue &input : prepared->inputs) {
    if (input.isNumber) {
      graph->arguments.push_back(nullptr);
      graph->floatArguments.push_back(0);
      continue;
    }
    graph->arguments.push_back(std::make_unique<Buffer>(
        input.dtype, input.shape, graph->arguments.size()));
    if (!graph->arguments.back()->allocation)
      return module.emitError()
             << "cannot allocate the " << graph->arguments.back()->bytes
             << " bytes of input " << input.position << " (" << input.typeText
             << ")";
  }
  for (const GraphValue &output : prepared->outputs) {
    graph->outputTypes.push_back(output.typeText);
    graph->outputs.push_back(std::make_unique<Buffer>(
        output.dtype, output.shape,
        graph->arguments.size() + graph->outputs.size()));
    if (!graph->outputs.back()->allocation)
      return module.emitError()
             << "cannot allocate the " << graph->outputs.back()->bytes
             << " bytes of output " << graph->outputs.size() - 1 << " ("
             << output.typeText << ")";
  }
  for (const GraphValue &output : prepared->outputs)
    graph->outputSizes.push_back(
        output.sizedAtRunTime
            ? std::make_unique<Buffer>(
                  Dtype::Long,
                  ArrayRef<int64_t>{static_cast<int64_t>(output.shape.size())},
                  graph->arguments.size() + graph->outputs.size() +
                      graph->outputSizes.size())
            : nullptr);

  if (options.device == Device::CUDA) {
    stage();
    if (failed(graph->compileForCUDA(module, entry, options, compileOnly)))
      return failure();
    graph->stageSeconds.lower = stage();
    if (!compileOnly) {
      graph->pack();
      if (failed(graph->setInputs(inputs)))
        return module.emitError() << "cannot allocate the buffers";
    }
    graph->compileSeconds = std::chrono::duration<double>(
                                std::chrono::steady_clock::now() - start)
                                .count();
    return graph;
  }
  // Lowered for the CPU.
  PassManager pm(ctx);
  LowerToLLVMOptions lowering;
  getLoweringOptions(options, entry, lowering);
  // A raise comes back to invoke() rather than aborting the process.
  lowering.raiseHook = true;
  stage();
  buildTSToLinalgPipeline(pm, lowering);
  if (failed(pm.run(module)))
    return failure();
  graph->stageSeconds.linalg = stage();
  dumpModule(module, options.dumpDir, "linalg");
  // Outputs of dynamic sizes: which arguments' sizes they have.
  graph->resultDims.resize(graph->outputs.size());
  if (func::FuncOp func = findEntryFunction(module, entry)) {
    if (auto dims = func->getAttrOfType<ArrayAttr>(kResultDimsAttrName)) {
      for (auto [i, attr] :
           llvm::enumerate(dims.getAsRange<DenseI64ArrayAttr>()))
        if (i < graph->resultDims.size())
          graph->resultDims[i].assign(attr.asArrayRef().begin(),
                                      attr.asArrayRef().end());
      func->removeAttr(kResultDimsAttrName);
    }
  }
  for (auto [i, buffer, dims] :
       llvm::enumerate(graph->outputs, graph->resultDims)) {
    if (!buffer->dynamic)
      dims.clear();
    else if (dims.size() != 2 * buffer->shape.size())
      return module.emitError()
             << "output " << i << " (" << graph->outputTypes[i]
             << ") has dynamic sizes the code does not give";
  }
  PassManager rest(ctx);
  buildLinalgToLoopsPipeline(rest, lowering);
  buildLoopsToLLVMPipeline(rest, lowering);
  stage();
  if (failed(rest.run(module)))
    return failure();
  graph->stageSeconds.lower = stage();
  dumpModule(module, options.dumpDir, "llvm");

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
  std::optional<llvm::CodeGenOptLevel> codeGenLevel =
      llvm::CodeGenOpt::getLevel(std::min(options.optLevel, 3u));
  tmBuilder->setCodeGenOptLevel(*codeGenLevel);
  auto tm = tmBuilder->createTargetMachine();
  if (!tm)
    return module.emitError() << "cannot target this machine: "
                              << llvm::toString(tm.takeError());
  ExecutionEngineOptions engineOptions;
  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(std::min(options.optLevel, 3u), 0, tm->get());
  double optimizeSeconds = 0;
  std::function<llvm::Error(llvm::Module *)> timedOptimize =
      [&](llvm::Module *llvmModule) {
        auto t0 = std::chrono::steady_clock::now();
        llvm::Error error = optimize(llvmModule);
        optimizeSeconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
                .count();
        return error;
      };
  // A function_ref: timedOptimize outlives the engine's creation.
  engineOptions.transformer = timedOptimize;
  engineOptions.jitCodeGenOptLevel = *codeGenLevel;
  SmallVector<StringRef> libs;
  if (options.threads != 1) {
    if (StringRef(TSMLIR_OPENMP_RUNTIME).empty())
      return module.emitError()
             << "--threads " << options.threads
             << " needs the OpenMP runtime, which this build did not find "
                "(Debian: libomp-22-dev)";
    libs.push_back(TSMLIR_OPENMP_RUNTIME);
  }
  // Library kernels (convert-kernel-to-calls), loaded after libomp so that
  // oneDNN's OpenMP calls bind to the same runtime as the compiled code's.
  if (llvm::any_of(module.getOps<LLVM::LLVMFuncOp>(), [](LLVM::LLVMFuncOp f) {
        return f.isExternal() && f.getName().starts_with("tsmlir_kernel_");
      })) {
    if (!hasLibraryKernels())
      return module.emitError()
             << "the code calls libtsmlir_kernels, which this build lacks";
    libs.push_back(getLibraryKernelsPath());
  }
  engineOptions.sharedLibPaths = libs;
  // The JIT reports memory it cannot get for the code's sections (the static
  // buffers of huge intermediate tensors) as a fatal error: a message at the
  // graph and exit status 1, not an abort with a stack dump.
  std::string where;
  if (auto fileLoc = llvm::dyn_cast<FileLineColLoc>(module.getLoc()))
    where = (fileLoc.getFilename().getValue() + ":" +
             Twine(fileLoc.getLine()) + ":" + Twine(fileLoc.getColumn()) + ": ")
                .str();
  llvm::ScopedFatalErrorHandler fatalErrors(
      [](void *where, const char *reason, bool) {
        llvm::errs() << *static_cast<std::string *>(where)
                     << "error: cannot compile: " << reason << "\n";
        llvm::sys::Process::Exit(1, /*NoCleanup=*/true);
      },
      &where);
  stage();
  auto engine = ExecutionEngine::create(module, engineOptions, std::move(*tm));
  if (!engine)
    return module.emitError() << "cannot compile: "
                              << llvm::toString(engine.takeError());
  // create() translates to LLVM IR, then runs the optimiser.
  graph->stageSeconds.optimize = optimizeSeconds;
  graph->stageSeconds.translate = std::max(0.0, stage() - optimizeSeconds);
  graph->engine = std::move(*engine);
  graph->engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    symbols[interner("tsmlir_raise")] = {
        llvm::orc::ExecutorAddr::fromPtr(&tsmlirRaiseFromCompiledCode),
        llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  graph->symbol = "_mlir_ciface_" + entry;
  // Looking the entry up compiles the module to machine code now, once:
  // calls do not look it up again.
  auto fn = graph->engine->lookupPacked(graph->symbol);
  if (!fn)
    return module.emitError() << "cannot compile: "
                              << llvm::toString(fn.takeError());
  graph->stageSeconds.codegen = stage();
  graph->entryPoint = *fn;
  graph->pack();
  if (failed(graph->setInputs(inputs)))
    return module.emitError() << "cannot allocate the buffers of the inputs' "
                                 "sizes";
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
                                            const CompileOptions &options,
                                            bool compileOnly) {
  MLIRContext *ctx = module.getContext();
  onGPU = true;
  LowerToNVVMOptions lowering;
  getLoweringOptions(options, entry, lowering);
  PassManager kernels(ctx);
  buildTSToGPUPipeline(kernels, lowering);
  if (failed(kernels.run(module)))
    return failure();
  dumpModule(module, options.dumpDir, "gpu");
  module.walk([&](gpu::LaunchOp) { ++numKernels; });
  PassManager nvvm(ctx);
  buildGPUToNVVMPipeline(nvvm, lowering);
  if (failed(nvvm.run(module)))
    return failure();
  dumpModule(module, options.dumpDir, "llvm");
  if (!options.dumpDir.empty())
    dumpPTX(module, options.dumpDir);
  if (compileOnly)
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
