//===- KernelOps.cpp - Library kernel operations --------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/Kernel/IR/KernelOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/InterleavedRange.h"

using namespace mlir;
using namespace mlir::tsmlir::kernel;

/// The shape of a builtin tensor or memref `value`, or std::nullopt for any
/// other type (a `ts` tensor, before lowering): verified then.
static std::optional<ArrayRef<int64_t>> getShape(Value value) {
  auto shaped =
      llvm::dyn_cast_if_present<ShapedType>(value ? value.getType() : Type());
  if (!shaped || !shaped.hasRank())
    return std::nullopt;
  return shaped.getShape();
}

/// Whether two sizes can be equal (either is dynamic, or both are the same).
static bool compatible(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

/// The checks both ops share: one residual step exactly when there is a
/// residual operand; a result on tensors, none on buffers.
static LogicalResult verifyCommon(Operation *op, ArrayAttr epilogue,
                                  Value residual, Value init, Value result) {
  unsigned residualSteps = llvm::count_if(epilogue, [](Attribute step) {
    return llvm::cast<StepAttr>(step).getKind() == StepKind::Residual;
  });
  if (residualSteps != (residual ? 1u : 0u))
    return op->emitOpError()
           << "has " << residualSteps << " residual steps and "
           << (residual ? "a" : "no") << " residual operand";
  if (init && llvm::isa<MemRefType>(init.getType()) && result)
    return op->emitOpError("writes a buffer and has a result");
  if (init && result && init.getType() != result.getType())
    return op->emitOpError("result and outs have different types");
  if (!result && !(init && llvm::isa<MemRefType>(init.getType())))
    return op->emitOpError("has neither a result nor an output buffer");
  return success();
}

/// `value`'s shape, when known, is `expected` (dynamic sizes match any).
static LogicalResult checkShape(Operation *op, Value value, StringRef what,
                                ArrayRef<int64_t> expected) {
  std::optional<ArrayRef<int64_t>> shape = getShape(value);
  if (!shape)
    return success();
  if (shape->size() != expected.size() ||
      !llvm::all_of(llvm::zip_equal(*shape, expected), [](auto pair) {
        return compatible(std::get<0>(pair), std::get<1>(pair));
      }))
    return op->emitOpError()
           << what << " has shape [" << llvm::interleaved(*shape)
           << "], expected [" << llvm::interleaved(expected) << "]";
  return success();
}

/// The bias, when given, is [channels]; the residual, outs and result have
/// the output's shape `out`.
static LogicalResult checkOperandShapes(Operation *op, Value bias,
                                        int64_t channels, Value residual,
                                        Value init, Value result,
                                        ArrayRef<int64_t> out) {
  if (bias && failed(checkShape(op, bias, "bias", {channels})))
    return failure();
  for (auto [value, what] : {std::pair<Value, StringRef>{residual, "residual"},
                             {init, "outs"},
                             {result, "result"}})
    if (value && failed(checkShape(op, value, what, out)))
      return failure();
  return success();
}

LogicalResult Conv2dOp::verify() {
  if (getStride().size() != 2 || getPadding().size() != 2 ||
      getDilation().size() != 2)
    return emitOpError("stride, padding and dilation need two values each");
  if (getGroups() < 1 ||
      llvm::any_of(getStride(), [](int64_t s) { return s < 1; }) ||
      llvm::any_of(getDilation(), [](int64_t d) { return d < 1; }) ||
      llvm::any_of(getPadding(), [](int64_t p) { return p < 0; }))
    return emitOpError("needs groups, strides and dilations of at least 1 "
                       "and padding of at least 0");
  if (failed(verifyCommon(*this, getEpilogue(), getResidual(), getInit(),
                          getResult())))
    return failure();
  std::optional<ArrayRef<int64_t>> in = getShape(getInput());
  std::optional<ArrayRef<int64_t>> w = getShape(getWeight());
  if (!in || !w)
    return success();
  if (in->size() != 4 || w->size() != 4)
    return emitOpError("needs an input and a weight of rank 4");
  int64_t groups = getGroups();
  if (!compatible((*in)[1], ShapedType::isDynamic((*w)[1])
                                ? ShapedType::kDynamic
                                : (*w)[1] * groups) ||
      (!ShapedType::isDynamic((*w)[0]) && (*w)[0] % groups != 0))
    return emitOpError("has channels that do not match the weight and groups");
  SmallVector<int64_t> out = {(*in)[0], (*w)[0]};
  for (int i = 0; i < 2; ++i) {
    int64_t size = (*in)[2 + i], kernel = (*w)[2 + i];
    if (ShapedType::isDynamic(size) || ShapedType::isDynamic(kernel)) {
      out.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t span = getDilation()[i] * (kernel - 1) + 1;
    out.push_back((size + 2 * getPadding()[i] - span) / getStride()[i] + 1);
  }
  return checkOperandShapes(*this, getBias(), (*w)[0], getResidual(), getInit(),
                            getResult(), out);
}

LogicalResult MatmulOp::verify() {
  if (failed(verifyCommon(*this, getEpilogue(), getResidual(), getInit(),
                          getResult())))
    return failure();
  std::optional<ArrayRef<int64_t>> a = getShape(getA());
  std::optional<ArrayRef<int64_t>> w = getShape(getW());
  if (!a || !w)
    return success();
  if (a->size() < 2 || (w->size() != 2 && w->size() != 3) ||
      (w->size() == 3 && a->size() != 3))
    return emitOpError("needs a of rank 2 or more and w of rank 2, or both "
                       "of rank 3");
  int64_t wRank = w->size();
  int64_t k = (*w)[wRank - (getTransposeW() ? 1 : 2)];
  int64_t n = (*w)[wRank - (getTransposeW() ? 2 : 1)];
  if (!compatible(a->back(), k))
    return emitOpError("has a's columns not matching w's rows");
  if (wRank == 3 && !compatible((*a)[0], (*w)[0]))
    return emitOpError("has batches of a and w that differ");
  SmallVector<int64_t> out(a->drop_back());
  out.push_back(n);
  return checkOperandShapes(*this, getBias(), n, getResidual(), getInit(),
                            getResult(), out);
}

/// On buffers: reads every operand but the output, writes the output. On
/// tensors: none.
static void getKernelEffects(
    Operation *op, OpOperand *init,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : op->getOpOperands()) {
    if (!llvm::isa<MemRefType>(operand.get().getType()))
      continue;
    if (&operand == init)
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
    else
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

void Conv2dOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getKernelEffects(*this, getInit() ? &getInitMutable()[0] : nullptr, effects);
}

void MatmulOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getKernelEffects(*this, getInit() ? &getInitMutable()[0] : nullptr, effects);
}

#define GET_OP_CLASSES
#include "tsmlir/Dialect/Kernel/IR/KernelOps.cpp.inc"
