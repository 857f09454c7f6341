#include "train/wdl_fit.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include "train/logistic.hpp"

namespace horizon {

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

} // namespace horizon
