//===- TorchScriptOps.cpp - TorchScript op definitions --------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ODS-generated definitions of every `ts` op. Hand-written parts live in
// PrimOps.cpp (prim ops and ts.operator), AtenFolds.cpp and AtenVerifiers.cpp.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/ValueNames.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tsmlir::ts;

/// `prim::If`'s condition: `%c` for a `bool`, `%c : !ts.int` otherwise.
static mlir::ParseResult
parseIfCondition(mlir::OpAsmParser &parser,
                 mlir::OpAsmParser::UnresolvedOperand &condition,
                 mlir::Type &type) {
  if (parser.parseOperand(condition))
    return mlir::failure();
  if (mlir::succeeded(parser.parseOptionalColon()))
    return parser.parseType(type);
  type = mlir::tsmlir::ts::BoolType::get(parser.getContext());
  return mlir::success();
}

static void printIfCondition(mlir::OpAsmPrinter &printer, mlir::Operation *,
                             mlir::Value condition, mlir::Type type) {
  printer << condition;
  if (!llvm::isa<mlir::tsmlir::ts::BoolType>(type))
    printer << " : " << type;
}

#define GET_OP_CLASSES
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.cpp.inc"
