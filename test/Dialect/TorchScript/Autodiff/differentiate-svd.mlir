// RUN: tsmlir-opt %s --ts-optimize=keep=ts.aten.svd --ts-differentiate="func=f joint=true" | FileCheck %s

// svd's formula on a tall matrix with full U (some = false): the upstream
// gradient of U and U itself cut to the leading min(m, n) = 3 columns, V's
// transposed into Vh's, PyTorch's svd_backward on them, then the tall
// matrix's extra term (gU S^-1 projected off U's columns). The sizes come
// from the op's results and operand, not from the gradients' types, which
// formulas leave unrefined.
// CHECK-LABEL: func.func @f(
// CHECK-SAME:      %[[A:[^:]+]]: !ts.tensor<f64, [5, 3]>, %[[GU:[^:]+]]: !ts.tensor<f64, [5, 5]>, %[[GS:[^:]+]]: !ts.tensor<f64, [3]>, %[[GV:[^:]+]]: !ts.tensor<f64, [3, 3]>)
// CHECK:         %[[SVD:.+]]:3 = ts.aten.svd %[[A]]
// CHECK:         %[[GUK:.+]] = ts.aten.narrow %[[GU]]
// CHECK:         ts.aten.transpose.int %[[GV]]
// CHECK:         ts.aten.narrow %[[SVD]]#0
// CHECK:         ts.aten.transpose.int %[[SVD]]#2
// CHECK:         ts.aten.diag_embed %[[GS]]
// CHECK:         ts.aten.div.Tensor %[[GUK]]
// CHECK:         return %[[SVD]]#0, %[[SVD]]#1, %[[SVD]]#2, %{{.+}} :
func.func @f(%a: !ts.tensor<f64, [5, 3]>) -> (!ts.tensor, !ts.tensor, !ts.tensor) {
  %false = ts.prim.Constant[false] : !ts.bool
  %true = ts.prim.Constant[true] : !ts.bool
  %0:3 = ts.aten.svd %a, %false, %true : (!ts.tensor<f64, [5, 3]>, !ts.bool, !ts.bool) -> (!ts.tensor, !ts.tensor, !ts.tensor)
  return %0#0, %0#1, %0#2 : !ts.tensor, !ts.tensor, !ts.tensor
}
