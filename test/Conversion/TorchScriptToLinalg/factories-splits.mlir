// RUN: tsmlir-opt %s --convert-ts-to-linalg -split-input-file | FileCheck %s

// arange, arange.start and arange.start_step: a generic over the result whose
// element i is start + i * step, computed in double for a float result and
// in int64 otherwise, then converted to the result's dtype.

// CHECK-LABEL: func.func @aranges(
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<4xi64>)
// CHECK:           linalg.index 0
// CHECK:           arith.muli
// CHECK:           arith.addi
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<3xf32>)
// CHECK:           arith.sitofp {{.*}} to f64
// CHECK:           arith.mulf {{.*}} : f64
// CHECK:           arith.addf {{.*}} : f64
// CHECK:           arith.truncf {{.*}} : f64 to f32
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<2xi64>)
func.func @aranges() -> (!ts.tensor<si64, [4]>, !ts.tensor<f32, [3]>, !ts.tensor<si64, [2]>) {
  %none = ts.prim.Constant : !ts.none
  %four = ts.prim.Constant[4] : !ts.int
  %five = ts.prim.Constant[5] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %m2 = ts.prim.Constant[-2] : !ts.int
  %f0 = ts.prim.Constant[0.0] : !ts.float
  %f1 = ts.prim.Constant[0.75] : !ts.float
  %q = ts.prim.Constant[0.25] : !ts.float
  %0 = ts.aten.arange %four, %none, %none, %none, %none : (!ts.int, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor<si64, [4]>
  %1 = ts.aten.arange.start_step %f0, %f1, %q, %none, %none, %none, %none : (!ts.float, !ts.float, !ts.float, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor<f32, [3]>
  %2 = ts.aten.arange.start %one, %five, %none, %none, %none, %none : (!ts.int, !ts.int, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor<si64, [2]>
  return %0, %1, %2 : !ts.tensor<si64, [4]>, !ts.tensor<f32, [3]>, !ts.tensor<si64, [2]>
}

// -----

// linspace: PyTorch's CPU kernel (start + step i below steps / 2, else
// end - step (steps - 1 - i), fused multiply-adds in the result's float type,
// double for integers), and its 32-byte vectors: the lanes of a vector
// starting at j add k step to element j. A 5-element f32 result has no whole
// pair of 8-lane vectors (vectorEnd 0); 50 int64 elements have 48 in 4-lane
// vectors, each truncated from double. logspace raises the double base to
// the exponent in double.

// CHECK-LABEL: func.func @spaced(
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<5xf32>)
// CHECK:           %[[I:.+]] = arith.index_cast
// CHECK:           %[[VEC:.+]] = arith.cmpi slt, %[[I]], %c0_i64
// CHECK:           arith.remsi %[[I]], %c8_i64
// CHECK:           math.fma {{.*}} : f32
// CHECK:           math.fma {{.*}} : f32
// CHECK:           arith.select {{.*}} : f32
// CHECK:           arith.mulf {{.*}} : f32
// CHECK:           arith.addf {{.*}} : f32
// CHECK:           arith.select %[[VEC]], {{.*}} : f32
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<4xf32>)
// CHECK:           arith.select {{.*}} : f32
// CHECK:           arith.extf {{.*}} : f32 to f64
// CHECK:           math.powf {{.*}} : f64
// CHECK:           arith.truncf {{.*}} : f64 to f32
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<50xi64>)
// CHECK:           %[[J:.+]] = arith.index_cast
// CHECK:           arith.cmpi slt, %[[J]], %c48_i64
// CHECK:           arith.remsi %[[J]], %c4_i64
// CHECK:           math.fma {{.*}} : f64
// CHECK:           math.fma {{.*}} : f64
// CHECK:           %[[FIRST:.+]] = arith.fptosi {{.*}} : f64 to i64
// CHECK:           arith.sitofp %[[FIRST]] : i64 to f64
// CHECK:           arith.addf
// CHECK:           arith.fptosi {{.*}} : f64 to i64
func.func @spaced() -> (!ts.tensor<f32, [5]>, !ts.tensor<f32, [4]>, !ts.tensor<si64, [50]>) {
  %none = ts.prim.Constant : !ts.none
  %four = ts.prim.Constant[4] : !ts.int
  %five = ts.prim.Constant[5] : !ts.int
  %fifty = ts.prim.Constant[50] : !ts.int
  %long = ts.prim.Constant[4] : !ts.int
  %f0 = ts.prim.Constant[-1.5] : !ts.float
  %f1 = ts.prim.Constant[2.0] : !ts.float
  %base = ts.prim.Constant[2.0] : !ts.float
  %i0 = ts.prim.Constant[-3] : !ts.int
  %0 = ts.aten.linspace %f0, %f1, %five, %none, %none, %none, %none : (!ts.float, !ts.float, !ts.int, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor<f32, [5]>
  %1 = ts.aten.logspace %f0, %f1, %four, %base, %none, %none, %none, %none : (!ts.float, !ts.float, !ts.int, !ts.float, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor<f32, [4]>
  %2 = ts.aten.linspace %i0, %f1, %fifty, %long, %none, %none, %none : (!ts.int, !ts.float, !ts.int, !ts.int, !ts.none, !ts.none, !ts.none) -> !ts.tensor<si64, [50]>
  return %0, %1, %2 : !ts.tensor<f32, [5]>, !ts.tensor<f32, [4]>, !ts.tensor<si64, [50]>
}

// -----

// split_with_sizes: one extract_slice per piece, at the running offset.

// CHECK-LABEL: func.func @split_with_sizes(
// CHECK-SAME:      %[[X:.+]]: tensor<2x6xf32>)
// CHECK:         tensor.extract_slice %[[X]][0, 0] [2, 1] [1, 1]
// CHECK:         tensor.extract_slice %[[X]][0, 1] [2, 3] [1, 1]
// CHECK:         tensor.extract_slice %[[X]][0, 4] [2, 2] [1, 1]
func.func @split_with_sizes(%x: !ts.tensor<f32, [2, 6]>) -> (!ts.tensor<f32, [2, 1]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 2]>) {
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %three = ts.prim.Constant[3] : !ts.int
  %sizes = ts.prim.ListConstruct %one, %three, %two : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %l = ts.aten.split_with_sizes %x, %sizes, %one : (!ts.tensor<f32, [2, 6]>, !ts.list<!ts.int>, !ts.int) -> !ts.list<!ts.tensor>
  %a, %b, %c = ts.prim.ListUnpack %l : !ts.list<!ts.tensor> -> !ts.tensor<f32, [2, 1]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 2]>
  return %a, %b, %c : !ts.tensor<f32, [2, 1]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 2]>
}

// -----

// The counters of a loop over range(lo, hi, step) with bounds known only at
// run time: its length ((|hi - lo| - 1) / |step| + 1 when lo is before hi,
// else 0) and its i-th value (start + i * step).

// CHECK-LABEL: func.func @range_counters(
// CHECK-SAME:      %[[LO:.+]]: i64, %[[HI:.+]]: i64, %[[STEP:.+]]: i64)
// CHECK:         arith.cmpi sgt, %[[STEP]]
// CHECK:         arith.divsi
// CHECK:         arith.select
// CHECK:         %[[M:.+]] = arith.muli
// CHECK:         arith.addi %[[LO]], %[[M]]
func.func @range_counters(%lo: !ts.int, %hi: !ts.int, %step: !ts.int) -> (!ts.int, !ts.int) {
  %0 = ts.aten.__range_length %lo, %hi, %step : (!ts.int, !ts.int, !ts.int) -> !ts.int
  %1 = ts.aten.__derive_index %0, %lo, %step : (!ts.int, !ts.int, !ts.int) -> !ts.int
  return %0, %1 : !ts.int, !ts.int
}

// -----

// conv3d: the input padded, input and weight split by group, one generic
// reading the input at out * stride + k * dilation, reducing over the
// channels of a group and the window.

// CHECK-DAG:   #[[$IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8, d9) -> (d0, d1, d6, d3 * 2 + d7, d4 * 2 + d8, d5 * 2 + d9)>
// CHECK-LABEL: func.func @conv3d(
// CHECK:         tensor.pad
// CHECK:         linalg.generic {indexing_maps = [#[[$IN]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
// CHECK-SAME:      ins(%{{.+}}, %{{.+}} : tensor<1x2x2x6x6x6xf32>, tensor<2x2x2x3x3x3xf32>) outs(%{{.+}} : tensor<1x2x2x2x2x2xf32>)
func.func @conv3d(%x: !ts.tensor<f32, [1, 4, 4, 4, 4]>, %w: !ts.tensor<f32, [4, 2, 3, 3, 3]>, %b: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [1, 4, 2, 2, 2]> {
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %s = ts.prim.ListConstruct %two, %two, %two : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %p = ts.prim.ListConstruct %one, %one, %one : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %d = ts.prim.ListConstruct %one, %one, %one : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.conv3d %x, %w, %b, %s, %p, %d, %two : (!ts.tensor<f32, [1, 4, 4, 4, 4]>, !ts.tensor<f32, [4, 2, 3, 3, 3]>, !ts.tensor<f32, [4]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.int) -> !ts.tensor<f32, [1, 4, 2, 2, 2]>
  return %0 : !ts.tensor<f32, [1, 4, 2, 2, 2]>
}

// -----

// An op that only reads and whose results are all empty becomes tensor.empty
// (a padded pool of a batch of 0, both results of max.dim).
// CHECK-LABEL: func.func @empty_results(
// CHECK-NOT:     linalg.generic
// CHECK-DAG:     %[[P:.+]] = tensor.empty() : tensor<0x3x1x3xf32>
// CHECK-DAG:     %[[V:.+]] = tensor.empty() : tensor<0x3xf32>
// CHECK-DAG:     %[[I:.+]] = tensor.empty() : tensor<0x3xi64>
// CHECK:         return %[[P]], %[[V]], %[[I]]
func.func @empty_results(%x: !ts.tensor<f32, [0, 3, 1, 9]>, %y: !ts.tensor<f32, [0, 3, 4]>) -> (!ts.tensor<f32, [0, 3, 1, 3]>, !ts.tensor<f32, [0, 3]>, !ts.tensor<si64, [0, 3]>) {
  %none = ts.prim.Constant : !ts.none
  %false = ts.prim.Constant[false] : !ts.bool
  %true = ts.prim.Constant[true] : !ts.bool
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %three = ts.prim.Constant[3] : !ts.int
  %six = ts.prim.Constant[6] : !ts.int
  %kernel = ts.prim.ListConstruct %one, %six : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %stride = ts.prim.ListConstruct %one, %three : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %padding = ts.prim.ListConstruct %zero, %two : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.avg_pool2d %x, %kernel, %stride, %padding, %false, %true, %none : (!ts.tensor<f32, [0, 3, 1, 9]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool, !ts.bool, !ts.none) -> !ts.tensor<f32, [0, 3, 1, 3]>
  %1:2 = ts.aten.max.dim %y, %two, %false : (!ts.tensor<f32, [0, 3, 4]>, !ts.int, !ts.bool) -> (!ts.tensor<f32, [0, 3]>, !ts.tensor<si64, [0, 3]>)
  return %0, %1#0, %1#1 : !ts.tensor<f32, [0, 3, 1, 3]>, !ts.tensor<f32, [0, 3]>, !ts.tensor<si64, [0, 3]>
}
