# adgen_add_derivative: generate derivative C code with adgen as part of a CMake build.
#
#   execute_process(COMMAND adgen --print-cmake-module
#                   OUTPUT_VARIABLE ADGEN_CMAKE OUTPUT_STRIP_TRAILING_WHITESPACE)
#   include(${ADGEN_CMAKE})
#   adgen_add_derivative(OUTPUT model_b.c SOURCES model.c HEAD "f(y)/(x)"
#                        [MODE reverse|forward] [OPTIONS --size x=n ...])
#   add_library(model model.c ${CMAKE_CURRENT_BINARY_DIR}/model_b.c)
#
# The output is regenerated when a source, a header it includes or a rules file changes
# (adgen writes a dependency file with -MF, read through DEPFILE: CMake 3.20 or later for
# the Makefile generators, any recent CMake with Ninja).
function(adgen_add_derivative)
  cmake_parse_arguments(AD "" "OUTPUT;HEAD;MODE" "SOURCES;OPTIONS" ${ARGN})
  if(NOT AD_OUTPUT OR NOT AD_SOURCES)
    message(FATAL_ERROR "adgen_add_derivative: OUTPUT and SOURCES are required")
  endif()
  if(NOT AD_MODE)
    set(AD_MODE reverse)
  endif()
  if(NOT ADGEN_EXECUTABLE)
    find_program(ADGEN_EXECUTABLE adgen REQUIRED)
  endif()
  get_filename_component(out "${AD_OUTPUT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  set(srcs)
  foreach(s IN LISTS AD_SOURCES)
    get_filename_component(a "${s}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND srcs "${a}")
  endforeach()
  set(head)
  if(AD_HEAD)
    set(head --head "${AD_HEAD}")
  endif()
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${ADGEN_EXECUTABLE} --${AD_MODE} ${srcs} ${head} ${AD_OPTIONS}
            -o "${out}" -MF "${out}.d"
    DEPENDS ${srcs}
    DEPFILE "${out}.d"
    WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
    COMMENT "adgen --${AD_MODE} ${AD_SOURCES} -> ${AD_OUTPUT}"
    VERBATIM)
endfunction()
