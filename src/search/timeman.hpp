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
    int depth = 0;           // 0 = no limit
    std::uint64_t nodes = 0; // 0 = no limit
    int mate = 0;            // find a mate in this many moves
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
    // Restarts the budget clock (on ponderhit: the move's own time starts then). The
    // search clock, which `info time` reports beside `info nodes`, still runs from `go`.
    void restart() { start_ = Clock::now().time_since_epoch().count(); }

    // Time spent of this move's budget (since go, or since ponderhit).
    std::int64_t elapsed_ms() const { return since(start_.load()); }
    // Time since go: what `info time` shows, so that nodes / time is the real speed.
    std::int64_t search_elapsed_ms() const { return since(search_start_); }
    // The same in microseconds: `info nps` from it does not jump as `time` goes from 0 to 1.
    std::int64_t search_elapsed_us() const {
        const Clock::duration d(Clock::now().time_since_epoch().count() - search_start_);
        return std::chrono::duration_cast<std::chrono::microseconds>(d).count();
    }
    bool has_limit() const { return limited_; }
    // Fixed time per move (movetime): use it all, no early stop between iterations.
    bool fixed() const { return fixed_; }
    std::int64_t soft_ms() const { return soft_; }
    std::int64_t hard_ms() const { return hard_; }

private:
    static std::int64_t since(Clock::rep start) {
        const Clock::duration d(Clock::now().time_since_epoch().count() - start);
        return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
    }
    Clock::rep search_start_ = Clock::now().time_since_epoch().count();
    // Read by the search thread while the UCI thread may restart it (ponderhit).
    std::atomic<Clock::rep> start_{Clock::now().time_since_epoch().count()};
    bool limited_ = false;
    bool fixed_ = false;
    std::int64_t soft_ = 0;
    std::int64_t hard_ = 0;
};

} // namespace horizon
