//===- ElementwiseBody.h - What an elementwise op computes ------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An elementwise op is lowered from its spec: which operands it reads, the
// type its body computes in, and the body, a function of one element of
// each operand (Elementwise.cpp builds the linalg.generic around it). The
// specs are in Elementwise.cpp (arithmetic, comparisons, activations, casts),
// ElementwiseMath.cpp (the math library, predicates, bitwise ops) and
// ElementwiseSpecial.cpp (torch.special's functions).
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_CONVERSION_TORCHSCRIPTTOLINALG_ELEMENTWISEBODY_H
#define TSMLIR_LIB_CONVERSION_TORCHSCRIPTTOLINALG_ELEMENTWISEBODY_H

#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"

#include <functional>

namespace mlir::tsmlir::lowering {

/// What an elementwise body computes with.
struct BodyContext {
  OpBuilder &b;
  Location loc;
  Operation *op;
  /// The data operands' elements (or scalar values), cast to `type`.
  SmallVector<Value> args;
  /// The type the body computes in.
  Type type;
  /// Whether `type` holds unsigned integers (uint8); booleans compare,
  /// take maxima and minima as unsigned too.
  bool isUnsigned;
  /// The converted operands of the op (scalars as i64/f64/i1 values).
  ArrayRef<Value> operands;

  bool isFloat() const { return llvm::isa<FloatType>(type); }
  Value cst(double v) const { return createScalarConstant(b, loc, type, v); }
  /// Operand `i` (a scalar) cast to the compute type.
  Value scalar(unsigned i) const {
    if (std::optional<double> n = getConstNumber(op->getOperand(i)))
      return cst(*n);
    return castScalar(b, loc, operands[i], type);
  }
  Value add(Value x, Value y) const {
    if (isFloat())
      return arith::AddFOp::create(b, loc, x, y);
    // PyTorch adds booleans as a logical or (true + true is true).
    if (type.isInteger(1))
      return arith::OrIOp::create(b, loc, x, y);
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value sub(Value x, Value y) const {
    return isFloat() ? arith::SubFOp::create(b, loc, x, y).getResult()
                     : arith::SubIOp::create(b, loc, x, y).getResult();
  }
  Value mul(Value x, Value y) const {
    return isFloat() ? arith::MulFOp::create(b, loc, x, y).getResult()
                     : arith::MulIOp::create(b, loc, x, y).getResult();
  }
  Value div(Value x, Value y) const {
    return arith::DivFOp::create(b, loc, x, y);
  }
  Value max(Value x, Value y) const {
    if (isFloat())
      return arith::MaximumFOp::create(b, loc, x, y);
    if (isUnsigned || type.isInteger(1))
      return arith::MaxUIOp::create(b, loc, x, y);
    return arith::MaxSIOp::create(b, loc, x, y);
  }
  Value min(Value x, Value y) const {
    if (isFloat())
      return arith::MinimumFOp::create(b, loc, x, y);
    if (isUnsigned || type.isInteger(1))
      return arith::MinUIOp::create(b, loc, x, y);
    return arith::MinSIOp::create(b, loc, x, y);
  }
  /// `x * alpha` for operand `i`, skipped when alpha is the constant 1.
  Value scaled(Value x, unsigned alphaOperand) const {
    std::optional<double> alpha =
        getConstNumber(op->getOperand(alphaOperand));
    if (alpha && *alpha == 1.0)
      return x;
    return mul(x, scalar(alphaOperand));
  }
  Value sigmoid(Value x) const {
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
    return div(cst(1), add(cst(1), e));
  }
  Value select(Value c, Value x, Value y) const {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value cmpf(arith::CmpFPredicate p, Value x, Value y) const {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
};

using BodyFn = std::function<Value(BodyContext &)>;

/// How the compute type is chosen.
enum class Compute {
  Result,   // the result's element type (f32 for f16/bf16)
  Promoted, // the promoted type of the data operands (comparisons)
  Bool,     // i1 (logical ops)
};

/// An operand the body reads.
struct DataOperand {
  unsigned index;
  bool cast; // cast to the compute type (false: passed as it is)
};

struct ElementwiseSpec {
  StringRef name;
  SmallVector<DataOperand> data;
  Compute compute;
  BodyFn body;
};

/// A call of the C library's `f32Name` or `f64Name` (by the compute type of
/// `c`), declared in the module on first use.
Value callLibm(const BodyContext &c, StringRef f32Name, StringRef f64Name,
               ValueRange args);

/// The specs of the math library (trigonometric, hyperbolic, gamma and
/// error functions), float predicates (isnan, signbit, ...), bitwise ops and
/// shifts, and the activations built from them.
void addMathElementwiseSpecs(SmallVectorImpl<ElementwiseSpec> &specs);

/// The specs of torch.special's functions: Bessel functions, the normal
/// distribution, erfcx, entr and the orthogonal polynomials.
void addSpecialElementwiseSpecs(SmallVectorImpl<ElementwiseSpec> &specs);

} // namespace mlir::tsmlir::lowering

#endif // TSMLIR_LIB_CONVERSION_TORCHSCRIPTTOLINALG_ELEMENTWISEBODY_H
