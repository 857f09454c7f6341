#include "tools/eval_file_flag.hpp"

namespace horizon {

std::optional<std::string> take_eval_file_flag(std::vector<std::string>& args,
                                               std::optional<std::string>& file) {
    return take_value_flag(args, EVAL_FILE_FLAG, "a file name", file);
}

std::optional<std::string> take_value_flag(std::vector<std::string>& args, const std::string& flag,
                                           const std::string& what,
                                           std::optional<std::string>& value_out) {
    std::vector<std::string> rest;
    std::optional<std::string> found;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::optional<std::string> value;
        if (args[i] == flag) {
            if (i + 1 >= args.size()) return flag + " needs " + what;
            value = args[++i];
        } else if (args[i].rfind(flag + "=", 0) == 0) {
            value = args[i].substr(flag.size() + 1);
        } else {
            rest.push_back(args[i]);
            continue;
        }
        if (found) return flag + " is given twice";
        found = value;
    }
    args = std::move(rest);
    if (found) value_out = found;
    return std::nullopt;
}

std::optional<std::string> take_fen_words(std::vector<std::string>& args, std::string& fen) {
    std::string joined;
    for (const std::string& a : args) {
        if (a == "--fen") continue;
        const bool with_flag = a.rfind("--fen=", 0) == 0;
        if (!with_flag && a.rfind("--", 0) == 0) return "unknown option '" + a + "'";
        if (!joined.empty()) joined.push_back(' ');
        joined += with_flag ? a.substr(6) : a;
    }
    args.clear();
    fen = joined;
    return std::nullopt;
}

std::optional<std::string> weights_for(const std::optional<std::string>& file, EvalWeights& out) {
    if (!file) {
        out = builtin_weights();
        return std::nullopt;
    }
    return EvalWeights::load(*file, out);
}

} // namespace horizon
