//===- TorchScriptTypes.td - TorchScript value types -------*- tablegen -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_IR_TORCHSCRIPTTYPES_TD
#define TSMLIR_DIALECT_TORCHSCRIPT_IR_TORCHSCRIPTTYPES_TD

include "tsmlir/Dialect/TorchScript/IR/TorchScriptBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class TS_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TorchScript_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

def TS_TensorType : TS_Type<"Tensor", "tensor"> {
  let summary = "TorchScript `Tensor`, with optional refinements";
  let description = [{
    A TorchScript tensor. Every refinement is optional, as in TorchScript,
    where a plain `Tensor` says nothing and a profiled
    `Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)` says everything:

    * the element type (`f32` for `Float`, `si64` for `Long`, `i1` for
      `Bool`, ...);
    * the sizes, `[2, 3]`, where `?` is a dimension of unknown size; no sizes
      means an unknown rank;
    * `strides = [3, 1]`, again with `?` for unknown strides;
    * `device = "cpu"` or `"cuda:0"`;
    * `requires_grad = true|false`.

    ```mlir
    !ts.tensor
    !ts.tensor<f32>
    !ts.tensor<f32, [?, 128]>
    !ts.tensor<f32, [2, 3], strides = [3, 1], device = "cpu", requires_grad = false>
    !ts.tensor<[4]>                      // known shape, unknown dtype
    ```
  }];
  let parameters = (ins
    OptionalParameter<"::mlir::Type", "element type (null: unknown)">:$dtype,
    OptionalParameter<"::mlir::DenseI64ArrayAttr",
                      "sizes (null: unknown rank)">:$sizes,
    OptionalParameter<"::mlir::DenseI64ArrayAttr",
                      "strides (null: unknown)">:$strides,
    OptionalParameter<"::mlir::StringAttr", "device (null: unknown)">:$device,
    OptionalParameter<"::mlir::BoolAttr",
                      "requires_grad (null: unknown)">:$requiresGrad
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    TypeBuilder<(ins CArg<"::mlir::Type", "{}">:$dtype,
                     CArg<"std::optional<::llvm::ArrayRef<int64_t>>",
                          "std::nullopt">:$sizes,
                     CArg<"std::optional<::llvm::ArrayRef<int64_t>>",
                          "std::nullopt">:$strides,
                     CArg<"::llvm::StringRef", "\"\"">:$device,
                     CArg<"std::optional<bool>", "std::nullopt">:$requiresGrad)>,
    TypeBuilder<(ins "::mlir::Type":$dtype, "::mlir::DenseI64ArrayAttr":$sizes,
                     "::mlir::DenseI64ArrayAttr":$strides,
                     "::mlir::StringAttr":$device,
                     "::mlir::BoolAttr":$requiresGrad), [{
      return $_get($_ctxt, dtype, sizes, strides, device, requiresGrad);
    }]>
  ];
  let extraClassDeclaration = [{
    /// Marks a size or stride whose value is not known.
    static constexpr int64_t kUnknown = ::mlir::ShapedType::kDynamic;

    bool hasDtype() const { return static_cast<bool>(getDtype()); }
    bool hasSizes() const { return static_cast<bool>(getSizes()); }
    bool hasStrides() const { return static_cast<bool>(getStrides()); }
    /// Whether the rank and every size are known.
    bool hasStaticShape() const;
    /// The rank, or std::nullopt when it is unknown.
    std::optional<int64_t> getRank() const;
    /// The sizes, or an empty list when the rank is unknown.
    ::llvm::ArrayRef<int64_t> getSizesOrEmpty() const;
    ::llvm::ArrayRef<int64_t> getStridesOrEmpty() const;
    /// True when nothing is known about the tensor.
    bool isUnrefined() const;
    /// The same tensor type without any refinement.
    TensorType getUnrefined() const;
    /// Whether every fact `other` states is also stated, identically, here:
    /// `!ts.tensor<f32, [2]>` refines `!ts.tensor<f32>` and `!ts.tensor`.
    bool isRefinementOf(TensorType other) const;
  }];
}

//===----------------------------------------------------------------------===//
// Scalar and opaque value types
//===----------------------------------------------------------------------===//

class TS_SimpleType<string name, string typeMnemonic, string tsName,
                    string doc>
    : TS_Type<name, typeMnemonic> {
  let summary = "TorchScript `" # tsName # "`";
  let description = doc;
}

def TS_IntType : TS_SimpleType<"Int", "int", "int",
  "A 64-bit signed integer. TorchScript also uses `int` for dtypes, layouts "
  "and memory formats, as PyTorch prints them.">;
def TS_FloatType : TS_SimpleType<"Float", "float", "float",
  "A 64-bit floating point number (Python's `float`).">;
def TS_BoolType : TS_SimpleType<"Bool", "bool", "bool", "A boolean.">;
def TS_StrType : TS_SimpleType<"Str", "str", "str", "A string.">;
def TS_NoneType : TS_SimpleType<"None", "none", "NoneType",
  "The type of `None`.">;
def TS_DeviceType : TS_SimpleType<"Device", "device", "Device",
  "A device such as `cpu` or `cuda:0`.">;
def TS_NumberType : TS_SimpleType<"Number", "number", "Scalar",
  "A number whose kind (int, float, complex) is only known at run time: "
  "the `Scalar` of operator schemas.">;
def TS_ComplexType : TS_SimpleType<"Complex", "complex", "complex",
  "A complex number of two 64-bit floats.">;
def TS_AnyType : TS_SimpleType<"Any", "any", "Any",
  "A value of any TorchScript type.">;
def TS_FunctionType : TS_SimpleType<"Function", "function", "Function",
  "A function value, the callee of `prim::CallFunction`.">;
def TS_GeneratorType : TS_SimpleType<"Generator", "generator", "Generator",
  "A random number generator.">;
def TS_LayoutType : TS_SimpleType<"Layout", "layout", "Layout",
  "A tensor layout (strided, sparse, ...).">;
def TS_MemoryFormatType : TS_SimpleType<"MemoryFormat", "memory_format",
  "MemoryFormat", "A memory format (contiguous, channels_last, ...).">;
def TS_ScalarTypeType : TS_SimpleType<"ScalarType", "scalar_type",
  "ScalarType", "A dtype value, where a graph spells it as such.">;
def TS_StorageType : TS_SimpleType<"Storage", "storage", "Storage",
  "A tensor's untyped storage.">;
def TS_StreamType : TS_SimpleType<"Stream", "stream", "Stream",
  "A device stream.">;

//===----------------------------------------------------------------------===//
// Container types
//===----------------------------------------------------------------------===//

def TS_ListType : TS_Type<"List", "list"> {
  let summary = "TorchScript `List[T]` (`T[]`)";
  let description = [{
    A list of values of one type: `int[]` is `!ts.list<!ts.int>`, `Tensor[]`
    is `!ts.list<!ts.tensor>`.
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
}

def TS_OptionalType : TS_Type<"Optional", "optional"> {
  let summary = "TorchScript `Optional[T]` (`T?`)";
  let description = [{
    A value that is either `None` or a `T`: `Tensor?` is
    `!ts.optional<!ts.tensor>`.
  }];
  let parameters = (ins "::mlir::Type":$containedType);
  let assemblyFormat = "`<` $containedType `>`";
}

def TS_FutureType : TS_Type<"Future", "future"> {
  let summary = "TorchScript `Future[T]`";
  let parameters = (ins "::mlir::Type":$containedType);
  let assemblyFormat = "`<` $containedType `>`";
}

def TS_TupleType : TS_Type<"Tuple", "tuple"> {
  let summary = "TorchScript `Tuple[T1, T2, ...]` (`(T1, T2)`)";
  let description = [{
    A fixed-size tuple: `(Tensor, int)` is `!ts.tuple<!ts.tensor, !ts.int>`.
    A NamedTuple keeps its qualified name:
    `!ts.tuple<!ts.tensor, !ts.tensor, name = "__torch__.Pair">`.
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"::mlir::Type">:$elementTypes,
    OptionalParameter<"::mlir::StringAttr", "NamedTuple name">:$name
  );
  let hasCustomAssemblyFormat = 1;
}

def TS_UnionType : TS_Type<"Union", "union"> {
  let summary = "TorchScript `Union[T1, T2, ...]`";
  let parameters = (ins ArrayRefParameter<"::mlir::Type">:$containedTypes);
  let assemblyFormat = "`<` $containedTypes `>`";
}

def TS_DictType : TS_Type<"Dict", "dict"> {
  let summary = "TorchScript `Dict(K, V)`";
  let parameters = (ins "::mlir::Type":$keyType, "::mlir::Type":$valueType);
  let assemblyFormat = "`<` $keyType `,` $valueType `>`";
}

//===----------------------------------------------------------------------===//
// Named types
//===----------------------------------------------------------------------===//

def TS_ModuleType : TS_Type<"Module", "module"> {
  let summary = "A scripted `nn.Module` instance, such as `self`";
  let description = [{
    The class of a scripted module, by its qualified (possibly mangled) name:
    `!ts.module<"__torch__.torch.nn.modules.linear.Linear">`.
  }];
  let parameters = (ins StringRefParameter<"qualified class name">:$name);
  let assemblyFormat = "`<` $name `>`";
}

def TS_ClassType : TS_Type<"Class", "class"> {
  let summary = "An instance of a TorchScript class that is not a module";
  let parameters = (ins StringRefParameter<"qualified class name">:$name);
  let assemblyFormat = "`<` $name `>`";
}

def TS_OpaqueType : TS_Type<"Opaque", "opaque"> {
  let summary = "A TorchScript type kept verbatim";
  let description = [{
    Any TorchScript type this dialect does not model (a custom class
    registered from C++, an `Await[T]`, ...), kept as the text PyTorch
    prints, so that import and export lose nothing:
    `!ts.opaque<"__torch__.torch.classes.my.Thing">`.
  }];
  let parameters = (ins StringRefParameter<"TorchScript type text">:$text);
  let assemblyFormat = "`<` $text `>`";
}

//===----------------------------------------------------------------------===//
// Type constraints used by operand and result declarations
//===----------------------------------------------------------------------===//

def TS_AnyTSType : Type<
    CPred<"::mlir::tsmlir::ts::isTorchScriptType($_self)">,
    "any TorchScript type"> {
  let cppFunctionName = "isTSAnyTSType";
}

def TS_Tensor : Type<CPred<"::llvm::isa<::mlir::tsmlir::ts::TensorType>($_self)">,
                     "tensor", "::mlir::tsmlir::ts::TensorType"> {
  let cppFunctionName = "isTSTensor";
}

def TS_ScalarLike : Type<
    CPred<"::mlir::tsmlir::ts::isScalarLike($_self)">,
    "scalar (int, float, bool, complex or Scalar)"> {
  let cppFunctionName = "isTSScalarLike";
}

def TS_IntLike : Type<CPred<"::llvm::isa<::mlir::tsmlir::ts::IntType>($_self)">,
                      "int"> {
  let cppFunctionName = "isTSIntLike";
}

class TS_ListOf<Type elem, string desc>
    : Type<And<[CPred<"::llvm::isa<::mlir::tsmlir::ts::ListType>($_self)">,
                SubstLeaves<"$_self",
                  "::llvm::cast<::mlir::tsmlir::ts::ListType>($_self)"
                  ".getElementType()", elem.predicate>]>,
           desc>;

class TS_OptionalOf<Type base, string desc>
    : Type<Or<[base.predicate,
               CPred<"::llvm::isa<::mlir::tsmlir::ts::NoneType>($_self)">,
               And<[CPred<"::llvm::isa<::mlir::tsmlir::ts::OptionalType>($_self)">,
                    SubstLeaves<"$_self",
                      "::llvm::cast<::mlir::tsmlir::ts::OptionalType>($_self)"
                      ".getContainedType()", base.predicate>]>]>,
           desc>;

def TS_IntList : TS_ListOf<TS_IntType, "int[]"> {
  let cppFunctionName = "isTSIntList";
}
def TS_FloatList : TS_ListOf<TS_FloatType, "float[]"> {
  let cppFunctionName = "isTSFloatList";
}
def TS_BoolList : TS_ListOf<TS_BoolType, "bool[]"> {
  let cppFunctionName = "isTSBoolList";
}
def TS_TensorList : TS_ListOf<TS_Tensor, "Tensor[]"> {
  let cppFunctionName = "isTSTensorList";
}
def TS_OptionalTensorList : TS_ListOf<TS_OptionalOf<TS_Tensor, "Tensor?">,
                                      "Tensor?[]"> {
  let cppFunctionName = "isTSOptionalTensorList";
}
def TS_AnyList : Type<CPred<"::llvm::isa<::mlir::tsmlir::ts::ListType>($_self)">,
                      "list"> {
  let cppFunctionName = "isTSAnyList";
}
def TS_AnyTuple : Type<CPred<"::llvm::isa<::mlir::tsmlir::ts::TupleType>($_self)">,
                       "tuple"> {
  let cppFunctionName = "isTSAnyTuple";
}
def TS_AnyDict : Type<CPred<"::llvm::isa<::mlir::tsmlir::ts::DictType>($_self)">,
                      "dict"> {
  let cppFunctionName = "isTSAnyDict";
}
def TS_StrLike : Type<CPred<"::llvm::isa<::mlir::tsmlir::ts::StrType>($_self)">,
                      "str"> {
  let cppFunctionName = "isTSStrLike";
}
def TS_DeviceLike : Type<Or<[
    CPred<"::llvm::isa<::mlir::tsmlir::ts::DeviceType>($_self)">,
    CPred<"::llvm::isa<::mlir::tsmlir::ts::StrType>($_self)">]>,
    "Device (or str)"> {
  let cppFunctionName = "isTSDeviceLike";
}
def TS_DtypeLike : Type<Or<[
    CPred<"::llvm::isa<::mlir::tsmlir::ts::IntType>($_self)">,
    CPred<"::llvm::isa<::mlir::tsmlir::ts::ScalarTypeType>($_self)">]>,
    "ScalarType (int)"> {
  let cppFunctionName = "isTSDtypeLike";
}
def TS_IntListLike : Type<Or<[TS_IntList.predicate, TS_IntLike.predicate]>,
    "int[] (or int, broadcast to a list)"> {
  let cppFunctionName = "isTSIntListLike";
}

def TS_OptionalTensor : TS_OptionalOf<TS_Tensor, "Tensor?"> {
  let cppFunctionName = "isTSOptionalTensor";
}
def TS_OptionalInt : TS_OptionalOf<TS_IntLike, "int?"> {
  let cppFunctionName = "isTSOptionalInt";
}
def TS_OptionalFloat : TS_OptionalOf<TS_FloatType, "float?"> {
  let cppFunctionName = "isTSOptionalFloat";
}
def TS_OptionalBool : TS_OptionalOf<TS_BoolType, "bool?"> {
  let cppFunctionName = "isTSOptionalBool";
}
def TS_OptionalStr : TS_OptionalOf<TS_StrLike, "str?"> {
  let cppFunctionName = "isTSOptionalStr";
}
def TS_OptionalScalar : TS_OptionalOf<TS_ScalarLike, "Scalar?"> {
  let cppFunctionName = "isTSOptionalScalar";
}
def TS_OptionalIntList : TS_OptionalOf<TS_IntListLike, "int[]?"> {
  let cppFunctionName = "isTSOptionalIntList";
}
def TS_OptionalFloatList : TS_OptionalOf<TS_FloatList, "float[]?"> {
  let cppFunctionName = "isTSOptionalFloatList";
}
def TS_OptionalDtype : TS_OptionalOf<TS_DtypeLike, "ScalarType?"> {
  let cppFunctionName = "isTSOptionalDtype";
}
def TS_OptionalDevice : TS_OptionalOf<TS_DeviceLike, "Device?"> {
  let cppFunctionName = "isTSOptionalDevice";
}
def TS_OptionalLayout : TS_OptionalOf<TS_DtypeLike, "Layout?"> {
  let cppFunctionName = "isTSOptionalLayout";
}
def TS_OptionalMemoryFormat : TS_OptionalOf<TS_DtypeLike, "MemoryFormat?"> {
  let cppFunctionName = "isTSOptionalMemoryFormat";
}
def TS_OptionalGenerator : TS_OptionalOf<TS_GeneratorType, "Generator?"> {
  let cppFunctionName = "isTSOptionalGenerator";
}

#endif // TSMLIR_DIALECT_TORCHSCRIPT_IR_TORCHSCRIPTTYPES_TD
