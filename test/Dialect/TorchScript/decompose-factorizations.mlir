// RUN: tsmlir-opt %s -split-input-file --ts-optimize | FileCheck %s

// LU: the pivot is the first largest |x| of the column below the diagonal
// (argmax), rows are exchanged by a gather, the multipliers scaled by the
// pivot's reciprocal, the trailing matrix updated; one step per column.
// LAPACK's 1-based pivots as Int.
// CHECK-LABEL: func.func @lu_factor(
// CHECK-SAME:      -> (!ts.tensor<f64, [3, 3]>, !ts.tensor<si32, [3]>)
// CHECK:         ts.aten.argmax {{.*}} -> !ts.tensor<si64, []>
// CHECK:         %[[ROWS:.+]] = ts.aten.gather %arg0, %int0, {{.*}} -> !ts.tensor<f64, [3, 3]>
// CHECK:         ts.aten.reciprocal
// CHECK:         ts.aten.argmax {{.*}} : (!ts.tensor<f64, [2]>, !ts.int, !ts.bool)
// CHECK:         ts.aten.argmax {{.*}} : (!ts.tensor<f64, [1]>, !ts.int, !ts.bool)
// CHECK:         %[[PIVOTS:.+]] = ts.aten.to.dtype {{.*}} -> !ts.tensor<si32, [3]>
// CHECK:         return %{{.+}}, %[[PIVOTS]]
// CHECK-NOT:     linalg_lu_factor
func.func @lu_factor(%a: !ts.tensor<f64, [3, 3]>) -> (!ts.tensor, !ts.tensor) {
  %true = ts.prim.Constant[true] : !ts.bool
  %0:2 = ts.aten.linalg_lu_factor %a, %true : (!ts.tensor<f64, [3, 3]>, !ts.bool) -> (!ts.tensor, !ts.tensor)
  return %0#0, %0#1 : !ts.tensor, !ts.tensor
}

// -----

// Cholesky: column j is A[:, j] minus the columns before it times their row
// j; its diagonal element the square root d, the rows below times 1 / d,
// the rows above zero.
// CHECK-LABEL: func.func @cholesky(
// CHECK-DAG:     %[[BELOW1:.+]] = ts.prim.Constant[dense<[false, true]> : tensor<2xi1>]
// CHECK-DAG:     %[[NONE:.+]] = ts.prim.Constant[dense<false> : tensor<2xi1>]
// CHECK-DAG:     %[[AT0:.+]] = ts.prim.Constant[dense<[true, false]> : tensor<2xi1>]
// CHECK:         %[[C0:.+]] = ts.aten.select.int %arg0, %int1, %int0
// CHECK:         %[[A00:.+]] = ts.aten.select.int %[[C0]], %int0, %int0
// CHECK:         %[[D0:.+]] = ts.aten.sqrt %[[A00]]
// CHECK:         %[[R0:.+]] = ts.aten.reciprocal %[[D0]]
// CHECK:         %[[S0:.+]] = ts.aten.mul.Tensor %[[C0]], %{{.+}}
// CHECK:         %[[W0:.+]] = ts.aten.where.self %[[AT0]], %{{.+}}, %[[S0]]
// CHECK:         %[[L0:.+]] = ts.aten.where.ScalarSelf %[[NONE]], %float, %[[W0]]
// CHECK:         %[[C1:.+]] = ts.aten.select.int %arg0, %int1, %int1
// CHECK:         %[[DONE:.+]] = ts.aten.stack %{{.+}}, %int1 : {{.*}} -> !ts.tensor<f32, [2, 1]>
// CHECK:         ts.aten.matmul %[[DONE]]
// CHECK:         %[[V1:.+]] = ts.aten.sub.Tensor %[[C1]]
// CHECK:         ts.aten.sqrt
// CHECK:         ts.aten.where.self %[[BELOW1]]
// CHECK:         %[[L:.+]] = ts.aten.stack %{{.+}}, %int1 : {{.*}} -> !ts.tensor<f32, [2, 2]>
// CHECK:         return %[[L]]
func.func @cholesky(%a: !ts.tensor<f32, [2, 2]>) -> !ts.tensor {
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.aten.linalg_cholesky %a, %false : (!ts.tensor<f32, [2, 2]>, !ts.bool) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// Householder QR: each reflector's beta is -sign(alpha) hypot(alpha, |x|),
// and it is applied to the whole matrix (the columns on the right kept).
// CHECK-LABEL: func.func @geqrf(
// CHECK-SAME:      -> (!ts.tensor<f64, [3, 2]>, !ts.tensor<f64, [2]>)
// CHECK:         %[[H0:.+]] = ts.aten.hypot %[[ALPHA0:.+]], %{{.+}} :
// CHECK:         ts.aten.copysign.Tensor %[[H0]], %[[ALPHA0]]
// CHECK:         ts.aten.matmul {{.*}} -> !ts.tensor<f64, [1, 2]>
// CHECK:         %[[H1:.+]] = ts.aten.hypot %[[ALPHA1:.+]], %{{.+}} :
// CHECK:         ts.aten.copysign.Tensor %[[H1]], %[[ALPHA1]]
// CHECK-NOT:     ts.aten.geqrf
func.func @geqrf(%a: !ts.tensor<f64, [3, 2]>) -> (!ts.tensor, !ts.tensor) {
  %0:2 = ts.aten.geqrf %a : (!ts.tensor<f64, [3, 2]>) -> (!ts.tensor, !ts.tensor)
  return %0#0, %0#1 : !ts.tensor, !ts.tensor
}

// -----

// Singular values: a loop of 10 Jacobi sweeps (float) carrying the matrix
// and V, each rotating the 3 pairs of columns, then the columns' norms
// sorted in descending order.
// CHECK-LABEL: func.func @svdvals(
// CHECK:         %[[LOOP:.+]]:2 = ts.prim.Loop %int10, %true init(%arg0, %{{.+}}) : {{.*}} -> (!ts.tensor<f32, [4, 3]>, !ts.tensor<f32, [3, 3]>)
// CHECK-COUNT-6: ts.aten.sqrt
// CHECK:         ts.prim.Yield %true
// CHECK:         ts.aten.sqrt {{.*}} -> !ts.tensor<f32, [3]>
// CHECK:         ts.aten.sort.stable
// CHECK:         return {{.*}} : !ts.tensor<f32, [3]>
func.func @svdvals(%a: !ts.tensor<f32, [4, 3]>) -> !ts.tensor {
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.linalg_svdvals %a, %none : (!ts.tensor<f32, [4, 3]>, !ts.none) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// lstsq of a tall matrix with gelsd: one SVD's loop; the solution pinv(A) B,
// the squared residuals of the columns (m > n), the rank and the singular
// values.
// CHECK-LABEL: func.func @lstsq_gelsd(
// CHECK-NOT:     ts.aten.linalg_lstsq
// CHECK:         ts.prim.Loop
// CHECK-NOT:     ts.prim.Loop
// CHECK:         return {{.*}} : !ts.tensor<f32, [3, 2]>, !ts.tensor<f32, [2]>, !ts.tensor<si64, []>, !ts.tensor<f32, [3]>
func.func @lstsq_gelsd(%a: !ts.tensor<f32, [4, 3]>, %b: !ts.tensor<f32, [4, 2]>) -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor) {
  %none = ts.prim.Constant : !ts.none
  %driver = ts.prim.Constant["gelsd"] : !ts.str
  %0:4 = ts.aten.linalg_lstsq %a, %b, %none, %driver : (!ts.tensor<f32, [4, 3]>, !ts.tensor<f32, [4, 2]>, !ts.none, !ts.str) -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor)
  return %0#0, %0#1, %0#2, %0#3 : !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor
}

// -----

// lstsq with the default driver (gelsy): the rank, no residuals and no
// singular values (empty tensors).
// CHECK-LABEL: func.func @lstsq_gelsy(
// CHECK:         return {{.*}} : !ts.tensor<f64, [2, 3, 2]>, !ts.tensor<f64, [0]>, !ts.tensor<si64, [2]>, !ts.tensor<f64, [0]>
func.func @lstsq_gelsy(%a: !ts.tensor<f64, [2, 4, 3]>, %b: !ts.tensor<f64, [2, 4, 2]>) -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor) {
  %none = ts.prim.Constant : !ts.none
  %0:4 = ts.aten.linalg_lstsq %a, %b, %none, %none : (!ts.tensor<f64, [2, 4, 3]>, !ts.tensor<f64, [2, 4, 2]>, !ts.none, !ts.none) -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor)
  return %0#0, %0#1, %0#2, %0#3 : !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor
}

// -----

// symeig without eigenvectors: eigh's values, and an empty tensor for the
// vectors.
// CHECK-LABEL: func.func @symeig_values_only(
// CHECK-NOT:     ts.aten.symeig
// CHECK:         ts.prim.Loop
// CHECK:         %[[EMPTY:.+]] = ts.aten.zeros {{.*}} -> !ts.tensor<f64, [0]>
// CHECK:         return %{{.+}}, %[[EMPTY]] : !ts.tensor<f64, [3]>, !ts.tensor<f64, [0]>
func.func @symeig_values_only(%a: !ts.tensor<f64, [3, 3]>) -> (!ts.tensor, !ts.tensor) {
  %false = ts.prim.Constant[false] : !ts.bool
  %true = ts.prim.Constant[true] : !ts.bool
  %0:2 = ts.aten.symeig %a, %false, %true : (!ts.tensor<f64, [3, 3]>, !ts.bool, !ts.bool) -> (!ts.tensor, !ts.tensor)
  return %0#0, %0#1 : !ts.tensor, !ts.tensor
}

// -----

// matrix_exp: each matrix scaled by 2^-s, s = max(0, ceil(log2(|A|_1 /
// theta_18))) (the 1-norm: the largest column sum of |A|); the degree-18
// Taylor polynomial by Horner's rule (I + A/18, then I + A P / k); squared
// in a loop to the batch's largest s, each matrix while its own s lasts. A
// 1x1 matrix is exp of its element.
// CHECK-LABEL: func.func @matrix_exp(
// CHECK-SAME:      %[[A:[^:]+]]: !ts.tensor<f64, [2, 3, 3]>, %[[B:[^:]+]]: !ts.tensor<f32, [1, 1]>)
// CHECK-DAG:     %[[THETA:.+]] = ts.prim.Constant[1.0908637192900359] : !ts.float
// CHECK:         %[[ABS:.+]] = ts.aten.abs %[[A]]
// CHECK:         %[[COLS:.+]] = ts.aten.sum.dim_IntList %[[ABS]]{{.*}} -> !ts.tensor<f64, [2, 3]>
// CHECK:         %[[NORM:.+]] = ts.aten.amax %[[COLS]]{{.*}} -> !ts.tensor<f64, [2]>
// CHECK:         %[[RATIO:.+]] = ts.aten.div.Scalar %[[NORM]], %[[THETA]]
// CHECK:         %[[LOG:.+]] = ts.aten.log2 %[[RATIO]]
// CHECK:         %[[CEIL:.+]] = ts.aten.ceil %[[LOG]]
// CHECK:         %[[S:.+]] = ts.aten.clamp_min %[[CEIL]]
// CHECK:         %[[SCALED:.+]] = ts.aten.mul.Tensor %[[A]]
// CHECK-COUNT-17: ts.aten.matmul %[[SCALED]]
// CHECK:         %[[MAX:.+]] = ts.aten.max %[[S]]
// CHECK:         %[[TRIPS:.+]] = ts.aten.Int.Tensor %[[MAX]]
// CHECK:         %[[R:.+]] = ts.prim.Loop %[[TRIPS]]
// CHECK:         ^bb0(%[[I:.+]]: !ts.int, %[[M:.+]]: !ts.tensor<f64, [2, 3, 3]>):
// CHECK:           %[[MORE:.+]] = ts.aten.gt.Scalar %{{.+}}, %[[I]]
// CHECK:           %[[SQ:.+]] = ts.aten.matmul %[[M]], %[[M]]
// CHECK:           ts.aten.where.self %[[MORE]], %[[SQ]], %[[M]]
// CHECK:         %[[E:.+]] = ts.aten.exp %[[B]]
// CHECK:         return %[[R]], %[[E]]
func.func @matrix_exp(%a: !ts.tensor<f64, [2, 3, 3]>, %b: !ts.tensor<f32, [1, 1]>) -> (!ts.tensor, !ts.tensor) {
  %0 = ts.aten.matrix_exp %a : (!ts.tensor<f64, [2, 3, 3]>) -> !ts.tensor
  %1 = ts.aten.linalg_matrix_exp %b : (!ts.tensor<f32, [1, 1]>) -> !ts.tensor
  return %0, %1 : !ts.tensor, !ts.tensor
}
