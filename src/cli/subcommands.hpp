// The command line of `horizon` itself: the table of subcommands, which both dispatches and
// makes the usage text, and the flags of the UCI loop (no subcommand).
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace horizon {

struct Subcommand {
    const char* name;                              // "perft"
    const char* synopsis;                          // its flags in short, after "horizon perft"
    const char* summary;                           // what it does, one line
    int (*run)(int argc, const char* const* argv); // argv[0] is the name
};

// Every subcommand, in the order the usage lists them.
std::span<const Subcommand> subcommands();
// The subcommand called `name`, or nullptr.
const Subcommand* find_subcommand(std::string_view name);

// `horizon --help`: the UCI loop's flags, then the subcommands from the table.
std::string usage_text();

// The whole command line: a subcommand by the table, `help [SUBCOMMAND]`, or the UCI loop with
// its flags (--eval-file FILE, --strength-override ROW, --version, --help). Returns the exit
// status.
int horizon_main(int argc, const char* const* argv);

} // namespace horizon
