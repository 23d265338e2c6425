// RUN: tsmlir-opt %s --convert-ts-to-linalg | FileCheck %s

// One elementwise linalg.generic per op (a linalg.fill for fills), for the
// overloads and ops elementwise.mlir does not show: its body is the op on
// the elements, scalar operands are read in the body.

// CHECK-LABEL: func.func @scalar_arith(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<4xf32>, %[[S:.+]]: f64)
// CHECK:         %[[S0:.+]] = arith.truncf %[[S]] : f64 to f32
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>)
// CHECK:         ^bb0(%[[A:.+]]: f32, %{{.+}}: f32):
// CHECK:           arith.addf %[[A]], %[[S0]] : f32
// CHECK:         %[[S1:.+]] = arith.truncf %[[S]] : f64 to f32
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>)
// CHECK:         ^bb0(%[[A:.+]]: f32, %{{.+}}: f32):
// CHECK:           arith.subf %[[A]], %[[S1]] : f32
// CHECK:         linalg.generic {{.*}} ins(%[[X]], %[[Y]] : tensor<4xf32>, tensor<4xf32>)
// CHECK:         ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
// CHECK:           arith.subf %[[B]], %[[A]] : f32
// CHECK:         %[[S3:.+]] = arith.truncf %[[S]] : f64 to f32
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>)
// CHECK:         ^bb0(%[[A:.+]]: f32, %{{.+}}: f32):
// CHECK:           arith.subf %[[S3]], %[[A]] : f32
// CHECK:         %[[S4:.+]] = arith.truncf %[[S]] : f64 to f32
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>)
// CHECK:         ^bb0(%[[A:.+]]: f32, %{{.+}}: f32):
// CHECK:           math.powf %[[S4]], %[[A]] : f32
func.func @scalar_arith(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>, %s: !ts.float) -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) {
  %one = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.add.Scalar %x, %s, %one : (!ts.tensor<f32, [4]>, !ts.float, !ts.int) -> !ts.tensor<f32, [4]>
  %1 = ts.aten.sub.Scalar %x, %s, %one : (!ts.tensor<f32, [4]>, !ts.float, !ts.int) -> !ts.tensor<f32, [4]>
  %2 = ts.aten.rsub.Tensor %x, %y, %one : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %3 = ts.aten.rsub.Scalar %x, %s, %one : (!ts.tensor<f32, [4]>, !ts.float, !ts.int) -> !ts.tensor<f32, [4]>
  %4 = ts.aten.pow.Scalar %s, %x : (!ts.float, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0, %1, %2, %3, %4 : !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>
}

// Integer division with rounding_mode="floor", floor_divide and remainder
// correct the truncating quotient and remainder by the signs.
// CHECK-LABEL: func.func @division(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<4xf32>, %[[S:.+]]: f64, %[[I:.+]]: tensor<4xi64>, %[[J:.+]]: tensor<4xi64>, %[[N:.+]]: i64)
// CHECK:         linalg.generic {{.*}} ins(%[[X]], %[[Y]] : tensor<4xf32>, tensor<4xf32>)
// CHECK:           arith.divf
// CHECK:         %[[S1:.+]] = arith.truncf %[[S]] : f64 to f32
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>)
// CHECK:           arith.divf %{{.+}}, %[[S1]] : f32
// CHECK:         linalg.generic {{.*}} ins(%[[I]] : tensor<4xi64>)
// CHECK:           arith.divsi %{{.+}}, %[[N]] : i64
// CHECK:           arith.remsi %{{.+}}, %[[N]] : i64
// CHECK:           arith.select
// CHECK:         linalg.generic {{.*}} ins(%[[I]], %[[J]] : tensor<4xi64>, tensor<4xi64>)
// CHECK:           arith.divsi
// CHECK:           arith.remsi
// CHECK:           arith.select
// CHECK:         linalg.generic {{.*}} ins(%[[I]] : tensor<4xi64>)
// CHECK:           %[[R:.+]] = arith.remsi %{{.+}}, %[[N]] : i64
// CHECK:           arith.addi %[[R]], %[[N]] : i64
// CHECK:           arith.select
func.func @division(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>, %s: !ts.float, %i: !ts.tensor<si64, [4]>, %j: !ts.tensor<si64, [4]>, %n: !ts.int) -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>) {
  %floor = ts.prim.Constant["floor"] : !ts.str
  %0 = ts.aten.div.Tensor %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %1 = ts.aten.div.Scalar %x, %s : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
  %2 = ts.aten.div.Scalar_mode %i, %n, %floor : (!ts.tensor<si64, [4]>, !ts.int, !ts.str) -> !ts.tensor<si64, [4]>
  %3 = ts.aten.floor_divide %i, %j : (!ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>) -> !ts.tensor<si64, [4]>
  %4 = ts.aten.remainder.Scalar %i, %n : (!ts.tensor<si64, [4]>, !ts.int) -> !ts.tensor<si64, [4]>
  return %0, %1, %2, %3, %4 : !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>, !ts.tensor<si64, [4]>
}

// CHECK-LABEL: func.func @math(
// CHECK:         linalg.generic
// CHECK:           math.sqrt
// CHECK:         linalg.generic
// CHECK:           math.rsqrt
// CHECK:         linalg.generic
// CHECK:           math.expm1
// CHECK:         linalg.generic
// CHECK:           math.log %
// CHECK:         linalg.generic
// CHECK:           math.log1p
// CHECK:         linalg.generic
// CHECK:           math.log2
// CHECK:         linalg.generic
// CHECK:           math.erf
// CHECK:         linalg.generic
// CHECK:           math.sin
// CHECK:         linalg.generic
// CHECK:           math.cos
func.func @math(%x: !ts.tensor<f32, [4]>) -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) {
  %0 = ts.aten.sqrt %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %1 = ts.aten.rsqrt %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %2 = ts.aten.expm1 %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %3 = ts.aten.log %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %4 = ts.aten.log1p %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %5 = ts.aten.log2 %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %6 = ts.aten.erf %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %7 = ts.aten.sin %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %8 = ts.aten.cos %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>
}

// round is round-half-to-even; sign selects among 1, -1 and 0.
// CHECK-LABEL: func.func @rounding(
// CHECK:         linalg.generic
// CHECK:           math.floor
// CHECK:         linalg.generic
// CHECK:           math.ceil
// CHECK:         linalg.generic
// CHECK:           math.roundeven
// CHECK:         linalg.generic
// CHECK:           arith.cmpf ogt
// CHECK:           arith.cmpf olt
// CHECK:           arith.select
// CHECK:           arith.select
// CHECK:         linalg.generic
// CHECK:         ^bb0(%[[A:.+]]: f32, %{{.+}}: f32):
// CHECK:           arith.divf %{{.+}}, %[[A]] : f32
func.func @rounding(%x: !ts.tensor<f32, [4]>) -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) {
  %0 = ts.aten.floor %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %1 = ts.aten.ceil %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %2 = ts.aten.round %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %3 = ts.aten.sign %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %4 = ts.aten.reciprocal %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0, %1, %2, %3, %4 : !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @activations(
// sigmoid: 1 / (1 + exp(-x)).
// CHECK:         linalg.generic
// CHECK:           arith.negf
// CHECK:           math.exp
// CHECK:           arith.addf
// CHECK:           %[[SIG:.+]] = arith.divf
// CHECK-NEXT:      linalg.yield %[[SIG]] : f32
// silu: x * sigmoid(x).
// CHECK:         linalg.generic
// CHECK:         ^bb0(%[[A:.+]]: f32, %{{.+}}: f32):
// CHECK:           math.exp
// CHECK:           %[[SIG:.+]] = arith.divf
// CHECK:           arith.mulf %[[A]], %[[SIG]] : f32
// hardswish: x * min(max(x + 3, 0), 6) / 6; hardsigmoid without the x.
// CHECK:         linalg.generic
// CHECK:           arith.maximumf
// CHECK:           arith.minimumf
// CHECK:           arith.mulf
// CHECK:           arith.divf
// CHECK:         linalg.generic
// CHECK:           arith.maximumf
// CHECK:           arith.minimumf
// CHECK-NOT:       arith.mulf
// CHECK:           %[[HS:.+]] = arith.divf
// CHECK-NEXT:      linalg.yield %[[HS]] : f32
// hardtanh: clamped to [min_val, max_val].
// CHECK:         linalg.generic
// CHECK:           %[[MAX:.+]] = arith.maximumf
// CHECK:           %[[MIN:.+]] = arith.minimumf %[[MAX]]
// CHECK-NEXT:      linalg.yield %[[MIN]] : f32
// leaky_relu: x > 0 ? x : x * slope.
// CHECK:         linalg.generic
// CHECK:           arith.cmpf ogt
// CHECK:           arith.mulf
// CHECK:           arith.select
// elu: scale * (x > 0 ? x : alpha * expm1(x * input_scale)).
// CHECK:         linalg.generic
// CHECK:           math.expm1
// CHECK:           arith.select
// CHECK:           arith.mulf
// softplus: log1p(exp(beta * x)) / beta below the threshold, else x.
// CHECK:         linalg.generic
// CHECK:           math.exp
// CHECK:           math.log1p
// CHECK:           arith.cmpf ogt
// CHECK:           arith.select
func.func @activations(%x: !ts.tensor<f32, [4]>) -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) {
  %m1 = ts.prim.Constant[-1] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %twenty = ts.prim.Constant[20] : !ts.int
  %slope = ts.prim.Constant[0.01] : !ts.float
  %0 = ts.aten.sigmoid %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %1 = ts.aten.silu %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %2 = ts.aten.hardswish %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %3 = ts.aten.hardsigmoid %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %4 = ts.aten.hardtanh %x, %m1, %one : (!ts.tensor<f32, [4]>, !ts.int, !ts.int) -> !ts.tensor<f32, [4]>
  %5 = ts.aten.leaky_relu %x, %slope : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
  %6 = ts.aten.elu %x, %one, %one, %one : (!ts.tensor<f32, [4]>, !ts.int, !ts.int, !ts.int) -> !ts.tensor<f32, [4]>
  %7 = ts.aten.softplus %x, %one, %twenty : (!ts.tensor<f32, [4]>, !ts.int, !ts.int) -> !ts.tensor<f32, [4]>
  return %0, %1, %2, %3, %4, %5, %6, %7 : !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @bounds(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<4xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>)
// CHECK:           arith.maximumf
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>)
// CHECK:           arith.minimumf
// CHECK:         linalg.generic {{.*}} ins(%[[X]], %[[Y]] : tensor<4xf32>, tensor<4xf32>)
// CHECK:           arith.minimumf
// CHECK:         linalg.generic {{.*}} ins(%[[X]], %[[Y]] : tensor<4xf32>, tensor<4xf32>)
// CHECK:           arith.minimumf
func.func @bounds(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>) -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) {
  %zero = ts.prim.Constant[0] : !ts.int
  %six = ts.prim.Constant[6.0] : !ts.float
  %0 = ts.aten.clamp_min %x, %zero : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %1 = ts.aten.clamp_max %x, %six : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
  %2 = ts.aten.minimum %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %3 = ts.aten.min.other %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0, %1, %2, %3 : !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>
}

// where with scalar branches reads them in the body; masked_fill selects
// the value where the mask is set; lerp is exact at both ends (PyTorch's
// form, by |weight| < 0.5).
// CHECK-LABEL: func.func @selection(
// CHECK-SAME:      %[[C:.+]]: tensor<4xi1>, %[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<4xf32>, %[[W:.+]]: tensor<4xf32>, %[[V:.+]]: tensor<f32>)
// CHECK:         linalg.generic {{.*}} ins(%[[C]], %[[Y]] : tensor<4xi1>, tensor<4xf32>)
// CHECK:         ^bb0(%[[K:.+]]: i1, %[[B:.+]]: f32, %{{.+}}: f32):
// CHECK:           arith.select %[[K]], %{{.+}}, %[[B]] : f32
// CHECK:         linalg.generic {{.*}} ins(%[[C]], %[[X]] : tensor<4xi1>, tensor<4xf32>)
// CHECK:         ^bb0(%[[K:.+]]: i1, %[[A:.+]]: f32, %{{.+}}: f32):
// CHECK:           arith.select %[[K]], %[[A]], %{{.+}} : f32
// CHECK:         linalg.generic {{.*}} ins(%[[C]] : tensor<4xi1>)
// CHECK:         ^bb0(%[[K:.+]]: i1, %{{.+}}: f32):
// CHECK:           arith.select %[[K]], %{{.+}}, %{{.+}} : f32
// CHECK:         linalg.generic {{.*}} ins(%[[X]], %[[C]] : tensor<4xf32>, tensor<4xi1>)
// CHECK:         ^bb0(%[[A:.+]]: f32, %[[K:.+]]: i1, %{{.+}}: f32):
// CHECK:           arith.select %[[K]], %{{.+}}, %[[A]] : f32
// CHECK:         linalg.generic {{.*}} ins(%[[X]], %[[C]], %[[V]] : tensor<4xf32>, tensor<4xi1>, tensor<f32>)
// CHECK:         ^bb0(%[[A:.+]]: f32, %[[K:.+]]: i1, %[[E:.+]]: f32, %{{.+}}: f32):
// CHECK:           arith.select %[[K]], %[[E]], %[[A]] : f32
// CHECK:         linalg.generic {{.*}} ins(%[[X]], %[[Y]] : tensor<4xf32>, tensor<4xf32>)
// CHECK:           math.absf
// CHECK:           arith.cmpf olt
// CHECK:           arith.select
// CHECK:         linalg.generic {{.*}} ins(%[[X]], %[[Y]], %[[W]] : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK:         ^bb0(%{{.+}}: f32, %{{.+}}: f32, %[[WE:.+]]: f32, %{{.+}}: f32):
// CHECK:           math.absf %[[WE]] : f32
// CHECK:           arith.cmpf olt
// CHECK:           arith.select
func.func @selection(%c: !ts.tensor<i1, [4]>, %x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>, %w: !ts.tensor<f32, [4]>, %v: !ts.tensor<f32, []>) -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) {
  %half = ts.prim.Constant[0.5] : !ts.float
  %zero = ts.prim.Constant[0.0] : !ts.float
  %0 = ts.aten.where.ScalarSelf %c, %half, %y : (!ts.tensor<i1, [4]>, !ts.float, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %1 = ts.aten.where.ScalarOther %c, %x, %half : (!ts.tensor<i1, [4]>, !ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
  %2 = ts.aten.where.Scalar %c, %half, %zero : (!ts.tensor<i1, [4]>, !ts.float, !ts.float) -> !ts.tensor<f32, [4]>
  %3 = ts.aten.masked_fill.Scalar %x, %c, %zero : (!ts.tensor<f32, [4]>, !ts.tensor<i1, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
  %4 = ts.aten.masked_fill.Tensor %x, %c, %v : (!ts.tensor<f32, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<f32, []>) -> !ts.tensor<f32, [4]>
  %5 = ts.aten.lerp.Scalar %x, %y, %half : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
  %6 = ts.aten.lerp.Tensor %x, %y, %w : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %0, %1, %2, %3, %4, %5, %6 : !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>
}

// CHECK-LABEL: func.func @comparisons(
// CHECK:         linalg.generic
// CHECK:           arith.cmpf oeq
// CHECK:         linalg.generic
// CHECK:           arith.cmpf oeq
// CHECK:         linalg.generic
// CHECK:           arith.cmpf une
// CHECK:         linalg.generic
// CHECK:           arith.cmpf une
// CHECK:         linalg.generic
// CHECK:           arith.cmpf olt
// CHECK:         linalg.generic
// CHECK:           arith.cmpf olt
// CHECK:         linalg.generic
// CHECK:           arith.cmpf ole
// CHECK:         linalg.generic
// CHECK:           arith.cmpf ole
// CHECK:         linalg.generic
// CHECK:           arith.cmpf oge
// CHECK:         linalg.generic
// CHECK:           arith.cmpf oge
func.func @comparisons(%x: !ts.tensor<f32, [4]>, %y: !ts.tensor<f32, [4]>, %s: !ts.float) -> (!ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>) {
  %0 = ts.aten.eq.Tensor %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<i1, [4]>
  %1 = ts.aten.eq.Scalar %x, %s : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<i1, [4]>
  %2 = ts.aten.ne.Tensor %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<i1, [4]>
  %3 = ts.aten.ne.Scalar %x, %s : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<i1, [4]>
  %4 = ts.aten.lt.Tensor %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<i1, [4]>
  %5 = ts.aten.lt.Scalar %x, %s : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<i1, [4]>
  %6 = ts.aten.le.Tensor %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<i1, [4]>
  %7 = ts.aten.le.Scalar %x, %s : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<i1, [4]>
  %8 = ts.aten.ge.Tensor %x, %y : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<i1, [4]>
  %9 = ts.aten.ge.Scalar %x, %s : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<i1, [4]>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>
}

// bitwise_not of an integer is xor with -1.
// CHECK-LABEL: func.func @logical_bitwise(
// CHECK:         linalg.generic
// CHECK:           arith.andi %{{.+}}, %{{.+}} : i1
// CHECK:         linalg.generic
// CHECK:           arith.ori %{{.+}}, %{{.+}} : i1
// CHECK:         linalg.generic
// CHECK:           arith.xori %{{.+}}, %{{.+}} : i1
// CHECK:         linalg.generic
// CHECK:           arith.xori %{{.+}}, %true : i1
// CHECK:         linalg.generic
// CHECK:           %[[ONES:.+]] = arith.constant -1 : i32
// CHECK:           arith.xori %{{.+}}, %[[ONES]] : i32
// CHECK:         linalg.generic
// CHECK:           arith.andi %{{.+}}, %{{.+}} : i32
// CHECK:         linalg.generic
// CHECK:           arith.ori %{{.+}}, %{{.+}} : i32
// CHECK:         linalg.generic
// CHECK:           arith.xori %{{.+}}, %{{.+}} : i32
func.func @logical_bitwise(%a: !ts.tensor<i1, [4]>, %b: !ts.tensor<i1, [4]>, %i: !ts.tensor<si32, [4]>, %j: !ts.tensor<si32, [4]>) -> (!ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<si32, [4]>, !ts.tensor<si32, [4]>, !ts.tensor<si32, [4]>, !ts.tensor<si32, [4]>) {
  %0 = ts.aten.logical_and %a, %b : (!ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>) -> !ts.tensor<i1, [4]>
  %1 = ts.aten.logical_or %a, %b : (!ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>) -> !ts.tensor<i1, [4]>
  %2 = ts.aten.logical_xor %a, %b : (!ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>) -> !ts.tensor<i1, [4]>
  %3 = ts.aten.logical_not %a : (!ts.tensor<i1, [4]>) -> !ts.tensor<i1, [4]>
  %4 = ts.aten.bitwise_not %i : (!ts.tensor<si32, [4]>) -> !ts.tensor<si32, [4]>
  %5 = ts.aten.__and__.Tensor %i, %j : (!ts.tensor<si32, [4]>, !ts.tensor<si32, [4]>) -> !ts.tensor<si32, [4]>
  %6 = ts.aten.__or__.Tensor %i, %j : (!ts.tensor<si32, [4]>, !ts.tensor<si32, [4]>) -> !ts.tensor<si32, [4]>
  %7 = ts.aten.__xor__.Tensor %i, %j : (!ts.tensor<si32, [4]>, !ts.tensor<si32, [4]>) -> !ts.tensor<si32, [4]>
  return %0, %1, %2, %3, %4, %5, %6, %7 : !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<i1, [4]>, !ts.tensor<si32, [4]>, !ts.tensor<si32, [4]>, !ts.tensor<si32, [4]>, !ts.tensor<si32, [4]>
}

// Every overload of to (and type_as) is the cast to the result's dtype.
// CHECK-LABEL: func.func @casts(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>, %{{.+}}: tensor<4xf64>)
// CHECK-COUNT-6: linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>) outs(%{{.+}} : tensor<4xf64>) {
// CHECK-NEXT:      ^bb0(%[[A:.+]]: f32, %{{.+}}: f64):
// CHECK-NEXT:        %[[E:.+]] = arith.extf %[[A]] : f32 to f64
// CHECK-NEXT:        linalg.yield %[[E]] : f64
// CHECK-NEXT:      } -> tensor<4xf64>
// CHECK-NEXT:    return
func.func @casts(%x: !ts.tensor<f32, [4]>, %d: !ts.tensor<f64, [4]>) -> (!ts.tensor<f64, [4]>, !ts.tensor<f64, [4]>, !ts.tensor<f64, [4]>, !ts.tensor<f64, [4]>, !ts.tensor<f64, [4]>, !ts.tensor<f64, [4]>) {
  %false = ts.prim.Constant[false] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %f64 = ts.prim.Constant[7] : !ts.int
  %cpu = ts.prim.Constant["cpu"] : !ts.device
  %0 = ts.aten.type_as %x, %d : (!ts.tensor<f32, [4]>, !ts.tensor<f64, [4]>) -> !ts.tensor<f64, [4]>
  %1 = ts.aten.to.other %x, %d, %false, %false, %none : (!ts.tensor<f32, [4]>, !ts.tensor<f64, [4]>, !ts.bool, !ts.bool, !ts.none) -> !ts.tensor<f64, [4]>
  %2 = ts.aten.to.dtype_layout %x, %f64, %none, %none, %none, %false, %false, %none : (!ts.tensor<f32, [4]>, !ts.int, !ts.none, !ts.none, !ts.none, !ts.bool, !ts.bool, !ts.none) -> !ts.tensor<f64, [4]>
  %3 = ts.aten.to.prim_dtype %x, %f64, %false, %false : (!ts.tensor<f32, [4]>, !ts.int, !ts.bool, !ts.bool) -> !ts.tensor<f64, [4]>
  %4 = ts.aten.to.device %x, %cpu, %f64, %false, %false, %none : (!ts.tensor<f32, [4]>, !ts.device, !ts.int, !ts.bool, !ts.bool, !ts.none) -> !ts.tensor<f64, [4]>
  %5 = ts.aten.to.prim_Device %x, %cpu, %f64, %false, %false : (!ts.tensor<f32, [4]>, !ts.device, !ts.int, !ts.bool, !ts.bool) -> !ts.tensor<f64, [4]>
  return %0, %1, %2, %3, %4, %5 : !ts.tensor<f64, [4]>, !ts.tensor<f64, [4]>, !ts.tensor<f64, [4]>, !ts.tensor<f64, [4]>, !ts.tensor<f64, [4]>, !ts.tensor<f64, [4]>
}

// detach and contiguous are the tensor itself.
// CHECK-LABEL: func.func @identities(
// CHECK-SAME:      %[[X:.+]]: tensor<4xf32>)
// CHECK-NEXT:    return %[[X]], %[[X]] : tensor<4xf32>, tensor<4xf32>
func.func @identities(%x: !ts.tensor<f32, [4]>) -> (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) {
  %zero = ts.prim.Constant[0] : !ts.int
  %0 = ts.aten.detach %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %1 = ts.aten.contiguous %x, %zero : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  return %0, %1 : !ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>
}

// Fills of the result's shape; tril keeps the elements on and below the
// diagonal (column - row <= diagonal).
// CHECK-LABEL: func.func @fills(
// CHECK-SAME:      %[[X:.+]]: tensor<2x3xf32>)
// CHECK-DAG:     %[[V:.+]] = arith.constant 2.500000e+00 : f64
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<2x3xf32>)
// CHECK:         %[[V1:.+]] = arith.truncf %[[V]] : f64 to f32
// CHECK:         linalg.fill ins(%[[V1]] : f32) outs(%{{.+}} : tensor<2x3xf32>)
// CHECK:         %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         linalg.fill ins(%[[Z]] : f32) outs(%{{.+}} : tensor<2x3xf32>)
// CHECK:         %[[O:.+]] = arith.constant 1.000000e+00 : f32
// CHECK:         linalg.fill ins(%[[O]] : f32) outs(%{{.+}} : tensor<2x3xf32>)
// CHECK:         %[[V2:.+]] = arith.truncf %[[V]] : f64 to f32
// CHECK:         linalg.fill ins(%[[V2]] : f32) outs(%{{.+}} : tensor<2x3xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : tensor<2x3xf32>)
// CHECK:           %[[ROW:.+]] = linalg.index 0 : index
// CHECK:           %[[COL:.+]] = linalg.index 1 : index
// CHECK:           %[[D:.+]] = arith.subi %[[COL]], %[[ROW]] : index
// CHECK:           arith.cmpi sle, %[[D]], %{{.+}} : index
// CHECK:           arith.select
func.func @fills(%x: !ts.tensor<f32, [2, 3]>) -> (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>) {
  %none = ts.prim.Constant : !ts.none
  %zero = ts.prim.Constant[0] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %three = ts.prim.Constant[3] : !ts.int
  %v = ts.prim.Constant[2.5] : !ts.float
  %size = ts.prim.ListConstruct %two, %three : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.zeros_like %x, %none, %none, %none, %none, %none : (!ts.tensor<f32, [2, 3]>, !ts.none, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor<f32, [2, 3]>
  %1 = ts.aten.full_like %x, %v, %none, %none, %none, %none, %none : (!ts.tensor<f32, [2, 3]>, !ts.float, !ts.none, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor<f32, [2, 3]>
  %2 = ts.aten.zeros %size, %none, %none, %none, %none : (!ts.list<!ts.int>, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor<f32, [2, 3]>
  %3 = ts.aten.ones %size, %none, %none, %none, %none : (!ts.list<!ts.int>, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor<f32, [2, 3]>
  %4 = ts.aten.full %size, %v, %none, %none, %none, %none : (!ts.list<!ts.int>, !ts.float, !ts.none, !ts.none, !ts.none, !ts.none) -> !ts.tensor<f32, [2, 3]>
  %5 = ts.aten.tril %x, %zero : (!ts.tensor<f32, [2, 3]>, !ts.int) -> !ts.tensor<f32, [2, 3]>
  return %0, %1, %2, %3, %4, %5 : !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>
}
