//===- Schema.cpp - PyTorch operator schemas ------------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Schema.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <mutex>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::pt;

#include "GeneratedSchemas.inc"

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {
/// A recursive-descent parser of FunctionSchema's text form.
class SchemaParser {
public:
  SchemaParser(llvm::StringRef text) : text(text) {}

  std::unique_ptr<Schema> parse(std::string &error) {
    auto schema = std::make_unique<Schema>();
    schema->text = text.str();
    if (!parseSchema(*schema)) {
      error = message + " at column " + std::to_string(pos + 1) + " of '" +
              text.str() + "'";
      return nullptr;
    }
    return schema;
  }

private:
  bool fail(const std::string &what) {
    if (message.empty())
      message = what;
    return false;
  }
  void skipSpace() {
    while (pos < text.size() && text[pos] == ' ')
      ++pos;
  }
  bool peek(llvm::StringRef token) {
    skipSpace();
    return text.substr(pos).starts_with(token);
  }
  bool consume(llvm::StringRef token) {
    if (!peek(token))
      return false;
    pos += token.size();
    return true;
  }
  bool expect(llvm::StringRef token) {
    return consume(token) || fail("expected '" + token.str() + "'");
  }
  llvm::StringRef identifier() {
    skipSpace();
    size_t start = pos;
    while (pos < text.size() &&
           (llvm::isAlnum(text[pos]) || text[pos] == '_' || text[pos] == '.'))
      ++pos;
    return text.slice(start, pos);
  }

  bool parseSchema(Schema &schema) {
    skipSpace();
    size_t start = pos;
    while (pos < text.size() && text[pos] != '(')
      ++pos;
    llvm::StringRef qualified = text.slice(start, pos).rtrim();
    size_t colons = qualified.find("::");
    if (colons == llvm::StringRef::npos)
      return fail("expected a qualified operator name");
    llvm::StringRef ns = qualified.take_front(colons);
    auto [name, overload] = qualified.drop_front(colons + 2).split('.');
    schema.name = (ns + "::" + name).str();
    schema.overload = overload.str();
    if (!expect("("))
      return false;
    bool kwargOnly = false;
    if (!consume(")")) {
      do {
        if (consume("...")) {
          schema.varargs = true;
          continue;
        }
        if (consume("*")) {
          kwargOnly = true;
          continue;
        }
        SchemaArgument arg;
        arg.kwargOnly = kwargOnly;
        if (!parseType(arg.type))
          return false;
        arg.name = identifier().str();
        if (arg.name.empty())
          return fail("expected an argument name");
        if (consume("=")) {
          SchemaDefault value;
          if (!parseDefault(value))
            return false;
          arg.defaultValue = std::move(value);
        }
        schema.arguments.push_back(std::move(arg));
      } while (consume(","));
      if (!expect(")"))
        return false;
    }
    if (!expect("->"))
      return false;
    if (consume("...")) {
      schema.varReturns = true;
    } else if (peek("(") && !peek("()")) {
      // A tuple of returns: (Tensor, Tensor) or (Tensor values, Tensor indices).
      consume("(");
      do {
        SchemaType type;
        if (!parseType(type))
          return false;
        identifier(); // an optional name
        schema.returns.push_back(std::move(type));
      } while (consume(","));
      if (!expect(")"))
        return false;
    } else if (!consume("()")) {
      SchemaType type;
      if (!parseType(type))
        return false;
      identifier();
      schema.returns.push_back(std::move(type));
    }
    skipSpace();
    if (pos != text.size())
      return fail("unexpected text after the schema");
    return true;
  }

  /// `(a)`, `(a!)`, `(a -> *)`, `(*)`: alias annotations.
  bool parseAlias(SchemaType &type) {
    if (!peek("("))
      return true;
    size_t close = text.find(')', pos);
    if (close == llvm::StringRef::npos)
      return fail("unterminated alias annotation");
    if (text.slice(pos, close).contains('!'))
      type.isWrite = true;
    pos = close + 1;
    return true;
  }

  bool parseType(SchemaType &type) {
    skipSpace();
    if (consume("(")) {
      type.kind = SchemaType::Tuple;
      if (!consume(")")) {
        do {
          SchemaType element;
          if (!parseType(element))
            return false;
          type.elements.push_back(std::move(element));
        } while (consume(","));
        if (!expect(")"))
          return false;
      }
    } else {
      llvm::StringRef name = identifier();
      if (name.empty())
        return fail("expected a type");
      if (name == "Dict" || name == "Future" || name == "Await" ||
          name == "RRef" || name == "Union") {
        type.kind = name == "Dict" ? SchemaType::Dict
                    : name == "Future" ? SchemaType::Future
                                       : SchemaType::Named;
        type.name = name.str();
        if (!expect("("))
          return false;
        do {
          SchemaType element;
          if (!parseType(element))
            return false;
          type.elements.push_back(std::move(element));
        } while (consume(","));
        if (!expect(")"))
          return false;
      } else {
        type.kind = llvm::StringSwitch<SchemaType::Kind>(name)
                        .Case("Tensor", SchemaType::Tensor)
                        .Cases({"int", "SymInt"}, SchemaType::Int)
                        .Cases({"float", "SymFloat"}, SchemaType::Float)
                        .Cases({"bool", "SymBool"}, SchemaType::Bool)
                        .Case("str", SchemaType::Str)
                        .Case("Scalar", SchemaType::Number)
                        .Case("complex", SchemaType::Complex)
                        .Case("ScalarType", SchemaType::ScalarType)
                        .Case("Layout", SchemaType::Layout)
                        .Case("MemoryFormat", SchemaType::MemoryFormat)
                        .Case("Device", SchemaType::Device)
                        .Case("Generator", SchemaType::Generator)
                        .Case("Dimname", SchemaType::Dimname)
                        .Case("Storage", SchemaType::Storage)
                        .Case("Stream", SchemaType::Stream)
                        .Case("Any", SchemaType::Any)
                        .Case("NoneType", SchemaType::NoneType)
                        .Case("QScheme", SchemaType::QScheme)
                        .Default(SchemaType::Named);
        if (type.kind == SchemaType::Named) {
          bool typeVar = name.size() <= 2 && name[0] == 't';
          type.kind = typeVar ? SchemaType::TypeVar : SchemaType::Named;
          type.name = name.str();
        }
      }
    }
    if (!parseAlias(type))
      return false;
    // Suffixes, innermost first: Tensor?[] is a list of optional tensors.
    while (true) {
      if (consume("?")) {
        SchemaType inner = std::move(type);
        type = SchemaType();
        type.kind = SchemaType::Optional;
        type.isWrite = inner.isWrite;
        type.elements.push_back(std::move(inner));
        continue;
      }
      if (consume("[")) {
        SchemaType inner = std::move(type);
        type = SchemaType();
        type.kind = SchemaType::List;
        skipSpace();
        size_t start = pos;
        while (pos < text.size() && llvm::isDigit(text[pos]))
          ++pos;
        if (pos > start) {
          int64_t size;
          if (text.slice(start, pos).getAsInteger(10, size))
            return fail("bad list size");
          type.fixedSize = size;
        }
        type.elements.push_back(std::move(inner));
        if (!expect("]") || !parseAlias(type))
          return false;
        continue;
      }
      return true;
    }
  }

  bool parseDefault(SchemaDefault &value) {
    skipSpace();
    if (consume("[")) {
      value.kind = SchemaDefault::List;
      if (consume("]"))
        return true;
      do {
        SchemaDefault element;
        if (!parseDefault(element))
          return false;
        value.elements.push_back(std::move(element));
      } while (consume(","));
      return expect("]");
    }
    if (pos < text.size() && (text[pos] == '"' || text[pos] == '\''))
      return parseString(value);
    size_t start = pos;
    while (pos < text.size() && text[pos] != ',' && text[pos] != ')' &&
           text[pos] != ']' && text[pos] != ' ')
      ++pos;
    llvm::StringRef word = text.slice(start, pos);
    if (word == "None") {
      value.kind = SchemaDefault::None;
    } else if (word == "True" || word == "False") {
      value.kind = SchemaDefault::Bool;
      value.boolValue = word == "True";
    } else if (!word.getAsInteger(10, value.intValue)) {
      value.kind = SchemaDefault::Int;
    } else if (!word.getAsDouble(value.floatValue)) {
      value.kind = SchemaDefault::Float;
    } else {
      // Enum spellings: contiguous_format, Mean, long, ...
      static const llvm::StringMap<int64_t> kEnums = {
          {"contiguous_format", 0}, {"preserve_format", 1},
          {"channels_last", 2},     {"channels_last_3d", 3},
          {"Mean", 1},
          {"Sum", 2},               {"strided", 0},
          {"sparse_coo", 1},        {"long", 4},
          {"float", 6},             {"int", 3}};
      auto it = kEnums.find(word);
      if (it == kEnums.end())
        return fail("unknown default value '" + word.str() + "'");
      value.kind = SchemaDefault::Int;
      value.intValue = it->second;
    }
    return true;
  }

  bool parseString(SchemaDefault &value) {
    char quote = text[pos++];
    value.kind = SchemaDefault::Str;
    while (pos < text.size() && text[pos] != quote) {
      char c = text[pos++];
      if (c != '\\') {
        value.strValue.push_back(c);
        continue;
      }
      if (pos >= text.size())
        break;
      char e = text[pos++];
      switch (e) {
      case 'n': value.strValue.push_back('\n'); break;
      case 't': value.strValue.push_back('\t'); break;
      case 'r': value.strValue.push_back('\r'); break;
      case 'f': value.strValue.push_back('\f'); break;
      case 'v': value.strValue.push_back('\v'); break;
      default: value.strValue.push_back(e); break;
      }
    }
    return expect(llvm::StringRef(&quote, 1));
  }

  llvm::StringRef text;
  size_t pos = 0;
  std::string message;
};
} // namespace

std::unique_ptr<Schema> pt::parseSchema(llvm::StringRef text,
                                        std::string &error) {
  return SchemaParser(text).parse(error);
}

//===----------------------------------------------------------------------===//
// The registry
//===----------------------------------------------------------------------===//

namespace {
struct Registry {
  std::vector<std::unique_ptr<Schema>> schemas;
  llvm::StringMap<llvm::SmallVector<const Schema *>> byName;

  Registry() {
    for (const char *text : kSchemaTexts) {
      std::string error;
      std::unique_ptr<Schema> schema = parseSchema(text, error);
      if (!schema)
        llvm::report_fatal_error(
            llvm::Twine("GeneratedSchemas.inc has a schema that does not "
                        "parse: ") +
            error);
      byName[schema->name].push_back(schema.get());
      schemas.push_back(std::move(schema));
    }
  }
};
} // namespace

llvm::ArrayRef<const Schema *> pt::lookupSchemas(llvm::StringRef name) {
  static const Registry registry;
  auto it = registry.byName.find(name);
  if (it == registry.byName.end())
    return {};
  return it->second;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

Type pt::convertSchemaType(MLIRContext *context, const SchemaType &type,
                           const TypeBindings &bindings) {
  auto element = [&](unsigned i) {
    return i < type.elements.size()
               ? convertSchemaType(context, type.elements[i], bindings)
               : Type();
  };
  switch (type.kind) {
  case SchemaType::Tensor:
    return ts::TensorType::get(context);
  case SchemaType::Int:
  case SchemaType::ScalarType:
  case SchemaType::Layout:
  case SchemaType::MemoryFormat:
  case SchemaType::QScheme:
    return ts::IntType::get(context);
  case SchemaType::Float:
    return ts::FloatType::get(context);
  case SchemaType::Bool:
    return ts::BoolType::get(context);
  case SchemaType::Str:
  case SchemaType::Dimname:
    return ts::StrType::get(context);
  case SchemaType::Number:
    return ts::NumberType::get(context);
  case SchemaType::Complex:
    return ts::ComplexType::get(context);
  case SchemaType::Device:
    return ts::DeviceType::get(context);
  case SchemaType::Generator:
    return ts::GeneratorType::get(context);
  case SchemaType::Storage:
    return ts::StorageType::get(context);
  case SchemaType::Stream:
    return ts::StreamType::get(context);
  case SchemaType::Any:
    return ts::AnyType::get(context);
  case SchemaType::NoneType:
    return ts::NoneType::get(context);
  case SchemaType::List:
    if (Type e = element(0))
      return ts::ListType::get(context, e);
    return {};
  case SchemaType::Optional:
    if (Type e = element(0))
      return llvm::isa<ts::OptionalType>(e) ? e
                                            : ts::OptionalType::get(context, e);
    return {};
  case SchemaType::Future:
    if (Type e = element(0))
      return ts::FutureType::get(context, e);
    return {};
  case SchemaType::Dict: {
    Type k = element(0), v = element(1);
    if (!k || !v)
      return {};
    return ts::DictType::get(context, k, v);
  }
  case SchemaType::Tuple: {
    llvm::SmallVector<Type> elements;
    for (unsigned i = 0; i < type.elements.size(); ++i) {
      Type e = element(i);
      if (!e)
        return {};
      elements.push_back(e);
    }
    return ts::TupleType::get(context, elements, StringAttr());
  }
  case SchemaType::TypeVar: {
    auto it = bindings.find(type.name);
    return it == bindings.end() ? Type() : it->second;
  }
  case SchemaType::Named:
    return {};
  }
  llvm_unreachable("unknown schema type kind");
}

/// The binding of a type variable: tensors without their refinements, so
/// that `t[]` of two refined tensors unifies.
static Type forBinding(Type type) {
  if (auto tensor = llvm::dyn_cast<ts::TensorType>(type))
    return tensor.getUnrefined();
  return type;
}

bool pt::matchSchemaType(const SchemaType &formal, Type actual,
                         TypeBindings &bindings) {
  MLIRContext *context = actual.getContext();
  switch (formal.kind) {
  case SchemaType::TypeVar: {
    auto it = bindings.find(formal.name);
    if (it == bindings.end()) {
      bindings[formal.name] = forBinding(actual);
      return true;
    }
    if (ts::isValidSubtype(actual, it->second))
      return true;
    // Unify a bound `None` with an optional (as PyTorch's unifyTypes does).
    if (ts::isValidSubtype(it->second, forBinding(actual))) {
      it->second = forBinding(actual);
      return true;
    }
    return false;
  }
  case SchemaType::Any:
    return true;
  case SchemaType::ScalarType:
  case SchemaType::Layout:
  case SchemaType::MemoryFormat:
  case SchemaType::QScheme:
    return llvm::isa<ts::IntType, ts::ScalarTypeType, ts::LayoutType,
                     ts::MemoryFormatType>(actual);
  case SchemaType::Optional: {
    if (llvm::isa<ts::NoneType>(actual))
      return true;
    if (auto optional = llvm::dyn_cast<ts::OptionalType>(actual))
      return matchSchemaType(formal.elements[0], optional.getContainedType(),
                             bindings);
    return matchSchemaType(formal.elements[0], actual, bindings);
  }
  case SchemaType::List: {
    auto list = llvm::dyn_cast<ts::ListType>(actual);
    return list &&
           matchSchemaType(formal.elements[0], list.getElementType(), bindings);
  }
  case SchemaType::Tuple: {
    auto tuple = llvm::dyn_cast<ts::TupleType>(actual);
    if (!tuple || tuple.getElementTypes().size() != formal.elements.size())
      return false;
    for (auto [f, a] : llvm::zip_equal(formal.elements, tuple.getElementTypes()))
      if (!matchSchemaType(f, a, bindings))
        return false;
    return true;
  }
  case SchemaType::Dict: {
    auto dict = llvm::dyn_cast<ts::DictType>(actual);
    return dict && matchSchemaType(formal.elements[0], dict.getKeyType(),
                                   bindings) &&
           matchSchemaType(formal.elements[1], dict.getValueType(), bindings);
  }
  case SchemaType::Future: {
    auto future = llvm::dyn_cast<ts::FutureType>(actual);
    return future && matchSchemaType(formal.elements[0],
                                     future.getContainedType(), bindings);
  }
  case SchemaType::Named:
    if (formal.name == "AnyClassType")
      return llvm::isa<ts::ClassType, ts::ModuleType>(actual);
    if (auto cls = llvm::dyn_cast<ts::ClassType>(actual))
      return cls.getName() == formal.name;
    if (auto opaque = llvm::dyn_cast<ts::OpaqueType>(actual))
      return opaque.getText() == formal.name;
    return false;
  default: {
    Type type = convertSchemaType(context, formal, bindings);
    return type && ts::isValidSubtype(actual, type);
  }
  }
}

std::string pt::printSchemaType(const SchemaType &type) {
  switch (type.kind) {
  case SchemaType::List:
    return printSchemaType(type.elements[0]) + "[" +
           (type.fixedSize ? std::to_string(*type.fixedSize) : "") + "]";
  case SchemaType::Optional:
    return printSchemaType(type.elements[0]) + "?";
  case SchemaType::Tuple:
  case SchemaType::Dict:
  case SchemaType::Future: {
    std::string text = type.kind == SchemaType::Dict     ? "Dict("
                       : type.kind == SchemaType::Future ? "Future("
                                                         : "(";
    for (size_t i = 0; i < type.elements.size(); ++i)
      text += (i ? ", " : "") + printSchemaType(type.elements[i]);
    return text + ")";
  }
  case SchemaType::TypeVar:
  case SchemaType::Named:
    return type.name;
  default:
    break;
  }
  static const char *const kNames[] = {
      "Tensor",       "int",    "float",    "bool",         "str",
      "Scalar",       "complex", "ScalarType", "Layout",    "MemoryFormat",
      "Device",       "Generator", "Dimname", "Storage",    "Stream",
      "Any",          "NoneType", "QScheme"};
  return kNames[type.kind];
}
