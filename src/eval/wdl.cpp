#include "eval/wdl.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "eval/engine_file.hpp"

namespace horizon {

namespace {

constexpr const char* COEFFICIENT_KEYS[] = {"a", "b"};
constexpr int COEFFICIENTS = 4;

// The smallest value of the cubic over [lo, hi] and where it is: at an end, or where the
// derivative 3·c0·x² + 2·c1·x + c2 vanishes inside.
std::pair<double, double> cubic_minimum(const WdlModel::Cubic& c, double lo, double hi) {
    const auto cubic = [&](double x) { return WdlModel::cubic(c, x); };
    std::pair<double, double> best{cubic(lo), lo};
    const auto consider = [&](double x) {
        if (x >= lo && x <= hi && cubic(x) < best.first) best = {cubic(x), x};
    };
    consider(hi);
    const double qa = 3 * c[0], qb = 2 * c[1], qc = c[2];
    if (qa == 0) {
        if (qb != 0) consider(-qc / qb);
    } else {
        const double disc = qb * qb - 4 * qa * qc;
        if (disc >= 0) {
            consider((-qb + std::sqrt(disc)) / (2 * qa));
            consider((-qb - std::sqrt(disc)) / (2 * qa));
        }
    }
    return best;
}

// The largest value and where it is: the smallest of the negated cubic.
std::pair<double, double> cubic_maximum(const WdlModel::Cubic& c, double lo, double hi) {
    const auto [lowest, at] = cubic_minimum({-c[0], -c[1], -c[2], -c[3]}, lo, hi);
    return {-lowest, at};
}

std::string number_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string material_text(double x) {
    return "material " + std::to_string(std::lround(x * WdlModel::MATERIAL_SCALE));
}

// Whether the cubic `key` stays within [lo, hi] over the whole material range; else why not.
std::optional<std::string> check_range(const char* key, const WdlModel::Cubic& c, double lo,
                                       double hi) {
    const double x_lo = WdlModel::x_of(WdlModel::MATERIAL_MIN);
    const double x_hi = WdlModel::x_of(WdlModel::MATERIAL_MAX);
    const std::string range = "must give " + std::string(1, key[0]) + "(x) from " +
                              number_text(lo) + " to " + number_text(hi) +
                              " for every material from " + std::to_string(WdlModel::MATERIAL_MIN) +
                              " to " + std::to_string(WdlModel::MATERIAL_MAX) + "; it is ";
    if (const auto [lowest, at] = cubic_minimum(c, x_lo, x_hi); !(lowest >= lo))
        return std::string("\"") + key + "\" " + range + number_text(lowest) + " at " +
               material_text(at);
    if (const auto [highest, at] = cubic_maximum(c, x_lo, x_hi); !(highest <= hi))
        return std::string("\"") + key + "\" " + range + number_text(highest) + " at " +
               material_text(at);
    return std::nullopt;
}

} // namespace

double WdlModel::x_of(int material) {
    return std::clamp(material, MATERIAL_MIN, MATERIAL_MAX) / MATERIAL_SCALE;
}

double WdlModel::cubic(const Cubic& c, double x) {
    return ((c[0] * x + c[1]) * x + c[2]) * x + c[3];
}

WdlProbabilities WdlModel::probabilities(double score, int material) const {
    const double x = x_of(material);
    const double a_x = a_at(x), b_x = b_at(x);
    WdlProbabilities p;
    p.win = 1.0 / (1.0 + std::exp((a_x - score) / b_x));
    p.loss = 1.0 / (1.0 + std::exp((a_x + score) / b_x));
    p.draw = 1.0 - p.win - p.loss;
    return p;
}

std::optional<std::string> WdlModel::from_json(const nlohmann::json& wdl, WdlModel& out) {
    if (!wdl.is_object())
        return std::string("must be an object {\"a\": [4 numbers], \"b\": [4 numbers]}");
    for (const auto& [key, value] : wdl.items())
        if (key != "a" && key != "b")
            return "unknown key " + quoted_key(key) + " (only \"a\" and \"b\")";
    WdlModel m;
    for (const char* key : COEFFICIENT_KEYS) {
        if (!wdl.contains(key)) return std::string("missing key \"") + key + "\"";
        const auto& arr = wdl.at(key);
        if (!arr.is_array() || arr.size() != COEFFICIENTS)
            return std::string("\"") + key + "\" must be an array of 4 numbers";
        Cubic& coefficients = key[0] == 'a' ? m.a : m.b;
        for (int i = 0; i < COEFFICIENTS; ++i) {
            const auto& v = arr.at(std::size_t(i));
            const std::string at = std::string("\"") + key + "\"[" + std::to_string(i) + "]";
            if (!v.is_number()) return at + " must be a number";
            const double value = v.get<double>();
            if (!(std::abs(value) <= COEFFICIENT_LIMIT))
                return at + " is " + number_text(value) + ", outside -" +
                       number_text(COEFFICIENT_LIMIT) + ".." + number_text(COEFFICIENT_LIMIT);
            coefficients[std::size_t(i)] = value;
        }
    }
    if (auto err = check_range("a", m.a, -A_LIMIT, A_LIMIT)) return err;
    if (auto err = check_range("b", m.b, B_MIN, B_LIMIT)) return err;
    out = m;
    return std::nullopt;
}

nlohmann::json WdlModel::to_json() const {
    return nlohmann::json{{"a", {a[0], a[1], a[2], a[3]}}, {"b", {b[0], b[1], b[2], b[3]}}};
}

int wdl_material(const Position& pos) {
    return popcount(pos.pieces(PAWN)) + 3 * popcount(pos.pieces(KNIGHT, BISHOP)) +
           5 * popcount(pos.pieces(ROOK)) + 9 * popcount(pos.pieces(QUEEN));
}

Wdl wdl_from_score(const WdlModel& model, Score score, int material) {
    if (score >= SCORE_MATE_IN_MAX_PLY) return Wdl{1000, 0, 0};
    if (score <= -SCORE_MATE_IN_MAX_PLY) return Wdl{0, 0, 1000};
    const double x = WdlModel::x_of(material);
    const double a = model.a_at(x), b = model.b_at(x), s = score;
    if (!(b > 0) || !std::isfinite(a) || !std::isfinite(b)) {
        // No spread (a model that was never loaded): the limit as b goes to 0.
        if (s > a) return Wdl{1000, 0, 0};
        if (-s > a) return Wdl{0, 0, 1000};
        return Wdl{0, 1000, 0};
    }
    const double win = 1000.0 / (1.0 + std::exp((a - s) / b));
    const double loss = 1000.0 / (1.0 + std::exp((a + s) / b));
    Wdl r;
    r.win = int(std::lround(win));
    r.loss = int(std::lround(loss));
    if (r.win + r.loss > 1000) {
        // a(x) < 0 (or rounding at a(x) = 0): no room for draws; share the whole by the odds.
        r.win = int(std::lround(1000.0 * win / (win + loss)));
        r.loss = 1000 - r.win;
    }
    r.draw = 1000 - r.win - r.loss;
    return r;
}

const WdlModel& default_wdl_model() {
    static const WdlModel model = [] {
        const auto& config = builtin_config();
        if (!config.contains("wdl")) throw std::runtime_error("engine.json: missing \"wdl\"");
        WdlModel m;
        if (auto err = WdlModel::from_json(config.at("wdl"), m))
            throw std::runtime_error("engine.json: \"wdl\": " + *err);
        return m;
    }();
    return model;
}

} // namespace horizon
