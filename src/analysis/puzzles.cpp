#include "analysis/puzzles.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "movegen/movegen.hpp"
#include "notation/epd.hpp"
#include "notation/san.hpp"
#include "notation/uci_move.hpp"

namespace horizon {

namespace {

std::vector<std::string> fen_fields(const Position& pos) {
    std::istringstream in(pos.fen());
    std::vector<std::string> fields;
    for (std::string f; in >> f;)
        fields.push_back(f);
    return fields;
}

std::string move_number_text(const Position& pos) {
    return std::to_string(pos.fullmove_number()) + (pos.side_to_move() == WHITE ? "." : "...");
}

} // namespace

int puzzle_cp(Score s) { return std::clamp(s, -PUZZLE_MATE_CP, PUZZLE_MATE_CP); }

bool puzzle_candidate(const GameAnalysis& analysis, std::size_t index, const Position& before,
                      const PuzzleOptions& options) {
    const MoveJudgement& mj = analysis.moves.at(index);
    if (mj.judgement != Judgement::MISTAKE && mj.judgement != Judgement::BLUNDER) return false;
    if (mj.played == mj.best) return false;
    // The move played scores no better than the second-best move: without this gap at the
    // analysis's depth no margin is to be expected deeper (a cheap test before the check).
    if (puzzle_cp(mj.before) - puzzle_cp(mj.after) < options.margin_cp) return false;
    MoveList legal;
    generate<GenType::ALL>(before, legal);
    if (legal.size() < 2) return false;
    const int now = puzzle_cp(analysis.positions[index].score);
    if (now < -options.bound_cp) return false;
    // Before the opponent's last move, from the side to move's view (the game's start: now).
    const int then = index > 0 ? -puzzle_cp(analysis.positions[index - 1].score) : now;
    return std::abs(then) <= options.bound_cp;
}

int puzzle_depth(const PositionEval& eval) {
    return std::max(1, eval.depth) + PuzzleOptions::EXTRA_DEPTH;
}

std::optional<Puzzle> check_puzzle(Engine& engine, const Position& before, Move played, int depth,
                                   const PuzzleOptions& options) {
    engine.set_chess960(before.is_chess960());
    if (engine.set_position(before)) return std::nullopt;
    SearchLimits limits;
    limits.depth = depth;
    // The two lines of each depth completed; the check reads the last HOLD_DEPTHS.
    std::vector<std::array<SearchReport, 2>> by_depth;
    engine.set_multipv(2);
    engine.search_sync(limits, [&](const SearchReport& r) {
        if (r.multipv < 1 || r.multipv > 2 || r.pv.empty() || r.bound != BOUND_EXACT) return;
        if (by_depth.size() < std::size_t(r.depth)) by_depth.resize(std::size_t(r.depth));
        by_depth[std::size_t(r.depth - 1)][std::size_t(r.multipv - 1)] = r;
    });
    engine.set_multipv(1);
    // Each of the last depths: both lines there, the same best move, not the one played,
    // and the margin between the lines.
    const auto holds = [&](std::size_t d) {
        if (d >= by_depth.size()) return false;
        const auto& lines = by_depth[d];
        return !lines[0].pv.empty() && !lines[1].pv.empty() &&
               lines[0].pv[0] == by_depth.back()[0].pv[0] && lines[0].pv[0] != played &&
               puzzle_cp(lines[0].score) - puzzle_cp(lines[1].score) >=
                   PuzzleOptions::CHECK_FACTOR * options.margin_cp;
    };
    const std::size_t n = by_depth.size();
    if (n < PuzzleOptions::HOLD_DEPTHS || by_depth.back()[0].pv.empty()) return std::nullopt;
    for (std::size_t d = n - PuzzleOptions::HOLD_DEPTHS; d < n; ++d)
        if (!holds(d)) return std::nullopt;
    // A mate found is no change of mind. Short of a mate, the best line must not leave the
    // game decided either way: a move that keeps a won game won, or loses a lost one less,
    // is no exercise of finding the one move.
    const Score last = by_depth[n - 1][0].score, before_last = by_depth[n - 2][0].score;
    if (!is_mate_score(last) &&
        (std::abs(puzzle_cp(last) - puzzle_cp(before_last)) > options.margin_cp ||
         std::abs(puzzle_cp(last)) > options.bound_cp))
        return std::nullopt;
    const auto& lines = by_depth.back();
    Puzzle p;
    p.pos = before;
    p.best = lines[0].pv[0];
    p.played = played;
    Position walk = before;
    for (Move m : lines[0].pv) {
        if (p.solution.size() >= PuzzleOptions::SOLUTION_PLIES || !walk.is_legal(m)) break;
        p.solution.push_back(m);
        walk.make_move(m);
    }
    p.best_score = lines[0].score;
    p.second_score = lines[1].score;
    p.depth = int(by_depth.size());
    return p;
}

std::vector<Puzzle> find_puzzles(Engine& engine, const PgnGame& game, std::uint64_t number,
                                 const GameAnalysis& analysis,
                                 const std::vector<Explanation>& explanations,
                                 const PuzzleOptions& options, const std::string& player,
                                 double& seconds,
                                 const std::function<void(std::size_t, std::size_t)>& progress) {
    const auto start = std::chrono::steady_clock::now();
    std::vector<Puzzle> out;
    Position pos = game.start;
    for (std::size_t i = 0; i < analysis.moves.size(); ++i) {
        const Move played = analysis.moves[i].played;
        const std::string name(game.tag(pos.side_to_move() == WHITE ? "White" : "Black"));
        if ((player.empty() || name == player) && puzzle_candidate(analysis, i, pos, options)) {
            if (auto p = check_puzzle(engine, pos, played, puzzle_depth(analysis.positions[i]),
                                      options)) {
                p->player = name.empty() ? "?" : name;
                p->theme = i < explanations.size() && !explanations[i].theme.empty()
                               ? explanations[i].theme
                               : "best move";
                p->game = number;
                p->white = game.tag("White");
                p->black = game.tag("Black");
                p->site = game.tag("Site");
                p->date = game.tag("Date");
                p->round = game.tag("Round");
                out.push_back(std::move(*p));
            }
            if (progress) progress(i + 1, analysis.moves.size());
        }
        pos.make_move(played);
    }
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

std::string puzzle_id(const Puzzle& p) {
    return p.player + ", game " + std::to_string(p.game) + ", move " + move_number_text(p.pos);
}

std::string puzzle_epd(const Puzzle& p) {
    const std::vector<std::string> f = fen_fields(p.pos);
    std::string out = f[0] + " " + f[1] + " " + f[2] + " " + f[3];
    out += " bm " + move_to_san(p.pos, p.best) + ";";
    out += " id " + epd_string_operand(puzzle_id(p)) + ";";
    out += " pv " + moves_to_san(p.pos, p.solution, false) + ";";
    out += " c0 " + epd_string_operand(p.theme) + ";";
    out += " c1 " + epd_string_operand(p.player) + ";";
    char margin[96];
    std::snprintf(margin, sizeof margin, "margin %d cp at depth %d",
                  puzzle_cp(p.best_score) - puzzle_cp(p.second_score), p.depth);
    out += " c2 " + epd_string_operand(margin) + ";";
    out += " c3 " + epd_string_operand("played " + move_to_san(p.pos, p.played)) + ";";
    out += " c4 " + epd_string_operand("uci " + move_to_uci(p.pos, p.best)) + ";";
    out += " hmvc " + f[4] + "; fmvn " + f[5] + ";";
    return out;
}

PgnGame puzzle_pgn(const Puzzle& p) {
    PgnGame g;
    g.set_tag("Event", "Puzzle: " + p.theme);
    g.set_tag("Site", p.site.empty() ? "?" : p.site);
    g.set_tag("Date", p.date.empty() ? "????.??.??" : p.date);
    g.set_tag("Round", p.round.empty() ? "?" : p.round);
    g.set_tag("White", p.white.empty() ? "?" : p.white);
    g.set_tag("Black", p.black.empty() ? "?" : p.black);
    g.set_tag("Result", "*");
    g.set_tag("PuzzlePlayer", p.player);
    g.set_tag("PuzzleTheme", p.theme);
    g.set_tag("PuzzleId", puzzle_id(p));
    g.start = p.pos;
    g.result = "*";
    for (Move m : p.solution)
        g.moves.moves.push_back(PgnMove{m, {}, {}, {}, {}});
    if (!g.moves.moves.empty())
        g.moves.moves[0].comment_before =
            std::string(p.pos.side_to_move() == WHITE ? "White" : "Black") + " to play (" +
            p.theme + "). In the game " + move_number_text(p.pos) + " " +
            move_to_san(p.pos, p.played) + " was played.";
    return g;
}

} // namespace horizon
