// The start-up check that the processor has every instruction-set extension this binary was
// compiled for. A binary built for a level the processor lacks prints one line naming the
// missing extension and the file to use instead, and exits with status 1, rather than dying
// on an illegal instruction (which a GUI reports, at best, as "engine crashed").
//
// cpu_check.cpp is compiled for baseline x86-64 and without LTO, whatever level the rest of the
// binary targets (CMakeLists.txt), and it runs the check from a constructor of the highest
// priority a program may use: before main() and before the static initialisers of every other
// file, which may already execute the newer instructions. It uses only C library calls, so no
// inline function compiled at the higher level can be linked into it.
#pragma once

#include <cstddef>

namespace horizon {

// One bit per extension, in the order a refusal looks for the missing one to name.
enum CpuFeature : unsigned {
    CPU_POPCNT = 1u << 0,
    CPU_SSE4_2 = 1u << 1,
    CPU_SSE4_1 = 1u << 2,
    CPU_SSSE3 = 1u << 3,
    CPU_SSE3 = 1u << 4,
    CPU_BMI2 = 1u << 5,
    CPU_AVX2 = 1u << 6,
    CPU_AVX = 1u << 7,
    CPU_BMI = 1u << 8,
    CPU_FMA = 1u << 9,
    CPU_F16C = 1u << 10,
    CPU_LZCNT = 1u << 11,
    CPU_MOVBE = 1u << 12,
    CPU_AVX512F = 1u << 13,
    CPU_AVX512BW = 1u << 14,
    CPU_AVX512DQ = 1u << 15,
    CPU_AVX512VL = 1u << 16,
    CPU_AVX512CD = 1u << 17,
};

// The extensions each distributed level needs (GCC's -march levels; the x86-64 build adds
// POPCNT to the baseline).
inline constexpr unsigned CPU_LEVEL_X86_64 = CPU_POPCNT;
inline constexpr unsigned CPU_LEVEL_X86_64_V2 =
    CPU_LEVEL_X86_64 | CPU_SSE3 | CPU_SSSE3 | CPU_SSE4_1 | CPU_SSE4_2;
inline constexpr unsigned CPU_LEVEL_X86_64_V3 = CPU_LEVEL_X86_64_V2 | CPU_AVX | CPU_AVX2 | CPU_BMI |
                                                CPU_BMI2 | CPU_FMA | CPU_F16C | CPU_LZCNT |
                                                CPU_MOVBE;

// The extensions of the processor this runs on (those needing the OS's help, as AVX, only when
// the OS enables them).
unsigned cpu_features_detected();
// The extensions the code of this binary was compiled to use.
unsigned cpu_features_required();

// Whether a binary needing `needs` runs on a processor having `has`. When it does not, `line`
// receives the one line to print (no newline, truncated to `size`): the first missing extension,
// the level the binary was built for, and the file of this release to use instead.
bool cpu_allows(unsigned has, unsigned needs, char* line, std::size_t size);

} // namespace horizon
