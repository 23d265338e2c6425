//===- JitFunction.cpp - Profile, specialise, guard, fall back ------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The call path: the signature (guard key) of the arguments; under a shared
// lock, the specialisation that guard selects (a hit); else, under the
// exclusive lock, the decision: profile (record, run the fallback), compile
// a specialisation while the static budget lasts, or run the fallback. Each
// specialisation and each fallback is compiled once (std::call_once on its
// table entry), outside the table's lock; a compiled graph's argument
// buffers are its own, so calls of one entry take its run lock.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/JIT/JitFunction.h"

#include "JitCache.h"

#include "tsmlir/Compiler/PrepareGraph.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"
#include "tsmlir/Support/Dtype.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/TargetSelect.h"

#include <chrono>
#include <condition_variable>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::jit;

//===----------------------------------------------------------------------===//
// FusionStrategy
//===----------------------------------------------------------------------===//

llvm::Expected<FusionStrategy> FusionStrategy::parse(StringRef text) {
  FusionStrategy strategy;
  strategy.steps.clear();
  SmallVector<StringRef> parts;
  text.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef part : parts) {
    auto [kind, count] = part.trim().split(':');
    Step step;
    if (kind.equals_insensitive("static"))
      step.kind = Kind::Static;
    else if (kind.equals_insensitive("dynamic"))
      step.kind = Kind::Dynamic;
    else
      return llvm::createStringError("'%s': a step is STATIC:N or DYNAMIC:N",
                                     part.str().c_str());
    if (count.getAsInteger(10, step.count))
      return llvm::createStringError("'%s': the count is not a number",
                                     part.str().c_str());
    strategy.steps.push_back(step);
  }
  if (strategy.steps.empty())
    return llvm::createStringError("'%s': no step (STATIC:N,DYNAMIC:M)",
                                   text.str().c_str());
  return strategy;
}

unsigned FusionStrategy::getBudget(Kind kind) const {
  unsigned budget = 0;
  for (const Step &step : steps)
    if (step.kind == kind)
      budget += step.count;
  return budget;
}

//===----------------------------------------------------------------------===//
// JitFunction
//===----------------------------------------------------------------------===//

StringRef jit::getCallPathName(CallPath path) {
  switch (path) {
  case CallPath::Profile:
    return "profile";
  case CallPath::Compiled:
    return "compiled";
  case CallPath::Hit:
    return "hit";
  case CallPath::Fallback:
    return "fallback";
  }
  llvm_unreachable("unknown call path");
}

struct JitFunction::Entry {
  /// A background compilation's context: declared first, so destroyed
  /// after the code compiled in it.
  std::unique_ptr<MLIRContext> context;
  std::once_flag compiled;
  /// The code: compiled in process, or a shared object from the cache.
  std::unique_ptr<CompiledGraph> graph;
  std::unique_ptr<jit::SharedModel> shared;
  SmallVector<unsigned> sharedNoneOutputs;
  /// Set once `graph` is compiled: the fast path reads it without the
  /// compilation's synchronisation.
  std::atomic<bool> ready{false};
  /// The graph's argument and output buffers serve one call at a time.
  std::mutex run;
  /// A background compilation: whether it has ended, and its diagnostics
  /// if it failed.
  std::mutex state;
  std::condition_variable ended;
  bool done = false;
  /// The diagnostics of a failed background compilation, or the reason a
  /// dynamic specialisation did not compile (its first error).
  std::string error;
};

JitFunction::JitFunction(OwningOpRef<ModuleOp> module, JitOptions options)
    : module(std::move(module)), options(std::move(options)) {}

JitFunction::~JitFunction() { waitForCompilations(); }

void JitFunction::waitForCompilations() {
  std::vector<std::thread> running;
  {
    std::lock_guard<std::mutex> lock(threadsMutex);
    running.swap(threads);
  }
  for (std::thread &thread : running)
    thread.join();
  flushDeferredLog();
}

/// The entry function: `entry`, else `main`, else the only public function.
static func::FuncOp findEntry(ModuleOp module, StringRef entry) {
  if (!entry.empty())
    return module.lookupSymbol<func::FuncOp>(entry);
  if (auto main = module.lookupSymbol<func::FuncOp>("main"))
    return main;
  func::FuncOp only;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    if (only)
      return {};
    only = func;
  }
  return only;
}

std::unique_ptr<JitFunction> JitFunction::create(OwningOpRef<ModuleOp> module,
                                                 JitOptions options) {
  options.profileRuns = std::max(options.profileRuns, 1u);
  std::unique_ptr<JitFunction> jit(
      new JitFunction(std::move(module), std::move(options)));
  if (func::FuncOp entry =
          findEntry(*jit->module, jit->options.compile.entry)) {
    for (Type type : entry.getArgumentTypes())
      jit->runtimeFloat.push_back(llvm::isa<ts::FloatType>(type));
  }
  // The module's state, kept here for every specialisation. Where it cannot
  // be found, compiling fails for the same reason, which is reported then.
  {
    ScopedDiagnosticHandler quiet(jit->module->getContext(),
                                  [](Diagnostic &) { return success(); });
    FailureOr<SmallVector<ModuleStateValue>> states =
        getModuleStates(*jit->module, jit->options.compile);
    if (succeeded(states) && !states->empty()) {
      jit->options.compile.moduleState = ModuleStateHome::Caller;
      std::string names;
      for (ModuleStateValue &state : *states) {
        names += (names.empty() ? "" : ", ") + state.initialValue.text;
        jit->states.push_back(std::move(state.initialValue));
      }
      jit->log("module state " + names +
               ": kept here for every specialisation; calls run one at a time");
    }
  }
  if (jit->options.compileBudgetMs) {
    // Background compilations parse this text in contexts of their own.
    llvm::raw_string_ostream os(jit->moduleText);
    jit->module->print(os, OpPrintingFlags().enableDebugInfo());
    // LLVM's targets are registered once, before any thread compiles.
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  }
  return jit;
}

/// One argument's part of the guard; with `dynamic`, a tensor's sizes
/// other than 0 and 1 are `?`.
static std::string describe(const RunValue &value, bool runtimeFloat,
                            bool dynamic) {
  switch (value.kind) {
  case RunValue::Kind::Tensor: {
    // Kind and width: the data are in C order and native byte order once
    // read, whatever their file's layout.
    const NpyHeader &header = value.tensor.header;
    std::string text =
        std::string(1, header.kind) + std::to_string(header.itemSize) + "[";
    for (auto [i, size] : llvm::enumerate(header.shape))
      text += (i ? "," : "") +
              (dynamic && size > 1 ? std::string("?") : std::to_string(size));
    return text + "]";
  }
  case RunValue::Kind::Float:
    return runtimeFloat ? "float" : "float " + value.text;
  case RunValue::Kind::Int:
    return "int " + std::to_string(value.intValue);
  case RunValue::Kind::Bool:
    return value.boolValue ? "bool true" : "bool false";
  case RunValue::Kind::None:
    return "None";
  }
  llvm_unreachable("unknown run value kind");
}

std::string JitFunction::signature(ArrayRef<RunValue> inputs,
                                   bool dynamic) const {
  std::string key;
  for (auto [i, value] : llvm::enumerate(inputs))
    key += (i ? "; " : "") +
           describe(value, i < runtimeFloat.size() && runtimeFloat[i], dynamic);
  return key;
}

JitFunction::Stats JitFunction::getStats() const {
  Stats stats;
  stats.calls = counters.calls;
  stats.profiled = counters.profiled;
  stats.compiled = counters.compiled;
  stats.hits = counters.hits;
  stats.misses = counters.misses;
  stats.fallbacks = counters.fallbacks;
  stats.dynamic = counters.dynamic;
  return stats;
}

/// `diagnostic` as the log and errors give it: `file:line:col: message`
/// (the location as MLIR prints it when it has no file).
static void writeDiagnostic(llvm::raw_ostream &os, Diagnostic &diagnostic) {
  if (auto file = diagnostic.getLocation()->findInstanceOf<FileLineColLoc>())
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn() << ": ";
  else
    os << diagnostic.getLocation() << ": ";
  os << diagnostic;
}

/// Set on the threads that compile in the background: the log stream is
/// the caller's (tsmlir-run writes its own lines to it), so only calling
/// threads write to it.
static thread_local bool onBackgroundThread = false;

void JitFunction::log(const llvm::Twine &message) {
  if (!options.log)
    return;
  std::lock_guard<std::mutex> lock(logMutex);
  if (onBackgroundThread) {
    deferredLog.push_back(message.str());
    hasDeferredLog.store(true, std::memory_order_release);
    return;
  }
  flushDeferredLogLocked();
  *options.log << "jit: " << message << "\n";
  options.log->flush();
}

void JitFunction::flushDeferredLog() {
  if (!hasDeferredLog.load(std::memory_order_acquire) || onBackgroundThread)
    return;
  std::lock_guard<std::mutex> lock(logMutex);
  flushDeferredLogLocked();
}

void JitFunction::flushDeferredLogLocked() {
  for (const std::string &line : deferredLog)
    *options.log << "jit: " << line << "\n";
  if (!deferredLog.empty())
    options.log->flush();
  deferredLog.clear();
  hasDeferredLog.store(false, std::memory_order_release);
}

const std::string &JitFunction::getModuleDigest() {
  std::call_once(digestOnce,
                 [&] { moduleDigest = jit::JitCache::moduleDigest(*module); });
  return moduleDigest;
}

bool JitFunction::compileThroughCache(Entry &entry, ModuleOp source,
                                      const std::string &guard,
                                      ArrayRef<RunValue> inputs) {
  jit::JitCache cache(options);
  auto start = std::chrono::steady_clock::now();
  std::string key = cache.key(getModuleDigest(), guard);
  llvm::Expected<jit::CachedModel> cached = cache.load(key, guard);
  if (!cached) {
    std::string why = llvm::toString(cached.takeError());
    if (why != "no entry")
      log("cache: not using " + key + ": " + why);
    OwningOpRef<ModuleOp> copy(llvm::cast<ModuleOp>(source->clone()));
    std::string error;
    if (failed(cache.store(*copy, inputs, key, guard, error))) {
      if (!error.empty())
        emitError(source.getLoc())
            << "tsmlir cannot keep the specialisation in the cache: " << error;
      return false;
    }
    cached = cache.load(key, guard);
    if (!cached) {
      emitError(source.getLoc())
          << "tsmlir cannot open the specialisation it compiled: "
          << llvm::toString(cached.takeError());
      return false;
    }
    ++counters.compiled;
    log(llvm::formatv(
        "compile [{0}] into the cache in {1:f3} s: {2}", guard,
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count(),
        key));
  } else {
    log(llvm::formatv("cache hit [{0}]: {1}", guard, key));
  }
  entry.shared = std::move(cached->model);
  entry.sharedNoneOutputs = std::move(cached->noneOutputs);
  return true;
}

std::shared_ptr<JitFunction::Entry>
JitFunction::getOrCompile(llvm::StringMap<std::shared_ptr<Entry>> &table,
                          const std::string &key, ArrayRef<RunValue> inputs,
                          Variant variant) {
  std::shared_ptr<Entry> entry;
  {
    std::unique_lock<std::shared_mutex> lock(mutex);
    std::shared_ptr<Entry> &slot = table[key];
    if (!slot)
      slot = std::make_shared<Entry>();
    entry = slot;
  }
  bool attempted = false;
  std::call_once(entry->compiled, [&] {
    attempted = true;
    std::lock_guard<std::mutex> lock(compileMutex);
    bool compiled;
    if (variant == Variant::Dynamic) {
      // A graph that does not compile for dynamic sizes is no error of the
      // call: the reason goes to the entry, and the call falls back.
      std::string diagnostics;
      {
        ScopedDiagnosticHandler handler(
            module->getContext(), [&](Diagnostic &diagnostic) {
              if (diagnostics.empty() &&
                  diagnostic.getSeverity() == DiagnosticSeverity::Error) {
                llvm::raw_string_ostream os(diagnostics);
                writeDiagnostic(os, diagnostic);
              }
              return success();
            });
        compiled = compileEntry(*entry, *module, key, inputs, variant);
      }
      entry->error = diagnostics;
    } else {
      compiled = compileEntry(*entry, *module, key, inputs, variant);
    }
    if (compiled)
      entry->ready.store(true, std::memory_order_release);
  });
  if (!entry->ready.load(std::memory_order_acquire)) {
    // The diagnostics went out when it failed; later calls say so again.
    if (!attempted && variant != Variant::Dynamic)
      emitError(module->getLoc())
          << "tsmlir cannot compile the function for [" << key << "]";
    return nullptr;
  }
  return entry;
}

bool JitFunction::compileEntry(Entry &entry, ModuleOp source,
                               const std::string &key,
                               ArrayRef<RunValue> inputs, Variant variant) {
  // Dynamic specialisations are compiled in process: the cache's shared
  // objects take static sizes.
  if (variant == Variant::Static && !options.cacheDir.empty())
    return compileThroughCache(entry, source, key, inputs);
  OwningOpRef<ModuleOp> copy(llvm::cast<ModuleOp>(source->clone()));
  CompileOptions compileOptions = options.compile;
  if (variant == Variant::Fallback)
    compileOptions.fusion.reset();
  compileOptions.dynamicSizes = variant == Variant::Dynamic;
  FailureOr<std::unique_ptr<CompiledGraph>> graph =
      CompiledGraph::compile(*copy, inputs, compileOptions);
  if (failed(graph)) {
    if (variant == Variant::Dynamic)
      log(llvm::formatv("compile dynamic [{0}] failed", key));
    return false;
  }
  entry.graph = std::move(*graph);
  if (variant != Variant::Fallback)
    ++counters.compiled;
  if (variant == Variant::Dynamic)
    ++counters.dynamic;
  StringRef what = variant == Variant::Fallback  ? "compile fallback"
                   : variant == Variant::Dynamic ? "compile dynamic"
                                                 : "compile";
  log(llvm::formatv(
      "{0} [{1}] in {2:f3} s{3}", what, key, entry.graph->compileSeconds,
      variant == Variant::Fallback
          ? ""
          : llvm::formatv(", {0} fusion groups", entry.graph->numFusionGroups)
                .str()));
  return true;
}

void JitFunction::startCompilation(const std::shared_ptr<Entry> &entry,
                                   const std::string &key,
                                   ArrayRef<RunValue> inputs, Variant variant) {
  std::call_once(entry->compiled, [&] {
    SmallVector<RunValue> values(inputs.begin(), inputs.end());
    std::lock_guard<std::mutex> lock(threadsMutex);
    threads.emplace_back([this, entry, key, variant,
                          values = std::move(values)] {
      onBackgroundThread = true;
      // A context of its own: compilations run side by side, and beside
      // the fallbacks compiled in the module's context.
      entry->context = std::make_unique<MLIRContext>(
          module->getContext()->getDialectRegistry());
      std::string diagnostics;
      bool compiled;
      {
        ScopedDiagnosticHandler handler(
            entry->context.get(), [&](Diagnostic &diagnostic) {
              llvm::raw_string_ostream os(diagnostics);
              writeDiagnostic(os, diagnostic);
              os << "\n";
              return success();
            });
        OwningOpRef<ModuleOp> copy =
            parseSourceString<ModuleOp>(moduleText, entry->context.get());
        compiled = copy && compileEntry(*entry, *copy, key, values, variant);
      }
      if (compiled)
        entry->ready.store(true, std::memory_order_release);
      std::lock_guard<std::mutex> lock(entry->state);
      entry->done = true;
      entry->error = compiled ? "" : diagnostics;
      entry->ended.notify_all();
    });
  });
}

/// Runs `entry`'s code on `inputs` and the module's state (the caller holds
/// `stateMutex`), which it then updates.
LogicalResult JitFunction::runEntry(Entry &entry, ArrayRef<RunValue> inputs,
                                    CallResult &result, std::string *raised) {
  SmallVector<RunValue> withState;
  if (!states.empty()) {
    withState.assign(inputs.begin(), inputs.end());
    withState.append(states.begin(), states.end());
    inputs = withState;
  }
  {
    std::lock_guard<std::mutex> lock(entry.run);
    if (entry.shared) {
      std::string error;
      if (failed(entry.shared->call(inputs, result.outputs, error))) {
        if (raised)
          *raised = error;
        return failure();
      }
      result.noneOutputs = entry.sharedNoneOutputs;
    } else {
      CompiledGraph &graph = *entry.graph;
      if (failed(graph.setInputs(inputs))) {
        if (raised)
          *raised = "cannot allocate the buffers of the inputs' sizes";
        return failure();
      }
      if (failed(graph.invoke())) {
        if (raised)
          *raised = graph.raised;
        return failure();
      }
      result.outputs = graph.getOutputs();
      result.noneOutputs = graph.noneOutputs;
    }
  }
  if (states.empty())
    return success();
  // The state's new value: the last outputs.
  if (result.outputs.size() < states.size()) {
    if (raised)
      *raised = "the compiled code returned no module state";
    return failure();
  }
  ArrayRef<HostTensor> newStates =
      ArrayRef(result.outputs).take_back(states.size());
  for (auto [state, value] : llvm::zip(states, newStates)) {
    if (getDtypeForNpyDescr(state.tensor.header.descr) != value.dtype ||
        ArrayRef(value.shape) != ArrayRef(state.tensor.shape())) {
      if (raised)
        *raised = "the compiled code returned the module's state " +
                  state.text + " with another dtype or shape";
      return failure();
    }
    state.tensor.data = value.data;
  }
  result.outputs.truncate(result.outputs.size() - states.size());
  return success();
}

/// Which arguments differ between two guards, as "argument i: old -> new".
static std::string difference(StringRef oldKey, StringRef newKey) {
  SmallVector<StringRef> olds, news;
  oldKey.split(olds, "; ");
  newKey.split(news, "; ");
  std::string text;
  for (size_t i = 0; i < std::max(olds.size(), news.size()); ++i) {
    StringRef a = i < olds.size() ? olds[i] : "-";
    StringRef b = i < news.size() ? news[i] : "-";
    if (a != b)
      text += (text.empty() ? "" : ", ") +
              llvm::formatv("argument {0} was {1}, is {2}", i, a, b).str();
  }
  return text;
}

/// The first line of a compilation's diagnostics, for the log.
static StringRef firstLine(StringRef text) {
  return text.trim().split('\n').first;
}

LogicalResult JitFunction::runFallback(const std::string &key,
                                       ArrayRef<RunValue> inputs,
                                       CallResult &result,
                                       std::string *raised) {
  result.path = CallPath::Fallback;
  result.dynamic = false;
  std::shared_ptr<Entry> entry =
      getOrCompile(fallbacks, key, inputs, Variant::Fallback);
  if (!entry)
    return failure();
  return runEntry(*entry, inputs, result, raised);
}

FailureOr<CallResult> JitFunction::call(ArrayRef<RunValue> inputs,
                                        std::string *raised) {
  // A module's state: one call at a time, each from the last one's state.
  std::unique_lock<std::mutex> stateLock(stateMutex, std::defer_lock);
  if (!states.empty())
    stateLock.lock();
  std::string key = signature(inputs);
  CallResult result;
  // The fast path: a specialisation whose guard the arguments pass, of
  // their exact types, else of dynamic sizes.
  std::string dynamicKey;
  {
    std::shared_lock<std::shared_mutex> lock(mutex);
    auto it = specialised.find(key);
    bool hit = it != specialised.end() &&
               it->second->ready.load(std::memory_order_acquire);
    if (!hit && !dynamicSpecialised.empty()) {
      dynamicKey = signature(inputs, /*dynamic=*/true);
      it = dynamicSpecialised.find(dynamicKey);
      hit = it != dynamicSpecialised.end() &&
            it->second->ready.load(std::memory_order_acquire);
      result.dynamic = hit;
    }
    if (hit) {
      std::shared_ptr<Entry> entry = it->second;
      lock.unlock();
      ++counters.calls;
      ++counters.hits;
      result.path = CallPath::Hit;
      log(result.dynamic ? "hit dynamic [" + dynamicKey + "]"
                         : "hit [" + key + "]");
      if (failed(runEntry(*entry, inputs, result, raised)))
        return failure();
      return result;
    }
  }
  if (dynamicKey.empty())
    dynamicKey = signature(inputs, /*dynamic=*/true);
  // A signature the persistent cache holds needs no profile (looked up
  // before the lock: the module's digest is computed on first use).
  bool cached = false;
  if (!options.cacheDir.empty()) {
    jit::JitCache cache(options);
    cached = cache.has(cache.key(getModuleDigest(), key));
  }
  // Decide, under the exclusive lock: profile, specialise (for the exact
  // types while the static budget lasts, then for dynamic sizes while the
  // dynamic budget lasts) or fall back.
  enum class Decision { Profile, Specialise, Dynamic, Fallback } decision;
  std::string missed, why;
  unsigned profiled = 0;
  {
    std::unique_lock<std::shared_mutex> lock(mutex);
    ++counters.calls;
    unsigned numSpecialised = specialised.size();
    unsigned staticBudget =
        options.strategy.getBudget(FusionStrategy::Kind::Static);
    unsigned dynamicBudget =
        options.strategy.getBudget(FusionStrategy::Kind::Dynamic);
    if (counters.profiled < options.profileRuns && !cached) {
      profiled = ++counters.profiled;
      decision = Decision::Profile;
    } else if (cached && numSpecialised < staticBudget) {
      decision = Decision::Specialise;
    } else if (specialised.count(key) || numSpecialised < staticBudget) {
      // A signature another thread is compiling waits for it.
      decision = Decision::Specialise;
    } else if (dynamicSpecialised.count(dynamicKey)) {
      // One another call compiles (or could not compile) for these sizes.
      decision = Decision::Dynamic;
    } else if (dynamicSpecialised.size() < dynamicBudget) {
      // The slot is taken now, under this lock, as a static one is.
      decision = Decision::Dynamic;
      dynamicSpecialised[dynamicKey] = std::make_shared<Entry>();
    } else {
      ++counters.fallbacks;
      decision = Decision::Fallback;
      why = dynamicBudget
                ? llvm::formatv("the {0} static and {1} dynamic "
                                "specialisations are spent",
                                staticBudget, dynamicBudget)
                      .str()
                : llvm::formatv("the {0} static specialisations are spent",
                                staticBudget)
                      .str();
    }
    // Arguments that fail the guards there are: compared with the latest.
    if (decision != Decision::Profile && !lastGuard.empty() &&
        !specialised.count(key) && lastGuard != dynamicKey) {
      ++counters.misses;
      missed = lastGuard;
    }
    if (decision == Decision::Specialise) {
      lastGuard = key;
      // The slot is taken now, under this lock, so that the static budget
      // counts it: threads deciding at once for other signatures see it.
      std::shared_ptr<Entry> &slot = specialised[key];
      if (!slot)
        slot = std::make_shared<Entry>();
    } else if (decision == Decision::Dynamic) {
      lastGuard = dynamicKey;
    }
  }
  if (!missed.empty())
    log("guard miss [" + key + "]: " + difference(missed, key));
  switch (decision) {
  case Decision::Profile:
    log(llvm::formatv("profile {0} of {1} [{2}]", profiled, options.profileRuns,
                      key));
    if (failed(runFallback(key, inputs, result, raised)))
      return failure();
    result.path = CallPath::Profile;
    return result;
  case Decision::Fallback:
    log(llvm::formatv("fallback [{0}]: {1}", key, why));
    if (failed(runFallback(key, inputs, result, raised)))
      return failure();
    result.path = CallPath::Fallback;
    return result;
  case Decision::Specialise:
  case Decision::Dynamic:
    break;
  }
  bool dynamic = decision == Decision::Dynamic;
  Variant variant = dynamic ? Variant::Dynamic : Variant::Static;
  const std::string &guard = dynamic ? dynamicKey : key;
  llvm::StringMap<std::shared_ptr<Entry>> &table =
      dynamic ? dynamicSpecialised : specialised;
  result.path = CallPath::Compiled;
  result.dynamic = dynamic;
  // What a dynamic specialisation that did not compile leaves: the
  // fallback, and the reason in the log.
  auto dynamicFailed = [&](Entry &entry) -> FailureOr<CallResult> {
    ++counters.fallbacks;
    log(llvm::formatv("fallback [{0}]: no dynamic specialisation for [{1}]: "
                      "{2}",
                      key, dynamicKey, firstLine(entry.error)));
    if (failed(runFallback(key, inputs, result, raised)))
      return failure();
    return result;
  };
  if (options.compileBudgetMs) {
    // Compiled in the background; past the budget, this call falls back.
    std::shared_ptr<Entry> entry;
    {
      std::shared_lock<std::shared_mutex> lock(mutex);
      entry = table.lookup(guard);
    }
    startCompilation(entry, guard, inputs, variant);
    bool done;
    {
      std::unique_lock<std::mutex> lock(entry->state);
      done = entry->ended.wait_for(
          lock, std::chrono::milliseconds(options.compileBudgetMs),
          [&] { return entry->done; });
    }
    // What the compilation logged, in order before this call's lines.
    flushDeferredLog();
    if (done && !entry->ready.load(std::memory_order_acquire)) {
      if (dynamic)
        return dynamicFailed(*entry);
      emitError(module->getLoc())
          << "tsmlir cannot compile the function for [" << key
          << "]: " << StringRef(entry->error).rtrim();
      return failure();
    }
    if (done) {
      if (failed(runEntry(*entry, inputs, result, raised)))
        return failure();
      return result;
    }
    ++counters.fallbacks;
    log(llvm::formatv("fallback [{0}]: compiling past the budget of {1} ms, "
                      "which goes on in the background",
                      key, options.compileBudgetMs));
    if (failed(runFallback(key, inputs, result, raised)))
      return failure();
    return result;
  }
  std::shared_ptr<Entry> entry = getOrCompile(table, guard, inputs, variant);
  if (!entry) {
    if (dynamic)
      return dynamicFailed(*table.lookup(guard));
    return failure();
  }
  if (failed(runEntry(*entry, inputs, result, raised)))
    return failure();
  return result;
}
