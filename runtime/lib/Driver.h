//===- Driver.h - The CUDA driver API, opened with dlopen -------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The part of the CUDA driver API the runtime uses, declared here so that it
// builds without the CUDA toolkit: the types as the driver's ABI has them
// (CUresult an int, handles pointers, CUdeviceptr an unsigned long long), the
// few enumerators needed, and a table of entry points resolved with dlsym
// under the versioned names libcuda.so.1 exports.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_RUNTIME_DRIVER_H
#define TSMLIR_RUNTIME_DRIVER_H

#include <cstddef>
#include <string>

// The driver's opaque handle types, at global scope as cuda.h has them.
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;

namespace tsmlir::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUstream = CUstream_st *;
using CUevent = CUevent_st *;

// CUresult values the runtime looks at.
constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_DEINITIALIZED = 4;
constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;

// CUdevice_attribute.
constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
constexpr int CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10;
constexpr int CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13;
constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36;
constexpr int CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37;
constexpr int CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

// CUjit_option.
constexpr int CU_JIT_INFO_LOG_BUFFER = 3;
constexpr int CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr int CU_JIT_OPTIMIZATION_LEVEL = 7;

// Flags.
constexpr unsigned CU_STREAM_DEFAULT = 0;
constexpr unsigned CU_EVENT_DEFAULT = 0;
constexpr unsigned CU_EVENT_DISABLE_TIMING = 2;
constexpr unsigned CU_MEM_ATTACH_GLOBAL = 1;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

/// Entry points of the driver. The required ones are all resolved or the
/// driver is not used; the optional ones may be null.
struct DriverApi {
  // Required.
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDriverGetVersion)(int *version);
  CUresult (*cuDeviceGetCount)(int *count);
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
  CUresult (*cuDeviceGetName)(char *name, int len, CUdevice device);
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device);
  CUresult (*cuDeviceTotalMem)(size_t *bytes, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *context, CUdevice device);
  CUresult (*cuCtxGetCurrent)(CUcontext *context);
  CUresult (*cuCtxSetCurrent)(CUcontext context);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuGetErrorName)(CUresult error, const char **name);
  CUresult (*cuGetErrorString)(CUresult error, const char **text);
  CUresult (*cuMemAlloc)(CUdeviceptr *ptr, size_t bytes);
  CUresult (*cuMemFree)(CUdeviceptr ptr);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr dst, const void *src, size_t bytes,
                                CUstream stream);
  CUresult (*cuMemcpyDtoHAsync)(void *dst, CUdeviceptr src, size_t bytes,
                                CUstream stream);
  CUresult (*cuMemcpyAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                            CUstream stream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr dst, unsigned value, size_t count,
                               CUstream stream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr dst, unsigned short value,
                               size_t count, CUstream stream);
  CUresult (*cuModuleLoadData)(CUmodule *module, const void *image);
  CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image,
                                 unsigned numOptions, int *options,
                                 void **optionValues);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module,
                                  const char *name);
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX,
                             unsigned gridY, unsigned gridZ, unsigned blockX,
                             unsigned blockY, unsigned blockZ,
                             unsigned sharedMemBytes, CUstream stream,
                             void **params, void **extra);
  CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags);
  CUresult (*cuStreamDestroy)(CUstream stream);
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuStreamWaitEvent)(CUstream stream, CUevent event, unsigned flags);
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags);
  CUresult (*cuEventDestroy)(CUevent event);
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventSynchronize)(CUevent event);
  CUresult (*cuEventQuery)(CUevent event);
  CUresult (*cuEventElapsedTime)(float *ms, CUevent start, CUevent end);

  // Optional.
  CUresult (*cuMemAllocManaged)(CUdeviceptr *ptr, size_t bytes, unsigned flags);
  CUresult (*cuMemHostRegister)(void *ptr, size_t bytes, unsigned flags);
  CUresult (*cuMemHostUnregister)(void *ptr);
  CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute, int value);
};

/// Opens the driver library (TSMLIR_CUDA_DRIVER, else libcuda.so.1) and
/// resolves its entry points. Returns null and sets `error` (dlerror's text)
/// when the library or a required entry point is missing. The library stays
/// open for the life of the process.
const DriverApi *openDriver(std::string &error);

/// "CUDA_ERROR_..." for `result`: the driver's name when it has one, else a
/// name from a small table, else the number.
std::string errorName(const DriverApi *api, CUresult result);

} // namespace tsmlir::cuda

#endif // TSMLIR_RUNTIME_DRIVER_H
