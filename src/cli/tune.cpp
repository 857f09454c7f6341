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
#include "platform/system.hpp"
#include "train/gradient.hpp"
#include "train/tune.hpp"

namespace horizon {

namespace {

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

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

void print_wdl_table(const WdlModel& model, std::ostream& out) {
    const int scores[] = {0, 50, 100, 200, 400};
    out << "W/D/L per mille (white's view):\n"
        << "  material";
    for (int s : scores) {
        char head[32];
        std::snprintf(head, sizeof head, " %14s", ("s=" + std::to_string(s)).c_str());
        out << head;
    }
    out << "\n";
    for (int m : {30, 58, 78}) {
        char line[32];
        std::snprintf(line, sizeof line, "  %8d", m);
        out << line;
        for (int s : scores) {
            const WdlProbabilities p = model.probabilities(s, m);
            char cell[48];
            std::snprintf(cell, sizeof cell, " %4ld/%4ld/%4ld", std::lround(p.win * 1000),
                          std::lround(p.draw * 1000), std::lround(p.loss * 1000));
            out << cell;
        }
        out << "\n";
    }
}

// "train X  valid Y".
std::string losses_text(const Losses& l) {
    std::string text = "train " + fixed(l.train, 6);
    if (l.valid) text += "  valid " + fixed(*l.valid, 6);
    return text;
}

// The tuner's report: results on `out`; progress (on a terminal) and warnings on `err`.
class Printer : public TuneObserver {
public:
    Printer(std::ostream& out, std::ostream& err, bool interactive)
        : out_(out), err_(err), interactive_(interactive) {}

    void finish_progress() {
        if (progress_) progress_->finish();
    }

    void loading(std::size_t files, int threads) override {
        out_ << "Loading " << files << " file" << (files == 1 ? "" : "s") << " with " << threads
             << " thread" << (threads == 1 ? "" : "s") << "\n"
             << std::flush;
        progress_.emplace(err_, interactive_, "loading: bytes");
    }
    void load_progress(const LoadProgress& p) override {
        progress_->update(p.bytes, p.total_bytes,
                          std::string(p.file) + ": " + std::to_string(p.lines) + " lines, " +
                              std::to_string(p.positions) + " positions");
    }
    void skipped(const std::string& where, const std::string& why) override {
        if (++skipped_ > WARNINGS_SHOWN) return;
        finish_progress();
        err_ << "warning: " << where << ": " << why << " (line skipped)\n";
    }
    void loaded(const LoadReport& report, const DataSet& data) override {
        progress_.reset();
        if (skipped_ > WARNINGS_SHOWN)
            err_ << "warning: " << skipped_ << " malformed lines skipped in all (the first "
                 << WARNINGS_SHOWN << " shown)\n";
        if (data.size() < 2) return; // the tuner stops, and says why
        const double n = double(data.size());
        out_ << "Loaded " << data.size() << " positions from " << report.data_lines
             << " data lines in " << fixed(report.seconds, 2) << " s ("
             << fixed(n / report.seconds / 1000, 1) << "k/s); skipped " << report.dead_draws
             << " dead draws, " << report.malformed << " malformed lines\n"
             << "Results (white's view): " << report.results[2] << " wins, " << report.results[1]
             << " draws, " << report.results[0] << " losses\n"
             << "Memory: " << fixed(double(data.bytes()) / (1 << 20), 1) << " MiB ("
             << fixed(double(data.bytes()) / n, 1) << " bytes and "
             << fixed(double(data.coefficient_count()) / n, 1)
             << " coefficients per position); peak RSS " << peak_memory_kib() / 1024 << " MiB\n";
    }
    void shuffled(double seconds) override {
        out_ << "Shuffled the samples in " << fixed(seconds, 2) << " s\n";
    }
    void split(std::size_t train, std::size_t valid) override {
        out_ << "Training on " << train << " positions, validating on " << valid << "\n";
    }
    void k_chosen(const KReport& k) override {
        out_ << "K = " << fixed(k.k, 4);
        if (k.given)
            out_ << " (given)\n";
        else
            out_ << " (fitted on the starting weights: MSE " << fixed(k.mse, 6) << ", "
                 << fixed(k.seconds, 2) << " s)\n";
    }
    void frozen(int weights, std::uint64_t min_count) override {
        out_ << "Frozen: " << weights << " of " << WEIGHT_COUNT << " weights (used by fewer than "
             << min_count << " training positions)\n";
    }
    void training_progress(const TrainingProgress& p) override {
        if (!progress_) progress_.emplace(err_, interactive_, "training: positions");
        progress_->update(p.done, p.total, p.elapsed,
                          Progress::eta(double(p.done), double(p.total - p.done), p.elapsed),
                          epoch_label(p.epoch, p.epochs));
    }
    void epoch_done(const EpochReport& e) override {
        finish_progress();
        out_ << epoch_label(e.epoch, e.epochs) << "  " << losses_text(e.losses);
        if (e.epoch > 0) {
            const auto eta = Progress::eta(e.epoch, e.epochs - e.epoch, e.elapsed);
            out_ << "  (" << fixed(e.seconds, 2) << " s, ETA " << Progress::clock_text(*eta) << ")";
        }
        out_ << "\n" << std::flush;
    }
    void trained(const TrainingSummary& s) override {
        progress_.reset();
        out_ << "Integer weights: " << losses_text(s.integer) << "\n";
        out_ << "Weights changed: " << s.changed << " of " << PARAM_COUNT << "\n";
        out_ << "Time per epoch: " << fixed(s.step_seconds + s.loss_seconds, 2)
             << " s: " << fixed(s.step_seconds, 2) << " s of gradient steps over " << s.positions
             << " positions (" << fixed(s.step_seconds / double(s.positions) * 1e9, 0)
             << " ns each; batch " << s.batch << ", " << s.threads << " threads), "
             << fixed(s.loss_seconds, 2) << " s for the losses\n";
    }
    void wdl_fitted(const WdlReport& r) override {
        if (!r.model) {
            out_ << "WDL model: not fitted (the data needs wins, draws and losses)\n";
            return;
        }
        out_ << "WDL model: mean log-likelihood " << fixed(r.fit.mean_log_likelihood, 5) << " ("
             << r.fit.groups << " (material, score) groups, " << r.fit.iterations
             << " iterations; evaluations " << fixed(r.eval_seconds, 2) << " s, fit "
             << fixed(r.fit_seconds, 2) << " s)\n  a = [";
        for (std::size_t i = 0; i < 4; ++i)
            out_ << (i ? ", " : "") << fixed(r.model->a[i], 3);
        out_ << "]\n  b = [";
        for (std::size_t i = 0; i < 4; ++i)
            out_ << (i ? ", " : "") << fixed(r.model->b[i], 3);
        out_ << "]\n";
        print_wdl_table(*r.model, out_);
    }
    void wdl_copied() override {
        out_ << "Note: the start file's \"wdl\" section is copied unchanged; it was fitted to "
                "other weights\n";
    }

private:
    static constexpr std::uint64_t WARNINGS_SHOWN = 10;

    // "epoch  3/50", the number padded to the width of the last.
    static std::string epoch_label(int epoch, int epochs) {
        const std::size_t width = std::to_string(epochs).size();
        const std::string s = std::to_string(epoch);
        return "epoch " + std::string(width > s.size() ? width - s.size() : 0, ' ') + s + "/" +
               std::to_string(epochs);
    }

    std::ostream& out_;
    std::ostream& err_;
    bool interactive_;
    std::optional<Progress> progress_;
    std::uint64_t skipped_ = 0;
};

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
        Printer printer(out, err, interactive);
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
