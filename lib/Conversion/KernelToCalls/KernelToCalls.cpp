//===- KernelToCalls.cpp - Kernel ops as calls into libtsmlir_kernels -----===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `convert-kernel-to-calls`: each bufferised kernel op becomes a call of
// the library function of runtime/include/tsmlir/Runtime/Kernels.h, with a
// descriptor (a constant global, one per distinct descriptor) and the
// buffers' addresses.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Conversion/Passes.h"
#include "tsmlir/Dialect/Kernel/IR/KernelOps.h"
#include "tsmlir/Runtime/Kernels.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

#include <cstring>

namespace mlir::tsmlir {
#define GEN_PASS_DEF_CONVERTKERNELTOCALLSPASS
#include "tsmlir/Conversion/Passes.h.inc"
} // namespace mlir::tsmlir

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::kernel;

// The step kinds of the dialect are the library's.
static_assert(static_cast<int>(StepKind::Relu) == TSMLIR_STEP_RELU &&
                  static_cast<int>(StepKind::Clip) == TSMLIR_STEP_CLIP &&
                  static_cast<int>(StepKind::GeluErf) == TSMLIR_STEP_GELU_ERF &&
                  static_cast<int>(StepKind::GeluTanh) ==
                      TSMLIR_STEP_GELU_TANH &&
                  static_cast<int>(StepKind::Swish) == TSMLIR_STEP_SWISH &&
                  static_cast<int>(StepKind::Hardswish) ==
                      TSMLIR_STEP_HARDSWISH &&
                  static_cast<int>(StepKind::Sigmoid) == TSMLIR_STEP_SIGMOID &&
                  static_cast<int>(StepKind::Tanh) == TSMLIR_STEP_TANH &&
                  static_cast<int>(StepKind::Elu) == TSMLIR_STEP_ELU &&
                  static_cast<int>(StepKind::Linear) == TSMLIR_STEP_LINEAR &&
                  static_cast<int>(StepKind::Residual) == TSMLIR_STEP_RESIDUAL,
              "kernel.step kinds differ from Kernels.h's");

namespace {

int64_t doubleBits(double value) {
  int64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

void appendEpilogue(SmallVectorImpl<int64_t> &desc, ArrayAttr epilogue) {
  desc.push_back(epilogue.size());
  for (Attribute attr : epilogue) {
    auto step = llvm::cast<StepAttr>(attr);
    desc.push_back(static_cast<int64_t>(step.getKind()));
    desc.push_back(doubleBits(step.getAlpha().convertToDouble()));
    desc.push_back(doubleBits(step.getBeta().convertToDouble()));
  }
}

/// Whether `value` is (a reshape of) a constant global: its address and
/// contents never change.
bool isConstantBuffer(Value value, SymbolTable &symbols) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto global = llvm::dyn_cast<memref::GetGlobalOp>(def)) {
      auto op = symbols.lookup<memref::GlobalOp>(global.getName());
      return op && op.getConstant();
    }
    if (!llvm::isa<memref::ExpandShapeOp, memref::CollapseShapeOp,
                   memref::CastOp, memref::ReinterpretCastOp>(def))
      return false;
    value = def->getOperand(0);
  }
  return false;
}

ArrayRef<int64_t> getShape(Value value) {
  return llvm::cast<MemRefType>(value.getType()).getShape();
}

/// A conv2d's descriptor (Kernels.h's layout).
SmallVector<int64_t> describe(Conv2dOp op, int64_t flags) {
  ArrayRef<int64_t> in = getShape(op.getInput()), w = getShape(op.getWeight()),
                    out = getShape(op.getInit());
  SmallVector<int64_t> desc(TSMLIR_CONV2D_EPILOGUE, 0);
  desc[0] = TSMLIR_KERNEL_CONV2D;
  desc[TSMLIR_CONV2D_N] = in[0];
  desc[TSMLIR_CONV2D_C] = in[1];
  desc[TSMLIR_CONV2D_H] = in[2];
  desc[TSMLIR_CONV2D_W] = in[3];
  desc[TSMLIR_CONV2D_K] = w[0];
  desc[TSMLIR_CONV2D_R] = w[2];
  desc[TSMLIR_CONV2D_S] = w[3];
  desc[TSMLIR_CONV2D_GROUPS] = op.getGroups();
  desc[TSMLIR_CONV2D_STRIDE_H] = op.getStride()[0];
  desc[TSMLIR_CONV2D_STRIDE_W] = op.getStride()[1];
  desc[TSMLIR_CONV2D_PAD_H] = op.getPadding()[0];
  desc[TSMLIR_CONV2D_PAD_W] = op.getPadding()[1];
  desc[TSMLIR_CONV2D_DILATION_H] = op.getDilation()[0];
  desc[TSMLIR_CONV2D_DILATION_W] = op.getDilation()[1];
  desc[TSMLIR_CONV2D_OH] = out[2];
  desc[TSMLIR_CONV2D_OW] = out[3];
  desc[TSMLIR_CONV2D_FLAGS] = flags;
  appendEpilogue(desc, op.getEpilogue());
  return desc;
}

/// A matmul's descriptor.
SmallVector<int64_t> describe(MatmulOp op, int64_t flags) {
  ArrayRef<int64_t> a = getShape(op.getA()), w = getShape(op.getW());
  SmallVector<int64_t> desc(TSMLIR_MATMUL_EPILOGUE, 0);
  bool transposed = op.getTransposeW();
  desc[0] = TSMLIR_KERNEL_MATMUL;
  int64_t batch = 1;
  for (int64_t size : a.drop_back(2))
    batch *= size;
  desc[TSMLIR_MATMUL_BATCH] = batch;
  desc[TSMLIR_MATMUL_M] = a[a.size() - 2];
  desc[TSMLIR_MATMUL_K] = a.back();
  desc[TSMLIR_MATMUL_N] = transposed ? w[w.size() - 2] : w.back();
  if (transposed)
    flags |= TSMLIR_KERNEL_TRANSPOSED_W;
  if (w.size() == 3)
    flags |= TSMLIR_KERNEL_BATCHED_W;
  desc[TSMLIR_MATMUL_FLAGS] = flags;
  appendEpilogue(desc, op.getEpilogue());
  return desc;
}

class Lowering {
public:
  Lowering(ModuleOp module, int64_t threads)
      : module(module), symbols(module), threads(threads) {}

  template <typename OpTy> LogicalResult lower(OpTy op, StringRef callee) {
    if (op.getResult())
      return op.emitOpError("is not bufferised");
    for (Value operand : op->getOperands()) {
      auto type = llvm::dyn_cast<MemRefType>(operand.getType());
      if (!type || !type.getElementType().isF32() || !type.hasStaticShape())
        return op.emitOpError("needs f32 buffers of static shape");
    }
    int64_t flags = 0;
    if (op.getBias())
      flags |= TSMLIR_KERNEL_HAS_BIAS;
    // getW / getWeight: the second operand.
    Value weight = op->getOperand(1);
    if (isConstantBuffer(weight, symbols))
      flags |= TSMLIR_KERNEL_CONSTANT_WEIGHT;
    SmallVector<int64_t> desc = describe(op, flags);

    OpBuilder b(op);
    Location loc = op.getLoc();
    SmallVector<Value> args = {address(b, loc, getDescriptor(b, loc, desc)),
                               address(b, loc, op->getOperand(0)),
                               address(b, loc, weight),
                               address(b, loc, op.getBias()),
                               address(b, loc, op.getResidual()),
                               address(b, loc, op.getInit())};
    args.push_back(arith::ConstantIntOp::create(b, loc, threads, 64));
    func::CallOp::create(b, loc, getCallee(callee, args), args);
    op.erase();
    return success();
  }

private:
  /// The address of `buffer`'s first element as an !llvm.ptr; null for no
  /// buffer.
  Value address(OpBuilder &b, Location loc, Value buffer) {
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
    if (!buffer)
      return LLVM::ZeroOp::create(b, loc, ptrType);
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
    unsigned bytes =
        llvm::cast<MemRefType>(buffer.getType()).getElementTypeBitWidth() / 8;
    Value offset =
        arith::MulIOp::create(b, loc, metadata.getOffset(),
                              arith::ConstantIndexOp::create(b, loc, bytes));
    Value index = arith::AddIOp::create(b, loc, base, offset);
    Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
    return LLVM::IntToPtrOp::create(b, loc, ptrType, i64);
  }

  /// A constant global holding `desc`, one per distinct descriptor.
  Value getDescriptor(OpBuilder &b, Location loc, ArrayRef<int64_t> desc) {
    auto type =
        MemRefType::get({static_cast<int64_t>(desc.size())}, b.getI64Type());
    auto value = DenseIntElementsAttr::get(
        RankedTensorType::get(type.getShape(), b.getI64Type()), desc);
    memref::GlobalOp &global = descriptors[value];
    if (!global) {
      OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
      global = memref::GlobalOp::create(
          top, loc, "__tsmlir_kernel_desc", top.getStringAttr("private"), type,
          value, /*constant=*/true, top.getI64IntegerAttr(8));
      symbols.insert(global);
    }
    return memref::GetGlobalOp::create(b, loc, type, global.getSymName());
  }

  /// The declaration of the library function `name`.
  func::FuncOp getCallee(StringRef name, ValueRange args) {
    if (auto func = symbols.lookup<func::FuncOp>(name))
      return func;
    OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
    auto func = func::FuncOp::create(
        top, module.getLoc(), name,
        top.getFunctionType(ValueRange(args).getTypes(), {}));
    func.setPrivate();
    symbols.insert(func);
    return func;
  }

  ModuleOp module;
  SymbolTable symbols;
  int64_t threads;
  DenseMap<Attribute, memref::GlobalOp> descriptors;
};

struct ConvertKernelToCallsPass
    : public tsmlir::impl::ConvertKernelToCallsPassBase<
          ConvertKernelToCallsPass> {
  using Base::Base;

  void runOnOperation() override {
    Lowering lowering(getOperation(), threads);
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (llvm::isa<Conv2dOp, MatmulOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      LogicalResult lowered =
          llvm::isa<Conv2dOp>(op)
              ? lowering.lower(llvm::cast<Conv2dOp>(op), "tsmlir_kernel_conv2d")
              : lowering.lower(llvm::cast<MatmulOp>(op),
                               "tsmlir_kernel_matmul");
      if (failed(lowered))
        return signalPassFailure();
    }
  }
};

} // namespace
