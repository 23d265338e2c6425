# add_tsmlir_fuzzer: a libFuzzer target (docs/fuzzing.md, docs/reliability.md).
#
#   add_tsmlir_fuzzer(name sources...
#     [INSTRUMENT lib...]     tsmlir libraries whose sources are compiled into
#                             the fuzzer with the fuzzer's flags
#     [INSTRUMENT_SOURCES f...] single source files compiled in the same way
#     [LIBS lib...])          libraries linked as they are (uninstrumented)
#
# The fuzzer's own sources and the INSTRUMENT ones are compiled with
# TSMLIR_FUZZER_SANITIZE_FLAGS (coverage for libFuzzer, ASan, UBSan that
# aborts) and, with TSMLIR_FUZZER_ASSERTIONS, with assertions on (-UNDEBUG,
# which also turns on the asserts of the LLVM and MLIR headers they use:
# cast<>, ArrayRef bounds, ...; tools/FuzzerPrelude.h keeps the one layout
# that depends on NDEBUG, llvm::Statistic, as the release libraries have it). The libraries in LIBS and the shared
# libMLIR/libLLVM are the ordinary ones. Because tsmlir libraries are static
# archives, an instrumented copy of a source file is linked instead of the
# archive member of the same file, never beside it.
#
# Does nothing when TSMLIR_ENABLE_FUZZER is off (the option and the check
# that clang links libFuzzer live in tools/torchscript-import-fuzzer).

set(TSMLIR_FUZZER_SANITIZE_FLAGS
  -fsanitize=fuzzer,address,undefined
  -fno-sanitize-recover=undefined
  -fno-omit-frame-pointer)

function(add_tsmlir_fuzzer name)
  if(NOT TSMLIR_ENABLE_FUZZER)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "INSTRUMENT;INSTRUMENT_SOURCES;LIBS" ${ARGN})

  # The sources of each INSTRUMENT library, as its target lists them.
  set(instrumented ${ARG_INSTRUMENT_SOURCES})
  foreach(lib IN LISTS ARG_INSTRUMENT)
    # add_mlir_library keeps the sources on its object library, obj.<lib>.
    set(source_target ${lib})
    if(TARGET obj.${lib})
      set(source_target obj.${lib})
    endif()
    get_target_property(lib_sources ${source_target} SOURCES)
    get_target_property(lib_dir ${source_target} SOURCE_DIR)
    set(found OFF)
    foreach(src IN LISTS lib_sources)
      if(src MATCHES "\\.cpp$" AND NOT src MATCHES "^\\$<")
        if(NOT IS_ABSOLUTE "${src}")
          set(src "${lib_dir}/${src}")
        endif()
        list(APPEND instrumented "${src}")
        set(found ON)
      endif()
    endforeach()
    if(NOT found)
      message(FATAL_ERROR "${name}: no C++ sources found in ${lib}")
    endif()
  endforeach()

  add_tsmlir_tool(${name} ${ARG_UNPARSED_ARGUMENTS} ${instrumented}
    LIBS ${ARG_LIBS})
  # The instrumented libraries' generated headers (ODS, passes) come with
  # the libraries themselves.
  if(ARG_INSTRUMENT)
    add_dependencies(${name} ${ARG_INSTRUMENT})
  endif()
  # -O1 as libFuzzer's documentation suggests: fast enough to run, quick to
  # build; line tables are all a report's stack trace needs.
  target_compile_options(${name} PRIVATE
    ${TSMLIR_FUZZER_SANITIZE_FLAGS} -O1 -gline-tables-only)
  if(TSMLIR_FUZZER_ASSERTIONS)
    # With tools/FuzzerPrelude.h first, so that llvm::Statistic keeps the
    # layout of the release libLLVM/libMLIR (see there).
    target_compile_options(${name} PRIVATE -UNDEBUG
      -include ${TSMLIR_SOURCE_DIR}/tools/FuzzerPrelude.h)
  endif()
  target_link_options(${name} PRIVATE ${TSMLIR_FUZZER_SANITIZE_FLAGS})
  # Support/Dtype.cpp takes the C ABI's dtype codes from the runtime's header.
  target_include_directories(${name} PRIVATE
    ${TSMLIR_SOURCE_DIR}/runtime/include)
  set_property(GLOBAL APPEND PROPERTY TSMLIR_FUZZERS ${name})
endfunction()
