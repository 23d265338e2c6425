//===- KernelEmitter.cpp - linalg.generic bodies as GPU thread code -------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

#include <limits>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::gpu_lowering;

Value gpu_lowering::indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

SmallVector<Value> gpu_lowering::delinearize(OpBuilder &b, Location loc,
                                             Value linear,
                                             ArrayRef<int64_t> sizes) {
  SmallVector<Value> ivs(sizes.size());
  Value rest = linear;
  for (int64_t i = static_cast<int64_t>(sizes.size()) - 1; i > 0; --i) {
    if (sizes[i] == 1) {
      ivs[i] = indexConstant(b, loc, 0);
      continue;
    }
    Value size = indexConstant(b, loc, sizes[i]);
    ivs[i] = arith::RemUIOp::create(b, loc, rest, size);
    rest = arith::DivUIOp::create(b, loc, rest, size);
  }
  if (!sizes.empty())
    ivs[0] = rest;
  return ivs;
}

std::optional<SmallVector<int64_t>>
gpu_lowering::getStaticRanges(linalg::GenericOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return std::nullopt;
  return ranges;
}

std::pair<SmallVector<int64_t>, SmallVector<int64_t>>
gpu_lowering::splitRanges(linalg::GenericOp op, ArrayRef<int64_t> ranges) {
  SmallVector<int64_t> parallel, reduction;
  for (auto [type, size] : llvm::zip(op.getIteratorTypesArray(), ranges))
    (type == utils::IteratorType::parallel ? parallel : reduction)
        .push_back(size);
  return {parallel, reduction};
}

/// The loop indices of `op` from the indices of its parallel and of its
/// reduction loops.
static SmallVector<Value> mergeIvs(linalg::GenericOp op, ValueRange parallel,
                                   ValueRange reduction) {
  SmallVector<Value> ivs;
  unsigned p = 0, r = 0;
  for (utils::IteratorType type : op.getIteratorTypesArray())
    ivs.push_back(type == utils::IteratorType::parallel ? parallel[p++]
                                                       : reduction[r++]);
  return ivs;
}

static int64_t product(ArrayRef<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  return n;
}

//===----------------------------------------------------------------------===//
// Body evaluation
//===----------------------------------------------------------------------===//

/// The indices of `map` at `ivs`.
static SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                                   ValueRange ivs) {
  SmallVector<Value> indices;
  for (AffineExpr e : map.getResults()) {
    if (auto dim = llvm::dyn_cast<AffineDimExpr>(e))
      indices.push_back(ivs[dim.getPosition()]);
    else if (auto cst = llvm::dyn_cast<AffineConstantExpr>(e))
      indices.push_back(indexConstant(b, loc, cst.getValue()));
    else
      indices.push_back(affine::AffineApplyOp::create(
          b, loc, AffineMap::get(map.getNumDims(), 0, e), ivs));
  }
  return indices;
}

static bool offsetIsMultipleOf(Value buffer, int64_t n);

namespace {
/// A view that is column `column` of a buffer whose rows are `width`
/// contiguous 32-bit elements (boxes[:, 2], the real parts of pairs): each
/// of its elements is read with the rest of its row as one vector, which
/// the other columns' reads of the same row share.
struct ColumnView {
  Value rows;
  int64_t column, width;
};
} // namespace

static std::optional<ColumnView> matchColumnView(Value buffer) {
  auto subview = buffer.getDefiningOp<memref::SubViewOp>();
  if (!subview)
    return std::nullopt;
  MemRefType rowsType = subview.getSourceType();
  int64_t rank = rowsType.getRank();
  SmallVector<int64_t> strides;
  int64_t offset;
  if (rank < 2 || !rowsType.hasStaticShape() ||
      rowsType.getElementTypeBitWidth() != 32 ||
      !rowsType.getElementType().isIntOrFloat() ||
      subview.getType().getRank() != rank - 1 ||
      failed(rowsType.getStridesAndOffset(strides, offset)))
    return std::nullopt;
  int64_t width = rowsType.getShape().back();
  if ((width != 2 && width != 4) || strides.back() != 1 ||
      llvm::any_of(ArrayRef(strides).drop_back(),
                   [&](int64_t st) {
                     return ShapedType::isDynamic(st) || st % width != 0;
                   }) ||
      !offsetIsMultipleOf(subview.getSource(), width))
    return std::nullopt;
  // Every row whole, the last dim dropped at a constant column.
  for (int64_t d = 0; d < rank; ++d) {
    std::optional<int64_t> at =
        getConstantIntValue(subview.getMixedOffsets()[d]);
    std::optional<int64_t> size =
        getConstantIntValue(subview.getMixedSizes()[d]);
    std::optional<int64_t> step =
        getConstantIntValue(subview.getMixedStrides()[d]);
    bool last = d == rank - 1;
    if (!at || !size || !step || *step != 1 ||
        *size != (last ? 1 : rowsType.getDimSize(d)) || (!last && *at != 0))
      return std::nullopt;
  }
  int64_t column = *getConstantIntValue(subview.getMixedOffsets()[rank - 1]);
  return ColumnView{subview.getSource(), column, width};
}

/// The value of `operand` at `ivs`: loaded from a buffer, or the scalar.
static Value loadOperand(OpBuilder &b, Location loc, linalg::GenericOp op,
                         OpOperand &operand, ValueRange ivs) {
  Value v = operand.get();
  if (!llvm::isa<MemRefType>(v.getType()))
    return v;
  SmallVector<Value> indices =
      applyMap(b, loc, op.getMatchingIndexingMap(&operand), ivs);
  if (std::optional<ColumnView> view = matchColumnView(v)) {
    indices.push_back(indexConstant(b, loc, 0));
    Type element = llvm::cast<MemRefType>(v.getType()).getElementType();
    Value row = vector::LoadOp::create(
        b, loc, VectorType::get({view->width}, element), view->rows, indices,
        /*nontemporal=*/false, llvm::MaybeAlign(view->width * 4));
    return vector::ExtractOp::create(b, loc, row, view->column);
  }
  return memref::LoadOp::create(b, loc, v, indices);
}

/// Clones `op`'s body at `ivs` into `map`: used inputs are loaded, the
/// output block arguments take `outs` (null where unused), linalg.index
/// becomes the loop index. `skip` is left out.
static void cloneBody(OpBuilder &b, Location loc, linalg::GenericOp op,
                      ValueRange ivs, ArrayRef<Value> outs, IRMapping &map,
                      Operation *skip = nullptr) {
  for (OpOperand *in : op.getDpsInputOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(in);
    if (!arg.use_empty())
      map.map(arg, loadOperand(b, loc, op, *in, ivs));
  }
  for (auto [i, init] : llvm::enumerate(op.getDpsInitsMutable()))
    if (outs[i])
      map.map(op.getMatchingBlockArgument(&init), outs[i]);
  for (Operation &inner : op.getBody()->without_terminator()) {
    if (&inner == skip)
      continue;
    if (auto index = llvm::dyn_cast<linalg::IndexOp>(inner)) {
      map.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    b.clone(inner, map);
  }
}

/// The values `op`'s body yields, looked up in `map`.
static SmallVector<Value> yielded(linalg::GenericOp op, IRMapping &map) {
  auto yield = llvm::cast<linalg::YieldOp>(op.getBody()->getTerminator());
  return llvm::map_to_vector(yield.getValues(), [&](Value v) {
    return map.lookupOrDefault(v);
  });
}

/// The current values of the outputs whose block arguments the body reads.
static SmallVector<Value> loadUsedOutputs(OpBuilder &b, Location loc,
                                          linalg::GenericOp op,
                                          ValueRange ivs) {
  SmallVector<Value> outs;
  for (OpOperand &init : op.getDpsInitsMutable())
    outs.push_back(op.getMatchingBlockArgument(&init).use_empty()
                       ? Value()
                       : loadOperand(b, loc, op, init, ivs));
  return outs;
}

static void storeOutputs(OpBuilder &b, Location loc, linalg::GenericOp op,
                         ValueRange ivs, ValueRange values) {
  for (auto [init, value] : llvm::zip(op.getDpsInitsMutable(), values))
    memref::StoreOp::create(
        b, loc, value, init.get(),
        applyMap(b, loc, op.getMatchingIndexingMap(&init), ivs));
}

void gpu_lowering::emitPoint(OpBuilder &b, Location loc, linalg::GenericOp op,
                             ValueRange ivs) {
  SmallVector<Value> outs = loadUsedOutputs(b, loc, op, ivs);
  IRMapping map;
  cloneBody(b, loc, op, ivs, outs, map);
  storeOutputs(b, loc, op, ivs, yielded(op, map));
}

void gpu_lowering::emitStridedPoints(OpBuilder &b, Location loc,
                                     linalg::GenericOp op,
                                     ArrayRef<int64_t> ranges, Value start,
                                     Value step) {
  Value total = indexConstant(b, loc, product(ranges));
  auto loop = scf::ForOp::create(b, loc, start, total, step);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  emitPoint(b, loc, op, delinearize(b, loc, loop.getInductionVar(), ranges));
}

//===----------------------------------------------------------------------===//
// Vector loads and stores
//===----------------------------------------------------------------------===//

/// Whether `type` has static sizes and strides and is laid out row-major
/// without gaps (dims of size 1 aside): its elements are one run.
static bool isContiguous(MemRefType type) {
  if (!type.hasStaticShape())
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  int64_t expected = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (type.getDimSize(d) == 1)
      continue;
    if (strides[d] != expected)
      return false;
    expected *= type.getDimSize(d);
  }
  return true;
}

/// Whether the element offset of `buffer` in its allocation is a multiple
/// of `n`: static in its type, or made of subview offsets and strides that
/// are. (Entry buffers are 16-byte aligned, allocations 256-byte.)
static bool offsetIsMultipleOf(Value buffer, int64_t n) {
  auto type = llvm::cast<MemRefType>(buffer.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  if (!ShapedType::isDynamic(offset))
    return offset % n == 0;
  Operation *def = buffer.getDefiningOp();
  if (auto subview = llvm::dyn_cast_or_null<memref::SubViewOp>(def)) {
    Value source = subview.getSource();
    SmallVector<int64_t> sourceStrides;
    int64_t sourceOffset;
    if (failed(llvm::cast<MemRefType>(source.getType())
                   .getStridesAndOffset(sourceStrides, sourceOffset)) ||
        !offsetIsMultipleOf(source, n))
      return false;
    for (auto [at, stride] :
         llvm::zip(subview.getMixedOffsets(), sourceStrides)) {
      if (ShapedType::isDynamic(stride))
        return false;
      std::optional<int64_t> known = getConstantIntValue(at);
      if (known ? (*known * stride) % n != 0 : stride % n != 0)
        return false;
    }
    return true;
  }
  if (llvm::isa_and_nonnull<memref::CastOp, memref::CollapseShapeOp,
                            memref::ExpandShapeOp, memref::MemorySpaceCastOp>(
          def))
    return offsetIsMultipleOf(def->getOperand(0), n);
  return false;
}

namespace {
/// How an operand is read or written `width` points at a time.
enum class VectorAccess {
  None,
  /// One vector along the buffer's innermost dim, at the first point's
  /// indices (the op's innermost loop indexes that dim, and nothing else).
  Innermost,
  /// One vector of the flattened buffer at the first point's linear index
  /// (the buffer is one run, read in iteration order).
  Flat,
};
} // namespace

/// How `operand` of `op` (loop sizes `ranges`) can be accessed `width`
/// consecutive points at a time, from a point whose linear index is a
/// multiple of `width`: 32-bit elements, vectors aligned to their size.
static VectorAccess vectorAccess(linalg::GenericOp op, OpOperand &operand,
                                 ArrayRef<int64_t> ranges, int64_t width) {
  auto type = llvm::dyn_cast<MemRefType>(operand.get().getType());
  if (width <= 1 || !type || type.getRank() == 0 || ranges.empty() ||
      type.getElementTypeBitWidth() != 32 ||
      !type.getElementType().isIntOrFloat() || !type.hasStaticShape() ||
      !offsetIsMultipleOf(operand.get(), width))
    return VectorAccess::None;
  AffineMap map = op.getMatchingIndexingMap(&operand);
  unsigned inner = op.getNumLoops() - 1;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (ranges.back() % width == 0 && map.getNumResults() != 0 &&
      map.getResults().back() == getAffineDimExpr(inner, op.getContext()) &&
      succeeded(type.getStridesAndOffset(strides, offset)) &&
      strides.back() == 1 && type.getShape().back() % width == 0 &&
      llvm::all_of(ArrayRef(strides).drop_back(),
                   [&](int64_t st) {
                     return !ShapedType::isDynamic(st) && st % width == 0;
                   }) &&
      llvm::none_of(map.getResults().drop_back(),
                    [&](AffineExpr e) { return e.isFunctionOfDim(inner); }))
    return VectorAccess::Innermost;
  if (isContiguous(type) && map.isIdentity() &&
      map.getNumResults() == op.getNumLoops() && product(ranges) % width == 0)
    return VectorAccess::Flat;
  return VectorAccess::None;
}

/// Whether `operand` is a buffer whose address moves by other than one
/// element along `op`'s innermost loop (a column, a transposed read).
static bool isStridedAlongInnermost(linalg::GenericOp op, OpOperand &operand) {
  auto type = llvm::dyn_cast<MemRefType>(operand.get().getType());
  if (!type || op.getNumLoops() == 0)
    return false;
  unsigned inner = op.getNumLoops() - 1;
  AffineMap map = op.getMatchingIndexingMap(&operand);
  SmallVector<int64_t> strides;
  int64_t offset;
  bool stridesKnown = succeeded(type.getStridesAndOffset(strides, offset));
  bool strided = false;
  for (auto [dim, e] : llvm::enumerate(map.getResults())) {
    if (!e.isFunctionOfDim(inner))
      continue;
    strided |= e != getAffineDimExpr(inner, op.getContext()) || !stridesKnown ||
               strides[dim] != 1;
  }
  return strided;
}

bool gpu_lowering::isVectorizable(linalg::GenericOp op,
                                  ArrayRef<int64_t> ranges,
                                  int64_t vectorWidth) {
  if (vectorWidth <= 1 || op.getNumReductionLoops() != 0 ||
      product(ranges) % vectorWidth != 0 || product(ranges) == 0)
    return false;
  // Four consecutive points a thread spread an operand read with a stride
  // over four times the cache lines a warp touches: one point a thread
  // reads it better.
  bool any = false;
  for (OpOperand &operand : op->getOpOperands()) {
    if (vectorAccess(op, operand, ranges, vectorWidth) != VectorAccess::None)
      any = true;
    else if (isStridedAlongInnermost(op, operand))
      return false;
  }
  return any;
}

/// `buffer` as one dimension.
static Value flatten(OpBuilder &b, Location loc, Value buffer) {
  auto type = llvm::cast<MemRefType>(buffer.getType());
  if (type.getRank() == 1)
    return buffer;
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return memref::CollapseShapeOp::create(b, loc, buffer,
                                         ArrayRef<ReassociationIndices>{all});
}

/// The buffer and indices of the vector of `operand` that starts at the
/// point `ivs` (linear index `first`).
static std::pair<Value, SmallVector<Value>>
vectorAddress(OpBuilder &b, Location loc, linalg::GenericOp op,
              OpOperand &operand, VectorAccess access, Value first,
              ValueRange ivs) {
  if (access == VectorAccess::Flat)
    return {flatten(b, loc, operand.get()), {first}};
  return {operand.get(),
          applyMap(b, loc, op.getMatchingIndexingMap(&operand), ivs)};
}

/// The operands `op`'s body reads (outputs only when `withOutputs`) that
/// can be, each loaded as one vector of `width` from the point `ivs`
/// (linear index `first`).
static DenseMap<OpOperand *, Value>
loadVectors(OpBuilder &b, Location loc, linalg::GenericOp op,
            ArrayRef<int64_t> ranges, Value first, ValueRange ivs,
            int64_t width, bool withOutputs, RowRegisters *registers,
            int64_t run) {
  DenseMap<OpOperand *, Value> vectors;
  for (OpOperand &operand : op->getOpOperands()) {
    if (op.getMatchingBlockArgument(&operand).use_empty() ||
        (!withOutputs && op.isDpsInit(&operand)))
      continue;
    VectorAccess access = vectorAccess(op, operand, ranges, width);
    if (access == VectorAccess::None)
      continue;
    auto type = llvm::cast<MemRefType>(operand.get().getType());
    // A run of a read-only buffer read in iteration order (the point is the
    // element) is the same vector in every op of the row.
    std::optional<std::pair<Value, int64_t>> key;
    if (registers && registers->readOnly.contains(operand.get()) &&
        op.getMatchingIndexingMap(&operand).isIdentity() &&
        product(ranges) == type.getNumElements())
      key = std::pair(operand.get(), run);
    if (key) {
      auto it = registers->vectors.find(*key);
      if (it != registers->vectors.end()) {
        vectors[&operand] = it->second;
        continue;
      }
    }
    auto [buffer, indices] =
        vectorAddress(b, loc, op, operand, access, first, ivs);
    Value vector = vector::LoadOp::create(
        b, loc, VectorType::get({width}, type.getElementType()), buffer,
        indices, /*nontemporal=*/false, llvm::MaybeAlign(width * 4));
    vectors[&operand] = vector;
    if (key)
      registers->vectors[*key] = vector;
  }
  return vectors;
}

int64_t gpu_lowering::unrolledRuns(int64_t runs, int64_t blockSize) {
  // Registers a thread keeps per buffer: at most 8 vectors.
  constexpr int64_t kMaxRunsPerThread = 8;
  if (runs <= 0 || runs % blockSize != 0 ||
      runs / blockSize > kMaxRunsPerThread)
    return 0;
  return runs / blockSize;
}

/// Clones `op`'s body at the point `ivs`, lane `lane` of `vectors`: the
/// other inputs the body reads are loaded at `ivs`, and so are the outputs
/// when `withOutputs`. `skip` is left out.
static void cloneLane(OpBuilder &b, Location loc, linalg::GenericOp op,
                      const DenseMap<OpOperand *, Value> &vectors, int64_t lane,
                      ValueRange ivs, bool withOutputs, IRMapping &map,
                      Operation *skip = nullptr) {
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (arg.use_empty() || (!withOutputs && op.isDpsInit(&operand)))
      continue;
    auto it = vectors.find(&operand);
    map.map(arg, it != vectors.end()
                     ? vector::ExtractOp::create(b, loc, it->second, lane)
                     : loadOperand(b, loc, op, operand, ivs));
  }
  for (Operation &inner : op.getBody()->without_terminator()) {
    if (&inner == skip)
      continue;
    if (auto index = llvm::dyn_cast<linalg::IndexOp>(inner))
      map.map(index.getResult(), ivs[index.getDim()]);
    else
      b.clone(inner, map);
  }
}

/// The indices of the point `lane` after `first` (a multiple of `width`) in
/// `sizes`. When the innermost size is a multiple of `width` the lanes share
/// the outer indices of `firstIvs` (delinearize(first)) and only the
/// innermost one moves.
static SmallVector<Value> pointOfLane(OpBuilder &b, Location loc, Value first,
                                      ArrayRef<Value> firstIvs, int64_t lane,
                                      ArrayRef<int64_t> sizes, int64_t width) {
  if (lane == 0)
    return SmallVector<Value>(firstIvs);
  Value offset = indexConstant(b, loc, lane);
  if (!sizes.empty() && sizes.back() % width == 0) {
    SmallVector<Value> ivs(firstIvs);
    ivs.back() = arith::AddIOp::create(b, loc, ivs.back(), offset);
    return ivs;
  }
  return delinearize(b, loc, arith::AddIOp::create(b, loc, first, offset),
                     sizes);
}

/// The body of `op` at the run of `vectorWidth` points from `first` (its
/// indices `firstIvs`) on the vectors loaded for it, and the stores.
static void computeVectorRun(OpBuilder &b, Location loc, linalg::GenericOp op,
                             Value first, ArrayRef<Value> firstIvs,
                             const DenseMap<OpOperand *, Value> &vectors,
                             ArrayRef<int64_t> ranges, int64_t vectorWidth) {
  SmallVector<SmallVector<Value>> results(op.getNumDpsInits());
  SmallVector<SmallVector<Value>> laneIvs;
  for (int64_t lane = 0; lane < vectorWidth; ++lane) {
    SmallVector<Value> ivs =
        pointOfLane(b, loc, first, firstIvs, lane, ranges, vectorWidth);
    IRMapping map;
    cloneLane(b, loc, op, vectors, lane, ivs, /*withOutputs=*/true, map);
    for (auto [i, v] : llvm::enumerate(yielded(op, map)))
      results[i].push_back(v);
    laneIvs.push_back(std::move(ivs));
  }
  for (auto [i, init] : llvm::enumerate(op.getDpsInitsMutable())) {
    VectorAccess access = vectorAccess(op, init, ranges, vectorWidth);
    if (access != VectorAccess::None) {
      auto type = llvm::cast<MemRefType>(init.get().getType());
      auto vectorType = VectorType::get({vectorWidth}, type.getElementType());
      Value vec =
          vector::FromElementsOp::create(b, loc, vectorType, results[i]);
      auto [buffer, indices] =
          vectorAddress(b, loc, op, init, access, first, firstIvs);
      vector::StoreOp::create(b, loc, vec, buffer, indices,
                              /*nontemporal=*/false,
                              llvm::MaybeAlign(vectorWidth * 4));
      continue;
    }
    for (int64_t lane = 0; lane < vectorWidth; ++lane)
      memref::StoreOp::create(
          b, loc, results[i][lane], init.get(),
          applyMap(b, loc, op.getMatchingIndexingMap(&init), laneIvs[lane]));
  }
}

void gpu_lowering::emitVectorPoints(OpBuilder &b, Location loc,
                                    linalg::GenericOp op, Value first,
                                    ArrayRef<int64_t> ranges,
                                    int64_t vectorWidth,
                                    RowRegisters *registers, int64_t run) {
  SmallVector<Value> firstIvs = delinearize(b, loc, first, ranges);
  DenseMap<OpOperand *, Value> vectors =
      loadVectors(b, loc, op, ranges, first, firstIvs, vectorWidth,
                  /*withOutputs=*/true, registers, run);
  computeVectorRun(b, loc, op, first, firstIvs, vectors, ranges, vectorWidth);
}

void gpu_lowering::emitVectorRuns(OpBuilder &b, Location loc,
                                  linalg::GenericOp op, ArrayRef<Value> firsts,
                                  ArrayRef<int64_t> ranges,
                                  int64_t vectorWidth) {
  // Every run's loads first: they are in flight together (a store between
  // them could alias a later load, so they would wait for each other).
  SmallVector<SmallVector<Value>> firstIvs;
  SmallVector<DenseMap<OpOperand *, Value>> vectors;
  for (Value first : firsts) {
    firstIvs.push_back(delinearize(b, loc, first, ranges));
    vectors.push_back(loadVectors(b, loc, op, ranges, first, firstIvs.back(),
                                  vectorWidth, /*withOutputs=*/true,
                                  /*registers=*/nullptr, 0));
  }
  for (auto [first, ivs, loaded] : llvm::zip(firsts, firstIvs, vectors))
    computeVectorRun(b, loc, op, first, ivs, loaded, ranges, vectorWidth);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// The all-reduce kind and neutral element of a combining op on `type`.
static std::optional<std::pair<gpu::AllReduceOperation, TypedAttr>>
classifyCombiner(Operation *op, Type type) {
  using K = gpu::AllReduceOperation;
  auto floatAttr = [&](double v) -> TypedAttr {
    return FloatAttr::get(type, v);
  };
  auto intAttr = [&](APInt v) -> TypedAttr {
    return IntegerAttr::get(type, v);
  };
  double inf = std::numeric_limits<double>::infinity();
  unsigned bits = type.getIntOrFloatBitWidth();
  if (llvm::isa<arith::AddFOp>(op))
    return std::pair(K::ADD, floatAttr(0.0));
  if (llvm::isa<arith::MulFOp>(op))
    return std::pair(K::MUL, floatAttr(1.0));
  if (llvm::isa<arith::MaximumFOp>(op))
    return std::pair(K::MAXIMUMF, floatAttr(-inf));
  if (llvm::isa<arith::MinimumFOp>(op))
    return std::pair(K::MINIMUMF, floatAttr(inf));
  if (llvm::isa<arith::MaxNumFOp>(op))
    return std::pair(K::MAXNUMF, floatAttr(-inf));
  if (llvm::isa<arith::MinNumFOp>(op))
    return std::pair(K::MINNUMF, floatAttr(inf));
  if (llvm::isa<arith::AddIOp>(op))
    return std::pair(K::ADD, intAttr(APInt(bits, 0)));
  if (llvm::isa<arith::MulIOp>(op))
    return std::pair(K::MUL, intAttr(APInt(bits, 1)));
  if (llvm::isa<arith::MaxSIOp>(op))
    return std::pair(K::MAXSI, intAttr(APInt::getSignedMinValue(bits)));
  if (llvm::isa<arith::MinSIOp>(op))
    return std::pair(K::MINSI, intAttr(APInt::getSignedMaxValue(bits)));
  if (llvm::isa<arith::MaxUIOp>(op))
    return std::pair(K::MAXUI, intAttr(APInt(bits, 0)));
  if (llvm::isa<arith::MinUIOp>(op))
    return std::pair(K::MINUI, intAttr(APInt::getAllOnes(bits)));
  if (llvm::isa<arith::AndIOp>(op))
    return std::pair(K::AND, intAttr(APInt::getAllOnes(bits)));
  if (llvm::isa<arith::OrIOp>(op))
    return std::pair(K::OR, intAttr(APInt(bits, 0)));
  if (llvm::isa<arith::XOrIOp>(op))
    return std::pair(K::XOR, intAttr(APInt(bits, 0)));
  return std::nullopt;
}

std::optional<Combiner> gpu_lowering::matchCombiner(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
    return std::nullopt;
  OpOperand &init = op.getDpsInitsMutable()[0];
  BlockArgument out = op.getMatchingBlockArgument(&init);
  Type type = out.getType();
  // Warp shuffles move 32- and 64-bit values.
  if (!type.isF32() && !type.isF64() && !type.isInteger(32) &&
      !type.isInteger(64))
    return std::nullopt;
  auto yield = llvm::cast<linalg::YieldOp>(op.getBody()->getTerminator());
  Operation *combine = yield.getValues()[0].getDefiningOp();
  if (!combine || combine->getBlock() != op.getBody() ||
      combine->getNumOperands() != 2 || !out.hasOneUse() ||
      *out.getUsers().begin() != combine)
    return std::nullopt;
  unsigned valueOperand = combine->getOperand(0) == out ? 1 : 0;
  if (combine->getOperand(1 - valueOperand) != out)
    return std::nullopt;
  auto kind = classifyCombiner(combine, type);
  if (!kind)
    return std::nullopt;
  return Combiner{combine, valueOperand, kind->first, kind->second};
}

/// `combiner` applied to `value` and `acc` (in the body's operand order).
static Value combine(OpBuilder &b, const Combiner &combiner, Value value,
                     Value acc) {
  IRMapping map;
  map.map(combiner.op->getOperand(combiner.valueOperand), value);
  map.map(combiner.op->getOperand(1 - combiner.valueOperand), acc);
  return b.clone(*combiner.op, map)->getResult(0);
}

void gpu_lowering::emitSequentialReduction(OpBuilder &b, Location loc,
                                           linalg::GenericOp op,
                                           ArrayRef<int64_t> ranges,
                                           ValueRange parallelIvs) {
  SmallVector<int64_t> reduction = splitRanges(op, ranges).second;
  Value zero = indexConstant(b, loc, 0);
  SmallVector<Value> zeros(reduction.size(), zero);
  SmallVector<Value> outIvs = mergeIvs(op, parallelIvs, zeros);
  SmallVector<Value> inits;
  for (OpOperand &init : op.getDpsInitsMutable())
    inits.push_back(loadOperand(b, loc, op, init, outIvs));
  auto loop = scf::ForOp::create(
      b, loc, zero, indexConstant(b, loc, product(reduction)),
      indexConstant(b, loc, 1), inits,
      [&](OpBuilder &nb, Location nloc, Value r, ValueRange accs) {
        SmallVector<Value> ivs =
            mergeIvs(op, parallelIvs, delinearize(nb, nloc, r, reduction));
        IRMapping map;
        cloneBody(nb, nloc, op, ivs, SmallVector<Value>(accs), map);
        scf::YieldOp::create(nb, nloc, yielded(op, map));
      });
  storeOutputs(b, loc, op, outIvs, loop.getResults());
}

bool gpu_lowering::isVectorizableReduction(linalg::GenericOp op,
                                           ArrayRef<int64_t> ranges,
                                           int64_t width) {
  if (width <= 1)
    return false;
  SmallVector<utils::IteratorType> types = op.getIteratorTypesArray();
  unsigned firstReduction = op.getNumParallelLoops();
  for (auto [i, type] : llvm::enumerate(types))
    if ((type == utils::IteratorType::reduction) != (i >= firstReduction))
      return false;
  int64_t reduced = product(splitRanges(op, ranges).second);
  if (reduced == 0 || reduced % width != 0)
    return false;
  return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *operand) {
    return vectorAccess(op, *operand, ranges, width) != VectorAccess::None;
  });
}

/// The row-major linear index of `ivs` in `sizes`.
static Value linearize(OpBuilder &b, Location loc, ValueRange ivs,
                       ArrayRef<int64_t> sizes) {
  Value linear = indexConstant(b, loc, 0);
  for (auto [iv, size] : llvm::zip(ivs, sizes)) {
    linear = arith::MulIOp::create(b, loc, linear, indexConstant(b, loc, size));
    linear = arith::AddIOp::create(b, loc, linear, iv);
  }
  return linear;
}

void gpu_lowering::emitBlockReduction(
    OpBuilder &b, Location loc, linalg::GenericOp op, ArrayRef<int64_t> ranges,
    const Combiner &combiner, ValueRange parallelIvs, Value threadId,
    int64_t blockSize, const BlockReductionOptions &options) {
  std::pair<SmallVector<int64_t>, SmallVector<int64_t>> split =
      splitRanges(op, ranges);
  ArrayRef<int64_t> parallel = split.first, reduction = split.second;
  int64_t reduced = product(reduction);
  Value identity = arith::ConstantOp::create(b, loc, combiner.identity);
  int64_t width = isVectorizableReduction(op, ranges, options.vectorWidth)
                      ? options.vectorWidth
                      : 1;
  // The linear point where this output's reduction starts.
  Value base = width == 1
                   ? Value()
                   : arith::MulIOp::create(
                         b, loc, linearize(b, loc, parallelIvs, parallel),
                         indexConstant(b, loc, reduced));
  // `acc` combined with the points of run `i` (`run` of the row's, or -1).
  auto partial = [&](OpBuilder &nb, Location nloc, Value i, int64_t run,
                     Value acc) {
    Value first = i;
    if (width > 1)
      first =
          arith::MulIOp::create(nb, nloc, i, indexConstant(nb, nloc, width));
    SmallVector<Value> firstIvs = delinearize(nb, nloc, first, reduction);
    DenseMap<OpOperand *, Value> vectors;
    if (width > 1)
      vectors = loadVectors(
          nb, nloc, op, ranges, arith::AddIOp::create(nb, nloc, base, first),
          mergeIvs(op, parallelIvs, firstIvs), width, /*withOutputs=*/false,
          run < 0 ? nullptr : options.registers, run);
    for (int64_t lane = 0; lane < width; ++lane) {
      SmallVector<Value> ivs = mergeIvs(
          op, parallelIvs,
          pointOfLane(nb, nloc, first, firstIvs, lane, reduction, width));
      IRMapping map;
      cloneLane(nb, nloc, op, vectors, lane, ivs, /*withOutputs=*/false, map,
                combiner.op);
      Value value =
          map.lookupOrDefault(combiner.op->getOperand(combiner.valueOperand));
      acc = combine(nb, combiner, value, acc);
    }
    return acc;
  };
  // This thread's partial over every blockSize-th run of `width` points:
  // unrolled over the row's runs, or a loop.
  int64_t runs = options.registers && width > 1 && product(parallel) == 1
                     ? unrolledRuns(reduced / width, blockSize)
                     : 0;
  Value part = identity;
  if (runs) {
    for (int64_t k = 0; k < runs; ++k) {
      Value i = arith::AddIOp::create(b, loc, threadId,
                                      indexConstant(b, loc, k * blockSize));
      part = partial(b, loc, i, k, part);
    }
  } else {
    part = scf::ForOp::create(
               b, loc, threadId, indexConstant(b, loc, reduced / width),
               indexConstant(b, loc, blockSize), ValueRange{identity},
               [&](OpBuilder &nb, Location nloc, Value i, ValueRange accs) {
                 scf::YieldOp::create(nb, nloc,
                                      partial(nb, nloc, i, -1, accs.front()));
               })
               .getResult(0);
  }
  // The block's total, in every thread.
  Value total = gpu::AllReduceOp::create(
      b, loc, part,
      gpu::AllReduceOperationAttr::get(b.getContext(), combiner.kind),
      /*uniform=*/true);
  Value zero = indexConstant(b, loc, 0);
  SmallVector<Value> zeros(reduction.size(), zero);
  SmallVector<Value> outIvs = mergeIvs(op, parallelIvs, zeros);
  OpOperand &init = op.getDpsInitsMutable()[0];
  Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        threadId, zero);
  auto ifOp = scf::IfOp::create(b, loc, isFirst, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  if (options.overwrite) {
    storeOutputs(b, loc, op, outIvs, total);
    return;
  }
  Value start = loadOperand(b, loc, op, init, outIvs);
  storeOutputs(b, loc, op, outIvs, combine(b, combiner, total, start));
}
