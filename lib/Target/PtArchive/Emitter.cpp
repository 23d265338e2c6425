//===- Emitter.cpp - TorchScript source to the ts dialect -----------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The archive's code (classes, functions, annotations), locations, and the
// entry function.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include "Source/Parser.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptDialect.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"
#include "tsmlir/Dialect/TorchScript/IR/ValueNames.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::pt;

Emitter::Emitter(PtArchive &archive)
    : archive(archive), context(archive.getContext()), builder(context) {}

//===----------------------------------------------------------------------===//
// Locations and diagnostics
//===----------------------------------------------------------------------===//

Location Emitter::getLoc(const char *ptr) {
  llvm::SourceMgr &sourceMgr = archive.getSourceMgr();
  Location loc = UnknownLoc::get(context);
  llvm::SMLoc smLoc = llvm::SMLoc::getFromPointer(ptr);
  if (unsigned id = ptr ? sourceMgr.FindBufferContainingLoc(smLoc) : 0) {
    auto [line, col] = sourceMgr.getLineAndColumn(smLoc, id);
    const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(id);
    loc = FileLineColLoc::get(context, buffer->getBufferIdentifier(), line,
                              col);
    // The Python source the code came from, where `.debug_pkl` says: after
    // the code's own location, which diagnostics show.
    if (LocationAttr original = archive.getOriginalLoc(
            id, static_cast<size_t>(ptr - buffer->getBufferStart())))
      loc = FusedLoc::get(context, {loc, original});
  }
  if (frame && frame->callLoc)
    loc = CallSiteLoc::get(loc, *frame->callLoc);
  return loc;
}

InFlightDiagnostic Emitter::emitError(const char *ptr,
                                      const llvm::Twine &message) {
  return mlir::emitError(getLoc(ptr), message);
}

//===----------------------------------------------------------------------===//
// The archive's code
//===----------------------------------------------------------------------===//

FailureOr<const ast::Module *>
Emitter::getCodeModule(llvm::StringRef modulePath, Location loc) {
  auto it = codeModules.find(modulePath.str());
  if (it != codeModules.end())
    return static_cast<const ast::Module *>(it->second.get());
  FailureOr<std::optional<unsigned>> buffer = archive.loadCode(modulePath, loc);
  if (failed(buffer))
    return failure();
  std::unique_ptr<ast::Module> module;
  if (*buffer) {
    llvm::StringRef text =
        archive.getSourceMgr().getMemoryBuffer(**buffer)->getBuffer();
    auto parsed = ptsource::parseSource(
        text, [&](const char *ptr, const llvm::Twine &message) {
          mlir::emitError(getLoc(ptr), message);
        });
    if (failed(parsed))
      return failure();
    module = std::move(*parsed);
  }
  const ast::Module *result = module.get();
  codeModules[modulePath.str()] = std::move(module);
  return result;
}

/// Splits `a.b.C` into `a.b` and `C`.
static std::pair<llvm::StringRef, llvm::StringRef>
splitQualified(llvm::StringRef name) {
  size_t dot = name.rfind('.');
  if (dot == llvm::StringRef::npos)
    return {"", name};
  return {name.take_front(dot), name.drop_front(dot + 1)};
}

static bool hasBase(const ast::ClassDef &def, llvm::StringRef base) {
  for (const ast::ExprPtr &expr : def.getBases()) {
    if (auto *name = llvm::dyn_cast<ast::Name>(expr.get()))
      if (name->getId() == base)
        return true;
    if (auto *attr = llvm::dyn_cast<ast::Attribute>(expr.get()))
      if (attr->getAttr() == base)
        return true;
  }
  return false;
}

FailureOr<const ClassInfo *> Emitter::getClass(llvm::StringRef qualifiedName,
                                               Location loc) {
  auto it = classes.find(qualifiedName.str());
  if (it != classes.end())
    return static_cast<const ClassInfo *>(it->second.get());
  auto [modulePath, className] = splitQualified(qualifiedName);
  FailureOr<const ast::Module *> module = getCodeModule(modulePath, loc);
  if (failed(module))
    return failure();
  const ast::ClassDef *def = nullptr;
  if (*module)
    for (const ast::StmtPtr &stmt : (*module)->getBody())
      if (auto *cls = llvm::dyn_cast<ast::ClassDef>(stmt.get()))
        if (cls->getName() == className)
          def = cls;
  if (!def)
    return mlir::emitError(loc) << "the archive's code does not define the "
                                   "class '"
                                << qualifiedName << "'",
           failure();
  auto info = std::make_unique<ClassInfo>();
  info->qualifiedName = qualifiedName.str();
  info->modulePath = modulePath.str();
  info->def = def;
  info->isModule = hasBase(*def, "Module");
  info->isNamedTuple = hasBase(*def, "NamedTuple");
  for (const ast::StmtPtr &stmt : def->getBody()) {
    if (auto *fn = llvm::dyn_cast<ast::FunctionDef>(stmt.get()))
      info->methods[fn->getName()] = fn;
    else if (auto *ann = llvm::dyn_cast<ast::AnnAssign>(stmt.get()))
      if (auto *target = llvm::dyn_cast<ast::Name>(&ann->getTarget()))
        info->attributes[target->getId()] = ann;
  }
  const ClassInfo *result = info.get();
  classes[qualifiedName.str()] = std::move(info);
  return result;
}

FailureOr<SValue> Emitter::resolveQualified(llvm::StringRef qualifiedName,
                                            Location loc) {
  auto [modulePath, name] = splitQualified(qualifiedName);
  FailureOr<const ast::Module *> module = getCodeModule(modulePath, loc);
  if (failed(module))
    return failure();
  if (*module) {
    for (const ast::StmtPtr &stmt : (*module)->getBody()) {
      if (auto *fn = llvm::dyn_cast<ast::FunctionDef>(stmt.get());
          fn && fn->getName() == name) {
        SValue v = SValue::get(SValue::Kind::Function, qualifiedName);
        v.function = fn;
        v.modulePath = modulePath.str();
        return v;
      }
      if (auto *cls = llvm::dyn_cast<ast::ClassDef>(stmt.get());
          cls && cls->getName() == name) {
        FailureOr<const ClassInfo *> info = getClass(qualifiedName, loc);
        if (failed(info))
          return failure();
        SValue v = SValue::get(SValue::Kind::Class, qualifiedName);
        v.cls = *info;
        return v;
      }
    }
  }
  // Not a definition: a longer path (`__torch__.torch.nn.functional`).
  return SValue::get(SValue::Kind::Namespace, qualifiedName);
}

/// The dotted name an expression spells (`__torch__.foo.Bar`), or "".
static std::string getDottedName(const ast::Expr &expr) {
  if (auto *name = llvm::dyn_cast<ast::Name>(&expr))
    return name->getId().str();
  if (auto *attr = llvm::dyn_cast<ast::Attribute>(&expr)) {
    std::string base = getDottedName(attr->getValue());
    return base.empty() ? "" : base + "." + attr->getAttr().str();
  }
  return "";
}

FailureOr<Type> Emitter::convertType(const ast::Expr &expr) {
  auto fail = [&](const llvm::Twine &what) -> FailureOr<Type> {
    emitError(expr.getLoc(), what);
    return failure();
  };
  if (auto *constant = llvm::dyn_cast<ast::Constant>(&expr)) {
    if (constant->getConstKind() == ast::Constant::ConstKind::None)
      return Type(ts::NoneType::get(context));
    return fail("expected a type");
  }
  if (auto *subscript = llvm::dyn_cast<ast::Subscript>(&expr)) {
    std::string base = getDottedName(subscript->getValue());
    llvm::SmallVector<const ast::Expr *> args;
    if (auto *tuple = llvm::dyn_cast<ast::Tuple>(&subscript->getIndex()))
      for (const ast::ExprPtr &e : tuple->getElements())
        args.push_back(e.get());
    else
      args.push_back(&subscript->getIndex());
    llvm::SmallVector<Type> types;
    for (const ast::Expr *arg : args) {
      FailureOr<Type> type = convertType(*arg);
      if (failed(type))
        return failure();
      types.push_back(*type);
    }
    auto expectArgs = [&](size_t n) {
      if (types.size() == n)
        return true;
      (void)fail("'" + base + "' takes " + llvm::Twine(n) + " type argument" +
           (n == 1 ? "" : "s"));
      return false;
    };
    if (base == "List") {
      if (!expectArgs(1))
        return failure();
      return Type(ts::ListType::get(context, types[0]));
    }
    if (base == "Optional") {
      if (!expectArgs(1))
        return failure();
      if (llvm::isa<ts::OptionalType, ts::NoneType>(types[0]))
        return types[0];
      return Type(ts::OptionalType::get(context, types[0]));
    }
    if (base == "Final") {
      if (!expectArgs(1))
        return failure();
      return types[0];
    }
    if (base == "Tuple") // Tuple[()] is the empty tuple: no arguments.
      return Type(ts::TupleType::get(context, types, StringAttr()));
    if (base == "Dict") {
      if (!expectArgs(2))
        return failure();
      return Type(ts::DictType::get(context, types[0], types[1]));
    }
    if (base == "Union")
      return Type(ts::UnionType::get(context, types));
    if (base == "Future") {
      if (!expectArgs(1))
        return failure();
      return Type(ts::FutureType::get(context, types[0]));
    }
    return fail("unknown type '" + base + "'");
  }
  if (auto *tuple = llvm::dyn_cast<ast::Tuple>(&expr)) {
    if (tuple->getElements().empty())
      return Type(ts::TupleType::get(context, {}, StringAttr()));
    return fail("expected a type");
  }
  std::string name = getDottedName(expr);
  if (name.empty())
    return fail("expected a type");
  Type simple = llvm::StringSwitch<Type>(name)
                    .Case("Tensor", ts::TensorType::get(context))
                    .Case("int", ts::IntType::get(context))
                    .Case("float", ts::FloatType::get(context))
                    .Case("bool", ts::BoolType::get(context))
                    .Case("str", ts::StrType::get(context))
                    .Case("NoneType", ts::NoneType::get(context))
                    .Case("None", ts::NoneType::get(context))
                    .Case("Device", ts::DeviceType::get(context))
                    .Case("Any", ts::AnyType::get(context))
                    .Case("number", ts::NumberType::get(context))
                    .Case("Scalar", ts::NumberType::get(context))
                    .Case("complex", ts::ComplexType::get(context))
                    .Case("Generator", ts::GeneratorType::get(context))
                    .Case("Storage", ts::StorageType::get(context))
                    .Case("Stream", ts::StreamType::get(context))
                    .Cases({"ScalarType", "Layout", "MemoryFormat"},
                           ts::IntType::get(context))
                    .Default(Type());
  if (simple)
    return simple;
  if (llvm::StringRef(name).starts_with("__torch__.")) {
    if (llvm::StringRef(name).starts_with("__torch__.torch.classes."))
      return Type(ts::OpaqueType::get(context, name));
    FailureOr<const ClassInfo *> cls = getClass(name, getLoc(expr.getLoc()));
    if (failed(cls))
      return failure();
    if ((*cls)->isModule)
      return Type(ts::ModuleType::get(context, name));
    if ((*cls)->isNamedTuple) {
      llvm::SmallVector<Type> fields;
      for (auto &[field, decl] : (*cls)->attributes) {
        FailureOr<Type> type = convertType(decl->getAnnotation());
        if (failed(type))
          return failure();
        fields.push_back(*type);
      }
      return Type(ts::TupleType::get(context, fields,
                                     StringAttr::get(context, name)));
    }
    return Type(ts::ClassType::get(context, name));
  }
  return fail("unknown type '" + name + "'");
}

//===----------------------------------------------------------------------===//
// The entry function
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> Emitter::emitModule(llvm::StringRef entry,
                                          llvm::StringRef functionName) {
  const pickle::Value &root = archive.getRoot();
  Location archiveLoc = FileLineColLoc::get(context, archive.getPath(), 0, 0);
  if (root.kind != pickle::Value::Kind::Object)
    return mlir::emitError(archiveLoc)
               << "data.pkl does not hold a module object",
           nullptr;
  FailureOr<const ClassInfo *> cls =
      getClass(root.object.className, archiveLoc);
  if (failed(cls))
    return nullptr;
  auto method = (*cls)->methods.find(entry);
  if (method == (*cls)->methods.end()) {
    InFlightDiagnostic diag = mlir::emitError(archiveLoc)
                              << "the module '" << root.object.className
                              << "' has no method '" << entry << "'";
    std::vector<std::string> names;
    for (auto &m : (*cls)->methods)
      names.push_back(m.getKey().str());
    llvm::sort(names);
    diag << " (its methods: " << llvm::join(names, ", ") << ")";
    return nullptr;
  }
  const ast::FunctionDef &fn = *method->second;

  OwningOpRef<ModuleOp> module = ModuleOp::create(archiveLoc);
  builder.setInsertionPointToEnd(module->getBody());
  Frame entryFrame;
  entryFrame.modulePath = (*cls)->modulePath;
  frame = &entryFrame;

  llvm::ArrayRef<ast::Param> params = fn.getParams();
  // The first parameter is the module, whatever its name (`self`, `s`).
  if (params.empty())
    return emitError(fn.getLoc(), "a method needs a first parameter for the "
                                  "module"),
           nullptr;
  llvm::SmallVector<Type> argTypes;
  llvm::SmallVector<Location> argLocs;
  for (const ast::Param &param : params.drop_front()) {
    if (!param.annotation)
      return emitError(param.loc, "parameter '" + param.name +
                                      "' has no type annotation"),
             nullptr;
    FailureOr<Type> type = convertType(*param.annotation);
    if (failed(type))
      return nullptr;
    argTypes.push_back(*type);
    argLocs.push_back(NameLoc::get(StringAttr::get(context, param.name),
                                   getLoc(param.loc)));
  }
  std::string name = functionName.empty() ? entry.str() : functionName.str();
  auto func = func::FuncOp::create(builder, getLoc(fn.getLoc()), name,
                                   builder.getFunctionType(argTypes, {}));
  entryFunc = func;
  Block *body = func.addEntryBlock();
  for (auto [arg, loc] : llvm::zip_equal(body->getArguments(), argLocs))
    arg.setLoc(loc);
  builder.setInsertionPointToEnd(body);

  SValue self = SValue::get(SValue::Kind::Object, "");
  self.object = &root;
  self.cls = *cls;
  entryFrame.env[params.front().name] = self;
  for (auto [param, arg] : llvm::zip_equal(params.drop_front(),
                                           body->getArguments())) {
    entryFrame.env[param.name] = SValue::get(arg);
    // A default the caller may leave out, as PyTorch's schema records it.
    if (param.defaultValue)
      if (auto *constant = llvm::dyn_cast<ast::Constant>(
              param.defaultValue.get())) {
        Attribute value;
        switch (constant->getConstKind()) {
        case ast::Constant::ConstKind::Int:
          value = builder.getI64IntegerAttr(constant->getIntValue());
          break;
        case ast::Constant::ConstKind::Float:
          value = builder.getF64FloatAttr(constant->getFloatValue());
          break;
        case ast::Constant::ConstKind::Bool:
          value = builder.getBoolAttr(constant->getBoolValue());
          break;
        case ast::Constant::ConstKind::None:
          value = builder.getUnitAttr();
          break;
        case ast::Constant::ConstKind::String:
          value = builder.getStringAttr(constant->getStringValue());
          break;
        default:
          break;
        }
        if (value)
          func.setArgAttr(arg.getArgNumber(), "ts.default", value);
      }
  }

  if (failed(emitBlock(fn.getBody())))
    return nullptr;
  llvm::SmallVector<Value> results;
  if (entryFrame.returned) {
    const SValue &ret = *entryFrame.returned;
    if (ret.kind == SValue::Kind::Multi) {
      results.append(ret.values);
    } else {
      FailureOr<Value> value = asValue(ret, fn.getLoc());
      if (failed(value))
        return nullptr;
      results.push_back(*value);
    }
  }
  func::ReturnOp::create(builder, getLoc(fn.getLoc()), results);
  func.setFunctionType(builder.getFunctionType(
      argTypes, ValueRange(results).getTypes()));
  frame = nullptr;
  if (failed(bindModuleStates(func)))
    return nullptr;
  if (failed(mlir::verify(*module)))
    return nullptr;
  return module;
}
