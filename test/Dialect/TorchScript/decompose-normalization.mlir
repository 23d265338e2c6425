// RUN: tsmlir-opt %s -split-input-file --ts-decompose | FileCheck %s

// batch_norm in training mode: the batch's mean and biased variance over
// every dim but 1 normalise the input; the running statistics become
// lerp(running, stat, momentum), the variance unbiased by 24 / 23, written
// back by copy_.
// CHECK-LABEL: func.func @batch_norm_training(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor<f32, [2, 3, 4, 3]>, %[[W:.+]]: !ts.tensor<f32, [3]>, %[[B:.+]]: !ts.tensor<f32, [3]>, %[[RM:.+]]: !ts.tensor<f32, [3]>, %[[RV:.+]]: !ts.tensor<f32, [3]>)
// CHECK-DAG:     %[[MOMENTUM:.+]] = ts.prim.Constant[1.000000e-01] : !ts.float
// CHECK-DAG:     %[[UNBIAS:.+]] = ts.prim.Constant[1.0434782608695652] : !ts.float
// CHECK:         %[[MEAN:.+]] = ts.aten.mean.dim %[[X]]
// CHECK:         %[[VAR:.+]] = ts.aten.var.correction %[[X]]
// CHECK:         %[[INVSTD:.+]] = ts.aten.rsqrt
// CHECK:         ts.aten.sub.Tensor %[[X]]
// CHECK:         %[[NEWMEAN:.+]] = ts.aten.lerp.Scalar %[[RM]], %[[MEAN]], %[[MOMENTUM]]
// CHECK:         ts.aten.copy_ %[[RM]], %[[NEWMEAN]]
// CHECK:         %[[UNBIASED:.+]] = ts.aten.mul.Scalar %[[VAR]], %[[UNBIAS]]
// CHECK:         %[[NEWVAR:.+]] = ts.aten.lerp.Scalar %[[RV]], %[[UNBIASED]], %[[MOMENTUM]]
// CHECK:         ts.aten.copy_ %[[RV]], %[[NEWVAR]]
// CHECK-NOT:     ts.aten.batch_norm
func.func @batch_norm_training(%x: !ts.tensor<f32, [2, 3, 4, 3]>, %w: !ts.tensor<f32, [3]>, %b: !ts.tensor<f32, [3]>, %rm: !ts.tensor<f32, [3]>, %rv: !ts.tensor<f32, [3]>) -> !ts.tensor {
  %true = ts.prim.Constant[true] : !ts.bool
  %momentum = ts.prim.Constant[0.1] : !ts.float
  %eps = ts.prim.Constant[1.0e-05] : !ts.float
  %0 = ts.aten.batch_norm %x, %w, %b, %rm, %rv, %true, %momentum, %eps, %true : (!ts.tensor<f32, [2, 3, 4, 3]>, !ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>, !ts.bool, !ts.float, !ts.float, !ts.bool) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// native_batch_norm in training mode, without running statistics: no
// copy_, and the saved mean and 1 / sqrt(var + eps) are results.
// CHECK-LABEL: func.func @native_batch_norm_training(
// CHECK:         %[[MEAN:.+]] = ts.aten.mean.dim
// CHECK:         %[[INVSTD:.+]] = ts.aten.rsqrt
// CHECK-NOT:     ts.aten.copy_
// CHECK:         return %{{.+}}, %[[MEAN]], %[[INVSTD]]
func.func @native_batch_norm_training(%x: !ts.tensor<f32, [4, 2]>) -> (!ts.tensor, !ts.tensor, !ts.tensor) {
  %true = ts.prim.Constant[true] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %momentum = ts.prim.Constant[0.1] : !ts.float
  %eps = ts.prim.Constant[1.0e-05] : !ts.float
  %0:3 = ts.aten.native_batch_norm %x, %none, %none, %none, %none, %true, %momentum, %eps : (!ts.tensor<f32, [4, 2]>, !ts.none, !ts.none, !ts.none, !ts.none, !ts.bool, !ts.float, !ts.float) -> (!ts.tensor, !ts.tensor, !ts.tensor)
  return %0#0, %0#1, %0#2 : !ts.tensor, !ts.tensor, !ts.tensor
}

// -----

// Statistics of an empty batch are not defined: batch_norm stays.
// CHECK-LABEL: func.func @batch_norm_training_empty(
// CHECK:         ts.aten.batch_norm
func.func @batch_norm_training_empty(%x: !ts.tensor<f32, [0, 3]>) -> !ts.tensor {
  %true = ts.prim.Constant[true] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %momentum = ts.prim.Constant[0.1] : !ts.float
  %eps = ts.prim.Constant[1.0e-05] : !ts.float
  %0 = ts.aten.batch_norm %x, %none, %none, %none, %none, %true, %momentum, %eps, %true : (!ts.tensor<f32, [0, 3]>, !ts.none, !ts.none, !ts.none, !ts.none, !ts.bool, !ts.float, !ts.float, !ts.bool) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// instance_norm with the input's statistics and running ones: each
// instance's mean over the spatial dims (2) averaged over the batch (0)
// updates running_mean, the unbiased variance (times 5 / 4) running_var;
// the output is a group_norm of one group per channel.
// CHECK-LABEL: func.func @instance_norm_running(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor<f32, [2, 3, 5]>, %[[RM:.+]]: !ts.tensor<f32, [3]>, %[[RV:.+]]: !ts.tensor<f32, [3]>)
// CHECK-DAG:     %[[UNBIAS:.+]] = ts.prim.Constant[1.250000e+00] : !ts.float
// CHECK:         %[[M:.+]] = ts.aten.mean.dim %[[X]]
// CHECK:         %[[MEAN:.+]] = ts.aten.mean.dim %[[M]]
// CHECK:         %[[V:.+]] = ts.aten.var.correction %[[X]]
// CHECK:         %[[U:.+]] = ts.aten.mul.Scalar %[[V]], %[[UNBIAS]]
// CHECK:         %[[VAR:.+]] = ts.aten.mean.dim %[[U]]
// CHECK:         %[[NEWMEAN:.+]] = ts.aten.lerp.Scalar %[[RM]], %[[MEAN]]
// CHECK:         ts.aten.copy_ %[[RM]], %[[NEWMEAN]]
// CHECK:         %[[NEWVAR:.+]] = ts.aten.lerp.Scalar %[[RV]], %[[VAR]]
// CHECK:         ts.aten.copy_ %[[RV]], %[[NEWVAR]]
// CHECK:         ts.aten.group_norm %[[X]]
func.func @instance_norm_running(%x: !ts.tensor<f32, [2, 3, 5]>, %rm: !ts.tensor<f32, [3]>, %rv: !ts.tensor<f32, [3]>) -> !ts.tensor {
  %true = ts.prim.Constant[true] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %momentum = ts.prim.Constant[0.1] : !ts.float
  %eps = ts.prim.Constant[1.0e-05] : !ts.float
  %0 = ts.aten.instance_norm %x, %none, %none, %rm, %rv, %true, %momentum, %eps, %true : (!ts.tensor<f32, [2, 3, 5]>, !ts.none, !ts.none, !ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>, !ts.bool, !ts.float, !ts.float, !ts.bool) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// gradient with even spacing 2 along both dims of a [3, 4] tensor: central
// differences / 2 / 2 inside, one-sided at the ends, concatenated.
// CHECK-LABEL: func.func @gradient_even(
// CHECK:         %[[CENTER:.+]] = ts.aten.div.Scalar
// CHECK:         ts.aten.cat
// CHECK:         ts.aten.cat
// CHECK:         %[[LIST:.+]] = ts.prim.ListConstruct
// CHECK-NOT:     ts.aten.gradient
// CHECK:         return %[[LIST]]
func.func @gradient_even(%x: !ts.tensor<f32, [3, 4]>) -> !ts.list<!ts.tensor> {
  %two = ts.prim.Constant[2.0] : !ts.float
  %none = ts.prim.Constant : !ts.none
  %one = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.gradient.scalarint %x, %two, %none, %one : (!ts.tensor<f32, [3, 4]>, !ts.float, !ts.none, !ts.int) -> !ts.list<!ts.tensor>
  return %0 : !ts.list<!ts.tensor>
}

// -----

// gradient at coordinates, edge_order 2: the weights come from the steps
// c[1:] - c[:-1]; the ends from the first and last two steps.
// CHECK-LABEL: func.func @gradient_coordinates(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor<f32, [5]>, %[[C:.+]]: !ts.tensor<f32, [5]>)
// CHECK:         ts.aten.slice.Tensor %[[C]]
// CHECK:         ts.aten.select.int
// CHECK:         ts.aten.cat
// CHECK-NOT:     ts.aten.gradient
func.func @gradient_coordinates(%x: !ts.tensor<f32, [5]>, %c: !ts.tensor<f32, [5]>) -> !ts.list<!ts.tensor> {
  %zero = ts.prim.Constant[0] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %dims = ts.prim.ListConstruct %zero : (!ts.int) -> !ts.list<!ts.int>
  %coords = ts.prim.ListConstruct %c : (!ts.tensor<f32, [5]>) -> !ts.list<!ts.tensor>
  %0 = ts.aten.gradient.tensorarray %x, %coords, %dims, %two : (!ts.tensor<f32, [5]>, !ts.list<!ts.tensor>, !ts.list<!ts.int>, !ts.int) -> !ts.list<!ts.tensor>
  return %0 : !ts.list<!ts.tensor>
}

// -----

// A dim shorter than edge_order + 1 has no gradient: it stays.
// CHECK-LABEL: func.func @gradient_too_short(
// CHECK:         ts.aten.gradient.scalarint
func.func @gradient_too_short(%x: !ts.tensor<f32, [2]>) -> !ts.list<!ts.tensor> {
  %none = ts.prim.Constant : !ts.none
  %two = ts.prim.Constant[2] : !ts.int
  %0 = ts.aten.gradient.scalarint %x, %none, %none, %two : (!ts.tensor<f32, [2]>, !ts.none, !ts.none, !ts.int) -> !ts.list<!ts.tensor>
  return %0 : !ts.list<!ts.tensor>
}

// -----

// clamp_min.Tensor and clamp_max.Tensor: maximum and minimum.
// CHECK-LABEL: func.func @clamp_tensor_bounds(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor<f32, [3]>, %[[LO:.+]]: !ts.tensor<f32, []>, %[[HI:.+]]: !ts.tensor<f32, [3]>)
// CHECK:         %[[A:.+]] = ts.aten.maximum %[[X]], %[[LO]]
// CHECK:         %[[B:.+]] = ts.aten.minimum %[[A]], %[[HI]]
func.func @clamp_tensor_bounds(%x: !ts.tensor<f32, [3]>, %lo: !ts.tensor<f32, []>, %hi: !ts.tensor<f32, [3]>) -> !ts.tensor {
  %0 = ts.aten.clamp_min.Tensor %x, %lo : (!ts.tensor<f32, [3]>, !ts.tensor<f32, []>) -> !ts.tensor
  %1 = ts.aten.clamp_max.Tensor %0, %hi : (!ts.tensor, !ts.tensor<f32, [3]>) -> !ts.tensor
  return %1 : !ts.tensor
}
