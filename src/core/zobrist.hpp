// Zobrist hash keys.
#pragma once

#include "core/types.hpp"

namespace horizon {

extern Key ZOBRIST_PSQ[PIECE_NB][SQUARE_NB];
extern Key ZOBRIST_CASTLING[16];
extern Key ZOBRIST_EN_PASSANT_FILE[8];
extern Key ZOBRIST_SIDE; // xored in when black is to move
extern Key ZOBRIST_NO_PAWNS;

void init_zobrist();

} // namespace horizon
