//===- SharedModel.cpp - Call a shared object through the C ABI -----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "SharedModel.h"

#include "tsmlir/Runtime/Abi.h"
#include "tsmlir/Support/Npy.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include <cstring>
#include <dlfcn.h>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::jit;

llvm::Expected<std::unique_ptr<SharedModel>> SharedModel::open(StringRef path) {
  llvm::SmallString<256> absolute(path);
  llvm::sys::fs::make_absolute(absolute);
  void *handle = dlopen(absolute.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return llvm::createStringError(Twine("cannot open: ") + dlerror());
  std::unique_ptr<SharedModel> model(new SharedModel);
  model->handle = handle;
  auto *models = reinterpret_cast<const tsmlir_signature *const *>(
      dlsym(handle, "tsmlir_shared_model"));
  model->lastError =
      reinterpret_cast<const char *(*)()>(dlsym(handle, "tsmlir_last_error"));
  model->statusName = reinterpret_cast<const char *(*)(int32_t)>(
      dlsym(handle, "tsmlir_status_name"));
  if (!models || !models[0] || models[1] || !model->lastError ||
      !model->statusName)
    return llvm::createStringError("not a shared object of one model");
  model->signature = models[0];
  if (model->signature->abi_version != TSMLIR_ABI_VERSION ||
      model->signature->device != TSMLIR_DEVICE_CPU)
    return llvm::createStringError("compiled for another ABI or device");
  return model;
}

SharedModel::~SharedModel() {
  if (handle)
    dlclose(handle);
}

LogicalResult SharedModel::call(ArrayRef<RunValue> inputs,
                                SmallVectorImpl<HostTensor> &outputs,
                                std::string &error) {
  const tsmlir_signature &sig = *signature;
  if (inputs.size() != static_cast<size_t>(sig.num_graph_arguments)) {
    error = "the model takes " + std::to_string(sig.num_graph_arguments) +
            " arguments";
    return failure();
  }
  // The inputs at their positions among the graph's arguments; numbers
  // (floats passed at run time) as 0-d doubles.
  SmallVector<tsmlir_tensor> ins(sig.num_inputs);
  SmallVector<double> numbers(sig.num_inputs);
  for (int32_t i = 0; i < sig.num_inputs; ++i) {
    const tsmlir_value_info &info = sig.inputs[i];
    const RunValue &value = inputs[info.position];
    tsmlir_tensor &t = ins[i];
    if (value.kind == RunValue::Kind::Tensor) {
      t.data = const_cast<uint8_t *>(value.tensor.data.data());
      std::optional<Dtype> dtype =
          getDtypeForNpyDescr(value.tensor.header.descr);
      t.dtype = dtype ? getDtypeInfo(*dtype).abiCode : 0;
      t.rank = value.tensor.shape().size();
      t.sizes = value.tensor.shape().data();
    } else if (value.kind == RunValue::Kind::Float ||
               value.kind == RunValue::Kind::Int) {
      numbers[i] = value.kind == RunValue::Kind::Float
                       ? value.floatValue
                       : static_cast<double>(value.intValue);
      t.data = &numbers[i];
      t.dtype = TSMLIR_FLOAT64;
    } else {
      error = std::string("input '") + info.name +
              "' is not a tensor or a "
              "number";
      return failure();
    }
  }
  outputs.clear();
  SmallVector<tsmlir_tensor> outs(sig.num_outputs);
  for (int32_t i = 0; i < sig.num_outputs; ++i) {
    const tsmlir_value_info &info = sig.outputs[i];
    std::optional<Dtype> dtype = getDtypeForAbiCode(info.dtype);
    if (!dtype) {
      error = std::string("output '") + info.name + "' has the unknown dtype " +
              std::to_string(info.dtype);
      return failure();
    }
    HostTensor &out = outputs.emplace_back();
    out.dtype = *dtype;
    out.shape.assign(info.sizes, info.sizes + info.rank);
    int64_t count = 1;
    for (int64_t size : out.shape)
      count *= size;
    out.data.resize(count * getDtypeInfo(*dtype).byteSize);
  }
  for (int32_t i = 0; i < sig.num_outputs; ++i)
    outs[i] = {outputs[i].data.data(), sig.outputs[i].dtype,
               sig.outputs[i].rank, outputs[i].shape.data(), nullptr};
  tsmlir_status status =
      sig.entry(ins.data(), ins.size(), outs.data(), outs.size());
  if (status != TSMLIR_OK) {
    error = std::string(statusName(status)) + ": " + lastError();
    return failure();
  }
  return success();
}
