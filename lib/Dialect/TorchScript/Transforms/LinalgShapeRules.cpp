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
// dtype, which is then the result's. The decompositions' results (eigh,
// svd, pinv, lstsq, matrix_exp): their sizes from the operand's.
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
// Decompositions (ts-decompose expands them; their types come first when a
// pipeline keeps them whole to differentiate them)
//===----------------------------------------------------------------------===//

/// A batch of matrices of known sizes: [batch..., m, n].
struct Matrices {
  SmallVector<int64_t> batch;
  int64_t m, n;

  int64_t k() const { return std::min(m, n); }
  /// batch..., then `trailing`.
  Sizes with(ArrayRef<int64_t> trailing) const {
    SmallVector<int64_t> sizes(batch);
    sizes.append(trailing.begin(), trailing.end());
    return sizes;
  }
};

static std::optional<Matrices> matricesOf(Value v) {
  Sizes sizes = getSizes(v);
  if (!sizes || sizes->size() < 2 || llvm::is_contained(*sizes, kUnknown))
    return std::nullopt;
  return Matrices{SmallVector<int64_t>(sizes->begin(), sizes->end() - 2),
                  sizes->end()[-2], sizes->back()};
}

/// Fills `results` with tensors of operand 0's dtype and device and `sizes`
/// (a result whose sizes are nullopt gets only those).
static void fill(Operation *op, SmallVectorImpl<Type> &results,
                 ArrayRef<Sizes> sizes, ArrayRef<Type> dtypes = {}) {
  Value a = op->getOperand(0);
  for (auto [i, s] : llvm::enumerate(sizes))
    results[i] =
        makeTensor(op->getContext(),
                   i < dtypes.size() && dtypes[i] ? dtypes[i] : getDtype(a), s,
                   getDevice(a));
}

/// eigh, eigvalsh, symeig: eigenvalues [batch..., n] and eigenvectors
/// [batch..., n, n] (symeig without them: an empty [0]).
static void eighRule(Operation *op, const ShapeFacts &facts,
                     SmallVectorImpl<Type> &results) {
  std::optional<Matrices> a = matricesOf(op->getOperand(0));
  if (!a || a->m != a->n)
    return fill(op, results, SmallVector<Sizes>(op->getNumResults()));
  Sizes vectors = a->with({a->n, a->n});
  if (auto symeig = llvm::dyn_cast<AtenSymeigOp>(op)) {
    std::optional<bool> wanted = facts.getBool(symeig.getEigenvectors());
    vectors = !wanted ? Sizes() : *wanted ? vectors : Sizes({0});
  }
  fill(op, results, {a->with({a->n}), vectors});
}

/// linalg_svd (U, S, Vh), svd (U, S, V) and svdvals (S).
static void svdRule(Operation *op, const ShapeFacts &facts,
                    SmallVectorImpl<Type> &results) {
  std::optional<Matrices> a = matricesOf(op->getOperand(0));
  if (!a)
    return fill(op, results, SmallVector<Sizes>(op->getNumResults()));
  int64_t m = a->m, n = a->n, k = a->k();
  Sizes values = a->with({k});
  if (llvm::isa<AtenLinalgSvdvalsOp>(op))
    return fill(op, results, {values});
  if (auto svd = llvm::dyn_cast<AtenLinalgSvdOp>(op)) {
    std::optional<bool> full = facts.getBool(svd.getFullMatrices());
    if (!full)
      return fill(op, results, {Sizes(), values, Sizes()});
    return fill(
        op, results,
        {a->with({m, *full ? m : k}), values, a->with({*full ? n : k, n})});
  }
  auto svd = llvm::cast<AtenSvdOp>(op);
  std::optional<bool> some = facts.getBool(svd.getSome());
  std::optional<bool> uv = facts.getBool(svd.getComputeUv());
  if (!some || !uv)
    return fill(op, results, {Sizes(), values, Sizes()});
  // Without U and V: zeros [m, m] and [n, n].
  bool thin = *some && *uv;
  fill(op, results,
       {a->with({m, thin ? k : m}), values, a->with({n, thin ? k : n})});
}

/// pinv in its overloads, pinverse: [batch..., n, m].
static void pinvRule(Operation *op, const ShapeFacts &,
                     SmallVectorImpl<Type> &results) {
  std::optional<Matrices> a = matricesOf(op->getOperand(0));
  fill(op, results, {a ? a->with({a->n, a->m}) : Sizes()});
}

/// lstsq(A [batch..., m, n], B [batch..., m, k], rcond, driver): the
/// solution [batch..., n, k]; the squared residuals [batch..., k] for tall A
/// and a driver other than gelsy (else [0]); the rank [batch...] (Long; [0]
/// for gels); the singular values [batch..., min(m, n)] for gelsd and gelss
/// (else [0]).
static void lstsqRule(Operation *op, const ShapeFacts &facts,
                      SmallVectorImpl<Type> &results) {
  auto lstsq = llvm::cast<AtenLinalgLstsqOp>(op);
  std::optional<Matrices> a = matricesOf(lstsq.getSelf());
  std::optional<Matrices> b = matricesOf(lstsq.getB());
  std::optional<StringRef> driver = decompose::isNone(lstsq.getDriver())
                                        ? std::optional<StringRef>("gelsy")
                                        : facts.getString(lstsq.getDriver());
  Type longType = getLong(op->getContext());
  if (!a || !b || !driver)
    return fill(op, results, SmallVector<Sizes>(4),
                {Type(), Type(), longType, Type()});
  Sizes empty = SmallVector<int64_t>{0};
  bool svdDriver = *driver == "gelsd" || *driver == "gelss";
  fill(op, results,
       {a->with({a->n, b->n}),
        a->m > a->n && *driver != "gelsy" ? a->with({b->n}) : empty,
        *driver == "gels" ? empty : a->with({}),
        svdDriver ? a->with({a->k()}) : empty},
       {Type(), Type(), longType, Type()});
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
  rules.add<AtenLinalgEighOp, AtenLinalgEigvalshOp, AtenSymeigOp>(eighRule);
  rules.add<AtenLinalgSvdOp, AtenSvdOp, AtenLinalgSvdvalsOp>(svdRule);
  rules.add<AtenLinalgPinvOp, AtenLinalgPinvAtolRtolFloatOp,
            AtenLinalgPinvAtolRtolTensorOp, AtenLinalgPinvRcondTensorOp,
            AtenPinverseOp>(pinvRule);
  rules.add<AtenLinalgLstsqOp>(lstsqRule);
  // cholesky: L of the input's type; linalg_cholesky_ex's info
  // [batch...] Int.
  rules.add<AtenCholeskyOp, AtenLinalgCholeskyOp, AtenLinalgCholeskyExOp>(
      [](Operation *op, const ShapeFacts &, SmallVectorImpl<Type> &results) {
        results[0] = sameAs(op->getOperand(0));
        if (results.size() == 2) {
          std::optional<Matrices> a = matricesOf(op->getOperand(0));
          results[1] = makeTensor(
              op->getContext(),
              IntegerType::get(op->getContext(), 32, IntegerType::Signed),
              a ? a->with({}) : Sizes(), getDevice(op->getOperand(0)));
        }
      });
  // cholesky_solve(B [batch..., n, k], L [batch..., n, n]): B's sizes, the
  // batches broadcast.
  rules.add<AtenCholeskySolveOp>(
      [](Operation *op, const ShapeFacts &, SmallVectorImpl<Type> &results) {
        std::optional<Matrices> b = matricesOf(op->getOperand(0));
        std::optional<Matrices> l = matricesOf(op->getOperand(1));
        Sizes batch =
            b && l ? broadcast({Sizes(b->batch), Sizes(l->batch)}) : Sizes();
        Sizes sizes;
        if (batch) {
          sizes = *batch;
          sizes->append({b->m, b->n});
        }
        results[0] = makeTensor(op->getContext(),
                                sharedDtype(op->getOperands().take_front(2)),
                                sizes, getDevice(op->getOperand(0)));
      });
  rules.add<AtenCholeskyInverseOp, AtenMatrixExpOp, AtenLinalgMatrixExpOp>(
      [](Operation *op, const ShapeFacts &, SmallVectorImpl<Type> &results) {
        results[0] = sameAs(op->getOperand(0));
      });
}

} // namespace mlir::tsmlir::ts
