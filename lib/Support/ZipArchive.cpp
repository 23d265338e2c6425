//===- ZipArchive.cpp - Read the zip archives torch.jit.save writes -------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Support/ZipArchive.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <zip.h>

using namespace llvm;

namespace mlir::tsmlir {

/// A name as it can be shown in a message: non-printable bytes escaped, and
/// at most 256 bytes of it.
static std::string printable(StringRef text) {
  std::string result;
  raw_string_ostream os(result);
  os.write_escaped(text.take_front(256));
  if (text.size() > 256)
    os << "...";
  return result;
}

static Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// libzip's message for `error`, which it owns.
static std::string describe(zip_error_t *error) {
  return zip_error_strerror(error);
}

/// What a file that is not a zip archive is, when it is one of the formats
/// torch.save wrote before PyTorch 1.6: a raw pickle (which starts with the
/// PROTO opcode, 0x80) or, before that, a tar archive.
static const char *getLegacyFormat(StringRef bytes) {
  if (!bytes.empty() && static_cast<unsigned char>(bytes[0]) == 0x80)
    return "a raw pickle";
  if (bytes.size() >= 262 && bytes.substr(257, 5) == "ustar")
    return "a tar archive";
  return nullptr;
}

/// Whether `name` has a `..` component (with either separator).
static bool hasParentComponent(StringRef name) {
  while (!name.empty()) {
    auto [component, rest] = name.split('/');
    for (StringRef part = component; !part.empty();) {
      auto [piece, more] = part.split('\\');
      if (piece == "..")
        return true;
      part = more;
    }
    name = rest;
  }
  return false;
}

ZipArchive::~ZipArchive() {
  if (archive)
    zip_discard(archive);
}

Expected<std::unique_ptr<ZipArchive>> ZipArchive::open(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError(path + ": cannot open: " + buffer.getError().message());
  return openImpl(std::move(*buffer), path);
}

Expected<std::unique_ptr<ZipArchive>>
ZipArchive::openBuffer(std::unique_ptr<MemoryBuffer> buffer) {
  std::string path = buffer->getBufferIdentifier().str();
  return openImpl(std::move(buffer), path);
}

Expected<std::unique_ptr<ZipArchive>>
ZipArchive::openImpl(std::unique_ptr<MemoryBuffer> buffer, StringRef path) {
  StringRef bytes = buffer->getBuffer();
  if (const char *format = getLegacyFormat(bytes))
    return makeError(path +
                     ": legacy (pre-1.6) torch.save format is not supported: "
                     "the file is " +
                     format + ", not a zip archive");

  // libzip opens an empty file as an empty archive.
  if (bytes.empty())
    return makeError(path + ": not a zip archive: the file is empty");

  std::unique_ptr<ZipArchive> result(new ZipArchive());
  result->path = path.str();
  result->buffer = std::move(buffer);

  // ZIP_CHECKCONS: libzip checks the central directory against the local
  // headers and refuses overlapping members and duplicate names, besides its
  // usual checks. It does not say which name is duplicate: then the archive
  // is opened without the checks, for the loop below to name it.
  std::string openError;
  for (int flags : {ZIP_RDONLY | ZIP_CHECKCONS, ZIP_RDONLY}) {
    zip_error_t error;
    zip_error_init(&error);
    // libzip reads the mapped bytes in place (no copy; freep = 0).
    zip_source_t *source =
        zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
    if (source)
      result->archive = zip_open_from_source(source, flags, &error);
    int code = zip_error_code_zip(&error);
    std::string message = describe(&error);
    zip_error_fini(&error);
    if (!source)
      return makeError(path + ": cannot read the archive: " + message);
    if (result->archive)
      break;
    zip_source_free(source);
    if (code == ZIP_ER_NOZIP)
      return makeError(path + ": not a zip archive, or a truncated one (no "
                              "end of central directory record)");
    if (openError.empty())
      openError = path.str() + ": not a valid zip archive: " + message;
    if (code != ZIP_ER_EXISTS)
      break;
  }
  if (!result->archive)
    return makeError(openError);

  zip_int64_t count = zip_get_num_entries(result->archive, 0);
  if (count < 0)
    return makeError(path + ": cannot count the members of the archive");
  if (static_cast<uint64_t>(count) > kMaxMembers)
    return makeError(path + ": the archive has " + Twine(count) +
                     " members, more than the " + Twine(kMaxMembers) +
                     " allowed");

  result->names.reserve(count);
  for (zip_int64_t i = 0; i < count; ++i) {
    zip_stat_t stat;
    zip_stat_init(&stat);
    // Raw names: what the archive holds, not a guessed re-encoding.
    if (zip_stat_index(result->archive, i, ZIP_FL_ENC_RAW, &stat) != 0)
      return makeError(path + ": cannot read member " + Twine(i) + ": " +
                       zip_strerror(result->archive));
    constexpr zip_uint64_t kNeeded = ZIP_STAT_NAME | ZIP_STAT_SIZE |
                                     ZIP_STAT_COMP_METHOD |
                                     ZIP_STAT_ENCRYPTION_METHOD;
    if ((stat.valid & kNeeded) != kNeeded || !stat.name)
      return makeError(path + ": member " + Twine(i) +
                       " lacks a name, size or method");
    StringRef name(stat.name);
    if (name.empty())
      return makeError(path + ": member " + Twine(i) + " has an empty name");
    if (hasParentComponent(name))
      return makeError(path + ": member '" + printable(name) +
                       "': a name with a '..' component is refused");
    Member member{static_cast<uint64_t>(i), stat.size, stat.comp_method,
                  stat.encryption_method};
    if (!result->index.try_emplace(name, member).second)
      return makeError(path + ": member '" + printable(name) +
                       "': the archive has two members of this name");
    result->names.push_back(name.str());
  }
  // Opened without the consistency checks, but no name is duplicate.
  if (!openError.empty())
    return makeError(openError);
  return result;
}

Error ZipArchive::memberError(StringRef member, const Twine &message) const {
  return makeError(path + ": member '" + printable(member) + "': " + message);
}

Expected<const ZipArchive::Member *> ZipArchive::lookup(StringRef name) const {
  auto it = index.find(name);
  if (it == index.end())
    return memberError(name, "no such member in the archive");
  return &it->second;
}

Expected<uint64_t> ZipArchive::getMemberSize(StringRef member) const {
  Expected<const Member *> found = lookup(member);
  if (!found)
    return found.takeError();
  return (*found)->size;
}

bool ZipArchive::isMemberStored(StringRef member) const {
  auto it = index.find(member);
  return it != index.end() && it->second.compressionMethod == ZIP_CM_STORE &&
         it->second.encryptionMethod == ZIP_EM_NONE;
}

Expected<std::unique_ptr<MemoryBuffer>>
ZipArchive::readMember(StringRef member, uint64_t maxSize) const {
  Expected<const Member *> found = lookup(member);
  if (!found)
    return found.takeError();
  uint64_t size = (*found)->size;
  if (size > maxSize)
    return memberError(member, "its size of " + Twine(size) +
                                   " bytes exceeds the limit of " +
                                   Twine(maxSize) + " bytes");
  std::unique_ptr<WritableMemoryBuffer> result =
      WritableMemoryBuffer::getNewUninitMemBuffer(size, path + ":" + member);
  if (!result)
    return memberError(member,
                       "cannot allocate " + Twine(size) + " bytes for it");
  if (Error error = readMemberInto(
          member, MutableArrayRef<char>(result->getBufferStart(), size)))
    return std::move(error);
  return std::unique_ptr<MemoryBuffer>(std::move(result));
}

Error ZipArchive::readMemberInto(StringRef member,
                                 MutableArrayRef<char> out) const {
  Expected<const Member *> found = lookup(member);
  if (!found)
    return found.takeError();
  const Member &info = **found;
  if (out.size() != info.size)
    return memberError(member, "it holds " + Twine(info.size) +
                                   " bytes, not the " + Twine(out.size()) +
                                   " bytes of the buffer it is read into");
  if (info.encryptionMethod != ZIP_EM_NONE)
    return memberError(member, "encrypted members are not supported");
  if (info.compressionMethod != ZIP_CM_STORE &&
      info.compressionMethod != ZIP_CM_DEFLATE)
    return memberError(member, "compression method " +
                                   Twine(info.compressionMethod) +
                                   " is not supported (only stored and "
                                   "deflate are)");

  zip_file_t *file = zip_fopen_index(archive, info.index, 0);
  if (!file)
    return memberError(member,
                       Twine("cannot open it: ") + zip_strerror(archive));
  auto readError = [&](const Twine &what) {
    zip_error_t *error = zip_file_get_error(file);
    std::string reason = zip_error_code_zip(error) == ZIP_ER_CRC
                             ? "its data fail the CRC check"
                             : what.str() + ": " + describe(error);
    zip_fclose(file);
    return memberError(member, reason);
  };

  // libzip checks the CRC, and the size the data decompress to, once a
  // read reaches their end: read the declared size, then one byte more,
  // which must find the end.
  uint64_t done = 0;
  while (done < out.size()) {
    zip_int64_t n = zip_fread(file, out.data() + done, out.size() - done);
    if (n < 0)
      return readError("cannot read it");
    if (n == 0) {
      zip_fclose(file);
      return memberError(member, "truncated: its data end after " +
                                     Twine(done) + " of the " +
                                     Twine(out.size()) + " bytes it declares");
    }
    done += n;
  }
  char extra;
  zip_int64_t n = zip_fread(file, &extra, 1);
  if (n < 0)
    return readError("cannot read it");
  if (n > 0) {
    zip_fclose(file);
    return memberError(member, "its data are longer than the " +
                                   Twine(out.size()) + " bytes it declares");
  }
  zip_fclose(file);
  return Error::success();
}

} // namespace mlir::tsmlir
