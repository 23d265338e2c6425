//===- Dtype.h - tsmlir's one table of tensor dtypes ------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The tensor element types tsmlir knows, numbered as PyTorch's
// c10::ScalarType numbers them, and one table of every name each has at
// tsmlir's interfaces: TorchScript's tensor types and pickle's storage
// classes (`Float`), tsmlir's tensor type syntax (`f32[2,3]` on the command
// line and in ts-specialize), PyTorch's dtype (`torch.float32`, the C ABI's
// tsmlir_dtype_name), the .npy descr (`<f4`), the safetensors dtype (`F32`),
// the C ABI's tsmlir_dtype code (tsmlir/Runtime/Abi.h) and the element's
// size. Every reader, writer and table of dtypes in tsmlir asks this one;
// the ts dialect maps a Dtype to its MLIR element type
// (tsmlir/Dialect/TorchScript/IR/Dtypes.h).
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_SUPPORT_DTYPE_H
#define TSMLIR_SUPPORT_DTYPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir::tsmlir {

/// A tensor element type, its value c10::ScalarType's.
enum class Dtype : int8_t {
  Byte = 0, // uint8
  Char = 1, // int8
  Short = 2,
  Int = 3,
  Long = 4,
  Half = 5,
  Float = 6,
  Double = 7,
  ComplexHalf = 8,
  ComplexFloat = 9,
  ComplexDouble = 10,
  Bool = 11,
  BFloat16 = 15,
};

/// The kind of a dtype's elements, as NumPy's dtype.kind spells it.
enum class DtypeKind : char {
  Bool = 'b',
  Signed = 'i',
  Unsigned = 'u',
  Float = 'f',
  Complex = 'c',
};

/// One dtype's row of the table. An empty name means the interface has no
/// such dtype.
struct DtypeInfo {
  Dtype dtype;
  /// TorchScript's tensor types and pickle's storage classes: `Float`.
  llvm::StringLiteral torchScriptName;
  /// tsmlir's tensor type syntax: `f32` in `f32[2,3]`.
  llvm::StringLiteral specName;
  /// PyTorch's dtype without `torch.`: `float32`.
  llvm::StringLiteral pytorchName;
  /// The little-endian .npy descr: `<f4`, `|b1`.
  llvm::StringLiteral npyDescr;
  /// The safetensors dtype: `F32`.
  llvm::StringLiteral safetensorsName;
  /// The C ABI's tsmlir_dtype code; 0 where the ABI has none.
  int abiCode;
  DtypeKind kind;
  /// Bytes per element.
  unsigned byteSize;

  /// Bits per element value: 1 for bool, else 8 * byteSize (per part for
  /// complex dtypes: 32 for ComplexFloat).
  unsigned getBitWidth() const;
};

/// Every row, in c10::ScalarType order.
llvm::ArrayRef<DtypeInfo> getDtypeTable();
/// The row of `dtype`.
const DtypeInfo &getDtypeInfo(Dtype dtype);

/// Look-ups by each name; nullopt where no dtype has it.
std::optional<Dtype> getDtypeForScalarType(int64_t code);
std::optional<Dtype> getDtypeForTorchScriptName(llvm::StringRef name);
std::optional<Dtype> getDtypeForSpecName(llvm::StringRef name);
std::optional<Dtype> getDtypeForSafetensorsName(llvm::StringRef name);
std::optional<Dtype> getDtypeForAbiCode(int code);
/// A .npy descr in any byte order (`<f4`, `>f4`, `=f4`, `|b1`): the reader
/// (readNpy) swaps big-endian data.
std::optional<Dtype> getDtypeForNpyDescr(llvm::StringRef descr);

/// The spec names of every dtype that has one, for messages: "f32, f64,
/// ..., u8 or bool".
std::string getSpecNameList();

} // namespace mlir::tsmlir

#endif // TSMLIR_SUPPORT_DTYPE_H
