#include "tools/progress.hpp"

#include <cmath>
#include <cstdio>
#include <ostream>

#include "tools/platform.hpp"

namespace horizon {

namespace {

constexpr auto REDRAW_INTERVAL = std::chrono::milliseconds(200);

} // namespace

Progress::Progress(std::ostream& out, bool enabled, std::string label)
    : out_(out), enabled_(enabled), label_(std::move(label)) {}

std::string Progress::clock_text(double seconds) {
    const long total = std::lround(std::max(0.0, seconds));
    char text[32];
    if (total >= 3600)
        std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", total / 3600, total / 60 % 60,
                      total % 60);
    else
        std::snprintf(text, sizeof text, "%ld:%02ld", total / 60, total % 60);
    return text;
}

void Progress::update(std::uint64_t done, std::uint64_t total, const std::string& detail) {
    if (!enabled_) return;
    const auto now = Clock::now();
    if (done < total && now - last_draw_ < REDRAW_INTERVAL) return;
    last_draw_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    char line[160];
    const int percent = total ? int(100 * done / total) : 100;
    const std::string eta =
        done ? clock_text(elapsed * double(total - std::min(done, total)) / double(done)) : "?";
    std::snprintf(line, sizeof line, "%s %llu/%llu (%d%%) %s, ETA %s", label_.c_str(),
                  static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
                  percent, clock_text(elapsed).c_str(), eta.c_str());
    std::string text = line;
    if (!detail.empty()) text += "  " + detail;
    out_ << '\r' << text;
    if (drawn_ > text.size()) out_ << std::string(drawn_ - text.size(), ' ');
    out_ << std::flush;
    drawn_ = text.size();
}

void Progress::finish() {
    if (!enabled_ || !drawn_) return;
    out_ << '\r' << std::string(drawn_, ' ') << '\r' << std::flush;
    drawn_ = 0;
}

bool stderr_is_terminal() { return is_terminal(stderr); }

} // namespace horizon
