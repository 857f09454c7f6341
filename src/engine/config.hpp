// engine.json, compiled into the binary: the engine's identity (its "engine" section). The text
// itself is parsed in one place, eval/engine_file (builtin_config()).
#pragma once

#include <string>

namespace horizon {

struct EngineIdentity {
    std::string name;
    std::string version;
    std::string author;
};

const EngineIdentity& engine_identity();

} // namespace horizon
