// datagen --from-pgn (train/pgn_samples): training positions from match-runner games, each
// scored by the mover's comment and labelled with the game's result.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli/datagen.hpp"
#include "core/position.hpp"
#include "support.hpp"
#include "train/data_line.hpp"
#include "train/pgn_samples.hpp"

using namespace horizon;

namespace {

std::vector<DataLine> positions_of(const std::string& text) {
    std::vector<DataLine> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (line_kind(line) != LineKind::POSITION) continue;
        DataLine d;
        REQUIRE_FALSE(read_data_line(line, d));
        lines.push_back(d);
    }
    return lines;
}

std::string samples(const std::string& pgn, PgnSampleSummary& summary, int skip_plies = 0) {
    std::istringstream in(pgn);
    std::ostringstream out;
    PgnSampleOptions options;
    options.skip_plies = skip_plies;
    summary = pgn_samples(in, out, options);
    return out.str();
}

} // namespace

TEST_CASE("a match runner's move comment gives the mover's score in centipawns", "[pgn_samples]") {
    CHECK(comment_score("+0.35/16 0.412s") == 35);
    CHECK(comment_score("-1.20/9 0.1s") == -120);
    CHECK(comment_score("+0.00/1 0s") == 0);
    CHECK(comment_score(" -0.07/20 1.5s, White's clock") == -7);
    CHECK(comment_score("+12.5/30") == 1250);
    CHECK_FALSE(comment_score("+M5/20 0.1s"));
    CHECK_FALSE(comment_score("-M3/12 0.1s"));
    CHECK_FALSE(comment_score("book"));
    CHECK_FALSE(comment_score(""));
    CHECK_FALSE(comment_score("0.35/16"));   // no sign: not a runner's score
    CHECK_FALSE(comment_score("+0.35x/16")); // the number must end at the depth
    CHECK_FALSE(comment_score("+/16"));
}

TEST_CASE("datagen --from-pgn writes quiet scored positions with White's score and the result",
          "[pgn_samples]") {
    // 1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 Nf6 5. Nf3 c6 with scores; 2. exd5 and
    // 2... Qxd5 are captures, 3... Qa5 has no score (book), 4. d4's is a mate.
    const std::string pgn = R"([Event "t"]
[White "A"]
[Black "B"]
[Result "0-1"]
[Termination "normal"]

1. e4 {+0.30/10 0.1s} d5 {-0.40/10 0.1s} 2. exd5 {+0.50/10 0.1s} Qxd5 {-0.45/10 0.1s}
3. Nc3 {+0.55/10 0.1s} Qa5 {book} 4. d4 {+M7/10 0.1s} Nf6 {-0.20/10 0.1s}
5. Nf3 {+0.10/10 0.1s} c6 {-0.15/10 0.1s} 0-1
)";
    PgnSampleSummary s;
    const std::string out = samples(pgn, s);
    CHECK(s.games == 1);
    CHECK(s.used == 1);
    const auto lines = positions_of(out);
    // Written: 1. e4, 1... d5, 3. Nc3, 4... Nf6, 5. Nf3, 5... c6.
    REQUIRE(lines.size() == 6);
    CHECK(s.positions == 6);
    CHECK(lines[0].pos.fen() == std::string(Position::START_FEN));
    CHECK(lines[0].score == 30);
    CHECK(lines[1].score == 40); // Black's -0.40 is White's +40
    CHECK(lines[2].score == 55);
    CHECK(lines[3].score == 20); // 4... Nf6: Black's -0.20
    CHECK(lines[4].score == 10);
    CHECK(lines[5].score == 15);
    for (const DataLine& d : lines)
        CHECK(d.result_halves == 0);
    CHECK(out.find("# game 0\n") != std::string::npos);

    // skip_plies leaves out the start of the game: from 4... Nf6 (ply 7) on.
    const auto later = positions_of(samples(pgn, s, 7));
    REQUIRE(later.size() == 3);
    CHECK(later[0].score == 20);
}

TEST_CASE("datagen --from-pgn skips checks, unfinished and abnormally ended games",
          "[pgn_samples]") {
    // 2. Qh5+ puts Black in check: 2... g6 is played from a position that is not written.
    const std::string game = R"([Event "t"]
[Result "1-0"]
%s

1. e4 {+0.30/10 0.1s} f5 {-0.90/10 0.1s} 2. Qh5+ {+1.50/10 0.1s} g6 {-1.60/10 0.1s}
3. Qe2 {+1.40/10 0.1s} Nf6 {-1.20/10 0.1s} 1-0
)";
    const auto with_tag = [&](const std::string& tag) {
        std::string g = game;
        g.replace(g.find("%s"), 2, tag);
        return g;
    };
    PgnSampleSummary s;
    auto lines = positions_of(samples(with_tag("[Termination \"adjudication\"]"), s));
    REQUIRE(lines.size() == 5);
    CHECK(s.used == 1);
    for (const DataLine& d : lines) {
        CHECK_FALSE(d.pos.in_check());
        CHECK(d.result_halves == 2);
    }

    CHECK(positions_of(samples(with_tag("[Termination \"time forfeit\"]"), s)).empty());
    CHECK(s.abnormal == 1);
    CHECK(s.used == 0);

    std::string unfinished = with_tag("");
    unfinished.replace(unfinished.find("[Result \"1-0\"]"), 14, "[Result \"*\"]");
    unfinished.replace(unfinished.rfind("1-0"), 3, "*");
    CHECK(positions_of(samples(unfinished, s)).empty());
    CHECK(s.unfinished == 1);

    std::string broken = with_tag("");
    broken.replace(broken.find("Qe2"), 3, "Qe9");
    CHECK(positions_of(samples(broken + "\n" + with_tag(""), s)).size() == 5);
    CHECK(s.games == 2);
    CHECK(s.unreadable == 1);
    CHECK(s.used == 1);
}

TEST_CASE("datagen --from-pgn --distinct-games skips a copy of an earlier game", "[pgn_samples]") {
    // One game, then: its copy with other clock comments (skipped), the same moves with another
    // result, another move at the end, and another start position; the second file holds the
    // copy again (the set is shared by the files of a run).
    const auto game = [](const std::string& fen, const std::string& last, const char* result,
                         const char* clock) {
        std::string g = "[Result \"" + std::string(result) + "\"]\n";
        if (!fen.empty()) g += "[FEN \"" + fen + "\"]\n[SetUp \"1\"]\n";
        g += "\n1. d4 {+0.20/12 " + std::string(clock) + "} d5 {-0.10/12 " + clock + "} 2. " +
             last + " {+0.25/12 " + clock + "} " + result + "\n\n";
        return g;
    };
    const std::string other_start = "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const std::string first = game("", "c4", "1/2-1/2", "0.2s") +
                              game("", "c4", "1/2-1/2", "0.3s") + game("", "c4", "1-0", "0.2s") +
                              game("", "Nf3", "1/2-1/2", "0.2s") +
                              game(other_start, "c4", "1/2-1/2", "0.2s");
    std::set<std::string> seen;
    PgnSampleOptions options;
    options.skip_plies = 0;
    options.distinct = &seen;
    std::istringstream in(first);
    std::ostringstream out;
    const PgnSampleSummary s = pgn_samples(in, out, options);
    CHECK(s.games == 5);
    CHECK(s.repeats == 1);
    CHECK(s.used == 4);
    CHECK(seen.size() == 4);

    std::istringstream again(game("", "c4", "1/2-1/2", "0.9s"));
    const PgnSampleSummary t = pgn_samples(again, out, options, s.used);
    CHECK(t.repeats == 1);
    CHECK(t.used == 0);

    // Without the set every game counts.
    std::istringstream plain(first);
    std::ostringstream out2;
    options.distinct = nullptr;
    const PgnSampleSummary u = pgn_samples(plain, out2, options);
    CHECK(u.used == 5);
    CHECK(u.repeats == 0);
}

TEST_CASE("datagen --from-pgn command line: a new file from every input, or nothing",
          "[pgn_samples]") {
    namespace fs = std::filesystem;
    const fs::path dir =
        fs::temp_directory_path() / ("horizon_test_pgn_samples_" + std::to_string(getpid()));
    fs::create_directories(dir);
    const std::string pgn = (dir / "games.pgn").string(), out = (dir / "data.txt").string();
    {
        std::ofstream f(pgn);
        f << "[Result \"1/2-1/2\"]\n\n1. d4 {+0.20/12 0.2s} d5 {-0.10/12 0.2s} "
             "2. c4 {+0.25/12 0.2s} 1/2-1/2\n";
    }
    const auto exit_code = [](const std::vector<std::string>& args) {
        return test::run_main(datagen_main, args);
    };
    CHECK(exit_code({"datagen", "--from-pgn", pgn, "--out", out, "--nodes", "100"}) == 2);
    CHECK(exit_code({"datagen", "--out", out, "--games", "1", "--skip-plies", "3"}) == 2);
    CHECK(exit_code({"datagen", "--from-pgn", pgn, "--out", out, "--skip-plies", "x"}) == 2);
    CHECK(exit_code({"datagen", "--out", out, "--games", "1", "--distinct-games"}) == 2);
    CHECK_FALSE(fs::exists(out));

    // A missing input: no output, not even a partial one.
    CHECK(exit_code({"datagen", "--from-pgn", pgn, "--from-pgn", (dir / "no.pgn").string(), "--out",
                     out}) == 1);
    CHECK_FALSE(fs::exists(out));
    CHECK_FALSE(fs::exists(out + ".part"));

    CHECK(exit_code({"datagen", "--from-pgn", pgn, "--from-pgn", pgn, "--out", out, "--skip-plies",
                     "1"}) == 0);
    std::ifstream in(out);
    std::ostringstream text;
    text << in.rdbuf();
    const auto lines = positions_of(text.str());
    CHECK(lines.size() == 4); // d5 and c4 from each copy
    CHECK(text.str().find("# game 1\n") != std::string::npos);

    // The same file twice with --distinct-games: the second copy of its game is skipped.
    const std::string distinct = (dir / "distinct.txt").string();
    CHECK(exit_code({"datagen", "--from-pgn", pgn, "--from-pgn", pgn, "--out", distinct,
                     "--skip-plies", "1", "--distinct-games"}) == 0);
    std::ifstream din(distinct);
    std::ostringstream dtext;
    dtext << din.rdbuf();
    CHECK(positions_of(dtext.str()).size() == 2);
    CHECK(dtext.str().rfind("# horizon datagen --from-pgn, skip-plies 1, distinct games\n", 0) ==
          0);
    CHECK(dtext.str().find("# game 1\n") == std::string::npos);

    // An existing file is not replaced.
    const std::string before = text.str();
    CHECK(exit_code({"datagen", "--from-pgn", pgn, "--out", out}) == 1);
    std::ifstream again(out);
    std::ostringstream after;
    after << again.rdbuf();
    CHECK(after.str() == before);
    fs::remove_all(dir);
}
