// RUN: tsmlir-opt %s --convert-ts-to-linalg -split-input-file -verify-diagnostics

// An op with no lowering is reported by its TorchScript name.
func.func @unsupported(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %one = ts.prim.Constant[1] : !ts.int
  // expected-error @+1 {{'aten::cumsum' has no lowering to linalg}}
  %0 = ts.aten.cumsum %x, %one, %one : (!ts.tensor<f32, [4]>, !ts.int, !ts.int) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// -----

// A tensor of unknown shape asks for specialisation.
// expected-error @+1 {{argument of type '!ts.tensor<f32>' has an unknown dtype or shape}}
func.func @unknown_shape(%x: !ts.tensor<f32>) -> !ts.tensor<f32> {
  // expected-error @+1 {{'aten::tanh' has a tensor of unknown dtype or shape ('!ts.tensor<f32>'): specialise the graph for its inputs first}}
  %0 = ts.aten.tanh %x : (!ts.tensor<f32>) -> !ts.tensor<f32>
  return %0 : !ts.tensor<f32>
}
