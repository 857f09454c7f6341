// The best lines of a position: what `horizon analyze --fen` and `horizon analyze FILE.epd`
// show.
#pragma once

#include <string>
#include <vector>

#include "core/position.hpp"
#include "engine/engine.hpp"
#include "search/search.hpp"

namespace horizon {

// The best `multipv` lines of `pos` (fewer when it has fewer legal moves), best first, each
// as the search last reported it (side to move's view); none when there is no legal move. The
// engine is handed `pos` itself (the history it holds counts for repetitions).
std::vector<SearchReport> best_lines(Engine& engine, const Position& pos,
                                     const SearchLimits& limits, int multipv);

// The lines as a table: rank, score (White's view), depth, principal variation in SAN.
std::string lines_table(const Position& pos, const std::vector<SearchReport>& lines);

} // namespace horizon
