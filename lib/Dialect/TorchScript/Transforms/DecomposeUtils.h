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

#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::tsmlir::ts::decompose {

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
};

std::optional<int64_t> constInt(Value v);
std::optional<bool> constBool(Value v);
/// A float or int constant as a double.
std::optional<double> constFloat(Value v);

/// The static sizes of tensor `v`, or nullopt.
std::optional<SmallVector<int64_t>> staticSizes(Value v);
/// The static sizes of a tensor value or constant.
std::optional<SmallVector<int64_t>> staticSizes(OpFoldResult v);

/// The elements of a list built by a prim::ListConstruct or a constant (as
/// attributes), without building anything. Whether the list may be modified
/// before it is read is the caller's to check.
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
void populateIndexingPatterns(RewritePatternSet &patterns);
void populateStatisticsPatterns(RewritePatternSet &patterns);

} // namespace mlir::tsmlir::ts::decompose

#endif // TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_DECOMPOSEUTILS_H
