// The command line where it is not cxxopts': the `--eval-file`/`--syzygy-path` flags that the
// UCI loop, `bench`, `eval` and `tbprobe` take by hand, and `eval`'s own arguments. The input's
// lines are the arguments. A flag taken leaves no trace of itself in the arguments; a refusal
// leaves them as they were. `eval` then runs on what is left (no file is read: the flags that
// name files are taken out first).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "tools/eval_file_flag.hpp"
#include "tools/eval_tool.hpp"

using namespace horizon;

namespace {

bool names_flag(const std::vector<std::string>& args, const std::string& flag) {
    return std::any_of(args.begin(), args.end(), [&](const std::string& a) {
        return a == flag || a.rfind(flag + "=", 0) == 0;
    });
}

// Takes `flag` as `take` does and checks what it must leave.
template <typename Take>
void check_take(std::vector<std::string>& args, const std::string& flag, Take take) {
    const std::vector<std::string> before = args;
    std::optional<std::string> value;
    if (auto err = take(args, value)) {
        FUZZ_CHECK(!err->empty(), flag);
        FUZZ_CHECK(args == before && !value, flag + ": refused, yet the arguments changed");
        // Drop every mention so that the next steps read no file.
        std::erase_if(args, [&](const std::string& a) { return a.rfind(flag, 0) == 0; });
        return;
    }
    FUZZ_CHECK(!names_flag(args, flag), flag + ": taken, yet still there");
    FUZZ_CHECK(value.has_value() == names_flag(before, flag), flag);
    FUZZ_CHECK(args.size() + (value ? 1 : 0) <= before.size(), flag);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz_init();
    std::vector<std::string> args;
    for (std::string_view l : fuzz_lines(fuzz_text(data, size)))
        args.emplace_back(l);
    if (args.size() > 64) return 0;
    check_take(args, EVAL_FILE_FLAG, [](auto& a, auto& v) { return take_eval_file_flag(a, v); });
    check_take(args, "--syzygy-path",
               [](auto& a, auto& v) { return take_value_flag(a, "--syzygy-path", "a folder", v); });
    // Whatever the earlier steps left of the file flags must not reach eval.
    std::erase_if(args, [](const std::string& a) { return a.rfind("--", 0) == 0; });
    std::vector<const char*> argv{"eval"};
    for (const std::string& a : args)
        argv.push_back(a.c_str());
    const int rc = eval_main(int(argv.size()), argv.data());
    FUZZ_CHECK(rc == 0 || rc == 2, "eval's exit status");
    return 0;
}
