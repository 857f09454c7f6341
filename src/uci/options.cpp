#include "uci/options.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace horizon {

namespace {

std::string lower(std::string s) {
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

} // namespace

void OptionRegistry::add(UciOption option, OptionReport report) {
    option.value = option.default_value;
    options_.push_back(std::move(option));
    reports_.push_back(std::move(report));
}

const UciOption* OptionRegistry::find(const std::string& name) const {
    for (const auto& o : options_)
        if (lower(o.name) == lower(name)) return &o;
    return nullptr;
}

std::vector<std::string> OptionRegistry::declarations() const {
    std::vector<std::string> out;
    for (const auto& o : options_) {
        std::string line = "option name " + o.name + " type ";
        switch (o.type) {
        case UciOption::Type::CHECK:
            line += "check default " + o.default_value;
            break;
        case UciOption::Type::SPIN:
            line += "spin default " + o.default_value + " min " + std::to_string(o.min) + " max " +
                    std::to_string(o.max);
            break;
        case UciOption::Type::BUTTON:
            line += "button";
            break;
        case UciOption::Type::STRING:
            line += "string default " + (o.default_value.empty() ? "<empty>" : o.default_value);
            break;
        }
        out.push_back(line);
    }
    return out;
}

std::optional<std::string> OptionRegistry::set(const std::string& name,
                                               const std::optional<std::string>& value) {
    auto it = std::find_if(options_.begin(), options_.end(),
                           [&](const UciOption& o) { return lower(o.name) == lower(name); });
    if (it == options_.end()) return "unknown option '" + name.substr(0, 64) + "'";
    UciOption& o = *it;
    std::string v = value.value_or("");
    std::optional<std::string> note;
    switch (o.type) {
    case UciOption::Type::BUTTON:
        if (value) note = "option " + o.name + " is a button and takes no value; pressed anyway";
        break;
    case UciOption::Type::CHECK:
        if (!value) return "option " + o.name + " needs a value (true or false); kept " + o.value;
        v = lower(v);
        if (v != "true" && v != "false")
            return "option " + o.name + " takes true or false, not '" + v.substr(0, 32) +
                   "'; kept " + o.value;
        break;
    case UciOption::Type::SPIN: {
        if (!value) return "option " + o.name + " needs a number; kept " + o.value;
        long long n = 0;
        const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
        const bool overflow = ec == std::errc::result_out_of_range && ptr == v.data() + v.size();
        if (overflow) {
            n = (!v.empty() && v[0] == '-') ? o.min : o.max;
        } else if (ec != std::errc() || ptr != v.data() + v.size()) {
            return "option " + o.name + " takes a number, not '" + v.substr(0, 32) + "'; kept " +
                   o.value;
        }
        if ((overflow || n < o.min || n > o.max) && o.refuse_outside)
            return "option " + o.name + " value " + v.substr(0, 32) + " is outside " +
                   std::to_string(o.min) + ".." + std::to_string(o.max) + "; kept " + o.value;
        if (overflow || n < o.min || n > o.max) {
            const long long clamped = std::clamp(n, o.min, o.max);
            note = "option " + o.name + " value " + v.substr(0, 32) + " is outside " +
                   std::to_string(o.min) + ".." + std::to_string(o.max) + "; set to " +
                   std::to_string(clamped);
            n = clamped;
        }
        v = std::to_string(n);
        break;
    }
    case UciOption::Type::STRING:
        if (v == "<empty>") v.clear();
        break;
    }
    if (o.apply) {
        if (auto err = o.apply(v))
            return "option " + o.name + ": " + *err + "; kept " +
                   (o.value.empty() ? "<empty>" : o.value);
    }
    if (o.type != UciOption::Type::BUTTON) o.value = v;
    if (const auto& report = reports_[std::size_t(it - options_.begin())]) {
        const std::string said = report(v);
        if (!said.empty()) note = note ? *note + "; " + said : said;
    }
    return note;
}

} // namespace horizon
