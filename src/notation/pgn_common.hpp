// What the PGN lexer, reader and writer share (notation/pgn_lexer, pgn_reader, pgn_writer):
// white space as PGN counts it, the text of a null move, and a line's moves played on a
// position and taken back, the null move included. Not for use outside notation/pgn*.
#pragma once

#include <string_view>

#include "core/position.hpp"
#include "core/types.hpp"

namespace horizon {

// In the move text: a null move (a side passes).
inline constexpr std::string_view PGN_NULL_MOVE = "--";

inline bool is_pgn_space(int c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// A move of a PGN line, the null move (Move::null()) included.
inline void play_pgn_move(Position& pos, Move m) {
    if (m == Move::null())
        pos.make_null_move();
    else
        pos.make_move(m);
}

inline void take_back_pgn_move(Position& pos, Move m) {
    if (m == Move::null())
        pos.unmake_null_move();
    else
        pos.unmake_move(m);
}

} // namespace horizon
