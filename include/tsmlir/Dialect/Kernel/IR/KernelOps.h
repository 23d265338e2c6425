//===- KernelOps.h - Library kernel operations ------------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_KERNEL_IR_KERNELOPS_H
#define TSMLIR_DIALECT_KERNEL_IR_KERNELOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tsmlir/Dialect/Kernel/IR/KernelDialect.h"

#include "tsmlir/Dialect/Kernel/IR/KernelEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tsmlir/Dialect/Kernel/IR/KernelAttrs.h.inc"

#define GET_OP_CLASSES
#include "tsmlir/Dialect/Kernel/IR/KernelOps.h.inc"

namespace mlir {
class DialectRegistry;
namespace tsmlir::kernel {
/// Registers how `kernel` ops bufferize (destination style: the result is
/// written into the `outs` buffer).
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace tsmlir::kernel
} // namespace mlir

#endif // TSMLIR_DIALECT_KERNEL_IR_KERNELOPS_H
