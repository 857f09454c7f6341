// Evaluation weights: one mg/eg pair per feature, laid out as declared in terms.def.
#pragma once

#include <array>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace horizon {

struct Weight {
    int mg = 0;
    int eg = 0;
};

enum class Term {
#define TERM(name, size) name,
#include "eval/terms.def"
#undef TERM
    COUNT
};

constexpr int TERM_COUNT = int(Term::COUNT);
constexpr int TERM_SIZES[TERM_COUNT] = {
#define TERM(name, size) size,
#include "eval/terms.def"
#undef TERM
};
constexpr const char* TERM_NAMES[TERM_COUNT] = {
#define TERM(name, size) #name,
#include "eval/terms.def"
#undef TERM
};
// Offset of each term's first weight in the flat vector.
constexpr std::array<int, TERM_COUNT + 1> TERM_OFFSETS = [] {
    std::array<int, TERM_COUNT + 1> off{};
    for (int i = 0; i < TERM_COUNT; ++i) off[i + 1] = off[i] + TERM_SIZES[i];
    return off;
}();
constexpr int WEIGHT_COUNT = TERM_OFFSETS[TERM_COUNT];

constexpr int feature_index(Term t, int i = 0) { return TERM_OFFSETS[int(t)] + i; }

struct EvalParams {
    std::array<Weight, WEIGHT_COUNT> weights{};

    Weight operator()(Term t, int i = 0) const { return weights[feature_index(t, i)]; }

    // Reads the "eval" object of a config; returns an error message on any mismatch with
    // terms.def (missing or unknown key, wrong size, non-integer).
    static std::optional<std::string> from_json(const nlohmann::json& eval, EvalParams& out);
    nlohmann::json to_json() const;
};

// The weights compiled in from engine.json.
const EvalParams& default_eval_params();

} // namespace horizon
