//===- Archive.h - The contents of a torch.jit.save archive -----*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A `.pt` file as `torch.jit.save` writes it is a zip archive with one
// top-level directory:
//
//   <name>/version                  the file format version, e.g. "3"
//   <name>/data.pkl                 the module object (attributes, submodules)
//   <name>/data/<key>               tensor storages data.pkl refers to
//   <name>/constants.pkl            a tuple of the tensors code reads as
//                                   CONSTANTS.c<N> (frozen modules)
//   <name>/constants/<key>          their storages
//   <name>/code/__torch__/**.py     the classes and functions, as TorchScript
//                                   source; `.debug_pkl` beside each
//
// PtArchive reads these through ZipArchive and the restricted unpickler, and
// turns tensors into dense resource attributes (read straight into their
// final buffer) and code files into buffers of a SourceMgr, named
// `model.pt(name/code/__torch__.py)` so that diagnostics point into them.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_TARGET_PTARCHIVE_ARCHIVE_H
#define TSMLIR_LIB_TARGET_PTARCHIVE_ARCHIVE_H

#include "tsmlir/Support/Pickle.h"
#include "tsmlir/Support/ZipArchive.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"

#include <map>
#include <memory>
#include <string>

namespace mlir::tsmlir::pt {

class PtArchive {
public:
  /// Opens and checks `path`: a zip archive with one top-level directory, a
  /// supported `version`, and a `data.pkl` that unpickles. Errors are
  /// emitted at `path`.
  static FailureOr<std::unique_ptr<PtArchive>> open(llvm::StringRef path,
                                                    MLIRContext *context);

  llvm::StringRef getPath() const { return path; }
  /// The top-level directory, with its slash: "model/".
  llvm::StringRef getPrefix() const { return prefix; }
  int64_t getVersion() const { return version; }
  /// The location of a member, for diagnostics about it.
  Location getMemberLoc(llvm::StringRef member) const;

  /// The object data.pkl holds (the module, or a placeholder module of a
  /// saved function).
  const pickle::Value &getRoot() const { return *root; }
  /// The tensors of constants.pkl (read on first use; none when absent).
  FailureOr<llvm::ArrayRef<pickle::ValuePtr>> getConstants();

  /// `tensor`'s elements, contiguous in row-major order, read from
  /// `data/<key>` (or `constants/<key>`): a dense resource named `name`
  /// (`conv.weight`, `CONSTANTS.c0`), or for a few elements (scalars, which
  /// passes fold) a plain dense attribute. The same tensor is read once.
  FailureOr<ElementsAttr>
  getTensorData(const pickle::TensorRef &tensor, bool isConstant,
                llvm::StringRef name, Location loc);

  /// The buffer of the code file that defines the members of the Python
  /// module `__torch__.a.b` (`code/__torch__/a/b.py`), loaded into the
  /// source manager on first use; std::nullopt when the archive has none.
  FailureOr<std::optional<unsigned>> loadCode(llvm::StringRef modulePath,
                                              Location loc);

  /// The original Python source location of byte `offset` of a code buffer,
  /// from the `.debug_pkl` beside its file (`model.py`:line:col), or null
  /// when the archive has none for it. A `.debug_pkl` that does not read is
  /// ignored: it only adds locations.
  LocationAttr getOriginalLoc(unsigned bufferId, size_t offset);

  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }
  MLIRContext *getContext() const { return context; }

private:
  PtArchive(MLIRContext *context) : context(context) {}
  FailureOr<pickle::ValuePtr> readPickle(llvm::StringRef member);

  MLIRContext *context;
  std::string path;
  std::string prefix;
  int64_t version = 0;
  std::unique_ptr<ZipArchive> zip;
  pickle::ValuePtr root;
  std::optional<pickle::ValuePtr> constants;
  llvm::SourceMgr sourceMgr;
  llvm::StringMap<std::optional<unsigned>> codeBuffers;
  /// The code member of each buffer, and its debug records: (byte offset in
  /// the code, original location or null), sorted by offset.
  llvm::DenseMap<unsigned, std::string> bufferMembers;
  llvm::DenseMap<unsigned, std::vector<std::pair<size_t, LocationAttr>>>
      debugRecords;
  std::map<std::string, ElementsAttr> tensorCache;
};

} // namespace mlir::tsmlir::pt

#endif // TSMLIR_LIB_TARGET_PTARCHIVE_ARCHIVE_H
