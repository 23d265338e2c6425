//===- Schema.h - PyTorch operator schemas for the source front end -*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The operator schemas of every aten:: and prim:: operator PyTorch registers
// (GeneratedSchemas.inc, from scripts/generate_ts_ops.py --all-schemas),
// parsed on first use:
//
//   aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
//
// The `.pt` front end binds a call in archived code (`torch.add(x, y)`) to
// the first overload whose arguments accept the call's positional and
// keyword arguments, fills defaults, and takes the result types from the
// schema, with type variables (`t`, `t[]`) bound by the arguments.
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_TARGET_PTARCHIVE_SCHEMA_H
#define TSMLIR_LIB_TARGET_PTARCHIVE_SCHEMA_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tsmlir::pt {

/// A type in a schema: `Tensor(a!)`, `int[2]`, `Tensor?[]`, `Dict(str, t)`.
struct SchemaType {
  enum Kind {
    Tensor,
    Int,
    Float,
    Bool,
    Str,
    Number, // Scalar
    Complex,
    ScalarType,
    Layout,
    MemoryFormat,
    Device,
    Generator,
    Dimname,
    Storage,
    Stream,
    Any,
    NoneType,
    QScheme,
    List,
    Optional,
    Tuple,
    Dict,
    Future,
    TypeVar, // t, t1, t2
    Named,   // __torch__.torch.classes.foo.Bar, AnyClassType, ...
  };
  Kind kind = Any;
  std::vector<SchemaType> elements; // List/Optional/Future: 1; Dict: 2
  std::string name;                 // TypeVar, Named
  std::optional<int64_t> fixedSize; // int[2]
  bool isWrite = false;             // (a!)
};

/// A default value as the schema spells it.
struct SchemaDefault {
  enum Kind { None, Bool, Int, Float, Str, List } kind = None;
  bool boolValue = false;
  int64_t intValue = 0;
  double floatValue = 0;
  std::string strValue;
  std::vector<SchemaDefault> elements;
};

struct SchemaArgument {
  std::string name;
  SchemaType type;
  std::optional<SchemaDefault> defaultValue;
  bool kwargOnly = false;
};

struct Schema {
  std::string name;     // aten::add
  std::string overload; // Tensor (empty for the default overload)
  std::vector<SchemaArgument> arguments;
  std::vector<SchemaType> returns;
  bool varargs = false;   // `...` after the arguments
  bool varReturns = false;
  std::string text;

  /// The name with its overload: aten::add.Tensor.
  std::string getQualifiedName() const {
    return overload.empty() ? name : name + "." + overload;
  }
};

/// Parses a schema's text; null with `error` set when it does not parse.
std::unique_ptr<Schema> parseSchema(llvm::StringRef text, std::string &error);

/// The overloads of an operator (`aten::add`), in the order PyTorch tries
/// them; empty when no such operator is registered.
llvm::ArrayRef<const Schema *> lookupSchemas(llvm::StringRef name);

/// Binds type variables (`t` → `!ts.tensor`) while arguments are matched.
using TypeBindings = llvm::StringMap<Type>;

/// The `ts` type of a schema type under `bindings`; null if a type variable
/// is unbound or the type has no `ts` form. `ScalarType`, `Layout` and
/// `MemoryFormat` are `int`s, as in TorchScript's IR.
Type convertSchemaType(MLIRContext *context, const SchemaType &type,
                       const TypeBindings &bindings);

/// Whether a value of type `actual` may be passed for a formal of type
/// `formal` without conversion, binding type variables on the way (as
/// PyTorch's matchTypeVariables and isSubtypeOf do).
bool matchSchemaType(const SchemaType &formal, Type actual,
                     TypeBindings &bindings);

/// The schema's text form of a type, for diagnostics.
std::string printSchemaType(const SchemaType &type);

} // namespace mlir::tsmlir::pt

#endif // TSMLIR_LIB_TARGET_PTARCHIVE_SCHEMA_H
