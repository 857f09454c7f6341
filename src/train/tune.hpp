// The evaluation tuner: fits the evaluation weights to labelled positions (Texel's method: the
// mean squared error between sigmoid(K·eval/400) and the game result, minimised with Adam),
// then fits the win/draw/loss model to the tuned evaluation, and writes a complete engine.json.
//
// The driver over the pieces, each in a file of its own: train/dataset (reading the data),
// train/gradient (the loss and its gradient, K), train/optimiser (Adam), train/wdl_fit and
// train/tuned_config (the start and the output). It reports what it does to a TuneObserver;
// the front end, `horizon tune`, is cli/tune (and what it prints, cli/tune_printer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "eval/wdl.hpp"
#include "train/dataset.hpp"
#include "train/wdl_fit.hpp"

namespace horizon {

struct TuneSettings {
    std::vector<std::string> data;
    std::string out;
    std::string start; // empty: the built-in configuration
    int epochs = 50;
    double lr = 0.5;
    std::int64_t batch = 16384; // 0: the whole training set
    int threads = 1;
    double lambda = 1.0;
    std::uint64_t max_positions = 0;
    std::uint64_t seed = 1;
    std::optional<double> k; // else fitted
    double holdout = 0.05;
    std::uint64_t min_count = 0; // weights seen in fewer training positions stay as they start
    std::vector<Term> only;      // when not empty, the weights of other terms stay as they start
    // A pull toward the starting weights: the fit minimises the loss plus l2 times the sum over
    // the weights of ((weight - start) / 100 cp)^2 (0: none).
    double l2 = 0;
    bool skip_bad = false;
    bool wdl = true;
};

// The mean losses of some weights on the training and (when there is one) validation set.
struct Losses {
    double train = 0;
    std::optional<double> valid;
};

struct KReport {
    double k = 1.0;
    bool given = false;
    double mse = 0;     // fitted: the error on the game results with the starting weights
    double seconds = 0; // fitted: how long the fit took
};

// Where the training stands, in positions over all the epochs.
struct TrainingProgress {
    int epoch = 0, epochs = 0;
    std::uint64_t done = 0, total = 0;
    double elapsed = 0; // seconds since the first epoch began
};

struct EpochReport {
    int epoch = 0, epochs = 0; // epoch 0: the starting weights
    Losses losses;
    double seconds = 0; // this epoch's, its losses included
    double elapsed = 0; // since the first epoch began
};

struct TrainingSummary {
    Losses integer;  // the weights rounded to integers
    int changed = 0; // integer weights (mg and eg apart) that differ from the start
    double step_seconds = 0, loss_seconds = 0; // an epoch's gradient steps, and its losses
    std::size_t positions = 0;                 // in the training set
    std::size_t batch = 0;
    int threads = 0;
};

struct WdlReport {
    std::optional<WdlModel> model; // nullopt: the data lacked wins, draws or losses
    WdlFitReport fit;
    double eval_seconds = 0, fit_seconds = 0;
};

// What the tuner reports, in this order, as it goes. Every method does nothing unless
// overridden.
class TuneObserver {
public:
    virtual ~TuneObserver() = default;
    virtual void loading(std::size_t /*files*/, int /*threads*/) {}
    virtual void load_progress(const LoadProgress&) {}
    virtual void skipped(const std::string& /*where*/, const std::string& /*why*/) {}
    // After reading, also when too few positions came of it to go on.
    virtual void loaded(const LoadReport&, const DataSet&) {}
    virtual void shuffled(double /*seconds*/) {}
    virtual void split(std::size_t /*train*/, std::size_t /*valid*/) {}
    virtual void k_chosen(const KReport&) {}
    virtual void frozen(int /*weights*/, std::uint64_t /*min_count*/) {}
    virtual void training_progress(const TrainingProgress&) {}
    virtual void epoch_done(const EpochReport&) {}
    virtual void trained(const TrainingSummary&) {}
    virtual void wdl_fitted(const WdlReport&) {}
    // No model was fitted and the start's "wdl" section goes to the output as it was.
    virtual void wdl_copied() {}
};

// Loads, trains and writes settings.out. A start the engine would refuse is refused before any
// work; the output is checked with the engine's own loader (EvalWeights) before it replaces
// anything, and is not written when it fails (a weight trained out of bounds, a WDL fit the
// engine refuses). Written whole: through a temporary file, loaded back, then renamed. Returns
// what went wrong, if anything (then settings.out is as it was).
std::optional<std::string> run_tuning(const TuneSettings& settings, TuneObserver& observer);

// The epoch's order of the training samples 0..n-1: runs of consecutive samples, the runs
// shuffled and their boundaries shifted at random.
void shuffle_in_runs(std::size_t n, std::mt19937_64& rng, std::vector<std::uint32_t>& out);

} // namespace horizon
