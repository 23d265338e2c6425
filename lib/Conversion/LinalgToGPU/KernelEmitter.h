//===- KernelEmitter.h - linalg.generic bodies as GPU thread code -*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pieces `--ts-linalg-to-gpu` builds kernels from: a generic's body
// evaluated at one point of its iteration space (operands loaded through
// their indexing maps), elementwise loops strided over threads, block
// reductions with gpu.all_reduce, sequential reductions for one thread.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_CONVERSION_LINALGTOGPU_KERNELEMITTER_H
#define TSMLIR_LIB_CONVERSION_LINALGTOGPU_KERNELEMITTER_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace mlir::tsmlir::gpu_lowering {

/// The index constant `value`.
Value indexConstant(OpBuilder &b, Location loc, int64_t value);

/// `linear` split row-major over `sizes` (no division for the leading one).
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                               ArrayRef<int64_t> sizes);

/// The static loop ranges of `op`, or nullopt when one is dynamic.
std::optional<SmallVector<int64_t>> getStaticRanges(linalg::GenericOp op);

/// How the block reduction of a generic combines values: the body yields
/// `combiner(x, out)` and uses `out` nowhere else.
struct Combiner {
  Operation *op = nullptr;
  /// The operand that is not the output block argument.
  unsigned valueOperand = 0;
  gpu::AllReduceOperation kind;
  /// The combiner's neutral element.
  TypedAttr identity;
};

/// The combiner of a single-result reduction whose partials can be combined
/// across threads, or nullopt.
std::optional<Combiner> matchCombiner(linalg::GenericOp op);

/// Vectors a row loop keeps in registers from the op that first reads them
/// to the last, where every op of the row has each thread handle the same
/// runs of the row (thread t: runs t, t + blockSize, ..., unrolled).
struct RowRegisters {
  /// The entry's buffers the row reads and never writes.
  llvm::DenseSet<Value> readOnly;
  /// Their vectors, by buffer and run.
  llvm::DenseMap<std::pair<Value, int64_t>, Value> vectors;
};

/// The runs of `runs` one of `blockSize` threads handles, when the block
/// divides them and each thread keeps few enough (else 0).
int64_t unrolledRuns(int64_t runs, int64_t blockSize);

/// Stores `op`'s body at the point `ivs` (one index per loop).
void emitPoint(OpBuilder &b, Location loc, linalg::GenericOp op,
               ValueRange ivs);

/// `vectorWidth` consecutive points from linear index `first`: operands
/// read and written in iteration order as vectors, the others element by
/// element. Needs isVectorizable. With `registers`, `first` is run `run` of
/// the row and the vectors of read-only buffers are shared through it.
void emitVectorPoints(OpBuilder &b, Location loc, linalg::GenericOp op,
                      Value first, ArrayRef<int64_t> ranges,
                      int64_t vectorWidth, RowRegisters *registers = nullptr,
                      int64_t run = 0);

/// emitVectorPoints for several runs (linear indices `firsts`), every run's
/// loads before the first run's stores, so that they are in flight together.
void emitVectorRuns(OpBuilder &b, Location loc, linalg::GenericOp op,
                    ArrayRef<Value> firsts, ArrayRef<int64_t> ranges,
                    int64_t vectorWidth);

/// Whether emitVectorPoints applies: an elementwise generic over a multiple
/// of `vectorWidth` points with an operand read or written in iteration
/// order from one run of 32-bit elements starting at a multiple of
/// `vectorWidth` (a contiguous buffer or a view of one, such as a row).
bool isVectorizable(linalg::GenericOp op, ArrayRef<int64_t> ranges,
                    int64_t vectorWidth);

/// Whether emitBlockReduction reads `vectorWidth` points at a time: the
/// reduction loops are the innermost, their points a multiple of
/// `vectorWidth`, and an input can be read as vectors.
bool isVectorizableReduction(linalg::GenericOp op, ArrayRef<int64_t> ranges,
                             int64_t vectorWidth);

/// Every point of `op` (elementwise) from `start` in steps of `step`.
void emitStridedPoints(OpBuilder &b, Location loc, linalg::GenericOp op,
                       ArrayRef<int64_t> ranges, Value start, Value step);

/// Output point `parallelIvs` of a reduction, computed by one thread in
/// iteration order, starting from the output's value.
void emitSequentialReduction(OpBuilder &b, Location loc, linalg::GenericOp op,
                             ArrayRef<int64_t> ranges, ValueRange parallelIvs);

/// How emitBlockReduction reads and stores.
struct BlockReductionOptions {
  /// Where the reduced points lie in order in an aligned run of an input,
  /// each partial reads this many of them at a time as vectors.
  int64_t vectorWidth = 1;
  /// A row's registers: the partials are unrolled over the thread's runs
  /// (see unrolledRuns) and share the row's vectors.
  RowRegisters *registers = nullptr;
  /// The output holds the combiner's identity (a fill the caller dropped):
  /// thread 0 stores the total without reading it.
  bool overwrite = false;
};

/// Output point `parallelIvs` of a reduction, computed by the whole block:
/// partials over a stride of `blockSize`, gpu.all_reduce, thread 0 stores.
void emitBlockReduction(OpBuilder &b, Location loc, linalg::GenericOp op,
                        ArrayRef<int64_t> ranges, const Combiner &combiner,
                        ValueRange parallelIvs, Value threadId,
                        int64_t blockSize,
                        const BlockReductionOptions &options);

/// The sizes of the parallel and of the reduction loops of `op`.
std::pair<SmallVector<int64_t>, SmallVector<int64_t>>
splitRanges(linalg::GenericOp op, ArrayRef<int64_t> ranges);

} // namespace mlir::tsmlir::gpu_lowering

#endif // TSMLIR_LIB_CONVERSION_LINALGTOGPU_KERNELEMITTER_H
