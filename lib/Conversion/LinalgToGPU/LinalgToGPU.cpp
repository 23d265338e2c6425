//===- LinalgToGPU.cpp - --ts-linalg-to-gpu -------------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Bufferised linalg to gpu.launch: one kernel per top-level generic or row
// loop, buffers on the device, host reads and writes of device memory
// through one-thread kernels and copies. See Passes.td for the mapping.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Conversion/Passes.h"

#include "KernelEmitter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/StringSet.h"

namespace mlir::tsmlir {
#define GEN_PASS_DEF_CONVERTLINALGTOGPUPASS
#include "tsmlir/Conversion/Passes.h.inc"
} // namespace mlir::tsmlir

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::gpu_lowering;

/// The attribute fusion leaves on the loop nest of a group.
static constexpr llvm::StringLiteral kGroupAttr = "tsmlir.group";
/// The attribute on the loop nests of an op lowered through a group of its
/// own (softmax, layer_norm): the op's name.
static constexpr llvm::StringLiteral kOpAttr = "tsmlir.op";
/// Shared memory a row kernel may use for its temporaries.
static constexpr int64_t kMaxSharedBytes = 48 * 1024;

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }
static int64_t product(ArrayRef<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  return n;
}

namespace {

/// A launch being filled: its ids, and the builder inside its body.
struct Kernel {
  gpu::LaunchOp launch;
  Value blockId, threadId;
};

class KernelMapper {
public:
  KernelMapper(func::FuncOp func, int64_t blockSize, int64_t maxBlocks,
               int64_t vectorWidth)
      : func(func), blockSize(blockSize), maxBlocks(maxBlocks),
        vectorWidth(vectorWidth) {}

  LogicalResult mapGeneric(linalg::GenericOp op);
  LogicalResult mapRowLoop(scf::ForallOp loop);
  LogicalResult mapHostMemory(Operation *op);

private:
  /// A launch of `grid` x `block` before `anchor`, named for it; `b` is left
  /// at the start of its body.
  Kernel createLaunch(OpBuilder &b, Operation *anchor, StringRef kind,
                      int64_t grid, int64_t block,
                      TypeRange workgroup = {});
  std::string kernelName(Operation *anchor, StringRef kind);
  int64_t threadsFor(int64_t work) const {
    return std::max<int64_t>(32, std::min(blockSize, roundUp(work, 32)));
  }
  LogicalResult emitRowOp(OpBuilder &b, linalg::GenericOp op,
                          const Kernel &kernel, int64_t block,
                          RowRegisters &registers, bool overwrite);
  Value readScalar(OpBuilder &b, memref::LoadOp load);
  void writeScalar(OpBuilder &b, memref::StoreOp store);

  func::FuncOp func;
  int64_t blockSize, maxBlocks, vectorWidth;
  llvm::StringSet<> names;
  unsigned counter = 0;
};

} // namespace

std::string KernelMapper::kernelName(Operation *anchor, StringRef kind) {
  std::string base = func.getSymName().str() + "_";
  if (auto group = anchor->getAttrOfType<IntegerAttr>(kGroupAttr))
    base += "group" + std::to_string(group.getInt());
  else if (auto op = anchor->getAttrOfType<StringAttr>(kOpAttr))
    base += op.str() + std::to_string(counter++);
  else
    base += kind.str() + std::to_string(counter++);
  std::string name = base;
  for (unsigned i = 1; names.contains(name); ++i)
    name = base + "_" + std::to_string(i);
  names.insert(name);
  return name;
}

Kernel KernelMapper::createLaunch(OpBuilder &b, Operation *anchor,
                                  StringRef kind, int64_t grid, int64_t block,
                                  TypeRange workgroup) {
  Location loc = anchor->getLoc();
  b.setInsertionPoint(anchor);
  Value one = indexConstant(b, loc, 1);
  MLIRContext *ctx = b.getContext();
  auto launch = gpu::LaunchOp::create(
      b, loc, indexConstant(b, loc, grid), one, one,
      indexConstant(b, loc, block), one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, workgroup, /*privateAttributions=*/{},
      nullptr, nullptr, nullptr,
      FlatSymbolRefAttr::get(ctx, func.getSymName().str() + "_kernels"),
      FlatSymbolRefAttr::get(ctx, kernelName(anchor, kind)));
  Block &body = launch.getBody().front();
  b.setInsertionPointToEnd(&body);
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&body);
  return {launch, launch.getBlockIds().x, launch.getThreadIds().x};
}

/// The thread's index in the whole grid.
static Value globalThreadId(OpBuilder &b, Location loc, const Kernel &k,
                            int64_t block) {
  Value base =
      arith::MulIOp::create(b, loc, k.blockId, indexConstant(b, loc, block));
  return arith::AddIOp::create(b, loc, base, k.threadId);
}

/// Memory defined on the host: stack slots, globals, index lists.
static bool isHostMemory(Value buffer) {
  if (llvm::isa<IndexType>(
          llvm::cast<MemRefType>(buffer.getType()).getElementType()))
    return true;
  while (Operation *def = buffer.getDefiningOp()) {
    if (llvm::isa<memref::AllocaOp, memref::GetGlobalOp>(def))
      return true;
    auto view = llvm::dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      return false;
    buffer = view.getViewSource();
  }
  return false;
}

/// Clones the host constants and globals a kernel reads into its body: a
/// global then lives in the kernel's module, in device memory.
static void sinkConstants(gpu::LaunchOp launch) {
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(launch.getBody(), captured);
  OpBuilder b = OpBuilder::atBlockBegin(&launch.getBody().front());
  for (Value v : captured) {
    Operation *def = v.getDefiningOp();
    if (!def || !llvm::isa<arith::ConstantOp, memref::GetGlobalOp>(def))
      continue;
    Operation *clone = b.clone(*def);
    replaceAllUsesInRegionWith(v, clone->getResult(0), launch.getBody());
  }
}

LogicalResult KernelMapper::mapGeneric(linalg::GenericOp op) {
  std::optional<SmallVector<int64_t>> ranges = getStaticRanges(op);
  if (!ranges)
    return op.emitError("a loop nest of dynamic size has no GPU mapping");
  Location loc = op.getLoc();
  OpBuilder b(op);
  if (product(*ranges) == 0) {
    op.erase();
    return success();
  }
  if (op.getNumReductionLoops() == 0) {
    int64_t width = isVectorizable(op, *ranges, vectorWidth) ? vectorWidth : 1;
    int64_t runs = product(*ranges) / width;
    // Vector runs: each thread takes `unroll` of them a step, one from each
    // of `unroll` equal parts of the tensor (a warp's accesses stay
    // contiguous), their loads in flight together.
    int64_t unroll = 1;
    if (width > 1)
      for (int64_t u : {4, 2})
        if (runs % (u * 32) == 0 && runs / u >= 32) {
          unroll = u;
          break;
        }
    int64_t threads = runs / unroll;
    int64_t block = threadsFor(threads);
    int64_t grid = std::min(ceilDiv(threads, block), maxBlocks);
    Kernel k = createLaunch(b, op, "elementwise", grid, block);
    Value first = globalThreadId(b, loc, k, block);
    Value stride = indexConstant(b, loc, grid * block);
    if (width == 1) {
      emitStridedPoints(b, loc, op, *ranges, first, stride);
    } else {
      auto loop = scf::ForOp::create(b, loc, first,
                                     indexConstant(b, loc, threads), stride);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      SmallVector<Value> starts;
      for (int64_t u = 0; u < unroll; ++u) {
        Value run = arith::AddIOp::create(b, loc, loop.getInductionVar(),
                                          indexConstant(b, loc, u * threads));
        starts.push_back(
            arith::MulIOp::create(b, loc, run, indexConstant(b, loc, width)));
      }
      emitVectorRuns(b, loc, op, starts, *ranges, width);
    }
    sinkConstants(k.launch);
    op.erase();
    return success();
  }
  auto [parallel, reduction] = splitRanges(op, *ranges);
  int64_t outputs = product(parallel), reduced = product(reduction);
  std::optional<Combiner> combiner = matchCombiner(op);
  if (combiner && reduced >= 32) {
    // A block per output element.
    int64_t block = threadsFor(isVectorizableReduction(op, *ranges, vectorWidth)
                                   ? reduced / vectorWidth
                                   : reduced);
    int64_t grid = std::min(outputs, maxBlocks);
    Kernel k = createLaunch(b, op, "reduction", grid, block);
    auto loop = scf::ForOp::create(b, loc, k.blockId,
                                   indexConstant(b, loc, outputs),
                                   indexConstant(b, loc, grid));
    b.setInsertionPoint(loop.getBody()->getTerminator());
    emitBlockReduction(b, loc, op, *ranges, *combiner,
                       delinearize(b, loc, loop.getInductionVar(), parallel),
                       k.threadId, block, {vectorWidth});
    sinkConstants(k.launch);
    op.erase();
    return success();
  }
  // A thread per output element.
  int64_t block = threadsFor(outputs);
  int64_t grid = std::min(ceilDiv(outputs, block), maxBlocks);
  Kernel k = createLaunch(b, op, "reduction", grid, block);
  Value first = globalThreadId(b, loc, k, block);
  auto loop = scf::ForOp::create(b, loc, first,
                                 indexConstant(b, loc, outputs),
                                 indexConstant(b, loc, grid * block));
  b.setInsertionPoint(loop.getBody()->getTerminator());
  emitSequentialReduction(
      b, loc, op, *ranges,
      delinearize(b, loc, loop.getInductionVar(), parallel));
  sinkConstants(k.launch);
  op.erase();
  return success();
}

/// The buffer `value` is a view of.
static Value rootBuffer(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    auto view = llvm::dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    value = view.getViewSource();
  }
  return value;
}

/// Whether `fill` fills the output of `next`, a block reduction, with its
/// combiner's identity: `next` can store its total without reading it.
static bool fillsIdentityOf(linalg::GenericOp fill, linalg::GenericOp next) {
  if (fill.getNumDpsInputs() != 1 || fill.getNumDpsInits() != 1 ||
      fill.getNumReductionLoops() != 0 ||
      llvm::isa<ShapedType>(fill.getDpsInputOperand(0)->get().getType()))
    return false;
  auto yield = llvm::cast<linalg::YieldOp>(fill.getBody()->getTerminator());
  if (yield.getValues().size() != 1 ||
      yield.getValues()[0] !=
          fill.getMatchingBlockArgument(fill.getDpsInputOperand(0)))
    return false;
  auto constant =
      fill.getDpsInputOperand(0)->get().getDefiningOp<arith::ConstantOp>();
  std::optional<Combiner> combiner = matchCombiner(next);
  std::optional<SmallVector<int64_t>> ranges = getStaticRanges(next);
  return constant && combiner && ranges && next.getNumDpsInits() == 1 &&
         product(splitRanges(next, *ranges).second) >= 32 &&
         next.getDpsInits()[0] == fill.getDpsInits()[0] &&
         constant.getValue() == combiner->identity;
}

/// The work of one op of a row loop, in threads a block could use (a
/// thread a vector where the op reads vectors).
static int64_t rowWork(linalg::GenericOp op, int64_t vectorWidth) {
  std::optional<SmallVector<int64_t>> ranges = getStaticRanges(op);
  if (!ranges)
    return 1;
  if (op.getNumReductionLoops() == 0)
    return product(*ranges) /
           (isVectorizable(op, *ranges, vectorWidth) ? vectorWidth : 1);
  if (!matchCombiner(op))
    return 1;
  return product(splitRanges(op, *ranges).second) /
         (isVectorizableReduction(op, *ranges, vectorWidth) ? vectorWidth : 1);
}

LogicalResult KernelMapper::emitRowOp(OpBuilder &b, linalg::GenericOp op,
                                      const Kernel &kernel, int64_t block,
                                      RowRegisters &registers, bool overwrite) {
  Location loc = op.getLoc();
  std::optional<SmallVector<int64_t>> ranges = getStaticRanges(op);
  if (!ranges)
    return op.emitError("a loop nest of dynamic size has no GPU mapping");
  bool vectorizable = op.getNumReductionLoops() == 0 &&
                      isVectorizable(op, *ranges, vectorWidth);
  if (int64_t runs = vectorizable
                         ? unrolledRuns(product(*ranges) / vectorWidth, block)
                         : 0) {
    // The thread's runs of the row, unrolled, sharing the row's registers.
    for (int64_t run = 0; run < runs; ++run) {
      Value i = arith::AddIOp::create(b, loc, kernel.threadId,
                                      indexConstant(b, loc, run * block));
      Value first =
          arith::MulIOp::create(b, loc, i, indexConstant(b, loc, vectorWidth));
      emitVectorPoints(b, loc, op, first, *ranges, vectorWidth, &registers,
                       run);
    }
  } else if (vectorizable) {
    // Runs of vectorWidth points, strided over the block's threads.
    OpBuilder::InsertionGuard guard(b);
    auto loop = scf::ForOp::create(
        b, loc, kernel.threadId,
        indexConstant(b, loc, product(*ranges) / vectorWidth),
        indexConstant(b, loc, block));
    b.setInsertionPoint(loop.getBody()->getTerminator());
    Value first = arith::MulIOp::create(b, loc, loop.getInductionVar(),
                                        indexConstant(b, loc, vectorWidth));
    emitVectorPoints(b, loc, op, first, *ranges, vectorWidth);
  } else if (op.getNumReductionLoops() == 0) {
    emitStridedPoints(b, loc, op, *ranges, kernel.threadId,
                      indexConstant(b, loc, block));
  } else {
    SmallVector<int64_t> parallel = splitRanges(op, *ranges).first;
    std::optional<Combiner> combiner = matchCombiner(op);
    Value zero = indexConstant(b, loc, 0);
    OpBuilder::InsertionGuard guard(b);
    if (!combiner) {
      // One thread, in order.
      Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            kernel.threadId, zero);
      auto ifOp = scf::IfOp::create(b, loc, isFirst, false);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    }
    // The op's output points in turn (a row's reduction has one: no loop,
    // so that the vectors it reads stay visible to the row's next ops).
    Value point = zero;
    if (product(parallel) != 1) {
      auto loop = scf::ForOp::create(b, loc, zero,
                                     indexConstant(b, loc, product(parallel)),
                                     indexConstant(b, loc, 1));
      b.setInsertionPoint(loop.getBody()->getTerminator());
      point = loop.getInductionVar();
    }
    SmallVector<Value> ivs = delinearize(b, loc, point, parallel);
    if (combiner)
      emitBlockReduction(b, loc, op, *ranges, *combiner, ivs, kernel.threadId,
                         block, {vectorWidth, &registers, overwrite});
    else
      emitSequentialReduction(b, loc, op, *ranges, ivs);
  }
  gpu::BarrierOp::create(b, loc);
  return success();
}

LogicalResult KernelMapper::mapRowLoop(scf::ForallOp loop) {
  SmallVector<int64_t> lbs(loop.getStaticLowerBound());
  SmallVector<int64_t> ubs(loop.getStaticUpperBound());
  SmallVector<int64_t> steps(loop.getStaticStep());
  if (llvm::any_of(llvm::concat<int64_t>(lbs, ubs, steps),
                   ShapedType::isDynamic) ||
      loop.getNumResults() != 0)
    return loop.emitError("a row loop of dynamic size has no GPU mapping");
  SmallVector<int64_t> trips;
  for (auto [lb, ub, step] : llvm::zip(lbs, ubs, steps))
    trips.push_back(std::max<int64_t>(0, ceilDiv(ub - lb, step)));
  int64_t rows = product(trips);
  if (rows == 0) {
    loop.erase();
    return success();
  }
  // Temporaries of a row in shared memory; the block size from the widest
  // op of a row.
  MLIRContext *ctx = loop.getContext();
  auto workgroup = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  SmallVector<Type> shared;
  int64_t sharedBytes = 0, work = 1;
  Block *body = loop.getBody();
  for (Operation &op : body->without_terminator()) {
    if (auto alloc = llvm::dyn_cast<memref::AllocOp>(op)) {
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity())
        return alloc.emitError("a row temporary of dynamic size has no GPU "
                               "mapping");
      sharedBytes += type.getNumElements() *
                     ceilDiv(type.getElementTypeBitWidth(), 8);
      shared.push_back(MemRefType::get(type.getShape(), type.getElementType(),
                                       MemRefLayoutAttrInterface(),
                                       workgroup));
    } else if (auto generic = llvm::dyn_cast<linalg::GenericOp>(op)) {
      work = std::max(work, rowWork(generic, vectorWidth));
    }
  }
  if (sharedBytes > kMaxSharedBytes)
    return loop.emitError() << "the temporaries of a row need "
                            << sharedBytes
                            << " bytes of shared memory, more than the "
                            << kMaxSharedBytes << " a block has";
  // Two runs of the widest op a thread: half-size blocks, twice the rows in
  // flight on a multiprocessor and two loads a thread.
  int64_t block = threadsFor(work >= 64 ? ceilDiv(work, 2) : work);
  int64_t grid = std::min(rows, maxBlocks);
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Kernel k = createLaunch(b, loop, "rows", grid, block, shared);
  auto rowLoop = scf::ForOp::create(b, loc, k.blockId,
                                    indexConstant(b, loc, rows),
                                    indexConstant(b, loc, grid));
  b.setInsertionPoint(rowLoop.getBody()->getTerminator());
  IRMapping map;
  SmallVector<Value> index =
      delinearize(b, loc, rowLoop.getInductionVar(), trips);
  for (auto [i, iv] : llvm::enumerate(loop.getInductionVars())) {
    Value scaled = arith::MulIOp::create(
        b, loc, index[i], indexConstant(b, loc, steps[i]));
    map.map(iv, arith::AddIOp::create(b, loc, scaled,
                                      indexConstant(b, loc, lbs[i])));
  }
  ArrayRef<BlockArgument> attributions = k.launch.getWorkgroupAttributions();
  unsigned nextShared = 0;
  // The entry's buffers the row reads and never writes keep their vectors in
  // registers from op to op (the views of them are cloned, so the registers
  // name the clones: see below).
  DenseSet<Value> written, readOnlyViews;
  for (auto generic : body->getOps<linalg::GenericOp>())
    for (Value out : generic.getDpsInits())
      written.insert(rootBuffer(out));
  for (auto generic : body->getOps<linalg::GenericOp>())
    for (OpOperand *in : generic.getDpsInputOperands()) {
      Value root = rootBuffer(in->get());
      if (llvm::isa<MemRefType>(in->get().getType()) &&
          llvm::isa<BlockArgument>(root) && !written.contains(root))
        readOnlyViews.insert(in->get());
    }
  RowRegisters registers;
    // A fill that the next op to touch its buffer (a reduction whose
  // identity it writes) overwrites is left out.
  SmallVector<linalg::GenericOp> generics(body->getOps<linalg::GenericOp>());
  DenseSet<Operation *> droppedFills, overwriting;
  for (auto [i, fill] : llvm::enumerate(generics)) {
    if (fill.getNumDpsInits() != 1)
      continue;
    Value buffer = fill.getDpsInits()[0];
    auto touches = [&](linalg::GenericOp op) {
      return llvm::is_contained(op->getOperands(), buffer);
    };
    auto next = llvm::find_if(llvm::drop_begin(generics, i + 1), touches);
    if (next != generics.end() && fillsIdentityOf(fill, *next) &&
        !llvm::is_contained((*next).getDpsInputs(), buffer)) {
      droppedFills.insert(fill);
      overwriting.insert(*next);
    }
  }
  for (Operation &op : body->without_terminator()) {
    if (auto alloc = llvm::dyn_cast<memref::AllocOp>(op)) {
      map.map(alloc.getResult(),
              memref::MemorySpaceCastOp::create(
                  b, loc, alloc.getType(), attributions[nextShared++]));
      continue;
    }
    if (llvm::isa<memref::DeallocOp>(op))
      continue;
    if (auto generic = llvm::dyn_cast<linalg::GenericOp>(op)) {
      if (droppedFills.contains(generic))
        continue;
      for (Value view : readOnlyViews)
        if (Value clone = map.lookupOrNull(view))
          registers.readOnly.insert(clone);
        else if (!view.getParentBlock() || view.getParentBlock() != body)
          registers.readOnly.insert(view);
      auto clone = llvm::cast<linalg::GenericOp>(b.clone(op, map));
      LogicalResult emitted = emitRowOp(b, clone, k, block, registers,
                                        overwriting.contains(generic));
      clone.erase();
      if (failed(emitted))
        return failure();
      continue;
    }
    if (!isPure(&op) && !llvm::isa<ViewLikeOpInterface>(op))
      return op.emitError() << "'" << op.getName()
                            << "' in a row loop has no GPU mapping";
    b.clone(op, map);
  }
  sinkConstants(k.launch);
  loop.erase();
  return success();
}

Value KernelMapper::readScalar(OpBuilder &b, memref::LoadOp load) {
  Location loc = load.getLoc();
  Type elementType = load.getType();
  auto one = MemRefType::get({1}, elementType);
  b.setInsertionPoint(load);
  Value device =
      gpu::AllocOp::create(b, loc, one, Type(), {}, {}, {}, UnitAttr())
          .getMemref();
  createLaunch(b, load, "read", 1, 1);
  Value v = memref::LoadOp::create(b, loc, load.getMemRef(),
                                   load.getIndices());
  memref::StoreOp::create(b, loc, v, device, indexConstant(b, loc, 0));
  b.setInsertionPoint(load);
  Value host = memref::AllocaOp::create(b, loc, one);
  gpu::MemcpyOp::create(b, loc, Type(), {}, host, device);
  gpu::DeallocOp::create(b, loc, Type(), {}, device);
  return memref::LoadOp::create(b, loc, host, indexConstant(b, loc, 0));
}

void KernelMapper::writeScalar(OpBuilder &b, memref::StoreOp store) {
  Location loc = store.getLoc();
  auto one = MemRefType::get({1}, store.getValueToStore().getType());
  b.setInsertionPoint(store);
  Value host = memref::AllocaOp::create(b, loc, one);
  memref::StoreOp::create(b, loc, store.getValueToStore(), host,
                          indexConstant(b, loc, 0));
  Value device =
      gpu::AllocOp::create(b, loc, one, Type(), {}, {}, {}, UnitAttr())
          .getMemref();
  gpu::MemcpyOp::create(b, loc, Type(), {}, device, host);
  createLaunch(b, store, "write", 1, 1);
  Value v = memref::LoadOp::create(b, loc, device, indexConstant(b, loc, 0));
  memref::StoreOp::create(b, loc, v, store.getMemRef(), store.getIndices());
  b.setInsertionPoint(store);
  gpu::DeallocOp::create(b, loc, Type(), {}, device);
}

LogicalResult KernelMapper::mapHostMemory(Operation *op) {
  OpBuilder b(op);
  if (auto alloc = llvm::dyn_cast<memref::AllocOp>(op)) {
    auto device = gpu::AllocOp::create(
        b, op->getLoc(), alloc.getType(), Type(), {}, alloc.getDynamicSizes(),
        alloc.getSymbolOperands(), UnitAttr());
    alloc.replaceAllUsesWith(device.getMemref());
    alloc.erase();
    return success();
  }
  if (auto dealloc = llvm::dyn_cast<memref::DeallocOp>(op)) {
    gpu::DeallocOp::create(b, op->getLoc(), Type(), {}, dealloc.getMemref());
    dealloc.erase();
    return success();
  }
  if (auto load = llvm::dyn_cast<memref::LoadOp>(op)) {
    if (isHostMemory(load.getMemRef()))
      return success();
    Value v = readScalar(b, load);
    load.replaceAllUsesWith(v);
    load.erase();
    return success();
  }
  if (auto store = llvm::dyn_cast<memref::StoreOp>(op)) {
    if (isHostMemory(store.getMemRef()))
      return success();
    writeScalar(b, store);
    store.erase();
    return success();
  }
  if (llvm::isa<linalg::LinalgOp, memref::CopyOp, scf::ForallOp,
                scf::ParallelOp>(op))
    return op->emitError() << "'" << op->getName()
                           << "' on the host has no GPU mapping";
  return success();
}

namespace {
struct ConvertLinalgToGPUPass
    : public tsmlir::impl::ConvertLinalgToGPUPassBase<ConvertLinalgToGPUPass> {
  using ConvertLinalgToGPUPassBase::ConvertLinalgToGPUPassBase;

  void runOnOperation() override {
    if (blockSize < 32 || blockSize > 1024 || blockSize % 32 != 0) {
      getOperation().emitError("block-size must be a multiple of 32 from 32 "
                               "to 1024, not ")
          << static_cast<int64_t>(blockSize);
      return signalPassFailure();
    }
    if (maxBlocks < 1 || vectorWidth < 1) {
      getOperation().emitError("max-blocks and vector-width must be positive");
      return signalPassFailure();
    }
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(mapFunction(func)))
        return signalPassFailure();
  }

  LogicalResult mapFunction(func::FuncOp func) {
    if (func.isExternal())
      return success();
    // Fills, copies, contractions as generics, keeping the attributes that
    // name a kernel after its group or op.
    SmallVector<linalg::LinalgOp> named;
    func.walk([&](linalg::LinalgOp op) {
      if (!llvm::isa<linalg::GenericOp>(op))
        named.push_back(op);
    });
    IRRewriter rewriter(func.getContext());
    for (linalg::LinalgOp op : named) {
      SmallVector<NamedAttribute> tags;
      for (NamedAttribute attr : op->getDiscardableAttrs())
        if (attr.getName().strref().starts_with("tsmlir."))
          tags.push_back(attr);
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> generic =
          linalg::generalizeNamedOp(rewriter, op);
      if (failed(generic))
        return op->emitError() << "'" << op->getName()
                               << "' has no GPU mapping";
      for (NamedAttribute attr : tags)
        (*generic)->setAttr(attr.getName(), attr.getValue());
    }
    KernelMapper mapper(func, blockSize, maxBlocks, vectorWidth);
    // Kernels first, outside in; gpu.launch bodies are not revisited.
    SmallVector<Operation *> work;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (llvm::isa<linalg::GenericOp, scf::ForallOp>(op)) {
        work.push_back(op);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    for (Operation *op : work) {
      LogicalResult mapped =
          llvm::isa<linalg::GenericOp>(op)
              ? mapper.mapGeneric(llvm::cast<linalg::GenericOp>(op))
              : mapper.mapRowLoop(llvm::cast<scf::ForallOp>(op));
      if (failed(mapped))
        return failure();
    }
    // Then what stays on the host.
    SmallVector<Operation *> host;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (llvm::isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      host.push_back(op);
      return WalkResult::advance();
    });
    for (Operation *op : host)
      if (failed(mapper.mapHostMemory(op)))
        return failure();
    return success();
  }
};
} // namespace
