# Small wrappers around MLIR's CMake helpers, so that every tsmlir library and
# tool is declared the same way.
#
# All tsmlir code links the shared libMLIR.so / libLLVM.so (targets MLIR and
# LLVM). Never mix those with the static MLIR* component libraries in one
# binary: that registers every dialect and option twice.

# add_tsmlir_dialect_library(name sources... [DEPENDS ...] [LINK_LIBS ...])
function(add_tsmlir_dialect_library name)
  add_mlir_dialect_library(${name} ${ARGN} LINK_LIBS PUBLIC MLIR)
endfunction()

# add_tsmlir_library(name sources... [DEPENDS ...] [LINK_LIBS ...])
function(add_tsmlir_library name)
  add_mlir_library(${name} ${ARGN} LINK_LIBS PUBLIC MLIR)
endfunction()

# add_tsmlir_tool(name sources... LIBS libs...)
#
# Each tool gets tools/SanitizerDefaults.cpp: the AddressSanitizer options a
# sanitised build or a fuzzer needs with the uninstrumented libMLIR.
function(add_tsmlir_tool name)
  cmake_parse_arguments(ARG "" "" "LIBS" ${ARGN})
  add_llvm_executable(${name} ${ARG_UNPARSED_ARGUMENTS}
    ${TSMLIR_SOURCE_DIR}/tools/SanitizerDefaults.cpp)
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} MLIR LLVM)
  llvm_update_compile_flags(${name})
endfunction()

# add_tsmlir_doc(td_file output_name tblgen-args...)
# Generates Markdown reference docs from ODS into ${build}/docs/Dialects/.
# `ninja tsmlir-doc` builds them all; scripts/update-docs.sh copies them into
# docs/dialects/, and a lit test checks that the committed copies are current.
function(add_tsmlir_doc td_filename output_name)
  set(LLVM_TARGET_DEFINITIONS ${td_filename}.td)
  tablegen(MLIR ${output_name}.md ${ARGN})
  set(gen_doc ${TSMLIR_BINARY_DIR}/docs/Dialects/${output_name}.md)
  add_custom_command(OUTPUT ${gen_doc}
    COMMAND ${CMAKE_COMMAND} -E copy
            ${CMAKE_CURRENT_BINARY_DIR}/${output_name}.md ${gen_doc}
    DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/${output_name}.md)
  add_custom_target(${output_name}DocGen DEPENDS ${gen_doc})
  add_dependencies(tsmlir-doc ${output_name}DocGen)
endfunction()
