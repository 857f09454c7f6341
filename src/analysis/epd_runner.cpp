#include "analysis/epd_runner.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "analysis/game_analysis.hpp"
#include "notation/san.hpp"

namespace horizon {

namespace {

constexpr int MAX_MATE_MOVES = 100;

std::int64_t ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 start)
        .count();
}

std::string join_san(const Position& pos, const std::vector<Move>& moves, const char* glue) {
    std::string out;
    for (Move m : moves)
        out += (out.empty() ? "" : glue) + move_to_san(pos, m);
    return out;
}

std::optional<int> mate_moves(const EpdOperation& op) {
    if (op.operands.size() != 1) return std::nullopt;
    const std::string& text = op.operands[0];
    if (text.empty() || text.size() > 3 ||
        text.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    const int n = std::stoi(text);
    if (n < 1 || n > MAX_MATE_MOVES) return std::nullopt;
    return n;
}

std::string place(const std::string& path, const EpdEntry& e) {
    std::string where = path + ":" + std::to_string(e.line);
    if (!e.record.id().empty()) where += " (" + e.record.id() + ")";
    return where;
}

} // namespace

bool EpdTest::solved_by(Move m, Score score) const {
    if (!best.empty() && std::find(best.begin(), best.end(), m) == best.end()) return false;
    if (std::find(avoid.begin(), avoid.end(), m) != avoid.end()) return false;
    return mate == 0 || score >= mate_in(2 * mate - 1);
}

std::string EpdTest::expected() const {
    const Position& pos = entry.record.pos;
    std::string out;
    const auto add = [&](const std::string& part) { out += (out.empty() ? "" : ", ") + part; };
    if (!best.empty()) add(join_san(pos, best, " or "));
    if (avoid.size() == 1) add("not " + join_san(pos, avoid, ""));
    if (avoid.size() > 1) add("none of " + join_san(pos, avoid, ", "));
    if (mate) add("mate in " + std::to_string(mate));
    return out;
}

std::optional<EpdTest> make_epd_test(const EpdEntry& entry, std::string& error) {
    EpdTest test;
    test.entry = entry;
    const Position& pos = entry.record.pos;
    if (const EpdOperation* bm = entry.record.find("bm")) {
        auto moves = epd_moves(pos, *bm, error);
        if (!moves) return std::nullopt;
        test.best = std::move(*moves);
    }
    if (const EpdOperation* am = entry.record.find("am")) {
        auto moves = epd_moves(pos, *am, error);
        if (!moves) return std::nullopt;
        test.avoid = std::move(*moves);
    }
    if (const EpdOperation* dm = entry.record.find("dm")) {
        const auto n = mate_moves(*dm);
        if (!n) {
            error = "dm needs one whole number from 1 to " + std::to_string(MAX_MATE_MOVES);
            return std::nullopt;
        }
        test.mate = *n;
    }
    if (test.best.empty() && test.avoid.empty() && !test.mate) {
        error = "no bm, am or dm operation to test";
        return std::nullopt;
    }
    return test;
}

std::optional<std::vector<EpdTest>> read_epd_tests(const std::string& path,
                                                   std::vector<std::string>& errors) {
    const std::size_t errors_before = errors.size();
    const auto entries = read_epd_file(path, errors);
    std::vector<EpdTest> tests;
    for (const EpdEntry& e : entries.value_or(std::vector<EpdEntry>{})) {
        std::string error;
        if (auto t = make_epd_test(e, error))
            tests.push_back(std::move(*t));
        else
            errors.push_back(place(path, e) + ": " + error);
    }
    if (errors.size() != errors_before) return std::nullopt;
    return tests;
}

void SolutionTracker::report(Move best, Score score, Bound bound, std::int64_t ms,
                             std::uint64_t nodes) {
    const bool ok = bound != BOUND_UPPER && test_.solved_by(best, score);
    if (ok && !holding_) {
        since_ms_ = ms;
        since_nodes_ = nodes;
    }
    holding_ = ok;
}

EpdOutcome SolutionTracker::finish(Move played, Score score, int depth, std::uint64_t nodes,
                                   std::int64_t ms) {
    EpdOutcome out;
    out.played = played;
    out.score = score;
    out.depth = depth;
    out.nodes = nodes;
    out.ms = ms;
    out.solved = played && test_.solved_by(played, score);
    if (out.solved) {
        // Without a report that stayed right, the search's last word (an interrupted
        // iteration, or a helper thread's) solved it.
        out.solution_ms = holding_ ? since_ms_ : ms;
        out.solution_nodes = holding_ ? since_nodes_ : nodes;
    }
    return out;
}

EpdOutcome run_epd_test(Engine& engine, const EpdTest& test, const SearchLimits& limits) {
    const Position& pos = test.entry.record.pos;
    engine.new_game();
    engine.set_chess960(pos.is_chess960());
    if (auto err = engine.set_position(pos))
        throw std::runtime_error("cannot set up " + pos.fen() + ": " + *err);
    SolutionTracker tracker(test);
    const auto start = std::chrono::steady_clock::now();
    const SearchResult r = engine.search_sync(limits, [&](const SearchReport& report) {
        if (report.multipv == 1 && !report.pv.empty())
            tracker.report(report.pv[0], report.score, report.bound, report.time_ms, report.nodes);
    });
    EpdOutcome outcome = tracker.finish(r.best, r.score, r.depth, r.nodes, ms_since(start));
    outcome.table = table_result(engine, pos);
    return outcome;
}

} // namespace horizon
