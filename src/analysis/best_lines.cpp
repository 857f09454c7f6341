#include "analysis/best_lines.hpp"

#include <cstdio>
#include <stdexcept>

#include "analysis/game_analysis.hpp"
#include "notation/san.hpp"

namespace horizon {

std::vector<SearchReport> best_lines(Engine& engine, const Position& pos,
                                     const SearchLimits& limits, int multipv) {
    engine.set_chess960(pos.is_chess960());
    if (auto err = engine.set_position(pos))
        throw std::runtime_error("cannot set up " + pos.fen() + ": " + *err);
    engine.set_multipv(multipv);
    std::vector<SearchReport> lines;
    const SearchResult r = engine.search_sync(limits, [&](const SearchReport& report) {
        if (report.multipv < 1) return;
        if (lines.size() < std::size_t(report.multipv)) lines.resize(std::size_t(report.multipv));
        lines[std::size_t(report.multipv - 1)] = report;
    });
    engine.set_multipv(1);
    if (lines.empty() && r.best) {
        SearchReport only;
        only.depth = r.depth;
        only.score = r.score;
        only.pv = r.pv.empty() ? std::vector<Move>{r.best} : r.pv;
        lines.push_back(only);
    }
    std::erase_if(lines, [](const SearchReport& l) { return l.pv.empty(); });
    return lines;
}

std::string lines_table(const Position& pos, const std::vector<SearchReport>& lines) {
    if (lines.empty())
        return pos.in_check() ? "no legal move: checkmate\n" : "no legal move: stalemate\n";
    std::string out = "rank   score  depth  pv (scores from White's point of view)\n";
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const SearchReport& l = lines[i];
        const Score white = pos.side_to_move() == WHITE ? l.score : -l.score;
        const std::string score = signed_eval_text(white);
        char head[48];
        std::snprintf(head, sizeof head, "%4zu %7s %6d  ", i + 1, score.c_str(), l.depth);
        out += head + moves_to_san(pos, l.pv) + "\n";
    }
    return out;
}

} // namespace horizon
