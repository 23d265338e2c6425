//===- MemrefCopyToLinalg.cpp - memref.copy as linalg.copy ----------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::tsmlir {
#define GEN_PASS_DEF_TSMEMREFCOPYTOLINALGPASS
#include "tsmlir/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir

using namespace mlir;

namespace {
class TSMemrefCopyToLinalgPass
    : public tsmlir::impl::TSMemrefCopyToLinalgPassBase<
          TSMemrefCopyToLinalgPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      OpBuilder b(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    }
  }
};
} // namespace
