#include "cli/eval.hpp"

#include <iostream>
#include <optional>
#include <string>

#include "cli/command_line.hpp"
#include "cli/tbprobe.hpp"
#include "core/position.hpp"
#include "eval/evaluate.hpp"
#include "eval/tablebases.hpp"

namespace horizon {

int eval_main(int argc, const char* const* argv) {
    CommandLine cli("eval", "The static evaluation term by term (of the start position when no "
                            "FEN is given; with the built-in weights when no file is), and the "
                            "Syzygy tables' result where the tables of PATH hold the position.");
    // clang-format off
    cli.add()
        ("fen", "the position (or its words without the flag)", cxxopts::value<std::string>(), "FEN")
        ("eval-file", "evaluate with the weights of FILE (engine.json's schema)", cxxopts::value<std::string>(), "FILE")
        ("syzygy-path", "also probe the Syzygy tables of PATH (folders joined by ':', ';' on Windows)", cxxopts::value<std::string>(), "PATH");
    // clang-format on
    cli.positional({"fen-words"}, "[FEN]", true);
    cxxopts::ParseResult args;
    if (const auto status = cli.parse(argc, argv, args)) return *status;
    Position pos;
    EvalWeights weights;
    const std::optional<std::string> syzygy_path = text_flag(args, "syzygy-path");
    try {
        const std::string fen = fen_argument(args, "fen-words");
        if (!fen.empty()) {
            if (auto err = pos.set_fen(fen))
                throw UsageError(std::string(args.count("fen") ? "--fen: " : "") +
                                 "bad FEN: " + err->message);
        }
        if (auto err = weights_for(text_flag(args, "eval-file"), weights))
            throw UsageError("--eval-file: " + *err);
    } catch (const UsageError& e) {
        return cli.fail(e.what());
    }
    std::cout << pos.fen() << "\n\n" << format_trace(pos, weights.params);
    if (syzygy_path) {
        Tablebases tables;
        const TbLoad load = tables.set_path(*syzygy_path);
        for (const auto& p : load.problems)
            std::cerr << "horizon eval: " << p << "\n";
        std::cout << "\nSyzygy tables: ";
        if (!tables.enabled())
            std::cout << load.summary() << " in '" << *syzygy_path << "'\n";
        else if (auto probe = tables.probe(pos))
            std::cout << tb_result_text(*probe) << " for the side to move\n";
        else
            std::cout << "the position is not in the tables (" << load.summary() << ")\n";
    }
    return 0;
}

} // namespace horizon
