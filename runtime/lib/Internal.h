//===- Internal.h - What the runtime's parts share --------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The device the runtime initialised, error reporting, and the pools of
// streams and events, shared by CudaRuntime.cpp, the allocator, the module
// cache and the mgpu* functions.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_RUNTIME_INTERNAL_H
#define TSMLIR_RUNTIME_INTERNAL_H

#include "Driver.h"

#include "tsmlir/Runtime/CudaRuntime.h"

#include <cstdint>
#include <string>

namespace tsmlir::cuda {

/// The initialised device: the driver, the ordinal and its primary context.
struct Device {
  const DriverApi *api = nullptr;
  CUdevice device = 0;
  int ordinal = 0;
  CUcontext context = nullptr;
};

/// Initialises the runtime once (see tsmlirCudaInit) and makes the device's
/// context current on this thread. Returns null, with the last error set and
/// its code in `code`, when there is no device or the context cannot be made
/// current.
const Device *acquireDevice(int &code);

/// The initialised device without touching the thread's context, or null
/// when the runtime is not (successfully) initialised. For teardown paths.
const Device *initializedDevice();

/// Sets this thread's last error and returns `code`.
int setError(int code, std::string message);

/// "<call>: <CUDA_ERROR_NAME>" for a failed driver call.
std::string driverMessage(const Device &dev, const char *call, CUresult result);

/// Sets the last error for a failed driver call (TSMLIR_CUDA_ERROR_DRIVER)
/// and returns its code; returns TSMLIR_CUDA_SUCCESS when `result` is 0.
int checkDriver(const Device &dev, CUresult result, const char *call);

/// An event without time stamps from the pool (created when it is empty).
int takeSyncEvent(const Device &dev, CUevent &event);
/// Returns an event from takeSyncEvent to the pool.
void returnSyncEvent(CUevent event);

/// A stream from the pool (created, blocking, when the pool is empty).
int takeStream(const Device &dev, CUstream &stream);
/// Returns a stream from takeStream to the pool.
int returnStream(CUstream stream);

/// Asks for `device` at initialisation (mgpuSetDefaultDevice); an error when
/// the runtime already uses another device.
int requestDevice(int32_t device);

class CachingAllocator;
class ModuleCache;
/// The process's allocator and module cache, never destroyed: compiled code
/// may use them from its global destructors.
CachingAllocator &allocator();
ModuleCache &moduleCache();

inline void *toPointer(CUdeviceptr ptr) {
  return reinterpret_cast<void *>(static_cast<uintptr_t>(ptr));
}
inline CUdeviceptr toDevicePtr(const void *ptr) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(ptr));
}

} // namespace tsmlir::cuda

#endif // TSMLIR_RUNTIME_INTERNAL_H
