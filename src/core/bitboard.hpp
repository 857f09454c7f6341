// Bitboard masks and bit tricks.
#pragma once

#include <bit>

#include "core/types.hpp"

namespace horizon {

constexpr Bitboard FILE_A_BB = 0x0101010101010101ULL;
constexpr Bitboard FILE_H_BB = FILE_A_BB << 7;
constexpr Bitboard RANK_1_BB = 0xFFULL;
constexpr Bitboard RANK_2_BB = RANK_1_BB << 8;
constexpr Bitboard RANK_3_BB = RANK_1_BB << 16;
constexpr Bitboard RANK_4_BB = RANK_1_BB << 24;
constexpr Bitboard RANK_5_BB = RANK_1_BB << 32;
constexpr Bitboard RANK_6_BB = RANK_1_BB << 40;
constexpr Bitboard RANK_7_BB = RANK_1_BB << 48;
constexpr Bitboard RANK_8_BB = RANK_1_BB << 56;
constexpr Bitboard DARK_SQUARES_BB = 0xAA55AA55AA55AA55ULL;

constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }
constexpr Bitboard file_bb(int file) { return FILE_A_BB << file; }
constexpr Bitboard rank_bb(int rank) { return RANK_1_BB << (8 * rank); }

inline int popcount(Bitboard b) { return std::popcount(b); }
inline Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
inline Square msb(Bitboard b) { return Square(63 - std::countl_zero(b)); }
inline Square pop_lsb(Bitboard& b) {
    const Square s = lsb(b);
    b &= b - 1;
    return s;
}
constexpr bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

enum Direction : int {
    NORTH = 8,
    SOUTH = -8,
    EAST = 1,
    WEST = -1,
    NORTH_EAST = 9,
    NORTH_WEST = 7,
    SOUTH_EAST = -7,
    SOUTH_WEST = -9
};

template <Direction D> constexpr Bitboard shift(Bitboard b) {
    if constexpr (D == NORTH)
        return b << 8;
    else if constexpr (D == SOUTH)
        return b >> 8;
    else if constexpr (D == EAST)
        return (b & ~FILE_H_BB) << 1;
    else if constexpr (D == WEST)
        return (b & ~FILE_A_BB) >> 1;
    else if constexpr (D == NORTH_EAST)
        return (b & ~FILE_H_BB) << 9;
    else if constexpr (D == NORTH_WEST)
        return (b & ~FILE_A_BB) << 7;
    else if constexpr (D == SOUTH_EAST)
        return (b & ~FILE_H_BB) >> 7;
    else
        return (b & ~FILE_A_BB) >> 9;
}

// Squares attacked by all pawns of colour C in `pawns`.
template <Color C> constexpr Bitboard pawn_attacks_bb(Bitboard pawns) {
    if constexpr (C == WHITE)
        return shift<NORTH_EAST>(pawns) | shift<NORTH_WEST>(pawns);
    else
        return shift<SOUTH_EAST>(pawns) | shift<SOUTH_WEST>(pawns);
}

} // namespace horizon
