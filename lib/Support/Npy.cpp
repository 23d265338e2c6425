//===- Npy.cpp - Read the header of NumPy .npy files ----------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Support/Npy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include <optional>

using namespace llvm;

namespace mlir::tsmlir {

static Error npyError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

namespace {
/// A parser of the header dict: a Python literal of strings, True/False and
/// tuples of ints, as numpy.lib.format writes it.
class HeaderParser {
public:
  explicit HeaderParser(StringRef text) : text(text) {}

  Error parse(NpyHeader &header) {
    bool seenDescr = false, seenOrder = false, seenShape = false;
    if (!consume('{'))
      return fail("expected '{'");
    while (!consume('}')) {
      std::optional<std::string> key = parseString();
      if (!key)
        return fail("expected a quoted key");
      if (!consume(':'))
        return fail("expected ':' after '" + *key + "'");
      // A Python dict keeps the last of repeated keys; a reader that took
      // either would read a shape other than NumPy's (the shapes of
      // repeated 'shape' keys used to be concatenated).
      if ((*key == "descr" && seenDescr) ||
          (*key == "fortran_order" && seenOrder) ||
          (*key == "shape" && seenShape))
        return fail("duplicate key '" + *key + "'");
      if (*key == "descr") {
        std::optional<std::string> descr = parseString();
        if (!descr)
          return fail("'descr' must be a string such as '<f4'");
        header.descr = *descr;
        seenDescr = true;
      } else if (*key == "fortran_order") {
        std::optional<bool> order = parseBool();
        if (!order)
          return fail("'fortran_order' must be True or False");
        header.fortranOrder = *order;
        seenOrder = true;
      } else if (*key == "shape") {
        if (Error e = parseShape(header.shape))
          return e;
        seenShape = true;
      } else {
        return fail("unexpected key '" + *key + "'");
      }
      // Entries are separated by commas; one may trail.
      if (!consume(',') && !peek('}'))
        return fail("expected ',' or '}'");
    }
    skipSpace();
    if (pos != text.size())
      return fail("unexpected text after the dict");
    if (!seenDescr || !seenOrder || !seenShape)
      return npyError("header lacks '" +
                      Twine(!seenDescr   ? "descr"
                            : !seenOrder ? "fortran_order"
                                         : "shape") +
                      "'");
    return Error::success();
  }

private:
  Error fail(const Twine &what) {
    return npyError("malformed header dict at offset " + Twine(pos) + ": " +
                    what);
  }

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\n' ||
                                 text[pos] == '\t' || text[pos] == '\r'))
      ++pos;
  }
  bool peek(char c) {
    skipSpace();
    return pos < text.size() && text[pos] == c;
  }
  bool consume(char c) {
    if (!peek(c))
      return false;
    ++pos;
    return true;
  }

  std::optional<std::string> parseString() {
    skipSpace();
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
      return std::nullopt;
    char quote = text[pos];
    size_t end = text.find(quote, pos + 1);
    if (end == StringRef::npos)
      return std::nullopt;
    std::string value = text.slice(pos + 1, end).str();
    pos = end + 1;
    return value;
  }

  std::optional<bool> parseBool() {
    skipSpace();
    for (auto [word, value] : {std::pair<StringRef, bool>{"True", true},
                               std::pair<StringRef, bool>{"False", false}})
      if (text.substr(pos).starts_with(word)) {
        pos += word.size();
        return value;
      }
    return std::nullopt;
  }

  Error parseShape(SmallVectorImpl<int64_t> &shape) {
    if (!consume('('))
      return fail("'shape' must be a tuple");
    while (!consume(')')) {
      skipSpace();
      size_t start = pos;
      while (pos < text.size() &&
             isdigit(static_cast<unsigned char>(text[pos])))
        ++pos;
      // Python 2 wrote longs as 3L.
      StringRef digits = text.slice(start, pos);
      if (pos < text.size() && text[pos] == 'L')
        ++pos;
      int64_t size;
      if (digits.empty() || digits.getAsInteger(10, size))
        return fail("'shape' must hold non-negative integers");
      shape.push_back(size);
      if (!consume(',') && !peek(')'))
        return fail("expected ',' or ')' in 'shape'");
    }
    return Error::success();
  }

  StringRef text;
  size_t pos = 0;
};
} // namespace

/// Fills the kind, item size and byte order from `descr`.
static Error decodeDescr(NpyHeader &header) {
  StringRef descr = header.descr;
  if (descr.size() < 3)
    return npyError("unsupported dtype '" + descr +
                    "': expected a byte order, a kind and a size, as '<f4'");
  switch (descr[0]) {
  case '<':
    header.byteOrder = NpyHeader::ByteOrder::Little;
    break;
  case '>':
    header.byteOrder = NpyHeader::ByteOrder::Big;
    break;
  case '|':
  case '=':
    // '=' is the writer's native order; NumPy writes '<' or '>' for it.
    header.byteOrder = descr[0] == '|' ? NpyHeader::ByteOrder::NotApplicable
                                       : NpyHeader::ByteOrder::Little;
    break;
  default:
    return npyError("unsupported dtype '" + descr + "': bad byte order '" +
                    descr.take_front() + "'");
  }
  header.kind = descr[1];
  if (StringRef("biufc").find(header.kind) == StringRef::npos)
    return npyError("unsupported dtype '" + descr +
                    "': only bool, int, uint, float and complex arrays");
  if (descr.drop_front(2).getAsInteger(10, header.itemSize) ||
      header.itemSize == 0)
    return npyError("unsupported dtype '" + descr + "': bad item size");
  return Error::success();
}

/// Sets `header.dataSize` from its shape and item size. The element count is
/// 0 when a dimension is 0, whatever the others are; otherwise it must fit
/// in int64_t, as shapes and NpyArray::numElements do.
static Error setDataSize(NpyHeader &header) {
  uint64_t count = 1;
  if (!llvm::is_contained(header.shape, 0))
    for (int64_t size : header.shape)
      if (size < 0 ||
          __builtin_mul_overflow(count, static_cast<uint64_t>(size), &count) ||
          count > static_cast<uint64_t>(INT64_MAX))
        return npyError("element count overflows");
  if (llvm::is_contained(header.shape, 0))
    count = 0;
  if (__builtin_mul_overflow(count, header.itemSize, &header.dataSize))
    return npyError("data size overflows");
  return Error::success();
}

Expected<NpyHeader> makeNpyHeader(Dtype dtype, ArrayRef<int64_t> shape) {
  NpyHeader header;
  header.majorVersion = 1;
  header.descr = getDtypeInfo(dtype).npyDescr.str();
  if (header.descr.empty())
    return npyError("dtype " + getDtypeInfo(dtype).pytorchName +
                    " has no .npy dtype");
  if (Error e = decodeDescr(header))
    return std::move(e);
  header.shape.assign(shape.begin(), shape.end());
  if (Error e = setDataSize(header))
    return std::move(e);
  return header;
}

Expected<NpyHeader> parseNpyHeader(StringRef bytes) {
  static constexpr StringLiteral kMagic("\x93NUMPY");
  if (!bytes.starts_with(kMagic))
    return npyError("not a .npy file: no \\x93NUMPY magic");
  if (bytes.size() < 8)
    return npyError("truncated .npy header: no version");
  NpyHeader header;
  header.majorVersion = static_cast<uint8_t>(bytes[6]);
  header.minorVersion = static_cast<uint8_t>(bytes[7]);
  if (header.majorVersion < 1 || header.majorVersion > 3 ||
      header.minorVersion != 0)
    return npyError("unsupported .npy version " + Twine(header.majorVersion) +
                    "." + Twine(header.minorVersion) +
                    " (expected 1.0, 2.0 or 3.0)");
  size_t lengthBytes = header.majorVersion == 1 ? 2 : 4;
  size_t preamble = 8 + lengthBytes;
  if (bytes.size() < preamble)
    return npyError("truncated .npy header: no header length");
  uint64_t length = lengthBytes == 2
                        ? support::endian::read16le(bytes.data() + 8)
                        : support::endian::read32le(bytes.data() + 8);
  if (bytes.size() - preamble < length)
    return npyError("truncated .npy header: " + Twine(length) +
                    " header bytes announced, " +
                    Twine(bytes.size() - preamble) + " present");
  header.dataOffset = preamble + length;
  if (Error e = HeaderParser(bytes.substr(preamble, length)).parse(header))
    return std::move(e);
  if (Error e = decodeDescr(header))
    return std::move(e);
  if (Error e = setDataSize(header))
    return std::move(e);
  return header;
}

Expected<NpyHeader> readNpyHeader(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return npyError("'" + path +
                    "': cannot read: " + buffer.getError().message());
  Expected<NpyHeader> header = parseNpyHeader((*buffer)->getBuffer());
  if (!header)
    return npyError("'" + path + "': " + toString(header.takeError()));
  return header;
}

int64_t NpyArray::numElements() const {
  // parseNpyHeader checked that the product fits when no dimension is 0.
  if (llvm::is_contained(header.shape, 0))
    return 0;
  int64_t n = 1;
  for (int64_t d : header.shape)
    n *= d;
  return n;
}

/// Reverses the bytes of each element (big-endian files).
static void swapBytes(std::vector<uint8_t> &data, unsigned itemSize) {
  for (size_t i = 0; i + itemSize <= data.size(); i += itemSize)
    std::reverse(data.begin() + i, data.begin() + i + itemSize);
}

/// Converts Fortran-order data (first index fastest) to C order.
static std::vector<uint8_t> fortranToC(const std::vector<uint8_t> &data,
                                       ArrayRef<int64_t> shape,
                                       unsigned itemSize) {
  std::vector<uint8_t> result(data.size());
  size_t rank = shape.size();
  int64_t n = data.size() / std::max(itemSize, 1u);
  SmallVector<int64_t> index(rank, 0);
  for (int64_t c = 0; c < n; ++c) {
    // `index` is the C-order multi-index of element c.
    int64_t f = 0, stride = 1;
    for (size_t d = 0; d < rank; ++d) {
      f += index[d] * stride;
      stride *= shape[d];
    }
    std::memcpy(&result[c * itemSize], &data[f * itemSize], itemSize);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return result;
}

Expected<NpyArray> parseNpy(StringRef bytes) {
  Expected<NpyHeader> header = parseNpyHeader(bytes);
  if (!header)
    return header.takeError();
  if (header->kind == 'c')
    return npyError("complex arrays are not supported");
  // The header lies inside `bytes`; comparing with what follows it cannot
  // wrap, as dataOffset + dataSize may (a shape of 2^62 floats).
  if (header->dataSize > bytes.size() - header->dataOffset)
    return npyError("the file ends before its data do (" +
                    Twine(bytes.size() - std::min<uint64_t>(
                                             bytes.size(), header->dataOffset)) +
                    " of " + Twine(header->dataSize) + " bytes)");
  NpyArray array;
  array.header = *header;
  const uint8_t *begin =
      reinterpret_cast<const uint8_t *>(bytes.data()) + header->dataOffset;
  array.data.assign(begin, begin + header->dataSize);
  if (header->byteOrder == NpyHeader::ByteOrder::Big) {
    // One-byte items ('>u1') have no bytes to swap, but are native too.
    if (header->itemSize > 1)
      swapBytes(array.data, header->itemSize);
    array.header.byteOrder = NpyHeader::ByteOrder::Little;
  }
  if (header->fortranOrder && header->shape.size() > 1) {
    array.data = fortranToC(array.data, header->shape, header->itemSize);
  }
  array.header.fortranOrder = false;
  return array;
}

Expected<NpyArray> readNpy(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return npyError("'" + path +
                    "': cannot read: " + buffer.getError().message());
  Expected<NpyArray> array = parseNpy((*buffer)->getBuffer());
  if (!array)
    return npyError("'" + path + "': " + toString(array.takeError()));
  return array;
}

Error writeNpy(StringRef path, StringRef descr, ArrayRef<int64_t> shape,
               const void *data, size_t bytes) {
  std::string dims;
  for (size_t i = 0; i < shape.size(); ++i)
    dims += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1)
    dims += ",";
  std::string dict = "{'descr': '" + descr.str() +
                     "', 'fortran_order': False, 'shape': (" + dims + "), }";
  // Magic (6) + version (2) + length (2) + dict + padding + '\n', a
  // multiple of 64.
  size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  std::error_code ec;
  raw_fd_ostream os(path, ec);
  if (ec)
    return npyError("'" + path + "': cannot write: " + ec.message());
  os << "\x93NUMPY" << '\x01' << '\x00';
  uint16_t length = dict.size();
  os << static_cast<char>(length & 0xff) << static_cast<char>(length >> 8);
  os << dict;
  os.write(static_cast<const char *>(data), bytes);
  os.close();
  if (os.has_error())
    return npyError("'" + path + "': cannot write: " + os.error().message());
  return Error::success();
}

} // namespace mlir::tsmlir
