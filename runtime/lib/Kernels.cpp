//===- Kernels.cpp - Convolutions and products on oneDNN's kernels --------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The functions of Kernels.h. A descriptor's primitive is created at its
// first call and kept in a process-wide table keyed by the descriptor's
// contents (and, for a constant weight, its address). Activations stay
// NCHW at the boundary; inside, the primitive uses the layout oneDNN prefers
// for this machine, reordering the input in and the output out when it
// differs. A constant weight is reordered once, when the primitive is made.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Runtime/Kernels.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

extern "C" int omp_get_max_threads(void);
extern "C" void omp_set_num_threads(int);

namespace {

using dnnl::memory;
using Tag = memory::format_tag;
using Dims = memory::dims;
constexpr memory::data_type f32 = memory::data_type::f32;

[[noreturn]] void fail(const char *what, const char *detail) {
  std::fprintf(stderr, "error: libtsmlir_kernels: %s: %s\n", what, detail);
  std::abort();
}

dnnl::engine &getEngine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

dnnl::stream &getStream() {
  thread_local dnnl::stream stream(getEngine());
  return stream;
}

double bitsToDouble(int64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// The epilogue of a descriptor as post-ops; `residualStep` set to the
/// position of the residual add (a sum post-op: the output buffer holds the
/// residual before the primitive runs).
dnnl::post_ops getPostOps(const int64_t *steps, int64_t count,
                          bool &hasResidual) {
  dnnl::post_ops ops;
  hasResidual = false;
  for (int64_t i = 0; i < count; ++i) {
    int64_t kind = steps[3 * i];
    float alpha = static_cast<float>(bitsToDouble(steps[3 * i + 1]));
    float beta = static_cast<float>(bitsToDouble(steps[3 * i + 2]));
    auto eltwise = [&](dnnl::algorithm algorithm) {
      ops.append_eltwise(1.0f, algorithm, alpha, beta);
    };
    switch (kind) {
    case TSMLIR_STEP_RELU:
      eltwise(dnnl::algorithm::eltwise_relu);
      break;
    case TSMLIR_STEP_CLIP:
      eltwise(dnnl::algorithm::eltwise_clip_v2);
      break;
    case TSMLIR_STEP_GELU_ERF:
      eltwise(dnnl::algorithm::eltwise_gelu_erf);
      break;
    case TSMLIR_STEP_GELU_TANH:
      eltwise(dnnl::algorithm::eltwise_gelu_tanh);
      break;
    case TSMLIR_STEP_SWISH:
      eltwise(dnnl::algorithm::eltwise_swish);
      break;
    case TSMLIR_STEP_HARDSWISH:
      eltwise(dnnl::algorithm::eltwise_hardswish);
      break;
    case TSMLIR_STEP_SIGMOID:
      eltwise(dnnl::algorithm::eltwise_logistic);
      break;
    case TSMLIR_STEP_TANH:
      eltwise(dnnl::algorithm::eltwise_tanh);
      break;
    case TSMLIR_STEP_ELU:
      eltwise(dnnl::algorithm::eltwise_elu);
      break;
    case TSMLIR_STEP_LINEAR:
      eltwise(dnnl::algorithm::eltwise_linear);
      break;
    case TSMLIR_STEP_RESIDUAL:
      if (hasResidual)
        fail("descriptor", "two residual adds");
      ops.append_sum(1.0f);
      hasResidual = true;
      break;
    default:
      fail("descriptor", "unknown epilogue step");
    }
  }
  return ops;
}

/// A primitive made for one descriptor, with what a call needs around it.
struct Entry {
  dnnl::primitive primitive;
  /// The layouts of the caller's buffers and the primitive's.
  memory::desc userSrc, userWeight, userDst, src, weight, dst, bias;
  /// A constant weight in the primitive's layout, made once.
  memory preparedWeight;
  /// The reorders a call runs where the layouts differ (made once: making
  /// a primitive, even from oneDNN's cache, costs microseconds): the input
  /// in, the residual into the output, the output out, a weight that is
  /// not constant in.
  dnnl::reorder toSrc, residualToDst, fromDst, toWeight;
  bool hasBias = false, hasResidual = false;
};

/// Makes the reorders of `entry` once its layouts are known.
void makeReorders(Entry &entry, int64_t flags) {
  dnnl::engine &engine = getEngine();
  auto make = [&](const memory::desc &from, const memory::desc &to) {
    return dnnl::reorder(
        dnnl::reorder::primitive_desc(engine, from, engine, to));
  };
  if (entry.src != entry.userSrc)
    entry.toSrc = make(entry.userSrc, entry.src);
  if (entry.dst != entry.userDst) {
    entry.fromDst = make(entry.dst, entry.userDst);
    if (entry.hasResidual)
      entry.residualToDst = make(entry.userDst, entry.dst);
  }
  if (entry.weight != entry.userWeight &&
      !(flags & TSMLIR_KERNEL_CONSTANT_WEIGHT))
    entry.toWeight = make(entry.userWeight, entry.weight);
}

/// Every primitive made, by descriptor (and constant weight's address).
class EntryTable {
public:
  using Key = std::vector<int64_t>;
  template <typename Make> const Entry &lookup(Key key, Make make) {
    {
      std::shared_lock<std::shared_mutex> lock(mutex);
      auto it = entries.find(key);
      if (it != entries.end())
        return *it->second;
    }
    std::unique_ptr<Entry> made = make();
    std::unique_lock<std::shared_mutex> lock(mutex);
    auto inserted = entries.emplace(std::move(key), std::move(made));
    return *inserted.first->second;
  }

private:
  std::shared_mutex mutex;
  std::map<Key, std::unique_ptr<Entry>> entries;
};

EntryTable &getTable() {
  static EntryTable table;
  return table;
}

/// A buffer of this thread, grown as needed and kept: the reordered input,
/// output or weight of a call.
void *getScratch(unsigned slot, size_t bytes) {
  struct Free {
    void operator()(void *data) const { std::free(data); }
  };
  struct Block {
    std::unique_ptr<void, Free> data;
    size_t bytes = 0;
  };
  thread_local Block blocks[3];
  Block &block = blocks[slot];
  if (block.bytes < bytes) {
    // 64-byte alignment for the kernels' vector loads.
    size_t rounded = (bytes + 63) / 64 * 64;
    block.data.reset(std::aligned_alloc(64, rounded));
    if (!block.data)
      fail("scratch buffer", "out of memory");
    block.bytes = rounded;
  }
  return block.data.get();
}

void setThreads(int64_t threads) {
  if (threads > 0 && omp_get_max_threads() != threads)
    omp_set_num_threads(static_cast<int>(threads));
}

/// `key` is the descriptor, then the weight's address if it is constant.
EntryTable::Key makeKey(const int64_t *desc, size_t length, int64_t flags,
                        const void *weight) {
  EntryTable::Key key(desc, desc + length);
  if (flags & TSMLIR_KERNEL_CONSTANT_WEIGHT)
    key.push_back(reinterpret_cast<int64_t>(weight));
  return key;
}

/// Reorders the constant weight into the primitive's layout once.
void prepareWeight(Entry &entry, void *weight, int64_t flags) {
  if (!(flags & TSMLIR_KERNEL_CONSTANT_WEIGHT))
    return;
  dnnl::engine &engine = getEngine();
  memory user(entry.userWeight, engine, weight);
  if (entry.weight == entry.userWeight) {
    entry.preparedWeight = user;
    return;
  }
  entry.preparedWeight = memory(entry.weight, engine);
  dnnl::reorder(user, entry.preparedWeight)
      .execute(getStream(), user, entry.preparedWeight);
  getStream().wait();
}

/// Runs `entry` on the caller's buffers.
void run(const Entry &entry, void *src, void *weight, void *bias,
         void *residual, void *dst) {
  dnnl::engine &engine = getEngine();
  dnnl::stream &stream = getStream();
  memory userSrc(entry.userSrc, engine, src);
  memory userDst(entry.userDst, engine, dst);
  memory srcMem = userSrc, dstMem = userDst, weightMem;
  if (entry.toSrc) {
    srcMem = memory(entry.src, engine, getScratch(0, entry.src.get_size()));
    entry.toSrc.execute(stream, userSrc, srcMem);
  }
  if (entry.fromDst)
    dstMem = memory(entry.dst, engine, getScratch(1, entry.dst.get_size()));
  if (entry.preparedWeight) {
    weightMem = entry.preparedWeight;
  } else {
    memory userWeight(entry.userWeight, engine, weight);
    weightMem = userWeight;
    if (entry.toWeight) {
      weightMem =
          memory(entry.weight, engine, getScratch(2, entry.weight.get_size()));
      entry.toWeight.execute(stream, userWeight, weightMem);
    }
  }
  if (entry.hasResidual) {
    // The sum post-op adds what the output holds.
    if (entry.residualToDst) {
      memory userResidual(entry.userDst, engine, residual);
      entry.residualToDst.execute(stream, userResidual, dstMem);
    } else if (residual != dst) {
      std::memmove(dst, residual, entry.userDst.get_size());
    }
  }
  std::unordered_map<int, memory> args{{DNNL_ARG_SRC, srcMem},
                                       {DNNL_ARG_WEIGHTS, weightMem},
                                       {DNNL_ARG_DST, dstMem}};
  if (entry.hasBias)
    args.emplace(DNNL_ARG_BIAS, memory(entry.bias, engine, bias));
  entry.primitive.execute(stream, args);
  if (entry.fromDst)
    entry.fromDst.execute(stream, dstMem, userDst);
  stream.wait();
}

/// The smallest output (OH * OW) for which a 1x1 convolution runs on
/// NCHW as it is (see makeConv2d).
constexpr int64_t kMinNchwPixels = 14 * 14;

std::unique_ptr<Entry> makeConv2d(const int64_t *d, void *weight) {
  auto entry = std::make_unique<Entry>();
  int64_t groups = d[TSMLIR_CONV2D_GROUPS];
  int64_t flags = d[TSMLIR_CONV2D_FLAGS];
  Dims src{d[TSMLIR_CONV2D_N], d[TSMLIR_CONV2D_C], d[TSMLIR_CONV2D_H],
           d[TSMLIR_CONV2D_W]};
  Dims dst{d[TSMLIR_CONV2D_N], d[TSMLIR_CONV2D_K], d[TSMLIR_CONV2D_OH],
           d[TSMLIR_CONV2D_OW]};
  int64_t k = d[TSMLIR_CONV2D_K], c = d[TSMLIR_CONV2D_C];
  Dims weightDims = groups == 1
                        ? Dims{k, c, d[TSMLIR_CONV2D_R], d[TSMLIR_CONV2D_S]}
                        : Dims{groups, k / groups, c / groups,
                               d[TSMLIR_CONV2D_R], d[TSMLIR_CONV2D_S]};
  Dims strides{d[TSMLIR_CONV2D_STRIDE_H], d[TSMLIR_CONV2D_STRIDE_W]};
  // oneDNN counts dilation from 0 (no gap), PyTorch from 1.
  Dims dilation{d[TSMLIR_CONV2D_DILATION_H] - 1,
                d[TSMLIR_CONV2D_DILATION_W] - 1};
  Dims padding{d[TSMLIR_CONV2D_PAD_H], d[TSMLIR_CONV2D_PAD_W]};
  entry->userSrc = memory::desc(src, f32, Tag::nchw);
  entry->userDst = memory::desc(dst, f32, Tag::nchw);
  entry->userWeight =
      memory::desc(weightDims, f32, groups == 1 ? Tag::oihw : Tag::goihw);
  entry->hasBias = flags & TSMLIR_KERNEL_HAS_BIAS;
  entry->bias = memory::desc({k}, f32, Tag::a);
  dnnl::primitive_attr attr;
  attr.set_post_ops(getPostOps(d + TSMLIR_CONV2D_EPILOGUE + 1,
                               d[TSMLIR_CONV2D_EPILOGUE], entry->hasResidual));
  // oneDNN picks the layouts (blocked: nChw16c on AVX-512), and a call
  // reorders the NCHW input in and the output out; except for a 1x1
  // convolution over a large image, a matrix product on NCHW as it is,
  // where those reorders would cost about as much as the product
  // (bench/kernels: 1.3-3.6x faster on NCHW from 14x14 outputs up, slower
  // below).
  bool onNchw = d[TSMLIR_CONV2D_R] == 1 && d[TSMLIR_CONV2D_S] == 1 &&
                groups == 1 && padding[0] == 0 && padding[1] == 0 &&
                dst[2] * dst[3] >= kMinNchwPixels;
  memory::desc anySrc =
                   onNchw ? entry->userSrc : memory::desc(src, f32, Tag::any),
               anyDst =
                   onNchw ? entry->userDst : memory::desc(dst, f32, Tag::any),
               anyWeight(weightDims, f32, Tag::any);
  auto desc =
      entry->hasBias
          ? dnnl::convolution_forward::desc(
                dnnl::prop_kind::forward_inference,
                dnnl::algorithm::convolution_direct, anySrc, anyWeight,
                entry->bias, anyDst, strides, dilation, padding, padding)
          : dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                                            dnnl::algorithm::convolution_direct,
                                            anySrc, anyWeight, anyDst, strides,
                                            dilation, padding, padding);
  dnnl::convolution_forward::primitive_desc pd(desc, attr, getEngine());
  entry->src = pd.src_desc();
  entry->dst = pd.dst_desc();
  entry->weight = pd.weights_desc();
  entry->primitive = dnnl::convolution_forward(pd);
  makeReorders(*entry, flags);
  prepareWeight(*entry, weight, flags);
  return entry;
}

std::unique_ptr<Entry> makeMatmul(const int64_t *d, void *weight) {
  auto entry = std::make_unique<Entry>();
  int64_t flags = d[TSMLIR_MATMUL_FLAGS];
  int64_t batch = d[TSMLIR_MATMUL_BATCH], m = d[TSMLIR_MATMUL_M],
          k = d[TSMLIR_MATMUL_K], n = d[TSMLIR_MATMUL_N];
  bool transposed = flags & TSMLIR_KERNEL_TRANSPOSED_W;
  // One weight for every batch: the batch is more rows.
  if (!(flags & TSMLIR_KERNEL_BATCHED_W)) {
    m *= batch;
    batch = 1;
  }
  entry->userSrc = memory::desc({batch, m, k}, f32, Tag::abc);
  entry->userDst = memory::desc({batch, m, n}, f32, Tag::abc);
  entry->userWeight =
      memory::desc({batch, k, n}, f32, transposed ? Tag::acb : Tag::abc);
  entry->hasBias = flags & TSMLIR_KERNEL_HAS_BIAS;
  entry->bias = memory::desc({1, 1, n}, f32, Tag::abc);
  dnnl::primitive_attr attr;
  attr.set_post_ops(getPostOps(d + TSMLIR_MATMUL_EPILOGUE + 1,
                               d[TSMLIR_MATMUL_EPILOGUE], entry->hasResidual));
  // A constant weight in whichever layout is fastest; any other as it is.
  memory::desc weightDesc = (flags & TSMLIR_KERNEL_CONSTANT_WEIGHT)
                                ? memory::desc({batch, k, n}, f32, Tag::any)
                                : entry->userWeight;
  auto desc = entry->hasBias ? dnnl::matmul::desc(entry->userSrc, weightDesc,
                                                  entry->bias, entry->userDst)
                             : dnnl::matmul::desc(entry->userSrc, weightDesc,
                                                  entry->userDst);
  dnnl::matmul::primitive_desc pd(desc, attr, getEngine());
  entry->src = pd.src_desc();
  entry->dst = pd.dst_desc();
  entry->weight = pd.weights_desc();
  entry->primitive = dnnl::matmul(pd);
  makeReorders(*entry, flags);
  prepareWeight(*entry, weight, flags);
  return entry;
}

/// The number of int64 in a descriptor whose epilogue starts at `epilogue`.
size_t descLength(const int64_t *desc, int epilogue) {
  return static_cast<size_t>(epilogue + 1 + 3 * desc[epilogue]);
}

} // namespace

extern "C" void tsmlir_kernel_conv2d(const int64_t *desc, void *input,
                                     void *weight, void *bias, void *residual,
                                     void *output, int64_t threads) {
  if (desc[0] != TSMLIR_KERNEL_CONV2D)
    fail("tsmlir_kernel_conv2d", "not a conv2d descriptor");
  setThreads(threads);
  try {
    int64_t flags = desc[TSMLIR_CONV2D_FLAGS];
    const Entry &entry = getTable().lookup(
        makeKey(desc, descLength(desc, TSMLIR_CONV2D_EPILOGUE), flags, weight),
        [&] { return makeConv2d(desc, weight); });
    run(entry, input, weight, bias, residual, output);
  } catch (const dnnl::error &error) {
    fail("conv2d", error.what());
  }
}

extern "C" void tsmlir_kernel_matmul(const int64_t *desc, void *a, void *w,
                                     void *bias, void *residual, void *output,
                                     int64_t threads) {
  if (desc[0] != TSMLIR_KERNEL_MATMUL)
    fail("tsmlir_kernel_matmul", "not a matmul descriptor");
  setThreads(threads);
  try {
    int64_t flags = desc[TSMLIR_MATMUL_FLAGS];
    const Entry &entry = getTable().lookup(
        makeKey(desc, descLength(desc, TSMLIR_MATMUL_EPILOGUE), flags, w),
        [&] { return makeMatmul(desc, w); });
    run(entry, a, w, bias, residual, output);
  } catch (const dnnl::error &error) {
    fail("matmul", error.what());
  }
}
