//===- tsmlir-translate.cpp - TorchScript text <-> MLIR -------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   tsmlir-translate --import-torchscript graph.txt -o graph.mlir
//   tsmlir-translate --export-torchscript graph.mlir -o graph.txt
//   tsmlir-translate --import-pt model.pt [--pt-entry METHOD] -o model.mlir
//
// Locations carry TorchScript's value names and source comments, so they are
// printed by default (--mlir-print-debuginfo=false drops them).
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Target/PtArchive/Import.h"
#include "tsmlir/Target/TorchScript/Export.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/ADT/StringRef.h"

#include <vector>

int main(int argc, char **argv) {
  mlir::tsmlir::registerTorchScriptTranslations();
  mlir::tsmlir::registerPtArchiveTranslation();
  std::vector<char *> args(argv, argv + argc);
  bool debugInfoGiven = false;
  for (char *arg : args)
    debugInfoGiven |= llvm::StringRef(arg).contains("mlir-print-debuginfo");
  static char debugInfo[] = "--mlir-print-debuginfo";
  if (!debugInfoGiven)
    args.insert(args.begin() + 1, debugInfo);
  return mlir::failed(mlir::mlirTranslateMain(
      static_cast<int>(args.size()), args.data(), "tsmlir translation tool"));
}
