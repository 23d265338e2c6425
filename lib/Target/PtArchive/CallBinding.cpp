//===- CallBinding.cpp - Calls bound to operator schemas ------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CallBinding.h"

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptDialect.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::pt;

namespace {
/// How an argument reaches its formal.
enum class Conversion {
  None,
  Default,      // not given: the schema's default
  TensorToInt,  // aten::IntImplicit
  TensorToFloat,
  TensorToNumber,
  NumberToInt, // aten::Int
  NumberToFloat,
  StrToDevice, // aten::device
  IntToList,   // int[N] given one int
  TupleToList,
};

struct ArgumentPlan {
  Value value;
  Conversion conversion = Conversion::None;
  const SchemaArgument *formal = nullptr;
};

struct MatchPlan {
  llvm::SmallVector<ArgumentPlan> arguments;
  llvm::SmallVector<Value> varargs;
  TypeBindings bindings;
};
} // namespace

static std::string describe(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// The formal without `?`: conversions apply to the contained type.
static const SchemaType &stripOptional(const SchemaType &type) {
  return type.kind == SchemaType::Optional ? type.elements[0] : type;
}

/// Which implicit conversion, if any, passes `actual` for `formal`.
static std::optional<Conversion>
findConversion(const SchemaType &formal, Type actual, bool allowConversions,
               TypeBindings &bindings) {
  const SchemaType &inner = stripOptional(formal);
  // Lists: an int for int[N]; a tuple of matching elements for a list.
  if (inner.kind == SchemaType::List) {
    const SchemaType &element = inner.elements[0];
    if (inner.fixedSize && element.kind == SchemaType::Int &&
        llvm::isa<ts::IntType>(actual))
      return Conversion::IntToList;
    if (auto tuple = llvm::dyn_cast<ts::TupleType>(actual)) {
      TypeBindings trial = bindings;
      for (Type e : tuple.getElementTypes())
        if (!matchSchemaType(element, e, trial))
          return std::nullopt;
      if (tuple.getElementTypes().empty() && element.kind == SchemaType::TypeVar)
        return std::nullopt;
      bindings = std::move(trial);
      return Conversion::TupleToList;
    }
    return std::nullopt;
  }
  if (!allowConversions)
    return std::nullopt;
  bool isTensor = llvm::isa<ts::TensorType>(actual);
  bool isNumber = llvm::isa<ts::NumberType>(actual);
  bool isBool = llvm::isa<ts::BoolType>(actual);
  switch (inner.kind) {
  case SchemaType::Int:
    if (isTensor)
      return Conversion::TensorToInt;
    if (isNumber || isBool)
      return Conversion::NumberToInt;
    break;
  case SchemaType::Float:
    if (isTensor)
      return Conversion::TensorToFloat;
    if (isNumber || isBool)
      return Conversion::NumberToFloat;
    break;
  case SchemaType::Number:
    if (isTensor)
      return Conversion::TensorToNumber;
    if (isBool)
      return Conversion::NumberToInt;
    break;
  case SchemaType::Device:
    if (llvm::isa<ts::StrType>(actual))
      return Conversion::StrToDevice;
    break;
  default:
    break;
  }
  return std::nullopt;
}

/// Tries one schema; on failure `why` says what did not fit.
static std::optional<MatchPlan> tryMatch(const Schema &schema,
                                         const CallArguments &args,
                                         bool allowConversions,
                                         std::string &why) {
  MatchPlan plan;
  size_t numPositional = 0;
  for (const SchemaArgument &arg : schema.arguments)
    if (!arg.kwargOnly)
      ++numPositional;
  if (args.positional.size() > numPositional && !schema.varargs) {
    why = "expected at most " + std::to_string(numPositional) +
          " positional arguments, got " +
          std::to_string(args.positional.size());
    return std::nullopt;
  }
  llvm::SmallVector<Value> given(schema.arguments.size());
  for (size_t i = 0; i < args.positional.size(); ++i) {
    if (i < numPositional)
      given[i] = args.positional[i];
    else
      plan.varargs.push_back(args.positional[i]);
  }
  for (const auto &[name, value] : args.keywords) {
    llvm::StringRef key = name;
    auto it = llvm::find_if(schema.arguments, [&](const SchemaArgument &arg) {
      return arg.name == key;
    });
    if (it == schema.arguments.end()) {
      why = "no argument called '" + name + "'";
      return std::nullopt;
    }
    size_t index = it - schema.arguments.begin();
    if (given[index]) {
      why = "argument '" + name + "' given twice";
      return std::nullopt;
    }
    given[index] = value;
  }
  for (auto [index, formal] : llvm::enumerate(schema.arguments)) {
    ArgumentPlan argPlan;
    argPlan.formal = &formal;
    Value value = given[index];
    if (!value) {
      if (!formal.defaultValue) {
        why = "argument '" + formal.name + "' is missing";
        return std::nullopt;
      }
      argPlan.conversion = Conversion::Default;
      plan.arguments.push_back(argPlan);
      continue;
    }
    argPlan.value = value;
    if (!matchSchemaType(formal.type, value.getType(), plan.bindings)) {
      std::optional<Conversion> conversion = findConversion(
          formal.type, value.getType(), allowConversions, plan.bindings);
      if (!conversion) {
        why = "argument '" + formal.name + "' is a '" +
              describe(value.getType()) + "', not a '" +
              printSchemaType(formal.type) + "'";
        return std::nullopt;
      }
      argPlan.conversion = *conversion;
    }
    plan.arguments.push_back(argPlan);
  }
  return plan;
}

Value pt::buildConstant(OpBuilder &builder, Location loc, Type type,
                        Attribute value) {
  return ts::PrimConstantOp::create(builder, loc, type, value).getResult();
}

/// The constant for a schema default, typed by its formal.
static Value buildDefault(OpBuilder &builder, Location loc,
                          const SchemaType &formal,
                          const SchemaDefault &value) {
  MLIRContext *context = builder.getContext();
  const SchemaType &inner = stripOptional(formal);
  switch (value.kind) {
  case SchemaDefault::None:
    return buildConstant(builder, loc, ts::NoneType::get(context), {});
  case SchemaDefault::Bool:
    return buildConstant(builder, loc, ts::BoolType::get(context),
                         builder.getBoolAttr(value.boolValue));
  case SchemaDefault::Str:
    return buildConstant(builder, loc, ts::StrType::get(context),
                         builder.getStringAttr(value.strValue));
  case SchemaDefault::Float:
    return buildConstant(builder, loc, ts::FloatType::get(context),
                         builder.getF64FloatAttr(value.floatValue));
  case SchemaDefault::Int:
    if (inner.kind == SchemaType::Float)
      return buildConstant(builder, loc, ts::FloatType::get(context),
                           builder.getF64FloatAttr(double(value.intValue)));
    if (inner.kind == SchemaType::List) {
      // int[2] stride=1 is [1, 1].
      llvm::SmallVector<Attribute> elements(
          inner.fixedSize.value_or(1), builder.getI64IntegerAttr(value.intValue));
      return buildConstant(builder, loc,
                           ts::ListType::get(context, ts::IntType::get(context)),
                           builder.getArrayAttr(elements));
    }
    return buildConstant(builder, loc, ts::IntType::get(context),
                         builder.getI64IntegerAttr(value.intValue));
  case SchemaDefault::List: {
    Type elementType;
    const SchemaType *elementFormal =
        inner.kind == SchemaType::List ? &inner.elements[0] : nullptr;
    if (elementFormal) {
      TypeBindings none;
      elementType = convertSchemaType(context, *elementFormal, none);
    }
    llvm::SmallVector<Attribute> elements;
    for (const SchemaDefault &element : value.elements) {
      switch (element.kind) {
      case SchemaDefault::Int:
        if (elementType && llvm::isa<ts::FloatType>(elementType))
          elements.push_back(builder.getF64FloatAttr(double(element.intValue)));
        else
          elements.push_back(builder.getI64IntegerAttr(element.intValue));
        break;
      case SchemaDefault::Float:
        elements.push_back(builder.getF64FloatAttr(element.floatValue));
        break;
      case SchemaDefault::Bool:
        elements.push_back(builder.getBoolAttr(element.boolValue));
        break;
      default:
        return {};
      }
    }
    if (!elementType)
      elementType = ts::IntType::get(context);
    return buildConstant(builder, loc, ts::ListType::get(context, elementType),
                         builder.getArrayAttr(elements));
  }
  }
  return {};
}

/// The value passed for one argument, after its conversion.
static FailureOr<Value> buildArgument(OpBuilder &builder, Location loc,
                                      const ArgumentPlan &plan,
                                      std::string &error) {
  MLIRContext *context = builder.getContext();
  auto convert = [&](llvm::StringRef op, Value value) -> FailureOr<Value> {
    CallArguments args;
    args.positional.push_back(value);
    FailureOr<Operation *> call =
        buildOperatorCall(builder, loc, op, args, error);
    if (failed(call) || (*call)->getNumResults() != 1)
      return failure();
    return foldIfPossible(builder, *call).front();
  };
  switch (plan.conversion) {
  case Conversion::None:
    return plan.value;
  case Conversion::Default: {
    Value value =
        buildDefault(builder, loc, plan.formal->type, *plan.formal->defaultValue);
    if (!value) {
      error = "cannot build the default of argument '" + plan.formal->name + "'";
      return failure();
    }
    return value;
  }
  case Conversion::TensorToInt:
    return convert("aten::IntImplicit", plan.value);
  case Conversion::TensorToFloat:
    return convert("aten::FloatImplicit", plan.value);
  case Conversion::TensorToNumber:
    return convert("aten::ScalarImplicit", plan.value);
  case Conversion::NumberToInt:
    return convert("aten::Int", plan.value);
  case Conversion::NumberToFloat:
    return convert("aten::Float", plan.value);
  case Conversion::StrToDevice:
    return convert("aten::device", plan.value);
  case Conversion::IntToList: {
    const SchemaType &inner = stripOptional(plan.formal->type);
    llvm::SmallVector<Value> elements(inner.fixedSize.value_or(1), plan.value);
    return ts::PrimListConstructOp::create(
               builder, loc,
               ts::ListType::get(context, ts::IntType::get(context)), elements)
        .getResult();
  }
  case Conversion::TupleToList: {
    auto tuple = llvm::cast<ts::TupleType>(plan.value.getType());
    llvm::SmallVector<Value> elements;
    if (auto construct =
            plan.value.getDefiningOp<ts::PrimTupleConstructOp>()) {
      elements.append(construct->operand_begin(), construct->operand_end());
    } else {
      auto unpack = ts::PrimTupleUnpackOp::create(
          builder, loc, tuple.getElementTypes(), plan.value);
      elements.append(unpack->result_begin(), unpack->result_end());
    }
    Type elementType;
    const SchemaType &element = stripOptional(plan.formal->type).elements[0];
    TypeBindings none;
    elementType = convertSchemaType(context, element, none);
    if (!elementType)
      elementType = elements.empty() ? ts::TensorType::get(context)
                                     : elements.front().getType();
    return ts::PrimListConstructOp::create(
               builder, loc, ts::ListType::get(context, elementType), elements)
        .getResult();
  }
  }
  return failure();
}

/// Creates the op named `opName`, verified, or null.
static Operation *createVerified(OpBuilder &builder, OperationState &state,
                                 std::string &error) {
  Operation *op = builder.create(state);
  std::string message;
  {
    // Collect the verifier's message instead of reporting it.
    ScopedDiagnosticHandler handler(builder.getContext(), [&](Diagnostic &d) {
      llvm::raw_string_ostream os(message);
      os << d;
      return success();
    });
    if (succeeded(mlir::verify(op, /*verifyRecursively=*/false)))
      return op;
  }
  op->erase();
  error = message;
  return nullptr;
}

/// The `ts` op an overload becomes: its own op, a hand-written `prim` op of
/// the same name, or "" for ts.operator.
static std::string getOpName(MLIRContext *context, const Schema &schema) {
  auto [ns, opName] = llvm::StringRef(schema.name).split("::");
  std::string qualified = ("ts." + ns + "." + opName).str();
  std::string withOverload =
      qualified + (schema.overload.empty() ? "" : "." + schema.overload);
  if (RegisteredOperationName::lookup(withOverload, context))
    return withOverload;
  if (ns == "prim" && RegisteredOperationName::lookup(qualified, context))
    return qualified;
  return "";
}

/// How generic an overload's formals are (Scalar, Any, type variables):
/// `aten::Float.int` is preferred to `aten::Float.Scalar` for an int.
static unsigned getGenericity(const Schema &schema) {
  unsigned count = 0;
  for (const SchemaArgument &arg : schema.arguments) {
    const SchemaType &type = stripOptional(arg.type);
    count += type.kind == SchemaType::Number || type.kind == SchemaType::Any ||
             type.kind == SchemaType::TypeVar;
  }
  return count;
}

namespace {
struct Candidate {
  const Schema *schema;
  MatchPlan plan;
  llvm::SmallVector<Type> resultTypes;
  std::string opName;
};
} // namespace

FailureOr<Operation *> pt::buildOperatorCall(OpBuilder &builder, Location loc,
                                             llvm::StringRef name,
                                             const CallArguments &args,
                                             std::string &error) {
  llvm::ArrayRef<const Schema *> schemas = lookupSchemas(name);
  if (schemas.empty()) {
    error = "unknown operator '" + name.str() + "'";
    return failure();
  }
  MLIRContext *context = builder.getContext();

  // Numbers only, ints mixed with floats (`1 - w`, `aten::sub.int_float`):
  // the ints are converted, as Python would, so that the float overload,
  // which the dialect has, is used.
  if (args.keywords.empty() && !args.positional.empty()) {
    bool hasInt = false, hasFloat = false, onlyNumbers = true;
    for (Value v : args.positional) {
      hasInt |= llvm::isa<ts::IntType>(v.getType());
      hasFloat |= llvm::isa<ts::FloatType>(v.getType());
      onlyNumbers &= llvm::isa<ts::IntType, ts::FloatType>(v.getType());
    }
    if (hasInt && hasFloat && onlyNumbers) {
      CallArguments promoted;
      for (Value v : args.positional) {
        if (llvm::isa<ts::IntType>(v.getType())) {
          CallArguments one;
          one.positional.push_back(v);
          FailureOr<Operation *> cast =
              buildOperatorCall(builder, loc, "aten::Float", one, error);
          if (failed(cast))
            return failure();
          v = foldIfPossible(builder, *cast).front();
        }
        promoted.positional.push_back(v);
      }
      return buildOperatorCall(builder, loc, name, promoted, error);
    }
  }

  std::string reasons;
  for (bool allowConversions : {false, true}) {
    // Every overload that accepts the arguments, then the best of them:
    // one the dialect has an op for, then the least generic, then the first
    // registered (PyTorch's order).
    llvm::SmallVector<Candidate> candidates;
    for (const Schema *schema : schemas) {
      if (schema->varReturns)
        continue;
      std::string why;
      std::optional<MatchPlan> plan =
          tryMatch(*schema, args, allowConversions, why);
      llvm::SmallVector<Type> resultTypes;
      if (plan) {
        for (const SchemaType &ret : schema->returns) {
          Type type = convertSchemaType(context, ret, plan->bindings);
          if (!type) {
            why = "result type '" + printSchemaType(ret) + "' is not supported";
            plan.reset();
            break;
          }
          resultTypes.push_back(type);
        }
      }
      if (!plan) {
        if (!allowConversions)
          reasons += "\n  " + schema->text + ": " + why;
        continue;
      }
      candidates.push_back(
          {schema, std::move(*plan), resultTypes, getOpName(context, *schema)});
    }
    if (candidates.empty())
      continue;
    const Candidate *best = &candidates.front();
    for (const Candidate &c : candidates) {
      auto rank = [](const Candidate &x) {
        return std::make_pair(x.opName.empty(), getGenericity(*x.schema));
      };
      if (rank(c) < rank(*best))
        best = &c;
    }

    llvm::SmallVector<Value> operands;
    for (const ArgumentPlan &argPlan : best->plan.arguments) {
      FailureOr<Value> value = buildArgument(builder, loc, argPlan, error);
      if (failed(value))
        return failure();
      operands.push_back(*value);
    }
    operands.append(best->plan.varargs);
    OperationState state(loc, best->opName.empty()
                                  ? ts::OperatorOp::getOperationName()
                                  : llvm::StringRef(best->opName));
    state.addOperands(operands);
    state.addTypes(best->resultTypes);
    if (best->opName.empty())
      state.addAttribute("kind", builder.getStringAttr(name));
    Operation *op = createVerified(builder, state, error);
    if (!op) {
      error = "the op " +
              (best->opName.empty() ? std::string("ts.operator")
                                    : best->opName) +
              " for '" + best->schema->text + "' rejects its operands: " +
              error;
      return failure();
    }
    return op;
  }
  error = "no overload of " + name.str() + " matches the arguments (";
  for (size_t i = 0; i < args.positional.size(); ++i)
    error += (i ? ", " : "") + describe(args.positional[i].getType());
  for (const auto &[kw, value] : args.keywords)
    error += ", " + kw + "=" + describe(value.getType());
  error += "):" + reasons;
  return failure();
}

llvm::SmallVector<Value> pt::foldIfPossible(OpBuilder &builder, Operation *op) {
  llvm::SmallVector<Attribute> constants;
  for (Value operand : op->getOperands()) {
    Attribute attr;
    if (matchPattern(operand, m_Constant(&attr)))
      constants.push_back(attr);
    else
      constants.push_back(nullptr);
  }
  llvm::SmallVector<OpFoldResult> folded;
  llvm::SmallVector<Value> results(op->getResults());
  if (llvm::isa<ts::PrimConstantOp>(op) || failed(op->fold(constants, folded)) ||
      folded.empty())
    return results;
  Dialect *dialect = op->getDialect();
  llvm::SmallVector<Value> replacements;
  for (auto [result, fold] : llvm::zip_equal(op->getResults(), folded)) {
    if (auto value = llvm::dyn_cast<Value>(fold)) {
      replacements.push_back(value);
      continue;
    }
    Operation *constant = dialect->materializeConstant(
        builder, llvm::cast<Attribute>(fold), result.getType(), op->getLoc());
    if (!constant) {
      for (Value r : replacements)
        if (Operation *def = r.getDefiningOp();
            def && def != op && def->use_empty() &&
            llvm::isa<ts::PrimConstantOp>(def))
          def->erase();
      return results;
    }
    replacements.push_back(constant->getResult(0));
  }
  op->replaceAllUsesWith(replacements);
  if (op->use_empty() && isOpTriviallyDead(op))
    op->erase();
  return replacements;
}
