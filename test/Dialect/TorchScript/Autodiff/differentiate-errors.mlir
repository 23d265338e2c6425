// RUN: tsmlir-opt %s -split-input-file --ts-differentiate="func=f joint=true" -verify-diagnostics

// An op on the gradient's path without a formula is named.
func.func @f(%x: !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]> {
  %int0 = ts.prim.Constant[0] : !ts.int
  // expected-error @+1 {{no derivative formula for 'aten::logcumsumexp'}}
  %0 = ts.aten.logcumsumexp %x, %int0 : (!ts.tensor<f32, [3]>, !ts.int) -> !ts.tensor<f32, [3]>
  return %0 : !ts.tensor<f32, [3]>
}

// -----

// Off the gradient's path it does not matter: the trace of an integer
// tensor (no formula).
func.func @f(%x: !ts.tensor<f32, [3]>, %n: !ts.tensor<si64, [3, 3]>) -> (!ts.tensor<f32, [3]>, !ts.tensor<si64, []>) {
  %0 = ts.aten.trace %n : (!ts.tensor<si64, [3, 3]>) -> !ts.tensor<si64, []>
  %1 = ts.aten.exp %x : (!ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]>
  return %1, %0 : !ts.tensor<f32, [3]>, !ts.tensor<si64, []>
}

// -----

// Sizes must be known.
func.func @f(%x: !ts.tensor<f32>) -> !ts.tensor<f32> {
  // expected-error @+1 {{cannot differentiate 'aten::exp': its tensors' dtypes and sizes are not all known}}
  %0 = ts.aten.exp %x : (!ts.tensor<f32>) -> !ts.tensor<f32>
  return %0 : !ts.tensor<f32>
}

// -----

// A loop on the gradient's path is refused by name.
func.func @f(%x: !ts.tensor<f32, [3]>, %n: !ts.int) -> !ts.tensor<f32, [3]> {
  %true = ts.prim.Constant[true] : !ts.bool
  // expected-error @+1 {{cannot differentiate 'prim::Loop': a loop on the gradient's path is not supported}}
  %0 = ts.prim.Loop %n, %true init(%x) : (!ts.int, !ts.bool, !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]> {
  ^bb0(%i: !ts.int, %acc: !ts.tensor<f32, [3]>):
    %1 = ts.aten.sin %acc : (!ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]>
    ts.prim.Yield %true, %1 : !ts.bool, !ts.tensor<f32, [3]>
  }
  return %0 : !ts.tensor<f32, [3]>
}

// -----

// expected-error @+1 {{no function named 'f'}}
module {
  func.func @g(%x: !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]> {
    return %x : !ts.tensor<f32, [3]>
  }
}
