// End to end: the real binary as a child process, driven through pipes the way a GUI does.
// The timing limits here are requirements (protocol latency, time use), not tuning knobs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/position.hpp"
#include "eval/params.hpp"
#include "notation/uci_move.hpp"
#include "platform/subprocess.hpp"

#include "support.hpp"

using namespace horizon;
using namespace std::chrono_literals;
using test::run_horizon;
using test::ShellRun;
using test::tokens;
using Clock = std::chrono::steady_clock;

namespace {

long long ms_since(Clock::time_point t0) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
}

// Starts the engine and waits until it is ready.
struct EngineProcess {
    Subprocess p{{HORIZON_BINARY}};
    EngineProcess() {
        REQUIRE(p.write("uci\n"));
        REQUIRE(p.wait_for("uciok", 10s));
        REQUIRE(p.write("isready\n"));
        REQUIRE(p.wait_for("readyok", 10s));
    }
    void send(const std::string& text) { REQUIRE(p.write(text + "\n")); }
};

// The bestmove line's move must be legal in `root` (and its ponder move after it).
void check_bestmove(const std::string& line, const Position& root) {
    INFO(line);
    const auto t = tokens(line);
    REQUIRE(t.size() >= 2);
    REQUIRE(t[0] == "bestmove");
    const auto best = parse_uci_move(root, t[1]);
    REQUIRE(best);
    if (t.size() >= 4) {
        REQUIRE(t[2] == "ponder");
        Position after = root;
        after.make_move(*best);
        CHECK(parse_uci_move(after, t[3]));
    }
}

Position start_position() {
    Position p;
    REQUIRE_FALSE(p.set_fen(Position::START_FEN));
    return p;
}

Position after_moves(const std::vector<std::string>& moves) {
    Position p = start_position();
    for (const auto& m : moves)
        p.make_move(*parse_uci_move(p, m));
    return p;
}

} // namespace

TEST_CASE("e2e: start-up answers uci with its id, options and uciok", "[e2e]") {
    // Behaviour only: how fast is measured by `horizon uci-bench`, not here (a wall-clock
    // bound fails on a loaded machine). The deadlines only detect a hang.
    for (int i = 0; i < 3; ++i) {
        Subprocess p({HORIZON_BINARY});
        REQUIRE(p.write("uci\n"));
        const auto first = p.read_line(10s);
        REQUIRE(first);
        CHECK(first->rfind("id name ", 0) == 0);
        const auto ok = p.wait_for("uciok", 10s);
        REQUIRE(ok);
        CHECK(*ok == "uciok");
        REQUIRE(p.write("quit\n"));
        CHECK(p.wait(10s) == 0);
    }
}

TEST_CASE("e2e: isready and stop are answered during go infinite", "[e2e]") {
    EngineProcess e;
    e.send("position startpos");
    e.send("go infinite");
    std::this_thread::sleep_for(100ms); // well into the search

    // Answered while the search runs (how fast: `horizon uci-bench`; the deadlines here
    // only detect a hang).
    for (int i = 0; i < 3; ++i) {
        e.send("isready");
        REQUIRE(e.p.wait_for("readyok", 10s));
    }
    e.send("stop");
    const auto best = e.p.wait_for("bestmove", 10s);
    REQUIRE(best);
    check_bestmove(*best, start_position());

    // Exactly one bestmove: nothing else arrives, and the engine still answers.
    e.send("isready");
    const auto next = e.p.wait_for("readyok", 2s);
    REQUIRE(next);
}

TEST_CASE("e2e: exactly one bestmove per go", "[e2e]") {
    EngineProcess e;
    e.send("position startpos");
    e.send("go depth 4");
    e.send("isready");
    // Read everything up to readyok after the search: count the bestmoves.
    int bestmoves = 0;
    bool ready = false;
    const auto deadline = Clock::now() + 10s;
    std::optional<std::string> best;
    while (Clock::now() < deadline) {
        auto line = e.p.read_line(1s);
        if (!line) continue;
        if (line->rfind("bestmove", 0) == 0) {
            ++bestmoves;
            best = line;
        }
        if (*line == "readyok") ready = true;
        if (ready && bestmoves) break;
    }
    REQUIRE(best);
    check_bestmove(*best, start_position());
    // Nothing more follows.
    e.send("isready");
    for (auto line = e.p.read_line(2s); line && *line != "readyok"; line = e.p.read_line(2s))
        bestmoves += line->rfind("bestmove", 0) == 0;
    CHECK(bestmoves == 1);
}

TEST_CASE("e2e: go ponder - then ponderhit", "[e2e]") {
    EngineProcess e;
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 1000 btime 1000");
    // No bestmove while pondering, although 150 ms exceeds this move's share of the clock.
    CHECK_FALSE(e.p.wait_for("bestmove", 150ms));
    e.send("ponderhit");
    const auto best = e.p.wait_for("bestmove", 10s);
    REQUIRE(best);
    check_bestmove(*best, after_moves({"e2e4"}));
}

TEST_CASE("e2e: go movetime uses the time minus Move Overhead", "[e2e]") {
    EngineProcess e;
    e.send("position startpos");
    SECTION("default Move Overhead (30 ms)") {
        const auto t0 = Clock::now();
        e.send("go movetime 500");
        const auto best = e.p.wait_for("bestmove", 10s);
        const auto ms = ms_since(t0);
        REQUIRE(best);
        INFO("go movetime 500: bestmove after " << ms << " ms");
        // It uses its time: 500 - 30 overhead, less a few ms of clock granularity. (How
        // late it may be is a timing goal, measured by `horizon uci-bench`.)
        CHECK(ms >= 465);
        check_bestmove(*best, start_position());
    }
    SECTION("Move Overhead 200") {
        e.send("setoption name Move Overhead value 200");
        const auto t0 = Clock::now();
        e.send("go movetime 500");
        const auto best = e.p.wait_for("bestmove", 10s);
        const auto ms = ms_since(t0);
        REQUIRE(best);
        INFO("go movetime 500 with overhead 200: bestmove after " << ms << " ms");
        CHECK(ms >= 295);
    }
}

TEST_CASE("e2e: quit during go infinite exits with status 0", "[e2e]") {
    EngineProcess e;
    e.send("position startpos");
    e.send("go infinite");
    std::this_thread::sleep_for(100ms);
    const auto t0 = Clock::now();
    e.send("quit");
    const auto status = e.p.wait(10s);
    INFO("exit after " << ms_since(t0) << " ms");
    REQUIRE(status);
    CHECK(*status == 0);
}

TEST_CASE("e2e: end of input during a search exits with status 0", "[e2e]") {
    EngineProcess e;
    e.send("position startpos");
    e.send("go infinite");
    std::this_thread::sleep_for(100ms);
    const auto t0 = Clock::now();
    e.p.close_stdin();
    const auto status = e.p.wait(10s);
    INFO("exit after " << ms_since(t0) << " ms");
    REQUIRE(status);
    CHECK(*status == 0);
    // The search it stopped still sent its bestmove.
    const auto best = e.p.wait_for("bestmove", 1s);
    REQUIRE(best);
    check_bestmove(*best, start_position());
}

TEST_CASE("e2e: tiny - zero and odd clocks still give a legal move", "[e2e]") {
    EngineProcess e;
    e.send("position startpos");
    for (const char* go :
         {"go wtime 30 btime 30", "go wtime 0 btime 0", "go wtime -5 btime 100",
          "go wtime 1 btime 1 winc 0", "go btime 1000", "go wtime 1000 movestogo 1"}) {
        INFO(go);
        e.send(go);
        const auto best = e.p.wait_for("bestmove", 10s);
        REQUIRE(best);
        check_bestmove(*best, start_position());
    }
}

TEST_CASE("e2e: binary junk on stdin does not disturb the engine", "[e2e]") {
    EngineProcess e;
    std::string junk;
    for (int b = 0; b < 256; ++b)
        if (b != '\n') junk += char(b);
    REQUIRE(e.p.write(junk + "\n" + std::string(100000, 'z') + "\n\r\n   \t\n"));
    e.send("isready");
    REQUIRE(e.p.wait_for("readyok", 2s));
    e.send("position startpos moves e2e4");
    e.send("go depth 3");
    const auto best = e.p.wait_for("bestmove", 5s);
    REQUIRE(best);
    check_bestmove(*best, after_moves({"e2e4"}));
    e.send("quit");
    CHECK(e.p.wait(1s) == 0);
}

// --------------------------------------------------------------------------------------------
// The command line's --eval-file

namespace {

std::string final_evaluation_line(const std::string& output) {
    const std::size_t at = output.find("Final evaluation");
    if (at == std::string::npos) return "(none)";
    return output.substr(at, output.find('\n', at) - at);
}

} // namespace

TEST_CASE("e2e: --eval-file sets the weights of eval, bench and the UCI loop", "[e2e][evalfile]") {
    test::TempDir dir;
    nlohmann::json changed = builtin_config();
    changed["eval"]["tempo"] = nlohmann::json::array({{60, 40}});
    const std::string file = dir.write("weights.json", changed.dump());
    nlohmann::json broken = changed;
    broken["eval"]["rook_open_file"] = "open";
    const std::string bad = dir.write("bad.json", broken.dump());
    const std::string missing = dir.path("missing.json");

    const ShellRun builtin = run_horizon("eval");
    REQUIRE(builtin.status == 0);
    const ShellRun loaded = run_horizon("eval --eval-file '" + file + "'");
    INFO(loaded.output);
    REQUIRE(loaded.status == 0);
    CHECK(final_evaluation_line(loaded.output) != final_evaluation_line(builtin.output));
    const ShellRun with_fen =
        run_horizon("eval --eval-file='" + file + "' " + std::string(Position::START_FEN));
    CHECK(with_fen.status == 0);
    CHECK(final_evaluation_line(with_fen.output) == final_evaluation_line(loaded.output));

    // Refused: status 2 and a message naming the file and the key; no evaluation printed.
    for (const auto& [args, words] : std::vector<std::pair<std::string, std::vector<std::string>>>{
             {"eval --eval-file '" + bad + "'", {bad, "rook_open_file"}},
             {"eval --eval-file '" + missing + "'", {missing, "no such file"}},
             {"eval --eval-file", {"--eval-file: needs a value"}},
             {"bench 1 --eval-file '" + bad + "'", {bad, "rook_open_file"}},
             {"--eval-file '" + missing + "'", {missing, "no such file"}},
             {"--eval-file '" + bad + "'", {bad, "rook_open_file"}},
             {"--eval-file '" + file + "' --eval-file '" + file + "'", {"twice"}}}) {
        INFO(args);
        const ShellRun r = run_horizon(args);
        INFO(r.output);
        CHECK(r.status == 2);
        for (const auto& w : words)
            CHECK(r.output.find(w) != std::string::npos);
        CHECK(r.output.find("Final evaluation") == std::string::npos);
        CHECK(r.output.find("uciok") == std::string::npos);
    }

    const ShellRun bench = run_horizon("bench 2 --eval-file '" + file + "'");
    INFO(bench.output);
    CHECK(bench.status == 0);
    CHECK(bench.output.find(" nodes ") != std::string::npos);

    // The UCI loop: `eval` and searches use the file's weights.
    Subprocess p({HORIZON_BINARY, "--eval-file", file});
    REQUIRE(p.write("uci\n"));
    REQUIRE(p.wait_for("uciok", 10s));
    REQUIRE(p.write("position startpos\neval\n"));
    const auto line = p.wait_for("Final evaluation", 10s);
    REQUIRE(line);
    CHECK(*line == final_evaluation_line(loaded.output));
    REQUIRE(p.write("go depth 3\n"));
    const auto best = p.wait_for("bestmove", 30s);
    REQUIRE(best);
    check_bestmove(*best, start_position());
    REQUIRE(p.write("quit\n"));
    CHECK(p.wait(10s) == 0);
}

TEST_CASE("e2e: horizon pgn writes the games it can read and names the others", "[e2e][pgn]") {
    test::TempDir dir;
    const std::string data = std::string(HORIZON_SOURCE_DIR) + "/tests/data/notation/";
    const std::string out = dir.path("out.pgn");

    // Game 2 of 3 has an illegal move: named on stderr, left out, exit status 1.
    const ShellRun r = run_horizon("pgn '" + data + "errors.pgn' -o '" + out + "'");
    INFO(r.output);
    CHECK(r.status == 1);
    CHECK(r.output.find("game 2, move 3... (line 9): 'Nb6'") != std::string::npos);
    CHECK(r.output.find("3 games, 1 with errors") != std::string::npos);
    const ShellRun again = run_horizon("pgn '" + out + "'");
    INFO(again.output);
    CHECK(again.status == 0);
    CHECK(again.output.find("2 games, 0 with errors") != std::string::npos);
    CHECK(again.output.find("[Event \"Game 3: fine\"]") != std::string::npos);

    // A move number that does not fit the position is a warning on stderr; the game is read.
    const ShellRun numbers = run_horizon("pgn '" + data + "move_numbers.pgn' -o '" + out + "'");
    INFO(numbers.output);
    CHECK(numbers.status == 0);
    CHECK(numbers.output.find("horizon pgn: warning: game 1, move 3. (line 4): '5.'") !=
          std::string::npos);
    CHECK(numbers.output.find("horizon pgn: warning: game 2,") != std::string::npos);
    CHECK(numbers.output.find("game 3,") == std::string::npos);
    CHECK(numbers.output.find("3 games, 0 with errors") != std::string::npos);

    // --stats only counts.
    const ShellRun stats = run_horizon("pgn '" + data + "tricky.pgn' --stats --runs 3");
    INFO(stats.output);
    CHECK(stats.status == 0);
    CHECK(stats.output.find("4 games, 60 main-line moves, 0 with errors") != std::string::npos);
    CHECK(stats.output.find("games/s") != std::string::npos);

    // Bad arguments and missing files: status 2 and a message.
    for (const std::string& args : {std::string("pgn"), "pgn '" + dir.path("missing.pgn") + "'",
                                    "pgn '" + data + "tricky.pgn' --stats --runs 0"}) {
        INFO(args);
        const ShellRun bad = run_horizon(args);
        INFO(bad.output);
        CHECK(bad.status == 2);
        CHECK(bad.output.find("horizon pgn: ") != std::string::npos);
    }
}
