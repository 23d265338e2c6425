//===- MatrixBuilder.h - Builders of the matrix decompositions --*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the decompositions of factorizations (DecomposeFactorizations.cpp)
// and of spectral decompositions (DecomposeSpectral.cpp) share: batches of
// matrices with static sizes, a builder of ops on their rows, columns and
// per-matrix scalars, and the factorizations the spectral ones reuse.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_MATRIXBUILDER_H
#define TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_MATRIXBUILDER_H

#include "DecomposeUtils.h"
#include "ShapeRuleUtils.h"

namespace mlir::tsmlir::ts::decompose {

inline SmallVector<int64_t> concat(ArrayRef<int64_t> sizes,
                                   ArrayRef<int64_t> more) {
  SmallVector<int64_t> out(sizes);
  llvm::append_range(out, more);
  return out;
}

/// A float or double tensor of at least 2 static dims: its batch sizes and
/// the sizes of its matrices.
struct MatrixBatch {
  SmallVector<int64_t> batch;
  int64_t rows = 0, cols = 0;
  SmallVector<int64_t> sizes() const { return concat(batch, {rows, cols}); }
};

inline bool isRealFloat(Type dtype) {
  return dtype && (dtype.isF32() || dtype.isF64());
}

inline std::optional<MatrixBatch> matrixBatch(Value v) {
  std::optional<SmallVector<int64_t>> sizes = staticSizes(v);
  if (!sizes || sizes->size() < 2 || !isRealFloat(dtypeOf(v)))
    return std::nullopt;
  MatrixBatch m;
  m.batch.assign(sizes->begin(), sizes->end() - 2);
  m.rows = (*sizes)[sizes->size() - 2];
  m.cols = sizes->back();
  return m;
}

/// The batch sizes of `a` and `b` broadcast, or nullopt.
inline std::optional<SmallVector<int64_t>> broadcastBatch(ArrayRef<int64_t> a,
                                                          ArrayRef<int64_t> b) {
  shape::Sizes out =
      shape::broadcast({SmallVector<int64_t>(a), SmallVector<int64_t>(b)});
  if (!out)
    return std::nullopt;
  return *out;
}

/// Builds ops on matrices [batch..., rows, cols] (B batch dims), their rows
/// and columns [batch..., n] and per-matrix scalars [batch...].
struct MatrixBuilder {
  TSBuilder &t;
  int64_t B;
  Type dtype;

  Value row(Value x, int64_t i) { return t.select(x, B, i); }
  Value col(Value x, int64_t j) { return t.select(x, B + 1, j); }
  /// Element i of vectors [batch..., n].
  Value at(Value vec, int64_t i) { return t.select(vec, B, i); }
  /// A per-matrix scalar [batch...] as [batch..., 1], to scale vectors.
  Value perVector(Value s) { return t.unsqueeze(s, B); }
  Value transpose(Value x) { return t.transpose(x, B, B + 1); }
  /// [batch..., m] (x) [batch..., n] -> [batch..., m, n].
  Value outer(Value u, Value v) {
    return t.mul(t.unsqueeze(u, B + 1), t.unsqueeze(v, B));
  }
  /// [batch..., m, n] @ [batch..., n] -> [batch..., m].
  Value matvec(Value a, Value v) {
    return squeeze(t.matmul(a, t.unsqueeze(v, B + 1)), B + 1);
  }
  /// [batch..., m] @ [batch..., m, n] -> [batch..., n].
  Value vecmat(Value v, Value a) {
    return squeeze(t.matmul(t.unsqueeze(v, B), a), B);
  }
  Value squeeze(Value x, int64_t dim) {
    return AtenSqueezeDimOp::create(t.b, t.loc, t.tensor(), x, t.i(dim));
  }
  /// A constant bool tensor of `shape` (row-major) set where `pred` holds
  /// for the element's flat index.
  Value mask(ArrayRef<int64_t> shape, function_ref<bool(int64_t)> pred) {
    SmallVector<bool> bits(shape::numElements(shape));
    for (int64_t e = 0, n = bits.size(); e < n; ++e)
      bits[e] = pred(e);
    return t.bools(bits, shape);
  }
  Value vectorMask(int64_t n, function_ref<bool(int64_t)> pred) {
    return mask({n}, pred);
  }
  Value matrixMask(int64_t m, int64_t n,
                   function_ref<bool(int64_t, int64_t)> pred) {
    return mask({m, n}, [&](int64_t e) { return pred(e / n, e % n); });
  }
  Value eqNumber(Value x, double v) {
    return AtenEqScalarOp::create(t.b, t.loc, t.tensor(), x, t.f(v));
  }
  Value reciprocal(Value x) {
    return AtenReciprocalOp::create(t.b, t.loc, t.tensor(), x);
  }
  Value neg(Value x) { return AtenNegOp::create(t.b, t.loc, t.tensor(), x); }
  Value abs(Value x) { return AtenAbsOp::create(t.b, t.loc, t.tensor(), x); }
  /// The identity [rows, cols] in the matrices' dtype, expanded to `batch`.
  Value eye(ArrayRef<int64_t> batch, int64_t rows, int64_t cols) {
    SmallVector<int64_t> bits(rows * cols);
    for (int64_t i = 0; i < std::min(rows, cols); ++i)
      bits[i * cols + i] = 1;
    Value e = t.castTo(t.longs(bits, {rows, cols}), dtype);
    return batch.empty() ? e : t.expand(e, concat(batch, {rows, cols}));
  }
  /// The c10::ScalarType code of the matrices' dtype.
  int64_t code() { return dtype.isF64() ? kDouble : kFloat; }
};

/// A decomposition of an op whose operand 0 is a batch of float or double
/// matrices of known sizes: `rewrite` builds the results.
template <typename OpTy> struct MatrixPattern : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  /// Builds the results; may fail only before it builds anything.
  virtual LogicalResult rewrite(OpTy op, MatrixBuilder &mb,
                                const MatrixBatch &s,
                                SmallVector<Value> &results) const = 0;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    std::optional<MatrixBatch> s = matrixBatch(op->getOperand(0));
    if (!s)
      return rewriter.notifyMatchFailure(
          op, "not a float or double tensor of known sizes with 2 dims");
    TSBuilder t{rewriter, op.getLoc()};
    MatrixBuilder mb{t, static_cast<int64_t>(s->batch.size()),
                     dtypeOf(op->getOperand(0))};
    SmallVector<Value> results;
    if (failed(rewrite(op, mb, *s, results)))
      return rewriter.notifyMatchFailure(op, "arguments not supported");
    replaceWithDeclaredTypes(rewriter, op, results);
    return success();
  }
};

/// geqrf: the reflectors below R's diagonal and their taus [batch..., k].
std::pair<Value, Value> geqrf(MatrixBuilder &mb, Value a, const MatrixBatch &s);

/// orgqr: the first n columns of H_0 ... H_{k-1}, [batch..., m, n].
Value householderProduct(MatrixBuilder &mb, Value a, Value tau,
                         ArrayRef<int64_t> batch, int64_t m, int64_t n,
                         int64_t k);

/// A prim::Loop of `trips` iterations carrying `inits`, whose body maps the
/// carried values to the next ones; returns the values carried out.
SmallVector<Value> buildLoop(TSBuilder &t, int64_t trips, ValueRange inits,
                             function_ref<SmallVector<Value>(ValueRange)> body);
/// The same for a trip count known at run time (a ts int); the body also
/// takes the iteration number.
SmallVector<Value>
buildLoop(TSBuilder &t, Value trips, ValueRange inits,
          function_ref<SmallVector<Value>(Value, ValueRange)> body);

} // namespace mlir::tsmlir::ts::decompose

#endif // TSMLIR_LIB_DIALECT_TORCHSCRIPT_TRANSFORMS_MATRIXBUILDER_H
