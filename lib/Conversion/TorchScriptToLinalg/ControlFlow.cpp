//===- ControlFlow.cpp - prim::If and prim::Loop to scf -------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The regions of TorchScript's control flow move into scf ops as they are;
// their ops are converted by their own patterns, and each prim::Yield
// becomes the scf.yield its new parent expects:
//
//   * prim::If becomes scf.if (an int condition is compared with zero);
//   * prim::Loop whose initial and continue conditions are the constant true
//     (TorchScript's `for i in range(n)`) becomes scf.for from 0 to the trip
//     count, the iteration number being the index_cast of the induction
//     variable; any other loop becomes scf.while, which carries the
//     iteration number and the condition and runs while both allow it:
//
//       %r:3 = scf.while (%x = %x0, %i = 0, %c = %init) {
//         %go = arith.andi (%i < %n), %c
//         scf.condition(%go) %x, %i, %c
//       } do {
//       ^bb0(%x, %i, %c):
//         ... body ...
//         scf.yield %next_x, %i + 1, %next_c
//       }
//
//   Each carried tensor a loop body yields is written into the buffer of the
//   value it replaces (bufferization.materialize_in_destination), so that
//   the loop keeps one buffer per carried tensor, as bufferization of scf
//   loops requires.
//
// aten::warn is dropped: a warning changes no value.
//
// prim::RaiseException becomes `cf.assert false, "<message>"`: running it
// aborts the program and prints the message (the exception class is not
// kept), so a branch that raises in TorchScript aborts where PyTorch would
// raise. prim::Uninitialized, the placeholder TorchScript yields from such a
// branch, becomes an undefined tensor (tensor.empty) or a zero scalar: it is
// never read.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "Utils.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::lowering;

/// Whether the loop runs while its trip count allows: its initial and
/// continue conditions are the constant true.
static bool isForLoop(ts::PrimLoopOp op) {
  auto yield =
      llvm::cast<ts::PrimYieldOp>(op.getBody().front().getTerminator());
  std::optional<bool> initial = getConstBool(op.getInitialCondition());
  std::optional<bool> next = yield.getValues().empty()
                                 ? std::nullopt
                                 : getConstBool(yield.getValues().front());
  return initial && *initial && next && *next;
}

namespace {

/// prim::If to scf.if, the regions moved over.
class IfLowering : public OpConversionPattern<ts::PrimIfOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::PrimIfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> resultTypes;
    if (failed(
            getTypeConverter()->convertTypes(op.getResultTypes(), resultTypes)))
      return rewriter.notifyMatchFailure(op, "result types do not convert");
    Value condition = adaptor.getCondition();
    if (!condition.getType().isSignlessInteger())
      return rewriter.notifyMatchFailure(op, "condition is not a bool or int");
    Location loc = op.getLoc();
    condition = castScalar(rewriter, loc, condition, rewriter.getI1Type());
    auto ifOp = scf::IfOp::create(rewriter, loc, resultTypes, condition,
                                  /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(op.getThenRegion(), ifOp.getThenRegion(),
                                ifOp.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseRegion(), ifOp.getElseRegion(),
                                ifOp.getElseRegion().end());
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

/// prim::Loop to scf.for (a for loop) or scf.while.
class LoopLowering : public OpConversionPattern<ts::PrimLoopOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::PrimLoopOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> carriedTypes;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(),
                                                carriedTypes)))
      return rewriter.notifyMatchFailure(op, "carried types do not convert");
    Value tripCount = adaptor.getMaxTripCount();
    Value initial = adaptor.getInitialCondition();
    if (!tripCount.getType().isInteger(64) || !initial.getType().isInteger(1))
      return rewriter.notifyMatchFailure(op, "trip count or condition did not "
                                             "convert to i64 and i1");
    Block *body = &op.getBody().front();
    if (body->getNumArguments() != 1 + carriedTypes.size())
      return rewriter.notifyMatchFailure(op, "body arguments differ from the "
                                             "carried values");
    if (isForLoop(op))
      return lowerToFor(op, adaptor, carriedTypes, rewriter);
    return lowerToWhile(op, adaptor, carriedTypes, rewriter);
  }

private:
  LogicalResult lowerToFor(ts::PrimLoopOp op, OpAdaptor adaptor,
                           ArrayRef<Type> carriedTypes,
                           ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    Type indexType = rewriter.getIndexType();
    Value lower = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value upper = arith::IndexCastOp::create(rewriter, loc, indexType,
                                             adaptor.getMaxTripCount());
    Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto forOp = scf::ForOp::create(rewriter, loc, lower, upper, step,
                                    adaptor.getIterArgs());
    Block *forBody = forOp.getBody();
    // Without carried values the builder adds a terminator; the body's own
    // yield takes its place.
    if (!forBody->empty())
      rewriter.eraseOp(forBody->getTerminator());
    rewriter.setInsertionPointToStart(forBody);
    SmallVector<Value> arguments = {arith::IndexCastOp::create(
        rewriter, loc, rewriter.getI64Type(), forOp.getInductionVar())};
    llvm::append_range(arguments, forOp.getRegionIterArgs());
    rewriter.mergeBlocks(&op.getBody().front(), forBody, arguments);
    rewriter.replaceOp(op, forOp.getResults());
    return success();
  }

  LogicalResult lowerToWhile(ts::PrimLoopOp op, OpAdaptor adaptor,
                             ArrayRef<Type> carriedTypes,
                             ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    // Both regions take (carried..., iteration, condition), so that each
    // carried value keeps its position (and its buffer) around the loop,
    // also once canonicalisation drops the condition from the after region.
    int64_t n = carriedTypes.size();
    SmallVector<Type> types(carriedTypes);
    types.push_back(i64);
    types.push_back(rewriter.getI1Type());
    SmallVector<Value> inits(adaptor.getIterArgs());
    inits.push_back(createScalarConstant(rewriter, loc, i64, 0));
    inits.push_back(adaptor.getInitialCondition());
    Value tripCount = adaptor.getMaxTripCount();

    // The builder makes both blocks, with arguments of `types`.
    auto whileOp =
        scf::WhileOp::create(rewriter, loc, types, inits, nullptr, nullptr);
    Block *before = whileOp.getBeforeBody();
    rewriter.setInsertionPointToEnd(before);
    Value inRange =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                              before->getArgument(n), tripCount);
    Value go = arith::AndIOp::create(rewriter, loc, inRange,
                                     before->getArgument(n + 1));
    scf::ConditionOp::create(rewriter, loc, go, before->getArguments());

    Block *after = whileOp.getAfterBody();
    SmallVector<Value> arguments = {after->getArgument(n)};
    llvm::append_range(arguments, after->getArguments().take_front(n));
    rewriter.mergeBlocks(&op.getBody().front(), after, arguments);
    rewriter.replaceOp(op, whileOp.getResults().take_front(n));
    return success();
  }
};

/// The values a loop body yields, each tensor written into the buffer of the
/// carried value it replaces: a loop's carried tensors then stay in one
/// buffer each, which bufferization requires of scf loops (empty-tensor
/// elimination makes the op computing the value write there directly).
static SmallVector<Value> yieldInPlace(OpBuilder &b, Location loc,
                                       ValueRange values, ValueRange carried) {
  SmallVector<Value> result;
  for (auto [value, destination] : llvm::zip_equal(values, carried)) {
    if (value == destination || !llvm::isa<RankedTensorType>(value.getType())) {
      result.push_back(value);
      continue;
    }
    result.push_back(bufferization::MaterializeInDestinationOp::create(
                         b, loc, value, destination)
                         .getResult());
  }
  return result;
}

/// prim::Yield in a region moved into an scf op: the scf.yield of that op
/// (a for loop yields the carried values only, a while loop the carried
/// values, the next iteration number and the condition).
class YieldLowering : public OpConversionPattern<ts::PrimYieldOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::PrimYieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Operation *parent = op->getParentOp();
    ValueRange values = adaptor.getValues();
    Location loc = op.getLoc();
    if (llvm::isa<scf::IfOp>(parent)) {
      rewriter.replaceOpWithNewOp<scf::YieldOp>(op, values);
      return success();
    }
    if (values.empty())
      return rewriter.notifyMatchFailure(op, "a loop yields its condition");
    if (auto forOp = llvm::dyn_cast<scf::ForOp>(parent)) {
      rewriter.replaceOpWithNewOp<scf::YieldOp>(
          op, yieldInPlace(rewriter, loc, values.drop_front(),
                           forOp.getRegionIterArgs()));
      return success();
    }
    if (auto whileOp = llvm::dyn_cast<scf::WhileOp>(parent)) {
      ValueRange arguments = whileOp.getAfterArguments();
      int64_t n = values.size() - 1;
      Value iteration = arguments[n];
      Value one = createScalarConstant(rewriter, loc, iteration.getType(), 1);
      SmallVector<Value> next = yieldInPlace(rewriter, loc, values.drop_front(),
                                             arguments.take_front(n));
      next.push_back(arith::AddIOp::create(rewriter, loc, iteration, one));
      next.push_back(values[0]);
      rewriter.replaceOpWithNewOp<scf::YieldOp>(op, next);
      return success();
    }
    return rewriter.notifyMatchFailure(op, "parent is not a lowered prim::If "
                                           "or prim::Loop");
  }
};

/// prim::RaiseException: an assertion that always fails, with the message.
class RaiseExceptionLowering
    : public OpConversionPattern<ts::PrimRaiseExceptionOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::PrimRaiseExceptionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string message = "TorchScript raised an exception";
    if (auto cst = op.getMessage().getDefiningOp<ts::PrimConstantOp>())
      if (auto str = llvm::dyn_cast_or_null<StringAttr>(cst.getValueAttr()))
        message = str.getValue().str();
    Location loc = op.getLoc();
    Value no = createScalarConstant(rewriter, loc, rewriter.getI1Type(), 0);
    cf::AssertOp::create(rewriter, loc, no, message);
    rewriter.eraseOp(op);
    return success();
  }
};

/// aten::warn: nothing. A warning changes no value, and compiled code does
/// not print PyTorch's warnings (kl_div's "reduction='mean'" note, scripted
/// GoogLeNet's "always returns GoogleNetOutputs").
class WarnLowering : public OpConversionPattern<ts::AtenWarnOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenWarnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

/// prim::Uninitialized: a value of the right type that is never read.
class UninitializedLowering
    : public OpConversionPattern<ts::PrimUninitializedOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::PrimUninitializedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    Location loc = op.getLoc();
    if (auto tensor = llvm::dyn_cast_or_null<RankedTensorType>(type)) {
      rewriter.replaceOp(op, createEmpty(rewriter, loc, tensor));
      return success();
    }
    if (type && type.isIntOrFloat()) {
      rewriter.replaceOp(op, createScalarConstant(rewriter, loc, type, 0));
      return success();
    }
    return rewriter.notifyMatchFailure(op, "not a static tensor or a number");
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Pattern Population
//===----------------------------------------------------------------------===//

void lowering::populateControlFlowPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<IfLowering, LoopLowering, RaiseExceptionLowering,
               UninitializedLowering, WarnLowering, YieldLowering>(
      converter, patterns.getContext());
}
