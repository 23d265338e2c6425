//===- GraphGenerator.cpp - TorchScript graphs from fuzzer bytes ----------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The grammar, as the decoder reads it:
//
//   input   := choices nodes*
//   choices := 2 bytes: fusion strategy, fuse-groups, static-buffers,
//              approximate-math, threads, how inputs are typed, node count
//              (a second byte of 0xf0 or 0xf1 selects a long graph, whose
//              length is the byte after it)
//   node    := family byte, then the family's own choices:
//              pointwise unary | binary (tensor, tensor) | with a scalar |
//              reduction | view or data movement | linear algebra |
//              convolution, pooling, normalisation | factory |
//              tensor <-> number | prim::If | prim::Loop | in-place |
//              tuples and lists
//
// Every operand is picked among the values visible at that point (recent
// values are likelier), or is a new graph input of the dtype and shape the
// op needs. The decoder keeps PyTorch's rules for dtypes (type promotion with
// its categories, zero-dim tensors and Python numbers; casts an in-place op
// may do) and shapes (broadcasting, views, slicing arithmetic, convolution
// output sizes), so the graph is one PyTorch runs.
//
// A long graph has hundreds to thousands of nodes, mostly pointwise, in a
// chain: each node reads the value just made or one of the kLongWindow
// values before it, and its second operand is also one of those, so that
// most values are read by several later nodes (shared reads) and fusion
// groups of hundreds of ops form. Once its bytes run out, its choices come
// from a pseudo-random stream seeded with them.
//
//===----------------------------------------------------------------------===//

#include "GraphGenerator.h"

#include "tsmlir/Support/Dtype.h"

#include "llvm/ADT/ArrayRef.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using namespace mlir::tsmlir::fuzz;

namespace {

//===----------------------------------------------------------------------===//
// Dtypes and PyTorch's type promotion
//===----------------------------------------------------------------------===//

enum class DType : uint8_t { Bool, U8, I8, I16, I32, I64, F16, F32, F64 };

/// The row of tsmlir's dtype table (its names: `specName` f32 for
/// ts-specialize and RunValue, `torchScriptName` Float for traced types,
/// and its c10::ScalarType value) of a generated dtype.
const mlir::tsmlir::DtypeInfo &info(DType t) {
  using mlir::tsmlir::Dtype;
  static const Dtype dtypes[] = {Dtype::Bool,  Dtype::Byte,  Dtype::Char,
                                 Dtype::Short, Dtype::Int,   Dtype::Long,
                                 Dtype::Half,  Dtype::Float, Dtype::Double};
  return mlir::tsmlir::getDtypeInfo(dtypes[static_cast<int>(t)]);
}

bool isFloat(DType t) { return t >= DType::F16; }
bool isBool(DType t) { return t == DType::Bool; }
bool isIntegral(DType t) { return !isFloat(t) && !isBool(t); }

/// c10::promoteTypes over the dtypes above.
DType promoteTypes(DType a, DType b) {
  if (a == b)
    return a;
  if (isBool(a))
    return b;
  if (isBool(b))
    return a;
  if (isFloat(a) || isFloat(b)) {
    if (isFloat(a) && isFloat(b))
      return std::max(a, b);
    return isFloat(a) ? a : b;
  }
  // Both integral.
  if (a == DType::U8 || b == DType::U8) {
    DType other = a == DType::U8 ? b : a;
    return other == DType::I8 ? DType::I16 : other;
  }
  return std::max(a, b);
}

using OptDType = std::optional<DType>;

OptDType promoteOpt(OptDType a, DType b) { return a ? promoteTypes(*a, b) : b; }

/// at::native::combine_categories.
OptDType combineCategories(OptDType higher, OptDType lower) {
  if (!higher)
    return lower;
  if (isFloat(*higher))
    return higher;
  if (isBool(*higher) || (lower && isFloat(*lower)))
    return lower ? promoteTypes(*higher, *lower) : higher;
  return higher;
}

/// What at::result_type computes from the operands' dtypes: tensors with
/// dimensions, zero-dim tensors and Python numbers (wrapped: a float is the
/// default dtype f32, an int i64, a bool bool).
struct ResultType {
  OptDType dim, zero, wrapped;
  ResultType &tensor(DType t, bool zeroDim) {
    (zeroDim ? zero : dim) = promoteOpt(zeroDim ? zero : dim, t);
    return *this;
  }
  ResultType &number(DType t) {
    wrapped = promoteOpt(wrapped, isFloat(t) ? DType::F32 : t);
    return *this;
  }
  DType get() const {
    OptDType r = combineCategories(dim, combineCategories(zero, wrapped));
    return r ? *r : DType::F32;
  }
};

/// c10::canCast: what an in-place op may write into `to`.
bool canCast(DType from, DType to) {
  if (isFloat(from) && !isFloat(to))
    return false;
  if (!isBool(from) && isBool(to))
    return false;
  return true;
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

using Shape = std::vector<int64_t>;

int64_t numel(const Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::optional<Shape> broadcast(const Shape &a, const Shape &b) {
  size_t rank = std::max(a.size(), b.size());
  Shape result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1)
      return std::nullopt;
    result[i] = x == 1 ? y : x;
  }
  return result;
}

/// Whether `from` broadcasts to exactly `to`.
bool broadcastsTo(const Shape &from, const Shape &to) {
  std::optional<Shape> b = broadcast(from, to);
  return b && *b == to;
}

/// `dim` wrapped into [0, rank) (a 0-dim tensor takes dims -1 and 0).
int64_t wrapDim(int64_t dim, size_t rank) {
  int64_t r = std::max<int64_t>(rank, 1);
  return dim < 0 ? dim + r : dim;
}

//===----------------------------------------------------------------------===//
// The byte reader
//===----------------------------------------------------------------------===//

class Bytes {
public:
  Bytes(const uint8_t *data, size_t size)
      : begin(data), p(data), end(data + size) {}
  uint8_t byte() {
    if (p < end)
      return *p++;
    return extended ? next() : 0;
  }
  /// From now on, once the bytes run out, reads go on in a pseudo-random
  /// stream (splitmix64) seeded with all the bytes, rather than as 0.
  void extend() {
    extended = true;
    state = 0xcbf29ce484222325ull;
    for (const uint8_t *q = begin; q < end; ++q)
      state = (state ^ *q) * 0x100000001b3ull;
  }
  /// A choice in [0, n); 0 once the bytes run out (unless extended).
  unsigned below(unsigned n) {
    if (n <= 1)
      return 0;
    if (n <= 256)
      return byte() % n;
    unsigned v = byte();
    v = v << 8 | byte();
    return v % n;
  }
  /// True with probability `percent`; false once the bytes run out (unless
  /// extended).
  bool chance(unsigned percent) { return below(100) + percent >= 100; }
  bool done() const { return !extended && p >= end; }

private:
  uint8_t next() {
    uint64_t z = state += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return static_cast<uint8_t>((z ^ (z >> 31)) >> 56);
  }

  const uint8_t *begin, *p, *end;
  bool extended = false;
  uint64_t state = 0;
};

//===----------------------------------------------------------------------===//
// The generator
//===----------------------------------------------------------------------===//

struct Value {
  std::string name;
  DType dtype = DType::F32;
  Shape shape;
  /// Known to be contiguous, so aten::view applies.
  bool contiguous = true;
  /// May be written in place: not (a view of) an expanded tensor, whose
  /// elements share memory.
  bool writable = true;
  /// A graph input, or a view of one: writing it changes the caller's
  /// tensor.
  bool aliasesInput = false;
  /// A graph input itself.
  bool isInput = false;
};

/// A TorchScript int, float or bool.
struct Scalar {
  std::string name;
  enum Kind { Int, Float, Bool } kind = Int;
  /// Its value, when the graph fixes it (constants, sizes, int inputs).
  std::optional<int64_t> known;
};

constexpr int64_t kMaxNumel = 1 << 16;
constexpr unsigned kMaxNodes = 48;
/// The second choice byte, shifted right by one, that selects a long graph.
constexpr uint8_t kLongGraphCode = 0xf0 >> 1;
/// A long graph has kMinLongNodes + 8 * (a byte) nodes (100 to 2140).
constexpr unsigned kMinLongNodes = 100;
/// How far back the nodes of a long graph read.
constexpr size_t kLongWindow = 20;

class Generator {
public:
  Generator(const uint8_t *data, size_t size) : in(data, size) {}

  GeneratedGraph run();

private:
  // Text.
  std::string fresh() { return "%" + std::to_string(nextId++); }
  void emit(const std::string &line) {
    block->push_back(std::string(indent, ' ') + line);
  }
  std::string node(const std::string &type, const std::string &kind,
                   const std::vector<std::string> &args);
  std::string constant(const std::string &type, const std::string &value);
  std::string cInt(int64_t v) { return constant("int", std::to_string(v)); }
  std::string cBool(bool v) { return constant("bool", v ? "1" : "0"); }
  std::string cNone() { return constant("NoneType", ""); }
  std::string cStr(const std::string &s) {
    return constant("str", "\"" + s + "\"");
  }
  std::string cFloat();
  std::string intList(const std::vector<int64_t> &values);
  std::string tensorList(const std::vector<Value> &values);

  // Values.
  /// Makes `v` visible to later nodes (a node's result: see newInput).
  Value &push(Value v) {
    v.isInput = false;
    pool.push_back(std::move(v));
    return pool.back();
  }
  Value &pick();
  Value *pickWhere(const std::function<bool(const Value &)> &pred);
  Shape randomShape(unsigned maxRank = 4);
  int64_t randomSize();
  DType randomDType();
  Value newInput(DType dtype, Shape shape);
  Value newInputLike(const Value &v) { return newInput(v.dtype, v.shape); }
  Value cast(const Value &v, DType dtype);
  Value asFloat(const Value &v) {
    return isFloat(v.dtype) ? v : cast(v, DType::F32);
  }
  /// f32 or f64 (CPU matmul and convolution kernels).
  Value asMatmulFloat(const Value &v) {
    return v.dtype == DType::F32 || v.dtype == DType::F64 ? v
                                                          : cast(v, DType::F32);
  }
  Value asNonBool(const Value &v) {
    return isBool(v.dtype) ? cast(v, DType::I64) : v;
  }
  Value partner(const Value &a);
  Scalar scalarOperand(Scalar::Kind kind);
  std::string scalarFor(DType dtype, ResultType &rt, bool exactKind = false);
  std::vector<int64_t> pickDims(size_t rank, bool allowEmpty);
  int64_t pickDim(size_t rank, bool insert = false);

  // Node families.
  void genNode(unsigned depth);
  /// A node of a long graph: mostly pointwise.
  void genLongNode();
  /// An index into `weights`, drawn from the input with the given weights.
  unsigned pickWeighted(llvm::ArrayRef<uint8_t> weights);
  void genUnary();
  void genBinary();
  void genWithScalar();
  void genReduction();
  void genView();
  void genDataMovement();
  void genLinearAlgebra();
  void genNN();
  void genFactory();
  void genNumbers();
  /// prim::If and prim::Loop whose result has `base`'s type (a value
  /// picked when null).
  void genIf(unsigned depth, const Value *base = nullptr);
  void genLoop(unsigned depth, const Value *base = nullptr);
  void genInPlace();
  void genContainers();
  /// Ops that keep `v`'s dtype and shape (branch and loop bodies).
  Value sameType(const Value &v, unsigned depth);

  Bytes in;
  unsigned nextId = 0, numNodes = 0, numInputs = 0;
  bool tracedInputs = false;
  bool longGraph = false;
  std::vector<std::string> constants;
  std::map<std::string, std::string> constantNames;
  struct Input {
    std::string name, type, spec;
  };
  std::vector<Input> inputs;
  std::vector<std::string> body;
  std::vector<std::string> *block = &body;
  unsigned indent = 2;
  std::vector<Value> pool;
  std::vector<Scalar> scalars;
};

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

std::string Generator::node(const std::string &type, const std::string &kind,
                            const std::vector<std::string> &args) {
  std::string name = fresh();
  std::string line = name + " : " + type + " = " + kind + "(";
  for (size_t i = 0; i < args.size(); ++i)
    line += (i ? ", " : "") + args[i];
  emit(line + ")");
  ++numNodes;
  return name;
}

std::string Generator::constant(const std::string &type,
                                const std::string &value) {
  std::string key = type + ":" + value;
  auto it = constantNames.find(key);
  if (it != constantNames.end())
    return it->second;
  std::string name = fresh();
  constants.push_back("  " + name + " : " + type + " = prim::Constant" +
                      (value.empty() ? "" : "[value=" + value + "]") + "()");
  constantNames[key] = name;
  return name;
}

std::string Generator::cFloat() {
  static const char *values[] = {"0.5",
                                 "2.",
                                 "-1.",
                                 "0.",
                                 "1.",
                                 "3.5",
                                 "-0.25",
                                 "1.0000000000000001e-05",
                                 "100.",
                                 "-2.5",
                                 "0.10000000000000001",
                                 "inf",
                                 "-inf"};
  return constant("float", values[in.below(std::size(values))]);
}

std::string Generator::intList(const std::vector<int64_t> &values) {
  std::vector<std::string> args;
  for (int64_t v : values) {
    // An int input or a size the graph computed, when one has this value.
    std::string name;
    if (in.chance(15))
      for (const Scalar &s : scalars)
        if (s.kind == Scalar::Int && s.known == v) {
          name = s.name;
          break;
        }
    args.push_back(name.empty() ? cInt(v) : name);
  }
  return node("int[]", "prim::ListConstruct", args);
}

std::string Generator::tensorList(const std::vector<Value> &values) {
  std::vector<std::string> args;
  for (const Value &v : values)
    args.push_back(v.name);
  return node("Tensor[]", "prim::ListConstruct", args);
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

Value &Generator::pick() {
  size_t n = pool.size();
  if (longGraph) {
    // The value the last node made, or one that a node made before it:
    // shared reads, and a chain that inputs do not restart. A value grown
    // past kMaxNumel (a broadcast) is not read again.
    size_t last = n - 1;
    while (last > 0 && pool[last].isInput)
      --last;
    size_t back = in.chance(70) ? 0 : in.below(std::min(last + 1, kLongWindow));
    Value *v = &pool[last - back];
    if (v->isInput)
      v = &pool[last];
    return numel(v->shape) <= kMaxNumel ? *v : pool.front();
  }
  // Recent values are likelier: the last one with probability 1/2, ...
  size_t back = 0;
  while (back + 1 < n && in.chance(50))
    ++back;
  if (in.chance(10))
    back = in.below(n);
  return pool[n - 1 - back];
}

Value *Generator::pickWhere(const std::function<bool(const Value &)> &pred) {
  size_t n = pool.size();
  size_t start = in.below(std::min<size_t>(n, 8));
  for (size_t i = 0; i < n; ++i) {
    Value &v = pool[n - 1 - (start + i) % n];
    if (pred(v))
      return &v;
  }
  return nullptr;
}

int64_t Generator::randomSize() {
  static const int64_t sizes[] = {2, 3, 4, 1, 5, 8, 16, 7, 1, 6, 32, 2, 3, 64};
  if (in.below(64) == 63)
    return 0; // an empty dimension, now and then
  return sizes[in.below(std::size(sizes))];
}

Shape Generator::randomShape(unsigned maxRank) {
  static const unsigned ranks[] = {2, 1, 3, 2, 0, 4, 1, 3, 2};
  unsigned rank = std::min(ranks[in.below(std::size(ranks))], maxRank);
  Shape shape;
  for (unsigned i = 0; i < rank; ++i)
    shape.push_back(randomSize());
  while (numel(shape) > kMaxNumel)
    for (int64_t &d : shape)
      d = std::max<int64_t>(1, d / 2);
  return shape;
}

DType Generator::randomDType() {
  static const DType dtypes[] = {
      DType::F32,  DType::F32, DType::F32, DType::F64, DType::I64, DType::F16,
      DType::Bool, DType::I32, DType::F32, DType::U8,  DType::I8,  DType::I16};
  return dtypes[in.below(std::size(dtypes))];
}

Value Generator::newInput(DType dtype, Shape shape) {
  Value v;
  v.name = "%x" + std::to_string(numInputs++) + ".1";
  v.aliasesInput = true;
  v.dtype = dtype;
  v.shape = std::move(shape);
  std::string spec = info(dtype).specName.str() + "[";
  for (size_t i = 0; i < v.shape.size(); ++i)
    spec += (i ? "," : "") + std::to_string(v.shape[i]);
  spec += "]";
  std::string type = "Tensor";
  if (tracedInputs) {
    // As a traced graph types its inputs: sizes, contiguous strides.
    type = info(dtype).torchScriptName.str() + "(";
    std::vector<int64_t> strides(v.shape.size());
    int64_t stride = 1;
    for (size_t i = v.shape.size(); i-- > 0;) {
      strides[i] = stride;
      stride *= std::max<int64_t>(v.shape[i], 1);
    }
    for (int64_t d : v.shape)
      type += std::to_string(d) + ", ";
    if (!v.shape.empty()) {
      type += "strides=[";
      for (size_t i = 0; i < strides.size(); ++i)
        type += (i ? ", " : "") + std::to_string(strides[i]);
      type += "], ";
    }
    type += "requires_grad=0, device=cpu)";
  }
  inputs.push_back({v.name, type, spec});
  Value &pushed = push(v);
  pushed.isInput = true;
  return pushed;
}

Value Generator::cast(const Value &v, DType dtype) {
  Value r = v;
  r.dtype = dtype;
  r.name = node("Tensor", "aten::to",
                {v.name, cInt(static_cast<int>(info(dtype).dtype)),
                 cBool(false), cBool(false), cNone()});
  // aten::to returns self when the dtype does not change; a copy otherwise.
  if (dtype != v.dtype)
    r.writable = true, r.aliasesInput = false;
  return push(r);
}

/// A second operand for an elementwise op with `a`: one that broadcasts with
/// it, from the graph or a new input.
Value Generator::partner(const Value &a) {
  if (longGraph) {
    // One of the recent values that broadcasts to a's shape (so that the
    // chain does not grow), a itself, or now and then a new input.
    if (in.chance(90)) {
      size_t n = pool.size(), window = std::min(n, kLongWindow);
      size_t start = in.below(window);
      for (size_t i = 0; i < window; ++i) {
        const Value &v = pool[n - 1 - (start + i) % window];
        if (v.name != a.name && broadcastsTo(v.shape, a.shape))
          return v;
      }
      return a;
    }
    Shape shape = a.shape;
    for (int64_t &d : shape)
      if (in.chance(25))
        d = 1;
    return newInput(in.chance(80) ? a.dtype : randomDType(), shape);
  }
  switch (in.below(5)) {
  case 0:
    return a;
  case 1:
    if (Value *v = pickWhere([&](const Value &v) {
          return &v != &a && broadcast(a.shape, v.shape).has_value();
        }))
      return *v;
    [[fallthrough]];
  case 2: {
    // a's shape, some dimensions 1, some leading ones dropped or added.
    Shape shape = a.shape;
    for (int64_t &d : shape)
      if (in.chance(25))
        d = 1;
    if (!shape.empty() && in.chance(20))
      shape.erase(shape.begin(), shape.begin() + 1 + in.below(shape.size()));
    if (shape.size() == a.shape.size() && shape.size() < 4 && in.chance(10))
      shape.insert(shape.begin(), 1 + in.below(3));
    DType dtype = in.chance(70) ? a.dtype : randomDType();
    return newInput(dtype, shape);
  }
  case 3:
    return newInput(in.chance(60) ? a.dtype : randomDType(), {});
  default:
    return newInputLike(a);
  }
}

Scalar Generator::scalarOperand(Scalar::Kind kind) {
  // A number the graph computed or took as input, sometimes.
  if (in.chance(20))
    for (size_t i = scalars.size(); i-- > 0;)
      if (scalars[i].kind == kind)
        return scalars[i];
  Scalar s;
  s.kind = kind;
  switch (kind) {
  case Scalar::Int: {
    static const int64_t values[] = {1, 2, 0, -1, 3, 7, -4};
    int64_t v = values[in.below(std::size(values))];
    s.name = cInt(v);
    s.known = v;
    break;
  }
  case Scalar::Float:
    if (in.chance(10)) {
      // A float input: known only at run time.
      s.name = "%s" + std::to_string(numInputs++) + ".1";
      inputs.push_back({s.name, "float", "float"});
      scalars.push_back(s);
      break;
    }
    s.name = cFloat();
    break;
  case Scalar::Bool:
    s.name = cBool(in.chance(50));
    break;
  }
  return s;
}

/// A Python number operand for an op on a tensor of `dtype`: mostly an int
/// for integral and bool tensors and a float for float ones (always, with
/// `exactKind`: fills and masked_fill do not promote). Records it in `rt`.
std::string Generator::scalarFor(DType dtype, ResultType &rt, bool exactKind) {
  bool useFloat =
      isFloat(dtype) ? exactKind || in.chance(80) : !exactKind && in.chance(10);
  Scalar s = scalarOperand(useFloat ? Scalar::Float : Scalar::Int);
  rt.number(useFloat ? DType::F32 : DType::I64);
  return s.name;
}

int64_t Generator::pickDim(size_t rank, bool insert) {
  int64_t r = std::max<int64_t>(rank, 1) + (insert ? 1 : 0);
  if (insert && rank == 0)
    r = 1;
  int64_t d = in.below(r);
  if (in.chance(30))
    d -= r; // the same dimension, counted from the end
  return d;
}

std::vector<int64_t> Generator::pickDims(size_t rank, bool allowEmpty) {
  std::vector<int64_t> dims;
  size_t r = std::max<size_t>(rank, 1);
  std::vector<bool> used(r);
  unsigned n = allowEmpty ? in.below(r + 1) : 1 + in.below(r);
  for (unsigned i = 0; i < n; ++i) {
    int64_t d = in.below(r);
    if (used[d])
      continue;
    used[d] = true;
    dims.push_back(in.chance(30) ? d - int64_t(r) : d);
  }
  return dims;
}

//===----------------------------------------------------------------------===//
// Node families
//===----------------------------------------------------------------------===//

void Generator::genUnary() {
  enum Needs { Any, NonBool, Float, IntBool };
  static const struct {
    const char *kind;
    Needs needs;
  } ops[] = {{"aten::relu", NonBool},        {"aten::sigmoid", Float},
             {"aten::tanh", Float},          {"aten::exp", Float},
             {"aten::log", Float},           {"aten::sqrt", Float},
             {"aten::rsqrt", Float},         {"aten::sin", Float},
             {"aten::cos", Float},           {"aten::erf", Float},
             {"aten::neg", NonBool},         {"aten::abs", NonBool},
             {"aten::floor", NonBool},       {"aten::ceil", NonBool},
             {"aten::round", Float},         {"aten::sign", NonBool},
             {"aten::reciprocal", Float},    {"aten::expm1", Float},
             {"aten::log1p", Float},         {"aten::log2", Float},
             {"aten::silu", Float},          {"aten::hardswish", Float},
             {"aten::hardsigmoid", Float},   {"aten::logical_not", Any},
             {"aten::bitwise_not", IntBool}, {"aten::clone", Any},
             {"aten::contiguous", Any},      {"aten::detach", Any},
             {"aten::gelu", Float},          {"aten::elu", Float},
             {"aten::leaky_relu", Float},    {"aten::softplus", Float},
             {"aten::hardtanh", Float}};
  const auto &op = ops[in.below(std::size(ops))];
  Value x = pick();
  switch (op.needs) {
  case Any:
    break;
  case NonBool:
    x = asNonBool(x);
    break;
  case Float:
    x = asFloat(x);
    break;
  case IntBool:
    if (isFloat(x.dtype))
      x = cast(x, in.chance(50) ? DType::Bool : DType::I64);
    break;
  }
  std::vector<std::string> args = {x.name};
  std::string kind = op.kind;
  Value r = x;
  if (kind == "aten::logical_not")
    r.dtype = DType::Bool;
  else if (kind == "aten::clone")
    args.push_back(cNone());
  else if (kind == "aten::contiguous")
    args.push_back(cInt(0)), r.contiguous = true;
  else if (kind == "aten::gelu")
    args.push_back(cStr(in.chance(50) ? "none" : "tanh"));
  else if (kind == "aten::elu")
    args.insert(args.end(), {cFloat(), cInt(1), cInt(1)});
  else if (kind == "aten::leaky_relu")
    args.push_back(cFloat());
  else if (kind == "aten::hardtanh")
    args.insert(args.end(), {constant("float", "-1."), cFloat()});
  if (kind == "aten::softplus")
    args.insert(args.end(), {cInt(1), cInt(20)});
  if (kind == "aten::clone" || kind == "aten::contiguous")
    r.writable = true;
  // A new tensor, but for detach and contiguous (of a contiguous tensor),
  // which return self.
  if (kind != "aten::detach" && !(kind == "aten::contiguous" && x.contiguous))
    r.aliasesInput = false;
  r.name = node("Tensor", kind, args);
  push(r);
}

void Generator::genBinary() {
  static const char *ops[] = {
      "aten::add",         "aten::sub",         "aten::mul",
      "aten::div",         "aten::maximum",     "aten::minimum",
      "aten::eq",          "aten::lt",          "aten::ge",
      "aten::ne",          "aten::logical_and", "aten::logical_or",
      "aten::__and__",     "aten::pow",         "aten::where",
      "aten::rsub",        "aten::lerp",        "aten::masked_fill",
      "aten::logical_xor", "aten::gt",          "aten::le"};
  std::string kind = ops[in.below(std::size(ops))];
  Value a = pick();
  Value b = partner(a);
  ResultType rt;
  rt.tensor(a.dtype, a.shape.empty()).tensor(b.dtype, b.shape.empty());
  DType promoted = rt.get();
  Shape shape = *broadcast(a.shape, b.shape);
  Value r;
  r.shape = shape;
  r.contiguous = a.contiguous && b.contiguous;
  std::vector<std::string> args = {a.name, b.name};
  if (kind == "aten::add" || kind == "aten::sub" || kind == "aten::rsub") {
    // Subtraction refuses bool operands.
    if (kind != "aten::add" && (isBool(a.dtype) || isBool(b.dtype))) {
      a = asNonBool(a);
      b = asNonBool(b);
      args = {a.name, b.name};
      promoted = ResultType()
                     .tensor(a.dtype, a.shape.empty())
                     .tensor(b.dtype, b.shape.empty())
                     .get();
    }
    // alpha: an int, or a float for float results.
    args.push_back(isFloat(promoted) && in.chance(30) ? cFloat()
                                                      : cInt(in.below(3)));
    r.dtype = promoted;
  } else if (kind == "aten::mul" || kind == "aten::maximum" ||
             kind == "aten::minimum") {
    r.dtype = promoted;
  } else if (kind == "aten::div") {
    r.dtype = isFloat(promoted) ? promoted : DType::F32;
  } else if (kind == "aten::pow") {
    if (!isFloat(promoted)) {
      a = cast(a, DType::F32);
      args[0] = a.name;
      promoted = ResultType()
                     .tensor(a.dtype, a.shape.empty())
                     .tensor(b.dtype, b.shape.empty())
                     .get();
    }
    r.dtype = promoted;
  } else if (kind == "aten::__and__") {
    if (isFloat(a.dtype))
      a = cast(a, DType::Bool), args[0] = a.name;
    if (isFloat(b.dtype))
      b = cast(b, DType::Bool), args[1] = b.name;
    r.dtype = ResultType()
                  .tensor(a.dtype, a.shape.empty())
                  .tensor(b.dtype, b.shape.empty())
                  .get();
  } else if (kind == "aten::where") {
    // where(condition, a, b): a comparison of a with a number, or a bool
    // value that broadcasts.
    Value *cond = pickWhere([&](const Value &v) {
      return isBool(v.dtype) &&
             (longGraph ? broadcastsTo(v.shape, shape)
                        : broadcast(v.shape, shape).has_value());
    });
    Value c;
    if (cond && in.chance(60)) {
      c = *cond;
    } else {
      ResultType ignored;
      c = a;
      c.dtype = DType::Bool;
      c.name =
          node("Tensor", "aten::gt", {a.name, scalarFor(a.dtype, ignored)});
      push(c);
    }
    r.shape = *broadcast(c.shape, shape);
    r.dtype = promoted;
    args = {c.name, a.name, b.name};
  } else if (kind == "aten::lerp") {
    // lerp(self, end, weight): floats of one dtype.
    a = asFloat(a);
    b = b.dtype == a.dtype ? b : cast(b, a.dtype);
    r.dtype = a.dtype;
    args = {a.name, b.name, cFloat()};
  } else if (kind == "aten::masked_fill") {
    // masked_fill(self, mask, value): the mask broadcasts to self's shape.
    Value *mask = pickWhere([&](const Value &v) {
      return isBool(v.dtype) && broadcastsTo(v.shape, a.shape);
    });
    Value m;
    if (mask) {
      m = *mask;
    } else {
      Shape s = a.shape;
      for (int64_t &d : s)
        if (in.chance(30))
          d = 1;
      m = newInput(DType::Bool, s);
    }
    ResultType ignored;
    args = {a.name, m.name, scalarFor(a.dtype, ignored, true)};
    r.shape = a.shape;
    r.dtype = a.dtype;
    r.contiguous = a.contiguous;
  } else {
    // Comparisons and logical ops.
    r.dtype = DType::Bool;
  }
  r.name = node("Tensor", kind, args);
  push(r);
}

void Generator::genWithScalar() {
  static const char *ops[] = {
      "aten::add",   "aten::mul",       "aten::sub",       "aten::div",
      "aten::clamp", "aten::pow",       "aten::gt",        "aten::eq",
      "aten::rsub",  "aten::clamp_min", "aten::clamp_max", "aten::le"};
  std::string kind = ops[in.below(std::size(ops))];
  Value x = pick();
  ResultType rt;
  rt.tensor(x.dtype, x.shape.empty());
  Value r = x;
  std::vector<std::string> args;
  if (kind == "aten::add" || kind == "aten::sub" || kind == "aten::rsub") {
    if (kind != "aten::add")
      x = asNonBool(x), rt = ResultType().tensor(x.dtype, x.shape.empty());
    std::string s = scalarFor(x.dtype, rt);
    args = {x.name, s, cInt(1)};
    r.dtype = rt.get();
  } else if (kind == "aten::mul") {
    args = {x.name, scalarFor(x.dtype, rt)};
    r.dtype = rt.get();
  } else if (kind == "aten::div") {
    args = {x.name, scalarFor(x.dtype, rt)};
    r.dtype = isFloat(rt.get()) ? rt.get() : DType::F32;
  } else if (kind == "aten::pow") {
    x = asFloat(x);
    args = {x.name, in.chance(50) ? cInt(2) : cFloat()};
    r.dtype = x.dtype;
  } else if (kind == "aten::clamp") {
    x = asNonBool(x);
    rt = ResultType().tensor(x.dtype, x.shape.empty());
    // Either bound may be None, not both.
    unsigned which = in.below(3);
    std::string lo = which == 1 ? cNone() : scalarFor(x.dtype, rt);
    std::string hi = which == 2 ? cNone() : scalarFor(x.dtype, rt);
    args = {x.name, lo, hi};
    r.dtype = rt.get();
  } else if (kind == "aten::clamp_min" || kind == "aten::clamp_max") {
    x = asNonBool(x);
    rt = ResultType().tensor(x.dtype, x.shape.empty());
    args = {x.name, scalarFor(x.dtype, rt)};
    r.dtype = rt.get();
  } else {
    args = {x.name, scalarFor(x.dtype, rt)};
    r.dtype = DType::Bool;
  }
  r.name = node("Tensor", kind, args);
  r.contiguous = x.contiguous;
  r.writable = true;
  r.aliasesInput = false;
  push(r);
}

void Generator::genReduction() {
  Value x = pick();
  size_t rank = x.shape.size();
  auto reduced = [&](const std::vector<int64_t> &dims, bool keepdim) {
    Shape s;
    std::vector<bool> drop(rank);
    bool all = dims.empty();
    for (int64_t d : dims)
      if (rank)
        drop[wrapDim(d, rank)] = true;
    for (size_t i = 0; i < rank; ++i) {
      if (all || drop[i]) {
        if (keepdim)
          s.push_back(1);
      } else {
        s.push_back(x.shape[i]);
      }
    }
    return s;
  };
  // Whether the reduced dimensions are all non-empty (max, argmax, ...
  // refuse empty ones).
  auto nonEmpty = [&](const std::vector<int64_t> &dims) {
    if (dims.empty())
      return numel(x.shape) > 0;
    for (int64_t d : dims)
      if (rank && x.shape[wrapDim(d, rank)] == 0)
        return false;
    return true;
  };
  Value r;
  r.contiguous = true;
  bool keepdim = in.chance(40);
  // A long graph takes the reductions the pipeline lowers, so that one
  // unsupported node does not stop hundreds at import.
  static const unsigned longKinds[] = {1, 2, 3, 4, 7, 10};
  switch (longGraph ? longKinds[in.below(std::size(longKinds))]
                    : in.below(12)) {
  case 0: { // sum(self, dtype)
    r.dtype = isFloat(x.dtype) ? x.dtype : DType::I64;
    r.name = node("Tensor", "aten::sum", {x.name, cNone()});
    break;
  }
  case 1: { // sum.dim_IntList(self, dim, keepdim, dtype)
    std::vector<int64_t> dims = pickDims(rank, true);
    r.dtype = isFloat(x.dtype) ? x.dtype : DType::I64;
    r.shape = reduced(dims, keepdim);
    r.name = node("Tensor", "aten::sum",
                  {x.name, intList(dims), cBool(keepdim), cNone()});
    break;
  }
  case 2: { // mean.dim
    x = asFloat(x);
    std::vector<int64_t> dims = pickDims(rank, in.chance(20));
    r.dtype = x.dtype;
    r.shape = reduced(dims, keepdim);
    r.name = node("Tensor", "aten::mean",
                  {x.name, intList(dims), cBool(keepdim), cNone()});
    break;
  }
  case 3: { // amax / amin
    x = asNonBool(x);
    std::vector<int64_t> dims = pickDims(rank, true);
    if (!nonEmpty(dims))
      return;
    r.dtype = x.dtype;
    r.shape = reduced(dims, keepdim);
    r.name = node("Tensor", in.chance(50) ? "aten::amax" : "aten::amin",
                  {x.name, intList(dims), cBool(keepdim)});
    break;
  }
  case 4: { // softmax / log_softmax
    x = asFloat(x);
    r = x;
    r.contiguous = true;
    r.name =
        node("Tensor", in.chance(50) ? "aten::softmax" : "aten::log_softmax",
             {x.name, cInt(pickDim(rank)), cNone()});
    break;
  }
  case 5: { // argmax / argmin (self, dim?, keepdim)
    x = asNonBool(x);
    bool all = in.chance(25);
    int64_t d = pickDim(rank);
    if (!nonEmpty(all ? std::vector<int64_t>{} : std::vector<int64_t>{d}))
      return;
    r.dtype = DType::I64;
    r.shape =
        all ? (keepdim ? Shape(rank, 1) : Shape{}) : reduced({d}, keepdim);
    r.name = node("Tensor", in.chance(50) ? "aten::argmax" : "aten::argmin",
                  {x.name, all ? cNone() : cInt(d), cBool(keepdim)});
    break;
  }
  case 6: { // max.dim / min.dim: values and indices
    x = asNonBool(x);
    int64_t d = pickDim(rank);
    if (!nonEmpty({d}))
      return;
    Shape s = reduced({d}, keepdim);
    std::string values = fresh(), indices = fresh();
    emit(values + " : Tensor, " + indices +
         " : Tensor = " + (in.chance(50) ? "aten::max" : "aten::min") + "(" +
         x.name + ", " + cInt(d) + ", " + cBool(keepdim) + ")");
    ++numNodes;
    push({values, x.dtype, s, true, true});
    r = {indices, DType::I64, s, true, true};
    break;
  }
  case 7: { // var / std (self, dim, unbiased, keepdim)
    x = asFloat(x);
    std::vector<int64_t> dims = pickDims(rank, false);
    r.dtype = x.dtype;
    r.shape = reduced(dims, keepdim);
    r.name =
        node("Tensor", in.chance(50) ? "aten::var" : "aten::std",
             {x.name, intList(dims), cBool(in.chance(70)), cBool(keepdim)});
    break;
  }
  case 8: { // all / any, whole or along a dim
    r.dtype = x.dtype == DType::U8 ? DType::U8 : DType::Bool;
    const char *kind = in.chance(50) ? "aten::all" : "aten::any";
    if (in.chance(50)) {
      r.name = node("Tensor", kind, {x.name});
    } else {
      int64_t d = pickDim(rank);
      r.shape = reduced({d}, keepdim);
      r.name = node("Tensor", kind, {x.name, cInt(d), cBool(keepdim)});
    }
    break;
  }
  case 9: { // logsumexp
    x = asFloat(x);
    std::vector<int64_t> dims = pickDims(rank, false);
    r.dtype = x.dtype;
    r.shape = reduced(dims, keepdim);
    r.name = node("Tensor", "aten::logsumexp",
                  {x.name, intList(dims), cBool(keepdim)});
    break;
  }
  case 10: { // layer_norm(input, normalized_shape, weight, bias, eps, cudnn)
    if (rank == 0)
      return;
    x = asFloat(x);
    size_t k = 1 + in.below(rank);
    Shape normalized(x.shape.end() - k, x.shape.end());
    std::string weight = cNone(), bias = cNone();
    if (in.chance(60))
      weight = newInput(x.dtype, normalized).name;
    if (in.chance(50))
      bias = newInput(x.dtype, normalized).name;
    r = x;
    r.contiguous = true;
    r.name = node("Tensor", "aten::layer_norm",
                  {x.name, intList(normalized), weight, bias,
                   constant("float", "1.0000000000000001e-05"), cBool(true)});
    break;
  }
  default: { // prod, whole or along a dim
    r.dtype = isFloat(x.dtype) ? x.dtype : DType::I64;
    if (in.chance(50)) {
      r.name = node("Tensor", "aten::prod", {x.name, cNone()});
    } else {
      int64_t d = pickDim(rank);
      r.shape = reduced({d}, keepdim);
      r.name = node("Tensor", "aten::prod",
                    {x.name, cInt(d), cBool(keepdim), cNone()});
    }
    break;
  }
  }
  r.writable = true;
  r.aliasesInput = false;
  push(r);
}

void Generator::genView() {
  Value x = pick();
  size_t rank = x.shape.size();
  Value r = x;
  switch (in.below(9)) {
  case 0:
  case 1: { // view / reshape to a shape of the same size
    int64_t n = numel(x.shape);
    Shape target;
    switch (in.below(5)) {
    case 0:
      target = {n};
      break;
    case 1: // merge two neighbours
      target = x.shape;
      if (target.size() >= 2) {
        size_t i = in.below(target.size() - 1);
        target[i] *= target[i + 1];
        target.erase(target.begin() + i + 1);
      }
      break;
    case 2: // split a dimension into two factors
      target = x.shape;
      if (!target.empty()) {
        size_t i = in.below(target.size());
        int64_t d = target[i];
        for (int64_t f : {4, 3, 2}) {
          if (d % f == 0 && d > f) {
            target[i] = f;
            target.insert(target.begin() + i + 1, d / f);
            break;
          }
        }
      }
      break;
    case 3: // add or drop ones
      target = x.shape;
      target.erase(std::remove(target.begin(), target.end(), 1), target.end());
      if (in.chance(50))
        target.insert(target.begin() + in.below(target.size() + 1), 1);
      break;
    default: // factor the element count afresh
      target.clear();
      for (int64_t m = n; m > 1 && target.size() < 3;) {
        int64_t f = 0;
        for (int64_t c : {2, 3, 4, 5, 7, 8, 16})
          if (m % c == 0 && in.chance(50)) {
            f = c;
            break;
          }
        if (!f)
          break;
        target.push_back(f);
        m /= f;
      }
      target.push_back(n / std::max<int64_t>(numel(target), 1));
      if (n == 0)
        target = {0};
      break;
    }
    r.shape = target;
    std::vector<int64_t> sizes = target;
    // One size may be -1 (inferred) when the others are not zero.
    if (!sizes.empty() && n > 0 && in.chance(40))
      sizes[in.below(sizes.size())] = -1;
    bool view = x.contiguous && in.chance(60);
    r.name = node("Tensor", view ? "aten::view" : "aten::reshape",
                  {x.name, intList(sizes)});
    // reshape of a non-contiguous tensor copies; a view stays writable
    // exactly when its base is.
    r.contiguous = true;
    if (!view && !x.contiguous)
      r.writable = true, r.aliasesInput = false;
    break;
  }
  case 2: { // flatten(self, start_dim, end_dim)
    int64_t start = pickDim(rank), end = pickDim(rank);
    int64_t s = wrapDim(start, rank), e = wrapDim(end, rank);
    if (s > e)
      std::swap(start, end), std::swap(s, e);
    if (rank == 0) {
      r.shape = {1};
    } else {
      Shape shape(x.shape.begin(), x.shape.begin() + s);
      int64_t m = 1;
      for (int64_t i = s; i <= e; ++i)
        m *= x.shape[i];
      shape.push_back(m);
      shape.insert(shape.end(), x.shape.begin() + e + 1, x.shape.end());
      r.shape = shape;
    }
    r.name = node("Tensor", "aten::flatten", {x.name, cInt(start), cInt(end)});
    if (!x.contiguous && s != e)
      r.contiguous = true, r.writable = true, r.aliasesInput = false; // a copy
    break;
  }
  case 3: { // permute
    std::vector<int64_t> perm(rank);
    for (size_t i = 0; i < rank; ++i)
      perm[i] = i;
    for (size_t i = rank; i > 1; --i)
      std::swap(perm[i - 1], perm[in.below(i)]);
    Shape shape(rank);
    for (size_t i = 0; i < rank; ++i)
      shape[i] = x.shape[perm[i]];
    std::vector<int64_t> dims = perm;
    for (int64_t &d : dims)
      if (in.chance(20))
        d -= rank;
    r.shape = shape;
    r.contiguous = false;
    r.name = node("Tensor", "aten::permute", {x.name, intList(dims)});
    break;
  }
  case 4: { // transpose / t
    if (rank <= 2 && in.chance(40)) {
      r.shape = x.shape;
      std::reverse(r.shape.begin(), r.shape.end());
      r.name = node("Tensor", "aten::t", {x.name});
    } else {
      int64_t a = pickDim(rank), b = pickDim(rank);
      if (rank)
        std::swap(r.shape[wrapDim(a, rank)], r.shape[wrapDim(b, rank)]);
      r.name = node("Tensor", "aten::transpose", {x.name, cInt(a), cInt(b)});
    }
    r.contiguous = rank <= 1 && x.contiguous;
    break;
  }
  case 5: { // unsqueeze
    if (rank >= 5)
      return;
    int64_t d = pickDim(rank, true);
    int64_t at = d < 0 ? d + int64_t(rank) + 1 : d;
    r.shape.insert(r.shape.begin() + at, 1);
    r.name = node("Tensor", "aten::unsqueeze", {x.name, cInt(d)});
    break;
  }
  case 6: { // squeeze, one dim or all
    if (in.chance(40)) {
      r.shape.erase(std::remove(r.shape.begin(), r.shape.end(), 1),
                    r.shape.end());
      r.name = node("Tensor", "aten::squeeze", {x.name});
    } else {
      int64_t d = pickDim(rank);
      if (rank && x.shape[wrapDim(d, rank)] == 1)
        r.shape.erase(r.shape.begin() + wrapDim(d, rank));
      r.name = node("Tensor", "aten::squeeze", {x.name, cInt(d)});
    }
    break;
  }
  case 7: { // expand / broadcast_to / expand_as
    if (rank >= 4)
      return;
    Shape shape = x.shape;
    std::vector<int64_t> sizes = x.shape;
    for (size_t i = 0; i < rank; ++i) {
      if (x.shape[i] == 1 && in.chance(50))
        shape[i] = sizes[i] = 1 + in.below(5);
      else if (in.chance(40))
        sizes[i] = -1;
    }
    unsigned extra = in.below(3);
    for (unsigned i = 0; i < extra; ++i) {
      int64_t s = 1 + in.below(4);
      shape.insert(shape.begin(), s);
      sizes.insert(sizes.begin(), s);
    }
    r.shape = shape;
    r.contiguous = false;
    r.writable = false;
    if (in.chance(20)) {
      Value other = newInput(randomDType(), shape);
      r.name = node("Tensor", "aten::expand_as", {x.name, other.name});
    } else {
      r.name = node("Tensor", "aten::expand",
                    {x.name, intList(sizes), cBool(false)});
    }
    break;
  }
  default: { // select(self, dim, index)
    if (rank == 0)
      return;
    int64_t d = pickDim(rank);
    int64_t size = x.shape[wrapDim(d, rank)];
    if (size == 0)
      return;
    int64_t index = in.below(size);
    if (in.chance(30))
      index -= size;
    r.shape.erase(r.shape.begin() + wrapDim(d, rank));
    r.contiguous = x.contiguous && wrapDim(d, rank) == 0;
    r.name = node("Tensor", "aten::select", {x.name, cInt(d), cInt(index)});
    break;
  }
  }
  push(r);
}

void Generator::genDataMovement() {
  Value x = pick();
  size_t rank = x.shape.size();
  Value r = x;
  r.contiguous = true;
  r.writable = true;
  r.aliasesInput = false; // a new tensor, but for the views below
  switch (in.below(10)) {
  case 0: { // slice(self, dim, start, end, step)
    if (rank == 0)
      return;
    int64_t d = pickDim(rank);
    int64_t size = x.shape[wrapDim(d, rank)];
    auto bound = [&](std::optional<int64_t> &value, std::string &name) {
      switch (in.below(7)) {
      case 0:
        value.reset();
        name = cNone();
        return;
      case 1:
        value = 0;
        break;
      case 2:
        value = 1;
        break;
      case 3:
        value = -1;
        break;
      case 4:
        value = size;
        break;
      case 5:
        value = size + 3;
        break;
      default:
        value = -size - 2;
        break;
      }
      name = cInt(*value);
    };
    std::optional<int64_t> start, end;
    std::string startName, endName;
    bound(start, startName);
    bound(end, endName);
    int64_t step = 1 + in.below(3);
    auto clampIndex = [&](std::optional<int64_t> v, int64_t fallback) {
      if (!v)
        return fallback;
      int64_t i = *v < 0 ? *v + size : *v;
      return std::clamp<int64_t>(i, 0, size);
    };
    int64_t s = clampIndex(start, 0), e = clampIndex(end, size);
    e = std::max(e, s);
    r.shape[wrapDim(d, rank)] = (e - s + step - 1) / step;
    r = {node("Tensor", "aten::slice",
              {x.name, cInt(d), startName, endName, cInt(step)}),
         x.dtype,
         r.shape,
         x.contiguous && wrapDim(d, rank) == 0 && step == 1,
         x.writable,
         x.aliasesInput};
    break;
  }
  case 1: { // narrow(self, dim, start, length)
    if (rank == 0)
      return;
    int64_t d = pickDim(rank);
    int64_t size = x.shape[wrapDim(d, rank)];
    int64_t start = in.below(size + 1);
    int64_t length = in.below(size - start + 1);
    r.shape[wrapDim(d, rank)] = length;
    r.contiguous = x.contiguous && wrapDim(d, rank) == 0;
    r.writable = x.writable;
    r.aliasesInput = x.aliasesInput;
    r.name = node("Tensor", "aten::narrow",
                  {x.name, cInt(d), cInt(start), cInt(length)});
    break;
  }
  case 2:
  case 3: { // cat / stack
    bool stack = in.below(2);
    if (rank == 0 && !stack)
      return;
    int64_t d = pickDim(rank, stack);
    std::vector<Value> parts = {x};
    unsigned n = 1 + in.below(3);
    DType dtype = x.dtype;
    for (unsigned i = 0; i < n; ++i) {
      Value p = x;
      if (in.chance(60)) {
        Shape shape = x.shape;
        if (!stack)
          shape[wrapDim(d, rank)] = in.below(4);
        p = newInput(in.chance(80) ? x.dtype : randomDType(), shape);
      }
      dtype = promoteTypes(dtype, p.dtype);
      parts.push_back(p);
    }
    r.dtype = dtype;
    if (stack) {
      int64_t at = d < 0 ? d + int64_t(rank) + 1 : d;
      r.shape.insert(r.shape.begin() + at, parts.size());
    } else {
      int64_t total = 0;
      for (const Value &p : parts)
        total += p.shape[wrapDim(d, rank)];
      r.shape[wrapDim(d, rank)] = total;
    }
    r.name = node("Tensor", stack ? "aten::stack" : "aten::cat",
                  {tensorList(parts), cInt(d)});
    break;
  }
  case 4: { // chunk / split / unbind, unpacked
    if (rank == 0)
      return;
    int64_t d = pickDim(rank);
    int64_t size = x.shape[wrapDim(d, rank)];
    if (size == 0)
      return;
    std::vector<int64_t> sizes;
    std::string list;
    unsigned kind = in.below(3);
    if (kind == 2 && size > 6)
      kind = 0;
    if (kind == 0) {
      int64_t chunks = 1 + in.below(4);
      int64_t each = (size + chunks - 1) / chunks;
      for (int64_t at = 0; at < size; at += each)
        sizes.push_back(std::min(each, size - at));
      list = node("Tensor[]", "aten::chunk", {x.name, cInt(chunks), cInt(d)});
    } else if (kind == 1) {
      int64_t each = 1 + in.below(size);
      for (int64_t at = 0; at < size; at += each)
        sizes.push_back(std::min(each, size - at));
      if (sizes.size() > 8)
        return;
      list = node("Tensor[]", "aten::split", {x.name, cInt(each), cInt(d)});
    } else {
      sizes.assign(size, -1);
      list = node("Tensor[]", "aten::unbind", {x.name, cInt(d)});
    }
    std::string line;
    std::vector<Value> parts;
    for (int64_t s : sizes) {
      Value p = x;
      p.name = fresh();
      if (s < 0)
        p.shape.erase(p.shape.begin() + wrapDim(d, rank));
      else
        p.shape[wrapDim(d, rank)] = s;
      p.contiguous = x.contiguous && wrapDim(d, rank) == 0; // views of x
      line += (line.empty() ? "" : ", ") + p.name + " : Tensor";
      parts.push_back(p);
    }
    emit(line + " = prim::ListUnpack(" + list + ")");
    ++numNodes;
    for (size_t i = 0; i + 1 < parts.size(); ++i)
      push(parts[i]);
    r = parts.back();
    break;
  }
  case 5: { // repeat
    if (rank > 3)
      return;
    std::vector<int64_t> repeats;
    size_t n = rank + in.below(2);
    for (size_t i = 0; i < n; ++i)
      repeats.push_back(1 + in.below(3));
    Shape shape(n - rank, 1);
    shape.insert(shape.end(), x.shape.begin(), x.shape.end());
    for (size_t i = 0; i < n; ++i)
      shape[i] *= repeats[i];
    if (numel(shape) > kMaxNumel)
      return;
    r.shape = shape;
    r.name = node("Tensor", "aten::repeat", {x.name, intList(repeats)});
    break;
  }
  case 6: { // index_select(self, dim, index)
    if (rank == 0)
      return;
    int64_t d = pickDim(rank);
    if (x.shape[wrapDim(d, rank)] == 0)
      return;
    Value index = newInput(DType::I64, {int64_t(in.below(5))});
    r.shape[wrapDim(d, rank)] = index.shape[0];
    r.name =
        node("Tensor", "aten::index_select", {x.name, cInt(d), index.name});
    break;
  }
  case 7: { // gather(self, dim, index, sparse_grad)
    if (rank == 0)
      return;
    int64_t d = pickDim(rank);
    Shape shape = x.shape;
    for (size_t i = 0; i < rank; ++i)
      shape[i] = int64_t(i) == wrapDim(d, rank) ? 1 + in.below(4)
                                                : in.below(x.shape[i] + 1);
    if (x.shape[wrapDim(d, rank)] == 0)
      return;
    Value index = newInput(DType::I64, shape);
    r.shape = shape;
    r.name = node("Tensor", "aten::gather",
                  {x.name, cInt(d), index.name, cBool(false)});
    break;
  }
  case 8: { // embedding(weight, indices, padding_idx, scale_grad, sparse)
    Value indices = isIntegral(x.dtype) && x.dtype == DType::I64
                        ? x
                        : newInput(DType::I64, randomShape(3));
    Value weight = newInput(in.chance(80) ? DType::F32 : DType::F64,
                            {1 + int64_t(in.below(8)), randomSize()});
    r.shape = indices.shape;
    r.shape.push_back(weight.shape[1]);
    r.dtype = weight.dtype;
    r.name =
        node("Tensor", "aten::embedding",
             {weight.name, indices.name, cInt(-1), cBool(false), cBool(false)});
    break;
  }
  default: { // to(dtype) / type_as: the same strides; self if the same dtype
    DType dtype = randomDType();
    r.contiguous = x.contiguous;
    r.writable = dtype != x.dtype || x.writable;
    r.aliasesInput = dtype == x.dtype && x.aliasesInput;
    if (in.chance(25)) {
      Value other = newInput(dtype, randomShape());
      r.name = node("Tensor", "aten::type_as", {x.name, other.name});
    } else {
      r.name = node("Tensor", "aten::to",
                    {x.name, cInt(static_cast<int>(info(dtype).dtype)),
                     cBool(false), cBool(in.chance(20)), cNone()});
    }
    r.dtype = dtype;
    break;
  }
  }
  push(r);
}

void Generator::genLinearAlgebra() {
  Value x = asMatmulFloat(pick());
  size_t rank = x.shape.size();
  DType dtype = x.dtype;
  auto dim = [&] { return 1 + int64_t(in.below(8)); };
  Value r;
  r.dtype = dtype;
  switch (in.below(6)) {
  case 0: { // matmul, every rank combination
    if (rank == 0)
      return;
    Shape b;
    int64_t k = x.shape.back();
    if (rank == 1) {
      switch (in.below(3)) {
      case 0:
        b = {k};
        break;
      case 1:
        b = {k, dim()};
        break;
      default:
        b = {dim(), k, dim()};
        break;
      }
    } else {
      switch (in.below(3)) {
      case 0:
        b = {k};
        break;
      case 1:
        b = {k, dim()};
        break;
      default:
        b = Shape(x.shape.begin(), x.shape.end() - 2);
        for (int64_t &d : b)
          if (in.chance(30))
            d = 1;
        if (b.size() < 3 && in.chance(30))
          b.insert(b.begin(), 1 + in.below(3));
        b.push_back(k);
        b.push_back(dim());
        break;
      }
    }
    Value other = newInput(dtype, b);
    // The result: batch dimensions broadcast, then n (unless x is 1-D),
    // then m (unless other is 1-D).
    Shape xb = rank > 2 ? Shape(x.shape.begin(), x.shape.end() - 2) : Shape();
    Shape ob = b.size() > 2 ? Shape(b.begin(), b.end() - 2) : Shape();
    Shape shape = *broadcast(xb, ob);
    if (rank >= 2)
      shape.push_back(x.shape[rank - 2]);
    if (b.size() >= 2)
      shape.push_back(b.back());
    r.shape = shape;
    r.name = node("Tensor", "aten::matmul", {x.name, other.name});
    break;
  }
  case 1: { // mm / addmm
    if (rank != 2)
      x = newInput(dtype, {dim(), dim()});
    int64_t m = dim();
    Value b = newInput(dtype, {x.shape[1], m});
    r.shape = {x.shape[0], m};
    if (in.chance(50)) {
      r.name = node("Tensor", "aten::mm", {x.name, b.name});
    } else {
      Shape cs = r.shape;
      for (int64_t &d : cs)
        if (in.chance(40))
          d = 1;
      Value c = newInput(dtype, cs);
      r.name = node("Tensor", "aten::addmm",
                    {c.name, x.name, b.name, cInt(1), cInt(1)});
    }
    break;
  }
  case 2: { // bmm / baddbmm
    if (rank != 3)
      x = newInput(dtype, {dim(), dim(), dim()});
    int64_t m = dim();
    Value b = newInput(dtype, {x.shape[0], x.shape[2], m});
    r.shape = {x.shape[0], x.shape[1], m};
    if (in.chance(60)) {
      r.name = node("Tensor", "aten::bmm", {x.name, b.name});
    } else {
      Value c = newInput(dtype, r.shape);
      r.name = node("Tensor", "aten::baddbmm",
                    {c.name, x.name, b.name, cInt(1), cInt(1)});
    }
    break;
  }
  case 3: { // linear(input, weight, bias?)
    if (rank == 0)
      return;
    int64_t out = dim();
    Value w = newInput(dtype, {out, x.shape.back()});
    std::string bias = cNone();
    if (in.chance(60))
      bias = newInput(dtype, {out}).name;
    r.shape = x.shape;
    r.shape.back() = out;
    r.name = node("Tensor", "aten::linear", {x.name, w.name, bias});
    break;
  }
  case 4: { // dot
    if (rank != 1)
      x = newInput(dtype, {dim()});
    Value b = newInput(dtype, x.shape);
    r.name = node("Tensor", "aten::dot", {x.name, b.name});
    break;
  }
  default: { // an Optional bias: none, or a tensor
    if (rank == 0)
      return;
    int64_t out = dim();
    Value w = newInput(dtype, {out, x.shape.back()});
    std::string bias = "%b" + std::to_string(numInputs++) + ".1";
    bool none = in.chance(50);
    inputs.push_back(
        {bias, "Tensor?",
         none ? "none"
              : info(dtype).specName.str() + "[" + std::to_string(out) + "]"});
    r.shape = x.shape;
    r.shape.back() = out;
    r.name = node("Tensor", "aten::linear", {x.name, w.name, bias});
    break;
  }
  }
  push(r);
}

void Generator::genNN() {
  // An NCHW float input: one from the graph, or a new one.
  Value *found = pickWhere([](const Value &v) {
    return v.shape.size() == 4 &&
           (v.dtype == DType::F32 || v.dtype == DType::F64) &&
           numel(v.shape) > 0;
  });
  Value x =
      found && in.chance(70)
          ? *found
          : newInput(DType::F32,
                     {1 + int64_t(in.below(2)), 1 + int64_t(in.below(4)),
                      4 + int64_t(in.below(6)), 4 + int64_t(in.below(6))});
  int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], w = x.shape[3];
  Value r;
  r.dtype = x.dtype;
  auto outSize = [](int64_t size, int64_t k, int64_t s, int64_t p, int64_t d,
                    bool ceil) {
    int64_t span = size + 2 * p - d * (k - 1) - 1;
    if (span < 0)
      return int64_t(0);
    int64_t out = (ceil ? (span + s - 1) / s : span / s) + 1;
    if (ceil && (out - 1) * s >= size + p)
      --out;
    return out;
  };
  switch (in.below(6)) {
  case 0: { // conv2d(input, weight, bias, stride, padding, dilation, groups)
    int64_t groups = (c % 2 == 0 && in.chance(30)) ? 2 : 1;
    if (c % groups)
      groups = 1;
    int64_t out = groups * (1 + in.below(3));
    int64_t k = 1 + in.below(3), s = 1 + in.below(2), p = in.below(2),
            d = 1 + in.below(2);
    int64_t oh = outSize(h, k, s, p, d, false),
            ow = outSize(w, k, s, p, d, false);
    if (oh <= 0 || ow <= 0)
      return;
    Value weight = newInput(x.dtype, {out, c / groups, k, k});
    std::string bias = in.chance(50) ? newInput(x.dtype, {out}).name : cNone();
    r.shape = {n, out, oh, ow};
    r.name = node("Tensor", "aten::conv2d",
                  {x.name, weight.name, bias, intList({s, s}), intList({p, p}),
                   intList({d, d}), cInt(groups)});
    break;
  }
  case 1: { // max_pool2d(self, kernel, stride, padding, dilation, ceil_mode)
    int64_t k = 1 + in.below(3), s = 1 + in.below(2), p = in.below(k / 2 + 1),
            d = 1 + in.below(2);
    bool ceil = in.chance(30);
    int64_t oh = outSize(h, k, s, p, d, ceil),
            ow = outSize(w, k, s, p, d, ceil);
    if (oh <= 0 || ow <= 0)
      return;
    r.shape = {n, c, oh, ow};
    r.name = node("Tensor", "aten::max_pool2d",
                  {x.name, intList({k, k}), intList({s, s}), intList({p, p}),
                   intList({d, d}), cBool(ceil)});
    break;
  }
  case 2: { // avg_pool2d(self, kernel, stride, padding, ceil, include_pad,
            //            divisor_override)
    int64_t k = 1 + in.below(3), s = 1 + in.below(2), p = in.below(k / 2 + 1);
    bool ceil = in.chance(30);
    int64_t oh = outSize(h, k, s, p, 1, ceil),
            ow = outSize(w, k, s, p, 1, ceil);
    if (oh <= 0 || ow <= 0)
      return;
    r.shape = {n, c, oh, ow};
    r.name = node("Tensor", "aten::avg_pool2d",
                  {x.name, intList({k, k}), intList({s, s}), intList({p, p}),
                   cBool(ceil), cBool(in.chance(70)), cNone()});
    break;
  }
  case 3: { // adaptive_avg_pool2d(self, output_size)
    int64_t oh = in.chance(50) ? 1 : 1 + in.below(h),
            ow = in.chance(50) ? 1 : 1 + in.below(w);
    r.shape = {n, c, oh, ow};
    r.name = node("Tensor", "aten::adaptive_avg_pool2d",
                  {x.name, intList({oh, ow})});
    break;
  }
  case 4: { // batch_norm, inference
    auto optional = [&] {
      return in.chance(70) ? newInput(x.dtype, {c}).name : cNone();
    };
    std::string weight = optional(), bias = optional();
    Value mean = newInput(x.dtype, {c}), var = newInput(x.dtype, {c});
    r.shape = x.shape;
    r.name = node("Tensor", "aten::batch_norm",
                  {x.name, weight, bias, mean.name, var.name, cBool(false),
                   constant("float", "0.10000000000000001"),
                   constant("float", "1.0000000000000001e-05"), cBool(true)});
    break;
  }
  default: { // group_norm(input, groups, weight, bias, eps, cudnn)
    int64_t groups = c % 2 == 0 && in.chance(50) ? 2 : 1;
    std::string weight = in.chance(60) ? newInput(x.dtype, {c}).name : cNone();
    std::string bias = in.chance(60) ? newInput(x.dtype, {c}).name : cNone();
    r.shape = x.shape;
    r.name = node("Tensor", "aten::group_norm",
                  {x.name, cInt(groups), weight, bias,
                   constant("float", "1.0000000000000001e-05"), cBool(true)});
    break;
  }
  }
  push(r);
}

void Generator::genFactory() {
  Value r;
  DType dtype = in.chance(50) ? DType::F32 : randomDType();
  // dtype=None is f32 for zeros and ones, self's dtype for the _like ops.
  bool noDtype = dtype == DType::F32 && in.chance(50);
  std::string dtypeArg =
      noDtype ? cNone() : cInt(static_cast<int>(info(dtype).dtype));
  r.dtype = dtype;
  switch (in.below(3)) {
  case 0: { // zeros / ones / full (size, [fill,] dtype, layout, device, pin)
    Shape shape = randomShape();
    r.shape = shape;
    std::vector<std::string> args = {intList(shape)};
    const char *kind = in.chance(50) ? "aten::zeros" : "aten::ones";
    if (in.chance(30)) {
      kind = "aten::full";
      args.push_back(isFloat(dtype) ? cFloat() : cInt(in.below(3)));
      dtypeArg = cInt(static_cast<int>(info(dtype).dtype));
    }
    args.insert(args.end(), {dtypeArg, cNone(), cNone(), cNone()});
    r.name = node("Tensor", kind, args);
    break;
  }
  default: { // zeros_like / ones_like / full_like (self, [fill,] dtype, ...)
    Value x = pick();
    r.shape = x.shape;
    if (noDtype)
      r.dtype = x.dtype;
    std::vector<std::string> args = {x.name};
    const char *kind = in.chance(50) ? "aten::zeros_like" : "aten::ones_like";
    if (in.chance(30)) {
      kind = "aten::full_like";
      args.push_back(isFloat(r.dtype) ? cFloat() : cInt(in.below(3)));
    }
    args.insert(args.end(), {dtypeArg, cNone(), cNone(), cNone(), cNone()});
    r.name = node("Tensor", kind, args);
    break;
  }
  }
  push(r);
}

void Generator::genNumbers() {
  Value x = pick();
  size_t rank = x.shape.size();
  switch (in.below(5)) {
  case 0: { // size(self, dim) -> int, known once specialised
    if (rank == 0)
      return;
    int64_t d = pickDim(rank);
    Scalar s{node("int", "aten::size", {x.name, cInt(d)}), Scalar::Int,
             x.shape[wrapDim(d, rank)]};
    scalars.push_back(s);
    break;
  }
  case 1: { // numel / dim
    bool isNumel = in.chance(50);
    Scalar s{node("int", isNumel ? "aten::numel" : "aten::dim", {x.name}),
             Scalar::Int, isNumel ? numel(x.shape) : int64_t(rank)};
    scalars.push_back(s);
    break;
  }
  case 2: { // Float / Int of a one-element tensor: known at run time only
    if (numel(x.shape) != 1)
      return;
    bool f = in.chance(60);
    Scalar s{
        node(f ? "float" : "int", f ? "aten::Float" : "aten::Int", {x.name}),
        f ? Scalar::Float : Scalar::Int, std::nullopt};
    scalars.push_back(s);
    break;
  }
  case 3: { // NumToTensor of a number: a 0-dim tensor
    if (scalars.empty())
      return;
    const Scalar s = scalars[scalars.size() - 1 - in.below(scalars.size())];
    if (s.kind == Scalar::Bool)
      return;
    Value r;
    r.dtype = s.kind == Scalar::Float ? DType::F64 : DType::I64;
    r.name = node("Tensor", "prim::NumToTensor", {s.name});
    push(r);
    break;
  }
  default: { // int arithmetic on sizes, used as a view size later
    if (scalars.empty())
      return;
    const Scalar s = scalars[scalars.size() - 1 - in.below(scalars.size())];
    if (s.kind != Scalar::Int)
      return;
    int64_t k = 1 + in.below(3);
    Scalar t{node("int", "aten::mul", {s.name, cInt(k)}), Scalar::Int,
             s.known ? std::optional<int64_t>(*s.known * k) : std::nullopt};
    scalars.push_back(t);
    break;
  }
  }
}

Value Generator::sameType(const Value &v, unsigned depth) {
  Value x = v;
  unsigned n = in.below(4);
  for (unsigned i = 0; i < n; ++i) {
    Value r = x;
    r.writable = true;
    r.aliasesInput = false;
    switch (in.below(depth ? 8 : 6)) {
    case 0:
      if (isBool(x.dtype))
        r.name = node("Tensor", "aten::logical_not", {x.name});
      else
        r.name = node("Tensor", in.chance(50) ? "aten::neg" : "aten::relu",
                      {x.name});
      break;
    case 1:
      if (!isFloat(x.dtype))
        continue;
      r.name =
          node("Tensor", in.chance(50) ? "aten::tanh" : "aten::exp", {x.name});
      break;
    case 2: { // a number: ints into integral tensors, floats into floats
      if (isBool(x.dtype))
        continue;
      ResultType rt;
      rt.tensor(x.dtype, x.shape.empty());
      std::string s = scalarFor(x.dtype, rt);
      if (rt.get() != x.dtype)
        continue;
      r.name = node("Tensor", "aten::mul", {x.name, s});
      break;
    }
    case 3: { // another value that broadcasts to this shape, same dtype
      Value *other = pickWhere([&](const Value &o) {
        return broadcastsTo(o.shape, x.shape) &&
               ResultType()
                       .tensor(x.dtype, x.shape.empty())
                       .tensor(o.dtype, o.shape.empty())
                       .get() == x.dtype;
      });
      if (!other || isBool(x.dtype))
        continue;
      r.name = node("Tensor", "aten::add", {x.name, other->name, cInt(1)});
      break;
    }
    case 4:
      r.name = node("Tensor", "aten::clone", {x.name, cNone()});
      break;
    case 5: {
      if (isBool(x.dtype))
        continue;
      ResultType rt;
      rt.tensor(x.dtype, x.shape.empty());
      std::string lo = scalarFor(x.dtype, rt);
      if (rt.get() != x.dtype)
        continue;
      r.name = node("Tensor", "aten::clamp_min", {x.name, lo});
      break;
    }
    default: { // nested control flow around this value
      if (in.chance(50))
        genIf(depth - 1, &x);
      else
        genLoop(depth - 1, &x);
      // The if or loop left its result last, with x's type.
      r = pool.back();
      pool.pop_back();
      break;
    }
    }
    x = r;
    push(x);
  }
  return x;
}

void Generator::genIf(unsigned depth, const Value *baseValue) {
  Value base = baseValue ? *baseValue : pick();
  // The condition: a one-element tensor made a bool (known at run time), or
  // a comparison of numbers the graph fixes.
  std::string cond;
  if (in.chance(70)) {
    Value *one = pickWhere([](const Value &v) { return numel(v.shape) == 1; });
    Value t;
    if (one && in.chance(50)) {
      t = *one;
    } else {
      Value x = pick();
      t = x;
      t.shape = {};
      t.dtype = isFloat(x.dtype) ? x.dtype : DType::I64;
      t.name = node("Tensor", "aten::sum", {x.name, cNone()});
    }
    if (!isBool(t.dtype)) {
      ResultType ignored;
      t.name =
          node("Tensor", "aten::gt", {t.name, scalarFor(t.dtype, ignored)});
    }
    cond = node("bool", "aten::Bool", {t.name});
  } else {
    Scalar s = scalarOperand(Scalar::Int);
    cond = node("bool", "aten::gt", {s.name, cInt(in.below(4))});
  }
  std::string result = fresh();
  size_t lineIndex = block->size();
  emit(""); // the node's line, once the branches are known
  ++numNodes;
  std::vector<std::string> *outer = block;
  for (int branch = 0; branch < 2; ++branch) {
    block = outer;
    emit("  block" + std::to_string(branch) + "():");
    std::vector<std::string> lines;
    block = &lines;
    indent += 4;
    size_t before = pool.size();
    size_t scalarsBefore = scalars.size();
    Value y = sameType(base, depth);
    emit("-> (" + y.name + ")");
    indent -= 4;
    pool.resize(before);
    scalars.resize(scalarsBefore);
    outer->insert(outer->end(), lines.begin(), lines.end());
  }
  block = outer;
  (*block)[lineIndex] =
      std::string(indent, ' ') + result + " : Tensor = prim::If(" + cond + ")";
  Value r = base;
  r.name = result;
  r.writable = true;
  r.aliasesInput = false;
  push(r);
}

void Generator::genLoop(unsigned depth, const Value *base) {
  Value init = base ? *base : pick();
  // A for loop with a trip count the graph fixes, or a while loop on data.
  bool whileLoop = in.chance(20);
  std::string trip, cond;
  if (whileLoop) {
    // A data-dependent condition, and a bound so that it ends. (A plain
    // `while` has the bound 9223372036854775807.)
    trip = in.chance(50) ? cInt(9223372036854775807LL) : cInt(1 + in.below(4));
    cond = cBool(true);
  } else {
    // A count the graph fixes, or now and then one known at run time.
    Scalar s = scalarOperand(Scalar::Int);
    bool usable = s.known ? *s.known >= 0 && *s.known <= 8 : in.chance(30);
    trip = usable ? s.name : cInt(in.below(5));
    cond = cBool(true);
  }
  std::string result = fresh();
  emit(result + " : Tensor = prim::Loop(" + trip + ", " + cond + ", " +
       init.name + ")");
  ++numNodes;
  std::string i = fresh(), acc = fresh();
  emit("  block0(" + i + " : int, " + acc + " : Tensor):");
  indent += 4;
  size_t before = pool.size();
  size_t scalarsBefore = scalars.size();
  Value carried = init;
  carried.name = acc;
  carried.writable = true;
  carried.aliasesInput = false;
  push(carried);
  scalars.push_back({i, Scalar::Int, std::nullopt});
  Value y = sameType(carried, depth);
  if (!isBool(y.dtype) && in.chance(50)) {
    // The induction variable as a number.
    ResultType rt;
    rt.tensor(y.dtype, y.shape.empty()).number(DType::I64);
    if (rt.get() == y.dtype) {
      Value z = y;
      z.name = node("Tensor", "aten::add", {y.name, i, cInt(1)});
      y = z;
    }
  }
  std::string next = cBool(true);
  if (whileLoop) {
    std::string total = node("Tensor", "aten::sum", {y.name, cNone()});
    std::string less = node("Tensor", "aten::lt", {total, cInt(10)});
    next = node("bool", "aten::Bool", {less});
  }
  emit("-> (" + next + ", " + y.name + ")");
  indent -= 4;
  pool.resize(before);
  scalars.resize(scalarsBefore);
  Value r = init;
  r.name = result;
  r.writable = true;
  r.aliasesInput = false;
  push(r);
}

void Generator::genInPlace() {
  // Mostly values the graph computed; now and then an input (or a view of
  // one), which the caller sees change.
  bool input = in.chance(20);
  Value *found = pickWhere(
      [&](const Value &v) { return v.writable && v.aliasesInput == input; });
  if (!found)
    return;
  Value x = *found;
  Value r = x;
  switch (in.below(7)) {
  case 0: { // add_(self, other, alpha), other broadcasting to self
    Value *other = pickWhere([&](const Value &o) {
      return broadcastsTo(o.shape, x.shape) &&
             canCast(ResultType()
                         .tensor(x.dtype, x.shape.empty())
                         .tensor(o.dtype, o.shape.empty())
                         .get(),
                     x.dtype);
    });
    if (!other || isBool(x.dtype))
      return;
    bool sub = !isBool(other->dtype) && in.chance(50);
    r.name = node("Tensor", sub ? "aten::sub_" : "aten::add_",
                  {x.name, other->name, cInt(1)});
    break;
  }
  case 1: { // mul_(self, number)
    if (isBool(x.dtype))
      return;
    ResultType rt;
    rt.tensor(x.dtype, x.shape.empty());
    std::string s = scalarFor(x.dtype, rt);
    if (!canCast(rt.get(), x.dtype))
      return;
    r.name = node("Tensor", "aten::mul_", {x.name, s});
    break;
  }
  case 2:
    if (isBool(x.dtype))
      return;
    r.name = node("Tensor",
                  isFloat(x.dtype) && in.chance(50) ? "aten::sigmoid_"
                                                    : "aten::relu_",
                  {x.name});
    break;
  case 3: { // copy_(self, src, non_blocking): src broadcasts to self
    Value *src = pickWhere(
        [&](const Value &o) { return broadcastsTo(o.shape, x.shape); });
    Value s = src ? *src : newInput(randomDType(), x.shape);
    r.name = node("Tensor", "aten::copy_", {x.name, s.name, cBool(false)});
    break;
  }
  case 4: { // fill_ / zero_
    if (in.chance(50)) {
      ResultType ignored;
      r.name = node("Tensor", "aten::fill_",
                    {x.name, scalarFor(x.dtype, ignored, true)});
    } else {
      r.name = node("Tensor", "aten::zero_", {x.name});
    }
    break;
  }
  case 5: { // a slice of self assigned: mutation through a view
    size_t rank = x.shape.size();
    if (rank == 0)
      return;
    int64_t d = pickDim(rank);
    int64_t size = x.shape[wrapDim(d, rank)];
    int64_t start = in.below(size + 1);
    int64_t end = start + in.below(size - start + 1);
    Value view = x;
    view.shape[wrapDim(d, rank)] = end - start;
    view.contiguous = false;
    view.name = node("Tensor", "aten::slice",
                     {x.name, cInt(d), cInt(start), cInt(end), cInt(1)});
    Value src = newInput(in.chance(80) ? x.dtype : randomDType(), view.shape);
    node("Tensor", "aten::copy_", {view.name, src.name, cBool(false)});
    push(view);
    r.name = x.name; // self, now changed
    break;
  }
  default: { // clamp_(self, min, max)
    if (isBool(x.dtype))
      return;
    ResultType rt;
    rt.tensor(x.dtype, x.shape.empty());
    std::string lo = scalarFor(x.dtype, rt), hi = scalarFor(x.dtype, rt);
    if (!canCast(rt.get(), x.dtype))
      return;
    r.name = node("Tensor", "aten::clamp_", {x.name, lo, hi});
    break;
  }
  }
  push(r);
}

void Generator::genContainers() {
  Value a = pick();
  Value b = pick();
  if (in.chance(50)) {
    // A tuple built and unpacked.
    std::string tuple =
        node("(Tensor, Tensor)", "prim::TupleConstruct", {a.name, b.name});
    std::string x = fresh(), y = fresh();
    emit(x + " : Tensor, " + y + " : Tensor = prim::TupleUnpack(" + tuple +
         ")");
    ++numNodes;
    Value ra = a, rb = b;
    ra.name = x;
    rb.name = y;
    push(ra);
    push(rb);
  } else {
    // A list of tensors indexed by a constant.
    std::string list = tensorList({a, b});
    bool second = in.chance(50);
    Value r = second ? b : a;
    r.name = node("Tensor", "aten::__getitem__",
                  {list, cInt(second ? (in.chance(50) ? 1 : -1) : 0)});
    push(r);
  }
}

unsigned Generator::pickWeighted(llvm::ArrayRef<uint8_t> weights) {
  unsigned total = 0;
  for (uint8_t w : weights)
    total += w;
  unsigned choice = in.below(total), index = 0;
  while (choice >= weights[index])
    choice -= weights[index++];
  return index;
}

void Generator::genNode(unsigned depth) {
  static const uint8_t weights[] = {
      14, // unary
      14, // binary
      10, // with a scalar
      10, // reduction
      10, // view
      8,  // data movement
      6,  // linear algebra
      4,  // nn
      3,  // factory
      4,  // numbers
      4,  // if
      4,  // loop
      6,  // in-place
      2,  // containers
  };
  switch (pickWeighted(weights)) {
  case 0:
    return genUnary();
  case 1:
    return genBinary();
  case 2:
    return genWithScalar();
  case 3:
    return genReduction();
  case 4:
    return genView();
  case 5:
    return genDataMovement();
  case 6:
    return genLinearAlgebra();
  case 7:
    return genNN();
  case 8:
    return genFactory();
  case 9:
    return genNumbers();
  case 10:
    return genIf(depth);
  case 11:
    return genLoop(depth);
  case 12:
    return genInPlace();
  default:
    return genContainers();
  }
}

void Generator::genLongNode() {
  // Few nodes that end a fusion group (reductions, for some strategies;
  // control flow; products), so that groups of hundreds of ops form. No
  // in-place ops: one the pipeline cannot lower would stop hundreds of nodes
  // from reaching fusion.
  static const uint8_t weights[] = {
      120, // unary
      140, // binary
      90,  // with a scalar
      4,   // reduction
      8,   // view
      4,   // data movement
      1,   // if
      1,   // loop
      1,   // linear algebra
      2,   // numbers
  };
  switch (pickWeighted(weights)) {
  case 0:
    return genUnary();
  case 1:
    return genBinary();
  case 2:
    return genWithScalar();
  case 3:
    return genReduction();
  case 4:
    return genView();
  case 5:
    return genDataMovement();
  case 6:
    return genIf(/*depth=*/1);
  case 7:
    return genLoop(/*depth=*/1);
  case 8:
    return genLinearAlgebra();
  default:
    return genNumbers();
  }
}

GeneratedGraph Generator::run() {
  GeneratedGraph graph;
  // The compile choices first, so that mutating the nodes keeps them.
  uint8_t c0 = in.byte();
  static const char *strategies[] = {"nnc",        "nnc",       "pointwise",
                                     "aggressive", "nvfuser",   "",
                                     "nnc",        "aggressive"};
  graph.choices.strategy = strategies[c0 & 7];
  graph.choices.fuseGroups = (c0 & 0x18) != 0x18;
  graph.choices.staticBuffers = (c0 & 0x20) == 0;
  graph.choices.approximateMath = (c0 & 0x40) == 0;
  graph.choices.threads = (c0 & 0x80) ? 2 : 1;
  uint8_t c1 = in.byte();
  tracedInputs = c1 & 1;
  unsigned numNodesWanted = 1 + (c1 >> 1) % 24;
  if ((c1 >> 1) == kLongGraphCode) {
    longGraph = true;
    numNodesWanted = kMinLongNodes + 8 * in.byte();
    in.extend();
  }

  // At least one tensor input.
  unsigned initial = 1 + in.below(3);
  for (unsigned i = 0; i < initial; ++i)
    newInput(randomDType(), randomShape());
  // Now and then an int input, bound to its value when specialised.
  if (in.chance(15)) {
    int64_t v = 1 + in.below(4);
    std::string name = "%n" + std::to_string(numInputs++) + ".1";
    inputs.push_back({name, "int", std::to_string(v)});
    scalars.push_back({name, Scalar::Int, v});
  }

  // Nodes until the count is reached or the bytes run out.
  if (longGraph) {
    // (A node family may add no node, for an operand it cannot use.)
    for (unsigned i = 0; numNodes < numNodesWanted && i < 4 * numNodesWanted;
         ++i)
      genLongNode();
  } else {
    for (unsigned i = 0;
         i < numNodesWanted && numNodes < kMaxNodes && (i == 0 || !in.done());
         ++i)
      genNode(/*depth=*/2);
  }

  // Outputs: the last value, and perhaps a few more (an input, a repeat, a
  // number).
  std::vector<std::pair<std::string, std::string>> outputs = {
      {pool.back().name, "Tensor"}};
  unsigned extra = in.below(3);
  for (unsigned i = 0; i < extra; ++i) {
    if (!scalars.empty() && in.chance(20)) {
      const Scalar &s = scalars[in.below(scalars.size())];
      if (s.kind != Scalar::Bool)
        outputs.push_back({s.name, s.kind == Scalar::Int ? "int" : "float"});
      continue;
    }
    outputs.push_back({pick().name, "Tensor"});
  }
  if (outputs.size() == 1) {
    emit("return (" + outputs[0].first + ")");
  } else {
    std::string type = "(", args;
    for (size_t i = 0; i < outputs.size(); ++i) {
      type += (i ? ", " : "") + outputs[i].second;
      args += (i ? ", " : "") + outputs[i].first;
    }
    std::string tuple = fresh();
    emit(tuple + " : " + type + ") = prim::TupleConstruct(" + args + ")");
    emit("return (" + tuple + ")");
  }

  std::string &text = graph.text;
  text = "graph(";
  for (size_t i = 0; i < inputs.size(); ++i) {
    text += (i ? ",\n      " : "") + inputs[i].name + " : " + inputs[i].type;
    graph.inputs.push_back(inputs[i].spec);
  }
  text += "):\n";
  for (const std::string &line : constants)
    text += line + "\n";
  for (const std::string &line : body)
    text += line + "\n";
  graph.numNodes = numNodes;
  return graph;
}

} // namespace

GeneratedGraph mlir::tsmlir::fuzz::generateGraph(const uint8_t *data,
                                                 size_t size) {
  return Generator(data, size).run();
}
