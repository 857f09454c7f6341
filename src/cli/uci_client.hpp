// Another UCI engine as a child process: set it up, search a position with limits, and follow
// its `info` lines. (For `horizon epd --engine`: one judge for every engine's answers.)
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/position.hpp"
#include "platform/subprocess.hpp"
#include "search/search.hpp"
#include "search/timeman.hpp"

namespace horizon {

// What an `info` line says (only lines with a score and a pv are passed on).
struct UciInfo {
    int depth = 0;
    int multipv = 1;
    Score score = 0; // side to move's view; mates as Horizon's mate scores
    Bound bound = BOUND_EXACT;
    std::uint64_t nodes = 0;
    std::int64_t time_ms = 0;
    std::vector<std::string> pv; // UCI move text
};

// Reads an info line; nullopt when it has no score or no pv.
std::optional<UciInfo> parse_uci_info(const std::string& line);

class UciClient {
public:
    // Starts `command` (a path, run without arguments) and waits for uciok. Throws
    // std::runtime_error with the reason when it cannot.
    explicit UciClient(const std::string& command);
    ~UciClient(); // sends quit (the child is killed when it does not exit)
    UciClient(const UciClient&) = delete;
    UciClient& operator=(const UciClient&) = delete;

    const std::string& name() const { return name_; } // from "id name"
    void set_option(const std::string& name, const std::string& value);
    // ucinewgame, then isready; throws when the engine does not answer.
    void new_game();
    // Searches `pos` (sent as a FEN) with the limits (depth, nodes or movetime); each info line
    // goes to on_info. Returns the bestmove text; throws when the engine stops answering.
    std::string search(const Position& pos, const SearchLimits& limits,
                       const std::function<void(const UciInfo&)>& on_info);

private:
    std::string command_;
    std::unique_ptr<Subprocess> process_;
    std::string name_;
};

} // namespace horizon
