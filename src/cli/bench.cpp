#include "cli/bench.hpp"

#include <iostream>
#include <optional>
#include <string>

#include "cli/command_line.hpp"
#include "engine/bench.hpp"

namespace horizon {

namespace {

constexpr int BENCH_MAX_DEPTH = 64;
constexpr int BENCH_MAX_THREADS = 256;

// The flag's value, or the word in its place (`bench 7 2`), or nullopt; not both.
std::optional<std::string> flag_or_word(const cxxopts::ParseResult& args, const std::string& flag,
                                        const std::string& word) {
    if (args.count(flag) && args.count(word))
        throw UsageError("--" + flag + ": given twice (as the flag and as the word '" +
                         args[word].as<std::string>() + "')");
    if (args.count(word)) return args[word].as<std::string>();
    return text_flag(args, flag);
}

} // namespace

int bench_main(int argc, const char* const* argv) {
    CommandLine cli("bench", "Search the bench positions to a fixed depth; the last line, "
                             "'N nodes M nps', gives the node count that identifies the search.");
    // clang-format off
    cli.add()
        ("depth", "search depth, 1 to 64 (default " + std::to_string(BENCH_DEFAULT_DEPTH) + ")", cxxopts::value<std::string>(), "N")
        ("threads", "search threads, 1 to 256 (default 1; more than 1: the count varies)", cxxopts::value<std::string>(), "N")
        ("eval-file", "search with the evaluation weights of FILE (default: the built-in ones)", cxxopts::value<std::string>(), "FILE")
        ("syzygy-path", "probe the Syzygy tables of PATH (folders joined by ':', ';' on Windows)", cxxopts::value<std::string>(), "PATH");
    // clang-format on
    cli.positional({"depth-word", "threads-word"}, "[DEPTH [THREADS]]");
    cli.footer("\nDEPTH and THREADS, given as words, are --depth and --threads (the short form "
               "OpenBench\nand other tools use: horizon bench 13 1).\n");
    cxxopts::ParseResult args;
    if (const auto status = cli.parse(argc, argv, args)) return *status;
    int depth = BENCH_DEFAULT_DEPTH, threads = 1;
    EvalWeights weights;
    try {
        if (auto d = flag_or_word(args, "depth", "depth-word"))
            depth = int(whole_number("--depth", *d, 1, BENCH_MAX_DEPTH));
        if (auto t = flag_or_word(args, "threads", "threads-word"))
            threads = int(whole_number("--threads", *t, 1, BENCH_MAX_THREADS));
        if (auto err = weights_for(text_flag(args, "eval-file"), weights))
            throw UsageError("--eval-file: " + *err);
    } catch (const UsageError& e) {
        return cli.fail(e.what());
    }
    run_bench(depth, std::cout, threads, &weights, text_flag(args, "syzygy-path").value_or(""));
    return 0;
}

} // namespace horizon
