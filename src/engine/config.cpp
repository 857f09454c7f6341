#include "engine/config.hpp"

#include "eval/params.hpp"

namespace horizon {

const nlohmann::json& engine_config() { return builtin_config(); }

const EngineIdentity& engine_identity() {
    static const EngineIdentity identity = [] {
        const auto& e = engine_config().at("engine");
        return EngineIdentity{e.at("name").get<std::string>(), e.at("version").get<std::string>(),
                              e.at("author").get<std::string>()};
    }();
    return identity;
}

} // namespace horizon
