#include "tools/eval_tool.hpp"

#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "eval/evaluate.hpp"
#include "eval/tablebases.hpp"
#include "tools/eval_file_flag.hpp"
#include "tools/tb_tool.hpp"

namespace horizon {

int eval_main(int argc, const char* const* argv) {
    // horizon eval [--eval-file FILE] [--syzygy-path PATH] [[--fen] FEN]
    std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
    if (args.size() == 1 && (args[0] == "-h" || args[0] == "--help")) {
        std::cout
            << "usage: horizon eval [--eval-file FILE] [--syzygy-path PATH] [[--fen] FEN]\n"
               "The static evaluation term by term (the start position when no FEN is given;\n"
               "the built-in weights when no file is), and the Syzygy tables' result where\n"
               "the tables of PATH hold the position.\n";
        return 0;
    }
    std::optional<std::string> eval_file, syzygy_path;
    if (auto err = take_eval_file_flag(args, eval_file)) {
        std::cerr << "horizon eval: " << *err << "\n";
        return 2;
    }
    if (auto err = take_value_flag(args, "--syzygy-path", "a folder", syzygy_path)) {
        std::cerr << "horizon eval: " << *err << "\n";
        return 2;
    }
    std::string fen;
    if (auto err = take_fen_words(args, fen)) {
        std::cerr << "horizon eval: " << *err << "\n";
        return 2;
    }
    Position pos;
    if (!fen.empty()) {
        if (auto err = pos.set_fen(fen)) {
            std::cerr << "horizon eval: bad FEN: " << err->message << "\n";
            return 2;
        }
    }
    EvalWeights weights;
    if (auto err = weights_for(eval_file, weights)) {
        std::cerr << "horizon eval: " << *err << "\n";
        return 2;
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
