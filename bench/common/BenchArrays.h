//===- BenchArrays.h - Arrays, .npy files and timing for bench tools -*- C++
//-*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the stand-alone reference programs of bench/ share (bench/cpu's
// handwritten, bench/kernels' baseline): float32 arrays read from and
// written to .npy files, errors, and the timing loop whose line run.py
// reads, the same as tsmlir-run --benchmark prints:
//   benchmark: 20 runs, median 123.456 us, min 120.001 us
// Header-only: each program is one clang++ command.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_BENCH_COMMON_BENCHARRAYS_H
#define TSMLIR_BENCH_COMMON_BENCHARRAYS_H

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace bench {

/// The program's name, for its messages.
inline const char *programName = "bench";

[[noreturn]] inline void fail(const std::string &message) {
  std::fprintf(stderr, "%s: %s\n", programName, message.c_str());
  std::exit(1);
}

/// A float32 C-order array, 64-byte aligned.
struct Array {
  std::vector<int64_t> shape;
  std::unique_ptr<float, decltype(&std::free)> data{nullptr, &std::free};

  int64_t size() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
  int64_t dim(int i) const { return shape.at(i < 0 ? shape.size() + i : i); }
  float *get() const { return data.get(); }
};

inline Array makeArray(std::vector<int64_t> shape) {
  Array a;
  a.shape = std::move(shape);
  size_t bytes = (a.size() * sizeof(float) + 63) / 64 * 64;
  a.data.reset(
      static_cast<float *>(std::aligned_alloc(64, bytes ? bytes : 64)));
  if (!a.data)
    fail("out of memory");
  return a;
}

/// Reads a float32, C-order, little-endian .npy file (format 1.0, 2.0 or 3.0).
inline Array readNpy(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0)
    fail(path + ": not a .npy file");
  uint32_t headerLen = 0;
  unsigned char len[4] = {0, 0, 0, 0};
  in.read(reinterpret_cast<char *>(len), magic[6] == 1 ? 2 : 4);
  headerLen = len[0] | len[1] << 8 | len[2] << 16 | uint32_t(len[3]) << 24;
  std::string header(headerLen, ' ');
  in.read(header.data(), headerLen);
  if (header.find("'descr': '<f4'") == std::string::npos)
    fail(path + ": not float32 little-endian (" + header + ")");
  if (header.find("'fortran_order': False") == std::string::npos)
    fail(path + ": not C order");
  size_t open = header.find("'shape': (");
  if (open == std::string::npos)
    fail(path + ": no shape in the header");
  std::vector<int64_t> shape;
  const char *p = header.c_str() + open + 10;
  while (*p != ')') {
    char *end;
    long long d = std::strtoll(p, &end, 10);
    if (end == p)
      fail(path + ": bad shape in the header");
    shape.push_back(d);
    p = end;
    while (*p == ',' || *p == ' ')
      ++p;
  }
  Array a = makeArray(shape);
  if (!in.read(reinterpret_cast<char *>(a.get()), a.size() * sizeof(float)))
    fail(path + ": shorter than its header says");
  return a;
}

/// Writes a float32 .npy file, format 1.0.
inline void writeNpy(const std::string &path, const Array &a) {
  std::string shape;
  for (int64_t d : a.shape)
    shape += std::to_string(d) + ", ";
  if (a.shape.size() > 1)
    shape.resize(shape.size() - 2);
  else if (a.shape.size() == 1)
    shape.resize(shape.size() - 1);
  std::string header =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (" + shape + "), }";
  // Magic (6) + version (2) + length (2) + header + '\n', a multiple of 64.
  header.append(63 - (10 + header.size()) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  uint16_t len = header.size();
  out.write("\x93NUMPY\x01\x00", 8);
  out.put(char(len & 0xff)).put(char(len >> 8));
  out << header;
  out.write(reinterpret_cast<const char *>(a.get()), a.size() * sizeof(float));
  if (!out)
    fail("cannot write " + path);
}

inline bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// Runs `run` `runs` times and prints the benchmark line (nothing when
/// `runs` is 0).
template <typename Run> void timeRuns(int runs, Run run) {
  if (runs <= 0)
    return;
  std::vector<double> us(runs);
  for (int i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    run();
    auto stop = std::chrono::steady_clock::now();
    us[i] = std::chrono::duration<double, std::micro>(stop - start).count();
  }
  std::sort(us.begin(), us.end());
  double median =
      runs % 2 ? us[runs / 2] : (us[runs / 2 - 1] + us[runs / 2]) / 2;
  std::printf("benchmark: %d runs, median %.3f us, min %.3f us\n", runs, median,
              us[0]);
}

} // namespace bench

#endif // TSMLIR_BENCH_COMMON_BENCHARRAYS_H
