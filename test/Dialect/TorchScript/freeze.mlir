// RUN: tsmlir-opt %s -split-input-file -ts-freeze | FileCheck %s
// RUN: tsmlir-opt %s -split-input-file -ts-freeze="remarks=true" -verify-diagnostics -o /dev/null
// RUN: tsmlir-opt %s -split-input-file -ts-freeze="fold=false inline=false" | FileCheck %s --check-prefix=NOFOLD

// Parameters read through a GetAttr chain from self become constants of
// their values, named like torch.jit.freeze's; the chains and the state
// dict go.
// CHECK-NOT:   ts.state_dict
// CHECK-LABEL: func.func @forward(
// CHECK-SAME:      %[[SELF:[^:]+]]: !ts.class<"M">, %[[X:[^:]+]]: !ts.tensor
// CHECK-DAG:     %[[W:.+]] = ts.prim.Constant[dense<{{.*}}> : tensor<2x2xf32>] : !ts.tensor
// CHECK-DAG:     %[[B:.+]] = ts.prim.Constant[dense<5.000000e-01> : tensor<2xf32>] : !ts.tensor
// CHECK-NOT:     ts.prim.GetAttr
// CHECK:         ts.aten.linear %[[X]], %[[W]], %[[B]]
// NOFOLD-LABEL: func.func @forward(
// NOFOLD:         ts.prim.GetAttr %{{.+}}["fc"]
// NOFOLD:         ts.prim.Constant[dense<{{.*}}> : tensor<2x2xf32>] : !ts.tensor
module attributes {ts.state_dict = {"fc.weight" = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>, "fc.bias" = dense<0.5> : tensor<2xf32>}} {
  func.func @forward(%self: !ts.class<"M">, %x: !ts.tensor) -> !ts.tensor {
    %fc = ts.prim.GetAttr %self["fc"] : !ts.class<"M"> -> !ts.class<"L">
    %w = ts.prim.GetAttr %fc["weight"] : !ts.class<"L"> -> !ts.tensor
    %b = ts.prim.GetAttr %fc["bias"] : !ts.class<"L"> -> !ts.tensor
    %y = ts.aten.linear %x, %w, %b : (!ts.tensor, !ts.tensor, !ts.tensor) -> !ts.tensor
    return %y : !ts.tensor
  }
}

// -----

// A submodule's forward is inlined first, then frozen; the method goes.
// `training` is false (eval mode), so the branch that counts batches folds
// away, and batch_norm's running statistics become constants too.
// CHECK-LABEL: func.func @forward(
// CHECK-NOT:     ts.prim.GetAttr
// CHECK-NOT:     ts.prim.If
// CHECK-NOT:     ts.aten.add_
// CHECK:         %[[FALSE:.+]] = ts.prim.Constant[false] : !ts.bool
// CHECK:         ts.aten.batch_norm %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[FALSE]]
// CHECK-NOT:   func.func private
module attributes {ts.state_dict = {"bn.weight" = dense<1.0> : tensor<2xf32>, "bn.bias" = dense<0.0> : tensor<2xf32>, "bn.running_mean" = dense<0.0> : tensor<2xf32>, "bn.running_var" = dense<1.0> : tensor<2xf32>, "bn.num_batches_tracked" = dense<0> : tensor<si64>}} {
  func.func @forward(%self: !ts.class<"M">, %x: !ts.tensor) -> !ts.tensor {
    %bn = ts.prim.GetAttr %self["bn"] : !ts.class<"M"> -> !ts.class<"BN">
    %y = ts.prim.CallMethod %bn["forward"](%x) : !ts.class<"BN">, (!ts.tensor) -> !ts.tensor
    return %y : !ts.tensor
  }
  func.func private @"BN.forward"(%self: !ts.class<"BN">, %x: !ts.tensor) -> !ts.tensor {
    %one = ts.prim.Constant[1] : !ts.int
    %eps = ts.prim.Constant[1.0e-05] : !ts.float
    %momentum = ts.prim.Constant[0.1] : !ts.float
    %training = ts.prim.GetAttr %self["training"] : !ts.class<"BN"> -> !ts.bool
    ts.prim.If %training {
      %n = ts.prim.GetAttr %self["num_batches_tracked"] : !ts.class<"BN"> -> !ts.tensor
      %n1 = ts.aten.add_.Scalar %n, %one, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
      ts.prim.Yield
    } else {
      ts.prim.Yield
    }
    %mean = ts.prim.GetAttr %self["running_mean"] : !ts.class<"BN"> -> !ts.tensor
    %var = ts.prim.GetAttr %self["running_var"] : !ts.class<"BN"> -> !ts.tensor
    %w = ts.prim.GetAttr %self["weight"] : !ts.class<"BN"> -> !ts.tensor
    %b = ts.prim.GetAttr %self["bias"] : !ts.class<"BN"> -> !ts.tensor
    %y = ts.aten.batch_norm %x, %w, %b, %mean, %var, %training, %momentum, %eps, %training : (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.bool, !ts.float, !ts.float, !ts.bool) -> !ts.tensor
    return %y : !ts.tensor
  }
}

// -----

// A batch_norm that may train writes its running statistics: they become
// the module's state, read at the entry and written before the return; its
// weight is frozen.
// CHECK-DAG:   ts.module_state @running_mean : !ts.tensor = dense<0.000000e+00> : tensor<2xf32>
// CHECK-DAG:   ts.module_state @running_var : !ts.tensor = dense<1.000000e+00> : tensor<2xf32>
// CHECK-LABEL: func.func @training_unknown(
// CHECK-DAG:     %[[MEAN:.+]] = ts.module_state.read @running_mean : !ts.tensor
// CHECK-DAG:     %[[VAR:.+]] = ts.module_state.read @running_var : !ts.tensor
// CHECK-NOT:     ts.prim.GetAttr
// CHECK:         ts.aten.batch_norm %{{.+}}, %{{.+}}, %{{.+}}, %[[MEAN]], %[[VAR]],
// CHECK-DAG:     ts.module_state.write @running_mean = %[[MEAN]] : !ts.tensor
// CHECK-DAG:     ts.module_state.write @running_var = %[[VAR]] : !ts.tensor
// CHECK:         return
module attributes {ts.state_dict = {"weight" = dense<1.0> : tensor<2xf32>, "running_mean" = dense<0.0> : tensor<2xf32>, "running_var" = dense<1.0> : tensor<2xf32>}} {
  func.func @training_unknown(%self: !ts.class<"BN">, %x: !ts.tensor, %train: !ts.bool) -> !ts.tensor {
    %eps = ts.prim.Constant[1.0e-05] : !ts.float
    %mean = ts.prim.GetAttr %self["running_mean"] : !ts.class<"BN"> -> !ts.tensor
    %var = ts.prim.GetAttr %self["running_var"] : !ts.class<"BN"> -> !ts.tensor
    %w = ts.prim.GetAttr %self["weight"] : !ts.class<"BN"> -> !ts.tensor
    %none = ts.prim.Constant : !ts.none
    %y = ts.aten.batch_norm %x, %w, %none, %mean, %var, %train, %eps, %eps, %train : (!ts.tensor, !ts.tensor, !ts.none, !ts.tensor, !ts.tensor, !ts.bool, !ts.float, !ts.float, !ts.bool) -> !ts.tensor
    return %y : !ts.tensor
  }
}

// -----

// An attribute that a prim::SetAttr writes, anywhere in the module and on
// any object of its class, stays an attribute; so do attributes reached
// through a reassigned submodule.
// CHECK-LABEL: func.func @set_attr(
// CHECK:         ts.prim.Constant[7] : !ts.int
// CHECK:         ts.prim.GetAttr %{{.+}}["steps"]
// CHECK:         ts.prim.GetAttr %{{.+}}["w"]
module attributes {ts.state_dict = {"steps" = 3 : i64, "sub.w" = dense<1.0> : tensor<2xf32>, "other" = 7 : i64}} {
  func.func @set_attr(%self: !ts.class<"M">) -> (!ts.int, !ts.tensor, !ts.int) {
    // expected-remark @+1 {{attribute 'steps' not frozen: a prim::SetAttr writes it}}
    %s = ts.prim.GetAttr %self["steps"] : !ts.class<"M"> -> !ts.int
    %sub = ts.prim.GetAttr %self["sub"] : !ts.class<"M"> -> !ts.class<"S">
    // expected-remark @+1 {{attribute 'w' not frozen: a prim::SetAttr writes it}}
    %w = ts.prim.GetAttr %sub["w"] : !ts.class<"S"> -> !ts.tensor
    %o = ts.prim.GetAttr %self["other"] : !ts.class<"M"> -> !ts.int
    return %s, %w, %o : !ts.int, !ts.tensor, !ts.int
  }
  func.func private @writer(%m: !ts.class<"M">, %n: !ts.int, %s: !ts.class<"S">) {
    ts.prim.SetAttr %m["steps"] = %n : !ts.class<"M">, !ts.int
    ts.prim.SetAttr %m["sub"] = %s : !ts.class<"M">, !ts.class<"S">
    return
  }
}

// -----

// A tensor written in place, directly or through a view, is the module's
// state: one read at the entry serves every read of it, so the later read
// of `a` sees the write. One escaping into a list, a call or the function's
// results stays an attribute.
// CHECK-DAG:     ts.module_state @a : !ts.tensor = dense<1.000000e+00> : tensor<2xf32>
// CHECK-DAG:     ts.module_state @b : !ts.tensor = dense<2.000000e+00> : tensor<2xf32>
// CHECK-LABEL: func.func @written(
// CHECK-DAG:     %[[A:.+]] = ts.module_state.read @a
// CHECK-DAG:     %[[B:.+]] = ts.module_state.read @b
// CHECK-DAG:     ts.prim.Constant[dense<4.000000e+00> : tensor<2xf32>]
// CHECK:         ts.aten.mul_.Tensor %[[A]],
// CHECK:         ts.aten.select.int %[[B]],
// CHECK:         ts.prim.GetAttr %{{.+}}["c"]
// CHECK:         ts.prim.GetAttr %{{.+}}["d"]
// CHECK:         ts.aten.add.Tensor %[[A]],
// CHECK-DAG:     ts.module_state.write @a = %[[A]]
// CHECK-DAG:     ts.module_state.write @b = %[[B]]
// CHECK:         return
module attributes {ts.state_dict = {"a" = dense<1.0> : tensor<2xf32>, "b" = dense<2.0> : tensor<2xf32>, "c" = dense<3.0> : tensor<2xf32>, "d" = dense<3.0> : tensor<2xf32>, "e" = dense<4.0> : tensor<2xf32>}} {
  func.func @written(%self: !ts.class<"M">, %x: !ts.tensor) -> (!ts.tensor, !ts.tensor) {
    %zero = ts.prim.Constant[0] : !ts.int
    %one = ts.prim.Constant[1] : !ts.int
    %a = ts.prim.GetAttr %self["a"] : !ts.class<"M"> -> !ts.tensor
    %a1 = ts.aten.mul_.Tensor %a, %x : (!ts.tensor, !ts.tensor) -> !ts.tensor
    // The same attribute, read again: only read here, but written above.
    %a2 = ts.prim.GetAttr %self["a"] : !ts.class<"M"> -> !ts.tensor
    %b = ts.prim.GetAttr %self["b"] : !ts.class<"M"> -> !ts.tensor
    %v = ts.aten.select.int %b, %zero, %zero : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
    %v1 = ts.aten.relu_ %v : (!ts.tensor) -> !ts.tensor
    // expected-remark @+1 {{attribute 'c' not frozen: the tensor may be written in place or escapes}}
    %c = ts.prim.GetAttr %self["c"] : !ts.class<"M"> -> !ts.tensor
    %l = ts.prim.ListConstruct %c : (!ts.tensor) -> !ts.list<!ts.tensor>
    %f = ts.prim.Constant {name = "g"} : !ts.function
    %r = ts.prim.CallFunction %f(%l) : (!ts.list<!ts.tensor>) -> !ts.tensor
    // expected-remark @+1 {{attribute 'd' not frozen: the tensor may be written in place or escapes}}
    %d = ts.prim.GetAttr %self["d"] : !ts.class<"M"> -> !ts.tensor
    %e = ts.prim.GetAttr %self["e"] : !ts.class<"M"> -> !ts.tensor
    %s = ts.aten.add.Tensor %a2, %e, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
    return %d, %s : !ts.tensor, !ts.tensor
  }
}

// -----

// Attributes under an object that escapes (here to a method call that is
// not inlined, which may write them) stay; other paths are frozen.
// CHECK-LABEL: func.func @escaping_object(
// CHECK:         ts.prim.Constant[dense<2.000000e+00> : tensor<2xf32>]
// CHECK:         ts.prim.GetAttr %{{.+}}["w"]
// CHECK:         ts.prim.CallMethod
module attributes {ts.state_dict = {"sub.w" = dense<1.0> : tensor<2xf32>, "v" = dense<2.0> : tensor<2xf32>}} {
  func.func @escaping_object(%self: !ts.class<"M">, %x: !ts.tensor) -> !ts.tensor {
    %sub = ts.prim.GetAttr %self["sub"] : !ts.class<"M"> -> !ts.class<"S">
    // expected-remark @+1 {{attribute 'w' not frozen: object 'self.sub' escapes (passed to a call, stored or returned)}}
    %w = ts.prim.GetAttr %sub["w"] : !ts.class<"S"> -> !ts.tensor
    %y = ts.prim.CallMethod %sub["update"](%w) : !ts.class<"S">, (!ts.tensor) -> !ts.tensor
    %v = ts.prim.GetAttr %self["v"] : !ts.class<"M"> -> !ts.tensor
    %one = ts.prim.Constant[1] : !ts.int
    %z = ts.aten.add.Tensor %y, %v, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
    return %z : !ts.tensor
  }
}

// -----

// Attributes without a value, and values that do not fit the declared
// type, stay. Functions that are not entry points (private) are left alone.
// CHECK-LABEL: func.func @no_value(
// CHECK:         ts.prim.GetAttr %{{.+}}["unknown"]
// CHECK:         ts.prim.GetAttr %{{.+}}["w"]
// CHECK-LABEL: func.func private @helper(
// CHECK:         ts.prim.GetAttr %{{.+}}["w"]
module attributes {ts.state_dict = {"w" = dense<1.0> : tensor<2xf64>}} {
  func.func @no_value(%self: !ts.class<"M">) -> (!ts.tensor, !ts.tensor<f32>) {
    // expected-remark @+1 {{attribute 'unknown' not frozen: 'unknown' has no value in the module's ts.state_dict}}
    %u = ts.prim.GetAttr %self["unknown"] : !ts.class<"M"> -> !ts.tensor
    // expected-remark @+1 {{attribute 'w' not frozen: its value does not fit its type}}
    %w = ts.prim.GetAttr %self["w"] : !ts.class<"M"> -> !ts.tensor<f32>
    %n = ts.aten.neg %w : (!ts.tensor<f32>) -> !ts.tensor<f32>
    return %u, %n : !ts.tensor, !ts.tensor<f32>
  }
  func.func private @helper(%self: !ts.class<"M">) -> !ts.tensor {
    %w = ts.prim.GetAttr %self["w"] : !ts.class<"M"> -> !ts.tensor
    return %w : !ts.tensor
  }
}

// -----

// Without a state dict, only `training` is known.
// CHECK-LABEL: func.func @no_state(
// CHECK:         ts.prim.Constant[false]
// CHECK:         ts.prim.GetAttr %{{.+}}["w"]
func.func @no_state(%self: !ts.class<"M">) -> (!ts.tensor, !ts.bool) {
  // expected-remark @+1 {{attribute 'w' not frozen: 'w' has no value in the module's ts.state_dict}}
  %w = ts.prim.GetAttr %self["w"] : !ts.class<"M"> -> !ts.tensor
  %t = ts.prim.GetAttr %self["training"] : !ts.class<"M"> -> !ts.bool
  return %w, %t : !ts.tensor, !ts.bool
}

// -----

// A write in a branch that folding removes (eval mode: `training` is false)
// does not make the attribute the module's state: it is frozen once the
// branch is gone.
// CHECK-NOT:     ts.module_state
// CHECK-LABEL: func.func @eval_branch(
// CHECK-NOT:     ts.module_state
// CHECK:         ts.prim.Constant[dense<0> : tensor<si64>]
// CHECK-NOT:     ts.module_state
// CHECK:         return
module attributes {ts.state_dict = {"num_batches_tracked" = dense<0> : tensor<si64>}} {
  func.func @eval_branch(%self: !ts.class<"BN">) -> !ts.tensor {
    %one = ts.prim.Constant[1] : !ts.int
    %training = ts.prim.GetAttr %self["training"] : !ts.class<"BN"> -> !ts.bool
    %n = ts.prim.GetAttr %self["num_batches_tracked"] : !ts.class<"BN"> -> !ts.tensor
    ts.prim.If %training {
      %n1 = ts.aten.add_.Scalar %n, %one, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
      ts.prim.Yield
    } else {
      ts.prim.Yield
    }
    %y = ts.aten.mul.Tensor %n, %n : (!ts.tensor, !ts.tensor) -> !ts.tensor
    return %y : !ts.tensor
  }
}
