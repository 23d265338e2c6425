//===- Safetensors.h - Read and write safetensors files ---------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A reader and a writer for the safetensors format: an 8-byte little-endian
// header length,
// a JSON header mapping names to dtype, shape and byte offsets, then the raw
// little-endian, C-contiguous data.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_SUPPORT_SAFETENSORS_H
#define TSMLIR_SUPPORT_SAFETENSORS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::tsmlir {

struct SafetensorsTensor {
  std::string name;
  /// The safetensors dtype: "F32", "F16", "BF16", "F64", "I64", "I32",
  /// "I16", "I8", "U8", "BOOL".
  std::string dtype;
  llvm::SmallVector<int64_t> shape;
  /// The raw bytes, inside the file's buffer.
  llvm::ArrayRef<char> data;
};

class SafetensorsFile {
public:
  /// Reads and validates `path`: the header must be valid JSON, every dtype
  /// known, and every tensor's byte range inside the file and of the size its
  /// dtype and shape imply.
  static llvm::Expected<std::unique_ptr<SafetensorsFile>>
  open(llvm::StringRef path);
  /// The same, for a buffer already in memory.
  static llvm::Expected<std::unique_ptr<SafetensorsFile>>
  parse(std::unique_ptr<llvm::MemoryBuffer> buffer);

  /// The tensors, in file (data offset) order.
  llvm::ArrayRef<SafetensorsTensor> tensors() const { return tensorList; }
  /// The tensor called `name`, or null.
  const SafetensorsTensor *lookup(llvm::StringRef name) const;
  llvm::StringRef getPath() const { return path; }

  /// Bytes per element of a safetensors dtype, or 0 if it is not known.
  static unsigned getElementSize(llvm::StringRef dtype);

private:
  std::string path;
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  std::vector<SafetensorsTensor> tensorList;
  llvm::StringMap<size_t> index;
};

/// Writes `tensors` (each `data` of the size its dtype and shape imply) to
/// `path` in the order given, the header padded with spaces to 8 bytes.
llvm::Error writeSafetensors(llvm::StringRef path,
                             llvm::ArrayRef<SafetensorsTensor> tensors);

} // namespace mlir::tsmlir

#endif // TSMLIR_SUPPORT_SAFETENSORS_H
