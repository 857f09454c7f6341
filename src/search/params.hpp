// Named search constants: every margin, reduction and limit the search reads.
#pragma once

namespace horizon::search_params {

// Aspiration windows.
inline constexpr int ASPIRATION_MIN_DEPTH = 5;
inline constexpr int ASPIRATION_DELTA = 20;

// Null-move pruning.
inline constexpr int NMP_MIN_DEPTH = 3;
inline constexpr int NMP_BASE_REDUCTION = 3;
inline constexpr int NMP_DEPTH_DIVISOR = 4;

// Reverse futility pruning (static eval far above beta at shallow depth).
inline constexpr int RFP_MAX_DEPTH = 6;
inline constexpr int RFP_MARGIN_PER_DEPTH = 90;

// Late-move reductions.
inline constexpr int LMR_MIN_DEPTH = 3;
inline constexpr int LMR_MIN_MOVE = 3;
inline constexpr double LMR_BASE = 0.75;
inline constexpr double LMR_DIVISOR = 2.25;

// Late-move pruning of quiets at shallow depth.
inline constexpr int LMP_MAX_DEPTH = 6;
inline constexpr int LMP_BASE = 3;

// Quiescence delta pruning.
inline constexpr int QS_DELTA_MARGIN = 200;

// History.
inline constexpr int HISTORY_MAX = 16384;

// How many nodes between two looks at the clock.
inline constexpr int TIME_CHECK_INTERVAL = 1024;

} // namespace horizon::search_params
