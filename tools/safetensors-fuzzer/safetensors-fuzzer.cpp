//===- safetensors-fuzzer.cpp - libFuzzer target for safetensors ---------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes, as the contents of a .safetensors file, to
// SafetensorsFile::parse (lib/Support/Safetensors.cpp is compiled into this
// binary with -fsanitize=fuzzer,address,undefined and assertions on). The
// buffer is the fuzzer's own memory, not a copy, so ASan sees any read past
// its end. Besides crashes, sanitizer reports, hangs and excessive memory,
// each input is checked against the reader's contract:
//
//   - a refused input has an error message that names the buffer;
//   - in a file that parses, every tensor has a known dtype, its bytes lie
//     in the data section (after the 8-byte size and the header the size
//     announces) and number its element size times the product of its
//     shape (computed here in 128 bits); no two tensors share a byte;
//     names are unique, lookup() finds each tensor by name, and the list is
//     in data order;
//   - parsing is deterministic: the same bytes parse again to the same
//     tensors.
//
// A broken contract prints `==safetensors-fuzzer== FINDING: ...` and aborts,
// so libFuzzer saves the input. TSMLIR_FUZZ_VERBOSE=1 prints each error.
//
// See docs/reliability.md.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Support/Safetensors.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace mlir::tsmlir;

namespace {

constexpr llvm::StringLiteral kBufferName = "<fuzz-input>";

bool verbose() {
  static const bool value = [] {
    const char *env = std::getenv("TSMLIR_FUZZ_VERBOSE");
    return env && *env && *env != '0';
  }();
  return value;
}

[[noreturn]] void fail(const llvm::Twine &what) {
  llvm::errs() << "==safetensors-fuzzer== FINDING: " << what << "\n";
  llvm::errs().flush();
  std::abort();
}

void check(bool condition, const llvm::Twine &what) {
  if (!condition)
    fail(what);
}

llvm::Expected<std::unique_ptr<SafetensorsFile>> parse(llvm::StringRef bytes) {
  return SafetensorsFile::parse(llvm::MemoryBuffer::getMemBuffer(
      bytes, kBufferName, /*RequiresNullTerminator=*/false));
}

void checkFile(const SafetensorsFile &file, llvm::StringRef bytes) {
  check(file.getPath() == kBufferName, "the file's path is '" + file.getPath() +
                                           "', not '" + kBufferName + "'");
  check(bytes.size() >= 8, "parsed a file shorter than its size field");
  uint64_t headerSize = llvm::support::endian::read64le(bytes.data());
  check(headerSize <= bytes.size() - 8,
        "parsed a file whose header is longer than the file");
  const char *dataBegin = bytes.data() + 8 + headerSize;
  const char *dataEnd = bytes.data() + bytes.size();

  llvm::StringSet<> names;
  const char *previous = nullptr, *previousEnd = nullptr;
  llvm::StringRef previousName;
  for (const SafetensorsTensor &tensor : file.tensors()) {
    std::string which = "tensor '" + tensor.name + "'";
    unsigned elementSize = SafetensorsFile::getElementSize(tensor.dtype);
    check(elementSize != 0,
          which + " has the unknown dtype '" + tensor.dtype + "'");
    check(tensor.name != "__metadata__", "'__metadata__' read as a tensor");
    check(names.insert(tensor.name).second,
          "two tensors are called '" + tensor.name + "'");
    const char *begin = tensor.data.data();
    size_t size = tensor.data.size();
    check(begin >= dataBegin && begin <= dataEnd &&
              size <= static_cast<size_t>(dataEnd - begin),
          which + "'s bytes are not in the data section");
    unsigned __int128 expected = elementSize;
    bool overflow = false;
    for (int64_t dim : tensor.shape) {
      check(dim >= 0,
            which + " has the negative dimension " + llvm::Twine(dim));
      expected *= static_cast<uint64_t>(dim);
      overflow |= expected > UINT64_MAX;
    }
    check((!overflow || expected == 0) && expected == size,
          which + " holds " + llvm::Twine(size) +
              " bytes, not its element size times its shape");
    check(!previous || previous < begin ||
              (previous == begin && previousName < tensor.name),
          which + " is out of data order");
    check(!previous || begin >= previousEnd,
          which + " shares bytes with '" + previousName.str() + "'");
    previous = begin;
    previousEnd = begin + size;
    previousName = tensor.name;
    const SafetensorsTensor *found = file.lookup(tensor.name);
    check(found == &tensor,
          "lookup('" + tensor.name + "') does not find the tensor");
  }
  check(file.lookup("__metadata__") == nullptr,
        "lookup('__metadata__') finds a tensor");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  llvm::Expected<std::unique_ptr<SafetensorsFile>> file = parse(bytes);
  if (!file) {
    std::string message = llvm::toString(file.takeError());
    if (verbose())
      llvm::errs() << message << "\n";
    check(llvm::StringRef(message).starts_with(kBufferName) &&
              message.size() > kBufferName.size() + 2,
          "an error that does not name the file: '" + message + "'");
    return 0;
  }
  checkFile(**file, bytes);

  // The same bytes again: the same tensors, in the same order.
  llvm::Expected<std::unique_ptr<SafetensorsFile>> again = parse(bytes);
  if (!again) {
    llvm::consumeError(again.takeError());
    fail("the same bytes failed to parse the second time");
  }
  auto first = (*file)->tensors(), second = (*again)->tensors();
  check(first.size() == second.size(),
        "the second parse read a different number of tensors");
  for (size_t i = 0; i < first.size(); ++i)
    check(first[i].name == second[i].name &&
              first[i].dtype == second[i].dtype &&
              first[i].shape == second[i].shape &&
              first[i].data.data() == second[i].data.data() &&
              first[i].data.size() == second[i].data.size(),
          "the second parse read tensor " + llvm::Twine(i) + " differently");
  return 0;
}
