// The UCI loop: reads commands from an istream (on the calling thread), answers through one
// synchronized writer; searches run on the engine's thread, so input is never blocked.
#pragma once

#include <iosfwd>
#include <optional>
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

    // Sets an option as `setoption` does (the command line's --eval-file uses it); returns
    // what `setoption` would have said in an `info string`, if anything.
    std::optional<std::string> set_option(const std::string& name, const std::string& value);
    // The value an option holds now (nullopt: no such option).
    std::optional<std::string> option_value(const std::string& name) const;

    // A UCI `info` line for a search report; with a WDL model, `wdl W D L` follows the score
    // (from the side to move at the root, at the root's material).
    static std::string format_info(const SearchReport& r, const Position& root,
                                   const WdlModel* wdl = nullptr);

    // The EvalFile value that stands for the weights compiled in (an empty value does too).
    static constexpr const char* EVAL_FILE_BUILTIN = "<built-in>";

private:
    void info_string(const std::string& text);
    void cmd_uci();
    // `line` is the whole command: the value is taken from it as written.
    void cmd_setoption(const std::string& line, const std::vector<std::string>& args);
    void cmd_position(const std::vector<std::string>& args);
    void cmd_go(const std::vector<std::string>& args);
    void cmd_perft(const std::vector<std::string>& args);
    void cmd_bench(const std::vector<std::string>& args);
    void register_options(); // all of them, in the order `uci` lists them:
    void register_search_options();
    void register_tablebase_options();
    void register_strength_options();
    void register_eval_options();

    std::istream& in_;
    SyncWriter out_;
    Engine& engine_;
    OptionRegistry options_;
    bool debug_ = false;
    bool show_wdl_ = false; // UCI_ShowWDL
    // UCI_LimitStrength as set, and UCI_AnalyseMode: the engine plays limited only while the
    // first is on and the second off (analysis is at full strength).
    bool limit_strength_ = false;
    bool analyse_mode_ = false;
    TbLoad tb_load_; // what the last SyzygyPath found
};

} // namespace horizon
