// RUN: tsmlir-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the hand-written type parsers and verifiers
// (TorchScriptTypes.cpp), op verifiers (PrimOps.cpp, AtenVerifiers.cpp), and a
// few of the ODS operand constraints.

//===----------------------------------------------------------------------===//
// !ts.tensor
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'i32' is not a PyTorch dtype (expected one of f16, bf16, f32, f64, ui8, si8, si16, si32, si64, i1, complex<f16|f32|f64>)}}
func.func @tensor_signless_dtype(%a: !ts.tensor<i32>) {
  return
}

// -----

// expected-error @+1 {{'f8E4M3FN' is not a PyTorch dtype}}
func.func @tensor_unsupported_float(%a: !ts.tensor<f8E4M3FN>) {
  return
}

// -----

// expected-error @+1 {{'complex<si32>' is not a PyTorch dtype}}
func.func @tensor_integer_complex(%a: !ts.tensor<complex<si32>>) {
  return
}

// -----

// expected-error @+1 {{'!ts.int' is not a PyTorch dtype}}
func.func @tensor_ts_dtype(%a: !ts.tensor<!ts.int>) {
  return
}

// -----

// expected-error @+1 {{sizes and strides must be non-negative or '?', got -2}}
func.func @tensor_negative_size(%a: !ts.tensor<f32, [3, -2]>) {
  return
}

// -----

// expected-error @+1 {{strides must be non-negative or '?', got -1}}
func.func @tensor_negative_stride(%a: !ts.tensor<f32, [3], strides = [-1]>) {
  return
}

// -----

// expected-error @+1 {{strides given without sizes}}
func.func @tensor_strides_without_sizes(%a: !ts.tensor<f32, strides = [1]>) {
  return
}

// -----

// expected-error @+1 {{has 1 strides for rank 2}}
func.func @tensor_strides_rank(%a: !ts.tensor<f32, [2, 3], strides = [1]>) {
  return
}

// -----

// expected-error @+1 {{device must not be empty}}
func.func @tensor_empty_device(%a: !ts.tensor<f32, device = "">) {
  return
}

// -----

// expected-error @+1 {{expected 'true' or 'false'}}
func.func @tensor_requires_grad_int(%a: !ts.tensor<requires_grad = 1>) {
  return
}

// -----

// expected-error @+1 {{sizes given twice}}
func.func @tensor_sizes_twice(%a: !ts.tensor<f32, [2], [3]>) {
  return
}

// -----

// expected-error @+1 {{'strides' given twice}}
func.func @tensor_strides_twice(%a: !ts.tensor<f32, [2], strides = [1], strides = [1]>) {
  return
}

// -----

// expected-error @+1 {{'device' given twice}}
func.func @tensor_device_twice(%a: !ts.tensor<device = "cpu", device = "cuda:0">) {
  return
}

// -----

// expected-error @+1 {{'requires_grad' given twice}}
func.func @tensor_requires_grad_twice(%a: !ts.tensor<requires_grad = true, requires_grad = false>) {
  return
}

// -----

// expected-error @+1 {{expected 'strides', 'device' or 'requires_grad' after the dtype}}
func.func @tensor_two_dtypes(%a: !ts.tensor<f32, f64>) {
  return
}

// -----

// expected-error @+1 {{expected '='}}
func.func @tensor_keyword_without_value(%a: !ts.tensor<f32, device>) {
  return
}

// -----

// A refinement error inside a container type is reported too.
// expected-error @+2 {{sizes and strides must be non-negative or '?', got -1}}
// expected-error @+1 {{failed to parse TS_ListType parameter 'elementType'}}
func.func @tensor_in_list(%a: !ts.list<!ts.tensor<[-1]>>) {
  return
}

//===----------------------------------------------------------------------===//
// !ts.tuple
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{the name must come last}}
func.func @tuple_name_first(%a: !ts.tuple<name = "__torch__.Pair", !ts.int>) {
  return
}

// -----

// expected-error @+1 {{'name' given twice}}
func.func @tuple_name_twice(%a: !ts.tuple<!ts.int, name = "a", name = "b">) {
  return
}

//===----------------------------------------------------------------------===//
// prim::Constant
//===----------------------------------------------------------------------===//

// -----

func.func @constant_without_value() {
  // expected-error @+1 {{'ts.prim.Constant' op a constant of type '!ts.int' needs a value; only None, optionals and functions have none}}
  %0 = ts.prim.Constant : !ts.int
  return
}

// -----

func.func @constant_int_from_float() {
  // expected-error @+1 {{'ts.prim.Constant' op an integer constant needs a 64-bit signless integer value}}
  %0 = ts.prim.Constant[1.5] : !ts.int
  return
}

// -----

func.func @constant_int_i32() {
  // expected-error @+1 {{an integer constant needs a 64-bit signless integer value}}
  %0 = ts.prim.Constant[1 : i32] : !ts.int
  return
}

// -----

func.func @constant_int_signed() {
  // expected-error @+1 {{an integer constant needs a 64-bit signless integer value}}
  %0 = ts.prim.Constant[1 : si64] : !ts.int
  return
}

// -----

func.func @constant_dtype_from_string() {
  // expected-error @+1 {{an integer constant needs a 64-bit signless integer value}}
  %0 = ts.prim.Constant["float32"] : !ts.scalar_type
  return
}

// -----

func.func @constant_float_from_int() {
  // expected-error @+1 {{'ts.prim.Constant' op a float constant needs an f64 value}}
  %0 = ts.prim.Constant[1] : !ts.float
  return
}

// -----

func.func @constant_float_f32() {
  // expected-error @+1 {{a float constant needs an f64 value}}
  %0 = ts.prim.Constant[1.0 : f32] : !ts.float
  return
}

// -----

func.func @constant_bool_from_int() {
  // expected-error @+1 {{'ts.prim.Constant' op a bool constant needs 'true' or 'false'}}
  %0 = ts.prim.Constant[1] : !ts.bool
  return
}

// -----

func.func @constant_str_from_int() {
  // expected-error @+1 {{'ts.prim.Constant' op a str or Device constant needs a string value}}
  %0 = ts.prim.Constant[0] : !ts.str
  return
}

// -----

func.func @constant_device_from_int() {
  // expected-error @+1 {{a str or Device constant needs a string value}}
  %0 = ts.prim.Constant[0] : !ts.device
  return
}

// -----

func.func @constant_optional_wrong_value() {
  // expected-error @+1 {{an integer constant needs a 64-bit signless integer value}}
  %0 = ts.prim.Constant["x"] : !ts.optional<!ts.int>
  return
}

// -----

func.func @constant_list_not_array() {
  // expected-error @+1 {{'ts.prim.Constant' op a list constant needs an array value}}
  %0 = ts.prim.Constant[1] : !ts.list<!ts.int>
  return
}

// -----

func.func @constant_list_bad_element() {
  // expected-error @+1 {{a float constant needs an f64 value}}
  %0 = ts.prim.Constant[[1.0, 2]] : !ts.list<!ts.float>
  return
}

// -----

func.func @constant_tuple_wrong_size() {
  // expected-error @+1 {{'ts.prim.Constant' op a tuple constant needs an array of 2 values}}
  %0 = ts.prim.Constant[[1]] : !ts.tuple<!ts.int, !ts.str>
  return
}

// -----

func.func @constant_tuple_not_array() {
  // expected-error @+1 {{a tuple constant needs an array of 1 values}}
  %0 = ts.prim.Constant[1] : !ts.tuple<!ts.int>
  return
}

// -----

func.func @constant_tuple_bad_element() {
  // expected-error @+1 {{a str or Device constant needs a string value}}
  %0 = ts.prim.Constant[[1, 2]] : !ts.tuple<!ts.int, !ts.str>
  return
}

// -----

func.func @constant_tensor_not_elements() {
  // expected-error @+1 {{'ts.prim.Constant' op a tensor constant needs a dense or dense_resource value}}
  %0 = ts.prim.Constant[[1.0, 2.0]] : !ts.tensor<f32, [2]>
  return
}

// -----

func.func @constant_tensor_dtype() {
  // expected-error @+1 {{'ts.prim.Constant' op tensor constant of dtype 'f64' does not match the result dtype 'f32'}}
  %0 = ts.prim.Constant[dense<1.0> : tensor<2xf64>] : !ts.tensor<f32, [2]>
  return
}

// -----

func.func @constant_tensor_sizes() {
  // expected-error @+1 {{'ts.prim.Constant' op tensor constant of type 'tensor<3xf32>' does not match the result sizes}}
  %0 = ts.prim.Constant[dense<1.0> : tensor<3xf32>] : !ts.tensor<f32, [2]>
  return
}

// -----

func.func @constant_tensor_rank() {
  // expected-error @+1 {{tensor constant of type 'tensor<2x1xf32>' does not match the result sizes}}
  %0 = ts.prim.Constant[dense<1.0> : tensor<2x1xf32>] : !ts.tensor<[2]>
  return
}

// -----

func.func @constant_of_any() {
  // expected-error @+1 {{'ts.prim.Constant' op cannot make a constant of type '!ts.any'}}
  %0 = ts.prim.Constant[1] : !ts.any
  return
}

// -----

func.func @constant_function_with_value() {
  // expected-error @+1 {{cannot make a constant of type '!ts.function'}}
  %0 = ts.prim.Constant[1] {name = "f"} : !ts.function
  return
}

// -----

func.func @constant_function_without_name() {
  // expected-error @+1 {{'ts.prim.Constant' op of type '!ts.function' needs a 'name' attribute}}
  %0 = ts.prim.Constant : !ts.function
  return
}

// -----

func.func @constant_builtin_type() {
  // expected-error @+1 {{'ts.prim.Constant' op result #0 must be any TorchScript type, but got 'i64'}}
  %0 = ts.prim.Constant[1] : i64
  return
}

//===----------------------------------------------------------------------===//
// Lists, tuples and dicts
//===----------------------------------------------------------------------===//

// -----

func.func @list_construct_element(%a: !ts.int, %b: !ts.float) {
  // expected-error @+1 {{'ts.prim.ListConstruct' op element #1 of type '!ts.float' is not a subtype of '!ts.int'}}
  %0 = ts.prim.ListConstruct %a, %b : (!ts.int, !ts.float) -> !ts.list<!ts.int>
  return
}

// -----

func.func @list_construct_less_refined(%a: !ts.tensor) {
  // expected-error @+1 {{element #0 of type '!ts.tensor' is not a subtype of '!ts.tensor<f32>'}}
  %0 = ts.prim.ListConstruct %a : (!ts.tensor) -> !ts.list<!ts.tensor<f32>>
  return
}

// -----

func.func @list_construct_not_list(%a: !ts.int) {
  // expected-error @+1 {{'ts.prim.ListConstruct' op result #0 must be list, but got '!ts.tuple<!ts.int>'}}
  %0 = ts.prim.ListConstruct %a : (!ts.int) -> !ts.tuple<!ts.int>
  return
}

// -----

func.func @list_unpack_element(%l: !ts.list<!ts.int>) {
  // expected-error @+1 {{'ts.prim.ListUnpack' op result #1 of type '!ts.float' does not match the list element type '!ts.int'}}
  %0:2 = ts.prim.ListUnpack %l : !ts.list<!ts.int> -> !ts.int, !ts.float
  return
}

// -----

func.func @tuple_construct_count(%a: !ts.int) {
  // expected-error @+1 {{'ts.prim.TupleConstruct' op has 1 elements for a tuple type of 2}}
  %0 = ts.prim.TupleConstruct %a : (!ts.int) -> !ts.tuple<!ts.int, !ts.int>
  return
}

// -----

func.func @tuple_construct_element(%a: !ts.int, %b: !ts.str) {
  // expected-error @+1 {{'ts.prim.TupleConstruct' op element #1 of type '!ts.str' is not a subtype of '!ts.int'}}
  %0 = ts.prim.TupleConstruct %a, %b : (!ts.int, !ts.str) -> !ts.tuple<!ts.int, !ts.int>
  return
}

// -----

func.func @tuple_unpack_count(%t: !ts.tuple<!ts.int, !ts.str>) {
  // expected-error @+1 {{'ts.prim.TupleUnpack' op unpacks 1 results from a tuple of 2}}
  %0 = ts.prim.TupleUnpack %t : !ts.tuple<!ts.int, !ts.str> -> !ts.int
  return
}

// -----

func.func @tuple_unpack_element(%t: !ts.tuple<!ts.int, !ts.str>) {
  // expected-error @+1 {{'ts.prim.TupleUnpack' op result #1 of type '!ts.int' does not match the tuple element type '!ts.str'}}
  %0:2 = ts.prim.TupleUnpack %t : !ts.tuple<!ts.int, !ts.str> -> !ts.int, !ts.int
  return
}

// -----

func.func @tuple_index_out_of_range(%t: !ts.tuple<!ts.int, !ts.str>) {
  %c2 = ts.prim.Constant[2] : !ts.int
  // expected-error @+1 {{'ts.prim.TupleIndex' op index 2 is out of range for a tuple of 2}}
  %0 = ts.prim.TupleIndex %t, %c2 : (!ts.tuple<!ts.int, !ts.str>, !ts.int) -> !ts.int
  return
}

// -----

func.func @tuple_index_negative_out_of_range(%t: !ts.tuple<!ts.int, !ts.str>) {
  %cm3 = ts.prim.Constant[-3] : !ts.int
  // expected-error @+1 {{index -3 is out of range for a tuple of 2}}
  %0 = ts.prim.TupleIndex %t, %cm3 : (!ts.tuple<!ts.int, !ts.str>, !ts.int) -> !ts.int
  return
}

// -----

func.func @tuple_index_type(%t: !ts.tuple<!ts.int, !ts.str>) {
  %cm1 = ts.prim.Constant[-1] : !ts.int
  // expected-error @+1 {{'ts.prim.TupleIndex' op result type '!ts.int' does not match the tuple element type '!ts.str'}}
  %0 = ts.prim.TupleIndex %t, %cm1 : (!ts.tuple<!ts.int, !ts.str>, !ts.int) -> !ts.int
  return
}

// -----

func.func @dict_construct_odd(%k: !ts.str) {
  // expected-error @+1 {{'ts.prim.DictConstruct' op needs key, value pairs: an even number of operands}}
  %0 = ts.prim.DictConstruct %k : (!ts.str) -> !ts.dict<!ts.str, !ts.str>
  return
}

// -----

func.func @dict_construct_key(%k: !ts.int, %v: !ts.tensor) {
  // expected-error @+1 {{'ts.prim.DictConstruct' op operand #0 of type '!ts.int' is not a subtype of '!ts.str'}}
  %0 = ts.prim.DictConstruct %k, %v : (!ts.int, !ts.tensor) -> !ts.dict<!ts.str, !ts.tensor>
  return
}

// -----

func.func @dict_construct_value(%k: !ts.str, %v: !ts.int) {
  // expected-error @+1 {{operand #1 of type '!ts.int' is not a subtype of '!ts.tensor'}}
  %0 = ts.prim.DictConstruct %k, %v : (!ts.str, !ts.int) -> !ts.dict<!ts.str, !ts.tensor>
  return
}

// -----

func.func @constant_chunk_zero(%x: !ts.tensor) {
  // expected-error @+1 {{'ts.prim.ConstantChunk' op needs a positive number of chunks, got 0}}
  %0:2 = ts.prim.ConstantChunk %x {chunks = 0 : i64, dim = 0 : i64} : !ts.tensor -> !ts.tensor, !ts.tensor
  return
}

// -----

func.func @constant_chunk_count(%x: !ts.tensor) {
  // expected-error @+1 {{'ts.prim.ConstantChunk' op has 2 results for 3 chunks}}
  %0:2 = ts.prim.ConstantChunk %x {chunks = 3 : i64, dim = 0 : i64} : !ts.tensor -> !ts.tensor, !ts.tensor
  return
}

// -----

func.func @constant_chunk_dim(%x: !ts.tensor<f32, [4, 6]>) {
  // expected-error @+1 {{'ts.prim.ConstantChunk' op dimension -3 is out of range for a rank-2 tensor}}
  %0:2 = ts.prim.ConstantChunk %x {chunks = 2 : i64, dim = -3 : i64} : !ts.tensor<f32, [4, 6]> -> !ts.tensor, !ts.tensor
  return
}

// -----

// PyTorch cannot chunk a 0-d tensor, along any dimension.
func.func @constant_chunk_scalar(%x: !ts.tensor<f32, []>) {
  // expected-error @+1 {{dimension 0 is out of range for a rank-0 tensor}}
  %0:2 = ts.prim.ConstantChunk %x {chunks = 2 : i64, dim = 0 : i64} : !ts.tensor<f32, []> -> !ts.tensor, !ts.tensor
  return
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

// -----

func.func @if_condition_not_bool(%c: !ts.float) {
  // expected-error @+1 {{'ts.prim.If' op operand #0 must be TorchScript `bool` or TorchScript `int`, but got '!ts.float'}}
  "ts.prim.If"(%c) ({
    ts.prim.Yield
  }, {
    ts.prim.Yield
  }) : (!ts.float) -> ()
  return
}

// -----

func.func @if_then_count(%c: !ts.bool, %a: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{'ts.prim.If' op region 'then' yields 0 values for 1 results}}
  %r = ts.prim.If %c -> (!ts.tensor) {
    ts.prim.Yield
  } else {
    ts.prim.Yield %a : !ts.tensor
  }
  return %r : !ts.tensor
}

// -----

func.func @if_else_type(%c: !ts.bool, %a: !ts.tensor, %i: !ts.int) -> !ts.tensor {
  // expected-error @+1 {{'ts.prim.If' op region 'else' yields '!ts.int' for result #0 of type '!ts.tensor'}}
  %r = ts.prim.If %c -> (!ts.tensor) {
    ts.prim.Yield %a : !ts.tensor
  } else {
    ts.prim.Yield %i : !ts.int
  }
  return %r : !ts.tensor
}

// -----

func.func @if_yields_contradicting(%c: !ts.bool, %a: !ts.tensor<si64>) -> !ts.tensor<f32> {
  // expected-error @+1 {{region 'then' yields '!ts.tensor<si64>' for result #0 of type '!ts.tensor<f32>'}}
  %r = ts.prim.If %c -> (!ts.tensor<f32>) {
    ts.prim.Yield %a : !ts.tensor<si64>
  } else {
    ts.prim.Yield %a : !ts.tensor<si64>
  }
  return %r : !ts.tensor<f32>
}

// -----

func.func @loop_body_arguments(%n: !ts.int, %c: !ts.bool, %x: !ts.tensor) {
  // expected-error @+1 {{'ts.prim.Loop' op body takes 1 arguments; expected the iteration number and 1 carried values}}
  %r = ts.prim.Loop %n, %c init(%x) : (!ts.int, !ts.bool, !ts.tensor) -> !ts.tensor {
  ^bb0(%i: !ts.int):
    ts.prim.Yield %c, %x : !ts.bool, !ts.tensor
  }
  return
}

// -----

func.func @loop_iteration_number(%n: !ts.int, %c: !ts.bool) {
  // expected-error @+1 {{'ts.prim.Loop' op body's first argument (the iteration number) must be !ts.int, got '!ts.float'}}
  ts.prim.Loop %n, %c : (!ts.int, !ts.bool) -> () {
  ^bb0(%i: !ts.float):
    ts.prim.Yield %c : !ts.bool
  }
  return
}

// -----

func.func @loop_carried_type(%n: !ts.int, %c: !ts.bool, %x: !ts.int) {
  // expected-error @+1 {{'ts.prim.Loop' op carried value #0 of type '!ts.int' does not match the body argument type '!ts.float'}}
  %r = ts.prim.Loop %n, %c init(%x) : (!ts.int, !ts.bool, !ts.int) -> !ts.int {
  ^bb0(%i: !ts.int, %a: !ts.float):
    ts.prim.Yield %c, %x : !ts.bool, !ts.int
  }
  return
}

// -----

func.func @loop_result_count(%n: !ts.int, %c: !ts.bool, %x: !ts.int) {
  // expected-error @+1 {{'ts.prim.Loop' op has 0 results for 1 carried values}}
  ts.prim.Loop %n, %c init(%x) : (!ts.int, !ts.bool, !ts.int) -> () {
  ^bb0(%i: !ts.int, %a: !ts.int):
    ts.prim.Yield %c, %a : !ts.bool, !ts.int
  }
  return
}

// -----

func.func @loop_without_condition(%n: !ts.int, %c: !ts.bool) {
  // expected-error @+1 {{'ts.prim.Loop' op body must yield the continue condition (!ts.bool) first}}
  ts.prim.Loop %n, %c : (!ts.int, !ts.bool) -> () {
  ^bb0(%i: !ts.int):
    ts.prim.Yield
  }
  return
}

// -----

func.func @loop_condition_not_bool(%n: !ts.int, %c: !ts.bool, %x: !ts.int) {
  // expected-error @+1 {{body must yield the continue condition (!ts.bool) first}}
  %r = ts.prim.Loop %n, %c init(%x) : (!ts.int, !ts.bool, !ts.int) -> !ts.int {
  ^bb0(%i: !ts.int, %a: !ts.int):
    ts.prim.Yield %a, %c : !ts.int, !ts.bool
  }
  return
}

// -----

func.func @loop_yield_count(%n: !ts.int, %c: !ts.bool, %x: !ts.int) {
  // expected-error @+1 {{'ts.prim.Loop' op region 'body' yields 0 values for 1 results}}
  %r = ts.prim.Loop %n, %c init(%x) : (!ts.int, !ts.bool, !ts.int) -> !ts.int {
  ^bb0(%i: !ts.int, %a: !ts.int):
    ts.prim.Yield %c : !ts.bool
  }
  return
}

// -----

func.func @loop_yield_type(%n: !ts.int, %c: !ts.bool, %x: !ts.int, %f: !ts.float) {
  // expected-error @+1 {{'ts.prim.Loop' op region 'body' yields '!ts.float' for result #0 of type '!ts.int'}}
  %r = ts.prim.Loop %n, %c init(%x) : (!ts.int, !ts.bool, !ts.int) -> !ts.int {
  ^bb0(%i: !ts.int, %a: !ts.int):
    ts.prim.Yield %c, %f : !ts.bool, !ts.float
  }
  return
}

// -----

func.func @loop_trip_count_not_int(%n: !ts.float, %c: !ts.bool) {
  // expected-error @+1 {{'ts.prim.Loop' op operand #0 must be int, but got '!ts.float'}}
  ts.prim.Loop %n, %c : (!ts.float, !ts.bool) -> () {
  ^bb0(%i: !ts.int):
    ts.prim.Yield %c : !ts.bool
  }
  return
}

// -----

func.func @yield_outside_control_flow(%x: !ts.int) {
  // expected-error @+1 {{'ts.prim.Yield' op expects parent op to be one of 'ts.prim.If, ts.prim.Loop, ts.operator'}}
  ts.prim.Yield %x : !ts.int
}

//===----------------------------------------------------------------------===//
// Modules, calls, exceptions
//===----------------------------------------------------------------------===//

// -----

func.func @get_attr_of_tensor(%x: !ts.tensor) {
  // expected-error @+1 {{'ts.prim.GetAttr' op operand #0 must be module or class instance, but got '!ts.tensor'}}
  %0 = ts.prim.GetAttr %x["weight"] : !ts.tensor -> !ts.tensor
  return
}

// -----

func.func @call_function_of_int(%f: !ts.int) {
  // expected-error @+1 {{'ts.prim.CallFunction' op operand #0 must be TorchScript `Function`, but got '!ts.int'}}
  "ts.prim.CallFunction"(%f) : (!ts.int) -> ()
  return
}

// -----

func.func @raise_class_not_str(%msg: !ts.str, %cls: !ts.int) {
  // expected-error @+1 {{'ts.prim.RaiseException' op operand #1 must be str?, but got '!ts.int'}}
  ts.prim.RaiseException %msg, %cls : !ts.str, !ts.int
  return
}

//===----------------------------------------------------------------------===//
// Guards
//===----------------------------------------------------------------------===//

// -----

func.func @type_check_count(%x: !ts.tensor, %y: !ts.tensor) {
  // expected-error @+1 {{'ts.prim.TypeCheck' op has 2 results for 2 inputs; expected one per input and a !ts.bool}}
  %0:2 = ts.prim.TypeCheck %x, %y : (!ts.tensor, !ts.tensor) -> (!ts.tensor<f32>, !ts.bool)
  return
}

// -----

func.func @type_check_flag(%x: !ts.tensor) {
  // expected-error @+1 {{'ts.prim.TypeCheck' op last result must be !ts.bool, got '!ts.tensor'}}
  %0:2 = ts.prim.TypeCheck %x : (!ts.tensor) -> (!ts.tensor<f32>, !ts.tensor)
  return
}

// -----

func.func @type_check_not_refinement(%x: !ts.tensor<f64>) {
  // expected-error @+1 {{'ts.prim.TypeCheck' op result #0 of type '!ts.tensor<f32>' is not a refinement of the input type '!ts.tensor<f64>'}}
  %0:2 = ts.prim.TypeCheck %x : (!ts.tensor<f64>) -> (!ts.tensor<f32>, !ts.bool)
  return
}

// -----

func.func @type_check_of_int(%x: !ts.int) {
  // expected-error @+1 {{'ts.prim.TypeCheck' op operand #0 must be variadic of tensor, but got '!ts.int'}}
  %0:2 = ts.prim.TypeCheck %x : (!ts.int) -> (!ts.int, !ts.bool)
  return
}

// -----

func.func @requires_grad_check_not_refinement(%x: !ts.tensor<requires_grad = true>) {
  // expected-error @+1 {{'ts.prim.RequiresGradCheck' op result #0 of type '!ts.tensor<requires_grad = false>' is not a refinement of the input type '!ts.tensor<requires_grad = true>'}}
  %0:2 = ts.prim.RequiresGradCheck %x : (!ts.tensor<requires_grad = true>) -> (!ts.tensor<requires_grad = false>, !ts.bool)
  return
}

// -----

func.func @requires_grad_check_count(%x: !ts.tensor) {
  // expected-error @+1 {{'ts.prim.RequiresGradCheck' op has 1 results for 1 inputs; expected one per input and a !ts.bool}}
  %0 = ts.prim.RequiresGradCheck %x : (!ts.tensor) -> !ts.tensor
  return
}

// -----

func.func @bail_out_without_inputs() {
  // expected-error @+1 {{'ts.prim.BailOut' op needs the guarded value as its first operand}}
  %0 = ts.prim.BailOut {index = 0 : i64} : () -> !ts.tensor
  return
}

// -----

func.func @bail_out_not_refinement(%x: !ts.tensor<f32, [4]>) {
  // expected-error @+1 {{'ts.prim.BailOut' op result type '!ts.tensor<f32, [2]>' is not a refinement of the guarded value's type '!ts.tensor<f32, [4]>'}}
  %0 = ts.prim.BailOut %x {index = 0 : i64} : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [2]>
  return
}

// -----

func.func @bail_out_without_index(%x: !ts.tensor) {
  // expected-error @+1 {{'ts.prim.BailOut' op requires attribute 'index'}}
  %0 = ts.prim.BailOut %x : (!ts.tensor) -> !ts.tensor
  return
}

//===----------------------------------------------------------------------===//
// ts.operator
//===----------------------------------------------------------------------===//

// -----

func.func @operator_unqualified(%x: !ts.tensor) {
  // expected-error @+1 {{'ts.operator' op kind 'erfinv' is not a qualified operator name such as 'aten::foo' or 'aten::foo.overload'}}
  %0 = ts.operator "erfinv"(%x) : (!ts.tensor) -> !ts.tensor
  return
}

// -----

func.func @operator_no_namespace(%x: !ts.tensor) {
  // expected-error @+1 {{kind '::erfinv' is not a qualified operator name}}
  %0 = ts.operator "::erfinv"(%x) : (!ts.tensor) -> !ts.tensor
  return
}

// -----

func.func @operator_no_name(%x: !ts.tensor) {
  // expected-error @+1 {{kind 'aten::' is not a qualified operator name}}
  %0 = ts.operator "aten::"(%x) : (!ts.tensor) -> !ts.tensor
  return
}

// -----

func.func @operator_builtin_operand(%x: tensor<2xf32>) {
  // expected-error @+1 {{'ts.operator' op operand #0 must be variadic of any TorchScript type, but got 'tensor<2xf32>'}}
  %0 = ts.operator "aten::erfinv"(%x) : (tensor<2xf32>) -> !ts.tensor
  return
}

//===----------------------------------------------------------------------===//
// Schema ops: ODS operand constraints
//===----------------------------------------------------------------------===//

// -----

func.func @add_tensor_of_float(%f: !ts.float, %x: !ts.tensor, %one: !ts.int) {
  // expected-error @+1 {{'ts.aten.add.Tensor' op operand #0 must be tensor, but got '!ts.float'}}
  %0 = ts.aten.add.Tensor %f, %x, %one : (!ts.float, !ts.tensor, !ts.int) -> !ts.tensor
  return
}

// -----

func.func @add_int_of_float(%f: !ts.float, %i: !ts.int) {
  // expected-error @+1 {{'ts.aten.add.int' op operand #0 must be int, but got '!ts.float'}}
  %0 = ts.aten.add.int %f, %i : (!ts.float, !ts.int) -> !ts.int
  return
}

// -----

func.func @add_scalar_of_str(%x: !ts.tensor, %s: !ts.str, %one: !ts.int) {
  // expected-error @+1 {{'ts.aten.add.Scalar' op operand #1 must be scalar (int, float, bool, complex or Scalar), but got '!ts.str'}}
  %0 = ts.aten.add.Scalar %x, %s, %one : (!ts.tensor, !ts.str, !ts.int) -> !ts.tensor
  return
}

// -----

func.func @view_of_float_list(%x: !ts.tensor, %l: !ts.list<!ts.float>) {
  // expected-error @+1 {{'ts.aten.view' op operand #1 must be int[], but got '!ts.list<!ts.float>'}}
  %0 = ts.aten.view %x, %l : (!ts.tensor, !ts.list<!ts.float>) -> !ts.tensor
  return
}

// -----

func.func @softmax_dtype_of_str(%x: !ts.tensor, %d: !ts.int, %s: !ts.str) {
  // expected-error @+1 {{'ts.aten.softmax.int' op operand #2 must be ScalarType?, but got '!ts.str'}}
  %0 = ts.aten.softmax.int %x, %d, %s : (!ts.tensor, !ts.int, !ts.str) -> !ts.tensor
  return
}

// -----

func.func @wrong_operand_count(%x: !ts.tensor) {
  // expected-error @+1 {{'ts.aten.mm' op expected 2 operands, but found 1}}
  %0 = "ts.aten.mm"(%x) : (!ts.tensor) -> !ts.tensor
  return
}

//===----------------------------------------------------------------------===//
// Schema ops: broadcasting
//===----------------------------------------------------------------------===//

// -----

func.func @broadcast_mismatch(%a: !ts.tensor<f32, [2, 3]>, %b: !ts.tensor<f32, [4]>, %one: !ts.int) {
  // expected-error @+1 {{'ts.aten.add.Tensor' op operands of sizes [2, 3] and [4] cannot be broadcast together}}
  %0 = ts.aten.add.Tensor %a, %b, %one : (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [4]>, !ts.int) -> !ts.tensor
  return
}

// -----

func.func @broadcast_three_operands(%c: !ts.tensor<i1, [2, 1]>, %a: !ts.tensor<f32, [3]>, %b: !ts.tensor<f32, [5, 1, 1]>) {
  %0 = ts.aten.where.self %c, %a, %b : (!ts.tensor<i1, [2, 1]>, !ts.tensor<f32, [3]>, !ts.tensor<f32, [5, 1, 1]>) -> !ts.tensor<f32, [5, 2, 3]>
  %1 = ts.aten.where.self %c, %a, %a : (!ts.tensor<i1, [2, 1]>, !ts.tensor<f32, [3]>, !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [2, 3]>
  %d = ts.prim.Uninitialized : !ts.tensor<f32, [4]>
  // expected-error @+1 {{'ts.aten.where.self' op operands of sizes [2, 1] and [3] and [4] cannot be broadcast together}}
  %2 = ts.aten.where.self %c, %a, %d : (!ts.tensor<i1, [2, 1]>, !ts.tensor<f32, [3]>, !ts.tensor<f32, [4]>) -> !ts.tensor
  return
}

// -----

func.func @broadcast_result_rank(%a: !ts.tensor<f32, [2, 3]>, %b: !ts.tensor<f32, [3]>) {
  // expected-error @+1 {{'ts.aten.mul.Tensor' op result of rank 1 does not match the broadcast rank 2 of operands [2, 3] and [3]}}
  %0 = ts.aten.mul.Tensor %a, %b : (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [3]>
  return
}

// -----

func.func @broadcast_result_sizes(%a: !ts.tensor<f32, [2, 1]>, %b: !ts.tensor<f32, [3]>) {
  // expected-error @+1 {{'ts.aten.maximum' op result sizes [2, 4] do not match the broadcast sizes [2, 3]}}
  %0 = ts.aten.maximum %a, %b : (!ts.tensor<f32, [2, 1]>, !ts.tensor<f32, [3]>) -> !ts.tensor<f32, [2, 4]>
  return
}

// -----

// An unknown size beside a known one greater than 1 broadcasts to it
// (OpTrait::util::getBroadcastedShape), so the result's 3 is wrong.
func.func @broadcast_unknown_size(%a: !ts.tensor<f32, [?]>, %b: !ts.tensor<f32, [5]>, %c: !ts.int) {
  // expected-error @+1 {{'ts.aten.add.Tensor' op result sizes [3] do not match the broadcast sizes [5]}}
  %0 = ts.aten.add.Tensor %a, %b, %c : (!ts.tensor<f32, [?]>, !ts.tensor<f32, [5]>, !ts.int) -> !ts.tensor<f32, [3]>
  return
}

// -----

func.func @compare_tensor_result_dtype(%a: !ts.tensor<f32>, %b: !ts.tensor<f32>) {
  // expected-error @+1 {{'ts.aten.lt.Tensor' op result dtype must be i1 (Bool), got 'f32'}}
  %0 = ts.aten.lt.Tensor %a, %b : (!ts.tensor<f32>, !ts.tensor<f32>) -> !ts.tensor<f32>
  return
}

// -----

func.func @compare_tensor_broadcast(%a: !ts.tensor<f32, [2]>, %b: !ts.tensor<f32, [3]>) {
  // expected-error @+1 {{'ts.aten.eq.Tensor' op operands of sizes [2] and [3] cannot be broadcast together}}
  %0 = ts.aten.eq.Tensor %a, %b : (!ts.tensor<f32, [2]>, !ts.tensor<f32, [3]>) -> !ts.tensor<i1>
  return
}

// -----

func.func @compare_scalar_result_dtype(%a: !ts.tensor<f32>, %s: !ts.float) {
  // expected-error @+1 {{'ts.aten.ge.Scalar' op result dtype must be i1 (Bool), got 'si64'}}
  %0 = ts.aten.ge.Scalar %a, %s : (!ts.tensor<f32>, !ts.float) -> !ts.tensor<si64>
  return
}

//===----------------------------------------------------------------------===//
// Schema ops: dimension arguments
//===----------------------------------------------------------------------===//

// -----

func.func @softmax_dim(%x: !ts.tensor<f32, [2, 3]>, %none: !ts.none) {
  %c2 = ts.prim.Constant[2] : !ts.int
  // expected-error @+1 {{'ts.aten.softmax.int' op dimension 2 is out of range for a rank-2 tensor (expected [-2, 1])}}
  %0 = ts.aten.softmax.int %x, %c2, %none : (!ts.tensor<f32, [2, 3]>, !ts.int, !ts.none) -> !ts.tensor
  return
}

// -----

func.func @log_softmax_dim(%x: !ts.tensor<f32, [2, 3]>, %none: !ts.none) {
  %cm3 = ts.prim.Constant[-3] : !ts.int
  // expected-error @+1 {{'ts.aten.log_softmax.int' op dimension -3 is out of range for a rank-2 tensor (expected [-2, 1])}}
  %0 = ts.aten.log_softmax.int %x, %cm3, %none : (!ts.tensor<f32, [2, 3]>, !ts.int, !ts.none) -> !ts.tensor
  return
}

// -----

// A 0-d tensor has one wrappable dimension.
func.func @softmax_scalar_dim(%x: !ts.tensor<f32, []>, %none: !ts.none) {
  %c0 = ts.prim.Constant[0] : !ts.int
  %cm1 = ts.prim.Constant[-1] : !ts.int
  %c1 = ts.prim.Constant[1] : !ts.int
  %0 = ts.aten.softmax.int %x, %c0, %none : (!ts.tensor<f32, []>, !ts.int, !ts.none) -> !ts.tensor
  %1 = ts.aten.softmax.int %x, %cm1, %none : (!ts.tensor<f32, []>, !ts.int, !ts.none) -> !ts.tensor
  // expected-error @+1 {{dimension 1 is out of range for a rank-0 tensor (expected [-1, 0])}}
  %2 = ts.aten.softmax.int %x, %c1, %none : (!ts.tensor<f32, []>, !ts.int, !ts.none) -> !ts.tensor
  return
}

// -----

func.func @transpose_dim0(%x: !ts.tensor<f32, [2, 3]>) {
  %c0 = ts.prim.Constant[0] : !ts.int
  %c5 = ts.prim.Constant[5] : !ts.int
  // expected-error @+1 {{'ts.aten.transpose.int' op dim0 5 is out of range for a rank-2 tensor (expected [-2, 1])}}
  %0 = ts.aten.transpose.int %x, %c5, %c0 : (!ts.tensor<f32, [2, 3]>, !ts.int, !ts.int) -> !ts.tensor
  return
}

// -----

func.func @transpose_dim1(%x: !ts.tensor<f32, [2, 3]>) {
  %c0 = ts.prim.Constant[0] : !ts.int
  %c5 = ts.prim.Constant[5] : !ts.int
  // expected-error @+1 {{'ts.aten.transpose.int' op dim1 5 is out of range for a rank-2 tensor (expected [-2, 1])}}
  %0 = ts.aten.transpose.int %x, %c0, %c5 : (!ts.tensor<f32, [2, 3]>, !ts.int, !ts.int) -> !ts.tensor
  return
}

// -----

// unsqueeze has one more position than the rank.
func.func @unsqueeze_dim(%x: !ts.tensor<f32, [2, 3]>) {
  %c2 = ts.prim.Constant[2] : !ts.int
  %cm3 = ts.prim.Constant[-3] : !ts.int
  %c3 = ts.prim.Constant[3] : !ts.int
  %0 = ts.aten.unsqueeze %x, %c2 : (!ts.tensor<f32, [2, 3]>, !ts.int) -> !ts.tensor
  %1 = ts.aten.unsqueeze %x, %cm3 : (!ts.tensor<f32, [2, 3]>, !ts.int) -> !ts.tensor
  // expected-error @+1 {{'ts.aten.unsqueeze' op dimension 3 is out of range for a rank-2 tensor (expected [-3, 2])}}
  %2 = ts.aten.unsqueeze %x, %c3 : (!ts.tensor<f32, [2, 3]>, !ts.int) -> !ts.tensor
  return
}

// -----

func.func @select_dim(%x: !ts.tensor<f32, [2]>) {
  %c1 = ts.prim.Constant[1] : !ts.int
  // expected-error @+1 {{'ts.aten.select.int' op dimension 1 is out of range for a rank-1 tensor (expected [-1, 0])}}
  %0 = ts.aten.select.int %x, %c1, %c1 : (!ts.tensor<f32, [2]>, !ts.int, !ts.int) -> !ts.tensor
  return
}

// -----

func.func @size_dim(%x: !ts.tensor<f32, [2, 3]>) {
  %c2 = ts.prim.Constant[2] : !ts.int
  // expected-error @+1 {{'ts.aten.size.int' op dimension 2 is out of range for a rank-2 tensor (expected [-2, 1])}}
  %0 = ts.aten.size.int %x, %c2 : (!ts.tensor<f32, [2, 3]>, !ts.int) -> !ts.int
  return
}

// -----

func.func @squeeze_dim(%x: !ts.tensor<f32, [2, 1]>) {
  %cm3 = ts.prim.Constant[-3] : !ts.int
  // expected-error @+1 {{'ts.aten.squeeze.dim' op dimension -3 is out of range for a rank-2 tensor (expected [-2, 1])}}
  %0 = ts.aten.squeeze.dim %x, %cm3 : (!ts.tensor<f32, [2, 1]>, !ts.int) -> !ts.tensor
  return
}

// -----

func.func @cat_dim(%a: !ts.tensor<f32, [2, 3]>, %b: !ts.tensor) {
  %c2 = ts.prim.Constant[2] : !ts.int
  %l = ts.prim.ListConstruct %b, %a : (!ts.tensor, !ts.tensor<f32, [2, 3]>) -> !ts.list<!ts.tensor>
  // expected-error @+1 {{'ts.aten.cat' op dimension 2 is out of range for a rank-2 tensor (expected [-2, 1])}}
  %0 = ts.aten.cat %l, %c2 : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor
  return
}

// -----

func.func @cat_ranks(%a: !ts.tensor<f32, [2, 3]>, %b: !ts.tensor<f32, [2, 3, 4]>) {
  %c0 = ts.prim.Constant[0] : !ts.int
  %l = ts.prim.ListConstruct %a, %b : (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [2, 3, 4]>) -> !ts.list<!ts.tensor>
  // expected-error @+1 {{'ts.aten.cat' op concatenates tensors of ranks 2 and 3}}
  %0 = ts.aten.cat %l, %c0 : (!ts.list<!ts.tensor>, !ts.int) -> !ts.tensor
  return
}

//===----------------------------------------------------------------------===//
// Schema ops: views and permutations
//===----------------------------------------------------------------------===//

// -----

func.func @view_two_inferred(%x: !ts.tensor<f32, [2, 3]>) {
  %l = ts.prim.Constant[[-1, -1]] : !ts.list<!ts.int>
  // expected-error @+1 {{'ts.aten.view' op only one dimension can be inferred (-1)}}
  %0 = ts.aten.view %x, %l : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>) -> !ts.tensor
  return
}

// -----

func.func @view_negative_size(%x: !ts.tensor) {
  %c3 = ts.prim.Constant[3] : !ts.int
  %cm2 = ts.prim.Constant[-2] : !ts.int
  %l = ts.prim.ListConstruct %c3, %cm2 : (!ts.int, !ts.int) -> !ts.list<!ts.int>
  // expected-error @+1 {{'ts.aten.view' op invalid size -2}}
  %0 = ts.aten.view %x, %l : (!ts.tensor, !ts.list<!ts.int>) -> !ts.tensor
  return
}

// -----

func.func @view_element_count(%x: !ts.tensor<f32, [2, 3]>) {
  %l = ts.prim.Constant[[4, 2]] : !ts.list<!ts.int>
  // expected-error @+1 {{'ts.aten.view' op cannot view a tensor of sizes [2, 3] (6 elements) as [4, 2]}}
  %0 = ts.aten.view %x, %l : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>) -> !ts.tensor
  return
}

// -----

// Sizes whose product is past int64 fit no tensor.
func.func @view_element_count_overflows(%x: !ts.tensor<f32, [2, 3]>) {
  %l = ts.prim.Constant[[4611686018427387904, 4611686018427387904]] : !ts.list<!ts.int>
  // expected-error @+1 {{'ts.aten.view' op cannot view a tensor of sizes [2, 3] (6 elements) as [4611686018427387904, 4611686018427387904]}}
  %0 = ts.aten.view %x, %l : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>) -> !ts.tensor
  return
}

// -----

func.func @reshape_inferred_not_divisible(%x: !ts.tensor<f32, [2, 3]>) {
  %l = ts.prim.Constant[[4, -1]] : !ts.list<!ts.int>
  // expected-error @+1 {{'ts.aten.reshape' op cannot view a tensor of sizes [2, 3] (6 elements) as [4, -1]}}
  %0 = ts.aten.reshape %x, %l : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>) -> !ts.tensor
  return
}

// -----

func.func @reshape_inferred_next_to_zero(%x: !ts.tensor<f32, [2, 3]>) {
  %l = ts.prim.Constant[[0, -1]] : !ts.list<!ts.int>
  // expected-error @+1 {{cannot view a tensor of sizes [2, 3] (6 elements) as [0, -1]}}
  %0 = ts.aten.reshape %x, %l : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>) -> !ts.tensor
  return
}

// -----

func.func @permute_count(%x: !ts.tensor<f32, [2, 3]>) {
  %l = ts.prim.Constant[[0]] : !ts.list<!ts.int>
  // expected-error @+1 {{'ts.aten.permute' op permutes 1 dimensions of a rank-2 tensor}}
  %0 = ts.aten.permute %x, %l : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>) -> !ts.tensor
  return
}

// -----

func.func @permute_repeated(%x: !ts.tensor<f32, [2, 3]>) {
  %l = ts.prim.Constant[[0, -2]] : !ts.list<!ts.int>
  // expected-error @+1 {{'ts.aten.permute' op dims [0, -2] are not a permutation of 2 dimensions}}
  %0 = ts.aten.permute %x, %l : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>) -> !ts.tensor
  return
}

// -----

func.func @permute_out_of_range(%x: !ts.tensor<f32, [2, 3]>) {
  %l = ts.prim.Constant[[0, 2]] : !ts.list<!ts.int>
  // expected-error @+1 {{dims [0, 2] are not a permutation of 2 dimensions}}
  %0 = ts.aten.permute %x, %l : (!ts.tensor<f32, [2, 3]>, !ts.list<!ts.int>) -> !ts.tensor
  return
}

//===----------------------------------------------------------------------===//
// Schema ops: matrix products
//===----------------------------------------------------------------------===//

// -----

func.func @mm_rank(%a: !ts.tensor<f32, [2, 3, 4]>, %b: !ts.tensor) {
  // expected-error @+1 {{'ts.aten.mm' op expects rank-2 operands, got rank 3}}
  %0 = ts.aten.mm %a, %b : (!ts.tensor<f32, [2, 3, 4]>, !ts.tensor) -> !ts.tensor
  return
}

// -----

func.func @mm_contracting(%a: !ts.tensor<f32, [2, 3]>, %b: !ts.tensor<f32, [4, 5]>) {
  // expected-error @+1 {{'ts.aten.mm' op contracting dimensions differ: [2, 3] and [4, 5]}}
  %0 = ts.aten.mm %a, %b : (!ts.tensor<f32, [2, 3]>, !ts.tensor<f32, [4, 5]>) -> !ts.tensor
  return
}

// -----

func.func @bmm_rank(%a: !ts.tensor, %b: !ts.tensor<f32, [3, 4]>) {
  // expected-error @+1 {{'ts.aten.bmm' op expects rank-3 operands, got rank 2}}
  %0 = ts.aten.bmm %a, %b : (!ts.tensor, !ts.tensor<f32, [3, 4]>) -> !ts.tensor
  return
}

// -----

func.func @bmm_batch(%a: !ts.tensor<f32, [2, 3, 4]>, %b: !ts.tensor<f32, [5, 4, 6]>) {
  // expected-error @+1 {{'ts.aten.bmm' op batch dimensions differ: [2, 3, 4] and [5, 4, 6]}}
  %0 = ts.aten.bmm %a, %b : (!ts.tensor<f32, [2, 3, 4]>, !ts.tensor<f32, [5, 4, 6]>) -> !ts.tensor
  return
}

// -----

func.func @bmm_contracting(%a: !ts.tensor<f32, [?, 3, 4]>, %b: !ts.tensor<f32, [2, 5, 6]>) {
  // expected-error @+1 {{'ts.aten.bmm' op contracting dimensions differ: [?, 3, 4] and [2, 5, 6]}}
  %0 = ts.aten.bmm %a, %b : (!ts.tensor<f32, [?, 3, 4]>, !ts.tensor<f32, [2, 5, 6]>) -> !ts.tensor
  return
}

// -----

// An empty block has no terminator: the region checks say so.
func.func @if_empty_block(%c: !ts.bool, %x: !ts.tensor) -> !ts.tensor {
  // expected-error @+1 {{expects a non-empty block}}
  %r = "ts.prim.If"(%c) ({
  ^bb0:
  }, {
    ts.prim.Yield %x : !ts.tensor
  }) : (!ts.bool) -> !ts.tensor
  return %r : !ts.tensor
}

// -----

// The module state (TorchScriptDialect.cpp): a dictionary on a module.
// expected-error @+1 {{'ts.state_dict' must be a dictionary of attribute paths}}
module attributes {ts.state_dict = [1]} {
}

// -----

// expected-error @+1 {{'ts.state_dict' entry 'fc.weight' must be tensor data or a scalar, got [1, 2]}}
module attributes {ts.state_dict = {"fc.weight" = [1, 2]}} {
}

// -----

// expected-error @+1 {{'ts.state_dict' belongs on a builtin.module}}
func.func @state_dict_on_func() attributes {ts.state_dict = {}} {
  return
}

// -----

// A module's state written in place (ModuleStateOps.cpp).
func.func @state_missing() -> !ts.tensor<f32, [3]> {
  // expected-error @+1 {{'ts.module_state.read' op names no ts.module_state: @missing}}
  %0 = ts.module_state.read @missing : !ts.tensor<f32, [3]>
  return %0 : !ts.tensor<f32, [3]>
}

// -----

ts.module_state @s : !ts.tensor<f32, [3]> = dense<0.0> : tensor<3xf32>
func.func @state_type(%v: !ts.tensor<f32, [2]>) {
  // expected-error @+1 {{'ts.module_state.write' op has the type '!ts.tensor<f32, [2]>', and the state @s holds '!ts.tensor<f32, [3]>'}}
  ts.module_state.write @s = %v : !ts.tensor<f32, [2]>
  return
}

// -----

// expected-error @+1 {{'ts.module_state' op}}
ts.module_state @bad_value : !ts.tensor<f32, [3]> = dense<0> : tensor<2xi64>
