#include "tools/eval_tool.hpp"

#include <iostream>
#include <string>

#include "core/position.hpp"
#include "eval/evaluate.hpp"

namespace horizon {

int eval_main(int argc, const char* const* argv) {
    std::string fen;
    for (int i = 1; i < argc; ++i) {
        if (i > 1) fen.push_back(' ');
        fen.append(argv[i]);
    }
    if (fen == "-h" || fen == "--help") {
        std::cout << "usage: horizon eval [FEN]   (the start position when no FEN is given)\n";
        return 0;
    }
    Position pos;
    if (!fen.empty()) {
        if (auto err = pos.set_fen(fen)) {
            std::cerr << "horizon eval: bad FEN: " << err->message << "\n";
            return 2;
        }
    }
    std::cout << pos.fen() << "\n\n" << format_trace(pos);
    return 0;
}

} // namespace horizon
