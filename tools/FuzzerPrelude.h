//===- FuzzerPrelude.h - Assertions on against a release LLVM ---*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Included first (-include) in every source compiled into a fuzzer with
// assertions on (-UNDEBUG) while libLLVM and libMLIR are release builds
// (NDEBUG). Assertions change no layout in the LLVM and MLIR headers but
// one: llvm::Statistic is a TrackingStatistic with assertions and a
// NoopStatistic without, and mlir::Pass::Statistic derives from it, so a
// pass compiled with -UNDEBUG would update statistics libMLIR built as the
// empty kind (an out-of-bounds read, which UBSan reports). Statistic.h is
// read here once, with NDEBUG, so that its layout matches the libraries;
// everything after it sees assertions on again.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_TOOLS_FUZZERPRELUDE_H
#define TSMLIR_TOOLS_FUZZERPRELUDE_H

#ifdef __cplusplus
#ifndef NDEBUG
#define NDEBUG
#include "llvm/ADT/Statistic.h"
#undef NDEBUG
#else
#include "llvm/ADT/Statistic.h"
#endif
// <cassert> was read with NDEBUG above: read it again for assert() to check.
#include <cassert>
#endif

#endif // TSMLIR_TOOLS_FUZZERPRELUDE_H
