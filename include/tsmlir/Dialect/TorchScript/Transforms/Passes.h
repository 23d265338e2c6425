//===- Passes.h - TorchScript dialect passes --------------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_PASSES_H
#define TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_PASSES_H

#include "tsmlir/Dialect/TorchScript/Transforms/SpecializationSpec.h"

#include "mlir/Pass/Pass.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class PassManager;
class RewritePatternSet;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace mlir::tsmlir::ts {

/// The number of TorchScript nodes (ops of the `ts` dialect) in `root`.
int64_t countNodes(Operation *root);

/// Adds to `pm` an instrumentation that prints to `os`, when `pm` is
/// destroyed, how many TorchScript nodes each pass removed
/// (`tsmlir-opt --ts-pass-statistics`).
void addNodeCountInstrumentation(PassManager &pm, llvm::raw_ostream &os);

/// The patterns of --ts-decompose: composite operators (recurrent networks,
/// instance_norm, var_mean/std_mean, mv/outer/addmv) as the ops they are
/// made of.
void populateDecompositionPatterns(RewritePatternSet &patterns);

/// Rewrites the in-place changes of sizes of `func` (`transpose_`,
/// `unsqueeze_`, `t_`...) into views that later uses read, as
/// --ts-remove-mutation does. ts-specialize runs it before refining types:
/// a value's sizes are one fact only once nothing resizes it in place.
void removeMetadataMutations(func::FuncOp func);

#define GEN_PASS_DECL
#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h.inc"

/// ts-specialize for `spec`, as a driver builds it (no option text).
std::unique_ptr<Pass> createTSSpecializePass(SpecializationSpec spec);

#define GEN_PASS_REGISTRATION
#include "tsmlir/Dialect/TorchScript/Transforms/Passes.h.inc"

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_PASSES_H
