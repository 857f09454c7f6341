# Fathom, the Syzygy tablebase probing library (MIT; Debian's source package `fathom`, which
# scripts/fathom_source.sh unpacks into .deps/fathom). Built here as a static C library with the
# engine's instruction level and sanitizers, so every build (native, sanitizer, portable,
# Windows) links the same code; its own warnings are not the project's and are silenced.
set(HORIZON_FATHOM_DIR "${CMAKE_SOURCE_DIR}/.deps/fathom" CACHE PATH
    "Fathom's source (the unpacked Debian source package fathom)")
if(NOT EXISTS "${HORIZON_FATHOM_DIR}/src/tbprobe.c")
  message(FATAL_ERROR "Fathom's source is not in ${HORIZON_FATHOM_DIR}: run scripts/deps.sh "
                      "(it unpacks Debian's source package fathom there)")
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
