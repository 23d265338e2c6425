//===- Archive.cpp - The contents of a torch.jit.save archive -------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Archive.h"
#include "tsmlir/Dialect/TorchScript/IR/Dtypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::pt;

/// The file format versions this reader understands: those PyTorch 1.6 to
/// 2.x write for TorchScript archives (caffe2/serialize/versions.h).
static constexpr int64_t kMinVersion = 1;
static constexpr int64_t kMaxVersion = 10;

/// The most bytes a pickle member may have.
static constexpr uint64_t kMaxPickleBytes = 1ull << 30;
/// The most bytes a code file may have.
static constexpr uint64_t kMaxCodeBytes = 64ull << 20;

/// The message of a reader's error, without the archive's path that starts
/// it (the diagnostic's location names the archive already).
static std::string describe(llvm::Error error, llvm::StringRef path) {
  std::string message = llvm::toString(std::move(error));
  llvm::StringRef text(message);
  if (text.consume_front(path) && text.consume_front(": "))
    return text.str();
  return message;
}

Location PtArchive::getMemberLoc(llvm::StringRef member) const {
  return FileLineColLoc::get(context, path + "(" + member.str() + ")", 0, 0);
}

FailureOr<std::unique_ptr<PtArchive>> PtArchive::open(llvm::StringRef path,
                                                      MLIRContext *context) {
  Location fileLoc = FileLineColLoc::get(context, path, 0, 0);
  auto zip = ZipArchive::open(path);
  if (!zip)
    return emitError(fileLoc, describe(zip.takeError(), path)), failure();
  std::unique_ptr<PtArchive> archive(new PtArchive(context));
  archive->path = path.str();
  archive->zip = std::move(*zip);

  // One top-level directory holds everything; data.pkl names the archive.
  std::string dataMember;
  for (const std::string &name : archive->zip->getMemberNames()) {
    llvm::StringRef member(name);
    size_t slash = member.find('/');
    if (slash == llvm::StringRef::npos)
      continue;
    if (member.drop_front(slash + 1) == "data.pkl") {
      dataMember = name;
      archive->prefix = member.take_front(slash + 1).str();
      break;
    }
  }
  if (dataMember.empty()) {
    bool model = llvm::any_of(archive->zip->getMemberNames(), [](auto &n) {
      return llvm::StringRef(n).ends_with("model.json");
    });
    return emitError(fileLoc)
               << "not a TorchScript archive: it has no '<name>/data.pkl'"
               << (model ? " (a model.json archive of PyTorch before 1.4 is "
                           "not supported)"
                         : ""),
           failure();
  }

  // The format version.
  std::string versionMember = archive->prefix + "version";
  if (!archive->zip->contains(versionMember))
    versionMember = archive->prefix + ".data/version";
  auto versionText = archive->zip->readMember(versionMember, 64);
  if (!versionText)
    return emitError(fileLoc, describe(versionText.takeError(), path)),
           failure();
  llvm::StringRef text = (*versionText)->getBuffer().trim();
  if (text.getAsInteger(10, archive->version))
    return emitError(archive->getMemberLoc(versionMember))
               << "the file format version is not a number: '" << text << "'",
           failure();
  if (archive->version < kMinVersion || archive->version > kMaxVersion)
    return emitError(archive->getMemberLoc(versionMember))
               << "unsupported file format version " << archive->version
               << " (versions " << kMinVersion << " to " << kMaxVersion
               << " are read)",
           failure();

  FailureOr<pickle::ValuePtr> root = archive->readPickle(dataMember);
  if (failed(root))
    return failure();
  archive->root = *root;
  return archive;
}

FailureOr<pickle::ValuePtr> PtArchive::readPickle(llvm::StringRef member) {
  auto bytes = zip->readMember(member, kMaxPickleBytes);
  if (!bytes)
    return emitError(getMemberLoc(member), describe(bytes.takeError(), path)),
           failure();
  auto value = pickle::unpickle((*bytes)->getBuffer(),
                                path + ": member '" + member.str() + "'");
  if (!value)
    return emitError(getMemberLoc(member), describe(value.takeError(), path)),
           failure();
  return *value;
}

FailureOr<llvm::ArrayRef<pickle::ValuePtr>> PtArchive::getConstants() {
  if (!constants) {
    std::string member = prefix + "constants.pkl";
    if (!zip->contains(member)) {
      constants = pickle::ValuePtr();
    } else {
      FailureOr<pickle::ValuePtr> value = readPickle(member);
      if (failed(value))
        return failure();
      if ((*value)->kind != pickle::Value::Kind::Tuple)
        return emitError(getMemberLoc(member))
                   << "constants.pkl does not hold a tuple",
               failure();
      constants = *value;
    }
  }
  if (!*constants)
    return llvm::ArrayRef<pickle::ValuePtr>();
  return llvm::ArrayRef<pickle::ValuePtr>((*constants)->elements);
}

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

/// The element type of a storage's dtype; null for the complex dtypes,
/// whose values tsmlir does not hold as attributes.
static Type getElementType(MLIRContext *context, Dtype dtype) {
  if (getDtypeInfo(dtype).kind == DtypeKind::Complex)
    return {};
  return ts::getDtypeType(context, dtype);
}

/// The archive's constants of at most this many elements become plain
/// dense attributes, and so do a module's small integer and bool
/// attributes (counters, flags). Its floating-point attributes are always
/// resources named after them (`fc.bias`), as a safetensors file's are:
/// autodiff finds a module's parameters by those names.
static constexpr int64_t kMaxInlineElements = 16;

FailureOr<ElementsAttr>
PtArchive::getTensorData(const pickle::TensorRef &tensor, bool isConstant,
                         llvm::StringRef name, Location loc) {
  std::string member =
      prefix + (isConstant ? "constants/" : "data/") + tensor.storageKey;
  // One resource per view of a storage.
  std::string key = member + "@" + std::to_string(tensor.storageOffset);
  for (int64_t s : tensor.sizes)
    key += "," + std::to_string(s);
  key += "/";
  for (int64_t s : tensor.strides)
    key += "," + std::to_string(s);
  auto cached = tensorCache.find(key);
  if (cached != tensorCache.end())
    return cached->second;

  Type element = getElementType(context, tensor.dtype);
  if (!element)
    return emitError(loc) << "tensor '" << name << "' has dtype "
                          << getDtypeInfo(tensor.dtype).torchScriptName
                          << ", which tsmlir does not support",
           failure();
  if (!zip->contains(member))
    return emitError(loc) << "tensor '" << name << "' refers to the storage '"
                          << member << "', which the archive lacks",
           failure();
  uint64_t elementSize = getDtypeInfo(tensor.dtype).byteSize;
  auto memberSize = zip->getMemberSize(member);
  if (!memberSize)
    return emitError(loc, describe(memberSize.takeError(), path)), failure();
  // PyTorch writes exactly the storage's elements: a member of any other
  // size is refused before anything is read (a zip entry declaring
  // gigabytes allocates nothing).
  if (tensor.storageNumel < 0 ||
      *memberSize / elementSize != static_cast<uint64_t>(tensor.storageNumel) ||
      *memberSize % elementSize != 0)
    return emitError(getMemberLoc(member))
               << "storage of tensor '" << name << "' holds " << *memberSize
               << " bytes, not its " << tensor.storageNumel << " elements of "
               << elementSize << " bytes",
           failure();

  int64_t numel = 1;
  bool contiguous = true;
  int64_t expectedStride = 1;
  for (int64_t d = static_cast<int64_t>(tensor.sizes.size()) - 1; d >= 0; --d) {
    if (tensor.sizes[d] != 1 && tensor.strides[d] != expectedStride)
      contiguous = false;
    expectedStride *= tensor.sizes[d];
    numel *= tensor.sizes[d];
  }
  auto shaped = RankedTensorType::get(tensor.sizes, element);
  AsmResourceBlob blob = HeapAsmResourceBlob::allocate(
      numel * elementSize, std::max<size_t>(elementSize, alignof(uint64_t)));
  llvm::MutableArrayRef<char> out = blob.getMutableData();
  if (contiguous && tensor.storageOffset == 0 &&
      static_cast<uint64_t>(numel) * elementSize == *memberSize) {
    // The whole storage is the tensor: read it straight into the blob.
    if (llvm::Error error = zip->readMemberInto(member, out))
      return emitError(loc, describe(std::move(error), path)), failure();
  } else if (numel > 0) {
    // A view of a storage: read the storage, copy the view's elements.
    auto storage = zip->readMember(member, *memberSize);
    if (!storage)
      return emitError(loc, describe(storage.takeError(), path)), failure();
    const char *base = (*storage)->getBufferStart();
    size_t rank = tensor.sizes.size();
    llvm::SmallVector<int64_t> index(rank, 0);
    for (int64_t i = 0; i < numel; ++i) {
      int64_t offset = tensor.storageOffset;
      for (size_t d = 0; d < rank; ++d)
        offset += index[d] * tensor.strides[d];
      // The unpickler checked the view's extent against the storage.
      std::memcpy(out.data() + i * elementSize, base + offset * elementSize,
                  elementSize);
      for (size_t d = rank; d-- > 0;) {
        if (++index[d] < tensor.sizes[d])
          break;
        index[d] = 0;
      }
    }
  }
  ElementsAttr attr;
  bool isFloat = getDtypeInfo(tensor.dtype).kind == DtypeKind::Float;
  if (numel <= kMaxInlineElements && (isConstant || !isFloat)) {
    if (element.isInteger(1)) {
      // i1 dense attributes are bit-packed; the storage has a byte each.
      llvm::SmallVector<bool> bits;
      for (char byte : out)
        bits.push_back(byte != 0);
      attr = DenseElementsAttr::get(shaped, bits);
    } else {
      attr = DenseElementsAttr::getFromRawBuffer(
          shaped, llvm::ArrayRef<char>(out.data(), out.size()));
    }
  } else {
    attr = DenseResourceElementsAttr::get(shaped, name, std::move(blob));
  }
  tensorCache.emplace(key, attr);
  return attr;
}

//===----------------------------------------------------------------------===//
// Code
//===----------------------------------------------------------------------===//

FailureOr<std::optional<unsigned>>
PtArchive::loadCode(llvm::StringRef modulePath, Location loc) {
  auto it = codeBuffers.find(modulePath);
  if (it != codeBuffers.end())
    return it->second;
  std::string relative = modulePath.str();
  std::replace(relative.begin(), relative.end(), '.', '/');
  std::string member = prefix + "code/" + relative + ".py";
  std::optional<unsigned> buffer;
  if (zip->contains(member)) {
    auto bytes = zip->readMember(member, kMaxCodeBytes);
    if (!bytes)
      return emitError(loc, describe(bytes.takeError(), path)), failure();
    std::unique_ptr<llvm::MemoryBuffer> named =
        llvm::MemoryBuffer::getMemBufferCopy((*bytes)->getBuffer(),
                                             path + "(" + member + ")");
    buffer = sourceMgr.AddNewSourceBuffer(std::move(named), llvm::SMLoc());
    bufferMembers[*buffer] = member;
  }
  codeBuffers[modulePath] = buffer;
  return buffer;
}

//===----------------------------------------------------------------------===//
// Debug information
//===----------------------------------------------------------------------===//

/// The records of a `.debug_pkl`: ((byte offset, source range, tag), ...)
/// where a source range is (source, start, end) and a source is (text,
/// filename, starting line); in the string-table format (PyTorch 1.11 on)
/// the whole is ("FORMAT_WITH_STRING_TABLE", strings, records) and a source
/// is (indices of the text's pieces, index of the filename, starting line).
static std::vector<std::pair<size_t, LocationAttr>>
readDebugRecords(MLIRContext *context, const pickle::Value &root) {
  using Kind = pickle::Value::Kind;
  std::vector<std::pair<size_t, LocationAttr>> records;
  const pickle::Value *table = nullptr;
  const pickle::Value *list = &root;
  if (root.kind == Kind::Tuple && root.elements.size() == 3 &&
      root.elements[0]->kind == Kind::String &&
      root.elements[0]->s == "FORMAT_WITH_STRING_TABLE") {
    table = root.elements[1].get();
    list = root.elements[2].get();
    if (table->kind != Kind::Tuple && table->kind != Kind::List)
      return {};
  }
  if (list->kind != Kind::Tuple && list->kind != Kind::List)
    return {};
  auto stringAt = [&](const pickle::Value &index) -> const std::string * {
    if (index.kind != Kind::Int || index.i < 0 ||
        index.i >= static_cast<int64_t>(table->elements.size()) ||
        table->elements[index.i]->kind != Kind::String)
      return nullptr;
    return &table->elements[index.i]->s;
  };
  std::map<const pickle::Value *, std::pair<std::string, std::string>> texts;
  for (const pickle::ValuePtr &record : list->elements) {
    if (record->kind != Kind::Tuple || record->elements.size() < 2 ||
        record->elements[0]->kind != Kind::Int)
      return {};
    size_t offset = record->elements[0]->i;
    const pickle::Value &range = *record->elements[1];
    LocationAttr loc;
    if (range.kind == Kind::Tuple && range.elements.size() == 3 &&
        range.elements[0]->kind == Kind::Tuple &&
        range.elements[0]->elements.size() == 3 &&
        range.elements[1]->kind == Kind::Int) {
      const pickle::Value &source = *range.elements[0];
      int64_t start = range.elements[1]->i;
      int64_t line = source.elements[2]->kind == Kind::Int
                         ? source.elements[2]->i
                         : 0;
      // The source's text and file name.
      auto &[text, file] = texts[&source];
      if (text.empty() && file.empty()) {
        if (table) {
          if (source.elements[0]->kind == Kind::List ||
              source.elements[0]->kind == Kind::Tuple)
            for (const pickle::ValuePtr &index : source.elements[0]->elements)
              if (const std::string *piece = stringAt(*index))
                text += *piece;
          if (const std::string *name = stringAt(*source.elements[1]))
            file = *name;
        } else {
          if (source.elements[0]->kind == Kind::String)
            text = source.elements[0]->s;
          if (source.elements[1]->kind == Kind::String)
            file = source.elements[1]->s;
        }
      }
      if (!file.empty() && start >= 0 &&
          start <= static_cast<int64_t>(text.size())) {
        llvm::StringRef before = llvm::StringRef(text).take_front(start);
        size_t lineStart = before.rfind('\n');
        unsigned column = lineStart == llvm::StringRef::npos
                              ? before.size() + 1
                              : before.size() - lineStart;
        loc = FileLineColLoc::get(context, file,
                                  line + before.count('\n'), column);
      }
    }
    records.emplace_back(offset, loc);
  }
  llvm::stable_sort(records, [](const auto &a, const auto &b) {
    return a.first < b.first;
  });
  return records;
}

LocationAttr PtArchive::getOriginalLoc(unsigned bufferId, size_t offset) {
  auto it = debugRecords.find(bufferId);
  if (it == debugRecords.end()) {
    std::vector<std::pair<size_t, LocationAttr>> records;
    auto member = bufferMembers.find(bufferId);
    if (member != bufferMembers.end()) {
      std::string debugMember = member->second + ".debug_pkl";
      if (zip->contains(debugMember)) {
        auto bytes = zip->readMember(debugMember, kMaxCodeBytes);
        if (bytes) {
          auto value = pickle::unpickle((*bytes)->getBuffer(), debugMember);
          if (value)
            records = readDebugRecords(context, **value);
          else
            llvm::consumeError(value.takeError());
        } else {
          llvm::consumeError(bytes.takeError());
        }
      }
    }
    it = debugRecords.try_emplace(bufferId, std::move(records)).first;
  }
  const auto &records = it->second;
  auto next = llvm::upper_bound(records, offset, [](size_t o, const auto &r) {
    return o < r.first;
  });
  if (next == records.begin())
    return {};
  return std::prev(next)->second;
}
