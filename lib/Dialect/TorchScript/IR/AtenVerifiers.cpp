//===- AtenVerifiers.cpp - Verifiers of schema-described ops --------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Operand types are checked by ODS constraints. These verifiers check what the
// refined types make checkable: broadcasting of known shapes, ranks of matrix
// operands, dimension arguments given as constants, element counts of views.
// Where the types say nothing, they accept: PyTorch checks at run time.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/Broadcast.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "ListFacts.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::tsmlir::ts {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printDims(os, shape);
  return s;
}

/// Checks that the tensors among `operands` whose sizes are known broadcast
/// together, and that a result with known sizes has the broadcast rank and
/// sizes.
static LogicalResult verifyBroadcast(Operation *op, ValueRange operands,
                                     Value result) {
  SmallVector<int64_t> shape;
  bool allKnown = true;
  std::string seen;
  for (Value v : operands) {
    auto type = llvm::dyn_cast<TensorType>(v.getType());
    if (!type)
      continue;
    if (!type.hasSizes()) {
      allKnown = false;
      continue;
    }
    ArrayRef<int64_t> sizes = type.getSizes().asArrayRef();
    if (!seen.empty())
      seen += " and ";
    seen += shapeStr(sizes);
    std::optional<SmallVector<int64_t>> next = broadcastShapes({shape, sizes});
    if (!next)
      return op->emitOpError() << "operands of sizes " << seen
                               << " cannot be broadcast together";
    shape = std::move(*next);
  }
  auto resultType = llvm::dyn_cast<TensorType>(result.getType());
  if (!allKnown || !resultType || !resultType.hasSizes())
    return success();
  ArrayRef<int64_t> rs = resultType.getSizes().asArrayRef();
  if (rs.size() != shape.size())
    return op->emitOpError() << "result of rank " << rs.size()
                             << " does not match the broadcast rank "
                             << shape.size() << " of operands " << seen;
  for (auto [r, s] : llvm::zip_equal(rs, shape))
    if (r != TensorType::kUnknown && s != TensorType::kUnknown && r != s)
      return op->emitOpError() << "result sizes " << shapeStr(rs)
                               << " do not match the broadcast sizes "
                               << shapeStr(shape);
  return success();
}

/// Comparisons produce booleans.
static LogicalResult verifyBoolResult(Operation *op, Value result) {
  Type dtype = llvm::cast<TensorType>(result.getType()).getDtype();
  if (dtype && !dtype.isInteger(1))
    return op->emitOpError() << "result dtype must be i1 (Bool), got "
                             << dtype;
  return success();
}

/// Checks a constant dimension argument against a known rank. `extra` widens
/// the range (unsqueeze accepts rank + 1 positions).
static LogicalResult verifyDim(Operation *op, Value tensor, Value dim,
                               StringRef name, int64_t extra = 0) {
  std::optional<int64_t> rank = llvm::cast<TensorType>(tensor.getType()).getRank();
  std::optional<int64_t> d = getConstantInt(dim);
  if (!rank || !d)
    return success();
  // PyTorch treats a 0-d tensor as having one wrappable dimension.
  int64_t positions = std::max<int64_t>(*rank + extra, 1);
  if (*d < -positions || *d >= positions)
    return op->emitOpError()
           << name << " " << *d << " is out of range for a rank-" << *rank
           << " tensor (expected [" << -positions << ", " << positions - 1
           << "])";
  return success();
}

/// The constant elements of an int list built by prim::ListConstruct or
/// prim::Constant that nothing modifies, or nullopt.
static std::optional<SmallVector<int64_t>> getConstantIntList(Value list) {
  if (!isUnmodifiedList(list))
    return std::nullopt;
  SmallVector<int64_t> values;
  if (auto construct = list.getDefiningOp<PrimListConstructOp>()) {
    for (Value element : construct.getElements()) {
      std::optional<int64_t> v = getConstantInt(element);
      if (!v)
        return std::nullopt;
      values.push_back(*v);
    }
    return values;
  }
  if (auto cst = list.getDefiningOp<PrimConstantOp>()) {
    auto array = llvm::dyn_cast_or_null<ArrayAttr>(cst.getValueAttr());
    if (!array)
      return std::nullopt;
    for (Attribute a : array) {
      auto i = llvm::dyn_cast<IntegerAttr>(a);
      if (!i)
        return std::nullopt;
      values.push_back(i.getInt());
    }
    return values;
  }
  return std::nullopt;
}

/// view/reshape: at most one -1, and a known element count is preserved.
static LogicalResult verifyViewSizes(Operation *op, Value self, Value sizes) {
  std::optional<SmallVector<int64_t>> target = getConstantIntList(sizes);
  if (!target)
    return success();
  int64_t inferred = 0, product = 1;
  bool overflow = false;
  for (int64_t s : *target) {
    if (s == -1) {
      if (++inferred > 1)
        return op->emitOpError("only one dimension can be inferred (-1)");
      continue;
    }
    if (s < 0)
      return op->emitOpError() << "invalid size " << s;
    overflow |= __builtin_mul_overflow(product, s, &product);
  }
  auto type = llvm::cast<TensorType>(self.getType());
  if (!type.hasStaticShape())
    return success();
  int64_t numel = 1;
  for (int64_t s : type.getSizes().asArrayRef())
    if (__builtin_mul_overflow(numel, s, &numel))
      return success();
  // Sizes whose product is past int64 fit no tensor of known sizes, unless a
  // size is 0 or an inferred size makes an empty tensor's view empty.
  if (overflow && (llvm::is_contained(*target, 0) || (inferred && numel == 0)))
    return success();
  bool ok = !overflow && (inferred ? (product != 0 && numel % product == 0)
                                   : numel == product);
  if (!ok)
    return op->emitOpError() << "cannot view a tensor of sizes "
                             << shapeStr(type.getSizes().asArrayRef()) << " ("
                             << numel << " elements) as " << shapeStr(*target);
  return success();
}

/// mm and bmm: ranks and matching contracting (and batch) dimensions.
static LogicalResult verifyMatmul(Operation *op, Value lhs, Value rhs,
                                  int64_t rank) {
  auto l = llvm::cast<TensorType>(lhs.getType());
  auto r = llvm::cast<TensorType>(rhs.getType());
  for (TensorType t : {l, r})
    if (t.hasSizes() && *t.getRank() != rank)
      return op->emitOpError() << "expects rank-" << rank
                               << " operands, got rank " << *t.getRank();
  if (!l.hasSizes() || !r.hasSizes())
    return success();
  auto known = [](int64_t a, int64_t b) {
    return a != TensorType::kUnknown && b != TensorType::kUnknown;
  };
  ArrayRef<int64_t> ls = l.getSizes().asArrayRef(), rs = r.getSizes().asArrayRef();
  if (known(ls[rank - 1], rs[rank - 2]) && ls[rank - 1] != rs[rank - 2])
    return op->emitOpError() << "contracting dimensions differ: "
                             << shapeStr(ls) << " and " << shapeStr(rs);
  if (rank == 3 && known(ls[0], rs[0]) && ls[0] != rs[0])
    return op->emitOpError() << "batch dimensions differ: " << shapeStr(ls)
                             << " and " << shapeStr(rs);
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//===----------------------------------------------------------------------===//

#define TS_VERIFY_BROADCAST(OP, ...)                                           \
  LogicalResult OP::verify() {                                                 \
    return verifyBroadcast(*this, {__VA_ARGS__}, getResult());                 \
  }

TS_VERIFY_BROADCAST(AtenAddTensorOp, getSelf(), getOther())
TS_VERIFY_BROADCAST(AtenSubTensorOp, getSelf(), getOther())
TS_VERIFY_BROADCAST(AtenMulTensorOp, getSelf(), getOther())
TS_VERIFY_BROADCAST(AtenDivTensorOp, getSelf(), getOther())
TS_VERIFY_BROADCAST(AtenDivTensorModeOp, getSelf(), getOther())
TS_VERIFY_BROADCAST(AtenMinimumOp, getSelf(), getOther())
TS_VERIFY_BROADCAST(AtenMaximumOp, getSelf(), getOther())
TS_VERIFY_BROADCAST(AtenMaxOtherOp, getSelf(), getOther())
TS_VERIFY_BROADCAST(AtenMinOtherOp, getSelf(), getOther())
TS_VERIFY_BROADCAST(AtenPowTensorTensorOp, getSelf(), getExponent())
TS_VERIFY_BROADCAST(AtenWhereSelfOp, getCondition(), getSelf(), getOther())

#undef TS_VERIFY_BROADCAST

#define TS_VERIFY_COMPARE_TENSOR(OP)                                           \
  LogicalResult OP::verify() {                                                 \
    if (failed(verifyBroadcast(*this, {getSelf(), getOther()}, getResult())))  \
      return failure();                                                        \
    return verifyBoolResult(*this, getResult());                               \
  }
#define TS_VERIFY_COMPARE_SCALAR(OP)                                           \
  LogicalResult OP::verify() { return verifyBoolResult(*this, getResult()); }

TS_VERIFY_COMPARE_TENSOR(AtenEqTensorOp)
TS_VERIFY_COMPARE_TENSOR(AtenNeTensorOp)
TS_VERIFY_COMPARE_TENSOR(AtenLtTensorOp)
TS_VERIFY_COMPARE_TENSOR(AtenLeTensorOp)
TS_VERIFY_COMPARE_TENSOR(AtenGtTensorOp)
TS_VERIFY_COMPARE_TENSOR(AtenGeTensorOp)
TS_VERIFY_COMPARE_SCALAR(AtenEqScalarOp)
TS_VERIFY_COMPARE_SCALAR(AtenNeScalarOp)
TS_VERIFY_COMPARE_SCALAR(AtenLtScalarOp)
TS_VERIFY_COMPARE_SCALAR(AtenLeScalarOp)
TS_VERIFY_COMPARE_SCALAR(AtenGtScalarOp)
TS_VERIFY_COMPARE_SCALAR(AtenGeScalarOp)

#undef TS_VERIFY_COMPARE_TENSOR
#undef TS_VERIFY_COMPARE_SCALAR

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

LogicalResult AtenMmOp::verify() {
  return verifyMatmul(*this, getSelf(), getMat2(), 2);
}

LogicalResult AtenBmmOp::verify() {
  return verifyMatmul(*this, getSelf(), getMat2(), 3);
}

//===----------------------------------------------------------------------===//
// Ops with dimension arguments
//===----------------------------------------------------------------------===//

LogicalResult AtenSoftmaxIntOp::verify() {
  return verifyDim(*this, getSelf(), getDim(), "dimension");
}

LogicalResult AtenLogSoftmaxIntOp::verify() {
  return verifyDim(*this, getSelf(), getDim(), "dimension");
}

LogicalResult AtenTransposeIntOp::verify() {
  if (failed(verifyDim(*this, getSelf(), getDim0(), "dim0")))
    return failure();
  return verifyDim(*this, getSelf(), getDim1(), "dim1");
}

LogicalResult AtenUnsqueezeOp::verify() {
  return verifyDim(*this, getSelf(), getDim(), "dimension", /*extra=*/1);
}

LogicalResult AtenSelectIntOp::verify() {
  return verifyDim(*this, getSelf(), getDim(), "dimension");
}

LogicalResult AtenSizeIntOp::verify() {
  return verifyDim(*this, getSelf(), getDim(), "dimension");
}

LogicalResult AtenSqueezeDimOp::verify() {
  return verifyDim(*this, getSelf(), getDim(), "dimension");
}

LogicalResult AtenCatOp::verify() {
  auto construct = getTensors().getDefiningOp<PrimListConstructOp>();
  if (!construct || !isUnmodifiedList(getTensors()))
    return success();
  std::optional<int64_t> rank;
  for (Value t : construct.getElements()) {
    // An element that is no tensor is for the list's own verifier to report,
    // which may run after this one.
    auto type = llvm::dyn_cast<TensorType>(t.getType());
    std::optional<int64_t> r = type ? type.getRank() : std::nullopt;
    if (!r)
      continue;
    if (rank && *r != *rank)
      return emitOpError() << "concatenates tensors of ranks " << *rank
                           << " and " << *r;
    rank = r;
    if (failed(verifyDim(*this, t, getDim(), "dimension")))
      return failure();
  }
  return success();
}

LogicalResult AtenViewOp::verify() {
  return verifyViewSizes(*this, getSelf(), getSize());
}

LogicalResult AtenReshapeOp::verify() {
  return verifyViewSizes(*this, getSelf(), getShape());
}

LogicalResult AtenPermuteOp::verify() {
  std::optional<SmallVector<int64_t>> dims = getConstantIntList(getDims());
  std::optional<int64_t> rank = getSelf().getType().getRank();
  if (!dims || !rank)
    return success();
  if (static_cast<int64_t>(dims->size()) != *rank)
    return emitOpError() << "permutes " << dims->size()
                         << " dimensions of a rank-" << *rank << " tensor";
  SmallVector<bool> seen(*rank, false);
  for (int64_t d : *dims) {
    int64_t n = d < 0 ? d + *rank : d;
    if (n < 0 || n >= *rank || seen[n])
      return emitOpError() << "dims " << shapeStr(*dims)
                           << " are not a permutation of " << *rank
                           << " dimensions";
    seen[n] = true;
  }
  return success();
}

} // namespace mlir::tsmlir::ts
