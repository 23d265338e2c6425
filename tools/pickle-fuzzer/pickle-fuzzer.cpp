//===- pickle-fuzzer.cpp - libFuzzer target for the unpickler -------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes, as a pickle from a .pt archive (data.pkl,
// constants.pkl, *.debug_pkl), to pickle::unpickle (lib/Support/Pickle.cpp
// is compiled into this binary with -fsanitize=fuzzer,address,undefined and
// assertions on). The bytes are the fuzzer's own memory, not a copy, so ASan
// sees any read past their end. Besides crashes, sanitizer reports, hangs
// and excessive memory, each input is checked against the unpickler's
// contract:
//
//   - a refused input has an error message that starts with the name it was
//     given, then "offset N: " with N inside the input, and a reason;
//   - an accepted value respects the limits it was unpickled with: no
//     cycle, containers nested at most maxDepth deep, at most maxValues
//     values (a shared value counted each time it appears), no string longer
//     than maxStringBytes or than the input; every tensor lies inside its
//     storage; every object's class is a __torch__ class;
//   - unpickling is deterministic: the same bytes unpickle again to a value
//     that prints the same.
//
// The limits are the defaults but for maxValues (2^14), which keeps the
// printed values small, and maxBytes (256 MiB). A broken contract prints
// `==pickle-fuzzer== FINDING: ...` and aborts, so libFuzzer saves the input.
// TSMLIR_FUZZ_VERBOSE=1 prints each error.
//
// See docs/reliability.md.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Support/Pickle.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <vector>

using namespace mlir::tsmlir;
using pickle::Value;

namespace {

constexpr llvm::StringLiteral kName = "<fuzz-input>";

bool verbose() {
  static const bool value = [] {
    const char *env = std::getenv("TSMLIR_FUZZ_VERBOSE");
    return env && *env && *env != '0';
  }();
  return value;
}

[[noreturn]] void fail(const llvm::Twine &what) {
  llvm::errs() << "==pickle-fuzzer== FINDING: " << what << "\n";
  llvm::errs().flush();
  std::abort();
}

void check(bool condition, const llvm::Twine &what) {
  if (!condition)
    fail(what);
}

pickle::Limits getLimits() {
  pickle::Limits limits;
  limits.maxValues = 1u << 14;
  limits.maxBytes = 256u << 20;
  return limits;
}

/// The elements of a value, in the order the unpickler counts them.
void getChildren(const Value &value, std::vector<const Value *> &out) {
  for (const pickle::ValuePtr &element : value.elements)
    out.push_back(element.get());
  for (const auto &[key, item] : value.items) {
    out.push_back(key.get());
    out.push_back(item.get());
  }
  for (const auto &attribute : value.object.attributes)
    out.push_back(attribute.second.get());
  if (value.object.state)
    out.push_back(value.object.state.get());
}

void checkLeaf(const Value &value, const pickle::Limits &limits,
               size_t inputSize) {
  check(value.s.size() <= limits.maxStringBytes && value.s.size() <= inputSize,
        "a string of " + llvm::Twine(value.s.size()) + " bytes from " +
            llvm::Twine(inputSize) + " bytes of input");
  if (value.kind == Value::Kind::Tensor) {
    const pickle::TensorRef &tensor = value.tensor;
    check(tensor.sizes.size() == tensor.strides.size(),
          "a tensor with as many sizes as strides");
    check(tensor.storageOffset >= 0 && tensor.storageNumel >= 0,
          "a tensor with a negative offset or storage size");
    check(!tensor.storageKey.empty(), "a tensor with an empty storage key");
    unsigned __int128 last = tensor.storageOffset;
    bool empty = false;
    for (size_t d = 0; d < tensor.sizes.size(); ++d) {
      check(tensor.sizes[d] >= 0 && tensor.strides[d] >= 0,
            "a tensor with a negative size or stride");
      empty |= tensor.sizes[d] == 0;
      if (tensor.sizes[d] > 0)
        last += static_cast<unsigned __int128>(tensor.sizes[d] - 1) *
                static_cast<uint64_t>(tensor.strides[d]);
    }
    if (empty)
      check(tensor.storageOffset <= tensor.storageNumel,
            "an empty tensor past the end of its storage");
    else
      check(last < static_cast<unsigned __int128>(tensor.storageNumel),
            "a tensor that reaches past the end of its storage");
  }
  if (value.kind == Value::Kind::Object)
    check(llvm::StringRef(value.object.className).starts_with("__torch__."),
          "an object of class '" + value.object.className + "'");
  if (!value.typeTag.empty())
    check(value.kind == Value::Kind::List || value.kind == Value::Kind::Dict,
          "a type tag on a " + Value::getKindName(value.kind));
}

/// Walks the value (a DAG: shared values once), without recursion, checking
/// its depth, size and leaves.
void checkValue(const Value &root, const pickle::Limits &limits,
                size_t inputSize) {
  struct Summary {
    bool done = false;
    unsigned depth = 0;
    uint64_t size = 1;
  };
  llvm::DenseMap<const Value *, Summary> summaries;
  std::vector<std::pair<const Value *, bool>> work = {{&root, false}};
  std::vector<const Value *> children;
  while (!work.empty()) {
    auto [value, expanded] = work.back();
    work.pop_back();
    check(value != nullptr, "a null value");
    if (!expanded) {
      auto [it, inserted] = summaries.try_emplace(value);
      if (!inserted) {
        check(it->second.done, "a value that contains itself");
        continue;
      }
      checkLeaf(*value, limits, inputSize);
      work.push_back({value, true});
      children.clear();
      getChildren(*value, children);
      for (const Value *child : children) {
        check(child != nullptr, "a null element");
        work.push_back({child, false});
      }
      continue;
    }
    children.clear();
    getChildren(*value, children);
    Summary summary;
    summary.depth = value->isContainer() ? 1 : 0;
    for (const Value *child : children) {
      const Summary &c = summaries.find(child)->second;
      check(c.done, "a value that contains itself");
      summary.depth = std::max(summary.depth, c.depth + 1);
      summary.size = llvm::SaturatingAdd(summary.size, c.size);
    }
    check(summary.depth <= limits.maxDepth,
          "containers nested " + llvm::Twine(summary.depth) + " deep");
    check(summary.size <= limits.maxValues,
          "a value holding " + llvm::Twine(summary.size) + " values");
    summary.done = true;
    summaries[value] = summary;
  }
}

std::string printed(const Value &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  pickle::print(value, os);
  return text;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  pickle::Limits limits = getLimits();
  llvm::Expected<pickle::ValuePtr> value =
      pickle::unpickle(bytes, kName, limits);
  if (!value) {
    std::string message = llvm::toString(value.takeError());
    if (verbose())
      llvm::errs() << message << "\n";
    llvm::StringRef rest(message);
    check(rest.consume_front(kName) && rest.consume_front(": offset "),
          "an error that does not start with the name and an offset: '" +
              message + "'");
    uint64_t offset;
    check(!rest.consumeInteger(10, offset) && offset <= size &&
              rest.consume_front(": ") && !rest.empty(),
          "an error without an offset in the input and a reason: '" + message +
              "'");
    return 0;
  }
  checkValue(**value, limits, size);

  // The same bytes again: a value that prints the same.
  llvm::Expected<pickle::ValuePtr> again =
      pickle::unpickle(bytes, kName, limits);
  if (!again) {
    llvm::consumeError(again.takeError());
    fail("the same bytes failed to unpickle the second time");
  }
  check(printed(**value) == printed(**again),
        "the second unpickling printed differently");
  return 0;
}
