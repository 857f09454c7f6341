// The weighted linear evaluation. Evaluator<Sink> walks the features once; the scoring sink
// turns them into a score, the tracing sink records them for `eval` and the tuner.
#pragma once

#include <array>
#include <string>

#include "core/position.hpp"
#include "eval/params.hpp"

namespace horizon {

constexpr int PHASE_MAX = 24;

// Game phase from 0 (pawn endgame) to PHASE_MAX (all pieces on the board).
int game_phase(const Position& pos);

// Calls sink.add(feature_index, color, count) for every feature present.
template <class Sink>
void evaluate_features(const Position& pos, Sink& sink);

// Score in centipawns from the side to move's point of view.
Score evaluate(const Position& pos, const EvalParams& params = default_eval_params());

// Feature counts by colour, plus the phase: what the tracer and the tuner read.
struct EvalTrace {
    std::array<std::array<int, WEIGHT_COUNT>, COLOR_NB> counts{};
    int phase = 0;
    Color side_to_move = WHITE;
};
EvalTrace trace_evaluation(const Position& pos);

// The evaluation as a table, term by term (white, black, total; mg and eg), for `eval`.
std::string format_trace(const Position& pos, const EvalParams& params = default_eval_params());

} // namespace horizon
