#include "cli/search_flags.hpp"

#include "cli/command_line.hpp"

namespace horizon {

namespace {

constexpr std::uint64_t MAX_DEPTH = 100;
constexpr std::uint64_t MAX_MOVETIME_MS = 24ull * 3600 * 1000;
constexpr std::uint64_t MAX_NODES = 1'000'000'000'000ull;
constexpr std::uint64_t MAX_THREADS = 1024;
constexpr const char* LIMIT_FLAGS[] = {"depth", "movetime", "nodes"};

} // namespace

std::string SearchFlags::limit_text() const {
    if (limits.depth) return "depth " + std::to_string(limits.depth);
    if (limits.nodes) return std::to_string(limits.nodes) + " nodes a move";
    return std::to_string(limits.movetime) + " ms a move";
}

std::string SearchFlags::text() const {
    return limit_text() + ", " + std::to_string(threads) + (threads == 1 ? " thread" : " threads") +
           ", hash " + std::to_string(hash_mib) + " MiB";
}

std::optional<std::string> SearchFlags::apply(Engine& engine,
                                              std::vector<std::string>& problems) const {
    engine.set_threads(threads);
    engine.set_move_overhead(0); // no GUI between: --movetime is the whole time a position gets
    if (!engine.set_hash(std::size_t(hash_mib)))
        return "--hash " + std::to_string(hash_mib) + ": this machine cannot hold it";
    if (syzygy_path) {
        const TbLoad load = engine.set_syzygy_path(*syzygy_path);
        problems.insert(problems.end(), load.problems.begin(), load.problems.end());
        if (!engine.tablebases().enabled())
            return "--syzygy-path '" + *syzygy_path + "': " + load.summary();
    }
    return std::nullopt;
}

void add_search_flags(CommandLine& cli, std::int64_t default_movetime_ms) {
    // clang-format off
    cli.add("Search")
        ("depth", "search each position to this depth", cxxopts::value<std::string>(), "N")
        ("movetime", "search each position this many milliseconds (default " + std::to_string(default_movetime_ms) + ")", cxxopts::value<std::string>(), "MS")
        ("nodes", "search each position this many nodes", cxxopts::value<std::string>(), "N")
        ("threads", "search threads", cxxopts::value<std::string>()->default_value("1"), "N")
        ("hash", "hash table, MiB", cxxopts::value<std::string>()->default_value(std::to_string(Engine::DEFAULT_HASH_MIB)), "MB")
        ("syzygy-path", "Syzygy tables (folders joined by ':', ';' on Windows): the search uses them and the tables' verdict is shown where they hold a position", cxxopts::value<std::string>(), "PATH");
    // clang-format on
}

SearchFlags read_search_flags(const cxxopts::ParseResult& args, std::int64_t default_movetime_ms) {
    int given = 0;
    for (const char* flag : LIMIT_FLAGS)
        given += args.count(flag) ? 1 : 0;
    if (given > 1) throw UsageError("--depth, --movetime, --nodes: give one of them, not several");
    SearchFlags f;
    if (args.count("depth"))
        f.limits.depth = int(whole_flag(args, "depth", 1, MAX_DEPTH));
    else if (args.count("nodes"))
        f.limits.nodes = whole_flag(args, "nodes", 1, MAX_NODES);
    else if (args.count("movetime"))
        f.limits.movetime = std::int64_t(whole_flag(args, "movetime", 1, MAX_MOVETIME_MS));
    else
        f.limits.movetime = default_movetime_ms;
    f.threads = int(whole_flag(args, "threads", 1, MAX_THREADS));
    f.hash_mib = int(whole_flag(args, "hash", 1, Engine::MAX_HASH_MIB));
    if (args.count("syzygy-path")) f.syzygy_path = args["syzygy-path"].as<std::string>();
    return f;
}

} // namespace horizon
