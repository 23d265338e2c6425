// RUN: tsmlir-opt %s -split-input-file --ts-unshare-init-tensors | FileCheck %s

// Two loops carrying a tensor from one (CSE'd) empty tensor, and a linalg
// op writing one more use of it: each use gets its own tensor.empty, so
// that no loop's buffer is another's.
// CHECK-LABEL: func.func @scans(
// CHECK:         %[[E0:.+]] = tensor.empty() : tensor<4xf32>
// CHECK:         %[[E1:.+]] = tensor.empty() : tensor<4xf32>
// CHECK:         scf.for {{.*}} iter_args(%{{.+}} = %[[E1]])
// CHECK:         %[[E2:.+]] = tensor.empty() : tensor<4xf32>
// CHECK:         scf.for {{.*}} iter_args(%{{.+}} = %[[E2]])
// CHECK:         linalg.generic {{.*}} outs(%[[E0]] : tensor<4xf32>)
func.func @scans(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %e = tensor.empty() : tensor<4xf32>
  %0 = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %e) -> tensor<4xf32> {
    %x = tensor.extract %a[%i] : tensor<4xf32>
    %u = tensor.insert %x into %t[%i] : tensor<4xf32>
    scf.yield %u : tensor<4xf32>
  }
  %1 = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %e) -> tensor<4xf32> {
    %x = tensor.extract %b[%i] : tensor<4xf32>
    %u = tensor.insert %x into %t[%i] : tensor<4xf32>
    scf.yield %u : tensor<4xf32>
  }
  %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Two concatenations sharing their first piece (CSE'd): the second gets
// its own copy of the partial result, built on its own empty tensor.
// CHECK-LABEL: func.func @concats(
// CHECK:         %[[E0:.+]] = tensor.empty() : tensor<4xf32>
// CHECK:         %[[P0:.+]] = tensor.insert_slice %arg0 into %[[E0]][0] [2] [1]
// CHECK:         %[[E1:.+]] = tensor.empty() : tensor<4xf32>
// CHECK:         %[[P1:.+]] = tensor.insert_slice %arg0 into %[[E1]][0] [2] [1]
// CHECK:         %[[X:.+]] = tensor.insert_slice %arg1 into %[[P1]][2] [2] [1]
// CHECK:         %[[Y:.+]] = tensor.insert_slice %arg2 into %[[P0]][2] [2] [1]
// CHECK:         return %[[X]], %[[Y]]
func.func @concats(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<2xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %p = tensor.insert_slice %a into %e[0] [2] [1] : tensor<2xf32> into tensor<4xf32>
  %x = tensor.insert_slice %b into %p[2] [2] [1] : tensor<2xf32> into tensor<4xf32>
  %y = tensor.insert_slice %c into %p[2] [2] [1] : tensor<2xf32> into tensor<4xf32>
  return %x, %y : tensor<4xf32>, tensor<4xf32>
}

// -----

// A branch yielding a tensor that is also read after the conditional yields
// a copy: otherwise the output buffer of the conditional's result would
// become that tensor's init, and the other branch's result would overwrite
// it before it is read (`a = -x if c else x; return a, x`).
// CHECK-LABEL: func.func @yielded_and_read(
// CHECK:         %[[X:.+]] = linalg.generic
// CHECK:         scf.if
// CHECK:           scf.yield
// CHECK:         } else {
// CHECK:           %[[E:.+]] = tensor.empty() : tensor<4xf32>
// CHECK:           %[[C:.+]] = linalg.copy ins(%[[X]] : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK:           scf.yield %[[C]]
// CHECK:         return %{{.+}}, %[[X]]
func.func @yielded_and_read(%a: tensor<4xf32>, %c: i1) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %r = scf.if %c -> (tensor<4xf32>) {
    %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.negf %in : f32
      linalg.yield %m : f32
    } -> tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r, %x : tensor<4xf32>, tensor<4xf32>
}
