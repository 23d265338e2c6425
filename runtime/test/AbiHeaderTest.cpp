//===- AbiHeaderTest.cpp - Abi.h as C++ ------------------------*- C++ -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Compiled with -Wall -Wextra -Werror -pedantic into tsmlir-abi-test: Abi.h
// must be valid C++ with C linkage, and its types must have the layout that
// C gives them, which AbiTest.c compares with its own.
//
//===----------------------------------------------------------------------===//

#include "tsmlir/Runtime/Abi.h"

#include <cstddef>

#define LAYOUT(type, member) sizeof(type), offsetof(type, member)

extern "C" {

// The sizes and offsets of Abi.h's types, in the order of AbiTest.c's list;
// returns how many there are.
size_t tsmlirAbiCxxLayout(size_t *values, size_t capacity) {
  const size_t layout[] = {
      LAYOUT(tsmlir_tensor, data),
      LAYOUT(tsmlir_tensor, dtype),
      LAYOUT(tsmlir_tensor, rank),
      LAYOUT(tsmlir_tensor, sizes),
      LAYOUT(tsmlir_tensor, strides),
      LAYOUT(tsmlir_value_info, name),
      LAYOUT(tsmlir_value_info, kind),
      LAYOUT(tsmlir_value_info, dtype),
      LAYOUT(tsmlir_value_info, rank),
      LAYOUT(tsmlir_value_info, position),
      LAYOUT(tsmlir_value_info, sizes),
      LAYOUT(tsmlir_bound_argument, name),
      LAYOUT(tsmlir_bound_argument, position),
      LAYOUT(tsmlir_bound_argument, value),
      LAYOUT(tsmlir_signature, abi_version),
      LAYOUT(tsmlir_signature, device),
      LAYOUT(tsmlir_signature, name),
      LAYOUT(tsmlir_signature, target),
      LAYOUT(tsmlir_signature, num_inputs),
      LAYOUT(tsmlir_signature, num_outputs),
      LAYOUT(tsmlir_signature, num_bound),
      LAYOUT(tsmlir_signature, num_graph_arguments),
      LAYOUT(tsmlir_signature, inputs),
      LAYOUT(tsmlir_signature, outputs),
      LAYOUT(tsmlir_signature, bound),
      LAYOUT(tsmlir_signature, entry),
      LAYOUT(tsmlir_signature, packed),
      LAYOUT(tsmlir_signature, device_error),
      sizeof(tsmlir_dtype),
      sizeof(tsmlir_status),
  };
  const size_t count = sizeof(layout) / sizeof(layout[0]);
  for (size_t i = 0; i < count && i < capacity; ++i)
    values[i] = layout[i];
  return count;
}

// A runtime function called from C++: the declarations have C linkage.
const char *tsmlirAbiCxxStatusName(int32_t status) {
  return tsmlir_status_name(status);
}

} // extern "C"
