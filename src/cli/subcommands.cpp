#include "cli/subcommands.hpp"

#include <iostream>
#include <optional>

#include "cli/analyze.hpp"
#include "cli/bench.hpp"
#include "cli/command_line.hpp"
#include "cli/datagen.hpp"
#include "cli/epd.hpp"
#include "cli/eval.hpp"
#include "cli/perft.hpp"
#include "cli/pgn.hpp"
#include "cli/tbprobe.hpp"
#include "cli/tune.hpp"
#include "cli/uci_bench.hpp"
#include "engine/config.hpp"
#include "engine/engine.hpp"
#include "platform/system.hpp"
#include "search/strength.hpp"
#include "uci/uci.hpp"

namespace horizon {

namespace {

constexpr Subcommand SUBCOMMANDS[] = {
    {"perft", "--depth N [--fen FEN] [--divide] | --suite FILE | --bench",
     "count the nodes of the move tree (or check a suite, or time it against Stockfish)",
     perft_main},
    {"bench", "[--depth N] [--threads N] [--eval-file FILE] [--syzygy-path PATH]",
     "search the bench positions; the last line gives the node count (also: bench [DEPTH "
     "[THREADS]])",
     bench_main},
    {"eval", "[--eval-file FILE] [--syzygy-path PATH] [[--fen] FEN]",
     "the static evaluation, term by term (and the tables' result)", eval_main},
    {"tbprobe", "--syzygy-path PATH ([--fen] FEN | --random N)",
     "the Syzygy tables' WDL and DTZ of positions", tbprobe_main},
    {"pgn", "FILE [--out FILE] [--moves-only] [--stats [--runs N]]",
     "read a PGN file, write it in export format (or time the reading)", pgn_main},
    {"analyze", "(FILE.pgn | FILE.epd | --fen FEN) [--depth N | --movetime MS | --nodes N]",
     "annotate games (evaluations, mistakes and why, better lines; --puzzles FILE), or the best "
     "lines of positions",
     analyze_main},
    {"epd", "SUITE.epd [--depth N | --movetime MS | --nodes N] [--threads N] [--hash MB]",
     "run a test suite (bm, am, dm)", epd_main},
    {"uci-bench", "[--engine FILE] [--runs N] [--movetime MS]",
     "protocol latency, movetime accuracy and memory, as a GUI sees them", uci_bench_main},
    {"datagen", "--out FILE (--games N | --positions N | --from-pgn FILE | --openings N)",
     "self-play positions for the evaluation tuner", datagen_main},
    {"tune", "--data FILE --out FILE [--epochs N] [--lr X]",
     "fit the evaluation weights and the WDL model to labelled positions", tune_main},
};

CommandLine uci_command_line() {
    const auto& id = engine_identity();
    CommandLine cli("", id.name + " " + id.version +
                            ", a UCI chess engine. Without a subcommand it speaks UCI on standard "
                            "input and output.");
    // clang-format off
    cli.add()
        ("version", "print the version and exit")
        ("eval-file", "play with the evaluation weights of FILE (as the option EvalFile)", cxxopts::value<std::string>(), "FILE")
        ("strength-override", "with UCI_LimitStrength, play this row of the strength table instead of UCI_Elo's level: NODES,LINES,TEMPERATURE,MAX_LOSS (for calibration, scripts/match/calibrate_elo.sh -R)", cxxopts::value<std::string>(), "ROW");
    // clang-format on
    cli.synopsis("[--eval-file FILE] [--strength-override ROW] | SUBCOMMAND [OPTION...]");
    std::string table = "\nSubcommands (horizon SUBCOMMAND --help gives each one's flags):\n";
    for (const Subcommand& s : SUBCOMMANDS)
        table +=
            "  horizon " + std::string(s.name) + " " + s.synopsis + "\n      " + s.summary + "\n";
    table += "  horizon help [SUBCOMMAND]\n      this text, or the subcommand's\n";
    cli.footer(table);
    return cli;
}

// The UCI loop, with the flags that set it up.
int uci_main(int argc, const char* const* argv) {
    const CommandLine cli = uci_command_line();
    cxxopts::ParseResult args;
    if (const auto status = cli.parse(argc, argv, args)) return *status;
    if (args.count("version")) {
        const auto& id = engine_identity();
        std::cout << id.name << " " << id.version << "\n";
        return 0;
    }
    const std::optional<std::string> eval_file = text_flag(args, "eval-file");
    std::optional<StrengthLevel> strength;
    try {
        if (eval_file) {
            EvalWeights weights;
            if (auto err = EvalWeights::load(*eval_file, weights))
                throw UsageError("--eval-file: " + *err);
        }
        if (auto row = text_flag(args, "strength-override")) {
            StrengthLevel level;
            if (auto err = parse_strength_row(*row, level))
                throw UsageError("--strength-override: " + *err);
            strength = level;
        }
    } catch (const UsageError& e) {
        return cli.fail(e.what());
    }
    use_lf_line_ends(); // UCI lines end in LF everywhere, as runners expect
    Engine engine;
    if (strength) engine.set_strength_override(*strength);
    UciLoop loop(std::cin, std::cout, engine);
    if (eval_file) {
        // Read above already; only a file changed since then can fail here.
        if (auto err = loop.set_option("EvalFile", *eval_file)) {
            std::cerr << "horizon: --eval-file: " << *err << "\n";
            return 2;
        }
    }
    loop.run();
    return 0;
}

} // namespace

std::span<const Subcommand> subcommands() { return SUBCOMMANDS; }

const Subcommand* find_subcommand(std::string_view name) {
    for (const Subcommand& s : SUBCOMMANDS)
        if (name == s.name) return &s;
    return nullptr;
}

std::string usage_text() { return uci_command_line().help(); }

int horizon_main(int argc, const char* const* argv) {
    const std::string first = argc >= 2 ? argv[1] : "";
    if (first.empty() || first[0] == '-') return uci_main(argc, argv);
    if (const Subcommand* s = find_subcommand(first)) return s->run(argc - 1, argv + 1);
    if (first == "help") {
        if (argc == 2) {
            std::cout << usage_text();
            return 0;
        }
        const Subcommand* s = find_subcommand(argv[2]);
        if (!s) {
            std::cerr << "horizon help: '" << argv[2]
                      << "': no such subcommand (see horizon --help)\n";
            return USAGE_ERROR_STATUS;
        }
        if (argc > 3) {
            std::cerr << "horizon help: '" << argv[3]
                      << "': unexpected argument (see horizon --help)\n";
            return USAGE_ERROR_STATUS;
        }
        const char* help_argv[] = {s->name, "--help"};
        return s->run(2, help_argv);
    }
    std::cerr << "horizon: '" << first << "': no such subcommand (see horizon --help)\n";
    return USAGE_ERROR_STATUS;
}

} // namespace horizon
