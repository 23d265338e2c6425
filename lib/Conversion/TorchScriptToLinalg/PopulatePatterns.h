//===- PopulatePatterns.h - ts to linalg patterns, per family ---*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_CONVERSION_TORCHSCRIPTTOLINALG_POPULATEPATTERNS_H
#define TSMLIR_LIB_CONVERSION_TORCHSCRIPTTOLINALG_POPULATEPATTERNS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tsmlir::lowering {

/// Constants, tuples, fusion.group, scalar (int/float/bool) arithmetic.
void populatePrimPatterns(const TypeConverter &converter,
                          RewritePatternSet &patterns);
/// Elementwise tensor ops (arithmetic, comparisons, math, casts, where,
/// masked_fill, fills).
void populateElementwisePatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns);
/// Reductions, softmax, log_softmax, layer_norm. With `rowTemporaries`,
/// softmax keeps its exponentials (a row of them, in a row loop) instead of
/// computing them again for its result.
void populateReductionPatterns(const TypeConverter &converter,
                               RewritePatternSet &patterns,
                               bool rowTemporaries);
/// matmul family, convolutions, batch_norm, embedding.
void populateLinearAlgebraPatterns(const TypeConverter &converter,
                                   RewritePatternSet &patterns);
/// arange, linspace, logspace.
void populateFactoryPatterns(const TypeConverter &converter,
                             RewritePatternSet &patterns);
/// max, average and adaptive pooling, with indices where asked.
void populatePoolingPatterns(const TypeConverter &converter,
                             RewritePatternSet &patterns);
/// Views, reshapes, permutations, slicing, cat, stack, expand.
void populateDataMovementPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns);
/// pad, roll, pixel_shuffle, upsampling: outputs read at computed indices.
void populateResamplingPatterns(const TypeConverter &converter,
                                RewritePatternSet &patterns);
/// scatter, scatter_add, scatter_reduce, index_add, index_put: writes at
/// indices read from a tensor.
void populateScatterPatterns(const TypeConverter &converter,
                             RewritePatternSet &patterns);
/// sort, sort.stable and topk.
void populateSortPatterns(const TypeConverter &converter,
                          RewritePatternSet &patterns);
/// ts.module_state and its reads and writes: ml_program globals.
void populateModuleStatePatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns);
/// prim::If and prim::Loop.
void populateControlFlowPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns);

/// Fuses the generics of each fusion.group in `module` (when `fuse`), so that
/// a group is one loop nest per reduction level, then inlines the groups.
/// With `rowTemporaries`, a row loop computes a value its row reads twice
/// once, into a row buffer, where it would otherwise compute it per read.
LogicalResult fuseAndInlineGroups(ModuleOp module, bool fuse,
                                  bool rowTemporaries);

} // namespace mlir::tsmlir::lowering

#endif // TSMLIR_LIB_CONVERSION_TORCHSCRIPTTOLINALG_POPULATEPATTERNS_H
