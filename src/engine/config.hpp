// engine.json, compiled into the binary: identity now, weights and parameters later.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace horizon {

struct EngineIdentity {
    std::string name;
    std::string version;
    std::string author;
};

// The parsed engine.json (throws at start-up if it is malformed, which a test guards).
const nlohmann::json& engine_config();
const EngineIdentity& engine_identity();

} // namespace horizon
