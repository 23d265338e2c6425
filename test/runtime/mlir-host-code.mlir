// The host code MLIR 22 emits for the gpu dialect (gpu-to-llvm and the
// #gpu.select_object translation), compiled, linked against the runtime and
// run on the fake driver: the module loads in the global constructors
// (mgpuModuleLoadJIT for PTX, mgpuModuleLoad for a binary), the launches, the
// async allocation and the unloads in the global destructors go through the
// runtime with the signatures MLIR uses.

// RUN: mlir-opt %s --gpu-to-llvm --convert-func-to-llvm --convert-arith-to-llvm --finalize-memref-to-llvm --reconcile-unrealized-casts \
// RUN:   | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: %clang -Wno-override-module %t.ll -o %t.exe -L%tsmlir_obj/lib -ltsmlir_cuda_runtime -Wl,-rpath,%tsmlir_obj/lib
// RUN: env TSMLIR_CUDA_DRIVER=%fakecuda %t.exe 2>&1 | FileCheck %s
// RUN: env TSMLIR_CUDA_DRIVER=%fakecuda FAKECUDA_NO_DEVICE=1 %t.exe 2>&1 | FileCheck %s --check-prefix=NODEV

// CHECK-NOT: tsmlir-cuda-runtime:
// CHECK: launches 3, sticky error 0

// Without a device the constructors report once; the launches are skipped.
// NODEV: tsmlir-cuda-runtime: no CUDA driver/device found (cuInit: CUDA_ERROR_NO_DEVICE)
// NODEV-NOT: tsmlir-cuda-runtime:
// NODEV: launches 0, sticky error 1

module attributes {gpu.container_module} {
  gpu.binary @ptx [#gpu.object<#nvvm.target, assembly = "// fake PTX\0A.version 8.0\0A.visible .entry fill_kernel(.param .u64 a)\0A">]
  gpu.binary @cubin [#gpu.object<#nvvm.target, bin = "\7FELF scale_kernel">]

  llvm.mlir.global internal constant @format("launches %ld, sticky error %d\0A\00") {addr_space = 0 : i32}
  llvm.func @printf(!llvm.ptr, ...) -> i32
  llvm.func @tsmlirCudaLaunchCount() -> i64
  llvm.func @tsmlirCudaGetStickyError(!llvm.ptr, i64) -> i32

  func.func @main() -> i32 {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    // Synchronous: a stream around the launch.
    %host = memref.alloc() : memref<128xf32>
    gpu.launch_func @ptx::@fill_kernel blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1) args(%host : memref<128xf32>)
    memref.dealloc %host : memref<128xf32>
    // Asynchronous: one stream along the token chain.
    %t0 = gpu.wait async
    %buffer, %t1 = gpu.alloc async [%t0] () : memref<128xf32>
    %t2 = gpu.launch_func async [%t1] @ptx::@fill_kernel blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1) args(%buffer : memref<128xf32>)
    %t3 = gpu.launch_func async [%t2] @cubin::@scale_kernel blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%buffer : memref<128xf32>)
    %t4 = gpu.dealloc async [%t3] %buffer : memref<128xf32>
    gpu.wait [%t4]

    %launches = llvm.call @tsmlirCudaLaunchCount() : () -> i64
    %null = llvm.mlir.zero : !llvm.ptr
    %zero = llvm.mlir.constant(0 : i64) : i64
    %code = llvm.call @tsmlirCudaGetStickyError(%null, %zero) : (!llvm.ptr, i64) -> i32
    %format = llvm.mlir.addressof @format : !llvm.ptr
    %printed = llvm.call @printf(%format, %launches, %code) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64, i32) -> i32
    %ok = arith.constant 0 : i32
    return %ok : i32
  }
}
