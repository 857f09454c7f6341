// The win/draw/loss model: what a score is worth as a game result, given the material left.
// Its coefficients are the "wdl" section of engine.json ({"a": [4 numbers], "b": [4 numbers]}),
// which a tuner fits to game results; UCI_ShowWDL reports through it.
#pragma once

#include <array>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "core/position.hpp"
#include "core/types.hpp"

namespace horizon {

// The model's chances, unrounded, from one side's point of view.
struct WdlProbabilities {
    double win = 0, draw = 0, loss = 0;
};

// With x = clamp(material, 17, 78) / 58, a(x) = ((a0·x + a1)·x + a2)·x + a3 and b(x) likewise;
// a score s (centipawns, side to move) wins with 1 / (1 + exp((a - s) / b)) and loses with
// 1 / (1 + exp((a + s) / b)). a(x) is the score that wins half the time, b(x) its spread.
// The tuner (train/wdl_fit) fits exactly this model: a, b, x_of and the cubic are its own.
struct WdlModel {
    static constexpr int MATERIAL_MIN = 17;
    static constexpr int MATERIAL_MAX = 78;
    static constexpr double MATERIAL_SCALE = 58.0;

    // What a loaded model must keep to, so that the formula stays finite and means something
    // for every material (x from 17/58 to 78/58, so |x| < 1.35) and every score (|s| < 32000):
    //   - each coefficient finite with |c| <= COEFFICIENT_LIMIT: then |a(x)| and |b(x)| stay
    //     below 6.6e6, and nothing in the formula overflows;
    //   - |a(x)| <= A_LIMIT everywhere: beyond a hundred pawns, no evaluation would ever win
    //     half the time (a coefficient of 1e308 made every score a certain draw);
    //   - B_MIN <= b(x) <= B_LIMIT everywhere: b(x) > 0 keeps the chances a distribution, and
    //     below a centipawn (the scores' unit) the spread would be a step, above a hundred pawns
    //     a flat line. Then |(a ± s) / b| < 42000: exp() may overflow to infinity, which the
    //     logistic takes to 0 or 1, never to NaN.
    static constexpr double COEFFICIENT_LIMIT = 1e6;
    static constexpr double A_LIMIT = 10000;
    static constexpr double B_MIN = 1;
    static constexpr double B_LIMIT = 10000;

    using Cubic = std::array<double, 4>; // coefficients, highest power first
    Cubic a{};
    Cubic b{};

    static double x_of(int material);
    static double cubic(const Cubic& c, double x);
    double a_at(double x) const { return cubic(a, x); }
    double b_at(double x) const { return cubic(b, x); }
    // The chances of a score (side to move's view) at that material, as the formula gives them
    // (no rounding, no special case for mates or a model without spread).
    WdlProbabilities probabilities(double score, int material) const;

    // Reads a "wdl" object; on any error (missing or unknown key, not four numbers, a
    // coefficient or a(x) or b(x) outside the limits above anywhere in the material range)
    // returns a message naming the key and leaves `out` as it was.
    static std::optional<std::string> from_json(const nlohmann::json& wdl, WdlModel& out);
    nlohmann::json to_json() const;
};

// Per mille, from the side to move's point of view; the three always sum to 1000.
struct Wdl {
    int win = 0;
    int draw = 1000;
    int loss = 0;
};

// Material of both sides with P = 1, N = B = 3, R = 5, Q = 9 (the model's material measure).
int wdl_material(const Position& pos);

// The outcome a score predicts at that material. A mate score is a certain win (or loss).
Wdl wdl_from_score(const WdlModel& model, Score score, int material);

// The model compiled in from engine.json.
const WdlModel& default_wdl_model();

} // namespace horizon
