// RUN: tsmlir-opt %s --convert-ts-to-linalg=fuse-groups=false -split-input-file -verify-diagnostics | FileCheck %s

// The matmul family, convolutions, pooling, batch_norm and embedding: linalg
// named ops where one fits, accumulating into zero- or bias-filled outputs.

// mm: linalg.matmul into a zero-filled [M, N].
// CHECK-LABEL: func.func @mm(
// CHECK-SAME:      %[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8x3xf32>)
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<4x3xf32>)
// CHECK:         %[[MM:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x3xf32>) outs(%[[INIT]] : tensor<4x3xf32>)
// CHECK:         return %[[MM]]
func.func @mm(%a: !ts.tensor<f32, [4, 8]>, %b: !ts.tensor<f32, [8, 3]>) -> !ts.tensor<f32, [4, 3]> {
  %0 = ts.aten.mm %a, %b : (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [8, 3]>) -> !ts.tensor<f32, [4, 3]>
  return %0 : !ts.tensor<f32, [4, 3]>
}

// -----

// f16 products accumulate in f32 and are truncated at the end.
// CHECK-LABEL: func.func @mm_half(
// CHECK:         %[[A:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<4x8xf32>)
// CHECK:           arith.extf %{{.+}} : f16 to f32
// CHECK:         %[[B:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<8x3xf32>)
// CHECK:         %[[MM:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x3xf32>) outs(%{{.+}} : tensor<4x3xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[MM]] : tensor<4x3xf32>) outs(%{{.+}} : tensor<4x3xf16>)
// CHECK:           arith.truncf %{{.+}} : f32 to f16
func.func @mm_half(%a: !ts.tensor<f16, [4, 8]>, %b: !ts.tensor<f16, [8, 3]>) -> !ts.tensor<f16, [4, 3]> {
  %0 = ts.aten.mm %a, %b : (!ts.tensor<f16, [4, 8]>, !ts.tensor<f16, [8, 3]>) -> !ts.tensor<f16, [4, 3]>
  return %0 : !ts.tensor<f16, [4, 3]>
}

// -----

// CHECK-LABEL: func.func @bmm(
// CHECK:         linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<2x4x8xf32>, tensor<2x8x3xf32>) outs(%{{.+}} : tensor<2x4x3xf32>)
func.func @bmm(%a: !ts.tensor<f32, [2, 4, 8]>, %b: !ts.tensor<f32, [2, 8, 3]>) -> !ts.tensor<f32, [2, 4, 3]> {
  %0 = ts.aten.bmm %a, %b : (!ts.tensor<f32, [2, 4, 8]>, !ts.tensor<f32, [2, 8, 3]>) -> !ts.tensor<f32, [2, 4, 3]>
  return %0 : !ts.tensor<f32, [2, 4, 3]>
}

// -----

// CHECK-LABEL: func.func @matmul_dot(
// CHECK:         %[[INIT:.+]] = linalg.fill {{.*}} -> tensor<f32>
// CHECK:         linalg.dot ins(%{{.+}}, %{{.+}} : tensor<8xf32>, tensor<8xf32>) outs(%[[INIT]] : tensor<f32>)
func.func @matmul_dot(%a: !ts.tensor<f32, [8]>, %b: !ts.tensor<f32, [8]>) -> !ts.tensor<f32, []> {
  %0 = ts.aten.matmul %a, %b : (!ts.tensor<f32, [8]>, !ts.tensor<f32, [8]>) -> !ts.tensor<f32, []>
  return %0 : !ts.tensor<f32, []>
}

// -----

// CHECK-LABEL: func.func @matmul_vecmat(
// CHECK:         linalg.vecmat ins(%{{.+}}, %{{.+}} : tensor<8xf32>, tensor<8x3xf32>) outs(%{{.+}} : tensor<3xf32>)
func.func @matmul_vecmat(%a: !ts.tensor<f32, [8]>, %b: !ts.tensor<f32, [8, 3]>) -> !ts.tensor<f32, [3]> {
  %0 = ts.aten.matmul %a, %b : (!ts.tensor<f32, [8]>, !ts.tensor<f32, [8, 3]>) -> !ts.tensor<f32, [3]>
  return %0 : !ts.tensor<f32, [3]>
}

// -----

// CHECK-LABEL: func.func @matmul_matvec(
// CHECK:         linalg.matvec ins(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<8xf32>) outs(%{{.+}} : tensor<4xf32>)
func.func @matmul_matvec(%a: !ts.tensor<f32, [4, 8]>, %b: !ts.tensor<f32, [8]>) -> !ts.tensor<f32, [4]> {
  %0 = ts.aten.matmul %a, %b : (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [8]>) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// -----

// N-D @ 2-D: the batch dims fold into the rows of one linalg.matmul.
// CHECK-LABEL: func.func @matmul_batch_2d(
// CHECK:         %[[ROWS:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1, 2], [3]] : tensor<2x5x4x8xf32> into tensor<40x8xf32>
// CHECK:         %[[MM:.+]] = linalg.matmul ins(%[[ROWS]], %{{.+}} : tensor<40x8xf32>, tensor<8x3xf32>) outs(%{{.+}} : tensor<40x3xf32>)
// CHECK:         %[[OUT:.+]] = tensor.expand_shape %[[MM]] {{\[\[}}0, 1, 2], [3]] output_shape [2, 5, 4, 3]
// CHECK:         return %[[OUT]]
func.func @matmul_batch_2d(%a: !ts.tensor<f32, [2, 5, 4, 8]>, %b: !ts.tensor<f32, [8, 3]>) -> !ts.tensor<f32, [2, 5, 4, 3]> {
  %0 = ts.aten.matmul %a, %b : (!ts.tensor<f32, [2, 5, 4, 8]>, !ts.tensor<f32, [8, 3]>) -> !ts.tensor<f32, [2, 5, 4, 3]>
  return %0 : !ts.tensor<f32, [2, 5, 4, 3]>
}

// -----

// The same batch dims on both sides: one linalg.batch_matmul over them.
// CHECK-LABEL: func.func @matmul_batched(
// CHECK:         %[[A:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1], [2], [3]] : tensor<2x5x4x8xf32> into tensor<10x4x8xf32>
// CHECK:         %[[B:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1], [2], [3]] : tensor<2x5x8x3xf32> into tensor<10x8x3xf32>
// CHECK:         %[[BMM:.+]] = linalg.batch_matmul ins(%[[A]], %[[B]] : tensor<10x4x8xf32>, tensor<10x8x3xf32>) outs(%{{.+}} : tensor<10x4x3xf32>)
// CHECK:         tensor.expand_shape %[[BMM]] {{\[\[}}0, 1], [2], [3]] output_shape [2, 5, 4, 3]
func.func @matmul_batched(%a: !ts.tensor<f32, [2, 5, 4, 8]>, %b: !ts.tensor<f32, [2, 5, 8, 3]>) -> !ts.tensor<f32, [2, 5, 4, 3]> {
  %0 = ts.aten.matmul %a, %b : (!ts.tensor<f32, [2, 5, 4, 8]>, !ts.tensor<f32, [2, 5, 8, 3]>) -> !ts.tensor<f32, [2, 5, 4, 3]>
  return %0 : !ts.tensor<f32, [2, 5, 4, 3]>
}

// -----

// Broadcast batch dims: a contraction generic reads the size-1 dim at 0.
// CHECK-DAG:   #[[LHS:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d2, d4)>
// CHECK-DAG:   #[[RHS:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>
// CHECK-DAG:   #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @matmul_broadcast(
// CHECK:         %[[INIT:.+]] = linalg.fill {{.*}} -> tensor<2x5x4x3xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:        outs(%[[INIT]] : tensor<2x5x4x3xf32>)
// CHECK:         ^bb0(%[[L:.+]]: f32, %[[R:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK:           %[[P:.+]] = arith.mulf %[[L]], %[[R]] : f32
// CHECK:           arith.addf %[[ACC]], %[[P]] : f32
func.func @matmul_broadcast(%a: !ts.tensor<f32, [2, 1, 4, 8]>, %b: !ts.tensor<f32, [5, 8, 3]>) -> !ts.tensor<f32, [2, 5, 4, 3]> {
  %0 = ts.aten.matmul %a, %b : (!ts.tensor<f32, [2, 1, 4, 8]>, !ts.tensor<f32, [5, 8, 3]>) -> !ts.tensor<f32, [2, 5, 4, 3]>
  return %0 : !ts.tensor<f32, [2, 5, 4, 3]>
}

// -----

// 1-D @ N-D: the vector is a row [1, K], dropped from the result.
// CHECK-LABEL: func.func @matmul_vec_batched(
// CHECK:         %[[ROW:.+]] = tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [1, 8] : tensor<8xf32> into tensor<1x8xf32>
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:        ins(%[[ROW]], %{{.+}} : tensor<1x8xf32>, tensor<2x8x3xf32>) outs(%{{.+}} : tensor<2x1x3xf32>)
// CHECK:         tensor.collapse_shape %[[R]] {{\[\[}}0], [1, 2]] : tensor<2x1x3xf32> into tensor<2x3xf32>
func.func @matmul_vec_batched(%a: !ts.tensor<f32, [8]>, %b: !ts.tensor<f32, [2, 8, 3]>) -> !ts.tensor<f32, [2, 3]> {
  %0 = ts.aten.matmul %a, %b : (!ts.tensor<f32, [8]>, !ts.tensor<f32, [2, 8, 3]>) -> !ts.tensor<f32, [2, 3]>
  return %0 : !ts.tensor<f32, [2, 3]>
}

// -----

// CHECK-LABEL: func.func @dot(
// CHECK:         linalg.dot ins(%{{.+}}, %{{.+}} : tensor<8xf32>, tensor<8xf32>) outs(%{{.+}} : tensor<f32>)
func.func @dot(%a: !ts.tensor<f32, [8]>, %b: !ts.tensor<f32, [8]>) -> !ts.tensor<f32, []> {
  %0 = ts.aten.dot %a, %b : (!ts.tensor<f32, [8]>, !ts.tensor<f32, [8]>) -> !ts.tensor<f32, []>
  return %0 : !ts.tensor<f32, []>
}

// -----

// linear: a linalg.matmul reading the weight [N, K] transposed,
// accumulating into the bias broadcast over the rows.
// CHECK-DAG:   #[[BIAS:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[MK:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[NK:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[MN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @linear(
// CHECK-SAME:      %[[X:.+]]: tensor<2x4x8xf32>, %[[W:.+]]: tensor<3x8xf32>, %[[B:.+]]: tensor<3xf32>)
// CHECK:         %[[ROWS:.+]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2]] : tensor<2x4x8xf32> into tensor<8x8xf32>
// CHECK:         %[[INIT:.+]] = linalg.generic {indexing_maps = [#[[BIAS]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[B]] : tensor<3xf32>) outs(%{{.+}} : tensor<8x3xf32>)
// CHECK:         %[[MM:.+]] = linalg.matmul indexing_maps = [#[[MK]], #[[NK]], #[[MN]]] ins(%[[ROWS]], %[[W]] : tensor<8x8xf32>, tensor<3x8xf32>) outs(%[[INIT]] : tensor<8x3xf32>)
// CHECK:         %[[OUT:.+]] = tensor.expand_shape %[[MM]] {{\[\[}}0, 1], [2]] output_shape [2, 4, 3]
// CHECK:         return %[[OUT]]
func.func @linear(%x: !ts.tensor<f32, [2, 4, 8]>, %w: !ts.tensor<f32, [3, 8]>, %b: !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [2, 4, 3]> {
  %0 = ts.aten.linear %x, %w, %b : (!ts.tensor<f32, [2, 4, 8]>, !ts.tensor<f32, [3, 8]>, !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [2, 4, 3]>
  return %0 : !ts.tensor<f32, [2, 4, 3]>
}

// -----

// CHECK-LABEL: func.func @linear_no_bias(
// CHECK:         %[[ROW:.+]] = tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [1, 8]
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<1x3xf32>)
// CHECK:         %[[MM:.+]] = linalg.matmul indexing_maps = [{{.+}}] ins(%[[ROW]], %{{.+}} : tensor<1x8xf32>, tensor<3x8xf32>) outs(%[[INIT]] : tensor<1x3xf32>)
// CHECK:         tensor.collapse_shape %[[MM]] {{\[\[}}0, 1]] : tensor<1x3xf32> into tensor<3xf32>
func.func @linear_no_bias(%x: !ts.tensor<f32, [8]>, %w: !ts.tensor<f32, [3, 8]>) -> !ts.tensor<f32, [3]> {
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.linear %x, %w, %none : (!ts.tensor<f32, [8]>, !ts.tensor<f32, [3, 8]>, !ts.none) -> !ts.tensor<f32, [3]>
  return %0 : !ts.tensor<f32, [3]>
}

// -----

// A frozen module's optional bias: a constant typed as an optional tensor.
// CHECK-LABEL: func.func @linear_frozen_bias(
// CHECK:         %[[BIAS:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK:         %[[INIT:.+]] = linalg.generic {{.*}} ins(%[[BIAS]] : tensor<3xf32>) outs(%{{.+}} : tensor<4x3xf32>)
// CHECK:         linalg.matmul {{.*}} outs(%[[INIT]] : tensor<4x3xf32>)
func.func @linear_frozen_bias(%x: !ts.tensor<f32, [4, 8]>, %w: !ts.tensor<f32, [3, 8]>) -> !ts.tensor<f32, [4, 3]> {
  %b = ts.prim.Constant[dense<[1.0, 2.0, 3.0]> : tensor<3xf32>] : !ts.optional<!ts.tensor>
  %0 = ts.aten.linear %x, %w, %b : (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [3, 8]>, !ts.optional<!ts.tensor>) -> !ts.tensor<f32, [4, 3]>
  return %0 : !ts.tensor<f32, [4, 3]>
}

// -----

// alpha = beta = 1: the product accumulates into the broadcast input.
// CHECK-LABEL: func.func @addmm(
// CHECK-SAME:      %[[C:.+]]: tensor<3xf32>, %[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8x3xf32>)
// CHECK:         %[[INIT:.+]] = linalg.generic {{.*}} ins(%[[C]] : tensor<3xf32>) outs(%{{.+}} : tensor<4x3xf32>)
// CHECK:         %[[MM:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x3xf32>) outs(%[[INIT]] : tensor<4x3xf32>)
// CHECK:         return %[[MM]]
func.func @addmm(%c: !ts.tensor<f32, [3]>, %a: !ts.tensor<f32, [4, 8]>, %b: !ts.tensor<f32, [8, 3]>) -> !ts.tensor<f32, [4, 3]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.addmm %c, %a, %b, %int1, %int1 : (!ts.tensor<f32, [3]>, !ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [8, 3]>, !ts.int, !ts.int) -> !ts.tensor<f32, [4, 3]>
  return %0 : !ts.tensor<f32, [4, 3]>
}

// -----

// Other alpha and beta: beta * input + alpha * product after the product.
// CHECK-LABEL: func.func @addmm_scaled(
// CHECK-SAME:      %[[C:.+]]: tensor<4x3xf32>, %[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8x3xf32>)
// CHECK:         %[[MM:.+]] = linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%{{.+}} : tensor<4x3xf32>)
// CHECK:         %[[BETA:.+]] = arith.truncf %{{.+}} : f64 to f32
// CHECK:         %[[ALPHA:.+]] = arith.truncf %{{.+}} : f64 to f32
// CHECK:         %[[OUT:.+]] = linalg.generic {{.*}} ins(%[[MM]], %[[C]] : tensor<4x3xf32>, tensor<4x3xf32>)
// CHECK:         ^bb0(%[[P:.+]]: f32, %[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[SP:.+]] = arith.mulf %[[P]], %[[ALPHA]] : f32
// CHECK:           %[[SIN:.+]] = arith.mulf %[[IN]], %[[BETA]] : f32
// CHECK:           arith.addf %[[SIN]], %[[SP]] : f32
// CHECK:         return %[[OUT]]
func.func @addmm_scaled(%c: !ts.tensor<f32, [4, 3]>, %a: !ts.tensor<f32, [4, 8]>, %b: !ts.tensor<f32, [8, 3]>) -> !ts.tensor<f32, [4, 3]> {
  %beta = ts.prim.Constant[5.000000e-01] : !ts.float
  %alpha = ts.prim.Constant[2.000000e+00] : !ts.float
  %0 = ts.aten.addmm %c, %a, %b, %beta, %alpha : (!ts.tensor<f32, [4, 3]>, !ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [8, 3]>, !ts.float, !ts.float) -> !ts.tensor<f32, [4, 3]>
  return %0 : !ts.tensor<f32, [4, 3]>
}

// -----

// conv2d with bias, stride 2, padding 1: tensor.pad, then
// linalg.conv_2d_nchw_fchw accumulating into the bias along the channels.
// CHECK-DAG:   #[[CHANNEL:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @conv2d(
// CHECK-SAME:      %[[X:.+]]: tensor<1x3x8x8xf32>, %[[W:.+]]: tensor<4x3x3x3xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[PAD:.+]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:           tensor.yield %[[ZERO]] : f32
// CHECK:         } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
// CHECK:         %[[INIT:.+]] = linalg.generic {indexing_maps = [#[[CHANNEL]], #{{.+}}], {{.*}} ins(%[[B]] : tensor<4xf32>) outs(%{{.+}} : tensor<1x4x4x4xf32>)
// CHECK:         %[[CONV:.+]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PAD]], %[[W]] : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%[[INIT]] : tensor<1x4x4x4xf32>)
// CHECK:         return %[[CONV]]
func.func @conv2d(%x: !ts.tensor<f32, [1, 3, 8, 8]>, %w: !ts.tensor<f32, [4, 3, 3, 3]>, %b: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [1, 4, 4, 4]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %int2 = ts.prim.Constant[2] : !ts.int
  %stride = ts.prim.ListConstruct %int2, %int2 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %padding = ts.prim.ListConstruct %int1, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %dilation = ts.prim.ListConstruct %int1, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.conv2d %x, %w, %b, %stride, %padding, %dilation, %int1 : (!ts.tensor<f32, [1, 3, 8, 8]>, !ts.tensor<f32, [4, 3, 3, 3]>, !ts.tensor<f32, [4]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.int) -> !ts.tensor<f32, [1, 4, 4, 4]>
  return %0 : !ts.tensor<f32, [1, 4, 4, 4]>
}

// -----

// groups = 2: linalg.conv_2d_ngchw_gfchw on views with the channels split.
// CHECK-LABEL: func.func @conv2d_groups(
// CHECK-NOT:     tensor.pad
// CHECK:         %[[INIT:.+]] = linalg.fill {{.*}} -> tensor<1x6x4x4xf32>
// CHECK:         %[[X:.+]] = tensor.expand_shape %{{.+}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 6, 6]
// CHECK:         %[[W:.+]] = tensor.expand_shape %{{.+}} {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3]
// CHECK:         %[[O:.+]] = tensor.expand_shape %[[INIT]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 3, 4, 4]
// CHECK:         %[[CONV:.+]] = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[X]], %[[W]] : tensor<1x2x2x6x6xf32>, tensor<2x3x2x3x3xf32>) outs(%[[O]] : tensor<1x2x3x4x4xf32>)
// CHECK:         tensor.collapse_shape %[[CONV]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x3x4x4xf32> into tensor<1x6x4x4xf32>
func.func @conv2d_groups(%x: !ts.tensor<f32, [1, 4, 6, 6]>, %w: !ts.tensor<f32, [6, 2, 3, 3]>) -> !ts.tensor<f32, [1, 6, 4, 4]> {
  %none = ts.prim.Constant : !ts.none
  %int0 = ts.prim.Constant[0] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %int2 = ts.prim.Constant[2] : !ts.int
  %ones = ts.prim.ListConstruct %int1, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %zeros = ts.prim.ListConstruct %int0, %int0 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.conv2d %x, %w, %none, %ones, %zeros, %ones, %int2 : (!ts.tensor<f32, [1, 4, 6, 6]>, !ts.tensor<f32, [6, 2, 3, 3]>, !ts.none, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.int) -> !ts.tensor<f32, [1, 6, 4, 4]>
  return %0 : !ts.tensor<f32, [1, 6, 4, 4]>
}

// -----

// CHECK-LABEL: func.func @convolution(
// CHECK:         %[[PAD:.+]] = tensor.pad
// CHECK:         %[[INIT:.+]] = linalg.fill {{.*}} -> tensor<1x4x4x4xf32>
// CHECK:         linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PAD]], %{{.+}} : {{.*}}) outs(%[[INIT]] : tensor<1x4x4x4xf32>)
func.func @convolution(%x: !ts.tensor<f32, [1, 3, 8, 8]>, %w: !ts.tensor<f32, [4, 3, 3, 3]>) -> !ts.tensor<f32, [1, 4, 4, 4]> {
  %none = ts.prim.Constant : !ts.none
  %false = ts.prim.Constant[false] : !ts.bool
  %int0 = ts.prim.Constant[0] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %int2 = ts.prim.Constant[2] : !ts.int
  %stride = ts.prim.ListConstruct %int2, %int2 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %padding = ts.prim.ListConstruct %int1, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %dilation = ts.prim.ListConstruct %int1, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %outpad = ts.prim.ListConstruct %int0, %int0 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten._convolution %x, %w, %none, %stride, %padding, %dilation, %false, %outpad, %int1, %false, %false, %false, %false : (!ts.tensor<f32, [1, 3, 8, 8]>, !ts.tensor<f32, [4, 3, 3, 3]>, !ts.none, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool, !ts.list<!ts.int>, !ts.int, !ts.bool, !ts.bool, !ts.bool, !ts.bool) -> !ts.tensor<f32, [1, 4, 4, 4]>
  return %0 : !ts.tensor<f32, [1, 4, 4, 4]>
}

// -----

// batch_norm in evaluation mode: one elementwise generic reading the
// per-channel vectors along dim 1.
// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[CHANNEL:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @batch_norm(
// CHECK-SAME:      %[[X:.+]]: tensor<2x3x4x4xf32>, %[[W:.+]]: tensor<3xf32>, %[[B:.+]]: tensor<3xf32>, %[[MEAN:.+]]: tensor<3xf32>, %[[VAR:.+]]: tensor<3xf32>)
// CHECK:         %[[EPS:.+]] = arith.truncf %{{.+}} : f64 to f32
// CHECK:         %[[OUT:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[CHANNEL]], #[[CHANNEL]], #[[CHANNEL]], #[[CHANNEL]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME:        ins(%[[X]], %[[W]], %[[B]], %[[MEAN]], %[[VAR]] :
// CHECK:         ^bb0(%[[XE:.+]]: f32, %[[WE:.+]]: f32, %[[BE:.+]]: f32, %[[ME:.+]]: f32, %[[VE:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[VEPS:.+]] = arith.addf %[[VE]], %[[EPS]] : f32
// CHECK:           %[[STD:.+]] = math.sqrt %[[VEPS]] : f32
// CHECK:           %[[D:.+]] = arith.subf %[[XE]], %[[ME]] : f32
// CHECK:           %[[N:.+]] = arith.divf %[[D]], %[[STD]] : f32
// CHECK:           %[[S:.+]] = arith.mulf %[[N]], %[[WE]] : f32
// CHECK:           %[[Y:.+]] = arith.addf %[[S]], %[[BE]] : f32
// CHECK:           linalg.yield %[[Y]]
// CHECK:         return %[[OUT]]
func.func @batch_norm(%x: !ts.tensor<f32, [2, 3, 4, 4]>, %w: !ts.tensor<f32, [3]>, %b: !ts.tensor<f32, [3]>, %mean: !ts.tensor<f32, [3]>, %var: !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [2, 3, 4, 4]> {
  %false = ts.prim.Constant[false] : !ts.bool
  %true = ts.prim.Constant[true] : !ts.bool
  %momentum = ts.prim.Constant[1.000000e-01] : !ts.float
  %eps = ts.prim.Constant[1.000000e-05] : !ts.float
  %0 = ts.aten.batch_norm %x, %w, %b, %mean, %var, %false, %momentum, %eps, %true : (!ts.tensor<f32, [2, 3, 4, 4]>, !ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>, !ts.bool, !ts.float, !ts.float, !ts.bool) -> !ts.tensor<f32, [2, 3, 4, 4]>
  return %0 : !ts.tensor<f32, [2, 3, 4, 4]>
}

// -----

// stride [] is the kernel; padding with -inf.
// CHECK-LABEL: func.func @max_pool2d(
// CHECK:         %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[PAD:.+]] = tensor.pad %{{.+}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:           tensor.yield %[[NEGINF]] : f32
// CHECK:         %[[WINDOW:.+]] = tensor.empty() : tensor<3x3xf32>
// CHECK:         %[[INIT:.+]] = linalg.fill ins(%[[NEGINF]] : f32) {{.*}} -> tensor<1x2x4x4xf32>
// CHECK:         linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PAD]], %[[WINDOW]] : tensor<1x2x10x10xf32>, tensor<3x3xf32>) outs(%[[INIT]] : tensor<1x2x4x4xf32>)
func.func @max_pool2d(%x: !ts.tensor<f32, [1, 2, 8, 8]>) -> !ts.tensor<f32, [1, 2, 4, 4]> {
  %false = ts.prim.Constant[false] : !ts.bool
  %int1 = ts.prim.Constant[1] : !ts.int
  %int3 = ts.prim.Constant[3] : !ts.int
  %kernel = ts.prim.ListConstruct %int3, %int3 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %int2 = ts.prim.Constant[2] : !ts.int
  %stride = ts.prim.ListConstruct %int2, %int2 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %padding = ts.prim.ListConstruct %int1, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %dilation = ts.prim.ListConstruct %int1, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.max_pool2d %x, %kernel, %stride, %padding, %dilation, %false : (!ts.tensor<f32, [1, 2, 8, 8]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool) -> !ts.tensor<f32, [1, 2, 4, 4]>
  return %0 : !ts.tensor<f32, [1, 2, 4, 4]>
}

// -----

// CHECK-LABEL: func.func @max_pool2d_default_stride(
// CHECK:         %[[X:.+]] = tensor.expand_shape %{{.+}} {{\[\[}}0, 1], [2], [3]] output_shape [1, 2, 8, 8]
// CHECK-NOT:     tensor.pad
// CHECK:         %[[POOL:.+]] = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[X]], %{{.+}} : tensor<1x2x8x8xf32>, tensor<2x2xf32>)
// CHECK:         tensor.collapse_shape %[[POOL]] {{\[\[}}0, 1], [2], [3]] : tensor<1x2x4x4xf32> into tensor<2x4x4xf32>
func.func @max_pool2d_default_stride(%x: !ts.tensor<f32, [2, 8, 8]>) -> !ts.tensor<f32, [2, 4, 4]> {
  %false = ts.prim.Constant[false] : !ts.bool
  %int0 = ts.prim.Constant[0] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %int2 = ts.prim.Constant[2] : !ts.int
  %kernel = ts.prim.ListConstruct %int2, %int2 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %stride = ts.prim.ListConstruct : () -> !ts.list<!ts.int>
  %padding = ts.prim.ListConstruct %int0, %int0 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %dilation = ts.prim.ListConstruct %int1, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.max_pool2d %x, %kernel, %stride, %padding, %dilation, %false : (!ts.tensor<f32, [2, 8, 8]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool) -> !ts.tensor<f32, [2, 4, 4]>
  return %0 : !ts.tensor<f32, [2, 4, 4]>
}

// -----

// count_include_pad=False: each window's divisor counts the input elements
// it covers.
// CHECK-LABEL: func.func @avg_pool2d(
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[PAD:.+]] = tensor.pad
// CHECK:           tensor.yield %[[ZERO]] : f32
// CHECK:         %[[SUM:.+]] = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PAD]], %{{.+}} : tensor<1x2x10x10xf32>, tensor<3x3xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x2x4x4xf32>)
// CHECK:           %[[OH:.+]] = linalg.index 2 : index
// CHECK:           arith.minsi
// CHECK:           arith.maxsi
// CHECK:           %[[OW:.+]] = linalg.index 3 : index
// CHECK:           arith.maxsi
// CHECK:           %[[WCOUNT:.+]] = arith.subi
// CHECK:           %[[COUNT:.+]] = arith.muli %{{.+}}, %[[WCOUNT]] : i64
// CHECK:           %[[DIVISOR:.+]] = arith.sitofp %[[COUNT]] : i64 to f32
// CHECK:           arith.divf %{{.+}}, %[[DIVISOR]] : f32
func.func @avg_pool2d(%x: !ts.tensor<f32, [1, 2, 8, 8]>) -> !ts.tensor<f32, [1, 2, 4, 4]> {
  %none = ts.prim.Constant : !ts.none
  %false = ts.prim.Constant[false] : !ts.bool
  %int1 = ts.prim.Constant[1] : !ts.int
  %int2 = ts.prim.Constant[2] : !ts.int
  %int3 = ts.prim.Constant[3] : !ts.int
  %kernel = ts.prim.ListConstruct %int3, %int3 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %stride = ts.prim.ListConstruct %int2, %int2 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %padding = ts.prim.ListConstruct %int1, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.avg_pool2d %x, %kernel, %stride, %padding, %false, %false, %none : (!ts.tensor<f32, [1, 2, 8, 8]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool, !ts.bool, !ts.none) -> !ts.tensor<f32, [1, 2, 4, 4]>
  return %0 : !ts.tensor<f32, [1, 2, 4, 4]>
}

// -----

// Signed integers sum in their type and divide truncating (PyTorch's
// integer kernel); the window size divides when it is constant.
// CHECK-LABEL: func.func @avg_pool2d_long(
// CHECK:         %[[SUM:.+]] = linalg.pooling_nchw_sum {{.*}} -> tensor<1x2x4x4xi64>
// CHECK:         linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x2x4x4xi64>)
// CHECK:           arith.divsi %{{.+}}, %{{.+}} : i64
// CHECK-NOT:       arith.divf
func.func @avg_pool2d_long(%x: !ts.tensor<si64, [1, 2, 8, 8]>) -> !ts.tensor<si64, [1, 2, 4, 4]> {
  %none = ts.prim.Constant : !ts.none
  %false = ts.prim.Constant[false] : !ts.bool
  %true = ts.prim.Constant[true] : !ts.bool
  %int0 = ts.prim.Constant[0] : !ts.int
  %int2 = ts.prim.Constant[2] : !ts.int
  %kernel = ts.prim.ListConstruct %int2, %int2 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %padding = ts.prim.ListConstruct %int0, %int0 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.avg_pool2d %x, %kernel, %kernel, %padding, %false, %true, %none : (!ts.tensor<si64, [1, 2, 8, 8]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool, !ts.bool, !ts.none) -> !ts.tensor<si64, [1, 2, 4, 4]>
  return %0 : !ts.tensor<si64, [1, 2, 4, 4]>
}

// -----

// CHECK-LABEL: func.func @adaptive_avg_pool2d(
// CHECK:         %[[WINDOW:.+]] = tensor.empty() : tensor<8x6xf32>
// CHECK:         %[[SUM:.+]] = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<[8, 6]> : tensor<2xi64>} ins(%{{.+}}, %[[WINDOW]] : tensor<1x2x8x6xf32>, tensor<8x6xf32>)
// CHECK:         %[[N:.+]] = arith.constant 4.800000e+01 : f32
// CHECK:         linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x2x1x1xf32>)
// CHECK:           arith.divf %{{.+}}, %[[N]] : f32
func.func @adaptive_avg_pool2d(%x: !ts.tensor<f32, [1, 2, 8, 6]>) -> !ts.tensor<f32, [1, 2, 1, 1]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %size = ts.prim.ListConstruct %int1, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.adaptive_avg_pool2d %x, %size : (!ts.tensor<f32, [1, 2, 8, 6]>, !ts.list<!ts.int>) -> !ts.tensor<f32, [1, 2, 1, 1]>
  return %0 : !ts.tensor<f32, [1, 2, 1, 1]>
}

// -----

// embedding: a generic over the result extracts weight rows by index.
// CHECK-DAG:   #[[IDX:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @embedding(
// CHECK-SAME:      %[[W:.+]]: tensor<10x4xf32>, %[[I:.+]]: tensor<2x3xi64>)
// CHECK:         linalg.generic {indexing_maps = [#[[IDX]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[I]] : tensor<2x3xi64>) outs(%{{.+}} : tensor<2x3x4xf32>)
// CHECK:         ^bb0(%[[IN:.+]]: i64, %{{.+}}: f32):
// CHECK:           %[[ROW:.+]] = arith.index_cast %[[IN]] : i64 to index
// CHECK:           %[[COL:.+]] = linalg.index 2 : index
// CHECK:           %[[V:.+]] = tensor.extract %[[W]][%[[ROW]], %[[COL]]] : tensor<10x4xf32>
// CHECK:           linalg.yield %[[V]]
func.func @embedding(%w: !ts.tensor<f32, [10, 4]>, %i: !ts.tensor<si64, [2, 3]>) -> !ts.tensor<f32, [2, 3, 4]> {
  %int_m1 = ts.prim.Constant[-1] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.aten.embedding %w, %i, %int_m1, %false, %false : (!ts.tensor<f32, [10, 4]>, !ts.tensor<si64, [2, 3]>, !ts.int, !ts.bool, !ts.bool) -> !ts.tensor<f32, [2, 3, 4]>
  return %0 : !ts.tensor<f32, [2, 3, 4]>
}

// -----

// The errors: an op whose pattern refuses it is reported by the conversion.

func.func @batch_norm_training(%x: !ts.tensor<f32, [2, 3, 4]>, %mean: !ts.tensor<f32, [3]>, %var: !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [2, 3, 4]> {
  %none = ts.prim.Constant : !ts.none
  %true = ts.prim.Constant[true] : !ts.bool
  %momentum = ts.prim.Constant[1.000000e-01] : !ts.float
  %eps = ts.prim.Constant[1.000000e-05] : !ts.float
  // expected-error @+1 {{'aten::batch_norm' cannot be compiled with these arguments}}
  %0 = ts.aten.batch_norm %x, %none, %none, %mean, %var, %true, %momentum, %eps, %true : (!ts.tensor<f32, [2, 3, 4]>, !ts.none, !ts.none, !ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>, !ts.bool, !ts.float, !ts.float, !ts.bool) -> !ts.tensor<f32, [2, 3, 4]>
  return %0 : !ts.tensor<f32, [2, 3, 4]>
}

// -----

// An output size that does not divide the input size: windows of PyTorch's
// [floor(o in / out), ceil((o + 1) in / out)), summed over the largest
// window (3 here) with the elements past each window's end skipped, then
// divided by each window's size.
// CHECK-LABEL: func.func @adaptive_avg_pool2d_uneven(
// CHECK:         %[[W:.+]] = tensor.empty() : tensor<3x3xf32>
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]{{.*}} ins(%[[W]] : tensor<3x3xf32>)
// CHECK:           arith.cmpi slt
// CHECK:           tensor.extract
// CHECK:           arith.addf
// CHECK:           arith.select
// CHECK:         linalg.generic
// CHECK:           arith.subi
// CHECK:           arith.muli
// CHECK:           arith.divf
func.func @adaptive_avg_pool2d_uneven(%x: !ts.tensor<f32, [1, 2, 7, 7]>) -> !ts.tensor<f32, [1, 2, 3, 3]> {
  %int3 = ts.prim.Constant[3] : !ts.int
  %size = ts.prim.ListConstruct %int3, %int3 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.adaptive_avg_pool2d %x, %size : (!ts.tensor<f32, [1, 2, 7, 7]>, !ts.list<!ts.int>) -> !ts.tensor<f32, [1, 2, 3, 3]>
  return %0 : !ts.tensor<f32, [1, 2, 3, 3]>
}

// -----

// ceil_mode=True with a partial last window: the input is padded with -inf
// one element further at the end (7 -> 8), then pooled as in floor mode.
// CHECK-LABEL: func.func @max_pool2d_ceil(
// CHECK:         tensor.pad %{{.+}} low[0, 0, 0, 0] high[0, 0, 1, 1]
// CHECK:           tensor.yield %{{.+}} : f32
// CHECK:         } : tensor<1x2x7x7xf32> to tensor<1x2x8x8xf32>
// CHECK:         linalg.pooling_nchw_max {{.*}} -> tensor<1x2x4x4xf32>
func.func @max_pool2d_ceil(%x: !ts.tensor<f32, [1, 2, 7, 7]>) -> !ts.tensor<f32, [1, 2, 4, 4]> {
  %true = ts.prim.Constant[true] : !ts.bool
  %int0 = ts.prim.Constant[0] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %int2 = ts.prim.Constant[2] : !ts.int
  %kernel = ts.prim.ListConstruct %int2, %int2 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %padding = ts.prim.ListConstruct %int0, %int0 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %dilation = ts.prim.ListConstruct %int1, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.max_pool2d %x, %kernel, %kernel, %padding, %dilation, %true : (!ts.tensor<f32, [1, 2, 7, 7]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool) -> !ts.tensor<f32, [1, 2, 4, 4]>
  return %0 : !ts.tensor<f32, [1, 2, 4, 4]>
}

// -----

func.func @conv_transposed(%x: !ts.tensor<f32, [1, 3, 8, 8]>, %w: !ts.tensor<f32, [3, 4, 3, 3]>) -> !ts.tensor<f32, [1, 4, 10, 10]> {
  %none = ts.prim.Constant : !ts.none
  %true = ts.prim.Constant[true] : !ts.bool
  %false = ts.prim.Constant[false] : !ts.bool
  %int0 = ts.prim.Constant[0] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %ones = ts.prim.ListConstruct %int1, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %zeros = ts.prim.ListConstruct %int0, %int0 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  // expected-error @+1 {{'aten::_convolution' cannot be compiled with these arguments}}
  %0 = ts.aten._convolution %x, %w, %none, %ones, %zeros, %ones, %true, %zeros, %int1, %false, %false, %false, %false : (!ts.tensor<f32, [1, 3, 8, 8]>, !ts.tensor<f32, [3, 4, 3, 3]>, !ts.none, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool, !ts.list<!ts.int>, !ts.int, !ts.bool, !ts.bool, !ts.bool, !ts.bool) -> !ts.tensor<f32, [1, 4, 10, 10]>
  return %0 : !ts.tensor<f32, [1, 4, 10, 10]>
}

// -----

// Maxima with their indices: one generic over the output and the window
// (the largest of the uneven adaptive windows, 3 x 3 here) yields the value
// and its index h * W + w in the input plane; the first element of each
// window is taken, then a greater one or a NaN.
// CHECK-LABEL: func.func @adaptive_max_pool2d(
// CHECK:         %[[W:.+]] = tensor.empty() : tensor<3x3xf32>
// CHECK:         %[[R:.+]]:2 = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]{{.*}} ins(%[[W]] : tensor<3x3xf32>) outs(%{{.+}}, %{{.+}} : tensor<2x3x3x2xf32>, tensor<2x3x3x2xi64>)
// CHECK:           tensor.extract
// CHECK:           arith.cmpf ogt
// CHECK:           arith.cmpf uno
// CHECK:           arith.select
// CHECK:           arith.select
// CHECK:         return %[[R]]#0, %[[R]]#1
func.func @adaptive_max_pool2d(%x: !ts.tensor<f32, [2, 3, 7, 5]>) -> (!ts.tensor<f32, [2, 3, 3, 2]>, !ts.tensor<si64, [2, 3, 3, 2]>) {
  %int3 = ts.prim.Constant[3] : !ts.int
  %int2 = ts.prim.Constant[2] : !ts.int
  %size = ts.prim.ListConstruct %int3, %int2 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0:2 = ts.aten.adaptive_max_pool2d %x, %size : (!ts.tensor<f32, [2, 3, 7, 5]>, !ts.list<!ts.int>) -> (!ts.tensor<f32, [2, 3, 3, 2]>, !ts.tensor<si64, [2, 3, 3, 2]>)
  return %0#0, %0#1 : !ts.tensor<f32, [2, 3, 3, 2]>, !ts.tensor<si64, [2, 3, 3, 2]>
}

// -----

// max_pool2d_with_indices: positions stride * o - padding + k, read only
// inside the input (0 <= position < size), so ceil_mode's last partial
// window and the padding never win.
// CHECK-LABEL: func.func @max_pool2d_with_indices(
// CHECK:         %[[W:.+]] = tensor.empty() : tensor<3x3xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[W]] : tensor<3x3xf32>) outs(%{{.+}}, %{{.+}} : tensor<1x2x5x4xf32>, tensor<1x2x5x4xi64>)
// CHECK:           arith.cmpi sge
// CHECK:           arith.cmpi slt
func.func @max_pool2d_with_indices(%x: !ts.tensor<f32, [1, 2, 8, 7]>) -> (!ts.tensor<f32, [1, 2, 5, 4]>, !ts.tensor<si64, [1, 2, 5, 4]>) {
  %true = ts.prim.Constant[true] : !ts.bool
  %int1 = ts.prim.Constant[1] : !ts.int
  %int2 = ts.prim.Constant[2] : !ts.int
  %int3 = ts.prim.Constant[3] : !ts.int
  %kernel = ts.prim.ListConstruct %int3, %int3 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %stride = ts.prim.ListConstruct %int2, %int2 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %padding = ts.prim.ListConstruct %int1, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %dilation = ts.prim.ListConstruct %int1, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0:2 = ts.aten.max_pool2d_with_indices %x, %kernel, %stride, %padding, %dilation, %true : (!ts.tensor<f32, [1, 2, 8, 7]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool) -> (!ts.tensor<f32, [1, 2, 5, 4]>, !ts.tensor<si64, [1, 2, 5, 4]>)
  return %0#0, %0#1 : !ts.tensor<f32, [1, 2, 5, 4]>, !ts.tensor<si64, [1, 2, 5, 4]>
}

// -----

// max_pool3d: the same generic over three spatial dims (the indices it
// also finds go unused); max_pool3d_with_indices returns them.
// CHECK-LABEL: func.func @max_pool3d(
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]{{.*}} outs(%{{.+}}, %{{.+}} : tensor<1x2x2x2x2xf32>, tensor<1x2x2x2x2xi64>)
// CHECK:         linalg.generic {{.*}} outs(%{{.+}}, %{{.+}} : tensor<1x2x2x2x2xf32>, tensor<1x2x2x2x2xi64>)
func.func @max_pool3d(%x: !ts.tensor<f32, [2, 4, 4, 4]>) -> (!ts.tensor<f32, [2, 2, 2, 2]>, !ts.tensor<f32, [2, 2, 2, 2]>, !ts.tensor<si64, [2, 2, 2, 2]>) {
  %false = ts.prim.Constant[false] : !ts.bool
  %int0 = ts.prim.Constant[0] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %int2 = ts.prim.Constant[2] : !ts.int
  %kernel = ts.prim.ListConstruct %int2, %int2, %int2 : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %zeros = ts.prim.ListConstruct %int0, %int0, %int0 : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %ones = ts.prim.ListConstruct %int1, %int1, %int1 : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.max_pool3d %x, %kernel, %kernel, %zeros, %ones, %false : (!ts.tensor<f32, [2, 4, 4, 4]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool) -> !ts.tensor<f32, [2, 2, 2, 2]>
  %1:2 = ts.aten.max_pool3d_with_indices %x, %kernel, %kernel, %zeros, %ones, %false : (!ts.tensor<f32, [2, 4, 4, 4]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool) -> (!ts.tensor<f32, [2, 2, 2, 2]>, !ts.tensor<si64, [2, 2, 2, 2]>)
  return %0, %1#0, %1#1 : !ts.tensor<f32, [2, 2, 2, 2]>, !ts.tensor<f32, [2, 2, 2, 2]>, !ts.tensor<si64, [2, 2, 2, 2]>
}
