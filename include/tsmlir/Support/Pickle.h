//===- Pickle.h - Read the pickles torch.jit.save writes --------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A restricted unpickler for the pickles in the archives torch.jit.save
// writes: data.pkl (the module's object tree), constants.pkl (the tensors a
// frozen module holds as constants) and the *.debug_pkl files (source
// ranges). It executes nothing: it reads the opcodes PyTorch's own C++
// unpickler reads (torch/csrc/jit/serialization/unpickler.cpp) and builds a
// tree of Values, knowing the handful of globals torch.jit.save writes by
// name (_rebuild_tensor_v2, the storage classes, OrderedDict, the
// torch.jit._pickle list helpers and restore_type_tag, torch.device, and
// the `__torch__.*` classes of scripted modules). Every other global is
// refused by name when the GLOBAL opcode reads it.
//
// Hostile input is expected: the reader never recurses on the input (an
// explicit stack), bounds the nesting of containers, the number of values
// and the size of strings (Limits), never allocates more for a string than
// the remaining input holds, and refuses cycles (a container may only be
// changed while it is inside no other value).
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_SUPPORT_PICKLE_H
#define TSMLIR_SUPPORT_PICKLE_H

#include "tsmlir/Support/Dtype.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::tsmlir::pickle {

struct Value;
/// Values are shared: the memo (BINPUT/BINGET) makes one value appear in
/// several places, as in Python.
using ValuePtr = std::shared_ptr<const Value>;

/// The element types of the storage classes (torch.FloatStorage, ...): the
/// dtypes of tsmlir/Support/Dtype.h, whose TorchScript names the classes
/// carry.
using ScalarType = Dtype;

/// A tensor, as torch._utils._rebuild_tensor_v2(storage, storage_offset,
/// sizes, strides, requires_grad, backward_hooks) rebuilds it: a view of a
/// storage, whose bytes are the archive member data/<storageKey> (or
/// constants/<storageKey> for constants.pkl). The unpickler checks that the
/// view lies inside the storage.
struct TensorRef {
  /// The persistent id's key: "0", "1", ...
  std::string storageKey;
  /// From the storage class (torch.FloatStorage, ...).
  ScalarType dtype = ScalarType::Float;
  /// "cpu", "cuda:0", ...
  std::string device;
  /// Elements in the storage (its member holds storageNumel times the
  /// element size bytes).
  int64_t storageNumel = 0;
  /// In elements.
  int64_t storageOffset = 0;
  llvm::SmallVector<int64_t> sizes, strides;
  bool requiresGrad = false;

  /// The product of the sizes (it fits in int64_t: the unpickler checks).
  int64_t getNumel() const;
};

/// An instance of a TorchScript class or module: GLOBAL '__torch__.foo Bar',
/// EMPTY_TUPLE, NEWOBJ, then BUILD with a dict of its attributes.
struct Object {
  /// "__torch__.foo.Bar": the module, ".", and the name.
  std::string className;
  /// The attributes, in the order of the BUILD dict.
  std::vector<std::pair<std::string, ValuePtr>> attributes;
  /// The argument of BUILD when it is not a dict with string keys (classes
  /// with __setstate__ pickle their state so); null otherwise.
  ValuePtr state;

  /// The attribute called `name`, or null.
  const Value *getAttribute(llvm::StringRef name) const;
};

struct Value {
  enum class Kind {
    None,
    Bool,
    Int,
    Float,
    String,
    Tuple,
    List,
    Dict,
    Tensor,
    Object,
  };

  Kind kind = Kind::None;
  bool b = false;
  int64_t i = 0;
  double f = 0.0;
  /// String (also the bytes of SHORT_BINBYTES/BINBYTES, and torch.device).
  std::string s;
  /// Tuple, List.
  std::vector<ValuePtr> elements;
  /// Dict, in insertion order.
  std::vector<std::pair<ValuePtr, ValuePtr>> items;
  /// The TorchScript type of a List or Dict when the pickle gives it:
  /// torch.jit._pickle.restore_type_tag(value, "Dict[str, Tensor]"), or the
  /// build_intlist ("List[int]"), build_doublelist ("List[float]"),
  /// build_boollist ("List[bool]") and build_tensorlist ("List[Tensor]")
  /// helpers; empty otherwise.
  std::string typeTag;
  TensorRef tensor;
  Object object;

  bool isNone() const { return kind == Kind::None; }
  /// Whether the value is a Tuple, List, Dict or Object.
  bool isContainer() const {
    return kind == Kind::Tuple || kind == Kind::List || kind == Kind::Dict ||
           kind == Kind::Object;
  }
  /// The value at string key `key` of a Dict, or null.
  const Value *lookup(llvm::StringRef key) const;
  /// "None", "Bool", ..., "Object".
  static llvm::StringRef getKindName(Kind kind);
};

struct Limits {
  /// How deeply containers (tuples, lists, dicts, objects) may nest.
  unsigned maxDepth = 256;
  /// How many values the unpickler may create, and how many the result may
  /// hold, a value shared through the memo counting once for each place it
  /// appears in.
  uint64_t maxValues = 1ull << 24;
  /// The longest string.
  uint64_t maxStringBytes = 1ull << 30;
  /// Roughly the most memory the unpickler may allocate: for each value, its
  /// size, its elements' slots and the strings copied into it (class names,
  /// attribute names, type tags), and its stack and memo. Values shared
  /// through the memo cost once, but the unpickler charges for what it
  /// makes and copies, even when it is dropped again.
  uint64_t maxBytes = 1ull << 32;
};

/// Unpickles `bytes`. `name` (e.g. "model.pt: member 'model/data.pkl'")
/// starts every error message, followed by "offset N: " (the byte offset of
/// the opcode at fault) and the reason.
llvm::Expected<ValuePtr> unpickle(llvm::StringRef bytes, llvm::StringRef name,
                                  const Limits &limits = {});

/// Prints `value` in a Python-like notation, one value per line: a
/// container whose elements are all None, bools, numbers or strings stays on
/// one line, others put each element on its own, indented line. Tensors
/// print as `tensor(Float, sizes=[4, 3], strides=[3, 1], offset=0,
/// storage='0' numel=12, cpu)`, objects as `__torch__.Block{training: True,
/// ...}` (or `__torch__.Cls(state=...)`), type tags before their container
/// (`List[int] [1, 2]`). Ends with a newline. Does not recurse, and prints
/// shared values once for each place they appear in.
void print(const Value &value, llvm::raw_ostream &os);

} // namespace mlir::tsmlir::pickle

#endif // TSMLIR_SUPPORT_PICKLE_H
