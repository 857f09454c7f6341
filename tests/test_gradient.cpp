// The tuner's model: the gradient against finite differences, K minimising the error, and
// Adam (train/optimiser) lowering the loss.
#include <catch2/catch.hpp>

#include <vector>

#include "eval/params.hpp"
#include "train/gradient.hpp"
#include "train/optimiser.hpp"
#include "train/pool.hpp"

#include "train_support.hpp"

using namespace horizon;

using namespace horizon::test;

TEST_CASE("tune: the gradient matches finite differences", "[tune]") {
    const Fixture& fx = fixture();
    WorkerPool pool(2);
    // Off-integer weights, so that no king danger figure and no endgame sum sits exactly on
    // the kink at 0 between w - h and w + h.
    Weights w = weights_of(default_eval_params());
    for (std::size_t i = 0; i < w.size(); ++i)
        w[i] += 0.05 + 0.31 * double((i * 7919) % 13) / 13;
    const Objective objective{1.7, 0.6};

    const auto all = all_indices(fx.data);
    std::vector<std::uint32_t> scaled;
    for (std::uint32_t i : all)
        if (is_scaled(fx.data.samples()[i])) scaled.push_back(i);
    REQUIRE(scaled.size() > 5);

    struct Probe {
        const char* name;
        int param;
        bool on_scaled;
    };
    const auto mg = [](Term t, int i) { return 2 * feature_index(t, i); };
    const auto eg = [](Term t, int i) { return 2 * feature_index(t, i) + 1; };
    const Probe probes[] = {
        {"material knight mg", mg(Term::material, 1), false},
        {"material pawn eg", eg(Term::material, 0), false},
        {"psqt_king e1 mg", mg(Term::psqt_king, 4), false},
        {"tempo eg", eg(Term::tempo, 0), false},
        {"king_zone_attacks mg (KING_DANGER)", mg(Term::king_zone_attacks, 0), false},
        {"king_danger_base mg (KING_DANGER)", mg(Term::king_danger_base, 0), false},
        {"safe_check queen eg (KING_DANGER)", eg(Term::safe_check, 3), false},
        {"king_attackers rook eg (KING_DANGER)", eg(Term::king_attackers, 2), false},
        {"material pawn eg, scaled endings", eg(Term::material, 0), true},
        {"material bishop eg, scaled endings", eg(Term::material, 2), true},
        {"tempo eg, scaled endings", eg(Term::tempo, 0), true},
        {"complexity bias eg (COMPLEXITY)", eg(Term::complexity, 0), false},
        {"complexity pawns eg (COMPLEXITY)", eg(Term::complexity, 2), false},
    };
    std::vector<double> grad(PARAM_COUNT);
    for (const Probe& p : probes) {
        INFO(p.name);
        const std::vector<std::uint32_t>& set = p.on_scaled ? scaled : all;
        loss_gradient(fx.data, set, w.data(), objective, pool, grad.data());
        const double h = 1e-3;
        Weights plus = w, minus = w;
        plus[std::size_t(p.param)] += h;
        minus[std::size_t(p.param)] -= h;
        const double numeric = (mean_loss(fx.data, set, plus.data(), objective, pool) -
                                mean_loss(fx.data, set, minus.data(), objective, pool)) /
                               (2 * h);
        const double analytic = grad[std::size_t(p.param)];
        CHECK(analytic != 0);
        CHECK(analytic == Approx(numeric).epsilon(1e-4).margin(1e-12));
    }
    // Complexity's middlegame weights are unused: no gradient, and none in the loss.
    loss_gradient(fx.data, all, w.data(), objective, pool, grad.data());
    CHECK(grad[std::size_t(mg(Term::complexity, 0))] == 0);
    Weights moved = w;
    moved[std::size_t(mg(Term::complexity, 0))] += 50;
    CHECK(mean_loss(fx.data, all, moved.data(), objective, pool) ==
          mean_loss(fx.data, all, w.data(), objective, pool));
    // The loss the gradient call returns is the mean loss.
    CHECK(loss_gradient(fx.data, all, w.data(), objective, pool, grad.data()) ==
          Approx(mean_loss(fx.data, all, w.data(), objective, pool)).epsilon(1e-12));
}

TEST_CASE("tune: K minimises the error and Adam lowers the loss", "[tune]") {
    const Fixture& fx = fixture();
    WorkerPool pool(2);
    const auto all = all_indices(fx.data);
    Weights w = weights_of(default_eval_params());
    const double k = fit_k(fx.data, all, w.data(), pool);
    CHECK(k > 0.01);
    CHECK(k < 20);
    const auto on_results = [&](double kk) {
        return mean_loss(fx.data, all, w.data(), Objective{kk, 1.0}, pool);
    };
    CHECK(on_results(k) <= on_results(k * 1.05));
    CHECK(on_results(k) <= on_results(k / 1.05));

    const Objective objective{k, 1.0};
    const double before = mean_loss(fx.data, all, w.data(), objective, pool);
    Adam adam(PARAM_COUNT, 1.0);
    std::vector<double> grad(PARAM_COUNT);
    for (int step = 0; step < 40; ++step) {
        loss_gradient(fx.data, all, w.data(), objective, pool, grad.data());
        adam.step(w.data(), grad.data());
    }
    const double after = mean_loss(fx.data, all, w.data(), objective, pool);
    CHECK(after < before * 0.95);
    // Rounded to integers, the weights keep most of the gain.
    const Weights back = weights_of(rounded(w));
    CHECK(mean_loss(fx.data, all, back.data(), objective, pool) < before);
}
