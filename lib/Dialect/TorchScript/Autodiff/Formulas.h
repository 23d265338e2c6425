//===- Formulas.h - Derivative formulas of ts ops ---------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One formula per op (or family of ops): from the gradients of the op's
// results, the gradients of its operands, as PyTorch's autograd defines them
// (tools/autograd/derivatives.yaml and the *_backward functions of
// torch/csrc/autograd/FunctionsManual.cpp), including its subgradients at
// ties and boundaries. Formulas build ts ops with unrefined types (the
// decompositions' builder); shape inference refines them afterwards.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_DIALECT_TORCHSCRIPT_AUTODIFF_FORMULAS_H
#define TSMLIR_LIB_DIALECT_TORCHSCRIPT_AUTODIFF_FORMULAS_H

// The builder and readers of constant operands the decompositions use.
#include "../Transforms/DecomposeUtils.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>

namespace mlir::tsmlir::ts::autodiff {

using decompose::TSBuilder;

/// `values` with the tuples a prim::TupleConstruct makes replaced by their
/// elements, recursively (a function's results, as autodiff counts them).
SmallVector<Value> flattenTuples(ValueRange values);

/// What a formula sees of one op, and where it puts the gradients.
struct GradContext {
  TSBuilder &t;
  Operation *op;
  /// One per result; null where no gradient reaches the result (a zero
  /// gradient, never materialised).
  ArrayRef<Value> resultGrads;
  /// Adds `grad` to the gradient of `value` (an operand, or an element of a
  /// list operand); ignored when no gradient is needed there.
  std::function<void(Value value, Value grad)> accumulate;
  /// Adds `grad` to the gradient of element `index` of the list `list` (a
  /// list of tensors is differentiated element by element).
  std::function<void(Value list, int64_t index, Value grad)>
      accumulateElement;
  /// The gradients of the elements of the list `list` so far (null for
  /// those none reached; fewer than its elements when the last ones have
  /// none).
  std::function<ArrayRef<Value>(Value list)> elementGrads;

  Value grad(unsigned i = 0) const { return resultGrads[i]; }
  Value operand(unsigned i) const { return op->getOperand(i); }
  Value result(unsigned i = 0) const { return op->getResult(i); }

  /// Gives operand `i` the gradient `grad` of the op's result `resultIndex`
  /// (so of its sizes): summed back to the operand's sizes where the op
  /// broadcast it, and cast to its dtype where the two differ.
  void give(unsigned i, Value grad, unsigned resultIndex = 0);
  /// The same for a value given with the sizes of `value` already.
  void giveExact(Value value, Value grad) { accumulate(value, grad); }
  /// Fails with a diagnostic at the op saying why it is not differentiated.
  LogicalResult refuse(const Twine &why);
};

/// A formula: fills the operands' gradients, or fails with a diagnostic.
using Formula = std::function<LogicalResult(GradContext &)>;

/// The formulas by op.
class FormulaTable {
public:
  template <typename... OpTys> void add(const Formula &formula) {
    (formulas.try_emplace(TypeID::get<OpTys>(), formula), ...);
  }
  /// Ops whose results carry no gradient to their operands (comparisons,
  /// rounding, factories of a tensor's sizes).
  template <typename... OpTys> void addNonDifferentiable() {
    add<OpTys...>([](GradContext &) { return success(); });
  }
  /// Ops differentiated whole by `formula`, which pipelines that
  /// differentiate leave undecomposed until then
  /// (ts::getOpsDifferentiatedWhole).
  template <typename... OpTys> void addWhole(const Formula &formula) {
    add<OpTys...>(formula);
    (whole.push_back(OpTys::getOperationName()), ...);
  }
  ArrayRef<StringRef> getWhole() const { return whole; }
  /// Ops whose results may have sizes the data decide (masked_select's);
  /// their formulas do not read those sizes.
  template <typename... OpTys> void allowDynamicResults() {
    (dynamicResults.insert(TypeID::get<OpTys>()), ...);
  }
  bool allowsDynamicResults(Operation *op) const {
    return dynamicResults.contains(op->getName().getTypeID());
  }
  const Formula *lookup(Operation *op) const {
    auto it = formulas.find(op->getName().getTypeID());
    return it == formulas.end() ? nullptr : &it->second;
  }

private:
  llvm::DenseMap<TypeID, Formula> formulas;
  SmallVector<StringRef> whole;
  llvm::DenseSet<TypeID> dynamicResults;
};

/// The table of every formula.
const FormulaTable &getFormulaTable();

void populateElementwiseFormulas(FormulaTable &table);
void populateMathFormulas(FormulaTable &table);
void populateReductionFormulas(FormulaTable &table);
void populateLinearAlgebraFormulas(FormulaTable &table);
void populateNNFormulas(FormulaTable &table);
void populateViewFormulas(FormulaTable &table);
void populateResamplingFormulas(FormulaTable &table);
void populateFactorizationFormulas(FormulaTable &table);
void populateGridSamplerFormulas(FormulaTable &table);

/// Helpers the formulas share.
/// `x` with its last two dims swapped (matrices transposed).
Value transposed(TSBuilder &t, Value x);
/// `x` viewed with `sizes`.
Value reshapeTo(TSBuilder &t, Value x, ArrayRef<int64_t> sizes);
/// The static sizes of `v`, which every op autodiff reads has.
SmallVector<int64_t> sizesOf(Value v);
/// `dim` in [0, rank).
int64_t wrapDim(int64_t dim, int64_t rank);
/// `g` (the sizes of a reduction over `dims` of `input`, kept or not)
/// expanded back to `input`'s sizes.
Value expandReduced(TSBuilder &t, Value g, Value input, ArrayRef<int64_t> dims,
                    bool keepdim);
/// g * number (a ts number value).
Value mulNumber(TSBuilder &t, Value g, Value number);
Value mulNumber(TSBuilder &t, Value g, double number);
Value neg(TSBuilder &t, Value x);
/// zeros with the sizes and dtype of `like`.
Value zerosLike(TSBuilder &t, Value like);
/// zeros of `sizes` and `dtype`.
Value zerosOf(TSBuilder &t, ArrayRef<int64_t> sizes, Type dtype);
/// pow(x, e) by a constant exponent: g e x^(e-1) (zeros for e = 0).
Value powScalarGrad(TSBuilder &t, Value g, Value x, double e);
/// pow(a, e) = y by a tensor: g e a^(e-1) (0 where e = 0) to a, g y log(a)
/// (0 where a = 0 and e >= 0) to e.
std::pair<Value, Value> powTensorGrads(TSBuilder &t, Value g, Value a, Value e,
                                       Value y);

} // namespace mlir::tsmlir::ts::autodiff

#endif // TSMLIR_LIB_DIALECT_TORCHSCRIPT_AUTODIFF_FORMULAS_H
