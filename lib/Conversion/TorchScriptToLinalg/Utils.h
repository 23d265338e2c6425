//===- Utils.h - Helpers shared by the ts to linalg patterns ----*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_LIB_CONVERSION_TORCHSCRIPTTOLINALG_UTILS_H
#define TSMLIR_LIB_CONVERSION_TORCHSCRIPTTOLINALG_UTILS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/DialectConversion.h"

#include <array>
#include <optional>

namespace mlir::tsmlir::lowering {

/// The tensor data `value` (dense or a dense resource, as a
/// ts.prim.Constant or a ts.module_state holds it) as elements of `type`,
/// whose element type is the builtin one of the same width (si64 data as
/// i64); null when the sizes differ or `value` is not tensor data.
ElementsAttr convertElementsAttr(Attribute value, RankedTensorType type);

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// The base of a lowering registered once per op it handles (a family of
/// ops sharing one implementation: `ts.aten.add.Tensor`,
/// `ts.aten.add.Scalar`, ...). `name` is the op class's
/// `getOperationName()` (see `getOperationNames`), so that a misspelt op
/// does not compile; `populateTorchScriptToLinalgPatterns` also checks that
/// the root of every pattern it returns is a registered op.
class NamedOpLowering : public ConversionPattern {
public:
  NamedOpLowering(const TypeConverter &converter, MLIRContext *ctx,
                  StringRef name)
      : ConversionPattern(converter, name, /*benefit=*/1, ctx) {}
};

/// The debug label of the patterns that also lower ops whose tensors have
/// dynamic sizes (`?`, from a dynamic specialisation): the conversion lets
/// a tensor of dynamic sizes reach only the ops such a pattern handles, and
/// names the others.
inline constexpr StringLiteral kDynamicSizesLabel = "dynamic-sizes";

/// The names of the ops `OpTys`, for registering a `NamedOpLowering` once
/// per op of a family.
template <typename... OpTys>
constexpr std::array<StringLiteral, sizeof...(OpTys)> getOperationNames() {
  return {OpTys::getOperationName()...};
}

//===----------------------------------------------------------------------===//
// Compile-time values of ts operands
//===----------------------------------------------------------------------===//

/// An `int` or `bool` constant.
std::optional<int64_t> getConstInt(Value value);
/// An `int`, `float` or `bool` constant, as a double.
std::optional<double> getConstNumber(Value value);
/// A `bool` constant.
std::optional<bool> getConstBool(Value value);
/// Whether `value` is the constant None.
bool isConstNone(Value value);
/// The string a constant `value` holds ("" for None or a non-constant).
StringRef getConstString(Value value);
/// A list of int constants (`prim::ListConstruct` of constants, or a
/// constant list); a single int constant counts as a list of one.
std::optional<SmallVector<int64_t>> getConstIntList(Value value);
/// `dim` wrapped into [0, rank), or std::nullopt if it is out of range.
std::optional<int64_t> wrapDim(int64_t dim, int64_t rank);

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// The converted (builtin) tensor type of ts value `value`, or null when it
/// is not a tensor with a known dtype and static sizes.
RankedTensorType getBuiltinTensorType(const TypeConverter &converter,
                                      Value value);
/// The converted type of result `i` of `op`, or null when it is not a static
/// builtin tensor.
RankedTensorType getResultType(const TypeConverter *converter, Operation *op,
                               unsigned i = 0);
/// The TorchScript dtype of a ts tensor value (null if unknown).
Type getTSDtype(Value value);
/// Whether the ts dtype is unsigned (`ui8`): casts from it zero-extend.
bool isUnsignedDtype(Type tsDtype);

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

/// The static shape that the ranked tensors `values` broadcast to (NumPy's
/// rules), or nullopt when they do not broadcast.
std::optional<SmallVector<int64_t>> broadcastShapes(ValueRange values);

/// `v` converted to the scalar type `to`, as PyTorch converts: float to int
/// truncates, anything to bool compares with zero, bools and `unsignedSrc`
/// integers zero-extend.
Value castScalar(OpBuilder &b, Location loc, Value v, Type to,
                 bool unsignedSrc = false);
/// A scalar constant of type `type` (float, integer or i1) holding `value`.
Value createScalarConstant(OpBuilder &b, Location loc, Type type,
                           double value);
/// An optional tensor operand `i` of `op`: null for None, else the
/// converted value (failure when it is neither).
FailureOr<Value> getOptionalTensor(OpBuilder &b, Operation *op,
                                   ArrayRef<Value> operands, unsigned i);
/// The dynamic sizes of `type`, in order: each read (`tensor.dim`) from the
/// first of `sources` whose size at that position, aligned on the trailing
/// dimension as broadcasting aligns them, is dynamic too. Under a dynamic
/// specialisation a `?` size is never 1 (the guard checks it), so a
/// broadcast result's dynamic size is that of any operand with a dynamic
/// size there. Failure when no source has one.
FailureOr<SmallVector<Value>> getDynamicSizes(OpBuilder &b, Location loc,
                                              RankedTensorType type,
                                              ValueRange sources);
/// A `tensor.empty` of `type`, its dynamic sizes read from `sources`
/// (getDynamicSizes); null when `type` has a dynamic size that no source
/// gives.
Value createEmpty(OpBuilder &b, Location loc, RankedTensorType type,
                  ValueRange sources = {});
/// An `index` constant.
Value indexConstant(OpBuilder &b, Location loc, int64_t v);
/// A nest of scf.for loops over every element of the static `shape`,
/// carrying `inits`; `body` gives the carried values' next ones. Returns
/// the values carried out (for an empty `shape`, `body` runs once).
SmallVector<Value> loopOver(
    OpBuilder &b, Location loc, ArrayRef<int64_t> shape, ValueRange inits,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange ivs,
                                    ValueRange carried)>
        body);
/// Stops the compiled code with `message` (cf.assert, which the CPU code
/// raises as an exception) unless `size` equals `expected`: the check a
/// dynamic size needs where the lowering takes it to equal another size
/// (broadcast operands, contracted dims). Nothing when both are static.
void checkSizesEqual(OpBuilder &b, Location loc, OpFoldResult size,
                     OpFoldResult expected, const Twine &message);
/// The size of dim `d` of the ranked tensor `value`: a constant when static,
/// else `tensor.dim`.
OpFoldResult getDimSize(OpBuilder &b, Location loc, Value value, int64_t d);

/// A `tensor.empty` of element type `element` whose dim i has the size of
/// dim `dims[i].second` of `dims[i].first` (a constant when static, else
/// `tensor.dim`): the result of a product, sized from its operands.
Value createEmptyFromDims(OpBuilder &b, Location loc,
                          ArrayRef<std::pair<Value, int64_t>> dims,
                          Type element);
/// A tensor of `type` filled with `value` (cast to its element type), its
/// dynamic sizes read from `sources` as createEmpty reads them.
Value createFilled(OpBuilder &b, Location loc, RankedTensorType type,
                   Value value, ValueRange sources = {});

/// Builds the body of an elementwise `linalg.generic`: given the scalar
/// elements of the inputs, returns the result element.
using ElementwiseBody =
    function_ref<Value(OpBuilder &, Location, ValueRange elements)>;

/// One `linalg.generic` over the iteration space of `resultType`, reading
/// each of `inputs` with PyTorch's broadcasting (aligned on the trailing
/// dimension, size-1 dimensions repeated). The result's dynamic sizes are
/// read from `inputs` (getDynamicSizes); null when one has none to give.
/// `sizeSources`, when given, are looked at first: tensors of the result's
/// rank with its sizes (another op's result, an init).
Value buildElementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                       ValueRange inputs, ElementwiseBody body,
                       ValueRange sizeSources = {});

/// The map that reads a tensor of shape `inputShape` broadcast to
/// `resultShape` (trailing alignment, size-1 dimensions broadcast).
AffineMap getBroadcastMap(MLIRContext *ctx, ArrayRef<int64_t> inputShape,
                          ArrayRef<int64_t> resultShape);

/// Combines an element with the accumulator of a reduction.
using ReductionBody =
    function_ref<Value(OpBuilder &, Location, Value element, Value acc)>;

/// Reduces `input` over `dims` (distinct, in [0, rank)) with one
/// `linalg.generic` whose accumulator has type `accType` and starts at
/// `init`. The result has the input's rank without `dims` (with size-1
/// dimensions in their place when `keepdim`); its element type is
/// `accType`. `combine` folds each element into the accumulator (the
/// input's other dims are parallel).
Value buildReduction(OpBuilder &b, Location loc, Value input,
                     ArrayRef<int64_t> dims, bool keepdim, Type accType,
                     Value init, ReductionBody combine);

/// Reshapes `input` to `shape` with the same number of elements: an expand
/// or collapse of unit dimensions where one does it, else `tensor.reshape`
/// (null for dynamic sizes, which only unit dimensions may reshape).
Value reshapeTo(OpBuilder &b, Location loc, Value input,
                ArrayRef<int64_t> shape);

/// `input` with its elements converted to `elementType` by `castScalar` in
/// an elementwise generic; `input` itself when it has that element type.
Value castElementType(OpBuilder &b, Location loc, Value input, Type elementType,
                      bool unsignedSrc = false);

/// The converted value of an optional tensor operand: `converted` when it is
/// a tensor, else, when `original` is a `ts.prim.Constant` of a tensor typed
/// as an optional (a frozen module's optional parameter), an arith.constant
/// of it; null otherwise.
Value materializeOptionalTensor(OpBuilder &b, Location loc, Value original,
                                Value converted);

/// Points the elements of a prim::ListConstruct that the conversion
/// replaces (all but constants; nested lists' too) at their converted
/// values, so that no unconverted value outlives the conversion through the
/// list, which stays legal and is erased once unused.
void remapListElements(ConversionPatternRewriter &rewriter, Value list);
/// Remaps the elements of every prim::ListConstruct `op` reads.
void remapListOperands(ConversionPatternRewriter &rewriter, Operation *op);

//===----------------------------------------------------------------------===//
// Products and windows (convolution, pooling, matrix products)
//===----------------------------------------------------------------------===//

bool isFloat(Type t);
/// The type products with result element `element` accumulate in.
Type getAccType(Type element);
/// `v`'s type as a ranked tensor, or null.
RankedTensorType getTensorType(Value v);
/// Operand `i` of `op` (converted: `operands[i]`) cast to the element type
/// `element`.
Value castOperand(OpBuilder &b, Location loc, Operation *op,
                  ValueRange operands, unsigned i, Type element);
/// A zero-filled tensor of `shape` and `element`.
Value createZeros(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  Type element);
/// `value` (broadcast as PyTorch does, trailing-aligned) to `shape`, with
/// elements cast to `element`: the initial value of an accumulation.
/// Dynamic sizes of `shape` are read from `like`, a tensor of that shape.
Value broadcastTo(OpBuilder &b, Location loc, Value value,
                  ArrayRef<int64_t> shape, Type element, bool isUnsigned,
                  Value like = {});
/// `value`, of the accumulator's type, cast to the result type and
/// reshaped to its shape.
Value finish(OpBuilder &b, Location loc, Value value,
             RankedTensorType resultType);
/// The `n` ints of a spatial `int[n]` operand: a list of n constants, or
/// of one (or one int) standing for all n; `empty` when the list is empty.
std::optional<SmallVector<int64_t>>
getSpatial(Value list, unsigned n,
           std::optional<SmallVector<int64_t>> empty = {});
DenseIntElementsAttr getI64VectorAttr(OpBuilder &b, ArrayRef<int64_t> values);
/// `input` padded by `pad[i]` on both sides of dims 2 and 3 with `value`
/// (and `extraHigh[i]` more at the end).
Value padSpatial(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> pad,
                 Value value, ArrayRef<int64_t> extraHigh = {});
/// The output size of a window of `kernel` with `stride`, `pad` and
/// `dilation` over `size` elements (PyTorch's floor mode).
int64_t getWindowCount(int64_t size, int64_t kernel, int64_t stride,
                       int64_t pad, int64_t dilation);

} // namespace mlir::tsmlir::lowering

#endif // TSMLIR_LIB_CONVERSION_TORCHSCRIPTTOLINALG_UTILS_H
