//===- CHeader.cpp - The C/C++ header of an ahead-of-time compiled graph --===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The header holds the ABI's types (the text of tsmlir/Runtime/Abi.h, under
// its own include guard, so that headers of several models and Abi.h itself
// can be included together) and the model's declarations, with what each
// input and output must be in comments and as macros.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Target/Aot/AotCompiler.h"

#include "tsmlir/Runtime/Abi.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::tsmlir;

static const char *const abiHeaderText =
#include "AbiHeader.inc"
    ;

static std::string describe(const GraphValue &value) {
  // PyTorch's name of the dtype, as tsmlir_dtype_name returns it.
  std::string text = value.getDtypeInfo().pytorchName.str();
  text += "[";
  for (auto [i, size] : llvm::enumerate(value.shape))
    text += (i ? ", " : "") + std::to_string(size);
  return text + "]";
}

/// The macro prefix: NAME_ENTRY in capitals.
static std::string macroName(StringRef name) {
  std::string macro;
  for (char c : name)
    macro.push_back(llvm::isAlnum(c) ? llvm::toUpper(c) : '_');
  return macro;
}

static void emitValues(StringRef what, ArrayRef<GraphValue> values,
                       llvm::raw_ostream &os,
                       ArrayRef<std::string> gradientOf = {}) {
  // `gradientOf` says what each of the last values is the gradient of.
  os << " *   " << what << ":";
  if (values.empty())
    os << " none";
  os << "\n";
  for (auto [i, value] : llvm::enumerate(values)) {
    os << " *     [" << i << "] ";
    if (!value.name.empty())
      os << getAbiName(value.name) << ": ";
    os << describe(value);
    if (value.isNumber)
      os << "  (a TorchScript "
         << (value.dtype == Dtype::Double ? "float"
             : value.dtype == Dtype::Bool ? "bool"
                                          : "int")
         << ", as a 0-d tensor)";
    // The last outputs of a graph compiled with its gradients.
    size_t firstGradient = values.size() - gradientOf.size();
    if (i >= firstGradient)
      os << "  (gradient of " << gradientOf[i - firstGradient] << ")";
    os << "\n";
  }
}

void mlir::tsmlir::emitCHeader(const PreparedGraph &graph,
                               const AotOptions &options, StringRef source,
                               llvm::raw_ostream &os) {
  std::string exported = options.name + "_" + graph.entry;
  std::string macro = macroName(exported);
  bool cuda = options.isCUDA();
  os << "/* " << exported << ": the graph '" << graph.entry << "' of "
     << llvm::sys::path::filename(source)
     << ",\n * compiled by tsmlir-compile for "
     << (cuda ? "CUDA " + options.compile.gpu.chip : std::string("the CPU"))
     << ". Generated: do not edit.\n *\n"
     << " *   tsmlir_status " << exported
     << "(const tsmlir_tensor *inputs, int64_t num_inputs,\n"
     << " *                 const tsmlir_tensor *outputs, int64_t "
        "num_outputs);\n *\n";
  emitValues("inputs", graph.inputs, os);
  SmallVector<std::string> gradientOf;
  for (unsigned i : graph.gradInputs)
    gradientOf.push_back("input " + getAbiName(graph.inputs[i].name));
  for (const std::string &name : graph.gradParams)
    gradientOf.push_back("parameter " + name);
  emitValues("outputs", graph.outputs, os, gradientOf);
  if (!graph.bound.empty()) {
    os << " *   fixed when compiled (not inputs):";
    for (const BoundArgument &arg : graph.bound)
      os << " " << (arg.name.empty() ? "#" + std::to_string(arg.position)
                                     : getAbiName(arg.name))
         << " = " << arg.value;
    os << "\n";
  }
  os << " *\n"
     << " * The caller allocates the outputs. " << exported
     << " returns TSMLIR_OK, or an\n"
     << " * error code (tsmlir_status below) after which "
        "tsmlir_last_error() says\n"
     << " * what was wrong; a call that fails its checks reads and writes "
        "nothing.\n"
     << (cuda ? " * Tensors' data are CUDA device pointers; numbers stay in "
                "host memory.\n"
              : "")
     << " * Link the object with libtsmlir_runtime.a"
     << (cuda ? " and libtsmlir_cuda_runtime.so" : "") << ".\n */\n\n";

  std::string guard = macro + "_H";
  os << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << abiHeaderText << "\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << "#define " << macro << "_NUM_INPUTS " << graph.inputs.size() << "\n"
     << "#define " << macro << "_NUM_OUTPUTS " << graph.outputs.size()
     << "\n";
  auto emitShapes = [&](StringRef side, ArrayRef<GraphValue> values) {
    for (auto [i, value] : llvm::enumerate(values)) {
      std::string prefix = macro + "_" + side.str() + std::to_string(i);
      std::string dtype = value.getDtypeInfo().pytorchName.upper();
      os << "#define " << prefix << "_DTYPE TSMLIR_" << dtype << "\n"
         << "#define " << prefix << "_RANK " << value.shape.size() << "\n";
      if (!value.shape.empty())
        os << "#define " << prefix << "_SIZES {"
           << llvm::join(llvm::map_range(value.shape,
                                         [](int64_t s) {
                                           return std::to_string(s);
                                         }),
                         ", ")
           << "}\n";
    }
  };
  emitShapes("INPUT", graph.inputs);
  emitShapes("OUTPUT", graph.outputs);
  os << "\ntsmlir_status " << exported
     << "(const tsmlir_tensor *inputs, int64_t num_inputs,\n"
     << "    const tsmlir_tensor *outputs, int64_t num_outputs);\n"
     << "const tsmlir_signature *" << exported << "_signature(void);\n\n"
     << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n"
     << "#endif /* " << guard << " */\n";
}
