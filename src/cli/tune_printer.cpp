#include "cli/tune_printer.hpp"

#include <cmath>
#include <cstdio>
#include <ostream>

#include "platform/system.hpp"
#include "train/gradient.hpp"

namespace horizon {

namespace {

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

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

// "epoch  3/50", the number padded to the width of the last.
std::string epoch_label(int epoch, int epochs) {
    const std::size_t width = std::to_string(epochs).size();
    const std::string s = std::to_string(epoch);
    return "epoch " + std::string(width > s.size() ? width - s.size() : 0, ' ') + s + "/" +
           std::to_string(epochs);
}

} // namespace

void TunePrinter::loading(std::size_t files, int threads) {
    out_ << "Loading " << files << " file" << (files == 1 ? "" : "s") << " with " << threads
         << " thread" << (threads == 1 ? "" : "s") << "\n"
         << std::flush;
    progress_.emplace(err_, interactive_, "loading: bytes");
}

void TunePrinter::load_progress(const LoadProgress& p) {
    progress_->update(p.bytes, p.total_bytes,
                      std::string(p.file) + ": " + std::to_string(p.lines) + " lines, " +
                          std::to_string(p.positions) + " positions");
}

void TunePrinter::skipped(const std::string& where, const std::string& why) {
    if (++skipped_ > WARNINGS_SHOWN) return;
    finish_progress();
    err_ << "warning: " << where << ": " << why << " (line skipped)\n";
}

void TunePrinter::loaded(const LoadReport& report, const DataSet& data) {
    progress_.reset();
    if (skipped_ > WARNINGS_SHOWN)
        err_ << "warning: " << skipped_ << " malformed lines skipped in all (the first "
             << WARNINGS_SHOWN << " shown)\n";
    if (data.size() < 2) return; // the tuner stops, and says why
    const double n = double(data.size());
    out_ << "Loaded " << data.size() << " positions from " << report.data_lines << " data lines in "
         << fixed(report.seconds, 2) << " s (" << fixed(n / report.seconds / 1000, 1)
         << "k/s); skipped " << report.dead_draws << " dead draws, " << report.malformed
         << " malformed lines\n"
         << "Results (white's view): " << report.results[2] << " wins, " << report.results[1]
         << " draws, " << report.results[0] << " losses\n"
         << "Memory: " << fixed(double(data.bytes()) / (1 << 20), 1) << " MiB ("
         << fixed(double(data.bytes()) / n, 1) << " bytes and "
         << fixed(double(data.coefficient_count()) / n, 1)
         << " coefficients per position); peak RSS " << peak_memory_kib() / 1024 << " MiB\n";
}

void TunePrinter::shuffled(double seconds) {
    out_ << "Shuffled the samples in " << fixed(seconds, 2) << " s\n";
}

void TunePrinter::split(std::size_t train, std::size_t valid) {
    out_ << "Training on " << train << " positions, validating on " << valid << "\n";
}

void TunePrinter::k_chosen(const KReport& k) {
    out_ << "K = " << fixed(k.k, 4);
    if (k.given)
        out_ << " (given)\n";
    else
        out_ << " (fitted on the starting weights: MSE " << fixed(k.mse, 6) << ", "
             << fixed(k.seconds, 2) << " s)\n";
}

void TunePrinter::frozen(int weights, std::uint64_t min_count) {
    out_ << "Frozen: " << weights << " of " << WEIGHT_COUNT << " weights (used by fewer than "
         << min_count << " training positions)\n";
}

void TunePrinter::training_progress(const TrainingProgress& p) {
    if (!progress_) progress_.emplace(err_, interactive_, "training: positions");
    progress_->update(p.done, p.total, p.elapsed,
                      Progress::eta(double(p.done), double(p.total - p.done), p.elapsed),
                      epoch_label(p.epoch, p.epochs));
}

void TunePrinter::epoch_done(const EpochReport& e) {
    finish_progress();
    out_ << epoch_label(e.epoch, e.epochs) << "  " << losses_text(e.losses);
    if (e.epoch > 0) {
        const auto eta = Progress::eta(e.epoch, e.epochs - e.epoch, e.elapsed);
        out_ << "  (" << fixed(e.seconds, 2) << " s, ETA " << Progress::clock_text(*eta) << ")";
    }
    out_ << "\n" << std::flush;
}

void TunePrinter::trained(const TrainingSummary& s) {
    progress_.reset();
    out_ << "Integer weights: " << losses_text(s.integer) << "\n";
    out_ << "Weights changed: " << s.changed << " of " << PARAM_COUNT << "\n";
    out_ << "Time per epoch: " << fixed(s.step_seconds + s.loss_seconds, 2)
         << " s: " << fixed(s.step_seconds, 2) << " s of gradient steps over " << s.positions
         << " positions (" << fixed(s.step_seconds / double(s.positions) * 1e9, 0)
         << " ns each; batch " << s.batch << ", " << s.threads << " threads), "
         << fixed(s.loss_seconds, 2) << " s for the losses\n";
}

void TunePrinter::wdl_fitted(const WdlReport& r) {
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

void TunePrinter::wdl_copied() {
    out_ << "Note: the start file's \"wdl\" section is copied unchanged; it was fitted to "
            "other weights\n";
}

} // namespace horizon
