/*===- ratio_iou.c - Calling a compiled model from C --------------*- C -*-===//
 *
 * Part of the tsmlir project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===//
 *
 *   ratio_iou in0.npy in1.npy OUTDIR
 *
 * Runs the model that `tsmlir-compile ... --name ratio_iou --emit-header
 * ratio_iou.h` compiled (see README.md) on two .npy files, prints each
 * output's dtype, shape and first values, and writes out0.npy, ... into
 * OUTDIR. The outputs are allocated from the model's signature; every
 * mismatch between the files and the model is reported by the call itself.
 *
 *===----------------------------------------------------------------------===*/

#include "ratio_iou.h"

#include "npy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kNumInputs = 2, kShown = 5 };

/* "out0: float32[2048] = 0.25 0 0.5 ..." */
static void printTensor(const char *label, const tsmlir_tensor *t) {
  int64_t numel = tsmlir_numel(t->rank, t->sizes);
  printf("%s: %s[", label, tsmlir_dtype_name(t->dtype));
  for (int32_t d = 0; d < t->rank; ++d)
    printf(d ? ", %lld" : "%lld", (long long)t->sizes[d]);
  printf("] =");
  for (int64_t i = 0; i < numel && i < kShown; ++i)
    printf(" %g", npy_element(t, i));
  printf("%s\n", numel > kShown ? " ..." : "");
}

/* Allocates the outputs that the signature describes (zeroed). */
static tsmlir_tensor *allocateOutputs(const tsmlir_signature *signature) {
  int32_t count = signature->num_outputs;
  tsmlir_tensor *outputs = calloc(count ? (size_t)count : 1, sizeof(*outputs));
  if (!outputs)
    return NULL;
  for (int32_t i = 0; i < count; ++i) {
    const tsmlir_value_info *info = &signature->outputs[i];
    size_t bytes = (size_t)tsmlir_numel(info->rank, info->sizes) *
                   tsmlir_dtype_size(info->dtype);
    outputs[i].data = calloc(bytes ? bytes : 1, 1);
    outputs[i].dtype = info->dtype;
    outputs[i].rank = info->rank;
    outputs[i].sizes = info->sizes;
    outputs[i].strides = NULL;
    if (!outputs[i].data) {
      for (int32_t j = 0; j < i; ++j)
        free(outputs[j].data);
      free(outputs);
      return NULL;
    }
  }
  return outputs;
}

static void freeOutputs(tsmlir_tensor *outputs, int32_t count) {
  for (int32_t i = 0; outputs && i < count; ++i)
    free(outputs[i].data);
  free(outputs);
}

/* Prints the outputs and writes OUTDIR/outN.npy; 0 when all were written. */
static int writeOutputs(const tsmlir_tensor *outputs, int32_t count,
                        const char *directory) {
  size_t length = strlen(directory) + 32;
  char *path = malloc(length);
  char error[512];
  if (!path) {
    fprintf(stderr, "ratio_iou: out of memory\n");
    return 1;
  }
  int result = 0;
  for (int32_t i = 0; i < count && result == 0; ++i) {
    char label[32];
    snprintf(label, sizeof(label), "out%d", (int)i);
    printTensor(label, &outputs[i]);
    snprintf(path, length, "%s/out%d.npy", directory, (int)i);
    if (npy_write(path, &outputs[i], error, sizeof(error)) != 0) {
      fprintf(stderr, "ratio_iou: %s\n", error);
      result = 1;
    }
  }
  free(path);
  return result;
}

int main(int argc, char **argv) {
  if (argc != kNumInputs + 2) {
    fprintf(stderr, "usage: %s in0.npy in1.npy OUTDIR\n", argv[0]);
    return 2;
  }
  const tsmlir_signature *signature = ratio_iou_main_signature();
  tsmlir_tensor inputs[kNumInputs];
  memset(inputs, 0, sizeof(inputs));
  tsmlir_tensor *outputs = NULL;
  char error[512];
  int result = 1;

  for (int i = 0; i < kNumInputs; ++i) {
    if (npy_read(argv[1 + i], &inputs[i], error, sizeof(error)) != 0) {
      fprintf(stderr, "ratio_iou: %s\n", error);
      goto done;
    }
  }
  outputs = allocateOutputs(signature);
  if (!outputs) {
    fprintf(stderr, "ratio_iou: out of memory for the outputs\n");
    goto done;
  }

  tsmlir_status status =
      ratio_iou_main(inputs, kNumInputs, outputs, signature->num_outputs);
  if (status != TSMLIR_OK) {
    fprintf(stderr, "ratio_iou: %s: %s\n", tsmlir_status_name(status),
            tsmlir_last_error());
    goto done;
  }
  result = writeOutputs(outputs, signature->num_outputs, argv[argc - 1]);

done:
  freeOutputs(outputs, signature->num_outputs);
  for (int i = 0; i < kNumInputs; ++i)
    npy_free(&inputs[i]);
  return result;
}
