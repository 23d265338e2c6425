// Argument types from a spec:
// RUN: tsmlir-opt %s --ts-specialize="func=add,arg0=f32[64,128],arg1=f32[128]" | FileCheck %s --check-prefix=ARGS
// The same through the pipeline syntax, with unknown sizes and dtypes:
// RUN: tsmlir-opt %s '--pass-pipeline=builtin.module(ts-specialize{func=add,arg0=f32[?,128],arg1=[128]})' | FileCheck %s --check-prefix=PARTIAL
// Argument types from .npy headers, for the tensor arguments in order:
// RUN: tsmlir-opt %s --ts-specialize="func=forward,inputs=%S/Inputs/npy/f32_2x3.npy,%S/Inputs/npy/bool_2x3.npy,%S/Inputs/npy/f64_scalar.npy" | FileCheck %s --check-prefix=NPY
// RUN: tsmlir-opt %s --ts-specialize="func=dtypes,inputs=%S/Inputs/npy/f16_2x3_v2.npy,%S/Inputs/npy/u8_3_v3.npy,%S/Inputs/npy/f32_3x2_fortran.npy,%S/Inputs/npy/f32_2x3_bigendian.npy,%S/Inputs/npy/i64_4.npy" | FileCheck %s --check-prefix=DTYPES
// An Optional[Tensor] argument given a tensor becomes a tensor:
// RUN: tsmlir-opt %s --ts-specialize="func=optional,arg1=f32[128],arg0=f32[64,128]" | FileCheck %s --check-prefix=OPTIONAL
// Without func= and with no single public function, every function the spec
// fits: not @forward, whose arg0 is not a tensor.
// RUN: tsmlir-opt %s --ts-specialize="arg0=f32[8],arg1=f32[8]" | FileCheck %s --check-prefix=ANY
// The device the code runs on answers the device queries (torch.nn's
// attention checks that its tensors are on the CPU or a GPU):
// RUN: tsmlir-opt %s --ts-specialize="func=devices,device=cpu" | FileCheck %s --check-prefix=CPU
// RUN: tsmlir-opt %s --ts-specialize="func=devices,device=cuda" | FileCheck %s --check-prefix=CUDA

// ARGS-LABEL: func.func @add(
// ARGS-SAME:      %{{.*}}: !ts.tensor<f32, [64, 128]>, %{{.*}}: !ts.tensor<f32, [128]>) -> !ts.tensor<f32, [64, 128]>
// ARGS:         ts.aten.add.Tensor {{.*}} -> !ts.tensor<f32, [64, 128]>
// ARGS-LABEL: func.func @forward(
// ARGS-SAME:      %{{.*}}: !ts.module<"__torch__.M">, %{{.*}}: !ts.tensor, %{{.*}}: !ts.int, %{{.*}}: !ts.tensor, %{{.*}}: !ts.tensor) -> !ts.tensor {

// PARTIAL-LABEL: func.func @add(
// PARTIAL-SAME:      %{{.*}}: !ts.tensor<f32, [?, 128]>, %{{.*}}: !ts.tensor<[128]>) -> !ts.tensor<[?, 128]>
func.func @add(%x: !ts.tensor, %b: !ts.tensor) -> !ts.tensor {
  %one = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.add.Tensor %x, %b, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
  return %0 : !ts.tensor
}

// A module's forward: self and the int are skipped by inputs=. A 0-d Double
// does not promote a Float tensor of higher rank.
// NPY-LABEL: func.func @forward(
// NPY-SAME:      %{{.*}}: !ts.module<"__torch__.M">, %{{.*}}: !ts.tensor<f32, [2, 3]>, %{{.*}}: !ts.int, %{{.*}}: !ts.tensor<i1, [2, 3]>, %{{.*}}: !ts.tensor<f64, []>) -> !ts.tensor<f32, [2, 3]>
// NPY:         ts.aten.where.ScalarOther {{.*}} -> !ts.tensor<f32, [2, 3]>
// NPY:         ts.aten.mul.Tensor {{.*}} -> !ts.tensor<f32, [2, 3]>
func.func @forward(%self: !ts.module<"__torch__.M">, %x: !ts.tensor, %n: !ts.int, %mask: !ts.tensor, %scale: !ts.tensor) -> !ts.tensor {
  %zero = ts.prim.Constant[0.0] : !ts.float
  %0 = ts.aten.where.ScalarOther %mask, %x, %zero : (!ts.tensor, !ts.tensor, !ts.float) -> !ts.tensor
  %1 = ts.aten.mul.Tensor %0, %scale : (!ts.tensor, !ts.tensor) -> !ts.tensor
  return %1 : !ts.tensor
}

// DTYPES-LABEL: func.func @dtypes(
// DTYPES-SAME:      !ts.tensor<f16, [2, 3]>, %{{.*}}: !ts.tensor<ui8, [3]>, %{{.*}}: !ts.tensor<f32, [3, 2]>, %{{.*}}: !ts.tensor<f32, [2, 3]>, %{{.*}}: !ts.tensor<si64, [4]>)
func.func @dtypes(%a: !ts.tensor, %b: !ts.tensor, %c: !ts.tensor, %d: !ts.tensor, %e: !ts.tensor) {
  return
}

// OPTIONAL-LABEL: func.func @optional(
// OPTIONAL-SAME:      %{{.*}}: !ts.tensor<f32, [64, 128]>, %{{.*}}: !ts.tensor<f32, [128]>) -> !ts.tensor<f32, [64, 128]>
// OPTIONAL:         ts.aten.__isnot__ {{.*}} : (!ts.tensor<f32, [128]>, !ts.none) -> !ts.bool
// OPTIONAL:         ts.prim.If {{.*}} -> (!ts.tensor<f32, [64, 128]>)
func.func @optional(%x: !ts.tensor, %bias: !ts.optional<!ts.tensor>) -> !ts.tensor {
  %one = ts.prim.Constant[1] : !ts.int
  %none = ts.prim.Constant : !ts.none
  %c = ts.aten.__isnot__ %bias, %none : (!ts.optional<!ts.tensor>, !ts.none) -> !ts.bool
  %y = ts.prim.If %c -> (!ts.tensor) {
    %b = ts.prim.unchecked_cast %bias : !ts.optional<!ts.tensor> -> !ts.tensor
    %s = ts.aten.add.Tensor %x, %b, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
    ts.prim.Yield %s : !ts.tensor
  } else {
    ts.prim.Yield %x : !ts.tensor
  }
  return %y : !ts.tensor
}

// ANY-LABEL: func.func @add(
// ANY-SAME:      !ts.tensor<f32, [8]>, %{{.*}}: !ts.tensor<f32, [8]>) -> !ts.tensor<f32, [8]>
// ANY-LABEL: func.func @forward(
// ANY-SAME:      !ts.module<"__torch__.M">, %{{.*}}: !ts.tensor,
// ANY-LABEL: func.func @dtypes(
// ANY-SAME:      !ts.tensor<f32, [8]>, %{{.*}}: !ts.tensor<f32, [8]>, %{{.*}}: !ts.tensor,
// ANY-LABEL: func.func @optional(
// ANY-SAME:      !ts.tensor<f32, [8]>, %{{.*}}: !ts.tensor<f32, [8]>)

// CPU-LABEL: func.func @devices(
// CPU-DAG:     %[[D:.+]] = ts.prim.Constant["cpu"] : !ts.device
// CPU-DAG:     %[[T:.+]] = ts.prim.Constant[true] : !ts.bool
// CPU-DAG:     %[[F:.+]] = ts.prim.Constant[false] : !ts.bool
// CPU-NOT:     ts.prim.is_c
// CPU:         return %[[D]], %[[F]], %[[T]]
// CUDA-LABEL: func.func @devices(
// CUDA-DAG:    %[[D:.+]] = ts.prim.Constant["cuda:0"] : !ts.device
// CUDA-DAG:    %[[T:.+]] = ts.prim.Constant[true] : !ts.bool
// CUDA-DAG:    %[[F:.+]] = ts.prim.Constant[false] : !ts.bool
// CUDA:        return %[[D]], %[[T]], %[[F]]
func.func @devices(%x: !ts.tensor) -> (!ts.device, !ts.bool, !ts.bool) {
  %d = ts.prim.device %x : (!ts.tensor) -> !ts.device
  %c = ts.prim.is_cuda %x : (!ts.tensor) -> !ts.bool
  %p = ts.prim.is_cpu %x : (!ts.tensor) -> !ts.bool
  return %d, %c, %p : !ts.device, !ts.bool, !ts.bool
}
