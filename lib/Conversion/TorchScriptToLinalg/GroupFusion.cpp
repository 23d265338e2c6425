//===- GroupFusion.cpp - One loop nest per fusion.group -------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Once a group's ops are lowered op by op, its generics are fused:
//   1. vertically, with linalg's elementwise fusion: a producer is inlined
//      into each consumer (into reductions too), so its result never reaches
//      memory; a producer with several consumers only while it is small
//      and reads no other generic (it is computed again in each). One pass
//      over the consumers in order does it, and ends after a number of
//      fusions bounded by the group's size (fuseProducers);
//   2. horizontally: generics of the same parallel iteration space that do
//      not depend on each other (siblings left by step 1 when a producer also
//      leaves the group, or outputs computed from common inputs) merge into
//      one generic with several results, whose body CSE shares;
//   3. a group whose result is computed from reductions over its trailing
//      dimensions (softmax, layer_norm, x - x.mean(-1)) becomes one loop over
//      its rows (`scf.forall`), in which each row's reductions and its
//      result are computed while the row is in cache.
// The group is then inlined where it was.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"

#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::lowering;

/// Whether `op` is an all-parallel generic of static bounds writing its
/// results with identity maps: one that can share a loop nest with another
/// of the same bounds.
static bool isMergeable(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() ||
      op.getNumParallelLoops() != op.getNumLoops())
    return false;
  for (OpOperand &init : op.getDpsInitsMutable())
    if (!op.getMatchingIndexingMap(&init).isIdentity())
      return false;
  // Two dynamic bounds may differ at run time: only static ones merge.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  return (!ranges.empty() || op.getNumLoops() == 0) &&
         !ShapedType::isDynamicShape(ranges);
}

/// Whether `later` can absorb `earlier`: the same loop bounds, `later` does
/// not read `earlier`'s results, and nothing between them does either.
static bool canMerge(linalg::GenericOp earlier, linalg::GenericOp later) {
  if (earlier->getBlock() != later->getBlock() ||
      !earlier->isBeforeInBlock(later) ||
      earlier.getStaticLoopRanges() != later.getStaticLoopRanges())
    return false;
  for (Value result : earlier->getResults())
    for (Operation *user : result.getUsers()) {
      Operation *ancestor = later->getBlock()->findAncestorOpInBlock(*user);
      if (!ancestor || ancestor == later.getOperation() ||
          !later->isBeforeInBlock(ancestor))
        return false;
    }
  return true;
}

/// One generic computing both, where `later` was.
static void merge(RewriterBase &rewriter, linalg::GenericOp earlier,
                  linalg::GenericOp later) {
  rewriter.setInsertionPoint(later);
  SmallVector<Value> inputs(earlier.getDpsInputs());
  llvm::append_range(inputs, later.getDpsInputs());
  SmallVector<Value> inits(earlier.getDpsInits());
  llvm::append_range(inits, later.getDpsInits());
  SmallVector<AffineMap> maps;
  for (OpOperand *in : earlier.getDpsInputOperands())
    maps.push_back(earlier.getMatchingIndexingMap(in));
  for (OpOperand *in : later.getDpsInputOperands())
    maps.push_back(later.getMatchingIndexingMap(in));
  for (OpOperand &init : earlier.getDpsInitsMutable())
    maps.push_back(earlier.getMatchingIndexingMap(&init));
  for (OpOperand &init : later.getDpsInitsMutable())
    maps.push_back(later.getMatchingIndexingMap(&init));
  SmallVector<Type> types(earlier.getResultTypes());
  llvm::append_range(types, later.getResultTypes());
  auto merged = linalg::GenericOp::create(
      rewriter, later.getLoc(), types, inputs, inits, maps,
      later.getIteratorTypesArray(),
      [&](OpBuilder &b, Location loc, ValueRange args) {
        unsigned ei = earlier.getNumDpsInputs(), li = later.getNumDpsInputs();
        unsigned eo = earlier.getNumDpsInits();
        IRMapping mapping;
        Block *eb = earlier.getBody(), *lb = later.getBody();
        for (unsigned i = 0; i < ei; ++i)
          mapping.map(eb->getArgument(i), args[i]);
        for (unsigned i = 0; i < li; ++i)
          mapping.map(lb->getArgument(i), args[ei + i]);
        for (unsigned i = 0; i < eo; ++i)
          mapping.map(eb->getArgument(ei + i), args[ei + li + i]);
        for (unsigned i = 0; i < later.getNumDpsInits(); ++i)
          mapping.map(lb->getArgument(li + i), args[ei + li + eo + i]);
        SmallVector<Value> yielded;
        for (Block *block : {eb, lb}) {
          for (Operation &op : block->without_terminator())
            b.clone(op, mapping);
          for (Value v : block->getTerminator()->getOperands())
            yielded.push_back(mapping.lookupOrDefault(v));
        }
        linalg::YieldOp::create(b, loc, yielded);
      });
  unsigned n = earlier->getNumResults();
  rewriter.replaceOp(earlier, merged.getResults().take_front(n));
  rewriter.replaceOp(later, merged.getResults().drop_front(n));
}

/// Merges sibling generics of `block` until none is left to merge.
static void mergeSiblings(Block &block) {
  IRRewriter rewriter(block.getParentOp()->getContext());
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<linalg::GenericOp> generics;
    for (auto op : block.getOps<linalg::GenericOp>())
      if (isMergeable(op))
        generics.push_back(op);
    for (size_t i = 0; i < generics.size() && !changed; ++i)
      for (size_t j = i + 1; j < generics.size() && !changed; ++j)
        if (canMerge(generics[i], generics[j])) {
          merge(rewriter, generics[i], generics[j]);
          changed = true;
        }
  }
}

/// Step 3: tiles the generic that computes the group's only result row by row
/// (size 1 on its leading dimensions that every reduction feeding it keeps,
/// the rest whole) and fuses the reductions into the loop.
static void tileRows(RewriterBase &rewriter, Block &body) {
  auto yield = llvm::cast<fusion::YieldOp>(body.getTerminator());
  if (yield.getNumOperands() != 1)
    return;
  auto root = yield.getOperand(0).getDefiningOp<linalg::GenericOp>();
  if (!root || root->getBlock() != &body || root->getNumResults() != 1 ||
      root.getNumReductionLoops() != 0 || !root.hasPureTensorSemantics())
    return;
  unsigned rows = root.getNumLoops();
  bool fedByReduction = false;
  for (OpOperand *in : root.getDpsInputOperands()) {
    auto producer = in->get().getDefiningOp<linalg::GenericOp>();
    if (!producer || producer->getBlock() != &body ||
        producer.getNumReductionLoops() == 0)
      continue;
    fedByReduction = true;
    // The root reads the reduction at (d0, ..., dk-1[, 0, ...]): the rows
    // it may be tiled on are d0..dk-1.
    AffineMap map = root.getMatchingIndexingMap(in);
    unsigned lead = 0;
    for (AffineExpr e : map.getResults()) {
      auto dim = llvm::dyn_cast<AffineDimExpr>(e);
      if (!dim || dim.getPosition() != lead)
        break;
      ++lead;
    }
    for (AffineExpr e : map.getResults().drop_front(lead))
      if (!llvm::isa<AffineConstantExpr>(e))
        return;
    rows = std::min(rows, lead);
  }
  if (!fedByReduction || rows == 0 || rows == root.getNumLoops())
    return;
  // An empty iteration space has no rows (and linalg's tiling crashes on a
  // 0-sized loop).
  if (llvm::is_contained(root.getStaticLoopRanges(), 0))
    return;
  SmallVector<OpFoldResult> sizes(root.getNumLoops(), rewriter.getIndexAttr(0));
  for (unsigned d = 0; d < rows; ++d)
    sizes[d] = rewriter.getIndexAttr(1);
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(sizes);
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  // The result's empty init stays outside, shared by the loop: each row is
  // written in place into the result (the output buffer, after
  // bufferisation), not into a row of its own that is then copied.
  options.setFusionControlFn(
      [](tensor::ExtractSliceOp, OpResult producer, bool isDestination)
          -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (isDestination && llvm::isa<tensor::EmptyOp>(producer.getOwner()))
          return std::nullopt;
        return scf::SCFTileAndFuseOptions::ControlFnResult{};
      });
  rewriter.setInsertionPoint(root);
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, llvm::cast<TilingInterface>(root.getOperation()), options);
  if (failed(tiled))
    return;
  for (auto [original, replacement] : tiled->replacements)
    rewriter.replaceAllUsesWith(original, replacement);
}

/// A producer with several uses is fused into each of them, i.e. computed
/// again per use, only while it has at most kMaxRecomputedOps operations.
static constexpr size_t kMaxRecomputedOps = 48;

/// Whether `op`'s body has at most `limit` operations (a block's size is a
/// walk of its list, and fused bodies grow long).
static bool hasSmallBody(linalg::GenericOp op, size_t limit) {
  size_t size = 0;
  for (auto it = op.getBody()->begin(), end = op.getBody()->end(); it != end;
       ++it)
    if (++size > limit)
      return false;
  return true;
}

/// Whether the producer of `use` is fused into its consumer. A producer with
/// one use always is: its body moves, nothing is computed twice. A producer
/// with several uses is copied into each consumer only while it is small and
/// reads no other generic's result: copying every shared value into every
/// consumer, copies of copies included, grows a graph whose values are each
/// read twice exponentially (a chain of N such ops becomes a body of 2^N
/// ops before CSE). Beyond that, the producer stays a generic of its own
/// whose result its consumers read.
static bool shouldFuseIntoConsumer(OpOperand *use) {
  Operation *producer = use->get().getDefiningOp();
  if (!producer || producer->hasOneUse())
    return true;
  auto generic = llvm::dyn_cast<linalg::GenericOp>(producer);
  if (!generic)
    return true;
  return hasSmallBody(generic, kMaxRecomputedOps) &&
         llvm::none_of(generic.getDpsInputs(), [](Value input) {
           return input.getDefiningOp<linalg::GenericOp>();
         });
}

/// A generic's input operand through which a producer can be fused into it
/// (the first such, in operand order), skipping the values in `refused`.
static OpOperand *findFusableInput(linalg::GenericOp consumer,
                                   const DenseSet<Value> &refused) {
  for (OpOperand *input : consumer.getDpsInputOperands())
    if (!refused.contains(input->get()) &&
        linalg::areElementwiseOpsFusable(input) &&
        shouldFuseIntoConsumer(input))
      return input;
  return nullptr;
}

/// `op` reading each value once and without the results nothing reads (the
/// results of a fused producer that its other readers still take from the
/// producer).
static linalg::GenericOp deduplicate(RewriterBase &rewriter,
                                     linalg::GenericOp op) {
  FailureOr<linalg::GenericOp> deduplicated =
      linalg::deduplicateOperandsAndRemoveDeadResults(rewriter, op,
                                                      /*removeOutputs=*/true);
  return succeeded(deduplicated) ? *deduplicated : op;
}

/// Step 1: fuses into each generic of `root` the producers that
/// shouldFuseIntoConsumer allows, its own producers' producers included.
///
/// The generics are visited once each, in the order of a pre-order walk, in
/// which a producer always comes before its consumers. The visited generic
/// (the consumer) first reads each value once; then, while one of its inputs
/// is the result of a generic that may be fused into it, that producer is
/// fused: the consumer becomes the fused generic, reading each value once
/// again (so a producer it read twice, itself and through the generic just
/// fused, may now be fused as a producer of one use), and the producer is
/// erased once nothing reads it. A fusion only replaces the consumer being
/// visited and erases producers, visited before it, so each generic is
/// visited exactly once. When a visit ends, none of the consumer's inputs
/// can be fused, and later visits do not change that: a producer is not
/// changed after its own visit, and a fusion moves the producer's reads
/// into the generic it is fused into, so a value read elsewhere stays read
/// elsewhere.
///
/// This terminates by construction. Let E be the number of input operands
/// of generics under `root` whose value is a generic's result. Each fusion
/// lowers E by exactly one: a producer with one use takes its generic
/// inputs into the consumer, which loses its input on the producer, and is
/// erased with its own operands; a producer with several uses is copied
/// only when it reads no generic. Reading each value once and dropping dead
/// results never raise E, and nothing else creates generics. So the pass
/// makes at most E fusions (E as it was when it began), and a fusion that
/// linalg refuses (loop bounds it cannot compute) changes nothing and is not
/// tried again in that visit. (A greedy rewrite to a fixed point instead
/// needs one more iteration each time a fusion waits on a producer losing a
/// reader, which it only sees in the next iteration: a number of iterations
/// that grows with the depth of the graph, past any fixed cap.)
static void fuseProducers(RewriterBase &rewriter, Operation *root) {
  SmallVector<linalg::GenericOp> generics;
  root->walk<WalkOrder::PreOrder>(
      [&](linalg::GenericOp op) { generics.push_back(op); });
  for (linalg::GenericOp consumer : generics) {
    if (!consumer.hasPureTensorSemantics())
      continue;
    consumer = deduplicate(rewriter, consumer);
    DenseSet<Value> refused;
    while (OpOperand *input = findFusableInput(consumer, refused)) {
      Operation *producer = input->get().getDefiningOp();
      rewriter.setInsertionPoint(consumer);
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, input);
      if (failed(fused)) {
        refused.insert(input->get());
        continue;
      }
      // The consumer's readers read the fused generic; the producer's other
      // readers, if any, go on reading the producer.
      for (OpResult result : consumer->getResults())
        rewriter.replaceAllUsesWith(result, fused->replacements.lookup(result));
      rewriter.eraseOp(consumer);
      if (producer->use_empty())
        rewriter.eraseOp(producer);
      consumer =
          deduplicate(rewriter, llvm::cast<linalg::GenericOp>(fused->fusedOp));
    }
  }
}

/// Fuses the generics of `group` vertically (step 1), with linalg's
/// clean-ups around it: operands read twice or not at all, dead results,
/// fills and splat constants folded into the payload, inits the payload
/// does not read replaced by tensor.empty, dead ops. Elementwise fusion is
/// not among the clean-up patterns, and each of them only removes an op, an
/// operand or a result, or replaces an init by a tensor.empty (at most once
/// per init): they shrink the IR, so the rewrite reaches its fixed point
/// without an iteration cap.
static void fuseVertically(RewriterBase &rewriter, fusion::GroupOp group,
                           const FrozenRewritePatternSet &cleanUps) {
  GreedyRewriteConfig config;
  config.setMaxIterations(GreedyRewriteConfig::kNoLimit);
  (void)applyPatternsGreedily(group.getOperation(), cleanUps, config);
  fuseProducers(rewriter, group);
  (void)applyPatternsGreedily(group.getOperation(), cleanUps, config);
}

LogicalResult lowering::fuseAndInlineGroups(ModuleOp module, bool fuse,
                                            bool rowTemporaries) {
  MLIRContext *ctx = module.getContext();
  RewritePatternSet patterns(ctx);
  // linalg's elementwise fusion patterns less the fusion itself, which
  // fuseProducers does.
  linalg::populateElementwiseOpsFusionPatterns(
      patterns, [](OpOperand *) { return false; });
  tensor::populateFoldTensorEmptyPatterns(patterns);
  linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
  FrozenRewritePatternSet cleanUps(std::move(patterns));

  SmallVector<fusion::GroupOp> groups;
  module.walk([&](fusion::GroupOp group) { groups.push_back(group); });
  IRRewriter rewriter(ctx);
  int64_t groupIndex = 0;
  for (fusion::GroupOp group : groups) {
    if (fuse) {
      fuseVertically(rewriter, group, cleanUps);
      mergeSiblings(*group.getBodyBlock());
      // Merged siblings read the same inputs twice: deduplicated here (a
      // producer both read may then be fused), and their common
      // computations shared by CSE.
      fuseVertically(rewriter, group, cleanUps);
      DominanceInfo dominance;
      eliminateCommonSubExpressions(rewriter, dominance, group);
      tileRows(rewriter, *group.getBodyBlock());
      // Tiling fuses a producer into the row loop once per use. With row
      // temporaries, CSE makes those copies one again first (softmax's
      // exponentials are computed once per row), and the vertical fusion
      // then copies such a producer into its readers only where
      // shouldFuseIntoConsumer allows it: one that reads a reduction stays a
      // row of its own. Without, each copy is fused into its reader (a
      // reduction fused once per use is computed once all the same, by the
      // CSE after). The untiled ops the loop replaced are dead.
      if (rowTemporaries)
        eliminateCommonSubExpressions(rewriter, dominance, group);
      fuseVertically(rewriter, group, cleanUps);
      eliminateCommonSubExpressions(rewriter, dominance, group);
    }
    Block *body = group.getBodyBlock();
    // Each loop nest (or row loop) a fusion group became carries the
    // group's number, and one an op lowered through a group of its own
    // (softmax, layer_norm) the op's name, so that the code generated from
    // it can be traced back to them (GPU kernels are named after them).
    bool ofOneOp = group.getStrategy() == fusion::Strategy::Op;
    if (fuse)
      for (Operation &op : body->without_terminator()) {
        if (!llvm::isa<linalg::LinalgOp, scf::ForallOp>(op))
          continue;
        if (!ofOneOp)
          op.setAttr("tsmlir.group", rewriter.getI64IntegerAttr(groupIndex));
        else if (group.getName())
          op.setAttr("tsmlir.op", group.getNameAttr());
      }
    if (!ofOneOp)
      ++groupIndex;
    auto yield = llvm::cast<fusion::YieldOp>(body->getTerminator());
    // A yielded block argument is the group's input itself.
    SmallVector<Value> results;
    for (Value v : yield.getOperands()) {
      auto arg = llvm::dyn_cast<BlockArgument>(v);
      results.push_back(arg && arg.getOwner() == body
                            ? group.getInputs()[arg.getArgNumber()]
                            : v);
    }
    rewriter.inlineBlockBefore(body, group, group.getInputs());
    rewriter.eraseOp(yield);
    rewriter.replaceOp(group, results);
  }
  return success();
}
