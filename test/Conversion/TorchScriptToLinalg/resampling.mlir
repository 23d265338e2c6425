// RUN: tsmlir-opt %s --convert-ts-to-linalg | FileCheck %s

// pad, roll, pixel_shuffle and upsampling (Resampling.cpp): one generic over
// the output whose body computes the input index and reads it with
// tensor.extract.

// Constant padding: the index outside the input reads the value instead.
// CHECK-LABEL: func.func @pad_constant(
// CHECK-SAME:      %[[X:.+]]: tensor<2x3xf32>)
// CHECK:         %[[V:.+]] = arith.constant 1.500000e+00 : f32
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<2x6xf32>)
// CHECK:           %[[I:.+]] = linalg.index 1 : index
// CHECK:           arith.subi %[[I]], %{{.+}} : index
// CHECK:           arith.cmpi slt
// CHECK:           arith.cmpi sge
// CHECK:           %[[E:.+]] = tensor.extract %[[X]]
// CHECK:           arith.select %{{.+}}, %[[E]], %[[V]] : f32
func.func @pad_constant(%x: !ts.tensor<f32, [2, 3]>) -> !ts.tensor<f32, [2, 6]> {
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %pad = ts.prim.ListConstruct %one, %two : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %mode = ts.prim.Constant["constant"] : !ts.str
  %v = ts.prim.Constant[1.5] : !ts.float
  %0 = ts.aten.pad %x, %pad, %mode, %v : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>, !ts.str, !ts.float) -> !ts.tensor<f32, [2, 6]>
  return %0 : !ts.tensor<f32, [2, 6]>
}

// Reflection mirrors at both ends without repeating the edge.
// CHECK-LABEL: func.func @pad_reflect(
// CHECK:         linalg.generic
// CHECK:           arith.subi
// CHECK:           arith.select
// CHECK:           arith.select
// CHECK:           tensor.extract
// CHECK-NOT:       arith.select
// CHECK:           linalg.yield
func.func @pad_reflect(%x: !ts.tensor<f32, [1, 4]>) -> !ts.tensor<f32, [1, 7]> {
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %pad = ts.prim.ListConstruct %one, %two : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %mode = ts.prim.Constant["reflect"] : !ts.str
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.pad %x, %pad, %mode, %none : (!ts.tensor<f32, [1, 4]>, !ts.list<!ts.int>, !ts.str, !ts.none) -> !ts.tensor<f32, [1, 7]>
  return %0 : !ts.tensor<f32, [1, 7]>
}

// Replicate clamps, circular wraps.
// CHECK-LABEL: func.func @pad_replicate_circular(
// CHECK:         linalg.generic
// CHECK:           arith.maxsi
// CHECK:           arith.minsi
// CHECK:           tensor.extract
// CHECK:         linalg.generic
// CHECK:           arith.remsi
// CHECK:           arith.remsi
// CHECK:           tensor.extract
func.func @pad_replicate_circular(%x: !ts.tensor<f32, [1, 4]>) -> (!ts.tensor<f32, [1, 7]>, !ts.tensor<f32, [1, 7]>) {
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %pad = ts.prim.ListConstruct %one, %two : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %replicate = ts.prim.Constant["replicate"] : !ts.str
  %circular = ts.prim.Constant["circular"] : !ts.str
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.pad %x, %pad, %replicate, %none : (!ts.tensor<f32, [1, 4]>, !ts.list<!ts.int>, !ts.str, !ts.none) -> !ts.tensor<f32, [1, 7]>
  %1 = ts.aten.pad %x, %pad, %circular, %none : (!ts.tensor<f32, [1, 4]>, !ts.list<!ts.int>, !ts.str, !ts.none) -> !ts.tensor<f32, [1, 7]>
  return %0, %1 : !ts.tensor<f32, [1, 7]>, !ts.tensor<f32, [1, 7]>
}

// constant_pad_nd crops with a negative amount.
// CHECK-LABEL: func.func @constant_pad_nd(
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<2x2xf32>)
// CHECK:           tensor.extract
func.func @constant_pad_nd(%x: !ts.tensor<f32, [2, 3]>) -> !ts.tensor<f32, [2, 2]> {
  %m1 = ts.prim.Constant[-1] : !ts.int
  %zero = ts.prim.Constant[0] : !ts.int
  %pad = ts.prim.ListConstruct %m1, %zero : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.constant_pad_nd %x, %pad, %zero : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>, !ts.int) -> !ts.tensor<f32, [2, 2]>
  return %0 : !ts.tensor<f32, [2, 2]>
}

// Constant padding of an empty tensor is all padding: a fill, nothing read.
// CHECK-LABEL: func.func @constant_pad_empty(
// CHECK:         %[[V:.+]] = arith.constant 1.500000e+00 : f32
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<2x5x3xf32>
// CHECK:         %[[F:.+]] = linalg.fill ins(%[[V]] : f32) outs(%[[E]] : tensor<2x5x3xf32>)
// CHECK-NOT:     tensor.extract
// CHECK:         return %[[F]]
func.func @constant_pad_empty(%x: !ts.tensor<f32, [0, 3, 3]>) -> !ts.tensor<f32, [2, 5, 3]> {
  %one = ts.prim.Constant[1] : !ts.int
  %zero = ts.prim.Constant[0] : !ts.int
  %v = ts.prim.Constant[1.5] : !ts.float
  %pad = ts.prim.ListConstruct %zero, %zero, %one, %one, %one, %one : (!ts.int, !ts.int, !ts.int, !ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.constant_pad_nd %x, %pad, %v : (!ts.tensor<f32, [0, 3, 3]>, !ts.list<!ts.int>, !ts.float) -> !ts.tensor<f32, [2, 5, 3]>
  return %0 : !ts.tensor<f32, [2, 5, 3]>
}

// roll along a dim: (i - shift) mod n; without dims, over the flattened
// tensor.
// CHECK-LABEL: func.func @roll(
// CHECK:         linalg.generic
// CHECK:           arith.subi
// CHECK:           arith.remsi
// CHECK:           tensor.extract
// CHECK:         linalg.generic
// CHECK:           arith.muli
// CHECK:           arith.remsi
// CHECK:           arith.remui
// CHECK:           arith.divui
// CHECK:           tensor.extract
func.func @roll(%x: !ts.tensor<f32, [2, 3]>) -> (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>) {
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %shifts = ts.prim.ListConstruct %two : (!ts.int) -> !ts.list<!ts.int>
  %dims = ts.prim.ListConstruct %one : (!ts.int) -> !ts.list<!ts.int>
  %empty = ts.prim.ListConstruct : () -> !ts.list<!ts.int>
  %0 = ts.aten.roll %x, %shifts, %dims : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>, !ts.list<!ts.int>) -> !ts.tensor<f32, [2, 3]>
  %1 = ts.aten.roll %x, %shifts, %empty : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>, !ts.list<!ts.int>) -> !ts.tensor<f32, [2, 3]>
  return %0, %1 : !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>
}

// pixel_shuffle reads channel c r^2 + (h mod r) r + (w mod r) at (h / r,
// w / r); pixel_unshuffle the inverse.
// CHECK-LABEL: func.func @pixel_shuffle(
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x4x4xf32>)
// CHECK:           arith.remui
// CHECK:           arith.remui
// CHECK:           arith.divui
// CHECK:           arith.divui
// CHECK:           tensor.extract
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<1x4x2x2xf32>)
// CHECK:           tensor.extract
func.func @pixel_shuffle(%x: !ts.tensor<f32, [1, 4, 2, 2]>) -> (!ts.tensor<f32, [1, 1, 4, 4]>, !ts.tensor<f32, [1, 4, 2, 2]>) {
  %two = ts.prim.Constant[2] : !ts.int
  %0 = ts.aten.pixel_shuffle %x, %two : (!ts.tensor<f32, [1, 4, 2, 2]>, !ts.int) -> !ts.tensor<f32, [1, 1, 4, 4]>
  %1 = ts.aten.pixel_unshuffle %0, %two : (!ts.tensor<f32, [1, 1, 4, 4]>, !ts.int) -> !ts.tensor<f32, [1, 4, 2, 2]>
  return %0, %1 : !ts.tensor<f32, [1, 1, 4, 4]>, !ts.tensor<f32, [1, 4, 2, 2]>
}

// Nearest: twice the size reads index / 2; other sizes floor(o * scale) in
// f32, at most in - 1.
// CHECK-LABEL: func.func @upsample_nearest(
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x4x6xf32>)
// CHECK:           arith.divui
// CHECK:           arith.sitofp
// CHECK:           arith.mulf
// CHECK:           math.floor
// CHECK:           arith.minsi
// CHECK:           tensor.extract
func.func @upsample_nearest(%x: !ts.tensor<f32, [1, 1, 2, 4]>) -> !ts.tensor<f32, [1, 1, 4, 6]> {
  %four = ts.prim.Constant[4] : !ts.int
  %six = ts.prim.Constant[6] : !ts.int
  %size = ts.prim.ListConstruct %four, %six : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.upsample_nearest2d %x, %size, %none, %none : (!ts.tensor<f32, [1, 1, 2, 4]>, !ts.list<!ts.int>, !ts.none, !ts.none) -> !ts.tensor<f32, [1, 1, 4, 6]>
  return %0 : !ts.tensor<f32, [1, 1, 4, 6]>
}

// Bilinear: two source indices and weights per dim, four corners summed.
// CHECK-LABEL: func.func @upsample_bilinear(
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x4x6xf32>)
// CHECK:           arith.maximumf
// CHECK:           arith.fptosi
// CHECK-COUNT-4:   tensor.extract
func.func @upsample_bilinear(%x: !ts.tensor<f32, [1, 1, 2, 3]>) -> !ts.tensor<f32, [1, 1, 4, 6]> {
  %none = ts.prim.Constant : !ts.none
  %false = ts.prim.Constant[false] : !ts.bool
  %s = ts.prim.Constant[2.0] : !ts.float
  %scales = ts.prim.ListConstruct %s, %s : (!ts.float, !ts.float) -> !ts.list<!ts.float>
  %0 = ts.aten.upsample_bilinear2d.vec %x, %none, %false, %scales : (!ts.tensor<f32, [1, 1, 2, 3]>, !ts.none, !ts.bool, !ts.list<!ts.float>) -> !ts.tensor<f32, [1, 1, 4, 6]>
  return %0 : !ts.tensor<f32, [1, 1, 4, 6]>
}

// The other upsampling forms: 1-d, sizes given to the .vec forms, scales
// to the plain ones.
// CHECK-LABEL: func.func @upsample_forms(
// CHECK:         math.floor
// CHECK:         tensor.extract
// CHECK:         math.floor
// CHECK:         tensor.extract
// CHECK:         linalg.generic
// CHECK-COUNT-2: tensor.extract
// CHECK:         linalg.generic
// CHECK-COUNT-2: tensor.extract
// CHECK:         linalg.generic
// CHECK-COUNT-4: tensor.extract
// CHECK:         math.floor
func.func @upsample_forms(%x: !ts.tensor<f32, [1, 1, 3]>, %y: !ts.tensor<f32, [1, 1, 2, 3]>) -> (!ts.tensor<f32, [1, 1, 5]>, !ts.tensor<f32, [1, 1, 5]>, !ts.tensor<f32, [1, 1, 5]>, !ts.tensor<f32, [1, 1, 5]>, !ts.tensor<f32, [1, 1, 3, 5]>, !ts.tensor<f32, [1, 1, 3, 5]>) {
  %none = ts.prim.Constant : !ts.none
  %true = ts.prim.Constant[true] : !ts.bool
  %three = ts.prim.Constant[3] : !ts.int
  %five = ts.prim.Constant[5] : !ts.int
  %s = ts.prim.Constant[1.7] : !ts.float
  %size1 = ts.prim.ListConstruct %five : (!ts.int) -> !ts.list<!ts.int>
  %size2 = ts.prim.ListConstruct %three, %five : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.upsample_nearest1d %x, %size1, %s : (!ts.tensor<f32, [1, 1, 3]>, !ts.list<!ts.int>, !ts.float) -> !ts.tensor<f32, [1, 1, 5]>
  %1 = ts.aten.upsample_nearest1d.vec %x, %size1, %none : (!ts.tensor<f32, [1, 1, 3]>, !ts.list<!ts.int>, !ts.none) -> !ts.tensor<f32, [1, 1, 5]>
  %2 = ts.aten.upsample_linear1d %x, %size1, %true, %none : (!ts.tensor<f32, [1, 1, 3]>, !ts.list<!ts.int>, !ts.bool, !ts.none) -> !ts.tensor<f32, [1, 1, 5]>
  %3 = ts.aten.upsample_linear1d.vec %x, %size1, %true, %none : (!ts.tensor<f32, [1, 1, 3]>, !ts.list<!ts.int>, !ts.bool, !ts.none) -> !ts.tensor<f32, [1, 1, 5]>
  %4 = ts.aten.upsample_bilinear2d %y, %size2, %true, %none, %none : (!ts.tensor<f32, [1, 1, 2, 3]>, !ts.list<!ts.int>, !ts.bool, !ts.none, !ts.none) -> !ts.tensor<f32, [1, 1, 3, 5]>
  %5 = ts.aten.upsample_nearest2d.vec %y, %size2, %none : (!ts.tensor<f32, [1, 1, 2, 3]>, !ts.list<!ts.int>, !ts.none) -> !ts.tensor<f32, [1, 1, 3, 5]>
  return %0, %1, %2, %3, %4, %5 : !ts.tensor<f32, [1, 1, 5]>, !ts.tensor<f32, [1, 1, 5]>, !ts.tensor<f32, [1, 1, 5]>, !ts.tensor<f32, [1, 1, 5]>, !ts.tensor<f32, [1, 1, 3, 5]>, !ts.tensor<f32, [1, 1, 3, 5]>
}

// Trilinear upsampling: the 2^3 corners around the source point.
// CHECK-LABEL: func.func @upsample_trilinear(
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x4x4x6xf32>)
// CHECK-COUNT-8: tensor.extract
// CHECK:         linalg.yield
func.func @upsample_trilinear(%x: !ts.tensor<f32, [1, 1, 2, 2, 3]>) -> !ts.tensor<f32, [1, 1, 4, 4, 6]> {
  %none = ts.prim.Constant : !ts.none
  %false = ts.prim.Constant[false] : !ts.bool
  %s = ts.prim.Constant[2.0] : !ts.float
  %scales = ts.prim.ListConstruct %s, %s, %s : (!ts.float, !ts.float, !ts.float) -> !ts.list<!ts.float>
  %0 = ts.aten.upsample_trilinear3d.vec %x, %none, %false, %scales : (!ts.tensor<f32, [1, 1, 2, 2, 3]>, !ts.none, !ts.bool, !ts.list<!ts.float>) -> !ts.tensor<f32, [1, 1, 4, 4, 6]>
  return %0 : !ts.tensor<f32, [1, 1, 4, 4, 6]>
}

// Nearest 3-d upsampling: a doubled dim reads o / 2, the others
// floor(o * in / out) clamped to the input; one read per element.
// CHECK-LABEL: func.func @upsample_nearest3d(
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x4x3x5xf32>)
// CHECK:           arith.divui
// CHECK:           math.floor
// CHECK:           arith.minsi
// CHECK-COUNT-1:   tensor.extract
// CHECK-NOT:       tensor.extract
// CHECK:         linalg.yield
func.func @upsample_nearest3d(%x: !ts.tensor<f32, [1, 1, 2, 3, 2]>) -> (!ts.tensor<f32, [1, 1, 4, 3, 5]>, !ts.tensor<f32, [1, 1, 4, 3, 5]>) {
  %none = ts.prim.Constant : !ts.none
  %three = ts.prim.Constant[3] : !ts.int
  %four = ts.prim.Constant[4] : !ts.int
  %five = ts.prim.Constant[5] : !ts.int
  %size = ts.prim.ListConstruct %four, %three, %five : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.upsample_nearest3d %x, %size, %none, %none, %none : (!ts.tensor<f32, [1, 1, 2, 3, 2]>, !ts.list<!ts.int>, !ts.none, !ts.none, !ts.none) -> !ts.tensor<f32, [1, 1, 4, 3, 5]>
  %1 = ts.aten.upsample_nearest3d.vec %x, %size, %none : (!ts.tensor<f32, [1, 1, 2, 3, 2]>, !ts.list<!ts.int>, !ts.none) -> !ts.tensor<f32, [1, 1, 4, 3, 5]>
  return %0, %1 : !ts.tensor<f32, [1, 1, 4, 3, 5]>, !ts.tensor<f32, [1, 1, 4, 3, 5]>
}

// Bicubic upsampling: floor(src) - 1 .. + 2 along each dim, clamped to the
// input, 16 taps weighed by Keys' kernel; the same sizes copy the input.
// CHECK-LABEL: func.func @upsample_bicubic(
// CHECK-SAME:      %[[X:.+]]: tensor<1x1x2x3xf32>)
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x4x5xf32>)
// CHECK:           math.floor
// CHECK:           arith.maxsi
// CHECK:           arith.minsi
// CHECK-COUNT-16:  tensor.extract
// CHECK:         return %{{.+}}, %[[X]]
func.func @upsample_bicubic(%x: !ts.tensor<f32, [1, 1, 2, 3]>) -> (!ts.tensor<f32, [1, 1, 4, 5]>, !ts.tensor<f32, [1, 1, 2, 3]>) {
  %none = ts.prim.Constant : !ts.none
  %false = ts.prim.Constant[false] : !ts.bool
  %two = ts.prim.Constant[2] : !ts.int
  %three = ts.prim.Constant[3] : !ts.int
  %four = ts.prim.Constant[4] : !ts.int
  %five = ts.prim.Constant[5] : !ts.int
  %size = ts.prim.ListConstruct %four, %five : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %same = ts.prim.ListConstruct %two, %three : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.upsample_bicubic2d %x, %size, %false, %none, %none : (!ts.tensor<f32, [1, 1, 2, 3]>, !ts.list<!ts.int>, !ts.bool, !ts.none, !ts.none) -> !ts.tensor<f32, [1, 1, 4, 5]>
  %1 = ts.aten.upsample_bicubic2d.vec %x, %same, %false, %none : (!ts.tensor<f32, [1, 1, 2, 3]>, !ts.list<!ts.int>, !ts.bool, !ts.none) -> !ts.tensor<f32, [1, 1, 2, 3]>
  return %0, %1 : !ts.tensor<f32, [1, 1, 4, 5]>, !ts.tensor<f32, [1, 1, 2, 3]>
}

// grid_sampler: the grid's (x, y) read per output element; bilinear reads
// four input pixels, each 0 outside the input; bicubic sixteen.
// CHECK-LABEL: func.func @grid_sampler(
// CHECK-SAME:      %[[X:.+]]: tensor<1x2x3x4xf32>, %[[G:.+]]: tensor<1x5x6x2xf32>)
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<1x2x5x6xf32>)
// CHECK:           tensor.extract %[[G]]
// CHECK:           tensor.extract %[[G]]
// CHECK-COUNT-4:   tensor.extract %[[X]]
// CHECK:         linalg.yield
// CHECK:         linalg.generic
// CHECK-COUNT-2:   math.roundeven
// CHECK:         linalg.generic
// CHECK-COUNT-16:  tensor.extract %[[X]]
func.func @grid_sampler(%x: !ts.tensor<f32, [1, 2, 3, 4]>, %g: !ts.tensor<f32, [1, 5, 6, 2]>) -> (!ts.tensor<f32, [1, 2, 5, 6]>, !ts.tensor<f32, [1, 2, 5, 6]>, !ts.tensor<f32, [1, 2, 5, 6]>) {
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %true = ts.prim.Constant[true] : !ts.bool
  %0 = ts.aten.grid_sampler %x, %g, %zero, %zero, %false : (!ts.tensor<f32, [1, 2, 3, 4]>, !ts.tensor<f32, [1, 5, 6, 2]>, !ts.int, !ts.int, !ts.bool) -> !ts.tensor<f32, [1, 2, 5, 6]>
  %1 = ts.aten.grid_sampler %x, %g, %one, %two, %true : (!ts.tensor<f32, [1, 2, 3, 4]>, !ts.tensor<f32, [1, 5, 6, 2]>, !ts.int, !ts.int, !ts.bool) -> !ts.tensor<f32, [1, 2, 5, 6]>
  %2 = ts.aten.grid_sampler %x, %g, %two, %one, %false : (!ts.tensor<f32, [1, 2, 3, 4]>, !ts.tensor<f32, [1, 5, 6, 2]>, !ts.int, !ts.int, !ts.bool) -> !ts.tensor<f32, [1, 2, 5, 6]>
  return %0, %1, %2 : !ts.tensor<f32, [1, 2, 5, 6]>, !ts.tensor<f32, [1, 2, 5, 6]>, !ts.tensor<f32, [1, 2, 5, 6]>
}

// The volumetric grid_sampler: (x, y, z) read per output element;
// trilinear reads the eight pixels around the point, nearest one.
// CHECK-LABEL: func.func @grid_sampler_3d(
// CHECK-SAME:      %[[X:.+]]: tensor<1x2x3x4x5xf32>, %[[G:.+]]: tensor<1x2x3x4x3xf32>)
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<1x2x2x3x4xf32>)
// CHECK-COUNT-3:   tensor.extract %[[G]]
// CHECK-COUNT-8:   tensor.extract %[[X]]
// CHECK-NOT:       tensor.extract
// CHECK:         linalg.yield
// CHECK:         linalg.generic
// CHECK-COUNT-3:   math.roundeven
// CHECK-COUNT-1:   tensor.extract %[[X]]
// CHECK-NOT:       tensor.extract
// CHECK:         linalg.yield
func.func @grid_sampler_3d(%x: !ts.tensor<f32, [1, 2, 3, 4, 5]>, %g: !ts.tensor<f32, [1, 2, 3, 4, 3]>) -> (!ts.tensor<f32, [1, 2, 2, 3, 4]>, !ts.tensor<f32, [1, 2, 2, 3, 4]>) {
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.aten.grid_sampler %x, %g, %zero, %zero, %false : (!ts.tensor<f32, [1, 2, 3, 4, 5]>, !ts.tensor<f32, [1, 2, 3, 4, 3]>, !ts.int, !ts.int, !ts.bool) -> !ts.tensor<f32, [1, 2, 2, 3, 4]>
  %1 = ts.aten.grid_sampler %x, %g, %one, %one, %false : (!ts.tensor<f32, [1, 2, 3, 4, 5]>, !ts.tensor<f32, [1, 2, 3, 4, 3]>, !ts.int, !ts.int, !ts.bool) -> !ts.tensor<f32, [1, 2, 2, 3, 4]>
  return %0, %1 : !ts.tensor<f32, [1, 2, 2, 3, 4]>, !ts.tensor<f32, [1, 2, 2, 3, 4]>
}

// The plain trilinear form, sizes given.
// CHECK-LABEL: func.func @upsample_trilinear_sizes(
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x3x3x3xf32>)
// CHECK-COUNT-8: tensor.extract
func.func @upsample_trilinear_sizes(%x: !ts.tensor<f32, [1, 1, 2, 2, 2]>) -> !ts.tensor<f32, [1, 1, 3, 3, 3]> {
  %none = ts.prim.Constant : !ts.none
  %true = ts.prim.Constant[true] : !ts.bool
  %three = ts.prim.Constant[3] : !ts.int
  %size = ts.prim.ListConstruct %three, %three, %three : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.upsample_trilinear3d %x, %size, %true, %none, %none, %none : (!ts.tensor<f32, [1, 1, 2, 2, 2]>, !ts.list<!ts.int>, !ts.bool, !ts.none, !ts.none, !ts.none) -> !ts.tensor<f32, [1, 1, 3, 3, 3]>
  return %0 : !ts.tensor<f32, [1, 1, 3, 3, 3]>
}
