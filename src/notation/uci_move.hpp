// Moves in UCI notation: from and to squares and a promotion letter ("e2e4", "a7a8q").
// Castling is written as the king's two-square step ("e1g1") in standard chess and as king
// takes own rook ("e1h1") when the position is Chess960; both forms are read in either.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/position.hpp"
#include "core/types.hpp"

namespace horizon {

// The UCI text of `m` (which must be legal in `pos`, or none/null: "0000").
std::string move_to_uci(const Position& pos, Move m);

// The legal move of `pos` that `text` names, or nullopt. Castling is understood as king
// takes rook, and as the king's destination unless another legal move has that text.
// Decided without generating the position's moves.
std::optional<Move> parse_uci_move(const Position& pos, std::string_view text);

} // namespace horizon
