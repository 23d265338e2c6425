/*===-- tsmlir-c/Jit.h - C API of the tsmlir JIT ------------------*- C -*-===*\
|*                                                                            *|
|* Part of the tsmlir project, under the Apache License v2.0 with LLVM        *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * A TorchScript function compiled just in time (tsmlir/JIT/JitFunction.h),
 * for C callers and language bindings: load a graph (TorchScript IR text, a
 * .pt archive or ts-dialect .mlir), then call it with tensors and numbers.
 * The first calls profile, then each new signature (dtypes and sizes) is
 * specialised and compiled behind a guard, within the strategy's budget,
 * and past it runs the fallback.
 *
 *   char error[1024];
 *   tsmlir_jit_function *f = tsmlir_jit_load("model.pt", NULL, error,
 *                                            sizeof error);
 *   tsmlir_jit_value args[1] = {{TSMLIR_JIT_TENSOR, {data, TSMLIR_FLOAT32,
 *                                2, sizes, NULL}}};
 *   tsmlir_jit_result *r;
 *   if (tsmlir_jit_call(f, args, 1, &r, error, sizeof error) == 0) {
 *     tsmlir_tensor out = tsmlir_jit_result_output(r, 0);
 *     ...
 *     tsmlir_jit_result_free(r);
 *   }
 *   tsmlir_jit_free(f);
 *
 * Tensors use the C ABI's descriptor (tsmlir/Runtime/Abi.h); inputs may be
 * strided, and are copied. A function may be called from several threads at
 * once. Errors are tsmlir's diagnostics (location, operator, message),
 * written NUL-terminated into the caller's buffer.
\*===----------------------------------------------------------------------===*/

#ifndef TSMLIR_C_JIT_H
#define TSMLIR_C_JIT_H

#include "tsmlir/Runtime/Abi.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tsmlir_jit_function tsmlir_jit_function;
typedef struct tsmlir_jit_result tsmlir_jit_result;

typedef enum tsmlir_jit_value_kind {
  TSMLIR_JIT_TENSOR = 0,
  TSMLIR_JIT_INT = 1,
  TSMLIR_JIT_FLOAT = 2,
  TSMLIR_JIT_BOOL = 3,
  TSMLIR_JIT_NONE = 4
} tsmlir_jit_value_kind;

/* One argument: a tensor, or a TorchScript int, float (also a bool's 0/1 in
   int_value) or None. */
typedef struct tsmlir_jit_value {
  int32_t kind; /* a tsmlir_jit_value_kind */
  tsmlir_tensor tensor;
  int64_t int_value;
  double float_value;
} tsmlir_jit_value;

/* Zero-initialised fields take the defaults. */
typedef struct tsmlir_jit_options {
  const char *entry;        /* the function: NULL for forward or main */
  const char *fusion;       /* nnc (NULL), pointwise, nvfuser, aggressive,
                               none */
  const char *strategy;     /* STATIC:2,DYNAMIC:10 (NULL) */
  int32_t profile_runs;     /* 0 for 1 */
  int32_t threads;          /* worker threads of the code; 0 for 1 */
  const char *params;       /* a safetensors file of the module's attributes
                               (TorchScript text only), or NULL */
  int32_t compile_budget_ms; /* a call waits at most this long for its
                                specialisation, then runs the fallback while
                                it compiles in the background; 0: no budget */
} tsmlir_jit_options;

/* Loads the graph at `path`; NULL on error. `options` may be NULL. */
tsmlir_jit_function *tsmlir_jit_load(const char *path,
                                     const tsmlir_jit_options *options,
                                     char *error, size_t error_size);
/* Waits for the compilations going on in the background, then frees. */
void tsmlir_jit_free(tsmlir_jit_function *function);
/* Waits until no specialisation is compiling in the background. */
void tsmlir_jit_wait(tsmlir_jit_function *function);

/* Calls `function`; 0 and `*result` on success, else non-zero and the
   diagnostics (or the exception the graph raised) in `error`. */
int tsmlir_jit_call(tsmlir_jit_function *function,
                    const tsmlir_jit_value *arguments, int32_t num_arguments,
                    tsmlir_jit_result **result, char *error,
                    size_t error_size);

/* The outputs of a call (tuples flattened; outputs always None left out),
   owned by the result: contiguous, row-major. */
int32_t tsmlir_jit_result_num_outputs(const tsmlir_jit_result *result);
tsmlir_tensor tsmlir_jit_result_output(const tsmlir_jit_result *result,
                                       int32_t index);
/* How the call ran: "profile", "compiled", "hit" or "fallback". */
const char *tsmlir_jit_result_path(const tsmlir_jit_result *result);
void tsmlir_jit_result_free(tsmlir_jit_result *result);

#ifdef __cplusplus
}
#endif

#endif /* TSMLIR_C_JIT_H */
