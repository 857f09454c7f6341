// engine.json, compiled into the binary: the engine's identity. The text itself is parsed by
// src/eval (builtin_config()), which also reads the weights and the WDL model from it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace horizon {

struct EngineIdentity {
    std::string name;
    std::string version;
    std::string author;
};

// The parsed engine.json (the same object as builtin_config() of eval/params.hpp).
const nlohmann::json& engine_config();
const EngineIdentity& engine_identity();

} // namespace horizon
