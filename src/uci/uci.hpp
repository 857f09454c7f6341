// The UCI loop: reads commands from an istream (on the calling thread), answers through one
// synchronized writer; searches run on the engine's thread, so input is never blocked.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "uci/options.hpp"
#include "uci/writer.hpp"

namespace horizon {

class UciLoop {
public:
    UciLoop(std::istream& in, std::ostream& out, Engine& engine);
    // Runs until `quit` or end of input; a running search is stopped before returning.
    void run();
    // Handles one line; false when the loop should end.
    bool handle(const std::string& line);

    // A UCI `info` line for a search report.
    static std::string format_info(const SearchReport& r, const Position& root);

private:
    void info_string(const std::string& text);
    void cmd_uci();
    void cmd_setoption(const std::vector<std::string>& args);
    void cmd_position(const std::vector<std::string>& args);
    void cmd_go(const std::vector<std::string>& args);
    void cmd_perft(const std::vector<std::string>& args);
    void cmd_bench(const std::vector<std::string>& args);
    void register_options();

    std::istream& in_;
    SyncWriter out_;
    Engine& engine_;
    OptionRegistry options_;
    bool debug_ = false;
};

} // namespace horizon
