// Attack tables: slider lookups (magic and PEXT) against the ray-walking reference,
// leaper tables, and the between/line tables.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>

#include "core/attacks.hpp"

using namespace horizon;

namespace {

// Every subset of `mask`, by the carry-rippler trick, passed to `fn`.
template <class Fn> void for_each_subset(Bitboard mask, Fn fn) {
    Bitboard subset = 0;
    do {
        fn(subset);
        subset = (subset - mask) & mask;
    } while (subset);
}

// Random occupancies of three densities: sparse, about half, dense.
Bitboard random_occupancy(std::mt19937_64& rng, int kind) {
    switch (kind % 3) {
    case 0:
        return rng() & rng() & rng();
    case 1:
        return rng();
    default:
        return rng() | rng();
    }
}

Bitboard sq_set(std::initializer_list<Square> squares) {
    Bitboard b = 0;
    for (Square s : squares)
        b |= square_bb(s);
    return b;
}

int file_distance(Square a, Square b) { return std::abs(file_of(a) - file_of(b)); }
int rank_distance(Square a, Square b) { return std::abs(rank_of(a) - rank_of(b)); }

// Slider comparison: counts mismatches so a failure reports the first case without
// flooding the output with a million passing assertions.
struct Mismatch {
    int count = 0;
    std::string first;
    void note(const std::string& what, Square s, Bitboard occ, Bitboard got, Bitboard want) {
        if (count++ == 0)
            first = what + " on " + square_name(s) + " occ=" + std::to_string(occ) + " got " +
                    std::to_string(got) + " want " + std::to_string(want);
    }
};

} // namespace

TEST_CASE("slow reference slider attacks are right on hand-made boards", "[attacks]") {
    // Rook on d4, blockers on d6 and b4; the blocker squares themselves are attacked.
    const Bitboard occ = sq_set({D6, B4});
    const Bitboard rook = sq_set({D5, D6, D3, D2, D1, C4, B4, E4, F4, G4, H4});
    CHECK(slow_rook_attacks(D4, occ) == rook);

    // Bishop on c1 with an empty board: b2, a3 and the long diagonal to h6.
    CHECK(slow_bishop_attacks(C1, 0) == sq_set({B2, A3, D2, E3, F4, G5, H6}));
    // Bishop on e5 blocked on f6 and c3.
    CHECK(slow_bishop_attacks(E5, sq_set({F6, C3})) ==
          sq_set({F6, D6, C7, B8, F4, G3, H2, D4, C3}));
    // Rook in a corner on an empty board sees 14 squares.
    CHECK(slow_rook_attacks(H8, 0) == ((file_bb(7) | rank_bb(7)) & ~square_bb(H8)));
}

TEST_CASE("magic slider lookups equal the reference on every relevant occupancy", "[attacks]") {
    Mismatch rook, bishop;
    for (int i = 0; i < SQUARE_NB; ++i) {
        const Square s = Square(i);
        const auto& re = ROOK_ENTRIES[s];
        const auto& be = BISHOP_ENTRIES[s];
        for_each_subset(re.mask, [&](Bitboard occ) {
            const Bitboard got = re.magic_lookup(occ), want = slow_rook_attacks(s, occ);
            if (got != want) rook.note("rook magic", s, occ, got, want);
        });
        for_each_subset(be.mask, [&](Bitboard occ) {
            const Bitboard got = be.magic_lookup(occ), want = slow_bishop_attacks(s, occ);
            if (got != want) bishop.note("bishop magic", s, occ, got, want);
        });
    }
    INFO(rook.first);
    CHECK(rook.count == 0);
    INFO(bishop.first);
    CHECK(bishop.count == 0);
}

TEST_CASE("slider masks exclude the board edges and the square itself", "[attacks]") {
    for (int i = 0; i < SQUARE_NB; ++i) {
        const Square s = Square(i);
        CAPTURE(square_name(s));
        const Bitboard rook_mask = ROOK_ENTRIES[s].mask;
        const Bitboard bishop_mask = BISHOP_ENTRIES[s].mask;
        CHECK((rook_mask & square_bb(s)) == 0);
        CHECK((bishop_mask & square_bb(s)) == 0);
        // A rook's relevant squares: its rank and file without their end squares.
        int expected_rook_bits = (file_of(s) == 0 || file_of(s) == 7 ? 6 : 5) +
                                 (rank_of(s) == 0 || rank_of(s) == 7 ? 6 : 5);
        CHECK(popcount(rook_mask) == expected_rook_bits);
        CHECK((bishop_mask & (FILE_A_BB | FILE_H_BB | RANK_1_BB | RANK_8_BB)) == 0);
    }
    CHECK(popcount(BISHOP_ENTRIES[D4].mask) == 9);
    CHECK(popcount(BISHOP_ENTRIES[A1].mask) == 6);
    CHECK(popcount(BISHOP_ENTRIES[B1].mask) == 5);
}

TEST_CASE("slider lookups equal the reference on random full-board occupancies", "[attacks]") {
    std::mt19937_64 rng(20240611);
    Mismatch mm;
    for (int i = 0; i < SQUARE_NB; ++i) {
        const Square s = Square(i);
        for (int n = 0; n < 3000; ++n) {
            const Bitboard occ = random_occupancy(rng, n);
            const Bitboard want_r = slow_rook_attacks(s, occ);
            const Bitboard want_b = slow_bishop_attacks(s, occ);
            Bitboard got = ROOK_ENTRIES[s].magic_lookup(occ);
            if (got != want_r) mm.note("rook magic", s, occ, got, want_r);
            got = BISHOP_ENTRIES[s].magic_lookup(occ);
            if (got != want_b) mm.note("bishop magic", s, occ, got, want_b);
            // The lookups the engine uses.
            got = rook_attacks(s, occ);
            if (got != want_r) mm.note("rook_attacks", s, occ, got, want_r);
            got = bishop_attacks(s, occ);
            if (got != want_b) mm.note("bishop_attacks", s, occ, got, want_b);
            got = queen_attacks(s, occ);
            if (got != (want_r | want_b)) mm.note("queen_attacks", s, occ, got, want_r | want_b);
            got = piece_attacks(ROOK, s, occ);
            if (got != want_r) mm.note("piece_attacks(ROOK)", s, occ, got, want_r);
        }
    }
    INFO(mm.first);
    CHECK(mm.count == 0);
}

#if HORIZON_HAS_BMI2
TEST_CASE("PEXT slider lookups equal the reference", "[attacks][pext]") {
    Mismatch mm;
    for (int i = 0; i < SQUARE_NB; ++i) {
        const Square s = Square(i);
        const auto& re = ROOK_ENTRIES[s];
        const auto& be = BISHOP_ENTRIES[s];
        for_each_subset(re.mask, [&](Bitboard occ) {
            const Bitboard got = re.pext_lookup(occ), want = slow_rook_attacks(s, occ);
            if (got != want) mm.note("rook pext", s, occ, got, want);
        });
        for_each_subset(be.mask, [&](Bitboard occ) {
            const Bitboard got = be.pext_lookup(occ), want = slow_bishop_attacks(s, occ);
            if (got != want) mm.note("bishop pext", s, occ, got, want);
        });
    }
    std::mt19937_64 rng(77);
    for (int i = 0; i < SQUARE_NB; ++i) {
        const Square s = Square(i);
        for (int n = 0; n < 3000; ++n) {
            const Bitboard occ = random_occupancy(rng, n);
            Bitboard got = ROOK_ENTRIES[s].pext_lookup(occ);
            Bitboard want = slow_rook_attacks(s, occ);
            if (got != want) mm.note("rook pext (random)", s, occ, got, want);
            got = BISHOP_ENTRIES[s].pext_lookup(occ);
            want = slow_bishop_attacks(s, occ);
            if (got != want) mm.note("bishop pext (random)", s, occ, got, want);
        }
    }
    INFO(mm.first);
    CHECK(mm.count == 0);
}
#endif

TEST_CASE("knight attack table", "[attacks]") {
    CHECK(knight_attacks(A1) == sq_set({B3, C2}));
    CHECK(knight_attacks(H8) == sq_set({G6, F7}));
    CHECK(knight_attacks(B1) == sq_set({A3, C3, D2}));
    CHECK(knight_attacks(D4) == sq_set({C2, E2, B3, F3, B5, F5, C6, E6}));
    CHECK(popcount(knight_attacks(G7)) == 4);
    CHECK(popcount(knight_attacks(A4)) == 4);
    // Every square: the targets are exactly the (1,2)/(2,1) jumps, and the relation is
    // symmetric.
    for (int i = 0; i < SQUARE_NB; ++i) {
        for (int j = 0; j < SQUARE_NB; ++j) {
            const Square a = Square(i), b = Square(j);
            const int df = file_distance(a, b), dr = rank_distance(a, b);
            const bool jump = (df == 1 && dr == 2) || (df == 2 && dr == 1);
            if (bool(knight_attacks(a) & square_bb(b)) != jump) {
                FAIL_CHECK("knight " << square_name(a) << " -> " << square_name(b));
            }
        }
    }
    int total = 0;
    for (int i = 0; i < SQUARE_NB; ++i)
        total += popcount(knight_attacks(Square(i)));
    CHECK(total == 336); // the number of knight moves on an empty board
}

TEST_CASE("king attack table", "[attacks]") {
    CHECK(king_attacks(A1) == sq_set({A2, B1, B2}));
    CHECK(king_attacks(H5) == sq_set({H4, H6, G4, G5, G6}));
    CHECK(king_attacks(E4) == sq_set({D3, E3, F3, D4, F4, D5, E5, F5}));
    for (int i = 0; i < SQUARE_NB; ++i) {
        for (int j = 0; j < SQUARE_NB; ++j) {
            const Square a = Square(i), b = Square(j);
            const bool adjacent = std::max(file_distance(a, b), rank_distance(a, b)) == 1;
            if (bool(king_attacks(a) & square_bb(b)) != adjacent) {
                FAIL_CHECK("king " << square_name(a) << " -> " << square_name(b));
            }
        }
    }
    int total = 0;
    for (int i = 0; i < SQUARE_NB; ++i)
        total += popcount(king_attacks(Square(i)));
    CHECK(total == 420);
}

TEST_CASE("pawn attack table", "[attacks]") {
    CHECK(pawn_attacks(WHITE, E2) == sq_set({D3, F3}));
    CHECK(pawn_attacks(WHITE, A2) == square_bb(B3));
    CHECK(pawn_attacks(WHITE, H7) == square_bb(G8));
    CHECK(pawn_attacks(WHITE, C8) == 0);
    CHECK(pawn_attacks(BLACK, E7) == sq_set({D6, F6}));
    CHECK(pawn_attacks(BLACK, A7) == square_bb(B6));
    CHECK(pawn_attacks(BLACK, H2) == square_bb(G1));
    CHECK(pawn_attacks(BLACK, D1) == 0);
    for (int i = 0; i < SQUARE_NB; ++i) {
        const Square s = Square(i);
        CAPTURE(square_name(s));
        // The table and the set-wise shift agree.
        CHECK(pawn_attacks(WHITE, s) == pawn_attacks_bb<WHITE>(square_bb(s)));
        CHECK(pawn_attacks(BLACK, s) == pawn_attacks_bb<BLACK>(square_bb(s)));
        // Mirror symmetry between the colours.
        const Bitboard black_mirrored = pawn_attacks(BLACK, relative_square(BLACK, s));
        Bitboard white_from_black = 0;
        for (Bitboard b = black_mirrored; b;)
            white_from_black |= square_bb(relative_square(BLACK, pop_lsb(b)));
        CHECK(pawn_attacks(WHITE, s) == white_from_black);
    }
}

TEST_CASE("between_bb on hand-picked squares", "[attacks]") {
    CHECK(between_bb(A1, H8) == sq_set({B2, C3, D4, E5, F6, G7, H8}));
    CHECK(between_bb(H8, A1) == sq_set({G7, F6, E5, D4, C3, B2, A1}));
    CHECK(between_bb(A1, A8) == sq_set({A2, A3, A4, A5, A6, A7, A8}));
    CHECK(between_bb(E1, H1) == sq_set({F1, G1, H1}));
    CHECK(between_bb(C1, A3) == sq_set({B2, A3}));
    CHECK(between_bb(E4, E5) == square_bb(E5)); // adjacent: only the target
    CHECK(between_bb(A1, B3) == square_bb(B3)); // not aligned: only the target
    CHECK(between_bb(D4, H1) == square_bb(H1)); // not aligned
}

TEST_CASE("line_bb on hand-picked squares", "[attacks]") {
    CHECK(line_bb(A1, C3) == sq_set({A1, B2, C3, D4, E5, F6, G7, H8}));
    CHECK(line_bb(B1, B5) == file_bb(1));
    CHECK(line_bb(H4, C4) == rank_bb(3));
    CHECK(line_bb(C1, A3) == sq_set({C1, B2, A3}));
    CHECK(line_bb(A1, B3) == 0);
    CHECK(line_bb(E4, E4) == 0);
    CHECK(aligned(A1, D4, H8));
    CHECK(aligned(E1, E8, E4));
    CHECK_FALSE(aligned(E1, E8, D4));
    CHECK_FALSE(aligned(A1, B3, C5)); // a knight-step "line" is no line
}

TEST_CASE("between_bb and line_bb agree with geometry for every pair", "[attacks]") {
    int failures = 0;
    std::string first;
    auto fail = [&](const std::string& what) {
        if (failures++ == 0) first = what;
    };
    for (int i = 0; i < SQUARE_NB; ++i) {
        for (int j = 0; j < SQUARE_NB; ++j) {
            if (i == j) continue;
            const Square a = Square(i), b = Square(j);
            const int fa = file_of(a), ra = rank_of(a), fb = file_of(b), rb = rank_of(b);
            const int df = std::abs(fa - fb), dr = std::abs(ra - rb);
            const bool is_aligned = df == 0 || dr == 0 || df == dr;
            const std::string pair = square_name(a) + square_name(b);
            if (line_bb(a, b) != line_bb(b, a)) fail("line not symmetric " + pair);
            if (!is_aligned) {
                if (line_bb(a, b) != 0) fail("line of unaligned " + pair);
                if (between_bb(a, b) != square_bb(b)) fail("between of unaligned " + pair);
                continue;
            }
            // Line: both squares on it, and exactly as many squares as that rank, file or
            // diagonal has.
            const Bitboard line = line_bb(a, b);
            int expected_line = 8;
            if (df == dr && (fa - ra) == (fb - rb))
                expected_line = 8 - std::abs(fa - ra);
            else if (df == dr)
                expected_line = 8 - std::abs(fa + ra - 7);
            if (!(line & square_bb(a)) || !(line & square_bb(b))) fail("line misses ends " + pair);
            if (popcount(line) != expected_line) fail("line length " + pair);
            // Between: b plus the max(df, dr) - 1 squares strictly between, all on the line.
            const Bitboard between = between_bb(a, b);
            if (popcount(between) != std::max(df, dr)) fail("between length " + pair);
            if (!(between & square_bb(b)) || (between & square_bb(a))) fail("between ends " + pair);
            if ((between & ~line) != 0) fail("between off the line " + pair);
            // Every strictly-between square is nearer to both ends than they are apart.
            for (Bitboard m = between & ~square_bb(b); m;) {
                const Square s = pop_lsb(m);
                const int da = std::max(file_distance(a, s), rank_distance(a, s));
                const int db = std::max(file_distance(b, s), rank_distance(b, s));
                if (da + db != std::max(df, dr)) fail("between square not between " + pair);
            }
        }
    }
    INFO(first);
    CHECK(failures == 0);
}
