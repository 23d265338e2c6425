//===- Jit.cpp - C API of the tsmlir JIT ----------------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each function owns its MLIRContext, the source buffers diagnostics point
// into, and the JitFunction. Diagnostics are collected per thread while a
// call (or the load) runs and written into the caller's error buffer.
//
//===----------------------------------------------------------------------===//

#include "tsmlir-c/Jit.h"

#include "tsmlir/Compiler/Load.h"
#include "tsmlir/InitAll.h"
#include "tsmlir/JIT/JitFunction.h"
#include "tsmlir/Support/Npy.h"
#include "tsmlir/Target/TorchScript/Import.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <mutex>
#include <thread>

using namespace mlir;
using namespace mlir::tsmlir;

struct tsmlir_jit_function {
  std::unique_ptr<MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<jit::JitFunction> function;
  /// The diagnostics of the calls in flight, by thread.
  std::mutex diagnosticsMutex;
  std::map<std::thread::id, std::string> diagnostics;
};

struct tsmlir_jit_result {
  jit::CallResult call;
  std::string path;
};

namespace {

/// Writes `message` into the caller's buffer, cut to fit.
void setError(char *error, size_t size, const std::string &message) {
  if (!error || size == 0)
    return;
  size_t n = std::min(size - 1, message.size());
  std::memcpy(error, message.data(), n);
  error[n] = '\0';
}

/// Collects the diagnostics reported on this thread while it lives.
class Collect {
public:
  explicit Collect(tsmlir_jit_function &f) : f(f) {
    std::lock_guard<std::mutex> lock(f.diagnosticsMutex);
    f.diagnostics[std::this_thread::get_id()].clear();
  }
  ~Collect() {
    std::lock_guard<std::mutex> lock(f.diagnosticsMutex);
    f.diagnostics.erase(std::this_thread::get_id());
  }
  std::string take() {
    std::lock_guard<std::mutex> lock(f.diagnosticsMutex);
    return f.diagnostics[std::this_thread::get_id()];
  }

private:
  tsmlir_jit_function &f;
};

/// The diagnostic handler: each diagnostic, with its notes, as text
/// (`file:line:col: error: message`), appended to its thread's record.
void installHandler(tsmlir_jit_function &f) {
  f.context->getDiagEngine().registerHandler([&f](Diagnostic &diag) {
    std::string text;
    llvm::raw_string_ostream os(text);
    auto print = [&](Diagnostic &d) {
      if (auto loc = llvm::dyn_cast<FileLineColLoc>(d.getLocation()))
        os << loc.getFilename().getValue() << ":" << loc.getLine() << ":"
           << loc.getColumn() << ": ";
      switch (d.getSeverity()) {
      case DiagnosticSeverity::Error:
        os << "error: ";
        break;
      case DiagnosticSeverity::Warning:
        os << "warning: ";
        break;
      case DiagnosticSeverity::Note:
        os << "note: ";
        break;
      case DiagnosticSeverity::Remark:
        os << "remark: ";
        break;
      }
      os << d.str() << "\n";
    };
    print(diag);
    for (Diagnostic &note : diag.getNotes())
      print(note);
    std::lock_guard<std::mutex> lock(f.diagnosticsMutex);
    auto it = f.diagnostics.find(std::this_thread::get_id());
    if (it != f.diagnostics.end())
      it->second += text;
    return success();
  });
}

MLIRContext *makeContext() {
  static std::once_flag passes;
  std::call_once(passes, [] { registerAllPasses(); });
  DialectRegistry registry;
  registerAllDialectsWithUpstream(registry);
  registerTorchScriptImportDialects(registry);
  auto *context = new MLIRContext(registry);
  context->loadAllAvailableDialects();
  context->printOpOnDiagnostic(false);
  return context;
}

/// An argument as the JIT takes it: tensors copied into C order.
FailureOr<RunValue> toRunValue(const tsmlir_jit_value &value,
                               std::string &error) {
  RunValue run;
  switch (value.kind) {
  case TSMLIR_JIT_INT:
    run.kind = RunValue::Kind::Int;
    run.intValue = value.int_value;
    run.text = std::to_string(value.int_value);
    return run;
  case TSMLIR_JIT_FLOAT:
    run.kind = RunValue::Kind::Float;
    run.floatValue = value.float_value;
    run.text = std::to_string(value.float_value);
    return run;
  case TSMLIR_JIT_BOOL:
    run.kind = RunValue::Kind::Bool;
    run.boolValue = value.int_value != 0;
    run.text = run.boolValue ? "true" : "false";
    return run;
  case TSMLIR_JIT_NONE:
    run.kind = RunValue::Kind::None;
    run.text = "none";
    return run;
  case TSMLIR_JIT_TENSOR:
    break;
  default:
    error = "an argument of unknown kind " + std::to_string(value.kind);
    return failure();
  }
  const tsmlir_tensor &t = value.tensor;
  std::optional<Dtype> dtype = getDtypeForAbiCode(t.dtype);
  if (!dtype || t.rank < 0 || (t.rank > 0 && !t.sizes)) {
    error = "a tensor of unknown dtype " + std::to_string(t.dtype) +
            " or without its sizes";
    return failure();
  }
  ArrayRef<int64_t> sizes(t.sizes, t.rank);
  llvm::Expected<NpyHeader> header = makeNpyHeader(*dtype, sizes);
  if (!header) {
    error = llvm::toString(header.takeError());
    return failure();
  }
  run.kind = RunValue::Kind::Tensor;
  run.tensor.header = std::move(*header);
  size_t itemSize = run.tensor.header.itemSize;
  int64_t count = run.tensor.numElements();
  run.tensor.data.resize(run.tensor.header.dataSize);
  if (count > 0 && !t.data) {
    error = "a tensor without data";
    return failure();
  }
  // Row-major strides when none are given; otherwise each element from its
  // strided place.
  SmallVector<int64_t> index(t.rank, 0);
  const auto *source = static_cast<const uint8_t *>(t.data);
  for (int64_t k = 0; k < count; ++k) {
    int64_t offset = 0, stride = 1;
    for (int32_t d = t.rank - 1; d >= 0; --d) {
      offset += index[d] * (t.strides ? t.strides[d] : stride);
      stride *= sizes[d];
    }
    std::memcpy(run.tensor.data.data() + k * itemSize,
                source + offset * static_cast<int64_t>(itemSize), itemSize);
    for (int32_t d = t.rank - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
  // Named in messages by its type, as tsmlir-run names a file.
  run.text = getDtypeInfo(*dtype).npyDescr.drop_front().str() + "[";
  for (auto [i, size] : llvm::enumerate(sizes))
    run.text += (i ? "," : "") + std::to_string(size);
  run.text += "]";
  return run;
}

} // namespace

extern "C" tsmlir_jit_function *
tsmlir_jit_load(const char *path, const tsmlir_jit_options *options,
                char *error, size_t errorSize) {
  if (!path) {
    setError(error, errorSize, "tsmlir_jit_load: no path");
    return nullptr;
  }
  tsmlir_jit_options defaults{};
  const tsmlir_jit_options &opts = options ? *options : defaults;
  auto f = std::make_unique<tsmlir_jit_function>();
  f->context.reset(makeContext());
  installHandler(*f);
  Collect collect(*f);
  LoadOptions load;
  if (opts.entry)
    load.entry = opts.entry;
  if (opts.params)
    load.paramsFile = opts.params;
  std::string loadError;
  OwningOpRef<ModuleOp> module =
      loadModule(path, load, f->context.get(), f->sourceMgr, loadError);
  if (!module) {
    setError(error, errorSize, loadError.empty() ? collect.take() : loadError);
    return nullptr;
  }
  jit::JitOptions jitOptions;
  if (opts.entry)
    jitOptions.compile.entry = opts.entry;
  if (opts.fusion && !jitOptions.compile.setFusion(opts.fusion)) {
    setError(error, errorSize,
             std::string("unknown fusion strategy '") + opts.fusion +
                 "' (nnc, pointwise, nvfuser, aggressive or none)");
    return nullptr;
  }
  if (opts.threads > 0)
    jitOptions.compile.threads = opts.threads;
  if (opts.profile_runs > 0)
    jitOptions.profileRuns = opts.profile_runs;
  if (opts.compile_budget_ms > 0)
    jitOptions.compileBudgetMs = opts.compile_budget_ms;
  if (opts.strategy) {
    llvm::Expected<jit::FusionStrategy> strategy =
        jit::FusionStrategy::parse(opts.strategy);
    if (!strategy) {
      setError(error, errorSize, llvm::toString(strategy.takeError()));
      return nullptr;
    }
    jitOptions.strategy = *strategy;
  }
  f->function = jit::JitFunction::create(std::move(module), jitOptions);
  return f.release();
}

extern "C" void tsmlir_jit_free(tsmlir_jit_function *function) {
  delete function;
}

extern "C" void tsmlir_jit_wait(tsmlir_jit_function *function) {
  if (function)
    function->function->waitForCompilations();
}

extern "C" int tsmlir_jit_call(tsmlir_jit_function *function,
                               const tsmlir_jit_value *arguments,
                               int32_t numArguments, tsmlir_jit_result **result,
                               char *error, size_t errorSize) {
  if (!function || !result || numArguments < 0 ||
      (numArguments > 0 && !arguments)) {
    setError(error, errorSize, "tsmlir_jit_call: bad arguments");
    return 1;
  }
  SmallVector<RunValue> values;
  for (int32_t i = 0; i < numArguments; ++i) {
    std::string why;
    FailureOr<RunValue> value = toRunValue(arguments[i], why);
    if (failed(value)) {
      setError(error, errorSize, "argument " + std::to_string(i) + ": " + why);
      return 1;
    }
    values.push_back(std::move(*value));
  }
  Collect collect(*function);
  std::string raised;
  FailureOr<jit::CallResult> call = function->function->call(values, &raised);
  if (failed(call)) {
    std::string diagnostics = collect.take();
    setError(error, errorSize,
             !raised.empty()        ? "the graph raised an exception: " + raised
             : !diagnostics.empty() ? diagnostics
                                    : std::string("the call failed"));
    return 1;
  }
  auto *r = new tsmlir_jit_result;
  r->call = std::move(*call);
  r->path = jit::getCallPathName(r->call.path).str();
  *result = r;
  return 0;
}

extern "C" int32_t
tsmlir_jit_result_num_outputs(const tsmlir_jit_result *result) {
  return result ? static_cast<int32_t>(result->call.outputs.size()) : 0;
}

extern "C" tsmlir_tensor
tsmlir_jit_result_output(const tsmlir_jit_result *result, int32_t index) {
  tsmlir_tensor tensor{};
  if (!result || index < 0 ||
      index >= static_cast<int32_t>(result->call.outputs.size()))
    return tensor;
  const HostTensor &t = result->call.outputs[index];
  tensor.data = const_cast<uint8_t *>(t.data.data());
  tensor.dtype = static_cast<tsmlir_dtype>(getDtypeInfo(t.dtype).abiCode);
  tensor.rank = static_cast<int32_t>(t.shape.size());
  tensor.sizes = t.shape.data();
  tensor.strides = nullptr;
  return tensor;
}

extern "C" const char *tsmlir_jit_result_path(const tsmlir_jit_result *result) {
  return result ? result->path.c_str() : "";
}

extern "C" void tsmlir_jit_result_free(tsmlir_jit_result *result) {
  delete result;
}
