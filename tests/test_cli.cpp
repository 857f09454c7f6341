// The command line of the binary: every subcommand of the table answers --help and -h with its
// usage (stdout, status 0), names a bad flag or value in one line on stderr with its --help
// (status 2), and spells each flag's value one way; horizon --help, --version, help
// SUBCOMMAND; and the flags of the UCI loop, --eval-file and --strength-override.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli/subcommands.hpp"
#include "engine/config.hpp"
#include "platform/subprocess.hpp"
#include "search/strength.hpp"

#include "support.hpp"

using namespace horizon;
using namespace std::chrono_literals;

namespace {

struct Streams {
    std::string out, err;
    std::optional<int> status;
};

// Runs the binary with `args` (words as a shell reads them), stdout and stderr apart.
Streams run_apart(const std::string& args) {
    test::TempDir dir;
    const std::string err_file = dir.path("stderr");
    Subprocess p({"/bin/sh", "-c",
                  std::string("'") + HORIZON_BINARY + "' " + args + " 2>'" + err_file + "'"});
    p.close_stdin();
    Streams s;
    while (auto line = p.read_line(60s))
        s.out += *line + "\n";
    s.status = p.wait(10s);
    s.err = test::read_text_file(err_file);
    return s;
}

std::vector<std::string> subcommand_names() {
    std::vector<std::string> names;
    for (const Subcommand& s : subcommands())
        names.push_back(s.name);
    return names;
}

// A mistake: status 2, nothing on stdout, and on stderr exactly `line`.
void check_refused(const std::string& args, const std::string& line) {
    INFO(args);
    const Streams s = run_apart(args);
    INFO("stdout: " << s.out << "stderr: " << s.err);
    CHECK(s.status == 2);
    CHECK(s.out.empty());
    CHECK(s.err == line + "\n");
}

} // namespace

TEST_CASE("cli: every subcommand answers --help and -h with its usage", "[cli][e2e]") {
    // The value each flag takes, as the usages name it: one name for a flag everywhere.
    std::map<std::string, std::set<std::string>> value_names;
    const auto gather = [&](const std::string& help) {
        std::istringstream in(help);
        for (std::string word, last; in >> word; last = word) {
            if (last.rfind("--", 0) != 0 || word.empty() || !std::isupper(word[0])) continue;
            value_names[last].insert(word.substr(0, word.find_first_of(")],")));
        }
    };
    const auto names = subcommand_names();
    REQUIRE(names.size() == 10);
    for (const std::string& name : names) {
        INFO(name);
        const Streams help = run_apart(name + " --help");
        CHECK(help.status == 0);
        CHECK(help.err.empty());
        CHECK(help.out.find("Usage:\n  horizon " + name + " ") != std::string::npos);
        CHECK(help.out.find("-h, --help") != std::string::npos);
        // Every value is named (cxxopts would print "arg" for one not named).
        CHECK(help.out.find(" arg ") == std::string::npos);
        const Streams h = run_apart(name + " -h");
        CHECK(h.status == 0);
        CHECK(h.out == help.out);
        const Streams via_help = run_apart("help " + name);
        CHECK(via_help.status == 0);
        CHECK(via_help.out == help.out);
        gather(help.out);
    }
    const Streams top = run_apart("--help");
    gather(top.out);
    CHECK(value_names.size() > 20);
    // The one flag of two meanings: datagen --games N (how many), analyze --games RANGE (which).
    CHECK(value_names["--games"] == std::set<std::string>{"N", "RANGE"});
    value_names.erase("--games");
    for (const auto& [flag, values] : value_names) {
        INFO(flag);
        std::string spelt;
        for (const std::string& v : values)
            spelt += v + " ";
        INFO("named " << spelt);
        CHECK(values.size() == 1);
    }
    CHECK(value_names["--depth"] == std::set<std::string>{"N"});
    CHECK(value_names["--threads"] == std::set<std::string>{"N"});
    CHECK(value_names["--hash"] == std::set<std::string>{"MB"});
}

TEST_CASE("cli: horizon --help lists every subcommand from the table; --version", "[cli][e2e]") {
    const Streams top = run_apart("--help");
    CHECK(top.status == 0);
    CHECK(top.err.empty());
    for (const Subcommand& s : subcommands()) {
        INFO(s.name);
        CHECK(top.out.find("\n  horizon " + std::string(s.name) + " " + s.synopsis + "\n      " +
                           s.summary + "\n") != std::string::npos);
    }
    CHECK(top.out.find("--eval-file FILE") != std::string::npos);
    CHECK(top.out.find("--strength-override ROW") != std::string::npos);
    CHECK(run_apart("-h").out == top.out);
    CHECK(run_apart("help").out == top.out);

    const Streams version = run_apart("--version");
    CHECK(version.status == 0);
    CHECK(version.err.empty());
    // One owner: engine.json's version, which CMake's project version is also read from.
    CHECK(version.out == engine_identity().name + " " + HORIZON_VERSION + "\n");
    CHECK(engine_identity().version == HORIZON_VERSION);
}

TEST_CASE("cli: a bad flag or value is named in one line on stderr, status 2", "[cli][e2e]") {
    test::TempDir dir;
    const std::string pgn = std::string(HORIZON_SOURCE_DIR) + "/tests/data/notation/tricky.pgn";
    const std::string epd = dir.write("one.epd", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm Rd8#;\n");
    const std::string data = std::string(HORIZON_SOURCE_DIR) + "/tests/data/tune_fixture.txt";
    const std::string out = dir.path("out");
    // An unknown flag, for every subcommand and for horizon itself.
    for (const std::string& name : subcommand_names())
        check_refused(name + " --no-such-flag", "horizon " + name +
                                                    ": --no-such-flag: no such flag (see horizon " +
                                                    name + " --help)");
    check_refused("--no-such-flag", "horizon: --no-such-flag: no such flag (see horizon --help)");
    check_refused("frobnicate", "horizon: 'frobnicate': no such subcommand (see horizon --help)");
    check_refused("help frobnicate",
                  "horizon help: 'frobnicate': no such subcommand (see horizon --help)");

    // A bad value of each subcommand.
    struct Case {
        std::string name, args, message;
    };
    const std::vector<Case> cases = {
        {"perft", "--depth x", "--depth: not a whole number: 'x'"},
        {"perft", "--depth 21", "--depth: out of range (1 to 20): '21'"},
        {"perft", "--depth", "--depth: needs a value"},
        {"bench", "--depth 0", "--depth: out of range (1 to 64): '0'"},
        {"bench", "x", "--depth: not a whole number: 'x'"},
        {"bench", "3 0", "--threads: out of range (1 to 256): '0'"},
        {"bench", "3 1 2", "'2': unexpected argument"},
        {"bench", "--depth 3 --depth 4", "--depth: given twice"},
        {"bench", "--depth 3 4", "--depth: given twice (as the flag and as the word '4')"},
        {"eval", "--eval-file", "--eval-file: needs a value"},
        {"eval", "--fen '8/8/8/8/8/8/8/8 w - - 0 1'",
         "--fen: bad FEN: white has 0 kings, expected exactly 1"},
        {"tbprobe", "--syzygy-path . --random x", "--random: not a whole number: 'x'"},
        {"tbprobe", "--syzygy-path . --random 1 --pieces 3-x", "--pieces: not a whole number: 'x'"},
        {"tbprobe", "--syzygy-path . --seed 3", "--seed goes with --random"},
        {"pgn", "'" + pgn + "' --runs 0", "--runs: out of range (1 to 1000): '0'"},
        {"pgn", "'" + pgn + "' '" + pgn + "'", "'" + pgn + "': unexpected argument"},
        {"analyze", "--fen '6k1/8/8/8/8/8/8/6K1 w - - 0 1' --multipv 0",
         "--multipv: out of range (1 to 256): '0'"},
        {"epd", "'" + epd + "' --hash x", "--hash: not a whole number: 'x'"},
        {"uci-bench", "--runs x", "--runs: not a whole number: 'x'"},
        {"datagen", "--out '" + out + "' --games 2 --nodes x", "--nodes: not a whole number: 'x'"},
        {"tune", "--data '" + data + "' --out '" + out + "' --epochs x",
         "--epochs: not a whole number: 'x'"},
        {"tune", "--data '" + data + "' --out '" + out + "' --lambda 2",
         "--lambda: out of range (0 to 1): '2'"},
    };
    std::set<std::string> covered;
    for (const Case& c : cases) {
        check_refused(c.name + " " + c.args, "horizon " + c.name + ": " + c.message +
                                                 " (see horizon " + c.name + " --help)");
        covered.insert(c.name);
    }
    for (const std::string& name : subcommand_names()) {
        INFO(name << ": a bad value of its own is among the cases");
        CHECK(covered.count(name));
    }
    CHECK_FALSE(std::filesystem::exists(out));
}

TEST_CASE("cli: bench takes flags, and DEPTH THREADS as words", "[cli][e2e]") {
    const auto nodes = [](const std::string& args) {
        const Streams s = run_apart("bench " + args);
        INFO(args << ": " << s.err);
        REQUIRE(s.status == 0);
        const std::size_t at = s.out.rfind(" nodes ");
        REQUIRE(at != std::string::npos);
        const std::size_t from = s.out.rfind('\n', at) + 1;
        return s.out.substr(from, at - from);
    };
    const std::string words = nodes("3");
    CHECK(std::stoull(words) > 0);
    CHECK(nodes("--depth 3") == words);
    CHECK(nodes("--depth=3 --threads 1") == words);
    CHECK(nodes("3 1") == words);
    CHECK(nodes("4") != words);
}

TEST_CASE("cli: --eval-file names a missing file and exits 2", "[cli][e2e][evalfile]") {
    test::TempDir dir;
    const std::string missing = dir.path("missing.json");
    check_refused("--eval-file '" + missing + "'",
                  "horizon: --eval-file: '" + missing + "': no such file (see horizon --help)");
    check_refused("eval --eval-file '" + missing + "'", "horizon eval: --eval-file: '" + missing +
                                                            "': no such file (see horizon eval "
                                                            "--help)");
}

TEST_CASE("cli: --strength-override plays its row with UCI_LimitStrength - no option shows it",
          "[cli][e2e][strength]") {
    check_refused("--strength-override '3000 2 30'",
                  "horizon: --strength-override: a level is four numbers, NODES LINES "
                  "TEMPERATURE MAX_LOSS, not 3 (see horizon --help)");
    check_refused("--strength-override 3000,2,30,150,7",
                  "horizon: --strength-override: a level is four numbers, NODES LINES "
                  "TEMPERATURE MAX_LOSS, not 5 (see horizon --help)");

    // The most root lines a limited move searches (its `multipv` in the info lines).
    const StrengthLevel lowest = strength_level(STRENGTH_ELO_MIN);
    constexpr int OVERRIDE_LINES = 6;
    REQUIRE(lowest.lines != OVERRIDE_LINES);
    const auto lines_searched = [](const std::vector<std::string>& args, bool& listed) {
        Subprocess p(args);
        REQUIRE(p.write("uci\n"));
        listed = false;
        for (auto line = p.read_line(10s); line && *line != "uciok"; line = p.read_line(10s))
            listed = listed || line->find("StrengthOverride") != std::string::npos;
        REQUIRE(p.write("setoption name UCI_LimitStrength value true\n"
                        "setoption name UCI_Elo value " +
                        std::to_string(STRENGTH_ELO_MIN) +
                        "\nsetoption name StrengthSeed value 5\nposition startpos\n"
                        "go nodes 100000\n"));
        int most = 0;
        for (auto line = p.read_line(30s); line; line = p.read_line(30s)) {
            if (line->rfind("bestmove", 0) == 0) break;
            const auto t = test::tokens(*line);
            const auto at = std::find(t.begin(), t.end(), "multipv");
            if (at != t.end() && at + 1 != t.end()) most = std::max(most, std::stoi(*(at + 1)));
        }
        REQUIRE(p.write("quit\n"));
        CHECK(p.wait(10s) == 0);
        return most;
    };
    bool listed = true;
    CHECK(lines_searched({HORIZON_BINARY}, listed) == lowest.lines);
    CHECK_FALSE(listed);
    CHECK(lines_searched({HORIZON_BINARY, "--strength-override", "40000,6,10,50"}, listed) ==
          OVERRIDE_LINES);
    CHECK_FALSE(listed);
}
