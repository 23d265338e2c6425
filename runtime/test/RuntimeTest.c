/*===- RuntimeTest.c - Tests of libtsmlir_cuda_runtime ----------*- C -*-===//
 *
 * Part of the tsmlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===//
 *
 * tsmlir-cuda-runtime-test MODE: exercises one part of the runtime, prints
 * what the lit tests in test/runtime check with FileCheck, and stops at the
 * first failed check with "FAIL: line N: ..." and exit status 1. Apart from
 * `probe`, the modes expect TSMLIR_CUDA_DRIVER to name libfakecuda.so, whose
 * counters (fakecudaCounter) they read.
 *
 *===----------------------------------------------------------------------===*/

#include "tsmlir/Runtime/CudaRuntime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(int line, const char *what) {
  printf("FAIL: line %d: %s (last error: %s)\n", line, what,
         tsmlirCudaGetLastError());
  fflush(stdout);
  exit(1);
}

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond))                                                               \
      fail(__LINE__, #cond);                                                   \
  } while (0)
#define CHECK_OK(call) CHECK((call) == TSMLIR_CUDA_SUCCESS)

typedef unsigned long long ull;

static char kPtx[] =
    "// PTX for the tests\n"
    ".version 8.0\n"
    ".target sm_90\n"
    ".visible .entry add_kernel(.param .u64 a, .param .u64 b) { ret; }\n"
    ".visible .entry scale_kernel(.param .u64 a) { ret; }\n";
static char kCubin[] = "\x7f"
                       "ELF a fake cubin with cubin_kernel";
static char kBadPtx[] = "garbage that is not PTX";

/* A counter of the fake driver, which the runtime has opened already. */
static ull counter(const char *name) {
  static ull (*read)(const char *);
  if (!read) {
    const char *path = getenv("TSMLIR_CUDA_DRIVER");
    void *library = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
    CHECK(library != NULL);
    *(void **)(&read) = dlsym(library, "fakecudaCounter");
    CHECK(read != NULL);
  }
  return read(name);
}

static TsmlirCudaMemoryStats stats(void) {
  TsmlirCudaMemoryStats s;
  CHECK_OK(tsmlirCudaMemoryStats(&s));
  return s;
}

static void printStats(const char *label) {
  TsmlirCudaMemoryStats s = stats();
  printf("%s: in use %llu in %llu, cached %llu in %llu, allocations %llu, "
         "cache hits %llu, driver allocations %llu, driver frees %llu, "
         "retries %llu\n",
         label, (ull)s.bytesInUse, (ull)s.blocksInUse, (ull)s.bytesCached,
         (ull)s.blocksCached, (ull)s.allocations, (ull)s.cacheHits,
         (ull)s.driverAllocations, (ull)s.driverFrees,
         (ull)s.outOfMemoryRetries);
}

static int takeSticky(const char *label) {
  char message[2048];
  int code = tsmlirCudaGetStickyError(message, sizeof(message));
  printf("%s: %s: %s\n", label, tsmlirCudaErrorName(code), message);
  CHECK(tsmlirCudaGetStickyError(NULL, 0) == TSMLIR_CUDA_SUCCESS);
  return code;
}

/*===--- init: initialisation succeeds or fails the same way twice --------===*/

static int modeInit(void) {
  char first[1024];
  int code = tsmlirCudaInit();
  snprintf(first, sizeof(first), "%s", tsmlirCudaGetLastError());
  CHECK(tsmlirCudaInit() == code);
  CHECK(strcmp(first, tsmlirCudaGetLastError()) == 0);
  if (code == TSMLIR_CUDA_SUCCESS) {
    printf("init: ok\n");
    return 0;
  }
  printf("init: %s: %s\n", tsmlirCudaErrorName(code), first);

  void *ptr = &code;
  CHECK(tsmlirCudaMalloc(&ptr, 16) == code);
  CHECK(ptr == NULL);
  CHECK(mgpuMemAlloc(16, NULL, false) == NULL);
  CHECK(mgpuModuleLoadJIT(kPtx, 2) == NULL);
  takeSticky("sticky");
  return 1;
}

/*===--- probe: whatever driver there is ----------------------------------===*/

static int modeProbe(void) {
  if (tsmlirCudaInit() != TSMLIR_CUDA_SUCCESS) {
    const char *message = tsmlirCudaGetLastError();
    CHECK(strncmp(message, "no CUDA driver/device found (", 29) == 0);
    printf("probe: unavailable: %s\n", message);
    return 0;
  }
  char name[256];
  CHECK_OK(tsmlirCudaDeviceName(name, sizeof(name)));
  printf("probe: device %s\n", name);
  enum { N = 1 << 18 };
  static int host[N], back[N];
  for (int i = 0; i < N; ++i)
    host[i] = i * 7;
  void *device;
  CHECK_OK(tsmlirCudaMalloc(&device, sizeof(host)));
  CHECK_OK(tsmlirCudaMemcpyHtoD(device, host, sizeof(host), NULL));
  CHECK_OK(tsmlirCudaMemcpyDtoH(back, device, sizeof(back), NULL));
  CHECK(memcmp(host, back, sizeof(host)) == 0);
  CHECK_OK(tsmlirCudaFree(device));
  printf("probe: round trip ok\n");
  return 0;
}

/*===--- device: the device's name and attributes
 * --------------------------===*/

static int modeDevice(void) {
  CHECK_OK(tsmlirCudaInit());
  char name[64], truncated[5];
  CHECK_OK(tsmlirCudaDeviceName(name, sizeof(name)));
  CHECK_OK(tsmlirCudaDeviceName(truncated, sizeof(truncated)));
  printf("name: %s (truncated: %s)\n", name, truncated);
  TsmlirCudaDeviceInfo info;
  CHECK_OK(tsmlirCudaGetDeviceInfo(&info));
  printf("device %d: sm_%d%d, %d SMs, %d threads per block, warp %d, shared "
         "memory %d (opt-in %d), L2 %d, clock %d kHz, memory clock %d kHz, "
         "bus %d bits, memory %llu, driver %d\n",
         info.ordinal, info.computeCapabilityMajor, info.computeCapabilityMinor,
         info.multiprocessorCount, info.maxThreadsPerBlock, info.warpSize,
         info.sharedMemoryPerBlock, info.sharedMemoryPerBlockOptin,
         info.l2CacheBytes, info.clockRateKHz, info.memoryClockRateKHz,
         info.memoryBusWidthBits, (ull)info.totalGlobalMemory,
         info.driverVersion);
  CHECK_OK(tsmlirCudaDeviceSynchronize());
  CHECK(counter("ctx_sync") == 1);
  CHECK(tsmlirCudaDeviceName(NULL, 0) == TSMLIR_CUDA_ERROR_INVALID_VALUE);
  CHECK(tsmlirCudaGetDeviceInfo(NULL) == TSMLIR_CUDA_ERROR_INVALID_VALUE);

  /* mgpuSetDefaultDevice after initialisation: the same device is fine. */
  mgpuSetDefaultDevice(info.ordinal);
  CHECK(tsmlirCudaGetStickyError(NULL, 0) == TSMLIR_CUDA_SUCCESS);
  mgpuSetDefaultDevice(info.ordinal + 1);
  takeSticky("set device");
  return 0;
}

/* set-device: mgpuSetDefaultDevice before initialisation picks the device. */
static int modeSetDevice(void) {
  mgpuSetDefaultDevice(1);
  CHECK_OK(tsmlirCudaInit());
  char name[64];
  CHECK_OK(tsmlirCudaDeviceName(name, sizeof(name)));
  printf("name: %s\n", name);
  return 0;
}

/*===--- alloc: the caching allocator
 * --------------------------------------===*/

static int modeAlloc(void) {
  void *a, *b, *c, *d, *e;
  CHECK_OK(tsmlirCudaMalloc(&a, 1000));
  printStats("malloc 1000");
  CHECK_OK(tsmlirCudaFree(a));
  printStats("free");
  CHECK_OK(tsmlirCudaMalloc(&b, 1000));
  CHECK(b == a);
  printStats("malloc 1000 again");
  CHECK(counter("mem_alloc") == 1);

  /* A request takes a cached block at most a quarter larger than it. */
  CHECK_OK(tsmlirCudaFree(b));
  CHECK_OK(tsmlirCudaMalloc(&c, 100));
  CHECK(c != a);
  CHECK_OK(tsmlirCudaMalloc(&d, 900));
  CHECK(d == a);
  CHECK_OK(tsmlirCudaMalloc(&e, 3 << 20));
  printStats("malloc 100, 900, 3 MiB");
  CHECK_OK(tsmlirCudaFree(c));
  CHECK_OK(tsmlirCudaFree(d));
  CHECK_OK(tsmlirCudaFree(e));
  printStats("free all");
  CHECK(counter("live_allocs") == 3);

  /* A block freed on a stream: reused on it at once, on another stream
     after a wait for the event recorded at the free. */
  void *stream, *f, *g, *h;
  CHECK_OK(tsmlirCudaStreamCreate(&stream));
  ull waits = counter("stream_wait_event");
  ull records = counter("event_record");
  CHECK_OK(tsmlirCudaMallocAsync(&f, 5000, stream));
  CHECK_OK(tsmlirCudaFreeAsync(f, stream));
  CHECK(counter("event_record") == records + 1);
  CHECK_OK(tsmlirCudaMallocAsync(&g, 5000, stream));
  CHECK(g == f);
  CHECK(counter("stream_wait_event") == waits);
  CHECK_OK(tsmlirCudaFreeAsync(g, stream));
  CHECK_OK(tsmlirCudaMallocAsync(&h, 5000, NULL));
  CHECK(h == f);
  CHECK(counter("stream_wait_event") == waits + 1);
  CHECK_OK(tsmlirCudaFree(h));
  printf("stream reuse: %llu wait(s), %llu event(s) created\n",
         counter("stream_wait_event") - waits, counter("event_create"));
  CHECK_OK(tsmlirCudaStreamDestroy(stream));

  /* Errors. */
  CHECK(tsmlirCudaFree((void *)0x1234) == TSMLIR_CUDA_ERROR_INVALID_VALUE);
  printf("bad free: %s\n", tsmlirCudaGetLastError());
  CHECK_OK(tsmlirCudaFree(NULL));
  CHECK(tsmlirCudaMalloc(NULL, 8) == TSMLIR_CUDA_ERROR_INVALID_VALUE);
  CHECK(tsmlirCudaMalloc(&a, (size_t)-1) == TSMLIR_CUDA_ERROR_OUT_OF_MEMORY);
  CHECK(a == NULL);
  printf("huge: %s\n", tsmlirCudaGetLastError());

  CHECK_OK(tsmlirCudaEmptyCache());
  printStats("empty cache");
  CHECK(counter("live_allocs") == 0);
  CHECK(counter("mem_free") == counter("mem_alloc"));
  return 0;
}

/* oom: run with FAKECUDA_OOM_AFTER=2, at most two live driver allocations. */
static int modeOom(void) {
  void *a, *b, *c, *d, *e = &e;
  CHECK_OK(tsmlirCudaMalloc(&a, 1000));
  CHECK_OK(tsmlirCudaMalloc(&b, 5000));
  CHECK_OK(tsmlirCudaFree(a));
  CHECK_OK(tsmlirCudaFree(b));
  printStats("cached two");
  /* The driver is out of memory: the cache goes back, the retry works. */
  CHECK_OK(tsmlirCudaMalloc(&c, 2 << 20));
  printStats("retried");
  CHECK_OK(tsmlirCudaMalloc(&d, 100000));
  /* Out of memory with nothing cached: an error, no retry. */
  CHECK(tsmlirCudaMalloc(&e, 200000) == TSMLIR_CUDA_ERROR_OUT_OF_MEMORY);
  CHECK(e == NULL);
  printf("oom: %s\n", tsmlirCudaGetLastError());
  printStats("failed");
  CHECK_OK(tsmlirCudaFree(c));
  CHECK_OK(tsmlirCudaFree(d));
  CHECK_OK(tsmlirCudaEmptyCache());
  CHECK(counter("live_allocs") == 0);
  return 0;
}

/*===--- copy: copies, fills, events
 * ---------------------------------------===*/

static int modeCopy(void) {
  enum { N = 1000 };
  float host[N], back[N];
  for (int i = 0; i < N; ++i)
    host[i] = 0.5f * (float)i;
  void *d0, *d1, *stream;
  CHECK_OK(tsmlirCudaMalloc(&d0, sizeof(host)));
  CHECK_OK(tsmlirCudaMalloc(&d1, sizeof(host)));
  CHECK_OK(tsmlirCudaMemcpyHtoD(d0, host, sizeof(host), NULL));
  CHECK_OK(tsmlirCudaMemcpyDtoD(d1, d0, sizeof(host), NULL));
  memset(back, 0, sizeof(back));
  CHECK_OK(tsmlirCudaMemcpyDtoH(back, d1, sizeof(back), NULL));
  CHECK(memcmp(host, back, sizeof(host)) == 0);
  printf("round trip: %g %g %g\n", back[1], back[500], back[999]);

  /* Queued on a stream, then waited for. */
  CHECK_OK(tsmlirCudaStreamCreate(&stream));
  CHECK_OK(tsmlirCudaMemset32(d0, 0x3f800000u, N, stream)); /* 1.0f */
  CHECK_OK(tsmlirCudaMemcpyDtoH(back, d0, sizeof(back), stream));
  CHECK_OK(tsmlirCudaStreamSynchronize(stream));
  for (int i = 0; i < N; ++i)
    CHECK(back[i] == 1.0f);
  unsigned short halves[8];
  CHECK_OK(tsmlirCudaMemset16(d1, 0xabcd, 8, NULL));
  CHECK_OK(tsmlirCudaMemcpyDtoH(halves, d1, sizeof(halves), NULL));
  printf("fills: %g 0x%x\n", back[N - 1], halves[7]);

  /* Events on the legacy stream bracket work, and time it. */
  void *start, *end;
  float ms = -1;
  CHECK_OK(tsmlirCudaEventCreate(&start));
  CHECK_OK(tsmlirCudaEventCreate(&end));
  CHECK_OK(tsmlirCudaEventRecord(start, NULL));
  CHECK_OK(tsmlirCudaMemcpyHtoD(d0, host, sizeof(host), stream));
  CHECK_OK(tsmlirCudaEventRecord(end, NULL));
  CHECK_OK(tsmlirCudaEventSynchronize(end));
  CHECK_OK(tsmlirCudaEventElapsedMs(&ms, start, end));
  CHECK_OK(tsmlirCudaStreamWaitEvent(stream, end));
  printf("elapsed: %.2f ms\n", ms);
  CHECK_OK(tsmlirCudaEventDestroy(start));
  CHECK_OK(tsmlirCudaEventDestroy(end));

  /* Errors. */
  CHECK(tsmlirCudaMemcpyHtoD(back, host, 4, NULL) == TSMLIR_CUDA_ERROR_DRIVER);
  printf("bad copy: %s\n", tsmlirCudaGetLastError());
  CHECK(tsmlirCudaMemcpyHtoD(NULL, host, 4, NULL) ==
        TSMLIR_CUDA_ERROR_INVALID_VALUE);
  printf("null copy: %s\n", tsmlirCudaGetLastError());
  CHECK_OK(tsmlirCudaMemcpyHtoD(NULL, NULL, 0, NULL));
  CHECK(tsmlirCudaEventElapsedMs(NULL, NULL, NULL) ==
        TSMLIR_CUDA_ERROR_INVALID_VALUE);

  CHECK_OK(tsmlirCudaStreamDestroy(stream));
  CHECK(tsmlirCudaStreamDestroy(stream) == TSMLIR_CUDA_ERROR_INVALID_VALUE);
  printf("double destroy: %s\n", tsmlirCudaGetLastError());
  CHECK_OK(tsmlirCudaFree(d0));
  CHECK_OK(tsmlirCudaFree(d1));
  return 0;
}

/*===--- module: the module cache and launches
 * -----------------------------===*/

static int modeModule(void) {
  /* The same PTX from two buffers is loaded once. */
  char *copy = strdup(kPtx);
  void *m0, *m1, *m2;
  CHECK_OK(tsmlirCudaModuleLoad(&m0, kPtx, 0));
  CHECK_OK(tsmlirCudaModuleLoad(&m1, copy, 0));
  free(copy);
  CHECK(m0 == m1);
  printf("PTX loaded twice: %llu driver load(s)\n", counter("module_load"));

  void *f0, *f1, *f2;
  CHECK_OK(tsmlirCudaModuleGetFunction(&f0, m0, "add_kernel"));
  CHECK_OK(tsmlirCudaModuleGetFunction(&f1, m0, "add_kernel"));
  CHECK_OK(tsmlirCudaModuleGetFunction(&f2, m0, "scale_kernel"));
  CHECK(f0 == f1 && f0 != f2);
  printf("three lookups: %llu driver lookup(s)\n",
         counter("module_get_function"));
  CHECK(tsmlirCudaModuleGetFunction(&f1, m0, "missing_kernel") ==
        TSMLIR_CUDA_ERROR_NOT_FOUND);
  CHECK(f1 == NULL);
  printf("missing: %s\n", tsmlirCudaGetLastError());

  /* A cubin: another module. */
  CHECK_OK(tsmlirCudaModuleLoad(&m2, kCubin, sizeof(kCubin)));
  CHECK(m2 != m0);
  CHECK_OK(tsmlirCudaModuleGetFunction(&f1, m2, "cubin_kernel"));

  /* PTX the JIT rejects: its log is in the message. */
  void *bad = &bad;
  CHECK(tsmlirCudaModuleLoad(&bad, kBadPtx, 0) ==
        TSMLIR_CUDA_ERROR_MODULE_LOAD);
  CHECK(bad == NULL);
  printf("bad PTX: %s\n", tsmlirCudaGetLastError());

  /* Launches. */
  void *buffer;
  CHECK_OK(tsmlirCudaMalloc(&buffer, 256));
  void *params[] = {&buffer, &buffer};
  tsmlirCudaResetLaunchCount();
  CHECK_OK(tsmlirCudaLaunch(f0, 4, 1, 1, 128, 1, 1, 0, NULL, params, NULL));
  CHECK_OK(
      tsmlirCudaLaunch(f2, 7, 1, 1, 32, 2, 1, 64 * 1024, NULL, params, NULL));
  printf("launches: %llu (driver %llu), last grid %llu, block %llu, shared "
         "%llu, attributes set %llu\n",
         (ull)tsmlirCudaLaunchCount(), counter("launch"),
         counter("last_grid_x"), counter("last_block_x"),
         counter("last_shared_mem"), counter("func_set_attribute"));
  CHECK(tsmlirCudaLaunch(f0, 1, 1, 1, 2048, 1, 1, 0, NULL, params, NULL) ==
        TSMLIR_CUDA_ERROR_DRIVER);
  printf("bad launch: %s\n", tsmlirCudaGetLastError());
  CHECK(tsmlirCudaLaunch(NULL, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL) ==
        TSMLIR_CUDA_ERROR_INVALID_VALUE);
  CHECK(tsmlirCudaLaunchCount() == 2);
  tsmlirCudaResetLaunchCount();
  CHECK(tsmlirCudaLaunchCount() == 0);
  CHECK_OK(tsmlirCudaFree(buffer));

  /* The last reference unloads; the module is forgotten then. */
  CHECK_OK(tsmlirCudaModuleUnload(m0));
  CHECK(counter("module_unload") == 0);
  CHECK_OK(tsmlirCudaModuleUnload(m1));
  CHECK_OK(tsmlirCudaModuleUnload(m2));
  printf("unloaded: %llu driver unload(s)\n", counter("module_unload"));
  CHECK(tsmlirCudaModuleUnload(m0) == TSMLIR_CUDA_ERROR_INVALID_VALUE);
  printf("unload again: %s\n", tsmlirCudaGetLastError());
  CHECK(tsmlirCudaModuleGetFunction(&f1, m0, "add_kernel") ==
        TSMLIR_CUDA_ERROR_INVALID_VALUE);
  /* Loading it again after the unload goes to the driver again. */
  CHECK_OK(tsmlirCudaModuleLoad(&m0, kPtx, 0));
  CHECK(counter("module_load") == 3);
  CHECK_OK(tsmlirCudaModuleUnload(m0));
  return 0;
}

/*===--- mgpu: the host code MLIR's gpu-to-llvm emits
 * ----------------------===*/

/* The memref descriptor of a 2-d memref, as MLIR lays it out. */
struct MemRef2D {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};

static int modeMgpu(void) {
  /* What the global constructors of #gpu.select_object do. */
  void *ptxModule = mgpuModuleLoadJIT(kPtx, 2);
  void *cubinModule = mgpuModuleLoad(kCubin, sizeof(kCubin));
  CHECK(ptxModule && cubinModule);
  printf("JIT optimisation level: %llu\n", counter("last_jit_opt_level"));

  /* gpu.launch_func, synchronous: a pooled stream per launch. */
  void *buffer = mgpuMemAlloc(4096, NULL, false);
  CHECK(buffer != NULL);
  void *params[] = {&buffer, &buffer};
  tsmlirCudaResetLaunchCount();
  for (int i = 0; i < 5; ++i) {
    void *function = mgpuModuleGetFunction(ptxModule, "add_kernel");
    void *stream = mgpuStreamCreate();
    CHECK(function && stream);
    mgpuLaunchKernel(function, 2, 1, 1, 64, 1, 1, 0, stream, params, NULL, 2);
    mgpuStreamSynchronize(stream);
    mgpuStreamDestroy(stream);
  }
  printf("5 launches: %llu launched, %llu stream(s) created, %llu "
         "non-blocking\n",
         (ull)tsmlirCudaLaunchCount(), counter("stream_create"),
         counter("stream_non_blocking"));

  /* gpu.alloc/memcpy/memset/dealloc async, on one stream. */
  unsigned int host[1024], back[1024];
  for (int i = 0; i < 1024; ++i)
    host[i] = (unsigned)i;
  void *stream = mgpuStreamCreate();
  void *device = mgpuMemAlloc(sizeof(host), stream, false);
  mgpuMemcpy(device, host, sizeof(host), stream);
  mgpuMemcpy(back, device, sizeof(back), stream);
  CHECK(memcmp(host, back, sizeof(host)) == 0);
  mgpuMemset32(device, 7, 1024, stream);
  mgpuMemset16(device, 0x1234, 2, stream);
  mgpuMemcpy(back, device, sizeof(back), stream);
  mgpuMemFree(device, stream);
  mgpuStreamSynchronize(stream);
  printf("memset: 0x%x %u %u\n", back[0], back[1], back[1023]);

  /* gpu.wait on several tokens: events from a pool. */
  ull eventsBefore = counter("event_create");
  void *event = mgpuEventCreate();
  mgpuEventRecord(event, stream);
  void *other = mgpuStreamCreate();
  mgpuStreamWaitEvent(other, event);
  mgpuEventSynchronize(event);
  mgpuEventDestroy(event);
  void *again = mgpuEventCreate();
  CHECK(again == event);
  mgpuEventDestroy(again);
  printf("events: %llu created for 2 mgpuEventCreate\n",
         counter("event_create") - eventsBefore);
  mgpuStreamDestroy(other);
  mgpuStreamDestroy(stream);

  /* A caller's stream: the compiled code's stream is it, the end of a call
     does not wait for it, a host read of a device value does. */
  void *mine = NULL;
  CHECK(tsmlirCudaStreamCreate(&mine) == TSMLIR_CUDA_SUCCESS && mine);
  CHECK(tsmlirCudaBeginCallerStream(mine) == TSMLIR_CUDA_SUCCESS);
  ull syncs = counter("stream_sync"), created = counter("stream_create");
  ull launches = tsmlirCudaLaunchCount();
  void *kernel = mgpuModuleGetFunction(ptxModule, "add_kernel");
  void *call = mgpuStreamCreate();
  CHECK(call == mine);
  mgpuLaunchKernel(kernel, 2, 1, 1, 64, 1, 1, 0, call, params, NULL, 2);
  mgpuStreamSynchronize(call);
  mgpuStreamDestroy(call);
  ull callWaits = counter("stream_sync") - syncs;
  call = mgpuStreamCreate();
  CHECK(call == mine);
  mgpuMemcpy(back, buffer, 16, call);
  mgpuStreamSynchronize(call);
  ull readWaits = counter("stream_sync") - syncs - callWaits;
  mgpuStreamSynchronize(call);
  mgpuStreamDestroy(call);
  CHECK(tsmlirCudaEndCallerStream() == TSMLIR_CUDA_SUCCESS);
  printf("caller stream: %llu launched, %llu wait(s) at the end of a call, "
         "%llu for a host read, %llu after it, %llu stream(s) created\n",
         (ull)(tsmlirCudaLaunchCount() - launches), callWaits, readWaits,
         counter("stream_sync") - syncs - callWaits - readWaits,
         counter("stream_create") - created);
  call = mgpuStreamCreate();
  CHECK(call != mine);
  mgpuStreamSynchronize(call);
  mgpuStreamDestroy(call);
  CHECK(counter("stream_sync") - syncs == callWaits + readWaits + 1);
  CHECK(tsmlirCudaStreamDestroy(mine) == TSMLIR_CUDA_SUCCESS);

  /* Host-shared (managed) memory and registered memrefs. */
  float *shared = (float *)mgpuMemAlloc(64, NULL, true);
  CHECK(shared != NULL);
  shared[15] = 2.5f;
  mgpuMemFree(shared, NULL);
  float data[12];
  struct MemRef2D memref = {data, data, 2, {2, 3}, {5, 1}};
  mgpuMemHostRegisterMemRef(2, &memref, sizeof(float));
  mgpuMemHostUnregisterMemRef(2, &memref, sizeof(float));
  printf("managed: %llu, registered bytes: %llu, unregistered: %llu\n",
         counter("managed_alloc"), counter("host_register_bytes"),
         counter("host_unregister"));
  CHECK(takeSticky("no error") == TSMLIR_CUDA_SUCCESS);

  /* A launch with a NULL function: reported, skipped; later launches are
     skipped until the sticky error is taken. */
  ull launched = tsmlirCudaLaunchCount();
  mgpuLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL, 2);
  void *function = mgpuModuleGetFunction(ptxModule, "add_kernel");
  mgpuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL, 2);
  mgpuLaunchKernel(NULL, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL, 2);
  CHECK(tsmlirCudaLaunchCount() == launched);
  takeSticky("null function");
  mgpuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL, 2);
  CHECK(tsmlirCudaLaunchCount() == launched + 1);

  /* Other failures. */
  CHECK(mgpuModuleGetFunction(ptxModule, "missing_kernel") == NULL);
  takeSticky("missing kernel");
  CHECK(mgpuModuleLoadJIT(kBadPtx, 2) == NULL);
  mgpuModuleUnload(NULL);
  takeSticky("bad PTX");
  mgpuLaunchKernel(function, 0, 1, 1, 1, 1, 1, 0, NULL, params, NULL, 2);
  takeSticky("zero grid");
  mgpuLaunchClusterKernel(function, 2, 1, 1, 2, 1, 1, 1, 1, 1, 0, NULL, params,
                          NULL, 2);
  takeSticky("cluster");
  mgpuLaunchClusterKernel(function, 1, 1, 1, 2, 1, 1, 1, 1, 1, 0, NULL, params,
                          NULL, 2);
  CHECK(tsmlirCudaLaunchCount() == launched + 2);

  mgpuMemFree(buffer, NULL);
  /* What the global destructors do. */
  mgpuModuleUnload(ptxModule);
  mgpuModuleUnload(cubinModule);
  printf("unloaded: %llu of %llu\n", counter("module_unload"),
         counter("module_load"));
  CHECK(takeSticky("end") == TSMLIR_CUDA_SUCCESS);
  return 0;
}

/*===--- threads: everything at once from 8 threads
 * ------------------------===*/

enum { kThreads = 8, kIterations = 1000 };

static void *worker(void *arg) {
  unsigned seed = (unsigned)(uintptr_t)arg * 7919u + 1u;
  void *stream;
  CHECK_OK(tsmlirCudaStreamCreate(&stream));
  void *held[4] = {NULL, NULL, NULL, NULL};
  for (int i = 0; i < kIterations; ++i) {
    /* Sizes from 1 byte to 3 MiB, mostly small. */
    size_t size = (size_t)(rand_r(&seed) % 4096) + 1;
    if (rand_r(&seed) % 8 == 0)
      size = (size_t)(rand_r(&seed) % (3 << 20)) + 1;
    void *onStream = (i % 2) ? stream : NULL;
    void *ptr;
    CHECK_OK(tsmlirCudaMallocAsync(&ptr, size, onStream));
    if (size >= 4)
      CHECK_OK(tsmlirCudaMemset32(ptr, (unsigned)i, size / 4, onStream));
    /* Keep a few blocks alive across iterations. */
    int slot = rand_r(&seed) % 4;
    if (held[slot])
      CHECK_OK(tsmlirCudaFreeAsync(held[slot], (i % 3) ? stream : NULL));
    held[slot] = ptr;

    if (i % 100 == 0) {
      void *module, *function, *params[] = {&ptr, &ptr};
      CHECK_OK(tsmlirCudaModuleLoad(&module, kPtx, 0));
      CHECK_OK(tsmlirCudaModuleGetFunction(&function, module, "add_kernel"));
      CHECK_OK(tsmlirCudaLaunch(function, 1, 1, 1, 32, 1, 1, 0, stream, params,
                                NULL));
      CHECK_OK(tsmlirCudaModuleUnload(module));
    }
  }
  for (int slot = 0; slot < 4; ++slot)
    CHECK_OK(tsmlirCudaFreeAsync(held[slot], stream));
  CHECK_OK(tsmlirCudaStreamSynchronize(stream));
  CHECK_OK(tsmlirCudaStreamDestroy(stream));
  return NULL;
}

static int modeThreads(void) {
  CHECK_OK(tsmlirCudaInit());
  pthread_t threads[kThreads];
  for (int t = 0; t < kThreads; ++t)
    CHECK(pthread_create(&threads[t], NULL, worker, (void *)(uintptr_t)t) == 0);
  for (int t = 0; t < kThreads; ++t)
    CHECK(pthread_join(threads[t], NULL) == 0);

  TsmlirCudaMemoryStats s = stats();
  CHECK(s.bytesInUse == 0 && s.blocksInUse == 0);
  CHECK(s.allocations == kThreads * kIterations);
  CHECK(s.cacheHits + s.driverAllocations == s.allocations);
  CHECK(s.driverAllocations - s.driverFrees == s.blocksCached);
  CHECK(counter("live_allocs") == s.blocksCached);
  printf("threads: %llu allocations, in use %llu, cached blocks match the "
         "driver's live allocations\n",
         (ull)s.allocations, (ull)s.bytesInUse);
  printf("launches: %llu, module loads balanced: %s, streams created: %llu\n",
         (ull)tsmlirCudaLaunchCount(),
         counter("module_load") == counter("module_unload") ? "yes" : "no",
         counter("stream_create"));
  CHECK(counter("stream_create") <= kThreads);
  CHECK(counter("ctx_set_current") >= kThreads);
  CHECK_OK(tsmlirCudaEmptyCache());
  CHECK(counter("live_allocs") == 0);
  printStats("empty cache");
  return 0;
}

int main(int argc, char **argv) {
  /* Unbuffered, so that stdout and the runtime's stderr stay in order. */
  setvbuf(stdout, NULL, _IONBF, 0);
  const char *mode = argc > 1 ? argv[1] : "";
  static const struct {
    const char *name;
    int (*run)(void);
  } modes[] = {
      {"init", modeInit},     {"probe", modeProbe},
      {"device", modeDevice}, {"set-device", modeSetDevice},
      {"alloc", modeAlloc},   {"oom", modeOom},
      {"copy", modeCopy},     {"module", modeModule},
      {"mgpu", modeMgpu},     {"threads", modeThreads},
  };
  for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); ++i)
    if (strcmp(mode, modes[i].name) == 0)
      return modes[i].run();
  fprintf(stderr,
          "usage: %s init|probe|device|set-device|alloc|oom|copy|module|"
          "mgpu|threads\n",
          argv[0]);
  return 2;
}
