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
// tensor's only element. A mutated argument's last value is written back
// into its buffer.
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "Utils.h"

#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"
#include "tsmlir/Dialect/TorchScript/IR/Aliasing.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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
    Value value = castScalar(rewriter, op->getLoc(), operands[0],
                             resultType.getElementType());
    rewriter.replaceOp(op,
                       createFilled(rewriter, op->getLoc(), resultType, value));
    return success();
  }
};

/// The scalars of the nested list `list`, in row-major order: the
/// (converted) elements of prim::ListConstructs, or the values of a list
/// constant.
static LogicalResult collectListScalars(Value list, OpBuilder &b, Location loc,
                                        ConversionPatternRewriter &rewriter,
                                        SmallVectorImpl<Value> &scalars) {
  if (auto construct = list.getDefiningOp<ts::PrimListConstructOp>()) {
    for (Value element : construct.getElements()) {
      if (llvm::isa<ts::ListType>(element.getType())) {
        if (failed(collectListScalars(element, b, loc, rewriter, scalars)))
          return failure();
        continue;
      }
      Value converted = rewriter.getRemappedValue(element);
      if (!converted || !converted.getType().isIntOrFloat())
        return failure();
      scalars.push_back(converted);
    }
    return success();
  }
  auto constant = list.getDefiningOp<ts::PrimConstantOp>();
  auto array = constant
                   ? llvm::dyn_cast_or_null<ArrayAttr>(constant.getValueAttr())
                   : ArrayAttr();
  if (!array)
    return failure();
  std::function<LogicalResult(ArrayAttr)> walk = [&](ArrayAttr a) {
    for (Attribute element : a) {
      if (auto inner = llvm::dyn_cast<ArrayAttr>(element)) {
        if (failed(walk(inner)))
          return failure();
      } else if (auto flag = llvm::dyn_cast<BoolAttr>(element)) {
        scalars.push_back(
            createScalarConstant(b, loc, b.getI1Type(), flag.getValue()));
      } else if (auto i = llvm::dyn_cast<IntegerAttr>(element)) {
        scalars.push_back(arith::ConstantOp::create(
            b, loc, b.getI64IntegerAttr(i.getValue().getSExtValue())));
      } else if (auto f = llvm::dyn_cast<FloatAttr>(element)) {
        scalars.push_back(arith::ConstantOp::create(
            b, loc, b.getF64FloatAttr(f.getValueAsDouble())));
      } else {
        return failure();
      }
    }
    return success();
  };
  return walk(array);
}

/// aten::tensor of a (nested) list: a tensor of its scalars, each converted
/// to the result's dtype.
class TensorFromListLowering : public NamedOpLowering {
public:
  using NamedOpLowering::NamedOpLowering;

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = llvm::dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op->getResult(0).getType()));
    if (!resultType || !resultType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "result is not a static tensor");
    Location loc = op->getLoc();
    SmallVector<Value> scalars;
    if (failed(collectListScalars(op->getOperand(0), rewriter, loc, rewriter,
                                  scalars)) ||
        static_cast<int64_t>(scalars.size()) != resultType.getNumElements())
      return rewriter.notifyMatchFailure(op, "the list's scalars are not "
                                             "known");
    for (Value &v : scalars)
      v = castScalar(rewriter, loc, v, resultType.getElementType());
    remapListOperands(rewriter, op);
    rewriter.replaceOp(op, tensor::FromElementsOp::create(rewriter, loc,
                                                          resultType, scalars));
    return success();
  }
};

/// The copy_ that writes a mutated argument's last value back into the
/// caller's tensor (kWriteBackAttrName, put before the return by
/// ts-remove-mutation): a write into the argument's buffer, which nothing
/// reads afterwards.
class WriteBackLowering : public OpConversionPattern<ts::AtenCopy_Op> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ts::AtenCopy_Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // (ts-remove-mutation marks only copies into the entry block's
    // arguments; the conversion may have moved that block already.)
    if (!op->hasAttr(ts::kWriteBackAttrName) ||
        !llvm::isa<BlockArgument>(op.getSelf()))
      return rewriter.notifyMatchFailure(op, "not a write-back of an "
                                             "argument");
    auto type = llvm::dyn_cast<RankedTensorType>(adaptor.getSelf().getType());
    if (!type || adaptor.getSrc().getType() != type)
      return rewriter.notifyMatchFailure(op, "the value is not of the "
                                             "argument's type");
    Location loc = op.getLoc();
    Value buffer = bufferization::ToBufferOp::create(
        rewriter, loc, MemRefType::get(type.getShape(), type.getElementType()),
        adaptor.getSelf());
    auto write = bufferization::MaterializeInDestinationOp::create(
        rewriter, loc, adaptor.getSrc(), buffer);
    write.setWritable(true);
    rewriter.replaceOp(op, adaptor.getSelf());
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
  patterns.add<GroupLowering, YieldLowering, WriteBackLowering>(converter, ctx);
  patterns.add<NumToTensorLowering>(
      converter, ctx, ts::PrimNumToTensorScalarOp::getOperationName());
  patterns.add<NumToTensorLowering>(
      converter, ctx, ts::PrimNumToTensorBoolOp::getOperationName());
  for (StringRef name :
       getOperationNames<ts::AtenTensorIntOp, ts::AtenTensorFloatOp,
                         ts::AtenTensorBoolOp>())
    patterns.add<NumToTensorLowering>(converter, ctx, name);
  patterns.add<TensorFromListLowering>(converter, ctx,
                                       ts::AtenTensorOp::getOperationName());

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
  // a ** b of numbers: TorchScript's pow.int too gives a float, computed in
  // double as PyTorch's std::pow.
  for (StringRef name :
       getOperationNames<ts::AtenPowIntOp, ts::AtenPowFloatOp,
                         ts::AtenPowIntFloatOp, ts::AtenPowFloatIntOp>())
    scalar(name, [](OpBuilder &b, Location l, Args a, Type) -> Value {
      Type f64 = b.getF64Type();
      return math::PowFOp::create(b, l, castScalar(b, l, a[0], f64),
                                  castScalar(b, l, a[1], f64));
    });
  for (StringRef name :
       getOperationNames<ts::AtenDivIntOp, ts::AtenDivFloatOp, ts::AtenDivOp>())
    scalar(name, [](OpBuilder &b, Location l, Args a, Type) -> Value {
      Type f64 = b.getF64Type();
      return arith::DivFOp::create(b, l, castScalar(b, l, a[0], f64),
                                   castScalar(b, l, a[1], f64));
    });
  // Python's floor division and modulo: rounded towards negative infinity,
  // the remainder with the divisor's sign.
  for (StringRef name :
       getOperationNames<ts::AtenFloordivIntOp, ts::AtenFloordivFloatOp>())
    scalar(name, [](OpBuilder &b, Location l, Args a, Type) -> Value {
      auto [x, y] = promote(b, l, a[0], a[1]);
      if (llvm::isa<FloatType>(x.getType()))
        return math::FloorOp::create(b, l, arith::DivFOp::create(b, l, x, y));
      // The truncated quotient, less one where the remainder is not zero
      // and its sign differs from the divisor's.
      using IP = arith::CmpIPredicate;
      Value zero = createScalarConstant(b, l, x.getType(), 0);
      Value one = createScalarConstant(b, l, x.getType(), 1);
      Value quot = arith::DivSIOp::create(b, l, x, y);
      Value rem = arith::RemSIOp::create(b, l, x, y);
      Value adjust = arith::AndIOp::create(
          b, l, arith::CmpIOp::create(b, l, IP::ne, rem, zero),
          arith::XOrIOp::create(
              b, l, arith::CmpIOp::create(b, l, IP::slt, rem, zero),
              arith::CmpIOp::create(b, l, IP::slt, y, zero)));
      return arith::SelectOp::create(
          b, l, adjust, arith::SubIOp::create(b, l, quot, one), quot);
    });
  for (StringRef name : getOperationNames<ts::AtenRemainderIntOp,
                                          ts::AtenRemainderFloatOp>())
    scalar(name, [](OpBuilder &b, Location l, Args a, Type) -> Value {
      auto [x, y] = promote(b, l, a[0], a[1]);
      bool isFloat = llvm::isa<FloatType>(x.getType());
      Value zero = createScalarConstant(b, l, x.getType(), 0);
      Value rem = isFloat ? arith::RemFOp::create(b, l, x, y).getResult()
                          : arith::RemSIOp::create(b, l, x, y).getResult();
      Value remNeg, yNeg, remNonZero;
      if (isFloat) {
        remNeg = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, rem,
                                       zero);
        yNeg = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, y, zero);
        remNonZero =
            arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE, rem, zero);
      } else {
        remNeg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, rem,
                                       zero);
        yNeg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, y, zero);
        remNonZero =
            arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, rem, zero);
      }
      Value adjust = arith::AndIOp::create(
          b, l, remNonZero, arith::XOrIOp::create(b, l, remNeg, yNeg));
      Value shifted = isFloat ? arith::AddFOp::create(b, l, rem, y).getResult()
                              : arith::AddIOp::create(b, l, rem, y).getResult();
      return arith::SelectOp::create(b, l, adjust, shifted, rem);
    });
  // The length of range(lo, hi, step) and its index-th value (the
  // counters of a loop over a range, when the bounds are not constant).
  scalar(ts::Aten__RangeLengthOp::getOperationName(),
         [](OpBuilder &b, Location l, Args a, Type) -> Value {
           using IP = arith::CmpIPredicate;
           Type i64 = b.getI64Type();
           Value lo = castScalar(b, l, a[0], i64), hi = castScalar(b, l, a[1], i64),
                 step = castScalar(b, l, a[2], i64);
           Value zero = createScalarConstant(b, l, i64, 0);
           Value one = createScalarConstant(b, l, i64, 1);
           Value up = arith::CmpIOp::create(b, l, IP::sgt, step, zero);
           // Towards hi: (|hi - lo| - 1) / |step| + 1 when lo is before hi.
           Value dist = arith::SelectOp::create(
               b, l, up, arith::SubIOp::create(b, l, hi, lo),
               arith::SubIOp::create(b, l, lo, hi));
           Value mag = arith::SelectOp::create(
               b, l, up, step, arith::SubIOp::create(b, l, zero, step));
           Value n = arith::AddIOp::create(
               b, l,
               arith::DivSIOp::create(b, l, arith::SubIOp::create(b, l, dist, one),
                                      mag),
               one);
           Value any = arith::CmpIOp::create(b, l, IP::sgt, dist, zero);
           return arith::SelectOp::create(b, l, any, n, zero);
         });
  scalar(ts::Aten__DeriveIndexOp::getOperationName(),
         [](OpBuilder &b, Location l, Args a, Type) -> Value {
           Type i64 = b.getI64Type();
           return arith::AddIOp::create(
               b, l, castScalar(b, l, a[1], i64),
               arith::MulIOp::create(b, l, castScalar(b, l, a[0], i64),
                                     castScalar(b, l, a[2], i64)));
         });
  // min and max of two numbers; abs of an int.
  for (StringRef name :
       getOperationNames<ts::PrimMinIntOp, ts::PrimMinFloatOp>())
    scalar(name, [](OpBuilder &b, Location l, Args a, Type) -> Value {
      auto [x, y] = promote(b, l, a[0], a[1]);
      if (llvm::isa<FloatType>(x.getType()))
        return arith::MinimumFOp::create(b, l, x, y);
      return arith::MinSIOp::create(b, l, x, y);
    });
  for (StringRef name :
       getOperationNames<ts::PrimMaxIntOp, ts::PrimMaxFloatOp>())
    scalar(name, [](OpBuilder &b, Location l, Args a, Type) -> Value {
      auto [x, y] = promote(b, l, a[0], a[1]);
      if (llvm::isa<FloatType>(x.getType()))
        return arith::MaximumFOp::create(b, l, x, y);
      return arith::MaxSIOp::create(b, l, x, y);
    });
  scalar(ts::PrimAbsIntOp::getOperationName(),
         [](OpBuilder &b, Location l, Args a, Type) -> Value {
           return math::AbsIOp::create(b, l, a[0]);
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
