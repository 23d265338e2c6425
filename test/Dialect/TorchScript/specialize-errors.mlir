// Every error of ts-specialize and ts-insert-guards fails the pass and says
// what is wrong.

// Syntax, when the pass is created:
// RUN: not tsmlir-opt %s --ts-specialize 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: ts-specialize: expected argN=DTYPE[sizes], inputs=FILE.npy,..., func=NAME or device=DEVICE
// RUN: not tsmlir-opt %s --ts-specialize="arg0=f33[2]" 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: error: ts-specialize: bad type in 'arg0=f33[2]': unknown dtype 'f33' (expected u8, i8, i16, i32, i64, f16, f32, f64, bool or bf16)
// RUN: not tsmlir-opt %s --ts-specialize="arg0=f32[2,-3]" 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: error: ts-specialize: bad type in 'arg0=f32[2,-3]': bad size '-3' (expected a non-negative integer or '?')
// RUN: not tsmlir-opt %s --ts-specialize="arg0=f32[2" 2>&1 | FileCheck %s --check-prefix=BRACKET
// BRACKET: error: ts-specialize: bad type in 'arg0=f32[2': expected ']' at the end of the sizes
// RUN: not tsmlir-opt %s --ts-specialize="argx=f32" 2>&1 | FileCheck %s --check-prefix=INDEX
// INDEX: error: ts-specialize: bad argument 'argx': expected arg followed by its index, as arg0
// RUN: not tsmlir-opt %s --ts-specialize="shape=f32" 2>&1 | FileCheck %s --check-prefix=KEY
// KEY: error: ts-specialize: unknown key 'shape' (expected argN, inputs, func or device)
// RUN: not tsmlir-opt %s --ts-specialize="device=tpu" 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: error: ts-specialize: 'device=' must be cpu, cuda or cuda:N, not 'tpu'
// RUN: not tsmlir-opt %s --ts-specialize="func=f" 2>&1 | FileCheck %s --check-prefix=NOTHING
// NOTHING: error: ts-specialize: nothing to specialise for: expected argN=..., inputs=... or device=...
// RUN: not tsmlir-opt %s --ts-specialize="arg0=f32,arg0=f64" 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: ts-specialize: argument 0 is given twice
// RUN: not tsmlir-opt %s --ts-insert-guards="arg0=" 2>&1 | FileCheck %s --check-prefix=NOTYPE
// NOTYPE: error: ts-insert-guards: bad type in 'arg0=': expected a dtype, sizes in brackets, or both

// Against the functions, when the pass runs:
// RUN: not tsmlir-opt %s --ts-specialize="func=f,arg3=f32" 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: error: 'arg3=f32': argument 3 is out of range: @f has 3 arguments
// RUN: not tsmlir-opt %s --ts-specialize="func=f,arg2=f32" 2>&1 | FileCheck %s --check-prefix=NOTTENSOR
// NOTTENSOR: error: 'arg2=f32': argument 2 of @f is not a tensor but '!ts.int'
// RUN: not tsmlir-opt %s --ts-specialize="func=f,arg1=f64[4]" 2>&1 | FileCheck %s --check-prefix=CONTRADICT
// CONTRADICT: error: 'arg1=f64[4]' contradicts the type '!ts.tensor<f32>' of argument 1 of @f
// RUN: not tsmlir-opt %s --ts-specialize="func=guarded,arg0=f32[5]" 2>&1 | FileCheck %s --check-prefix=GUARD
// GUARD: error: 'arg0=f32[5]' contradicts what 'ts.prim.TypeCheck' expects of argument 0 of @guarded
// RUN: not tsmlir-opt %s --ts-specialize="func=nope,arg0=f32" 2>&1 | FileCheck %s --check-prefix=NOFUNC
// NOFUNC: error: no function @nope with a body to specialise
// RUN: not tsmlir-opt %s --ts-specialize="arg5=f32" 2>&1 | FileCheck %s --check-prefix=NOFIT
// NOFIT: error: 'arg5=f32': argument 5 is out of range: @f has 3 arguments
// NOFIT: error: the specialisation fits none of the 3 functions; name one with func=NAME
// RUN: not tsmlir-opt %s --ts-insert-guards="func=optional,arg0=f32" 2>&1 | FileCheck %s --check-prefix=OPTIONAL
// OPTIONAL: error: 'arg0=f32': argument 0 of @optional is optional ('!ts.optional<!ts.tensor>'); a guard checks tensors only

// .npy files:
// RUN: not tsmlir-opt %s --ts-specialize="func=f,inputs=%S/Inputs/npy/missing.npy" 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: cannot specialise for input '{{.*}}missing.npy': cannot read: {{[Nn]}}o such file or directory
// RUN: not tsmlir-opt %s --ts-specialize="func=f,inputs=%S/Inputs/npy/not_npy.npy" 2>&1 | FileCheck %s --check-prefix=MAGIC
// MAGIC: error: cannot specialise for input '{{.*}}not_npy.npy': not a .npy file: no \x93NUMPY magic
// RUN: not tsmlir-opt %s --ts-specialize="func=f,inputs=%S/Inputs/npy/truncated_header.npy" 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: error: cannot specialise for input '{{.*}}truncated_header.npy': truncated .npy header: 118 header bytes announced, 30 present
// RUN: not tsmlir-opt %s --ts-specialize="func=f,inputs=%S/Inputs/npy/unknown_key.npy" 2>&1 | FileCheck %s --check-prefix=KEYNPY
// KEYNPY: error: cannot specialise for input '{{.*}}unknown_key.npy': malformed header dict at offset {{[0-9]+}}: unexpected key 'extra'
// RUN: not tsmlir-opt %s --ts-specialize="func=f,inputs=%S/Inputs/npy/u16_4.npy" 2>&1 | FileCheck %s --check-prefix=U16
// U16: error: cannot specialise for input '{{.*}}u16_4.npy': its dtype '<u2' has no PyTorch dtype
// RUN: not tsmlir-opt %s --ts-specialize="func=f,inputs=%S/Inputs/npy/f32_2x3.npy,%S/Inputs/npy/f32_2x3.npy,%S/Inputs/npy/f32_2x3.npy" 2>&1 | FileCheck %s --check-prefix=TOOMANY
// TOOMANY: error: 3 inputs given for the 2 tensor arguments of @f

func.func @f(%x: !ts.tensor, %y: !ts.tensor<f32>, %n: !ts.int) -> !ts.tensor {
  return %x : !ts.tensor
}

func.func @guarded(%x: !ts.tensor) -> !ts.bool {
  %checked, %ok = ts.prim.TypeCheck %x : (!ts.tensor) -> (!ts.tensor<f32, [4]>, !ts.bool)
  return %ok : !ts.bool
}

func.func @optional(%x: !ts.optional<!ts.tensor>) {
  return
}
