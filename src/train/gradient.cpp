#include "train/gradient.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "train/logistic.hpp"

namespace horizon {

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
    double mg_factor = 0; // d eval / d mg: middlegame_scale / SCALE_NORMAL · phase / PHASE_MAX
    double eg_factor = 0; // d eval / d eg: scale / SCALE_NORMAL · (PHASE_MAX - phase) / PHASE_MAX
    double danger_mg_slope[COLOR_NB]{}; // d king_danger_mg(d) / d d, at each colour's figure
    double danger_eg_slope[COLOR_NB]{};
    // with_complexity(eg, c): d / d eg is 1 unless c clamps eg to 0, then 0 (eg_pass);
    // d / d c is sign(eg) unless clamped (complexity).
    double eg_pass = 1;
    double complexity = 0;
};

// with_complexity for the tuner: moves x, and says how x and c pass into the result.
inline double moved_by_complexity(double x, double c, double& pass, double& slope) {
    if (x == 0) {
        slope = 0;
        return 0;
    }
    const double sign = x > 0 ? 1.0 : -1.0;
    if (c > -std::abs(x)) {
        slope = sign;
        return x + sign * c;
    }
    pass = 0;
    slope = 0;
    return 0;
}

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
    double complexity = 0; // endgame weights only
    for (const Coefficient* end = c + s.complexity; c != end; ++c)
        complexity += c->count * w[2 * c->index + 1];
    const int scale = eg > 0 ? s.scale[WHITE] : s.scale[BLACK];
    eg = moved_by_complexity(eg, complexity, f.eg_pass, f.complexity);
    f.mg_factor = double(middlegame_scale(scale)) / SCALE_NORMAL * double(s.phase) / PHASE_MAX;
    f.eg_factor = double(scale) / SCALE_NORMAL * double(PHASE_MAX - s.phase) / PHASE_MAX;
    f.eval = mg * f.mg_factor + eg * f.eg_factor;
    return f;
}

// Adds g · d eval / d w to grad.
inline void backward(const Sample& s, const Coefficient* c, const Forward& f, double g,
                     double* grad) {
    const double ce = g * f.eg_factor * f.complexity;
    const double gm = g * f.mg_factor, ge = g * f.eg_factor * f.eg_pass;
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
    for (const Coefficient* end = c + s.complexity; c != end; ++c)
        grad[2 * c->index + 1] += ce * c->count;
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
        const std::size_t bytes = s.coefficient_count() * sizeof(Coefficient);
        for (std::size_t off = 0; off < bytes; off += 64)
            __builtin_prefetch(p + off);
    }
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
    // Complexity counts are white's too (TraceSink keeps them there).
    const std::size_t n = s.coefficient_count();
    const std::size_t white_end = std::size_t(s.linear) + s.danger[WHITE];
    const std::size_t black_end = white_end + s.danger[BLACK];
    for (std::size_t i = 0; i < n; ++i) {
        const Color colour = i < white_end || i >= black_end ? WHITE : BLACK;
        scratch.counts[colour][std::size_t(c[i].index)] = c[i].count;
    }
    scratch.phase = s.phase;
    scratch.scale = {s.scale[WHITE], s.scale[BLACK]};
    scratch.dead_draw = false;
    const int e = evaluate_trace(scratch, params);
    for (std::size_t i = 0; i < n; ++i) {
        const Color colour = i < white_end || i >= black_end ? WHITE : BLACK;
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

} // namespace horizon
