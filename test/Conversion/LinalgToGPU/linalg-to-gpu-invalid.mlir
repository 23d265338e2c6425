// RUN: tsmlir-opt %s --ts-linalg-to-gpu -split-input-file -verify-diagnostics

#id = affine_map<(d0) -> (d0)>
func.func @dynamic(%a: memref<?xf32>, %c: memref<?xf32>) {
  // expected-error @below {{a loop nest of dynamic size has no GPU mapping}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<?xf32>) outs(%c : memref<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @too_much_shared(%a: memref<64x20000xf32>) {
  // expected-error @below {{the temporaries of a row need 80000 bytes of shared memory, more than the 49152 a block has}}
  scf.forall (%r) in (64) {
    %t = memref.alloc() : memref<20000xf32>
    memref.dealloc %t : memref<20000xf32>
  }
  return
}
