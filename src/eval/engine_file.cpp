#include "eval/engine_file.hpp"

#include "engine_json.hpp"

namespace horizon {

const nlohmann::json& builtin_config() {
    static const nlohmann::json config = nlohmann::json::parse(ENGINE_JSON);
    return config;
}

const nlohmann::ordered_json& builtin_config_ordered() {
    static const nlohmann::ordered_json config = nlohmann::ordered_json::parse(ENGINE_JSON);
    return config;
}

} // namespace horizon
