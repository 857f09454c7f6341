#include "cli/tune.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <cxxopts.hpp>

#include "cli/command_line.hpp"
#include "cli/progress.hpp"
#include "cli/tune_printer.hpp"
#include "eval/params.hpp"
#include "platform/system.hpp"
#include "train/tune.hpp"

namespace horizon {

namespace {

constexpr const char* HELP_FOOTER = R"(
Data: text files of lines '<FEN> | <score> | <result>', the score in centipawns and the result
(1.0, 0.5 or 0.0) both from white's point of view, as `horizon datagen` writes them. Lines
starting with '#' and blank lines are skipped; a FEN of four fields is read as if ' 0 1'
followed. Positions with insufficient material are skipped. A malformed line stops the run
with its file and line number, unless --skip-bad: then the first few are shown as warnings
and all are counted and skipped.

The fit: K is chosen first so that sigmoid(K * eval / 400) best matches the results with the
starting weights (unless --k), then every mg and eg weight is fitted by Adam to minimise the
mean squared error between sigmoid(K * eval / 400) and lambda * result + (1 - lambda) *
sigmoid(K * score / 400), plus the --l2 pull toward the starting weights when it is given.
Weights are rounded to integers at the end. The win/draw/loss model is then fitted to the
results with the tuned evaluation. The output is a complete engine.json.
)";

CommandLine tune_command_line() {
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    CommandLine cli("tune", "Fit the evaluation weights and the WDL model to labelled positions.");
    const auto text = [] { return cxxopts::value<std::string>(); };
    // clang-format off
    cli.add()
        ("data", "data file (repeat, or separate with commas)", cxxopts::value<std::vector<std::string>>(), "FILE")
        ("out", "output engine.json (required)", text(), "FILE")
        ("start", "starting weights: an engine.json-style file (default: the built-in weights)", text(), "FILE")
        ("epochs", "passes over the training set", text()->default_value("50"), "N")
        ("lr", "Adam learning rate (centipawns per step)", text()->default_value("0.5"), "X")
        ("batch", "positions per step (0 = the whole training set)", text()->default_value("16384"), "N")
        ("threads", "worker threads (the default: this machine's)", text()->default_value(std::to_string(hw)), "N")
        ("lambda", "weight of the game result in the target (the rest: the search score)", text()->default_value("1.0"), "X")
        ("max-positions", "read at most N data lines (0 = all)", text()->default_value("0"), "N")
        ("seed", "seed of the validation split and the batch order", text()->default_value("1"), "N")
        ("k", "(or --k) the sigmoid scale K; skips its fit", text(), "X")
        ("holdout", "fraction of positions held out for the validation loss (0 = none)", text()->default_value("0.05"), "X")
        ("min-count", "keep a weight at its starting value when fewer than N training positions use it", text()->default_value("0"), "N")
        ("l2", "pull every weight toward its start: adds L2 * ((weight - start) / 100 cp)^2 per weight to the loss (0 = none)", text()->default_value("0"), "X")
        ("only", "fit only these terms (names as in engine.json, repeat or separate with commas); the rest keep their starting weights", cxxopts::value<std::vector<std::string>>(), "TERMS")
        ("skip-bad", "warn about malformed data lines and skip them (default: stop at the first)")
        ("no-wdl", "do not fit the win/draw/loss model");
    // clang-format on
    cli.repeatable({"data", "only"});
    cli.footer(HELP_FOOTER);
    return cli;
}

// The words of the command line with --k read as -k: cxxopts takes a one-letter name for a
// short option only.
std::vector<std::string> words_with_short_k(int argc, const char* const* argv) {
    std::vector<std::string> words(argv, argv + argc);
    for (std::size_t i = 1; i < words.size(); ++i) {
        if (words[i] == "--k") {
            words[i] = "-k";
        } else if (words[i].rfind("--k=", 0) == 0) {
            const std::string value = words[i].substr(4);
            words[i] = "-k";
            words.insert(words.begin() + std::ptrdiff_t(i) + 1, value);
        }
    }
    return words;
}

TuneSettings read_settings(const cxxopts::ParseResult& args) {
    TuneSettings o;
    if (!args.count("data")) throw UsageError("give at least one --data FILE");
    if (!args.count("out")) throw UsageError("give --out FILE");
    o.data = args["data"].as<std::vector<std::string>>();
    o.data.erase(std::remove(o.data.begin(), o.data.end(), std::string()), o.data.end());
    if (o.data.empty()) throw UsageError("give at least one --data FILE");
    o.out = args["out"].as<std::string>();
    o.start = text_flag(args, "start").value_or("");
    o.epochs = int(whole_flag(args, "epochs", 0, 1'000'000));
    o.lr = real_flag(args, "lr", 0, INFINITY);
    if (!(o.lr > 0))
        throw UsageError("--lr: must be positive: '" + args["lr"].as<std::string>() + "'");
    o.batch = std::int64_t(whole_flag(args, "batch", 0, INT64_MAX));
    o.threads = int(whole_flag(args, "threads", 1, 1024));
    o.lambda = real_flag(args, "lambda", 0, 1);
    o.max_positions = whole_flag(args, "max-positions", 0, UINT64_MAX);
    o.seed = whole_flag(args, "seed", 0, UINT64_MAX);
    if (args.count("k")) {
        o.k = real_flag(args, "k", 0, INFINITY);
        if (!(*o.k > 0))
            throw UsageError("--k: must be positive: '" + args["k"].as<std::string>() + "'");
    }
    o.holdout = real_flag(args, "holdout", 0, 0.5);
    o.min_count = whole_flag(args, "min-count", 0, UINT64_MAX);
    o.l2 = real_flag(args, "l2", 0, INFINITY);
    if (args.count("only"))
        for (const std::string& name : args["only"].as<std::vector<std::string>>()) {
            if (name.empty()) continue;
            const std::optional<Term> term = find_term(name);
            if (!term) throw UsageError("--only: no term '" + name + "'");
            o.only.push_back(*term);
        }
    o.skip_bad = args.count("skip-bad") > 0;
    o.wdl = args.count("no-wdl") == 0;
    const auto dir = std::filesystem::path(o.out).parent_path();
    if (!dir.empty() && !std::filesystem::is_directory(dir))
        throw UsageError("--out: the folder '" + dir.string() + "' does not exist");
    if (std::filesystem::is_directory(o.out))
        throw UsageError("--out: '" + o.out + "' is a folder");
    // The output replaces its file: never one of the inputs.
    const auto same_file = [](const std::string& a, const std::string& b) {
        std::error_code ec;
        return std::filesystem::equivalent(a, b, ec) && !ec;
    };
    for (const auto& file : o.data) {
        if (std::filesystem::is_directory(file))
            throw UsageError("--data: '" + file + "' is a folder");
        if (same_file(file, o.out))
            throw UsageError("--out: '" + o.out + "' is the data file '" + file +
                             "': it would be overwritten");
    }
    return o;
}

// The fit itself, with its progress on `err` and its report on `out`.
int fit(const TuneSettings& o, std::ostream& out, std::ostream& err) {
    try {
        const auto start = std::chrono::steady_clock::now();
        const bool interactive = &err == &std::cerr && is_terminal(stderr);
        TunePrinter printer(out, err, interactive);
        if (auto e = run_tuning(o, printer)) {
            printer.finish_progress();
            err << "horizon tune: " << *e << "\n";
            return 2;
        }
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        out << "Wrote " << o.out << " (" << Progress::clock_text(seconds) << " in all, peak RSS "
            << peak_memory_kib() / 1024 << " MiB)\n";
        return 0;
    } catch (const std::exception& e) {
        err << "horizon tune: " << e.what() << "\n";
        return 2;
    }
}

} // namespace

int run_tune(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
    const CommandLine cli = tune_command_line();
    const std::vector<std::string> words = words_with_short_k(argc, argv);
    std::vector<const char*> word_ptrs;
    for (const auto& word : words)
        word_ptrs.push_back(word.c_str());
    cxxopts::ParseResult args;
    if (const auto status = cli.parse(int(word_ptrs.size()), word_ptrs.data(), args, out, err))
        return *status;
    TuneSettings o;
    try {
        o = read_settings(args);
    } catch (const UsageError& e) {
        return cli.fail(e.what(), err);
    }
    return fit(o, out, err);
}

int tune_main(int argc, const char* const* argv) {
    return run_tune(argc, argv, std::cout, std::cerr);
}

} // namespace horizon
