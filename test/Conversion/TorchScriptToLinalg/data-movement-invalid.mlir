// RUN: tsmlir-opt %s --convert-ts-to-linalg -split-input-file -verify-diagnostics

// Forms the lowering refuses fail the pass at the op; they do not crash it.

// A slice's step must be a constant.
func.func @slice_runtime_step(%x: !ts.tensor<f32, [10]>, %step: !ts.int) -> !ts.tensor<f32, [5]> {
  %int0 = ts.prim.Constant[0] : !ts.int
  %none = ts.prim.Constant : !ts.none
  // expected-error @+1 {{'aten::slice.Tensor' cannot be compiled with these arguments}}
  %0 = ts.aten.slice.Tensor %x, %int0, %none, %none, %step : (!ts.tensor<f32, [10]>, !ts.int, !ts.none, !ts.none, !ts.int) -> !ts.tensor<f32, [5]>
  return %0 : !ts.tensor<f32, [5]>
}

// -----

// An index out of range raises in PyTorch.
func.func @select_out_of_range(%x: !ts.tensor<f32, [4, 3]>) -> !ts.tensor<f32, [3]> {
  %int0 = ts.prim.Constant[0] : !ts.int
  %int4 = ts.prim.Constant[4] : !ts.int
  // expected-error @+1 {{'aten::select.int' cannot be compiled with these arguments}}
  %0 = ts.aten.select.int %x, %int0, %int4 : (!ts.tensor<f32, [4, 3]>, !ts.int, !ts.int) -> !ts.tensor<f32, [3]>
  return %0 : !ts.tensor<f32, [3]>
}

// -----

// The list of a chunk must be unpacked, indexed with constants or measured.
func.func @chunk_indexed_at_run_time(%x: !ts.tensor<f32, [4, 3]>, %i: !ts.int) -> !ts.tensor<f32, [2, 3]> {
  %int0 = ts.prim.Constant[0] : !ts.int
  %int2 = ts.prim.Constant[2] : !ts.int
  // expected-error @+1 {{'aten::chunk' cannot be compiled with these arguments}}
  %l = ts.aten.chunk %x, %int2, %int0 : (!ts.tensor<f32, [4, 3]>, !ts.int, !ts.int) -> !ts.list<!ts.tensor>
  %0 = ts.aten.__getitem__.t %l, %i : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor<f32, [2, 3]>
  return %0 : !ts.tensor<f32, [2, 3]>
}

// -----

// Boolean masks are not indices.
func.func @index_with_mask(%x: !ts.tensor<f32, [4]>, %m: !ts.tensor<i1, [4]>) -> !ts.tensor<f32, [4]> {
  %indices = ts.prim.ListConstruct %m : (!ts.tensor<i1, [4]>) -> !ts.list<!ts.optional<!ts.tensor>>
  // expected-error @+1 {{'aten::index.Tensor' cannot be compiled with these arguments}}
  %0 = ts.aten.index.Tensor %x, %indices : (!ts.tensor<f32, [4]>, !ts.list<!ts.optional<!ts.tensor>>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// -----

// A tensor sized at run time is returned, not computed with.
func.func @reads_run_time_size(%x: !ts.tensor<f32, [5]>, %n: !ts.int) -> !ts.tensor<f32, []> {
  %int0 = ts.prim.Constant[0] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %none = ts.prim.Constant : !ts.none
  // expected-note @+1 {{its size is computed here, by 'aten::slice.Tensor'}}
  %0 = ts.aten.slice.Tensor %x, %int0, %int0, %n, %int1 : (!ts.tensor<f32, [5]>, !ts.int, !ts.int, !ts.int, !ts.int) -> !ts.tensor<f32, [?]>
  // expected-error @+1 {{'aten::sum' reads a tensor whose size depends on the data ('!ts.tensor<f32, [?]>', at most [5]): a compiled graph returns such a tensor, but computes nothing more from it}}
  %1 = ts.aten.sum %0, %none : (!ts.tensor<f32, [?]>, !ts.none) -> !ts.tensor<f32, []>
  return %1 : !ts.tensor<f32, []>
}
