//===- CachingAllocator.h - Device memory kept for reuse --------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A caching allocator of device memory. Requests are rounded up to a block
// size: a multiple of 512 bytes up to 1 MiB, a multiple of 2 MiB above. Freed
// blocks are kept in free lists by size; an allocation takes the smallest
// cached block at least as large as its rounded size and at most a quarter
// larger, else asks the driver. A block freed on a stream carries an event
// recorded there at the free; an allocation on another stream that reuses it
// makes its stream wait for that event first. When the driver is out of
// memory, the cache is given back and the allocation tried once more.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_RUNTIME_CACHINGALLOCATOR_H
#define TSMLIR_RUNTIME_CACHINGALLOCATOR_H

#include "Internal.h"

#include <map>
#include <mutex>
#include <unordered_map>

namespace tsmlir::cuda {

class CachingAllocator {
public:
  CachingAllocator();

  /// The block size of a request of `bytes`.
  static size_t roundSize(size_t bytes);

  int allocate(const Device &dev, void **ptr, size_t bytes, CUstream stream);
  /// Managed memory (cuMemAllocManaged), never cached.
  int allocateManaged(const Device &dev, void **ptr, size_t bytes);
  int free(const Device &dev, void *ptr, CUstream stream);
  int emptyCache(const Device &dev);
  TsmlirCudaMemoryStats stats();

private:
  struct CachedBlock {
    CUdeviceptr ptr;
    CUstream stream; ///< the stream it was freed on
    CUevent ready;   ///< recorded on `stream` at the free
  };
  struct LiveBlock {
    size_t size;
    bool managed;
  };

  /// Gives every cached block back to the driver, after its event.
  int releaseCacheLocked(const Device &dev);
  /// Takes a cached block of at least `size` bytes for `stream` into `ptr`
  /// and `blockSize`; leaves `ptr` 0 when none fits.
  int takeCachedLocked(const Device &dev, size_t size, CUstream stream,
                       CUdeviceptr &ptr, size_t &blockSize);
  int driverAllocateLocked(const Device &dev, size_t size, CUdeviceptr &ptr);
  void noteAllocatedLocked(CUdeviceptr ptr, size_t size, bool managed);

  std::mutex mutex;
  std::multimap<size_t, CachedBlock> cached;
  std::unordered_map<CUdeviceptr, LiveBlock> live;
  TsmlirCudaMemoryStats counters = {};
  bool cachingDisabled;
};

} // namespace tsmlir::cuda

#endif // TSMLIR_RUNTIME_CACHINGALLOCATOR_H
