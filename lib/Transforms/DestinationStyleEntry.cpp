//===- DestinationStyleEntry.cpp - Results as output buffers --------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::tsmlir {
#define GEN_PASS_DEF_TSDESTINATIONSTYLEENTRYPASS
#include "tsmlir/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir

using namespace mlir;

/// The static shape bounding `value` of dynamic shape: that of the tensor
/// it is a slice of.
static std::optional<ArrayRef<int64_t>> getSizeBound(Value value) {
  auto slice = value.getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || !slice.hasUnitStride() ||
      !slice.getSourceType().hasStaticShape())
    return std::nullopt;
  return slice.getSourceType().getShape();
}

func::FuncOp mlir::tsmlir::findEntryFunction(ModuleOp module, StringRef name) {
  if (!name.empty())
    return module.lookupSymbol<func::FuncOp>(name);
  if (auto main = module.lookupSymbol<func::FuncOp>("main"))
    if (!main.isExternal())
      return main;
  func::FuncOp entry;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal() || func.isPrivate())
      continue;
    if (entry)
      return func::FuncOp();
    entry = func;
  }
  return entry;
}

namespace {
class TSDestinationStyleEntryPass
    : public tsmlir::impl::TSDestinationStyleEntryPassBase<
          TSDestinationStyleEntryPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp func = tsmlir::findEntryFunction(module, entry);
    if (!func) {
      module.emitError() << (entry.empty()
                                 ? "expected one public function with a body "
                                   "(name the entry with entry=NAME)"
                                 : "no function named '" + entry + "'");
      return signalPassFailure();
    }
    // A result of dynamic shape must be a slice of a tensor of static
    // shape, in every return: its output buffer has the larger shape, and
    // its sizes go to a buffer of their own.
    SmallVector<std::optional<ArrayRef<int64_t>>> bounds(
        func.getNumResults());
    bool bounded = true;
    func.walk([&](func::ReturnOp ret) {
      for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
        auto type = llvm::dyn_cast<RankedTensorType>(value.getType());
        if (!type || type.hasStaticShape())
          continue;
        std::optional<ArrayRef<int64_t>> bound = getSizeBound(value);
        if (!bound || (bounds[i] && *bounds[i] != *bound)) {
          bounded = false;
          continue;
        }
        bounds[i] = bound;
      }
    });
    SmallVector<Type> outputTypes;
    for (auto [i, t] : llvm::enumerate(func.getResultTypes())) {
      if (auto tensor = llvm::dyn_cast<RankedTensorType>(t)) {
        if (!tensor.hasStaticShape() && (!bounded || !bounds[i])) {
          func.emitError() << "result " << i << " of type " << t
                           << " has no static shape, nor a bound (a slice "
                              "of a tensor of static shape)";
          return signalPassFailure();
        }
        outputTypes.push_back(MemRefType::get(
            bounds[i] ? *bounds[i] : tensor.getShape(), tensor.getElementType()));
      } else if (t.isIntOrFloat()) {
        outputTypes.push_back(MemRefType::get({}, t));
      } else {
        func.emitError() << "result of type " << t
                         << " cannot be written to an output buffer";
        return signalPassFailure();
      }
    }
    Block &body = func.getBody().front();
    SmallVector<Value> outputs, sizeOutputs;
    for (Type t : outputTypes)
      outputs.push_back(body.addArgument(t, func.getLoc()));
    for (auto [t, bound] : llvm::zip(func.getResultTypes(), bounds))
      if (bound)
        sizeOutputs.push_back(body.addArgument(
            MemRefType::get({static_cast<int64_t>(bound->size())},
                            IntegerType::get(&getContext(), 64)),
            func.getLoc()));
    func.walk([&](func::ReturnOp ret) {
      OpBuilder b(ret);
      Location loc = ret.getLoc();
      unsigned nextSizes = 0;
      for (auto [value, output] : llvm::zip(ret.getOperands(), outputs)) {
        if (auto type = llvm::dyn_cast<RankedTensorType>(value.getType())) {
          if (!type.hasStaticShape()) {
            // The leading corner of the output buffer, and the sizes.
            Value sizes = sizeOutputs[nextSizes++];
            SmallVector<OpFoldResult> extents =
                tensor::getMixedSizes(b, loc, value);
            for (auto [d, extent] : llvm::enumerate(extents)) {
              Value index = arith::ConstantIndexOp::create(b, loc, d);
              Value size = arith::IndexCastOp::create(
                  b, loc, b.getI64Type(),
                  getValueOrCreateConstantIndexOp(b, loc, extent));
              memref::StoreOp::create(b, loc, size, sizes, index);
            }
            SmallVector<OpFoldResult> zeros(type.getRank(), b.getIndexAttr(0));
            SmallVector<OpFoldResult> ones(type.getRank(), b.getIndexAttr(1));
            output = memref::SubViewOp::create(b, loc, output, zeros, extents,
                                               ones);
          }
          auto copy = bufferization::MaterializeInDestinationOp::create(
              b, ret.getLoc(), value, output);
          copy.setRestrict(true);
          copy.setWritable(true);
        } else {
          memref::StoreOp::create(b, ret.getLoc(), value, output);
        }
      }
      func::ReturnOp::create(b, ret.getLoc());
      ret.erase();
    });
    SmallVector<Type> inputs(body.getArgumentTypes());
    func.setType(FunctionType::get(&getContext(), inputs, {}));
    func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  UnitAttr::get(&getContext()));
  }
};
} // namespace
