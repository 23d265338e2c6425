// RUN: tsmlir-opt %s -split-input-file --ts-optimize | FileCheck %s

// as_strided of an argument (row-major storage of its own): index_select of
// the positions offset + i * 1 + j * 2, viewed [2, 2].
// CHECK-LABEL: func.func @as_strided(
// CHECK:         %[[TABLE:.+]] = ts.prim.Constant[dense<[1, 3, 2, 4]> : tensor<4xsi64>]
// CHECK:         %[[PICKED:.+]] = ts.aten.index_select %arg0, %int0, %[[TABLE]]
// CHECK:         %[[VIEWED:.+]] = ts.aten.reshape %[[PICKED]], {{.*}} -> !ts.tensor<f32, [2, 2]>
// CHECK:         return %[[VIEWED]]
func.func @as_strided(%x: !ts.tensor<f32, [9]>) -> !ts.tensor {
  %int2 = ts.prim.Constant[2] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %0 = ts.prim.ListConstruct %int2, %int2 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %1 = ts.prim.ListConstruct %int1, %int2 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %2 = ts.aten.as_strided %x, %0, %1, %int1 : (!ts.tensor<f32, [9]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.int) -> !ts.tensor
  return %2 : !ts.tensor
}

// -----

// as_strided of a view reads its base's storage, whose layout is not the
// view's: it stays (and is reported by name when lowered).
// CHECK-LABEL: func.func @as_strided_view(
// CHECK:         ts.aten.as_strided
func.func @as_strided_view(%x: !ts.tensor<f32, [3, 3]>) -> !ts.tensor {
  %int2 = ts.prim.Constant[2] : !ts.int
  %int1 = ts.prim.Constant[1] : !ts.int
  %int0 = ts.prim.Constant[0] : !ts.int
  %t = ts.aten.transpose.int %x, %int0, %int1 : (!ts.tensor<f32, [3, 3]>, !ts.int, !ts.int) -> !ts.tensor<f32, [3, 3]>
  %0 = ts.prim.ListConstruct %int2, %int2 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %1 = ts.prim.ListConstruct %int1, %int2 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %2 = ts.aten.as_strided %t, %0, %1, %int1 : (!ts.tensor<f32, [3, 3]>, !ts.list<!ts.int>, !ts.list<!ts.int>, !ts.int) -> !ts.tensor
  return %2 : !ts.tensor
}

// -----

// tensordot: a's free dims then the contracted ones, b's contracted ones
// (in da's order) then its free ones, as one mm. trapezoid with a spacing:
// (sum - (first + last) * 0.5) * dx.
// CHECK-LABEL: func.func @tensordot_trapezoid(
// CHECK:         %[[A:.+]] = ts.aten.reshape %arg0, {{.*}} -> !ts.tensor<f32, [2, 12]>
// CHECK:         %[[BT:.+]] = ts.aten.permute %arg1, {{.*}} -> !ts.tensor<f32, [3, 4, 5]>
// CHECK:         %[[B:.+]] = ts.aten.reshape %[[BT]], {{.*}} -> !ts.tensor<f32, [12, 5]>
// CHECK:         %[[DOT:.+]] = ts.aten.mm %[[A]], %[[B]]
// CHECK:         %[[FIRST:.+]] = ts.aten.select.int %arg0, %int2, %int0
// CHECK:         %[[LAST:.+]] = ts.aten.select.int %arg0, %int2, %int3
// CHECK:         %[[ENDS:.+]] = ts.aten.add.Tensor %[[FIRST]], %[[LAST]]
// CHECK:         %[[HALF:.+]] = ts.aten.mul.Scalar %[[ENDS]], %float
// CHECK:         %[[SUM:.+]] = ts.aten.sum.dim_IntList %arg0
// CHECK:         %[[INNER:.+]] = ts.aten.sub.Tensor %[[SUM]], %[[HALF]]
// CHECK:         %[[AREA:.+]] = ts.aten.mul.Scalar %[[INNER]], %float
// CHECK:         return %[[DOT]], %[[AREA]]
func.func @tensordot_trapezoid(%a: !ts.tensor<f32, [2, 3, 4]>, %b: !ts.tensor<f32, [4, 3, 5]>) -> (!ts.tensor, !ts.tensor) {
  %int1 = ts.prim.Constant[1] : !ts.int
  %int2 = ts.prim.Constant[2] : !ts.int
  %int0 = ts.prim.Constant[0] : !ts.int
  %da = ts.prim.ListConstruct %int1, %int2 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %db = ts.prim.ListConstruct %int1, %int0 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.tensordot %a, %b, %da, %db : (!ts.tensor<f32, [2, 3, 4]>, !ts.tensor<f32, [4, 3, 5]>, !ts.list<!ts.int>, !ts.list<!ts.int>) -> !ts.tensor
  %dx = ts.prim.Constant[0.5] : !ts.float
  %1 = ts.aten.trapezoid.dx %a, %dx, %int2 : (!ts.tensor<f32, [2, 3, 4]>, !ts.float, !ts.int) -> !ts.tensor
  return %0, %1 : !ts.tensor, !ts.tensor
}

// -----

// numpy_T reverses the dims; mT, mH and adjoint of a real tensor swap the
// last two; real and conj of a real tensor are the tensor; conj_physical a
// copy; isreal all true.
// CHECK-LABEL: func.func @transposes_and_real_parts(
// CHECK:         %[[T:.+]] = ts.aten.permute %arg0, {{.*}} -> !ts.tensor<f32, [4, 3, 2]>
// CHECK:         %[[MT:.+]] = ts.aten.transpose.int %arg0, %int1, %int2 {{.*}} -> !ts.tensor<f32, [2, 4, 3]>
// CHECK:         %[[COPY:.+]] = ts.aten.clone %arg0
// CHECK:         %[[TRUE:.+]] = ts.aten.ones {{.*}} -> !ts.tensor<i1, [2, 3, 4]>
// CHECK:         return %[[T]], %[[MT]], %[[MT]], %[[MT]], %arg0, %arg0, %[[COPY]], %[[TRUE]]
func.func @transposes_and_real_parts(%x: !ts.tensor<f32, [2, 3, 4]>) -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor) {
  %0 = ts.aten.numpy_T %x : (!ts.tensor<f32, [2, 3, 4]>) -> !ts.tensor
  %1 = ts.aten.mT %x : (!ts.tensor<f32, [2, 3, 4]>) -> !ts.tensor
  %2 = ts.aten.mH %x : (!ts.tensor<f32, [2, 3, 4]>) -> !ts.tensor
  %3 = ts.aten.adjoint %x : (!ts.tensor<f32, [2, 3, 4]>) -> !ts.tensor
  %4 = ts.aten.real %x : (!ts.tensor<f32, [2, 3, 4]>) -> !ts.tensor
  %5 = ts.aten.conj %x : (!ts.tensor<f32, [2, 3, 4]>) -> !ts.tensor
  %6 = ts.aten.conj_physical %x : (!ts.tensor<f32, [2, 3, 4]>) -> !ts.tensor
  %7 = ts.aten.isreal %x : (!ts.tensor<f32, [2, 3, 4]>) -> !ts.tensor
  return %0, %1, %2, %3, %4, %5, %6, %7 : !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor
}

// -----

// mT of a vector is PyTorch's error: it stays, to be reported by name.
// CHECK-LABEL: func.func @mT_of_a_vector(
// CHECK:         ts.aten.mT
func.func @mT_of_a_vector(%x: !ts.tensor<f32, [3]>) -> !ts.tensor {
  %0 = ts.aten.mT %x : (!ts.tensor<f32, [3]>) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// angle of a real tensor: pi where negative, NaN where NaN, else 0; an
// integer tensor's in float32.
// CHECK-LABEL: func.func @angle(
// CHECK:         %[[PIC:.+]] = ts.prim.Constant[3.14159265{{[0-9]*}}] : !ts.float
// CHECK:         %[[NEG:.+]] = ts.aten.lt.Scalar %arg0, %{{.+}} :
// CHECK:         %[[F:.+]] = ts.aten.to.dtype %[[NEG]], %int7
// CHECK:         %[[PI:.+]] = ts.aten.mul.Scalar %[[F]], %[[PIC]]
// CHECK:         %[[NAN:.+]] = ts.aten.isnan %arg0
// CHECK:         %[[A:.+]] = ts.aten.where.self %[[NAN]], %arg0, %[[PI]] {{.*}} -> !ts.tensor<f64, [5]>
// CHECK:         %[[XF:.+]] = ts.aten.to.dtype %arg1, %int6
// CHECK:         ts.aten.where.self {{.*}} -> !ts.tensor<f32, [5]>
func.func @angle(%x: !ts.tensor<f64, [5]>, %n: !ts.tensor<si64, [5]>) -> (!ts.tensor, !ts.tensor) {
  %0 = ts.aten.angle %x : (!ts.tensor<f64, [5]>) -> !ts.tensor
  %1 = ts.aten.angle %n : (!ts.tensor<si64, [5]>) -> !ts.tensor
  return %0, %1 : !ts.tensor, !ts.tensor
}

// -----

// round.decimals: x * 10^d rounded, / 10^d; for d < 0, x / 10^-d rounded,
// * 10^-d.
// CHECK-LABEL: func.func @round_decimals(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor<f32, [4]>)
// CHECK-DAG:     %[[P3:.+]] = ts.prim.Constant[1.000000e+03] : !ts.float
// CHECK-DAG:     %[[P2:.+]] = ts.prim.Constant[1.000000e+02] : !ts.float
// CHECK:         %[[A:.+]] = ts.aten.mul.Scalar %[[X]], %[[P3]]
// CHECK:         %[[RA:.+]] = ts.aten.round %[[A]]
// CHECK:         %[[UP:.+]] = ts.aten.div.Scalar %[[RA]], %[[P3]]
// CHECK:         %[[B:.+]] = ts.aten.div.Scalar %[[X]], %[[P2]]
// CHECK:         %[[RB:.+]] = ts.aten.round %[[B]]
// CHECK:         %[[DOWN:.+]] = ts.aten.mul.Scalar %[[RB]], %[[P2]]
// CHECK:         return %[[UP]], %[[DOWN]]
func.func @round_decimals(%x: !ts.tensor<f32, [4]>) -> (!ts.tensor, !ts.tensor) {
  %three = ts.prim.Constant[3] : !ts.int
  %minus2 = ts.prim.Constant[-2] : !ts.int
  %0 = ts.aten.round.decimals %x, %three : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor
  %1 = ts.aten.round.decimals %x, %minus2 : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor
  return %0, %1 : !ts.tensor, !ts.tensor
}

// -----

// gather and index_select read a 0-d tensor as [1].
// CHECK-LABEL: func.func @zero_dim_self(
// CHECK:         %[[FLAT:.+]] = ts.aten.reshape %arg0, {{.*}} -> !ts.tensor<f32, [1]>
// CHECK:         ts.aten.gather %[[FLAT]]
// CHECK:         %[[FLAT2:.+]] = ts.aten.reshape %arg0, {{.*}} -> !ts.tensor<f32, [1]>
// CHECK:         %[[SEL:.+]] = ts.aten.index_select %[[FLAT2]]
// CHECK:         ts.aten.reshape %[[SEL]], {{.*}} -> !ts.tensor<f32, []>
func.func @zero_dim_self(%x: !ts.tensor<f32, []>, %i: !ts.tensor<si64, [1]>) -> (!ts.tensor, !ts.tensor) {
  %zero = ts.prim.Constant[0] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.aten.gather %x, %zero, %i, %false : (!ts.tensor<f32, []>, !ts.int, !ts.tensor<si64, [1]>, !ts.bool) -> !ts.tensor
  %1 = ts.aten.index_select %x, %zero, %i : (!ts.tensor<f32, []>, !ts.int, !ts.tensor<si64, [1]>) -> !ts.tensor
  return %0, %1 : !ts.tensor, !ts.tensor
}

// -----

// gather of a 0-d tensor at a 0-d index: both viewed as [1].
// CHECK-LABEL: func.func @zero_dim_gather_index(
// CHECK:         %[[FLAT:.+]] = ts.aten.reshape %arg0, {{.*}} -> !ts.tensor<f32, [1]>
// CHECK:         %[[INDEX:.+]] = ts.aten.reshape %arg1, {{.*}} -> !ts.tensor<si64, [1]>
// CHECK:         %[[G:.+]] = ts.aten.gather %[[FLAT]], %{{.+}}, %[[INDEX]]
// CHECK:         ts.aten.reshape %[[G]], {{.*}} -> !ts.tensor<f32, []>
func.func @zero_dim_gather_index(%x: !ts.tensor<f32, []>, %i: !ts.tensor<si64, []>) -> !ts.tensor {
  %zero = ts.prim.Constant[0] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.aten.gather %x, %zero, %i, %false : (!ts.tensor<f32, []>, !ts.int, !ts.tensor<si64, []>, !ts.bool) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// frexp: in f64, e = floor(log2|x|) + 1 (0 where x is zero or not finite),
// m = x 2^h 2^(-e - h), both corrected by one where |m| is >= 1 or < 0.5;
// the mantissa in x's dtype, the exponent as int32.
// CHECK-LABEL: func.func @frexp(
// CHECK-SAME:      -> (!ts.tensor<f32, [4]>, !ts.tensor<si32, [4]>)
// CHECK:         %[[X:.+]] = ts.aten.to.dtype %arg0, {{.*}} -> !ts.tensor<f64, [4]>
// CHECK:         %[[ABS:.+]] = ts.aten.abs %[[X]]
// CHECK:         ts.aten.isfinite %[[X]]
// CHECK:         ts.aten.log2 %[[ABS]]
// CHECK:         ts.aten.pow.Scalar
// CHECK:         ts.aten.pow.Scalar
// CHECK:         ts.aten.ge.Scalar
// CHECK:         ts.aten.lt.Scalar
// CHECK:         %[[M:.+]] = ts.aten.to.dtype {{.*}} -> !ts.tensor<f32, [4]>
// CHECK:         %[[E:.+]] = ts.aten.to.dtype {{.*}} -> !ts.tensor<si32, [4]>
// CHECK:         return %[[M]], %[[E]]
func.func @frexp(%x: !ts.tensor<f32, [4]>) -> (!ts.tensor, !ts.tensor) {
  %m, %e = ts.aten.frexp.Tensor %x : (!ts.tensor<f32, [4]>) -> (!ts.tensor, !ts.tensor)
  return %m, %e : !ts.tensor, !ts.tensor
}
