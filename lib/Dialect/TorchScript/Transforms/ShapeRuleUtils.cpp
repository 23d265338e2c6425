//===- ShapeRuleUtils.cpp - Helpers shared by the shape rules -------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ShapeRuleUtils.h"
#include "tsmlir/Dialect/TorchScript/IR/Broadcast.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir::tsmlir::ts::shape {

//===----------------------------------------------------------------------===//
// Reading operands
//===----------------------------------------------------------------------===//

TensorType getTensorType(Value value) {
  return value ? llvm::dyn_cast<TensorType>(value.getType()) : TensorType();
}

Sizes getSizes(Value value) {
  TensorType type = getTensorType(value);
  if (!type || !type.hasSizes())
    return std::nullopt;
  return SmallVector<int64_t>(type.getSizes().asArrayRef());
}

std::optional<int64_t> getRank(Value value) {
  TensorType type = getTensorType(value);
  return type ? type.getRank() : std::nullopt;
}

Type getDtype(Value value) {
  TensorType type = getTensorType(value);
  return type ? type.getDtype() : Type();
}

StringAttr getDevice(Value value) {
  TensorType type = getTensorType(value);
  return type ? type.getDevice() : StringAttr();
}

StringAttr getCommonDevice(ValueRange values) {
  StringAttr device;
  for (Value v : values) {
    TensorType type = getTensorType(v);
    if (!type)
      continue;
    if (!type.getDevice() || (device && device != type.getDevice()))
      return {};
    device = type.getDevice();
  }
  return device;
}

TensorType makeTensor(MLIRContext *ctx, Type dtype, const Sizes &sizes,
                      StringAttr device) {
  // A negative size or an impossible dtype comes from inputs the op rejects
  // at run time: state nothing about it.
  DenseI64ArrayAttr sizesAttr;
  if (sizes &&
      llvm::all_of(*sizes, [](int64_t s) { return s >= 0 || s == kUnknown; }))
    sizesAttr = DenseI64ArrayAttr::get(ctx, *sizes);
  if (dtype && !isValidDtype(dtype))
    dtype = {};
  return TensorType::get(ctx, dtype, sizesAttr, DenseI64ArrayAttr(), device,
                         BoolAttr());
}

TensorType withSizes(Value value, const Sizes &sizes) {
  return makeTensor(value.getContext(), getDtype(value), sizes,
                    getDevice(value));
}

TensorType withDtype(Value value, Type dtype) {
  return makeTensor(value.getContext(), dtype, getSizes(value),
                    getDevice(value));
}

TensorType sameAs(Value value) {
  return makeTensor(value.getContext(), getDtype(value), getSizes(value),
                    getDevice(value));
}

//===----------------------------------------------------------------------===//
// Sizes
//===----------------------------------------------------------------------===//

Sizes broadcast(ArrayRef<Sizes> shapes) {
  SmallVector<ArrayRef<int64_t>> known;
  for (const Sizes &s : shapes) {
    if (!s)
      return std::nullopt;
    known.push_back(*s);
  }
  return broadcastShapes(known);
}

std::optional<int64_t> wrapDim(int64_t dim, int64_t rank) {
  int64_t positions = std::max<int64_t>(rank, 1);
  if (dim < -positions || dim >= positions)
    return std::nullopt;
  return dim < 0 ? dim + positions : dim;
}

int64_t mulSizes(int64_t a, int64_t b) {
  if (a == 0 || b == 0)
    return 0;
  int64_t r;
  if (a == kUnknown || b == kUnknown || __builtin_mul_overflow(a, b, &r))
    return kUnknown;
  return r;
}

int64_t addSizes(int64_t a, int64_t b) {
  int64_t r;
  if (a == kUnknown || b == kUnknown || __builtin_add_overflow(a, b, &r))
    return kUnknown;
  return r;
}

int64_t numElements(ArrayRef<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n = mulSizes(n, s);
  return n;
}

int64_t floorDivSizes(int64_t a, int64_t b) {
  if (a == kUnknown || b == kUnknown || b <= 0)
    return kUnknown;
  int64_t q = a / b;
  if (a % b != 0 && a < 0)
    --q;
  return q;
}

int64_t poolSize(int64_t in, int64_t k, int64_t pad, int64_t stride,
                 int64_t dilation, bool ceilMode) {
  if (in == kUnknown || stride <= 0)
    return kUnknown;
  int64_t out = floorDivSizes(in + 2 * pad - dilation * (k - 1) - 1 +
                                  (ceilMode ? stride - 1 : 0),
                              stride) +
                1;
  if (ceilMode && (out - 1) * stride >= in + pad)
    --out;
  return out;
}

std::optional<SmallVector<int64_t>> getReducedDims(const ShapeFacts &facts,
                                                   Value dims, int64_t rank) {
  SmallVector<int64_t> all = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  if (facts.isNone(dims))
    return all;
  std::optional<SmallVector<int64_t>> list = facts.getIntList(dims, 1);
  if (!list)
    return std::nullopt;
  if (list->empty())
    return all;
  SmallVector<int64_t> result;
  for (int64_t d : *list) {
    if (d == kUnknown)
      return std::nullopt;
    std::optional<int64_t> w = wrapDim(d, rank);
    if (!w)
      return std::nullopt;
    result.push_back(*w);
  }
  llvm::sort(result);
  result.erase(std::unique(result.begin(), result.end()), result.end());
  return result;
}

SmallVector<int64_t> reduceSizes(ArrayRef<int64_t> sizes,
                                 ArrayRef<int64_t> dims, bool keepdim) {
  SmallVector<int64_t> result;
  for (auto [i, s] : llvm::enumerate(sizes)) {
    if (!llvm::is_contained(dims, static_cast<int64_t>(i)))
      result.push_back(s);
    else if (keepdim)
      result.push_back(1);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Dtypes
//===----------------------------------------------------------------------===//

Type getDefaultFloat(MLIRContext *ctx) { return Float32Type::get(ctx); }
Type getLong(MLIRContext *ctx) {
  return IntegerType::get(ctx, 64, IntegerType::Signed);
}
Type getBool(MLIRContext *ctx) { return IntegerType::get(ctx, 1); }

bool isBoolDtype(Type dtype) { return dtype && dtype.isInteger(1); }
bool isFloatDtype(Type dtype) {
  return dtype && llvm::isa<mlir::FloatType>(dtype);
}
bool isComplexDtype(Type dtype) {
  return dtype && llvm::isa<mlir::ComplexType>(dtype);
}
bool isIntegralDtype(Type dtype) {
  return dtype && llvm::isa<IntegerType>(dtype);
}

namespace {
using Priority = PromotionPriority;

/// One possibility for an operand: its dtype as promotion sees it, or
/// absent (None).
struct Candidate {
  Type dtype;
  Priority priority;
  bool absent = false;
};
} // namespace

/// The possibilities for one operand, or failure when its dtype is unknown.
/// Empty when it takes no part.
static LogicalResult getCandidates(Value operand, const ShapeFacts &facts,
                                   SmallVectorImpl<Candidate> &out) {
  MLIRContext *ctx = operand.getContext();
  Type type = operand.getType();
  auto scalar = [&](Type t) -> LogicalResult {
    if (llvm::isa<NumberType>(t)) {
      // A Scalar: its constant tells its kind; otherwise int or float.
      Attribute cst = facts.getConstant(operand);
      if (!llvm::isa_and_nonnull<FloatAttr>(cst))
        out.push_back({getLong(ctx), Priority::Wrapped});
      if (!llvm::isa_and_nonnull<IntegerAttr>(cst))
        out.push_back({getDefaultFloat(ctx), Priority::Wrapped});
    } else if (Type dtype = getWrappedNumberDtype(t)) {
      out.push_back({dtype, Priority::Wrapped});
    }
    return success();
  };
  // A tensor takes part as dimensioned, 0-d, or either when its rank is
  // not known.
  auto addTensor = [&](TensorType tensor) -> LogicalResult {
    if (!tensor.getDtype())
      return failure();
    std::optional<int64_t> rank = tensor.getRank();
    if (!rank || *rank > 0)
      out.push_back({tensor.getDtype(), Priority::Dimensioned});
    if (!rank || *rank == 0)
      out.push_back({tensor.getDtype(), Priority::ZeroDim});
    return success();
  };
  if (auto tensor = llvm::dyn_cast<TensorType>(type))
    return addTensor(tensor);
  if (llvm::isa<NoneType>(type) || facts.isNone(operand))
    return success();
  if (auto optional = llvm::dyn_cast<OptionalType>(type)) {
    out.push_back({Type(), Priority::Wrapped, /*absent=*/true});
    Type contained = optional.getContainedType();
    if (auto tensor = llvm::dyn_cast<TensorType>(contained))
      return addTensor(tensor);
    return scalar(contained);
  }
  return scalar(type);
}

Type getResultType(ValueRange operands, const ShapeFacts &facts) {
  SmallVector<SmallVector<Candidate, 2>> choices;
  size_t combinations = 1;
  for (Value operand : operands) {
    SmallVector<Candidate, 2> candidates;
    if (failed(getCandidates(operand, facts, candidates)))
      return {};
    if (candidates.empty())
      continue;
    combinations *= candidates.size();
    if (combinations > 64)
      return {};
    choices.push_back(std::move(candidates));
  }
  if (choices.empty())
    return {};
  // Every combination of possibilities must give the same type.
  Type result;
  SmallVector<size_t> pick(choices.size(), 0);
  for (size_t n = 0; n < combinations; ++n) {
    size_t rest = n;
    for (size_t i = 0; i < choices.size(); ++i) {
      pick[i] = rest % choices[i].size();
      rest /= choices[i].size();
    }
    ResultTypeState state;
    for (size_t i = 0; i < choices.size(); ++i) {
      const Candidate &c = choices[i][pick[i]];
      if (!c.absent)
        state.add(c.dtype, c.priority);
    }
    Type type = state.getResult();
    if (!type || (result && result != type))
      return {};
    result = type;
  }
  return result;
}

Type toFloatIfIntegral(Type dtype) {
  return isIntegralDtype(dtype) ? getDefaultFloat(dtype.getContext()) : dtype;
}

} // namespace mlir::tsmlir::ts::shape
