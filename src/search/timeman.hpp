// Time management: a soft limit (do not start another iteration past it) and a hard limit
// (stop searching) from the clock, increment, moves to go and Move Overhead.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>

#include "core/types.hpp"

namespace horizon {

struct SearchLimits {
    std::optional<std::int64_t> time[COLOR_NB]; // ms left on each clock
    std::int64_t inc[COLOR_NB]{0, 0};
    int movestogo = 0;
    int depth = 0;            // 0 = no limit
    std::uint64_t nodes = 0;  // 0 = no limit
    int mate = 0;             // find a mate in this many moves
    std::int64_t movetime = 0;
    bool infinite = false;
    bool ponder = false;
    int perft = 0;

    bool uses_clock() const { return time[WHITE] || time[BLACK]; }
};

class TimeManager {
public:
    using Clock = std::chrono::steady_clock;

    // Computes the limits for `us`; `overhead_ms` is the Move Overhead option.
    void start(const SearchLimits& limits, Color us, int overhead_ms, int game_ply);
    // Restarts the clock (on ponderhit: the move's own time starts then).
    void restart() { start_ = Clock::now().time_since_epoch().count(); }

    std::int64_t elapsed_ms() const {
        const Clock::duration since(Clock::now().time_since_epoch().count() - start_.load());
        return std::chrono::duration_cast<std::chrono::milliseconds>(since).count();
    }
    bool has_limit() const { return limited_; }
    // Fixed time per move (movetime): use it all, no early stop between iterations.
    bool fixed() const { return fixed_; }
    std::int64_t soft_ms() const { return soft_; }
    std::int64_t hard_ms() const { return hard_; }

private:
    // Read by the search thread while the UCI thread may restart it (ponderhit).
    std::atomic<Clock::rep> start_{Clock::now().time_since_epoch().count()};
    bool limited_ = false;
    bool fixed_ = false;
    std::int64_t soft_ = 0;
    std::int64_t hard_ = 0;
};

} // namespace horizon
