//===- Outputs.cpp - Write a graph's outputs as .npy files ----------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Outputs.h"

#include "tsmlir/Support/Safetensors.h"

#include "tsmlir/Support/Npy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::tsmlir;

static std::string shapeString(const HostTensor &t) {
  std::string s = "[";
  for (size_t i = 0; i < t.shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(t.shape[i]);
  return s + "]";
}

llvm::Expected<std::string>
mlir::tsmlir::writeOutputs(StringRef dir, ArrayRef<HostTensor> outputs,
                           ArrayRef<unsigned> none) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError("cannot create '" + dir.str() +
                                   "': " + ec.message());
  std::string written;
  unsigned position = 0;
  for (auto [i, t] : llvm::enumerate(outputs)) {
    while (llvm::is_contained(none, position))
      ++position;
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, "out" + std::to_string(position++) + ".npy");
    StringRef descr = getDtypeInfo(t.dtype).npyDescr;
    if (llvm::Error error =
            writeNpy(path, descr, t.shape, t.data.data(), t.data.size()))
      return std::move(error);
    written += (i ? ", " : "") + (descr.drop_front().str() + shapeString(t));
  }
  // Outputs that are always None have no .npy form: the summary names them.
  if (!none.empty()) {
    written += "; output";
    written += none.size() == 1 ? " " : "s ";
    for (auto [i, p] : llvm::enumerate(none))
      written += (i ? ", " : "") + std::to_string(p);
    written += none.size() == 1 ? " is None" : " are None";
  }
  return written;
}

llvm::Error mlir::tsmlir::writeGradients(StringRef dir,
                                         ArrayRef<HostTensor> gradients,
                                         ArrayRef<unsigned> inputNumbers) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError("cannot create '" + dir.str() +
                                   "': " + ec.message());
  for (auto [t, number] : llvm::zip_equal(gradients, inputNumbers)) {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path,
                            "grad_in" + std::to_string(number) + ".npy");
    if (llvm::Error error = writeNpy(path, getDtypeInfo(t.dtype).npyDescr,
                                     t.shape, t.data.data(), t.data.size()))
      return error;
  }
  return llvm::Error::success();
}

llvm::Error
mlir::tsmlir::writeParameterGradients(StringRef dir,
                                      ArrayRef<HostTensor> gradients,
                                      ArrayRef<std::string> names) {
  std::vector<SafetensorsTensor> tensors;
  for (auto [t, name] : llvm::zip_equal(gradients, names)) {
    SafetensorsTensor &tensor = tensors.emplace_back();
    tensor.name = name;
    tensor.dtype = getDtypeInfo(t.dtype).safetensorsName.str();
    tensor.shape.assign(t.shape.begin(), t.shape.end());
    tensor.data =
        ArrayRef(reinterpret_cast<const char *>(t.data.data()), t.data.size());
  }
  llvm::SmallString<128> path(dir);
  llvm::sys::path::append(path, "grad_params.safetensors");
  return writeSafetensors(path, tensors);
}
