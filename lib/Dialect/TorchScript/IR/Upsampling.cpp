//===- Upsampling.cpp - The scales of upsampling ops ----------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/Upsampling.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"

using namespace mlir;
using namespace mlir::tsmlir;

/// A float or int constant as a double.
static std::optional<double> getConstantNumber(Value value) {
  auto constant = value.getDefiningOp<ts::PrimConstantOp>();
  Attribute attr = constant ? constant.getValueAttr() : Attribute();
  if (auto f = llvm::dyn_cast_or_null<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(attr))
    return static_cast<double>(i.getValue().getSExtValue());
  return std::nullopt;
}

static bool isNoneValue(Value value) {
  return llvm::isa<ts::NoneType>(ts::stripUncheckedCasts(value).getType());
}

FailureOr<SmallVector<std::optional<double>>>
ts::getUpsampleScales(Operation *op, unsigned n, bool vec,
                      unsigned firstScale) {
  SmallVector<std::optional<double>> scales(n);
  if (vec) {
    Value outputSize = op->getOperand(1);
    Value factors =
        ts::stripUncheckedCasts(op->getOperand(op->getNumOperands() - 1));
    if (!isNoneValue(outputSize) || isNoneValue(factors))
      return scales; // sizes given: no scales
    SmallVector<std::optional<double>> values;
    if (auto list = factors.getDefiningOp<ts::PrimListConstructOp>()) {
      for (Value v : list.getElements())
        values.push_back(getConstantNumber(v));
    } else if (auto constant = factors.getDefiningOp<ts::PrimConstantOp>()) {
      if (auto array =
              llvm::dyn_cast_or_null<ArrayAttr>(constant.getValueAttr())) {
        for (Attribute a : array) {
          auto f = llvm::dyn_cast<FloatAttr>(a);
          values.push_back(f ? std::optional<double>(f.getValueAsDouble())
                             : std::nullopt);
        }
      }
    }
    if (values.size() != n && values.size() != 1)
      return failure();
    for (unsigned i = 0; i < n; ++i) {
      scales[i] = values[values.size() == 1 ? 0 : i];
      if (!scales[i])
        return failure();
    }
  } else {
    for (unsigned i = 0; i < n; ++i) {
      Value s = op->getOperand(firstScale + i);
      if (isNoneValue(s))
        continue;
      scales[i] = getConstantNumber(s);
      if (!scales[i])
        return failure();
    }
  }
  for (std::optional<double> &s : scales)
    if (s && *s <= 0)
      s.reset();
  return scales;
}
