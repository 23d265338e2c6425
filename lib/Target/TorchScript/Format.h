//===- Format.h - TorchScript's text for types and values -------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The spellings PyTorch's printer uses: types as `operator<<(ostream, Type)`
// writes them (`Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)`),
// doubles and strings as IValue's printer writes them, and tensor values as
// `Node::printAttrValue` writes them (`{1.5}`, at::print's text, `<Tensor>`).
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_TARGET_TORCHSCRIPT_FORMAT_H
#define TSMLIR_LIB_TARGET_TORCHSCRIPT_FORMAT_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/Types.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::tsmlir::torchscript {

/// A TorchScript type as a graph prints it; false for a non-`ts` type.
bool printType(llvm::raw_ostream &os, Type type);
/// The Python annotation of a type, as in `annotate(List[int], [])`.
void printPythonType(llvm::raw_ostream &os, Type type);
/// A double as IValue prints it: `2.`, `0.5`, `1.0000000000000001e-05`.
void printDouble(llvm::raw_ostream &os, double value);
/// A string in double quotes with PyTorch's escapes.
void printQuotedString(llvm::raw_ostream &os, llvm::StringRef value);
/// A tensor value: `{v}` for one element, at::print's text for up to ten,
/// `<Tensor>` otherwise or when the data is not present.
void printTensorValue(llvm::raw_ostream &os, ElementsAttr value);

} // namespace mlir::tsmlir::torchscript

#endif // TSMLIR_LIB_TARGET_TORCHSCRIPT_FORMAT_H
