//===- FusionDialect.cpp - Fusion dialect ---------------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/Fusion/IR/FusionDialect.h"
#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::tsmlir::fusion;

#include "tsmlir/Dialect/Fusion/IR/FusionDialect.cpp.inc"

namespace {
/// Fusion groups and guards may be inlined with the function that holds
/// them: their regions are self-contained.
struct FusionInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *op, Region *dest, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }
  bool isLegalToInline(Region *dest, Region *src, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }
};
} // namespace

void FusionDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tsmlir/Dialect/Fusion/IR/FusionOps.cpp.inc"
      >();
  addInterfaces<FusionInlinerInterface>();
}
