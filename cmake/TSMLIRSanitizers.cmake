# Sanitised builds (docs/reliability.md#sanitizers).
#
#   -DTSMLIR_ENABLE_ASAN_UBSAN=ON   AddressSanitizer (with LeakSanitizer) and
#                                   UndefinedBehaviorSanitizer
#   -DTSMLIR_ENABLE_TSAN=ON         ThreadSanitizer
#
# Every tsmlir library, tool, runtime and test program is compiled and linked
# with the sanitizer; the shared libMLIR/libLLVM of the Debian packages are
# used as they are (ASan still checks every heap block they allocate, since it
# replaces malloc for the whole process). A sanitizer report aborts the
# program: UBSan does not recover, so that no report passes unnoticed behind a
# test that expects a failure. scripts/sanitize.sh configures such a build in
# build-asan/ or build-tsan/ and runs the tests under it.
#
# Needs clang (clang-22 here): the two options are exclusive, and they turn
# the libFuzzer targets off (those carry their own instrumentation).

option(TSMLIR_ENABLE_ASAN_UBSAN
  "Build with AddressSanitizer, LeakSanitizer and UndefinedBehaviorSanitizer" OFF)
option(TSMLIR_ENABLE_TSAN "Build with ThreadSanitizer" OFF)
set(TSMLIR_SANITIZER_OPT "-O1" CACHE STRING
  "Optimisation of a sanitised build (after the build type's own flags)")

set(TSMLIR_SANITIZER_FLAGS "")
if(TSMLIR_ENABLE_ASAN_UBSAN AND TSMLIR_ENABLE_TSAN)
  message(FATAL_ERROR "TSMLIR_ENABLE_ASAN_UBSAN and TSMLIR_ENABLE_TSAN "
    "cannot be combined: ASan and TSan are exclusive")
endif()
if(TSMLIR_ENABLE_ASAN_UBSAN)
  # vptr needs RTTI, which LLVM-based code is built without; function
  # (indirect calls through a mistyped pointer) reports calls into the
  # uninstrumented libMLIR callbacks, as LLVM's own sanitised builds note.
  set(TSMLIR_SANITIZER_FLAGS
    -fsanitize=address,undefined -fno-sanitize=vptr,function
    -fno-sanitize-recover=all)
  set(TSMLIR_SANITIZER_NAME "ASan+UBSan")
elseif(TSMLIR_ENABLE_TSAN)
  set(TSMLIR_SANITIZER_FLAGS -fsanitize=thread)
  set(TSMLIR_SANITIZER_NAME "TSan")
endif()

if(TSMLIR_SANITIZER_FLAGS)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang" OR
     NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "${TSMLIR_SANITIZER_NAME} builds need clang "
      "(-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22)")
  endif()
  # Frame pointers and line tables: what a report's stack trace needs.
  add_compile_options(${TSMLIR_SANITIZER_FLAGS} -fno-omit-frame-pointer
                      -gline-tables-only ${TSMLIR_SANITIZER_OPT})
  add_link_options(${TSMLIR_SANITIZER_FLAGS})
  # Shared libraries leave the sanitizer runtime's symbols to the program
  # that loads them, so HandleLLVMOptions' -z defs cannot hold (LLVM drops it
  # in its own sanitised builds too).
  foreach(var CMAKE_SHARED_LINKER_FLAGS CMAKE_MODULE_LINKER_FLAGS)
    string(REPLACE "-Wl,-z,defs" "" ${var} "${${var}}")
  endforeach()
  if(TSMLIR_ENABLE_FUZZER)
    message(STATUS "${TSMLIR_SANITIZER_NAME} build: the libFuzzer targets are off")
  endif()
  set(TSMLIR_ENABLE_FUZZER OFF CACHE BOOL
    "Build the libFuzzer targets (off in a sanitised build)" FORCE)
  message(STATUS "Sanitised build: ${TSMLIR_SANITIZER_NAME} "
                 "(${TSMLIR_SANITIZER_FLAGS})")
endif()
# For lit (test/lit.site.cfg.py): the flags the tests' own C and C++
# programs are built with, so that they can link the sanitised runtime.
string(REPLACE ";" " " TSMLIR_SANITIZER_FLAGS_STRING "${TSMLIR_SANITIZER_FLAGS}")
