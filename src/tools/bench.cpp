#include "tools/bench.hpp"

#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "engine/bench.hpp"
#include "tools/eval_file_flag.hpp"

namespace horizon {

int bench_main(int argc, const char* const* argv) {
    // horizon bench [depth [threads]] [--eval-file FILE]
    const auto number = [](const std::string& text, int lo, int hi) {
        try {
            std::size_t used = 0;
            const int v = std::stoi(text, &used);
            if (used == text.size() && v >= lo && v <= hi) return v;
        } catch (...) {
        }
        return 0;
    };
    std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
    std::optional<std::string> eval_file, syzygy_path;
    if (auto err = take_eval_file_flag(args, eval_file)) {
        std::cerr << "horizon bench: " << *err << "\n";
        return 2;
    }
    if (auto err = take_value_flag(args, "--syzygy-path", "a folder", syzygy_path)) {
        std::cerr << "horizon bench: " << *err << "\n";
        return 2;
    }
    if (args.size() > 2) {
        std::cerr << "usage: horizon bench [depth [threads]] [--eval-file FILE] "
                     "[--syzygy-path PATH]\n";
        return 2;
    }
    const int depth = args.size() >= 1 ? number(args[0], 1, 64) : BENCH_DEFAULT_DEPTH;
    if (!depth) {
        std::cerr << "horizon bench: depth must be a number from 1 to 64\n";
        return 2;
    }
    const int threads = args.size() >= 2 ? number(args[1], 1, 256) : 1;
    if (!threads) {
        std::cerr << "horizon bench: threads must be a number from 1 to 256\n";
        return 2;
    }
    EvalWeights weights;
    if (auto err = weights_for(eval_file, weights)) {
        std::cerr << "horizon bench: " << *err << "\n";
        return 2;
    }
    run_bench(depth, std::cout, threads, &weights, syzygy_path.value_or(""));
    return 0;
}

} // namespace horizon
