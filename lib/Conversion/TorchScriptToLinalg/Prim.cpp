//===- Prim.cpp - fusion.group, scalars and constants ---------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// fusion.group keeps its region while its ops are lowered (the pass fuses
// and inlines it afterwards); TorchScript's int, float and bool arithmetic
// becomes arith on i64, f64 and i1; tensor-to-scalar conversions read the
// tensor's only element.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "Utils.h"

#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <functional>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::lowering;

namespace {

/// A fusion.group on builtin types, with its body's block arguments
/// converted; its ops are converted by their own patterns.
class GroupLowering : public OpConversionPattern<fusion::GroupOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(fusion::GroupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(),
                                                resultTypes)))
      return rewriter.notifyMatchFailure(op, "result types do not convert");
    auto group = fusion::GroupOp::create(
        rewriter, op.getLoc(), resultTypes, op.getStrategyAttr(),
        adaptor.getInputs(), op.getNameAttr());
    rewriter.inlineRegionBefore(op.getBody(), group.getBody(),
                                group.getBody().end());
    if (failed(rewriter.convertRegionTypes(&group.getBody(),
                                           *getTypeConverter())))
      return rewriter.notifyMatchFailure(op, "input types do not convert");
    rewriter.replaceOp(op, group.getResults());
    return success();
  }
};

class YieldLowering : public OpConversionPattern<fusion::YieldOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(fusion::YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<fusion::YieldOp>(op, adaptor.getOperands());
    return success();
  }
};

/// A scalar op: its converted operands in, one i64/f64/i1 value out.
using ScalarFn =
    std::function<Value(OpBuilder &, Location, ArrayRef<Value>, Type)>;

class ScalarLowering : public NamedOpLowering {
public:
  ScalarLowering(const TypeConverter &converter, MLIRContext *ctx,
                 StringRef name, ScalarFn fn)
      : NamedOpLowering(converter, ctx, name), fn(std::move(fn)) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->getNumResults() != 1)
      return rewriter.notifyMatchFailure(op, "expected one result");
    Type resultType =
        getTypeConverter()->convertType(op->getResult(0).getType());
    if (!resultType || !resultType.isIntOrFloat())
      return rewriter.notifyMatchFailure(op, "result is not a number");
    for (Value v : operands)
      if (!v.getType().isIntOrFloat() && !llvm::isa<RankedTensorType>(v.getType()))
        return rewriter.notifyMatchFailure(op, "operand is not a number");
    Value result = fn(rewriter, op->getLoc(), operands, resultType);
    if (!result)
      return rewriter.notifyMatchFailure(op, "unsupported operand types");
    rewriter.replaceOp(op, castScalar(rewriter, op->getLoc(), result,
                                      resultType));
    return success();
  }

private:
  ScalarFn fn;
};

/// prim::NumToTensor: a 0-d tensor holding a scalar.
class NumToTensorLowering : public NamedOpLowering {
public:
  using NamedOpLowering::NamedOpLowering;

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = llvm::dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op->getResult(0).getType()));
    if (!resultType || !operands[0].getType().isIntOrFloat())
      return rewriter.notifyMatchFailure(op, "expected a number to a tensor");
    rewriter.replaceOp(
        op, createFilled(rewriter, op->getLoc(), resultType, operands[0]));
    return success();
  }
};

} // namespace

/// Promotes two scalars to the type Python would compute in (float wins).
static std::pair<Value, Value> promote(OpBuilder &b, Location loc, Value x,
                                       Value y) {
  if (x.getType() == y.getType())
    return {x, y};
  Type f64 = b.getF64Type();
  if (llvm::isa<FloatType>(x.getType()) || llvm::isa<FloatType>(y.getType()))
    return {castScalar(b, loc, x, f64), castScalar(b, loc, y, f64)};
  Type i64 = b.getI64Type();
  return {castScalar(b, loc, x, i64), castScalar(b, loc, y, i64)};
}

/// The only element of a tensor, as a scalar.
static Value extractOnly(OpBuilder &b, Location loc, Value tensor) {
  auto type = llvm::dyn_cast<RankedTensorType>(tensor.getType());
  if (!type || type.getNumElements() != 1)
    return Value();
  SmallVector<Value> indices(type.getRank(),
                             arith::ConstantIndexOp::create(b, loc, 0));
  return tensor::ExtractOp::create(b, loc, tensor, indices);
}

void lowering::populatePrimPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<GroupLowering, YieldLowering>(converter, ctx);
  patterns.add<NumToTensorLowering>(
      converter, ctx, ts::PrimNumToTensorScalarOp::getOperationName());
  patterns.add<NumToTensorLowering>(
      converter, ctx, ts::PrimNumToTensorBoolOp::getOperationName());

  auto scalar = [&](StringRef name, ScalarFn fn) {
    patterns.add<ScalarLowering>(converter, ctx, name, std::move(fn));
  };
  using Args = ArrayRef<Value>;
  auto binary = [&](ArrayRef<StringLiteral> names, auto floatOp, auto intOp) {
    for (StringRef name : names) {
      scalar(name, [floatOp, intOp](OpBuilder &b, Location loc, Args a,
                                    Type) -> Value {
        auto [x, y] = promote(b, loc, a[0], a[1]);
        if (llvm::isa<FloatType>(x.getType()))
          return floatOp(b, loc, x, y);
        return intOp(b, loc, x, y);
      });
    }
  };
  binary(
      getOperationNames<ts::AtenAddIntOp, ts::AtenAddFloatOp,
                        ts::AtenAddIntFloatOp, ts::AtenAddFloatIntOp,
                        ts::AtenAddOp>(),
      [](OpBuilder &b, Location l, Value x, Value y) -> Value {
        return arith::AddFOp::create(b, l, x, y);
      },
      [](OpBuilder &b, Location l, Value x, Value y) -> Value {
        return arith::AddIOp::create(b, l, x, y);
      });
  binary(
      getOperationNames<ts::AtenSubIntOp, ts::AtenSubFloatOp, ts::AtenSubOp>(),
      [](OpBuilder &b, Location l, Value x, Value y) -> Value {
        return arith::SubFOp::create(b, l, x, y);
      },
      [](OpBuilder &b, Location l, Value x, Value y) -> Value {
        return arith::SubIOp::create(b, l, x, y);
      });
  binary(
      getOperationNames<ts::AtenMulIntOp, ts::AtenMulFloatOp, ts::AtenMulOp>(),
      [](OpBuilder &b, Location l, Value x, Value y) -> Value {
        return arith::MulFOp::create(b, l, x, y);
      },
      [](OpBuilder &b, Location l, Value x, Value y) -> Value {
        return arith::MulIOp::create(b, l, x, y);
      });
  for (StringRef name :
       getOperationNames<ts::AtenDivIntOp, ts::AtenDivFloatOp, ts::AtenDivOp>())
    scalar(name, [](OpBuilder &b, Location l, Args a, Type) -> Value {
      Type f64 = b.getF64Type();
      return arith::DivFOp::create(b, l, castScalar(b, l, a[0], f64),
                                   castScalar(b, l, a[1], f64));
    });
  for (StringRef name :
       getOperationNames<ts::AtenNegIntOp, ts::AtenNegFloatOp>())
    scalar(name, [](OpBuilder &b, Location l, Args a, Type) -> Value {
      if (llvm::isa<FloatType>(a[0].getType()))
        return arith::NegFOp::create(b, l, a[0]);
      return arith::SubIOp::create(
          b, l, createScalarConstant(b, l, a[0].getType(), 0), a[0]);
    });
  for (StringRef name :
       getOperationNames<ts::AtenSqrtIntOp, ts::AtenSqrtFloatOp>())
    scalar(name, [](OpBuilder &b, Location l, Args a, Type) -> Value {
      return math::SqrtOp::create(b, l, castScalar(b, l, a[0], b.getF64Type()));
    });
  for (StringRef name :
       getOperationNames<ts::AtenFloatIntOp, ts::AtenFloatBoolOp,
                         ts::AtenIntFloatOp, ts::AtenIntBoolOp,
                         ts::AtenBoolIntOp, ts::AtenBoolFloatOp>())
    scalar(name, [](OpBuilder &, Location, Args a, Type) { return a[0]; });
  for (StringRef name :
       getOperationNames<ts::AtenFloatTensorOp, ts::AtenIntTensorOp,
                         ts::AtenBoolTensorOp, ts::AtenScalarImplicitOp>())
    scalar(name, [](OpBuilder &b, Location l, Args a, Type) {
      return extractOnly(b, l, a[0]);
    });

  // Comparisons of two numbers (or bools, for eq and ne).
  auto compare = [&](ArrayRef<StringLiteral> names, arith::CmpFPredicate f,
                     arith::CmpIPredicate i) {
    for (StringRef name : names)
      scalar(name, [f, i](OpBuilder &b, Location l, Args a, Type) -> Value {
        if (!a[0].getType().isIntOrFloat() || !a[1].getType().isIntOrFloat())
          return Value();
        auto [x, y] = promote(b, l, a[0], a[1]);
        if (llvm::isa<FloatType>(x.getType()))
          return arith::CmpFOp::create(b, l, f, x, y);
        return arith::CmpIOp::create(b, l, i, x, y);
      });
  };
  using FP = arith::CmpFPredicate;
  using IP = arith::CmpIPredicate;
  compare(getOperationNames<ts::AtenEqIntOp, ts::AtenEqFloatOp,
                            ts::AtenEqBoolOp, ts::AtenEqOp>(),
          FP::OEQ, IP::eq);
  compare(getOperationNames<ts::AtenNeIntOp, ts::AtenNeFloatOp,
                            ts::AtenNeBoolOp, ts::AtenNeOp>(),
          FP::UNE, IP::ne);
  compare(getOperationNames<ts::AtenLtIntOp, ts::AtenLtFloatOp, ts::AtenLtOp>(),
          FP::OLT, IP::slt);
  compare(getOperationNames<ts::AtenLeIntOp, ts::AtenLeFloatOp, ts::AtenLeOp>(),
          FP::OLE, IP::sle);
  compare(getOperationNames<ts::AtenGtIntOp, ts::AtenGtFloatOp, ts::AtenGtOp>(),
          FP::OGT, IP::sgt);
  compare(getOperationNames<ts::AtenGeIntOp, ts::AtenGeFloatOp, ts::AtenGeOp>(),
          FP::OGE, IP::sge);
  scalar(ts::Aten__Not__Op::getOperationName(),
         [](OpBuilder &b, Location l, Args a, Type) -> Value {
           return arith::XOrIOp::create(
               b, l, a[0], createScalarConstant(b, l, b.getI1Type(), 1));
         });
  scalar(ts::Aten__And__BoolOp::getOperationName(),
         [](OpBuilder &b, Location l, Args a, Type) -> Value {
           return arith::AndIOp::create(b, l, a[0], a[1]);
         });
  scalar(ts::Aten__Or__BoolOp::getOperationName(),
         [](OpBuilder &b, Location l, Args a, Type) -> Value {
           return arith::OrIOp::create(b, l, a[0], a[1]);
         });
}
