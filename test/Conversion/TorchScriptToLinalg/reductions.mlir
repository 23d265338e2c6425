// RUN: tsmlir-opt %s --convert-ts-to-linalg=fuse-groups=false -split-input-file -verify-diagnostics | FileCheck %s
// RUN: tsmlir-opt %s --convert-ts-to-linalg="fuse-groups=false row-temporaries=false" -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=RECOMPUTE

// Reductions, softmax, log_softmax, logsumexp, var/std and the
// normalisations: linalg.generics with reduction iterators that accumulate
// into filled tensors of the reduced shape. The generics of the ops lowered in
// a group of their own (softmax, var, layer_norm, ...) are checked as the
// patterns build them, before the group's fusion.

// Sum of every element: one generic, all dims reductions, into a zero-filled
// 0-d tensor.
// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[SCALAR:.+]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @sum(
// CHECK-SAME:      %[[X:.+]]: tensor<4x8xf32>) -> tensor<f32>
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<f32>)
// CHECK:         %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[SCALAR]]], iterator_types = ["reduction", "reduction"]}
// CHECK-SAME:        ins(%[[X]] : tensor<4x8xf32>) outs(%[[INIT]] : tensor<f32>)
// CHECK:         ^bb0(%[[IN:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK:           %[[ADD:.+]] = arith.addf %[[IN]], %[[ACC]] : f32
// CHECK:           linalg.yield %[[ADD]]
// CHECK:         return %[[SUM]]
func.func @sum(%x: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, []> {
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.sum %x, %none : (!ts.tensor<f32, [4, 8]>, !ts.none) -> !ts.tensor<f32, []>
  return %0 : !ts.tensor<f32, []>
}

// -----

// More than 4096 f32 elements accumulate in f64, then truncate.
// CHECK-LABEL: func.func @sum_wide(
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f64
// CHECK:         %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : f64) outs(%{{.+}} : tensor<f64>)
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK-SAME:        iterator_types = ["reduction", "reduction"]
// CHECK-SAME:        outs(%[[INIT]] : tensor<f64>)
// CHECK:         ^bb0(%[[IN:.+]]: f32, %[[ACC:.+]]: f64):
// CHECK:           %[[EXT:.+]] = arith.extf %[[IN]] : f32 to f64
// CHECK:           arith.addf %[[EXT]], %[[ACC]] : f64
// CHECK:         %[[CAST:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<f64>) outs(%{{.+}} : tensor<f32>)
// CHECK:           arith.truncf %{{.+}} : f64 to f32
// CHECK:         return %[[CAST]] : tensor<f32>
func.func @sum_wide(%x: !ts.tensor<f32, [64, 128]>) -> !ts.tensor<f32, []> {
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.sum %x, %none : (!ts.tensor<f32, [64, 128]>, !ts.none) -> !ts.tensor<f32, []>
  return %0 : !ts.tensor<f32, []>
}

// -----

// Bools sum to int64.
// CHECK-LABEL: func.func @sum_bool(
// CHECK:         linalg.fill ins(%{{.+}} : i64) outs(%{{.+}} : tensor<i64>)
// CHECK:         linalg.generic
// CHECK:         ^bb0(%[[IN:.+]]: i1, %[[ACC:.+]]: i64):
// CHECK:           %[[EXT:.+]] = arith.extui %[[IN]] : i1 to i64
// CHECK:           arith.addi %[[EXT]], %[[ACC]] : i64
func.func @sum_bool(%x: !ts.tensor<i1, [4, 8]>) -> !ts.tensor<si64, []> {
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.sum %x, %none : (!ts.tensor<i1, [4, 8]>, !ts.none) -> !ts.tensor<si64, []>
  return %0 : !ts.tensor<si64, []>
}

// -----

// keepdim: the reduced dim comes back as size 1.
// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @sum_dim_keepdim(
// CHECK:         %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[OUT]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK-SAME:        outs(%{{.+}} : tensor<4x3xf32>)
// CHECK:         %[[KEPT:.+]] = tensor.expand_shape %[[SUM]] {{\[\[}}0], [1, 2]] output_shape [4, 1, 3]
// CHECK:         return %[[KEPT]] : tensor<4x1x3xf32>
func.func @sum_dim_keepdim(%x: !ts.tensor<f32, [4, 8, 3]>) -> !ts.tensor<f32, [4, 1, 3]> {
  %none = ts.prim.Constant : !ts.none
  %int1 = ts.prim.Constant[1] : !ts.int
  %dims = ts.prim.ListConstruct %int1 : (!ts.int) -> !ts.list<!ts.int>
  %true = ts.prim.Constant[true] : !ts.bool
  %0 = ts.aten.sum.dim_IntList %x, %dims, %true, %none : (!ts.tensor<f32, [4, 8, 3]>, !ts.list<!ts.int>, !ts.bool, !ts.none) -> !ts.tensor<f32, [4, 1, 3]>
  return %0 : !ts.tensor<f32, [4, 1, 3]>
}

// -----

// dim=None reduces every dim; dtype=float64 casts the elements.
// CHECK-LABEL: func.func @sum_dim_none_dtype(
// CHECK:         linalg.generic
// CHECK-SAME:        iterator_types = ["reduction", "reduction"]
// CHECK:           arith.extf %{{.+}} : f32 to f64
// CHECK:           arith.addf %{{.+}} : f64
// CHECK-NOT:     linalg.generic
func.func @sum_dim_none_dtype(%x: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f64, []> {
  %none = ts.prim.Constant : !ts.none
  %false = ts.prim.Constant[false] : !ts.bool
  %int7 = ts.prim.Constant[7] : !ts.int
  %0 = ts.aten.sum.dim_IntList %x, %none, %false, %int7 : (!ts.tensor<f32, [4, 8]>, !ts.none, !ts.bool, !ts.int) -> !ts.tensor<f64, []>
  return %0 : !ts.tensor<f64, []>
}

// -----

// CHECK-LABEL: func.func @mean_dim(
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK:         %[[N:.+]] = arith.constant 8.000000e+00 : f32
// CHECK:         %[[MEAN:.+]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel"]} ins(%[[SUM]] : tensor<4xf32>)
// CHECK:           arith.divf %{{.+}}, %[[N]] : f32
// CHECK:         return %[[MEAN]]
func.func @mean_dim(%x: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4]> {
  %none = ts.prim.Constant : !ts.none
  %int_m1 = ts.prim.Constant[-1] : !ts.int
  %dims = ts.prim.ListConstruct %int_m1 : (!ts.int) -> !ts.list<!ts.int>
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.aten.mean.dim %x, %dims, %false, %none : (!ts.tensor<f32, [4, 8]>, !ts.list<!ts.int>, !ts.bool, !ts.none) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// -----

// CHECK-LABEL: func.func @mean(
// CHECK:         linalg.generic
// CHECK-SAME:        iterator_types = ["reduction", "reduction"]
// CHECK:         %[[N:.+]] = arith.constant 3.200000e+01 : f32
// CHECK:         linalg.generic
// CHECK-SAME:        iterator_types = []
// CHECK:           arith.divf %{{.+}}, %[[N]] : f32
func.func @mean(%x: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, []> {
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.mean %x, %none : (!ts.tensor<f32, [4, 8]>, !ts.none) -> !ts.tensor<f32, []>
  return %0 : !ts.tensor<f32, []>
}

// -----

// CHECK-LABEL: func.func @prod(
// CHECK:         %[[ONE:.+]] = arith.constant 1 : i64
// CHECK:         linalg.fill ins(%[[ONE]] : i64)
// CHECK:         ^bb0(%[[IN:.+]]: i32, %[[ACC:.+]]: i64):
// CHECK:           %[[EXT:.+]] = arith.extsi %[[IN]] : i32 to i64
// CHECK:           arith.muli %[[EXT]], %[[ACC]] : i64
func.func @prod(%x: !ts.tensor<si32, [4, 8]>) -> !ts.tensor<si64, []> {
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.prod %x, %none : (!ts.tensor<si32, [4, 8]>, !ts.none) -> !ts.tensor<si64, []>
  return %0 : !ts.tensor<si64, []>
}

// -----

// amax propagates NaN (arith.maximumf) and starts at -inf.
// CHECK-DAG:   #[[OUT:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @amax(
// CHECK:         %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[INIT:.+]] = linalg.fill ins(%[[NEGINF]] : f32)
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #[[OUT]]], iterator_types = ["reduction", "parallel"]}
// CHECK-SAME:        outs(%[[INIT]] : tensor<8xf32>)
// CHECK:           arith.maximumf
func.func @amax(%x: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [8]> {
  %int0 = ts.prim.Constant[0] : !ts.int
  %dims = ts.prim.ListConstruct %int0 : (!ts.int) -> !ts.list<!ts.int>
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.aten.amax %x, %dims, %false : (!ts.tensor<f32, [4, 8]>, !ts.list<!ts.int>, !ts.bool) -> !ts.tensor<f32, [8]>
  return %0 : !ts.tensor<f32, [8]>
}

// -----

// CHECK-LABEL: func.func @amin_int(
// CHECK:         %[[MAXINT:.+]] = arith.constant 9223372036854775807 : i64
// CHECK:         linalg.fill ins(%[[MAXINT]] : i64)
// CHECK:         linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK:           arith.minsi
func.func @amin_int(%x: !ts.tensor<si64, [4, 8]>) -> !ts.tensor<si64, [4]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %dims = ts.prim.ListConstruct %int1 : (!ts.int) -> !ts.list<!ts.int>
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.aten.amin %x, %dims, %false : (!ts.tensor<si64, [4, 8]>, !ts.list<!ts.int>, !ts.bool) -> !ts.tensor<si64, [4]>
  return %0 : !ts.tensor<si64, [4]>
}

// -----

// CHECK-LABEL: func.func @max_min(
// CHECK:         arith.constant 0xFF800000 : f32
// CHECK:         linalg.generic
// CHECK-SAME:        iterator_types = ["reduction", "reduction"]
// CHECK:           arith.maximumf
// CHECK:         arith.constant 0x7F800000 : f32
// CHECK:         linalg.generic
// CHECK-SAME:        iterator_types = ["reduction", "reduction"]
// CHECK:           arith.minimumf
func.func @max_min(%x: !ts.tensor<f32, [4, 8]>) -> (!ts.tensor<f32, []>, !ts.tensor<f32, []>) {
  %0 = ts.aten.max %x : (!ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, []>
  %1 = ts.aten.min %x : (!ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, []>
  return %0, %1 : !ts.tensor<f32, []>, !ts.tensor<f32, []>
}

// -----

// CHECK-LABEL: func.func @all_any(
// CHECK:         %[[TRUE:.+]] = arith.constant true
// CHECK:         linalg.fill ins(%[[TRUE]] : i1)
// CHECK:         linalg.generic
// CHECK:           %[[NZ:.+]] = arith.cmpf une, %{{.+}}, %{{.+}} : f32
// CHECK:           arith.andi %[[NZ]], %{{.+}} : i1
// CHECK:         %[[FALSE:.+]] = arith.constant false
// CHECK:         linalg.fill ins(%[[FALSE]] : i1)
// CHECK:         linalg.generic
// CHECK:           arith.ori
func.func @all_any(%x: !ts.tensor<f32, [4, 8]>) -> (!ts.tensor<i1, []>, !ts.tensor<i1, []>) {
  %0 = ts.aten.all %x : (!ts.tensor<f32, [4, 8]>) -> !ts.tensor<i1, []>
  %1 = ts.aten.any %x : (!ts.tensor<f32, [4, 8]>) -> !ts.tensor<i1, []>
  return %0, %1 : !ts.tensor<i1, []>, !ts.tensor<i1, []>
}

// -----

// Values and first indices in one generic with two outputs.
// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[ROW:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @max_dim(
// CHECK:         %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[VINIT:.+]] = linalg.fill ins(%[[NEGINF]] : f32) {{.*}} -> tensor<4xf32>
// CHECK:         %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK:         %[[IINIT:.+]] = linalg.fill ins(%[[ZERO]] : i64) {{.*}} -> tensor<4xi64>
// CHECK:         %[[R:.+]]:2 = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ROW]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:        outs(%[[VINIT]], %[[IINIT]] : tensor<4xf32>, tensor<4xi64>)
// CHECK:         ^bb0(%[[IN:.+]]: f32, %[[V:.+]]: f32, %[[I:.+]]: i64):
// CHECK:           %[[IDX:.+]] = linalg.index 1 : index
// CHECK:           %[[IDX64:.+]] = arith.index_cast %[[IDX]] : index to i64
// CHECK:           %[[GT:.+]] = arith.cmpf ogt, %[[IN]], %[[V]] : f32
// CHECK:           %[[NAN:.+]] = arith.cmpf uno, %[[IN]], %[[IN]] : f32
// CHECK:           %[[ORD:.+]] = arith.cmpf ord, %[[V]], %[[V]] : f32
// CHECK:           %[[FIRSTNAN:.+]] = arith.andi %[[NAN]], %[[ORD]] : i1
// CHECK:           %[[TAKE:.+]] = arith.ori %[[GT]], %[[FIRSTNAN]] : i1
// CHECK:           %[[NV:.+]] = arith.select %[[TAKE]], %[[IN]], %[[V]] : f32
// CHECK:           %[[NI:.+]] = arith.select %[[TAKE]], %[[IDX64]], %[[I]] : i64
// CHECK:           linalg.yield %[[NV]], %[[NI]] : f32, i64
// CHECK:         %[[VALUES:.+]] = tensor.expand_shape %[[R]]#0 {{\[\[}}0, 1]] output_shape [4, 1]
// CHECK:         %[[INDICES:.+]] = tensor.expand_shape %[[R]]#1 {{\[\[}}0, 1]] output_shape [4, 1]
// CHECK:         return %[[VALUES]], %[[INDICES]] : tensor<4x1xf32>, tensor<4x1xi64>
func.func @max_dim(%x: !ts.tensor<f32, [4, 8]>) -> (!ts.tensor<f32, [4, 1]>, !ts.tensor<si64, [4, 1]>) {
  %int1 = ts.prim.Constant[1] : !ts.int
  %true = ts.prim.Constant[true] : !ts.bool
  %values, %indices = ts.aten.max.dim %x, %int1, %true : (!ts.tensor<f32, [4, 8]>, !ts.int, !ts.bool) -> (!ts.tensor<f32, [4, 1]>, !ts.tensor<si64, [4, 1]>)
  return %values, %indices : !ts.tensor<f32, [4, 1]>, !ts.tensor<si64, [4, 1]>
}

// -----

// CHECK-LABEL: func.func @min_dim_int(
// CHECK:         %[[MAXINT:.+]] = arith.constant 2147483647 : i32
// CHECK:         linalg.fill ins(%[[MAXINT]] : i32)
// CHECK:         %[[R:.+]]:2 = linalg.generic
// CHECK-SAME:        iterator_types = ["reduction", "parallel"]
// CHECK:           linalg.index 0 : index
// CHECK:           %[[LT:.+]] = arith.cmpi slt
// CHECK:           arith.select %[[LT]]
// CHECK:         return %[[R]]#0, %[[R]]#1 : tensor<8xi32>, tensor<8xi64>
func.func @min_dim_int(%x: !ts.tensor<si32, [4, 8]>) -> (!ts.tensor<si32, [8]>, !ts.tensor<si64, [8]>) {
  %int0 = ts.prim.Constant[0] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %values, %indices = ts.aten.min.dim %x, %int0, %false : (!ts.tensor<si32, [4, 8]>, !ts.int, !ts.bool) -> (!ts.tensor<si32, [8]>, !ts.tensor<si64, [8]>)
  return %values, %indices : !ts.tensor<si32, [8]>, !ts.tensor<si64, [8]>
}

// -----

// dim=None: the index into the flattened tensor.
// CHECK-LABEL: func.func @argmax_flat(
// CHECK:         %[[FLAT:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1]] : tensor<4x8xf32> into tensor<32xf32>
// CHECK:         %[[R:.+]]:2 = linalg.generic
// CHECK-SAME:        iterator_types = ["reduction"]
// CHECK-SAME:        ins(%[[FLAT]] : tensor<32xf32>)
// CHECK:           arith.cmpf ogt
// CHECK:         return %[[R]]#1 : tensor<i64>
func.func @argmax_flat(%x: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<si64, []> {
  %none = ts.prim.Constant : !ts.none
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.aten.argmax %x, %none, %false : (!ts.tensor<f32, [4, 8]>, !ts.none, !ts.bool) -> !ts.tensor<si64, []>
  return %0 : !ts.tensor<si64, []>
}

// -----

// CHECK-LABEL: func.func @argmin(
// CHECK:         arith.constant 0x7F800000 : f32
// CHECK:         %[[R:.+]]:2 = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK:           arith.cmpf olt
// CHECK:         return %[[R]]#1 : tensor<4xi64>
func.func @argmin(%x: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<si64, [4]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.aten.argmin %x, %int1, %false : (!ts.tensor<f32, [4, 8]>, !ts.int, !ts.bool) -> !ts.tensor<si64, [4]>
  return %0 : !ts.tensor<si64, [4]>
}

// -----

// Unbiased variance: a sum, a sum of squared deviations that recomputes the
// mean, and a division by N - 1 on the reduced shape.
// CHECK-LABEL: func.func @var(
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[N:.+]] = arith.constant 3.200000e+01 : f32
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK-SAME:        iterator_types = ["reduction", "reduction"]
// CHECK:           arith.addf
// CHECK:         %[[SQ:.+]] = linalg.generic
// CHECK-SAME:        iterator_types = ["reduction", "reduction"]
// CHECK-SAME:        ins(%{{.+}}, %[[SUM]] : tensor<4x8xf32>, tensor<f32>)
// CHECK:         ^bb0(%[[IN:.+]]: f32, %[[S:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK:           %[[MEAN:.+]] = arith.divf %[[S]], %[[N]] : f32
// CHECK:           %[[D:.+]] = arith.subf %[[IN]], %[[MEAN]] : f32
// CHECK:           %[[D2:.+]] = arith.mulf %[[D]], %[[D]] : f32
// CHECK:           arith.addf %[[D2]], %[[ACC]] : f32
// CHECK:         %[[NM1:.+]] = arith.constant 3.100000e+01 : f32
// CHECK:         %[[VAR:.+]] = linalg.generic
// CHECK-SAME:        ins(%[[SQ]] : tensor<f32>)
// CHECK:           arith.divf %{{.+}}, %[[NM1]] : f32
// CHECK:         return %[[VAR]]
func.func @var(%x: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, []> {
  %true = ts.prim.Constant[true] : !ts.bool
  %0 = ts.aten.var %x, %true : (!ts.tensor<f32, [4, 8]>, !ts.bool) -> !ts.tensor<f32, []>
  return %0 : !ts.tensor<f32, []>
}

// -----

// CHECK-LABEL: func.func @std_dim(
// CHECK:         linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK:         linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK:         %[[N:.+]] = arith.constant 8.000000e+00 : f32
// CHECK:         %[[STD:.+]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel"]
// CHECK:           %[[VAR:.+]] = arith.divf %{{.+}}, %[[N]] : f32
// CHECK:           math.sqrt %[[VAR]] : f32
// CHECK:         tensor.expand_shape %[[STD]] {{\[\[}}0, 1]] output_shape [4, 1]
func.func @std_dim(%x: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 1]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %dims = ts.prim.ListConstruct %int1 : (!ts.int) -> !ts.list<!ts.int>
  %false = ts.prim.Constant[false] : !ts.bool
  %true = ts.prim.Constant[true] : !ts.bool
  %0 = ts.aten.std.dim %x, %dims, %false, %true : (!ts.tensor<f32, [4, 8]>, !ts.list<!ts.int>, !ts.bool, !ts.bool) -> !ts.tensor<f32, [4, 1]>
  return %0 : !ts.tensor<f32, [4, 1]>
}

// -----

// CHECK-LABEL: func.func @var_correction(
// CHECK:         %[[N:.+]] = arith.constant 4.000000e+00 : f32
// CHECK:         linalg.generic
// CHECK-SAME:        iterator_types = ["reduction", "parallel"]
// CHECK:         linalg.generic
// CHECK-SAME:        iterator_types = ["reduction", "parallel"]
// CHECK:           arith.divf %{{.+}}, %[[N]] : f32
// CHECK:         %[[NMC:.+]] = arith.constant 2.000000e+00 : f32
// CHECK:         linalg.generic
// CHECK:           arith.divf %{{.+}}, %[[NMC]] : f32
func.func @var_correction(%x: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [8]> {
  %int0 = ts.prim.Constant[0] : !ts.int
  %dims = ts.prim.ListConstruct %int0 : (!ts.int) -> !ts.list<!ts.int>
  %int2 = ts.prim.Constant[2] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.aten.var.correction %x, %dims, %int2, %false : (!ts.tensor<f32, [4, 8]>, !ts.list<!ts.int>, !ts.int, !ts.bool) -> !ts.tensor<f32, [8]>
  return %0 : !ts.tensor<f32, [8]>
}

// -----

// softmax over the last dim: max, exp(x - max) computed once and kept, its
// sum, then the kept exponentials times 1/sum (a row loop, when fused, keeps
// a row of them in cache). With row-temporaries=false (the GPU's) exp(x -
// max) is computed again for the result and never stored. The max skips NaN
// (maxnumf, fewer instructions than maximumf): a NaN in a row still makes
// the row's sum, and so each of its outputs, NaN, as PyTorch's are.
// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[ROW:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME:      %[[X:.+]]: tensor<4x8xf32>)
// CHECK:         %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[MINIT:.+]] = linalg.fill ins(%[[NEGINF]] : f32) {{.*}} -> tensor<4xf32>
// CHECK:         %[[MAX:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:        ins(%[[X]] : tensor<4x8xf32>) outs(%[[MINIT]] : tensor<4xf32>)
// CHECK:           arith.maxnumf
// CHECK:         %[[EXPS:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins(%[[X]], %[[MAX]] : tensor<4x8xf32>, tensor<4xf32>)
// CHECK:         ^bb0(%[[IN:.+]]: f32, %[[M:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[SHIFTED:.+]] = arith.subf %[[IN]], %[[M]] : f32
// CHECK:           %[[E:.+]] = math.exp %[[SHIFTED]] : f32
// CHECK:           linalg.yield %[[E]] : f32
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[SINIT:.+]] = linalg.fill ins(%[[ZERO]] : f32) {{.*}} -> tensor<4xf32>
// CHECK:         %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME:        ins(%[[EXPS]] : tensor<4x8xf32>) outs(%[[SINIT]] : tensor<4xf32>)
// CHECK:         ^bb0(%[[IN1:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT:      arith.addf %[[IN1]], %[[ACC]] : f32
// CHECK:         %[[OUT:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins(%[[EXPS]], %[[SUM]] : tensor<4x8xf32>, tensor<4xf32>)
// CHECK:         ^bb0(%[[E2:.+]]: f32, %[[S2:.+]]: f32, %{{.+}}: f32):
// CHECK-NOT:       math.exp
// CHECK:           %[[R2:.+]] = arith.divf %{{.+}}, %[[S2]] : f32
// CHECK:           arith.mulf %[[E2]], %[[R2]] : f32
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[OUT]]
// RECOMPUTE-LABEL: func.func @softmax(
// RECOMPUTE:         arith.maxnumf
// RECOMPUTE:         %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// RECOMPUTE:           math.exp
// RECOMPUTE:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}}ins(%{{.+}}, %{{.+}}, %[[SUM]] :
// RECOMPUTE:           math.exp
// RECOMPUTE:           arith.mulf
// RECOMPUTE-NOT:     linalg.generic
// RECOMPUTE:         return
func.func @softmax(%x: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 8]> {
  %none = ts.prim.Constant : !ts.none
  %int_m1 = ts.prim.Constant[-1] : !ts.int
  %0 = ts.aten.softmax.int %x, %int_m1, %none : (!ts.tensor<f32, [4, 8]>, !ts.int, !ts.none) -> !ts.tensor<f32, [4, 8]>
  return %0 : !ts.tensor<f32, [4, 8]>
}

// -----

// CHECK-DAG:   #[[COL:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @log_softmax(
// CHECK:         %[[MAX:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #[[COL]]], iterator_types = ["reduction", "parallel"]}
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK-SAME:        iterator_types = ["reduction", "parallel"]
// CHECK:           math.exp
// CHECK:         linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "parallel"]
// CHECK-SAME:        ins(%{{.+}}, %[[MAX]], %[[SUM]] :
// CHECK:         ^bb0(%[[IN:.+]]: f32, %[[M:.+]]: f32, %[[S:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[SHIFTED:.+]] = arith.subf %[[IN]], %[[M]] : f32
// CHECK:           %[[LOG:.+]] = math.log %[[S]] : f32
// CHECK:           arith.subf %[[SHIFTED]], %[[LOG]] : f32
func.func @log_softmax(%x: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 8]> {
  %none = ts.prim.Constant : !ts.none
  %int0 = ts.prim.Constant[0] : !ts.int
  %0 = ts.aten.log_softmax.int %x, %int0, %none : (!ts.tensor<f32, [4, 8]>, !ts.int, !ts.none) -> !ts.tensor<f32, [4, 8]>
  return %0 : !ts.tensor<f32, [4, 8]>
}

// -----

// half_to_float: f16 in, f32 out.
// CHECK-LABEL: func.func @_softmax_half(
// CHECK:         linalg.generic
// CHECK-SAME:        outs(%{{.+}} : tensor<4xf32>)
// CHECK:         ^bb0(%[[IN:.+]]: f16, %{{.+}}: f32):
// CHECK:           arith.extf %[[IN]] : f16 to f32
// CHECK:           arith.maxnumf
// CHECK:         linalg.generic
// CHECK-SAME:        outs(%{{.+}} : tensor<4x8xf32>)
// CHECK:           math.exp
// CHECK:         linalg.generic
// CHECK-SAME:        outs(%{{.+}} : tensor<4xf32>)
// CHECK:         linalg.generic
// CHECK-SAME:        outs(%{{.+}} : tensor<4x8xf32>)
func.func @_softmax_half(%x: !ts.tensor<f16, [4, 8]>) -> !ts.tensor<f32, [4, 8]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %true = ts.prim.Constant[true] : !ts.bool
  %0 = ts.aten._softmax %x, %int1, %true : (!ts.tensor<f16, [4, 8]>, !ts.int, !ts.bool) -> !ts.tensor<f32, [4, 8]>
  return %0 : !ts.tensor<f32, [4, 8]>
}

// -----

// CHECK-LABEL: func.func @logsumexp(
// CHECK:         %[[MAX:.+]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK:           arith.maximumf
// CHECK-DAG:     %[[INF:.+]] = arith.constant 0x7F800000 : f32
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[SHIFT:.+]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel"]} ins(%[[MAX]] : tensor<4xf32>)
// CHECK:         ^bb0(%[[M:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[ABS:.+]] = math.absf %[[M]] : f32
// CHECK:           %[[ISINF:.+]] = arith.cmpf oeq, %[[ABS]], %[[INF]] : f32
// CHECK:           arith.select %[[ISINF]], %[[ZERO]], %[[M]] : f32
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK-SAME:        ins(%{{.+}}, %[[SHIFT]] : tensor<4x8xf32>, tensor<4xf32>)
// CHECK:           arith.subf
// CHECK:           math.exp
// CHECK:         linalg.generic
// CHECK-SAME:        iterator_types = ["parallel"]
// CHECK-SAME:        ins(%[[SUM]], %[[SHIFT]] : tensor<4xf32>, tensor<4xf32>)
// CHECK:           math.log
// CHECK:           arith.addf
func.func @logsumexp(%x: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %dims = ts.prim.ListConstruct %int1 : (!ts.int) -> !ts.list<!ts.int>
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.aten.logsumexp %x, %dims, %false : (!ts.tensor<f32, [4, 8]>, !ts.list<!ts.int>, !ts.bool) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// -----

// layer_norm over the last dim: two reductions, one elementwise generic
// reading weight and bias along the normalised dim, rounding as ATen's
// kernel does: fma(fma(x, rstd, -(rstd * mean)), weight, bias), rstd =
// 1 / sqrt(var + eps).
// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[ROWS:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[LAST:.+]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @layer_norm(
// CHECK-SAME:      %[[X:.+]]: tensor<4x6x8xf32>, %[[W:.+]]: tensor<8xf32>, %[[B:.+]]: tensor<8xf32>)
// CHECK:         %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROWS]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:         %[[SQ:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROWS]], #[[ROWS]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME:        ins(%[[X]], %[[SUM]] :
// CHECK:         %[[EPS:.+]] = arith.truncf %{{.+}} : f64 to f32
// CHECK:         %[[N:.+]] = arith.constant 8.000000e+00 : f32
// CHECK:         %[[OUT:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROWS]], #[[ROWS]], #[[LAST]], #[[LAST]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:        ins(%[[X]], %[[SUM]], %[[SQ]], %[[W]], %[[B]] :
// CHECK:         ^bb0(%[[IN:.+]]: f32, %[[S:.+]]: f32, %[[Q:.+]]: f32, %[[WE:.+]]: f32, %[[BE:.+]]: f32, %{{.+}}: f32):
// CHECK:           %[[MEAN:.+]] = arith.divf %[[S]], %[[N]] : f32
// CHECK:           %[[VAR:.+]] = arith.divf %[[Q]], %[[N]] : f32
// CHECK:           %[[VE:.+]] = arith.addf %[[VAR]], %[[EPS]] : f32
// CHECK:           %[[STD:.+]] = math.sqrt %[[VE]] : f32
// CHECK:           %[[RSTD:.+]] = arith.divf %{{.+}}, %[[STD]] : f32
// CHECK:           %[[RM:.+]] = arith.mulf %[[RSTD]], %[[MEAN]] : f32
// CHECK:           %[[SHIFT:.+]] = arith.negf %[[RM]] : f32
// CHECK:           %[[NORM:.+]] = math.fma %[[IN]], %[[RSTD]], %[[SHIFT]] : f32
// CHECK:           %[[Y:.+]] = math.fma %[[NORM]], %[[WE]], %[[BE]] : f32
// CHECK:           linalg.yield %[[Y]]
// CHECK:         return %[[OUT]]
func.func @layer_norm(%x: !ts.tensor<f32, [4, 6, 8]>, %w: !ts.tensor<f32, [8]>, %b: !ts.tensor<f32, [8]>) -> !ts.tensor<f32, [4, 6, 8]> {
  %int8 = ts.prim.Constant[8] : !ts.int
  %shape = ts.prim.ListConstruct %int8 : (!ts.int) -> !ts.list<!ts.int>
  %eps = ts.prim.Constant[1.0e-05] : !ts.float
  %true = ts.prim.Constant[true] : !ts.bool
  %0 = ts.aten.layer_norm %x, %shape, %w, %b, %eps, %true : (!ts.tensor<f32, [4, 6, 8]>, !ts.list<!ts.int>, !ts.tensor<f32, [8]>, !ts.tensor<f32, [8]>, !ts.float, !ts.bool) -> !ts.tensor<f32, [4, 6, 8]>
  return %0 : !ts.tensor<f32, [4, 6, 8]>
}

// -----

// Over the last two dims, without weight and bias.
// CHECK-DAG:   #[[ROW:.+]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-LABEL: func.func @layer_norm_no_affine(
// CHECK:         %[[N:.+]] = arith.constant 4.800000e+01 : f32
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #[[ROW]]], iterator_types = ["parallel", "reduction", "reduction"]}
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #[[ROW]], #[[ROW]]], iterator_types = ["parallel", "reduction", "reduction"]}
// CHECK:           arith.divf %{{.+}}, %[[N]] : f32
// CHECK:         linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "parallel"]
// CHECK:           math.sqrt
// CHECK:           %[[NORM:.+]] = math.fma
// CHECK-NEXT:      linalg.yield %[[NORM]]
func.func @layer_norm_no_affine(%x: !ts.tensor<f32, [4, 6, 8]>) -> !ts.tensor<f32, [4, 6, 8]> {
  %int6 = ts.prim.Constant[6] : !ts.int
  %int8 = ts.prim.Constant[8] : !ts.int
  %shape = ts.prim.ListConstruct %int6, %int8 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %none = ts.prim.Constant : !ts.none
  %eps = ts.prim.Constant[1.0e-05] : !ts.float
  %true = ts.prim.Constant[true] : !ts.bool
  %0 = ts.aten.layer_norm %x, %shape, %none, %none, %eps, %true : (!ts.tensor<f32, [4, 6, 8]>, !ts.list<!ts.int>, !ts.none, !ts.none, !ts.float, !ts.bool) -> !ts.tensor<f32, [4, 6, 8]>
  return %0 : !ts.tensor<f32, [4, 6, 8]>
}

// -----

// CHECK-LABEL: func.func @native_layer_norm(
// CHECK:         %[[SUM:.+]] = linalg.generic
// CHECK:         %[[SQ:.+]] = linalg.generic
// CHECK:         %[[OUT:.+]] = linalg.generic
// CHECK:         %[[MEAN:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<4xf32>)
// CHECK:           arith.divf
// CHECK:         %[[RSTD:.+]] = linalg.generic {{.*}} ins(%[[SQ]] : tensor<4xf32>)
// CHECK:           math.sqrt
// CHECK:           arith.divf
// CHECK:         %[[M:.+]] = tensor.expand_shape %[[MEAN]] {{\[\[}}0, 1]] output_shape [4, 1]
// CHECK:         %[[R:.+]] = tensor.expand_shape %[[RSTD]] {{\[\[}}0, 1]] output_shape [4, 1]
// CHECK:         return %[[OUT]], %[[M]], %[[R]]
func.func @native_layer_norm(%x: !ts.tensor<f32, [4, 8]>, %w: !ts.tensor<f32, [8]>) -> (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [4, 1]>, !ts.tensor<f32, [4, 1]>) {
  %int8 = ts.prim.Constant[8] : !ts.int
  %shape = ts.prim.ListConstruct %int8 : (!ts.int) -> !ts.list<!ts.int>
  %none = ts.prim.Constant : !ts.none
  %eps = ts.prim.Constant[1.0e-05] : !ts.float
  %0:3 = ts.aten.native_layer_norm %x, %shape, %w, %none, %eps : (!ts.tensor<f32, [4, 8]>, !ts.list<!ts.int>, !ts.tensor<f32, [8]>, !ts.none, !ts.float) -> (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [4, 1]>, !ts.tensor<f32, [4, 1]>)
  return %0#0, %0#1, %0#2 : !ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [4, 1]>, !ts.tensor<f32, [4, 1]>
}

// -----

// group_norm: the channels split into [groups, channels / groups].
// CHECK-DAG:   #[[GROUP:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-DAG:   #[[CHANNEL:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
// CHECK-LABEL: func.func @group_norm(
// CHECK:         %[[X:.+]] = tensor.expand_shape %{{.+}} {{\[\[}}0], [1, 2], [3]] output_shape [2, 3, 2, 4]
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #[[GROUP]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #[[GROUP]], #[[GROUP]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// CHECK:         %[[W:.+]] = tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [3, 2]
// CHECK:         %[[B:.+]] = tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [3, 2]
// CHECK:         %[[N:.+]] = arith.constant 8.000000e+00 : f32
// CHECK:         %[[OUT:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #[[GROUP]], #[[GROUP]], #[[CHANNEL]], #[[CHANNEL]], #{{.+}}]
// CHECK-SAME:        ins(%[[X]], %{{.+}}, %{{.+}}, %[[W]], %[[B]] :
// CHECK:           arith.divf %{{.+}}, %[[N]] : f32
// CHECK:         tensor.collapse_shape %[[OUT]] {{\[\[}}0], [1, 2], [3]] : tensor<2x3x2x4xf32> into tensor<2x6x4xf32>
func.func @group_norm(%x: !ts.tensor<f32, [2, 6, 4]>, %w: !ts.tensor<f32, [6]>, %b: !ts.tensor<f32, [6]>) -> !ts.tensor<f32, [2, 6, 4]> {
  %int3 = ts.prim.Constant[3] : !ts.int
  %eps = ts.prim.Constant[1.0e-05] : !ts.float
  %true = ts.prim.Constant[true] : !ts.bool
  %0 = ts.aten.group_norm %x, %int3, %w, %b, %eps, %true : (!ts.tensor<f32, [2, 6, 4]>, !ts.int, !ts.tensor<f32, [6]>, !ts.tensor<f32, [6]>, !ts.float, !ts.bool) -> !ts.tensor<f32, [2, 6, 4]>
  return %0 : !ts.tensor<f32, [2, 6, 4]>
}

// -----

// The errors: an op whose pattern refuses it is reported by the conversion.

// PyTorch's mean of an integer tensor is an error.
func.func @mean_int(%x: !ts.tensor<si64, [4, 8]>) -> !ts.tensor<si64, []> {
  %none = ts.prim.Constant : !ts.none
  // expected-error @+1 {{'aten::mean' cannot be compiled with these arguments}}
  %0 = ts.aten.mean %x, %none : (!ts.tensor<si64, [4, 8]>, !ts.none) -> !ts.tensor<si64, []>
  return %0 : !ts.tensor<si64, []>
}

// -----

// The dims of a reduction must be constants.
func.func @sum_dynamic_dim(%x: !ts.tensor<f32, [4, 8]>, %d: !ts.int) -> !ts.tensor<f32, [4]> {
  %none = ts.prim.Constant : !ts.none
  %false = ts.prim.Constant[false] : !ts.bool
  %dims = ts.prim.ListConstruct %d : (!ts.int) -> !ts.list<!ts.int>
  // expected-error @+1 {{'aten::sum.dim_IntList' cannot be compiled with these arguments}}
  %0 = ts.aten.sum.dim_IntList %x, %dims, %false, %none : (!ts.tensor<f32, [4, 8]>, !ts.list<!ts.int>, !ts.bool, !ts.none) -> !ts.tensor<f32, [4]>
  return %0 : !ts.tensor<f32, [4]>
}

// -----

// normalized_shape must be the input's trailing shape.
func.func @layer_norm_bad_shape(%x: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 8]> {
  %int4 = ts.prim.Constant[4] : !ts.int
  %shape = ts.prim.ListConstruct %int4 : (!ts.int) -> !ts.list<!ts.int>
  %none = ts.prim.Constant : !ts.none
  %eps = ts.prim.Constant[1.0e-05] : !ts.float
  %true = ts.prim.Constant[true] : !ts.bool
  // expected-error @+1 {{'aten::layer_norm' cannot be compiled with these arguments}}
  %0 = ts.aten.layer_norm %x, %shape, %none, %none, %eps, %true : (!ts.tensor<f32, [4, 8]>, !ts.list<!ts.int>, !ts.none, !ts.none, !ts.float, !ts.bool) -> !ts.tensor<f32, [4, 8]>
  return %0 : !ts.tensor<f32, [4, 8]>
}

// -----

// cumsum: a loop over dim carries each row's accumulator, in f64 for f32
// (PyTorch's CPU accumulation type), and the result; each step adds one
// slice and inserts the sums, rounded.
// CHECK-LABEL: func.func @cumsum(
// CHECK:     %[[ACC:.+]] = linalg.fill ins(%{{.+}} : f64) outs(%{{.+}} : tensor<3xf64>)
// CHECK:     %[[SCAN:.+]]:2 = scf.for %[[I:.+]] = %c0 to %c4 step %c1 iter_args(%[[SUMS:.+]] = %[[ACC]], %[[OUT:.+]] = %{{.+}}) -> (tensor<3xf64>, tensor<3x4xf32>)
// CHECK:       %[[COLUMN:.+]] = tensor.extract_slice %arg0[0, %[[I]]] [3, 1] [1, 1] : tensor<3x4xf32> to tensor<3xf32>
// CHECK:       %[[NEXT:.+]] = linalg.generic {{.*}} ins(%[[COLUMN]] : tensor<3xf32>) outs(%[[SUMS]] : tensor<3xf64>)
// CHECK:         arith.extf
// CHECK:         arith.addf {{.*}} : f64
// CHECK:       %[[ROUNDED:.+]] = linalg.generic {{.*}} ins(%[[NEXT]] : tensor<3xf64>)
// CHECK:         arith.truncf {{.*}} : f64 to f32
// CHECK:       %[[INSERTED:.+]] = tensor.insert_slice %[[ROUNDED]] into %[[OUT]][0, %[[I]]] [3, 1] [1, 1]
// CHECK:       scf.yield %[[NEXT]], %[[INSERTED]]
// CHECK:     return %[[SCAN]]#1
func.func @cumsum(%x: !ts.tensor<f32, [3, 4]>) -> !ts.tensor<f32, [3, 4]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.cumsum %x, %int1, %none : (!ts.tensor<f32, [3, 4]>, !ts.int, !ts.none) -> !ts.tensor<f32, [3, 4]>
  return %0 : !ts.tensor<f32, [3, 4]>
}

// -----

// cumprod of ints: Long products from 1, the rows of a 1-D tensor 0-d.
// CHECK-LABEL: func.func @cumprod(
// CHECK:     %[[ONE:.+]] = arith.constant 1 : i64
// CHECK:     linalg.fill ins(%[[ONE]] : i64) outs(%{{.+}} : tensor<i64>)
// CHECK:     scf.for
// CHECK:       tensor.extract_slice %arg0[%{{.+}}] [1] [1] : tensor<5xi64> to tensor<i64>
// CHECK:       arith.muli
func.func @cumprod(%x: !ts.tensor<si64, [5]>) -> !ts.tensor<si64, [5]> {
  %int0 = ts.prim.Constant[0] : !ts.int
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.cumprod %x, %int0, %none : (!ts.tensor<si64, [5]>, !ts.int, !ts.none) -> !ts.tensor<si64, [5]>
  return %0 : !ts.tensor<si64, [5]>
}
