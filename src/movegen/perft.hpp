// Perft: node counting, divide, and EPD suites (`FEN ;D1 n ;D2 n ...`).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/position.hpp"

namespace horizon {

// Leaf nodes at `depth` (bulk-counted at the last ply).
std::uint64_t perft(Position& pos, int depth);

// Per-root-move counts, in generation order.
std::vector<std::pair<Move, std::uint64_t>> perft_divide(Position& pos, int depth);

struct EpdPerftEntry {
    std::string fen;
    std::vector<std::uint64_t> counts; // counts[d-1] is the count at depth d
};

// Parses `FEN ;D1 n ;D2 n ...`; a 4-field FEN gets clocks "0 1". nullopt + error on failure.
std::optional<EpdPerftEntry> parse_perft_epd_line(const std::string& line, std::string& error);

struct SuiteResult {
    int positions = 0;
    int checks = 0;
    int failures = 0;
    std::uint64_t nodes = 0;
    double seconds = 0;
};

// Runs every line of an EPD suite up to max_depth (0: every depth given), printing progress
// to `progress` (one line per position) and failures to `out`.
SuiteResult run_perft_suite(const std::string& path, int max_depth, std::ostream& out,
                            std::ostream& progress, std::string& error);

} // namespace horizon
