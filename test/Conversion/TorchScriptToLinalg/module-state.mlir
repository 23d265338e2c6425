// RUN: tsmlir-opt %s --convert-ts-to-linalg | FileCheck %s

// A module's state becomes a mutable ml_program.global holding its value
// when saved (si64 data as i64); a read loads it, a write stores a copy of
// the value (global_store's bufferization counts its value as written, so a
// value with other uses, here the results, would be stored from an unfilled
// buffer).
// CHECK-DAG:   ml_program.global private mutable @bn.running_mean(dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>) : tensor<3xf32>
// CHECK-DAG:   ml_program.global private mutable @bn.num_batches_tracked(dense<5> : tensor<i64>) : tensor<i64>
// CHECK-LABEL: func.func @forward(
// CHECK-SAME:      %[[X:.+]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<i64>)
// CHECK-DAG:     %[[MEAN:.+]] = ml_program.global_load @bn.running_mean : tensor<3xf32>
// CHECK-DAG:     %[[COUNT:.+]] = ml_program.global_load @bn.num_batches_tracked : tensor<i64>
// CHECK:         %[[NEW:.+]] = linalg.generic {{.*}} ins(%[[MEAN]], %[[X]] :
// CHECK:         %[[NEXT:.+]] = linalg.generic {{.*}} ins(%[[COUNT]] :
// CHECK:         %[[NEW_COPY:.+]] = bufferization.alloc_tensor() copy(%[[NEW]]) : tensor<3xf32>
// CHECK:         ml_program.global_store @bn.running_mean = %[[NEW_COPY]] : tensor<3xf32>
// CHECK:         %[[NEXT_COPY:.+]] = bufferization.alloc_tensor() copy(%[[NEXT]]) : tensor<i64>
// CHECK:         ml_program.global_store @bn.num_batches_tracked = %[[NEXT_COPY]] : tensor<i64>
// CHECK:         return %[[NEW]], %[[NEXT]]
// CHECK-NOT:     ts.
ts.module_state @bn.running_mean : !ts.tensor = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
ts.module_state @bn.num_batches_tracked : !ts.tensor<si64, []> = dense<5> : tensor<si64>
func.func @forward(%x: !ts.tensor<f32, [3]>) -> (!ts.tensor<f32, [3]>, !ts.tensor<si64, []>) {
  %mean = ts.module_state.read @bn.running_mean : !ts.tensor<f32, [3]>
  %count = ts.module_state.read @bn.num_batches_tracked : !ts.tensor<si64, []>
  %one = ts.prim.Constant[1] : !ts.int
  %new = ts.aten.add.Tensor %mean, %x, %one : (!ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>, !ts.int) -> !ts.tensor<f32, [3]>
  %next = ts.aten.add.Scalar %count, %one, %one : (!ts.tensor<si64, []>, !ts.int, !ts.int) -> !ts.tensor<si64, []>
  ts.module_state.write @bn.running_mean = %new : !ts.tensor<f32, [3]>
  ts.module_state.write @bn.num_batches_tracked = %next : !ts.tensor<si64, []>
  return %new, %next : !ts.tensor<f32, [3]>, !ts.tensor<si64, []>
}
