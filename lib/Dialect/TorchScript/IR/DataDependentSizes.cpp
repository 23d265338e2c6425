//===- DataDependentSizes.cpp - Tensors sized at run time -----------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/DataDependentSizes.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tsmlir;

std::optional<SmallVector<int64_t>> ts::getSizeBound(Value tensor) {
  auto type = llvm::dyn_cast<ts::TensorType>(tensor.getType());
  auto slice = tensor.getDefiningOp<ts::AtenSliceTensorOp>();
  if (!type || !slice || !type.getDtype() || !type.getSizes() ||
      type.hasStaticShape())
    return std::nullopt;
  auto self = llvm::dyn_cast<ts::TensorType>(slice.getSelf().getType());
  if (!self || !self.hasStaticShape() || self.getDtype() != type.getDtype())
    return std::nullopt;
  ArrayRef<int64_t> bound = self.getSizesOrEmpty();
  ArrayRef<int64_t> sizes = type.getSizesOrEmpty();
  IntegerAttr dim, step;
  if (bound.size() != sizes.size() ||
      !matchPattern(slice.getDim(), m_Constant(&dim)) ||
      !matchPattern(slice.getStep(), m_Constant(&step)) || step.getInt() != 1)
    return std::nullopt;
  int64_t rank = bound.size();
  int64_t d = dim.getInt() < 0 ? dim.getInt() + rank : dim.getInt();
  if (d < 0 || d >= rank)
    return std::nullopt;
  for (int64_t i = 0; i < rank; ++i)
    if (i == d ? sizes[i] != ts::TensorType::kUnknown : sizes[i] != bound[i])
      return std::nullopt;
  return SmallVector<int64_t>(bound);
}
