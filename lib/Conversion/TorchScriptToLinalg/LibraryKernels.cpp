//===- LibraryKernels.cpp - Products and their epilogues as kernel ops ----===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `ts-library-kernels`: each f32 convolution or matrix product of static
// shape, with the chain of pointwise ops that follows it, becomes one
// `kernel.conv2d` or `kernel.matmul` (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "tsmlir/Conversion/Passes.h"
#include "tsmlir/Dialect/Kernel/IR/KernelOps.h"
#include "tsmlir/Dialect/TorchScript/IR/Aliasing.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"


#include <limits>

namespace mlir::tsmlir {
#define GEN_PASS_DEF_TSLIBRARYKERNELSPASS
#include "tsmlir/Conversion/Passes.h.inc"
} // namespace mlir::tsmlir

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::lowering;
namespace kernel = mlir::tsmlir::kernel;

namespace {

/// The static shape of a non-empty f32 tensor `value`, or std::nullopt.
/// (An empty product is left to the compiled loops: the library's
/// primitives take no zero-sized dimension.)
std::optional<ArrayRef<int64_t>> getF32Shape(Value value) {
  auto type = llvm::dyn_cast<ts::TensorType>(value.getType());
  if (!type || !type.hasStaticShape() || !type.getDtype() ||
      !type.getDtype().isF32() || llvm::is_contained(type.getSizesOrEmpty(), 0))
    return std::nullopt;
  return type.getSizesOrEmpty();
}

/// A product the library runs: a convolution or a matrix product.
struct Product {
  Operation *op = nullptr;
  Value input, weight, bias;
  // Convolutions.
  bool isConv = false;
  SmallVector<int64_t> stride, padding, dilation;
  int64_t groups = 1;
  // Matrix products: the weight is [N, K].
  bool transposeW = false;
};

/// The bias operand: None (a null Value) or an f32 tensor of `size`.
FailureOr<Value> getBias(Value value, int64_t size) {
  if (isConstNone(value))
    return Value();
  std::optional<ArrayRef<int64_t>> shape = getF32Shape(value);
  if (!shape || shape->size() != 1 || (*shape)[0] != size)
    return failure();
  return value;
}

std::optional<Product> matchConvolution(Operation *op, Value input,
                                        Value weight, Value bias,
                                        Value strideList, Value paddingList,
                                        Value dilationList, Value groups) {
  std::optional<ArrayRef<int64_t>> in = getF32Shape(input);
  std::optional<ArrayRef<int64_t>> w = getF32Shape(weight);
  if (!in || !w || in->size() != 4 || w->size() != 4)
    return std::nullopt;
  Product product;
  product.op = op;
  product.isConv = true;
  product.input = input;
  product.weight = weight;
  std::optional<SmallVector<int64_t>> stride = getSpatial(strideList, 2);
  std::optional<SmallVector<int64_t>> padding = getSpatial(paddingList, 2);
  std::optional<SmallVector<int64_t>> dilation = getSpatial(dilationList, 2);
  std::optional<int64_t> g = getConstInt(groups);
  if (!stride || !padding || !dilation || !g || *g < 1 ||
      (*in)[1] != (*w)[1] * *g || (*w)[0] % *g != 0)
    return std::nullopt;
  FailureOr<Value> b = getBias(bias, (*w)[0]);
  if (failed(b))
    return std::nullopt;
  product.bias = *b;
  product.stride = *stride;
  product.padding = *padding;
  product.dilation = *dilation;
  product.groups = *g;
  return product;
}

/// A product of `a` [..., M, K] and `w` [K, N] (or [N, K] when
/// `transposeW`), or of two [B, M, K] and [B, K, N] tensors.
std::optional<Product> matchMatmul(Operation *op, Value a, Value w, Value bias,
                                   bool transposeW) {
  std::optional<ArrayRef<int64_t>> aShape = getF32Shape(a);
  std::optional<ArrayRef<int64_t>> wShape = getF32Shape(w);
  if (!aShape || !wShape || aShape->size() < 2)
    return std::nullopt;
  size_t wRank = wShape->size();
  if (wRank != 2 &&
      !(wRank == 3 && aShape->size() == 3 && (*aShape)[0] == (*wShape)[0]))
    return std::nullopt;
  int64_t k = (*wShape)[wRank - (transposeW ? 1 : 2)];
  int64_t n = (*wShape)[wRank - (transposeW ? 2 : 1)];
  if (aShape->back() != k)
    return std::nullopt;
  FailureOr<Value> b = bias ? getBias(bias, n) : FailureOr<Value>(Value());
  if (failed(b))
    return std::nullopt;
  Product product;
  product.op = op;
  product.input = a;
  product.weight = w;
  product.bias = *b;
  product.transposeW = transposeW;
  return product;
}

std::optional<Product> matchProduct(Operation *op) {
  if (op->getNumResults() != 1 || !getF32Shape(op->getResult(0)))
    return std::nullopt;
  if (auto conv = llvm::dyn_cast<ts::AtenConv2dOp>(op))
    return matchConvolution(op, conv.getInput(), conv.getWeight(),
                            conv.getBias(), conv.getStride(), conv.getPadding(),
                            conv.getDilation(), conv.getGroups());
  if (auto conv = llvm::dyn_cast<ts::Aten_ConvolutionOp>(op)) {
    std::optional<bool> transposed = getConstBool(conv.getTransposed());
    if (!transposed || *transposed)
      return std::nullopt;
    return matchConvolution(op, conv.getInput(), conv.getWeight(),
                            conv.getBias(), conv.getStride(), conv.getPadding(),
                            conv.getDilation(), conv.getGroups());
  }
  if (auto linear = llvm::dyn_cast<ts::AtenLinearOp>(op)) {
    std::optional<ArrayRef<int64_t>> w = getF32Shape(linear.getWeight());
    if (!w || w->size() != 2)
      return std::nullopt;
    return matchMatmul(op, linear.getInput(), linear.getWeight(),
                       linear.getBias(), /*transposeW=*/true);
  }
  if (auto addmm = llvm::dyn_cast<ts::AtenAddmmOp>(op)) {
    std::optional<double> beta = getConstNumber(addmm.getBeta());
    std::optional<double> alpha = getConstNumber(addmm.getAlpha());
    std::optional<ArrayRef<int64_t>> a = getF32Shape(addmm.getMat1());
    if (!beta || !alpha || *beta != 1 || *alpha != 1 || !a || a->size() != 2)
      return std::nullopt;
    return matchMatmul(op, addmm.getMat1(), addmm.getMat2(), addmm.getSelf(),
                       /*transposeW=*/false);
  }
  if (llvm::isa<ts::AtenMmOp, ts::AtenBmmOp, ts::AtenMatmulOp>(op)) {
    std::optional<ArrayRef<int64_t>> a = getF32Shape(op->getOperand(0));
    std::optional<ArrayRef<int64_t>> w = getF32Shape(op->getOperand(1));
    if (!a || !w)
      return std::nullopt;
    // mm: [M, K] x [K, N]; bmm: [B, M, K] x [B, K, N]; matmul: either, or
    // [..., M, K] x [K, N].
    bool ranksFit =
        llvm::isa<ts::AtenMmOp>(op) ? a->size() == 2 && w->size() == 2
        : llvm::isa<ts::AtenBmmOp>(op)
            ? a->size() == 3 && w->size() == 3
            : a->size() >= 2 &&
                  (w->size() == 2 || (w->size() == 3 && a->size() == 3));
    if (!ranksFit)
      return std::nullopt;
    return matchMatmul(op, op->getOperand(0), op->getOperand(1), Value(),
                       /*transposeW=*/false);
  }
  return std::nullopt;
}

/// An epilogue being built: its steps, and the residual tensor if any.
struct Epilogue {
  SmallVector<Attribute> steps;
  Value residual;
};

/// The step `user` applies to its operand `value` (the product's result
/// so far), added to `epilogue`; false when it is not one the library
/// applies.
bool addStep(Operation *user, Value value, Epilogue &epilogue,
             MLIRContext *ctx) {
  using kernel::StepKind;
  auto add = [&](StepKind kind, double alpha = 0, double beta = 0) {
    // Two affine steps are one: a2 (a1 y + b1) + b2. (oneDNN 2.6 computes
    // two linear post-ops in a row wrongly.)
    auto last = epilogue.steps.empty()
                    ? kernel::StepAttr()
                    : llvm::cast<kernel::StepAttr>(epilogue.steps.back());
    if (kind == StepKind::Linear && last &&
        last.getKind() == StepKind::Linear) {
      double a1 = last.getAlpha().convertToDouble();
      double b1 = last.getBeta().convertToDouble();
      epilogue.steps.back() =
          kernel::StepAttr::get(ctx, kind, alpha * a1, alpha * b1 + beta);
      return true;
    }
    epilogue.steps.push_back(kernel::StepAttr::get(ctx, kind, alpha, beta));
    return true;
  };
  if (user->getNumResults() != 1 || user->getOperand(0) != value ||
      user->getResult(0).getType() != value.getType())
    return false;
  if (llvm::isa<ts::AtenReluOp>(user))
    return add(StepKind::Relu);
  if (llvm::isa<ts::AtenRelu6Op>(user))
    return add(StepKind::Clip, 0, 6);
  if (llvm::isa<ts::AtenSiluOp>(user))
    return add(StepKind::Swish, 1);
  if (llvm::isa<ts::AtenHardswishOp>(user))
    return add(StepKind::Hardswish);
  if (llvm::isa<ts::AtenSigmoidOp>(user))
    return add(StepKind::Sigmoid);
  if (llvm::isa<ts::AtenTanhOp>(user))
    return add(StepKind::Tanh);
  if (auto leaky = llvm::dyn_cast<ts::AtenLeakyReluOp>(user)) {
    std::optional<double> slope = getConstNumber(leaky.getNegativeSlope());
    return slope && add(StepKind::Relu, *slope);
  }
  if (auto hardtanh = llvm::dyn_cast<ts::AtenHardtanhOp>(user)) {
    std::optional<double> lo = getConstNumber(hardtanh.getMinVal());
    std::optional<double> hi = getConstNumber(hardtanh.getMaxVal());
    return lo && hi && *lo <= *hi && add(StepKind::Clip, *lo, *hi);
  }
  if (auto clamp = llvm::dyn_cast<ts::AtenClampOp>(user)) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    std::optional<double> lo = isConstNone(clamp->getOperand(1))
                                   ? std::optional<double>(-inf)
                                   : getConstNumber(clamp->getOperand(1));
    std::optional<double> hi = isConstNone(clamp->getOperand(2))
                                   ? std::optional<double>(inf)
                                   : getConstNumber(clamp->getOperand(2));
    return lo && hi && *lo <= *hi && add(StepKind::Clip, *lo, *hi);
  }
  if (auto gelu = llvm::dyn_cast<ts::AtenGeluOp>(user)) {
    StringRef approximate = getConstString(gelu.getApproximate());
    if (approximate == "none")
      return add(StepKind::GeluErf);
    if (approximate == "tanh")
      return add(StepKind::GeluTanh);
    return false;
  }
  if (auto elu = llvm::dyn_cast<ts::AtenEluOp>(user)) {
    std::optional<double> alpha = getConstNumber(elu.getAlpha());
    std::optional<double> scale = getConstNumber(elu.getScale());
    std::optional<double> inputScale = getConstNumber(elu.getInputScale());
    return alpha && scale == 1.0 && inputScale == 1.0 &&
           add(StepKind::Elu, *alpha);
  }
  if (auto mul = llvm::dyn_cast<ts::AtenMulScalarOp>(user)) {
    std::optional<double> c = getConstNumber(mul.getOther());
    return c && add(StepKind::Linear, *c, 0);
  }
  if (auto div = llvm::dyn_cast<ts::AtenDivScalarOp>(user)) {
    std::optional<double> c = getConstNumber(div.getOther());
    return c && *c != 0 && add(StepKind::Linear, 1 / *c, 0);
  }
  if (llvm::isa<ts::AtenAddScalarOp, ts::AtenSubScalarOp>(user)) {
    std::optional<double> c = getConstNumber(user->getOperand(1));
    std::optional<double> alpha = getConstNumber(user->getOperand(2));
    if (!c || !alpha)
      return false;
    double shift = *c * *alpha;
    return add(StepKind::Linear, 1,
               llvm::isa<ts::AtenSubScalarOp>(user) ? -shift : shift);
  }
  return false;
}

/// The residual add `user` makes of `value` and another tensor of its
/// shape (either operand order, alpha 1), added to `epilogue`.
bool addResidual(Operation *user, Value value, Epilogue &epilogue,
                 MLIRContext *ctx) {
  auto add = llvm::dyn_cast<ts::AtenAddTensorOp>(user);
  if (!add || epilogue.residual || getConstNumber(add.getAlpha()) != 1.0 ||
      add.getSelf() == add.getOther() ||
      add.getResult().getType() != value.getType())
    return false;
  Value other = add.getSelf() == value ? add.getOther() : add.getSelf();
  if (other.getType() != value.getType())
    return false;
  epilogue.residual = other;
  epilogue.steps.push_back(
      kernel::StepAttr::get(ctx, kernel::StepKind::Residual, 0, 0));
  return true;
}

/// Replaces `product` and the longest epilogue chain after it by one
/// kernel op, where the chain's last op was.
void formKernel(const Product &product, MLIRContext *ctx) {
  Epilogue epilogue;
  Operation *last = product.op;
  Value value = product.op->getResult(0);
  bool writes = false;
  while (value.hasOneUse()) {
    Operation *user = *value.getUsers().begin();
    if (user->getBlock() != product.op->getBlock())
      break;
    // The product moves to `user`: nothing between may write memory.
    for (Operation *op = last->getNextNode(); op != user && !writes;
         op = op->getNextNode())
      writes = ts::mayWriteMemory(op);
    if (writes || (!addStep(user, value, epilogue, ctx) &&
                   !addResidual(user, value, epilogue, ctx)))
      break;
    last = user;
    value = user->getResult(0);
  }
  OpBuilder b(last);
  Value result;
  ArrayAttr steps = b.getArrayAttr(epilogue.steps);
  Type type = last->getResult(0).getType();
  if (product.isConv) {
    result = kernel::Conv2dOp::create(
                 b, product.op->getLoc(), type, product.input, product.weight,
                 product.bias, epilogue.residual, /*init=*/Value(),
                 b.getDenseI64ArrayAttr(product.stride),
                 b.getDenseI64ArrayAttr(product.padding),
                 b.getDenseI64ArrayAttr(product.dilation),
                 b.getI64IntegerAttr(product.groups), steps)
                 .getResult();
  } else {
    result = kernel::MatmulOp::create(
                 b, product.op->getLoc(), type, product.input, product.weight,
                 product.bias, epilogue.residual, /*init=*/Value(),
                 product.transposeW ? b.getUnitAttr() : UnitAttr(), steps)
                 .getResult();
  }
  last->getResult(0).replaceAllUsesWith(result);
  // The chain, from its end: each op's only user is erased before it.
  for (Operation *op = last; op != product.op;) {
    Operation *previous = op->getOperand(0).getDefiningOp();
    if (auto add = llvm::dyn_cast<ts::AtenAddTensorOp>(op))
      previous =
          (add.getSelf() == epilogue.residual ? add.getOther() : add.getSelf())
              .getDefiningOp();
    op->erase();
    op = previous;
  }
  product.op->erase();
}

struct TSLibraryKernelsPass
    : public tsmlir::impl::TSLibraryKernelsPassBase<TSLibraryKernelsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> products;
    getOperation().walk([&](Operation *op) {
      if (matchProduct(op))
        products.push_back(op);
    });
    // Matched again as each is formed: forming one replaces values the
    // next may read.
    for (Operation *op : products)
      if (std::optional<Product> product = matchProduct(op))
        formKernel(*product, &getContext());
  }
};

} // namespace
