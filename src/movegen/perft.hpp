// Perft: node counting and divide. (The perft suites, `FEN ;D1 n ;D2 n ...`, are read by
// notation/epd.hpp and run by `horizon perft --suite`.)
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/position.hpp"

namespace horizon {

// Leaf nodes at `depth` (bulk-counted at the last ply).
std::uint64_t perft(Position& pos, int depth);

// Per-root-move counts, in generation order.
std::vector<std::pair<Move, std::uint64_t>> perft_divide(Position& pos, int depth);

} // namespace horizon
