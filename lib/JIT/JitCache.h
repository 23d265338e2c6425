//===- JitCache.h - Specialisations kept on disk between processes -*- C++ -*-//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An entry of the persistent cache is a specialisation compiled ahead of
// time into a shared object, `DIR/KEY.so`, and its record `DIR/KEY.meta`:
// the format's name, the tsmlir build that wrote it, the guard, the outputs
// that are always None, and the shared object's size and SHA-256. KEY is
// the SHA-256 of the build, the compile options, the guard and the module's
// text. An entry is used only when its record matches and the shared
// object's bytes hash to the recorded digest; anything else (missing,
// truncated, corrupt, written by another build) is reported and rebuilt.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_JIT_JITCACHE_H
#define TSMLIR_LIB_JIT_JITCACHE_H

#include "SharedModel.h"

#include "tsmlir/JIT/JitFunction.h"

namespace mlir::tsmlir::jit {

struct CachedModel {
  std::unique_ptr<SharedModel> model;
  SmallVector<unsigned> noneOutputs;
};

class JitCache {
public:
  explicit JitCache(const JitOptions &options) : options(options) {}

  /// The digest of `module`'s text, which keys take (computed once per
  /// function: a module's parameters can be large).
  static std::string moduleDigest(ModuleOp module);
  /// The entry's key for the module of `moduleDigest` specialised behind
  /// `guard`.
  std::string key(StringRef moduleDigest, StringRef guard) const;
  /// Whether the entry for `key` may be there (its record exists).
  bool has(StringRef key) const;
  /// The entry for `key`, or why it cannot be used.
  llvm::Expected<CachedModel> load(StringRef key, StringRef guard) const;
  /// Compiles `module` (a copy, rewritten) for `inputs` into the entry for
  /// `key`. Compilation errors are diagnostics; others are in `error`.
  LogicalResult store(ModuleOp module, ArrayRef<RunValue> inputs, StringRef key,
                      StringRef guard, std::string &error) const;

private:
  const JitOptions &options;
};

} // namespace mlir::tsmlir::jit

#endif // TSMLIR_LIB_JIT_JITCACHE_H
