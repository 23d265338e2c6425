//===- CachingAllocator.cpp - Device memory kept for reuse ----------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CachingAllocator.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace tsmlir::cuda {

namespace {
constexpr size_t kSmallQuantum = 512;
constexpr size_t kLargeThreshold = size_t(1) << 20;
constexpr size_t kLargeQuantum = size_t(2) << 20;
} // namespace

CachingAllocator::CachingAllocator() {
  const char *value = std::getenv("TSMLIR_CUDA_NO_CACHE");
  cachingDisabled = value && *value && std::strcmp(value, "0") != 0;
}

size_t CachingAllocator::roundSize(size_t bytes) {
  if (bytes == 0)
    return kSmallQuantum;
  size_t quantum = bytes <= kLargeThreshold ? kSmallQuantum : kLargeQuantum;
  if (bytes > SIZE_MAX - quantum)
    return 0;
  return (bytes + quantum - 1) / quantum * quantum;
}

int CachingAllocator::allocate(const Device &dev, void **ptr, size_t bytes,
                               CUstream stream) {
  if (!ptr)
    return setError(TSMLIR_CUDA_ERROR_INVALID_VALUE,
                    "tsmlirCudaMalloc: the result pointer is NULL");
  *ptr = nullptr;
  size_t size = roundSize(bytes);
  if (size == 0)
    return setError(TSMLIR_CUDA_ERROR_OUT_OF_MEMORY,
                    "out of memory: " + std::to_string(bytes) +
                        " bytes cannot be allocated");

  std::lock_guard<std::mutex> lock(mutex);
  CUdeviceptr dptr = 0;
  size_t blockSize = size;
  if (int code = takeCachedLocked(dev, size, stream, dptr, blockSize))
    return code;
  if (dptr) {
    ++counters.cacheHits;
  } else if (int code = driverAllocateLocked(dev, size, dptr)) {
    return code;
  }
  noteAllocatedLocked(dptr, blockSize, /*managed=*/false);
  *ptr = toPointer(dptr);
  return TSMLIR_CUDA_SUCCESS;
}

int CachingAllocator::allocateManaged(const Device &dev, void **ptr,
                                      size_t bytes) {
  *ptr = nullptr;
  if (!dev.api->cuMemAllocManaged)
    return setError(TSMLIR_CUDA_ERROR_NOT_SUPPORTED,
                    "host-shared memory needs cuMemAllocManaged, which the "
                    "CUDA driver does not export");
  size_t size = bytes ? bytes : 1;
  std::lock_guard<std::mutex> lock(mutex);
  CUdeviceptr dptr = 0;
  CUresult result =
      dev.api->cuMemAllocManaged(&dptr, size, CU_MEM_ATTACH_GLOBAL);
  if (result == CUDA_ERROR_OUT_OF_MEMORY)
    return setError(TSMLIR_CUDA_ERROR_OUT_OF_MEMORY,
                    "out of memory allocating " + std::to_string(bytes) +
                        " bytes of managed memory");
  if (int code = checkDriver(dev, result, "cuMemAllocManaged"))
    return code;
  ++counters.driverAllocations;
  noteAllocatedLocked(dptr, size, /*managed=*/true);
  *ptr = toPointer(dptr);
  return TSMLIR_CUDA_SUCCESS;
}

int CachingAllocator::free(const Device &dev, void *ptr, CUstream stream) {
  if (!ptr)
    return TSMLIR_CUDA_SUCCESS;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = live.find(toDevicePtr(ptr));
  if (it == live.end())
    return setError(TSMLIR_CUDA_ERROR_INVALID_VALUE,
                    "tsmlirCudaFree: the pointer was not allocated by the "
                    "runtime or was freed already");
  LiveBlock block = it->second;
  live.erase(it);
  counters.bytesInUse -= block.size;
  --counters.blocksInUse;

  const DriverApi &api = *dev.api;
  CUevent ready = nullptr;
  int code = TSMLIR_CUDA_SUCCESS;
  if (!block.managed && !cachingDisabled) {
    code = takeSyncEvent(dev, ready);
    if (!code) {
      code =
          checkDriver(dev, api.cuEventRecord(ready, stream), "cuEventRecord");
      if (!code) {
        cached.emplace(block.size,
                       CachedBlock{toDevicePtr(ptr), stream, ready});
        counters.bytesCached += block.size;
        ++counters.blocksCached;
        return TSMLIR_CUDA_SUCCESS;
      }
      returnSyncEvent(ready);
    }
  }
  // Back to the driver once the work queued on `stream` is done.
  int syncCode =
      checkDriver(dev, api.cuStreamSynchronize(stream), "cuStreamSynchronize");
  int freeCode =
      checkDriver(dev, api.cuMemFree(toDevicePtr(ptr)), "cuMemFree_v2");
  ++counters.driverFrees;
  return code ? code : syncCode ? syncCode : freeCode;
}

int CachingAllocator::emptyCache(const Device &dev) {
  std::lock_guard<std::mutex> lock(mutex);
  return releaseCacheLocked(dev);
}

TsmlirCudaMemoryStats CachingAllocator::stats() {
  std::lock_guard<std::mutex> lock(mutex);
  return counters;
}

int CachingAllocator::releaseCacheLocked(const Device &dev) {
  const DriverApi &api = *dev.api;
  int code = TSMLIR_CUDA_SUCCESS;
  for (auto &entry : cached) {
    CachedBlock &block = entry.second;
    if (block.ready) {
      int syncCode = checkDriver(dev, api.cuEventSynchronize(block.ready),
                                 "cuEventSynchronize");
      code = code ? code : syncCode;
      returnSyncEvent(block.ready);
    }
    int freeCode = checkDriver(dev, api.cuMemFree(block.ptr), "cuMemFree_v2");
    code = code ? code : freeCode;
    ++counters.driverFrees;
  }
  cached.clear();
  counters.bytesCached = 0;
  counters.blocksCached = 0;
  return code;
}

int CachingAllocator::takeCachedLocked(const Device &dev, size_t size,
                                       CUstream stream, CUdeviceptr &ptr,
                                       size_t &blockSize) {
  auto first = cached.lower_bound(size);
  if (first == cached.end() || first->first > size + size / 4)
    return TSMLIR_CUDA_SUCCESS;
  // Among the blocks of that size, one freed on `stream` needs no wait.
  auto chosen = first;
  for (auto it = first; it != cached.end() && it->first == first->first; ++it) {
    if (it->second.stream == stream) {
      chosen = it;
      break;
    }
  }
  CachedBlock block = chosen->second;
  if (block.ready && block.stream != stream) {
    if (int code =
            checkDriver(dev, dev.api->cuStreamWaitEvent(stream, block.ready, 0),
                        "cuStreamWaitEvent"))
      return code;
  }
  blockSize = chosen->first;
  cached.erase(chosen);
  counters.bytesCached -= blockSize;
  --counters.blocksCached;
  // A wait queued on the event is unaffected by the event's later reuse.
  if (block.ready)
    returnSyncEvent(block.ready);
  ptr = block.ptr;
  return TSMLIR_CUDA_SUCCESS;
}

int CachingAllocator::driverAllocateLocked(const Device &dev, size_t size,
                                           CUdeviceptr &ptr) {
  const DriverApi &api = *dev.api;
  CUresult result = api.cuMemAlloc(&ptr, size);
  if (result == CUDA_ERROR_OUT_OF_MEMORY && !cached.empty()) {
    ++counters.outOfMemoryRetries;
    if (int code = releaseCacheLocked(dev))
      return code;
    result = api.cuMemAlloc(&ptr, size);
  }
  if (result == CUDA_ERROR_OUT_OF_MEMORY)
    return setError(TSMLIR_CUDA_ERROR_OUT_OF_MEMORY,
                    "out of memory allocating " + std::to_string(size) +
                        " bytes on device " + std::to_string(dev.ordinal) +
                        " (" + std::to_string(counters.bytesInUse) +
                        " bytes in use)");
  if (int code = checkDriver(dev, result, "cuMemAlloc_v2"))
    return code;
  ++counters.driverAllocations;
  return TSMLIR_CUDA_SUCCESS;
}

void CachingAllocator::noteAllocatedLocked(CUdeviceptr ptr, size_t size,
                                           bool managed) {
  live[ptr] = LiveBlock{size, managed};
  counters.bytesInUse += size;
  if (counters.bytesInUse > counters.peakBytesInUse)
    counters.peakBytesInUse = counters.bytesInUse;
  ++counters.blocksInUse;
  ++counters.allocations;
}

} // namespace tsmlir::cuda
