//===- PrimShapeRules.cpp - Shape rules of constants and containers -------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Types flow through tuples (immutable) and through lists that nothing
// modifies; casts pass their operand's type on.
//
//===----------------------------------------------------------------------===//

#include "ShapeRuleUtils.h"

namespace mlir::tsmlir::ts {
using namespace shape;

/// A tensor constant: its elements' type and shape.
static void constantRule(Operation *op, const ShapeFacts &,
                         SmallVectorImpl<Type> &results) {
  auto cst = llvm::cast<PrimConstantOp>(op);
  auto elements = llvm::dyn_cast_or_null<ElementsAttr>(cst.getValueAttr());
  if (!elements || !llvm::isa<TensorType>(cst.getType()))
    return;
  ShapedType shaped = elements.getShapedType();
  Sizes sizes;
  if (shaped.hasRank())
    sizes = SmallVector<int64_t>(shaped.getShape());
  Type dtype = shaped.getElementType();
  results[0] =
      makeTensor(op->getContext(), isValidDtype(dtype) ? dtype : Type(), sizes);
}

/// A module state's read: the state's value's dtype and sizes.
static void moduleStateReadRule(Operation *op, const ShapeFacts &,
                                SmallVectorImpl<Type> &results) {
  auto read = llvm::cast<ModuleStateReadOp>(op);
  if (auto state = SymbolTable::lookupNearestSymbolFrom<ModuleStateOp>(
          op, read.getStateAttr()))
    results[0] = state.getValueType();
}

static void tupleConstructRule(Operation *op, const ShapeFacts &,
                               SmallVectorImpl<Type> &results) {
  auto tuple = llvm::cast<PrimTupleConstructOp>(op);
  results[0] = TupleType::get(op->getContext(),
                              llvm::to_vector(tuple.getElements().getTypes()),
                              llvm::cast<TupleType>(tuple.getType()).getName());
}

static void tupleUnpackRule(Operation *op, const ShapeFacts &,
                            SmallVectorImpl<Type> &results) {
  auto unpack = llvm::cast<PrimTupleUnpackOp>(op);
  ArrayRef<Type> elements =
      llvm::cast<TupleType>(unpack.getTuple().getType()).getElementTypes();
  if (elements.size() == results.size())
    llvm::copy(elements, results.begin());
}

static void tupleIndexRule(Operation *op, const ShapeFacts &facts,
                           SmallVectorImpl<Type> &results) {
  auto index = llvm::cast<PrimTupleIndexOp>(op);
  ArrayRef<Type> elements =
      llvm::cast<TupleType>(index.getTuple().getType()).getElementTypes();
  std::optional<int64_t> i = facts.getInt(index.getIndex());
  if (!i)
    return;
  int64_t n = elements.size();
  int64_t wrapped = *i < 0 ? *i + n : *i;
  if (wrapped >= 0 && wrapped < n)
    results[0] = elements[wrapped];
}

/// A list of tensors: the facts all elements share.
static void listConstructRule(Operation *op, const ShapeFacts &,
                              SmallVectorImpl<Type> &results) {
  auto list = llvm::cast<PrimListConstructOp>(op);
  auto listType = llvm::cast<ListType>(list.getType());
  if (!llvm::isa<TensorType>(listType.getElementType()) ||
      list.getElements().empty())
    return;
  Type element = list.getElements().front().getType();
  for (Type t : list.getElements().getTypes())
    element = joinTypes(element, t, listType.getElementType());
  results[0] = ListType::get(op->getContext(), element);
}

/// l1 + l2 (aten::add.t) of tensor lists: the facts the elements of both
/// share.
static void listAddRule(Operation *op, const ShapeFacts &,
                        SmallVectorImpl<Type> &results) {
  auto listType = llvm::dyn_cast<ListType>(op->getResult(0).getType());
  auto a = llvm::dyn_cast<ListType>(op->getOperand(0).getType());
  auto b = llvm::dyn_cast<ListType>(op->getOperand(1).getType());
  if (!listType || !a || !b ||
      !llvm::isa<TensorType>(listType.getElementType()))
    return;
  results[0] = ListType::get(
      op->getContext(), joinTypes(a.getElementType(), b.getElementType(),
                                  listType.getElementType()));
}

/// The types of the elements of `list`, one per element, when known.
static std::optional<SmallVector<Type>>
getElementTypes(Value list, const ShapeFacts &facts) {
  if (std::optional<SmallVector<Value>> elements = facts.getListElements(list))
    return llvm::to_vector(ValueRange(*elements).getTypes());
  Operation *def = list.getDefiningOp();
  if (def && isUnmodifiedList(list) &&
      llvm::isa<AtenChunkOp, AtenSplitTensorOp, AtenSplitWithSizesOp,
                AtenUnbindIntOp>(def))
    return getSplitTypes(def, facts);
  return std::nullopt;
}

static void listUnpackRule(Operation *op, const ShapeFacts &facts,
                           SmallVectorImpl<Type> &results) {
  auto unpack = llvm::cast<PrimListUnpackOp>(op);
  std::optional<SmallVector<Type>> types =
      getElementTypes(unpack.getList(), facts);
  if (types && types->size() == results.size()) {
    llvm::copy(*types, results.begin());
    return;
  }
  Type element =
      llvm::cast<ListType>(unpack.getList().getType()).getElementType();
  for (Type &r : results)
    r = element;
}

static void getItemRule(Operation *op, const ShapeFacts &facts,
                        SmallVectorImpl<Type> &results) {
  auto getItem = llvm::cast<Aten__Getitem__TOp>(op);
  std::optional<SmallVector<Type>> types =
      getElementTypes(getItem.getListValue(), facts);
  std::optional<int64_t> index = facts.getInt(getItem.getIdx());
  if (types && index) {
    int64_t n = types->size();
    int64_t i = *index < 0 ? *index + n : *index;
    if (i >= 0 && i < n) {
      results[0] = (*types)[i];
      return;
    }
  }
  results[0] =
      llvm::cast<ListType>(getItem.getListValue().getType()).getElementType();
}

/// unchecked_cast: the operand's type, less Optional (for a tensor, or a
/// list or tuple whose element facts the operand states: the cast a folded
/// prim::If leaves between a refined branch value and the If's declared
/// type).
static void uncheckedCastRule(Operation *op, const ShapeFacts &,
                              SmallVectorImpl<Type> &results) {
  Type type = op->getOperand(0).getType();
  if (auto optional = llvm::dyn_cast<OptionalType>(type))
    type = optional.getContainedType();
  if (llvm::isa<TensorType, ListType, TupleType>(type))
    results[0] = type;
}

/// prim::IfThenElse(cond, x, y).
static void ifThenElseRule(Operation *op, const ShapeFacts &facts,
                           SmallVectorImpl<Type> &results) {
  Value x = op->getOperand(1), y = op->getOperand(2);
  if (std::optional<bool> cond = facts.getBool(op->getOperand(0)))
    results[0] = *cond ? x.getType() : y.getType();
  else
    results[0] = joinTypes(x.getType(), y.getType(), Type());
}

//===----------------------------------------------------------------------===//
// Rule registration
//===----------------------------------------------------------------------===//

void populatePrimShapeRules(ShapeRuleSet &rules) {
  rules.add<PrimConstantOp>(constantRule);
  rules.add<ModuleStateReadOp>(moduleStateReadRule);
  rules.add<PrimTupleConstructOp>(tupleConstructRule);
  rules.add<PrimTupleUnpackOp>(tupleUnpackRule);
  rules.add<PrimTupleIndexOp>(tupleIndexRule);
  rules.add<PrimListConstructOp>(listConstructRule);
  rules.add<AtenAddTOp>(listAddRule);
  rules.add<PrimListUnpackOp>(listUnpackRule);
  rules.add<Aten__Getitem__TOp>(getItemRule);
  rules.add<PrimUncheckedCastOp, PrimUncheckedUnwrapOptionalOp>(
      uncheckedCastRule);
  rules.add<PrimIfThenElseOp>(ifThenElseRule);
}

} // namespace mlir::tsmlir::ts
