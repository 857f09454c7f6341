#include "cli/progress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "platform/system.hpp"

namespace horizon {

Progress::Progress(std::ostream& out, bool enabled, std::string label)
    : Progress(out, enabled ? ProgressMode::REDRAW : ProgressMode::OFF, std::move(label)) {}

Progress::Progress(std::ostream& out, ProgressMode mode, std::string label,
                   std::chrono::milliseconds interval)
    : out_(out), mode_(mode), label_(std::move(label)), interval_(interval) {
    // A log gets its first line after one interval, not at once.
    if (mode_ == ProgressMode::LINES) last_draw_ = start_;
}

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

std::optional<double> Progress::eta(double done, double left, double elapsed) {
    if (!(done > 0)) return std::nullopt;
    return std::max(0.0, left) * elapsed / done;
}

std::string Progress::text(std::string_view label, std::uint64_t done, std::uint64_t total,
                           double elapsed, std::optional<double> eta, const std::string& detail) {
    char line[160];
    const int percent = total ? int(100 * std::min(done, total) / total) : 100;
    std::snprintf(line, sizeof line, "%.*s %llu/%llu (%d%%) %s, ETA %s", int(label.size()),
                  label.data(), static_cast<unsigned long long>(done),
                  static_cast<unsigned long long>(total), percent, clock_text(elapsed).c_str(),
                  eta ? clock_text(*eta).c_str() : "?");
    std::string text = line;
    if (!detail.empty()) text += "  " + detail;
    return text;
}

void Progress::update(std::uint64_t done, std::uint64_t total, const std::string& detail) {
    if (mode_ == ProgressMode::OFF) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    update(done, total, elapsed, eta(double(done), double(total - std::min(done, total)), elapsed),
           detail);
}

void Progress::update(std::uint64_t done, std::uint64_t total, double elapsed,
                      std::optional<double> time_left, const std::string& detail) {
    if (mode_ == ProgressMode::OFF) return;
    const auto now = Clock::now();
    // A redrawn line shows the last state whatever the interval; a log waits for it.
    const bool last = mode_ == ProgressMode::REDRAW && done >= total;
    if (!last && now - last_draw_ < interval_) return;
    last_draw_ = now;
    const std::string line = text(label_, done, total, elapsed, time_left, detail);
    if (mode_ == ProgressMode::LINES) {
        out_ << line << std::endl;
        return;
    }
    out_ << '\r' << line;
    if (drawn_ > line.size()) out_ << std::string(drawn_ - line.size(), ' ');
    out_ << std::flush;
    drawn_ = line.size();
}

void Progress::finish() {
    if (mode_ != ProgressMode::REDRAW || !drawn_) return;
    out_ << '\r' << std::string(drawn_, ' ') << '\r' << std::flush;
    drawn_ = 0;
}

bool stderr_is_terminal() { return is_terminal(stderr); }

} // namespace horizon
