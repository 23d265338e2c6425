//===- Safetensors.cpp - Read safetensors files ---------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Support/Safetensors.h"
#include "tsmlir/Support/Dtype.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>

using namespace llvm;

namespace mlir::tsmlir {

/// A valid header nests three deep ({ "name": { "shape": [ ); llvm::json
/// recurses on nesting, so far deeper input must be refused before parsing.
static constexpr unsigned kMaxHeaderDepth = 64;

/// Scans the header text without building it: returns false if it nests
/// deeper than kMaxHeaderDepth, and collects the quoted keys of the top-level
/// object, since llvm::json silently keeps only one of duplicate keys. The
/// keys are only meaningful once the text has parsed as JSON.
static bool scanHeader(StringRef text, SmallVectorImpl<StringRef> &keys) {
  unsigned depth = 0;
  StringRef lastString;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    if (c == '"') {
      size_t begin = i;
      for (++i; i < e && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      if (i >= e)
        return true; // Unterminated; json::parse reports it.
      lastString = text.slice(begin, i + 1);
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxHeaderDepth)
        return false;
    } else if (c == ']' || c == '}') {
      depth -= depth != 0;
    } else if (c == ':' && depth == 1) {
      keys.push_back(lastString);
    }
  }
  return true;
}

/// Reads a JSON array of non-negative integers that fit in int64_t.
static bool readIndices(const json::Value *value,
                        SmallVectorImpl<int64_t> &out) {
  const json::Array *array = value ? value->getAsArray() : nullptr;
  if (!array)
    return false;
  for (const json::Value &element : *array) {
    // getAsUINT64 accepts only integer literals: no signs, fractions or
    // exponents, and nothing beyond 2^64.
    std::optional<uint64_t> n = element.getAsUINT64();
    if (!n || *n > uint64_t(std::numeric_limits<int64_t>::max()))
      return false;
    out.push_back(int64_t(*n));
  }
  return true;
}

unsigned SafetensorsFile::getElementSize(StringRef dtype) {
  std::optional<Dtype> known = getDtypeForSafetensorsName(dtype);
  return known ? getDtypeInfo(*known).byteSize : 0;
}

Expected<std::unique_ptr<SafetensorsFile>>
SafetensorsFile::open(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer = MemoryBuffer::getFile(
      path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer)
    return createStringError(inconvertibleErrorCode(),
                             "cannot open '" + path +
                                 "': " + buffer.getError().message());
  return parse(std::move(*buffer));
}

Expected<std::unique_ptr<SafetensorsFile>>
SafetensorsFile::parse(std::unique_ptr<MemoryBuffer> buffer) {
  auto file = std::make_unique<SafetensorsFile>();
  file->path = buffer->getBufferIdentifier().str();
  StringRef bytes = buffer->getBuffer();
  file->buffer = std::move(buffer);
  auto fail = [&](const Twine &message) -> Error {
    return createStringError(inconvertibleErrorCode(),
                             Twine(file->path) + ": " + message);
  };

  if (bytes.size() < 8)
    return fail("file too short for a safetensors header (" +
                Twine(bytes.size()) + " bytes)");
  uint64_t headerSize = support::endian::read64le(bytes.data());
  if (headerSize > bytes.size() - 8)
    return fail("header size " + Twine(headerSize) + " exceeds the " +
                Twine(bytes.size() - 8) + " bytes after the size field");
  StringRef headerText = bytes.substr(8, headerSize);
  StringRef data = bytes.drop_front(8 + headerSize);

  SmallVector<StringRef> keys;
  if (!scanHeader(headerText, keys))
    return fail("header nests deeper than " + Twine(kMaxHeaderDepth));
  Expected<json::Value> header = json::parse(headerText);
  if (!header)
    return fail("invalid JSON header: " + toString(header.takeError()));
  const json::Object *root = header->getAsObject();
  if (!root)
    return fail("header is not a JSON object");
  StringSet<> seen;
  for (StringRef key : keys) {
    // Each key is a quoted JSON string; parsing it undoes any escapes.
    Expected<json::Value> parsed = json::parse(key);
    if (!parsed)
      return fail("cannot decode key " + key + ": " +
                  toString(parsed.takeError()));
    std::optional<StringRef> name = parsed->getAsString();
    if (name && !seen.insert(*name).second)
      return fail("duplicate entry '" + *name + "'");
  }

  for (const auto &[key, value] : *root) {
    StringRef name = key;
    if (name == "__metadata__") {
      const json::Object *metadata = value.getAsObject();
      if (!metadata)
        return fail("'__metadata__' is not an object");
      for (const auto &entry : *metadata)
        if (!entry.second.getAsString())
          return fail("'__metadata__' entry '" + StringRef(entry.first) +
                      "' is not a string");
      continue;
    }
    auto failTensor = [&](const Twine &message) {
      return fail("tensor '" + name + "': " + message);
    };
    const json::Object *entry = value.getAsObject();
    if (!entry)
      return failTensor("entry is not an object");

    SafetensorsTensor tensor;
    tensor.name = name.str();
    std::optional<StringRef> dtype = entry->getString("dtype");
    if (!dtype)
      return failTensor("missing or non-string 'dtype'");
    unsigned elementSize = getElementSize(*dtype);
    if (elementSize == 0)
      return failTensor("unknown dtype '" + *dtype + "'");
    tensor.dtype = dtype->str();
    if (!readIndices(entry->get("shape"), tensor.shape))
      return failTensor("'shape' is not an array of non-negative integers");
    SmallVector<int64_t, 2> offsets;
    if (!readIndices(entry->get("data_offsets"), offsets) ||
        offsets.size() != 2)
      return failTensor("'data_offsets' is not a pair of non-negative "
                        "integers");
    uint64_t begin = offsets[0], end = offsets[1];
    if (end < begin)
      return failTensor("data_offsets end " + Twine(end) + " is before begin " +
                        Twine(begin));
    if (end > data.size())
      return failTensor("data_offsets [" + Twine(begin) + ", " + Twine(end) +
                        "] exceed the " + Twine(data.size()) +
                        "-byte data section");
    int64_t byteSize = elementSize;
    for (int64_t dim : tensor.shape)
      if (MulOverflow(byteSize, dim, byteSize))
        return failTensor("shape is too large");
    if (uint64_t(byteSize) != end - begin)
      return failTensor("shape and dtype " + *dtype + " imply " +
                        Twine(byteSize) + " bytes but data_offsets hold " +
                        Twine(end - begin));
    tensor.data = ArrayRef<char>(data.data() + begin, end - begin);
    file->tensorList.push_back(std::move(tensor));
  }

  // json::Object is unordered; order by offset, then by name for ties.
  llvm::sort(file->tensorList,
             [&](const SafetensorsTensor &a, const SafetensorsTensor &b) {
               if (a.data.data() != b.data.data())
                 return a.data.data() < b.data.data();
               return a.name < b.name;
             });
  // No two tensors share bytes: in offset order, each begins at or after the
  // end of the one before (the format also forbids holes; they are allowed).
  for (size_t i = 1, e = file->tensorList.size(); i < e; ++i) {
    const SafetensorsTensor &before = file->tensorList[i - 1];
    const SafetensorsTensor &tensor = file->tensorList[i];
    if (tensor.data.data() < before.data.end()) {
      auto range = [&](const SafetensorsTensor &t) {
        return ("[" + Twine(t.data.data() - data.data()) + ", " +
                Twine(t.data.end() - data.data()) + "]")
            .str();
      };
      return fail("tensor '" + tensor.name + "': data_offsets " +
                  range(tensor) + " overlap those of '" + before.name +
                  "', " + range(before));
    }
  }
  for (size_t i = 0, e = file->tensorList.size(); i < e; ++i)
    file->index[file->tensorList[i].name] = i;
  return std::move(file);
}

const SafetensorsTensor *SafetensorsFile::lookup(StringRef name) const {
  auto it = index.find(name);
  return it == index.end() ? nullptr : &tensorList[it->second];
}

Error writeSafetensors(StringRef path, ArrayRef<SafetensorsTensor> tensors) {
  json::Object header;
  uint64_t offset = 0;
  for (const SafetensorsTensor &t : tensors) {
    unsigned elementSize = SafetensorsFile::getElementSize(t.dtype);
    uint64_t count = 1;
    for (int64_t size : t.shape)
      count *= uint64_t(size);
    if (!elementSize || count * elementSize != t.data.size())
      return createStringError("tensor '" + t.name +
                               "': " + std::to_string(t.data.size()) +
                               " bytes do not make a " + t.dtype + " tensor");
    header[t.name] = json::Object{
        {"dtype", t.dtype},
        {"shape", json::Array(t.shape)},
        {"data_offsets", json::Array{offset, offset + t.data.size()}}};
    offset += t.data.size();
  }
  std::string text;
  raw_string_ostream(text) << json::Value(std::move(header));
  text.append((8 - text.size() % 8) % 8, ' ');
  std::error_code ec;
  raw_fd_ostream os(path, ec);
  if (ec)
    return createStringError("cannot write '" + path.str() +
                             "': " + ec.message());
  char length[8];
  support::endian::write64le(length, text.size());
  os.write(length, sizeof(length));
  os << text;
  for (const SafetensorsTensor &t : tensors)
    os.write(t.data.data(), t.data.size());
  os.close();
  if (os.has_error())
    return createStringError("cannot write '" + path.str() +
                             "': " + os.error().message());
  return Error::success();
}

} // namespace mlir::tsmlir
