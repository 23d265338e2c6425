//===- NodeKind.cpp - TorchScript's names of ts ops -----------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/NodeKind.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

using namespace mlir;
using namespace mlir::tsmlir;

std::string ts::getNodeKind(StringRef opName, bool withOverload) {
  if (!opName.consume_front("ts."))
    return "";
  auto [ns, rest] = opName.split('.');
  // A module's state (ts.module_state...) is no TorchScript node.
  if (ns == "module_state")
    return "";
  return (ns + "::" + (withOverload ? rest : rest.split('.').first)).str();
}

std::string ts::getNodeKind(Operation *op, bool withOverload) {
  if (auto node = llvm::dyn_cast<OperatorOp>(op))
    return node.getKind().str();
  return getNodeKind(op->getName().getStringRef(), withOverload);
}
