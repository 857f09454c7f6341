#include "cli/datagen.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <cxxopts.hpp>

#include "cli/command_line.hpp"
#include "cli/progress.hpp"
#include "platform/system.hpp"
#include "train/opening_book.hpp"
#include "train/pgn_samples.hpp"

namespace horizon {

namespace {

// Progress on stderr: redrawn in place on a terminal, else a line every 10 s (for a log).
Progress stderr_progress(std::string label) {
    const bool terminal = is_terminal(stderr);
    return Progress(std::cerr, terminal ? ProgressMode::REDRAW : ProgressMode::LINES,
                    std::move(label),
                    terminal ? Progress::REDRAW_INTERVAL : std::chrono::seconds(10));
}

// The progress line: the positions (or, without a position target, the games) against their
// target, and the time left to the nearer target at this run's pace.
void show(Progress& progress, const DatagenOptions& o, const DatagenProgress& p) {
    const auto left = [](std::uint64_t target, std::uint64_t have) {
        return target > have ? double(target - have) : 0.0;
    };
    std::optional<double> eta;
    if (o.games) eta = Progress::eta(double(p.games), left(o.games, p.file_games), p.elapsed);
    if (o.positions) {
        const auto t =
            Progress::eta(double(p.positions), left(o.positions, p.file_positions), p.elapsed);
        if (t && (!eta || *t < *eta)) eta = t;
    }
    const double rate = double(p.positions) / std::max(p.elapsed, 1e-9);
    std::ostringstream detail;
    if (o.positions) {
        detail << "games " << p.file_games;
        if (o.games) detail << "/" << o.games;
    } else {
        detail << "positions " << p.file_positions;
    }
    detail << "  " << std::uint64_t(rate + 0.5) << " pos/s";
    if (o.positions)
        progress.update(p.file_positions, o.positions, p.elapsed, eta, detail.str());
    else
        progress.update(p.file_games, o.games, p.elapsed, eta, detail.str());
}

// datagen --from-pgn (train/pgn_samples), a line on stderr for each file and one for all.
int pgn_samples_main(const std::vector<std::string>& inputs, const std::string& out, int skip_plies,
                     bool distinct_games) {
    const auto on_file = [](const std::string& path, const PgnSampleSummary& s) {
        std::cerr << "datagen: " << path << ": " << s.games << " games, " << s.used << " used, "
                  << s.positions << " positions";
        if (s.unreadable || s.unfinished || s.abnormal || s.repeats)
            std::cerr << "; skipped " << s.unreadable << " unreadable, " << s.unfinished
                      << " without a result, " << s.abnormal << " ended abnormally, " << s.repeats
                      << " copies of a game before";
        std::cerr << "\n";
    };
    const PgnSampleSummary total =
        write_pgn_samples(inputs, out, skip_plies, distinct_games, on_file);
    std::cerr << "datagen: " << total.used << " of " << total.games << " games, " << total.positions
              << " positions written to " << out << "\n";
    return 0;
}

// datagen --openings: the book (train/opening_book), with a progress line on stderr.
int openings_main(const DatagenOptions& o, std::uint64_t count) {
    try {
        Progress progress = stderr_progress("datagen: openings");
        const auto start = std::chrono::steady_clock::now();
        const auto seconds = [&] {
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        };
        const std::size_t written = write_opening_book(o, count, [&](std::uint64_t found) {
            progress.update(found, count, seconds(),
                            Progress::eta(double(found), double(count - found), seconds()), "");
        });
        progress.finish();
        std::cerr << "datagen: " << written << " openings (seed " << o.seed << ", balance-nodes "
                  << o.balance_nodes << ", max-imbalance " << o.max_imbalance << ") written to "
                  << o.out << " in " << std::uint64_t(seconds() + 0.5) << " s\n";
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "horizon datagen: " << e.what() << "\n";
        return 1;
    }
}

// What the command line asks for: games (options), positions from PGN files, or a book.
struct Request {
    DatagenOptions options;
    EvalWeights weights; // --eval-file's, when has_weights
    bool has_weights = false;
    std::vector<std::string> from_pgn;
    int skip_plies = 0;
    bool distinct_games = false;
    std::uint64_t openings = 0;
};

Request read_request(const cxxopts::ParseResult& args, unsigned cores) {
    Request r;
    const auto number = [&](const std::string& name, std::uint64_t lo, std::uint64_t hi) {
        return whole_flag(args, name, lo, hi);
    };
    if (!args.count("out")) throw UsageError("--out FILE is required");
    r.options.out = args["out"].as<std::string>();
    if (r.options.out.empty()) throw UsageError("--out: must name a file");
    if (args.count("games")) r.options.games = number("games", 1, UINT64_MAX);
    if (args.count("positions")) r.options.positions = number("positions", 1, UINT64_MAX);
    if (args.count("from-pgn")) {
        for (const char* flag : {"games", "positions", "nodes", "balance-nodes", "threads", "seed",
                                 "hash", "eval-file", "per-game", "resolve"})
            if (args.count(flag))
                throw UsageError(std::string("--") + flag + " plays games; --from-pgn plays none");
        r.from_pgn = args["from-pgn"].as<std::vector<std::string>>();
        r.skip_plies = int(number("skip-plies", 0, 1000));
        r.distinct_games = args.count("distinct-games") > 0;
    } else if (args.count("skip-plies") || args.count("distinct-games")) {
        throw UsageError(std::string("--") +
                         (args.count("skip-plies") ? "skip-plies" : "distinct-games") +
                         " goes with --from-pgn");
    }
    if (args.count("openings")) {
        if (args.count("from-pgn"))
            throw UsageError("--openings and --from-pgn are two jobs; give one");
        for (const char* flag : {"games", "positions", "nodes", "per-game", "resolve"})
            if (args.count(flag))
                throw UsageError(std::string("--") + flag +
                                 " goes with games; --openings plays none");
        r.openings = number("openings", 1, 100'000'000);
        if (std::filesystem::exists(r.options.out))
            throw UsageError("--out: " + r.options.out + " exists; --openings writes a new file");
    }
    if (r.from_pgn.empty() && !r.openings && !r.options.games && !r.options.positions)
        throw UsageError("give --games N or --positions N (or both)");
    r.options.nodes = number("nodes", 1, 1'000'000'000);
    r.options.balance_nodes = number("balance-nodes", 1, 1'000'000'000);
    r.options.max_imbalance = int(number("max-imbalance", 0, 10000));
    r.options.threads = args.count("threads") ? int(number("threads", 1, 1024)) : int(cores);
    r.options.seed = number("seed", 0, UINT64_MAX);
    r.options.hash_mib = int(number("hash", 1, 65536));
    r.options.per_game = number("per-game", 0, 1'000'000);
    const std::string resolve = args["resolve"].as<std::string>();
    if (resolve == "pv")
        r.options.resolve = SampleResolve::PV;
    else if (resolve != "none")
        throw UsageError("--resolve: 'none' or 'pv', not '" + resolve + "'");
    if (args.count("eval-file")) {
        if (auto err = EvalWeights::load(args["eval-file"].as<std::string>(), r.weights))
            throw UsageError("--eval-file: " + *err);
        r.has_weights = true;
    }
    return r;
}

CommandLine datagen_command_line(unsigned cores) {
    CommandLine cli("datagen", "Self-play games at a fixed node count per move, written as quiet "
                               "positions for the evaluation tuner.");
    cli.synopsis("--out FILE (--games N | --positions N | --from-pgn FILE | --openings N) "
                 "[OPTION...]");
    // clang-format off
    cli.add()
        ("o,out", "data file; an existing one made with the same settings is resumed", cxxopts::value<std::string>(), "FILE")
        ("g,games", "stop when games 0..N-1 are in the file", cxxopts::value<std::string>(), "N")
        ("p,positions", "stop when the file holds N positions", cxxopts::value<std::string>(), "N")
        ("n,nodes", "search nodes per move", cxxopts::value<std::string>()->default_value("5000"), "N")
        ("balance-nodes", "nodes of the search that checks an opening is level", cxxopts::value<std::string>()->default_value("3000"), "N")
        ("max-imbalance", "that search's score must be within CP of 0", cxxopts::value<std::string>()->default_value("300"), "CP")
        ("t,threads", "worker threads, each playing whole games (default: all cores, " + std::to_string(cores) + ")", cxxopts::value<std::string>(), "N")
        ("s,seed", "seed: game g depends on (seed, g) only", cxxopts::value<std::string>()->default_value("1"), "N")
        ("hash", "hash table per worker, MiB", cxxopts::value<std::string>()->default_value("16"), "MB")
        ("eval-file", "play with the evaluation weights of FILE (default: the built-in ones)", cxxopts::value<std::string>(), "FILE")
        ("per-game", "write at most K of each game's candidate positions, chosen at random (0: all)", cxxopts::value<std::string>()->default_value("0"), "K")
        ("resolve", "'none': write quiet positions as searched; 'pv': write the end of the captures and checks that start the search's line", cxxopts::value<std::string>()->default_value("none"), "HOW")
        ("from-pgn", "play no games: write the quiet positions of the games in PGN FILE (repeat for more files), scored by their move comments", cxxopts::value<std::vector<std::string>>(), "FILE")
        ("skip-plies", "with --from-pgn: plies at the start of each game not written", cxxopts::value<std::string>()->default_value("8"), "N")
        ("distinct-games", "with --from-pgn: skip a game that repeats an earlier one of the run move for move")
        ("openings", "play no games: write the first N distinct openings of the seed to --out, an opening book for matches", cxxopts::value<std::string>(), "N");
    // clang-format on
    cli.repeatable({"from-pgn"});
    const std::string resolve_plies = std::to_string(RESOLVE_MAX_PLIES);
    cli.footer(
        "\nOutput: one position a line, '<FEN> | <score> | <result>', the search score in\n"
        "centipawns and the result (1.0, 0.5, 0.0) both from White's point of view. Lines\n"
        "beginning with '#' are comments: the settings header, and '# game <g>' after each\n"
        "game. The quiet positions are written (not in check, best move no capture or\n"
        "promotion, no mate score, ply 16 onwards), or as --per-game and --resolve say.\n"
        "Games open with 8 or 9 random plies checked to be level. Running the same command\n"
        "again resumes an unfinished file; a file made with other settings is refused.\n"
        "\n"
        "--per-game K, when not 0: of each game's candidate positions (the quiet ones, or\n"
        "those of --resolve pv) at most K are written, chosen at random by a generator\n"
        "seeded from the seed and the game's number alone (the same file whatever\n"
        "--threads), in the game's order. The games are the same as without it; the other\n"
        "positions are not written.\n"
        "\n"
        "--resolve pv: a searched position is a candidate whatever its best move and in\n"
        "check or not (still no mate score, ply 16 onwards), and what is written is the\n"
        "position its search's line leads to: the line's moves are played while they\n"
        "capture, promote or give check or the side to move is in check, " +
        resolve_plies +
        " plies at\n"
        "most, stopping before any other move or where the line ends; that position must\n"
        "not be in check and must have a move, else nothing is written. It gets the\n"
        "search's score (White's view). A position that several searches of a game lead\n"
        "to (an exchange searched before, during and after it) is a candidate once, with\n"
        "the last of their scores. A line that starts with a quiet move giving no check\n"
        "leaves the position as it is, so this changes what is written only for\n"
        "positions whose best move captures, promotes or checks, and for those in check.\n"
        "\n"
        "--from-pgn: the games of a match runner (fastchess, cutechess), whose move comments\n"
        "begin with the mover's score ('{+0.35/16 0.41s}'). Each position from --skip-plies\n"
        "on whose side is not in check, whose move played is no capture or promotion and\n"
        "whose comment scores it within 20 pawns is written with that score and the game's\n"
        "result. Games without a result or that ended by time, an illegal move or a stall\n"
        "are skipped, and with --distinct-games so is a copy of an earlier game of the\n"
        "run (the same start, moves and result: a fixed-node match replays an opening's\n"
        "games move for move). --out must not exist yet.\n"
        "\n"
        "--openings: one opening a line, the first four FEN fields (EPD, as match runners\n"
        "read it): game g's opening for g = 0, 1, ..., each only once, the same whatever\n"
        "--threads. A book of many openings keeps a long match at fixed nodes from\n"
        "playing the same games again. --out must not exist yet.\n");
    return cli;
}

// Self-play games into o.out, with a progress line on stderr.
int play_games(const DatagenOptions& o) {
    try {
        Progress progress = stderr_progress(o.positions ? "datagen: positions" : "datagen: games");
        DatagenCallbacks callbacks;
        callbacks.on_resume = [&](const DatagenResume& r) {
            if (r.dropped_bytes)
                std::cerr << "datagen: dropped " << r.dropped_bytes
                          << " bytes of an unfinished game from " << o.out << "\n";
            if (r.games)
                std::cerr << "datagen: resuming " << o.out << ": " << r.games << " games, "
                          << r.positions << " positions already there\n";
        };
        callbacks.on_progress = [&](const DatagenProgress& p) { show(progress, o, p); };
        const DatagenSummary summary = run_datagen(o, callbacks);
        progress.finish();
        std::cerr << datagen_summary_text(summary, o.nodes) << std::flush;
    } catch (const std::exception& e) {
        std::cerr << "horizon datagen: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

} // namespace

std::string datagen_summary_text(const DatagenSummary& s, std::uint64_t nodes) {
    const auto end = [&](GameEnd g) { return s.ends[std::size_t(g)]; };
    const auto per = [](std::uint64_t n, std::uint64_t d) {
        return d ? double(n) / double(d) : 0.0;
    };
    std::ostringstream out;
    out << std::fixed;
    out.precision(1);
    out << "datagen: " << s.games << " games, " << s.positions << " positions in " << s.seconds
        << " s (" << s.positions / std::max(s.seconds, 1e-9) << " positions/s); W/D/L "
        << s.white_wins << "/" << s.draws << "/" << s.black_wins;
    if (s.resumed_games)
        out << "; resumed after " << s.resumed_games << " games, " << s.resumed_positions
            << " positions";
    out << "\n";
    if (s.games) {
        out << "datagen: " << per(s.positions, s.games) << " positions and "
            << per(s.plies, s.games) << " plies a game; ended by mate " << end(GameEnd::CHECKMATE)
            << ", stalemate " << end(GameEnd::STALEMATE) << ", 50 moves "
            << end(GameEnd::FIFTY_MOVES) << ", repetition " << end(GameEnd::REPETITION)
            << ", material " << end(GameEnd::INSUFFICIENT_MATERIAL) << ", adjudicated win "
            << end(GameEnd::ADJUDICATED_WIN) << ", adjudicated draw "
            << end(GameEnd::ADJUDICATED_DRAW) << ", ply cap " << end(GameEnd::PLY_CAP)
            << "; nodes a search " << per(s.search_nodes, s.searches) << " (max "
            << s.max_search_nodes << ", limit " << nodes << ")\n";
    }
    return out.str();
}

int datagen_main(int argc, const char* const* argv) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const CommandLine cli = datagen_command_line(cores);
    cxxopts::ParseResult args;
    if (const auto status = cli.parse(argc, argv, args)) return *status;
    Request r;
    try {
        r = read_request(args, cores);
    } catch (const UsageError& e) {
        return cli.fail(e.what());
    }
    if (r.has_weights) r.options.weights = &r.weights;
    if (!r.from_pgn.empty()) {
        try {
            return pgn_samples_main(r.from_pgn, r.options.out, r.skip_plies, r.distinct_games);
        } catch (const std::exception& e) {
            std::cerr << "horizon datagen: " << e.what() << "\n";
            return 1;
        }
    }
    if (r.openings) return openings_main(r.options, r.openings);
    return play_games(r.options);
}

} // namespace horizon
