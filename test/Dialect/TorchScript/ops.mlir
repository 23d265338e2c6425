// RUN: tsmlir-opt %s | tsmlir-opt | FileCheck %s
// RUN: tsmlir-opt %s -mlir-print-op-generic | tsmlir-opt | FileCheck %s

// Every hand-written op of TorchScriptOps.td, and a few schema ops of each
// overload kind: parse, print, parse again.

//===----------------------------------------------------------------------===//
// prim::Constant
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @constant_scalars()
func.func @constant_scalars() {
  // CHECK: %[[I:.+]] = ts.prim.Constant[1] : !ts.int
  // CHECK: %[[M:.+]] = ts.prim.Constant[-3] : !ts.int
  // CHECK: %[[F:.+]] = ts.prim.Constant[2.500000e+00] : !ts.float
  // CHECK: %[[T:.+]] = ts.prim.Constant[true] : !ts.bool
  // CHECK: %[[FA:.+]] = ts.prim.Constant[false] : !ts.bool
  // CHECK: %[[S:.+]] = ts.prim.Constant["hello"] : !ts.str
  // CHECK: %[[D:.+]] = ts.prim.Constant["cuda:0"] : !ts.device
  // CHECK: %[[N:.+]] = ts.prim.Constant : !ts.none
  // CHECK: %[[ON:.+]] = ts.prim.Constant : !ts.optional<!ts.tensor>
  // CHECK: %[[OI:.+]] = ts.prim.Constant[7] : !ts.optional<!ts.int>
  // CHECK: %[[NUM:.+]] = ts.prim.Constant[1.500000e+00] : !ts.number
  // CHECK: %[[DT:.+]] = ts.prim.Constant[6] : !ts.scalar_type
  // CHECK: %[[LAY:.+]] = ts.prim.Constant[0] : !ts.layout
  // CHECK: %[[MF:.+]] = ts.prim.Constant[1] : !ts.memory_format
  %int = ts.prim.Constant[1] : !ts.int
  %neg = ts.prim.Constant[-3] : !ts.int
  %float = ts.prim.Constant[2.5] : !ts.float
  %true = ts.prim.Constant[true] : !ts.bool
  %false = ts.prim.Constant[false] : !ts.bool
  %str = ts.prim.Constant["hello"] : !ts.str
  %device = ts.prim.Constant["cuda:0"] : !ts.device
  %none = ts.prim.Constant : !ts.none
  %opt_none = ts.prim.Constant : !ts.optional<!ts.tensor>
  %opt_int = ts.prim.Constant[7] : !ts.optional<!ts.int>
  %number = ts.prim.Constant[1.5] : !ts.number
  %dtype = ts.prim.Constant[6] : !ts.scalar_type
  %layout = ts.prim.Constant[0] : !ts.layout
  %format = ts.prim.Constant[1] : !ts.memory_format
  // The printed names follow the value.
  // CHECK: ts.prim.Print(%int1, %int_m3, %float, %true, %false, %str, %device, %none)
  ts.prim.Print(%int, %neg, %float, %true, %false, %str, %device, %none)
      : !ts.int, !ts.int, !ts.float, !ts.bool, !ts.bool, !ts.str, !ts.device, !ts.none
  return
}

// Floats that MLIR prints in hexadecimal keep their type, so that they do not
// parse back as integers.
// CHECK-LABEL: func.func @constant_special_floats()
func.func @constant_special_floats() {
  // CHECK: ts.prim.Constant[0x7FF8000000000000 : f64] : !ts.float
  %nan = ts.prim.Constant[0x7FF8000000000000 : f64] : !ts.float
  // CHECK: ts.prim.Constant[0x7FF0000000000000 : f64] : !ts.float
  %inf = ts.prim.Constant[0x7FF0000000000000 : f64] : !ts.float
  // CHECK: ts.prim.Constant[0xFFF0000000000000 : f64] : !ts.float
  %ninf = ts.prim.Constant[0xFFF0000000000000 : f64] : !ts.float
  // CHECK: ts.prim.Constant[0x41678C29C0000000 : f64] : !ts.float
  %big = ts.prim.Constant[12345678.0] : !ts.float
  // CHECK: ts.prim.Constant[-0.000000e+00] : !ts.float
  %nzero = ts.prim.Constant[-0.0] : !ts.float
  // CHECK: ts.prim.Constant{{\[\[}}0x7FF0000000000000 : f64, 1.000000e+00]] : !ts.list<!ts.float>
  %list = ts.prim.Constant[[0x7FF0000000000000 : f64, 1.0]] : !ts.list<!ts.float>
  // CHECK: ts.prim.Constant[0x7FF8000000000000 : f64] : !ts.number
  %num = ts.prim.Constant[0x7FF8000000000000 : f64] : !ts.number
  // CHECK: ts.prim.Constant[-9223372036854775808] : !ts.int
  %min = ts.prim.Constant[-9223372036854775808] : !ts.int
  // CHECK: ts.prim.Print(%int_m9223372036854775808)
  ts.prim.Print(%min) : !ts.int
  return
}

// CHECK-LABEL: func.func @constant_aggregates()
func.func @constant_aggregates() {
  // CHECK: ts.prim.Constant{{\[\[}}1, 2, 3]] : !ts.list<!ts.int>
  %ints = ts.prim.Constant[[1, 2, 3]] : !ts.list<!ts.int>
  // CHECK: ts.prim.Constant{{\[\[}}]] : !ts.list<!ts.int>
  %empty = ts.prim.Constant[[]] : !ts.list<!ts.int>
  // CHECK: ts.prim.Constant{{\[\[}}1.000000e+00, 2.500000e+00]] : !ts.list<!ts.float>
  %floats = ts.prim.Constant[[1.0, 2.5]] : !ts.list<!ts.float>
  // CHECK: ts.prim.Constant{{\[\[}}true, false]] : !ts.list<!ts.bool>
  %bools = ts.prim.Constant[[true, false]] : !ts.list<!ts.bool>
  // CHECK: ts.prim.Constant{{\[\[}}"a", "b"]] : !ts.list<!ts.str>
  %strs = ts.prim.Constant[["a", "b"]] : !ts.list<!ts.str>
  // CHECK: ts.prim.Constant{{\[\[}}1, "a", [2, 3]]] : !ts.tuple<!ts.int, !ts.str, !ts.list<!ts.int>>
  %tuple = ts.prim.Constant[[1, "a", [2, 3]]] : !ts.tuple<!ts.int, !ts.str, !ts.list<!ts.int>>
  // CHECK: ts.prim.Constant{{\[\[}}]] : !ts.tuple<>
  %empty_tuple = ts.prim.Constant[[]] : !ts.tuple<>
  return
}

// CHECK-LABEL: func.func @constant_tensors()
func.func @constant_tensors() {
  // CHECK: ts.prim.Constant[dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>] : !ts.tensor<f32, [2]>
  %a = ts.prim.Constant[dense<[1.0, 2.0]> : tensor<2xf32>] : !ts.tensor<f32, [2]>
  // CHECK: ts.prim.Constant[dense<3> : tensor<si64>] : !ts.tensor<si64, []>
  %b = ts.prim.Constant[dense<3> : tensor<si64>] : !ts.tensor<si64, []>
  // A constant may say less than its value.
  // CHECK: ts.prim.Constant[dense<true> : tensor<2x2xi1>] : !ts.tensor
  %c = ts.prim.Constant[dense<true> : tensor<2x2xi1>] : !ts.tensor
  // CHECK: ts.prim.Constant[dense<0.000000e+00> : tensor<4xf16>] : !ts.tensor<f16>
  %d = ts.prim.Constant[dense<0.0> : tensor<4xf16>] : !ts.tensor<f16>
  // CHECK: ts.prim.Constant[dense<1> : tensor<1x3xui8>] : !ts.tensor<[1, 3]>
  %e = ts.prim.Constant[dense<1> : tensor<1x3xui8>] : !ts.tensor<[1, 3]>
  return
}

// CHECK-LABEL: func.func @constant_functions()
func.func @constant_functions() {
  // CHECK: ts.prim.Constant {name = "helper"} : !ts.function
  %f = ts.prim.Constant {name = "helper"} : !ts.function
  // CHECK: ts.prim.Constant {fallback = 1 : i64, name = "fallback_function"} : !ts.function
  %g = ts.prim.Constant {name = "fallback_function", fallback = 1 : i64} : !ts.function
  // Other attributes of the node stay in the dictionary.
  // CHECK: ts.prim.Constant[3] {note = "x"} : !ts.int
  %i = ts.prim.Constant[3] {note = "x"} : !ts.int
  return
}

//===----------------------------------------------------------------------===//
// Lists, tuples and dicts
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @lists(
// CHECK-SAME:    %[[A:[^:]+]]: !ts.int, %[[B:[^:]+]]: !ts.int, %[[T:[^:]+]]: !ts.tensor<f32, [2]>, %[[U:[^:]+]]: !ts.tensor)
func.func @lists(%a: !ts.int, %b: !ts.int, %t: !ts.tensor<f32, [2]>, %u: !ts.tensor)
    -> (!ts.tensor, !ts.tensor) {
  // CHECK: %[[L:.+]] = ts.prim.ListConstruct %[[A]], %[[B]] : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %l = ts.prim.ListConstruct %a, %b : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  // CHECK: ts.prim.ListConstruct  : () -> !ts.list<!ts.float>
  %empty = ts.prim.ListConstruct : () -> !ts.list<!ts.float>
  // A refined tensor is a subtype of the element type; an int of an Optional[int].
  // CHECK: %[[TL:.+]] = ts.prim.ListConstruct %[[T]], %[[U]] : (!ts.tensor<f32, [2]>, !ts.tensor) -> !ts.list<!ts.tensor>
  %tl = ts.prim.ListConstruct %t, %u : (!ts.tensor<f32, [2]>, !ts.tensor) -> !ts.list<!ts.tensor>
  // CHECK: ts.prim.ListConstruct %[[A]] : (!ts.int) -> !ts.list<!ts.optional<!ts.int>>
  %ol = ts.prim.ListConstruct %a : (!ts.int) -> !ts.list<!ts.optional<!ts.int>>
  // CHECK: %[[X:.+]]:2 = ts.prim.ListUnpack %[[TL]] : !ts.list<!ts.tensor> -> !ts.tensor, !ts.tensor
  %x, %y = ts.prim.ListUnpack %tl : !ts.list<!ts.tensor> -> !ts.tensor, !ts.tensor
  // An unpacked element may be typed more precisely than the list says.
  // CHECK: ts.prim.ListUnpack %[[TL]] : !ts.list<!ts.tensor> -> !ts.tensor<f32, [2]>, !ts.tensor
  %p, %q = ts.prim.ListUnpack %tl : !ts.list<!ts.tensor> -> !ts.tensor<f32, [2]>, !ts.tensor
  // CHECK: return %[[X]]#0, %[[X]]#1
  return %x, %y : !ts.tensor, !ts.tensor
}

// CHECK-LABEL: func.func @tuples(
// CHECK-SAME:    %[[T:[^:]+]]: !ts.tensor, %[[I:[^:]+]]: !ts.int)
func.func @tuples(%t: !ts.tensor, %i: !ts.int) -> !ts.tensor {
  // CHECK: %[[TUP:.+]] = ts.prim.TupleConstruct %[[T]], %[[I]] : (!ts.tensor, !ts.int) -> !ts.tuple<!ts.tensor, !ts.int>
  %tup = ts.prim.TupleConstruct %t, %i : (!ts.tensor, !ts.int) -> !ts.tuple<!ts.tensor, !ts.int>
  // CHECK: ts.prim.TupleConstruct  : () -> !ts.tuple<>
  %empty = ts.prim.TupleConstruct : () -> !ts.tuple<>
  // CHECK: ts.prim.TupleConstruct %[[T]], %[[T]] : (!ts.tensor, !ts.tensor) -> !ts.tuple<!ts.tensor, !ts.tensor, name = "__torch__.Pair">
  %named = ts.prim.TupleConstruct %t, %t : (!ts.tensor, !ts.tensor) -> !ts.tuple<!ts.tensor, !ts.tensor, name = "__torch__.Pair">
  // CHECK: %{{.+}}:2 = ts.prim.TupleUnpack %[[TUP]] : !ts.tuple<!ts.tensor, !ts.int> -> !ts.tensor, !ts.int
  %a, %b = ts.prim.TupleUnpack %tup : !ts.tuple<!ts.tensor, !ts.int> -> !ts.tensor, !ts.int
  // CHECK: %[[C0:.+]] = ts.prim.Constant[0] : !ts.int
  %c0 = ts.prim.Constant[0] : !ts.int
  // CHECK: %[[E:.+]] = ts.prim.TupleIndex %[[TUP]], %[[C0]] : (!ts.tuple<!ts.tensor, !ts.int>, !ts.int) -> !ts.tensor
  %e = ts.prim.TupleIndex %tup, %c0 : (!ts.tuple<!ts.tensor, !ts.int>, !ts.int) -> !ts.tensor
  // A non-constant index.
  // CHECK: ts.prim.TupleIndex %[[TUP]], %[[I]] : (!ts.tuple<!ts.tensor, !ts.int>, !ts.int) -> !ts.any
  %f = ts.prim.TupleIndex %tup, %i : (!ts.tuple<!ts.tensor, !ts.int>, !ts.int) -> !ts.any
  // CHECK: return %[[E]]
  return %e : !ts.tensor
}

// CHECK-LABEL: func.func @dicts(
// CHECK-SAME:    %[[K:[^:]+]]: !ts.str, %[[V:[^:]+]]: !ts.tensor)
func.func @dicts(%k: !ts.str, %v: !ts.tensor) {
  // CHECK: ts.prim.DictConstruct %[[K]], %[[V]], %[[K]], %[[V]] : (!ts.str, !ts.tensor, !ts.str, !ts.tensor) -> !ts.dict<!ts.str, !ts.tensor>
  %d = ts.prim.DictConstruct %k, %v, %k, %v : (!ts.str, !ts.tensor, !ts.str, !ts.tensor) -> !ts.dict<!ts.str, !ts.tensor>
  // CHECK: ts.prim.DictConstruct  : () -> !ts.dict<!ts.int, !ts.float>
  %e = ts.prim.DictConstruct : () -> !ts.dict<!ts.int, !ts.float>
  return
}

// A `type($x)` of a TS_Tensor operand prints without the `!ts.tensor` prefix.
// CHECK-LABEL: func.func @constant_chunk(
// CHECK-SAME:    %[[X:[^:]+]]: !ts.tensor<f32, [4, 6]>)
func.func @constant_chunk(%x: !ts.tensor<f32, [4, 6]>) {
  // CHECK: ts.prim.ConstantChunk %[[X]] {chunks = 2 : i64, dim = -1 : i64} : <f32, [4, 6]> -> !ts.tensor, !ts.tensor
  %a, %b = ts.prim.ConstantChunk %x {chunks = 2 : i64, dim = -1 : i64} : !ts.tensor<f32, [4, 6]> -> !ts.tensor, !ts.tensor
  // CHECK: ts.prim.ConstantChunk %[[X]] {chunks = 3 : i64, dim = 1 : i64} : <f32, [4, 6]> -> !ts.tensor<f32, [4, 2]>, !ts.tensor<f32, [4, 2]>, !ts.tensor<f32, [4, 2]>
  %c:3 = ts.prim.ConstantChunk %x {chunks = 3 : i64, dim = 1 : i64} : !ts.tensor<f32, [4, 6]> -> !ts.tensor<f32, [4, 2]>, !ts.tensor<f32, [4, 2]>, !ts.tensor<f32, [4, 2]>
  return
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @if_with_results(
// CHECK-SAME:    %[[C:[^:]+]]: !ts.bool, %[[A:[^:]+]]: !ts.tensor<f32>, %[[B:[^:]+]]: !ts.tensor)
func.func @if_with_results(%c: !ts.bool, %a: !ts.tensor<f32>, %b: !ts.tensor)
    -> !ts.tensor {
  // CHECK:      %[[R:.+]]:2 = ts.prim.If %[[C]] -> (!ts.tensor, !ts.int) {
  // CHECK-NEXT:   %[[ONE:.+]] = ts.prim.Constant[1] : !ts.int
  // CHECK-NEXT:   ts.prim.Yield %[[A]], %[[ONE]] : !ts.tensor<f32>, !ts.int
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   %[[TWO:.+]] = ts.prim.Constant[2] : !ts.int
  // CHECK-NEXT:   ts.prim.Yield %[[B]], %[[TWO]] : !ts.tensor, !ts.int
  // CHECK-NEXT: }
  %r:2 = ts.prim.If %c -> (!ts.tensor, !ts.int) {
    %one = ts.prim.Constant[1] : !ts.int
    ts.prim.Yield %a, %one : !ts.tensor<f32>, !ts.int
  } else {
    %two = ts.prim.Constant[2] : !ts.int
    ts.prim.Yield %b, %two : !ts.tensor, !ts.int
  }
  // CHECK: return %[[R]]#0
  return %r#0 : !ts.tensor
}

// CHECK-LABEL: func.func @if_without_results(
// CHECK-SAME:    %[[C:[^:]+]]: !ts.bool, %[[MSG:[^:]+]]: !ts.str)
func.func @if_without_results(%c: !ts.bool, %msg: !ts.str) {
  // The empty yield is implicit.
  // CHECK:      ts.prim.If %[[C]] {
  // CHECK-NEXT:   ts.prim.RaiseException %[[MSG]] : !ts.str
  // CHECK-NEXT: } else {
  // CHECK-NEXT: }
  ts.prim.If %c {
    ts.prim.RaiseException %msg : !ts.str
  } else {
  }
  // CHECK: ts.prim.If %[[C]] {
  ts.prim.If %c {
    ts.prim.Print(%msg) : !ts.str
    ts.prim.Yield
  } else {
    ts.prim.Yield
  }
  return
}

// CHECK-LABEL: func.func @loop_with_carried_values(
// CHECK-SAME:    %[[N:[^:]+]]: !ts.int, %[[X:[^:]+]]: !ts.tensor, %[[ACC:[^:]+]]: !ts.tensor)
func.func @loop_with_carried_values(%n: !ts.int, %x: !ts.tensor, %acc: !ts.tensor)
    -> !ts.tensor {
  %true = ts.prim.Constant[true] : !ts.bool
  %one = ts.prim.Constant[1] : !ts.int
  // CHECK:      %[[R:.+]] = ts.prim.Loop %[[N]], %[[TRUE:.+]] init(%[[ACC]]) : (!ts.int, !ts.bool, !ts.tensor) -> !ts.tensor {
  // CHECK-NEXT: ^bb0(%[[I:.+]]: !ts.int, %[[A:.+]]: !ts.tensor):
  // CHECK-NEXT:   %[[B:.+]] = ts.aten.add.Tensor %[[A]], %[[X]], %{{.+}} : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
  // CHECK-NEXT:   ts.prim.Yield %[[TRUE]], %[[B]] : !ts.bool, !ts.tensor
  // CHECK-NEXT: }
  %r = ts.prim.Loop %n, %true init(%acc) : (!ts.int, !ts.bool, !ts.tensor) -> !ts.tensor {
  ^bb0(%i: !ts.int, %a: !ts.tensor):
    %b = ts.aten.add.Tensor %a, %x, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
    ts.prim.Yield %true, %b : !ts.bool, !ts.tensor
  }
  // CHECK: return %[[R]]
  return %r : !ts.tensor
}

// CHECK-LABEL: func.func @loop_without_carried_values(
// CHECK-SAME:    %[[N:[^:]+]]: !ts.int, %[[C:[^:]+]]: !ts.bool)
func.func @loop_without_carried_values(%n: !ts.int, %c: !ts.bool) {
  // CHECK:      ts.prim.Loop %[[N]], %[[C]] : (!ts.int, !ts.bool) -> () {
  // CHECK-NEXT: ^bb0(%[[I:.+]]: !ts.int):
  // CHECK-NEXT:   ts.prim.Print(%[[I]]) : !ts.int
  // CHECK-NEXT:   ts.prim.Yield %[[C]] : !ts.bool
  // CHECK-NEXT: }
  ts.prim.Loop %n, %c : (!ts.int, !ts.bool) -> () {
  ^bb0(%i: !ts.int):
    ts.prim.Print(%i) : !ts.int
    ts.prim.Yield %c : !ts.bool
  }
  return
}

// Loops and ifs nest; a carried value may be refined in the body.
// CHECK-LABEL: func.func @nested_control_flow(
func.func @nested_control_flow(%n: !ts.int, %c: !ts.bool, %x: !ts.tensor<f32, [2]>)
    -> !ts.tensor {
  // CHECK: ts.prim.Loop
  // CHECK:   ts.prim.If
  // CHECK:     ts.prim.Yield %{{.+}} : !ts.tensor
  // CHECK:   } else {
  // CHECK:     ts.prim.Yield %{{.+}} : !ts.tensor
  // CHECK:   ts.prim.Yield %{{.+}}, %{{.+}} : !ts.bool, !ts.tensor
  %r = ts.prim.Loop %n, %c init(%x) : (!ts.int, !ts.bool, !ts.tensor<f32, [2]>) -> !ts.tensor {
  ^bb0(%i: !ts.int, %a: !ts.tensor):
    %s = ts.prim.If %c -> (!ts.tensor) {
      ts.prim.Yield %a : !ts.tensor
    } else {
      ts.prim.Yield %x : !ts.tensor<f32, [2]>
    }
    ts.prim.Yield %c, %s : !ts.bool, !ts.tensor
  }
  return %r : !ts.tensor
}

//===----------------------------------------------------------------------===//
// Modules and calls
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @modules(
// CHECK-SAME:    %[[SELF:[^:]+]]: !ts.module<"__torch__.MLP">, %[[X:[^:]+]]: !ts.tensor)
func.func @modules(%self: !ts.module<"__torch__.MLP">, %x: !ts.tensor) -> !ts.tensor {
  // CHECK: %[[FC1:.+]] = ts.prim.GetAttr %[[SELF]]["fc1"] : !ts.module<"__torch__.MLP"> -> !ts.module<"__torch__.torch.nn.modules.linear.Linear">
  %fc1 = ts.prim.GetAttr %self["fc1"] : !ts.module<"__torch__.MLP"> -> !ts.module<"__torch__.torch.nn.modules.linear.Linear">
  // CHECK: ts.prim.GetAttr %[[FC1]]["weight"] : !ts.module<"__torch__.torch.nn.modules.linear.Linear"> -> !ts.tensor
  %w = ts.prim.GetAttr %fc1["weight"] : !ts.module<"__torch__.torch.nn.modules.linear.Linear"> -> !ts.tensor
  // CHECK: %[[STEPS:.+]] = ts.prim.Constant[0] : !ts.int
  // CHECK: ts.prim.SetAttr %[[SELF]]["steps"] = %[[STEPS]] : !ts.module<"__torch__.MLP">, !ts.int
  %steps = ts.prim.Constant[0] : !ts.int
  ts.prim.SetAttr %self["steps"] = %steps : !ts.module<"__torch__.MLP">, !ts.int
  // CHECK: %[[Y:.+]] = ts.prim.CallMethod %[[FC1]]["forward"] (%[[X]]) : !ts.module<"__torch__.torch.nn.modules.linear.Linear">, (!ts.tensor) -> !ts.tensor
  %y = ts.prim.CallMethod %fc1["forward"](%x) : !ts.module<"__torch__.torch.nn.modules.linear.Linear">, (!ts.tensor) -> !ts.tensor
  // CHECK: ts.prim.CallMethod %[[SELF]]["reset"] () : !ts.module<"__torch__.MLP">, () -> ()
  ts.prim.CallMethod %self["reset"]() : !ts.module<"__torch__.MLP">, () -> ()
  // Classes and opaque objects have attributes too.
  // CHECK: ts.prim.GetAttr %{{.+}}["count"] : !ts.class<"__torch__.Counter"> -> !ts.int
  %obj = ts.prim.Uninitialized : !ts.class<"__torch__.Counter">
  %count = ts.prim.GetAttr %obj["count"] : !ts.class<"__torch__.Counter"> -> !ts.int
  // CHECK: ts.prim.CallMethod %{{.+}}["get"] () : !ts.opaque<"__torch__.torch.classes.my.Thing">, () -> !ts.int
  %thing = ts.prim.Uninitialized : !ts.opaque<"__torch__.torch.classes.my.Thing">
  %got = ts.prim.CallMethod %thing["get"]() : !ts.opaque<"__torch__.torch.classes.my.Thing">, () -> !ts.int
  // CHECK: return %[[Y]]
  return %y : !ts.tensor
}

// CHECK-LABEL: func.func @call_function(
// CHECK-SAME:    %[[X:[^:]+]]: !ts.tensor, %[[I:[^:]+]]: !ts.int)
func.func @call_function(%x: !ts.tensor, %i: !ts.int) -> !ts.tensor {
  // CHECK: %[[F:.+]] = ts.prim.Constant {name = "helper"} : !ts.function
  // CHECK: %[[R:.+]]:2 = ts.prim.CallFunction %[[F]](%[[X]], %[[I]]) : (!ts.tensor, !ts.int) -> (!ts.tensor, !ts.int)
  // CHECK: ts.prim.CallFunction %[[F]]() : () -> ()
  %f = ts.prim.Constant {name = "helper"} : !ts.function
  %r:2 = ts.prim.CallFunction %f(%x, %i) : (!ts.tensor, !ts.int) -> (!ts.tensor, !ts.int)
  ts.prim.CallFunction %f() : () -> ()
  // CHECK: return %[[R]]#0
  return %r#0 : !ts.tensor
}

//===----------------------------------------------------------------------===//
// Exceptions, printing, casts
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @raise_and_print(
// CHECK-SAME:    %[[MSG:[^:]+]]: !ts.str, %[[X:[^:]+]]: !ts.tensor, %[[I:[^:]+]]: !ts.int)
func.func @raise_and_print(%msg: !ts.str, %x: !ts.tensor, %i: !ts.int) {
  // CHECK: ts.prim.RaiseException %[[MSG]] : !ts.str
  ts.prim.RaiseException %msg : !ts.str
  // CHECK: %[[CLS:.+]] = ts.prim.Constant["builtins.ValueError"] : !ts.str
  // CHECK: ts.prim.RaiseException %[[MSG]], %[[CLS]] : !ts.str, !ts.str
  %cls = ts.prim.Constant["builtins.ValueError"] : !ts.str
  ts.prim.RaiseException %msg, %cls : !ts.str, !ts.str
  // CHECK: %[[NONE:.+]] = ts.prim.Constant : !ts.none
  // CHECK: ts.prim.RaiseException %[[MSG]], %[[NONE]] : !ts.str, !ts.none
  %none = ts.prim.Constant : !ts.none
  ts.prim.RaiseException %msg, %none : !ts.str, !ts.none
  // CHECK: ts.prim.Print(%[[MSG]], %[[X]], %[[I]]) : !ts.str, !ts.tensor, !ts.int
  ts.prim.Print(%msg, %x, %i) : !ts.str, !ts.tensor, !ts.int
  return
}

// CHECK-LABEL: func.func @casts(
// CHECK-SAME:    %[[O:[^:]+]]: !ts.optional<!ts.tensor>, %[[A:[^:]+]]: !ts.any)
func.func @casts(%o: !ts.optional<!ts.tensor>, %a: !ts.any) {
  // CHECK: ts.prim.Uninitialized : !ts.tensor
  %u = ts.prim.Uninitialized : !ts.tensor
  // CHECK: ts.prim.unchecked_cast %[[O]] : !ts.optional<!ts.tensor> -> !ts.tensor
  %t = ts.prim.unchecked_cast %o : !ts.optional<!ts.tensor> -> !ts.tensor
  // CHECK: ts.prim.unchecked_cast %[[A]] : !ts.any -> !ts.list<!ts.int>
  %l = ts.prim.unchecked_cast %a : !ts.any -> !ts.list<!ts.int>
  // CHECK: ts.prim.unchecked_unwrap_optional %[[O]] : !ts.optional<!ts.tensor> -> !ts.tensor
  %w = ts.prim.unchecked_unwrap_optional %o : !ts.optional<!ts.tensor> -> !ts.tensor
  return
}

//===----------------------------------------------------------------------===//
// Guards of profiled graphs
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @guards(
// CHECK-SAME:    %[[X:[^:]+]]: !ts.tensor, %[[Y:[^:]+]]: !ts.tensor)
func.func @guards(%x: !ts.tensor, %y: !ts.tensor) {
  // CHECK: %{{.+}}:3 = ts.prim.TypeCheck %[[X]], %[[Y]] : (!ts.tensor, !ts.tensor) -> (!ts.tensor<f32, [4], strides = [1], device = "cpu", requires_grad = false>, !ts.tensor<f32, [4], strides = [1], device = "cpu", requires_grad = false>, !ts.bool)
  %a, %b, %ok = ts.prim.TypeCheck %x, %y : (!ts.tensor, !ts.tensor)
      -> (!ts.tensor<f32, [4], strides = [1], device = "cpu", requires_grad = false>,
          !ts.tensor<f32, [4], strides = [1], device = "cpu", requires_grad = false>,
          !ts.bool)
  // CHECK: ts.prim.TypeCheck  : () -> !ts.bool
  %none_ok = ts.prim.TypeCheck : () -> !ts.bool
  // CHECK: %{{.+}}:2 = ts.prim.RequiresGradCheck %[[X]] : (!ts.tensor) -> (!ts.tensor<requires_grad = false>, !ts.bool)
  %c, %ok2 = ts.prim.RequiresGradCheck %x : (!ts.tensor) -> (!ts.tensor<requires_grad = false>, !ts.bool)
  // CHECK: ts.prim.BailOut %[[X]], %[[Y]] {index = 0 : i64} : (!ts.tensor, !ts.tensor) -> !ts.tensor<f32, [4]>
  %d = ts.prim.BailOut %x, %y {index = 0 : i64} : (!ts.tensor, !ts.tensor) -> !ts.tensor<f32, [4]>
  // CHECK: ts.prim.BailOut %[[X]] {index = 1 : i64} : (!ts.tensor) -> !ts.tensor
  %e = ts.prim.BailOut %x {index = 1 : i64} : (!ts.tensor) -> !ts.tensor
  return
}

//===----------------------------------------------------------------------===//
// ts.operator
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @generic_operator(
// CHECK-SAME:    %[[X:[^:]+]]: !ts.tensor, %[[C:[^:]+]]: !ts.bool)
func.func @generic_operator(%x: !ts.tensor, %c: !ts.bool) -> !ts.tensor {
  // CHECK: %[[Y:.+]] = ts.operator "aten::erfinv"(%[[X]]) : (!ts.tensor) -> !ts.tensor
  %y = ts.operator "aten::erfinv"(%x) : (!ts.tensor) -> !ts.tensor
  // CHECK: ts.operator "prim::profile"(%[[Y]]) {profiled_type = "Float(4)"} : (!ts.tensor) -> !ts.tensor
  %p = ts.operator "prim::profile"(%y) {profiled_type = "Float(4)"} : (!ts.tensor) -> !ts.tensor
  // CHECK: ts.operator "prim::Guard"() : () -> ()
  ts.operator "prim::Guard"() : () -> ()
  // A node with blocks keeps them as regions. (No `ts` op can terminate a
  // block of a ts.operator yet, so only empty regions are written here.)
  // CHECK:      %[[G:.+]] = ts.operator "prim::FusionGroup"(%[[X]]) : (!ts.tensor) -> !ts.tensor {
  // CHECK-NEXT: }
  %g = ts.operator "prim::FusionGroup"(%x) : (!ts.tensor) -> !ts.tensor {
  }
  // CHECK:      ts.operator "prim::ExampleTwoBlocks"(%[[C]]) {note = 1 : i64} : (!ts.bool) -> () {
  // CHECK-NEXT: }, {
  // CHECK-NEXT: }
  ts.operator "prim::ExampleTwoBlocks"(%c) {note = 1 : i64} : (!ts.bool) -> () {
  }, {
  }
  // CHECK: return %[[G]]
  return %g : !ts.tensor
}

//===----------------------------------------------------------------------===//
// Schema ops, one of each overload kind
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @schema_ops(
// CHECK-SAME:    %[[X:[^:]+]]: !ts.tensor<f32, [2, 3]>, %[[Y:[^:]+]]: !ts.tensor<f32, [2, 3]>, %[[S:[^:]+]]: !ts.number, %[[I:[^:]+]]: !ts.int, %[[F:[^:]+]]: !ts.float)
func.func @schema_ops(%x: !ts.tensor<f32, [2, 3]>, %y: !ts.tensor<f32, [2, 3]>,
                      %s: !ts.number, %i: !ts.int, %f: !ts.float) -> !ts.str {
  // Tensor overload.
  // CHECK: ts.aten.add.Tensor %[[X]], %[[Y]], %[[I]] : (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.int) -> !ts.tensor<f32, [2, 3]>
  %add = ts.aten.add.Tensor %x, %y, %i : (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.int) -> !ts.tensor<f32, [2, 3]>
  // Scalar overload: any of int, float or Scalar.
  // CHECK: ts.aten.add.Scalar %[[X]], %[[S]], %[[F]] : (!ts.tensor<f32, [2, 3]>, !ts.number, !ts.float) -> !ts.tensor
  %adds = ts.aten.add.Scalar %x, %s, %f : (!ts.tensor<f32, [2, 3]>, !ts.number, !ts.float) -> !ts.tensor
  // int overload.
  // CHECK: ts.aten.add.int %[[I]], %[[I]] : (!ts.int, !ts.int) -> !ts.int
  %addi = ts.aten.add.int %i, %i : (!ts.int, !ts.int) -> !ts.int
  // An int[] argument.
  // CHECK: %[[DIMS:.+]] = ts.prim.ListConstruct
  // CHECK: ts.aten.permute %[[X]], %[[DIMS]] : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>) -> !ts.tensor<f32, [3, 2]>
  %c0 = ts.prim.Constant[0] : !ts.int
  %c1 = ts.prim.Constant[1] : !ts.int
  %dims = ts.prim.ListConstruct %c1, %c0 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %perm = ts.aten.permute %x, %dims : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>) -> !ts.tensor<f32, [3, 2]>
  // A Tensor[] argument.
  // CHECK: ts.aten.cat %{{.+}}, %[[I]] : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor
  %list = ts.prim.ListConstruct %x, %y : (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>) -> !ts.list<!ts.tensor>
  %cat = ts.aten.cat %list, %i : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor
  // Optional arguments passed None, or a value.
  // CHECK: %[[NONE:.+]] = ts.prim.Constant : !ts.none
  // CHECK: ts.aten.softmax.int %[[X]], %[[I]], %[[NONE]] : (!ts.tensor<f32, [2, 3]>, !ts.int, !ts.none) -> !ts.tensor
  // CHECK: ts.aten.softmax.int %[[X]], %[[I]], %[[I]] : (!ts.tensor<f32, [2, 3]>, !ts.int, !ts.int) -> !ts.tensor
  // CHECK: ts.aten.div.Tensor_mode %[[X]], %[[Y]], %[[NONE]] : (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.none) -> !ts.tensor
  %none = ts.prim.Constant : !ts.none
  %sm = ts.aten.softmax.int %x, %i, %none : (!ts.tensor<f32, [2, 3]>, !ts.int, !ts.none) -> !ts.tensor
  %sm2 = ts.aten.softmax.int %x, %i, %i : (!ts.tensor<f32, [2, 3]>, !ts.int, !ts.int) -> !ts.tensor
  %div = ts.aten.div.Tensor_mode %x, %y, %none : (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.none) -> !ts.tensor
  // Several results.
  // CHECK: %[[MAX:.+]]:2 = ts.aten.max.dim %[[X]], %[[I]], %{{.+}} : (!ts.tensor<f32, [2, 3]>, !ts.int, !ts.bool) -> (!ts.tensor<f32, [2]>, !ts.tensor<si64, [2]>)
  %false = ts.prim.Constant[false] : !ts.bool
  %values, %indices = ts.aten.max.dim %x, %i, %false : (!ts.tensor<f32, [2, 3]>, !ts.int, !ts.bool) -> (!ts.tensor<f32, [2]>, !ts.tensor<si64, [2]>)
  // Variadic arguments.
  // CHECK: %[[FMT:.+]] = ts.prim.Constant["{} {} {}"] : !ts.str
  // CHECK: %[[OUT:.+]] = ts.aten.format %[[FMT]], %[[I]], %[[F]], %[[MAX]]#0 : (!ts.str, !ts.int, !ts.float, !ts.tensor<f32, [2]>) -> !ts.str
  // CHECK: ts.aten.format %[[FMT]] : (!ts.str) -> !ts.str
  %fmt = ts.prim.Constant["{} {} {}"] : !ts.str
  %out = ts.aten.format %fmt, %i, %f, %values : (!ts.str, !ts.int, !ts.float, !ts.tensor<f32, [2]>) -> !ts.str
  %out2 = ts.aten.format %fmt : (!ts.str) -> !ts.str
  // In-place list mutation.
  // CHECK: ts.aten.append.t %{{.+}}, %[[X]] : (!ts.list<!ts.tensor>, !ts.tensor<f32, [2, 3]>) -> !ts.list<!ts.tensor>
  %appended = ts.aten.append.t %list, %x : (!ts.list<!ts.tensor>, !ts.tensor<f32, [2, 3]>) -> !ts.list<!ts.tensor>
  // CHECK: return %[[OUT]]
  return %out : !ts.str
}

//===----------------------------------------------------------------------===//
// What the verifiers must accept
//===----------------------------------------------------------------------===//

// Unknown sizes broadcast with anything; a size-1 dimension with any size.
// CHECK-LABEL: func.func @broadcast_unknown(
func.func @broadcast_unknown(%a: !ts.tensor<f32, [?, 3]>, %b: !ts.tensor<f32, [4, 1]>,
                             %c: !ts.tensor<f32>, %one: !ts.int) {
  // CHECK: ts.aten.add.Tensor
  // CHECK: ts.aten.add.Tensor
  %0 = ts.aten.add.Tensor %a, %b, %one : (!ts.tensor<f32, [?, 3]>, !ts.tensor<f32, [4, 1]>, !ts.int) -> !ts.tensor<f32, [4, 3]>
  %1 = ts.aten.add.Tensor %a, %c, %one : (!ts.tensor<f32, [?, 3]>, !ts.tensor<f32>, !ts.int) -> !ts.tensor<f32, [5, 7, 3]>
  return
}

// A size list that is mutated before the view says nothing about the view:
// [2] becomes [2, 3].
// CHECK-LABEL: func.func @view_of_mutated_sizes(
func.func @view_of_mutated_sizes(%x: !ts.tensor<f32, [2, 3]>) -> !ts.tensor {
  %c2 = ts.prim.Constant[2] : !ts.int
  %c3 = ts.prim.Constant[3] : !ts.int
  %sizes = ts.prim.ListConstruct %c2 : (!ts.int) -> !ts.list<!ts.int>
  %m = ts.aten.append.t %sizes, %c3 : (!ts.list<!ts.int>, !ts.int) -> !ts.list<!ts.int>
  // CHECK: ts.aten.view
  %v = ts.aten.view %x, %sizes : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>) -> !ts.tensor
  return %v : !ts.tensor
}

// Likewise for a tensor list whose rank-3 element is replaced before the cat.
// CHECK-LABEL: func.func @cat_of_mutated_list(
func.func @cat_of_mutated_list(%a: !ts.tensor<f32, [2, 3]>, %b: !ts.tensor<f32, [2, 3, 4]>) -> !ts.tensor {
  %c0 = ts.prim.Constant[0] : !ts.int
  %l = ts.prim.ListConstruct %a, %b : (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3, 4]>) -> !ts.list<!ts.tensor>
  %s = ts.operator "aten::_set_item.t"(%l, %c0, %a) : (!ts.list<!ts.tensor>, !ts.int, !ts.tensor<f32, [2, 3]>) -> !ts.list<!ts.tensor>
  // CHECK: ts.aten.cat
  %r = ts.aten.cat %l, %c0 : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor
  return %r : !ts.tensor
}

// A chunk of a tensor of unknown rank, along any dimension.
// CHECK-LABEL: func.func @constant_chunk_unknown_rank(
// CHECK: ts.prim.ConstantChunk %{{.+}} {chunks = 2 : i64, dim = 5 : i64} : !ts.tensor -> !ts.tensor, !ts.tensor
func.func @constant_chunk_unknown_rank(%x: !ts.tensor) {
  %a, %b = ts.prim.ConstantChunk %x {chunks = 2 : i64, dim = 5 : i64} : !ts.tensor -> !ts.tensor, !ts.tensor
  return
}

// Zero-value forms, and a ts.operator whose block yields (prim::With-like
// nodes keep their blocks).
// CHECK-LABEL: func.func @empty_forms_and_operator_blocks(
func.func @empty_forms_and_operator_blocks(%x: !ts.tensor, %l: !ts.list<!ts.int>,
                                           %t: !ts.tuple<>) -> !ts.tensor {
  // CHECK: ts.prim.Print()
  ts.prim.Print()
  // CHECK: ts.prim.ListUnpack %{{.*}} : !ts.list<!ts.int>
  ts.prim.ListUnpack %l : !ts.list<!ts.int>
  // CHECK: ts.prim.TupleUnpack %{{.*}} : !ts.tuple<>
  ts.prim.TupleUnpack %t : !ts.tuple<>
  // CHECK: ts.operator "prim::With"(%{{.*}}) : (!ts.tensor) -> !ts.tensor {
  // CHECK:   ts.prim.Yield %{{.*}} : !ts.tensor
  // CHECK: }
  %y = ts.operator "prim::With"(%x) : (!ts.tensor) -> !ts.tensor {
    %s = ts.aten.sigmoid %x : (!ts.tensor) -> !ts.tensor
    ts.prim.Yield %s : !ts.tensor
  }
  return %y : !ts.tensor
}

// -----

// PyTorch's autodiff branches on an int (prim::AutogradAnyNonZero); results
// may state more than the yields (profiled types).
// CHECK-LABEL: func.func @if_int_condition
func.func @if_int_condition(%n: !ts.int, %a: !ts.tensor) -> !ts.tensor<f32, [2]> {
  // CHECK: ts.prim.If %{{.*}} : !ts.int -> (!ts.tensor<f32, [2]>)
  %r = ts.prim.If %n : !ts.int -> (!ts.tensor<f32, [2]>) {
    ts.prim.Yield %a : !ts.tensor
  } else {
    ts.prim.Yield %a : !ts.tensor
  }
  return %r : !ts.tensor<f32, [2]>
}
