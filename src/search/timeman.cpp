#include "search/timeman.hpp"

#include <algorithm>

namespace horizon {

namespace {
// Without movestogo, a move plans on this many moves still to play: fewer as the game goes.
constexpr int MOVES_LEFT_START = 24;
constexpr int MOVES_LEFT_MIN = 10;
} // namespace

void TimeManager::start(const SearchLimits& limits, Color us, int overhead_ms, int game_ply) {
    restart();
    search_start_ = start_.load();
    limited_ = fixed_ = false;
    soft_ = hard_ = 0;
    if (limits.infinite) return;

    if (limits.movetime > 0) {
        limited_ = fixed_ = true;
        hard_ = soft_ = std::max<std::int64_t>(1, limits.movetime - overhead_ms);
        return;
    }
    if (!limits.uses_clock()) return;

    // A clock given for the other side only: assume ours shows the same.
    const std::int64_t time = std::max<std::int64_t>(
        0, limits.time[us] ? *limits.time[us] : limits.time[~us].value_or(0));
    const std::int64_t inc = std::max<std::int64_t>(0, limits.inc[us]);
    limited_ = true;

    // What may safely be spent on this move at most.
    const std::int64_t usable = std::max<std::int64_t>(1, time - overhead_ms);
    int moves_left = limits.movestogo > 0
                         ? std::min(limits.movestogo, 50)
                         : std::max(MOVES_LEFT_MIN, MOVES_LEFT_START - game_ply / 4);
    if (limits.movestogo == 1) {
        soft_ = hard_ = std::max<std::int64_t>(1, usable * 3 / 4);
        return;
    }
    const std::int64_t base = usable / moves_left + inc * 3 / 4;
    soft_ = std::min(base, usable / 2);
    hard_ = std::min(std::max(soft_ * 4, base), usable * 3 / 4);
    if (limits.movestogo > 0 && limits.movestogo < 4) hard_ = std::min(hard_, usable / 2);
    soft_ = std::max<std::int64_t>(1, std::min(soft_, hard_));
    hard_ = std::max<std::int64_t>(1, hard_);
}

} // namespace horizon
