#include "search/strength.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <vector>

namespace horizon {

namespace {

// Fitted by scripts/match/calibrate_elo.sh against Stockfish 15.1 at the same UCI_Elo, 10+0.1. The
// 1400 row is the point that the 1350 and 1800 rows of 2026-11-25 gave it (it measured -17 +/-
// 64 Elo with the build of 2026-11-28), kept when the 1800 row was refitted to that build.
constexpr std::array<StrengthLevel, 6> TABLE = {{
    {1350, 600, 4, 80, 300},
    {1400, 782, 4, 74, 280},
    {1800, 2000, 3, 33, 145},
    {2200, 250000, 2, 6, 40},
    {2600, 2000000, 1, 0, 0},
    {2850, STRENGTH_MAX_NODES, 1, 0, 0}, // no budget: the clock alone, full strength
}};

// Scores past this are mates or table wins: as a difference between lines, a large one.
constexpr Score LOSS_CAP = 2000;

int lerp(int a, int b, double t) { return int(std::lround(a + (b - a) * t)); }

} // namespace

std::span<const StrengthLevel> strength_table() { return TABLE; }

StrengthLevel strength_level(int elo) {
    elo = std::clamp(elo, STRENGTH_ELO_MIN, STRENGTH_ELO_MAX);
    std::size_t hi = 1;
    while (hi + 1 < TABLE.size() && TABLE[hi].elo < elo)
        ++hi;
    const StrengthLevel& a = TABLE[hi - 1];
    const StrengthLevel& b = TABLE[hi];
    const double t = std::clamp(double(elo - a.elo) / double(b.elo - a.elo), 0.0, 1.0);
    StrengthLevel level;
    level.elo = elo;
    level.nodes = std::uint64_t(std::llround(std::exp(
        std::log(double(a.nodes)) + (std::log(double(b.nodes)) - std::log(double(a.nodes))) * t)));
    level.lines = t < 0.5 ? a.lines : b.lines;
    level.temperature = lerp(a.temperature, b.temperature, t);
    level.max_loss = lerp(a.max_loss, b.max_loss, t);
    return level;
}

std::optional<std::string> parse_strength_row(std::string_view text, StrengthLevel& out) {
    std::vector<long long> numbers;
    std::size_t i = 0;
    const auto separator = [&](std::size_t k) {
        return text[k] == ' ' || text[k] == ',' || text[k] == '\t';
    };
    while (i < text.size()) {
        if (separator(i)) {
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < text.size() && !separator(end))
            ++end;
        long long n = 0;
        const auto [ptr, ec] = std::from_chars(text.data() + i, text.data() + end, n);
        const std::string word(text.substr(i, std::min<std::size_t>(end - i, 24)));
        if (ec == std::errc::result_out_of_range) return "'" + word + "' is too large";
        if (ec != std::errc() || ptr != text.data() + end)
            return "'" + word + "' is not a whole number";
        numbers.push_back(n);
        i = end;
    }
    if (numbers.size() != 4)
        return "a level is four numbers, NODES LINES TEMPERATURE MAX_LOSS, not " +
               std::to_string(numbers.size());
    const auto outside = [](const char* what, long long n, long long lo, long long hi) {
        return std::string(what) + " " + std::to_string(n) + " is outside " + std::to_string(lo) +
               ".." + std::to_string(hi);
    };
    if (numbers[0] < 1 || numbers[0] > STRENGTH_MAX_NODES)
        return outside("NODES", numbers[0], 1, STRENGTH_MAX_NODES);
    if (numbers[1] < 1 || numbers[1] > STRENGTH_MAX_LINES)
        return outside("LINES", numbers[1], 1, STRENGTH_MAX_LINES);
    if (numbers[2] < 0 || numbers[2] > STRENGTH_MAX_MARGIN)
        return outside("TEMPERATURE", numbers[2], 0, STRENGTH_MAX_MARGIN);
    if (numbers[3] < 0 || numbers[3] > STRENGTH_MAX_MARGIN)
        return outside("MAX_LOSS", numbers[3], 0, STRENGTH_MAX_MARGIN);
    out.nodes = std::uint64_t(numbers[0]);
    out.lines = int(numbers[1]);
    out.temperature = int(numbers[2]);
    out.max_loss = int(numbers[3]);
    return std::nullopt;
}

std::string format_strength_row(const StrengthLevel& level) {
    return std::to_string(level.nodes) + " " + std::to_string(level.lines) + " " +
           std::to_string(level.temperature) + " " + std::to_string(level.max_loss);
}

bool guard_refuses(Score best, Score chosen) {
    return std::clamp<Score>(best, -LOSS_CAP, LOSS_CAP) -
               std::clamp<Score>(chosen, -LOSS_CAP, LOSS_CAP) >
           GUARD_MARGIN;
}

std::size_t choose_line(std::span<const Score> scores, const StrengthLevel& level,
                        std::uint64_t draw) {
    if (scores.size() <= 1 || level.temperature <= 0) return 0;
    const Score best = std::clamp<Score>(scores[0], -LOSS_CAP, LOSS_CAP);
    std::vector<double> weight;
    double total = 0;
    for (Score s : scores) {
        const int loss = best - std::clamp<Score>(s, -LOSS_CAP, LOSS_CAP);
        if (loss > level.max_loss) break; // the lines come best first
        weight.push_back(std::exp(-double(std::max(loss, 0)) / level.temperature));
        total += weight.back();
    }
    // The top 53 bits as a number in [0, 1).
    double x = double(draw >> 11) * (1.0 / 9007199254740992.0) * total;
    for (std::size_t i = 0; i < weight.size(); ++i) {
        if (x < weight[i]) return i;
        x -= weight[i];
    }
    return weight.size() - 1;
}

} // namespace horizon
