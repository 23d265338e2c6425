//===- LinalgShapeRules.cpp - Shape rules of matrix products --------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// mm, bmm, matmul (1-d operands and broadcast batch dims), linear, addmm,
// baddbmm and dot. These ops do not promote: their operands must share a
// dtype, which is then the result's.
//
//===----------------------------------------------------------------------===//

#include "DecomposeUtils.h"
#include "ShapeRuleUtils.h"

namespace mlir::tsmlir::ts {
using namespace shape;

/// The dtype operands that must agree share: the one those that state one
/// state, or null when they disagree (the op raises) or none does.
static Type sharedDtype(ValueRange operands) {
  Type dtype;
  for (Value v : operands) {
    Type d = getDtype(v);
    if (!d)
      continue;
    if (dtype && dtype != d)
      return {};
    dtype = d;
  }
  return dtype;
}

/// Two sizes that must be equal: the known one.
static int64_t same(int64_t a, int64_t b) { return a == kUnknown ? b : a; }

/// matmul's sizes (torch.matmul's rules for every rank from 1).
static Sizes matmulSizes(const Sizes &lhs, const Sizes &rhs) {
  if (!lhs || !rhs || lhs->empty() || rhs->empty())
    return std::nullopt;
  SmallVector<int64_t> a(*lhs), b(*rhs);
  bool vecLhs = a.size() == 1, vecRhs = b.size() == 1;
  if (vecLhs)
    a.insert(a.begin(), 1);
  if (vecRhs)
    b.push_back(1);
  Sizes batch = broadcast({SmallVector<int64_t>(a.begin(), a.end() - 2),
                           SmallVector<int64_t>(b.begin(), b.end() - 2)});
  if (!batch)
    return std::nullopt;
  SmallVector<int64_t> result(*batch);
  if (!vecLhs)
    result.push_back(a[a.size() - 2]);
  if (!vecRhs)
    result.push_back(b.back());
  return result;
}

static void matmulRule(Operation *op, const ShapeFacts &,
                       SmallVectorImpl<Type> &results) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  results[0] = makeTensor(op->getContext(), sharedDtype({lhs, rhs}),
                          matmulSizes(getSizes(lhs), getSizes(rhs)),
                          getCommonDevice({lhs, rhs}));
}

/// mm and addmm (on the last two operands): [n, m] x [m, p] -> [n, p].
static Sizes mmSizes(Value lhs, Value rhs) {
  Sizes a = getSizes(lhs), b = getSizes(rhs);
  if (!a || !b || a->size() != 2 || b->size() != 2)
    return std::nullopt;
  return SmallVector<int64_t>{(*a)[0], (*b)[1]};
}

/// bmm and baddbmm: [B, n, m] x [B, m, p] -> [B, n, p].
static Sizes bmmSizes(Value lhs, Value rhs) {
  Sizes a = getSizes(lhs), b = getSizes(rhs);
  if (!a || !b || a->size() != 3 || b->size() != 3)
    return std::nullopt;
  return SmallVector<int64_t>{same((*a)[0], (*b)[0]), (*a)[1], (*b)[2]};
}

/// A product of operands `lhs` and `rhs` whose sizes `computeSizes` gives;
/// every tensor operand shares the dtype.
template <Sizes (*computeSizes)(Value, Value)>
static ShapeRule product(unsigned lhs, unsigned rhs) {
  return
      [=](Operation *op, const ShapeFacts &, SmallVectorImpl<Type> &results) {
        SmallVector<Value> tensors;
        for (Value v : op->getOperands())
          if (llvm::isa<TensorType>(v.getType()))
            tensors.push_back(v);
        results[0] =
            makeTensor(op->getContext(), sharedDtype(tensors),
                       computeSizes(op->getOperand(lhs), op->getOperand(rhs)),
                       getCommonDevice(tensors));
      };
}

/// linear(input [..., in], weight [out, in] or [in], bias?).
static void linearRule(Operation *op, const ShapeFacts &,
                       SmallVectorImpl<Type> &results) {
  auto linear = llvm::cast<AtenLinearOp>(op);
  Value input = linear.getInput(), weight = linear.getWeight();
  Sizes sizes = getSizes(input), w = getSizes(weight);
  // Contracted sizes that differ make linear raise: no result sizes.
  if (!sizes || sizes->empty() || !w || w->empty() || w->size() > 2 ||
      (sizes->back() != kUnknown && w->back() != kUnknown &&
       sizes->back() != w->back())) {
    sizes.reset();
  } else {
    sizes->pop_back();
    if (w->size() == 2)
      sizes->push_back((*w)[0]);
  }
  results[0] = makeTensor(op->getContext(), sharedDtype({input, weight}), sizes,
                          getCommonDevice({input, weight}));
}

static void dotRule(Operation *op, const ShapeFacts &,
                    SmallVectorImpl<Type> &results) {
  ValueRange operands = op->getOperands();
  results[0] = makeTensor(op->getContext(), sharedDtype(operands),
                          SmallVector<int64_t>(), getCommonDevice(operands));
}

//===----------------------------------------------------------------------===//
// Rule registration
//===----------------------------------------------------------------------===//

/// einsum(equation, tensors): the output subscripts' sizes, when the
/// equation and every operand's sizes are known (ts-decompose then expands
/// it; knowing the result first lets the ops after it be inferred in the
/// same round).
static void einsumRule(Operation *op, const ShapeFacts &facts,
                       SmallVectorImpl<Type> &results) {
  auto einsum = llvm::cast<AtenEinsumOp>(op);
  std::optional<StringRef> equation = facts.getString(einsum.getEquation());
  std::optional<SmallVector<Value>> tensors =
      facts.getListElements(einsum.getTensors());
  if (!equation || !tensors || tensors->empty())
    return;
  SmallVector<SmallVector<int64_t>> sizes;
  for (Value t : *tensors) {
    Sizes s = getSizes(t);
    if (!s || llvm::is_contained(*s, TensorType::kUnknown))
      return;
    sizes.push_back(*s);
  }
  std::optional<SmallVector<int64_t>> out =
      decompose::einsumSizes(*equation, sizes);
  if (out)
    results[0] = makeTensor(op->getContext(), getDtype(tensors->front()),
                            Sizes(*out), getDevice(tensors->front()));
}

void populateLinalgShapeRules(ShapeRuleSet &rules) {
  rules.add<AtenEinsumOp>(einsumRule);
  rules.add<AtenMatmulOp>(matmulRule);
  rules.add<AtenMmOp>(product<mmSizes>(0, 1));
  rules.add<AtenAddmmOp>(product<mmSizes>(1, 2));
  rules.add<AtenBmmOp>(product<bmmSizes>(0, 1));
  rules.add<AtenBaddbmmOp>(product<bmmSizes>(1, 2));
  rules.add<AtenLinearOp>(linearRule);
  rules.add<AtenDotOp>(dotRule);
}

} // namespace mlir::tsmlir::ts
