//===- SanitizerDefaults.cpp - AddressSanitizer defaults of the tools -----===//
//
// Linked into every tsmlir tool and fuzzer (add_tsmlir_tool); it matters only
// in a build with AddressSanitizer (TSMLIR_ENABLE_ASAN_UBSAN, the fuzzers).
//
// LLVM's BumpPtrAllocator poisons the unused part of each slab and unpoisons
// what it hands out, but only where llvm/Support/Compiler.h sees ASan. The
// tools inline some of the allocator (from MLIR's headers: type and attribute
// storage) while the rest runs in the uninstrumented libMLIR, which never
// unpoisons: ASan would report every read of such storage as
// use-after-poison. Manual poisoning is therefore off; every other check is
// kept, and $ASAN_OPTIONS still overrides these defaults.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
