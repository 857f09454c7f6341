// The weighted evaluation. evaluate_features<Sink> walks the features once; the scoring sink
// turns them into a score, the tracing sink records them for `eval` and the tuner.
#pragma once

#include <array>
#include <string>

#include "core/position.hpp"
#include "eval/params.hpp"
#include "eval/pawns.hpp"

namespace horizon {

constexpr int PHASE_MAX = 24;
// Endgame scaling: the endgame part is multiplied by scale / SCALE_NORMAL.
constexpr int SCALE_NORMAL = 128;
// A scale this low or lower marks a near-certain draw (a minor piece more without pawns, a
// fortress): it scales the middlegame part too. The phase counts pieces, so with rook and
// knight against rook 5/24 of the middlegame part would stay whole: a knight's worth there is
// some 60 cp, against games from such positions that score 50 %.
constexpr int SCALE_NEAR_DRAW = 16;
constexpr int middlegame_scale(int scale) {
    return scale <= SCALE_NEAR_DRAW ? scale : SCALE_NORMAL;
}

// Game phase from 0 (pawn endgame) to PHASE_MAX (all pieces on the board).
int game_phase(const Position& pos);

// Score in centipawns from the side to move's point of view. `pawns`, when given, caches the
// pawn-structure part (one cache per search thread).
Score evaluate(const Position& pos, const EvalParams& params = default_eval_params(),
               PawnCache* pawns = nullptr);

// Everything the evaluation reads off a position, and what the tuner fits: feature counts by
// colour (for KING_DANGER features, the counts of that colour's attack), the phase, and the
// endgame scale that applies when white (scale[WHITE]) or black is the stronger side.
struct EvalTrace {
    std::array<std::array<int, WEIGHT_COUNT>, COLOR_NB> counts{};
    int phase = 0;
    std::array<int, COLOR_NB> scale{SCALE_NORMAL, SCALE_NORMAL};
    bool dead_draw = false; // insufficient material: the evaluation is 0
    Color side_to_move = WHITE;
};
EvalTrace trace_evaluation(const Position& pos);

// The evaluation that `params` give a trace, from white's point of view; equals evaluate()
// of the traced position (white's view).
int evaluate_trace(const EvalTrace& trace, const EvalParams& params);

// The evaluation as a table, term by term (white, black, total; mg and eg), for `eval`.
std::string format_trace(const Position& pos, const EvalParams& params = default_eval_params());

} // namespace horizon
