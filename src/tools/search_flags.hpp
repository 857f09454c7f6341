// The flags that say how hard analyze and epd search: one limit (--depth D, --movetime MS or
// --nodes N), --threads T and --hash MB.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <cxxopts.hpp>

#include "engine/engine.hpp"
#include "search/timeman.hpp"

namespace horizon {

struct SearchFlags {
    SearchLimits limits;
    int threads = 1;
    int hash_mib = Engine::DEFAULT_HASH_MIB;
    std::optional<std::string> syzygy_path; // Syzygy tables for the search and the verdicts

    // "depth 12", "100 ms a move", "5000 nodes a move".
    std::string limit_text() const;
    // "100 ms a move, 1 thread, hash 16 MiB".
    std::string text() const;
    // Sets the engine's threads, hash and tables; an error when the hash cannot be had or the
    // tables' path holds no table. What else is wrong with the path (a folder that is not
    // there, a file refused) goes into `problems`.
    std::optional<std::string> apply(Engine& engine, std::vector<std::string>& problems) const;
};

// Adds --depth, --movetime, --nodes, --threads, --hash and --syzygy-path to `options`.
void add_search_flags(cxxopts::Options& options, std::int64_t default_movetime_ms);

// Reads them (the default: --movetime default_movetime_ms). Throws std::invalid_argument
// with a message naming the flag when a value is not a number in range or two limits are
// given.
SearchFlags read_search_flags(const cxxopts::ParseResult& args, std::int64_t default_movetime_ms);

// The flag's value as a whole number from lo to hi; throws std::invalid_argument naming it.
std::uint64_t flag_number(const cxxopts::ParseResult& args, const std::string& flag,
                          std::uint64_t lo, std::uint64_t hi);

} // namespace horizon
