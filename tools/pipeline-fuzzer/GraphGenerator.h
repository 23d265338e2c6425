//===- GraphGenerator.h - TorchScript graphs from fuzzer bytes --*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Decodes any byte string into a TorchScript graph that PyTorch would accept,
// printed as PyTorch prints it, with the input types to specialise it for.
// The bytes are read as choices (which op, which operand, which shape, which
// dimension); the decoder tracks the dtype and shape of every value, so that
// the choices only ever name valid graphs: operands broadcast, dimensions are
// in range, views keep the element count, branches and loop bodies keep
// their types. Missing bytes read as 0, so every input, the empty one
// included, decodes to a graph. An input whose second byte selects a long
// graph (hundreds to thousands of nodes) goes on, once its bytes run out,
// with pseudo-random bytes seeded with it.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_TOOLS_PIPELINE_FUZZER_GRAPHGENERATOR_H
#define TSMLIR_TOOLS_PIPELINE_FUZZER_GRAPHGENERATOR_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mlir::tsmlir::fuzz {

/// How the generated graph is compiled, also decoded from the bytes.
struct CompileChoices {
  /// Fusion strategy: "nnc", "pointwise", "nvfuser", "aggressive" or ""
  /// (no fusion groups).
  std::string strategy = "nnc";
  bool fuseGroups = true;
  bool staticBuffers = true;
  bool approximateMath = true;
  unsigned threads = 1;
};

struct GeneratedGraph {
  /// The graph, as `print(fn.graph)` prints it.
  std::string text;
  /// One value per graph input, as RunValue::parse reads them with
  /// typesOnly: `f32[2,3]`, `bool[]`, `float`, `3`, `none`.
  std::vector<std::string> inputs;
  CompileChoices choices;
  /// Number of nodes generated (constants excluded).
  unsigned numNodes = 0;
};

/// Decodes `data` into a graph. Deterministic: the same bytes give the same
/// graph.
GeneratedGraph generateGraph(const uint8_t *data, size_t size);

} // namespace mlir::tsmlir::fuzz

#endif // TSMLIR_TOOLS_PIPELINE_FUZZER_GRAPHGENERATOR_H
