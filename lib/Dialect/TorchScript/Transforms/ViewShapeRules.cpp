//===- ViewShapeRules.cpp - Shape rules of views and shape ops ------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Ops that rearrange, select or combine elements without computing: the
// result keeps the input's dtype and device and gets new sizes (and no
// strides: the layout of a view is left unstated).
//
//===----------------------------------------------------------------------===//

#include "ShapeRuleUtils.h"

#include <limits>
#include <numeric>

namespace mlir::tsmlir::ts {
using namespace shape;

/// The rule of an op whose result is `self` (operand 0) with the sizes
/// `computeSizes` gives (nullopt: unknown).
template <typename Fn> static ShapeRule viewOf(Fn computeSizes) {
  return [=](Operation *op, const ShapeFacts &facts,
             SmallVectorImpl<Type> &results) {
    Value self = op->getOperand(0);
    results[0] = withSizes(self, computeSizes(op, facts));
  };
}

/// view and reshape: the target sizes, where one -1 (or one unknown entry,
/// which is either -1 or the only size that fits) takes the elements the
/// others leave.
static Sizes viewSizes(Value self, Value target, const ShapeFacts &facts) {
  std::optional<SmallVector<int64_t>> sizes = facts.getIntList(target);
  if (!sizes)
    return std::nullopt;
  SmallVector<int64_t> result = *sizes;
  int64_t product = 1;
  SmallVector<size_t> open;
  for (auto [i, s] : llvm::enumerate(result)) {
    if (s == -1 || s == kUnknown) {
      open.push_back(i);
      s = kUnknown;
    } else if (s < 0) {
      return std::nullopt; // Raises.
    } else {
      product = mulSizes(product, s);
    }
  }
  Sizes selfSizes = getSizes(self);
  int64_t numel = selfSizes ? numElements(*selfSizes) : kUnknown;
  if (open.size() == 1 && numel != kUnknown && product != kUnknown &&
      product != 0 && numel % product == 0)
    result[open.front()] = numel / product;
  return result;
}

static void viewRule(Operation *op, const ShapeFacts &facts,
                     SmallVectorImpl<Type> &results) {
  Value self = op->getOperand(0);
  results[0] = withSizes(self, viewSizes(self, op->getOperand(1), facts));
}

/// view_as, reshape_as, expand_as: other's sizes.
static void asOtherRule(Operation *op, const ShapeFacts &,
                        SmallVectorImpl<Type> &results) {
  results[0] = withSizes(op->getOperand(0), getSizes(op->getOperand(1)));
}

static Sizes flattenSizes(Operation *op, const ShapeFacts &facts) {
  auto flatten = llvm::cast<AtenFlattenUsingIntsOp>(op);
  Sizes sizes = getSizes(flatten.getSelf());
  std::optional<int64_t> start = facts.getInt(flatten.getStartDim());
  std::optional<int64_t> end = facts.getInt(flatten.getEndDim());
  if (!sizes || !start || !end)
    return std::nullopt;
  int64_t rank = sizes->size();
  if (rank == 0)
    return SmallVector<int64_t>{1};
  std::optional<int64_t> s = wrapDim(*start, rank), e = wrapDim(*end, rank);
  if (!s || !e || *s > *e)
    return std::nullopt;
  SmallVector<int64_t> result(sizes->begin(), sizes->begin() + *s);
  result.push_back(
      numElements(ArrayRef<int64_t>(*sizes).slice(*s, *e - *s + 1)));
  result.append(sizes->begin() + *e + 1, sizes->end());
  return result;
}

static Sizes permuteSizes(Operation *op, const ShapeFacts &facts) {
  auto permute = llvm::cast<AtenPermuteOp>(op);
  Sizes sizes = getSizes(permute.getSelf());
  std::optional<SmallVector<int64_t>> dims =
      facts.getIntList(permute.getDims());
  if (!sizes || !dims || dims->size() != sizes->size())
    return std::nullopt;
  SmallVector<int64_t> result;
  for (int64_t d : *dims) {
    std::optional<int64_t> w =
        d == kUnknown ? std::nullopt : wrapDim(d, sizes->size());
    if (!w)
      return std::nullopt;
    result.push_back((*sizes)[*w]);
  }
  return result;
}

static Sizes transposeSizes(Operation *op, const ShapeFacts &facts) {
  auto transpose = llvm::cast<AtenTransposeIntOp>(op);
  Sizes sizes = getSizes(transpose.getSelf());
  std::optional<int64_t> d0 = facts.getInt(transpose.getDim0());
  std::optional<int64_t> d1 = facts.getInt(transpose.getDim1());
  if (!sizes || !d0 || !d1)
    return std::nullopt;
  if (sizes->empty())
    return sizes;
  std::optional<int64_t> a = wrapDim(*d0, sizes->size()),
                         b = wrapDim(*d1, sizes->size());
  if (!a || !b)
    return std::nullopt;
  std::swap((*sizes)[*a], (*sizes)[*b]);
  return sizes;
}

static Sizes tSizes(Operation *op, const ShapeFacts &) {
  Sizes sizes = getSizes(op->getOperand(0));
  if (!sizes || sizes->size() > 2)
    return std::nullopt;
  std::reverse(sizes->begin(), sizes->end());
  return sizes;
}

static Sizes unsqueezeSizes(Operation *op, const ShapeFacts &facts) {
  auto unsqueeze = llvm::cast<AtenUnsqueezeOp>(op);
  Sizes sizes = getSizes(unsqueeze.getSelf());
  std::optional<int64_t> dim = facts.getInt(unsqueeze.getDim());
  if (!sizes || !dim)
    return std::nullopt;
  std::optional<int64_t> d = wrapDim(*dim, sizes->size() + 1);
  if (!d)
    return std::nullopt;
  sizes->insert(sizes->begin() + *d, 1);
  return sizes;
}

static Sizes squeezeSizes(Operation *op, const ShapeFacts &) {
  Sizes sizes = getSizes(op->getOperand(0));
  // A `?` may be 1: then the rank is unknown.
  if (!sizes || llvm::is_contained(*sizes, kUnknown))
    return std::nullopt;
  llvm::erase(*sizes, 1);
  return sizes;
}

static Sizes squeezeDimSizes(Operation *op, const ShapeFacts &facts) {
  auto squeeze = llvm::cast<AtenSqueezeDimOp>(op);
  Sizes sizes = getSizes(squeeze.getSelf());
  std::optional<int64_t> dim = facts.getInt(squeeze.getDim());
  if (!sizes || !dim)
    return std::nullopt;
  if (sizes->empty())
    return sizes;
  std::optional<int64_t> d = wrapDim(*dim, sizes->size());
  if (!d || (*sizes)[*d] == kUnknown)
    return std::nullopt;
  if ((*sizes)[*d] == 1)
    sizes->erase(sizes->begin() + *d);
  return sizes;
}

/// expand and broadcast_to: -1 keeps a dim; new dims lead.
static Sizes expandSizes(Value self, Value target, const ShapeFacts &facts) {
  Sizes sizes = getSizes(self);
  std::optional<SmallVector<int64_t>> wanted = facts.getIntList(target);
  if (!sizes || !wanted || wanted->size() < sizes->size())
    return std::nullopt;
  size_t lead = wanted->size() - sizes->size();
  SmallVector<int64_t> result;
  for (auto [i, w] : llvm::enumerate(*wanted)) {
    if (i < lead) {
      result.push_back(w < 0 ? kUnknown : w);
      continue;
    }
    int64_t own = (*sizes)[i - lead];
    if (w == -1)
      result.push_back(own);
    else if (w == kUnknown)
      // A size other than 1 can only be kept.
      result.push_back(own != 1 ? own : kUnknown);
    else
      result.push_back(w);
  }
  return result;
}

static void expandRule(Operation *op, const ShapeFacts &facts,
                       SmallVectorImpl<Type> &results) {
  Value self = op->getOperand(0);
  results[0] = withSizes(self, expandSizes(self, op->getOperand(1), facts));
}

/// The tensors of a list argument, or nullopt.
static std::optional<SmallVector<Value>> getTensors(Value list,
                                                    const ShapeFacts &facts) {
  std::optional<SmallVector<Value>> elements = facts.getListElements(list);
  if (!elements || elements->empty())
    return std::nullopt;
  return elements;
}

/// Sizes that agree where both are known: the known one of each pair.
static Sizes mergeSizes(const Sizes &a, const Sizes &b) {
  if (!a)
    return b;
  if (!b)
    return a;
  if (a->size() != b->size())
    return std::nullopt;
  SmallVector<int64_t> result(*a);
  for (auto [r, y] : llvm::zip_equal(result, *b))
    if (r == kUnknown)
      r = y;
  return result;
}

static void catRule(Operation *op, const ShapeFacts &facts,
                    SmallVectorImpl<Type> &results) {
  auto cat = llvm::cast<AtenCatOp>(op);
  std::optional<SmallVector<Value>> tensors =
      getTensors(cat.getTensors(), facts);
  if (!tensors)
    return;
  Type dtype = getResultType(*tensors, facts);
  StringAttr device = getCommonDevice(*tensors);
  std::optional<int64_t> dim = facts.getInt(cat.getDim());
  // 1-d empty tensors are skipped (legacy behaviour), which only matters
  // when another tensor has a rank other than 1.
  SmallVector<Sizes> shapes;
  bool otherRank = false;
  for (Value t : *tensors) {
    Sizes s = getSizes(t);
    if (!s) {
      results[0] = makeTensor(op->getContext(), dtype, std::nullopt, device);
      return;
    }
    otherRank |= s->size() != 1;
    shapes.push_back(s);
  }
  if (otherRank)
    llvm::erase_if(
        shapes, [](const Sizes &s) { return s->size() == 1 && (*s)[0] == 0; });
  Sizes sizes;
  std::optional<int64_t> d = dim && !shapes.empty()
                                 ? wrapDim(*dim, shapes.front()->size())
                                 : std::nullopt;
  if (d && !shapes.front()->empty()) {
    sizes = shapes.front();
    (*sizes)[*d] = 0;
    for (const Sizes &s : shapes) {
      if (s->size() != sizes->size()) {
        sizes.reset();
        break;
      }
      int64_t along = addSizes((*sizes)[*d], (*s)[*d]);
      SmallVector<int64_t> other(*s);
      other[*d] = kUnknown;
      sizes = mergeSizes(sizes, other);
      (*sizes)[*d] = along;
    }
  }
  results[0] = makeTensor(op->getContext(), dtype, sizes, device);
}

static void stackRule(Operation *op, const ShapeFacts &facts,
                      SmallVectorImpl<Type> &results) {
  auto stack = llvm::cast<AtenStackOp>(op);
  std::optional<SmallVector<Value>> tensors =
      getTensors(stack.getTensors(), facts);
  if (!tensors)
    return;
  Sizes sizes;
  bool first = true;
  for (Value t : *tensors) {
    Sizes s = getSizes(t);
    if (!s || (!first && (!sizes || s->size() != sizes->size()))) {
      sizes.reset();
      break;
    }
    sizes = first ? s : mergeSizes(sizes, s);
    first = false;
  }
  std::optional<int64_t> dim = facts.getInt(stack.getDim());
  std::optional<int64_t> d =
      sizes && dim ? wrapDim(*dim, sizes->size() + 1) : std::nullopt;
  if (d)
    sizes->insert(sizes->begin() + *d, tensors->size());
  else
    sizes.reset();
  results[0] = makeTensor(op->getContext(), getResultType(*tensors, facts),
                          sizes, getCommonDevice(*tensors));
}

static Sizes sliceSizes(Operation *op, const ShapeFacts &facts) {
  auto slice = llvm::cast<AtenSliceTensorOp>(op);
  Sizes sizes = getSizes(slice.getSelf());
  std::optional<int64_t> dim = facts.getInt(slice.getDim());
  if (!sizes || !dim || sizes->empty())
    return std::nullopt;
  std::optional<int64_t> d = wrapDim(*dim, sizes->size());
  if (!d)
    return std::nullopt;
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  std::optional<int64_t> start =
      facts.isNone(slice.getStart()) ? 0 : facts.getInt(slice.getStart());
  std::optional<int64_t> end =
      facts.isNone(slice.getEnd()) ? kMax : facts.getInt(slice.getEnd());
  std::optional<int64_t> step = facts.getInt(slice.getStep());
  int64_t &size = (*sizes)[*d];
  if (!start || !end || !step || *step <= 0) {
    size = kUnknown;
    return sizes;
  }
  if (size == kUnknown) {
    // Only the whole dimension is known to keep its size.
    if (!(*start == 0 && *end == kMax && *step == 1))
      size = kUnknown;
    return sizes;
  }
  // at::slice's clamping.
  int64_t s = *start, e = *end;
  if (s < 0)
    s += size;
  if (e < 0)
    e += size;
  s = std::clamp<int64_t>(s, 0, size);
  e = e < s ? s : std::min(e, size);
  size = (e - s + *step - 1) / *step;
  return sizes;
}

static Sizes selectSizes(Operation *op, const ShapeFacts &facts) {
  auto select = llvm::cast<AtenSelectIntOp>(op);
  Sizes sizes = getSizes(select.getSelf());
  std::optional<int64_t> dim = facts.getInt(select.getDim());
  if (!sizes || !dim || sizes->empty())
    return std::nullopt;
  std::optional<int64_t> d = wrapDim(*dim, sizes->size());
  if (!d)
    return std::nullopt;
  sizes->erase(sizes->begin() + *d);
  return sizes;
}

static Sizes narrowSizes(Operation *op, const ShapeFacts &facts) {
  auto narrow = llvm::cast<AtenNarrowOp>(op);
  Sizes sizes = getSizes(narrow.getSelf());
  std::optional<int64_t> dim = facts.getInt(narrow.getDim());
  if (!sizes || !dim || sizes->empty())
    return std::nullopt;
  std::optional<int64_t> d = wrapDim(*dim, sizes->size());
  if (!d)
    return std::nullopt;
  (*sizes)[*d] = facts.getInt(narrow.getLength()).value_or(kUnknown);
  return sizes;
}

static Sizes repeatSizes(Operation *op, const ShapeFacts &facts) {
  auto repeat = llvm::cast<AtenRepeatOp>(op);
  Sizes sizes = getSizes(repeat.getSelf());
  std::optional<SmallVector<int64_t>> repeats =
      facts.getIntList(repeat.getRepeats());
  if (!sizes || !repeats || repeats->size() < sizes->size())
    return std::nullopt;
  SmallVector<int64_t> result(*repeats);
  size_t lead = repeats->size() - sizes->size();
  for (size_t i = lead; i < result.size(); ++i)
    result[i] = mulSizes(result[i], (*sizes)[i - lead]);
  return result;
}

static Sizes indexSelectSizes(Operation *op, const ShapeFacts &facts) {
  auto indexSelect = llvm::cast<AtenIndexSelectOp>(op);
  Sizes sizes = getSizes(indexSelect.getSelf());
  std::optional<int64_t> dim = facts.getInt(indexSelect.getDim());
  if (!sizes || !dim)
    return std::nullopt;
  if (sizes->empty())
    return sizes;
  std::optional<int64_t> d = wrapDim(*dim, sizes->size());
  if (!d)
    return std::nullopt;
  Sizes index = getSizes(indexSelect.getIndex());
  (*sizes)[*d] = !index || index->size() > 1 ? kUnknown
                 : index->empty()            ? 1
                                             : index->front();
  return sizes;
}

/// gather(self, dim, index): index's sizes.
static Sizes gatherSizes(Operation *op, const ShapeFacts &) {
  return getSizes(llvm::cast<AtenGatherOp>(op).getIndex());
}

/// index.Tensor(self, indices): advanced indexing. Each index tensor takes
/// one dim (a Bool or Byte mask takes as many dims as it has, giving one of
/// unknown size); the indices broadcast, and their result dims replace the
/// indexed dims when the indices are adjacent, or lead otherwise.
static Sizes indexSizes(Operation *op, const ShapeFacts &facts) {
  auto index = llvm::cast<AtenIndexTensorOp>(op);
  Sizes sizes = getSizes(index.getSelf());
  std::optional<SmallVector<Value>> indices =
      facts.getListElements(index.getIndices());
  if (!sizes || !indices)
    return std::nullopt;
  SmallVector<Sizes> shapes;
  SmallVector<int64_t> kept;
  int64_t firstIndexed = -1, lastIndexed = -1;
  bool adjacent = true;
  size_t dim = 0;
  for (Value i : *indices) {
    if (facts.isNone(i)) {
      if (dim >= sizes->size())
        return std::nullopt;
      kept.push_back(dim++);
      continue;
    }
    TensorType type = getTensorType(i);
    if (!type || !type.getDtype() || !type.hasSizes())
      return std::nullopt;
    bool mask =
        isBoolDtype(type.getDtype()) || type.getDtype().isUnsignedInteger(8);
    size_t taken = mask ? type.getSizes().size() : 1;
    if (dim + taken > sizes->size())
      return std::nullopt;
    if (lastIndexed >= 0 && lastIndexed != static_cast<int64_t>(dim) - 1)
      adjacent = false;
    if (firstIndexed < 0)
      firstIndexed = dim;
    lastIndexed = dim + taken - 1;
    dim += taken;
    shapes.push_back(mask ? Sizes(SmallVector<int64_t>{kUnknown})
                          : getSizes(i));
  }
  for (; dim < sizes->size(); ++dim)
    kept.push_back(dim);
  Sizes indexed = broadcast(shapes);
  if (!indexed || firstIndexed < 0)
    return std::nullopt;
  SmallVector<int64_t> result;
  auto keep = [&](auto pred) {
    for (int64_t k : kept)
      if (pred(k))
        result.push_back((*sizes)[k]);
  };
  if (adjacent) {
    keep([&](int64_t k) { return k < firstIndexed; });
    result.append(*indexed);
    keep([&](int64_t k) { return k > lastIndexed; });
  } else {
    result.append(*indexed);
    keep([](int64_t) { return true; });
  }
  return result;
}

/// _grad_sum_to_size(self, size?): self, or the given sizes.
static Sizes gradSumToSizeSizes(Operation *op, const ShapeFacts &facts) {
  auto sumTo = llvm::cast<Aten_GradSumToSizeOp>(op);
  if (facts.isNone(sumTo.getSize()))
    return getSizes(sumTo.getSelf());
  return facts.getIntList(sumTo.getSize());
}

//===----------------------------------------------------------------------===//
// Splits
//===----------------------------------------------------------------------===//

/// The sizes of the pieces of `self` split along `dim` into pieces of
/// `pieceSize` (the last one smaller): nullopt when the count is not known.
static std::optional<SmallVector<Sizes>> splitInto(Value self, int64_t dim,
                                                   int64_t pieceSize) {
  Sizes sizes = getSizes(self);
  if (!sizes || sizes->empty() || pieceSize <= 0)
    return std::nullopt;
  std::optional<int64_t> d = wrapDim(dim, sizes->size());
  if (!d || (*sizes)[*d] == kUnknown || (*sizes)[*d] == 0)
    return std::nullopt;
  int64_t total = (*sizes)[*d];
  int64_t count = (total + pieceSize - 1) / pieceSize;
  SmallVector<Sizes> pieces;
  for (int64_t i = 0; i < count; ++i) {
    SmallVector<int64_t> piece(*sizes);
    piece[*d] = std::min(pieceSize, total - i * pieceSize);
    pieces.push_back(piece);
  }
  return pieces;
}

std::optional<SmallVector<Type>> shape::getSplitTypes(Operation *op,
                                                      const ShapeFacts &facts) {
  std::optional<SmallVector<Sizes>> pieces;
  Value self = op->getOperand(0);
  if (auto chunk = llvm::dyn_cast<AtenChunkOp>(op)) {
    std::optional<int64_t> chunks = facts.getInt(chunk.getChunks());
    std::optional<int64_t> dim = facts.getInt(chunk.getDim());
    Sizes sizes = getSizes(self);
    if (chunks && *chunks > 0 && dim && sizes && !sizes->empty())
      if (std::optional<int64_t> d = wrapDim(*dim, sizes->size());
          d && (*sizes)[*d] != kUnknown)
        pieces = splitInto(self, *dim, ((*sizes)[*d] + *chunks - 1) / *chunks);
  } else if (auto chunk = llvm::dyn_cast<PrimConstantChunkOp>(op)) {
    Sizes sizes = getSizes(self);
    int64_t chunks = chunk.getChunks(), dim = chunk.getDim();
    if (sizes && !sizes->empty())
      if (std::optional<int64_t> d = wrapDim(dim, sizes->size());
          d && (*sizes)[*d] != kUnknown && chunks > 0)
        pieces = splitInto(self, dim, ((*sizes)[*d] + chunks - 1) / chunks);
  } else if (auto split = llvm::dyn_cast<AtenSplitTensorOp>(op)) {
    std::optional<int64_t> size = facts.getInt(split.getSplitSize());
    std::optional<int64_t> dim = facts.getInt(split.getDim());
    if (size && dim)
      pieces = splitInto(self, *dim, *size);
  } else if (auto split = llvm::dyn_cast<AtenSplitWithSizesOp>(op)) {
    // Pieces of the given sizes, which must add up to the dim's size.
    std::optional<SmallVector<int64_t>> lengths =
        facts.getIntList(split.getSplitSizes());
    std::optional<int64_t> dim = facts.getInt(split.getDim());
    Sizes sizes = getSizes(self);
    std::optional<int64_t> d =
        dim && sizes && !sizes->empty() ? wrapDim(*dim, sizes->size())
                                        : std::nullopt;
    if (lengths && d && (*sizes)[*d] != kUnknown &&
        llvm::all_of(*lengths, [](int64_t n) { return n >= 0; }) &&
        std::accumulate(lengths->begin(), lengths->end(), int64_t(0)) ==
            (*sizes)[*d]) {
      pieces.emplace();
      for (int64_t n : *lengths) {
        SmallVector<int64_t> piece(*sizes);
        piece[*d] = n;
        pieces->push_back(piece);
      }
    }
  } else if (auto unbind = llvm::dyn_cast<AtenUnbindIntOp>(op)) {
    std::optional<int64_t> dim = facts.getInt(unbind.getDim());
    if (dim)
      pieces = splitInto(self, *dim, 1);
    if (pieces)
      for (Sizes &piece : *pieces)
        piece->erase(piece->begin() + *wrapDim(*dim, piece->size()));
  }
  if (!pieces)
    return std::nullopt;
  SmallVector<Type> types;
  for (const Sizes &piece : *pieces)
    types.push_back(withSizes(self, piece));
  return types;
}

/// chunk, split and unbind give lists: their element type states what all
/// pieces share.
static void splitRule(Operation *op, const ShapeFacts &facts,
                      SmallVectorImpl<Type> &results) {
  Value self = op->getOperand(0);
  Type element;
  if (std::optional<SmallVector<Type>> pieces = getSplitTypes(op, facts)) {
    element = pieces->front();
    for (Type t : *pieces)
      element = joinTypes(element, t, Type());
  } else {
    // The rank is kept (one less for unbind); the split dim is unknown.
    Sizes sizes = getSizes(self);
    bool unbind = llvm::isa<AtenUnbindIntOp>(op);
    if (sizes && !unbind)
      sizes = SmallVector<int64_t>(sizes->size(), kUnknown);
    else if (sizes && !sizes->empty())
      sizes = SmallVector<int64_t>(sizes->size() - 1, kUnknown);
    else
      sizes.reset();
    element = withSizes(self, sizes);
  }
  if (element)
    results[0] = ListType::get(op->getContext(), element);
}

/// prim::ConstantChunk: one result per chunk.
static void constantChunkRule(Operation *op, const ShapeFacts &facts,
                              SmallVectorImpl<Type> &results) {
  std::optional<SmallVector<Type>> pieces = getSplitTypes(op, facts);
  if (pieces && pieces->size() == results.size()) {
    llvm::copy(*pieces, results.begin());
    return;
  }
  Sizes sizes = getSizes(op->getOperand(0));
  for (Type &r : results)
    r = withSizes(op->getOperand(0),
                  sizes ? Sizes(SmallVector<int64_t>(sizes->size(), kUnknown))
                        : std::nullopt);
}

//===----------------------------------------------------------------------===//
// Rule registration
//===----------------------------------------------------------------------===//

void populateViewShapeRules(ShapeRuleSet &rules) {
  rules.add<AtenViewOp, AtenReshapeOp>(viewRule);
  rules.add<AtenViewAsOp, AtenReshapeAsOp, AtenExpandAsOp>(asOtherRule);
  rules.add<AtenFlattenUsingIntsOp>(viewOf(flattenSizes));
  rules.add<AtenPermuteOp>(viewOf(permuteSizes));
  rules.add<AtenTransposeIntOp>(viewOf(transposeSizes));
  rules.add<AtenTOp>(viewOf(tSizes));
  rules.add<AtenUnsqueezeOp>(viewOf(unsqueezeSizes));
  rules.add<AtenSqueezeOp>(viewOf(squeezeSizes));
  rules.add<AtenSqueezeDimOp>(viewOf(squeezeDimSizes));
  rules.add<AtenExpandOp, AtenBroadcastToOp>(expandRule);
  rules.add<AtenCatOp>(catRule);
  rules.add<AtenStackOp>(stackRule);
  rules.add<AtenSliceTensorOp>(viewOf(sliceSizes));
  // slice_scatter and select_scatter: a new tensor like self.
  rules.add<AtenSliceScatterOp, AtenSelectScatterOp>(
      [](Operation *op, const ShapeFacts &, SmallVectorImpl<Type> &results) {
        results[0] = sameAs(op->getOperand(0));
      });
  rules.add<AtenSelectIntOp>(viewOf(selectSizes));
  rules.add<AtenNarrowOp>(viewOf(narrowSizes));
  rules.add<AtenRepeatOp>(viewOf(repeatSizes));
  rules.add<AtenIndexSelectOp>(viewOf(indexSelectSizes));
  rules.add<AtenGatherOp>(viewOf(gatherSizes));
  // scatter, index_put, index_add: self with some elements written.
  rules.add<AtenScatterSrcOp, AtenScatterValueOp, AtenScatterReduceOp,
            AtenScatterValueReduceOp, AtenScatterAddOp, AtenScatterReduceTwoOp,
            AtenIndexPutOp, AtenIndexPutHackedTwinOp, AtenIndexAddOp>(
      [](Operation *op, const ShapeFacts &, SmallVectorImpl<Type> &results) {
        results[0] = sameAs(op->getOperand(0));
      });
  // flip: a new tensor like self.
  rules.add<AtenFlipOp>(
      [](Operation *op, const ShapeFacts &, SmallVectorImpl<Type> &results) {
        results[0] = sameAs(op->getOperand(0));
      });
  rules.add<AtenIndexTensorOp>(viewOf(indexSizes));
  // masked_select: as many elements as the mask sets.
  rules.add<AtenMaskedSelectOp>([](Operation *op, const ShapeFacts &,
                                   SmallVectorImpl<Type> &results) {
    results[0] = withSizes(op->getOperand(0), SmallVector<int64_t>{kUnknown});
  });
  rules.add<Aten_GradSumToSizeOp>(viewOf(gradSumToSizeSizes));
  rules.add<AtenChunkOp, AtenSplitTensorOp, AtenSplitWithSizesOp,
            AtenUnbindIntOp>(splitRule);
  rules.add<PrimConstantChunkOp>(constantChunkRule);
}

} // namespace mlir::tsmlir::ts
