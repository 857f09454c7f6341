// Random legal positions: a few pieces placed at random (the tablebase tools' test positions,
// `horizon tbprobe --random`), the same sequence for the same seed on every system.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/position.hpp"

namespace horizon {

// A random legal position of `pieces` pieces (kings included), nullopt when the draw failed.
// With `en_passant`, two of the pieces are pawns set up so that the side to move has just
// made a double step beside an enemy pawn: an en passant capture is on the board.
// With `material` ("KBNvK": White's pieces, then Black's), those pieces and no others, and
// the fifty-move counter at 0. Castling rights never; the side to move, the counter and the
// squares vary.
std::optional<Position> random_position(std::mt19937_64& rng, int pieces, bool en_passant,
                                        const std::string& material = "");

// `count` random legal positions from `seed`: of `material` when given, else of `min_pieces`
// to `max_pieces` pieces, a quarter of those of 4 or more with an en passant capture on the
// board.
std::vector<Position> random_positions(std::uint64_t seed, std::uint64_t count, int min_pieces,
                                       int max_pieces,
                                       const std::optional<std::string>& material = {});

} // namespace horizon
