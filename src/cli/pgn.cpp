#include "cli/pgn.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <vector>

#include <cxxopts.hpp>

#include "cli/command_line.hpp"
#include "notation/pgn_reader.hpp"
#include "notation/pgn_writer.hpp"

namespace horizon {

namespace {

struct ReadCounts {
    std::size_t games = 0, moves = 0, errors = 0;
    double seconds = 0;     // wall clock
    double cpu_seconds = 0; // this process's processor time (steadier on a busy machine)
};

// Reads every game of `in`; each game goes to `on_game` when it was read whole, each error
// to `errors`.
template <class OnGame>
ReadCounts read_games(std::istream& in, const PgnReadOptions& options, std::ostream& errors,
                      OnGame&& on_game) {
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    ReadCounts counts;
    PgnReader reader(in, options);
    PgnGame game;
    while (reader.next(game)) {
        ++counts.games;
        counts.moves += game.moves.moves.size();
        for (const PgnError& w : game.warnings)
            errors << "horizon pgn: warning: " << w.message() << "\n";
        if (game.error) {
            ++counts.errors;
            errors << "horizon pgn: " << game.error->message() << "\n";
            continue;
        }
        on_game(game);
    }
    counts.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    counts.cpu_seconds = double(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    return counts;
}

int run_stats(const std::string& path, const PgnReadOptions& options, int runs) {
    std::vector<ReadCounts> results;
    for (int i = 0; i < runs; ++i) {
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            std::cerr << "horizon pgn: cannot open " << path << "\n";
            return 2;
        }
        // Errors are reported once, on the first run.
        std::ofstream discard;
        results.push_back(read_games(in, options, i == 0 ? std::cerr : discard, [](auto&) {}));
    }
    std::sort(results.begin(), results.end(),
              [](const ReadCounts& a, const ReadCounts& b) { return a.seconds < b.seconds; });
    const ReadCounts& median = results[results.size() / 2];
    const double secs = std::max(median.seconds, 1e-9);
    const double cpu_secs = std::max(median.cpu_seconds, 1e-9);
    char line[320];
    std::snprintf(line, sizeof line,
                  "%zu games, %zu main-line moves, %zu with errors (%s)\n"
                  "%.3f s (median of %d): %.0f games/s, %.0f moves/s\n"
                  "%.3f s of processor time in that run: %.0f games/s of processor time\n",
                  median.games, median.moves, median.errors,
                  options.comments ? "comments and variations kept" : "moves only", median.seconds,
                  runs, double(median.games) / secs, double(median.moves) / secs,
                  median.cpu_seconds, double(median.games) / cpu_secs);
    std::cout << line;
    return median.errors ? 1 : 0;
}

} // namespace

int pgn_main(int argc, const char* const* argv) {
    CommandLine cli("pgn", "Read a PGN file and write its games in PGN export format; games that "
                           "cannot be read are reported on stderr and left out.");
    // clang-format off
    cli.add()
        ("o,out", "write the games to this file (default: standard output)", cxxopts::value<std::string>(), "FILE")
        ("moves-only", "keep tags and moves only: comments and variations are skipped unread")
        ("stats", "only read: print games, moves, errors, seconds and games per second")
        ("runs", "with --stats: read the file this many times and report the median", cxxopts::value<std::string>()->default_value("1"), "N");
    // clang-format on
    cli.positional({"file"}, "FILE");
    cli.footer("\nFILE: the PGN file ('-': standard input; not with --stats).\n");
    cxxopts::ParseResult args;
    if (const auto status = cli.parse(argc, argv, args)) return *status;
    std::string path;
    int runs = 1;
    try {
        if (!args.count("file")) throw UsageError("give a PGN file");
        path = args["file"].as<std::string>();
        runs = int(whole_flag(args, "runs", 1, 1000));
        if (args.count("stats") && path == "-")
            throw UsageError("--stats: reads a file, not standard input");
    } catch (const UsageError& e) {
        return cli.fail(e.what());
    }
    PgnReadOptions read_options;
    if (args.count("moves-only")) read_options = PgnReadOptions{false, false};
    if (args.count("stats")) return run_stats(path, read_options, runs);

    std::ifstream file;
    if (path != "-") {
        file.open(path, std::ios::binary);
        if (!file) {
            std::cerr << "horizon pgn: cannot open " << path << "\n";
            return 2;
        }
    }
    std::ofstream out_file;
    if (args.count("out")) {
        out_file.open(args["out"].as<std::string>(), std::ios::binary | std::ios::trunc);
        if (!out_file) {
            std::cerr << "horizon pgn: cannot write " << args["out"].as<std::string>() << "\n";
            return 2;
        }
    }
    std::ostream& out = args.count("out") ? out_file : std::cout;
    std::istream& in = path == "-" ? std::cin : file;
    const ReadCounts counts =
        read_games(in, read_options, std::cerr, [&](const PgnGame& game) { write_pgn(out, game); });
    out.flush();
    if (!out) {
        std::cerr << "horizon pgn: writing the games failed\n";
        return 2;
    }
    std::cerr << "horizon pgn: " << counts.games << " games, " << counts.errors << " with errors\n";
    return counts.errors ? 1 : 0;
}

} // namespace horizon
