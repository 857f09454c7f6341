#include "eval/params.hpp"

#include <stdexcept>

#include "engine/config.hpp"

namespace horizon {

std::optional<std::string> EvalParams::from_json(const nlohmann::json& eval, EvalParams& out) {
    if (!eval.is_object()) return "\"eval\" must be an object";
    for (const auto& [key, value] : eval.items()) {
        bool known = false;
        for (const char* name : TERM_NAMES) known |= key == name;
        if (!known) return "unknown evaluation term \"" + key + "\"";
    }
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
            if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_integer() ||
                !pair[1].is_number_integer())
                return std::string("term \"") + name + "\" entry " + std::to_string(i) +
                       " must be [mg, eg] integers";
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

const EvalParams& default_eval_params() {
    static const EvalParams params = [] {
        EvalParams p;
        if (auto err = EvalParams::from_json(engine_config().at("eval"), p))
            throw std::runtime_error("engine.json: " + *err);
        return p;
    }();
    return params;
}

} // namespace horizon
