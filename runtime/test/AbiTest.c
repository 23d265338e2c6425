/*===- AbiTest.c - Tests of libtsmlir_runtime.a (Abi.h) ----------*- C -*-===//
 *
 * Part of the tsmlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===//
 *
 * tsmlir-abi-test: calls hand-written models (signatures and "compiled code"
 * written here in C) through tsmlir_invoke, one line per case:
 *
 *   LABEL: STATUS: the message of tsmlir_last_error(), or the results
 *
 * which test/runtime/abi.test checks with FileCheck. The program checks the
 * statuses and the numbers itself and stops at the first failed check with
 * "FAIL: line N: ..." and exit status 1. It is built with -std=c11 -pedantic
 * -Werror, and links AbiHeaderTest.cpp, which includes Abi.h as C++.
 *
 *===----------------------------------------------------------------------===*/

#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS */

#include "tsmlir/Runtime/Abi.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void fail(int line, const char *what) {
  printf("FAIL: line %d: %s (last error: %s)\n", line, what,
         tsmlir_last_error());
  fflush(stdout);
  exit(1);
}

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond))                                                               \
      fail(__LINE__, #cond);                                                   \
  } while (0)

#define COUNT(array) ((int64_t)(sizeof(array) / sizeof((array)[0])))

/* How many times compiled code ran, and how many runs are in progress. */
static atomic_int packedCalls;
static atomic_int packedInFlight;

static void enterPacked(void) {
  atomic_fetch_add(&packedCalls, 1);
  CHECK(atomic_fetch_add(&packedInFlight, 1) == 0);
}

static void leavePacked(void) { atomic_fetch_sub(&packedInFlight, 1); }

/* The data of a memref descriptor, after checking that it describes a
   contiguous memref of these sizes. */
static void *descriptorData(void *argument, int32_t rank,
                            const int64_t *sizes) {
  const int64_t *words = argument;
  CHECK(words[0] == words[1]);
  CHECK(words[2] == 0);
  int64_t stride = 1;
  for (int32_t d = rank - 1; d >= 0; --d) {
    CHECK(words[3 + d] == sizes[d]);
    CHECK(words[3 + rank + d] == stride);
    stride *= sizes[d];
  }
  return (void *)(intptr_t)words[1];
}

static tsmlir_tensor makeTensor(void *data, int32_t dtype, int32_t rank,
                                const int64_t *sizes, const int64_t *strides) {
  tsmlir_tensor t = {data, dtype, rank, sizes, strides};
  return t;
}

/*===--- The models -------------------------------------------------------===*/

/* The entry function of a model (what tsmlir-compile generates). */
#define ENTRY(function, signature)                                             \
  static tsmlir_status function(                                               \
      const tsmlir_tensor *inputs, int64_t num_inputs,                         \
      const tsmlir_tensor *outputs, int64_t num_outputs) {                     \
    return tsmlir_invoke(&signature, inputs, num_inputs, outputs,              \
                         num_outputs);                                         \
  }

#define SIGNATURE(device, name, inputs, outputs, entry, packed, error)         \
  {                                                                            \
    TSMLIR_ABI_VERSION, device, name, "x86_64-unknown-linux-gnu",              \
        (int32_t)COUNT(inputs), (int32_t)COUNT(outputs), 0,                    \
        (int32_t)COUNT(inputs), inputs, outputs, NULL, entry, packed, error    \
  }

static const int64_t k2x3[] = {2, 3};
static const int64_t k4[] = {4};

/* add_main(a: float32[2, 3], b: float32[2, 3], alpha: float) -> a + alpha*b.
   Remembers the data pointers it was given. */
static const tsmlir_value_info addInputs[] = {
    {"a", TSMLIR_KIND_TENSOR, TSMLIR_FLOAT32, 2, 0, k2x3},
    {"b", TSMLIR_KIND_TENSOR, TSMLIR_FLOAT32, 2, 1, k2x3},
    {"alpha", TSMLIR_KIND_NUMBER, TSMLIR_FLOAT64, 0, 2, NULL},
};
static const tsmlir_value_info addOutputs[] = {
    {"", TSMLIR_KIND_TENSOR, TSMLIR_FLOAT32, 2, 0, k2x3},
};
static const float *addSeenA, *addSeenB;

static void addPacked(void **arguments) {
  enterPacked();
  const float *a = descriptorData(arguments[0], 2, k2x3);
  const float *b = descriptorData(arguments[1], 2, k2x3);
  const double *alpha = arguments[2];
  float *out = descriptorData(arguments[3], 2, k2x3);
  addSeenA = a;
  addSeenB = b;
  sched_yield(); /* a chance for another thread to come in, if it could */
  for (int i = 0; i < 6; ++i)
    out[i] = a[i] + (float)*alpha * b[i];
  leavePacked();
}

static tsmlir_status addEntry(const tsmlir_tensor *, int64_t,
                              const tsmlir_tensor *, int64_t);
static const tsmlir_signature addSignature =
    SIGNATURE(TSMLIR_DEVICE_CPU, "add_main", addInputs, addOutputs, addEntry,
              addPacked, NULL);
ENTRY(addEntry, addSignature)

/* The same model compiled for another ABI version (initModels). */
static tsmlir_signature futureSignature;

/* count_main(x: int64[4], k: int) -> (x * k, sum(x)): an int number input
   and output, both 0-d memrefs. */
static const tsmlir_value_info countInputs[] = {
    {"x", TSMLIR_KIND_TENSOR, TSMLIR_INT64, 1, 0, k4},
    {"k", TSMLIR_KIND_NUMBER, TSMLIR_INT64, 0, 1, NULL},
};
static const tsmlir_value_info countOutputs[] = {
    {"", TSMLIR_KIND_TENSOR, TSMLIR_INT64, 1, 0, k4},
    {"", TSMLIR_KIND_NUMBER, TSMLIR_INT64, 0, 1, NULL},
};

static void countPacked(void **arguments) {
  enterPacked();
  const int64_t *x = descriptorData(arguments[0], 1, k4);
  const int64_t *k = descriptorData(arguments[1], 0, NULL);
  int64_t *y = descriptorData(arguments[2], 1, k4);
  int64_t *n = descriptorData(arguments[3], 0, NULL);
  *n = 0;
  for (int i = 0; i < 4; ++i) {
    y[i] = x[i] * *k;
    *n += x[i];
  }
  leavePacked();
}

static const tsmlir_signature countSignature =
    SIGNATURE(TSMLIR_DEVICE_CPU, "count_main", countInputs, countOutputs, NULL,
              countPacked, NULL);

/* cuda_main(x: float32[4]) -> 2 * x: a CUDA model on host memory whose
   device runtime fails when told to. */
static const tsmlir_value_info cudaInputs[] = {
    {"x", TSMLIR_KIND_TENSOR, TSMLIR_FLOAT32, 1, 0, k4},
};
static const tsmlir_value_info cudaOutputs[] = {
    {"", TSMLIR_KIND_TENSOR, TSMLIR_FLOAT32, 1, 0, k4},
};
static int deviceFails;

static void cudaPacked(void **arguments) {
  enterPacked();
  const float *x = descriptorData(arguments[0], 1, k4);
  float *y = descriptorData(arguments[1], 1, k4);
  for (int i = 0; i < 4; ++i)
    y[i] = 2 * x[i];
  leavePacked();
}

static int cudaDeviceError(char *message, size_t size) {
  if (!deviceFails)
    return 0;
  snprintf(message, size,
           "mgpuLaunchKernel: CUDA_ERROR_ILLEGAL_ADDRESS (kernel "
           "cuda_main_kernel)");
  return 1;
}

static const tsmlir_signature cudaSignature =
    SIGNATURE(TSMLIR_DEVICE_CUDA, "cuda_main", cudaInputs, cudaOutputs, NULL,
              cudaPacked, cudaDeviceError);

/* copy_main(x: int16[2, 3, 4]) -> x: for strided inputs. */
static const int64_t k2x3x4[] = {2, 3, 4};
static const tsmlir_value_info copyInputs[] = {
    {"x", TSMLIR_KIND_TENSOR, TSMLIR_INT16, 3, 0, k2x3x4},
};
static const tsmlir_value_info copyOutputs[] = {
    {"", TSMLIR_KIND_TENSOR, TSMLIR_INT16, 3, 0, k2x3x4},
};
static const int16_t *copySeen;

static void copyPacked(void **arguments) {
  enterPacked();
  const int16_t *x = descriptorData(arguments[0], 3, k2x3x4);
  int16_t *y = descriptorData(arguments[1], 3, k2x3x4);
  copySeen = x;
  memcpy(y, x, 24 * sizeof(int16_t));
  leavePacked();
}

static const tsmlir_signature copySignature =
    SIGNATURE(TSMLIR_DEVICE_CPU, "copy_main", copyInputs, copyOutputs, NULL,
              copyPacked, NULL);

/* wide_main(x: float64[2, 1 x 68, 3]) -> x: descriptors and a strided copy
   beyond the runtime's small buffers. */
enum { kWideRank = 70 };
static int64_t wideSizes[kWideRank];
static const tsmlir_value_info wideInputs[] = {
    {"x", TSMLIR_KIND_TENSOR, TSMLIR_FLOAT64, kWideRank, 0, wideSizes},
};
static const tsmlir_value_info wideOutputs[] = {
    {"", TSMLIR_KIND_TENSOR, TSMLIR_FLOAT64, kWideRank, 0, wideSizes},
};

static void widePacked(void **arguments) {
  enterPacked();
  const double *x = descriptorData(arguments[0], kWideRank, wideSizes);
  double *y = descriptorData(arguments[1], kWideRank, wideSizes);
  memcpy(y, x, 6 * sizeof(double));
  leavePacked();
}

static const tsmlir_signature wideSignature =
    SIGNATURE(TSMLIR_DEVICE_CPU, "wide_main", wideInputs, wideOutputs, NULL,
              widePacked, NULL);

/* many_main(x0, ..., x19: float) -> their sum: more arguments than the
   runtime's small buffers hold. */
enum { kMany = 20 };
static const char *const manyNames[kMany] = {
    "x0",  "x1",  "x2",  "x3",  "x4",  "x5",  "x6",  "x7",  "x8",  "x9",
    "x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19"};
static tsmlir_value_info manyInputs[kMany];
static const tsmlir_value_info manyOutputs[] = {
    {"", TSMLIR_KIND_NUMBER, TSMLIR_FLOAT64, 0, 0, NULL},
};

static void manyPacked(void **arguments) {
  enterPacked();
  double *sum = descriptorData(arguments[kMany], 0, NULL);
  *sum = 0;
  for (int i = 0; i < kMany; ++i)
    *sum += *(const double *)arguments[i];
  leavePacked();
}

static const tsmlir_signature manySignature =
    SIGNATURE(TSMLIR_DEVICE_CPU, "many_main", manyInputs, manyOutputs, NULL,
              manyPacked, NULL);

/* empty_main(x: float32[0, 3]) -> (float32[3], float32[0]). */
static const int64_t k0x3[] = {0, 3};
static const int64_t k3[] = {3};
static const int64_t k0[] = {0};
static const tsmlir_value_info emptyInputs[] = {
    {"x", TSMLIR_KIND_TENSOR, TSMLIR_FLOAT32, 2, 0, k0x3},
};
static const tsmlir_value_info emptyOutputs[] = {
    {"", TSMLIR_KIND_TENSOR, TSMLIR_FLOAT32, 1, 0, k3},
    {"", TSMLIR_KIND_TENSOR, TSMLIR_FLOAT32, 1, 1, k0},
};

static void emptyPacked(void **arguments) {
  enterPacked();
  descriptorData(arguments[0], 2, k0x3);
  float *sums = descriptorData(arguments[1], 1, k3);
  descriptorData(arguments[2], 1, k0);
  for (int i = 0; i < 3; ++i)
    sums[i] = 0;
  leavePacked();
}

static const tsmlir_signature emptySignature =
    SIGNATURE(TSMLIR_DEVICE_CPU, "empty_main", emptyInputs, emptyOutputs, NULL,
              emptyPacked, NULL);

/* Models whose sizes are too large to count: their code never runs. */
static void neverPacked(void **arguments) {
  (void)arguments;
  fail(__LINE__, "compiled code of a model that cannot be called ran");
}

static const int64_t kHuge[] = {(int64_t)1 << 58};       /* 2^60 bytes */
static const int64_t kTooMany[] = {(int64_t)1 << 62, 4}; /* 2^64 elements */
static const int64_t kTooLarge[] = {(int64_t)1 << 61};   /* 2^63 bytes */
static const tsmlir_value_info hugeInputs[] = {
    {"x", TSMLIR_KIND_TENSOR, TSMLIR_FLOAT32, 1, 0, kHuge},
};
static const tsmlir_value_info tooManyInputs[] = {
    {"x", TSMLIR_KIND_TENSOR, TSMLIR_FLOAT32, 2, 0, kTooMany},
};
static const tsmlir_value_info tooLargeInputs[] = {
    {"x", TSMLIR_KIND_TENSOR, TSMLIR_FLOAT32, 1, 0, kTooLarge},
};
static const tsmlir_value_info numberOutputs[] = {
    {"", TSMLIR_KIND_NUMBER, TSMLIR_FLOAT64, 0, 0, NULL},
};
static const tsmlir_signature hugeSignature =
    SIGNATURE(TSMLIR_DEVICE_CPU, "huge_main", hugeInputs, numberOutputs, NULL,
              neverPacked, NULL);
static const tsmlir_signature tooManySignature =
    SIGNATURE(TSMLIR_DEVICE_CPU, "too_many_main", tooManyInputs, numberOutputs,
              NULL, neverPacked, NULL);
static const tsmlir_signature tooLargeSignature =
    SIGNATURE(TSMLIR_DEVICE_CPU, "too_large_main", tooLargeInputs,
              numberOutputs, NULL, neverPacked, NULL);

/* A model whose name makes every message longer than the runtime keeps. */
#define X10 "xxxxxxxxxx"
#define X100 X10 X10 X10 X10 X10 X10 X10 X10 X10 X10
static const tsmlir_signature longSignature =
    SIGNATURE(TSMLIR_DEVICE_CPU,
              X100 X100 X100 X100 X100 X100 X100 X100 X100 X100 X100 "_main",
              addInputs, addOutputs, NULL, neverPacked, NULL);

static void initModels(void) {
  futureSignature = addSignature;
  futureSignature.abi_version = TSMLIR_ABI_VERSION + 1;
  futureSignature.name = "future_main";
  for (int d = 0; d < kWideRank; ++d)
    wideSizes[d] = 1;
  wideSizes[0] = 2;
  wideSizes[kWideRank - 1] = 3;
  for (int i = 0; i < kMany; ++i) {
    tsmlir_value_info info = {
        manyNames[i], TSMLIR_KIND_NUMBER, TSMLIR_FLOAT64, 0, i, NULL};
    manyInputs[i] = info;
  }
}

/*===--- Running cases ----------------------------------------------------===*/

static const char *statusName(tsmlir_status status) {
  return tsmlir_status_name(status);
}

/* A call that must fail with `expected` without running the model. */
static void expectError(const char *label, tsmlir_status expected,
                        const tsmlir_signature *signature,
                        const tsmlir_tensor *inputs, int64_t numInputs,
                        const tsmlir_tensor *outputs, int64_t numOutputs) {
  int calls = atomic_load(&packedCalls);
  tsmlir_status status =
      tsmlir_invoke(signature, inputs, numInputs, outputs, numOutputs);
  printf("%s: %s: %s\n", label, statusName(status), tsmlir_last_error());
  CHECK(status == expected);
  CHECK(tsmlir_last_error()[0] != '\0');
  if (expected != TSMLIR_ERROR_DEVICE)
    CHECK(atomic_load(&packedCalls) == calls);
}

/* A call that must succeed and run the model once. */
static void expectOk(const tsmlir_signature *signature,
                     const tsmlir_tensor *inputs, int64_t numInputs,
                     const tsmlir_tensor *outputs, int64_t numOutputs) {
  int calls = atomic_load(&packedCalls);
  tsmlir_status status =
      tsmlir_invoke(signature, inputs, numInputs, outputs, numOutputs);
  if (status != TSMLIR_OK)
    printf("unexpected %s: %s\n", statusName(status), tsmlir_last_error());
  CHECK(status == TSMLIR_OK);
  CHECK(strcmp(tsmlir_last_error(), "") == 0);
  CHECK(atomic_load(&packedCalls) == calls + 1);
}

static void printFloats(const char *label, const float *values, int count) {
  printf("%s: TSMLIR_OK:", label);
  for (int i = 0; i < count; ++i)
    printf(" %g", values[i]);
  printf("\n");
}

/*===--- The helpers ------------------------------------------------------===*/

/* The layout of Abi.h's types as C++ sees them (AbiHeaderTest.cpp). */
size_t tsmlirAbiCxxLayout(size_t *values, size_t capacity);
const char *tsmlirAbiCxxStatusName(int32_t status);

#define LAYOUT(type, member) sizeof(type), offsetof(type, member)

static void testHelpers(void) {
  CHECK(strcmp(tsmlir_status_name(TSMLIR_OK), "TSMLIR_OK") == 0);
  CHECK(strcmp(tsmlir_status_name(TSMLIR_ERROR_VERSION),
               "TSMLIR_ERROR_VERSION") == 0);
  CHECK(strcmp(tsmlir_status_name(10), "unknown status") == 0);
  CHECK(strcmp(tsmlir_status_name(-1), "unknown status") == 0);
  CHECK(strcmp(tsmlirAbiCxxStatusName(TSMLIR_ERROR_SHAPE),
               "TSMLIR_ERROR_SHAPE") == 0);
  static const char *const names[] = {"bool",    "uint8",   "int8",
                                      "int16",   "int32",   "int64",
                                      "float16", "float32", "float64"};
  static const size_t sizes[] = {1, 1, 1, 2, 4, 8, 2, 4, 8};
  for (int32_t dtype = TSMLIR_BOOL; dtype <= TSMLIR_FLOAT64; ++dtype) {
    CHECK(strcmp(tsmlir_dtype_name(dtype), names[dtype - 1]) == 0);
    CHECK(tsmlir_dtype_size(dtype) == sizes[dtype - 1]);
  }
  CHECK(tsmlir_dtype_name(0) == NULL && tsmlir_dtype_name(10) == NULL);
  CHECK(tsmlir_dtype_size(0) == 0 && tsmlir_dtype_size(42) == 0);

  const int64_t ok[] = {2, 3, 4}, negative[] = {2, -1}, zero[] = {0, -1};
  const int64_t overflow[] = {(int64_t)1 << 32, (int64_t)1 << 31};
  const int64_t fits[] = {(int64_t)1 << 31, (int64_t)1 << 31, 3};
  CHECK(tsmlir_numel(0, NULL) == 1);
  CHECK(tsmlir_numel(3, ok) == 24);
  CHECK(tsmlir_numel(2, negative) == -1);
  CHECK(tsmlir_numel(2, zero) == -1);
  CHECK(tsmlir_numel(2, overflow) == -1);
  CHECK(tsmlir_numel(3, fits) == -1);
  CHECK(tsmlir_numel(2, fits) == (int64_t)1 << 62);
  CHECK(tsmlir_numel(1, NULL) == -1 && tsmlir_numel(-1, ok) == -1);

  size_t c[] = {LAYOUT(tsmlir_tensor, data),
                LAYOUT(tsmlir_tensor, dtype),
                LAYOUT(tsmlir_tensor, rank),
                LAYOUT(tsmlir_tensor, sizes),
                LAYOUT(tsmlir_tensor, strides),
                LAYOUT(tsmlir_value_info, name),
                LAYOUT(tsmlir_value_info, kind),
                LAYOUT(tsmlir_value_info, dtype),
                LAYOUT(tsmlir_value_info, rank),
                LAYOUT(tsmlir_value_info, position),
                LAYOUT(tsmlir_value_info, sizes),
                LAYOUT(tsmlir_bound_argument, name),
                LAYOUT(tsmlir_bound_argument, position),
                LAYOUT(tsmlir_bound_argument, value),
                LAYOUT(tsmlir_signature, abi_version),
                LAYOUT(tsmlir_signature, device),
                LAYOUT(tsmlir_signature, name),
                LAYOUT(tsmlir_signature, target),
                LAYOUT(tsmlir_signature, num_inputs),
                LAYOUT(tsmlir_signature, num_outputs),
                LAYOUT(tsmlir_signature, num_bound),
                LAYOUT(tsmlir_signature, num_graph_arguments),
                LAYOUT(tsmlir_signature, inputs),
                LAYOUT(tsmlir_signature, outputs),
                LAYOUT(tsmlir_signature, bound),
                LAYOUT(tsmlir_signature, entry),
                LAYOUT(tsmlir_signature, packed),
                LAYOUT(tsmlir_signature, device_error),
                sizeof(tsmlir_dtype),
                sizeof(tsmlir_status)};
  size_t cxx[COUNT(c)];
  CHECK(tsmlirAbiCxxLayout(cxx, COUNT(cxx)) == (size_t)COUNT(c));
  CHECK(memcmp(c, cxx, sizeof(c)) == 0);
  printf("helpers: status and dtype names, sizes, numel, C and C++ layouts "
         "agree (tsmlir_tensor %zu bytes, tsmlir_signature %zu bytes)\n",
         sizeof(tsmlir_tensor), sizeof(tsmlir_signature));
}

/*===--- add_main: the checks, in order -----------------------------------===*/

/* The tensors of one add_main call: a = 1..6, b = 10..60, alpha = 0.5. */
typedef struct AddCall {
  float a[6], b[6], out[6];
  double alpha;
  tsmlir_tensor inputs[3], outputs[1];
} AddCall;

static void initAddCall(AddCall *c) {
  for (int i = 0; i < 6; ++i) {
    c->a[i] = (float)(i + 1);
    c->b[i] = (float)(10 * (i + 1));
    c->out[i] = -1;
  }
  c->alpha = 0.5;
  c->inputs[0] = makeTensor(c->a, TSMLIR_FLOAT32, 2, k2x3, NULL);
  c->inputs[1] = makeTensor(c->b, TSMLIR_FLOAT32, 2, k2x3, NULL);
  c->inputs[2] = makeTensor(&c->alpha, TSMLIR_FLOAT64, 0, NULL, NULL);
  c->outputs[0] = makeTensor(c->out, TSMLIR_FLOAT32, 2, k2x3, NULL);
}

/* Checks add_main's output against a[i] + alpha * b[i] for given a and b. */
static void checkAdd(const float *out, const float *a, const float *b,
                     double alpha) {
  for (int i = 0; i < 6; ++i)
    CHECK(out[i] == a[i] + (float)alpha * b[i]);
}

static void expectAddError(const char *label, tsmlir_status expected,
                           AddCall *c) {
  expectError(label, expected, &addSignature, c->inputs, 3, c->outputs, 1);
}

static void testAddChecks(void) {
  AddCall c;
  initAddCall(&c);
  expectOk(&addSignature, c.inputs, 3, c.outputs, 1);
  checkAdd(c.out, c.a, c.b, c.alpha);
  CHECK(addSeenA == c.a && addSeenB == c.b);
  printFloats("add", c.out, 6);

  /* Through the entry function, as a program calls it. */
  initAddCall(&c);
  c.alpha = -2;
  CHECK(addSignature.entry(c.inputs, 3, c.outputs, 1) == TSMLIR_OK);
  checkAdd(c.out, c.a, c.b, c.alpha);
  printFloats("entry", c.out, 6);

  expectError("null signature", TSMLIR_ERROR_NULL, NULL, c.inputs, 3, c.outputs,
              1);
  expectError("version", TSMLIR_ERROR_VERSION, &futureSignature, c.inputs, 3,
              c.outputs, 1);
  expectError("arity", TSMLIR_ERROR_ARITY, &addSignature, c.inputs, 2,
              c.outputs, 1);
  expectError("arity outputs", TSMLIR_ERROR_ARITY, &addSignature, c.inputs, 3,
              c.outputs, 0);
  expectError("null inputs", TSMLIR_ERROR_NULL, &addSignature, NULL, 3,
              c.outputs, 1);
  expectError("null outputs", TSMLIR_ERROR_NULL, &addSignature, c.inputs, 3,
              NULL, 1);

  c.inputs[1].dtype = TSMLIR_INT64;
  expectAddError("dtype", TSMLIR_ERROR_DTYPE, &c);
  initAddCall(&c);
  c.inputs[0].dtype = 42;
  expectAddError("unknown dtype", TSMLIR_ERROR_DTYPE, &c);
  initAddCall(&c);
  c.inputs[1].rank = 1;
  c.inputs[1].sizes = k4;
  expectAddError("rank", TSMLIR_ERROR_RANK, &c);
  initAddCall(&c);
  c.inputs[2].rank = 1;
  c.inputs[2].sizes = k4;
  expectAddError("number rank", TSMLIR_ERROR_RANK, &c);
  initAddCall(&c);
  c.inputs[1].sizes = NULL;
  expectAddError("null sizes", TSMLIR_ERROR_NULL, &c);
  initAddCall(&c);
  const int64_t k3x2[] = {3, 2};
  c.inputs[1].sizes = k3x2;
  expectAddError("shape", TSMLIR_ERROR_SHAPE, &c);
  initAddCall(&c);
  c.inputs[2].data = NULL;
  expectAddError("null number", TSMLIR_ERROR_NULL, &c);
  initAddCall(&c);
  c.outputs[0].data = NULL;
  expectAddError("null data", TSMLIR_ERROR_NULL, &c);

  initAddCall(&c);
  const int64_t transposed[] = {1, 2};
  c.outputs[0].strides = transposed;
  expectAddError("output strides", TSMLIR_ERROR_LAYOUT, &c);
  initAddCall(&c);
  c.outputs[0].data = c.b;
  expectAddError("overlap", TSMLIR_ERROR_LAYOUT, &c);
  initAddCall(&c);
  c.outputs[0].data = &c.alpha;
  expectAddError("overlap number", TSMLIR_ERROR_LAYOUT, &c);

  /* The contiguous strides of a tensor are accepted as they are. */
  initAddCall(&c);
  const int64_t contiguous[] = {3, 1};
  c.inputs[0].strides = contiguous;
  c.outputs[0].strides = contiguous;
  expectOk(&addSignature, c.inputs, 3, c.outputs, 1);
  CHECK(addSeenA == c.a);
  checkAdd(c.out, c.a, c.b, c.alpha);
}

/* A transposed input occupies the bytes from its lowest to its highest
   element: an output right after them is fine, one inside them is not. */
static void testStridedOverlap(void) {
  AddCall c;
  initAddCall(&c);
  float storage[12];
  for (int i = 0; i < 12; ++i)
    storage[i] = (float)i;
  const int64_t transposed[] = {1, 2};
  c.inputs[1] = makeTensor(storage, TSMLIR_FLOAT32, 2, k2x3, transposed);
  c.outputs[0].data = storage + 5;
  expectAddError("overlap strided", TSMLIR_ERROR_LAYOUT, &c);
  c.outputs[0].data = storage + 6;
  expectOk(&addSignature, c.inputs, 3, c.outputs, 1);
  const float b[6] = {0, 2, 4, 1, 3, 5};
  checkAdd(storage + 6, c.a, b, c.alpha);
  printFloats("after strided", storage + 6, 6);

  /* Negative strides: the same bytes, reached from the last element. */
  initAddCall(&c);
  const int64_t reversed[] = {-3, -1};
  c.inputs[1] = makeTensor(storage + 5, TSMLIR_FLOAT32, 2, k2x3, reversed);
  c.outputs[0].data = storage;
  expectAddError("overlap reversed", TSMLIR_ERROR_LAYOUT, &c);
}

/* Checks fail before any data is read: inputs in memory that cannot be
   read, and a call that fails its last check. */
static void testNoReads(void) {
  void *page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(page != MAP_FAILED);
  AddCall c;
  initAddCall(&c);
  const int64_t transposed[] = {1, 2};
  c.inputs[0].data = page;
  c.inputs[1] = makeTensor(page, TSMLIR_FLOAT32, 2, k2x3, transposed);
  c.inputs[2].data = page;
  c.outputs[0].data = (char *)page + 8;
  expectAddError("no reads", TSMLIR_ERROR_LAYOUT, &c);
  munmap(page, 4096);
}

/* A message longer than the runtime keeps ends with "...". */
static void testTruncation(void) {
  AddCall c;
  initAddCall(&c);
  CHECK(tsmlir_invoke(&longSignature, c.inputs, 2, c.outputs, 1) ==
        TSMLIR_ERROR_ARITY);
  const char *message = tsmlir_last_error();
  size_t length = strlen(message);
  CHECK(length > 1000 && length < 1024);
  CHECK(strcmp(message + length - 3, "...") == 0);
  printf("truncated: TSMLIR_ERROR_ARITY: %zu characters, ending in '%s'\n",
         length, message + length - 3);
}

/*===--- Strided inputs of a CPU model ------------------------------------===*/

static void testStridedAdd(void) {
  /* a transposed: a[i][j] = at[j][i]. */
  AddCall c;
  initAddCall(&c);
  float at[6] = {1, 4, 2, 5, 3, 6};
  const int64_t transposed[] = {1, 2};
  c.inputs[0] = makeTensor(at, TSMLIR_FLOAT32, 2, k2x3, transposed);
  c.alpha = 1;
  expectOk(&addSignature, c.inputs, 3, c.outputs, 1);
  CHECK(addSeenA != at && (uintptr_t)addSeenA % 64 == 0);
  checkAdd(c.out, c.a, c.b, c.alpha);
  printFloats("transposed", c.out, 6);

  /* b broadcast from one row: b[i][j] = row[j]. */
  initAddCall(&c);
  float row[3] = {100, 200, 300};
  const int64_t broadcast[] = {0, 1};
  c.inputs[1] = makeTensor(row, TSMLIR_FLOAT32, 2, k2x3, broadcast);
  expectOk(&addSignature, c.inputs, 3, c.outputs, 1);
  const float b[6] = {100, 200, 300, 100, 200, 300};
  checkAdd(c.out, c.a, b, c.alpha);
  printFloats("broadcast", c.out, 6);

  /* Both at once, and the temporaries are gone after the call. */
  initAddCall(&c);
  c.inputs[0] = makeTensor(at, TSMLIR_FLOAT32, 2, k2x3, transposed);
  c.inputs[1] = makeTensor(row, TSMLIR_FLOAT32, 2, k2x3, broadcast);
  expectOk(&addSignature, c.inputs, 3, c.outputs, 1);
  checkAdd(c.out, c.a, b, c.alpha);
  printFloats("both strided", c.out, 6);
}

/* copy_main on int16[2, 3, 4] views of `base`; the reference indexes the
   view itself. */
static void expectCopy(const char *label, const int16_t *data,
                       const int64_t *strides) {
  int16_t out[24];
  tsmlir_tensor input =
      makeTensor((void *)(uintptr_t)data, TSMLIR_INT16, 3, k2x3x4, strides);
  tsmlir_tensor output = makeTensor(out, TSMLIR_INT16, 3, k2x3x4, NULL);
  expectOk(&copySignature, &input, 1, &output, 1);
  CHECK(copySeen != data && (uintptr_t)copySeen % 64 == 0);
  printf("%s: TSMLIR_OK:", label);
  for (int i = 0, n = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k, ++n) {
        CHECK(out[n] == data[i * strides[0] + j * strides[1] + k * strides[2]]);
        printf(" %d", out[n]);
      }
  printf("\n");
}

static void testStridedCopies(void) {
  int16_t base[64];
  for (int i = 0; i < 64; ++i)
    base[i] = (int16_t)i;

  /* Contiguous: passed as it is. */
  int16_t out[24];
  tsmlir_tensor input = makeTensor(base, TSMLIR_INT16, 3, k2x3x4, NULL);
  tsmlir_tensor output = makeTensor(out, TSMLIR_INT16, 3, k2x3x4, NULL);
  expectOk(&copySignature, &input, 1, &output, 1);
  CHECK(copySeen == base && memcmp(out, base, sizeof(out)) == 0);

  const int64_t permuted[] = {1, 2, 6};    /* a [4, 3, 2] array permuted */
  const int64_t reversed[] = {-12, 4, -1}; /* x[1 - i][j][3 - k] */
  const int64_t zero[] = {0, 0, 1};        /* one row of 4 */
  const int64_t mixed[] = {-20, 0, 5};
  expectCopy("copy permuted", base, permuted);
  expectCopy("copy reversed", base + 15, reversed);
  expectCopy("copy zero", base + 8, zero);
  expectCopy("copy mixed", base + 24, mixed);
}

/* Rank 70 and 20 inputs: the runtime's buffers for larger calls. */
static void testLargeCalls(void) {
  double x[6] = {1, 2, 3, 4, 5, 6}, y[6];
  int64_t strides[kWideRank];
  for (int d = 0; d < kWideRank; ++d)
    strides[d] = 12345; /* any stride: dimensions of size 1 */
  strides[0] = 3;
  strides[kWideRank - 1] = 1;
  tsmlir_tensor input =
      makeTensor(x, TSMLIR_FLOAT64, kWideRank, wideSizes, strides);
  tsmlir_tensor output =
      makeTensor(y, TSMLIR_FLOAT64, kWideRank, wideSizes, NULL);
  expectOk(&wideSignature, &input, 1, &output, 1);
  CHECK(memcmp(x, y, sizeof(x)) == 0);

  strides[0] = 1; /* transposed: x[i][j] = storage[j * 2 + i] */
  strides[kWideRank - 1] = 2;
  expectOk(&wideSignature, &input, 1, &output, 1);
  printf("wide: TSMLIR_OK:");
  const double expected[6] = {1, 3, 5, 2, 4, 6};
  for (int i = 0; i < 6; ++i) {
    CHECK(y[i] == expected[i]);
    printf(" %g", y[i]);
  }
  printf("\n");

  double values[kMany], sum = -1;
  tsmlir_tensor inputs[kMany];
  for (int i = 0; i < kMany; ++i) {
    values[i] = i;
    inputs[i] = makeTensor(&values[i], TSMLIR_FLOAT64, 0, NULL, NULL);
  }
  tsmlir_tensor result = makeTensor(&sum, TSMLIR_FLOAT64, 0, NULL, NULL);
  expectOk(&manySignature, inputs, kMany, &result, 1);
  CHECK(sum == 190);
  printf("many: TSMLIR_OK: sum %g\n", sum);
  expectError("many arity", TSMLIR_ERROR_ARITY, &manySignature, inputs, 19,
              &result, 1);
}

/*===--- Numbers, empty tensors, sizes, CUDA ------------------------------===*/

static void testNumbers(void) {
  int64_t x[4] = {1, 2, 3, 4}, k = 3, y[4], n = -1;
  tsmlir_tensor inputs[2] = {makeTensor(x, TSMLIR_INT64, 1, k4, NULL),
                             makeTensor(&k, TSMLIR_INT64, 0, NULL, NULL)};
  tsmlir_tensor outputs[2] = {makeTensor(y, TSMLIR_INT64, 1, k4, NULL),
                              makeTensor(&n, TSMLIR_INT64, 0, NULL, NULL)};
  expectOk(&countSignature, inputs, 2, outputs, 2);
  CHECK(y[0] == 3 && y[1] == 6 && y[2] == 9 && y[3] == 12 && n == 10);
  printf("count: TSMLIR_OK: y %lld %lld %lld %lld, n %lld\n", (long long)y[0],
         (long long)y[1], (long long)y[2], (long long)y[3], (long long)n);

  outputs[1].data = &y[3];
  expectError("overlap outputs", TSMLIR_ERROR_LAYOUT, &countSignature, inputs,
              2, outputs, 2);
  outputs[1] = makeTensor(&n, TSMLIR_FLOAT64, 0, NULL, NULL);
  expectError("number dtype", TSMLIR_ERROR_DTYPE, &countSignature, inputs, 2,
              outputs, 2);
}

static void testEmpty(void) {
  float sums[3] = {-1, -1, -1};
  const int64_t anyStrides[] = {7, -3};
  tsmlir_tensor input = makeTensor(NULL, TSMLIR_FLOAT32, 2, k0x3, anyStrides);
  tsmlir_tensor outputs[2] = {makeTensor(sums, TSMLIR_FLOAT32, 1, k3, NULL),
                              makeTensor(sums, TSMLIR_FLOAT32, 1, k0, NULL)};
  expectOk(&emptySignature, &input, 1, outputs, 2);
  CHECK(sums[0] == 0 && sums[1] == 0 && sums[2] == 0);
  printFloats("empty", sums, 3);
  outputs[0].data = NULL;
  expectError("empty null", TSMLIR_ERROR_NULL, &emptySignature, &input, 1,
              outputs, 2);
}

static void testSizes(void) {
  float x = 1;
  double n;
  const int64_t broadcast[] = {0};
  tsmlir_tensor input = makeTensor(&x, TSMLIR_FLOAT32, 1, kHuge, broadcast);
  tsmlir_tensor output = makeTensor(&n, TSMLIR_FLOAT64, 0, NULL, NULL);
  expectError("memory", TSMLIR_ERROR_MEMORY, &hugeSignature, &input, 1, &output,
              1);
  const int64_t wild[] = {(int64_t)1 << 40};
  input.strides = wild;
  expectError("wild strides", TSMLIR_ERROR_LAYOUT, &hugeSignature, &input, 1,
              &output, 1);

  tsmlir_tensor many = makeTensor(&x, TSMLIR_FLOAT32, 2, kTooMany, NULL);
  expectError("too many elements", TSMLIR_ERROR_SHAPE, &tooManySignature, &many,
              1, &output, 1);
  tsmlir_tensor large = makeTensor(&x, TSMLIR_FLOAT32, 1, kTooLarge, NULL);
  expectError("too many bytes", TSMLIR_ERROR_SHAPE, &tooLargeSignature, &large,
              1, &output, 1);
}

static void testCuda(void) {
  float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[4];
  tsmlir_tensor input = makeTensor(x, TSMLIR_FLOAT32, 1, k4, NULL);
  tsmlir_tensor output = makeTensor(y, TSMLIR_FLOAT32, 1, k4, NULL);
  expectOk(&cudaSignature, &input, 1, &output, 1);
  CHECK(y[0] == 2 && y[1] == 4 && y[2] == 6 && y[3] == 8);
  printFloats("cuda", y, 4);

  const int64_t strided[] = {2};
  input.strides = strided;
  expectError("cuda strided", TSMLIR_ERROR_LAYOUT, &cudaSignature, &input, 1,
              &output, 1);
  input.strides = NULL;
  deviceFails = 1;
  int calls = atomic_load(&packedCalls);
  expectError("device", TSMLIR_ERROR_DEVICE, &cudaSignature, &input, 1, &output,
              1);
  CHECK(atomic_load(&packedCalls) == calls + 1);
  deviceFails = 0;
}

/*===--- Threads ----------------------------------------------------------===*/

enum { kThreads = 8, kThreadCalls = 500 };

/* Calls add_main with its own numbers, and a failing call in between whose
   message must be this thread's. */
static void *threadMain(void *argument) {
  int id = (int)(intptr_t)argument;
  AddCall c;
  char expected[128];
  snprintf(expected, sizeof(expected),
           "add_main: expected 3 inputs (a, b, alpha), got %d", 100 + id);
  for (int call = 0; call < kThreadCalls; ++call) {
    initAddCall(&c);
    c.a[call % 6] = (float)(id * 1000 + call);
    c.alpha = id;
    CHECK(tsmlir_invoke(&addSignature, c.inputs, 100 + id, c.outputs, 1) ==
          TSMLIR_ERROR_ARITY);
    CHECK(strcmp(tsmlir_last_error(), expected) == 0);
    CHECK(tsmlir_invoke(&addSignature, c.inputs, 3, c.outputs, 1) == TSMLIR_OK);
    CHECK(tsmlir_last_error()[0] == '\0');
    checkAdd(c.out, c.a, c.b, c.alpha);
  }
  return NULL;
}

static void testThreads(void) {
  int calls = atomic_load(&packedCalls);
  pthread_t threads[kThreads];
  for (int i = 0; i < kThreads; ++i)
    CHECK(pthread_create(&threads[i], NULL, threadMain, (void *)(intptr_t)i) ==
          0);
  for (int i = 0; i < kThreads; ++i)
    CHECK(pthread_join(threads[i], NULL) == 0);
  CHECK(atomic_load(&packedCalls) == calls + kThreads * kThreadCalls);
  printf("threads: %d threads, %d calls each: results right, calls "
         "serialised, one last error per thread\n",
         kThreads, kThreadCalls);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  initModels();
  testHelpers();
  testAddChecks();
  testStridedOverlap();
  testNoReads();
  testTruncation();
  testStridedAdd();
  testStridedCopies();
  testLargeCalls();
  testNumbers();
  testEmpty();
  testSizes();
  testCuda();
  testThreads();
  printf("all passed\n");
  return 0;
}
