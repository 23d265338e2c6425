//===- ValueNames.cpp - TorchScript value names in MLIR locations ---------===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Dialect/TorchScript/IR/ValueNames.h"

#include "tsmlir/Dialect/Fusion/IR/FusionOps.h"
#include "tsmlir/Dialect/TorchScript/IR/TorchScriptOps.h"

#include "mlir/IR/Value.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tsmlir::ts;

Location mlir::tsmlir::ts::getNodeLoc(
    MLIRContext *context, llvm::ArrayRef<llvm::StringRef> names,
    Location source) {
  if (names.empty())
    return source;
  if (names.size() == 1)
    return NameLoc::get(StringAttr::get(context, names.front()), source);
  llvm::SmallVector<Location> locs;
  locs.reserve(names.size());
  for (llvm::StringRef name : names)
    locs.push_back(NameLoc::get(StringAttr::get(context, name), source));
  return FusedLoc::get(context, locs);
}

/// The location of the code itself: an inlined op's location is a call site
/// (`callsite(<callee's location> at <the call's location>)`).
static Location getCalleeLoc(Location loc) {
  while (auto callSite = llvm::dyn_cast<CallSiteLoc>(loc))
    loc = callSite.getCallee();
  return loc;
}

llvm::SmallVector<llvm::StringRef> mlir::tsmlir::ts::getResultNames(
    Operation *op) {
  llvm::SmallVector<llvm::StringRef> names(op->getNumResults());
  Location loc = getCalleeLoc(op->getLoc());
  if (auto name = llvm::dyn_cast<NameLoc>(loc)) {
    if (names.size() == 1)
      names[0] = name.getName().getValue();
    return names;
  }
  auto fused = llvm::dyn_cast<FusedLoc>(loc);
  if (!fused || fused.getLocations().size() != names.size())
    return names;
  for (auto [i, child] : llvm::enumerate(fused.getLocations())) {
    auto name = llvm::dyn_cast<NameLoc>(child);
    if (!name)
      return llvm::SmallVector<llvm::StringRef>(op->getNumResults());
    names[i] = name.getName().getValue();
  }
  return names;
}

llvm::StringRef mlir::tsmlir::ts::getScope(Location loc) {
  loc = getCalleeLoc(loc);
  if (auto name = llvm::dyn_cast<NameLoc>(loc)) {
    llvm::StringRef text = name.getName().getValue();
    if (text.consume_front(kScopePrefix))
      return text;
    return getScope(name.getChildLoc());
  }
  if (auto fused = llvm::dyn_cast<FusedLoc>(loc))
    for (Location child : fused.getLocations())
      if (llvm::StringRef scope = getScope(child); !scope.empty())
        return scope;
  return {};
}

llvm::StringRef mlir::tsmlir::ts::getArgumentName(BlockArgument arg) {
  if (auto name = llvm::dyn_cast<NameLoc>(arg.getLoc()))
    return name.getName().getValue();
  return {};
}

FileLineColLoc mlir::tsmlir::ts::getSourceLoc(Location loc) {
  loc = getCalleeLoc(loc);
  if (auto fileLoc = llvm::dyn_cast<FileLineColLoc>(loc))
    return fileLoc;
  if (auto name = llvm::dyn_cast<NameLoc>(loc)) {
    if (name.getName() == kTextPosition)
      return {};
    return getSourceLoc(name.getChildLoc());
  }
  if (auto fused = llvm::dyn_cast<FusedLoc>(loc)) {
    for (Location child : fused.getLocations())
      if (FileLineColLoc fileLoc = getSourceLoc(child))
        return fileLoc;
  }
  return {};
}

void mlir::tsmlir::ts::setResultNamesFromLoc(Operation *op,
                                             OpAsmSetValueNameFn setNameFn) {
  for (auto [result, name] :
       llvm::zip_equal(op->getResults(), getResultNames(op))) {
    // Numbers would clash with the printer's own numbering.
    if (name.empty() || llvm::all_of(name, llvm::isDigit))
      continue;
    setNameFn(result, name);
  }
}

bool mlir::tsmlir::ts::isStructuralAttrName(llvm::StringRef opName,
                                            llvm::StringRef name) {
  if (opName == OperatorOp::getOperationName())
    return name == "kind" || name == "Subgraph";
  if (opName == tsmlir::fusion::GroupOp::getOperationName())
    return name == "strategy" || name == "name";
  if (opName == tsmlir::fusion::DifferentiableGraphOp::getOperationName())
    return name == "num_saved";
  return name.starts_with(kNodeAttrPrefix);
}
