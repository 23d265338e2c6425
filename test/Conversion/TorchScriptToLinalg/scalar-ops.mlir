// RUN: tsmlir-opt %s --convert-ts-to-linalg | FileCheck %s

// TorchScript's int, float and bool ops: arith on i64, f64 and i1. Mixed
// operands are promoted as Python does (an int with a float computes in
// f64); a tensor's only element becomes a number, and a number a 0-d tensor.

// CHECK-LABEL: func.func @add(
// CHECK-SAME:      %[[I:.+]]: i64, %[[F:.+]]: f64)
// CHECK:         %[[R0:.+]] = arith.addf %[[F]], %[[F]] : f64
// CHECK:         %[[C1:.+]] = arith.sitofp %[[I]] : i64 to f64
// CHECK:         %[[R1:.+]] = arith.addf %[[C1]], %[[F]] : f64
// CHECK:         %[[C2:.+]] = arith.sitofp %[[I]] : i64 to f64
// CHECK:         %[[R2:.+]] = arith.addf %[[F]], %[[C2]] : f64
// CHECK:         %[[C3:.+]] = arith.sitofp %[[I]] : i64 to f64
// CHECK:         %[[R3:.+]] = arith.addf %[[C3]], %[[F]] : f64
// CHECK:         return %[[R0]], %[[R1]], %[[R2]], %[[R3]]
func.func @add(%i: !ts.int, %f: !ts.float) -> (!ts.float, !ts.float, !ts.float, !ts.float) {
  %0 = ts.aten.add.float %f, %f : (!ts.float, !ts.float) -> !ts.float
  %1 = ts.aten.add.int_float %i, %f : (!ts.int, !ts.float) -> !ts.float
  %2 = ts.aten.add.float_int %f, %i : (!ts.float, !ts.int) -> !ts.float
  %3 = ts.aten.add %i, %f : (!ts.int, !ts.float) -> !ts.float
  return %0, %1, %2, %3 : !ts.float, !ts.float, !ts.float, !ts.float
}

// CHECK-LABEL: func.func @sub_mul(
// CHECK-SAME:      %[[I:.+]]: i64, %[[F:.+]]: f64)
// CHECK:         arith.subi %[[I]], %[[I]] : i64
// CHECK:         arith.subf %[[F]], %[[F]] : f64
// CHECK:         arith.subi %[[I]], %[[I]] : i64
// CHECK:         arith.muli %[[I]], %[[I]] : i64
// CHECK:         arith.mulf %[[F]], %[[F]] : f64
// CHECK:         %[[C:.+]] = arith.sitofp %[[I]] : i64 to f64
// CHECK:         arith.mulf %[[F]], %[[C]] : f64
func.func @sub_mul(%i: !ts.int, %f: !ts.float) -> (!ts.int, !ts.float, !ts.int, !ts.int, !ts.float, !ts.float) {
  %0 = ts.aten.sub.int %i, %i : (!ts.int, !ts.int) -> !ts.int
  %1 = ts.aten.sub.float %f, %f : (!ts.float, !ts.float) -> !ts.float
  %2 = ts.aten.sub %i, %i : (!ts.int, !ts.int) -> !ts.int
  %3 = ts.aten.mul.int %i, %i : (!ts.int, !ts.int) -> !ts.int
  %4 = ts.aten.mul.float %f, %f : (!ts.float, !ts.float) -> !ts.float
  %5 = ts.aten.mul %f, %i : (!ts.float, !ts.int) -> !ts.float
  return %0, %1, %2, %3, %4, %5 : !ts.int, !ts.float, !ts.int, !ts.int, !ts.float, !ts.float
}

// Division is true division (ints become f64); sqrt of an int too.
// CHECK-LABEL: func.func @div_neg_sqrt(
// CHECK-SAME:      %[[I:.+]]: i64, %[[F:.+]]: f64)
// CHECK:         %[[A:.+]] = arith.sitofp %[[I]] : i64 to f64
// CHECK:         %[[B:.+]] = arith.sitofp %[[I]] : i64 to f64
// CHECK:         arith.divf %[[A]], %[[B]] : f64
// CHECK:         arith.divf %[[F]], %[[F]] : f64
// CHECK:         %[[C:.+]] = arith.sitofp %[[I]] : i64 to f64
// CHECK:         arith.divf %[[C]], %[[F]] : f64
// CHECK:         %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK:         arith.subi %[[ZERO]], %[[I]] : i64
// CHECK:         arith.negf %[[F]] : f64
// CHECK:         %[[D:.+]] = arith.sitofp %[[I]] : i64 to f64
// CHECK:         math.sqrt %[[D]] : f64
// CHECK:         math.sqrt %[[F]] : f64
func.func @div_neg_sqrt(%i: !ts.int, %f: !ts.float) -> (!ts.float, !ts.float, !ts.float, !ts.int, !ts.float, !ts.float, !ts.float) {
  %0 = ts.aten.div.int %i, %i : (!ts.int, !ts.int) -> !ts.float
  %1 = ts.aten.div.float %f, %f : (!ts.float, !ts.float) -> !ts.float
  %2 = ts.aten.div %i, %f : (!ts.int, !ts.float) -> !ts.float
  %3 = ts.aten.neg.int %i : (!ts.int) -> !ts.int
  %4 = ts.aten.neg.float %f : (!ts.float) -> !ts.float
  %5 = ts.aten.sqrt.int %i : (!ts.int) -> !ts.float
  %6 = ts.aten.sqrt.float %f : (!ts.float) -> !ts.float
  return %0, %1, %2, %3, %4, %5, %6 : !ts.float, !ts.float, !ts.float, !ts.int, !ts.float, !ts.float, !ts.float
}

// CHECK-LABEL: func.func @eq_ne(
// CHECK-SAME:      %[[I:.+]]: i64, %[[F:.+]]: f64, %[[B:.+]]: i1)
// CHECK:         arith.cmpi eq, %[[I]], %[[I]] : i64
// CHECK:         arith.cmpf oeq, %[[F]], %[[F]] : f64
// CHECK:         arith.cmpi eq, %[[B]], %[[B]] : i1
// CHECK:         %[[C:.+]] = arith.sitofp %[[I]] : i64 to f64
// CHECK:         arith.cmpf oeq, %[[C]], %[[F]] : f64
// CHECK:         arith.cmpi ne, %[[I]], %[[I]] : i64
// CHECK:         arith.cmpf une, %[[F]], %[[F]] : f64
// CHECK:         arith.cmpi ne, %[[B]], %[[B]] : i1
// CHECK:         %[[D:.+]] = arith.sitofp %[[I]] : i64 to f64
// CHECK:         arith.cmpf une, %[[F]], %[[D]] : f64
func.func @eq_ne(%i: !ts.int, %f: !ts.float, %b: !ts.bool) -> (!ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool) {
  %0 = ts.aten.eq.int %i, %i : (!ts.int, !ts.int) -> !ts.bool
  %1 = ts.aten.eq.float %f, %f : (!ts.float, !ts.float) -> !ts.bool
  %2 = ts.aten.eq.bool %b, %b : (!ts.bool, !ts.bool) -> !ts.bool
  %3 = ts.aten.eq %i, %f : (!ts.int, !ts.float) -> !ts.bool
  %4 = ts.aten.ne.int %i, %i : (!ts.int, !ts.int) -> !ts.bool
  %5 = ts.aten.ne.float %f, %f : (!ts.float, !ts.float) -> !ts.bool
  %6 = ts.aten.ne.bool %b, %b : (!ts.bool, !ts.bool) -> !ts.bool
  %7 = ts.aten.ne %f, %i : (!ts.float, !ts.int) -> !ts.bool
  return %0, %1, %2, %3, %4, %5, %6, %7 : !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool
}

// CHECK-LABEL: func.func @order(
// CHECK-SAME:      %[[I:.+]]: i64, %[[F:.+]]: f64)
// CHECK:         arith.cmpf olt, %[[F]], %[[F]] : f64
// CHECK:         %[[C:.+]] = arith.sitofp %[[I]] : i64 to f64
// CHECK:         arith.cmpf olt, %[[C]], %[[F]] : f64
// CHECK:         arith.cmpi sle, %[[I]], %[[I]] : i64
// CHECK:         arith.cmpf ole, %[[F]], %[[F]] : f64
// CHECK:         arith.cmpi sle, %[[I]], %[[I]] : i64
// CHECK:         arith.cmpi sgt, %[[I]], %[[I]] : i64
// CHECK:         arith.cmpf ogt, %[[F]], %[[F]] : f64
// CHECK:         %[[D:.+]] = arith.sitofp %[[I]] : i64 to f64
// CHECK:         arith.cmpf ogt, %[[F]], %[[D]] : f64
// CHECK:         arith.cmpi sge, %[[I]], %[[I]] : i64
// CHECK:         arith.cmpf oge, %[[F]], %[[F]] : f64
// CHECK:         arith.cmpi sge, %[[I]], %[[I]] : i64
func.func @order(%i: !ts.int, %f: !ts.float) -> (!ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool) {
  %0 = ts.aten.lt.float %f, %f : (!ts.float, !ts.float) -> !ts.bool
  %1 = ts.aten.lt %i, %f : (!ts.int, !ts.float) -> !ts.bool
  %2 = ts.aten.le.int %i, %i : (!ts.int, !ts.int) -> !ts.bool
  %3 = ts.aten.le.float %f, %f : (!ts.float, !ts.float) -> !ts.bool
  %4 = ts.aten.le %i, %i : (!ts.int, !ts.int) -> !ts.bool
  %5 = ts.aten.gt.int %i, %i : (!ts.int, !ts.int) -> !ts.bool
  %6 = ts.aten.gt.float %f, %f : (!ts.float, !ts.float) -> !ts.bool
  %7 = ts.aten.gt %f, %i : (!ts.float, !ts.int) -> !ts.bool
  %8 = ts.aten.ge.int %i, %i : (!ts.int, !ts.int) -> !ts.bool
  %9 = ts.aten.ge.float %f, %f : (!ts.float, !ts.float) -> !ts.bool
  %10 = ts.aten.ge %i, %i : (!ts.int, !ts.int) -> !ts.bool
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool
}

// CHECK-LABEL: func.func @logic(
// CHECK-SAME:      %[[A:.+]]: i1, %[[B:.+]]: i1)
// CHECK:         arith.andi %[[A]], %[[B]] : i1
// CHECK:         arith.ori %[[A]], %[[B]] : i1
// CHECK:         %[[TRUE:.+]] = arith.constant true
// CHECK:         arith.xori %[[A]], %[[TRUE]] : i1
func.func @logic(%a: !ts.bool, %b: !ts.bool) -> (!ts.bool, !ts.bool, !ts.bool) {
  %0 = ts.aten.__and__.bool %a, %b : (!ts.bool, !ts.bool) -> !ts.bool
  %1 = ts.aten.__or__.bool %a, %b : (!ts.bool, !ts.bool) -> !ts.bool
  %2 = ts.aten.__not__ %a : (!ts.bool) -> !ts.bool
  return %0, %1, %2 : !ts.bool, !ts.bool, !ts.bool
}

// int(), float() and bool() of numbers: floats truncate, bools zero-extend,
// anything becomes a bool by comparing with zero.
// CHECK-LABEL: func.func @number_casts(
// CHECK-SAME:      %[[I:.+]]: i64, %[[F:.+]]: f64, %[[B:.+]]: i1)
// CHECK:         arith.fptosi %[[F]] : f64 to i64
// CHECK:         arith.extui %[[B]] : i1 to i64
// CHECK:         arith.sitofp %[[I]] : i64 to f64
// CHECK:         arith.uitofp %[[B]] : i1 to f64
// CHECK:         arith.cmpi ne, %[[I]], %{{.+}} : i64
// CHECK:         arith.cmpf une, %[[F]], %{{.+}} : f64
func.func @number_casts(%i: !ts.int, %f: !ts.float, %b: !ts.bool) -> (!ts.int, !ts.int, !ts.float, !ts.float, !ts.bool, !ts.bool) {
  %0 = ts.aten.Int.float %f : (!ts.float) -> !ts.int
  %1 = ts.aten.Int.bool %b : (!ts.bool) -> !ts.int
  %2 = ts.aten.Float.int %i : (!ts.int) -> !ts.float
  %3 = ts.aten.Float.bool %b : (!ts.bool) -> !ts.float
  %4 = ts.aten.Bool.int %i : (!ts.int) -> !ts.bool
  %5 = ts.aten.Bool.float %f : (!ts.float) -> !ts.bool
  return %0, %1, %2, %3, %4, %5 : !ts.int, !ts.int, !ts.float, !ts.float, !ts.bool, !ts.bool
}

// CHECK-LABEL: func.func @tensor_to_number(
// CHECK-SAME:      %[[X:.+]]: tensor<f32>, %[[N:.+]]: tensor<1xi64>, %[[M:.+]]: tensor<i1>) -> (i64, f64, i1, f64)
// CHECK:         %[[I:.+]] = tensor.extract %[[N]][%{{.+}}] : tensor<1xi64>
// CHECK:         %[[E1:.+]] = tensor.extract %[[X]][] : tensor<f32>
// CHECK:         %[[F:.+]] = arith.extf %[[E1]] : f32 to f64
// CHECK:         %[[B:.+]] = tensor.extract %[[M]][] : tensor<i1>
// CHECK:         %[[E2:.+]] = tensor.extract %[[X]][] : tensor<f32>
// CHECK:         %[[S:.+]] = arith.extf %[[E2]] : f32 to f64
// CHECK:         return %[[I]], %[[F]], %[[B]], %[[S]]
func.func @tensor_to_number(%x: !ts.tensor<f32, []>, %n: !ts.tensor<si64, [1]>, %m: !ts.tensor<i1, []>) -> (!ts.int, !ts.float, !ts.bool, !ts.float) {
  %0 = ts.aten.Int.Tensor %n : (!ts.tensor<si64, [1]>) -> !ts.int
  %1 = ts.aten.Float.Tensor %x : (!ts.tensor<f32, []>) -> !ts.float
  %2 = ts.aten.Bool.Tensor %m : (!ts.tensor<i1, []>) -> !ts.bool
  %3 = ts.aten.ScalarImplicit %x : (!ts.tensor<f32, []>) -> !ts.float
  return %0, %1, %2, %3 : !ts.int, !ts.float, !ts.bool, !ts.float
}

// CHECK-LABEL: func.func @num_to_tensor(
// CHECK-SAME:      %[[F:.+]]: f64, %[[B:.+]]: i1) -> (tensor<f64>, tensor<i1>)
// CHECK:         linalg.fill ins(%[[F]] : f64) outs(%{{.+}} : tensor<f64>)
// CHECK:         linalg.fill ins(%[[B]] : i1) outs(%{{.+}} : tensor<i1>)
func.func @num_to_tensor(%f: !ts.float, %b: !ts.bool) -> (!ts.tensor<f64, []>, !ts.tensor<i1, []>) {
  %0 = ts.prim.NumToTensor.Scalar %f : (!ts.float) -> !ts.tensor<f64, []>
  %1 = ts.prim.NumToTensor.bool %b : (!ts.bool) -> !ts.tensor<i1, []>
  return %0, %1 : !ts.tensor<f64, []>, !ts.tensor<i1, []>
}

// a ** b of numbers is a float (pow.int too, as TorchScript's schema says),
// computed in f64.
// CHECK-LABEL: func.func @pow(
// CHECK-SAME:      %[[I:.+]]: i64, %[[F:.+]]: f64)
// CHECK:         math.powf %[[F]], %[[F]] : f64
// CHECK:         %[[C:.+]] = arith.sitofp %[[I]] : i64 to f64
// CHECK:         math.powf %[[C]], %[[F]] : f64
// CHECK:         math.powf %{{.+}}, %{{.+}} : f64
// CHECK:         math.powf %{{.+}}, %{{.+}} : f64
func.func @pow(%i: !ts.int, %f: !ts.float) -> (!ts.float, !ts.float, !ts.float, !ts.float) {
  %0 = ts.aten.pow.float %f, %f : (!ts.float, !ts.float) -> !ts.float
  %1 = ts.aten.pow.int_float %i, %f : (!ts.int, !ts.float) -> !ts.float
  %2 = ts.aten.pow.float_int %f, %i : (!ts.float, !ts.int) -> !ts.float
  %3 = ts.aten.pow.int %i, %i : (!ts.int, !ts.int) -> !ts.float
  return %0, %1, %2, %3 : !ts.float, !ts.float, !ts.float, !ts.float
}
