// RUN: tsmlir-opt %s -ts-report-unknown-ops -split-input-file -verify-diagnostics
// RUN: not tsmlir-opt %s -ts-report-unknown-ops=fail=true 2>&1 | FileCheck %s --check-prefix=FAIL

// Each distinct name is reported once, at its first occurrence, with a count.
func.func @unknown(%x: !ts.tensor) -> !ts.tensor {
  // expected-warning @+1 {{unsupported operator 'aten::erfinv' (2 occurrences)}}
  %0 = ts.operator "aten::erfinv"(%x) : (!ts.tensor) -> !ts.tensor
  // expected-warning @+1 {{unsupported operator 'prim::profile' (1 occurrence)}}
  %1 = ts.operator "prim::profile"(%0) : (!ts.tensor) -> !ts.tensor
  %2 = ts.operator "aten::erfinv"(%1) : (!ts.tensor) -> !ts.tensor
  return %2 : !ts.tensor
}

// -----

// A modelled kind whose types fit none of its overloads says so.
func.func @no_overload(%x: !ts.tensor) -> !ts.tensor {
  // expected-warning @+1 {{unsupported operator 'aten::relu' (1 occurrence): no overload takes ('!ts.tensor', '!ts.tensor') -> ('!ts.tensor')}}
  %0 = ts.operator "aten::relu"(%x, %x) : (!ts.tensor, !ts.tensor) -> !ts.tensor
  return %0 : !ts.tensor
}

// -----

// Modelled ops are not reported.
func.func @known(%x: !ts.tensor) -> !ts.tensor {
  %0 = ts.aten.sigmoid %x : (!ts.tensor) -> !ts.tensor
  return %0 : !ts.tensor
}

// FAIL: error: unsupported operator 'aten::erfinv' (2 occurrences)
// FAIL: error: unsupported operator 'prim::profile' (1 occurrence)
