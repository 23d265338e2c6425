//===- RunSharedObject.cpp - Run a model compiled by tsmlir-compile -------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `tsmlir-run model.so --input ...`: opens a shared object that
// `tsmlir-compile --shared` wrote, finds its entries through
// `tsmlir_shared_model`, and calls one through the C ABI of
// tsmlir/Runtime/Abi.h with the inputs given, as a C program would. The
// inputs may be all of the graph's arguments (those fixed when the model was
// compiled must then have the values it was compiled with) or only the
// model's inputs.
//
//===----------------------------------------------------------------------===//

#include "RunSharedObject.h"

#include "tsmlir/Runtime/Abi.h"
#include "tsmlir/Runtime/CudaRuntime.h"
#include "tsmlir/Support/Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

using namespace mlir;
using namespace mlir::tsmlir;

static int fail(StringRef file, const Twine &message) {
  llvm::errs() << "tsmlir-run: " << file << ": " << message << "\n";
  return 1;
}

/// Bytes per element of a tsmlir_dtype, or 0 for an unknown code.
static size_t dtypeSize(int32_t code) {
  std::optional<Dtype> dtype = getDtypeForAbiCode(code);
  return dtype ? getDtypeInfo(*dtype).byteSize : 0;
}

static std::string shapeText(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

/// One tensor of a call: its memory (host, or device for CUDA models) and
/// its descriptor.
struct CallTensor {
  std::vector<uint8_t> host;
  SmallVector<int64_t> sizes;
  void *device = nullptr;
  tsmlir_tensor tensor{};
  ~CallTensor() {
    if (device)
      tsmlirCudaFree(device);
  }
};

/// Whether the command-line value `given` is the one the model fixed.
static bool sameBoundValue(const RunValue &given, StringRef bound) {
  llvm::Expected<RunValue> fixed = RunValue::parse(bound);
  if (!fixed) {
    llvm::consumeError(fixed.takeError());
    return false;
  }
  if (given.kind != fixed->kind)
    return false;
  switch (given.kind) {
  case RunValue::Kind::Int: return given.intValue == fixed->intValue;
  case RunValue::Kind::Bool: return given.boolValue == fixed->boolValue;
  // The value compiled in is the text it was given as, read back exactly.
  case RunValue::Kind::Float: return given.floatValue == fixed->floatValue;
  case RunValue::Kind::None: return true;
  default: return false;
  }
}

int mlir::tsmlir::runSharedObject(const SharedObjectRun &run) {
  StringRef file = llvm::sys::path::filename(run.path);
  // A path, not a name for the library search.
  llvm::SmallString<256> path(run.path);
  llvm::sys::fs::make_absolute(path);
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return fail(file, Twine("cannot open: ") + dlerror());
  auto *models = reinterpret_cast<const tsmlir_signature *const *>(
      dlsym(handle, "tsmlir_shared_model"));
  auto *lastError =
      reinterpret_cast<const char *(*)()>(dlsym(handle, "tsmlir_last_error"));
  auto *statusName = reinterpret_cast<const char *(*)(int32_t)>(
      dlsym(handle, "tsmlir_status_name"));
  if (!models || !lastError || !statusName)
    return fail(file, "not a model from tsmlir-compile --shared (no "
                      "tsmlir_shared_model)");

  // The entry: the only one, or the one named (NAME_ENTRY, or ENTRY).
  const tsmlir_signature *sig = nullptr;
  std::string names;
  for (const tsmlir_signature *const *m = models; *m; ++m) {
    StringRef name = (*m)->name;
    names += (names.empty() ? "" : ", ") + name.str();
    if (run.entry.empty() ? !sig
                          : name == run.entry ||
                                name.ends_with("_" + run.entry))
      sig = *m;
  }
  if (!sig || (run.entry.empty() && models[0] && models[1]))
    return fail(file, run.entry.empty()
                          ? "name the entry with --entry (" + names + ")"
                          : "no entry '" + run.entry + "' (" + names + ")");
  if (sig->abi_version != TSMLIR_ABI_VERSION)
    return fail(file, "compiled for ABI version " +
                          Twine(sig->abi_version) + ", this tsmlir-run has " +
                          Twine(TSMLIR_ABI_VERSION));
  bool cuda = sig->device == TSMLIR_DEVICE_CUDA;
  if (cuda && tsmlirCudaInit() != TSMLIR_CUDA_SUCCESS)
    return fail(file, tsmlirCudaGetLastError());

  // The values of the call's inputs: all of the graph's arguments, or only
  // the inputs.
  size_t numInputs = sig->num_inputs;
  SmallVector<const RunValue *> given;
  if (run.inputs.size() == static_cast<size_t>(sig->num_graph_arguments) &&
      sig->num_bound > 0) {
    for (int32_t b = 0; b < sig->num_bound; ++b) {
      const tsmlir_bound_argument &arg = sig->bound[b];
      const RunValue &value = run.inputs[arg.position];
      if (!sameBoundValue(value, arg.value))
        return fail(file, "argument " + Twine(arg.position) + " ('" +
                              arg.name + "') was fixed to " + arg.value +
                              " when the model was compiled; got " +
                              value.text);
    }
    for (size_t i = 0; i < numInputs; ++i)
      given.push_back(&run.inputs[sig->inputs[i].position]);
  } else if (run.inputs.size() == numInputs) {
    for (const RunValue &value : run.inputs)
      given.push_back(&value);
  } else {
    std::string expected;
    for (size_t i = 0; i < numInputs; ++i)
      expected += (i ? ", " : "") + std::string(sig->inputs[i].name);
    return fail(file, Twine(sig->name) + " takes " + Twine(numInputs) +
                          " input" + (numInputs == 1 ? "" : "s") + " (" +
                          expected + ")" +
                          (sig->num_bound
                               ? " or all " + Twine(sig->num_graph_arguments) +
                                     " graph arguments"
                               : Twine()) +
                          ", but " + Twine(run.inputs.size()) +
                          " were given");
  }

  // Inputs as the command line gave them: the model checks them.
  std::vector<std::unique_ptr<CallTensor>> ins, outs;
  for (size_t i = 0; i < numInputs; ++i) {
    const RunValue &value = *given[i];
    auto t = std::make_unique<CallTensor>();
    bool number = sig->inputs[i].kind == TSMLIR_KIND_NUMBER;
    if (value.kind == RunValue::Kind::Tensor) {
      t->host = value.tensor.data;
      t->sizes.assign(value.tensor.shape().begin(), value.tensor.shape().end());
      std::optional<Dtype> dtype =
          getDtypeForNpyDescr(value.tensor.header.descr);
      t->tensor.dtype = dtype ? getDtypeInfo(*dtype).abiCode : 0;
    } else if (value.kind == RunValue::Kind::Float ||
               value.kind == RunValue::Kind::Int) {
      double v = value.kind == RunValue::Kind::Float
                     ? value.floatValue
                     : static_cast<double>(value.intValue);
      t->host.resize(sizeof(double));
      std::memcpy(t->host.data(), &v, sizeof(double));
      t->tensor.dtype = TSMLIR_FLOAT64;
    } else {
      return fail(file, "input " + Twine(i) + " ('" + sig->inputs[i].name +
                            "'): the model takes a " +
                            (number ? "number" : "tensor") + ", got " +
                            value.text);
    }
    t->tensor.rank = t->sizes.size();
    t->tensor.sizes = t->sizes.data();
    t->tensor.data = t->host.data();
    if (cuda && !number) {
      if (tsmlirCudaMalloc(&t->device, std::max<size_t>(t->host.size(), 1)) !=
              TSMLIR_CUDA_SUCCESS ||
          tsmlirCudaMemcpyHtoD(t->device, t->host.data(), t->host.size(),
                               nullptr) != TSMLIR_CUDA_SUCCESS)
        return fail(file, tsmlirCudaGetLastError());
      t->tensor.data = t->device;
    }
    ins.push_back(std::move(t));
  }
  // Outputs as the signature describes them.
  for (int32_t i = 0; i < sig->num_outputs; ++i) {
    const tsmlir_value_info &info = sig->outputs[i];
    auto t = std::make_unique<CallTensor>();
    t->sizes.assign(info.sizes, info.sizes + info.rank);
    int64_t n = 1;
    for (int64_t s : t->sizes)
      n *= s;
    t->host.resize(n * dtypeSize(info.dtype));
    t->tensor = {t->host.data(), info.dtype, info.rank, t->sizes.data(),
                 nullptr};
    if (cuda && info.kind == TSMLIR_KIND_TENSOR) {
      if (tsmlirCudaMalloc(&t->device, std::max<size_t>(t->host.size(), 1)) !=
          TSMLIR_CUDA_SUCCESS)
        return fail(file, tsmlirCudaGetLastError());
      t->tensor.data = t->device;
    }
    outs.push_back(std::move(t));
  }
  std::vector<tsmlir_tensor> inTensors, outTensors;
  for (auto &t : ins)
    inTensors.push_back(t->tensor);
  for (auto &t : outs)
    outTensors.push_back(t->tensor);

  auto call = [&]() -> int {
    tsmlir_status status = sig->entry(inTensors.data(), inTensors.size(),
                                      outTensors.data(), outTensors.size());
    if (status == TSMLIR_OK)
      return 0;
    return fail(file, Twine(statusName(status)) + ": " + lastError());
  };
  llvm::outs().flush();
  auto start = std::chrono::steady_clock::now();
  for (unsigned i = 0; i < std::max(run.repeat, 1u); ++i)
    if (call())
      return 1;
  double runSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (run.benchmark > 0) {
    std::vector<double> times;
    for (unsigned i = 0; i < run.benchmark; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      if (call())
        return 1;
      times.push_back(std::chrono::duration<double, std::micro>(
                          std::chrono::steady_clock::now() - t0)
                          .count());
    }
    std::sort(times.begin(), times.end());
    size_t n = times.size();
    double median =
        n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
    llvm::outs() << llvm::format(
        "benchmark: %u runs, median %.3f us, min %.3f us (wall clock)\n",
        run.benchmark, median, times.front());
  }

  if (std::error_code ec = llvm::sys::fs::create_directories(run.outputDir))
    return fail(file, "cannot create '" + run.outputDir +
                          "': " + ec.message());
  std::string written;
  for (auto [i, t] : llvm::enumerate(outs)) {
    if (t->device && !t->host.empty() &&
        tsmlirCudaMemcpyDtoH(t->host.data(), t->device, t->host.size(),
                             nullptr) != TSMLIR_CUDA_SUCCESS)
      return fail(file, tsmlirCudaGetLastError());
    llvm::SmallString<128> path(run.outputDir);
    llvm::sys::path::append(path, "out" + std::to_string(i) + ".npy");
    std::optional<Dtype> dtype = getDtypeForAbiCode(t->tensor.dtype);
    if (!dtype)
      return fail(file, "output " + Twine(i) + " has the unknown dtype " +
                            Twine(t->tensor.dtype));
    StringRef descr = getDtypeInfo(*dtype).npyDescr;
    if (llvm::Error error =
            writeNpy(path, descr, t->sizes, t->host.data(), t->host.size()))
      return fail(file, llvm::toString(std::move(error)));
    written +=
        (i ? ", " : "") + (descr.drop_front().str() + shapeText(t->sizes));
  }
  llvm::outs() << "tsmlir-run: " << file << ": " << sig->name << " ("
               << (cuda ? "cuda " : "") << sig->target << "), "
               << numInputs << " input" << (numInputs == 1 ? "" : "s")
               << ", " << outs.size() << " output"
               << (outs.size() == 1 ? "" : "s") << " (" << written << ")"
               << llvm::format("; ran in %.3f ms", runSeconds * 1e3)
               << "; wrote " << run.outputDir << "/out*.npy\n";
  return 0;
}
