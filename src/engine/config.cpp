#include "engine/config.hpp"

#include "engine_json.hpp"

namespace horizon {

const nlohmann::json& engine_config() {
    static const nlohmann::json config = nlohmann::json::parse(ENGINE_JSON);
    return config;
}

const EngineIdentity& engine_identity() {
    static const EngineIdentity identity = [] {
        const auto& e = engine_config().at("engine");
        return EngineIdentity{e.at("name").get<std::string>(), e.at("version").get<std::string>(),
                              e.at("author").get<std::string>()};
    }();
    return identity;
}

} // namespace horizon
