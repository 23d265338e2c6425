//===- DecomposeUtils.h - Helpers of the ts-decompose patterns --------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the decomposition patterns (Decompose*.cpp) share: a builder of ts
// ops with unrefined types, readers of constant operands and known lists
// that build nothing (a pattern must not change the IR before it knows it
// succeeds), and the replacement that keeps the op's declared types.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_DECOMPOSEUTILS_H
#define TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_DECOMPOSEUTILS_H

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Support/Dtype.h"

#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::tsmlir::ts::decompose {

/// The `c10::ScalarType` codes (tsmlir/Support/Dtype.h) of the dtypes the
/// decompositions build, as the int operands of ts ops take them.
constexpr int64_t kInt = static_cast<int64_t>(Dtype::Int);
constexpr int64_t kLong = static_cast<int64_t>(Dtype::Long);
constexpr int64_t kFloat = static_cast<int64_t>(Dtype::Float);
constexpr int64_t kDouble = static_cast<int64_t>(Dtype::Double);
constexpr int64_t kBool = static_cast<int64_t>(Dtype::Bool);

/// Builds ts ops with unrefined result types, which the next round of shape
/// inference refines.
struct TSBuilder {
  OpBuilder &b;
  Location loc;

  MLIRContext *ctx() { return b.getContext(); }
  Type tensor() { return ts::TensorType::get(ctx()); }
  Value i(int64_t v) {
    return PrimConstantOp::create(b, loc, ts::IntType::get(ctx()),
                                  b.getI64IntegerAttr(v));
  }
  Value f(double v) {
    return PrimConstantOp::create(b, loc, ts::FloatType::get(ctx()),
                                  b.getF64FloatAttr(v));
  }
  Value str(StringRef v) {
    return PrimConstantOp::create(b, loc, ts::StrType::get(ctx()),
                                  b.getStringAttr(v));
  }
  Value flag(bool v) {
    return PrimConstantOp::create(b, loc, ts::BoolType::get(ctx()),
                                  b.getBoolAttr(v));
  }
  Value none() {
    return PrimConstantOp::create(b, loc, ts::NoneType::get(ctx()), Attribute());
  }
  Value select(Value x, int64_t dim, int64_t index) {
    return AtenSelectIntOp::create(b, loc, tensor(), x, i(dim), i(index));
  }
  Value narrow(Value x, int64_t dim, int64_t start, int64_t length) {
    return AtenNarrowOp::create(b, loc, tensor(), x, i(dim), i(start),
                                i(length));
  }
  Value unsqueeze(Value x, int64_t dim) {
    return AtenUnsqueezeOp::create(b, loc, tensor(), x, i(dim));
  }
  Value linear(Value x, Value weight, Value bias) {
    return AtenLinearOp::create(b, loc, tensor(), x, weight,
                                bias ? bias : none());
  }
  Value reshape(Value x, ArrayRef<int64_t> sizes);
  /// A constant Long tensor of `shape` holding `values`.
  Value longs(ArrayRef<int64_t> values, ArrayRef<int64_t> shape);
  /// A constant Bool tensor of `shape` holding `values`.
  Value bools(ArrayRef<bool> values, ArrayRef<int64_t> shape);
  Value transpose(Value x, int64_t dim0, int64_t dim1) {
    return AtenTransposeIntOp::create(b, loc, tensor(), x, i(dim0), i(dim1));
  }
  Value matmul(Value x, Value y) {
    return AtenMatmulOp::create(b, loc, tensor(), x, y);
  }
  Value add(Value x, Value y) {
    return AtenAddTensorOp::create(b, loc, tensor(), x, y, i(1));
  }
  Value mul(Value x, Value y) {
    return AtenMulTensorOp::create(b, loc, tensor(), x, y);
  }
  /// 1 - x.
  Value oneMinus(Value x) {
    return AtenRsubScalarOp::create(b, loc, tensor(), x, i(1), i(1));
  }
  Value sigmoid(Value x) { return AtenSigmoidOp::create(b, loc, tensor(), x); }
  Value tanh(Value x) { return AtenTanhOp::create(b, loc, tensor(), x); }
  Value relu(Value x) { return AtenReluOp::create(b, loc, tensor(), x); }
  Value list(ArrayRef<Value> xs) {
    return PrimListConstructOp::create(b, loc, ts::ListType::get(ctx(), tensor()),
                                       xs);
  }
  Value stack(ArrayRef<Value> xs, int64_t dim) {
    return AtenStackOp::create(b, loc, tensor(), list(xs), i(dim));
  }
  Value cat(ArrayRef<Value> xs, int64_t dim) {
    return AtenCatOp::create(b, loc, tensor(), list(xs), i(dim));
  }
  Value sub(Value x, Value y) {
    return AtenSubTensorOp::create(b, loc, tensor(), x, y, i(1));
  }
  Value div(Value x, Value y) {
    return AtenDivTensorOp::create(b, loc, tensor(), x, y);
  }
  Value isnan(Value x) { return AtenIsnanOp::create(b, loc, tensor(), x); }
  Value logicalNot(Value x) {
    return AtenLogicalNotOp::create(b, loc, tensor(), x);
  }
  Value logicalAnd(Value x, Value y) {
    return AtenLogicalAndOp::create(b, loc, tensor(), x, y);
  }
  Value logicalOr(Value x, Value y) {
    return AtenLogicalOrOp::create(b, loc, tensor(), x, y);
  }
  /// where(condition, x, y) of two tensors.
  Value where(Value condition, Value x, Value y) {
    return AtenWhereSelfOp::create(b, loc, tensor(), condition, x, y);
  }
  /// `x` with the number `scalar` where `condition` is set.
  Value whereNumber(Value condition, Value scalar, Value x) {
    return AtenWhereScalarSelfOp::create(b, loc, tensor(), condition, scalar,
                                         x);
  }
  /// A new tensor equal to `x`: what an op that computes nothing returns,
  /// so that no later write to it reaches `x`.
  Value clone(Value x) {
    return AtenCloneOp::create(b, loc, tensor(), x, none());
  }
  Value gather(Value x, int64_t dim, Value index) {
    return AtenGatherOp::create(b, loc, tensor(), x, i(dim), index,
                                flag(false));
  }
  Value indexSelect(Value x, int64_t dim, Value index) {
    return AtenIndexSelectOp::create(b, loc, tensor(), x, i(dim), index);
  }
  Value slice(Value x, int64_t dim, int64_t start, int64_t end) {
    return AtenSliceTensorOp::create(b, loc, tensor(), x, i(dim), i(start),
                                     i(end), i(1));
  }
  Value anyDim(Value x, int64_t dim, bool keepdim) {
    return AtenAnyDimOp::create(b, loc, tensor(), x, i(dim), flag(keepdim));
  }
  Value sumAll(Value x) {
    return AtenSumOp::create(b, loc, tensor(), x, none());
  }
  Value sumDim(Value x, int64_t dim, bool keepdim = false) {
    return AtenSumDimIntListOp::create(b, loc, tensor(), x, sizes({dim}),
                                       flag(keepdim), none());
  }
  /// A prim::ListConstruct of int constants.
  Value sizes(ArrayRef<int64_t> values);
  /// `x` converted to the dtype of ScalarType `code`.
  Value to(Value x, int64_t code);
  /// `x` converted to `dtype` unless it is known to have it.
  Value castTo(Value x, Type dtype);
  /// 0, 1, ..., n - 1 as Long.
  Value arange(int64_t n);
  Value zeros(ArrayRef<int64_t> shape, int64_t code);
  Value ones(ArrayRef<int64_t> shape, int64_t code);
  Value full(ArrayRef<int64_t> shape, int64_t fill, int64_t code);
  Value expand(Value x, ArrayRef<int64_t> shape);
  /// `x` with its dims in `order` (`x` itself for the identity).
  Value permute(Value x, ArrayRef<int64_t> order);
  /// The values and indices of a stable ascending sort along `dim` (NaN
  /// last, equal elements in their order).
  std::pair<Value, Value> sort(Value x, int64_t dim);
};

/// The dtype of tensor `v` (a value or a constant), or null.
Type dtypeOf(Value v);
Type dtypeOf(OpFoldResult v);
bool isNone(Value v);
std::optional<StringRef> constStr(Value v);

std::optional<int64_t> constInt(Value v);
std::optional<bool> constBool(Value v);
/// A float or int constant as a double.
std::optional<double> constFloat(Value v);

/// The static sizes of tensor `v`, or nullopt.
std::optional<SmallVector<int64_t>> staticSizes(Value v);
/// The static sizes of a tensor value or constant.
std::optional<SmallVector<int64_t>> staticSizes(OpFoldResult v);

/// The elements of a list built by a prim::ListConstruct that no op
/// modifies (isUnmodifiedList) or of a constant (as attributes), without
/// building anything.
std::optional<SmallVector<OpFoldResult>> listElements(Value list);

/// The tensors of a list (listElements whose constants are all tensors).
std::optional<SmallVector<OpFoldResult>> knownTensors(Value list);

/// An element of listElements as a value: a constant of `type` made for an
/// attribute (a tensor by default).
Value materialize(OpBuilder &b, Location loc, OpFoldResult v, Type type = {});

/// The ints of an int[] operand (a prim::ListConstruct of constants, a
/// constant list, or one int standing for all `n`), a single element
/// repeated to `n`; an empty list stays empty (a default, such as a pooling
/// stride). Nullopt when not constant or of another length.
std::optional<SmallVector<int64_t>> intList(Value v, unsigned n);

/// The ints of a list of int constants (a prim::ListConstruct of constants
/// or a constant list), of any length.
std::optional<SmallVector<int64_t>> constIntList(Value list);

/// The doubles of a list of float (or int) constants, as constIntList.
std::optional<SmallVector<double>> constFloatList(Value list);

/// A prim::ListConstruct of int constants.
Value intListValue(TSBuilder &t, ArrayRef<int64_t> values);

/// Replaces `op` by `results`, each cast to the type the op declared for
/// it where the two differ (the decomposition's types are unrefined until
/// the next round of shape inference).
void replaceWithDeclaredTypes(PatternRewriter &rewriter, Operation *op,
                              SmallVector<Value> results);

/// The sizes of einsum(equation, operands of `sizes`), or nullopt when the
/// equation does not parse or fit the ranks (for its shape rule).
std::optional<SmallVector<int64_t>>
einsumSizes(StringRef equation, ArrayRef<SmallVector<int64_t>> sizes);

/// The patterns of each family, added by ts::populateDecompositionPatterns.
void populateRNNPatterns(RewritePatternSet &patterns);
void populateAttentionPatterns(RewritePatternSet &patterns);
void populateReductionPatterns(RewritePatternSet &patterns);
void populateShapePatterns(RewritePatternSet &patterns);
void populateEinsumPatterns(RewritePatternSet &patterns);
void populateFactoryPatterns(RewritePatternSet &patterns);
void populateLossPatterns(RewritePatternSet &patterns);
void populateSelectionPatterns(RewritePatternSet &patterns);
void populateMatricesPatterns(RewritePatternSet &patterns);
void populateFactorizationPatterns(RewritePatternSet &patterns);
void populateCompositePatterns(RewritePatternSet &patterns);
void populateSpectralPatterns(RewritePatternSet &patterns);
void populateIndexingPatterns(RewritePatternSet &patterns);
void populateStatisticsPatterns(RewritePatternSet &patterns);
void populatePoolingPatterns(RewritePatternSet &patterns);
void populateNormalizationPatterns(RewritePatternSet &patterns);
void populateGradientPatterns(RewritePatternSet &patterns);

} // namespace mlir::tsmlir::ts::decompose

#endif // TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_DECOMPOSEUTILS_H
