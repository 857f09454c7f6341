#include "train/tuned_config.hpp"

#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/engine_file.hpp"

namespace horizon {

namespace {

// What engine/config reads of the "engine" section when the output is built in: three strings.
std::optional<std::string> check_identity(const nlohmann::ordered_json& engine) {
    for (const char* key : {"name", "version", "author"})
        if (!engine.contains(key) || !engine.at(key).is_string())
            return std::string("\"engine\": \"") + key +
                   "\" must be a string (the output is an engine.json to build with)";
    return std::nullopt;
}

} // namespace

// The starting configuration: the weights and the sections to copy into the output.
std::optional<std::string> read_start(const std::string& path, nlohmann::ordered_json& config,
                                      EvalParams& params) {
    if (path.empty()) {
        config = builtin_config_ordered();
        params = default_eval_params();
        return std::nullopt;
    }
    std::string text;
    if (auto err = read_config_file(path, text)) return "start file " + *err;
    const std::string file = "start file '" + path + "': ";
    // The engine's own loader: a start it would refuse (an unknown section, a weight out of
    // range, a bad WDL model, a key twice) is refused here, before any work.
    EvalWeights weights;
    if (auto err = EvalWeights::from_text(text, weights)) return file + *err;
    nlohmann::ordered_json j;
    if (auto err = parse_config(text, j)) return file + *err;
    if (j.contains("engine")) {
        if (auto err = check_identity(j.at("engine"))) return file + *err;
    } else {
        // The identity of the built-in configuration, first as in engine.json.
        nlohmann::ordered_json with;
        with["engine"] = builtin_config_ordered().at("engine");
        for (const auto& [key, value] : j.items())
            with[key] = value;
        j = with;
    }
    config = j;
    params = weights.params;
    return std::nullopt;
}

namespace {

// A JSON value on one line, with a space after each ':' and ',' (the style of engine.json).
std::string one_line(const nlohmann::ordered_json& j) {
    std::string s;
    if (j.is_object()) {
        s += '{';
        bool first = true;
        for (const auto& [key, value] : j.items()) {
            if (!first) s += ", ";
            first = false;
            s += nlohmann::ordered_json(key).dump() + ": " + one_line(value);
        }
        return s + '}';
    }
    if (j.is_array()) {
        s += '[';
        for (std::size_t i = 0; i < j.size(); ++i) {
            if (i) s += ", ";
            s += one_line(j[i]);
        }
        return s + ']';
    }
    return j.dump();
}

std::string decimal(double v) {
    if (std::abs(v) < 0.0005) v = 0;
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

std::string eval_section(const EvalParams& params) {
    constexpr int PER_LINE = 8;
    std::string s = "{\n";
    for (int t = 0; t < TERM_COUNT; ++t) {
        const auto pair = [&](int i) {
            const Weight w = params.weights[std::size_t(TERM_OFFSETS[t] + i)];
            std::string text(1, '[');
            text += std::to_string(w.mg);
            text += ", ";
            text += std::to_string(w.eg);
            return text + "]";
        };
        s += "    \"" + std::string(TERM_NAMES[t]) + "\": [";
        if (TERM_SIZES[t] <= PER_LINE) {
            for (int i = 0; i < TERM_SIZES[t]; ++i) {
                if (i) s += ", ";
                s += pair(i);
            }
            s += "]";
        } else {
            for (int i = 0; i < TERM_SIZES[t]; ++i) {
                if (i % PER_LINE == 0)
                    s += i ? ",\n      " : "\n      ";
                else
                    s += ", ";
                s += pair(i);
            }
            s += "\n    ]";
        }
        s += t + 1 < TERM_COUNT ? ",\n" : "\n";
    }
    return s + "  }";
}

std::string decimals(const WdlModel::Cubic& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i) s += ", ";
        s += decimal(v[i]);
    }
    return s + "]";
}

std::string wdl_section(const WdlModel& m) {
    return "{\"a\": " + decimals(m.a) + ", \"b\": " + decimals(m.b) + "}";
}

} // namespace

std::string format_config(const nlohmann::ordered_json& start, const EvalParams& params,
                          const std::optional<WdlModel>& wdl) {
    std::vector<std::pair<std::string, std::string>> sections;
    bool has_eval = false, has_wdl = false;
    for (const auto& [key, value] : start.items()) {
        if (key == "eval") {
            sections.emplace_back(key, eval_section(params));
            has_eval = true;
        } else if (key == "wdl" && wdl) {
            sections.emplace_back(key, wdl_section(*wdl));
            has_wdl = true;
        } else {
            sections.emplace_back(key, one_line(value));
        }
    }
    if (!has_eval) sections.emplace_back("eval", eval_section(params));
    if (wdl && !has_wdl) sections.emplace_back("wdl", wdl_section(*wdl));
    std::string s = "{\n";
    for (std::size_t i = 0; i < sections.size(); ++i)
        s += "  " + nlohmann::ordered_json(sections[i].first).dump() + ": " + sections[i].second +
             (i + 1 < sections.size() ? ",\n" : "\n");
    return s + "}\n";
}

} // namespace horizon
