// A progress line on a terminal: "<label> 12/80 (15%) 3.2 s, ETA 0:17 <detail>", redrawn in
// place at most a few times a second. It writes nothing at all when not enabled (progress
// goes to stderr only when stderr is a terminal).
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace horizon {

class Progress {
public:
    Progress(std::ostream& out, bool enabled, std::string label);
    ~Progress() { finish(); }
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    // `done` of `total` units of work are done; the ETA assumes the rest goes at the same pace.
    void update(std::uint64_t done, std::uint64_t total, const std::string& detail = "");
    // Clears the line (once).
    void finish();

    // "0:17", "1:02:03".
    static std::string clock_text(double seconds);

private:
    using Clock = std::chrono::steady_clock;
    std::ostream& out_;
    bool enabled_;
    std::string label_;
    Clock::time_point start_ = Clock::now();
    Clock::time_point last_draw_{};
    std::size_t drawn_ = 0; // width of the line on screen
};

// Whether standard error is a terminal.
bool stderr_is_terminal();

} // namespace horizon
