// `horizon tune`: fits the evaluation weights to labelled positions (Texel's method: the mean
// squared error between sigmoid(K·eval/400) and the game result, minimised with Adam), then
// fits the win/draw/loss model to the tuned evaluation, and writes a complete engine.json.
//
// The pieces are declared here so that the tests can check them one by one.
#pragma once

#include <array>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/position.hpp"
#include "eval/evaluate.hpp"
#include "eval/params.hpp"
#include "eval/wdl.hpp"

namespace horizon {

int tune_main(int argc, const char* const* argv);
// The same with the output streams given (results on `out`, progress and errors on `err`).
int run_tune(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

namespace tune {

// ---------------------------------------------------------------------------------------
// Threads

// A fixed set of threads that run one job at a time: run(job) calls job(t) for every
// t in 0..size()-1 (t = 0 on the calling thread) and returns when all have finished.
class WorkerPool {
public:
    explicit WorkerPool(int threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    int size() const { return int(workers_.size()) + 1; }
    void run(const std::function<void(int)>& job);
    // Splits [0, n) into size() contiguous slices: job(t, begin, end).
    void run_slices(std::size_t n, const std::function<void(int, std::size_t, std::size_t)>& job);

private:
    void work(int index);
    void call(int index);

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, finished_;
    const std::function<void(int)>* job_ = nullptr;
    std::uint64_t generation_ = 0;
    int busy_ = 0;
    bool stop_ = false;
    std::exception_ptr failure_;
};

// ---------------------------------------------------------------------------------------
// The data: each position traced once and kept in a sparse form.

// One feature of a sample: its flat weight index and its count (for LINEAR features white's
// count minus black's, for KING_DANGER features the attacking colour's count).
struct Coefficient {
    std::int16_t index;
    std::int16_t count;
};

struct Sample {
    std::uint32_t first;           // its first coefficient in the DataSet's store
    std::uint16_t linear;          // linear coefficients, then white's and black's
    std::uint8_t danger[COLOR_NB]; // KING_DANGER counts (white's attack first)
    std::uint8_t phase;            // 0..PHASE_MAX
    std::uint8_t scale[COLOR_NB];  // endgame scale when white / black is the stronger side
    std::uint8_t result;           // white's points in halves: 0 (loss), 1 (draw), 2 (win)
    std::int16_t score;            // search score, centipawns, white's view (clamped)
    std::uint8_t material;         // P=1, N=B=3, R=5, Q=9, both sides together
};
static_assert(sizeof(Sample) == 16);

// Samples and their coefficients. Coefficients live in fixed-size chunks so that growing the
// store never copies what is already there.
class DataSet {
public:
    static constexpr int CHUNK_SHIFT = 20;
    static constexpr std::size_t CHUNK_SIZE = std::size_t(1) << CHUNK_SHIFT;

    // Appends a sample whose coefficients are coefs[0 .. linear + danger[WHITE] +
    // danger[BLACK]); sets its `first`. Throws std::length_error past 2^32 coefficients.
    void add(Sample s, const Coefficient* coefs);
    const Coefficient* coefficients(const Sample& s) const {
        return chunks_[s.first >> CHUNK_SHIFT].get() + (s.first & (CHUNK_SIZE - 1));
    }
    const std::vector<Sample>& samples() const { return samples_; }
    std::size_t size() const { return samples_.size(); }
    std::size_t coefficient_count() const { return used_; }
    std::size_t bytes() const; // memory held by the samples and coefficients
    void reserve(std::size_t samples) { samples_.reserve(samples); }
    // A copy holding the samples order[0], order[1], ... in that order.
    DataSet reordered(std::span<const std::uint32_t> order) const;

private:
    std::vector<Sample> samples_;
    std::vector<std::unique_ptr<Coefficient[]>> chunks_;
    std::uint64_t next_ = 0; // global index of the next free coefficient
    std::size_t used_ = 0;
};

// Traces `pos` into a sample and its coefficients (replacing `coefs`); false for a dead draw.
bool make_sample(const Position& pos, int score, int result_halves, Sample& sample,
                 std::vector<Coefficient>& coefs);

struct LoadOptions {
    std::vector<std::string> files;
    std::uint64_t max_positions = 0; // data lines read at most (0: all)
    bool skip_bad = false;           // warn about malformed lines and go on (else stop)
};

struct LoadReport {
    std::uint64_t lines = 0;      // all lines read, comments and blanks included
    std::uint64_t data_lines = 0; // lines holding a position
    std::uint64_t dead_draws = 0; // skipped: insufficient material
    std::uint64_t malformed = 0;  // skipped with skip_bad
    std::uint64_t results[3]{};   // losses, draws, wins (white's view) among the samples
    double seconds = 0;
};

// Reads and traces the files in parallel. Returns an error ("file:line: why") on an unreadable
// file, or on the first malformed line unless skip_bad; warnings and progress go to `log`.
std::optional<std::string> load_data(const LoadOptions& options, WorkerPool& pool, DataSet& data,
                                     LoadReport& report, std::ostream& log, bool progress_bar);

// ---------------------------------------------------------------------------------------
// The model: the evaluation in floating point, the loss and its gradient.

// All weights as one vector: mg of weight i at 2i, eg at 2i + 1.
constexpr int PARAM_COUNT = 2 * WEIGHT_COUNT;
using Weights = std::vector<double>;
Weights weights_of(const EvalParams& params);
EvalParams rounded(const Weights& w);

// The evaluation of a sample, white's view, as evaluate_trace computes it but without integer
// rounding.
double evaluate_sample(const DataSet& data, const Sample& s, const double* w);
// Exactly evaluate_trace() of the traced position (rebuilds the trace in `scratch`, which must
// be all zero, and leaves it so).
int evaluate_sample_exact(const DataSet& data, const Sample& s, const EvalParams& params,
                          EvalTrace& scratch);

struct Objective {
    double k = 1.0;      // p = 1 / (1 + exp(-k · eval / 400))
    double lambda = 1.0; // target = lambda · result + (1 - lambda) · sigmoid(k · score / 400)
};
double win_probability(double eval, double k);
double target_of(const Sample& s, const Objective& objective);

// The mean loss over the samples `indices`.
double mean_loss(const DataSet& data, std::span<const std::uint32_t> indices, const double* w,
                 const Objective& objective, WorkerPool& pool);
// The mean loss and its gradient (PARAM_COUNT values written to `grad`).
double loss_gradient(const DataSet& data, std::span<const std::uint32_t> indices, const double* w,
                     const Objective& objective, WorkerPool& pool, double* grad);
// The K that minimises the mean squared error against the game results (golden section).
double fit_k(const DataSet& data, std::span<const std::uint32_t> indices, const double* w,
             WorkerPool& pool);

// Adam (beta1 0.9, beta2 0.999).
class Adam {
public:
    Adam(std::size_t n, double lr) : lr_(lr), m_(n, 0.0), v_(n, 0.0) {}
    void step(double* w, const double* grad);

private:
    double lr_;
    std::vector<double> m_, v_;
    std::uint64_t t_ = 0;
};

// ---------------------------------------------------------------------------------------
// The win/draw/loss model: eval/wdl's WdlModel, its parameters fitted to game results.

// Evaluation (white's view), material and result of one position.
struct WdlPoint {
    int score;
    int material;
    int result_halves;
};
struct WdlFitReport {
    double mean_log_likelihood = 0;
    std::size_t groups = 0; // distinct (material, score) pairs
    int iterations = 0;
};
// Maximises the log-likelihood of the results (Fisher scoring); nullopt when the data cannot
// determine the model (no wins, no draws or no losses).
std::optional<WdlModel> fit_wdl(const std::vector<WdlPoint>& points, WorkerPool& pool,
                                WdlFitReport* report = nullptr);

// ---------------------------------------------------------------------------------------
// Output

// A complete engine.json: `start`'s "engine" section (and any other sections but "eval" and
// "wdl"), the weights formatted like engine.json, and the WDL model when given (else the
// start's "wdl" section, if any, unchanged).
std::string format_config(const nlohmann::ordered_json& start, const EvalParams& params,
                          const std::optional<WdlModel>& wdl);

} // namespace tune
} // namespace horizon
