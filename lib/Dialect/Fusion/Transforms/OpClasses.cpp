//===- OpClasses.cpp - What each op is to the fusers ----------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/Fusion/Transforms/FusionPlanner.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
namespace fusion = mlir::tsmlir::fusion;

ArrayRef<fusion::Strategy> fusion::getAllStrategies() {
  static const Strategy all[] = {Strategy::Pointwise, Strategy::NNC,
                                 Strategy::NVFuser, Strategy::Aggressive};
  return all;
}

std::optional<fusion::Strategy> fusion::parsePlannedStrategy(StringRef name) {
  std::optional<Strategy> strategy = symbolizeStrategy(name);
  if (!strategy || !llvm::is_contained(getAllStrategies(), *strategy))
    return std::nullopt;
  return strategy;
}

StringRef fusion::stringifyOpClass(OpClass cls) {
  switch (cls) {
  case OpClass::Unsupported:
    return "unsupported";
  case OpClass::Pointwise:
    return "pointwise";
  case OpClass::Softmax:
    return "softmax";
  case OpClass::Reduction:
    return "reduction";
  case OpClass::View:
    return "view";
  case OpClass::Matmul:
    return "matmul";
  case OpClass::Scalar:
    return "scalar";
  }
  llvm_unreachable("unknown op class");
}

StringRef fusion::stringifyReason(Reason reason) {
  switch (reason) {
  case Reason::UnsupportedKind:
    return "unsupported kind";
  case Reason::StrategyExcludes:
    return "strategy excludes it";
  case Reason::UnknownShape:
    return "unknown shape";
  case Reason::SideEffect:
    return "side effect";
  case Reason::WouldCreateCycle:
    return "would create a cycle";
  case Reason::OutsideUseBetween:
    return "used outside before the group would run";
  case Reason::TooSmall:
    return "group below min-size";
  }
  llvm_unreachable("unknown reason");
}

/// A list of tensors (for cat and stack).
static bool isTensorList(Value value) {
  auto list = llvm::dyn_cast<ListType>(value.getType());
  return list && llvm::isa<ts::TensorType>(list.getElementType());
}

fusion::OpClass fusion::classifyOp(Operation *op) {
  if (llvm::isa<PrimConstantOp>(op))
    return OpClass::Scalar;
  if (auto list = llvm::dyn_cast<PrimListConstructOp>(op))
    return isTensorList(list.getResult()) ? OpClass::View
                                          : OpClass::Unsupported;
  if (llvm::isa<
#define TS_POINTWISE(OP, N, KIND) OP,
#define TS_POINTWISE_OTHER(OP) OP,
#include "tsmlir/Dialect/TorchScript/IR/PointwiseOps.def"
          // (The list above ends with a comma.)
          AtenCloneOp>(op))
    return OpClass::Pointwise;
  if (llvm::isa<AtenSoftmaxIntOp, AtenLogSoftmaxIntOp, Aten_SoftmaxOp,
                Aten_LogSoftmaxOp>(op))
    return OpClass::Softmax;
  if (llvm::isa<AtenSumOp, AtenSumDimIntListOp, AtenMeanOp, AtenMeanDimOp,
                AtenAmaxOp, AtenAminOp, AtenMaxOp, AtenMinOp, AtenVarOp,
                AtenVarDimOp, AtenVarCorrectionOp, AtenStdOp, AtenStdDimOp,
                AtenProdOp, AtenLogsumexpOp, AtenLayerNormOp,
                AtenNativeLayerNormOp>(op))
    return OpClass::Reduction;
  if (llvm::isa<AtenViewOp, AtenReshapeOp, AtenUnsqueezeOp, AtenSqueezeOp,
                AtenSqueezeDimOp, AtenExpandOp, AtenExpandAsOp,
                AtenBroadcastToOp, AtenPermuteOp, AtenTransposeIntOp, AtenTOp,
                AtenFlattenUsingIntsOp, AtenSliceTensorOp, AtenSelectIntOp,
                AtenNarrowOp, AtenCatOp, AtenStackOp>(op))
    return OpClass::View;
  if (llvm::isa<AtenMatmulOp, AtenMmOp, AtenBmmOp, AtenLinearOp, AtenAddmmOp,
                AtenBaddbmmOp>(op))
    return OpClass::Matmul;
  return OpClass::Unsupported;
}

bool fusion::strategyFuses(Strategy strategy, OpClass cls) {
  switch (cls) {
  case OpClass::Unsupported:
    return false;
  case OpClass::Scalar:
  case OpClass::Pointwise:
    return true;
  case OpClass::Softmax:
  case OpClass::View:
    return strategy != Strategy::Pointwise;
  case OpClass::Reduction:
    return strategy == Strategy::NVFuser || strategy == Strategy::Aggressive;
  case OpClass::Matmul:
    return strategy == Strategy::NNC || strategy == Strategy::Aggressive;
  }
  llvm_unreachable("unknown op class");
}

std::optional<int64_t> fusion::getTensorBytes(Type type) {
  auto tensor = llvm::dyn_cast<ts::TensorType>(type);
  if (!tensor || !tensor.getDtype() || !tensor.hasStaticShape())
    return std::nullopt;
  Type dtype = tensor.getDtype();
  int64_t elementBytes;
  if (auto complex = llvm::dyn_cast<ComplexType>(dtype))
    elementBytes =
        2 * std::max<int64_t>(1, complex.getElementType().getIntOrFloatBitWidth() / 8);
  else if (dtype.isIntOrFloat())
    elementBytes = std::max<int64_t>(1, dtype.getIntOrFloatBitWidth() / 8);
  else
    return std::nullopt;
  // A tensor whose size overflows int64_t (a type such as
  // tensor<[2^63-1, 2^63-1]> in malformed input) has no byte count.
  int64_t bytes = elementBytes;
  for (int64_t size : tensor.getSizesOrEmpty())
    if (llvm::MulOverflow(bytes, size, bytes))
      return std::nullopt;
  return bytes;
}
