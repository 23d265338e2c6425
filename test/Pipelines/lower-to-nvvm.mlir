// The GPU pipeline, whole and stage by stage. No GPU is needed: the kernels
// are compiled to PTX (format=isa), which the driver compiles when the
// module is loaded.
// RUN: tsmlir-opt %s --ts-lower-to-gpu="entry=main" | FileCheck %s --check-prefix=GPU
// RUN: tsmlir-opt %s --ts-lower-to-gpu="entry=main fuse-groups=false" | FileCheck %s --check-prefix=UNFUSED
// RUN: tsmlir-opt %s --ts-lower-to-nvvm="entry=main chip=sm_80" | FileCheck %s --check-prefix=NVVM

// One kernel for the group, writing the output buffer: 256x512 elements,
// sixteen per thread (four runs of four: 128-bit loads of the input and of
// the broadcast bias row, 128-bit stores), 256 threads a block.
// GPU-LABEL: func.func @main(
// GPU-SAME: %[[X:.+]]: memref<256x512xf32>, %[[B:.+]]: memref<512xf32>, %[[OUT:.+]]: memref<256x512xf32>)
// GPU-NOT: gpu.alloc
// GPU: gpu.launch blocks({{.*}}) in ({{.*}} = %c32, {{.*}}) threads({{.*}}) in ({{.*}} = %c256, {{.*}}) module(@main_kernels) function(@main_group0)
// GPU: vector.load %[[X]][%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<256x512xf32>, vector<4xf32>
// GPU: vector.load %[[B]][%{{.+}}] {alignment = 16 : i64} : memref<512xf32>, vector<4xf32>
// GPU-COUNT-4: math.tanh
// GPU: vector.store %{{.+}}, %[[OUT]][%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<256x512xf32>, vector<4xf32>
// GPU: gpu.terminator
// GPU-NOT: gpu.launch

// Unfused: a kernel per op, temporaries in device memory.
// UNFUSED-LABEL: func.func @main(
// UNFUSED: gpu.alloc
// UNFUSED-COUNT-3: gpu.launch
// UNFUSED: gpu.dealloc

// The host calls the kernel on a stream; the module embeds its PTX.
// NVVM: llvm.func @main(
// NVVM: gpu.launch_func <%{{.+}} : !llvm.ptr> @main_kernels::@main_group0
// NVVM: llvm.func @_mlir_ciface_main(
// NVVM: gpu.binary @main_kernels
// NVVM-SAME: .target sm_80
// NVVM-SAME: .visible .entry main_group0(
// NVVM-SAME: ld.global.v4
// NVVM-NOT: builtin.unrealized_conversion_cast

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
