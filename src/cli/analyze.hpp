// `horizon analyze`: the games of a PGN file annotated (analysis/game_analysis.hpp), with an
// SVG plot per game on request (analysis/svg_plot.hpp); or the best lines of a position (--fen)
// or of each position of an EPD file, as a table (analysis/best_lines.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace horizon {

// Game numbers (1-based, counting every game of the file): "5", "3-7", "10-" (to the end),
// "-4" (from the first), and lists of these "1,4,7-9".
class GameRange {
public:
    static std::optional<GameRange> parse(std::string_view text, std::string& error);
    static GameRange all() { return GameRange({{1, UINT64_MAX}}); }

    bool contains(std::uint64_t game) const;
    // The last game in the range (UINT64_MAX when it runs to the end).
    std::uint64_t last() const;

private:
    explicit GameRange(std::vector<std::pair<std::uint64_t, std::uint64_t>> spans)
        : spans_(std::move(spans)) {}
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans_; // inclusive
};

int analyze_main(int argc, const char* const* argv);

} // namespace horizon
