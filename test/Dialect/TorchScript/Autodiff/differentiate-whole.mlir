// RUN: tsmlir-opt %s --ts-optimize="keep=ts.aten.linalg_eigvalsh,ts.aten.matrix_exp" --ts-differentiate="func=f joint=true" | FileCheck %s
// RUN: not tsmlir-opt %s --ts-optimize --ts-differentiate="func=f joint=true" 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: not tsmlir-opt %s --ts-optimize="keep=ts.aten.nope" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// Ops whose decompositions are loops (Jacobi sweeps, matrix_exp's
// squarings) are differentiated whole when ts-optimize keeps them: their
// types come from their shape rules, and their formulas (PyTorch's) build
// the backward from an eigh of the same matrix (V diag(g) V^T) and from the
// exponential of the block matrix [[A^T, G], [0, A^T]].
// CHECK-LABEL: func.func @f(
// CHECK-SAME:      %[[A:[^:]+]]: !ts.tensor<f64, [4, 4]>, %[[GL:[^:]+]]: !ts.tensor<f64, [4]>, %[[GE:[^:]+]]: !ts.tensor<f64, [4, 4]>)
// CHECK:         %[[L:.+]] = ts.aten.linalg_eigvalsh %[[A]], %{{.+}} -> !ts.tensor<f64, [4]>
// CHECK:         %[[E:.+]] = ts.aten.matrix_exp %[[A]] : (!ts.tensor<f64, [4, 4]>) -> !ts.tensor<f64, [4, 4]>
// CHECK:         %[[AT:.+]] = ts.aten.transpose.int %[[A]]
// CHECK:         ts.prim.ListConstruct %[[AT]], %[[GE]]
// CHECK:         %[[BLOCK:.+]] = ts.aten.linalg_matrix_exp
// CHECK:         %[[TOP:.+]] = ts.aten.narrow %[[BLOCK]]
// CHECK:         %[[GA1:.+]] = ts.aten.narrow %[[TOP]]
// CHECK:         %[[EIGH:.+]]:2 = ts.aten.linalg_eigh %[[A]]
// CHECK:         ts.aten.unsqueeze %[[GL]]
// CHECK:         %[[GA2:.+]] = ts.aten.matmul
// CHECK:         %[[GA:.+]] = ts.aten.add.Tensor %[[GA1]], %[[GA2]]
// CHECK:         return %[[L]], %[[E]], %[[GA]]

// Decomposed first, they are loops, which are not differentiated.
// LOOP: error: cannot differentiate 'prim::Loop': a loop on the gradient's path is not supported

// UNKNOWN: error: ts-decompose: 'ts.aten.nope' (keep) is not an op
func.func @f(%a: !ts.tensor<f64, [4, 4]>) -> (!ts.tensor, !ts.tensor) {
  %uplo = ts.prim.Constant["L"] : !ts.str
  %0 = ts.aten.linalg_eigvalsh %a, %uplo : (!ts.tensor<f64, [4, 4]>, !ts.str) -> !ts.tensor
  %1 = ts.aten.matrix_exp %a : (!ts.tensor<f64, [4, 4]>) -> !ts.tensor
  return %0, %1 : !ts.tensor, !ts.tensor
}
