//===- KernelOps.td - Library kernel operations ------------*- tablegen -*-===//
//
// Part of the tsmlir project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef TSMLIR_DIALECT_KERNEL_IR_KERNELOPS_TD
#define TSMLIR_DIALECT_KERNEL_IR_KERNELOPS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Kernel_Dialect : Dialect {
  let name = "kernel";
  let cppNamespace = "::mlir::tsmlir::kernel";
  let summary = "Convolutions and matrix products run by a kernel library, "
                "with their epilogues";
  let description = [{
    A `kernel` op is one call into `libtsmlir_kernels` (oneDNN's kernels on
    the CPU): a convolution or a matrix product together with the pointwise
    chain that follows it (its epilogue: bias, activations, a residual add),
    which the library applies while each output tile is in registers.
    `ts-library-kernels` forms them from `ts` ops; they then go through the
    same lowering as everything else, holding `ts` tensors, builtin tensors
    (destination style: the `outs` operand) and finally buffers, until
    `convert-kernel-to-calls` makes each a call.
  }];
  let useDefaultAttributePrinterParser = 1;
}

// The values are those of enum tsmlir_kernel_step in
// runtime/include/tsmlir/Runtime/Kernels.h, the library's ABI.
def Kernel_StepKind : I32EnumAttr<"StepKind", "an epilogue step", [
    I32EnumAttrCase<"Relu", 1, "relu">,
    I32EnumAttrCase<"Clip", 2, "clip">,
    I32EnumAttrCase<"GeluErf", 3, "gelu_erf">,
    I32EnumAttrCase<"GeluTanh", 4, "gelu_tanh">,
    I32EnumAttrCase<"Swish", 5, "swish">,
    I32EnumAttrCase<"Hardswish", 6, "hardswish">,
    I32EnumAttrCase<"Sigmoid", 7, "sigmoid">,
    I32EnumAttrCase<"Tanh", 8, "tanh">,
    I32EnumAttrCase<"Elu", 9, "elu">,
    I32EnumAttrCase<"Linear", 10, "linear">,
    I32EnumAttrCase<"Residual", 11, "residual">]> {
  let cppNamespace = "::mlir::tsmlir::kernel";
  let genSpecializedAttr = 0;
}

def Kernel_StepAttr : AttrDef<Kernel_Dialect, "Step"> {
  let mnemonic = "step";
  let summary = "One step of an epilogue";
  let description = [{
    Applied to each output element y, in order: `relu` (y > 0 ? y :
    alpha * y), `clip` (min(max(y, alpha), beta)), `gelu_erf`, `gelu_tanh`,
    `swish` (y * sigmoid(alpha * y)), `hardswish`, `sigmoid`, `tanh`, `elu`
    (alpha * (exp(y) - 1) below 0), `linear` (alpha * y + beta), `residual`
    (y + the op's residual operand).

    ```mlir
    #kernel.step<clip, 0.0, 6.0>
    ```
  }];
  let parameters = (ins EnumParameter<Kernel_StepKind>:$kind,
                        APFloatParameter<"alpha (f64)">:$alpha,
                        APFloatParameter<"beta (f64)">:$beta);
  let hasCustomAssemblyFormat = 1;
  let builders = [
    AttrBuilder<(ins "StepKind":$kind, "double":$alpha, "double":$beta), [{
      return $_get($_ctxt, kind, ::llvm::APFloat(alpha), ::llvm::APFloat(beta));
    }]>
  ];
}

def Kernel_Epilogue : TypedArrayAttrBase<Kernel_StepAttr, "epilogue steps">;

class Kernel_Op<string mnemonic, list<Trait> traits = []>
    : Op<Kernel_Dialect, mnemonic, !listconcat(traits, [
        AttrSizedOperandSegments,
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
        DestinationStyleOpInterface])> {
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getInitMutable();
    }
  }];
  let hasVerifier = 1;
}

def Kernel_Conv2dOp : Kernel_Op<"conv2d"> {
  let summary = "A 2-D convolution and its epilogue";
  let description = [{
    PyTorch's `conv2d` of an f32 input [N, C, H, W] and weight
    [K, C / groups, R, S], plus `bias` [K] when given, then the `epilogue`
    steps; symmetric `padding`, `stride` and `dilation` as PyTorch counts
    them. On tensors the result is written into `outs`; on buffers `outs` is
    the output buffer and the op has no result.

    ```mlir
    %y = kernel.conv2d %x, %w bias(%b : tensor<64xf32>) outs(%e : tensor<1x64x56x56xf32>)
           {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>,
            dilation = array<i64: 1, 1>, groups = 1 : i64,
            epilogue = [#kernel.step<relu, 0.0, 0.0>]}
           : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
    ```
  }];
  let arguments = (ins AnyType:$input, AnyType:$weight,
                       Optional<AnyType>:$bias, Optional<AnyType>:$residual,
                       Optional<AnyType>:$init,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$dilation, I64Attr:$groups,
                       Kernel_Epilogue:$epilogue);
  let results = (outs Optional<AnyType>:$result);
  let assemblyFormat = [{
    $input `,` $weight (`bias` `(` $bias^ `:` type($bias) `)`)?
    (`residual` `(` $residual^ `:` type($residual) `)`)?
    (`outs` `(` $init^ `:` type($init) `)`)?
    attr-dict `:` type($input) `,` type($weight) (`->` type($result)^)?
  }];
}

def Kernel_MatmulOp : Kernel_Op<"matmul"> {
  let summary = "A matrix product and its epilogue";
  let description = [{
    `a` [..., M, K] times `w`: [K, N], or [N, K] with `transpose_w` (a
    linear layer's weight), the same for every leading index of `a`; or
    [B, K, N] (or [B, N, K]) with `a` [B, M, K]. Then `bias` [N] when given,
    then the `epilogue` steps. f32.
  }];
  let arguments = (ins AnyType:$a, AnyType:$w,
                       Optional<AnyType>:$bias, Optional<AnyType>:$residual,
                       Optional<AnyType>:$init, UnitAttr:$transpose_w,
                       Kernel_Epilogue:$epilogue);
  let results = (outs Optional<AnyType>:$result);
  let assemblyFormat = [{
    $a `,` $w (`bias` `(` $bias^ `:` type($bias) `)`)?
    (`residual` `(` $residual^ `:` type($residual) `)`)?
    (`outs` `(` $init^ `:` type($init) `)`)?
    attr-dict `:` type($a) `,` type($w) (`->` type($result)^)?
  }];
}

#endif // TSMLIR_DIALECT_KERNEL_IR_KERNELOPS_TD
