// Play at a chosen strength (UCI_LimitStrength, UCI_Elo). A limited search sees less: it has a
// node budget per move, so its sight is shallower the lower the Elo. It also judges less
// surely: it searches a few root lines and plays one of them at random, a line's chance
// falling with how much worse than the best it scored (a softmax with a temperature), and
// never one that scored more than a bound below the best. Both grow as the Elo falls, so the
// mistakes are many small ones low down and rare small ones high up, never a piece thrown away
// in one move that the search saw. Below GUARD_NODES a guard looks again: the move chosen is
// searched against the best move with GUARD_NODES each, and a move that loses more than
// GUARD_MARGIN against it (about a queen's worth, which a shallow search can miss) is not
// played: weak levels drop pawns and pieces, but not the queen. The table behind strength_level()
// is fitted from matches against Stockfish at the same UCI_Elo (scripts/match/calibrate_elo.sh;
// docs/measuring.md has the figures).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/types.hpp"

namespace horizon {

inline constexpr int STRENGTH_ELO_MIN = 1350;
inline constexpr int STRENGTH_ELO_MAX = 2850;

// How a limited search plays at one Elo.
struct StrengthLevel {
    int elo = STRENGTH_ELO_MAX;
    std::uint64_t nodes = 0; // budget per move (all threads together)
    int lines = 1;           // root lines searched (MultiPV) to choose from
    int temperature = 0;     // centipawns: a line this much worse is e (2.718) times less likely
    int max_loss = 0;        // centipawns: no line scored more than this below the best
};

// The calibrated anchors, lowest Elo first.
std::span<const StrengthLevel> strength_table();

// The level for `elo` (clamped to STRENGTH_ELO_MIN..STRENGTH_ELO_MAX): between two anchors the
// node budget is interpolated geometrically, the margins linearly.
StrengthLevel strength_level(int elo);

// A level written out as "NODES LINES TEMPERATURE MAX_LOSS" (spaces or commas between): the row
// of `horizon --strength-override ROW`, played instead of the table's so that a calibration can
// try a row without a rebuild (scripts/match/calibrate_elo.sh -R). On success fills `out` (its
// elo left as it was) and returns nullopt, else says what was wrong. Bounds: 1..
// STRENGTH_MAX_NODES nodes, 1..STRENGTH_MAX_LINES lines, 0..STRENGTH_MAX_MARGIN for each margin.
inline constexpr long long STRENGTH_MAX_NODES = 1000000000;
inline constexpr int STRENGTH_MAX_LINES = 16;
inline constexpr int STRENGTH_MAX_MARGIN = 2000;
std::optional<std::string> parse_strength_row(std::string_view text, StrengthLevel& out);
// The same four numbers, space-separated.
std::string format_strength_row(const StrengthLevel& level);

// The guard of the levels whose budget is below GUARD_NODES (see above).
inline constexpr std::uint64_t GUARD_NODES = 16000;
inline constexpr Score GUARD_MARGIN = 850;
// The most nodes a move at `level` searches: its budget, and the guard's two searches below
// GUARD_NODES.
constexpr std::uint64_t move_node_budget(const StrengthLevel& level) {
    return level.nodes + (level.nodes < GUARD_NODES ? 2 * GUARD_NODES : 0);
}
// Whether the guard refuses a move that its search scored `chosen` where the best move scored
// `best` (both for the side to move; mate scores count as large, not as infinite).
bool guard_refuses(Score best, Score chosen);

// Which of the root lines to play: `scores` are their scores from one iteration, best first.
// `draw` is a random number (splitmix64 of the seed and the position, so that a seeded game
// repeats). Returns an index into `scores`.
std::size_t choose_line(std::span<const Score> scores, const StrengthLevel& level,
                        std::uint64_t draw);

} // namespace horizon
