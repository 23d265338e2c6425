//===- TypeLattice.cpp - Refining and joining TorchScript types -----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/Transforms/ShapeInference.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir::tsmlir::ts {

static constexpr int64_t kUnknown = TensorType::kUnknown;

//===----------------------------------------------------------------------===//
// Refinement
//===----------------------------------------------------------------------===//

/// `existing`'s fact, or `inferred`'s when `existing` states none.
template <typename T>
static T refineFact(T existing, T inferred, bool &conflict) {
  if (!existing)
    return inferred;
  conflict |= inferred && inferred != existing;
  return existing;
}

static TensorType refineTensor(TensorType existing, TensorType inferred,
                               bool &conflict) {
  MLIRContext *ctx = existing.getContext();
  DenseI64ArrayAttr sizes = existing.getSizes();
  DenseI64ArrayAttr inferredSizes = inferred.getSizes();
  if (!sizes) {
    sizes = inferredSizes;
  } else if (inferredSizes) {
    if (sizes.size() != inferredSizes.size()) {
      conflict = true;
    } else {
      SmallVector<int64_t> merged(sizes.asArrayRef());
      for (auto [m, i] : llvm::zip_equal(merged, inferredSizes.asArrayRef())) {
        if (m == kUnknown)
          m = i;
        else
          conflict |= i != kUnknown && i != m;
      }
      sizes = DenseI64ArrayAttr::get(ctx, merged);
    }
  }
  DenseI64ArrayAttr strides = existing.getStrides();
  if (!strides && inferred.getStrides() && sizes &&
      inferred.getStrides().size() == sizes.size())
    strides = inferred.getStrides();
  return TensorType::get(
      ctx, refineFact(existing.getDtype(), inferred.getDtype(), conflict),
      sizes, strides,
      refineFact(existing.getDevice(), inferred.getDevice(), conflict),
      refineFact(existing.getRequiresGrad(), inferred.getRequiresGrad(),
                 conflict));
}

Type refineType(Type existing, Type inferred, bool *conflict) {
  bool ignored = false;
  bool &c = conflict ? *conflict : ignored;
  if (!inferred || existing == inferred)
    return existing;
  if (!existing)
    return inferred;
  if (auto e = llvm::dyn_cast<TensorType>(existing)) {
    if (auto i = llvm::dyn_cast<TensorType>(inferred))
      return refineTensor(e, i, c);
    return existing;
  }
  if (auto e = llvm::dyn_cast<TupleType>(existing)) {
    auto i = llvm::dyn_cast<TupleType>(inferred);
    if (!i || i.getElementTypes().size() != e.getElementTypes().size())
      return existing;
    SmallVector<Type> elements;
    for (auto [ee, ie] :
         llvm::zip_equal(e.getElementTypes(), i.getElementTypes()))
      elements.push_back(refineType(ee, ie, &c));
    return TupleType::get(existing.getContext(), elements, e.getName());
  }
  if (auto e = llvm::dyn_cast<ListType>(existing)) {
    if (auto i = llvm::dyn_cast<ListType>(inferred))
      return ListType::get(
          existing.getContext(),
          refineType(e.getElementType(), i.getElementType(), &c));
    return existing;
  }
  if (auto e = llvm::dyn_cast<OptionalType>(existing)) {
    if (auto i = llvm::dyn_cast<OptionalType>(inferred))
      return OptionalType::get(
          existing.getContext(),
          refineType(e.getContainedType(), i.getContainedType(), &c));
    return existing;
  }
  return existing;
}

//===----------------------------------------------------------------------===//
// Join
//===----------------------------------------------------------------------===//

template <typename T> static T agreed(T a, T b) { return a == b ? a : T(); }

/// The join, or null when the two have no common refinement of their kind.
static Type join(Type a, Type b) {
  if (a == b)
    return a;
  MLIRContext *ctx = a.getContext();
  if (auto ta = llvm::dyn_cast<TensorType>(a)) {
    auto tb = llvm::dyn_cast<TensorType>(b);
    if (!tb)
      return {};
    DenseI64ArrayAttr sizes;
    if (ta.hasSizes() && tb.hasSizes() &&
        ta.getSizes().size() == tb.getSizes().size()) {
      SmallVector<int64_t> joined;
      for (auto [x, y] : llvm::zip_equal(ta.getSizes().asArrayRef(),
                                         tb.getSizes().asArrayRef()))
        joined.push_back(x == y ? x : kUnknown);
      sizes = DenseI64ArrayAttr::get(ctx, joined);
    }
    DenseI64ArrayAttr strides;
    if (sizes && ta.getSizes() == tb.getSizes())
      strides = agreed(ta.getStrides(), tb.getStrides());
    return TensorType::get(ctx, agreed(ta.getDtype(), tb.getDtype()), sizes,
                           strides, agreed(ta.getDevice(), tb.getDevice()),
                           agreed(ta.getRequiresGrad(), tb.getRequiresGrad()));
  }
  if (auto ta = llvm::dyn_cast<TupleType>(a)) {
    auto tb = llvm::dyn_cast<TupleType>(b);
    if (!tb || ta.getName() != tb.getName() ||
        ta.getElementTypes().size() != tb.getElementTypes().size())
      return {};
    SmallVector<Type> elements;
    for (auto [x, y] :
         llvm::zip_equal(ta.getElementTypes(), tb.getElementTypes())) {
      Type j = join(x, y);
      if (!j)
        return {};
      elements.push_back(j);
    }
    return TupleType::get(ctx, elements, ta.getName());
  }
  if (auto la = llvm::dyn_cast<ListType>(a)) {
    auto lb = llvm::dyn_cast<ListType>(b);
    Type j = lb ? join(la.getElementType(), lb.getElementType()) : Type();
    return j ? ListType::get(ctx, j) : Type();
  }
  if (auto oa = llvm::dyn_cast<OptionalType>(a)) {
    auto ob = llvm::dyn_cast<OptionalType>(b);
    Type j = ob ? join(oa.getContainedType(), ob.getContainedType()) : Type();
    return j ? OptionalType::get(ctx, j) : Type();
  }
  return {};
}

Type joinTypes(Type a, Type b, Type fallback) {
  if (!a || !b)
    return fallback;
  Type j = join(a, b);
  return j ? j : fallback;
}

bool isFullyRefinedTensor(Type type) {
  auto tensor = llvm::dyn_cast<TensorType>(type);
  return tensor && tensor.getDtype() && tensor.hasStaticShape();
}

} // namespace mlir::tsmlir::ts
