// RUN: tsmlir-opt %s -cse -split-input-file | FileCheck %s

// Functional ops are CSE'd.
// CHECK-LABEL: func.func @functional_ops_merge(
// CHECK-COUNT-1: ts.aten.sigmoid
// CHECK-NOT:     ts.aten.sigmoid
func.func @functional_ops_merge(%x: !ts.tensor) -> (!ts.tensor, !ts.tensor) {
  %a = ts.aten.sigmoid %x : (!ts.tensor) -> !ts.tensor
  %b = ts.aten.sigmoid %x : (!ts.tensor) -> !ts.tensor
  return %a, %b : !ts.tensor, !ts.tensor
}

// -----

// Lists are mutable objects: two constructions are two lists, even when
// their elements are the same, so appending to one leaves the other alone.
// CHECK-LABEL: func.func @lists_do_not_merge(
// CHECK:         %[[A:.+]] = ts.prim.ListConstruct
// CHECK:         %[[B:.+]] = ts.prim.ListConstruct
// CHECK:         ts.aten.append.t %[[A]]
// CHECK:         ts.aten.len.t %[[B]]
func.func @lists_do_not_merge(%i: !ts.int) -> !ts.int {
  %a = ts.prim.ListConstruct %i : (!ts.int) -> !ts.list<!ts.int>
  %b = ts.prim.ListConstruct %i : (!ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.append.t %a, %i : (!ts.list<!ts.int>, !ts.int) -> !ts.list<!ts.int>
  %n = ts.aten.len.t %b : (!ts.list<!ts.int>) -> !ts.int
  return %n : !ts.int
}

// -----

// In-place ops and random ops are never merged.
// CHECK-LABEL: func.func @effects_do_not_merge(
// CHECK-COUNT-2: ts.aten.relu_
// CHECK-COUNT-2: ts.aten.dropout
func.func @effects_do_not_merge(%x: !ts.tensor, %p: !ts.float, %train: !ts.bool) -> (!ts.tensor, !ts.tensor) {
  %a = ts.aten.relu_ %x : (!ts.tensor) -> !ts.tensor
  %b = ts.aten.relu_ %x : (!ts.tensor) -> !ts.tensor
  %c = ts.aten.dropout %x, %p, %train : (!ts.tensor, !ts.float, !ts.bool) -> !ts.tensor
  %d = ts.aten.dropout %x, %p, %train : (!ts.tensor, !ts.float, !ts.bool) -> !ts.tensor
  return %c, %d : !ts.tensor, !ts.tensor
}
