//===- ShapeInference.h - Dtype and shape inference -------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Forward inference of tensor dtypes, sizes and devices over `ts` graphs.
//
// A *shape rule* computes the types of an op's results from what is known of
// its operands: their (refined) types and the constant values of int, float,
// bool, list and dtype arguments, which `ShapeFacts` answers. Rules are kept
// in a `ShapeRuleSet`, keyed by op, filled by one `populate...ShapeRules`
// function per op family. `inferShapes` sweeps a function once, in order,
// applying the rules and refining result types in place: a type only ever
// becomes more refined, and a fact an existing type states always wins over
// a rule's.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_SHAPEINFERENCE_H
#define TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_SHAPEINFERENCE_H

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <optional>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace mlir::tsmlir::ts {

//===----------------------------------------------------------------------===//
// Type lattice
//===----------------------------------------------------------------------===//

/// `existing` with the facts of `inferred` that it does not state: where both
/// state a fact (a dtype, a size, the rank, the device), `existing` wins.
/// Recurses into tuples, lists and optionals of the same shape; any other
/// pair gives `existing`. `conflict`, when given, is set when the two
/// disagree on a fact.
Type refineType(Type existing, Type inferred, bool *conflict = nullptr);

/// The facts both `a` and `b` state identically: what is known of a value
/// that is one or the other (the results of the two branches of an `if`).
/// Sizes of equal rank keep the sizes they agree on (`?` elsewhere); other
/// pairs of different types give `fallback`.
Type joinTypes(Type a, Type b, Type fallback);

/// Whether `type` is a tensor whose dtype and every size are known.
bool isFullyRefinedTensor(Type type);

//===----------------------------------------------------------------------===//
// Facts
//===----------------------------------------------------------------------===//

/// What inference knows of the values rules read: the types (refined in
/// place) and the constant values of scalars and lists, either given by a
/// `ts.prim.Constant` or folded during the sweep (`aten::size` of a tensor of
/// known sizes, arithmetic on those, ...).
class ShapeFacts {
public:
  /// The constant value of `value`: IntegerAttr (int), FloatAttr (float),
  /// BoolAttr, StringAttr (str, Device), ArrayAttr (list), UnitAttr (None);
  /// null when not known.
  Attribute getConstant(Value value) const;
  std::optional<int64_t> getInt(Value value) const;
  /// An int or float constant, as a double.
  std::optional<double> getFloat(Value value) const;
  std::optional<bool> getBool(Value value) const;
  std::optional<StringRef> getString(Value value) const;
  /// Whether `value` is certainly None.
  bool isNone(Value value) const;
  /// The elements of an int list whose length is known, with
  /// `TensorType::kUnknown` for elements whose value is not: a constant list,
  /// an unmodified `prim.ListConstruct`, or `aten::size` of a tensor of known
  /// rank. A single int, where a schema takes `int[N]`, stands for
  /// `broadcastTo` copies of itself.
  std::optional<SmallVector<int64_t>>
  getIntList(Value value, unsigned broadcastTo = 0) const;
  /// The elements of a list built by a `prim.ListConstruct` that nothing
  /// modifies.
  std::optional<SmallVector<Value>> getListElements(Value value) const;
  /// The dtype a `ScalarType?` argument names: a null type for None, failure
  /// when unknown.
  FailureOr<Type> getDtypeArg(Value value) const;

  void setConstant(Value value, Attribute constant);
  void forget(Value value);

private:
  llvm::DenseMap<Value, Attribute> folded;
};

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

/// Computes what can be inferred of `op`'s results into `results`, which
/// comes with one null type per result; a rule leaves null what it cannot
/// tell and may set less refined types than the results have (inference
/// merges them with `refineType`).
using ShapeRule = std::function<void(Operation *op, const ShapeFacts &facts,
                                     SmallVectorImpl<Type> &results)>;

/// Shape rules keyed by op.
class ShapeRuleSet {
public:
  template <typename... OpTys> void add(const ShapeRule &rule) {
    (rules.try_emplace(TypeID::get<OpTys>(), rule), ...);
  }
  /// The rule of every in-place op (the InPlace trait) without one of its
  /// own: each returns its self operand.
  void setInPlaceRule(const ShapeRule &rule) { inPlaceRule = rule; }
  /// The rule of `op`, or null.
  const ShapeRule *lookup(Operation *op) const;
  size_t size() const { return rules.size(); }

private:
  llvm::DenseMap<TypeID, ShapeRule> rules;
  ShapeRule inPlaceRule;
};

/// Pointwise ops with broadcasting and type promotion, comparisons, casts
/// and copies.
void populateElementwiseShapeRules(ShapeRuleSet &rules);
/// Reductions, softmax and normalisations.
void populateReductionShapeRules(ShapeRuleSet &rules);
/// Views and other shape manipulation: view, permute, cat, slice, ...
void populateViewShapeRules(ShapeRuleSet &rules);
/// Matrix products.
void populateLinalgShapeRules(ShapeRuleSet &rules);
/// Convolution, pooling, normalisation layers, dropout, embedding.
void populateNNShapeRules(ShapeRuleSet &rules);
/// Tensor factories: zeros, ones, full, arange, ..._like.
void populateFactoryShapeRules(ShapeRuleSet &rules);
/// Constants, tuples, lists and casts.
void populatePrimShapeRules(ShapeRuleSet &rules);

/// Every rule above, built once.
const ShapeRuleSet &getDefaultShapeRules();

/// Whether inference handles `op`: a rule, or an op whose results inference
/// derives itself (`prim.If`, `prim.Loop`, fusion regions).
bool hasShapeRule(Operation *op, const ShapeRuleSet &rules);

//===----------------------------------------------------------------------===//
// Inference
//===----------------------------------------------------------------------===//

/// A user of `value` that would no longer verify if `value` had type
/// `type` (a guard whose checked type would not refine it, a fusion region
/// argument it would contradict, ...), or null.
Operation *getUserRejecting(Value value, Type type);

/// Refines the result types of the ops in `func`, in place, then the
/// function's result types from what it returns. The argument types are
/// read, never changed.
void inferShapes(func::FuncOp func, const ShapeRuleSet &rules);

} // namespace mlir::tsmlir::ts

#endif // TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_SHAPEINFERENCE_H
