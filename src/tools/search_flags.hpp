// The flags that say how hard analyze and epd search: one limit (--depth D, --movetime MS or
// --nodes N), --threads T and --hash MB.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <cxxopts.hpp>

#include "engine/engine.hpp"
#include "search/timeman.hpp"

namespace horizon {

struct SearchFlags {
    SearchLimits limits;
    int threads = 1;
    int hash_mib = Engine::DEFAULT_HASH_MIB;

    // "depth 12", "100 ms a move", "5000 nodes a move".
    std::string limit_text() const;
    // "100 ms a move, 1 thread, hash 16 MiB".
    std::string text() const;
    // Sets the engine's threads and hash; an error when the hash cannot be had.
    std::optional<std::string> apply(Engine& engine) const;
};

// Adds --depth, --movetime, --nodes, --threads and --hash to `options`.
void add_search_flags(cxxopts::Options& options, std::int64_t default_movetime_ms);

// Reads them (the default: --movetime default_movetime_ms). Throws std::invalid_argument
// with a message naming the flag when a value is not a number in range or two limits are
// given.
SearchFlags read_search_flags(const cxxopts::ParseResult& args, std::int64_t default_movetime_ms);

// The flag's value as a whole number from lo to hi; throws std::invalid_argument naming it.
std::uint64_t flag_number(const cxxopts::ParseResult& args, const std::string& flag,
                          std::uint64_t lo, std::uint64_t hi);

} // namespace horizon
