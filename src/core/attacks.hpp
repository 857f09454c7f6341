// Attack tables: leapers precomputed, sliders through PEXT (when BMI2 is compiled in and
// HORIZON_USE_PEXT is set) or magic bitboards. Both lookups are built and tested.
#pragma once

#include "core/bitboard.hpp"

#if defined(__BMI2__)
#include <immintrin.h>
#define HORIZON_HAS_BMI2 1
#else
#define HORIZON_HAS_BMI2 0
#endif

#if !defined(HORIZON_USE_PEXT)
#define HORIZON_USE_PEXT HORIZON_HAS_BMI2
#endif
#if HORIZON_USE_PEXT && !HORIZON_HAS_BMI2
#error "HORIZON_USE_PEXT needs a BMI2 target (-mbmi2 or -march=native on a BMI2 CPU)"
#endif

namespace horizon {

// Builds every table (attacks, Zobrist keys). Call once before anything else.
void init_tables();

// One slider's lookup for one square.
struct SliderEntry {
    Bitboard mask = 0;  // relevant occupancy (edges excluded)
    Bitboard magic = 0; // magic multiplier
    const Bitboard* magic_table = nullptr;
    const Bitboard* pext_table = nullptr;
    unsigned shift = 0;

    Bitboard magic_lookup(Bitboard occ) const {
        return magic_table[((occ & mask) * magic) >> shift];
    }
#if HORIZON_HAS_BMI2
    Bitboard pext_lookup(Bitboard occ) const { return pext_table[_pext_u64(occ, mask)]; }
#endif
    Bitboard lookup(Bitboard occ) const {
#if HORIZON_USE_PEXT
        return pext_lookup(occ);
#else
        return magic_lookup(occ);
#endif
    }
};

extern SliderEntry ROOK_ENTRIES[SQUARE_NB];
extern SliderEntry BISHOP_ENTRIES[SQUARE_NB];
extern Bitboard PAWN_ATTACKS[COLOR_NB][SQUARE_NB];
extern Bitboard KNIGHT_ATTACKS[SQUARE_NB];
extern Bitboard KING_ATTACKS[SQUARE_NB];
extern Bitboard BETWEEN_BB[SQUARE_NB][SQUARE_NB]; // strictly between, plus the second square
extern Bitboard LINE_BB[SQUARE_NB][SQUARE_NB];    // whole line through both, or 0

// Reference slider attacks by walking rays; slow, used to build and to test the tables.
Bitboard slow_rook_attacks(Square s, Bitboard occ);
Bitboard slow_bishop_attacks(Square s, Bitboard occ);

inline Bitboard pawn_attacks(Color c, Square s) { return PAWN_ATTACKS[c][s]; }
inline Bitboard knight_attacks(Square s) { return KNIGHT_ATTACKS[s]; }
inline Bitboard king_attacks(Square s) { return KING_ATTACKS[s]; }
inline Bitboard rook_attacks(Square s, Bitboard occ) { return ROOK_ENTRIES[s].lookup(occ); }
inline Bitboard bishop_attacks(Square s, Bitboard occ) { return BISHOP_ENTRIES[s].lookup(occ); }
inline Bitboard queen_attacks(Square s, Bitboard occ) {
    return rook_attacks(s, occ) | bishop_attacks(s, occ);
}
// Attacks of a non-pawn piece type from s.
inline Bitboard piece_attacks(PieceType pt, Square s, Bitboard occ) {
    switch (pt) {
    case KNIGHT:
        return knight_attacks(s);
    case BISHOP:
        return bishop_attacks(s, occ);
    case ROOK:
        return rook_attacks(s, occ);
    case QUEEN:
        return queen_attacks(s, occ);
    case KING:
        return king_attacks(s);
    default:
        return 0;
    }
}
// Squares strictly between a and b on a line, plus b itself; just b when not aligned.
inline Bitboard between_bb(Square a, Square b) { return BETWEEN_BB[a][b]; }
inline Bitboard line_bb(Square a, Square b) { return LINE_BB[a][b]; }
inline bool aligned(Square a, Square b, Square c) { return line_bb(a, b) & square_bb(c); }

} // namespace horizon
