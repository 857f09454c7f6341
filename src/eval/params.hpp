// Evaluation weights: one mg/eg pair per feature, laid out as declared in terms.def; and the
// weights files that hold them (engine.json's schema), built in or loaded at run time.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "eval/engine_file.hpp"
#include "eval/wdl.hpp"

namespace horizon {

struct Weight {
    int mg = 0;
    int eg = 0;
};

enum class TermKind { LINEAR, KING_DANGER, COMPLEXITY };

enum class Term {
#define TERM(name, size, kind) name,
#include "eval/terms.def"
#undef TERM
    COUNT
};

constexpr int TERM_COUNT = int(Term::COUNT);
constexpr int TERM_SIZES[TERM_COUNT] = {
#define TERM(name, size, kind) size,
#include "eval/terms.def"
#undef TERM
};
constexpr const char* TERM_NAMES[TERM_COUNT] = {
#define TERM(name, size, kind) #name,
#include "eval/terms.def"
#undef TERM
};
constexpr TermKind TERM_KINDS[TERM_COUNT] = {
#define TERM(name, size, kind) TermKind::kind,
#include "eval/terms.def"
#undef TERM
};
// Offset of each term's first weight in the flat vector.
constexpr std::array<int, TERM_COUNT + 1> TERM_OFFSETS = [] {
    std::array<int, TERM_COUNT + 1> off{};
    for (int i = 0; i < TERM_COUNT; ++i)
        off[i + 1] = off[i] + TERM_SIZES[i];
    return off;
}();
constexpr int WEIGHT_COUNT = TERM_OFFSETS[TERM_COUNT];

constexpr int feature_index(Term t, int i = 0) { return TERM_OFFSETS[int(t)] + i; }

// The term of that name (its engine.json key), if there is one.
constexpr std::optional<Term> find_term(std::string_view name) {
    for (int t = 0; t < TERM_COUNT; ++t)
        if (name == TERM_NAMES[t]) return Term(t);
    return std::nullopt;
}

// The kind of each weight's term, by flat index.
constexpr std::array<TermKind, WEIGHT_COUNT> FEATURE_KINDS = [] {
    std::array<TermKind, WEIGHT_COUNT> kinds{};
    for (int t = 0; t < TERM_COUNT; ++t)
        for (int i = TERM_OFFSETS[t]; i < TERM_OFFSETS[t + 1]; ++i)
            kinds[i] = TERM_KINDS[t];
    return kinds;
}();

// King danger: what a danger figure d (a sum of KING_DANGER weights times counts) is worth
// to the attacker. Quadratic in the middlegame, linear in the endgame; the tuner fits the
// weights through these same functions.
constexpr int KING_DANGER_MG_DIV = 256;
constexpr int KING_DANGER_EG_DIV = 16;
// The danger figure is capped before squaring: no weights can overflow it.
constexpr int KING_DANGER_CAP = 3000;
constexpr int king_danger_mg(int d) {
    d = d < KING_DANGER_CAP ? d : KING_DANGER_CAP;
    return d > 0 ? d * d / KING_DANGER_MG_DIV : 0;
}
constexpr int king_danger_eg(int d) {
    d = d < KING_DANGER_CAP ? d : KING_DANGER_CAP;
    return d > 0 ? d / KING_DANGER_EG_DIV : 0;
}

// Complexity: c, a sum of COMPLEXITY endgame weights times counts, moves the endgame part x of
// the evaluation by sign(x) · max(c, -|x|): away from 0 when c > 0, towards it (never past it)
// when c < 0. The tuner fits the weights through this same function.
constexpr int with_complexity(int x, int c) {
    if (x == 0) return 0;
    const int size = x > 0 ? x : -x;
    const int moved = size + (c > -size ? c : -size);
    return x > 0 ? moved : -moved;
}

struct EvalParams {
    std::array<Weight, WEIGHT_COUNT> weights{};
    // A hash of the weights, never 0; caches keep it to tell whose results they hold. Set by
    // seal(), which whoever changes weights calls before evaluating with a cache.
    std::uint64_t signature = 1;
    void seal();

    Weight operator()(Term t, int i = 0) const { return weights[feature_index(t, i)]; }

    // Reads the "eval" object of a config; returns an error message on any mismatch with
    // terms.def (missing or unknown key, wrong size, non-integer).
    static std::optional<std::string> from_json(const nlohmann::json& eval, EvalParams& out);
    nlohmann::json to_json() const;
};

// The weights compiled in from engine.json.
const EvalParams& default_eval_params();

// A weights file: a JSON object like engine.json. Its "eval" object is required; "wdl" (the
// WDL model; the built-in one when absent) and "engine" (identity; ignored) are optional,
// and any other top-level key is refused. The text is read by eval/engine_file's parse_config:
// a key twice in one object, at any depth, or a number too large for a double is refused.
//
// This is the one loader of weights files: EvalFile, --eval-file and the subcommands that take
// a weights file use load(); `horizon tune` refuses a start that it refuses, and checks its
// output with it before the output replaces anything.
struct EvalWeights {
    // Loaded weights must stay within these bounds, so that no position's evaluation can
    // overflow (king danger is squared).
    static constexpr int LINEAR_LIMIT = 10000;
    static constexpr int KING_DANGER_LIMIT = 1000;

    EvalParams params; // sealed
    WdlModel wdl;

    // On any error returns a message naming the key (and, for load, the file), and leaves
    // `out` as it was.
    static std::optional<std::string> from_json(const nlohmann::json& root, EvalWeights& out);
    // The text of a weights file: parse_config, then from_json.
    static std::optional<std::string> from_text(std::string_view text, EvalWeights& out);
    // The file: read_config_file, then from_text; every message names the file.
    static std::optional<std::string> load(const std::string& path, EvalWeights& out);
    nlohmann::json to_json() const; // {"eval": ..., "wdl": ...}
    std::optional<std::string> save(const std::string& path) const;
};

// The weights and WDL model compiled in from engine.json.
const EvalWeights& builtin_weights();

} // namespace horizon
