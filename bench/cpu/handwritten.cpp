//===- handwritten.cpp - Hand-written reference loops for the CPU bench ---===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The physical-limit reference of bench/cpu: each workload of workloads.py
// written as the straightforward loop a person would write, one pass over
// memory (softmax and layer_norm: a few passes over one row, which stays in
// cache), OpenMP across rows or elements. Same command line as tsmlir-run,
// with the workload's name instead of a graph:
//
//   handwritten WORKLOAD --input a.npy --input b.npy --input 0.3
//               [--threads N] [--benchmark N] [--output-dir DIR]
//               [--alloc-per-run]
//
// It runs the workload once to warm up, then N times, and prints
//   benchmark: 20 runs, median 123.456 us, min 120.001 us
// The output is allocated once, outside the timed runs; with --alloc-per-run
// each timed run allocates and frees it (malloc: fresh pages from the kernel
// each time at large sizes), as code that returns a new tensor per call
// does. --output-dir writes out0.npy, which run.py compares with eager
// PyTorch.
//
// Build (bench/cpu/run.sh does):
//   clang++-22 -O3 -march=native -fopenmp -I../common handwritten.cpp \
//     -o handwritten
// Every inner loop vectorises (-Rpass=loop-vectorize shows them); exp and
// erf are inline for that (expInline, erfApprox).
//
//===----------------------------------------------------------------------===//

#include "BenchArrays.h"

#include <omp.h>

#include <cmath>

namespace {

using bench::Array;
using bench::fail;
using bench::makeArray;

//===----------------------------------------------------------------------===//
// The workloads
//===----------------------------------------------------------------------===//

/// Below this many elements the loops run on one thread: forking costs more
/// than the work (PyTorch's grain size is 32768 too).
constexpr int64_t kParallelMin = 32768;

struct Args {
  std::vector<Array> tensors;
  std::vector<double> scalars;
};

/// exp(x) for floats, inline so that a loop of it vectorises without calls
/// (Cephes' expf: x = k ln 2 + r, |r| <= ln 2 / 2, exp(r) by a polynomial,
/// 2^k through the exponent bits; about 1 ulp). Inputs here are <= 0.
inline float expInline(float x) {
  x = std::fmax(x, -87.0f); // exp(-87) is still a normal float
  float k = std::floor(x * 1.44269504f + 0.5f);
  float r = x - k * 0.693359375f + k * 2.12194440e-4f; // ln 2 in two parts
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  int32_t bits = (int32_t(k) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return p * scale;
}

/// erf(x) as PyTorch's vectorised CPU kernels compute it (Abramowitz and
/// Stegun 7.1.26, absolute error below 1.5e-7): a loop of it vectorises,
/// where a loop of std::erf stays scalar (LLVM 22 has no vector erff).
inline float erfApprox(float x) {
  float t = 1.0f / (0.3275911f * std::fabs(x) + 1.0f);
  float r = 1.061405429f; // Horner: p5 t^4 + p4 t^3 + p3 t^2 + p2 t + p1
  r = r * t - 1.453152027f;
  r = r * t + 1.421413741f;
  r = r * t - 0.284496736f;
  r = r * t + 0.254829592f;
  return std::copysign(1.0f - r * t * expInline(-x * x), x);
}

/// Runs body(begin, end) on [0, n) cut into one contiguous chunk per thread;
/// on one thread when `work` (elements) is below kParallelMin.
template <typename Body> void parallelFor(int64_t n, int64_t work, Body body) {
#pragma omp parallel if (work >= kParallelMin)
  {
    int64_t threads = omp_get_num_threads(), t = omp_get_thread_num();
    int64_t chunk = (n + threads - 1) / threads;
    int64_t begin = std::min(n, t * chunk), end = std::min(n, begin + chunk);
    body(begin, end);
  }
}

// ratio_iou: boxes [M, 4] twice -> [M].
void ratioIou(const Args &a, Array &out) {
  const float *b1 = a.tensors[0].get(), *b2 = a.tensors[1].get();
  float *o = out.get();
  int64_t m = a.tensors[0].dim(0);
  parallelFor(m, 4 * m, [&](int64_t begin, int64_t end) {
#pragma omp simd
    for (int64_t i = begin; i < end; ++i) {
      const float *p = b1 + 4 * i, *q = b2 + 4 * i;
      float area1 = (p[2] - p[0]) * (p[3] - p[1]);
      float area2 = (q[2] - q[0]) * (q[3] - q[1]);
      float w = std::max(std::min(p[2], q[2]) - std::max(p[0], q[0]), 0.0f);
      float h = std::max(std::min(p[3], q[3]) - std::max(p[1], q[1]), 0.0f);
      float inter = w * h;
      o[i] = inter / (area1 + area2 - inter);
    }
  });
}

// lerp: w * x + (1 - w) * y; (1 - w) is computed in double, as TorchScript
// does.
void lerp(const Args &a, Array &out) {
  const float *x = a.tensors[0].get(), *y = a.tensors[1].get();
  float *o = out.get();
  float w = a.scalars[0], omw = 1.0 - a.scalars[0];
  int64_t n = out.size();
  parallelFor(n, n, [&](int64_t begin, int64_t end) {
#pragma omp simd
    for (int64_t i = begin; i < end; ++i)
      o[i] = w * x[i] + omw * y[i];
  });
}

// gelu: x * 0.5 * (1 + erf(x / sqrt 2)).
void gelu(const Args &a, Array &out) {
  const float *x = a.tensors[0].get();
  float *o = out.get();
  int64_t n = out.size();
  parallelFor(n, n, [&](int64_t begin, int64_t end) {
#pragma omp simd
    for (int64_t i = begin; i < end; ++i)
      o[i] = x[i] * 0.5f * (1.0f + erfApprox(x[i] * 0.70710678118654757f));
  });
}

// bias_gelu: gelu(x + bias), x [R, C], bias [C].
void biasGelu(const Args &a, Array &out) {
  const float *x = a.tensors[0].get(), *bias = a.tensors[1].get();
  float *o = out.get();
  int64_t rows = a.tensors[0].dim(0), cols = a.tensors[0].dim(-1);
  parallelFor(rows, rows * cols, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const float *xr = x + r * cols;
      float *orow = o + r * cols;
#pragma omp simd
      for (int64_t c = 0; c < cols; ++c) {
        float y = xr[c] + bias[c];
        orow[c] = y * 0.5f * (1.0f + erfApprox(y * 0.70710678118654757f));
      }
    }
  });
}

// softmax over the last dim, per row: max; exp(x - max) and its sum; scale.
void softmax(const Args &a, Array &out) {
  const float *x = a.tensors[0].get();
  float *o = out.get();
  int64_t cols = a.tensors[0].dim(-1), rows = out.size() / cols;
  parallelFor(rows, rows * cols, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const float *xr = x + r * cols;
      float *orow = o + r * cols;
      float mx = -INFINITY;
#pragma omp simd reduction(max : mx)
      for (int64_t c = 0; c < cols; ++c)
        mx = std::fmax(mx, xr[c]); // std::max does not vectorise here
      float sum = 0;
#pragma omp simd reduction(+ : sum)
      for (int64_t c = 0; c < cols; ++c) {
        orow[c] = expInline(xr[c] - mx);
        sum += orow[c];
      }
      float scale = 1.0f / sum;
#pragma omp simd
      for (int64_t c = 0; c < cols; ++c)
        orow[c] *= scale;
    }
  });
}

// layer_norm over the last dim, per row: mean; variance (biased, two-pass);
// normalise, scale and shift.
void layerNorm(const Args &a, Array &out) {
  const float *x = a.tensors[0].get(), *weight = a.tensors[1].get(),
              *bias = a.tensors[2].get();
  float *o = out.get();
  int64_t cols = a.tensors[0].dim(-1), rows = out.size() / cols;
  const float eps = 1e-5f;
  parallelFor(rows, rows * cols, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const float *xr = x + r * cols;
      float *orow = o + r * cols;
      float sum = 0;
#pragma omp simd reduction(+ : sum)
      for (int64_t c = 0; c < cols; ++c)
        sum += xr[c];
      float mean = sum / cols;
      float sq = 0;
#pragma omp simd reduction(+ : sq)
      for (int64_t c = 0; c < cols; ++c)
        sq += (xr[c] - mean) * (xr[c] - mean);
      float rstd = 1.0f / std::sqrt(sq / cols + eps);
#pragma omp simd
      for (int64_t c = 0; c < cols; ++c)
        orow[c] = (xr[c] - mean) * rstd * weight[c] + bias[c];
    }
  });
}

/// out[r, j] = act(b[j] + sum_k in[r, k] * w[j, k]) for rows r of in
/// (F.linear: w is [n, k]); four rows at a time share each row of w.
void linearRows(const float *in, int64_t rows, int64_t k, const float *w,
                const float *b, int64_t n, float *out, bool relu) {
  auto act = [relu](float v) { return relu ? std::max(v, 0.0f) : v; };
  int64_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    const float *i0 = in + r * k, *i1 = i0 + k, *i2 = i1 + k, *i3 = i2 + k;
    for (int64_t j = 0; j < n; ++j) {
      const float *wj = w + j * k;
      float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
#pragma omp simd reduction(+ : s0, s1, s2, s3)
      for (int64_t q = 0; q < k; ++q) {
        s0 += i0[q] * wj[q];
        s1 += i1[q] * wj[q];
        s2 += i2[q] * wj[q];
        s3 += i3[q] * wj[q];
      }
      out[(r + 0) * n + j] = act(s0 + b[j]);
      out[(r + 1) * n + j] = act(s1 + b[j]);
      out[(r + 2) * n + j] = act(s2 + b[j]);
      out[(r + 3) * n + j] = act(s3 + b[j]);
    }
  }
  for (; r < rows; ++r) {
    for (int64_t j = 0; j < n; ++j) {
      float s = 0;
#pragma omp simd reduction(+ : s)
      for (int64_t q = 0; q < k; ++q)
        s += in[r * k + q] * w[j * k + q];
      out[r * n + j] = act(s + b[j]);
    }
  }
}

// mlp: linear(relu(linear(x, w1, b1)), w2, b2), 16 rows at a time: the
// hidden rows stay in cache and never go to memory. Compute-bound.
void mlp(const Args &a, Array &out) {
  const Array &x = a.tensors[0], &w1 = a.tensors[1], &w2 = a.tensors[3];
  const float *b1 = a.tensors[2].get(), *b2 = a.tensors[4].get();
  int64_t rows = x.dim(0), in = x.dim(1), hidden = w1.dim(0), outF = w2.dim(0);
  constexpr int64_t kBlock = 16;
  int64_t blocks = (rows + kBlock - 1) / kBlock;
#pragma omp parallel
  {
    std::vector<float> h(kBlock * hidden);
#pragma omp for schedule(static)
    for (int64_t blk = 0; blk < blocks; ++blk) {
      int64_t r0 = blk * kBlock, nr = std::min(kBlock, rows - r0);
      linearRows(x.get() + r0 * in, nr, in, w1.get(), b1, hidden, h.data(),
                 /*relu=*/true);
      linearRows(h.data(), nr, hidden, w2.get(), b2, outF,
                 out.get() + r0 * outF, /*relu=*/false);
    }
  }
}

struct Workload {
  const char *name;
  int tensors, scalars;
  void (*run)(const Args &, Array &);
  /// The output's shape from the arguments'.
  std::vector<int64_t> (*outShape)(const Args &);
};

std::vector<int64_t> sameAsFirst(const Args &a) { return a.tensors[0].shape; }

const Workload kWorkloads[] = {
    {"ratio_iou", 2, 0, ratioIou,
     [](const Args &a) { return std::vector<int64_t>{a.tensors[0].dim(0)}; }},
    {"lerp", 2, 1, lerp, sameAsFirst},
    {"gelu", 1, 0, gelu, sameAsFirst},
    {"bias_gelu", 2, 0, biasGelu, sameAsFirst},
    {"softmax", 1, 0, softmax, sameAsFirst},
    {"layer_norm", 3, 0, layerNorm, sameAsFirst},
    {"mlp", 5, 0, mlp,
     [](const Args &a) {
       return std::vector<int64_t>{a.tensors[0].dim(0), a.tensors[3].dim(0)};
     }},
};

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

const char *kUsage =
    "usage: handwritten WORKLOAD --input FILE.npy|SCALAR ... [--threads N] "
    "[--benchmark N] [--output-dir DIR] [--alloc-per-run]\n"
    "workloads: ratio_iou lerp gelu bias_gelu softmax layer_norm mlp\n";

} // namespace

int main(int argc, char **argv) {
  bench::programName = "handwritten";
  if (argc < 2 || argv[1] == std::string("--help")) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 1 : 0;
  }
  const Workload *workload = nullptr;
  for (const Workload &w : kWorkloads)
    if (argv[1] == std::string(w.name))
      workload = &w;
  if (!workload)
    fail(std::string("unknown workload '") + argv[1] + "'\n" + kUsage);

  Args args;
  int threads = 1, runs = 0;
  bool allocPerRun = false;
  std::string outputDir;
  for (int i = 2; i < argc; ++i) {
    std::string flag = argv[i];
    if (flag == "--alloc-per-run") {
      allocPerRun = true;
      continue;
    }
    if (i + 1 >= argc)
      fail("missing value after " + flag);
    std::string value = argv[++i];
    if (flag == "--input" && bench::endsWith(value, ".npy"))
      args.tensors.push_back(bench::readNpy(value));
    else if (flag == "--input")
      args.scalars.push_back(std::strtod(value.c_str(), nullptr));
    else if (flag == "--threads")
      threads = std::atoi(value.c_str());
    else if (flag == "--benchmark")
      runs = std::atoi(value.c_str());
    else if (flag == "--output-dir")
      outputDir = value;
    else
      fail("unknown option " + flag + "\n" + kUsage);
  }
  if (int(args.tensors.size()) != workload->tensors ||
      int(args.scalars.size()) != workload->scalars)
    fail(std::string(workload->name) + " takes " +
         std::to_string(workload->tensors) + " tensors and " +
         std::to_string(workload->scalars) + " scalars");
  if (threads < 1)
    fail("--threads must be at least 1");
  omp_set_num_threads(threads);

  Array out = makeArray(workload->outShape(args));
  // Warm-up: the first touch of the output, OpenMP's threads started.
  workload->run(args, out);
  bench::timeRuns(runs, [&] {
    if (allocPerRun) {
      // The previous output is freed at the end of this block.
      Array fresh = makeArray(out.shape);
      workload->run(args, fresh);
      std::swap(out, fresh);
    } else {
      workload->run(args, out);
    }
  });
  if (!outputDir.empty())
    bench::writeNpy(outputDir + "/out0.npy", out);
  return 0;
}
