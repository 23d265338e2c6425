//===- ModuleCache.cpp - Loaded modules, shared by content ----------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ModuleCache.h"

#include <algorithm>
#include <cstring>

namespace tsmlir::cuda {

namespace {
/// FNV-1a over the image, its kind and its optimisation level.
uint64_t hashImage(const std::string &image, bool ptx, int optLevel) {
  uint64_t hash = 0xcbf29ce484222325ull;
  auto mix = [&hash](unsigned char byte) {
    hash ^= byte;
    hash *= 0x100000001b3ull;
  };
  for (char c : image)
    mix(static_cast<unsigned char>(c));
  mix(ptx ? 1 : 0);
  mix(static_cast<unsigned char>(optLevel));
  return hash;
}

/// The JIT log without its trailing blank lines.
std::string trimmedLog(const char *log, size_t capacity) {
  std::string text(log, strnlen(log, capacity));
  while (!text.empty() &&
         (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
    text.pop_back();
  return text;
}
} // namespace

int ModuleCache::load(const Device &dev, void **module, const void *image,
                      size_t size, int optLevel) {
  if (!module)
    return setError(TSMLIR_CUDA_ERROR_INVALID_VALUE,
                    "tsmlirCudaModuleLoad: the result pointer is NULL");
  *module = nullptr;
  if (!image)
    return setError(TSMLIR_CUDA_ERROR_INVALID_VALUE,
                    "tsmlirCudaModuleLoad: the module image is NULL");
  bool ptx = size == 0;
  optLevel = ptx ? std::min(optLevel, 4) : -1;
  auto entry = std::make_unique<Entry>();
  entry->image = ptx ? std::string(static_cast<const char *>(image))
                     : std::string(static_cast<const char *>(image), size);
  entry->ptx = ptx;
  entry->optLevel = optLevel;
  uint64_t hash = hashImage(entry->image, ptx, optLevel);

  std::lock_guard<std::mutex> lock(mutex);
  auto [first, last] = byHash.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    Entry &loaded = *it->second;
    if (loaded.ptx == ptx && loaded.optLevel == optLevel &&
        loaded.image == entry->image) {
      ++loaded.references;
      *module = loaded.module;
      return TSMLIR_CUDA_SUCCESS;
    }
  }
  if (int code = loadIntoDriver(dev, *entry))
    return code;
  entry->references = 1;
  CUmodule loaded = entry->module;
  byHash.emplace(hash, entry.get());
  byModule.emplace(loaded, std::make_pair(hash, std::move(entry)));
  *module = loaded;
  return TSMLIR_CUDA_SUCCESS;
}

int ModuleCache::loadIntoDriver(const Device &dev, Entry &entry) {
  char errorLog[8192] = {};
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {
      errorLog, reinterpret_cast<void *>(uintptr_t(sizeof(errorLog))),
      reinterpret_cast<void *>(uintptr_t(std::max(entry.optLevel, 0)))};
  unsigned numOptions = entry.ptx && entry.optLevel >= 0 ? 3 : 2;
  CUresult result = dev.api->cuModuleLoadDataEx(
      &entry.module, entry.image.c_str(), numOptions, options, values);
  if (result == CUDA_SUCCESS)
    return TSMLIR_CUDA_SUCCESS;

  std::string message = entry.ptx ? "PTX JIT compilation failed ("
                                  : "loading the module image failed (";
  message += driverMessage(dev, "cuModuleLoadDataEx", result) + ")";
  std::string log = trimmedLog(errorLog, sizeof(errorLog));
  if (!log.empty())
    message += ":\n" + log;
  return setError(result == CUDA_ERROR_OUT_OF_MEMORY
                      ? TSMLIR_CUDA_ERROR_OUT_OF_MEMORY
                      : TSMLIR_CUDA_ERROR_MODULE_LOAD,
                  message);
}

int ModuleCache::unload(const Device &dev, void *module) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = byModule.find(static_cast<CUmodule>(module));
  if (!module || it == byModule.end())
    return setError(TSMLIR_CUDA_ERROR_INVALID_VALUE,
                    "tsmlirCudaModuleUnload: the module was not loaded by the "
                    "runtime or was unloaded already");
  auto &[hash, entry] = it->second;
  if (--entry->references > 0)
    return TSMLIR_CUDA_SUCCESS;
  auto [first, last] = byHash.equal_range(hash);
  for (auto h = first; h != last; ++h) {
    if (h->second == entry.get()) {
      byHash.erase(h);
      break;
    }
  }
  CUresult result = dev.api->cuModuleUnload(entry->module);
  byModule.erase(it);
  // At exit the driver may be torn down before the global destructors of
  // compiled code unload their modules: nothing is left to unload then.
  if (result == CUDA_ERROR_DEINITIALIZED)
    return TSMLIR_CUDA_SUCCESS;
  return checkDriver(dev, result, "cuModuleUnload");
}

int ModuleCache::getFunction(const Device &dev, void **function, void *module,
                             const char *name) {
  if (!function || !name)
    return setError(TSMLIR_CUDA_ERROR_INVALID_VALUE,
                    "tsmlirCudaModuleGetFunction: a NULL argument");
  *function = nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = byModule.find(static_cast<CUmodule>(module));
  if (!module || it == byModule.end())
    return setError(TSMLIR_CUDA_ERROR_INVALID_VALUE,
                    std::string("tsmlirCudaModuleGetFunction: looking up '") +
                        name + "' in a module not loaded by the runtime");
  Entry &entry = *it->second.second;
  auto known = entry.functions.find(name);
  if (known != entry.functions.end()) {
    *function = known->second;
    return TSMLIR_CUDA_SUCCESS;
  }
  CUfunction found = nullptr;
  CUresult result = dev.api->cuModuleGetFunction(&found, entry.module, name);
  if (result == CUDA_ERROR_NOT_FOUND)
    return setError(
        TSMLIR_CUDA_ERROR_NOT_FOUND,
        std::string("no kernel named '") + name + "' in the module (" +
            driverMessage(dev, "cuModuleGetFunction", result) + ")");
  if (int code = checkDriver(dev, result, "cuModuleGetFunction"))
    return code;
  entry.functions.emplace(name, found);
  *function = found;
  return TSMLIR_CUDA_SUCCESS;
}

} // namespace tsmlir::cuda
