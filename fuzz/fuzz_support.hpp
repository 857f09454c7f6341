// What the fuzz targets share: the tables built once, the input as text, and a check that
// stops the run (libFuzzer keeps the input that did it) when a property does not hold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/attacks.hpp"

namespace horizon {

inline void fuzz_init() {
    static const bool done = (init_tables(), true);
    (void)done;
}

inline std::string_view fuzz_text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// The input's lines (without their '\n'); a last line without one counts too.
inline std::vector<std::string_view> fuzz_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        lines.push_back(text.substr(0, end));
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 1);
    }
    return lines;
}

[[noreturn]] inline void fuzz_fail(const char* what, std::string_view detail, const char* file,
                                   int line) {
    std::fprintf(stderr, "%s:%d: property failed: %s\n  %.*s\n", file, line, what,
                 int(std::min<std::size_t>(detail.size(), 2000)), detail.data());
    std::abort();
}

} // namespace horizon

// FUZZ_CHECK(condition, detail): abort with the condition and a detail (a string) when false.
#define FUZZ_CHECK(cond, detail)                                                                   \
    do {                                                                                           \
        if (!(cond)) ::horizon::fuzz_fail(#cond, (detail), __FILE__, __LINE__);                    \
    } while (0)
