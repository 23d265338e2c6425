/*===- jit.c - Calls of the JIT through its C API -------------------------===*\
|*                                                                            *|
|* Part of the tsmlir project, under the Apache License v2.0 with LLVM        *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * tsmlir-capi-jit-test GRAPH: loads GRAPH, the scale_add graph of
 * test/tools/tsmlir-run/Inputs (x * a + y and its > a mask), through
 * include/tsmlir-c/Jit.h, and calls it: twice on 2x3 tensors, once on a
 * transposed (strided) 3x2 view, once with a wrong argument; then again
 * with a compile budget of 1 ms. Each result is checked here against the
 * same arithmetic in C; each line says how the call ran. Then the errors: a
 * missing file, a graph that does not parse.
 */

#include "tsmlir-c/Jit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check(const char *what, const tsmlir_jit_result *r,
                 const float *x, const int64_t *xStrides, const float *y,
                 float a, int64_t rows, int64_t cols) {
  if (tsmlir_jit_result_num_outputs(r) != 2) {
    printf("%s: %d outputs\n", what, tsmlir_jit_result_num_outputs(r));
    return 1;
  }
  tsmlir_tensor out = tsmlir_jit_result_output(r, 0);
  tsmlir_tensor mask = tsmlir_jit_result_output(r, 1);
  if (out.dtype != TSMLIR_FLOAT32 || mask.dtype != TSMLIR_BOOL ||
      out.rank != 2 || out.sizes[0] != rows || out.sizes[1] != cols) {
    printf("%s: wrong output types\n", what);
    return 1;
  }
  const float *o = (const float *)out.data;
  const unsigned char *m = (const unsigned char *)mask.data;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      float xi = x[i * xStrides[0] + j * xStrides[1]];
      float want = xi * a + y[i * cols + j];
      if (fabsf(o[i * cols + j] - want) > 1e-6f ||
          m[i * cols + j] != (want > a)) {
        printf("%s: element (%ld, %ld) is %g, expected %g\n", what, (long)i,
               (long)j, o[i * cols + j], want);
        return 1;
      }
    }
  printf("%s: %s, ok\n", what, tsmlir_jit_result_path(r));
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: tsmlir-capi-jit-test GRAPH BAD_GRAPH\n");
    return 2;
  }
  char error[2048];
  tsmlir_jit_options options;
  memset(&options, 0, sizeof options);
  options.fusion = "nnc";
  tsmlir_jit_function *f = tsmlir_jit_load(argv[1], &options, error,
                                           sizeof error);
  if (!f) {
    printf("load failed: %s\n", error);
    return 1;
  }
  float x[6] = {1, -2, 3, 0.5f, -0.25f, 4};
  float y[6] = {0.5f, 0.5f, -1, 2, 0, -3};
  int64_t sizes23[2] = {2, 3}, rowMajor23[2] = {3, 1};
  int failures = 0;
  for (int call = 0; call < 2; ++call) {
    tsmlir_jit_value args[3];
    memset(args, 0, sizeof args);
    args[0].kind = TSMLIR_JIT_TENSOR;
    args[0].tensor = (tsmlir_tensor){x, TSMLIR_FLOAT32, 2, sizes23, NULL};
    args[1].kind = TSMLIR_JIT_TENSOR;
    args[1].tensor = (tsmlir_tensor){y, TSMLIR_FLOAT32, 2, sizes23, NULL};
    args[2].kind = TSMLIR_JIT_FLOAT;
    args[2].float_value = 0.5;
    tsmlir_jit_result *r;
    if (tsmlir_jit_call(f, args, 3, &r, error, sizeof error)) {
      printf("call %d failed: %s\n", call, error);
      return 1;
    }
    failures += check(call ? "call 1 (2x3)" : "call 0 (2x3)", r, x,
                      rowMajor23, y, 0.5f, 2, 3);
    tsmlir_jit_result_free(r);
  }
  /* x viewed transposed: 3x2 with strides (1, 3). */
  int64_t sizes32[2] = {3, 2}, transposed[2] = {1, 3};
  tsmlir_jit_value args[3];
  memset(args, 0, sizeof args);
  args[0].kind = TSMLIR_JIT_TENSOR;
  args[0].tensor = (tsmlir_tensor){x, TSMLIR_FLOAT32, 2, sizes32, transposed};
  args[1].kind = TSMLIR_JIT_TENSOR;
  args[1].tensor = (tsmlir_tensor){y, TSMLIR_FLOAT32, 2, sizes32, NULL};
  args[2].kind = TSMLIR_JIT_FLOAT;
  args[2].float_value = 2.0;
  tsmlir_jit_result *r;
  if (tsmlir_jit_call(f, args, 3, &r, error, sizeof error)) {
    printf("call 2 failed: %s\n", error);
    return 1;
  }
  failures += check("call 2 (3x2, strided)", r, x, transposed, y, 2.0f, 3, 2);
  tsmlir_jit_result_free(r);

  /* A float64 tensor where the graph multiplies a float32 one is fine for
     the graph (promotion), but an int where a float is expected is not. */
  args[2].kind = TSMLIR_JIT_TENSOR;
  args[2].tensor = (tsmlir_tensor){x, TSMLIR_FLOAT32, 2, sizes32, NULL};
  if (tsmlir_jit_call(f, args, 3, &r, error, sizeof error) == 0) {
    printf("call 3 should have failed\n");
    tsmlir_jit_result_free(r);
    return 1;
  }
  printf("call 3 (a tensor for the float a): %s", error);
  tsmlir_jit_free(f);

  /* A compile budget of 1 ms: the second call runs the fallback while the
     specialisation compiles in the background; once it is ready (waited
     for), the third call hits it. */
  options.compile_budget_ms = 1;
  f = tsmlir_jit_load(argv[1], &options, error, sizeof error);
  if (!f) {
    printf("load failed: %s\n", error);
    return 1;
  }
  args[0].tensor = (tsmlir_tensor){x, TSMLIR_FLOAT32, 2, sizes23, NULL};
  args[1].tensor = (tsmlir_tensor){y, TSMLIR_FLOAT32, 2, sizes23, NULL};
  args[2].kind = TSMLIR_JIT_FLOAT;
  args[2].float_value = 0.5;
  for (int call = 0; call < 3; ++call) {
    if (call == 2)
      tsmlir_jit_wait(f);
    if (tsmlir_jit_call(f, args, 3, &r, error, sizeof error)) {
      printf("budget call %d failed: %s\n", call, error);
      return 1;
    }
    char what[64];
    snprintf(what, sizeof what, "budget call %d (2x3)", call);
    failures += check(what, r, x, rowMajor23, y, 0.5f, 2, 3);
    tsmlir_jit_result_free(r);
  }
  tsmlir_jit_free(f);

  if (tsmlir_jit_load("no/such/graph.txt", NULL, error, sizeof error)) {
    printf("loading a missing file should have failed\n");
    return 1;
  }
  printf("missing file: %s\n", error);
  if (tsmlir_jit_load(argv[2], NULL, error, sizeof error)) {
    printf("loading a bad graph should have failed\n");
    return 1;
  }
  printf("bad graph: %s", error);
  return failures;
}
