# The layering of DESIGN.md, checked: each quoted include in SOURCE_DIR/<layer>/ must name a
# file of its own layer or a lower one. Includes without a directory (generated headers such
# as engine_json.hpp) belong to no layer and are allowed everywhere; files directly in
# SOURCE_DIR (main.cpp) may include anything.
#   cmake -DSOURCE_DIR=<src> -P check_layers.cmake      (exits non-zero on any violation)
cmake_minimum_required(VERSION 3.25)
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "check_layers: pass -DSOURCE_DIR=<the src folder>")
endif()
get_filename_component(SOURCE_DIR "${SOURCE_DIR}" ABSOLUTE)

# Lowest first. platform, the ground floor (processes, terminal, memory pages, the CPU check:
# every #ifdef _WIN32), includes nothing of Horizon's but its own files; every layer may include
# it. train and analysis stand side by side above engine (neither includes the other); uci sits
# on engine alone: it includes neither train, analysis nor cli. cli, the command-line front
# ends (one file per subcommand), may include every layer.
set(layers platform core movegen eval notation search engine train analysis uci cli)
set(may_include_platform platform)
set(may_include_core platform core)
set(may_include_movegen platform core movegen)
set(may_include_eval platform core eval)
set(may_include_notation platform core movegen notation)
set(may_include_search platform core movegen eval notation search)
set(may_include_engine ${may_include_search} engine)
set(may_include_train ${may_include_engine} train)
set(may_include_analysis ${may_include_engine} analysis)
set(may_include_uci ${may_include_engine} uci)
set(may_include_cli ${layers})

# Departures from the map that are known and not yet fixed ("file -> include"). Remove an
# entry when its departure is fixed; never add one to make a new include pass.
set(known_departures "")

file(GLOB_RECURSE files RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/*")
list(SORT files)
set(violations "")
set(checked 0)
foreach(file IN LISTS files)
  string(REGEX MATCH "^[^/]+/" layer "${file}")
  string(REGEX REPLACE "/$" "" layer "${layer}")
  if(NOT layer OR NOT layer IN_LIST layers)
    continue()
  endif()
  file(STRINGS "${SOURCE_DIR}/${file}" include_lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS include_lines)
    string(REGEX REPLACE "^[^\"]*\"([^\"]*)\".*$" "\\1" included "${line}")
    string(REGEX MATCH "^[^/]+/" target "${included}")
    string(REGEX REPLACE "/$" "" target "${target}")
    math(EXPR checked "${checked} + 1")
    if(NOT target OR NOT target IN_LIST layers OR target IN_LIST may_include_${layer})
      continue()
    endif()
    if("${file} -> ${included}" IN_LIST known_departures)
      continue()
    endif()
    list(JOIN may_include_${layer} ", " allowed)
    list(APPEND violations "  ${file} includes \"${included}\" (${layer} may include ${allowed})")
  endforeach()
endforeach()

if(checked EQUAL 0)
  message(FATAL_ERROR "check_layers: no include found under ${SOURCE_DIR}")
endif()
if(violations)
  list(JOIN violations "\n" text)
  message(FATAL_ERROR "layering violations (a lower layer includes a higher one):\n${text}")
endif()
message(STATUS "layers: ${checked} includes checked, none goes up")
