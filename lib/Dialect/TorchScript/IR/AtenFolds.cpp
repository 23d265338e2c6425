//===- AtenFolds.cpp - Folders of schema-described ops --------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Constant folding of scalar arithmetic, comparisons and conversions, and of
// queries (`aten::size`, `aten::dim`, `prim::dtype`, ...) whose answer the
// refined types already hold. Folded values are plain attributes (IntegerAttr
// i64, FloatAttr f64, BoolAttr, StringAttr, ArrayAttr, UnitAttr for None);
// the dialect's constant materializer turns them into ts.prim.Constant.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "ListFacts.h"
#include "tsmlir/Dialect/TorchScript/IR/Aliasing.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include <cmath>

namespace mlir::tsmlir::ts {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static std::optional<int64_t> asInt(Attribute attr) {
  if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(attr))
    return i.getInt();
  return std::nullopt;
}

static std::optional<double> asFloat(Attribute attr) {
  if (auto f = llvm::dyn_cast_or_null<FloatAttr>(attr))
    return f.getValueAsDouble();
  return std::nullopt;
}

static std::optional<bool> asBool(Attribute attr) {
  if (auto b = llvm::dyn_cast_or_null<BoolAttr>(attr))
    return b.getValue();
  return std::nullopt;
}

static Attribute intAttr(MLIRContext *ctx, int64_t v) {
  return IntegerAttr::get(IntegerType::get(ctx, 64), v);
}

static Attribute floatAttr(MLIRContext *ctx, double v) {
  return FloatAttr::get(Float64Type::get(ctx), v);
}

static Attribute boolAttr(MLIRContext *ctx, bool v) {
  return BoolAttr::get(ctx, v);
}

/// A known list element's constant: the attribute, or a constant value's;
/// null when the element is not a constant.
static Attribute constantOf(OpFoldResult element) {
  Attribute attr = llvm::dyn_cast<Attribute>(element);
  if (!attr)
    matchPattern(llvm::cast<Value>(element), m_Constant(&attr));
  return attr;
}

/// Folds `fn(a, b)` when both operands are constants of the kind `get` reads.
template <typename T, typename Get, typename Fn>
static Attribute foldBinary(Attribute lhs, Attribute rhs, Get get, Fn fn) {
  std::optional<T> a = get(lhs), b = get(rhs);
  if (!a || !b)
    return {};
  return fn(*a, *b);
}

/// Python's floor division and modulo on ints (rounding toward -inf).
static int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}
static int64_t floorMod(int64_t a, int64_t b) { return a - floorDiv(a, b) * b; }

/// Overflow-checked int arithmetic: TorchScript ints are int64 and wrap, but
/// folding must give what the interpreter gives; refuse on overflow.
template <typename Fn>
static Attribute foldIntChecked(MLIRContext *ctx, Attribute lhs, Attribute rhs,
                                Fn fn) {
  return foldBinary<int64_t>(lhs, rhs, asInt, [&](int64_t a, int64_t b) {
    int64_t r;
    if (fn(a, b, &r))
      return Attribute();
    return intAttr(ctx, r);
  });
}

//===----------------------------------------------------------------------===//
// int arithmetic
//===----------------------------------------------------------------------===//

OpFoldResult AtenAddIntOp::fold(FoldAdaptor a) {
  return foldIntChecked(getContext(), a.getA(), a.getB(),
                        [](int64_t x, int64_t y, int64_t *r) {
                          return __builtin_add_overflow(x, y, r);
                        });
}

OpFoldResult AtenSubIntOp::fold(FoldAdaptor a) {
  return foldIntChecked(getContext(), a.getA(), a.getB(),
                        [](int64_t x, int64_t y, int64_t *r) {
                          return __builtin_sub_overflow(x, y, r);
                        });
}

OpFoldResult AtenMulIntOp::fold(FoldAdaptor a) {
  return foldIntChecked(getContext(), a.getA(), a.getB(),
                        [](int64_t x, int64_t y, int64_t *r) {
                          return __builtin_mul_overflow(x, y, r);
                        });
}

OpFoldResult AtenFloordivIntOp::fold(FoldAdaptor a) {
  if (std::optional<int64_t> y = asInt(a.getB()); y && *y == 1)
    return getA(); // x // 1
  return foldIntChecked(getContext(), a.getA(), a.getB(),
                        [](int64_t x, int64_t y, int64_t *r) {
                          // Division by zero raises; INT_MIN // -1 overflows.
                          if (y == 0 || (x == INT64_MIN && y == -1))
                            return true;
                          *r = floorDiv(x, y);
                          return false;
                        });
}

OpFoldResult AtenRemainderIntOp::fold(FoldAdaptor a) {
  return foldIntChecked(getContext(), a.getA(), a.getB(),
                        [](int64_t x, int64_t y, int64_t *r) {
                          if (y == 0 || (x == INT64_MIN && y == -1))
                            return true;
                          *r = floorMod(x, y);
                          return false;
                        });
}

OpFoldResult AtenNegIntOp::fold(FoldAdaptor a) {
  std::optional<int64_t> x = asInt(a.getA());
  if (!x || *x == INT64_MIN)
    return {};
  return intAttr(getContext(), -*x);
}

OpFoldResult AtenDivIntOp::fold(FoldAdaptor a) {
  return foldBinary<int64_t>(a.getA(), a.getB(), asInt,
                             [&](int64_t x, int64_t y) -> Attribute {
                               if (y == 0)
                                 return {};
                               return floatAttr(getContext(),
                                                double(x) / double(y));
                             });
}

OpFoldResult PrimMinIntOp::fold(FoldAdaptor a) {
  return foldBinary<int64_t>(a.getA(), a.getB(), asInt, [&](int64_t x, int64_t y) {
    return intAttr(getContext(), std::min(x, y));
  });
}

OpFoldResult PrimMaxIntOp::fold(FoldAdaptor a) {
  return foldBinary<int64_t>(a.getA(), a.getB(), asInt, [&](int64_t x, int64_t y) {
    return intAttr(getContext(), std::max(x, y));
  });
}

//===----------------------------------------------------------------------===//
// float arithmetic
//===----------------------------------------------------------------------===//

template <typename Fn>
static Attribute foldFloat(MLIRContext *ctx, Attribute lhs, Attribute rhs,
                           Fn fn) {
  return foldBinary<double>(lhs, rhs, asFloat, [&](double x, double y) {
    return floatAttr(ctx, fn(x, y));
  });
}

OpFoldResult AtenAddFloatOp::fold(FoldAdaptor a) {
  return foldFloat(getContext(), a.getA(), a.getB(),
                   [](double x, double y) { return x + y; });
}

OpFoldResult AtenSubFloatOp::fold(FoldAdaptor a) {
  return foldFloat(getContext(), a.getA(), a.getB(),
                   [](double x, double y) { return x - y; });
}

OpFoldResult AtenMulFloatOp::fold(FoldAdaptor a) {
  return foldFloat(getContext(), a.getA(), a.getB(),
                   [](double x, double y) { return x * y; });
}

OpFoldResult AtenDivFloatOp::fold(FoldAdaptor a) {
  // Python raises ZeroDivisionError: leave it to run time.
  std::optional<double> y = asFloat(a.getB());
  if (!y || *y == 0.0)
    return {};
  return foldFloat(getContext(), a.getA(), a.getB(),
                   [](double x, double y) { return x / y; });
}

OpFoldResult AtenNegFloatOp::fold(FoldAdaptor a) {
  std::optional<double> x = asFloat(a.getA());
  return x ? floatAttr(getContext(), -*x) : Attribute();
}

/// math.sqrt of a constant: Python raises for a negative operand
/// (ValueError), so only non-negative ones fold.
static Attribute foldSqrt(MLIRContext *ctx, std::optional<double> x) {
  if (!x || !(*x >= 0.0))
    return {};
  return floatAttr(ctx, std::sqrt(*x));
}

OpFoldResult AtenSqrtIntOp::fold(FoldAdaptor a) {
  std::optional<int64_t> x = asInt(a.getA());
  return foldSqrt(getContext(),
                  x ? std::optional<double>(double(*x)) : std::nullopt);
}

OpFoldResult AtenSqrtFloatOp::fold(FoldAdaptor a) {
  return foldSqrt(getContext(), asFloat(a.getA()));
}

//===----------------------------------------------------------------------===//
// Comparisons
//===----------------------------------------------------------------------===//

#define TS_FOLD_COMPARE(OP, T, GET, EXPR)                                      \
  OpFoldResult OP::fold(FoldAdaptor a) {                                       \
    return foldBinary<T>(a.getA(), a.getB(), GET, [&](T x, T y) {              \
      return boolAttr(getContext(), EXPR);                                     \
    });                                                                        \
  }

TS_FOLD_COMPARE(AtenEqIntOp, int64_t, asInt, x == y)
TS_FOLD_COMPARE(AtenNeIntOp, int64_t, asInt, x != y)
TS_FOLD_COMPARE(AtenLtIntOp, int64_t, asInt, x < y)
TS_FOLD_COMPARE(AtenLeIntOp, int64_t, asInt, x <= y)
TS_FOLD_COMPARE(AtenGtIntOp, int64_t, asInt, x > y)
TS_FOLD_COMPARE(AtenGeIntOp, int64_t, asInt, x >= y)
TS_FOLD_COMPARE(AtenEqFloatOp, double, asFloat, x == y)
TS_FOLD_COMPARE(AtenNeFloatOp, double, asFloat, x != y)
TS_FOLD_COMPARE(AtenLtFloatOp, double, asFloat, x < y)
TS_FOLD_COMPARE(AtenLeFloatOp, double, asFloat, x <= y)
TS_FOLD_COMPARE(AtenGtFloatOp, double, asFloat, x > y)
TS_FOLD_COMPARE(AtenGeFloatOp, double, asFloat, x >= y)
TS_FOLD_COMPARE(AtenEqBoolOp, bool, asBool, x == y)
TS_FOLD_COMPARE(AtenNeBoolOp, bool, asBool, x != y)
TS_FOLD_COMPARE(Aten__And__BoolOp, bool, asBool, x && y)
TS_FOLD_COMPARE(Aten__Or__BoolOp, bool, asBool, x || y)
TS_FOLD_COMPARE(Aten__Xor__BoolOp, bool, asBool, x != y)

#undef TS_FOLD_COMPARE

static std::optional<StringRef> asStr(Attribute attr) {
  if (auto s = llvm::dyn_cast_or_null<StringAttr>(attr))
    return s.getValue();
  return std::nullopt;
}

OpFoldResult AtenEqStrOp::fold(FoldAdaptor a) {
  return foldBinary<StringRef>(a.getA(), a.getB(), asStr,
                               [&](StringRef x, StringRef y) {
                                 return boolAttr(getContext(), x == y);
                               });
}

OpFoldResult AtenNeStrOp::fold(FoldAdaptor a) {
  return foldBinary<StringRef>(a.getA(), a.getB(), asStr,
                               [&](StringRef x, StringRef y) {
                                 return boolAttr(getContext(), x != y);
                               });
}

OpFoldResult Aten__Not__Op::fold(FoldAdaptor a) {
  std::optional<bool> x = asBool(a.getSelf());
  return x ? boolAttr(getContext(), !*x) : Attribute();
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

OpFoldResult AtenIntFloatOp::fold(FoldAdaptor a) {
  std::optional<double> x = asFloat(a.getA());
  // int(nan), int(inf) and out-of-range values raise.
  if (!x || !std::isfinite(*x) || std::fabs(*x) >= 9.2e18)
    return {};
  return intAttr(getContext(), static_cast<int64_t>(std::trunc(*x)));
}

/// math.floor and math.ceil of a float constant, an int: nan, inf and
/// values outside int64 raise at run time, so they do not fold.
static Attribute foldRounding(MLIRContext *ctx, std::optional<double> x,
                              double (*round)(double)) {
  if (!x || !std::isfinite(*x))
    return {};
  double r = round(*x);
  if (std::fabs(r) >= 9.2e18)
    return {};
  return intAttr(ctx, static_cast<int64_t>(r));
}

OpFoldResult AtenFloorFloatOp::fold(FoldAdaptor a) {
  return foldRounding(getContext(), asFloat(a.getA()),
                      [](double x) { return std::floor(x); });
}

OpFoldResult AtenCeilFloatOp::fold(FoldAdaptor a) {
  return foldRounding(getContext(), asFloat(a.getA()),
                      [](double x) { return std::ceil(x); });
}

OpFoldResult AtenIntBoolOp::fold(FoldAdaptor a) {
  std::optional<bool> x = asBool(a.getA());
  return x ? intAttr(getContext(), *x) : Attribute();
}

OpFoldResult AtenFloatIntOp::fold(FoldAdaptor a) {
  std::optional<int64_t> x = asInt(a.getA());
  return x ? floatAttr(getContext(), double(*x)) : Attribute();
}

OpFoldResult AtenFloatBoolOp::fold(FoldAdaptor a) {
  std::optional<bool> x = asBool(a.getA());
  return x ? floatAttr(getContext(), *x ? 1.0 : 0.0) : Attribute();
}

OpFoldResult AtenBoolIntOp::fold(FoldAdaptor a) {
  std::optional<int64_t> x = asInt(a.getA());
  return x ? boolAttr(getContext(), *x != 0) : Attribute();
}

OpFoldResult AtenBoolFloatOp::fold(FoldAdaptor a) {
  std::optional<double> x = asFloat(a.getA());
  return x ? boolAttr(getContext(), *x != 0.0) : Attribute();
}

//===----------------------------------------------------------------------===//
// Lists
//===----------------------------------------------------------------------===//

OpFoldResult AtenLenTOp::fold(FoldAdaptor a) {
  auto elements = getKnownListElements(getA(), a.getA());
  if (!elements)
    return {};
  return intAttr(getContext(), elements->size());
}

OpFoldResult Aten__Getitem__TOp::fold(FoldAdaptor a) {
  std::optional<int64_t> index = asInt(a.getIdx());
  auto elements = getKnownListElements(getListValue(), a.getListValue());
  if (!index || !elements)
    return {};
  std::optional<int64_t> i = normalizeIndex(*index, elements->size());
  if (!i)
    return {}; // Raises IndexError at run time.
  OpFoldResult element = (*elements)[*i];
  if (auto value = llvm::dyn_cast<Value>(element))
    return value.getType() == getType() ? element : OpFoldResult();
  return element;
}

/// `key in list`: true when a known element equals the constant `key`,
/// false when every element is a constant and none does.
static OpFoldResult foldContains(MLIRContext *ctx, Value list,
                                 Attribute listConstant, Attribute key) {
  if (!key)
    return {};
  auto elements = getKnownListElements(list, listConstant);
  if (!elements)
    return {};
  bool allKnown = true;
  for (OpFoldResult element : *elements) {
    Attribute attr = constantOf(element);
    if (!attr) {
      allKnown = false;
      continue;
    }
    if (attr == key)
      return boolAttr(ctx, true);
  }
  return allKnown ? boolAttr(ctx, false) : OpFoldResult();
}

OpFoldResult Aten__Contains__IntListOp::fold(FoldAdaptor a) {
  return foldContains(getContext(), getL(), a.getL(), a.getItem());
}

OpFoldResult Aten__Contains__StrListOp::fold(FoldAdaptor a) {
  return foldContains(getContext(), getL(), a.getL(), a.getItem());
}

/// `a == b` of two lists, element by element as TorchScript compares them
/// (floats by value, so NaN differs from itself): false when the lengths
/// differ or a pair of constants differs, true when every pair is known
/// equal (equal constants, or for other than floats the same value).
static std::optional<bool> knownListEquality(Value a, Attribute aConstant,
                                             Value b, Attribute bConstant,
                                             bool floats) {
  auto xs = getKnownListElements(a, aConstant);
  auto ys = getKnownListElements(b, bConstant);
  if (!xs || !ys)
    return std::nullopt;
  if (xs->size() != ys->size())
    return false;
  bool allKnown = true;
  for (auto [x, y] : llvm::zip_equal(*xs, *ys)) {
    Attribute xa = constantOf(x), ya = constantOf(y);
    if (xa && ya) {
      auto xf = llvm::dyn_cast<FloatAttr>(xa), yf = llvm::dyn_cast<FloatAttr>(ya);
      bool equal = xf && yf ? xf.getValueAsDouble() == yf.getValueAsDouble()
                            : xa == ya;
      if (!equal)
        return false;
      continue;
    }
    if (!floats && !xa && !ya &&
        llvm::cast<Value>(x) == llvm::cast<Value>(y))
      continue;
    allKnown = false;
  }
  return allKnown ? std::optional<bool>(true) : std::nullopt;
}

//===----------------------------------------------------------------------===//
// Ranges, strings and the execution environment
//===----------------------------------------------------------------------===//

/// __range_length(lo, hi, step): the number of values of range(lo, hi,
/// step) (a zero step raises at run time).
OpFoldResult Aten__RangeLengthOp::fold(FoldAdaptor a) {
  std::optional<int64_t> lo = asInt(a.getLo()), hi = asInt(a.getHi()),
                         step = asInt(a.getStep());
  if (!lo || !hi || !step || *step == 0)
    return {};
  int64_t n = 0;
  if (*step > 0 && *lo < *hi)
    n = (*hi - *lo - 1) / *step + 1;
  else if (*step < 0 && *lo > *hi)
    n = (*lo - *hi - 1) / -*step + 1;
  return intAttr(getContext(), n);
}

/// __derive_index(index, start, step): start + index * step.
OpFoldResult Aten__DeriveIndexOp::fold(FoldAdaptor a) {
  std::optional<int64_t> index = asInt(a.getIndex()),
                         start = asInt(a.getStart()), step = asInt(a.getStep());
  if (!index || !start || !step)
    return {};
  return intAttr(getContext(), *start + *index * *step);
}

/// str.find(substr, start, end) as TorchScript's: negative bounds count
/// from the end (end -1 is the end), -1 when not found.
OpFoldResult AtenFindOp::fold(FoldAdaptor a) {
  auto self = llvm::dyn_cast_or_null<StringAttr>(a.getSelf());
  auto sub = llvm::dyn_cast_or_null<StringAttr>(a.getSubstr());
  std::optional<int64_t> start = asInt(a.getStart()), end = asInt(a.getEnd());
  if (!self || !sub || !start || !end)
    return {};
  int64_t size = self.getValue().size();
  int64_t s = *start < 0 ? std::max<int64_t>(0, size + *start) : *start;
  int64_t e = *end < 0 ? std::max<int64_t>(0, size + *end + 1) : *end;
  StringRef text = e > s && s <= size
                       ? self.getValue().substr(s, e - s)
                       : StringRef();
  int64_t result = -1;
  if (text.size() >= sub.getValue().size()) {
    size_t pos = text.find(sub.getValue());
    if (pos != StringRef::npos)
      result = static_cast<int64_t>(pos) + s;
  }
  return intAttr(getContext(), result);
}

/// len(s): Python counts code points, not UTF-8 bytes.
OpFoldResult AtenLenStrOp::fold(FoldAdaptor a) {
  std::optional<StringRef> s = asStr(a.getS());
  if (!s)
    return {};
  int64_t n = llvm::count_if(*s, [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  });
  return intAttr(getContext(), n);
}

OpFoldResult AtenAddStrOp::fold(FoldAdaptor a) {
  std::optional<StringRef> x = asStr(a.getA()), y = asStr(a.getB());
  if (!x || !y)
    return {};
  return StringAttr::get(getContext(), *x + *y);
}

/// str(x) of a known string or device (both held as strings), int or bool,
/// as Python prints them. Floats are left to run time (Python's shortest
/// round-trip repr).
OpFoldResult AtenStrOp::fold(FoldAdaptor a) {
  Attribute x = a.getElem();
  Type type = getElem().getType();
  if (auto s = llvm::dyn_cast_or_null<StringAttr>(x))
    return s;
  if (auto b = llvm::dyn_cast_or_null<BoolAttr>(x);
      b && llvm::isa<BoolType>(type))
    return StringAttr::get(getContext(), b.getValue() ? "True" : "False");
  if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(x);
      i && llvm::isa<IntType>(type))
    return StringAttr::get(getContext(), std::to_string(i.getInt()));
  return {};
}

/// all(l) and any(l) of a list of numbers, bools or strings: decided by a
/// known element that is false (all) or true (any), or by every element
/// being known. A number is true when not zero, a string when not empty.
static OpFoldResult foldAllAny(MLIRContext *ctx, Value list,
                               Attribute listConstant, bool isAll) {
  auto elements = getKnownListElements(list, listConstant);
  if (!elements)
    return {};
  bool allKnown = true;
  for (OpFoldResult element : *elements) {
    Attribute attr = constantOf(element);
    std::optional<bool> truth;
    if (auto b = llvm::dyn_cast_or_null<BoolAttr>(attr))
      truth = b.getValue();
    else if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(attr))
      truth = i.getInt() != 0;
    else if (auto f = llvm::dyn_cast_or_null<FloatAttr>(attr))
      truth = f.getValueAsDouble() != 0;
    else if (auto str = llvm::dyn_cast_or_null<StringAttr>(attr))
      truth = !str.getValue().empty();
    if (!truth) {
      allKnown = false;
      continue;
    }
    if (*truth != isAll)
      return boolAttr(ctx, !isAll);
  }
  return allKnown ? boolAttr(ctx, isAll) : OpFoldResult();
}

#define TS_ALL_ANY_FOLD(OP, IS_ALL)                                            \
  OpFoldResult OP::fold(FoldAdaptor a) {                                       \
    return foldAllAny(getContext(), getSelf(), a.getSelf(), IS_ALL);           \
  }
TS_ALL_ANY_FOLD(AtenAllIntOp, true)
TS_ALL_ANY_FOLD(AtenAllFloatOp, true)
TS_ALL_ANY_FOLD(AtenAllBoolOp, true)
TS_ALL_ANY_FOLD(AtenAnyIntOp, false)
TS_ALL_ANY_FOLD(AtenAnyFloatOp, false)
TS_ALL_ANY_FOLD(AtenAnyBoolOp, false)
TS_ALL_ANY_FOLD(AtenAnyStrOp, false)
#undef TS_ALL_ANY_FOLD

/// sum(l) of a list of ints, floats (added left to right, as Python does)
/// or bools (the number of true ones), when every element is known.
template <typename T>
static OpFoldResult foldListSum(MLIRContext *ctx, Value list,
                                Attribute listConstant) {
  auto elements = getKnownListElements(list, listConstant);
  if (!elements)
    return {};
  T sum = 0;
  for (OpFoldResult element : *elements) {
    Attribute attr = constantOf(element);
    if (auto b = llvm::dyn_cast_or_null<BoolAttr>(attr))
      sum += b.getValue();
    else if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(attr))
      sum += i.getInt();
    else if (auto f = llvm::dyn_cast_or_null<FloatAttr>(attr))
      sum += f.getValueAsDouble();
    else
      return {};
  }
  if constexpr (std::is_same_v<T, double>)
    return floatAttr(ctx, sum);
  else
    return intAttr(ctx, sum);
}

OpFoldResult AtenSumIntOp::fold(FoldAdaptor a) {
  return foldListSum<int64_t>(getContext(), getSelf(), a.getSelf());
}
OpFoldResult AtenSumFloatOp::fold(FoldAdaptor a) {
  return foldListSum<double>(getContext(), getSelf(), a.getSelf());
}
OpFoldResult AtenSumBoolOp::fold(FoldAdaptor a) {
  return foldListSum<int64_t>(getContext(), getSelf(), a.getSelf());
}

/// Tensors are never nested here, and compiled code runs without autocast
/// and with grad mode off (as under torch.no_grad(): it records no autograd
/// graph, so torch.nn's attention takes its inference fast path).
OpFoldResult PrimIsNestedOp::fold(FoldAdaptor) {
  return boolAttr(getContext(), false);
}

/// Tensors here are dense, strided, not quantized, and live in memory: a
/// sparse, quantized, meta or MKL-DNN tensor is never made. A tensor is
/// contiguous as far as a program can tell: compiled code materialises
/// every tensor it makes in row-major order (and contiguity never changes
/// a value). The code that runs is TorchScript.
OpFoldResult PrimIsSparseOp::fold(FoldAdaptor) {
  return boolAttr(getContext(), false);
}
OpFoldResult PrimIsQuantizedOp::fold(FoldAdaptor) {
  return boolAttr(getContext(), false);
}
OpFoldResult PrimIsMetaOp::fold(FoldAdaptor) {
  return boolAttr(getContext(), false);
}
OpFoldResult PrimIsMkldnnOp::fold(FoldAdaptor) {
  return boolAttr(getContext(), false);
}
OpFoldResult AtenIsContiguousOp::fold(FoldAdaptor) {
  return boolAttr(getContext(), true);
}
OpFoldResult AtenIsScriptingOp::fold(FoldAdaptor) {
  return boolAttr(getContext(), true);
}

/// The device queries, when the tensor's type states its device
/// (ts-specialize's `device=` answers them for a whole function).
static OpFoldResult foldDeviceIs(MLIRContext *ctx, TensorType type,
                                 StringRef kind) {
  StringAttr device = type.getDevice();
  if (!device)
    return {};
  StringRef name = device.getValue().split(':').first;
  return boolAttr(ctx, name == kind);
}
OpFoldResult PrimIsCudaOp::fold(FoldAdaptor) {
  return foldDeviceIs(getContext(), getA().getType(), "cuda");
}
OpFoldResult PrimIsCpuOp::fold(FoldAdaptor) {
  return foldDeviceIs(getContext(), getA().getType(), "cpu");
}

/// The dtype queries, when the dtype is known.
OpFoldResult AtenIsFloatingPointOp::fold(FoldAdaptor) {
  Type dtype = getSelf().getType().getDtype();
  return dtype ? boolAttr(getContext(), llvm::isa<mlir::FloatType>(dtype))
               : Attribute();
}
OpFoldResult AtenIsComplexOp::fold(FoldAdaptor) {
  Type dtype = getSelf().getType().getDtype();
  return dtype ? boolAttr(getContext(), llvm::isa<mlir::ComplexType>(dtype))
               : Attribute();
}
/// torch.is_signed: false for uint8 and bool, true for everything else.
OpFoldResult AtenIsSignedOp::fold(FoldAdaptor) {
  Type dtype = getSelf().getType().getDtype();
  if (!dtype)
    return {};
  auto i = llvm::dyn_cast<IntegerType>(dtype);
  return boolAttr(getContext(), !i || (!i.isUnsigned() && i.getWidth() != 1));
}

OpFoldResult AtenIsAutocastEnabledOp::fold(FoldAdaptor) {
  return boolAttr(getContext(), false);
}

OpFoldResult AtenIsGradEnabledOp::fold(FoldAdaptor) {
  return boolAttr(getContext(), false);
}

#define TS_LIST_EQUALITY_FOLD(OP, NEGATE, FLOATS)                              \
  OpFoldResult OP::fold(FoldAdaptor a) {                                       \
    std::optional<bool> equal =                                                \
        knownListEquality(getA(), a.getA(), getB(), a.getB(), FLOATS);         \
    if (!equal)                                                                \
      return {};                                                               \
    return boolAttr(getContext(), *equal != NEGATE);                           \
  }
TS_LIST_EQUALITY_FOLD(AtenEqIntListOp, false, false)
TS_LIST_EQUALITY_FOLD(AtenNeIntListOp, true, false)
TS_LIST_EQUALITY_FOLD(AtenEqFloatListOp, false, true)
TS_LIST_EQUALITY_FOLD(AtenNeFloatListOp, true, true)
TS_LIST_EQUALITY_FOLD(AtenEqBoolListOp, false, false)
TS_LIST_EQUALITY_FOLD(AtenNeBoolListOp, true, false)
TS_LIST_EQUALITY_FOLD(AtenEqStrListOp, false, false)
TS_LIST_EQUALITY_FOLD(AtenNeStrListOp, true, false)
#undef TS_LIST_EQUALITY_FOLD

//===----------------------------------------------------------------------===//
// Queries answered by refined types
//===----------------------------------------------------------------------===//

OpFoldResult AtenSizeIntOp::fold(FoldAdaptor a) {
  std::optional<int64_t> dim = asInt(a.getDim());
  ArrayRef<int64_t> sizes = getSelf().getType().getSizesOrEmpty();
  if (!dim || !getSelf().getType().hasSizes())
    return {};
  std::optional<int64_t> d = normalizeIndex(*dim, sizes.size());
  if (!d || sizes[*d] == TensorType::kUnknown)
    return {};
  return intAttr(getContext(), sizes[*d]);
}

OpFoldResult AtenSizeOp::fold(FoldAdaptor) {
  TensorType type = getSelf().getType();
  if (!type.hasStaticShape())
    return {};
  SmallVector<Attribute> sizes;
  for (int64_t s : type.getSizes().asArrayRef())
    sizes.push_back(intAttr(getContext(), s));
  return ArrayAttr::get(getContext(), sizes);
}

/// _infer_size(a, b): the broadcast of two constant size lists (binary
/// losses broadcast their weight so); sizes that do not broadcast raise.
OpFoldResult Aten_InferSizeOp::fold(FoldAdaptor a) {
  auto lhs = llvm::dyn_cast_or_null<ArrayAttr>(a.getA());
  auto rhs = llvm::dyn_cast_or_null<ArrayAttr>(a.getB());
  if (!lhs || !rhs)
    return {};
  auto sizes = [](ArrayAttr list) -> std::optional<SmallVector<int64_t>> {
    SmallVector<int64_t> out;
    for (Attribute e : list) {
      auto i = llvm::dyn_cast<IntegerAttr>(e);
      if (!i)
        return std::nullopt;
      out.push_back(i.getInt());
    }
    return out;
  };
  std::optional<SmallVector<int64_t>> x = sizes(lhs), y = sizes(rhs);
  if (!x || !y)
    return {};
  size_t rank = std::max(x->size(), y->size());
  SmallVector<Attribute> out;
  for (size_t d = 0; d < rank; ++d) {
    auto at = [&](ArrayRef<int64_t> s) -> int64_t {
      size_t offset = rank - s.size();
      return d < offset ? 1 : s[d - offset];
    };
    int64_t p = at(*x), q = at(*y);
    if (p != q && p != 1 && q != 1)
      return {};
    out.push_back(intAttr(getContext(), p == 1 ? q : p));
  }
  return ArrayAttr::get(getContext(), out);
}

OpFoldResult AtenDimOp::fold(FoldAdaptor) {
  std::optional<int64_t> rank = getSelf().getType().getRank();
  return rank ? intAttr(getContext(), *rank) : Attribute();
}

OpFoldResult AtenNumelOp::fold(FoldAdaptor) {
  TensorType type = getSelf().getType();
  if (!type.hasStaticShape())
    return {};
  int64_t n = 1;
  for (int64_t s : type.getSizes().asArrayRef())
    if (__builtin_mul_overflow(n, s, &n))
      return {};
  return intAttr(getContext(), n);
}

/// Whether a tensor of this type is contiguous as at::Tensor::is_contiguous
/// says: each stride is the product of the later sizes, where a dimension of
/// size 1 may have any stride and an empty tensor is always contiguous.
static bool isKnownContiguous(TensorType type) {
  if (!type.hasStaticShape() || !type.hasStrides())
    return false;
  ArrayRef<int64_t> sizes = type.getSizes().asArrayRef();
  ArrayRef<int64_t> strides = type.getStrides().asArrayRef();
  if (sizes.size() != strides.size())
    return false;
  if (llvm::is_contained(sizes, 0))
    return true;
  int64_t expected = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] != 1 && strides[i] != expected)
      return false;
    if (__builtin_mul_overflow(expected, sizes[i], &expected))
      return false;
  }
  return true;
}

// contiguous() of a contiguous tensor returns the tensor itself (an alias),
// so the fold keeps aliasing exactly as PyTorch has it.
OpFoldResult AtenContiguousOp::fold(FoldAdaptor a) {
  std::optional<int64_t> format = asInt(a.getMemoryFormat());
  // 0: torch.contiguous_format.
  if (!format || *format != 0 || getSelf().getType() != getType() ||
      !isKnownContiguous(getSelf().getType()))
    return {};
  return getSelf();
}

// to(dtype) to the tensor's own dtype, without copy= or a memory format,
// returns the tensor itself.
OpFoldResult AtenToDtypeOp::fold(FoldAdaptor a) {
  auto copy = llvm::dyn_cast_or_null<BoolAttr>(a.getCopy());
  std::optional<int64_t> dtype = asInt(a.getDtype());
  TensorType type = getSelf().getType();
  if (!copy || copy.getValue() || !dtype ||
      !llvm::isa_and_nonnull<UnitAttr>(a.getMemoryFormat()) ||
      !type.getDtype() || type != getType())
    return {};
  std::optional<int64_t> own = getScalarTypeCode(type.getDtype());
  if (!own || *own != *dtype)
    return {};
  return getSelf();
}

OpFoldResult PrimDtypeOp::fold(FoldAdaptor) {
  std::optional<int64_t> code = getScalarTypeCode(getA().getType().getDtype());
  return code ? intAttr(getContext(), *code) : Attribute();
}

OpFoldResult PrimDeviceOp::fold(FoldAdaptor) {
  StringAttr device = getA().getType().getDevice();
  return device ? Attribute(device) : Attribute();
}

/// `x is None` is known when `x`'s type is None, or cannot hold None.
static std::optional<bool> isNone(Type type) {
  if (llvm::isa<NoneType>(type))
    return true;
  if (llvm::isa<OptionalType, AnyType, UnionType>(type))
    return std::nullopt;
  return false;
}

/// `isNone` of `v`'s type, or of the value a prim::unchecked_cast casts
/// (one object: an int[] cast to int[]? is still not None).
static std::optional<bool> isNoneValue(Value v) {
  while (true) {
    if (std::optional<bool> known = isNone(v.getType()))
      return known;
    auto cast = v.getDefiningOp<PrimUncheckedCastOp>();
    if (!cast)
      return std::nullopt;
    v = cast.getOperand();
  }
}

/// Whether `v` is an argument of the function: an object that exists
/// before the call, which nothing the function makes can be.
static bool isFunctionArgument(Value v) {
  auto arg = llvm::dyn_cast<BlockArgument>(v);
  return arg && llvm::isa<func::FuncOp>(arg.getOwner()->getParentOp());
}

/// `a is b`: known when one side is None (from the types); true when both
/// are the same SSA value, which is one object; false when one is a new
/// object (a fresh value or a view) and the other another new object or an
/// argument of the function (a cross-attention layer's query, computed, against its
/// key, an input). Otherwise two values may be one object (an op may
/// return its input), and nothing is known.
static std::optional<bool> foldIs(Value lhs, Value rhs) {
  if (lhs == rhs)
    return true;
  auto distinct = [](Value fresh, Value other) {
    return isNewObject(fresh) &&
           (isNewObject(other) || isFunctionArgument(other));
  };
  if (distinct(lhs, rhs) || distinct(rhs, lhs))
    return false;
  std::optional<bool> a = isNoneValue(lhs), b = isNoneValue(rhs);
  if (a && b && (*a || *b))
    return *a && *b;
  return std::nullopt;
}

OpFoldResult Aten__Is__Op::fold(FoldAdaptor) {
  std::optional<bool> r = foldIs(getSelf(), getObj());
  return r ? boolAttr(getContext(), *r) : Attribute();
}

OpFoldResult Aten__Isnot__Op::fold(FoldAdaptor) {
  std::optional<bool> r = foldIs(getSelf(), getObj());
  return r ? boolAttr(getContext(), !*r) : Attribute();
}

//===----------------------------------------------------------------------===//
// Tensor peepholes
//===----------------------------------------------------------------------===//

OpFoldResult AtenTOp::fold(FoldAdaptor) {
  // x.t().t() is x.
  auto inner = getSelf().getDefiningOp<AtenTOp>();
  if (inner && inner.getSelf().getType() == getType())
    return inner.getSelf();
  return {};
}

} // namespace mlir::tsmlir::ts
