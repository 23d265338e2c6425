//===- tsmlir-pt-dump.cpp - Show what a .pt archive holds -----------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   tsmlir-pt-dump model.pt                      # members and their sizes
//   tsmlir-pt-dump model.pt --verify             # read (and check) them all
//   tsmlir-pt-dump model.pt --pickle data.pkl    # unpickle <dir>/data.pkl
//   tsmlir-pt-dump model.pt --pickle data.pkl --check-storages
//   tsmlir-pt-dump --pickle-file x.pkl           # unpickle a plain file
//
// A test and diagnostic tool for the readers of the archives torch.jit.save
// writes. --pickle names a member under the archive's single top-level
// directory. --check-storages reads the storage of every tensor the pickle
// refers to (<dir>/data/<key> for data.pkl, <dir>/constants/<key> for
// constants.pkl) into a buffer of the size the pickle gives it. Errors go to
// stderr, with exit code 1.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Support/Pickle.h"
#include "tsmlir/Support/ZipArchive.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

using namespace llvm;
using namespace mlir::tsmlir;

static cl::opt<std::string> archivePath(cl::Positional,
                                        cl::desc("<archive.pt>"), cl::init(""));
static cl::opt<std::string>
    pickleMember("pickle",
                 cl::desc("Unpickle this member of the archive's top-level "
                          "directory (e.g. data.pkl) and print it"),
                 cl::value_desc("member"));
static cl::opt<std::string>
    pickleFile("pickle-file", cl::desc("Unpickle this file and print it"),
               cl::value_desc("path"));
static cl::opt<bool> verify("verify",
                            cl::desc("Read every member of the archive"));
static cl::opt<bool> checkStorages(
    "check-storages",
    cl::desc("With --pickle: read the storage of every tensor, which must "
             "have the size the pickle gives it"));
static cl::opt<uint64_t>
    maxMemberSize("max-member-size",
                  cl::desc("The largest member read (bytes)"),
                  cl::init(1ull << 30));
static cl::opt<unsigned> maxDepth("max-depth",
                                  cl::desc("Pickle: the deepest nesting"),
                                  cl::init(pickle::Limits().maxDepth));
static cl::opt<uint64_t> maxValues("max-values",
                                   cl::desc("Pickle: the most values"),
                                   cl::init(pickle::Limits().maxValues));
static cl::opt<uint64_t>
    maxBytes("max-bytes",
             cl::desc("Pickle: the most memory the values may take (bytes)"),
             cl::init(pickle::Limits().maxBytes));

static int fail(Error error) {
  errs() << "error: " << toString(std::move(error)) << "\n";
  return 1;
}

static int fail(const Twine &message) {
  errs() << "error: " << message << "\n";
  return 1;
}

static pickle::Limits getLimits() {
  pickle::Limits limits;
  limits.maxDepth = maxDepth;
  limits.maxValues = maxValues;
  limits.maxBytes = maxBytes;
  return limits;
}

/// The archive's one top-level directory.
static Expected<std::string> getTopDirectory(const ZipArchive &archive) {
  StringSet<> tops;
  for (StringRef name : archive.getMemberNames())
    tops.insert(name.split('/').first);
  if (tops.size() != 1)
    return createStringError(inconvertibleErrorCode(),
                             archive.getPath() + ": the archive has " +
                                 Twine(tops.size()) +
                                 " top-level entries, not one directory");
  return tops.begin()->getKey().str();
}

/// Reads the storage of each tensor in `root` (each once) from
/// `<storageDir>/<key>`, into a buffer of the size the tensor's storage
/// has.
static Error checkTensorStorages(const ZipArchive &archive,
                                 const pickle::Value &root,
                                 StringRef storageDir, unsigned &checked) {
  std::vector<const pickle::Value *> work = {&root};
  DenseSet<const pickle::Value *> seen;
  StringSet<> keys;
  while (!work.empty()) {
    const pickle::Value *value = work.back();
    work.pop_back();
    if (!value || !seen.insert(value).second)
      continue;
    for (const pickle::ValuePtr &element : value->elements)
      work.push_back(element.get());
    for (const auto &[key, item] : value->items) {
      work.push_back(key.get());
      work.push_back(item.get());
    }
    for (const auto &attribute : value->object.attributes)
      work.push_back(attribute.second.get());
    work.push_back(value->object.state.get());
    if (value->kind != pickle::Value::Kind::Tensor)
      continue;
    const pickle::TensorRef &tensor = value->tensor;
    if (!keys.insert(tensor.storageKey).second)
      continue;
    std::string member = (storageDir + "/" + tensor.storageKey).str();
    uint64_t bytes =
        uint64_t(tensor.storageNumel) * getDtypeInfo(tensor.dtype).byteSize;
    if (bytes > maxMemberSize)
      return createStringError(inconvertibleErrorCode(),
                               archive.getPath() + ": member '" + member +
                                   "': storage '" + tensor.storageKey +
                                   "' of " + Twine(bytes) +
                                   " bytes is larger than --max-member-size");
    std::vector<char> buffer(bytes);
    if (Error error = archive.readMemberInto(member, buffer))
      return error;
    ++checked;
  }
  return Error::success();
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv,
                              "Show the members and pickles of a .pt archive "
                              "(torch.jit.save)\n");

  if (!pickleFile.empty()) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
        MemoryBuffer::getFile(pickleFile, /*IsText=*/false,
                              /*RequiresNullTerminator=*/false);
    if (!buffer)
      return fail(pickleFile + ": cannot open: " + buffer.getError().message());
    Expected<pickle::ValuePtr> value =
        pickle::unpickle((*buffer)->getBuffer(), pickleFile, getLimits());
    if (!value)
      return fail(value.takeError());
    pickle::print(**value, outs());
    return 0;
  }

  if (archivePath.empty())
    return fail("no archive given (see --help)");
  Expected<std::unique_ptr<ZipArchive>> archive = ZipArchive::open(archivePath);
  if (!archive)
    return fail(archive.takeError());

  if (!pickleMember.empty()) {
    Expected<std::string> top = getTopDirectory(**archive);
    if (!top)
      return fail(top.takeError());
    std::string member = *top + "/" + pickleMember;
    Expected<std::unique_ptr<MemoryBuffer>> bytes =
        (*archive)->readMember(member, maxMemberSize);
    if (!bytes)
      return fail(bytes.takeError());
    std::string name =
        (*archive)->getPath().str() + ": member '" + member + "'";
    Expected<pickle::ValuePtr> value =
        pickle::unpickle((*bytes)->getBuffer(), name, getLimits());
    if (!value)
      return fail(value.takeError());
    pickle::print(**value, outs());
    if (checkStorages) {
      // data.pkl's storages are in data/, constants.pkl's in constants/.
      StringRef stem = StringRef(pickleMember).rsplit('.').first;
      unsigned checked = 0;
      if (Error error = checkTensorStorages(**archive, **value,
                                            *top + "/" + stem.str(), checked))
        return fail(std::move(error));
      outs() << "storages: " << checked << " read\n";
    }
    return 0;
  }

  for (const std::string &member : (*archive)->getMemberNames()) {
    Expected<uint64_t> size = (*archive)->getMemberSize(member);
    if (!size)
      return fail(size.takeError());
    if (verify) {
      Expected<std::unique_ptr<MemoryBuffer>> bytes =
          (*archive)->readMember(member, maxMemberSize);
      if (!bytes)
        return fail(bytes.takeError());
    }
    outs() << member << " " << *size
           << ((*archive)->isMemberStored(member) ? "" : " compressed") << "\n";
  }
  if (verify)
    outs() << "verified " << (*archive)->getMemberNames().size()
           << " members\n";
  return 0;
}
