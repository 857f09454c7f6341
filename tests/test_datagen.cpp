// datagen: real self-play at a few hundred nodes a move into temporary files; the format,
// reproducibility from the seed (whatever the thread count), resuming, and bad input; its
// command line (cli/datagen).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli/datagen.hpp"
#include "core/position.hpp"
#include "engine/engine.hpp"
#include "notation/uci_move.hpp"
#include "support.hpp"
#include "train/datagen.hpp"
#include "train/opening_book.hpp"

using namespace horizon;

namespace {

// A file in the temporary directory, removed when the test ends.
struct TempFile {
    std::filesystem::path path;
    explicit TempFile(const std::string& name)
        : path(std::filesystem::temp_directory_path() /
               ("horizon_test_datagen_" + std::to_string(getpid()) + "_" + name + ".txt")) {
        std::filesystem::remove(path);
    }
    ~TempFile() { std::filesystem::remove(path); }
    std::string str() const { return path.string(); }
};

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_all(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

DatagenOptions small_run(const std::string& out, std::uint64_t games) {
    DatagenOptions o;
    o.out = out;
    o.games = games;
    o.nodes = 400;
    o.balance_nodes = 400;
    o.threads = 1;
    o.seed = 7;
    o.hash_mib = 2;
    return o;
}

// Runs datagen; checks what it reported on the way against its summary.
DatagenSummary run(const DatagenOptions& o, DatagenResume* found = nullptr) {
    int resumes = 0, reports = 0;
    DatagenResume resume;
    DatagenProgress last;
    DatagenCallbacks callbacks;
    callbacks.on_resume = [&](const DatagenResume& r) {
        ++resumes;
        resume = r;
    };
    callbacks.on_progress = [&](const DatagenProgress& p) {
        CHECK(p.file_games >= last.file_games);
        CHECK(p.file_positions >= last.file_positions);
        ++reports;
        last = p;
    };
    const DatagenSummary s = run_datagen(o, callbacks);
    const std::string summary = datagen_summary_text(s, o.nodes);
    INFO(summary);
    CHECK(summary.rfind("datagen: " + std::to_string(s.games) + " games, ", 0) == 0);
    CHECK(resumes == 1);
    CHECK(resume.games == s.resumed_games);
    CHECK(resume.positions == s.resumed_positions);
    REQUIRE(reports > 0);
    CHECK(last.games == s.games);
    CHECK(last.positions == s.positions);
    CHECK(last.file_games == s.resumed_games + s.games);
    CHECK(last.file_positions == s.resumed_positions + s.positions);
    if (found) *found = resume;
    return s;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

int count_games(const std::string& text) {
    int n = 0;
    for (const auto& line : lines_of(text))
        n += line.rfind("# game ", 0) == 0;
    return n;
}

// The position lines of each game block, in game order (the header and other comments left out).
std::vector<std::vector<std::string>> game_blocks(const std::string& text) {
    std::vector<std::vector<std::string>> blocks(1);
    for (const auto& line : lines_of(text)) {
        if (line.rfind("# game ", 0) == 0)
            blocks.emplace_back();
        else if (!line.empty() && line[0] != '#')
            blocks.back().push_back(line);
    }
    blocks.pop_back(); // after the last game's line: empty
    return blocks;
}

// Whether `part` is `whole` with some of its elements left out, the rest in their order.
bool is_subsequence(const std::vector<std::string>& part, const std::vector<std::string>& whole) {
    auto at = whole.begin();
    for (const auto& item : part) {
        at = std::find(at, whole.end(), item);
        if (at == whole.end()) return false;
        ++at;
    }
    return true;
}

// The moves of `line` (UCI, each legal after those before it) from `pos`.
std::vector<Move> moves_of(const Position& pos, const std::vector<std::string>& line) {
    Position p = pos;
    std::vector<Move> moves;
    for (const std::string& text : line) {
        INFO(text);
        const auto m = parse_uci_move(p, text);
        REQUIRE(m);
        moves.push_back(*m);
        p.make_move(*m);
    }
    return moves;
}

// The FEN of `pos` after the first `plies` of `moves`.
std::string fen_after(Position pos, const std::vector<Move>& moves, std::size_t plies) {
    for (std::size_t i = 0; i < plies; ++i)
        pos.make_move(moves[i]);
    return pos.fen();
}

// What resolve_pv makes of `line` from `pos`: the FEN it stops at, or "" for none.
std::string resolved(const Position& pos, const std::vector<Move>& line) {
    const auto end = resolve_pv(pos, line);
    return end ? end->fen() : "";
}

// Checks every line of a data file (each game block carrying one result); counts them.
struct Checked {
    std::uint64_t positions = 0;
    int games = 0;
};

Checked check_format(const std::string& text) {
    Checked c;
    std::string block_result;
    for (const auto& line : lines_of(text)) {
        INFO(line);
        REQUIRE_FALSE(line.empty());
        if (line[0] == '#') {
            if (line.rfind("# game ", 0) == 0) {
                ++c.games;
                block_result.clear();
            }
            continue;
        }
        const auto a = line.find(" | ");
        REQUIRE(a != std::string::npos);
        const auto b = line.find(" | ", a + 3);
        REQUIRE(b != std::string::npos);
        const std::string fen = line.substr(0, a);
        const std::string score_text = line.substr(a + 3, b - a - 3);
        const std::string result = line.substr(b + 3);

        Position pos;
        const auto err = pos.set_fen(fen);
        INFO((err ? err->message : std::string()));
        REQUIRE_FALSE(err);
        CHECK(pos.fen() == fen);
        CHECK_FALSE(pos.in_check());
        CHECK(pos.game_ply() >= 16);

        std::size_t used = 0;
        const int score = std::stoi(score_text, &used);
        CHECK(used == score_text.size());
        CHECK(std::abs(score) < SCORE_MATE_IN_MAX_PLY);

        CHECK((result == "1.0" || result == "0.5" || result == "0.0"));
        if (block_result.empty()) block_result = result;
        CHECK(result == block_result);
        ++c.positions;
    }
    return c;
}

} // namespace

TEST_CASE("datagen writes quiet positions with White's score and the game result", "[datagen]") {
    TempFile file("format");
    const DatagenSummary s = run(small_run(file.str(), 2));
    const std::string text = read_all(file.str());
    INFO(text.substr(0, 2000));

    CHECK(s.games == 2);
    CHECK(s.white_wins + s.draws + s.black_wins == 2);
    CHECK(s.searches > 0);
    REQUIRE(text.rfind("# horizon datagen: seed 7, nodes 400", 0) == 0);
    const Checked c = check_format(text);
    CHECK(c.games == 2);
    CHECK(c.positions == s.positions);
    CHECK(c.positions > 0);
    // Every game's marker line, in game order.
    CHECK(text.find("# game 0\n") < text.find("# game 1\n"));
    CHECK(text.back() == '\n');
}

TEST_CASE("datagen is reproducible from the seed, whatever the number of threads", "[datagen]") {
    TempFile one("one_thread"), two("two_threads"), other("other_seed");
    run(small_run(one.str(), 3));
    DatagenOptions o = small_run(two.str(), 3);
    o.threads = 2;
    run(o);
    const std::string a = read_all(one.str());
    CHECK(count_games(a) == 3);
    CHECK(a == read_all(two.str()));

    o = small_run(other.str(), 3);
    o.seed = 8;
    run(o);
    const std::string c = read_all(other.str());
    CHECK(count_games(c) == 3);
    CHECK(a.substr(a.find('\n')) != c.substr(c.find('\n')));
}

TEST_CASE("datagen resumes a file: finished games are kept, an unfinished one is replayed",
          "[datagen]") {
    TempFile fresh("fresh"), resumed("resumed");
    run(small_run(fresh.str(), 2));
    const std::string expected = read_all(fresh.str());

    const DatagenSummary first = run(small_run(resumed.str(), 1));
    CHECK(first.games == 1);
    const std::string after_one = read_all(resumed.str());
    CHECK(count_games(after_one) == 1);
    REQUIRE(expected.rfind(after_one, 0) == 0);

    // A run killed while writing game 1: half of its block, the last line cut short.
    const std::string game1 = expected.substr(after_one.size());
    write_all(resumed.str(), after_one + game1.substr(0, game1.size() / 2));

    DatagenResume resume;
    const DatagenSummary second = run(small_run(resumed.str(), 2), &resume);
    CHECK(resume.dropped_bytes == game1.size() / 2);
    CHECK(second.resumed_games == 1);
    CHECK(second.resumed_positions == first.positions);
    CHECK(second.games == 1);
    CHECK(read_all(resumed.str()) == expected);

    // Nothing left to do: the file stays as it is.
    const DatagenSummary third = run(small_run(resumed.str(), 2));
    CHECK(third.games == 0);
    CHECK(read_all(resumed.str()) == expected);
}

TEST_CASE("datagen stops at a position target after the game that reaches it", "[datagen]") {
    TempFile file("positions");
    DatagenOptions o = small_run(file.str(), 0);
    o.positions = 20;
    const DatagenSummary s = run(o);
    const std::string text = read_all(file.str());
    const Checked c = check_format(text);
    CHECK(c.positions == s.positions);
    CHECK(s.games == std::uint64_t(c.games));
    REQUIRE(c.positions >= 20);
    // Without its last game the file would fall short of the target.
    const auto last_marker = text.rfind("# game ");
    REQUIRE(last_marker != std::string::npos);
    const auto cut = text.rfind("# game ", last_marker - 1);
    const std::string without_last =
        cut == std::string::npos ? std::string() : text.substr(0, text.find('\n', cut) + 1);
    CHECK(check_format(without_last).positions < 20);
}

TEST_CASE("datagen refuses files it did not make, or made with other settings", "[datagen]") {
    TempFile foreign("foreign"), made("made");
    write_all(foreign.str(), "this is not datagen output\n");
    CHECK_THROWS(run_datagen(small_run(foreign.str(), 1)));
    CHECK(read_all(foreign.str()) == "this is not datagen output\n");

    run(small_run(made.str(), 1));
    const std::string before = read_all(made.str());
    DatagenOptions o = small_run(made.str(), 2);
    o.seed = 8;
    CHECK_THROWS(run_datagen(o));
    o = small_run(made.str(), 2);
    o.nodes = 401;
    CHECK_THROWS(run_datagen(o));
    // Other evaluation weights: refused too (their signature is in the header).
    EvalWeights other = builtin_weights();
    other.params.weights[std::size_t(feature_index(Term::tempo))].mg += 7;
    other.params.seal();
    o = small_run(made.str(), 2);
    o.weights = &other;
    CHECK_THROWS(run_datagen(o));
    // Another choice of positions: the file would mix two recipes.
    o = small_run(made.str(), 2);
    o.per_game = 3;
    CHECK_THROWS(run_datagen(o));
    CHECK(read_all(made.str()) == before);

    TempFile sampled("sampled");
    o = small_run(sampled.str(), 1);
    o.per_game = 3;
    run(o);
    const std::string sampled_before = read_all(sampled.str());
    o.games = 2;
    o.per_game = 4;
    CHECK_THROWS(run_datagen(o));
    o.per_game = 0;
    CHECK_THROWS(run_datagen(o));
    o.per_game = 3;
    o.resolve = SampleResolve::PV; // the positions at the ends of the lines instead
    CHECK_THROWS(run_datagen(o));
    CHECK(read_all(sampled.str()) == sampled_before);
    o = small_run(made.str(), 2);
    o.resolve = SampleResolve::PV;
    CHECK_THROWS(run_datagen(o));
    CHECK(read_all(made.str()) == before);
}

TEST_CASE("datagen plays with the weights it is given", "[datagen]") {
    TempFile builtin("builtin"), material("material");
    run(small_run(builtin.str(), 2));
    // Knights worth almost nothing: the games cannot stay the same.
    EvalWeights other = builtin_weights();
    other.params.weights[std::size_t(feature_index(Term::material, 1))] = Weight{40, 40};
    other.params.seal();
    DatagenOptions o = small_run(material.str(), 2);
    o.weights = &other;
    run(o);
    const std::string a = read_all(builtin.str()), b = read_all(material.str());
    CHECK(check_format(b).games == 2);
    CHECK(a.substr(0, a.find('\n')) != b.substr(0, b.find('\n'))); // the header names them
    CHECK(a.substr(a.find('\n')) != b.substr(b.find('\n')));
}

TEST_CASE("datagen command line: bad flags exit 2 before anything runs", "[datagen]") {
    TempFile file("cli");
    const std::string out = file.str();
    const auto exit_code = [](const std::vector<std::string>& args) {
        return test::run_main(datagen_main, args);
    };
    CHECK(exit_code({"datagen", "--games", "2"}) == 2); // no --out
    CHECK(exit_code({"datagen", "--out", out}) == 2);   // no target
    CHECK(exit_code({"datagen", "--out", out, "--games", "-1"}) == 2);
    CHECK(exit_code({"datagen", "--out", out, "--games", "2", "--nodes", "x"}) == 2);
    CHECK(exit_code({"datagen", "--out", out, "--games", "2", "--threads", "0"}) == 2);
    CHECK(exit_code({"datagen", "--out", out, "--games", "2", "--frobnicate"}) == 2);
    CHECK(exit_code({"datagen", "--out", out, "--games", "2", "stray"}) == 2);
    CHECK(exit_code({"datagen", "--out", out, "--games", "2", "--per-game", "x"}) == 2);
    CHECK(exit_code({"datagen", "--out", out, "--games", "2", "--per-game", "-1"}) == 2);
    CHECK(exit_code({"datagen", "--out", out, "--from-pgn", out, "--per-game", "3"}) == 2);
    CHECK(exit_code({"datagen", "--out", out, "--openings", "5", "--per-game", "3"}) == 2);
    CHECK(exit_code({"datagen", "--out", out, "--games", "2", "--resolve", "qsearch"}) == 2);
    CHECK(exit_code({"datagen", "--out", out, "--from-pgn", out, "--resolve", "pv"}) == 2);
    CHECK(exit_code({"datagen", "--out", out, "--openings", "5", "--resolve", "none"}) == 2);
    CHECK_FALSE(std::filesystem::exists(file.path));

    // Both recipe flags reach the run: its header names them.
    REQUIRE(exit_code({"datagen", "--out", out, "--games", "1", "--nodes", "200", "--seed", "7",
                       "--hash", "2", "--threads", "1", "--per-game", "4", "--resolve", "pv"}) ==
            0);
    const std::string header = lines_of(read_all(out)).at(0);
    CHECK(header.find(", per-game 4, resolve pv") != std::string::npos);
    CHECK(check_format(read_all(out)).positions <= 4);
}

TEST_CASE("datagen openings: distinct, level by the check's own search, the same whatever the "
          "thread count",
          "[datagen]") {
    DatagenOptions o = small_run("", 0);
    o.max_imbalance = 40;
    const std::vector<std::string> one = balanced_openings(o, 24);
    o.threads = 2;
    std::uint64_t last_report = 0;
    const std::vector<std::string> two =
        balanced_openings(o, 24, [&](std::uint64_t found) { last_report = found; });
    CHECK(one == two);
    CHECK(last_report == 24);
    REQUIRE(one.size() == 24);
    std::set<std::string> seen(one.begin(), one.end());
    CHECK(seen.size() == one.size());

    Engine engine;
    REQUIRE(engine.set_hash(2));
    for (const std::string& epd : one) {
        INFO(epd);
        CHECK(std::count(epd.begin(), epd.end(), ' ') == 3); // the first four FEN fields
        Position pos;
        REQUIRE_FALSE(pos.set_fen(epd + " 0 1"));
        // The same check the generator made, on a fresh engine: within the bound.
        engine.new_game();
        REQUIRE_FALSE(engine.set_position(pos));
        SearchLimits limits;
        limits.nodes = o.balance_nodes;
        const SearchResult r = engine.search_sync(limits, [](const SearchReport&) {});
        CHECK(std::abs(r.score) <= 40);
    }

    // Another seed, another book.
    o.seed = 8;
    CHECK(balanced_openings(o, 24) != one);
}

TEST_CASE("datagen --openings writes the book as EPD and refuses what does not go with it",
          "[datagen]") {
    TempFile file("book");
    const std::string out = file.str();
    const auto exit_code = [](const std::vector<std::string>& args) {
        return test::run_main(datagen_main, args);
    };
    CHECK(exit_code({"datagen", "--out", out, "--openings", "5", "--games", "2"}) == 2);
    CHECK(exit_code({"datagen", "--out", out, "--openings", "5", "--nodes", "100"}) == 2);
    CHECK(exit_code({"datagen", "--out", out, "--openings", "0"}) == 2);
    CHECK(exit_code({"datagen", "--out", out, "--openings", "5", "--from-pgn", out}) == 2);
    CHECK(exit_code({"datagen", "--out", out, "--openings", "5", "--max-imbalance", "-3"}) == 2);
    CHECK_FALSE(std::filesystem::exists(file.path));

    REQUIRE(exit_code({"datagen", "--out", out, "--openings", "6", "--seed", "7", "--balance-nodes",
                       "400", "--hash", "2", "--threads", "1"}) == 0);
    DatagenOptions o = small_run("", 0);
    std::string want;
    for (const std::string& epd : balanced_openings(o, 6))
        want += epd + "\n";
    CHECK(read_all(out) == want);
    // An existing file is not overwritten.
    CHECK(exit_code({"datagen", "--out", out, "--openings", "6"}) == 2);
    CHECK(read_all(out) == want);
}

TEST_CASE("datagen --per-game writes at most K positions of each of the same games, chosen at "
          "random, the same whatever the number of threads",
          "[datagen]") {
    TempFile all("per_game_all"), one("per_game_one_thread"), two("per_game_two_threads");
    run(small_run(all.str(), 4));
    DatagenOptions o = small_run(one.str(), 4);
    o.per_game = 3;
    run(o);
    o.out = two.str();
    o.threads = 2;
    run(o);

    const std::string every = read_all(all.str()), some = read_all(one.str());
    CHECK(some == read_all(two.str()));
    REQUIRE(some.rfind("# horizon datagen: seed 7, nodes 400", 0) == 0);
    CHECK(some.substr(0, some.find('\n')) == every.substr(0, every.find('\n')) + ", per-game 3");
    CHECK(check_format(some).games == 4);

    const auto every_blocks = game_blocks(every), some_blocks = game_blocks(some);
    REQUIRE(every_blocks.size() == 4);
    REQUIRE(some_blocks.size() == 4);
    bool other_than_first_three = false;
    for (std::size_t g = 0; g < 4; ++g) {
        INFO("game " << g);
        const auto& chosen = some_blocks[g];
        const auto& candidates = every_blocks[g];
        // The same game (its positions, scores and result): K of its lines, in order.
        CHECK(chosen.size() == std::min<std::size_t>(3, candidates.size()));
        CHECK(is_subsequence(chosen, candidates));
        if (candidates.size() > 3 && !std::equal(chosen.begin(), chosen.end(), candidates.begin()))
            other_than_first_three = true;
    }
    CHECK(other_than_first_three); // drawn from the whole game, not its first positions
}

TEST_CASE("datagen --per-game resumes a file as a run of all its games at once would write it",
          "[datagen]") {
    TempFile fresh("per_game_fresh"), resumed("per_game_resumed");
    DatagenOptions o = small_run(fresh.str(), 3);
    o.per_game = 2;
    run(o);
    o = small_run(resumed.str(), 1);
    o.per_game = 2;
    run(o);
    o.games = 3;
    const DatagenSummary s = run(o);
    CHECK(s.resumed_games == 1);
    CHECK(s.games == 2);
    CHECK(read_all(resumed.str()) == read_all(fresh.str()));
}

TEST_CASE("resolve_pv plays a line's captures, promotions, checks and evasions, and stops "
          "before its first other move",
          "[datagen]") {
    // A pawn each in the centre, Black's queen behind its pawn.
    const Position centre = test::position_from("3qk3/8/8/3p4/4P3/8/8/4K3 w - - 0 30");
    const auto quiet_first = moves_of(centre, {"e1e2", "d5e4", "e2e3"});
    CHECK(resolved(centre, quiet_first) == centre.fen());
    const auto exchange = moves_of(centre, {"e4d5", "d8d5", "e1e2", "d5e4"});
    CHECK(resolved(centre, exchange) == fen_after(centre, exchange, 2));
    // A line that ends before a quiet move: its end.
    CHECK(resolved(centre, {exchange[0]}) == fen_after(centre, exchange, 1));
    CHECK(resolved(centre, {}) == centre.fen());

    // A promotion counts as noisy; the king's quiet reply ends the walk.
    const Position promotion = test::position_from("8/4P3/8/8/8/8/k7/4K3 w - - 0 50");
    const auto queening = moves_of(promotion, {"e7e8q", "a2b3", "e8e3"});
    CHECK(resolved(promotion, queening) == fen_after(promotion, queening, 1));

    // In check, a quiet evasion is walked; the other side's quiet reply is not.
    const Position checked = test::position_from("4k3/8/8/8/8/4r3/8/4K3 w - - 0 30");
    const auto evasion = moves_of(checked, {"e1d1", "e8d8"});
    CHECK(resolved(checked, evasion) == fen_after(checked, evasion, 1));
    CHECK(resolved(checked, {}).empty()); // the line ends in check

    // Checks and evasions without end: the walk stops after RESOLVE_MAX_PLIES, where White, not
    // in check, is to move; one ply fewer of line leaves Black in check, and nothing.
    const Position perpetual = test::position_from("7k/8/8/8/8/3Q4/8/2K5 w - - 0 40");
    std::vector<std::string> checks;
    for (int i = 0; i < RESOLVE_MAX_PLIES + 2; ++i) {
        static const char* const cycle[] = {"d3d8", "h8h7", "d8d3", "h7h8"};
        checks.push_back(cycle[i % 4]);
    }
    REQUIRE(RESOLVE_MAX_PLIES % 2 == 0);
    const auto long_line = moves_of(perpetual, checks);
    CHECK(resolved(perpetual, long_line) ==
          fen_after(perpetual, long_line, std::size_t(RESOLVE_MAX_PLIES)));
    const std::vector<Move> cut(long_line.begin(), long_line.begin() + RESOLVE_MAX_PLIES - 1);
    CHECK(resolved(perpetual, cut).empty());

    // A capture that stalemates: no position to write.
    const Position stalemating = test::position_from("7k/5r2/8/8/8/8/8/K4Q2 w - - 0 40");
    CHECK(resolved(stalemating, moves_of(stalemating, {"f1f7"})).empty());

    // A move that is not legal where it stands: nothing.
    CHECK(resolved(centre, {Move(E1, E3)}).empty());
    CHECK(resolved(centre, {exchange[0], Move(E1, E3)}).empty());
}

TEST_CASE("datagen --resolve pv writes another position than the searched one only where the "
          "search's line starts with a capture, a promotion or a check, or in check",
          "[datagen]") {
    const DatagenOptions o = small_run("", 0);
    const std::unique_ptr<Engine> engine = make_datagen_engine(o);
    int noisy_starts = 0, quiet_starts = 0, written_elsewhere = 0;
    for (std::uint64_t g = 0; g < 2; ++g) {
        Position pos = game_opening(*engine, o, g);
        for (int ply = 0; ply < 100 && test::has_legal_move(pos) && !pos.is_draw(0); ++ply) {
            SearchLimits limits;
            limits.nodes = o.nodes;
            const SearchResult r = engine->search_sync(limits, [](const SearchReport&) {});
            REQUIRE(r.best);
            const std::vector<Move> line = r.pv.empty() ? std::vector<Move>{r.best} : r.pv;
            const auto as_searched = sample_fen(pos, r, SampleResolve::NONE);
            const auto at_end = sample_fen(pos, r, SampleResolve::PV);
            INFO(pos.fen() << " best " << move_to_uci(pos, r.best) << " score " << r.score);
            const bool mate = std::abs(r.score) >= SCORE_MATE_IN_MAX_PLY;
            if (!pos.in_check() && !pos.is_capture_or_promotion(line[0]) &&
                !pos.gives_check(line[0])) {
                ++quiet_starts;
                CHECK(as_searched == (mate ? std::nullopt : std::optional(pos.fen())));
                CHECK(at_end == as_searched);
            } else {
                ++noisy_starts;
                CHECK(at_end != std::optional(pos.fen()));
            }
            if (at_end && *at_end != pos.fen()) {
                ++written_elsewhere;
                CHECK_FALSE(mate);
                // A position of the line, not in check, with a move to make.
                Position p = pos;
                std::size_t plies = 0;
                while (plies < line.size() && p.fen() != *at_end)
                    p.make_move(line[plies++]);
                CHECK(p.fen() == *at_end);
                CHECK(plies <= std::size_t(RESOLVE_MAX_PLIES));
                CHECK_FALSE(p.in_check());
                CHECK(test::has_legal_move(p));
            }
            REQUIRE_FALSE(engine->play(r.best));
            pos.make_move(r.best);
        }
    }
    CHECK(quiet_starts > 0);
    CHECK(noisy_starts > 0);
    CHECK(written_elsewhere > 0);
}

TEST_CASE("datagen --resolve pv plays the same games and writes positions not in check with a "
          "move to make",
          "[datagen]") {
    TempFile searched("resolve_none"), resolved_file("resolve_pv");
    run(small_run(searched.str(), 3));
    DatagenOptions o = small_run(resolved_file.str(), 3);
    o.resolve = SampleResolve::PV;
    run(o);
    const std::string as_searched = read_all(searched.str()),
                      at_end = read_all(resolved_file.str());
    CHECK(at_end.substr(0, at_end.find('\n')) ==
          as_searched.substr(0, as_searched.find('\n')) + ", resolve pv");
    CHECK(check_format(at_end).games == 3); // legal, not in check, no mate score

    const auto searched_blocks = game_blocks(as_searched), resolved_blocks = game_blocks(at_end);
    REQUIRE(searched_blocks.size() == 3);
    REQUIRE(resolved_blocks.size() == 3);
    bool kept = false, added = false;
    for (std::size_t g = 0; g < 3; ++g) {
        INFO("game " << g);
        const auto result = [](const std::string& line) { return line.substr(line.rfind(" | ")); };
        REQUIRE_FALSE(searched_blocks[g].empty());
        REQUIRE_FALSE(resolved_blocks[g].empty());
        CHECK(result(searched_blocks[g][0]) == result(resolved_blocks[g][0])); // the same game
        std::set<std::string> fens; // lines from consecutive plies often end in one position
        for (const std::string& line : resolved_blocks[g]) {
            const std::string fen = line.substr(0, line.find(" | "));
            INFO(fen);
            CHECK(fens.insert(fen).second); // written once
            Position pos = test::position_from(fen);
            CHECK(test::has_legal_move(pos));
            const bool also_searched =
                std::find(searched_blocks[g].begin(), searched_blocks[g].end(), line) !=
                searched_blocks[g].end();
            (also_searched ? kept : added) = true;
        }
    }
    CHECK(kept);  // positions whose line starts quiet: as they were
    CHECK(added); // the ends of lines that start noisy
}
