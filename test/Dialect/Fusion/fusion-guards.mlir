// Groups behind a guard, as PyTorch's profiling executor fuses: the body is
// specialised for the inputs seen (here a 2x3 f32 tensor read from a .npy
// file), the groups are formed in the specialised copy, for the types they
// were formed with, and the fallback, which runs when the inputs differ,
// keeps the ops unfused.
// RUN: tsmlir-opt %s --ts-insert-guards="inputs=%S/../TorchScript/Inputs/npy/f32_2x3.npy,%S/../TorchScript/Inputs/npy/f32_2x3.npy" --ts-optimize --ts-create-fusion-groups=strategy=nnc | FileCheck %s
// RUN: tsmlir-opt %s --ts-create-fusion-groups="strategy=nnc min-size=3" | FileCheck %s --check-prefix=UNTYPED
// RUN: not tsmlir-opt %s --ts-create-fusion-groups=strategy=tvm 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor, %[[Y:.+]]: !ts.tensor) -> !ts.tensor
// CHECK:         %[[R:.+]] = fusion.guarded(%[[X]], %[[Y]]) : (!ts.tensor, !ts.tensor) -> !ts.tensor specialized {
// CHECK-NEXT:    ^bb0(%[[SX:.+]]: !ts.tensor<f32, [2, 3]>, %[[SY:.+]]: !ts.tensor<f32, [2, 3]>):
// CHECK-NEXT:      %[[G:.+]] = fusion.group nnc (%[[SX]], %[[SY]]) : (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>) -> !ts.tensor<f32, [2, 3]> {
// CHECK:             ts.aten.add.Tensor
// CHECK-NEXT:        ts.aten.sigmoid
// CHECK-NEXT:        ts.aten.mul.Tensor
// CHECK-NEXT:        fusion.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      fusion.yield %[[G]] : !ts.tensor<f32, [2, 3]>
// CHECK-NEXT:    } fallback {
// CHECK-NEXT:    ^bb0(%{{.+}}: !ts.tensor, %{{.+}}: !ts.tensor):
// CHECK-NOT:       fusion.group
// CHECK:           ts.aten.add.Tensor
// CHECK-NEXT:      ts.aten.sigmoid
// CHECK-NEXT:      ts.aten.mul.Tensor
// CHECK-NEXT:      fusion.yield
// CHECK:         return %[[R]]
// Without types nothing is grouped.
// UNTYPED-NOT: fusion.group
// BAD: for the --strategy option: Cannot find option named 'tvm'!
func.func @main(%x: !ts.tensor, %y: !ts.tensor) -> !ts.tensor {
  %one = ts.prim.Constant[1] : !ts.int
  %a = ts.aten.add.Tensor %x, %y, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
  %s = ts.aten.sigmoid %a : (!ts.tensor) -> !ts.tensor
  %m = ts.aten.mul.Tensor %s, %x : (!ts.tensor, !ts.tensor) -> !ts.tensor
  return %m : !ts.tensor
}
