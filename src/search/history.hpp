// Move-ordering memory, one set per search thread: killers, counter-moves, butterfly
// history, capture history and continuation histories. Every table saturates by gravity:
// an update moves a value toward +-limit by a share of the bonus that shrinks near it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/bitboard.hpp"
#include "core/types.hpp"
#include "search/params.hpp"

namespace horizon {

// History of a quiet move given the piece and destination of an earlier move.
using PieceToHistory = std::int16_t[PIECE_NB][SQUARE_NB];

template <int Limit> inline void apply_gravity(std::int16_t& h, int bonus) {
    bonus = std::clamp(bonus, -Limit, Limit);
    h = std::int16_t(h + bonus - h * std::abs(bonus) / Limit);
}

struct History {
    Move killers[MAX_PLY + 2][2]{};
    Move counter[PIECE_NB][SQUARE_NB]{};
    // By side, whether the opponent attacks the from and the to square, from and to.
    std::int16_t butterfly[COLOR_NB][2][2][SQUARE_NB][SQUARE_NB]{};
    std::int16_t capture[PIECE_NB][SQUARE_NB][PIECE_TYPE_NB]{};
    // Quiet moves by pawn structure (a slot of the pawn key), piece and destination.
    static constexpr int PAWN_HISTORY_SIZE = 512;
    std::int16_t pawn_history[PAWN_HISTORY_SIZE][PIECE_NB][SQUARE_NB]{};
    // continuation[piece][to] of the move k plies back, indexed by the current move.
    PieceToHistory continuation[PIECE_NB][SQUARE_NB]{};
    // How far the static eval has been off the search result, by side to move and pawn
    // structure, and by side to move and one side's other pieces (indexed [stm][owner]).
    std::int16_t correction[COLOR_NB][search_params::CORRECTION_SIZE]{};
    std::int16_t non_pawn_correction[COLOR_NB][COLOR_NB][search_params::CORRECTION_SIZE]{};

    void clear() {
        std::memset(static_cast<void*>(killers), 0, sizeof killers);
        std::memset(static_cast<void*>(counter), 0, sizeof counter);
        std::memset(butterfly, 0, sizeof butterfly);
        std::memset(capture, 0, sizeof capture);
        std::memset(pawn_history, 0, sizeof pawn_history);
        std::memset(continuation, 0, sizeof continuation);
        std::memset(correction, 0, sizeof correction);
        std::memset(non_pawn_correction, 0, sizeof non_pawn_correction);
    }
    void clear_killers(int ply) { killers[ply][0] = killers[ply][1] = Move::none(); }

    void add_killer(int ply, Move m) {
        if (killers[ply][0] != m) {
            killers[ply][1] = killers[ply][0];
            killers[ply][0] = m;
        }
    }
    // The butterfly entry of `m`, by whether its from and to squares are in `threats`.
    template <class Self> static auto& quiet_entry(Self& self, Color c, Move m, Bitboard threats) {
        return self.butterfly[c][bool(threats & square_bb(m.from()))]
                             [bool(threats & square_bb(m.to()))][m.from()][m.to()];
    }
    // `threats`: the squares the opponent of `c` attacks.
    int quiet_score(Color c, Move m, Bitboard threats) const {
        return quiet_entry(*this, c, m, threats);
    }
    void update_quiet(Color c, Move m, Bitboard threats, int bonus) {
        apply_gravity<search_params::HISTORY_MAX>(quiet_entry(*this, c, m, threats), bonus);
    }
    int pawn_score(Key pawn_key, Piece moved, Square to) const {
        return pawn_history[pawn_key & (PAWN_HISTORY_SIZE - 1)][moved][to];
    }
    void update_pawn(Key pawn_key, Piece moved, Square to, int bonus) {
        apply_gravity<search_params::HISTORY_MAX>(
            pawn_history[pawn_key & (PAWN_HISTORY_SIZE - 1)][moved][to], bonus);
    }
    // `victim` is NO_PIECE_TYPE for a quiet promotion.
    int capture_score(Piece moved, Square to, PieceType victim) const {
        return capture[moved][to][victim];
    }
    void update_capture(Piece moved, Square to, PieceType victim, int bonus) {
        apply_gravity<search_params::HISTORY_MAX>(capture[moved][to][victim], bonus);
    }
    // The keys a correction is looked up by: the pawns, and each side's other pieces.
    struct CorrectionKeys {
        Key pawn;
        Key non_pawn[COLOR_NB];
    };
    int correction_cp(Color stm, const CorrectionKeys& k) const {
        namespace sp = search_params;
        const int sum = correction[stm][slot(k.pawn)] * sp::CORRECTION_PAWN_WEIGHT +
                        (non_pawn_correction[stm][WHITE][slot(k.non_pawn[WHITE])] +
                         non_pawn_correction[stm][BLACK][slot(k.non_pawn[BLACK])]) *
                            sp::CORRECTION_NON_PAWN_WEIGHT;
        return sum / (sp::CORRECTION_GRAIN * sp::CORRECTION_UNIT);
    }
    // Moves each correction toward `error` (search result minus raw static eval, cp).
    void update_correction(Color stm, const CorrectionKeys& k, int error, Depth depth) {
        namespace sp = search_params;
        const int weight = std::min(depth + 1, sp::CORRECTION_WEIGHT_MAX);
        const int target =
            std::clamp(error * sp::CORRECTION_GRAIN, -sp::CORRECTION_MAX, sp::CORRECTION_MAX);
        const auto move_toward = [&](std::int16_t& e) {
            e = std::int16_t((e * (sp::CORRECTION_WEIGHT_SCALE - weight) + target * weight) /
                             sp::CORRECTION_WEIGHT_SCALE);
        };
        move_toward(correction[stm][slot(k.pawn)]);
        move_toward(non_pawn_correction[stm][WHITE][slot(k.non_pawn[WHITE])]);
        move_toward(non_pawn_correction[stm][BLACK][slot(k.non_pawn[BLACK])]);
    }
    static std::size_t slot(Key key) {
        return std::size_t(key & (search_params::CORRECTION_SIZE - 1));
    }
    // The table of the move (piece, to), for the plies after it; NO_PIECE means none.
    PieceToHistory* continuation_of(Piece moved, Square to) { return &continuation[moved][to]; }
    const PieceToHistory* sentinel() const { return &continuation[NO_PIECE][0]; }
};

inline int history_bonus(Depth depth) {
    return std::min(search_params::HISTORY_BONUS_SLOPE * depth - search_params::HISTORY_BONUS_BASE,
                    search_params::HISTORY_BONUS_MAX);
}

} // namespace horizon
