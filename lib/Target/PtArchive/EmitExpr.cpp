//===- EmitExpr.cpp - Expressions to ts ops -------------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Expressions: names, attributes of objects and values, calls of operators
// (`torch.X`, `ops.aten.X`, operators such as `+`), of TorchScript functions
// and methods (inlined) and of Python builtins, subscripts, literals.
//
//===----------------------------------------------------------------------===//

#include "CallBinding.h"
#include "Emitter.h"

#include "mlir/IR/Matchers.h"
#include "tsmlir/Dialect/TorchScript/IR/GradMode.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::pt;

/// The most nested inlined calls (recursion is not TorchScript).
static constexpr unsigned kMaxInlineDepth = 64;

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

Value Emitter::constantInt(int64_t value, const char *loc) {
  return buildConstant(builder, getLoc(loc), ts::IntType::get(context),
                       builder.getI64IntegerAttr(value));
}
Value Emitter::constantBool(bool value, const char *loc) {
  return buildConstant(builder, getLoc(loc), ts::BoolType::get(context),
                       builder.getBoolAttr(value));
}
Value Emitter::constantNone(const char *loc) {
  return buildConstant(builder, getLoc(loc), ts::NoneType::get(context), {});
}
Value Emitter::constantStr(llvm::StringRef value, const char *loc) {
  return buildConstant(builder, getLoc(loc), ts::StrType::get(context),
                       builder.getStringAttr(value));
}

Attribute Emitter::getConstantValue(Value value) {
  Attribute attr;
  if (matchPattern(value, m_Constant(&attr)))
    return attr;
  return {};
}

FailureOr<Value> Emitter::asValue(const SValue &value, const char *loc) {
  switch (value.kind) {
  case SValue::Kind::Value:
    return value.value;
  case SValue::Kind::Multi:
    if (value.values.empty())
      return constantNone(loc);
    return ts::PrimTupleConstructOp::create(
               builder, getLoc(loc),
               ts::TupleType::get(context, llvm::to_vector(ValueRange(value.values).getTypes()),
                                  StringAttr()),
               value.values)
        .getResult();
  case SValue::Kind::Object:
    emitError(loc, "the module '" +
                       (value.name.empty() ? std::string("self") : value.name) +
                       "' is used as a value, which is not supported (only "
                       "its attributes and methods are)");
    return failure();
  default:
    emitError(loc, "'" + value.name + "' is not a value");
    return failure();
  }
}

FailureOr<Value> Emitter::emitValue(const ast::Expr &expr) {
  FailureOr<SValue> value = emitExpr(expr);
  if (failed(value))
    return failure();
  return asValue(*value, expr.getLoc());
}

FailureOr<SValue> Emitter::callOperator(
    llvm::StringRef name, llvm::ArrayRef<Value> args,
    llvm::ArrayRef<std::pair<std::string, Value>> keywords, const char *loc) {
  // What freezing does to an eval-mode module: dropout with a constant
  // `train=False` is its input (PyTorch's removeDropout).
  static const llvm::StringSet<> kDropouts = {
      "aten::dropout",         "aten::dropout_",
      "aten::feature_dropout", "aten::feature_dropout_",
      "aten::alpha_dropout",   "aten::alpha_dropout_",
      "aten::feature_alpha_dropout", "aten::feature_alpha_dropout_"};
  if (kDropouts.contains(name) && args.size() == 3 && keywords.empty())
    if (auto train = llvm::dyn_cast_or_null<BoolAttr>(getConstantValue(args[2]));
        train && !train.getValue() &&
        llvm::isa<ts::TensorType>(args[0].getType()))
      return SValue::get(args[0]);
  // torch.device("cpu") is a device constant, as in a graph's text.
  if (name == "aten::device" && args.size() == 1 && keywords.empty())
    if (auto str = llvm::dyn_cast_or_null<StringAttr>(getConstantValue(args[0])))
      return SValue::get(buildConstant(builder, getLoc(loc),
                                       ts::DeviceType::get(context), str));

  CallArguments call;
  call.positional.append(args.begin(), args.end());
  call.keywords.append(keywords.begin(), keywords.end());
  std::string error;
  FailureOr<Operation *> op =
      buildOperatorCall(builder, getLoc(loc), name, call, error);
  if (failed(op)) {
    emitError(loc, error);
    return failure();
  }
  llvm::SmallVector<Value> results = foldIfPossible(builder, *op);
  if (results.size() == 1)
    return SValue::get(results.front());
  SValue multi;
  multi.kind = SValue::Kind::Multi;
  multi.values = results;
  return multi;
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

FailureOr<SValue> Emitter::emitExpr(const ast::Expr &expr) {
  const char *loc = expr.getLoc();
  switch (expr.getKind()) {
  case ast::Expr::Kind::Name:
    return emitName(llvm::cast<ast::Name>(expr));
  case ast::Expr::Kind::Constant: {
    auto &constant = llvm::cast<ast::Constant>(expr);
    switch (constant.getConstKind()) {
    case ast::Constant::ConstKind::None:
      return SValue::get(constantNone(loc));
    case ast::Constant::ConstKind::Bool:
      return SValue::get(constantBool(constant.getBoolValue(), loc));
    case ast::Constant::ConstKind::Int:
      return SValue::get(constantInt(constant.getIntValue(), loc));
    case ast::Constant::ConstKind::Float:
      return SValue::get(buildConstant(
          builder, getLoc(loc), ts::FloatType::get(context),
          builder.getF64FloatAttr(constant.getFloatValue())));
    case ast::Constant::ConstKind::String:
      return SValue::get(constantStr(constant.getStringValue(), loc));
    default:
      emitError(loc, "complex numbers and '...' are not supported here");
      return failure();
    }
  }
  case ast::Expr::Kind::Attribute:
    return emitAttribute(llvm::cast<ast::Attribute>(expr));
  case ast::Expr::Kind::Call:
    return emitCall(llvm::cast<ast::Call>(expr));
  case ast::Expr::Kind::Subscript:
    return emitSubscript(llvm::cast<ast::Subscript>(expr));
  case ast::Expr::Kind::Tuple: {
    llvm::SmallVector<Value> elements;
    for (const ast::ExprPtr &e : llvm::cast<ast::Tuple>(expr).getElements()) {
      FailureOr<Value> v = emitValue(*e);
      if (failed(v))
        return failure();
      elements.push_back(*v);
    }
    return SValue::get(
        ts::PrimTupleConstructOp::create(
            builder, getLoc(loc),
            ts::TupleType::get(context, llvm::to_vector(ValueRange(elements).getTypes()),
                               StringAttr()),
            elements)
            .getResult());
  }
  case ast::Expr::Kind::List:
    return emitList(llvm::cast<ast::List>(expr).getElements(), Type(), loc);
  case ast::Expr::Kind::Dict: {
    auto &dict = llvm::cast<ast::Dict>(expr);
    llvm::SmallVector<Value> operands;
    Type keyType, valueType;
    for (auto [k, v] : llvm::zip_equal(dict.getKeys(), dict.getValues())) {
      FailureOr<Value> key = emitValue(*k);
      FailureOr<Value> value = emitValue(*v);
      if (failed(key) || failed(value))
        return failure();
      operands.push_back(*key);
      operands.push_back(*value);
      keyType = key->getType();
      Type vt = value->getType();
      if (auto tensor = llvm::dyn_cast<ts::TensorType>(vt))
        vt = tensor.getUnrefined();
      valueType = vt;
    }
    if (!keyType) {
      keyType = ts::StrType::get(context);
      valueType = ts::TensorType::get(context);
    }
    return SValue::get(ts::PrimDictConstructOp::create(
                           builder, getLoc(loc),
                           ts::DictType::get(context, keyType, valueType),
                           operands)
                           .getResult());
  }
  case ast::Expr::Kind::BinOp: {
    auto &binop = llvm::cast<ast::BinOp>(expr);
    FailureOr<Value> lhs = emitValue(binop.getLHS());
    FailureOr<Value> rhs = emitValue(binop.getRHS());
    if (failed(lhs) || failed(rhs))
      return failure();
    llvm::StringRef op =
        llvm::StringSwitch<llvm::StringRef>(ast::getSpelling(binop.getOp()))
            .Case("+", "aten::add")
            .Case("-", "aten::sub")
            .Case("*", "aten::mul")
            .Case("/", "aten::div")
            .Case("//", "aten::floordiv")
            .Case("%", "aten::remainder")
            .Case("**", "aten::pow")
            .Case("<<", "aten::__lshift__")
            .Case(">>", "aten::__rshift__")
            .Case("&", "aten::__and__")
            .Case("|", "aten::__or__")
            .Case("^", "aten::__xor__")
            .Case("@", "aten::matmul")
            .Default("");
    return callOperator(op, {*lhs, *rhs}, {}, loc);
  }
  case ast::Expr::Kind::UnaryOp: {
    auto &unary = llvm::cast<ast::UnaryOp>(expr);
    FailureOr<Value> operand = emitValue(unary.getOperand());
    if (failed(operand))
      return failure();
    switch (unary.getOp()) {
    case ast::UnaryOpKind::UAdd:
      return SValue::get(*operand);
    case ast::UnaryOpKind::USub:
      return callOperator("aten::neg", {*operand}, {}, loc);
    case ast::UnaryOpKind::Not:
      return callOperator("aten::__not__", {*operand}, {}, loc);
    case ast::UnaryOpKind::Invert:
      return callOperator("aten::bitwise_not", {*operand}, {}, loc);
    }
    return failure();
  }
  case ast::Expr::Kind::BoolOp:
    return emitBoolOp(llvm::cast<ast::BoolOp>(expr));
  case ast::Expr::Kind::Compare:
    return emitCompare(llvm::cast<ast::Compare>(expr));
  case ast::Expr::Kind::IfExp:
    return emitIfExp(llvm::cast<ast::IfExp>(expr));
  case ast::Expr::Kind::Slice:
    emitError(loc, "a slice outside a subscript");
    return failure();
  }
  return failure();
}

FailureOr<SValue> Emitter::emitName(const ast::Name &name) {
  llvm::StringRef id = name.getId();
  auto it = frame->env.find(id);
  if (it != frame->env.end())
    return it->second;
  if (id == "torch" || id == "ops" || id == "__torch__" || id == "math" ||
      id == "builtins")
    return SValue::get(SValue::Kind::Namespace, id);
  if (id == "CONSTANTS")
    return SValue::get(SValue::Kind::Constants, id);
  static const char *const kBuiltins[] = {
      "annotate", "unchecked_cast", "uninitialized", "isinstance", "int",
      "float",    "bool",           "str",           "len",        "range",
      "getattr",  "hasattr",        "print",         "min",        "max",
      "abs",      "list",           "tuple",         "fork",       "wait",
      "inf",      "nan",            "round",         "divmod",     "ord",
      "chr",      "sum",            "any",           "all",        "enumerate",
      "zip"};
  for (const char *builtin : kBuiltins)
    if (id == builtin) {
      if (id == "inf" || id == "nan")
        return SValue::get(buildConstant(
            builder, getLoc(name.getLoc()), ts::FloatType::get(context),
            builder.getF64FloatAttr(
                id == "inf" ? std::numeric_limits<double>::infinity()
                            : std::numeric_limits<double>::quiet_NaN())));
      return SValue::get(SValue::Kind::Builtin, id);
    }
  emitError(name.getLoc(), "undefined name '" + id + "'");
  return failure();
}

FailureOr<SValue> Emitter::emitAttribute(const ast::Attribute &expr) {
  FailureOr<SValue> base = emitExpr(expr.getValue());
  if (failed(base))
    return failure();
  llvm::StringRef attr = expr.getAttr();
  const char *loc = expr.getAttrLoc();
  switch (base->kind) {
  case SValue::Kind::Namespace: {
    std::string path = base->name + "." + attr.str();
    if (llvm::StringRef(path).starts_with("__torch__."))
      return resolveQualified(path, getLoc(loc));
    if (path == "math.pi" || path == "math.e" || path == "math.inf" ||
        path == "math.nan") {
      double v = path == "math.pi"  ? M_PI
                 : path == "math.e" ? M_E
                 : path == "math.inf"
                     ? std::numeric_limits<double>::infinity()
                     : std::numeric_limits<double>::quiet_NaN();
      return SValue::get(buildConstant(builder, getLoc(loc),
                                       ts::FloatType::get(context),
                                       builder.getF64FloatAttr(v)));
    }
    return SValue::get(SValue::Kind::Namespace, path);
  }
  case SValue::Kind::Constants: {
    int64_t index;
    if (!attr.starts_with("c") || attr.drop_front().getAsInteger(10, index)) {
      emitError(loc, "expected CONSTANTS.c<N>");
      return failure();
    }
    return getConstantTensor(index, loc);
  }
  case SValue::Kind::Object:
    return getObjectAttr(*base, attr, loc);
  case SValue::Kind::Value:
  case SValue::Kind::Multi: {
    FailureOr<Value> value = asValue(*base, loc);
    if (failed(value))
      return failure();
    Type type = value->getType();
    if (llvm::isa<ts::TensorType>(type)) {
      llvm::StringRef op = llvm::StringSwitch<llvm::StringRef>(attr)
                               .Case("shape", "aten::size")
                               .Case("dtype", "prim::dtype")
                               .Case("device", "prim::device")
                               .Case("is_cuda", "prim::is_cuda")
                               .Case("data", "prim::data")
                               .Case("requires_grad", "prim::requires_grad")
                               .Case("ndim", "aten::dim")
                               .Case("T", "aten::numpy_T")
                               .Case("layout", "prim::layout")
                               .Case("is_quantized", "prim::is_quantized")
                               .Case("is_meta", "prim::is_meta")
                               .Default("");
      if (!op.empty())
        return callOperator(op, {*value}, {}, loc);
    }
    // A NamedTuple's field.
    if (auto tuple = llvm::dyn_cast<ts::TupleType>(type);
        tuple && tuple.getName()) {
      FailureOr<const ClassInfo *> cls =
          getClass(tuple.getName().getValue(), getLoc(loc));
      if (failed(cls))
        return failure();
      unsigned index = 0;
      for (auto &[field, decl] : (*cls)->attributes) {
        if (field == attr)
          return callOperator("prim::TupleIndex", {*value,
                              constantInt(index, loc)}, {}, loc);
        ++index;
      }
    }
    SValue method = SValue::get(SValue::Kind::ValueMethod, attr);
    method.value = *value;
    return method;
  }
  case SValue::Kind::Class:
    // `C.__new__(C)`, how PyTorch prints the creation of an object.
    if (attr == "__new__") {
      SValue v = SValue::get(SValue::Kind::Builtin, "__new__");
      v.cls = base->cls;
      return v;
    }
    [[fallthrough]];
  default:
    emitError(loc, "'" + base->name + "' has no attribute '" + attr + "'");
    return failure();
  }
}

FailureOr<SValue> Emitter::emitList(llvm::ArrayRef<ast::ExprPtr> elements,
                                    Type elementType, const char *loc) {
  llvm::SmallVector<Value> values;
  for (const ast::ExprPtr &e : elements) {
    FailureOr<Value> v = emitValue(*e);
    if (failed(v))
      return failure();
    values.push_back(*v);
  }
  if (!elementType) {
    // The elements' type, unified: ints and floats do not mix.
    for (Value v : values) {
      Type t = v.getType();
      if (auto tensor = llvm::dyn_cast<ts::TensorType>(t))
        t = tensor.getUnrefined();
      elementType = elementType ? unifyTypes(elementType, t) : t;
      if (!elementType) {
        emitError(loc, "list elements of different types");
        return failure();
      }
    }
    if (!elementType)
      elementType = ts::TensorType::get(context);
  }
  return SValue::get(ts::PrimListConstructOp::create(
                         builder, getLoc(loc),
                         ts::ListType::get(context, elementType), values)
                         .getResult());
}

FailureOr<SValue> Emitter::emitBoolOp(const ast::BoolOp &expr) {
  bool isAnd = expr.getOp() == ast::BoolOpKind::And;
  llvm::ArrayRef<ast::ExprPtr> values = expr.getValues();
  FailureOr<Value> first = emitValue(*values.front());
  if (failed(first))
    return failure();
  Value result = *first;
  for (const ast::ExprPtr &next : values.drop_front()) {
    if (!llvm::isa<ts::BoolType>(result.getType())) {
      FailureOr<SValue> b = callOperator("aten::Bool", {result}, {},
                                         expr.getLoc());
      if (failed(b))
        return failure();
      result = b->value;
    }
    // Short circuit: `a and b` is `b if a else False`.
    if (auto known = llvm::dyn_cast_or_null<BoolAttr>(getConstantValue(result))) {
      if (known.getValue() != isAnd)
        return SValue::get(result);
      FailureOr<Value> v = emitValue(*next);
      if (failed(v))
        return failure();
      result = *v;
      continue;
    }
    OperationState state(getLoc(expr.getLoc()),
                         ts::PrimIfOp::getOperationName());
    state.addOperands(result);
    state.addTypes(ts::BoolType::get(context));
    auto evaluated = std::make_unique<Block>();
    auto shortCut = std::make_unique<Block>();
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToEnd(evaluated.get());
      FailureOr<Value> v = emitValue(*next);
      if (failed(v))
        return failure();
      Value b = *v;
      if (!llvm::isa<ts::BoolType>(b.getType())) {
        FailureOr<SValue> converted =
            callOperator("aten::Bool", {b}, {}, next->getLoc());
        if (failed(converted))
          return failure();
        b = converted->value;
      }
      ts::PrimYieldOp::create(builder, getLoc(expr.getLoc()), b);
      builder.setInsertionPointToEnd(shortCut.get());
      ts::PrimYieldOp::create(builder, getLoc(expr.getLoc()),
                              constantBool(!isAnd, expr.getLoc()));
    }
    state.addRegion()->push_back(isAnd ? evaluated.release()
                                       : shortCut.release());
    state.addRegion()->push_back(isAnd ? shortCut.release()
                                       : evaluated.release());
    result = builder.create(state)->getResult(0);
  }
  return SValue::get(result);
}

FailureOr<SValue> Emitter::emitCompare(const ast::Compare &expr) {
  FailureOr<Value> left = emitValue(expr.getLeft());
  if (failed(left))
    return failure();
  Value result;
  for (auto [op, comparator] :
       llvm::zip_equal(expr.getOps(), expr.getComparators())) {
    FailureOr<Value> right = emitValue(*comparator);
    if (failed(right))
      return failure();
    FailureOr<SValue> cmp = failure();
    const char *loc = expr.getLoc();
    if (op == ast::CmpOpKind::In || op == ast::CmpOpKind::NotIn) {
      // `a in xs` is `xs.__contains__(a)`.
      cmp = callOperator("aten::__contains__", {*right, *left}, {}, loc);
      if (succeeded(cmp) && op == ast::CmpOpKind::NotIn)
        cmp = callOperator("aten::__not__", {cmp->value}, {}, loc);
    } else {
      llvm::StringRef name = llvm::StringSwitch<llvm::StringRef>(
                                 ast::getSpelling(op))
                                 .Case("==", "aten::eq")
                                 .Case("!=", "aten::ne")
                                 .Case("<", "aten::lt")
                                 .Case("<=", "aten::le")
                                 .Case(">", "aten::gt")
                                 .Case(">=", "aten::ge")
                                 .Case("is", "aten::__is__")
                                 .Case("is not", "aten::__isnot__")
                                 .Default("");
      cmp = callOperator(name, {*left, *right}, {}, loc);
    }
    if (failed(cmp))
      return failure();
    if (!result) {
      result = cmp->value;
    } else {
      FailureOr<SValue> both =
          callOperator("aten::__and__", {result, cmp->value}, {}, loc);
      if (failed(both))
        return failure();
      result = both->value;
    }
    left = right;
  }
  return SValue::get(result);
}

FailureOr<SValue> Emitter::emitIfExp(const ast::IfExp &expr) {
  FailureOr<Value> cond = emitValue(expr.getTest());
  if (failed(cond))
    return failure();
  if (auto known = llvm::dyn_cast_or_null<BoolAttr>(getConstantValue(*cond)))
    return emitExpr(known.getValue() ? expr.getBody() : expr.getOrElse());
  auto thenBlock = std::make_unique<Block>();
  auto elseBlock = std::make_unique<Block>();
  Value thenValue, elseValue;
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(thenBlock.get());
    FailureOr<Value> t = emitValue(expr.getBody());
    if (failed(t))
      return failure();
    thenValue = *t;
    builder.setInsertionPointToEnd(elseBlock.get());
    FailureOr<Value> e = emitValue(expr.getOrElse());
    if (failed(e))
      return failure();
    elseValue = *e;
  }
  Type type = unifyTypes(thenValue.getType(), elseValue.getType());
  if (!type)
    type = thenValue.getType();
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(thenBlock.get());
    ts::PrimYieldOp::create(builder, getLoc(expr.getLoc()), thenValue);
    builder.setInsertionPointToEnd(elseBlock.get());
    ts::PrimYieldOp::create(builder, getLoc(expr.getLoc()), elseValue);
  }
  OperationState state(getLoc(expr.getLoc()), ts::PrimIfOp::getOperationName());
  state.addOperands(*cond);
  state.addTypes(type);
  state.addRegion()->push_back(thenBlock.release());
  state.addRegion()->push_back(elseBlock.release());
  return SValue::get(builder.create(state)->getResult(0));
}

//===----------------------------------------------------------------------===//
// Subscripts
//===----------------------------------------------------------------------===//

LogicalResult Emitter::emitSliceBounds(const ast::Slice &slice,
                                       const char *loc,
                                       llvm::SmallVectorImpl<Value> &bounds) {
  // `a:b:c`: a missing start or end is None, a missing step 1.
  for (const ast::Expr *part :
       {slice.getLower(), slice.getUpper(), slice.getStep()}) {
    if (!part) {
      bounds.push_back(bounds.size() == 2 ? constantInt(1, loc)
                                          : constantNone(loc));
      continue;
    }
    FailureOr<Value> v = emitValue(*part);
    if (failed(v))
      return failure();
    bounds.push_back(*v);
  }
  return success();
}

FailureOr<SValue> Emitter::emitSubscript(const ast::Subscript &expr) {
  FailureOr<SValue> base = emitExpr(expr.getValue());
  if (failed(base))
    return failure();
  const char *loc = expr.getLoc();
  FailureOr<Value> value = asValue(*base, loc);
  if (failed(value))
    return failure();
  Type type = value->getType();
  if (llvm::isa<ts::TensorType>(type))
    return emitTensorIndex(*value, expr.getIndex(), loc);
  if (auto *slice = llvm::dyn_cast<ast::Slice>(&expr.getIndex())) {
    llvm::SmallVector<Value> bounds;
    if (failed(emitSliceBounds(*slice, loc, bounds)))
      return failure();
    if (llvm::isa<ts::TupleType>(type)) {
      emitError(loc, "tuple slices are not supported");
      return failure();
    }
    return callOperator("aten::slice", {*value, bounds[0], bounds[1], bounds[2]},
                        {}, loc);
  }
  FailureOr<Value> index = emitValue(expr.getIndex());
  if (failed(index))
    return failure();
  if (auto tuple = llvm::dyn_cast<ts::TupleType>(type)) {
    auto known = llvm::dyn_cast_or_null<IntegerAttr>(getConstantValue(*index));
    if (!known) {
      emitError(loc, "a tuple's index must be a constant");
      return failure();
    }
    int64_t i = known.getInt();
    int64_t n = tuple.getElementTypes().size();
    if (i < 0)
      i += n;
    if (i < 0 || i >= n) {
      emitError(loc, "tuple index " + llvm::Twine(known.getInt()) +
                         " out of range for a tuple of " + llvm::Twine(n));
      return failure();
    }
    if (auto construct = value->getDefiningOp<ts::PrimTupleConstructOp>())
      return SValue::get(construct->getOperand(i));
    return SValue::get(ts::PrimTupleIndexOp::create(
                           builder, getLoc(loc), tuple.getElementTypes()[i],
                           *value, constantInt(i, loc))
                           .getResult());
  }
  return callOperator("aten::__getitem__", {*value, *index}, {}, loc);
}

FailureOr<SValue> Emitter::emitTensorIndex(Value tensor,
                                           const ast::Expr &index,
                                           const char *loc) {
  llvm::SmallVector<const ast::Expr *> indices;
  if (auto *tuple = llvm::dyn_cast<ast::Tuple>(&index))
    for (const ast::ExprPtr &e : tuple->getElements())
      indices.push_back(e.get());
  else
    indices.push_back(&index);
  Value result = tensor;
  int64_t dim = 0;
  llvm::SmallVector<Value> tensorIndices;
  bool advanced = false;
  for (const ast::Expr *e : indices) {
    if (auto *slice = llvm::dyn_cast<ast::Slice>(e)) {
      llvm::SmallVector<Value> bounds;
      if (failed(emitSliceBounds(*slice, loc, bounds)))
        return failure();
      FailureOr<SValue> sliced = callOperator(
          "aten::slice",
          {result, constantInt(dim, loc), bounds[0], bounds[1], bounds[2]}, {},
          loc);
      if (failed(sliced))
        return failure();
      result = sliced->value;
      tensorIndices.push_back(constantNone(loc));
      ++dim;
      continue;
    }
    if (auto *constant = llvm::dyn_cast<ast::Constant>(e)) {
      if (constant->getConstKind() == ast::Constant::ConstKind::None) {
        FailureOr<SValue> unsqueezed = callOperator(
            "aten::unsqueeze", {result, constantInt(dim, loc)}, {}, loc);
        if (failed(unsqueezed))
          return failure();
        result = unsqueezed->value;
        tensorIndices.push_back(constantNone(loc));
        ++dim;
        continue;
      }
      if (constant->getConstKind() == ast::Constant::ConstKind::Ellipsis) {
        emitError(e->getLoc(), "'...' in a tensor index is not supported");
        return failure();
      }
    }
    FailureOr<Value> v = emitValue(*e);
    if (failed(v))
      return failure();
    if (llvm::isa<ts::IntType>(v->getType())) {
      FailureOr<SValue> selected = callOperator(
          "aten::select", {result, constantInt(dim, loc), *v}, {}, loc);
      if (failed(selected))
        return failure();
      result = selected->value;
      continue;
    }
    if (llvm::isa<ts::TensorType>(v->getType())) {
      tensorIndices.push_back(*v);
      advanced = true;
      ++dim;
      continue;
    }
    emitError(e->getLoc(), "unsupported tensor index");
    return failure();
  }
  if (!advanced)
    return SValue::get(result);
  // Tensor indices: aten::index with None for the dimensions sliced above.
  while (!tensorIndices.empty() &&
         llvm::isa<ts::NoneType>(tensorIndices.back().getType()))
    tensorIndices.pop_back();
  Type optionalTensor =
      ts::OptionalType::get(context, ts::TensorType::get(context));
  Value list = ts::PrimListConstructOp::create(
                   builder, getLoc(loc), ts::ListType::get(context, optionalTensor),
                   tensorIndices)
                   .getResult();
  return callOperator("aten::index", {result, list}, {}, loc);
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

FailureOr<SValue> Emitter::inlineCall(
    const ast::FunctionDef &function, llvm::StringRef modulePath,
    const SValue *self, llvm::ArrayRef<SValue> args,
    llvm::ArrayRef<std::pair<std::string, SValue>> keywords,
    const char *loc) {
  if (inlineDepth >= kMaxInlineDepth) {
    emitError(loc, "calls nested deeper than " + llvm::Twine(kMaxInlineDepth) +
                       " levels (recursion is not supported)");
    return failure();
  }
  llvm::ArrayRef<ast::Param> params = function.getParams();
  Frame callee;
  callee.modulePath = modulePath.str();
  callee.callLoc = getLoc(loc);
  if (self) {
    if (params.empty()) {
      emitError(function.getLoc(), "a method without 'self'");
      return failure();
    }
    callee.env[params.front().name] = *self;
    params = params.drop_front();
  }
  if (args.size() > params.size()) {
    emitError(loc, "'" + function.getName() + "' takes " +
                       llvm::Twine(params.size()) + " arguments, but " +
                       llvm::Twine(args.size()) + " were given");
    return failure();
  }
  llvm::SmallVector<std::optional<SValue>> bound(params.size());
  for (auto [i, arg] : llvm::enumerate(args))
    bound[i] = arg;
  for (const auto &[name, value] : keywords) {
    llvm::StringRef key = name;
    auto it = llvm::find_if(params,
                            [&](const ast::Param &p) { return p.name == key; });
    if (it == params.end()) {
      emitError(loc, "'" + function.getName() + "' has no argument '" + name +
                         "'");
      return failure();
    }
    bound[it - params.begin()] = value;
  }
  // Defaults are evaluated in the callee's module.
  Frame *caller = frame;
  for (auto [param, value] : llvm::zip_equal(params, bound)) {
    if (value) {
      callee.env[param.name] = *value;
      continue;
    }
    if (!param.defaultValue) {
      emitError(loc, "argument '" + param.name + "' of '" +
                         function.getName() + "' is missing");
      return failure();
    }
    frame = &callee;
    FailureOr<SValue> v = emitExpr(*param.defaultValue);
    frame = caller;
    if (failed(v))
      return failure();
    callee.env[param.name] = *v;
  }
  ++inlineDepth;
  frame = &callee;
  bool raised = blockRaised;
  blockRaised = false;
  LogicalResult result = emitBlock(function.getBody());
  blockRaised = raised;
  frame = caller;
  --inlineDepth;
  if (failed(result))
    return failure();
  if (!callee.returned) {
    SValue none;
    none.kind = SValue::Kind::Multi;
    return none;
  }
  return *callee.returned;
}

FailureOr<SValue> Emitter::emitCall(const ast::Call &call) {
  FailureOr<SValue> callee = emitExpr(call.getFunc());
  if (failed(callee))
    return failure();
  const char *loc = call.getLoc();
  if (callee->kind == SValue::Kind::Builtin)
    return emitBuiltinCall(*callee, call);

  llvm::SmallVector<SValue> args;
  for (const ast::ExprPtr &arg : call.getArgs()) {
    FailureOr<SValue> v = emitExpr(*arg);
    if (failed(v))
      return failure();
    args.push_back(*v);
  }
  llvm::SmallVector<std::pair<std::string, SValue>> keywords;
  for (const ast::Keyword &kw : call.getKeywords()) {
    FailureOr<SValue> v = emitExpr(*kw.value);
    if (failed(v))
      return failure();
    keywords.emplace_back(kw.name, *v);
  }
  auto toValues = [&](llvm::SmallVectorImpl<Value> &values,
                      llvm::SmallVectorImpl<std::pair<std::string, Value>>
                          &kwValues) -> LogicalResult {
    for (const SValue &a : args) {
      FailureOr<Value> v = asValue(a, loc);
      if (failed(v))
        return failure();
      values.push_back(*v);
    }
    for (auto &[name, a] : keywords) {
      FailureOr<Value> v = asValue(a, loc);
      if (failed(v))
        return failure();
      kwValues.emplace_back(name, *v);
    }
    return success();
  };

  switch (callee->kind) {
  case SValue::Kind::Function:
    return inlineCall(*callee->function, callee->modulePath, nullptr, args,
                      keywords, loc);
  case SValue::Kind::Method: {
    SValue self = *callee;
    self.kind = SValue::Kind::Object;
    self.function = nullptr;
    return inlineCall(*callee->function, callee->modulePath, &self, args,
                      keywords, loc);
  }
  case SValue::Kind::ValueMethod: {
    // torch.no_grad's `__init__` sets `prev` to False.
    if (auto cls = llvm::dyn_cast<ts::ClassType>(callee->value.getType());
        cls && cls.getName() == ts::kNoGradClass &&
        callee->name == "__init__" && args.empty() && keywords.empty()) {
      ts::PrimSetAttrOp::create(builder, getLoc(loc), callee->value,
                                builder.getStringAttr("prev"),
                                constantBool(false, loc));
      return SValue::get(constantNone(loc));
    }
    llvm::SmallVector<Value> values{callee->value};
    llvm::SmallVector<std::pair<std::string, Value>> kwValues;
    if (failed(toValues(values, kwValues)))
      return failure();
    return callOperator("aten::" + callee->name, values, kwValues, loc);
  }
  case SValue::Kind::Class: {
    if (!callee->cls->isNamedTuple) {
      emitError(loc, "creating an object of class '" + callee->name +
                         "' is not supported");
      return failure();
    }
    llvm::SmallVector<Value> values;
    llvm::SmallVector<std::pair<std::string, Value>> kwValues;
    if (failed(toValues(values, kwValues)))
      return failure();
    FailureOr<Type> type = convertType(call.getFunc());
    if (failed(type))
      return failure();
    return SValue::get(ts::PrimTupleConstructOp::create(builder, getLoc(loc),
                                                        *type, values)
                           .getResult());
  }
  case SValue::Kind::Namespace: {
    llvm::StringRef path = callee->name;
    std::string op;
    if (path.starts_with("torch.")) {
      llvm::StringRef rest = path.drop_front(6);
      if (rest.contains('.')) {
        emitError(loc, "unsupported call of '" + path + "'");
        return failure();
      }
      op = ("aten::" + rest).str();
    } else if (path.starts_with("ops.")) {
      auto [ns, name] = path.drop_front(4).split('.');
      op = (ns + "::" + name).str();
    } else if (path.starts_with("math.")) {
      op = ("aten::" + path.drop_front(5)).str();
    } else {
      emitError(loc, "'" + path + "' is not defined by the archive's code");
      return failure();
    }
    llvm::SmallVector<Value> values;
    llvm::SmallVector<std::pair<std::string, Value>> kwValues;
    if (failed(toValues(values, kwValues)))
      return failure();
    // ops.prim.RaiseException ends the block.
    if (op == "prim::RaiseException") {
      if (values.empty() || values.size() > 2 || !kwValues.empty()) {
        emitError(loc, "prim::RaiseException takes a message and an optional "
                       "class name");
        return failure();
      }
      if (failed(emitRaise(values[0], values.size() > 1 ? values[1] : Value(),
                           loc)))
        return failure();
      SValue none;
      none.kind = SValue::Kind::Multi;
      return none;
    }
    return callOperator(op, values, kwValues, loc);
  }
  default:
    emitError(loc, "this value cannot be called");
    return failure();
  }
}

FailureOr<SValue> Emitter::emitBuiltinCall(const SValue &callee,
                                           const ast::Call &call) {
  llvm::StringRef name = callee.name;
  const char *loc = call.getLoc();
  llvm::ArrayRef<ast::ExprPtr> args = call.getArgs();
  // A new object, uninitialised (its `__init__` call follows), as the
  // graph's prim::CreateObject: only torch.no_grad's is understood
  // (canonicalization removes it with its `with` block's enter and exit).
  if (name == "__new__" && callee.cls) {
    if (callee.cls->qualifiedName != ts::kNoGradClass) {
      emitError(loc, "creating an object of class '" +
                         callee.cls->qualifiedName + "' is not supported");
      return failure();
    }
    OperationState state(getLoc(loc), ts::OperatorOp::getOperationName());
    state.addAttribute("kind", builder.getStringAttr("prim::CreateObject"));
    state.addTypes(ts::ClassType::get(context, callee.cls->qualifiedName));
    return SValue::get(builder.create(state)->getResult(0));
  }
  auto expectArgs = [&](size_t min, size_t max) {
    if (args.size() >= min && args.size() <= max && call.getKeywords().empty())
      return true;
    emitError(loc, "'" + name + "' takes " + llvm::Twine(min) +
                       (min == max ? "" : " to " + llvm::Twine(max)) +
                       " arguments");
    return false;
  };

  // Builtins whose first argument is a type.
  if (name == "annotate" || name == "unchecked_cast") {
    if (!expectArgs(2, 2))
      return failure();
    FailureOr<Type> type = convertType(*args[0]);
    if (failed(type))
      return failure();
    // annotate(List[T], []) types an empty list; annotate(Dict[K, V], {}).
    if (name == "annotate") {
      if (auto *list = llvm::dyn_cast<ast::List>(args[1].get()))
        if (auto listType = llvm::dyn_cast<ts::ListType>(*type))
          return emitList(list->getElements(), listType.getElementType(),
                          args[1]->getLoc());
      if (auto *dict = llvm::dyn_cast<ast::Dict>(args[1].get());
          dict && dict->getKeys().empty() && llvm::isa<ts::DictType>(*type))
        return SValue::get(ts::PrimDictConstructOp::create(
                               builder, getLoc(loc), *type, ValueRange())
                               .getResult());
    }
    FailureOr<Value> value = emitValue(*args[1]);
    if (failed(value))
      return failure();
    if (value->getType() == *type)
      return SValue::get(*value);
    if (name == "annotate" && ts::isValidSubtype(value->getType(), *type))
      return SValue::get(*value);
    // A None known now cannot become a T.
    if (llvm::isa<ts::NoneType>(value->getType()) &&
        !llvm::isa<ts::OptionalType, ts::NoneType>(*type))
      return SValue::get(ts::PrimUninitializedOp::create(builder, getLoc(loc),
                                                        *type)
                             .getResult());
    return SValue::get(ts::PrimUncheckedCastOp::create(builder, getLoc(loc),
                                                      *type, *value)
                           .getResult());
  }
  if (name == "uninitialized") {
    if (!expectArgs(1, 1))
      return failure();
    FailureOr<Type> type = convertType(*args[0]);
    if (failed(type))
      return failure();
    return SValue::get(
        ts::PrimUninitializedOp::create(builder, getLoc(loc), *type)
            .getResult());
  }
  if (name == "isinstance") {
    if (!expectArgs(2, 2))
      return failure();
    FailureOr<Value> value = emitValue(*args[0]);
    if (failed(value))
      return failure();
    llvm::SmallVector<const ast::Expr *> typeExprs;
    if (auto *tuple = llvm::dyn_cast<ast::Tuple>(args[1].get()))
      for (const ast::ExprPtr &e : tuple->getElements())
        typeExprs.push_back(e.get());
    else
      typeExprs.push_back(args[1].get());
    bool result = false;
    for (const ast::Expr *e : typeExprs) {
      FailureOr<Type> type = convertType(*e);
      if (failed(type))
        return failure();
      result |= ts::isValidSubtype(value->getType(), *type);
    }
    return SValue::get(constantBool(result, loc));
  }
  if (name == "getattr" || name == "hasattr") {
    if (!expectArgs(2, 2))
      return failure();
    FailureOr<SValue> object = emitExpr(*args[0]);
    if (failed(object))
      return failure();
    auto *attrName = llvm::dyn_cast<ast::Constant>(args[1].get());
    if (!attrName ||
        attrName->getConstKind() != ast::Constant::ConstKind::String) {
      emitError(args[1]->getLoc(), "the attribute name must be a string");
      return failure();
    }
    if (object->kind != SValue::Kind::Object) {
      emitError(loc, "'" + name + "' of a value that is not a module");
      return failure();
    }
    if (name == "hasattr")
      return SValue::get(constantBool(
          object->object->object.getAttribute(attrName->getStringValue()) ||
              object->cls->attributes.count(attrName->getStringValue()) ||
              object->cls->methods.count(attrName->getStringValue()),
          loc));
    return getObjectAttr(*object, attrName->getStringValue(), loc);
  }

  // The rest take values.
  llvm::SmallVector<Value> values;
  for (const ast::ExprPtr &arg : args) {
    FailureOr<Value> v = emitValue(*arg);
    if (failed(v))
      return failure();
    values.push_back(*v);
  }
  llvm::SmallVector<std::pair<std::string, Value>> keywords;
  for (const ast::Keyword &kw : call.getKeywords()) {
    FailureOr<Value> v = emitValue(*kw.value);
    if (failed(v))
      return failure();
    keywords.emplace_back(kw.name, *v);
  }
  if (name == "float" && values.size() == 1)
    if (auto str = llvm::dyn_cast_or_null<StringAttr>(
            getConstantValue(values[0]))) {
      double v;
      llvm::StringRef text = str.getValue().trim();
      if (text == "inf" || text == "+inf")
        v = std::numeric_limits<double>::infinity();
      else if (text == "-inf")
        v = -std::numeric_limits<double>::infinity();
      else if (text == "nan")
        v = std::numeric_limits<double>::quiet_NaN();
      else if (text.getAsDouble(v)) {
        emitError(loc, "could not convert '" + text + "' to a float");
        return failure();
      }
      return SValue::get(buildConstant(builder, getLoc(loc),
                                       ts::FloatType::get(context),
                                       builder.getF64FloatAttr(v)));
    }
  llvm::StringRef op = llvm::StringSwitch<llvm::StringRef>(name)
                           .Case("int", "aten::Int")
                           .Case("float", "aten::Float")
                           .Case("bool", "aten::Bool")
                           .Case("str", "aten::str")
                           .Case("len", "aten::len")
                           .Case("print", "prim::Print")
                           .Case("min", "prim::min")
                           .Case("max", "prim::max")
                           .Case("abs", "prim::abs")
                           .Case("list", "aten::list")
                           .Case("round", "aten::round")
                           .Case("divmod", "aten::divmod")
                           .Case("ord", "aten::ord")
                           .Case("chr", "aten::chr")
                           .Case("sum", "aten::sum")
                           .Case("any", "aten::any")
                           .Case("all", "aten::all")
                           .Default("");
  if (name == "print") {
    OperationState state(getLoc(loc), ts::PrimPrintOp::getOperationName());
    state.addOperands(values);
    builder.create(state);
    SValue none;
    none.kind = SValue::Kind::Multi;
    return none;
  }
  if (op.empty()) {
    emitError(loc, "the builtin '" + name + "' is not supported here");
    return failure();
  }
  return callOperator(op, values, keywords, loc);
}
