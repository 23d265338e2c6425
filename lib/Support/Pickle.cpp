//===- Pickle.cpp - Read the pickles torch.jit.save writes ----------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The unpickler is a loop over opcodes with an explicit stack, so nothing in
// the input makes it recurse. Besides Values, the stack holds what only
// exists while unpickling: the globals GLOBAL reads (the callables of
// REDUCE and NEWOBJ), the storages BINPERSID makes, and the tuples that hold
// them (a persistent id holds a storage class, _rebuild_tensor_v2's
// arguments a storage).
//
// Containers are changed in place (APPEND, SETITEMS, BUILD), as Python
// does, which the memo makes visible everywhere the container appears. To
// keep the result a tree of bounded depth without cycles, a container is
// sealed once it is put into another value, and a sealed container cannot
// be changed: every container's depth and size are then final when it is
// sealed, and no container can come to hold itself. The pickles PyTorch and
// Python write fill each container before they use it.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Support/Pickle.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>

using namespace llvm;

namespace mlir::tsmlir::pickle {

//===----------------------------------------------------------------------===//
// Scalar types and values
//===----------------------------------------------------------------------===//

int64_t TensorRef::getNumel() const {
  int64_t numel = 1;
  for (int64_t size : sizes)
    if (MulOverflow(numel, size, numel))
      return std::numeric_limits<int64_t>::max();
  return numel;
}

const Value *Object::getAttribute(StringRef name) const {
  for (const auto &[attribute, value] : attributes)
    if (attribute == name)
      return value.get();
  return nullptr;
}

const Value *Value::lookup(StringRef key) const {
  if (kind != Kind::Dict)
    return nullptr;
  for (const auto &[k, v] : items)
    if (k && k->kind == Kind::String && k->s == key)
      return v.get();
  return nullptr;
}

StringRef Value::getKindName(Kind kind) {
  switch (kind) {
  case Kind::None:
    return "None";
  case Kind::Bool:
    return "Bool";
  case Kind::Int:
    return "Int";
  case Kind::Float:
    return "Float";
  case Kind::String:
    return "String";
  case Kind::Tuple:
    return "Tuple";
  case Kind::List:
    return "List";
  case Kind::Dict:
    return "Dict";
  case Kind::Tensor:
    return "Tensor";
  case Kind::Object:
    return "Object";
  }
  llvm_unreachable("unknown value kind");
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

/// Writes `text` as the body of a Python string literal in single quotes:
/// quotes and backslashes escaped, and every byte outside printable ASCII
/// as \n, \r, \t or \xNN.
static void writeEscaped(raw_ostream &os, StringRef text) {
  for (unsigned char c : text) {
    switch (c) {
    case '\\':
      os << "\\\\";
      break;
    case '\'':
      os << "\\'";
      break;
    case '\n':
      os << "\\n";
      break;
    case '\r':
      os << "\\r";
      break;
    case '\t':
      os << "\\t";
      break;
    default:
      if (c >= 0x20 && c < 0x7f)
        os << c;
      else
        os << "\\x" << hexdigit(c >> 4, /*LowerCase=*/true)
           << hexdigit(c & 15, /*LowerCase=*/true);
    }
  }
}

/// `text` escaped for a message, at most 200 bytes of it.
static std::string printable(StringRef text) {
  std::string result;
  raw_string_ostream os(result);
  writeEscaped(os, text.take_front(200));
  if (text.size() > 200)
    os << "...";
  return result;
}

/// A double as Python's repr writes it, near enough: the shortest of
/// %.1g to %.17g that reads back to the same value, with ".0" added to
/// integral values.
static std::string formatFloat(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  char text[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(text, sizeof(text), "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value)
      break;
  }
  std::string result = text;
  if (result.find_first_of(".e") == std::string::npos)
    result += ".0";
  return result;
}

//===----------------------------------------------------------------------===//
// The unpickler
//===----------------------------------------------------------------------===//

namespace {

/// The opcodes read (pickletools' names).
enum Opcode : uint8_t {
  MARK = '(',
  STOP = '.',
  BINFLOAT = 'G',
  BININT = 'J',
  BININT1 = 'K',
  BININT2 = 'M',
  NONE = 'N',
  BINPERSID = 'Q',
  REDUCE = 'R',
  BINSTRING = 'T',
  SHORT_BINSTRING = 'U',
  BINUNICODE = 'X',
  BINBYTES = 'B',
  SHORT_BINBYTES = 'C',
  EMPTY_LIST = ']',
  APPEND = 'a',
  BUILD = 'b',
  GLOBAL = 'c',
  DICT = 'd',
  APPENDS = 'e',
  BINGET = 'h',
  LONG_BINGET = 'j',
  LIST = 'l',
  BINPUT = 'q',
  LONG_BINPUT = 'r',
  SETITEM = 's',
  TUPLE = 't',
  SETITEMS = 'u',
  EMPTY_DICT = '}',
  EMPTY_TUPLE = ')',
  PROTO = 0x80,
  NEWOBJ = 0x81,
  TUPLE1 = 0x85,
  TUPLE2 = 0x86,
  TUPLE3 = 0x87,
  NEWTRUE = 0x88,
  NEWFALSE = 0x89,
  LONG1 = 0x8a,
  BINUNICODE8 = 0x8d,
  MEMOIZE = 0x94,
  FRAME = 0x95,
};

/// What a global read by GLOBAL is.
enum class Callable {
  RebuildTensor,
  OrderedDict,
  BuildIntList,
  BuildDoubleList,
  BuildBoolList,
  BuildTensorList,
  BuildGenericList,
  RestoreTypeTag,
  Device,
  StorageClass,
  Class,
};

struct Global {
  Callable callable;
  std::string module, name;
  /// StorageClass: its element type.
  ScalarType dtype = ScalarType::Float;

  std::string getDisplayName() const {
    return printable(module) + " " + printable(name);
  }
};

/// What BINPERSID makes of ('storage', <storage class>, key, location,
/// numel).
struct Storage {
  ScalarType dtype;
  std::string key, device;
  int64_t numel;
};

/// An entry of the stack or the memo.
struct Item {
  enum class Kind { Value, Global, Storage, RawTuple };
  Kind kind = Kind::Value;
  std::shared_ptr<Value> value;
  std::shared_ptr<const Global> global;
  std::shared_ptr<const Storage> storage;
  /// A tuple that holds a global or a storage (Values, Globals and Storages
  /// only: never another RawTuple).
  std::shared_ptr<const std::vector<Item>> tuple;

  static Item of(std::shared_ptr<Value> value) {
    Item item;
    item.value = std::move(value);
    return item;
  }
};

/// "an int", "a list", ... for messages.
std::string describe(const Value &value) {
  switch (value.kind) {
  case Value::Kind::None:
    return "None";
  case Value::Kind::Bool:
    return "a bool";
  case Value::Kind::Int:
    return "an int";
  case Value::Kind::Float:
    return "a float";
  case Value::Kind::String:
    return "a string";
  case Value::Kind::Tuple:
    return "a tuple of " + std::to_string(value.elements.size());
  case Value::Kind::List:
    return "a list";
  case Value::Kind::Dict:
    return "a dict";
  case Value::Kind::Tensor:
    return "a tensor";
  case Value::Kind::Object:
    return "an object of class '" + printable(value.object.className) + "'";
  }
  llvm_unreachable("unknown value kind");
}

std::string describe(const Item &item) {
  switch (item.kind) {
  case Item::Kind::Value:
    return describe(*item.value);
  case Item::Kind::Global:
    return "the global '" + item.global->getDisplayName() + "'";
  case Item::Kind::Storage:
    return "a storage";
  case Item::Kind::RawTuple:
    return "a tuple holding a global or a storage";
  }
  llvm_unreachable("unknown item kind");
}

bool isIdentifier(StringRef text) {
  if (text.empty() || isDigit(text[0]))
    return false;
  return all_of(text, [](char c) { return isAlnum(c) || c == '_'; });
}

/// A dotted path of identifiers: "__torch__.torch.nn.modules.linear".
bool isDottedIdentifier(StringRef text) {
  SmallVector<StringRef> parts;
  text.split(parts, '.', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  return all_of(parts, isIdentifier);
}

/// A dict key as Python compares it: None, numbers (1, 1.0 and True are
/// one key) and strings by value; other keys (and NaN) by identity.
struct KeyClass {
  enum Kind { None, Integer, Float, String, Identity } kind;
  int64_t integer = 0;
  double real = 0;
};

KeyClass classifyKey(const Value &key) {
  switch (key.kind) {
  case Value::Kind::None:
    return {KeyClass::None};
  case Value::Kind::Bool:
    return {KeyClass::Integer, key.b ? 1 : 0};
  case Value::Kind::Int:
    return {KeyClass::Integer, key.i};
  case Value::Kind::Float:
    if (std::isnan(key.f))
      return {KeyClass::Identity};
    if (key.f >= -0x1p63 && key.f < 0x1p63 && std::trunc(key.f) == key.f)
      return {KeyClass::Integer, static_cast<int64_t>(key.f)};
    return {KeyClass::Float, 0, key.f};
  case Value::Kind::String:
    return {KeyClass::String};
  default:
    return {KeyClass::Identity};
  }
}

/// A key in a dict's key set: the key and its hash (a string's is computed
/// once per string value, however many dicts it is a key of).
struct DictKey {
  const Value *value;
  unsigned hash;
};

struct DictKeyInfo {
  static DictKey getEmptyKey() {
    return {DenseMapInfo<const Value *>::getEmptyKey(), 0};
  }
  static DictKey getTombstoneKey() {
    return {DenseMapInfo<const Value *>::getTombstoneKey(), 0};
  }
  static unsigned getHashValue(const DictKey &key) { return key.hash; }
  static bool isEqual(const DictKey &a, const DictKey &b) {
    if (a.value == b.value)
      return true;
    if (a.hash != b.hash || isSpecial(a.value) || isSpecial(b.value))
      return false;
    KeyClass x = classifyKey(*a.value), y = classifyKey(*b.value);
    if (x.kind != y.kind)
      return false;
    switch (x.kind) {
    case KeyClass::None:
      return true;
    case KeyClass::Integer:
      return x.integer == y.integer;
    case KeyClass::Float:
      return x.real == y.real;
    case KeyClass::String:
      return a.value->s == b.value->s;
    case KeyClass::Identity:
      return false;
    }
    llvm_unreachable("unknown key class");
  }

private:
  static bool isSpecial(const Value *value) {
    return value == DenseMapInfo<const Value *>::getEmptyKey() ||
           value == DenseMapInfo<const Value *>::getTombstoneKey();
  }
};

class Unpickler {
public:
  Unpickler(StringRef bytes, StringRef name, const Limits &limits)
      : bytes(bytes), name(name), limits(limits) {}

  Expected<ValuePtr> run();

private:
  /// Bookkeeping for a container (only containers have it).
  struct Info {
    /// 1 for an empty container, 1 + the deepest element's depth otherwise.
    unsigned depth = 1;
    /// The values it holds, itself included, shared ones counted for each
    /// place they appear in.
    uint64_t size = 1;
    /// Inside another value: it cannot change any more.
    bool sealed = false;
    /// Objects: BUILD has run.
    bool built = false;
    /// Lists: the element kinds checked by the build_*list helpers, a bit
    /// per Value::Kind.
    unsigned checkedKinds = 0;
    /// Dicts: their keys.
    std::unique_ptr<DenseSet<DictKey, DictKeyInfo>> keys;
  };

  Error fail(const Twine &message) const {
    return createStringError(inconvertibleErrorCode(), name + ": offset " +
                                                           Twine(opOffset) +
                                                           ": " + message);
  }

  // Reading the input.
  Expected<StringRef> take(uint64_t count, StringRef what);
  Expected<uint64_t> readUnsigned(unsigned byteCount, StringRef what);
  Expected<StringRef> readLine(StringRef what);

  // Memory.
  Error charge(uint64_t bytes);
  Error countMade();
  unsigned hashKey(const Value &key);

  // Values.
  Expected<std::shared_ptr<Value>> makeValue(Value::Kind kind);
  Error pushValue(Value::Kind kind, std::function<void(Value &)> fill);
  Error pushString(uint64_t length);
  Info *getInfo(const Value *value) {
    auto it = info.find(value);
    return it == info.end() ? nullptr : &it->second;
  }
  unsigned getDepth(const Value *value) {
    Info *in = getInfo(value);
    return in ? in->depth : 0;
  }
  uint64_t getSize(const Value *value) {
    Info *in = getInfo(value);
    return in ? in->size : 1;
  }
  Error checkMutable(const Value &container, StringRef opName);
  Error grow(Value &container, ArrayRef<const Value *> children);
  Expected<std::shared_ptr<Value>> asValue(const Item &item, StringRef use);

  // The stack.
  size_t getFrameBase() const { return marks.empty() ? 0 : marks.back(); }
  Error push(Item item);
  Expected<Item> pop(StringRef opName);
  Expected<std::vector<Item>> popToMark(StringRef opName);
  Expected<Item *> top(StringRef opName);

  // Opcodes.
  Error step(uint8_t opcode);
  Expected<ValuePtr> stop();
  Error makeTuple(std::vector<Item> items);
  Error append(Item &list, const Item &element, StringRef opName);
  Error setItem(Item &dict, const Item &key, const Item &value,
                StringRef opName);
  Error memoize(uint64_t index);
  Error recall(uint64_t index);
  Error readGlobal();
  Error reduce();
  Error rebuildTensor(const Item &args);
  Error newObject();
  Error build();
  Error persistentLoad();
  Expected<const Value *> getArguments(const Item &args, size_t count,
                                       const Global &callee);

  StringRef bytes, name;
  const Limits &limits;
  size_t pos = 0;
  size_t opOffset = 0;
  unsigned protocol = 0;
  std::vector<Item> stack;
  std::vector<size_t> marks;
  DenseMap<uint64_t, Item> memo;
  /// Every container made, kept alive until the end so that `info`'s keys
  /// stay unique.
  std::vector<std::shared_ptr<Value>> containers;
  DenseMap<const Value *, Info> info;
  /// Values (and globals, storages and raw tuples) made so far.
  uint64_t made = 0;
  /// The bytes allocated so far, roughly (see charge()).
  uint64_t allocated = 0;
  /// The hashes of the strings used as dict keys.
  DenseMap<const Value *, unsigned> stringHashes;
};

} // namespace

Expected<StringRef> Unpickler::take(uint64_t count, StringRef what) {
  uint64_t remaining = bytes.size() - pos;
  if (count > remaining)
    return fail("truncated: " + what + " needs " + Twine(count) +
                " bytes, but only " + Twine(remaining) + " remain");
  StringRef result = bytes.substr(pos, count);
  pos += count;
  return result;
}

Expected<uint64_t> Unpickler::readUnsigned(unsigned byteCount, StringRef what) {
  Expected<StringRef> data = take(byteCount, what);
  if (!data)
    return data.takeError();
  uint64_t value = 0;
  for (unsigned i = 0; i < byteCount; ++i)
    value |= uint64_t(static_cast<unsigned char>((*data)[i])) << (8 * i);
  return value;
}

Expected<StringRef> Unpickler::readLine(StringRef what) {
  size_t end = bytes.find('\n', pos);
  if (end == StringRef::npos)
    return fail("truncated: " + what + " does not end with a newline");
  StringRef line = bytes.slice(pos, end);
  pos = end + 1;
  return line;
}

/// Counts `bytes` against Limits::maxBytes, with what the stack holds. The
/// count is rough (the sizes of what is made and copied, not of the
/// allocator's overhead), and never goes down: what the input makes the
/// unpickler allocate is bounded, not just what it holds at the end.
Error Unpickler::charge(uint64_t bytes) {
  allocated = SaturatingAdd(allocated, bytes);
  if (SaturatingAdd(allocated, uint64_t(stack.size() * sizeof(Item))) >
      limits.maxBytes)
    return fail("the values would take more than " + Twine(limits.maxBytes) +
                " bytes (the limit)");
  return Error::success();
}

Error Unpickler::countMade() {
  if (++made > limits.maxValues)
    return fail("more than " + Twine(limits.maxValues) + " values (the limit)");
  return Error::success();
}

unsigned Unpickler::hashKey(const Value &key) {
  KeyClass keyClass = classifyKey(key);
  switch (keyClass.kind) {
  case KeyClass::None:
    return 0;
  case KeyClass::Integer:
    return hash_value(keyClass.integer);
  case KeyClass::Float:
    return hash_value(llvm::bit_cast<uint64_t>(keyClass.real));
  case KeyClass::String: {
    auto [it, inserted] = stringHashes.try_emplace(&key, 0);
    if (inserted)
      it->second = hash_value(StringRef(key.s));
    return it->second;
  }
  case KeyClass::Identity:
    return DenseMapInfo<const Value *>::getHashValue(&key);
  }
  llvm_unreachable("unknown key class");
}

Expected<std::shared_ptr<Value>> Unpickler::makeValue(Value::Kind kind) {
  if (Error error = countMade())
    return std::move(error);
  auto value = std::make_shared<Value>();
  value->kind = kind;
  // The value, shared_ptr's control block, and a container's bookkeeping.
  if (Error error =
          charge(sizeof(Value) + 16 + (value->isContainer() ? 64 : 0)))
    return std::move(error);
  if (value->isContainer()) {
    containers.push_back(value);
    info.try_emplace(value.get());
  }
  return value;
}

Error Unpickler::pushValue(Value::Kind kind,
                           std::function<void(Value &)> fill) {
  Expected<std::shared_ptr<Value>> value = makeValue(kind);
  if (!value)
    return value.takeError();
  if (fill)
    fill(**value);
  return push(Item::of(std::move(*value)));
}

Error Unpickler::pushString(uint64_t length) {
  if (length > limits.maxStringBytes)
    return fail("a string of " + Twine(length) + " bytes, more than the " +
                Twine(limits.maxStringBytes) + " allowed");
  Expected<StringRef> data = take(length, "the string");
  if (!data)
    return data.takeError();
  if (Error error = charge(length))
    return error;
  return pushValue(Value::Kind::String,
                   [&](Value &value) { value.s = data->str(); });
}

Error Unpickler::checkMutable(const Value &container, StringRef opName) {
  Info *in = getInfo(&container);
  if (in && in->sealed)
    return fail(opName + " changes " + describe(container) +
                " that is already inside another value");
  return Error::success();
}

Error Unpickler::grow(Value &container, ArrayRef<const Value *> children) {
  const Info &in = info[&container];
  unsigned depth = in.depth;
  uint64_t size = in.size;
  for (const Value *child : children) {
    if (child == &container)
      return fail(describe(container) + " cannot contain itself");
    depth = std::max(depth, getDepth(child) + 1);
    size = SaturatingAdd(size, getSize(child));
  }
  if (depth > limits.maxDepth)
    return fail("containers nest more than " + Twine(limits.maxDepth) +
                " deep (the limit)");
  if (size > limits.maxValues)
    return fail("a value would hold more than " + Twine(limits.maxValues) +
                " values (the limit; a shared value counts each time it "
                "appears)");
  // The slots of the new elements (a dict's items also have an entry in
  // its key set).
  if (Error error = charge(children.size() * 2 * sizeof(ValuePtr)))
    return error;
  for (const Value *child : children)
    if (Info *childInfo = getInfo(child))
      childInfo->sealed = true;
  Info &grown = info[&container];
  grown.depth = depth;
  grown.size = size;
  return Error::success();
}

Expected<std::shared_ptr<Value>> Unpickler::asValue(const Item &item,
                                                    StringRef use) {
  if (item.kind != Item::Kind::Value)
    return fail(describe(item) + " cannot be " + use);
  return item.value;
}

Error Unpickler::push(Item item) {
  if (stack.size() >= limits.maxValues)
    return fail("more than " + Twine(limits.maxValues) +
                " values on the stack (the limit)");
  // The stack's size counts against the memory limit.
  if (Error error = charge(0))
    return error;
  stack.push_back(std::move(item));
  return Error::success();
}

Expected<Item> Unpickler::pop(StringRef opName) {
  if (stack.size() <= getFrameBase())
    return fail(opName + " needs more values than the stack holds" +
                (marks.empty() ? "" : " above the last MARK"));
  Item item = std::move(stack.back());
  stack.pop_back();
  return item;
}

Expected<std::vector<Item>> Unpickler::popToMark(StringRef opName) {
  if (marks.empty())
    return fail(opName + " without a MARK");
  size_t base = marks.back();
  marks.pop_back();
  std::vector<Item> items(std::make_move_iterator(stack.begin() + base),
                          std::make_move_iterator(stack.end()));
  stack.resize(base);
  return items;
}

Expected<Item *> Unpickler::top(StringRef opName) {
  if (stack.size() <= getFrameBase())
    return fail(opName + " needs a value on the stack" +
                (marks.empty() ? "" : " above the last MARK"));
  return &stack.back();
}

Expected<ValuePtr> Unpickler::run() {
  while (true) {
    opOffset = pos;
    if (pos >= bytes.size())
      return fail("the pickle ends without a STOP opcode");
    uint8_t opcode = static_cast<uint8_t>(bytes[pos++]);
    if (opcode == STOP)
      return stop();
    if (Error error = step(opcode))
      return std::move(error);
  }
}

Expected<ValuePtr> Unpickler::stop() {
  if (!marks.empty())
    return fail("STOP with " + Twine(marks.size()) + " MARK(s) not closed");
  if (stack.size() != 1)
    return fail("STOP with " + Twine(stack.size()) +
                " values on the stack, not 1");
  if (stack[0].kind != Item::Kind::Value)
    return fail("the pickle's result is " + describe(stack[0]) +
                ", not a value");
  if (pos != bytes.size())
    return fail(Twine(bytes.size() - pos) + " bytes after STOP");
  return ValuePtr(std::move(stack[0].value));
}

Error Unpickler::step(uint8_t opcode) {
  switch (opcode) {
  case PROTO: {
    if (opOffset != 0)
      return fail("PROTO is only valid as the first opcode");
    Expected<uint64_t> version = readUnsigned(1, "PROTO");
    if (!version)
      return version.takeError();
    protocol = *version;
    if (protocol > 4)
      return fail("pickle protocol " + Twine(protocol) +
                  " is not supported (torch.jit.save writes protocol 2; "
                  "protocols 0 to 4 are read)");
    return Error::success();
  }
  case FRAME: {
    if (protocol < 4)
      return fail("FRAME in a protocol " + Twine(protocol) + " pickle");
    Expected<uint64_t> length = readUnsigned(8, "FRAME");
    if (!length)
      return length.takeError();
    if (*length > bytes.size() - pos)
      return fail("FRAME of " + Twine(*length) + " bytes, but only " +
                  Twine(bytes.size() - pos) + " remain");
    return Error::success();
  }
  case MARK:
    if (marks.size() >= limits.maxDepth)
      return fail("more than " + Twine(limits.maxDepth) +
                  " MARKs open (the depth limit)");
    marks.push_back(stack.size());
    return Error::success();

  // Scalars.
  case NONE:
    return pushValue(Value::Kind::None, nullptr);
  case NEWTRUE:
  case NEWFALSE:
    return pushValue(Value::Kind::Bool,
                     [&](Value &value) { value.b = opcode == NEWTRUE; });
  case BININT:
  case BININT1:
  case BININT2: {
    unsigned width = opcode == BININT ? 4 : opcode == BININT1 ? 1 : 2;
    Expected<uint64_t> raw = readUnsigned(width, "the integer");
    if (!raw)
      return raw.takeError();
    int64_t result = opcode == BININT ? static_cast<int32_t>(*raw)
                                      : static_cast<int64_t>(*raw);
    return pushValue(Value::Kind::Int, [&](Value &value) { value.i = result; });
  }
  case LONG1: {
    Expected<uint64_t> width = readUnsigned(1, "LONG1");
    if (!width)
      return width.takeError();
    if (*width > 8)
      return fail("LONG1 of " + Twine(*width) +
                  " bytes does not fit in 64 bits");
    Expected<uint64_t> raw = readUnsigned(*width, "LONG1");
    if (!raw)
      return raw.takeError();
    uint64_t bits = *raw;
    // Two's complement, little-endian: extend the sign of the last byte.
    if (*width > 0 && *width < 8 && (bits >> (8 * *width - 1)) & 1)
      bits |= ~uint64_t(0) << (8 * *width);
    return pushValue(Value::Kind::Int, [&](Value &value) {
      value.i = static_cast<int64_t>(bits);
    });
  }
  case BINFLOAT: {
    Expected<StringRef> data = take(8, "BINFLOAT");
    if (!data)
      return data.takeError();
    uint64_t bits = support::endian::read64be(data->data());
    return pushValue(Value::Kind::Float, [&](Value &value) {
      value.f = llvm::bit_cast<double>(bits);
    });
  }
  case SHORT_BINSTRING:
  case SHORT_BINBYTES:
  case BINUNICODE:
  case BINBYTES:
  case BINSTRING:
  case BINUNICODE8: {
    unsigned width = opcode == SHORT_BINSTRING || opcode == SHORT_BINBYTES ? 1
                     : opcode == BINUNICODE8                               ? 8
                                                                           : 4;
    Expected<uint64_t> length = readUnsigned(width, "the string's length");
    if (!length)
      return length.takeError();
    // BINSTRING's length is signed.
    if (opcode == BINSTRING && *length >= 0x80000000u)
      return fail("BINSTRING with a negative length");
    return pushString(*length);
  }

  // Containers.
  case EMPTY_TUPLE:
    return pushValue(Value::Kind::Tuple, nullptr);
  case TUPLE: {
    Expected<std::vector<Item>> items = popToMark("TUPLE");
    if (!items)
      return items.takeError();
    return makeTuple(std::move(*items));
  }
  case TUPLE1:
  case TUPLE2:
  case TUPLE3: {
    size_t count = opcode - TUPLE1 + 1;
    std::vector<Item> items(count);
    for (size_t i = count; i-- > 0;) {
      Expected<Item> item = pop("TUPLE" + std::to_string(count));
      if (!item)
        return item.takeError();
      items[i] = std::move(*item);
    }
    return makeTuple(std::move(items));
  }
  case EMPTY_LIST:
    return pushValue(Value::Kind::List, nullptr);
  case LIST: {
    Expected<std::vector<Item>> items = popToMark("LIST");
    if (!items)
      return items.takeError();
    if (Error error = pushValue(Value::Kind::List, nullptr))
      return error;
    for (const Item &element : *items)
      if (Error error = append(stack.back(), element, "LIST"))
        return error;
    return Error::success();
  }
  case APPEND: {
    Expected<Item> element = pop("APPEND");
    if (!element)
      return element.takeError();
    Expected<Item *> list = top("APPEND");
    if (!list)
      return list.takeError();
    return append(**list, *element, "APPEND");
  }
  case APPENDS: {
    Expected<std::vector<Item>> items = popToMark("APPENDS");
    if (!items)
      return items.takeError();
    Expected<Item *> list = top("APPENDS");
    if (!list)
      return list.takeError();
    for (const Item &element : *items)
      if (Error error = append(**list, element, "APPENDS"))
        return error;
    return Error::success();
  }
  case EMPTY_DICT:
    return pushValue(Value::Kind::Dict, nullptr);
  case DICT:
  case SETITEMS: {
    StringRef opName = opcode == DICT ? "DICT" : "SETITEMS";
    Expected<std::vector<Item>> items = popToMark(opName);
    if (!items)
      return items.takeError();
    if (items->size() % 2)
      return fail(opName + " with an odd number (" + Twine(items->size()) +
                  ") of keys and values");
    if (opcode == DICT)
      if (Error error = pushValue(Value::Kind::Dict, nullptr))
        return error;
    Expected<Item *> dict = top(opName);
    if (!dict)
      return dict.takeError();
    for (size_t i = 0; i < items->size(); i += 2)
      if (Error error = setItem(**dict, (*items)[i], (*items)[i + 1], opName))
        return error;
    return Error::success();
  }
  case SETITEM: {
    Expected<Item> value = pop("SETITEM");
    if (!value)
      return value.takeError();
    Expected<Item> key = pop("SETITEM");
    if (!key)
      return key.takeError();
    Expected<Item *> dict = top("SETITEM");
    if (!dict)
      return dict.takeError();
    return setItem(**dict, *key, *value, "SETITEM");
  }

  // The memo.
  case BINPUT:
  case LONG_BINPUT: {
    Expected<uint64_t> index =
        readUnsigned(opcode == BINPUT ? 1 : 4, "the memo index");
    if (!index)
      return index.takeError();
    return memoize(*index);
  }
  case MEMOIZE:
    return memoize(memo.size());
  case BINGET:
  case LONG_BINGET: {
    Expected<uint64_t> index =
        readUnsigned(opcode == BINGET ? 1 : 4, "the memo index");
    if (!index)
      return index.takeError();
    return recall(*index);
  }

  // Globals and what they make.
  case GLOBAL:
    return readGlobal();
  case REDUCE:
    return reduce();
  case NEWOBJ:
    return newObject();
  case BUILD:
    return build();
  case BINPERSID:
    return persistentLoad();

  default:
    return fail("unknown opcode 0x" +
                Twine(hexdigit(opcode >> 4, /*LowerCase=*/true)) +
                Twine(hexdigit(opcode & 15, /*LowerCase=*/true)));
  }
}

Error Unpickler::makeTuple(std::vector<Item> items) {
  bool allValues = all_of(
      items, [](const Item &item) { return item.kind == Item::Kind::Value; });
  if (!allValues) {
    for (const Item &item : items) {
      if (item.kind == Item::Kind::RawTuple)
        return fail("a tuple holding a global or a storage cannot be an "
                    "element of another tuple");
      if (item.kind == Item::Kind::Value)
        if (Info *in = getInfo(item.value.get()))
          in->sealed = true;
    }
    if (Error error = countMade())
      return error;
    if (Error error = charge(sizeof(std::vector<Item>) + 16 +
                             items.size() * sizeof(Item)))
      return error;
    Item raw;
    raw.kind = Item::Kind::RawTuple;
    raw.tuple = std::make_shared<const std::vector<Item>>(std::move(items));
    return push(std::move(raw));
  }
  Expected<std::shared_ptr<Value>> tuple = makeValue(Value::Kind::Tuple);
  if (!tuple)
    return tuple.takeError();
  SmallVector<const Value *> children;
  for (const Item &item : items)
    children.push_back(item.value.get());
  if (Error error = grow(**tuple, children))
    return error;
  (*tuple)->elements.reserve(items.size());
  for (Item &item : items)
    (*tuple)->elements.push_back(std::move(item.value));
  return push(Item::of(std::move(*tuple)));
}

Error Unpickler::append(Item &listItem, const Item &element, StringRef opName) {
  if (listItem.kind != Item::Kind::Value ||
      listItem.value->kind != Value::Kind::List)
    return fail(opName + " to " + describe(listItem) + ", not a list");
  Value &list = *listItem.value;
  if (Error error = checkMutable(list, opName))
    return error;
  Expected<std::shared_ptr<Value>> value =
      asValue(element, "an element of a list");
  if (!value)
    return value.takeError();
  if (Error error = grow(list, {value->get()}))
    return error;
  list.elements.push_back(std::move(*value));
  return Error::success();
}

Error Unpickler::setItem(Item &dictItem, const Item &keyItem,
                         const Item &valueItem, StringRef opName) {
  if (dictItem.kind != Item::Kind::Value ||
      dictItem.value->kind != Value::Kind::Dict)
    return fail(opName + " on " + describe(dictItem) + ", not a dict");
  Value &dict = *dictItem.value;
  if (Error error = checkMutable(dict, opName))
    return error;
  Expected<std::shared_ptr<Value>> key = asValue(keyItem, "a dict key");
  if (!key)
    return key.takeError();
  Expected<std::shared_ptr<Value>> value = asValue(valueItem, "a dict value");
  if (!value)
    return value.takeError();
  {
    DictKey dictKey{key->get(), hashKey(**key)};
    Info &in = info[&dict];
    if (!in.keys)
      in.keys = std::make_unique<DenseSet<DictKey, DictKeyInfo>>();
    if (!in.keys->insert(dictKey).second) {
      std::string shown;
      raw_string_ostream os(shown);
      print(**key, os);
      // print() escapes the key; at most 200 bytes of it.
      return fail(opName + " repeats the dict key " +
                  StringRef(shown).rtrim('\n').take_front(200));
    }
  }
  if (Error error = grow(dict, {key->get(), value->get()}))
    return error;
  dict.items.emplace_back(std::move(*key), std::move(*value));
  return Error::success();
}

Error Unpickler::memoize(uint64_t index) {
  if (stack.size() <= getFrameBase())
    return fail("memoizing with no value on the stack" +
                Twine(marks.empty() ? "" : " above the last MARK"));
  if (Error error = charge(sizeof(Item) + sizeof(uint64_t)))
    return error;
  memo[index] = stack.back();
  return Error::success();
}

Error Unpickler::recall(uint64_t index) {
  auto it = memo.find(index);
  if (it == memo.end())
    return fail("memo entry " + Twine(index) + " is read but was never set");
  return push(it->second);
}

Error Unpickler::readGlobal() {
  Expected<StringRef> module = readLine("GLOBAL's module name");
  if (!module)
    return module.takeError();
  Expected<StringRef> globalName = readLine("GLOBAL's name");
  if (!globalName)
    return globalName.takeError();
  if (Error error = countMade())
    return error;
  if (Error error =
          charge(sizeof(Global) + 16 + module->size() + globalName->size()))
    return error;

  auto global = std::make_shared<Global>();
  global->module = module->str();
  global->name = globalName->str();
  auto refuse = [&](const Twine &why) {
    return fail("refused global '" + global->getDisplayName() + "': " + why);
  };
  constexpr StringLiteral kOnlyTorch =
      "only the globals torch.jit.save writes are read";
  StringRef mod = *module, id = *globalName;

  std::optional<Callable> callable;
  if (mod == "torch._utils") {
    if (id == "_rebuild_tensor_v2")
      callable = Callable::RebuildTensor;
    else if (id == "_rebuild_qtensor")
      return refuse("quantized tensors are not supported");
    else if (id.starts_with("_rebuild_sparse"))
      return refuse("sparse tensors are not supported");
  } else if (mod == "torch") {
    StringRef stem = id;
    if (id == "device") {
      callable = Callable::Device;
    } else if (stem.consume_back("Storage")) {
      if (std::optional<ScalarType> dtype = getDtypeForTorchScriptName(stem)) {
        callable = Callable::StorageClass;
        global->dtype = *dtype;
      } else if (stem.starts_with("QInt") || stem.starts_with("QUInt")) {
        return refuse("quantized tensors are not supported");
      }
    }
  } else if (mod == "collections") {
    if (id == "OrderedDict")
      callable = Callable::OrderedDict;
  } else if (mod == "torch.jit._pickle") {
    callable = StringSwitch<std::optional<Callable>>(id)
                   .Case("build_intlist", Callable::BuildIntList)
                   .Case("build_doublelist", Callable::BuildDoubleList)
                   .Case("build_boollist", Callable::BuildBoolList)
                   .Case("build_tensorlist", Callable::BuildTensorList)
                   .Case("build_genericlist", Callable::BuildGenericList)
                   .Case("restore_type_tag", Callable::RestoreTypeTag)
                   .Default(std::nullopt);
  } else if (mod == "__torch__" || mod.starts_with("__torch__.")) {
    if (!isDottedIdentifier(mod) || !isIdentifier(id))
      return refuse("a TorchScript class name must be a dotted identifier");
    callable = Callable::Class;
  } else if (mod == "builtins" && id == "complex") {
    return refuse("complex numbers are not supported");
  }
  if (!callable)
    return refuse(kOnlyTorch);
  global->callable = *callable;

  Item item;
  item.kind = Item::Kind::Global;
  item.global = std::move(global);
  return push(std::move(item));
}

Expected<const Value *> Unpickler::getArguments(const Item &args, size_t count,
                                                const Global &callee) {
  if (args.kind != Item::Kind::Value ||
      args.value->kind != Value::Kind::Tuple ||
      args.value->elements.size() != count)
    return fail("'" + callee.getDisplayName() + "' takes a tuple of " +
                Twine(count) + ", not " + describe(args));
  return args.value.get();
}

Error Unpickler::reduce() {
  Expected<Item> args = pop("REDUCE");
  if (!args)
    return args.takeError();
  Expected<Item> callee = pop("REDUCE");
  if (!callee)
    return callee.takeError();
  if (callee->kind != Item::Kind::Global)
    return fail("REDUCE calls " + describe(*callee) +
                ", which is not a callable global");
  const Global &global = *callee->global;

  // The list helpers of torch.jit._pickle: the list, with the type of its
  // elements.
  auto buildList = [&](StringRef typeTag,
                       std::optional<Value::Kind> elementKind) -> Error {
    Expected<const Value *> arguments = getArguments(*args, 1, global);
    if (!arguments)
      return arguments.takeError();
    const ValuePtr &list = (*arguments)->elements[0];
    if (list->kind != Value::Kind::List)
      return fail("'" + global.getDisplayName() + "' takes a list, not " +
                  describe(*list));
    // A list is checked once for each kind (it cannot change once it is
    // inside the arguments).
    Info &listInfo = info[list.get()];
    if (elementKind && !(listInfo.checkedKinds & (1u << int(*elementKind)))) {
      for (const ValuePtr &element : list->elements)
        if (element->kind != *elementKind)
          return fail("'" + global.getDisplayName() + "' of a list holding " +
                      describe(*element));
      listInfo.checkedKinds |= 1u << int(*elementKind);
    }
    if (Error error = charge(typeTag.size()))
      return error;
    auto result = std::const_pointer_cast<Value>(list);
    result->typeTag = typeTag.str();
    return push(Item::of(std::move(result)));
  };

  switch (global.callable) {
  case Callable::RebuildTensor:
    return rebuildTensor(*args);
  case Callable::OrderedDict: {
    if (Error error = getArguments(*args, 0, global).takeError())
      return error;
    return pushValue(Value::Kind::Dict, nullptr);
  }
  case Callable::BuildIntList:
    return buildList("List[int]", Value::Kind::Int);
  case Callable::BuildDoubleList:
    return buildList("List[float]", Value::Kind::Float);
  case Callable::BuildBoolList:
    return buildList("List[bool]", Value::Kind::Bool);
  case Callable::BuildTensorList:
    return buildList("List[Tensor]", Value::Kind::Tensor);
  case Callable::BuildGenericList:
    return buildList("", std::nullopt);
  case Callable::RestoreTypeTag: {
    Expected<const Value *> arguments = getArguments(*args, 2, global);
    if (!arguments)
      return arguments.takeError();
    const ValuePtr &container = (*arguments)->elements[0];
    const ValuePtr &type = (*arguments)->elements[1];
    if (container->kind != Value::Kind::List &&
        container->kind != Value::Kind::Dict)
      return fail("'" + global.getDisplayName() + "' of " +
                  describe(*container) + ", not a list or dict");
    if (type->kind != Value::Kind::String || type->s.empty())
      return fail("'" + global.getDisplayName() + "' with " + describe(*type) +
                  " for a type");
    if (Error error = charge(type->s.size()))
      return error;
    auto result = std::const_pointer_cast<Value>(container);
    result->typeTag = type->s;
    return push(Item::of(std::move(result)));
  }
  case Callable::Device: {
    Expected<const Value *> arguments = getArguments(*args, 1, global);
    if (!arguments)
      return arguments.takeError();
    const ValuePtr &device = (*arguments)->elements[0];
    if (device->kind != Value::Kind::String || device->s.empty())
      return fail("'torch device' of " + describe(*device) +
                  ", not a device name");
    return push(Item::of(std::const_pointer_cast<Value>(device)));
  }
  case Callable::StorageClass:
    return fail("REDUCE calls the storage class '" + global.getDisplayName() +
                "', which only a persistent id may hold");
  case Callable::Class:
    return fail("REDUCE calls the class '" + global.getDisplayName() +
                "', which only NEWOBJ may create");
  }
  llvm_unreachable("unknown callable");
}

/// Reads a tuple of ints (a tensor's sizes or strides).
static bool readIntTuple(const Item &item, SmallVectorImpl<int64_t> &out) {
  if (item.kind != Item::Kind::Value || item.value->kind != Value::Kind::Tuple)
    return false;
  for (const ValuePtr &element : item.value->elements) {
    if (element->kind != Value::Kind::Int)
      return false;
    out.push_back(element->i);
  }
  return true;
}

/// Whether `item` is None or an empty dict (OrderedDict()).
static bool isNoneOrEmptyDict(const Item &item) {
  return item.kind == Item::Kind::Value &&
         (item.value->kind == Value::Kind::None ||
          (item.value->kind == Value::Kind::Dict && item.value->items.empty()));
}

static std::string formatInts(ArrayRef<int64_t> values) {
  std::string result = "[";
  for (size_t i = 0; i < values.size(); ++i)
    result += (i ? ", " : "") + std::to_string(values[i]);
  return result + "]";
}

Error Unpickler::rebuildTensor(const Item &args) {
  // (storage, storage_offset, sizes, strides, requires_grad,
  //  backward_hooks[, metadata])
  StringRef callee = "'torch._utils _rebuild_tensor_v2'";
  if (args.kind != Item::Kind::RawTuple)
    return fail(callee + " takes a storage first, not " + describe(args));
  const std::vector<Item> &elements = *args.tuple;
  if (elements.size() != 6 && elements.size() != 7)
    return fail(callee + " takes 6 arguments, not " + Twine(elements.size()));
  if (elements[0].kind != Item::Kind::Storage)
    return fail(callee + " takes a storage first, not " +
                describe(elements[0]));
  const Storage &storage = *elements[0].storage;
  // What the tensor copies: its sizes and strides, its storage's key and
  // device.
  auto getTupleSize = [](const Item &item) -> size_t {
    return item.kind == Item::Kind::Value &&
                   item.value->kind == Value::Kind::Tuple
               ? item.value->elements.size()
               : 0;
  };
  if (Error error = charge(sizeof(int64_t) * (getTupleSize(elements[2]) +
                                              getTupleSize(elements[3])) +
                           storage.key.size() + storage.device.size()))
    return error;

  TensorRef tensor;
  tensor.storageKey = storage.key;
  tensor.dtype = storage.dtype;
  tensor.device = storage.device;
  tensor.storageNumel = storage.numel;
  if (elements[1].kind != Item::Kind::Value ||
      elements[1].value->kind != Value::Kind::Int)
    return fail(callee + " takes an int storage offset, not " +
                describe(elements[1]));
  tensor.storageOffset = elements[1].value->i;
  if (!readIntTuple(elements[2], tensor.sizes))
    return fail(callee + " takes a tuple of int sizes, not " +
                describe(elements[2]));
  if (!readIntTuple(elements[3], tensor.strides))
    return fail(callee + " takes a tuple of int strides, not " +
                describe(elements[3]));
  if (elements[4].kind != Item::Kind::Value ||
      elements[4].value->kind != Value::Kind::Bool)
    return fail(callee + " takes a bool requires_grad, not " +
                describe(elements[4]));
  tensor.requiresGrad = elements[4].value->b;
  if (!isNoneOrEmptyDict(elements[5]))
    return fail("tensors with backward hooks are not supported");
  if (elements.size() == 7 && !isNoneOrEmptyDict(elements[6]))
    return fail("tensors with metadata are not supported");

  // The view must lie inside the storage.
  if (tensor.sizes.size() != tensor.strides.size())
    return fail("a tensor with " + Twine(tensor.sizes.size()) + " sizes but " +
                Twine(tensor.strides.size()) + " strides");
  if (tensor.storageOffset < 0)
    return fail("a tensor at the negative storage offset " +
                Twine(tensor.storageOffset));
  int64_t numel = 1;
  for (size_t d = 0; d < tensor.sizes.size(); ++d) {
    if (tensor.sizes[d] < 0)
      return fail("a tensor of sizes " + formatInts(tensor.sizes) +
                  ": a size is negative");
    if (tensor.strides[d] < 0)
      return fail("a tensor of strides " + formatInts(tensor.strides) +
                  ": a stride is negative");
  }
  bool empty = is_contained(tensor.sizes, 0);
  for (int64_t size : tensor.sizes)
    if (!empty && MulOverflow(numel, size, numel))
      return fail("a tensor of sizes " + formatInts(tensor.sizes) +
                  " has more than 2^63 elements");
  auto outside = [&](const Twine &reach) {
    return fail("a tensor of sizes " + formatInts(tensor.sizes) +
                " and strides " + formatInts(tensor.strides) +
                " at storage offset " + Twine(tensor.storageOffset) +
                " reaches " + reach + ", past the " +
                Twine(tensor.storageNumel) + " elements of storage '" +
                printable(tensor.storageKey) + "'");
  };
  if (empty) {
    if (tensor.storageOffset > tensor.storageNumel)
      return outside("element " + Twine(tensor.storageOffset));
  } else {
    // The last element: offset + sum((size - 1) * stride).
    int64_t last = tensor.storageOffset;
    bool overflow = false;
    for (size_t d = 0; d < tensor.sizes.size(); ++d) {
      int64_t step;
      overflow = overflow ||
                 MulOverflow(tensor.sizes[d] - 1, tensor.strides[d], step) ||
                 AddOverflow(last, step, last);
    }
    if (overflow)
      return outside("beyond element 2^63");
    if (last >= tensor.storageNumel)
      return outside("element " + Twine(last));
  }

  return pushValue(Value::Kind::Tensor,
                   [&](Value &value) { value.tensor = std::move(tensor); });
}

Error Unpickler::newObject() {
  Expected<Item> args = pop("NEWOBJ");
  if (!args)
    return args.takeError();
  Expected<Item> cls = pop("NEWOBJ");
  if (!cls)
    return cls.takeError();
  if (cls->kind != Item::Kind::Global ||
      cls->global->callable != Callable::Class)
    return fail("NEWOBJ of " + describe(*cls) +
                ", not a TorchScript class (__torch__.*)");
  if (args->kind != Item::Kind::Value ||
      args->value->kind != Value::Kind::Tuple || !args->value->elements.empty())
    return fail("NEWOBJ of '" + cls->global->getDisplayName() + "' with " +
                describe(*args) + ", not an empty tuple");
  const Global &global = *cls->global;
  if (Error error = charge(global.module.size() + 1 + global.name.size()))
    return error;
  return pushValue(Value::Kind::Object, [&](Value &value) {
    value.object.className = global.module + "." + global.name;
  });
}

Error Unpickler::build() {
  Expected<Item> stateItem = pop("BUILD");
  if (!stateItem)
    return stateItem.takeError();
  Expected<Item *> target = top("BUILD");
  if (!target)
    return target.takeError();
  if ((*target)->kind != Item::Kind::Value ||
      (*target)->value->kind != Value::Kind::Object)
    return fail("BUILD of " + describe(**target) + ", not an object");
  Value &object = *(*target)->value;
  if (Error error = checkMutable(object, "BUILD"))
    return error;
  Info &in = info[&object];
  if (in.built)
    return fail("a second BUILD of the same object");
  Expected<std::shared_ptr<Value>> state =
      asValue(*stateItem, "an object's state");
  if (!state)
    return state.takeError();

  const Value &dict = **state;
  bool attributes = dict.kind == Value::Kind::Dict &&
                    all_of(dict.items, [](const auto &item) {
                      return item.first->kind == Value::Kind::String;
                    });
  if (attributes) {
    SmallVector<const Value *> children;
    for (const auto &item : dict.items)
      children.push_back(item.second.get());
    if (Error error = grow(object, children))
      return error;
    // The attributes are copies of the dict's items, each a value made.
    for (const auto &[key, value] : dict.items) {
      if (Error error = countMade())
        return error;
      if (Error error =
              charge(sizeof(std::pair<std::string, ValuePtr>) + key->s.size()))
        return error;
    }
    if (Info *dictInfo = getInfo(&dict))
      dictInfo->sealed = true;
    for (const auto &[key, value] : dict.items)
      object.object.attributes.emplace_back(key->s, value);
  } else {
    if (Error error = grow(object, {state->get()}))
      return error;
    object.object.state = std::move(*state);
  }
  info[&object].built = true;
  return Error::success();
}

Error Unpickler::persistentLoad() {
  Expected<Item> pid = pop("BINPERSID");
  if (!pid)
    return pid.takeError();
  auto unsupported = [&]() {
    return fail("BINPERSID of " + describe(*pid) +
                ": only ('storage', <storage class>, key, location, numel) "
                "is read");
  };
  if (pid->kind != Item::Kind::RawTuple || pid->tuple->size() != 5)
    return unsupported();
  const std::vector<Item> &parts = *pid->tuple;
  auto asString = [](const Item &item) -> const std::string * {
    if (item.kind != Item::Kind::Value ||
        item.value->kind != Value::Kind::String)
      return nullptr;
    return &item.value->s;
  };
  const std::string *tag = asString(parts[0]);
  if (!tag || *tag != "storage" || parts[1].kind != Item::Kind::Global ||
      parts[1].global->callable != Callable::StorageClass)
    return unsupported();
  const std::string *key = asString(parts[2]);
  const std::string *location = asString(parts[3]);
  if (!key || !location || parts[4].kind != Item::Kind::Value ||
      parts[4].value->kind != Value::Kind::Int)
    return unsupported();

  // The key names an archive member (data/<key>).
  StringRef keyText = *key;
  if (keyText.empty() || keyText == "." || keyText == ".." ||
      keyText.size() > 256 || !all_of(keyText, [](char c) {
        return isPrint(c) && c != '/' && c != '\\';
      }))
    return fail("a storage key '" + printable(keyText) +
                "' that is not a plain file name");
  if (location->empty() || location->size() > 64 ||
      !all_of(*location, [](char c) { return isPrint(c); }))
    return fail("a storage location '" + printable(*location) +
                "' that is not a device name");
  ScalarType dtype = parts[1].global->dtype;
  int64_t numel = parts[4].value->i;
  int64_t bytes;
  if (numel < 0 ||
      MulOverflow(numel, int64_t(getDtypeInfo(dtype).byteSize), bytes))
    return fail("a storage of " + Twine(numel) + " elements");

  if (Error error = countMade())
    return error;
  if (Error error =
          charge(sizeof(Storage) + 16 + key->size() + location->size()))
    return error;
  auto storage = std::make_shared<Storage>();
  storage->dtype = dtype;
  storage->key = *key;
  storage->device = *location;
  storage->numel = numel;
  Item item;
  item.kind = Item::Kind::Storage;
  item.storage = std::move(storage);
  return push(std::move(item));
}

Expected<ValuePtr> unpickle(StringRef bytes, StringRef name,
                            const Limits &limits) {
  Unpickler unpickler(bytes, name, limits);
  return unpickler.run();
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

namespace {

bool isScalar(const Value *value) {
  if (!value)
    return true;
  switch (value->kind) {
  case Value::Kind::None:
  case Value::Kind::Bool:
  case Value::Kind::Int:
  case Value::Kind::Float:
  case Value::Kind::String:
    return true;
  default:
    return false;
  }
}

void printInts(raw_ostream &os, ArrayRef<int64_t> values) {
  os << '[';
  interleaveComma(values, os);
  os << ']';
}

/// Writes a value that is not a container.
void printLeaf(const Value &value, raw_ostream &os) {
  switch (value.kind) {
  case Value::Kind::None:
    os << "None";
    return;
  case Value::Kind::Bool:
    os << (value.b ? "True" : "False");
    return;
  case Value::Kind::Int:
    os << value.i;
    return;
  case Value::Kind::Float:
    os << formatFloat(value.f);
    return;
  case Value::Kind::String:
    os << '\'';
    writeEscaped(os, value.s);
    os << '\'';
    return;
  case Value::Kind::Tensor: {
    const TensorRef &tensor = value.tensor;
    os << "tensor(" << getDtypeInfo(tensor.dtype).torchScriptName << ", sizes=";
    printInts(os, tensor.sizes);
    os << ", strides=";
    printInts(os, tensor.strides);
    os << ", offset=" << tensor.storageOffset << ", storage='";
    writeEscaped(os, tensor.storageKey);
    os << "' numel=" << tensor.storageNumel << ", ";
    writeEscaped(os, tensor.device);
    if (tensor.requiresGrad)
      os << ", requires_grad";
    os << ')';
    return;
  }
  default:
    llvm_unreachable("a container is not a leaf");
  }
}

/// A container being printed, and its next element.
struct Frame {
  const Value *value;
  size_t next;
  unsigned indent;
  bool multiline;
};

/// Elements to print: a dict's keys and values count apart, an object with
/// a state has one.
size_t getChildCount(const Value &value) {
  switch (value.kind) {
  case Value::Kind::Tuple:
  case Value::Kind::List:
    return value.elements.size();
  case Value::Kind::Dict:
    return 2 * value.items.size();
  case Value::Kind::Object:
    return value.object.state ? 1 : value.object.attributes.size();
  default:
    return 0;
  }
}

bool hasOnlyScalars(const Value &value) {
  switch (value.kind) {
  case Value::Kind::Tuple:
  case Value::Kind::List:
    return all_of(value.elements,
                  [](const ValuePtr &e) { return isScalar(e.get()); });
  case Value::Kind::Dict:
    return all_of(value.items, [](const auto &item) {
      return isScalar(item.first.get()) && isScalar(item.second.get());
    });
  case Value::Kind::Object:
    return all_of(value.object.attributes, [](const auto &attribute) {
      return isScalar(attribute.second.get());
    });
  default:
    return true;
  }
}

bool hasState(const Value &value) {
  return value.kind == Value::Kind::Object && value.object.state;
}

void printCloser(const Value &value, raw_ostream &os) {
  switch (value.kind) {
  case Value::Kind::Tuple:
    os << ')';
    return;
  case Value::Kind::List:
    os << ']';
    return;
  case Value::Kind::Dict:
    os << '}';
    return;
  default:
    os << (hasState(value) ? ")" : "}");
    return;
  }
}

/// Writes the start of `value`: all of it if it is a leaf or an empty
/// container, else its opening bracket, pushing a frame for its elements.
void open(const Value *value, unsigned indent, std::vector<Frame> &frames,
          raw_ostream &os) {
  if (!value) {
    os << "<null>";
    return;
  }
  if (!value->typeTag.empty())
    os << value->typeTag << ' ';
  switch (value->kind) {
  case Value::Kind::Tuple:
    os << '(';
    break;
  case Value::Kind::List:
    os << '[';
    break;
  case Value::Kind::Dict:
    os << '{';
    break;
  case Value::Kind::Object:
    os << value->object.className << (hasState(*value) ? "(state=" : "{");
    break;
  default:
    printLeaf(*value, os);
    return;
  }
  if (getChildCount(*value) == 0) {
    printCloser(*value, os);
    return;
  }
  bool multiline = !hasState(*value) && !hasOnlyScalars(*value);
  frames.push_back({value, 0, indent, multiline});
}

} // namespace

void print(const Value &value, raw_ostream &os) {
  std::vector<Frame> frames;
  open(&value, 0, frames, os);
  while (!frames.empty()) {
    Frame &frame = frames.back();
    const Value &container = *frame.value;
    size_t count = getChildCount(container);
    if (frame.next == count) {
      if (frame.multiline) {
        os << ",\n";
        os.indent(frame.indent);
      } else if (container.kind == Value::Kind::Tuple && count == 1) {
        os << ',';
      }
      printCloser(container, os);
      frames.pop_back();
      continue;
    }

    size_t k = frame.next++;
    unsigned childIndent = frame.indent + 2;
    bool multiline = frame.multiline;
    // The separator before the k-th element (a dict's k-th key or value).
    bool dictValue = container.kind == Value::Kind::Dict && k % 2 == 1;
    size_t element = container.kind == Value::Kind::Dict ? k / 2 : k;
    if (dictValue) {
      os << ": ";
    } else if (!hasState(container)) {
      if (multiline) {
        os << (element ? ",\n" : "\n");
        os.indent(childIndent);
      } else if (element) {
        os << ", ";
      }
    }

    const Value *child = nullptr;
    switch (container.kind) {
    case Value::Kind::Tuple:
    case Value::Kind::List:
      child = container.elements[k].get();
      break;
    case Value::Kind::Dict:
      child = dictValue ? container.items[element].second.get()
                        : container.items[element].first.get();
      break;
    case Value::Kind::Object:
      if (hasState(container)) {
        child = container.object.state.get();
        childIndent = frame.indent;
      } else {
        const auto &[attribute, attributeValue] =
            container.object.attributes[k];
        writeEscaped(os, attribute);
        os << ": ";
        child = attributeValue.get();
      }
      break;
    default:
      llvm_unreachable("a leaf has no elements");
    }
    // `frame` is invalid once open() pushes a frame.
    open(child, childIndent, frames, os);
  }
  os << '\n';
}

} // namespace mlir::tsmlir::pickle
