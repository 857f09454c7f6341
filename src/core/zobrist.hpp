// Zobrist hash keys.
#pragma once

#include "core/types.hpp"

namespace horizon::zobrist {

extern Key PSQ[PIECE_NB][SQUARE_NB];
extern Key CASTLING[16];
extern Key EN_PASSANT_FILE[8];
extern Key SIDE; // xored in when black is to move
extern Key NO_PAWNS;

void init();

} // namespace horizon::zobrist
