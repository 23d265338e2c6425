// The CPU pipeline, whole and stage by stage.
// RUN: tsmlir-opt %s --ts-lower-to-llvm="entry=main" | FileCheck %s --check-prefix=LLVM
// RUN: tsmlir-opt %s --ts-lower-to-llvm="entry=main threads=2" | FileCheck %s --check-prefix=OMP
// RUN: tsmlir-opt %s --ts-lower-to-linalg="entry=main" | FileCheck %s --check-prefix=LINALG
// RUN: tsmlir-opt %s --ts-lower-to-linalg="entry=main" --ts-linalg-to-loops | FileCheck %s --check-prefix=LOOPS
// RUN: tsmlir-opt %s --ts-lower-to-linalg="entry=main fuse-groups=false" | FileCheck %s --check-prefix=UNFUSED

// LINALG-LABEL: func.func @main(
// LINALG-SAME: %{{.+}}: tensor<256x512xf32>, %{{.+}}: tensor<512xf32>, %[[OUT:.+]]: memref<256x512xf32>)
// LINALG-COUNT-1: linalg.generic
// LINALG-NOT: linalg.generic
// LINALG: bufferization.materialize_in_destination %{{.+}} in restrict writable %[[OUT]]

// UNFUSED-COUNT-3: linalg.generic

// The result is written straight into the output buffer: no temporary.
// LOOPS-LABEL: func.func @main(
// LOOPS-NOT: memref.alloc
// LOOPS: scf.parallel
// LOOPS:   scf.for
// LOOPS-NOT: memref.copy

// LLVM: llvm.func @main(
// LLVM: llvm.func @_mlir_ciface_main(
// LLVM-NOT: omp.
// LLVM-NOT: builtin.unrealized_conversion_cast

// OMP: omp.parallel num_threads
// OMP: omp.wsloop

func.func @main(%x: !ts.tensor<f32, [256, 512]>, %b: !ts.tensor<f32, [512]>) -> !ts.tensor<f32, [256, 512]> {
  %0 = fusion.group nnc (%x, %b) : (!ts.tensor<f32, [256, 512]>, !ts.tensor<f32, [512]>) -> !ts.tensor<f32, [256, 512]> {
  ^bb0(%a0: !ts.tensor<f32, [256, 512]>, %a1: !ts.tensor<f32, [512]>):
    %one = ts.prim.Constant[1] : !ts.int
    %s = ts.aten.add.Tensor %a0, %a1, %one : (!ts.tensor<f32, [256, 512]>, !ts.tensor<f32, [512]>, !ts.int) -> !ts.tensor<f32, [256, 512]>
    %t = ts.aten.tanh %s : (!ts.tensor<f32, [256, 512]>) -> !ts.tensor<f32, [256, 512]>
    %m = ts.aten.mul.Tensor %t, %a0 : (!ts.tensor<f32, [256, 512]>, !ts.tensor<f32, [256, 512]>) -> !ts.tensor<f32, [256, 512]>
    fusion.yield %m : !ts.tensor<f32, [256, 512]>
  }
  return %0 : !ts.tensor<f32, [256, 512]>
}
