// The command line (cli/command_line.hpp): the input's lines are the arguments. A command
// line of every kind of flag (text with a short name, a number, a switch, a repeatable list,
// words without a flag) is read by CommandLine: it asks for help (the usage on stdout, status
// 0), or is refused in one line on stderr that names the program and its --help (status 2), or
// is read, saying nothing; a number read is within its bounds. Then `eval`, whose words are a
// FEN, runs on the same arguments (the flags that name files taken out first: no file is read).
#include <algorithm>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "cli/eval.hpp"
#include "fuzz_support.hpp"

using namespace horizon;

namespace {

const CommandLine& command_line() {
    static const CommandLine cli = [] {
        CommandLine c("fuzz", "A command line of every kind of flag.");
        c.add()("o,out", "a file", cxxopts::value<std::string>(), "FILE")(
            "depth", "a number", cxxopts::value<std::string>(), "N")("divide", "a switch")(
            "data", "a list", cxxopts::value<std::vector<std::string>>(), "FILE");
        c.repeatable({"data"});
        c.positional({"first", "rest"}, "[WORD...]", true);
        return c;
    }();
    return cli;
}

void check_command_line(const std::vector<std::string>& args) {
    std::vector<const char*> argv{"fuzz"};
    for (const std::string& a : args)
        argv.push_back(a.c_str());
    const CommandLine& cli = command_line();
    std::ostringstream out, err;
    cxxopts::ParseResult parsed;
    const auto status = cli.parse(int(argv.size()), argv.data(), parsed, out, err);
    const std::string said = err.str();
    if (!status) {
        FUZZ_CHECK(out.str().empty() && said.empty(), said);
        if (parsed.count("depth")) {
            try {
                const std::uint64_t d = whole_flag(parsed, "depth", 1, 20);
                FUZZ_CHECK(d >= 1 && d <= 20, "--depth out of its bounds");
            } catch (const UsageError& e) {
                FUZZ_CHECK(std::string(e.what()).rfind("--depth: ", 0) == 0, e.what());
            }
        }
        return;
    }
    if (*status == 0) {
        FUZZ_CHECK(out.str() == cli.help() && said.empty(), "help");
        return;
    }
    FUZZ_CHECK(*status == USAGE_ERROR_STATUS, "the exit status of a mistake");
    FUZZ_CHECK(out.str().empty(), "a mistake printed on stdout");
    FUZZ_CHECK(said.rfind("horizon fuzz: ", 0) == 0, said);
    FUZZ_CHECK(said.find('\n') == said.size() - 1, "not one line: " + said);
    const std::string tail = " (see horizon fuzz --help)\n";
    FUZZ_CHECK(said.size() > tail.size() && said.substr(said.size() - tail.size()) == tail, said);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz_init();
    std::vector<std::string> args;
    for (std::string_view l : fuzz_lines(fuzz_text(data, size)))
        args.emplace_back(l);
    if (args.size() > 64) return 0;
    check_command_line(args);
    // eval reads no file here: the flags that name one go, with whatever follows them.
    const auto names_file = [](const std::string& a) {
        return a.rfind("--eval-file", 0) == 0 || a.rfind("--syzygy-path", 0) == 0;
    };
    args.erase(std::find_if(args.begin(), args.end(), names_file), args.end());
    std::vector<const char*> argv{"eval"};
    for (const std::string& a : args)
        argv.push_back(a.c_str());
    const int rc = eval_main(int(argv.size()), argv.data());
    FUZZ_CHECK(rc == 0 || rc == 2, "eval's exit status");
    return 0;
}
