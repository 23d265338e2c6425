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

// -----

// A tensor read is not merged across an in-place op that may change the
// tensor: `y = x + 1; x.add_(1); z = x + 1` computes two different values.
// CHECK-LABEL: func.func @reads_do_not_merge_across_writes(
// CHECK:         ts.aten.add.Scalar
// CHECK:         ts.aten.add_.Scalar
// CHECK:         ts.aten.add.Scalar
func.func @reads_do_not_merge_across_writes(%x: !ts.tensor, %one: !ts.int) -> (!ts.tensor, !ts.tensor) {
  %y = ts.aten.add.Scalar %x, %one, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
  %0 = ts.aten.add_.Scalar %x, %one, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
  %z = ts.aten.add.Scalar %x, %one, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
  return %y, %z : !ts.tensor, !ts.tensor
}

// -----

// Two reads with nothing that may write between them merge.
// CHECK-LABEL: func.func @reads_merge_without_writes(
// CHECK-COUNT-1: ts.aten.add.Scalar
// CHECK-NOT:     ts.aten.add.Scalar
func.func @reads_merge_without_writes(%x: !ts.tensor, %one: !ts.int) -> (!ts.tensor, !ts.tensor) {
  %y = ts.aten.add.Scalar %x, %one, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
  %s = ts.aten.size.int %x, %one : (!ts.tensor, !ts.int) -> !ts.int
  %z = ts.aten.add.Scalar %x, %one, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
  return %y, %z : !ts.tensor, !ts.tensor
}

// -----

// The length of a list is read again after an append.
// CHECK-LABEL: func.func @list_reads_do_not_merge_across_append(
// CHECK-COUNT-2: ts.aten.len.t
func.func @list_reads_do_not_merge_across_append(%l: !ts.list<!ts.int>, %i: !ts.int) -> (!ts.int, !ts.int) {
  %a = ts.aten.len.t %l : (!ts.list<!ts.int>) -> !ts.int
  %0 = ts.aten.append.t %l, %i : (!ts.list<!ts.int>, !ts.int) -> !ts.list<!ts.int>
  %b = ts.aten.len.t %l : (!ts.list<!ts.int>) -> !ts.int
  return %a, %b : !ts.int, !ts.int
}

// -----

// A module attribute is read again after prim::SetAttr.
// CHECK-LABEL: func.func @getattr_does_not_merge_across_setattr(
// CHECK-COUNT-2: ts.prim.GetAttr
func.func @getattr_does_not_merge_across_setattr(%self: !ts.module<"__torch__.M">, %t: !ts.tensor) -> (!ts.tensor, !ts.tensor) {
  %a = ts.prim.GetAttr %self["state"] : !ts.module<"__torch__.M"> -> !ts.tensor
  ts.prim.SetAttr %self["state"] = %t : !ts.module<"__torch__.M">, !ts.tensor
  %b = ts.prim.GetAttr %self["state"] : !ts.module<"__torch__.M"> -> !ts.tensor
  return %a, %b : !ts.tensor, !ts.tensor
}

// -----

// An op tsmlir does not know may write anything: sizes are read again after
// it (`x.unsqueeze_(0)` changes them).
// CHECK-LABEL: func.func @reads_do_not_merge_across_unknown_ops(
// CHECK-COUNT-2: ts.aten.dim
func.func @reads_do_not_merge_across_unknown_ops(%x: !ts.tensor, %zero: !ts.int) -> (!ts.int, !ts.int) {
  %a = ts.aten.dim %x : (!ts.tensor) -> !ts.int
  %0 = ts.operator "aten::unsqueeze_"(%x, %zero) : (!ts.tensor, !ts.int) -> !ts.tensor
  %b = ts.aten.dim %x : (!ts.tensor) -> !ts.int
  return %a, %b : !ts.int, !ts.int
}

// -----

// Unused reads are dead; unused writes are not.
// CHECK-LABEL: func.func @dead_reads(
// CHECK-NOT:     ts.aten.sigmoid
// CHECK:         ts.aten.relu_
func.func @dead_reads(%x: !ts.tensor) {
  %a = ts.aten.sigmoid %x : (!ts.tensor) -> !ts.tensor
  %b = ts.aten.relu_ %x : (!ts.tensor) -> !ts.tensor
  return
}
