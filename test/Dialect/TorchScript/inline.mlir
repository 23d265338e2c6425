// RUN: tsmlir-opt %s -split-input-file -ts-inline | FileCheck %s
// RUN: tsmlir-opt %s -split-input-file -ts-inline="remove-dead-callees=false" | FileCheck %s --check-prefix=KEEP
// RUN: tsmlir-opt %s -split-input-file -ts-inline -mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// RUN: tsmlir-opt %s -split-input-file -ts-inline="remarks=true max-depth=2" -verify-diagnostics -o /dev/null

// A call of a named function: the callee's body replaces it, the function
// constant stays (for -canonicalize), and the private callee goes.
// CHECK-LABEL: func.func @call_function(
// CHECK-SAME:      %[[X:[^:]+]]: !ts.tensor, %[[Y:[^:]+]]: !ts.tensor
// CHECK:         ts.prim.Constant {name = "helper"} : !ts.function
// CHECK-NOT:     ts.prim.CallFunction
// CHECK:         %[[S1:.+]] = ts.aten.sigmoid %[[Y]]
// CHECK:         %[[M1:.+]] = ts.aten.mul.Tensor %[[X]], %[[S1]]
// CHECK:         %[[S2:.+]] = ts.aten.sigmoid %[[X]]
// CHECK:         %[[M2:.+]] = ts.aten.mul.Tensor %[[Y]], %[[S2]]
// CHECK:         ts.aten.add.Tensor %[[M1]], %[[M2]]
// CHECK-NOT:     func.func private @helper
// KEEP-LABEL:  func.func @call_function(
// KEEP:        func.func private @helper(
// LOC-LABEL:   func.func @call_function(
// LOC:           ts.aten.sigmoid {{.*}} loc(#[[INLINED:.+]])
// LOC:         #[[CALLEE:.+]] = loc("helper.py":2:7)
// LOC:         #[[CALL:.+]] = loc("main.py":9:3)
// LOC:         #[[INLINED]] = loc(callsite(#[[CALLEE]] at #[[CALL]]))
func.func @call_function(%x: !ts.tensor, %y: !ts.tensor) -> !ts.tensor {
  %one = ts.prim.Constant[1] : !ts.int
  %f = ts.prim.Constant {name = "helper"} : !ts.function
  %a = ts.prim.CallFunction %f(%x, %y) : (!ts.tensor, !ts.tensor) -> !ts.tensor loc("main.py":9:3)
  %b = ts.prim.CallFunction %f(%y, %x) : (!ts.tensor, !ts.tensor) -> !ts.tensor
  %r = ts.aten.add.Tensor %a, %b, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
  return %r : !ts.tensor
}
func.func private @helper(%a: !ts.tensor, %b: !ts.tensor) -> !ts.tensor {
  %0 = ts.aten.sigmoid %b : (!ts.tensor) -> !ts.tensor loc("helper.py":2:7)
  %1 = ts.aten.mul.Tensor %a, %0 : (!ts.tensor, !ts.tensor) -> !ts.tensor
  return %1 : !ts.tensor
}

// -----

// A method call resolves to `<class>.<method>`, the object becoming `self`;
// calls inside the inlined body are inlined in turn, also in regions.
// CHECK-LABEL: func.func @call_method(
// CHECK-SAME:      %[[SELF:[^:]+]]: !ts.class<"__torch__.M">, %[[X:[^:]+]]: !ts.tensor, %[[C:[^:]+]]: !ts.bool
// CHECK:         %[[FC:.+]] = ts.prim.GetAttr %[[SELF]]["fc"]
// CHECK:         ts.prim.If %[[C]]
// CHECK:           %[[W:.+]] = ts.prim.GetAttr %[[FC]]["weight"]
// CHECK:           %[[Y:.+]] = ts.aten.matmul %[[X]], %[[W]]
// CHECK:           ts.aten.relu %[[Y]]
// CHECK-NOT:     ts.prim.Call
// CHECK-NOT:     func.func private
func.func @call_method(%self: !ts.class<"__torch__.M">, %x: !ts.tensor, %c: !ts.bool) -> !ts.tensor {
  %fc = ts.prim.GetAttr %self["fc"] : !ts.class<"__torch__.M"> -> !ts.class<"__torch__.Linear">
  %r = ts.prim.If %c -> (!ts.tensor) {
    %y = ts.prim.CallMethod %fc["forward"](%x) : !ts.class<"__torch__.Linear">, (!ts.tensor) -> !ts.tensor
    ts.prim.Yield %y : !ts.tensor
  } else {
    ts.prim.Yield %x : !ts.tensor
  }
  return %r : !ts.tensor
}
func.func private @"__torch__.Linear.forward"(%self: !ts.class<"__torch__.Linear">, %input: !ts.tensor) -> !ts.tensor {
  %w = ts.prim.GetAttr %self["weight"] : !ts.class<"__torch__.Linear"> -> !ts.tensor
  %y = ts.aten.matmul %input, %w : (!ts.tensor, !ts.tensor) -> !ts.tensor
  %f = ts.prim.Constant {name = "act"} : !ts.function
  %z = ts.prim.CallFunction %f(%y) : (!ts.tensor) -> !ts.tensor
  return %z : !ts.tensor
}
func.func private @act(%a: !ts.tensor) -> !ts.tensor {
  %0 = ts.aten.relu %a : (!ts.tensor) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// A refined argument is used directly where the callee declares a plain or
// optional type, as TorchScript passes subtypes; a result the call declares
// more refined than the callee returns is cast.
// CHECK-LABEL: func.func @types(
// CHECK-SAME:      %[[X:[^:]+]]: !ts.tensor<f32, [2]>
// CHECK:         %[[NONE:.+]] = ts.prim.Constant : !ts.none
// CHECK:         ts.aten.__is__ %[[X]], %[[NONE]] : (!ts.tensor<f32, [2]>, !ts.none) -> !ts.bool
// CHECK:         %[[N:.+]] = ts.aten.neg %[[X]] : (!ts.tensor<f32, [2]>) -> !ts.tensor
// CHECK:         %[[CAST:.+]] = ts.prim.unchecked_cast %[[N]] : !ts.tensor -> !ts.tensor<f32, [2]>
// CHECK:         return %[[CAST]]
func.func @types(%x: !ts.tensor<f32, [2]>) -> (!ts.tensor<f32, [2]>, !ts.bool) {
  %f = ts.prim.Constant {name = "g"} : !ts.function
  %r:2 = ts.prim.CallFunction %f(%x, %x) : (!ts.tensor<f32, [2]>, !ts.tensor<f32, [2]>) -> (!ts.tensor<f32, [2]>, !ts.bool)
  return %r#0, %r#1 : !ts.tensor<f32, [2]>, !ts.bool
}
func.func private @g(%a: !ts.tensor, %b: !ts.optional<!ts.tensor>) -> (!ts.tensor, !ts.bool) {
  %none = ts.prim.Constant : !ts.none
  %is = ts.aten.__is__ %b, %none : (!ts.optional<!ts.tensor>, !ts.none) -> !ts.bool
  %n = ts.aten.neg %a : (!ts.tensor) -> !ts.tensor
  return %n, %is : !ts.tensor, !ts.bool
}

// -----

// A public callee stays; a function nothing called before stays too.
// CHECK-LABEL: func.func @public_callee(
// CHECK-NOT:     ts.prim.CallFunction
// CHECK:       func.func @pub(
// CHECK:       func.func private @never_called(
func.func @public_callee(%x: !ts.tensor) -> !ts.tensor {
  %f = ts.prim.Constant {name = "pub"} : !ts.function
  %r = ts.prim.CallFunction %f(%x) : (!ts.tensor) -> !ts.tensor
  return %r : !ts.tensor
}
func.func @pub(%a: !ts.tensor) -> !ts.tensor {
  %0 = ts.aten.neg %a : (!ts.tensor) -> !ts.tensor
  return %0 : !ts.tensor
}
func.func private @never_called(%a: !ts.tensor) -> !ts.tensor {
  return %a : !ts.tensor
}

// -----

// A callee that calls itself: its body is inlined once into the caller, the
// recursive call in it stays, and so does the callee, which it calls.
// CHECK-LABEL: func.func @recursion(
// CHECK:         ts.aten.neg
// CHECK:         ts.prim.CallFunction
// CHECK:       func.func private @rec(
// CHECK:         ts.prim.CallFunction
func.func @recursion(%x: !ts.tensor) -> !ts.tensor {
  %f = ts.prim.Constant {name = "rec"} : !ts.function
  %r = ts.prim.CallFunction %f(%x) : (!ts.tensor) -> !ts.tensor
  return %r : !ts.tensor
}
func.func private @rec(%a: !ts.tensor) -> !ts.tensor {
  %0 = ts.aten.neg %a : (!ts.tensor) -> !ts.tensor
  %f = ts.prim.Constant {name = "rec"} : !ts.function
  // Left in the caller, and in @rec itself (the remark is given for both).
  // expected-remark @+1 {{call left as it is: recursive call of @"rec"}}
  %1 = ts.prim.CallFunction %f(%0) : (!ts.tensor) -> !ts.tensor
  return %1 : !ts.tensor
}

// -----

// Calls of what the module does not hold stay: an unknown function, a
// method of a class without it, a function value that is not a constant.
// CHECK-LABEL: func.func @unresolved(
// CHECK:         ts.prim.CallFunction
// CHECK:         ts.prim.CallMethod
// CHECK:         ts.prim.CallFunction
func.func @unresolved(%self: !ts.class<"__torch__.M">, %x: !ts.tensor, %g: !ts.function) -> !ts.tensor {
  %f = ts.prim.Constant {name = "relu"} : !ts.function
  // expected-remark @+1 {{call left as it is: no function @"relu" in the module}}
  %a = ts.prim.CallFunction %f(%x) : (!ts.tensor) -> !ts.tensor
  // expected-remark @+1 {{call left as it is: no function @"__torch__.M.forward" in the module}}
  %b = ts.prim.CallMethod %self["forward"](%a) : !ts.class<"__torch__.M">, (!ts.tensor) -> !ts.tensor
  // expected-remark @+1 {{call left as it is: the callee is not a named function}}
  %c = ts.prim.CallFunction %g(%b) : (!ts.tensor) -> !ts.tensor
  return %c : !ts.tensor
}

// -----

// A callee whose signature does not fit, or that has no body, stays.
// CHECK-LABEL: func.func @mismatch(
// CHECK-COUNT-2: ts.prim.CallFunction
func.func @mismatch(%x: !ts.tensor) -> !ts.tensor {
  %f = ts.prim.Constant {name = "two"} : !ts.function
  // expected-remark @+1 {{call left as it is: @"two" takes 2 arguments and returns 1 values; the call passes 1 and expects 1}}
  %a = ts.prim.CallFunction %f(%x) : (!ts.tensor) -> !ts.tensor
  %g = ts.prim.Constant {name = "ext"} : !ts.function
  // expected-remark @+1 {{call left as it is: @"ext" has no body of one block}}
  %b = ts.prim.CallFunction %g(%a) : (!ts.tensor) -> !ts.tensor
  return %b : !ts.tensor
}
func.func private @two(%a: !ts.tensor, %b: !ts.tensor) -> !ts.tensor {
  return %a : !ts.tensor
}
func.func private @ext(%a: !ts.tensor) -> !ts.tensor

// -----

// Types that no cast relates leave the call.
// CHECK-LABEL: func.func @unrelated_types(
// CHECK:         ts.prim.CallFunction
func.func @unrelated_types(%x: !ts.int) -> !ts.int {
  %f = ts.prim.Constant {name = "t"} : !ts.function
  // expected-remark @+1 {{call left as it is: the types of @"t" do not fit the call}}
  %a = ts.prim.CallFunction %f(%x) : (!ts.int) -> !ts.int
  return %a : !ts.int
}
func.func private @t(%a: !ts.tensor) -> !ts.int {
  %0 = ts.aten.dim %a : (!ts.tensor) -> !ts.int
  return %0 : !ts.int
}

// -----

// Nested calls deeper than max-depth stay (the remarks run uses
// max-depth=2; the default is 64).
// CHECK-LABEL: func.func @depth(
// CHECK-NOT:     ts.prim.CallFunction
// CHECK-COUNT-3: ts.aten.neg
func.func @depth(%x: !ts.tensor) -> !ts.tensor {
  %f = ts.prim.Constant {name = "d1"} : !ts.function
  %a = ts.prim.CallFunction %f(%x) : (!ts.tensor) -> !ts.tensor
  return %a : !ts.tensor
}
func.func private @d1(%a: !ts.tensor) -> !ts.tensor {
  %0 = ts.aten.neg %a : (!ts.tensor) -> !ts.tensor
  %f = ts.prim.Constant {name = "d2"} : !ts.function
  %1 = ts.prim.CallFunction %f(%0) : (!ts.tensor) -> !ts.tensor
  return %1 : !ts.tensor
}
func.func private @d2(%a: !ts.tensor) -> !ts.tensor {
  %0 = ts.aten.neg %a : (!ts.tensor) -> !ts.tensor
  %f = ts.prim.Constant {name = "d3"} : !ts.function
  // expected-remark @+1 {{call left as it is: more than 2 nested inlined calls (max-depth)}}
  %1 = ts.prim.CallFunction %f(%0) : (!ts.tensor) -> !ts.tensor
  return %1 : !ts.tensor
}
func.func private @d3(%a: !ts.tensor) -> !ts.tensor {
  %0 = ts.aten.neg %a : (!ts.tensor) -> !ts.tensor
  return %0 : !ts.tensor
}
