// The analysis room (src/analysis) and its front ends: the judging of moves, the annotated PGN,
// the SVG plot, the test-suite runner, `horizon analyze` and `horizon epd` end to end, and their
// answers to bad input (the EPD format itself is tested with the notation). Searches run at fixed
// nodes on one thread, so every result here is reproducible.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/best_lines.hpp"
#include "analysis/epd_runner.hpp"
#include "analysis/game_analysis.hpp"
#include "analysis/svg_plot.hpp"
#include "cli/analyze.hpp"
#include "core/position.hpp"
#include "engine/config.hpp"
#include "engine/engine.hpp"
#include "eval/wdl.hpp"
#include "notation/epd.hpp"
#include "notation/pgn.hpp"
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
    const std::string args = "analyze '" + data_path("short.pgn") + "' --nodes " +
                             std::to_string(TEST_NODES) + " --threads 1 --games 1 -o '" + out +
                             "' --plot '" + plots + "'";
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
