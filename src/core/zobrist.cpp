#include "core/zobrist.hpp"

#include "core/random.hpp"

namespace horizon {

Key ZOBRIST_PSQ[PIECE_NB][SQUARE_NB];
Key ZOBRIST_CASTLING[16];
Key ZOBRIST_EN_PASSANT_FILE[8];
Key ZOBRIST_SIDE;
Key ZOBRIST_NO_PAWNS;

void init_zobrist() {
    // splitmix64 with a fixed seed: keys are identical on every run and platform.
    std::uint64_t state = 0x484F52495A4F4E00ULL; // "HORIZON"
    auto next = [&state] { return splitmix64(state); };
    for (auto& row : ZOBRIST_PSQ)
        for (Key& k : row)
            k = next();
    for (Key& k : ZOBRIST_EN_PASSANT_FILE)
        k = next();
    // Castling keys are xors of one key per right, so updating rights is one xor.
    Key right_keys[4];
    for (Key& k : right_keys)
        k = next();
    for (int cr = 0; cr < 16; ++cr) {
        ZOBRIST_CASTLING[cr] = 0;
        for (int i = 0; i < 4; ++i)
            if (cr & (1 << i)) ZOBRIST_CASTLING[cr] ^= right_keys[i];
    }
    ZOBRIST_SIDE = next();
    ZOBRIST_NO_PAWNS = next();
}

} // namespace horizon
