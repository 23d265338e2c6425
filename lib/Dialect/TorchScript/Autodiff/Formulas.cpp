//===- Formulas.cpp - The table of derivative formulas --------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Formulas.h"

#include "tsmlir/Dialect/TorchScript/Autodiff/Autodiff.h"
#include "tsmlir/Dialect/TorchScript/IR/NodeKind.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::autodiff;

void GradContext::give(unsigned i, Value grad, unsigned resultIndex) {
  Value x = operand(i);
  auto xType = llvm::dyn_cast<ts::TensorType>(x.getType());
  if (!grad || !xType)
    return;
  auto rType = llvm::cast<ts::TensorType>(result(resultIndex).getType());
  if (xType.getSizesOrEmpty() != rType.getSizesOrEmpty())
    grad = AtenSumToSizeOp::create(t.b, t.loc, t.tensor(), grad,
                                   t.sizes(xType.getSizesOrEmpty()));
  if (xType.getDtype() != rType.getDtype())
    grad = t.castTo(grad, xType.getDtype());
  accumulate(x, grad);
}

LogicalResult GradContext::refuse(const Twine &why) {
  return op->emitError() << "cannot differentiate '"
                         << getNodeKind(op, /*withOverload=*/true)
                         << "': " << why;
}

SmallVector<int64_t> autodiff::sizesOf(Value v) {
  return SmallVector<int64_t>(
      llvm::cast<ts::TensorType>(v.getType()).getSizesOrEmpty());
}

Value autodiff::reshapeTo(TSBuilder &t, Value x, ArrayRef<int64_t> sizes) {
  return t.reshape(x, sizes);
}

int64_t autodiff::wrapDim(int64_t dim, int64_t rank) {
  return dim < 0 ? dim + std::max<int64_t>(rank, 1) : dim;
}

Value autodiff::expandReduced(TSBuilder &t, Value g, Value input,
                              ArrayRef<int64_t> dims, bool keepdim) {
  SmallVector<int64_t> sizes = sizesOf(input);
  // A 0-d input's reduction is 0-d, kept or not.
  if (sizes.empty())
    return g;
  if (!keepdim) {
    SmallVector<int64_t> sorted;
    for (int64_t d : dims)
      sorted.push_back(wrapDim(d, sizes.size()));
    llvm::sort(sorted);
    for (int64_t d : sorted)
      g = t.unsqueeze(g, d);
  }
  return t.expand(g, sizes);
}

Value autodiff::mulNumber(TSBuilder &t, Value g, Value number) {
  return AtenMulScalarOp::create(t.b, t.loc, t.tensor(), g, number);
}

Value autodiff::mulNumber(TSBuilder &t, Value g, double number) {
  return mulNumber(t, g, t.f(number));
}

Value autodiff::transposed(TSBuilder &t, Value x) {
  return t.transpose(x, -1, -2);
}

Value autodiff::neg(TSBuilder &t, Value x) {
  return AtenNegOp::create(t.b, t.loc, t.tensor(), x);
}

Value autodiff::zerosLike(TSBuilder &t, Value like) {
  return AtenZerosLikeOp::create(t.b, t.loc, t.tensor(), like, t.none(),
                                 t.none(), t.none(), t.none(), t.none());
}

Value autodiff::zerosOf(TSBuilder &t, ArrayRef<int64_t> sizes, Type dtype) {
  return t.zeros(sizes, getScalarTypeCode(dtype).value_or(decompose::kFloat));
}

const FormulaTable &autodiff::getFormulaTable() {
  static const FormulaTable table = [] {
    FormulaTable formulas;
    populateElementwiseFormulas(formulas);
    populateMathFormulas(formulas);
    populateReductionFormulas(formulas);
    populateLinearAlgebraFormulas(formulas);
    populateNNFormulas(formulas);
    populateViewFormulas(formulas);
    populateResamplingFormulas(formulas);
    populateFactorizationFormulas(formulas);
    populateGridSamplerFormulas(formulas);
    return formulas;
  }();
  return table;
}

ArrayRef<StringRef> ts::getOpsDifferentiatedWhole() {
  return autodiff::getFormulaTable().getWhole();
}
