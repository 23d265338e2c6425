// RUN: tsmlir-opt %s -split-input-file --ts-insert-guards="arg0=f32[64,128],arg1=f32[64,128]" | FileCheck %s
// RUN: tsmlir-opt %s -split-input-file --ts-insert-guards="arg0=f32[64,128],arg1=f32[64,128]" | tsmlir-opt --verify-roundtrip > /dev/null

// The signature stays; the body moves into the fallback, and a copy with
// the specialised argument types, and what inference derives from them,
// runs when the guard holds.

// CHECK-LABEL: func.func @clamp_scaled_diff(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor, %[[Y:.+]]: !ts.tensor) -> !ts.tensor {
// CHECK-NEXT:    %[[R:.+]] = fusion.guarded(%[[X]], %[[Y]]) : (!ts.tensor, !ts.tensor) -> !ts.tensor specialized {
// CHECK-NEXT:    ^bb0(%[[XS:.+]]: !ts.tensor<f32, [64, 128]>, %[[YS:.+]]: !ts.tensor<f32, [64, 128]>):
// CHECK:           %[[D:.+]] = ts.aten.sub.Tensor %[[XS]], %[[YS]], %{{.+}} : ({{.*}}) -> !ts.tensor<f32, [64, 128]>
// CHECK-NEXT:      %[[M:.+]] = ts.aten.mul.Tensor %[[D]], %[[XS]] : ({{.*}}) -> !ts.tensor<f32, [64, 128]>
// CHECK-NEXT:      %[[C:.+]] = ts.aten.clamp %[[M]], {{.*}} -> !ts.tensor<f32, [64, 128]>
// CHECK-NEXT:      %[[Q:.+]] = ts.aten.div.Tensor %[[C]], %[[YS]] : ({{.*}}) -> !ts.tensor<f32, [64, 128]>
// CHECK-NEXT:      fusion.yield %[[Q]] : !ts.tensor<f32, [64, 128]>
// CHECK-NEXT:    } fallback {
// CHECK-NEXT:    ^bb0(%[[XF:.+]]: !ts.tensor, %[[YF:.+]]: !ts.tensor):
// CHECK:           %[[FD:.+]] = ts.aten.sub.Tensor %[[XF]], %[[YF]], %{{.+}} : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
// CHECK-NEXT:      %[[FM:.+]] = ts.aten.mul.Tensor %[[FD]], %[[XF]] : (!ts.tensor, !ts.tensor) -> !ts.tensor
// CHECK-NEXT:      %[[FC:.+]] = ts.aten.clamp %[[FM]], {{.*}} -> !ts.tensor
// CHECK-NEXT:      %[[FQ:.+]] = ts.aten.div.Tensor %[[FC]], %[[YF]] : (!ts.tensor, !ts.tensor) -> !ts.tensor
// CHECK-NEXT:      fusion.yield %[[FQ]] : !ts.tensor
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : !ts.tensor
func.func @clamp_scaled_diff(%x: !ts.tensor, %y: !ts.tensor) -> !ts.tensor {
  %one = ts.prim.Constant[1] : !ts.int
  %lo = ts.prim.Constant[0.0] : !ts.float
  %hi = ts.prim.Constant[6.0] : !ts.float
  %d = ts.aten.sub.Tensor %x, %y, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
  %m = ts.aten.mul.Tensor %d, %x : (!ts.tensor, !ts.tensor) -> !ts.tensor
  %c = ts.aten.clamp %m, %lo, %hi : (!ts.tensor, !ts.float, !ts.float) -> !ts.tensor
  %q = ts.aten.div.Tensor %c, %y : (!ts.tensor, !ts.tensor) -> !ts.tensor
  return %q : !ts.tensor
}

// -----

// What an argument already states is kept in the fallback; the result types
// state what both regions agree on (here the dtype). Arguments of other
// types pass through unchanged.

// CHECK-LABEL: func.func @partly_known(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor<f32>, %[[Y:.+]]: !ts.tensor<f32, [?, 128]>, %[[N:.+]]: !ts.int) -> (!ts.tensor<f32>, !ts.int) {
// CHECK-NEXT:    %[[R:.+]]:2 = fusion.guarded(%[[X]], %[[Y]], %[[N]]) : (!ts.tensor<f32>, !ts.tensor<f32, [?, 128]>, !ts.int) -> (!ts.tensor<f32>, !ts.int) specialized {
// CHECK-NEXT:    ^bb0(%{{.+}}: !ts.tensor<f32, [64, 128]>, %{{.+}}: !ts.tensor<f32, [64, 128]>, %{{.+}}: !ts.int):
// CHECK:           ts.aten.add.Tensor {{.*}} -> !ts.tensor<f32, [64, 128]>
// CHECK:         } fallback {
// CHECK-NEXT:    ^bb0(%{{.+}}: !ts.tensor<f32>, %{{.+}}: !ts.tensor<f32, [?, 128]>, %{{.+}}: !ts.int):
// CHECK:           ts.aten.add.Tensor {{.*}} -> !ts.tensor<f32>
// CHECK:         }
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1 : !ts.tensor<f32>, !ts.int
func.func @partly_known(%x: !ts.tensor<f32>, %y: !ts.tensor<f32, [?, 128]>, %n: !ts.int) -> (!ts.tensor, !ts.int) {
  %one = ts.prim.Constant[1] : !ts.int
  %s = ts.aten.add.Tensor %x, %y, %n : (!ts.tensor<f32>, !ts.tensor<f32, [?, 128]>, !ts.int) -> !ts.tensor
  return %s, %one : !ts.tensor, !ts.int
}

// -----

// Arguments that already state everything the spec says need no guard.

// CHECK-LABEL: func.func @already_specialised(
// CHECK-NOT:     fusion.guarded
// CHECK:         return
func.func @already_specialised(%x: !ts.tensor<f32, [64, 128]>, %y: !ts.tensor<f32, [64, 128]>) -> !ts.tensor<f32, [64, 128]> {
  return %x : !ts.tensor<f32, [64, 128]>
}
