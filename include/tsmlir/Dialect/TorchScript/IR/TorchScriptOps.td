//===- TorchScriptOps.td - TorchScript operations ----------*- tablegen -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The hand-written ops of the `ts` dialect: the `prim::` nodes whose structure
// (attributes, regions, variadic results) no operator schema describes, and
// the generic `ts.operator`. The schema-described operators are generated into
// GeneratedOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_IR_TORCHSCRIPTOPS_TD
#define TSMLIR_DIALECT_TORCHSCRIPT_IR_TORCHSCRIPTOPS_TD

include "tsmlir/Dialect/TorchScript/IR/TorchScriptBase.td"
include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Traits that carry TorchScript's alias annotations
//===----------------------------------------------------------------------===//

class TS_NativeOpTrait<string name> : NativeOpTrait<name> {
  let cppNamespace = "::mlir::tsmlir::ts::OpTrait";
}

// The result may alias the first operand (`Tensor(a) self -> Tensor(a)`):
// a view such as `aten::view`, `aten::select`, `aten::t`.
def TS_ViewLike : TS_NativeOpTrait<"ViewLike">;
// The op writes its first operand (`Tensor(a!) self`): `aten::add_`, `aten::copy_`.
def TS_InPlace : TS_NativeOpTrait<"InPlace">;

// Ops that only compute a value from immutable operands (scalars, strings,
// tuples): no memory effect, so DCE and CSE apply anywhere. They are *not*
// marked speculatable: many raise on bad input (a shape mismatch, a
// non-scalar `aten::Int`), so they must not be hoisted out of a `prim::If`.
defvar TS_Functional = NoMemoryEffect;
// Ops that compute a value from a mutable object: a tensor, a list, a dict or
// a module attribute, which an in-place op, `aten::append` or
// `prim::SetAttr` may change in between. They read memory: an unused one is
// still dead, but CSE merges two of them only when no op that may write lies
// between them (`y = x + 1; x.add_(1); z = x + 1` keeps both adds).
defvar TS_ReadOnly = MemoryEffects<[MemRead]>;
// Ops with an effect that must be kept and ordered: in-place ops, prints,
// exceptions, random number generation, list mutation.
defvar TS_SideEffecting = MemoryEffects<[MemRead, MemWrite]>;

//===----------------------------------------------------------------------===//
// prim::Constant
//===----------------------------------------------------------------------===//

def TS_PrimConstantOp : TS_Op<"prim.Constant",
    [ConstantLike, Pure,
     DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>],
    /*namedByLoc=*/0> {
  let summary = "prim::Constant: a constant of any TorchScript value kind";
  let description = [{
    A constant, as `prim::Constant` prints it. The value, in brackets, is an
    attribute whose kind must fit the result type:

    | result type | value |
    |---|---|
    | `!ts.none`, `!ts.optional<T>` | none |
    | `!ts.int` (also dtypes, layouts, memory formats) | integer |
    | `!ts.float` | float |
    | `!ts.bool` | `true` / `false` |
    | `!ts.str`, `!ts.device` | string |
    | `!ts.list<T>`, `!ts.tuple<...>` | array of the element values |
    | `!ts.tensor<...>` | `dense<...>` or `dense_resource<...>` elements |
    | `!ts.function` | none; the callee's `name` is an attribute |

    Other attributes of the node (`name`, `fallback`) stay in the attribute
    dictionary.

    ```mlir
    %0 = ts.prim.Constant[1] : !ts.int
    %1 = ts.prim.Constant[2.500000e+00] : !ts.float
    %2 = ts.prim.Constant : !ts.none
    %3 = ts.prim.Constant["cpu"] : !ts.device
    %4 = ts.prim.Constant[[1, 2]] : !ts.list<!ts.int>
    %5 = ts.prim.Constant[dense<[1.0, 2.0]> : tensor<2xf32>] : !ts.tensor<f32, [2]>
    %6 = ts.prim.Constant {name = "fallback_function", fallback = 1 : i64} : !ts.function
    ```
  }];
  let arguments = (ins OptionalAttr<AnyAttr>:$value);
  let results = (outs TS_AnyTSType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Lists, tuples and dicts
//===----------------------------------------------------------------------===//

// Lists and dicts are mutable: each construction makes a new object, so two
// identical constructions must not be merged (a MemAlloc effect on the
// result), while an unused one can still be erased.
def TS_PrimListConstructOp : TS_Op<"prim.ListConstruct", []> {
  let summary = "prim::ListConstruct: build a list from its elements";
  let description = [{
    ```mlir
    %l = ts.prim.ListConstruct %a, %b : (!ts.int, !ts.int) -> !ts.list<!ts.int>
    ```
    Every element must be a subtype of the list's element type (a refined
    tensor is a subtype of `!ts.tensor`; an `!ts.int` of `!ts.optional<!ts.int>`).
  }];
  let arguments = (ins Variadic<TS_AnyTSType>:$elements);
  let results = (outs Res<TS_AnyList, "", [MemAlloc]>:$result);
  let assemblyFormat =
      "$elements attr-dict `:` functional-type($elements, $result)";
  let hasVerifier = 1;
}

def TS_PrimListUnpackOp : TS_Op<"prim.ListUnpack", [TS_ReadOnly]> {
  let summary = "prim::ListUnpack: the elements of a list of known length";
  let description = [{
    Raises at run time when the list's length differs from the number of
    results.
    ```mlir
    %a, %b = ts.prim.ListUnpack %l : !ts.list<!ts.tensor> -> !ts.tensor, !ts.tensor
    ```
  }];
  let arguments = (ins TS_AnyList:$list);
  let results = (outs Variadic<TS_AnyTSType>:$results);
  let assemblyFormat =
      "$list attr-dict `:` type($list) (`->` type($results)^)?";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def TS_PrimTupleConstructOp : TS_Op<"prim.TupleConstruct", [Pure]> {
  let summary = "prim::TupleConstruct: build a tuple";
  let description = [{
    ```mlir
    %t = ts.prim.TupleConstruct %a, %b : (!ts.tensor, !ts.int) -> !ts.tuple<!ts.tensor, !ts.int>
    ```
  }];
  let arguments = (ins Variadic<TS_AnyTSType>:$elements);
  let results = (outs TS_AnyTuple:$result);
  let assemblyFormat =
      "$elements attr-dict `:` functional-type($elements, $result)";
  let hasVerifier = 1;
}

def TS_PrimTupleUnpackOp : TS_Op<"prim.TupleUnpack", [Pure]> {
  let summary = "prim::TupleUnpack: every element of a tuple";
  let description = [{
    ```mlir
    %a, %b = ts.prim.TupleUnpack %t : !ts.tuple<!ts.tensor, !ts.int> -> !ts.tensor, !ts.int
    ```
  }];
  let arguments = (ins TS_AnyTuple:$tuple);
  let results = (outs Variadic<TS_AnyTSType>:$results);
  let assemblyFormat =
      "$tuple attr-dict `:` type($tuple) (`->` type($results)^)?";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TS_PrimTupleIndexOp : TS_Op<"prim.TupleIndex", [TS_Functional]> {
  let summary = "prim::TupleIndex: one element of a tuple";
  let description = [{
    ```mlir
    %x = ts.prim.TupleIndex %t, %c0 : (!ts.tuple<!ts.tensor, !ts.int>, !ts.int) -> !ts.tensor
    ```
  }];
  let arguments = (ins TS_AnyTuple:$tuple, TS_IntLike:$index);
  let results = (outs TS_AnyTSType:$result);
  let assemblyFormat =
      "$tuple `,` $index attr-dict `:` functional-type(operands, $result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TS_PrimDictConstructOp : TS_Op<"prim.DictConstruct", []> {
  let summary = "prim::DictConstruct: build a dict from key, value pairs";
  let description = [{
    ```mlir
    %d = ts.prim.DictConstruct %k, %v : (!ts.str, !ts.tensor) -> !ts.dict<!ts.str, !ts.tensor>
    ```
  }];
  let arguments = (ins Variadic<TS_AnyTSType>:$keysAndValues);
  let results = (outs Res<TS_AnyDict, "", [MemAlloc]>:$result);
  let assemblyFormat =
      "$keysAndValues attr-dict `:` functional-type($keysAndValues, $result)";
  let hasVerifier = 1;
}

def TS_PrimConstantChunkOp : TS_Op<"prim.ConstantChunk", [TS_ReadOnly]> {
  let summary = "prim::ConstantChunk: split a tensor into a known number of chunks";
  let description = [{
    What the optimiser turns `aten::chunk` + `prim::ListUnpack` into.
    ```mlir
    %a, %b = ts.prim.ConstantChunk %x {chunks = 2 : i64, dim = -1 : i64}
               : !ts.tensor -> !ts.tensor, !ts.tensor
    ```
  }];
  let arguments = (ins TS_Tensor:$self, I64Attr:$chunks, I64Attr:$dim);
  let results = (outs Variadic<TS_Tensor>:$results);
  let assemblyFormat = "$self attr-dict `:` type($self) `->` type($results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

def TS_PrimIfOp : TS_Op<"prim.If",
    [RecursiveMemoryEffects, NoRegionArguments,
     SingleBlockImplicitTerminator<"PrimYieldOp">]> {
  let summary = "prim::If: two-way conditional with results";
  let description = [{
    Runs `then` when the condition is true, `else` otherwise; each region
    ends with a `ts.prim.Yield` of the results (TorchScript's `-> (...)`).
    The condition is a `bool`, or an `int` tested against zero: PyTorch's
    autodiff branches on `prim::AutogradAnyNonZero`, which it types `int`.
    ```mlir
    %r = ts.prim.If %c -> (!ts.tensor) {
      ts.prim.Yield %a : !ts.tensor
    } else {
      ts.prim.Yield %b : !ts.tensor
    }
    %s = ts.prim.If %n : !ts.int -> (!ts.tensor) { ... } else { ... }
    ```
  }];
  let arguments = (ins AnyTypeOf<[TS_BoolType, TS_IntType]>:$condition);
  let results = (outs Variadic<TS_AnyTSType>:$results);
  let regions = (region SizedRegion<1>:$thenRegion, SizedRegion<1>:$elseRegion);
  let assemblyFormat = [{
    custom<IfCondition>($condition, type($condition))
    (`->` `(` type($results)^ `)`)? $thenRegion `else` $elseRegion
    attr-dict
  }];
  let hasVerifier = 1;
  // A constant condition inlines the branch taken; a result both branches
  // yield from outside, or that nothing uses, is dropped.
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    ::mlir::Block *thenBlock() { return &getThenRegion().front(); }
    ::mlir::Block *elseBlock() { return &getElseRegion().front(); }
  }];
}

def TS_PrimLoopOp : TS_Op<"prim.Loop",
    [RecursiveMemoryEffects, SingleBlockImplicitTerminator<"PrimYieldOp">]> {
  let summary = "prim::Loop: a for/while loop with loop-carried values";
  let description = [{
    TorchScript's one loop: it runs while the iteration count is below
    `maxTripCount` and the condition is true. The body's block arguments are
    the iteration number and the carried values; it yields the next condition
    and the next carried values. The results are the final carried values.

    ```mlir
    %r = ts.prim.Loop %n, %true init(%acc) : (!ts.int, !ts.bool, !ts.tensor) -> !ts.tensor {
    ^bb0(%i: !ts.int, %a: !ts.tensor):
      %b = ts.aten.add.Tensor %a, %x, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
      ts.prim.Yield %true, %b : !ts.bool, !ts.tensor
    }
    ```
  }];
  let arguments = (ins TS_IntLike:$maxTripCount, TS_BoolType:$initialCondition,
                       Variadic<TS_AnyTSType>:$iterArgs);
  let results = (outs Variadic<TS_AnyTSType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $maxTripCount `,` $initialCondition (`init` `(` $iterArgs^ `)`)?
    `:` functional-type(operands, $results) $body attr-dict
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def TS_PrimYieldOp : TS_Op<"prim.Yield",
    [Pure, Terminator, ReturnLike, ParentOneOf<["PrimIfOp", "PrimLoopOp", "OperatorOp"]>]> {
  let summary = "The outputs of a block of prim::If, prim::Loop or ts.operator";
  let description = [{
    TorchScript's `-> (%a, %b)` at the end of a block.
  }];
  let arguments = (ins Variadic<TS_AnyTSType>:$values);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

//===----------------------------------------------------------------------===//
// Modules and calls
//===----------------------------------------------------------------------===//

def TS_ObjectLike : Type<Or<[
    CPred<"::llvm::isa<::mlir::tsmlir::ts::ModuleType>($_self)">,
    CPred<"::llvm::isa<::mlir::tsmlir::ts::ClassType>($_self)">,
    CPred<"::llvm::isa<::mlir::tsmlir::ts::OpaqueType>($_self)">]>,
    "module or class instance">;

def TS_PrimGetAttrOp : TS_Op<"prim.GetAttr", [TS_ReadOnly]> {
  let summary = "prim::GetAttr: read an attribute of a module or object";
  let description = [{
    ```mlir
    %fc1 = ts.prim.GetAttr %self["fc1"] : !ts.module<"__torch__.MLP"> -> !ts.module<"__torch__.torch.nn.modules.linear.Linear">
    %w = ts.prim.GetAttr %fc1["weight"] : !ts.module<"__torch__.torch.nn.modules.linear.Linear"> -> !ts.tensor
    ```
  }];
  let arguments = (ins TS_ObjectLike:$object, StrAttr:$name);
  let results = (outs TS_AnyTSType:$result);
  let assemblyFormat =
      "$object `[` $name `]` attr-dict `:` type($object) `->` type($result)";
}

def TS_PrimSetAttrOp : TS_Op<"prim.SetAttr", [TS_SideEffecting]> {
  let summary = "prim::SetAttr: write an attribute of a module or object";
  let description = [{
    ```mlir
    ts.prim.SetAttr %self["steps"] = %n : !ts.module<"__torch__.Counter">, !ts.int
    ```
  }];
  let arguments = (ins TS_ObjectLike:$object, StrAttr:$name,
                       TS_AnyTSType:$value);
  let assemblyFormat = [{
    $object `[` $name `]` `=` $value attr-dict `:` type($object) `,` type($value)
  }];
}

//===----------------------------------------------------------------------===//
// Module state
//===----------------------------------------------------------------------===//

def TS_ModuleStateOp : TS_Op<"module_state", [Symbol], /*namedByLoc=*/0> {
  let summary = "A tensor attribute of a module that calls write in place";
  let description = [{
    A module's tensor attribute that the graph writes in place, as a layer
    in training mode writes its running statistics
    (`self.running_mean`, `self.num_batches_tracked.add_(1)`): state that
    lasts from call to call. The symbol is the attribute's path from `self`;
    the value is the attribute's when the module was saved, which the first
    call reads. Attributes that no call writes are constants instead.

    ```mlir
    ts.module_state @"bn.running_mean" : !ts.tensor<f32, [3]> = dense<0.0> : tensor<3xf32>
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, TypeAttr:$type,
                       ElementsAttr:$initial_value);
  let assemblyFormat =
      "$sym_name `:` $type `=` $initial_value attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The tensor type of the value: the initial value's dtype and sizes
    /// (`type` may leave them unknown, as the attribute's declaration does).
    ::mlir::tsmlir::ts::TensorType getValueType();
  }];
}

def TS_ModuleStateReadOp : TS_Op<"module_state.read",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>,
     MemoryEffects<[MemRead]>]> {
  let summary = "A new tensor holding a module state's value";
  let description = [{
    The state's value now, in a tensor of its own, which the graph may write
    in place: `ts-remove-mutation` then computes its new value, which a
    `ts.module_state.write` stores. The result's type, and a write's value's,
    may leave the dtype or sizes unknown; those it gives are the state's.

    ```mlir
    %mean = ts.module_state.read @"bn.running_mean" : !ts.tensor<f32, [3]>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$state);
  let results = (outs Res<TS_Tensor, "", [MemAlloc]>:$result);
  let assemblyFormat = "$state attr-dict `:` qualified(type($result))";
}

def TS_ModuleStateWriteOp : TS_Op<"module_state.write",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>,
     MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Store a module state's value for the next call";
  let description = [{
    The state's value from here on (a copy of `value`): each path of a graph
    that writes the state ends with one.

    ```mlir
    ts.module_state.write @"bn.running_mean" = %new : !ts.tensor<f32, [3]>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$state, TS_Tensor:$value);
  let assemblyFormat = "$state `=` $value attr-dict `:` qualified(type($value))";
}

// The calls implement CallOpInterface: the callee is the `func.func` named
// after the called function or method (see getCalleeName), so MLIR's inliner
// (and `ts-inline`) can inline them.
class TS_CallOp<string mnemonic> : TS_Op<mnemonic, [TS_SideEffecting,
    DeclareOpInterfaceMethods<CallOpInterface>]> {
  code callExtraClassDeclaration = [{
    /// The symbol of the `func.func` this call resolves to: the function's
    /// name for a call of a named function, `<class>.<method>` for a method
    /// call; "" when the callee has no name (a function value that is not a
    /// named constant).
    std::string getCalleeName();

    // A TorchScript call has no argument or result attributes.
    ::mlir::ArrayAttr getArgAttrsAttr() { return {}; }
    ::mlir::ArrayAttr getResAttrsAttr() { return {}; }
    void setArgAttrsAttr(::mlir::ArrayAttr) {}
    void setResAttrsAttr(::mlir::ArrayAttr) {}
    ::mlir::Attribute removeArgAttrsAttr() { return {}; }
    ::mlir::Attribute removeResAttrsAttr() { return {}; }
  }];
}

def TS_PrimCallFunctionOp : TS_CallOp<"prim.CallFunction"> {
  let summary = "prim::CallFunction: call a function value";
  let description = [{
    The callee is a `!ts.function` value, usually a
    `ts.prim.Constant {name = "..."}`. Calls are assumed to have effects until
    they are inlined. A callee constant named `helper` resolves to the
    `func.func @helper` of the same module.
    ```mlir
    %f = ts.prim.Constant {name = "helper"} : !ts.function
    %r = ts.prim.CallFunction %f(%x) : (!ts.tensor) -> !ts.tensor
    ```
  }];
  let arguments = (ins TS_FunctionType:$callee, Variadic<TS_AnyTSType>:$args);
  let results = (outs Variadic<TS_AnyTSType>:$results);
  let assemblyFormat =
      "$callee `(` $args `)` attr-dict `:` functional-type($args, $results)";
  let extraClassDeclaration = callExtraClassDeclaration;
}

def TS_PrimCallMethodOp : TS_CallOp<"prim.CallMethod"> {
  let summary = "prim::CallMethod: call a method of a module or object";
  let description = [{
    The method `name` of an object of class `C` resolves to the `func.func`
    named `C.name` (`@"__torch__.Linear.forward"`), whose first argument is
    the object (`self`).
    ```mlir
    %y = ts.prim.CallMethod %fc1["forward"](%x) : !ts.module<"__torch__.Linear">, (!ts.tensor) -> !ts.tensor
    ```
  }];
  let arguments = (ins TS_ObjectLike:$object, StrAttr:$name,
                       Variadic<TS_AnyTSType>:$args);
  let results = (outs Variadic<TS_AnyTSType>:$results);
  let assemblyFormat = [{
    $object `[` $name `]` `(` $args `)` attr-dict `:` type($object) `,`
    functional-type($args, $results)
  }];
  let extraClassDeclaration = callExtraClassDeclaration;
}

//===----------------------------------------------------------------------===//
// Exceptions, printing, casts
//===----------------------------------------------------------------------===//

def TS_PrimRaiseExceptionOp : TS_Op<"prim.RaiseException", [TS_SideEffecting]> {
  let summary = "prim::RaiseException: raise a Python exception";
  let description = [{
    The message, then (from PyTorch 1.13 on) the qualified exception class name
    or `None`.
    ```mlir
    ts.prim.RaiseException %msg, %cls : !ts.str, !ts.none
    ```
  }];
  let arguments = (ins TS_StrLike:$message,
                       Optional<TS_OptionalStr>:$exceptionClass);
  let assemblyFormat = [{
    $message (`,` $exceptionClass^)? attr-dict `:` type($message)
    (`,` type($exceptionClass)^)?
  }];
}

def TS_PrimPrintOp : TS_Op<"prim.Print", [TS_SideEffecting]> {
  let summary = "prim::Print: print values";
  let description = [{
    ```mlir
    ts.prim.Print(%s, %x) : !ts.str, !ts.tensor
    ```
  }];
  let arguments = (ins Variadic<TS_AnyTSType>:$values);
  let assemblyFormat = "`(` $values `)` attr-dict (`:` type($values)^)?";
}

def TS_PrimUninitializedOp : TS_Op<"prim.Uninitialized", [Pure]> {
  let summary = "prim::Uninitialized: a placeholder for a value never read";
  let description = [{
    Emitted for the outputs of a branch that raises, or of an early exit.
    ```mlir
    %u = ts.prim.Uninitialized : !ts.tensor
    ```
  }];
  let results = (outs TS_AnyTSType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

class TS_UncheckedCastOpBase<string mnemonic, string tsName>
    : TS_Op<mnemonic, [Pure]> {
  let summary = tsName # ": refine a type without a run-time check";
  let description = [{
    The front end emits it after it has proved the refinement, e.g. an
    `Optional[Tensor]` after `x is not None`.
    ```mlir
    %t = ts.prim.unchecked_cast %x : !ts.optional<!ts.tensor> -> !ts.tensor
    ```
  }];
  let arguments = (ins TS_AnyTSType:$operand);
  let results = (outs TS_AnyTSType:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasFolder = 1;
}

def TS_PrimUncheckedCastOp
    : TS_UncheckedCastOpBase<"prim.unchecked_cast", "prim::unchecked_cast">;
def TS_PrimUncheckedUnwrapOptionalOp
    : TS_UncheckedCastOpBase<"prim.unchecked_unwrap_optional",
                             "prim::unchecked_unwrap_optional">;

//===----------------------------------------------------------------------===//
// Guards of profiled graphs
//===----------------------------------------------------------------------===//

class TS_TypeCheckOpBase<string mnemonic, string tsName, string what>
    : TS_Op<mnemonic, [TS_Functional]> {
  let summary = tsName # ": check " # what # " at run time";
  let description = [{
    Returns its operands, typed with the checked types, and a `!ts.bool` that
    is true when every operand has its checked type. The profiling executor
    branches on the flag: the specialised code when it holds, a fallback
    otherwise.
    ```mlir
    %a, %b, %ok = ts.prim.TypeCheck %x, %y : (!ts.tensor, !ts.tensor)
        -> (!ts.tensor<f32, [4], strides = [1], device = "cpu", requires_grad = false>,
            !ts.tensor<f32, [4], strides = [1], device = "cpu", requires_grad = false>,
            !ts.bool)
    ```
  }];
  let arguments = (ins Variadic<TS_Tensor>:$inputs);
  let results = (outs Variadic<TS_AnyTSType>:$results);
  let assemblyFormat = "$inputs attr-dict `:` functional-type($inputs, $results)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The inputs, typed with the types they are checked against.
    ::mlir::ResultRange getRefined() {
      return getResults().drop_back();
    }
    /// True when every input has its checked type.
    ::mlir::Value getCheckPassed() { return getResults().back(); }
  }];
}

def TS_PrimTypeCheckOp : TS_TypeCheckOpBase<"prim.TypeCheck",
    "prim::TypeCheck", "dtype, sizes, strides, device and requires_grad">;
def TS_PrimRequiresGradCheckOp : TS_TypeCheckOpBase<"prim.RequiresGradCheck",
    "prim::RequiresGradCheck", "requires_grad">;

def TS_PrimBailOutOp : TS_Op<"prim.BailOut", [TS_SideEffecting]> {
  let summary = "prim::BailOut: leave the optimised graph unless a type holds";
  let description = [{
    The legacy profiling executor's guard: returns its first operand with the
    refined result type, or bails out to the unoptimised graph (passing every
    operand as live state) when the type does not hold. `index` names the
    bail-out point.
    ```mlir
    %y = ts.prim.BailOut %x, %a {index = 0 : i64} : (!ts.tensor, !ts.tensor) -> !ts.tensor<f32, [4]>
    ```
  }];
  let arguments = (ins Variadic<TS_AnyTSType>:$inputs, I64Attr:$index);
  let results = (outs TS_AnyTSType:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type($inputs, $result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// The generic operator
//===----------------------------------------------------------------------===//

def TS_OperatorOp : TS_Op<"operator", []> {
  let summary = "Any TorchScript node, by qualified name";
  let description = [{
    A node that has no op of its own, kept with its kind (the qualified
    name, `"aten::foo"`, optionally with an overload, `"aten::foo.out"`), its
    attributes (in the attribute dictionary, under their TorchScript names)
    and its blocks (as regions ending in `ts.prim.Yield`). A node with a
    subgraph that no `fusion` op models (`prim::StaticSubgraph_0`) has a
    `Subgraph` unit attribute and the subgraph as its one region. Nothing is
    lost on import or export; passes treat it as an opaque op with side
    effects, and lowering reports it by kind. Canonicalization removes the
    grad-mode objects of `with torch.no_grad():` blocks.
    ```mlir
    %y = ts.operator "aten::erfinv"(%x) : (!ts.tensor) -> !ts.tensor
    %p = ts.operator "prim::profile"(%x) {profiled_type = !ts.tensor<f32, [4]>, seen_none = 0 : i64} : (!ts.tensor) -> !ts.tensor
    ```
  }];
  let arguments = (ins StrAttr:$kind, Variadic<TS_AnyTSType>:$args);
  let results = (outs Variadic<TS_AnyTSType>:$results);
  let regions = (region VariadicRegion<AnyRegion>:$blocks);
  let assemblyFormat = [{
    $kind `(` $args `)` attr-dict `:` functional-type($args, $results)
    ($blocks^)?
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Schema-described operators
//===----------------------------------------------------------------------===//

// One overload of one operator schema: `aten::add.Tensor(Tensor self, Tensor
// other, *, Scalar alpha=1) -> Tensor` is `ts.aten.add.Tensor`, with one
// operand per schema argument, in order, keyword-only ones included (a
// TorchScript node always passes every argument).
class TS_SchemaOp<string mnemonic, string schemaText, list<Trait> traits = []>
    : TS_Op<mnemonic, traits> {
  let summary = "`" # schemaText # "`";
  let description = [{
    The operator with this schema, as PyTorch defines it. Operands follow
    the schema's arguments in order.
  }];
  let assemblyFormat =
      "operands attr-dict `:` functional-type(operands, results)";
}

include "tsmlir/Dialect/TorchScript/IR/GeneratedOps.td"

#endif // TSMLIR_DIALECT_TORCHSCRIPT_IR_TORCHSCRIPTOPS_TD
