# Fathom, the Syzygy tablebase probing library (MIT). Three routes, chosen by HORIZON_FATHOM:
#
#   SOURCE  Debian's source package `fathom`, unpacked into .deps/fathom by
#           scripts/ci/fathom_source.sh, compiled here as a static C library with the engine's
#           instruction level and sanitizers: the route of the static release files, the
#           Windows build and the sanitizer builds, which must link the same code.
#   SYSTEM  Debian's libfathom-dev (a shared library and its header, installed like cxxopts):
#           the route of a dynamic build by a user, a packager or an OpenBench client, with no
#           root-only step beyond installing a package.
#   OFF     no tablebase support: the engine builds and plays the same (the same `bench`
#           count); `setoption name SyzygyPath` and `--syzygy-path` say the build has none.
#   AUTO    (the default) SOURCE when .deps/fathom is there, else SYSTEM when the package is
#           installed (not for a static build: a shared library cannot go into one), else OFF,
#           said at configure time.
#
# Every route defines the target `fathom` and HORIZON_HAS_FATHOM (1 or 0) for src/eval.
set(HORIZON_FATHOM "AUTO" CACHE STRING "Fathom for Syzygy tables: AUTO, SOURCE, SYSTEM or OFF")
set_property(CACHE HORIZON_FATHOM PROPERTY STRINGS AUTO SOURCE SYSTEM OFF)
set(HORIZON_FATHOM_DIR "${CMAKE_SOURCE_DIR}/.deps/fathom" CACHE PATH
    "Fathom's source (the unpacked Debian source package fathom)")

set(horizon_fathom_source_found OFF)
if(EXISTS "${HORIZON_FATHOM_DIR}/src/tbprobe.c")
  set(horizon_fathom_source_found ON)
endif()
# The package's header and library (not looked for in a cross build: they are the build
# machine's, not the target's).
if(NOT CMAKE_CROSSCOMPILING)
  find_path(HORIZON_FATHOM_INCLUDE tbprobe.h)
  find_library(HORIZON_FATHOM_LIBRARY fathom)
endif()
set(horizon_fathom_system_found OFF)
if(HORIZON_FATHOM_INCLUDE AND HORIZON_FATHOM_LIBRARY AND NOT CMAKE_CROSSCOMPILING)
  set(horizon_fathom_system_found ON)
endif()

set(horizon_fathom_route "${HORIZON_FATHOM}")
if(horizon_fathom_route STREQUAL "AUTO")
  if(horizon_fathom_source_found)
    set(horizon_fathom_route SOURCE)
  elseif(horizon_fathom_system_found AND NOT HORIZON_STATIC)
    set(horizon_fathom_route SYSTEM)
  elseif(HORIZON_STATIC)
    message(FATAL_ERROR "A static build needs Fathom's source in ${HORIZON_FATHOM_DIR}: run "
                        "scripts/ci/fathom_source.sh (it unpacks Debian's source package fathom "
                        "there), or configure with -DHORIZON_FATHOM=OFF for a build without "
                        "tablebase support")
  else()
    set(horizon_fathom_route OFF)
  endif()
endif()

if(horizon_fathom_route STREQUAL "SOURCE")
  if(NOT horizon_fathom_source_found)
    message(FATAL_ERROR "Fathom's source is not in ${HORIZON_FATHOM_DIR}: run "
                        "scripts/ci/fathom_source.sh (it unpacks Debian's source package fathom "
                        "there)")
  endif()
  enable_language(C)
  add_library(fathom STATIC "${HORIZON_FATHOM_DIR}/src/tbprobe.c")
  set_target_properties(fathom PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS ON)
  # The header includes <tbconfig.h>: its own folder, as a system folder (no warnings from it).
  target_include_directories(fathom SYSTEM PUBLIC "${HORIZON_FATHOM_DIR}/src")
  # Engines leave out Fathom's helper API (its own move generator's attack functions).
  target_compile_definitions(fathom PUBLIC TB_NO_HELPER_API)
  target_compile_options(fathom PRIVATE -w ${HORIZON_ARCH_FLAGS})
  if(HORIZON_SANITIZE)
    # AddressSanitizer only: Fathom reads its tables through unaligned pointer casts, which
    # UndefinedBehaviorSanitizer would stop at although x86 reads them as intended.
    target_compile_options(fathom PRIVATE -fsanitize=address -fno-omit-frame-pointer)
  endif()
  if(HORIZON_TSAN)
    target_compile_options(fathom PRIVATE -fsanitize=thread -fno-omit-frame-pointer)
  endif()
  target_link_libraries(fathom PUBLIC Threads::Threads)
  set(horizon_fathom_text "Fathom's source in ${HORIZON_FATHOM_DIR}, compiled in")
elseif(horizon_fathom_route STREQUAL "SYSTEM")
  if(NOT horizon_fathom_system_found)
    message(FATAL_ERROR "Fathom's library is not installed: apt-get install -y libfathom-dev")
  endif()
  if(HORIZON_STATIC)
    message(FATAL_ERROR "HORIZON_FATHOM=SYSTEM is a shared library: a static build takes "
                        "Fathom's source (HORIZON_FATHOM=SOURCE, scripts/ci/fathom_source.sh)")
  endif()
  add_library(fathom INTERFACE)
  target_include_directories(fathom SYSTEM INTERFACE "${HORIZON_FATHOM_INCLUDE}")
  target_compile_definitions(fathom INTERFACE TB_NO_HELPER_API)
  target_link_libraries(fathom INTERFACE "${HORIZON_FATHOM_LIBRARY}" Threads::Threads)
  set(horizon_fathom_text "Debian's libfathom-dev (${HORIZON_FATHOM_LIBRARY})")
elseif(horizon_fathom_route STREQUAL "OFF")
  add_library(fathom INTERFACE)
  set(horizon_fathom_text "none: this build has no Syzygy tablebase support (for it, "
                          "apt-get install libfathom-dev, or run scripts/ci/fathom_source.sh)")
  string(CONCAT horizon_fathom_text ${horizon_fathom_text})
else()
  message(FATAL_ERROR "HORIZON_FATHOM is AUTO, SOURCE, SYSTEM or OFF, not '${HORIZON_FATHOM}'")
endif()

if(horizon_fathom_route STREQUAL "OFF")
  set(HORIZON_HAS_FATHOM 0)
  message(WARNING "Syzygy tablebases: ${horizon_fathom_text}")
else()
  set(HORIZON_HAS_FATHOM 1)
  message(STATUS "Syzygy tablebases: ${horizon_fathom_text}")
endif()
target_compile_definitions(fathom INTERFACE HORIZON_HAS_FATHOM=${HORIZON_HAS_FATHOM})
