//===- npy-fuzzer.cpp - libFuzzer target for the .npy reader -------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes, as the contents of a .npy file, to parseNpyHeader
// and parseNpy (lib/Support/Npy.cpp is compiled into this binary with
// -fsanitize=fuzzer,address,undefined and assertions on). Besides crashes,
// sanitizer reports, hangs and excessive memory, each input is checked
// against the reader's contract:
//
//   - a refused input has an error message;
//   - a header that parses is version 1.0, 2.0 or 3.0, has a known kind and a
//     non-zero item size, its data start inside the input and right after the
//     header, and its data size is the product of its shape and item size
//     (computed here in 128 bits);
//   - an array that reads was a header that parses, not complex, whose data
//     are all inside the input; the array holds exactly those bytes, in C
//     order and little-endian: each element is checked against the input,
//     through an index computation of its own.
//
// A broken contract prints `==npy-fuzzer== FINDING: ...` and aborts, so
// libFuzzer saves the input. TSMLIR_FUZZ_VERBOSE=1 prints each error.
//
// See docs/reliability.md.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Support/Npy.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace mlir::tsmlir;

namespace {

bool verbose() {
  static const bool value = [] {
    const char *env = std::getenv("TSMLIR_FUZZ_VERBOSE");
    return env && *env && *env != '0';
  }();
  return value;
}

[[noreturn]] void fail(const llvm::Twine &what) {
  llvm::errs() << "==npy-fuzzer== FINDING: " << what << "\n";
  llvm::errs().flush();
  std::abort();
}

void check(bool condition, const llvm::Twine &what) {
  if (!condition)
    fail(what);
}

/// Consumes an error, checking that it says something.
void checkError(llvm::Error error, llvm::StringRef what) {
  std::string message = llvm::toString(std::move(error));
  if (verbose())
    llvm::errs() << what << ": " << message << "\n";
  check(!message.empty(), llvm::Twine(what) + " failed with an empty message");
}

void checkHeader(const NpyHeader &header, llvm::StringRef bytes) {
  check(header.majorVersion >= 1 && header.majorVersion <= 3 &&
            header.minorVersion == 0,
        "accepted version " + llvm::Twine(header.majorVersion) + "." +
            llvm::Twine(header.minorVersion));
  check(llvm::StringRef("biufc").contains(header.kind) && header.kind != 0,
        "accepted kind '" + llvm::Twine(header.kind) + "'");
  check(header.itemSize != 0, "accepted item size 0");
  size_t lengthBytes = header.majorVersion == 1 ? 2 : 4;
  uint64_t length = lengthBytes == 2
                        ? llvm::support::endian::read16le(bytes.data() + 8)
                        : llvm::support::endian::read32le(bytes.data() + 8);
  check(header.dataOffset == 8 + lengthBytes + length,
        "data offset " + llvm::Twine(header.dataOffset) +
            " is not right after the header");
  check(header.dataOffset <= bytes.size(),
        "data offset " + llvm::Twine(header.dataOffset) + " is past the " +
            llvm::Twine(bytes.size()) + "-byte input");
  for (int64_t dim : header.shape)
    check(dim >= 0, "negative dimension " + llvm::Twine(dim));
  // The reader refuses sizes whose running product overflows; one that
  // parses must be the exact product.
  unsigned __int128 size = header.itemSize;
  bool overflow = false;
  for (int64_t dim : header.shape) {
    size *= static_cast<uint64_t>(dim);
    overflow |= size > UINT64_MAX;
  }
  check(!overflow || size == 0, "accepted a data size that overflows");
  check(static_cast<uint64_t>(size) == header.dataSize,
        "data size " + llvm::Twine(header.dataSize) + " is not " +
            llvm::Twine(static_cast<uint64_t>(size)));
}

/// Checks `array` against the raw data of `header` in `bytes`.
void checkArray(const NpyArray &array, const NpyHeader &header,
                llvm::StringRef bytes) {
  check(header.kind != 'c', "read a complex array");
  check(header.dataSize <= bytes.size() &&
            header.dataOffset <= bytes.size() - header.dataSize,
        "read an array whose " + llvm::Twine(header.dataSize) +
            " data bytes from offset " + llvm::Twine(header.dataOffset) +
            " are not all in the " + llvm::Twine(bytes.size()) + "-byte input");
  check(array.data.size() == header.dataSize,
        "array holds " + llvm::Twine(array.data.size()) + " bytes, not " +
            llvm::Twine(header.dataSize));
  check(!array.header.fortranOrder, "array left in Fortran order");
  check(array.header.byteOrder != NpyHeader::ByteOrder::Big,
        "array left big-endian");
  check(array.shape() == header.shape, "array shape differs from header");
  check(static_cast<uint64_t>(array.numElements()) * header.itemSize ==
                array.data.size() ||
            array.data.empty(),
        "numElements() * item size is not the data size");

  // Every element, found in the input by its own route: the C-order
  // multi-index of element i, its offset in the file's order, its bytes in
  // the file's byte order.
  const uint8_t *raw =
      reinterpret_cast<const uint8_t *>(bytes.data()) + header.dataOffset;
  unsigned itemSize = header.itemSize;
  uint64_t count = itemSize ? header.dataSize / itemSize : 0;
  if (count > (1u << 16))
    count = 1u << 16; // enough to see a wrong order
  bool swap = header.byteOrder == NpyHeader::ByteOrder::Big && itemSize > 1;
  size_t rank = header.shape.size();
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t rest = i, offset = 0, stride = 1;
    // C order: the last index is fastest. Peel indices from the back.
    llvm::SmallVector<uint64_t> index(rank);
    for (size_t d = rank; d-- > 0;) {
      uint64_t size = static_cast<uint64_t>(header.shape[d]);
      index[d] = rest % size;
      rest /= size;
    }
    if (header.fortranOrder) {
      for (size_t d = 0; d < rank; ++d) {
        offset += index[d] * stride;
        stride *= static_cast<uint64_t>(header.shape[d]);
      }
    } else {
      offset = i;
    }
    const uint8_t *source = raw + offset * itemSize;
    const uint8_t *read = array.data.data() + i * itemSize;
    for (unsigned b = 0; b < itemSize; ++b)
      if (read[b] != source[swap ? itemSize - 1 - b : b])
        fail("element " + llvm::Twine(i) + " byte " + llvm::Twine(b) +
             " differs from the input (" +
             (header.fortranOrder ? "Fortran" : "C") + " order, " +
             (swap ? "big" : "little") + "-endian)");
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // The bytes as they are, with no copy, so ASan sees any read past the end.
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);

  llvm::Expected<NpyHeader> header = parseNpyHeader(bytes);
  llvm::Expected<NpyArray> array = parseNpy(bytes);
  if (!header) {
    checkError(header.takeError(), "parseNpyHeader");
    check(!array, "parseNpy read an array whose header does not parse");
    checkError(array.takeError(), "parseNpy");
    return 0;
  }
  checkHeader(*header, bytes);
  if (!array) {
    // Refused after the header: complex, or the data do not fit.
    check(header->kind == 'c' ||
              header->dataSize > bytes.size() - header->dataOffset,
          "parseNpy refused an array whose header parses and whose data "
          "are all in the input");
    checkError(array.takeError(), "parseNpy");
    return 0;
  }
  checkArray(*array, *header, bytes);
  return 0;
}
