// RUN: tsmlir-opt %s --ts-linalg-to-gpu --cse -split-input-file | FileCheck %s

// An elementwise op over a broadcast: every operand as 128-bit vectors
// along its innermost dim, the broadcast row too. Each thread takes four
// runs of four elements a step, one from each quarter of the tensor, and
// loads them all before it computes and stores: 512 runs, 128 threads.
// CHECK-LABEL: func.func @elementwise(
// CHECK-SAME: %[[A:.+]]: memref<64x32xf32>, %[[B:.+]]: memref<32xf32>, %[[C:.+]]: memref<64x32xf32>)
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}}) threads({{.*}}) in ({{.*}} = %c128, {{.*}}) module(@elementwise_kernels) function(@elementwise_group3)
// CHECK: vector.load %[[A]][{{.*}}] {alignment = 16 : i64} : memref<64x32xf32>, vector<4xf32>
// CHECK: vector.load %[[B]][{{.*}}] {alignment = 16 : i64} : memref<32xf32>, vector<4xf32>
// CHECK: vector.load %[[A]]
// CHECK: vector.load %[[B]]
// CHECK: vector.load %[[A]]
// CHECK: vector.load %[[B]]
// CHECK: vector.load %[[A]]
// CHECK: vector.load %[[B]]
// CHECK-NOT: memref.load
// CHECK-COUNT-4: arith.addf
// CHECK: vector.store {{.*}}, %[[C]][{{.*}}] {alignment = 16 : i64} : memref<64x32xf32>, vector<4xf32>
// CHECK-COUNT-3: vector.store {{.*}}, %[[C]]
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @elementwise(%a: memref<64x32xf32>, %b: memref<32xf32>, %c: memref<64x32xf32>) {
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<64x32xf32>, memref<32xf32>) outs(%c : memref<64x32xf32>)
      attrs = {tsmlir.group = 3 : i64} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Rows of 6: a vector would cross rows, so the operands read in order are
// flattened and read four points at a time from the linear index.
// CHECK-LABEL: func.func @flat(
// CHECK: memref.collapse_shape
// CHECK: vector.load {{.*}} {alignment = 16 : i64} : memref<36xf32>, vector<4xf32>
// CHECK-COUNT-4: math.exp
// CHECK: vector.store {{.*}} {alignment = 16 : i64} : memref<36xf32>, vector<4xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @flat(%a: memref<6x6xf32>, %c: memref<6x6xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<6x6xf32>) outs(%c : memref<6x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A view that starts two elements into its buffer: a 128-bit access of it
// would be misaligned, so it is read element by element; the output is
// still written as vectors.
// CHECK-LABEL: func.func @misaligned(
// CHECK-SAME: %{{.+}}: memref<40xf32>, %[[C:.+]]: memref<32xf32>)
// CHECK: %[[V:.+]] = memref.subview
// CHECK-NOT: vector.load
// CHECK-COUNT-4: memref.load %[[V]]
// CHECK: vector.store {{.*}}, %[[C]]
#id = affine_map<(d0) -> (d0)>
func.func @misaligned(%a: memref<40xf32>, %c: memref<32xf32>) {
  %v = memref.subview %a[2] [32] [1] : memref<40xf32> to memref<32xf32, strided<[1], offset: 2>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%v : memref<32xf32, strided<[1], offset: 2>>) outs(%c : memref<32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// Not a multiple of four elements: one element a thread.
// CHECK-LABEL: func.func @odd(
// CHECK: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c32, {{.*}}) module(@odd_kernels) function(@odd_elementwise0)
// CHECK-NOT: vector.load
// CHECK: memref.load
// CHECK: math.exp
// CHECK: memref.store
#id = affine_map<(d0) -> (d0)>
func.func @odd(%a: memref<7xf32>, %c: memref<7xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<7xf32>) outs(%c : memref<7xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A row sum: a block per row, each thread a partial over every 256th run
// of four elements (one 128-bit load each), the partials combined by
// gpu.all_reduce, thread 0 adding the initial value and storing.
// CHECK-LABEL: func.func @row_sum(
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c16, {{.*}}) threads({{.*}}) in ({{.*}} = %c256, {{.*}}) module(@row_sum_kernels) function(@row_sum_reduction0)
// CHECK: scf.for %[[ROW:.+]] = %{{.+}} to %c16 step %c16
// CHECK: %[[PART:.+]] = scf.for %{{.+}} = %{{.+}} to %c250 step %c256 iter_args(%[[ACC:.+]] = %cst{{.*}}) -> (f32)
// CHECK:   vector.load {{.*}} {alignment = 16 : i64} : memref<16x1000xf32>, vector<4xf32>
// CHECK-COUNT-4: arith.addf
// CHECK: %[[TOTAL:.+]] = gpu.all_reduce add %[[PART]] uniform
// CHECK: scf.if
// CHECK:   %[[INIT:.+]] = memref.load
// CHECK:   arith.addf %[[TOTAL]], %[[INIT]]
// CHECK:   memref.store
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @row_sum(%a: memref<16x1000xf32>, %c: memref<16xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<16x1000xf32>) outs(%c : memref<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Short rows, or a reduction with two results (max and its index): a
// thread per output element, in order.
// CHECK-LABEL: func.func @argmax(
// CHECK: gpu.launch {{.*}} function(@argmax_reduction0)
// CHECK-NOT: gpu.all_reduce
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (f32, i64)
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @argmax(%a: memref<16x100xf32>, %m: memref<16xf32>, %i: memref<16xi64>) {
  linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<16x100xf32>) outs(%m, %i : memref<16xf32>, memref<16xi64>) {
  ^bb0(%x: f32, %om: f32, %oi: i64):
    %k = linalg.index 1 : index
    %ki = arith.index_cast %k : index to i64
    %gt = arith.cmpf ogt, %x, %om : f32
    %nm = arith.select %gt, %x, %om : f32
    %ni = arith.select %gt, %ki, %oi : i64
    linalg.yield %nm, %ni : f32, i64
  }
  return
}

// -----

// A row loop (softmax after fusion): a block per row, the row's scalar
// temporary in shared memory, a block reduction, then the row's elements
// strided over the threads, with barriers between. The row views start at
// multiples of 128 elements: a thread per 128-bit vector, which the
// reduction loads and the elementwise pass reuses from registers. The fill
// of the temporary with -inf is left out: the max reduction stores its
// total without reading it.
// CHECK-LABEL: func.func @rows(
// CHECK: gpu.launch {{.*}} in ({{.*}} = %c8, {{.*}}) threads({{.*}}) in ({{.*}} = %c32, {{.*}}) module(@rows_kernels) function(@rows_softmax0) workgroup(%[[SHARED:.+]] : memref<1xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[IN:.+]] = memref.subview
// CHECK: %[[TMP:.+]] = memref.memory_space_cast %[[SHARED]] : memref<1xf32, #gpu.address_space<workgroup>> to memref<1xf32>
// CHECK-NOT: gpu.barrier
// CHECK: %[[V:.+]] = vector.load %[[IN]]{{.*}} : memref<1x128xf32, strided<[128, 1], offset: ?>>, vector<4xf32>
// CHECK: %[[TOTAL:.+]] = gpu.all_reduce maximumf
// CHECK: scf.if
// CHECK-NEXT: memref.store %[[TOTAL]], %[[TMP]]
// CHECK: gpu.barrier
// CHECK-NOT: vector.load
// CHECK: memref.load %[[TMP]]
// CHECK: math.exp
// CHECK: vector.store
// CHECK: gpu.barrier
// CHECK-NOT: memref.alloc
#row = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
func.func @rows(%a: memref<8x128xf32>, %c: memref<8x128xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  scf.forall (%r) in (8) {
    %in = memref.subview %a[%r, 0] [1, 128] [1, 1] : memref<8x128xf32> to memref<1x128xf32, strided<[128, 1], offset: ?>>
    %out = memref.subview %c[%r, 0] [1, 128] [1, 1] : memref<8x128xf32> to memref<1x128xf32, strided<[128, 1], offset: ?>>
    %m = memref.alloc() : memref<1xf32>
    linalg.fill ins(%ninf : f32) outs(%m : memref<1xf32>)
    linalg.generic {indexing_maps = [#row, #red], iterator_types = ["parallel", "reduction"]}
        ins(%in : memref<1x128xf32, strided<[128, 1], offset: ?>>) outs(%m : memref<1xf32>) {
    ^bb0(%x: f32, %o: f32):
      %mx = arith.maximumf %x, %o : f32
      linalg.yield %mx : f32
    }
    linalg.generic {indexing_maps = [#row, #red, #row], iterator_types = ["parallel", "parallel"]}
        ins(%in, %m : memref<1x128xf32, strided<[128, 1], offset: ?>>, memref<1xf32>) outs(%out : memref<1x128xf32, strided<[128, 1], offset: ?>>) {
    ^bb0(%x: f32, %mx: f32, %o: f32):
      %d = arith.subf %x, %mx : f32
      %e = math.exp %d : f32
      linalg.yield %e : f32
    }
    memref.dealloc %m : memref<1xf32>
  } {tsmlir.op = "softmax"}
  return
}

// -----

// The host reads a device scalar (a prim::If condition) and writes one:
// one-thread kernels and copies through a device scalar.
// CHECK-LABEL: func.func @host_scalars(
// CHECK: %[[DEV:.+]] = gpu.alloc () : memref<1xi1>
// CHECK: gpu.launch {{.*}} function(@host_scalars_read0)
// CHECK: %[[HOST:.+]] = memref.alloca() : memref<1xi1>
// CHECK: gpu.memcpy %[[HOST]], %[[DEV]]
// CHECK: gpu.dealloc %[[DEV]]
// CHECK: %[[COND:.+]] = memref.load %[[HOST]]
// CHECK: scf.if %[[COND]]
// CHECK: gpu.memcpy
// CHECK: gpu.launch {{.*}} function(@host_scalars_write1)
func.func @host_scalars(%flag: memref<i1>, %out: memref<f32>) {
  %b = memref.load %flag[] : memref<i1>
  scf.if %b {
    %one = arith.constant 1.0 : f32
    memref.store %one, %out[] : memref<f32>
  }
  return
}

// -----

// Temporaries in device memory.
// CHECK-LABEL: func.func @temporaries(
// CHECK: %[[T:.+]] = gpu.alloc () : memref<4xf32>
// CHECK: gpu.dealloc %[[T]]
func.func @temporaries(%a: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  memref.dealloc %t : memref<4xf32>
  return
}

// -----

// Columns of [N, 4] rows (box coordinates): each column's element is read
// with the rest of its row as one 128-bit vector (the reads of the other
// columns of the same row are the same load) and the column extracted. One
// point a thread: four would spread each warp's reads of the rows over four
// times the cache lines.
// CHECK-LABEL: func.func @columns(
// CHECK-SAME: %[[BOXES:.+]]: memref<64x4xf32>,
// CHECK: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c64, {{.*}})
// CHECK: %[[ROW:.+]] = vector.load %[[BOXES]][%{{.+}}, %c0] {alignment = 16 : i64} : memref<64x4xf32>, vector<4xf32>
// CHECK-DAG: vector.extract %[[ROW]][0]
// CHECK-DAG: vector.extract %[[ROW]][2]
// CHECK-NOT: vector.load
// CHECK-NOT: memref.load %[[BOXES]]
#id = affine_map<(d0) -> (d0)>
func.func @columns(%boxes: memref<64x4xf32>, %c: memref<64xf32>) {
  %x0 = memref.subview %boxes[0, 0] [64, 1] [1, 1] : memref<64x4xf32> to memref<64xf32, strided<[4]>>
  %x1 = memref.subview %boxes[0, 2] [64, 1] [1, 1] : memref<64x4xf32> to memref<64xf32, strided<[4], offset: 2>>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x0, %x1 : memref<64xf32, strided<[4]>>, memref<64xf32, strided<[4], offset: 2>>) outs(%c : memref<64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %w = arith.subf %b, %a : f32
    linalg.yield %w : f32
  }
  return
}

// -----

// Rows of 3: not a vector's width, element by element.
// CHECK-LABEL: func.func @columns_of_three(
// CHECK-NOT: vector.load
// CHECK: memref.load
#id = affine_map<(d0) -> (d0)>
func.func @columns_of_three(%pts: memref<64x3xf32>, %c: memref<64xf32>) {
  %x = memref.subview %pts[0, 1] [64, 1] [1, 1] : memref<64x3xf32> to memref<64xf32, strided<[3], offset: 1>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<64xf32, strided<[3], offset: 1>>) outs(%c : memref<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %w = arith.mulf %a, %a : f32
    linalg.yield %w : f32
  }
  return
}
