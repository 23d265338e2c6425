//===- TorchScriptImportBench.cpp - TorchScript import/export speed -------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// How the time to import TorchScript IR text grows with the graph's size,
// measured against MLIR's own parser reading the same module as MLIR text
// (with its locations), in the same run:
//
//   BM_ImportTorchScript   TorchScript text -> module (importTorchScript)
//   BM_ParseMLIRBaseline   MLIR text of that module -> module (the baseline)
//   BM_ExportTorchScript   module -> TorchScript text (exportTorchScript)
//   BM_OptimizeTorchScript module -> --ts-optimize (the graph passes), on a
//                          copy of the imported module
//
// for synthetic graphs of 1,000 to 100,000 nodes that look like what PyTorch
// prints: refined and plain tensor types, `# file:line:col` comments,
// constants, lists, a prim::If every ~100 nodes and an optimized-style
// prim::TypeCheck / prim::If / prim::TensorExprGroup_k with its `with ... =
// graph(...)` subgraph every ~500 nodes. bench/run.sh runs it and prints the
// ratios; bench/README.md has the results.
//
//   tsmlir-bench --emit-graph=N     prints the generated graph of N nodes
//
// FusionBench.cpp adds the fusion planner's benchmarks to the same binary.
//
//===----------------------------------------------------------------------===//

#include "FusionBench.h"

#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h"
#include "tsmlir/Target/TorchScript/Export.h"
#include "tsmlir/Target/TorchScript/Import.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Synthetic graphs
//===----------------------------------------------------------------------===//

constexpr const char *kAct =
    "Float(64, 128, strides=[128, 1], requires_grad=0, device=cpu)";
constexpr const char *kWeight =
    "Float(128, 128, strides=[128, 1], requires_grad=0, device=cpu)";

/// A graph as PyTorch would print it, and how many nodes it has (every
/// `... = kind(...)` line, in blocks and subgraphs too).
struct SyntheticGraph {
  std::string text;
  int64_t nodes = 0;
};

/// Writes a graph of about `target` nodes (at most a few over).
class GraphWriter {
public:
  SyntheticGraph write(int64_t target) {
    body.reserve(target * 96);
    header();
    // Two chains: `cur` keeps the refined type, `t` is a plain Tensor, so that
    // both kinds of type and overload resolution are exercised.
    std::string cur = "%x.1", t = "%t.1";
    int64_t nextIf = 100, nextGroup = 500;
    for (unsigned step = 0; nodes < target - 6; ++step) {
      if (nodes >= nextGroup) {
        nextGroup += 500;
        t = fusedGroup(cur);
        continue;
      }
      if (nodes >= nextIf) {
        nextIf += 100;
        t = ifNode(cur, t);
        continue;
      }
      switch (step % 8) {
      case 0: {
        std::string c = constant("int", std::to_string(1 + step % 3));
        cur = def(kAct, "aten::add(" + cur + ", %x.1, " + c + ")");
        break;
      }
      case 1: {
        std::string f =
            constant("float", (step / 8) % 2 ? "0.5" : "1.0000000000000001e-05");
        cur = def(kAct, "aten::mul(" + cur + ", " + f + ")");
        break;
      }
      case 2:
        cur = def(kAct, "aten::relu(" + cur + ")");
        break;
      case 3:
        cur = def(kAct, "aten::matmul(" + cur + ", %w.1)");
        break;
      case 4:
        t = def("Tensor", "aten::add(" + t + ", " + cur + ", %one)");
        break;
      case 5: {
        // sum over a dim list built by prim::ListConstruct.
        std::string d = constant("int", "1");
        std::string l = def("int[]", "prim::ListConstruct(" + d + ")",
                            /*comment=*/false);
        t = def("Tensor", "aten::sum(" + t + ", " + l + ", %false, %none)");
        break;
      }
      case 6: {
        std::string s = def("Tensor", "aten::sum(" + cur + ", %none)");
        t = def("Tensor", "aten::mul(" + t + ", " + s + ")");
        break;
      }
      case 7: {
        std::string dims = constant("int[]", "[0, 1]");
        t = def("Tensor", "aten::sum(" + t + ", " + dims + ", %true, %none)");
        break;
      }
      }
    }
    body += "  return (" + cur + ", " + t + ")\n";
    SyntheticGraph graph;
    graph.text = std::move(body);
    graph.text += subgraphs;
    graph.nodes = nodes;
    return graph;
  }

private:
  std::string body, subgraphs;
  std::string indent = "  ";
  int64_t nodes = 0;
  unsigned nextId = 2, line = 10, groups = 0;

  /// PyTorch names values `%N`, or `%name.N` where the source had a name.
  std::string fresh() {
    unsigned id = nextId++;
    if (id % 5 == 0)
      return "%h." + std::to_string(id);
    return "%" + std::to_string(id);
  }

  void comment(std::string &out) {
    ++line;
    out += " # source.py:" + std::to_string(line) + ":" +
           std::to_string(4 + line % 40);
  }

  /// `%v : type = rhs  # source.py:L:C`; returns %v.
  std::string def(llvm::StringRef type, llvm::StringRef rhs,
                  bool withComment = true) {
    std::string name = fresh();
    body += indent;
    body += name;
    body += " : ";
    body += type;
    body += " = ";
    body += rhs;
    if (withComment)
      comment(body);
    body += "\n";
    ++nodes;
    return name;
  }

  std::string constant(llvm::StringRef type, llvm::StringRef value) {
    return def(type, ("prim::Constant[value=" + value + "]()").str(),
               /*comment=*/false);
  }

  void header() {
    body += "graph(%x.1 : ";
    body += kAct;
    body += ",\n      %w.1 : ";
    body += kWeight;
    body += ",\n      %t.1 : Tensor):\n";
    body += "  %none : NoneType = prim::Constant()\n";
    body += "  %one : int = prim::Constant[value=1]()\n";
    body += "  %false : bool = prim::Constant[value=0]()\n";
    body += "  %true : bool = prim::Constant[value=1]() # source.py:9:4\n";
    nodes += 4;
  }

  /// if bool(t > 0): relu(t) + cur, else: -t   (6 nodes)
  std::string ifNode(const std::string &cur, const std::string &t) {
    std::string zero = constant("int", "0");
    std::string gt = def("Tensor", "aten::gt(" + t + ", " + zero + ")");
    std::string cond = def("bool", "aten::Bool(" + gt + ")");
    std::string result = fresh();
    body += indent + result + " : Tensor = prim::If(" + cond + ")";
    comment(body);
    body += "\n";
    ++nodes;
    indent = "      ";
    body += "    block0():\n";
    std::string a = def("Tensor", "aten::relu(" + t + ")");
    std::string b = def("Tensor", "aten::add(" + a + ", " + cur + ", %one)");
    body += "      -> (" + b + ")\n";
    body += "    block1():\n";
    std::string n = def("Tensor", "aten::neg(" + t + ")");
    body += "      -> (" + n + ")\n";
    indent = "  ";
    return result;
  }

  /// What the profiling executor prints for a fused region (5 nodes here, 6
  /// in the subgraph).
  std::string fusedGroup(const std::string &cur) {
    unsigned index = groups++;
    std::string a = fresh(), w = fresh(), ok = fresh(), result = fresh();
    body += indent + a + " : " + kAct + ", " + w + " : " + kWeight + ", " + ok +
            " : bool = prim::TypeCheck[types=[" + kAct + ", " + kWeight +
            "]](" + cur + ", %w.1)\n";
    body += indent + result + " : Tensor = prim::If(" + ok + ")\n";
    nodes += 2;
    indent = "      ";
    body += "    block0():\n";
    std::string y = def(kAct, "prim::TensorExprGroup_" +
                                  std::to_string(index) + "(" + a + ", " + w +
                                  ")",
                        /*comment=*/false);
    body += "      -> (" + y + ")\n";
    body += "    block1():\n";
    std::string fn = def(
        "Function",
        "prim::Constant[name=\"fallback_function\", fallback=1]()", false);
    std::string tuple =
        def("(Tensor)", "prim::CallFunction(" + fn + ", " + cur + ", %w.1)",
            false);
    std::string z = def("Tensor", "prim::TupleUnpack(" + tuple + ")", false);
    body += "      -> (" + z + ")\n";
    indent = "  ";

    std::string &s = subgraphs;
    s += "with prim::TensorExprGroup_" + std::to_string(index) +
         " = graph(%x.1 : " + kAct + ",\n      %w.1 : " + kWeight + "):\n";
    s += "  %2 : int = prim::Constant[value=1]()\n";
    s += "  %3 : float = prim::Constant[value=0.5]()\n";
    auto sub = [&](const char *name, const std::string &rhs) {
      s += std::string("  ") + name + " : " + kAct + " = " + rhs;
      comment(s);
      s += "\n";
    };
    sub("%4", "aten::matmul(%x.1, %w.1)");
    sub("%5", "aten::mul(%4, %3)");
    sub("%y.2", "aten::add(%5, %x.1, %2)");
    sub("%7", "aten::relu(%y.2)");
    s += "  return (%7)\n";
    nodes += 6;
    return result;
  }
};

const SyntheticGraph &getGraph(int64_t n) {
  static std::map<int64_t, SyntheticGraph> cache;
  auto it = cache.find(n);
  if (it == cache.end())
    it = cache.emplace(n, GraphWriter().write(n)).first;
  return it->second;
}

//===----------------------------------------------------------------------===//
// Shared setup
//===----------------------------------------------------------------------===//

/// One context per benchmark, single-threaded, every dialect loaded up front.
std::unique_ptr<MLIRContext> makeContext() {
  DialectRegistry registry;
  tsmlir::registerTorchScriptImportDialects(registry);
  registry.insert<func::FuncDialect>();
  auto context = std::make_unique<MLIRContext>(
      registry, MLIRContext::Threading::DISABLED);
  context->disableMultithreading();
  context->loadAllAvailableDialects();
  return context;
}

/// Imports the graph of `n` nodes once, untimed; reports failure through
/// SkipWithError (with the first diagnostic) and returns null.
OwningOpRef<ModuleOp> importOnce(benchmark::State &state, MLIRContext &context,
                                 const SyntheticGraph &graph) {
  std::string firstError;
  OwningOpRef<ModuleOp> module;
  {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      if (firstError.empty()) {
        llvm::raw_string_ostream os(firstError);
        os << diag.getLocation() << ": " << diag.str();
      }
      return success();
    });
    module = tsmlir::importTorchScript(graph.text, "bench.txt", &context);
  }
  if (!module) {
    std::string message = "the generated graph of " +
                          std::to_string(graph.nodes) +
                          " nodes does not import: " + firstError;
    state.SkipWithError(message.c_str());
  }
  return module;
}

void setCounters(benchmark::State &state, const SyntheticGraph &graph,
                 size_t textBytes) {
  state.SetItemsProcessed(state.iterations() * graph.nodes);
  state.SetBytesProcessed(state.iterations() * int64_t(textBytes));
  state.SetComplexityN(graph.nodes);
  state.counters["nodes"] = double(graph.nodes);
  state.counters["text_bytes"] = double(textBytes);
}

//===----------------------------------------------------------------------===//
// Benchmarks
//===----------------------------------------------------------------------===//

void BM_ImportTorchScript(benchmark::State &state) {
  const SyntheticGraph &graph = getGraph(state.range(0));
  auto context = makeContext();
  OwningOpRef<ModuleOp> module = importOnce(state, *context, graph);
  if (!module)
    return;
  for (auto _ : state) {
    // Freeing the previous module is not part of the import.
    state.PauseTiming();
    module = nullptr;
    state.ResumeTiming();
    module = tsmlir::importTorchScript(graph.text, "bench.txt", context.get());
    benchmark::DoNotOptimize(module.get());
  }
  if (!module)
    return state.SkipWithError("import failed inside the timing loop");
  setCounters(state, graph, graph.text.size());
}

void BM_ParseMLIRBaseline(benchmark::State &state) {
  const SyntheticGraph &graph = getGraph(state.range(0));
  auto context = makeContext();
  std::string mlirText;
  {
    OwningOpRef<ModuleOp> imported = importOnce(state, *context, graph);
    if (!imported)
      return;
    llvm::raw_string_ostream os(mlirText);
    imported->print(os, OpPrintingFlags().enableDebugInfo());
  }
  ParserConfig config(context.get());
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(mlirText, config, "bench.mlir");
  if (!module)
    return state.SkipWithError("MLIR's parser rejects the printed module");
  for (auto _ : state) {
    state.PauseTiming();
    module = nullptr;
    state.ResumeTiming();
    module = parseSourceString<ModuleOp>(mlirText, config, "bench.mlir");
    benchmark::DoNotOptimize(module.get());
  }
  if (!module)
    return state.SkipWithError("parse failed inside the timing loop");
  setCounters(state, graph, mlirText.size());
}

void BM_ExportTorchScript(benchmark::State &state) {
  const SyntheticGraph &graph = getGraph(state.range(0));
  auto context = makeContext();
  OwningOpRef<ModuleOp> module = importOnce(state, *context, graph);
  if (!module)
    return;
  std::string out;
  {
    llvm::raw_string_ostream os(out);
    if (failed(tsmlir::exportTorchScript(*module, os)))
      return state.SkipWithError("export failed");
  }
  // The export reads back (untimed), and is the generated text when it is
  // byte for byte the same.
  if (!tsmlir::importTorchScript(out, "export.txt", context.get()))
    return state.SkipWithError("the exported text does not import");
  state.counters["identical"] = out == graph.text ? 1 : 0;
  size_t bytes = out.size();
  for (auto _ : state) {
    out.clear();
    llvm::raw_string_ostream os(out);
    LogicalResult result = tsmlir::exportTorchScript(*module, os);
    benchmark::DoNotOptimize(result);
  }
  setCounters(state, graph, bytes);
}

void BM_OptimizeTorchScript(benchmark::State &state) {
  const SyntheticGraph &graph = getGraph(state.range(0));
  auto context = makeContext();
  OwningOpRef<ModuleOp> imported = importOnce(state, *context, graph);
  if (!imported)
    return;
  PassManager pm(context.get());
  pm.addPass(tsmlir::ts::createTSOptimizePass());
  int64_t after = 0;
  for (auto _ : state) {
    state.PauseTiming();
    OwningOpRef<ModuleOp> module = imported->clone();
    state.ResumeTiming();
    if (failed(pm.run(*module)))
      return state.SkipWithError("--ts-optimize failed");
    state.PauseTiming();
    after = tsmlir::ts::countNodes(*module);
    module = nullptr;
    state.ResumeTiming();
  }
  setCounters(state, graph, graph.text.size());
  state.counters["nodes_after"] = double(after);
}

#define TSMLIR_SIZES                                                           \
  Arg(1000)->Arg(3000)->Arg(10000)->Arg(30000)->Arg(100000)

BENCHMARK(BM_ImportTorchScript)
    ->TSMLIR_SIZES->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);
BENCHMARK(BM_ParseMLIRBaseline)
    ->TSMLIR_SIZES->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);
BENCHMARK(BM_ExportTorchScript)
    ->TSMLIR_SIZES->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);
BENCHMARK(BM_OptimizeTorchScript)
    ->TSMLIR_SIZES->Unit(benchmark::kMillisecond)
    ->Complexity(benchmark::oN);

} // namespace

int main(int argc, char **argv) {
  // --emit-graph=N: print the graph of N nodes instead, to inspect it or feed
  // it to tsmlir-translate / callgrind.
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg.consume_front("--emit-graph=")) {
      int64_t n;
      if (arg.getAsInteger(10, n) || n < 10) {
        llvm::errs() << "--emit-graph needs a node count of at least 10\n";
        return 1;
      }
      const SyntheticGraph &graph = getGraph(n);
      llvm::outs() << graph.text;
      llvm::errs() << graph.nodes << " nodes, " << graph.text.size()
                   << " bytes\n";
      return 0;
    }
    // --emit-fusion-graph=N: the typed module BM_CreateFusionGroups plans.
    if (arg.consume_front("--emit-fusion-graph=")) {
      int64_t n;
      if (arg.getAsInteger(10, n) || n < 10) {
        llvm::errs() << "--emit-fusion-graph needs an op count of at least 10\n";
        return 1;
      }
      const FusionGraph &graph = getFusionGraph(n);
      llvm::outs() << graph.text;
      llvm::errs() << graph.ops << " ops, " << graph.text.size() << " bytes\n";
      return 0;
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
