# Cross build for 64-bit Windows with Debian's MinGW-w64 compiler, POSIX thread model
# (package g++-mingw-w64-x86-64-posix; std::thread needs it). Used by the windows-* presets:
#   cmake --preset windows-x86-64-v2 && cmake --build --preset windows-x86-64-v2
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(HORIZON_MINGW_PREFIX x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${HORIZON_MINGW_PREFIX}-gcc-posix)
set(CMAKE_CXX_COMPILER ${HORIZON_MINGW_PREFIX}-g++-posix)
set(CMAKE_RC_COMPILER ${HORIZON_MINGW_PREFIX}-windres)

# Libraries and headers of the target only; programs of the build machine.
set(CMAKE_FIND_ROOT_PATH /usr/${HORIZON_MINGW_PREFIX})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

