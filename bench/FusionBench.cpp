//===- FusionBench.cpp - Fusion planning speed ----------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// How the time to plan fusion groups and form them grows with the graph's
// size, measured against MLIR's parser reading the same module, in the same
// run:
//
//   BM_ParseFusionBaseline      MLIR text -> module (the baseline)
//   BM_CreateFusionGroups/nnc   --ts-create-fusion-groups=strategy=nnc on a
//                               copy of the parsed module
//   BM_CreateFusionGroups/aggressive
//                               the same with strategy=aggressive (which also
//                               merges groups horizontally)
//
// for synthetic fully typed graphs of 1,000 to 100,000 ops: chains of
// pointwise ops that read two shared inputs (every group reads them), each
// chain starting from an earlier chain's result or from an input, so that
// values have users far apart and groups meet ops used outside them; every
// fourth chain ends in a matmul, every fifth adds a full reduction back in.
//
//   tsmlir-bench --emit-fusion-graph=N   prints the module of N ops
//
//===----------------------------------------------------------------------===//

#include "FusionBench.h"

#include "tsmlir/Dialect/Fusion/IR/FusionDialect.h"
#include "tsmlir/Dialect/Fusion/Transforms/FusionPlanner.h"
#include "tsmlir/Dialect/Fusion/Transforms/Passes.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>

using namespace mlir;

namespace {

constexpr const char *kT = "!ts.tensor<f32, [64, 128]>";
constexpr const char *kW = "!ts.tensor<f32, [128, 128]>";
constexpr const char *kS = "!ts.tensor<f32, []>";

/// Writes a fully typed function of about `target` ops.
class FusionGraphWriter {
public:
  FusionGraph write(int64_t target) {
    FusionGraph graph;
    std::string &s = graph.text;
    s.reserve(target * 96);
    llvm::raw_string_ostream os(s);
    os << "func.func @main(%x: " << kT << ", %y: " << kT << ", %w: " << kW
       << ") -> " << kT << " {\n";
    os << "  %one = ts.prim.Constant[1] : !ts.int\n";
    os << "  %none = ts.prim.Constant : !ts.none\n";
    graph.ops = 2;
    std::vector<std::string> ends;
    int64_t chain = 0;
    std::string last = "%x";
    while (graph.ops < target) {
      // Chain k starts from the end of chain k-1, or k/2 (a value with a
      // user far away), or an input.
      std::string in = chain % 3 == 0   ? std::string("%x")
                       : chain % 3 == 1 ? ends[chain - 1]
                                        : ends[chain / 2];
      std::string p = "%c" + std::to_string(chain) + "_";
      os << "  " << p << "a = ts.aten.add.Tensor " << in << ", %y, %one : ("
         << kT << ", " << kT << ", !ts.int) -> " << kT << "\n";
      os << "  " << p << "b = ts.aten.mul.Tensor " << p << "a, %x : (" << kT
         << ", " << kT << ") -> " << kT << "\n";
      os << "  " << p << "c = ts.aten.relu " << p << "b : (" << kT << ") -> "
         << kT << "\n";
      os << "  " << p << "d = ts.aten.sigmoid " << p << "c : (" << kT
         << ") -> " << kT << "\n";
      os << "  " << p << "e = ts.aten.sub.Tensor " << p << "d, " << p
         << "a, %one : (" << kT << ", " << kT << ", !ts.int) -> " << kT
         << "\n";
      graph.ops += 5;
      std::string end = p + "e";
      if (chain % 4 == 3) {
        os << "  " << p << "m = ts.aten.matmul " << end << ", %w : (" << kT
           << ", " << kW << ") -> " << kT << "\n";
        end = p + "m";
        ++graph.ops;
      }
      if (chain % 5 == 4) {
        os << "  " << p << "s = ts.aten.sum " << end << ", %none : (" << kT
           << ", !ts.none) -> " << kS << "\n";
        os << "  " << p << "r = ts.aten.mul.Tensor " << end << ", " << p
           << "s : (" << kT << ", " << kS << ") -> " << kT << "\n";
        end = p + "r";
        graph.ops += 2;
      }
      ends.push_back(end);
      last = end;
      ++chain;
    }
    os << "  return " << last << " : " << kT << "\n}\n";
    ++graph.ops;
    return graph;
  }
};

std::unique_ptr<MLIRContext> makeFusionContext() {
  DialectRegistry registry;
  registry.insert<func::FuncDialect, tsmlir::ts::TorchScriptDialect,
                  tsmlir::fusion::FusionDialect>();
  auto context = std::make_unique<MLIRContext>(
      registry, MLIRContext::Threading::DISABLED);
  context->loadAllAvailableDialects();
  return context;
}

OwningOpRef<ModuleOp> parseOnce(benchmark::State &state, MLIRContext &context,
                                const FusionGraph &graph) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(graph.text, ParserConfig(&context));
  if (!module)
    state.SkipWithError("the generated fusion graph does not parse");
  return module;
}

void setFusionCounters(benchmark::State &state, const FusionGraph &graph) {
  state.SetItemsProcessed(state.iterations() * graph.ops);
  state.SetComplexityN(graph.ops);
  state.counters["nodes"] = double(graph.ops);
}

void BM_ParseFusionBaseline(benchmark::State &state) {
  const FusionGraph &graph = getFusionGraph(state.range(0));
  auto context = makeFusionContext();
  OwningOpRef<ModuleOp> module = parseOnce(state, *context, graph);
  if (!module)
    return;
  ParserConfig config(context.get());
  for (auto _ : state) {
    state.PauseTiming();
    module = nullptr;
    state.ResumeTiming();
    module = parseSourceString<ModuleOp>(graph.text, config);
    benchmark::DoNotOptimize(module.get());
  }
  setFusionCounters(state, graph);
}

void BM_CreateFusionGroups(benchmark::State &state, const char *strategy) {
  const FusionGraph &graph = getFusionGraph(state.range(0));
  auto context = makeFusionContext();
  OwningOpRef<ModuleOp> parsed = parseOnce(state, *context, graph);
  if (!parsed)
    return;
  PassManager pm(context.get());
  tsmlir::fusion::TSCreateFusionGroupsPassOptions options;
  options.strategy = *tsmlir::fusion::parsePlannedStrategy(strategy);
  pm.addNestedPass<func::FuncOp>(
      tsmlir::fusion::createTSCreateFusionGroupsPass(options));
  // The verifier runs once, untimed: the timing is the pass's.
  pm.enableVerifier(false);
  int64_t groups = 0, fused = 0;
  {
    OwningOpRef<ModuleOp> module = parsed->clone();
    if (failed(pm.run(*module)) || failed(verify(*module)))
      return state.SkipWithError("--ts-create-fusion-groups failed");
    module->walk([&](Operation *op) {
      if (op->getName().getStringRef() == "fusion.group") {
        ++groups;
        fused += int64_t(std::distance(op->getRegion(0).op_begin(),
                                       op->getRegion(0).op_end()));
      }
    });
  }
  for (auto _ : state) {
    state.PauseTiming();
    OwningOpRef<ModuleOp> module = parsed->clone();
    state.ResumeTiming();
    if (failed(pm.run(*module)))
      return state.SkipWithError("--ts-create-fusion-groups failed");
    state.PauseTiming();
    module = nullptr;
    state.ResumeTiming();
  }
  setFusionCounters(state, graph);
  state.counters["groups"] = double(groups);
  state.counters["ops_in_groups"] = double(fused);
}

#define TSMLIR_FUSION_SIZES                                                    \
  Arg(1000)->Arg(3000)->Arg(10000)->Arg(30000)->Arg(100000)

BENCHMARK(BM_ParseFusionBaseline)
    ->TSMLIR_FUSION_SIZES->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);
BENCHMARK_CAPTURE(BM_CreateFusionGroups, nnc, "nnc")
    ->TSMLIR_FUSION_SIZES->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);
BENCHMARK_CAPTURE(BM_CreateFusionGroups, aggressive, "aggressive")
    ->TSMLIR_FUSION_SIZES->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);

} // namespace

const FusionGraph &getFusionGraph(int64_t ops) {
  static std::map<int64_t, FusionGraph> cache;
  auto it = cache.find(ops);
  if (it == cache.end())
    it = cache.emplace(ops, FusionGraphWriter().write(ops)).first;
  return it->second;
}
