// The engine.json the tuner starts from and the one it writes: the start's weights and
// sections, and the output formatted as engine.json is (one term a line, long tables eight
// pairs a line, the WDL model's coefficients to three decimals).
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "eval/params.hpp"
#include "eval/wdl.hpp"

namespace horizon {

// Reads the start: an engine.json-style file, or the built-in configuration when `path` is
// empty. Sets `config` (its sections, an "engine" section first when it had none) and
// `params` (its weights), or returns what is wrong, naming the file and the key. A file that
// the engine's loader (EvalWeights) refuses is refused, and so is an "engine" section without
// the three strings the engine reads from it when built in.
std::optional<std::string> read_start(const std::string& path, nlohmann::ordered_json& config,
                                      EvalParams& params);

// A complete engine.json: `start`'s "engine" section, the weights formatted like engine.json,
// and the WDL model when given (else the start's "wdl" section, if any, unchanged). The text
// is not checked here: the tuner checks it with the engine's loader before writing it.
std::string format_config(const nlohmann::ordered_json& start, const EvalParams& params,
                          const std::optional<WdlModel>& wdl);

} // namespace horizon
