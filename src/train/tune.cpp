#include "train/tune.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numeric>
#include <span>

#include <nlohmann/json.hpp>

#include "eval/evaluate.hpp"
#include "eval/params.hpp"
#include "train/gradient.hpp"
#include "train/optimiser.hpp"
#include "train/pool.hpp"
#include "train/tuned_config.hpp"

namespace horizon {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// The gradient of the pull toward the start, l2 * ((w - start) / 100)^2, for one weight.
double l2_gradient(double l2, double w, double start) { return 2 * l2 * (w - start) / 1e4; }

// Weights that too few training positions use would only fit noise: they keep their start.
// Returns, per parameter, whether it is frozen.
// With `only`, the weights of every other term are frozen as well (not counted).
std::vector<bool> frozen_parameters(const DataSet& data, std::span<const std::uint32_t> train,
                                    std::uint64_t min_count, std::span<const Term> only,
                                    int& frozen_weights) {
    std::vector<bool> frozen(PARAM_COUNT, false);
    if (!only.empty())
        for (int t = 0; t < TERM_COUNT; ++t)
            if (std::find(only.begin(), only.end(), Term(t)) == only.end())
                for (int i = TERM_OFFSETS[t]; i < TERM_OFFSETS[t + 1]; ++i)
                    frozen[std::size_t(2 * i)] = frozen[std::size_t(2 * i + 1)] = true;
    frozen_weights = 0;
    if (min_count == 0) return frozen;
    std::vector<std::uint64_t> uses(WEIGHT_COUNT, 0);
    for (std::uint32_t i : train) {
        const Sample& sample = data.samples()[i];
        const Coefficient* c = data.coefficients(sample);
        const std::size_t total = sample.coefficient_count();
        for (std::size_t j = 0; j < total; ++j)
            ++uses[std::size_t(c[j].index)];
    }
    for (int i = 0; i < WEIGHT_COUNT; ++i)
        if (uses[std::size_t(i)] < min_count && !frozen[std::size_t(2 * i)]) {
            frozen[std::size_t(2 * i)] = frozen[std::size_t(2 * i + 1)] = true;
            ++frozen_weights;
        }
    return frozen;
}

// The integer weights (mg and eg apart) that differ.
int changed_weights(const EvalParams& a, const EvalParams& b) {
    int changed = 0;
    for (int i = 0; i < WEIGHT_COUNT; ++i)
        changed += a.weights[std::size_t(i)].mg != b.weights[std::size_t(i)].mg;
    for (int i = 0; i < WEIGHT_COUNT; ++i)
        changed += a.weights[std::size_t(i)].eg != b.weights[std::size_t(i)].eg;
    return changed;
}

// The WDL model, on every position with the tuned integer evaluation.
WdlReport fit_wdl_model(const DataSet& data, const EvalParams& tuned, WorkerPool& pool) {
    WdlReport report;
    const auto t0 = Clock::now();
    std::vector<WdlPoint> points(data.size());
    pool.run_slices(data.size(), [&](int, std::size_t begin, std::size_t end) {
        auto scratch = std::make_unique<EvalTrace>();
        for (std::size_t i = begin; i < end; ++i) {
            const Sample& s = data.samples()[i];
            points[i] = {evaluate_sample_exact(data, s, tuned, *scratch), s.material, s.result};
        }
    });
    report.eval_seconds = seconds_since(t0);
    const auto t1 = Clock::now();
    report.model = fit_wdl(points, pool, &report.fit);
    report.fit_seconds = seconds_since(t1);
    return report;
}

// The trained weights, before rounding, must be weights the engine loads: finite and within
// their kind's bound. Training that diverged (too large a --lr) ends here, naming the term.
std::optional<std::string> check_trained(const Weights& w) {
    for (int t = 0; t < TERM_COUNT; ++t) {
        const double limit = TERM_KINDS[t] == TermKind::KING_DANGER ? EvalWeights::KING_DANGER_LIMIT
                                                                    : EvalWeights::LINEAR_LIMIT;
        for (int i = 0; i < TERM_SIZES[t]; ++i)
            for (int half = 0; half < 2; ++half) {
                const double v = w[std::size_t(2 * (TERM_OFFSETS[t] + i) + half)];
                if (std::abs(v) < limit + 0.5) continue; // rounds to a weight in bounds
                char value[32];
                std::snprintf(value, sizeof value, "%.6g", v);
                return std::string("the training took term \"") + TERM_NAMES[t] + "\" entry " +
                       std::to_string(i) + (half ? " eg" : " mg") + " to " + value + ", outside -" +
                       std::to_string(int(limit)) + ".." + std::to_string(int(limit)) +
                       ", which the engine refuses; nothing written (a smaller --lr may help)";
            }
    }
    return std::nullopt;
}

// The fitted WDL model must be one the engine loads. A fit to data from a narrow range of
// material can bend b(x) below its minimum (or a(x), b(x) past their bounds) where it has no
// positions: that is an error naming the term, not a file the engine would refuse.
std::optional<std::string> check_fitted(const WdlModel& model) {
    WdlModel check;
    if (auto err = WdlModel::from_json(model.to_json(), check))
        return "the fitted WDL model is one the engine refuses: \"wdl\": " + *err +
               "; nothing written (the data may cover too narrow a range of material; "
               "--no-wdl keeps the start's model)";
    return std::nullopt;
}

// Writes `text` to `path` only when the engine's loader takes it: checked in memory first, then
// written to a temporary file beside `path`, loaded back from there by EvalWeights::load (what
// EvalFile and --eval-file use), and only then renamed over `path`. On any failure `path` is
// as it was and the temporary file is gone.
std::optional<std::string> write_config(const std::string& path, const std::string& text) {
    EvalWeights check;
    if (auto e = EvalWeights::from_text(text, check))
        return "the output would be refused by the engine: " + *e + "; nothing written";
    const std::string tmp = path + ".tmp";
    const auto discard = [&] {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
    };
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f) return "cannot write '" + tmp + "'";
        f << text;
        f.close();
        if (!f) {
            discard();
            return "cannot write '" + tmp + "'";
        }
    }
    if (auto e = EvalWeights::load(tmp, check)) {
        discard();
        return "the written file does not load: " + *e + "; '" + path + "' left as it was";
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        discard();
        return "cannot rename '" + tmp + "' to '" + path + "': " + ec.message();
    }
    return std::nullopt;
}

} // namespace

void shuffle_in_runs(std::size_t n, std::mt19937_64& rng, std::vector<std::uint32_t>& out) {
    constexpr std::size_t RUN = 64;
    std::vector<std::uint32_t> runs((n + RUN - 1) / RUN);
    std::iota(runs.begin(), runs.end(), 0u);
    std::shuffle(runs.begin(), runs.end(), rng);
    // A random shift moves the runs' boundaries from one epoch to the next.
    const std::size_t shift = std::size_t(rng() % RUN);
    out.clear();
    for (std::uint32_t r : runs)
        for (std::size_t i = r * RUN; i < std::min(n, (r + 1) * RUN); ++i)
            out.push_back(std::uint32_t((i + shift) % n));
}

std::optional<std::string> run_tuning(const TuneSettings& o, TuneObserver& observer) {
    nlohmann::ordered_json config;
    EvalParams start_params;
    if (auto e = read_start(o.start, config, start_params)) return e;
    WorkerPool pool(o.threads);

    // Loading.
    DataSet data;
    LoadReport report;
    const LoadOptions load{o.data, o.max_positions, o.skip_bad};
    observer.loading(o.data.size(), pool.size());
    LoadCallbacks callbacks;
    callbacks.on_progress = [&](const LoadProgress& p) { observer.load_progress(p); };
    callbacks.on_skipped = [&](const std::string& where, const std::string& why) {
        observer.skipped(where, why);
    };
    if (auto e = load_data(load, pool, data, report, callbacks)) return e;
    observer.loaded(report, data);
    if (data.size() < 2)
        return "no usable positions in the data (" + std::to_string(report.data_lines) +
               " data lines, " + std::to_string(report.dead_draws) + " dead draws)";
    const std::size_t n = data.size();

    // Training and validation sets. The samples are put in a random order once, training set
    // first: the passes then read memory mostly in sequence (a pass in a fresh random order
    // per epoch waits on memory several times longer).
    std::mt19937_64 rng(o.seed);
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), rng);
    const std::size_t valid_n = std::min(std::size_t(double(n) * o.holdout), n - 1);
    std::rotate(order.begin(), order.begin() + std::ptrdiff_t(valid_n), order.end());
    {
        const auto t0 = Clock::now();
        data = data.reordered(order);
        std::vector<std::uint32_t>().swap(order);
        observer.shuffled(seconds_since(t0));
    }
    std::vector<std::uint32_t> train(n - valid_n), valid(valid_n);
    std::iota(train.begin(), train.end(), 0u);
    std::iota(valid.begin(), valid.end(), std::uint32_t(n - valid_n));
    observer.split(train.size(), valid.size());

    Weights w = weights_of(start_params);
    const Weights start_w = w;
    Objective objective{1.0, o.lambda};
    KReport k_report;
    if (o.k) {
        objective.k = *o.k;
        k_report.given = true;
    } else {
        const auto t0 = Clock::now();
        objective.k = fit_k(data, train, w.data(), pool);
        k_report.mse = mean_loss(data, train, w.data(), Objective{objective.k, 1.0}, pool);
        k_report.seconds = seconds_since(t0);
    }
    k_report.k = objective.k;
    observer.k_chosen(k_report);

    const auto losses = [&](const Weights& weights) {
        Losses l;
        l.train = mean_loss(data, train, weights.data(), objective, pool);
        if (!valid.empty()) l.valid = mean_loss(data, valid, weights.data(), objective, pool);
        return l;
    };
    observer.epoch_done(EpochReport{0, o.epochs, losses(w), 0, 0});

    int frozen_count = 0;
    const std::vector<bool> frozen =
        frozen_parameters(data, train, o.min_count, o.only, frozen_count);
    if (o.min_count > 0) observer.frozen(frozen_count, o.min_count);

    // Adam over mini-batches.
    Adam adam(PARAM_COUNT, o.lr);
    std::vector<double> grad(PARAM_COUNT);
    const std::size_t batch =
        o.batch <= 0 || std::size_t(o.batch) >= train.size() ? train.size() : std::size_t(o.batch);
    std::vector<std::uint32_t> shuffled;
    const auto train_start = Clock::now();
    double step_seconds_total = 0, loss_seconds_total = 0;
    TrainingProgress progress{0, o.epochs, 0, std::uint64_t(o.epochs) * train.size(), 0};
    for (int epoch = 1; epoch <= o.epochs; ++epoch) {
        const auto t0 = Clock::now();
        if (batch < train.size()) shuffle_in_runs(train.size(), rng, shuffled);
        const std::vector<std::uint32_t>& pass = batch < train.size() ? shuffled : train;
        progress.epoch = epoch;
        for (std::size_t b = 0; b < pass.size(); b += batch) {
            const std::size_t len = std::min(batch, pass.size() - b);
            loss_gradient(data, std::span(pass.data() + b, len), w.data(), objective, pool,
                          grad.data());
            for (std::size_t i = 0; i < frozen.size(); ++i)
                grad[i] = frozen[i] ? 0 : grad[i] + l2_gradient(o.l2, w[i], start_w[i]);
            adam.step(w.data(), grad.data());
            progress.done = std::uint64_t(epoch - 1) * pass.size() + b + len;
            progress.elapsed = seconds_since(train_start);
            observer.training_progress(progress);
        }
        step_seconds_total += seconds_since(t0);
        const auto t1 = Clock::now();
        const Losses after = losses(w);
        loss_seconds_total += seconds_since(t1);
        observer.epoch_done(
            EpochReport{epoch, o.epochs, after, seconds_since(t0), seconds_since(train_start)});
    }

    if (auto e = check_trained(w)) return e;
    const EvalParams tuned = rounded(w);
    if (o.epochs > 0) {
        TrainingSummary summary;
        summary.integer = losses(weights_of(tuned));
        summary.changed = changed_weights(tuned, start_params);
        summary.step_seconds = step_seconds_total / o.epochs;
        summary.loss_seconds = loss_seconds_total / o.epochs;
        summary.positions = train.size();
        summary.batch = batch;
        summary.threads = pool.size();
        observer.trained(summary);
    }

    std::optional<WdlModel> wdl;
    if (o.wdl) {
        const WdlReport fitted = fit_wdl_model(data, tuned, pool);
        observer.wdl_fitted(fitted);
        if (fitted.model)
            if (auto e = check_fitted(*fitted.model)) return e;
        wdl = fitted.model;
    }
    if (!wdl && config.contains("wdl")) observer.wdl_copied();

    return write_config(o.out, format_config(config, tuned, wdl));
}

} // namespace horizon
