// The one progress and ETA text of the tools: "<label> 12/80 (15%) 0:03, ETA 0:17  <detail>".
// On a terminal the line is redrawn in place at most a few times a second; into a log it is
// written as whole lines now and then; or not at all. The work itself (train/, analysis)
// reports the numbers through callbacks; the front ends show them with this.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace horizon {

enum class ProgressMode {
    OFF,    // nothing
    REDRAW, // one line, redrawn in place (a terminal)
    LINES,  // a whole line every `interval` (a log)
};

class Progress {
public:
    static constexpr std::chrono::milliseconds REDRAW_INTERVAL{200};

    // Redrawn when enabled (progress goes to stderr only when stderr is a terminal), else off.
    Progress(std::ostream& out, bool enabled, std::string label);
    Progress(std::ostream& out, ProgressMode mode, std::string label,
             std::chrono::milliseconds interval = REDRAW_INTERVAL);
    ~Progress() { finish(); }
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    // `done` of `total` units of work are done; the ETA assumes the rest goes at the same pace.
    void update(std::uint64_t done, std::uint64_t total, const std::string& detail = "");
    // The same with the caller's clock and estimate of the time left (nullopt: not known yet).
    void update(std::uint64_t done, std::uint64_t total, double elapsed, std::optional<double> eta,
                const std::string& detail = "");
    // Clears a redrawn line (once).
    void finish();

    // "0:17", "1:02:03".
    static std::string clock_text(double seconds);
    // The seconds `left` units take at the pace of `done` units in `elapsed` seconds; nullopt
    // while nothing is done.
    static std::optional<double> eta(double done, double left, double elapsed);
    // The line itself.
    static std::string text(std::string_view label, std::uint64_t done, std::uint64_t total,
                            double elapsed, std::optional<double> eta,
                            const std::string& detail = "");

private:
    using Clock = std::chrono::steady_clock;
    std::ostream& out_;
    ProgressMode mode_;
    std::string label_;
    std::chrono::milliseconds interval_;
    Clock::time_point start_ = Clock::now();
    Clock::time_point last_draw_{};
    std::size_t drawn_ = 0; // width of the line on screen
};

// Whether standard error is a terminal.
bool stderr_is_terminal();

} // namespace horizon
