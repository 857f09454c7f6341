// `horizon perft`: counts, divide, EPD suites, and the speed benchmark against Stockfish.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace horizon {

struct SuiteResult {
    int positions = 0;
    int checks = 0;
    int failures = 0;
    std::uint64_t nodes = 0;
    double seconds = 0;
};

// Runs every line of a perft suite (read by notation/epd.hpp) up to max_depth (0: every depth
// given), printing progress to `progress` (one line per position) and failures to `out`. A
// suite that cannot be read is not run: `errors` gets one message per problem
// ("perft/x.epd:3: bad depth field 'D2'").
SuiteResult run_perft_suite(const std::string& path, int max_depth, std::ostream& out,
                            std::ostream& progress, std::vector<std::string>& errors);

int perft_main(int argc, const char* const* argv);

} // namespace horizon
