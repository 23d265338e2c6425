// RUN: tsmlir-opt %s -split-input-file -ts-unroll-loops | FileCheck %s
// RUN: tsmlir-opt %s -split-input-file -ts-unroll-loops="max-trip-count=2" | FileCheck %s --check-prefix=LIMIT

// A for loop of three iterations becomes three copies of its body, each with
// its iteration number.
// CHECK-LABEL: func.func @for_loop(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor)
// CHECK-NOT:     ts.prim.Loop
// CHECK:         %[[I0:.+]] = ts.prim.Constant[0] : !ts.int
// CHECK-NEXT:    %[[A:.+]] = ts.aten.add.Scalar %[[X]], %[[I0]]
// CHECK-NEXT:    %[[I1:.+]] = ts.prim.Constant[1] : !ts.int
// CHECK-NEXT:    %[[B:.+]] = ts.aten.add.Scalar %[[A]], %[[I1]]
// CHECK-NEXT:    %[[I2:.+]] = ts.prim.Constant[2] : !ts.int
// CHECK-NEXT:    %[[C:.+]] = ts.aten.add.Scalar %[[B]], %[[I2]]
// CHECK-NEXT:    return %[[C]]
// LIMIT-LABEL: func.func @for_loop(
// LIMIT:         ts.prim.Loop
func.func @for_loop(%x: !ts.tensor) -> !ts.tensor {
  %true = ts.prim.Constant[true] : !ts.bool
  %n = ts.prim.Constant[3] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %r = ts.prim.Loop %n, %true init(%x) : (!ts.int, !ts.bool, !ts.tensor) -> !ts.tensor {
  ^bb0(%i: !ts.int, %a: !ts.tensor):
    %b = ts.aten.add.Scalar %a, %i, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
    ts.prim.Yield %true, %b : !ts.bool, !ts.tensor
  }
  return %r : !ts.tensor
}

// -----

// Nested loops unroll inside out; side effects stay in order.
// CHECK-LABEL: func.func @nested(
// CHECK-NOT:     ts.prim.Loop
// CHECK-COUNT-4: ts.prim.Print
// CHECK-NOT:     ts.prim.Print
func.func @nested() {
  %true = ts.prim.Constant[true] : !ts.bool
  %two = ts.prim.Constant[2] : !ts.int
  ts.prim.Loop %two, %true : (!ts.int, !ts.bool) -> () {
  ^bb0(%i: !ts.int):
    ts.prim.Loop %two, %true : (!ts.int, !ts.bool) -> () {
    ^bb0(%j: !ts.int):
      ts.prim.Print(%i, %j) : !ts.int, !ts.int
      ts.prim.Yield %true : !ts.bool
    }
    ts.prim.Yield %true : !ts.bool
  }
  return
}

// -----

// While loops, loops that may break, and loops with unknown trip counts stay.
// CHECK-LABEL: func.func @not_for_loops(
// CHECK-COUNT-3: ts.prim.Loop
func.func @not_for_loops(%n: !ts.int, %c: !ts.bool, %x: !ts.tensor) -> !ts.tensor {
  %true = ts.prim.Constant[true] : !ts.bool
  %three = ts.prim.Constant[3] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %a = ts.prim.Loop %n, %true init(%x) : (!ts.int, !ts.bool, !ts.tensor) -> !ts.tensor {
  ^bb0(%i: !ts.int, %t: !ts.tensor):
    %u = ts.aten.add.Scalar %t, %i, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
    ts.prim.Yield %true, %u : !ts.bool, !ts.tensor
  }
  %b = ts.prim.Loop %three, %c init(%a) : (!ts.int, !ts.bool, !ts.tensor) -> !ts.tensor {
  ^bb0(%i: !ts.int, %t: !ts.tensor):
    %u = ts.aten.add.Scalar %t, %i, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
    ts.prim.Yield %true, %u : !ts.bool, !ts.tensor
  }
  %d = ts.prim.Loop %three, %true init(%b) : (!ts.int, !ts.bool, !ts.tensor) -> !ts.tensor {
  ^bb0(%i: !ts.int, %t: !ts.tensor):
    %u = ts.aten.add.Scalar %t, %i, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
    ts.prim.Yield %c, %u : !ts.bool, !ts.tensor
  }
  return %d : !ts.tensor
}

// -----

// Too many ops in all: left alone.
// CHECK-LABEL: func.func @too_large(
// CHECK:         ts.prim.Loop
func.func @too_large(%x: !ts.tensor) -> !ts.tensor {
  %true = ts.prim.Constant[true] : !ts.bool
  %n = ts.prim.Constant[60] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %r = ts.prim.Loop %n, %true init(%x) : (!ts.int, !ts.bool, !ts.tensor) -> !ts.tensor {
  ^bb0(%i: !ts.int, %a: !ts.tensor):
    %b0 = ts.aten.add.Scalar %a, %i, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
    %b1 = ts.aten.add.Scalar %b0, %i, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
    %b2 = ts.aten.add.Scalar %b1, %i, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
    %b3 = ts.aten.add.Scalar %b2, %i, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
    %b4 = ts.aten.add.Scalar %b3, %i, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
    %b5 = ts.aten.add.Scalar %b4, %i, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
    %b6 = ts.aten.add.Scalar %b5, %i, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
    %b7 = ts.aten.add.Scalar %b6, %i, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
    %b8 = ts.aten.add.Scalar %b7, %i, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
    ts.prim.Yield %true, %b8 : !ts.bool, !ts.tensor
  }
  return %r : !ts.tensor
}
