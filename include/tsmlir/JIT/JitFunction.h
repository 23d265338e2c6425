//===- JitFunction.h - Profile, specialise, guard, fall back ----*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A TorchScript function compiled just in time, as PyTorch's profiling
// executor runs one: the first calls profile (record the types of their
// arguments), then the function is specialised, optimised, fused and
// compiled for the types seen, behind a guard on them; compiled code is
// cached by its guard; a call whose arguments fail every guard runs the
// fallback and, while the strategy's budget lasts, specialises again.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_JIT_JITFUNCTION_H
#define TSMLIR_JIT_JITFUNCTION_H

#include "tsmlir/ExecutionEngine/CpuRunner.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

namespace mlir::tsmlir::jit {

/// How many specialisations a function gets, as PyTorch's
/// torch.jit.set_fusion_strategy: `STATIC:2` compiles for the exact types of
/// the first two signatures seen; `DYNAMIC:10` then compiles up to ten
/// specialisations for dynamic sizes (CompileOptions::dynamicSizes), each
/// serving every call of the same dtypes, ranks and sizes 0 and 1 (its
/// guard: `f4[?,1,?]`). The static steps are spent first, then the dynamic
/// ones, whatever their order. A graph whose ops do not all compile for
/// dynamic sizes runs the fallback where the dynamic step would serve, and
/// the log says which op.
struct FusionStrategy {
  enum class Kind { Static, Dynamic };
  struct Step {
    Kind kind;
    unsigned count;
  };
  SmallVector<Step> steps{{Kind::Static, 2}, {Kind::Dynamic, 10}};

  /// `STATIC:2,DYNAMIC:10` (kinds in either case, at least one step).
  static llvm::Expected<FusionStrategy> parse(StringRef text);
  /// The number of specialisations of `kind` the strategy allows.
  unsigned getBudget(Kind kind) const;
};

struct JitOptions {
  /// How each specialisation is compiled (entry, fusion strategy, threads,
  /// math, dump directory). The fallback is compiled with the same options
  /// but no fusion groups.
  CompileOptions compile;
  /// Calls that profile before the first specialisation (at least 1).
  unsigned profileRuns = 1;
  FusionStrategy strategy;
  /// Where each decision is written (profile, compile, hit, guard miss,
  /// fallback), one line each, or null.
  llvm::raw_ostream *log = nullptr;

  /// The persistent cache (opt-in): a directory where each specialisation
  /// is kept as a shared object compiled ahead of time for this machine's
  /// CPU, so that another process with the same graph, guard, options and
  /// tsmlir build finds it instead of compiling (lib/JIT/JitCache.h).
  /// Empty: specialisations live in the process only.
  std::string cacheDir;
  /// What identifies the tsmlir build in the cache's keys and records (the
  /// tools give their executable's size and modification time): an entry
  /// another build wrote is not used.
  std::string cacheVersion;
  /// Where libtsmlir_runtime.a is, and the C compiler driver that links the
  /// shared objects (empty: clang on the PATH).
  std::string runtimeDir, cc;

  /// The compile budget in milliseconds (0: none, a call waits for its
  /// specialisation). With a budget, each specialisation is compiled on a
  /// thread of its own, in a context of its own; a call that has waited
  /// this long for it runs the fallback instead (and says so in the log),
  /// and later calls find the specialisation once it is ready.
  unsigned compileBudgetMs = 0;
};

/// What a call did, for logs and tests.
enum class CallPath { Profile, Compiled, Hit, Fallback };
/// "profile", "compiled", "hit" or "fallback".
StringRef getCallPathName(CallPath path);

/// The outcome of one call: its outputs, and how it ran.
struct CallResult {
  SmallVector<HostTensor> outputs;
  CallPath path = CallPath::Fallback;
  /// PreparedGraph::noneOutputs of the code that ran.
  SmallVector<unsigned> noneOutputs;
  /// Whether the code was compiled for dynamic sizes (path Compiled or Hit).
  bool dynamic = false;
};

class JitFunction {
public:
  /// Takes the imported module (TorchScript: text, archive or .mlir); it is
  /// cloned for each compilation and never rewritten.
  static std::unique_ptr<JitFunction> create(OwningOpRef<ModuleOp> module,
                                             JitOptions options);
  ~JitFunction();

  /// Calls the function. Compilation errors are reported as diagnostics on
  /// the module's context and fail the call, as does an exception the
  /// graph raises (its message in the error). Safe to call from several
  /// threads: each signature is compiled once, and calls that hit the
  /// cache take only a shared lock to find their code. A module that
  /// writes its state in place (a layer's running statistics in training
  /// mode) has one state, which every specialisation and fallback reads and
  /// writes: its calls run one at a time, each from the state the last
  /// left, as calls of the PyTorch module do.
  FailureOr<CallResult> call(ArrayRef<RunValue> inputs,
                             std::string *raised = nullptr);

  /// The guard of `inputs`: each argument's kind, and for tensors their
  /// dtype and sizes, for the numbers that compilation binds as constants
  /// (ints, bools, None, and floats the graph does not take as a float)
  /// their value. With `dynamic`, the guard of a dynamic specialisation:
  /// tensor sizes other than 0 and 1 are `?`.
  std::string signature(ArrayRef<RunValue> inputs, bool dynamic = false) const;

  /// Waits until no specialisation is being compiled in the background.
  void waitForCompilations();

  /// Counts, for tests and benchmarks.
  struct Stats {
    unsigned calls = 0, profiled = 0, compiled = 0, hits = 0, misses = 0,
             fallbacks = 0;
    /// Of `compiled`, those compiled for dynamic sizes.
    unsigned dynamic = 0;
  };
  Stats getStats() const;

private:
  JitFunction(OwningOpRef<ModuleOp> module, JitOptions options);
  struct Entry;
  /// What an entry's code is compiled as: a specialisation for the exact
  /// types, one for dynamic sizes, or the fallback (no fusion groups).
  enum class Variant { Static, Dynamic, Fallback };
  /// The code compiled for `key` (compiled on first use, once, even when
  /// several threads ask at the same time); null if compilation failed (a
  /// dynamic specialisation's reason is then in the entry's `error`).
  std::shared_ptr<Entry>
  getOrCompile(llvm::StringMap<std::shared_ptr<Entry>> &table,
               const std::string &key, ArrayRef<RunValue> inputs,
               Variant variant);
  /// Runs the fallback for `key` (compiled once per signature).
  LogicalResult runFallback(const std::string &key, ArrayRef<RunValue> inputs,
                            CallResult &result, std::string *raised);
  /// The digest of the module's text, for the persistent cache's keys.
  const std::string &getModuleDigest();
  std::once_flag digestOnce;
  std::string moduleDigest;
  /// Compiles through the persistent cache (or finds the entry there);
  /// false on error, reported as diagnostics.
  bool compileThroughCache(Entry &entry, ModuleOp source,
                           const std::string &guard, ArrayRef<RunValue> inputs);
  /// Compiles `source` (the module, or a background compilation's copy of
  /// it) for `key` into `entry` as `variant`; false on error, reported as
  /// diagnostics on `source`.
  bool compileEntry(Entry &entry, ModuleOp source, const std::string &key,
                    ArrayRef<RunValue> inputs, Variant variant);
  /// Starts compiling `entry` for `key` on a thread of its own (once), in a
  /// context of its own parsed from the module's text.
  void startCompilation(const std::shared_ptr<Entry> &entry,
                        const std::string &key, ArrayRef<RunValue> inputs,
                        Variant variant);
  /// The module's text, which background compilations parse.
  std::string moduleText;
  /// The background compilations' threads, joined by waitForCompilations
  /// and the destructor.
  std::mutex threadsMutex;
  std::vector<std::thread> threads;
  /// Runs `entry`'s code; an exception the graph raises, or the status of
  /// a shared object's call, goes to `raised`.
  LogicalResult runEntry(Entry &entry, ArrayRef<RunValue> inputs,
                         CallResult &result, std::string *raised);
  /// Writes one line to the log; on a background compilation's thread the
  /// line waits until a calling thread writes the log (the next call, or
  /// waitForCompilations).
  void log(const llvm::Twine &message);
  void flushDeferredLog();
  void flushDeferredLogLocked();
  std::vector<std::string> deferredLog;
  std::atomic<bool> hasDeferredLog{false};

  OwningOpRef<ModuleOp> module;
  JitOptions options;
  /// The module's state (getModuleStates), which the compiled code takes
  /// after the call's inputs and returns after its outputs
  /// (ModuleStateHome::Caller); `stateMutex` makes calls of a module with
  /// state one at a time.
  SmallVector<RunValue> states;
  std::mutex stateMutex;
  /// Which of the entry's arguments are floats passed at run time.
  SmallVector<bool> runtimeFloat;
  /// The specialisations behind their guards (static and dynamic ones),
  /// and the fallback's code per signature.
  llvm::StringMap<std::shared_ptr<Entry>> specialised, dynamicSpecialised,
      fallbacks;
  /// Guards `specialised`, `fallbacks`, the counters and the profile.
  mutable std::shared_mutex mutex;
  /// Serialises compilation: MLIR's pass manager on one context.
  std::mutex compileMutex;
  /// The guard of the latest specialisation, which guard misses name.
  std::string lastGuard;
  /// Counted without the table's lock: hits do not serialise on it.
  struct Counters {
    std::atomic<unsigned> calls{0}, profiled{0}, compiled{0}, hits{0},
        misses{0}, fallbacks{0}, dynamic{0};
  } counters;
  std::mutex logMutex;
};

} // namespace mlir::tsmlir::jit

#endif // TSMLIR_JIT_JITFUNCTION_H
