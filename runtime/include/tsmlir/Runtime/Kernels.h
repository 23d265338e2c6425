/*===- Kernels.h - Library kernels the compiled CPU code calls ----*- C -*-===*\
|*                                                                            *|
|* Part of the tsmlir project, under the Apache License v2.0 with LLVM        *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * libtsmlir_kernels runs convolutions and matrix products of f32 tensors
 * with oneDNN's kernels, their epilogue (bias, activations, a residual add)
 * applied while each output tile is in registers (docs/cpu-codegen.md).
 * `convert-kernel-to-calls` lowers each `kernel.conv2d` and `kernel.matmul`
 * to one call of the functions below. Each call passes a descriptor, a
 * constant array of int64 that tells everything known at compile time
 * (shapes, parameters, the epilogue); the library builds the primitive for
 * a descriptor once and keeps it, so later calls only run it.
 *
 * Every buffer is contiguous, row-major (NCHW for convolutions).
 */
#ifndef TSMLIR_RUNTIME_KERNELS_H
#define TSMLIR_RUNTIME_KERNELS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define TSMLIR_KERNELS_EXPORT __attribute__((visibility("default")))
#else
#define TSMLIR_KERNELS_EXPORT
#endif

/* The first element of every descriptor. */
enum tsmlir_kernel_kind {
  TSMLIR_KERNEL_CONV2D = 1,
  TSMLIR_KERNEL_MATMUL = 2,
};

/* A conv2d descriptor: kind, then these fields (positions in the array). */
enum tsmlir_conv2d_field {
  TSMLIR_CONV2D_N = 1, /* input [N, C, H, W] */
  TSMLIR_CONV2D_C,
  TSMLIR_CONV2D_H,
  TSMLIR_CONV2D_W,
  TSMLIR_CONV2D_K, /* weight [K, C / groups, R, S] */
  TSMLIR_CONV2D_R,
  TSMLIR_CONV2D_S,
  TSMLIR_CONV2D_GROUPS,
  TSMLIR_CONV2D_STRIDE_H,
  TSMLIR_CONV2D_STRIDE_W,
  TSMLIR_CONV2D_PAD_H,
  TSMLIR_CONV2D_PAD_W,
  TSMLIR_CONV2D_DILATION_H,
  TSMLIR_CONV2D_DILATION_W,
  TSMLIR_CONV2D_OH, /* output [N, K, OH, OW] */
  TSMLIR_CONV2D_OW,
  TSMLIR_CONV2D_FLAGS,
  TSMLIR_CONV2D_EPILOGUE, /* the number of steps, then the steps */
};

/* A matmul descriptor: out[b] = a[b] x w[b] (w[b] transposed with
 * TSMLIR_KERNEL_TRANSPOSED_W; one w for every b without
 * TSMLIR_KERNEL_BATCHED_W). */
enum tsmlir_matmul_field {
  TSMLIR_MATMUL_BATCH = 1, /* a [BATCH, M, K], out [BATCH, M, N] */
  TSMLIR_MATMUL_M,
  TSMLIR_MATMUL_K,
  TSMLIR_MATMUL_N,
  TSMLIR_MATMUL_FLAGS,
  TSMLIR_MATMUL_EPILOGUE,
};

/* Flags of both descriptors. */
enum tsmlir_kernel_flag {
  TSMLIR_KERNEL_HAS_BIAS = 1,        /* bias [K] or [N], added first */
  TSMLIR_KERNEL_CONSTANT_WEIGHT = 2, /* the weight's address and contents
                                        never change: prepared once */
  TSMLIR_KERNEL_TRANSPOSED_W = 4,    /* matmul: w is [N, K] */
  TSMLIR_KERNEL_BATCHED_W = 8,       /* matmul: w has the batch dimension */
};

/* An epilogue step: three int64 in the descriptor, the kind and the bits of
 * two doubles (alpha, beta), applied in order to each output element y. */
enum tsmlir_kernel_step {
  TSMLIR_STEP_RELU = 1,      /* y > 0 ? y : alpha * y */
  TSMLIR_STEP_CLIP = 2,      /* min(max(y, alpha), beta) */
  TSMLIR_STEP_GELU_ERF = 3,  /* y * (1 + erf(y / sqrt 2)) / 2 */
  TSMLIR_STEP_GELU_TANH = 4, /* gelu, tanh approximation */
  TSMLIR_STEP_SWISH = 5,     /* y * sigmoid(alpha * y); silu: alpha = 1 */
  TSMLIR_STEP_HARDSWISH = 6, /* y * relu6(y + 3) / 6 */
  TSMLIR_STEP_SIGMOID = 7,
  TSMLIR_STEP_TANH = 8,
  TSMLIR_STEP_ELU = 9,      /* y > 0 ? y : alpha * (exp(y) - 1) */
  TSMLIR_STEP_LINEAR = 10,  /* alpha * y + beta */
  TSMLIR_STEP_RESIDUAL = 11 /* y + residual (same shape as the output) */
};

/* buffers: input, weight, bias (or null), residual (or null), output.
 * threads: the threads to run on; 0 leaves OpenMP's number. */
TSMLIR_KERNELS_EXPORT void tsmlir_kernel_conv2d(const int64_t *desc,
                                                void *input, void *weight,
                                                void *bias, void *residual,
                                                void *output, int64_t threads);
TSMLIR_KERNELS_EXPORT void tsmlir_kernel_matmul(const int64_t *desc, void *a,
                                                void *w, void *bias,
                                                void *residual, void *output,
                                                int64_t threads);

#ifdef __cplusplus
}
#endif

#endif /* TSMLIR_RUNTIME_KERNELS_H */
