//===- FusionBench.h - Synthetic graphs for the fusion benchmark -*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_BENCH_FUSIONBENCH_H
#define TSMLIR_BENCH_FUSIONBENCH_H

#include <cstdint>
#include <string>

/// A fully typed module in the ts dialect, as MLIR text, and its op count
/// (constants and the return included).
struct FusionGraph {
  std::string text;
  int64_t ops = 0;
};

/// The synthetic graph of about `ops` ops (generated once, then cached).
const FusionGraph &getFusionGraph(int64_t ops);

#endif // TSMLIR_BENCH_FUSIONBENCH_H
