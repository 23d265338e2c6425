//===- Driver.cpp - The CUDA driver API, opened with dlopen ---------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include <cstdlib>
#include <dlfcn.h>

namespace tsmlir::cuda {

namespace {
/// Resolves entry points into a DriverApi, remembering the first failure.
class Resolver {
public:
  explicit Resolver(void *library) : library(library) {}

  template <typename Fn> void required(Fn &slot, const char *name) {
    slot = reinterpret_cast<Fn>(lookup(name));
    if (!slot && error.empty()) {
      const char *text = dlerror();
      error = text ? text : std::string("undefined symbol: ") + name;
    }
  }

  template <typename Fn> void optional(Fn &slot, const char *name) {
    slot = reinterpret_cast<Fn>(lookup(name));
  }

  std::string error;

private:
  void *lookup(const char *name) {
    dlerror();
    return dlsym(library, name);
  }

  void *library;
};
} // namespace

const DriverApi *openDriver(std::string &error) {
  const char *path = std::getenv("TSMLIR_CUDA_DRIVER");
  if (!path || !*path)
    path = "libcuda.so.1";
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *text = dlerror();
    error = text ? text : std::string(path) + ": cannot be opened";
    return nullptr;
  }

  // Never freed: the driver outlives every user of the runtime, including
  // the global destructors of compiled code that unload modules.
  auto *api = new DriverApi();
  Resolver r(library);
  r.required(api->cuInit, "cuInit");
  r.required(api->cuDriverGetVersion, "cuDriverGetVersion");
  r.required(api->cuDeviceGetCount, "cuDeviceGetCount");
  r.required(api->cuDeviceGet, "cuDeviceGet");
  r.required(api->cuDeviceGetName, "cuDeviceGetName");
  r.required(api->cuDeviceGetAttribute, "cuDeviceGetAttribute");
  r.required(api->cuDeviceTotalMem, "cuDeviceTotalMem_v2");
  r.required(api->cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  r.required(api->cuCtxGetCurrent, "cuCtxGetCurrent");
  r.required(api->cuCtxSetCurrent, "cuCtxSetCurrent");
  r.required(api->cuCtxSynchronize, "cuCtxSynchronize");
  r.required(api->cuGetErrorName, "cuGetErrorName");
  r.required(api->cuGetErrorString, "cuGetErrorString");
  r.required(api->cuMemAlloc, "cuMemAlloc_v2");
  r.required(api->cuMemFree, "cuMemFree_v2");
  r.required(api->cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
  r.required(api->cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
  r.required(api->cuMemcpyAsync, "cuMemcpyAsync");
  r.required(api->cuMemsetD32Async, "cuMemsetD32Async");
  r.required(api->cuMemsetD16Async, "cuMemsetD16Async");
  r.required(api->cuModuleLoadData, "cuModuleLoadData");
  r.required(api->cuModuleLoadDataEx, "cuModuleLoadDataEx");
  r.required(api->cuModuleUnload, "cuModuleUnload");
  r.required(api->cuModuleGetFunction, "cuModuleGetFunction");
  r.required(api->cuLaunchKernel, "cuLaunchKernel");
  r.required(api->cuStreamCreate, "cuStreamCreate");
  r.required(api->cuStreamDestroy, "cuStreamDestroy_v2");
  r.required(api->cuStreamSynchronize, "cuStreamSynchronize");
  r.required(api->cuStreamWaitEvent, "cuStreamWaitEvent");
  r.required(api->cuEventCreate, "cuEventCreate");
  r.required(api->cuEventDestroy, "cuEventDestroy_v2");
  r.required(api->cuEventRecord, "cuEventRecord");
  r.required(api->cuEventSynchronize, "cuEventSynchronize");
  r.required(api->cuEventQuery, "cuEventQuery");
  // Drivers for CUDA 12.8 and later have a _v2 (the one CUDA 13's cuda.h
  // names); older ones only the first version, same signature.
  r.optional(api->cuEventElapsedTime, "cuEventElapsedTime_v2");
  if (!api->cuEventElapsedTime)
    r.required(api->cuEventElapsedTime, "cuEventElapsedTime");
  r.optional(api->cuMemAllocManaged, "cuMemAllocManaged");
  r.optional(api->cuMemHostRegister, "cuMemHostRegister_v2");
  r.optional(api->cuMemHostUnregister, "cuMemHostUnregister");
  r.optional(api->cuFuncSetAttribute, "cuFuncSetAttribute");
  if (!r.error.empty()) {
    error = r.error;
    delete api;
    return nullptr;
  }
  return api;
}

std::string errorName(const DriverApi *api, CUresult result) {
  const char *name = nullptr;
  if (api && api->cuGetErrorName(result, &name) == CUDA_SUCCESS && name)
    return name;
  switch (result) {
  case 0:
    return "CUDA_SUCCESS";
  case 1:
    return "CUDA_ERROR_INVALID_VALUE";
  case 2:
    return "CUDA_ERROR_OUT_OF_MEMORY";
  case 3:
    return "CUDA_ERROR_NOT_INITIALIZED";
  case 4:
    return "CUDA_ERROR_DEINITIALIZED";
  case 35:
    return "CUDA_ERROR_INSUFFICIENT_DRIVER";
  case 100:
    return "CUDA_ERROR_NO_DEVICE";
  case 101:
    return "CUDA_ERROR_INVALID_DEVICE";
  case 200:
    return "CUDA_ERROR_INVALID_IMAGE";
  case 201:
    return "CUDA_ERROR_INVALID_CONTEXT";
  case 209:
    return "CUDA_ERROR_NO_BINARY_FOR_GPU";
  case 218:
    return "CUDA_ERROR_INVALID_PTX";
  case 222:
    return "CUDA_ERROR_UNSUPPORTED_PTX_VERSION";
  case 400:
    return "CUDA_ERROR_INVALID_HANDLE";
  case 500:
    return "CUDA_ERROR_NOT_FOUND";
  case 600:
    return "CUDA_ERROR_NOT_READY";
  case 700:
    return "CUDA_ERROR_ILLEGAL_ADDRESS";
  case 701:
    return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
  case 719:
    return "CUDA_ERROR_LAUNCH_FAILED";
  case 999:
    return "CUDA_ERROR_UNKNOWN";
  default:
    return "CUresult " + std::to_string(result);
  }
}

} // namespace tsmlir::cuda
