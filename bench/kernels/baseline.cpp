//===- baseline.cpp - Library baselines for the kernels bench -------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The baselines of bench/kernels: matrix products and convolutions called
// directly in the libraries, on float32 .npy inputs, with the command line
// of tsmlir-run:
//
//   baseline KIND --input a.npy --input b.npy [--threads N] [--benchmark N]
//            [--output-dir DIR] [--conv STRIDE,PADDING,DILATION,GROUPS]
//            [--openblas PATH]
//
// KIND:
//   onednn-matmul      a [M, K] x b [K, N], oneDNN's matmul on row-major
//                      (plain) buffers
//   openblas-sgemm     the same product by OpenBLAS's cblas_sgemm, loaded
//                      from --openblas (default: Debian's pthread build)
//   onednn-conv        x [N, C, H, W] conv w [K, C / groups, R, S] (square
//                      stride, padding, dilation), NCHW in and out: oneDNN
//                      picks its layouts (blocked), the weights are
//                      reordered once before timing, the input and output
//                      reorders are timed, as PyTorch's oneDNN path runs
//   onednn-conv-plain  the same convolution on NCHW buffers, no reorders
//
// Every primitive is created and run once (warm-up) before the timed runs;
// prints the benchmark line of tsmlir-run. Threads: OpenMP (LLVM's libomp,
// linked before oneDNN as libtsmlir_kernels links it) and OpenBLAS's own.
//
// Build (bench/kernels/run.sh does):
//   clang++-22 -O3 -march=native -fopenmp -I../common baseline.cpp -ldnnl -ldl
//
//===----------------------------------------------------------------------===//

#include "BenchArrays.h"

#include <dlfcn.h>
#include <omp.h>

#include <functional>
#include <oneapi/dnnl/dnnl.hpp>

namespace {

using bench::Array;
using bench::fail;

const char *kUsage =
    "usage: baseline onednn-matmul|openblas-sgemm|onednn-conv|"
    "onednn-conv-plain --input A.npy --input B.npy [--threads N] "
    "[--benchmark N] [--output-dir DIR] [--conv S,P,D,G] [--openblas PATH]\n";

const char *kDefaultOpenBlas =
    "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0";

struct Options {
  std::string kind;
  std::vector<Array> inputs;
  int threads = 1, runs = 0;
  std::string outputDir;
  int64_t stride = 1, padding = 0, dilation = 1, groups = 1;
  std::string openblas = kDefaultOpenBlas;
};

/// A workload set up once: `run` computes `out`.
struct Prepared {
  Array out;
  std::function<void()> run;
};

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

void checkMatrices(const Options &o) {
  if (o.inputs.size() != 2 || o.inputs[0].shape.size() != 2 ||
      o.inputs[1].shape.size() != 2 || o.inputs[0].dim(1) != o.inputs[1].dim(0))
    fail(o.kind + " takes a [M, K] and b [K, N]");
}

Prepared prepareOneDnnMatmul(const Options &o, dnnl::engine &engine,
                             dnnl::stream &stream) {
  checkMatrices(o);
  const Array &a = o.inputs[0], &b = o.inputs[1];
  int64_t m = a.dim(0), k = a.dim(1), n = b.dim(1);
  Prepared p{bench::makeArray({m, n}), {}};
  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  dnnl::memory::desc aDesc({m, k}, dt::f32, tag::ab),
      bDesc({k, n}, dt::f32, tag::ab), cDesc({m, n}, dt::f32, tag::ab);
  dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(aDesc, bDesc, cDesc),
                                  engine);
  dnnl::matmul matmul(pd);
  dnnl::memory aMem(aDesc, engine, a.get()), bMem(bDesc, engine, b.get()),
      cMem(cDesc, engine, p.out.get());
  p.run = [=, &stream]() mutable {
    matmul.execute(
        stream,
        {{DNNL_ARG_SRC, aMem}, {DNNL_ARG_WEIGHTS, bMem}, {DNNL_ARG_DST, cMem}});
    stream.wait();
  };
  return p;
}

Prepared prepareOpenBlas(const Options &o) {
  checkMatrices(o);
  void *handle = dlopen(o.openblas.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    fail("cannot load OpenBLAS (" + std::string(dlerror()) +
         "); bench/kernels/run.sh fetches Debian's libopenblas0-pthread");
  using Sgemm = void (*)(int, int, int, int, int, int, float, const float *,
                         int, const float *, int, float, float *, int);
  using SetThreads = void (*)(int);
  auto sgemm = reinterpret_cast<Sgemm>(dlsym(handle, "cblas_sgemm"));
  auto setThreads =
      reinterpret_cast<SetThreads>(dlsym(handle, "openblas_set_num_threads"));
  if (!sgemm || !setThreads)
    fail(o.openblas + " has no cblas_sgemm or openblas_set_num_threads");
  setThreads(o.threads);
  const Array &a = o.inputs[0], &b = o.inputs[1];
  int m = a.dim(0), k = a.dim(1), n = b.dim(1);
  Prepared p{bench::makeArray({m, n}), {}};
  float *c = p.out.get();
  const float *aData = a.get(), *bData = b.get();
  // CblasRowMajor = 101, CblasNoTrans = 111.
  p.run = [=] {
    sgemm(101, 111, 111, m, n, k, 1.0f, aData, k, bData, n, 0.0f, c, n);
  };
  return p;
}

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

Prepared prepareOneDnnConv(const Options &o, bool plain, dnnl::engine &engine,
                           dnnl::stream &stream) {
  if (o.inputs.size() != 2 || o.inputs[0].shape.size() != 4 ||
      o.inputs[1].shape.size() != 4)
    fail(o.kind + " takes x [N, C, H, W] and w [K, C / groups, R, S]");
  const Array &x = o.inputs[0], &w = o.inputs[1];
  int64_t n = x.dim(0), c = x.dim(1), h = x.dim(2), wd = x.dim(3);
  int64_t k = w.dim(0), r = w.dim(2), s = w.dim(3), g = o.groups;
  if (c != w.dim(1) * g || k % g != 0)
    fail("the weight does not match the input and --conv's groups");
  auto outSize = [&](int64_t in, int64_t kernel) {
    return (in + 2 * o.padding - o.dilation * (kernel - 1) - 1) / o.stride + 1;
  };
  int64_t oh = outSize(h, r), ow = outSize(wd, s);
  Prepared p{bench::makeArray({n, k, oh, ow}), {}};
  using tag = dnnl::memory::format_tag;
  using dt = dnnl::memory::data_type;
  dnnl::memory::dims weightDims =
      g == 1 ? dnnl::memory::dims{k, c, r, s}
             : dnnl::memory::dims{g, k / g, c / g, r, s};
  dnnl::memory::desc userSrc({n, c, h, wd}, dt::f32, tag::nchw),
      userWeights(weightDims, dt::f32, g == 1 ? tag::oihw : tag::goihw),
      userDst({n, k, oh, ow}, dt::f32, tag::nchw);
  dnnl::memory::desc src = userSrc, weights = userWeights, dst = userDst;
  if (!plain) {
    src = dnnl::memory::desc({n, c, h, wd}, dt::f32, tag::any);
    weights = dnnl::memory::desc(weightDims, dt::f32, tag::any);
    dst = dnnl::memory::desc({n, k, oh, ow}, dt::f32, tag::any);
  }
  dnnl::convolution_forward::primitive_desc pd(
      dnnl::convolution_forward::desc(
          dnnl::prop_kind::forward_inference,
          dnnl::algorithm::convolution_direct, src, weights, dst,
          {o.stride, o.stride}, {o.dilation - 1, o.dilation - 1},
          {o.padding, o.padding}, {o.padding, o.padding}),
      engine);
  dnnl::convolution_forward conv(pd);
  dnnl::memory userSrcMem(userSrc, engine, x.get()),
      userWeightsMem(userWeights, engine, w.get()),
      userDstMem(userDst, engine, p.out.get());
  // The weights are constants: reordered once, outside the timed runs.
  dnnl::memory weightsMem = userWeightsMem;
  if (pd.weights_desc() != userWeights) {
    weightsMem = dnnl::memory(pd.weights_desc(), engine);
    dnnl::reorder(userWeightsMem, weightsMem)
        .execute(stream, userWeightsMem, weightsMem);
    stream.wait();
  }
  bool reorderSrc = pd.src_desc() != userSrc,
       reorderDst = pd.dst_desc() != userDst;
  dnnl::memory srcMem =
      reorderSrc ? dnnl::memory(pd.src_desc(), engine) : userSrcMem;
  dnnl::memory dstMem =
      reorderDst ? dnnl::memory(pd.dst_desc(), engine) : userDstMem;
  dnnl::reorder toSrc, fromDst;
  if (reorderSrc)
    toSrc = dnnl::reorder(userSrcMem, srcMem);
  if (reorderDst)
    fromDst = dnnl::reorder(dstMem, userDstMem);
  p.run = [=, &stream]() mutable {
    if (reorderSrc)
      toSrc.execute(stream, userSrcMem, srcMem);
    conv.execute(stream, {{DNNL_ARG_SRC, srcMem},
                          {DNNL_ARG_WEIGHTS, weightsMem},
                          {DNNL_ARG_DST, dstMem}});
    if (reorderDst)
      fromDst.execute(stream, dstMem, userDstMem);
    stream.wait();
  };
  return p;
}

/// "S,P,D,G" into the options.
void parseConv(const std::string &value, Options &o) {
  long long s, p, d, g;
  if (std::sscanf(value.c_str(), "%lld,%lld,%lld,%lld", &s, &p, &d, &g) != 4 ||
      s < 1 || p < 0 || d < 1 || g < 1)
    fail("--conv takes STRIDE,PADDING,DILATION,GROUPS, got '" + value + "'");
  o.stride = s;
  o.padding = p;
  o.dilation = d;
  o.groups = g;
}

} // namespace

int main(int argc, char **argv) {
  bench::programName = "baseline";
  if (argc < 2 || argv[1] == std::string("--help")) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 1 : 0;
  }
  Options o;
  o.kind = argv[1];
  for (int i = 2; i < argc; ++i) {
    std::string flag = argv[i];
    if (i + 1 >= argc)
      fail("missing value after " + flag);
    std::string value = argv[++i];
    if (flag == "--input" && bench::endsWith(value, ".npy"))
      o.inputs.push_back(bench::readNpy(value));
    else if (flag == "--threads")
      o.threads = std::atoi(value.c_str());
    else if (flag == "--benchmark")
      o.runs = std::atoi(value.c_str());
    else if (flag == "--output-dir")
      o.outputDir = value;
    else if (flag == "--conv")
      parseConv(value, o);
    else if (flag == "--openblas")
      o.openblas = value;
    else
      fail("unknown option " + flag + " " + value + "\n" + kUsage);
  }
  if (o.threads < 1)
    fail("--threads must be at least 1");
  omp_set_num_threads(o.threads);

  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  Prepared p;
  if (o.kind == "onednn-matmul")
    p = prepareOneDnnMatmul(o, engine, stream);
  else if (o.kind == "openblas-sgemm")
    p = prepareOpenBlas(o);
  else if (o.kind == "onednn-conv" || o.kind == "onednn-conv-plain")
    p = prepareOneDnnConv(o, o.kind == "onednn-conv-plain", engine, stream);
  else
    fail("unknown kind '" + o.kind + "'\n" + kUsage);
  p.run(); // Warm-up: the first touch of the output, threads started.
  bench::timeRuns(o.runs, p.run);
  if (!o.outputDir.empty())
    bench::writeNpy(o.outputDir + "/out0.npy", p.out);
  return 0;
}
