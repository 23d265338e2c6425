// RUN: tsmlir-opt %s --convert-ts-to-linalg=fuse-groups=false -split-input-file -verify-diagnostics | FileCheck %s

// Tensors of dynamic sizes, as a dynamic specialisation (the JIT's DYNAMIC
// steps) makes them: a `?` size is never 0 or 1, so a broadcast result's
// size is that of an operand with `?` there, and an op's tensor.empty reads
// it with tensor.dim. Elementwise ops, reductions and softmax take them;
// other ops are named.

// The result's sizes come from the operand with `?` in each dim; the
// size-1 dim of %y broadcasts.
// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[ROW:.+]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @binary(
// CHECK-SAME:      %[[X:.+]]: tensor<?x?xf32>, %[[Y:.+]]: tensor<1x?xf32>) -> tensor<?x?xf32>
// CHECK:         %[[M:.+]] = tensor.dim %[[X]], %c0
// CHECK:         %[[N:.+]] = tensor.dim %[[X]], %c1
// CHECK:         %[[E:.+]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins(%[[X]], %[[Y]] : tensor<?x?xf32>, tensor<1x?xf32>) outs(%[[E]] : tensor<?x?xf32>)
// CHECK:           arith.addf
func.func @binary(%x: !ts.tensor<f32, [?, ?]>, %y: !ts.tensor<f32, [1, ?]>) -> !ts.tensor<f32, [?, ?]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.add.Tensor %x, %y, %int1 : (!ts.tensor<f32, [?, ?]>, !ts.tensor<f32, [1, ?]>, !ts.int) -> !ts.tensor<f32, [?, ?]>
  return %0 : !ts.tensor<f32, [?, ?]>
}

// -----

// mean over a dynamic dim: the sum accumulates in f64 (the count may be
// large), the count is the size read at run time, the kept dim a reshape.
// CHECK-LABEL: func.func @mean(
// CHECK-SAME:      %[[X:.+]]: tensor<?x3x?xf32>) -> tensor<?x3x1xf32>
// CHECK:         %[[B:.+]] = tensor.dim %[[X]], %c0
// CHECK:         %[[ACC:.+]] = tensor.empty(%[[B]]) : tensor<?x3xf64>
// CHECK:         %[[SUM:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:         %[[K:.+]] = tensor.dim %[[X]], %c2
// CHECK:         %[[COUNT:.+]] = arith.muli %c1{{.*}}, %[[K]]
// CHECK:         %[[I:.+]] = arith.index_cast %[[COUNT]] : index to i64
// CHECK:         %[[F:.+]] = arith.sitofp %[[I]] : i64 to f64
// CHECK:         linalg.generic
// CHECK:           arith.divf %{{.+}}, %[[F]] : f64
// CHECK:         tensor.expand_shape %{{.+}} {{\[\[}}0], [1, 2]] output_shape [%{{.+}}, 3, 1] : tensor<?x3xf32> into tensor<?x3x1xf32>
func.func @mean(%x: !ts.tensor<f32, [?, 3, ?]>) -> !ts.tensor<f32, [?, 3, 1]> {
  %int2 = ts.prim.Constant[2] : !ts.int
  %true = ts.prim.Constant[true] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %dims = ts.prim.ListConstruct %int2 : (!ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.mean.dim %x, %dims, %true, %none : (!ts.tensor<f32, [?, 3, ?]>, !ts.list<!ts.int>, !ts.bool, !ts.none) -> !ts.tensor<f32, [?, 3, 1]>
  return %0 : !ts.tensor<f32, [?, 3, 1]>
}

// -----

// softmax: the max over the dim, of the rows' dynamic count; the kept
// exponentials and the result of the input's sizes; their sum.
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME:      %[[X:.+]]: tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK:         tensor.empty(%{{.+}}) : tensor<?xf32>
// CHECK:         arith.maxnumf
// CHECK:         %[[M:.+]] = tensor.dim %[[X]], %c0
// CHECK:         %[[N:.+]] = tensor.dim %[[X]], %c1
// CHECK:         tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK:         math.exp
// CHECK:         tensor.empty(%{{.+}}) : tensor<?xf64>
// CHECK:         tensor.empty(%{{.+}}, %{{.+}}) : tensor<?x?xf32>
func.func @softmax(%x: !ts.tensor<f32, [?, ?]>) -> !ts.tensor<f32, [?, ?]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.softmax.int %x, %int1, %none : (!ts.tensor<f32, [?, ?]>, !ts.int, !ts.none) -> !ts.tensor<f32, [?, ?]>
  return %0 : !ts.tensor<f32, [?, ?]>
}

// -----

// A matrix product: the result's rows are the lhs's, its columns the
// rhs's; the zero-filled init has those sizes.
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME:      %[[X:.+]]: tensor<?x?xf32>, %[[Y:.+]]: tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK:         %[[M:.+]] = tensor.dim %[[X]], %c0
// CHECK:         %[[N:.+]] = tensor.dim %[[Y]], %c1
// CHECK:         %[[E:.+]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK:         %[[Z:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<?x?xf32>)
// CHECK:         linalg.matmul ins(%[[X]], %[[Y]] : tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[Z]] : tensor<?x?xf32>)
func.func @matmul(%x: !ts.tensor<f32, [?, ?]>, %y: !ts.tensor<f32, [?, ?]>) -> !ts.tensor<f32, [?, ?]> {
  %0 = ts.aten.mm %x, %y : (!ts.tensor<f32, [?, ?]>, !ts.tensor<f32, [?, ?]>) -> !ts.tensor<f32, [?, ?]>
  return %0 : !ts.tensor<f32, [?, ?]>
}

// -----

// linear: rows from the input, columns from the weight; the bias broadcast
// into an init of those sizes.
// CHECK-LABEL: func.func @linear(
// CHECK-SAME:      %[[X:.+]]: tensor<?x8xf32>, %[[W:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK:         %[[M:.+]] = tensor.dim %[[X]], %c0
// CHECK:         %[[E:.+]] = tensor.empty(%[[M]]) : tensor<?x4xf32>
// CHECK:         %[[M2:.+]] = tensor.dim %[[E]], %c0
// CHECK:         %[[E2:.+]] = tensor.empty(%[[M2]]) : tensor<?x4xf32>
// CHECK:         %[[INIT:.+]] = linalg.generic {{.+}} ins(%[[B]] : tensor<4xf32>) outs(%[[E2]] : tensor<?x4xf32>)
// CHECK:         linalg.matmul {{.+}} ins(%[[X]], %[[W]] : tensor<?x8xf32>, tensor<4x8xf32>) outs(%[[INIT]] : tensor<?x4xf32>)
func.func @linear(%x: !ts.tensor<f32, [?, 8]>, %w: !ts.tensor<f32, [4, 8]>, %b: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [?, 4]> {
  %0 = ts.aten.linear %x, %w, %b : (!ts.tensor<f32, [?, 8]>, !ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [?, 4]>
  return %0 : !ts.tensor<f32, [?, 4]>
}

// -----

// An op without a lowering for dynamic sizes is named.
func.func @cat(%x: !ts.tensor<f32, [?, 4]>, %y: !ts.tensor<f32, [?, 4]>) -> !ts.tensor<f32, [?, 4]> {
  %int0 = ts.prim.Constant[0] : !ts.int
  %list = ts.prim.ListConstruct %x, %y : (!ts.tensor<f32, [?, 4]>, !ts.tensor<f32, [?, 4]>) -> !ts.list<!ts.tensor>
  // expected-error @+1 {{'aten::cat' has no lowering for tensors of dynamic sizes ('!ts.tensor<f32, [?, 4]>'): elementwise ops, reductions, softmax and matrix products have one; specialise the graph for static sizes}}
  %0 = ts.aten.cat %list, %int0 : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor<f32, [?, 4]>
  return %0 : !ts.tensor<f32, [?, 4]>
}

// -----

// permute: the result's sizes are the input's, permuted.
// CHECK-LABEL: func.func @permute(
// CHECK-SAME:      %[[X:.+]]: tensor<?x3x?xf32>) -> tensor<?x?x3xf32>
// CHECK:         %[[A:.+]] = tensor.dim %[[X]], %c2
// CHECK:         %[[B:.+]] = tensor.dim %[[X]], %c0
// CHECK:         %[[E:.+]] = tensor.empty(%[[A]], %[[B]]) : tensor<?x?x3xf32>
// CHECK:         linalg.generic {{.+}} ins(%[[X]] : tensor<?x3x?xf32>) outs(%[[E]] : tensor<?x?x3xf32>)
func.func @permute(%x: !ts.tensor<f32, [?, 3, ?]>) -> !ts.tensor<f32, [?, ?, 3]> {
  %int0 = ts.prim.Constant[0] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %int2 = ts.prim.Constant[2] : !ts.int
  %dims = ts.prim.ListConstruct %int2, %int0, %int1 : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.permute %x, %dims : (!ts.tensor<f32, [?, 3, ?]>, !ts.list<!ts.int>) -> !ts.tensor<f32, [?, ?, 3]>
  return %0 : !ts.tensor<f32, [?, ?, 3]>
}

// -----

// unsqueeze and squeeze: unit dims come and go by reshapes; a view that
// merges dynamic dims has no lowering for them.
// CHECK-LABEL: func.func @unsqueeze(
// CHECK-SAME:      %[[X:.+]]: tensor<?x4xf32>) -> tensor<?x1x4xf32>
// CHECK:         tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2]] output_shape [%{{.+}}, 1, 4] : tensor<?x4xf32> into tensor<?x1x4xf32>
func.func @unsqueeze(%x: !ts.tensor<f32, [?, 4]>) -> !ts.tensor<f32, [?, 1, 4]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.unsqueeze %x, %int1 : (!ts.tensor<f32, [?, 4]>, !ts.int) -> !ts.tensor<f32, [?, 1, 4]>
  return %0 : !ts.tensor<f32, [?, 1, 4]>
}

// -----

func.func @view_merging(%x: !ts.tensor<f32, [?, ?]>) -> !ts.tensor<f32, [?]> {
  %int-1 = ts.prim.Constant[-1] : !ts.int
  %sizes = ts.prim.ListConstruct %int-1 : (!ts.int) -> !ts.list<!ts.int>
  // expected-error @+1 {{'aten::view' cannot be compiled with these arguments}}
  %0 = ts.aten.view %x, %sizes : (!ts.tensor<f32, [?, ?]>, !ts.list<!ts.int>) -> !ts.tensor<f32, [?]>
  return %0 : !ts.tensor<f32, [?]>
}
