// The start-up CPU check, with the processor's extensions injected: what a binary of each level
// says on a processor that lacks one, and that it goes on when nothing is missing.
#include <catch2/catch.hpp>

#include <string>

#include "platform/cpu_check.hpp"

using namespace horizon;

namespace {

#if defined(_WIN32)
const std::string OS = "windows";
const std::string EXE = ".exe";
#else
const std::string OS = "linux";
const std::string EXE = "";
#endif

// The line cpu_allows writes, or "" when it lets the binary run.
std::string refusal(unsigned has, unsigned needs) {
    char line[256] = "untouched";
    if (cpu_allows(has, needs, line, sizeof line)) return "";
    return line;
}

std::string file_of(const std::string& level) {
    return "horizon-" + std::string(HORIZON_VERSION) + "-" + OS + "-" + level + EXE;
}

} // namespace

TEST_CASE("cpu check: a v3 binary on a processor without BMI2 refuses and names the v2 file",
          "[cpu]") {
    const std::string line = refusal(CPU_LEVEL_X86_64_V3 & ~CPU_BMI2, CPU_LEVEL_X86_64_V3);
    CHECK(line == "horizon: this binary needs BMI2 (x86-64-v3); this CPU lacks it - use " +
                      file_of("x86-64-v2") + " instead");
    CHECK(line.find('\n') == std::string::npos);
}

TEST_CASE("cpu check: told the processor has every extension, a binary of each level goes on",
          "[cpu]") {
    const unsigned everything = ~0u;
    for (unsigned level : {CPU_LEVEL_X86_64, CPU_LEVEL_X86_64_V2, CPU_LEVEL_X86_64_V3}) {
        char line[256] = "untouched";
        CHECK(cpu_allows(everything, level, line, sizeof line));
        CHECK(std::string(line) == "untouched");
        // Exactly the level's extensions are enough too.
        CHECK(refusal(level, level).empty());
    }
    CHECK(refusal(0, 0).empty()); // a plain x86-64 build runs anywhere
}

TEST_CASE("cpu check: the file named is the best level the processor runs", "[cpu]") {
    // A Nehalem (SSE4.2, POPCNT, no AVX) running a v3 binary: the missing extension named is
    // BMI2, the PEXT instruction the v3 build is for.
    CHECK(refusal(CPU_LEVEL_X86_64_V2, CPU_LEVEL_X86_64_V3).find("needs BMI2 (x86-64-v3)") !=
          std::string::npos);
    // A Core 2 (POPCNT missing even) running a v2 binary: nothing of this release fits.
    const std::string core2 = refusal(CPU_SSE3 | CPU_SSSE3, CPU_LEVEL_X86_64_V2);
    CHECK(core2.find("needs POPCNT (x86-64-v2)") != std::string::npos);
    CHECK(core2.find("build Horizon from source") != std::string::npos);
    // An AVX2 processor whose BMI2 is missing, running a native AVX-512 build: use v2.
    const std::string native =
        refusal(CPU_LEVEL_X86_64_V3 & ~CPU_BMI2, CPU_LEVEL_X86_64_V3 | CPU_AVX512F);
    CHECK(native.find("needs BMI2 (built for its build machine with -march=native)") !=
          std::string::npos);
    CHECK(native.find(file_of("x86-64-v2")) != std::string::npos);
    // A lower level runs on a higher processor.
    CHECK(refusal(CPU_LEVEL_X86_64_V3, CPU_LEVEL_X86_64_V2).empty());
}

TEST_CASE("cpu check: this binary's requirements are what its compiler flags enable", "[cpu]") {
    // The extensions that tell x86-64-v2 and x86-64-v3 apart from the levels below, as this
    // file's compiler flags predefine them.
    constexpr unsigned KEY = CPU_SSE4_2 | CPU_BMI2;
    unsigned compiled = 0;
#if defined(__SSE4_2__)
    compiled |= CPU_SSE4_2;
#endif
#if defined(__BMI2__)
    compiled |= CPU_BMI2;
#endif
    const unsigned needs = cpu_features_required();
    CHECK((needs & KEY) == compiled);
    // And this processor has them all, or the check would have stopped the test binary already.
    char line[256];
    CHECK(cpu_allows(cpu_features_detected(), needs, line, sizeof line));
}
