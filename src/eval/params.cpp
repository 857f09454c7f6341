#include "eval/params.hpp"

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace horizon {

namespace {

// A weight as JSON: an integer that fits an int.
bool is_weight(const nlohmann::json& v) {
    if (!v.is_number_integer()) return false;
    if (v.is_number_unsigned()) return v.get<std::uint64_t>() <= std::uint64_t(INT_MAX);
    const std::int64_t n = v.get<std::int64_t>();
    return n >= INT_MIN && n <= INT_MAX;
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

constexpr std::uintmax_t MAX_WEIGHTS_FILE_BYTES = 16u << 20;

} // namespace

std::optional<std::string> EvalParams::from_json(const nlohmann::json& eval, EvalParams& out) {
    if (!eval.is_object()) return "\"eval\" must be an object";
    for (const auto& [key, value] : eval.items()) {
        bool known = false;
        for (const char* name : TERM_NAMES)
            known |= key == name;
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
            if (!pair.is_array() || pair.size() != 2 || !is_weight(pair[0]) || !is_weight(pair[1]))
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

const EvalParams& default_eval_params() { return builtin_weights().params; }

std::optional<std::string> EvalWeights::from_json(const nlohmann::json& root, EvalWeights& out) {
    if (!root.is_object()) return std::string("must be a JSON object with an \"eval\" object");
    for (const auto& [key, value] : root.items())
        if (key != "eval" && key != "wdl" && key != "engine")
            return "unknown top-level key \"" + key + "\" (only \"eval\", \"wdl\", \"engine\")";
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

std::optional<std::string> EvalWeights::load(const std::string& path, EvalWeights& out) {
    if (path.empty()) return std::string("no file name given");
    const std::string file = "'" + path + "'";
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!std::filesystem::exists(status)) return file + ": no such file";
    if (ec) return file + ": cannot be read (" + ec.message() + ")";
    if (!std::filesystem::is_regular_file(status)) return file + ": not a regular file";
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) return file + ": cannot be read (" + ec.message() + ")";
    if (size > MAX_WEIGHTS_FILE_BYTES)
        return file + ": " + std::to_string(size) + " bytes is too large for a weights file";
    std::ifstream in(path, std::ios::binary);
    if (!in) return file + ": cannot be opened for reading";
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) return file + ": read error";
    nlohmann::json root;
    try {
        root = nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::exception& e) {
        // "[json.exception.parse_error.101] parse error at line 3, column 7: ..." without
        // the bracketed prefix.
        std::string why = e.what();
        const auto close = why.find("] ");
        if (why.rfind("[json.exception", 0) == 0 && close != std::string::npos)
            why.erase(0, close + 2);
        return file + ": not valid JSON: " + why;
    }
    if (auto err = from_json(root, out)) return file + ": " + *err;
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
