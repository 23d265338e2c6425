//===- ShapeRuleUtils.h - Helpers shared by the shape rules -----*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Sizes, broadcasting, dimension wrapping and PyTorch's type promotion, as
// the shape rules use them. Sizes are `std::optional<SmallVector<int64_t>>`:
// nullopt for an unknown rank, `kUnknown` for an unknown size. Private to the
// TorchScript transforms library.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_SHAPERULEUTILS_H
#define TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_SHAPERULEUTILS_H

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TypePromotion.h"
#include "tsmlir/Dialect/TorchScript/Transforms/ShapeInference.h"

#include <optional>

namespace mlir::tsmlir::ts::shape {

using Sizes = std::optional<SmallVector<int64_t>>;
constexpr int64_t kUnknown = TensorType::kUnknown;

//===----------------------------------------------------------------------===//
// Reading operands
//===----------------------------------------------------------------------===//

/// The tensor type of `value`, or null when it is not a tensor.
TensorType getTensorType(Value value);
Sizes getSizes(Value value);
std::optional<int64_t> getRank(Value value);
Type getDtype(Value value);
StringAttr getDevice(Value value);

/// The device every tensor among `values` is on, or null unless all state
/// the same one.
StringAttr getCommonDevice(ValueRange values);

/// A tensor type with what is known; every argument may be null/unknown.
TensorType makeTensor(MLIRContext *ctx, Type dtype, const Sizes &sizes,
                      StringAttr device = {});

/// `value`'s type with other sizes (and no strides).
TensorType withSizes(Value value, const Sizes &sizes);
/// `value`'s type with another dtype (and no strides).
TensorType withDtype(Value value, Type dtype);
/// `value`'s type without strides or requires_grad: what an op that computes
/// a new tensor of the same dtype and sizes gives.
TensorType sameAs(Value value);

//===----------------------------------------------------------------------===//
// Sizes
//===----------------------------------------------------------------------===//

/// PyTorch's broadcasting of `shapes`; unknown when a rank is unknown or two
/// known sizes cannot broadcast (the op raises).
Sizes broadcast(ArrayRef<Sizes> shapes);

/// PyTorch's maybe_wrap_dim: `dim` in [-rank, rank) made non-negative, where
/// a 0-d tensor has one wrappable dimension; nullopt when out of range.
std::optional<int64_t> wrapDim(int64_t dim, int64_t rank);

/// Products and sums of sizes where `kUnknown` is contagious (and overflow
/// gives `kUnknown`).
int64_t mulSizes(int64_t a, int64_t b);
int64_t addSizes(int64_t a, int64_t b);
/// The number of elements, or kUnknown.
int64_t numElements(ArrayRef<int64_t> sizes);

/// Python's floor division of sizes (b > 0), kUnknown-contagious.
int64_t floorDivSizes(int64_t a, int64_t b);

/// PyTorch's pooling_output_shape: the windows along a dim of size `in`,
/// kUnknown when `in` is.
int64_t poolSize(int64_t in, int64_t k, int64_t pad, int64_t stride,
                 int64_t dilation, bool ceilMode);

/// The dims an `int[1]? dim` argument of a reduction names, wrapped and
/// sorted, for a tensor of `rank`; None or an empty list names every dim.
/// Nullopt when not known.
std::optional<SmallVector<int64_t>> getReducedDims(const ShapeFacts &facts,
                                                   Value dims, int64_t rank);

/// `sizes` with the dims in `dims` (sorted) removed, or set to 1 with
/// `keepdim`.
SmallVector<int64_t> reduceSizes(ArrayRef<int64_t> sizes,
                                 ArrayRef<int64_t> dims, bool keepdim);

//===----------------------------------------------------------------------===//
// Dtypes
//===----------------------------------------------------------------------===//

Type getDefaultFloat(MLIRContext *ctx); // f32, torch's default dtype
Type getLong(MLIRContext *ctx);         // si64
Type getBool(MLIRContext *ctx);         // i1

bool isBoolDtype(Type dtype);
bool isFloatDtype(Type dtype);
bool isComplexDtype(Type dtype);
/// Integral, bool included.
bool isIntegralDtype(Type dtype);

/// PyTorch's result type (at::result_type) of `operands`: tensors by
/// priority (dimensioned, then 0-d), then scalars (int, float, bool, complex,
/// or a Scalar whose kind a constant tells), where a float scalar counts as
/// the default dtype. Operands of other types, and None, are skipped.
/// Null when it cannot be told.
Type getResultType(ValueRange operands, const ShapeFacts &facts);

/// The dtype an integral result of an op that computes in floating point
/// becomes (true division, sqrt, mean of ints): the default float.
Type toFloatIfIntegral(Type dtype);

//===----------------------------------------------------------------------===//
// Shared by rule families
//===----------------------------------------------------------------------===//

/// The types of the pieces `aten::chunk`, `aten::split.Tensor`,
/// `aten::unbind.int` or `prim::ConstantChunk` produce, when their number is
/// known.
std::optional<SmallVector<Type>> getSplitTypes(Operation *op,
                                               const ShapeFacts &facts);

} // namespace mlir::tsmlir::ts::shape

#endif // TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_SHAPERULEUTILS_H
