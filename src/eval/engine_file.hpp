// engine.json as compiled into the binary: the one place that parses it. Each section has its
// own reader that takes its part from here: EvalWeights ("eval", "wdl"), WdlModel ("wdl") and
// the engine's identity ("engine", engine/config).
#pragma once

#include <nlohmann/json.hpp>

namespace horizon {

// The parsed text, once, at first use.
const nlohmann::json& builtin_config();
// The same text with its keys in the file's order (what a tool that writes an engine.json
// back keeps its layout with).
const nlohmann::ordered_json& builtin_config_ordered();

} // namespace horizon
