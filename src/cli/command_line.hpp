// One subcommand's command line, the same way for every subcommand: its flags through cxxopts
// (each value read as text and checked here, so that a message names the flag), `--help` and
// `-h` print the usage on stdout and exit 0, and a mistake is one line on stderr,
// "horizon perft: --depth: not a number: 'x' (see horizon perft --help)", exit status 2.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <cxxopts.hpp>

#include "eval/params.hpp"

namespace horizon {

// The exit status of a command-line mistake.
inline constexpr int USAGE_ERROR_STATUS = 2;

// A mistake on the command line. The message starts with the argument at fault where there is
// one ("--depth: not a number: 'x'").
class UsageError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

class CommandLine {
public:
    // `command`: the subcommand ("perft"), or "" for horizon itself.
    CommandLine(const std::string& command, const std::string& description);

    // "horizon perft" (or "horizon").
    const std::string& program() const { return program_; }

    // Adds flags shown in the usage (in `group`, "" the first one); -h, --help are there
    // already. Every flag with a value names it: ("depth", "...", value(), "N").
    cxxopts::OptionAdder add(const std::string& group = "") { return options_.add_options(group); }
    // Adds the names that words without a flag fill, in order (`bench 7 2`); they are flags of
    // their own not shown among the others: `words` is how the usage line shows them. With
    // `last_gathers` the last name takes every word left (a list of text).
    void positional(const std::vector<std::string>& names, const std::string& words,
                    bool last_gathers = false);
    // Flags that may be given more than once (their values gathered); any other flag given
    // twice is a mistake.
    void repeatable(std::initializer_list<const char*> names);
    // What the usage line shows after the program ("[OPTION...] FILE" by default).
    void synopsis(const std::string& text) { options_.custom_help(text); }
    // Text printed after the flags in --help.
    void footer(const std::string& text) { footer_ = text; }

    // The whole --help text.
    std::string help() const;

    // Reads argv (argv[0] the subcommand's name). When the command line asks for help, prints
    // it on `out` and returns 0; when it is wrong, prints the one-line message on `err` and
    // returns 2; else fills `args` and returns nullopt.
    std::optional<int> parse(int argc, const char* const* argv, cxxopts::ParseResult& args,
                             std::ostream& out, std::ostream& err) const;
    std::optional<int> parse(int argc, const char* const* argv, cxxopts::ParseResult& args) const;

    // Prints "horizon perft: MESSAGE (see horizon perft --help)" on `err`; returns 2.
    int fail(const std::string& message, std::ostream& err) const;
    int fail(const std::string& message) const;

private:
    cxxopts::ParseResult parse_or_throw(int argc, const char* const* argv) const;

    std::string program_;
    mutable cxxopts::Options options_; // cxxopts parses through a non-const member
    std::set<std::string> repeatable_;
    std::string footer_;
    static constexpr const char* HIDDEN_GROUP = "(positional)";
};

// The value of `flag` as a whole number from lo to hi. Throws UsageError: "--depth: not a
// whole number: 'x'", "--depth: out of range (1 to 20): '25'".
std::uint64_t whole_flag(const cxxopts::ParseResult& args, const std::string& flag,
                         std::uint64_t lo, std::uint64_t hi);
// The same for text that is not a flag's value; `name` names it in the message.
std::uint64_t whole_number(const std::string& name, const std::string& text, std::uint64_t lo,
                           std::uint64_t hi);
// The value of `flag` as a decimal number from lo to hi (both included).
double real_flag(const cxxopts::ParseResult& args, const std::string& flag, double lo, double hi);
// The value of a text flag, nullopt when it is not given.
std::optional<std::string> text_flag(const cxxopts::ParseResult& args, const std::string& flag);

// The position of `--fen FEN` and of the words without a flag after it or instead of it
// (`eval 8/8/8/8/8/k7/2R5/4K3 w - - 0 1` and `eval --fen '8/8/...'` alike): the words joined by
// spaces, "" when there are none. `words` names the positional flag that gathers them.
std::string fen_argument(const cxxopts::ParseResult& args, const std::string& words);

// The weights a subcommand evaluates with: those of `file`, or the built-in ones without one.
// Returns an error message (naming the file and the key) when the file cannot be loaded.
std::optional<std::string> weights_for(const std::optional<std::string>& file, EvalWeights& out);

} // namespace horizon
