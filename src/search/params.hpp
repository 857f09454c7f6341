// Named search constants: every margin, reduction and limit the search reads.
#pragma once

// HORIZON_TUNABLE(NAME, value, min, max): a constant that SPSA may tune (scripts/match/spsa.py, the
// `spsa` build). In every other build it is a plain constant; in a build with HORIZON_TUNE it
// is a variable, set by the UCI option of its name and bounded by min..max. spsa.py writes
// the values it found back into these lines.
#if HORIZON_TUNE
#include "search/tunable.hpp"
#define HORIZON_TUNABLE(NAME, VALUE, MIN, MAX)                                                     \
    inline int NAME = VALUE;                                                                       \
    inline const bool NAME##_REGISTERED = ::horizon::register_tunable(#NAME, &NAME, MIN, MAX)
#else
#define HORIZON_TUNABLE(NAME, VALUE, MIN, MAX) inline constexpr int NAME = VALUE
#endif

namespace horizon::search_params {

// Aspiration windows.
inline constexpr int ASPIRATION_MIN_DEPTH = 4;
HORIZON_TUNABLE(ASPIRATION_DELTA, 15, 5, 40);
inline constexpr int ASPIRATION_WIDEN_LIMIT = 1000;  // past this, a full window
inline constexpr int ASPIRATION_FAIL_HIGH_PLIES = 3; // at most this much shallower after fail highs

// Reverse futility pruning (static eval far above beta at shallow depth).
inline constexpr int RFP_MAX_DEPTH = 8;
HORIZON_TUNABLE(RFP_MARGIN_PER_DEPTH, 75, 30, 150);

// Razoring: static eval far below alpha near the leaves, confirmed by quiescence.
inline constexpr int RAZOR_MAX_DEPTH = 3;
HORIZON_TUNABLE(RAZOR_BASE, 250, 100, 500);
HORIZON_TUNABLE(RAZOR_PER_DEPTH, 200, 80, 400);

// Null-move pruning: reduction = base + depth / divisor + min((eval - beta) / eval divisor, cap).
inline constexpr int NMP_MIN_DEPTH = 3;
HORIZON_TUNABLE(NMP_BASE_REDUCTION, 3, 2, 6);
HORIZON_TUNABLE(NMP_DEPTH_DIVISOR, 3, 2, 6);
HORIZON_TUNABLE(NMP_EVAL_DIVISOR, 200, 80, 400);
HORIZON_TUNABLE(NMP_EVAL_REDUCTION_MAX, 3, 1, 5);
inline constexpr int NMP_VERIFY_DEPTH = 14; // from here a fail-high is verified without null

// Internal iterative reduction: no TT move at this depth or more.
inline constexpr int IIR_MIN_DEPTH = 4;

// Singular extensions.
inline constexpr int SE_MIN_DEPTH = 7;
inline constexpr int SE_TT_DEPTH_MARGIN = 3;    // the TT entry must be at least depth - this
HORIZON_TUNABLE(SE_MARGIN_PER_DEPTH, 2, 1, 5);  // singular beta = TT score - this * depth
HORIZON_TUNABLE(SE_DOUBLE_MARGIN, 20, 5, 60);   // below singular beta by this: extend twice
inline constexpr int SE_DOUBLE_LIMIT = 6;       // double extensions allowed along one line
inline constexpr int SE_NEGATIVE_EXTENSION = 2; // plies off a TT move that is not singular

// Late-move reductions.
inline constexpr int LMR_MIN_DEPTH = 3;
inline constexpr double LMR_QUIET_BASE = 0.80;
inline constexpr double LMR_QUIET_DIVISOR = 2.20;
inline constexpr double LMR_NOISY_BASE = -0.20;
inline constexpr double LMR_NOISY_DIVISOR = 2.60;
HORIZON_TUNABLE(LMR_HISTORY_DIVISOR, 8192, 2048, 32768);
inline constexpr int CRUMB_MAX_PLY = 8; // Lazy SMP: nodes below this ply leave breadcrumbs
// One ply more for a later move when the replies to this node's earlier moves cut off more
// than this many times (the node looks like one where every move fails).
inline constexpr int CUTOFFS_MANY = 3;
// A reduced move beating best by this: search it deeper.
HORIZON_TUNABLE(LMR_DEEPER_MARGIN, 60, 20, 150);

// Late-move pruning of quiets: after (base + depth^2) / (2 - improving) moves.
inline constexpr int LMP_MAX_DEPTH = 8;
HORIZON_TUNABLE(LMP_BASE, 3, 1, 8);

// Futility pruning of quiets at shallow (reduced) depth.
inline constexpr int FP_MAX_DEPTH = 8;
HORIZON_TUNABLE(FP_BASE, 90, 30, 250);
HORIZON_TUNABLE(FP_PER_DEPTH, 100, 40, 200);

// History pruning of quiets.
inline constexpr int HP_MAX_DEPTH = 4;
HORIZON_TUNABLE(HP_PER_DEPTH, -3000, -8000, -500);

// SEE pruning at low depth.
inline constexpr int SEE_PRUNE_MAX_DEPTH = 8;
HORIZON_TUNABLE(SEE_QUIET_PER_DEPTH_SQ, -20, -60, -5);
HORIZON_TUNABLE(SEE_NOISY_PER_DEPTH, -90, -200, -30);

// Futility pruning of captures that do not check: the static eval plus what the capture takes
// plus a margin stays below alpha.
inline constexpr int CFP_MAX_DEPTH = 6;
HORIZON_TUNABLE(CFP_BASE, 200, 50, 500);
HORIZON_TUNABLE(CFP_PER_DEPTH, 150, 50, 300);

// ProbCut: a capture that beats beta + margin in a shallow search is taken as a cutoff.
inline constexpr int PROBCUT_MIN_DEPTH = 5;
inline constexpr int PROBCUT_REDUCTION = 4;
HORIZON_TUNABLE(PROBCUT_MARGIN, 200, 80, 400);
HORIZON_TUNABLE(PROBCUT_IMPROVING, 50, 0, 150);
// No ProbCut in the reply to a move that loses more than this by SEE: the shallow search
// would see the material come back, not what the sacrifice was for.
inline constexpr int PROBCUT_SACRIFICE = 150;

// Quiescence.
HORIZON_TUNABLE(QS_FUTILITY_MARGIN, 150, 50, 400);

// History.
inline constexpr int HISTORY_MAX = 16384;
// The butterfly bonus of a quiet move by the change of static eval it caused (cp times this,
// within +-EVAL_HISTORY_MAX).
inline constexpr int EVAL_HISTORY_MULT = 8;
inline constexpr int EVAL_HISTORY_MAX = 1200;
HORIZON_TUNABLE(HISTORY_BONUS_SLOPE, 300, 100, 600);
HORIZON_TUNABLE(HISTORY_BONUS_BASE, 250, 0, 600);
HORIZON_TUNABLE(HISTORY_BONUS_MAX, 2400, 800, 4800);

// Static-eval correction history, by pawn structure and by each side's other pieces: entries
// are 1/CORRECTION_GRAIN cp, bounded by CORRECTION_MAX; an update weighs the search result by
// min(depth + 1, CORRECTION_WEIGHT_MAX) / CORRECTION_WEIGHT_SCALE. The correction applied is
// (pawn entry * PAWN weight + both non-pawn entries * NON_PAWN weight) / CORRECTION_UNIT.
inline constexpr int CORRECTION_SIZE = 16384;
inline constexpr int CORRECTION_UNIT = 128;
HORIZON_TUNABLE(CORRECTION_PAWN_WEIGHT, 80, 0, 192);
HORIZON_TUNABLE(CORRECTION_NON_PAWN_WEIGHT, 40, 0, 128);
inline constexpr int CORRECTION_GRAIN = 128;
inline constexpr int CORRECTION_MAX = 128 * CORRECTION_GRAIN;
inline constexpr int CORRECTION_WEIGHT_MAX = 16;
inline constexpr int CORRECTION_WEIGHT_SCALE = 256;

// A tablebase verdict goes into the transposition table this many plies deeper than the node:
// no search of the position would tell more.
inline constexpr int TB_DEPTH_BONUS = 6;

// How many nodes between two looks at the clock.
inline constexpr int TIME_CHECK_INTERVAL = 1024;

// Time management: the soft limit is scaled after each iteration by
//  stability: STABILITY_SCALE[min(iterations the best move stayed, 4)] / 100,
//  score drop: 1 + min(drop, SCORE_DROP_CAP) / SCORE_DROP_DIVISOR,
//  node share: (NODE_SHARE_BASE - share of nodes on the best move) * NODE_SHARE_SLOPE.
inline constexpr int STABILITY_SCALE[5] = {240, 130, 100, 85, 75};
inline constexpr int SCORE_DROP_CAP = 120;
inline constexpr double SCORE_DROP_DIVISOR = 160.0;
inline constexpr double NODE_SHARE_BASE = 1.55;
inline constexpr double NODE_SHARE_SLOPE = 0.95;
// An iteration is not started past this share of the scaled soft limit.
inline constexpr double NEXT_ITERATION_SHARE = 0.6;

} // namespace horizon::search_params
