//===- RunJit.cpp - tsmlir-run --jit: calls through a JitFunction ---------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each --call is one call of one JitFunction; its outputs go to
// OUTDIR/call<K>/. With --jit-threads N, N threads make the calls at once,
// each --jit-repeat times, from a cold cache: the results of a call must
// all be equal, and each signature is compiled once.
//
//===----------------------------------------------------------------------===//

#include "RunJit.h"
#include "Outputs.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace mlir;
using namespace mlir::tsmlir;

static bool sameOutputs(ArrayRef<HostTensor> a, ArrayRef<HostTensor> b) {
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip(a, b))
    if (x.dtype != y.dtype || x.shape != y.shape || x.data != y.data)
      return false;
  return true;
}

/// The calls from `run.threads` threads at once; the first result of each
/// call is kept in `results`.
static LogicalResult
runConcurrently(jit::JitFunction &function, const JitRun &run,
                SmallVectorImpl<jit::CallResult> &results) {
  size_t n = run.calls.size();
  results.assign(n, jit::CallResult());
  std::vector<std::once_flag> first(n);
  std::atomic<unsigned> failures{0}, differences{0}, made{0};
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < run.threads; ++t)
    threads.emplace_back([&, t] {
      for (unsigned r = 0; r < run.repeat; ++r)
        for (size_t j = 0; j < n; ++j) {
          size_t k = (t + j) % n;
          FailureOr<jit::CallResult> result = function.call(run.calls[k]);
          ++made;
          if (failed(result)) {
            ++failures;
            continue;
          }
          bool stored = false;
          std::call_once(first[k], [&] {
            results[k] = *result;
            stored = true;
          });
          if (!stored && !sameOutputs(results[k].outputs, result->outputs))
            ++differences;
        }
    });
  for (std::thread &thread : threads)
    thread.join();
  llvm::outs() << "tsmlir-run: jit: " << run.threads << " threads x "
               << run.repeat << " rounds of " << n << " calls: " << made
               << " calls, " << failures << " failed, " << differences
               << " results differ from the call's first\n";
  return success(failures == 0 && differences == 0);
}

/// Writes call `k`'s outputs to OUTDIR/call<k>/ and, with `seconds`, says
/// how the call ran.
static LogicalResult writeCall(const JitRun &run, size_t k,
                               const jit::CallResult &result,
                               std::optional<double> seconds) {
  llvm::SmallString<128> dir(run.outputDir);
  llvm::sys::path::append(dir, "call" + std::to_string(k));
  llvm::Expected<std::string> written =
      writeOutputs(dir, result.outputs, result.noneOutputs);
  if (!written) {
    llvm::errs() << "tsmlir-run: " << llvm::toString(written.takeError())
                 << "\n";
    return failure();
  }
  if (seconds)
    llvm::outs() << "tsmlir-run: call " << k << ": "
                 << jit::getCallPathName(result.path)
                 << (result.dynamic ? " dynamic" : "") << " (" << *written
                 << ")" << llvm::format(" in %.3f ms", *seconds * 1e3)
                 << "; wrote " << dir << "/out*.npy\n";
  return success();
}

int mlir::tsmlir::runJit(OwningOpRef<ModuleOp> module, JitRun run) {
  std::unique_ptr<jit::JitFunction> function =
      jit::JitFunction::create(std::move(module), run.options);
  if (run.threads > 1) {
    SmallVector<jit::CallResult> results;
    if (failed(runConcurrently(*function, run, results)))
      return 1;
    for (auto [k, result] : llvm::enumerate(results))
      if (failed(writeCall(run, k, result, std::nullopt)))
        return 1;
  } else {
    for (auto [k, values] : llvm::enumerate(run.calls)) {
      std::string raised;
      if (run.settle)
        function->waitForCompilations();
      auto start = std::chrono::steady_clock::now();
      FailureOr<jit::CallResult> result = function->call(values, &raised);
      double seconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - start)
                           .count();
      if (failed(result)) {
        if (!raised.empty())
          llvm::errs() << "tsmlir-run: " << run.name << ": call " << k
                       << ": the graph raised an exception: " << raised << "\n";
        return 1;
      }
      if (failed(writeCall(run, k, *result, seconds)))
        return 1;
    }
  }
  jit::JitFunction::Stats stats = function->getStats();
  llvm::outs() << "tsmlir-run: jit: " << stats.calls << " calls, "
               << stats.profiled << " profiled, " << stats.compiled
               << " specialised"
               << (stats.dynamic ? " (" + std::to_string(stats.dynamic) +
                                       " for dynamic sizes)"
                                 : std::string())
               << ", " << stats.hits << " hits, " << stats.misses
               << " guard misses, " << stats.fallbacks << " fallbacks\n";
  return 0;
}
