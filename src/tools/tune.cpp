#include "tools/tune.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <cxxopts.hpp>

#include "engine/config.hpp"
#include "engine_json.hpp"
#include "tools/platform.hpp"
#include "train/data_line.hpp"

namespace horizon {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

} // namespace

namespace tune {

// ---------------------------------------------------------------------------------------
// WorkerPool

WorkerPool::WorkerPool(int threads) {
    for (int i = 1; i < std::max(threads, 1); ++i)
        workers_.emplace_back([this, i] { work(i); });
}

WorkerPool::~WorkerPool() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_)
        t.join();
}

void WorkerPool::call(int index) {
    try {
        (*job_)(index);
    } catch (...) {
        std::lock_guard lock(mutex_);
        if (!failure_) failure_ = std::current_exception();
    }
}

void WorkerPool::work(int index) {
    std::uint64_t seen = 0;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
            if (stop_) return;
            seen = generation_;
        }
        call(index);
        std::lock_guard lock(mutex_);
        if (--busy_ == 0) finished_.notify_one();
    }
}

void WorkerPool::run(const std::function<void(int)>& job) {
    {
        std::lock_guard lock(mutex_);
        job_ = &job;
        busy_ = int(workers_.size());
        failure_ = nullptr;
        ++generation_;
    }
    wake_.notify_all();
    call(0);
    std::exception_ptr failure;
    {
        std::unique_lock lock(mutex_);
        finished_.wait(lock, [&] { return busy_ == 0; });
        job_ = nullptr;
        failure = std::exchange(failure_, nullptr);
    }
    if (failure) std::rethrow_exception(failure);
}

void WorkerPool::run_slices(std::size_t n,
                            const std::function<void(int, std::size_t, std::size_t)>& job) {
    const std::size_t parts = std::size_t(size());
    run([&](int t) {
        const std::size_t begin = n * std::size_t(t) / parts;
        const std::size_t end = n * (std::size_t(t) + 1) / parts;
        job(t, begin, end);
    });
}

// ---------------------------------------------------------------------------------------
// DataSet

void DataSet::add(Sample s, const Coefficient* coefs) {
    const std::size_t n = std::size_t(s.linear) + s.danger[WHITE] + s.danger[BLACK];
    if ((next_ & (CHUNK_SIZE - 1)) + n > CHUNK_SIZE)
        next_ = ((next_ >> CHUNK_SHIFT) + 1) << CHUNK_SHIFT;
    if (next_ + n >= (std::uint64_t(1) << 32))
        throw std::length_error("more than 2^32 coefficients: too much data (use --max-positions)");
    const std::size_t chunk = std::size_t(next_ >> CHUNK_SHIFT);
    while (chunks_.size() <= chunk)
        chunks_.push_back(std::make_unique_for_overwrite<Coefficient[]>(CHUNK_SIZE));
    std::copy(coefs, coefs + n, chunks_[chunk].get() + (next_ & (CHUNK_SIZE - 1)));
    s.first = std::uint32_t(next_);
    next_ += n;
    used_ += n;
    samples_.push_back(s);
}

DataSet DataSet::reordered(std::span<const std::uint32_t> order) const {
    DataSet out;
    out.reserve(order.size());
    for (std::uint32_t i : order)
        out.add(samples_[i], coefficients(samples_[i]));
    return out;
}

std::size_t DataSet::bytes() const {
    return samples_.capacity() * sizeof(Sample) + chunks_.size() * CHUNK_SIZE * sizeof(Coefficient);
}

// ---------------------------------------------------------------------------------------
// Tracing

bool make_sample(const Position& pos, int score, int result_halves, Sample& sample,
                 std::vector<Coefficient>& coefs) {
    if (pos.has_insufficient_material()) return false;
    const EvalTrace t = trace_evaluation(pos);
    coefs.clear();
    const auto push = [&](int index, int count) {
        if (count < std::numeric_limits<std::int16_t>::min() ||
            count > std::numeric_limits<std::int16_t>::max())
            throw std::range_error("feature count out of range");
        coefs.push_back({std::int16_t(index), std::int16_t(count)});
    };
    for (int i = 0; i < WEIGHT_COUNT; ++i)
        if (FEATURE_KINDS[i] == TermKind::LINEAR)
            if (const int d = t.counts[WHITE][i] - t.counts[BLACK][i]) push(i, d);
    sample = Sample{};
    sample.linear = std::uint16_t(coefs.size());
    for (Color c : {WHITE, BLACK}) {
        const std::size_t before = coefs.size();
        for (int i = 0; i < WEIGHT_COUNT; ++i)
            if (FEATURE_KINDS[i] == TermKind::KING_DANGER && t.counts[c][i])
                push(i, t.counts[c][i]);
        sample.danger[c] = std::uint8_t(coefs.size() - before);
    }
    sample.phase = std::uint8_t(t.phase);
    sample.scale[WHITE] = std::uint8_t(t.scale[WHITE]);
    sample.scale[BLACK] = std::uint8_t(t.scale[BLACK]);
    sample.result = std::uint8_t(result_halves);
    sample.score = std::int16_t(std::clamp(score, -32767, 32767));
    int material = 0;
    for (Color c : {WHITE, BLACK})
        material += pos.count(c, PAWN) + 3 * pos.count(c, KNIGHT) + 3 * pos.count(c, BISHOP) +
                    5 * pos.count(c, ROOK) + 9 * pos.count(c, QUEEN);
    sample.material = std::uint8_t(std::min(material, 255));
    return true;
}

std::optional<std::string> load_data(const LoadOptions& options, WorkerPool& pool, DataSet& data,
                                     LoadReport& report, std::ostream& log, bool progress_bar) {
    const auto start = Clock::now();
    struct Local {
        DataLine line;
        std::vector<Coefficient> scratch;
        std::vector<Sample> samples;
        std::vector<Coefficient> coefs;
        std::vector<std::pair<std::uint64_t, std::string>> errors;
        std::uint64_t dead = 0;
    };
    std::vector<Local> locals(std::size_t(pool.size()));
    constexpr std::size_t BLOCK = std::size_t(1) << 15;
    std::vector<std::string> block;
    block.reserve(BLOCK);
    constexpr std::uint64_t WARNINGS_SHOWN = 10;
    bool limit_reached = false;
    auto last_progress = Clock::now();

    for (const std::string& file : options.files) {
        if (limit_reached) break;
        std::ifstream in(file, std::ios::binary);
        if (!in) return "cannot open data file '" + file + "'";
        std::uint64_t line_no = 0;
        std::string line;
        for (bool eof = false; !eof && !limit_reached;) {
            block.clear();
            const std::uint64_t base = line_no + 1;
            while (block.size() < BLOCK) {
                if (!std::getline(in, line)) {
                    eof = true;
                    break;
                }
                ++line_no;
                if (line_kind(line) != LineKind::POSITION) {
                    block.emplace_back(); // keeps the numbering; empty means "skip"
                    continue;
                }
                block.push_back(std::move(line));
                ++report.data_lines;
                if (options.max_positions && report.data_lines >= options.max_positions) {
                    limit_reached = true;
                    break;
                }
            }
            if (in.bad()) return "error reading '" + file + "'";
            report.lines += block.size();

            pool.run_slices(block.size(), [&](int t, std::size_t begin, std::size_t end) {
                Local& l = locals[std::size_t(t)];
                l.samples.clear();
                l.coefs.clear();
                l.errors.clear();
                for (std::size_t i = begin; i < end; ++i) {
                    if (block[i].empty()) continue;
                    if (auto err = read_data_line(block[i], l.line)) {
                        l.errors.emplace_back(base + i, std::move(*err));
                        continue;
                    }
                    Sample s{};
                    if (!make_sample(l.line.pos, l.line.score, l.line.result_halves, s,
                                     l.scratch)) {
                        ++l.dead;
                        continue;
                    }
                    l.samples.push_back(s);
                    l.coefs.insert(l.coefs.end(), l.scratch.begin(), l.scratch.end());
                }
            });

            for (Local& l : locals) {
                for (const auto& [at, why] : l.errors) {
                    const std::string where = file + ":" + std::to_string(at) + ": ";
                    if (!options.skip_bad) return where + why;
                    if (report.malformed++ < WARNINGS_SHOWN)
                        log << (progress_bar ? "\n" : "") << "warning: " << where << why
                            << " (line skipped)\n";
                }
                const Coefficient* c = l.coefs.data();
                for (const Sample& s : l.samples) {
                    data.add(s, c);
                    c += std::size_t(s.linear) + s.danger[WHITE] + s.danger[BLACK];
                    ++report.results[s.result];
                }
                report.dead_draws += std::exchange(l.dead, 0);
            }
            if (progress_bar && seconds_since(last_progress) > 0.25) {
                last_progress = Clock::now();
                log << "\rloading " << file << ": " << line_no << " lines, " << data.size()
                    << " positions, " << fixed(seconds_since(start), 1) << " s   " << std::flush;
            }
        }
    }
    if (progress_bar) log << "\r" << std::string(79, ' ') << "\r" << std::flush;
    if (report.malformed > WARNINGS_SHOWN)
        log << "warning: " << report.malformed << " malformed lines skipped in all (the first "
            << WARNINGS_SHOWN << " shown)\n";
    for (Local& l : locals) {
        std::vector<Sample>().swap(l.samples);
        std::vector<Coefficient>().swap(l.coefs);
    }
    report.seconds = seconds_since(start);
    return std::nullopt;
}

// ---------------------------------------------------------------------------------------
// The model

Weights weights_of(const EvalParams& params) {
    Weights w(PARAM_COUNT);
    for (int i = 0; i < WEIGHT_COUNT; ++i) {
        w[std::size_t(2 * i)] = params.weights[std::size_t(i)].mg;
        w[std::size_t(2 * i + 1)] = params.weights[std::size_t(i)].eg;
    }
    return w;
}

EvalParams rounded(const Weights& w) {
    EvalParams p;
    for (int i = 0; i < WEIGHT_COUNT; ++i)
        p.weights[std::size_t(i)] = Weight{int(std::lround(w[std::size_t(2 * i)])),
                                           int(std::lround(w[std::size_t(2 * i + 1)]))};
    p.seal();
    return p;
}

namespace {

// A sample's evaluation and what its gradient needs.
struct Forward {
    double eval = 0;
    double mg_factor = 0; // d eval / d mg: phase / PHASE_MAX
    double eg_factor = 0; // d eval / d eg: scale / SCALE_NORMAL · (PHASE_MAX - phase) / PHASE_MAX
    double danger_mg_slope[COLOR_NB]{}; // d king_danger_mg(d) / d d, at each colour's figure
    double danger_eg_slope[COLOR_NB]{};
};

inline Forward forward(const Sample& s, const Coefficient* c, const double* w) {
    Forward f;
    double mg = 0, eg = 0;
    for (const Coefficient* end = c + s.linear; c != end; ++c) {
        const double n = c->count;
        mg += n * w[2 * c->index];
        eg += n * w[2 * c->index + 1];
    }
    for (int colour = 0; colour < COLOR_NB; ++colour) {
        double dmg = 0, deg = 0;
        for (const Coefficient* end = c + s.danger[colour]; c != end; ++c) {
            const double n = c->count;
            dmg += n * w[2 * c->index];
            deg += n * w[2 * c->index + 1];
        }
        const double sign = colour == WHITE ? 1.0 : -1.0;
        if (dmg > 0) {
            const double d = std::min(dmg, double(KING_DANGER_CAP));
            mg += sign * d * d / KING_DANGER_MG_DIV;
            f.danger_mg_slope[colour] = dmg < KING_DANGER_CAP ? 2 * d / KING_DANGER_MG_DIV : 0.0;
        }
        if (deg > 0) {
            const double d = std::min(deg, double(KING_DANGER_CAP));
            eg += sign * d / KING_DANGER_EG_DIV;
            f.danger_eg_slope[colour] = deg < KING_DANGER_CAP ? 1.0 / KING_DANGER_EG_DIV : 0.0;
        }
    }
    const int scale = eg > 0 ? s.scale[WHITE] : s.scale[BLACK];
    f.mg_factor = double(s.phase) / PHASE_MAX;
    f.eg_factor = double(scale) / SCALE_NORMAL * double(PHASE_MAX - s.phase) / PHASE_MAX;
    f.eval = mg * f.mg_factor + eg * f.eg_factor;
    return f;
}

// Adds g · d eval / d w to grad.
inline void backward(const Sample& s, const Coefficient* c, const Forward& f, double g,
                     double* grad) {
    const double gm = g * f.mg_factor, ge = g * f.eg_factor;
    for (const Coefficient* end = c + s.linear; c != end; ++c) {
        const double n = c->count;
        grad[2 * c->index] += gm * n;
        grad[2 * c->index + 1] += ge * n;
    }
    for (int colour = 0; colour < COLOR_NB; ++colour) {
        const double sign = colour == WHITE ? 1.0 : -1.0;
        const double km = sign * gm * f.danger_mg_slope[colour];
        const double ke = sign * ge * f.danger_eg_slope[colour];
        const Coefficient* end = c + s.danger[colour];
        if (km == 0 && ke == 0) {
            c = end;
            continue;
        }
        for (; c != end; ++c) {
            const double n = c->count;
            grad[2 * c->index] += km * n;
            grad[2 * c->index + 1] += ke * n;
        }
    }
}

// Shuffled batches visit samples in random order: fetch the ones a few steps ahead early.
constexpr std::size_t PREFETCH_DISTANCE = 8;

inline void prefetch_ahead(const DataSet& data, std::span<const std::uint32_t> indices,
                           std::size_t i, std::size_t end) {
    if (i + 2 * PREFETCH_DISTANCE < end)
        __builtin_prefetch(&data.samples()[indices[i + 2 * PREFETCH_DISTANCE]]);
    if (i + PREFETCH_DISTANCE < end) {
        const Sample& s = data.samples()[indices[i + PREFETCH_DISTANCE]];
        const char* p = reinterpret_cast<const char*>(data.coefficients(s));
        const std::size_t bytes =
            (std::size_t(s.linear) + s.danger[WHITE] + s.danger[BLACK]) * sizeof(Coefficient);
        for (std::size_t off = 0; off < bytes; off += 64)
            __builtin_prefetch(p + off);
    }
}

inline double sigmoid(double z) {
    if (z >= 0) return 1.0 / (1.0 + std::exp(-z));
    const double e = std::exp(z);
    return e / (1.0 + e);
}

} // namespace

double evaluate_sample(const DataSet& data, const Sample& s, const double* w) {
    return forward(s, data.coefficients(s), w).eval;
}

int evaluate_sample_exact(const DataSet& data, const Sample& s, const EvalParams& params,
                          EvalTrace& scratch) {
    // Linear features enter as white's count minus black's, so the difference can stand as
    // white's count with black's zero.
    const Coefficient* c = data.coefficients(s);
    const std::size_t n = std::size_t(s.linear) + s.danger[WHITE] + s.danger[BLACK];
    const std::size_t white_end = std::size_t(s.linear) + s.danger[WHITE];
    for (std::size_t i = 0; i < n; ++i) {
        const Color colour = i < white_end ? WHITE : BLACK;
        scratch.counts[colour][std::size_t(c[i].index)] = c[i].count;
    }
    scratch.phase = s.phase;
    scratch.scale = {s.scale[WHITE], s.scale[BLACK]};
    scratch.dead_draw = false;
    const int e = evaluate_trace(scratch, params);
    for (std::size_t i = 0; i < n; ++i) {
        const Color colour = i < white_end ? WHITE : BLACK;
        scratch.counts[colour][std::size_t(c[i].index)] = 0;
    }
    return e;
}

double win_probability(double eval, double k) { return sigmoid(k * eval / 400.0); }

double target_of(const Sample& s, const Objective& objective) {
    const double result = s.result * 0.5;
    if (objective.lambda >= 1.0) return result;
    return objective.lambda * result +
           (1.0 - objective.lambda) * win_probability(s.score, objective.k);
}

double mean_loss(const DataSet& data, std::span<const std::uint32_t> indices, const double* w,
                 const Objective& objective, WorkerPool& pool) {
    if (indices.empty()) return 0;
    std::vector<double> sums(std::size_t(pool.size()), 0.0);
    pool.run_slices(indices.size(), [&](int t, std::size_t begin, std::size_t end) {
        double sum = 0;
        for (std::size_t i = begin; i < end; ++i) {
            prefetch_ahead(data, indices, i, end);
            const Sample& s = data.samples()[indices[i]];
            const double p = win_probability(evaluate_sample(data, s, w), objective.k);
            const double d = p - target_of(s, objective);
            sum += d * d;
        }
        sums[std::size_t(t)] = sum;
    });
    return std::accumulate(sums.begin(), sums.end(), 0.0) / double(indices.size());
}

double loss_gradient(const DataSet& data, std::span<const std::uint32_t> indices, const double* w,
                     const Objective& objective, WorkerPool& pool, double* grad) {
    std::fill(grad, grad + PARAM_COUNT, 0.0);
    if (indices.empty()) return 0;
    const std::size_t threads = std::size_t(pool.size());
    std::vector<std::vector<double>> local(threads, std::vector<double>(PARAM_COUNT, 0.0));
    std::vector<double> sums(threads, 0.0);
    const double slope = objective.k / 400.0;
    pool.run_slices(indices.size(), [&](int t, std::size_t begin, std::size_t end) {
        double* g = local[std::size_t(t)].data();
        double sum = 0;
        for (std::size_t i = begin; i < end; ++i) {
            prefetch_ahead(data, indices, i, end);
            const Sample& s = data.samples()[indices[i]];
            const Coefficient* c = data.coefficients(s);
            const Forward f = forward(s, c, w);
            const double p = sigmoid(slope * f.eval);
            const double d = p - target_of(s, objective);
            sum += d * d;
            backward(s, c, f, 2 * d * p * (1 - p) * slope, g);
        }
        sums[std::size_t(t)] = sum;
    });
    const double inv = 1.0 / double(indices.size());
    for (const auto& g : local)
        for (int i = 0; i < PARAM_COUNT; ++i)
            grad[i] += g[std::size_t(i)] * inv;
    return std::accumulate(sums.begin(), sums.end(), 0.0) * inv;
}

double fit_k(const DataSet& data, std::span<const std::uint32_t> indices, const double* w,
             WorkerPool& pool) {
    std::vector<float> evals(indices.size());
    pool.run_slices(indices.size(), [&](int, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
            evals[i] = float(evaluate_sample(data, data.samples()[indices[i]], w));
    });
    const auto error = [&](double k) {
        std::vector<double> sums(std::size_t(pool.size()), 0.0);
        pool.run_slices(indices.size(), [&](int t, std::size_t begin, std::size_t end) {
            double sum = 0;
            for (std::size_t i = begin; i < end; ++i) {
                const double d =
                    win_probability(evals[i], k) - data.samples()[indices[i]].result * 0.5;
                sum += d * d;
            }
            sums[std::size_t(t)] = sum;
        });
        return std::accumulate(sums.begin(), sums.end(), 0.0);
    };
    // Golden-section search on log K.
    const double ratio = (std::sqrt(5.0) - 1) / 2;
    double lo = std::log(0.01), hi = std::log(20.0);
    double x1 = hi - ratio * (hi - lo), x2 = lo + ratio * (hi - lo);
    double f1 = error(std::exp(x1)), f2 = error(std::exp(x2));
    while (hi - lo > 1e-5) {
        if (f1 <= f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - ratio * (hi - lo);
            f1 = error(std::exp(x1));
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + ratio * (hi - lo);
            f2 = error(std::exp(x2));
        }
    }
    return std::exp((lo + hi) / 2);
}

void Adam::step(double* w, const double* grad) {
    constexpr double BETA1 = 0.9, BETA2 = 0.999, EPSILON = 1e-8;
    ++t_;
    const double c1 = 1.0 - std::pow(BETA1, double(t_));
    const double c2 = 1.0 - std::pow(BETA2, double(t_));
    for (std::size_t i = 0; i < m_.size(); ++i) {
        m_[i] = BETA1 * m_[i] + (1 - BETA1) * grad[i];
        v_[i] = BETA2 * v_[i] + (1 - BETA2) * grad[i] * grad[i];
        w[i] -= lr_ * (m_[i] / c1) / (std::sqrt(v_[i] / c2) + EPSILON);
    }
}

// ---------------------------------------------------------------------------------------
// The WDL model

namespace {

// The parameters: a's four coefficients, then b's.
constexpr int WDL_PARAMS = 8;
using WdlVector = std::array<double, WDL_PARAMS>;

WdlModel model_of(const WdlVector& theta) {
    WdlModel m;
    std::copy(theta.begin(), theta.begin() + 4, m.a.begin());
    std::copy(theta.begin() + 4, theta.end(), m.b.begin());
    return m;
}

// Positions of one material and one score, by result.
struct WdlRow {
    double x, score;
    double losses, draws, wins;
};

double log_sigmoid(double z) {
    return z >= 0 ? -std::log1p(std::exp(-z)) : z - std::log1p(std::exp(z));
}

using WdlMatrix = std::array<WdlVector, WDL_PARAMS>;

// The mean log-likelihood of the rows under θ = (a0..a3, b0..b3) and, when asked, its gradient
// and the Fisher information (the expected negative Hessian). -infinity where a(x) or b(x) is
// not positive at some row: the probabilities would not be a distribution.
struct WdlFit {
    double ll = 0;
    WdlVector grad{};
    WdlMatrix fisher{};
};

WdlFit wdl_evaluate(const std::vector<WdlRow>& rows, double total, const WdlVector& theta,
                    bool derivatives, WorkerPool& pool) {
    const WdlModel model = model_of(theta);
    std::vector<WdlFit> parts(std::size_t(pool.size()));
    pool.run_slices(rows.size(), [&](int t, std::size_t begin, std::size_t end) {
        WdlFit& f = parts[std::size_t(t)];
        for (std::size_t i = begin; i < end; ++i) {
            const WdlRow& r = rows[i];
            const double a = model.a_at(r.x), b = model.b_at(r.x);
            if (!(a > 0) || !(b > 0)) {
                f.ll = -std::numeric_limits<double>::infinity();
                return;
            }
            const double uw = (a - r.score) / b, ul = (a + r.score) / b;
            const double pw = sigmoid(-uw), pl = sigmoid(-ul);
            // 1 - pw - pl without cancelling large terms away.
            const double pd = std::max(r.score >= 0 ? sigmoid(uw) - pl : sigmoid(ul) - pw, 1e-300);
            f.ll +=
                r.wins * log_sigmoid(-uw) + r.losses * log_sigmoid(-ul) + r.draws * std::log(pd);
            if (!derivatives) continue;
            // The probabilities' derivatives by a and by b, and the same divided by the
            // probability (written out, as pw or pl may underflow to 0).
            const double dw = pw * (1 - pw), dl = pl * (1 - pl);
            const double pw_a = -dw / b, pw_b = dw * uw / b;
            const double pl_a = -dl / b, pl_b = dl * ul / b;
            const double pd_a = -pw_a - pl_a, pd_b = -pw_b - pl_b;
            const double rw_a = -(1 - pw) / b, rw_b = (1 - pw) * uw / b;
            const double rl_a = -(1 - pl) / b, rl_b = (1 - pl) * ul / b;
            const double rd_a = pd_a / pd, rd_b = pd_b / pd;
            const double ga = r.wins * rw_a + r.losses * rl_a + r.draws * rd_a;
            const double gb = r.wins * rw_b + r.losses * rl_b + r.draws * rd_b;
            // Fisher information: n · Σ over outcomes of (dp/dθ)(dp/dθ)ᵀ / p.
            const double n = r.wins + r.draws + r.losses;
            const double saa = n * (pw_a * rw_a + pl_a * rl_a + pd_a * rd_a);
            const double sab = n * (pw_a * rw_b + pl_a * rl_b + pd_a * rd_b);
            const double sbb = n * (pw_b * rw_b + pl_b * rl_b + pd_b * rd_b);
            // a and b are the cubics' coefficients times (x^3, x^2, x, 1).
            const double v[4] = {r.x * r.x * r.x, r.x * r.x, r.x, 1};
            for (int j = 0; j < 4; ++j) {
                f.grad[std::size_t(j)] += ga * v[j];
                f.grad[std::size_t(4 + j)] += gb * v[j];
                for (int k = 0; k < 4; ++k) {
                    const double vv = v[j] * v[k];
                    f.fisher[std::size_t(j)][std::size_t(k)] += saa * vv;
                    f.fisher[std::size_t(j)][std::size_t(4 + k)] += sab * vv;
                    f.fisher[std::size_t(4 + j)][std::size_t(k)] += sab * vv;
                    f.fisher[std::size_t(4 + j)][std::size_t(4 + k)] += sbb * vv;
                }
            }
        }
    });
    WdlFit sum;
    for (const WdlFit& f : parts) {
        sum.ll += f.ll;
        for (int j = 0; j < WDL_PARAMS; ++j) {
            sum.grad[std::size_t(j)] += f.grad[std::size_t(j)] / total;
            for (int k = 0; k < WDL_PARAMS; ++k)
                sum.fisher[std::size_t(j)][std::size_t(k)] +=
                    f.fisher[std::size_t(j)][std::size_t(k)] / total;
        }
    }
    sum.ll /= total;
    return sum;
}

// Solves A x = y (Gaussian elimination, partial pivoting); false when singular.
bool solve(WdlMatrix a, WdlVector y, WdlVector& x) {
    constexpr int n = WDL_PARAMS;
    for (int col = 0; col < n; ++col) {
        int pivot = col;
        for (int r = col + 1; r < n; ++r)
            if (std::abs(a[std::size_t(r)][std::size_t(col)]) >
                std::abs(a[std::size_t(pivot)][std::size_t(col)]))
                pivot = r;
        if (!(std::abs(a[std::size_t(pivot)][std::size_t(col)]) > 1e-300)) return false;
        std::swap(a[std::size_t(pivot)], a[std::size_t(col)]);
        std::swap(y[std::size_t(pivot)], y[std::size_t(col)]);
        for (int r = col + 1; r < n; ++r) {
            const double f =
                a[std::size_t(r)][std::size_t(col)] / a[std::size_t(col)][std::size_t(col)];
            for (int k = col; k < n; ++k)
                a[std::size_t(r)][std::size_t(k)] -= f * a[std::size_t(col)][std::size_t(k)];
            y[std::size_t(r)] -= f * y[std::size_t(col)];
        }
    }
    for (int r = n - 1; r >= 0; --r) {
        double v = y[std::size_t(r)];
        for (int k = r + 1; k < n; ++k)
            v -= a[std::size_t(r)][std::size_t(k)] * x[std::size_t(k)];
        x[std::size_t(r)] = v / a[std::size_t(r)][std::size_t(r)];
    }
    return std::all_of(x.begin(), x.end(), [](double v) { return std::isfinite(v); });
}

} // namespace

std::optional<WdlModel> fit_wdl(const std::vector<WdlPoint>& points, WorkerPool& pool,
                                WdlFitReport* report) {
    // Group the points by (clamped material, score): the fit then walks the groups only.
    constexpr std::int64_t SPAN = 200000, OFFSET = 100000;
    std::vector<std::pair<std::int64_t, int>> keyed;
    keyed.reserve(points.size());
    std::int64_t outcomes[3] = {};
    for (const WdlPoint& p : points) {
        const std::int64_t m =
            std::clamp(p.material, WdlModel::MATERIAL_MIN, WdlModel::MATERIAL_MAX);
        keyed.emplace_back(m * SPAN + (std::clamp(p.score, -99999, 99999) + OFFSET),
                           p.result_halves);
        ++outcomes[std::clamp(p.result_halves, 0, 2)];
    }
    if (!outcomes[0] || !outcomes[1] || !outcomes[2]) return std::nullopt;
    std::sort(keyed.begin(), keyed.end());
    std::vector<WdlRow> rows;
    for (std::size_t i = 0; i < keyed.size();) {
        const std::int64_t key = keyed[i].first;
        WdlRow r{WdlModel::x_of(int(key / SPAN)), double(key % SPAN - OFFSET), 0, 0, 0};
        for (; i < keyed.size() && keyed[i].first == key; ++i) {
            const int res = keyed[i].second;
            (res == 2 ? r.wins : res == 1 ? r.draws : r.losses) += 1;
        }
        rows.push_back(r);
    }
    std::vector<std::pair<std::int64_t, int>>().swap(keyed);
    const double total = double(points.size());

    // Start from the best constant a and b on a coarse grid.
    WdlVector theta{};
    double best = -std::numeric_limits<double>::infinity();
    for (double a = 10; a < 1000; a *= 3)
        for (double b = 10; b < 1000; b *= 3) {
            const WdlVector t{0, 0, 0, a, 0, 0, 0, b};
            const double ll = wdl_evaluate(rows, total, t, false, pool).ll;
            if (ll > best) {
                best = ll;
                theta = t;
            }
        }
    if (!std::isfinite(best)) return std::nullopt;

    // Fisher scoring, damped Levenberg-Marquardt style until each step gains.
    WdlFit fit = wdl_evaluate(rows, total, theta, true, pool);
    double damping = 1e-3;
    int iter = 0;
    for (; iter < 500; ++iter) {
        bool improved = false;
        double gain = 0;
        while (damping < 1e12) {
            WdlMatrix a = fit.fisher;
            for (int i = 0; i < WDL_PARAMS; ++i)
                a[std::size_t(i)][std::size_t(i)] *= 1 + damping;
            WdlVector step{};
            if (solve(a, fit.grad, step)) {
                WdlVector trial = theta;
                for (int i = 0; i < WDL_PARAMS; ++i)
                    trial[std::size_t(i)] += step[std::size_t(i)];
                const double trial_ll = wdl_evaluate(rows, total, trial, false, pool).ll;
                if (trial_ll > fit.ll) {
                    gain = trial_ll - fit.ll;
                    theta = trial;
                    fit = wdl_evaluate(rows, total, theta, true, pool);
                    damping = std::max(damping / 10, 1e-9);
                    improved = true;
                    break;
                }
            }
            damping *= 10;
        }
        if (!improved || gain < 1e-12) break;
    }
    if (report) *report = WdlFitReport{fit.ll, rows.size(), iter};
    return model_of(theta);
}

// ---------------------------------------------------------------------------------------
// Output

namespace {

// A JSON value on one line, with a space after each ':' and ',' (the style of engine.json).
std::string one_line(const nlohmann::ordered_json& j) {
    std::string s;
    if (j.is_object()) {
        s += '{';
        bool first = true;
        for (const auto& [key, value] : j.items()) {
            if (!first) s += ", ";
            first = false;
            s += nlohmann::ordered_json(key).dump() + ": " + one_line(value);
        }
        return s + '}';
    }
    if (j.is_array()) {
        s += '[';
        for (std::size_t i = 0; i < j.size(); ++i) {
            if (i) s += ", ";
            s += one_line(j[i]);
        }
        return s + ']';
    }
    return j.dump();
}

std::string decimal(double v) {
    if (std::abs(v) < 0.0005) v = 0;
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

std::string eval_section(const EvalParams& params) {
    constexpr int PER_LINE = 8;
    std::string s = "{\n";
    for (int t = 0; t < TERM_COUNT; ++t) {
        const auto pair = [&](int i) {
            const Weight w = params.weights[std::size_t(TERM_OFFSETS[t] + i)];
            return "[" + std::to_string(w.mg) + ", " + std::to_string(w.eg) + "]";
        };
        s += "    \"" + std::string(TERM_NAMES[t]) + "\": [";
        if (TERM_SIZES[t] <= PER_LINE) {
            for (int i = 0; i < TERM_SIZES[t]; ++i) {
                if (i) s += ", ";
                s += pair(i);
            }
            s += "]";
        } else {
            for (int i = 0; i < TERM_SIZES[t]; ++i) {
                if (i % PER_LINE == 0)
                    s += i ? ",\n      " : "\n      ";
                else
                    s += ", ";
                s += pair(i);
            }
            s += "\n    ]";
        }
        s += t + 1 < TERM_COUNT ? ",\n" : "\n";
    }
    return s + "  }";
}

std::string decimals(const WdlModel::Cubic& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i) s += ", ";
        s += decimal(v[i]);
    }
    return s + "]";
}

std::string wdl_section(const WdlModel& m) {
    return "{\"a\": " + decimals(m.a) + ", \"b\": " + decimals(m.b) + "}";
}

} // namespace

std::string format_config(const nlohmann::ordered_json& start, const EvalParams& params,
                          const std::optional<WdlModel>& wdl) {
    std::vector<std::pair<std::string, std::string>> sections;
    bool has_eval = false, has_wdl = false;
    for (const auto& [key, value] : start.items()) {
        if (key == "eval") {
            sections.emplace_back(key, eval_section(params));
            has_eval = true;
        } else if (key == "wdl" && wdl) {
            sections.emplace_back(key, wdl_section(*wdl));
            has_wdl = true;
        } else {
            sections.emplace_back(key, one_line(value));
        }
    }
    if (!has_eval) sections.emplace_back("eval", eval_section(params));
    if (wdl && !has_wdl) sections.emplace_back("wdl", wdl_section(*wdl));
    std::string s = "{\n";
    for (std::size_t i = 0; i < sections.size(); ++i)
        s += "  " + nlohmann::ordered_json(sections[i].first).dump() + ": " + sections[i].second +
             (i + 1 < sections.size() ? ",\n" : "\n");
    return s + "}\n";
}

} // namespace tune

// ---------------------------------------------------------------------------------------
// The command

namespace {

using namespace tune;

std::string duration_text(double secs) {
    if (secs < 120) return fixed(secs, 1) + " s";
    const long s = std::lround(secs);
    return std::to_string(s / 60) + " min " + std::to_string(s % 60) + " s";
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
sigmoid(K * score / 400). Weights are rounded to integers at the end. The win/draw/loss model
is then fitted to the results with the tuned evaluation. The output is a complete engine.json.
)";

struct TuneSettings {
    std::vector<std::string> data;
    std::string out;
    std::string start;
    int epochs = 50;
    double lr = 0.5;
    std::int64_t batch = 16384;
    int threads = 1;
    double lambda = 1.0;
    std::uint64_t max_positions = 0;
    std::uint64_t seed = 1;
    std::optional<double> k;
    double holdout = 0.05;
    std::uint64_t min_count = 0; // weights seen in fewer training positions stay as they start
    bool skip_bad = false;
    bool wdl = true;
};

// The starting configuration: the weights and the sections to copy into the output.
std::optional<std::string> read_start(const std::string& path, nlohmann::ordered_json& config,
                                      EvalParams& params) {
    nlohmann::ordered_json builtin = nlohmann::ordered_json::parse(ENGINE_JSON);
    if (path.empty()) {
        config = builtin;
        params = default_eval_params();
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot open start file '" + path + "'";
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::ordered_json j;
    try {
        j = nlohmann::ordered_json::parse(text.str());
    } catch (const std::exception& e) {
        return path + ": not valid JSON: " + e.what();
    }
    if (!j.is_object() || !j.contains("eval")) return path + ": no \"eval\" section";
    if (auto err = EvalParams::from_json(nlohmann::json::parse(j["eval"].dump()), params))
        return path + ": " + *err;
    if (!j.contains("engine")) {
        // The identity of the built-in configuration, first as in engine.json.
        nlohmann::ordered_json with;
        with["engine"] = builtin["engine"];
        for (const auto& [key, value] : j.items())
            with[key] = value;
        j = with;
    }
    config = j;
    return std::nullopt;
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

// The epoch's order of the training samples 0..n-1 (already in a random order in memory):
// runs of consecutive samples, the runs shuffled, so that every epoch draws new batches while
// memory is still read mostly in sequence.
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

class ProgressBar {
public:
    ProgressBar(std::ostream& err, bool enabled) : err_(err), enabled_(enabled) {}
    // `done` of the whole run (0..1), shown with the elapsed time and an estimate of the rest.
    void show(const std::string& label, double done, double elapsed) {
        if (!enabled_ || seconds_since(last_) < 0.2) return;
        last_ = Clock::now();
        constexpr int WIDTH = 30;
        const int filled = std::clamp(int(done * WIDTH), 0, WIDTH);
        err_ << "\r" << label << " [" << std::string(std::size_t(filled), '#')
             << std::string(std::size_t(WIDTH - filled), '.') << "] " << fixed(done * 100, 1)
             << "%";
        if (done > 0.001) err_ << "  ETA " << duration_text(elapsed / done - elapsed);
        err_ << "      " << std::flush;
    }
    void clear() {
        if (enabled_) err_ << "\r" << std::string(79, ' ') << "\r" << std::flush;
    }

private:
    std::ostream& err_;
    bool enabled_;
    Clock::time_point last_{};
};

int run_tuning(const TuneSettings& o, std::ostream& out, std::ostream& err, bool interactive) {
    const auto run_start = Clock::now();
    nlohmann::ordered_json config;
    EvalParams start_params;
    if (auto e = read_start(o.start, config, start_params)) {
        err << "horizon tune: " << *e << "\n";
        return 2;
    }
    WorkerPool pool(o.threads);

    // Loading.
    DataSet data;
    LoadReport report;
    LoadOptions load{o.data, o.max_positions, o.skip_bad};
    out << "Loading " << o.data.size() << " file" << (o.data.size() == 1 ? "" : "s") << " with "
        << pool.size() << " thread" << (pool.size() == 1 ? "" : "s") << "\n"
        << std::flush;
    if (auto e = load_data(load, pool, data, report, err, interactive)) {
        err << "horizon tune: " << *e << "\n";
        return 2;
    }
    if (data.size() < 2) {
        err << "horizon tune: no usable positions in the data (" << report.data_lines
            << " data lines, " << report.dead_draws << " dead draws)\n";
        return 2;
    }
    const std::size_t n = data.size();
    out << "Loaded " << n << " positions from " << report.data_lines << " data lines in "
        << fixed(report.seconds, 2) << " s (" << fixed(double(n) / report.seconds / 1000, 1)
        << "k/s); skipped " << report.dead_draws << " dead draws, " << report.malformed
        << " malformed lines\n"
        << "Results (white's view): " << report.results[2] << " wins, " << report.results[1]
        << " draws, " << report.results[0] << " losses\n"
        << "Memory: " << fixed(double(data.bytes()) / (1 << 20), 1) << " MiB ("
        << fixed(double(data.bytes()) / double(n), 1) << " bytes and "
        << fixed(double(data.coefficient_count()) / double(n), 1)
        << " coefficients per position); peak RSS " << peak_memory_kib() / 1024 << " MiB\n";

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
        out << "Shuffled the samples in " << fixed(seconds_since(t0), 2) << " s\n";
    }
    std::vector<std::uint32_t> train(n - valid_n), valid(valid_n);
    std::iota(train.begin(), train.end(), 0u);
    std::iota(valid.begin(), valid.end(), std::uint32_t(n - valid_n));
    out << "Training on " << train.size() << " positions, validating on " << valid.size() << "\n";

    Weights w = weights_of(start_params);
    Objective objective{1.0, o.lambda};
    if (o.k) {
        objective.k = *o.k;
        out << "K = " << fixed(objective.k, 4) << " (given)\n";
    } else {
        const auto t0 = Clock::now();
        objective.k = fit_k(data, train, w.data(), pool);
        Objective on_results{objective.k, 1.0};
        out << "K = " << fixed(objective.k, 4) << " (fitted on the starting weights: MSE "
            << fixed(mean_loss(data, train, w.data(), on_results, pool), 6) << ", "
            << fixed(seconds_since(t0), 2) << " s)\n";
    }

    // "train X  valid Y" for the given weights.
    const auto losses = [&](const Weights& weights) {
        std::string text =
            "train " + fixed(mean_loss(data, train, weights.data(), objective, pool), 6);
        if (!valid.empty())
            text += "  valid " + fixed(mean_loss(data, valid, weights.data(), objective, pool), 6);
        return text;
    };
    const int width = int(std::to_string(o.epochs).size());
    const auto epoch_label = [&](int e) {
        std::string s = std::to_string(e);
        return "epoch " + std::string(std::size_t(std::max(0, width - int(s.size()))), ' ') + s +
               "/" + std::to_string(o.epochs);
    };
    out << epoch_label(0) << "  " << losses(w) << "\n" << std::flush;

    // Weights that too few positions use would only fit noise: they keep their start.
    std::vector<bool> frozen(PARAM_COUNT, false);
    if (o.min_count > 0) {
        std::vector<std::uint64_t> uses(WEIGHT_COUNT, 0);
        for (std::uint32_t i : train) {
            const Sample& sample = data.samples()[i];
            const Coefficient* c = data.coefficients(sample);
            const int total = sample.linear + sample.danger[WHITE] + sample.danger[BLACK];
            for (int j = 0; j < total; ++j)
                ++uses[std::size_t(c[j].index)];
        }
        int count = 0;
        for (int i = 0; i < WEIGHT_COUNT; ++i)
            if (uses[std::size_t(i)] < o.min_count) {
                frozen[std::size_t(2 * i)] = frozen[std::size_t(2 * i + 1)] = true;
                ++count;
            }
        out << "Frozen: " << count << " of " << WEIGHT_COUNT << " weights (used by fewer than "
            << o.min_count << " training positions)\n";
    }

    // Adam over mini-batches.
    Adam adam(PARAM_COUNT, o.lr);
    std::vector<double> grad(PARAM_COUNT);
    const std::size_t batch =
        o.batch <= 0 || std::size_t(o.batch) >= train.size() ? train.size() : std::size_t(o.batch);
    std::vector<std::uint32_t> shuffled;
    ProgressBar bar(err, interactive);
    const auto train_start = Clock::now();
    double step_seconds_total = 0, loss_seconds_total = 0;
    for (int epoch = 1; epoch <= o.epochs; ++epoch) {
        const auto t0 = Clock::now();
        if (batch < train.size()) shuffle_in_runs(train.size(), rng, shuffled);
        const std::vector<std::uint32_t>& pass = batch < train.size() ? shuffled : train;
        for (std::size_t b = 0; b < pass.size(); b += batch) {
            const std::size_t len = std::min(batch, pass.size() - b);
            loss_gradient(data, std::span(pass.data() + b, len), w.data(), objective, pool,
                          grad.data());
            for (std::size_t i = 0; i < frozen.size(); ++i)
                if (frozen[i]) grad[i] = 0;
            adam.step(w.data(), grad.data());
            const double done =
                (epoch - 1 + double(b + len) / double(pass.size())) / double(o.epochs);
            bar.show(epoch_label(epoch), done, seconds_since(train_start));
        }
        step_seconds_total += seconds_since(t0);
        const auto t1 = Clock::now();
        const std::string text = losses(w);
        loss_seconds_total += seconds_since(t1);
        bar.clear();
        const double elapsed = seconds_since(train_start);
        out << epoch_label(epoch) << "  " << text << "  (" << fixed(seconds_since(t0), 2)
            << " s, ETA " << duration_text(elapsed / epoch * (o.epochs - epoch)) << ")\n"
            << std::flush;
    }

    const EvalParams tuned = rounded(w);
    if (o.epochs > 0) {
        out << "Integer weights: " << losses(weights_of(tuned)) << "\n";
        int changed = 0;
        for (int i = 0; i < WEIGHT_COUNT; ++i)
            changed += tuned.weights[std::size_t(i)].mg != start_params.weights[std::size_t(i)].mg;
        for (int i = 0; i < WEIGHT_COUNT; ++i)
            changed += tuned.weights[std::size_t(i)].eg != start_params.weights[std::size_t(i)].eg;
        out << "Weights changed: " << changed << " of " << PARAM_COUNT << "\n";
        const double steps = step_seconds_total / o.epochs, loss = loss_seconds_total / o.epochs;
        out << "Time per epoch: " << fixed(steps + loss, 2) << " s: " << fixed(steps, 2)
            << " s of gradient steps over " << train.size() << " positions ("
            << fixed(steps / double(train.size()) * 1e9, 0) << " ns each; batch " << batch << ", "
            << pool.size() << " threads), " << fixed(loss, 2) << " s for the losses\n";
    }

    // The WDL model, on every position with the tuned integer evaluation.
    std::optional<WdlModel> wdl;
    if (o.wdl) {
        const auto t0 = Clock::now();
        std::vector<WdlPoint> points(n);
        pool.run_slices(n, [&](int, std::size_t begin, std::size_t end) {
            auto scratch = std::make_unique<EvalTrace>();
            for (std::size_t i = begin; i < end; ++i) {
                const Sample& s = data.samples()[i];
                points[i] = {evaluate_sample_exact(data, s, tuned, *scratch), s.material, s.result};
            }
        });
        const double eval_seconds = seconds_since(t0);
        const auto t1 = Clock::now();
        WdlFitReport fit;
        wdl = fit_wdl(points, pool, &fit);
        if (!wdl) {
            out << "WDL model: not fitted (the data needs wins, draws and losses)\n";
        } else {
            out << "WDL model: mean log-likelihood " << fixed(fit.mean_log_likelihood, 5) << " ("
                << fit.groups << " (material, score) groups, " << fit.iterations
                << " iterations; evaluations " << fixed(eval_seconds, 2) << " s, fit "
                << fixed(seconds_since(t1), 2) << " s)\n  a = [";
            for (int i = 0; i < 4; ++i)
                out << (i ? ", " : "") << fixed(wdl->a[std::size_t(i)], 3);
            out << "]\n  b = [";
            for (int i = 0; i < 4; ++i)
                out << (i ? ", " : "") << fixed(wdl->b[std::size_t(i)], 3);
            out << "]\n";
            print_wdl_table(*wdl, out);
        }
    }
    if (!wdl && config.contains("wdl"))
        out << "Note: the start file's \"wdl\" section is copied unchanged; it was fitted to "
               "other weights\n";

    // The output, written whole and checked.
    const std::string text = format_config(config, tuned, wdl);
    const std::string tmp = o.out + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f << text;
        f.close();
        if (!f) {
            err << "horizon tune: cannot write '" << tmp << "'\n";
            return 2;
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, o.out, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        err << "horizon tune: cannot rename '" << tmp << "' to '" << o.out << "': " << ec.message()
            << "\n";
        return 2;
    }
    EvalParams check;
    const auto written = nlohmann::json::parse(text);
    if (auto e = EvalParams::from_json(written.at("eval"), check)) {
        err << "horizon tune: the written file does not load: " << *e << "\n";
        return 2;
    }
    out << "Wrote " << o.out << " (" << duration_text(seconds_since(run_start))
        << " in all, peak RSS " << peak_memory_kib() / 1024 << " MiB)\n";
    return 0;
}

} // namespace

int run_tune(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    cxxopts::Options options("horizon tune",
                             "Fit the evaluation weights and the WDL model to labelled positions.");
    // clang-format off
    options.add_options()
        ("data", "data file (repeat, or separate with commas)", cxxopts::value<std::vector<std::string>>())
        ("out", "output engine.json (required)", cxxopts::value<std::string>())
        ("start", "starting weights: an engine.json-style file (default: the built-in weights)", cxxopts::value<std::string>())
        ("epochs", "passes over the training set", cxxopts::value<int>()->default_value("50"))
        ("lr", "Adam learning rate (centipawns per step)", cxxopts::value<double>()->default_value("0.5"))
        ("batch", "positions per step (0 = the whole training set)", cxxopts::value<std::int64_t>()->default_value("16384"))
        ("threads", "worker threads (default: the hardware's)", cxxopts::value<int>()->default_value(std::to_string(hw)))
        ("lambda", "weight of the game result in the target (the rest: the search score)", cxxopts::value<double>()->default_value("1.0"))
        ("max-positions", "read at most N data lines (0 = all)", cxxopts::value<std::uint64_t>()->default_value("0"))
        ("seed", "seed of the validation split and the batch order", cxxopts::value<std::uint64_t>()->default_value("1"))
        ("k", "(or --k) the sigmoid scale K; skips its fit", cxxopts::value<double>())
        ("holdout", "fraction of positions held out for the validation loss (0 = none)", cxxopts::value<double>()->default_value("0.05"))
        ("min-count", "keep a weight at its starting value when fewer than N training positions use it", cxxopts::value<std::uint64_t>()->default_value("0"))
        ("skip-bad", "warn about malformed data lines and skip them (default: stop at the first)")
        ("no-wdl", "do not fit the win/draw/loss model")
        ("h,help", "show this help");
    // clang-format on
    // cxxopts takes a one-letter name for a short option only: read --k as -k.
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
    std::vector<const char*> word_ptrs;
    for (const auto& word : words)
        word_ptrs.push_back(word.c_str());
    cxxopts::ParseResult args;
    try {
        args = options.parse(int(word_ptrs.size()), word_ptrs.data());
    } catch (const std::exception& e) {
        err << "horizon tune: " << e.what() << "\n" << options.help();
        return 2;
    }
    if (args.count("help")) {
        out << options.help() << HELP_FOOTER;
        return 0;
    }
    TuneSettings o;
    try {
        if (!args.unmatched().empty())
            throw std::invalid_argument("unexpected argument '" + args.unmatched()[0] + "'");
        if (!args.count("data")) throw std::invalid_argument("give at least one --data FILE");
        if (!args.count("out")) throw std::invalid_argument("give --out FILE");
        o.data = args["data"].as<std::vector<std::string>>();
        o.data.erase(std::remove(o.data.begin(), o.data.end(), std::string()), o.data.end());
        if (o.data.empty()) throw std::invalid_argument("give at least one --data FILE");
        o.out = args["out"].as<std::string>();
        if (args.count("start")) o.start = args["start"].as<std::string>();
        o.epochs = args["epochs"].as<int>();
        o.lr = args["lr"].as<double>();
        o.batch = args["batch"].as<std::int64_t>();
        o.threads = args["threads"].as<int>();
        o.lambda = args["lambda"].as<double>();
        o.max_positions = args["max-positions"].as<std::uint64_t>();
        o.seed = args["seed"].as<std::uint64_t>();
        if (args.count("k")) o.k = args["k"].as<double>();
        o.holdout = args["holdout"].as<double>();
        o.min_count = args["min-count"].as<std::uint64_t>();
        o.skip_bad = args.count("skip-bad") > 0;
        o.wdl = args.count("no-wdl") == 0;
        if (o.epochs < 0) throw std::invalid_argument("--epochs must not be negative");
        if (!(o.lr > 0) || !std::isfinite(o.lr))
            throw std::invalid_argument("--lr must be positive");
        if (o.batch < 0) throw std::invalid_argument("--batch must not be negative");
        if (o.threads < 1 || o.threads > 1024)
            throw std::invalid_argument("--threads must be 1..1024");
        if (!(o.lambda >= 0 && o.lambda <= 1))
            throw std::invalid_argument("--lambda must be in [0, 1]");
        if (o.k && !(*o.k > 0 && std::isfinite(*o.k)))
            throw std::invalid_argument("--k must be positive");
        if (!(o.holdout >= 0 && o.holdout <= 0.5))
            throw std::invalid_argument("--holdout must be in [0, 0.5]");
        const auto dir = std::filesystem::path(o.out).parent_path();
        if (!dir.empty() && !std::filesystem::is_directory(dir))
            throw std::invalid_argument("the directory of --out, '" + dir.string() +
                                        "', does not exist");
        if (std::filesystem::is_directory(o.out))
            throw std::invalid_argument("--out '" + o.out + "' is a directory");
        for (const auto& file : o.data)
            if (std::filesystem::is_directory(file))
                throw std::invalid_argument("--data '" + file + "' is a directory");
    } catch (const std::exception& e) {
        err << "horizon tune: " << e.what() << " (horizon tune --help lists the options)\n";
        return 2;
    }
    try {
        const bool interactive = &err == &std::cerr && is_terminal(stderr);
        return run_tuning(o, out, err, interactive);
    } catch (const std::exception& e) {
        err << "horizon tune: " << e.what() << "\n";
        return 2;
    }
}

int tune_main(int argc, const char* const* argv) {
    return run_tune(argc, argv, std::cout, std::cerr);
}

} // namespace horizon
