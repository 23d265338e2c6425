/*===- Abi.h - The C ABI of models compiled by tsmlir-compile -----*- C -*-===//
 *
 * Part of the tsmlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===//
 *
 * A model compiled ahead of time (`tsmlir-compile graph.txt -o model.o
 * --name NAME`) exports, for its entry function ENTRY:
 *
 *   tsmlir_status NAME_ENTRY(const tsmlir_tensor *inputs, int64_t num_inputs,
 *                            const tsmlir_tensor *outputs,
 *                            int64_t num_outputs);
 *   const tsmlir_signature *NAME_ENTRY_signature(void);
 *
 * The first runs the graph: it reads the inputs and writes the outputs, whose
 * memory the caller owns (outputs' data must be allocated with the sizes
 * that the signature gives). The second describes what the first expects.
 * The header that `--emit-header` writes declares both, with the signature in
 * its comments, and contains this file's types; the functions below come
 * from libtsmlir_runtime.a, which a program links with the model.
 *
 * Every call is checked against the signature before any data is touched:
 * the number of inputs and outputs, each tensor's dtype, rank and sizes,
 * non-NULL data (unless the tensor is empty), outputs that are contiguous and
 * overlap no other tensor. A call that fails a check returns its status and
 * leaves a message for tsmlir_last_error(); nothing is read or written.
 *
 * A TorchScript number (float, int, bool) is passed as a 0-d tensor: float
 * arguments as TSMLIR_FLOAT64, int and bool results as TSMLIR_INT64 and
 * TSMLIR_BOOL. Numbers are always in host memory. For a CUDA model
 * (`--target cuda`), tensors' data are device pointers (from cudaMalloc or
 * tsmlirCudaMalloc), which cannot be checked beyond being non-NULL.
 *
 * Inputs may be strided (`strides` in elements, any sign, 0 for broadcast
 * dimensions): a CPU model copies a non-contiguous input into a contiguous
 * temporary first. A CUDA model needs contiguous inputs.
 *
 * Calls into one model are serialised (a model's temporaries are allocated
 * once, in globals); calls into different models may run in parallel.
 *
 *===----------------------------------------------------------------------===*/

#ifndef TSMLIR_RUNTIME_ABI_H
#define TSMLIR_RUNTIME_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this ABI; a model records the one it was compiled for. */
#define TSMLIR_ABI_VERSION 1

/* Element types, as PyTorch names them. */
typedef enum tsmlir_dtype {
  TSMLIR_BOOL = 1,    /* torch.bool, one byte: 0 or 1 */
  TSMLIR_UINT8 = 2,   /* torch.uint8 */
  TSMLIR_INT8 = 3,    /* torch.int8 */
  TSMLIR_INT16 = 4,   /* torch.int16 */
  TSMLIR_INT32 = 5,   /* torch.int32 */
  TSMLIR_INT64 = 6,   /* torch.int64, and TorchScript int */
  TSMLIR_FLOAT16 = 7, /* torch.float16 */
  TSMLIR_FLOAT32 = 8, /* torch.float32 */
  TSMLIR_FLOAT64 = 9  /* torch.float64, and TorchScript float */
} tsmlir_dtype;

/* What a call returns. */
typedef enum tsmlir_status {
  TSMLIR_OK = 0,
  TSMLIR_ERROR_ARITY = 1,   /* the number of inputs or outputs is wrong */
  TSMLIR_ERROR_NULL = 2,    /* a NULL array, data or sizes pointer */
  TSMLIR_ERROR_DTYPE = 3,   /* a tensor's dtype is not the expected one */
  TSMLIR_ERROR_RANK = 4,    /* a tensor's rank is not the expected one */
  TSMLIR_ERROR_SHAPE = 5,   /* a tensor's sizes are not the expected ones */
  TSMLIR_ERROR_LAYOUT = 6,  /* a non-contiguous output (or CUDA input), or
                               an output that overlaps another tensor */
  TSMLIR_ERROR_MEMORY = 7,  /* a temporary could not be allocated */
  TSMLIR_ERROR_DEVICE = 8,  /* the CUDA runtime reported an error */
  TSMLIR_ERROR_VERSION = 9  /* the model was compiled for another ABI */
} tsmlir_status;

/* A tensor: `rank` sizes and strides (in elements). `sizes` may be NULL when
   rank is 0; `strides` NULL means contiguous (row-major). */
typedef struct tsmlir_tensor {
  void *data;
  int32_t dtype; /* a tsmlir_dtype */
  int32_t rank;
  const int64_t *sizes;
  const int64_t *strides;
} tsmlir_tensor;

/* What the model expects of one input or output. */
typedef enum tsmlir_kind {
  TSMLIR_KIND_TENSOR = 0, /* a TorchScript Tensor */
  TSMLIR_KIND_NUMBER = 1  /* a TorchScript float, int or bool (0-d) */
} tsmlir_kind;

typedef struct tsmlir_value_info {
  const char *name;     /* TorchScript's name ("" for outputs) */
  int32_t kind;         /* a tsmlir_kind */
  int32_t dtype;        /* a tsmlir_dtype */
  int32_t rank;
  int32_t position;     /* inputs: the argument's position in the graph */
  const int64_t *sizes; /* rank sizes */
} tsmlir_value_info;

/* A graph argument that was fixed when the model was compiled (an int, a
   bool or None): it is not an input of the call. */
typedef struct tsmlir_bound_argument {
  const char *name;
  int32_t position;
  const char *value; /* as given: "3", "true", "none" */
} tsmlir_bound_argument;

typedef enum tsmlir_device {
  TSMLIR_DEVICE_CPU = 0,
  TSMLIR_DEVICE_CUDA = 1
} tsmlir_device;

typedef tsmlir_status (*tsmlir_entry_fn)(const tsmlir_tensor *inputs,
                                         int64_t num_inputs,
                                         const tsmlir_tensor *outputs,
                                         int64_t num_outputs);

typedef struct tsmlir_signature {
  uint32_t abi_version; /* TSMLIR_ABI_VERSION when compiled */
  int32_t device;       /* a tsmlir_device */
  const char *name;     /* the exported function: NAME_ENTRY */
  const char *target;   /* "x86_64-unknown-linux-gnu", "sm_90", ... */
  int32_t num_inputs;
  int32_t num_outputs;
  int32_t num_bound;
  int32_t num_graph_arguments; /* inputs + bound arguments */
  const tsmlir_value_info *inputs;
  const tsmlir_value_info *outputs;
  const tsmlir_bound_argument *bound;
  tsmlir_entry_fn entry; /* NAME_ENTRY itself */
  /* Internal: the compiled code, called with one pointer per input, then
     per output: to a contiguous memref descriptor, or for a TorchScript
     float input (a number, not a float tensor) to the double itself; and
     for CUDA models the runtime's sticky-error query (non-zero with a
     message after a failure), or NULL. */
  void (*packed)(void **arguments);
  int (*device_error)(char *message, size_t size);
} tsmlir_signature;

/* A shared object from `tsmlir-compile --shared` also exports
   `const tsmlir_signature *const tsmlir_shared_model[]`: its entries'
   signatures, NULL-terminated. tsmlir-run looks it up with dlsym. */

/*===----------------------------------------------------------------------===
 * libtsmlir_runtime.a
 *===----------------------------------------------------------------------===*/

/* Checks a call against `signature`, then runs it (what NAME_ENTRY does). */
tsmlir_status tsmlir_invoke(const tsmlir_signature *signature,
                            const tsmlir_tensor *inputs, int64_t num_inputs,
                            const tsmlir_tensor *outputs,
                            int64_t num_outputs);

/* The message of the last call that failed in this thread; "" when the last
   call succeeded. Valid until the thread's next call. */
const char *tsmlir_last_error(void);

/* "TSMLIR_ERROR_SHAPE", ...; "unknown status" for other values. */
const char *tsmlir_status_name(int32_t status);

/* "float32", "int64", ...; NULL for other values. */
const char *tsmlir_dtype_name(int32_t dtype);
/* Bytes per element; 0 for other values. */
size_t tsmlir_dtype_size(int32_t dtype);

/* The number of elements of a tensor with these sizes (1 for rank 0); -1 if
   a size is negative or the product overflows. */
int64_t tsmlir_numel(int32_t rank, const int64_t *sizes);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TSMLIR_RUNTIME_ABI_H */
