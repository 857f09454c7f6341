// The analysis room (src/analysis) and its front ends: the judging of moves, the annotated PGN,
// the SVG plot, the test-suite runner, `horizon analyze` and `horizon epd` end to end, and their
// answers to bad input (the EPD format itself is tested with the notation). Searches run at fixed
// nodes on one thread, so every result here is reproducible.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/best_lines.hpp"
#include "analysis/epd_runner.hpp"
#include "analysis/explain.hpp"
#include "analysis/game_analysis.hpp"
#include "analysis/pgn_analysis.hpp"
#include "analysis/puzzles.hpp"
#include "analysis/svg_plot.hpp"
#include "cli/analyze.hpp"
#include "core/position.hpp"
#include "engine/config.hpp"
#include "engine/engine.hpp"
#include "eval/params.hpp"
#include "eval/wdl.hpp"
#include "movegen/movegen.hpp"
#include "notation/epd.hpp"
#include "notation/pgn_reader.hpp"
#include "notation/pgn_writer.hpp"
#include "notation/san.hpp"
#include "notation/uci_move.hpp"

#include "support.hpp"

using namespace horizon;
using namespace horizon::test;

namespace {

constexpr std::uint64_t TEST_NODES = 3000;

std::string data_path(const std::string& name) {
    return std::string(HORIZON_SOURCE_DIR) + "/tests/data/analyze/" + name;
}

// Tags, moves (with comments, NAGs and variations) and result alike.
bool same_game(const PgnGame& a, const PgnGame& b) {
    return a.tags == b.tags && a.moves == b.moves && a.result == b.result;
}

PgnGame first_game(const std::string& text) {
    auto games = read_pgn(text);
    REQUIRE(!games.empty());
    REQUIRE_FALSE(games[0].error.has_value());
    return games[0];
}

SearchLimits node_limit(std::uint64_t nodes) {
    SearchLimits limits;
    limits.nodes = nodes;
    return limits;
}

// The analysis `horizon analyze --nodes N --threads 1` makes of the first game of a file.
GameAnalysis library_analysis(const PgnGame& game, std::uint64_t nodes) {
    Engine engine;
    engine.set_threads(1);
    engine.new_game();
    return analyze_game(engine, game, node_limit(nodes));
}

Judgement judgement_of(const PgnMove& m) {
    for (std::uint8_t nag : m.nags)
        for (Judgement j : {Judgement::INACCURACY, Judgement::MISTAKE, Judgement::BLUNDER})
            if (nag == judgement_nag(j)) return j;
    return Judgement::GOOD;
}

Score eval_of(const std::string& comment) {
    const auto value = pgn_command(comment, "eval");
    INFO("comment: " << comment);
    REQUIRE(value.has_value());
    const auto score = parse_eval_text(*value);
    REQUIRE(score.has_value());
    return *score;
}

// Every element closed in order (or self-closed); declarations skipped. Returns what is
// wrong, or "" when nothing is.
std::string unbalanced_tags(const std::string& xml) {
    std::vector<std::string> open;
    for (std::size_t at = xml.find('<'); at != std::string::npos; at = xml.find('<', at + 1)) {
        const std::size_t end = xml.find('>', at);
        if (end == std::string::npos) return "a '<' is never closed";
        const std::string tag = xml.substr(at + 1, end - at - 1);
        if (tag.empty() || tag[0] == '?' || tag[0] == '!') continue;
        const bool closing = tag[0] == '/', self_closing = tag.back() == '/';
        const std::string name = tag.substr(closing, tag.find_first_of(" \t\n/", 1) - closing);
        if (closing) {
            if (open.empty() || open.back() != name)
                return "</" + name + "> closes " + (open.empty() ? "nothing" : open.back());
            open.pop_back();
        } else if (!self_closing) {
            open.push_back(name);
        }
    }
    return open.empty() ? "" : "<" + open.back() + "> is never closed";
}

// The "x,y" pairs of the polyline of White's win chance.
std::size_t plot_points(const std::string& svg) {
    const std::size_t line = svg.find("class=\"white-win-chance\"");
    REQUIRE(line != std::string::npos);
    const std::size_t begin = svg.find("points=\"", line) + 8;
    const std::string points = svg.substr(begin, svg.find('"', begin) - begin);
    std::istringstream in(points);
    std::size_t n = 0;
    for (std::string pair; in >> pair; ++n)
        CHECK(std::count(pair.begin(), pair.end(), ',') == 1);
    return n;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

const WdlModel& model() { return default_wdl_model(); }

constexpr const char* MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - -";
constexpr const char* QUEEN_TRADE = "4k3/8/8/8/8/8/3q4/3QK3 w - -";
constexpr const char* MATE_IN_TWO = "k7/8/2K5/8/8/8/8/7R w - -";

std::string tiny_suite(bool with_impossible) {
    std::string suite = std::string(MATE_IN_ONE) + " bm Rd8#; id \"mate in one\";\n" +
                        "# a comment line, and a blank one\n\n" + QUEEN_TRADE +
                        " am Kf1; id \"avoid\";\n" + MATE_IN_TWO + " dm 2; id \"mate in two\";\n";
    if (with_impossible) suite += std::string(MATE_IN_ONE) + " bm h3; id \"impossible\";\n";
    return suite;
}

} // namespace

// --------------------------------------------------------------------------------------------
// Judging

TEST_CASE("analyze: the thresholds of ?!, ? and ??", "[analyze]") {
    CHECK(judge_loss(0) == Judgement::GOOD);
    CHECK(judge_loss(JudgementThresholds::INACCURACY - 1) == Judgement::GOOD);
    CHECK(judge_loss(JudgementThresholds::INACCURACY) == Judgement::INACCURACY);
    CHECK(judge_loss(JudgementThresholds::MISTAKE - 1) == Judgement::INACCURACY);
    CHECK(judge_loss(JudgementThresholds::MISTAKE) == Judgement::MISTAKE);
    CHECK(judge_loss(JudgementThresholds::BLUNDER - 1) == Judgement::MISTAKE);
    CHECK(judge_loss(JudgementThresholds::BLUNDER) == Judgement::BLUNDER);
    CHECK(judge_loss(1000) == Judgement::BLUNDER);
    CHECK(JudgementThresholds::INACCURACY == 50);
    CHECK(JudgementThresholds::MISTAKE == 100);
    CHECK(JudgementThresholds::BLUNDER == 200);
    CHECK(nag_to_suffix(judgement_nag(Judgement::INACCURACY)) == "?!");
    CHECK(nag_to_suffix(judgement_nag(Judgement::MISTAKE)) == "?");
    CHECK(nag_to_suffix(judgement_nag(Judgement::BLUNDER)) == "??");
    CHECK(judgement_nag(Judgement::GOOD) == 0);

    CHECK(expected_permille({1000, 0, 0}) == 1000);
    CHECK(expected_permille({0, 1000, 0}) == 500);
    CHECK(expected_permille({0, 0, 1000}) == 0);
    CHECK(expected_permille({301, 399, 300}) == 500);
}

TEST_CASE("analyze: a move's loss is judged by the WDL model, not by centipawns", "[analyze]") {
    const int full = 78, ending = 20;
    CHECK(move_loss_permille(model(), 50, full, 50, full) == 0);
    CHECK(move_loss_permille(model(), 50, full, 120, full) == 0); // a gain is no loss
    // The same 300 cp drop costs far more from a level position than in a won one.
    const int level = move_loss_permille(model(), 100, full, -200, full);
    const int won = move_loss_permille(model(), 1500, full, 1200, full);
    CHECK(level >= JudgementThresholds::BLUNDER);
    CHECK(won < JudgementThresholds::INACCURACY);
    // A bigger drop from the same score never costs less.
    int last = 0;
    for (Score after = 100; after >= -600; after -= 50) {
        const int loss = move_loss_permille(model(), 100, ending, after, ending);
        CHECK(loss >= last);
        last = loss;
    }
    // From a mate to being mated: the whole point.
    CHECK(move_loss_permille(model(), mate_in(3), full, mated_in(2), full) == 1000);
    CHECK(move_loss_permille(model(), mate_in(3), full, mate_in(9), full) == 0);
    // The loss is exactly the drop of expected_permille at each position's material.
    const Wdl before = wdl_from_score(model(), 80, full),
              after = wdl_from_score(model(), -150, ending);
    CHECK(move_loss_permille(model(), 80, full, -150, ending) ==
          expected_permille(before) - expected_permille(after));
}

TEST_CASE("analyze: [%eval] values, written and read", "[analyze]") {
    CHECK(eval_text(25) == "0.25");
    CHECK(eval_text(-130) == "-1.30");
    CHECK(eval_text(0) == "0.00");
    CHECK(eval_text(-5) == "-0.05");
    CHECK(eval_text(mate_in(1)) == "#1");
    CHECK(eval_text(mate_in(5)) == "#3");
    CHECK(eval_text(-mate_in(5)) == "#-3");
    CHECK(eval_text(mated_in(2)) == "#-1");
    CHECK(eval_text(-SCORE_MATE) == "#-0");
    CHECK(eval_text(SCORE_MATE) == "#0");
    for (Score s : {0, 1, -1, 25, -130, 999, -2500})
        CHECK(parse_eval_text(eval_text(s)) == s);
    for (Score s : {mate_in(1), mate_in(6), mated_in(4), SCORE_MATE, -SCORE_MATE}) {
        const auto back = parse_eval_text(eval_text(s));
        REQUIRE(back.has_value());
        CHECK(eval_text(*back) == eval_text(s));
        CHECK((*back > 0) == (s > 0));
    }
    CHECK(parse_eval_text("+0.30") == 30);
    for (const char* bad : {"", "#", "abc", "1.2.3", "#x", "#1.5", "400"})
        CHECK_FALSE(parse_eval_text(bad).has_value());
}

TEST_CASE("analyze: judge_game from given evaluations", "[analyze]") {
    const PgnGame game = first_game("[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Qh5 Ke7 *\n");
    const auto move = [&](int i) { return game.moves.moves[std::size_t(i)].move; };
    // Side to move's view at each position; pv[0] is the search's best move.
    std::vector<PositionEval> evals(5);
    evals[0] = {30, {}, 10, 0, {move(0)}, {}};  // 1. e4, the best move
    evals[1] = {-20, {}, 10, 0, {move(1)}, {}}; // 1... e5, best: White's eval dropped, no loss
    evals[2] = {40, {}, 10, 0, {move(0)}, {}};  // 2. Qh5 is not the best move: e4 stands for it
    evals[3] = {-70, {}, 10, 0, {move(1)}, {}}; // 2... Ke7: the best was "e5" (a stand-in)
    evals[4] = {600, {}, 10, 0, {}, {}};

    const GameAnalysis a = judge_game(game, evals, model());
    REQUIRE(a.moves.size() == 4);
    REQUIRE(a.positions.size() == 5);
    CHECK(a.moves[0].judgement == Judgement::GOOD);
    CHECK(a.moves[0].loss_permille == 0);
    CHECK(a.moves[1].before == -20);
    CHECK(a.moves[1].after == -40);
    CHECK(a.moves[1].loss_cp == 0); // the move played was the best one: no loss by definition
    CHECK(a.moves[2].best == move(0));
    CHECK(a.moves[2].before == 40);
    CHECK(a.moves[2].after == 70);
    CHECK(a.moves[2].loss_cp == 0); // better than expected
    CHECK(a.moves[3].before == -70);
    CHECK(a.moves[3].after == -600);
    CHECK(a.moves[3].loss_cp == 530);
    CHECK(a.moves[3].loss_permille == move_loss_permille(model(), -70, 78, -600, 78));
    CHECK(a.moves[3].judgement == judge_loss(a.moves[3].loss_permille));
    CHECK(a.moves[3].judgement != Judgement::GOOD);
    CHECK(a.players[WHITE].moves == 2);
    CHECK(a.players[BLACK].moves == 2);
    CHECK(a.players[BLACK].loss_cp == 530);
    CHECK(a.players[BLACK].average_cp() == Approx(265.0));
    CHECK(a.players[BLACK].counts[std::size_t(a.moves[3].judgement)] == 1);
    CHECK(a.positions[4].wdl.win == wdl_from_score(model(), 600, 78).win);

    // Mates are capped at CP_LOSS_CAP in the centipawn loss.
    evals[4] = {SCORE_MATE - 3, {}, 10, 0, {}, {}};
    CHECK(judge_game(game, evals, model()).moves[3].loss_cp == CP_LOSS_CAP - 70);
    evals.pop_back();
    CHECK_THROWS(judge_game(game, evals, model()));
}

TEST_CASE("analyze: the annotated game reads back with its evaluations, marks and lines",
          "[analyze]") {
    PgnGame game = first_game("[White \"A\"]\n[Black \"B\"]\n\n1. e4 {[%clk 0:05:00]} e5 2. Qh5 "
                              "Ke7! $14 (2... Nc6) 3. Qxe5# 1-0\n");
    const auto move = [&](int i) { return game.moves.moves[std::size_t(i)].move; };
    std::vector<PositionEval> evals(6);
    evals[0] = {30, {}, 5, 0, {move(0)}, {}};
    evals[1] = {-30, {}, 5, 0, {move(1)}, {}};
    evals[2] = {40, {}, 5, 0, {move(2)}, {}};
    evals[3] = {-50, {}, 5, 0, {}, {}}; // the better line for 2... Ke7: 2... Nc6 3. Bc4
    const Position before_ke7 = [&] {
        Position p = game.start;
        for (int i = 0; i < 3; ++i)
            p.make_move(move(i));
        return p;
    }();
    const ParsedMove nc6 = parse_san(before_ke7, "Nc6");
    REQUIRE(nc6);
    Position after_nc6 = before_ke7;
    after_nc6.make_move(nc6.move);
    const ParsedMove bc4 = parse_san(after_nc6, "Bc4");
    REQUIRE(bc4);
    evals[3].pv = {nc6.move, bc4.move, Move(std::uint16_t(12345))}; // a corrupt third move
    evals[4] = {mate_in(1), {}, 5, 0, {move(4)}, {}};
    evals[5] = {-SCORE_MATE, {}, 0, 0, {}, {}};
    const GameAnalysis a = judge_game(game, evals, model());
    REQUIRE(a.moves[3].judgement == Judgement::BLUNDER);

    annotate_game(game, a, {"Tester 1.0", "10 nodes a move", 10});
    PgnWriteOptions options;
    options.nag_suffixes = true;
    const std::string text = to_pgn(game, options);
    INFO(text);
    CHECK(text.find("Ke7??") != std::string::npos);
    CHECK(text.find("[%eval 0.30]") != std::string::npos);
    const PgnGame back = first_game(text);
    CHECK(back.moves == game.moves);
    CHECK(back.tag("Annotator") == "Tester 1.0");
    const auto& moves = back.moves.moves;
    REQUIRE(moves.size() == 5);
    CHECK(eval_of(moves[0].comment_before) == 30);
    CHECK(moves[0].comment_after.find("[%clk 0:05:00]") != std::string::npos);
    const Score white_after[] = {30, 40, 50, mate_in(1), SCORE_MATE};
    for (std::size_t i = 0; i < moves.size(); ++i) {
        INFO("move " << i);
        CHECK(eval_text(eval_of(moves[i].comment_after)) == eval_text(white_after[i]));
    }
    // The mark replaced the "!" but kept the $14; the better line is the last variation,
    // cut before the corrupt move, with the score it promised.
    CHECK(judgement_of(moves[3]) == Judgement::BLUNDER);
    CHECK(std::count(moves[3].nags.begin(), moves[3].nags.end(), 1) == 0);
    CHECK(std::count(moves[3].nags.begin(), moves[3].nags.end(), 14) == 1);
    REQUIRE(moves[3].variations.size() == 2);
    const PgnLine& better = moves[3].variations.back();
    REQUIRE(better.moves.size() == 2);
    CHECK(better.moves[0].move == nc6.move);
    CHECK(eval_of(better.moves[0].comment_after) == 50);
    for (std::size_t i : {0u, 1u, 2u, 4u})
        CHECK(judgement_of(moves[i]) == Judgement::GOOD);
    // The summary closes the game.
    const std::string& closing = moves.back().comment_after;
    CHECK(closing.find("[%eval #0] Tester 1.0, 10 nodes a move. White: average loss") == 0);
    CHECK(closing.find("Black: average loss") != std::string::npos);
    CHECK(closing.find("1 blunder") != std::string::npos);
    CHECK(back.moves.trailing_comment.empty());
    CHECK(summary_lines(back, a).find("Black (B): 2 moves, average loss") != std::string::npos);
}

TEST_CASE("analyze: walking a game costs moves linear in its length", "[analyze]") {
    // A 200-move game (400 plies) and its first 50 and 100 moves. Each position is searched
    // at a tiny node count: the moves the engine is handed are what is counted, not time.
    const PgnGame whole = first_game(read_text_file(data_path("game200.pgn")));
    REQUIRE(whole.moves.moves.size() == 400);
    for (const std::size_t moves : {50, 100, 200}) {
        const std::uint64_t plies = 2 * moves;
        INFO(moves << " moves");
        PgnGame game = whole;
        game.moves.moves.resize(plies);
        Engine engine;
        engine.set_threads(1);
        const GameAnalysis a = analyze_game(engine, game, node_limit(16));
        CHECK(a.positions.size() == plies + 1);
        // One move per ply: at most a small constant times the plies.
        const std::uint64_t applied = engine.moves_applied();
        CHECK(applied == plies);
        CHECK(applied <= 2 * plies);

        // The walk this replaced handed the engine the whole game again at every ply, as
        // text: 0 + 1 + ... + plies moves, quadratic, and the check above refuses it.
        Engine old_walk;
        std::vector<std::string> played;
        Position pos = game.start;
        for (const Move m : game.main_line()) {
            REQUIRE_FALSE(old_walk.set_position(game.start.fen(), played).has_value());
            played.push_back(move_to_uci(pos, m));
            pos.make_move(m);
        }
        REQUIRE_FALSE(old_walk.set_position(game.start.fen(), played).has_value());
        CHECK(old_walk.moves_applied() == plies * (plies + 1) / 2);
        CHECK_FALSE(old_walk.moves_applied() <= 2 * plies);
    }

    // A position alone (the best lines, an EPD test) is handed over without a move.
    Engine engine;
    engine.set_threads(1);
    const Position pos = position_from(std::string(QUEEN_TRADE) + " 0 1");
    CHECK_FALSE(best_lines(engine, pos, node_limit(500), 2).empty());
    std::string error;
    const auto entry = parse_epd(std::string(MATE_IN_ONE) + " bm Rd8#;", error);
    REQUIRE(entry.has_value());
    const auto test = make_epd_test(EpdEntry{1, *entry, "mate"}, error);
    REQUIRE(test.has_value());
    CHECK(run_epd_test(engine, *test, node_limit(500)).solved);
    CHECK(engine.moves_applied() == 0);
}

// --------------------------------------------------------------------------------------------
// The plot

TEST_CASE("analyze: the SVG plot is well formed and has a point per position", "[analyze][svg]") {
    GamePlot plot;
    plot.title = "Smith & <Jones>, 1-0";
    plot.subtitle = "O'Hara's \"Open\"";
    for (int i = 0; i < 21; ++i)
        plot.white.push_back({50 * i / 2, 1000 - 50 * i / 2 - 10, 10});
    plot.marks.push_back({7, Judgement::MISTAKE, "4. Nxe5? (mistake by White)"});
    plot.marks.push_back({12, Judgement::BLUNDER, "6... Qh4?? <blunder>"});
    const std::string svg = plot_svg(plot);
    INFO(svg);
    CHECK(unbalanced_tags(svg) == "");
    CHECK(plot_points(svg) == 21);
    CHECK(occurrences(svg, "<circle") == 2);
    CHECK(svg.find("Smith &amp; &lt;Jones&gt;, 1-0") != std::string::npos);
    CHECK(svg.find("O&apos;Hara&apos;s &quot;Open&quot;") != std::string::npos);
    CHECK(svg.find("&lt;blunder&gt;") != std::string::npos);
    CHECK(svg.find("<script") == std::string::npos);
    CHECK(svg.find("href") == std::string::npos); // self-contained
    CHECK(svg.rfind("</svg>\n") == svg.size() - 7);

    // A game without moves still makes a valid picture of one point.
    GamePlot single;
    single.white.push_back({});
    const std::string one = plot_svg(single);
    CHECK(unbalanced_tags(one) == "");
    CHECK(plot_points(one) == 1);
}

// --------------------------------------------------------------------------------------------
// EPD

TEST_CASE("epd: what counts as solved, and the runner at fixed nodes", "[epd]") {
    test::TempDir dir;
    const std::string path = dir.write("tiny.epd", tiny_suite(true));
    std::vector<std::string> errors;
    const auto entries = read_epd_file(path, errors);
    REQUIRE(entries.has_value());
    REQUIRE(entries->size() == 4);
    CHECK((*entries)[1].line == 4);
    CHECK((*entries)[2].id == "mate in two");

    // The data is what it claims: the mate in two has no mate in one.
    Position two = entries->at(2).record.pos;
    CHECK_FALSE(mates_in_one(two));
    MoveList first_moves;
    generate<GenType::ALL>(two, first_moves);
    CHECK(std::any_of(first_moves.begin(), first_moves.end(),
                      [&](Move m) { return forces_mate_in_two(two, m); }));

    std::vector<EpdTest> tests;
    for (const EpdEntry& e : *entries) {
        std::string error;
        auto t = make_epd_test(e, error);
        INFO(error);
        REQUIRE(t.has_value());
        tests.push_back(*t);
    }
    const Position& mate1 = tests[0].entry.record.pos;
    const Move rd8 = tests[0].best.at(0);
    CHECK(tests[0].solved_by(rd8, 0));
    CHECK_FALSE(tests[3].solved_by(rd8, mate_in(1)));
    CHECK(tests[1].expected() == "not Kf1");
    CHECK_FALSE(tests[1].solved_by(tests[1].avoid[0], 0));
    CHECK(tests[2].expected() == "mate in 2");
    CHECK(tests[2].solved_by(Move::none(), mate_in(3)));
    CHECK_FALSE(tests[2].solved_by(Move::none(), mate_in(5)));
    CHECK_FALSE(tests[2].solved_by(Move::none(), 900));
    CHECK(tests[3].expected() == "h3");
    CHECK(move_to_san(mate1, rd8) == "Rd8#");

    Engine engine;
    engine.set_threads(1);
    int solved = 0;
    for (const EpdTest& t : tests) {
        const EpdOutcome o = run_epd_test(engine, t, node_limit(20000));
        INFO(t.entry.id);
        solved += o.solved;
        CHECK(o.played != Move::none());
        if (o.solved) {
            CHECK(o.solution_nodes > 0);
            CHECK(o.solution_nodes <= o.nodes);
            CHECK(o.solution_ms <= o.ms + 1);
        } else {
            CHECK(o.solution_nodes == 0);
        }
    }
    CHECK(solved == 3);

    // A move that is not legal where the suite says it is: named with its place.
    const std::string bad = dir.write("bad.epd", std::string(MATE_IN_ONE) + " bm Qd8; id \"x\";\n");
    const auto bad_entries = read_epd_file(bad, errors);
    REQUIRE(bad_entries.has_value());
    std::string error;
    CHECK_FALSE(make_epd_test(bad_entries->at(0), error).has_value());
    CHECK(error.find("bm 'Qd8'") == 0);
    const std::string nothing = dir.write("none.epd", std::string(MATE_IN_ONE) + " id \"y\";\n");
    CHECK_FALSE(make_epd_test(read_epd_file(nothing, errors)->at(0), error).has_value());
    CHECK(error == "no bm, am or dm operation to test");
}

TEST_CASE("epd: horizon epd counts, prints a line per position and sets the exit status",
          "[epd][e2e]") {
    test::TempDir dir;
    const std::string with_impossible = dir.write("tiny.epd", tiny_suite(true));
    const ShellRun r =
        run_horizon("epd '" + with_impossible + "' --nodes 20000 --threads 1", false);
    INFO(r.output);
    CHECK(r.status == 1);
    CHECK(r.output.find("4 positions; " + engine_identity().name + " ") != std::string::npos);
    CHECK(r.output.find(", 20000 nodes a move, 1 thread") != std::string::npos);
    CHECK(occurrences(r.output, "FAILED") == 1);
    CHECK(r.output.find("FAILED  impossible  played Rd8# (#1, depth ") != std::string::npos);
    CHECK(r.output.find("), expected h3\n") != std::string::npos);
    for (const char* id : {"mate in one  Rd8#", "avoid  ", "mate in two  "})
        CHECK(r.output.find(std::string("solved  ") + id) != std::string::npos);
    CHECK(occurrences(r.output, "time to solution ") == 3);
    CHECK(r.output.find("Solved 3 of 4 (75.0%)") != std::string::npos);

    const std::string all_solvable = dir.write("ok.epd", tiny_suite(false));
    const ShellRun ok = run_horizon("epd '" + all_solvable + "' --nodes 20000");
    INFO(ok.output);
    CHECK(ok.status == 0);
    CHECK(ok.output.find("Solved 3 of 3 (100.0%)") != std::string::npos);
}

TEST_CASE("epd: another UCI engine runs the suite, judged the same way", "[epd][e2e]") {
    // Horizon itself as the other engine: spoken to over UCI, as Stockfish would be.
    test::TempDir dir;
    const std::string suite = dir.write("tiny.epd", tiny_suite(true));
    const ShellRun r = run_horizon(
        "epd '" + suite + "' --nodes 20000 --engine '" + std::string(HORIZON_BINARY) + "'", false);
    INFO(r.output);
    CHECK(r.status == 1);
    CHECK(r.output.find("4 positions; " + engine_identity().name + " ") != std::string::npos);
    CHECK(occurrences(r.output, "solved  ") == 3);
    CHECK(r.output.find("FAILED  impossible  played Rd8# (#1, depth ") != std::string::npos);
    CHECK(r.output.find("Solved 3 of 4 (75.0%)") != std::string::npos);

    const ShellRun missing = run_horizon("epd '" + suite + "' --engine '" + dir.path("none") + "'");
    INFO(missing.output);
    CHECK(missing.status == 2);
    CHECK(missing.output.find("horizon epd: ") != std::string::npos);
}

TEST_CASE("epd: the Win at Chess suite is all there and readable", "[epd]") {
    const std::string path = std::string(HORIZON_SOURCE_DIR) + "/suites/wac.epd";
    std::vector<std::string> errors;
    const auto entries = read_epd_file(path, errors);
    INFO((errors.empty() ? "" : errors[0]));
    REQUIRE(entries.has_value());
    REQUIRE(entries->size() == 300);
    for (std::size_t i = 0; i < entries->size(); ++i) {
        const EpdEntry& e = (*entries)[i];
        const std::string number = std::to_string(i + 1);
        CHECK(e.id ==
              "WAC." + std::string(3 - std::min<std::size_t>(3, number.size()), '0') + number);
        std::string error;
        const auto t = make_epd_test(e, error);
        INFO(e.id << ": " << error);
        REQUIRE(t.has_value());
        CHECK(!t->best.empty());
    }
}

// --------------------------------------------------------------------------------------------
// horizon analyze

TEST_CASE("analyze: a short game end to end at fixed nodes", "[analyze][e2e]") {
    test::TempDir dir;
    const std::string out = dir.path("out.pgn"), plots = dir.path("plots");
    const std::string args =
        "analyze '" + data_path("short.pgn") + "' --nodes " + std::to_string(TEST_NODES) +
        " --threads 1 --games 1 --explain off -o '" + out + "' --plot '" + plots + "'";
    const ShellRun r = run_horizon(args);
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(r.output.find("Game 1: Trusting - Trapper, 0-1 (14 plies)") != std::string::npos);
    CHECK(r.output.find("  White (Trusting): 7 moves, average loss ") != std::string::npos);
    CHECK(r.output.find("  Black (Trapper): 7 moves, average loss ") != std::string::npos);
    CHECK(r.output.find("1 game analysed, 0 left out; 15 positions") != std::string::npos);
    CHECK(r.output.find("in the search") != std::string::npos);

    // The output is Horizon's own analysis of the game, read back whole.
    const PgnGame original = first_game(read_text_file(data_path("short.pgn")));
    const GameAnalysis a = library_analysis(original, TEST_NODES);
    PgnGame expected = original;
    const auto& id = engine_identity();
    annotate_game(expected, a,
                  {id.name + " " + id.version, std::to_string(TEST_NODES) + " nodes a move", 10});
    const auto games = read_pgn(read_text_file(out));
    REQUIRE(games.size() == 1);
    const PgnGame& back = games[0];
    REQUIRE_FALSE(back.error.has_value());
    CHECK(same_game(back, first_game(to_pgn(expected))));

    // An evaluation before the first move and after every move; every mark agrees with the
    // expected result lost between the evaluations around the move.
    const auto& moves = back.moves.moves;
    REQUIRE(moves.size() == 14);
    Position pos = back.start;
    Score before_white = eval_of(moves[0].comment_before);
    int marked = 0;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        INFO("ply " << i + 1 << ": " << move_to_san(pos, moves[i].move));
        const Score after_white = eval_of(moves[i].comment_after);
        const Color mover = pos.side_to_move();
        const int material_before = wdl_material(pos);
        const Position position_before = pos;
        pos.make_move(moves[i].move);
        const Score before = mover == WHITE ? before_white : -before_white;
        const Score after = mover == WHITE ? after_white : -after_white;
        const int loss =
            move_loss_permille(model(), before, material_before, after, wdl_material(pos));
        const Judgement mark = judgement_of(moves[i]);
        if (mark != Judgement::GOOD) {
            ++marked;
            CHECK(mark == judge_loss(loss));
            CHECK(a.moves[i].best != moves[i].move);
            REQUIRE_FALSE(moves[i].variations.empty());
            CHECK(moves[i].variations.back().moves.at(0).move == a.moves[i].best);
            CHECK(position_before.is_legal(a.moves[i].best));
        } else {
            CHECK((judge_loss(loss) == Judgement::GOOD || a.moves[i].best == moves[i].move));
            CHECK(moves[i].variations.empty());
        }
        before_white = after_white;
    }
    CHECK(marked == std::count_if(a.moves.begin(), a.moves.end(), [](const MoveJudgement& m) {
              return m.judgement != Judgement::GOOD;
          }));
    CHECK(marked >= 1);                                        // White walks into a trap
    CHECK(eval_of(moves.back().comment_after) == -SCORE_MATE); // White is mated

    // The plot of the game: one point per position, one circle per mark.
    const std::string svg = read_text_file(plots + "/game-1.svg");
    CHECK(unbalanced_tags(svg) == "");
    CHECK(plot_points(svg) == 15);
    CHECK(occurrences(svg, "<circle") == std::size_t(marked));
    CHECK(svg.find("Trusting - Trapper, 0-1") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(plots + "/game-2.svg"));
}

TEST_CASE("analyze: the annotated PGN goes to stdout, the summary to stderr", "[analyze][e2e]") {
    const std::string file = "'" + data_path("short.pgn") + "' --nodes 500 --games 2-";
    const ShellRun pgn_only = run_horizon("analyze " + file, false);
    INFO(pgn_only.output);
    CHECK(pgn_only.status == 0);
    const auto games = read_pgn(pgn_only.output);
    REQUIRE(games.size() == 1);
    CHECK(games[0].tag("White") == "Fool");
    CHECK(pgn_only.output.find("Game 2:") == std::string::npos);
    const ShellRun both = run_horizon("analyze " + file);
    CHECK(both.output.find("Game 2: Fool - Trapper, 0-1 (4 plies)") != std::string::npos);
}

TEST_CASE("analyze: a move number that does not fit is a warning, the game analysed",
          "[analyze][e2e]") {
    const std::string file =
        std::string(HORIZON_SOURCE_DIR) + "/tests/data/notation/move_numbers.pgn";
    const ShellRun r = run_horizon("analyze '" + file + "' --nodes 200 --games 1-2");
    INFO(r.output);
    CHECK(r.status == 0);
    CHECK(r.output.find("horizon analyze: warning: game 1, move 3. (line 4): '5.'") !=
          std::string::npos);
    CHECK(r.output.find("horizon analyze: warning: game 2,") != std::string::npos);
    const ShellRun pgn_only = run_horizon("analyze '" + file + "' --nodes 200 --games 1-2", false);
    CHECK(read_pgn(pgn_only.output).size() == 2);
}

TEST_CASE("analyze: the best lines of a position and of an EPD file", "[analyze][e2e]") {
    const ShellRun r = run_horizon(std::string("analyze --fen '") + MATE_IN_ONE +
                                   " 0 1' --multipv 3 --nodes 20000");
    INFO(r.output);
    CHECK(r.status == 0);
    CHECK(r.output.find("rank   score  depth  pv") != std::string::npos);
    CHECK(r.output.find("   1      #1 ") != std::string::npos);
    CHECK(r.output.find("1. Rd8#\n") != std::string::npos);
    CHECK(r.output.find("\n   3 ") != std::string::npos);
    CHECK(r.output.find("\n   4 ") == std::string::npos);

    Engine engine;
    engine.set_threads(1);
    const Position pos = position_from(std::string(QUEEN_TRADE) + " 0 1");
    const auto lines = best_lines(engine, pos, node_limit(5000), 10);
    CHECK(lines.size() == 3); // Qxd2, Kxd2 and Kf1 are all there is
    for (std::size_t i = 1; i < lines.size(); ++i)
        CHECK(lines[i - 1].score >= lines[i].score);
    const std::string table = lines_table(pos, lines);
    CHECK(std::count(table.begin(), table.end(), '\n') == 4);
    CHECK(lines_table(position_from("7k/5QQ1/8/8/8/8/8/K7 b - - 0 1"), {}) ==
          "no legal move: checkmate\n");

    test::TempDir dir;
    const std::string suite = dir.write("two.epd", tiny_suite(false));
    const ShellRun epd = run_horizon("analyze '" + suite + "' --nodes 3000");
    INFO(epd.output);
    CHECK(epd.status == 0);
    CHECK(epd.output.find("mate in one: " + std::string(MATE_IN_ONE)) != std::string::npos);
    CHECK(epd.output.find("avoid: ") != std::string::npos);
    CHECK(epd.output.find("mate in two: ") != std::string::npos);
    CHECK(occurrences(epd.output, "rank   score") == 3);
}

TEST_CASE("analyze: game ranges", "[analyze]") {
    std::string error;
    const auto r = GameRange::parse("2,5-7,10-", error);
    REQUIRE(r.has_value());
    for (std::uint64_t n : {2, 5, 6, 7, 10, 11, 1000})
        CHECK(r->contains(n));
    for (std::uint64_t n : {1, 3, 4, 8, 9})
        CHECK_FALSE(r->contains(n));
    CHECK(r->last() == UINT64_MAX);
    const auto head = GameRange::parse("-4", error);
    REQUIRE(head.has_value());
    CHECK(head->contains(1));
    CHECK(head->last() == 4);
    for (const char* bad : {"", "0", "x", "3-1", "-", "1,,2", "2-x", "1-2-3"}) {
        INFO(bad);
        CHECK_FALSE(GameRange::parse(bad, error).has_value());
    }
}

TEST_CASE("analyze and epd: bad input gets one clear message and no crash", "[analyze][epd][e2e]") {
    test::TempDir dir;
    const std::string game = read_text_file(data_path("short.pgn"));
    const std::string cut_in_moves = dir.write("cut.pgn", game.substr(0, game.find("Qg5") + 5));
    const std::string cut_in_tag = dir.write("tag.pgn", game.substr(0, game.find("Trusting") + 3));
    const std::string cut_in_comment =
        dir.write("comment.pgn", "[White \"a\"]\n\n1. e4 {never closed");
    const std::string illegal =
        dir.write("illegal.epd", std::string(MATE_IN_ONE) + " bm Rd8#; id \"fine\";\n" +
                                     MATE_IN_ONE + " bm Qd8; id \"bad\";\n");
    const std::string empty = dir.write("empty.pgn", "");
    const std::string missing = dir.path("missing.pgn");
    struct Case {
        std::string args;
        int status;
        std::string words;
    };
    const Case cases[] = {
        {"analyze '" + missing + "'", 2, "horizon analyze: cannot open " + missing},
        {"analyze '" + dir.path("missing.epd") + "'", 2, "cannot open"},
        {"analyze --fen 'kkkkkkkk/8/8/8/8/8/8/K7 w - - 0 1'", 2, "horizon analyze: --fen: bad FEN"},
        {"analyze --fen 'not a fen'", 2, "bad FEN"},
        {"analyze", 2, "give a PGN or EPD file, or --fen FEN"},
        {"analyze x.pgn --fen '" + std::string(MATE_IN_ONE) + " 0 1'", 2, "one of them"},
        {"analyze '" + cut_in_tag + "' --nodes 100", 1, "game 1"},
        {"analyze '" + cut_in_comment + "' --nodes 100", 1, "game 1"},
        {"analyze '" + empty + "' --nodes 100", 2, "no game to analyse"},
        {"analyze '" + data_path("short.pgn") + "' --games 3-1", 2,
         "--games '3-1': '3-1' runs backwards"},
        {"analyze '" + data_path("short.pgn") + "' --games 7", 2, "no game to analyse"},
        {"analyze '" + data_path("short.pgn") + "' --depth 3 --nodes 100", 2, "not several"},
        {"analyze '" + data_path("short.pgn") + "' --movetime 0", 2,
         "--movetime: out of range (1 to 86400000): '0'"},
        {"analyze '" + data_path("short.pgn") + "' --threads x", 2,
         "--threads: not a whole number: 'x'"},
        {"analyze '" + data_path("short.pgn") + "' --multipv 2", 2, "--multipv is for"},
        {"analyze '" + illegal + "' --plot d", 2, "--plot is for PGN files"},
        {"analyze '" + data_path("short.pgn") + "' -o '" + dir.path("no/such/dir/out.pgn") + "'", 2,
         "cannot write"},
        {"epd '" + missing + "'", 2, "horizon epd: cannot open " + missing},
        {"epd '" + illegal + "' --nodes 100", 2, "illegal.epd:2 (bad): bm 'Qd8': "},
        {"epd '" + empty + "'", 2, "holds no positions"},
        {"epd", 2, "give an EPD file"},
        {"epd '" + illegal + "' --nodes 5x", 2, "--nodes: not a whole number: '5x'"},
    };
    for (const Case& c : cases) {
        INFO(c.args);
        const ShellRun r = run_horizon(c.args);
        INFO(r.output);
        CHECK(r.status == c.status);
        CHECK(r.output.find(c.words) != std::string::npos);
        CHECK(r.output.find("terminate") == std::string::npos);
        CHECK(r.output.find("Aborted") == std::string::npos);
    }

    // A null move in the main line cannot be judged: the game is named and left out.
    const std::string null_move = dir.write(
        "null.pgn", "[White \"a\"]\n\n1. e4 e5 2. -- Nc6 *\n\n[White \"b\"]\n\n1. d4 *\n");
    const ShellRun nulls =
        run_horizon("analyze '" + null_move + "' --nodes 100 -o '" + dir.path("n.pgn") + "'");
    INFO(nulls.output);
    CHECK(nulls.status == 1);
    CHECK(nulls.output.find("horizon analyze: game 1, move 2.: a null move ('--') in the main "
                            "line cannot be analysed (game left out)") != std::string::npos);
    CHECK(nulls.output.find("1 game analysed, 1 left out") != std::string::npos);

    // A file cut short: the games that are whole are still analysed.
    const ShellRun cut = run_horizon("analyze '" + cut_in_moves + "' --nodes 200 -o '" +
                                     dir.path("cut-out.pgn") + "'");
    INFO(cut.output);
    CHECK((cut.status == 0 || cut.status == 1));
    CHECK(cut.output.find("Game 1: Trusting - Trapper") != std::string::npos);
    // A game with an illegal move in the middle of a file is named and left out.
    const std::string errors = std::string(HORIZON_SOURCE_DIR) + "/tests/data/notation/errors.pgn";
    const ShellRun mixed =
        run_horizon("analyze '" + errors + "' --nodes 100 -o '" + dir.path("e.pgn") + "'");
    INFO(mixed.output);
    CHECK(mixed.status == 1);
    CHECK(mixed.output.find("horizon analyze: game 2, move 3... (line 9): 'Nb6'") !=
          std::string::npos);
    CHECK(mixed.output.find("2 games analysed, 1 left out") != std::string::npos);
    CHECK(read_pgn(read_text_file(dir.path("e.pgn"))).size() == 2);
}

// --------------------------------------------------------------------------------------------
// Syzygy tables

namespace {

// KRvK: 1. Kf1 (still a win) Kd3 2. Rc2?? (the king takes the rook: a draw) Kxc2.
constexpr const char* TABLE_GAME = "table_blunder.pgn";

GameAnalysis table_analysis(const PgnGame& game, std::uint64_t nodes, bool tables) {
    Engine engine;
    engine.set_threads(1);
    if (tables) REQUIRE(engine.set_syzygy_path(tables_folder()).wdl_tables > 0);
    engine.new_game();
    return analyze_game(engine, game, node_limit(nodes));
}

PositionEval with_table(TbWdl wdl) {
    PositionEval e;
    e.table = TbProbe{wdl, std::nullopt};
    return e;
}

} // namespace

TEST_CASE("analyze: the tables' verdict as a result, the fifty-move rule honoured",
          "[analyze][tablebases]") {
    CHECK(tb_outcome(TbWdl::WIN) == 1);
    CHECK(tb_outcome(TbWdl::CURSED_WIN) == 0);
    CHECK(tb_outcome(TbWdl::DRAW) == 0);
    CHECK(tb_outcome(TbWdl::BLESSED_LOSS) == 0);
    CHECK(tb_outcome(TbWdl::LOSS) == -1);
    CHECK(table_note(TbProbe{TbWdl::WIN, 17}) == "table: win, DTZ 17");
    CHECK(table_command_value(TbProbe{TbWdl::DRAW, 0}, BLACK) == "Black: draw, DTZ 0");
}

TEST_CASE("analyze: judge_game lets the tables overrule the evaluation", "[analyze][tablebases]") {
    const PgnGame game = first_game(read_text_file(data_path(TABLE_GAME)));
    REQUIRE(game.main_line().size() == 4);
    // The evaluations all say nothing happened; only the tables speak.
    const auto judged = [&](TbWdl before, TbWdl after_for_opponent) {
        std::vector<PositionEval> evals(5);
        evals[0] = with_table(before);
        evals[1] = with_table(after_for_opponent);
        return judge_game(game, evals, model()).moves[0];
    };
    const MoveJudgement thrown = judged(TbWdl::WIN, TbWdl::DRAW);
    CHECK(thrown.judgement == Judgement::BLUNDER);
    CHECK(thrown.by_table);
    CHECK(thrown.loss_permille == 500);
    CHECK(judged(TbWdl::DRAW, TbWdl::WIN).judgement == Judgement::BLUNDER);
    CHECK(judged(TbWdl::WIN, TbWdl::WIN).loss_permille == 1000);
    // A win the fifty-move rule will not let be won is a draw; a blessed loss too.
    CHECK(judged(TbWdl::WIN, TbWdl::BLESSED_LOSS).judgement == Judgement::BLUNDER);
    CHECK(judged(TbWdl::CURSED_WIN, TbWdl::DRAW).judgement == Judgement::GOOD);
    CHECK(judged(TbWdl::DRAW, TbWdl::CURSED_WIN).judgement == Judgement::GOOD);
    CHECK(judged(TbWdl::WIN, TbWdl::LOSS).judgement == Judgement::GOOD);
    CHECK(judged(TbWdl::LOSS, TbWdl::WIN).judgement == Judgement::GOOD);
    CHECK_FALSE(judged(TbWdl::LOSS, TbWdl::WIN).by_table);
    // Where the tables hold only one side of the move, the evaluation judges.
    std::vector<PositionEval> one_sided(5);
    one_sided[0] = with_table(TbWdl::WIN);
    CHECK(judge_game(game, one_sided, model()).moves[0].judgement == Judgement::GOOD);
}

TEST_CASE("analyze: a move that throws away a table win is a blunder, even at few nodes",
          "[analyze][tablebases]") {
    const PgnGame original = first_game(read_text_file(data_path(TABLE_GAME)));
    for (std::uint64_t nodes : {std::uint64_t(1), std::uint64_t(200)}) {
        INFO(nodes << " nodes");
        const GameAnalysis a = table_analysis(original, nodes, true);
        REQUIRE(a.moves.size() == 4);
        for (const PositionEval& e : a.positions)
            CHECK(e.table.has_value());
        CHECK(a.positions[0].table->wdl == TbWdl::WIN);
        CHECK(a.moves[0].judgement != Judgement::BLUNDER); // 1. Kf1: still a win
        CHECK_FALSE(a.moves[0].by_table);
        CHECK(a.moves[2].judgement == Judgement::BLUNDER); // 2. Rc2??: a draw
        CHECK(a.moves[2].by_table);
        CHECK(a.players[WHITE].counts[std::size_t(Judgement::BLUNDER)] >= 1);

        PgnGame annotated = original;
        annotate_game(annotated, a, {});
        const PgnMove& blunder = annotated.moves.moves[2];
        CHECK(judgement_of(blunder) == Judgement::BLUNDER);
        const auto table = pgn_command(blunder.comment_after, "table");
        REQUIRE(table.has_value());
        CHECK(*table == "Black: draw, DTZ 0");
        CHECK(pgn_command(annotated.moves.moves[0].comment_before, "table").value_or("") ==
              "White: " + tb_result_text(*a.positions[0].table));
    }
}

TEST_CASE("analyze: without tables the table game is judged by the evaluation alone",
          "[analyze][tablebases]") {
    const PgnGame original = first_game(read_text_file(data_path(TABLE_GAME)));
    const GameAnalysis a = table_analysis(original, TEST_NODES, false);
    std::vector<PositionEval> evals = a.positions;
    const GameAnalysis again = judge_game(original, evals, model());
    for (std::size_t i = 0; i < a.moves.size(); ++i) {
        CHECK_FALSE(a.moves[i].by_table);
        CHECK(a.moves[i].judgement == again.moves[i].judgement);
        CHECK(a.moves[i].loss_permille == again.moves[i].loss_permille);
    }
    for (const PositionEval& e : a.positions)
        CHECK_FALSE(e.table.has_value());
    PgnGame annotated = original;
    annotate_game(annotated, a, {});
    CHECK(to_pgn(annotated).find("%table") == std::string::npos);
}

TEST_CASE("analyze and epd: --syzygy-path on the command line", "[analyze][epd][tablebases][e2e]") {
    const std::string tables = " --syzygy-path '" + tables_folder() + "'";
    test::TempDir dir;
    const std::string out = dir.path("out.pgn");
    const ShellRun game =
        run_horizon("analyze '" + data_path(TABLE_GAME) + "' --nodes 1 -o '" + out + "'" + tables);
    INFO(game.output);
    CHECK(game.status == 0);
    CHECK(game.output.find("1 blunder") != std::string::npos);
    const PgnGame back = first_game(read_text_file(out));
    REQUIRE(back.moves.moves.size() == 4);
    const PgnMove& rc2 = back.moves.moves[2];
    CHECK(judgement_of(rc2) == Judgement::BLUNDER);
    CHECK(pgn_command(rc2.comment_after, "table").value_or("") == "Black: draw, DTZ 0");
    CHECK(judgement_of(back.moves.moves[0]) != Judgement::BLUNDER);

    const ShellRun fen =
        run_horizon("analyze --fen '8/8/8/8/8/2k5/R7/4K3 w - - 0 1' --nodes 100" + tables);
    INFO(fen.output);
    CHECK(fen.status == 0);
    CHECK(fen.output.find("  [table: win, DTZ ") != std::string::npos);

    const std::string suite = dir.path("krk.epd");
    std::ofstream(suite) << "8/8/8/8/8/2k5/R7/4K3 w - - am Rc2; id \"krk\";\n";
    const ShellRun epd = run_horizon("epd '" + suite + "' --nodes 100" + tables);
    INFO(epd.output);
    CHECK(epd.output.find("krk  ") != std::string::npos);
    CHECK(epd.output.find("[table: win, DTZ ") != std::string::npos);

    // A path without tables is refused, and says why.
    const ShellRun none = run_horizon("analyze '" + data_path(TABLE_GAME) + "' --nodes 1" +
                                      " --syzygy-path '" + dir.path("nothing-here") + "'");
    CHECK(none.status == 2);
    CHECK(none.output.find("--syzygy-path") != std::string::npos);
    CHECK(none.output.find("no tables found") != std::string::npos);
}

// --------------------------------------------------------------------------------------------
// Explanations and puzzles

namespace {

constexpr const char* EXPLAIN_GAMES = "explain.pgn";

// The analysis `horizon analyze` makes of game `number` of a file, with its explanations.
struct Explained {
    PgnGame game;
    GameAnalysis analysis;
    std::vector<Explanation> explanations;
};

Explained explained_game(const std::string& file, std::size_t number, const SearchLimits& limits,
                         bool tables = false, ExplainMode mode = ExplainMode::MISTAKES) {
    const auto games = read_pgn(read_text_file(data_path(file)));
    REQUIRE(games.size() >= number);
    Explained e{games[number - 1], {}, {}};
    REQUIRE_FALSE(e.game.error.has_value());
    Engine engine;
    engine.set_threads(1);
    if (tables) REQUIRE(engine.set_syzygy_path(tables_folder()).wdl_tables > 0);
    engine.new_game();
    e.analysis = analyze_game(engine, e.game, limits);
    double seconds = 0;
    e.explanations = explain_game(engine, e.game, e.analysis, limits, mode, seconds);
    return e;
}

SearchLimits depth_limit(int depth) {
    SearchLimits limits;
    limits.depth = depth;
    return limits;
}

// The index of the move written `numbered` ("26... Qxg4") in the game's main line.
std::size_t ply_of(const PgnGame& game, const std::string& numbered) {
    Position pos = game.start;
    const auto line = game.main_line();
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (moves_to_san(pos, {&line[i], 1}) == numbered) return i;
        pos.make_move(line[i]);
    }
    FAIL("no move " << numbered << " in the game");
    return 0;
}

Position position_before(const PgnGame& game, std::size_t ply) {
    Position pos = game.start;
    const auto line = game.main_line();
    for (std::size_t i = 0; i < ply; ++i)
        pos.make_move(line[i]);
    return pos;
}

bool contains(const std::string& text, const std::string& what) {
    return text.find(what) != std::string::npos;
}

std::string number_text(const Position& pos) {
    return std::to_string(pos.fullmove_number()) + (pos.side_to_move() == WHITE ? "." : "...");
}

// The test's own reading of a piece's name (not the explainer's table).
PieceType piece_named(const std::string& word) {
    const std::pair<const char*, PieceType> names[] = {{"pawn", PAWN},     {"knight", KNIGHT},
                                                       {"bishop", BISHOP}, {"rook", ROOK},
                                                       {"queen", QUEEN},   {"king", KING}};
    for (const auto& [name, pt] : names)
        if (word == name) return pt;
    FAIL("no piece called " << word);
    return NO_PIECE_TYPE;
}

Square square_named(const std::string& name) { return make_square(name[0] - 'a', name[1] - '1'); }

bool attacked_by(const Position& pos, Square s, Color by) {
    return (pos.attackers_to(s) & pos.pieces(by)) != 0;
}

// Checks that an explanation says only what its lines show, read back from its words alone:
// every run of numbered moves is legal from the position before the move, after it, after
// a null move there (a threat), or after a null move at the end of a line read before it (the
// threat a reply creates); every "the knight on g5 (3... Qxg5)" names the piece that
// move takes; every "the queen on g6 is trapped" names a piece of the mover there, attacked,
// whose every move lands on an attacked square; every "mate in N: LINE" is a line of 2N - 1
// moves that ends in checkmate. Returns how many claims of each sort it checked.
struct TruthCount {
    int lines = 0, captures = 0, trapped = 0, mates = 0;
};

TruthCount check_truth(const Position& before, Move played, const std::string& text) {
    INFO("explanation: " << text);
    CHECK(text.find('}') == std::string::npos);
    TruthCount count;
    Position after = before;
    after.make_move(played);
    Position passed = before;
    passed.make_null_move();
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string w; in >> w;)
        words.push_back(w);
    // numbered move text -> what it took; the position at the end of each run, by the index
    // of the run's last word.
    std::vector<std::pair<std::string, PieceType>> taken;
    std::map<std::size_t, Position> run_end;
    std::map<std::size_t, std::size_t> run_moves;
    const auto strip = [](std::string w) {
        while (!w.empty() && std::string("(),:;").find(w.front()) != std::string::npos)
            w.erase(w.begin());
        while (!w.empty() && std::string("(),:;").find(w.back()) != std::string::npos)
            w.pop_back();
        if (!w.empty() && w.back() == '.' && w.find("..") == std::string::npos &&
            !std::isdigit(static_cast<unsigned char>(w[0])))
            w.pop_back();
        return w;
    };
    for (std::size_t i = 0; i + 1 < words.size(); ++i) {
        // "(3... Qxg5)" names a move of a line already read: the captures below check it.
        if (words[i].front() == '(') continue;
        const std::string number = strip(words[i]);
        if (!std::regex_match(number, std::regex(R"(\d+\.(\.\.)?)"))) continue;
        // From whichever start reads the longest run (after the move and after a null move
        // the same side is to move, at the same number).
        std::size_t best_moves = 0, best_end = i;
        Position best_pos;
        std::vector<std::pair<std::string, PieceType>> best_taken;
        // A line may also start after a null move at the end of a line read before it (the
        // threat a reply creates: "It allows 24. Rb1, which threatens 25. Rxb2").
        std::vector<const Position*> starts{&before, &after, &passed};
        std::vector<Position> passed_after_runs;
        passed_after_runs.reserve(run_end.size());
        for (const auto& [end_word, end_pos] : run_end) {
            if (end_pos.in_check()) continue;
            passed_after_runs.push_back(end_pos);
            passed_after_runs.back().make_null_move();
        }
        for (const Position& p : passed_after_runs)
            starts.push_back(&p);
        for (const Position* start : starts) {
            if (number_text(*start) != number) continue;
            Position pos = *start;
            std::vector<std::pair<std::string, PieceType>> run_taken;
            std::size_t j = i + 1, moves = 0;
            for (; j < words.size(); ++j) {
                const std::string w = strip(words[j]);
                if (w == number_text(pos)) continue;
                const ParsedMove m = parse_san(pos, w);
                if (!m) break;
                PieceType victim = type_of(pos.piece_on(m.move.to()));
                if (m.move.type() == EN_PASSANT) victim = PAWN;
                run_taken.emplace_back(number_text(pos) + " " + w, victim);
                pos.make_move(m.move);
                ++moves;
            }
            if (moves > best_moves) {
                best_moves = moves;
                best_end = j - 1;
                best_pos = pos;
                best_taken = run_taken;
            }
        }
        INFO("the line at word " << i << " ('" << number << " " << words[i + 1] << "')");
        REQUIRE(best_moves > 0);
        ++count.lines;
        taken.insert(taken.end(), best_taken.begin(), best_taken.end());
        const std::size_t j = best_end + 1;
        const std::size_t moves = best_moves;
        const Position& pos = best_pos;
        run_end.emplace(j - 1, pos);
        run_moves.emplace(j - 1, moves);
        i = j - 1;
    }
    const std::regex capture(
        R"(the (pawn|knight|bishop|rook|queen) on ([a-h][1-8]) \((\d+\.(?:\.\.)? [^ )]+)\))");
    for (std::sregex_iterator it(text.begin(), text.end(), capture), end; it != end; ++it) {
        const std::string move = (*it)[3];
        const auto found = std::find_if(taken.begin(), taken.end(),
                                        [&](const auto& t) { return t.first == move; });
        INFO("claim: " << it->str());
        REQUIRE(found != taken.end());
        CHECK(found->second == piece_named((*it)[1]));
        CHECK(contains(move, (*it)[2]));
        ++count.captures;
    }
    const std::regex trapped(R"(the (knight|bishop|rook|queen) on ([a-h][1-8]) is trapped)");
    for (std::sregex_iterator it(text.begin(), text.end(), trapped), end; it != end; ++it) {
        INFO("claim: " << it->str());
        // The run that ends right before the claim.
        const std::size_t at = std::size_t(it->position());
        std::size_t words_before = 0;
        for (std::istringstream upto(text.substr(0, at)); upto >> std::ws && !upto.eof();) {
            std::string w;
            upto >> w;
            ++words_before;
        }
        auto run = run_end.lower_bound(words_before >= 3 ? words_before - 3 : 0);
        REQUIRE(run != run_end.end());
        const Position& pos = run->second;
        const Square s = square_named((*it)[2]);
        CHECK(pos.piece_on(s) == make_piece(before.side_to_move(), piece_named((*it)[1])));
        CHECK(pos.side_to_move() == before.side_to_move());
        CHECK(attacked_by(pos, s, ~pos.side_to_move()));
        MoveList legal;
        generate<GenType::ALL>(pos, legal);
        for (Move m : legal) {
            if (m.from() != s) continue;
            Position moved = pos;
            moved.make_move(m);
            CHECK(attacked_by(moved, m.to(), moved.side_to_move()));
        }
        ++count.trapped;
    }
    const std::regex mate(R"(mate in (\d+): )");
    for (std::sregex_iterator it(text.begin(), text.end(), mate), end; it != end; ++it) {
        const int n = std::stoi((*it)[1]);
        std::size_t words_upto = 0;
        for (std::istringstream upto(text.substr(0, std::size_t(it->position() + it->length())));
             upto >> std::ws && !upto.eof();) {
            std::string w;
            upto >> w;
            ++words_upto;
        }
        const auto run = run_end.lower_bound(words_upto);
        REQUIRE(run != run_end.end());
        CHECK(run_moves[run->first] == std::size_t(2 * n - 1));
        CHECK(is_checkmate(run->second));
        ++count.mates;
    }
    return count;
}

const Explanation& explanation_of(const Explained& e, const std::string& numbered,
                                  TruthCount* count = nullptr) {
    const std::size_t i = ply_of(e.game, numbered);
    INFO(numbered << ": " << e.explanations[i].text);
    CHECK(e.analysis.moves[i].judgement >= Judgement::MISTAKE);
    REQUIRE_FALSE(e.explanations[i].text.empty());
    const TruthCount c =
        check_truth(position_before(e.game, i), e.analysis.moves[i].played, e.explanations[i].text);
    if (count) *count = c;
    return e.explanations[i];
}

} // namespace

TEST_CASE("explain: every evaluation term has a group, and the groups measure the position",
          "[analyze][explain]") {
    std::array<int, EVAL_GROUP_COUNT> terms{};
    for (int t = 0; t < TERM_COUNT; ++t)
        ++terms[std::size_t(term_group(Term(t)))];
    for (int g = 0; g < EVAL_GROUP_COUNT; ++g) {
        INFO(eval_group_name(EvalGroup(g)));
        CHECK(terms[std::size_t(g)] > 0);
    }
    CHECK(term_group(Term::pawn_shield) == EvalGroup::KING_SAFETY);
    CHECK(term_group(Term::doubled_pawn) == EvalGroup::PAWN_STRUCTURE);
    CHECK(term_group(Term::passed_pawn) == EvalGroup::PASSED_PAWNS);
    CHECK(term_group(Term::mobility_rook) == EvalGroup::ACTIVITY);
    CHECK(term_group(Term::space) == EvalGroup::SPACE);
    CHECK(term_group(Term::hanging_piece) == EvalGroup::THREATS);

    // The castled king's pawns pushed: its king safety falls, from either side's view.
    const Position intact =
        position_from("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQ1RK1 w - - 0 1");
    const Position pushed =
        position_from("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P1PP/3P1N2/PPP2P2/RNBQ1RK1 w - - 0 1");
    const auto ks = std::size_t(EvalGroup::KING_SAFETY);
    const EvalParams& params = default_eval_params();
    CHECK(group_parts(pushed, params, WHITE)[ks] < group_parts(intact, params, WHITE)[ks]);
    CHECK(group_parts(pushed, params, BLACK)[ks] == -group_parts(pushed, params, WHITE)[ks]);
    // Doubled pawns: pawn structure falls for their owner.
    const Position doubled =
        position_from("rnbq1rk1/ppp1bp1p/4pp2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8");
    const Position whole =
        position_from("rnbq1rk1/ppp2ppp/4pb2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8");
    const auto ps = std::size_t(EvalGroup::PAWN_STRUCTURE);
    CHECK(group_parts(doubled, params, BLACK)[ps] < group_parts(whole, params, BLACK)[ps]);
}

TEST_CASE("explain: a line's material, captures and trapped pieces", "[analyze][explain]") {
    // 1. e4 e5 2. Nf3 Nc6 3. Ng5: the queen takes the knight, White takes a pawn back later.
    const Position pos =
        position_from("r1bqkbnr/pppp1ppp/2n5/4p1N1/4P3/8/PPPP1PPP/RNBQKB1R b KQkq - 3 3");
    const std::vector<Move> line{parse_san(pos, "Qxg5").move};
    const LineMaterial lm = line_material(pos, line, 8);
    REQUIRE(lm.captures.size() == 1);
    CHECK(lm.captures[0].taken == KNIGHT);
    CHECK(lm.captures[0].square == G5);
    CHECK(lm.captures[0].by == BLACK);
    CHECK(lm.captures[0].san == "3... Qxg5");
    CHECK(lm.gain(BLACK) == 300);
    CHECK(lm.gain(WHITE) == -300);
    CHECK(worth_text(300) == "3 pawns' worth");
    CHECK(worth_text(100) == "a pawn's worth");
    // An exchange is walked to its end past the plies asked for.
    const Position ex = position_from("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    Position p = ex;
    std::vector<Move> exchange{parse_san(p, "exd5").move};
    const LineMaterial one = line_material(ex, exchange, 0);
    CHECK(one.moves.size() == 1);
    CHECK(one.gain(WHITE) == 100);

    // Noah's ark: after 11... c4 the bishop on b3 has nowhere to go.
    const Position ark =
        position_from("r2qkbnr/3b1ppp/p2p4/1p1Q4/2p5/1B6/PPP2PPP/RNB1K2R w KQkq - 0 12");
    LineMaterial none;
    CHECK_FALSE(trapped_piece(ark, none, WHITE).has_value());
    const Position before_c4 =
        position_from("r2qkbnr/3b1ppp/p2p4/1ppQ4/8/1B6/PPP2PPP/RNB1K2R b KQkq - 4 11");
    const LineMaterial c4 = line_material(before_c4, {parse_san(before_c4, "c4").move}, 8);
    const auto trapped = trapped_piece(before_c4, c4, WHITE);
    REQUIRE(trapped.has_value());
    CHECK(trapped->piece == BISHOP);
    CHECK(trapped->square == B3);
}

namespace {

// The SAN moves `sans` played one after the other from `pos`.
std::vector<Move> san_line(Position pos, const std::vector<std::string>& sans) {
    std::vector<Move> line;
    for (const std::string& san : sans) {
        const ParsedMove m = parse_san(pos, san);
        REQUIRE(m.move);
        line.push_back(m.move);
        pos.make_move(m.move);
    }
    return line;
}

// explain_move for `played` in `before`: its refutation and the better line as given, the
// threat after a null move in `before` as given, a blunder of 4 pawns.
Explanation explain_blunder(const Position& before, const std::string& played,
                            const std::vector<std::string>& refutation,
                            const std::vector<std::string>& better,
                            const std::vector<std::string>& threat) {
    const Move move = parse_san(before, played).move;
    REQUIRE(move);
    Position after = before;
    after.make_move(move);
    Position passed = before;
    passed.make_null_move();
    PositionEval eval_before, eval_after;
    eval_before.score = 50;
    eval_before.depth = 10;
    eval_before.pv = san_line(before, better);
    eval_after.score = 350;
    eval_after.depth = 10;
    eval_after.pv = san_line(after, refutation);
    MoveJudgement judgement;
    judgement.played = move;
    judgement.best = eval_before.pv.front();
    judgement.before = 50;
    judgement.after = -350;
    judgement.loss_cp = 400;
    judgement.judgement = Judgement::BLUNDER;
    MoveThreats threats;
    threats.ignored = san_line(passed, threat);
    const MoveContext ctx{&before, move, &eval_before, &eval_after, &judgement};
    return explain_move(ctx, threats, default_eval_params());
}

} // namespace

TEST_CASE("explain: a threat is ignored only by a move that leaves it standing",
          "[analyze][explain]") {
    // 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5: the queen threatens the knight on e5 (and g2).
    const Position before =
        position_from("r1b1kbnr/pppp1ppp/8/4N1q1/2BnP3/8/PPPP1PPP/RNBQK2R w KQkq - 1 5");
    // 5. a3 leaves the knight where the queen takes it.
    const Explanation a3 = explain_blunder(before, "a3", {"Qxe5"}, {"Bxf7+", "Ke7"}, {"Qxe5"});
    INFO(a3.text);
    CHECK(a3.names_threat);
    CHECK(contains(a3.text, "It ignores the threat 5... Qxe5"));
    // 5. Nxf7 moves the knight: it is lost on f7 instead, but the threat on e5 is gone, and
    // the text said "It ignores the threat 5... Qxe5 ... Black takes the knight on e5".
    const Explanation nxf7 = explain_blunder(
        before, "Nxf7", {"Qxg2", "Rf1", "Qxe4+", "Be2", "Kxf7"}, {"Bxf7+", "Ke7"}, {"Qxe5"});
    INFO(nxf7.text);
    CHECK_FALSE(nxf7.names_threat);
    CHECK_FALSE(contains(nxf7.text, "ignores the threat"));
    CHECK_FALSE(contains(nxf7.text, "on e5"));
}

TEST_CASE("explain: a hanging piece names the piece and the move that takes it",
          "[analyze][explain]") {
    const Explained e = explained_game(EXPLAIN_GAMES, 1, node_limit(TEST_NODES));
    TruthCount truth;
    const Explanation& ng5 = explanation_of(e, "3. Ng5", &truth);
    CHECK(ng5.kind == ExplanationKind::MATERIAL);
    CHECK(ng5.theme == "material");
    CHECK(contains(ng5.text, "Black takes the knight on g5 (3... Qxg5)"));
    CHECK(contains(ng5.text, "a net gain of 3 pawns' worth for Black"));
    CHECK(truth.captures >= 1);
    CHECK(truth.lines >= 2);
}

TEST_CASE("explain: a mate allowed and a mate missed, with their length", "[analyze][explain]") {
    const Explained e = explained_game(EXPLAIN_GAMES, 2, node_limit(TEST_NODES));
    TruthCount truth;
    const Explanation& g4 = explanation_of(e, "2. g4", &truth);
    CHECK(g4.kind == ExplanationKind::MATE);
    CHECK(contains(g4.text, "It allows mate in 1: 2... Qh4#."));
    CHECK(truth.mates == 1);
    const Explanation& nc6 = explanation_of(e, "2... Nc6", &truth);
    CHECK(nc6.kind == ExplanationKind::MATE);
    CHECK(nc6.theme == "mate");
    CHECK(contains(nc6.text, "It misses mate in 1: 2... Qh4#."));
    CHECK(truth.mates == 1);
}

TEST_CASE("explain: a queen trapped", "[analyze][explain]") {
    // At depth 9 the search finds the trap: 27. Bh3 Qg6 28. Rg1 and the queen is lost.
    const Explained e = explained_game(EXPLAIN_GAMES, 3, depth_limit(9));
    TruthCount truth;
    const Explanation& qxg4 = explanation_of(e, "26... Qxg4", &truth);
    CHECK(qxg4.kind == ExplanationKind::MATERIAL);
    CHECK(qxg4.theme == "trapped piece");
    CHECK(contains(qxg4.text, "the queen on g6 is trapped"));
    CHECK(contains(qxg4.text, "White takes the queen on g6"));
    CHECK(truth.trapped == 1);
}

TEST_CASE("explain: the threat a quiet reply creates", "[analyze][explain]") {
    // At few nodes the search does not see the queen trapped, but the reply 27. Bh3 attacks
    // it: with a second move in a row White would take it.
    const Explained e = explained_game(EXPLAIN_GAMES, 3, node_limit(TEST_NODES));
    TruthCount truth;
    const Explanation& qxg4 = explanation_of(e, "26... Qxg4", &truth);
    CHECK(qxg4.names_threat);
    CHECK(contains(qxg4.text, "It allows 27. Bh3, which threatens 28. Bxg4"));
    CHECK(contains(qxg4.text, "(found by letting White move twice)"));
    CHECK(contains(qxg4.text, "White takes the queen on g4 (28. Bxg4)"));
    // The reply and the threat are lines read from the board; the capture is the threat's.
    CHECK(truth.lines >= 2);
    CHECK(truth.captures >= 1);
    // The reply is the refutation's first move, quiet, and the threat is found after it.
    const std::size_t i = ply_of(e.game, "26... Qxg4");
    Position after = position_before(e.game, i);
    after.make_move(e.analysis.moves[i].played);
    const Move reply = threatening_reply(after, e.analysis.positions[i + 1].pv);
    REQUIRE(reply);
    CHECK(moves_to_san(after, {&reply, 1}) == "27. Bh3");
    // A capture or a check is no threatening reply: the material or the check tells.
    const Position trap =
        position_from("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQ1RK1 w - - 0 1");
    CHECK_FALSE(threatening_reply(trap, {parse_san(trap, "Bxf7+").move}));
    CHECK_FALSE(threatening_reply(trap, {parse_san(trap, "Nxe5").move}));
    CHECK(threatening_reply(trap, {parse_san(trap, "Bg5").move}) == parse_san(trap, "Bg5").move);
    CHECK_FALSE(threatening_reply(trap, {}));
}

TEST_CASE("explain: a bishop trapped without a capture in the line", "[analyze][explain]") {
    const Explained e = explained_game(EXPLAIN_GAMES, 5, node_limit(TEST_NODES));
    TruthCount truth;
    const Explanation& qxd4 = explanation_of(e, "8. Qxd4", &truth);
    CHECK(qxd4.theme == "trapped piece");
    CHECK(contains(qxd4.text, "the bishop on b3 is trapped"));
    CHECK(truth.trapped == 1);
}

TEST_CASE("explain: a pawn-structure error without material names the group",
          "[analyze][explain]") {
    const Explained e = explained_game(EXPLAIN_GAMES, 4, node_limit(TEST_NODES));
    const Explanation& gxf6 = explanation_of(e, "7... gxf6");
    CHECK(gxf6.kind == ExplanationKind::GROUPS);
    CHECK(gxf6.theme == "pawn structure");
    CHECK(contains(gxf6.text, "Black stands worse than after 7... Bxf6"));
    CHECK(std::regex_search(gxf6.text, std::regex(R"(in pawn structure \(0\.[0-9][0-9]\))")));
    // The size named is the group's difference between the ends of the two lines.
    const std::smatch size = [&] {
        std::smatch m;
        std::regex_search(gxf6.text, m, std::regex(R"(pawn structure \((0\.[0-9][0-9])\))"));
        return m;
    }();
    REQUIRE(size.size() == 2);
    CHECK(std::stod(size[1]) >= 0.10);
}

TEST_CASE("explain: a table win thrown away", "[analyze][explain][tablebases]") {
    const Explained e = explained_game("table_spoilt.pgn", 1, node_limit(TEST_NODES), true);
    const Explanation& e4 = explanation_of(e, "1. e4");
    CHECK(e.analysis.moves[0].by_table);
    CHECK(e4.kind == ExplanationKind::TABLE);
    CHECK(e4.theme == "table");
    CHECK(contains(e4.text, "The tables: a win for White before 1. e4, a draw after it."));
    // The rook given away: the tables and the material both.
    const Explained rook = explained_game(TABLE_GAME, 1, node_limit(TEST_NODES), true);
    const Explanation& rc2 = explanation_of(rook, "2. Rc2");
    CHECK(rc2.kind == ExplanationKind::TABLE);
    CHECK(contains(rc2.text, "a draw after it"));
    CHECK(contains(rc2.text, "Black takes the rook on c2 (2... Kxc2)"));
}

TEST_CASE("explain: every ? and ?? of the fixture games is explained, in true words",
          "[analyze][explain]") {
    int marked = 0;
    std::array<int, 6> kinds{};
    for (const auto& [file, games] : std::vector<std::pair<std::string, std::size_t>>{
             {EXPLAIN_GAMES, 5}, {"short.pgn", 2}, {"game40.pgn", 1}, {"game200.pgn", 1}}) {
        for (std::size_t number = 1; number <= games; ++number) {
            const Explained e = explained_game(file, number, node_limit(TEST_NODES));
            Position pos = e.game.start;
            for (std::size_t i = 0; i < e.analysis.moves.size(); ++i) {
                const MoveJudgement& mj = e.analysis.moves[i];
                INFO(file << " game " << number << ", " << moves_to_san(pos, {&mj.played, 1}));
                if (mj.judgement >= Judgement::MISTAKE) {
                    ++marked;
                    ++kinds[std::size_t(e.explanations[i].kind)];
                    CHECK_FALSE(e.explanations[i].text.empty());
                    check_truth(pos, mj.played, e.explanations[i].text);
                } else {
                    CHECK(e.explanations[i].text.empty());
                }
                pos.make_move(mj.played);
            }
        }
    }
    CHECK(marked > 50);
    // Most are told by what decides them, few by the fallback sentence.
    CHECK(kinds[std::size_t(ExplanationKind::NONE)] * 10 < marked);
    CHECK(kinds[std::size_t(ExplanationKind::MATERIAL)] > 0);
    CHECK(kinds[std::size_t(ExplanationKind::GROUPS)] > 0);
    CHECK(kinds[std::size_t(ExplanationKind::MATE)] > 0);
}

TEST_CASE("explain: --explain all explains the ?! too; the annotated comment holds the words",
          "[analyze][explain]") {
    const Explained e =
        explained_game(EXPLAIN_GAMES, 4, node_limit(TEST_NODES), false, ExplainMode::ALL);
    int inaccuracies = 0;
    for (std::size_t i = 0; i < e.analysis.moves.size(); ++i)
        if (e.analysis.moves[i].judgement == Judgement::INACCURACY) {
            ++inaccuracies;
            CHECK_FALSE(e.explanations[i].text.empty());
        }
    CHECK(inaccuracies > 0);
    PgnGame annotated = e.game;
    annotate_game(annotated, e.analysis, {});
    const PgnGame back = first_game(to_pgn(annotated));
    for (std::size_t i = 0; i < back.moves.moves.size(); ++i) {
        const std::string& comment = back.moves.moves[i].comment_after;
        CHECK(pgn_command(comment, "eval").has_value());
        if (!e.explanations[i].text.empty()) CHECK(comment.size() > e.explanations[i].text.size());
        CHECK(contains(comment, e.explanations[i].text));
    }
}

TEST_CASE("analyze: progress goes on through the explanations and the puzzles",
          "[analyze][explain]") {
    std::ifstream in(data_path(EXPLAIN_GAMES), std::ios::binary);
    Engine engine;
    engine.set_threads(1);
    PgnAnalysisSettings settings;
    settings.limits = node_limit(TEST_NODES);
    std::string range_error;
    settings.games = GameRange::parse("1-3", range_error).value();
    std::ostringstream games, summary, epd, pgn;
    const PgnAnalysisOutput output{games, summary, &epd, &pgn};
    std::vector<PgnAnalysisProgress> heard;
    PgnAnalysisCallbacks callbacks;
    callbacks.on_position = [&](const PgnAnalysisProgress& p) { heard.push_back(p); };
    const PgnAnalysisReport report = analyze_pgn_games(in, engine, settings, output, callbacks);
    REQUIRE(report.analysed == 3);
    CHECK(report.marked > 0);
    // Per game: the positions, then the explanations 1..N of the N marked moves, then the
    // puzzle checks; the positions done stay at the game's end once its searches are over.
    std::uint64_t explained = 0;
    for (std::uint64_t game = 1; game <= 3; ++game) {
        INFO("game " << game);
        std::vector<PgnAnalysisProgress> of;
        for (const auto& p : heard)
            if (p.game == game) of.push_back(p);
        REQUIRE_FALSE(of.empty());
        CHECK(of.front().stage == PgnAnalysisStage::POSITIONS);
        const auto first_not = std::find_if(of.begin(), of.end(), [](const auto& p) {
            return p.stage != PgnAnalysisStage::POSITIONS;
        });
        const int positions = std::prev(first_not)->positions;
        CHECK(std::prev(first_not)->position == positions);
        std::size_t step = 0;
        for (auto it = first_not; it != of.end(); ++it) {
            CHECK(it->position == positions);
            CHECK(it->positions_done == std::prev(first_not)->positions_done);
            if (it->stage == PgnAnalysisStage::EXPLANATIONS) {
                CHECK(it->step == ++step);
                CHECK(it->step <= it->steps);
                ++explained;
            } else {
                CHECK(it->stage == PgnAnalysisStage::PUZZLES);
                CHECK(it->step <= it->steps);
                CHECK(std::all_of(it, of.end(), [](const auto& p) {
                    return p.stage == PgnAnalysisStage::PUZZLES;
                }));
            }
        }
    }
    CHECK(explained == report.marked);
    CHECK(std::any_of(heard.begin(), heard.end(),
                      [](const auto& p) { return p.stage == PgnAnalysisStage::PUZZLES; }));
}

TEST_CASE("explain: --explain off writes today's annotation byte for byte",
          "[analyze][explain][e2e]") {
    test::TempDir dir;
    for (const char* name : {"short", "game40", "game200", "table_blunder"}) {
        INFO(name);
        const std::string out = dir.path(std::string(name) + ".pgn");
        std::string args = "analyze '" + data_path(std::string(name) + ".pgn") +
                           "' --nodes 3000 --threads 1 --explain off -o '" + out + "'";
        if (std::string(name) == "table_blunder")
            args += " --syzygy-path '" + tables_folder() + "'";
        const ShellRun r = run_horizon(args);
        INFO(r.output);
        REQUIRE(r.status == 0);
        CHECK(read_text_file(out) ==
              read_text_file(data_path(std::string(name) + ".explain-off.pgn")));
        CHECK_FALSE(contains(r.output, "explained in"));
    }
    // With explanations the same games differ only by the words added to the comments.
    const std::string on = dir.path("on.pgn");
    const ShellRun r = run_horizon("analyze '" + data_path("short.pgn") +
                                   "' --nodes 3000 --threads 1 -o '" + on + "'");
    REQUIRE(r.status == 0);
    CHECK(contains(r.output, "moves marked ? or ?? explained in"));
    const auto with = read_pgn(read_text_file(on));
    const auto without = read_pgn(read_text_file(data_path("short.explain-off.pgn")));
    REQUIRE(with.size() == without.size());
    int explained = 0;
    for (std::size_t g = 0; g < with.size(); ++g) {
        REQUIRE(with[g].moves.moves.size() == without[g].moves.moves.size());
        CHECK(with[g].tags == without[g].tags);
        for (std::size_t i = 0; i < with[g].moves.moves.size(); ++i) {
            const PgnMove& a = with[g].moves.moves[i];
            const PgnMove& b = without[g].moves.moves[i];
            CHECK(a.move == b.move);
            CHECK(a.nags == b.nags);
            CHECK(a.variations == b.variations);
            CHECK(pgn_command(a.comment_after, "eval") == pgn_command(b.comment_after, "eval"));
            explained += a.comment_after != b.comment_after;
        }
    }
    CHECK(explained >= 3);
}

TEST_CASE("puzzles: which positions may make one", "[analyze][puzzles]") {
    // Evaluations given by hand (side to move's view): 1. e4 e5 2. Nf3, the last move a
    // blunder from a position at `before`, the opponent's move before it from `earlier`.
    const PgnGame game = first_game("1. e4 e5 2. Nf3 *");
    const auto judged = [&](Score earlier, Score before, Score after_for_opponent) {
        std::vector<PositionEval> evals(4);
        evals[1].score = earlier;
        evals[2].score = before;
        evals[2].pv = {parse_san(position_before(game, 2), "d4").move};
        evals[3].score = after_for_opponent;
        return judge_game(game, evals, model());
    };
    const Position before = position_before(game, 2);
    PuzzleOptions options;
    // A blunder in an open game with a gap of 3 pawns: a candidate.
    GameAnalysis open = judged(-20, 30, 270);
    REQUIRE(open.moves[2].judgement == Judgement::BLUNDER);
    CHECK(puzzle_candidate(open, 2, before, options));
    // The game stood beyond the bound before the opponent's move: not a puzzle.
    CHECK_FALSE(puzzle_candidate(judged(-700, 30, 270), 2, before, options));
    CHECK_FALSE(puzzle_candidate(judged(700, 30, 270), 2, before, options));
    // A gap below the margin by the analysis's own scores: no check needed.
    GameAnalysis small = judged(-20, 0, 140);
    REQUIRE(small.moves[2].judgement >= Judgement::MISTAKE);
    CHECK_FALSE(puzzle_candidate(small, 2, before, options));
    options.margin_cp = 100;
    CHECK(puzzle_candidate(small, 2, before, options));
    // An inaccuracy never makes one.
    GameAnalysis slight = judged(-20, 30, 10);
    CHECK(slight.moves[2].judgement < Judgement::MISTAKE);
    CHECK_FALSE(puzzle_candidate(slight, 2, before, options));
}

TEST_CASE("puzzles: written as EPD and PGN, each checked deeper, per player",
          "[analyze][puzzles][e2e]") {
    test::TempDir dir;
    const std::string base = dir.path("puzzles");
    const ShellRun r =
        run_horizon("analyze '" + data_path(EXPLAIN_GAMES) + "' --nodes 3000 --threads 1 -o '" +
                    dir.path("out.pgn") + "' --puzzles '" + base + ".epd'");
    INFO(r.output);
    REQUIRE(r.status == 0);
    CHECK(std::regex_search(r.output, std::regex(R"(\d+ puzzles? written in)")));
    std::vector<std::string> errors;
    const auto entries = read_epd_file(base + ".epd", errors);
    REQUIRE(entries.has_value());
    const auto pgn = read_pgn(read_text_file(base + ".pgn"));
    REQUIRE(entries->size() == pgn.size());
    REQUIRE(entries->size() >= 1);
    const auto games = read_pgn(read_text_file(data_path(EXPLAIN_GAMES)));
    bool mate_puzzle = false;
    for (std::size_t k = 0; k < entries->size(); ++k) {
        const EpdEntry& e = (*entries)[k];
        INFO(e.id << ": " << e.record.pos.fen());
        std::string error;
        const auto bm = epd_moves(e.record.pos, *e.record.find("bm"), error);
        REQUIRE(bm.has_value());
        REQUIRE(bm->size() == 1);
        const std::string theme = e.record.find("c0")->operands.at(0);
        const std::string player = e.record.find("c1")->operands.at(0);
        CHECK_FALSE(theme.empty());
        // The source game, the position and the move played there.
        const std::regex id(R"((.*), game (\d+), move (\d+\.(?:\.\.)?))");
        std::smatch m;
        REQUIRE(std::regex_match(e.id, m, id));
        const PgnGame& source = games.at(std::stoul(m[2]) - 1);
        const std::string played = e.record.find("c3")->operands.at(0).substr(7);
        const std::size_t ply = ply_of(source, std::string(m[3]) + " " + played);
        const Position pos = position_before(source, ply);
        CHECK(pos.fen() == e.record.pos.fen());
        // The side to move is the one who erred, named in the id.
        CHECK(player == std::string(m[1]));
        CHECK(source.tag(pos.side_to_move() == WHITE ? "White" : "Black") == player);
        // The move played there was marked ? or ?? by the same analysis, and the game was not
        // decided before it.
        const GameAnalysis a = library_analysis(source, TEST_NODES);
        CHECK(a.moves[ply].judgement >= Judgement::MISTAKE);
        CHECK(puzzle_cp(a.positions[ply].score) >= -PuzzleOptions::DEFAULT_BOUND_CP);
        if (ply > 0)
            CHECK(std::abs(puzzle_cp(a.positions[ply - 1].score)) <=
                  PuzzleOptions::DEFAULT_BOUND_CP);
        // A deeper search than the check's has the stated move first, the margin behind it.
        const int depth = std::stoi(
            std::regex_replace(e.record.find("c2")->operands.at(0), std::regex(R"(.*depth )"), ""));
        Engine engine;
        engine.set_threads(1);
        engine.new_game();
        const auto lines = best_lines(engine, pos, depth_limit(depth + 2), 2);
        REQUIRE(lines.size() == 2);
        CHECK(lines[0].pv[0] == bm->front());
        CHECK(puzzle_cp(lines[0].score) - puzzle_cp(lines[1].score) >=
              PuzzleOptions::DEFAULT_MARGIN_CP);
        mate_puzzle |= theme == "mate";
        // The PGN: the same position, the solution starting with the best move.
        const PgnGame& p = pgn[k];
        REQUIRE_FALSE(p.error.has_value());
        CHECK(p.start.fen() == pos.fen());
        CHECK(p.tag("SetUp") == "1");
        CHECK(p.tag("FEN") == pos.fen());
        CHECK(p.tag("PuzzlePlayer") == player);
        CHECK(p.tag("PuzzleTheme") == theme);
        REQUIRE_FALSE(p.moves.moves.empty());
        CHECK(p.moves.moves[0].move == bm->front());
        CHECK(e.record.find("c4")->operands.at(0) == "uci " + move_to_uci(pos, bm->front()));
    }
    CHECK(mate_puzzle); // 2... Nc6?? with 2... Qh4# on the board

    // One player's only.
    const ShellRun misser =
        run_horizon("analyze '" + data_path(EXPLAIN_GAMES) + "' --nodes 3000 --threads 1 -o '" +
                    dir.path("o.pgn") + "' --puzzles '" + base + "' --puzzles-player Misser");
    REQUIRE(misser.status == 0);
    const auto only = read_epd_file(base + ".epd", errors);
    REQUIRE(only.has_value());
    REQUIRE(only->size() >= 1);
    for (const EpdEntry& e : *only)
        CHECK(e.record.find("c1")->operands.at(0) == "Misser");
}

TEST_CASE("explain and puzzles: the flags refuse what they cannot do", "[analyze][e2e]") {
    const std::string file = "'" + data_path("short.pgn") + "' --nodes 100";
    const ShellRun bad = run_horizon("analyze " + file + " --explain sometimes");
    CHECK(bad.status == 2);
    CHECK(contains(bad.output, "--explain: 'on', 'off' or 'all', not 'sometimes'"));
    const ShellRun player = run_horizon("analyze " + file + " --puzzles-player X");
    CHECK(player.status == 2);
    CHECK(contains(player.output, "--puzzles-player goes with --puzzles FILE"));
    const ShellRun margin = run_horizon("analyze " + file + " --puzzles p --puzzle-margin 0");
    CHECK(margin.status == 2);
    CHECK(contains(margin.output, "--puzzle-margin"));
    const ShellRun fen = run_horizon("analyze --fen '8/8/8/8/8/2k5/R7/4K3 w - - 0 1' --explain on");
    CHECK(fen.status == 2);
    CHECK(contains(fen.output, "--explain is for PGN files"));
    test::TempDir dir;
    const ShellRun nowhere =
        run_horizon("analyze " + file + " --puzzles '" + dir.path("no/such/folder/p") + "'");
    CHECK(nowhere.status == 2);
    CHECK(contains(nowhere.output, "--puzzles: cannot write"));
}
