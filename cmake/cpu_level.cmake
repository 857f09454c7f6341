# The instruction set Horizon is compiled for, from HORIZON_LEVEL and HORIZON_NATIVE:
#   HORIZON_ARCH_FLAGS    the -march (and -m) options of every file but the CPU check
#   HORIZON_CPU_REQUIRES  HORIZON_TARGET_<X> definitions for the CPU check, one per extension
#                         those options enable (src/platform/cpu_check.cpp)
# The levels are GCC's: x86-64 (here with POPCNT, which every x86-64 CPU since 2008 has),
# x86-64-v2 (SSE4.2, POPCNT) and x86-64-v3 (AVX2, BMI2, so PEXT slider lookups).
set(HORIZON_ARCH_FLAGS "")
if(HORIZON_LEVEL STREQUAL "x86-64")
  set(HORIZON_ARCH_FLAGS -march=x86-64 -mtune=generic -mpopcnt)
elseif(HORIZON_LEVEL STREQUAL "x86-64-v2" OR HORIZON_LEVEL STREQUAL "x86-64-v3")
  set(HORIZON_ARCH_FLAGS -march=${HORIZON_LEVEL} -mtune=generic)
elseif(NOT HORIZON_LEVEL STREQUAL "")
  message(FATAL_ERROR
          "HORIZON_LEVEL must be x86-64, x86-64-v2, x86-64-v3 or empty, not '${HORIZON_LEVEL}'")
elseif(HORIZON_NATIVE)
  set(HORIZON_ARCH_FLAGS -march=native)
endif()

# Ask the compiler which extensions these options (with the user's flags) turn on.
separate_arguments(horizon_user_flags UNIX_COMMAND "${CMAKE_CXX_FLAGS}")
execute_process(
  COMMAND ${CMAKE_CXX_COMPILER} ${horizon_user_flags} ${HORIZON_ARCH_FLAGS} -dM -E -x c++ -
  INPUT_FILE /dev/null
  OUTPUT_VARIABLE horizon_macros
  RESULT_VARIABLE horizon_macros_status
  ERROR_QUIET)
if(NOT horizon_macros_status EQUAL 0)
  message(FATAL_ERROR "cannot ask ${CMAKE_CXX_COMPILER} for its predefined macros")
endif()
set(HORIZON_CPU_REQUIRES "")
set(horizon_required_names "")
foreach(ext POPCNT SSE4_2 SSE4_1 SSSE3 SSE3 BMI2 AVX2 AVX BMI FMA F16C LZCNT MOVBE
            AVX512F AVX512BW AVX512DQ AVX512VL AVX512CD)
  if(horizon_macros MATCHES "#define __${ext}__ 1")
    list(APPEND HORIZON_CPU_REQUIRES HORIZON_TARGET_${ext})
    list(APPEND horizon_required_names ${ext})
  endif()
endforeach()
list(JOIN horizon_required_names " " horizon_required_text)
if(horizon_required_text STREQUAL "")
  set(horizon_required_text "nothing beyond x86-64")
endif()
list(JOIN HORIZON_ARCH_FLAGS " " horizon_arch_text)
message(STATUS "Horizon compiles with '${horizon_arch_text}'; "
               "the CPU check requires: ${horizon_required_text}")
