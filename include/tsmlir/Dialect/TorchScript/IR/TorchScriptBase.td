//===- TorchScriptBase.td - TorchScript dialect definition -*- tablegen -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_IR_TORCHSCRIPTBASE_TD
#define TSMLIR_DIALECT_TORCHSCRIPT_IR_TORCHSCRIPTBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/OpAsmInterface.td"

def TorchScript_Dialect : Dialect {
  let name = "ts";
  let cppNamespace = "::mlir::tsmlir::ts";
  let summary = "A faithful model of PyTorch's TorchScript IR";
  let description = [{
    The `ts` dialect represents TorchScript graphs, as PyTorch prints them,
    without loss. Every TorchScript value type has an MLIR type (`!ts.tensor`
    with its optional refinements, `!ts.int`, `!ts.list<T>`, ...), every
    `prim::` node with special structure has a hand-written op (constants,
    list and tuple construction, `prim::If`/`prim::Loop` with regions, module
    attribute access, calls, type checks), and the `aten::` operators come
    from PyTorch's own operator schemas, one op per overload, named after the
    schema: `aten::add.Tensor` is `ts.aten.add.Tensor`.

    An operator that has no op yet is kept as a `ts.operator` holding its
    qualified name, so a graph never loses a node on its way in or out.

    The state of a scripted module (its parameters and buffers) may be given
    to its functions as the module's `ts.state_dict` attribute, a dictionary
    from dotted attribute paths to values:
    `module attributes {ts.state_dict = {"fc1.weight" = dense_resource<fc1.weight> : tensor<256x128xf32>}}`.

    A graph becomes a `func.func`, its `return` a `func.return`:

    ```mlir
    func.func @forward(%x: !ts.tensor, %y: !ts.tensor) -> !ts.tensor {
      %one = ts.prim.Constant[1] : !ts.int
      %0 = ts.aten.add.Tensor %x, %y, %one
             : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
      return %0 : !ts.tensor
    }
    ```
  }];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();

    /// The attribute of a `builtin.module` that holds the state of the
    /// scripted module its functions belong to: a dictionary from dotted
    /// attribute paths (`fc1.weight`) to values (tensor data, scalars), as
    /// `--params` imports it and `ts-freeze` uses it.
    static constexpr ::llvm::StringLiteral getStateDictAttrName() {
      return ::llvm::StringLiteral("ts.state_dict");
    }
  }];
}

// Every op but the constant (which names its result after its value) names
// its results after the TorchScript names its location holds, so imported
// MLIR reads `%x.1 = ts.aten.relu %input.1 ...`.
class TS_Op<string mnemonic, list<Trait> traits = [], bit namedByLoc = 1>
    : Op<TorchScript_Dialect, mnemonic,
         !if(namedByLoc,
             !listconcat(traits, [DeclareOpInterfaceMethods<OpAsmOpInterface,
                                                            ["getAsmResultNames"]>]),
             traits)> {
  let extraClassDefinition = !if(namedByLoc, [{
    void $cppClass::getAsmResultNames(::mlir::OpAsmSetValueNameFn setNameFn) {
      ::mlir::tsmlir::ts::setResultNamesFromLoc(getOperation(), setNameFn);
    }
  }], "");
}

#endif // TSMLIR_DIALECT_TORCHSCRIPT_IR_TORCHSCRIPTBASE_TD
