//===- ZipArchive.h - Read torch.jit.save's zip archives --------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A read-only view of a zip archive, through libzip: the `.pt` files that
// torch.jit.save and torch.save (since PyTorch 1.6) write are zip archives
// with one top-level directory holding data.pkl, constants.pkl, code/ and one
// member per tensor storage (data/0, data/1, ...).
//
// The archive is checked when it is opened (libzip's consistency checks, at
// most kMaxMembers members, unique names, no `..` path components), and every
// member is checked when it is read: its compression method (stored or
// deflate), no encryption, its size against a limit before anything is
// allocated, its CRC, and that it decompresses to exactly the size it
// declares, so that a zip bomb cannot make the reader allocate more than the
// limit. Every error message starts with the archive's path, and names the
// member it is about: `<path>: member 'model/data/3': ...`.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_SUPPORT_ZIPARCHIVE_H
#define TSMLIR_SUPPORT_ZIPARCHIVE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

// libzip's archive handle (zip_t in <zip.h>), kept out of this header.
struct zip;

namespace mlir::tsmlir {

class ZipArchive {
public:
  /// Archives with more members than this are refused.
  static constexpr uint64_t kMaxMembers = 1000000;

  /// Opens `path`, memory-mapped. Errors (a missing file, a file that is not
  /// a zip archive, a legacy pre-1.6 torch.save file, which is a raw pickle
  /// or a tar archive) start with the path.
  static llvm::Expected<std::unique_ptr<ZipArchive>> open(llvm::StringRef path);
  /// The same for bytes in memory (for fuzzing); the buffer's identifier is
  /// the path used in errors.
  static llvm::Expected<std::unique_ptr<ZipArchive>>
  openBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer);

  ~ZipArchive();
  ZipArchive(const ZipArchive &) = delete;
  ZipArchive &operator=(const ZipArchive &) = delete;

  llvm::StringRef getPath() const { return path; }
  /// Member names, in archive (central directory) order.
  llvm::ArrayRef<std::string> getMemberNames() const { return names; }
  bool contains(llvm::StringRef member) const { return index.contains(member); }
  /// The uncompressed size a member declares; an error if there is no such
  /// member.
  llvm::Expected<uint64_t> getMemberSize(llvm::StringRef member) const;
  /// Whether a member is stored uncompressed (false: it is compressed or
  /// encrypted, or there is no such member).
  bool isMemberStored(llvm::StringRef member) const;

  /// Reads a whole member. Refuses (with an error naming the member) a
  /// member whose uncompressed size exceeds `maxSize`, whose compression
  /// method is neither stored nor deflate, that is encrypted or truncated, or
  /// whose data fail the CRC check or decompress to another size than the
  /// member declares. Never allocates more than the declared size.
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
  readMember(llvm::StringRef member, uint64_t maxSize = 1ull << 30) const;
  /// Reads a member straight into `out`, whose size must be the member's
  /// size exactly (this is how tensor storages get into their final buffer
  /// without another copy). The same checks as readMember, but the size
  /// limit, which is the caller's choice of `out`.
  llvm::Error readMemberInto(llvm::StringRef member,
                             llvm::MutableArrayRef<char> out) const;

private:
  struct Member {
    uint64_t index;
    uint64_t size;
    uint16_t compressionMethod;
    uint16_t encryptionMethod;
  };

  ZipArchive() = default;
  static llvm::Expected<std::unique_ptr<ZipArchive>>
  openImpl(std::unique_ptr<llvm::MemoryBuffer> buffer, llvm::StringRef path);
  /// The member called `name`, or an error naming it.
  llvm::Expected<const Member *> lookup(llvm::StringRef name) const;
  /// An error `<path>: member '<member>': <message>`.
  llvm::Error memberError(llvm::StringRef member,
                          const llvm::Twine &message) const;

  std::string path;
  /// The archive's bytes; libzip reads them in place.
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  struct zip *archive = nullptr;
  std::vector<std::string> names;
  llvm::StringMap<Member> index;
};

} // namespace mlir::tsmlir

#endif // TSMLIR_SUPPORT_ZIPARCHIVE_H
