#include "tools/eval_tool.hpp"

#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "eval/evaluate.hpp"
#include "tools/eval_file_flag.hpp"

namespace horizon {

int eval_main(int argc, const char* const* argv) {
    // horizon eval [--eval-file FILE] [FEN]
    std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
    if (args.size() == 1 && (args[0] == "-h" || args[0] == "--help")) {
        std::cout << "usage: horizon eval [--eval-file FILE] [FEN]   (the start position when no "
                     "FEN is given; the built-in weights when no file is)\n";
        return 0;
    }
    std::optional<std::string> eval_file;
    if (auto err = take_eval_file_flag(args, eval_file)) {
        std::cerr << "horizon eval: " << *err << "\n";
        return 2;
    }
    std::string fen;
    for (const std::string& a : args) {
        if (!fen.empty()) fen.push_back(' ');
        fen.append(a);
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
    return 0;
}

} // namespace horizon
