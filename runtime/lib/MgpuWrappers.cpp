//===- MgpuWrappers.cpp - The mgpu* ABI of MLIR's GPU host code -----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The functions MLIR's gpu-to-llvm lowering and #gpu.select_object
// translation (LLVM 22) call, over the tsmlirCuda* API. They return nothing or
// a handle, so a failure is reported on stderr and kept as the sticky error
// for the caller of the compiled code to take with tsmlirCudaGetStickyError.
//
//===----------------------------------------------------------------------===//

#include "CachingAllocator.h"
#include "Internal.h"
#include "ModuleCache.h"

#include <atomic>
#include <climits>
#include <cstdio>
#include <cstring>
#include <mutex>

using namespace tsmlir::cuda;

namespace {
/// The first failure since the sticky error was last taken, and what
/// happened after it.
struct StickyError {
  std::mutex mutex;
  int code = TSMLIR_CUDA_SUCCESS;
  std::string message;
  uint64_t laterFailures = 0;
  uint64_t skippedLaunches = 0;
};

StickyError &sticky() {
  static StickyError *instance = new StickyError();
  return *instance;
}

std::atomic<bool> stickyPending{false};

/// The stream this thread's compiled calls run on when their caller named
/// one (tsmlirCudaBeginCallerStream), and whether a copy was queued on it
/// since the host last waited for it: only such a copy (a device value the
/// host reads) makes the compiled code's waits wait.
struct CallerStream {
  bool active = false;
  void *stream = nullptr;
  bool copyPending = false;
};
thread_local CallerStream callerStream;

bool isCallerStream(void *stream) {
  return callerStream.active && stream == callerStream.stream;
}

/// Records the failure of an mgpu* call whose code is `code` (the message is
/// this thread's last error). The first one is printed and kept.
void report(int code) {
  if (code == TSMLIR_CUDA_SUCCESS)
    return;
  StickyError &s = sticky();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.code != TSMLIR_CUDA_SUCCESS) {
    ++s.laterFailures;
    return;
  }
  s.code = code;
  s.message = tsmlirCudaGetLastError();
  stickyPending.store(true);
  std::fprintf(stderr, "tsmlir-cuda-runtime: %s\n", s.message.c_str());
  std::fflush(stderr);
}

void noteSkippedLaunch() {
  StickyError &s = sticky();
  std::lock_guard<std::mutex> lock(s.mutex);
  ++s.skippedLaunches;
}

/// An intptr_t launch dimension as cuLaunchKernel's unsigned, if it fits.
bool launchDimension(intptr_t value, unsigned &out) {
  if (value < 1 || static_cast<uintmax_t>(value) > UINT_MAX)
    return false;
  out = static_cast<unsigned>(value);
  return true;
}

/// The address and extent in bytes of a ranked memref's data, from its
/// descriptor {allocated, aligned, offset, sizes[rank], strides[rank]}.
void memrefData(int64_t rank, void *descriptor, int64_t elementSize,
                char *&data, uint64_t &bytes) {
  auto *base = static_cast<char *>(descriptor);
  char *aligned;
  int64_t offset;
  std::memcpy(&aligned, base + sizeof(void *), sizeof(aligned));
  std::memcpy(&offset, base + 2 * sizeof(void *), sizeof(offset));
  auto *sizes =
      reinterpret_cast<int64_t *>(base + 2 * sizeof(void *) + sizeof(int64_t));
  int64_t *strides = sizes + rank;
  int64_t lastElement = 0;
  bytes = elementSize;
  for (int64_t i = 0; i < rank; ++i) {
    if (sizes[i] == 0)
      bytes = 0;
    lastElement += (sizes[i] - 1) * strides[i];
  }
  data = aligned + offset * elementSize;
  if (bytes)
    bytes = static_cast<uint64_t>(lastElement + 1) * elementSize;
}

int hostRegister(void *ptr, uint64_t bytes) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev)
    return code;
  if (!dev->api->cuMemHostRegister)
    return setError(TSMLIR_CUDA_ERROR_NOT_SUPPORTED,
                    "the CUDA driver does not export cuMemHostRegister_v2");
  if (!ptr || bytes == 0)
    return TSMLIR_CUDA_SUCCESS;
  return checkDriver(*dev, dev->api->cuMemHostRegister(ptr, bytes, 0),
                     "cuMemHostRegister_v2");
}

int hostUnregister(void *ptr) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev)
    return code;
  if (!dev->api->cuMemHostUnregister)
    return setError(TSMLIR_CUDA_ERROR_NOT_SUPPORTED,
                    "the CUDA driver does not export cuMemHostUnregister");
  if (!ptr)
    return TSMLIR_CUDA_SUCCESS;
  return checkDriver(*dev, dev->api->cuMemHostUnregister(ptr),
                     "cuMemHostUnregister");
}
} // namespace

extern "C" {

int tsmlirCudaGetStickyError(char *buf, size_t size) {
  StickyError &s = sticky();
  std::lock_guard<std::mutex> lock(s.mutex);
  int code = s.code;
  std::string message = s.message;
  if (s.laterFailures)
    message += " (and " + std::to_string(s.laterFailures) + " later failure" +
               (s.laterFailures == 1 ? "" : "s") + ")";
  if (s.skippedLaunches)
    message += " (" + std::to_string(s.skippedLaunches) + " kernel launch" +
               (s.skippedLaunches == 1 ? "" : "es") + " skipped)";
  if (buf && size) {
    std::strncpy(buf, message.c_str(), size - 1);
    buf[size - 1] = '\0';
  }
  s.code = TSMLIR_CUDA_SUCCESS;
  s.message.clear();
  s.laterFailures = 0;
  s.skippedLaunches = 0;
  stickyPending.store(false);
  return code;
}

void *mgpuModuleLoad(void *data, size_t gpuBlobSize) {
  if (gpuBlobSize == 0) {
    report(setError(TSMLIR_CUDA_ERROR_INVALID_VALUE,
                    "mgpuModuleLoad: an empty module image"));
    return nullptr;
  }
  void *module = nullptr;
  report(tsmlirCudaModuleLoad(&module, data, gpuBlobSize));
  return module;
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev) {
    report(code);
    return nullptr;
  }
  void *module = nullptr;
  report(moduleCache().load(*dev, &module, data, 0, optLevel));
  return module;
}

void mgpuModuleUnload(void *module) {
  // A module that failed to load was reported then.
  if (module)
    report(tsmlirCudaModuleUnload(module));
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  void *function = nullptr;
  report(tsmlirCudaModuleGetFunction(&function, module, name));
  return function;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount) {
  if (!function) {
    report(setError(TSMLIR_CUDA_ERROR_INVALID_VALUE,
                    "mgpuLaunchKernel: kernel launch with a NULL function "
                    "(skipped)"));
    return;
  }
  // After a failure the kernel's inputs may be missing: do not touch them.
  if (stickyPending.load()) {
    noteSkippedLaunch();
    return;
  }
  unsigned grid[3], block[3];
  bool valid =
      launchDimension(gridX, grid[0]) && launchDimension(gridY, grid[1]) &&
      launchDimension(gridZ, grid[2]) && launchDimension(blockX, block[0]) &&
      launchDimension(blockY, block[1]) && launchDimension(blockZ, block[2]) &&
      smem >= 0 && (params || !paramsCount);
  if (!valid) {
    report(setError(TSMLIR_CUDA_ERROR_INVALID_VALUE,
                    "mgpuLaunchKernel: invalid launch (grid " +
                        std::to_string(gridX) + "x" + std::to_string(gridY) +
                        "x" + std::to_string(gridZ) + ", block " +
                        std::to_string(blockX) + "x" + std::to_string(blockY) +
                        "x" + std::to_string(blockZ) + ", shared memory " +
                        std::to_string(smem) + ", " +
                        std::to_string(paramsCount) + " parameters)"));
    return;
  }
  report(tsmlirCudaLaunch(function, grid[0], grid[1], grid[2], block[0],
                          block[1], block[2], static_cast<unsigned>(smem),
                          stream, params, extra));
}

void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra, size_t paramsCount) {
  if (clusterX != 1 || clusterY != 1 || clusterZ != 1) {
    report(setError(TSMLIR_CUDA_ERROR_NOT_SUPPORTED,
                    "mgpuLaunchClusterKernel: thread-block clusters are not "
                    "supported"));
    return;
  }
  mgpuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ, smem,
                   stream, params, extra, paramsCount);
}

int tsmlirCudaBeginCallerStream(void *stream) {
  callerStream = {true, stream, false};
  return TSMLIR_CUDA_SUCCESS;
}

int tsmlirCudaEndCallerStream(void) {
  callerStream = {};
  return TSMLIR_CUDA_SUCCESS;
}

void *mgpuStreamCreate(void) {
  if (callerStream.active)
    return callerStream.stream;
  void *stream = nullptr;
  report(tsmlirCudaStreamCreate(&stream));
  return stream;
}

void mgpuStreamDestroy(void *stream) {
  // A stream that failed to be created was reported then; its NULL stands
  // for the legacy stream meanwhile. The caller's stream stays the caller's.
  if (stream && !isCallerStream(stream))
    report(tsmlirCudaStreamDestroy(stream));
}

void mgpuStreamSynchronize(void *stream) {
  // The end of a call on the caller's stream does not wait; a host read
  // (a copy queued since the last wait) does.
  if (isCallerStream(stream)) {
    if (!callerStream.copyPending)
      return;
    callerStream.copyPending = false;
  }
  report(tsmlirCudaStreamSynchronize(stream));
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  report(tsmlirCudaStreamWaitEvent(stream, event));
}

void *mgpuEventCreate(void) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev) {
    report(code);
    return nullptr;
  }
  CUevent event = nullptr;
  report(takeSyncEvent(*dev, event));
  return event;
}

void mgpuEventDestroy(void *event) {
  if (event)
    returnSyncEvent(static_cast<CUevent>(event));
}

void mgpuEventSynchronize(void *event) {
  report(tsmlirCudaEventSynchronize(event));
}

void mgpuEventRecord(void *event, void *stream) {
  report(tsmlirCudaEventRecord(event, stream));
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  void *ptr = nullptr;
  if (!isHostShared) {
    report(tsmlirCudaMallocAsync(&ptr, sizeBytes, stream));
    return ptr;
  }
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev) {
    report(code);
    return nullptr;
  }
  report(allocator().allocateManaged(*dev, &ptr, sizeBytes));
  return ptr;
}

void mgpuMemFree(void *ptr, void *stream) {
  report(tsmlirCudaFreeAsync(ptr, stream));
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  if (isCallerStream(stream))
    callerStream.copyPending = true;
  int code;
  const Device *dev = acquireDevice(code);
  if (dev && sizeBytes && (!dst || !src))
    code =
        setError(TSMLIR_CUDA_ERROR_INVALID_VALUE, "mgpuMemcpy: a NULL pointer");
  else if (dev && sizeBytes)
    code = checkDriver(*dev,
                       dev->api->cuMemcpyAsync(toDevicePtr(dst),
                                               toDevicePtr(src), sizeBytes,
                                               static_cast<CUstream>(stream)),
                       "cuMemcpyAsync");
  report(code);
}

void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream) {
  int code;
  const Device *dev = acquireDevice(code);
  if (dev && count && !dst)
    code = setError(TSMLIR_CUDA_ERROR_INVALID_VALUE,
                    "mgpuMemset32: a NULL pointer");
  else if (dev && count)
    code =
        checkDriver(*dev,
                    dev->api->cuMemsetD32Async(toDevicePtr(dst), value, count,
                                               static_cast<CUstream>(stream)),
                    "cuMemsetD32Async");
  report(code);
}

void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream) {
  int code;
  const Device *dev = acquireDevice(code);
  if (dev && count && !dst)
    code = setError(TSMLIR_CUDA_ERROR_INVALID_VALUE,
                    "mgpuMemset16: a NULL pointer");
  else if (dev && count)
    code =
        checkDriver(*dev,
                    dev->api->cuMemsetD16Async(toDevicePtr(dst), value, count,
                                               static_cast<CUstream>(stream)),
                    "cuMemsetD16Async");
  report(code);
}

void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  report(hostRegister(ptr, sizeBytes));
}

void mgpuMemHostUnregister(void *ptr) { report(hostUnregister(ptr)); }

void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes) {
  char *data;
  uint64_t bytes;
  memrefData(rank, descriptor, elementSizeBytes, data, bytes);
  report(hostRegister(data, bytes));
}

void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes) {
  char *data;
  uint64_t bytes;
  memrefData(rank, descriptor, elementSizeBytes, data, bytes);
  if (bytes)
    report(hostUnregister(data));
}

void mgpuSetDefaultDevice(int32_t device) { report(requestDevice(device)); }

} // extern "C"
