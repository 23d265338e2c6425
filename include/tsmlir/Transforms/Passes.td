//===- Passes.td - Lowering support passes -----------------*- tablegen -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_TRANSFORMS_PASSES_TD
#define TSMLIR_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TSDestinationStyleEntryPass
    : Pass<"ts-destination-style-entry", "::mlir::ModuleOp"> {
  let summary = "Give the entry function its results as output buffers";
  let description = [{
    Rewrites the entry function (option `entry`; by default `main`, else
    the only public function) of a module on builtin tensors so that it
    returns nothing and writes every result into a `memref` argument
    appended after its inputs (`bufferization.materialize_in_destination`);
    scalar results are written into 0-d memrefs. A caller that knows the
    static result shapes (as `tsmlir-run` and the ahead-of-time objects do)
    allocates the outputs and passes them in, and bufferisation writes each
    result straight into its output buffer. The function gets
    `llvm.emit_c_interface`.

    A result of dynamic shape (a tensor sized at run time) must be a
    `tensor.extract_slice` of unit strides of a tensor of static shape in
    every return. Its output buffer has that tensor's shape and receives
    the result in its leading corner; the result's sizes are written to a
    `memref<RANKxi64>` appended after all the outputs, one per such result,
    in order.

    A result of dynamic shape that is no such slice (a graph specialised
    for dynamic sizes) must have, for each dynamic size, that of a dim of
    one of the entry's arguments: an elementwise op's result has the sizes
    of its operands, a reduction's those of its input less the reduced
    dims. Its output buffer has dynamic sizes, and the entry gets the
    attribute `tsmlir.result_dims`, one `array<i64>` per result with an
    (argument, dim) pair per size (-1 and the size for a static one), from
    which the caller sizes the output buffers before each call.

    ```mlir
    // before
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32>
    // after
    func.func @f(%x: tensor<4xf32>, %out0: memref<4xf32>) attributes {llvm.emit_c_interface}
    ```
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"\"",
           "The function to rewrite (default: main, else the only public "
           "one)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def TSApproximateMathPass : Pass<"ts-approximate-math"> {
  let summary = "Expand f32 math functions into polynomials";
  let description = [{
    Rewrites `math.tanh`, `math.erf`, `math.exp`, `math.log`, `math.sin`, ...
    on `f32` into MLIR's polynomial approximations (a few ulp from libm), so
    that loops calling them stay free of calls and LLVM's loop vectorizer
    vectorizes them, as PyTorch's CPU kernels use vectorized SLEEF routines.
    `f64` math is left to LLVM and libm.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def TSOuterParallelLoopsPass
    : Pass<"ts-outer-parallel-loops", "::mlir::func::FuncOp"> {
  let summary = "Keep loop nests parallel on their outer dimension only";
  let description = [{
    Prepares the `scf.parallel` nests of `convert-linalg-to-parallel-loops`
    for threads: an outermost `scf.parallel` over several dimensions keeps
    the first one parallel and runs the others as `scf.for` loops inside it,
    so that each thread runs whole rows whose innermost loop LLVM can
    vectorize (OpenMP's collapsed loops compute every index with divisions
    and do not vectorize). A nest with less work than `min-work` iterations
    in all, or whose outer dimension is a single iteration, becomes
    sequential `scf.for` loops: starting threads costs more than it saves.
    Nested `scf.parallel` loops become sequential too.

    ```mlir
    // before
    scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c128) step (%c1, %c1) { ... }
    // after
    scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
      scf.for %j = %c0 to %c128 step %c1 { ... }
    }
    ```
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"32768",
           "Iterations a nest needs to stay parallel">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def TSPromoteAccumulatorsPass
    : Pass<"ts-promote-accumulators", "::mlir::func::FuncOp"> {
  let summary = "Keep reduction accumulators in registers, reassociable";
  let description = [{
    A reduction lowered to loops reads and writes its accumulator in memory
    on every iteration (`acc = load out[i]; store acc + x, out[i]`), which
    LLVM can neither keep in a register (the buffers might alias) nor
    vectorize. This pass turns such an `scf.for` into one that carries the
    accumulator (`iter_args`), loaded before and stored after the loop, and
    marks the combining float op `reassoc`, as PyTorch's vectorized
    reductions reassociate too: LLVM then vectorizes the loop.

    It applies when the loop's only store writes one memref at
    loop-invariant indices that the loop reads first, and nothing else in
    the loop touches that memref. Buffers of one linalg op's inputs and
    outputs never alias after bufferisation.

    ```mlir
    // before
    scf.for %j = %c0 to %c1024 step %c1 {
      %x = memref.load %in[%i, %j] : memref<8x1024xf32>
      %a = memref.load %out[%i] : memref<8xf32>
      %s = arith.addf %a, %x : f32
      memref.store %s, %out[%i] : memref<8xf32>
    }
    // after
    %a0 = memref.load %out[%i] : memref<8xf32>
    %r = scf.for %j = %c0 to %c1024 step %c1 iter_args(%a = %a0) -> (f32) {
      %x = memref.load %in[%i, %j] : memref<8x1024xf32>
      %s = arith.addf %a, %x fastmath<reassoc> : f32
      scf.yield %s : f32
    }
    memref.store %r, %out[%i] : memref<8xf32>
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def TSUnshareInitTensorsPass
    : Pass<"ts-unshare-init-tensors", "::mlir::func::FuncOp"> {
  let summary = "Give every use of a tensor.empty or fill its own copy";
  let description = [{
    CSE merges identical `tensor.empty` and `linalg.fill` ops, so two
    reductions of the same shape can share one zero-filled init, and two
    scans (scf.for loops carrying a tensor) one initial tensor. Before
    `eliminate-empty-tensors` turns an init into the output buffer of the
    result it becomes, each use of a shared init (a destination of a linalg
    or tensor op, a loop's initial value) gets its own copy of the fill (or
    empty tensor); otherwise the buffer of one result would also be the init
    of another.

    ```mlir
    // before
    %e = tensor.empty() : tensor<f32>
    %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %a = linalg.generic ... outs(%z : tensor<f32>)
    %b = linalg.generic ... outs(%z : tensor<f32>)
    // after: %b writes a fill of its own
    ```

    A branch of an `scf.if` that yields a tensor some other op also reads
    yields a copy of it: the elimination traces an output back through both
    branches and would make that tensor's init the output buffer, which the
    other branch's result then overwrites while the tensor is still read.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def TSMemrefCopyToLinalgPass
    : Pass<"ts-memref-copy-to-linalg", "::mlir::func::FuncOp"> {
  let summary = "Turn memref.copy into linalg.copy";
  let description = [{
    Bufferisation copies into strided views (padding, slices) with
    `memref.copy`, which the LLVM lowering turns into a call of the
    `memrefCopy` runtime function. As `linalg.copy`, the copy becomes loops
    like every other linalg op, and the compiled code needs no runtime
    library: neither the JIT nor an object file has to link one.

    ```mlir
    memref.copy %a, %b : memref<4xf32> to memref<4xf32, strided<[2]>>
    // becomes
    linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32, strided<[2]>>)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def TSRaiseHookPass : Pass<"ts-raise-hook", "::mlir::ModuleOp"> {
  let summary = "Let a failed cf.assert call tsmlir_raise(message) first";
  let description = [{
    `prim::RaiseException` (and the index checks of scatters) lower to
    `cf.assert`, whose LLVM lowering prints the message and aborts the
    process. Code run in process by a host that must survive it (the Python
    package, `tsmlir-run`) needs the failure back instead: this pass makes
    every `cf.assert` whose condition fails first call

    ```c
    void tsmlir_raise(const char *message);  // the assertion's message
    ```

    which the host defines. A host that catches the failure does not return
    from it (tsmlir's CPU runner longjmps back to the call of the compiled
    entry, on the thread that called it); when it returns, the assertion
    aborts as before. Each message becomes a constant global.

    ```mlir
    cf.assert %ok, "index out of range"
    // becomes
    %failed = arith.xori %ok, %true : i1
    scf.if %failed {
      %m = llvm.mlir.addressof @tsmlir_raise_message_0 : !llvm.ptr
      func.call @tsmlir_raise(%m) : (!llvm.ptr) -> ()
    }
    cf.assert %ok, "index out of range"
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect"];
}

def TSStaticBuffersPass : Pass<"ts-static-buffers", "::mlir::ModuleOp"> {
  let summary = "Allocate the temporaries of static shape once, not per call";
  let description = [{
    After bufferisation, every intermediate tensor of static shape that
    fusion did not remove is a `memref.alloc` in the entry block of a
    function, freed before it returns. Allocating megabytes on every call
    costs page faults (fresh memory from the kernel each time) that can
    exceed the loops themselves. This pass gives each such buffer a
    module-level global of its own (`memref.global`, uninitialised), read
    with `memref.get_global`, so a call touches memory that earlier calls
    already mapped; the deallocations of those buffers go away.

    The price: a compiled module runs one call at a time (its temporaries
    are shared between calls), as `tsmlir-run` calls it. Allocations inside
    loops, and of dynamic shape, are left as they are.

    ```mlir
    // before
    %t = memref.alloc() {alignment = 64 : i64} : memref<1024x1024xf32>
    ...
    memref.dealloc %t : memref<1024x1024xf32>
    // after
    memref.global "private" @__ts_buffer_0 : memref<1024x1024xf32> {alignment = 64 : i64}
    %t = memref.get_global @__ts_buffer_0 : memref<1024x1024xf32>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def TSLoopTemporariesOnStackPass
    : Pass<"ts-loop-temporaries-on-stack", "::mlir::func::FuncOp"> {
  let summary = "A loop body's small temporaries on the stack, allocated once";
  let description = [{
    A row loop (a fusion group's loop over the rows of softmax, layer_norm,
    ...) allocates its row temporaries, the row's max or sum and a row of
    exponentials, in its body: after bufferisation each is a `memref.alloc`
    freed at the end of the iteration, i.e. a `malloc` and a `free` per row
    and temporary, which cost as much as a short row's arithmetic. This
    pass turns each such buffer of static shape, of at most `max-bytes`
    bytes, that stays in the iteration (read, written, viewed and freed,
    never yielded, returned or passed to a call) into one `memref.alloca`
    at the start of the thread's code: the function's entry block, or the
    `omp.parallel` region it runs in, so that each thread has its own. The
    loop's iterations reuse it (each writes the temporary before reading
    it, as a fresh allocation's contents are undefined anyway); the
    deallocations go away. At most `max-total-bytes` go on the stack of
    one function or parallel region (a worker thread's stack is a few MiB);
    the rest stay on the heap.

    It runs after `convert-scf-to-openmp`: an `scf.parallel` still there
    runs its iterations one after the other.

    ```mlir
    // before
    scf.for %i = %c0 to %c1024 step %c1 {
      %row = memref.alloc() {alignment = 64 : i64} : memref<1x1024xf32>
      ...
      memref.dealloc %row : memref<1x1024xf32>
    }
    // after
    %row = memref.alloca() {alignment = 64 : i64} : memref<1x1024xf32>
    scf.for %i = %c0 to %c1024 step %c1 {
      ...
    }
    ```
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"65536",
           "the largest buffer (in bytes) put on the stack">,
    Option<"maxTotalBytes", "max-total-bytes", "int64_t", /*default=*/"262144",
           "the most bytes put on the stack of one function or parallel "
           "region">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def TSFlattenConstantGlobalsPass
    : Pass<"ts-flatten-constant-globals", "::mlir::ModuleOp"> {
  let summary = "Constant globals of several dimensions as one-dimensional ones";
  let description = [{
    A frozen module's parameters are constants: after bufferisation, each a
    `memref.global` with its values (a `dense_resource` blob). The LLVM
    dialect gives a global of N dimensions a nested array type
    (`[64 x [3 x [3 x [3 x float]]]]`), which LLVM builds and emits one
    innermost row at a time: for a model's weights, hundreds of thousands of
    small constants, seconds of translation and code generation. This pass
    gives each such global the one-dimensional type of its elements (the
    same bytes in the same order) and reads it through a
    `memref.expand_shape` to its shape, so the data is one flat array.

    ```mlir
    // before
    memref.global "private" constant @w : memref<64x3x3x3xf32> = dense_resource<w>
    %w = memref.get_global @w : memref<64x3x3x3xf32>
    // after
    memref.global "private" constant @w : memref<1728xf32> = dense_resource<w>
    %0 = memref.get_global @w : memref<1728xf32>
    %w = memref.expand_shape %0 [[0, 1, 2, 3]] output_shape [64, 3, 3, 3] : memref<1728xf32> into memref<64x3x3x3xf32>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

#endif // TSMLIR_TRANSFORMS_PASSES_TD
