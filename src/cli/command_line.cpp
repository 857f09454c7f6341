#include "cli/command_line.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace horizon {

namespace {

// The name cxxopts quotes in its message ("Option 'x' does not exist"), "" when none.
std::string quoted_name(const std::string& message) {
    const std::size_t open = message.find(cxxopts::LQUOTE);
    if (open == std::string::npos) return "";
    const std::size_t from = open + cxxopts::LQUOTE.size();
    const std::size_t close = message.find(cxxopts::RQUOTE, from);
    if (close == std::string::npos) return "";
    return message.substr(from, close - from);
}

// A flag's name as it is written: "-o", "--depth".
std::string written(const std::string& name) { return (name.size() == 1 ? "-" : "--") + name; }

// cxxopts' complaint as a message that starts with the argument at fault.
std::string describe(const cxxopts::exceptions::exception& e, int argc, const char* const* argv) {
    const std::string name = quoted_name(e.what());
    if (dynamic_cast<const cxxopts::exceptions::no_such_option*>(&e))
        return written(name) + ": no such flag";
    if (dynamic_cast<const cxxopts::exceptions::missing_argument*>(&e) ||
        dynamic_cast<const cxxopts::exceptions::option_requires_argument*>(&e))
        return written(name) + ": needs a value";
    if (dynamic_cast<const cxxopts::exceptions::invalid_option_syntax*>(&e))
        return "'" + name + "': not a flag (flags are written -x or --name)";
    if (dynamic_cast<const cxxopts::exceptions::incorrect_argument_type*>(&e)) {
        // Only a switch given a value (--divide=maybe) gets here: every other value is text.
        for (int i = 1; i < argc; ++i) {
            const std::string word = argv[i];
            const std::size_t eq = word.find('=');
            if (word.rfind("--", 0) == 0 && eq != std::string::npos && word.substr(eq + 1) == name)
                return word.substr(0, eq) + ": takes no value (given '" + name + "')";
        }
        return "'" + name + "': not a value here";
    }
    return e.what();
}

} // namespace

CommandLine::CommandLine(const std::string& command, const std::string& description)
    : program_(command.empty() ? "horizon" : "horizon " + command),
      options_(program_, description) {
    options_.add_options()("h,help", "show this help and exit");
}

void CommandLine::positional(const std::vector<std::string>& names, const std::string& words,
                             bool last_gathers) {
    auto adder = options_.add_options(HIDDEN_GROUP);
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (last_gathers && i + 1 == names.size()) {
            adder(names[i], "", cxxopts::value<std::vector<std::string>>());
            repeatable_.insert(names[i]);
        } else {
            adder(names[i], "", cxxopts::value<std::string>());
        }
    }
    options_.parse_positional(names);
    options_.positional_help(words);
}

void CommandLine::repeatable(std::initializer_list<const char*> names) {
    repeatable_.insert(names.begin(), names.end());
}

std::string CommandLine::help() const {
    std::vector<std::string> shown;
    for (const std::string& group : options_.groups())
        if (group != HIDDEN_GROUP) shown.push_back(group);
    return options_.help(shown) + footer_;
}

cxxopts::ParseResult CommandLine::parse_or_throw(int argc, const char* const* argv) const {
    cxxopts::ParseResult args;
    try {
        args = options_.parse(argc, argv);
    } catch (const cxxopts::exceptions::exception& e) {
        throw UsageError(describe(e, argc, argv));
    }
    if (args.count("help")) return args;
    if (!args.unmatched().empty())
        throw UsageError("'" + args.unmatched()[0] + "': unexpected argument");
    for (const auto& kv : args.arguments()) {
        if (repeatable_.count(kv.key()) || args.count(kv.key()) < 2) continue;
        throw UsageError(written(kv.key()) + ": given twice");
    }
    return args;
}

std::optional<int> CommandLine::parse(int argc, const char* const* argv, cxxopts::ParseResult& args,
                                      std::ostream& out, std::ostream& err) const {
    try {
        args = parse_or_throw(argc, argv);
    } catch (const UsageError& e) {
        return fail(e.what(), err);
    }
    if (args.count("help")) {
        out << help();
        return 0;
    }
    return std::nullopt;
}

std::optional<int> CommandLine::parse(int argc, const char* const* argv,
                                      cxxopts::ParseResult& args) const {
    return parse(argc, argv, args, std::cout, std::cerr);
}

int CommandLine::fail(const std::string& message, std::ostream& err) const {
    // One line: a message that quotes a line break keeps it on the line as text.
    std::string line;
    for (char c : message)
        line += c == '\n' ? std::string("\\n") : std::string(1, c);
    err << program_ << ": " << line << " (see " << program_ << " --help)\n";
    return USAGE_ERROR_STATUS;
}

int CommandLine::fail(const std::string& message) const { return fail(message, std::cerr); }

std::uint64_t whole_number(const std::string& name, const std::string& text, std::uint64_t lo,
                           std::uint64_t hi) {
    if (text.empty() || text.size() > 19 ||
        text.find_first_not_of("0123456789") != std::string::npos)
        throw UsageError(name + ": not a whole number: '" + text + "'");
    const std::uint64_t v = std::stoull(text);
    if (v < lo || v > hi) {
        const std::string range = hi == UINT64_MAX
                                      ? "at least " + std::to_string(lo)
                                      : std::to_string(lo) + " to " + std::to_string(hi);
        throw UsageError(name + ": out of range (" + range + "): '" + text + "'");
    }
    return v;
}

std::uint64_t whole_flag(const cxxopts::ParseResult& args, const std::string& flag,
                         std::uint64_t lo, std::uint64_t hi) {
    return whole_number(written(flag), args[flag].as<std::string>(), lo, hi);
}

double real_flag(const cxxopts::ParseResult& args, const std::string& flag, double lo, double hi) {
    const std::string text = args[flag].as<std::string>();
    const std::string name = written(flag);
    char* end = nullptr;
    const double v = text.empty() ? NAN : std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v) ||
        text.find_first_of(" \t\n") != std::string::npos)
        throw UsageError(name + ": not a number: '" + text + "'");
    if (v < lo || v > hi) {
        char range[64];
        if (std::isinf(hi))
            std::snprintf(range, sizeof range, "at least %g", lo);
        else
            std::snprintf(range, sizeof range, "%g to %g", lo, hi);
        throw UsageError(name + ": out of range (" + range + "): '" + text + "'");
    }
    return v;
}

std::optional<std::string> text_flag(const cxxopts::ParseResult& args, const std::string& flag) {
    if (!args.count(flag)) return std::nullopt;
    return args[flag].as<std::string>();
}

std::string fen_argument(const cxxopts::ParseResult& args, const std::string& words) {
    std::string fen = text_flag(args, "fen").value_or("");
    if (args.count(words))
        for (const std::string& w : args[words].as<std::vector<std::string>>())
            fen += (fen.empty() ? "" : " ") + w;
    return fen;
}

std::optional<std::string> weights_for(const std::optional<std::string>& file, EvalWeights& out) {
    if (!file) {
        out = builtin_weights();
        return std::nullopt;
    }
    return EvalWeights::load(*file, out);
}

} // namespace horizon
