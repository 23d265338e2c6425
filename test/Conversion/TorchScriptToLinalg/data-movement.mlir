// RUN: tsmlir-opt %s --convert-ts-to-linalg -split-input-file | FileCheck %s

// A reshape no single collapse or expand does goes through 1-D.

// CHECK-LABEL: func.func @view(
// CHECK-SAME:      %[[X:.+]]: tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK:         %[[FLAT:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK:         %[[R:.+]] = tensor.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
// CHECK:         return %[[R]]
func.func @view(%x: !ts.tensor<f32, [2, 3]>) -> !ts.tensor<f32, [3, 2]> {
  %int3 = ts.prim.Constant[3] : !ts.int
  %int2 = ts.prim.Constant[2] : !ts.int
  %size = ts.prim.ListConstruct %int3, %int2 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.view %x, %size : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>) -> !ts.tensor<f32, [3, 2]>
  return %0 : !ts.tensor<f32, [3, 2]>
}

// -----

// CHECK-LABEL: func.func @reshape_expand(
// CHECK-SAME:      %[[X:.+]]: tensor<6x4xf32>)
// CHECK:         %[[R:.+]] = tensor.expand_shape %[[X]] {{\[}}[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
// CHECK:         return %[[R]]
func.func @reshape_expand(%x: !ts.tensor<f32, [6, 4]>) -> !ts.tensor<f32, [2, 3, 4]> {
  %int-1 = ts.prim.Constant[-1] : !ts.int
  %int3 = ts.prim.Constant[3] : !ts.int
  %int4 = ts.prim.Constant[4] : !ts.int
  %size = ts.prim.ListConstruct %int-1, %int3, %int4 : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.reshape %x, %size : (!ts.tensor<f32, [6, 4]>, !ts.list<!ts.int>) -> !ts.tensor<f32, [2, 3, 4]>
  return %0 : !ts.tensor<f32, [2, 3, 4]>
}

// -----

// CHECK-LABEL: func.func @flatten(
// CHECK-SAME:      %[[X:.+]]: tensor<2x3x4xf32>)
// CHECK:         %[[R:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x12xf32>
// CHECK:         return %[[R]]
func.func @flatten(%x: !ts.tensor<f32, [2, 3, 4]>) -> !ts.tensor<f32, [2, 12]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %int-1 = ts.prim.Constant[-1] : !ts.int
  %0 = ts.aten.flatten.using_ints %x, %int1, %int-1 : (!ts.tensor<f32, [2, 3, 4]>, !ts.int, !ts.int) -> !ts.tensor<f32, [2, 12]>
  return %0 : !ts.tensor<f32, [2, 12]>
}

// -----

// Unit dims come and go with expand_shape and collapse_shape, to and from
// 0-d tensors too.

// CHECK-LABEL: func.func @unsqueeze_squeeze(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<4xf32>, %[[Y:[^:]+]]: tensor<1x4x1xf32>, %[[Z:[^:]+]]: tensor<1x1xf32>, %[[S:[^:]+]]: tensor<f32>)
// CHECK:         %[[A:.+]] = tensor.expand_shape %[[X]] {{\[}}[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
// CHECK:         %[[B:.+]] = tensor.collapse_shape %[[Y]] {{\[}}[0, 1, 2]] : tensor<1x4x1xf32> into tensor<4xf32>
// CHECK:         %[[C:.+]] = tensor.collapse_shape %[[Y]] {{\[}}[0], [1, 2]] : tensor<1x4x1xf32> into tensor<1x4xf32>
// CHECK:         %[[D:.+]] = tensor.collapse_shape %[[Z]] [] : tensor<1x1xf32> into tensor<f32>
// CHECK:         %[[E:.+]] = tensor.expand_shape %[[S]] [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK:         return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]]
func.func @unsqueeze_squeeze(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [1, 4, 1]>, %z: !ts.tensor<f32, [1, 1]>, %s: !ts.tensor<f32, []>) -> (!ts.tensor<f32, [4, 1]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [1, 4]>, !ts.tensor<f32, []>, !ts.tensor<f32, [1]>) {
  %int-1 = ts.prim.Constant[-1] : !ts.int
  %int0 = ts.prim.Constant[0] : !ts.int
  %int2 = ts.prim.Constant[2] : !ts.int
  %0 = ts.aten.unsqueeze %x, %int-1 : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4, 1]>
  %1 = ts.aten.squeeze %y : (!ts.tensor<f32, [1, 4, 1]>) -> !ts.tensor<f32, [4]>
  %2 = ts.aten.squeeze.dim %y, %int2 : (!ts.tensor<f32, [1, 4, 1]>, !ts.int) -> !ts.tensor<f32, [1, 4]>
  %3 = ts.aten.squeeze %z : (!ts.tensor<f32, [1, 1]>) -> !ts.tensor<f32, []>
  %4 = ts.aten.unsqueeze %s, %int0 : (!ts.tensor<f32, []>, !ts.int) -> !ts.tensor<f32, [1]>
  return %0, %1, %2, %3, %4 : !ts.tensor<f32, [4, 1]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [1, 4]>, !ts.tensor<f32, []>, !ts.tensor<f32, [1]>
}

// -----

// CHECK-LABEL: func.func @view_as_reshape_as(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2x6xf32>
// CHECK:         %[[A:.+]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [2, 2, 3] : tensor<2x6xf32> into tensor<2x2x3xf32>
// CHECK:         %[[B:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<2x6xf32> into tensor<12xf32>
// CHECK:         return %[[A]], %[[B]]
func.func @view_as_reshape_as(%x: !ts.tensor<f32, [2, 6]>, %o: !ts.tensor<f32, [2, 2, 3]>, %p: !ts.tensor<f32, [12]>) -> (!ts.tensor<f32, [2, 2, 3]>, !ts.tensor<f32, [12]>) {
  %0 = ts.aten.view_as %x, %o : (!ts.tensor<f32, [2, 6]>, !ts.tensor<f32, [2, 2, 3]>) -> !ts.tensor<f32, [2, 2, 3]>
  %1 = ts.aten.reshape_as %x, %p : (!ts.tensor<f32, [2, 6]>, !ts.tensor<f32, [12]>) -> !ts.tensor<f32, [12]>
  return %0, %1 : !ts.tensor<f32, [2, 2, 3]>, !ts.tensor<f32, [12]>
}

// -----

// Permutations are copies whose input map permutes the dims: result dim i
// reads input dim dims[i].

// CHECK-DAG:   #[[$PERM:.+]] = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
// CHECK-DAG:   #[[$ID3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @permute(
// CHECK-SAME:      %[[X:.+]]: tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK:         %[[R:.+]] = linalg.generic {indexing_maps = [#[[$PERM]], #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME:        ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[E]] : tensor<4x2x3xf32>)
// CHECK:         ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
// CHECK:         return %[[R]]
func.func @permute(%x: !ts.tensor<f32, [2, 3, 4]>) -> !ts.tensor<f32, [4, 2, 3]> {
  %int2 = ts.prim.Constant[2] : !ts.int
  %int0 = ts.prim.Constant[0] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %dims = ts.prim.ListConstruct %int2, %int0, %int1 : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.permute %x, %dims : (!ts.tensor<f32, [2, 3, 4]>, !ts.list<!ts.int>) -> !ts.tensor<f32, [4, 2, 3]>
  return %0 : !ts.tensor<f32, [4, 2, 3]>
}

// -----

// CHECK-DAG:   #[[$SWAP3:.+]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG:   #[[$SWAP2:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @transpose_t(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2x3x4xf32>, %[[Y:[^:]+]]: tensor<5x6xf32>, %[[Z:[^:]+]]: tensor<5xf32>)
// CHECK:         %[[A:.+]] = linalg.generic {indexing_maps = [#[[$SWAP3]], {{.+}}]{{.*}} ins(%[[X]] : tensor<2x3x4xf32>) outs(%{{.+}} : tensor<2x4x3xf32>)
// CHECK:         %[[B:.+]] = linalg.generic {indexing_maps = [#[[$SWAP2]], {{.+}}]{{.*}} ins(%[[Y]] : tensor<5x6xf32>) outs(%{{.+}} : tensor<6x5xf32>)
// CHECK:         return %[[A]], %[[B]], %[[Z]]
func.func @transpose_t(%x: !ts.tensor<f32, [2, 3, 4]>, %y: !ts.tensor<f32, [5, 6]>, %z: !ts.tensor<f32, [5]>) -> (!ts.tensor<f32, [2, 4, 3]>, !ts.tensor<f32, [6, 5]>, !ts.tensor<f32, [5]>) {
  %int-1 = ts.prim.Constant[-1] : !ts.int
  %int-2 = ts.prim.Constant[-2] : !ts.int
  %0 = ts.aten.transpose.int %x, %int-2, %int-1 : (!ts.tensor<f32, [2, 3, 4]>, !ts.int, !ts.int) -> !ts.tensor<f32, [2, 4, 3]>
  %1 = ts.aten.t %y : (!ts.tensor<f32, [5, 6]>) -> !ts.tensor<f32, [6, 5]>
  %2 = ts.aten.t %z : (!ts.tensor<f32, [5]>) -> !ts.tensor<f32, [5]>
  return %0, %1, %2 : !ts.tensor<f32, [2, 4, 3]>, !ts.tensor<f32, [6, 5]>, !ts.tensor<f32, [5]>
}

// -----

// Broadcasts read size-1 dims at 0 and add leading dims; -1 keeps a size.

// CHECK-DAG:   #[[$BC3:.+]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG:   #[[$BC2:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @expand(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<3x1xf32>
// CHECK:         %[[A:.+]] = linalg.generic {indexing_maps = [#[[$BC3]], {{.+}}]{{.*}} ins(%[[X]] : tensor<3x1xf32>) outs(%{{.+}} : tensor<2x3x4xf32>)
// CHECK:         %[[B:.+]] = linalg.generic {indexing_maps = [#[[$BC3]], {{.+}}]{{.*}} ins(%[[X]] : tensor<3x1xf32>) outs(%{{.+}} : tensor<2x3x4xf32>)
// CHECK:         %[[C:.+]] = linalg.generic {indexing_maps = [#[[$BC2]], {{.+}}]{{.*}} ins(%[[X]] : tensor<3x1xf32>) outs(%{{.+}} : tensor<3x4xf32>)
// CHECK:         return %[[A]], %[[B]], %[[C]]
func.func @expand(%x: !ts.tensor<f32, [3, 1]>, %o: !ts.tensor<f32, [2, 3, 4]>) -> (!ts.tensor<f32, [2, 3, 4]>, !ts.tensor<f32, [2, 3, 4]>, !ts.tensor<f32, [3, 4]>) {
  %int2 = ts.prim.Constant[2] : !ts.int
  %int-1 = ts.prim.Constant[-1] : !ts.int
  %int4 = ts.prim.Constant[4] : !ts.int
  %int3 = ts.prim.Constant[3] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %size = ts.prim.ListConstruct %int2, %int-1, %int4 : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.expand %x, %size, %false : (!ts.tensor<f32, [3, 1]>, !ts.list<!ts.int>, !ts.bool) -> !ts.tensor<f32, [2, 3, 4]>
  %1 = ts.aten.expand_as %x, %o : (!ts.tensor<f32, [3, 1]>, !ts.tensor<f32, [2, 3, 4]>) -> !ts.tensor<f32, [2, 3, 4]>
  %size2 = ts.prim.ListConstruct %int3, %int4 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %2 = ts.aten.broadcast_to %x, %size2 : (!ts.tensor<f32, [3, 1]>, !ts.list<!ts.int>) -> !ts.tensor<f32, [3, 4]>
  return %0, %1, %2 : !ts.tensor<f32, [2, 3, 4]>, !ts.tensor<f32, [2, 3, 4]>, !ts.tensor<f32, [3, 4]>
}

// -----

// repeat reads each result index modulo the input's size.

// CHECK-DAG:   #[[$MOD:.+]] = affine_map<(d0, d1, d2) -> (d1 mod 3, 0)>
// CHECK-LABEL: func.func @repeat(
// CHECK-SAME:      %[[X:.+]]: tensor<3x1xf32>)
// CHECK:         %[[R:.+]] = linalg.generic {indexing_maps = [#[[$MOD]], {{.+}}]{{.*}} ins(%[[X]] : tensor<3x1xf32>) outs(%{{.+}} : tensor<2x6x4xf32>)
// CHECK:         return %[[R]]
func.func @repeat(%x: !ts.tensor<f32, [3, 1]>) -> !ts.tensor<f32, [2, 6, 4]> {
  %int2 = ts.prim.Constant[2] : !ts.int
  %int4 = ts.prim.Constant[4] : !ts.int
  %dims = ts.prim.ListConstruct %int2, %int2, %int4 : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.repeat %x, %dims : (!ts.tensor<f32, [3, 1]>, !ts.list<!ts.int>) -> !ts.tensor<f32, [2, 6, 4]>
  return %0 : !ts.tensor<f32, [2, 6, 4]>
}

// -----

// Slices are extract_slices: None bounds, steps, an end past the size
// (clamped); an empty slice is an empty tensor (extract_slice rejects an
// offset into a 0-sized dimension); a slice of everything is the tensor
// itself.

// CHECK-LABEL: func.func @slice(
// CHECK-SAME:      %[[X:.+]]: tensor<10x8xf32>)
// CHECK:         %[[A:.+]] = tensor.extract_slice %[[X]][0, 0] [10, 4] [1, 2] : tensor<10x8xf32> to tensor<10x4xf32>
// CHECK:         %[[B:.+]] = tensor.extract_slice %[[X]][3, 0] [7, 8] [1, 1] : tensor<10x8xf32> to tensor<7x8xf32>
// CHECK:         %[[C:.+]] = tensor.empty() : tensor<0x8xf32>
// CHECK:         return %[[A]], %[[B]], %[[C]], %[[X]]
func.func @slice(%x: !ts.tensor<f32, [10, 8]>) -> (!ts.tensor<f32, [10, 4]>, !ts.tensor<f32, [7, 8]>, !ts.tensor<f32, [0, 8]>, !ts.tensor<f32, [10, 8]>) {
  %none = ts.prim.Constant : !ts.none
  %int1 = ts.prim.Constant[1] : !ts.int
  %int2 = ts.prim.Constant[2] : !ts.int
  %int0 = ts.prim.Constant[0] : !ts.int
  %int-1 = ts.prim.Constant[-1] : !ts.int
  %int3 = ts.prim.Constant[3] : !ts.int
  %int100 = ts.prim.Constant[100] : !ts.int
  %int-20 = ts.prim.Constant[-20] : !ts.int
  // x[:, ::2]
  %0 = ts.aten.slice.Tensor %x, %int1, %none, %none, %int2 : (!ts.tensor<f32, [10, 8]>, !ts.int, !ts.none, !ts.none, !ts.int) -> !ts.tensor<f32, [10, 4]>
  // x[3:100]
  %1 = ts.aten.slice.Tensor %x, %int0, %int3, %int100, %int1 : (!ts.tensor<f32, [10, 8]>, !ts.int, !ts.int, !ts.int, !ts.int) -> !ts.tensor<f32, [7, 8]>
  // x[-1:-20]
  %2 = ts.aten.slice.Tensor %x, %int0, %int-1, %int-20, %int1 : (!ts.tensor<f32, [10, 8]>, !ts.int, !ts.int, !ts.int, !ts.int) -> !ts.tensor<f32, [0, 8]>
  // x[:]
  %3 = ts.aten.slice.Tensor %x, %int0, %none, %none, %int1 : (!ts.tensor<f32, [10, 8]>, !ts.int, !ts.none, !ts.none, !ts.int) -> !ts.tensor<f32, [10, 8]>
  return %0, %1, %2, %3 : !ts.tensor<f32, [10, 4]>, !ts.tensor<f32, [7, 8]>, !ts.tensor<f32, [0, 8]>, !ts.tensor<f32, [10, 8]>
}

// -----

// A negative start counts from the end; a run-time start is wrapped and
// clamped at run time.

// CHECK-LABEL: func.func @slice_start(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<10x8xf32>, %[[START:[^:]+]]: i64)
// CHECK:         %[[A:.+]] = tensor.extract_slice %[[X]][0, 5] [10, 3] [1, 1] : tensor<10x8xf32> to tensor<10x3xf32>
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : i64
// CHECK-DAG:     %[[C10:.+]] = arith.constant 10 : i64
// CHECK:         %[[NEG:.+]] = arith.cmpi slt, %[[START]], %[[C0]] : i64
// CHECK:         %[[ADD:.+]] = arith.addi %[[START]], %[[C10]] : i64
// CHECK:         %[[WRAP:.+]] = arith.select %[[NEG]], %[[ADD]], %[[START]] : i64
// CHECK:         %[[LO:.+]] = arith.maxsi %[[WRAP]], %[[C0]] : i64
// CHECK:         %[[C8:.+]] = arith.constant 8 : i64
// CHECK:         %[[HI:.+]] = arith.minsi %[[LO]], %[[C8]] : i64
// CHECK:         %[[OFF:.+]] = arith.index_cast %[[HI]] : i64 to index
// CHECK:         %[[B:.+]] = tensor.extract_slice %[[X]][%[[OFF]], 0] [2, 8] [1, 1] : tensor<10x8xf32> to tensor<2x8xf32>
// CHECK:         return %[[A]], %[[B]]
func.func @slice_start(%x: !ts.tensor<f32, [10, 8]>, %start: !ts.int) -> (!ts.tensor<f32, [10, 3]>, !ts.tensor<f32, [2, 8]>) {
  %none = ts.prim.Constant : !ts.none
  %int1 = ts.prim.Constant[1] : !ts.int
  %int0 = ts.prim.Constant[0] : !ts.int
  %int-3 = ts.prim.Constant[-3] : !ts.int
  // x[:, -3:]
  %0 = ts.aten.slice.Tensor %x, %int1, %int-3, %none, %int1 : (!ts.tensor<f32, [10, 8]>, !ts.int, !ts.int, !ts.none, !ts.int) -> !ts.tensor<f32, [10, 3]>
  // x[start:start + 2]: the end is a run-time int too, the length is static
  %1 = ts.aten.slice.Tensor %x, %int0, %start, %none, %int1 : (!ts.tensor<f32, [10, 8]>, !ts.int, !ts.int, !ts.none, !ts.int) -> !ts.tensor<f32, [2, 8]>
  return %0, %1 : !ts.tensor<f32, [10, 3]>, !ts.tensor<f32, [2, 8]>
}

// -----

// select is a rank-reducing slice; narrow a slice of `length` elements.

// CHECK-LABEL: func.func @select_narrow(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<10x8xf32>, %[[I:[^:]+]]: i64)
// CHECK:         %[[A:.+]] = tensor.extract_slice %[[X]][0, 6] [10, 1] [1, 1] : tensor<10x8xf32> to tensor<10xf32>
// CHECK:         %[[OFF:.+]] = arith.index_cast %{{.+}} : i64 to index
// CHECK:         %[[B:.+]] = tensor.extract_slice %[[X]][%[[OFF]], 0] [1, 8] [1, 1] : tensor<10x8xf32> to tensor<8xf32>
// CHECK:         %[[C:.+]] = tensor.extract_slice %[[X]][0, 5] [10, 3] [1, 1] : tensor<10x8xf32> to tensor<10x3xf32>
// CHECK:         return %[[A]], %[[B]], %[[C]]
func.func @select_narrow(%x: !ts.tensor<f32, [10, 8]>, %i: !ts.int) -> (!ts.tensor<f32, [10]>, !ts.tensor<f32, [8]>, !ts.tensor<f32, [10, 3]>) {
  %int1 = ts.prim.Constant[1] : !ts.int
  %int0 = ts.prim.Constant[0] : !ts.int
  %int-2 = ts.prim.Constant[-2] : !ts.int
  %int-3 = ts.prim.Constant[-3] : !ts.int
  %int3 = ts.prim.Constant[3] : !ts.int
  %0 = ts.aten.select.int %x, %int1, %int-2 : (!ts.tensor<f32, [10, 8]>, !ts.int, !ts.int) -> !ts.tensor<f32, [10]>
  %1 = ts.aten.select.int %x, %int0, %i : (!ts.tensor<f32, [10, 8]>, !ts.int, !ts.int) -> !ts.tensor<f32, [8]>
  %2 = ts.aten.narrow %x, %int1, %int-3, %int3 : (!ts.tensor<f32, [10, 8]>, !ts.int, !ts.int, !ts.int) -> !ts.tensor<f32, [10, 3]>
  return %0, %1, %2 : !ts.tensor<f32, [10]>, !ts.tensor<f32, [8]>, !ts.tensor<f32, [10, 3]>
}

// -----

// cat inserts each input at its offset, cast to the result's element type;
// inputs without elements are skipped.

// CHECK-LABEL: func.func @cat(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2x3xf32>, %[[Y:[^:]+]]: tensor<2x5xf16>, %[[E:[^:]+]]: tensor<2x0xf32>)
// CHECK:         %[[INIT:.+]] = tensor.empty() : tensor<2x8xf32>
// CHECK:         %[[A:.+]] = tensor.insert_slice %[[X]] into %[[INIT]][0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x8xf32>
// CHECK:         %[[YF:.+]] = linalg.generic
// CHECK-SAME:        ins(%[[Y]] : tensor<2x5xf16>)
// CHECK:           arith.extf %{{.+}} : f16 to f32
// CHECK:         %[[B:.+]] = tensor.insert_slice %[[YF]] into %[[A]][0, 3] [2, 5] [1, 1] : tensor<2x5xf32> into tensor<2x8xf32>
// CHECK:         return %[[B]]
func.func @cat(%x: !ts.tensor<f32, [2, 3]>, %y: !ts.tensor<f16, [2, 5]>, %e: !ts.tensor<f32, [2, 0]>) -> !ts.tensor<f32, [2, 8]> {
  %int-1 = ts.prim.Constant[-1] : !ts.int
  %list = ts.prim.ListConstruct %x, %e, %y : (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 0]>, !ts.tensor<f16, [2, 5]>) -> !ts.list<!ts.tensor>
  %0 = ts.aten.cat %list, %int-1 : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor<f32, [2, 8]>
  return %0 : !ts.tensor<f32, [2, 8]>
}

// -----

// A cat whose result has a 0-sized dimension other than the cat's is the
// empty result: every input is empty and skipped.

// CHECK-LABEL: func.func @cat_empty(
// CHECK:         %[[INIT:.+]] = tensor.empty() : tensor<0x6xf32>
// CHECK-NOT:     tensor.insert_slice
// CHECK:         return %[[INIT]]
func.func @cat_empty(%x: !ts.tensor<f32, [0, 3]>) -> !ts.tensor<f32, [0, 6]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %list = ts.prim.ListConstruct %x, %x : (!ts.tensor<f32, [0, 3]>, !ts.tensor<f32, [0, 3]>) -> !ts.list<!ts.tensor>
  %0 = ts.aten.cat %list, %int1 : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor<f32, [0, 6]>
  return %0 : !ts.tensor<f32, [0, 6]>
}

// -----

// stack inserts each input as one index of the new dim.

// CHECK-LABEL: func.func @stack(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<2x3xf32>, %[[Y:[^:]+]]: tensor<2x3xf32>)
// CHECK:         %[[INIT:.+]] = tensor.empty() : tensor<2x2x3xf32>
// CHECK:         %[[A:.+]] = tensor.insert_slice %[[X]] into %[[INIT]][0, 0, 0] [2, 1, 3] [1, 1, 1] : tensor<2x3xf32> into tensor<2x2x3xf32>
// CHECK:         %[[B:.+]] = tensor.insert_slice %[[Y]] into %[[A]][0, 1, 0] [2, 1, 3] [1, 1, 1] : tensor<2x3xf32> into tensor<2x2x3xf32>
// CHECK:         return %[[B]]
func.func @stack(%x: !ts.tensor<f32, [2, 3]>, %y: !ts.tensor<f32, [2, 3]>) -> !ts.tensor<f32, [2, 2, 3]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %list = ts.prim.ListConstruct %x, %y : (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>) -> !ts.list<!ts.tensor>
  %0 = ts.aten.stack %list, %int1 : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor<f32, [2, 2, 3]>
  return %0 : !ts.tensor<f32, [2, 2, 3]>
}

// -----

// A stack of tensors with no elements inserts nothing (a slice's offsets
// along a dim of size 0 would be out of its bounds).

// CHECK-LABEL: func.func @stack_empty(
// CHECK:         %[[INIT:.+]] = tensor.empty() : tensor<2x0x1x0xf32>
// CHECK-NOT:     tensor.insert_slice
// CHECK:         return %[[INIT]]
func.func @stack_empty(%x: !ts.tensor<f32, [0, 1, 0]>, %y: !ts.tensor<f32, [0, 1, 0]>) -> !ts.tensor<f32, [2, 0, 1, 0]> {
  %int0 = ts.prim.Constant[0] : !ts.int
  %list = ts.prim.ListConstruct %x, %y : (!ts.tensor<f32, [0, 1, 0]>, !ts.tensor<f32, [0, 1, 0]>) -> !ts.list<!ts.tensor>
  %0 = ts.aten.stack %list, %int0 : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor<f32, [2, 0, 1, 0]>
  return %0 : !ts.tensor<f32, [2, 0, 1, 0]>
}

// -----

// 10 elements in 3 chunks: 4, 4 and 2.

// CHECK-LABEL: func.func @constant_chunk(
// CHECK-SAME:      %[[X:.+]]: tensor<4x10xf32>)
// CHECK:         %[[A:.+]] = tensor.extract_slice %[[X]][0, 0] [4, 4] [1, 1] : tensor<4x10xf32> to tensor<4x4xf32>
// CHECK:         %[[B:.+]] = tensor.extract_slice %[[X]][0, 4] [4, 4] [1, 1] : tensor<4x10xf32> to tensor<4x4xf32>
// CHECK:         %[[C:.+]] = tensor.extract_slice %[[X]][0, 8] [4, 2] [1, 1] : tensor<4x10xf32> to tensor<4x2xf32>
// CHECK:         return %[[A]], %[[B]], %[[C]]
func.func @constant_chunk(%x: !ts.tensor<f32, [4, 10]>) -> (!ts.tensor<f32, [4, 4]>, !ts.tensor<f32, [4, 4]>, !ts.tensor<f32, [4, 2]>) {
  %0, %1, %2 = ts.prim.ConstantChunk %x {chunks = 3 : i64, dim = -1 : i64} : !ts.tensor<f32, [4, 10]> -> !ts.tensor<f32, [4, 4]>, !ts.tensor<f32, [4, 4]>, !ts.tensor<f32, [4, 2]>
  return %0, %1, %2 : !ts.tensor<f32, [4, 4]>, !ts.tensor<f32, [4, 4]>, !ts.tensor<f32, [4, 2]>
}

// -----

// The lists of chunk, split and unbind are unpacked, indexed and measured at
// compile time.

// CHECK-LABEL: func.func @chunk_split_unbind(
// CHECK-SAME:      %[[X:.+]]: tensor<6x2xf32>)
// CHECK:         %[[A:.+]] = tensor.extract_slice %[[X]][0, 0] [3, 2] [1, 1] : tensor<6x2xf32> to tensor<3x2xf32>
// CHECK:         %[[B:.+]] = tensor.extract_slice %[[X]][3, 0] [3, 2] [1, 1] : tensor<6x2xf32> to tensor<3x2xf32>
// CHECK:         %[[N:.+]] = arith.constant 2 : i64
// CHECK:         %[[C:.+]] = tensor.extract_slice %[[X]][4, 0] [2, 2] [1, 1] : tensor<6x2xf32> to tensor<2x2xf32>
// CHECK:         %[[D:.+]] = tensor.extract_slice %[[X]][1, 0] [1, 2] [1, 1] : tensor<6x2xf32> to tensor<2xf32>
// CHECK:         %[[E:.+]] = tensor.extract_slice %[[X]][0, 1] [6, 1] [1, 1] : tensor<6x2xf32> to tensor<6xf32>
// CHECK:         return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]], %[[N]]
func.func @chunk_split_unbind(%x: !ts.tensor<f32, [6, 2]>) -> (!ts.tensor<f32, [3, 2]>, !ts.tensor<f32, [3, 2]>, !ts.tensor<f32, [2, 2]>, !ts.tensor<f32, [2]>, !ts.tensor<f32, [6]>, !ts.int) {
  %int2 = ts.prim.Constant[2] : !ts.int
  %int4 = ts.prim.Constant[4] : !ts.int
  %int0 = ts.prim.Constant[0] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %int-1 = ts.prim.Constant[-1] : !ts.int
  %chunks = ts.aten.chunk %x, %int2, %int0 : (!ts.tensor<f32, [6, 2]>, !ts.int, !ts.int) -> !ts.list<!ts.tensor>
  %a, %b = ts.prim.ListUnpack %chunks : !ts.list<!ts.tensor> -> !ts.tensor<f32, [3, 2]>, !ts.tensor<f32, [3, 2]>
  %splits = ts.aten.split.Tensor %x, %int4, %int0 : (!ts.tensor<f32, [6, 2]>, !ts.int, !ts.int) -> !ts.list<!ts.tensor>
  %c = ts.aten.__getitem__.t %splits, %int-1 : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor<f32, [2, 2]>
  %n = ts.aten.len.t %splits : (!ts.list<!ts.tensor>) -> !ts.int
  %rows = ts.aten.unbind.int %x, %int0 : (!ts.tensor<f32, [6, 2]>, !ts.int) -> !ts.list<!ts.tensor>
  %d = ts.aten.__getitem__.t %rows, %int1 : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor<f32, [2]>
  %cols = ts.aten.unbind.int %x, %int-1 : (!ts.tensor<f32, [6, 2]>, !ts.int) -> !ts.list<!ts.tensor>
  %e, %f = ts.prim.ListUnpack %cols : !ts.list<!ts.tensor> -> !ts.tensor<f32, [6]>, !ts.tensor<f32, [6]>
  return %a, %b, %c, %d, %f, %n : !ts.tensor<f32, [3, 2]>, !ts.tensor<f32, [3, 2]>, !ts.tensor<f32, [2, 2]>, !ts.tensor<f32, [2]>, !ts.tensor<f32, [6]>, !ts.int
}

// -----

// index_select and x[idx] read the source with tensor.extract in a generic
// over the result; a negative index counts from the end.

// CHECK-DAG:   #[[$COL:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG:   #[[$ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[$LEAD:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @index_select(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<5x4xf32>, %[[I:[^:]+]]: tensor<3xi64>, %[[J:[^:]+]]: tensor<2x3xi64>)
// CHECK:         %[[A:.+]] = linalg.generic {indexing_maps = [#[[$COL]], #[[$ID2]]]{{.*}} ins(%[[I]] : tensor<3xi64>) outs(%{{.+}} : tensor<5x3xf32>)
// CHECK:         ^bb0(%[[IDX:.+]]: i64, %{{.+}}: f32):
// CHECK:           %[[NEG:.+]] = arith.cmpi slt, %[[IDX]], %{{.+}} : i64
// CHECK:           %[[ADD:.+]] = arith.addi %[[IDX]], %{{.+}} : i64
// CHECK:           %[[W:.+]] = arith.select %[[NEG]], %[[ADD]], %[[IDX]] : i64
// CHECK:           %[[ROW:.+]] = linalg.index 0 : index
// CHECK:           %[[COLI:.+]] = arith.index_cast %[[W]] : i64 to index
// CHECK:           %[[V:.+]] = tensor.extract %[[X]][%[[ROW]], %[[COLI]]] : tensor<5x4xf32>
// CHECK:           linalg.yield %[[V]] : f32
// CHECK:         %[[B:.+]] = linalg.generic {indexing_maps = [#[[$LEAD]], {{.+}}]{{.*}} ins(%[[J]] : tensor<2x3xi64>) outs(%{{.+}} : tensor<2x3x4xf32>)
// CHECK:           %[[R:.+]] = arith.index_cast %{{.+}} : i64 to index
// CHECK:           %[[C:.+]] = linalg.index 2 : index
// CHECK:           tensor.extract %[[X]][%[[R]], %[[C]]] : tensor<5x4xf32>
// CHECK:         return %[[A]], %[[B]]
func.func @index_select(%x: !ts.tensor<f32, [5, 4]>, %i: !ts.tensor<si64, [3]>, %j: !ts.tensor<si64, [2, 3]>) -> (!ts.tensor<f32, [5, 3]>, !ts.tensor<f32, [2, 3, 4]>) {
  %int1 = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.index_select %x, %int1, %i : (!ts.tensor<f32, [5, 4]>, !ts.int, !ts.tensor<si64, [3]>) -> !ts.tensor<f32, [5, 3]>
  %indices = ts.prim.ListConstruct %j : (!ts.tensor<si64, [2, 3]>) -> !ts.list<!ts.optional<!ts.tensor>>
  %1 = ts.aten.index.Tensor %x, %indices : (!ts.tensor<f32, [5, 4]>, !ts.list<!ts.optional<!ts.tensor>>) -> !ts.tensor<f32, [2, 3, 4]>
  return %0, %1 : !ts.tensor<f32, [5, 3]>, !ts.tensor<f32, [2, 3, 4]>
}

// -----

// Several index tensors broadcast (here [2, 1] with [3]) and read self at
// their indices in one generic. Adjacent ones (x[:, i, j]) put their dims in
// place of the indexed dims; apart (x[i, :, j]) they lead the result. A
// size-1 dim of an index reads element 0.

// CHECK-DAG:   #[[$IMID:.+]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG:   #[[$JMID:.+]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-DAG:   #[[$ILEAD:.+]] = affine_map<(d0, d1, d2) -> (d0, 0)>
// CHECK-DAG:   #[[$JLEAD:.+]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @index_tensors(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<4x5x6xf32>, %[[I:[^:]+]]: tensor<2x1xi64>, %[[J:[^:]+]]: tensor<3xi64>)
// CHECK:         linalg.generic {indexing_maps = [#[[$IMID]], #[[$JMID]], {{.+}}]{{.*}} ins(%[[I]], %[[J]] : tensor<2x1xi64>, tensor<3xi64>) outs(%{{.+}} : tensor<4x2x3xf32>)
// CHECK:         ^bb0(%[[A:.+]]: i64, %[[B:.+]]: i64, %{{.+}}: f32):
// CHECK:           %[[D0:.+]] = linalg.index 0 : index
// CHECK:           %[[D1:.+]] = arith.index_cast %{{.+}} : i64 to index
// CHECK:           %[[D2:.+]] = arith.index_cast %{{.+}} : i64 to index
// CHECK:           tensor.extract %[[X]][%[[D0]], %[[D1]], %[[D2]]] : tensor<4x5x6xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[$ILEAD]], #[[$JLEAD]], {{.+}}]{{.*}} outs(%{{.+}} : tensor<2x3x5xf32>)
// CHECK:           %[[E0:.+]] = arith.index_cast %{{.+}} : i64 to index
// CHECK:           %[[E1:.+]] = linalg.index 2 : index
// CHECK:           %[[E2:.+]] = arith.index_cast %{{.+}} : i64 to index
// CHECK:           tensor.extract %[[X]][%[[E0]], %[[E1]], %[[E2]]] : tensor<4x5x6xf32>
func.func @index_tensors(%x: !ts.tensor<f32, [4, 5, 6]>, %i: !ts.tensor<si64, [2, 1]>, %j: !ts.tensor<si64, [3]>) -> (!ts.tensor<f32, [4, 2, 3]>, !ts.tensor<f32, [2, 3, 5]>) {
  %none = ts.prim.Constant : !ts.none
  %mid = ts.prim.ListConstruct %none, %i, %j : (!ts.none, !ts.tensor<si64, [2, 1]>, !ts.tensor<si64, [3]>) -> !ts.list<!ts.optional<!ts.tensor>>
  %0 = ts.aten.index.Tensor %x, %mid : (!ts.tensor<f32, [4, 5, 6]>, !ts.list<!ts.optional<!ts.tensor>>) -> !ts.tensor<f32, [4, 2, 3]>
  %apart = ts.prim.ListConstruct %i, %none, %j : (!ts.tensor<si64, [2, 1]>, !ts.none, !ts.tensor<si64, [3]>) -> !ts.list<!ts.optional<!ts.tensor>>
  %1 = ts.aten.index.Tensor %x, %apart : (!ts.tensor<f32, [4, 5, 6]>, !ts.list<!ts.optional<!ts.tensor>>) -> !ts.tensor<f32, [2, 3, 5]>
  return %0, %1 : !ts.tensor<f32, [4, 2, 3]>, !ts.tensor<f32, [2, 3, 5]>
}

// -----

// CHECK-DAG:   #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @gather(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<5x4xf32>, %[[I:[^:]+]]: tensor<5x2xi64>)
// CHECK:         %[[R:.+]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]]]{{.*}} ins(%[[I]] : tensor<5x2xi64>) outs(%{{.+}} : tensor<5x2xf32>)
// CHECK:           %[[ROW:.+]] = linalg.index 0 : index
// CHECK:           %[[COL:.+]] = arith.index_cast %{{.+}} : i64 to index
// CHECK:           tensor.extract %[[X]][%[[ROW]], %[[COL]]] : tensor<5x4xf32>
// CHECK:         return %[[R]]
func.func @gather(%x: !ts.tensor<f32, [5, 4]>, %i: !ts.tensor<si64, [5, 2]>) -> !ts.tensor<f32, [5, 2]> {
  %int1 = ts.prim.Constant[1] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.aten.gather %x, %int1, %i, %false : (!ts.tensor<f32, [5, 4]>, !ts.int, !ts.tensor<si64, [5, 2]>, !ts.bool) -> !ts.tensor<f32, [5, 2]>
  return %0 : !ts.tensor<f32, [5, 2]>
}

// -----

// Sizes of static tensors are constants.

// CHECK-LABEL: func.func @sizes(
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : i64
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : i64
// CHECK-DAG:     %[[C20:.+]] = arith.constant 20 : i64
// CHECK-DAG:     %[[C5:.+]] = arith.constant 5 : i64
// CHECK:         return %[[C4]], %[[C2]], %[[C20]], %[[C5]], %{{.+}} : i64, i64, i64, i64, i64
func.func @sizes(%x: !ts.tensor<f32, [5, 4]>) -> (!ts.int, !ts.int, !ts.int, !ts.int, !ts.int) {
  %int-1 = ts.prim.Constant[-1] : !ts.int
  %int0 = ts.prim.Constant[0] : !ts.int
  %0 = ts.aten.size.int %x, %int-1 : (!ts.tensor<f32, [5, 4]>, !ts.int) -> !ts.int
  %1 = ts.aten.dim %x : (!ts.tensor<f32, [5, 4]>) -> !ts.int
  %2 = ts.aten.numel %x : (!ts.tensor<f32, [5, 4]>) -> !ts.int
  %size = ts.aten.size %x : (!ts.tensor<f32, [5, 4]>) -> !ts.list<!ts.int>
  %3 = ts.aten.__getitem__.t %size, %int0 : (!ts.list<!ts.int>, !ts.int) -> !ts.int
  %4 = ts.aten.len.t %size : (!ts.list<!ts.int>) -> !ts.int
  return %0, %1, %2, %3, %4 : !ts.int, !ts.int, !ts.int, !ts.int, !ts.int
}

// -----

// _grad_sum_to_size sums the dims broadcasting added; None keeps the tensor.

// CHECK-DAG:   #[[$IN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG:   #[[$OUT:.+]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @grad_sum_to_size(
// CHECK-SAME:      %[[X:.+]]: tensor<2x3x4xf32>)
// CHECK:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[FILL:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<3xf32>)
// CHECK:         %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$OUT]]], iterator_types = ["reduction", "parallel", "reduction"]}
// CHECK-SAME:        ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[FILL]] : tensor<3xf32>)
// CHECK:           arith.addf
// CHECK:         %[[R:.+]] = tensor.expand_shape %[[SUM]] {{\[}}[0, 1]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
// CHECK:         return %[[R]], %[[X]]
func.func @grad_sum_to_size(%x: !ts.tensor<f32, [2, 3, 4]>) -> (!ts.tensor<f32, [3, 1]>, !ts.tensor<f32, [2, 3, 4]>) {
  %int3 = ts.prim.Constant[3] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %none = ts.prim.Constant : !ts.none
  %size = ts.prim.ListConstruct %int3, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten._grad_sum_to_size %x, %size : (!ts.tensor<f32, [2, 3, 4]>, !ts.list<!ts.int>) -> !ts.tensor<f32, [3, 1]>
  %1 = ts.aten._grad_sum_to_size %x, %none : (!ts.tensor<f32, [2, 3, 4]>, !ts.none) -> !ts.tensor<f32, [2, 3, 4]>
  return %0, %1 : !ts.tensor<f32, [3, 1]>, !ts.tensor<f32, [2, 3, 4]>
}

// -----

// In a fusion group, slices and selects of the group's inputs stay views and
// the expand's copy is fused: one generic reads the views, and reads the
// expanded vector at the selected index.

// CHECK-DAG:   #[[$ID:.+]] = affine_map<(d0) -> (d0)>
// CHECK-DAG:   #[[$AT1:.+]] = affine_map<(d0) -> (1)>
// CHECK-LABEL: func.func @group_views(
// CHECK-SAME:      %[[B1:[^:]+]]: tensor<8x4xf32>, %[[B2:[^:]+]]: tensor<8x4xf32>, %[[S:[^:]+]]: tensor<4xf32>)
// CHECK-DAG:     %[[X2:.+]] = tensor.extract_slice %[[B1]][0, 2] [8, 1] [1, 1] : tensor<8x4xf32> to tensor<8xf32>
// CHECK-DAG:     %[[X0:.+]] = tensor.extract_slice %[[B1]][0, 0] [8, 1] [1, 1] : tensor<8x4xf32> to tensor<8xf32>
// CHECK-DAG:     %[[Y2:.+]] = tensor.extract_slice %[[B2]][0, 2] [8, 1] [1, 1] : tensor<8x4xf32> to tensor<8xf32>
// CHECK:         %[[R:.+]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ID]], #[[$ID]], #[[$AT1]], #[[$ID]]], iterator_types = ["parallel"]}
// CHECK-SAME:        ins(%[[X2]], %[[X0]], %[[Y2]], %[[S]] : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4xf32>)
// CHECK-DAG:       arith.maximumf
// CHECK-DAG:       arith.subf
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]
func.func @group_views(%b1: !ts.tensor<f32, [8, 4]>, %b2: !ts.tensor<f32, [8, 4]>, %s: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [8]> {
  %0 = fusion.group nnc (%b1, %b2, %s) : (!ts.tensor<f32, [8, 4]>, !ts.tensor<f32, [8, 4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [8]> {
  ^bb0(%x: !ts.tensor<f32, [8, 4]>, %y: !ts.tensor<f32, [8, 4]>, %z: !ts.tensor<f32, [4]>):
    %int0 = ts.prim.Constant[0] : !ts.int
    %int1 = ts.prim.Constant[1] : !ts.int
    %int2 = ts.prim.Constant[2] : !ts.int
    %int8 = ts.prim.Constant[8] : !ts.int
    %int4 = ts.prim.Constant[4] : !ts.int
    %none = ts.prim.Constant : !ts.none
    %false = ts.prim.Constant[false] : !ts.bool
    %sl = ts.aten.slice.Tensor %x, %int0, %none, %none, %int1 : (!ts.tensor<f32, [8, 4]>, !ts.int, !ts.none, !ts.none, !ts.int) -> !ts.tensor<f32, [8, 4]>
    %x2 = ts.aten.select.int %sl, %int1, %int2 : (!ts.tensor<f32, [8, 4]>, !ts.int, !ts.int) -> !ts.tensor<f32, [8]>
    %x0 = ts.aten.select.int %sl, %int1, %int0 : (!ts.tensor<f32, [8, 4]>, !ts.int, !ts.int) -> !ts.tensor<f32, [8]>
    %y2 = ts.aten.select.int %y, %int1, %int2 : (!ts.tensor<f32, [8, 4]>, !ts.int, !ts.int) -> !ts.tensor<f32, [8]>
    %w = ts.aten.sub.Tensor %x2, %x0, %int1 : (!ts.tensor<f32, [8]>, !ts.tensor<f32, [8]>, !ts.int) -> !ts.tensor<f32, [8]>
    %m = ts.aten.max.other %x2, %y2 : (!ts.tensor<f32, [8]>, !ts.tensor<f32, [8]>) -> !ts.tensor<f32, [8]>
    %size = ts.prim.ListConstruct %int8, %int4 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
    %e = ts.aten.expand %z, %size, %false : (!ts.tensor<f32, [4]>, !ts.list<!ts.int>, !ts.bool) -> !ts.tensor<f32, [8, 4]>
    %z1 = ts.aten.select.int %e, %int1, %int1 : (!ts.tensor<f32, [8, 4]>, !ts.int, !ts.int) -> !ts.tensor<f32, [8]>
    %r = ts.aten.mul.Tensor %w, %m : (!ts.tensor<f32, [8]>, !ts.tensor<f32, [8]>) -> !ts.tensor<f32, [8]>
    %r2 = ts.aten.add.Tensor %r, %z1, %int1 : (!ts.tensor<f32, [8]>, !ts.tensor<f32, [8]>, !ts.int) -> !ts.tensor<f32, [8]>
    fusion.yield %r2 : !ts.tensor<f32, [8]>
  }
  return %0 : !ts.tensor<f32, [8]>
}

// -----

// A select, a strided slice and an unsqueeze of values computed in the group
// are copies with constant and strided indices in their maps, which fusion
// folds: one generic computes the whole group from its inputs.

// CHECK-DAG:   #[[$STRIDED:.+]] = affine_map<(d0, d1) -> (d0, d1 * 2 + 1)>
// CHECK-DAG:   #[[$COL3:.+]] = affine_map<(d0, d1) -> (d0, 3)>
// CHECK-DAG:   #[[$ROW:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG:   #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @group_computed(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<8x4xf32>, %[[B:[^:]+]]: tensor<8xf32>)
// CHECK-NOT:     tensor.extract_slice
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[R:.+]] = linalg.generic {indexing_maps = [#[[$STRIDED]], #[[$COL3]], #[[$ROW]], #[[$ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins(%[[A]], %[[A]], %[[B]] : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8xf32>)
// CHECK-COUNT-2:   math.tanh
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]

func.func @group_computed(%a: !ts.tensor<f32, [8, 4]>, %b: !ts.tensor<f32, [8]>) -> !ts.tensor<f32, [8, 2]> {
  %0 = fusion.group nnc (%a, %b) : (!ts.tensor<f32, [8, 4]>, !ts.tensor<f32, [8]>) -> !ts.tensor<f32, [8, 2]> {
  ^bb0(%x: !ts.tensor<f32, [8, 4]>, %y: !ts.tensor<f32, [8]>):
    %int0 = ts.prim.Constant[0] : !ts.int
    %int1 = ts.prim.Constant[1] : !ts.int
    %int2 = ts.prim.Constant[2] : !ts.int
    %int3 = ts.prim.Constant[3] : !ts.int
    %none = ts.prim.Constant : !ts.none
    %t = ts.aten.tanh %x : (!ts.tensor<f32, [8, 4]>) -> !ts.tensor<f32, [8, 4]>
    %c = ts.aten.select.int %t, %int1, %int3 : (!ts.tensor<f32, [8, 4]>, !ts.int, !ts.int) -> !ts.tensor<f32, [8]>
    %d = ts.aten.slice.Tensor %t, %int1, %int1, %none, %int2 : (!ts.tensor<f32, [8, 4]>, !ts.int, !ts.int, !ts.none, !ts.int) -> !ts.tensor<f32, [8, 2]>
    %s = ts.aten.mul.Tensor %c, %y : (!ts.tensor<f32, [8]>, !ts.tensor<f32, [8]>) -> !ts.tensor<f32, [8]>
    %u = ts.aten.unsqueeze %s, %int1 : (!ts.tensor<f32, [8]>, !ts.int) -> !ts.tensor<f32, [8, 1]>
    %r = ts.aten.add.Tensor %d, %u, %int1 : (!ts.tensor<f32, [8, 2]>, !ts.tensor<f32, [8, 1]>, !ts.int) -> !ts.tensor<f32, [8, 2]>
    fusion.yield %r : !ts.tensor<f32, [8, 2]>
  }
  return %0 : !ts.tensor<f32, [8, 2]>
}

// -----

// A slice from 0 that shortens a dimension of a value computed in the group
// would be a copy reading it at a plain d1, from which linalg would take
// the loop's size (the input's): it stays an extract_slice of the computed
// value.

// CHECK-LABEL: func.func @group_prefix_slice(
// CHECK:         %[[T:.+]] = linalg.generic
// CHECK:           math.tanh
// CHECK:         %[[S:.+]] = tensor.extract_slice %[[T]][0, 0] [8, 1] [1, 1] : tensor<8x4xf32> to tensor<8x1xf32>
// CHECK:         return %[[S]]
func.func @group_prefix_slice(%a: !ts.tensor<f32, [8, 4]>) -> !ts.tensor<f32, [8, 1]> {
  %0 = fusion.group nnc (%a) : (!ts.tensor<f32, [8, 4]>) -> !ts.tensor<f32, [8, 1]> {
  ^bb0(%x: !ts.tensor<f32, [8, 4]>):
    %int0 = ts.prim.Constant[0] : !ts.int
    %int1 = ts.prim.Constant[1] : !ts.int
    %t = ts.aten.tanh %x : (!ts.tensor<f32, [8, 4]>) -> !ts.tensor<f32, [8, 4]>
    %d = ts.aten.slice.Tensor %t, %int1, %int0, %int1, %int1 : (!ts.tensor<f32, [8, 4]>, !ts.int, !ts.int, !ts.int, !ts.int) -> !ts.tensor<f32, [8, 1]>
    fusion.yield %d : !ts.tensor<f32, [8, 1]>
  }
  return %0 : !ts.tensor<f32, [8, 1]>
}

// -----

// A slice whose end is an int known at run time has a dynamic size: its
// bounds are clamped as Python's, the other dims stay whole. The function
// returns it (--ts-destination-style-entry then writes it to an output of
// the sliced tensor's size).
// CHECK-LABEL: func.func @slice_to_run_time_end(
// CHECK-SAME: %[[X:.+]]: tensor<5x3xf32>, %[[N:.+]]: i64) -> tensor<?x3xf32>
// CHECK:     %[[WRAPPED:.+]] = arith.select
// CHECK:     %[[CLAMPED:.+]] = arith.minsi
// CHECK:     %[[END:.+]] = arith.index_cast %[[CLAMPED]] : i64 to index
// CHECK:     %[[LENGTH:.+]] = arith.maxsi
// CHECK:     %[[SLICE:.+]] = tensor.extract_slice %[[X]][{{.+}}, 0] [%[[LENGTH]], 3] [1, 1] : tensor<5x3xf32> to tensor<?x3xf32>
// CHECK:     return %[[SLICE]]
func.func @slice_to_run_time_end(%x: !ts.tensor<f32, [5, 3]>, %n: !ts.int) -> !ts.tensor<f32, [?, 3]> {
  %int0 = ts.prim.Constant[0] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.slice.Tensor %x, %int0, %int1, %n, %int1 : (!ts.tensor<f32, [5, 3]>, !ts.int, !ts.int, !ts.int, !ts.int) -> !ts.tensor<f32, [?, 3]>
  return %0 : !ts.tensor<f32, [?, 3]>
}
