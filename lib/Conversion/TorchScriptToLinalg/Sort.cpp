//===- Sort.cpp - Ordering elements along a dimension -----------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// sort, sort.stable and topk (argsort and msort decompose into sort).
//
// Every element of a row (the elements along `dim` at one position of the
// other dims) finds its place in the sorted row by counting the elements
// that come before it: those that compare less (greater when descending),
// and the equal ones at lower indices. The count is the element's rank, a
// permutation of the row: the element and its index are written there, or,
// for topk, only when the rank is below k. That is a stable sort, which is
// what sort(stable=True) promises and one of the orders sort(stable=False)
// and topk may give for equal elements (PyTorch leaves that order
// unspecified). NaN compares greater than every number and equal to NaN, as
// PyTorch orders it. topk(sorted=False) returns its k elements sorted, one
// of the orders it allows.
//
// The work is n^2 comparisons for a row of n elements, in nested scf.for
// loops carrying the result tensors (bufferization updates them in place):
// fine for the rows real models sort (classes, scores, a few thousand), not
// for long ones.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "Utils.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::lowering;

namespace {

/// What one sort-like op asks for.
struct SortSpec {
  Value self;
  std::optional<int64_t> dim;
  std::optional<bool> descending;
  /// topk's k; the row length for sort.
  std::optional<int64_t> k;
};

SortSpec getSpec(Operation *op, ArrayRef<Value> operands) {
  SortSpec spec;
  spec.self = operands[0];
  if (auto sort = llvm::dyn_cast<ts::AtenSortOp>(op)) {
    spec.dim = getConstInt(sort.getDim());
    spec.descending = getConstBool(sort.getDescending());
  } else if (auto stable = llvm::dyn_cast<ts::AtenSortStableOp>(op)) {
    spec.dim = getConstInt(stable.getDim());
    spec.descending = getConstBool(stable.getDescending());
  } else {
    auto topk = llvm::cast<ts::AtenTopkOp>(op);
    spec.dim = getConstInt(topk.getDim());
    spec.descending = getConstBool(topk.getLargest());
    spec.k = getConstInt(topk.getK());
  }
  return spec;
}

/// Whether `a` comes strictly before `b` in ascending order: NaN after
/// every number; unsigned and bool elements compare unsigned.
Value lessThan(OpBuilder &b, Location loc, Value x, Value y, bool isUnsigned) {
  if (llvm::isa<FloatType>(x.getType())) {
    Value lt = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, y);
    Value xNumber =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, x, x);
    Value yNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, y, y);
    return arith::OrIOp::create(
        b, loc, lt, arith::AndIOp::create(b, loc, xNumber, yNan));
  }
  bool unsignedOrder = isUnsigned || x.getType().isInteger(1);
  return arith::CmpIOp::create(b, loc,
                               unsignedOrder ? arith::CmpIPredicate::ult
                                             : arith::CmpIPredicate::slt,
                               x, y);
}

/// Whether `a` and `b` are equal in the order (NaN equals NaN).
Value equalTo(OpBuilder &b, Location loc, Value x, Value y) {
  if (llvm::isa<FloatType>(x.getType())) {
    Value eq = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, y);
    Value xNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
    Value yNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, y, y);
    return arith::OrIOp::create(b, loc, eq,
                                arith::AndIOp::create(b, loc, xNan, yNan));
  }
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
}

class SortLowering : public NamedOpLowering {
public:
  using NamedOpLowering::NamedOpLowering;

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType valuesType = getResultType(getTypeConverter(), op, 0);
    RankedTensorType indicesType = getResultType(getTypeConverter(), op, 1);
    SortSpec spec = getSpec(op, operands);
    auto selfType = getTensorType(spec.self);
    if (!valuesType || !indicesType || !selfType)
      return rewriter.notifyMatchFailure(op, "expected static tensors");
    int64_t rank = selfType.getRank();
    std::optional<int64_t> dim =
        spec.dim ? wrapDim(*spec.dim, std::max<int64_t>(rank, 1))
                 : std::nullopt;
    if (!dim || !spec.descending)
      return rewriter.notifyMatchFailure(
          op, "dim and the order are not constants in range");
    int64_t n = rank == 0 ? 1 : selfType.getDimSize(*dim);
    int64_t k = spec.k.value_or(n);
    if (k < 0 || k > n)
      return rewriter.notifyMatchFailure(op, "k is not a constant in [0, n]");
    Location loc = op->getLoc();
    bool isUnsigned = isUnsignedDtype(getTSDtype(op->getOperand(0)));
    bool descending = *spec.descending;

    // Loops over the positions of the other dims, then over the row's
    // elements i, counting the j that come before i.
    SmallVector<int64_t> outer;
    for (int64_t d = 0; d < rank; ++d)
      if (d != *dim)
        outer.push_back(selfType.getDimSize(d));
    Value zero = indexConstant(rewriter, loc, 0);
    Value one = indexConstant(rewriter, loc, 1);
    Value length = indexConstant(rewriter, loc, n);
    Value kValue = indexConstant(rewriter, loc, k);
    SmallVector<Value> inits = {createEmpty(rewriter, loc, valuesType),
                                createEmpty(rewriter, loc, indicesType)};
    auto at = [&](ValueRange ivs, Value i) {
      SmallVector<Value> position(ivs);
      if (rank > 0)
        position.insert(position.begin() + *dim, i);
      return position;
    };
    SmallVector<Value> results = loopOver(
        rewriter, loc, outer, inits,
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange carried) -> SmallVector<Value> {
          auto rows = scf::ForOp::create(
              b, l, zero, length, one, carried,
              [&](OpBuilder &rb, Location rl, Value i, ValueRange acc) {
                Value vi = tensor::ExtractOp::create(rb, rl, spec.self,
                                                     at(ivs, i));
                auto count = scf::ForOp::create(
                    rb, rl, zero, length, one, ValueRange{zero},
                    [&](OpBuilder &cb, Location cl, Value j, ValueRange c) {
                      Value vj = tensor::ExtractOp::create(cb, cl, spec.self,
                                                           at(ivs, j));
                      Value less = descending
                                       ? lessThan(cb, cl, vi, vj, isUnsigned)
                                       : lessThan(cb, cl, vj, vi, isUnsigned);
                      Value earlier = arith::CmpIOp::create(
                          cb, cl, arith::CmpIPredicate::ult, j, i);
                      Value tie = arith::AndIOp::create(
                          cb, cl, equalTo(cb, cl, vj, vi), earlier);
                      Value before = arith::OrIOp::create(cb, cl, less, tie);
                      Value next = arith::AddIOp::create(cb, cl, c[0], one);
                      scf::YieldOp::create(
                          cb, cl,
                          ValueRange{arith::SelectOp::create(cb, cl, before,
                                                             next, c[0])});
                    });
                Value place = count.getResult(0);
                Value kept = arith::CmpIOp::create(
                    rb, rl, arith::CmpIPredicate::ult, place, kValue);
                auto write = scf::IfOp::create(
                    rb, rl, kept,
                    [&](OpBuilder &wb, Location wl) {
                      SmallVector<Value> to = at(ivs, place);
                      Value values =
                          tensor::InsertOp::create(wb, wl, vi, acc[0], to);
                      Value index = arith::IndexCastOp::create(
                          wb, wl, wb.getI64Type(), i);
                      Value indices =
                          tensor::InsertOp::create(wb, wl, index, acc[1], to);
                      scf::YieldOp::create(wb, wl,
                                           ValueRange{values, indices});
                    },
                    [&](OpBuilder &eb, Location el) {
                      scf::YieldOp::create(eb, el, acc);
                    });
                scf::YieldOp::create(rb, rl, write.getResults());
              });
          return SmallVector<Value>(rows.getResults());
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void lowering::populateSortPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns) {
  for (StringRef name : getOperationNames<ts::AtenSortOp, ts::AtenSortStableOp,
                                          ts::AtenTopkOp>())
    patterns.add<SortLowering>(converter, patterns.getContext(), name);
}
