#include "eval/params.hpp"

#include <climits>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace horizon {

namespace {

// Why a JSON value is not a weight (an integer that fits an int), or nullopt when it is one.
std::optional<std::string> not_a_weight(const nlohmann::json& v) {
    if (!v.is_number()) return std::string("is not a number");
    if (!v.is_number_integer()) {
        // An integer too long for 64 bits comes out of the parser as a double.
        const double d = v.get<double>();
        return v.dump() + (std::floor(d) == d ? " is out of range" : " is not an integer");
    }
    const bool fits = v.is_number_unsigned()
                          ? v.get<std::uint64_t>() <= std::uint64_t(INT_MAX)
                          : v.get<std::int64_t>() >= INT_MIN && v.get<std::int64_t>() <= INT_MAX;
    if (!fits) return v.dump() + " is out of range";
    return std::nullopt;
}

// Every weight within the bounds of its term's kind.
std::optional<std::string> check_bounds(const EvalParams& p) {
    for (int t = 0; t < TERM_COUNT; ++t) {
        const int limit = TERM_KINDS[t] == TermKind::KING_DANGER ? EvalWeights::KING_DANGER_LIMIT
                                                                 : EvalWeights::LINEAR_LIMIT;
        for (int i = 0; i < TERM_SIZES[t]; ++i) {
            const Weight w = p.weights[std::size_t(TERM_OFFSETS[t] + i)];
            if (std::abs(w.mg) > limit || std::abs(w.eg) > limit)
                return std::string("term \"") + TERM_NAMES[t] + "\" entry " + std::to_string(i) +
                       " [" + std::to_string(w.mg) + ", " + std::to_string(w.eg) +
                       "] is outside -" + std::to_string(limit) + ".." + std::to_string(limit);
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<std::string> EvalParams::from_json(const nlohmann::json& eval, EvalParams& out) {
    if (!eval.is_object()) return "\"eval\" must be an object";
    for (const auto& [key, value] : eval.items())
        if (!find_term(key)) return "unknown evaluation term " + quoted_key(key);
    EvalParams p;
    for (int t = 0; t < TERM_COUNT; ++t) {
        const char* name = TERM_NAMES[t];
        if (!eval.contains(name)) return std::string("missing evaluation term \"") + name + "\"";
        const auto& arr = eval.at(name);
        if (!arr.is_array() || int(arr.size()) != TERM_SIZES[t])
            return std::string("term \"") + name + "\" needs " + std::to_string(TERM_SIZES[t]) +
                   " [mg, eg] pairs";
        for (int i = 0; i < TERM_SIZES[t]; ++i) {
            const auto& pair = arr.at(i);
            const std::string entry =
                std::string("term \"") + name + "\" entry " + std::to_string(i);
            if (!pair.is_array() || pair.size() != 2) return entry + " must be [mg, eg] integers";
            for (int half = 0; half < 2; ++half)
                if (auto why = not_a_weight(pair[std::size_t(half)]))
                    return entry + " must be [mg, eg] integers: its " + (half ? "eg " : "mg ") +
                           *why;
            p.weights[TERM_OFFSETS[t] + i] = Weight{pair[0].get<int>(), pair[1].get<int>()};
        }
    }
    p.seal();
    out = p;
    return std::nullopt;
}

void EvalParams::seal() {
    std::uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (const Weight& w : weights) {
        for (int v : {w.mg, w.eg}) {
            h ^= std::uint64_t(std::uint32_t(v));
            h *= 0x100000001B3ULL;
            h ^= h >> 29;
        }
    }
    signature = h | 1;
}

nlohmann::json EvalParams::to_json() const {
    nlohmann::json j = nlohmann::json::object();
    for (int t = 0; t < TERM_COUNT; ++t) {
        nlohmann::json arr = nlohmann::json::array();
        for (int i = 0; i < TERM_SIZES[t]; ++i) {
            const Weight w = weights[TERM_OFFSETS[t] + i];
            arr.push_back({w.mg, w.eg});
        }
        j[TERM_NAMES[t]] = arr;
    }
    return j;
}

const EvalParams& default_eval_params() { return builtin_weights().params; }

std::optional<std::string> EvalWeights::from_json(const nlohmann::json& root, EvalWeights& out) {
    if (!root.is_object()) return std::string("must be a JSON object with an \"eval\" object");
    for (const auto& [key, value] : root.items())
        if (key != "eval" && key != "wdl" && key != "engine")
            return "unknown top-level key " + quoted_key(key) +
                   " (only \"eval\", \"wdl\", \"engine\")";
    if (!root.contains("eval")) return std::string("missing key \"eval\"");
    if (root.contains("engine") && !root.at("engine").is_object())
        return std::string("\"engine\" must be an object");
    EvalWeights w;
    if (auto err = EvalParams::from_json(root.at("eval"), w.params)) return "\"eval\": " + *err;
    if (auto err = check_bounds(w.params)) return "\"eval\": " + *err;
    if (root.contains("wdl")) {
        if (auto err = WdlModel::from_json(root.at("wdl"), w.wdl)) return "\"wdl\": " + *err;
    } else {
        w.wdl = default_wdl_model();
    }
    out = w;
    return std::nullopt;
}

std::optional<std::string> EvalWeights::from_text(std::string_view text, EvalWeights& out) {
    nlohmann::json root;
    if (auto err = parse_config(text, root)) return err;
    return from_json(root, out);
}

std::optional<std::string> EvalWeights::load(const std::string& path, EvalWeights& out) {
    std::string text;
    if (auto err = read_config_file(path, text)) return err;
    if (auto err = from_text(text, out)) return "'" + path + "': " + *err;
    return std::nullopt;
}

nlohmann::json EvalWeights::to_json() const {
    return nlohmann::json{{"eval", params.to_json()}, {"wdl", wdl.to_json()}};
}

std::optional<std::string> EvalWeights::save(const std::string& path) const {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return "'" + path + "': cannot be opened for writing";
    out << to_json().dump(2) << "\n";
    out.flush();
    if (!out) return "'" + path + "': write error";
    return std::nullopt;
}

const EvalWeights& builtin_weights() {
    static const EvalWeights weights = [] {
        EvalWeights w;
        if (auto err = EvalWeights::from_json(builtin_config(), w))
            throw std::runtime_error("engine.json: " + *err);
        return w;
    }();
    return weights;
}

} // namespace horizon
