// RUN: tsmlir-opt %s -split-input-file | tsmlir-opt -split-input-file | FileCheck %s

// A module's state round-trips: the state, a read at the entry, a write
// before the return.
// CHECK:       ts.module_state @bn.running_mean : !ts.tensor<f32, [3]> = dense<0.000000e+00> : tensor<3xf32>
// CHECK-LABEL: func.func @forward(
// CHECK:         %[[MEAN:.+]] = ts.module_state.read @bn.running_mean : !ts.tensor<f32, [3]>
// CHECK:         %[[NEW:.+]] = ts.aten.mul.Scalar %[[MEAN]]
// CHECK:         ts.module_state.write @bn.running_mean = %[[NEW]] : !ts.tensor<f32, [3]>
ts.module_state @bn.running_mean : !ts.tensor<f32, [3]> = dense<0.0> : tensor<3xf32>
func.func @forward(%x: !ts.float) -> !ts.tensor<f32, [3]> {
  %mean = ts.module_state.read @bn.running_mean : !ts.tensor<f32, [3]>
  %new = ts.aten.mul.Scalar %mean, %x : (!ts.tensor<f32, [3]>, !ts.float) -> !ts.tensor<f32, [3]>
  ts.module_state.write @bn.running_mean = %new : !ts.tensor<f32, [3]>
  return %new : !ts.tensor<f32, [3]>
}
