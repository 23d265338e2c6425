//===- Autodiff.h - Source-to-source differentiation of ts -----*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The backward graph of a `ts` function, built op by op in reverse from the
// formulas of PyTorch's autograd (--ts-differentiate says what it makes).
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_AUTODIFF_AUTODIFF_H
#define TSMLIR_DIALECT_TORCHSCRIPT_AUTODIFF_AUTODIFF_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"

namespace mlir::tsmlir::ts {

/// Whether `type` is a tensor whose gradient autodiff computes: a
/// floating-point dtype (an unknown dtype does not count).
bool isDifferentiableType(Type type);

/// Rewrites `func` into `func(args..., grad_results...) -> (results...,
/// grad_args...)`: one upstream gradient per floating-point tensor result
/// (results flattened from tuples) and one gradient per floating-point
/// tensor argument, in order. Reports what it cannot differentiate.
LogicalResult differentiateJoint(func::FuncOp func);

/// Splits the function differentiateJoint made of `original` (its first
/// `numResults` results are the original's, flattened) into NAME_forward
/// and NAME_backward as --ts-differentiate describes; erases `joint`.
LogicalResult splitForwardBackward(func::FuncOp joint, unsigned numArguments,
                                   unsigned numResults);

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_AUTODIFF_AUTODIFF_H
