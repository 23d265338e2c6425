//===- tsmlir-opt.cpp - mlir-opt with the tsmlir dialects and passes ------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::tsmlir::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::tsmlir::registerAllDialectsWithUpstream(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "tsmlir optimizer driver: TorchScript on MLIR\n", registry));
}
