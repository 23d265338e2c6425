//===- FakeCuda.cpp - A CUDA driver on host memory, for tests -------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// libfakecuda.so: the driver entry points libtsmlir_cuda_runtime resolves,
// implemented on the host so that the runtime can be tested without a GPU
// (TSMLIR_CUDA_DRIVER points the runtime at it). Device memory is malloc'd,
// copies and fills are immediate, streams and events are counters. Calls
// check their arguments and that cuInit ran and the primary context is
// current on the calling thread, as the real driver requires.
//
//  - Module images: text starting with "//" or ".version" is PTX, text
//    starting with "\x7f" "ELF" a cubin; anything else fails with
//    CUDA_ERROR_INVALID_PTX and a line in the JIT error log. A kernel exists
//    when its name occurs in the image's text.
//  - cuLaunchKernel checks the function, dimensions and stream, and counts.
//  - FAKECUDA_NO_DEVICE=1: cuInit fails with CUDA_ERROR_NO_DEVICE.
//  - FAKECUDA_OOM_AFTER=N: cuMemAlloc_v2 fails with CUDA_ERROR_OUT_OF_MEMORY
//    while N allocations are live.
//  - FAKECUDA_DEVICE_COUNT=N: N devices (default 1).
//  - fakecudaCounter("name") reads a counter (see the table below).
//
// Built with FAKECUDA_INCOMPLETE it lacks cuLaunchKernel, to test a driver
// without a required entry point. Never installed, never used outside tests.
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

// The handle types, named as in cuda.h.
struct CUctx_st {};
struct CUfunc_st;
struct CUmod_st {
  std::string text;
  std::map<std::string, CUfunc_st *> functions;
};
struct CUfunc_st {
  CUmod_st *module;
  std::string name;
};
struct CUstream_st {
  unsigned flags;
};
struct CUevent_st {
  unsigned flags;
  bool recorded = false;
  uint64_t stamp = 0;
};

namespace {
using CUresult = int;
using CUdeviceptr = unsigned long long;

constexpr CUresult kSuccess = 0;
constexpr CUresult kInvalidValue = 1;
constexpr CUresult kOutOfMemory = 2;
constexpr CUresult kNotInitialized = 3;
constexpr CUresult kDeinitialized = 4;
constexpr CUresult kNoDevice = 100;
constexpr CUresult kInvalidDevice = 101;
constexpr CUresult kInvalidImage = 200;
constexpr CUresult kInvalidContext = 201;
constexpr CUresult kInvalidPtx = 218;
constexpr CUresult kInvalidHandle = 400;
constexpr CUresult kNotFound = 500;

/// The counters fakecudaCounter reads, by name.
struct Counters {
  std::atomic<uint64_t> init, ctxRetain, ctxSetCurrent, memAlloc, memFree,
      liveAllocs, managedAlloc, moduleLoad, moduleUnload, moduleGetFunction,
      launch, streamCreate, streamDestroy, streamNonBlocking, streamWaitEvent,
      streamSync, eventCreate, eventDestroy, eventRecord, eventSync, ctxSync,
      hostRegisterBytes, hostUnregister, lastGridX, lastBlockX, lastSharedMem,
      lastJitOptLevel, funcSetAttribute;
};
Counters counters;

/// The driver's objects. Never destroyed: calls may come from global
/// destructors after the library's own (they get CUDA_ERROR_DEINITIALIZED).
struct State {
  std::mutex mutex;
  std::map<uintptr_t, size_t> allocations; // device memory: address -> size
  std::set<CUmod_st *> modules;
  std::set<CUfunc_st *> functions;
  std::set<CUstream_st *> streams;
  std::set<CUevent_st *> events;
};
State &state = *new State();
std::mutex &mutex = state.mutex;
std::map<uintptr_t, size_t> &allocations = state.allocations;
std::set<CUmod_st *> &modules = state.modules;
std::set<CUfunc_st *> &functions = state.functions;
std::set<CUstream_st *> &streams = state.streams;
std::set<CUevent_st *> &events = state.events;
std::atomic<bool> initialized{false};
/// Set when the library is unloaded or the process exits, as the real
/// driver tears itself down at exit.
std::atomic<bool> deinitialized{false};
__attribute__((destructor)) void tearDown() { deinitialized = true; }
CUctx_st primaryContextObject;
CUctx_st *const primaryContext = &primaryContextObject;
thread_local CUctx_st *currentContext = nullptr;

long envNumber(const char *name, long fallback) {
  const char *value = std::getenv(name);
  return value && *value ? std::strtol(value, nullptr, 10) : fallback;
}

int deviceCount() {
  return static_cast<int>(envNumber("FAKECUDA_DEVICE_COUNT", 1));
}

/// What every call but cuInit and the device queries requires.
CUresult ready() {
  if (deinitialized)
    return kDeinitialized;
  if (!initialized)
    return kNotInitialized;
  if (currentContext != primaryContext)
    return kInvalidContext;
  return kSuccess;
}

bool validStream(CUstream_st *stream) {
  return !stream || streams.count(stream);
}

/// Whether [ptr, ptr + bytes) lies in one live allocation.
bool inDeviceMemory(CUdeviceptr ptr, size_t bytes) {
  auto it = allocations.upper_bound(static_cast<uintptr_t>(ptr));
  if (it == allocations.begin())
    return false;
  --it;
  return ptr >= it->first && ptr + bytes <= it->first + it->second;
}

bool startsWith(const char *text, const char *prefix) {
  return std::strncmp(text, prefix, std::strlen(prefix)) == 0;
}

CUresult loadModule(CUmod_st **module, const void *image, unsigned numOptions,
                    const int *options, void **values) {
  if (CUresult r = ready())
    return r;
  if (!module || !image)
    return kInvalidValue;
  char *log = nullptr;
  size_t logSize = 0;
  for (unsigned i = 0; i < numOptions; ++i) {
    if (options[i] == 5)
      log = static_cast<char *>(values[i]);
    else if (options[i] == 6)
      logSize = reinterpret_cast<uintptr_t>(values[i]);
    else if (options[i] == 7)
      counters.lastJitOptLevel = reinterpret_cast<uintptr_t>(values[i]);
  }
  const char *text = static_cast<const char *>(image);
  if (!startsWith(text, "//") && !startsWith(text, ".version") &&
      !startsWith(text, "\x7f"
                        "ELF")) {
    if (log && logSize)
      std::snprintf(log, logSize,
                    "fake-ptxas: line 1: expected '.version' or a comment, "
                    "found '%.16s'\nfake-ptxas: 1 error\n",
                    text);
    return kInvalidPtx;
  }
  std::lock_guard<std::mutex> lock(mutex);
  auto *loaded = new CUmod_st{text, {}};
  modules.insert(loaded);
  ++counters.moduleLoad;
  *module = loaded;
  return kSuccess;
}

CUresult copy(void *dst, const void *src, size_t bytes, CUstream_st *stream) {
  if (CUresult r = ready())
    return r;
  std::lock_guard<std::mutex> lock(mutex);
  if (!dst || !src || !validStream(stream))
    return kInvalidValue;
  std::memmove(dst, src, bytes);
  return kSuccess;
}
} // namespace

//===----------------------------------------------------------------------===//
// Test access
//===----------------------------------------------------------------------===//

FAKE_EXPORT unsigned long long fakecudaCounter(const char *name) {
  const struct {
    const char *name;
    std::atomic<uint64_t> &value;
  } table[] = {
      {"init", counters.init},
      {"ctx_retain", counters.ctxRetain},
      {"ctx_set_current", counters.ctxSetCurrent},
      {"mem_alloc", counters.memAlloc},
      {"mem_free", counters.memFree},
      {"live_allocs", counters.liveAllocs},
      {"managed_alloc", counters.managedAlloc},
      {"module_load", counters.moduleLoad},
      {"module_unload", counters.moduleUnload},
      {"module_get_function", counters.moduleGetFunction},
      {"launch", counters.launch},
      {"stream_create", counters.streamCreate},
      {"stream_destroy", counters.streamDestroy},
      {"stream_non_blocking", counters.streamNonBlocking},
      {"stream_wait_event", counters.streamWaitEvent},
      {"stream_sync", counters.streamSync},
      {"event_create", counters.eventCreate},
      {"event_destroy", counters.eventDestroy},
      {"event_record", counters.eventRecord},
      {"event_sync", counters.eventSync},
      {"ctx_sync", counters.ctxSync},
      {"host_register_bytes", counters.hostRegisterBytes},
      {"host_unregister", counters.hostUnregister},
      {"last_grid_x", counters.lastGridX},
      {"last_block_x", counters.lastBlockX},
      {"last_shared_mem", counters.lastSharedMem},
      {"last_jit_opt_level", counters.lastJitOptLevel},
      {"func_set_attribute", counters.funcSetAttribute},
  };
  for (const auto &entry : table)
    if (std::strcmp(entry.name, name) == 0)
      return entry.value.load();
  std::fprintf(stderr, "fakecuda: no counter '%s'\n", name);
  std::abort();
}

//===----------------------------------------------------------------------===//
// Initialisation, devices, contexts, errors
//===----------------------------------------------------------------------===//

FAKE_EXPORT CUresult cuInit(unsigned flags) {
  if (flags != 0)
    return kInvalidValue;
  if (envNumber("FAKECUDA_NO_DEVICE", 0))
    return kNoDevice;
  ++counters.init;
  initialized = true;
  return kSuccess;
}

FAKE_EXPORT CUresult cuDriverGetVersion(int *version) {
  if (!version)
    return kInvalidValue;
  *version = 12040;
  return kSuccess;
}

FAKE_EXPORT CUresult cuDeviceGetCount(int *count) {
  if (!initialized)
    return kNotInitialized;
  *count = deviceCount();
  return kSuccess;
}

FAKE_EXPORT CUresult cuDeviceGet(int *device, int ordinal) {
  if (!initialized)
    return kNotInitialized;
  if (ordinal < 0 || ordinal >= deviceCount())
    return kInvalidDevice;
  *device = ordinal;
  return kSuccess;
}

FAKE_EXPORT CUresult cuDeviceGetName(char *name, int len, int device) {
  if (!initialized)
    return kNotInitialized;
  if (!name || len <= 0 || device < 0 || device >= deviceCount())
    return kInvalidValue;
  std::snprintf(name, len, "Fake CUDA Device %d", device);
  return kSuccess;
}

FAKE_EXPORT CUresult cuDeviceGetAttribute(int *value, int attribute,
                                          int device) {
  if (!initialized)
    return kNotInitialized;
  if (!value || device < 0 || device >= deviceCount())
    return kInvalidValue;
  // An H100's values, by CUdevice_attribute.
  static const struct {
    int attribute, value;
  } attributes[] = {
      {1, 1024},        // max threads per block
      {8, 48 * 1024},   // shared memory per block
      {10, 32},         // warp size
      {13, 1980000},    // clock rate, kHz
      {16, 132},        // multiprocessors
      {36, 2619000},    // memory clock rate, kHz
      {37, 5120},       // memory bus width, bits
      {38, 50 << 20},   // L2 cache bytes
      {75, 9},          // compute capability major
      {76, 0},          // compute capability minor
      {97, 227 * 1024}, // opt-in shared memory per block
  };
  *value = 0;
  for (const auto &entry : attributes)
    if (entry.attribute == attribute)
      *value = entry.value;
  return kSuccess;
}

FAKE_EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, int device) {
  if (!initialized)
    return kNotInitialized;
  if (!bytes || device < 0 || device >= deviceCount())
    return kInvalidValue;
  *bytes = size_t(80) << 30;
  return kSuccess;
}

FAKE_EXPORT CUresult cuDevicePrimaryCtxRetain(CUctx_st **context, int device) {
  if (!initialized)
    return kNotInitialized;
  if (!context || device < 0 || device >= deviceCount())
    return kInvalidValue;
  ++counters.ctxRetain;
  *context = primaryContext;
  return kSuccess;
}

FAKE_EXPORT CUresult cuCtxGetCurrent(CUctx_st **context) {
  if (deinitialized)
    return kDeinitialized;
  if (!initialized)
    return kNotInitialized;
  *context = currentContext;
  return kSuccess;
}

FAKE_EXPORT CUresult cuCtxSetCurrent(CUctx_st *context) {
  if (deinitialized)
    return kDeinitialized;
  if (!initialized)
    return kNotInitialized;
  if (context && context != primaryContext)
    return kInvalidContext;
  ++counters.ctxSetCurrent;
  currentContext = context;
  return kSuccess;
}

FAKE_EXPORT CUresult cuCtxSynchronize() {
  if (CUresult r = ready())
    return r;
  ++counters.ctxSync;
  return kSuccess;
}

FAKE_EXPORT CUresult cuGetErrorName(CUresult error, const char **name) {
  static const struct {
    CUresult code;
    const char *name;
  } names[] = {
      {kSuccess, "CUDA_SUCCESS"},
      {kInvalidValue, "CUDA_ERROR_INVALID_VALUE"},
      {kOutOfMemory, "CUDA_ERROR_OUT_OF_MEMORY"},
      {kNotInitialized, "CUDA_ERROR_NOT_INITIALIZED"},
      {kDeinitialized, "CUDA_ERROR_DEINITIALIZED"},
      {kNoDevice, "CUDA_ERROR_NO_DEVICE"},
      {kInvalidDevice, "CUDA_ERROR_INVALID_DEVICE"},
      {kInvalidImage, "CUDA_ERROR_INVALID_IMAGE"},
      {kInvalidContext, "CUDA_ERROR_INVALID_CONTEXT"},
      {kInvalidPtx, "CUDA_ERROR_INVALID_PTX"},
      {kInvalidHandle, "CUDA_ERROR_INVALID_HANDLE"},
      {kNotFound, "CUDA_ERROR_NOT_FOUND"},
  };
  *name = nullptr;
  for (const auto &entry : names)
    if (entry.code == error)
      *name = entry.name;
  return *name ? kSuccess : kInvalidValue;
}

FAKE_EXPORT CUresult cuGetErrorString(CUresult error, const char **text) {
  return cuGetErrorName(error, text);
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

FAKE_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes) {
  if (CUresult r = ready())
    return r;
  if (!ptr || bytes == 0)
    return kInvalidValue;
  std::lock_guard<std::mutex> lock(mutex);
  long limit = envNumber("FAKECUDA_OOM_AFTER", -1);
  if (limit >= 0 && allocations.size() >= static_cast<size_t>(limit))
    return kOutOfMemory;
  void *memory = std::malloc(bytes);
  if (!memory)
    return kOutOfMemory;
  allocations[reinterpret_cast<uintptr_t>(memory)] = bytes;
  ++counters.memAlloc;
  counters.liveAllocs = allocations.size();
  *ptr = reinterpret_cast<uintptr_t>(memory);
  return kSuccess;
}

FAKE_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *ptr, size_t bytes,
                                       unsigned flags) {
  if (flags != 1)
    return kInvalidValue;
  CUresult r = cuMemAlloc_v2(ptr, bytes);
  if (r == kSuccess)
    ++counters.managedAlloc;
  return r;
}

FAKE_EXPORT CUresult cuMemFree_v2(CUdeviceptr ptr) {
  if (CUresult r = ready())
    return r;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = allocations.find(static_cast<uintptr_t>(ptr));
  if (it == allocations.end())
    return kInvalidValue;
  std::free(reinterpret_cast<void *>(it->first));
  allocations.erase(it);
  ++counters.memFree;
  counters.liveAllocs = allocations.size();
  return kSuccess;
}

FAKE_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src,
                                          size_t bytes, CUstream_st *stream) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!inDeviceMemory(dst, bytes))
      return kInvalidValue;
  }
  return copy(reinterpret_cast<void *>(dst), src, bytes, stream);
}

FAKE_EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src,
                                          size_t bytes, CUstream_st *stream) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!inDeviceMemory(src, bytes))
      return kInvalidValue;
  }
  return copy(dst, reinterpret_cast<void *>(src), bytes, stream);
}

FAKE_EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src,
                                   size_t bytes, CUstream_st *stream) {
  return copy(reinterpret_cast<void *>(dst), reinterpret_cast<void *>(src),
              bytes, stream);
}

template <typename T>
static CUresult fill(CUdeviceptr dst, T value, size_t count,
                     CUstream_st *stream) {
  if (CUresult r = ready())
    return r;
  std::lock_guard<std::mutex> lock(mutex);
  if (!validStream(stream) || !inDeviceMemory(dst, count * sizeof(T)))
    return kInvalidValue;
  T *data = reinterpret_cast<T *>(dst);
  for (size_t i = 0; i < count; ++i)
    data[i] = value;
  return kSuccess;
}

FAKE_EXPORT CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value,
                                      size_t count, CUstream_st *stream) {
  return fill<uint32_t>(dst, value, count, stream);
}

FAKE_EXPORT CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value,
                                      size_t count, CUstream_st *stream) {
  return fill<uint16_t>(dst, value, count, stream);
}

FAKE_EXPORT CUresult cuMemHostRegister_v2(void *ptr, size_t bytes,
                                          unsigned flags) {
  if (CUresult r = ready())
    return r;
  if (!ptr || bytes == 0 || flags != 0)
    return kInvalidValue;
  counters.hostRegisterBytes += bytes;
  return kSuccess;
}

FAKE_EXPORT CUresult cuMemHostUnregister(void *ptr) {
  if (CUresult r = ready())
    return r;
  if (!ptr)
    return kInvalidValue;
  ++counters.hostUnregister;
  return kSuccess;
}

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

FAKE_EXPORT CUresult cuModuleLoadData(CUmod_st **module, const void *image) {
  return loadModule(module, image, 0, nullptr, nullptr);
}

FAKE_EXPORT CUresult cuModuleLoadDataEx(CUmod_st **module, const void *image,
                                        unsigned numOptions, int *options,
                                        void **values) {
  return loadModule(module, image, numOptions, options, values);
}

FAKE_EXPORT CUresult cuModuleUnload(CUmod_st *m) {
  if (CUresult r = ready())
    return r;
  std::lock_guard<std::mutex> lock(mutex);
  if (!modules.erase(m))
    return kInvalidHandle;
  for (auto &entry : m->functions) {
    functions.erase(entry.second);
    delete entry.second;
  }
  delete m;
  ++counters.moduleUnload;
  return kSuccess;
}

FAKE_EXPORT CUresult cuModuleGetFunction(CUfunc_st **function, CUmod_st *m,
                                         const char *name) {
  if (CUresult r = ready())
    return r;
  std::lock_guard<std::mutex> lock(mutex);
  if (!function || !name || !modules.count(m))
    return kInvalidHandle;
  ++counters.moduleGetFunction;
  if (!*name || m->text.find(name) == std::string::npos)
    return kNotFound;
  CUfunc_st *&f = m->functions[name];
  if (!f) {
    f = new CUfunc_st{m, name};
    functions.insert(f);
  }
  *function = f;
  return kSuccess;
}

FAKE_EXPORT CUresult cuFuncSetAttribute(CUfunc_st *function, int attribute,
                                        int value) {
  if (CUresult r = ready())
    return r;
  std::lock_guard<std::mutex> lock(mutex);
  if (!functions.count(function) || attribute != 8 || value > 227 * 1024)
    return kInvalidValue;
  ++counters.funcSetAttribute;
  return kSuccess;
}

#ifndef FAKECUDA_INCOMPLETE
FAKE_EXPORT CUresult cuLaunchKernel(CUfunc_st *function, unsigned gridX,
                                    unsigned gridY, unsigned gridZ,
                                    unsigned blockX, unsigned blockY,
                                    unsigned blockZ, unsigned sharedMemBytes,
                                    CUstream_st *stream, void **params,
                                    void **extra) {
  if (CUresult r = ready())
    return r;
  std::lock_guard<std::mutex> lock(mutex);
  if (!functions.count(function))
    return kInvalidHandle;
  bool dimensionsValid =
      gridX >= 1 && gridY >= 1 && gridZ >= 1 && gridX <= 0x7fffffffu &&
      gridY <= 65535 && gridZ <= 65535 && blockX >= 1 && blockY >= 1 &&
      blockZ >= 1 && blockZ <= 64 && uint64_t(blockX) * blockY * blockZ <= 1024;
  if (!dimensionsValid || sharedMemBytes > 227 * 1024 || !validStream(stream) ||
      (params && extra))
    return kInvalidValue;
  ++counters.launch;
  counters.lastGridX = gridX;
  counters.lastBlockX = blockX;
  counters.lastSharedMem = sharedMemBytes;
  return kSuccess;
}
#endif

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

FAKE_EXPORT CUresult cuStreamCreate(CUstream_st **stream, unsigned flags) {
  if (CUresult r = ready())
    return r;
  if (!stream || flags > 1)
    return kInvalidValue;
  std::lock_guard<std::mutex> lock(mutex);
  auto *s = new CUstream_st{flags};
  streams.insert(s);
  ++counters.streamCreate;
  if (flags == 1)
    ++counters.streamNonBlocking;
  *stream = s;
  return kSuccess;
}

FAKE_EXPORT CUresult cuStreamDestroy_v2(CUstream_st *stream) {
  if (CUresult r = ready())
    return r;
  std::lock_guard<std::mutex> lock(mutex);
  if (!streams.erase(stream))
    return kInvalidHandle;
  delete stream;
  ++counters.streamDestroy;
  return kSuccess;
}

FAKE_EXPORT CUresult cuStreamSynchronize(CUstream_st *stream) {
  if (CUresult r = ready())
    return r;
  std::lock_guard<std::mutex> lock(mutex);
  if (!validStream(stream))
    return kInvalidHandle;
  ++counters.streamSync;
  return kSuccess;
}

FAKE_EXPORT CUresult cuStreamWaitEvent(CUstream_st *stream, CUevent_st *event,
                                       unsigned flags) {
  if (CUresult r = ready())
    return r;
  std::lock_guard<std::mutex> lock(mutex);
  if (!validStream(stream) || !events.count(event) || flags != 0)
    return kInvalidHandle;
  ++counters.streamWaitEvent;
  return kSuccess;
}

FAKE_EXPORT CUresult cuEventCreate(CUevent_st **event, unsigned flags) {
  if (CUresult r = ready())
    return r;
  if (!event || (flags & ~3u))
    return kInvalidValue;
  std::lock_guard<std::mutex> lock(mutex);
  auto *e = new CUevent_st{flags};
  events.insert(e);
  ++counters.eventCreate;
  *event = e;
  return kSuccess;
}

FAKE_EXPORT CUresult cuEventDestroy_v2(CUevent_st *event) {
  if (CUresult r = ready())
    return r;
  std::lock_guard<std::mutex> lock(mutex);
  if (!events.erase(event))
    return kInvalidHandle;
  delete event;
  ++counters.eventDestroy;
  return kSuccess;
}

FAKE_EXPORT CUresult cuEventRecord(CUevent_st *e, CUstream_st *stream) {
  if (CUresult r = ready())
    return r;
  static uint64_t clock = 0;
  std::lock_guard<std::mutex> lock(mutex);
  if (!events.count(e) || !validStream(stream))
    return kInvalidHandle;
  e->recorded = true;
  e->stamp = ++clock;
  ++counters.eventRecord;
  return kSuccess;
}

FAKE_EXPORT CUresult cuEventSynchronize(CUevent_st *event) {
  if (CUresult r = ready())
    return r;
  std::lock_guard<std::mutex> lock(mutex);
  if (!events.count(event))
    return kInvalidHandle;
  ++counters.eventSync;
  return kSuccess;
}

FAKE_EXPORT CUresult cuEventQuery(CUevent_st *event) {
  if (CUresult r = ready())
    return r;
  std::lock_guard<std::mutex> lock(mutex);
  return events.count(event) ? kSuccess : kInvalidHandle;
}

FAKE_EXPORT CUresult cuEventElapsedTime(float *ms, CUevent_st *a,
                                        CUevent_st *b) {
  if (CUresult r = ready())
    return r;
  std::lock_guard<std::mutex> lock(mutex);
  if (!ms || !events.count(a) || !events.count(b))
    return kInvalidHandle;
  // Events without time stamps, or never recorded, have no elapsed time.
  if ((a->flags & 2) || (b->flags & 2) || !a->recorded || !b->recorded)
    return kInvalidHandle;
  *ms = 0.25f * static_cast<float>(b->stamp - a->stamp);
  return kSuccess;
}
