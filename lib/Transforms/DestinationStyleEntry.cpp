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
#include "mlir/Dialect/SCF/IR/SCF.h"
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

/// The argument of the entry (block `entry`) and the dim of it that dim `d`
/// of `value` equals: followed through destination-style ops (their result
/// is their init's size), `tensor.empty` and `tensor.dim`, casts, reshapes
/// of unit dims and `scf.forall`'s shared outputs, the ops the lowering of
/// a dynamic specialisation makes. std::nullopt when the size is computed
/// otherwise.
static std::optional<std::pair<unsigned, int64_t>>
resolveDim(Value value, int64_t d, Block *entry) {
  while (true) {
    if (auto arg = llvm::dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() != entry)
        return std::nullopt;
      return std::make_pair(arg.getArgNumber(), d);
    }
    Operation *op = value.getDefiningOp();
    auto result = llvm::cast<OpResult>(value);
    if (auto dps = llvm::dyn_cast<DestinationStyleOpInterface>(op)) {
      if (!dps.hasPureTensorSemantics())
        return std::nullopt;
      value = dps.getTiedOpOperand(result)->get();
    } else if (auto forall = llvm::dyn_cast<scf::ForallOp>(op)) {
      value = forall.getOutputs()[result.getResultNumber()];
    } else if (auto cast = llvm::dyn_cast<tensor::CastOp>(op)) {
      value = cast.getSource();
    } else if (llvm::isa<tensor::EmptyOp, tensor::ExpandShapeOp>(op)) {
      // The size is an operand: a dim of another tensor.
      OpFoldResult size =
          llvm::isa<tensor::EmptyOp>(op)
              ? llvm::cast<tensor::EmptyOp>(op).getMixedSizes()[d]
              : llvm::cast<tensor::ExpandShapeOp>(op).getMixedOutputShape()[d];
      auto dim = llvm::dyn_cast_if_present<Value>(size)
                     ? llvm::cast<Value>(size).getDefiningOp<tensor::DimOp>()
                     : tensor::DimOp();
      std::optional<int64_t> index =
          dim ? dim.getConstantIndex() : std::nullopt;
      if (!index)
        return std::nullopt;
      value = dim.getSource();
      d = *index;
    } else if (auto collapse = llvm::dyn_cast<tensor::CollapseShapeOp>(op)) {
      // A group of unit dims and one dynamic dim.
      ArrayRef<int64_t> sourceShape = collapse.getSrcType().getShape();
      SmallVector<ReassociationIndices> groups =
          collapse.getReassociationIndices();
      std::optional<int64_t> only;
      for (int64_t s : groups[d]) {
        if (sourceShape[s] == 1)
          continue;
        if (only || !ShapedType::isDynamic(sourceShape[s]))
          return std::nullopt;
        only = s;
      }
      if (!only)
        return std::nullopt;
      value = collapse.getSrc();
      d = *only;
    } else {
      return std::nullopt;
    }
  }
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
    // A result of dynamic shape without a bound (a dynamic specialisation)
    // has an output buffer of dynamic shape, whose sizes are the entry's
    // arguments' (resolveDim): the caller reads them from
    // kResultDimsAttrName and allocates the buffer.
    SmallVector<Attribute> resultDims;
    bool dynamicResults = false;
    Block *entryBlock = &func.getBody().front();
    auto returns = llvm::to_vector(func.getOps<func::ReturnOp>());
    SmallVector<Type> outputTypes;
    for (auto [i, t] : llvm::enumerate(func.getResultTypes())) {
      SmallVector<int64_t> dims;
      if (auto tensor = llvm::dyn_cast<RankedTensorType>(t)) {
        bool unbounded = !tensor.hasStaticShape() && (!bounded || !bounds[i]);
        for (int64_t d = 0; d < tensor.getRank(); ++d) {
          if (!unbounded || !tensor.isDynamicDim(d)) {
            dims.append({-1, tensor.getDimSize(d)});
            continue;
          }
          // The same argument's dim in every return.
          std::optional<std::pair<unsigned, int64_t>> found;
          bool same = returns.size() == 1;
          if (same)
            found = resolveDim(returns[0].getOperand(i), d, entryBlock);
          if (!found) {
            func.emitError()
                << "result " << i << " of type " << t
                << " has no static shape, nor a bound (a slice of a tensor "
                   "of static shape), and its size "
                << d << " is not that of an argument";
            return signalPassFailure();
          }
          dims.append({found->first, found->second});
          dynamicResults = true;
        }
        outputTypes.push_back(MemRefType::get(
            bounds[i] ? *bounds[i] : tensor.getShape(), tensor.getElementType()));
        resultDims.push_back(DenseI64ArrayAttr::get(&getContext(), dims));
      } else if (t.isIntOrFloat()) {
        resultDims.push_back(DenseI64ArrayAttr::get(&getContext(), {}));
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
      for (auto [value, output, bound] :
           llvm::zip(ret.getOperands(), outputs, bounds)) {
        if (auto type = llvm::dyn_cast<RankedTensorType>(value.getType())) {
          if (bound) {
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
    if (dynamicResults)
      func->setAttr(tsmlir::kResultDimsAttrName,
                    ArrayAttr::get(&getContext(), resultDims));
  }
};
} // namespace
