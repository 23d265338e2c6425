// RUN: tsmlir-opt %s --convert-ts-to-linalg -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @if_bool(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<4xf32>, %[[C:[^:]+]]: i1) -> tensor<4xf32>
// CHECK:         %[[R:.+]] = scf.if %[[C]] -> (tensor<4xf32>) {
// CHECK:           %[[NEG:.+]] = linalg.generic
// CHECK:             arith.negf
// CHECK:           scf.yield %[[NEG]] : tensor<4xf32>
// CHECK:         } else {
// CHECK:           scf.yield %[[X]] : tensor<4xf32>
// CHECK:         }
// CHECK:         return %[[R]]
func.func @if_bool(%x: !ts.tensor<f32, [4]>, %c: !ts.bool) -> !ts.tensor<f32, [4]> {
  %0 = ts.prim.If %c -> (!ts.tensor<f32, [4]>) {
    %1 = ts.aten.neg %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
    ts.prim.Yield %1 : !ts.tensor<f32, [4]>
  } else {
    ts.prim.Yield %x : !ts.tensor<f32, [4]>
  }
  return %0 : !ts.tensor<f32, [4]>
}

// -----

// An int condition is compared with zero.

// CHECK-LABEL: func.func @if_int(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<4xf32>, %[[N:[^:]+]]: i64)
// CHECK-DAG:     %[[ONE:.+]] = arith.constant 1 : i64
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK:         %[[C:.+]] = arith.cmpi ne, %[[N]], %[[ZERO]] : i64
// CHECK:         %[[R:.+]]:2 = scf.if %[[C]] -> (tensor<4xf32>, i64) {
// CHECK:           %[[RELU:.+]] = linalg.generic
// CHECK:           scf.yield %[[RELU]], %[[N]] : tensor<4xf32>, i64
// CHECK:         } else {
// CHECK:           scf.yield %[[X]], %[[ONE]] : tensor<4xf32>, i64
// CHECK:         }
// CHECK:         return %[[R]]#0, %[[R]]#1
func.func @if_int(%x: !ts.tensor<f32, [4]>, %n: !ts.int) -> (!ts.tensor<f32, [4]>, !ts.int) {
  %int1 = ts.prim.Constant[1] : !ts.int
  %0:2 = ts.prim.If %n : !ts.int -> (!ts.tensor<f32, [4]>, !ts.int) {
    %1 = ts.aten.relu %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
    ts.prim.Yield %1, %n : !ts.tensor<f32, [4]>, !ts.int
  } else {
    ts.prim.Yield %x, %int1 : !ts.tensor<f32, [4]>, !ts.int
  }
  return %0#0, %0#1 : !ts.tensor<f32, [4]>, !ts.int
}

// -----

// A branch that raises asserts false with the message; the value it yields
// is never read.

// CHECK-LABEL: func.func @if_raise(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<4xf32>, %[[C:[^:]+]]: i1)
// CHECK:         %[[R:.+]] = scf.if %[[C]] -> (tensor<4xf32>) {
// CHECK:           scf.yield %[[X]] : tensor<4xf32>
// CHECK:         } else {
// CHECK:           %[[FALSE:.+]] = arith.constant false
// CHECK:           cf.assert %[[FALSE]], "AssertionError: x must be positive"
// CHECK:           %[[U:.+]] = tensor.empty() : tensor<4xf32>
// CHECK:           scf.yield %[[U]] : tensor<4xf32>
// CHECK:         }
// CHECK:         return %[[R]]
func.func @if_raise(%x: !ts.tensor<f32, [4]>, %c: !ts.bool) -> !ts.tensor<f32, [4]> {
  %msg = ts.prim.Constant["AssertionError: x must be positive"] : !ts.str
  %none = ts.prim.Constant : !ts.none
  %0 = ts.prim.If %c -> (!ts.tensor<f32, [4]>) {
    ts.prim.Yield %x : !ts.tensor<f32, [4]>
  } else {
    ts.prim.RaiseException %msg, %none : !ts.str, !ts.none
    %u = ts.prim.Uninitialized : !ts.tensor<f32, [4]>
    ts.prim.Yield %u : !ts.tensor<f32, [4]>
  }
  return %0 : !ts.tensor<f32, [4]>
}

// -----

// aten::warn changes no value: it is dropped.
// CHECK-LABEL: func.func @warn(
// CHECK-NOT:     warn
// CHECK:         return
func.func @warn(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %msg = ts.prim.Constant["reduction: 'mean' divides the total loss"] : !ts.str
  %two = ts.prim.Constant[2] : !ts.int
  ts.aten.warn %msg, %two : (!ts.str, !ts.int) -> ()
  return %x : !ts.tensor<f32, [4]>
}

// -----

// A for loop (conditions constant true) is an scf.for over the trip count;
// the iteration number is the induction variable as an i64, and a carried
// tensor is written back into its own buffer.

// CHECK-LABEL: func.func @for_loop(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<4xf32>, %[[N:[^:]+]]: i64)
// CHECK-DAG:     %[[S0:.+]] = arith.constant 0 : i64
// CHECK-DAG:     %[[LB:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[UB:.+]] = arith.index_cast %[[N]] : i64 to index
// CHECK-DAG:     %[[STEP:.+]] = arith.constant 1 : index
// CHECK:         %[[R:.+]]:2 = scf.for %[[IV:.+]] = %[[LB]] to %[[UB]] step %[[STEP]] iter_args(%[[ACC:.+]] = %[[X]], %[[S:.+]] = %[[S0]]) -> (tensor<4xf32>, i64) {
// CHECK:           %[[I:.+]] = arith.index_cast %[[IV]] : index to i64
// CHECK:           %[[F:.+]] = arith.sitofp %[[I]] : i64 to f32
// CHECK:           %[[MUL:.+]] = linalg.generic
// CHECK-SAME:          ins(%[[ACC]] : tensor<4xf32>)
// CHECK:             arith.mulf %{{.+}}, %[[F]] : f32
// CHECK:           %[[NEXT:.+]] = arith.addi %[[S]], %[[I]] : i64
// CHECK:           %[[INPLACE:.+]] = bufferization.materialize_in_destination %[[MUL]] in %[[ACC]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK:           scf.yield %[[INPLACE]], %[[NEXT]] : tensor<4xf32>, i64
// CHECK:         }
// CHECK:         return %[[R]]#0, %[[R]]#1
func.func @for_loop(%x: !ts.tensor<f32, [4]>, %n: !ts.int) -> (!ts.tensor<f32, [4]>, !ts.int) {
  %true = ts.prim.Constant[true] : !ts.bool
  %int1 = ts.prim.Constant[1] : !ts.int
  %int0 = ts.prim.Constant[0] : !ts.int
  %0:2 = ts.prim.Loop %n, %true init(%x, %int0) : (!ts.int, !ts.bool, !ts.tensor<f32, [4]>, !ts.int) -> (!ts.tensor<f32, [4]>, !ts.int) {
  ^bb0(%i: !ts.int, %acc: !ts.tensor<f32, [4]>, %s: !ts.int):
    %1 = ts.aten.mul.Scalar %acc, %i : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
    %2 = ts.aten.add.int %s, %i : (!ts.int, !ts.int) -> !ts.int
    ts.prim.Yield %true, %1, %2 : !ts.bool, !ts.tensor<f32, [4]>, !ts.int
  }
  return %0#0, %0#1 : !ts.tensor<f32, [4]>, !ts.int
}

// -----

// CHECK-LABEL: func.func @for_loop_no_carried(
// CHECK-SAME:      %[[N:[^:]+]]: i64)
// CHECK:         %[[UB:.+]] = arith.index_cast %[[N]] : i64 to index
// CHECK:         scf.for %[[IV:.+]] = %{{.+}} to %[[UB]] step %{{.+}} {
// CHECK-NEXT:      arith.index_cast %[[IV]] : index to i64
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @for_loop_no_carried(%n: !ts.int) {
  %true = ts.prim.Constant[true] : !ts.bool
  ts.prim.Loop %n, %true : (!ts.int, !ts.bool) -> () {
  ^bb0(%i: !ts.int):
    ts.prim.Yield %true : !ts.bool
  }
  return
}

// -----

// Any other loop is an scf.while carrying its values, the iteration number
// and the condition; it runs while both allow.

// CHECK-LABEL: func.func @while_loop(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<4xf32>, %[[C:[^:]+]]: i1)
// CHECK-DAG:     %[[MAX:.+]] = arith.constant 9223372036854775807 : i64
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK:         %[[R:.+]]:3 = scf.while (%[[Y0:.+]] = %[[X]], %[[I0:.+]] = %[[ZERO]], %[[C0:.+]] = %[[C]]) : (tensor<4xf32>, i64, i1) -> (tensor<4xf32>, i64, i1) {
// CHECK:           %[[IN:.+]] = arith.cmpi slt, %[[I0]], %[[MAX]] : i64
// CHECK:           %[[GO:.+]] = arith.andi %[[IN]], %[[C0]] : i1
// CHECK:           scf.condition(%[[GO]]) %[[Y0]], %[[I0]], %[[C0]] : tensor<4xf32>, i64, i1
// CHECK:         } do {
// CHECK:         ^bb0(%[[Y:.+]]: tensor<4xf32>, %[[I:.+]]: i64, %{{.+}}: i1):
// CHECK:           %[[MUL:.+]] = linalg.generic
// CHECK-SAME:          ins(%[[Y]] : tensor<4xf32>)
// CHECK:           %[[NEXTC:.+]] = arith.cmpi slt, %[[I]], %{{.+}} : i64
// CHECK:           %[[ONE:.+]] = arith.constant 1 : i64
// CHECK:           %[[INPLACE:.+]] = bufferization.materialize_in_destination %[[MUL]] in %[[Y]]
// CHECK:           %[[NEXTI:.+]] = arith.addi %[[I]], %[[ONE]] : i64
// CHECK:           scf.yield %[[INPLACE]], %[[NEXTI]], %[[NEXTC]] : tensor<4xf32>, i64, i1
// CHECK:         }
// CHECK:         return %[[R]]#0
func.func @while_loop(%x: !ts.tensor<f32, [4]>, %c: !ts.bool) -> !ts.tensor<f32, [4]> {
  %max = ts.prim.Constant[9223372036854775807] : !ts.int
  %int3 = ts.prim.Constant[3] : !ts.int
  %float2 = ts.prim.Constant[2.0] : !ts.float
  %0 = ts.prim.Loop %max, %c init(%x) : (!ts.int, !ts.bool, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  ^bb0(%i: !ts.int, %y: !ts.tensor<f32, [4]>):
    %1 = ts.aten.mul.Scalar %y, %float2 : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
    %2 = ts.aten.lt.int %i, %int3 : (!ts.int, !ts.int) -> !ts.bool
    ts.prim.Yield %2, %1 : !ts.bool, !ts.tensor<f32, [4]>
  }
  return %0 : !ts.tensor<f32, [4]>
}

// -----

// A prim::If in a loop body yields to its own scf.if.

// CHECK-LABEL: func.func @nested(
// CHECK:         scf.for
// CHECK:           %[[IF:.+]] = scf.if %{{.+}} -> (tensor<4xf32>) {
// CHECK:             math.exp
// CHECK:             scf.yield %{{.+}} : tensor<4xf32>
// CHECK:           } else {
// CHECK:             scf.yield %{{.+}} : tensor<4xf32>
// CHECK:           }
// CHECK:           %[[INPLACE:.+]] = bufferization.materialize_in_destination %[[IF]] in
// CHECK:           scf.yield %[[INPLACE]] : tensor<4xf32>
func.func @nested(%x: !ts.tensor<f32, [4]>, %n: !ts.int) -> !ts.tensor<f32, [4]> {
  %true = ts.prim.Constant[true] : !ts.bool
  %int2 = ts.prim.Constant[2] : !ts.int
  %0 = ts.prim.Loop %n, %true init(%x) : (!ts.int, !ts.bool, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  ^bb0(%i: !ts.int, %acc: !ts.tensor<f32, [4]>):
    %c = ts.aten.lt.int %i, %int2 : (!ts.int, !ts.int) -> !ts.bool
    %1 = ts.prim.If %c -> (!ts.tensor<f32, [4]>) {
      %2 = ts.aten.exp %acc : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
      ts.prim.Yield %2 : !ts.tensor<f32, [4]>
    } else {
      ts.prim.Yield %acc : !ts.tensor<f32, [4]>
    }
    ts.prim.Yield %true, %1 : !ts.bool, !ts.tensor<f32, [4]>
  }
  return %0 : !ts.tensor<f32, [4]>
}
