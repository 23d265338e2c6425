//===- Outputs.h - Write a graph's outputs as .npy files --------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_TOOLS_TSMLIR_RUN_OUTPUTS_H
#define TSMLIR_TOOLS_TSMLIR_RUN_OUTPUTS_H

#include "tsmlir/ExecutionEngine/CpuRunner.h"

#include "llvm/Support/Error.h"

namespace mlir::tsmlir {

/// Writes outN.npy for each output into `dir` (created if need be), N the
/// graph's flattened output number: the outputs in `none`, always None,
/// are skipped. Returns the summary of what it wrote ("f4[2, 3], b1[2]";
/// the None outputs named), or an error.
llvm::Expected<std::string> writeOutputs(StringRef dir,
                                         ArrayRef<HostTensor> outputs,
                                         ArrayRef<unsigned> none);

/// Writes grad_inI.npy into `dir` for each gradient, I its input's number
/// among the .npy inputs (`inputNumbers`, one per gradient).
llvm::Error writeGradients(StringRef dir, ArrayRef<HostTensor> gradients,
                           ArrayRef<unsigned> inputNumbers);

/// Writes `dir`/grad_params.safetensors: each module tensor's gradient
/// under its dotted name (`names`, one per gradient).
llvm::Error writeParameterGradients(StringRef dir,
                                    ArrayRef<HostTensor> gradients,
                                    ArrayRef<std::string> names);

} // namespace mlir::tsmlir

#endif // TSMLIR_TOOLS_TSMLIR_RUN_OUTPUTS_H
