// RUN: tsmlir-opt %s --ts-library-kernels --ts-fusion-report=strategy=nnc -o /dev/null 2>&1 | FileCheck %s
// RUN: tsmlir-opt %s --ts-library-kernels --ts-fusion-report="json strategy=nnc" -o /dev/null 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: tsmlir-opt %s --ts-library-kernels --ts-fusion-report="dot strategy=nnc" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DOT

// A convolution with its bias, a residual add and a relu becomes one library
// kernel (ts-library-kernels); the report shows it as a group whose epilogue
// holds the bias, the residual and the relu. Before: the convolution reads x,
// w and b (1024 + 576 + 16 B) and writes its result (1024 B); the add reads
// it and r and writes, the relu reads and writes (6 loads, 3 stores, 7760 B).
// After: the kernel reads x, w, b and r once and writes once (3664 B). The
// sigmoid and mul after it form an ordinary fusion group.

// CHECK-LABEL: === @block, strategy nnc ===
// CHECK-NEXT:  group 0: 2 ops in the function body (1 x aten::sigmoid, 1 x aten::mul)
// CHECK-NEXT:    ops: aten::sigmoid aten::mul
// CHECK-NEXT:    inputs:
// CHECK-NEXT:      %[[K:[0-9]+]] !ts.tensor<f32, [1, 4, 8, 8]>  (1024 B)
// CHECK:           before        3       2         3072           2048         5120
// CHECK-NEXT:      after         1       1         1024           1024         2048
// CHECK-NEXT:  group 1: library kernel kernel.conv2d in the function body
// CHECK-NEXT:    epilogue: bias residual relu
// CHECK-NEXT:    inputs:
// CHECK-NEXT:      %arg0    !ts.tensor<f32, [1, 4, 8, 8]>  (1024 B)
// CHECK-NEXT:      %arg1    !ts.tensor<f32, [4, 4, 3, 3]>  (576 B)
// CHECK-NEXT:      %arg2    !ts.tensor<f32, [4]>  (16 B)
// CHECK-NEXT:      %arg3    !ts.tensor<f32, [1, 4, 8, 8]>  (1024 B)
// CHECK-NEXT:    outputs:
// CHECK-NEXT:      %[[K]] !ts.tensor<f32, [1, 4, 8, 8]>  (1024 B)
// CHECK-NEXT:               loads  stores   bytes read  bytes written        bytes
// CHECK-NEXT:      before        6       3         4688           3072         7760
// CHECK-NEXT:      after         4       1         2640           1024         3664
// CHECK-NEXT:  group 2: library kernel kernel.matmul in the function body
// CHECK-NEXT:    epilogue: none
// CHECK:       summary nnc: 3 groups (2 library kernels, 3 epilogue entries), 2 ops fused, 0 ops left; loads 11 -> 7, stores 6 -> 3, bytes 13152 -> 5984 (2.20x)

// JSON:      "groups": [
// JSON:          "index": 1,
// JSON-NEXT:     "inputs": [
// JSON:          "libraryKernel": {
// JSON-NEXT:       "epilogue": [
// JSON-NEXT:         "bias",
// JSON-NEXT:         "residual",
// JSON-NEXT:         "relu"
// JSON-NEXT:       ]
// JSON-NEXT:     },
// JSON-NEXT:     "ops": [
// JSON-NEXT:       {
// JSON-NEXT:         "kind": "kernel.conv2d",
// JSON:        "summary": {
// JSON:          "epilogueEntries": 3,
// JSON-NEXT:     "fusedOps": 2,
// JSON-NEXT:     "groups": 3,
// JSON-NEXT:     "libraryKernels": 2,

// DOT-LABEL: digraph "block.nnc" {
// DOT:         subgraph cluster_1 {
// DOT-NEXT:      label="group 1: library kernel, epilogue [bias, residual, relu], 7760 B -> 3664 B";
// DOT-NEXT:      style=filled; fillcolor="#ffffb3";
// DOT-NEXT:      n{{[0-9]+}} [label="kernel.conv2d"];
// DOT-NEXT:    }

func.func @block(%x: !ts.tensor<f32, [1, 4, 8, 8]>, %w: !ts.tensor<f32, [4, 4, 3, 3]>, %b: !ts.tensor<f32, [4]>, %r: !ts.tensor<f32, [1, 4, 8, 8]>, %a: !ts.tensor<f32, [4, 8]>, %m: !ts.tensor<f32, [8, 3]>) -> (!ts.tensor<f32, [1, 4, 8, 8]>, !ts.tensor<f32, [4, 3]>) {
  %int1 = ts.prim.Constant[1] : !ts.int
  %ones = ts.prim.ListConstruct %int1, %int1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.conv2d %x, %w, %b, %ones, %ones, %ones, %int1 : (!ts.tensor<f32, [1, 4, 8, 8]>, !ts.tensor<f32, [4, 4, 3, 3]>, !ts.tensor<f32, [4]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.int) -> !ts.tensor<f32, [1, 4, 8, 8]>
  %1 = ts.aten.add.Tensor %r, %0, %int1 : (!ts.tensor<f32, [1, 4, 8, 8]>, !ts.tensor<f32, [1, 4, 8, 8]>, !ts.int) -> !ts.tensor<f32, [1, 4, 8, 8]>
  %2 = ts.aten.relu %1 : (!ts.tensor<f32, [1, 4, 8, 8]>) -> !ts.tensor<f32, [1, 4, 8, 8]>
  %3 = ts.aten.sigmoid %2 : (!ts.tensor<f32, [1, 4, 8, 8]>) -> !ts.tensor<f32, [1, 4, 8, 8]>
  %4 = ts.aten.mul.Tensor %3, %2 : (!ts.tensor<f32, [1, 4, 8, 8]>, !ts.tensor<f32, [1, 4, 8, 8]>) -> !ts.tensor<f32, [1, 4, 8, 8]>
  %5 = ts.aten.mm %a, %m : (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [8, 3]>) -> !ts.tensor<f32, [4, 3]>
  return %4, %5 : !ts.tensor<f32, [1, 4, 8, 8]>, !ts.tensor<f32, [4, 3]>
}
