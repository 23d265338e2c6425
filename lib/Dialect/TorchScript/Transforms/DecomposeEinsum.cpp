//===- DecomposeEinsum.cpp - einsum as permutes, sums and batched products ===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// torch.einsum(equation, tensors) with a constant equation and operands of
// static shape, contracted left to right, as PyTorch does without a path:
//
//   1. a subscript found in one operand only, and not in the output, is
//      summed out of it;
//   2. each next operand is multiplied into the running result: subscripts
//      of both that are still needed (in the output or a later operand) are
//      batch dimensions, the others of both are contracted, the rest belong
//      to one side; the two are permuted to [batch, own, contracted] and
//      [batch, contracted, own], reshaped to 3-d and multiplied by
//      aten::bmm (one matrix product per batch, at library speed);
//   3. the result is permuted to the output's order.
//
// Size-1 dimensions broadcast against their partner (expanded to its size).
// `...` stands for the dimensions no letter names, broadcast right-aligned
// across operands. Without `->` the output is `...` then the letters seen
// once, sorted (upper case first), as in PyTorch. A subscript repeated in
// one operand (a diagonal, `ii->i`) is not decomposed: einsum then stays
// and is reported as unsupported by name.
//
//===----------------------------------------------------------------------===//

#include "DecomposeUtils.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::ts;
using namespace mlir::tsmlir::ts::decompose;

namespace {

/// Subscripts as ids: 'A'..'Z' are 0..25, 'a'..'z' 26..51 (PyTorch's
/// order), the dimensions of `...` 52 and up, counted from the left of the
/// widest `...`.
constexpr int kEllipsisBase = 52;

struct Equation {
  SmallVector<SmallVector<int>> inputs;
  SmallVector<int> output;
};

std::optional<int> letterId(char c) {
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return 26 + (c - 'a');
  return std::nullopt;
}

/// The letters of one term and whether (and where) it has `...`.
struct Term {
  SmallVector<int> before, after;
  bool ellipsis = false;
};

std::optional<Term> parseTerm(StringRef text) {
  Term term;
  for (size_t i = 0; i < text.size();) {
    if (text.substr(i).starts_with("...")) {
      if (term.ellipsis)
        return std::nullopt;
      term.ellipsis = true;
      i += 3;
      continue;
    }
    char c = text[i++];
    if (c == ' ')
      continue;
    std::optional<int> id = letterId(c);
    if (!id)
      return std::nullopt;
    (term.ellipsis ? term.after : term.before).push_back(*id);
  }
  return term;
}

/// Parses `equation` for operands of `ranks`; nullopt when malformed or
/// when it does not fit the ranks.
std::optional<Equation> parseEquation(StringRef equation,
                                      ArrayRef<int64_t> ranks) {
  auto [lhs, rhs] = equation.split("->");
  bool explicitOutput = equation.contains("->");
  SmallVector<StringRef> texts;
  lhs.split(texts, ',');
  if (texts.size() != ranks.size())
    return std::nullopt;
  SmallVector<Term> terms;
  int64_t ellipsisRank = 0;
  for (auto [text, rank] : llvm::zip_equal(texts, ranks)) {
    std::optional<Term> term = parseTerm(text);
    if (!term)
      return std::nullopt;
    int64_t named = term->before.size() + term->after.size();
    if (term->ellipsis ? named > rank : named != rank)
      return std::nullopt;
    if (term->ellipsis)
      ellipsisRank = std::max(ellipsisRank, rank - named);
    terms.push_back(std::move(*term));
  }
  Equation eq;
  for (auto [term, rank] : llvm::zip_equal(terms, ranks)) {
    SmallVector<int> ids(term.before);
    if (term.ellipsis) {
      int64_t own = rank - term.before.size() - term.after.size();
      for (int64_t k = ellipsisRank - own; k < ellipsisRank; ++k)
        ids.push_back(kEllipsisBase + k);
    }
    llvm::append_range(ids, term.after);
    eq.inputs.push_back(std::move(ids));
  }
  SmallVector<int> ellipsisIds;
  for (int64_t k = 0; k < ellipsisRank; ++k)
    ellipsisIds.push_back(kEllipsisBase + k);
  if (explicitOutput) {
    std::optional<Term> out = parseTerm(rhs);
    if (!out)
      return std::nullopt;
    eq.output = out->before;
    if (out->ellipsis)
      llvm::append_range(eq.output, ellipsisIds);
    llvm::append_range(eq.output, out->after);
  } else {
    eq.output = ellipsisIds;
    for (int id = 0; id < kEllipsisBase; ++id) {
      int count = 0;
      for (const SmallVector<int> &ids : eq.inputs)
        count += llvm::count(ids, id);
      if (count == 1)
        eq.output.push_back(id);
    }
  }
  return eq;
}

/// The size of each subscript of `eq` for operands of `sizes`: a size-1
/// dimension broadcasts against its partners. Nullopt, with the reason in
/// `why`, when two sizes differ otherwise or an output subscript is not an
/// input's or is given twice.
std::optional<DenseMap<int, int64_t>>
subscriptSizes(const Equation &eq, ArrayRef<SmallVector<int64_t>> sizes,
               StringRef &why) {
  DenseMap<int, int64_t> known;
  for (auto [ids, operandSizes] : llvm::zip_equal(eq.inputs, sizes)) {
    for (auto [id, size] : llvm::zip_equal(ids, operandSizes)) {
      auto [it, inserted] = known.try_emplace(id, size);
      if (inserted || it->second == size || size == 1)
        continue;
      if (it->second != 1) {
        why = "sizes do not match";
        return std::nullopt;
      }
      it->second = size;
    }
  }
  for (int id : eq.output)
    if (!known.count(id) || llvm::count(eq.output, id) != 1) {
      why = "bad output subscripts";
      return std::nullopt;
    }
  return known;
}

/// A tensor with one subscript per dimension.
struct Labeled {
  Value value;
  SmallVector<int> ids;
  SmallVector<int64_t> sizes;

  int64_t sizeOf(int id) const {
    return sizes[llvm::find(ids, id) - ids.begin()];
  }
};

struct EinsumBuilder {
  TSBuilder &t;

  Value intList(ArrayRef<int64_t> values) { return intListValue(t, values); }

  /// Permutes `x` so that its subscripts read `order`.
  Labeled permute(const Labeled &x, ArrayRef<int> order) {
    if (ArrayRef<int>(x.ids) == order)
      return x;
    SmallVector<int64_t> dims, sizes;
    for (int id : order) {
      int64_t d = llvm::find(x.ids, id) - x.ids.begin();
      dims.push_back(d);
      sizes.push_back(x.sizes[d]);
    }
    Value v = AtenPermuteOp::create(t.b, t.loc, t.tensor(), x.value,
                                    intList(dims));
    return {v, SmallVector<int>(order), sizes};
  }

  /// Sums `x` over the subscripts in `ids`.
  Labeled sum(const Labeled &x, ArrayRef<int> ids) {
    if (ids.empty())
      return x;
    SmallVector<int64_t> dims;
    Labeled r;
    for (auto [d, id] : llvm::enumerate(x.ids)) {
      if (llvm::is_contained(ids, id)) {
        dims.push_back(d);
        continue;
      }
      r.ids.push_back(id);
      r.sizes.push_back(x.sizes[d]);
    }
    r.value = AtenSumDimIntListOp::create(t.b, t.loc, t.tensor(), x.value,
                                          intList(dims), t.flag(false),
                                          t.none());
    return r;
  }

  /// `x` with its size-1 dimensions grown to `sizes` (by subscript).
  Labeled expand(const Labeled &x, const DenseMap<int, int64_t> &sizes) {
    Labeled r = x;
    bool changed = false;
    for (auto [d, id] : llvm::enumerate(x.ids)) {
      int64_t want = sizes.lookup(id);
      if (x.sizes[d] != want) {
        r.sizes[d] = want;
        changed = true;
      }
    }
    if (changed)
      r.value = AtenExpandOp::create(t.b, t.loc, t.tensor(), x.value,
                                     intList(r.sizes), t.flag(false));
    return r;
  }

  static int64_t product(const Labeled &x, ArrayRef<int> ids) {
    int64_t n = 1;
    for (int id : ids)
      n *= x.sizeOf(id);
    return n;
  }

  /// a * b contracted over the shared subscripts not in `keep`.
  Labeled contract(Labeled a, Labeled b, ArrayRef<int> keep) {
    auto kept = [&](int id) { return llvm::is_contained(keep, id); };
    // Subscripts of one side only that nothing needs are summed first.
    SmallVector<int> dropA, dropB;
    for (int id : a.ids)
      if (!llvm::is_contained(b.ids, id) && !kept(id))
        dropA.push_back(id);
    for (int id : b.ids)
      if (!llvm::is_contained(a.ids, id) && !kept(id))
        dropB.push_back(id);
    a = sum(a, dropA);
    b = sum(b, dropB);
    SmallVector<int> batch, contracted, ownA, ownB;
    DenseMap<int, int64_t> sizesA, sizesB;
    for (auto [id, size] : llvm::zip_equal(a.ids, a.sizes))
      sizesA[id] = size;
    for (auto [id, size] : llvm::zip_equal(b.ids, b.sizes))
      sizesB[id] = size;
    for (int id : a.ids) {
      if (!llvm::is_contained(b.ids, id)) {
        ownA.push_back(id);
        continue;
      }
      (kept(id) ? batch : contracted).push_back(id);
      // Broadcast a size-1 side to its partner's size.
      int64_t size = std::max(sizesA[id], sizesB[id]);
      sizesA[id] = sizesB[id] = size;
    }
    for (int id : b.ids)
      if (!llvm::is_contained(a.ids, id))
        ownB.push_back(id);
    a = expand(a, sizesA);
    b = expand(b, sizesB);
    SmallVector<int> orderA(batch), orderB(batch);
    llvm::append_range(orderA, ownA);
    llvm::append_range(orderA, contracted);
    llvm::append_range(orderB, contracted);
    llvm::append_range(orderB, ownB);
    a = permute(a, orderA);
    b = permute(b, orderB);
    int64_t nBatch = product(a, batch), m = product(a, ownA),
            k = product(a, contracted), n = product(b, ownB);
    Value a3 = t.reshape(a.value, {nBatch, m, k});
    Value b3 = t.reshape(b.value, {nBatch, k, n});
    Value prod = AtenBmmOp::create(t.b, t.loc, t.tensor(), a3, b3);
    Labeled r;
    for (int id : batch) {
      r.ids.push_back(id);
      r.sizes.push_back(a.sizeOf(id));
    }
    for (int id : ownA) {
      r.ids.push_back(id);
      r.sizes.push_back(a.sizeOf(id));
    }
    for (int id : ownB) {
      r.ids.push_back(id);
      r.sizes.push_back(b.sizeOf(id));
    }
    r.value = t.reshape(prod, r.sizes);
    return r;
  }
};

struct DecomposeEinsum : public OpRewritePattern<AtenEinsumOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AtenEinsumOp op,
                                PatternRewriter &rewriter) const override {
    auto equation = op.getEquation().getDefiningOp<PrimConstantOp>();
    auto text = equation
                    ? llvm::dyn_cast_or_null<StringAttr>(equation.getValueAttr())
                    : StringAttr();
    std::optional<SmallVector<OpFoldResult>> tensors =
        knownTensors(op.getTensors());
    if (!text || !tensors || tensors->empty())
      return rewriter.notifyMatchFailure(op, "equation or operands not known");
    if (!llvm::isa<ts::NoneType>(op.getPath().getType()))
      return rewriter.notifyMatchFailure(op, "a contraction path");
    SmallVector<SmallVector<int64_t>> operandSizes;
    SmallVector<int64_t> ranks;
    for (OpFoldResult tensor : *tensors) {
      std::optional<SmallVector<int64_t>> sizes = staticSizes(tensor);
      if (!sizes)
        return rewriter.notifyMatchFailure(op, "operand shape not known");
      ranks.push_back(sizes->size());
      operandSizes.push_back(std::move(*sizes));
    }
    std::optional<Equation> eq = parseEquation(text.getValue(), ranks);
    if (!eq)
      return rewriter.notifyMatchFailure(op, "malformed equation");
    // No diagonals; every subscript names dimensions of one size (or 1,
    // broadcast); the output names each of the inputs' at most once.
    for (const SmallVector<int> &ids : eq->inputs)
      for (int id : ids)
        if (llvm::count(ids, id) != 1)
          return rewriter.notifyMatchFailure(op, "repeated subscript");
    StringRef why;
    std::optional<DenseMap<int, int64_t>> sizes =
        subscriptSizes(*eq, operandSizes, why);
    if (!sizes)
      return rewriter.notifyMatchFailure(op, why);
    SmallVector<Labeled> operands;
    for (SmallVector<int64_t> &s : operandSizes)
      operands.push_back({Value(), {}, std::move(s)});

    TSBuilder t{rewriter, op.getLoc()};
    EinsumBuilder e{t};
    for (auto [operand, tensor, ids] :
         llvm::zip_equal(operands, *tensors, eq->inputs)) {
      operand.value = materialize(rewriter, op.getLoc(), tensor);
      operand.ids = ids;
    }
    // Subscripts needed after operand i: the output's and those of the
    // operands after it.
    auto needed = [&](size_t i) {
      SmallVector<int> ids(eq->output);
      for (size_t j = i + 1; j < operands.size(); ++j)
        llvm::append_range(ids, eq->inputs[j]);
      return ids;
    };
    // Subscripts of the first operand that no other operand nor the output
    // has are summed out (contract does it for the later ones).
    SmallVector<int> alone;
    for (int id : operands[0].ids)
      if (!llvm::is_contained(needed(0), id))
        alone.push_back(id);
    Labeled result = e.sum(operands[0], alone);
    for (size_t i = 1; i < operands.size(); ++i)
      result = e.contract(result, operands[i], needed(i));
    // Broadcast size-1 dimensions the output keeps at their full size.
    result = e.expand(result, *sizes);
    result = e.permute(result, eq->output);
    Value value = result.value;
    if (value == operands[0].value && operands.size() == 1)
      value = AtenCloneOp::create(rewriter, op.getLoc(), t.tensor(), value,
                                  t.none());
    replaceWithDeclaredTypes(rewriter, op, {value});
    return success();
  }
};

} // namespace

std::optional<SmallVector<int64_t>>
mlir::tsmlir::ts::decompose::einsumSizes(StringRef equation,
                                         ArrayRef<SmallVector<int64_t>> sizes) {
  SmallVector<int64_t> ranks;
  for (const SmallVector<int64_t> &s : sizes)
    ranks.push_back(s.size());
  std::optional<Equation> eq = parseEquation(equation, ranks);
  StringRef why;
  std::optional<DenseMap<int, int64_t>> known =
      eq ? subscriptSizes(*eq, sizes, why) : std::nullopt;
  if (!known)
    return std::nullopt;
  SmallVector<int64_t> result;
  for (int id : eq->output)
    result.push_back(known->lookup(id));
  return result;
}

void mlir::tsmlir::ts::decompose::populateEinsumPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeEinsum>(patterns.getContext());
}
