// Compiled for baseline x86-64 without LTO (see cpu_check.hpp): only C library calls here.
#include "platform/cpu_check.hpp"

#include <cpuid.h>

#include <cstdio>
#include <cstdlib>

#ifndef HORIZON_VERSION
#error "HORIZON_VERSION is set by CMakeLists.txt"
#endif

namespace horizon {

namespace {

struct FeatureName {
    unsigned bit;
    const char* name;
};

constexpr FeatureName FEATURE_NAMES[] = {
    {CPU_POPCNT, "POPCNT"},     {CPU_SSE4_2, "SSE4.2"},     {CPU_SSE4_1, "SSE4.1"},
    {CPU_SSSE3, "SSSE3"},       {CPU_SSE3, "SSE3"},         {CPU_BMI2, "BMI2"},
    {CPU_AVX2, "AVX2"},         {CPU_AVX, "AVX"},           {CPU_BMI, "BMI"},
    {CPU_FMA, "FMA"},           {CPU_F16C, "F16C"},         {CPU_LZCNT, "LZCNT"},
    {CPU_MOVBE, "MOVBE"},       {CPU_AVX512F, "AVX512F"},   {CPU_AVX512BW, "AVX512BW"},
    {CPU_AVX512DQ, "AVX512DQ"}, {CPU_AVX512VL, "AVX512VL"}, {CPU_AVX512CD, "AVX512CD"},
};

#if defined(_WIN32)
constexpr const char* OS_NAME = "windows";
constexpr const char* EXE_SUFFIX = ".exe";
#else
constexpr const char* OS_NAME = "linux";
constexpr const char* EXE_SUFFIX = "";
#endif

constexpr bool covers(unsigned has, unsigned needs) { return (has & needs) == needs; }

// The level a set of needed extensions belongs to, as the file names spell it.
const char* level_text(unsigned needs) {
    if (covers(CPU_LEVEL_X86_64, needs)) return "x86-64";
    if (covers(CPU_LEVEL_X86_64_V2, needs)) return "x86-64-v2";
    if (covers(CPU_LEVEL_X86_64_V3, needs)) return "x86-64-v3";
    return "built for its build machine with -march=native";
}

// The highest distributed level a processor runs, or nullptr for none.
const char* best_level(unsigned has) {
    if (covers(has, CPU_LEVEL_X86_64_V3)) return "x86-64-v3";
    if (covers(has, CPU_LEVEL_X86_64_V2)) return "x86-64-v2";
    if (covers(has, CPU_LEVEL_X86_64)) return "x86-64";
    return nullptr;
}

} // namespace

unsigned cpu_features_detected() {
    // Called before the C++ run-time's own initialisation may have filled the model in.
    __builtin_cpu_init();
    unsigned has = 0;
    // __builtin_cpu_supports takes a string literal only: one line per extension.
    if (__builtin_cpu_supports("popcnt")) has |= CPU_POPCNT;
    if (__builtin_cpu_supports("sse4.2")) has |= CPU_SSE4_2;
    if (__builtin_cpu_supports("sse4.1")) has |= CPU_SSE4_1;
    if (__builtin_cpu_supports("ssse3")) has |= CPU_SSSE3;
    if (__builtin_cpu_supports("sse3")) has |= CPU_SSE3;
    if (__builtin_cpu_supports("bmi2")) has |= CPU_BMI2;
    if (__builtin_cpu_supports("avx2")) has |= CPU_AVX2;
    if (__builtin_cpu_supports("avx")) has |= CPU_AVX;
    if (__builtin_cpu_supports("bmi")) has |= CPU_BMI;
    if (__builtin_cpu_supports("fma")) has |= CPU_FMA;
    // F16C, MOVBE and LZCNT from CPUID itself: clang 15's builtin does not know their names.
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
        if (ecx & bit_F16C) has |= CPU_F16C;
        if (ecx & bit_MOVBE) has |= CPU_MOVBE;
    }
    if (__get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx) && (ecx & bit_LZCNT)) has |= CPU_LZCNT;
    if (__builtin_cpu_supports("avx512f")) has |= CPU_AVX512F;
    if (__builtin_cpu_supports("avx512bw")) has |= CPU_AVX512BW;
    if (__builtin_cpu_supports("avx512dq")) has |= CPU_AVX512DQ;
    if (__builtin_cpu_supports("avx512vl")) has |= CPU_AVX512VL;
    if (__builtin_cpu_supports("avx512cd")) has |= CPU_AVX512CD;
    return has;
}

// CMake defines HORIZON_TARGET_<X> for each extension the compiler flags of the other files
// enable (it asks the compiler which of its __<X>__ macros those flags predefine).
unsigned cpu_features_required() {
    unsigned needs = 0;
#ifdef HORIZON_TARGET_POPCNT
    needs |= CPU_POPCNT;
#endif
#ifdef HORIZON_TARGET_SSE4_2
    needs |= CPU_SSE4_2;
#endif
#ifdef HORIZON_TARGET_SSE4_1
    needs |= CPU_SSE4_1;
#endif
#ifdef HORIZON_TARGET_SSSE3
    needs |= CPU_SSSE3;
#endif
#ifdef HORIZON_TARGET_SSE3
    needs |= CPU_SSE3;
#endif
#ifdef HORIZON_TARGET_BMI2
    needs |= CPU_BMI2;
#endif
#ifdef HORIZON_TARGET_AVX2
    needs |= CPU_AVX2;
#endif
#ifdef HORIZON_TARGET_AVX
    needs |= CPU_AVX;
#endif
#ifdef HORIZON_TARGET_BMI
    needs |= CPU_BMI;
#endif
#ifdef HORIZON_TARGET_FMA
    needs |= CPU_FMA;
#endif
#ifdef HORIZON_TARGET_F16C
    needs |= CPU_F16C;
#endif
#ifdef HORIZON_TARGET_LZCNT
    needs |= CPU_LZCNT;
#endif
#ifdef HORIZON_TARGET_MOVBE
    needs |= CPU_MOVBE;
#endif
#ifdef HORIZON_TARGET_AVX512F
    needs |= CPU_AVX512F;
#endif
#ifdef HORIZON_TARGET_AVX512BW
    needs |= CPU_AVX512BW;
#endif
#ifdef HORIZON_TARGET_AVX512DQ
    needs |= CPU_AVX512DQ;
#endif
#ifdef HORIZON_TARGET_AVX512VL
    needs |= CPU_AVX512VL;
#endif
#ifdef HORIZON_TARGET_AVX512CD
    needs |= CPU_AVX512CD;
#endif
    return needs;
}

bool cpu_allows(unsigned has, unsigned needs, char* line, std::size_t size) {
    if (covers(has, needs)) return true;
    const char* missing = "an instruction-set extension";
    for (const auto& f : FEATURE_NAMES) {
        if ((needs & f.bit) && !(has & f.bit)) {
            missing = f.name;
            break;
        }
    }
    const char* level = level_text(needs);
    if (const char* best = best_level(has)) {
        std::snprintf(line, size,
                      "horizon: this binary needs %s (%s); this CPU lacks it - use "
                      "horizon-%s-%s-%s%s instead",
                      missing, level, HORIZON_VERSION, OS_NAME, best, EXE_SUFFIX);
    } else {
        std::snprintf(line, size,
                      "horizon: this binary needs %s (%s); this CPU lacks it and every level "
                      "this release is built for - build Horizon from source for it",
                      missing, level);
    }
    return false;
}

namespace {

// Runs before main() and before every other file's static initialisers (priorities up to 100
// are the implementation's).
__attribute__((constructor(101), used)) void refuse_a_cpu_without_the_build_level() {
    char line[256];
    if (cpu_allows(cpu_features_detected(), cpu_features_required(), line, sizeof line)) return;
    std::fputs(line, stderr);
    std::fputc('\n', stderr);
    std::fflush(stderr);
    std::_Exit(1);
}

} // namespace

} // namespace horizon
