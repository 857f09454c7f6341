#include "tools/eval_file_flag.hpp"

namespace horizon {

std::optional<std::string> take_eval_file_flag(std::vector<std::string>& args,
                                               std::optional<std::string>& file) {
    const std::string flag = EVAL_FILE_FLAG;
    std::vector<std::string> rest;
    std::optional<std::string> found;
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::optional<std::string> value;
        if (args[i] == flag) {
            if (i + 1 >= args.size()) return flag + " needs a file name";
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
    if (found) file = found;
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
