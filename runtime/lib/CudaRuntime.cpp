//===- CudaRuntime.cpp - The tsmlir CUDA runtime library ------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Initialisation, errors, the stream and event pools, and the tsmlirCuda* C
// API over the driver, the caching allocator and the module cache. The
// process-wide state lives in objects allocated once and never destroyed, so
// that it outlives the global destructors of compiled code.
//
//===----------------------------------------------------------------------===//

#include "CachingAllocator.h"
#include "Internal.h"
#include "ModuleCache.h"

#include <atomic>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <vector>

using namespace tsmlir::cuda;

namespace {
/// This thread's last error message. A pointer, trivially destructible, so
/// that the global destructors of compiled code that run after the main
/// thread's thread-local objects are gone may still set it; the owner frees
/// the string when a thread ends.
thread_local std::string *lastError = nullptr;
struct LastErrorOwner {
  ~LastErrorOwner() {
    delete lastError;
    lastError = nullptr;
  }
};
thread_local LastErrorOwner lastErrorOwner;

/// The result of initialisation, computed once.
struct InitState {
  std::once_flag once;
  std::atomic<bool> done{false};
  int code = TSMLIR_CUDA_SUCCESS;
  std::string message;
  Device device;
};

InitState &initState() {
  static InitState *state = new InitState();
  return *state;
}

/// The device mgpuSetDefaultDevice asked for before initialisation, or -1.
std::atomic<int> requestedDevice{-1};

std::atomic<uint64_t> launchCount{0};

/// Pooled streams (value: whether handed out) and events.
struct Pools {
  std::mutex streamMutex;
  std::vector<CUstream> freeStreams;
  std::unordered_map<CUstream, bool> streamInUse;
  std::mutex eventMutex;
  std::vector<CUevent> freeEvents;
};

Pools &pools() {
  static Pools *instance = new Pools();
  return *instance;
}

/// Parses TSMLIR_CUDA_DEVICE; false when it is set but not an ordinal.
bool deviceFromEnvironment(int &ordinal, std::string &text) {
  const char *value = std::getenv("TSMLIR_CUDA_DEVICE");
  if (!value || !*value)
    return true;
  text = value;
  char *end = nullptr;
  long parsed = std::strtol(value, &end, 10);
  if (*end || parsed < 0 || parsed > INT_MAX)
    return false;
  ordinal = static_cast<int>(parsed);
  return true;
}

/// Opens the driver and picks the device; on failure sets the state's error.
void initialize(InitState &state) {
  auto fail = [&state](const std::string &reason) {
    state.code = TSMLIR_CUDA_ERROR_NO_DEVICE;
    state.message = "no CUDA driver/device found (" + reason + ")";
  };
  std::string error;
  const DriverApi *api = openDriver(error);
  if (!api)
    return fail(error);
  // Held by the state (openDriver's table is never freed) even when no device
  // is found below, so that it is not leaked.
  state.device.api = api;
  if (CUresult result = api->cuInit(0))
    return fail("cuInit: " + errorName(api, result));
  int count = 0;
  if (CUresult result = api->cuDeviceGetCount(&count))
    return fail("cuDeviceGetCount: " + errorName(api, result));
  if (count <= 0)
    return fail("cuDeviceGetCount: 0 devices");

  int ordinal = requestedDevice.load() >= 0 ? requestedDevice.load() : 0;
  std::string text;
  if (!deviceFromEnvironment(ordinal, text))
    return fail("TSMLIR_CUDA_DEVICE=" + text + " is not a device ordinal");
  if (ordinal >= count)
    return fail("device " + std::to_string(ordinal) + " requested, " +
                std::to_string(count) + " found");
  Device &dev = state.device;
  dev.ordinal = ordinal;
  if (CUresult result = api->cuDeviceGet(&dev.device, ordinal))
    return fail("cuDeviceGet: " + errorName(api, result));
  if (CUresult result = api->cuDevicePrimaryCtxRetain(&dev.context, dev.device))
    return fail("cuDevicePrimaryCtxRetain: " + errorName(api, result));
}

/// After work queued on `stream`: waits for it when `stream` is the legacy
/// stream, the synchronous form of the copies and fills.
int finishIfSynchronous(const Device &dev, CUstream stream) {
  if (stream)
    return TSMLIR_CUDA_SUCCESS;
  return checkDriver(dev, dev.api->cuStreamSynchronize(nullptr),
                     "cuStreamSynchronize");
}

int nullArgument(const char *function) {
  return setError(TSMLIR_CUDA_ERROR_INVALID_VALUE,
                  std::string(function) + ": a required argument is NULL");
}

CUstream asStream(void *stream) { return static_cast<CUstream>(stream); }
CUevent asEvent(void *event) { return static_cast<CUevent>(event); }
} // namespace

//===----------------------------------------------------------------------===//
// Shared internals
//===----------------------------------------------------------------------===//

namespace tsmlir::cuda {

const Device *acquireDevice(int &code) {
  InitState &state = initState();
  std::call_once(state.once, [&state] {
    initialize(state);
    state.done.store(true, std::memory_order_release);
  });
  if (state.code) {
    code = setError(state.code, state.message);
    return nullptr;
  }
  const Device &dev = state.device;
  CUcontext current = nullptr;
  if (dev.api->cuCtxGetCurrent(&current) != CUDA_SUCCESS ||
      current != dev.context) {
    code = checkDriver(dev, dev.api->cuCtxSetCurrent(dev.context),
                       "cuCtxSetCurrent");
    if (code)
      return nullptr;
  }
  code = TSMLIR_CUDA_SUCCESS;
  return &dev;
}

const Device *initializedDevice() {
  InitState &state = initState();
  if (!state.done.load(std::memory_order_acquire) || state.code)
    return nullptr;
  return &state.device;
}

int setError(int code, std::string message) {
  if (!lastError) {
    (void)&lastErrorOwner; // Frees the string when the thread ends.
    lastError = new std::string();
  }
  *lastError = std::move(message);
  return code;
}

std::string driverMessage(const Device &dev, const char *call,
                          CUresult result) {
  return std::string(call) + ": " + errorName(dev.api, result);
}

int checkDriver(const Device &dev, CUresult result, const char *call) {
  if (result == CUDA_SUCCESS)
    return TSMLIR_CUDA_SUCCESS;
  return setError(TSMLIR_CUDA_ERROR_DRIVER, driverMessage(dev, call, result));
}

int takeSyncEvent(const Device &dev, CUevent &event) {
  Pools &p = pools();
  {
    std::lock_guard<std::mutex> lock(p.eventMutex);
    if (!p.freeEvents.empty()) {
      event = p.freeEvents.back();
      p.freeEvents.pop_back();
      return TSMLIR_CUDA_SUCCESS;
    }
  }
  return checkDriver(dev,
                     dev.api->cuEventCreate(&event, CU_EVENT_DISABLE_TIMING),
                     "cuEventCreate");
}

void returnSyncEvent(CUevent event) {
  Pools &p = pools();
  std::lock_guard<std::mutex> lock(p.eventMutex);
  p.freeEvents.push_back(event);
}

int takeStream(const Device &dev, CUstream &stream) {
  Pools &p = pools();
  {
    std::lock_guard<std::mutex> lock(p.streamMutex);
    if (!p.freeStreams.empty()) {
      stream = p.freeStreams.back();
      p.freeStreams.pop_back();
      p.streamInUse[stream] = true;
      return TSMLIR_CUDA_SUCCESS;
    }
  }
  // Blocking streams: they order with the legacy stream.
  if (int code =
          checkDriver(dev, dev.api->cuStreamCreate(&stream, CU_STREAM_DEFAULT),
                      "cuStreamCreate"))
    return code;
  std::lock_guard<std::mutex> lock(p.streamMutex);
  p.streamInUse[stream] = true;
  return TSMLIR_CUDA_SUCCESS;
}

int returnStream(CUstream stream) {
  Pools &p = pools();
  std::lock_guard<std::mutex> lock(p.streamMutex);
  auto it = p.streamInUse.find(stream);
  if (it == p.streamInUse.end() || !it->second)
    return setError(TSMLIR_CUDA_ERROR_INVALID_VALUE,
                    "tsmlirCudaStreamDestroy: the stream is not one the "
                    "runtime handed out, or was returned already");
  it->second = false;
  p.freeStreams.push_back(stream);
  return TSMLIR_CUDA_SUCCESS;
}

CachingAllocator &allocator() {
  static CachingAllocator *instance = new CachingAllocator();
  return *instance;
}

ModuleCache &moduleCache() {
  static ModuleCache *instance = new ModuleCache();
  return *instance;
}

} // namespace tsmlir::cuda

//===----------------------------------------------------------------------===//
// Errors, initialisation and the device
//===----------------------------------------------------------------------===//

extern "C" {

const char *tsmlirCudaGetLastError(void) {
  return lastError ? lastError->c_str() : "";
}

const char *tsmlirCudaErrorName(int code) {
  switch (code) {
  case TSMLIR_CUDA_SUCCESS:
    return "TSMLIR_CUDA_SUCCESS";
  case TSMLIR_CUDA_ERROR_NO_DEVICE:
    return "TSMLIR_CUDA_ERROR_NO_DEVICE";
  case TSMLIR_CUDA_ERROR_DRIVER:
    return "TSMLIR_CUDA_ERROR_DRIVER";
  case TSMLIR_CUDA_ERROR_OUT_OF_MEMORY:
    return "TSMLIR_CUDA_ERROR_OUT_OF_MEMORY";
  case TSMLIR_CUDA_ERROR_INVALID_VALUE:
    return "TSMLIR_CUDA_ERROR_INVALID_VALUE";
  case TSMLIR_CUDA_ERROR_MODULE_LOAD:
    return "TSMLIR_CUDA_ERROR_MODULE_LOAD";
  case TSMLIR_CUDA_ERROR_NOT_FOUND:
    return "TSMLIR_CUDA_ERROR_NOT_FOUND";
  case TSMLIR_CUDA_ERROR_NOT_SUPPORTED:
    return "TSMLIR_CUDA_ERROR_NOT_SUPPORTED";
  default:
    return "TSMLIR_CUDA_ERROR_UNKNOWN";
  }
}

int tsmlirCudaInit(void) {
  int code;
  acquireDevice(code);
  return code;
}

int tsmlirCudaDeviceName(char *buf, size_t size) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev)
    return code;
  if (!buf || size == 0)
    return nullArgument("tsmlirCudaDeviceName");
  char name[256] = {};
  if ((code = checkDriver(
           *dev, dev->api->cuDeviceGetName(name, sizeof(name) - 1, dev->device),
           "cuDeviceGetName")))
    return code;
  std::strncpy(buf, name, size - 1);
  buf[size - 1] = '\0';
  return TSMLIR_CUDA_SUCCESS;
}

int tsmlirCudaGetDeviceInfo(TsmlirCudaDeviceInfo *info) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev)
    return code;
  if (!info)
    return nullArgument("tsmlirCudaGetDeviceInfo");
  *info = TsmlirCudaDeviceInfo();
  info->ordinal = dev->ordinal;
  const struct {
    int *field;
    int attribute;
  } attributes[] = {
      {&info->computeCapabilityMajor,
       CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR},
      {&info->computeCapabilityMinor,
       CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR},
      {&info->multiprocessorCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
      {&info->maxThreadsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
      {&info->warpSize, CU_DEVICE_ATTRIBUTE_WARP_SIZE},
      {&info->sharedMemoryPerBlock,
       CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK},
      {&info->sharedMemoryPerBlockOptin,
       CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN},
      {&info->l2CacheBytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE},
      {&info->clockRateKHz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE},
      {&info->memoryClockRateKHz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE},
      {&info->memoryBusWidthBits, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH},
  };
  const DriverApi &api = *dev->api;
  for (const auto &a : attributes)
    if ((code = checkDriver(
             *dev, api.cuDeviceGetAttribute(a.field, a.attribute, dev->device),
             "cuDeviceGetAttribute")))
      return code;
  size_t totalMemory = 0;
  if ((code = checkDriver(*dev, api.cuDeviceTotalMem(&totalMemory, dev->device),
                          "cuDeviceTotalMem_v2")))
    return code;
  info->totalGlobalMemory = totalMemory;
  return checkDriver(*dev, api.cuDriverGetVersion(&info->driverVersion),
                     "cuDriverGetVersion");
}

int tsmlirCudaDeviceSynchronize(void) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev)
    return code;
  return checkDriver(*dev, dev->api->cuCtxSynchronize(), "cuCtxSynchronize");
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

int tsmlirCudaMalloc(void **ptr, size_t bytes) {
  return tsmlirCudaMallocAsync(ptr, bytes, nullptr);
}

int tsmlirCudaFree(void *ptr) { return tsmlirCudaFreeAsync(ptr, nullptr); }

int tsmlirCudaMallocAsync(void **ptr, size_t bytes, void *stream) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev) {
    if (ptr)
      *ptr = nullptr;
    return code;
  }
  return allocator().allocate(*dev, ptr, bytes, asStream(stream));
}

int tsmlirCudaFreeAsync(void *ptr, void *stream) {
  if (!ptr)
    return TSMLIR_CUDA_SUCCESS;
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev)
    return code;
  return allocator().free(*dev, ptr, asStream(stream));
}

int tsmlirCudaEmptyCache(void) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev)
    return code;
  return allocator().emptyCache(*dev);
}

int tsmlirCudaMemoryStats(TsmlirCudaMemoryStats *stats) {
  if (!stats)
    return nullArgument("tsmlirCudaMemoryStats");
  *stats = allocator().stats();
  return TSMLIR_CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Copies and fills
//===----------------------------------------------------------------------===//

int tsmlirCudaMemcpyHtoD(void *dst, const void *src, size_t bytes,
                         void *stream) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev || bytes == 0)
    return code;
  if (!dst || !src)
    return nullArgument("tsmlirCudaMemcpyHtoD");
  CUstream s = asStream(stream);
  if ((code = checkDriver(
           *dev, dev->api->cuMemcpyHtoDAsync(toDevicePtr(dst), src, bytes, s),
           "cuMemcpyHtoDAsync_v2")))
    return code;
  return finishIfSynchronous(*dev, s);
}

int tsmlirCudaMemcpyDtoH(void *dst, const void *src, size_t bytes,
                         void *stream) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev || bytes == 0)
    return code;
  if (!dst || !src)
    return nullArgument("tsmlirCudaMemcpyDtoH");
  CUstream s = asStream(stream);
  if ((code = checkDriver(
           *dev, dev->api->cuMemcpyDtoHAsync(dst, toDevicePtr(src), bytes, s),
           "cuMemcpyDtoHAsync_v2")))
    return code;
  return finishIfSynchronous(*dev, s);
}

int tsmlirCudaMemcpyDtoD(void *dst, const void *src, size_t bytes,
                         void *stream) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev || bytes == 0)
    return code;
  if (!dst || !src)
    return nullArgument("tsmlirCudaMemcpyDtoD");
  CUstream s = asStream(stream);
  if ((code = checkDriver(*dev,
                          dev->api->cuMemcpyAsync(toDevicePtr(dst),
                                                  toDevicePtr(src), bytes, s),
                          "cuMemcpyAsync")))
    return code;
  return finishIfSynchronous(*dev, s);
}

int tsmlirCudaMemset32(void *dst, uint32_t value, size_t count, void *stream) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev || count == 0)
    return code;
  if (!dst)
    return nullArgument("tsmlirCudaMemset32");
  CUstream s = asStream(stream);
  if ((code = checkDriver(
           *dev, dev->api->cuMemsetD32Async(toDevicePtr(dst), value, count, s),
           "cuMemsetD32Async")))
    return code;
  return finishIfSynchronous(*dev, s);
}

int tsmlirCudaMemset16(void *dst, uint16_t value, size_t count, void *stream) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev || count == 0)
    return code;
  if (!dst)
    return nullArgument("tsmlirCudaMemset16");
  CUstream s = asStream(stream);
  if ((code = checkDriver(
           *dev, dev->api->cuMemsetD16Async(toDevicePtr(dst), value, count, s),
           "cuMemsetD16Async")))
    return code;
  return finishIfSynchronous(*dev, s);
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

int tsmlirCudaStreamCreate(void **stream) {
  if (!stream)
    return nullArgument("tsmlirCudaStreamCreate");
  *stream = nullptr;
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev)
    return code;
  CUstream created = nullptr;
  if ((code = takeStream(*dev, created)))
    return code;
  *stream = created;
  return TSMLIR_CUDA_SUCCESS;
}

int tsmlirCudaStreamDestroy(void *stream) {
  if (!stream)
    return nullArgument("tsmlirCudaStreamDestroy");
  return returnStream(asStream(stream));
}

int tsmlirCudaStreamSynchronize(void *stream) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev)
    return code;
  return checkDriver(*dev, dev->api->cuStreamSynchronize(asStream(stream)),
                     "cuStreamSynchronize");
}

int tsmlirCudaStreamWaitEvent(void *stream, void *event) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev)
    return code;
  if (!event)
    return nullArgument("tsmlirCudaStreamWaitEvent");
  return checkDriver(
      *dev, dev->api->cuStreamWaitEvent(asStream(stream), asEvent(event), 0),
      "cuStreamWaitEvent");
}

int tsmlirCudaEventCreate(void **event) {
  if (!event)
    return nullArgument("tsmlirCudaEventCreate");
  *event = nullptr;
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev)
    return code;
  CUevent created = nullptr;
  if ((code = checkDriver(*dev,
                          dev->api->cuEventCreate(&created, CU_EVENT_DEFAULT),
                          "cuEventCreate")))
    return code;
  *event = created;
  return TSMLIR_CUDA_SUCCESS;
}

int tsmlirCudaEventRecord(void *event, void *stream) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev)
    return code;
  if (!event)
    return nullArgument("tsmlirCudaEventRecord");
  return checkDriver(*dev,
                     dev->api->cuEventRecord(asEvent(event), asStream(stream)),
                     "cuEventRecord");
}

int tsmlirCudaEventSynchronize(void *event) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev)
    return code;
  if (!event)
    return nullArgument("tsmlirCudaEventSynchronize");
  return checkDriver(*dev, dev->api->cuEventSynchronize(asEvent(event)),
                     "cuEventSynchronize");
}

int tsmlirCudaEventElapsedMs(float *ms, void *start, void *end) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev)
    return code;
  if (!ms || !start || !end)
    return nullArgument("tsmlirCudaEventElapsedMs");
  return checkDriver(
      *dev, dev->api->cuEventElapsedTime(ms, asEvent(start), asEvent(end)),
      "cuEventElapsedTime");
}

int tsmlirCudaEventDestroy(void *event) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev)
    return code;
  if (!event)
    return nullArgument("tsmlirCudaEventDestroy");
  return checkDriver(*dev, dev->api->cuEventDestroy(asEvent(event)),
                     "cuEventDestroy_v2");
}

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

int tsmlirCudaModuleLoad(void **module, const void *image, size_t size) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev) {
    if (module)
      *module = nullptr;
    return code;
  }
  return moduleCache().load(*dev, module, image, size, /*optLevel=*/-1);
}

int tsmlirCudaModuleUnload(void *module) {
  int code;
  const Device *dev = acquireDevice(code);
  // At exit the driver may be torn down before the global destructors of
  // compiled code unload their modules, and no context can be made current:
  // the module cache still forgets the module.
  if (!dev && !(dev = initializedDevice()))
    return code;
  return moduleCache().unload(*dev, module);
}

int tsmlirCudaModuleGetFunction(void **function, void *module,
                                const char *name) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev) {
    if (function)
      *function = nullptr;
    return code;
  }
  return moduleCache().getFunction(*dev, function, module, name);
}

int tsmlirCudaLaunch(void *function, unsigned gridX, unsigned gridY,
                     unsigned gridZ, unsigned blockX, unsigned blockY,
                     unsigned blockZ, unsigned sharedMemBytes, void *stream,
                     void **params, void **extra) {
  int code;
  const Device *dev = acquireDevice(code);
  if (!dev)
    return code;
  if (!function)
    return setError(TSMLIR_CUDA_ERROR_INVALID_VALUE,
                    "kernel launch with a NULL function");
  const DriverApi &api = *dev->api;
  auto fn = static_cast<CUfunction>(function);
  // More than 48 KiB of dynamic shared memory must be asked for.
  if (sharedMemBytes > 48 * 1024 && api.cuFuncSetAttribute) {
    if ((code = checkDriver(*dev,
                            api.cuFuncSetAttribute(
                                fn,
                                CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                static_cast<int>(sharedMemBytes)),
                            "cuFuncSetAttribute")))
      return code;
  }
  CUresult result =
      api.cuLaunchKernel(fn, gridX, gridY, gridZ, blockX, blockY, blockZ,
                         sharedMemBytes, asStream(stream), params, extra);
  if (result != CUDA_SUCCESS)
    return setError(
        TSMLIR_CUDA_ERROR_DRIVER,
        driverMessage(*dev, "cuLaunchKernel", result) + " (grid " +
            std::to_string(gridX) + "x" + std::to_string(gridY) + "x" +
            std::to_string(gridZ) + ", block " + std::to_string(blockX) + "x" +
            std::to_string(blockY) + "x" + std::to_string(blockZ) + ", " +
            std::to_string(sharedMemBytes) + " bytes of shared memory)");
  launchCount.fetch_add(1, std::memory_order_relaxed);
  return TSMLIR_CUDA_SUCCESS;
}

uint64_t tsmlirCudaLaunchCount(void) {
  return launchCount.load(std::memory_order_relaxed);
}

void tsmlirCudaResetLaunchCount(void) {
  launchCount.store(0, std::memory_order_relaxed);
}

} // extern "C"

//===----------------------------------------------------------------------===//
// The default device (for mgpuSetDefaultDevice)
//===----------------------------------------------------------------------===//

namespace tsmlir::cuda {
int requestDevice(int32_t device) {
  if (device < 0)
    return setError(TSMLIR_CUDA_ERROR_INVALID_VALUE,
                    "mgpuSetDefaultDevice: negative device " +
                        std::to_string(device));
  requestedDevice.store(device);
  const Device *dev = initializedDevice();
  if (dev && dev->ordinal != device)
    return setError(TSMLIR_CUDA_ERROR_INVALID_VALUE,
                    "mgpuSetDefaultDevice(" + std::to_string(device) +
                        "): the runtime already uses device " +
                        std::to_string(dev->ordinal));
  return TSMLIR_CUDA_SUCCESS;
}
} // namespace tsmlir::cuda
