//===- TsmlirModule.cpp - The tsmlir._native Python extension ------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The in-process compiler behind tsmlir.compile and tsmlir.load: a Graph is
// an imported TorchScript graph (IR text, a .pt archive, or ts-dialect MLIR)
// in a context of its own; Graph.compile specialises a copy of it for a
// call's values and compiles it (CompiledGraph, the engine tsmlir-run uses);
// Compiled.run calls it on numpy arrays and returns numpy arrays. Failures
// raise tsmlir.CompileError or tsmlir.RuntimeError with the diagnostics
// (location, op, message) as their text.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/Fusion/Transforms/Passes.h"
#include "tsmlir/ExecutionEngine/CpuRunner.h"
#include "tsmlir/InitAll.h"
#include "tsmlir/Target/PtArchive/Import.h"
#include "tsmlir/Target/TorchScript/Import.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <optional>

namespace py = pybind11;
using namespace mlir;
using namespace mlir::tsmlir;

namespace {

/// Raises the tsmlir.errors exception `kind` with `message`.
[[noreturn]] void raise(const char *kind, const std::string &message) {
  py::object type = py::module_::import("tsmlir.errors").attr(kind);
  PyErr_SetString(type.ptr(), message.c_str());
  throw py::error_already_set();
}

/// `loc` as `file:line:col`, or as MLIR prints it.
std::string locationText(Location loc) {
  std::string text;
  loc->walk([&](Location inner) {
    if (auto file = llvm::dyn_cast<FileLineColLoc>(inner)) {
      text = (file.getFilename().str() + ":" + std::to_string(file.getLine()) +
              ":" + std::to_string(file.getColumn()));
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (text.empty() && !llvm::isa<UnknownLoc>(loc)) {
    llvm::raw_string_ostream os(text);
    loc.print(os);
  }
  return text;
}

/// The diagnostics a context reports while this lives, as lines of text.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext &ctx)
      : handler(&ctx, [this](Diagnostic &diag) {
          append(diag);
          return success();
        }) {}

  /// What was reported, or `fallback` when nothing was.
  std::string text(StringRef fallback) const {
    return lines.empty() ? fallback.str() : lines;
  }

private:
  static const char *severityName(DiagnosticSeverity severity) {
    switch (severity) {
    case DiagnosticSeverity::Note:
      return "note";
    case DiagnosticSeverity::Warning:
      return "warning";
    case DiagnosticSeverity::Remark:
      return "remark";
    case DiagnosticSeverity::Error:
      break;
    }
    return "error";
  }

  void append(Diagnostic &diag) {
    const char *kind = severityName(diag.getSeverity());
    std::string where = locationText(diag.getLocation());
    if (!lines.empty())
      lines += "\n";
    lines += (where.empty() ? "" : where + ": ") + kind + ": " + diag.str();
    for (Diagnostic &note : diag.getNotes())
      append(note);
  }

  std::string lines;
  ScopedDiagnosticHandler handler;
};

/// A numpy array, bool, int, float or None as a graph argument.
RunValue toRunValue(const py::handle &value, size_t index) {
  RunValue v;
  if (value.is_none()) {
    v.kind = RunValue::Kind::None;
    v.text = "none";
    return v;
  }
  if (py::isinstance<py::bool_>(value)) {
    v.kind = RunValue::Kind::Bool;
    v.boolValue = value.cast<bool>();
    v.text = v.boolValue ? "true" : "false";
    return v;
  }
  if (py::isinstance<py::int_>(value)) {
    v.kind = RunValue::Kind::Int;
    v.intValue = value.cast<int64_t>();
    v.text = std::to_string(v.intValue);
    return v;
  }
  if (py::isinstance<py::float_>(value)) {
    v.kind = RunValue::Kind::Float;
    v.floatValue = value.cast<double>();
    v.text = std::to_string(v.floatValue);
    return v;
  }
  if (!py::isinstance<py::array>(value))
    raise("CompileError", "argument " + std::to_string(index) +
                              ": expected a numpy array, a bool, an int, a "
                              "float or None, got " +
                              py::str(value.get_type()).cast<std::string>());
  auto array = py::array::ensure(value, py::array::c_style);
  py::dtype dtype = array.dtype();
  std::string descr = dtype.attr("str").cast<std::string>();
  std::optional<Dtype> known = getDtypeForNpyDescr(descr);
  if (!known || descr[0] == '>' || getDtypeInfo(*known).abiCode == 0)
    raise("CompileError", "argument " + std::to_string(index) + ": dtype " +
                              py::str(dtype).cast<std::string>() +
                              " is not one of TorchScript's tensor dtypes");
  const DtypeInfo &info = getDtypeInfo(*known);
  v.kind = RunValue::Kind::Tensor;
  NpyHeader &header = v.tensor.header;
  header.majorVersion = 1;
  header.descr = info.npyDescr.str();
  header.kind = static_cast<char>(info.kind);
  header.itemSize = info.byteSize;
  header.byteOrder = header.itemSize == 1 ? NpyHeader::ByteOrder::NotApplicable
                                          : NpyHeader::ByteOrder::Little;
  for (py::ssize_t d = 0; d < array.ndim(); ++d)
    header.shape.push_back(array.shape(d));
  header.dataSize = static_cast<uint64_t>(array.nbytes());
  const auto *data = static_cast<const uint8_t *>(array.data());
  v.tensor.data.assign(data, data + array.nbytes());
  v.text = "argument " + std::to_string(index);
  return v;
}

SmallVector<RunValue> toRunValues(const py::sequence &values) {
  SmallVector<RunValue> out;
  for (size_t i = 0; i < values.size(); ++i)
    out.push_back(toRunValue(values[i], i));
  return out;
}

/// One specialisation of a graph, compiled.
class Compiled {
public:
  Compiled(std::unique_ptr<CompiledGraph> graph, OwningOpRef<ModuleOp> module)
      : graph(std::move(graph)), module(std::move(module)) {}

  /// Calls the compiled graph on `values` (those it was compiled for, in
  /// kind, dtype and shape): its outputs, flattened, as numpy arrays.
  py::list run(const py::sequence &values) {
    if (graph->canInvokeInPlace())
      if (std::optional<py::list> result = runInPlace(values))
        return *result;
    SmallVector<RunValue> inputs = toRunValues(values);
    SmallVector<HostTensor> outputs;
    LogicalResult set = success(), invoked = success();
    {
      // The lock is taken without the GIL: a thread that holds the GIL and
      // waits for it would stop the one that holds it and wants the GIL.
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mutex);
      set = graph->setInputs(inputs);
      if (succeeded(set))
        invoked = graph->invoke();
      if (succeeded(set) && succeeded(invoked))
        outputs = graph->getOutputs();
    }
    if (failed(set))
      raise("RuntimeError", "cannot allocate the buffers of the inputs' sizes");
    if (failed(invoked))
      raise("RuntimeError",
            graph->raised.empty()
                ? "the compiled graph failed (see the CUDA error on stderr)"
                : "the graph raised an exception: " + graph->raised);
    py::list result;
    for (HostTensor &t : outputs) {
      std::vector<py::ssize_t> shape(t.shape.begin(), t.shape.end());
      py::array array(py::dtype(getDtypeInfo(t.dtype).npyDescr.str()), shape);
      if (!t.data.empty())
        std::memcpy(array.mutable_data(), t.data.data(), t.data.size());
      result.append(array);
    }
    return result;
  }

  /// run without copies: the compiled code reads the arrays' memory and
  /// writes arrays it returns. Nothing when an array is not 16-byte
  /// aligned (run copies it then).
  std::optional<py::list> runInPlace(const py::sequence &values) {
    SmallVector<RunValue> inputs;
    std::vector<py::array> arrays;
    SmallVector<const void *> tensorData;
    for (size_t i = 0; i < values.size(); ++i) {
      py::handle value = values[i];
      if (!py::isinstance<py::array>(value)) {
        inputs.push_back(toRunValue(value, i));
        continue;
      }
      auto array = py::array::ensure(value, py::array::c_style);
      if (reinterpret_cast<uintptr_t>(array.data()) % 16 != 0)
        return std::nullopt;
      RunValue v;
      v.kind = RunValue::Kind::Tensor;
      tensorData.push_back(array.data());
      arrays.push_back(std::move(array));
      inputs.push_back(std::move(v));
    }
    py::list result;
    SmallVector<void *> outputData;
    for (auto &[dtype, shape] : graph->getOutputSpecs()) {
      std::vector<py::ssize_t> sizes(shape.begin(), shape.end());
      py::array array(py::dtype(getDtypeInfo(dtype).npyDescr.str()), sizes);
      if (reinterpret_cast<uintptr_t>(array.mutable_data()) % 16 != 0)
        return std::nullopt;
      outputData.push_back(array.mutable_data());
      result.append(array);
    }
    LogicalResult invoked = success();
    {
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mutex);
      invoked = graph->invokeInPlace(inputs, tensorData, outputData);
    }
    if (failed(invoked))
      raise("RuntimeError",
            graph->raised.empty()
                ? "the compiled graph was not called: its arguments are not "
                  "those it was compiled for"
                : "the graph raised an exception: " + graph->raised);
    return result;
  }

  /// Whether calls read and write the caller's arrays without copies.
  bool inPlace() const { return graph->canInvokeInPlace(); }
  unsigned numFusionGroups() const { return graph->numFusionGroups; }
  std::vector<unsigned> noneOutputs() const {
    return {graph->noneOutputs.begin(), graph->noneOutputs.end()};
  }
  std::vector<std::string> outputTypes() const {
    return {graph->outputTypes.begin(), graph->outputTypes.end()};
  }
  double compileSeconds() const { return graph->compileSeconds; }
  unsigned numKernels() const { return graph->numKernels; }

private:
  std::mutex mutex;
  std::unique_ptr<CompiledGraph> graph;
  OwningOpRef<ModuleOp> module;
};

/// An imported graph, in a context of its own.
class Graph {
public:
  /// `kind`: "text" (TorchScript IR, `source` is the text), "pt" (a
  /// torch.jit.save archive at `source`) or "mlir" (ts-dialect text).
  Graph(const std::string &source, const std::string &kind,
        const std::string &name, const std::string &entry,
        const std::string &params)
      : entry(kind == "pt" ? "" : entry) {
    DialectRegistry registry;
    registerAllDialectsWithUpstream(registry);
    registerTorchScriptImportDialects(registry);
    ctx = std::make_unique<MLIRContext>(registry);
    ctx->loadAllAvailableDialects();
    ctx->printOpOnDiagnostic(false);
    DiagnosticCollector diagnostics(*ctx);
    if (kind == "pt") {
      PtImportOptions options;
      if (!entry.empty())
        options.entry = entry;
      module = importPtArchive(source, ctx.get(), options);
    } else if (kind == "text") {
      TorchScriptImportOptions options;
      options.paramsFile = params;
      module = importTorchScript(source, name, ctx.get(), options);
    } else if (kind == "mlir") {
      module = parseSourceString<ModuleOp>(source, ctx.get(), name);
    } else {
      raise("CompileError", "unknown graph kind '" + kind + "'");
    }
    if (!module)
      raise("CompileError",
            diagnostics.text(name + ": the graph could not be imported"));
  }

  std::unique_ptr<Compiled> compile(const py::sequence &values,
                                    const std::string &strategy,
                                    const std::string &device, unsigned threads,
                                    bool exactMath,
                                    const std::string &gpuChip) {
    SmallVector<RunValue> inputs = toRunValues(values);
    CompileOptions options;
    options.entry = entry;
    if (!options.setFusion(strategy.empty() ? "none" : strategy))
      raise("CompileError", "unknown fusion strategy '" + strategy + "'");
    options.threads = std::max(1u, threads);
    options.approximateMath = !exactMath;
    options.libraryKernels = hasLibraryKernels();
    std::optional<Device> where = symbolizeDevice(device);
    if (!where)
      raise("CompileError",
            "device must be 'cpu' or 'cuda', not '" + device + "'");
    options.device = *where;
    options.gpu.chip = gpuChip;
    FailureOr<std::unique_ptr<CompiledGraph>> graph = failure();
    OwningOpRef<ModuleOp> copy;
    std::string error;
    {
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mutex);
      DiagnosticCollector diagnostics(*ctx);
      copy = module->clone();
      if (failed(appendDefaultInputs(*copy, entry, inputs)))
        error = diagnostics.text("the arguments do not fit the graph");
      else if (failed(graph = CompiledGraph::compile(*copy, inputs, options)))
        error = diagnostics.text("compilation failed");
    }
    if (!error.empty())
      raise("CompileError", error);
    return std::make_unique<Compiled>(std::move(*graph), std::move(copy));
  }

  /// The fusion report (--ts-fusion-report) of the graph specialised and
  /// optimised for `values`: `format` text, json or dot; `strategy` one of
  /// the four or all.
  std::string fusionReport(const py::sequence &values,
                           const std::string &strategy,
                           const std::string &format) {
    SmallVector<RunValue> inputs = toRunValues(values);
    std::string report, error;
    {
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mutex);
      error = fusionReportLocked(inputs, strategy, format, report);
    }
    if (!error.empty())
      raise("CompileError", error);
    return report;
  }

  /// fusionReport's work, under the lock and without the GIL: an error
  /// message, or empty with the report in `report`.
  std::string fusionReportLocked(SmallVectorImpl<RunValue> &inputs,
                                 const std::string &strategy,
                                 const std::string &format,
                                 std::string &report) {
    DiagnosticCollector diagnostics(*ctx);
    OwningOpRef<ModuleOp> copy = module->clone();
    CompileOptions options;
    options.entry = entry;
    options.fusion.reset(); // planned by the report, not formed
    options.libraryKernels = hasLibraryKernels(); // as compile() does
    if (failed(appendDefaultInputs(*copy, entry, inputs)) ||
        failed(prepareGraph(*copy, inputs, options)))
      return diagnostics.text("the graph could not be specialised for the "
                              "values");
    llvm::SmallString<128> path;
    if (llvm::sys::fs::createTemporaryFile("tsmlir-fusion-report", format,
                                           path))
      return "fusion report: cannot create a temporary file";
    llvm::FileRemover remover(path);
    PassManager pm(ctx.get());
    fusion::TSFusionReportPassOptions reportOptions;
    reportOptions.format = format;
    reportOptions.strategy = strategy;
    reportOptions.output = path.str().str();
    pm.addPass(fusion::createTSFusionReportPass(reportOptions));
    if (failed(pm.run(*copy)))
      return diagnostics.text("the fusion report failed");
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer)
      return "fusion report: cannot read it back";
    report = (*buffer)->getBuffer().str();
    return "";
  }

  /// The module as ts-dialect text.
  std::string str() {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    return text;
  }

private:
  std::mutex mutex;
  std::unique_ptr<MLIRContext> ctx;
  OwningOpRef<ModuleOp> module;
  std::string entry;
};

} // namespace

PYBIND11_MODULE(_native, m) {
  m.doc() = "tsmlir's compiler, in process (tsmlir.compile, tsmlir.load)";
  registerAllPasses();
  m.def("has_library_kernels", &hasLibraryKernels,
        "Whether convolutions and matrix products run in libtsmlir_kernels "
        "(oneDNN), their epilogues fused");

  py::class_<Compiled>(m, "Compiled")
      .def("run", &Compiled::run, py::arg("values"))
      .def_property_readonly("num_fusion_groups", &Compiled::numFusionGroups)
      .def_property_readonly("none_outputs", &Compiled::noneOutputs)
      .def_property_readonly("output_types", &Compiled::outputTypes)
      .def_property_readonly("compile_seconds", &Compiled::compileSeconds)
      .def_property_readonly("num_kernels", &Compiled::numKernels)
      .def_property_readonly("in_place", &Compiled::inPlace);

  py::class_<Graph>(m, "Graph")
      .def(py::init<const std::string &, const std::string &,
                    const std::string &, const std::string &,
                    const std::string &>(),
           py::arg("source"), py::arg("kind"), py::arg("name") = "graph",
           py::arg("entry") = "", py::arg("params") = "")
      .def("compile", &Graph::compile, py::arg("values"),
           py::arg("strategy") = "nnc", py::arg("device") = "cpu",
           py::arg("threads") = 1, py::arg("exact_math") = false,
           py::arg("gpu_chip") = "sm_90",
           // Its module lives in the graph's context.
           py::keep_alive<0, 1>())
      .def("fusion_report", &Graph::fusionReport, py::arg("values"),
           py::arg("strategy") = "all", py::arg("format") = "text")
      .def("__str__", &Graph::str);
}
