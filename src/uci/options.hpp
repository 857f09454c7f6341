// UCI option registry: declaration lines for `uci`, and checked `setoption`.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace horizon {

struct UciOption {
    enum class Type { CHECK, SPIN, BUTTON, STRING };
    std::string name;
    Type type = Type::STRING;
    std::string default_value;
    long long min = 0, max = 0;
    std::string value;
    // Applies a validated value; returns an error message if it could not be applied.
    std::function<std::optional<std::string>(const std::string&)> apply;
    // A spin value outside min..max is refused (the last good value kept) rather than clamped:
    // for options where the nearest bound is not what was meant (UCI_Elo).
    bool refuse_outside = false;
};

// What to tell the GUI once an option's value is set ("": nothing), e.g. what a path found.
using OptionReport = std::function<std::string(const std::string&)>;

class OptionRegistry {
public:
    void add(UciOption option, OptionReport report = {});
    // The `option name ...` lines.
    std::vector<std::string> declarations() const;
    // Sets an option (name case-insensitive). Returns a message for `info string` when
    // something was wrong or adjusted (unknown name, bad value, clamped), else nullopt.
    std::optional<std::string> set(const std::string& name,
                                   const std::optional<std::string>& value);
    const UciOption* find(const std::string& name) const;

private:
    std::vector<UciOption> options_;
    std::vector<OptionReport> reports_; // reports_[i] belongs to options_[i]
};

} // namespace horizon
