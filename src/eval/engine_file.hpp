// engine.json-style text, the one place that reads it: engine.json as compiled into the binary,
// a weights file (EvalFile, --eval-file), the tuner's start and the tuner's output before it is
// written. Each section has its own reader that takes its part from the parsed text:
// EvalWeights ("eval", "wdl"), WdlModel ("wdl") and the engine's identity ("engine",
// engine/config).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace horizon {

// A file larger than this is refused unread (engine.json is some 20 kB).
inline constexpr std::uintmax_t MAX_CONFIG_FILE_BYTES = std::uintmax_t(16) << 20;
// Objects and arrays nested deeper than this are refused (engine.json nests 4 deep).
inline constexpr int MAX_CONFIG_DEPTH = 32;

// Parses engine.json-style text. Stricter than a JSON parser alone, it refuses:
//   - text that is not JSON (the message gives the line and column);
//   - an object with the same key twice, at any depth (a JSON parser would keep the last);
//   - a number too large for a double (1e400);
//   - nesting deeper than MAX_CONFIG_DEPTH.
// On error returns what is wrong, naming the key where it was (`"wdl"."a"[0]`), and leaves
// `out` as it was.
std::optional<std::string> parse_config(std::string_view text, nlohmann::json& out);
// The same, keeping the keys in the file's order (for a tool that writes the file back).
std::optional<std::string> parse_config(std::string_view text, nlohmann::ordered_json& out);

// Reads a whole file of engine.json-style text into `text`, unparsed. Refuses a missing file,
// anything but a regular file, and one larger than MAX_CONFIG_FILE_BYTES; each message begins
// with the file's name in quotes. `text` is set only on success.
std::optional<std::string> read_config_file(const std::string& path, std::string& text);

// A key as messages show it: in double quotes, JSON-escaped (no control character gets
// through), shortened when long.
std::string quoted_key(std::string_view key);

// The built-in engine.json, parsed once at first use (through parse_config: a duplicate key in
// it is an error at start-up, and a test catches it first).
const nlohmann::json& builtin_config();
// The same text with its keys in the file's order (what a tool that writes an engine.json
// back keeps its layout with).
const nlohmann::ordered_json& builtin_config_ordered();

} // namespace horizon
