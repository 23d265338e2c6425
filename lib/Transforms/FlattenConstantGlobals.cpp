//===- FlattenConstantGlobals.cpp - Constants as one-dimensional globals --===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tsmlir {
#define GEN_PASS_DEF_TSFLATTENCONSTANTGLOBALSPASS
#include "tsmlir/Transforms/Passes.h.inc"
} // namespace mlir::tsmlir

using namespace mlir;

/// `value` with the type `type` (the same elements in the same order).
static Attribute reshapeElements(Attribute value, ShapedType type) {
  if (auto dense = llvm::dyn_cast<DenseElementsAttr>(value))
    return dense.reshape(type);
  if (auto resource = llvm::dyn_cast<DenseResourceElementsAttr>(value))
    return DenseResourceElementsAttr::get(type, resource.getRawHandle());
  return Attribute();
}

namespace {
class TSFlattenConstantGlobalsPass
    : public tsmlir::impl::TSFlattenConstantGlobalsPassBase<
          TSFlattenConstantGlobalsPass> {
public:
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<MemRefType> flattened;
    for (auto global : module.getOps<memref::GlobalOp>()) {
      MemRefType type = global.getType();
      std::optional<Attribute> value = global.getInitialValue();
      if (!value || type.getRank() < 2 || !type.hasStaticShape() ||
          !type.getLayout().isIdentity())
        continue;
      auto flat =
          MemRefType::get({type.getNumElements()}, type.getElementType(),
                          AffineMap(), type.getMemorySpace());
      Attribute flatValue =
          reshapeElements(*value, RankedTensorType::get(flat.getShape(),
                                                        flat.getElementType()));
      if (!flatValue)
        continue;
      global.setType(flat);
      global.setInitialValueAttr(flatValue);
      flattened[global.getSymName()] = type;
    }
    if (flattened.empty())
      return;
    module.walk([&](memref::GetGlobalOp get) {
      auto it = flattened.find(get.getName());
      if (it == flattened.end())
        return;
      MemRefType shaped = it->second;
      OpBuilder b(get);
      auto flatGet = memref::GetGlobalOp::create(
          b, get.getLoc(),
          MemRefType::get({shaped.getNumElements()}, shaped.getElementType(),
                          AffineMap(), shaped.getMemorySpace()),
          get.getName());
      SmallVector<ReassociationIndices> all(1);
      for (int64_t d = 0; d < shaped.getRank(); ++d)
        all.front().push_back(d);
      auto view = memref::ExpandShapeOp::create(b, get.getLoc(), shaped,
                                                flatGet.getResult(), all);
      get.replaceAllUsesWith(view.getResult());
      get.erase();
    });
  }
};
} // namespace
