//===- SpecializationSpec.cpp - What ts-specialize specialises for --------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "SpecializationSpec.h"

#include "tsmlir/Dialect/TorchScript/IR/Dtypes.h"
#include "tsmlir/Dialect/TorchScript/Transforms/ShapeInference.h"
#include "tsmlir/Support/Npy.h"

#include "mlir/IR/Diagnostics.h"

namespace mlir::tsmlir::ts {

/// Splits `text` at the commas outside brackets.
static SmallVector<StringRef> splitTopLevel(StringRef text) {
  SmallVector<StringRef> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '[')
      ++depth;
    else if (text[i] == ']')
      --depth;
    else if (text[i] == ',' && depth == 0) {
      parts.push_back(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push_back(text.substr(start).trim());
  return parts;
}

/// Parses `DTYPE[d0,...]`, `DTYPE` or `[d0,...]` into `arg`.
static LogicalResult parseArgType(StringRef text, SpecializationSpec::Arg &arg,
                                  std::string &error) {
  size_t bracket = text.find('[');
  StringRef dtype = text.take_front(bracket).trim();
  if (!dtype.empty() && !getDtypeForSpecName(dtype)) {
    error =
        ("unknown dtype '" + dtype + "' (expected " + getSpecNameList() + ")")
            .str();
    return failure();
  }
  arg.dtype = dtype.str();
  if (bracket == StringRef::npos) {
    if (dtype.empty()) {
      error = "expected a dtype, sizes in brackets, or both";
      return failure();
    }
    return success();
  }
  StringRef dims = text.substr(bracket + 1);
  if (!dims.consume_back("]")) {
    error = "expected ']' at the end of the sizes";
    return failure();
  }
  arg.sizes.emplace();
  if (dims.trim().empty())
    return success();
  SmallVector<StringRef> parts;
  dims.split(parts, ',');
  for (StringRef part : parts) {
    part = part.trim();
    int64_t size;
    if (part == "?") {
      arg.sizes->push_back(TensorType::kUnknown);
    } else if (!part.getAsInteger(10, size) && size >= 0) {
      arg.sizes->push_back(size);
    } else {
      error =
          ("bad size '" + part + "' (expected a non-negative integer or '?')")
              .str();
      return failure();
    }
  }
  return success();
}

LogicalResult SpecializationSpec::parse(
    StringRef options,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  options = options.trim();
  if (options.empty())
    return errorHandler("expected argN=DTYPE[sizes], inputs=FILE.npy,..., "
                        "func=NAME or device=DEVICE");
  bool inInputs = false;
  for (StringRef part : splitTopLevel(options)) {
    auto [key, value] = part.split('=');
    if (!part.contains('=')) {
      // Further files of `inputs=a.npy,b.npy`.
      if (!inInputs || part.empty())
        return errorHandler("expected 'key=value', got '" + part + "'");
      inputs.push_back(part.str());
      continue;
    }
    inInputs = false;
    key = key.trim();
    value = value.trim();
    if (key == "inputs") {
      if (value.empty())
        return errorHandler("'inputs=' needs at least one .npy file");
      inputs.push_back(value.str());
      inInputs = true;
    } else if (key == "device") {
      // PyTorch names the first GPU cuda:0 (str(x.device)).
      if (value == "cuda")
        value = "cuda:0";
      if (value != "cpu" && !value.starts_with("cuda:"))
        return errorHandler("'device=' must be cpu, cuda or cuda:N, not '" +
                            value + "'");
      device = value.str();
    } else if (key == "func") {
      if (value.empty())
        return errorHandler("'func=' needs a function name");
      funcName = value.str();
    } else if (key.starts_with("arg")) {
      Arg arg;
      arg.text = part.str();
      if (key.drop_front(3).getAsInteger(10, arg.index))
        return errorHandler("bad argument '" + key +
                            "': expected arg followed by its index, as arg0");
      std::string error;
      if (failed(parseArgType(value, arg, error)))
        return errorHandler("bad type in '" + part + "': " + error);
      for (const Arg &other : args)
        if (other.index == arg.index)
          return errorHandler("argument " + Twine(arg.index) +
                              " is given twice");
      args.push_back(std::move(arg));
    } else {
      return errorHandler("unknown key '" + key +
                          "' (expected argN, inputs, func or device)");
    }
  }
  if (args.empty() && inputs.empty() && device.empty())
    return errorHandler("nothing to specialise for: expected argN=..., "
                        "inputs=... or device=...");
  return success();
}

FailureOr<ResolvedSpec> resolveSpec(const SpecializationSpec &spec,
                                    MLIRContext *ctx, Location loc) {
  ResolvedSpec resolved;
  for (const SpecializationSpec::Arg &arg : spec.args) {
    std::optional<Dtype> known = getDtypeForSpecName(arg.dtype);
    Type dtype = known ? getDtypeType(ctx, *known) : Type();
    std::optional<ArrayRef<int64_t>> sizes;
    if (arg.sizes)
      sizes = ArrayRef<int64_t>(*arg.sizes);
    resolved.args.emplace_back(arg.index, TensorType::get(ctx, dtype, sizes));
    resolved.argTexts.push_back(arg.text);
  }
  for (const std::string &path : spec.inputs) {
    llvm::Expected<NpyHeader> header = readNpyHeader(path);
    if (!header)
      return emitError(loc) << "cannot specialise for input "
                            << llvm::toString(header.takeError());
    std::optional<Dtype> dtype = getDtypeForNpyDescr(header->descr);
    if (!dtype)
      return emitError(loc)
             << "cannot specialise for input '" << path << "': its dtype '"
             << header->descr << "' has no PyTorch dtype";
    resolved.inputs.push_back(TensorType::get(
        ctx, getDtypeType(ctx, *dtype), ArrayRef<int64_t>(header->shape)));
    resolved.inputPaths.push_back(path);
  }
  return resolved;
}

/// Whether `type` is `Optional[Tensor]`.
static bool isOptionalTensor(Type type) {
  auto optional = llvm::dyn_cast<OptionalType>(type);
  return optional && llvm::isa<TensorType>(optional.getContainedType());
}

FailureOr<SmallVector<Type>> getSpecializedArgTypes(func::FuncOp func,
                                                    const ResolvedSpec &spec,
                                                    bool allowOptional,
                                                    bool report) {
  SmallVector<Type> types(func.getArgumentTypes());
  SmallVector<bool> given(types.size(), false);
  auto fail = [&](auto &&...message) -> FailureOr<SmallVector<Type>> {
    if (report)
      (func.emitError() << ... << message);
    return failure();
  };
  // Gives argument `index` the type `type`, stated by `what`.
  auto specialize = [&](unsigned index, TensorType type,
                        StringRef what) -> LogicalResult {
    if (index >= types.size()) {
      (void)fail("'", what, "': argument ", index, " is out of range: @",
                 func.getSymName(), " has ", types.size(), " arguments");
      return failure();
    }
    Type current = types[index];
    if (isOptionalTensor(current)) {
      if (!allowOptional) {
        (void)fail("'", what, "': argument ", index, " of @", func.getSymName(),
                   " is optional (", current, "); a guard checks tensors only");
        return failure();
      }
      // The input is a tensor: the argument is no longer optional.
      current = llvm::cast<OptionalType>(current).getContainedType();
    }
    if (!llvm::isa<TensorType>(current)) {
      (void)fail("'", what, "': argument ", index, " of @", func.getSymName(),
                 " is not a tensor but ", current);
      return failure();
    }
    if (given[index]) {
      (void)fail("'", what, "': argument ", index, " is specified twice");
      return failure();
    }
    given[index] = true;
    bool conflict = false;
    Type refined = refineType(current, type, &conflict);
    if (conflict) {
      (void)fail("'", what, "' contradicts the type ", current, " of argument ",
                 index, " of @", func.getSymName());
      return failure();
    }
    if (Operation *user = getUserRejecting(func.getArgument(index), refined)) {
      (void)fail("'", what, "' contradicts what '", user->getName(),
                 "' expects of argument ", index, " of @", func.getSymName());
      return failure();
    }
    types[index] = refined;
    return success();
  };
  // inputs= go to the tensor arguments in order.
  SmallVector<unsigned> tensorArgs;
  for (auto [i, type] : llvm::enumerate(types))
    if (llvm::isa<TensorType>(type) || isOptionalTensor(type))
      tensorArgs.push_back(i);
  if (spec.inputs.size() > tensorArgs.size())
    return fail(spec.inputs.size(), " inputs given for the ", tensorArgs.size(),
                " tensor arguments of @", func.getSymName());
  for (auto [i, type] : llvm::enumerate(spec.inputs))
    if (failed(specialize(tensorArgs[i], type, spec.inputPaths[i])))
      return failure();
  for (auto [arg, text] : llvm::zip_equal(spec.args, spec.argTexts))
    if (failed(specialize(arg.first, arg.second, text)))
      return failure();
  return types;
}

} // namespace mlir::tsmlir::ts
