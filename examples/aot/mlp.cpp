//===- mlp.cpp - Calling a compiled model from C++ ------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   mlp IN0.npy ... OUTDIR
//
// Runs the model that `tsmlir-compile ... --name mlp --emit-header mlp.h`
// compiled (see README.md), with its parameters embedded. Nothing here is
// specific to that model: the program reads as many .npy files as the
// signature has inputs, checks them against the signature itself, allocates
// the outputs the signature describes, calls mlp_main, prints each output's
// shape and first values and writes OUTDIR/outN.npy.
//
//===----------------------------------------------------------------------===//

#include "mlp.h"

#include "npy.h"

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr int64_t kShown = 5;

// A tensor read from a .npy file, freed with it.
class NpyTensor {
public:
  NpyTensor() = default;
  NpyTensor(const NpyTensor &) = delete;
  NpyTensor &operator=(const NpyTensor &) = delete;
  NpyTensor(NpyTensor &&other) noexcept : tensor_(other.tensor_) {
    other.tensor_ = tsmlir_tensor{};
  }
  NpyTensor &operator=(NpyTensor &&) = delete;
  ~NpyTensor() { npy_free(&tensor_); }

  // Reads `path`; false with a message in `error` when it fails.
  bool read(const std::string &path, std::string &error) {
    char message[512];
    npy_free(&tensor_);
    if (npy_read(path.c_str(), &tensor_, message, sizeof(message)) == 0)
      return true;
    error = message;
    return false;
  }

  const tsmlir_tensor &get() const { return tensor_; }

private:
  tsmlir_tensor tensor_{};
};

// An output: memory for the sizes the signature gives.
struct Output {
  std::vector<std::max_align_t> storage; // aligned for every dtype
  tsmlir_tensor tensor{};
};

// "float32[64, 128]"; "dtype 42[...]" for a dtype the runtime does not know.
std::string typeString(int32_t dtype, int32_t rank, const int64_t *sizes) {
  const char *name = tsmlir_dtype_name(dtype);
  std::string text = name ? name : "dtype " + std::to_string(dtype) + " ";
  text += "[";
  for (int32_t d = 0; d < rank; ++d)
    text += (d ? ", " : "") + std::to_string(sizes[d]);
  return text + "]";
}

// "input 0 ('x')".
std::string describeInput(const tsmlir_value_info &info, int index) {
  std::string text = "input " + std::to_string(index);
  if (info.name && info.name[0])
    text += std::string(" ('") + info.name + "')";
  return text;
}

// What is wrong with a tensor as the input `info` describes, or "".
std::string checkInput(const tsmlir_value_info &info, const tsmlir_tensor &t) {
  bool same = t.dtype == info.dtype && t.rank == info.rank;
  for (int32_t d = 0; same && d < t.rank; ++d)
    same = t.sizes[d] == info.sizes[d];
  if (same)
    return "";
  return "expected " + typeString(info.dtype, info.rank, info.sizes) +
         ", got " + typeString(t.dtype, t.rank, t.sizes);
}

std::vector<Output> allocateOutputs(const tsmlir_signature &signature) {
  std::vector<Output> outputs(static_cast<size_t>(signature.num_outputs));
  for (size_t i = 0; i < outputs.size(); ++i) {
    const tsmlir_value_info &info = signature.outputs[i];
    size_t bytes = static_cast<size_t>(tsmlir_numel(info.rank, info.sizes)) *
                   tsmlir_dtype_size(info.dtype);
    Output &out = outputs[i];
    out.storage.resize(
        (bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t) + 1);
    out.tensor = tsmlir_tensor{out.storage.data(), info.dtype, info.rank,
                               info.sizes, nullptr};
  }
  return outputs;
}

void printTensor(const std::string &label, const tsmlir_tensor &t) {
  int64_t numel = tsmlir_numel(t.rank, t.sizes);
  std::printf("%s: %s =", label.c_str(),
              typeString(t.dtype, t.rank, t.sizes).c_str());
  for (int64_t i = 0; i < numel && i < kShown; ++i)
    std::printf(" %g", npy_element(&t, i));
  std::printf("%s\n", numel > kShown ? " ..." : "");
}

void printUsage(const char *program, const tsmlir_signature &signature) {
  std::fprintf(stderr, "usage: %s", program);
  for (int32_t i = 0; i < signature.num_inputs; ++i)
    std::fprintf(stderr, " IN%d.npy", i);
  std::fprintf(stderr, " OUTDIR\n%s takes %d input(s):\n", signature.name,
               signature.num_inputs);
  for (int32_t i = 0; i < signature.num_inputs; ++i) {
    const tsmlir_value_info &info = signature.inputs[i];
    std::fprintf(stderr, "  %s: %s\n", describeInput(info, i).c_str(),
                 typeString(info.dtype, info.rank, info.sizes).c_str());
  }
}

} // namespace

int main(int argc, char **argv) {
  const tsmlir_signature &signature = *mlp_main_signature();
  int numInputs = signature.num_inputs;
  if (argc != numInputs + 2) {
    printUsage(argv[0], signature);
    return 2;
  }

  std::vector<NpyTensor> files(static_cast<size_t>(numInputs));
  std::vector<tsmlir_tensor> inputs;
  for (int i = 0; i < numInputs; ++i) {
    std::string error;
    if (!files[i].read(argv[1 + i], error)) {
      std::fprintf(stderr, "mlp: %s\n", error.c_str());
      return 1;
    }
    std::string wrong = checkInput(signature.inputs[i], files[i].get());
    if (!wrong.empty()) {
      std::fprintf(stderr, "mlp: %s: %s: %s\n", argv[1 + i],
                   describeInput(signature.inputs[i], i).c_str(),
                   wrong.c_str());
      return 1;
    }
    inputs.push_back(files[i].get());
  }

  std::vector<Output> outputs = allocateOutputs(signature);
  std::vector<tsmlir_tensor> outputTensors;
  for (const Output &out : outputs)
    outputTensors.push_back(out.tensor);

  tsmlir_status status =
      mlp_main(inputs.data(), numInputs, outputTensors.data(),
               static_cast<int64_t>(outputTensors.size()));
  if (status != TSMLIR_OK) {
    std::fprintf(stderr, "mlp: %s: %s\n", tsmlir_status_name(status),
                 tsmlir_last_error());
    return 1;
  }

  std::string directory = argv[argc - 1];
  for (size_t i = 0; i < outputTensors.size(); ++i) {
    std::string name = "out" + std::to_string(i);
    printTensor(name, outputTensors[i]);
    std::string path = directory + "/" + name + ".npy";
    char error[512];
    if (npy_write(path.c_str(), &outputTensors[i], error, sizeof(error)) != 0) {
      std::fprintf(stderr, "mlp: %s\n", error);
      return 1;
    }
  }
  return 0;
}
