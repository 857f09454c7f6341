// The WDL fit: eval/wdl's model recovered from results drawn from a known one.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "eval/wdl.hpp"
#include "train/pool.hpp"
#include "train/wdl_fit.hpp"

using namespace horizon;

TEST_CASE("tune: the WDL fit recovers a known model", "[tune]") {
    WdlModel truth;
    truth.a = {-40.0, 90.0, 30.0, 120.0};
    truth.b = {10.0, -20.0, 40.0, 60.0};
    std::mt19937_64 rng(5);
    std::uniform_int_distribution<int> score(-700, 700), material(10, 80);
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<WdlPoint> points;
    for (int i = 0; i < 40000; ++i) {
        const int s = score(rng), m = material(rng);
        const WdlProbabilities p = truth.probabilities(s, m);
        REQUIRE(p.draw >= 0);
        const double r = u(rng);
        points.push_back({s, m, r < p.win ? 2 : r < p.win + p.draw ? 1 : 0});
    }
    WorkerPool pool(2);
    WdlFitReport report;
    const auto fitted = fit_wdl(points, pool, &report);
    REQUIRE(fitted);
    CHECK(report.mean_log_likelihood < 0);
    CHECK(report.groups > 1000);
    CHECK(report.iterations > 0);
    for (int m : {20, 40, 58, 78})
        for (int s : {-300, 0, 100, 400}) {
            INFO("material " << m << ", score " << s);
            const WdlProbabilities want = truth.probabilities(s, m);
            const WdlProbabilities got = fitted->probabilities(s, m);
            CHECK(std::abs(got.win - want.win) < 0.04);
            CHECK(std::abs(got.draw - want.draw) < 0.04);
            CHECK(std::abs(got.loss - want.loss) < 0.04);
        }
    // Without all three outcomes there is no model.
    std::vector<WdlPoint> decisive;
    for (const WdlPoint& p : points)
        if (p.result_halves != 1) decisive.push_back(p);
    CHECK_FALSE(fit_wdl(decisive, pool, nullptr));
}
