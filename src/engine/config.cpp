#include "engine/config.hpp"

#include <nlohmann/json.hpp>

#include "eval/engine_file.hpp"

namespace horizon {

const EngineIdentity& engine_identity() {
    static const EngineIdentity identity = [] {
        const auto& e = builtin_config().at("engine");
        return EngineIdentity{e.at("name").get<std::string>(), e.at("version").get<std::string>(),
                              e.at("author").get<std::string>()};
    }();
    return identity;
}

} // namespace horizon
