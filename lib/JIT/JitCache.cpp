//===- JitCache.cpp - Specialisations kept on disk between processes ------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "JitCache.h"

#include "tsmlir/Compiler/PrepareGraph.h"
#include "tsmlir/Target/Aot/AotCompiler.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::jit;

/// The first line of a record: the format and its revision.
static constexpr llvm::StringLiteral kFormat = "tsmlir-jit-cache 1";

static std::string hexDigest(ArrayRef<uint8_t> bytes) {
  return llvm::toHex(llvm::SHA256::hash(bytes), /*LowerCase=*/true);
}

static std::string entryPath(StringRef dir, StringRef key, StringRef ext) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, key + ext);
  return path.str().str();
}

std::string JitCache::moduleDigest(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().enableDebugInfo(false));
  return hexDigest(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(text.data()), text.size()));
}

std::string JitCache::key(StringRef moduleDigest, StringRef guard) const {
  llvm::SHA256 hash;
  hash.update(kFormat);
  hash.update(StringRef(options.cacheVersion));
  hash.update("\n" + options.compile.describe() + "\n");
  hash.update(guard);
  hash.update(moduleDigest);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

bool JitCache::has(StringRef key) const {
  return llvm::sys::fs::exists(entryPath(options.cacheDir, key, ".meta"));
}

llvm::Expected<CachedModel> JitCache::load(StringRef key,
                                           StringRef guard) const {
  std::string metaPath = entryPath(options.cacheDir, key, ".meta");
  std::string soPath = entryPath(options.cacheDir, key, ".so");
  auto meta = llvm::MemoryBuffer::getFile(metaPath, /*IsText=*/true);
  if (!meta)
    return llvm::createStringError("no entry");
  // `field value` lines after the format's.
  SmallVector<StringRef> lines;
  (*meta)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  llvm::StringMap<std::string> fields;
  for (StringRef line : llvm::drop_begin(lines)) {
    auto [field, value] = line.split(' ');
    fields[field] = value.str();
  }
  if (lines.empty() || lines.front() != kFormat)
    return llvm::createStringError("its record is not a cache record");
  if (fields.lookup("version") != options.cacheVersion)
    return llvm::createStringError("written by another tsmlir build");
  if (fields.lookup("guard") != guard)
    return llvm::createStringError("its record is for another guard");
  auto bytes = llvm::MemoryBuffer::getFile(soPath, /*IsText=*/false);
  if (!bytes)
    return llvm::createStringError("its shared object is missing");
  ArrayRef<uint8_t> data(
      reinterpret_cast<const uint8_t *>((*bytes)->getBufferStart()),
      (*bytes)->getBufferSize());
  if (fields.lookup("bytes") != std::to_string(data.size()) ||
      fields.lookup("sha256") != hexDigest(data))
    return llvm::createStringError(
        "its shared object does not match its record (size or SHA-256)");
  CachedModel cached;
  SmallVector<StringRef> none;
  StringRef(fields.lookup("none")).split(none, ',', -1, false);
  for (StringRef n : none) {
    unsigned position;
    if (n.getAsInteger(10, position))
      return llvm::createStringError("its record is malformed");
    cached.noneOutputs.push_back(position);
  }
  llvm::Expected<std::unique_ptr<SharedModel>> model =
      SharedModel::open(soPath);
  if (!model)
    return model.takeError();
  cached.model = std::move(*model);
  return cached;
}

LogicalResult JitCache::store(ModuleOp module, ArrayRef<RunValue> inputs,
                              StringRef key, StringRef guard,
                              std::string &error) const {
  if (std::error_code ec =
          llvm::sys::fs::create_directories(options.cacheDir)) {
    error = "cannot create '" + options.cacheDir + "': " + ec.message();
    return failure();
  }
  // Compiled ahead of time for this machine's CPU, on the calling thread
  // (the shared object links no OpenMP runtime, nor libtsmlir_kernels).
  AotOptions aot;
  aot.name = "model";
  aot.compile = options.compile;
  aot.compile.device = Device::CPU;
  aot.compile.threads = 1;
  aot.compile.libraryKernels = false;
  aot.compile.host = HostOptions();
  aot.compile.host.cpu = "native";
  aot.shared = true;
  FailureOr<PreparedGraph> graph = prepareGraph(module, inputs, aot.compile);
  if (failed(graph))
    return failure();
  if (failed(lowerForAot(module, *graph, aot)))
    return failure();
  // Written beside the entry under temporary names, then renamed into
  // place: a concurrent reader sees a whole entry or none.
  llvm::SmallString<256> object, shared, record;
  std::string base = entryPath(options.cacheDir, key, "");
  if (llvm::sys::fs::createUniqueFile(base + "-%%%%%%.o", object) ||
      llvm::sys::fs::createUniqueFile(base + "-%%%%%%.so", shared) ||
      llvm::sys::fs::createUniqueFile(base + "-%%%%%%.meta", record)) {
    error = "cannot write in '" + options.cacheDir + "'";
    return failure();
  }
  llvm::FileRemover removeObject(object), removeShared(shared),
      removeRecord(record);
  if (failed(emitObject(module, aot, AotOutput::Object, object)))
    return failure();
  std::string cc = options.cc;
  if (!llvm::sys::path::is_absolute(cc)) {
    auto found = llvm::sys::findProgramByName(cc.empty() ? "clang" : cc);
    if (!found) {
      error = "no C compiler driver '" + cc +
              "' to link the cache's shared "
              "objects";
      return failure();
    }
    cc = *found;
  }
  llvm::raw_string_ostream errors(error);
  if (failed(linkSharedObject(object, shared, options.runtimeDir, cc, aot,
                              errors)))
    return failure();
  auto bytes = llvm::MemoryBuffer::getFile(shared, /*IsText=*/false);
  if (!bytes) {
    error = "cannot read back '" + shared.str().str() + "'";
    return failure();
  }
  ArrayRef<uint8_t> data(
      reinterpret_cast<const uint8_t *>((*bytes)->getBufferStart()),
      (*bytes)->getBufferSize());
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(record, ec, llvm::sys::fs::OF_Text);
    if (ec) {
      error = "cannot write '" + record.str().str() + "'";
      return failure();
    }
    os << kFormat << "\n";
    os << "version " << options.cacheVersion << "\n";
    os << "guard " << guard << "\n";
    os << "none ";
    for (auto [i, n] : llvm::enumerate(graph->noneOutputs))
      os << (i ? "," : "") << n;
    os << "\n";
    os << "bytes " << data.size() << "\n";
    os << "sha256 " << hexDigest(data) << "\n";
  }
  if (llvm::sys::fs::rename(shared, entryPath(options.cacheDir, key, ".so")) ||
      llvm::sys::fs::rename(record,
                            entryPath(options.cacheDir, key, ".meta"))) {
    error = "cannot move the entry into '" + options.cacheDir + "'";
    return failure();
  }
  return success();
}
