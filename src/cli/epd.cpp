#include "cli/epd.hpp"

#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <stdexcept>

#include <cxxopts.hpp>

#include "analysis/game_analysis.hpp"
#include "cli/command_line.hpp"
#include "cli/progress.hpp"
#include "cli/search_flags.hpp"
#include "cli/uci_client.hpp"
#include "engine/config.hpp"
#include "notation/san.hpp"
#include "notation/uci_move.hpp"

namespace horizon {

namespace {

constexpr std::int64_t DEFAULT_MOVETIME_MS = 1000;

std::int64_t ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 start)
        .count();
}

// The score from White's point of view, as analyze writes it: "+1.20", "-0.35", "#3", "#-2".
std::string score_text(Score s, Color side_to_move) {
    return signed_eval_text(side_to_move == WHITE ? s : -s);
}

std::string outcome_line(const EpdTest& test, const EpdOutcome& o) {
    const std::string table = o.table ? "  [" + table_note(*o.table) + "]" : std::string();
    const Position& pos = test.entry.record.pos;
    const std::string played = o.played ? move_to_san(pos, o.played) : std::string("nothing");
    char detail[96];
    if (o.solved) {
        std::snprintf(detail, sizeof detail, "time to solution %lld ms (%llu nodes)",
                      static_cast<long long>(o.solution_ms),
                      static_cast<unsigned long long>(o.solution_nodes));
        return "solved  " + test.entry.id + "  " + played + "  " + detail + table;
    }
    std::snprintf(detail, sizeof detail, " (%s, depth %d)",
                  score_text(o.score, pos.side_to_move()).c_str(), o.depth);
    return "FAILED  " + test.entry.id + "  played " + played + detail + ", expected " +
           test.expected() + table;
}

} // namespace

EpdOutcome run_epd_test(UciClient& engine, const EpdTest& test, const SearchLimits& limits) {
    const Position& pos = test.entry.record.pos;
    engine.new_game();
    SolutionTracker tracker(test);
    Score score = 0;
    int depth = 0;
    std::uint64_t nodes = 0;
    const auto start = std::chrono::steady_clock::now();
    const std::string best = engine.search(pos, limits, [&](const UciInfo& info) {
        if (info.multipv != 1) return;
        const auto move = parse_uci_move(pos, info.pv[0]);
        tracker.report(move.value_or(Move::none()), info.score, info.bound, info.time_ms,
                       info.nodes);
        score = info.score;
        depth = info.depth;
        nodes = info.nodes;
    });
    const std::int64_t ms = ms_since(start);
    return tracker.finish(parse_uci_move(pos, best).value_or(Move::none()), score, depth, nodes,
                          ms);
}

namespace {

// The tests of a suite file; nullopt after printing every problem.
std::optional<std::vector<EpdTest>> load_tests(const std::string& path) {
    std::vector<std::string> errors;
    auto tests = read_epd_tests(path, errors);
    for (const std::string& e : errors)
        std::cerr << "horizon epd: " << e << "\n";
    return tests;
}

// Runs every test with `run`, one line each; returns how many were solved.
std::size_t run_suite(const std::vector<EpdTest>& tests,
                      const std::function<EpdOutcome(const EpdTest&)>& run) {
    Progress progress(std::cerr, stderr_is_terminal(), "epd");
    std::size_t solved = 0;
    for (std::size_t i = 0; i < tests.size(); ++i) {
        progress.update(i, tests.size(), "solved " + std::to_string(solved));
        const EpdOutcome o = run(tests[i]);
        solved += o.solved ? 1 : 0;
        progress.finish();
        std::cout << outcome_line(tests[i], o) << std::endl;
    }
    char line[96];
    std::snprintf(line, sizeof line, "Solved %zu of %zu (%.1f%%)\n", solved, tests.size(),
                  100.0 * double(solved) / double(tests.size()));
    std::cout << line;
    return solved;
}

// The suite run by another UCI engine.
std::size_t run_with_engine(const std::string& other_engine, const std::string& path,
                            const std::vector<EpdTest>& tests, const SearchFlags& flags) {
    UciClient client(other_engine);
    client.set_option("Threads", std::to_string(flags.threads));
    client.set_option("Hash", std::to_string(flags.hash_mib));
    if (flags.syzygy_path) client.set_option("SyzygyPath", *flags.syzygy_path);
    std::cout << "Suite " << path << ": " << tests.size() << " positions; "
              << (client.name().empty() ? other_engine : client.name()) << ", " << flags.text()
              << std::endl;
    return run_suite(tests,
                     [&](const EpdTest& t) { return run_epd_test(client, t, flags.limits); });
}

// The suite run by Horizon itself; nullopt (the problem said) when the flags cannot be applied.
std::optional<std::size_t> run_with_horizon(const std::string& path,
                                            const std::vector<EpdTest>& tests,
                                            const SearchFlags& flags) {
    Engine engine;
    std::vector<std::string> problems;
    const auto err = flags.apply(engine, problems);
    for (const std::string& p : problems)
        std::cerr << "horizon epd: --syzygy-path: " << p << "\n";
    if (err) {
        std::cerr << "horizon epd: " << *err << "\n";
        return std::nullopt;
    }
    const auto& id = engine_identity();
    std::cout << "Suite " << path << ": " << tests.size() << " positions; " << id.name << " "
              << id.version << ", " << flags.text() << std::endl;
    return run_suite(tests,
                     [&](const EpdTest& t) { return run_epd_test(engine, t, flags.limits); });
}

} // namespace

int epd_main(int argc, const char* const* argv) {
    CommandLine cli("epd", "Run an EPD test suite (operations bm, am, dm and id; moves in SAN): "
                           "one line per position (scores from White's point of view), then the "
                           "solved count. Exit status 0 only when every position is solved (1: "
                           "some are not; 2: bad input).");
    // clang-format off
    cli.add()
        ("engine", "run the suite with this UCI engine instead of Horizon (judged the same way; --threads and --hash set its Threads and Hash)", cxxopts::value<std::string>(), "FILE");
    // clang-format on
    add_search_flags(cli, DEFAULT_MOVETIME_MS);
    cli.positional({"suite"}, "SUITE.epd");

    std::string path;
    std::optional<std::string> other_engine;
    SearchFlags flags;
    cxxopts::ParseResult args;
    if (const auto status = cli.parse(argc, argv, args)) return *status;
    try {
        if (!args.count("suite")) throw UsageError("give an EPD file");
        path = args["suite"].as<std::string>();
        other_engine = text_flag(args, "engine");
        flags = read_search_flags(args, DEFAULT_MOVETIME_MS);
    } catch (const UsageError& e) {
        return cli.fail(e.what());
    }
    const auto tests = load_tests(path);
    if (!tests) return 2;

    try {
        std::size_t solved = 0;
        if (other_engine) {
            solved = run_with_engine(*other_engine, path, *tests, flags);
        } else if (const auto n = run_with_horizon(path, *tests, flags)) {
            solved = *n;
        } else {
            return 2;
        }
        return solved == tests->size() ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "horizon epd: " << e.what() << "\n";
        return 2;
    }
}

} // namespace horizon
