//===- FusionDialect.cpp - Fusion dialect ---------------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/Fusion/IR/FusionDialect.h"
#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"

using namespace mlir;
using namespace mlir::tsmlir::fusion;

#include "tsmlir/Dialect/Fusion/IR/FusionDialect.cpp.inc"

void FusionDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tsmlir/Dialect/Fusion/IR/FusionOps.cpp.inc"
      >();
}
