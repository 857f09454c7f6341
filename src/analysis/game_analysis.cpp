#include "analysis/game_analysis.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "movegen/movegen.hpp"

namespace horizon {

namespace {

constexpr const char* JUDGEMENT_NAMES[] = {"", "inaccuracy", "mistake", "blunder"};
constexpr const char* JUDGEMENT_PLURALS[] = {"", "inaccuracies", "mistakes", "blunders"};
constexpr int JUDGEMENT_NAGS[] = {0, 6, 2, 4};
constexpr int MOVE_ASSESSMENT_NAG_MAX = 6; // $1..$6: ! ? !! ?? !? ?!
constexpr int TABLE_STEP_PERMILLE = 500;   // win to draw, draw to loss

Score white_view(Score s, Color side_to_move) { return side_to_move == WHITE ? s : -s; }

int capped_cp(Score s) { return std::clamp(s, -CP_LOSS_CAP, CP_LOSS_CAP); }

// The position of the engine, searched; a position without legal moves is not searched.
PositionEval search_position(Engine& engine, const SearchLimits& limits, double& seconds) {
    PositionEval e;
    const Position& pos = engine.position();
    e.table = table_result(engine, pos);
    MoveList legal;
    generate<GenType::ALL>(pos, legal);
    if (legal.empty()) {
        e.score = pos.in_check() ? -SCORE_MATE : SCORE_DRAW;
        return e;
    }
    const auto start = std::chrono::steady_clock::now();
    const SearchResult r = engine.search_sync(limits, [](const SearchReport&) {});
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    e.score = r.score;
    e.depth = std::max(1, r.depth);
    e.nodes = r.nodes;
    e.pv = r.pv;
    if (e.pv.empty() && r.best) e.pv.push_back(r.best);
    return e;
}

std::string count_text(int n, Judgement j) {
    return std::to_string(n) + " " + (n == 1 ? JUDGEMENT_NAMES[int(j)] : JUDGEMENT_PLURALS[int(j)]);
}

// The moves of `pv` that are legal one after another from `pos`, at most `plies` of them.
PgnLine legal_line(Position pos, const std::vector<Move>& pv, std::size_t plies) {
    PgnLine line;
    for (Move m : pv) {
        if (line.moves.size() >= plies || !pos.is_legal(m)) break;
        line.moves.push_back(PgnMove{m, {}, {}, {}, {}});
        pos.make_move(m);
    }
    return line;
}

std::string with_eval(std::string_view comment, Score white_score) {
    return set_pgn_command(comment, "eval", eval_text(white_score));
}

// The comment with the position's evaluation and, where the tables hold it, their verdict.
std::string with_eval(std::string_view comment, const PositionEval& e, Color side_to_move) {
    std::string out = with_eval(comment, white_view(e.score, side_to_move));
    if (e.table) out = set_pgn_command(out, "table", table_command_value(*e.table, side_to_move));
    return out;
}

// Marks the move a blunder when the tables' verdict got worse for the mover.
void judge_by_table(MoveJudgement& mj, const PositionEval& before, const PositionEval& after) {
    if (!before.table || !after.table) return;
    const int steps = tb_outcome(before.table->wdl) - -tb_outcome(after.table->wdl);
    if (steps <= 0) return;
    mj.judgement = Judgement::BLUNDER;
    mj.by_table = true;
    mj.loss_permille = TABLE_STEP_PERMILLE * steps;
}

} // namespace

Judgement judge_loss(int loss_permille) {
    if (loss_permille >= JudgementThresholds::BLUNDER) return Judgement::BLUNDER;
    if (loss_permille >= JudgementThresholds::MISTAKE) return Judgement::MISTAKE;
    if (loss_permille >= JudgementThresholds::INACCURACY) return Judgement::INACCURACY;
    return Judgement::GOOD;
}

const char* judgement_name(Judgement j) { return JUDGEMENT_NAMES[int(j)]; }
int judgement_nag(Judgement j) { return JUDGEMENT_NAGS[int(j)]; }

int tb_outcome(TbWdl wdl) {
    if (wdl == TbWdl::WIN) return 1;
    return wdl == TbWdl::LOSS ? -1 : 0;
}

std::optional<TbProbe> table_result(const Engine& engine, const Position& pos) {
    if (!engine.tablebases().enabled()) return std::nullopt;
    return engine.tablebases().probe(pos);
}

std::string table_note(const TbProbe& probe) { return "table: " + tb_result_text(probe); }

std::string table_command_value(const TbProbe& probe, Color side_to_move) {
    return std::string(side_to_move == WHITE ? "White: " : "Black: ") + tb_result_text(probe);
}

int expected_permille(const Wdl& wdl) { return (2 * wdl.win + wdl.draw) / 2; }

int move_loss_permille(const WdlModel& model, Score before, int material_before, Score after,
                       int material_after) {
    const int e_before = expected_permille(wdl_from_score(model, before, material_before));
    const int e_after = expected_permille(wdl_from_score(model, after, material_after));
    return std::max(0, e_before - e_after);
}

PlayerSummary& PlayerSummary::operator+=(const PlayerSummary& o) {
    moves += o.moves;
    loss_cp += o.loss_cp;
    loss_permille += o.loss_permille;
    for (std::size_t i = 0; i < counts.size(); ++i)
        counts[i] += o.counts[i];
    return *this;
}

std::string PlayerSummary::text() const {
    char head[96];
    std::snprintf(head, sizeof head, "average loss %.0f cp (%.1f%% of a point), ", average_cp(),
                  average_permille() / 10.0);
    return head + count_text(counts[1], Judgement::INACCURACY) + ", " +
           count_text(counts[2], Judgement::MISTAKE) + ", " +
           count_text(counts[3], Judgement::BLUNDER);
}

std::vector<PositionEval> search_game(Engine& engine, const PgnGame& game,
                                      const SearchLimits& limits, double& search_seconds,
                                      const std::function<void(int, int)>& on_position) {
    engine.set_chess960(game.start.is_chess960());
    const std::vector<Move> line = game.main_line();
    const int total = int(line.size()) + 1;
    if (auto err = engine.set_position(game.start))
        throw std::runtime_error("cannot set up the position: " + *err);
    std::vector<PositionEval> evals;
    for (int i = 0; i < total; ++i) {
        // One move more at each ply: linear in the game's length.
        if (i > 0) {
            if (auto err = engine.play(line[std::size_t(i - 1)]))
                throw std::runtime_error("cannot set up the position: " + *err);
        }
        evals.push_back(search_position(engine, limits, search_seconds));
        if (on_position) on_position(i + 1, total);
    }
    return evals;
}

GameAnalysis judge_game(const PgnGame& game, std::vector<PositionEval> positions,
                        const WdlModel& model) {
    const std::vector<Move> line = game.main_line();
    if (positions.size() != line.size() + 1)
        throw std::invalid_argument("judge_game: one evaluation per position is needed");
    GameAnalysis a;
    a.positions = std::move(positions);
    Position pos = game.start;
    for (std::size_t i = 0; i < a.positions.size(); ++i) {
        PositionEval& here = a.positions[i];
        const int material = wdl_material(pos);
        here.wdl = wdl_from_score(model, here.score, material);
        if (i == line.size()) break;
        const Color mover = pos.side_to_move();
        pos.make_move(line[i]);

        MoveJudgement mj;
        mj.played = line[i];
        mj.best = here.pv.empty() ? Move::none() : here.pv[0];
        mj.before = here.score;
        mj.after = -a.positions[i + 1].score;
        if (mj.played != mj.best) {
            mj.loss_cp = std::max(0, capped_cp(mj.before) - capped_cp(mj.after));
            mj.loss_permille =
                move_loss_permille(model, mj.before, material, mj.after, wdl_material(pos));
            mj.judgement = judge_loss(mj.loss_permille);
        }
        judge_by_table(mj, here, a.positions[i + 1]);
        PlayerSummary& player = a.players[mover];
        ++player.moves;
        player.loss_cp += mj.loss_cp;
        player.loss_permille += mj.loss_permille;
        ++player.counts[std::size_t(mj.judgement)];
        a.moves.push_back(mj);
    }
    return a;
}

GameAnalysis analyze_game(Engine& engine, const PgnGame& game, const SearchLimits& limits,
                          const std::function<void(int, int)>& on_position) {
    double seconds = 0;
    std::vector<PositionEval> evals = search_game(engine, game, limits, seconds, on_position);
    GameAnalysis a = judge_game(game, std::move(evals), engine.weights().wdl);
    a.search_seconds = seconds;
    return a;
}

std::string eval_text(Score s) {
    if (is_mate_score(s)) {
        const int plies = SCORE_MATE - std::abs(s);
        return std::string(s > 0 ? "#" : "#-") + std::to_string((plies + 1) / 2);
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", s / 100.0);
    return text;
}

std::string signed_eval_text(Score white_score) {
    const std::string text = eval_text(white_score);
    return white_score > 0 && text[0] != '#' ? "+" + text : text;
}

std::optional<Score> parse_eval_text(std::string_view text) {
    if (text.empty()) return std::nullopt;
    const bool mate = text[0] == '#';
    if (mate) text.remove_prefix(1);
    const bool negative = !text.empty() && text[0] == '-';
    const std::string number(text);
    char* end = nullptr;
    const double v = std::strtod(number.c_str(), &end);
    if (number.empty() || end != number.c_str() + number.size() || !std::isfinite(v))
        return std::nullopt;
    if (!mate) {
        if (std::abs(v) * 100 >= SCORE_MATE_IN_MAX_PLY) return std::nullopt;
        return Score(std::lround(v * 100));
    }
    const long moves = std::lround(std::abs(v));
    if (moves != std::abs(v) || 2 * moves > MAX_PLY) return std::nullopt;
    const Score score = moves == 0 ? SCORE_MATE : mate_in(int(2 * moves - 1));
    return negative ? -score : score;
}

void annotate_game(PgnGame& game, const GameAnalysis& analysis, const AnnotateOptions& options) {
    PgnLine& line = game.moves;
    if (analysis.positions.size() != line.moves.size() + 1 ||
        analysis.moves.size() != line.moves.size())
        throw std::invalid_argument("annotate_game: the analysis is of another game");
    if (!options.annotator.empty()) game.set_tag("Annotator", options.annotator);

    Position pos = game.start;
    const PositionEval& start = analysis.positions[0];
    if (line.moves.empty())
        line.trailing_comment = with_eval(line.trailing_comment, start, pos.side_to_move());
    else
        line.moves[0].comment_before =
            with_eval(line.moves[0].comment_before, start, pos.side_to_move());

    for (std::size_t i = 0; i < line.moves.size(); ++i) {
        PgnMove& move = line.moves[i];
        const MoveJudgement& mj = analysis.moves[i];
        const PositionEval& before = analysis.positions[i];
        const Color mover = pos.side_to_move();
        if (mj.judgement != Judgement::GOOD) {
            std::erase_if(move.nags, [](std::uint8_t n) { return n <= MOVE_ASSESSMENT_NAG_MAX; });
            move.nags.insert(move.nags.begin(), std::uint8_t(judgement_nag(mj.judgement)));
            PgnLine better = legal_line(pos, before.pv, options.better_line_plies);
            // (Judged by the tables, the move may be the search's own choice.)
            if (!better.moves.empty() && better.moves[0].move != move.move) {
                better.moves[0].comment_after = with_eval("", white_view(before.score, mover));
                move.variations.push_back(std::move(better));
            }
        }
        pos.make_move(move.move);
        move.comment_after =
            with_eval(move.comment_after, analysis.positions[i + 1], pos.side_to_move());
        if (i < analysis.explanations.size() && !analysis.explanations[i].empty())
            move.comment_after += " " + analysis.explanations[i];
    }

    std::string summary = options.annotator.empty() ? "Analysis" : options.annotator;
    if (!options.limits.empty()) summary += ", " + options.limits;
    summary += ". White: " + analysis.players[WHITE].text() +
               ". Black: " + analysis.players[BLACK].text() + ".";
    // After the last move's own comment when no variation stands between (PGN cannot tell a
    // comment there from the line's closing one: a reader makes them one).
    const bool after_last = !line.moves.empty() && line.moves.back().variations.empty() &&
                            line.trailing_comment.empty();
    std::string& closing = after_last ? line.moves.back().comment_after : line.trailing_comment;
    if (!closing.empty()) closing += ' ';
    closing += summary;
}

std::string summary_lines(const PgnGame& game, const GameAnalysis& analysis) {
    std::string out;
    for (Color c : {WHITE, BLACK}) {
        const std::string_view name = game.tag(c == WHITE ? "White" : "Black");
        out += c == WHITE ? "White" : "Black";
        if (!name.empty() && name != "?") out += " (" + std::string(name) + ")";
        out += ": " + std::to_string(analysis.players[c].moves) + " moves, " +
               analysis.players[c].text() + "\n";
    }
    return out;
}

} // namespace horizon
