//===- PrepareGraph.h - Specialise a graph for its inputs -------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What tsmlir-run (just in time) and tsmlir-compile (ahead of time) do
// before lowering: find the entry, inline calls, freeze a module's
// attributes, bind ints, bools and None to constants, specialise tensor
// arguments for their dtypes and shapes, optimise (ts-optimize) and form
// fusion groups. The result says what the compiled entry takes and returns.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_COMPILER_PREPAREGRAPH_H
#define TSMLIR_COMPILER_PREPAREGRAPH_H

#include "tsmlir/Compiler/Options.h"
#include "tsmlir/Support/Dtype.h"
#include "tsmlir/Support/Npy.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::tsmlir {

/// One input of a graph: a tensor from a .npy file, or a Python number,
/// bool or None.
struct RunValue {
  enum class Kind { Tensor, Int, Float, Bool, None };
  Kind kind = Kind::None;
  /// The array; for a type given without data (see `parse`), its header.
  NpyArray tensor;
  int64_t intValue = 0;
  double floatValue = 0;
  bool boolValue = false;
  /// As given on the command line, for messages.
  std::string text;

  /// `3`, `2.5`, `true`, `false`, `none`, or a path to a .npy file. With
  /// `typesOnly`, only what compilation needs is read: a .npy file's
  /// header, and also `f32[2,3]`-style tensor types (dtypes as in
  /// ts-specialize) and `float` (a float known only at run time).
  static llvm::Expected<RunValue> parse(llvm::StringRef text,
                                        bool typesOnly = false);
};

/// A run-time input or an output of a prepared graph.
struct GraphValue {
  /// A Tensor; or a TorchScript float, int or bool (a 0-d array; float
  /// inputs are passed by value).
  bool isNumber = false;
  /// TorchScript's name of the argument (empty for outputs).
  std::string name;
  /// The dtype (one the C ABI has: float numbers are Double, ints Long)
  /// and shape (`ShapedType::kDynamic` for a size of a graph compiled for
  /// dynamic sizes, CompileOptions::dynamicSizes).
  Dtype dtype = Dtype::Double;
  SmallVector<int64_t> shape;
  /// Outputs: the size depends on the data (DataDependentSizes.h); `shape`
  /// is its bound, the size of the buffer, and the compiled entry writes
  /// the sizes it has to a buffer of its own (--ts-destination-style-entry).
  bool sizedAtRunTime = false;
  /// Inputs: the argument's position among the graph's arguments.
  unsigned position = 0;
  /// The ts type, for messages (`!ts.tensor<f32, [2, 3]>`).
  std::string typeText;

  const DtypeInfo &getDtypeInfo() const { return tsmlir::getDtypeInfo(dtype); }
  unsigned getElementSize() const { return getDtypeInfo().byteSize; }
};

/// An argument fixed to a constant when the graph was prepared.
struct BoundArgument {
  std::string name;
  unsigned position = 0;
  std::string value;
};

/// A module's state (ts.module_state) as the caller keeps it
/// (ModuleStateHome::Caller).
struct ModuleStateValue {
  /// The attribute's path from `self` (`bn.running_mean`).
  std::string name;
  /// The value the first call reads: the attribute's when the module was
  /// saved.
  RunValue initialValue;
};

struct PreparedGraph {
  std::string entry;
  SmallVector<GraphValue> inputs, outputs;
  SmallVector<BoundArgument> bound;
  unsigned numGraphArguments = 0;
  unsigned numFusionGroups = 0;
  /// The outputs that are always None (GoogLeNet's auxiliary logits in
  /// eval mode), by their position among the graph's flattened outputs:
  /// they have no buffer and `outputs` leaves them out.
  SmallVector<unsigned> noneOutputs;
  /// With gradients: the module tensors whose gradients the graph returns
  /// last, by name (ts.grad_params).
  SmallVector<std::string> gradParams;
  /// With gradients: the inputs (positions in `inputs`) whose gradients
  /// the graph returns after its outputs, in order; the parameters'
  /// (gradParams) follow.
  SmallVector<unsigned> gradInputs;
  /// With ModuleStateHome::Caller: the module's state, which the graph
  /// takes after its inputs (the last of `inputs`) and returns, as it is
  /// after the call, after its outputs (the last of `outputs`).
  SmallVector<ModuleStateValue> states;
};

/// Prepares the entry of `module` (imported TorchScript) for `inputs`, one
/// per argument (a module's self excluded). Errors are reported as
/// diagnostics; `module` is rewritten.
/// Appends to `inputs` the arguments the caller left out that have a
/// default (`ts.default` on the entry's arguments, which a `.pt` import
/// records from the method's signature: `scale: float=2.`). Fails, naming
/// the argument, when a missing one has no default.
LogicalResult appendDefaultInputs(ModuleOp module, StringRef entry,
                                  SmallVectorImpl<RunValue> &inputs);

/// The graph is prepared for `options.device` (the graph's device queries,
/// prim::device and prim::is_cuda, answer it) with `options.fusion`'s
/// groups, and written to DUMP/ts.mlir with a dump directory. With
/// `sizedAtRunTime`, the caller takes outputs whose sizes depend on the data
/// (GraphValue::sizedAtRunTime); otherwise they are refused with a
/// diagnostic.
FailureOr<PreparedGraph> prepareGraph(ModuleOp module,
                                      ArrayRef<RunValue> inputs,
                                      const CompileOptions &options,
                                      bool sizedAtRunTime = false);

/// The state of the module whose entry `options.entry` names (the
/// `ts.module_state`s that importing or freezing the module makes), in the
/// order a graph prepared with ModuleStateHome::Caller takes it. `module` is
/// not changed (a module's method is frozen in a copy).
FailureOr<SmallVector<ModuleStateValue>>
getModuleStates(ModuleOp module, const CompileOptions &options);

/// Writes `module` to DIR/STAGE.mlir when `dumpDir` is not empty.
void dumpModule(ModuleOp module, StringRef dumpDir, StringRef stage);

} // namespace mlir::tsmlir

#endif // TSMLIR_COMPILER_PREPAREGRAPH_H
