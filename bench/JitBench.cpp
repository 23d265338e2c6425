//===- JitBench.cpp - The JIT's cost per call and per signature -----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the JIT adds to a call, measured against the same compiled code
// called directly, in the same run, on `x * y + 1` of two f32 tensors of N
// elements (N = 4: the dispatch dominates; 4096: the copies do):
//
//   BM_JitCallHit          JitFunction::call that hits a specialisation:
//                          signature, cache lookup, the call, the outputs
//   BM_DirectCallBaseline  the baseline: the CompiledGraph the hit runs,
//                          called directly (setInputs, invoke, getOutputs)
//   BM_JitDynamicHit       JitFunction::call that hits a specialisation
//                          compiled for dynamic sizes (STATIC:0,DYNAMIC:1,
//                          compiled on other sizes): both guard keys, the
//                          lookups, the buffers sized for the call
//   BM_JitSignature        the guard key alone
//   BM_JitFirstCalls       a new JitFunction's first two calls: the profile
//                          (the fallback compiled) and the specialisation
//                          compiled, i.e. what a new signature costs
//   BM_JitGuardMiss        a call whose arguments fail the only guard once
//                          the static budget is spent: the decision under
//                          the exclusive lock and the fallback's run
//   BM_JitCacheHitNewFunction
//                          what another process pays for a signature the
//                          persistent cache holds: a new JitFunction's
//                          first call, which opens DIR/KEY.so and runs it
//
//===----------------------------------------------------------------------===//

#include "tsmlir/InitAll.h"
#include "tsmlir/JIT/JitFunction.h"
#include "tsmlir/Support/Npy.h"
#include "tsmlir/Target/TorchScript/Import.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <benchmark/benchmark.h>

#include <vector>

using namespace mlir;
using namespace mlir::tsmlir;

namespace {

constexpr llvm::StringLiteral kGraph = R"(graph(%x : Tensor, %y : Tensor):
  %one : int = prim::Constant[value=1]()
  %p : Tensor = aten::mul(%x, %y)
  %r : Tensor = aten::add(%p, %one, %one)
  return (%r)
)";

MLIRContext &getContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    registerAllDialectsWithUpstream(registry);
    registerTorchScriptImportDialects(registry);
    registerAllPasses();
    auto *ctx = new MLIRContext(registry);
    ctx->loadAllAvailableDialects();
    return ctx;
  }();
  return *context;
}

/// Two f32 tensors of `n` elements, as tsmlir-run reads them.
FailureOr<SmallVector<RunValue>> makeInputs(int64_t n) {
  SmallVector<RunValue> inputs;
  llvm::SmallString<128> dir;
  if (llvm::sys::fs::createUniqueDirectory("tsmlir-jit-bench", dir))
    return failure();
  for (int i = 0; i < 2; ++i) {
    std::vector<float> data(n);
    for (int64_t k = 0; k < n; ++k)
      data[k] = 0.25f * static_cast<float>(k % 7) - i;
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, "in" + std::to_string(i) + ".npy");
    if (llvm::Error error = writeNpy(path, "<f4", {n}, data.data(),
                                     data.size() * sizeof(float))) {
      llvm::consumeError(std::move(error));
      return failure();
    }
    llvm::Expected<RunValue> value = RunValue::parse(path);
    if (!value) {
      llvm::consumeError(value.takeError());
      return failure();
    }
    inputs.push_back(std::move(*value));
  }
  return inputs;
}

std::unique_ptr<jit::JitFunction>
makeFunction(jit::JitOptions options = jit::JitOptions()) {
  OwningOpRef<ModuleOp> module =
      importTorchScript(kGraph, "jit-bench", &getContext());
  if (!module)
    return nullptr;
  options.compile.fusion = fusion::Strategy::NNC;
  return jit::JitFunction::create(std::move(module), options);
}

void BM_JitCallHit(benchmark::State &state) {
  FailureOr<SmallVector<RunValue>> inputs = makeInputs(state.range(0));
  std::unique_ptr<jit::JitFunction> function = makeFunction();
  if (failed(inputs) || !function)
    return state.SkipWithError("cannot make the inputs or the function");
  // Profile, then compile: the calls that follow hit.
  for (int i = 0; i < 2; ++i)
    if (failed(function->call(*inputs)))
      return state.SkipWithError("the first calls failed");
  for (auto _ : state) {
    FailureOr<jit::CallResult> result = function->call(*inputs);
    if (failed(result) || result->path != jit::CallPath::Hit)
      return state.SkipWithError("a call did not hit");
    benchmark::DoNotOptimize(result->outputs.data());
  }
  state.counters["elements"] = state.range(0);
}

void BM_JitDynamicHit(benchmark::State &state) {
  FailureOr<SmallVector<RunValue>> inputs = makeInputs(state.range(0));
  FailureOr<SmallVector<RunValue>> first = makeInputs(state.range(0) + 3);
  jit::JitOptions options;
  options.strategy.steps = {{jit::FusionStrategy::Kind::Static, 0},
                            {jit::FusionStrategy::Kind::Dynamic, 1}};
  std::unique_ptr<jit::JitFunction> function = makeFunction(options);
  if (failed(inputs) || failed(first) || !function)
    return state.SkipWithError("cannot make the inputs or the function");
  // Profile, then compile for dynamic sizes on other sizes than the calls'.
  for (int i = 0; i < 2; ++i)
    if (failed(function->call(*first)))
      return state.SkipWithError("the first calls failed");
  for (auto _ : state) {
    FailureOr<jit::CallResult> result = function->call(*inputs);
    if (failed(result) || result->path != jit::CallPath::Hit ||
        !result->dynamic)
      return state.SkipWithError("a call did not hit the dynamic code");
    benchmark::DoNotOptimize(result->outputs.data());
  }
  state.counters["elements"] = state.range(0);
}

void BM_DirectCallBaseline(benchmark::State &state) {
  FailureOr<SmallVector<RunValue>> inputs = makeInputs(state.range(0));
  OwningOpRef<ModuleOp> module =
      importTorchScript(kGraph, "jit-bench", &getContext());
  if (failed(inputs) || !module)
    return state.SkipWithError("cannot make the inputs or the module");
  CompileOptions options;
  options.fusion = fusion::Strategy::NNC;
  FailureOr<std::unique_ptr<CompiledGraph>> graph =
      CompiledGraph::compile(*module, *inputs, options);
  if (failed(graph))
    return state.SkipWithError("cannot compile");
  for (auto _ : state) {
    if (failed((*graph)->setInputs(*inputs)) || failed((*graph)->invoke()))
      return state.SkipWithError("the call failed");
    SmallVector<HostTensor> outputs = (*graph)->getOutputs();
    benchmark::DoNotOptimize(outputs.data());
  }
  state.counters["elements"] = state.range(0);
}

void BM_JitSignature(benchmark::State &state) {
  FailureOr<SmallVector<RunValue>> inputs = makeInputs(state.range(0));
  std::unique_ptr<jit::JitFunction> function = makeFunction();
  if (failed(inputs) || !function)
    return state.SkipWithError("cannot make the inputs or the function");
  for (auto _ : state) {
    std::string key = function->signature(*inputs);
    benchmark::DoNotOptimize(key.data());
  }
}

void BM_JitFirstCalls(benchmark::State &state) {
  FailureOr<SmallVector<RunValue>> inputs = makeInputs(state.range(0));
  if (failed(inputs))
    return state.SkipWithError("cannot make the inputs");
  for (auto _ : state) {
    std::unique_ptr<jit::JitFunction> function = makeFunction();
    if (!function || failed(function->call(*inputs)) ||
        failed(function->call(*inputs)))
      return state.SkipWithError("the first calls failed");
  }
}

void BM_JitGuardMiss(benchmark::State &state) {
  FailureOr<SmallVector<RunValue>> first = makeInputs(state.range(0));
  FailureOr<SmallVector<RunValue>> other = makeInputs(state.range(0) + 4);
  jit::JitOptions options;
  options.strategy.steps = {{jit::FusionStrategy::Kind::Static, 1}};
  std::unique_ptr<jit::JitFunction> function = makeFunction(options);
  if (failed(first) || failed(other) || !function)
    return state.SkipWithError("cannot make the inputs or the function");
  // Profile and specialise on `first`; `other` then misses the guard and,
  // the budget spent, runs its fallback (compiled by this first miss).
  for (SmallVector<RunValue> *inputs : {&*first, &*first, &*other})
    if (failed(function->call(*inputs)))
      return state.SkipWithError("the first calls failed");
  for (auto _ : state) {
    FailureOr<jit::CallResult> result = function->call(*other);
    if (failed(result) || result->path != jit::CallPath::Fallback)
      return state.SkipWithError("a call did not fall back");
    benchmark::DoNotOptimize(result->outputs.data());
  }
}

void BM_JitCacheHitNewFunction(benchmark::State &state) {
  FailureOr<SmallVector<RunValue>> inputs = makeInputs(state.range(0));
  llvm::SmallString<128> dir;
  if (failed(inputs) ||
      llvm::sys::fs::createUniqueDirectory("tsmlir-jit-cache", dir))
    return state.SkipWithError("cannot make the inputs or the cache");
  jit::JitOptions options;
  options.cacheDir = dir.str().str();
  options.cacheVersion = "tsmlir-bench";
  options.runtimeDir = TSMLIR_RUNTIME_DIR;
  options.cc = TSMLIR_DEFAULT_CC;
  {
    // The process that fills the cache.
    std::unique_ptr<jit::JitFunction> writer = makeFunction(options);
    if (!writer || failed(writer->call(*inputs)) ||
        failed(writer->call(*inputs)))
      return state.SkipWithError("cannot fill the cache");
  }
  for (auto _ : state) {
    std::unique_ptr<jit::JitFunction> function = makeFunction(options);
    if (!function)
      return state.SkipWithError("cannot make the function");
    FailureOr<jit::CallResult> result = function->call(*inputs);
    if (failed(result) || result->path != jit::CallPath::Compiled ||
        function->getStats().compiled != 0)
      return state.SkipWithError("the call did not come from the cache");
  }
  llvm::sys::fs::remove_directories(dir);
}

} // namespace

BENCHMARK(BM_JitGuardMiss)->Arg(4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_JitCacheHitNewFunction)->Arg(4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_JitCallHit)->Arg(4)->Arg(4096)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_JitDynamicHit)->Arg(4)->Arg(4096)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DirectCallBaseline)
    ->Arg(4)
    ->Arg(4096)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_JitSignature)->Arg(4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_JitFirstCalls)->Arg(4)->Unit(benchmark::kMillisecond);
