//===- Passes.td - TorchScript dialect passes --------------*- tablegen -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_PASSES_TD
#define TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TSReportUnknownOpsPass : Pass<"ts-report-unknown-ops"> {
  let summary = "Report, by qualified name, the operators tsmlir has no op for";
  let description = [{
    Every `ts.operator` is a node that import kept by name because the `ts`
    dialect has no op for it; later stages cannot compile it. This pass
    reports each distinct name once, at its first occurrence, with the number
    of occurrences, as a warning, or as an error that fails the pass with
    `fail=true` (what a compilation pipeline uses).

    ```mlir
    %y = ts.operator "aten::erfinv"(%x) : (!ts.tensor) -> !ts.tensor
    // warning: unsupported operator 'aten::erfinv' (1 occurrence)
    ```
  }];
  let options = [
    Option<"fail", "fail", "bool", /*default=*/"false",
           "Report errors and fail when an unsupported operator is found">
  ];
}

def TSUnrollLoopsPass : Pass<"ts-unroll-loops"> {
  let summary = "Unroll prim::Loop for loops with a constant trip count";
  let description = [{
    Replaces a `prim::Loop` that is a `for` loop (its initial condition and
    the condition its body yields are the constant `true`) with a known trip
    count by that many copies of its body, each with its iteration number as
    a constant, so that constant propagation, CSE and fusion see straight-line
    code. A loop is unrolled only when its trip count is at most
    `max-trip-count` and the copies hold at most `max-ops` ops in all;
    loops inside loops are unrolled first. Loops that stop early (a `while`
    loop, a `break`) are left alone.

    ```mlir
    %r = ts.prim.Loop %int3, %true init(%x) : (!ts.int, !ts.bool, !ts.tensor) -> !ts.tensor {
    ^bb0(%i: !ts.int, %a: !ts.tensor):
      %b = ts.aten.add.Tensor %a, %a, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
      ts.prim.Yield %true, %b : !ts.bool, !ts.tensor
    }
    // becomes three adds in a row.
    ```
  }];
  let options = [
    Option<"maxTripCount", "max-trip-count", "int64_t", /*default=*/"64",
           "Unroll loops of at most this many iterations">,
    Option<"maxOps", "max-ops", "int64_t", /*default=*/"512",
           "Unroll a loop only when its copies hold at most this many ops">
  ];
  let statistics = [
    Statistic<"numUnrolled", "loops-unrolled", "Loops unrolled">,
    Statistic<"numTooLarge", "loops-too-large",
              "Loops with a constant trip count left alone for their size">
  ];
}

def TSOptimizePass : Pass<"ts-optimize", "::mlir::ModuleOp"> {
  let summary = "The TorchScript graph optimisation pipeline, to a fixed point";
  let description = [{
    What PyTorch's JIT runs on a graph before it fuses, in one pass:

    1. once: `--ts-inline` of calls, `--ts-unroll-loops`;
    2. then, repeated until the module no longer changes (at most
       `max-iterations` rounds): `--ts-remove-mutation` (in-place ops and
       list appends on fresh, unaliased values become value semantics),
       `-canonicalize` (folders and peepholes, constant propagation through
       `prim::If` and `prim::Loop`, dead code elimination), `-cse` (merging
       only what side effects allow), `--ts-infer-shapes` (dtypes and sizes,
       which the next round's folders use: `aten::size`, `dim`, `numel`,
       `type_as`, same-shape views), `--ts-decompose` (composite ops whose
       sizes are now known; `keep` leaves the ops it names whole),
       `--ts-unroll-loops` (loops whose trip count became constant).

    To specialise first, run `--ts-specialize` before it; the shapes it
    states propagate through every round.

    Every pass it runs is reported by `--mlir-pass-statistics` and by
    `tsmlir-opt --ts-pass-statistics`, which prints the TorchScript nodes
    each pass removed.
  }];
  let options = [
    Option<"maxIterations", "max-iterations", "int64_t", /*default=*/"32",
           "Rounds of the simplification passes at most (they stop when a "
           "round changes nothing; a deep model whose layers each fold "
           "only once the one before is inferred takes a few per layer)">,
    Option<"unroll", "unroll", "bool", /*default=*/"true",
           "Unroll loops with a constant trip count">,
    Option<"inferShapes", "infer-shapes", "bool", /*default=*/"true",
           "Infer dtypes and sizes in every round">,
    Option<"removeMutation", "remove-mutation", "bool", /*default=*/"true",
           "Rewrite in-place ops into value semantics in every round">,
    Option<"maxTripCount", "max-trip-count", "int64_t", /*default=*/"64",
           "ts-unroll-loops: unroll loops of at most this many iterations">,
    Option<"maxUnrolledOps", "max-unrolled-ops", "int64_t", /*default=*/"512",
           "ts-unroll-loops: at most this many ops in the copies of a loop">,
    ListOption<"keep", "keep", "std::string",
               "ts-decompose: ops (by name, ts.aten.linalg_eigh) left whole">
  ];
  let statistics = [
    Statistic<"numIterations", "iterations",
              "Rounds of the simplification passes run">,
    Statistic<"numNodesRemoved", "nodes-removed",
              "TorchScript nodes the pipeline removed">
  ];
}

def TSInlinePass : Pass<"ts-inline", "::mlir::ModuleOp"> {
  let summary = "Inline prim::CallFunction and prim::CallMethod calls whose "
                "callee is a function of the module";
  let description = [{
    Replaces each call whose callee is a `func.func` of the same module with
    the callee's body, as PyTorch's `Inline` pass does. Calls resolve by name
    (`CallOpInterface`):

    * `ts.prim.CallFunction %f(...)`, where `%f` is
      `ts.prim.Constant {name = "helper"} : !ts.function`, calls
      `@helper`;
    * `ts.prim.CallMethod %obj["forward"](...)`, where `%obj` has class
      `!ts.class<"__torch__.foo.Bar">` (or `!ts.module<...>`), calls
      `@"__torch__.foo.Bar.forward"`, whose first argument is `self`.

    `tsmlir-translate --import-torchscript main.txt --import-function
    NAME=FILE ...` imports callee graphs into the module as private
    functions with such names.

    Inlining is recursive: calls in an inlined body are inlined in turn. A
    call that would re-enter a function being inlined (recursion) or go
    deeper than `max-depth` nested inlinings, a call whose callee is not in
    the module, and a callee whose signature does not fit the call are left
    as they are, with a remark when `remarks` is set. Inlined ops keep their
    callee's location inside a call site,
    `loc(callsite("x.1"("source.py":11:15) at "5"("source.py":15:11)))`,
    so exported graphs print the callee's source ranges as PyTorch's inlined
    graphs do. The callee constants are left for `-canonicalize` to remove.
    Private callees that no call refers to any more are erased
    (`remove-dead-callees`).

    ```mlir
    func.func private @helper(%a: !ts.tensor) -> !ts.tensor {
      %0 = ts.aten.sigmoid %a : (!ts.tensor) -> !ts.tensor
      return %0 : !ts.tensor
    }
    func.func @main(%x: !ts.tensor) -> !ts.tensor {
      %f = ts.prim.Constant {name = "helper"} : !ts.function
      %r = ts.prim.CallFunction %f(%x) : (!ts.tensor) -> !ts.tensor
      return %r : !ts.tensor
    }
    // becomes
    func.func @main(%x: !ts.tensor) -> !ts.tensor {
      %f = ts.prim.Constant {name = "helper"} : !ts.function
      %0 = ts.aten.sigmoid %x : (!ts.tensor) -> !ts.tensor
      return %0 : !ts.tensor
    }
    ```

    Each inlining clones the callee's body once, so the work is linear in
    the size of the inlined result.
  }];
  let options = [
    Option<"maxDepth", "max-depth", "unsigned", /*default=*/"64",
           "Calls nested deeper than this many inlined calls are left as "
           "they are">,
    Option<"removeDeadCallees", "remove-dead-callees", "bool",
           /*default=*/"true",
           "Erase private callees that no call refers to after inlining">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for each call left as it is, saying why">
  ];
  let statistics = [
    Statistic<"numInlined", "inlined", "Number of calls inlined">,
    Statistic<"numKept", "kept", "Number of calls left as they are">,
    Statistic<"numErased", "erased-callees",
              "Number of private callees erased after inlining">
  ];
}

def TSFreezePass : Pass<"ts-freeze", "::mlir::ModuleOp"> {
  let summary = "Freeze module attributes into constants, as "
                "torch.jit.freeze does";
  let description = [{
    For each function whose first argument is a module (`self`, of type
    `!ts.class<...>` or `!ts.module<...>`), inlines the calls whose bodies
    the module holds (the submodules' `forward`s, as `ts-inline` does), then
    replaces each `prim::GetAttr` chain from `self` that reads an attribute
    nothing can modify with a `ts.prim.Constant` of its value, and folds the
    result (`-canonicalize` patterns), repeating until nothing changes.

    The values come from the module's `ts.state_dict` attribute, a
    dictionary from dotted attribute paths (`fc1.weight`) to values: tensor
    data (`dense<...>` or `dense_resource<...>`) or scalars (`true`, `3`).
    `tsmlir-translate --import-torchscript --params FILE.safetensors` fills
    it from the safetensors file. An attribute called `training` that the
    dictionary does not hold is `false`: `torch.jit.freeze` requires a module
    in eval mode. Attributes the dictionary does not hold stay `GetAttr`s.

    An attribute is not frozen when it may change while the function runs:
    when a `prim::SetAttr` anywhere in the module writes an attribute of
    that name on an object of that class; when it is a tensor that an
    in-place op may write (through views, `prim::If` results and unchecked
    casts), that escapes into a container, a call, a `ts.operator` or
    another op whose effects are unknown, or whose running statistics a
    `batch_norm` that may train updates; and when an object on its path
    escapes (it is passed to a call that was not inlined, stored, returned).
    The module's state is read once, when freezing, so the constants hold
    the values at that time. `ts.state_dict` is removed afterwards.

    A tensor attribute that the function writes in place and that nothing
    else keeps from freezing (a layer's running statistics in training
    mode) becomes a `ts.module_state` holding its value: one
    `ts.module_state.read` at the function's entry replaces its reads, and a
    `ts.module_state.write` of it precedes each return, so that each call
    starts from the value the last one left.

    ```mlir
    module attributes {ts.state_dict = {"fc.weight" = dense<1.0> : tensor<2x2xf32>}} {
      func.func @forward(%self: !ts.class<"M">, %x: !ts.tensor) -> !ts.tensor {
        %fc = ts.prim.GetAttr %self["fc"] : !ts.class<"M"> -> !ts.class<"L">
        %w = ts.prim.GetAttr %fc["weight"] : !ts.class<"L"> -> !ts.tensor
        %y = ts.aten.matmul %x, %w : (!ts.tensor, !ts.tensor) -> !ts.tensor
        return %y : !ts.tensor
      }
    }
    // becomes
    func.func @forward(%self: !ts.class<"M">, %x: !ts.tensor) -> !ts.tensor {
      %w = ts.prim.Constant[dense<1.0> : tensor<2x2xf32>] : !ts.tensor
      %y = ts.aten.matmul %x, %w : (!ts.tensor, !ts.tensor) -> !ts.tensor
      return %y : !ts.tensor
    }
    ```

    Unlike `torch.jit.freeze`, this pass does not fold convolutions with
    batch norms or linear layers with one another; the graph keeps the
    module's ops.
  }];
  let options = [
    Option<"inlineCalls", "inline", "bool", /*default=*/"true",
           "Inline the calls whose callees the module holds first">,
    Option<"fold", "fold", "bool", /*default=*/"true",
           "Fold the frozen graph (canonicalization patterns)">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for each attribute read that is not frozen, "
           "saying why">
  ];
  let statistics = [
    Statistic<"numFrozen", "frozen", "Number of attribute reads frozen">,
    Statistic<"numKept", "kept",
              "Number of attribute reads left, their attribute mutable or "
              "unknown">
  ];
}

def TSRemoveMutationPass : Pass<"ts-remove-mutation", "::mlir::func::FuncOp"> {
  let summary = "Rewrite in-place tensor ops and list mutations into value "
                "semantics where aliasing allows";
  let description = [{
    Like PyTorch's `RemoveMutation`: an in-place op `aten::foo_(x, ...)`
    becomes its out-of-place form `aten::foo(x, ...)`, and every later use of
    `x` (and of the in-place op's result) uses the new value instead; an
    `aten::append` or `aten::_set_item` (constant index) on a list built by
    `prim::ListConstruct` becomes a new `prim::ListConstruct`.

    ```mlir
    %z = ts.aten.clone %x, %none : (!ts.tensor, !ts.none) -> !ts.tensor
    %0 = ts.aten.relu_ %z : (!ts.tensor) -> !ts.tensor
    return %z : !ts.tensor
    // becomes
    %z = ts.aten.clone %x, %none : (!ts.tensor, !ts.none) -> !ts.tensor
    %0 = ts.aten.relu %z : (!ts.tensor) -> !ts.tensor
    return %0 : !ts.tensor
    ```

    `fill_` becomes `full_like`, `zero_` `zeros_like`, and `copy_(self,
    src)` `to(expand_as(src, self), self, copy=True)` (broadcast to self's
    sizes, cast to its dtype and device). Where the out-of-place form of
    `add_`, `sub_`, `mul_` or `div_` with a tensor operand may promote to
    another dtype than self's (types that do not show both dtypes), an
    `aten::type_as` casts the result back (`preserve-dtype`); with
    `cast-unknown-dtypes=false` such an op is left in place instead, to be
    rewritten once shape inference has refined both dtypes (how
    `--ts-optimize` runs it).

    The rewrite is only made where no one can observe the difference, that
    is where the mutated value is a fresh object nothing else refers to:

    * it is created in the same function by an op whose result aliases none
      of its operands (not a function or block argument, a constant, a
      `GetAttr`, a view -- an op with the `ViewLike` trait -- or another op
      that may return an operand, such as `type_as`, `dropout` or an
      unchecked cast);
    * the mutation is in the same block as the value's definition (not in a
      `prim::If` branch or loop body when the value is defined outside);
    * before the mutation, the value is only read: it is not stored into a
      list, tuple or dict, passed to a call, a `ts.operator`, another
      in-place op or any op whose effects are unknown, yielded or returned;
      a view of it is allowed only when that view (and views of it) is only
      read, and only before the mutation.

    A loop body that mutates, directly, a value defined outside the loop
    and only reads it otherwise makes it a loop-carried value first
    (`prim::Loop ... init(%x)`), after which the body's mutations are
    rewritten as above. Everything else -- mutations in `prim::If`
    branches of outer values, of arguments, of views, of values that
    escaped, and in-place ops with no out-of-place form (`index_put_`) --
    is left as it is. The pass walks each function once.

    Out-of-place forms only differ from in-place ones in programs that would
    fail: an in-place op that cannot hold the result's broadcast sizes or
    dtype raises, while its rewrite runs.
  }];
  let options = [
    Option<"preserveDtype", "preserve-dtype", "bool", /*default=*/"true",
           "Cast the out-of-place result of add_/sub_/mul_/div_ with a "
           "tensor operand back to self's dtype when it may differ">,
    Option<"castUnknownDtypes", "cast-unknown-dtypes", "bool",
           /*default=*/"true",
           "With preserve-dtype: rewrite an op that may promote by adding "
           "an aten::type_as; when false, leave it in place until its "
           "operands' dtypes are known">,
    Option<"loopCarried", "loop-carried", "bool", /*default=*/"true",
           "Thread values mutated in loop bodies through the loop as "
           "carried values">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for each mutation left as it is, saying why">
  ];
  let statistics = [
    Statistic<"numRewritten", "rewritten",
              "Number of in-place ops and list mutations rewritten">,
    Statistic<"numKept", "kept",
              "Number of in-place ops and list mutations left as they are">,
    Statistic<"numLoopCarried", "loop-carried",
              "Number of values made loop-carried">
  ];
}

def TSDecomposePass : Pass<"ts-decompose"> {
  let summary = "Composite operators as the ops they are made of";
  let description = [{
    Rewrites operators that PyTorch implements by composing others into
    those others, so that shape inference, fusion and lowering only see ops
    they know:

    - `aten::lstm`, `aten::gru`, `aten::rnn_tanh`, `aten::rnn_relu`
      (`.input`): unrolled over time, per layer, direction and step, into the
      cell's `aten::linear`, `sigmoid`, `tanh`, `mul` and `add`; the reverse
      direction runs from the last step; the outputs are stacked over time
      and concatenated over directions; the last hidden (and cell) states
      stacked over layers. Needs the input's sizes (the number of steps) and
      the hidden state's (the hidden size), constant arguments, and the
      parameters as a list (a `prim::ListConstruct` or a constant);
      dropout between layers in training mode is not decomposed.
    - `aten::instance_norm`: with the input's statistics, `aten::group_norm`
      with one group per channel; else `aten::batch_norm` in evaluation mode
      with the running statistics.
    - `aten::var_mean`, `aten::std_mean`: the statistic and `aten::mean`.
    - `aten::mv`: `aten::matmul`; `aten::outer`: the product of the vectors
      unsqueezed; `aten::addmv`: `beta * self + alpha * (mat @ vec)`.
    - `aten::conv2d.padding` ("same", "valid"): `aten::conv2d` with int
      padding, after an `aten::constant_pad_nd` where "same" is uneven.

    An op whose sizes are not known yet stays; `--ts-optimize` runs this
    pass in every round, after shape inference.

    `keep` names ops to leave whole: a pipeline that differentiates keeps
    those whose derivative formula is PyTorch's for the whole op (the
    spectral decompositions, whose Jacobi sweeps are loops:
    `ts::getOpsDifferentiatedWhole()`) until the backward is built.

    ```mlir
    %out, %h, %c = ts.aten.lstm.input %x, %hx, %params, ...
    // -> per step: ts.aten.select.int, ts.aten.linear, ts.aten.narrow,
    //    ts.aten.sigmoid, ts.aten.tanh, ...; ts.aten.stack
    ```
  }];
  let options = [
    ListOption<"keep", "keep", "std::string",
               "Ops (by name, ts.aten.linalg_eigh) left whole">
  ];
}

def TSInferShapesPass : Pass<"ts-infer-shapes"> {
  let summary = "Infer tensor dtypes, sizes and devices forward through "
                "every function";
  let description = [{
    Refines the result types of the ops of every `func.func`, in place, from
    what is known of their operands, by one shape rule per op (a table keyed
    by op, one file per op family), then the function's result types from
    what it returns. A type only ever becomes more refined: where an
    existing type states a fact (a dtype, the rank, a size, the device), it
    is kept, even if a rule disagrees. Unknown sizes stay `?`, an unknown
    rank stays unknown. Results get no strides (except from ops that return
    their input itself) and no `requires_grad`; a device flows when every
    tensor operand states the same.

    The rules follow PyTorch 1.13: broadcasting; type promotion
    (`at::result_type`: dimensioned tensors, then 0-d tensors, then scalars,
    where an int tensor with a float scalar gives the default float, f32);
    comparisons give `i1`; true division and transcendental functions turn
    ints into f32; reductions with `dim` (int or list, negative, None),
    `keepdim` and `dtype`; softmax, layer and batch norm; matmul with 1-d
    operands and broadcast batch dims, mm, bmm, linear, addmm, baddbmm,
    dot; view and reshape with -1, flatten, permute, transpose, t,
    unsqueeze, squeeze, expand, cat, stack, slice (with clamping), select,
    narrow, chunk, split, unbind, index_select, index, repeat; convolutions
    and pooling (ceil_mode); factories (zeros, ones, full, arange, ..._like)
    with their `dtype` codes; casts (`to`, `type_as`). Scalar arguments are
    read from constants and from what the sweep folds (`aten::size` of a
    tensor of known sizes, int arithmetic on those).

    Control flow: `prim.If` results join both branches (a branch that
    raises does not count); `prim.Loop` carried values are iterated to a
    fixed point of their initial and yielded types; tuples and unmodified
    lists carry element types; `fusion.group`, `fusion.guarded` and
    `fusion.differentiable_graph` pass types into and out of their regions.
    A refinement a user would reject (a guard whose checked type would no
    longer refine it) is not made. Function arguments are never changed:
    that is `ts-specialize`'s job.

    ```mlir
    func.func @f(%x: !ts.tensor<f32, [4, 1, 3]>, %y: !ts.tensor<si64, [5, 1]>) -> !ts.tensor {
      %one = ts.prim.Constant[1] : !ts.int
      %0 = ts.aten.add.Tensor %x, %y, %one : (!ts.tensor<f32, [4, 1, 3]>, !ts.tensor<si64, [5, 1]>, !ts.int) -> !ts.tensor
      return %0 : !ts.tensor
    }
    // becomes
    func.func @f(%x: !ts.tensor<f32, [4, 1, 3]>, %y: !ts.tensor<si64, [5, 1]>) -> !ts.tensor<f32, [4, 5, 3]> {
      %one = ts.prim.Constant[1] : !ts.int
      %0 = ts.aten.add.Tensor %x, %y, %one : (...) -> !ts.tensor<f32, [4, 5, 3]>
      return %0 : !ts.tensor<f32, [4, 5, 3]>
    }
    ```
  }];
}

def TSReportUnknownShapesPass : Pass<"ts-report-unknown-shapes"> {
  let summary = "Report the ops whose tensor results no shape rule refines";
  let description = [{
    Run after `ts-infer-shapes`: every op that produces a tensor whose dtype
    or sizes are not fully known, and that has no shape rule, is reported
    once per op name (a `ts.operator` by its TorchScript kind), at its first
    occurrence, with the number of occurrences: a warning, or an error that
    fails the pass with `fail=true`. Ops that have a rule but whose results
    stay partly unknown because their inputs are (a function argument of
    unknown shape, a non-constant size) are not errors: one remark
    summarises them, by op name.

    ```mlir
    %w = ts.prim.GetAttr %self["weight"] : !ts.module<"M"> -> !ts.tensor
    // warning: no shape rule for 'ts.prim.GetAttr' (1 occurrence)
    %y = ts.aten.relu %x : (!ts.tensor) -> !ts.tensor
    // remark: 1 tensor result of ops with shape rules is not fully known
    //         because their inputs are not: ts.aten.relu (1)
    ```
  }];
  let options = [
    Option<"fail", "fail", "bool", /*default=*/"false",
           "Report errors and fail when an op has no shape rule">
  ];
}

def TSSpecializePass : Pass<"ts-specialize", "::mlir::ModuleOp"> {
  let summary = "Refine function argument types, then infer shapes";
  let description = [{
    Gives the tensor arguments of a function the dtypes and sizes of the
    inputs it will run on, then runs the inference of `ts-infer-shapes` on
    it. The options are parsed by the pass itself (MLIR's option syntax has
    no room for sizes), comma-separated:

    * `argN=DTYPE[d0,d1,...]`: argument N (counting every argument, `self`
      included) has this dtype (`f32`, `f64`, `f16`, `bf16`, `i64`, `i32`,
      `i16`, `i8`, `u8`, `bool`) and these sizes (`?` for an unknown size;
      `f32[]` is 0-d). The dtype or the sizes may be left out: `arg0=f32`,
      `arg0=[?,128]`.
    * `inputs=a.npy,b.npy,...`: the dtypes and shapes in the headers of
      these .npy files (only the headers are read; the data need not be
      there), for the tensor arguments in order; arguments of other types
      (a module's `self`, ints, optionals) are skipped.
    * `func=NAME`: the function to specialise. Without it: the only public
      function if there is one, else every function the spec fits.
    * `device=cpu|cuda|cuda:N`: every tensor of the function lives on this
      device (the one the compiled code runs on): `prim::device` becomes it,
      `prim::is_cuda` and `prim::is_cpu` constants, so that the device checks
      of library code (torch.nn's attention fast path) fold.

    The specialised types state the dtype and sizes only: no strides (the
    layout is the caller's), device or requires_grad. A spec that contradicts
    a fact an argument's type already states, an argument index out of
    range, an argument that is not a tensor, a bad spec or .npy file are
    errors that fail the pass.

    ```mlir
    // tsmlir-opt --ts-specialize="arg0=f32[64,128],arg1=f32[128]"
    func.func @f(%x: !ts.tensor, %b: !ts.tensor) -> !ts.tensor {
      %0 = ts.aten.add.Tensor %x, %b, %one : (!ts.tensor, !ts.tensor, !ts.int) -> !ts.tensor
      return %0 : !ts.tensor
    }
    // becomes
    func.func @f(%x: !ts.tensor<f32, [64, 128]>, %b: !ts.tensor<f32, [128]>) -> !ts.tensor<f32, [64, 128]> {
      %0 = ts.aten.add.Tensor %x, %b, %one : (...) -> !ts.tensor<f32, [64, 128]>
      return %0 : !ts.tensor<f32, [64, 128]>
    }
    ```
  }];
}

def TSInsertGuardsPass : Pass<"ts-insert-guards", "::mlir::ModuleOp"> {
  let summary = "Specialise a function behind a type guard, keeping its "
                "signature";
  let description = [{
    Takes the same options as `ts-specialize` and specialises the same
    functions, but keeps each one's signature: its body becomes a
    `fusion.guarded` whose `specialized` region is a copy of the body with
    the argument types of the spec (and everything inferred from them), and
    whose `fallback` region is the original body, for inputs of any other
    type. The guard checks what the specialised argument types state (dtype
    and sizes). Callers need not change; later passes compile the
    specialised region and keep the fallback for the interpreter, as
    PyTorch's profiling executor does with `prim::TypeCheck` and a fallback
    graph. The function's result types are refined only by what both
    regions agree on.

    ```mlir
    // tsmlir-opt --ts-insert-guards="arg0=f32[4]"
    func.func @f(%x: !ts.tensor) -> !ts.tensor {
      %0 = ts.aten.relu %x : (!ts.tensor) -> !ts.tensor
      return %0 : !ts.tensor
    }
    // becomes
    func.func @f(%x: !ts.tensor) -> !ts.tensor {
      %r = fusion.guarded(%x) : (!ts.tensor) -> !ts.tensor specialized {
      ^bb0(%a: !ts.tensor<f32, [4]>):
        %0 = ts.aten.relu %a : (!ts.tensor<f32, [4]>) -> !ts.tensor<f32, [4]>
        fusion.yield %0 : !ts.tensor<f32, [4]>
      } fallback {
      ^bb0(%a: !ts.tensor):
        %0 = ts.aten.relu %a : (!ts.tensor) -> !ts.tensor
        fusion.yield %0 : !ts.tensor
      }
      return %r : !ts.tensor
    }
    ```
  }];
  let dependentDialects = ["::mlir::tsmlir::fusion::FusionDialect"];
}

#endif // TSMLIR_DIALECT_TORCHSCRIPT_TRANSFORMS_PASSES_TD
