// RUN: tsmlir-opt %s -split-input-file --ts-infer-shapes --ts-report-unknown-shapes -verify-diagnostics
// RUN: not tsmlir-opt %s -split-input-file --ts-infer-shapes --ts-report-unknown-shapes=fail=true 2>&1 | FileCheck %s --check-prefix=FAIL

// Ops without a shape rule are reported once per name, at their first
// occurrence; ops with a rule whose inputs are unknown are summarised in one
// remark, not reported as unsupported.

// expected-remark @below {{2 tensor results of ops with shape rules are not fully known because their inputs are not: ts.aten.relu (1), ts.aten.add.Tensor (1)}}
module {
  func.func @forward(%self: !ts.module<"__torch__.M">, %x: !ts.tensor<f32, [4]>, %y: !ts.tensor) -> !ts.tensor {
    %one = ts.prim.Constant[1] : !ts.int
    // expected-warning @below {{no shape rule for 'ts.prim.GetAttr' (2 occurrences)}}
    %w = ts.prim.GetAttr %self["weight"] : !ts.module<"__torch__.M"> -> !ts.tensor
    %b = ts.prim.GetAttr %self["bias"] : !ts.module<"__torch__.M"> -> !ts.tensor
    // expected-warning @below {{no shape rule for 'aten::erfinv' (1 occurrence)}}
    %e = ts.operator "aten::erfinv"(%x) : (!ts.tensor<f32, [4]>) -> !ts.tensor
    // Fully known: nothing to report.
    %s = ts.aten.sigmoid %x : (!ts.tensor<f32, [4]>) -> !ts.tensor
    // Rules exist, inputs are unknown.
    %r = ts.aten.relu %y : (!ts.tensor) -> !ts.tensor
    %a = ts.aten.add.Tensor %r, %s, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
    return %a : !ts.tensor
  }
}

// FAIL: error: no shape rule for 'ts.prim.GetAttr' (2 occurrences)
// FAIL: error: no shape rule for 'aten::erfinv' (1 occurrence)

// -----

// A result the IR already states fully needs no rule.
func.func @annotated(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %e = ts.operator "aten::erfinv"(%x) : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %e : !ts.tensor<f32, [4]>
}

// -----

// Calls have no rule: what a callee returns is unknown until it is inlined.
func.func @call(%x: !ts.tensor<f32, [4]>) -> !ts.tensor {
  %f = ts.prim.Constant {name = "helper"} : !ts.function
  // expected-warning @below {{no shape rule for 'ts.prim.CallFunction' (1 occurrence)}}
  %r = ts.prim.CallFunction %f(%x) : (!ts.tensor<f32, [4]>) -> !ts.tensor
  return %r : !ts.tensor
}
