//===- EmitObjects.cpp - Module attributes as constants -------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `self.weight`, `self.heads`, `self.conv`, `CONSTANTS.c0`: the values
// data.pkl and constants.pkl give a module's attributes, emitted as
// constants (tensors as dense resources holding the archive's data), or, for
// submodules, as objects known while emitting.
//
//===----------------------------------------------------------------------===//

#include "CallBinding.h"
#include "Emitter.h"

#include "tsmlir/Dialect/TorchScript/IR/Aliasing.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"
#include "tsmlir/Dialect/TorchScript/IR/ValueNames.h"
#include "tsmlir/Dialect/TorchScript/Transforms/Transforms.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::pt;

/// The element type of a list of pickled values, when all are one scalar
/// kind.
static Type getScalarListType(MLIRContext *context,
                              llvm::ArrayRef<pickle::ValuePtr> elements) {
  if (elements.empty())
    return {};
  pickle::Value::Kind kind = elements.front()->kind;
  for (const pickle::ValuePtr &e : elements)
    if (e->kind != kind)
      return {};
  switch (kind) {
  case pickle::Value::Kind::Int:
    return ts::IntType::get(context);
  case pickle::Value::Kind::Float:
    return ts::FloatType::get(context);
  case pickle::Value::Kind::Bool:
    return ts::BoolType::get(context);
  case pickle::Value::Kind::String:
    return ts::StrType::get(context);
  default:
    return {};
  }
}

static Attribute getScalarAttr(Builder &b, const pickle::Value &value) {
  switch (value.kind) {
  case pickle::Value::Kind::Int:
    return b.getI64IntegerAttr(value.i);
  case pickle::Value::Kind::Float:
    return b.getF64FloatAttr(value.f);
  case pickle::Value::Kind::Bool:
    return b.getBoolAttr(value.b);
  case pickle::Value::Kind::String:
    return b.getStringAttr(value.s);
  default:
    return {};
  }
}

FailureOr<SValue> Emitter::materialize(const pickle::Value &value,
                                       Type declared, llvm::StringRef path,
                                       bool isConstant, const char *loc) {
  Location location = NameLoc::get(StringAttr::get(context, path), getLoc(loc));
  if (auto optional = llvm::dyn_cast_or_null<ts::OptionalType>(declared))
    declared = optional.getContainedType();
  switch (value.kind) {
  case pickle::Value::Kind::None:
    return SValue::get(
        buildConstant(builder, location, ts::NoneType::get(context), {}));
  case pickle::Value::Kind::Bool:
    return SValue::get(buildConstant(builder, location,
                                     ts::BoolType::get(context),
                                     builder.getBoolAttr(value.b)));
  case pickle::Value::Kind::Int:
    if (declared && llvm::isa<ts::FloatType>(declared))
      return SValue::get(buildConstant(builder, location,
                                       ts::FloatType::get(context),
                                       builder.getF64FloatAttr(value.i)));
    return SValue::get(buildConstant(builder, location,
                                     ts::IntType::get(context),
                                     builder.getI64IntegerAttr(value.i)));
  case pickle::Value::Kind::Float:
    return SValue::get(buildConstant(builder, location,
                                     ts::FloatType::get(context),
                                     builder.getF64FloatAttr(value.f)));
  case pickle::Value::Kind::String: {
    Type type = declared && llvm::isa<ts::DeviceType>(declared)
                    ? Type(ts::DeviceType::get(context))
                    : Type(ts::StrType::get(context));
    return SValue::get(buildConstant(builder, location, type,
                                     builder.getStringAttr(value.s)));
  }
  case pickle::Value::Kind::Tensor: {
    FailureOr<ElementsAttr> data =
        archive.getTensorData(value.tensor, isConstant, path, location);
    if (failed(data))
      return failure();
    auto shaped = llvm::cast<ShapedType>(data->getType());
    Type type = ts::TensorType::get(context, shaped.getElementType(),
                                    shaped.getShape());
    return SValue::get(buildConstant(builder, location, type, *data));
  }
  case pickle::Value::Kind::List: {
    Type elementType;
    if (auto list = llvm::dyn_cast_or_null<ts::ListType>(declared))
      elementType = list.getElementType();
    if (!elementType)
      elementType = getScalarListType(context, value.elements);
    // Lists of numbers, bools and strings are constants.
    if (!elementType ||
        llvm::isa<ts::IntType, ts::FloatType, ts::BoolType, ts::StrType>(
            elementType)) {
      llvm::SmallVector<Attribute> elements;
      bool allScalars = true;
      for (const pickle::ValuePtr &e : value.elements) {
        Attribute attr = getScalarAttr(builder, *e);
        if (elementType && llvm::isa<ts::FloatType>(elementType) &&
            e->kind == pickle::Value::Kind::Int)
          attr = builder.getF64FloatAttr(e->i);
        allScalars &= static_cast<bool>(attr);
        elements.push_back(attr);
      }
      if (allScalars && (elementType || elements.empty())) {
        if (!elementType)
          elementType = ts::TensorType::get(context);
        return SValue::get(buildConstant(
            builder, location, ts::ListType::get(context, elementType),
            builder.getArrayAttr(elements)));
      }
    }
    llvm::SmallVector<Value> elements;
    for (auto [i, e] : llvm::enumerate(value.elements)) {
      FailureOr<SValue> element =
          materialize(*e, elementType, (path + "." + llvm::Twine(i)).str(),
                      isConstant, loc);
      if (failed(element))
        return failure();
      FailureOr<Value> v = asValue(*element, loc);
      if (failed(v))
        return failure();
      elements.push_back(*v);
    }
    if (!elementType)
      elementType = elements.empty() ? Type(ts::TensorType::get(context))
                                     : elements.front().getType();
    if (auto tensor = llvm::dyn_cast<ts::TensorType>(elementType))
      elementType = tensor.getUnrefined();
    return SValue::get(ts::PrimListConstructOp::create(
                           builder, location,
                           ts::ListType::get(context, elementType), elements)
                           .getResult());
  }
  case pickle::Value::Kind::Tuple: {
    llvm::ArrayRef<Type> declaredElements;
    if (auto tuple = llvm::dyn_cast_or_null<ts::TupleType>(declared))
      declaredElements = tuple.getElementTypes();
    llvm::SmallVector<Value> elements;
    llvm::SmallVector<Type> types;
    for (auto [i, e] : llvm::enumerate(value.elements)) {
      Type elementDeclared =
          i < declaredElements.size() ? declaredElements[i] : Type();
      FailureOr<SValue> element =
          materialize(*e, elementDeclared,
                      (path + "." + llvm::Twine(i)).str(), isConstant, loc);
      if (failed(element))
        return failure();
      FailureOr<Value> v = asValue(*element, loc);
      if (failed(v))
        return failure();
      elements.push_back(*v);
      types.push_back(v->getType());
    }
    StringAttr name;
    if (auto tuple = llvm::dyn_cast_or_null<ts::TupleType>(declared))
      name = tuple.getName();
    return SValue::get(ts::PrimTupleConstructOp::create(
                           builder, location,
                           ts::TupleType::get(context, types, name), elements)
                           .getResult());
  }
  case pickle::Value::Kind::Object: {
    FailureOr<const ClassInfo *> cls =
        getClass(value.object.className, getLoc(loc));
    if (failed(cls))
      return failure();
    SValue object = SValue::get(SValue::Kind::Object, path);
    object.object = &value;
    object.cls = *cls;
    return object;
  }
  case pickle::Value::Kind::Dict:
    break;
  }
  emitError(loc, "the attribute '" + path + "' holds a " +
                     pickle::Value::getKindName(value.kind) +
                     ", which tsmlir cannot use as a constant");
  return failure();
}

FailureOr<SValue> Emitter::getObjectAttr(const SValue &object,
                                         llvm::StringRef name,
                                         const char *loc) {
  const ClassInfo *cls = object.cls;
  std::string path =
      object.name.empty() ? name.str() : object.name + "." + name.str();
  Type declared;
  auto decl = cls->attributes.find(name);
  if (decl != cls->attributes.end()) {
    FailureOr<Type> type = convertType(decl->second->getAnnotation());
    if (failed(type))
      return failure();
    declared = *type;
  }
  if (const pickle::Value *value = object.object->object.getAttribute(name)) {
    if (value->kind == pickle::Value::Kind::Tensor &&
        mutableAttributes.count(path))
      return readModuleState(*value, path, loc);
    FailureOr<SValue> read =
        materialize(*value, declared, path, /*isConstant=*/false, loc);
    if (succeeded(read) && value->kind == pickle::Value::Kind::Tensor)
      tensorAttributeReads[path].push_back(read->value);
    return read;
  }
  // A class-level constant: `eps : Final[float] = 1e-05`.
  if (decl != cls->attributes.end() && decl->second->getValue()) {
    Frame classFrame;
    classFrame.modulePath = cls->modulePath;
    classFrame.callLoc = frame ? frame->callLoc : std::nullopt;
    Frame *saved = frame;
    frame = &classFrame;
    FailureOr<SValue> value = emitExpr(*decl->second->getValue());
    frame = saved;
    return value;
  }
  auto method = cls->methods.find(name);
  if (method != cls->methods.end()) {
    SValue bound = object;
    bound.kind = SValue::Kind::Method;
    bound.function = method->second;
    bound.modulePath = cls->modulePath;
    bound.name = object.name; // the object's path, for its attributes
    return bound;
  }
  emitError(loc, "the object '" + (object.name.empty() ? "self" : object.name) +
                     "' of class '" + cls->qualifiedName +
                     "' has no attribute '" + name + "'");
  return failure();
}

FailureOr<SValue> Emitter::getConstantTensor(int64_t index, const char *loc) {
  FailureOr<llvm::ArrayRef<pickle::ValuePtr>> constants =
      archive.getConstants();
  if (failed(constants))
    return failure();
  if (index < 0 || index >= static_cast<int64_t>(constants->size())) {
    emitError(loc, "CONSTANTS.c" + llvm::Twine(index) +
                       " is not in constants.pkl, which holds " +
                       llvm::Twine(constants->size()) + " values");
    return failure();
  }
  return materialize(*(*constants)[index], Type(),
                     ("CONSTANTS.c" + llvm::Twine(index)).str(),
                     /*isConstant=*/true, loc);
}

FailureOr<SValue> Emitter::readModuleState(const pickle::Value &value,
                                           llvm::StringRef path,
                                           const char *loc) {
  Location location =
      NameLoc::get(StringAttr::get(context, "self." + path), getLoc(loc));
  auto state = states.find(path.str());
  if (state == states.end()) {
    FailureOr<ElementsAttr> data = archive.getTensorData(
        value.tensor, /*isConstant=*/false, path, location);
    if (failed(data))
      return failure();
    auto shaped = llvm::cast<ShapedType>(data->getType());
    Type type = ts::TensorType::get(context, shaped.getElementType(),
                                    shaped.getShape());
    ts::ModuleStateOp op =
        ts::createModuleState(entryFunc->getParentOfType<ModuleOp>(), location,
                              path, type, *data, entryFunc);
    state = states.emplace(path.str(), op).first;
  }
  Value read = ts::ModuleStateReadOp::create(
      builder, location, state->second.getType(),
      FlatSymbolRefAttr::get(state->second.getSymNameAttr()));
  tensorAttributeReads[path.str()].push_back(read);
  return SValue::get(read);
}

LogicalResult Emitter::bindModuleStates(func::FuncOp func) {
  for (auto &[path, reads] : tensorAttributeReads) {
    auto state = states.find(path);
    if (state == states.end()) {
      if (llvm::any_of(reads, [](Value read) {
            return ts::isWrittenThroughAliases(read, /*orEscapes=*/false);
          }))
        writtenConstants.insert(path);
      continue;
    }
    if (failed(ts::bindModuleState(func, state->second, reads)))
      return mlir::emitError(reads.front().getLoc())
             << "the module's attribute '" << path
             << "' is written in place, and its reads cannot be made one "
                "state (their types differ)";
  }
  tensorAttributeReads.clear();
  return success();
}
