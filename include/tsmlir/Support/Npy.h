//===- Npy.h - Read the header of NumPy .npy files --------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A reader for the header of the .npy format (NumPy's NEP 1): the magic
// "\x93NUMPY", a version (1.0, 2.0 or 3.0), the little-endian length of the
// header (2 bytes in version 1, 4 bytes after), and the header itself, a
// Python dict literal with exactly the keys 'descr' (the dtype, e.g. '<f4'),
// 'fortran_order' and 'shape', padded so that the data that follows starts
// on a 16- or 64-byte boundary. The data are not read: the header says where
// they start and how many bytes they take.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_SUPPORT_NPY_H
#define TSMLIR_SUPPORT_NPY_H

#include "tsmlir/Support/Dtype.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::tsmlir {

struct NpyHeader {
  enum class ByteOrder { Little, Big, NotApplicable };

  unsigned majorVersion = 0, minorVersion = 0;
  /// The 'descr' as written: '<f4', '|b1', ...
  std::string descr;
  /// The kind of element, as NumPy's dtype.kind: 'b' bool, 'i' signed int,
  /// 'u' unsigned int, 'f' float, 'c' complex.
  char kind = 0;
  /// Bytes per element.
  unsigned itemSize = 0;
  ByteOrder byteOrder = ByteOrder::NotApplicable;
  bool fortranOrder = false;
  llvm::SmallVector<int64_t> shape;
  /// Where the data start, from the beginning of the file.
  uint64_t dataOffset = 0;
  /// How many bytes of data the shape and dtype imply.
  uint64_t dataSize = 0;
};

/// Parses the header at the start of `bytes` (which may end after the
/// header). Errors name what is wrong: the magic, the version, the header
/// length, the dict's syntax, a missing or unknown key, a dtype that is not
/// a bool, int, float or complex, a negative size, an element count that
/// overflows.
llvm::Expected<NpyHeader> parseNpyHeader(llvm::StringRef bytes);

/// Reads the header of the .npy file at `path`. The data need not be
/// present: tools that only need the dtype and shape accept a file cut after
/// its header.
llvm::Expected<NpyHeader> readNpyHeader(llvm::StringRef path);

/// A whole .npy array, its data in C order and little-endian byte order
/// (Fortran-order and big-endian files are converted when read).
struct NpyArray {
  /// The header as read; `fortranOrder` is false and `byteOrder` native
  /// once the data are converted.
  NpyHeader header;
  std::vector<uint8_t> data;

  int64_t numElements() const;
  const llvm::SmallVector<int64_t> &shape() const { return header.shape; }
};

/// Reads a .npy file: every dtype NumPy writes for PyTorch's dtypes (f2,
/// f4, f8, i1, i2, i4, i8, u1, b1), either byte order, C or Fortran order.
llvm::Expected<NpyArray> readNpy(llvm::StringRef path);

/// The same, for the bytes of a .npy file already in memory. Errors are not
/// prefixed with a file name.
llvm::Expected<NpyArray> parseNpy(llvm::StringRef bytes);

/// The header of a C-order, native-order array of `dtype` (one with a .npy
/// descr) and sizes `shape`.
llvm::Expected<NpyHeader> makeNpyHeader(Dtype dtype,
                                        llvm::ArrayRef<int64_t> shape);

/// Writes a C-order, little-endian .npy file (version 1.0) with dtype
/// `descr` ('<f4', '|b1', ...), shape `shape` and `data`.
llvm::Error writeNpy(llvm::StringRef path, llvm::StringRef descr,
                     llvm::ArrayRef<int64_t> shape, const void *data,
                     size_t bytes);

} // namespace mlir::tsmlir

#endif // TSMLIR_SUPPORT_NPY_H
