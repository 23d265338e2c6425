// RUN: not tsmlir-opt %s --ts-linalg-to-gpu="block-size=100" 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: tsmlir-opt %s --ts-linalg-to-gpu="block-size=64 vector-width=1 max-blocks=2" --cse | FileCheck %s

// BLOCK: error: block-size must be a multiple of 32 from 32 to 1024, not 100

// At most two blocks of 64 threads: a grid-stride loop covers the rest.
// CHECK-LABEL: func.func @small_grid(
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}}) threads({{.*}}) in ({{.*}} = %c64, {{.*}})
// CHECK: scf.for %{{.+}} = %{{.+}} to %c4096 step %c128
// CHECK-NOT: vector.load
#id = affine_map<(d0) -> (d0)>
func.func @small_grid(%a: memref<4096xf32>, %c: memref<4096xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<4096xf32>) outs(%c : memref<4096xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    linalg.yield %n : f32
  }
  return
}
