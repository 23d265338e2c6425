//===- ModuleState.cpp - ts.module_state to ml_program globals ------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A module's state (a tensor attribute the graph writes in place) becomes a
// mutable ml_program.global holding its value when saved; its reads and
// writes load and store it. Bufferized, the global is one buffer that the
// compiled graph keeps from call to call.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "Utils.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::lowering;

namespace {

class ModuleStateLowering : public OpConversionPattern<ts::ModuleStateOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::ModuleStateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = llvm::dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op.getValueType()));
    if (!type)
      return rewriter.notifyMatchFailure(op, "the state's type does not "
                                             "convert");
    ElementsAttr value = convertElementsAttr(op.getInitialValue(), type);
    if (!value)
      return rewriter.notifyMatchFailure(op, "the initial value does not "
                                             "convert");
    rewriter.replaceOpWithNewOp<ml_program::GlobalOp>(
        op, op.getSymName(), type, /*is_mutable=*/true, value,
        rewriter.getStringAttr("private"));
    return success();
  }
};

class ModuleStateReadLowering
    : public OpConversionPattern<ts::ModuleStateReadOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::ModuleStateReadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!llvm::isa_and_nonnull<RankedTensorType>(type))
      return rewriter.notifyMatchFailure(op, "the type does not convert");
    rewriter.replaceOpWithNewOp<ml_program::GlobalLoadOp>(op, type,
                                                          op.getStateAttr());
    return success();
  }
};

class ModuleStateWriteLowering
    : public OpConversionPattern<ts::ModuleStateWriteOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::ModuleStateWriteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = llvm::dyn_cast<RankedTensorType>(adaptor.getValue().getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "the value does not convert");
    // ml_program.global_store bufferizes as a write of its value, not a
    // read: a value with other uses (a result) would be stored from a
    // fresh buffer that nothing fills. It stores a copy of its own.
    Value copy = bufferization::AllocTensorOp::create(
        rewriter, op.getLoc(), type, ValueRange(), adaptor.getValue());
    rewriter.replaceOpWithNewOp<ml_program::GlobalStoreOp>(
        op, op.getStateAttr(), copy);
    return success();
  }
};

} // namespace

void lowering::populateModuleStatePatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<ModuleStateLowering, ModuleStateReadLowering,
               ModuleStateWriteLowering>(converter, patterns.getContext());
}
