//===- CAbi.cpp - The C ABI of an ahead-of-time compiled graph ------------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Adds to a module lowered to the LLVM dialect what tsmlir/Runtime/Abi.h
// promises, for a graph whose compiled entry is `_mlir_ciface_ENTRY`:
//
//   @NAME_ENTRY_abi          the tsmlir_signature, a constant
//   @NAME_ENTRY_packed       void(void **): unpacks a call's arguments for
//                            _mlir_ciface_ENTRY (internal)
//   @NAME_ENTRY              i32(ptr, i64, ptr, i64): tsmlir_invoke on the
//                            signature, which checks the call first
//   @NAME_ENTRY_signature    ptr(): the signature's address
//   @tsmlir_shared_model     [ptr, null]: with `shared`
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Target/Aot/AotCompiler.h"

#include "tsmlir/Support/Npy.h"

#include "tsmlir/Runtime/Abi.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::tsmlir;

/// TorchScript's name of a value without the suffix that keeps names unique
/// in a graph: `boxes1.1` -> `boxes1`.
std::string mlir::tsmlir::getAbiName(StringRef name) {
  auto [base, suffix] = name.rsplit('.');
  if (!suffix.empty() && !base.empty() &&
      llvm::all_of(suffix, [](char c) { return llvm::isDigit(c); }))
    return base.str();
  return name.str();
}
static std::string cName(StringRef name) { return getAbiName(name); }

namespace {
/// Builds the constants of the signature at module level.
class AbiBuilder {
public:
  AbiBuilder(ModuleOp module, StringRef prefix)
      : module(module), b(module.getContext()), prefix(prefix.str()),
        loc(module.getLoc()) {
    b.setInsertionPointToEnd(module.getBody());
    ptr = LLVM::LLVMPointerType::get(b.getContext());
    i32 = b.getI32Type();
    i64 = b.getI64Type();
  }

  /// A builder that adds operations at the end of the module.
  OpBuilder atModuleEnd() {
    OpBuilder top(module.getContext());
    top.setInsertionPointToEnd(module.getBody());
    return top;
  }

  /// A private constant global named PREFIX_SUFFIX<n> of `type`, whose
  /// initializer `build` returns.
  LLVM::GlobalOp global(StringRef suffix, Type type,
                        function_ref<Value(OpBuilder &)> build,
                        bool exported = false) {
    OpBuilder top = atModuleEnd();
    std::string name = prefix + "_" + suffix.str();
    if (!exported)
      name += std::to_string(counter++);
    auto op = LLVM::GlobalOp::create(
        top, loc, type, /*isConstant=*/true,
        exported ? LLVM::Linkage::External : LLVM::Linkage::Internal, name,
        Attribute());
    OpBuilder in(module.getContext());
    in.setInsertionPointToStart(in.createBlock(&op.getInitializerRegion()));
    Value value = build(in);
    LLVM::ReturnOp::create(in, loc, value);
    return op;
  }

  /// The address of a NUL-terminated string constant.
  Value string(OpBuilder &at, StringRef value) {
    auto it = strings.find(value);
    if (it == strings.end()) {
      OpBuilder top = atModuleEnd();
      std::string bytes = value.str();
      bytes.push_back('\0');
      auto type = LLVM::LLVMArrayType::get(top.getI8Type(), bytes.size());
      auto op = LLVM::GlobalOp::create(
          top, loc, type, true, LLVM::Linkage::Internal,
          prefix + "_str" + std::to_string(counter++),
          top.getStringAttr(bytes));
      it = strings.insert({value.str(), op}).first;
    }
    return LLVM::AddressOfOp::create(at, loc, it->second);
  }

  /// The address of an i64 array constant, or null when empty.
  Value sizes(OpBuilder &at, ArrayRef<int64_t> values) {
    if (values.empty())
      return LLVM::ZeroOp::create(at, loc, ptr);
    auto type = LLVM::LLVMArrayType::get(i64, values.size());
    OpBuilder top = atModuleEnd();
    auto tensorType = RankedTensorType::get(
        {static_cast<int64_t>(values.size())}, i64);
    auto op = LLVM::GlobalOp::create(
        top, loc, type, true, LLVM::Linkage::Internal,
        prefix + "_sizes" + std::to_string(counter++),
        DenseElementsAttr::get(tensorType, values));
    return LLVM::AddressOfOp::create(at, loc, op);
  }

  Value constant(OpBuilder &at, Type type, int64_t value) {
    return LLVM::ConstantOp::create(at, loc, type,
                                    at.getIntegerAttr(type, value));
  }

  /// Builds a struct value field by field.
  Value record(OpBuilder &at, LLVM::LLVMStructType type,
               ArrayRef<Value> fields) {
    Value value = LLVM::UndefOp::create(at, loc, type);
    for (auto [i, field] : llvm::enumerate(fields))
      value = LLVM::InsertValueOp::create(at, loc, value, field,
                                          ArrayRef<int64_t>{(int64_t)i});
    return value;
  }

  /// An array of tsmlir_value_info, or null when empty.
  Value valueInfos(OpBuilder &at, ArrayRef<GraphValue> values) {
    if (values.empty())
      return LLVM::ZeroOp::create(at, loc, ptr);
    // { const char *name; i32 kind, dtype, rank, position; i64 *sizes }
    auto infoType = LLVM::LLVMStructType::getLiteral(
        b.getContext(), {ptr, i32, i32, i32, i32, ptr});
    auto arrayType = LLVM::LLVMArrayType::get(infoType, values.size());
    LLVM::GlobalOp op = global("values", arrayType, [&](OpBuilder &in) {
      Value array = LLVM::UndefOp::create(in, loc, arrayType);
      for (auto [i, v] : llvm::enumerate(values)) {
        Value info = record(
            in, infoType,
            {string(in, cName(v.name)),
             constant(in, i32,
                      v.isNumber ? TSMLIR_KIND_NUMBER : TSMLIR_KIND_TENSOR),
             constant(in, i32, v.getDtypeInfo().abiCode),
             constant(in, i32, v.shape.size()), constant(in, i32, v.position),
             sizes(in, v.shape)});
        array = LLVM::InsertValueOp::create(in, loc, array, info,
                                            ArrayRef<int64_t>{(int64_t)i});
      }
      return array;
    });
    return LLVM::AddressOfOp::create(at, loc, op);
  }

  /// An array of tsmlir_bound_argument, or null when empty.
  Value boundArguments(OpBuilder &at, ArrayRef<BoundArgument> bound) {
    if (bound.empty())
      return LLVM::ZeroOp::create(at, loc, ptr);
    auto boundType =
        LLVM::LLVMStructType::getLiteral(b.getContext(), {ptr, i32, ptr});
    auto arrayType = LLVM::LLVMArrayType::get(boundType, bound.size());
    LLVM::GlobalOp op = global("bound", arrayType, [&](OpBuilder &in) {
      Value array = LLVM::UndefOp::create(in, loc, arrayType);
      for (auto [i, arg] : llvm::enumerate(bound)) {
        Value value = record(in, boundType,
                             {string(in, cName(arg.name)),
                              constant(in, i32, arg.position),
                              string(in, arg.value)});
        array = LLVM::InsertValueOp::create(in, loc, array, value,
                                            ArrayRef<int64_t>{(int64_t)i});
      }
      return array;
    });
    return LLVM::AddressOfOp::create(at, loc, op);
  }

  ModuleOp module;
  OpBuilder b;
  std::string prefix;
  Location loc;
  Type ptr, i32, i64;
  unsigned counter = 0;
  llvm::StringMap<LLVM::GlobalOp> strings;
};
} // namespace

/// The function that unpacks `void **arguments` for `ciface`: pointers to
/// memref descriptors are passed on, f64 arguments loaded.
static LLVM::LLVMFuncOp buildPacked(AbiBuilder &abi, LLVM::LLVMFuncOp ciface,
                                    StringRef name) {
  OpBuilder &b = abi.b;
  Location loc = abi.loc;
  auto type = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(b.getContext()), {abi.ptr});
  auto func = LLVM::LLVMFuncOp::create(b, loc, name, type,
                                       LLVM::Linkage::Internal);
  Block *body = func.addEntryBlock(b);
  OpBuilder in = OpBuilder::atBlockBegin(body);
  SmallVector<Value> operands;
  for (auto [i, argType] :
       llvm::enumerate(ciface.getFunctionType().getParams())) {
    Value slot = LLVM::GEPOp::create(in, loc, abi.ptr, abi.ptr,
                                     body->getArgument(0),
                                     ArrayRef<LLVM::GEPArg>{(int32_t)i});
    Value pointer = LLVM::LoadOp::create(in, loc, abi.ptr, slot);
    operands.push_back(llvm::isa<LLVM::LLVMPointerType>(argType)
                           ? pointer
                           : LLVM::LoadOp::create(in, loc, argType, pointer)
                                 .getResult());
  }
  LLVM::CallOp::create(in, loc, ciface, operands);
  LLVM::ReturnOp::create(in, loc, ValueRange());
  return func;
}

/// The declaration of `name` with `type`, added once.
static LLVM::LLVMFuncOp declare(AbiBuilder &abi, StringRef name,
                                LLVM::LLVMFunctionType type) {
  if (auto existing = abi.module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(abi.b);
  abi.b.setInsertionPointToStart(abi.module.getBody());
  return LLVM::LLVMFuncOp::create(abi.b, abi.loc, name, type);
}

LogicalResult mlir::tsmlir::buildCAbi(ModuleOp module,
                                      const PreparedGraph &graph,
                                      const AotOptions &options) {
  std::string cifaceName = "_mlir_ciface_" + graph.entry;
  auto ciface = module.lookupSymbol<LLVM::LLVMFuncOp>(cifaceName);
  if (!ciface)
    return module.emitError() << "no '" << cifaceName
                              << "' after lowering: the entry was not lowered "
                                 "with its C interface";
  size_t expected = graph.inputs.size() + graph.outputs.size();
  if (ciface.getNumArguments() != expected)
    return ciface.emitError()
           << "takes " << ciface.getNumArguments() << " arguments, but the "
           << "graph has " << graph.inputs.size() << " inputs and "
           << graph.outputs.size() << " outputs";

  std::string exported = options.name + "_" + graph.entry;
  AbiBuilder abi(module, "__" + exported);
  MLIRContext *ctx = module.getContext();
  LLVM::LLVMFuncOp packed = buildPacked(abi, ciface, "__" + exported + "_packed");

  Type ptr = abi.ptr, i32 = abi.i32, i64 = abi.i64;
  auto entryType = LLVM::LLVMFunctionType::get(i32, {ptr, i64, ptr, i64});
  LLVM::LLVMFuncOp invoke = declare(abi, "tsmlir_invoke",
      LLVM::LLVMFunctionType::get(i32, {ptr, ptr, i64, ptr, i64}));
  LLVM::LLVMFuncOp deviceError;
  if (options.isCUDA())
    deviceError = declare(abi, "tsmlirCudaGetStickyError",
                          LLVM::LLVMFunctionType::get(i32, {ptr, i64}));

  // The entry is declared first: the signature holds its address.
  OpBuilder &b = abi.b;
  b.setInsertionPointToEnd(module.getBody());
  auto entry = LLVM::LLVMFuncOp::create(b, abi.loc, exported, entryType);

  std::string target = options.isCUDA()
                           ? options.compile.gpu.chip
                           : (options.compile.host.triple.empty()
                                  ? llvm::sys::getDefaultTargetTriple()
                                  : options.compile.host.triple);
  // tsmlir_signature, field by field (see Abi.h).
  auto signatureType = LLVM::LLVMStructType::getLiteral(
      ctx, {i32, i32, ptr, ptr, i32, i32, i32, i32, ptr, ptr, ptr, ptr, ptr,
            ptr});
  LLVM::GlobalOp signature = abi.global(
      "abi", signatureType,
      [&](OpBuilder &in) {
        Location loc = abi.loc;
        return abi.record(
            in, signatureType,
            {abi.constant(in, i32, TSMLIR_ABI_VERSION),
             abi.constant(in, i32,
                          options.isCUDA() ? TSMLIR_DEVICE_CUDA
                                           : TSMLIR_DEVICE_CPU),
             abi.string(in, exported), abi.string(in, target),
             abi.constant(in, i32, graph.inputs.size()),
             abi.constant(in, i32, graph.outputs.size()),
             abi.constant(in, i32, graph.bound.size()),
             abi.constant(in, i32, graph.numGraphArguments),
             abi.valueInfos(in, graph.inputs),
             abi.valueInfos(in, graph.outputs),
             abi.boundArguments(in, graph.bound),
             LLVM::AddressOfOp::create(in, loc, entry),
             LLVM::AddressOfOp::create(in, loc, packed),
             deviceError
                 ? LLVM::AddressOfOp::create(in, loc, deviceError).getResult()
                 : LLVM::ZeroOp::create(in, loc, ptr).getResult()});
      },
      /*exported=*/false);

  // NAME_ENTRY(inputs, num_inputs, outputs, num_outputs).
  {
    Block *body = entry.addEntryBlock(b);
    OpBuilder in = OpBuilder::atBlockBegin(body);
    Value sig = LLVM::AddressOfOp::create(in, abi.loc, signature);
    SmallVector<Value> operands{sig};
    operands.append(body->args_begin(), body->args_end());
    Value status =
        LLVM::CallOp::create(in, abi.loc, invoke, operands).getResult();
    LLVM::ReturnOp::create(in, abi.loc, status);
  }
  // NAME_ENTRY_signature().
  {
    b.setInsertionPointToEnd(module.getBody());
    auto getter = LLVM::LLVMFuncOp::create(
        b, abi.loc, exported + "_signature",
        LLVM::LLVMFunctionType::get(ptr, {}));
    Block *body = getter.addEntryBlock(b);
    OpBuilder in = OpBuilder::atBlockBegin(body);
    LLVM::ReturnOp::create(
        in, abi.loc, LLVM::AddressOfOp::create(in, abi.loc, signature));
  }
  // tsmlir_shared_model: {&signature, NULL}.
  if (options.shared) {
    auto arrayType = LLVM::LLVMArrayType::get(ptr, 2);
    abi.prefix = "tsmlir";
    abi.global(
        "shared_model", arrayType,
        [&](OpBuilder &in) {
          Value array = LLVM::UndefOp::create(in, abi.loc, arrayType);
          array = LLVM::InsertValueOp::create(
              in, abi.loc, array,
              LLVM::AddressOfOp::create(in, abi.loc, signature),
              ArrayRef<int64_t>{0});
          return LLVM::InsertValueOp::create(
                     in, abi.loc, array, LLVM::ZeroOp::create(in, abi.loc, ptr),
                     ArrayRef<int64_t>{1})
              .getResult();
        },
        /*exported=*/true);
  }
  return success();
}
