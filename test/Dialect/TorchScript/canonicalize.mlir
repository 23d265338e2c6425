// RUN: tsmlir-opt %s -canonicalize -split-input-file | FileCheck %s

// One positive case per folder (AtenFolds.cpp, PrimOps.cpp), and the cases
// each folder must leave alone. Function arguments keep values opaque.

//===----------------------------------------------------------------------===//
// prim::Constant
//===----------------------------------------------------------------------===//

// Equal constants of one type are merged; None and Optional[int] None stay
// apart.
// CHECK-LABEL: func.func @constant_dedup()
// CHECK-DAG:     %[[ONE:.+]] = ts.prim.Constant[1] : !ts.int
// CHECK-DAG:     %[[NONE:.+]] = ts.prim.Constant : !ts.none
// CHECK-DAG:     %[[ONONE:.+]] = ts.prim.Constant : !ts.optional<!ts.int>
// CHECK-DAG:     %[[LIST:.+]] = ts.prim.Constant{{\[\[}}1, 2]] : !ts.list<!ts.int>
// CHECK-NOT:     ts.prim.Constant
// CHECK:         return %[[ONE]], %[[ONE]], %[[NONE]], %[[NONE]], %[[ONONE]], %[[LIST]]
func.func @constant_dedup() -> (!ts.int, !ts.int, !ts.none, !ts.none, !ts.optional<!ts.int>, !ts.list<!ts.int>) {
  %a = ts.prim.Constant[1] : !ts.int
  %b = ts.prim.Constant[1] : !ts.int
  %n = ts.prim.Constant : !ts.none
  %m = ts.prim.Constant : !ts.none
  %o = ts.prim.Constant : !ts.optional<!ts.int>
  %l = ts.prim.Constant[[1, 2]] : !ts.list<!ts.int>
  return %a, %b, %n, %m, %o, %l : !ts.int, !ts.int, !ts.none, !ts.none, !ts.optional<!ts.int>, !ts.list<!ts.int>
}

// -----

// Functions have no value to fold to: they stay as they are.
// CHECK-LABEL: func.func @constant_function()
// CHECK:         %[[F:.+]] = ts.prim.Constant {name = "helper"} : !ts.function
// CHECK:         %[[G:.+]] = ts.prim.Constant {name = "other"} : !ts.function
// CHECK:         return %[[F]], %[[G]]
func.func @constant_function() -> (!ts.function, !ts.function) {
  %f = ts.prim.Constant {name = "helper"} : !ts.function
  %g = ts.prim.Constant {name = "other"} : !ts.function
  return %f, %g : !ts.function, !ts.function
}

//===----------------------------------------------------------------------===//
// int arithmetic
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @add_int()
// CHECK:         %[[R:.+]] = ts.prim.Constant[5] : !ts.int
// CHECK-NOT:     ts.aten.add.int
// CHECK:         return %[[R]]
func.func @add_int() -> !ts.int {
  %a = ts.prim.Constant[2] : !ts.int
  %b = ts.prim.Constant[3] : !ts.int
  %r = ts.aten.add.int %a, %b : (!ts.int, !ts.int) -> !ts.int
  return %r : !ts.int
}

// -----

// CHECK-LABEL: func.func @add_int_overflow()
// CHECK:         %[[R:.+]] = ts.aten.add.int
// CHECK:         return %[[R]]
func.func @add_int_overflow() -> !ts.int {
  %a = ts.prim.Constant[9223372036854775807] : !ts.int
  %b = ts.prim.Constant[1] : !ts.int
  %r = ts.aten.add.int %a, %b : (!ts.int, !ts.int) -> !ts.int
  return %r : !ts.int
}

// -----

// CHECK-LABEL: func.func @add_int_opaque(
// CHECK-SAME:    %[[X:[^:]+]]: !ts.int)
// CHECK:         %[[R:.+]] = ts.aten.add.int %[[X]], %{{.+}}
// CHECK:         return %[[R]]
func.func @add_int_opaque(%x: !ts.int) -> !ts.int {
  %b = ts.prim.Constant[1] : !ts.int
  %r = ts.aten.add.int %x, %b : (!ts.int, !ts.int) -> !ts.int
  return %r : !ts.int
}

// -----

// CHECK-LABEL: func.func @sub_int()
// CHECK:         %[[R:.+]] = ts.prim.Constant[-1] : !ts.int
// CHECK-NOT:     ts.aten.sub.int
// CHECK:         return %[[R]]
func.func @sub_int() -> !ts.int {
  %a = ts.prim.Constant[2] : !ts.int
  %b = ts.prim.Constant[3] : !ts.int
  %r = ts.aten.sub.int %a, %b : (!ts.int, !ts.int) -> !ts.int
  return %r : !ts.int
}

// -----

// CHECK-LABEL: func.func @sub_int_overflow()
// CHECK:         ts.aten.sub.int
func.func @sub_int_overflow() -> !ts.int {
  %a = ts.prim.Constant[-9223372036854775808] : !ts.int
  %b = ts.prim.Constant[1] : !ts.int
  %r = ts.aten.sub.int %a, %b : (!ts.int, !ts.int) -> !ts.int
  return %r : !ts.int
}

// -----

// CHECK-LABEL: func.func @mul_int()
// CHECK:         %[[R:.+]] = ts.prim.Constant[-12] : !ts.int
// CHECK-NOT:     ts.aten.mul.int
// CHECK:         return %[[R]]
func.func @mul_int() -> !ts.int {
  %a = ts.prim.Constant[-4] : !ts.int
  %b = ts.prim.Constant[3] : !ts.int
  %r = ts.aten.mul.int %a, %b : (!ts.int, !ts.int) -> !ts.int
  return %r : !ts.int
}

// -----

// CHECK-LABEL: func.func @mul_int_overflow()
// CHECK:         ts.aten.mul.int
func.func @mul_int_overflow() -> !ts.int {
  %a = ts.prim.Constant[4611686018427387904] : !ts.int
  %b = ts.prim.Constant[2] : !ts.int
  %r = ts.aten.mul.int %a, %b : (!ts.int, !ts.int) -> !ts.int
  return %r : !ts.int
}

// -----

// Python's // rounds toward -inf.
// CHECK-LABEL: func.func @floordiv_int()
// CHECK-DAG:     %[[A:.+]] = ts.prim.Constant[-4] : !ts.int
// CHECK-DAG:     %[[B:.+]] = ts.prim.Constant[3] : !ts.int
// CHECK-NOT:     ts.aten.floordiv.int
// CHECK:         return %[[A]], %[[B]], %[[A]]
func.func @floordiv_int() -> (!ts.int, !ts.int, !ts.int) {
  %m7 = ts.prim.Constant[-7] : !ts.int
  %c7 = ts.prim.Constant[7] : !ts.int
  %c2 = ts.prim.Constant[2] : !ts.int
  %m2 = ts.prim.Constant[-2] : !ts.int
  %a = ts.aten.floordiv.int %m7, %c2 : (!ts.int, !ts.int) -> !ts.int
  %b = ts.aten.floordiv.int %m7, %m2 : (!ts.int, !ts.int) -> !ts.int
  %c = ts.aten.floordiv.int %c7, %m2 : (!ts.int, !ts.int) -> !ts.int
  return %a, %b, %c : !ts.int, !ts.int, !ts.int
}

// -----

// Division by zero raises ZeroDivisionError; INT64_MIN // -1 overflows.
// CHECK-LABEL: func.func @floordiv_int_no_fold()
// CHECK:         ts.aten.floordiv.int
// CHECK:         ts.aten.floordiv.int
func.func @floordiv_int_no_fold() -> (!ts.int, !ts.int) {
  %c7 = ts.prim.Constant[7] : !ts.int
  %c0 = ts.prim.Constant[0] : !ts.int
  %min = ts.prim.Constant[-9223372036854775808] : !ts.int
  %m1 = ts.prim.Constant[-1] : !ts.int
  %a = ts.aten.floordiv.int %c7, %c0 : (!ts.int, !ts.int) -> !ts.int
  %b = ts.aten.floordiv.int %min, %m1 : (!ts.int, !ts.int) -> !ts.int
  return %a, %b : !ts.int, !ts.int
}

// -----

// Python's % takes the sign of the divisor.
// CHECK-LABEL: func.func @remainder_int()
// CHECK-DAG:     %[[A:.+]] = ts.prim.Constant[1] : !ts.int
// CHECK-DAG:     %[[B:.+]] = ts.prim.Constant[-1] : !ts.int
// CHECK-DAG:     %[[C:.+]] = ts.prim.Constant[0] : !ts.int
// CHECK-NOT:     ts.aten.remainder.int
// CHECK:         return %[[A]], %[[B]], %[[C]]
func.func @remainder_int() -> (!ts.int, !ts.int, !ts.int) {
  %m7 = ts.prim.Constant[-7] : !ts.int
  %c7 = ts.prim.Constant[7] : !ts.int
  %c2 = ts.prim.Constant[2] : !ts.int
  %m2 = ts.prim.Constant[-2] : !ts.int
  %c6 = ts.prim.Constant[6] : !ts.int
  %a = ts.aten.remainder.int %m7, %c2 : (!ts.int, !ts.int) -> !ts.int
  %b = ts.aten.remainder.int %c7, %m2 : (!ts.int, !ts.int) -> !ts.int
  %c = ts.aten.remainder.int %c6, %m2 : (!ts.int, !ts.int) -> !ts.int
  return %a, %b, %c : !ts.int, !ts.int, !ts.int
}

// -----

// CHECK-LABEL: func.func @remainder_int_no_fold()
// CHECK:         ts.aten.remainder.int
// CHECK:         ts.aten.remainder.int
func.func @remainder_int_no_fold() -> (!ts.int, !ts.int) {
  %c7 = ts.prim.Constant[7] : !ts.int
  %c0 = ts.prim.Constant[0] : !ts.int
  %min = ts.prim.Constant[-9223372036854775808] : !ts.int
  %m1 = ts.prim.Constant[-1] : !ts.int
  %a = ts.aten.remainder.int %c7, %c0 : (!ts.int, !ts.int) -> !ts.int
  %b = ts.aten.remainder.int %min, %m1 : (!ts.int, !ts.int) -> !ts.int
  return %a, %b : !ts.int, !ts.int
}

// -----

// CHECK-LABEL: func.func @neg_int()
// CHECK:         %[[R:.+]] = ts.prim.Constant[-5] : !ts.int
// CHECK-NOT:     ts.aten.neg.int
// CHECK:         return %[[R]]
func.func @neg_int() -> !ts.int {
  %a = ts.prim.Constant[5] : !ts.int
  %r = ts.aten.neg.int %a : (!ts.int) -> !ts.int
  return %r : !ts.int
}

// -----

// CHECK-LABEL: func.func @neg_int_min()
// CHECK:         ts.aten.neg.int
func.func @neg_int_min() -> !ts.int {
  %a = ts.prim.Constant[-9223372036854775808] : !ts.int
  %r = ts.aten.neg.int %a : (!ts.int) -> !ts.int
  return %r : !ts.int
}

// -----

// int / int is a float.
// CHECK-LABEL: func.func @div_int()
// CHECK:         %[[R:.+]] = ts.prim.Constant[3.500000e+00] : !ts.float
// CHECK-NOT:     ts.aten.div.int
// CHECK:         return %[[R]]
func.func @div_int() -> !ts.float {
  %a = ts.prim.Constant[7] : !ts.int
  %b = ts.prim.Constant[2] : !ts.int
  %r = ts.aten.div.int %a, %b : (!ts.int, !ts.int) -> !ts.float
  return %r : !ts.float
}

// -----

// CHECK-LABEL: func.func @div_int_by_zero()
// CHECK:         ts.aten.div.int
func.func @div_int_by_zero() -> !ts.float {
  %a = ts.prim.Constant[7] : !ts.int
  %b = ts.prim.Constant[0] : !ts.int
  %r = ts.aten.div.int %a, %b : (!ts.int, !ts.int) -> !ts.float
  return %r : !ts.float
}

// -----

// CHECK-LABEL: func.func @min_max_int()
// CHECK-DAG:     %[[MIN:.+]] = ts.prim.Constant[-3] : !ts.int
// CHECK-DAG:     %[[MAX:.+]] = ts.prim.Constant[4] : !ts.int
// CHECK-NOT:     ts.prim.min.int
// CHECK-NOT:     ts.prim.max.int
// CHECK:         return %[[MIN]], %[[MAX]]
func.func @min_max_int() -> (!ts.int, !ts.int) {
  %a = ts.prim.Constant[-3] : !ts.int
  %b = ts.prim.Constant[4] : !ts.int
  %min = ts.prim.min.int %a, %b : (!ts.int, !ts.int) -> !ts.int
  %max = ts.prim.max.int %a, %b : (!ts.int, !ts.int) -> !ts.int
  return %min, %max : !ts.int, !ts.int
}

// -----

// CHECK-LABEL: func.func @min_int_opaque(
// CHECK:         ts.prim.min.int
func.func @min_int_opaque(%x: !ts.int) -> !ts.int {
  %a = ts.prim.Constant[-3] : !ts.int
  %min = ts.prim.min.int %a, %x : (!ts.int, !ts.int) -> !ts.int
  return %min : !ts.int
}

//===----------------------------------------------------------------------===//
// float arithmetic
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @float_arith()
// CHECK-DAG:     %[[ADD:.+]] = ts.prim.Constant[4.000000e+00] : !ts.float
// CHECK-DAG:     %[[SUB:.+]] = ts.prim.Constant[-1.000000e+00] : !ts.float
// CHECK-DAG:     %[[MUL:.+]] = ts.prim.Constant[3.750000e+00] : !ts.float
// CHECK-DAG:     %[[DIV:.+]] = ts.prim.Constant[6.000000e-01] : !ts.float
// CHECK-DAG:     %[[NEG:.+]] = ts.prim.Constant[-1.500000e+00] : !ts.float
// CHECK-NOT:     ts.aten
// CHECK:         return %[[ADD]], %[[SUB]], %[[MUL]], %[[DIV]], %[[NEG]]
func.func @float_arith() -> (!ts.float, !ts.float, !ts.float, !ts.float, !ts.float) {
  %a = ts.prim.Constant[1.5] : !ts.float
  %b = ts.prim.Constant[2.5] : !ts.float
  %add = ts.aten.add.float %a, %b : (!ts.float, !ts.float) -> !ts.float
  %sub = ts.aten.sub.float %a, %b : (!ts.float, !ts.float) -> !ts.float
  %mul = ts.aten.mul.float %a, %b : (!ts.float, !ts.float) -> !ts.float
  %div = ts.aten.div.float %a, %b : (!ts.float, !ts.float) -> !ts.float
  %neg = ts.aten.neg.float %a : (!ts.float) -> !ts.float
  return %add, %sub, %mul, %div, %neg : !ts.float, !ts.float, !ts.float, !ts.float, !ts.float
}

// -----

// Python raises ZeroDivisionError, also for -0.0.
// CHECK-LABEL: func.func @div_float_by_zero()
// CHECK:         ts.aten.div.float
// CHECK:         ts.aten.div.float
func.func @div_float_by_zero() -> (!ts.float, !ts.float) {
  %a = ts.prim.Constant[1.5] : !ts.float
  %z = ts.prim.Constant[0.0] : !ts.float
  %nz = ts.prim.Constant[-0.0] : !ts.float
  %r = ts.aten.div.float %a, %z : (!ts.float, !ts.float) -> !ts.float
  %s = ts.aten.div.float %a, %nz : (!ts.float, !ts.float) -> !ts.float
  return %r, %s : !ts.float, !ts.float
}

// -----

// math.sqrt of constants (as `math.sqrt(k.size(-1))` in attention); a
// negative operand raises in Python, so it stays.
// CHECK-LABEL: func.func @sqrt()
// CHECK-DAG:     %[[FOUR:.+]] = ts.prim.Constant[4.000000e+00] : !ts.float
// CHECK-DAG:     %[[HALF:.+]] = ts.prim.Constant[5.000000e-01] : !ts.float
// CHECK-DAG:     %[[NEG:.+]] = ts.aten.sqrt.int
// CHECK:         return %[[FOUR]], %[[HALF]], %[[NEG]]
func.func @sqrt() -> (!ts.float, !ts.float, !ts.float) {
  %i = ts.prim.Constant[16] : !ts.int
  %f = ts.prim.Constant[0.25] : !ts.float
  %m = ts.prim.Constant[-4] : !ts.int
  %a = ts.aten.sqrt.int %i : (!ts.int) -> !ts.float
  %b = ts.aten.sqrt.float %f : (!ts.float) -> !ts.float
  %c = ts.aten.sqrt.int %m : (!ts.int) -> !ts.float
  return %a, %b, %c : !ts.float, !ts.float, !ts.float
}

// -----

// math.floor and math.ceil of constants (F.interpolate's output sizes from
// its scale factors) are ints; inf and nan raise in Python, so they stay.
// CHECK-LABEL: func.func @floor_ceil()
// CHECK-DAG:     %[[SIX:.+]] = ts.prim.Constant[6] : !ts.int
// CHECK-DAG:     %[[MINUS:.+]] = ts.prim.Constant[-2] : !ts.int
// CHECK-DAG:     %[[INF:.+]] = ts.aten.floor.float
// CHECK-DAG:     %[[NAN:.+]] = ts.aten.ceil.float
// CHECK:         return %[[SIX]], %[[MINUS]], %[[INF]], %[[NAN]]
func.func @floor_ceil() -> (!ts.int, !ts.int, !ts.int, !ts.int) {
  %a = ts.prim.Constant[6.8] : !ts.float
  %b = ts.prim.Constant[-2.5] : !ts.float
  %inf = ts.prim.Constant[0x7FF0000000000000 : f64] : !ts.float
  %nan = ts.prim.Constant[0x7FF8000000000000 : f64] : !ts.float
  %0 = ts.aten.floor.float %a : (!ts.float) -> !ts.int
  %1 = ts.aten.ceil.float %b : (!ts.float) -> !ts.int
  %2 = ts.aten.floor.float %inf : (!ts.float) -> !ts.int
  %3 = ts.aten.ceil.float %nan : (!ts.float) -> !ts.int
  return %0, %1, %2, %3 : !ts.int, !ts.int, !ts.int, !ts.int
}

// -----

// CHECK-LABEL: func.func @float_arith_opaque(
// CHECK:         ts.aten.add.float
// CHECK:         ts.aten.div.float
// CHECK:         ts.aten.neg.float
func.func @float_arith_opaque(%x: !ts.float) -> (!ts.float, !ts.float, !ts.float) {
  %a = ts.prim.Constant[1.5] : !ts.float
  %add = ts.aten.add.float %a, %x : (!ts.float, !ts.float) -> !ts.float
  %div = ts.aten.div.float %a, %x : (!ts.float, !ts.float) -> !ts.float
  %neg = ts.aten.neg.float %x : (!ts.float) -> !ts.float
  return %add, %div, %neg : !ts.float, !ts.float, !ts.float
}

//===----------------------------------------------------------------------===//
// Comparisons and booleans
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @compare_int()
// CHECK-DAG:     %[[T:.+]] = ts.prim.Constant[true] : !ts.bool
// CHECK-DAG:     %[[F:.+]] = ts.prim.Constant[false] : !ts.bool
// CHECK-NOT:     ts.aten
// CHECK:         return %[[F]], %[[T]], %[[T]], %[[T]], %[[F]], %[[F]]
func.func @compare_int() -> (!ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool) {
  %a = ts.prim.Constant[2] : !ts.int
  %b = ts.prim.Constant[3] : !ts.int
  %eq = ts.aten.eq.int %a, %b : (!ts.int, !ts.int) -> !ts.bool
  %ne = ts.aten.ne.int %a, %b : (!ts.int, !ts.int) -> !ts.bool
  %lt = ts.aten.lt.int %a, %b : (!ts.int, !ts.int) -> !ts.bool
  %le = ts.aten.le.int %a, %b : (!ts.int, !ts.int) -> !ts.bool
  %gt = ts.aten.gt.int %a, %b : (!ts.int, !ts.int) -> !ts.bool
  %ge = ts.aten.ge.int %a, %b : (!ts.int, !ts.int) -> !ts.bool
  return %eq, %ne, %lt, %le, %gt, %ge : !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool
}

// -----

// CHECK-LABEL: func.func @compare_float()
// CHECK-DAG:     %[[T:.+]] = ts.prim.Constant[true] : !ts.bool
// CHECK-DAG:     %[[F:.+]] = ts.prim.Constant[false] : !ts.bool
// CHECK-NOT:     ts.aten
// CHECK:         return %[[F]], %[[T]], %[[F]], %[[F]], %[[T]], %[[T]]
func.func @compare_float() -> (!ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool) {
  %a = ts.prim.Constant[2.5] : !ts.float
  %b = ts.prim.Constant[-1.0] : !ts.float
  %eq = ts.aten.eq.float %a, %b : (!ts.float, !ts.float) -> !ts.bool
  %ne = ts.aten.ne.float %a, %b : (!ts.float, !ts.float) -> !ts.bool
  %lt = ts.aten.lt.float %a, %b : (!ts.float, !ts.float) -> !ts.bool
  %le = ts.aten.le.float %a, %b : (!ts.float, !ts.float) -> !ts.bool
  %gt = ts.aten.gt.float %a, %b : (!ts.float, !ts.float) -> !ts.bool
  %ge = ts.aten.ge.float %a, %b : (!ts.float, !ts.float) -> !ts.bool
  return %eq, %ne, %lt, %le, %gt, %ge : !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool
}

// -----

// NaN compares unequal to itself.
// CHECK-LABEL: func.func @compare_nan()
// CHECK-DAG:     %[[T:.+]] = ts.prim.Constant[true] : !ts.bool
// CHECK-DAG:     %[[F:.+]] = ts.prim.Constant[false] : !ts.bool
// CHECK:         return %[[F]], %[[T]]
func.func @compare_nan() -> (!ts.bool, !ts.bool) {
  %nan = ts.prim.Constant[0x7FF8000000000000 : f64] : !ts.float
  %eq = ts.aten.eq.float %nan, %nan : (!ts.float, !ts.float) -> !ts.bool
  %ne = ts.aten.ne.float %nan, %nan : (!ts.float, !ts.float) -> !ts.bool
  return %eq, %ne : !ts.bool, !ts.bool
}

// -----

// CHECK-LABEL: func.func @compare_opaque(
// CHECK:         ts.aten.eq.int
// CHECK:         ts.aten.lt.float
// CHECK:         ts.aten.eq.bool
// CHECK:         ts.aten.eq.str
func.func @compare_opaque(%i: !ts.int, %f: !ts.float, %b: !ts.bool, %s: !ts.str)
    -> (!ts.bool, !ts.bool, !ts.bool, !ts.bool) {
  %ci = ts.prim.Constant[2] : !ts.int
  %cf = ts.prim.Constant[2.0] : !ts.float
  %cb = ts.prim.Constant[true] : !ts.bool
  %cs = ts.prim.Constant["a"] : !ts.str
  %0 = ts.aten.eq.int %i, %ci : (!ts.int, !ts.int) -> !ts.bool
  %1 = ts.aten.lt.float %f, %cf : (!ts.float, !ts.float) -> !ts.bool
  %2 = ts.aten.eq.bool %b, %cb : (!ts.bool, !ts.bool) -> !ts.bool
  %3 = ts.aten.eq.str %s, %cs : (!ts.str, !ts.str) -> !ts.bool
  return %0, %1, %2, %3 : !ts.bool, !ts.bool, !ts.bool, !ts.bool
}

// -----

// CHECK-LABEL: func.func @bool_ops()
// CHECK-DAG:     %[[T:.+]] = ts.prim.Constant[true] : !ts.bool
// CHECK-DAG:     %[[F:.+]] = ts.prim.Constant[false] : !ts.bool
// CHECK-NOT:     ts.aten
// CHECK:         return %[[F]], %[[T]], %[[F]], %[[T]], %[[T]], %[[F]]
func.func @bool_ops() -> (!ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool) {
  %t = ts.prim.Constant[true] : !ts.bool
  %f = ts.prim.Constant[false] : !ts.bool
  %eq = ts.aten.eq.bool %t, %f : (!ts.bool, !ts.bool) -> !ts.bool
  %ne = ts.aten.ne.bool %t, %f : (!ts.bool, !ts.bool) -> !ts.bool
  %and = ts.aten.__and__.bool %t, %f : (!ts.bool, !ts.bool) -> !ts.bool
  %or = ts.aten.__or__.bool %t, %f : (!ts.bool, !ts.bool) -> !ts.bool
  %xor = ts.aten.__xor__.bool %t, %f : (!ts.bool, !ts.bool) -> !ts.bool
  %not = ts.aten.__not__ %t : (!ts.bool) -> !ts.bool
  return %eq, %ne, %and, %or, %xor, %not : !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool
}

// -----

// CHECK-LABEL: func.func @compare_str()
// CHECK-DAG:     %[[T:.+]] = ts.prim.Constant[true] : !ts.bool
// CHECK-DAG:     %[[F:.+]] = ts.prim.Constant[false] : !ts.bool
// CHECK-NOT:     ts.aten
// CHECK:         return %[[F]], %[[T]], %[[T]]
func.func @compare_str() -> (!ts.bool, !ts.bool, !ts.bool) {
  %a = ts.prim.Constant["abc"] : !ts.str
  %b = ts.prim.Constant["abd"] : !ts.str
  %eq = ts.aten.eq.str %a, %b : (!ts.str, !ts.str) -> !ts.bool
  %ne = ts.aten.ne.str %a, %b : (!ts.str, !ts.str) -> !ts.bool
  %same = ts.aten.eq.str %a, %a : (!ts.str, !ts.str) -> !ts.bool
  return %eq, %ne, %same : !ts.bool, !ts.bool, !ts.bool
}

// -----

// CHECK-LABEL: func.func @not_opaque(
// CHECK-SAME:    %[[B:[^:]+]]: !ts.bool)
// CHECK:         %[[R:.+]] = ts.aten.__not__ %[[B]]
// CHECK:         return %[[R]]
func.func @not_opaque(%b: !ts.bool) -> !ts.bool {
  %r = ts.aten.__not__ %b : (!ts.bool) -> !ts.bool
  return %r : !ts.bool
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

// -----

// int() truncates toward zero.
// CHECK-LABEL: func.func @int_float()
// CHECK-DAG:     %[[A:.+]] = ts.prim.Constant[2] : !ts.int
// CHECK-DAG:     %[[B:.+]] = ts.prim.Constant[-2] : !ts.int
// CHECK-NOT:     ts.aten.Int.float
// CHECK:         return %[[A]], %[[B]]
func.func @int_float() -> (!ts.int, !ts.int) {
  %a = ts.prim.Constant[2.7] : !ts.float
  %b = ts.prim.Constant[-2.7] : !ts.float
  %ra = ts.aten.Int.float %a : (!ts.float) -> !ts.int
  %rb = ts.aten.Int.float %b : (!ts.float) -> !ts.int
  return %ra, %rb : !ts.int, !ts.int
}

// -----

// int(nan), int(inf) and int(1e19) raise at run time.
// CHECK-LABEL: func.func @int_float_no_fold()
// CHECK-COUNT-3: ts.aten.Int.float
func.func @int_float_no_fold() -> (!ts.int, !ts.int, !ts.int) {
  %nan = ts.prim.Constant[0x7FF8000000000000 : f64] : !ts.float
  %inf = ts.prim.Constant[0x7FF0000000000000 : f64] : !ts.float
  %big = ts.prim.Constant[1.0e19] : !ts.float
  %a = ts.aten.Int.float %nan : (!ts.float) -> !ts.int
  %b = ts.aten.Int.float %inf : (!ts.float) -> !ts.int
  %c = ts.aten.Int.float %big : (!ts.float) -> !ts.int
  return %a, %b, %c : !ts.int, !ts.int, !ts.int
}

// -----

// CHECK-LABEL: func.func @conversions()
// CHECK-DAG:     %[[I1:.+]] = ts.prim.Constant[1] : !ts.int
// CHECK-DAG:     %[[F3:.+]] = ts.prim.Constant[-3.000000e+00] : !ts.float
// CHECK-DAG:     %[[F0:.+]] = ts.prim.Constant[0.000000e+00] : !ts.float
// CHECK-DAG:     %[[T:.+]] = ts.prim.Constant[true] : !ts.bool
// CHECK-DAG:     %[[F:.+]] = ts.prim.Constant[false] : !ts.bool
// CHECK-NOT:     ts.aten
// CHECK:         return %[[I1]], %[[F3]], %[[F0]], %[[F]], %[[T]], %[[T]]
func.func @conversions() -> (!ts.int, !ts.float, !ts.float, !ts.bool, !ts.bool, !ts.bool) {
  %t = ts.prim.Constant[true] : !ts.bool
  %f = ts.prim.Constant[false] : !ts.bool
  %m3 = ts.prim.Constant[-3] : !ts.int
  %z = ts.prim.Constant[0] : !ts.int
  %half = ts.prim.Constant[0.5] : !ts.float
  %int_bool = ts.aten.Int.bool %t : (!ts.bool) -> !ts.int
  %float_int = ts.aten.Float.int %m3 : (!ts.int) -> !ts.float
  %float_bool = ts.aten.Float.bool %f : (!ts.bool) -> !ts.float
  %bool_int = ts.aten.Bool.int %z : (!ts.int) -> !ts.bool
  %bool_int2 = ts.aten.Bool.int %m3 : (!ts.int) -> !ts.bool
  %bool_float = ts.aten.Bool.float %half : (!ts.float) -> !ts.bool
  return %int_bool, %float_int, %float_bool, %bool_int, %bool_int2, %bool_float
      : !ts.int, !ts.float, !ts.float, !ts.bool, !ts.bool, !ts.bool
}

// -----

// CHECK-LABEL: func.func @conversions_opaque(
// CHECK:         ts.aten.Int.float
// CHECK:         ts.aten.Int.bool
// CHECK:         ts.aten.Float.int
// CHECK:         ts.aten.Float.bool
// CHECK:         ts.aten.Bool.int
// CHECK:         ts.aten.Bool.float
func.func @conversions_opaque(%f: !ts.float, %b: !ts.bool, %i: !ts.int)
    -> (!ts.int, !ts.int, !ts.float, !ts.float, !ts.bool, !ts.bool) {
  %0 = ts.aten.Int.float %f : (!ts.float) -> !ts.int
  %1 = ts.aten.Int.bool %b : (!ts.bool) -> !ts.int
  %2 = ts.aten.Float.int %i : (!ts.int) -> !ts.float
  %3 = ts.aten.Float.bool %b : (!ts.bool) -> !ts.float
  %4 = ts.aten.Bool.int %i : (!ts.int) -> !ts.bool
  %5 = ts.aten.Bool.float %f : (!ts.float) -> !ts.bool
  return %0, %1, %2, %3, %4, %5 : !ts.int, !ts.int, !ts.float, !ts.float, !ts.bool, !ts.bool
}

//===----------------------------------------------------------------------===//
// Lists
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @len_list_construct(
// CHECK:         %[[N:.+]] = ts.prim.Constant[3] : !ts.int
// CHECK-NOT:     ts.aten.len.t
// CHECK-NOT:     ts.prim.ListConstruct
// CHECK:         return %[[N]]
func.func @len_list_construct(%a: !ts.int, %b: !ts.int) -> !ts.int {
  %l = ts.prim.ListConstruct %a, %b, %a : (!ts.int, !ts.int, !ts.int) -> !ts.list<!ts.int>
  %n = ts.aten.len.t %l : (!ts.list<!ts.int>) -> !ts.int
  return %n : !ts.int
}

// -----

// CHECK-LABEL: func.func @len_constant_list()
// CHECK:         %[[N:.+]] = ts.prim.Constant[4] : !ts.int
// CHECK-NOT:     ts.aten.len.t
// CHECK:         return %[[N]]
func.func @len_constant_list() -> !ts.int {
  %l = ts.prim.Constant[[1.0, 2.0, 3.0, 4.0]] : !ts.list<!ts.float>
  %n = ts.aten.len.t %l : (!ts.list<!ts.float>) -> !ts.int
  return %n : !ts.int
}

// -----

// Readers of the list's elements do not stop the fold.
// CHECK-LABEL: func.func @len_with_readers(
// CHECK-SAME:    %[[A:[^:]+]]: !ts.tensor, %[[I:[^:]+]]: !ts.int)
// CHECK:         %[[N:.+]] = ts.prim.Constant[2] : !ts.int
// CHECK:         %[[L:.+]] = ts.prim.ListConstruct
// CHECK:         %[[E:.+]] = ts.aten.__getitem__.t %[[L]], %[[I]]
// CHECK:         return %[[N]], %[[E]]
func.func @len_with_readers(%a: !ts.tensor, %i: !ts.int) -> (!ts.int, !ts.tensor) {
  %l = ts.prim.ListConstruct %a, %a : (!ts.tensor, !ts.tensor) -> !ts.list<!ts.tensor>
  %e = ts.aten.__getitem__.t %l, %i : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor
  %n = ts.aten.len.t %l : (!ts.list<!ts.tensor>) -> !ts.int
  return %n, %e : !ts.int, !ts.tensor
}

// -----

// aten::append.t mutates the list: its length is not known.
// CHECK-LABEL: func.func @len_after_append(
// CHECK:         %[[L:.+]] = ts.prim.ListConstruct
// CHECK:         ts.aten.append.t %[[L]]
// CHECK:         %[[N:.+]] = ts.aten.len.t %[[L]]
// CHECK:         return %[[N]]
func.func @len_after_append(%a: !ts.int) -> !ts.int {
  %l = ts.prim.ListConstruct %a : (!ts.int) -> !ts.list<!ts.int>
  %m = ts.aten.append.t %l, %a : (!ts.list<!ts.int>, !ts.int) -> !ts.list<!ts.int>
  %n = ts.aten.len.t %l : (!ts.list<!ts.int>) -> !ts.int
  return %n : !ts.int
}

// -----

// The same holds for a list constant.
// CHECK-LABEL: func.func @len_constant_list_after_append(
// CHECK:         %[[L:.+]] = ts.prim.Constant{{\[\[}}1, 2]] : !ts.list<!ts.int>
// CHECK:         ts.aten.append.t %[[L]]
// CHECK:         %[[N:.+]] = ts.aten.len.t %[[L]]
// CHECK:         return %[[N]]
func.func @len_constant_list_after_append(%a: !ts.int) -> !ts.int {
  %l = ts.prim.Constant[[1, 2]] : !ts.list<!ts.int>
  %m = ts.aten.append.t %l, %a : (!ts.list<!ts.int>, !ts.int) -> !ts.list<!ts.int>
  %n = ts.aten.len.t %l : (!ts.list<!ts.int>) -> !ts.int
  return %n : !ts.int
}

// -----

// Nor when an alias of the list escapes and is mutated: out of a prim.If...
// CHECK-LABEL: func.func @len_list_yielded(
// CHECK:         ts.aten.append.t
// CHECK:         %[[N:.+]] = ts.aten.len.t
// CHECK:         return %[[N]]
func.func @len_list_yielded(%a: !ts.int, %c: !ts.bool) -> !ts.int {
  %l = ts.prim.ListConstruct %a : (!ts.int) -> !ts.list<!ts.int>
  %e = ts.prim.ListConstruct : () -> !ts.list<!ts.int>
  %m = ts.prim.If %c -> (!ts.list<!ts.int>) {
    ts.prim.Yield %l : !ts.list<!ts.int>
  } else {
    ts.prim.Yield %e : !ts.list<!ts.int>
  }
  %x = ts.aten.append.t %m, %a : (!ts.list<!ts.int>, !ts.int) -> !ts.list<!ts.int>
  %n = ts.aten.len.t %l : (!ts.list<!ts.int>) -> !ts.int
  return %n : !ts.int
}

// -----

// ... through a cast ...
// CHECK-LABEL: func.func @len_list_cast(
// CHECK:         ts.aten.append.t
// CHECK:         %[[N:.+]] = ts.aten.len.t
// CHECK:         return %[[N]]
func.func @len_list_cast(%a: !ts.int) -> !ts.int {
  %l = ts.prim.ListConstruct %a : (!ts.int) -> !ts.list<!ts.int>
  %any = ts.prim.unchecked_cast %l : !ts.list<!ts.int> -> !ts.any
  %back = ts.prim.unchecked_cast %any : !ts.any -> !ts.list<!ts.int>
  %x = ts.aten.append.t %back, %a : (!ts.list<!ts.int>, !ts.int) -> !ts.list<!ts.int>
  %n = ts.aten.len.t %l : (!ts.list<!ts.int>) -> !ts.int
  return %n : !ts.int
}

// -----

// ... or as an element of another list.
// CHECK-LABEL: func.func @len_list_in_list(
// CHECK:         ts.aten.append.t
// CHECK:         %[[N:.+]] = ts.aten.len.t
// CHECK:         return %[[N]]
func.func @len_list_in_list(%a: !ts.int, %i: !ts.int) -> !ts.int {
  %l = ts.prim.ListConstruct %a : (!ts.int) -> !ts.list<!ts.int>
  %outer = ts.prim.ListConstruct %l : (!ts.list<!ts.int>) -> !ts.list<!ts.list<!ts.int>>
  %inner = ts.aten.__getitem__.t %outer, %i : (!ts.list<!ts.list<!ts.int>>, !ts.int) -> !ts.list<!ts.int>
  %x = ts.aten.append.t %inner, %a : (!ts.list<!ts.int>, !ts.int) -> !ts.list<!ts.int>
  %n = ts.aten.len.t %l : (!ts.list<!ts.int>) -> !ts.int
  return %n : !ts.int
}

// -----

// A list returned from the function escapes too.
// CHECK-LABEL: func.func @len_list_returned(
// CHECK:         %[[L:.+]] = ts.prim.ListConstruct
// CHECK:         %[[N:.+]] = ts.aten.len.t %[[L]]
// CHECK:         return %[[N]], %[[L]]
func.func @len_list_returned(%a: !ts.int) -> (!ts.int, !ts.list<!ts.int>) {
  %l = ts.prim.ListConstruct %a : (!ts.int) -> !ts.list<!ts.int>
  %n = ts.aten.len.t %l : (!ts.list<!ts.int>) -> !ts.int
  return %n, %l : !ts.int, !ts.list<!ts.int>
}

// -----

// CHECK-LABEL: func.func @len_opaque(
// CHECK-SAME:    %[[L:[^:]+]]: !ts.list<!ts.int>)
// CHECK:         %[[N:.+]] = ts.aten.len.t %[[L]]
// CHECK:         return %[[N]]
func.func @len_opaque(%l: !ts.list<!ts.int>) -> !ts.int {
  %n = ts.aten.len.t %l : (!ts.list<!ts.int>) -> !ts.int
  return %n : !ts.int
}

// -----

// CHECK-LABEL: func.func @getitem_list_construct(
// CHECK-SAME:    %[[A:[^:]+]]: !ts.tensor, %[[B:[^:]+]]: !ts.tensor)
// CHECK-NOT:     ts.aten.__getitem__.t
// CHECK:         return %[[B]], %[[A]]
func.func @getitem_list_construct(%a: !ts.tensor, %b: !ts.tensor) -> (!ts.tensor, !ts.tensor) {
  %c1 = ts.prim.Constant[1] : !ts.int
  %cm2 = ts.prim.Constant[-2] : !ts.int
  %l = ts.prim.ListConstruct %a, %b : (!ts.tensor, !ts.tensor) -> !ts.list<!ts.tensor>
  %x = ts.aten.__getitem__.t %l, %c1 : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor
  %y = ts.aten.__getitem__.t %l, %cm2 : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor
  return %x, %y : !ts.tensor, !ts.tensor
}

// -----

// CHECK-LABEL: func.func @getitem_constant_list()
// CHECK:         %[[R:.+]] = ts.prim.Constant[30] : !ts.int
// CHECK-NOT:     ts.aten.__getitem__.t
// CHECK:         return %[[R]]
func.func @getitem_constant_list() -> !ts.int {
  %l = ts.prim.Constant[[10, 20, 30]] : !ts.list<!ts.int>
  %cm1 = ts.prim.Constant[-1] : !ts.int
  %r = ts.aten.__getitem__.t %l, %cm1 : (!ts.list<!ts.int>, !ts.int) -> !ts.int
  return %r : !ts.int
}

// -----

// Out of range raises IndexError at run time.
// CHECK-LABEL: func.func @getitem_out_of_range(
// CHECK-COUNT-3: ts.aten.__getitem__.t
func.func @getitem_out_of_range(%a: !ts.tensor) -> (!ts.tensor, !ts.tensor, !ts.int) {
  %c1 = ts.prim.Constant[1] : !ts.int
  %cm2 = ts.prim.Constant[-2] : !ts.int
  %c3 = ts.prim.Constant[3] : !ts.int
  %l = ts.prim.ListConstruct %a : (!ts.tensor) -> !ts.list<!ts.tensor>
  %x = ts.aten.__getitem__.t %l, %c1 : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor
  %y = ts.aten.__getitem__.t %l, %cm2 : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor
  %k = ts.prim.Constant[[10, 20, 30]] : !ts.list<!ts.int>
  %z = ts.aten.__getitem__.t %k, %c3 : (!ts.list<!ts.int>, !ts.int) -> !ts.int
  return %x, %y, %z : !ts.tensor, !ts.tensor, !ts.int
}

// -----

// The element is typed more precisely than the result: keep the op, which
// forgets the refinement.
// CHECK-LABEL: func.func @getitem_type_mismatch(
// CHECK:         ts.aten.__getitem__.t
func.func @getitem_type_mismatch(%a: !ts.tensor<f32, [2]>) -> !ts.tensor {
  %c0 = ts.prim.Constant[0] : !ts.int
  %l = ts.prim.ListConstruct %a : (!ts.tensor<f32, [2]>) -> !ts.list<!ts.tensor>
  %x = ts.aten.__getitem__.t %l, %c0 : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor
  return %x : !ts.tensor
}

// -----

// CHECK-LABEL: func.func @getitem_after_append(
// CHECK:         ts.aten.append.t
// CHECK:         ts.aten.__getitem__.t
func.func @getitem_after_append(%a: !ts.int, %b: !ts.int) -> !ts.int {
  %c0 = ts.prim.Constant[0] : !ts.int
  %l = ts.prim.ListConstruct %a : (!ts.int) -> !ts.list<!ts.int>
  %x = ts.aten.append.t %l, %b : (!ts.list<!ts.int>, !ts.int) -> !ts.list<!ts.int>
  %r = ts.aten.__getitem__.t %l, %c0 : (!ts.list<!ts.int>, !ts.int) -> !ts.int
  return %r : !ts.int
}

// -----

// CHECK-LABEL: func.func @list_unpack(
// CHECK-SAME:    %[[A:[^:]+]]: !ts.tensor, %[[B:[^:]+]]: !ts.tensor)
// CHECK-NOT:     ts.prim.ListUnpack
// CHECK:         return %[[B]], %[[A]]
func.func @list_unpack(%a: !ts.tensor, %b: !ts.tensor) -> (!ts.tensor, !ts.tensor) {
  %l = ts.prim.ListConstruct %a, %b : (!ts.tensor, !ts.tensor) -> !ts.list<!ts.tensor>
  %x, %y = ts.prim.ListUnpack %l : !ts.list<!ts.tensor> -> !ts.tensor, !ts.tensor
  return %y, %x : !ts.tensor, !ts.tensor
}

// -----

// CHECK-LABEL: func.func @list_unpack_no_fold(
// CHECK:         ts.prim.ListUnpack
// CHECK:         ts.prim.ListUnpack
// CHECK:         ts.prim.ListUnpack
func.func @list_unpack_no_fold(%a: !ts.tensor, %b: !ts.tensor<f32>, %l: !ts.list<!ts.tensor>)
    -> (!ts.tensor, !ts.tensor, !ts.tensor) {
  // Types differ from the elements'.
  %t = ts.prim.ListConstruct %a, %b : (!ts.tensor, !ts.tensor<f32>) -> !ts.list<!ts.tensor>
  %x, %y = ts.prim.ListUnpack %t : !ts.list<!ts.tensor> -> !ts.tensor, !ts.tensor
  // The list is mutated.
  %m = ts.prim.ListConstruct %a : (!ts.tensor) -> !ts.list<!ts.tensor>
  %app = ts.aten.append.t %m, %a : (!ts.list<!ts.tensor>, !ts.tensor) -> !ts.list<!ts.tensor>
  %z:2 = ts.prim.ListUnpack %m : !ts.list<!ts.tensor> -> !ts.tensor, !ts.tensor
  // The list is opaque.
  %w = ts.prim.ListUnpack %l : !ts.list<!ts.tensor> -> !ts.tensor
  return %y, %z#1, %w : !ts.tensor, !ts.tensor, !ts.tensor
}

//===----------------------------------------------------------------------===//
// Tuples
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @tuple_unpack(
// CHECK-SAME:    %[[A:[^:]+]]: !ts.tensor, %[[I:[^:]+]]: !ts.int)
// CHECK-NOT:     ts.prim.Tuple
// CHECK:         return %[[I]], %[[A]]
func.func @tuple_unpack(%a: !ts.tensor, %i: !ts.int) -> (!ts.int, !ts.tensor) {
  %t = ts.prim.TupleConstruct %a, %i : (!ts.tensor, !ts.int) -> !ts.tuple<!ts.tensor, !ts.int>
  %x, %y = ts.prim.TupleUnpack %t : !ts.tuple<!ts.tensor, !ts.int> -> !ts.tensor, !ts.int
  return %y, %x : !ts.int, !ts.tensor
}

// -----

// CHECK-LABEL: func.func @tuple_unpack_no_fold(
// CHECK:         ts.prim.TupleUnpack
// CHECK:         ts.prim.TupleUnpack
func.func @tuple_unpack_no_fold(%a: !ts.tensor, %t: !ts.tuple<!ts.tensor, !ts.int>, %i: !ts.int)
    -> (!ts.tensor<f32>, !ts.tensor) {
  // Types differ from the elements'.
  %u = ts.prim.TupleConstruct %a, %i : (!ts.tensor, !ts.int) -> !ts.tuple<!ts.tensor, !ts.int>
  %x, %y = ts.prim.TupleUnpack %u : !ts.tuple<!ts.tensor, !ts.int> -> !ts.tensor<f32>, !ts.int
  // The tuple is opaque.
  %z, %w = ts.prim.TupleUnpack %t : !ts.tuple<!ts.tensor, !ts.int> -> !ts.tensor, !ts.int
  return %x, %z : !ts.tensor<f32>, !ts.tensor
}

// -----

// CHECK-LABEL: func.func @tuple_index(
// CHECK-SAME:    %[[A:[^:]+]]: !ts.tensor, %[[I:[^:]+]]: !ts.int)
// CHECK-NOT:     ts.prim.Tuple
// CHECK:         return %[[A]], %[[I]]
func.func @tuple_index(%a: !ts.tensor, %i: !ts.int) -> (!ts.tensor, !ts.int) {
  %c0 = ts.prim.Constant[0] : !ts.int
  %cm1 = ts.prim.Constant[-1] : !ts.int
  %t = ts.prim.TupleConstruct %a, %i : (!ts.tensor, !ts.int) -> !ts.tuple<!ts.tensor, !ts.int>
  %x = ts.prim.TupleIndex %t, %c0 : (!ts.tuple<!ts.tensor, !ts.int>, !ts.int) -> !ts.tensor
  %y = ts.prim.TupleIndex %t, %cm1 : (!ts.tuple<!ts.tensor, !ts.int>, !ts.int) -> !ts.int
  return %x, %y : !ts.tensor, !ts.int
}

// -----

// CHECK-LABEL: func.func @tuple_index_no_fold(
// CHECK-COUNT-3: ts.prim.TupleIndex
func.func @tuple_index_no_fold(%a: !ts.tensor, %i: !ts.int, %t: !ts.tuple<!ts.tensor, !ts.int>)
    -> (!ts.any, !ts.tensor<f32>, !ts.tensor) {
  %c0 = ts.prim.Constant[0] : !ts.int
  %u = ts.prim.TupleConstruct %a, %i : (!ts.tensor, !ts.int) -> !ts.tuple<!ts.tensor, !ts.int>
  // The index is not a constant.
  %x = ts.prim.TupleIndex %u, %i : (!ts.tuple<!ts.tensor, !ts.int>, !ts.int) -> !ts.any
  // The result type differs from the element's.
  %y = ts.prim.TupleIndex %u, %c0 : (!ts.tuple<!ts.tensor, !ts.int>, !ts.int) -> !ts.tensor<f32>
  // The tuple is opaque.
  %z = ts.prim.TupleIndex %t, %c0 : (!ts.tuple<!ts.tensor, !ts.int>, !ts.int) -> !ts.tensor
  return %x, %y, %z : !ts.any, !ts.tensor<f32>, !ts.tensor
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @unchecked_casts(
// CHECK-SAME:    %[[X:[^:]+]]: !ts.tensor, %[[O:[^:]+]]: !ts.optional<!ts.tensor>)
// CHECK-NOT:     ts.prim.unchecked_cast %[[X]]
// CHECK-NOT:     ts.prim.unchecked_unwrap_optional %[[X]]
// CHECK:         %[[C:.+]] = ts.prim.unchecked_cast %[[O]] : !ts.optional<!ts.tensor> -> !ts.tensor
// CHECK:         %[[U:.+]] = ts.prim.unchecked_unwrap_optional %[[O]] : !ts.optional<!ts.tensor> -> !ts.tensor
// CHECK:         return %[[X]], %[[X]], %[[C]], %[[U]]
func.func @unchecked_casts(%x: !ts.tensor, %o: !ts.optional<!ts.tensor>)
    -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor) {
  %a = ts.prim.unchecked_cast %x : !ts.tensor -> !ts.tensor
  %b = ts.prim.unchecked_unwrap_optional %x : !ts.tensor -> !ts.tensor
  %c = ts.prim.unchecked_cast %o : !ts.optional<!ts.tensor> -> !ts.tensor
  %d = ts.prim.unchecked_unwrap_optional %o : !ts.optional<!ts.tensor> -> !ts.tensor
  return %a, %b, %c, %d : !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor
}

//===----------------------------------------------------------------------===//
// Queries answered by refined types
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @size_int(
// CHECK-SAME:    %[[X:[^:]+]]: !ts.tensor<f32, [2, ?, 4]>
// CHECK-DAG:     %[[FOUR:.+]] = ts.prim.Constant[4] : !ts.int
// CHECK-DAG:     %[[TWO:.+]] = ts.prim.Constant[2] : !ts.int
// CHECK:         %[[UNKNOWN:.+]] = ts.aten.size.int %[[X]]
// CHECK:         return %[[TWO]], %[[FOUR]], %[[UNKNOWN]]
func.func @size_int(%x: !ts.tensor<f32, [2, ?, 4]>) -> (!ts.int, !ts.int, !ts.int) {
  %c0 = ts.prim.Constant[0] : !ts.int
  %c1 = ts.prim.Constant[1] : !ts.int
  %cm1 = ts.prim.Constant[-1] : !ts.int
  %a = ts.aten.size.int %x, %c0 : (!ts.tensor<f32, [2, ?, 4]>, !ts.int) -> !ts.int
  %b = ts.aten.size.int %x, %cm1 : (!ts.tensor<f32, [2, ?, 4]>, !ts.int) -> !ts.int
  // Dimension 1 has an unknown size.
  %c = ts.aten.size.int %x, %c1 : (!ts.tensor<f32, [2, ?, 4]>, !ts.int) -> !ts.int
  return %a, %b, %c : !ts.int, !ts.int, !ts.int
}

// -----

// CHECK-LABEL: func.func @size_int_no_fold(
// CHECK-COUNT-3: ts.aten.size.int
func.func @size_int_no_fold(%x: !ts.tensor<f32>, %s: !ts.tensor<f32, []>, %y: !ts.tensor<[3]>, %d: !ts.int)
    -> (!ts.int, !ts.int, !ts.int) {
  %c0 = ts.prim.Constant[0] : !ts.int
  // Unknown rank.
  %a = ts.aten.size.int %x, %c0 : (!ts.tensor<f32>, !ts.int) -> !ts.int
  // A 0-d tensor has no size to read (PyTorch raises).
  %b = ts.aten.size.int %s, %c0 : (!ts.tensor<f32, []>, !ts.int) -> !ts.int
  // The dimension is not a constant.
  %c = ts.aten.size.int %y, %d : (!ts.tensor<[3]>, !ts.int) -> !ts.int
  return %a, %b, %c : !ts.int, !ts.int, !ts.int
}

// -----

// CHECK-LABEL: func.func @size(
// CHECK:         %[[S:.+]] = ts.prim.Constant{{\[\[}}2, 3]] : !ts.list<!ts.int>
// CHECK:         %[[U:.+]] = ts.aten.size %{{.+}} : (!ts.tensor<f32, [?, 3]>) -> !ts.list<!ts.int>
// CHECK:         return %[[S]], %[[U]]
func.func @size(%x: !ts.tensor<f32, [2, 3]>, %y: !ts.tensor<f32, [?, 3]>)
    -> (!ts.list<!ts.int>, !ts.list<!ts.int>) {
  %a = ts.aten.size %x : (!ts.tensor<f32, [2, 3]>) -> !ts.list<!ts.int>
  %b = ts.aten.size %y : (!ts.tensor<f32, [?, 3]>) -> !ts.list<!ts.int>
  return %a, %b : !ts.list<!ts.int>, !ts.list<!ts.int>
}

// -----

// CHECK-LABEL: func.func @dim(
// CHECK-DAG:     %[[THREE:.+]] = ts.prim.Constant[3] : !ts.int
// CHECK-DAG:     %[[ZERO:.+]] = ts.prim.Constant[0] : !ts.int
// CHECK:         %[[U:.+]] = ts.aten.dim %{{.+}} : (!ts.tensor<f32>) -> !ts.int
// CHECK:         return %[[THREE]], %[[ZERO]], %[[U]]
func.func @dim(%x: !ts.tensor<[?, ?, 2]>, %s: !ts.tensor<f32, []>, %y: !ts.tensor<f32>)
    -> (!ts.int, !ts.int, !ts.int) {
  %a = ts.aten.dim %x : (!ts.tensor<[?, ?, 2]>) -> !ts.int
  %b = ts.aten.dim %s : (!ts.tensor<f32, []>) -> !ts.int
  %c = ts.aten.dim %y : (!ts.tensor<f32>) -> !ts.int
  return %a, %b, %c : !ts.int, !ts.int, !ts.int
}

// -----

// CHECK-LABEL: func.func @numel(
// CHECK-DAG:     %[[N:.+]] = ts.prim.Constant[24] : !ts.int
// CHECK-DAG:     %[[Z:.+]] = ts.prim.Constant[0] : !ts.int
// CHECK-DAG:     %[[ONE:.+]] = ts.prim.Constant[1] : !ts.int
// CHECK:         %[[U:.+]] = ts.aten.numel %{{.+}} : (!ts.tensor<f32, [?, 4]>) -> !ts.int
// CHECK:         return %[[N]], %[[Z]], %[[ONE]], %[[U]]
func.func @numel(%x: !ts.tensor<f32, [2, 3, 4]>, %e: !ts.tensor<f32, [0, 5]>,
                 %s: !ts.tensor<f32, []>, %y: !ts.tensor<f32, [?, 4]>)
    -> (!ts.int, !ts.int, !ts.int, !ts.int) {
  %a = ts.aten.numel %x : (!ts.tensor<f32, [2, 3, 4]>) -> !ts.int
  %b = ts.aten.numel %e : (!ts.tensor<f32, [0, 5]>) -> !ts.int
  %c = ts.aten.numel %s : (!ts.tensor<f32, []>) -> !ts.int
  %d = ts.aten.numel %y : (!ts.tensor<f32, [?, 4]>) -> !ts.int
  return %a, %b, %c, %d : !ts.int, !ts.int, !ts.int, !ts.int
}

// -----

// The element count of a type does not fit in an int.
// CHECK-LABEL: func.func @numel_overflow(
// CHECK:         ts.aten.numel
func.func @numel_overflow(%x: !ts.tensor<[4611686018427387904, 4]>) -> !ts.int {
  %a = ts.aten.numel %x : (!ts.tensor<[4611686018427387904, 4]>) -> !ts.int
  return %a : !ts.int
}

// -----

// c10::ScalarType codes: Float is 6, Long 4, BFloat16 15, Bool 11.
// CHECK-LABEL: func.func @dtype(
// CHECK-DAG:     %[[F32:.+]] = ts.prim.Constant[6] : !ts.int
// CHECK-DAG:     %[[SI64:.+]] = ts.prim.Constant[4] : !ts.int
// CHECK-DAG:     %[[BF16:.+]] = ts.prim.Constant[15] : !ts.int
// CHECK-DAG:     %[[I1:.+]] = ts.prim.Constant[11] : !ts.int
// CHECK:         %[[U:.+]] = ts.prim.dtype %{{.+}} : (!ts.tensor<[2]>) -> !ts.int
// CHECK:         return %[[F32]], %[[SI64]], %[[BF16]], %[[I1]], %[[U]]
func.func @dtype(%a: !ts.tensor<f32>, %b: !ts.tensor<si64, [2]>, %c: !ts.tensor<bf16>,
                 %d: !ts.tensor<i1>, %e: !ts.tensor<[2]>)
    -> (!ts.int, !ts.int, !ts.int, !ts.int, !ts.int) {
  %0 = ts.prim.dtype %a : (!ts.tensor<f32>) -> !ts.int
  %1 = ts.prim.dtype %b : (!ts.tensor<si64, [2]>) -> !ts.int
  %2 = ts.prim.dtype %c : (!ts.tensor<bf16>) -> !ts.int
  %3 = ts.prim.dtype %d : (!ts.tensor<i1>) -> !ts.int
  %4 = ts.prim.dtype %e : (!ts.tensor<[2]>) -> !ts.int
  return %0, %1, %2, %3, %4 : !ts.int, !ts.int, !ts.int, !ts.int, !ts.int
}

// -----

// CHECK-LABEL: func.func @device(
// CHECK:         %[[D:.+]] = ts.prim.Constant["cuda:0"] : !ts.device
// CHECK:         %[[U:.+]] = ts.prim.device %{{.+}} : (!ts.tensor<f32>) -> !ts.device
// CHECK:         return %[[D]], %[[U]]
func.func @device(%a: !ts.tensor<f32, device = "cuda:0">, %b: !ts.tensor<f32>)
    -> (!ts.device, !ts.device) {
  %0 = ts.prim.device %a : (!ts.tensor<f32, device = "cuda:0">) -> !ts.device
  %1 = ts.prim.device %b : (!ts.tensor<f32>) -> !ts.device
  return %0, %1 : !ts.device, !ts.device
}

// -----

// CHECK-LABEL: func.func @is_none(
// CHECK-DAG:     %[[T:.+]] = ts.prim.Constant[true] : !ts.bool
// CHECK-DAG:     %[[F:.+]] = ts.prim.Constant[false] : !ts.bool
// CHECK-NOT:     ts.aten.__is
// CHECK:         return %[[F]], %[[T]], %[[T]], %[[F]], %[[F]]
func.func @is_none(%x: !ts.tensor, %i: !ts.int)
    -> (!ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool) {
  %none = ts.prim.Constant : !ts.none
  // A tensor is never None.
  %a = ts.aten.__is__ %x, %none : (!ts.tensor, !ts.none) -> !ts.bool
  %b = ts.aten.__isnot__ %x, %none : (!ts.tensor, !ts.none) -> !ts.bool
  // None is None.
  %c = ts.aten.__is__ %none, %none : (!ts.none, !ts.none) -> !ts.bool
  %d = ts.aten.__isnot__ %none, %none : (!ts.none, !ts.none) -> !ts.bool
  %e = ts.aten.__is__ %none, %i : (!ts.none, !ts.int) -> !ts.bool
  return %a, %b, %c, %d, %e : !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool
}

// -----

// One SSA value is one object: `q is k` of the same value is true (an
// attention layer called with q = k = v takes its self-attention path),
// whatever its type.
// CHECK-LABEL: func.func @is_same_value(
// CHECK-DAG:     %[[T:.+]] = ts.prim.Constant[true] : !ts.bool
// CHECK-DAG:     %[[F:.+]] = ts.prim.Constant[false] : !ts.bool
// CHECK-NOT:     ts.aten.__is
// CHECK:         return %[[T]], %[[F]], %[[T]]
func.func @is_same_value(%x: !ts.tensor, %o: !ts.optional<!ts.tensor>)
    -> (!ts.bool, !ts.bool, !ts.bool) {
  %a = ts.aten.__is__ %x, %x : (!ts.tensor, !ts.tensor) -> !ts.bool
  %b = ts.aten.__isnot__ %x, %x : (!ts.tensor, !ts.tensor) -> !ts.bool
  %c = ts.aten.__is__ %o, %o : (!ts.optional<!ts.tensor>, !ts.optional<!ts.tensor>) -> !ts.bool
  return %a, %b, %c : !ts.bool, !ts.bool, !ts.bool
}

// -----

// A fresh tensor (computed here) is no argument and no other fresh tensor:
// a cross-attention layer's query against its key.
// CHECK-LABEL: func.func @is_fresh(
// CHECK-DAG:     %[[F:.+]] = ts.prim.Constant[false] : !ts.bool
// CHECK:         %[[C:.+]] = ts.aten.__is__
// CHECK:         return %[[F]], %[[F]], %[[F]], %[[C]]
func.func @is_fresh(%x: !ts.tensor, %y: !ts.tensor) -> (!ts.bool, !ts.bool, !ts.bool, !ts.bool) {
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %a = ts.aten.neg %x : (!ts.tensor) -> !ts.tensor
  %b = ts.aten.neg %x : (!ts.tensor) -> !ts.tensor
  %0 = ts.aten.__is__ %a, %y : (!ts.tensor, !ts.tensor) -> !ts.bool
  %1 = ts.aten.__is__ %a, %b : (!ts.tensor, !ts.tensor) -> !ts.bool
  // Views are new objects too (batch-first attention transposes its inputs);
  // contiguous may return its input.
  %tx = ts.aten.transpose.int %x, %zero, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
  %ty = ts.aten.transpose.int %y, %zero, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
  %2 = ts.aten.__is__ %tx, %ty : (!ts.tensor, !ts.tensor) -> !ts.bool
  %cx = ts.aten.contiguous %x, %zero : (!ts.tensor, !ts.int) -> !ts.tensor
  %3 = ts.aten.__is__ %cx, %x : (!ts.tensor, !ts.tensor) -> !ts.bool
  return %0, %1, %2, %3 : !ts.bool, !ts.bool, !ts.bool, !ts.bool
}

// -----

// An Optional, an Any or a Union may or may not be None; two values that are
// not None may or may not be the same object (two arguments; a value and a
// cast of it).
// CHECK-LABEL: func.func @is_no_fold(
// CHECK-COUNT-6: ts.aten.__is
func.func @is_no_fold(%o: !ts.optional<!ts.tensor>, %a: !ts.any,
                      %u: !ts.union<!ts.int, !ts.none>, %x: !ts.tensor, %y: !ts.tensor)
    -> (!ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool) {
  %none = ts.prim.Constant : !ts.none
  %0 = ts.aten.__is__ %o, %none : (!ts.optional<!ts.tensor>, !ts.none) -> !ts.bool
  %1 = ts.aten.__isnot__ %o, %none : (!ts.optional<!ts.tensor>, !ts.none) -> !ts.bool
  %2 = ts.aten.__is__ %a, %none : (!ts.any, !ts.none) -> !ts.bool
  %3 = ts.aten.__isnot__ %u, %none : (!ts.union<!ts.int, !ts.none>, !ts.none) -> !ts.bool
  %4 = ts.aten.__is__ %x, %y : (!ts.tensor, !ts.tensor) -> !ts.bool
  %n = ts.aten.neg %x : (!ts.tensor) -> !ts.tensor
  %c = ts.prim.unchecked_cast %n : !ts.tensor -> !ts.tensor<f32>
  %5 = ts.aten.__is__ %n, %c : (!ts.tensor, !ts.tensor<f32>) -> !ts.bool
  return %0, %1, %2, %3, %4, %5 : !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool
}

//===----------------------------------------------------------------------===//
// Tensor peepholes
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @t_t(
// CHECK-SAME:    %[[X:[^:]+]]: !ts.tensor<f32, [2, 3]>)
// CHECK-NOT:     ts.aten.t
// CHECK:         return %[[X]]
func.func @t_t(%x: !ts.tensor<f32, [2, 3]>) -> !ts.tensor<f32, [2, 3]> {
  %a = ts.aten.t %x : (!ts.tensor<f32, [2, 3]>) -> !ts.tensor<f32, [3, 2]>
  %b = ts.aten.t %a : (!ts.tensor<f32, [3, 2]>) -> !ts.tensor<f32, [2, 3]>
  return %b : !ts.tensor<f32, [2, 3]>
}

// -----

// t(t(x)) is x, but with x's type: keep the ops when the types differ.
// CHECK-LABEL: func.func @t_t_type_differs(
// CHECK-SAME:    %[[X:[^:]+]]: !ts.tensor<f32, [2, 3]>)
// CHECK:         %[[A:.+]] = ts.aten.t %[[X]]
// CHECK:         %[[B:.+]] = ts.aten.t %[[A]]
// CHECK:         return %[[B]]
func.func @t_t_type_differs(%x: !ts.tensor<f32, [2, 3]>) -> !ts.tensor {
  %a = ts.aten.t %x : (!ts.tensor<f32, [2, 3]>) -> !ts.tensor
  %b = ts.aten.t %a : (!ts.tensor) -> !ts.tensor
  return %b : !ts.tensor
}

// -----

// CHECK-LABEL: func.func @t_single(
// CHECK:         ts.aten.t
func.func @t_single(%x: !ts.tensor) -> !ts.tensor {
  %a = ts.aten.t %x : (!ts.tensor) -> !ts.tensor
  return %a : !ts.tensor
}

//===----------------------------------------------------------------------===//
// Folds compose
//===----------------------------------------------------------------------===//

// -----

// x.size(0) * x.size(1) == x.numel() on a static shape folds to true, one
// fold feeding the next.
// CHECK-LABEL: func.func @composed(
// CHECK:         %[[T:.+]] = ts.prim.Constant[true] : !ts.bool
// CHECK-NOT:     ts.aten
// CHECK:         return %[[T]]
func.func @composed(%x: !ts.tensor<f32, [2, 3]>) -> !ts.bool {
  %c0 = ts.prim.Constant[0] : !ts.int
  %c1 = ts.prim.Constant[1] : !ts.int
  %a = ts.aten.size.int %x, %c0 : (!ts.tensor<f32, [2, 3]>, !ts.int) -> !ts.int
  %b = ts.aten.size.int %x, %c1 : (!ts.tensor<f32, [2, 3]>, !ts.int) -> !ts.int
  %p = ts.aten.mul.int %a, %b : (!ts.int, !ts.int) -> !ts.int
  %n = ts.aten.numel %x : (!ts.tensor<f32, [2, 3]>) -> !ts.int
  %eq = ts.aten.eq.int %p, %n : (!ts.int, !ts.int) -> !ts.bool
  return %eq : !ts.bool
}

//===----------------------------------------------------------------------===//
// prim::If (PrimIfCanonicalize.cpp)
//===----------------------------------------------------------------------===//

// -----

// A true condition runs the then branch in place of the if.
// CHECK-LABEL: func.func @if_true(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor
// CHECK-NOT:     ts.prim.If
// CHECK:         %[[R:.+]] = ts.aten.relu %[[X]]
// CHECK-NOT:     ts.aten.neg
// CHECK:         return %[[R]]
func.func @if_true(%x: !ts.tensor) -> !ts.tensor {
  %c = ts.prim.Constant[true] : !ts.bool
  %r = ts.prim.If %c -> (!ts.tensor) {
    %a = ts.aten.relu %x : (!ts.tensor) -> !ts.tensor
    ts.prim.Yield %a : !ts.tensor
  } else {
    %b = ts.aten.neg %x : (!ts.tensor) -> !ts.tensor
    ts.prim.Yield %b : !ts.tensor
  }
  return %r : !ts.tensor
}

// -----

// A false condition runs the else branch, side effects included; an int
// condition counts as true when non-zero.
// CHECK-LABEL: func.func @if_false_and_int(
// CHECK-NOT:     ts.prim.If
// CHECK:         ts.prim.Print
// CHECK:         %[[N:.+]] = ts.aten.neg
// CHECK:         return %[[N]]
func.func @if_false_and_int(%x: !ts.tensor, %s: !ts.str) -> !ts.tensor {
  %c = ts.prim.Constant[false] : !ts.bool
  %r = ts.prim.If %c -> (!ts.tensor) {
    ts.prim.Yield %x : !ts.tensor
  } else {
    ts.prim.Print(%s) : !ts.str
    ts.prim.Yield %x : !ts.tensor
  }
  %zero = ts.prim.Constant[0] : !ts.int
  %t = ts.prim.If %zero : !ts.int -> (!ts.tensor) {
    ts.prim.Yield %r : !ts.tensor
  } else {
    %n = ts.aten.neg %r : (!ts.tensor) -> !ts.tensor
    ts.prim.Yield %n : !ts.tensor
  }
  return %t : !ts.tensor
}

// -----

// The branch taken yields a less refined type than the profiled result: the
// if goes, and its value reaches the result's users through a cast to the
// result's type, so no use sees another type.
// CHECK-LABEL: func.func @if_constant_type_differs(
// CHECK-NOT:     ts.prim.If
// CHECK:         %[[C:.*]] = ts.prim.unchecked_cast %arg0 : !ts.tensor -> !ts.tensor<f32>
// CHECK:         return %[[C]]
func.func @if_constant_type_differs(%x: !ts.tensor) -> !ts.tensor<f32> {
  %c = ts.prim.Constant[true] : !ts.bool
  %r = ts.prim.If %c -> (!ts.tensor<f32>) {
    ts.prim.Yield %x : !ts.tensor
  } else {
    ts.prim.Yield %x : !ts.tensor
  }
  return %r : !ts.tensor<f32>
}

// -----

// A condition that is not a constant keeps the if.
// CHECK-LABEL: func.func @if_unknown_condition(
// CHECK:         ts.prim.If %{{.+}} -> (!ts.tensor)
func.func @if_unknown_condition(%c: !ts.bool, %x: !ts.tensor) -> !ts.tensor {
  %r = ts.prim.If %c -> (!ts.tensor) {
    %a = ts.aten.relu %x : (!ts.tensor) -> !ts.tensor
    ts.prim.Yield %a : !ts.tensor
  } else {
    ts.prim.Yield %x : !ts.tensor
  }
  return %r : !ts.tensor
}

// -----

// A result both branches take from outside is that value; a result nothing
// uses is dropped; the if keeps the rest, with its branches.
// CHECK-LABEL: func.func @if_results(
// CHECK-SAME:      %[[C:.+]]: !ts.bool, %[[X:.+]]: !ts.tensor, %[[Y:.+]]: !ts.tensor
// CHECK:         %[[R:.+]] = ts.prim.If %[[C]] -> (!ts.tensor) {
// CHECK:           %[[A:.+]] = ts.aten.relu %[[X]]
// CHECK:           ts.prim.Yield %[[A]] : !ts.tensor
// CHECK:         } else {
// CHECK:           ts.prim.Print
// CHECK:           ts.prim.Yield %[[X]] : !ts.tensor
// CHECK:         }
// CHECK:         return %[[Y]], %[[R]]
func.func @if_results(%c: !ts.bool, %x: !ts.tensor, %y: !ts.tensor, %s: !ts.str) -> (!ts.tensor, !ts.tensor) {
  %r:3 = ts.prim.If %c -> (!ts.tensor, !ts.tensor, !ts.tensor) {
    %a = ts.aten.relu %x : (!ts.tensor) -> !ts.tensor
    ts.prim.Yield %y, %a, %a : !ts.tensor, !ts.tensor, !ts.tensor
  } else {
    ts.prim.Print(%s) : !ts.str
    ts.prim.Yield %y, %x, %x : !ts.tensor, !ts.tensor, !ts.tensor
  }
  return %r#0, %r#1 : !ts.tensor, !ts.tensor
}

// -----

// An if with side effects and no results used stays (with no results).
// CHECK-LABEL: func.func @if_effects_kept(
// CHECK:         ts.prim.If %{{.+}} {
// CHECK:           ts.prim.RaiseException
// CHECK:         } else {
// CHECK:         return
func.func @if_effects_kept(%c: !ts.bool, %x: !ts.tensor, %s: !ts.str) {
  %r = ts.prim.If %c -> (!ts.tensor) {
    ts.prim.RaiseException %s, %s : !ts.str, !ts.str
    ts.prim.Yield %x : !ts.tensor
  } else {
    ts.prim.Yield %x : !ts.tensor
  }
  return
}

// -----

// `True if c else False` is `c` (PyTorch's peephole, as in BatchNorm's
// bn_training); `False if c else True` stays.
// CHECK-LABEL: func.func @if_condition_result(
// CHECK-SAME:      %[[C:.+]]: !ts.bool
// CHECK:         %[[N:.+]] = ts.prim.If %[[C]] -> (!ts.bool)
// CHECK:         return %[[C]], %[[N]]
func.func @if_condition_result(%c: !ts.bool) -> (!ts.bool, !ts.bool) {
  %t = ts.prim.Constant[true] : !ts.bool
  %f = ts.prim.Constant[false] : !ts.bool
  %r:2 = ts.prim.If %c -> (!ts.bool, !ts.bool) {
    ts.prim.Yield %t, %f : !ts.bool, !ts.bool
  } else {
    ts.prim.Yield %f, %t : !ts.bool, !ts.bool
  }
  return %r#0, %r#1 : !ts.bool, !ts.bool
}

// -----

// The same value yielded from inside a branch cannot be forwarded.
// CHECK-LABEL: func.func @if_inner_value(
// CHECK:         %[[R:.+]] = ts.prim.If
// CHECK:         return %[[R]]
func.func @if_inner_value(%c: !ts.bool, %x: !ts.tensor) -> !ts.tensor {
  %r = ts.prim.If %c -> (!ts.tensor) {
    %a = ts.aten.relu %x : (!ts.tensor) -> !ts.tensor
    ts.prim.Yield %a : !ts.tensor
  } else {
    ts.prim.Yield %x : !ts.tensor
  }
  return %r : !ts.tensor
}

//===----------------------------------------------------------------------===//
// Redundant contiguous() and to(dtype): both return self in PyTorch
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @contiguous_of_contiguous(
// CHECK-SAME:      %[[X:[^:]+]]: !ts.tensor<f32, [2, 3], strides = [3, 1]>, %[[Y:[^:]+]]: !ts.tensor<f32, [1, 3], strides = [7, 1]>
// CHECK-NOT:     ts.aten.contiguous
// CHECK:         return %[[X]], %[[Y]]
func.func @contiguous_of_contiguous(%x: !ts.tensor<f32, [2, 3], strides = [3, 1]>, %y: !ts.tensor<f32, [1, 3], strides = [7, 1]>) -> (!ts.tensor<f32, [2, 3], strides = [3, 1]>, !ts.tensor<f32, [1, 3], strides = [7, 1]>) {
  %fmt = ts.prim.Constant[0] : !ts.int
  %a = ts.aten.contiguous %x, %fmt : (!ts.tensor<f32, [2, 3], strides = [3, 1]>, !ts.int) -> !ts.tensor<f32, [2, 3], strides = [3, 1]>
  // A dimension of size 1 may have any stride.
  %b = ts.aten.contiguous %y, %fmt : (!ts.tensor<f32, [1, 3], strides = [7, 1]>, !ts.int) -> !ts.tensor<f32, [1, 3], strides = [7, 1]>
  return %a, %b : !ts.tensor<f32, [2, 3], strides = [3, 1]>, !ts.tensor<f32, [1, 3], strides = [7, 1]>
}

// -----

// Transposed strides, another memory format (2: channels_last) or unknown
// strides: contiguous() may copy, so it stays.
// CHECK-LABEL: func.func @contiguous_kept(
// CHECK-COUNT-3: ts.aten.contiguous
func.func @contiguous_kept(%x: !ts.tensor<f32, [2, 3], strides = [1, 2]>, %y: !ts.tensor<f32, [2, 3], strides = [3, 1]>, %z: !ts.tensor<f32, [2, 3]>) -> (!ts.tensor<f32, [2, 3], strides = [1, 2]>, !ts.tensor<f32, [2, 3], strides = [3, 1]>, !ts.tensor<f32, [2, 3]>) {
  %fmt = ts.prim.Constant[0] : !ts.int
  %last = ts.prim.Constant[2] : !ts.int
  %a = ts.aten.contiguous %x, %fmt : (!ts.tensor<f32, [2, 3], strides = [1, 2]>, !ts.int) -> !ts.tensor<f32, [2, 3], strides = [1, 2]>
  %b = ts.aten.contiguous %y, %last : (!ts.tensor<f32, [2, 3], strides = [3, 1]>, !ts.int) -> !ts.tensor<f32, [2, 3], strides = [3, 1]>
  %c = ts.aten.contiguous %z, %fmt : (!ts.tensor<f32, [2, 3]>, !ts.int) -> !ts.tensor<f32, [2, 3]>
  return %a, %b, %c : !ts.tensor<f32, [2, 3], strides = [1, 2]>, !ts.tensor<f32, [2, 3], strides = [3, 1]>, !ts.tensor<f32, [2, 3]>
}

// -----

// to(torch.float32) of a float32 tensor, without copy or memory format.
// CHECK-LABEL: func.func @to_same_dtype(
// CHECK-SAME:      %[[X:[^:]+]]: !ts.tensor<f32>
// CHECK-NOT:     ts.aten.to.dtype
// CHECK:         return %[[X]]
func.func @to_same_dtype(%x: !ts.tensor<f32>) -> !ts.tensor<f32> {
  %f32 = ts.prim.Constant[6] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %y = ts.aten.to.dtype %x, %f32, %false, %false, %none : (!ts.tensor<f32>, !ts.int, !ts.bool, !ts.bool, !ts.none) -> !ts.tensor<f32>
  return %y : !ts.tensor<f32>
}

// -----

// copy=True, another dtype (5: float16), or an unknown dtype: a new tensor.
// CHECK-LABEL: func.func @to_kept(
// CHECK-COUNT-3: ts.aten.to.dtype
func.func @to_kept(%x: !ts.tensor<f32>, %u: !ts.tensor) -> (!ts.tensor<f32>, !ts.tensor, !ts.tensor) {
  %f32 = ts.prim.Constant[6] : !ts.int
  %f16 = ts.prim.Constant[5] : !ts.int
  %false = ts.prim.Constant[false] : !ts.bool
  %true = ts.prim.Constant[true] : !ts.bool
  %none = ts.prim.Constant : !ts.none
  %a = ts.aten.to.dtype %x, %f32, %false, %true, %none : (!ts.tensor<f32>, !ts.int, !ts.bool, !ts.bool, !ts.none) -> !ts.tensor<f32>
  %b = ts.aten.to.dtype %x, %f16, %false, %false, %none : (!ts.tensor<f32>, !ts.int, !ts.bool, !ts.bool, !ts.none) -> !ts.tensor
  %c = ts.aten.to.dtype %u, %f32, %false, %false, %none : (!ts.tensor, !ts.int, !ts.bool, !ts.bool, !ts.none) -> !ts.tensor
  return %a, %b, %c : !ts.tensor<f32>, !ts.tensor, !ts.tensor
}

// -----

// x + 0, x - 0, x * 1, x / 1 and x ** 1 are x when the dtype is known and
// nothing writes either tensor.
// CHECK-LABEL: func.func @arith_identities(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor<f32, [4]>)
// CHECK-NOT:     ts.aten.{{add|sub|mul|div|pow}}.Scalar
// CHECK:         %[[R:.+]] = ts.aten.maximum %[[X]], %[[X]]
// CHECK-NEXT:    return %[[R]]
func.func @arith_identities(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %i0 = ts.prim.Constant[0] : !ts.int
  %i1 = ts.prim.Constant[1] : !ts.int
  %f0 = ts.prim.Constant[0.0] : !ts.float
  %f1 = ts.prim.Constant[1.0] : !ts.float
  %a = ts.aten.add.Scalar %x, %i0, %i1 : (!ts.tensor<f32, [4]>, !ts.int, !ts.int) -> !ts.tensor<f32, [4]>
  %b = ts.aten.sub.Scalar %a, %f0, %i1 : (!ts.tensor<f32, [4]>, !ts.float, !ts.int) -> !ts.tensor<f32, [4]>
  %c = ts.aten.mul.Scalar %b, %i1 : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %d = ts.aten.div.Scalar %c, %f1 : (!ts.tensor<f32, [4]>, !ts.float) -> !ts.tensor<f32, [4]>
  %e = ts.aten.pow.Tensor_Scalar %d, %i1 : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %f = ts.aten.add.Scalar %x, %f0, %f1 : (!ts.tensor<f32, [4]>, !ts.float, !ts.float) -> !ts.tensor<f32, [4]>
  %r = ts.aten.maximum %e, %f : (!ts.tensor<f32, [4]>, !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  return %r : !ts.tensor<f32, [4]>
}

// -----

// Identities that change the dtype, or whose dtype is unknown, stay:
// int + 0.0 is float, bool + 0 is int64, int / 1 is float.
// CHECK-LABEL: func.func @arith_identities_that_promote(
// CHECK-COUNT-4: ts.aten.
func.func @arith_identities_that_promote(%i: !ts.tensor<si64, [4]>, %b: !ts.tensor<i1, [4]>, %u: !ts.tensor) -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor) {
  %i0 = ts.prim.Constant[0] : !ts.int
  %i1 = ts.prim.Constant[1] : !ts.int
  %f0 = ts.prim.Constant[0.0] : !ts.float
  %0 = ts.aten.add.Scalar %i, %f0, %i1 : (!ts.tensor<si64, [4]>, !ts.float, !ts.int) -> !ts.tensor
  %1 = ts.aten.add.Scalar %b, %i0, %i1 : (!ts.tensor<i1, [4]>, !ts.int, !ts.int) -> !ts.tensor
  %2 = ts.aten.div.Scalar %i, %i1 : (!ts.tensor<si64, [4]>, !ts.int) -> !ts.tensor
  %3 = ts.aten.mul.Scalar %u, %i1 : (!ts.tensor, !ts.int) -> !ts.tensor
  return %0, %1, %2, %3 : !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor
}

// -----

// x * 1 is a new tensor: when the result is written in place, replacing it by
// x would write x too.
// CHECK-LABEL: func.func @identity_result_written(
// CHECK:         %[[Y:.+]] = ts.aten.mul.Scalar
// CHECK:         ts.aten.add_.Scalar %[[Y]]
func.func @identity_result_written(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %i1 = ts.prim.Constant[1] : !ts.int
  %y = ts.aten.mul.Scalar %x, %i1 : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %0 = ts.aten.add_.Scalar %y, %i1, %i1 : (!ts.tensor<f32, [4]>, !ts.int, !ts.int) -> !ts.tensor<f32, [4]>
  return %x : !ts.tensor<f32, [4]>
}

// -----

// ... and when x, or a view of x, is written after, the result must keep the
// old values.
// CHECK-LABEL: func.func @identity_operand_view_written(
// CHECK:         ts.aten.mul.Scalar
func.func @identity_operand_view_written(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %i0 = ts.prim.Constant[0] : !ts.int
  %i1 = ts.prim.Constant[1] : !ts.int
  %y = ts.aten.mul.Scalar %x, %i1 : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  %v = ts.aten.select.int %x, %i0, %i0 : (!ts.tensor<f32, [4]>, !ts.int, !ts.int) -> !ts.tensor
  %0 = ts.aten.zero_ %v : (!ts.tensor) -> !ts.tensor
  return %y : !ts.tensor<f32, [4]>
}

// -----

// Returning x * 1 where x is an argument would hand the caller its own
// tensor: the fold would change aliasing between input and output.
// CHECK-LABEL: func.func @identity_argument_returned(
// CHECK:         %[[Y:.+]] = ts.aten.mul.Scalar
// CHECK:         return %[[Y]]
func.func @identity_argument_returned(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %i1 = ts.prim.Constant[1] : !ts.int
  %y = ts.aten.mul.Scalar %x, %i1 : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  return %y : !ts.tensor<f32, [4]>
}

// -----

// A fresh tensor times one may be returned.
// CHECK-LABEL: func.func @identity_fresh_returned(
// CHECK:         %[[E:.+]] = ts.aten.exp
// CHECK-NEXT:    return %[[E]]
func.func @identity_fresh_returned(%x: !ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]> {
  %i1 = ts.prim.Constant[1] : !ts.int
  %e = ts.aten.exp %x : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
  %y = ts.aten.mul.Scalar %e, %i1 : (!ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor<f32, [4]>
  return %y : !ts.tensor<f32, [4]>
}

// -----

// Ops that return their input or a same-shaped view of it.
// CHECK-LABEL: func.func @same_shape_views(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor<f32, [2, 3]>
// CHECK-NOT:     ts.aten
// CHECK:         return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]]
func.func @same_shape_views(%x: !ts.tensor<f32, [2, 3]>, %p: !ts.float) -> (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>) {
  %false = ts.prim.Constant[false] : !ts.bool
  %m1 = ts.prim.Constant[-1] : !ts.int
  %i0 = ts.prim.Constant[0] : !ts.int
  %i1 = ts.prim.Constant[1] : !ts.int
  %i2 = ts.prim.Constant[2] : !ts.int
  %i3 = ts.prim.Constant[3] : !ts.int
  %shape = ts.prim.ListConstruct %i2, %m1 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %a = ts.aten.dropout %x, %p, %false : (!ts.tensor<f32, [2, 3]>, !ts.float, !ts.bool) -> !ts.tensor<f32, [2, 3]>
  %b = ts.aten.view %x, %shape : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>) -> !ts.tensor<f32, [2, 3]>
  %same = ts.prim.Constant[[2, 3]] : !ts.list<!ts.int>
  %c = ts.aten.reshape %x, %same : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>) -> !ts.tensor<f32, [2, 3]>
  %d = ts.aten.expand %x, %same, %false : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>, !ts.bool) -> !ts.tensor<f32, [2, 3]>
  %e = ts.aten.squeeze.dim %x, %i1 : (!ts.tensor<f32, [2, 3]>, !ts.int) -> !ts.tensor<f32, [2, 3]>
  %u = ts.aten.unsqueeze %x, %i0 : (!ts.tensor<f32, [2, 3]>, !ts.int) -> !ts.tensor<f32, [1, 2, 3]>
  %f = ts.aten.squeeze.dim %u, %i0 : (!ts.tensor<f32, [1, 2, 3]>, !ts.int) -> !ts.tensor<f32, [2, 3]>
  %t = ts.aten.transpose.int %x, %i0, %i1 : (!ts.tensor<f32, [2, 3]>, !ts.int, !ts.int) -> !ts.tensor<f32, [3, 2]>
  %g = ts.aten.transpose.int %t, %i1, %i0 : (!ts.tensor<f32, [3, 2]>, !ts.int, !ts.int) -> !ts.tensor<f32, [2, 3]>
  return %a, %b, %c, %d, %e, %f, %g : !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3]>
}

// -----

// Views that change the shape, dropout in training, squeezing a dimension of
// size 1 or unknown size, and transposes of other dims stay.
// CHECK-LABEL: func.func @views_that_stay(
// CHECK:         ts.aten.dropout
// CHECK:         ts.aten.view
// CHECK:         ts.aten.squeeze.dim
// CHECK:         ts.aten.squeeze.dim
// CHECK:         ts.aten.transpose.int
// CHECK:         ts.aten.transpose.int
func.func @views_that_stay(%x: !ts.tensor<f32, [1, 6]>, %y: !ts.tensor<f32, [?, 6]>, %z: !ts.tensor<f32, [2, 3, 4]>, %p: !ts.float) -> (!ts.tensor, !ts.tensor, !ts.tensor<f32, [?, 6]>, !ts.tensor, !ts.tensor<f32, [1, 6]>) {
  %true = ts.prim.Constant[true] : !ts.bool
  %i0 = ts.prim.Constant[0] : !ts.int
  %i1 = ts.prim.Constant[1] : !ts.int
  %i2 = ts.prim.Constant[2] : !ts.int
  %shape = ts.prim.Constant[[2, 3]] : !ts.list<!ts.int>
  %a = ts.aten.dropout %x, %p, %true : (!ts.tensor<f32, [1, 6]>, !ts.float, !ts.bool) -> !ts.tensor<f32, [1, 6]>
  %b = ts.aten.view %x, %shape : (!ts.tensor<f32, [1, 6]>, !ts.list<!ts.int>) -> !ts.tensor
  %c = ts.aten.squeeze.dim %x, %i0 : (!ts.tensor<f32, [1, 6]>, !ts.int) -> !ts.tensor
  %d = ts.aten.squeeze.dim %y, %i0 : (!ts.tensor<f32, [?, 6]>, !ts.int) -> !ts.tensor<f32, [?, 6]>
  %t = ts.aten.transpose.int %z, %i0, %i1 : (!ts.tensor<f32, [2, 3, 4]>, !ts.int, !ts.int) -> !ts.tensor<f32, [3, 2, 4]>
  %e = ts.aten.transpose.int %t, %i1, %i2 : (!ts.tensor<f32, [3, 2, 4]>, !ts.int, !ts.int) -> !ts.tensor
  return %b, %c, %d, %e, %a : !ts.tensor, !ts.tensor, !ts.tensor<f32, [?, 6]>, !ts.tensor, !ts.tensor<f32, [1, 6]>
}

// -----

// Small constant tensors fold.
// CHECK-LABEL: func.func @constant_tensors(
// CHECK-DAG:     ts.prim.Constant[dense<[1.000000e+01, -1.000000e+01]> : tensor<2xf32>]
// CHECK-DAG:     ts.prim.Constant[dense<[2, 6]> : tensor<2xsi64>]
// CHECK-DAG:     ts.prim.Constant[dense<3> : tensor<si64>]
// CHECK-DAG:     ts.prim.Constant[2.500000e+00] : !ts.float
// CHECK-DAG:     ts.prim.Constant[-3] : !ts.int
// CHECK-NOT:     ts.aten
// CHECK-NOT:     ts.prim.NumToTensor
func.func @constant_tensors() -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.float, !ts.int) {
  %a = ts.prim.Constant[dense<[1.0, 2.0]> : tensor<2xf32>] : !ts.tensor<f32, [2]>
  %b = ts.prim.Constant[dense<[1.5, -2.0]> : tensor<2xf32>] : !ts.tensor<f32, [2]>
  %half = ts.prim.Constant[dense<0.5> : tensor<f32>] : !ts.tensor<f32, []>
  %i1 = ts.prim.Constant[1] : !ts.int
  %i3 = ts.prim.Constant[3] : !ts.int
  %f = ts.prim.Constant[2.5] : !ts.float
  // (a + 3 * b) / 0.5 - a  =  [10.0, -10.0]
  %three = ts.prim.Constant[3] : !ts.int
  %s = ts.aten.add.Tensor %a, %b, %three : (!ts.tensor<f32, [2]>, !ts.tensor<f32, [2]>, !ts.int) -> !ts.tensor
  %q = ts.aten.div.Tensor %s, %half : (!ts.tensor, !ts.tensor<f32, []>) -> !ts.tensor
  %r = ts.aten.sub.Tensor %q, %a, %i1 : (!ts.tensor, !ts.tensor<f32, [2]>, !ts.int) -> !ts.tensor
  %x = ts.prim.Constant[dense<[1, 3]> : tensor<2xsi64>] : !ts.tensor<si64, [2]>
  %two = ts.prim.Constant[dense<2> : tensor<si64>] : !ts.tensor<si64, []>
  %m = ts.aten.mul.Tensor %x, %two : (!ts.tensor<si64, [2]>, !ts.tensor<si64, []>) -> !ts.tensor
  %n = ts.prim.NumToTensor.Scalar %i3 : (!ts.int) -> !ts.tensor
  %g = ts.prim.NumToTensor.Scalar %f : (!ts.float) -> !ts.tensor
  %gf = ts.aten.Float.Tensor %g : (!ts.tensor) -> !ts.float
  %neg = ts.aten.neg %n : (!ts.tensor) -> !ts.tensor
  %ni = ts.aten.Int.Tensor %neg : (!ts.tensor) -> !ts.int
  return %r, %m, %n, %gf, %ni : !ts.tensor, !ts.tensor, !ts.tensor, !ts.float, !ts.int
}

// -----

// floor_divide and remainder of constant tensors, as traced code computes
// sizes (channels // groups on prim::NumToTensor of a size): floor toward
// -inf, remainder with the divisor's sign; float64 with PyTorch's rounding.
// Integer division by zero (PyTorch raises) and float32 (rounded another
// way in double) stay.
// CHECK-LABEL: func.func @floor_divide_constants(
// CHECK-DAG:     ts.prim.Constant[58] : !ts.int
// CHECK-DAG:     ts.prim.Constant[dense<[-4, 3, -2]> : tensor<3xsi64>]
// CHECK-DAG:     ts.prim.Constant[dense<[1, 1, 0]> : tensor<3xsi64>]
// CHECK-DAG:     ts.prim.Constant[dense<[-4.000000e+00, -3.000000e+00]> : tensor<2xf64>]
// CHECK-DAG:     ts.prim.Constant[dense<[5.000000e-01, -1.500000e+00]> : tensor<2xf64>]
// CHECK:         ts.aten.floor_divide
// CHECK:         ts.aten.remainder.Tensor
// CHECK-NOT:     ts.aten.floor_divide
func.func @floor_divide_constants() -> (!ts.int, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor) {
  %c116 = ts.prim.Constant[116] : !ts.int
  %two = ts.prim.Constant[dense<2> : tensor<si64>] : !ts.tensor<si64, []>
  %n = ts.prim.NumToTensor.Scalar %c116 : (!ts.int) -> !ts.tensor
  %q = ts.aten.floor_divide %n, %two : (!ts.tensor, !ts.tensor<si64, []>) -> !ts.tensor
  %qi = ts.aten.Int.Tensor %q : (!ts.tensor) -> !ts.int
  %x = ts.prim.Constant[dense<[-7, 7, 6]> : tensor<3xsi64>] : !ts.tensor<si64, [3]>
  %y = ts.prim.Constant[dense<[2, 2, -5]> : tensor<3xsi64>] : !ts.tensor<si64, [3]>
  %a = ts.aten.floor_divide %x, %y : (!ts.tensor<si64, [3]>, !ts.tensor<si64, [3]>) -> !ts.tensor
  %y2 = ts.prim.Constant[dense<[2, 2, 2]> : tensor<3xsi64>] : !ts.tensor<si64, [3]>
  %b = ts.aten.remainder.Tensor %x, %y2 : (!ts.tensor<si64, [3]>, !ts.tensor<si64, [3]>) -> !ts.tensor
  %f = ts.prim.Constant[dense<[-7.5, 4.5]> : tensor<2xf64>] : !ts.tensor<f64, [2]>
  %g = ts.prim.Constant[dense<[2.0, -2.0]> : tensor<2xf64>] : !ts.tensor<f64, [2]>
  %c = ts.aten.floor_divide %f, %g : (!ts.tensor<f64, [2]>, !ts.tensor<f64, [2]>) -> !ts.tensor
  %d = ts.aten.remainder.Tensor %f, %g : (!ts.tensor<f64, [2]>, !ts.tensor<f64, [2]>) -> !ts.tensor
  %zero = ts.prim.Constant[dense<0> : tensor<si64>] : !ts.tensor<si64, []>
  %e = ts.aten.floor_divide %x, %zero : (!ts.tensor<si64, [3]>, !ts.tensor<si64, []>) -> !ts.tensor
  %h = ts.prim.Constant[dense<[1.0]> : tensor<1xf32>] : !ts.tensor<f32, [1]>
  %k = ts.aten.remainder.Tensor %h, %h : (!ts.tensor<f32, [1]>, !ts.tensor<f32, [1]>) -> !ts.tensor
  return %qi, %a, %b, %c, %d, %e, %k : !ts.int, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor
}

// -----

// _infer_size of constant sizes is their broadcast (binary losses broadcast
// their weight so); sizes that do not broadcast (PyTorch raises) stay.
// CHECK-LABEL: func.func @infer_size(
// CHECK-DAG:     %[[B:.*]] = ts.prim.Constant{{\[\[}}3, 4]] : !ts.list<!ts.int>
// CHECK-DAG:     %[[BAD:.*]] = ts.aten._infer_size
// CHECK:         return %[[B]], %[[BAD]]
func.func @infer_size() -> (!ts.list<!ts.int>, !ts.list<!ts.int>) {
  %a = ts.prim.Constant[[3, 1]] : !ts.list<!ts.int>
  %b = ts.prim.Constant[[4]] : !ts.list<!ts.int>
  %c = ts.prim.Constant[[2]] : !ts.list<!ts.int>
  %0 = ts.aten._infer_size %a, %b : (!ts.list<!ts.int>, !ts.list<!ts.int>) -> !ts.list<!ts.int>
  %1 = ts.aten._infer_size %b, %c : (!ts.list<!ts.int>, !ts.list<!ts.int>) -> !ts.list<!ts.int>
  return %0, %1 : !ts.list<!ts.int>, !ts.list<!ts.int>
}

// -----

// A constant tensor that is written in place, a bool tensor's negation, an
// integer true division and mismatched shapes do not fold.
// CHECK-LABEL: func.func @constant_tensors_that_stay(
// CHECK:         ts.aten.add.Tensor
// CHECK:         ts.aten.neg
// CHECK:         ts.aten.div.Tensor
// CHECK:         ts.aten.mul.Tensor
func.func @constant_tensors_that_stay() -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor) {
  %i1 = ts.prim.Constant[1] : !ts.int
  %a = ts.prim.Constant[dense<[1.0, 2.0]> : tensor<2xf32>] : !ts.tensor<f32, [2]>
  %w = ts.aten.add_.Scalar %a, %i1, %i1 : (!ts.tensor<f32, [2]>, !ts.int, !ts.int) -> !ts.tensor<f32, [2]>
  %s = ts.aten.add.Tensor %a, %a, %i1 : (!ts.tensor<f32, [2]>, !ts.tensor<f32, [2]>, !ts.int) -> !ts.tensor
  %b = ts.prim.Constant[dense<[true, false]> : tensor<2xi1>] : !ts.tensor<i1, [2]>
  %nb = ts.aten.neg %b : (!ts.tensor<i1, [2]>) -> !ts.tensor
  %x = ts.prim.Constant[dense<[1, 3]> : tensor<2xsi64>] : !ts.tensor<si64, [2]>
  %d = ts.aten.div.Tensor %x, %x : (!ts.tensor<si64, [2]>, !ts.tensor<si64, [2]>) -> !ts.tensor
  %y = ts.prim.Constant[dense<[[1.0], [3.0]]> : tensor<2x1xf32>] : !ts.tensor<f32, [2, 1]>
  %m = ts.aten.mul.Tensor %a, %y : (!ts.tensor<f32, [2]>, !ts.tensor<f32, [2, 1]>) -> !ts.tensor
  return %s, %nb, %d, %m : !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor
}

// -----

// A loop that never runs is its initial values.
// CHECK-LABEL: func.func @loop_zero_trip(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor, %[[N:.+]]: !ts.int)
// CHECK-NOT:     ts.prim.Loop
// CHECK:         return %[[X]], %[[X]]
func.func @loop_zero_trip(%x: !ts.tensor, %n: !ts.int) -> (!ts.tensor, !ts.tensor) {
  %true = ts.prim.Constant[true] : !ts.bool
  %false = ts.prim.Constant[false] : !ts.bool
  %zero = ts.prim.Constant[0] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %a = ts.prim.Loop %zero, %true init(%x) : (!ts.int, !ts.bool, !ts.tensor) -> !ts.tensor {
  ^bb0(%i: !ts.int, %t: !ts.tensor):
    %u = ts.aten.add.Scalar %t, %i, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
    ts.prim.Yield %true, %u : !ts.bool, !ts.tensor
  }
  %b = ts.prim.Loop %n, %false init(%x) : (!ts.int, !ts.bool, !ts.tensor) -> !ts.tensor {
  ^bb0(%i: !ts.int, %t: !ts.tensor):
    %u = ts.aten.add.Scalar %t, %i, %one : (!ts.tensor, !ts.int, !ts.int) -> !ts.tensor
    ts.prim.Yield %true, %u : !ts.bool, !ts.tensor
  }
  return %a, %b : !ts.tensor, !ts.tensor
}

// -----

// A carried value yielded unchanged is its initial value, inside the loop
// and after it (constants propagate through the loop); a carried value that
// nothing reads is dropped.
// CHECK-LABEL: func.func @loop_invariant_and_dead_carried(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor, %[[N:.+]]: !ts.int)
// CHECK-DAG:     %[[TWO:.+]] = ts.prim.Constant[2] : !ts.int
// CHECK:         %[[R:.+]] = ts.prim.Loop %[[N]], %{{.+}} init(%[[X]]) : (!ts.int, !ts.bool, !ts.tensor) -> !ts.tensor {
// CHECK-NEXT:    ^bb0(%{{.+}}: !ts.int, %[[T:.+]]: !ts.tensor):
// CHECK-NEXT:      %[[U:.+]] = ts.aten.mul.Scalar %[[T]], %[[TWO]]
// CHECK-NEXT:      ts.prim.Yield %{{.+}}, %[[U]] : !ts.bool, !ts.tensor
// CHECK:         return %[[R]], %[[TWO]]
func.func @loop_invariant_and_dead_carried(%x: !ts.tensor, %n: !ts.int) -> (!ts.tensor, !ts.int) {
  %true = ts.prim.Constant[true] : !ts.bool
  %two = ts.prim.Constant[2] : !ts.int
  %one = ts.prim.Constant[1] : !ts.int
  %r:3 = ts.prim.Loop %n, %true init(%x, %two, %one) : (!ts.int, !ts.bool, !ts.tensor, !ts.int, !ts.int) -> (!ts.tensor, !ts.int, !ts.int) {
  ^bb0(%i: !ts.int, %t: !ts.tensor, %k: !ts.int, %dead: !ts.int):
    %u = ts.aten.mul.Scalar %t, %k : (!ts.tensor, !ts.int) -> !ts.tensor
    %d = ts.aten.add.int %dead, %i : (!ts.int, !ts.int) -> !ts.int
    ts.prim.Yield %true, %u, %k, %d : !ts.bool, !ts.tensor, !ts.int, !ts.int
  }
  return %r#0, %r#1 : !ts.tensor, !ts.int
}

// -----

// Carried values that change, or whose result is read, stay; so does a loop
// whose initial value has another type than its result.
// CHECK-LABEL: func.func @loop_carried_kept(
// CHECK:         ts.prim.Loop %{{.+}}, %{{.+}} init(%{{.+}}, %{{.+}}) : (!ts.int, !ts.bool, !ts.tensor<f32>, !ts.int) -> (!ts.tensor, !ts.int)
func.func @loop_carried_kept(%x: !ts.tensor<f32>, %n: !ts.int) -> (!ts.tensor, !ts.int) {
  %true = ts.prim.Constant[true] : !ts.bool
  %zero = ts.prim.Constant[0] : !ts.int
  %r:2 = ts.prim.Loop %n, %true init(%x, %zero) : (!ts.int, !ts.bool, !ts.tensor<f32>, !ts.int) -> (!ts.tensor, !ts.int) {
  ^bb0(%i: !ts.int, %t: !ts.tensor, %s: !ts.int):
    %s2 = ts.aten.add.int %s, %i : (!ts.int, !ts.int) -> !ts.int
    ts.prim.Yield %true, %t, %s2 : !ts.bool, !ts.tensor, !ts.int
  }
  return %r#0, %r#1 : !ts.tensor, !ts.int
}

// -----

// chunk + ListUnpack with constant arguments is one prim::ConstantChunk.
// CHECK-LABEL: func.func @chunk_unpack(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor)
// CHECK-NEXT:    %[[A:.+]]:2 = ts.prim.ConstantChunk %[[X]] {chunks = 2 : i64, dim = -1 : i64} : !ts.tensor -> !ts.tensor, !ts.tensor
// CHECK-NEXT:    return %[[A]]#0, %[[A]]#1
func.func @chunk_unpack(%x: !ts.tensor) -> (!ts.tensor, !ts.tensor) {
  %m1 = ts.prim.Constant[-1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %l = ts.aten.chunk %x, %two, %m1 : (!ts.tensor, !ts.int, !ts.int) -> !ts.list<!ts.tensor>
  %a, %b = ts.prim.ListUnpack %l : !ts.list<!ts.tensor> -> !ts.tensor, !ts.tensor
  return %a, %b : !ts.tensor, !ts.tensor
}

// -----

// Not when the list has other users or the count differs.
// CHECK-LABEL: func.func @chunk_unpack_kept(
// CHECK-COUNT-2: ts.aten.chunk
func.func @chunk_unpack_kept(%x: !ts.tensor, %n: !ts.int) -> (!ts.tensor, !ts.tensor, !ts.int, !ts.tensor, !ts.tensor) {
  %m1 = ts.prim.Constant[-1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %three = ts.prim.Constant[3] : !ts.int
  %l = ts.aten.chunk %x, %two, %m1 : (!ts.tensor, !ts.int, !ts.int) -> !ts.list<!ts.tensor>
  %a, %b = ts.prim.ListUnpack %l : !ts.list<!ts.tensor> -> !ts.tensor, !ts.tensor
  %len = ts.aten.len.t %l : (!ts.list<!ts.tensor>) -> !ts.int
  %l3 = ts.aten.chunk %x, %three, %m1 : (!ts.tensor, !ts.int, !ts.int) -> !ts.list<!ts.tensor>
  %c, %d = ts.prim.ListUnpack %l3 : !ts.list<!ts.tensor> -> !ts.tensor, !ts.tensor
  return %a, %b, %len, %c, %d : !ts.tensor, !ts.tensor, !ts.int, !ts.tensor, !ts.tensor
}

// -----

// List equality (eq/ne of int, float, bool and str lists): lengths that
// differ or a pair of constants that differs decide it, as does every pair
// being equal constants or (not for floats: NaN != NaN) the same value.

// CHECK-LABEL: func.func @list_equality(
// CHECK-DAG: %[[T:.*]] = ts.prim.Constant[true] : !ts.bool
// CHECK-DAG: %[[F:.*]] = ts.prim.Constant[false] : !ts.bool
// CHECK-DAG: %[[FL:.*]] = ts.aten.eq.float_list
// CHECK-DAG: %[[XY:.*]] = ts.aten.ne.int_list
// CHECK: return %[[T]], %[[T]], %[[F]], %[[T]], %[[FL]], %[[XY]], %[[F]], %[[T]] :
func.func @list_equality(%x: !ts.int, %y: !ts.int, %f: !ts.float) -> (!ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool) {
  %one = ts.prim.Constant[1] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %three = ts.prim.Constant[3] : !ts.int
  %half = ts.prim.Constant[0.5] : !ts.float
  %a = ts.prim.ListConstruct %one, %two : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %b = ts.prim.ListConstruct %one, %two : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %c = ts.prim.ListConstruct %one, %three : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %d = ts.prim.ListConstruct %one : (!ts.int) -> !ts.list<!ts.int>
  %xs = ts.prim.ListConstruct %x, %two : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %xs2 = ts.prim.ListConstruct %x, %two : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %ys = ts.prim.ListConstruct %y, %two : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %fs = ts.prim.ListConstruct %f, %half : (!ts.float, !ts.float) -> !ts.list<!ts.float>
  %fs2 = ts.prim.ListConstruct %f, %half : (!ts.float, !ts.float) -> !ts.list<!ts.float>
  %big = ts.prim.Constant[1.5] : !ts.float
  %gs = ts.prim.ListConstruct %f, %big : (!ts.float, !ts.float) -> !ts.list<!ts.float>
  %0 = ts.aten.eq.int_list %a, %b : (!ts.list<!ts.int>, !ts.list<!ts.int>) -> !ts.bool
  %1 = ts.aten.ne.int_list %a, %c : (!ts.list<!ts.int>, !ts.list<!ts.int>) -> !ts.bool
  %2 = ts.aten.eq.int_list %a, %d : (!ts.list<!ts.int>, !ts.list<!ts.int>) -> !ts.bool
  %3 = ts.aten.eq.int_list %xs, %xs2 : (!ts.list<!ts.int>, !ts.list<!ts.int>) -> !ts.bool
  %4 = ts.aten.eq.float_list %fs, %fs2 : (!ts.list<!ts.float>, !ts.list<!ts.float>) -> !ts.bool
  %5 = ts.aten.ne.int_list %xs, %ys : (!ts.list<!ts.int>, !ts.list<!ts.int>) -> !ts.bool
  // A known pair that differs decides even with unknown pairs.
  %6 = ts.aten.eq.float_list %fs, %gs : (!ts.list<!ts.float>, !ts.list<!ts.float>) -> !ts.bool
  %7 = ts.aten.ne.int_list %xs, %c : (!ts.list<!ts.int>, !ts.list<!ts.int>) -> !ts.bool
  return %0, %1, %2, %3, %4, %5, %6, %7 : !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool
}

// -----

// all and any of lists: a known element that decides, or every element
// known (numbers are true when not zero, strings when not empty).

// CHECK-LABEL: func.func @all_any(
// CHECK-DAG: %[[T:.*]] = ts.prim.Constant[true] : !ts.bool
// CHECK-DAG: %[[F:.*]] = ts.prim.Constant[false] : !ts.bool
// CHECK-DAG: %[[U:.*]] = ts.aten.all.bool
// CHECK: return %[[T]], %[[F]], %[[U]], %[[T]], %[[F]], %[[T]] :
func.func @all_any(%b: !ts.bool) -> (!ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool) {
  %true = ts.prim.Constant[true] : !ts.bool
  %false = ts.prim.Constant[false] : !ts.bool
  %zero = ts.prim.Constant[0] : !ts.int
  %two = ts.prim.Constant[2] : !ts.int
  %half = ts.prim.Constant[0.5] : !ts.float
  %empty = ts.prim.Constant[""] : !ts.str
  %a = ts.prim.Constant["a"] : !ts.str
  %bools = ts.prim.ListConstruct %true, %true : (!ts.bool, !ts.bool) -> !ts.list<!ts.bool>
  %mixed = ts.prim.ListConstruct %b, %false : (!ts.bool, !ts.bool) -> !ts.list<!ts.bool>
  %unknown = ts.prim.ListConstruct %b, %true : (!ts.bool, !ts.bool) -> !ts.list<!ts.bool>
  %ints = ts.prim.ListConstruct %zero, %two : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %floats = ts.prim.ListConstruct %half : (!ts.float) -> !ts.list<!ts.float>
  %strs = ts.prim.ListConstruct %empty, %a : (!ts.str, !ts.str) -> !ts.list<!ts.str>
  %0 = ts.aten.all.bool %bools : (!ts.list<!ts.bool>) -> !ts.bool
  %1 = ts.aten.all.bool %mixed : (!ts.list<!ts.bool>) -> !ts.bool
  %2 = ts.aten.all.bool %unknown : (!ts.list<!ts.bool>) -> !ts.bool
  %3 = ts.aten.any.int %ints : (!ts.list<!ts.int>) -> !ts.bool
  %4 = ts.aten.all.int %ints : (!ts.list<!ts.int>) -> !ts.bool
  %5 = ts.aten.any.str %strs : (!ts.list<!ts.str>) -> !ts.bool
  return %0, %1, %2, %3, %4, %5 : !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool
}

// -----

// A constant condition takes its branch even when the branch yields a more
// refined type than the result: the value goes through a cast.

// CHECK-LABEL: func.func @if_refined(
// CHECK-NOT: ts.prim.If
// CHECK: %[[C:.*]] = ts.prim.unchecked_cast %arg0 : !ts.tensor<f32, [2]> -> !ts.tensor<f32>
// CHECK: return %[[C]]
func.func @if_refined(%x: !ts.tensor<f32, [2]>) -> !ts.tensor<f32> {
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.prim.If %false -> (!ts.tensor<f32>) {
    %1 = ts.aten.neg %x : (!ts.tensor<f32, [2]>) -> !ts.tensor<f32, [2]>
    ts.prim.Yield %1 : !ts.tensor<f32, [2]>
  } else {
    ts.prim.Yield %x : !ts.tensor<f32, [2]>
  }
  return %0 : !ts.tensor<f32>
}

// -----

// Compiled code runs with grad mode and autocast off and tensors never
// nested: torch.nn's attention modules ask before taking their fast path.
// CHECK-LABEL: func.func @grad_mode(
// CHECK: %[[F:.*]] = ts.prim.Constant[false] : !ts.bool
// CHECK: return %[[F]], %[[F]], %[[F]]
func.func @grad_mode(%x: !ts.tensor) -> (!ts.bool, !ts.bool, !ts.bool) {
  %0 = ts.aten.is_grad_enabled : () -> !ts.bool
  %1 = ts.aten.is_autocast_enabled : () -> !ts.bool
  %2 = ts.prim.is_nested %x : (!ts.tensor) -> !ts.bool
  return %0, %1, %2 : !ts.bool, !ts.bool, !ts.bool
}

// -----

// Tensors here are dense, in memory and (as far as a program can tell)
// contiguous, and the code is TorchScript.
// CHECK-LABEL: func.func @tensor_kind(
// CHECK-DAG: %[[T:.*]] = ts.prim.Constant[true] : !ts.bool
// CHECK-DAG: %[[F:.*]] = ts.prim.Constant[false] : !ts.bool
// CHECK: return %[[F]], %[[F]], %[[F]], %[[F]], %[[T]], %[[T]]
func.func @tensor_kind(%x: !ts.tensor) -> (!ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool) {
  %0 = ts.prim.is_sparse %x : (!ts.tensor) -> !ts.bool
  %1 = ts.prim.is_quantized %x : (!ts.tensor) -> !ts.bool
  %2 = ts.prim.is_meta %x : (!ts.tensor) -> !ts.bool
  %3 = ts.prim.is_mkldnn %x : (!ts.tensor) -> !ts.bool
  %4 = ts.aten.is_contiguous %x : (!ts.tensor) -> !ts.bool
  %5 = ts.aten.is_scripting : () -> !ts.bool
  return %0, %1, %2, %3, %4, %5 : !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool
}

// -----

// The dtype queries fold once the dtype is known (torch.is_signed is false
// for uint8 and bool only); the device queries once the type states the
// device (ts-specialize's device= states it for a whole function).
// CHECK-LABEL: func.func @dtype_queries(
// CHECK-DAG: %[[T:.*]] = ts.prim.Constant[true] : !ts.bool
// CHECK-DAG: %[[F:.*]] = ts.prim.Constant[false] : !ts.bool
// CHECK: %[[U:.*]] = ts.aten.is_floating_point %arg4
// CHECK: %[[V:.*]] = ts.prim.is_cuda %arg4
// CHECK: return %[[T]], %[[F]], %[[F]], %[[T]], %[[F]], %[[F]], %[[T]], %[[F]], %[[T]], %[[U]], %[[V]]
func.func @dtype_queries(%f: !ts.tensor<f16>, %l: !ts.tensor<si64>, %u: !ts.tensor<ui8>, %b: !ts.tensor<i1>, %x: !ts.tensor,
                         %gpu: !ts.tensor<f32, [2], device = "cuda:0">)
    -> (!ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool) {
  %0 = ts.aten.is_floating_point %f : (!ts.tensor<f16>) -> !ts.bool
  %1 = ts.aten.is_floating_point %l : (!ts.tensor<si64>) -> !ts.bool
  %2 = ts.aten.is_complex %f : (!ts.tensor<f16>) -> !ts.bool
  %3 = ts.aten.is_signed %l : (!ts.tensor<si64>) -> !ts.bool
  %4 = ts.aten.is_signed %u : (!ts.tensor<ui8>) -> !ts.bool
  %5 = ts.aten.is_signed %b : (!ts.tensor<i1>) -> !ts.bool
  %6 = ts.prim.is_cuda %gpu : (!ts.tensor<f32, [2], device = "cuda:0">) -> !ts.bool
  %7 = ts.prim.is_cpu %gpu : (!ts.tensor<f32, [2], device = "cuda:0">) -> !ts.bool
  %8 = ts.aten.is_signed %f : (!ts.tensor<f16>) -> !ts.bool
  %9 = ts.aten.is_floating_point %x : (!ts.tensor) -> !ts.bool
  %10 = ts.prim.is_cuda %x : (!ts.tensor) -> !ts.bool
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool, !ts.bool
}

// -----

// String queries of known strings: len counts code points ("é" is two
// bytes, one character), str of a device, an int or a bool prints as Python
// does, + concatenates; a float's str is left to run time.
// CHECK-LABEL: func.func @strings(
// CHECK-DAG: %[[N:.*]] = ts.prim.Constant[4] : !ts.int
// CHECK-DAG: %[[CPU:.*]] = ts.prim.Constant["cpu"] : !ts.str
// CHECK-DAG: %[[I:.*]] = ts.prim.Constant["-12"] : !ts.str
// CHECK-DAG: %[[B:.*]] = ts.prim.Constant["True"] : !ts.str
// CHECK-DAG: %[[CAT:.*]] = ts.prim.Constant["cpu-12"] : !ts.str
// CHECK: %[[FS:.*]] = ts.aten.str %arg0
// CHECK: return %[[N]], %[[CPU]], %[[I]], %[[B]], %[[CAT]], %[[FS]]
func.func @strings(%f: !ts.float) -> (!ts.int, !ts.str, !ts.str, !ts.str, !ts.str, !ts.str) {
  %s = ts.prim.Constant["café"] : !ts.str
  %d = ts.prim.Constant["cpu"] : !ts.device
  %i = ts.prim.Constant[-12] : !ts.int
  %t = ts.prim.Constant[true] : !ts.bool
  %0 = ts.aten.len.str %s : (!ts.str) -> !ts.int
  %1 = ts.aten.str %d : (!ts.device) -> !ts.str
  %2 = ts.aten.str %i : (!ts.int) -> !ts.str
  %3 = ts.aten.str %t : (!ts.bool) -> !ts.str
  %4 = ts.aten.add.str %1, %2 : (!ts.str, !ts.str) -> !ts.str
  %5 = ts.aten.str %f : (!ts.float) -> !ts.str
  return %0, %1, %2, %3, %4, %5 : !ts.int, !ts.str, !ts.str, !ts.str, !ts.str, !ts.str
}

// -----

// sum of a known list of ints, floats or bools; an unknown element leaves
// it.
// CHECK-LABEL: func.func @list_sums(
// CHECK-DAG: %[[I:.*]] = ts.prim.Constant[6] : !ts.int
// CHECK-DAG: %[[F:.*]] = ts.prim.Constant[4.000000e+00] : !ts.float
// CHECK-DAG: %[[B:.*]] = ts.prim.Constant[2] : !ts.int
// CHECK: %[[U:.*]] = ts.aten.sum.int
// CHECK: return %[[I]], %[[F]], %[[B]], %[[U]]
func.func @list_sums(%n: !ts.int) -> (!ts.int, !ts.float, !ts.int, !ts.int) {
  %ints = ts.prim.Constant[[1, 2, 3]] : !ts.list<!ts.int>
  %a = ts.prim.Constant[1.5] : !ts.float
  %b = ts.prim.Constant[2.5] : !ts.float
  %floats = ts.prim.ListConstruct %a, %b : (!ts.float, !ts.float) -> !ts.list<!ts.float>
  %t = ts.prim.Constant[true] : !ts.bool
  %f = ts.prim.Constant[false] : !ts.bool
  %bools = ts.prim.ListConstruct %t, %f, %t : (!ts.bool, !ts.bool, !ts.bool) -> !ts.list<!ts.bool>
  %some = ts.prim.ListConstruct %n, %n : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  %0 = ts.aten.sum.int %ints : (!ts.list<!ts.int>) -> !ts.int
  %1 = ts.aten.sum.float %floats : (!ts.list<!ts.float>) -> !ts.float
  %2 = ts.aten.sum.bool %bools : (!ts.list<!ts.bool>) -> !ts.int
  %3 = ts.aten.sum.int %some : (!ts.list<!ts.int>) -> !ts.int
  return %0, %1, %2, %3 : !ts.int, !ts.float, !ts.int, !ts.int
}

// -----

// Dropout in training with p = 0 keeps every element, scaled by 1.
// CHECK-LABEL: func.func @dropout_p0(
// CHECK-SAME:      %[[X:.+]]: !ts.tensor<f32, [2]>
// CHECK-NOT:     ts.aten.dropout
// CHECK:         return %[[X]]
func.func @dropout_p0(%x: !ts.tensor<f32, [2]>) -> !ts.tensor<f32, [2]> {
  %true = ts.prim.Constant[true] : !ts.bool
  %p = ts.prim.Constant[0.0] : !ts.float
  %0 = ts.aten.dropout %x, %p, %true : (!ts.tensor<f32, [2]>, !ts.float, !ts.bool) -> !ts.tensor<f32, [2]>
  return %0 : !ts.tensor<f32, [2]>
}

// -----

// The .Scalar overloads of constant tensors and numbers fold as the .Tensor
// ones do (traced graphs pad by rsub and remainder of sizes made 0-d
// tensors); a float with an int tensor promotes, and is left.
// CHECK-LABEL: func.func @scalar_op_constants(
// CHECK-DAG:     ts.prim.Constant[dense<5> : tensor<si64>]
// CHECK-DAG:     ts.prim.Constant[dense<2> : tensor<si64>]
// CHECK-DAG:     ts.prim.Constant[dense<[9, -3]> : tensor<2xsi64>]
// CHECK-DAG:     ts.prim.Constant[dense<[1.250000e+00, -7.500000e-01]> : tensor<2xf32>]
// CHECK-DAG:     ts.prim.Constant[dense<[2, -2]> : tensor<2xsi64>]
// CHECK:         ts.aten.add.Scalar
// CHECK-NOT:     ts.aten.rsub.Scalar
// CHECK-NOT:     ts.aten.remainder.Scalar
func.func @scalar_op_constants() -> (!ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor) {
  %int1 = ts.prim.Constant[1] : !ts.int
  %int7 = ts.prim.Constant[7] : !ts.int
  %int3 = ts.prim.Constant[3] : !ts.int
  %f = ts.prim.Constant[0.5] : !ts.float
  %two = ts.prim.Constant[dense<2> : tensor<si64>] : !ts.tensor<si64, []>
  %a = ts.aten.rsub.Scalar %two, %int7, %int1 : (!ts.tensor<si64, []>, !ts.int, !ts.int) -> !ts.tensor
  %b = ts.aten.remainder.Scalar %a, %int3 : (!ts.tensor, !ts.int) -> !ts.tensor
  %v = ts.prim.Constant[dense<[6, -6]> : tensor<2xsi64>] : !ts.tensor<si64, [2]>
  %c = ts.aten.add.Scalar %v, %int3, %int1 : (!ts.tensor<si64, [2]>, !ts.int, !ts.int) -> !ts.tensor
  %w = ts.prim.Constant[dense<[2.5, -1.5]> : tensor<2xf32>] : !ts.tensor<f32, [2]>
  %d = ts.aten.mul.Scalar %w, %f : (!ts.tensor<f32, [2]>, !ts.float) -> !ts.tensor
  %e = ts.aten.floor_divide.Scalar %v, %int3 : (!ts.tensor<si64, [2]>, !ts.int) -> !ts.tensor
  %g = ts.aten.add.Scalar %v, %f, %int1 : (!ts.tensor<si64, [2]>, !ts.float, !ts.int) -> !ts.tensor
  return %a, %b, %c, %d, %e, %g : !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor, !ts.tensor
}

// -----

// A value cast to an optional is None only when the value is: `dim is not
// None` of an int[] cast to int[]? folds (torch.norm's scripted body).
// CHECK-LABEL: func.func @is_none_through_cast(
// CHECK:         %[[FALSE:.+]] = ts.prim.Constant[false]
// CHECK:         %[[TRUE:.+]] = ts.prim.Constant[true]
// CHECK:         return %[[FALSE]], %[[TRUE]]
func.func @is_none_through_cast(%l: !ts.list<!ts.int>) -> (!ts.bool, !ts.bool) {
  %none = ts.prim.Constant : !ts.none
  %o = ts.prim.unchecked_cast %l : !ts.list<!ts.int> -> !ts.optional<!ts.list<!ts.int>>
  %0 = ts.aten.__is__ %o, %none : (!ts.optional<!ts.list<!ts.int>>, !ts.none) -> !ts.bool
  %1 = ts.aten.__isnot__ %o, %none : (!ts.optional<!ts.list<!ts.int>>, !ts.none) -> !ts.bool
  return %0, %1 : !ts.bool, !ts.bool
}

// -----

// A chain of casts is one object: back to the first value's type it folds
// to that value (torch.norm's dims: int[] to int[]? and back, twice).
// CHECK-LABEL: func.func @cast_chain(
// CHECK-SAME:    %[[L:.+]]: !ts.list<!ts.int>
// CHECK:         %[[O:.+]] = ts.prim.unchecked_cast %[[L]] : !ts.list<!ts.int> -> !ts.optional<!ts.list<!ts.int>>
// CHECK:         return %[[L]], %[[O]]
func.func @cast_chain(%l: !ts.list<!ts.int>) -> (!ts.list<!ts.int>, !ts.optional<!ts.list<!ts.int>>) {
  %0 = ts.prim.unchecked_cast %l : !ts.list<!ts.int> -> !ts.optional<!ts.list<!ts.int>>
  %1 = ts.prim.unchecked_cast %0 : !ts.optional<!ts.list<!ts.int>> -> !ts.list<!ts.int>
  %2 = ts.prim.unchecked_cast %1 : !ts.list<!ts.int> -> !ts.optional<!ts.list<!ts.int>>
  %3 = ts.prim.unchecked_cast %2 : !ts.optional<!ts.list<!ts.int>> -> !ts.list<!ts.int>
  %4 = ts.prim.unchecked_cast %3 : !ts.list<!ts.int> -> !ts.optional<!ts.list<!ts.int>>
  return %3, %4 : !ts.list<!ts.int>, !ts.optional<!ts.list<!ts.int>>
}

// -----

// `with torch.no_grad():` (OperatorCanonicalize.cpp): the grad-mode object,
// the write of its `prev` flag and the enter and exit around the block go;
// the block stays. An object whose exit result is read, and a user class's
// context manager, stay.
// CHECK-LABEL: func.func @grad_mode_block(
// CHECK-NEXT:    %[[R:.+]] = ts.aten.relu %arg0
// CHECK-NEXT:    return %[[R]]
// CHECK-LABEL: func.func @grad_mode_exit_read(
// CHECK:         ts.operator "prim::CreateObject"
// CHECK:         ts.prim.SetAttr
// CHECK:         ts.operator "prim::Enter"
// CHECK:         ts.operator "prim::Exit"
// CHECK-LABEL: func.func @user_context_manager(
// CHECK:         ts.operator "prim::CreateObject"
// CHECK:         ts.operator "prim::Enter"
// CHECK:         ts.operator "prim::Exit"
func.func @grad_mode_block(%x: !ts.tensor) -> !ts.tensor {
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.operator "prim::CreateObject"() : () -> !ts.class<"__torch__.torch.autograd.grad_mode.no_grad">
  ts.prim.SetAttr %0["prev"] = %false : !ts.class<"__torch__.torch.autograd.grad_mode.no_grad">, !ts.bool
  %1 = ts.operator "prim::Enter"(%0) : (!ts.class<"__torch__.torch.autograd.grad_mode.no_grad">) -> !ts.none
  %2 = ts.aten.relu %x : (!ts.tensor) -> !ts.tensor
  %3 = ts.operator "prim::Exit"(%0) : (!ts.class<"__torch__.torch.autograd.grad_mode.no_grad">) -> !ts.tensor
  return %2 : !ts.tensor
}
func.func @grad_mode_exit_read(%x: !ts.tensor) -> (!ts.tensor, !ts.tensor) {
  %false = ts.prim.Constant[false] : !ts.bool
  %0 = ts.operator "prim::CreateObject"() : () -> !ts.class<"__torch__.torch.autograd.grad_mode.no_grad">
  ts.prim.SetAttr %0["prev"] = %false : !ts.class<"__torch__.torch.autograd.grad_mode.no_grad">, !ts.bool
  %1 = ts.operator "prim::Enter"(%0) : (!ts.class<"__torch__.torch.autograd.grad_mode.no_grad">) -> !ts.none
  %2 = ts.aten.relu %x : (!ts.tensor) -> !ts.tensor
  %3 = ts.operator "prim::Exit"(%0) : (!ts.class<"__torch__.torch.autograd.grad_mode.no_grad">) -> !ts.tensor
  return %2, %3 : !ts.tensor, !ts.tensor
}
func.func @user_context_manager(%x: !ts.tensor) -> !ts.tensor {
  %0 = ts.operator "prim::CreateObject"() : () -> !ts.class<"__torch__.Timer">
  %1 = ts.operator "prim::Enter"(%0) : (!ts.class<"__torch__.Timer">) -> !ts.none
  %2 = ts.aten.relu %x : (!ts.tensor) -> !ts.tensor
  %3 = ts.operator "prim::Exit"(%0) : (!ts.class<"__torch__.Timer">) -> !ts.tensor
  return %2 : !ts.tensor
}

// -----

// A constant int or float cast to a number is a constant number (torch.norm
// casts its p so); a bool is not a number and stays cast.
// CHECK-LABEL: func.func @number_cast_of_constant(
// CHECK-DAG:     %[[I:.+]] = ts.prim.Constant[2] : !ts.number
// CHECK-DAG:     %[[F:.+]] = ts.prim.Constant[5.000000e-01] : !ts.number
// CHECK-DAG:     %[[B:.+]] = ts.prim.unchecked_cast %true : !ts.bool -> !ts.number
// CHECK:         return %[[I]], %[[F]], %[[B]]
func.func @number_cast_of_constant() -> (!ts.number, !ts.number, !ts.number) {
  %int2 = ts.prim.Constant[2] : !ts.int
  %f = ts.prim.Constant[0.5] : !ts.float
  %true = ts.prim.Constant[true] : !ts.bool
  %0 = ts.prim.unchecked_cast %int2 : !ts.int -> !ts.number
  %1 = ts.prim.unchecked_cast %f : !ts.float -> !ts.number
  %2 = ts.prim.unchecked_cast %true : !ts.bool -> !ts.number
  return %0, %1, %2 : !ts.number, !ts.number, !ts.number
}
