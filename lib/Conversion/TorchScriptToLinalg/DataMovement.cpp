//===- DataMovement.cpp - Views, reshapes, permutations, slicing, cat, stack ---===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PopulatePatterns.h"
#include "Utils.h"

using namespace mlir;
using namespace mlir::tsmlir;
using namespace mlir::tsmlir::lowering;

void lowering::populateDataMovementPatterns(const TypeConverter &converter,
                   RewritePatternSet &patterns) {}
