/*===- CudaRuntime.h - The tsmlir CUDA runtime library, C API -----*- C -*-===//
 *
 * Part of the tsmlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===//
 *
 * libtsmlir_cuda_runtime: what compiled GPU code needs on the host. It opens
 * the CUDA driver (libcuda.so.1) with dlopen at first use, so that neither the
 * library nor its users link CUDA, and provides
 *
 *  - the tsmlirCuda* API below: initialisation and device queries, a caching
 *    device-memory allocator, copies, pooled streams, events, a module cache,
 *    kernel launches and a launch counter; every function returns a
 *    TsmlirCudaError code and, on failure, leaves a message that
 *    tsmlirCudaGetLastError() returns;
 *  - the mgpu* functions that MLIR's gpu-to-llvm lowering and its
 *    #gpu.select_object offloading translation call from host code. They
 *    cannot return errors: a failure sets the process-wide sticky error that
 *    tsmlirCudaGetStickyError() takes, and the first one is printed.
 *
 * Device pointers, modules, functions, streams and events are opaque
 * pointers: CUdeviceptr, CUmodule, CUfunction, CUstream and CUevent of the
 * driver API. A NULL stream is the driver's legacy default stream.
 *
 * All functions may be called from any thread. The first call initialises the
 * runtime (see tsmlirCudaInit); the driver's primary context of the chosen
 * device is made current on the calling thread by every call that needs it.
 *
 * Environment variables:
 *   TSMLIR_CUDA_DRIVER    the driver library to open instead of libcuda.so.1
 *   TSMLIR_CUDA_DEVICE    the device ordinal to use (default 0)
 *   TSMLIR_CUDA_NO_CACHE  when set to a non-empty value other than 0, freed
 *                         memory goes back to the driver at once
 *
 * See docs/runtime.md for the design.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TSMLIR_RUNTIME_CUDARUNTIME_H
#define TSMLIR_RUNTIME_CUDARUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define TSMLIR_CUDA_EXPORT __attribute__((visibility("default")))
#else
#define TSMLIR_CUDA_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===
 * Errors
 *===----------------------------------------------------------------------===*/

/** The codes every tsmlirCuda* function returns. */
typedef enum TsmlirCudaError {
  TSMLIR_CUDA_SUCCESS = 0,
  /** No driver library, a driver without the needed entry points, cuInit
   *  failed, or no (such) device. The message starts with
   *  "no CUDA driver/device found (" and names the reason. */
  TSMLIR_CUDA_ERROR_NO_DEVICE = 1,
  /** A driver call failed; the message names the call and the CUresult. */
  TSMLIR_CUDA_ERROR_DRIVER = 2,
  /** The device is out of memory, also after the allocator's cache was
   *  released. */
  TSMLIR_CUDA_ERROR_OUT_OF_MEMORY = 3,
  /** A NULL or unknown pointer or handle, or an out-of-range argument. */
  TSMLIR_CUDA_ERROR_INVALID_VALUE = 4,
  /** A module image the driver rejected; for PTX the message includes the
   *  JIT compiler's error log. */
  TSMLIR_CUDA_ERROR_MODULE_LOAD = 5,
  /** No kernel of the requested name in the module. */
  TSMLIR_CUDA_ERROR_NOT_FOUND = 6,
  /** The driver lacks an optional entry point the call needs (e.g. managed
   *  memory), or the request is not supported (e.g. cluster launches). */
  TSMLIR_CUDA_ERROR_NOT_SUPPORTED = 7
} TsmlirCudaError;

/** The message of the last failing tsmlirCuda* call on this thread, or "" if
 *  none failed. Successful calls leave it as it is. The string stays valid
 *  until the next failing call on this thread. */
TSMLIR_CUDA_EXPORT const char *tsmlirCudaGetLastError(void);

/** The name of an error code, e.g. "TSMLIR_CUDA_ERROR_DRIVER". */
TSMLIR_CUDA_EXPORT const char *tsmlirCudaErrorName(int code);

/** Takes the sticky error that the mgpu* functions set: returns its code
 *  (TSMLIR_CUDA_SUCCESS when none is pending), copies its message,
 *  NUL-terminated and truncated to `size` bytes, into `buf` (when `buf` is not
 *  NULL and `size` is not 0), and clears it. The first failure is kept; the
 *  message counts the failures that followed it. */
TSMLIR_CUDA_EXPORT int tsmlirCudaGetStickyError(char *buf, size_t size);

/*===----------------------------------------------------------------------===
 * Initialisation and the device
 *===----------------------------------------------------------------------===*/

/** Opens the driver, initialises it and retains the primary context of the
 *  device: TSMLIR_CUDA_DEVICE, else the one mgpuSetDefaultDevice named, else
 *  0. Idempotent and thread-safe: the work happens once and its result
 *  (success or the error) is returned by every call. Every other function
 *  calls it first. */
TSMLIR_CUDA_EXPORT int tsmlirCudaInit(void);

/** The device's name, NUL-terminated and truncated to `size` bytes. */
TSMLIR_CUDA_EXPORT int tsmlirCudaDeviceName(char *buf, size_t size);

/** What benchmarks and the code generator want to know about the device. */
typedef struct TsmlirCudaDeviceInfo {
  int ordinal;                   /**< the device's ordinal */
  int computeCapabilityMajor;    /**< e.g. 9 for sm_90 */
  int computeCapabilityMinor;    /**< e.g. 0 for sm_90 */
  int multiprocessorCount;       /**< SMs */
  int maxThreadsPerBlock;        /**< threads in one block */
  int warpSize;                  /**< threads in a warp */
  int sharedMemoryPerBlock;      /**< bytes of static shared memory a block
                                      may use */
  int sharedMemoryPerBlockOptin; /**< bytes a block may use with opt-in
                                      dynamic shared memory */
  int l2CacheBytes;              /**< bytes of L2 cache */
  int clockRateKHz;              /**< SM clock, kHz */
  int memoryClockRateKHz;        /**< memory clock, kHz */
  int memoryBusWidthBits;        /**< global memory bus width, bits */
  uint64_t totalGlobalMemory;    /**< bytes of device memory */
  int driverVersion;             /**< e.g. 12040 for CUDA 12.4 */
} TsmlirCudaDeviceInfo;

/** Fills `info` for the device in use. */
TSMLIR_CUDA_EXPORT int tsmlirCudaGetDeviceInfo(TsmlirCudaDeviceInfo *info);

/** Waits until all work on the device has finished (cuCtxSynchronize). */
TSMLIR_CUDA_EXPORT int tsmlirCudaDeviceSynchronize(void);

/*===----------------------------------------------------------------------===
 * Memory: the caching allocator
 *===----------------------------------------------------------------------===*/

/** Allocates `bytes` of device memory, ordered on the legacy stream:
 *  tsmlirCudaMallocAsync(ptr, bytes, NULL). */
TSMLIR_CUDA_EXPORT int tsmlirCudaMalloc(void **ptr, size_t bytes);

/** Frees memory from tsmlirCudaMalloc: tsmlirCudaFreeAsync(ptr, NULL).
 *  Freeing NULL does nothing. */
TSMLIR_CUDA_EXPORT int tsmlirCudaFree(void *ptr);

/** Allocates `bytes` (rounded up to the allocator's block size) for work on
 *  `stream`. A block from the cache that was freed on another stream is
 *  ready for `stream`: `stream` waits for the work queued before the free. On
 *  an out-of-memory error the cache is released and the allocation tried once
 *  more. */
TSMLIR_CUDA_EXPORT int tsmlirCudaMallocAsync(void **ptr, size_t bytes,
                                             void *stream);

/** Returns memory to the cache once the work queued on `stream` so far is
 *  done: an event recorded on `stream` now guards its reuse. Freeing NULL
 *  does nothing. */
TSMLIR_CUDA_EXPORT int tsmlirCudaFreeAsync(void *ptr, void *stream);

/** Gives all cached (free) blocks back to the driver. */
TSMLIR_CUDA_EXPORT int tsmlirCudaEmptyCache(void);

/** The allocator's counters. Byte counts are of rounded block sizes. */
typedef struct TsmlirCudaMemoryStats {
  uint64_t bytesInUse;         /**< bytes in blocks handed out now */
  uint64_t peakBytesInUse;     /**< the most bytesInUse has been */
  uint64_t bytesCached;        /**< bytes in freed blocks kept for reuse */
  uint64_t blocksInUse;        /**< blocks handed out now */
  uint64_t blocksCached;       /**< freed blocks kept for reuse */
  uint64_t allocations;        /**< successful allocations, all told */
  uint64_t cacheHits;          /**< allocations served from the cache */
  uint64_t driverAllocations;  /**< cuMemAlloc calls that succeeded */
  uint64_t driverFrees;        /**< blocks given back with cuMemFree */
  uint64_t outOfMemoryRetries; /**< times the cache was released to retry */
} TsmlirCudaMemoryStats;

/** Copies the allocator's counters into `stats`. */
TSMLIR_CUDA_EXPORT int tsmlirCudaMemoryStats(TsmlirCudaMemoryStats *stats);

/*===----------------------------------------------------------------------===
 * Copies and fills. A NULL stream runs them on the legacy stream and waits
 * for them; any other stream queues them (a copy from or to pageable host
 * memory may still return only when the host side is done, as in CUDA).
 *===----------------------------------------------------------------------===*/

TSMLIR_CUDA_EXPORT int tsmlirCudaMemcpyHtoD(void *dst, const void *src,
                                            size_t bytes, void *stream);
TSMLIR_CUDA_EXPORT int tsmlirCudaMemcpyDtoH(void *dst, const void *src,
                                            size_t bytes, void *stream);
TSMLIR_CUDA_EXPORT int tsmlirCudaMemcpyDtoD(void *dst, const void *src,
                                            size_t bytes, void *stream);
/** Sets `count` 32-bit words at `dst` to `value`. */
TSMLIR_CUDA_EXPORT int tsmlirCudaMemset32(void *dst, uint32_t value,
                                          size_t count, void *stream);
/** Sets `count` 16-bit words at `dst` to `value`. */
TSMLIR_CUDA_EXPORT int tsmlirCudaMemset16(void *dst, uint16_t value,
                                          size_t count, void *stream);

/*===----------------------------------------------------------------------===
 * Streams and events
 *===----------------------------------------------------------------------===*/

/** Takes a stream from the pool (creating one when the pool is empty). Pool
 *  streams are blocking (CU_STREAM_DEFAULT): they order with the legacy
 *  stream, so events recorded on the NULL stream bracket their work. */
TSMLIR_CUDA_EXPORT int tsmlirCudaStreamCreate(void **stream);
/** Returns a stream to the pool. Work queued on it still runs. */
TSMLIR_CUDA_EXPORT int tsmlirCudaStreamDestroy(void *stream);
TSMLIR_CUDA_EXPORT int tsmlirCudaStreamSynchronize(void *stream);
/** Makes later work on `stream` wait for `event`. */
TSMLIR_CUDA_EXPORT int tsmlirCudaStreamWaitEvent(void *stream, void *event);

/** Makes the compiled code this thread calls from now on queue its work on
 *  `stream` (a CUstream the caller owns; NULL is the legacy default stream)
 *  and return without waiting for it, as a PyTorch op does on PyTorch's
 *  current stream: the outputs are ready in that stream's order. A read of a
 *  device value by the host in between (a branch's condition) still waits.
 *  tsmlirCudaEndCallerStream() goes back to the default: a pool stream per
 *  call, waited for before the call returns. */
TSMLIR_CUDA_EXPORT int tsmlirCudaBeginCallerStream(void *stream);
TSMLIR_CUDA_EXPORT int tsmlirCudaEndCallerStream(void);

/** Creates an event that records time stamps (for tsmlirCudaEventElapsedMs). */
TSMLIR_CUDA_EXPORT int tsmlirCudaEventCreate(void **event);
TSMLIR_CUDA_EXPORT int tsmlirCudaEventRecord(void *event, void *stream);
TSMLIR_CUDA_EXPORT int tsmlirCudaEventSynchronize(void *event);
/** The milliseconds between two recorded, completed events. */
TSMLIR_CUDA_EXPORT int tsmlirCudaEventElapsedMs(float *ms, void *start,
                                                void *end);
TSMLIR_CUDA_EXPORT int tsmlirCudaEventDestroy(void *event);

/*===----------------------------------------------------------------------===
 * Modules and launches
 *===----------------------------------------------------------------------===*/

/** Loads a module: a cubin or fatbin image of `size` bytes, or, when `size`
 *  is 0, NUL-terminated PTX that the driver compiles (on failure the message
 *  includes the compiler's log). Images are cached by content: loading the
 *  same bytes again returns the loaded module and counts a reference. */
TSMLIR_CUDA_EXPORT int tsmlirCudaModuleLoad(void **module, const void *image,
                                            size_t size);
/** Drops a reference; the last one unloads the module. */
TSMLIR_CUDA_EXPORT int tsmlirCudaModuleUnload(void *module);
/** The kernel `name` of `module`; lookups are cached per module. */
TSMLIR_CUDA_EXPORT int
tsmlirCudaModuleGetFunction(void **function, void *module, const char *name);

/** Launches a kernel, as cuLaunchKernel. `params` points to one pointer per
 *  kernel argument; `extra` is cuLaunchKernel's and is usually NULL. */
TSMLIR_CUDA_EXPORT int tsmlirCudaLaunch(void *function, unsigned gridX,
                                        unsigned gridY, unsigned gridZ,
                                        unsigned blockX, unsigned blockY,
                                        unsigned blockZ,
                                        unsigned sharedMemBytes, void *stream,
                                        void **params, void **extra);

/** Kernels launched (through tsmlirCudaLaunch or mgpuLaunchKernel) since the
 *  start or the last reset. */
TSMLIR_CUDA_EXPORT uint64_t tsmlirCudaLaunchCount(void);
TSMLIR_CUDA_EXPORT void tsmlirCudaResetLaunchCount(void);

/*===----------------------------------------------------------------------===
 * The ABI of MLIR's GPU host code (gpu-to-llvm and #gpu.select_object, LLVM
 * 22). Handles are those of the API above. On failure these return NULL
 * where they return a pointer and set the sticky error; the first failure
 * while none is pending is also printed to stderr as
 * "tsmlir-cuda-runtime: <message>", later ones are only counted. While a
 * sticky error is pending, mgpuLaunchKernel skips its launch: its arguments
 * may be missing.
 *===----------------------------------------------------------------------===*/

/** Loads a cubin or fatbin of `gpuBlobSize` bytes. */
TSMLIR_CUDA_EXPORT void *mgpuModuleLoad(void *data, size_t gpuBlobSize);
/** Loads NUL-terminated PTX at JIT optimisation level `optLevel` (0-4). */
TSMLIR_CUDA_EXPORT void *mgpuModuleLoadJIT(void *data, int optLevel);
TSMLIR_CUDA_EXPORT void mgpuModuleUnload(void *module);
TSMLIR_CUDA_EXPORT void *mgpuModuleGetFunction(void *module, const char *name);
/** `paramsCount` is the number of entries of `params`. */
TSMLIR_CUDA_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX,
                                         intptr_t gridY, intptr_t gridZ,
                                         intptr_t blockX, intptr_t blockY,
                                         intptr_t blockZ, int32_t smem,
                                         void *stream, void **params,
                                         void **extra, size_t paramsCount);
/** Thread-block clusters are not supported: a cluster of 1x1x1 launches as
 *  mgpuLaunchKernel, a larger one fails. */
TSMLIR_CUDA_EXPORT void
mgpuLaunchClusterKernel(void *function, intptr_t clusterX, intptr_t clusterY,
                        intptr_t clusterZ, intptr_t gridX, intptr_t gridY,
                        intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                        intptr_t blockZ, int32_t smem, void *stream,
                        void **params, void **extra, size_t paramsCount);
TSMLIR_CUDA_EXPORT void *mgpuStreamCreate(void);
TSMLIR_CUDA_EXPORT void mgpuStreamDestroy(void *stream);
TSMLIR_CUDA_EXPORT void mgpuStreamSynchronize(void *stream);
TSMLIR_CUDA_EXPORT void mgpuStreamWaitEvent(void *stream, void *event);
/** Events without time stamps, taken from and returned to a pool. */
TSMLIR_CUDA_EXPORT void *mgpuEventCreate(void);
TSMLIR_CUDA_EXPORT void mgpuEventDestroy(void *event);
TSMLIR_CUDA_EXPORT void mgpuEventSynchronize(void *event);
TSMLIR_CUDA_EXPORT void mgpuEventRecord(void *event, void *stream);
/** Device memory from the caching allocator, or managed memory (not cached)
 *  when `isHostShared`. */
TSMLIR_CUDA_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void *stream,
                                      bool isHostShared);
TSMLIR_CUDA_EXPORT void mgpuMemFree(void *ptr, void *stream);
/** A copy in any direction (unified addressing), queued on `stream`. */
TSMLIR_CUDA_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                                   void *stream);
TSMLIR_CUDA_EXPORT void mgpuMemset32(void *dst, unsigned int value,
                                     size_t count, void *stream);
TSMLIR_CUDA_EXPORT void mgpuMemset16(void *dst, unsigned short value,
                                     size_t count, void *stream);
/** Page-locks host memory (cuMemHostRegister). */
TSMLIR_CUDA_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes);
TSMLIR_CUDA_EXPORT void mgpuMemHostUnregister(void *ptr);
/** Page-locks the data of a dense ranked memref: `descriptor` points to its
 *  descriptor {allocated, aligned, offset, sizes[rank], strides[rank]}. */
TSMLIR_CUDA_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank,
                                                  void *descriptor,
                                                  int64_t elementSizeBytes);
TSMLIR_CUDA_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank,
                                                    void *descriptor,
                                                    int64_t elementSizeBytes);
/** Selects the device the runtime initialises on. Without effect (but for an
 *  error when it names another device) once the runtime is initialised, and
 *  TSMLIR_CUDA_DEVICE takes precedence. */
TSMLIR_CUDA_EXPORT void mgpuSetDefaultDevice(int32_t device);

#ifdef __cplusplus
}
#endif

#endif /* TSMLIR_RUNTIME_CUDARUNTIME_H */
