//===- EmitStmt.cpp - Statements to ts ops --------------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Statements, with Python's function-wide scoping turned into SSA form: a
// variable assigned in a branch of an `if` becomes a result of the
// prim::If when both branches leave it defined; one assigned in a loop body
// and defined before the loop is carried by the prim::Loop.
//
//===----------------------------------------------------------------------===//

#include "CallBinding.h"
#include "Emitter.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"
#include "llvm/ADT/SetVector.h"

#include <limits>

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::pt;

//===----------------------------------------------------------------------===//
// Assigned names
//===----------------------------------------------------------------------===//

static void collectTargetNames(const ast::Expr &target,
                               llvm::SetVector<llvm::StringRef> &names) {
  if (auto *name = llvm::dyn_cast<ast::Name>(&target)) {
    names.insert(name->getId());
  } else if (auto *tuple = llvm::dyn_cast<ast::Tuple>(&target)) {
    for (const ast::ExprPtr &e : tuple->getElements())
      collectTargetNames(*e, names);
  } else if (auto *list = llvm::dyn_cast<ast::List>(&target)) {
    for (const ast::ExprPtr &e : list->getElements())
      collectTargetNames(*e, names);
  }
}

/// The names a list of statements assigns, nested blocks included, in
/// order of first assignment.
static void collectAssignedNames(llvm::ArrayRef<ast::StmtPtr> stmts,
                                 llvm::SetVector<llvm::StringRef> &names) {
  for (const ast::StmtPtr &stmt : stmts) {
    if (auto *assign = llvm::dyn_cast<ast::Assign>(stmt.get())) {
      for (const ast::ExprPtr &target : assign->getTargets())
        collectTargetNames(*target, names);
    } else if (auto *aug = llvm::dyn_cast<ast::AugAssign>(stmt.get())) {
      collectTargetNames(aug->getTarget(), names);
    } else if (auto *ann = llvm::dyn_cast<ast::AnnAssign>(stmt.get())) {
      collectTargetNames(ann->getTarget(), names);
    } else if (auto *ifStmt = llvm::dyn_cast<ast::If>(stmt.get())) {
      collectAssignedNames(ifStmt->getBody(), names);
      collectAssignedNames(ifStmt->getOrElse(), names);
    } else if (auto *loop = llvm::dyn_cast<ast::While>(stmt.get())) {
      collectAssignedNames(loop->getBody(), names);
    } else if (auto *loop = llvm::dyn_cast<ast::For>(stmt.get())) {
      collectTargetNames(loop->getTarget(), names);
      collectAssignedNames(loop->getBody(), names);
    } else if (auto *with = llvm::dyn_cast<ast::With>(stmt.get())) {
      collectAssignedNames(with->getBody(), names);
    }
  }
}

Type pt::unifyTypes(Type a, Type b) {
  if (a == b)
    return a;
  MLIRContext *context = a.getContext();
  if (llvm::isa<ts::TensorType>(a) && llvm::isa<ts::TensorType>(b))
    return ts::TensorType::get(context);
  if (ts::isValidSubtype(a, b))
    return b;
  if (ts::isValidSubtype(b, a))
    return a;
  if (llvm::isa<ts::NoneType>(a))
    return ts::OptionalType::get(context, b);
  if (llvm::isa<ts::NoneType>(b))
    return ts::OptionalType::get(context, a);
  auto optA = llvm::dyn_cast<ts::OptionalType>(a);
  auto optB = llvm::dyn_cast<ts::OptionalType>(b);
  if (optA || optB) {
    Type inner = unifyTypes(optA ? optA.getContainedType() : a,
                            optB ? optB.getContainedType() : b);
    return inner ? Type(ts::OptionalType::get(context, inner)) : Type();
  }
  auto listA = llvm::dyn_cast<ts::ListType>(a);
  auto listB = llvm::dyn_cast<ts::ListType>(b);
  if (listA && listB) {
    Type inner = unifyTypes(listA.getElementType(), listB.getElementType());
    return inner ? Type(ts::ListType::get(context, inner)) : Type();
  }
  auto tupleA = llvm::dyn_cast<ts::TupleType>(a);
  auto tupleB = llvm::dyn_cast<ts::TupleType>(b);
  if (tupleA && tupleB &&
      tupleA.getElementTypes().size() == tupleB.getElementTypes().size()) {
    llvm::SmallVector<Type> elements;
    for (auto [x, y] :
         llvm::zip_equal(tupleA.getElementTypes(), tupleB.getElementTypes())) {
      Type e = unifyTypes(x, y);
      if (!e)
        return {};
      elements.push_back(e);
    }
    return ts::TupleType::get(context, elements, tupleA.getName());
  }
  return {};
}

static bool sameSugared(const SValue &a, const SValue &b) {
  return a.kind == b.kind && a.value == b.value && a.object == b.object &&
         a.name == b.name && a.function == b.function && a.cls == b.cls &&
         a.values == b.values;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

LogicalResult Emitter::emitBlock(llvm::ArrayRef<ast::StmtPtr> stmts) {
  for (const ast::StmtPtr &stmt : stmts) {
    if (frame->returned)
      return emitError(stmt->getLoc(), "code after a return statement is not "
                                       "supported"),
             failure();
    if (failed(emitStmt(*stmt)))
      return failure();
  }
  return success();
}

LogicalResult Emitter::emitRaise(Value message, Value cls, const char *loc) {
  if (!cls)
    cls = constantNone(loc);
  OperationState state(getLoc(loc), ts::PrimRaiseExceptionOp::getOperationName());
  state.addOperands({message, cls});
  builder.create(state);
  blockRaised = true;
  return success();
}

void Emitter::emitContextNode(llvm::StringRef kind, Value object,
                              const char *loc) {
  OperationState state(getLoc(loc), ts::OperatorOp::getOperationName());
  state.addAttribute("kind", builder.getStringAttr(kind));
  state.addOperands(object);
  state.addTypes(ts::NoneType::get(context));
  builder.create(state);
}

LogicalResult Emitter::emitStmt(const ast::Stmt &stmt) {
  switch (stmt.getKind()) {
  case ast::Stmt::Kind::Pass:
    return success();
  case ast::Stmt::Kind::Expr: {
    auto &exprStmt = llvm::cast<ast::ExprStmt>(stmt);
    // A string on its own is a docstring.
    if (auto *constant = llvm::dyn_cast<ast::Constant>(&exprStmt.getValue()))
      if (constant->getConstKind() == ast::Constant::ConstKind::String)
        return success();
    return success(succeeded(emitExpr(exprStmt.getValue())));
  }
  case ast::Stmt::Kind::Assign: {
    auto &assign = llvm::cast<ast::Assign>(stmt);
    FailureOr<SValue> value = emitExpr(assign.getValue());
    if (failed(value))
      return failure();
    for (const ast::ExprPtr &target : assign.getTargets())
      if (failed(emitAssign(*target, *value, stmt.getLoc())))
        return failure();
    return success();
  }
  case ast::Stmt::Kind::AnnAssign: {
    auto &ann = llvm::cast<ast::AnnAssign>(stmt);
    if (!ann.getValue())
      return success();
    FailureOr<SValue> value = emitExpr(*ann.getValue());
    if (failed(value))
      return failure();
    return emitAssign(ann.getTarget(), *value, stmt.getLoc());
  }
  case ast::Stmt::Kind::AugAssign: {
    auto &aug = llvm::cast<ast::AugAssign>(stmt);
    FailureOr<Value> lhs = emitValue(aug.getTarget());
    FailureOr<Value> rhs = emitValue(aug.getValue());
    if (failed(lhs) || failed(rhs))
      return failure();
    static const llvm::StringMap<const char *> kOps = {
        {"+", "add"},     {"-", "sub"},      {"*", "mul"},
        {"/", "div"},     {"//", "floordiv"}, {"%", "remainder"},
        {"**", "pow"},    {"<<", "__lshift__"}, {">>", "__rshift__"},
        {"&", "__and__"}, {"|", "__or__"},   {"^", "__xor__"},
        {"@", "matmul"}};
    auto it = kOps.find(ast::getSpelling(aug.getOp()));
    if (it == kOps.end())
      return emitError(stmt.getLoc(), "unsupported augmented assignment"),
             failure();
    // A tensor is updated in place (`x += y` is `x.add_(y)`), anything else
    // is rebound.
    std::string name = std::string("aten::") + it->second;
    if (llvm::isa<ts::TensorType>(lhs->getType())) {
      std::string inplace = name;
      if (llvm::StringRef(inplace).ends_with("__"))
        inplace = "aten::__i" + inplace.substr(8);
      else
        inplace += "_";
      FailureOr<SValue> result =
          callOperator(inplace, {*lhs, *rhs}, {}, stmt.getLoc());
      if (failed(result))
        return failure();
      return emitAssign(aug.getTarget(), *result, stmt.getLoc());
    }
    FailureOr<SValue> result =
        callOperator(name, {*lhs, *rhs}, {}, stmt.getLoc());
    if (failed(result))
      return failure();
    return emitAssign(aug.getTarget(), *result, stmt.getLoc());
  }
  case ast::Stmt::Kind::If:
    return emitIf(llvm::cast<ast::If>(stmt));
  case ast::Stmt::Kind::While:
  case ast::Stmt::Kind::For:
    return emitLoop(stmt);
  case ast::Stmt::Kind::Return: {
    auto &ret = llvm::cast<ast::Return>(stmt);
    if (!ret.getValue()) {
      SValue none;
      none.kind = SValue::Kind::Multi;
      frame->returned = none;
      return success();
    }
    FailureOr<SValue> value = emitExpr(*ret.getValue());
    if (failed(value))
      return failure();
    frame->returned = *value;
    return success();
  }
  case ast::Stmt::Kind::Raise: {
    auto &raise = llvm::cast<ast::Raise>(stmt);
    // `raise builtins.ValueError("message")`.
    Value message, cls;
    if (const ast::Expr *exc = raise.getExc()) {
      if (auto *call = llvm::dyn_cast<ast::Call>(exc)) {
        std::string clsName;
        for (const ast::Expr *e = &call->getFunc(); e;) {
          if (auto *n = llvm::dyn_cast<ast::Name>(e)) {
            clsName = n->getId().str() + clsName;
            break;
          }
          auto *a = llvm::dyn_cast<ast::Attribute>(e);
          if (!a)
            break;
          clsName = "." + a->getAttr().str() + clsName;
          e = &a->getValue();
        }
        if (!call->getArgs().empty()) {
          FailureOr<Value> m = emitValue(*call->getArgs().front());
          if (failed(m))
            return failure();
          message = *m;
        }
        if (!clsName.empty())
          cls = constantStr(clsName, stmt.getLoc());
      }
    }
    if (!message || !llvm::isa<ts::StrType>(message.getType()))
      message = constantStr("Exception", stmt.getLoc());
    return emitRaise(message, cls, stmt.getLoc());
  }
  case ast::Stmt::Kind::Assert: {
    auto &assertStmt = llvm::cast<ast::Assert>(stmt);
    FailureOr<Value> test = emitValue(assertStmt.getTest());
    if (failed(test))
      return failure();
    Attribute known = getConstantValue(*test);
    if (auto b = llvm::dyn_cast_or_null<BoolAttr>(known); b && b.getValue())
      return success();
    FailureOr<SValue> negated =
        callOperator("aten::__not__", {*test}, {}, stmt.getLoc());
    if (failed(negated))
      return failure();
    OperationState state(getLoc(stmt.getLoc()),
                         ts::PrimIfOp::getOperationName());
    state.addOperands(negated->value);
    Region *thenRegion = state.addRegion();
    Region *elseRegion = state.addRegion();
    OpBuilder::InsertionGuard guard(builder);
    Block *thenBlock = new Block();
    thenRegion->push_back(thenBlock);
    Block *elseBlock = new Block();
    elseRegion->push_back(elseBlock);
    Operation *ifOp = builder.create(state);
    builder.setInsertionPointToEnd(thenBlock);
    Value message = constantStr("AssertionError: ", stmt.getLoc());
    if (const ast::Expr *msg = assertStmt.getMsg()) {
      FailureOr<Value> m = emitValue(*msg);
      if (failed(m))
        return failure();
      FailureOr<SValue> joined =
          callOperator("aten::add", {message, *m}, {}, stmt.getLoc());
      if (failed(joined))
        return failure();
      message = joined->value;
    }
    bool raised = blockRaised;
    if (failed(emitRaise(message, Value(), stmt.getLoc())))
      return failure();
    blockRaised = raised;
    ts::PrimYieldOp::create(builder, ifOp->getLoc());
    builder.setInsertionPointToEnd(elseBlock);
    ts::PrimYieldOp::create(builder, ifOp->getLoc());
    return success();
  }
  case ast::Stmt::Kind::With: {
    // `with obj:` as the graph has it: prim::Enter on each object, the
    // body, prim::Exit in reverse order. Canonicalization removes
    // torch.no_grad's; any other is reported by name.
    auto &with = llvm::cast<ast::With>(stmt);
    llvm::SmallVector<Value> objects;
    for (const ast::WithItem &item : with.getItems()) {
      if (item.target)
        return emitError(item.target->getLoc(),
                         "'with ... as' is not supported"),
               failure();
      FailureOr<Value> object = emitValue(*item.context);
      if (failed(object))
        return failure();
      if (!llvm::isa<ts::ClassType>(object->getType()))
        return emitError(item.context->getLoc(),
                         "'with' needs an object of a class"),
               failure();
      emitContextNode("prim::Enter", *object, stmt.getLoc());
      objects.push_back(*object);
    }
    if (failed(emitBlock(with.getBody())))
      return failure();
    for (Value object : llvm::reverse(objects))
      emitContextNode("prim::Exit", object, stmt.getLoc());
    return success();
  }
  case ast::Stmt::Kind::Break:
  case ast::Stmt::Kind::Continue:
    return emitError(stmt.getLoc(),
                     "'break' and 'continue' are not supported"),
           failure();
  case ast::Stmt::Kind::Del:
    return emitError(stmt.getLoc(), "'del' is not supported"), failure();
  case ast::Stmt::Kind::FunctionDef:
  case ast::Stmt::Kind::ClassDef:
    return emitError(stmt.getLoc(),
                     "nested function and class definitions are not "
                     "supported"),
           failure();
  }
  return failure();
}

LogicalResult Emitter::emitAssign(const ast::Expr &target, SValue value,
                                  const char *loc) {
  if (auto *name = llvm::dyn_cast<ast::Name>(&target)) {
    frame->env[name->getId()] = value;
    return success();
  }
  llvm::ArrayRef<ast::ExprPtr> targets;
  if (auto *tuple = llvm::dyn_cast<ast::Tuple>(&target))
    targets = tuple->getElements();
  else if (auto *list = llvm::dyn_cast<ast::List>(&target))
    targets = list->getElements();
  else
    return emitError(target.getLoc(),
                     "assignment to this target is not supported (only "
                     "names and tuples of names)"),
           failure();
  // Unpacking: the results of a multi-result op, a tuple or a list.
  llvm::SmallVector<Value> values;
  if (value.kind == SValue::Kind::Multi) {
    values = value.values;
  } else {
    FailureOr<Value> v = asValue(value, loc);
    if (failed(v))
      return failure();
    if (auto tuple = llvm::dyn_cast<ts::TupleType>(v->getType())) {
      if (auto construct = v->getDefiningOp<ts::PrimTupleConstructOp>()) {
        values.append(construct->operand_begin(), construct->operand_end());
      } else {
        auto unpack = ts::PrimTupleUnpackOp::create(
            builder, getLoc(loc), tuple.getElementTypes(), *v);
        values.append(unpack->result_begin(), unpack->result_end());
      }
    } else if (auto list = llvm::dyn_cast<ts::ListType>(v->getType())) {
      llvm::SmallVector<Type> types(targets.size(), list.getElementType());
      auto unpack =
          ts::PrimListUnpackOp::create(builder, getLoc(loc), types, *v);
      values.append(unpack->result_begin(), unpack->result_end());
    } else {
      return emitError(loc, "cannot unpack a value of this type"), failure();
    }
  }
  if (values.size() != targets.size())
    return emitError(loc, "cannot unpack " + llvm::Twine(values.size()) +
                              " values into " + llvm::Twine(targets.size()) +
                              " targets"),
           failure();
  for (auto [t, v] : llvm::zip_equal(targets, values))
    if (failed(emitAssign(*t, SValue::get(v), loc)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

LogicalResult Emitter::emitIf(const ast::If &stmt) {
  FailureOr<Value> cond = emitValue(stmt.getTest());
  if (failed(cond))
    return failure();
  if (!llvm::isa<ts::BoolType>(cond->getType())) {
    FailureOr<SValue> b =
        callOperator("aten::Bool", {*cond}, {}, stmt.getTest().getLoc());
    if (failed(b))
      return failure();
    cond = b->value;
  }
  // A condition known now: emit only the branch taken.
  if (auto known = llvm::dyn_cast_or_null<BoolAttr>(getConstantValue(*cond)))
    return emitBlock(known.getValue() ? stmt.getBody() : stmt.getOrElse());

  llvm::SetVector<llvm::StringRef> names;
  collectAssignedNames(stmt.getBody(), names);
  collectAssignedNames(stmt.getOrElse(), names);

  Env before = frame->env;
  bool raisedBefore = blockRaised;
  OpBuilder::InsertionGuard guard(builder);
  Block *insertBlock = builder.getInsertionBlock();
  Block::iterator insertPoint = builder.getInsertionPoint();

  auto emitBranch = [&](llvm::ArrayRef<ast::StmtPtr> body, Block *block,
                        Env &env, bool &raised) -> LogicalResult {
    frame->env = before;
    blockRaised = false;
    builder.setInsertionPointToEnd(block);
    if (failed(emitBlock(body)))
      return failure();
    if (frame->returned)
      return emitError(stmt.getLoc(), "a return inside an 'if' is not "
                                      "supported"),
             failure();
    env = frame->env;
    raised = blockRaised;
    return success();
  };
  auto thenBlock = std::make_unique<Block>();
  auto elseBlock = std::make_unique<Block>();
  Env thenEnv, elseEnv;
  bool thenRaised = false, elseRaised = false;
  if (failed(emitBranch(stmt.getBody(), thenBlock.get(), thenEnv, thenRaised)) ||
      failed(emitBranch(stmt.getOrElse(), elseBlock.get(), elseEnv,
                        elseRaised)))
    return failure();

  // The values the if defines: names both branches leave defined (a branch
  // that raises leaves every name "defined", as uninitialized).
  Env after = before;
  llvm::SmallVector<llvm::StringRef> outputs;
  llvm::SmallVector<Type> types;
  for (llvm::StringRef name : names) {
    auto t = thenEnv.find(name), e = elseEnv.find(name);
    bool inThen = t != thenEnv.end(), inElse = e != elseEnv.end();
    if (!(inThen || thenRaised) || !(inElse || elseRaised) ||
        (!inThen && !inElse)) {
      after.erase(name);
      continue;
    }
    if (inThen && inElse && sameSugared(t->second, e->second)) {
      after[name] = t->second;
      continue;
    }
    const SValue *tv = inThen ? &t->second : nullptr;
    const SValue *ev = inElse ? &e->second : nullptr;
    if ((tv && tv->kind != SValue::Kind::Value) ||
        (ev && ev->kind != SValue::Kind::Value)) {
      // A module or function that differs between the branches has no
      // value to carry.
      after.erase(name);
      continue;
    }
    Type type = tv && ev ? unifyTypes(tv->value.getType(), ev->value.getType())
                : tv     ? tv->value.getType()
                         : ev->value.getType();
    if (!type) {
      after.erase(name);
      continue;
    }
    outputs.push_back(name);
    types.push_back(type);
  }

  auto yield = [&](Block *block, Env &env) {
    builder.setInsertionPointToEnd(block);
    llvm::SmallVector<Value> values;
    for (auto [name, type] : llvm::zip_equal(outputs, types)) {
      auto it = env.find(name);
      if (it == env.end()) {
        values.push_back(
            ts::PrimUninitializedOp::create(builder, getLoc(stmt.getLoc()),
                                            type)
                .getResult());
        continue;
      }
      values.push_back(it->second.value);
    }
    ts::PrimYieldOp::create(builder, getLoc(stmt.getLoc()), values);
  };
  yield(thenBlock.get(), thenEnv);
  yield(elseBlock.get(), elseEnv);

  builder.setInsertionPoint(insertBlock, insertPoint);
  OperationState state(getLoc(stmt.getLoc()), ts::PrimIfOp::getOperationName());
  state.addOperands(*cond);
  state.addTypes(types);
  state.addRegion()->push_back(thenBlock.release());
  state.addRegion()->push_back(elseBlock.release());
  Operation *ifOp = builder.create(state);
  for (auto [name, result] : llvm::zip_equal(outputs, ifOp->getResults()))
    after[name] = SValue::get(result);
  frame->env = std::move(after);
  blockRaised = raisedBefore || (thenRaised && elseRaised);
  return success();
}

LogicalResult Emitter::emitLoop(const ast::Stmt &stmt) {
  auto *forStmt = llvm::dyn_cast<ast::For>(&stmt);
  auto *whileStmt = llvm::dyn_cast<ast::While>(&stmt);
  llvm::ArrayRef<ast::StmtPtr> body =
      forStmt ? forStmt->getBody() : whileStmt->getBody();
  const char *loc = stmt.getLoc();

  // The trip count and the first condition; for a list, its elements.
  Value tripCount, firstCondition, iterList;
  const ast::Name *target = nullptr;
  if (forStmt) {
    target = llvm::dyn_cast<ast::Name>(&forStmt->getTarget());
    if (!target)
      return emitError(forStmt->getTarget().getLoc(),
                       "a for loop's target must be a name"),
             failure();
    auto *call = llvm::dyn_cast<ast::Call>(&forStmt->getIter());
    auto *callee = call ? llvm::dyn_cast<ast::Name>(&call->getFunc()) : nullptr;
    if (callee && callee->getId() == "range" && call->getArgs().size() == 1 &&
        !frame->env.count("range")) {
      FailureOr<Value> n = emitValue(*call->getArgs().front());
      if (failed(n))
        return failure();
      tripCount = *n;
    } else {
      FailureOr<Value> list = emitValue(forStmt->getIter());
      if (failed(list))
        return failure();
      if (!llvm::isa<ts::ListType>(list->getType()))
        return emitError(forStmt->getIter().getLoc(),
                         "a for loop iterates over range(n) or a list"),
               failure();
      iterList = *list;
      FailureOr<SValue> len = callOperator("aten::len", {iterList}, {}, loc);
      if (failed(len))
        return failure();
      tripCount = len->value;
    }
    firstCondition = constantBool(true, loc);
  } else {
    tripCount = constantInt(std::numeric_limits<int64_t>::max(), loc);
    FailureOr<Value> cond = emitValue(whileStmt->getTest());
    if (failed(cond))
      return failure();
    if (auto known = llvm::dyn_cast_or_null<BoolAttr>(getConstantValue(*cond));
        known && !known.getValue())
      return success();
    firstCondition = *cond;
  }
  if (!llvm::isa<ts::IntType>(tripCount.getType()))
    return emitError(loc, "a loop's trip count must be an int"), failure();

  // Carried: names the body assigns that are defined before the loop.
  llvm::SetVector<llvm::StringRef> assigned;
  collectAssignedNames(body, assigned);
  llvm::SmallVector<llvm::StringRef> carried;
  llvm::SmallVector<Value> initial;
  for (llvm::StringRef name : assigned) {
    if (target && name == target->getId())
      continue;
    auto it = frame->env.find(name);
    if (it == frame->env.end())
      continue;
    if (it->second.kind != SValue::Kind::Value)
      continue;
    carried.push_back(name);
    initial.push_back(it->second.value);
  }
  llvm::SmallVector<Type> types;
  for (Value v : initial) {
    Type type = v.getType();
    // A loop may refine a tensor; carry the plain tensor.
    if (auto tensor = llvm::dyn_cast<ts::TensorType>(type))
      type = tensor.getUnrefined();
    types.push_back(type);
  }

  Env before = frame->env;
  OpBuilder::InsertionGuard guard(builder);
  OperationState state(getLoc(loc), ts::PrimLoopOp::getOperationName());
  state.addOperands({tripCount, firstCondition});
  state.addOperands(initial);
  state.addTypes(types);
  Region *region = state.addRegion();
  auto block = std::make_unique<Block>();
  Value index = block->addArgument(ts::IntType::get(context), getLoc(loc));
  for (auto [name, type] : llvm::zip_equal(carried, types))
    frame->env[name] = SValue::get(block->addArgument(type, getLoc(loc)));
  Block *bodyBlock = block.get();
  region->push_back(block.release());
  Operation *loop = builder.create(state);

  builder.setInsertionPointToEnd(bodyBlock);
  if (target) {
    if (iterList) {
      FailureOr<SValue> element =
          callOperator("aten::__getitem__", {iterList, index}, {}, loc);
      if (failed(element))
        return failure();
      frame->env[target->getId()] = *element;
    } else {
      frame->env[target->getId()] = SValue::get(index);
    }
  }
  bool raisedBefore = blockRaised;
  if (failed(emitBlock(body)))
    return failure();
  if (frame->returned)
    return emitError(loc, "a return inside a loop is not supported"),
           failure();
  Value next = constantBool(true, loc);
  if (whileStmt) {
    FailureOr<Value> cond = emitValue(whileStmt->getTest());
    if (failed(cond))
      return failure();
    next = *cond;
  }
  llvm::SmallVector<Value> yielded{next};
  for (llvm::StringRef name : carried) {
    auto it = frame->env.find(name);
    if (it == frame->env.end() || it->second.kind != SValue::Kind::Value)
      return emitError(loc, "the loop leaves '" + name +
                                "' without a value of its type"),
             failure();
    yielded.push_back(it->second.value);
  }
  ts::PrimYieldOp::create(builder, getLoc(loc), yielded);
  blockRaised = raisedBefore;

  // After the loop: the carried values; names first assigned in the body
  // are not defined.
  frame->env = std::move(before);
  for (auto [name, result] : llvm::zip_equal(carried, loop->getResults()))
    frame->env[name] = SValue::get(result);
  return success();
}
