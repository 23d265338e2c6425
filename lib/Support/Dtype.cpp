//===- Dtype.cpp - tsmlir's one table of tensor dtypes --------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Support/Dtype.h"
#include "tsmlir/Runtime/Abi.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <string>

namespace mlir::tsmlir {

static const DtypeInfo kDtypes[] = {
    // dtype, TorchScript, spec, PyTorch, .npy, safetensors, ABI, kind, size
    {Dtype::Byte, "Byte", "u8", "uint8", "|u1", "U8", TSMLIR_UINT8,
     DtypeKind::Unsigned, 1},
    {Dtype::Char, "Char", "i8", "int8", "|i1", "I8", TSMLIR_INT8,
     DtypeKind::Signed, 1},
    {Dtype::Short, "Short", "i16", "int16", "<i2", "I16", TSMLIR_INT16,
     DtypeKind::Signed, 2},
    {Dtype::Int, "Int", "i32", "int32", "<i4", "I32", TSMLIR_INT32,
     DtypeKind::Signed, 4},
    {Dtype::Long, "Long", "i64", "int64", "<i8", "I64", TSMLIR_INT64,
     DtypeKind::Signed, 8},
    {Dtype::Half, "Half", "f16", "float16", "<f2", "F16", TSMLIR_FLOAT16,
     DtypeKind::Float, 2},
    {Dtype::Float, "Float", "f32", "float32", "<f4", "F32", TSMLIR_FLOAT32,
     DtypeKind::Float, 4},
    {Dtype::Double, "Double", "f64", "float64", "<f8", "F64", TSMLIR_FLOAT64,
     DtypeKind::Float, 8},
    {Dtype::ComplexHalf, "ComplexHalf", "", "complex32", "", "", 0,
     DtypeKind::Complex, 4},
    {Dtype::ComplexFloat, "ComplexFloat", "", "complex64", "<c8", "", 0,
     DtypeKind::Complex, 8},
    {Dtype::ComplexDouble, "ComplexDouble", "", "complex128", "<c16", "", 0,
     DtypeKind::Complex, 16},
    {Dtype::Bool, "Bool", "bool", "bool", "|b1", "BOOL", TSMLIR_BOOL,
     DtypeKind::Bool, 1},
    {Dtype::BFloat16, "BFloat16", "bf16", "bfloat16", "", "BF16", 0,
     DtypeKind::Float, 2},
};

unsigned DtypeInfo::getBitWidth() const {
  if (kind == DtypeKind::Bool)
    return 1;
  return kind == DtypeKind::Complex ? 4 * byteSize : 8 * byteSize;
}

llvm::ArrayRef<DtypeInfo> getDtypeTable() { return kDtypes; }

const DtypeInfo &getDtypeInfo(Dtype dtype) {
  for (const DtypeInfo &info : kDtypes)
    if (info.dtype == dtype)
      return info;
  llvm_unreachable("a Dtype without a row");
}

template <typename Pred> static std::optional<Dtype> find(Pred pred) {
  for (const DtypeInfo &info : kDtypes)
    if (pred(info))
      return info.dtype;
  return std::nullopt;
}

std::optional<Dtype> getDtypeForScalarType(int64_t code) {
  return find([&](const DtypeInfo &i) { return int64_t(i.dtype) == code; });
}

std::optional<Dtype> getDtypeForTorchScriptName(llvm::StringRef name) {
  return find([&](const DtypeInfo &i) { return i.torchScriptName == name; });
}

std::optional<Dtype> getDtypeForSpecName(llvm::StringRef name) {
  if (name.empty())
    return std::nullopt;
  return find([&](const DtypeInfo &i) { return i.specName == name; });
}

std::optional<Dtype> getDtypeForSafetensorsName(llvm::StringRef name) {
  if (name.empty())
    return std::nullopt;
  return find([&](const DtypeInfo &i) { return i.safetensorsName == name; });
}

std::optional<Dtype> getDtypeForAbiCode(int code) {
  if (code == 0)
    return std::nullopt;
  return find([&](const DtypeInfo &i) { return i.abiCode == code; });
}

std::optional<Dtype> getDtypeForNpyDescr(llvm::StringRef descr) {
  if (descr.size() < 3 ||
      !llvm::is_contained(llvm::StringRef("<>=|"), descr.front()))
    return std::nullopt;
  return find([&](const DtypeInfo &i) {
    return !i.npyDescr.empty() && i.npyDescr.drop_front() == descr.drop_front();
  });
}

std::string getSpecNameList() {
  llvm::SmallVector<llvm::StringRef> names;
  for (const DtypeInfo &info : kDtypes)
    if (!info.specName.empty())
      names.push_back(info.specName);
  std::string text;
  for (auto [i, name] : llvm::enumerate(names))
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + name.str();
  return text;
}

} // namespace mlir::tsmlir
