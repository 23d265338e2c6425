//===- KernelDialect.cpp - Library kernel dialect -------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/Kernel/IR/KernelDialect.h"
#include "tsmlir/Dialect/Kernel/IR/KernelOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tsmlir::kernel;

#include "tsmlir/Dialect/Kernel/IR/KernelDialect.cpp.inc"
#include "tsmlir/Dialect/Kernel/IR/KernelEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tsmlir/Dialect/Kernel/IR/KernelAttrs.cpp.inc"

/// `<` kind `,` alpha `,` beta `>`, the numbers as f64.
Attribute StepAttr::parse(AsmParser &parser, Type) {
  std::string keyword;
  double alpha, beta;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeywordOrString(&keyword) ||
      parser.parseComma() || parser.parseFloat(alpha) || parser.parseComma() ||
      parser.parseFloat(beta) || parser.parseGreater())
    return {};
  std::optional<StepKind> kind = symbolizeStepKind(keyword);
  if (!kind) {
    parser.emitError(loc) << "unknown epilogue step '" << keyword << "'";
    return {};
  }
  return StepAttr::get(parser.getContext(), *kind, alpha, beta);
}

void StepAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyStepKind(getKind()) << ", ";
  printer.printFloat(getAlpha());
  printer << ", ";
  printer.printFloat(getBeta());
  printer << ">";
}

void KernelDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tsmlir/Dialect/Kernel/IR/KernelOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tsmlir/Dialect/Kernel/IR/KernelAttrs.cpp.inc"
      >();
}
