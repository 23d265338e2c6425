//===- ModuleCache.h - Loaded modules, shared by content --------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Modules are cached by the content of their image: a load hashes the bytes
// (FNV-1a), and an image equal byte for byte to a loaded one (of the same
// kind and JIT optimisation level) returns that module with one more
// reference. Unloading drops a reference; the last one unloads the module.
// Function handles are looked up once per module and name.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_RUNTIME_MODULECACHE_H
#define TSMLIR_RUNTIME_MODULECACHE_H

#include "Internal.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace tsmlir::cuda {

class ModuleCache {
public:
  /// Loads `size` bytes of cubin/fatbin, or NUL-terminated PTX when `size`
  /// is 0 (JIT at `optLevel`, or the driver's default when it is negative).
  int load(const Device &dev, void **module, const void *image, size_t size,
           int optLevel);
  int unload(const Device &dev, void *module);
  int getFunction(const Device &dev, void **function, void *module,
                  const char *name);

private:
  struct Entry {
    std::string image;
    bool ptx;
    int optLevel;
    CUmodule module = nullptr;
    unsigned references = 0;
    std::map<std::string, CUfunction, std::less<>> functions;
  };

  int loadIntoDriver(const Device &dev, Entry &entry);

  std::mutex mutex;
  std::unordered_multimap<uint64_t, Entry *> byHash;
  std::unordered_map<CUmodule, std::pair<uint64_t, std::unique_ptr<Entry>>>
      byModule;
};

} // namespace tsmlir::cuda

#endif // TSMLIR_RUNTIME_MODULECACHE_H
