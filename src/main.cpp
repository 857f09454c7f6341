// horizon: with no arguments the UCI loop; otherwise a subcommand.
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "core/attacks.hpp"
#include "engine/config.hpp"
#include "engine/engine.hpp"
#include "tools/analyze.hpp"
#include "tools/bench.hpp"
#include "tools/datagen_tool.hpp"
#include "tools/epd.hpp"
#include "tools/eval_file_flag.hpp"
#include "tools/eval_tool.hpp"
#include "tools/perft_tool.hpp"
#include "tools/pgn_tool.hpp"
#include "tools/platform.hpp"
#include "tools/tb_tool.hpp"
#include "tools/tune_tool.hpp"
#include "tools/uci_bench.hpp"
#include "uci/uci.hpp"

namespace {

void usage(std::ostream& out) {
    const auto& id = horizon::engine_identity();
    out << id.name << " " << id.version << " - a UCI chess engine\n\n"
        << "Usage:\n"
        << "  horizon                  run the UCI protocol on stdin/stdout\n"
        << "  horizon --eval-file F    the same, with the weights of file F (as EvalFile)\n"
        << "  horizon perft ...        count move-tree nodes (horizon perft --help)\n"
        << "  horizon bench [depth [threads]] [--eval-file F] [--syzygy-path P]\n"
        << "                           search the bench positions; prints the node signature\n"
        << "  horizon eval [--eval-file F] [--syzygy-path P] [[--fen] FEN]\n"
        << "                           the static evaluation, term by term (and the tables' "
           "result)\n"
        << "  horizon tbprobe --syzygy-path P [[--fen] FEN | --random N]\n"
        << "                           the Syzygy tables' WDL and DTZ of positions\n"
        << "  horizon pgn FILE [-o OUT] [--moves-only] [--stats [--runs N]]\n"
        << "                           read a PGN file, write it in export format (or time it)\n"
        << "  horizon analyze FILE.pgn [-o OUT] [--plot DIR] [--games RANGE] [LIMIT]\n"
        << "                           annotate games: evaluations, mistakes, better lines, "
           "summary\n"
        << "  horizon analyze --fen FEN | FILE.epd [--multipv N] [LIMIT]\n"
        << "                           the best lines of positions (horizon analyze --help)\n"
        << "  horizon epd SUITE.epd [LIMIT]\n"
        << "                           run a test suite (bm, am, dm); LIMIT: --movetime MS,\n"
        << "                           --depth D or --nodes N; also --threads T, --hash MB\n"
        << "  horizon uci-bench        protocol latency, movetime accuracy, memory (as a GUI sees "
           "it)\n"
        << "  horizon datagen ...      self-play positions for the evaluation tuner (horizon "
           "datagen --help)\n"
        << "  horizon tune ...         fit the evaluation weights and the WDL model to labelled\n"
        << "                           positions; writes an engine.json (horizon tune --help)\n"
        << "  horizon help             this text\n";
}

} // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    horizon::init_tables();
    const std::string sub = argc >= 2 ? argv[1] : "";
    if (argc < 2 || sub.rfind(horizon::EVAL_FILE_FLAG, 0) == 0) {
        // The UCI loop, with the weights of --eval-file if given.
        std::vector<std::string> args(argv + 1, argv + argc);
        std::optional<std::string> eval_file;
        if (auto err = horizon::take_eval_file_flag(args, eval_file)) {
            std::cerr << "horizon: " << *err << "\n";
            return 2;
        }
        if (!args.empty()) {
            std::cerr << "horizon: unexpected argument '" << args[0] << "'\n";
            usage(std::cerr);
            return 2;
        }
        horizon::use_lf_line_ends(); // UCI lines end in LF everywhere, as runners expect
        horizon::Engine engine;
        horizon::UciLoop loop(std::cin, std::cout, engine);
        if (eval_file) {
            if (auto err = loop.set_option("EvalFile", *eval_file)) {
                std::cerr << "horizon: " << *err << "\n";
                return 2;
            }
        }
        loop.run();
        return 0;
    }
    if (sub == "perft") return horizon::perft_main(argc - 1, argv + 1);
    if (sub == "bench") return horizon::bench_main(argc - 1, argv + 1);
    if (sub == "eval") return horizon::eval_main(argc - 1, argv + 1);
    if (sub == "pgn") return horizon::pgn_main(argc - 1, argv + 1);
    if (sub == "analyze") return horizon::analyze_main(argc - 1, argv + 1);
    if (sub == "epd") return horizon::epd_main(argc - 1, argv + 1);
    if (sub == "uci-bench") return horizon::uci_bench_main(argc - 1, argv + 1);
    if (sub == "datagen") return horizon::datagen_main(argc - 1, argv + 1);
    if (sub == "tune") return horizon::tune_main(argc - 1, argv + 1);
    if (sub == "tbprobe") return horizon::tbprobe_main(argc - 1, argv + 1);
    if (sub == "help" || sub == "--help" || sub == "-h") {
        usage(std::cout);
        return 0;
    }
    std::cerr << "horizon: unknown command '" << sub << "'\n";
    usage(std::cerr);
    return 2;
}
