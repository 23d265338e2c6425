// RUN: tsmlir-opt %s --convert-ts-to-linalg -split-input-file -verify-diagnostics

// An op with no lowering is reported by its TorchScript name.
func.func @unsupported(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, []> {
  %one = ts.prim.Constant[1] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  // expected-error @+1 {{'aten::mode' has no lowering to linalg}}
  %0:2 = ts.aten.mode %x, %one, %false : (!ts.tensor<f32, [4]>, !ts.int, !ts.bool) -> (!ts.tensor<f32, []>, !ts.tensor<si64, []>)
  return %0#0 : !ts.tensor<f32, []>
}

// -----

// A tensor of unknown shape asks for specialisation.
// expected-error @+1 {{argument of type '!ts.tensor<f32>' has an unknown dtype or shape}}
func.func @unknown_shape(%x: !ts.tensor<f32>) -> !ts.tensor<f32> {
  // expected-error @+1 {{'aten::tanh' has a tensor of unknown dtype or shape ('!ts.tensor<f32>'): specialise the graph for its inputs first}}
  %0 = ts.aten.tanh %x : (!ts.tensor<f32>) -> !ts.tensor<f32>
  return %0 : !ts.tensor<f32>
}

// -----

// An op whose patterns all refuse its arguments is named with them, in
// TorchScript's terms, not the conversion driver's.
func.func @refused(%x: !ts.tensor<f32, [1, 2, 5, 5]>, %w: !ts.tensor<f32, [2, 3, 3, 3]>) -> !ts.tensor<f32, [1, 3, 7, 7]> {
  %none = ts.prim.Constant : !ts.none
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %true = ts.prim.Constant[true] : !ts.bool
  %false = ts.prim.Constant[false] : !ts.bool
  %l1 = ts.prim.ListConstruct %one, %one : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %l0 = ts.prim.ListConstruct %zero, %zero : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  // expected-error @+1 {{'aten::_convolution' cannot be compiled with these arguments (!ts.tensor<f32, [1, 2, 5, 5]>, !ts.tensor<f32, [2, 3, 3, 3]>, None, [1, 1], [0, 0], [1, 1], true, [0, 0], 1, false, false, true, true): no lowering handles this form of it}}
  %0 = ts.aten._convolution %x, %w, %none, %l1, %l0, %l1, %true, %l0, %one, %false, %false, %true, %true : (!ts.tensor<f32, [1, 2, 5, 5]>, !ts.tensor<f32, [2, 3, 3, 3]>, !ts.none, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool, !ts.list<!ts.int>, !ts.int, !ts.bool, !ts.bool, !ts.bool, !ts.bool) -> !ts.tensor<f32, [1, 3, 7, 7]>
  return %0 : !ts.tensor<f32, [1, 3, 7, 7]>
}
