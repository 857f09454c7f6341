// The tuner's data set: the sparse form of a traced position against evaluate_trace, and the
// store keeping samples with their coefficients across its chunks.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>

#include "eval/evaluate.hpp"
#include "eval/params.hpp"
#include "train/dataset.hpp"
#include "train/gradient.hpp"

#include "train_support.hpp"

using namespace horizon;

using namespace horizon::test;

TEST_CASE("tune: the sparse form evaluates exactly as evaluate_trace does", "[tune]") {
    const Fixture& fx = fixture();
    REQUIRE(fx.data.size() >= 300);
    // Rounding apart, the float evaluation is the integer one. The integer path truncates the
    // two sides' king danger (their difference is off by under 1, in mg and in eg), the scaled
    // endgame sum (under 1) and the taper's division (under 1): less than 4 in all (a near-zero
    // endgame sum whose sign picks the other scale stays inside that). Allow 6.
    constexpr double TOLERANCE = 6;
    EvalParams doubled = default_eval_params();
    for (auto& w : doubled.weights)
        w = Weight{w.mg * 2 + 3, w.eg * 3 - 2};
    doubled.seal();
    auto scratch = std::make_unique<EvalTrace>();
    int scaled = 0, danger = 0, black_to_move = 0;
    double worst = 0;
    const EvalParams* const both[] = {&default_eval_params(), &doubled};
    for (const EvalParams* params : both) {
        const Weights w = weights_of(*params);
        for (std::size_t i = 0; i < fx.data.size(); ++i) {
            const Sample& s = fx.data.samples()[i];
            const Position& pos = fx.positions[i];
            const int exact = evaluate_trace(trace_evaluation(pos), *params);
            INFO(pos.fen());
            CHECK(evaluate_sample_exact(fx.data, s, *params, *scratch) == exact);
            const double approx = evaluate_sample(fx.data, s, w.data());
            CHECK(std::abs(approx - exact) < TOLERANCE);
            worst = std::max(worst, std::abs(approx - exact));
            scaled += is_scaled(s);
            danger += has_danger(s);
            black_to_move += pos.side_to_move() == BLACK;
        }
    }
    // The fixture covers what the model must get right.
    CHECK(scaled > 10);
    CHECK(danger > 50);
    CHECK(black_to_move > 50);
    CHECK(fx.dead_draws > 0); // skipped, not traced
    // The scratch trace was left all zero.
    for (Color c : {WHITE, BLACK})
        for (int v : scratch->counts[c])
            CHECK(v == 0);
    // And the sample's data.
    const Sample& first = fx.data.samples()[0];
    CHECK(first.phase == game_phase(fx.positions[0]));
    CHECK(first.result <= 2);
}

TEST_CASE("tune: the data set keeps samples across its chunks", "[tune]") {
    DataSet data;
    std::vector<Coefficient> coefs(1000);
    const std::size_t count = DataSet::CHUNK_SIZE / coefs.size() * 2 + 3;
    for (std::size_t i = 0; i < count; ++i) {
        for (std::size_t j = 0; j < coefs.size(); ++j)
            coefs[j] = {std::int16_t(j % 600), std::int16_t(int(i % 1000) - 500)};
        Sample s{};
        s.linear = 990;
        s.danger[WHITE] = 4;
        s.danger[BLACK] = 6;
        s.score = std::int16_t(i);
        data.add(s, coefs.data());
    }
    REQUIRE(data.size() == count);
    CHECK(data.coefficient_count() == count * 1000);
    bool same = true;
    for (std::size_t i = 0; i < count; ++i) {
        const Sample& s = data.samples()[i];
        const Coefficient* c = data.coefficients(s);
        same &= s.score == std::int16_t(i) && c[0].count == int(i % 1000) - 500 &&
                c[999].index == 999 % 600 && c[999].count == int(i % 1000) - 500;
    }
    CHECK(same);
    // Reordering keeps each sample with its coefficients.
    std::vector<std::uint32_t> order{std::uint32_t(count - 1), 0, 1500};
    const DataSet r = data.reordered(order);
    REQUIRE(r.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(r.samples()[i].score == std::int16_t(order[i]));
        CHECK(r.coefficients(r.samples()[i])[500].count == int(order[i] % 1000) - 500);
    }
}
