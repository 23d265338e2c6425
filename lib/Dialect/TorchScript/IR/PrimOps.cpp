//===- PrimOps.cpp - prim:: ops and ts.operator ---------------------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "tsmlir/Dialect/TorchScript/IR/Aliasing.h"

#include "ListFacts.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace mlir::tsmlir::ts {

std::optional<int64_t> getConstantInt(Value value) {
  auto cst = value.getDefiningOp<PrimConstantOp>();
  if (!cst)
    return std::nullopt;
  if (auto attr = llvm::dyn_cast_or_null<IntegerAttr>(cst.getValueAttr()))
    return attr.getInt();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// prim::Constant
//===----------------------------------------------------------------------===//

LogicalResult verifyConstantValue(
    Attribute value, Type type,
    llvm::function_ref<InFlightDiagnostic()> emitError) {
  auto fail = [&](const Twine &why) -> LogicalResult {
    if (emitError)
      emitError() << why;
    return failure();
  };
  auto describe = [](Type t) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << t;
    return s;
  };
  if (!value) {
    if (llvm::isa<NoneType, OptionalType, FunctionType>(type))
      return success();
    return fail("a constant of type '" + describe(type) +
                "' needs a value; only None, optionals and functions have "
                "none");
  }
  return llvm::TypeSwitch<Type, LogicalResult>(type)
      .Case<IntType, NumberType, ScalarTypeType, LayoutType,
            MemoryFormatType>([&](Type) -> LogicalResult {
        auto attr = llvm::dyn_cast<IntegerAttr>(value);
        if (attr && attr.getType().isSignlessInteger(64))
          return success();
        if (llvm::isa<NumberType>(type) && llvm::isa<FloatAttr>(value))
          return success();
        return fail("an integer constant needs a 64-bit signless integer "
                    "value");
      })
      .Case<FloatType>([&](Type) -> LogicalResult {
        auto attr = llvm::dyn_cast<FloatAttr>(value);
        if (attr && attr.getType().isF64())
          return success();
        return fail("a float constant needs an f64 value");
      })
      .Case<BoolType>([&](Type) -> LogicalResult {
        if (llvm::isa<BoolAttr>(value))
          return success();
        return fail("a bool constant needs 'true' or 'false'");
      })
      .Case<StrType, DeviceType>([&](Type) -> LogicalResult {
        if (llvm::isa<StringAttr>(value))
          return success();
        return fail("a str or Device constant needs a string value");
      })
      .Case<OptionalType>([&](OptionalType opt) -> LogicalResult {
        return verifyConstantValue(value, opt.getContainedType(), emitError);
      })
      .Case<ListType>([&](ListType list) -> LogicalResult {
        auto array = llvm::dyn_cast<ArrayAttr>(value);
        if (!array)
          return fail("a list constant needs an array value");
        for (Attribute element : array)
          if (failed(verifyConstantValue(element, list.getElementType(),
                                         emitError)))
            return failure();
        return success();
      })
      .Case<TupleType>([&](TupleType tuple) -> LogicalResult {
        auto array = llvm::dyn_cast<ArrayAttr>(value);
        if (!array || array.size() != tuple.getElementTypes().size())
          return fail("a tuple constant needs an array of " +
                      Twine(tuple.getElementTypes().size()) + " values");
        for (auto [element, elementType] :
             llvm::zip_equal(array, tuple.getElementTypes()))
          if (failed(verifyConstantValue(element, elementType, emitError)))
            return failure();
        return success();
      })
      .Case<TensorType>([&](TensorType tensor) -> LogicalResult {
        auto elements = llvm::dyn_cast<ElementsAttr>(value);
        if (!elements)
          return fail("a tensor constant needs a dense or dense_resource "
                      "value");
        ShapedType shaped = elements.getShapedType();
        if (tensor.getDtype() && tensor.getDtype() != shaped.getElementType())
          return fail("tensor constant of dtype '" +
                      describe(shaped.getElementType()) +
                      "' does not match the result dtype '" +
                      describe(tensor.getDtype()) + "'");
        if (tensor.hasSizes() &&
            (!shaped.hasRank() ||
             tensor.getSizes().asArrayRef() != shaped.getShape()))
          return fail("tensor constant of type '" + describe(shaped) +
                      "' does not match the result sizes");
        return success();
      })
      .Default([&](Type) -> LogicalResult {
        return fail("cannot make a constant of type '" + describe(type) + "'");
      });
}

LogicalResult PrimConstantOp::verify() {
  if (llvm::isa<FunctionType>(getType()) && !(*this)->hasAttr("name"))
    return emitOpError("of type '!ts.function' needs a 'name' attribute");
  return verifyConstantValue(getValueAttr(), getType(),
                             [&] { return emitOpError(); });
}

ParseResult PrimConstantOp::parse(OpAsmParser &parser,
                                  OperationState &result) {
  if (succeeded(parser.parseOptionalLSquare())) {
    Attribute value;
    if (parser.parseAttribute(value) || parser.parseRSquare())
      return failure();
    result.addAttribute(getValueAttrName(result.name), value);
  }
  Type type;
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type))
    return failure();
  result.addTypes(type);
  return success();
}

/// Whether `value` prints as an untyped literal that parses back as itself:
/// an i64, or an f64 printed in decimal. MLIR prints NaN, the infinities and
/// some finite values (12345678.0) in hexadecimal, which would parse back as
/// an integer.
static bool hasImplicitType(Attribute value) {
  if (auto intAttr = llvm::dyn_cast<IntegerAttr>(value))
    return intAttr.getType().isSignlessInteger(64);
  auto floatAttr = llvm::dyn_cast<FloatAttr>(value);
  if (!floatAttr || !floatAttr.getType().isF64())
    return false;
  std::string text;
  llvm::raw_string_ostream os(text);
  floatAttr.print(os, /*elideType=*/true);
  return !StringRef(text).contains('x');
}

void PrimConstantOp::print(OpAsmPrinter &printer) {
  if (Attribute value = getValueAttr()) {
    printer << '[';
    // i64 and f64 are what an untyped literal parses as: leave them implicit.
    if (hasImplicitType(value))
      printer.printAttributeWithoutType(value);
    else
      printer.printAttribute(value);
    printer << ']';
  }
  printer.printOptionalAttrDict((*this)->getAttrs(),
                                {getValueAttrName().getValue()});
  printer << " : " << getType();
}

void PrimConstantOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  Attribute value = getValueAttr();
  std::string name = llvm::TypeSwitch<Type, std::string>(getType())
                         .Case<IntType>([&](Type) {
                           auto attr = llvm::dyn_cast<IntegerAttr>(value);
                           if (!attr)
                             return std::string("int");
                           int64_t v = attr.getInt();
                           // Negate as unsigned: -INT64_MIN overflows.
                           return v < 0
                                      ? "int_m" + std::to_string(
                                                      -static_cast<uint64_t>(v))
                                      : "int" + std::to_string(v);
                         })
                         .Case<BoolType>([&](Type) {
                           auto attr = llvm::dyn_cast<BoolAttr>(value);
                           return attr && attr.getValue() ? "true" : "false";
                         })
                         .Case<FloatType>([](Type) { return "float"; })
                         .Case<NoneType>([](Type) { return "none"; })
                         .Case<StrType>([](Type) { return "str"; })
                         .Case<DeviceType>([](Type) { return "device"; })
                         .Case<ListType>([](Type) { return "list"; })
                         .Case<TensorType>([](Type) { return "tensor"; })
                         .Case<FunctionType>([](Type) { return "fn"; })
                         .Default([](Type) { return "cst"; });
  setNameFn(getResult(), name);
}

OpFoldResult PrimConstantOp::fold(FoldAdaptor) {
  if (Attribute value = getValueAttr())
    return value;
  if (llvm::isa<NoneType, OptionalType>(getType()))
    return UnitAttr::get(getContext());
  return {};
}

//===----------------------------------------------------------------------===//
// Lists, tuples and dicts
//===----------------------------------------------------------------------===//

/// Checks that each of `values` may be used where `expected` is.
static LogicalResult verifyElementTypes(Operation *op, TypeRange values,
                                        llvm::function_ref<Type(size_t)> expected,
                                        StringRef what) {
  for (auto [i, type] : llvm::enumerate(values))
    if (!isValidSubtype(type, expected(i)))
      return op->emitOpError() << what << " #" << i << " of type " << type
                               << " is not a subtype of " << expected(i);
  return success();
}

/// Whether two types may describe the same value: one refines the other.
static bool areSubtypeRelated(Type a, Type b) {
  return isValidSubtype(a, b) || isValidSubtype(b, a);
}

LogicalResult PrimListConstructOp::verify() {
  Type element = llvm::cast<ListType>(getType()).getElementType();
  return verifyElementTypes(*this, getElements().getTypes(),
                            [&](size_t) { return element; }, "element");
}

/// Whether a value of `type` may hold a reference to a list: a list, a
/// container that may hold one, or a type that says too little to tell.
static bool mayHoldList(Type type) {
  if (llvm::isa<ListType, AnyType, ModuleType, ClassType, OpaqueType>(type))
    return true;
  if (auto optional = llvm::dyn_cast<OptionalType>(type))
    return mayHoldList(optional.getContainedType());
  if (auto future = llvm::dyn_cast<FutureType>(type))
    return mayHoldList(future.getContainedType());
  if (auto tuple = llvm::dyn_cast<TupleType>(type))
    return llvm::any_of(tuple.getElementTypes(), mayHoldList);
  if (auto un = llvm::dyn_cast<UnionType>(type))
    return llvm::any_of(un.getContainedTypes(), mayHoldList);
  if (auto dict = llvm::dyn_cast<DictType>(type))
    return mayHoldList(dict.getKeyType()) || mayHoldList(dict.getValueType());
  // Scalars, strings, tensors and the other value types hold no list; a type
  // of another dialect might.
  return !isTorchScriptType(type);
}

/// Whether a value of `type` may be, or hold, the list `list`: as
/// mayHoldList, except that a list of tensors is never a list of numbers
/// (split_with_sizes' pieces are not its int[] of sizes) and the other way
/// round.
static bool mayReferTo(Type type, Value list) {
  auto result = llvm::dyn_cast<ListType>(type);
  auto operand = llvm::dyn_cast<ListType>(list.getType());
  if (result && operand && !mayHoldList(result.getElementType()) &&
      llvm::isa<TensorType>(result.getElementType()) !=
          llvm::isa<TensorType>(operand.getElementType()))
    return false;
  return mayHoldList(type);
}

Value stripUncheckedCasts(Value value) {
  while (auto cast = value.getDefiningOp<PrimUncheckedCastOp>())
    value = cast.getOperand();
  return value;
}

bool isUnmodifiedList(Value list) {
  return llvm::all_of(list.getUsers(), [&](Operation *user) {
    // Yielded from a branch of a prim::If: the If's result is the list
    // when that branch runs; it is unmodified when the result is.
    if (auto yield = llvm::dyn_cast<PrimYieldOp>(user)) {
      auto ifOp = llvm::dyn_cast<PrimIfOp>(yield->getParentOp());
      if (!ifOp)
        return false;
      for (auto [operand, result] :
           llvm::zip_equal(yield.getOperands(), ifOp.getResults()))
        if (operand == list && !isUnmodifiedList(result))
          return false;
      return true;
    }
    // An unchecked_cast is the list itself under another type.
    if (auto cast = llvm::dyn_cast<PrimUncheckedCastOp>(user))
      return isUnmodifiedList(cast.getResult());
    if (!onlyReadsMemory(user) ||
        user->hasTrait<::mlir::OpTrait::IsTerminator>())
      return false;
    // Their results are elements of the list, or (list.t, copy.t, slice.t,
    // add.t) a new list of them, not aliases of it.
    if (llvm::isa<PrimListUnpackOp, Aten__Getitem__TOp, AtenListTOp,
                  AtenCopyTOp, AtenSliceTOp, AtenAddTOp>(user))
      return true;
    // A list an aten op that only reads returns is a new one (no schema of
    // such an op makes a list result an alias of an argument): only its
    // elements, when they may be lists, can refer to this list.
    bool aten = user->getName().getStringRef().starts_with("ts.aten.");
    return llvm::none_of(user->getResultTypes(), [&](Type t) {
      auto result = llvm::dyn_cast<ListType>(t);
      if (aten && result && !mayHoldList(result.getElementType()))
        return false;
      return mayReferTo(t, list);
    });
  });
}

std::optional<SmallVector<OpFoldResult>>
getKnownListElements(Value list, Attribute constant) {
  if (!isUnmodifiedList(list))
    return std::nullopt;
  if (auto array = llvm::dyn_cast_or_null<ArrayAttr>(constant))
    return SmallVector<OpFoldResult>(array.begin(), array.end());
  auto construct = list.getDefiningOp<PrimListConstructOp>();
  if (!construct)
    return std::nullopt;
  return SmallVector<OpFoldResult>(construct.getElements().begin(),
                                   construct.getElements().end());
}

std::optional<SmallVector<int64_t>> getKnownIntList(Value list,
                                                    Attribute constant) {
  std::optional<SmallVector<OpFoldResult>> elements =
      getKnownListElements(list, constant);
  if (!elements)
    return std::nullopt;
  SmallVector<int64_t> values;
  for (OpFoldResult element : *elements) {
    Attribute attr = llvm::dyn_cast<Attribute>(element);
    if (!attr)
      matchPattern(llvm::cast<Value>(element), m_Constant(&attr));
    auto i = llvm::dyn_cast_or_null<IntegerAttr>(attr);
    if (!i)
      return std::nullopt;
    values.push_back(i.getInt());
  }
  return values;
}

/// The elements of `list` if it is built by a prim::ListConstruct and nothing
/// can modify it.
static std::optional<OperandRange> getImmutableListElements(Value list) {
  auto construct = list.getDefiningOp<PrimListConstructOp>();
  if (!construct || !isUnmodifiedList(list))
    return std::nullopt;
  return construct.getElements();
}

LogicalResult PrimListUnpackOp::verify() {
  Type element = llvm::cast<ListType>(getList().getType()).getElementType();
  for (auto [i, type] : llvm::enumerate(getResultTypes()))
    if (!areSubtypeRelated(type, element))
      return emitOpError() << "result #" << i << " of type " << type
                           << " does not match the list element type "
                           << element;
  return success();
}

/// Folds an unpack of a freshly built aggregate to its elements, when their
/// types are exactly the unpacked types (or the unpacked value is unused:
/// the second result of an attention layer read through a cast to
/// `Tuple[Tensor, Optional[Tensor]]`, whose type no user sees).
static LogicalResult foldUnpack(std::optional<OperandRange> elements,
                                ResultRange unpacked,
                                SmallVectorImpl<OpFoldResult> &results) {
  if (!elements || elements->size() != unpacked.size())
    return failure();
  for (auto [element, result] : llvm::zip_equal(*elements, unpacked))
    if (element.getType() != result.getType() && !result.use_empty())
      return failure();
  results.append(elements->begin(), elements->end());
  return success();
}

LogicalResult PrimListUnpackOp::fold(FoldAdaptor adaptor,
                                     SmallVectorImpl<OpFoldResult> &results) {
  if (succeeded(foldUnpack(getImmutableListElements(getList()),
                           getResults(), results)))
    return success();
  // A constant list of numbers or bools that nothing modifies: its
  // elements, when the unpacked types are scalars.
  auto array = llvm::dyn_cast_or_null<ArrayAttr>(adaptor.getList());
  if (!array || array.size() != getNumResults() ||
      !llvm::all_of(getResultTypes(),
                    llvm::IsaPred<IntType, FloatType, BoolType>) ||
      !isUnmodifiedList(getList()))
    return failure();
  for (auto [attr, type] : llvm::zip_equal(array, getResultTypes())) {
    bool fits = llvm::isa<BoolType>(type)    ? llvm::isa<BoolAttr>(attr)
                : llvm::isa<FloatType>(type) ? llvm::isa<FloatAttr>(attr)
                                             : llvm::isa<IntegerAttr>(attr) &&
                                                   !llvm::isa<BoolAttr>(attr);
    if (!fits)
      return failure();
  }
  results.append(array.begin(), array.end());
  return success();
}

LogicalResult PrimTupleConstructOp::verify() {
  ArrayRef<Type> expected = llvm::cast<TupleType>(getType()).getElementTypes();
  if (expected.size() != getElements().size())
    return emitOpError() << "has " << getElements().size()
                         << " elements for a tuple type of "
                         << expected.size();
  return verifyElementTypes(*this, getElements().getTypes(),
                            [&](size_t i) { return expected[i]; }, "element");
}

/// The elements of a tuple built by a prim::TupleConstruct, seen through
/// unchecked casts (the cast a folded prim::If leaves between a branch's
/// tuple and the If's declared type); whoever reads them compares types.
static std::optional<OperandRange> getTupleElements(Value tuple) {
  if (auto construct =
          stripUncheckedCasts(tuple).getDefiningOp<PrimTupleConstructOp>())
    return construct.getElements();
  return std::nullopt;
}

LogicalResult PrimTupleUnpackOp::verify() {
  ArrayRef<Type> elements =
      llvm::cast<TupleType>(getTuple().getType()).getElementTypes();
  if (elements.size() != getNumResults())
    return emitOpError() << "unpacks " << getNumResults()
                         << " results from a tuple of " << elements.size();
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip_equal(getResultTypes(), elements)))
    if (!areSubtypeRelated(std::get<0>(pair), std::get<1>(pair)))
      return emitOpError() << "result #" << i << " of type "
                           << std::get<0>(pair)
                           << " does not match the tuple element type "
                           << std::get<1>(pair);
  return success();
}

LogicalResult PrimTupleUnpackOp::fold(FoldAdaptor,
                                      SmallVectorImpl<OpFoldResult> &results) {
  return foldUnpack(getTupleElements(getTuple()), getResults(), results);
}

LogicalResult PrimTupleIndexOp::verify() {
  ArrayRef<Type> elements =
      llvm::cast<TupleType>(getTuple().getType()).getElementTypes();
  std::optional<int64_t> index = getConstantInt(getIndex());
  if (!index)
    return success();
  std::optional<int64_t> i = normalizeIndex(*index, elements.size());
  if (!i)
    return emitOpError() << "index " << *index
                         << " is out of range for a tuple of "
                         << elements.size();
  if (!areSubtypeRelated(getType(), elements[*i]))
    return emitOpError() << "result type " << getType()
                         << " does not match the tuple element type "
                         << elements[*i];
  return success();
}

OpFoldResult PrimTupleIndexOp::fold(FoldAdaptor adaptor) {
  auto index = llvm::dyn_cast_or_null<IntegerAttr>(adaptor.getIndex());
  std::optional<OperandRange> elements = getTupleElements(getTuple());
  if (!index || !elements)
    return {};
  std::optional<int64_t> i = normalizeIndex(index.getInt(), elements->size());
  if (!i || (*elements)[*i].getType() != getType())
    return {};
  return (*elements)[*i];
}

LogicalResult PrimDictConstructOp::verify() {
  if (getKeysAndValues().size() % 2)
    return emitOpError("needs key, value pairs: an even number of operands");
  auto dict = llvm::cast<DictType>(getType());
  return verifyElementTypes(
      *this, getKeysAndValues().getTypes(),
      [&](size_t i) { return i % 2 ? dict.getValueType() : dict.getKeyType(); },
      "operand");
}

LogicalResult PrimConstantChunkOp::verify() {
  int64_t chunks = getChunksAttr().getInt(), dim = getDimAttr().getInt();
  if (chunks <= 0)
    return emitOpError() << "needs a positive number of chunks, got "
                         << chunks;
  if (static_cast<int64_t>(getNumResults()) != chunks)
    return emitOpError() << "has " << getNumResults() << " results for "
                         << chunks << " chunks";
  // Unlike most dimension arguments, chunk's does not wrap for a 0-d tensor:
  // PyTorch rejects chunking one.
  if (std::optional<int64_t> rank = getSelf().getType().getRank())
    if (dim < -*rank || dim >= *rank)
      return emitOpError() << "dimension " << dim
                           << " is out of range for a rank-" << *rank
                           << " tensor";
  return success();
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

/// The yield that ends `region`'s block, or null. Ops are verified before
/// their regions' terminators are, so the block may end in anything.
static PrimYieldOp getYield(Region &region) {
  Block &block = region.front();
  return block.empty() ? nullptr : llvm::dyn_cast<PrimYieldOp>(block.back());
}

/// Checks that the values a region yields fit `resultTypes`.
static LogicalResult verifyYield(Operation *op, Region &region,
                                 TypeRange resultTypes, StringRef name,
                                 size_t skip = 0) {
  // Without a yield, leave the error to the terminator checks.
  PrimYieldOp yield = getYield(region);
  if (!yield)
    return success();
  TypeRange yielded = TypeRange(yield->getOperandTypes()).drop_front(skip);
  if (yielded.size() != resultTypes.size())
    return op->emitOpError() << "region '" << name << "' yields "
                             << yielded.size() << " values for "
                             << resultTypes.size() << " results";
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip_equal(yielded, resultTypes)))
    // The profiling executor types a node's outputs with what it saw, so a
    // result may state more than its yields: compatible types are fine.
    if (!isValidSubtype(std::get<0>(pair), std::get<1>(pair)) &&
        !areCompatible(std::get<0>(pair), std::get<1>(pair)))
      return op->emitOpError()
             << "region '" << name << "' yields " << std::get<0>(pair)
             << " for result #" << i << " of type " << std::get<1>(pair);
  return success();
}

LogicalResult PrimIfOp::verify() {
  if (failed(verifyYield(*this, getThenRegion(), getResultTypes(), "then")))
    return failure();
  return verifyYield(*this, getElseRegion(), getResultTypes(), "else");
}

LogicalResult PrimLoopOp::verify() {
  Block &body = getBody().front();
  size_t numCarried = getIterArgs().size();
  if (body.getNumArguments() != numCarried + 1)
    return emitOpError() << "body takes " << body.getNumArguments()
                         << " arguments; expected the iteration number and "
                         << numCarried << " carried values";
  if (!llvm::isa<IntType>(body.getArgument(0).getType()))
    return emitOpError() << "body's first argument (the iteration number) "
                            "must be !ts.int, got "
                         << body.getArgument(0).getType();
  for (auto [i, pair] : llvm::enumerate(llvm::zip_equal(
           getIterArgs().getTypes(), TypeRange(body.getArgumentTypes()).drop_front())))
    if (!areSubtypeRelated(std::get<0>(pair), std::get<1>(pair)) &&
        !areCompatible(std::get<0>(pair), std::get<1>(pair)))
      return emitOpError() << "carried value #" << i << " of type "
                           << std::get<0>(pair)
                           << " does not match the body argument type "
                           << std::get<1>(pair);
  if (getNumResults() != numCarried)
    return emitOpError() << "has " << getNumResults() << " results for "
                         << numCarried << " carried values";
  PrimYieldOp yield = getYield(getBody());
  if (!yield)
    return success(); // Reported by the terminator checks.
  if (yield->getNumOperands() == 0 ||
      !llvm::isa<BoolType>(yield->getOperand(0).getType()))
    return emitOpError("body must yield the continue condition (!ts.bool) "
                       "first");
  return verifyYield(*this, getBody(), getResultTypes(), "body", /*skip=*/1);
}

//===----------------------------------------------------------------------===//
// Casts and guards
//===----------------------------------------------------------------------===//

/// A cast to itself is its operand. A 0-d tensor constant used as a
/// number (traced graphs pass sizes as tensors: arange(0,
/// NumToTensor(numel(x)))) is that number.
OpFoldResult PrimUncheckedCastOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  // A cast of a cast is one object: the nearest value of the chain that
  // has this type (an int[] cast to int[]? and back); else a cast of the
  // chain's first value.
  if (auto inner = getOperand().getDefiningOp<PrimUncheckedCastOp>()) {
    Value v = inner.getOperand();
    for (auto cast = inner; cast;
         cast = cast.getOperand().getDefiningOp<PrimUncheckedCastOp>()) {
      if (cast.getOperand().getType() == getType())
        return cast.getOperand();
      v = cast.getOperand();
    }
    getOperandMutable().assign(v);
    return getResult();
  }
  Type type = getType();
  // A constant int or float seen as a number (torch.norm's p) is that
  // constant.
  if (llvm::isa<NumberType>(type)) {
    if (auto i = llvm::dyn_cast_or_null<IntegerAttr>(adaptor.getOperand());
        i && !i.getType().isInteger(1))
      return i;
    if (auto f = llvm::dyn_cast_or_null<FloatAttr>(adaptor.getOperand()))
      return f;
  }
  auto elements = llvm::dyn_cast_or_null<DenseElementsAttr>(adaptor.getOperand());
  if (!elements || elements.getNumElements() != 1 ||
      !llvm::isa<NumberType, IntType, FloatType>(type))
    return {};
  Type element = elements.getElementType();
  Builder b(getContext());
  if (llvm::isa<IntegerType>(element) && !element.isInteger(1) &&
      !llvm::isa<FloatType>(type)) {
    APInt v = elements.getSplatValue<APInt>();
    return b.getI64IntegerAttr(element.isUnsignedInteger()
                                   ? static_cast<int64_t>(v.getZExtValue())
                                   : v.getSExtValue());
  }
  if (llvm::isa<mlir::FloatType>(element) && !llvm::isa<IntType>(type))
    return b.getF64FloatAttr(
        elements.getSplatValue<APFloat>().convertToDouble());
  return {};
}

OpFoldResult PrimUncheckedUnwrapOptionalOp::fold(FoldAdaptor) {
  return getOperand().getType() == getType() ? getOperand() : Value();
}

/// prim::TypeCheck and prim::RequiresGradCheck: one refined result per
/// input, then the flag.
static LogicalResult verifyTypeCheck(Operation *op, ValueRange inputs,
                                     TypeRange results) {
  if (results.size() != inputs.size() + 1)
    return op->emitOpError()
           << "has " << results.size() << " results for " << inputs.size()
           << " inputs; expected one per input and a !ts.bool";
  if (!llvm::isa<BoolType>(results.back()))
    return op->emitOpError() << "last result must be !ts.bool, got "
                             << results.back();
  for (auto [i, pair] : llvm::enumerate(
           llvm::zip_equal(inputs.getTypes(), results.drop_back())))
    if (!isRefinementOf(std::get<1>(pair), std::get<0>(pair)))
      return op->emitOpError()
             << "result #" << i << " of type " << std::get<1>(pair)
             << " is not a refinement of the input type " << std::get<0>(pair);
  return success();
}

LogicalResult PrimTypeCheckOp::verify() {
  return verifyTypeCheck(*this, getInputs(), getResultTypes());
}

LogicalResult PrimRequiresGradCheckOp::verify() {
  return verifyTypeCheck(*this, getInputs(), getResultTypes());
}

LogicalResult PrimBailOutOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs the guarded value as its first operand");
  if (!isRefinementOf(getType(), getInputs().front().getType()))
    return emitOpError() << "result type " << getType()
                         << " is not a refinement of the guarded value's type "
                         << getInputs().front().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

std::string PrimCallFunctionOp::getCalleeName() {
  auto constant = getCallee().getDefiningOp<PrimConstantOp>();
  if (!constant)
    return "";
  auto name = constant->getAttrOfType<StringAttr>("name");
  return name ? name.str() : "";
}

CallInterfaceCallable PrimCallFunctionOp::getCallableForCallee() {
  std::string name = getCalleeName();
  if (name.empty())
    return getCallee();
  return FlatSymbolRefAttr::get(getContext(), name);
}

void PrimCallFunctionOp::setCalleeFromCallable(CallInterfaceCallable callee) {
  // The callee is a function value: a symbol cannot replace it, a value can.
  if (auto value = llvm::dyn_cast<Value>(callee))
    getCalleeMutable().assign(value);
}

Operation::operand_range PrimCallFunctionOp::getArgOperands() {
  return getArgs();
}

MutableOperandRange PrimCallFunctionOp::getArgOperandsMutable() {
  return getArgsMutable();
}

std::string PrimCallMethodOp::getCalleeName() {
  StringRef className =
      llvm::TypeSwitch<Type, StringRef>(getObject().getType())
          .Case<ClassType, ModuleType>([](auto type) { return type.getName(); })
          .Case<OpaqueType>([](OpaqueType type) { return type.getText(); })
          .Default([](Type) { return StringRef(); });
  return (className + "." + getName()).str();
}

CallInterfaceCallable PrimCallMethodOp::getCallableForCallee() {
  return FlatSymbolRefAttr::get(getContext(), getCalleeName());
}

void PrimCallMethodOp::setCalleeFromCallable(CallInterfaceCallable) {
  // The callee follows from the object's class and the method name.
}

Operation::operand_range PrimCallMethodOp::getArgOperands() {
  // The object is the method's first argument, `self`.
  return getOperands();
}

MutableOperandRange PrimCallMethodOp::getArgOperandsMutable() {
  return MutableOperandRange(getOperation());
}

//===----------------------------------------------------------------------===//
// ts.operator
//===----------------------------------------------------------------------===//

LogicalResult OperatorOp::verify() {
  StringRef kind = getKind();
  size_t sep = kind.find("::");
  if (sep == StringRef::npos || sep == 0 || sep + 2 == kind.size())
    return emitOpError() << "kind '" << kind
                         << "' is not a qualified operator name such as "
                            "'aten::foo' or 'aten::foo.overload'";
  return success();
}

} // namespace mlir::tsmlir::ts
