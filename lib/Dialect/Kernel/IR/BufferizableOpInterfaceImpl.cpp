//===- BufferizableOpInterfaceImpl.cpp - Bufferizing kernel ops -----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A kernel op reads its inputs and writes its `outs` operand, whose buffer
// the result becomes (destination style, as linalg's ops). The library
// takes contiguous row-major buffers: an operand whose buffer is a strided
// view is copied into a new one first, and an output that is one is written
// through a temporary.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/Kernel/IR/KernelOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace mlir::tsmlir::kernel;

namespace {

/// A new contiguous buffer of `type`'s shape and element type.
Value allocContiguous(RewriterBase &rewriter, Location loc, MemRefType type) {
  return memref::AllocOp::create(
      rewriter, loc, MemRefType::get(type.getShape(), type.getElementType()));
}

template <typename OpTy>
struct KernelOpInterface
    : public DstBufferizableOpInterfaceExternalModel<KernelOpInterface<OpTy>,
                                                     OpTy> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto kernelOp = llvm::cast<OpTy>(op);
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    OpOperand *init = &kernelOp.getInitMutable()[0];
    SmallVector<Value> operands;
    Value initBuffer, written;
    for (OpOperand &operand : op->getOpOperands()) {
      if (!llvm::isa<TensorType>(operand.get().getType())) {
        operands.push_back(operand.get());
        continue;
      }
      FailureOr<Value> buffer =
          getBuffer(rewriter, operand.get(), options, state);
      if (failed(buffer))
        return failure();
      Value value = *buffer;
      auto type = llvm::cast<MemRefType>(value.getType());
      bool contiguous = memref::isStaticShapeAndContiguousRowMajor(type);
      if (&operand == init) {
        initBuffer = value;
        if (!contiguous)
          value = allocContiguous(rewriter, loc, type);
        written = value;
      } else if (!contiguous) {
        Value copy = allocContiguous(rewriter, loc, type);
        memref::CopyOp::create(rewriter, loc, value, copy);
        value = copy;
      }
      operands.push_back(value);
    }
    OperationState result(loc, op->getName());
    result.addOperands(operands);
    result.propertiesAttr = op->getPropertiesAsAttribute();
    result.addAttributes(llvm::to_vector(op->getDiscardableAttrs()));
    rewriter.create(result);
    if (written != initBuffer)
      memref::CopyOp::create(rewriter, loc, written, initBuffer);
    replaceOpWithBufferizedValues(rewriter, op, initBuffer);
    return success();
  }
};

} // namespace

void mlir::tsmlir::kernel::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, KernelDialect *) {
    Conv2dOp::attachInterface<KernelOpInterface<Conv2dOp>>(*ctx);
    MatmulOp::attachInterface<KernelOpInterface<MatmulOp>>(*ctx);
  });
}
