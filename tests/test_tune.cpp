// The tuner: the sparse form against evaluate_trace, the gradient against finite differences,
// Adam lowering the loss, the WDL fit, the written engine.json, and malformed data lines in a
// file (the line format itself: test_data_line.cpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "engine/config.hpp"
#include "eval/evaluate.hpp"
#include "eval/params.hpp"
#include "tools/tune.hpp"
#include "train/data_line.hpp"

using namespace horizon;
using namespace horizon::tune;

namespace {

const std::string FIXTURE = std::string(HORIZON_SOURCE_DIR) + "/tests/data/tune_fixture.txt";

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// A file in the temporary directory, removed at the end of the test.
struct TempFile {
    std::string path;
    explicit TempFile(const std::string& name, const std::string& text = "") {
        path = (std::filesystem::temp_directory_path() /
                ("horizon_test_tune_" + std::to_string(::getpid()) + "_" + name))
                   .string();
        if (!text.empty()) {
            std::ofstream out(path, std::ios::binary);
            out << text;
        }
    }
    ~TempFile() {
        std::error_code ec;
        std::filesystem::remove(path, ec);
    }
};

// The fixture's positions: the sparse store, and each sample's position.
struct Fixture {
    DataSet data;
    std::vector<Position> positions;
    int dead_draws = 0;
};

const Fixture& fixture() {
    static const Fixture f = [] {
        Fixture fx;
        std::istringstream in(read_text(FIXTURE));
        std::vector<Coefficient> coefs;
        for (std::string line; std::getline(in, line);) {
            if (line.empty() || line[0] == '#') continue;
            DataLine d;
            const auto err = read_data_line(line, d);
            INFO(line << ": " << err.value_or(""));
            REQUIRE_FALSE(err);
            Sample s{};
            if (!make_sample(d.pos, d.score, d.result_halves, s, coefs)) {
                ++fx.dead_draws;
                continue;
            }
            fx.data.add(s, coefs.data());
            fx.positions.push_back(d.pos);
        }
        return fx;
    }();
    return f;
}

std::vector<std::uint32_t> all_indices(const DataSet& data) {
    std::vector<std::uint32_t> v(data.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = std::uint32_t(i);
    return v;
}

bool is_scaled(const Sample& s) {
    return s.scale[WHITE] < SCALE_NORMAL && s.scale[BLACK] < SCALE_NORMAL && s.phase < PHASE_MAX;
}

bool has_danger(const Sample& s) { return s.danger[WHITE] + s.danger[BLACK] > 0; }

// Runs `horizon tune` in-process.
int tune_with(std::vector<std::string> args, std::string& out, std::string& err) {
    args.insert(args.begin(), "tune");
    std::vector<const char*> argv;
    for (const auto& a : args)
        argv.push_back(a.c_str());
    std::ostringstream o, e;
    const int code = run_tune(int(argv.size()), argv.data(), o, e);
    out = o.str();
    err = e.str();
    return code;
}

// The lines of a config's "eval" section, from its opening line to its closing brace.
std::vector<std::string> eval_lines(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> lines;
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
        if (line == "  \"eval\": {") inside = true;
        if (inside) lines.push_back(line);
        if (inside && (line == "  }" || line == "  },")) break;
    }
    return lines;
}

} // namespace

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

TEST_CASE("tune: horizon tune writes an engine.json that loads, with a WDL model", "[tune]") {
    TempFile out_file("out.json");
    std::string out, err;
    const int code = tune_with({"--data", FIXTURE, "--out", out_file.path, "--epochs", "3",
                                "--batch", "64", "--threads", "2", "--seed", "3"},
                               out, err);
    INFO(out << err);
    REQUIRE(code == 0);
    CHECK(out.find("K = ") != std::string::npos);
    CHECK(out.find("epoch 3/3") != std::string::npos);
    CHECK(out.find("W/D/L per mille") != std::string::npos);

    const std::string text = read_text(out_file.path);
    const auto config = nlohmann::json::parse(text);
    EvalParams params;
    const auto load_err = EvalParams::from_json(config.at("eval"), params);
    INFO(load_err.value_or(""));
    CHECK_FALSE(load_err);
    CHECK(config.at("engine") == engine_config().at("engine"));
    CHECK(params.to_json() != default_eval_params().to_json()); // it tuned something

    // The WDL model: four floats each, win chances rising and loss chances falling with
    // the score.
    REQUIRE(config.contains("wdl"));
    const auto& wdl = config.at("wdl");
    WdlModel model;
    for (int i = 0; i < 4; ++i) {
        REQUIRE(wdl.at("a").at(std::size_t(i)).is_number_float());
        REQUIRE(wdl.at("b").at(std::size_t(i)).is_number_float());
        model.a[std::size_t(i)] = wdl.at("a").at(std::size_t(i)).get<double>();
        model.b[std::size_t(i)] = wdl.at("b").at(std::size_t(i)).get<double>();
    }
    CHECK(wdl.at("a").size() == 4);
    CHECK(wdl.at("b").size() == 4);
    for (int m : {20, 30, 58, 78}) {
        INFO("material " << m);
        const WdlProbabilities first = model.probabilities(-1000, m);
        WdlProbabilities last = first;
        for (int s = -950; s <= 1000; s += 50) {
            const WdlProbabilities p = model.probabilities(s, m);
            CHECK(p.win >= last.win);
            CHECK(p.loss <= last.loss);
            CHECK(p.draw >= -1e-12);
            last = p;
        }
        CHECK(last.win > first.win + 0.5);
        CHECK(last.loss < first.loss - 0.5);
        const WdlProbabilities even = model.probabilities(0, m);
        CHECK(even.win == Approx(even.loss));
    }
}

TEST_CASE("tune: with no epochs the weights come back as engine.json has them", "[tune]") {
    TempFile out_file("same.json");
    std::string out, err;
    REQUIRE(tune_with({"--data", FIXTURE, "--out", out_file.path, "--epochs", "0", "--no-wdl",
                       "--k", "1.5", "--threads", "1"},
                      out, err) == 0);
    CHECK(out.find("K = 1.5000 (given)") != std::string::npos);
    const std::string text = read_text(out_file.path);
    // Formatted as engine.json is: one term per line, long tables eight pairs a line.
    const auto written = eval_lines(text);
    CHECK(written.size() > 100);
    CHECK(written == eval_lines(read_text(std::string(HORIZON_SOURCE_DIR) + "/engine.json")));
    EvalParams params;
    REQUIRE_FALSE(EvalParams::from_json(nlohmann::json::parse(text).at("eval"), params));
    CHECK(params.to_json() == default_eval_params().to_json());

    // A start file without an "engine" section gets the built-in identity.
    TempFile start("start.json", "{\"eval\": " + default_eval_params().to_json().dump() + "}");
    REQUIRE(tune_with({"--data", FIXTURE, "--out", out_file.path, "--epochs", "0", "--no-wdl",
                       "--k=1.5", "--start", start.path, "--threads", "1"},
                      out, err) == 0);
    CHECK(nlohmann::json::parse(read_text(out_file.path)).at("engine") ==
          engine_config().at("engine"));
}

TEST_CASE("tune: malformed data lines are reported with file and line", "[tune]") {
    const std::string good = "8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | 950 | 1.0\n";
    const std::string draw = "8/8/4k3/8/8/3QK3/8/8 b - - 0 1 | 0 | 0.5\n";
    const std::string loss = "8/8/4k3/8/8/3qK3/8/8 w - - 0 1 | -950 | 0.0\n";
    TempFile data("bad.txt", "# header\n" + good + "8/8/4k3/8/8/3QK3/8/8 w - - 0 1 | x | 1.0\n" +
                                 draw + "\n" + "not a fen | 3 | 0.5\n" + loss + good + loss);
    TempFile out_file("bad_out.json");
    std::string out, err;
    CHECK(tune_with({"--data", data.path, "--out", out_file.path, "--epochs", "1"}, out, err) == 2);
    CHECK(err.find(data.path + ":3: score 'x'") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(out_file.path));

    REQUIRE(tune_with({"--data", data.path, "--out", out_file.path, "--epochs", "1", "--skip-bad",
                       "--holdout", "0"},
                      out, err) == 0);
    CHECK(err.find(data.path + ":3:") != std::string::npos);
    CHECK(err.find(data.path + ":6: bad FEN") != std::string::npos);
    CHECK(out.find("Loaded 5 positions from 7 data lines") != std::string::npos);
    CHECK(out.find("2 malformed lines") != std::string::npos);

    // Bad arguments and missing files: a message and a non-zero exit.
    CHECK(tune_with({"--data", data.path + ".missing", "--out", out_file.path}, out, err) == 2);
    CHECK(err.find("cannot open data file") != std::string::npos);
    CHECK(tune_with({"--data", data.path}, out, err) == 2);
    CHECK(err.find("--out") != std::string::npos);
    CHECK(tune_with({"--data", data.path, "--out", out_file.path, "--lambda", "2"}, out, err) == 2);
    CHECK(tune_with({"--data", data.path, "--out", out_file.path, "--epochs", "x"}, out, err) == 2);
    TempFile bad_start("bad_start.json", "{\"eval\": {\"material\": [[1, 2]]}}");
    CHECK(tune_with({"--data", data.path, "--out", out_file.path, "--start", bad_start.path}, out,
                    err) == 2);
    CHECK(err.find(bad_start.path) != std::string::npos);
}
