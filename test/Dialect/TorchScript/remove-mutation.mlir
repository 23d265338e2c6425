// RUN: tsmlir-opt %s -split-input-file -ts-remove-mutation | FileCheck %s
// RUN: tsmlir-opt %s -split-input-file -ts-remove-mutation="remarks=true" -verify-diagnostics -o /dev/null
// RUN: tsmlir-opt %s -split-input-file -ts-remove-mutation="preserve-dtype=false loop-carried=false" | FileCheck %s --check-prefix=PLAIN
// RUN: tsmlir-opt %s -split-input-file -ts-remove-mutation="cast-unknown-dtypes=false" | FileCheck %s --check-prefix=NOCAST

//===----------------------------------------------------------------------===//
// Rewritten
//===----------------------------------------------------------------------===//

// The corpus case inplace_ops: each in-place op on a fresh tensor becomes its
// out-of-place form, and every later use, the in-place op's result included,
// uses the new value. `add_` with a tensor may promote: type_as casts back.
// CHECK-LABEL: func.func @inplace_ops(
// CHECK-SAME:      %[[X:[^:]+]]: !ts.tensor, %[[Y:[^:]+]]: !ts.tensor
// CHECK:         %[[Z:.+]] = ts.aten.clone %[[X]]
// CHECK:         %[[A:.+]] = ts.aten.add.Tensor %[[Z]], %[[Y]], %{{.+}}
// CHECK:         %[[Z1:.+]] = ts.aten.type_as %[[A]], %[[Z]]
// CHECK:         %[[Z2:.+]] = ts.aten.mul.Scalar %[[Z1]], %{{.+}}
// CHECK:         %[[Z3:.+]] = ts.aten.relu %[[Z2]]
// CHECK:         %[[W:.+]] = ts.aten.zeros_like %[[X]]
// CHECK:         %[[B:.+]] = ts.aten.add.Tensor %[[W]], %[[Z3]], %{{.+}}
// CHECK:         %[[W1:.+]] = ts.aten.type_as %[[B]], %[[W]]
// CHECK:         ts.prim.TupleConstruct %[[Z3]], %[[W1]]
// CHECK-NOT:     ts.aten.{{[a-z_]+}}_
// PLAIN-LABEL: func.func @inplace_ops(
// PLAIN-NOT:     ts.aten.type_as
// With cast-unknown-dtypes=false the two add_ stay (they would need a cast);
// mul_ and relu_ are still rewritten, reading z after the add_ that stays.
// NOCAST-LABEL: func.func @inplace_ops(
// NOCAST:         %[[Z:.+]] = ts.aten.clone
// NOCAST-NEXT:    ts.aten.add_.Tensor %[[Z]]
// NOCAST-NEXT:    %[[M:.+]] = ts.aten.mul.Scalar %[[Z]]
// NOCAST-NEXT:    %[[R:.+]] = ts.aten.relu %[[M]]
// NOCAST-NEXT:    %[[W:.+]] = ts.aten.zeros_like
// NOCAST-NEXT:    ts.aten.add_.Tensor %[[W]], %[[R]]
// NOCAST-NEXT:    ts.prim.TupleConstruct %[[R]], %[[W]]
func.func @inplace_ops(%x: !ts.tensor, %y: !ts.tensor) -> !ts.tuple<!ts.tensor, !ts.tensor> {
  %one = ts.prim.Constant[1] : !ts.int
  %none = ts.prim.Constant : !ts.none
  %two = ts.prim.Constant[2.0] : !ts.float
  %half = ts.prim.Constant[0.5] : !ts.float
  %z = ts.aten.clone %x, %none : (!ts.tensor, !ts.none) -> !ts.tensor
  %0 = ts.aten.add_.Tensor %z, %y, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
  %1 = ts.aten.mul_.Scalar %z, %two : (!ts.tensor, !ts.float) -> !ts.tensor
  %2 = ts.aten.relu_ %z : (!ts.tensor) -> !ts.tensor
  %w = ts.aten.zeros_like %x, %none, %none, %none, %none, %none : (!ts.tensor, !ts.none, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  %3 = ts.aten.add_.Tensor %w, %z, %half : (!ts.tensor, !ts.tensor, !ts.float) -> !ts.tensor
  %t = ts.prim.TupleConstruct %z, %w : (!ts.tensor, !ts.tensor) -> !ts.tuple<!ts.tensor, !ts.tensor>
  return %t : !ts.tuple<!ts.tensor, !ts.tensor>
}

// -----

// Reads before the mutation keep the old value, uses after it (in later
// regions too, and through the in-place op's result) take the new one; a
// view that is only read, before the mutation, does not prevent it. Both
// dtypes known and equal: no cast.
// CHECK-LABEL: func.func @before_and_after(
// CHECK:         %[[Z:.+]] = ts.aten.neg
// CHECK:         %[[V:.+]] = ts.aten.select.int %[[Z]]
// CHECK:         %[[S:.+]] = ts.aten.sum %[[V]]
// CHECK:         %[[R:.+]] = ts.aten.mul.Tensor %[[Z]],
// CHECK:         %[[Z1:.+]] = ts.aten.add.Tensor %[[Z]], %{{.+}} : (!ts.tensor<f32>, !ts.tensor<f32>, !ts.int) -> !ts.tensor<f32>
// CHECK-NOT:     ts.aten.type_as
// CHECK:         ts.prim.If
// CHECK:           ts.aten.neg %[[Z1]]
// CHECK:         return %[[R]], %[[Z1]], %[[Z1]], %[[S]]
func.func @before_and_after(%x: !ts.tensor<f32>, %y: !ts.tensor<f32>, %c: !ts.bool) -> (!ts.tensor<f32>, !ts.tensor<f32>, !ts.tensor<f32>, !ts.tensor) {
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %none = ts.prim.Constant : !ts.none
  %z = ts.aten.neg %x : (!ts.tensor<f32>) -> !ts.tensor<f32>
  %v = ts.aten.select.int %z, %zero, %zero : (!ts.tensor<f32>, !ts.int, !ts.int) -> !ts.tensor
  %s = ts.aten.sum %v, %none : (!ts.tensor, !ts.none) -> !ts.tensor
  %r = ts.aten.mul.Tensor %z, %y : (!ts.tensor<f32>, !ts.tensor<f32>) -> !ts.tensor<f32>
  %a = ts.aten.add_.Tensor %z, %y, %one : (!ts.tensor<f32>, !ts.tensor<f32>, !ts.int) -> !ts.tensor<f32>
  %b = ts.prim.If %c -> (!ts.tensor<f32>) {
    %n = ts.aten.neg %z : (!ts.tensor<f32>) -> !ts.tensor<f32>
    ts.prim.Yield %n : !ts.tensor<f32>
  } else {
    ts.prim.Yield %a : !ts.tensor<f32>
  }
  return %r, %z, %a, %s : !ts.tensor<f32>, !ts.tensor<f32>, !ts.tensor<f32>, !ts.tensor
}

// -----

// polygamma_(self, n) becomes polygamma(n, self): its value form takes the
// operands the other way round.
// CHECK-LABEL: func.func @polygamma_inplace(
// CHECK:         %[[Z:.+]] = ts.aten.neg %arg0
// CHECK:         %[[P:.+]] = ts.aten.polygamma %{{.+}}, %[[Z]]
// CHECK:         return %[[P]]
func.func @polygamma_inplace(%x: !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]> {
  %two = ts.prim.Constant[2] : !ts.int
  %z = ts.aten.neg %x : (!ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]>
  %p = ts.aten.polygamma_ %z, %two : (!ts.tensor<f32, [3]>, !ts.int) -> !ts.tensor<f32, [3]>
  return %z : !ts.tensor<f32, [3]>
}

// -----

// fill_, zero_ and copy_ become new tensors: full_like, zeros_like, and a
// copying to() of the source broadcast to self's sizes.
// CHECK-LABEL: func.func @special_forms(
// CHECK-SAME:      %[[X:[^:]+]]: !ts.tensor, %[[SRC:[^:]+]]: !ts.tensor
// CHECK:         %[[Z:.+]] = ts.aten.clone %[[X]]
// CHECK:         %[[F:.+]] = ts.aten.full_like %[[Z]], %{{.+}}, %[[N:.+]], %[[N]], %[[N]], %[[N]], %[[N]]
// CHECK:         %[[Z0:.+]] = ts.aten.zeros_like %[[F]]
// CHECK:         %[[E:.+]] = ts.aten.expand_as %[[SRC]], %[[Z0]]
// CHECK:         %[[TRUE:.+]] = ts.prim.Constant[true]
// CHECK:         %[[C:.+]] = ts.aten.to.other %[[E]], %[[Z0]], %{{.+}}, %[[TRUE]]
// CHECK:         %[[R:.+]] = ts.aten.relu %[[C]]
// CHECK:         return %[[R]]
func.func @special_forms(%x: !ts.tensor, %src: !ts.tensor) -> !ts.tensor {
  %none = ts.prim.Constant : !ts.none
  %false = ts.prim.Constant[false] : !ts.bool
  %three = ts.prim.Constant[3.0] : !ts.float
  %z = ts.aten.clone %x, %none : (!ts.tensor, !ts.none) -> !ts.tensor
  %0 = ts.aten.fill_.Scalar %z, %three : (!ts.tensor, !ts.float) -> !ts.tensor
  %1 = ts.aten.zero_ %z : (!ts.tensor) -> !ts.tensor
  %2 = ts.aten.copy_ %z, %src, %false : (!ts.tensor, !ts.tensor, !ts.bool) -> !ts.tensor
  // The copy is a new tensor, so it can be mutated in turn.
  %3 = ts.aten.relu_ %z : (!ts.tensor) -> !ts.tensor
  return %z : !ts.tensor
}

// -----

// index_put_ becomes index_put (writes at indices are values too), and the
// mutation after it is rewritten on the new value.
// CHECK-LABEL: func.func @after_kept(
// CHECK:         %[[Z:.+]] = ts.aten.neg
// CHECK:         %[[P:.+]] = ts.aten.index_put %[[Z]]
// CHECK:         %[[R:.+]] = ts.aten.sigmoid %[[P]]
// CHECK:         return %[[R]]
func.func @after_kept(%x: !ts.tensor, %i: !ts.list<!ts.optional<!ts.tensor>>, %v: !ts.tensor) -> !ts.tensor {
  %false = ts.prim.Constant[false] : !ts.bool
  %z = ts.aten.neg %x : (!ts.tensor) -> !ts.tensor
  %0 = ts.aten.index_put_ %z, %i, %v, %false : (!ts.tensor, !ts.list<!ts.optional<!ts.tensor>>, !ts.tensor, !ts.bool) -> !ts.tensor
  %1 = ts.aten.sigmoid_ %z : (!ts.tensor) -> !ts.tensor
  return %z : !ts.tensor
}

// -----

// Appending to, or setting an element of, a list built by
// prim::ListConstruct builds the new list; the lists it replaces go when
// unused (here the one with the element appended).
// CHECK-LABEL: func.func @lists(
// CHECK-SAME:      %[[A:[^:]+]]: !ts.int, %[[B:[^:]+]]: !ts.int, %[[C:[^:]+]]: !ts.int
// CHECK:         %[[L:.+]] = ts.prim.ListConstruct %[[A]], %[[B]] :
// CHECK:         %[[N:.+]] = ts.aten.len.t %[[L]]
// CHECK-NOT:     ts.prim.ListConstruct %[[A]], %[[B]], %[[C]]
// CHECK:         %[[L2:.+]] = ts.prim.ListConstruct %[[A]], %[[C]], %[[C]]
// CHECK-NOT:     ts.aten.append
// CHECK-NOT:     ts.aten._set_item
// CHECK:         return %[[L2]], %[[N]]
func.func @lists(%a: !ts.int, %b: !ts.int, %c: !ts.int) -> (!ts.list<!ts.int>, !ts.int) {
  %minus2 = ts.prim.Constant[-2] : !ts.int
  %l = ts.prim.ListConstruct %a, %b : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  // A read before the mutations sees the old list.
  %n = ts.aten.len.t %l : (!ts.list<!ts.int>) -> !ts.int
  %0 = ts.aten.append.t %l, %c : (!ts.list<!ts.int>, !ts.int) -> !ts.list<!ts.int>
  %1 = ts.aten._set_item.t %l, %minus2, %c : (!ts.list<!ts.int>, !ts.int, !ts.int) -> !ts.list<!ts.int>
  return %l, %n : !ts.list<!ts.int>, !ts.int
}

// -----

// The corpus case inplace_loop: a tensor that a loop body mutates, directly,
// and only reads otherwise, becomes a loop-carried value, whose mutations are
// then rewritten; uses after the loop take the loop's result.
// CHECK-LABEL: func.func @inplace_loop(
// CHECK-SAME:      %[[X:[^:]+]]: !ts.tensor, %[[N:[^:]+]]: !ts.int
// CHECK:         %[[ACC:.+]] = ts.aten.zeros_like %[[X]]
// CHECK:         %[[R:.+]] = ts.prim.Loop %[[N]], %{{.+}} init(%[[ACC]])
// CHECK:         ^bb0(%{{.+}}: !ts.int, %[[A:.+]]: !ts.tensor):
// CHECK:           %[[S:.+]] = ts.aten.add.Tensor %[[A]], %[[X]]
// CHECK:           %[[T:.+]] = ts.aten.type_as %[[S]], %[[A]]
// CHECK:           %[[M:.+]] = ts.aten.mul.Scalar %[[T]]
// CHECK:           ts.prim.Yield %{{.+}}, %[[M]]
// CHECK:         return %[[R]]
// PLAIN-LABEL: func.func @inplace_loop(
// PLAIN:         ts.aten.add_.Tensor
// PLAIN:         ts.aten.mul_.Scalar
func.func @inplace_loop(%x: !ts.tensor, %n: !ts.int) -> !ts.tensor {
  %one = ts.prim.Constant[1] : !ts.int
  %true = ts.prim.Constant[true] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %half = ts.prim.Constant[0.5] : !ts.float
  %acc = ts.aten.zeros_like %x, %none, %none, %none, %none, %none : (!ts.tensor, !ts.none, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  ts.prim.Loop %n, %true : (!ts.int, !ts.bool) -> () {
  ^bb0(%i: !ts.int):
    %0 = ts.aten.add_.Tensor %acc, %x, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
    %1 = ts.aten.mul_.Scalar %acc, %half : (!ts.tensor, !ts.float) -> !ts.tensor
    ts.prim.Yield %true : !ts.bool
  }
  return %acc : !ts.tensor
}

//===----------------------------------------------------------------------===//
// Left as they are
//===----------------------------------------------------------------------===//

// -----

// A function argument's mutations become values like a fresh tensor's; its
// last value is written back into the caller's tensor before the return
// (a copy_ marked ts.write_back, which later runs leave alone).
// CHECK-LABEL: func.func @argument(
// CHECK-SAME:      %[[X:[^:]+]]: !ts.tensor, %[[Y:[^:]+]]: !ts.tensor
// CHECK:         %[[A:.+]] = ts.aten.add.Tensor %[[X]], %[[Y]]
// CHECK:         %[[V:.+]] = ts.aten.type_as %[[A]], %[[X]]
// CHECK:         ts.aten.copy_ %[[X]], %[[V]], %{{.+}} {ts.write_back}
// CHECK-NEXT:    return %[[V]]
// PLAIN-LABEL: func.func @argument(
// PLAIN:         ts.aten.copy_ {{.*}} {ts.write_back}
func.func @argument(%x: !ts.tensor, %y: !ts.tensor) -> !ts.tensor {
  %one = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.add_.Tensor %x, %y, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
  return %x : !ts.tensor
}

// -----

// A write-back that inlining brought into another function writes a value
// of that function: an ordinary copy_, rewritten as the others.
// CHECK-LABEL: func.func @inlined_write_back(
// CHECK-NOT:     ts.aten.copy_
// CHECK:         return
func.func @inlined_write_back(%x: !ts.tensor<f32, [2]>) -> !ts.tensor<f32, [2]> {
  %none = ts.prim.Constant : !ts.none
  %false = ts.prim.Constant[false] : !ts.bool
  %z = ts.aten.clone %x, %none : (!ts.tensor<f32, [2]>, !ts.none) -> !ts.tensor<f32, [2]>
  %n = ts.aten.neg %z : (!ts.tensor<f32, [2]>) -> !ts.tensor<f32, [2]>
  %0 = ts.aten.copy_ %z, %n, %false {ts.write_back} : (!ts.tensor<f32, [2]>, !ts.tensor<f32, [2]>, !ts.bool) -> !ts.tensor<f32, [2]>
  return %z : !ts.tensor<f32, [2]>
}

// -----

// Ops that may return their operand (type_as, dropout), constants and
// attributes are no new objects.
// CHECK-LABEL: func.func @not_fresh(
// CHECK:         ts.aten.relu_
// CHECK:         ts.aten.relu_
// CHECK:         ts.aten.relu_
// CHECK:         ts.aten.relu_
func.func @not_fresh(%self: !ts.class<"M">, %x: !ts.tensor, %y: !ts.tensor) -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor) {
  %p = ts.prim.Constant[0.5] : !ts.float
  %false = ts.prim.Constant[false] : !ts.bool
  %t = ts.aten.type_as %x, %y : (!ts.tensor, !ts.tensor) -> !ts.tensor
  // expected-remark @+1 {{mutation left as it is: its operand, defined by 'ts.aten.type_as', may be an alias of another value}}
  %1 = ts.aten.relu_ %t : (!ts.tensor) -> !ts.tensor
  %d = ts.aten.dropout %x, %p, %false : (!ts.tensor, !ts.float, !ts.bool) -> !ts.tensor
  // expected-remark @+1 {{mutation left as it is: its operand, defined by 'ts.aten.dropout', may be an alias of another value}}
  %2 = ts.aten.relu_ %d : (!ts.tensor) -> !ts.tensor
  %c = ts.prim.Constant[dense<1.0> : tensor<2xf32>] : !ts.tensor
  // expected-remark @+1 {{mutation left as it is: its operand, defined by 'ts.prim.Constant', may be an alias of another value}}
  %3 = ts.aten.relu_ %c : (!ts.tensor) -> !ts.tensor
  %w = ts.prim.GetAttr %self["w"] : !ts.class<"M"> -> !ts.tensor
  // expected-remark @+1 {{mutation left as it is: its operand, defined by 'ts.prim.GetAttr', may be an alias of another value}}
  %4 = ts.aten.relu_ %w : (!ts.tensor) -> !ts.tensor
  return %t, %d, %c, %w : !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor
}

// -----

// A write through views of a private tensor (TorchScript's `z[0] = y`,
// `z[1:3].fill_(0)`): the view's new value is scattered back into the
// tensor through each view, innermost first, and later uses of the tensor
// read the result, as they do for an argument (then written back). A view
// read after the write stays.
// CHECK-LABEL: func.func @through_views(
// CHECK-SAME:      %[[X:[^:]+]]: !ts.tensor, %[[Y:[^:]+]]: !ts.tensor
// CHECK:         %[[Z:.+]] = ts.aten.neg %[[X]]
// CHECK:         %[[S:.+]] = ts.aten.slice.Tensor %[[Z]]
// CHECK:         %[[V:.+]] = ts.aten.select.int %[[S]]
// CHECK:         %[[E:.+]] = ts.aten.expand_as %[[Y]], %[[V]]
// CHECK:         %[[C:.+]] = ts.aten.to.other %[[E]], %[[V]]
// CHECK:         %[[S1:.+]] = ts.aten.select_scatter %[[S]], %[[C]]
// CHECK:         %[[Z1:.+]] = ts.aten.slice_scatter %[[Z]], %[[S1]]
// CHECK:         %[[R:.+]] = ts.aten.relu %[[Z1]]
// CHECK:         %[[W:.+]] = ts.aten.select.int %[[R]]
// CHECK:         %[[F:.+]] = ts.aten.full_like %[[W]]
// CHECK:         %[[R1:.+]] = ts.aten.select_scatter %[[R]], %[[F]]
// CHECK:         %[[A:.+]] = ts.aten.select.int %[[X]]
// CHECK:         %[[FA:.+]] = ts.aten.full_like %[[A]]
// CHECK:         %[[X1:.+]] = ts.aten.select_scatter %[[X]], %[[FA]]
// CHECK:         %[[B:.+]] = ts.aten.select.int %[[R1]]
// CHECK:         ts.aten.zero_ %[[B]]
// CHECK:         ts.aten.copy_ %[[X]], %[[X1]], %{{.+}} {ts.write_back}
// CHECK:         return %[[R1]], %[[B]]
// CHECK-NOT:     ts.aten.relu_
func.func @through_views(%x: !ts.tensor, %y: !ts.tensor) -> (!ts.tensor, !ts.tensor) {
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %three = ts.prim.Constant[3] : !ts.int
  %f = ts.prim.Constant[2.5] : !ts.float
  %false = ts.prim.Constant[false] : !ts.bool
  %z = ts.aten.neg %x : (!ts.tensor) -> !ts.tensor
  %s = ts.aten.slice.Tensor %z, %zero, %one, %three, %one : (!ts.tensor, !ts.int, !ts.int, !ts.int, !ts.int) -> !ts.tensor
  %v = ts.aten.select.int %s, %one, %zero : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
  %0 = ts.aten.copy_ %v, %y, %false : (!ts.tensor, !ts.tensor, !ts.bool) -> !ts.tensor
  %r = ts.aten.relu_ %z : (!ts.tensor) -> !ts.tensor
  %w = ts.aten.select.int %r, %zero, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
  %1 = ts.aten.fill_.Scalar %w, %f : (!ts.tensor, !ts.float) -> !ts.tensor
  %a = ts.aten.select.int %x, %zero, %zero : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
  %2 = ts.aten.fill_.Scalar %a, %f : (!ts.tensor, !ts.float) -> !ts.tensor
  %b = ts.aten.select.int %z, %zero, %zero : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
  // expected-remark @+1 {{mutation left as it is: its operand, a view, is used after it}}
  %3 = ts.aten.zero_ %b : (!ts.tensor) -> !ts.tensor
  return %z, %b : !ts.tensor, !ts.tensor
}

// -----

// A view of the tensor that is read after the mutation must see it.
// CHECK-LABEL: func.func @live_view(
// CHECK:         ts.aten.add_.Tensor
func.func @live_view(%x: !ts.tensor, %y: !ts.tensor) -> !ts.tensor {
  %one = ts.prim.Constant[1] : !ts.int
  %shape = ts.prim.ListConstruct %one : (!ts.int) -> !ts.list<!ts.int>
  %z = ts.aten.neg %x : (!ts.tensor) -> !ts.tensor
  %v = ts.aten.view %z, %shape : (!ts.tensor, !ts.list<!ts.int>) -> !ts.tensor
  // expected-remark @+1 {{mutation left as it is: an alias of its operand, defined by 'ts.aten.view', is used after it or written}}
  %0 = ts.aten.add_.Tensor %z, %y, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
  %r = ts.aten.neg %v : (!ts.tensor) -> !ts.tensor
  return %r : !ts.tensor
}

// -----

// A tensor stored into a list, passed to a call or a ts.operator, or yielded
// by an if that is used later, before the mutation, may be seen through them.
// CHECK-LABEL: func.func @escaped(
// CHECK-COUNT-4: ts.aten.mul_.Scalar
func.func @escaped(%x: !ts.tensor, %c: !ts.bool) -> (!ts.list<!ts.tensor>, !ts.tensor, !ts.tensor) {
  %two = ts.prim.Constant[2.0] : !ts.float
  %a = ts.aten.neg %x : (!ts.tensor) -> !ts.tensor
  %l = ts.prim.ListConstruct %a : (!ts.tensor) -> !ts.list<!ts.tensor>
  // expected-remark @+1 {{mutation left as it is: its operand escaped before, into 'ts.prim.ListConstruct'}}
  %0 = ts.aten.mul_.Scalar %a, %two : (!ts.tensor, !ts.float) -> !ts.tensor
  %b = ts.aten.neg %x : (!ts.tensor) -> !ts.tensor
  %f = ts.prim.Constant {name = "keep"} : !ts.function
  %k = ts.prim.CallFunction %f(%b) : (!ts.tensor) -> !ts.tensor
  // expected-remark @+1 {{mutation left as it is: its operand escaped before, into 'ts.prim.CallFunction'}}
  %1 = ts.aten.mul_.Scalar %b, %two : (!ts.tensor, !ts.float) -> !ts.tensor
  %d = ts.aten.neg %x : (!ts.tensor) -> !ts.tensor
  %u = ts.operator "aten::unknown"(%d) : (!ts.tensor) -> !ts.tensor
  // expected-remark @+1 {{mutation left as it is: its operand escaped before, into 'ts.operator'}}
  %2 = ts.aten.mul_.Scalar %d, %two : (!ts.tensor, !ts.float) -> !ts.tensor
  %e = ts.aten.neg %x : (!ts.tensor) -> !ts.tensor
  %r = ts.prim.If %c -> (!ts.tensor) {
    ts.prim.Yield %e : !ts.tensor
  } else {
    ts.prim.Yield %x : !ts.tensor
  }
  // expected-remark @+1 {{mutation left as it is: an alias of its operand, defined by 'ts.prim.If', is used after it or written}}
  %3 = ts.aten.mul_.Scalar %e, %two : (!ts.tensor, !ts.float) -> !ts.tensor
  return %l, %r, %u : !ts.list<!ts.tensor>, !ts.tensor, !ts.tensor
}

// -----

// A mutation in an if branch of a value defined outside it happens only on
// one path.
// CHECK-LABEL: func.func @in_branch(
// CHECK:         ts.prim.If
// CHECK:           ts.aten.relu_
func.func @in_branch(%x: !ts.tensor, %c: !ts.bool) -> !ts.tensor {
  %z = ts.aten.neg %x : (!ts.tensor) -> !ts.tensor
  ts.prim.If %c {
    // expected-remark @+1 {{mutation left as it is: its operand is defined outside its block}}
    %0 = ts.aten.relu_ %z : (!ts.tensor) -> !ts.tensor
    ts.prim.Yield
  } else {
    ts.prim.Yield
  }
  return %z : !ts.tensor
}

// -----

// A loop body that also stores the tensor, or mutates it only in a branch,
// keeps its mutations: the value is not made loop-carried.
// CHECK-LABEL: func.func @loop_kept(
// CHECK:         ts.prim.Loop %{{.+}}, %{{.+}} : (!ts.int, !ts.bool) -> ()
// CHECK:           ts.aten.add_.Tensor
// CHECK:           ts.aten.append.t
// CHECK:           ts.aten.relu_
func.func @loop_kept(%x: !ts.tensor, %n: !ts.int, %c: !ts.bool) -> (!ts.tensor, !ts.tensor, !ts.list<!ts.tensor>) {
  %one = ts.prim.Constant[1] : !ts.int
  %true = ts.prim.Constant[true] : !ts.bool
  %a = ts.aten.neg %x : (!ts.tensor) -> !ts.tensor
  %b = ts.aten.neg %x : (!ts.tensor) -> !ts.tensor
  %l = ts.prim.ListConstruct : () -> !ts.list<!ts.tensor>
  ts.prim.Loop %n, %true : (!ts.int, !ts.bool) -> () {
  ^bb0(%i: !ts.int):
    // expected-remark @+1 {{mutation left as it is: its operand is defined outside its block}}
    %0 = ts.aten.add_.Tensor %a, %x, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
    // expected-remark @+1 {{mutation left as it is: its operand is defined outside its block}}
    %1 = ts.aten.append.t %l, %a : (!ts.list<!ts.tensor>, !ts.tensor) -> !ts.list<!ts.tensor>
    ts.prim.If %c {
      // expected-remark @+1 {{mutation left as it is: its operand is defined outside its block}}
      %2 = ts.aten.relu_ %b : (!ts.tensor) -> !ts.tensor
      ts.prim.Yield
    } else {
      ts.prim.Yield
    }
    ts.prim.Yield %true : !ts.bool
  }
  return %a, %b, %l : !ts.tensor, !ts.tensor, !ts.list<!ts.tensor>
}

// -----

// Lists not built here, stored before, or indexed out of range or by an
// unknown index, keep their mutations.
// CHECK-LABEL: func.func @lists_kept(
// CHECK:         ts.aten.append.t
// CHECK:         ts.aten.append.t
// CHECK:         ts.aten._set_item.t
// CHECK:         ts.aten._set_item.t
func.func @lists_kept(%arg: !ts.list<!ts.int>, %a: !ts.int, %i: !ts.int) -> (!ts.list<!ts.int>, !ts.tuple<!ts.list<!ts.int>>, !ts.list<!ts.int>) {
  %two = ts.prim.Constant[2] : !ts.int
  // expected-remark @+1 {{mutation left as it is: its operand, defined by an argument, may be an alias of another value}}
  %0 = ts.aten.append.t %arg, %a : (!ts.list<!ts.int>, !ts.int) -> !ts.list<!ts.int>
  %l = ts.prim.ListConstruct %a : (!ts.int) -> !ts.list<!ts.int>
  %t = ts.prim.TupleConstruct %l : (!ts.list<!ts.int>) -> !ts.tuple<!ts.list<!ts.int>>
  // expected-remark @+1 {{mutation left as it is: its operand escaped before, into 'ts.prim.TupleConstruct'}}
  %1 = ts.aten.append.t %l, %a : (!ts.list<!ts.int>, !ts.int) -> !ts.list<!ts.int>
  %m = ts.prim.ListConstruct %a : (!ts.int) -> !ts.list<!ts.int>
  // expected-remark @+1 {{mutation left as it is: the list is not built by a prim::ListConstruct, or the index is not a constant within it}}
  %2 = ts.aten._set_item.t %m, %two, %a : (!ts.list<!ts.int>, !ts.int, !ts.int) -> !ts.list<!ts.int>
  // expected-remark @+1 {{mutation left as it is: the list is not built by a prim::ListConstruct, or the index is not a constant within it}}
  %3 = ts.aten._set_item.t %m, %i, %a : (!ts.list<!ts.int>, !ts.int, !ts.int) -> !ts.list<!ts.int>
  return %arg, %t, %m : !ts.list<!ts.int>, !ts.tuple<!ts.list<!ts.int>>, !ts.list<!ts.int>
}

// -----

// fill_ with a 0-d tensor value is a copy_ of it: broadcast, then copied in
// self's dtype.
// CHECK-LABEL: func.func @fill_tensor(
// CHECK-SAME:      %[[X:[^:]+]]: !ts.tensor, %[[V:[^:]+]]: !ts.tensor
// CHECK:         %[[Z:.+]] = ts.aten.clone %[[X]]
// CHECK:         %[[E:.+]] = ts.aten.expand_as %[[V]], %[[Z]]
// CHECK:         %[[C:.+]] = ts.aten.to.other %[[E]], %[[Z]]
// CHECK:         return %[[C]]
func.func @fill_tensor(%x: !ts.tensor, %v: !ts.tensor) -> !ts.tensor {
  %none = ts.prim.Constant : !ts.none
  %z = ts.aten.clone %x, %none : (!ts.tensor, !ts.none) -> !ts.tensor
  %0 = ts.aten.fill_.Tensor %z, %v : (!ts.tensor, !ts.tensor) -> !ts.tensor
  return %z : !ts.tensor
}

// -----

// In-place changes of sizes become views, which later uses read: the
// tensor's storage is not written, so no other alias is affected. The view
// of a private tensor is its only name, so the relu_ after it is rewritten
// too.
// CHECK-LABEL: func.func @metadata_mutations(
// CHECK:         %[[Z:.+]] = ts.aten.clone
// CHECK:         %[[T:.+]] = ts.aten.transpose.int %[[Z]]
// CHECK:         %[[U:.+]] = ts.aten.unsqueeze %[[T]]
// CHECK:         %[[S:.+]] = ts.aten.squeeze.dim %[[U]]
// CHECK:         %[[R:.+]] = ts.aten.relu %[[S]]
// CHECK:         %[[TT:.+]] = ts.aten.t %[[R]]
// CHECK:         return %[[TT]]
func.func @metadata_mutations(%x: !ts.tensor) -> !ts.tensor {
  %none = ts.prim.Constant : !ts.none
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %z = ts.aten.clone %x, %none : (!ts.tensor, !ts.none) -> !ts.tensor
  %0 = ts.aten.transpose_ %z, %zero, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
  %1 = ts.aten.unsqueeze_ %z, %zero : (!ts.tensor, !ts.int) -> !ts.tensor
  %2 = ts.aten.squeeze_.dim %z, %zero : (!ts.tensor, !ts.int) -> !ts.tensor
  %3 = ts.aten.relu_ %z : (!ts.tensor) -> !ts.tensor
  %4 = ts.aten.t_ %z : (!ts.tensor) -> !ts.tensor
  return %z : !ts.tensor
}

// -----

// as_strided_ changes sizes and strides, not elements: the tensor becomes
// its out-of-place as_strided, of the new sizes (no cast back to the old).
// CHECK-LABEL: func.func @as_strided_in_place(
// CHECK:         %[[Z:.+]] = ts.aten.clone
// CHECK:         %[[S:.+]] = ts.aten.as_strided %[[Z]]
// CHECK-NOT:     ts.prim.unchecked_cast
// CHECK:         return %[[S]]
func.func @as_strided_in_place(%x: !ts.tensor<f32, [3, 3]>) -> !ts.tensor {
  %none = ts.prim.Constant : !ts.none
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %z = ts.aten.clone %x, %none : (!ts.tensor<f32, [3, 3]>, !ts.none) -> !ts.tensor
  %size = ts.prim.ListConstruct %two, %two : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %stride = ts.prim.ListConstruct %one, %two : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.as_strided_ %z, %size, %stride, %zero : (!ts.tensor, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.int) -> !ts.tensor
  return %z : !ts.tensor
}

// -----

// A view taken before the change of sizes still sees the storage: a write
// through the new view must stay a write.
// CHECK-LABEL: func.func @metadata_then_shared_write(
// CHECK:         %[[Z:.+]] = ts.aten.clone
// CHECK:         %[[V:.+]] = ts.aten.select.int %[[Z]]
// CHECK:         %[[T:.+]] = ts.aten.t %[[Z]]
// CHECK:         ts.aten.relu_ %[[T]]
// CHECK:         ts.prim.TupleConstruct %[[T]], %[[V]]
func.func @metadata_then_shared_write(%x: !ts.tensor) -> !ts.tuple<!ts.tensor, !ts.tensor> {
  %none = ts.prim.Constant : !ts.none
  %zero = ts.prim.Constant[0] : !ts.int
  %z = ts.aten.clone %x, %none : (!ts.tensor, !ts.none) -> !ts.tensor
  %v = ts.aten.select.int %z, %zero, %zero : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
  %0 = ts.aten.t_ %z : (!ts.tensor) -> !ts.tensor
  // expected-remark @+1 {{mutation left as it is}}
  %1 = ts.aten.relu_ %z : (!ts.tensor) -> !ts.tensor
  %r = ts.prim.TupleConstruct %z, %v : (!ts.tensor, !ts.tensor) -> !ts.tuple<!ts.tensor, !ts.tensor>
  return %r : !ts.tuple<!ts.tensor, !ts.tensor>
}

// -----

// An argument's change of sizes is seen by the function's later uses (the
// caller's tensor keeps its sizes: compiled code returns values only).
// CHECK-LABEL: func.func @metadata_argument(
// CHECK-SAME:      %[[X:[^:]+]]: !ts.tensor
// CHECK:         %[[T:.+]] = ts.aten.swapaxes %[[X]]
// CHECK:         return %[[T]]
func.func @metadata_argument(%x: !ts.tensor) -> !ts.tensor {
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.swapaxes_ %x, %zero, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
  return %x : !ts.tensor
}
