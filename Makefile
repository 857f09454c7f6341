# A thin wrapper over CMake, for tools that build engines with make (OpenBench runs
# `make EXE=<name>`, with CXX set to its compiler of choice):
#
#   make [EXE=horizon] [CXX=g++] [NATIVE=ON|OFF] [LEVEL=x86-64|x86-64-v2|x86-64-v3]
#        [FATHOM=AUTO|SOURCE|SYSTEM|OFF]
#
# builds the Release engine (no tests) and copies it to $(EXE); LEVEL builds for that x86-64
# level instead of the build machine's CPU, as the release files do (scripts/ci/dist.sh). The
# CMake build folder is per compiler, so switching CXX never reuses another compiler's cache.
# It needs CMake, a C++20 compiler and Debian's libcxxopts-dev and nlohmann-json3-dev; Syzygy
# tablebase support comes from Fathom's source in .deps/fathom (scripts/ci/fathom_source.sh) or
# Debian's libfathom-dev, and without either the engine builds without it (cmake/fathom.cmake).
EXE ?= horizon
NATIVE ?= ON
LEVEL ?=
FATHOM ?= AUTO
BUILD := build/make-$(notdir $(CXX))

.PHONY: all clean
all:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=$(CXX) \
	  -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=ON -DHORIZON_TESTS=OFF -DHORIZON_NATIVE=$(NATIVE) \
	  -DHORIZON_LEVEL=$(LEVEL) -DHORIZON_FATHOM=$(FATHOM)
	cmake --build $(BUILD) --target horizon -j 2
	cp $(BUILD)/horizon $(EXE)

clean:
	rm -rf build/make-*
