// The flags that say how hard analyze and epd search: one limit (--depth N, --movetime MS or
// --nodes N), --threads N and --hash MB.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <cxxopts.hpp>

#include "cli/command_line.hpp"
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

// Adds --depth, --movetime, --nodes, --threads, --hash and --syzygy-path to `cli`.
void add_search_flags(CommandLine& cli, std::int64_t default_movetime_ms);

// Reads them (the default: --movetime default_movetime_ms). Throws UsageError naming the flag
// when a value is not a number in range or two limits are given.
SearchFlags read_search_flags(const cxxopts::ParseResult& args, std::int64_t default_movetime_ms);

} // namespace horizon
