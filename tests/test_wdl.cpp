// The WDL model: per mille outcomes from a score and the material, and its "wdl" section.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/position.hpp"
#include "eval/params.hpp"
#include "eval/wdl.hpp"

#include "support.hpp"

using namespace horizon;
using namespace horizon::test;

namespace {

WdlModel model(std::initializer_list<double> a, std::initializer_list<double> b) {
    WdlModel m;
    int i = 0;
    for (double v : a)
        m.a[i++] = v;
    i = 0;
    for (double v : b)
        m.b[i++] = v;
    return m;
}

// The starting values of engine.json: a 150 cp edge wins half the time.
const WdlModel FLAT = model({0, 0, 0, 150}, {0, 0, 0, 80});

// A section the reader must refuse, naming `key` in its message and leaving `out` untouched.
void refused(const nlohmann::json& j, const std::string& key) {
    WdlModel out = FLAT;
    const auto err = WdlModel::from_json(j, out);
    INFO(j.dump() << " -> " << (err ? *err : std::string("accepted")));
    REQUIRE(err);
    CHECK(err->find(key) != std::string::npos);
    CHECK(out.to_json() == FLAT.to_json());
}

} // namespace

TEST_CASE("wdl: material counts P=1, N=B=3, R=5, Q=9 for both sides", "[wdl]") {
    CHECK(wdl_material(position_from(std::string(Position::START_FEN))) == 78);
    CHECK(wdl_material(position_from("8/8/4k3/8/8/4K3/8/8 w - - 0 1")) == 0);
    CHECK(wdl_material(position_from("8/2p5/4k3/8/1q6/4K1N1/8/R7 b - - 0 1")) == 1 + 9 + 3 + 5);
    CHECK(WdlModel::x_of(0) == Approx(17 / 58.0));
    CHECK(WdlModel::x_of(78) == Approx(78 / 58.0));
    CHECK(WdlModel::x_of(100) == Approx(78 / 58.0));
    CHECK(WdlModel::x_of(40) == Approx(40 / 58.0));
}

TEST_CASE("wdl: the three always sum to 1000 and the win rises with the score", "[wdl]") {
    for (const WdlModel& m :
         {FLAT, default_wdl_model(), model({-30, 60, 20, 120}, {5, -10, 20, 60}),
          model({0, 0, 0, -40}, {0, 0, 0, 50})}) {
        for (int material = 0; material <= 80; material += 4) {
            Wdl previous{0, 0, 1000};
            for (Score s = -3000; s <= 3000; s += 7) {
                const Wdl w = wdl_from_score(m, s, material);
                INFO("material " << material << " score " << s << ": " << w.win << " " << w.draw
                                 << " " << w.loss);
                REQUIRE(w.win + w.draw + w.loss == 1000);
                REQUIRE(w.win >= 0);
                REQUIRE(w.draw >= 0);
                REQUIRE(w.loss >= 0);
                CHECK(w.win >= previous.win);
                CHECK(w.loss <= previous.loss);
                previous = w;
            }
        }
    }
}

TEST_CASE("wdl: the model's shape", "[wdl]") {
    // a(x) is the score that wins half the time; the view is symmetric.
    CHECK(wdl_from_score(FLAT, 150, 78).win == 500);
    CHECK(wdl_from_score(FLAT, -150, 40).loss == 500);
    for (Score s : {0, 25, 150, 400}) {
        const Wdl plus = wdl_from_score(FLAT, s, 60), minus = wdl_from_score(FLAT, -s, 60);
        CHECK(plus.win == minus.loss);
        CHECK(plus.loss == minus.win);
    }
    // A draw is never likelier than at an even score; with FLAT (a = 150, b = 80) it is
    // the likeliest result there. (The fitted built-in model need not say so: in fast
    // self-play even positions are often decided.)
    const Wdl flat_even = wdl_from_score(FLAT, 0, 78);
    CHECK(flat_even.draw > flat_even.win);
    CHECK(flat_even.draw > flat_even.loss);
    for (const WdlModel& m : {FLAT, default_wdl_model()})
        for (int material : {20, 40, 58, 78}) {
            const Wdl even = wdl_from_score(m, 0, material);
            CHECK(even.win == even.loss);
            for (Score s = -1000; s <= 1000; s += 10)
                CHECK(wdl_from_score(m, s, material).draw <= even.draw);
        }
    // Coefficients are used highest power first: a(x) = ((a0 x + a1) x + a2) x + a3.
    const WdlModel cubic = model({1, 2, 3, 4}, {0, 0, 0, 1});
    CHECK(cubic.a_at(2.0) == Approx(8 + 8 + 6 + 4));
    CHECK(cubic.b_at(2.0) == Approx(1));
}

TEST_CASE("wdl: mate scores are certain", "[wdl]") {
    for (int material : {0, 40, 78}) {
        const Wdl win = wdl_from_score(FLAT, mate_in(5), material);
        CHECK((win.win == 1000 && win.draw == 0 && win.loss == 0));
        const Wdl loss = wdl_from_score(FLAT, mated_in(2), material);
        CHECK((loss.win == 0 && loss.draw == 0 && loss.loss == 1000));
    }
    // Big but not mate: nearly certain, still from the formula.
    CHECK(wdl_from_score(FLAT, 3000, 78).win == 1000);
}

TEST_CASE("wdl: the section reads back what it wrote, and bad ones are refused", "[wdl]") {
    WdlModel back;
    REQUIRE_FALSE(WdlModel::from_json(FLAT.to_json(), back));
    CHECK(back.to_json() == FLAT.to_json());
    REQUIRE_FALSE(WdlModel::from_json(builtin_config().at("wdl"), back));
    CHECK(back.to_json() == default_wdl_model().to_json());

    const nlohmann::json good = FLAT.to_json();
    refused(nlohmann::json::array({1, 2}), "\"a\"");
    auto no_a = good;
    no_a.erase("a");
    refused(no_a, "\"a\"");
    auto no_b = good;
    no_b.erase("b");
    refused(no_b, "\"b\"");
    auto extra = good;
    extra["c"] = {0, 0, 0, 0};
    refused(extra, "\"c\"");
    auto five = good;
    five["a"].push_back(1);
    refused(five, "\"a\"");
    auto scalar = good;
    scalar["b"] = 80;
    refused(scalar, "\"b\"");
    for (const nlohmann::json& bad : {nlohmann::json("80"), nlohmann::json(nullptr),
                                      nlohmann::json(false), nlohmann::json::array()}) {
        auto not_number = good;
        not_number["b"][3] = bad;
        refused(not_number, "\"b\"");
    }
    // b(x) must stay positive over the whole material range, also between its ends:
    // 100x² - 160x + 54 is positive at x = 17/58 and 78/58 but -10 at x = 0.8.
    auto dips = good;
    dips["b"] = {0, 100, -160, 54};
    refused(dips, "\"b\"");
    auto zero = good;
    zero["b"] = {0, 0, 0, 0};
    refused(zero, "\"b\"");
    auto negative_end = good;
    negative_end["b"] = {0, 0, -100, 100}; // 0 at x = 1, negative beyond
    refused(negative_end, "\"b\"");
    // Any a(x) within ±A_LIMIT is allowed, of either sign.
    auto any_a = good;
    any_a["a"] = {-5, 1e3, -20.5, 0};
    WdlModel out;
    CHECK_FALSE(WdlModel::from_json(any_a, out));
    any_a["a"] = {0, 0, 0, -40};
    CHECK_FALSE(WdlModel::from_json(any_a, out));
}

TEST_CASE("wdl: coefficients that would overflow or make nonsense are refused", "[wdl]") {
    const auto accepted = [](const nlohmann::json& j) {
        WdlModel out;
        const auto err = WdlModel::from_json(j, out);
        INFO(j.dump() << " -> " << err.value_or("accepted"));
        CHECK_FALSE(err);
        return out;
    };
    const nlohmann::json good = FLAT.to_json();
    // 1e308 anywhere: a(x) or b(x) would be infinite (or, in the constant, every score a draw).
    for (const char* key : {"a", "b"})
        for (std::size_t i = 0; i < 4; ++i)
            for (double huge : {1e308, -1e308, 1.5e6, -1.5e6}) {
                auto j = good;
                j[key][i] = huge;
                refused(j, std::string("\"") + key + "\"[" + std::to_string(i) + "]");
            }
    // Within the coefficients' limit, a(x) and b(x) must keep to theirs over the whole range.
    auto a_high = good;
    a_high["a"] = {0, 0, 0, WdlModel::A_LIMIT + 1};
    refused(a_high, "\"a\"");
    auto a_low = good;
    a_low["a"] = {0, 0, 0, -WdlModel::A_LIMIT - 1};
    refused(a_low, "\"a\"");
    auto a_cubic = good; // 1e4·x³ is below the limit at x < 1 but 24,000 at x = 78/58
    a_cubic["a"] = {1e4, 0, 0, 0};
    refused(a_cubic, "\"a\"");
    auto b_step = good; // below a centipawn of spread
    b_step["b"] = {0, 0, 0, 0.5};
    refused(b_step, "\"b\"");
    auto b_flat = good;
    b_flat["b"] = {0, 0, 0, WdlModel::B_LIMIT + 1};
    refused(b_flat, "\"b\"");
    // The limits themselves are allowed.
    for (double a : {-WdlModel::A_LIMIT, WdlModel::A_LIMIT})
        for (double b : {WdlModel::B_MIN, WdlModel::B_LIMIT}) {
            auto edge = good;
            edge["a"] = {0, 0, 0, a};
            edge["b"] = {0, 0, 0, b};
            accepted(edge);
        }
}

TEST_CASE("wdl: every model the loader accepts gives finite, well-formed chances", "[wdl]") {
    // The corners of what is accepted: a(x) at ±A_LIMIT, b(x) at B_MIN and B_LIMIT, and a
    // steep cubic within them; scores up to the largest non-mate ones.
    std::vector<WdlModel> models;
    for (double a : {-WdlModel::A_LIMIT, 0.0, 150.0, WdlModel::A_LIMIT})
        for (double b : {WdlModel::B_MIN, 80.0, WdlModel::B_LIMIT})
            models.push_back(model({0, 0, 0, a}, {0, 0, 0, b}));
    models.push_back(model({-9000, 9000, 4000, -9000}, {4000, -4000, -2000, 3000}));
    for (const WdlModel& m : models) {
        WdlModel loaded;
        const auto err = WdlModel::from_json(m.to_json(), loaded);
        INFO(m.to_json().dump() << ": " << err.value_or("accepted"));
        REQUIRE_FALSE(err);
        for (int material = 0; material <= 100; material += 5)
            for (Score s : {Score(-SCORE_MATE_IN_MAX_PLY + 1), Score(-20000), Score(-1), Score(0),
                            Score(3), Score(10000), Score(SCORE_MATE_IN_MAX_PLY - 1)}) {
                const WdlProbabilities p = loaded.probabilities(s, material);
                INFO("material " << material << " score " << s);
                CHECK(std::isfinite(p.win));
                CHECK(std::isfinite(p.loss));
                CHECK(std::isfinite(p.draw));
                CHECK((p.win >= 0 && p.win <= 1 && p.loss >= 0 && p.loss <= 1));
                const Wdl w = wdl_from_score(loaded, s, material);
                CHECK(w.win + w.draw + w.loss == 1000);
                CHECK((w.win >= 0 && w.draw >= 0 && w.loss >= 0));
            }
    }
    // The check between the ends finds a cubic's turning point: this b(x) is 1.5 at its
    // minimum inside the range (x = 0.8) and far above it at both ends; 0.5 with 64.5.
    WdlModel out;
    CHECK_FALSE(WdlModel::from_json(model({0, 0, 0, 150}, {0, 100, -160, 65.5}).to_json(), out));
    CHECK(WdlModel::from_json(model({0, 0, 0, 150}, {0, 100, -160, 64.5}).to_json(), out));
}
