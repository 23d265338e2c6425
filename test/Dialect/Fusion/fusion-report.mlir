// RUN: tsmlir-opt %s -split-input-file --ts-fusion-report -o /dev/null 2>&1 | FileCheck %s
// RUN: tsmlir-opt %s -split-input-file --ts-fusion-report=json -o /dev/null 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: tsmlir-opt %s -split-input-file --ts-fusion-report="dot strategy=nnc" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DOT
// RUN: tsmlir-opt %s -split-input-file --ts-fusion-report="format=text strategy=pointwise output=-" | FileCheck %s --check-prefix=STDOUT
// RUN: tsmlir-opt %s --ts-fusion-report="json strategy=nnc output=%t.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=FILE --input-file=%t.json

// The report leaves the IR as it was.
// RUN: tsmlir-opt %s -split-input-file --ts-fusion-report 2>/dev/null | FileCheck %s --check-prefix=IR

// softmax joins the pointwise ops under nnc, not under pointwise. Before
// fusion each op reads its tensor operands and writes its result (6 loads, 4
// stores of 128 bytes); the group reads x and y once and writes one result.

// CHECK-LABEL: === @softmax, strategy pointwise ===
// CHECK-NEXT:  group 0: 3 ops in the function body (1 x aten::sub, 1 x aten::mul, 1 x aten::relu)
// CHECK-NEXT:    ops: aten::sub aten::mul aten::relu
// CHECK-NEXT:    inputs:
// CHECK-NEXT:      %arg0    !ts.tensor<f32, [4, 8]>  (128 B)
// CHECK-NEXT:      %arg1    !ts.tensor<f32, [4, 8]>  (128 B)
// CHECK-NEXT:    outputs:
// CHECK-NEXT:      %2       !ts.tensor<f32, [4, 8]>  (128 B)
// CHECK-NEXT:               loads  stores   bytes read  bytes written        bytes
// CHECK-NEXT:      before        5       3          640            384         1024
// CHECK-NEXT:      after         2       1          256            128          384
// CHECK-NEXT:  unfused ops:
// CHECK-NEXT:    aten::softmax  {{.*}}fusion-report.mlir:{{[0-9]+}}:8  strategy excludes it  in the function body
// CHECK-NEXT:  summary pointwise: 1 groups, 3 ops fused, 1 ops left; loads 5 -> 2, stores 3 -> 1, bytes 1024 -> 384 (2.67x)

// CHECK-LABEL: === @softmax, strategy nnc ===
// CHECK-NEXT:  group 0: 4 ops in the function body (1 x aten::sub, 1 x aten::mul, 1 x aten::relu, 1 x aten::softmax)
// CHECK:           before        6       4          768            512         1280
// CHECK-NEXT:      after         2       1          256            128          384
// CHECK-NEXT:  summary nnc: 1 groups, 4 ops fused, 0 ops left; loads 6 -> 2, stores 4 -> 1, bytes 1280 -> 384 (3.33x)

// CHECK-LABEL: === @softmax, strategy nvfuser ===
// CHECK:       summary nvfuser: 1 groups, 4 ops fused, 0 ops left
// CHECK-LABEL: === @softmax, strategy aggressive ===
// CHECK:       summary aggressive: 1 groups, 4 ops fused, 0 ops left

// JSON:      "function": "softmax",
// JSON:      "strategy": "pointwise"
// JSON:      "unfused": [
// JSON-NEXT:   {
// JSON-NEXT:     "kind": "aten::softmax",
// JSON-NEXT:     "loc": "{{.*}}fusion-report.mlir:{{[0-9]+}}:8",
// JSON-NEXT:     "op": "ts.aten.softmax.int",
// JSON-NEXT:     "reason": "strategy excludes it"
// JSON:      "strategy": "nnc"
// JSON:      "summary": {
// JSON-NEXT:   "after": {
// JSON-NEXT:     "bytes": 384,
// JSON:          "loads": 2,
// JSON-NEXT:     "stores": 1,
// JSON:        "before": {
// JSON-NEXT:     "bytes": 1280,
// JSON:          "loads": 6,
// JSON-NEXT:     "stores": 4,
// JSON:        "fusedOps": 4,
// JSON-NEXT:   "groups": 1,
// JSON-NEXT:   "ratio": 3.33
// JSON-NEXT:   "unfusedOps": 0

// DOT-LABEL: digraph "softmax.nnc" {
// DOT:         a0 [shape=ellipse, label="%arg0\n!ts.tensor<f32, [4, 8]>"];
// DOT:         subgraph cluster_0 {
// DOT-NEXT:      label="group 0: 4 ops, 1280 B -> 384 B";
// DOT-NEXT:      style=filled; fillcolor="#8dd3c7";
// DOT-NEXT:      n0 [label="aten::sub"];
// DOT-NEXT:      n1 [label="aten::mul"];
// DOT-NEXT:      n2 [label="aten::relu"];
// DOT-NEXT:      n3 [label="aten::softmax"];
// DOT-NEXT:    }
// DOT-NEXT:    n4 [label="func.return", color=gray50];
// DOT:         a0 -> n0 [label="128 B"];
// DOT:         n3 -> n4 [label="128 B"];

// STDOUT: summary pointwise: 1 groups, 3 ops fused, 1 ops left

// Without -split-input-file: one document for the functions of the file,
// under one strategy.
// FILE:      "functions": [
// FILE:      "function": "softmax",
// FILE-NOT:  "strategy": "pointwise"
// FILE:      "strategy": "nnc"
// FILE:      "function": "reduction",
// FILE:      "function": "unknown_and_side_effect",
// FILE:      "function": "cycle",

// IR-LABEL: func.func @softmax
// IR:         ts.aten.softmax.int
// IR-NOT:     fusion.group
func.func @softmax(%x: !ts.tensor<f32, [4, 8]>, %y: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 8]> {
  %one = ts.prim.Constant[1] : !ts.int
  %none = ts.prim.Constant : !ts.none
  %d = ts.aten.sub.Tensor %x, %y, %one : (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [4, 8]>, !ts.int) -> !ts.tensor<f32, [4, 8]>
  %m = ts.aten.mul.Tensor %d, %x : (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 8]>
  %r = ts.aten.relu %m : (!ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 8]>
  %s = ts.aten.softmax.int %r, %one, %none : (!ts.tensor<f32, [4, 8]>, !ts.int, !ts.none) -> !ts.tensor<f32, [4, 8]>
  return %s : !ts.tensor<f32, [4, 8]>
}

// -----

// A reduction joins a group only under nvfuser and aggressive; alone, its
// pointwise neighbours are too few for a group. The group reads the list of
// dims (no tensor: no bytes).

// CHECK-LABEL: === @reduction, strategy pointwise ===
// CHECK-NEXT:  unfused ops:
// CHECK-NEXT:    aten::mul  {{.*}}fusion-report.mlir:{{[0-9]+}}:8  group below min-size  in the function body
// CHECK-NEXT:    aten::sum  {{.*}}fusion-report.mlir:{{[0-9]+}}:8  strategy excludes it  in the function body
// CHECK-NEXT:    aten::exp  {{.*}}fusion-report.mlir:{{[0-9]+}}:8  group below min-size  in the function body
// CHECK-NEXT:  summary pointwise: 0 groups, 0 ops fused, 3 ops left; loads 0 -> 0, stores 0 -> 0, bytes 0 -> 0 (1.00x)
// CHECK-LABEL: === @reduction, strategy nnc ===
// CHECK:         aten::sum  {{.*}}  strategy excludes it
// CHECK:       summary nnc: 0 groups
// CHECK-LABEL: === @reduction, strategy nvfuser ===
// CHECK-NEXT:  group 0: 3 ops in the function body (1 x aten::mul, 1 x aten::sum, 1 x aten::exp)
// CHECK-NEXT:    ops: aten::mul aten::sum aten::exp
// CHECK-NEXT:    inputs:
// CHECK-NEXT:      %arg0    !ts.tensor<f32, [4, 8]>  (128 B)
// CHECK-NEXT:      %arg1    !ts.tensor<f32, [4, 8]>  (128 B)
// CHECK-NEXT:    outputs:
// CHECK-NEXT:      %3       !ts.tensor<f32, [4]>  (16 B)
// CHECK-NEXT:               loads  stores   bytes read  bytes written        bytes
// CHECK-NEXT:      before        4       3          400            160          560
// CHECK-NEXT:      after         2       1          256             16          272
// CHECK-NEXT:  summary nvfuser: 1 groups, 3 ops fused, 0 ops left
// CHECK-LABEL: === @reduction, strategy aggressive ===
// CHECK-NEXT:  group 0: 3 ops

// JSON:      "function": "reduction",
// JSON:      "strategy": "pointwise",
// JSON:      "groups": [],
// JSON-NEXT: "strategy": "nnc",
// JSON-NEXT: "summary": {
// JSON:        "groups": 0,
// JSON:      "reason": "strategy excludes it",
// JSON:      "kinds": {
// JSON-NEXT:   "aten::exp": 1,
// JSON-NEXT:   "aten::mul": 1,
// JSON-NEXT:   "aten::sum": 1
// JSON-NEXT: },
// JSON:      "strategy": "nvfuser"

func.func @reduction(%x: !ts.tensor<f32, [4, 8]>, %y: !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4]> {
  %false = ts.prim.Constant[false] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %one = ts.prim.Constant[1] : !ts.int
  %dims = ts.prim.ListConstruct %one : (!ts.int) -> !ts.list<!ts.int>
  %m = ts.aten.mul.Tensor %x, %y : (!ts.tensor<f32, [4, 8]>, !ts.tensor<f32, [4, 8]>) -> !ts.tensor<f32, [4, 8]>
  %s = ts.aten.sum.dim_IntList %m, %dims, %false, %none : (!ts.tensor<f32, [4, 8]>, !ts.list<!ts.int>, !ts.bool, !ts.none) -> !ts.tensor<f32, [4]>
  %e = ts.aten.exp %s : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %e : !ts.tensor<f32, [4]>
}

// -----

// Unknown sizes and writes keep ops out; the blocks of prim::If are planned
// on their own.

// CHECK-LABEL: === @unknown_and_side_effect, strategy pointwise ===
// CHECK-NEXT:  group 0: 2 ops in ts.prim.If region #0 (1 x aten::neg, 1 x aten::tanh)
// CHECK:         before        2       2           32             32           64
// CHECK-NEXT:      after         1       1           16             16           32
// CHECK-NEXT:  unfused ops:
// CHECK-NEXT:    aten::relu  {{.*}}fusion-report.mlir:{{[0-9]+}}:8  unknown shape         in the function body
// CHECK-NEXT:    aten::neg   {{.*}}fusion-report.mlir:{{[0-9]+}}:8  group below min-size  in the function body
// CHECK-NEXT:    aten::add_  {{.*}}fusion-report.mlir:{{[0-9]+}}:8  side effect           in the function body
// CHECK-NEXT:    prim::If    {{.*}}fusion-report.mlir:{{[0-9]+}}:8  unsupported kind      in the function body
// CHECK-NEXT:  summary pointwise: 1 groups, 2 ops fused, 4 ops left

// JSON:      "function": "unknown_and_side_effect",
// JSON:      "region": "ts.prim.If region #0"
// JSON:      "kind": "aten::relu",
// JSON:      "reason": "unknown shape",
// JSON-NEXT: "region": "the function body"
// JSON:      "kind": "aten::add_",
// JSON:      "reason": "side effect",

// DOT-LABEL: digraph "unknown_and_side_effect.nnc" {
// DOT:         a1 [shape=ellipse, label="%arg1\n!ts.tensor"];
// DOT:         n0 [label="aten::relu\n(unknown shape)", color="#d62728", fontcolor="#d62728"];
// DOT:         n2 [label="aten::add_\n(side effect)", color="#d62728", fontcolor="#d62728"];
// DOT-NEXT:    subgraph cluster_region_0 {
// DOT-NEXT:      label="ts.prim.If"; style=dashed;
// DOT-NEXT:      subgraph cluster_region_0_0 {
// DOT-NEXT:        label="region #0";
// DOT-NEXT:        subgraph cluster_0 {
// DOT-NEXT:          label="group 0: 2 ops, 64 B -> 32 B";
// DOT:         n5 [label="prim::If\n(unsupported kind)"
// DOT:         a1 -> n0 [label="?"];
// DOT:         n4 -> n5 [label="16 B"];
// DOT:         a2 -> n5 [style=dashed, color=gray60];

func.func @unknown_and_side_effect(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor, %c: !ts.bool) -> (!ts.tensor, !ts.tensor<f32, [4]>) {
  %one = ts.prim.Constant[1] : !ts.int
  %u = ts.aten.relu %y : (!ts.tensor) -> !ts.tensor
  %a = ts.aten.neg %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %w = ts.aten.add_.Tensor %a, %x, %one : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %b = ts.prim.If %c -> (!ts.tensor<f32, [4]>) {
    %n = ts.aten.neg %w : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
    %t = ts.aten.tanh %n : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
    ts.prim.Yield %t : !ts.tensor<f32, [4]>
  } else {
    ts.prim.Yield %w : !ts.tensor<f32, [4]>
  }
  return %u, %b : !ts.tensor, !ts.tensor<f32, [4]>
}

// -----

// Without mm in the group (pointwise, nvfuser), neg cannot join: mm reads
// it and feeds the group.

// CHECK-LABEL: === @cycle, strategy pointwise ===
// CHECK:         aten::neg  {{.*}}  would create a cycle  in the function body
// CHECK-NEXT:    aten::mm   {{.*}}  strategy excludes it  in the function body
// CHECK-LABEL: === @cycle, strategy nnc ===
// CHECK-NEXT:  group 0: 4 ops in the function body (1 x aten::neg, 1 x aten::mm, 1 x aten::exp, 1 x aten::mul)
// CHECK:       summary nnc: 1 groups, 4 ops fused, 0 ops left; loads 6 -> 1, stores 4 -> 1, bytes 640 -> 128 (5.00x)
// CHECK-LABEL: === @cycle, strategy nvfuser ===
// CHECK:         aten::neg  {{.*}}  would create a cycle  in the function body

func.func @cycle(%x: !ts.tensor<f32, [4, 4]>) -> !ts.tensor<f32, [4, 4]> {
  %a = ts.aten.neg %x : (!ts.tensor<f32, [4, 4]>) -> !ts.tensor<f32, [4, 4]>
  %u = ts.aten.mm %a, %a : (!ts.tensor<f32, [4, 4]>, !ts.tensor<f32, [4, 4]>) -> !ts.tensor<f32, [4, 4]>
  %b = ts.aten.exp %a : (!ts.tensor<f32, [4, 4]>) -> !ts.tensor<f32, [4, 4]>
  %c = ts.aten.mul.Tensor %b, %u : (!ts.tensor<f32, [4, 4]>, !ts.tensor<f32, [4, 4]>) -> !ts.tensor<f32, [4, 4]>
  return %c : !ts.tensor<f32, [4, 4]>
}
