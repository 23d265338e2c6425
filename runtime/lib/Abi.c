/*===- Abi.c - Checked calls into ahead-of-time compiled models ---*- C -*-===//
 *
 * Part of the tsmlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===//
 *
 * libtsmlir_runtime.a: the functions of Abi.h. tsmlir_invoke checks a call
 * against the model's signature without touching tensor data, copies
 * non-contiguous inputs of CPU models into contiguous temporaries, builds the
 * arguments of the compiled code (MLIR memref descriptors, and doubles for
 * float numbers) and calls it, one call per model at a time.
 *
 *===----------------------------------------------------------------------===*/

#include "tsmlir/Runtime/Abi.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A memref descriptor is a sequence of 64-bit words, pointers included. */
_Static_assert(sizeof(void *) == sizeof(int64_t),
               "the memref descriptors assume 64-bit pointers");

/*===--- Names and sizes --------------------------------------------------===*/

const char *tsmlir_status_name(int32_t status) {
  static const char *const names[] = {
      "TSMLIR_OK",           "TSMLIR_ERROR_ARITY",  "TSMLIR_ERROR_NULL",
      "TSMLIR_ERROR_DTYPE",  "TSMLIR_ERROR_RANK",   "TSMLIR_ERROR_SHAPE",
      "TSMLIR_ERROR_LAYOUT", "TSMLIR_ERROR_MEMORY", "TSMLIR_ERROR_DEVICE",
      "TSMLIR_ERROR_VERSION"};
  if (status < 0 || status >= (int32_t)(sizeof(names) / sizeof(names[0])))
    return "unknown status";
  return names[status];
}

const char *tsmlir_dtype_name(int32_t dtype) {
  switch (dtype) {
  case TSMLIR_BOOL:
    return "bool";
  case TSMLIR_UINT8:
    return "uint8";
  case TSMLIR_INT8:
    return "int8";
  case TSMLIR_INT16:
    return "int16";
  case TSMLIR_INT32:
    return "int32";
  case TSMLIR_INT64:
    return "int64";
  case TSMLIR_FLOAT16:
    return "float16";
  case TSMLIR_FLOAT32:
    return "float32";
  case TSMLIR_FLOAT64:
    return "float64";
  default:
    return NULL;
  }
}

size_t tsmlir_dtype_size(int32_t dtype) {
  switch (dtype) {
  case TSMLIR_BOOL:
  case TSMLIR_UINT8:
  case TSMLIR_INT8:
    return 1;
  case TSMLIR_INT16:
  case TSMLIR_FLOAT16:
    return 2;
  case TSMLIR_INT32:
  case TSMLIR_FLOAT32:
    return 4;
  case TSMLIR_INT64:
  case TSMLIR_FLOAT64:
    return 8;
  default:
    return 0;
  }
}

int64_t tsmlir_numel(int32_t rank, const int64_t *sizes) {
  if (rank < 0 || (rank > 0 && !sizes))
    return -1;
  int64_t numel = 1;
  for (int32_t d = 0; d < rank; ++d) {
    if (sizes[d] < 0 || __builtin_mul_overflow(numel, sizes[d], &numel))
      return -1;
  }
  return numel;
}

/*===--- The last error ---------------------------------------------------===*/

enum { kMessageSize = 1024 };
static _Thread_local char lastError[kMessageSize];

const char *tsmlir_last_error(void) { return lastError; }

/* A message being written into lastError; text beyond its size is dropped
   and the message then ends with "...". */
typedef struct Message {
  size_t length;
  bool truncated;
} Message;

static bool isFull(const Message *m) { return m->truncated; }

static void appendV(Message *m, const char *format, va_list args)
    __attribute__((format(printf, 2, 0)));

static void appendV(Message *m, const char *format, va_list args) {
  if (m->truncated)
    return;
  size_t room = kMessageSize - m->length;
  int written = vsnprintf(lastError + m->length, room, format, args);
  if (written < 0)
    return;
  if ((size_t)written < room) {
    m->length += (size_t)written;
    return;
  }
  m->length = kMessageSize - 1;
  m->truncated = true;
  memcpy(lastError + kMessageSize - 4, "...", 4);
}

static void append(Message *m, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static void append(Message *m, const char *format, ...) {
  va_list args;
  va_start(args, format);
  appendV(m, format, args);
  va_end(args);
}

/* Starts the message of a failed call into `model`. */
static Message startMessage(const char *model) {
  Message m = {0, false};
  lastError[0] = '\0';
  append(&m, "%s: ", model);
  return m;
}

/* A message in one piece: "model: <format>". */
static tsmlir_status fail(tsmlir_status status, const char *model,
                          const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static tsmlir_status fail(tsmlir_status status, const char *model,
                          const char *format, ...) {
  Message m = startMessage(model);
  va_list args;
  va_start(args, format);
  appendV(&m, format, args);
  va_end(args);
  return status;
}

/*===--- Describing tensors in messages -----------------------------------===*/

/* "input 1 ('boxes2')", "output 0". */
static void appendWhich(Message *m, bool output, int64_t index,
                        const tsmlir_value_info *info) {
  append(m, "%s %lld", output ? "output" : "input", (long long)index);
  if (info->name && info->name[0])
    append(m, " ('%s')", info->name);
}

static void appendDtype(Message *m, int32_t dtype) {
  const char *name = tsmlir_dtype_name(dtype);
  if (name)
    append(m, "%s", name);
  else
    append(m, "dtype %d", (int)dtype);
}

/* "[2, 3]"; stops reading `values` once the message is full. */
static void appendList(Message *m, int32_t rank, const int64_t *values) {
  append(m, "[");
  for (int32_t d = 0; d < rank && !isFull(m); ++d)
    append(m, d ? ", %lld" : "%lld", (long long)values[d]);
  append(m, "]");
}

/* "float32[2, 3]", "float64[]", "int64 of rank 2 (sizes NULL)",
   "dtype 42 [2, 3]". */
static void appendType(Message *m, int32_t dtype, int32_t rank,
                       const int64_t *sizes) {
  appendDtype(m, dtype);
  if (!tsmlir_dtype_name(dtype) && rank >= 0 && (rank == 0 || sizes))
    append(m, " ");
  if (rank < 0)
    append(m, " of rank %d", (int)rank);
  else if (rank > 0 && !sizes)
    append(m, " of rank %d (sizes NULL)", (int)rank);
  else
    appendList(m, rank, sizes);
}

/*===--- Checks of the signature and of each tensor -----------------------===*/

static const char *modelName(const tsmlir_signature *signature) {
  return signature->name ? signature->name : "(unnamed model)";
}

/* A signature whose descriptions cannot be used (NULL arrays, unknown
   dtypes, negative ranks) is refused like a call with the same faults. Its
   sizes are checked with the tensors' (checkTensor). */
static tsmlir_status checkSignature(const tsmlir_signature *signature) {
  const char *model = modelName(signature);
  if (!signature->packed)
    return fail(TSMLIR_ERROR_NULL, model,
                "the signature has no compiled code (packed is NULL)");
  if (signature->num_inputs < 0 || signature->num_outputs < 0 ||
      (signature->num_inputs > 0 && !signature->inputs) ||
      (signature->num_outputs > 0 && !signature->outputs))
    return fail(TSMLIR_ERROR_NULL, model,
                "the signature's inputs or outputs are missing");
  for (int32_t side = 0; side < 2; ++side) {
    const tsmlir_value_info *infos =
        side ? signature->outputs : signature->inputs;
    int32_t count = side ? signature->num_outputs : signature->num_inputs;
    for (int32_t i = 0; i < count; ++i) {
      const tsmlir_value_info *info = &infos[i];
      tsmlir_status status =
          tsmlir_dtype_size(info->dtype) == 0 ? TSMLIR_ERROR_DTYPE
          : info->rank < 0                    ? TSMLIR_ERROR_RANK
          : info->rank > 0 && !info->sizes    ? TSMLIR_ERROR_NULL
                                              : TSMLIR_OK;
      if (status == TSMLIR_OK)
        continue;
      Message m = startMessage(model);
      appendWhich(&m, side, i, info);
      append(&m, ": the signature's type ");
      appendType(&m, info->dtype, info->rank, info->sizes);
      append(&m, " is invalid");
      return status;
    }
  }
  return TSMLIR_OK;
}

/* "ratio_iou_main: expected 2 inputs (boxes1, boxes2), got 3". */
static tsmlir_status arityError(const tsmlir_signature *signature, bool output,
                                int64_t got) {
  const tsmlir_value_info *infos =
      output ? signature->outputs : signature->inputs;
  int32_t count = output ? signature->num_outputs : signature->num_inputs;
  Message m = startMessage(modelName(signature));
  append(&m, "expected %d %s%s", (int)count, output ? "output" : "input",
         count == 1 ? "" : "s");
  bool named = false;
  for (int32_t i = 0; i < count; ++i) {
    if (!infos[i].name || !infos[i].name[0])
      continue;
    append(&m, "%s%s", named ? ", " : " (", infos[i].name);
    named = true;
  }
  if (named)
    append(&m, ")");
  append(&m, ", got %lld", (long long)got);
  return TSMLIR_ERROR_ARITY;
}

/* "model: input 1 ('b'): expected float32[2, 3], got float32[3, 2]". */
static tsmlir_status mismatch(tsmlir_status status, const char *model,
                              bool output, int64_t index,
                              const tsmlir_value_info *info,
                              const tsmlir_tensor *tensor) {
  Message m = startMessage(model);
  appendWhich(&m, output, index, info);
  append(&m, ": expected ");
  appendType(&m, info->dtype, info->rank, info->sizes);
  append(&m, ", got ");
  appendType(&m, tensor->dtype, tensor->rank, tensor->sizes);
  return status;
}

/* The bytes of a tensor of this type, or -1 if they do not fit in int64. */
static int64_t byteSize(const tsmlir_value_info *info) {
  int64_t numel = tsmlir_numel(info->rank, info->sizes);
  int64_t bytes;
  if (numel < 0 || __builtin_mul_overflow(
                       numel, (int64_t)tsmlir_dtype_size(info->dtype), &bytes))
    return -1;
  return bytes;
}

/* Dtype, rank, sizes and data of one tensor; nothing beyond `rank` sizes is
   read. */
static tsmlir_status checkTensor(const char *model, bool output, int64_t index,
                                 const tsmlir_value_info *info,
                                 const tsmlir_tensor *tensor) {
  if (tensor->dtype != info->dtype)
    return mismatch(TSMLIR_ERROR_DTYPE, model, output, index, info, tensor);
  if (tensor->rank != info->rank)
    return mismatch(TSMLIR_ERROR_RANK, model, output, index, info, tensor);
  if (tensor->rank > 0 && !tensor->sizes) {
    Message m = startMessage(model);
    appendWhich(&m, output, index, info);
    append(&m, ": sizes is NULL for rank %d", (int)tensor->rank);
    return TSMLIR_ERROR_NULL;
  }
  for (int32_t d = 0; d < tensor->rank; ++d)
    if (tensor->sizes[d] != info->sizes[d])
      return mismatch(TSMLIR_ERROR_SHAPE, model, output, index, info, tensor);
  int64_t bytes = byteSize(info);
  if (bytes < 0) {
    Message m = startMessage(model);
    appendWhich(&m, output, index, info);
    append(&m, ": ");
    appendType(&m, info->dtype, info->rank, info->sizes);
    append(&m, " has more %s than int64 can count",
           tsmlir_numel(info->rank, info->sizes) < 0 ? "elements" : "bytes");
    return TSMLIR_ERROR_SHAPE;
  }
  if (!tensor->data && bytes > 0) {
    Message m = startMessage(model);
    appendWhich(&m, output, index, info);
    append(&m, ": data is NULL");
    return TSMLIR_ERROR_NULL;
  }
  return TSMLIR_OK;
}

/*===--- Layouts ----------------------------------------------------------===*/

/* Whether `strides` (NULL: contiguous) are row-major contiguous for `sizes`.
   Dimensions of size 1 may have any stride; an empty tensor is contiguous. */
static bool isContiguous(int32_t rank, const int64_t *sizes,
                         const int64_t *strides) {
  if (!strides || tsmlir_numel(rank, sizes) == 0)
    return true;
  int64_t expected = 1;
  for (int32_t d = rank - 1; d >= 0; --d) {
    if (sizes[d] != 1 && strides[d] != expected)
      return false;
    expected *= sizes[d]; /* bounded by numel, which fits */
  }
  return true;
}

/* The bytes [*low, *high) that a non-empty tensor's elements occupy; false
   when the strides reach beyond the address space. */
static bool addressRange(const tsmlir_tensor *tensor, int64_t elementSize,
                         uintptr_t *low, uintptr_t *high) {
  /* The element offsets of the first and the last element in memory. */
  int64_t below = 0, above = 0;
  if (!tensor->strides)
    above = tsmlir_numel(tensor->rank, tensor->sizes) - 1;
  for (int32_t d = 0; tensor->strides && d < tensor->rank; ++d) {
    int64_t span;
    int64_t *end = tensor->strides[d] < 0 ? &below : &above;
    if (__builtin_mul_overflow(tensor->sizes[d] - 1, tensor->strides[d],
                               &span) ||
        __builtin_add_overflow(*end, span, end))
      return false;
  }
  int64_t belowBytes, aboveBytes;
  if (__builtin_mul_overflow(below, -elementSize, &belowBytes) ||
      __builtin_mul_overflow(above, elementSize, &aboveBytes) ||
      __builtin_add_overflow(aboveBytes, elementSize, &aboveBytes))
    return false;
  uintptr_t address = (uintptr_t)tensor->data;
  if ((uint64_t)belowBytes > address ||
      (uint64_t)aboveBytes > UINTPTR_MAX - address)
    return false;
  *low = address - (uintptr_t)belowBytes;
  *high = address + (uintptr_t)aboveBytes;
  return true;
}

/* One tensor of a call and what it is checked against. */
typedef struct Operand {
  const tsmlir_tensor *tensor;
  const tsmlir_value_info *info;
  bool output;
  int64_t index;
} Operand;

static Operand operand(const tsmlir_signature *signature,
                       const tsmlir_tensor *inputs,
                       const tsmlir_tensor *outputs, bool output,
                       int64_t index) {
  Operand o = {output ? &outputs[index] : &inputs[index],
               output ? &signature->outputs[index] : &signature->inputs[index],
               output, index};
  return o;
}

static bool isEmpty(const Operand *o) {
  return tsmlir_numel(o->info->rank, o->info->sizes) == 0;
}

static int64_t elementSize(const Operand *o) {
  return (int64_t)tsmlir_dtype_size(o->info->dtype);
}

/* The strides of one tensor: contiguous outputs (and CUDA inputs), and an
   address range that exists. */
static tsmlir_status checkLayout(const tsmlir_signature *signature,
                                 const Operand *o) {
  const char *model = modelName(signature);
  const tsmlir_tensor *t = o->tensor;
  if (!isContiguous(t->rank, t->sizes, t->strides) &&
      (o->output || signature->device != TSMLIR_DEVICE_CPU)) {
    Message m = startMessage(model);
    appendWhich(&m, o->output, o->index, o->info);
    append(&m, ": strides ");
    appendList(&m, t->rank, t->strides);
    append(&m, " are not contiguous");
    append(&m, o->output ? "; outputs must be contiguous"
                         : "; a CUDA model needs contiguous inputs");
    return TSMLIR_ERROR_LAYOUT;
  }
  uintptr_t low, high;
  if (!isEmpty(o) && !addressRange(t, elementSize(o), &low, &high)) {
    Message m = startMessage(model);
    appendWhich(&m, o->output, o->index, o->info);
    append(&m, ": its elements reach beyond the address space");
    return TSMLIR_ERROR_LAYOUT;
  }
  return TSMLIR_OK;
}

static bool overlaps(const Operand *a, const Operand *b) {
  if (isEmpty(a) || isEmpty(b))
    return false;
  uintptr_t lowA, highA, lowB, highB;
  addressRange(a->tensor, elementSize(a), &lowA, &highA);
  addressRange(b->tensor, elementSize(b), &lowB, &highB);
  return lowA < highB && lowB < highA;
}

/* Every output against the outputs before it and against every input. */
static tsmlir_status checkOverlaps(const tsmlir_signature *signature,
                                   const tsmlir_tensor *inputs,
                                   const tsmlir_tensor *outputs) {
  for (int32_t i = 0; i < signature->num_outputs; ++i) {
    Operand out = operand(signature, inputs, outputs, true, i);
    for (int32_t j = 0; j < i + signature->num_inputs; ++j) {
      bool isOutput = j < i;
      Operand other =
          operand(signature, inputs, outputs, isOutput, isOutput ? j : j - i);
      if (!overlaps(&out, &other))
        continue;
      Message m = startMessage(modelName(signature));
      appendWhich(&m, true, i, out.info);
      append(&m, " overlaps ");
      appendWhich(&m, other.output, other.index, other.info);
      return TSMLIR_ERROR_LAYOUT;
    }
  }
  return TSMLIR_OK;
}

/* Every check of a call whose counts and arrays are right. */
static tsmlir_status checkOperands(const tsmlir_signature *signature,
                                   const tsmlir_tensor *inputs,
                                   const tsmlir_tensor *outputs) {
  int32_t total = signature->num_inputs + signature->num_outputs;
  tsmlir_status status;
  for (int32_t k = 0; k < total; ++k) {
    bool output = k >= signature->num_inputs;
    Operand o = operand(signature, inputs, outputs, output,
                        output ? k - signature->num_inputs : k);
    status =
        checkTensor(modelName(signature), output, o.index, o.info, o.tensor);
    if (status != TSMLIR_OK)
      return status;
  }
  for (int32_t k = 0; k < total; ++k) {
    bool output = k >= signature->num_inputs;
    Operand o = operand(signature, inputs, outputs, output,
                        output ? k - signature->num_inputs : k);
    status = checkLayout(signature, &o);
    if (status != TSMLIR_OK)
      return status;
  }
  return checkOverlaps(signature, inputs, outputs);
}

/*===--- Contiguous copies of strided inputs ------------------------------===*/

/* Copies `count` elements `step` bytes apart into contiguous `dst`. */
static void copyRow(char *dst, uintptr_t src, int64_t count, int64_t step,
                    size_t size) {
  for (int64_t i = 0; i < count; ++i, dst += size, src += (uintptr_t)step)
    memcpy(dst, (const void *)src, size);
}

/* Copies a non-empty strided tensor into contiguous row-major `dst`, using
   `counter` (rank words) as the index of the row being copied. Offsets are
   kept as integers so that no pointer leaves the tensor's range. */
static void copyStrided(char *dst, const tsmlir_tensor *t, size_t size,
                        int64_t *counter) {
  int32_t rank = t->rank;
  if (rank == 0) {
    memcpy(dst, t->data, size);
    return;
  }
  int32_t inner = rank - 1;
  int64_t rowLength = t->sizes[inner];
  int64_t rowStep = t->strides[inner] * (int64_t)size;
  int64_t offset = 0; /* bytes from data to the row's first element */
  for (int32_t d = 0; d < rank; ++d)
    counter[d] = 0;
  for (;;) {
    copyRow(dst, (uintptr_t)t->data + (uintptr_t)offset, rowLength, rowStep,
            size);
    dst += (size_t)rowLength * size;
    int32_t d = inner - 1;
    for (; d >= 0; --d) {
      int64_t stride = t->strides[d] * (int64_t)size;
      if (++counter[d] < t->sizes[d]) {
        offset += stride;
        break;
      }
      offset -= (t->sizes[d] - 1) * stride;
      counter[d] = 0;
    }
    if (d < 0)
      return;
  }
}

/*===--- The arguments of the compiled code -------------------------------===*/

/* The memory of one call: the argument pointers, the memref descriptors
   (and the index that copyStrided needs) and the inputs' contiguous
   temporaries. Small calls use the arrays inside, larger ones malloc. */
enum { kSmallCount = 16, kSmallWords = 256 };
typedef struct Workspace {
  void **arguments;
  int64_t *words;
  int64_t *counter;   /* after the descriptors: copyStrided's index */
  void **temporaries; /* one per input: NULL, or an aligned copy */
  void *smallArguments[kSmallCount];
  int64_t smallWords[kSmallWords];
  void *smallTemporaries[kSmallCount];
} Workspace;

static void *smallOrMalloc(void *small, size_t smallCount, size_t count,
                           size_t size) {
  return count <= smallCount ? small : malloc(count * size);
}

static void freeWorkspace(Workspace *w, int32_t numInputs) {
  for (int32_t i = 0; w->temporaries && i < numInputs; ++i)
    free(w->temporaries[i]);
  if (w->arguments != w->smallArguments)
    free(w->arguments);
  if (w->words != w->smallWords)
    free(w->words);
  if (w->temporaries != w->smallTemporaries)
    free(w->temporaries);
}

/* Whether a value is passed as a double rather than as a descriptor. */
static bool isDoubleArgument(const Operand *o) {
  return !o->output && o->info->kind == TSMLIR_KIND_NUMBER &&
         o->info->dtype == TSMLIR_FLOAT64;
}

/* Allocates the workspace of a call whose checks passed. */
static bool allocateWorkspace(Workspace *w, const tsmlir_signature *signature) {
  size_t count = (size_t)signature->num_inputs + signature->num_outputs;
  size_t words = 0, maxRank = 0;
  for (int32_t side = 0; side < 2; ++side) {
    const tsmlir_value_info *infos =
        side ? signature->outputs : signature->inputs;
    int32_t n = side ? signature->num_outputs : signature->num_inputs;
    for (int32_t i = 0; i < n; ++i) {
      words += 3 + 2 * (size_t)infos[i].rank;
      if ((size_t)infos[i].rank > maxRank)
        maxRank = infos[i].rank;
    }
  }
  size_t descriptorWords = words;
  words += maxRank;
  size_t temporaries = (size_t)signature->num_inputs;
  w->arguments =
      smallOrMalloc(w->smallArguments, kSmallCount, count, sizeof(void *));
  w->words = smallOrMalloc(w->smallWords, kSmallWords, words, sizeof(int64_t));
  w->counter = w->words ? w->words + descriptorWords : NULL;
  w->temporaries = smallOrMalloc(w->smallTemporaries, kSmallCount, temporaries,
                                 sizeof(void *));
  if (w->temporaries)
    for (size_t i = 0; i < temporaries; ++i)
      w->temporaries[i] = NULL;
  return (w->arguments || count == 0) && w->words &&
         (w->temporaries || temporaries == 0);
}

/* Copies the non-contiguous inputs of a CPU model into 64-byte-aligned
   temporaries. */
static tsmlir_status copyInputs(Workspace *w, const tsmlir_signature *signature,
                                const tsmlir_tensor *inputs) {
  for (int32_t i = 0; i < signature->num_inputs; ++i) {
    const tsmlir_tensor *t = &inputs[i];
    if (isContiguous(t->rank, t->sizes, t->strides))
      continue;
    const tsmlir_value_info *info = &signature->inputs[i];
    size_t size = tsmlir_dtype_size(info->dtype);
    size_t bytes = (size_t)byteSize(info);
    size_t rounded = (bytes + 63) / 64 * 64; /* aligned_alloc wants this */
    w->temporaries[i] = rounded < bytes ? NULL : aligned_alloc(64, rounded);
    if (!w->temporaries[i]) {
      Message m = startMessage(modelName(signature));
      append(&m, "out of memory: %zu bytes for a contiguous copy of ", bytes);
      appendWhich(&m, false, i, info);
      return TSMLIR_ERROR_MEMORY;
    }
    copyStrided(w->temporaries[i], t, size, w->counter);
  }
  return TSMLIR_OK;
}

/* Writes the descriptor of a contiguous memref at `words`:
   {allocated, aligned, offset, sizes[rank], strides[rank]}. */
static void writeDescriptor(int64_t *words, void *data,
                            const tsmlir_value_info *info) {
  int32_t rank = info->rank;
  words[0] = (int64_t)(intptr_t)data;
  words[1] = (int64_t)(intptr_t)data;
  words[2] = 0;
  int64_t stride = 1;
  for (int32_t d = rank - 1; d >= 0; --d) {
    words[3 + d] = info->sizes[d];
    words[3 + rank + d] = stride;
    stride *= info->sizes[d];
  }
}

/* Fills the argument pointers: inputs, then outputs. */
static void buildArguments(Workspace *w, const tsmlir_signature *signature,
                           const tsmlir_tensor *inputs,
                           const tsmlir_tensor *outputs) {
  int32_t count = signature->num_inputs + signature->num_outputs;
  int64_t *words = w->words;
  for (int32_t k = 0; k < count; ++k) {
    bool output = k >= signature->num_inputs;
    Operand o = operand(signature, inputs, outputs, output,
                        output ? k - signature->num_inputs : k);
    void *data = o.tensor->data;
    if (!output && w->temporaries[k])
      data = w->temporaries[k];
    if (isDoubleArgument(&o)) {
      w->arguments[k] = data;
      continue;
    }
    writeDescriptor(words, data, o.info);
    w->arguments[k] = words;
    words += 3 + 2 * o.info->rank;
  }
}

/*===--- Calls ------------------------------------------------------------===*/

/* Calls into one model are serialised by a mutex picked by the address of
   its signature; models that share one merely wait for each other. */
#define MUTEX1 PTHREAD_MUTEX_INITIALIZER
#define MUTEX4 MUTEX1, MUTEX1, MUTEX1, MUTEX1
#define MUTEX16 MUTEX4, MUTEX4, MUTEX4, MUTEX4
enum { kMutexBits = 6 };
static pthread_mutex_t modelMutexes[1 << kMutexBits] = {MUTEX16, MUTEX16,
                                                        MUTEX16, MUTEX16};

static pthread_mutex_t *modelMutex(const tsmlir_signature *signature) {
  uint64_t hash = (uint64_t)(uintptr_t)signature * 0x9e3779b97f4a7c15ull;
  return &modelMutexes[hash >> (64 - kMutexBits)];
}

/* Runs the compiled code, then asks the device runtime (CUDA models) for a
   failure. */
static tsmlir_status runModel(const tsmlir_signature *signature,
                              void **arguments) {
  char message[kMessageSize / 2] = "";
  pthread_mutex_t *mutex = modelMutex(signature);
  pthread_mutex_lock(mutex);
  signature->packed(arguments);
  int failed = signature->device_error
                   ? signature->device_error(message, sizeof(message))
                   : 0;
  pthread_mutex_unlock(mutex);
  if (!failed)
    return TSMLIR_OK;
  message[sizeof(message) - 1] = '\0';
  return fail(TSMLIR_ERROR_DEVICE, modelName(signature), "%s",
              message[0] ? message : "the device reported an error");
}

/* The checks that do not look at the tensors themselves. */
static tsmlir_status checkCall(const tsmlir_signature *signature,
                               const tsmlir_tensor *inputs, int64_t num_inputs,
                               const tsmlir_tensor *outputs,
                               int64_t num_outputs) {
  if (!signature)
    return fail(TSMLIR_ERROR_NULL, "tsmlir_invoke", "the signature is NULL");
  const char *model = modelName(signature);
  if (signature->abi_version != TSMLIR_ABI_VERSION)
    return fail(TSMLIR_ERROR_VERSION, model,
                "compiled for ABI version %u, the runtime implements "
                "version %d",
                (unsigned)signature->abi_version, TSMLIR_ABI_VERSION);
  tsmlir_status status = checkSignature(signature);
  if (status != TSMLIR_OK)
    return status;
  if (num_inputs != signature->num_inputs)
    return arityError(signature, false, num_inputs);
  if (num_outputs != signature->num_outputs)
    return arityError(signature, true, num_outputs);
  if (num_inputs > 0 && !inputs)
    return fail(TSMLIR_ERROR_NULL, model, "the inputs array is NULL");
  if (num_outputs > 0 && !outputs)
    return fail(TSMLIR_ERROR_NULL, model, "the outputs array is NULL");
  return TSMLIR_OK;
}

tsmlir_status tsmlir_invoke(const tsmlir_signature *signature,
                            const tsmlir_tensor *inputs, int64_t num_inputs,
                            const tsmlir_tensor *outputs, int64_t num_outputs) {
  tsmlir_status status =
      checkCall(signature, inputs, num_inputs, outputs, num_outputs);
  if (status == TSMLIR_OK)
    status = checkOperands(signature, inputs, outputs);
  if (status != TSMLIR_OK)
    return status;

  Workspace w;
  if (!allocateWorkspace(&w, signature)) {
    freeWorkspace(&w, 0);
    return fail(TSMLIR_ERROR_MEMORY, modelName(signature),
                "out of memory for the arguments of the call");
  }
  status = copyInputs(&w, signature, inputs);
  if (status == TSMLIR_OK) {
    buildArguments(&w, signature, inputs, outputs);
    status = runModel(signature, w.arguments);
  }
  freeWorkspace(&w, signature->num_inputs);
  if (status == TSMLIR_OK)
    lastError[0] = '\0';
  return status;
}
