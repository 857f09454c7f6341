#include "core/attacks.hpp"

#include <array>
#include <vector>

#include "core/zobrist.hpp"

namespace horizon {

SliderEntry ROOK_ENTRIES[SQUARE_NB];
SliderEntry BISHOP_ENTRIES[SQUARE_NB];
Bitboard PAWN_ATTACKS[COLOR_NB][SQUARE_NB];
Bitboard KNIGHT_ATTACKS[SQUARE_NB];
Bitboard KING_ATTACKS[SQUARE_NB];
Bitboard BETWEEN_BB[SQUARE_NB][SQUARE_NB];
Bitboard LINE_BB[SQUARE_NB][SQUARE_NB];

namespace {

#include "core/magics.inc"

constexpr std::size_t ROOK_TABLE_SIZE = 0x19000; // sum over squares of 2^relevant bits
constexpr std::size_t BISHOP_TABLE_SIZE = 0x1480;

Bitboard rook_magic_table[ROOK_TABLE_SIZE];
Bitboard bishop_magic_table[BISHOP_TABLE_SIZE];
#if HORIZON_HAS_BMI2
Bitboard rook_pext_table[ROOK_TABLE_SIZE];
Bitboard bishop_pext_table[BISHOP_TABLE_SIZE];
#endif

Bitboard ray_attacks(Square s, Bitboard occ, const std::array<std::array<int, 2>, 4>& dirs) {
    Bitboard result = 0;
    for (const auto& [df, dr] : dirs) {
        int f = file_of(s) + df;
        int r = rank_of(s) + dr;
        while (f >= 0 && f < 8 && r >= 0 && r < 8) {
            const Bitboard b = square_bb(make_square(f, r));
            result |= b;
            if (occ & b) break;
            f += df;
            r += dr;
        }
    }
    return result;
}

constexpr std::array<std::array<int, 2>, 4> ROOK_DIRS{{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}};
constexpr std::array<std::array<int, 2>, 4> BISHOP_DIRS{{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}}};

Bitboard leaper_attacks(Square s, const std::vector<std::array<int, 2>>& steps) {
    Bitboard result = 0;
    for (const auto& [df, dr] : steps) {
        const int f = file_of(s) + df;
        const int r = rank_of(s) + dr;
        if (f >= 0 && f < 8 && r >= 0 && r < 8) result |= square_bb(make_square(f, r));
    }
    return result;
}

// xorshift64*, fixed seed: the magics found are the same on every run.
struct Prng {
    std::uint64_t state;
    std::uint64_t next() {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return state * 2685821657736338717ULL;
    }
    std::uint64_t sparse() { return next() & next() & next(); }
};

// Fills one slider's entries and tables; finds a magic for each square.
void init_slider(SliderEntry* entries, Bitboard* magic_table, [[maybe_unused]] Bitboard* pext_table,
                 const std::array<std::array<int, 2>, 4>& dirs, const Bitboard* known_magics) {
    std::vector<Bitboard> occupancies;
    std::vector<Bitboard> references;
    std::vector<int> epoch(4096, 0);
    std::vector<Bitboard> used(4096);
    int attempt = 0;
    std::size_t offset = 0;
    Prng prng{0x9E3779B97F4A7C15ULL};

    for (int sq = 0; sq < SQUARE_NB; ++sq) {
        const Square s = Square(sq);
        SliderEntry& e = entries[s];
        const Bitboard edges = ((RANK_1_BB | RANK_8_BB) & ~rank_bb(rank_of(s))) |
                               ((FILE_A_BB | FILE_H_BB) & ~file_bb(file_of(s)));
        e.mask = ray_attacks(s, 0, dirs) & ~edges;
        const int bits = popcount(e.mask);
        e.shift = unsigned(64 - bits);
        e.magic_table = magic_table + offset;
#if HORIZON_HAS_BMI2
        e.pext_table = pext_table + offset;
#endif

        // Enumerate every subset of the mask (carry-rippler).
        occupancies.clear();
        references.clear();
        Bitboard subset = 0;
        do {
            occupancies.push_back(subset);
            references.push_back(ray_attacks(s, subset, dirs));
#if HORIZON_HAS_BMI2
            pext_table[offset + _pext_u64(subset, e.mask)] = references.back();
#endif
            subset = (subset - e.mask) & e.mask;
        } while (subset);

        // The stored magic first; a fresh search only if it does not fit.
        for (bool first = true;; first = false) {
            const Bitboard magic = first ? known_magics[sq] : prng.sparse();
            if (!first && popcount((e.mask * magic) >> 56) < 6) continue;
            ++attempt;
            bool ok = true;
            for (std::size_t i = 0; i < occupancies.size() && ok; ++i) {
                const std::size_t idx = ((occupancies[i] * magic) >> e.shift);
                if (epoch[idx] != attempt) {
                    epoch[idx] = attempt;
                    used[idx] = references[i];
                } else if (used[idx] != references[i]) {
                    ok = false;
                }
            }
            if (!ok) continue;
            e.magic = magic;
            for (std::size_t i = 0; i < occupancies.size(); ++i)
                magic_table[offset + ((occupancies[i] * magic) >> e.shift)] = references[i];
            break;
        }
        offset += occupancies.size();
    }
}

} // namespace

Bitboard slow_rook_attacks(Square s, Bitboard occ) { return ray_attacks(s, occ, ROOK_DIRS); }
Bitboard slow_bishop_attacks(Square s, Bitboard occ) { return ray_attacks(s, occ, BISHOP_DIRS); }

void init_attacks() {
#if HORIZON_HAS_BMI2
    init_slider(ROOK_ENTRIES, rook_magic_table, rook_pext_table, ROOK_DIRS, ROOK_MAGICS);
    init_slider(BISHOP_ENTRIES, bishop_magic_table, bishop_pext_table, BISHOP_DIRS, BISHOP_MAGICS);
#else
    init_slider(ROOK_ENTRIES, rook_magic_table, nullptr, ROOK_DIRS, ROOK_MAGICS);
    init_slider(BISHOP_ENTRIES, bishop_magic_table, nullptr, BISHOP_DIRS, BISHOP_MAGICS);
#endif
    const std::vector<std::array<int, 2>> knight_steps{{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                                       {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    const std::vector<std::array<int, 2>> king_steps{{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                                     {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    for (int sq = 0; sq < SQUARE_NB; ++sq) {
        const Square s = Square(sq);
        KNIGHT_ATTACKS[s] = leaper_attacks(s, knight_steps);
        KING_ATTACKS[s] = leaper_attacks(s, king_steps);
        PAWN_ATTACKS[WHITE][s] = leaper_attacks(s, {{1, 1}, {-1, 1}});
        PAWN_ATTACKS[BLACK][s] = leaper_attacks(s, {{1, -1}, {-1, -1}});
    }
    for (int a = 0; a < SQUARE_NB; ++a) {
        for (int b = 0; b < SQUARE_NB; ++b) {
            const Square sa = Square(a), sb = Square(b);
            BETWEEN_BB[a][b] = square_bb(sb);
            LINE_BB[a][b] = 0;
            if (a == b) continue;
            for (const auto* dirs : {&ROOK_DIRS, &BISHOP_DIRS}) {
                if (ray_attacks(sa, 0, *dirs) & square_bb(sb)) {
                    LINE_BB[a][b] = (ray_attacks(sa, 0, *dirs) & ray_attacks(sb, 0, *dirs)) |
                                    square_bb(sa) | square_bb(sb);
                    BETWEEN_BB[a][b] = (ray_attacks(sa, square_bb(sb), *dirs) &
                                        ray_attacks(sb, square_bb(sa), *dirs)) |
                                       square_bb(sb);
                }
            }
        }
    }
}

void init_tables() {
    static bool done = false;
    if (done) return;
    done = true;
    init_attacks();
    init_zobrist();
}

} // namespace horizon
