// RUN: tsmlir-opt %s -split-input-file --ts-decompose | FileCheck %s
// RUN: tsmlir-opt %s -split-input-file --ts-decompose --ts-infer-shapes | FileCheck %s --check-prefix=SHAPES

// conv1d runs as conv2d on [N, C, 1, L] with a [O, I, 1, K] weight and the
// lists widened by the inserted dim (stride and dilation 1, padding 0 there).

// CHECK-LABEL: func.func @conv1d(
// CHECK-DAG: %[[X:.*]] = ts.aten.unsqueeze %arg0, %{{.*}} :
// CHECK-DAG: %[[W:.*]] = ts.aten.unsqueeze %arg1, %{{.*}} :
// CHECK: %[[C:.*]] = ts.aten.conv2d %[[X]], %[[W]], %arg2,
// CHECK: ts.aten.squeeze.dim %[[C]],
// CHECK-NOT: ts.aten.conv1d
// SHAPES-LABEL: func.func @conv1d(
// SHAPES: ts.aten.conv2d {{.*}} -> !ts.tensor<f32, [2, 6, 1, 6]>
// SHAPES: ts.aten.squeeze.dim {{.*}} -> !ts.tensor<f32, [2, 6, 6]>
func.func @conv1d(%x: !ts.tensor<f32, [2, 4, 11]>, %w: !ts.tensor<f32, [6, 2, 3]>, %b: !ts.tensor<f32, [6]>) -> !ts.tensor {
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %s = ts.prim.ListConstruct %two : (!ts.int) -> !ts.list<!ts.int>
  %p = ts.prim.ListConstruct %one : (!ts.int) -> !ts.list<!ts.int>
  %d = ts.prim.ListConstruct %one : (!ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.conv1d %x, %w, %b, %s, %p, %d, %two : (!ts.tensor<f32, [2, 4, 11]>, !ts.tensor<f32, [6, 2, 3]>, !ts.tensor<f32, [6]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.int) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// A transposed convolution: the input spread by the stride (a new dim padded
// to the stride, merged, the trailing zeros cut), padded by
// dilation * (k - 1) - padding (output_padding more at the end), and
// convolved by the weight with in and out channels swapped and its window
// flipped. PyTorch's size: (H - 1) * s - 2p + d (k - 1) + output_padding + 1.

// CHECK-LABEL: func.func @conv_transpose2d(
// CHECK: ts.aten.unsqueeze
// CHECK: ts.aten.constant_pad_nd
// CHECK: ts.aten.reshape
// CHECK: ts.aten.narrow
// CHECK: ts.aten.constant_pad_nd
// CHECK: ts.aten.transpose.int
// CHECK: ts.aten.flip
// CHECK: ts.aten.conv2d
// CHECK-NOT: ts.aten.conv_transpose2d
// SHAPES-LABEL: func.func @conv_transpose2d(
// SHAPES: ts.aten.conv2d {{.*}} -> !ts.tensor<f32, [2, 3, 10, 12]>
func.func @conv_transpose2d(%x: !ts.tensor<f32, [2, 4, 5, 6]>, %w: !ts.tensor<f32, [4, 3, 3, 3]>) -> !ts.tensor {
  %none = ts.prim.Constant : !ts.none
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %s = ts.prim.ListConstruct %two, %two : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %p = ts.prim.ListConstruct %one, %one : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %op = ts.prim.ListConstruct %one, %one : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %d = ts.prim.ListConstruct %one, %one : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.conv_transpose2d.input %x, %w, %none, %s, %p, %op, %one, %d : (!ts.tensor<f32, [2, 4, 5, 6]>, !ts.tensor<f32, [4, 3, 3, 3]>, !ts.none, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.int, !ts.list<!ts.int>) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// Pooling over one dim as over two; clamp with tensor bounds as maximum and
// minimum (a missing bound leaves its op out); narrow at a tensor start.

// CHECK-LABEL: func.func @pool_clamp_narrow(
// CHECK: ts.aten.max_pool2d
// CHECK: ts.aten.avg_pool2d
// CHECK: ts.aten.adaptive_avg_pool2d
// CHECK: ts.aten.maximum %arg0, %arg1
// CHECK-NOT: ts.aten.minimum
// CHECK: %[[START:.*]] = ts.aten.Int.Tensor %arg2
// CHECK: ts.aten.narrow %arg0, %{{.*}}, %[[START]],
// SHAPES-LABEL: func.func @pool_clamp_narrow(
// SHAPES: ts.aten.max_pool2d {{.*}} -> !ts.tensor<f32, [2, 3, 1, 6]>
// SHAPES: ts.aten.squeeze.dim {{.*}} -> !ts.tensor<f32, [2, 3, 6]>
// SHAPES: ts.aten.adaptive_avg_pool2d {{.*}} -> !ts.tensor<f32, [2, 3, 1, 4]>
func.func @pool_clamp_narrow(%x: !ts.tensor<f32, [2, 3, 11]>, %lo: !ts.tensor<f32, [2, 3, 11]>, %start: !ts.tensor<si64, []>) -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor) {
  %none = ts.prim.Constant : !ts.none
  %false = ts.prim.Constant[false] : !ts.bool
  %true = ts.prim.Constant[true] : !ts.bool
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %three = ts.prim.Constant[3] : !ts.int
  %four = ts.prim.Constant[4] : !ts.int
  %k = ts.prim.ListConstruct %three : (!ts.int) -> !ts.list<!ts.int>
  %s = ts.prim.ListConstruct %two : (!ts.int) -> !ts.list<!ts.int>
  %p = ts.prim.ListConstruct %one : (!ts.int) -> !ts.list<!ts.int>
  %d = ts.prim.ListConstruct %one : (!ts.int) -> !ts.list<!ts.int>
  %o = ts.prim.ListConstruct %four : (!ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.max_pool1d %x, %k, %s, %p, %d, %false : (!ts.tensor<f32, [2, 3, 11]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool) -> !ts.tensor
  %1 = ts.aten.avg_pool1d %x, %k, %s, %p, %false, %true : (!ts.tensor<f32, [2, 3, 11]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool, !ts.bool) -> !ts.tensor
  %2 = ts.aten.adaptive_avg_pool1d %x, %o : (!ts.tensor<f32, [2, 3, 11]>, !ts.list<!ts.int>) -> !ts.tensor
  %3 = ts.aten.clamp.Tensor %x, %lo, %none : (!ts.tensor<f32, [2, 3, 11]>, !ts.tensor<f32, [2, 3, 11]>, !ts.none) -> !ts.tensor
  %4 = ts.aten.narrow.Tensor %x, %two, %start, %two : (!ts.tensor<f32, [2, 3, 11]>, !ts.int, !ts.tensor<si64, []>, !ts.int) -> !ts.tensor
  return %0, %1, %2, %3, %4 : !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor
}

// -----

// A list an op still appends to (F.interpolate's output sizes, built in a
// loop that ts-remove-mutation has not folded yet) has no known elements:
// the pool that reads it waits, rather than reading it empty.
// CHECK-LABEL: func.func @pool_of_a_list_being_built(
// CHECK:         ts.aten.append.t
// CHECK:         ts.aten.adaptive_avg_pool1d
// CHECK-NOT:     ts.aten.adaptive_avg_pool2d
func.func @pool_of_a_list_being_built(%x: !ts.tensor<f32, [2, 3, 4]>) -> !ts.tensor {
  %true = ts.prim.Constant[true] : !ts.bool
  %one = ts.prim.Constant[1] : !ts.int
  %six = ts.prim.Constant[6] : !ts.int
  %o = ts.prim.ListConstruct : () -> !ts.list<!ts.int>
  ts.prim.Loop %one, %true : (!ts.int, !ts.bool) -> () {
  ^bb0(%i: !ts.int):
    %a = ts.aten.append.t %o, %six : (!ts.list<!ts.int>, !ts.int) -> !ts.list<!ts.int>
    ts.prim.Yield %true : !ts.bool
  }
  %0 = ts.aten.adaptive_avg_pool1d %x, %o : (!ts.tensor<f32, [2, 3, 4]>, !ts.list<!ts.int>) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// addr: beta self + alpha (vec1[:, None] * vec2[None, :]).
// CHECK-LABEL: func.func @addr(
// CHECK: %[[BETA:.*]] = ts.prim.Constant[2.0
// CHECK-DAG: %[[U:.*]] = ts.aten.unsqueeze %arg1,
// CHECK-DAG: %[[V:.*]] = ts.aten.unsqueeze %arg2,
// CHECK: %[[P:.*]] = ts.aten.mul.Tensor %[[U]], %[[V]]
// CHECK: %[[S:.*]] = ts.aten.mul.Scalar %arg0, %[[BETA]]
// CHECK: ts.aten.add.Tensor %[[S]], %[[P]], %arg3
// CHECK-NOT: ts.aten.addr
// SHAPES-LABEL: func.func @addr(
// SHAPES: ts.aten.add.Tensor {{.*}} -> !ts.tensor<f32, [3, 4]>
func.func @addr(%s: !ts.tensor<f32, [3, 4]>, %a: !ts.tensor<f32, [3]>, %b: !ts.tensor<f32, [4]>, %alpha: !ts.float) -> !ts.tensor {
  %beta = ts.prim.Constant[2.000000e+00] : !ts.float
  %0 = ts.aten.addr %s, %a, %b, %beta, %alpha : (!ts.tensor<f32, [3, 4]>, !ts.tensor<f32, [3]>, !ts.tensor<f32, [4]>, !ts.float, !ts.float) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// addbmm: the batch of products summed over dim 0.
// CHECK-LABEL: func.func @addbmm(
// CHECK: %[[B:.*]] = ts.aten.bmm %arg1, %arg2
// CHECK: %[[P:.*]] = ts.aten.sum.dim_IntList %[[B]],
// CHECK: ts.aten.add.Tensor %{{.*}}, %[[P]],
// SHAPES-LABEL: func.func @addbmm(
// SHAPES: ts.aten.sum.dim_IntList {{.*}} -> !ts.tensor<f32, [3, 5]>
func.func @addbmm(%s: !ts.tensor<f32, [3, 5]>, %a: !ts.tensor<f32, [2, 3, 4]>, %b: !ts.tensor<f32, [2, 4, 5]>) -> !ts.tensor {
  %one = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.addbmm %s, %a, %b, %one, %one : (!ts.tensor<f32, [3, 5]>, !ts.tensor<f32, [2, 3, 4]>, !ts.tensor<f32, [2, 4, 5]>, !ts.int, !ts.int) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// embedding_bag of a 2-D input (offsets = arange(0, 6, 3): two bags of 3),
// mean mode: the embedding of the indices as [2, 3], summed over the bag
// and divided by 3. The other results are unused.
// CHECK-LABEL: func.func @embedding_bag_mean(
// CHECK: %[[I:.*]] = ts.aten.reshape %arg1,
// CHECK: %[[E:.*]] = ts.aten.embedding %arg0, %[[I]],
// CHECK: %[[S:.*]] = ts.aten.sum.dim_IntList %[[E]],
// CHECK: ts.aten.div.Scalar %[[S]],
// CHECK-NOT: ts.aten.embedding_bag
// SHAPES-LABEL: func.func @embedding_bag_mean(
// SHAPES: ts.aten.div.Scalar {{.*}} -> !ts.tensor<f32, [2, 4]>
func.func @embedding_bag_mean(%w: !ts.tensor<f32, [10, 4]>, %i: !ts.tensor<si64, [6]>) -> !ts.tensor {
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %three = ts.prim.Constant[3] : !ts.int
  %six = ts.prim.Constant[6] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %offsets = ts.aten.arange.start_step %zero, %six, %three, %none, %none, %none, %none : (!ts.int, !ts.int, !ts.int, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  %0:4 = ts.aten.embedding_bag %w, %i, %offsets, %false, %one, %false, %none, %false : (!ts.tensor<f32, [10, 4]>, !ts.tensor<si64, [6]>, !ts.tensor, !ts.bool, !ts.int, !ts.bool, !ts.none, !ts.bool) -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor)
  return %0#0 : !ts.tensor
}

// -----

// Bags of different sizes are not decomposed (the op stays, and the
// lowering names it).
// CHECK-LABEL: func.func @embedding_bag_uneven(
// CHECK: ts.aten.embedding_bag
func.func @embedding_bag_uneven(%w: !ts.tensor<f32, [10, 4]>, %i: !ts.tensor<si64, [7]>) -> !ts.tensor {
  %zero = ts.prim.Constant[0] : !ts.int
  %three = ts.prim.Constant[3] : !ts.int
  %seven = ts.prim.Constant[7] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %offsets = ts.aten.arange.start_step %zero, %seven, %three, %none, %none, %none, %none : (!ts.int, !ts.int, !ts.int, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  %0:4 = ts.aten.embedding_bag %w, %i, %offsets, %false, %zero, %false, %none, %false : (!ts.tensor<f32, [10, 4]>, !ts.tensor<si64, [7]>, !ts.tensor, !ts.bool, !ts.int, !ts.bool, !ts.none, !ts.bool) -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor)
  return %0#0 : !ts.tensor
}

// -----

// The fast path of nn.MultiheadAttention: q, k, v from the three parts of
// the in-projection, q scaled by 1/sqrt(16 / 4), heads split, softmax of
// q k^T, weights averaged over the 4 heads.
// CHECK-LABEL: func.func @native_attention(
// CHECK-COUNT-3: ts.aten.linear
// CHECK: ts.aten.mul.Scalar
// CHECK: ts.aten.softmax.int
// CHECK: ts.aten.linear
// CHECK: ts.aten.sum.dim_IntList
// CHECK: ts.aten.div.Scalar
// CHECK-NOT: ts.aten._native_multi_head_attention
// SHAPES-LABEL: func.func @native_attention(
// SHAPES: ts.aten.softmax.int {{.*}} -> !ts.tensor<f32, [2, 4, 5, 5]>
// SHAPES: ts.aten.linear {{.*}} -> !ts.tensor<f32, [2, 5, 16]>
// SHAPES: ts.aten.div.Scalar {{.*}} -> !ts.tensor<f32, [2, 5, 5]>
func.func @native_attention(%x: !ts.tensor<f32, [2, 5, 16]>, %w: !ts.tensor<f32, [48, 16]>, %b: !ts.tensor<f32, [48]>, %pw: !ts.tensor<f32, [16, 16]>, %pb: !ts.tensor<f32, [16]>) -> (!ts.tensor, !ts.tensor) {
  %four = ts.prim.Constant[4] : !ts.int
  %e = ts.prim.Constant[16] : !ts.int
  %true = ts.prim.Constant[true] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %0:2 = ts.aten._native_multi_head_attention %x, %x, %x, %e, %four, %w, %b, %pw, %pb, %none, %true, %true, %none : (!ts.tensor<f32, [2, 5, 16]>, !ts.tensor<f32, [2, 5, 16]>, !ts.tensor<f32, [2, 5, 16]>, !ts.int, !ts.int, !ts.tensor<f32, [48, 16]>, !ts.tensor<f32, [48]>, !ts.tensor<f32, [16, 16]>, !ts.tensor<f32, [16]>, !ts.none, !ts.bool, !ts.bool, !ts.none) -> (!ts.tensor, !ts.tensor)
  return %0#0, %0#1 : !ts.tensor, !ts.tensor
}

// -----

// linalg_vector_norm of order 2 over dim 1: the square root of the sum of
// squares; of order inf: the largest magnitude.
// CHECK-LABEL: func.func @vector_norm(
// CHECK: %[[A:.*]] = ts.aten.abs %arg0
// CHECK: %[[SQ:.*]] = ts.aten.mul.Tensor %[[A]], %[[A]]
// CHECK: %[[S:.*]] = ts.aten.sum.dim_IntList %[[SQ]]
// CHECK: ts.aten.sqrt %[[S]]
// CHECK: %[[A2:.*]] = ts.aten.abs %arg0
// CHECK: ts.aten.amax %[[A2]]
// CHECK-NOT: ts.aten.linalg_vector_norm
// SHAPES-LABEL: func.func @vector_norm(
// SHAPES: ts.aten.sqrt {{.*}} -> !ts.tensor<f32, [3]>
func.func @vector_norm(%x: !ts.tensor<f32, [3, 4]>) -> (!ts.tensor, !ts.tensor) {
  %two = ts.prim.Constant[2] : !ts.int
  %inf = ts.prim.Constant[0x7FF0000000000000 : f64] : !ts.float
  %one = ts.prim.Constant[1] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %dims = ts.prim.ListConstruct %one : (!ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.linalg_vector_norm %x, %two, %dims, %false, %none : (!ts.tensor<f32, [3, 4]>, !ts.int, !ts.list<!ts.int>, !ts.bool, !ts.none) -> !ts.tensor
  %1 = ts.aten.linalg_vector_norm %x, %inf, %none, %false, %none : (!ts.tensor<f32, [3, 4]>, !ts.float, !ts.none, !ts.bool, !ts.none) -> !ts.tensor
  return %0, %1 : !ts.tensor, !ts.tensor
}

// -----

// Any other order p: (sum |x|^p)^(1/p) with p rounded to float as PyTorch's
// CPU kernels round it, in float64 too (0.9 is 0.89999997615814208).
// CHECK-LABEL: func.func @vector_norm_order(
// CHECK-DAG: %[[P:.*]] = ts.prim.Constant[0.89999997615814208] : !ts.float
// CHECK-DAG: %[[Q:.*]] = ts.prim.Constant[1.1111111405455043] : !ts.float
// CHECK: %[[A:.*]] = ts.aten.abs %arg0
// CHECK: %[[POW:.*]] = ts.aten.pow.Tensor_Scalar %[[A]], %[[P]]
// CHECK: %[[S:.*]] = ts.aten.sum.dim_IntList %[[POW]]
// CHECK: ts.aten.pow.Tensor_Scalar %[[S]], %[[Q]]
func.func @vector_norm_order(%x: !ts.tensor<f64, [3, 4]>) -> !ts.tensor {
  %p = ts.prim.Constant[0.9] : !ts.float
  %false = ts.prim.Constant[false] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.linalg_vector_norm %x, %p, %none, %false, %none : (!ts.tensor<f64, [3, 4]>, !ts.float, !ts.none, !ts.bool, !ts.none) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// tile with fewer dims than the input's rank: repeat with leading 1s.
// CHECK-LABEL: func.func @tile(
// CHECK: %[[R:.*]] = ts.prim.ListConstruct %{{.*}}, %{{.*}}, %{{.*}} :
// CHECK: ts.aten.repeat %arg0, %[[R]]
// SHAPES-LABEL: func.func @tile(
// SHAPES: ts.aten.repeat {{.*}} -> !ts.tensor<f32, [2, 3, 8]>
func.func @tile(%x: !ts.tensor<f32, [2, 3, 4]>) -> !ts.tensor {
  %two = ts.prim.Constant[2] : !ts.int
  %dims = ts.prim.ListConstruct %two : (!ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.tile %x, %dims : (!ts.tensor<f32, [2, 3, 4]>, !ts.list<!ts.int>) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// einsum of two operands (maxvit's attention scores): batch subscripts
// B, H; I and J kept; D contracted. Permutes to [batch, own, contracted]
// and [batch, contracted, own], a bmm of 3-d views, a reshape back.
// CHECK-LABEL: func.func @einsum_attention(
// CHECK-NOT: ts.aten.einsum
// CHECK: ts.aten.permute %arg1
// CHECK: ts.aten.reshape %arg0
// CHECK: ts.aten.reshape
// CHECK: ts.aten.bmm
// CHECK: ts.aten.reshape
// SHAPES-LABEL: func.func @einsum_attention(
// SHAPES: ts.aten.bmm {{.*}} -> !ts.tensor<f32, [6, 4, 5]>
// SHAPES: ts.aten.reshape {{.*}} -> !ts.tensor<f32, [2, 3, 4, 5]>
func.func @einsum_attention(%q: !ts.tensor<f32, [2, 3, 4, 8]>, %k: !ts.tensor<f32, [2, 3, 5, 8]>) -> !ts.tensor {
  %eq = ts.prim.Constant["B H I D, B H J D -> B H I J"] : !ts.str
  %none = ts.prim.Constant : !ts.none
  %l = ts.prim.ListConstruct %q, %k : (!ts.tensor<f32, [2, 3, 4, 8]>, !ts.tensor<f32, [2, 3, 5, 8]>) -> !ts.list<!ts.tensor>
  %0 = ts.aten.einsum %eq, %l, %none : (!ts.str, !ts.list<!ts.tensor>, !ts.none) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// Implicit output: `...`, then the letters seen once, sorted (k before z).
// With an explicit output, a letter of one operand only (z) is summed out
// first.
// SHAPES-LABEL: func.func @einsum_implicit(
// SHAPES: ts.aten.sum.dim_IntList {{.*}} -> !ts.tensor<f32, [3]>
// SHAPES: return {{.*}} : !ts.tensor<f32, [7, 4, 2]>, !ts.tensor<f32, [7, 4]>
func.func @einsum_implicit(%a: !ts.tensor<f32, [2, 3]>, %b: !ts.tensor<f32, [7, 3, 4]>) -> (!ts.tensor, !ts.tensor) {
  %eq = ts.prim.Constant["zj,...jk"] : !ts.str
  %eq2 = ts.prim.Constant["zj,...jk->...k"] : !ts.str
  %none = ts.prim.Constant : !ts.none
  %l = ts.prim.ListConstruct %a, %b : (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [7, 3, 4]>) -> !ts.list<!ts.tensor>
  %0 = ts.aten.einsum %eq, %l, %none : (!ts.str, !ts.list<!ts.tensor>, !ts.none) -> !ts.tensor
  %1 = ts.aten.einsum %eq2, %l, %none : (!ts.str, !ts.list<!ts.tensor>, !ts.none) -> !ts.tensor
  return %0, %1 : !ts.tensor, !ts.tensor
}

// -----

// A diagonal (a subscript twice in one operand) is left for the unknown-op
// report to name.
// CHECK-LABEL: func.func @einsum_diagonal(
// CHECK: ts.aten.einsum
func.func @einsum_diagonal(%a: !ts.tensor<f32, [3, 3]>) -> !ts.tensor {
  %eq = ts.prim.Constant["ii->i"] : !ts.str
  %none = ts.prim.Constant : !ts.none
  %l = ts.prim.ListConstruct %a : (!ts.tensor<f32, [3, 3]>) -> !ts.list<!ts.tensor>
  %0 = ts.aten.einsum %eq, %l, %none : (!ts.str, !ts.list<!ts.tensor>, !ts.none) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// x.new_zeros(size) and x.new_full(size, v): x's dtype unless one is given.
// CHECK-LABEL: func.func @new_factories(
// CHECK: %[[D:.*]] = ts.prim.dtype %arg0
// CHECK: ts.aten.zeros %{{.*}}, %[[D]]
// CHECK: ts.aten.full %{{.*}}, %{{.*}}, %{{.*}}
// SHAPES-LABEL: func.func @new_factories(
// SHAPES: ts.aten.zeros {{.*}} -> !ts.tensor<si64, [2, 3]>
// SHAPES: ts.aten.full {{.*}} -> !ts.tensor<f64, [2, 3]>
func.func @new_factories(%x: !ts.tensor<si64, [4]>) -> (!ts.tensor, !ts.tensor) {
  %none = ts.prim.Constant : !ts.none
  %size = ts.prim.Constant[[2, 3]] : !ts.list<!ts.int>
  %f64 = ts.prim.Constant[7] : !ts.int
  %v = ts.prim.Constant[1.5] : !ts.float
  %0 = ts.aten.new_zeros %x, %size, %none, %none, %none, %none : (!ts.tensor<si64, [4]>, !ts.list<!ts.int>, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  %1 = ts.aten.new_full %x, %size, %v, %f64, %none, %none, %none : (!ts.tensor<si64, [4]>, !ts.list<!ts.int>, !ts.float, !ts.int, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  return %0, %1 : !ts.tensor, !ts.tensor
}

// -----

// empty_like and new_empty_strided are zeros of their sizes (any contents
// will do; the strides are a layout, which values do not show).
// CHECK-LABEL: func.func @empty_factories(
// CHECK: ts.aten.zeros_like %arg0
// CHECK: %[[D:.*]] = ts.prim.dtype %arg0
// CHECK: ts.aten.zeros %{{.*}}, %[[D]]
// CHECK-NOT: ts.aten.empty_like
// CHECK-NOT: ts.aten.new_empty_strided
// SHAPES-LABEL: func.func @empty_factories(
// SHAPES: ts.aten.zeros_like {{.*}} -> !ts.tensor<si64, [0, 5, 0]>
// SHAPES: ts.aten.zeros {{.*}} -> !ts.tensor<si64, [2, 0]>
func.func @empty_factories(%x: !ts.tensor<si64, [0, 5, 0]>) -> (!ts.tensor, !ts.tensor) {
  %none = ts.prim.Constant : !ts.none
  %size = ts.prim.Constant[[2, 0]] : !ts.list<!ts.int>
  %stride = ts.prim.Constant[[3, 4]] : !ts.list<!ts.int>
  %0 = ts.aten.empty_like %x, %none, %none, %none, %none, %none : (!ts.tensor<si64, [0, 5, 0]>, !ts.none, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  %1 = ts.aten.new_empty_strided %x, %size, %stride, %none, %none, %none, %none : (!ts.tensor<si64, [0, 5, 0]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor
  return %0, %1 : !ts.tensor, !ts.tensor
}

// -----

// copy.t of a known list (swin's `shift_size.copy()`) is a new list of its
// elements.
// CHECK-LABEL: func.func @list_copy(
// CHECK-NOT: ts.aten.copy.t
// CHECK: ts.prim.ListConstruct
func.func @list_copy() -> !ts.list<!ts.int> {
  %l = ts.prim.Constant[[3, 3]] : !ts.list<!ts.int>
  %0 = ts.aten.copy.t %l : (!ts.list<!ts.int>) -> !ts.list<!ts.int>
  return %0 : !ts.list<!ts.int>
}

// -----

// [q] + chunk(kv, 2) (attention's in-projection when key is value): the
// chunk's tensors, unpacked, join the new list.
// CHECK-LABEL: func.func @list_add_chunk(
// CHECK: %[[C:.+]] = ts.aten.chunk %arg1
// CHECK: %[[U:.+]]:2 = ts.prim.ListUnpack %[[C]]
// CHECK: %[[L:.+]] = ts.prim.ListConstruct %arg0, %[[U]]#0, %[[U]]#1
// CHECK-NOT: ts.aten.add.t
// CHECK: return %[[L]]
func.func @list_add_chunk(%q: !ts.tensor<f32, [4, 8]>, %kv: !ts.tensor<f32, [4, 16]>) -> !ts.list<!ts.tensor> {
  %two = ts.prim.Constant[2] : !ts.int
  %m1 = ts.prim.Constant[-1] : !ts.int
  %c = ts.aten.chunk %kv, %two, %m1 : (!ts.tensor<f32, [4, 16]>, !ts.int, !ts.int) -> !ts.list<!ts.tensor>
  %l = ts.prim.ListConstruct %q : (!ts.tensor<f32, [4, 8]>) -> !ts.list<!ts.tensor>
  %0 = ts.aten.add.t %l, %c : (!ts.list<!ts.tensor>, !ts.list<!ts.tensor>) -> !ts.list<!ts.tensor>
  return %0 : !ts.list<!ts.tensor>
}

// -----

// swapaxes and swapdims are transposes; movedim and moveaxis permutes with
// the moved dims at their destinations and the others in order.
// CHECK-LABEL: func.func @move_dims(
// CHECK:     ts.aten.transpose.int %arg0
// CHECK:     ts.aten.transpose.int %arg0
// CHECK:     %[[P:.*]] = ts.prim.ListConstruct
// CHECK:     ts.aten.permute %arg0, %[[P]]
// CHECK:     %[[Q:.*]] = ts.prim.ListConstruct
// CHECK:     ts.aten.permute %arg0, %[[Q]]
// SHAPES-LABEL: func.func @move_dims(
// SHAPES:   ts.aten.transpose.int {{.*}} -> !ts.tensor<f32, [3, 2, 4]>
// SHAPES:   ts.aten.transpose.int {{.*}} -> !ts.tensor<f32, [4, 3, 2]>
// SHAPES:   ts.aten.permute {{.*}} -> !ts.tensor<f32, [3, 4, 2]>
// SHAPES:   ts.aten.permute {{.*}} -> !ts.tensor<f32, [3, 4, 2]>
func.func @move_dims(%x: !ts.tensor<f32, [2, 3, 4]>) -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor) {
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %m1 = ts.prim.Constant[-1] : !ts.int
  %0 = ts.aten.swapaxes %x, %zero, %one : (!ts.tensor<f32, [2, 3, 4]>, !ts.int, !ts.int) -> !ts.tensor
  %1 = ts.aten.swapdims %x, %m1, %zero : (!ts.tensor<f32, [2, 3, 4]>, !ts.int, !ts.int) -> !ts.tensor
  %2 = ts.aten.movedim.int %x, %zero, %m1 : (!ts.tensor<f32, [2, 3, 4]>, !ts.int, !ts.int) -> !ts.tensor
  // movedim([0, 1], [2, 0]): dim 1 to 0, dim 0 to 2, dim 2 between.
  %src = ts.prim.ListConstruct %zero, %one : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %dst = ts.prim.ListConstruct %two, %zero : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %3 = ts.aten.moveaxis.intlist %x, %src, %dst : (!ts.tensor<f32, [2, 3, 4]>, !ts.list<!ts.int>, !ts.list<!ts.int>) -> !ts.tensor
  return %0, %1, %2, %3 : !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor
}

// -----

// fill with a number is full_like; with a 0-d tensor, the value broadcast
// and copied in self's dtype. argsort is sort's indices, msort sort's
// values along dim 0.
// CHECK-LABEL: func.func @fill_and_sorts(
// CHECK:     ts.aten.full_like %arg0
// CHECK:     %[[E:.*]] = ts.aten.expand_as %arg1, %arg0
// CHECK:     ts.aten.to.other %[[E]], %arg0
// CHECK:     %[[I:.*]]:2 = ts.aten.sort %arg0
// CHECK:     %[[V:.*]]:2 = ts.aten.sort %arg0
// CHECK:     %[[J:.*]]:2 = ts.aten.sort.stable %arg0
// CHECK:     return %{{.*}}, %{{.*}}, %[[I]]#1, %[[V]]#0, %[[J]]#1
// SHAPES-LABEL: func.func @fill_and_sorts(
// SHAPES:   ts.aten.sort {{.*}} -> (!ts.tensor<f32, [2, 3]>, !ts.tensor<si64, [2, 3]>)
func.func @fill_and_sorts(%x: !ts.tensor<f32, [2, 3]>, %v: !ts.tensor<f64, []>) -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor) {
  %zero = ts.prim.Constant[0] : !ts.int
  %true = ts.prim.Constant[true] : !ts.bool
  %false = ts.prim.Constant[false] : !ts.bool
  %f = ts.prim.Constant[1.5] : !ts.float
  %0 = ts.aten.fill.Scalar %x, %f : (!ts.tensor<f32, [2, 3]>, !ts.float) -> !ts.tensor
  %1 = ts.aten.fill.Tensor %x, %v : (!ts.tensor<f32, [2, 3]>, !ts.tensor<f64, []>) -> !ts.tensor
  %2 = ts.aten.argsort %x, %zero, %true : (!ts.tensor<f32, [2, 3]>, !ts.int, !ts.bool) -> !ts.tensor
  %3 = ts.aten.msort %x : (!ts.tensor<f32, [2, 3]>) -> !ts.tensor
  %4 = ts.aten.argsort.stable %x, %true, %zero, %false : (!ts.tensor<f32, [2, 3]>, !ts.bool, !ts.int, !ts.bool) -> !ts.tensor
  return %0, %1, %2, %3, %4 : !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor
}

// -----

// nll_loss with weights: each target's log-probability picked along the
// class dim (ignored targets read class 0 and weigh 0), weighted, negated;
// the mean divides by the total weight taken.
// CHECK-LABEL: func.func @nll_loss_weighted(
// CHECK-SAME:      %[[X:[^:]+]]: !ts.tensor<f32, [4, 5]>, %[[T:[^:]+]]: !ts.tensor<si64, [4]>, %[[W:[^:]+]]: !ts.tensor<f32, [5]>
// CHECK:     %[[IGN:.*]] = ts.aten.eq.Scalar %[[T]], %{{.*}}
// CHECK:     %[[SAFE:.*]] = ts.aten.where.ScalarSelf %[[IGN]], %{{.*}}, %[[T]]
// CHECK:     %[[IDX:.*]] = ts.aten.unsqueeze %[[SAFE]]
// CHECK:     %[[G:.*]] = ts.aten.gather %[[X]], %{{.*}}, %[[IDX]]
// CHECK:     %[[PICK:.*]] = ts.aten.squeeze.dim %[[G]]
// CHECK:     %[[TAKEN:.*]] = ts.aten.index_select %[[W]]
// CHECK:     %[[WT:.*]] = ts.aten.reshape_as %[[TAKEN]], %[[T]]
// CHECK:     %[[WI:.*]] = ts.aten.where.ScalarSelf %[[IGN]], %{{.*}}, %[[WT]]
// CHECK:     %[[M:.*]] = ts.aten.mul.Tensor %[[PICK]], %[[WI]]
// CHECK:     %[[L:.*]] = ts.aten.neg %[[M]]
// CHECK:     %[[S:.*]] = ts.aten.sum %[[L]]
// CHECK:     %[[SW:.*]] = ts.aten.sum %[[WI]]
// CHECK:     ts.aten.div.Tensor %[[S]], %[[SW]]
// SHAPES-LABEL: func.func @nll_loss_weighted(
// SHAPES:   ts.aten.div.Tensor {{.*}} -> !ts.tensor<f32, []>
func.func @nll_loss_weighted(%x: !ts.tensor<f32, [4, 5]>, %t: !ts.tensor<si64, [4]>, %w: !ts.tensor<f32, [5]>) -> !ts.tensor {
  %mean = ts.prim.Constant[1] : !ts.int
  %ignore = ts.prim.Constant[-100] : !ts.int
  %0 = ts.aten.nll_loss %x, %t, %w, %mean, %ignore : (!ts.tensor<f32, [4, 5]>, !ts.tensor<si64, [4]>, !ts.tensor<f32, [5]>, !ts.int, !ts.int) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// cross_entropy with probabilities for targets: -sum(log_softmax * p) over
// the class dim; the mean divides by the number of rows.
// CHECK-LABEL: func.func @cross_entropy_probabilities(
// CHECK:     %[[LP:.*]] = ts.aten.log_softmax.int %arg0
// CHECK:     %[[M:.*]] = ts.aten.mul.Tensor %[[LP]], %arg1
// CHECK:     %[[S:.*]] = ts.aten.sum.dim_IntList %[[M]]
// CHECK:     %[[N:.*]] = ts.aten.neg %[[S]]
// CHECK:     %[[T:.*]] = ts.aten.sum %[[N]]
// CHECK:     ts.aten.div.Scalar %[[T]], %{{.*}}
// SHAPES-LABEL: func.func @cross_entropy_probabilities(
// SHAPES:   ts.aten.div.Scalar {{.*}} -> !ts.tensor<f32, []>
func.func @cross_entropy_probabilities(%x: !ts.tensor<f32, [4, 5]>, %p: !ts.tensor<f32, [4, 5]>) -> !ts.tensor {
  %none = ts.prim.Constant : !ts.none
  %mean = ts.prim.Constant[1] : !ts.int
  %ignore = ts.prim.Constant[-100] : !ts.int
  %ls = ts.prim.Constant[0.0] : !ts.float
  %0 = ts.aten.cross_entropy_loss %x, %p, %none, %mean, %ignore, %ls : (!ts.tensor<f32, [4, 5]>, !ts.tensor<f32, [4, 5]>, !ts.none, !ts.int, !ts.int, !ts.float) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// An elementwise loss reduced by sum: mse_loss is (x - y)^2.
// CHECK-LABEL: func.func @mse_sum(
// CHECK:     %[[D:.*]] = ts.aten.sub.Tensor %arg0, %arg1
// CHECK:     %[[SQ:.*]] = ts.aten.mul.Tensor %[[D]], %[[D]]
// CHECK:     ts.aten.sum %[[SQ]]
func.func @mse_sum(%x: !ts.tensor<f32, [3]>, %y: !ts.tensor<f32, [3]>) -> !ts.tensor {
  %sum = ts.prim.Constant[2] : !ts.int
  %0 = ts.aten.mse_loss %x, %y, %sum : (!ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>, !ts.int) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// im2col (nn.functional.unfold), 2x2 kernel, stride 2, on 4x4: one strided
// slice of rows and columns per kernel position, stacked, viewed as
// [N, C * 4, 2 * 2].
// CHECK-LABEL: func.func @im2col(
// CHECK-COUNT-8: ts.aten.slice.Tensor
// CHECK:     %[[L:.*]] = ts.prim.ListConstruct %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor)
// CHECK:     %[[S:.*]] = ts.aten.stack %[[L]]
// CHECK:     ts.aten.reshape %[[S]]
// SHAPES-LABEL: func.func @im2col(
// SHAPES:   ts.aten.reshape {{.*}} -> !ts.tensor<f32, [1, 8, 4]>
func.func @im2col(%x: !ts.tensor<f32, [1, 2, 4, 4]>) -> !ts.tensor {
  %k = ts.prim.Constant[[2, 2]] : !ts.list<!ts.int>
  %one = ts.prim.Constant[[1, 1]] : !ts.list<!ts.int>
  %zero = ts.prim.Constant[[0, 0]] : !ts.list<!ts.int>
  %s = ts.prim.Constant[[2, 2]] : !ts.list<!ts.int>
  %0 = ts.aten.im2col %x, %k, %one, %zero, %s : (!ts.tensor<f32, [1, 2, 4, 4]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// Tensor.unfold and combinations select constant indices, enumerated at
// compile time.
// CHECK-LABEL: func.func @unfold_combinations(
// CHECK-DAG: %[[PAIRS:.*]] = ts.prim.Constant[dense<[0, 1, 0, 2, 0, 3, 0, 4, 1, 2, 1, 3, 1, 4, 2, 3, 2, 4, 3, 4]> : tensor<20xsi64>]
// CHECK-DAG: %[[WIN:.*]] = ts.prim.Constant[dense<[0, 1, 2, 3]> : tensor<4xsi64>]
// CHECK:     ts.aten.index_select %arg0, %{{.*}}, %[[WIN]]
// CHECK:     ts.aten.permute
// CHECK:     ts.aten.index_select %arg0, %{{.*}}, %[[PAIRS]]
// SHAPES-LABEL: func.func @unfold_combinations(
// SHAPES:   ts.aten.permute {{.*}} -> !ts.tensor<f32, [2, 2]>
// SHAPES:   ts.aten.reshape {{.*}} -> !ts.tensor<f32, [10, 2]>
func.func @unfold_combinations(%x: !ts.tensor<f32, [5]>) -> (!ts.tensor, !ts.tensor) {
  %zero = ts.prim.Constant[0] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.aten.unfold %x, %zero, %two, %two : (!ts.tensor<f32, [5]>, !ts.int, !ts.int, !ts.int) -> !ts.tensor
  %1 = ts.aten.combinations %x, %two, %false : (!ts.tensor<f32, [5]>, !ts.int, !ts.bool) -> !ts.tensor
  return %0, %1 : !ts.tensor, !ts.tensor
}

// -----

// A 0-d tensor unfolds into [size] copies of its element (size 0 or 1).
// CHECK-LABEL: func.func @unfold_0d(
// CHECK: %[[ONE:.*]] = ts.aten.reshape %arg0
// CHECK: ts.aten.index_select %[[ONE]]
// SHAPES-LABEL: func.func @unfold_0d(
// SHAPES: ts.aten.index_select {{.*}} -> !ts.tensor<f32, [1]>
func.func @unfold_0d(%x: !ts.tensor<f32, []>) -> !ts.tensor {
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.unfold %x, %zero, %one, %one : (!ts.tensor<f32, []>, !ts.int, !ts.int, !ts.int) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// broadcast_tensors expands each tensor to the broadcast sizes.
// CHECK-LABEL: func.func @broadcast_tensors(
// CHECK:     %[[A:.*]] = ts.aten.expand %arg0
// CHECK:     %[[B:.*]] = ts.aten.expand %arg1
// CHECK:     ts.prim.ListConstruct %[[A]], %[[B]]
// SHAPES-LABEL: func.func @broadcast_tensors(
// SHAPES:   ts.aten.expand {{.*}} -> !ts.tensor<f32, [3, 4]>
// SHAPES:   ts.aten.expand {{.*}} -> !ts.tensor<f32, [3, 4]>
func.func @broadcast_tensors(%x: !ts.tensor<f32, [3, 1]>, %y: !ts.tensor<f32, [4]>) -> !ts.list<!ts.tensor> {
  %l = ts.prim.ListConstruct %x, %y : (!ts.tensor<f32, [3, 1]>, !ts.tensor<f32, [4]>) -> !ts.list<!ts.tensor>
  %0 = ts.aten.broadcast_tensors %l : (!ts.list<!ts.tensor>) -> !ts.list<!ts.tensor>
  return %0 : !ts.list<!ts.tensor>
}

// -----

// avg_pool3d of integers: both passes sum (a divisor of 1) and the sum is
// divided once, truncating, by each window's divisor: the rounded ratio of
// the sums of ones to their means over the same windows.
// CHECK-LABEL: func.func @avg_pool3d_long(
// CHECK-DAG:     %[[ONE:.+]] = ts.prim.Constant[1] : !ts.int
// CHECK-DAG:     %[[NONE:.+]] = ts.prim.Constant : !ts.none
// CHECK-DAG:     %[[TRUNC:.+]] = ts.prim.Constant["trunc"] : !ts.str
// CHECK:         ts.aten.avg_pool2d {{.*}}, %[[ONE]] :
// CHECK:         ts.aten.avg_pool2d {{.*}}, %[[ONE]] :
// CHECK:         ts.aten.ones
// CHECK:         ts.aten.avg_pool2d {{.*}}, %[[NONE]] :
// CHECK:         ts.aten.avg_pool2d {{.*}}, %[[NONE]] :
// CHECK:         ts.aten.round
// CHECK:         ts.aten.div.Tensor_mode {{.*}}, %[[TRUNC]] :
// CHECK-NOT:     ts.aten.avg_pool3d
func.func @avg_pool3d_long(%x: !ts.tensor<si64, [1, 2, 4, 5, 3]>) -> !ts.tensor {
  %none = ts.prim.Constant : !ts.none
  %false = ts.prim.Constant[false] : !ts.bool
  %true = ts.prim.Constant[true] : !ts.bool
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %k = ts.prim.ListConstruct %two, %two, %two : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %empty = ts.prim.ListConstruct : () -> !ts.list<!ts.int>
  %p = ts.prim.ListConstruct %one, %one, %one : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.avg_pool3d %x, %k, %empty, %p, %true, %true, %none : (!ts.tensor<si64, [1, 2, 4, 5, 3]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool, !ts.bool, !ts.none) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// The 3-D pools as a 2-D pool over the planes, then over depth on
// [B, H'W', D, 1]; a divisor_override sums both passes and divides once.
// adaptive_max_pool3d's index: the depth pass's plane d times H W plus the
// plane pass's index there (a gather). adaptive_max_pool1d as the 2-D pool
// of [..., 1, L].
// CHECK-LABEL: func.func @pools(
// CHECK: ts.aten.avg_pool2d
// CHECK: ts.aten.transpose.int
// CHECK: ts.aten.avg_pool2d
// CHECK: ts.aten.div.Scalar
// CHECK: ts.aten.adaptive_max_pool2d
// CHECK: ts.aten.adaptive_max_pool2d
// CHECK: ts.aten.gather
// CHECK: ts.aten.mul.Scalar
// CHECK: ts.aten.adaptive_max_pool2d
// CHECK-NOT: ts.aten.avg_pool3d
// CHECK-NOT: ts.aten.adaptive_max_pool3d
// CHECK-NOT: ts.aten.adaptive_max_pool1d
// SHAPES-LABEL: func.func @pools(
// SHAPES: ts.aten.avg_pool2d {{.*}} -> !ts.tensor<f32, [6, 4, 3, 2]>
// SHAPES: ts.aten.avg_pool2d {{.*}} -> !ts.tensor<f32, [6, 6, 3, 1]>
// SHAPES: ts.aten.reshape {{.*}} -> !ts.tensor<f32, [2, 3, 3, 3, 2]>
// SHAPES: ts.aten.adaptive_max_pool2d {{.*}} -> (!ts.tensor<f32, [6, 4, 2, 2]>, !ts.tensor<si64, [6, 4, 2, 2]>)
// SHAPES: ts.aten.adaptive_max_pool2d {{.*}} -> (!ts.tensor<f32, [6, 4, 1, 1]>, !ts.tensor<si64, [6, 4, 1, 1]>)
func.func @pools(%x: !ts.tensor<f32, [2, 3, 4, 5, 3]>, %y: !ts.tensor<f32, [2, 3, 11]>) -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor) {
  %none = ts.prim.Constant : !ts.none
  %false = ts.prim.Constant[false] : !ts.bool
  %true = ts.prim.Constant[true] : !ts.bool
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %four = ts.prim.Constant[4] : !ts.int
  %k = ts.prim.ListConstruct %two, %two, %two : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %empty = ts.prim.ListConstruct : () -> !ts.list<!ts.int>
  %p = ts.prim.ListConstruct %one, %one, %one : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %o = ts.prim.ListConstruct %one, %two, %two : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %o1 = ts.prim.ListConstruct %four : (!ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.avg_pool3d %x, %k, %empty, %p, %true, %false, %four : (!ts.tensor<f32, [2, 3, 4, 5, 3]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.bool, !ts.bool, !ts.int) -> !ts.tensor
  %1:2 = ts.aten.adaptive_max_pool3d %x, %o : (!ts.tensor<f32, [2, 3, 4, 5, 3]>, !ts.list<!ts.int>) -> (!ts.tensor, !ts.tensor)
  %2:2 = ts.aten.adaptive_max_pool1d %y, %o1 : (!ts.tensor<f32, [2, 3, 11]>, !ts.list<!ts.int>) -> (!ts.tensor, !ts.tensor)
  return %0, %1#0, %1#1, %2#0, %2#1 : !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor
}
