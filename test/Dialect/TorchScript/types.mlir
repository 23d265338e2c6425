// RUN: tsmlir-opt %s | tsmlir-opt | FileCheck %s

// Every `ts` type, as a function argument: parse, print, parse again.

//===----------------------------------------------------------------------===//
// !ts.tensor
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @tensor_unrefined(
// CHECK-SAME:    %{{.+}}: !ts.tensor)
func.func @tensor_unrefined(%arg0: !ts.tensor) {
  return
}

// CHECK-LABEL: func.func @tensor_dtypes(
// CHECK-SAME:    !ts.tensor<f16>
// CHECK-SAME:    !ts.tensor<bf16>
// CHECK-SAME:    !ts.tensor<f32>
// CHECK-SAME:    !ts.tensor<f64>
// CHECK-SAME:    !ts.tensor<ui8>
// CHECK-SAME:    !ts.tensor<si8>
// CHECK-SAME:    !ts.tensor<si16>
// CHECK-SAME:    !ts.tensor<si32>
// CHECK-SAME:    !ts.tensor<si64>
// CHECK-SAME:    !ts.tensor<i1>
// CHECK-SAME:    !ts.tensor<complex<f16>>
// CHECK-SAME:    !ts.tensor<complex<f32>>
// CHECK-SAME:    !ts.tensor<complex<f64>>)
func.func @tensor_dtypes(%f16: !ts.tensor<f16>, %bf16: !ts.tensor<bf16>,
                         %f32: !ts.tensor<f32>, %f64: !ts.tensor<f64>,
                         %ui8: !ts.tensor<ui8>, %si8: !ts.tensor<si8>,
                         %si16: !ts.tensor<si16>, %si32: !ts.tensor<si32>,
                         %si64: !ts.tensor<si64>, %i1: !ts.tensor<i1>,
                         %c16: !ts.tensor<complex<f16>>,
                         %c32: !ts.tensor<complex<f32>>,
                         %c64: !ts.tensor<complex<f64>>) {
  return
}

// CHECK-LABEL: func.func @tensor_sizes(
// CHECK-SAME:    !ts.tensor<f32, [2, 3]>
// CHECK-SAME:    !ts.tensor<f32, [?, 128]>
// CHECK-SAME:    !ts.tensor<f32, [?, ?, ?]>
// CHECK-SAME:    !ts.tensor<f32, []>
// CHECK-SAME:    !ts.tensor<si64, [0]>)
func.func @tensor_sizes(%static: !ts.tensor<f32, [2, 3]>,
                        %dynamic: !ts.tensor<f32, [?, 128]>,
                        %unknown: !ts.tensor<f32, [?, ?, ?]>,
                        %scalar: !ts.tensor<f32, []>,
                        %empty: !ts.tensor<si64, [0]>) {
  return
}

// Sizes without a dtype: known shape, unknown element type.
// CHECK-LABEL: func.func @tensor_sizes_without_dtype(
// CHECK-SAME:    !ts.tensor<[4]>
// CHECK-SAME:    !ts.tensor<[?, 3]>
// CHECK-SAME:    !ts.tensor<[]>)
func.func @tensor_sizes_without_dtype(%a: !ts.tensor<[4]>,
                                      %b: !ts.tensor<[?, 3]>,
                                      %c: !ts.tensor<[]>) {
  return
}

// CHECK-LABEL: func.func @tensor_strides(
// CHECK-SAME:    !ts.tensor<f32, [2, 3], strides = [3, 1]>
// CHECK-SAME:    !ts.tensor<f32, [?, 3], strides = [?, 1]>
// CHECK-SAME:    !ts.tensor<f32, [], strides = []>
// CHECK-SAME:    !ts.tensor<[4], strides = [1]>)
func.func @tensor_strides(%a: !ts.tensor<f32, [2, 3], strides = [3, 1]>,
                          %b: !ts.tensor<f32, [?, 3], strides = [?, 1]>,
                          %c: !ts.tensor<f32, [], strides = []>,
                          %d: !ts.tensor<[4], strides = [1]>) {
  return
}

// CHECK-LABEL: func.func @tensor_device(
// CHECK-SAME:    !ts.tensor<device = "cpu">
// CHECK-SAME:    !ts.tensor<f16, device = "cuda:0">
// CHECK-SAME:    !ts.tensor<[2], device = "cuda:1">)
func.func @tensor_device(%a: !ts.tensor<device = "cpu">,
                         %b: !ts.tensor<f16, device = "cuda:0">,
                         %c: !ts.tensor<[2], device = "cuda:1">) {
  return
}

// CHECK-LABEL: func.func @tensor_requires_grad(
// CHECK-SAME:    !ts.tensor<requires_grad = true>
// CHECK-SAME:    !ts.tensor<requires_grad = false>
// CHECK-SAME:    !ts.tensor<f32, requires_grad = true>)
func.func @tensor_requires_grad(%a: !ts.tensor<requires_grad = true>,
                                %b: !ts.tensor<requires_grad = false>,
                                %c: !ts.tensor<f32, requires_grad = true>) {
  return
}

// A fully profiled tensor, as `Float(2, 3, strides=[3, 1], requires_grad=0,
// device=cpu)`; the keywords print in a fixed order whatever order they were
// written in.
// CHECK-LABEL: func.func @tensor_fully_refined(
// CHECK-SAME:    !ts.tensor<f32, [2, 3], strides = [3, 1], device = "cpu", requires_grad = false>
// CHECK-SAME:    !ts.tensor<si64, [?], strides = [?], device = "cuda:0", requires_grad = true>)
func.func @tensor_fully_refined(
    %a: !ts.tensor<f32, [2, 3], strides = [3, 1], device = "cpu", requires_grad = false>,
    %b: !ts.tensor<si64, requires_grad = true, device = "cuda:0", [?], strides = [?]>) {
  return
}

//===----------------------------------------------------------------------===//
// Scalar and opaque value types
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @scalars(
// CHECK-SAME:    !ts.int
// CHECK-SAME:    !ts.float
// CHECK-SAME:    !ts.bool
// CHECK-SAME:    !ts.str
// CHECK-SAME:    !ts.none
// CHECK-SAME:    !ts.device
// CHECK-SAME:    !ts.number
// CHECK-SAME:    !ts.complex)
func.func @scalars(%i: !ts.int, %f: !ts.float, %b: !ts.bool, %s: !ts.str,
                   %n: !ts.none, %d: !ts.device, %num: !ts.number,
                   %c: !ts.complex) {
  return
}

// CHECK-LABEL: func.func @opaque_values(
// CHECK-SAME:    !ts.any
// CHECK-SAME:    !ts.function
// CHECK-SAME:    !ts.generator
// CHECK-SAME:    !ts.layout
// CHECK-SAME:    !ts.memory_format
// CHECK-SAME:    !ts.scalar_type
// CHECK-SAME:    !ts.storage
// CHECK-SAME:    !ts.stream)
func.func @opaque_values(%a: !ts.any, %f: !ts.function, %g: !ts.generator,
                         %l: !ts.layout, %m: !ts.memory_format,
                         %st: !ts.scalar_type, %s: !ts.storage,
                         %str: !ts.stream) {
  return
}

//===----------------------------------------------------------------------===//
// Containers
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @lists(
// CHECK-SAME:    !ts.list<!ts.int>
// CHECK-SAME:    !ts.list<!ts.tensor>
// CHECK-SAME:    !ts.list<!ts.optional<!ts.tensor<f32>>>
// CHECK-SAME:    !ts.list<!ts.list<!ts.float>>)
func.func @lists(%a: !ts.list<!ts.int>, %b: !ts.list<!ts.tensor>,
                 %c: !ts.list<!ts.optional<!ts.tensor<f32>>>,
                 %d: !ts.list<!ts.list<!ts.float>>) {
  return
}

// CHECK-LABEL: func.func @optionals(
// CHECK-SAME:    !ts.optional<!ts.tensor>
// CHECK-SAME:    !ts.optional<!ts.int>
// CHECK-SAME:    !ts.optional<!ts.list<!ts.int>>)
func.func @optionals(%a: !ts.optional<!ts.tensor>, %b: !ts.optional<!ts.int>,
                     %c: !ts.optional<!ts.list<!ts.int>>) {
  return
}

// CHECK-LABEL: func.func @futures(
// CHECK-SAME:    !ts.future<!ts.tensor>
// CHECK-SAME:    !ts.future<!ts.tuple<!ts.int, !ts.str>>)
func.func @futures(%a: !ts.future<!ts.tensor>,
                   %b: !ts.future<!ts.tuple<!ts.int, !ts.str>>) {
  return
}

// CHECK-LABEL: func.func @tuples(
// CHECK-SAME:    !ts.tuple<>
// CHECK-SAME:    !ts.tuple<!ts.int>
// CHECK-SAME:    !ts.tuple<!ts.tensor, !ts.int, !ts.list<!ts.float>>
// CHECK-SAME:    !ts.tuple<!ts.tensor, !ts.tensor, name = "__torch__.Pair">
// CHECK-SAME:    !ts.tuple<name = "__torch__.Empty">
// CHECK-SAME:    !ts.tuple<!ts.tuple<!ts.int>, !ts.none>)
func.func @tuples(%empty: !ts.tuple<>, %one: !ts.tuple<!ts.int>,
                  %three: !ts.tuple<!ts.tensor, !ts.int, !ts.list<!ts.float>>,
                  %named: !ts.tuple<!ts.tensor, !ts.tensor, name = "__torch__.Pair">,
                  %named_empty: !ts.tuple<name = "__torch__.Empty">,
                  %nested: !ts.tuple<!ts.tuple<!ts.int>, !ts.none>) {
  return
}

// CHECK-LABEL: func.func @unions(
// CHECK-SAME:    !ts.union<!ts.int, !ts.str>
// CHECK-SAME:    !ts.union<!ts.tensor, !ts.list<!ts.tensor>, !ts.none>)
func.func @unions(%a: !ts.union<!ts.int, !ts.str>,
                  %b: !ts.union<!ts.tensor, !ts.list<!ts.tensor>, !ts.none>) {
  return
}

// CHECK-LABEL: func.func @dicts(
// CHECK-SAME:    !ts.dict<!ts.str, !ts.tensor>
// CHECK-SAME:    !ts.dict<!ts.int, !ts.list<!ts.int>>)
func.func @dicts(%a: !ts.dict<!ts.str, !ts.tensor>,
                 %b: !ts.dict<!ts.int, !ts.list<!ts.int>>) {
  return
}

//===----------------------------------------------------------------------===//
// Named types
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @named(
// CHECK-SAME:    !ts.module<"__torch__.torch.nn.modules.linear.Linear">
// CHECK-SAME:    !ts.module<"__torch__.___torch_mangle_3.MLP">
// CHECK-SAME:    !ts.class<"__torch__.MyClass">
// CHECK-SAME:    !ts.opaque<"__torch__.torch.classes.my.Thing">
// CHECK-SAME:    !ts.opaque<"Await[Tensor]">)
func.func @named(%a: !ts.module<"__torch__.torch.nn.modules.linear.Linear">,
                 %b: !ts.module<"__torch__.___torch_mangle_3.MLP">,
                 %c: !ts.class<"__torch__.MyClass">,
                 %d: !ts.opaque<"__torch__.torch.classes.my.Thing">,
                 %e: !ts.opaque<"Await[Tensor]">) {
  return
}

// Types also round trip as results.
// CHECK-LABEL: func.func @results(
// CHECK-SAME:    -> (!ts.tensor<f32, [2]>, !ts.optional<!ts.int>)
func.func @results(%a: !ts.tensor<f32, [2]>, %b: !ts.optional<!ts.int>)
    -> (!ts.tensor<f32, [2]>, !ts.optional<!ts.int>) {
  return %a, %b : !ts.tensor<f32, [2]>, !ts.optional<!ts.int>
}
